"""Python twins of every test case in Go's terraform-plugin-testing knownvalue/*_test.go, Go's message beside ours.

Each row is (check, value, Go's message, our message); ids are the Go test and case
names. Go's json.Number("1.23") is our Decimal("1.23"); json.Number("str") (a number that
does not parse) has no JSON twin, so its twin is the string "str". Our messages word
things differently on purpose (strings quoted as JSON, JSON type names, paths instead of
"list element index 2: " prefixes, every missing index or key named, sensitive values
hidden) but carry every fact Go's carry: :func:`go_facts` reads Go's message and
:func:`test_our_message_carries_go_facts` finds each fact in ours.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any, NamedTuple

import pytest

from plancheck import knownvalue as kv
from plancheck._errors import ValueMismatchError

D = Decimal
BIG = D("1.797693134862315797693134862315797693134862315")


class Twin(NamedTuple):
    check: kv.Check
    value: Any
    go: str | None  # Go's expectedError, verbatim
    ours: str | None


def outcome(check: kv.Check, value: Any) -> str | None:
    try:
        check.CheckValue(value)
    except ValueMismatchError as exc:
        return str(exc)
    return None


def cases(table: dict[str, Twin]) -> Any:
    return pytest.mark.parametrize("twin", list(table.values()), ids=list(table))


def fail_if(pred: Any, message: str) -> Any:
    # Go's check functions return their error (`return fmt.Errorf(...)`); the twins return it too.
    def fn(v: Any) -> ValueError | None:
        if pred(v):
            return ValueError(message.format(v))
        return None

    return fn


# -- Go's facts ------------------------------------------------------------------------------------

# Go's type names (%T, and the type a check expects) as JSON type names.
_GO_TYPES = {
    "<nil>": "null", "nil": "null", "non-nil": "non-null", "float64": "number", "json.Number": "number",
    "bool": "bool", "string": "string", "[]any": "array", "map[string]any": "object",
}
# Go's SetSizeExact still calls itself by an old name in its message.
_GO_NAMES = {"SetElementExact": "SetSizeExact"}


def _name(go_name: str) -> str:
    return re.escape(_GO_NAMES.get(go_name, go_name))


def _listed(items: str) -> list[str]:
    # Go's %q keys: "one", "three" (our quote() writes them the same way).
    return [re.escape(item) for item in re.findall(r'"[^"]*"', items)]


def go_facts(message: str) -> list[str] | None:
    """Every fact Go's ``message`` states, as regexes our message must match; None for a user function's own text.

    >>> facts = go_facts("list element index 2: expected value 789 for Int64Exact check, got: 654")
    >>> [bool(re.search(fact, "[2]: expected value 789 for Int64Exact check, got: 654")) for fact in facts]
    [True, True, True, True]
    >>> [bool(re.search(fact, "[2]: expected value 789 for Int64Exact check, got: 456")) for fact in facts]
    [True, True, True, False]
    """
    prefix = re.fullmatch(r"(?:list|tuple) element (?:index )?(\d+): (.*)", message)
    if prefix:
        inner = go_facts(prefix[2])
        return [re.escape(f"[{prefix[1]}]"), *(inner or [])]
    prefix = re.fullmatch(r"(\w+) (?:object attribute|map element): (.*)", message)
    if prefix:
        inner = go_facts(prefix[2])
        return [rf"\b{prefix[1]}\b", *(inner or [])]
    found = re.fullmatch(r"expected (\S+) value for (\w+) check, got: (\S+)", message)
    if found:
        return [rf"expected {_GO_TYPES[found[1]]} value", _name(found[2]), rf"got: {_GO_TYPES[found[3]]}"]
    found = re.fullmatch(r"expected (?:value|regex match) (.+) for (\w+) check, got: (.+)", message)
    if found:
        return [rf"\b{re.escape(found[1])}\b", _name(found[2]), rf"\b{re.escape(found[3])}\b"]
    found = re.fullmatch(r"expected (\d+) (\S+) for (\w+) check, got (\d+) (\S+)(?:: (.*))?", message)
    if found:
        facts = [rf"expected {found[1]} {re.escape(found[2])}", _name(found[3]), rf"got {found[4]} {re.escape(found[5])}"]
        return facts + _listed(found[6] or "")
    found = re.fullmatch(r"missing element index (\d+) for (\w+) check", message)
    if found:
        return [rf"missing element index(?:es)? (?:\d+, )*{found[1]}\b", _name(found[2])]
    found = re.fullmatch(r"missing (?:element|attribute) (\w+) for (\w+) check", message)
    if found:
        return [rf"missing \w+(?:\(s\))?:? (?:\S+, )*{re.escape(chr(34) + found[1] + chr(34))}", _name(found[2])]
    found = re.fullmatch(r"missing value (.+) for (\w+) check", message)
    if found:
        return [rf"missing values? (?:\S+, )*{re.escape(found[1])}\b", _name(found[2])]
    found = re.fullmatch(r"expected json.Number to be parseable as (\S+) value for (\w+) check: .*", message)
    if found:
        # json.Number("str") has no JSON twin: its twin is a string, which fails as a wrong type.
        return ["expected number value", _name(found[2])]
    return None


# -- scalars ---------------------------------------------------------------------------------------

BOOL = {
    "zero-nil": Twin(kv.Bool(False), None, "expected bool value for Bool check, got: <nil>",
                     "expected bool value for Bool check, got: null"),
    "zero-other": Twin(kv.Bool(False), False, None, None),
    "nil": Twin(kv.Bool(False), None, "expected bool value for Bool check, got: <nil>",
                "expected bool value for Bool check, got: null"),
    "wrong-type": Twin(kv.Bool(True), D("1.23"), "expected bool value for Bool check, got: float64",
                       "expected bool value for Bool check, got: number"),
    "not-equal": Twin(kv.Bool(True), False, "expected value true for Bool check, got: false",
                      "expected value true for Bool check, got: false"),
    "equal": Twin(kv.Bool(True), True, None, None),
}


@cases(BOOL)
def test_TestBoolValue_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


BOOL_FUNC = {
    "nil": Twin(kv.BoolFunc(lambda b: None), None, "expected bool value for BoolFunc check, got: <nil>",
                "expected bool value for BoolFunc check, got: null"),
    "wrong-type": Twin(kv.BoolFunc(lambda b: None), D("1.234"),
                       "expected bool value for BoolFunc check, got: json.Number",
                       "expected bool value for BoolFunc check, got: number"),
    "failure": Twin(kv.BoolFunc(fail_if(lambda b: b is not True, "{} was not true")), False,
                    "false was not true", "False was not true"),
    "success": Twin(kv.BoolFunc(fail_if(lambda b: b is not True, "{} was not foo")), True, None, None),
}


@cases(BOOL_FUNC)
def test_TestBoolFunc_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


STRING = {
    "zero-nil": Twin(kv.StringExact(""), None, "expected string value for StringExact check, got: <nil>",
                     "expected string value for StringExact check, got: null"),
    "zero-other": Twin(kv.StringExact(""), "", None, None),
    "nil": Twin(kv.StringExact("str"), None, "expected string value for StringExact check, got: <nil>",
                "expected string value for StringExact check, got: null"),
    "wrong-type": Twin(kv.StringExact("str"), D("1.234"), "expected string value for StringExact check, got: float64",
                       "expected string value for StringExact check, got: number"),
    "not-equal": Twin(kv.StringExact("str"), "rts", "expected value str for StringExact check, got: rts",
                      'expected value "str" for StringExact check, got: "rts"'),
    "equal": Twin(kv.StringExact("str"), "str", None, None),
}


@cases(STRING)
def test_TestStringValue_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


STRING_FUNC = {
    "nil": Twin(kv.StringFunc(lambda s: None), None, "expected string value for StringFunc check, got: <nil>",
                "expected string value for StringFunc check, got: null"),
    "wrong-type": Twin(kv.StringFunc(lambda s: None), D("1.234"),
                       "expected string value for StringFunc check, got: float64",
                       "expected string value for StringFunc check, got: number"),
    "failure": Twin(kv.StringFunc(fail_if(lambda s: s != "foo", "{} was not foo")), "bar",
                    "bar was not foo", "bar was not foo"),
    "success": Twin(kv.StringFunc(fail_if(lambda s: s != "foo", "{} was not foo")), "foo", None, None),
}


@cases(STRING_FUNC)
def test_TestStringFunc_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


STRING_REGEXP = {
    "zero-nil": Twin(kv.StringRegexp(""), None, "expected string value for StringRegexp check, got: <nil>",
                     "expected string value for StringRegexp check, got: null"),
    "zero-other": Twin(kv.StringRegexp(""), "", None, None),
    "nil": Twin(kv.StringRegexp("str"), None, "expected string value for StringRegexp check, got: <nil>",
                "expected string value for StringRegexp check, got: null"),
    "wrong-type": Twin(kv.StringRegexp("str"), D("1.234"),
                       "expected string value for StringRegexp check, got: float64",
                       "expected string value for StringRegexp check, got: number"),
    "not-equal": Twin(kv.StringRegexp("str"), "rts", "expected regex match str for StringRegexp check, got: rts",
                      'expected regex match /str/ for StringRegexp check, got: "rts"'),
    "equal": Twin(kv.StringRegexp("str"), "str", None, None),
}


@cases(STRING_REGEXP)
def test_TestStringRegexp_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


NULL = {
    "zero-nil": Twin(kv.Null(), None, None, None),
    "not-nil": Twin(kv.Null(), False, "expected nil value for Null check, got: bool",
                    "expected null value for Null check, got: bool"),
    "equal": Twin(kv.Null(), None, None, None),
}


@cases(NULL)
def test_TestNullValue_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


NOT_NULL = {
    "zero-nil": Twin(kv.NotNull(), None, "expected non-nil value for NotNull check, got: <nil>",
                     "expected non-null value for NotNull check, got: null"),
    "not-nil": Twin(kv.NotNull(), None, "expected non-nil value for NotNull check, got: <nil>",
                    "expected non-null value for NotNull check, got: null"),
    "equal": Twin(kv.NotNull(), True, None, None),
}


@cases(NOT_NULL)
def test_TestNotNullValue_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


# -- numbers ---------------------------------------------------------------------------------------


def _number_table(name: str, make: Any, go_type: str, parse: str, one: Any, other: Any) -> dict[str, Twin]:
    """Go's Int64/Int32/Float64/Float32 tables: ``one`` is the checked number, ``other`` a different one."""
    nil = (f"expected json.Number value for {name} check, got: <nil>", f"expected number value for {name} check, got: null")
    return {
        "zero-nil": Twin(make(0), None, *nil),
        "zero-other": Twin(make(0), D("0.0") if isinstance(one, float) else 0, None, None),
        "nil": Twin(make(one), None, *nil),
        "wrong-type": Twin(
            make(one),
            "str",
            f'expected json.Number to be parseable as {go_type} value for {name} check: strconv.{parse}: parsing "str": invalid syntax',
            f"expected number value for {name} check, got: string",
        ),
        "not-equal": Twin(make(one), D(str(other)), f"expected value {one} for {name} check, got: {other}",
                          f"expected value {one} for {name} check, got: {other}"),
        "equal": Twin(make(one), D(str(one)), None, None),
    }


