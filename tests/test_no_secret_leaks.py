"""No failure of any check shows a secret: not in str(error), repr(error), repr(check) or any message.

One table for every check family: plan checks, known-value plan checks, state checks, config
checks and comparers. To cover a new check, add a row to CASES: an id, the family, a builder of
a check that FAILS on the planted-secrets plan, state or configuration (see planted_secrets.py
for what is planted where), and whether that failure would show a secret if redaction were off
(``reveals``; verified with redaction turned off, so the row proves the redaction, not just an
absence). Builders run afresh per test, so a CompareValue collector never carries values from
one test into another. A leak is what ``secret_shapes.leaks`` says it is.

This table is of messages; ``test_secret_channels.py`` is the table of front ends and output channels
(every byte each emits), and ``test_either_side_marks.py`` the table of comparisons (a value marked on
either side is hidden on both).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from planted_secrets import (
    PLANTED,
    SECRET_ACTION,
    SECRET_AFTER,
    SECRET_BEFORE,
    SECRET_CONFIG,
    SECRET_OUTPUT,
    SECRET_STATE_ATTR,
    SECRET_STATE_OUTPUT,
    SECRET_VAR,
    config_document,
    plan_document,
    state_document,
)
from secret_shapes import leaks

import plancheck
from plancheck import (
    Actions,
    ActionTriggerEvent,
    CheckFailedError,
    DeferredReason,
    ExpectActionCounts,
    ExpectActionInvocation,
    ExpectCount,
    ExpectDeferredActionInvocation,
    ExpectDeferredChange,
    ExpectDrift,
    ExpectEachKnownValue,
    ExpectEachNullValue,
    ExpectEachSensitiveValue,
    ExpectEachUnknownValue,
    ExpectEmptyPlan,
    ExpectKnownActionConfigValue,
    ExpectKnownOutputValue,
    ExpectKnownOutputValueAtPath,
    ExpectKnownValue,
    ExpectNoActionInvocations,
    ExpectNoDeferredChanges,
    ExpectNoDestroys,
    ExpectNoDrift,
    ExpectNoReplacements,
    ExpectNoResourceChanges,
    ExpectNoValue,
    ExpectNullOutputValue,
    ExpectNullOutputValueAtPath,
    ExpectOnlyOutputChanges,
    ExpectResourceAction,
    ExpectResourceReplacePaths,
    ExpectSensitiveActionConfigValue,
    ExpectSensitiveOutputValue,
    ExpectSensitiveValue,
    ExpectUnknownActionConfigValue,
    ExpectUnknownOutputValue,
    ExpectUnknownOutputValueAtPath,
    ExpectUnknownValue,
    Plan,
    PlanCheckWarning,
    ResourceAction,
    Resources,
    ValueMismatchError,
    assert_plan,
    compare,
    revealing_sensitive,
)
from plancheck import knownvalue as kv
from plancheck import statecheck as sc
from plancheck import tfconfig as tc
from plancheck._documents.state import State
from plancheck._redact import Secrets
from tfjsonpath import New, Path

DB = "aws_db_instance.db"
ACT = "action.webhook_send.notify"
COPY = "terraform_data.copy"
NEAR = 'terraform_data.each["nope"]'
STATE_NEAR = 'terraform_data.each["no"]'
WRONG = kv.StringExact("not-it")

# What a row runs on.
P, S, C, V = "plan", "state", "config", "values"
# The check families; every one has rows (test_every_family_has_rows).
PLAN_CHECKS, KNOWN_PLAN_CHECKS, STATE_CHECKS, CONFIG_CHECKS, COMPARE = (
    "plan checks",
    "known-value plan checks",
    "state checks",
    "config checks",
    "compare",
)
FAMILIES = (PLAN_CHECKS, KNOWN_PLAN_CHECKS, STATE_CHECKS, CONFIG_CHECKS, COMPARE)


@dataclass(frozen=True)
class Documents:
    plan: Plan
    state: State
    config: dict[str, Any]


@dataclass(frozen=True)
class LeakCase:
    id: str
    family: str
    build: Callable[[], Any]  # a check or comparer; for state rows it may prime a collector first
    on: str  # P, S, C, or V (a comparer's CompareValues over ``values``)
    reveals: bool = True
    values: tuple[tuple[Any, Any], ...] = ()  # V rows: (value, marks) pairs to compare


def _collector_check(comparer: compare.ValueComparer, address: str, path: Path, first: State | None) -> Any:
    collector = sc.CompareValue(comparer)
    check = collector.AddStateValue(address, path)
    if first is not None:
        check.failures(first)
    return check


def _state() -> State:
    # A second copy of the secret state, to prime collectors with.
    return State.from_dict(state_document())


def _state_with_password() -> State:
    document = state_document()
    document["values"]["root_module"]["resources"][0]["values"]["password"] = "other-password"
    return State.from_dict(document)


def _plan_rows() -> list[LeakCase]:
    def row(id: str, build: Callable[[], Any], reveals: bool = True) -> LeakCase:
        return LeakCase(id, PLAN_CHECKS, build, P, reveals)

    return [
        # ExpectUnknownValue: every "known" rendering
        row("unknown-marked-leaf", lambda: ExpectUnknownValue(DB, New("password"))),
        row("unknown-whole-resource", lambda: ExpectUnknownValue(DB, Path())),
        row("unknown-marked-child", lambda: ExpectUnknownValue(DB, New("settings"))),
        row("unknown-before-secret-copied", lambda: ExpectUnknownValue(DB, New("last_password"))),
        row("unknown-marked-list-element", lambda: ExpectUnknownValue(DB, New("list"))),
        row("unknown-secret-map-key", lambda: ExpectUnknownValue(DB, New("tags"))),
        row("unknown-unmarked-variable-copy", lambda: ExpectUnknownValue(COPY, New("output"))),
        row("unknown-whole-copy", lambda: ExpectUnknownValue(COPY, Path())),
        row("unknown-absent", lambda: ExpectUnknownValue(DB, New("nope")), False),
        row("unknown-resource-near-secret-address", lambda: ExpectUnknownValue(NEAR, New("id"))),
        # ExpectSensitiveValue
        row("sensitive-partly", lambda: ExpectSensitiveValue(DB, Path())),
        row("sensitive-partly-child", lambda: ExpectSensitiveValue(DB, New("settings"))),
        row("sensitive-before-secret-copied", lambda: ExpectSensitiveValue(DB, New("last_password"))),
        row("sensitive-unmarked-variable-copy", lambda: ExpectSensitiveValue(COPY, New("output"))),
        row("sensitive-secret-map-key", lambda: ExpectSensitiveValue(DB, New("tags"))),
        row("sensitive-unknown", lambda: ExpectSensitiveValue(DB, New("arn")), False),
        row("sensitive-absent", lambda: ExpectSensitiveValue(DB, New("nope")), False),
        row("sensitive-resource-missing", lambda: ExpectSensitiveValue(NEAR, New("id"))),
        # outputs
        row("output-unknown-sensitive", lambda: ExpectUnknownOutputValue("db_password")),
        row("output-unknown-copies", lambda: ExpectUnknownOutputValue("echo")),
        row("output-unknown-at-path", lambda: ExpectUnknownOutputValueAtPath("echo", New("copy"))),
        row("output-unknown-at-root-sensitive", lambda: ExpectUnknownOutputValueAtPath("db_password", Path())),
        row("output-missing", lambda: ExpectUnknownOutputValue("db_passwd"), False),
        row("output-sensitive", lambda: ExpectSensitiveOutputValue("echo")),
        row("output-null-sensitive", lambda: ExpectNullOutputValue("db_password")),
        row("output-null-copies", lambda: ExpectNullOutputValue("echo")),
        row("output-null-at-path", lambda: ExpectNullOutputValueAtPath("echo", New("var"))),
        # actions
        row("action-closest-address", lambda: ExpectResourceAction(NEAR, ResourceAction.Create)),
        row("action-mismatch", lambda: ExpectResourceAction(DB, ResourceAction.Create), False),
        row(
            "action-deposed-missing",
            lambda: ExpectResourceAction(DB, ResourceAction.Create, deposed="k"),
            False,
        ),
        row("empty-plan-addresses", lambda: ExpectEmptyPlan()),
        row("replace-paths-secret-key", lambda: ExpectResourceReplacePaths(DB, [New("password")])),
        row("replace-paths-missing-resource", lambda: ExpectResourceReplacePaths(NEAR, [])),
        # deferred
        row("no-deferred", lambda: ExpectNoDeferredChanges(), False),
        row(
            "deferred-missing",
            lambda: ExpectDeferredChange(NEAR, DeferredReason.ResourceConfigUnknown),
            False,
        ),
        row("deferred-planned", lambda: ExpectDeferredChange(DB, DeferredReason.AbsentPrereq), False),
        # action invocations (Terraform 1.14+): a secret in the configuration, in the triggering resource's key
        row("invocation-other-event", lambda: ExpectActionInvocation(ACT, event=ActionTriggerEvent.BeforeDestroy)),
        row("invocation-not-by", lambda: ExpectActionInvocation(ACT, triggered_by="terraform_data.copy")),
        row("invocation-closest", lambda: ExpectActionInvocation("action.webhook_send.notif"), False),
        row("no-invocations", lambda: ExpectNoActionInvocations()),
        row("invocation-config-known-marked", lambda: ExpectKnownActionConfigValue(ACT, New("token"), WRONG)),
        row("invocation-config-known-whole", lambda: ExpectKnownActionConfigValue(ACT, Path(), kv.ObjectExact({}))),
        row("invocation-config-known-secret-key",
            lambda: ExpectKnownActionConfigValue(ACT, New("headers"), kv.MapExact({}))),
        row("invocation-config-unknown-marked", lambda: ExpectUnknownActionConfigValue(ACT, New("token"))),
        row("invocation-config-unknown-secret-key", lambda: ExpectUnknownActionConfigValue(ACT, New("headers"))),
        row("invocation-config-sensitive-partly", lambda: ExpectSensitiveActionConfigValue(ACT, Path())),
        row("invocation-config-deferred-missing",
            lambda: ExpectKnownActionConfigValue("action.webhook_send.later", New("token"), WRONG), False),
        row("invocation-deferred-reason",
            lambda: ExpectDeferredActionInvocation("action.webhook_send.later", DeferredReason.AbsentPrereq), False),
        row("invocation-deferred-missing",
            lambda: ExpectDeferredActionInvocation(ACT, DeferredReason.AbsentPrereq)),
        # Actions selectors: the configuration's marked values, and the trigger naming a secret for_each key
        row("each-action-known-marked", lambda: ExpectEachKnownValue(Actions(ACT), New("token"), WRONG)),
        row("each-action-known-whole", lambda: ExpectEachKnownValue(Actions(), Path(), kv.ObjectExact({}))),
        row("each-action-unknown-secret-key", lambda: ExpectEachUnknownValue(Actions(type="webhook_*"), New("headers"))),
        row("each-action-null-marked", lambda: ExpectEachNullValue(Actions(event="AfterCreate"), New("token"))),
        row("each-action-sensitive-channel", lambda: ExpectEachSensitiveValue(Actions(ACT), New("channel"))),
        row("each-action-empty", lambda: ExpectEachKnownValue(Actions("action.x.*"), New("token"), WRONG)),
        # whole-plan checks: a secret in a value, in a for_each key of a listed address, in a replace path
        row("each-known-marked", lambda: ExpectEachKnownValue(Resources(), New("password"), WRONG)),
        row("each-known-variable-copy", lambda: ExpectEachKnownValue("terraform_data.*", New("output"), WRONG)),
        row("each-known-partly-unknown", lambda: ExpectEachKnownValue(DB, New("partial"), kv.ObjectExact({})), False),
        row("each-known-near-secret-address",
            lambda: ExpectEachKnownValue(Resources(address=NEAR), New("input"), WRONG)),
        row("each-sensitive-partly", lambda: ExpectEachSensitiveValue(DB, New("settings"))),
        row("each-sensitive-copy", lambda: ExpectEachSensitiveValue(COPY, New("output"))),
        row("each-unknown-known", lambda: ExpectEachUnknownValue(Resources(type="terraform_data"), New("input"))),
        row("each-null-known", lambda: ExpectEachNullValue(DB, New("list"))),
        row("each-null-unknown-secret-key", lambda: ExpectEachNullValue("terraform_data.each[*]", New("id"))),
        row("no-replacements-secret-path", lambda: ExpectNoReplacements()),
        row("no-destroys", lambda: ExpectNoDestroys(except_="terraform_data.gone")),
        row("action-counts-addresses", lambda: ExpectActionCounts(create=0)),
        row("count-addresses", lambda: ExpectCount("terraform_data.*", 0)),
        row("no-resource-changes", lambda: ExpectNoResourceChanges()),
        row("only-output-changes", lambda: ExpectOnlyOutputChanges()),
        row("no-drift", lambda: ExpectNoDrift()),
        row("drift-elsewhere", lambda: ExpectDrift(DB, New("name"))),
        row("drift-missing", lambda: ExpectDrift(NEAR), False),
    ]


def _known_plan_rows() -> list[LeakCase]:
    def row(id: str, build: Callable[[], Any], reveals: bool = True) -> LeakCase:
        return LeakCase(id, KNOWN_PLAN_CHECKS, build, P, reveals)

    return [
        # ExpectKnownValue
        row("kv-marked-leaf", lambda: ExpectKnownValue(DB, New("password"), WRONG)),
        row("kv-marked-leaf-wrong-type", lambda: ExpectKnownValue(DB, New("password"), kv.Bool(True)), False),
        row("kv-whole-resource-extra-names", lambda: ExpectKnownValue(DB, Path(), kv.ObjectExact({})), False),
        row(
            "kv-whole-resource-nested",
            lambda: ExpectKnownValue(DB, Path(), kv.ObjectPartial({"settings": kv.ObjectPartial({"token": WRONG})})),
        ),
        row("kv-marked-child", lambda: ExpectKnownValue(DB, New("settings"), kv.ObjectPartial({"token": WRONG}))),
        row("kv-before-secret-copied", lambda: ExpectKnownValue(DB, New("last_password"), WRONG)),
        row(
            "kv-list-element",
            lambda: ExpectKnownValue(DB, New("list"), kv.ListExact([kv.StringExact("plain"), WRONG])),
        ),
        row("kv-list-size", lambda: ExpectKnownValue(DB, New("list"), kv.ListSizeExact(3)), False),
        row("kv-secret-map-key", lambda: ExpectKnownValue(DB, New("tags"), kv.MapExact({}))),
        row("kv-secret-map-key-extra", lambda: ExpectKnownValue(DB, New("tags"), kv.MapExact({"x": WRONG}))),
        row("kv-variable-copy", lambda: ExpectKnownValue(COPY, New("output"), WRONG)),
        row("kv-partly-unknown", lambda: ExpectKnownValue(DB, New("partial"), kv.ObjectPartial({"known": WRONG}))),
        row(
            "kv-partly-unknown-unknown-part",
            lambda: ExpectKnownValue(DB, New("partial"), kv.ObjectExact({})),
            False,
        ),
        row("kv-unknown", lambda: ExpectKnownValue(DB, New("arn"), WRONG), False),
        row("kv-absent", lambda: ExpectKnownValue(DB, New("nope"), WRONG), False),
        row("kv-resource-near-secret-address", lambda: ExpectKnownValue(NEAR, New("id"), WRONG)),
        row("kv-deleted", lambda: ExpectKnownValue("terraform_data.gone", New("input"), WRONG), False),
        row("kv-deposed-missing", lambda: ExpectKnownValue(DB, New("name"), WRONG, deposed="k"), False),
        # outputs
        row("kov-sensitive", lambda: ExpectKnownOutputValue("db_password", WRONG)),
        row("kov-copies", lambda: ExpectKnownOutputValue("echo", kv.ObjectPartial({"copy": WRONG}))),
        row("kov-missing", lambda: ExpectKnownOutputValue("db_passwd", WRONG), False),
        row("kovp-copy", lambda: ExpectKnownOutputValueAtPath("echo", New("copy"), WRONG)),
        row("kovp-var", lambda: ExpectKnownOutputValueAtPath("echo", New("var"), WRONG)),
        row("kovp-sensitive-root", lambda: ExpectKnownOutputValueAtPath("db_password", Path(), WRONG)),
        row("kovp-absent", lambda: ExpectKnownOutputValueAtPath("echo", New("nope"), WRONG), False),
        # ExpectNoValue
        row("nv-marked-leaf", lambda: ExpectNoValue(DB, New("password"))),
        row("nv-partly-marked", lambda: ExpectNoValue(DB, New("settings"))),
        row("nv-whole", lambda: ExpectNoValue(DB, Path())),
        row("nv-before-copy", lambda: ExpectNoValue(DB, New("last_password"))),
        row("nv-secret-key", lambda: ExpectNoValue(DB, New("tags"))),
        row("nv-variable-copy", lambda: ExpectNoValue(COPY, New("output"))),
        row("nv-partly-unknown", lambda: ExpectNoValue(DB, New("partial"))),
        row("nv-path-into-secret", lambda: ExpectNoValue(DB, New("password").AtMapKey("x")), False),
        row("nv-unknown", lambda: ExpectNoValue(DB, New("arn")), False),
        row("nv-deleted", lambda: ExpectNoValue("terraform_data.gone", New("input")), False),
        row("nv-resource-near-secret-address", lambda: ExpectNoValue(NEAR, New("id"))),
    ]


def _state_rows() -> list[LeakCase]:
    def row(id: str, build: Callable[[], Any], reveals: bool = True) -> LeakCase:
        return LeakCase(id, STATE_CHECKS, build, S, reveals)

    return [
        # known values
        row("st-kv-marked", lambda: sc.ExpectKnownValue(DB, New("password"), WRONG)),
        row("st-kv-marked-child", lambda: sc.ExpectKnownValue(DB, New("config"), kv.ObjectPartial({"token": WRONG}))),
        row(
            "st-kv-list",
            lambda: sc.ExpectKnownValue(DB, New("list"), kv.ListExact([kv.StringExact("plain"), WRONG])),
        ),
        row("st-kv-secret-key", lambda: sc.ExpectKnownValue(DB, New("keys"), kv.MapExact({}))),
        row("st-kv-copy", lambda: sc.ExpectKnownValue(COPY, New("output"), WRONG)),
        row(
            "st-kv-whole-copy",
            lambda: sc.ExpectKnownValue(COPY, Path(), kv.ObjectExact({"input": WRONG, "output": WRONG})),
        ),
        row("st-kv-absent", lambda: sc.ExpectKnownValue(DB, New("nope"), WRONG), False),
        row("st-kv-near-secret-address", lambda: sc.ExpectKnownValue(STATE_NEAR, New("x"), WRONG)),
        row("st-kov-sensitive", lambda: sc.ExpectKnownOutputValue("token", WRONG)),
        row("st-kov-copy", lambda: sc.ExpectKnownOutputValue("echo", kv.ObjectPartial({"copy": WRONG}))),
        row("st-kovp-copy", lambda: sc.ExpectKnownOutputValueAtPath("echo", New("copy"), WRONG)),
        row("st-kov-missing", lambda: sc.ExpectKnownOutputValue("tokens", WRONG), False),
        # sensitive marks
        row("st-sv-copy", lambda: sc.ExpectSensitiveValue(COPY, New("output"))),
        row("st-sv-partly", lambda: sc.ExpectSensitiveValue(DB, New("config"))),
        row("st-sv-partly-list", lambda: sc.ExpectSensitiveValue(DB, New("list"))),
        row("st-sv-whole", lambda: sc.ExpectSensitiveValue(DB, Path())),
        row("st-sv-absent", lambda: sc.ExpectSensitiveValue(DB, New("nope")), False),
        row("st-sv-near-secret-address", lambda: sc.ExpectSensitiveValue(STATE_NEAR, New("x"))),
        # resource identity
        row("st-id-exact", lambda: sc.ExpectIdentity(COPY, {"id": WRONG, "input": kv.NotNull()})),
        row("st-id-value", lambda: sc.ExpectIdentityValue(COPY, New("id"), WRONG)),
        row("st-id-matches-state", lambda: sc.ExpectIdentityValueMatchesState(COPY, New("input"))),
        row("st-id-matches-state-at-path", lambda: sc.ExpectIdentityValueMatchesStateAtPath(COPY, New("input"), New("output"))),
        row("st-id-none", lambda: sc.ExpectIdentity(DB, {"id": WRONG}), False),
        # whole-state checks
        row("st-each-known-marked", lambda: sc.ExpectEachKnownValue(Resources(), New("password"), WRONG)),
        row("st-each-known-secret-key-address", lambda: sc.ExpectEachKnownValue("terraform_data.*", New("input"), WRONG)),
        row("st-each-near-secret-address",
            lambda: sc.ExpectEachKnownValue(Resources(address=STATE_NEAR), New("x"), WRONG)),
    ]


def _compare_rows() -> list[LeakCase]:
    def row(id: str, build: Callable[[], Any], reveals: bool = True) -> LeakCase:
        return LeakCase(id, COMPARE, build, S, reveals)

    def values_row(id: str, comparer: compare.ValueComparer, *values: tuple[Any, Any]) -> LeakCase:
        return LeakCase(id, COMPARE, lambda: comparer, V, True, values)

    return [
        # state comparisons
        row("st-cv-same-twice", lambda: _collector_check(compare.ValuesDiffer(), DB, New("password"), _state())),
        row(
            "st-cv-copy-after-marked",
            lambda: _collector_check(compare.ValuesDiffer(), COPY, New("output"), _state()),
        ),
        row(
            "st-cv-differ",
            lambda: _collector_check(compare.ValuesSame(), DB, New("password"), _state_with_password()),
        ),
        row("st-cv-missing", lambda: _collector_check(compare.ValuesSame(), DB, New("nope"), None), False),
        row(
            "st-pairs-marked-vs-copy",
            lambda: sc.CompareValuePairs(DB, New("password"), COPY, New("output"), compare.ValuesDiffer()),
        ),
        row(
            "st-pairs-marked-vs-plain",
            lambda: sc.CompareValuePairs(DB, New("password"), DB, New("name"), compare.ValuesSame()),
        ),
        row(
            "st-pairs-objects",
            lambda: sc.CompareValuePairs(DB, New("config"), COPY, Path(), compare.ValuesSame()),
        ),
        row(
            "st-pairs-missing",
            lambda: sc.CompareValuePairs(DB, New("nope"), STATE_NEAR, New("x"), compare.ValuesSame()),
        ),
        row(
            "st-coll-no-element",
            lambda: sc.CompareValueCollection(DB, [New("list")], DB, New("name"), compare.ValuesSame()),
        ),
        row(
            "st-coll-copy-vs-marked",
            lambda: sc.CompareValueCollection(COPY, [Path()], DB, New("name"), compare.ValuesSame()),
        ),
        row(
            "st-coll-keys",
            lambda: sc.CompareValueCollection(DB, [New("keys")], DB, New("name"), compare.ValuesSame()),
            False,
        ),
        row(
            "st-coll-into-secret",
            lambda: sc.CompareValueCollection(DB, [New("list"), New("x")], DB, New("name"), compare.ValuesSame()),
            False,
        ),
        row(
            "st-coll-not-collection",
            lambda: sc.CompareValueCollection(DB, [New("password")], DB, New("name"), compare.ValuesSame()),
            False,
        ),
        # comparers on their own: marked values, and an unmarked copy of a known secret
        values_row("cmp-same-marked-vs-plain", compare.ValuesSame(), (SECRET_AFTER, True), ("db", False)),
        values_row("cmp-differ-marked-twice", compare.ValuesDiffer(), (SECRET_AFTER, True), (SECRET_AFTER, True)),
        values_row(
            "cmp-differ-all-marked-child",
            compare.ValuesDifferAll(),
            ({"token": SECRET_AFTER}, {"token": True}),
            ({"token": SECRET_AFTER}, {"token": True}),
        ),
        values_row("cmp-same-any-marked", compare.ValuesSameAny(), (SECRET_AFTER, True), ("db", False)),
        values_row("cmp-same-unmarked-copy", compare.ValuesSame(), (SECRET_VAR, False), ("other", False)),
    ]


def _config_rows() -> list[LeakCase]:
    def row(id: str, build: Callable[[], Any], reveals: bool = True) -> LeakCase:
        return LeakCase(id, CONFIG_CHECKS, build, C, reveals)

    return [
        row("cfg-variable-default", lambda: tc.ExpectVariable("db_password", default="letmein")),
        row("cfg-variable-not-sensitive", lambda: tc.ExpectVariable("db_password", sensitive=False), False),
        row("cfg-variable-missing", lambda: tc.ExpectVariable("db_passwd"), False),
    ]


CASES = _plan_rows() + _known_plan_rows() + _state_rows() + _compare_rows() + _config_rows()
REVEALING = [c for c in CASES if c.reveals]
# Comparers see only what they are given: these are the secrets they are told about.
COMPARER_SECRETS = Secrets([SECRET_VAR])


@pytest.fixture
def documents() -> Documents:
    """The planted-secrets plan, state and configuration (fresh documents each time)."""
    return Documents(Plan.from_dict(plan_document()), State.from_dict(state_document()), config_document())


def _run(case: LeakCase, check: Any, documents: Documents) -> None:
    if case.on == P:
        check.CheckPlan(documents.plan)
    elif case.on == S:
        check.CheckState(documents.state)
    elif case.on == C:
        check.check_config(documents.config)
    else:
        values, marks = zip(*case.values, strict=True)
        check.CompareValues(list(values), sensitive=list(marks), secrets=COMPARER_SECRETS)


def _texts(case: LeakCase, check: Any, documents: Documents) -> list[str]:
    """Every text a failure of ``check`` shows a user."""
    with pytest.raises(AssertionError) as info:
        _run(case, check, documents)
    error = info.value
    texts = [str(error), repr(error), repr(check), *(str(arg) for arg in error.args)]
    for failure in getattr(error, "failures", ()):
        texts.extend([str(failure), repr(failure), failure.message, str(failure.address), str(failure.path)])
    if isinstance(error, ValueMismatchError):
        texts.extend([str(error.path), error.reason])
    return texts


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_no_failure_shows_a_secret(case: LeakCase, documents: Documents) -> None:
    for text in _texts(case, case.build(), documents):
        assert leaks(text, PLANTED) == [], f"{case.id} leaks: {text}"


@pytest.mark.parametrize("case", REVEALING, ids=[c.id for c in REVEALING])
def test_the_row_would_leak_without_redaction(case: LeakCase, documents: Documents) -> None:
    check = case.build()
    with revealing_sensitive():
        texts = _texts(case, check, documents)
    assert any(leaks(text, PLANTED) for text in texts), case.id


@pytest.mark.parametrize("case", REVEALING, ids=[c.id for c in REVEALING])
def test_redacted_failures_say_sensitive_where_a_secret_was(case: LeakCase, documents: Documents) -> None:
    texts = _texts(case, case.build(), documents)
    assert any("(sensitive)" in text for text in texts), case.id


def test_every_family_has_rows() -> None:
    assert sorted({c.family for c in CASES}) == sorted(FAMILIES)
    assert len({c.id for c in CASES}) == len(CASES), "row ids are unique"


# Public checks without a row, and why. (In a configuration only a sensitive variable's default is a
# secret, so only ExpectVariable can reach one; the other config checks are not listed here.)
NO_ROW = {
    "ExpectNonEmptyPlan": "fails only on an empty plan, which holds no secret",
    "CompareValue": "a collector, not a check: the checks it hands out are the st-cv-* rows",
}


@pytest.mark.parametrize("module", [plancheck, sc, compare], ids=["plan", "state", "compare"])
def test_every_public_check_has_a_row(module: Any) -> None:
    built = {type(case.build()).__name__ for case in CASES}
    public = {name for name in module.__all__ if name.startswith(("Expect", "Compare", "Values"))}
    assert sorted(public - built - set(NO_ROW)) == []


def _failure_count(case: LeakCase, documents: Documents) -> int:
    with pytest.raises(CheckFailedError) as info:
        _run(case, case.build(), documents)
    return len(info.value.failures)


@pytest.mark.parametrize(
    ("on", "assert_all"),
    [(P, assert_plan), (S, sc.assert_state), (C, tc.assert_config)],
    ids=["assert_plan", "assert_state", "assert_config"],
)
def test_asserting_every_row_at_once_leaks_nothing(on: str, assert_all: Any, documents: Documents) -> None:
    rows = [c for c in CASES if c.on == on]
    document = {P: documents.plan, S: documents.state, C: documents.config}[on]
    with pytest.raises(CheckFailedError) as info:
        assert_all(document, *(c.build() for c in rows))
    # Every row's failures are reported (a collector primed per build fails alike every time).
    assert len(info.value.failures) == sum(_failure_count(c, documents) for c in rows)
    assert leaks(str(info.value) + repr(info.value), PLANTED) == []


# An expected literal that IS a secret (a user asserting the password) is hidden in messages too:
# a near miss would give it away. (The check's own repr shows what the user wrote.)
EXPECTING_SECRETS: list[tuple[str, Callable[[], Any], str]] = [
    ("plan-unmarked-copy", lambda: ExpectKnownValue(COPY, New("output"), kv.StringExact(SECRET_VAR + "x")), P),
    ("plan-marked", lambda: ExpectKnownValue(DB, New("name"), kv.StringExact(SECRET_AFTER)), P),
    (
        "plan-output",
        lambda: ExpectKnownOutputValue("echo", kv.ObjectPartial({"copy": kv.StringExact(SECRET_OUTPUT[:-1])})),
        P,
    ),
    ("state-attr", lambda: sc.ExpectKnownValue(DB, New("name"), kv.StringExact(SECRET_STATE_ATTR)), S),
    ("state-output", lambda: sc.ExpectKnownOutputValue("token", kv.StringExact(SECRET_STATE_OUTPUT + "x")), S),
    ("config-default", lambda: tc.ExpectVariable("db_password", default=SECRET_CONFIG[:-1]), C),
]


@pytest.mark.parametrize(("build", "on"), [e[1:] for e in EXPECTING_SECRETS], ids=[e[0] for e in EXPECTING_SECRETS])
def test_expected_secret_literals_are_hidden_in_messages(
    build: Callable[[], Any], on: str, documents: Documents
) -> None:
    case = LeakCase("expecting", {P: KNOWN_PLAN_CHECKS, S: STATE_CHECKS, C: CONFIG_CHECKS}[on], build, on)
    with pytest.raises(CheckFailedError) as info:
        _run(case, build(), documents)
    error = info.value
    for text in [str(error), repr(error), *(f.message for f in error.failures)]:
        assert leaks(text, PLANTED) == [], text


# Warnings (unknown="warn") name the resources whose verdict is unknown until apply: one of them has a
# secret for_each key, and the partly unknown value of another holds secrets.
WARNING_ROWS: list[tuple[str, Callable[[], Any], bool]] = [
    ("each-known-warn", lambda: ExpectEachKnownValue(Resources(), New("id"), kv.NotNull(), unknown="warn"), True),
    ("each-known-warn-partly",
     lambda: ExpectEachKnownValue(DB, New("partial"), kv.ObjectPartial({"later": WRONG}), unknown="warn"), False),
    ("each-null-warn", lambda: ExpectEachNullValue("terraform_data.*", New("id"), unknown="warn"), True),
    ("each-sensitive-warn",
     lambda: ExpectEachSensitiveValue(Resources(mode="managed"), New("id"), unknown="warn"), True),
    # an invocation is named by its trigger, whose triggering resource has a secret for_each key
    ("each-action-known-warn", lambda: ExpectEachKnownValue(Actions(), New("url"), kv.NotNull(), unknown="warn"), True),
]


def _check_texts(check: Any, plan: Plan) -> list[str]:
    try:
        check.CheckPlan(plan)
    except CheckFailedError as error:
        return [str(error)]
    return []


def _warning_texts(check: Any, plan: Plan) -> list[str]:
    with pytest.warns(PlanCheckWarning) as recorded:
        texts = _check_texts(check, plan)
    for item in recorded:
        warning = item.message
        assert isinstance(warning, PlanCheckWarning)
        texts.extend([str(warning), repr(warning), str(warning.address), str(warning.record)])
    return texts


@pytest.mark.parametrize(("build", "reveals"), [w[1:] for w in WARNING_ROWS], ids=[w[0] for w in WARNING_ROWS])
def test_no_warning_shows_a_secret(build: Callable[[], Any], reveals: bool, documents: Documents) -> None:
    for text in _warning_texts(build(), documents.plan):
        assert leaks(text, PLANTED) == [], text
    with revealing_sensitive():
        revealed = _warning_texts(build(), Plan.from_dict(plan_document()))
    assert any(leaks(text, PLANTED) for text in revealed) is reveals


def test_a_leak_names_only_its_own_secret() -> None:
    for name, secret in PLANTED.items():
        assert leaks(secret, PLANTED) == [name]
        assert leaks(f"[{secret}]", PLANTED) == [name]


def test_every_planted_secret_is_known(documents: Documents) -> None:
    for secret in (SECRET_AFTER, SECRET_BEFORE, SECRET_OUTPUT, SECRET_VAR, SECRET_ACTION):
        assert secret in documents.plan.secrets, secret
    for secret in (SECRET_STATE_ATTR, SECRET_STATE_OUTPUT):
        assert secret in documents.state.secrets, secret
    assert tc.config_from_dict(documents.config).is_sensitive_variable("db_password")


def test_a_failure_through_a_secret_key_shows_its_path_scrubbed_in_its_repr() -> None:
    # The user's path goes through a key that is a secret (a sensitive variable's value): the message
    # and the failure's repr (what pytest prints for locals and in assertion rewriting) both scrub it.
    secret = "hunter2-planted-key"
    plan = Plan.from_dict({
        "format_version": "1.2",
        "variables": {"pw": {"value": secret}},
        "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}},
        "resource_changes": [{"address": "null_resource.a",
                              "change": {"actions": ["create"], "after": {"m": {secret: "v"}}}}],
    })
    with pytest.raises(CheckFailedError) as info:
        assert_plan(plan, ExpectKnownValue("null_resource.a", New("m").AtMapKey(secret), kv.StringExact("zzz")))
    failures = info.value.failures
    assert repr(failures) == (
        "(CheckFailure('ExpectKnownValue', 'null_resource.a', Path(MapStep('m'), MapStep('(sensitive)')), "
        f"{failures[0].message!r}),)"
    )
    assert secret not in str(info.value) + repr(info.value) + repr(failures)
    assert failures[0].path == New("m").AtMapKey(secret)  # the value itself is the user's path, as given
