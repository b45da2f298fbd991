"""Numbers past Python's limits (over 4300 digits, exponents past memory) give messages, never errors."""

from __future__ import annotations

from decimal import Decimal

import pytest

from plancheck import ValueMismatchError
from plancheck import knownvalue as kv

BIG = 10**5000


@pytest.mark.parametrize(
    ("matcher", "value", "starts", "ends"),
    [
        pytest.param(kv.NumberExact(Decimal(BIG)), BIG - 1, "expected value 1000", "999 …(truncated)", id="5001-digit-int"),
        pytest.param(kv.NumberExact(Decimal("1E+999999999999999999")), 1, "expected value 1E+999999999999999999",
                     "got: 1", id="huge-exponent-expected"),
        pytest.param(kv.Int64Exact(3), BIG, "expected number parseable as int64 for Int64Exact check, got: 1000",
                     "000 …(truncated)", id="int64-from-5001-digits"),
        pytest.param(kv.StringExact("x"), BIG, "expected string value for StringExact check, got: number",
                     "number", id="wrong-type-huge-int"),
        pytest.param(kv.ListExact([kv.Int64Exact(1)]), [Decimal("-1E-999999999")], "[0]: expected number",
                     "1E-999999999", id="tiny-exponent-in-list"),
    ],
)
def test_huge_numbers_are_rendered(matcher: kv.Check, value: object, starts: str, ends: str) -> None:
    with pytest.raises(ValueMismatchError) as info:
        matcher.CheckValue(value)
    message = str(info.value)
    assert message.startswith(starts)
    assert message.endswith(ends)


def test_exact_match_of_a_5001_digit_integer() -> None:
    kv.NumberExact(Decimal(BIG)).CheckValue(BIG)
    assert kv.NumberExact(Decimal(BIG)) == BIG
