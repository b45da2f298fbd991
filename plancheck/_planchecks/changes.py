"""Checks on the changes a plan makes: one resource's action, the plan's scope, deferred changes.

One resource's planned action and replace paths, an empty or a non-empty plan; what a whole plan
may do (replace, destroy, how much of each, only outputs); and the changes Terraform deferred
(Terraform 1.9+ with deferrals allowed).

"Nothing replaced or destroyed but what I allow": each scope check lists every resource change
that breaks it, by address (a deposed object after its current one), never just the first.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable, Sequence
from dataclasses import KW_ONLY
from typing import TYPE_CHECKING, Final

from tfjsonpath import Path

from .._checking.fields import (
    check_fields,
    checked_address,
    checked_deposed,
    checked_instance,
    checked_selector,
    checked_selectors,
    item_label,
    member_hint,
)
from .._checking.messages import actions_text, deposed_prefix, output_address, quote, scrubbed_failure
from .._documents.actions import ActionTriggerEvent, ResourceAction
from .._documents.plan import DeferredChange, Plan, ResourceChange, replace_step
from .._documents.select import Resources
from .._errors import ArgumentError, CheckFailure
from .._frozen import constructor_repr, frozen, public
from .base import PlanCheck, find_invocations, find_resource, sorted_unique_paths

__all__ = [
    "DeferredReason",
    "ExpectActionCounts",
    "ExpectActionInvocation",
    "ExpectCount",
    "ExpectDeferredActionInvocation",
    "ExpectDeferredChange",
    "ExpectEmptyPlan",
    "ExpectNoActionInvocations",
    "ExpectNoDeferredChanges",
    "ExpectNoDestroys",
    "ExpectNoReplacements",
    "ExpectNoResourceChanges",
    "ExpectNonEmptyPlan",
    "ExpectOnlyOutputChanges",
    "ExpectResourceAction",
    "ExpectResourceReplacePaths",
    "ResourceAction",
    "change_sort_key",
    "plan_changes",
]

# pytest hides this module's frames from tracebacks: failures point at the user's test line,
# and the library's locals (which may hold raw values) are never printed.
__tracebackhide__ = True


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
        check_fields(
            self, action=checked_instance(ResourceAction, "action"), address=checked_address, deposed=checked_deposed
        )

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failure, if the resource has another action or is not planned."""
        rc = find_resource(plan, self.address, self.deposed)
        if isinstance(rc, str):
            message = rc
        elif self.action.matches(rc.actions):
            return []
        else:
            message = f"{deposed_prefix(self.deposed)}expected {self.action.value}, got action(s): {actions_text(rc.actions)}"
        return [scrubbed_failure(plan.secrets, type(self).__name__, self.address, None, message)]


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


def plan_changes(plan: Plan, *, outputs: bool = True, invocations: bool = True) -> list[tuple[str | None, str]]:
    """Every change in the plan as (address, clause): resources, then outputs, then deferrals, then action
    invocations and their deferrals (Terraform's ``Changes.Empty`` counts an invocation), each sorted.

    ``outputs=False`` leaves the output changes out, ``invocations=False`` the action invocations: what
    changes resources (a deferral defers one).
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
    if invocations:
        found.extend(_invocation_changes(plan))
    return found


def _invocation_changes(plan: Plan) -> list[tuple[str | None, str]]:
    """The plan's action invocations as (address, clause), by address (each action's in document order)."""
    found: list[tuple[str | None, str]] = []
    for ai in sorted(plan.action_invocations, key=lambda a: a.address):
        found.append((ai.address, f"it is invoked ({ai.trigger_text})"))
    for deferred in sorted(plan.deferred_action_invocations, key=lambda d: d.action_invocation.address):
        ai = deferred.action_invocation
        found.append((ai.address, f"its invocation ({ai.trigger_text}) is deferred with reason {quote(deferred.reason)}"))
    return found


@public("plancheck")
class ExpectEmptyPlan(PlanCheck):
    """The plan changes nothing: no resource or output action, move, import, deferral or action invocation.

    Every resource and output is a no-op, and no action is invoked (Terraform 1.14+: its own
    ``Changes.Empty`` counts an invocation).

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
            scrubbed_failure(plan.secrets, name, address, None, f"expected an empty plan, but {reason}")
            for address, reason in plan_changes(plan)
        ]
        if plan.partial:
            found.insert(0, scrubbed_failure(plan.secrets, name, None, None, _PARTIAL_NOT_EMPTY))
        return found


