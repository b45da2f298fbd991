"""Load once, index once: lookups by address, deposed objects, duplicates, and lazy parsing."""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from functools import partial
from typing import Any

import pytest
from loading_support import ROUTES, dumps, exactly_equal, generated_plan, plain, route

from plancheck._documents.plan import Plan, ResourceNotFoundError
from plancheck._loading.collector import collector_off
from plancheck._loading.lazy import LazyEntries, LazyObject, Thunk


def _rc(address: str, n: int, **extra: Any) -> dict[str, Any]:
    return {"address": address, "change": {"actions": ["create"], "after": {"n": n}}, **extra}


PLAN = dumps(
    {
        "format_version": "1.2",
        "resource_changes": [
            _rc("null_resource.a", 1),
            _rc("null_resource.a", 3, deposed="0001"),  # one address, two objects (a duplicate is refused:
            _rc('module.m["x"].null_resource.b[0]', 5),  # test_loading_errors' address-twice rows)
        ],
    }
)


@pytest.mark.parametrize("route_name", list(ROUTES))
def test_lookups_by_address(route_name: str) -> None:
    with route(route_name) as parser:
        plan = Plan.from_json(PLAN, parser=parser)
    assert plan.resource_change("null_resource.a").change.after == {"n": 1}
    assert plan.resource_change("null_resource.a", deposed="0001").change.after == {"n": 3}
    assert plan.resource_change('module.m["x"].null_resource.b[0]').change.after == {"n": 5}
    assert list(plan.addresses()) == ["null_resource.a", 'module.m["x"].null_resource.b[0]']
    assert plan.has_resource_change("null_resource.a", deposed="0001")
    assert [rc.change.after["n"] for rc in plan.resource_changes] == [1, 3, 5]
    with pytest.raises(ResourceNotFoundError, match=r"closest: null_resource\.a"):
        plan.resource_change("null_resource.b")
    with pytest.raises(ResourceNotFoundError, match=r"deposed objects \(key '0002'\)"):
        plan.resource_change("null_resource.a", deposed="0002")


def test_a_lookup_parses_only_the_entry_it_returns() -> None:
    data = generated_plan(50, 1)
    with route("fast-lazy") as parser:
        plan = Plan.from_json(data, parser=parser)
    assert isinstance(plan.raw, LazyObject)
    entries = plan._entries
    assert isinstance(entries, LazyEntries)
    address = list(plan.addresses())[17]
    assert repr(entries) == "<LazyEntries 50 entries, 0 parsed>"
    first = plan.resource_change(address)
    again = plan.resource_change(address)
    assert first.raw is again.raw
    assert repr(entries) == "<LazyEntries 50 entries, 1 parsed>"
    assert not plan.raw.is_parsed("planned_values")
    assert not plan.raw.is_parsed("prior_state")
    # Reading the whole list shares the entries parsed already.
    assert plan.raw["resource_changes"][17] is first.raw


@pytest.mark.parametrize("route_name", ["stdlib-parallel", "fast-lazy"])
def test_the_lazy_document_equals_the_whole_parse(route_name: str) -> None:
    data = generated_plan(50, 2)
    reference = Plan.from_json(data, parser="stdlib").raw
    with route(route_name) as parser:
        lazy = Plan.from_json(data, parser=parser).raw
    assert isinstance(lazy, LazyObject)
    assert lazy == reference
    assert reference == lazy
    assert exactly_equal(plain(lazy), reference)
    assert lazy != {"format_version": "1.2"}
    assert "planned_values" in lazy
    assert len(lazy) == len(reference)


def test_lazy_object_behaviour() -> None:
    loads: list[str] = []

    def load() -> Any:
        loads.append("b")
        return {"c": 2}

    doc = LazyObject({"a": 1, "b": Thunk("object", load), "e": LazyEntries(2, lambda i: i * 10)})
    assert repr(doc) == "<LazyObject {'a': parsed, 'b': not parsed, 'e': not parsed}>"
    assert list(doc) == ["a", "b", "e"]
    assert isinstance(doc.peek("b"), Thunk)
    assert loads == []
    assert doc["b"] == {"c": 2}
    assert doc["b"] is doc["b"]
    assert loads == ["b"]
    assert doc["e"] == [0, 10]
    assert type(doc["e"]) is list
    assert doc == {"a": 1, "b": {"c": 2}, "e": [0, 10]}
    assert doc.__eq__(5) is NotImplemented
    with pytest.raises(TypeError):
        hash(doc)


def test_lazy_entries_behaviour() -> None:
    entries = LazyEntries(3, lambda i: {"i": i})
    assert entries[-1] == {"i": 2}
    assert entries[2] is entries[-1]
    assert entries[0:2] == [{"i": 0}, {"i": 1}]
    with pytest.raises(IndexError):
        entries[3]


@pytest.mark.parametrize("pause", [partial(collector_off, promote=True), collector_off], ids=["paused", "off"])
@pytest.mark.parametrize("enabled", [True, False], ids=["gc-on", "gc-off"])
def test_collector_state_is_restored(enabled: bool, pause: Callable[[], AbstractContextManager[None]]) -> None:
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        with pause():
            assert not gc.isenabled()
        assert gc.isenabled() is enabled
        with pytest.raises(RuntimeError), pause():
            raise RuntimeError
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


