"""Laws of the knownvalue checks, by Hypothesis."""

from __future__ import annotations

import itertools
from decimal import Context, Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck import knownvalue as kv
from plancheck._checking.equality import first_difference
from plancheck._errors import ValueMismatchError

PRECISE = Context(prec=200)  # normalize() must not round to the default 28 digits
LEAF_ALPHABET = "QZJ"  # letters no message wording uses, so a leaked leaf is easy to spot

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.decimals(allow_nan=False, allow_infinity=False, places=4),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
)
json_values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.text(max_size=4), children, max_size=4)
    ),
    max_leaves=20,
)


def respell(value: Any) -> Any:
    """The same JSON value written differently: ints as decimals, lists as tuples."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return Decimal(value).quantize(Decimal("0.0")) if abs(value) < 10**20 else value
    if isinstance(value, float):
        return Decimal(repr(value))
    if isinstance(value, Decimal):
        return value.normalize(PRECISE) if value.is_finite() else value
    if isinstance(value, list):
        return tuple(respell(v) for v in value)
    return {k: respell(v) for k, v in value.items()}


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_exact_matches_its_value(value: Any) -> None:
    check = kv.exact(value)
    assert check == value
    check.CheckValue(value)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_exact_ignores_spelling_and_equal_checks_hash_equal(value: Any) -> None:
    other = respell(value)
    assert kv.exact(value) == other
    assert kv.exact(value) == kv.exact(other)
    assert hash(kv.exact(value)) == hash(kv.exact(other))


@settings(max_examples=200, deadline=None)
@given(json_values, json_values)
def test_exact_agrees_with_deep_equality(a: Any, b: Any) -> None:
    assert (kv.exact(a) == b) == (first_difference(a, b) is None)


@settings(max_examples=200, deadline=None)
@given(json_values, json_values)
def test_eq_is_pure_and_ne_is_its_negation(a: Any, b: Any) -> None:
    check = kv.exact(a)
    first = check == b
    assert (check == b) is first
    assert (check != b) is (not first)
    assert (b == check) is first


@settings(max_examples=100, deadline=None)
@given(json_values)
def test_repr_evaluates_to_an_equal_check(value: Any) -> None:
    check = kv.exact(value)
    namespace = {**{name: getattr(kv, name) for name in kv.__all__}, "Decimal": Decimal}
    rebuilt = eval(repr(check), namespace)
    assert rebuilt == check
    assert hash(rebuilt) == hash(check)


CHECK_POOL = [
    kv.StringExact("a"),
    kv.StringExact("b"),
    kv.StringRegexp("^a"),
    kv.StringRegexp("b$"),
    kv.StringRegexp("."),
    kv.NotNull(),
    kv.Null(),
]
VALUE_POOL = ["a", "b", "ab", "ba", "", None]


def _assignable(checks: list[kv.Check], values: list[Any]) -> bool:
    return any(
        all(check == values[j] for check, j in zip(checks, chosen, strict=True))
        for chosen in itertools.permutations(range(len(values)), len(checks))
    )


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(CHECK_POOL), max_size=4), st.lists(st.sampled_from(VALUE_POOL), max_size=4))
def test_set_checks_agree_with_brute_force(checks: list[kv.Check], values: list[Any]) -> None:
    assert (kv.SetPartial(checks) == values) == _assignable(checks, values)
    assert (kv.SetExact(checks) == values) == (len(checks) == len(values) and _assignable(checks, values))


secret_text = st.text(alphabet=LEAF_ALPHABET, min_size=3, max_size=6)
secret_values = st.recursive(
    st.one_of(secret_text, st.integers(), st.none()),
    lambda children: st.one_of(
        st.lists(children, max_size=3), st.dictionaries(secret_text, children, max_size=3)
    ),
    max_leaves=10,
)


def _texts(value: Any) -> list[str]:
    out: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            out.extend(item.keys())
            stack.extend(item.values())
    return out


@settings(max_examples=200, deadline=None)
@given(secret_values, secret_values)
def test_sensitive_content_never_appears_in_messages(expected: Any, actual: Any) -> None:
    try:
        kv.exact(expected).CheckValue(actual, sensitive=True)
    except ValueMismatchError as exc:
        message = str(exc)
        for text in _texts(expected) + _texts(actual):
            assert text not in message.replace("(sensitive)", "")
