"""Large states take the split route: resources' values are parsed on first read, and read back exactly."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from corpus_cases import corpus_cases
from hypothesis import given, settings
from hypothesis import strategies as st
from loading_support import CORPUS, corpus_files, deep_plain, exactly_equal, needs_fast, route

import plancheck._loading.load as load_module
from plancheck._documents.state import State, load_state
from plancheck._errors import StateFormatError
from plancheck._loading.lazy import LazyObject
from plancheck._loading.split_state import MODULE_DEPTH

pytestmark = needs_fast


def _resource(address: str, **extra: Any) -> dict[str, Any]:
    return {"address": address, "mode": "managed", "type": "null_resource", "name": "r", **extra}


def _state(root: dict[str, Any], **top: Any) -> bytes:
    return json.dumps({"format_version": "1.0", "values": {"root_module": root}, **top}).encode()


def _both(data: bytes) -> tuple[State | StateFormatError, State | StateFormatError]:
    """What the split route and a full parse make of ``data``."""
    results: list[State | StateFormatError] = []
    for name in ("fast-lazy", "fast"):
        with route(name) as parser:
            try:
                results.append(load_state(data, parser=parser))
            except StateFormatError as exc:
                results.append(exc)
    return results[0], results[1]


LONG = {"id": "1", "note": "x" * 100, "tags": {"a": "b"}}


def test_values_are_parsed_on_first_read_and_then_kept() -> None:
    data = _state({"resources": [_resource("null_resource.a", values=LONG, sensitive_values={"tags": {}})]})
    split, full = _both(data)
    assert isinstance(split, State)
    assert isinstance(full, State)
    raw = split.resource("null_resource.a").raw
    assert isinstance(raw, LazyObject)
    assert [raw.is_parsed(k) for k in ("address", "values", "sensitive_values")] == [True, False, False]
    assert split.resource("null_resource.a").values == LONG
    assert raw.is_parsed("values")
    assert raw["values"] is raw["values"]
    assert exactly_equal(deep_plain(split.raw), deep_plain(full.raw))


# Each resource lists its keys in Terraform's order, as a state Terraform writes does: both routes list them so.
@pytest.mark.parametrize(
    ("root", "extra"),
    [
        pytest.param({"resources": [_resource("a.b", values=LONG, future_key=[1, 2])]}, {}, id="unknown-resource-key"),
        pytest.param({"resources": [], "future": True}, {}, id="unknown-module-key"),
        pytest.param({"resources": [_resource("a.b", values=LONG)]}, {"checks": [{"x": 1}]}, id="top-level-checks"),
        pytest.param({"resources": [_resource("a.b", index=3, values=None, depends_on=["x.y"], tainted=True)]}, {},
                     id="null-values-and-flags"),
        pytest.param({"resources": [_resource("a.b", values={"n": 12345678901234567890123, "f": 1.5})]}, {},
                     id="exact-numbers"),
        pytest.param({"resources": [_resource("a.b", identity_schema_version=0, identity={"id": "i-1" * 30})]}, {},
                     id="identity"),
    ],
)
def test_the_split_route_reads_back_what_a_full_parse_reads(root: dict[str, Any], extra: dict[str, Any]) -> None:
    split, full = _both(_state(root, **extra))
    assert isinstance(split, State)
    assert isinstance(full, State)
    assert exactly_equal(deep_plain(split.raw), deep_plain(full.raw))
    assert [r.address for r in split.resources] == [r.address for r in full.resources]


def test_modules_deeper_than_the_one_scan_route_load_all_the_same() -> None:
    module: dict[str, Any] = {"resources": [_resource("a.b", values=LONG)]}
    for depth in range(MODULE_DEPTH + 3, 0, -1):
        module = {"address": "module.m" * depth, "child_modules": [module]}
    split, full = _both(_state(module))
    assert isinstance(split, State)
    assert isinstance(full, State)
    assert [r.address for r in split.resources] == [r.address for r in full.resources] == ["a.b"]
    assert exactly_equal(deep_plain(split.raw), deep_plain(full.raw))


@pytest.mark.parametrize(
    ("root", "message"),
    [
        pytest.param({"resources": [{"mode": "managed"}]},
                     '$.values.root_module.resources[0].address: expected a resource address string, found no "address" key',
                     id="no-address"),
        pytest.param({"resources": [_resource("a.b"), _resource("a.c", index=1.5)]},
                     "$.values.root_module.resources[1].index: expected an instance key (an integer or a string), found a number",
                     id="bad-index"),
        pytest.param({"child_modules": [{"address": 7}]},
                     "$.values.root_module.child_modules[0].address: expected a module address string, found a number",
                     id="bad-module-address"),
        pytest.param({"resources": {}}, "$.values.root_module.resources: expected an array of resources, found an object with 0 keys",
                     id="resources-not-array"),
    ],
)
def test_skeleton_problems_are_found_at_load_time_with_the_same_message(root: dict[str, Any], message: str) -> None:
    split, full = _both(_state(root))
    assert isinstance(split, StateFormatError)
    assert isinstance(full, StateFormatError)
    assert str(split) == str(full) == message


def test_a_bad_marks_tree_is_found_when_first_read_at_its_location() -> None:
    # As for a large plan's marks trees: checking it at load time would mean building it at load time.
    marks = {"tags": {"a": "yes"}, "padding": [False] * 40}
    data = _state({"child_modules": [{"address": "module.m", "resources": [_resource("module.m.a.b", values=LONG, sensitive_values=marks)]}]})
    split, full = _both(data)
    message = (
        '$.values.root_module.child_modules[0].resources[0].sensitive_values.tags.a: '
        'expected a marks tree (true, false, or an object or array of marks trees), found a string'
    )
    assert isinstance(full, StateFormatError)
    assert str(full) == message
    assert isinstance(split, State)
    with pytest.raises(StateFormatError) as caught:
        _ = split.resource("module.m.a.b").sensitive_values
    assert str(caught.value) == message


@pytest.mark.parametrize("extra", [{}, {"zz_member": 1}], ids=["as Terraform writes it", "a member Terraform does not write"])
def test_a_bad_marks_tree_too_short_to_leave_unparsed_is_found_at_load(extra: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """A short marks tree is parsed when the state loads, and checked then: a resource with a member Terraform does not
    write (read member by member, not in one scan) had it parsed unchecked, and a state the full parse refuses loaded."""
    monkeypatch.setattr(load_module, "LAZY_STATE_MIN_BYTES", 0)  # the split route, values left unparsed at their size
    data = _state({"resources": [_resource("a.b", values=LONG, sensitive_values={"tags": {"a": "yes"}}, **extra)]})
    with pytest.raises(StateFormatError) as caught:
        load_state(data, parser="fast")
    assert str(caught.value) == (
        "$.values.root_module.resources[0].sensitive_values.tags.a: "
        "expected a marks tree (true, false, or an object or array of marks trees), found a string"
    )


def test_a_bad_number_outside_resource_values_is_located_by_line_and_column() -> None:
    data = b'{"format_version": "1.0", "y": {"n": 1e1000000000000000000}, "values": {}}'
    split, full = _both(data)
    assert isinstance(split, StateFormatError)
    assert str(split) == str(full)
    assert "at line 1 column 38" in str(split)


_json_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8),
                       st.decimals(allow_nan=False, allow_infinity=False, places=3))
_json = st.recursive(_json_leaf, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                     max_leaves=10)


@st.composite
def _modules(draw: st.DrawFn, depth: int = 0, address: str = "") -> dict[str, Any]:
    """A module tree whose objects are each listed once (a state listing one twice is refused:
    test_loading_state's test_an_object_listed_twice_is_refused): sibling modules and resources differ. Its keys
    are in Terraform's order (resources, address, child_modules), which both routes list as they are."""
    module: dict[str, Any] = {}
    resources = draw(st.lists(st.builds(lambda i, v, s: _resource(f"a.r{i}", values=v, sensitive_values=s),
                                        st.integers(0, 99), _json, st.sampled_from([False, True, {}, {"x": True}])),
                              max_size=3, unique_by=lambda r: r["address"]))
    if resources:
        module["resources"] = resources
    if depth:
        module["address"] = address
    if depth < 3 and draw(st.booleans()):
        module["child_modules"] = [draw(_modules(depth + 1, f"{address}{'.' if address else ''}module.m{k}"))
                                   for k in range(draw(st.integers(1, 2)))]
    return module


@settings(max_examples=60, deadline=None)
@given(_modules())
def test_property_any_state_reads_back_the_same_by_both_routes(root: dict[str, Any]) -> None:
    data = json.dumps({"format_version": "1.0", "values": {"root_module": root}}, default=str).encode()
    split, full = _both(data)
    assert isinstance(split, State)
    assert isinstance(full, State)
    reference = json.loads(data, parse_float=Decimal)
    assert exactly_equal(deep_plain(split.raw), reference)
    assert [(r.address, r.deposed) for r in split.resources] == [(r.address, r.deposed) for r in full.resources]


def test_an_object_listed_twice_is_refused_on_the_split_route_too() -> None:
    data = _state({"resources": [{"address": "null_resource.a", "values": LONG}] * 2})
    split, whole = _both(data)
    assert isinstance(split, StateFormatError)
    assert str(split) == str(whole) == ('$.values.root_module.resources[1].address: expected an address not given before, '
                                        'found "null_resource.a" again (first at $.values.root_module.resources[0])')


def _text(state: State) -> str:
    """The state's JSON text, its keys in the order the document lists them (a number as its exact text)."""
    return json.dumps(deep_plain(state.raw), default=str)


#: A state as Terraform writes one (internal/command/jsonstate): each resource's keys in its struct's order (index
#: before values), a module's resources before its address, child modules after both.
_TERRAFORM_WRITTEN = {"format_version": "1.0", "terraform_version": "1.11.4", "values": {
    "outputs": {"o": {"sensitive": False, "value": "v", "type": "string"}},
    "root_module": {
        "resources": [_resource('null_resource.r["k"]', index="k", provider_name="null", schema_version=0, values=LONG,
                                sensitive_values={}, depends_on=["null_resource.s"]),
                      _resource("null_resource.s", provider_name="null", schema_version=0, values=LONG, tainted=True)],
        "child_modules": [{"resources": [_resource("module.m.null_resource.r[0]", index=0, provider_name="null",
                                                   schema_version=0, values=LONG, sensitive_values={})],
                           "address": "module.m",
                           "child_modules": [{"resources": [_resource("module.m.module.n.null_resource.r",
                                                                      provider_name="null", values=LONG)],
                                              "address": "module.m.module.n"}]}]}}}


@pytest.mark.parametrize("path", [*corpus_cases(corpus_files("states"), CORPUS / "states", lambda p: p.stem),
                                  pytest.param("terraform-written", id="hand-written-in-terraforms-order")])
def test_both_routes_write_a_state_as_the_same_json_text(path: Any) -> None:
    """Equal, and listing each object's keys alike: a child module's address came before its resources on the
    split route, after them as Terraform writes them (and the full parse reads them)."""
    data = path.read_bytes() if path != "terraform-written" else json.dumps(_TERRAFORM_WRITTEN).encode()
    split, full = _both(data)
    assert isinstance(split, State)
    assert isinstance(full, State)
    assert type(split.raw) is not dict  # the split route was taken (a LazyObject)
    assert _text(split) == _text(full)
