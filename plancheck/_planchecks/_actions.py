"""Checks on planned actions: one resource's action, an empty or non-empty plan, replace paths."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import KW_ONLY
from typing import TYPE_CHECKING, Any, Final

from tfjsonpath import MapStep, Path, SliceStep, Step

from .._checking.fields import checked_address, checked_deposed
from .._checking.messages import actions_text, deposed_prefix, output_address, quote
from .._documents.actions import ResourceAction
from .._documents.plan import Plan, ResourceChange
from .._errors import CheckFailure
from .._frozen import constructor_repr, frozen, public
from ._base import PlanCheck, failure, find_resource, sorted_unique_paths

__all__ = [
    "ExpectEmptyPlan",
    "ExpectNonEmptyPlan",
    "ExpectResourceAction",
    "ExpectResourceReplacePaths",
    "ResourceAction",
    "change_sort_key",
    "plan_changes",
]




@public("plancheck")
@frozen
class ExpectResourceAction(PlanCheck):
    """Resource ``address`` is planned with ``action`` (a :class:`ResourceAction`).

    >>> from plancheck import Plan
    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [
    ...     {"address": "null_resource.a", "change": {"actions": ["create", "delete"]}}]})
    >>> ExpectResourceAction("null_resource.a", ResourceAction.Replace).CheckPlan(plan)
    >>> ExpectResourceAction("null_resource.a", ResourceAction.DestroyBeforeCreate).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectResourceAction: null_resource.a: expected DestroyBeforeCreate, got action(s): [create delete]
    """

    address: str
    action: ResourceAction
    _: KW_ONLY
    deposed: str | None = None

    def __post_init__(self) -> None:
        name = type(self).__name__
        if not isinstance(self.action, ResourceAction):
            raise TypeError(f"{name}: action must be a ResourceAction, got {type(self.action).__name__}")
        self._set(
            address=checked_address(self.address, name), deposed=checked_deposed(self.deposed, name)
        )

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failure, if the resource has another action or is not planned."""
        name = type(self).__name__
        rc = find_resource(plan, self.address, self.deposed)
        if isinstance(rc, str):
            return [failure(plan, name, self.address, None, rc)]
        if self.action.matches(rc.actions):
            return []
        message = f"expected {self.action.value}, got action(s): {actions_text(rc.actions)}"
        return [failure(plan, name, self.address, None, deposed_prefix(self.deposed) + message)]


def _resource_change_reasons(rc: ResourceChange) -> list[str]:
    """Why a resource change makes a plan non-empty (Terraform's rule: an action, a move or an import)."""
    reasons = []
    actions = rc.actions
    if tuple(actions) != ("no-op",):
        reasons.append(f"has planned action(s): {actions_text(actions)}")
    previous = rc.previous_address
    if isinstance(previous, str) and previous != rc.address:
        reasons.append(f"moves from {previous}")
    if rc.change.importing is not None:
        reasons.append("is imported")
    return reasons


def change_sort_key(rc: ResourceChange) -> tuple[str, str]:
    """Resource changes in address order, a deposed object after the current one."""
    return (str(rc.raw.get("address", "")), rc.deposed or "")


def plan_changes(plan: Plan, *, outputs: bool = True) -> list[tuple[str | None, str]]:
    """Every change in the plan as (address, clause): resources, then outputs, then deferrals, each sorted.

    ``outputs=False`` leaves the output changes out: what changes resources (a deferral defers one).
    """
    found: list[tuple[str | None, str]] = []
    for rc in sorted(plan.resource_changes, key=change_sort_key):
        reasons = _resource_change_reasons(rc)
        if reasons:
            subject = f"its deposed object {quote(rc.deposed)}" if rc.deposed is not None else "it"
            found.append((rc.address, f"{subject} " + "; ".join(reasons)))
    for name in sorted(plan.output_changes) if outputs else ():
        actions = plan.output_changes[name].actions
        if tuple(actions) != ("no-op",):
            found.append((output_address(name), f"it has planned action(s): {actions_text(actions)}"))
    for deferred in sorted(plan.deferred_changes, key=lambda d: change_sort_key(d.resource_change)):
        rc = deferred.resource_change
        address = rc.raw.get("address")
        if not isinstance(address, str):
            found.append((None, f"a deferred change without an address has reason {quote(deferred.reason)}"))
            continue
        subject = f"its deposed object {quote(rc.deposed)}" if rc.deposed is not None else "it"
        found.append((address, f"{subject} is deferred with reason {quote(deferred.reason)}"))
    return found


