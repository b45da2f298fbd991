"""The PlanCheck base class, :func:`assert_plan`, and the plan lookups every plan check shares.

A check is a small frozen value: it holds what to look for, never a plan, and
reports what it found through :meth:`PlanCheck.failures`. Looking a resource up
goes through the plan's address index, so a check costs O(path length), not
O(plan size); only a failing lookup (which names the closest addresses) and the
checks whose meaning is global scan the plan.
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Mapping
from typing import Any, Final

from tfjsonpath import Path

from .._checking.fields import guard_documents, require_document
from .._checking.messages import closest_text, quote, scrubbed_failure
from .._checking.run import as_shown, as_warned, emit_warnings, outcome_of, run_checks
from .._documents.plan import (
    ActionInvocation,
    OutputChange,
    Plan,
    ResourceChange,
    ResourceNotFoundError,
)
from .._errors import CheckFailure, PlanCheckError, PlanCheckWarning
from .._frozen import FrozenValue, frozen, public
from .._text import closest

__all__ = ["PlanCheck", "assert_plan"]

#: What a plan check runs on, and how to get one: said when something else is passed.
A_PLAN: Final = "a plancheck.Plan (use load_plan or Plan.from_dict)"
_EMPTY: Mapping[str, Any] = {}

# pytest hides this module's frames from tracebacks: failures point at the user's test line,
# and the library's locals (which may hold raw values) are never printed.
__tracebackhide__ = True


@public("plancheck")
@frozen
class PlanCheck(FrozenValue, abc.ABC):
    """Base class of every plan check (Go's ``plancheck.PlanCheck``): implement :meth:`failures`; :meth:`CheckPlan` raises.

    **Writing your own check**: make it a frozen dataclass that subclasses ``PlanCheck`` (equality,
    hashing, pickling and the repr come from its fields) and implement :meth:`failures`, building
    each failure with :meth:`failure` so that no secret of the plan shows in its message. It runs
    in :func:`assert_plan`, in acceptance steps (``ConfigPlanChecks``) and in the pytest plugin.

    >>> from dataclasses import dataclass
    >>> from plancheck import Plan
    >>> @dataclass(frozen=True)
    ... class ExpectTag(PlanCheck):
    ...     address: str
    ...     key: str
    ...     def failures(self, plan):
    ...         tags = plan.resource_change(self.address).change.after.get("tags") or {}
    ...         return [] if self.key in tags else [self.failure(plan, f"no tag {self.key!r}", address=self.address)]
    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [
    ...     {"address": "aws_s3_bucket.logs", "change": {"actions": ["create"], "after": {"tags": {"env": "prod"}}}}]})
    >>> assert_plan(plan, ExpectTag("aws_s3_bucket.logs", "env"))
    >>> ExpectTag("aws_s3_bucket.logs", "team").CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectTag: aws_s3_bucket.logs: no tag 'team'
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Named: the class ``@frozen`` built with slots is not the one a bare super() would find.
        super(PlanCheck, cls).__init_subclass__(**kwargs)  # noqa: UP008 (see above)
        # Given something else than a Plan (a dict, a State), a check says so, as CheckPlan does.
        guard_documents(cls, Plan, A_PLAN, "failures", "outcome")

    @abc.abstractmethod
    def failures(self, plan: Plan) -> list[CheckFailure]:
        """Every way ``plan`` fails this check, in a stable order (empty when it holds). Never raises for that.

        A check that warns (``unknown="warn"``) emits its warnings from here too, so no caller passes in silence.
        Given anything but a :class:`~plancheck.Plan`, it raises an ArgumentError (a TypeError) saying how to get one.
        """

    def outcome(self, plan: Plan) -> tuple[list[CheckFailure], list[PlanCheckWarning]]:
        """The failures and the warnings of this check on ``plan``, without emitting the warnings.

        What :func:`assert_plan`, :meth:`CheckPlan` and ``tfplancheck`` run; most checks never warn.
        """
        if not isinstance(plan, Plan):
            require_document(plan, Plan, f"{type(self).__name__}.outcome", A_PLAN)
        return self.failures(plan), []

    def CheckPlan(self, plan: Plan) -> None:
        """Emit this check's warnings, then raise :class:`~plancheck.PlanCheckError` listing every failure, if any."""
        checked = require_document(plan, Plan, f"{type(self).__name__}.CheckPlan", A_PLAN)
        found, warned = outcome_of(self, checked)
        if warned:
            emit_warnings(as_warned(self, checked, warned))
        if found:
            raise PlanCheckError(as_shown(self, checked, found), note=checked.partial_note)

    def failure(self, plan: Plan, message: str, *, address: str | None = None, path: Path | None = None) -> CheckFailure:
        """A failure of this check on ``plan``, named after the check's class, with every secret of the plan scrubbed.

        >>> from plancheck import ExpectEmptyPlan, Plan
        >>> plan = Plan.from_dict({"format_version": "1.2", "variables": {"pw": {"value": "hunter2"}},
        ...     "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}}})
        >>> str(ExpectEmptyPlan().failure(plan, "saw hunter2", address="a.b"))
        'ExpectEmptyPlan: a.b: saw (sensitive)'
        """
        return scrubbed_failure(plan.secrets, type(self).__name__, address, path, message)