#: Why a partial plan is never empty.
_PARTIAL_NOT_EMPTY: Final = (
    'expected an empty plan, but planning failed ("errored": true): '
    "what failed was not planned, so an empty-looking plan proves nothing"
)


@public("plancheck")
class ExpectNonEmptyPlan(PlanCheck):
    """The plan changes something: a resource or output action, a move, an import, a deferral or an action invocation.

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
        if plan.deferred_changes or plan.action_invocations or plan.deferred_action_invocations:
            return []
        return [
            scrubbed_failure(plan.secrets, type(self).__name__, None, None, "expected a non-empty plan, but got an empty plan")
        ]


def _replace_paths(rc: ResourceChange) -> tuple[set[Path], list[str]]:
    """The change's replace_paths as Paths, and the text of any that cannot be one."""
    paths: set[Path] = set()
    odd: list[str] = []
    raw_paths = rc.change.raw.get("replace_paths")
    for raw in raw_paths if isinstance(raw_paths, list) else ():
        steps = [replace_step(s) for s in raw] if isinstance(raw, list) else [None]
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
            raise ArgumentError(f"{name}: paths must be a list of tfjsonpath Paths, got {type(self.paths).__name__}")
        items = tuple(self.paths)
        for i, path in enumerate(items):
            if not isinstance(path, Path):
                raise ArgumentError(f"{name}: paths[{i}] must be a tfjsonpath.Path, got {type(path).__name__}")
        self._set(
            address=checked_address(self.address, name),
            paths=sorted_unique_paths(items),
            deposed=checked_address(self.deposed, name, "deposed", optional=True),
        )

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failure, if the replace paths differ or the resource is not planned."""
        name = type(self).__name__
        prefix = deposed_prefix(self.deposed)
        rc = find_resource(plan, self.address, self.deposed)
        if isinstance(rc, str):
            return [scrubbed_failure(plan.secrets, name, self.address, None, rc)]
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
        return [scrubbed_failure(plan.secrets, name, self.address, None, prefix + text)]

    def __repr__(self) -> str:
        return constructor_repr(type(self).__name__, self.address, list(self.paths), deposed=self.deposed)


_REPLACES: Final = frozenset({ResourceAction.DestroyBeforeCreate, ResourceAction.CreateBeforeDestroy})

#: One selector or address glob, or a list of them: what ``except_`` takes.
Selectors = Resources | str | Sequence[Resources | str]


def _how(rc: ResourceChange) -> str:
    """The action(s), and why Terraform chose them and which paths force a replacement, when it says."""
    text = f"action(s) {actions_text(rc.actions)}"
    why: list[str] = []
    if rc.action_reason:
        why.append(str(rc.action_reason))
    paths = [p.to_text() or "(the whole value)" for p in rc.change.replace_paths]
    if paths:
        why.append("replace paths: " + ", ".join(sorted(set(paths))))
    return text + (f" ({'; '.join(why)})" if why else "")


@frozen
class _ExceptCheck(PlanCheck):
    """A check over every resource change, with ``except_``: selectors of the changes it allows."""

    _: KW_ONLY
    except_: tuple[Resources, ...] = ()

    if TYPE_CHECKING:  # the constructor takes more than the fields hold: __post_init__ converts
        def __init__(self, *, except_: Selectors | None = None) -> None: ...

    def __post_init__(self) -> None:
        self._set(except_=checked_selectors(self.except_, type(self).__name__))

    def _excepted(self, rc: ResourceChange) -> bool:
        return any(selector.matches(rc) for selector in self.except_)

    def _violation(self, rc: ResourceChange) -> str | None:
        raise NotImplementedError

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """One failure per resource change that breaks the check and no ``except_`` selector selects, by address."""
        name = type(self).__name__
        found: list[CheckFailure] = []
        for rc in sorted(plan.resource_changes, key=change_sort_key):
            problem = self._violation(rc)
            if problem is not None and not self._excepted(rc):
                found.append(scrubbed_failure(plan.secrets, name, rc.address, None, deposed_prefix(rc.deposed) + problem))
        return found

    def __repr__(self) -> str:
        shown = list(self.except_) if len(self.except_) != 1 else self.except_[0]
        return constructor_repr(type(self).__name__, except_=shown if self.except_ else None)


@public("plancheck")
class ExpectNoReplacements(_ExceptCheck):
    """No resource is replaced (destroyed and created again, in either order), except those ``except_`` selects.

    ``except_`` is a :class:`~plancheck.Resources` or an address glob, or a list of them. Each
    replacement is one failure, with Terraform's reason and the paths that force it.

    >>> from plancheck import Plan
    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [
    ...     {"address": "aws_instance.web", "action_reason": "replace_because_cannot_update",
    ...      "change": {"actions": ["delete", "create"], "replace_paths": [["ami"]]}},
    ...     {"address": "aws_instance.cache", "change": {"actions": ["create", "delete"]}}]})
    >>> ExpectNoReplacements(except_="aws_instance.cache").CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectNoReplacements: aws_instance.web: expected no replacement, but it is replaced: action(s) [delete create] (replace_because_cannot_update; replace paths: ami)
    """

    __slots__ = ()

    def __init__(self, *, except_: Selectors | None = None) -> None:
        super().__init__(except_=except_)

    def _violation(self, rc: ResourceChange) -> str | None:
        if ResourceAction.of(rc.actions) in _REPLACES:
            return f"expected no replacement, but it is replaced: {_how(rc)}"
        return None


@public("plancheck")
class ExpectNoDestroys(_ExceptCheck):
    """No object is destroyed, except those ``except_`` selects: no delete, and no replacement (which destroys one too).

    A deposed object being deleted is destroyed too; ``forget`` (``removed`` with ``destroy =
    false``) is not: the object stays, Terraform only stops managing it.

    >>> from plancheck import Plan
    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [
    ...     {"address": "aws_s3_bucket.old", "action_reason": "delete_because_no_resource_config",
    ...      "change": {"actions": ["delete"]}},
    ...     {"address": "aws_instance.web", "change": {"actions": ["create", "delete"]}},
    ...     {"address": "aws_iam_role.legacy", "change": {"actions": ["forget"]}}]})
    >>> ExpectNoDestroys(except_=["aws_instance.*"]).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectNoDestroys: aws_s3_bucket.old: expected no destroy, but it is destroyed: action(s) [delete] (delete_because_no_resource_config)
    """

    __slots__ = ()

    def __init__(self, *, except_: Selectors | None = None) -> None:
        super().__init__(except_=except_)

    def _violation(self, rc: ResourceChange) -> str | None:
        if "delete" not in rc.actions:
            return None
        if ResourceAction.of(rc.actions) in _REPLACES:
            return f"expected no destroy, but it is replaced: {_how(rc)}"
        return f"expected no destroy, but it is destroyed: {_how(rc)}"


#: The categories of ExpectActionCounts, in order, with the actions each counts and how a message names it.
_CATEGORIES: Final[tuple[tuple[str, frozenset[ResourceAction], str], ...]] = (
    ("create", frozenset({ResourceAction.Create, ResourceAction.CreateThenForget, ResourceAction.ForgetThenCreate}),
     "to create"),
    ("update", frozenset({ResourceAction.Update}), "to update"),
    ("delete", frozenset({ResourceAction.Destroy}), "to delete"),
    ("replace", _REPLACES, "to replace"),
    ("noop", frozenset({ResourceAction.NoOp}), "unchanged (no-op)"),
    ("read", frozenset({ResourceAction.Read}), "to read"),
    ("forget", frozenset({ResourceAction.Forget, ResourceAction.CreateThenForget, ResourceAction.ForgetThenCreate}),
     "to forget"),
    # Not a resource change: the plan's action invocations (Terraform 1.14+), by address and trigger.
    ("invoke", frozenset(), "action invocation(s)"),
)
_COUNT_NAMES: Final = tuple(name for name, _, _ in _CATEGORIES)


def _checked_count(value: object, check: str, what: str) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise ArgumentError(f"{check}: {what} must be an int, got {type(value).__name__}")
    if value < 0:
        raise ArgumentError(f"{check}: {what} must be >= 0, got {value}")
    return int(value)


def action_counts(plan: Plan) -> dict[str, list[str]]:
    """The labels of the resource changes in each category of :class:`ExpectActionCounts`, by address.

    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [
    ...     {"address": "a.b", "change": {"actions": ["create", "forget"]}}, {"address": "a.c", "change": {"actions": ["no-op"]}}]})
    >>> {k: v for k, v in action_counts(plan).items() if v}
    {'create': ['a.b'], 'noop': ['a.c'], 'forget': ['a.b']}
    """
    found: dict[str, list[str]] = {name: [] for name in _COUNT_NAMES}
    for rc in sorted(plan.resource_changes, key=change_sort_key):
        action = ResourceAction.of(rc.actions)
        for name, actions, _ in _CATEGORIES:
            if action in actions:
                found[name].append(item_label(rc.address, rc.deposed))
    found["invoke"] = [f"{ai.address} ({ai.trigger_text})" for ai in sorted(plan.action_invocations, key=lambda a: a.address)]
    return found


@public("plancheck")
@frozen
class ExpectActionCounts(PlanCheck):
    """The plan has exactly these many resource changes of each action given (those not given are not checked).

    ``create`` counts creates (and create-then-forget), ``update`` in-place updates, ``delete``
    plain deletes (a deposed object's too), ``replace`` replacements in either order (not counted
    as creates or deletes), ``noop`` unchanged resources, ``read`` data sources read during
    apply, ``forget`` objects Terraform stops managing (``["forget"]``, and the forget of
    ``["create", "forget"]`` and ``["forget", "create"]``, which count as creates too); ``invoke``
    counts action invocations (Terraform 1.14+; not deferred ones), one per trigger. Every count that
    differs is one failure, listing the addresses behind the count.

    >>> from plancheck import Plan
    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [
    ...     {"address": "a.x", "change": {"actions": ["create"]}}, {"address": "a.y", "change": {"actions": ["create"]}},
    ...     {"address": "a.z", "change": {"actions": ["delete", "create"]}}]})
    >>> ExpectActionCounts(create=2, replace=1, delete=0).CheckPlan(plan)
    >>> ExpectActionCounts(create=1, replace=0).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: 2 plan checks failed:
      1. ExpectActionCounts: expected 1 to create, got 2: a.x, a.y
      2. ExpectActionCounts: expected 0 to replace, got 1: a.z
    """

    _: KW_ONLY
    create: int | None = None
    update: int | None = None
    delete: int | None = None
    replace: int | None = None
    noop: int | None = None
    read: int | None = None
    forget: int | None = None
    invoke: int | None = None

    def __post_init__(self) -> None:
        name = type(self).__name__
        counts = {key: _checked_count(getattr(self, key), name, key) for key in _COUNT_NAMES}
        if all(value is None for value in counts.values()):
            raise ArgumentError(f"{name}: give at least one count ({', '.join(_COUNT_NAMES)})")
        self._set(**counts)

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """One failure per count that differs, in the order create, update, delete, replace, noop, read, forget, invoke."""
        name = type(self).__name__
        found: list[CheckFailure] = []
        actual = action_counts(plan)
        for key, _, phrase in _CATEGORIES:
            expected = getattr(self, key)
            got = actual[key]
            if expected is None or expected == len(got):
                continue
            text = f"expected {expected} {phrase}, got {len(got)}" + (f": {', '.join(got)}" if got else "")
            found.append(scrubbed_failure(plan.secrets, name, None, None, text))
        return found


@public("plancheck")
@frozen
class ExpectCount(PlanCheck):
    """The selector selects exactly ``n`` resource changes (deposed objects, extra objects of an address, not counted).

    ``selector`` is a :class:`~plancheck.Resources` or an address glob. A failure lists what was selected.

    >>> from plancheck import Plan, Resources
    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [
    ...     {"address": "aws_instance.web[0]", "type": "aws_instance", "change": {"actions": ["create"]}},
    ...     {"address": "aws_instance.web[1]", "type": "aws_instance", "change": {"actions": ["create"]}}]})
    >>> ExpectCount(Resources(type="aws_instance"), 2).CheckPlan(plan)
    >>> ExpectCount("aws_instance.web", 3).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectCount: Resources(address='aws_instance.web'): expected 3 resources, got 2: aws_instance.web[0], aws_instance.web[1]
    """

    selector: Resources
    n: int

    if TYPE_CHECKING:  # the constructor takes more than the fields hold: __post_init__ converts
        def __init__(self, selector: Resources | str, n: int) -> None: ...

    def __post_init__(self) -> None:
        name = type(self).__name__
        count = _checked_count(self.n, name, "n")
        if count is None:
            raise ArgumentError(f"{name}: n must be an int, got NoneType")
        self._set(selector=checked_selector(self.selector, name), n=count)

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failure, if the selector selects another number of resource changes."""
        got = sorted(rc.address for rc in self.selector.select(plan) if rc.deposed is None)
        if len(got) == self.n:
            return []
        noun = "resource" if self.n == 1 else "resources"
        text = f"expected {self.n} {noun}, got {len(got)}" + (f": {', '.join(got)}" if got else "")
        return [scrubbed_failure(plan.secrets, type(self).__name__, self.selector.describe(), None, text)]