@pytest.mark.parametrize("last", ["first-begun", "last-begun"])
def test_overlapping_pauses_keep_the_collector_off_until_the_last_ends(last: str) -> None:
    was = gc.isenabled()
    gc.enable()
    try:
        first, second = collector_off(), collector_off(promote=True)
        first.__enter__()
        second.__enter__()
        ending_first, ending_last = (second, first) if last == "first-begun" else (first, second)
        ending_first.__exit__(None, None, None)
        assert not gc.isenabled()  # the other walk is still under way
        ending_last.__exit__(None, None, None)
        assert gc.isenabled()
    finally:
        gc.enable() if was else gc.disable()


def test_pauses_in_many_threads_leave_the_collector_as_they_found_it() -> None:
    # A thread switch between reading the collector's state and turning it off used to leave it
    # off for good (a pause that began while another was under way restored "off").
    was, interval = gc.isenabled(), sys.getswitchinterval()
    gc.enable()
    sys.setswitchinterval(1e-6)

    def pause_often() -> None:
        for _ in range(10000):
            with collector_off():
                pass

    try:
        threads = [threading.Thread(target=pause_often) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert gc.isenabled()
    finally:
        sys.setswitchinterval(interval)
        gc.enable() if was else gc.disable()


def test_objects_the_program_froze_stay_frozen() -> None:
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert frozen > 0
        with collector_off(promote=True):
            pass
        Plan.from_json(PLAN)
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


def _lookups() -> list[Any]:
    from plancheck import State
    from plancheck.querycheck import QueryOutput

    plan = Plan.from_dict({"format_version": "1.2", "output_changes": {"ip": {"actions": ["create"]}}})
    state = State.from_dict({"format_version": "1.0"})
    query = QueryOutput.from_messages([])
    return [
        pytest.param(lambda bad: plan.resource_change(bad), "Plan.resource_change expects an address (str), got {}",
                     id="Plan.resource_change"),
        pytest.param(lambda bad: plan.output_change(bad), "Plan.output_change expects an output name (str), got {}",
                     id="Plan.output_change"),
        pytest.param(lambda bad: state.resource(bad), "State.resource expects an address (str), got {}", id="State.resource"),
        pytest.param(lambda bad: state.output(bad), "State.output expects an output name (str), got {}", id="State.output"),
        pytest.param(lambda bad: query.results_for(bad),
                     "QueryOutput.results_for expects a list block's address (str), got {}", id="QueryOutput.results_for"),
        # The has_ look-ups answered False for None and raised "unhashable type: 'list'" for a list.
        pytest.param(lambda bad: plan.has_resource_change(bad), "Plan.has_resource_change expects an address (str), got {}",
                     id="Plan.has_resource_change"),
        pytest.param(lambda bad: state.has_resource(bad), "State.has_resource expects an address (str), got {}",
                     id="State.has_resource"),
    ]


@pytest.mark.parametrize("bad", [pytest.param(None, id="None"), pytest.param(["a.b"], id="a list")])
@pytest.mark.parametrize(("look_up", "message"), _lookups())
def test_a_look_up_by_a_wrong_type_is_a_type_error_naming_it(look_up: Callable[[Any], Any], message: str, bad: Any) -> None:
    # They were bare errors from inside: "'NoneType' object is not iterable" (from closest()), "unhashable type:
    # 'list'" (the index), "'NoneType' object has no attribute 'removeprefix'".
    with pytest.raises(TypeError) as caught:
        look_up(bad)
    assert str(caught.value) == message.format(type(bad).__name__)


def _deposed_lookups() -> list[Any]:
    from plancheck import State

    plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [
        {"address": "a.b", "mode": "managed", "type": "a", "name": "b", "change": {"actions": ["no-op"]}}]})
    state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [{"address": "a.b"}]}}})
    return [
        pytest.param(lambda bad: plan.resource_change("a.b", deposed=bad),
                     "Plan.resource_change expects a deposed key (str), got {}", id="Plan.resource_change"),
        pytest.param(lambda bad: state.resource("a.b", deposed=bad), "State.resource expects a deposed key (str), got {}",
                     id="State.resource"),
        pytest.param(lambda bad: plan.has_resource_change("a.b", deposed=bad),
                     "Plan.has_resource_change expects a deposed key (str), got {}", id="Plan.has_resource_change"),
        pytest.param(lambda bad: state.has_resource("a.b", deposed=bad),
                     "State.has_resource expects a deposed key (str), got {}", id="State.has_resource"),
    ]


@pytest.mark.parametrize("bad", [pytest.param(["k1"], id="a list"), pytest.param({"k": 1}, id="a dict"),
                                 pytest.param(1, id="an int")])
@pytest.mark.parametrize(("look_up", "message"), _deposed_lookups())
def test_a_deposed_key_of_a_wrong_type_is_a_type_error_naming_it(look_up: Callable[[Any], Any], message: str, bad: Any) -> None:
    # The deposed key is half of the index's key: a list was a bare "unhashable type: 'list'" from inside, an int
    # a ResourceNotFoundError for a key no document can hold. None (no deposed object) is the default.
    with pytest.raises(TypeError) as caught:
        look_up(bad)
    assert str(caught.value) == message.format(type(bad).__name__)
