"""knownvalue beyond Go's tests: where Go is wrong, strict typing, numbers, secrets, unknowns, construction."""

from __future__ import annotations

import copy
import pickle
import re
import warnings
from decimal import Decimal
from typing import Any

import pytest

from plancheck import knownvalue as kv
from plancheck._errors import ValueMismatchError
from plancheck._redact import Secrets, revealing_sensitive
from tfjsonpath import New, Path

D = Decimal


def outcome(check: kv.Check, value: Any, **kwargs: Any) -> str | None:
    try:
        check.CheckValue(value, **kwargs)
    except ValueMismatchError as exc:
        return str(exc)
    return None


def table(rows: dict[str, tuple[Any, ...]], names: str) -> Any:
    return pytest.mark.parametrize(names, list(rows.values()), ids=list(rows))


# -- sets: a maximum matching, not Go's greedy search ------------------------------------------------

SETS: dict[str, tuple[kv.Check, Any, str | None]] = {
    "go-greedy-fails-exact": (kv.SetExact([kv.StringRegexp(".*"), kv.StringExact("a")]), ["a", "b"], None),
    "go-greedy-fails-partial": (
        kv.SetPartial([kv.StringRegexp("^a"), kv.StringExact("ab")]),
        ["ab", "ac", "zz"],
        None,
    ),
    "go-greedy-fails-nested": (
        kv.SetExact([kv.ObjectPartial({"k": kv.NotNull()}), kv.ObjectExact({"k": kv.StringExact("x")})]),
        [{"k": "x"}, {"k": "y", "extra": 1}],
        None,
    ),
    "augmenting-path-of-three": (
        kv.SetExact([kv.StringRegexp("^[ab]$"), kv.StringRegexp("^[bc]$"), kv.StringExact("a")]),
        ["a", "b", "c"],
        None,
    ),
    "partial-needs-distinct-elements": (
        kv.SetPartial([kv.StringExact("a"), kv.StringExact("a")]),
        ["a", "b"],
        'missing value "a" for SetPartial check',
    ),
    "partial-duplicates-present": (
        kv.SetPartial([kv.StringExact("a"), kv.StringExact("a")]),
        ["a", "a"],
        None,
    ),
    "exact-two-missing": (
        kv.SetExact([kv.StringExact("a"), kv.StringExact("b"), kv.StringExact("c")]),
        ["c", "x", "y"],
        'missing values "a", "b" for SetExact check; unmatched elements [1]: "x", [2]: "y"',
    ),
    "exact-no-matching-though-each-fits": (
        kv.SetExact([kv.StringRegexp("^a"), kv.StringRegexp("^a")]),
        ["ab", "b"],
        'missing value /^a/ for SetExact check; unmatched element [1]: "b"',
    ),
    "empty-set-partial-anything": (kv.SetPartial([]), [1, "x"], None),
    "tuple-value-is-array": (kv.SetExact([kv.Int64Exact(1)]), (1,), None),
}


@table(SETS, "check,value,expected")
def test_set_matching(check: kv.Check, value: Any, expected: str | None) -> None:
    assert outcome(check, value) == expected


def test_set_matching_is_not_greedy_even_when_first_fit_is_taken() -> None:
    # Each check tried in turn against elements in order would give "a" to the regexp and strand the literal.
    check = kv.SetExact([kv.StringRegexp(".*"), kv.StringExact("a")])
    assert check == ["a", "b"]
    assert check == ["b", "a"]


# -- unknown values fail every check (Go lets Null pass an unknown list element) ---------------------

UNKNOWN: dict[str, tuple[kv.Check, Any, Any, str]] = {
    "null-on-unknown": (kv.Null(), None, True, "value is unknown"),
    "not-null-on-unknown": (kv.NotNull(), None, True, "value is unknown"),
    "go-null-list-element": (kv.ListExact([kv.Null()]), [None], [True], "[0]: value is unknown"),
    "string-on-unknown": (kv.StringExact("x"), "x", True, "value is unknown"),
    "func-never-called": (kv.StringFunc(lambda s: None), "x", True, "value is unknown"),
    "whole-list-unknown": (kv.ListSizeExact(0), None, True, "value is unknown"),
    "absent-unknown-key": (
        kv.ObjectExact({"id": kv.NotNull(), "name": kv.StringExact("n")}),
        {"name": "n"},
        {"id": True},
        "id: value is unknown",
    ),
    "absent-unknown-key-partial": (
        kv.MapPartial({"id": kv.Null()}),
        {},
        {"id": True},
        "id: value is unknown",
    ),
    "nested-unknown": (
        kv.ObjectPartial({"tags": kv.MapExact({"a": kv.StringExact("x")})}),
        {"tags": {"a": None}},
        {"tags": {"a": True}},
        'tags["a"]: value is unknown',
    ),
    "set-element-unknown": (
        kv.SetPartial([kv.Null()]),
        [None, "x"],
        [True, False],
        "missing value null for SetPartial check",
    ),
    "unknown-key-counts-for-size": (
        kv.MapSizeExact(1),
        {"a": 1},
        {"b": True},
        "expected 1 element for MapSizeExact check, got 2 elements",
    ),
}


@table(UNKNOWN, "check,value,unknown,expected")
def test_unknown_values_fail(check: kv.Check, value: Any, unknown: Any, expected: str) -> None:
    assert outcome(check, value, unknown=unknown) == expected