@public("plancheck")
class ExpectEmptyPlan(PlanCheck):
    """The plan changes nothing: every resource and output is a no-op, nothing moves, imports or is deferred.

    Each change is one failure: resources by address, then outputs, then deferred changes. A
    partial plan (planning failed: ``"errored": true``, loaded with ``allow_errored=True``) is never
    empty: what failed was not planned, so its emptiness proves nothing.

    >>> from plancheck import Plan
    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [
    ...     {"address": "null_resource.b", "change": {"actions": ["delete", "create"]}},
    ...     {"address": "null_resource.a", "change": {"actions": ["no-op"]}, "previous_address": "null_resource.old"}],
    ...     "output_changes": {"ip": {"actions": ["update"]}}})
    >>> ExpectEmptyPlan().CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: 3 plan checks failed:
      1. ExpectEmptyPlan: null_resource.a: expected an empty plan, but it moves from null_resource.old
      2. ExpectEmptyPlan: null_resource.b: expected an empty plan, but it has planned action(s): [delete create]
      3. ExpectEmptyPlan: output.ip: expected an empty plan, but it has planned action(s): [update]
    """

    __slots__ = ()

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """One failure per change."""
        name = type(self).__name__
        found = [
            failure(plan, name, address, None, f"expected an empty plan, but {reason}")
            for address, reason in plan_changes(plan)
        ]
        if plan.partial:
            found.insert(0, failure(plan, name, None, None, _PARTIAL_NOT_EMPTY))
        return found


#: Why a partial plan is never empty.
_PARTIAL_NOT_EMPTY: Final = (
    'expected an empty plan, but planning failed ("errored": true): '
    "what failed was not planned, so an empty-looking plan proves nothing"
)


@public("plancheck")
class ExpectNonEmptyPlan(PlanCheck):
    """The plan changes something: a resource or output action, a move, an import or a deferral.

    >>> from plancheck import Plan
    >>> ExpectNonEmptyPlan().CheckPlan(Plan.from_dict({"format_version": "1.2", "resource_changes": [
    ...     {"address": "null_resource.a", "change": {"actions": ["no-op"]}}]}))
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectNonEmptyPlan: expected a non-empty plan, but got an empty plan
    """

    __slots__ = ()

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failure, if nothing changes."""
        for rc in plan.resource_changes:
            if _resource_change_reasons(rc):
                return []
        if any(tuple(out.actions) != ("no-op",) for out in plan.output_changes.values()):
            return []
        if plan.deferred_changes:
            return []
        return [
            failure(plan, type(self).__name__, None, None, "expected a non-empty plan, but got an empty plan")
        ]


def _raw_step(raw: Any) -> Step | None:
    # Terraform writes attribute names and map keys as strings, list indexes as numbers;
    # a path into a set has the element itself as its step, which no Path can hold.
    if isinstance(raw, str):
        return MapStep(raw)
    if isinstance(raw, int) and not isinstance(raw, bool) and raw >= 0:
        return SliceStep(raw)
    return None


def _replace_paths(rc: ResourceChange) -> tuple[set[Path], list[str]]:
    """The change's replace_paths as Paths, and the text of any that cannot be one."""
    paths: set[Path] = set()
    odd: list[str] = []
    raw_paths = rc.change.raw.get("replace_paths")
    for raw in raw_paths if isinstance(raw_paths, list) else ():
        steps = [_raw_step(s) for s in raw] if isinstance(raw, list) else [None]
        if all(s is not None for s in steps):
            paths.add(Path(*[s for s in steps if s is not None]))
        else:
            odd.append(json.dumps(raw, ensure_ascii=False, default=str))
    return paths, sorted(odd)


