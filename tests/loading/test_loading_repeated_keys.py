"""An object that repeats a key is refused by every route, at the key's JSON location, showing no value.

Terraform never writes one; a hand-merged or crafted document may, and then which value counts is
a guess (Python's json keeps the last, msgspec too, other readers the first): ``"errored": true,
"errored": false`` would pass an errored plan, a second ``after_sensitive`` would unmark a secret.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from loading_support import ROUTES, deep_plain, exactly_equal, load_by, load_fully, needs_fast, plain, route

from plancheck._documents.plan import Plan
from plancheck._documents.state import load_state
from plancheck._errors import PlanFormatError, StateFormatError
from plancheck._loading.jsontext import loads_exact, repeats_ruled_out
from plancheck._loading.members import find_members
from plancheck.querycheck import QueryFormatError, load_query

SECRET = "zzRT-hunter2-repeated-secret"
OTHER = "zzRT-other-value-4242"
_RC = ('{"address": "a.b", "mode": "managed", "type": "a", "name": "b", "change": {"actions": ["create"], '
       '"before": null, "after": %s, "after_unknown": {}, "before_sensitive": false, "after_sensitive": %s}}')
_WHY = "(which of its values counts would be a guess)"


def _plan(top: str = "", after: str = '{"pw": "' + SECRET + '"}', marks: str = '{"pw": true}') -> bytes:
    return ('{"format_version": "1.2", ' + top + '"resource_changes": [' + _RC % (after, marks) + "]}").encode()


# (the plan, the message of a whole parse). A lazy route finds a repeat inside a value it parses on first
# read (a resource change, planned_values, prior_state, configuration, and with msgspec each small member)
# then, with the same message less its line and column: they would count from the start of the value.
PLANS = [
    pytest.param(_plan(top='"errored": true, "errored": false, '),
                 "plan.json: $.errored: expected each key once in its object, found this key repeated at line 1 "
                 f"column 44 (character 43) {_WHY}", False, id="errored-true-then-false"),
    pytest.param(_plan(marks='{"pw": true}, "after_sensitive": {}'),
                 "plan.json: $.resource_changes[0].change.after_sensitive: expected each key once in its object, found "
                 f"this key repeated at line 1 column 292 (character 291) {_WHY}", True, id="a-mark-then-none"),
    pytest.param(_plan(after='{"pw": "' + SECRET + '", "pw": "' + OTHER + '"}'),
                 "plan.json: $.resource_changes[0].change.after.pw: expected each key once in its object, found this "
                 f"key repeated at line 1 column 210 (character 209) {_WHY}", True, id="a-secret-value-twice"),
    pytest.param(_plan(top='"planned_values": {"root_module": {"resources": [{"address": "a.b", "values": {"pw": "'
                       + SECRET + '"}, "values": {}}]}}, '),
                 "plan.json: $.planned_values.root_module.resources[0].values: expected each key once in its object, "
                 f"found this key repeated at line 1 column 145 (character 144) {_WHY}", True, id="planned-values"),
    pytest.param(_plan(top='"prior_state": {"format_version": "1.0", "values": {"outputs": {"o": {"value": 1, '
                       '"sensitive": true, "sensitive": false}}}}, '),
                 "plan.json: $.prior_state.values.outputs.o.sensitive: expected each key once in its object, found "
                 f"this key repeated at line 1 column 128 (character 127) {_WHY}", True, id="prior-state"),
    pytest.param(_plan(top='"configuration": {"root_module": {"variables": {"v": {"sensitive": true}}, "variables": {}}}, '),
                 "plan.json: $.configuration.root_module.variables: expected each key once in its object, found this "
                 f"key repeated at line 1 column 102 (character 101) {_WHY}", True, id="configuration"),
    pytest.param(_plan(top='"output_changes": {"o": {"change": {"actions": ["create"], "after": 1, "after_sensitive": '
                       'true, "after_sensitive": false}}}, '),
                 "plan.json: $.output_changes.o.change.after_sensitive: expected each key once in its object, found "
                 f"this key repeated at line 1 column 123 (character 122) {_WHY}", True, id="output-changes"),
    pytest.param(_plan(after='{"a\\u003a": 1, "a:": 2}'),
                 'plan.json: $.resource_changes[0].change.after["a:"]: expected each key once in its object, found '
                 f"this key repeated at line 1 column 186 (character 185) {_WHY}", True, id="one-key-escaped"),
    pytest.param(b'{"format_version": "1.2", "resource_changes": [], "format_version": "1.2"}',
                 "plan.json: $.format_version: expected each key once in its object, found this key repeated at "
                 f"line 1 column 51 (character 50) {_WHY}", False, id="the-same-value-twice"),
]

_AT = " at line 1 column "


def _without_position(message: str) -> str:
    head, _, tail = message.partition(_AT)
    return head + " " + tail.partition(") ")[2] if tail else message


@pytest.mark.parametrize("route_name", list(ROUTES))
@pytest.mark.parametrize(("data", "message", "may_wait"), PLANS)
def test_every_plan_route_refuses_a_repeated_key(route_name: str, data: bytes, message: str, may_wait: bool) -> None:
    got = load_fully(route_name, data)
    assert isinstance(got, PlanFormatError)
    later = route_name == "fast-lazy" and may_wait
    assert str(got) == (_without_position(message) if later else message)
    assert SECRET not in str(got)
    assert OTHER not in str(got)


@pytest.mark.parametrize("route_name", ["stdlib", "stdlib-parallel", "fast"])
@pytest.mark.parametrize(("data", "message", "may_wait"), PLANS)
def test_the_whole_parse_routes_refuse_at_load(route_name: str, data: bytes, message: str, may_wait: bool) -> None:
    """Only the msgspec split route waits for the first read of a value (as for its schema and numbers)."""
    got = load_by(route_name, data)
    assert isinstance(got, PlanFormatError)
    assert str(got) == message


def test_the_lazy_route_refuses_a_resource_change_when_it_is_first_read() -> None:
    data = _plan(marks='{"pw": true}, "after_sensitive": {}')
    with route("fast-lazy") as parser:
        plan = Plan.from_json(data, source="plan.json", parser=parser)
        with pytest.raises(PlanFormatError, match=r"^plan\.json: \$\.resource_changes\[0\]\.change\.after_sensitive: "):
            plan.resource_change("a.b")
        with pytest.raises(PlanFormatError, match="this key repeated"):
            list(plan.resource_changes)


# -- states: (the state, the message; None: a split state finds it when the value is first read) --

_RESOURCE = ('{"address": "a.b", "mode": "managed", "type": "a", "name": "b", "values": {"pw": "' + SECRET
             + '", "note": "' + "x" * 80 + '"}, "sensitive_values": {"pw": true}%s}')


def _state(resource: str = "", module: str = "", values: str = "", top: str = "") -> bytes:
    return ('{"format_version": "1.0", ' + top + '"values": {' + values + '"root_module": {"resources": ['
            + _RESOURCE % resource + "]" + module + "}}}").encode()


STATES = [
    pytest.param(_state(top='"format_version": "1.0", '),
                 f"$.format_version: expected each key once in its object, found this key repeated at line 1 column 27 (character 26) {_WHY}",
                 False, id="envelope"),
    pytest.param(_state(resource=', "sensitive_values": {}'),
                 "$.values.root_module.resources[0].sensitive_values: expected each key once in its object, found this "
                 f"key repeated at line 1 column 308 (character 307) {_WHY}", False, id="a-mark-then-none"),
    pytest.param(_state(resource=', "new_key": 1, "sensitive_values": {}'),
                 "$.values.root_module.resources[0].sensitive_values: expected each key once in its object, found this "
                 f"key repeated at line 1 column 322 (character 321) {_WHY}", False, id="a-mark-then-none-beside-a-new-key"),
    pytest.param(_state().replace(b'"note"', b'"pw": "' + OTHER.encode() + b'", "note"'),
                 "$.values.root_module.resources[0].values.pw: expected each key once in its object, found this key "
                 f"repeated at line 1 column 181 (character 180) {_WHY}", True, id="in-values"),
    pytest.param(_state(module=', "resources": []'),
                 "$.values.root_module.resources: expected each key once in its object, found this key repeated at "
                 f"line 1 column 310 (character 309) {_WHY}", False, id="module"),
    pytest.param(_state(values='"outputs": {"o": {"value": 1, "sensitive": true, "sensitive": false}}, '),
                 "$.values.outputs.o.sensitive: expected each key once in its object, found this key repeated at "
                 f"line 1 column 87 (character 86) {_WHY}", False, id="outputs"),
]


@pytest.mark.parametrize("route_name", ["stdlib", "fast", pytest.param("fast-lazy", marks=needs_fast)])
@pytest.mark.parametrize(("data", "message", "may_wait"), STATES)
def test_every_state_route_refuses_a_repeated_key(route_name: str, data: bytes, message: str, may_wait: bool) -> None:
    with route(route_name) as parser, pytest.raises(StateFormatError) as caught:
        deep_plain(load_state(data, parser=parser).raw)
    later = route_name == "fast-lazy" and may_wait
    assert str(caught.value) == (_without_position(message) if later else message)
    assert SECRET not in str(caught.value)
    assert OTHER not in str(caught.value)


@pytest.mark.parametrize("parser", ["stdlib", pytest.param("fast", marks=needs_fast)])
def test_query_output_refuses_a_repeated_key_on_its_line(parser: str) -> None:
    with pytest.raises(QueryFormatError) as caught:
        load_query(b'{"type": "version"}\n\n{"type": "log", "type": "list_complete"}\n', parser=parser)
    assert str(caught.value) == f"line 3: $.type: expected each key once in its object, found this key repeated at column 17 {_WHY}"


# -- what is not a repeat still loads, exactly ---------------------------------------------------------

NOT_REPEATS = [
    pytest.param(_plan(after='{"a\\u003a": 1, "b": "x\\u003Ay", "c": {"a:": 2}}'), id="escaped-colons"),
    pytest.param(_plan(after='{"a": {"a": {"a": 1}}, "b": [{"a": 1}, {"a": 2}]}'), id="one-key-in-many-objects"),
    pytest.param(_plan(after='{"x:y": "1:2", "k": "::"}'), id="colons-in-keys-and-strings"),
]


@pytest.mark.parametrize("route_name", list(ROUTES))
@pytest.mark.parametrize("data", NOT_REPEATS)
def test_a_document_without_repeats_loads_as_json_reads_it(route_name: str, data: bytes) -> None:
    got = load_fully(route_name, data)
    assert isinstance(got, Plan), got
    assert exactly_equal(plain(got.raw), json.loads(data, parse_float=Decimal))


def test_a_repeat_deeper_than_the_c_scanner_reaches_is_located() -> None:
    text = "[" * 3000 + '{"k": 1, "k": 2}' + "]" * 3000
    with pytest.raises(PlanFormatError) as caught:
        loads_exact(text, error=PlanFormatError, parser="stdlib")
    assert str(caught.value) == ("$" + "[0]" * 3000 + ".k: expected each key once in its object, found this key "
                                 f"repeated at line 1 column 3010 (character 3009) {_WHY}")


def test_the_helper_process_refuses_a_repeat_inside_a_member() -> None:
    with pytest.raises(ValueError, match="a repeated key"):
        find_members('{"a": {"b": {"c": 1, "c": 2}},', "open")
    with pytest.raises(ValueError, match="a repeated key"):
        find_members('{"a": [{"b": 1, "b": 1}],', "open")


# -- the proof the msgspec routes rest on --------------------------------------------------------------

_KEYS = st.sampled_from(["a", "b", "a:", "a\\u003a", "\\u0061", ":"])
_SCALARS = st.sampled_from(['1', '"x"', '"x:y"', '"\\u003a"', "null", "1.5"])


def _text(depth: int) -> st.SearchStrategy[str]:
    if depth == 0:
        return _SCALARS
    inner = _text(depth - 1)
    members = st.lists(st.tuples(_KEYS, inner), max_size=4).map(lambda ms: "{" + ", ".join(f'"{k}": {v}' for k, v in ms) + "}")
    return st.one_of(_SCALARS, members, st.lists(inner, max_size=3).map(lambda vs: "[" + ", ".join(vs) + "]"))


def _repeats(value: Any) -> bool:
    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        if len({k for k, _ in pairs}) != len(pairs):
            found.append(True)
        return dict(pairs)

    found: list[bool] = []
    json.loads(value, object_pairs_hook=pairs_hook)
    return bool(found)


@needs_fast
@settings(max_examples=400, deadline=None)
@given(_text(3))
def test_property_the_colon_count_never_passes_a_repeat(text: str) -> None:
    import msgspec

    value = msgspec.json.decode(text)
    if repeats_ruled_out(text.encode(), value):
        assert not _repeats(text)
    if not _repeats(text):
        assert exactly_equal(loads_exact(text.encode()), json.loads(text, parse_float=Decimal))
    else:
        with pytest.raises(PlanFormatError, match="this key repeated"):
            loads_exact(text.encode(), error=PlanFormatError)


@needs_fast
@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(_KEYS, _text(2)), max_size=5))
def test_property_the_member_walk_never_passes_a_repeat(members: list[tuple[str, str]]) -> None:
    import msgspec

    from plancheck._loading.split import members_proven_unique

    data = ("{" + ", ".join(f'"{k}": {v}' for k, v in members) + "}").encode()
    top = msgspec.json.decode(data, type=dict[str, msgspec.Raw])
    repeated = len({json.loads(f'"{k}"') for k, _ in members}) != len(members)
    assert members_proven_unique(data, top) is not repeated


@needs_fast
@pytest.mark.parametrize("chunk", [1, 2, 3, 4, 5, 6, 7, 64])
@pytest.mark.parametrize(("text", "proven"), [
    pytest.param('{"a": "x:y", "b": {"c": ":"}}', True, id="colons"),
    pytest.param('{"ab": "\\u003a", "c": 1}', False, id="an-escaped-colon"),
    pytest.param('{"a": 1, "b": 2, "a": 3}', False, id="a-repeat"),
])
def test_a_raw_value_is_counted_in_chunks_without_missing_an_escape(
    chunk: int, text: str, proven: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    import msgspec

    from plancheck._loading import jsontext

    monkeypatch.setattr(jsontext, "_CHUNK", chunk)
    raw = msgspec.json.decode(b"[" + text.encode() + b"]", type=list[msgspec.Raw])[0]
    assert repeats_ruled_out(raw, msgspec.json.decode(raw)) is proven


@needs_fast
@pytest.mark.parametrize("chunk", [1, 2, 256])
@pytest.mark.parametrize("repeat", [False, True], ids=["no-repeat", "a-repeat-in-a-child-module"])
def test_a_split_state_counts_its_modules_in_pieces(chunk: int, repeat: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    from plancheck._loading import split_state

    monkeypatch.setattr(split_state, "_ENCODE_CHUNK", chunk)
    # Three resources (a state listing one object twice is refused: test_loading_state's duplicate rows).
    resources = [json.loads((_RESOURCE % "").replace('"a.b"', f'"a.b{i}"')) for i in range(3)]
    # In Terraform's order (a module's resources, then its address), which both routes list as written.
    child = json.dumps({"resources": resources, "address": "module.m"})
    if repeat:
        child = child.replace('"name": "b"', '"name": "b", "name": "c"', 2)
    data = ('{"format_version": "1.0", "values": {"root_module": {"resources": ' + json.dumps(resources)
            + ', "child_modules": [' + child + "]}}}").encode()
    with route("fast-lazy") as parser:
        if not repeat:
            assert exactly_equal(deep_plain(load_state(data, parser=parser).raw), json.loads(data, parse_float=Decimal))
            return
        with pytest.raises(StateFormatError, match=r"^\$\.values\.root_module\.child_modules\[0\]\.resources\[0\]\.name: "):
            load_state(data, parser=parser)
