"""A plan or a state that is dropped is freed at once, by reference counting, whatever of it was used: none of its
entries refers back to it (each holds what knows its document's secrets instead), so none is cyclic garbage
left for the cyclic collector, whose collections walk every parsed document still alive. An entry kept after
its document is dropped still hides the document's secrets."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from plancheck import (
    ExpectResourceAction,
    Plan,
    ResourceAction,
    Resources,
    State,
    assert_plan,
    load_plan,
)
from plancheck._documents.met import heard_only_by

SECRET = "hunter2-key"

PLAN: dict[str, Any] = {
    "format_version": "1.2",
    "variables": {"pw": {"value": SECRET}},
    "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}},
    "resource_changes": [{"address": f't.a["{SECRET}"]', "mode": "managed", "type": "t", "name": "a",
                          "index": SECRET, "change": {"actions": ["create"], "after": {"id": "a"}}}],
    "resource_drift": [{"address": f't.a["{SECRET}"]', "change": {"actions": ["update"]}}],
    "deferred_changes": [{"reason": "absent_prereq",
                          "resource_change": {"address": f't.b["{SECRET}"]', "change": {"actions": ["create"]}}}],
    "action_invocations": [{"address": f'action.t.n["{SECRET}"]', "invoke_action_trigger": {}}],
    "deferred_action_invocations": [{"reason": "absent_prereq", "action_invocation": {
        "address": f'action.t.m["{SECRET}"]', "invoke_action_trigger": {}}}],
}  # fmt: skip

STATE: dict[str, Any] = {
    "format_version": "1.0",
    "values": {
        "outputs": {"pw": {"value": SECRET, "sensitive": True}},
        "root_module": {"resources": [{"address": f't.a["{SECRET}"]', "mode": "managed", "type": "t", "name": "a",
                                       "index": SECRET, "values": {"id": "a"}}]},
    },
}  # fmt: skip


@pytest.fixture
def collector_off() -> Iterator[None]:
    """Only reference counting frees anything while a row runs: what is left for the cyclic collector stays. The
    documents made are told to no one (the pytest plugin keeps those a test makes, to scrub its report)."""
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        with heard_only_by(lambda found: None):
            yield
    finally:
        if was:
            gc.enable()


def _plan() -> Plan:
    return Plan.from_dict(PLAN)


USES: list[Any] = [
    pytest.param(lambda p: p.resource_changes, id="resource_changes"),
    pytest.param(lambda p: p.resource_change(f't.a["{SECRET}"]'), id="resource_change"),
    pytest.param(lambda p: p.resource_drift, id="resource_drift"),
    pytest.param(lambda p: p.deferred_changes[0].resource_change, id="deferred_changes"),
    pytest.param(lambda p: p.action_invocations, id="action_invocations"),
    pytest.param(lambda p: p.deferred_action_invocations[0].action_invocation, id="deferred_action_invocations"),
    pytest.param(lambda p: Resources(type="t").select(p), id="selection"),
    pytest.param(lambda p: repr(p.resource_changes) + repr(p.secrets), id="reprs-and-secrets"),
    pytest.param(lambda p: assert_plan(p, ExpectResourceAction(f't.a["{SECRET}"]', ResourceAction.Create)),
                 id="assert_plan"),
]  # fmt: skip


@pytest.mark.usefixtures("collector_off")
@pytest.mark.parametrize("use", USES)
def test_a_dropped_plan_is_freed_at_once(use: Callable[[Plan], object]) -> None:
    plan = _plan()
    use(plan)
    ref = weakref.ref(plan)
    del plan
    assert ref() is None


@pytest.mark.usefixtures("collector_off")
def test_a_dropped_loaded_plan_is_freed_at_once() -> None:
    plan = load_plan(PLAN)
    assert len(plan.resource_changes) == 1
    ref = weakref.ref(plan)
    del plan
    assert ref() is None


@pytest.mark.usefixtures("collector_off")
@pytest.mark.parametrize("use", [
    pytest.param(lambda s: s.resources, id="resources"),
    pytest.param(lambda s: s.resource(f't.a["{SECRET}"]'), id="resource"),
    pytest.param(lambda s: repr(s.resources) + repr(s.secrets), id="reprs-and-secrets"),
])  # fmt: skip
def test_a_dropped_state_is_freed_at_once(use: Callable[[State], object]) -> None:
    state = State.from_dict(STATE)
    use(state)
    ref = weakref.ref(state)
    del state
    assert ref() is None


@pytest.mark.parametrize(("entry", "shown"), [
    pytest.param(lambda: _plan().resource_changes[0], "<ResourceChange t.a[\"(sensitive)\"] actions=['create']>",
                 id="resource_change"),
    pytest.param(lambda: _plan().resource_change(f't.a["{SECRET}"]'),
                 "<ResourceChange t.a[\"(sensitive)\"] actions=['create']>", id="looked-up"),
    pytest.param(lambda: _plan().resource_drift[0], "<ResourceChange t.a[\"(sensitive)\"] actions=['update']>",
                 id="drift"),
    pytest.param(lambda: _plan().deferred_changes[0],
                 "<DeferredChange t.b[\"(sensitive)\"] reason='absent_prereq'>", id="deferred_change"),
    pytest.param(lambda: _plan().action_invocations[0], '<ActionInvocation action.t.n["(sensitive)"] Invoke>',
                 id="action_invocation"),
    pytest.param(lambda: _plan().deferred_action_invocations[0].action_invocation,
                 '<ActionInvocation action.t.m["(sensitive)"] Invoke>', id="deferred_action_invocation"),
    pytest.param(lambda: State.from_dict(STATE).resources[0], '<StateResource t.a["(sensitive)"]>',
                 id="state_resource"),
])  # fmt: skip
def test_an_entry_kept_after_its_document_hides_its_secrets(entry: Callable[[], object], shown: str) -> None:
    """The secret is the document's (a sensitive variable or output), not one the entry holds itself."""
    kept = entry()
    gc.collect()
    assert repr(kept) == shown