@cases(_number_table("Int64Exact", kv.Int64Exact, "int64", "ParseInt", 1234, 4321))
def test_TestInt64Value_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


@cases(_number_table("Int32Exact", kv.Int32Exact, "int32", "ParseInt", 1234, 4321))
def test_TestInt32Value_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


@cases(_number_table("Float64Exact", kv.Float64Exact, "float64", "ParseFloat", 1.234, 4.321))
def test_TestFloat64Value_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


@cases(_number_table("Float32Exact", kv.Float32Exact, "float32", "ParseFloat", 1.234, 4.321))
def test_TestFloat32Value_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


def _func_table(name: str, make: Any, go_parse: str, bad: Any, good: Any, target: Any, go_failure: str) -> dict[str, Twin]:
    check = make(fail_if(lambda v: v != target, "{} was not " + str(target)))
    return {
        "nil": Twin(make(lambda v: None), None, f"expected json.Number value for {name} check, got: <nil>",
                    f"expected number value for {name} check, got: null"),
        "wrong-type": Twin(make(lambda v: None), "wrongtype", f"expected json.Number value for {name} check, got: string",
                           f"expected number value for {name} check, got: string"),
        "no-digits": Twin(make(lambda v: None), "str", f"expected json.Number to be parseable as {go_parse} value for "
                          f"{name} check: " + ("number has no digits" if go_parse == "big.Float" else
                          f'strconv.Parse{"Int" if go_parse.startswith("int") else "Float"}: parsing "str": invalid syntax'),
                          f"expected number value for {name} check, got: string"),
        # The message is the function's own (Go's formats with %f or %d, ours with str()).
        "failure": Twin(check, bad, go_failure, f"{make_value(make, bad)} was not {target}"),
        "success": Twin(check, good, None, None),
    }


