"""Change-scope checks: what a whole plan may do (replace, destroy, how much of each, only outputs).

"Nothing replaced or destroyed but what I allow": each check lists every resource change that
breaks it, by address (a deposed object after its current one), never just the first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY
from typing import TYPE_CHECKING, Final

from .._checking.messages import actions_text, deposed_prefix
from .._checking.selectors import checked_selector, checked_selectors, item_label
from .._documents.actions import ResourceAction
from .._documents.plan import Plan, ResourceChange
from .._documents.select import Resources
from .._errors import CheckFailure
from .._frozen import constructor_repr, frozen, public
from ._actions import change_sort_key, plan_changes
from ._base import PlanCheck, failure

__all__ = [
    "ExpectActionCounts",
    "ExpectCount",
    "ExpectNoDestroys",
    "ExpectNoReplacements",
    "ExpectNoResourceChanges",
    "ExpectOnlyOutputChanges",
]

# pytest hides this module's frames from tracebacks: failures point at the user's test line,
# and the library's locals (which may hold raw values) are never printed.
__tracebackhide__ = True

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
                found.append(failure(plan, name, rc.address, None, deposed_prefix(rc.deposed) + problem))
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
    ("create", frozenset({ResourceAction.Create, ResourceAction.CreateThenForget}), "to create"),
    ("update", frozenset({ResourceAction.Update}), "to update"),
    ("delete", frozenset({ResourceAction.Destroy}), "to delete"),
    ("replace", _REPLACES, "to replace"),
    ("noop", frozenset({ResourceAction.NoOp}), "unchanged (no-op)"),
    ("read", frozenset({ResourceAction.Read}), "to read"),
    ("forget", frozenset({ResourceAction.Forget, ResourceAction.CreateThenForget}), "to forget"),
)
_COUNT_NAMES: Final = tuple(name for name, _, _ in _CATEGORIES)


def _checked_count(value: object, check: str, what: str) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{check}: {what} must be an int, got {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{check}: {what} must be >= 0, got {value}")
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
    return found


@public("plancheck")
@frozen
class ExpectActionCounts(PlanCheck):
    """The plan has exactly these many resource changes of each action given (those not given are not checked).

    ``create`` counts creates (and create-then-forget), ``update`` in-place updates, ``delete``
    plain deletes (a deposed object's too), ``replace`` replacements in either order (not counted
    as creates or deletes), ``noop`` unchanged resources, ``read`` data sources read during
    apply, ``forget`` objects Terraform stops managing. Every count that differs is one failure,
    listing the addresses behind the count.

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

    def __post_init__(self) -> None:
        name = type(self).__name__
        counts = {key: _checked_count(getattr(self, key), name, key) for key in _COUNT_NAMES}
        if all(value is None for value in counts.values()):
            raise ValueError(f"{name}: give at least one count ({', '.join(_COUNT_NAMES)})")
        self._set(**counts)

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """One failure per count that differs, in the order create, update, delete, replace, noop, read, forget."""
        name = type(self).__name__
        found: list[CheckFailure] = []
        actual = action_counts(plan)
        for key, _, phrase in _CATEGORIES:
            expected = getattr(self, key)
            got = actual[key]
            if expected is None or expected == len(got):
                continue
            text = f"expected {expected} {phrase}, got {len(got)}" + (f": {', '.join(got)}" if got else "")
            found.append(failure(plan, name, None, None, text))
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
            raise TypeError(f"{name}: n must be an int, got NoneType")
        self._set(selector=checked_selector(self.selector, name), n=count)

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failure, if the selector selects another number of resource changes."""
        got = sorted(rc.address for rc in self.selector.select(plan) if rc.deposed is None)
        if len(got) == self.n:
            return []
        noun = "resource" if self.n == 1 else "resources"
        text = f"expected {self.n} {noun}, got {len(got)}" + (f": {', '.join(got)}" if got else "")
        return [failure(plan, type(self).__name__, self.selector.describe(), None, text)]


def _resource_changes(plan: Plan, check: str, expected: str) -> list[CheckFailure]:
    return [
        failure(plan, check, address, None, f"expected {expected}, but {reason}")
        for address, reason in plan_changes(plan, outputs=False)
    ]


@public("plancheck")
class ExpectNoResourceChanges(PlanCheck):
    """No resource changes: every resource is a no-op, none moves, is imported or deferred (outputs may change).

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
        return _resource_changes(plan, type(self).__name__, "no resource changes")


@public("plancheck")
class ExpectOnlyOutputChanges(PlanCheck):
    """The plan changes outputs and nothing else: at least one output changes, and no resource does.

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
        found = _resource_changes(plan, name, "only output changes")
        if not any(tuple(out.actions) != ("no-op",) for out in plan.output_changes.values()):
            found.append(failure(plan, name, None, None, "expected output changes, but the plan changes no output"))
        return found