def _resource_changes(plan: Plan, check: str, expected: str, *, invocations: bool) -> list[CheckFailure]:
    return [
        scrubbed_failure(plan.secrets, check, address, None, f"expected {expected}, but {reason}")
        for address, reason in plan_changes(plan, outputs=False, invocations=invocations)
    ]


@public("plancheck")
class ExpectNoResourceChanges(PlanCheck):
    """No resource changes: no resource action, move, import or deferral (outputs and action invocations may change).

    :class:`ExpectNoActionInvocations` says no action is invoked.

    Terraform's own rule for an empty plan, without the outputs: a data source read during apply
    (action ``read``, e.g. one that depends on a resource being changed) is a change; one read
    while planning is not in the plan's changes at all. Each change is one failure, by address.

    >>> from plancheck import Plan
    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [
    ...     {"address": "null_resource.a", "change": {"actions": ["no-op"]}, "previous_address": "null_resource.old"},
    ...     {"address": "data.http.x", "mode": "data", "change": {"actions": ["read"]}}],
    ...     "output_changes": {"ip": {"actions": ["update"]}}})
    >>> ExpectNoResourceChanges().CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: 2 plan checks failed:
      1. ExpectNoResourceChanges: data.http.x: expected no resource changes, but it has planned action(s): [read]
      2. ExpectNoResourceChanges: null_resource.a: expected no resource changes, but it moves from null_resource.old
    """

    __slots__ = ()

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """One failure per resource change (action, move, import) and deferral."""
        return _resource_changes(plan, type(self).__name__, "no resource changes", invocations=False)


