"""Numbers Decimal cannot hold, integers longer than Python converts, and JSON nested to any depth:
a located format error, the exact value, and a loaded document, on every route.
"""

from __future__ import annotations

import decimal
import json
import sys
import threading
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from loading_support import ROUTES, exactly_equal, load_fully, plain, route

from plancheck import knownvalue
from plancheck._documents.plan import Plan, load_plan
from plancheck._documents.sensitive import collect_plan_secrets
from plancheck._documents.state import State, load_state
from plancheck._errors import PlanFormatError, StateFormatError, ValueMismatchError
from plancheck._loading.jsontext import loads_exact
from plancheck._redact import render_value
from plancheck.tfconfig import ConfigFormatError, load_config, parse_config

_RANGE = (
    "expected a number that Python's Decimal can hold "
    "(exponent at most decimal.MAX_EMAX, no digit below 10**decimal.MIN_ETINY), found a number beyond that range"
)
_HUGE = "1e1000000000000000000"


def _rc(after: str) -> str:
    return f'{{"address": "null_resource.a", "change": {{"actions": ["create"], "after": {after}}}}}'


# -- numbers Decimal cannot hold ---------------------------------------------------------------------

PLAN_NUMBERS = [
    pytest.param(f'{{"format_version": "1.2", "x": {_HUGE}}}', "$.x", " at line 1 column 32 (character 31)", id="top-level"),
    pytest.param(
        '{{"format_version": "1.2",\n "resource_changes": [{}]}}'.format(_rc('{"n": [1, -2.5E+1000000000000000000]}')),
        "$.resource_changes[0].change.after.n[1]", " at line 2 column 107 (character 132)", id="in-an-entry",
    ),
    pytest.param(
        '{"format_version": "1.2", "planned_values": {"outputs": {"o-1": {"value": 0e1000000000000000000}}}}',
        '$.planned_values.outputs["o-1"].value', " at line 1 column 75 (character 74)", id="zero-with-a-huge-exponent",
    ),
    pytest.param(
        '{"format_version": "1.2", "prior_state": {"values": {"x": 1.5e-1999999999999999997}}}',
        "$.prior_state.values.x", " at line 1 column 59 (character 58)", id="a-digit-below-min-etiny",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("text", "location", "position"), PLAN_NUMBERS)
@pytest.mark.parametrize("route_name", list(ROUTES))
def test_a_number_decimal_cannot_hold_is_a_located_plan_error(
    route_name: str, text: str, location: str, position: str
) -> None:
    got = load_fully(route_name, text.encode())
    assert isinstance(got, PlanFormatError), got
    assert got.location == location
    if route_name == "fast-lazy":
        # Found when the value is first parsed: located in the plan, the line of the piece unknown.
        assert str(got) in (f"plan.json: {location}: {_RANGE}", f"plan.json: {location}: {_RANGE}{position}")
    else:
        assert str(got) == f"plan.json: {location}: {_RANGE}{position}"


@pytest.mark.parametrize("parser", ["stdlib", "fast"])
@pytest.mark.parametrize(
    "call",
    [
        pytest.param(lambda data, parser: load_plan(data, parser=parser), id="load_plan"),
        pytest.param(lambda data, parser: Plan.from_json(data.decode(), parser=parser), id="Plan.from_json-str"),
        pytest.param(lambda data, parser: load_state(data, parser=parser), id="load_state"),
        pytest.param(lambda data, parser: State.from_json(data.decode(), parser=parser), id="State.from_json-str"),
    ],
)  # fmt: skip
def test_every_entry_point_raises_the_typed_error(call: Any, parser: str) -> None:
    data = b'{"format_version": "1.0", "y": {"n": 1e1000000000000000000}}'
    with route(parser) as name, pytest.raises((PlanFormatError, StateFormatError)) as caught:
        call(data, name)
    assert str(caught.value) == f"$.y.n: {_RANGE} at line 1 column 38 (character 37)"


@pytest.mark.parametrize(
    ("literal", "accepted"),
    [
        ("1e999999999999999999", True),
        ("9.99e999999999999999999", True),
        ("1e-1999999999999999997", True),
        ("-1E+999999999999999999", True),
        ("10e999999999999999999", False),
        (_HUGE, False),
        ("1.5e-1999999999999999997", False),
        ("0e1000000000000000000", False),
        ("1e99999999999999999999999999", False),
    ],
)
@pytest.mark.parametrize("parser", ["stdlib", "fast"])
def test_the_accepted_range_is_what_decimal_holds(literal: str, accepted: bool, parser: str) -> None:
    text = f'{{"n": {literal}}}'
    if accepted:
        assert loads_exact(text, parser=parser) == {"n": Decimal(literal)}
    else:
        with pytest.raises(ValueError, match=r"^\$\.n: expected a number that Python's Decimal can hold"):
            loads_exact(text, parser=parser)


@pytest.mark.parametrize("parser", ["stdlib", "fast"])
def test_a_context_without_the_trap_does_not_turn_the_number_into_nan(parser: str) -> None:
    with decimal.localcontext() as context:
        context.traps[decimal.InvalidOperation] = False
        with pytest.raises(PlanFormatError, match=r"^\$\.x: expected a number that Python's Decimal"):
            load_plan(b'{"format_version": "1.2", "x": %s}' % _HUGE.encode(), parser=parser)
        assert load_plan(b'{"format_version": "1.2", "x": 1.5}', parser=parser).raw["x"] == Decimal("1.5")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f'{{"locals": {{"a": {_HUGE}}}}}', f'm.tf.json:1:18: $.locals["a"]: {_RANGE}'),
        ('{"locals": {"a": [1,\n  -9e-1999999999999999999]}}', f'm.tf.json:2:3: $.locals["a"][1]: {_RANGE}'),
    ],
    ids=["exponent", "digit-below-min-etiny"],
)
def test_a_config_number_decimal_cannot_hold_is_a_located_config_error(text: str, message: str) -> None:
    with pytest.raises(ConfigFormatError) as caught:
        parse_config(text, filename="m.tf.json")
    assert str(caught.value) == message