def test_known_parts_of_partly_unknown_values_still_match() -> None:
    check = kv.ObjectPartial({"name": kv.StringExact("n")})
    assert outcome(check, {"name": "n"}, unknown={"id": True, "name": False}) is None


def test_unknown_is_not_reported_when_absent_key_not_expected_by_partial() -> None:
    assert outcome(kv.MapPartial({}), {}, unknown={"id": True}) is None


# -- strict JSON typing --------------------------------------------------------------------------------

TYPING: dict[str, tuple[kv.Check, Any, str]] = {
    "bool-is-not-1": (kv.Bool(True), 1, "expected bool value for Bool check, got: number"),
    "1-is-not-bool": (kv.Int64Exact(1), True, "expected number value for Int64Exact check, got: bool"),
    "number-check-rejects-bool": (
        kv.NumberExact(0),
        False,
        "expected number value for NumberExact check, got: bool",
    ),
    "float-check-rejects-bool": (
        kv.Float64Exact(1.0),
        True,
        "expected number value for Float64Exact check, got: bool",
    ),
    "string-1-is-not-number": (
        kv.Int64Exact(1),
        "1",
        "expected number value for Int64Exact check, got: string",
    ),
    "number-is-not-string": (
        kv.StringExact("1"),
        1,
        "expected string value for StringExact check, got: number",
    ),
    "zero-is-not-null": (kv.Null(), 0, "expected null value for Null check, got: number"),
    "empty-string-is-not-null": (kv.Null(), "", "expected null value for Null check, got: string"),
    "object-is-not-array": (
        kv.ListSizeExact(0),
        {},
        "expected array value for ListSizeExact check, got: object",
    ),
    "array-is-not-object": (
        kv.MapSizeExact(0),
        [],
        "expected object value for MapSizeExact check, got: array",
    ),
    "string-is-not-array": (kv.ListExact([]), "", "expected array value for ListExact check, got: string"),
    "int-func-rejects-bool": (
        kv.Int64Func(lambda i: None),
        True,
        "expected number value for Int64Func check, got: bool",
    ),
    "non-json-value": (
        kv.ListExact([]),
        {1, 2},
        "expected array value for ListExact check, got: non-JSON set",
    ),
}


@table(TYPING, "check,value,expected")
def test_strict_json_typing(check: kv.Check, value: Any, expected: str) -> None:
    assert outcome(check, value) == expected


# -- numbers ---------------------------------------------------------------------------------------------

NUMBERS: dict[str, tuple[kv.Check, Any, str | None]] = {
    "int-accepts-integral-decimal": (kv.Int64Exact(3), D("3.0"), None),
    "int-accepts-integral-float": (kv.Int64Exact(3), 3.0, None),
    "int-accepts-exponent-form": (kv.Int64Exact(300), D("3E+2"), None),
    "int-rejects-fraction": (
        kv.Int64Exact(3),
        D("3.5"),
        "expected number parseable as int64 for Int64Exact check, got: 3.5",
    ),
    "int64-max": (kv.Int64Exact(2**63 - 1), 2**63 - 1, None),
    "int64-overflow": (
        kv.Int64Exact(1),
        2**63,
        "expected number parseable as int64 for Int64Exact check, got: 9223372036854775808",
    ),
    "int64-min": (kv.Int64Exact(-(2**63)), -(2**63), None),
    "int32-min": (kv.Int32Exact(-(2**31)), -(2**31), None),
    "int32-underflow": (
        kv.Int32Exact(1),
        -(2**31) - 1,
        "expected number parseable as int32 for Int32Exact check, got: -2147483649",
    ),
    "int-func-gets-int": (kv.Int64Func(lambda i: type(i) is int and i == 3), D("3.00"), None),
    "int-huge-exponent-is-quick": (
        kv.Int64Exact(1),
        D("1E+999999"),
        "expected number parseable as int64 for Int64Exact check, got: 1E+999999",
    ),
    "float32-tiny-is-zero": (kv.Float32Exact(0.0), D("1E-999999"), None),
    "float32-huge-exponent": (
        kv.Float32Exact(1.0),
        D("1E+999999"),
        "expected number parseable as float32 for Float32Exact check, got: 1E+999999",
    ),
    "float64-rounds-like-go": (kv.Float64Exact(0.1), D("0.1000000000000000000001"), None),
    "float64-overflow": (
        kv.Float64Exact(1.0),
        D("1e400"),
        "expected number parseable as float64 for Float64Exact check, got: 1E+400",
    ),
    "float64-int-value": (kv.Float64Exact(2), 2, None),
    "float64-float-doc-value": (kv.Float64Exact(1.5), 1.5, None),
    "float32-rounds-to-float32": (kv.Float32Exact(1.1), D("1.10000001"), None),
    "float32-differs": (
        kv.Float32Exact(1.1),
        D("1.2"),
        "expected value 1.1 for Float32Exact check, got: 1.2",
    ),
    "float32-overflow": (
        kv.Float32Exact(1.0),
        D("1e39"),
        "expected number parseable as float32 for Float32Exact check, got: 1E+39",
    ),
    # 1 + 2**-24 + 2**-60 lies just above a float32 midpoint; rounding through float64 first lands
    # on the midpoint and ties to even (down). Rounding once, as Go does, goes up.
    "float32-no-double-rounding": (
        kv.Float32Exact(1 + 2**-23),
        D(1) + D(2) ** -24 + D(2) ** -60,
        None,
    ),
    "number-exact-is-exact": (
        kv.NumberExact(D("0.1")),
        D("0.1000000000000000000001"),
        "expected value 0.1 for NumberExact check, got: 0.1000000000000000000001",
    ),
    "number-trailing-zeros-equal": (kv.NumberExact(D("1.50")), D("1.5"), None),
    "number-int-vs-decimal": (kv.NumberExact(1), D("1.0"), None),
    "number-float-doc-value": (kv.NumberExact(D("1.23")), 1.23, None),
    "number-float-arg": (kv.NumberExact(1.23), D("1.23"), None),
    "number-huge-int": (kv.NumberExact(10**40 + 1), 10**40 + 1, None),
    "number-huge-int-differs": (
        kv.NumberExact(10**40),
        10**40 + 1,
        "expected value 10000000000000000000000000000000000000000 for NumberExact check, "
        "got: 10000000000000000000000000000000000000001",
    ),
    "number-func-gets-decimal": (kv.NumberFunc(lambda d: isinstance(d, D) and d == D("1.23")), 1.23, None),
}