@public("plancheck")
class ExpectOnlyOutputChanges(PlanCheck):
    """The plan changes outputs and nothing else: an output changes; no resource does, no action is invoked.

    What changes a resource is what :class:`ExpectNoResourceChanges` says. A plan that changes
    nothing at all fails too (use ``ExpectEmptyPlan`` for that).

    >>> from plancheck import Plan
    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [
    ...     {"address": "null_resource.a", "change": {"actions": ["no-op"]}}],
    ...     "output_changes": {"ip": {"actions": ["update"]}}})
    >>> ExpectOnlyOutputChanges().CheckPlan(plan)
    >>> ExpectOnlyOutputChanges().CheckPlan(Plan.from_dict({"format_version": "1.2"}))
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectOnlyOutputChanges: expected output changes, but the plan changes no output
    """

    __slots__ = ()

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """One failure per resource change, and one if no output changes."""
        name = type(self).__name__
        found = _resource_changes(plan, name, "only output changes", invocations=True)
        if not any(tuple(out.actions) != ("no-op",) for out in plan.output_changes.values()):
            found.append(scrubbed_failure(plan.secrets, name, None, None, "expected output changes, but the plan changes no output"))
        return found


@public("plancheck")
class DeferredReason(enum.Enum):
    """Why Terraform deferred a change; the values are what ``deferred_changes[].reason`` holds.

    Go names three of these; Terraform's ``jsonplan`` writes all eight (``unknown``
    for a reason newer than the Terraform that wrote the plan).

    >>> DeferredReason("absent_prereq")
    DeferredReason.AbsentPrereq
    """

    Unknown = "unknown"
    InstanceCountUnknown = "instance_count_unknown"
    ResourceConfigUnknown = "resource_config_unknown"
    ProviderConfigUnknown = "provider_config_unknown"
    DeferredPrereq = "deferred_prereq"
    AbsentPrereq = "absent_prereq"
    Excluded = "excluded"
    NotIncluded = "not_included"

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