# -- integers of more digits than Python converts --------------------------------------------------

_DIGITS = "7" * 5000


def _big_plan(padding: int) -> bytes:
    after = '{{"big": {}, "neg": -{}, "pad": "{}"}}'.format(_DIGITS, _DIGITS, "x" * padding)
    return (f'{{"format_version": "1.2", "resource_changes": [{_rc(after)}], "planned_values": {{"outputs": {{"o": {{"value": {_DIGITS}}}}}}}}}').encode()  # fmt: skip


@pytest.mark.parametrize("padding", [0, 1 << 20], ids=["small", "over-1-MiB"])
@pytest.mark.parametrize("parser", ["stdlib", "fast", "auto"])
def test_a_5000_digit_integer_loads_exactly_with_every_parser(padding: int, parser: str) -> None:
    data = _big_plan(padding)
    assert len(data) > (1 << 20) if padding else len(data) < (1 << 20)
    plan = load_plan(data, parser=parser)
    after = plan.resource_change("null_resource.a").change.after
    assert after["big"] == Decimal(_DIGITS)
    assert after["neg"] == Decimal("-" + _DIGITS)
    assert type(after["big"]) is Decimal
    assert after["big"] == after["big"].to_integral_value()
    assert plan.raw["planned_values"]["outputs"]["o"]["value"] == Decimal(_DIGITS)


@pytest.mark.parametrize("padding", [0, 1 << 20], ids=["small", "over-1-MiB"])
def test_every_route_gives_the_same_document(padding: int) -> None:
    data = _big_plan(padding)
    outcomes = {name: load_fully(name, data) for name in ROUTES}
    reference = outcomes["stdlib"]
    assert isinstance(reference, Plan), reference
    for name, got in outcomes.items():
        assert isinstance(got, Plan), (name, got)
        assert exactly_equal(plain(got.raw), plain(reference.raw)), name


def test_a_long_integer_renders_and_compares_exactly() -> None:
    plan = load_plan(_big_plan(0))
    value = plan.resource_change("null_resource.a").change.after["big"]
    assert str(value) == _DIGITS
    assert int(value) == int(Decimal(_DIGITS))  # an exact int when asked for (int() of a Decimal has no limit)
    assert render_value({"big": value}).startswith('{"big": 7777777777')
    knownvalue.NumberExact(Decimal(_DIGITS)).CheckValue(value)
    with pytest.raises(ValueMismatchError, match="expected value"):
        knownvalue.NumberExact(Decimal(_DIGITS) + 1).CheckValue(value)
    with pytest.raises(ValueMismatchError, match="expected number parseable as int64"):
        knownvalue.Int64Exact(7).CheckValue(value)
    assert _DIGITS not in collect_plan_secrets(plan.raw)