@table(NUMBERS, "check,value,expected")
def test_numbers(check: kv.Check, value: Any, expected: str | None) -> None:
    assert outcome(check, value) == expected


# -- sensitive values: compared, never shown -------------------------------------------------------------

SENSITIVE: dict[str, tuple[kv.Check, Any, Any, str]] = {
    "string": (
        kv.StringExact("hunter2"),
        "hunter3",
        True,
        "expected value (sensitive) for StringExact check, got: (sensitive)",
    ),
    "regexp": (
        kv.StringRegexp("^hunter2$"),
        "hunter3",
        True,
        "expected regex match (sensitive) for StringRegexp check, got: (sensitive)",
    ),
    "bool": (kv.Bool(True), False, True, "expected value (sensitive) for Bool check, got: (sensitive)"),
    "int": (
        kv.Int64Exact(1234),
        1235,
        True,
        "expected value (sensitive) for Int64Exact check, got: (sensitive)",
    ),
    "int-range": (
        kv.Int32Exact(1),
        2**40,
        True,
        "expected number parseable as int32 for Int32Exact check, got: (sensitive)",
    ),
    "number": (
        kv.NumberExact(D("1.5")),
        D("1.6"),
        True,
        "expected value (sensitive) for NumberExact check, got: (sensitive)",
    ),
    "float64": (
        kv.Float64Exact(1.5),
        D("1.6"),
        True,
        "expected value (sensitive) for Float64Exact check, got: (sensitive)",
    ),
    "float32": (
        kv.Float32Exact(1.5),
        D("1.6"),
        True,
        "expected value (sensitive) for Float32Exact check, got: (sensitive)",
    ),
    # The JSON type of a sensitive value is shown; it is part of the schema, not of the secret.
    "type-is-shown": (
        kv.StringExact("x"),
        5,
        True,
        "expected string value for StringExact check, got: number",
    ),
    "inherited-from-parent": (
        kv.ObjectPartial({"pw": kv.StringExact("hunter2")}),
        {"pw": "hunter3"},
        True,
        "inside the sensitive value: expected value (sensitive) for StringExact check, got: (sensitive)",
    ),
    "marked-leaf-keeps-its-path": (
        kv.ObjectPartial({"pw": kv.StringExact("hunter2")}),
        {"pw": "hunter3"},
        {"pw": True},
        "pw: expected value (sensitive) for StringExact check, got: (sensitive)",
    ),
    "map-keys-below-mark-not-in-path": (
        kv.ObjectPartial({"tags": kv.MapPartial({"alice": kv.Null()})}),
        {"tags": {"alice": "pw"}},
        {"tags": True},
        "tags: inside the sensitive value: expected null value for Null check, got: string",
    ),
    "marked-list-element": (
        kv.ListExact([kv.ObjectExact({"k": kv.NotNull()})]),
        [{"k": None}],
        [True],
        "[0]: inside the sensitive value: expected non-null value for NotNull check, got: null",
    ),
    "only-the-marked-leaf": (
        kv.ListExact([kv.StringExact("a"), kv.StringExact("s3cret")]),
        ["b", "s3cre7"],
        [False, True],
        '[0]: expected value "a" for StringExact check, got: "b"',
    ),
    "marked-leaf-second": (
        kv.ListExact([kv.StringExact("a"), kv.StringExact("s3cret")]),
        ["a", "s3cre7"],
        [False, True],
        "[1]: expected value (sensitive) for StringExact check, got: (sensitive)",
    ),
    "map-keys-hidden": (
        kv.MapExact({"alice": kv.NotNull()}),
        {"bob": "pw"},
        True,
        "expected 1 element for MapExact check, got 1 element: actual value has extra key(s): (sensitive); actual value is missing key(s): (sensitive)",
    ),
    "map-keys-shown-when-only-values-marked": (
        kv.MapExact({"alice": kv.NotNull()}),
        {"bob": "pw"},
        {"bob": True},
        'expected 1 element for MapExact check, got 1 element: actual value has extra key(s): "bob"; '
        'actual value is missing key(s): "alice"',
    ),
    "set-literals-hidden": (
        kv.SetExact([kv.StringExact("pw1"), kv.StringExact("x")]),
        ["pw2", "x"],
        [True, False],
        "missing value (sensitive) for SetExact check; unmatched element [0]: (sensitive)",
    ),
    "set-partly-marked-element": (
        kv.SetExact([kv.ObjectExact({"user": kv.StringExact("u"), "pw": kv.StringExact("pw1")})]),
        [{"user": "u", "pw": "pw2"}],
        [{"pw": True}],
        'missing value (sensitive) for SetExact check; unmatched element [0]: {"user": "u", "pw": (sensitive)}',
    ),
    "func-message-withheld": (
        kv.StringFunc(str.isdigit),
        "hunter2",
        True,
        "value (sensitive) rejected by StringFunc check str.isdigit",
    ),
    "func-returned-message-withheld": (
        kv.StringFunc(lambda s: ValueError(f"bad value {s}")),
        "hunter2",
        True,
        "value (sensitive) rejected by StringFunc check <lambda>",
    ),
    "missing-index-shown": (
        kv.ListPartial({3: kv.Null()}),
        ["a"],
        True,
        "missing element index 3 for ListPartial check",
    ),
    "size-shown": (
        kv.ListSizeExact(3),
        ["a"],
        True,
        "expected 3 elements for ListSizeExact check, got 1 element",
    ),
}