@public("plancheck")
def assert_plan(plan: Plan, *checks: PlanCheck) -> None:
    """Run every check on ``plan``; raise one :class:`~plancheck.PlanCheckError` listing every failure.

    Failures come in the order the checks were given (each check orders its own). On a
    :attr:`~plancheck.Plan.partial` plan (loaded with ``allow_errored=True``) the error ends with a
    note saying so, and a pass warns (:class:`~plancheck.PlanCheckWarning`): never a silent pass.

    >>> from plancheck import Plan
    >>> from plancheck import ExpectNonEmptyPlan, ExpectResourceAction, ResourceAction
    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [
    ...     {"address": "null_resource.a", "change": {"actions": ["create"]}}]})
    >>> assert_plan(plan, ExpectNonEmptyPlan(), ExpectResourceAction("null_resource.a", ResourceAction.Create))
    >>> assert_plan(plan, ExpectResourceAction("null_resource.a", ResourceAction.Update),
    ...             ExpectResourceAction("null_resource.b", ResourceAction.Create))
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: 2 plan checks failed:
      1. ExpectResourceAction: null_resource.a: expected Update, got action(s): [create]
      2. ExpectResourceAction: null_resource.b: resource not found in plan ResourceChanges; closest: null_resource.a
    """
    checked = require_document(plan, Plan, "assert_plan", A_PLAN)
    note = checked.partial_note
    run_checks("assert_plan", "plan", checked, checks, PlanCheck, PlanCheckError, note=note)
    if note is not None:
        emit_warnings([PlanCheckWarning.of(CheckFailure("assert_plan", None, None, note))])


# -- plan lookups (what every check family shares is in plancheck._checking) -------------------


def find_resource(plan: Plan, address: str, deposed: str | None) -> ResourceChange | str:
    """The change for ``address`` (its deposed object ``deposed``), or the reason it is missing.

    The reason is a message that names the closest addresses present and says when
    the resource is deferred instead of planned; building it is the only O(n) path.
    """
    try:
        return plan.resource_change(address, deposed=deposed)
    except ResourceNotFoundError as exc:
        missing = exc
    keys = sorted(
        rc.deposed
        for rc in plan.resource_changes
        if rc.deposed is not None and rc.raw.get("address") == address
    )
    keys_text = ", ".join(quote(k) for k in keys)
    if deposed is not None and (keys or plan.has_resource_change(address)):
        text = f"deposed object {quote(deposed)} not found in plan ResourceChanges"
        return text + (
            f"; its deposed objects: {keys_text}" if keys else "; the resource has no deposed objects"
        )
    if deposed is None and keys:
        return (
            "resource not found in plan ResourceChanges: only deposed objects of it are planned "
            f"(select one with deposed=): {keys_text}"
        )
    for deferred in plan.deferred_changes:
        rc = deferred.resource_change
        if rc.raw.get("address") == address and rc.deposed == deposed:
            reason = quote(deferred.reason)
            return f"resource not found in plan ResourceChanges: it is deferred with reason {reason}"
    if not plan.resource_changes:
        return "resource not found in plan ResourceChanges; the plan has no resource changes"
    return "resource not found in plan ResourceChanges" + closest_text(missing.closest, "address", "plan")


