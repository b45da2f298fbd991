"""Running a step's checks: plan and state checks, Go-style check functions, query result checks.

Checks are duck-typed (``CheckPlan(plan)`` / ``CheckState(state)``), so a project's own
checks work beside plancheck's. They run through the library's one runner
(:func:`plancheck._checking.run.run_each`): every check runs, every failure is reported, in order.
A check that raises (a bug, ``sys.exit()``) is contained as ``assert_*`` contains it: one failure
naming the check, ``raised <Type>: <text>``, scrubbed of the document's secrets; a Ctrl-C goes on.

Whether a plan is empty follows Go's rules (``planIsEmpty`` in terraform-plugin-testing): a plan is
empty when every resource change and every output change is a ``no-op``. A ``read``, ``forget`` or
a move with an action other than ``no-op`` all count as changes (:func:`planned_changes`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .._checking.run import by_method, run_each
from .._documents.plan import ActionInvocation, Plan
from .._documents.state import State
from .._errors import CheckFailure
from .._redact import Secrets
from .._text import exception_message
from ..querycheck import QueryOutput, QueryResultCheck, query_check_failures
from ._errors import TestDefinitionError

__all__ = [
    "call_check",
    "check_function_failure",
    "plan_check_failures",
    "planned_changes",
    "query_result_failures",
    "state_check_failures",
    "trusted_by",
]


def _failures(document: Plan | State, checks: Sequence[Any], method: str) -> list[CheckFailure]:
    outcomes = run_each(document, checks, run=by_method(method), contain=True, scrub=document)
    return [f for outcome in outcomes for f in outcome.failures]


def plan_check_failures(plan: Plan, checks: Sequence[Any]) -> list[CheckFailure]:
    """Run ``checks`` on ``plan``; every failure, in order (empty when all hold), with what it trusts.

    >>> class Fails:
    ...     def CheckPlan(self, plan):
    ...         raise AssertionError(f"format is {plan.format_version}")
    >>> class Broken:
    ...     def CheckPlan(self, plan):
    ...         return 1 / 0
    >>> [str(f) for f in plan_check_failures(Plan.from_dict({"format_version": "1.2"}), [Fails(), Broken()])]
    ['Fails: format is 1.2', 'Broken: raised ZeroDivisionError: division by zero']
    """
    return _failures(plan, checks, "CheckPlan")


def state_check_failures(state: State, checks: Sequence[Any]) -> list[CheckFailure]:
    """Run ``checks`` on ``state``; every failure, in order (empty when all hold), with what it trusts.

    >>> class Holds:
    ...     def CheckState(self, state):
    ...         pass
    >>> state_check_failures(State.from_dict({"format_version": "1.0"}), [Holds()])
    []
    """
    return _failures(state, checks, "CheckState")


def _actions(change: Any) -> list[str]:
    actions = change.get("actions") if isinstance(change, Mapping) else None
    if not isinstance(actions, list):
        return []
    return [a for a in actions if isinstance(a, str)]


def planned_changes(document: Mapping[str, Any]) -> list[str]:
    """One line per resource or output the plan would change (address and actions, in plan order), then one per
    action it invokes.

    An empty list means the plan is empty.

    >>> planned_changes({"resource_changes": [
    ...     {"address": "null_resource.a", "change": {"actions": ["delete", "create"]}},
    ...     {"address": "null_resource.b", "change": {"actions": ["no-op"]}},
    ...     {"address": "null_resource.c", "previous_address": "null_resource.z", "change": {"actions": ["update"]}}],
    ...   "output_changes": {"id": {"actions": ["update"]}, "same": {"actions": ["no-op"]}}})
    ['null_resource.a: delete, create', 'null_resource.c (moved from null_resource.z): update', 'output.id: update']
    >>> planned_changes({"action_invocations": [{"address": "action.t.n", "invoke_action_trigger": {}}]})
    ['action.t.n: invoke (Invoke)']
    >>> planned_changes({"format_version": "1.2"})
    []
    """
    lines: list[str] = []
    resource_changes = document.get("resource_changes")
    for rc in resource_changes if isinstance(resource_changes, list) else ():
        if not isinstance(rc, Mapping):
            continue
        actions = _actions(rc.get("change"))
        if all(a == "no-op" for a in actions):
            continue
        address = str(rc.get("address", "?"))
        if isinstance(rc.get("deposed"), str):
            address += f" (deposed object {rc['deposed']})"
        if isinstance(rc.get("previous_address"), str) and rc["previous_address"] != rc.get("address"):
            address += f" (moved from {rc['previous_address']})"
        lines.append(f"{address}: {', '.join(actions)}")
    output_changes = document.get("output_changes")
    if isinstance(output_changes, Mapping):
        for name, change in output_changes.items():
            actions = _actions(change)
            if not all(a == "no-op" for a in actions):
                lines.append(f"output.{name}: {', '.join(actions)}")
    # Terraform 1.14+: an action invocation makes a plan non-empty (Terraform's own Changes.Empty says so).
    invocations = document.get("action_invocations")
    for raw in invocations if isinstance(invocations, list) else ():
        if isinstance(raw, Mapping):
            # The document may be any the test gave (it is read defensively here): built as a plan builds its own.
            invocation = ActionInvocation._of(raw, None)
            lines.append(f"{invocation.address}: invoke ({invocation.trigger_text})")
    return lines


def call_check(function: Callable[..., object], *args: Any) -> str | None:
    """Call a Go-style check function: the failure text, or None when it passed.

    It fails by raising ``AssertionError`` or by returning an exception (Go's ``error`` return).

    >>> call_check(lambda state: None, {}) is None
    True
    >>> call_check(lambda state: ValueError("no widget"), {})
    'no widget'
    >>> def fails(state):
    ...     assert state, "empty state"
    >>> call_check(fails, {})
    'empty state'
    """
    try:
        returned = function(*args)
    except AssertionError as exc:
        return exception_message(exc) or type(exc).__name__
    if isinstance(returned, BaseException):
        return exception_message(returned) or type(returned).__name__
    return None


def skip_step(skip_func: Callable[[], object]) -> bool:
    """What a step's ``skip_func`` answers: only a ``bool`` decides.

    Go's ``SkipFunc`` returns ``(bool, error)``: its ``return false, nil`` ported as a pair would be true
    and skip the step unseen, so anything but a bool is a :class:`TestDefinitionError`.

    >>> skip_step(lambda: False)
    False
    >>> skip_step(lambda: (False, None))
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: TestStep.skip_func: expected it to return a bool, got tuple (raise to fail where Go returns an error)
    """
    skip = skip_func()
    if not isinstance(skip, bool):
        problem = f"expected it to return a bool, got {type(skip).__name__} (raise to fail where Go returns an error)"
        raise TestDefinitionError("TestStep.skip_func", problem)
    return skip


def query_result_failures(output: QueryOutput, checks: Sequence[QueryResultCheck]) -> list[str]:
    """Every failure of ``checks`` on ``output``, one text each, in order (Go's ``RunQueryChecks``).

    An output without any message fails with "no query results found" first. A check that
    raises (an ``AssertionError`` instead of returning failures, or a bug: ``raised <Type>: <text>``)
    is reported, not propagated, so the checks after it still run.

    >>> from plancheck.querycheck import ExpectLength, ExpectLengthAtLeast
    >>> out = QueryOutput.from_messages([{"type": "list_complete",
    ...     "list_complete": {"address": "list.concept_pet.pets", "total": 2}}])
    >>> query_result_failures(out, [ExpectLength("concept_pet.pets", 2), ExpectLengthAtLeast("concept_pet.pets", 3)])
    ['ExpectLengthAtLeast: concept_pet.pets: Query result of at least length 3 - expected but got 2.']
    """
    found = [str(failure) for failure in query_check_failures(output, ())]
    # Contained as assert_* contains it: a check that raises is one failure naming it; the case scrubs the text.
    outcomes = run_each(output, checks, run=by_method("failures"), contain=True)
    found.extend(str(failure) for outcome in outcomes for failure in outcome.failures)
    return found


def trusted_by(failures: list[CheckFailure]) -> tuple[str, ...]:
    """What ``failures`` trust, together: a scrub of their listing keeps it (:meth:`plancheck.Secrets.trusting`)."""
    return tuple(dict.fromkeys(text for failure in failures for text in failure.trusted))


def _call_check(function: Callable[..., object], args: tuple[Any, ...]) -> tuple[list[str], list[Warning]]:
    failure = call_check(function, *args)
    return ([] if failure is None else [failure]), []


def _function_label(function: object) -> tuple[str, str | None, Any]:
    name = getattr(function, "__qualname__", None) or getattr(function, "__name__", None)
    return (name if isinstance(name, str) else type(function).__name__), None, None


def check_function_failure(function: Callable[..., object], args: tuple[Any, ...], secrets: Secrets) -> str | None:
    """Run a Go-style check function through the one runner of checks, contained as ``assert_*`` contains one.

    A failure it reports is said as it said it; one it raises (a bug, ``sys.exit()``) names the function.
    None when it passed.

    >>> check_function_failure(lambda state: ValueError("no widget"), ({},), Secrets())
    'no widget'
    >>> def broken(state):
    ...     return 1 / 0
    >>> check_function_failure(broken, ({},), Secrets())
    'broken: raised ZeroDivisionError: division by zero'
    """
    outcome = run_each(args, [function], run=_call_check, label=_function_label, contain=True, scrub=secrets)[0]
    if not outcome.failures:
        return None
    failure = outcome.failures[0]
    return str(failure) if outcome.status == "error" else failure.message