@table(SENSITIVE, "check,value,marks,expected")
def test_sensitive_values_are_never_shown(check: kv.Check, value: Any, marks: Any, expected: str) -> None:
    assert outcome(check, value, sensitive=marks) == expected


def test_func_exception_message_withheld_when_sensitive() -> None:
    def no(s: str) -> None:
        raise ValueError(f"bad value {s}")

    assert (
        outcome(kv.StringFunc(no), "hunter2", sensitive=True)
        == "value (sensitive) rejected by StringFunc check no"
    )


def test_sensitive_values_still_compared() -> None:
    assert outcome(kv.StringExact("hunter2"), "hunter2", sensitive=True) is None
    assert outcome(kv.SetExact([kv.StringExact("pw")]), ["pw"], sensitive=[True]) is None


def test_reveal_mode_shows_sensitive_values() -> None:
    with revealing_sensitive():
        got = outcome(kv.MapPartial({"pw": kv.StringExact("hunter2")}), {"pw": "hunter3"}, sensitive=True)
    assert got == 'pw: expected value "hunter2" for StringExact check, got: "hunter3"'


def test_unknown_inside_sensitive_value_is_reported_at_the_sensitive_value() -> None:
    got = outcome(kv.MapExact({"secret-key": kv.NotNull()}), {}, sensitive=True, unknown={"secret-key": True})
    assert got == "inside the sensitive value: value is unknown"


SECRETS: dict[str, tuple[kv.Check, Any, str]] = {
    "actual-is-secret-hides-expected": (
        kv.StringExact("hunter2"),
        "hunter2!",
        "expected value (sensitive) for StringExact check, got: (sensitive)",
    ),
    "expected-holds-secret": (
        kv.StringExact("pw=hunter2!"),
        "other",
        'expected value (sensitive) for StringExact check, got: "other"',
    ),
    "func-message-scrubbed": (
        kv.StringFunc(lambda s: (_ for _ in ()).throw(ValueError("saw hunter2! here"))),
        "x",
        "saw (sensitive) here",
    ),
    "extra-key-secret-hides-all-keys": (
        kv.MapExact({"hunter2": kv.NotNull()}),
        {"hunter2!": 1},
        "expected 1 element for MapExact check, got 1 element: actual value has extra key(s): (sensitive); actual value is missing key(s): (sensitive)",
    ),
    "set-element-secret-hides-literals": (
        kv.SetExact([kv.StringExact("hunter2")]),
        ["hunter2!"],
        "missing value (sensitive) for SetExact check; unmatched element [0]: (sensitive)",
    ),
}


@table(SECRETS, "check,value,expected")
def test_secrets_are_scrubbed(check: kv.Check, value: Any, expected: str) -> None:
    assert outcome(check, value, secrets=Secrets(["hunter2!"])) == expected


# -- paths -------------------------------------------------------------------------------------------------


def test_failure_path_is_prefixed_and_escaped() -> None:
    check = kv.MapPartial({"a": kv.ListPartial({2: kv.StringExact("x")})})
    with pytest.raises(ValueMismatchError) as info:
        check.CheckValue({"a": [0, 1, "y"]}, path=New("triggers"))
    assert str(info.value) == 'triggers["a"][2]: expected value "x" for StringExact check, got: "y"'
    assert info.value.path == Path.parse('triggers["a"][2]')
    assert info.value.reason == 'expected value "x" for StringExact check, got: "y"'


def test_failure_path_quotes_awkward_keys() -> None:
    check = kv.MapExact({"file1.txt": kv.ListExact([kv.Null()])})
    assert (
        outcome(check, {"file1.txt": [1]})
        == '["file1.txt"][0]: expected null value for Null check, got: number'
    )


def test_first_failure_in_order() -> None:
    check = kv.ListExact([kv.MapExact({"b": kv.Null(), "a": kv.Null()}), kv.Null()])
    assert (
        outcome(check, [{"a": 1, "b": 2}, 3]) == '[0]["a"]: expected null value for Null check, got: number'
    )


