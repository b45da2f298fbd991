"""Laws of the known-value and state checks, by Hypothesis.

* a value placed in a plan (``after``) or a state (``values``, an output) passes its own
  ``kv.exact`` check, sensitive or not, and the check is unchanged by a round trip through pickle;
* a sensitive value's string leaves never show in the failure of a check that does not match it;
* CompareValuePairs with ValuesSame passes exactly when the values are equal, and ValuesDiffer
  exactly when they are not; both are symmetric;
* a CompareValue collector with ValuesSame passes at every step exactly while all values so far
  are equal, and holds copies of exactly the values it was fed;
* CompareValueCollection with ValuesSame over a list of scalars passes exactly when the value
  is one of them.
"""

from __future__ import annotations

import pickle
from decimal import Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from state_support import make_state

from plancheck import Plan, compare
from plancheck import knownvalue as kv
from plancheck._checking.equality import first_difference
from plancheck._planchecks.values import ExpectKnownValue as PlanExpectKnownValue
from plancheck.statecheck import (
    CompareValue,
    CompareValueCollection,
    CompareValuePairs,
    ExpectKnownOutputValue,
    ExpectKnownValue,
)
from tfjsonpath import New

# Leaves made of letters no message wording uses, so a leaked leaf is easy to spot.
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.decimals(allow_nan=False, allow_infinity=False, places=3),
    st.text(alphabet="QZJX", min_size=4, max_size=8),
)
json_values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.text(alphabet="ab", max_size=3), children, max_size=4),
    ),
    max_leaves=15,
)
A = "test_resource.a"
B = "test_resource.b"


def _string_leaves(value: Any) -> list[str]:
    out: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return out


def _plan(value: Any, sensitive: bool) -> Plan:
    return Plan.from_dict(
        {
            "format_version": "1.2",
            "resource_changes": [
                {
                    "address": A,
                    "change": {
                        "actions": ["create"],
                        "after": {"v": value},
                        "after_unknown": {},
                        "after_sensitive": {"v": True} if sensitive else {},
                    },
                }
            ],
        }
    )


@settings(max_examples=100, deadline=None)
@given(json_values, st.booleans())
def test_a_value_matches_its_exact_check_in_plans_and_states(value: Any, sensitive: bool) -> None:
    matcher = kv.exact(value)
    plan_check = PlanExpectKnownValue(A, New("v"), matcher)
    assert plan_check.failures(_plan(value, sensitive)) == []
    state = make_state(
        {A: {"v": value}}, {"o": (value, sensitive)}, sensitive={A: {"v": True}} if sensitive else None
    )
    state_check = ExpectKnownValue(A, New("v"), matcher)
    assert state_check.failures(state) == []
    assert ExpectKnownOutputValue("o", matcher).failures(state) == []
    assert pickle.loads(pickle.dumps(state_check)) == state_check
    assert pickle.loads(pickle.dumps(plan_check)) == plan_check


@settings(max_examples=100, deadline=None)
@given(json_values, json_values)
def test_sensitive_leaves_never_show(value: Any, other: Any) -> None:
    state = make_state({A: {"v": value}}, sensitive={A: {"v": True}})
    messages = [f.message for f in ExpectKnownValue(A, New("v"), kv.exact(other)).failures(state)]
    messages += [
        f.message for f in PlanExpectKnownValue(A, New("v"), kv.exact(other)).failures(_plan(value, True))
    ]
    for message in messages:
        for leaf in _string_leaves(value):
            assert leaf not in message


@settings(max_examples=100, deadline=None)
@given(json_values, json_values)
def test_pairs_same_and_differ_are_exact_complements(a: Any, b: Any) -> None:
    state = make_state({A: {"v": a}, B: {"v": b}})
    equal = first_difference(a, b) is None
    for x, y in ((A, B), (B, A)):
        same = CompareValuePairs(x, New("v"), y, New("v"), compare.ValuesSame()).failures(state)
        differ = CompareValuePairs(x, New("v"), y, New("v"), compare.ValuesDiffer()).failures(state)
        assert (same == []) is equal
        assert (differ == []) is not equal


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["QQQQ", "ZZZZ", Decimal("1.5"), None]), min_size=1, max_size=6))
def test_collector_passes_while_all_values_are_the_same(values: list[Any]) -> None:
    collector = CompareValue(compare.ValuesSame())
    check = collector.AddStateValue(A, New("v"))
    for i, value in enumerate(values):
        passed = check.failures(make_state({A: {"v": value}})) == []
        assert passed is all(first_difference(values[0], v) is None for v in values[: i + 1])
    assert collector.values == tuple(values)


@settings(max_examples=100, deadline=None)
@given(st.lists(scalars, min_size=1, max_size=6), scalars)
def test_collection_same_passes_when_the_value_is_an_element(elements: list[Any], value: Any) -> None:
    state = make_state({A: {"l": elements}, B: {"v": value}})
    check = CompareValueCollection(A, [New("l")], B, New("v"), compare.ValuesSame())
    member = any(first_difference(e, value) is None for e in elements)
    assert (check.failures(state) == []) is member