def test_python_s_own_limit_is_left_alone() -> None:
    before = sys.get_int_max_str_digits()
    load_plan(_big_plan(0))
    assert sys.get_int_max_str_digits() == before


def test_a_config_with_a_5000_digit_integer_loads_exactly() -> None:
    config = parse_config(f'{{"locals": {{"big": {_DIGITS}, "small": 12}}}}')
    assert config.locals["big"] == Decimal(_DIGITS)
    assert type(config.locals["small"]) is int


# -- any depth ------------------------------------------------------------------------------------

_DEEP = 10_000


def _deep_array(depth: int, inner: str = "") -> str:
    return "[" * depth + inner + "]" * depth


def _deep_object(depth: int, leaf: str = "true") -> str:
    return '{"a": ' * depth + leaf + "}" * depth


DEEP_PLANS = {
    "after": f'{{"format_version": "1.2", "resource_changes": [{_rc(_deep_array(_DEEP))}]}}',
    "after-unknown": '{"format_version": "1.2", "resource_changes": [{"address": "null_resource.a", '
    f'"change": {{"actions": ["create"], "after_unknown": {_deep_object(_DEEP)}}}}}]}}',
    "planned-values": '{"format_version": "1.2", "planned_values": {"root_module": {"resources": [{"address": "a.b", '
    f'"values": {_deep_array(_DEEP)}, "sensitive_values": {_deep_object(_DEEP)}}}]}}}}}}',
    "child-modules": '{"format_version": "1.2", "prior_state": {"values": {"root_module": %s}}}'
    % ('{"child_modules": [' * 3000 + '{"resources": [{"address": "x.y"}]}' + "]}" * 3000),
    "unknown-key": f'{{"format_version": "1.2", "x": {_deep_array(100_000)}}}',
}  # fmt: skip


@pytest.mark.parametrize("name", list(DEEP_PLANS))
@pytest.mark.parametrize("route_name", list(ROUTES))
def test_a_deeply_nested_plan_loads_on_every_route(route_name: str, name: str) -> None:
    data = DEEP_PLANS[name].encode()
    got = load_fully(route_name, data)
    assert isinstance(got, Plan), got
    reference = load_fully("stdlib", data)
    assert isinstance(reference, Plan)
    assert exactly_equal(plain(got.raw), plain(reference.raw))


@pytest.mark.parametrize("parser", ["stdlib", "fast"])
def test_a_deeply_nested_state_loads(parser: str) -> None:
    modules = '{"child_modules": [' * _DEEP + '{"resources": [{"address": "deep.x"}]}' + "]}" * _DEEP
    state = load_state((f'{{"format_version": "1.0", "values": {{"root_module": {modules}}}}}').encode(), parser=parser)
    assert state.resource("deep.x").address == "deep.x"


def test_a_deeply_nested_config_loads(tmp_path: Path) -> None:
    path = tmp_path / "deep.tf.json"
    path.write_text('{{"locals": {{"deep": {}}}}}'.format(_deep_array(_DEEP, "1")), encoding="utf-8")
    value = load_config(path).locals["deep"]
    for _ in range(_DEEP):
        value = value[0]
    assert value == 1


DEEP_SYNTAX_ERRORS = [
    pytest.param(_deep_array(3000, "1,"), "Expecting value at line 1 column 3034 (character 3033)", id="trailing-comma"),
    pytest.param(_deep_array(3000, "1 2"), "Expecting ',' delimiter at line 1 column 3034 (character 3033)", id="missing-comma"),
    pytest.param('{"a": ' * 3000 + "1" + "}" * 2999 + "]", "Expecting ',' delimiter at line 1 column 21032 (character 21031)", id="wrong-closer"),
    pytest.param(_deep_array(3000, '{"k" 1}'), "Expecting ':' delimiter at line 1 column 3037 (character 3036)", id="missing-colon"),
    pytest.param(_deep_array(3000, "{1: 2}"), "Expecting property name enclosed in double quotes at line 1 column 3033 (character 3032)", id="bad-key"),
    pytest.param(_deep_array(3000, '"\x01"'), "Invalid control character at line 1 column 3033 (character 3032)", id="control-character"),
    pytest.param(_deep_array(3000, "NaN"), None, id="nan"),
]  # fmt: skip


