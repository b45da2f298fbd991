"""Marks that do not fit the value fail closed: the value they cover is treated as sensitive (or unknown).

Terraform writes a marks node as ``true``, ``false``/null, or an object (array) of marks over an
object (array) value. A node that is neither (``1``, ``"true"``) counts as ``true``; a container
of the wrong kind for the value (array marks over a string or an object, object marks over an
array or a string) counts as ``true`` when it holds a ``true`` anywhere, and marks nothing when it
holds none. Everywhere marks are read: plan and state checks (fast path and full resolution),
rendering, ``tfplancheck query``, and the collection of secrets.

The schema rejects malformed leaves when a document is loaded or given to ``Plan(...)``/``State(...)``;
these documents are built through the private route that skips validation (``unvalidated_plan``,
``unvalidated_state``; there is no ``validation="none"``), as a subclass or a pickle could reach one,
and the checks must hold all the same.

Rows: an id, the resource's value (``SECRET`` somewhere at or below ``p``) and its marks tree.
To prove the structural defence by itself, every row also runs on a document whose secrets
(the scrub by value) are empty.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import pytest
from unvalidated import unvalidated_plan, unvalidated_state

from plancheck import (
    ExpectSensitiveOutputValue,
    ExpectSensitiveValue,
    ExpectUnknownOutputValueAtPath,
    ExpectUnknownValue,
    Plan,
    State,
    ValueStatus,
    compare,
    resolve_value,
    revealing_sensitive,
)
from plancheck import knownvalue as kv
from plancheck import statecheck as sc
from plancheck._documents.sensitive import collect_plan_secrets, collect_state_secrets, marked_strings
from plancheck._planchecks.values import ExpectKnownOutputValue, ExpectKnownValue, ExpectNoValue
from plancheck._redact import NO_SECRETS, Secrets, contains_sensitive, fit_marks, render_value
from plancheck.cli._query import render_value_document, value_document
from tfjsonpath import New, Path

SECRET = "mk-Secret-9Fq2"
ADDRESS = "null_resource.a"
P = New("p")


@dataclass(frozen=True)
class Row:
    id: str
    value: Any  # the resource's value: SECRET at or below "p"
    marks: Any  # its marks tree, malformed at or above "p"
    whole: bool = True  # "p" as a whole counts as sensitive (else only a part of it)


ROWS = [
    Row("leaf-int", {"p": SECRET, "o": "x"}, {"p": 1}),
    Row("leaf-zero", {"p": SECRET, "o": "x"}, {"p": 0}),
    Row("leaf-float", {"p": SECRET, "o": "x"}, {"p": 1.0}),
    Row("leaf-string-true", {"p": SECRET, "o": "x"}, {"p": "true"}),
    Row("leaf-string-false", {"p": SECRET, "o": "x"}, {"p": "false"}),
    Row("root-string-true", {"p": SECRET, "o": "x"}, "true"),
    Row("root-int", {"p": SECRET, "o": "x"}, 1),
    Row("array-over-string", {"p": SECRET, "o": "x"}, {"p": [True]}),
    Row("array-over-object", {"p": {"k": SECRET}, "o": "x"}, {"p": [False, True]}),
    Row("object-over-array", {"p": [SECRET], "o": "x"}, {"p": {"0": True}}),
    Row("object-over-string", {"p": SECRET, "o": "x"}, {"p": {"x": True}}),
    Row("array-over-root-object", {"p": SECRET, "o": "x"}, [True]),
    Row("deep-array-over-string", {"p": {"q": SECRET}, "o": "x"}, {"p": {"q": [[False, True]]}}, whole=False),
    Row("deep-string-leaf", {"p": {"q": [SECRET]}, "o": "x"}, {"p": {"q": ["yes"]}}, whole=False),
]
IDS = [r.id for r in ROWS]


class _UnscrubbedPlan(Plan):
    """A plan that knows no secrets: only the marks keep the value hidden."""

    @cached_property
    def secrets(self) -> Secrets:  # type: ignore[override]
        return NO_SECRETS


class _UnscrubbedState(State):
    @cached_property
    def secrets(self) -> Secrets:  # type: ignore[override]
        return NO_SECRETS


def _unscrubbed_plan(raw: dict[str, Any]) -> Plan:
    return unvalidated_plan(raw, _UnscrubbedPlan)


def _unscrubbed_state(raw: dict[str, Any]) -> State:
    return unvalidated_state(raw, _UnscrubbedState)


def _plan_document(row: Row, *, sensitive: Any = None, unknown: Any = None) -> dict[str, Any]:
    return {
        "format_version": "1.2",
        "resource_changes": [{"address": ADDRESS, "change": {
            "actions": ["update"], "before": row.value, "after": row.value,
            "before_sensitive": row.marks if sensitive is None else sensitive,
            "after_sensitive": row.marks if sensitive is None else sensitive,
            "after_unknown": {} if unknown is None else unknown}}],
        "output_changes": {"out": {"actions": ["create"], "before": None, "after": row.value,
                                   "after_unknown": False, "after_sensitive": row.marks}},
    }


def _state_document(row: Row) -> dict[str, Any]:
    return {"format_version": "1.0", "values": {"root_module": {"resources": [
        {"address": ADDRESS, "values": row.value, "sensitive_values": row.marks},
        {"address": "null_resource.b", "values": {"p": "other"}, "sensitive_values": {}}]}}}


PLANS = [("scrubbed", unvalidated_plan), ("marks-alone", _unscrubbed_plan)]
STATES = [("scrubbed", unvalidated_state), ("marks-alone", _unscrubbed_state)]

# Checks that fail on every row, each showing (unless redacted) the value at or below "p".
FAILING_PLAN_CHECKS: list[tuple[str, Callable[[], Any]]] = [
    ("unknown-at-p", lambda: ExpectUnknownValue(ADDRESS, P)),
    ("unknown-whole", lambda: ExpectUnknownValue(ADDRESS, Path())),
    ("known-at-p", lambda: ExpectKnownValue(ADDRESS, P, kv.StringExact(SECRET + "x"))),
    ("known-at-p-object", lambda: ExpectKnownValue(ADDRESS, P, kv.ObjectExact({}))),
    ("known-whole", lambda: ExpectKnownValue(ADDRESS, Path(), kv.ObjectExact({"o": kv.StringExact("x")}))),
    ("no-value-at-p", lambda: ExpectNoValue(ADDRESS, P)),
    ("no-value-whole", lambda: ExpectNoValue(ADDRESS, Path())),
    ("output-known", lambda: ExpectKnownOutputValue("out", kv.ObjectExact({}))),
    ("output-unknown-at-p", lambda: ExpectUnknownOutputValueAtPath("out", P)),
]
FAILING_STATE_CHECKS: list[tuple[str, Callable[[], Any]]] = [
    ("known-at-p", lambda: sc.ExpectKnownValue(ADDRESS, P, kv.StringExact(SECRET + "x"))),
    ("known-whole", lambda: sc.ExpectKnownValue(ADDRESS, Path(), kv.ObjectExact({}))),
    ("pairs", lambda: sc.CompareValuePairs(ADDRESS, P, "null_resource.b", P, compare.ValuesSame())),
]


def _texts(run: Callable[[], Any]) -> list[str]:
    with pytest.raises(AssertionError) as caught:
        run()
    error = caught.value
    texts = [str(error), repr(error)]
    for failure in getattr(error, "failures", ()):
        texts.extend([str(failure), repr(failure), failure.message])
    return texts


@pytest.mark.parametrize(("check_id", "build"), FAILING_PLAN_CHECKS, ids=[c[0] for c in FAILING_PLAN_CHECKS])
@pytest.mark.parametrize(("kind", "plan_of"), PLANS, ids=[p[0] for p in PLANS])
@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_plan_checks_never_show_the_value(
    row: Row, kind: str, plan_of: Callable[[dict[str, Any]], Plan], check_id: str, build: Callable[[], Any]
) -> None:
    plan = plan_of(_plan_document(row))
    for text in _texts(lambda: build().CheckPlan(plan)):
        assert SECRET not in text, f"{row.id}/{check_id}/{kind}: {text}"


@pytest.mark.parametrize(("check_id", "build"), FAILING_STATE_CHECKS, ids=[c[0] for c in FAILING_STATE_CHECKS])
@pytest.mark.parametrize(("kind", "state_of"), STATES, ids=[s[0] for s in STATES])
@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_state_checks_never_show_the_value(
    row: Row, kind: str, state_of: Callable[[dict[str, Any]], State], check_id: str, build: Callable[[], Any]
) -> None:
    state = state_of(_state_document(row))
    for text in _texts(lambda: build().CheckState(state)):
        assert SECRET not in text, f"{row.id}/{check_id}/{kind}: {text}"


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_the_rows_reach_the_value(row: Row) -> None:
    # Without redaction the failure shows the value: the rows above prove the redaction.
    plan = _unscrubbed_plan(_plan_document(row))
    with revealing_sensitive():
        texts = _texts(lambda: ExpectUnknownValue(ADDRESS, P).CheckPlan(plan))
    assert any(SECRET in text for text in texts)


@pytest.mark.parametrize("row", [r for r in ROWS if r.whole], ids=[r.id for r in ROWS if r.whole])
def test_expect_sensitive_value_passes_failing_closed(row: Row) -> None:
    assert ExpectSensitiveValue(ADDRESS, P).failures(unvalidated_plan(_plan_document(row))) == []
    assert sc.ExpectSensitiveValue(ADDRESS, P).failures(unvalidated_state(_state_document(row))) == []
    assert resolve_value(row.value, None, row.marks, P).sensitive


ROOT_FITS = [r for r in ROWS if isinstance(r.marks, dict)]
ROOT_MALFORMED = [r for r in ROWS if not isinstance(r.marks, dict)]


@pytest.mark.parametrize("row", ROOT_FITS, ids=[r.id for r in ROOT_FITS])
def test_partly_sensitive_values_fail_expect_sensitive_without_the_value(row: Row) -> None:
    # Only "p" is marked, never "o": the whole value is not sensitive, and its failure hides "p".
    plan = _unscrubbed_plan(_plan_document(row))
    texts = _texts(lambda: ExpectSensitiveOutputValue("out").CheckPlan(plan))
    texts += _texts(lambda: ExpectSensitiveValue(ADDRESS, Path()).CheckPlan(plan))
    assert all(SECRET not in text for text in texts)


@pytest.mark.parametrize("row", ROOT_MALFORMED, ids=[r.id for r in ROOT_MALFORMED])
def test_malformed_root_marks_make_the_whole_value_sensitive(row: Row) -> None:
    plan = unvalidated_plan(_plan_document(row))
    assert ExpectSensitiveOutputValue("out").failures(plan) == []
    assert ExpectSensitiveValue(ADDRESS, Path()).failures(plan) == []
    assert sc.ExpectSensitiveValue(ADDRESS, Path()).failures(unvalidated_state(_state_document(row))) == []


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_rendering_never_shows_the_value(row: Row) -> None:
    resolved = resolve_value(row.value, None, row.marks, P)
    whole = resolve_value(row.value, None, row.marks, Path())
    texts = [
        render_value(row.value, row.marks),
        render_value(row.value["p"], row.marks["p"] if isinstance(row.marks, dict) else row.marks),
        resolved.render(), resolved.describe(), repr(resolved), whole.render(), whole.describe(), repr(whole),
    ]
    plan = _unscrubbed_plan(_plan_document(row))
    for path in (P, Path()):
        for before in (False, True):
            document = value_document(plan, ADDRESS, path, before)
            texts.extend([str(document), render_value_document(document)])
    for text in texts:
        assert SECRET not in text, f"{row.id}: {text}"


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_the_secret_is_collected(row: Row) -> None:
    assert SECRET in set(marked_strings(row.value, row.marks))
    assert SECRET in collect_plan_secrets(_plan_document(row))
    assert SECRET in collect_state_secrets(_state_document(row))
    # "o" is collected only where the whole value is marked.
    assert ("x" in set(marked_strings(row.value, row.marks))) == (not isinstance(row.marks, dict))


# -- exact messages -------------------------------------------------------------------------------

EXACT_PLAN = [
    ("leaf-int", "ExpectUnknownValue: null_resource.a: p: expected an unknown value, but it is known: (sensitive)"),
    ("root-string-true",
     "ExpectUnknownValue: null_resource.a: p: expected an unknown value, but it is known: (sensitive)"),
    ("array-over-object",
     "ExpectUnknownValue: null_resource.a: p: expected an unknown value, but it is known: (sensitive)"),
    ("deep-array-over-string",
     'ExpectUnknownValue: null_resource.a: p: expected an unknown value, but it is known: {"q": (sensitive)}'),
    ("deep-string-leaf",
     'ExpectUnknownValue: null_resource.a: p: expected an unknown value, but it is known: {"q": [(sensitive)]}'),
]


@pytest.mark.parametrize(("row_id", "message"), EXACT_PLAN, ids=[e[0] for e in EXACT_PLAN])
def test_exact_plan_messages(row_id: str, message: str) -> None:
    row = next(r for r in ROWS if r.id == row_id)
    (failure,) = ExpectUnknownValue(ADDRESS, P).failures(_unscrubbed_plan(_plan_document(row)))
    assert str(failure) == message


EXACT_WHOLE = [
    ("leaf-string-true", """ExpectSensitiveValue: null_resource.a: expected a sensitive value, but only parts of it """
                         """are sensitive: {"p": (sensitive), "o": "x"}"""),
    ("object-over-array", """ExpectSensitiveValue: null_resource.a: expected a sensitive value, but only parts of it """
                          """are sensitive: {"p": (sensitive), "o": "x"}"""),
]


@pytest.mark.parametrize(("row_id", "message"), EXACT_WHOLE, ids=[e[0] for e in EXACT_WHOLE])
def test_exact_partly_sensitive_messages(row_id: str, message: str) -> None:
    row = next(r for r in ROWS if r.id == row_id)
    (failure,) = ExpectSensitiveValue(ADDRESS, Path()).failures(_unscrubbed_plan(_plan_document(row)))
    assert str(failure) == message


EXACT_STATE = [
    ("leaf-int", sc.ExpectKnownValue(ADDRESS, P, kv.StringExact("nope")),
     "ExpectKnownValue: null_resource.a: p: expected value (sensitive) for StringExact check, got: (sensitive)"),
    ("array-over-string", sc.ExpectKnownValue(ADDRESS, P, kv.StringExact("nope")),
     "ExpectKnownValue: null_resource.a: p: expected value (sensitive) for StringExact check, got: (sensitive)"),
    ("array-over-object", sc.ExpectKnownValue(ADDRESS, P, kv.StringExact("nope")),
     "ExpectKnownValue: null_resource.a: p: expected string value for StringExact check, got: object; expected (sensitive), got (sensitive)"),
]


@pytest.mark.parametrize(("row_id", "check", "message"), EXACT_STATE, ids=[e[0] for e in EXACT_STATE])
def test_exact_state_messages(row_id: str, check: Any, message: str) -> None:
    row = next(r for r in ROWS if r.id == row_id)
    (failure,) = check.failures(_unscrubbed_state(_state_document(row)))
    assert str(failure) == message


# -- marks that fit, and mismatches without a true ----------------------------------------------


FITTING = [
    # (id, value, marks, expected failure of ExpectUnknownValue at p): Terraform's own marks, as before.
    ("true", {"p": "v"}, {"p": True}, "expected an unknown value, but it is known: (sensitive)"),
    ("false", {"p": "v"}, {"p": False}, 'expected an unknown value, but it is known: "v"'),
    ("null", {"p": "v"}, {"p": None}, 'expected an unknown value, but it is known: "v"'),
    ("array", {"p": ["v", "w"]}, {"p": [False, True]}, 'expected an unknown value, but it is known: ["v", (sensitive)]'),
    ("object", {"p": {"a": "v"}}, {"p": {"a": True}}, 'expected an unknown value, but it is known: {"a": (sensitive)}'),
    ("container-over-null", {"p": None}, {"p": {"a": True}}, "expected an unknown value, but it is null"),
    ("mismatch-without-true", {"p": "v"}, {"p": [False, None]}, 'expected an unknown value, but it is known: "v"'),
    ("object-mismatch-without-true", {"p": ["v"]}, {"p": {"a": False}}, 'expected an unknown value, but it is known: ["v"]'),
]


@pytest.mark.parametrize(("value", "marks", "message"), [f[1:] for f in FITTING], ids=[f[0] for f in FITTING])
def test_marks_that_fit_behave_as_terraform_means(value: Any, marks: Any, message: str) -> None:
    plan = _unscrubbed_plan({"format_version": "1.2", "resource_changes": [{"address": ADDRESS, "change": {
        "actions": ["create"], "after": value, "after_unknown": {}, "after_sensitive": marks}}]})
    (failure,) = ExpectUnknownValue(ADDRESS, P).failures(plan)
    assert failure.message == message


# -- unknown marks fail closed too ---------------------------------------------------------------

UNKNOWN_ROWS = [
    ("leaf-string-true", {"p": "v"}, {"p": "true"}, 'value is unknown; expected "v"'),
    ("leaf-int", {"p": "v"}, {"p": 1}, 'value is unknown; expected "v"'),
    ("array-over-string", {"p": "v"}, {"p": [True]}, 'value is unknown; expected "v"'),
    ("object-over-array", {"p": ["v"]}, {"p": {"x": True}}, 'value is unknown; expected "v"'),
    ("root-string", {"p": "v"}, "yes", 'value is unknown (via the whole value); expected "v"'),
]


@pytest.mark.parametrize(
    ("value", "unknown", "message"), [u[1:] for u in UNKNOWN_ROWS], ids=[u[0] for u in UNKNOWN_ROWS]
)
def test_malformed_unknown_marks_make_the_value_unknown(value: Any, unknown: Any, message: str) -> None:
    plan = unvalidated_plan({"format_version": "1.2", "resource_changes": [{"address": ADDRESS, "change": {
        "actions": ["create"], "after": value, "after_unknown": unknown, "after_sensitive": {}}}]})
    assert ExpectUnknownValue(ADDRESS, P).failures(plan) == []
    assert resolve_value(value, unknown, None, P).status is ValueStatus.UNKNOWN
    (failure,) = ExpectKnownValue(ADDRESS, P, kv.StringExact("v")).failures(plan)
    assert failure.message == message


# -- flags that say "sensitive" ------------------------------------------------------------------

FLAGS = [("string-true", "true"), ("int", 1), ("string-false", "false"), ("object", {"x": True})]


@pytest.mark.parametrize("flag", [f[1] for f in FLAGS], ids=[f[0] for f in FLAGS])
def test_a_sensitive_flag_that_is_not_a_bool_fails_closed(flag: Any) -> None:
    state = unvalidated_state({"format_version": "1.0", "values": {"outputs": {"token": {"value": SECRET, "sensitive": flag}}}})
    assert state.outputs["token"].sensitive
    assert SECRET in state.secrets
    (failure,) = sc.ExpectKnownOutputValue("token", kv.StringExact("nope")).failures(state)
    assert str(failure) == "ExpectKnownOutputValue: output.token: expected value (sensitive) for StringExact check, got: (sensitive)"
    plan_document = {"format_version": "1.2", "variables": {"pw": {"value": SECRET}},
                     "configuration": {"root_module": {"variables": {"pw": {"sensitive": flag}}}}}
    assert SECRET in collect_plan_secrets(plan_document)


@pytest.mark.parametrize("flag", [False, None], ids=["false", "null"])
def test_a_sensitive_flag_that_is_false_or_null_marks_nothing(flag: Any) -> None:
    state = unvalidated_state({"format_version": "1.0", "values": {"outputs": {"ip": {"value": "10.0.0.1", "sensitive": flag}}}})
    assert not state.outputs["ip"].sensitive
    assert "10.0.0.1" not in state.secrets


# -- the rule itself ------------------------------------------------------------------------------

FIT = [
    ("true", True, "s", True),
    ("false", False, "s", False),
    ("null", None, "s", None),
    ("int", 1, "s", True),
    ("zero", 0, "s", True),
    ("string", "true", "s", True),
    ("object-over-object", {"a": True}, {"a": 1}, {"a": True}),
    ("array-over-array", [True], [1], [True]),
    ("array-over-null", [True], None, [True]),
    ("object-over-null", {"a": True}, None, {"a": True}),
    ("array-over-string", [True], "s", True),
    ("array-over-object", [False, [True]], {"a": 1}, True),
    ("object-over-array", {"a": True}, [1], True),
    ("object-over-number", {"a": {"b": True}}, 3, True),
    ("array-without-true", [False, None, [False]], "s", None),
    ("object-without-true", {"a": False}, [1], None),
    ("malformed-inside-counts", {"a": "yes"}, [1], True),
]


@pytest.mark.parametrize(("marks", "value", "fitted"), [f[1:] for f in FIT], ids=[f[0] for f in FIT])
def test_fit_marks(marks: Any, value: Any, fitted: Any) -> None:
    assert fit_marks(marks, value) == fitted
    assert type(fit_marks(marks, value)) is type(fitted)


CONTAINS = [("true", True, True), ("nested", {"a": [False, {"b": True}]}, True), ("false", {"a": False}, False),
            ("int-leaf", {"a": 1}, True), ("string", "true", True), ("empty", {}, False), ("nulls", [None], False)]


@pytest.mark.parametrize(("marks", "expected"), [c[1:] for c in CONTAINS], ids=[c[0] for c in CONTAINS])
def test_contains_sensitive_counts_malformed_nodes(marks: Any, expected: bool) -> None:
    assert contains_sensitive(marks) is expected