def make_value(make: Any, value: Any) -> Any:
    # What the function receives for a document value, to build the expected message.
    seen: list[Any] = []
    make(seen.append).CheckValue(value)
    return seen[0]


@cases(_func_table("Int64Func", kv.Int64Func, "int64", 2, 1, 1, "2 was not 1"))
def test_TestInt64Func_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


@cases(_func_table("Int32Func", kv.Int32Func, "int32", 2, 1, 1, "2 was not 1"))
def test_TestInt32Func_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


@cases(_func_table("Float64Func", kv.Float64Func, "float64", D("1.2"), D("1.1"), 1.1, "1.200000 was not 1.1"))
def test_TestFloat64Func_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


F32_1_1 = kv.Float32Exact(1.1).value


@cases(_func_table("Float32Func", kv.Float32Func, "float32", D("1.2"), D("1.1"), F32_1_1, "1.200000 was not 1.1"))
def test_TestFloat32Func_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


def test_float_funcs_receive_rounded_values() -> None:
    # The "failure" twins above compare with messages built from what the function got; pin that too.
    assert make_value(kv.Float32Func, D("1.2")) == pytest.approx(1.2000000476837158, abs=0)
    assert make_value(kv.Float64Func, D("1.2")) == 1.2
    assert make_value(kv.Int32Func, D("2.0")) == 2


# "zero-nil" and "zero-other" build NumberExact(nil): see test_TestNumberValue_zero.
NUMBER = {
    "nil": Twin(kv.NumberExact(BIG), None, "expected json.Number value for NumberExact check, got: <nil>",
                "expected number value for NumberExact check, got: null"),
    "wrong-type": Twin(kv.NumberExact(BIG), "str",
                       "expected json.Number to be parseable as big.Float value for NumberExact check: number has no digits",
                       "expected number value for NumberExact check, got: string"),
    "not-equal": Twin(
        kv.NumberExact(BIG),
        D("1.797693134862315797693134862315797693134862314"),
        "expected value 1.797693134862315797693134862315797693134862315 for NumberExact check, "
        "got: 1.797693134862315797693134862315797693134862314",
        "expected value 1.797693134862315797693134862315797693134862315 for NumberExact check, "
        "got: 1.797693134862315797693134862315797693134862314",
    ),
    "equal": Twin(kv.NumberExact(BIG), D("1.797693134862315797693134862315797693134862315"), None, None),
}