@pytest.mark.parametrize(("tail", "message"), DEEP_SYNTAX_ERRORS)
@pytest.mark.parametrize("route_name", list(ROUTES))
def test_a_syntax_error_deep_down_is_the_standard_library_s(route_name: str, tail: str, message: str | None) -> None:
    data = (f'{{"format_version": "1.2", "x": {tail}}}').encode()
    got = load_fully(route_name, data)
    assert isinstance(got, PlanFormatError), got
    if message is None:
        assert str(got) == "plan.json: $: expected valid JSON, found NaN, which is not JSON"
    else:
        assert str(got) == f"plan.json: $: expected valid JSON, found invalid JSON: {message}"


def test_those_are_the_messages_json_loads_gives_with_stack_enough() -> None:
    """The table above, checked against json.loads itself in a thread with a deep stack."""
    found: list[str] = []

    def parse_all() -> None:
        for case in DEEP_SYNTAX_ERRORS:
            tail, message = case.values
            if message is None:
                continue
            try:
                json.loads(f'{{"format_version": "1.2", "x": {tail}}}')
            except json.JSONDecodeError as exc:
                message = exc.msg.removesuffix(" at")
                found.append(f"{message} at line {exc.lineno} column {exc.colno} (character {exc.pos})")

    limit, size = sys.getrecursionlimit(), threading.stack_size()
    try:
        sys.setrecursionlimit(50_000)
        threading.stack_size(256 << 20)
        worker = threading.Thread(target=parse_all)
        worker.start()
        worker.join()
    finally:
        sys.setrecursionlimit(limit)
        threading.stack_size(size)
    assert found == [case.values[1] for case in DEEP_SYNTAX_ERRORS if case.values[1] is not None]


@pytest.mark.parametrize(
    "text",
    ['[1, {"a": [2,]}]', '{"a": 1 "b": 2}', '{"a" 1}', '[{1: 2}]', '["x\x01"]', '{"a": [1, 2}', '[1, 2', '{"a": 1,}'],
)
def test_the_level_by_level_reader_gives_the_standard_library_s_messages(text: str) -> None:
    """Forced onto the level-by-level reader (as when the C scanner runs out of stack), same errors."""
    from plancheck._loading import jsontext as _json

    with pytest.raises(json.JSONDecodeError) as reference:
        json.loads(text)
    with pytest.raises(json.JSONDecodeError) as got:
        _json._scan_levels(text, 0, ())
    assert (got.value.msg, got.value.pos) == (reference.value.msg, reference.value.pos)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["[", '{"k": ', '{"a": 1, "b": ']), min_size=900, max_size=2500))
def test_any_nesting_parses_as_the_standard_library_would_with_stack_enough(openers: list[str]) -> None:
    closers = "".join("]" if o == "[" else "}" for o in reversed(openers))
    text = "".join(openers) + "true" + closers
    for parser in ("stdlib", "fast"):
        value = loads_exact(text, parser=parser)
        for opener in openers:
            value = value[0] if opener == "[" else value["k" if opener.startswith('{"k"') else "b"]
        assert value is True


def test_a_document_deeper_than_the_quick_test_reaches_is_walked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # The quick test's closures give up (RecursionError) on an unknown-marks tree this deep: the walk then finds the
    # problem and its place, once (the quick test's own walk and the locating one were two).
    from plancheck._loading.validate import SchemaValidator, plan_validator

    marks: Any = "yes"  # a marks tree's leaf is a bool
    for _ in range(_DEEP):
        marks = {"a": marks}
    document = {"format_version": "1.2", "resource_changes": [
        {"address": "null_resource.a", "change": {"actions": ["create"], "after_unknown": marks}}]}
    walks: list[object] = []
    walk = SchemaValidator._walk

    def counted(self: SchemaValidator, *args: Any) -> Any:
        walks.append(args[1])
        return walk(self, *args)

    monkeypatch.setattr(SchemaValidator, "_walk", counted)
    violation = plan_validator().first_violation(document)
    assert violation is not None
    where = "$.resource_changes[0].change.after_unknown" + ".a" * _DEEP
    assert (violation.location, violation.kind, len(walks)) == (where, "type", 1)