def _address(deferred: DeferredChange) -> str | None:
    address = deferred.resource_change.raw.get("address")
    return address if isinstance(address, str) else None


@frozen
class _DeferredCheck(PlanCheck):
    """``(address, reason)``: what is expected deferred (a resource, an action's invocation), and why.

    >>> class Probe(_DeferredCheck):
    ...     __slots__ = ()
    ...     def failures(self, plan): return []
    >>> Probe("a.b", DeferredReason.AbsentPrereq)
    Probe('a.b', DeferredReason.AbsentPrereq)
    """

    address: str
    reason: DeferredReason

    def __post_init__(self) -> None:
        check_fields(self, reason=checked_instance(DeferredReason, "reason"), address=checked_address)


@public("plancheck")
@frozen
class ExpectDeferredChange(_DeferredCheck):
    """Resource ``address`` is deferred, with ``reason`` (a :class:`DeferredReason`).

    >>> from plancheck import Plan
    >>> plan = Plan.from_dict({"format_version": "1.2", "complete": False, "deferred_changes": [
    ...     {"reason": "absent_prereq", "resource_change": {"address": "test_resource.a", "change": {"actions": ["create"]}}}]})
    >>> ExpectDeferredChange("test_resource.a", DeferredReason.AbsentPrereq).CheckPlan(plan)
    >>> ExpectDeferredChange("test_resource.a", DeferredReason.ProviderConfigUnknown).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectDeferredChange: test_resource.a: expected "provider_config_unknown", got deferred reason: "absent_prereq"
    """

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failure, if the resource is not deferred, or for another reason."""
        name = type(self).__name__
        # Deferred changes are few and have no index; the current object comes first, as Terraform sorts them.
        matches = sorted(
            (d for d in plan.deferred_changes if _address(d) == self.address),
            key=lambda d: d.resource_change.deposed or "",
        )
        if matches:
            reason = matches[0].reason
            if reason == self.reason.value:
                return []
            message = f"expected {quote(self.reason.value)}, got deferred reason: {quote(reason)}"
            return [scrubbed_failure(plan.secrets, name, self.address, None, message)]
        message = "no deferred changes found for resource"
        if plan.has_resource_change(self.address):
            actions = plan.resource_change(self.address).actions
            message += f": it is planned, with action(s): {actions_text(actions)}"
        elif not plan.deferred_changes:
            message += "; the plan has no deferred changes"
        else:
            deferred = sorted({a for a in map(_address, plan.deferred_changes) if a is not None})
            message += "; deferred: " + ", ".join(deferred)
        return [scrubbed_failure(plan.secrets, name, self.address, None, message)]


@public("plancheck")
class ExpectNoDeferredChanges(PlanCheck):
    """Nothing is deferred (no resource change, no action invocation), and the plan is not incomplete.

    Incomplete is ``"complete": false``.

    A plan without ``complete`` (Terraform before 1.8, OpenTofu) cannot hold deferrals
    and passes; Go fails it.

    >>> from plancheck import Plan
    >>> ExpectNoDeferredChanges().CheckPlan(Plan.from_dict({"format_version": "1.2", "complete": True}))
    >>> ExpectNoDeferredChanges().CheckPlan(Plan.from_dict({"format_version": "1.2", "complete": False}))
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectNoDeferredChanges: expected no deferred changes, but the plan is not complete ("complete": false): at least one more plan/apply round is needed to converge
    """

    __slots__ = ()

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """One failure per deferred change, by address; else one if the plan is incomplete."""
        name = type(self).__name__
        found = []
        ordered = sorted(
            plan.deferred_changes, key=lambda d: (_address(d) or "", d.resource_change.deposed or "")
        )
        for deferred in ordered:
            address = _address(deferred)
            deposed = deferred.resource_change.deposed
            subject = "it" if deposed is None else f"its deposed object {quote(deposed)}"
            if address is None:
                subject = "a change without an address"
            message = f"expected no deferred changes, but {subject} is deferred with reason: {quote(deferred.reason)}"
            found.append(scrubbed_failure(plan.secrets, name, address, None, message))
        for deferred_action in sorted(plan.deferred_action_invocations, key=lambda d: d.action_invocation.address):
            ai = deferred_action.action_invocation
            message = (f"expected no deferred changes, but its invocation ({ai.trigger_text}) is deferred with "
                       f"reason: {quote(deferred_action.reason)}")
            found.append(scrubbed_failure(plan.secrets, name, ai.address, None, message))
        if not found and plan.complete is False:
            message = (
                'expected no deferred changes, but the plan is not complete ("complete": false): '
                "at least one more plan/apply round is needed to converge"
            )
            found.append(scrubbed_failure(plan.secrets, name, None, None, message))
        return found


def _trigger_wanted(event: ActionTriggerEvent | None, triggered_by: str | None) -> str:
    """The expected trigger as a message says it: ``on AfterCreate of a.b``, ``on Invoke``, ``by a.b``."""
    if event is not None:
        return f"on {event.value}" + (f" of {triggered_by}" if triggered_by is not None else "")
    return f"by {triggered_by}" if triggered_by is not None else ""


@public("plancheck")
@frozen
class ExpectActionInvocation(PlanCheck):
    """Action ``address`` is invoked (Terraform 1.14+), on ``event`` and by resource ``triggered_by`` when given.

    ``event`` is an :class:`ActionTriggerEvent`.

    ``triggered_by`` is the resource whose ``lifecycle { action_trigger { ... } }`` triggers the action,
    or the calling resource of an action invoked directly; ``event=ActionTriggerEvent.Invoke`` expects
    a direct invocation (``terraform apply -invoke``). One invocation matching is enough: an action
    can be triggered by several resources and events.

    >>> from plancheck import Plan
    >>> plan = Plan.from_dict({"format_version": "1.2", "action_invocations": [{"address": "action.aws_lambda_invoke.notify",
    ...     "lifecycle_action_trigger": {"triggering_resource_address": "aws_instance.web",
    ...         "action_trigger_event": "AfterCreate", "action_trigger_block_index": 0, "actions_list_index": 0}}]})
    >>> ExpectActionInvocation("action.aws_lambda_invoke.notify", event=ActionTriggerEvent.AfterCreate,
    ...                        triggered_by="aws_instance.web").CheckPlan(plan)
    >>> ExpectActionInvocation("action.aws_lambda_invoke.notify", event=ActionTriggerEvent.BeforeDestroy).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectActionInvocation: action.aws_lambda_invoke.notify: expected an invocation on BeforeDestroy, got invocation(s): [AfterCreate of aws_instance.web]
    """

    address: str
    _: KW_ONLY
    event: ActionTriggerEvent | None = None
    triggered_by: str | None = None

    def __post_init__(self) -> None:
        name = type(self).__name__
        if self.event is not None and not isinstance(self.event, ActionTriggerEvent):
            raise ArgumentError(
                f"{name}: event must be an ActionTriggerEvent or None, got {type(self.event).__name__}"
                f"{member_hint(ActionTriggerEvent, self.event)}"
            )
        triggered_by = None if self.triggered_by is None else checked_address(self.triggered_by, name, "triggered_by")
        self._set(address=checked_address(self.address, name), triggered_by=triggered_by)

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failure, if the action is not invoked, or not on that event or by that resource."""
        name = type(self).__name__
        found = find_invocations(plan, self.address)
        if isinstance(found, str):
            return [scrubbed_failure(plan.secrets, name, self.address, None, found)]
        for ai in found:
            if (self.event is None or ai.trigger_event is self.event) and (
                self.triggered_by is None
                or self.triggered_by in (ai.triggering_resource_address, ai.calling_resource_address)
            ):
                return []
        got = ", ".join(ai.trigger_text for ai in found)
        message = f"expected an invocation {_trigger_wanted(self.event, self.triggered_by)}, got invocation(s): [{got}]"
        return [scrubbed_failure(plan.secrets, name, self.address, None, message)]