def find_change(plan: Plan, address: str, deposed: str | None) -> Mapping[str, Any] | str:
    """The raw ``change`` object of ``address`` (its deposed object ``deposed``), or the reason it is missing.

    What ``find_resource(...).change.raw`` is, kept to one lookup in the plan's index and no wrapper
    built: the value checks run it on every call. A miss is explained by :func:`find_resource`.

    >>> from plancheck import Plan
    >>> find_change(Plan.from_dict({"format_version": "1.0", "resource_changes": [
    ...     {"address": "a.b", "change": {"actions": ["create"]}}]}), "a.b", None)
    {'actions': ['create']}
    """
    i = plan._index.positions.get((address, deposed))
    if i is not None:
        change: Mapping[str, Any] = plan._entries[i].get("change") or _EMPTY
        return change
    rc = find_resource(plan, address, deposed)
    return rc if isinstance(rc, str) else rc.change.raw


def find_output(plan: Plan, name: str) -> OutputChange | str:
    """The change of output ``name``, or the reason it is missing (naming the closest outputs)."""
    try:
        return plan.output_change(name)
    except ResourceNotFoundError as exc:
        if not plan.output_changes:
            return "output not found in plan OutputChanges; the plan has no output changes"
        return "output not found in plan OutputChanges" + closest_text(exc.closest, "output name", "plan")


def sorted_unique_paths(paths: Iterable[Path]) -> tuple[Path, ...]:
    """Paths without duplicates, in :meth:`Path.sort_key` order."""
    return tuple(sorted(set(paths), key=Path.sort_key))


def find_invocations(plan: Plan, address: str, triggered_by: str | None = None) -> tuple[ActionInvocation, ...] | str:
    """The invocations of action ``address`` (those triggered by resource ``triggered_by``, when given), or
    the reason there are none: naming the closest invoked actions, or the invocation's deferral.

    ``triggered_by`` is the triggering resource of a lifecycle trigger, or the calling resource of an
    invoked action.

    >>> plan = Plan.from_dict({"format_version": "1.2", "action_invocations": [
    ...     {"address": "action.t.notify", "lifecycle_action_trigger": {"triggering_resource_address": "a.b",
    ...      "action_trigger_event": "AfterCreate"}}]})
    >>> find_invocations(plan, "action.t.notify", "a.b")
    (<ActionInvocation action.t.notify AfterCreate of a.b>,)
    >>> find_invocations(plan, "action.t.notfy")
    'action not invoked in plan ActionInvocations; closest: action.t.notify'
    >>> find_invocations(plan, "action.t.notify", "a.c")
    'action not invoked by a.c in plan ActionInvocations; its invocation(s): [AfterCreate of a.b]'
    """
    found = plan.action_invocations_of(address)
    if found and triggered_by is None:
        return found
    chosen = tuple(ai for ai in found if triggered_by in (ai.triggering_resource_address, ai.calling_resource_address))
    if chosen:
        return chosen
    if found:
        listed_triggers = ", ".join(ai.trigger_text for ai in found)
        return f"action not invoked by {triggered_by} in plan ActionInvocations; its invocation(s): [{listed_triggers}]"
    by = "" if triggered_by is None else f" by {triggered_by}"
    for deferred in plan.deferred_action_invocations:
        ai = deferred.action_invocation
        if ai.raw.get("address") == address:
            return (f"action not invoked{by} in plan ActionInvocations: its invocation ({ai.trigger_text}) is "
                    f"deferred with reason {quote(deferred.reason)}")
    if not plan.action_invocations:
        return f"action not invoked{by} in plan ActionInvocations; the plan invokes no action"
    invoked = list(dict.fromkeys(ai.address for ai in plan.action_invocations))
    return f"action not invoked{by} in plan ActionInvocations" + closest_text(closest(address, invoked), "action address", "plan")

