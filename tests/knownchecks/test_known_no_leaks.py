"""No failure of a known-value plan check or of a state check shows a secret.

Rows: an id, a builder of a check that FAILS on the ``secret_plan`` or ``secret_state``
fixture (see known_secrets.py for what is planted where), and whether that failure would show
a secret if redaction were off (``reveals``; verified with redaction turned off, so the
row proves the redaction, not just an absence). Builders run afresh per test, so a
CompareValue collector never carries values from one test into another.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from known_secrets import (
    PLAN_SECRETS,
    SECRET_AFTER,
    SECRET_OUTPUT,
    SECRET_STATE_ATTR,
    SECRET_STATE_OUTPUT,
    SECRET_VAR,
    STATE_SECRETS,
    plan_document,
    state_document,
)

from plancheck import CheckFailedError, Plan, compare, revealing_sensitive
from plancheck import knownvalue as kv
from plancheck import statecheck as sc
from plancheck._checks import assert_plan
from plancheck._checks._known import (
    ExpectKnownOutputValue,
    ExpectKnownOutputValueAtPath,
    ExpectKnownValue,
    ExpectNoValue,
)
from plancheck._documents.state import State
from tfjsonpath import New, Path

DB = "aws_db_instance.db"
COPY = "terraform_data.copy"
NEAR = 'terraform_data.each["nope"]'
WRONG = kv.StringExact("not-it")


@dataclass(frozen=True)
class LeakCase:
    id: str
    build: Callable[[], Any]  # a check; for state rows it may prime a collector first
    on: str  # "plan" or "state"
    reveals: bool = True


def _collector_check(comparer: compare.ValueComparer, address: str, path: Path, first: State | None) -> Any:
    collector = sc.CompareValue(comparer)
    check = collector.add_state_value(address, path)
    if first is not None:
        check.failures(first)
    return check


def _state() -> State:
    # A second copy of the secret state, to prime collectors with.
    return State.from_dict(state_document())


P, S = "plan", "state"


# The fixtures live here, not in a conftest.py: with --doctest-modules, two conftest.py files
# outside packages clash as the same module name.
@pytest.fixture
def secret_plan() -> Plan:
    """The planted-secrets plan (a fresh document each time)."""
    return Plan.from_dict(plan_document())


@pytest.fixture
def secret_state() -> State:
    """The planted-secrets state (a fresh document each time)."""
    return State.from_dict(state_document())


@pytest.fixture(scope="session")
def planted_secrets() -> tuple[str, ...]:
    """Every secret planted in the plan and the state."""
    return PLAN_SECRETS + STATE_SECRETS


CASES = [
    # ExpectKnownValue (plan)
    LeakCase("kv-marked-leaf", lambda: ExpectKnownValue(DB, New("password"), WRONG), P),
    LeakCase(
        "kv-marked-leaf-wrong-type", lambda: ExpectKnownValue(DB, New("password"), kv.Bool(True)), P, False
    ),
    LeakCase(
        "kv-whole-resource-extra-names", lambda: ExpectKnownValue(DB, Path(), kv.ObjectExact({})), P, False
    ),
    LeakCase(
        "kv-whole-resource-nested",
        lambda: ExpectKnownValue(
            DB, Path(), kv.ObjectPartial({"settings": kv.ObjectPartial({"token": WRONG})})
        ),
        P,
    ),
    LeakCase(
        "kv-marked-child",
        lambda: ExpectKnownValue(DB, New("settings"), kv.ObjectPartial({"token": WRONG})),
        P,
    ),
    LeakCase("kv-before-secret-copied", lambda: ExpectKnownValue(DB, New("last_password"), WRONG), P),
    LeakCase(
        "kv-list-element",
        lambda: ExpectKnownValue(DB, New("list"), kv.ListExact([kv.StringExact("plain"), WRONG])),
        P,
    ),
    LeakCase("kv-list-size", lambda: ExpectKnownValue(DB, New("list"), kv.ListSizeExact(3)), P, False),
    LeakCase("kv-secret-map-key", lambda: ExpectKnownValue(DB, New("tags"), kv.MapExact({})), P),
    LeakCase(
        "kv-secret-map-key-extra", lambda: ExpectKnownValue(DB, New("tags"), kv.MapExact({"x": WRONG})), P
    ),
    LeakCase("kv-variable-copy", lambda: ExpectKnownValue(COPY, New("output"), WRONG), P),
    LeakCase(
        "kv-partly-unknown",
        lambda: ExpectKnownValue(DB, New("partial"), kv.ObjectPartial({"known": WRONG})),
        P,
    ),
    LeakCase(
        "kv-partly-unknown-unknown-part",
        lambda: ExpectKnownValue(DB, New("partial"), kv.ObjectExact({})),
        P,
        False,
    ),
    LeakCase("kv-unknown", lambda: ExpectKnownValue(DB, New("arn"), WRONG), P, False),
    LeakCase("kv-absent", lambda: ExpectKnownValue(DB, New("nope"), WRONG), P, False),
    LeakCase("kv-resource-near-secret-address", lambda: ExpectKnownValue(NEAR, New("id"), WRONG), P),
    LeakCase("kv-deleted", lambda: ExpectKnownValue("terraform_data.gone", New("input"), WRONG), P, False),
    LeakCase("kv-deposed-missing", lambda: ExpectKnownValue(DB, New("name"), WRONG, deposed="k"), P, False),
    # outputs (plan)
    LeakCase("kov-sensitive", lambda: ExpectKnownOutputValue("db_password", WRONG), P),
    LeakCase("kov-copies", lambda: ExpectKnownOutputValue("echo", kv.ObjectPartial({"copy": WRONG})), P),
    LeakCase("kov-missing", lambda: ExpectKnownOutputValue("db_passwd", WRONG), P, False),
    LeakCase("kovp-copy", lambda: ExpectKnownOutputValueAtPath("echo", New("copy"), WRONG), P),
    LeakCase("kovp-var", lambda: ExpectKnownOutputValueAtPath("echo", New("var"), WRONG), P),
    LeakCase("kovp-sensitive-root", lambda: ExpectKnownOutputValueAtPath("db_password", Path(), WRONG), P),
    LeakCase("kovp-absent", lambda: ExpectKnownOutputValueAtPath("echo", New("nope"), WRONG), P, False),
    # ExpectNoValue
    LeakCase("nv-marked-leaf", lambda: ExpectNoValue(DB, New("password")), P),
    LeakCase("nv-partly-marked", lambda: ExpectNoValue(DB, New("settings")), P),
    LeakCase("nv-whole", lambda: ExpectNoValue(DB, Path()), P),
    LeakCase("nv-before-copy", lambda: ExpectNoValue(DB, New("last_password")), P),
    LeakCase("nv-secret-key", lambda: ExpectNoValue(DB, New("tags")), P),
    LeakCase("nv-variable-copy", lambda: ExpectNoValue(COPY, New("output")), P),
    LeakCase("nv-partly-unknown", lambda: ExpectNoValue(DB, New("partial")), P),
    LeakCase("nv-path-into-secret", lambda: ExpectNoValue(DB, New("password").AtMapKey("x")), P, False),
    LeakCase("nv-unknown", lambda: ExpectNoValue(DB, New("arn")), P, False),
    LeakCase("nv-deleted", lambda: ExpectNoValue("terraform_data.gone", New("input")), P, False),
    LeakCase("nv-resource-near-secret-address", lambda: ExpectNoValue(NEAR, New("id")), P),
    # state: known values
    LeakCase("st-kv-marked", lambda: sc.ExpectKnownValue(DB, New("password"), WRONG), S),
    LeakCase(
        "st-kv-marked-child",
        lambda: sc.ExpectKnownValue(DB, New("config"), kv.ObjectPartial({"token": WRONG})),
        S,
    ),
    LeakCase(
        "st-kv-list",
        lambda: sc.ExpectKnownValue(DB, New("list"), kv.ListExact([kv.StringExact("plain"), WRONG])),
        S,
    ),
    LeakCase("st-kv-secret-key", lambda: sc.ExpectKnownValue(DB, New("keys"), kv.MapExact({})), S),
    LeakCase("st-kv-copy", lambda: sc.ExpectKnownValue(COPY, New("output"), WRONG), S),
    LeakCase(
        "st-kv-whole-copy",
        lambda: sc.ExpectKnownValue(COPY, Path(), kv.ObjectExact({"input": WRONG, "output": WRONG})),
        S,
    ),
    LeakCase("st-kv-absent", lambda: sc.ExpectKnownValue(DB, New("nope"), WRONG), S, False),
    LeakCase(
        "st-kv-near-secret-address",
        lambda: sc.ExpectKnownValue('terraform_data.each["no"]', New("x"), WRONG),
        S,
    ),
    LeakCase("st-kov-sensitive", lambda: sc.ExpectKnownOutputValue("token", WRONG), S),
    LeakCase("st-kov-copy", lambda: sc.ExpectKnownOutputValue("echo", kv.ObjectPartial({"copy": WRONG})), S),
    LeakCase("st-kovp-copy", lambda: sc.ExpectKnownOutputValueAtPath("echo", New("copy"), WRONG), S),
    LeakCase("st-kov-missing", lambda: sc.ExpectKnownOutputValue("tokens", WRONG), S, False),
    # state: sensitive marks
    LeakCase("st-sv-copy", lambda: sc.ExpectSensitiveValue(COPY, New("output")), S),
    LeakCase("st-sv-partly", lambda: sc.ExpectSensitiveValue(DB, New("config")), S),
    LeakCase("st-sv-partly-list", lambda: sc.ExpectSensitiveValue(DB, New("list")), S),
    LeakCase("st-sv-whole", lambda: sc.ExpectSensitiveValue(DB, Path()), S),
    LeakCase("st-sv-absent", lambda: sc.ExpectSensitiveValue(DB, New("nope")), S, False),
    LeakCase(
        "st-sv-near-secret-address", lambda: sc.ExpectSensitiveValue('terraform_data.each["no"]', New("x")), S
    ),
    # state: comparisons
    LeakCase(
        "st-cv-same-twice",
        lambda: _collector_check(compare.ValuesDiffer(), DB, New("password"), _state()),
        S,
    ),
    LeakCase(
        "st-cv-copy-after-marked",
        lambda: _collector_check(compare.ValuesDiffer(), COPY, New("output"), _state()),
        S,
    ),
    LeakCase(
        "st-cv-differ",
        lambda: _collector_check(compare.ValuesSame(), DB, New("password"), _state_with_password()),
        S,
    ),
    LeakCase(
        "st-cv-missing", lambda: _collector_check(compare.ValuesSame(), DB, New("nope"), None), S, False
    ),
    LeakCase(
        "st-pairs-marked-vs-copy",
        lambda: sc.CompareValuePairs(DB, New("password"), COPY, New("output"), compare.ValuesDiffer()),
        S,
    ),
    LeakCase(
        "st-pairs-marked-vs-plain",
        lambda: sc.CompareValuePairs(DB, New("password"), DB, New("name"), compare.ValuesSame()),
        S,
    ),
    LeakCase(
        "st-pairs-objects",
        lambda: sc.CompareValuePairs(DB, New("config"), COPY, Path(), compare.ValuesSame()),
        S,
    ),
    LeakCase(
        "st-pairs-missing",
        lambda: sc.CompareValuePairs(
            DB, New("nope"), 'terraform_data.each["no"]', New("x"), compare.ValuesSame()
        ),
        S,
    ),
    LeakCase(
        "st-coll-no-element",
        lambda: sc.CompareValueCollection(DB, [New("list")], DB, New("name"), compare.ValuesSame()),
        S,
    ),
    LeakCase(
        "st-coll-copy-vs-marked",
        lambda: sc.CompareValueCollection(COPY, [Path()], DB, New("name"), compare.ValuesSame()),
        S,
    ),
    LeakCase(
        "st-coll-keys",
        lambda: sc.CompareValueCollection(DB, [New("keys")], DB, New("name"), compare.ValuesSame()),
        S,
        False,
    ),
    LeakCase(
        "st-coll-into-secret",
        lambda: sc.CompareValueCollection(DB, [New("list"), New("x")], DB, New("name"), compare.ValuesSame()),
        S,
        False,
    ),
    LeakCase(
        "st-coll-not-collection",
        lambda: sc.CompareValueCollection(DB, [New("password")], DB, New("name"), compare.ValuesSame()),
        S,
        False,
    ),
]


def _state_with_password() -> State:
    document = state_document()
    document["values"]["root_module"]["resources"][0]["values"]["password"] = "other-password"
    return State.from_dict(document)


def _texts(check: Any, document: Plan | State) -> list[str]:
    """Every text a failure of ``check`` shows a user."""
    run = check.check_plan if isinstance(document, Plan) else check.check_state
    with pytest.raises(CheckFailedError) as info:
        run(document)
    error = info.value
    texts = [str(error), repr(error), repr(check), *(str(arg) for arg in error.args)]
    for failure in error.failures:
        texts.extend([str(failure), repr(failure), failure.message, str(failure.address), str(failure.path)])
    return texts


def _document(case: LeakCase, secret_plan: Plan, secret_state: State) -> Plan | State:
    return secret_plan if case.on == P else secret_state


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_no_failure_shows_a_secret(
    case: LeakCase, secret_plan: Plan, secret_state: State, planted_secrets: tuple[str, ...]
) -> None:
    for text in _texts(case.build(), _document(case, secret_plan, secret_state)):
        for secret in planted_secrets:
            assert secret not in text, f"{case.id} leaks {secret!r}: {text}"


@pytest.mark.parametrize("case", [c for c in CASES if c.reveals], ids=[c.id for c in CASES if c.reveals])
def test_the_row_would_leak_without_redaction(
    case: LeakCase, secret_plan: Plan, secret_state: State, planted_secrets: tuple[str, ...]
) -> None:
    check = case.build()
    with revealing_sensitive():
        texts = _texts(check, _document(case, secret_plan, secret_state))
    assert any(secret in text for text in texts for secret in planted_secrets), case.id


@pytest.mark.parametrize("case", [c for c in CASES if c.reveals], ids=[c.id for c in CASES if c.reveals])
def test_redacted_failures_say_sensitive_where_a_secret_was(
    case: LeakCase, secret_plan: Plan, secret_state: State
) -> None:
    texts = _texts(case.build(), _document(case, secret_plan, secret_state))
    assert any("(sensitive)" in text for text in texts), case.id


def test_assert_plan_and_assert_state_with_every_row_leak_nothing(
    secret_plan: Plan, secret_state: State, planted_secrets: tuple[str, ...]
) -> None:
    plan_checks = [c.build() for c in CASES if c.on == P]
    state_checks = [c.build() for c in CASES if c.on == S]
    with pytest.raises(CheckFailedError) as plan_info:
        assert_plan(secret_plan, *plan_checks)
    with pytest.raises(CheckFailedError) as state_info:
        sc.assert_state(secret_state, *state_checks)
    assert len(plan_info.value.failures) == len(plan_checks)
    assert len(state_info.value.failures) >= len(state_checks)
    text = str(plan_info.value) + repr(plan_info.value) + str(state_info.value) + repr(state_info.value)
    for secret in planted_secrets:
        assert secret not in text


# An expected literal that IS a secret (a user asserting the password) is hidden in messages too:
# a near miss would give it away. (The check's own repr shows what the user wrote.)
EXPECTING_SECRETS: list[tuple[str, Callable[[], Any], str]] = [
    (
        "plan-unmarked-copy",
        lambda: ExpectKnownValue(COPY, New("output"), kv.StringExact(SECRET_VAR + "x")),
        P,
    ),
    ("plan-marked", lambda: ExpectKnownValue(DB, New("name"), kv.StringExact(SECRET_AFTER)), P),
    (
        "plan-output",
        lambda: ExpectKnownOutputValue(
            "echo", kv.ObjectPartial({"copy": kv.StringExact(SECRET_OUTPUT[:-1])})
        ),
        P,
    ),
    ("state-attr", lambda: sc.ExpectKnownValue(DB, New("name"), kv.StringExact(SECRET_STATE_ATTR)), S),
    (
        "state-output",
        lambda: sc.ExpectKnownOutputValue("token", kv.StringExact(SECRET_STATE_OUTPUT + "x")),
        S,
    ),
]


@pytest.mark.parametrize(
    ("build", "on"), [e[1:] for e in EXPECTING_SECRETS], ids=[e[0] for e in EXPECTING_SECRETS]
)
def test_expected_secret_literals_are_hidden_in_messages(
    build: Callable[[], Any],
    on: str,
    secret_plan: Plan,
    secret_state: State,
    planted_secrets: tuple[str, ...],
) -> None:
    check = build()
    document: Plan | State = secret_plan if on == P else secret_state
    run = check.check_plan if on == P else check.check_state
    with pytest.raises(CheckFailedError) as info:
        run(document)
    error = info.value
    texts = [str(error), repr(error), *(f.message for f in error.failures)]
    for text in texts:
        for secret in planted_secrets:
            assert secret not in text, text


def test_every_planted_secret_is_known(secret_plan: Plan, secret_state: State) -> None:
    for secret in (SECRET_AFTER, SECRET_OUTPUT, SECRET_VAR):
        assert secret in secret_plan.secrets
    for secret in (SECRET_STATE_ATTR, SECRET_STATE_OUTPUT):
        assert secret in secret_state.secrets