@public("plancheck")
class ExpectNoActionInvocations(PlanCheck):
    """No action is invoked (Terraform 1.14+), and no invocation is deferred: one failure per invocation, by address.

    >>> from plancheck import Plan
    >>> ExpectNoActionInvocations().CheckPlan(Plan.from_dict({"format_version": "1.2"}))
    >>> ExpectNoActionInvocations().CheckPlan(Plan.from_dict({"format_version": "1.2", "action_invocations": [
    ...     {"address": "action.local_command.hello", "invoke_action_trigger": {}}]}))
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectNoActionInvocations: action.local_command.hello: expected no action invocations, but it is invoked (Invoke)
    """

    __slots__ = ()

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """One failure per invocation and deferred invocation."""
        name = type(self).__name__
        return [
            scrubbed_failure(plan.secrets, name, address, None, f"expected no action invocations, but {clause}")
            for address, clause in _invocation_changes(plan)
        ]


@public("plancheck")
@frozen
class ExpectDeferredActionInvocation(_DeferredCheck):
    """An invocation of action ``address`` is deferred (Terraform 1.14+), with ``reason`` (a :class:`DeferredReason`).

    >>> from plancheck import Plan
    >>> plan = Plan.from_dict({"format_version": "1.2", "complete": False, "deferred_action_invocations": [
    ...     {"reason": "resource_config_unknown", "action_invocation": {"address": "action.t.n", "invoke_action_trigger": {}}}]})
    >>> ExpectDeferredActionInvocation("action.t.n", DeferredReason.ResourceConfigUnknown).CheckPlan(plan)
    >>> ExpectDeferredActionInvocation("action.t.n", DeferredReason.AbsentPrereq).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectDeferredActionInvocation: action.t.n: expected "absent_prereq", got deferred reason(s): ["resource_config_unknown"]
    """

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failure, if no invocation of the action is deferred, or none for this reason."""
        name = type(self).__name__
        reasons = [d.reason for d in plan.deferred_action_invocations if d.action_invocation.address == self.address]
        if self.reason.value in reasons:
            return []
        if reasons:
            got = ", ".join(quote(r) for r in dict.fromkeys(reasons))
            return [scrubbed_failure(plan.secrets, name, self.address, None, f"expected {quote(self.reason.value)}, got deferred reason(s): [{got}]")]
        message = "no deferred invocation found for action"
        invoked = plan.action_invocations_of(self.address)
        if invoked:
            message += ": it is invoked (" + ", ".join(ai.trigger_text for ai in invoked) + ")"
        elif not plan.deferred_action_invocations:
            message += "; the plan has no deferred action invocations"
        else:
            deferred = sorted({d.action_invocation.address for d in plan.deferred_action_invocations})
            message += "; deferred: " + ", ".join(deferred)
        return [scrubbed_failure(plan.secrets, name, self.address, None, message)]
