"""The checks' fast path (mark_depth, value_at) agrees with resolve_value on arbitrary inputs.

The marks are arbitrary too: of the wrong kind for the value, and malformed (``1``, ``"true"``,
which fail closed), as a document built without the schema can hold them.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from unvalidated import unvalidated_plan

from plancheck import (
    Change,
    ExpectKnownValue,
    ExpectNoValue,
    ExpectSensitiveValue,
    ExpectUnknownValue,
    Plan,
    ResolvedValue,
    ValueStatus,
    resolve_value,
)
from plancheck import knownvalue as kv
from plancheck._documents.resolve import ABSENT_VALUE, known_value_at, mark_depth, value_at
from plancheck._redact import contains_sensitive
from tfjsonpath import MapStep, Path, SliceStep

KEYS = st.sampled_from(["a", "b", "c"])
scalars = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["x", "y"])
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
                      max_leaves=12)
# Malformed leaves: neither a bool nor null, so they fail closed (count as true).
MALFORMED = st.sampled_from([1, 0, "true", "false", "", 1.5])
marks = st.recursive(st.booleans() | st.none() | MALFORMED,
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
                     max_leaves=8)
paths = st.lists(KEYS.map(MapStep) | st.integers(0, 3).map(SliceStep), min_size=1, max_size=4).map(
    lambda steps: Path(*steps))


@settings(max_examples=400, deadline=None)
@given(values, marks, marks, paths)
def test_fast_helpers_agree_with_resolve_value(value: Any, unknown: Any, sensitive: Any, path: Path) -> None:
    full = resolve_value(value, unknown, sensitive, path)
    depth = mark_depth(unknown, path, value)
    assert (depth >= 0) == (full.unknown_at is not None)
    if depth >= 0:
        assert full.unknown_at == path[:depth]
    assert (mark_depth(sensitive, path, value) >= 0) == full.sensitive
    if full.status is ValueStatus.KNOWN:
        assert value_at(value, path) == full.value
    elif full.status is ValueStatus.NULL:
        assert value_at(value, path) is None
    elif full.status is ValueStatus.ABSENT:
        assert value_at(value, path) is ABSENT_VALUE


@settings(max_examples=300, deadline=None)
@given(values, marks, marks, paths)
def test_checks_pass_exactly_when_the_full_resolution_says_so(value: Any, unknown: Any, sensitive: Any,
                                                              path: Path) -> None:
    # Built unvalidated: the schema (every loader's, the constructor's) rejects malformed marks leaves, and the
    # checks must fail closed without it.
    plan = unvalidated_plan({"format_version": "1.2", "resource_changes": [{"address": "r.a", "change": {
        "actions": ["create"], "after": value, "after_unknown": unknown, "after_sensitive": sensitive}}]})
    full = resolve_value(value, unknown, sensitive, path)
    assert (not ExpectUnknownValue("r.a", path).failures(plan)) == (full.status is ValueStatus.UNKNOWN)
    sensitive_ok = full.sensitive and full.status is not ValueStatus.ABSENT
    assert (not ExpectSensitiveValue("r.a", path).failures(plan)) == sensitive_ok
    known_ok = full.status is ValueStatus.KNOWN and full.value == "x" and not full.partly_unknown
    assert (not ExpectKnownValue("r.a", path, kv.StringExact("x")).failures(plan)) == known_ok


@settings(max_examples=400, deadline=None)
@given(values, marks, paths)
def test_a_mark_found_without_the_value_is_found_with_it_at_that_depth_or_above(
    value: Any, marks: Any, path: Path
) -> None:
    # ExpectUnknownValue and ExpectSensitiveValue pass on mark_depth(marks, path) alone: sound only so.
    blind = mark_depth(marks, path)
    if blind >= 0:
        fitted = mark_depth(marks, path, value)
        assert 0 <= fitted <= blind


@settings(max_examples=400, deadline=None)
@given(values, marks, paths)
def test_known_value_at_is_value_at_where_the_value_is_not_unknown(value: Any, unknown: Any, path: Path) -> None:
    # ExpectKnownValue passes on known_value_at alone: one walk of the value and its unknown marks.
    full = resolve_value(value, unknown, None, path)
    expected = full.value if full.status in (ValueStatus.KNOWN, ValueStatus.NULL) else ABSENT_VALUE
    found = known_value_at(value, unknown, path)
    assert found is expected or (expected is not ABSENT_VALUE and found == expected)


@settings(max_examples=300, deadline=None)
@given(values, marks, marks, paths)
@example({"a": {"b": 1}}, {"a": {"c": True}}, {"a": {"b": True}}, Path(MapStep("a")))  # partly unknown
@example({"a": [1, 2]}, {"a": True}, None, Path(MapStep("a"), SliceStep(1)))  # unknown via an ancestor
def test_what_a_resolved_value_derives_is_the_same_however_it_is_built(
    value: Any, unknown: Any, sensitive: Any, path: Path
) -> None:
    # resolve_value's fast constructor derives unknown/sensitive/partly_unknown itself; __post_init__ derives
    # them for a value built by hand (and for one a pickle rebuilds): the two must never tell them apart.
    full = resolve_value(value, unknown, sensitive, path)
    by_hand = ResolvedValue(full.path, full.status, full.value, full.unknown_at, full.sensitive_at,
                            full.value_unknown, full.value_sensitive, full.reason, full.closest)
    derived = (full.unknown, full.sensitive, full.partly_unknown)
    assert derived == (by_hand.unknown, by_hand.sensitive, by_hand.partly_unknown)
    assert derived == (full.unknown_at is not None, full.sensitive_at is not None,
                       full.status is ValueStatus.KNOWN and contains_sensitive(full.value_unknown))


_RAW_PLAN: dict[str, Any] = {"format_version": "1.2", "resource_changes": [
    {"address": "a.b", "change": {"actions": ["create"], "after": {"name": "x", "tags": None},
                                 "after_unknown": {"id": True}, "after_sensitive": {"pw": True}}},
    {"address": "a.b", "deposed": "dead0001", "change": {"actions": ["delete"], "after": None}},
]}


@pytest.mark.parametrize(
    ("check", "fails"),
    [
        pytest.param(ExpectUnknownValue("a.b", Path(MapStep("id"))), False, id="unknown-passes"),
        pytest.param(ExpectUnknownValue("a.b", Path(MapStep("name"))), True, id="unknown-fails"),
        pytest.param(ExpectKnownValue("a.b", Path(MapStep("name")), kv.StringExact("x")), False, id="known-passes"),
        pytest.param(ExpectKnownValue("a.b", Path(MapStep("name")), kv.StringExact("y")), True, id="known-fails"),
        pytest.param(ExpectSensitiveValue("a.b", Path(MapStep("name"))), True, id="sensitive-fails"),
        pytest.param(ExpectNoValue("a.b", Path(MapStep("nope"))), False, id="no-value-passes"),
        pytest.param(ExpectUnknownValue("a.b", Path(MapStep("id")), deposed="dead0001"), True, id="deposed-gone"),
    ],
)
def test_value_checks_read_the_raw_change_without_a_wrapper(
    check: Any, fails: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The index hands the checks the raw change: a Change is plan.resource_change's public wrapper only.
    plan = Plan.from_dict(_RAW_PLAN)

    def no_wrapper(self: Any, raw: Any) -> None:
        raise AssertionError("a value check built a Change")

    monkeypatch.setattr(Change, "__init__", no_wrapper)
    assert bool(check.failures(plan)) is fails


@settings(max_examples=200, deadline=None)
@given(values, marks, marks, paths, st.sampled_from(["after", "before"]))
def test_resolve_value_reads_a_side_of_a_raw_change(value: Any, unknown: Any, sensitive: Any, path: Path,
                                                    side: str) -> None:
    # What the value checks ask (side=) is the value and marks of that side given one by one.
    change = {side: value, f"{side}_unknown": unknown, f"{side}_sensitive": sensitive, "actions": ["update"]}
    assert resolve_value(change, path=path, side=side) == resolve_value(value, unknown, sensitive, path)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "message"),
    [
        pytest.param(({"after": {}},), {"side": "planned"}, ValueError,
                     'resolve_value() side must be "after" or "before", got \'planned\'', id="unknown-side"),
        pytest.param(({"after": {}},), {"side": ["after"]}, ValueError,
                     'resolve_value() side must be "after" or "before", got [\'after\']', id="side-not-a-str"),
        pytest.param(({"after": {}}, {"a": True}), {"side": "after"}, TypeError,
                     'resolve_value(side="after") reads the marks from the change: pass no unknown or sensitive marks',
                     id="unknown-marks-given"),
        pytest.param(({"after": {}}, None, True), {"side": "after"}, TypeError,
                     'resolve_value(side="after") reads the marks from the change: pass no unknown or sensitive marks',
                     id="sensitive-marks-given"),
        pytest.param((["after"],), {"side": "after"}, TypeError,
                     'resolve_value(side="after") expects a raw change (a mapping), got list', id="not-a-change"),
        # AttributeError: 'str' object has no attribute 'steps', naming neither the function nor the argument.
        pytest.param(({"a": 1},), {"path": "a"}, TypeError, "resolve_value() path must be a tfjsonpath.Path, got str",
                     id="path-as-text"),
        pytest.param(({"after": {}},), {"path": None, "side": "after"}, TypeError,
                     "resolve_value() path must be a tfjsonpath.Path, got NoneType", id="path-none-with-a-side"),
    ],
)
def test_resolve_value_side_errors(args: tuple[Any, ...], kwargs: dict[str, Any], error: type[Exception],
                                   message: str) -> None:
    with pytest.raises(error) as info:
        resolve_value(*args, **kwargs)
    assert str(info.value) == message