def test_deep_values_do_not_recurse() -> None:
    value: Any = "leaf"
    for i in range(10_000):
        value = [value] if i % 2 else {"k": value}
    check = kv.exact(value)
    assert check == value
    assert hash(check) == hash(kv.exact(value))
    assert check == kv.exact(value)
    assert repr(check).startswith("ListExact([ObjectExact({'k': ListExact([")
    assert len(str(check)) < 4100  # str is cut for messages
    changed: Any = "other"
    for i in range(10_000):
        changed = [changed] if i % 2 else {"k": changed}
    with pytest.raises(ValueMismatchError) as info:
        check.CheckValue(changed)
    assert len(info.value.path) == 10_000
    assert info.value.reason == 'expected value "leaf" for StringExact check, got: "other"'


# -- construction ----------------------------------------------------------------------------------------


def _compiled_quietly(pattern: str, flags: int) -> re.Pattern[str]:
    """``re.compile`` without its DeprecationWarning for re.TEMPLATE: the pattern a user compiled before."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return re.compile(pattern, flags)


CONSTRUCTION: dict[str, tuple[Any, type[Exception], str]] = {
    "string-not-str": (lambda: kv.StringExact(1), TypeError, "StringExact expects a str, got int"),
    "bool-not-bool": (lambda: kv.Bool(1), TypeError, "Bool expects a bool, got int"),
    "int64-bool": (lambda: kv.Int64Exact(True), TypeError, "Int64Exact expects an int, got bool"),
    "int64-float": (lambda: kv.Int64Exact(1.0), TypeError, "Int64Exact expects an int, got float"),
    "int64-range": (
        lambda: kv.Int64Exact(2**63),
        ValueError,
        "Int64Exact value must be an int64 (from -9223372036854775808 to 9223372036854775807), got 9223372036854775808",
    ),
    "int32-range": (
        lambda: kv.Int32Exact(2**31),
        ValueError,
        "Int32Exact value must be an int32 (from -2147483648 to 2147483647), got 2147483648",
    ),
    "float64-str": (
        lambda: kv.Float64Exact("1.5"),
        TypeError,
        "Float64Exact expects a float or an int, got str",
    ),
    "float64-decimal": (
        lambda: kv.Float64Exact(D("1.5")),
        TypeError,
        "Float64Exact expects a float or an int, got Decimal",
    ),
    "float64-nan": (
        lambda: kv.Float64Exact(float("nan")),
        ValueError,
        "Float64Exact value must be finite, got nan",
    ),
    "float64-huge-int": (
        lambda: kv.Float64Exact(10**400),
        ValueError,
        "Float64Exact value is too large for a float: 1" + "0" * 400,
    ),
    "float32-range": (
        lambda: kv.Float32Exact(1e39),
        ValueError,
        "Float32Exact value is out of the float32 range: 1e+39",
    ),
    "number-bool": (
        lambda: kv.NumberExact(True),
        TypeError,
        "NumberExact expects an int, Decimal or float, got bool",
    ),
    "number-str": (
        lambda: kv.NumberExact("1"),
        TypeError,
        "NumberExact expects an int, Decimal or float, got str",
    ),
    "number-nan": (
        lambda: kv.NumberExact(D("NaN")),
        ValueError,
        "NumberExact value must be finite, got Decimal('NaN')",
    ),
    "regexp-invalid": (
        lambda: kv.StringRegexp("a("),
        ValueError,
        "StringRegexp: invalid regular expression 'a(': missing ), unterminated subpattern at position 1",
    ),
    # re.compile's own bare ValueError, naming no check: flags no str pattern takes.
    "regexp-locale-flag": (
        lambda: kv.StringRegexp("a", re.LOCALE),
        ValueError,
        "StringRegexp: flags re.LOCALE do not fit a str pattern: cannot use LOCALE flag with a str pattern",
    ),
    "regexp-ascii-and-unicode": (
        lambda: kv.StringRegexp("a", re.ASCII | re.UNICODE),
        ValueError,
        "StringRegexp: flags re.ASCII|re.UNICODE do not fit a str pattern: ASCII and UNICODE flags are incompatible",
    ),
    "regexp-debug-flag": (
        lambda: kv.StringRegexp("a", re.DEBUG),
        ValueError,
        "StringRegexp: re.DEBUG prints the compiled pattern on standard output: leave it out",
    ),
    # --list-checks offered re.TEMPLATE (deprecated, none in Python 3.13) and re.compile took any bit silently.
    "regexp-template-flag": (
        lambda: kv.StringRegexp("a", re.TEMPLATE | re.IGNORECASE),
        ValueError,
        "StringRegexp: flags re.TEMPLATE are not taken; it takes re.ASCII, re.IGNORECASE, re.UNICODE, "
        "re.MULTILINE, re.DOTALL, re.VERBOSE",
    ),
    "regexp-no-such-flag": (
        lambda: kv.StringRegexp("a", 1 << 20),
        ValueError,
        "StringRegexp: flags re.RegexFlag(1048576) are not taken; it takes re.ASCII, re.IGNORECASE, re.UNICODE, "
        "re.MULTILINE, re.DOTALL, re.VERBOSE",
    ),
    # A pattern compiled with such a flag kept it (its repr showed flags=re.TEMPLATE): refused as the flag is.
    "regexp-compiled-with-template-flag": (
        lambda: kv.StringRegexp(_compiled_quietly("a", re.TEMPLATE | re.IGNORECASE)),
        ValueError,
        "StringRegexp: flags re.TEMPLATE are not taken; it takes re.ASCII, re.IGNORECASE, re.UNICODE, "
        "re.MULTILINE, re.DOTALL, re.VERBOSE",
    ),
    "regexp-compiled-with-no-such-flag": (
        lambda: kv.StringRegexp(re.compile("a", 1 << 20)),
        ValueError,
        "StringRegexp: flags re.RegexFlag(1048576) are not taken; it takes re.ASCII, re.IGNORECASE, re.UNICODE, "
        "re.MULTILINE, re.DOTALL, re.VERBOSE",
    ),
    "regexp-bytes": (
        lambda: kv.StringRegexp(re.compile(b"a")),
        TypeError,
        "StringRegexp needs a str pattern, got a bytes pattern",
    ),
    "regexp-flags-on-compiled": (
        lambda: kv.StringRegexp(re.compile("a"), re.I),
        ValueError,
        "StringRegexp: cannot add flags to an already compiled pattern",
    ),
    "regexp-not-pattern": (
        lambda: kv.StringRegexp(1),
        TypeError,
        "StringRegexp expects a str pattern or a compiled re.Pattern, got int",
    ),
    "func-not-callable": (lambda: kv.StringFunc("x"), TypeError, "StringFunc expects a function, got str"),
    "list-not-list": (
        lambda: kv.ListExact(kv.Null()),
        TypeError,
        "ListExact expects a list of checks, got Null",
    ),
    "list-generator": (
        lambda: kv.SetExact(x for x in [kv.Null()]),
        TypeError,
        "SetExact expects a list of checks, got generator",
    ),
    "list-plain-value": (
        lambda: kv.ListExact([kv.Null(), "a"]),
        TypeError,
        "ListExact element 1 must be a knownvalue check, got str (wrap plain values with knownvalue.exact())",
    ),
    "partial-negative-index": (
        lambda: kv.ListPartial({-1: kv.Null()}),
        ValueError,
        "ListPartial index must be >= 0, got -1",
    ),
    "tuple-partial-negative-index": (
        lambda: kv.TuplePartial({0: kv.Null(), -3: kv.Null()}),
        ValueError,
        "TuplePartial index must be >= 0, got -3",
    ),
    "partial-str-index": (
        lambda: kv.ListPartial({"0": kv.Null()}),
        TypeError,
        "ListPartial index must be an int, got str: '0'",
    ),
    "partial-bool-index": (
        lambda: kv.ListPartial({True: kv.Null()}),
        TypeError,
        "ListPartial index must be an int, got bool: True",
    ),
    "partial-not-mapping": (
        lambda: kv.ListPartial([kv.Null()]),
        TypeError,
        "ListPartial expects a dict of index to check, got list",
    ),
    "map-int-key": (lambda: kv.MapExact({1: kv.Null()}), TypeError, "MapExact key must be a str, got int: 1"),
    "map-plain-value": (
        lambda: kv.ObjectPartial({"a": 1}),
        TypeError,
        "ObjectPartial check for key 'a' must be a knownvalue check, got int (wrap plain values with knownvalue.exact())",
    ),
    "size-negative": (lambda: kv.SetSizeExact(-1), ValueError, "SetSizeExact size must be >= 0, got -1"),
    "size-bool": (lambda: kv.MapSizeExact(True), TypeError, "MapSizeExact expects an int size, got bool"),
    "exact-non-json": (
        lambda: kv.exact({"a": [1, object()]}),
        TypeError,
        "exact: the value at a[1] is not a JSON value: non-JSON object",
    ),
    "exact-int-key": (
        lambda: kv.exact({"a": {1: 2}}),
        TypeError,
        "exact: object keys must be strings; the object at a has a int key",
    ),
    "exact-root": (
        lambda: kv.exact(b"x"),
        TypeError,
        "exact: the value at the root is not a JSON value: non-JSON bytes",
    ),
}


@table(CONSTRUCTION, "build,error,message")
def test_constructors_validate_at_once(build: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        build()
    assert str(info.value) == message


def test_check_value_validates_its_arguments() -> None:
    with pytest.raises(TypeError, match="CheckValue: secrets must be a plancheck Secrets, got list"):
        kv.Null().CheckValue(None, secrets=["x"])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"CheckValue: path must be a tfjsonpath\.Path, got str"):
        kv.Null().CheckValue(None, path="a")  # type: ignore[arg-type]


FUNC_RESULTS: dict[str, tuple[Any, str | None]] = {
    "none-accepts": (lambda s: None, None),
    "true-accepts": (lambda s: True, None),
    "false-rejects": (lambda s: False, 'value "x" rejected by StringFunc check <lambda>'),
    "raise-keeps-message": (lambda s: {}[s], "'x'"),
    "raise-without-message": (lambda s: (_ for _ in ()).throw(AssertionError()), "AssertionError"),
    # Go's func(v string) error returns its error; a port that returns the exception rejects the same way.
    "return-exception-keeps-message": (lambda s: ValueError(f"{s} was not foo"), "x was not foo"),
    "return-exception-without-message": (lambda s: KeyError(), "KeyError"),
}


@table(FUNC_RESULTS, "fn,expected")
def test_func_results(fn: Any, expected: str | None) -> None:
    assert outcome(kv.StringFunc(fn), "x") == expected


def test_func_returning_other_values_is_a_programming_error() -> None:
    with pytest.raises(
        TypeError, match=r"StringFunc function <lambda> must return None, True, False or an exception \(or raise\), got str"
    ):
        kv.StringFunc(lambda s: "yes").CheckValue("x")


# -- value semantics: frozen, hashable, eq, repr ---------------------------------------------------------

REPRS: dict[str, tuple[kv.Check, str]] = {
    "string": (kv.StringExact("x"), "StringExact('x')"),
    "regexp": (kv.StringRegexp(r"^ami-\d"), "StringRegexp('^ami-\\\\d')"),
    "regexp-flags": (
        kv.StringRegexp("a", re.I | re.M),
        "StringRegexp('a', flags=re.IGNORECASE|re.MULTILINE)",
    ),
    "regexp-compiled": (kv.StringRegexp(re.compile("a", re.S)), "StringRegexp('a', flags=re.DOTALL)"),
    "bool": (kv.Bool(False), "Bool(False)"),
    "null": (kv.Null(), "Null()"),
    "not-null": (kv.NotNull(), "NotNull()"),
    "int64": (kv.Int64Exact(-3), "Int64Exact(-3)"),
    "float64": (kv.Float64Exact(2), "Float64Exact(2.0)"),
    "float32": (kv.Float32Exact(0.1), "Float32Exact(0.1)"),
    "number-int": (kv.NumberExact(3), "NumberExact(3)"),
    "number-decimal": (kv.NumberExact(D("1.50")), "NumberExact(Decimal('1.50'))"),
    "number-float": (kv.NumberExact(1.5), "NumberExact(Decimal('1.5'))"),
    "func": (kv.Int32Func(abs), "Int32Func(abs)"),
    "list": (kv.ListExact([kv.StringExact("a")]), "ListExact([StringExact('a')])"),
    "list-partial": (
        kv.ListPartial({2: kv.Null(), 0: kv.NotNull()}),
        "ListPartial({0: NotNull(), 2: Null()})",
    ),
    "map-partial": (kv.MapPartial({"k": kv.Null()}), "MapPartial({'k': Null()})"),
    "object-sorted": (
        kv.ObjectExact({"b": kv.Null(), "a": kv.Null()}),
        "ObjectExact({'a': Null(), 'b': Null()})",
    ),
    "set": (kv.SetPartial([kv.Null(), kv.Bool(True)]), "SetPartial([Null(), Bool(True)])"),
    "size": (kv.TupleSizeExact(2), "TupleSizeExact(2)"),
}


@table(REPRS, "check,text")
def test_repr_is_constructor_form(check: kv.Check, text: str) -> None:
    assert repr(check) == text
    if not isinstance(check, kv.Int32Func):
        namespace = {**{name: getattr(kv, name) for name in kv.__all__}, "Decimal": D, "re": re}
        assert eval(repr(check), namespace) == check


EQUAL_CHECKS: dict[str, tuple[kv.Check, kv.Check]] = {
    "number-int-decimal": (kv.NumberExact(1), kv.NumberExact(D("1.0"))),
    "float-int": (kv.Float64Exact(2), kv.Float64Exact(2.0)),
    "float32-rounded": (kv.Float32Exact(1.1), kv.Float32Exact(1.100000023841858)),
    "map-order": (
        kv.MapExact({"a": kv.Null(), "b": kv.Null()}),
        kv.MapExact({"b": kv.Null(), "a": kv.Null()}),
    ),
    "regexp-compiled-or-not": (kv.StringRegexp("a", re.I), kv.StringRegexp(re.compile("a", re.I))),
    "nested": (kv.ListExact([kv.SetExact([kv.Null()])]), kv.ListExact([kv.SetExact([kv.Null()])])),
}


@table(EQUAL_CHECKS, "a,b")
def test_equal_checks_hash_equal(a: kv.Check, b: kv.Check) -> None:
    assert a == b
    assert not a != b  # noqa: SIM202 - the operator itself is under test
    assert hash(a) == hash(b)


UNEQUAL_CHECKS: dict[str, tuple[kv.Check, kv.Check]] = {
    "types": (kv.ListExact([]), kv.TupleExact([])),
    "exact-partial": (kv.MapExact({}), kv.MapPartial({})),
    "values": (kv.StringExact("a"), kv.StringExact("b")),
    "regexp-flags": (kv.StringRegexp("a"), kv.StringRegexp("a", re.I)),
    "set-order-as-written": (kv.SetExact([kv.Null(), kv.NotNull()]), kv.SetExact([kv.NotNull(), kv.Null()])),
    "partial-indexes": (kv.ListPartial({0: kv.Null()}), kv.ListPartial({1: kv.Null()})),
    "funcs-by-identity": (kv.StringFunc(lambda s: None), kv.StringFunc(lambda s: None)),
    "int32-int64": (kv.Int32Exact(1), kv.Int64Exact(1)),
}


@table(UNEQUAL_CHECKS, "a,b")
def test_unequal_checks(a: kv.Check, b: kv.Check) -> None:
    assert a != b
    assert not a == b  # noqa: SIM201 - the operator itself is under test


def test_func_checks_equal_by_function_identity() -> None:
    def fn(s: str) -> None:
        return None

    assert kv.StringFunc(fn) == kv.StringFunc(fn)
    assert hash(kv.StringFunc(fn)) == hash(kv.StringFunc(fn))
    assert kv.StringFunc(fn) != kv.BoolFunc(fn)  # type: ignore[arg-type]


def test_eq_with_values_and_foreign_types() -> None:
    check = kv.StringExact("x")
    assert check == "x"
    assert "x" == check  # noqa: SIM300 - the operator itself is under test
    assert check != "y"
    assert "y" != check  # noqa: SIM300 - the operator itself is under test
    assert check.__eq__(object()) is NotImplemented
    assert check.__ne__(object()) is NotImplemented
    assert check != object()
    assert {"a": "x"} == {"a": check}  # noqa: SIM300 - dict comparison delegates to the check


def test_eq_keeps_no_state() -> None:
    check = kv.SetPartial([kv.StringRegexp("^a")])
    assert [check == ["b"], check == ["a"], check == ["b"], check == ["a"]] == [False, True, False, True]


def test_checks_are_frozen() -> None:
    check = kv.StringExact("x")
    with pytest.raises(AttributeError, match="StringExact is immutable; cannot set '_value'"):
        check._value = "y"  # type: ignore[misc]
    with pytest.raises(AttributeError, match="ListExact is immutable; cannot set 'extra'"):
        kv.ListExact([]).extra = 1  # type: ignore[attr-defined]
    with pytest.raises(AttributeError, match="Null is immutable; cannot delete '_hash'"):
        del kv.Null()._hash
    assert not hasattr(check, "__dict__")


def test_constructors_do_not_keep_or_mutate_inputs() -> None:
    items = [kv.Null()]
    mapping = {"a": kv.Null()}
    lst, obj = kv.ListExact(items), kv.MapExact(mapping)
    items.append(kv.NotNull())
    mapping["b"] = kv.NotNull()
    assert lst == [None]
    assert obj == {"a": None}
    assert obj.items == {"a": kv.Null()}
    obj.items["c"] = kv.Null()
    assert obj.items == {"a": kv.Null()}


@pytest.mark.parametrize(
    "check",
    [
        kv.exact({"a": [1, D("1.5"), "x", None, True]}),
        kv.StringRegexp("a", re.I),
        kv.SetPartial([kv.ListPartial({1: kv.MapSizeExact(2)})]),
        kv.Float32Exact(0.1),
    ],
    ids=["exact-tree", "regexp", "nested-partials", "float32"],
)
def test_pickle_and_copy_round_trip(check: kv.Check) -> None:
    assert pickle.loads(pickle.dumps(check)) == check
    assert copy.deepcopy(check) == check
    assert copy.copy(check) == check


def test_describe_names_the_check() -> None:
    assert [c.describe() for c in (kv.Int64Func(abs), kv.TupleSizeExact(1), kv.exact({}))] == [
        "Int64Func",
        "TupleSizeExact",
        "ObjectExact",
    ]


# -- explain_mismatch, for pytest's assertion report ------------------------------------------------------


def test_explain_mismatch_lines() -> None:
    lines = kv.explain_mismatch(kv.MapPartial({"a": kv.Int64Exact(1)}), {"a": 2})
    assert lines == [
        "value does not match MapPartial({'a': Int64Exact(1)})",
        "a: expected value 1 for Int64Exact check, got: 2",
    ]


def test_explain_mismatch_none_when_matching() -> None:
    assert kv.explain_mismatch(kv.Int64Exact(1), 1) is None


def test_explain_mismatch_hides_check_literals_when_sensitive() -> None:
    lines = kv.explain_mismatch(kv.StringExact("hunter2"), "hunter3", sensitive=True)
    assert lines == [
        "value does not match StringExact check",
        "expected value (sensitive) for StringExact check, got: (sensitive)",
    ]


def test_explain_mismatch_cuts_long_reprs() -> None:
    lines = kv.explain_mismatch(kv.exact(list(range(1000))), [])
    assert lines is not None
    assert len(lines[0]) == len("value does not match ") + 200
    assert lines[0].endswith("…")


def test_explain_mismatch_rejects_non_checks() -> None:
    with pytest.raises(TypeError, match="explain_mismatch expects a knownvalue check, got str"):
        kv.explain_mismatch("x", "x")  # type: ignore[arg-type]


class _NoHook(kv.Check):
    """A check of the user's own that forgot the hook."""

    def __init__(self) -> None:
        super().__init__()


# mismatch() is the documented hook; a built-in check compares through its own engine and raised NotImplementedError
# ("StringExact must implement mismatch(value)") to whoever asked it why a value does not match.
@pytest.mark.parametrize(("check", "value", "expected"), [
    pytest.param(kv.StringExact("a"), "b", 'expected value "a" for StringExact check, got: "b"', id="scalar-differs"),
    pytest.param(kv.StringExact("a"), "a", None, id="scalar-matches"),
    pytest.param(kv.ListExact([kv.StringExact("a")]), ["b"], '[0]: expected value "a" for StringExact check, got: "b"',
                 id="collection-names-the-element"),
    pytest.param(kv.MapSizeExact(1), None, "expected object value for MapSizeExact check, got: null", id="size-of-null"),
    pytest.param(kv.StringFunc(lambda s: s == "y"), "y", None, id="function-passes"),
])
def test_a_built_in_check_says_why_a_value_does_not_match(check: kv.Check, value: Any, expected: str | None) -> None:
    assert check.mismatch(value) == expected


def test_a_users_check_without_the_hook_is_told_to_write_it() -> None:
    with pytest.raises(NotImplementedError) as caught:
        _NoHook().mismatch("x")
    assert str(caught.value) == "_NoHook must implement mismatch(value)"
