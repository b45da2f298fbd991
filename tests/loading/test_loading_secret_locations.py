"""A plan that breaks its schema inside a marks or unknown tree names no key of a sensitive map in its error.

A location inside a change's tree names keys of its values; where any of the change's marks trees (the
other side's too) marks the map holding a key, that key is a secret, and the location shows it as
``(sensitive)``. A key no mark covers (an attribute name, a map no side marks) is shown as it is, so the
error still says where. Every route and validation mode gives the same error (the whole document, an
entry read alone by the lazy route, the full JSON Schema validator).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from loading_support import ROUTES, deep_plain, dumps, load_by, load_fully, route

from plancheck import Plan
from plancheck._documents.state import State
from plancheck._errors import PlanFormatError, StateFormatError
from plancheck._loading.location import hidden_from

KEY = "zzmap-key-7c3e"  # a key of a map the change marks sensitive
MARKS = "a marks tree (true, false, or an object or array of marks trees)"


def _plan(change: dict[str, Any], **more: Any) -> bytes:
    return dumps({"format_version": "1.2", "resource_changes": [
        {"address": "null_resource.a", "mode": "managed", "type": "null_resource", "name": "a",
         "change": {"actions": ["update"], "before": {"tags": {KEY: "v"}, "ok": {"k": "v"}},
                    "after": {"tags": {KEY: "w"}, "ok": {"k": "w"}}, **change}}], **more})


ROWS = {
    "an unknown tree's key of a map the other side marks": (
        {"before_sensitive": {"tags": True}, "after_unknown": {"tags": {KEY: 5}}},
        '$.resource_changes[0].change.after_unknown.tags["(sensitive)"]: expected ' + MARKS + ", found a number"),
    "a marks tree's key of a map the other side marks": (
        {"before_sensitive": {"tags": True}, "after_sensitive": {"tags": {KEY: "x"}}},
        '$.resource_changes[0].change.after_sensitive.tags["(sensitive)"]: expected ' + MARKS + ", found a string"),
    "a key below a marked map's key": (
        {"after_sensitive": {"tags": True}, "before_sensitive": {"tags": {KEY: [1]}}},
        '$.resource_changes[0].change.before_sensitive.tags["(sensitive)"][0]: expected ' + MARKS
        + ", found a number"),
    # Not over-hidden: a map no side marks, and the attribute names on the way, say where.
    "a key of a map no side marks": (
        {"before_sensitive": {"tags": True}, "after_unknown": {"ok": {"k": 5}}},
        "$.resource_changes[0].change.after_unknown.ok.k: expected " + MARKS + ", found a number"),
}


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("validation", ["fast", "full"])
@pytest.mark.parametrize(("change", "message"), ROWS.values(), ids=ROWS.keys())
def test_a_location_inside_a_tree_hides_the_keys_of_a_marked_map(
        change: dict[str, Any], message: str, route: str, validation: str) -> None:
    found = load_by(route, _plan(change), validation)
    if isinstance(found, Plan):  # the lazy route validates an entry when it is first read
        with pytest.raises(PlanFormatError) as info:
            found.resource_change("null_resource.a")
        found = info.value
    assert str(found) == f"plan.json: {message}"


#: A text broken inside a value (a repeated key, a number no Decimal holds): its location's keys are shown only where
#: the value, read again leniently, marks no map on the way; the rest of the message never shows a value.
HUGE = "1e999999999999999999999"
BROKEN = {
    "a repeated key of a marked map": (
        f'"after": {{"tags": {{"{KEY}": "w", "{KEY}": "x"}}}}, "after_sensitive": {{"tags": true}}',
        '$.resource_changes[0].change.after.tags["(sensitive)"]: expected each key once in its object'),
    "a number beyond Decimal under a marked map's key": (
        f'"after": {{"tags": {{"{KEY}": [{HUGE}]}}}}, "before_sensitive": {{"tags": true}}',
        '$.resource_changes[0].change.after.tags["(sensitive)"][0]: expected a number that Python'),
    "a repeated key of a sensitive output's value": (
        f'"after": {{"{KEY}": 1, "{KEY}": 2}}, "after_sensitive": true',
        '$.output_changes.o.after["(sensitive)"]: expected each key once in its object'),
    # Not over-hidden: a map no mark covers says where.
    "a repeated key of a map no side marks": (
        '"after": {"ok": {"k": 1, "k": 2}}, "before_sensitive": {"tags": true}',
        "$.resource_changes[0].change.after.ok.k: expected each key once in its object"),
}


def _broken_plan(change: str, output: bool) -> bytes:
    entry = '{"actions": ["create"], ' + change + "}"
    if output:
        return ('{"format_version": "1.2", "output_changes": {"o": ' + entry + "}}").encode()
    return ('{"format_version": "1.2", "resource_changes": [{"address": "null_resource.a", "mode": "managed", '
            '"type": "null_resource", "name": "a", "change": ' + entry + "}]}").encode()


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize(("change", "message"), BROKEN.values(), ids=BROKEN.keys())
def test_a_location_in_a_broken_value_hides_the_keys_of_a_marked_map(change: str, message: str, route: str) -> None:
    found = load_by(route, _broken_plan(change, "output" in message))
    if isinstance(found, Plan):  # the lazy route reads an entry when it is first read
        with pytest.raises(PlanFormatError) as info:
            found.resource_change("null_resource.a")
        found = info.value
    assert isinstance(found, PlanFormatError)
    assert str(found).startswith(f"plan.json: {message}"), str(found)
    assert KEY not in str(found)


OTHER_HOLDERS = {
    "a sensitive variable's value": (
        f'{{"format_version": "1.2", "variables": {{"pw": {{"value": {{"{KEY}": 1, "{KEY}": 2}}}}}}, '
        '"configuration": {"root_module": {"variables": {"pw": {"sensitive": true}}}}}',
        '$.variables.pw.value["(sensitive)"]: expected each key once'),
    "a sensitive variable's default": (
        f'{{"format_version": "1.2", "configuration": {{"root_module": {{"variables": {{"pw": {{"sensitive": true, '
        f'"default": {{"{KEY}": 1, "{KEY}": 2}}}}}}}}}}}}',
        '$.configuration.root_module.variables.pw.default["(sensitive)"]: expected each key once'),
    "a sensitive output of the prior state": (
        f'{{"format_version": "1.2", "prior_state": {{"format_version": "1.0", "values": {{"outputs": {{"o": '
        f'{{"sensitive": true, "value": {{"{KEY}": 1, "{KEY}": 2}}}}}}}}}}}}',
        '$.prior_state.values.outputs.o.value["(sensitive)"]: expected each key once'),
    # Not over-hidden: a variable its configuration does not mark.
    "a variable no configuration marks": (
        '{"format_version": "1.2", "variables": {"region": {"value": {"k": 1, "k": 2}}}}',
        "$.variables.region.value.k: expected each key once"),
}


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize(("text", "message"), OTHER_HOLDERS.values(), ids=OTHER_HOLDERS.keys())
def test_a_location_in_another_sensitive_value_hides_its_keys(text: str, message: str, route: str) -> None:
    """Every route's location is the eager route's: the lazy route, which parses the variables alone, asks the whole
    plan, read again, whether the configuration marks one (before, it hid every key of each variable's value)."""
    found = load_fully(route, text.encode())
    assert isinstance(found, PlanFormatError)
    assert str(found).startswith(f"plan.json: {message}"), str(found)


@pytest.mark.parametrize(("marks", "shown"), [("{\"tags\": true}", '["(sensitive)"]'), ("{}", f'["{KEY}"]')],
                         ids=["a map its sensitive_values mark", "a map no mark covers"])
def test_a_state_resources_broken_value_hides_the_keys_of_a_marked_map(marks: str, shown: str) -> None:
    text = ('{"format_version": "1.0", "values": {"root_module": {"resources": [{"address": "a.b", "mode": "managed", '
            f'"type": "a", "name": "b", "values": {{"tags": {{"{KEY}": 1, "{KEY}": 2}}}}, "sensitive_values": {marks}}}]}}}}}}')
    with pytest.raises(StateFormatError) as info:
        State.from_json(text)
    assert str(info.value).startswith(f"$.values.root_module.resources[0].values.tags{shown}: expected each key once")


#: A value broken twice (a repeated key, then the text cut short further on) cannot be read again for its marks:
#: every key inside a holder's value is hidden, but the way to the holder (a state's own "values" included) says where.
BROKEN_TWICE = {
    "a prior state's output": (
        '"prior_state": {"format_version": "1.0", "values": {"outputs": {"region": {"sensitive": false, '
        '"value": {"k": 1, "k": 2}}}}}',
        '$.prior_state.values.outputs.region.value["(sensitive)"]: expected each key once'),
    "a prior state's resource": (
        '"prior_state": {"format_version": "1.0", "values": {"root_module": {"resources": [{"address": "a.b", '
        '"mode": "managed", "type": "a", "name": "b", "values": {"tags": {"k": 1, "k": 2}}, "sensitive_values": {}}]}}}',
        '$.prior_state.values.root_module.resources[0].values["(sensitive)"]["(sensitive)"]: expected each key once'),
}


@pytest.mark.parametrize("route", ["stdlib", "fast"])
@pytest.mark.parametrize(("member", "message"), BROKEN_TWICE.values(), ids=BROKEN_TWICE.keys())
def test_a_value_broken_twice_hides_the_keys_inside_it_only(member: str, message: str, route: str) -> None:
    found = load_by(route, ('{"format_version": "1.2", ' + member + ', "cut": [1,').encode())
    assert isinstance(found, PlanFormatError)
    assert str(found).startswith(f"plan.json: {message}"), str(found)


class _Unwalkable(dict[str, Any]):
    """A document whose members cannot be asked for (as no loaded document is): the walk must not raise."""

    def __contains__(self, key: object) -> bool:
        raise RuntimeError("no walk foresaw this")


@pytest.mark.parametrize(("path", "hidden"), [
    (("resource_changes", 0, "change", "after", "tags", "k"), 4),
    (("planned_values", "root_module", "resources", 0, "values", "tags", "k"), 5),
    (("planned_values", "root_module", "resources", 0, "address"), None),
], ids=["a change's side", "a resource's values", "no value on the way"])
def test_a_walk_that_raises_hides_every_key_inside_a_value(path: tuple[str | int, ...], hidden: int | None) -> None:
    assert hidden_from(path, _Unwalkable(resource_changes=[])) == hidden


#: A sensitive variable's value, spelt by a key of a marks or unknown tree that no mark covers elsewhere.
SECRET = "zzvar-secret-4d1f"
_CHANGE = {"actions": ["update"], "before": {"tags": {}}, "after": {"tags": {SECRET: "v"}}}
_RESOURCE = {"address": "null_resource.a", "mode": "managed", "type": "null_resource", "name": "a"}


def _with_secret(**members: Any) -> dict[str, Any]:
    return {"format_version": "1.2", "variables": {"pw": {"value": SECRET}},
            "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}}, **members}


SPELT = {
    "a resource change's marks tree": (
        {"resource_changes": [{**_RESOURCE, "change": {**_CHANGE, "after_sensitive": {"tags": {SECRET: "x"}}}}]},
        '$.resource_changes[0].change.after_sensitive.tags["(sensitive)"]: expected ' + MARKS + ", found a string"),
    "a drifted resource's unknown tree": (
        {"resource_drift": [{**_RESOURCE, "change": {**_CHANGE, "after_unknown": {"tags": {SECRET: 5}}}}]},
        '$.resource_drift[0].change.after_unknown.tags["(sensitive)"]: expected ' + MARKS + ", found a number"),
    "an action invocation's marks tree": (
        {"action_invocations": [{"address": "action.x.y", "type": "x", "name": "y", "provider_name": "p",
                                 "config_values": {"token": {SECRET: 1}}, "config_sensitive": {"token": {SECRET: "no"}}}]},
        '$.action_invocations[0].config_sensitive.token["(sensitive)"]: expected ' + MARKS + ", found a string"),
    "a planned resource's marks tree": (
        {"planned_values": {"root_module": {"resources": [{**_RESOURCE, "provider_name": "p", "schema_version": 0,
                                                           "values": {"tags": {SECRET: "v"}},
                                                           "sensitive_values": {"tags": {SECRET: 3}}}]}}},
        '$.planned_values.root_module.resources[0].sensitive_values.tags["(sensitive)"]: expected ' + MARKS
        + ", found a number"),
    # Not over-hidden: a key that spells no secret says where.
    "a key that spells no secret": (
        {"resource_changes": [{**_RESOURCE, "change": {**_CHANGE, "after_sensitive": {"tags": {"plain": "x"}}}}]},
        '$.resource_changes[0].change.after_sensitive.tags.plain: expected ' + MARKS + ", found a string"),
}


@pytest.mark.parametrize("route", [*ROUTES, "Plan(raw)"])
@pytest.mark.parametrize("validation", ["fast", "full"])
@pytest.mark.parametrize(("members", "message"), SPELT.values(), ids=SPELT.keys())
def test_a_location_key_spelling_a_secret_of_the_document_is_hidden(
        members: dict[str, Any], message: str, route: str, validation: str) -> None:
    """The one rule: a string equal to a secret of the document is one wherever it stands, a location's key too.
    Before, a key of a tree that no mark covers, spelling a sensitive variable's value, showed in the location; the
    lazy route's tree validated when first read after loading (an entry, a member) asks the whole plan, read again."""
    document = _with_secret(**members)
    if route == "Plan(raw)":
        with pytest.raises(PlanFormatError) as info:
            Plan(document)
        found: Any = info.value
    else:
        found = load_fully(route, dumps(document), validation)
    assert isinstance(found, PlanFormatError), found
    assert str(found).removeprefix("plan.json: ") == message
    if "plain" not in message:
        assert SECRET not in str(found) + repr(found)


def test_a_state_location_key_spelling_a_sensitive_output_is_hidden() -> None:
    state = {"format_version": "1.0", "values": {"outputs": {"pw": {"sensitive": True, "value": SECRET}}, "root_module": {
        "resources": [{"address": "a.b", "mode": "managed", "type": "a", "name": "b", "schema_version": 0,
                       "values": {"tags": {SECRET: "v"}}, "sensitive_values": {"tags": {SECRET: "x"}}}]}}}
    for make in (State, State.from_dict, lambda d: State.from_json(json.dumps(d))):
        with pytest.raises(StateFormatError) as info:
            make(state)
        assert str(info.value) == (
            '$.values.root_module.resources[0].sensitive_values.tags["(sensitive)"]: expected ' + MARKS + ", found a string")


def _state_spelling(outputs: bool, unsound: bool) -> dict[str, Any]:
    """A state whose resource ``a.b``'s marks tree has a key that spells a secret of another part of the state: a
    sensitive output's value, or a value another resource marks; ``unsound``, the key's resource is no sound
    skeleton too (a schema version that is no number, listed after its marks), for the split route to parse it
    whole when it loads (the marks tree's problem comes first in the document)."""
    marked = {"address": "a.m", "mode": "managed", "type": "a", "name": "m", "schema_version": 0,
              "values": {"pw": SECRET, "pad": "x" * 100}, "sensitive_values": {"pw": True}}
    broken = {"address": "a.b", "mode": "managed", "type": "a", "name": "b", "schema_version": 0,
              "values": {"tags": {SECRET: "v"}, "pad": "x" * 100}, "sensitive_values": {"tags": {SECRET: "x"}}}
    if unsound:
        del broken["schema_version"]
        broken["schema_version"] = "zero"
    values: dict[str, Any] = {"root_module": {"resources": [broken] if outputs else [marked, broken]}}
    if outputs:
        values["outputs"] = {"pw": {"sensitive": True, "value": SECRET}}
    return {"format_version": "1.0", "values": values}


#: A state's resource's marks tree, read by every route, a key spelling a secret of the state elsewhere.
STATE_SPELT = {
    "a sensitive output's value, read after loading": (True, False),
    "a value another resource marks, read after loading": (False, False),
    "a sensitive output's value, at load": (True, True),
    "a value another resource marks, at load": (False, True),
}


def _read_whole(data: bytes, parser: str) -> None:
    """Load a state and read every value of it (the split route parses a resource's values when first read)."""
    deep_plain(State.from_json(data, source="state.json", parser=parser).raw)


@pytest.mark.parametrize("route_name", ["fast", "fast-lazy"])
@pytest.mark.parametrize(("outputs", "unsound"), STATE_SPELT.values(), ids=STATE_SPELT.keys())
def test_a_state_location_key_spelling_a_secret_elsewhere_is_hidden_on_every_route(
        outputs: bool, unsound: bool, route_name: str) -> None:
    """The split state route parses a resource's marks tree when first read (after loading), or a resource that is
    no sound skeleton at load: its error hides what the state's error, parsed whole, hides."""
    index = 0 if outputs else 1
    with route(route_name) as parser, pytest.raises(StateFormatError) as info:
        _read_whole(dumps(_state_spelling(outputs, unsound)), parser)
    assert str(info.value) == (f'state.json: $.values.root_module.resources[{index}].sensitive_values.tags["(sensitive)"]: '
                               f"expected {MARKS}, found a string")
    assert SECRET not in str(info.value) + repr(info.value)


def test_a_plan_member_the_parallel_route_reads_later_hides_a_key_spelling_a_secret() -> None:
    """The helper-process route (the standard library's) parses a large member when first read, as the msgspec
    route does: its error hides the keys that spell a secret of the plan it was cut from."""
    resource = {**_RESOURCE, "provider_name": "p", "schema_version": 0, "values": {"tags": {SECRET: "v"}, "pad": "x" * 5000},
                "sensitive_values": {"tags": {SECRET: 3}}}
    change = {**_RESOURCE, "change": {**_CHANGE, "after_sensitive": {}}}  # the route splits at resource_changes
    plan = _with_secret(planned_values={"root_module": {"resources": [resource]}}, resource_changes=[change])
    found = load_fully("stdlib-parallel", dumps(plan))
    assert isinstance(found, PlanFormatError), found
    assert str(found) == ('plan.json: $.planned_values.root_module.resources[0].sensitive_values.tags["(sensitive)"]: '
                          f"expected {MARKS}, found a number")


#: A text broken inside a value, at a key no mark covers that spells a sensitive variable's value: the one rule asked
#: of a schema error's location is asked of this one too, on every route (the lazy ones read the whole plan again).
BROKEN_SPELT = {
    "a repeated key": (
        '{"' + SECRET + '": 1, "' + SECRET + '": 2}',
        '$.resource_changes[0].change.after.tags["(sensitive)"]: expected each key once'),
    "a number beyond Decimal": (
        '{"' + SECRET + '": [' + HUGE + ']}',
        '$.resource_changes[0].change.after.tags["(sensitive)"][0]: expected a number that Python'),
    # Not over-hidden: a key that spells no secret says where.
    "a repeated key that spells no secret": (
        '{"plain": 1, "plain": 2}', "$.resource_changes[0].change.after.tags.plain: expected each key once"),
}


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize(("tags", "message"), BROKEN_SPELT.values(), ids=BROKEN_SPELT.keys())
def test_a_broken_values_key_spelling_a_secret_of_the_document_is_hidden(tags: str, message: str, route: str) -> None:
    change = '{"actions": ["create"], "after": {"tags": ' + tags + "}}"
    text = dumps(_with_secret(resource_changes=[{**_RESOURCE, "change": {}}])).replace(b'"change":{}', b'"change":' + change.encode())
    found = load_by(route, text)
    if isinstance(found, Plan):  # the lazy route reads an entry when it is first read
        with pytest.raises(PlanFormatError) as info:
            found.resource_change("null_resource.a")
        found = info.value
    assert isinstance(found, PlanFormatError), found
    assert str(found).startswith(f"plan.json: {message}"), str(found)
    assert SECRET not in str(found) + repr(found)


def _spelt_twice(key: str) -> bytes:
    """A plan whose planned resource's values repeat ``key`` (a member the lazy routes parse when first read, padded
    for the helper-process route to leave it unparsed at load)."""
    resource = {**_RESOURCE, "provider_name": "p", "schema_version": 0, "values": {"tags": {}, "pad": "x" * 5000},
                "sensitive_values": {}}
    change = {**_RESOURCE, "change": {**_CHANGE, "after_sensitive": {}}}  # the helper route splits at resource_changes
    text = dumps(_with_secret(planned_values={"root_module": {"resources": [resource]}}, resource_changes=[change]))
    return text.replace(b'"tags":{},', ('"tags":{"' + key + '":1,"' + key + '":2},').encode(), 1)


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize(("key", "shown"), [(SECRET, '["(sensitive)"]'), ("plain", ".plain")],
                         ids=["a key spelling a secret", "a key that spells no secret"])
def test_a_member_read_later_with_a_repeated_key_hides_a_key_spelling_a_secret(key: str, shown: str, route: str) -> None:
    """A member parsed when first read (after loading) is located in the whole plan, read again leniently."""
    found = load_fully(route, _spelt_twice(key))
    assert isinstance(found, PlanFormatError), found
    assert str(found).startswith(f"plan.json: $.planned_values.root_module.resources[0].values.tags{shown}: expected each "
                                 "key once"), str(found)
    assert SECRET not in str(found) + repr(found)


@pytest.mark.parametrize("route_name", ["fast", "fast-lazy"])
def test_a_state_value_read_later_with_a_repeated_key_hides_a_key_spelling_a_secret(route_name: str) -> None:
    """The split state route parses a resource's values when first read: its location hides what the state's, parsed
    whole, hides (a key spelling a sensitive output's value)."""
    state = _state_spelling(outputs=True, unsound=False)
    state["values"]["root_module"]["resources"][0]["sensitive_values"] = {}
    text = dumps(state).replace(('{"' + SECRET + '":"v"}').encode(), ('{"' + SECRET + '":1,"' + SECRET + '":2}').encode())
    with route(route_name) as parser, pytest.raises(StateFormatError) as info:
        _read_whole(text, parser)
    assert str(info.value).startswith('state.json: $.values.root_module.resources[0].values.tags["(sensitive)"]: expected '
                                      "each key once"), str(info.value)
    assert SECRET not in str(info.value) + repr(info.value)
