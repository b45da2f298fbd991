"""No failure of any check shows a secret: not in str(error), repr(error), repr(check) or any message.

To cover a new check, add a row to CASES: an id, a check that FAILS on the ``secret_plan``
fixture (see conftest.py for what is planted where), and whether that failure would
show a secret if redaction were off (``reveals``; verified with redaction turned off,
so the row proves the redaction, not just an absence).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from plancheck import Plan, PlanCheckError, revealing_sensitive
from plancheck._checks import (
    DeferredReason,
    ExpectDeferredChange,
    ExpectEmptyPlan,
    ExpectNoDeferredChanges,
    ExpectNullOutputValue,
    ExpectNullOutputValueAtPath,
    ExpectResourceAction,
    ExpectResourceReplacePaths,
    ExpectSensitiveOutputValue,
    ExpectSensitiveValue,
    ExpectUnknownOutputValue,
    ExpectUnknownOutputValueAtPath,
    ExpectUnknownValue,
    ResourceAction,
    assert_plan,
)
from tfjsonpath import New, Path

DB = "aws_db_instance.db"
COPY = "terraform_data.copy"
NEAR_SECRET_ADDRESS = 'terraform_data.each["nope"]'


@dataclass(frozen=True)
class LeakCase:
    id: str
    check: object  # anything with check_plan(plan) that raises an AssertionError
    reveals: bool = True


CASES = [
    # ExpectUnknownValue: every "known" rendering
    LeakCase("unknown-marked-leaf", ExpectUnknownValue(DB, New("password"))),
    LeakCase("unknown-whole-resource", ExpectUnknownValue(DB, Path())),
    LeakCase("unknown-marked-child", ExpectUnknownValue(DB, New("settings"))),
    LeakCase("unknown-before-secret-copied", ExpectUnknownValue(DB, New("last_password"))),
    LeakCase("unknown-marked-list-element", ExpectUnknownValue(DB, New("list"))),
    LeakCase("unknown-secret-map-key", ExpectUnknownValue(DB, New("tags"))),
    LeakCase("unknown-unmarked-variable-copy", ExpectUnknownValue(COPY, New("output"))),
    LeakCase("unknown-whole-copy", ExpectUnknownValue(COPY, Path())),
    LeakCase("unknown-absent", ExpectUnknownValue(DB, New("nope")), reveals=False),
    LeakCase("unknown-resource-near-secret-address", ExpectUnknownValue(NEAR_SECRET_ADDRESS, New("id"))),
    # ExpectSensitiveValue
    LeakCase("sensitive-partly", ExpectSensitiveValue(DB, Path())),
    LeakCase("sensitive-partly-child", ExpectSensitiveValue(DB, New("settings"))),
    LeakCase("sensitive-before-secret-copied", ExpectSensitiveValue(DB, New("last_password"))),
    LeakCase("sensitive-unmarked-variable-copy", ExpectSensitiveValue(COPY, New("output"))),
    LeakCase("sensitive-secret-map-key", ExpectSensitiveValue(DB, New("tags"))),
    LeakCase("sensitive-unknown", ExpectSensitiveValue(DB, New("arn")), reveals=False),
    LeakCase("sensitive-absent", ExpectSensitiveValue(DB, New("nope")), reveals=False),
    LeakCase("sensitive-resource-missing", ExpectSensitiveValue(NEAR_SECRET_ADDRESS, New("id"))),
    # outputs
    LeakCase("output-unknown-sensitive", ExpectUnknownOutputValue("db_password")),
    LeakCase("output-unknown-copies", ExpectUnknownOutputValue("echo")),
    LeakCase("output-unknown-at-path", ExpectUnknownOutputValueAtPath("echo", New("copy"))),
    LeakCase("output-unknown-at-root-sensitive", ExpectUnknownOutputValueAtPath("db_password", Path())),
    LeakCase("output-missing", ExpectUnknownOutputValue("db_passwd"), reveals=False),
    LeakCase("output-sensitive", ExpectSensitiveOutputValue("echo")),
    LeakCase("output-null-sensitive", ExpectNullOutputValue("db_password")),
    LeakCase("output-null-copies", ExpectNullOutputValue("echo")),
    LeakCase("output-null-at-path", ExpectNullOutputValueAtPath("echo", New("var"))),
    # actions
    LeakCase("action-closest-address", ExpectResourceAction(NEAR_SECRET_ADDRESS, ResourceAction.Create)),
    LeakCase("action-mismatch", ExpectResourceAction(DB, ResourceAction.Create), reveals=False),
    LeakCase(
        "action-deposed-missing", ExpectResourceAction(DB, ResourceAction.Create, deposed="k"), reveals=False
    ),
    LeakCase("empty-plan-addresses", ExpectEmptyPlan()),
    LeakCase("replace-paths-secret-key", ExpectResourceReplacePaths(DB, [New("password")])),
    LeakCase("replace-paths-missing-resource", ExpectResourceReplacePaths(NEAR_SECRET_ADDRESS, [])),
    # deferred
    LeakCase("no-deferred", ExpectNoDeferredChanges(), reveals=False),
    LeakCase(
        "deferred-missing",
        ExpectDeferredChange(NEAR_SECRET_ADDRESS, DeferredReason.ResourceConfigUnknown),
        reveals=False,
    ),
    LeakCase("deferred-planned", ExpectDeferredChange(DB, DeferredReason.AbsentPrereq), reveals=False),
]


def _texts(check: object, plan: Plan) -> list[str]:
    """Every text a failure of ``check`` on ``plan`` shows a user."""
    check_plan = getattr(check, "check_plan")  # noqa: B009 - future rows may not be PlanChecks
    with pytest.raises(AssertionError) as info:
        check_plan(plan)
    error = info.value
    texts = [str(error), repr(error), repr(check), *(str(arg) for arg in error.args)]
    if isinstance(error, PlanCheckError):
        for failure in error.failures:
            texts.extend([str(failure), repr(failure), failure.message, str(failure.address)])
    return texts


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_no_failure_shows_a_secret(
    case: LeakCase, secret_plan: Plan, planted_secrets: tuple[str, ...]
) -> None:
    for text in _texts(case.check, secret_plan):
        for secret in planted_secrets:
            assert secret not in text, f"{case.id} leaks {secret!r}: {text}"


@pytest.mark.parametrize("case", [c for c in CASES if c.reveals], ids=[c.id for c in CASES if c.reveals])
def test_the_row_would_leak_without_redaction(
    case: LeakCase, secret_plan: Plan, planted_secrets: tuple[str, ...]
) -> None:
    with revealing_sensitive():
        texts = _texts(case.check, secret_plan)
    assert any(secret in text for text in texts for secret in planted_secrets), case.id


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_redacted_failures_say_sensitive_where_a_secret_was(case: LeakCase, secret_plan: Plan) -> None:
    texts = _texts(case.check, secret_plan)
    if case.reveals:
        assert any("(sensitive)" in text for text in texts), case.id


def test_assert_plan_with_every_row_leaks_nothing(
    secret_plan: Plan, planted_secrets: tuple[str, ...]
) -> None:
    with pytest.raises(PlanCheckError) as info:
        assert_plan(secret_plan, *(c.check for c in CASES))  # type: ignore[arg-type]
    text = str(info.value) + repr(info.value)
    assert len(info.value.failures) >= len(CASES)
    for secret in planted_secrets:
        assert secret not in text


def test_every_planted_secret_is_known_to_the_plan(
    secret_plan: Plan, planted_secrets: tuple[str, ...]
) -> None:
    for secret in planted_secrets:
        assert secret in secret_plan.secrets, secret