@cases(NUMBER)
def test_TestNumberValue_Equal(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


@pytest.mark.parametrize("case", ["zero-nil", "zero-other"])
def test_TestNumberValue_zero(case: str) -> None:
    # Go builds NumberExact(nil) and fails every check ("value in NumberExact check is nil");
    # Python refuses to build it at all.
    with pytest.raises(TypeError, match="NumberExact expects an int, Decimal or float, got NoneType"):
        kv.NumberExact(None)  # type: ignore[arg-type]


NUMBER_FUNC = {
    "nil": Twin(kv.NumberFunc(lambda n: None), None, "expected json.Number value for NumberFunc check, got: <nil>",
                "expected number value for NumberFunc check, got: null"),
    "wrong-type": Twin(kv.NumberFunc(lambda n: None), "wrongtype",
                       "expected json.Number value for NumberFunc check, got: string",
                       "expected number value for NumberFunc check, got: string"),
    "no-digits": Twin(kv.NumberFunc(lambda n: None), "str",
                      "expected json.Number to be parseable as big.Float value for NumberFunc check: number has no digits",
                      "expected number value for NumberFunc check, got: string"),
    "failure": Twin(
        kv.NumberFunc(fail_if(lambda n: n != BIG, "{} was not " + str(BIG))),
        D("1.667114241575161769818551140818851511176942075"),
        f"1.667114241575161769818551140818851511176942075 was not {BIG}",
        f"1.667114241575161769818551140818851511176942075 was not {BIG}",
    ),
    "success-precise-number": Twin(kv.NumberFunc(fail_if(lambda n: n != BIG, "{} differs")), BIG, None, None),
    "success-whole-number": Twin(kv.NumberFunc(fail_if(lambda n: n != 1, "{} was not 1")), 1, None, None),
}


@cases(NUMBER_FUNC)
def test_TestNumberFunc_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


# -- lists, tuples, sets ---------------------------------------------------------------------------

I123 = [kv.Int64Exact(123), kv.Int64Exact(456), kv.Int64Exact(789)]
F3 = {0: kv.Float64Exact(1.23), 2: kv.Float64Exact(4.56), 3: kv.Float64Exact(7.89)}


def _type_rows(name: str, empty: kv.Check, full: kv.Check, kind: str = "array") -> dict[str, Twin]:
    """Go's "zero-nil", "nil" and "wrong-type" rows of a collection check."""
    go_kind = "[]any" if kind == "array" else "map[string]any"
    go_name = _GO_NAMES_BACK.get(name, name)
    return {
        "zero-nil": Twin(empty, None, f"expected {go_kind} value for {go_name} check, got: <nil>",
                         f"expected {kind} value for {name} check, got: null"),
        "zero-other": Twin(empty, [] if kind == "array" else {}, None, None),
        "nil": Twin(full, None, f"expected {go_kind} value for {go_name} check, got: <nil>",
                    f"expected {kind} value for {name} check, got: null"),
        "wrong-type": Twin(full, D("1.234"), f"expected {go_kind} value for {go_name} check, got: float64",
                           f"expected {kind} value for {name} check, got: number"),
    }


_GO_NAMES_BACK = {ours: go for go, ours in _GO_NAMES.items()}


def _count_twin(check: kv.Check, value: Any, name: str, expected: int, got: int) -> Twin:
    go_name = _GO_NAMES_BACK.get(name, name)
    text = f"expected {expected} elements for {{}} check, got {got} elements"
    return Twin(check, value, text.format(go_name), text.format(name))


LIST = {
    **_type_rows("ListExact", kv.ListExact([]), kv.ListExact(I123)),
    "empty": _count_twin(kv.ListExact(I123), [], "ListExact", 3, 0),
    "wrong-length": _count_twin(kv.ListExact(I123), [123, 456], "ListExact", 3, 2),
    "not-equal": Twin(kv.ListExact(I123), [123, 456, 654],
                      "list element index 2: expected value 789 for Int64Exact check, got: 654",
                      "[2]: expected value 789 for Int64Exact check, got: 654"),
    "wrong-order": Twin(kv.ListExact(I123), [123, 789, 456],
                        "list element index 1: expected value 456 for Int64Exact check, got: 789",
                        "[1]: expected value 456 for Int64Exact check, got: 789"),
    "equal": Twin(kv.ListExact(I123), [123, 456, 789], None, None),
}


@cases(LIST)
def test_TestListValue_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


LIST_PARTIAL = {
    **_type_rows("ListPartial", kv.ListPartial({}), kv.ListPartial(F3)),
    # Go names the first missing index; every missing one is named here.
    "empty": Twin(kv.ListPartial(F3), [], "missing element index 0 for ListPartial check",
                  "missing element indexes 0, 2, 3 for ListPartial check"),
    "wrong-length": Twin(kv.ListPartial(F3), [D("1.23"), D("4.56")], "missing element index 2 for ListPartial check",
                         "missing element indexes 2, 3 for ListPartial check"),
    "not-equal": Twin(kv.ListPartial(F3), [D("1.23"), D("4.56"), D("6.54"), D("5.46")],
                      "list element 2: expected value 4.56 for Float64Exact check, got: 6.54",
                      "[2]: expected value 4.56 for Float64Exact check, got: 6.54"),
    "wrong-order": Twin(kv.ListPartial(F3), [D("1.23"), D("0.00"), D("7.89"), D("4.56")],
                        "list element 2: expected value 4.56 for Float64Exact check, got: 7.89",
                        "[2]: expected value 4.56 for Float64Exact check, got: 7.89"),
    "equal": Twin(kv.ListPartial(F3), [D("1.23"), D("0.00"), D("4.56"), D("7.89")], None, None),
}


@cases(LIST_PARTIAL)
def test_TestListValuePartial_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


def _size_table(name: str, make: Any, array: bool = True) -> dict[str, Twin]:
    def coll(n: int) -> Any:
        return [123, 456, 789][:n] if array else dict(list({"one": 123, "two": 456, "three": 789}.items())[:n])

    return {
        **_type_rows(name, make(0), make(3), "array" if array else "object"),
        "empty": _count_twin(make(3), coll(0), name, 3, 0),
        "wrong-length": _count_twin(make(3), coll(2), name, 3, 2),
        "equal": Twin(make(3), coll(3), None, None),
    }


@cases(_size_table("ListSizeExact", kv.ListSizeExact))
def test_TestListElements_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


# Go's message says "SetElementExact", a leftover name; ours says SetSizeExact.
@cases(_size_table("SetSizeExact", kv.SetSizeExact))
def test_TestSetElements_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


@cases(_size_table("MapSizeExact", kv.MapSizeExact, array=False))
def test_TestMapElements_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


TUPLE_SIZE = {
    **_size_table("TupleSizeExact", kv.TupleSizeExact),
    "wrong-length": _count_twin(kv.TupleSizeExact(4), [123, "hello", True], "TupleSizeExact", 4, 3),
    "equal": Twin(kv.TupleSizeExact(3), [123, "hello", True], None, None),
}


@cases(TUPLE_SIZE)
def test_TestTupleSizeExact_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


TUP = [kv.Int64Exact(123), kv.Bool(True), kv.StringExact("hello")]
TUPLE = {
    **_type_rows("TupleExact", kv.TupleExact([]), kv.TupleExact(TUP)),
    "empty": _count_twin(kv.TupleExact(TUP), [], "TupleExact", 3, 0),
    "wrong-length": _count_twin(kv.TupleExact(TUP), [123, True], "TupleExact", 3, 2),
    "not-equal": Twin(kv.TupleExact(TUP), [123, True, "goodbye"],
                      "tuple element index 2: expected value hello for StringExact check, got: goodbye",
                      '[2]: expected value "hello" for StringExact check, got: "goodbye"'),
    "wrong-order": Twin(kv.TupleExact(TUP), [123, "hello", True],
                        "tuple element index 1: expected bool value for Bool check, got: string",
                        "[1]: expected bool value for Bool check, got: string"),
    "equal": Twin(kv.TupleExact(TUP), [123, True, "hello"], None, None),
}


@cases(TUPLE)
def test_TestTupleExact_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


TP = {0: kv.Float64Exact(1.23), 2: kv.StringExact("world"), 3: kv.Bool(True)}
TUPLE_PARTIAL = {
    **_type_rows("TuplePartial", kv.TuplePartial({}), kv.TuplePartial(TP)),
    "empty": Twin(kv.TuplePartial(TP), [], "missing element index 0 for TuplePartial check",
                  "missing element indexes 0, 2, 3 for TuplePartial check"),
    "wrong-length": Twin(kv.TuplePartial(TP), [D("1.23"), "hello"], "missing element index 2 for TuplePartial check",
                         "missing element indexes 2, 3 for TuplePartial check"),
    # Index 2 fails before index 3 is found missing: like Go, the first failing index in order.
    "not-equal": Twin(kv.TuplePartial(TP), [D("1.23"), "world", "hello"],
                      "tuple element 2: expected value world for StringExact check, got: hello",
                      '[2]: expected value "world" for StringExact check, got: "hello"'),
    "wrong-order": Twin(kv.TuplePartial(TP), [D("1.23"), "world", True],
                        "tuple element 2: expected string value for StringExact check, got: bool",
                        "[2]: expected string value for StringExact check, got: bool"),
    "equal": Twin(kv.TuplePartial(TP), [D("1.23"), "hello", "world", True], None, None),
}


@cases(TUPLE_PARTIAL)
def test_TestTuplePartial_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


SET = {
    **_type_rows("SetExact", kv.SetExact([]), kv.SetExact(I123)),
    "empty": _count_twin(kv.SetExact(I123), [], "SetExact", 3, 0),
    "wrong-length": _count_twin(kv.SetExact(I123), [123, 456], "SetExact", 3, 2),
    # Ours also names the element no check took.
    "not-equal": Twin(kv.SetExact(I123), [123, 456, 654], "missing value 789 for SetExact check",
                      "missing value 789 for SetExact check; unmatched element [2]: 654"),
    "equal-different-order": Twin(kv.SetExact(I123), [123, 789, 456], None, None),
    "equal-same-order": Twin(kv.SetExact(I123), [123, 456, 789], None, None),
}


@cases(SET)
def test_TestSetValue_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


F123 = [kv.Float64Exact(1.23), kv.Float64Exact(4.56), kv.Float64Exact(7.89)]
SET_PARTIAL = {
    **_type_rows("SetPartial", kv.SetPartial([]), kv.SetPartial(F123)),
    "equal-empty": Twin(kv.SetPartial(F123), [], "missing value 1.23 for SetPartial check",
                        "missing values 1.23, 4.56, 7.89 for SetPartial check"),
    "not-equal": Twin(kv.SetPartial(F123), [D("1.23"), D("4.56"), D("6.54"), D("5.46")],
                      "missing value 7.89 for SetPartial check", "missing value 7.89 for SetPartial check"),
    "equal-different-order": Twin(kv.SetPartial(F123), [D("1.23"), D("0.00"), D("7.89"), D("4.56")], None, None),
    "equal-same-order": Twin(kv.SetPartial(F123), [D("1.23"), D("0.00"), D("4.56"), D("7.89")], None, None),
}


@cases(SET_PARTIAL)
def test_TestSetValuePartial_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


# -- maps and objects ------------------------------------------------------------------------------

M3 = {"one": kv.Float64Exact(1.23), "two": kv.Float64Exact(4.56), "three": kv.Float64Exact(7.89)}
M2 = {"one": kv.Float64Exact(1.23), "three": kv.Float64Exact(7.89)}
OTHER_KEYS = {"four": D("1.23"), "five": D("7.89"), "six": D("4.56")}


def _value_rows(make: Any, expect: dict[str, kv.Check], go_where: str) -> dict[str, Twin]:
    """Go's "not-equal", "wrong-order" and "equal" rows of a map or object check."""
    return {
        "not-equal": Twin(make(expect), {"one": D("1.23"), "two": D("4.56"), "three": D("6.54")},
                          f"three {go_where}: expected value 7.89 for Float64Exact check, got: 6.54",
                          "three: expected value 7.89 for Float64Exact check, got: 6.54"),
        "wrong-order": Twin(make(expect), {"one": D("1.23"), "two": D("7.89"), "three": D("4.56")},
                            f"three {go_where}: expected value 7.89 for Float64Exact check, got: 4.56",
                            "three: expected value 7.89 for Float64Exact check, got: 4.56"),
        "equal": Twin(make(expect), {"one": D("1.23"), "two": D("4.56"), "three": D("7.89")}, None, None),
    }


MAP = {
    **_type_rows("MapExact", kv.MapExact({}), kv.MapExact(M3), "object"),
    # Go gives the counts; ours adds which keys differ.
    "empty": Twin(kv.MapExact(M3), {}, "expected 3 elements for MapExact check, got 0 elements",
                  "expected 3 elements for MapExact check, got 0 elements: "
                  'actual value is missing key(s): "one", "three", "two"'),
    "wrong-length": Twin(kv.MapExact(M3), {"one": D("1.23"), "two": D("4.56")},
                         "expected 3 elements for MapExact check, got 2 elements",
                         'expected 3 elements for MapExact check, got 2 elements: actual value is missing key(s): "three"'),
    "key-not-found": Twin(kv.MapExact(M3), OTHER_KEYS, "missing element one for MapExact check",
                          "expected 3 elements for MapExact check, got 3 elements: "
                          'actual value has extra key(s): "five", "four", "six"; '
                          'actual value is missing key(s): "one", "three", "two"'),
    **_value_rows(kv.MapExact, M3, "map element"),
}


@cases(MAP)
def test_TestMapValue_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


def _partial_table(name: str, make: Any, noun: str, go_noun: str, go_where: str) -> dict[str, Twin]:
    return {
        **_type_rows(name, make({}), make(M2), "object"),
        # Go names the first missing key; every missing one is named here.
        "empty": Twin(make(M2), {}, f"missing {go_noun} one for {name} check",
                      f'missing {noun}s "one", "three" for {name} check'),
        "wrong-length": Twin(make(M2), {"one": D("1.23"), "two": D("4.56")}, f"missing {go_noun} three for {name} check",
                             f'missing {noun} "three" for {name} check'),
        "key-not-found": Twin(make(M3), OTHER_KEYS, f"missing {go_noun} one for {name} check",
                              f'missing {noun}s "one", "three", "two" for {name} check'),
        **_value_rows(make, M2, go_where),
    }


@cases(_partial_table("MapPartial", kv.MapPartial, "key", "element", "map element"))
def test_TestMapValuePartial_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


@cases(_partial_table("ObjectPartial", kv.ObjectPartial, "attribute", "attribute", "object attribute"))
def test_TestObjectValuePartial_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


def _object_shape(expect: dict[str, kv.Check], value: dict[str, Any], go: str, ours: str) -> Twin:
    return Twin(kv.ObjectExact(expect), value, go, ours)


M5 = {**M3, "four": kv.Float64Exact(0.12), "five": kv.Float64Exact(3.45)}
ONE_TWO = {"one": kv.Float64Exact(1.23), "two": kv.Float64Exact(4.56)}
OBJECT = {
    **_type_rows("ObjectExact", kv.ObjectExact({}), kv.ObjectExact(M3), "object"),
    # Where Go counts the attributes, ours is Go's message.
    "empty": _object_shape(M3, {}, *[
        'expected 3 attribute(s) for ObjectExact check, got 0 attribute(s): actual value is missing attribute(s): '
        '"one", "three", "two"'] * 2),
    "missing-one-attribute": _object_shape(M3, {"one": D("1.23"), "two": D("4.56")}, *[
        'expected 3 attribute(s) for ObjectExact check, got 2 attribute(s): actual value is missing attribute(s): '
        '"three"'] * 2),
    "missing-multiple-attributes": _object_shape(M5, {"one": D("1.23"), "two": D("4.56")}, *[
        'expected 5 attribute(s) for ObjectExact check, got 2 attribute(s): actual value is missing attribute(s): '
        '"five", "four", "three"'] * 2),
    "extra-one-attribute": _object_shape(ONE_TWO, {"one": D("1.23"), "two": D("4.56"), "three": D("7.89")}, *[
        'expected 2 attribute(s) for ObjectExact check, got 3 attribute(s): actual value has extra attribute(s): '
        '"three"'] * 2),
    "extra-multiple-attributes": _object_shape(
        ONE_TWO, {"one": D("1.23"), "two": D("4.56"), "three": D("7.89"), "four": D("0.12"), "five": D("3.45")}, *[
            'expected 2 attribute(s) for ObjectExact check, got 5 attribute(s): actual value has extra attribute(s): '
            '"five", "four", "three"'] * 2),
    **_value_rows(kv.ObjectExact, M3, "object attribute"),
    # Same count, other names: Go names the first missing attribute; ours counts and names every difference.
    "key-not-found": _object_shape(M3, OTHER_KEYS, "missing attribute one for ObjectExact check",
                                   'expected 3 attribute(s) for ObjectExact check, got 3 attribute(s): '
                                   'actual value has extra attribute(s): "five", "four", "six"; '
                                   'actual value is missing attribute(s): "one", "three", "two"'),
}


@cases(OBJECT)
def test_TestObjectValue_CheckValue(twin: Twin) -> None:
    assert outcome(twin.check, twin.value) == twin.ours


# -- every fact of Go's message is in ours -----------------------------------------------------------

ALL_TABLES: dict[str, dict[str, Twin]] = {
    "Bool": BOOL, "BoolFunc": BOOL_FUNC, "StringExact": STRING, "StringFunc": STRING_FUNC,
    "StringRegexp": STRING_REGEXP, "Null": NULL, "NotNull": NOT_NULL,
    "Int64Exact": _number_table("Int64Exact", kv.Int64Exact, "int64", "ParseInt", 1234, 4321),
    "Int32Exact": _number_table("Int32Exact", kv.Int32Exact, "int32", "ParseInt", 1234, 4321),
    "Float64Exact": _number_table("Float64Exact", kv.Float64Exact, "float64", "ParseFloat", 1.234, 4.321),
    "Float32Exact": _number_table("Float32Exact", kv.Float32Exact, "float32", "ParseFloat", 1.234, 4.321),
    "Int64Func": _func_table("Int64Func", kv.Int64Func, "int64", 2, 1, 1, "2 was not 1"),
    "NumberExact": NUMBER, "NumberFunc": NUMBER_FUNC,
    "ListExact": LIST, "ListPartial": LIST_PARTIAL, "TupleExact": TUPLE, "TuplePartial": TUPLE_PARTIAL,
    "TupleSizeExact": TUPLE_SIZE, "SetExact": SET, "SetPartial": SET_PARTIAL, "MapExact": MAP,
    "MapPartial": _partial_table("MapPartial", kv.MapPartial, "key", "element", "map element"),
    "ObjectPartial": _partial_table("ObjectPartial", kv.ObjectPartial, "attribute", "attribute", "object attribute"),
    "ObjectExact": OBJECT,
    "ListSizeExact": _size_table("ListSizeExact", kv.ListSizeExact),
    "SetSizeExact": _size_table("SetSizeExact", kv.SetSizeExact),
    "MapSizeExact": _size_table("MapSizeExact", kv.MapSizeExact, array=False),
}
FAILING = [
    pytest.param(twin, id=f"{table}-{case}")
    for table, rows in ALL_TABLES.items()
    for case, twin in rows.items()
    if twin.go is not None
]


@pytest.mark.parametrize("twin", FAILING)
def test_our_message_carries_go_facts(twin: Twin) -> None:
    assert twin.ours is not None, "Go fails this case, so must we"
    facts = go_facts(twin.go or "")
    if facts is None:
        # A user function's own message: Go formats its number with %f or %d, ours with str().
        assert re.fullmatch(r"\S+ was not \S+", twin.go or "")
        assert re.fullmatch(r"\S+ was not \S+", twin.ours)
        return
    assert facts, twin.go
    missing = [fact for fact in facts if not re.search(fact, twin.ours)]
    assert missing == [], f"Go says {twin.go!r}; ours {twin.ours!r} lacks {missing}"


@pytest.mark.parametrize(
    "twin",
    [pytest.param(t, id=f"{table}-{case}") for table, rows in ALL_TABLES.items() for case, t in rows.items()],
)
def test_we_fail_exactly_where_go_fails(twin: Twin) -> None:
    assert (twin.go is None) == (twin.ours is None)


def test_partial_checks_report_the_first_failing_key_in_order() -> None:
    # Go walks the keys in order: a failing value before the first missing key is what it reports.
    check = kv.ObjectPartial({"a": kv.StringExact("x"), "m": kv.Null()})
    assert outcome(check, {"a": "y"}) == 'a: expected value "x" for StringExact check, got: "y"'
    assert outcome(check, {"a": "x"}) == 'missing attribute "m" for ObjectPartial check'
    # A same-size exact check does the same; a size difference is reported first, with Go's counts.
    exact = kv.MapExact({"a": kv.StringExact("x"), "m": kv.Null()})
    assert outcome(exact, {"a": "y", "n": None}) == 'a: expected value "x" for StringExact check, got: "y"'
    assert outcome(exact, {"a": "y"}) == (
        'expected 2 elements for MapExact check, got 1 element: actual value is missing key(s): "m"'
    )


# -- String() twins: str() is the expected value as text ---------------------------------------------

STRINGS = {
    "TestBoolValue_String": (kv.Bool(True), "true"),
    "TestBoolFunc_String": (kv.BoolFunc(bool), "<BoolFunc bool>"),
    "TestFloat32Value_String": (kv.Float32Exact(1.234567890123e03), "1234.5679"),
    "TestFloat32Func_String": (kv.Float32Func(float.is_integer), "<Float32Func float.is_integer>"),
    "TestFloat64Value_String": (kv.Float64Exact(1.234567890123e09), "1234567890.123"),
    "TestFloat64Func_String": (kv.Float64Func(float.is_integer), "<Float64Func float.is_integer>"),
    "TestInt32Value_String": (kv.Int32Exact(123456789), "123456789"),
    "TestInt32Func_String": (kv.Int32Func(bool), "<Int32Func bool>"),
    "TestInt64Value_String": (kv.Int64Exact(1234567890123), "1234567890123"),
    "TestInt64Func_String": (kv.Int64Func(bool), "<Int64Func bool>"),
    "TestListValue_String": (kv.ListExact(I123), "[123, 456, 789]"),
    "TestListValuePartial_String": (kv.ListPartial(F3), "[0: 1.23, 2: 4.56, 3: 7.89, ...]"),
    "TestListElements_String": (kv.ListSizeExact(2), "<list of 2 elements>"),
    "TestMapValue_String": (kv.MapExact(M3), '{"one": 1.23, "three": 7.89, "two": 4.56}'),
    "TestMapValuePartial_String": (kv.MapPartial(M2), '{"one": 1.23, "three": 7.89, ...}'),
    "TestMapElements_String": (kv.MapSizeExact(2), "<map of 2 elements>"),
    "TestNotNullValue_String": (kv.NotNull(), "<not null>"),
    "TestNullValue_String": (kv.Null(), "null"),
    "TestNumberValue_String": (kv.NumberExact(BIG), "1.797693134862315797693134862315797693134862315"),
    "TestNumberFunc_String": (kv.NumberFunc(bool), "<NumberFunc bool>"),
    "TestObjectValue_String": (kv.ObjectExact(M3), '{"one": 1.23, "three": 7.89, "two": 4.56}'),
    "TestObjectValuePartial_String": (kv.ObjectPartial(M2), '{"one": 1.23, "three": 7.89, ...}'),
    "TestSetValue_String": (kv.SetExact(I123), "[123, 456, 789]"),
    "TestSetValuePartial_String": (kv.SetPartial(F123), "[1.23, 4.56, 7.89, ...]"),
    "TestSetElements_String": (kv.SetSizeExact(2), "<set of 2 elements>"),
    "TestStringValue_String": (kv.StringExact("str"), '"str"'),
    "TestStringFunc_String": (kv.StringFunc(str.isupper), "<StringFunc str.isupper>"),
    "TestStringRegexp_String": (kv.StringRegexp(re.compile("^str[0-9a-z]")), "/^str[0-9a-z]/"),
    "TestTupleExact_String": (kv.TupleExact(TUP), '[123, true, "hello"]'),
    "TestTuplePartial_String": (kv.TuplePartial(TP), '[0: 1.23, 2: "world", 3: true, ...]'),
    "TestTupleSizeExact_String": (kv.TupleSizeExact(2), "<tuple of 2 elements>"),
}


@pytest.mark.parametrize(("check", "text"), list(STRINGS.values()), ids=list(STRINGS))
def test_String_twins(check: kv.Check, text: str) -> None:
    assert str(check) == text