def _paths_text(paths: Iterable[Path]) -> str:
    return "[" + ", ".join(p.to_text() or "(the whole value)" for p in paths) + "]"


@public("plancheck")
@frozen
class ExpectResourceReplacePaths(PlanCheck):
    """The attribute paths that force the replacement of ``address`` are exactly ``paths`` (in any order).

    Compares Terraform's ``replace_paths`` with ``paths`` as sets; a failure names the
    missing and the unexpected ones. An empty ``paths`` expects no replace paths.

    >>> from plancheck import Plan
    >>> from tfjsonpath import New
    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [{"address": "null_resource.a",
    ...     "change": {"actions": ["delete", "create"], "replace_paths": [["triggers"], ["name"]]}}]})
    >>> ExpectResourceReplacePaths("null_resource.a", [New("name"), New("triggers")]).CheckPlan(plan)
    >>> ExpectResourceReplacePaths("null_resource.a", [New("name"), New("zone")]).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectResourceReplacePaths: null_resource.a: expected replace paths [name, zone], got [name, triggers]: missing zone; unexpected triggers
    """

    address: str
    paths: tuple[Path, ...]
    _: KW_ONLY
    deposed: str | None = None

    if TYPE_CHECKING:  # the constructor takes more than the fields hold: __post_init__ converts
        def __init__(self, address: str, paths: Iterable[Path], *, deposed: str | None = None) -> None: ...

    def __post_init__(self) -> None:
        name = type(self).__name__
        if isinstance(self.paths, (Path, str, bytes)) or not isinstance(self.paths, Iterable):
            raise TypeError(f"{name}: paths must be a list of tfjsonpath Paths, got {type(self.paths).__name__}")
        items = tuple(self.paths)
        for i, path in enumerate(items):
            if not isinstance(path, Path):
                raise TypeError(f"{name}: paths[{i}] must be a tfjsonpath.Path, got {type(path).__name__}")
        self._set(
            address=checked_address(self.address, name),
            paths=sorted_unique_paths(items),
            deposed=checked_deposed(self.deposed, name),
        )

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failure, if the replace paths differ or the resource is not planned."""
        name = type(self).__name__
        prefix = deposed_prefix(self.deposed)
        rc = find_resource(plan, self.address, self.deposed)
        if isinstance(rc, str):
            return [failure(plan, name, self.address, None, rc)]
        actual, odd = _replace_paths(rc)
        expected = set(self.paths)
        if actual == expected and not odd:
            return []
        missing = sorted_unique_paths(expected - actual)
        extra = sorted_unique_paths(actual - expected)
        got = sorted_unique_paths(actual)
        got_text = "[" + ", ".join([p.to_text() or "(the whole value)" for p in got] + odd) + "]"
        text = f"expected replace paths {_paths_text(self.paths)}, got {got_text}"
        details = []
        if missing:
            details.append("missing " + ", ".join(p.to_text() or "(the whole value)" for p in missing))
        if extra or odd:
            details.append(
                "unexpected " + ", ".join([p.to_text() or "(the whole value)" for p in extra] + odd)
            )
        if details:
            text += ": " + "; ".join(details)
        if not actual and not odd:
            text += f" (the change has no replace_paths; action(s): {actions_text(rc.actions)})"
        return [failure(plan, name, self.address, None, prefix + text)]

    def __repr__(self) -> str:
        return constructor_repr(type(self).__name__, self.address, list(self.paths), deposed=self.deposed)
