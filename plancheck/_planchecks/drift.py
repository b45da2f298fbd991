"""Drift checks: what changed outside Terraform since the last apply (the plan's ``resource_drift``).

Terraform records drift when it refreshes before planning: each drifted object's value in the
last state (``before``) and as read now (``after``). A failure names every drifted path as
``path: before -> after``; sensitive values are ``(sensitive)`` on either side (and a sensitive
map's keys are never named), a value unknown in the plan is ``(known after apply)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from tfjsonpath import MapStep, Path, SliceStep

from .._checking.equality import render_compared
from .._checking.fields import checked_address, checked_path, checked_selector, empty_selection
from .._checking.messages import actions_text, deposed_prefix, scrubbed_failure
from .._documents.plan import Plan, ResourceChange
from .._documents.select import Resources
from .._errors import CheckFailure
from .._frozen import constructor_repr, frozen, public
from .._redact import KNOWN_AFTER_APPLY, Marks, Secrets, child_marks, fit_marks
from .base import PlanCheck
from .changes import change_sort_key

__all__ = ["ExpectDrift", "ExpectNoDrift", "drift_differences"]

# pytest hides this module's frames from tracebacks: failures point at the user's test line,
# and the library's locals (which may hold raw values) are never printed.
__tracebackhide__ = True


class _Missing:
    __slots__ = ()


_MISSING: Final[Any] = _Missing()
_ABSENT_TEXT: Final = "(not present)"


def _same_scalar(a: Any, b: Any) -> bool:
    # JSON's types are strict: true is not 1, "1" is not 1.
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, str) or isinstance(b, str):
        return type(a) is type(b) and a == b
    return bool(a == b)


def _pair(before: Any, after: Any, before_marks: Marks, after_marks: Marks, secrets: Secrets,
          after_unknown: bool = False) -> tuple[str, str]:
    """Both sides of a drifted path as text, each under the marks of *both* sides.

    A provider upgrade may mark a value in ``after_sensitive`` only: the old value in ``before`` is the
    same secret (or its predecessor), so it is hidden too (:func:`plancheck._checking.equality.render_compared`,
    the one rule for every pair of values shown side by side).
    """
    values = [None if before is _MISSING else before, None if after is _MISSING or after_unknown else after]
    shown = render_compared(values, [before_marks, after_marks], secrets, (0, 1))
    return (
        _ABSENT_TEXT if before is _MISSING else shown[0],
        KNOWN_AFTER_APPLY if after_unknown else _ABSENT_TEXT if after is _MISSING else shown[1],
    )


def drift_differences(change: Mapping[str, Any], secrets: Secrets) -> list[tuple[Path, str, str]]:
    """Every path where a drift entry's ``before`` and ``after`` differ, as (path, before text, after text).

    A sensitive value (marked on either side) is compared whole and shown as ``(sensitive)`` on
    both sides, so the keys of a sensitive map are never named, and a value a provider upgrade
    marked in ``after_sensitive`` only does not show its old text from ``before``. In path order.

    >>> drift_differences({"before": {"a": 1, "pw": "x", "t": {"k": "v"}}, "after": {"a": 2, "pw": "y", "t": {}},
    ...     "before_sensitive": {"pw": True}, "after_sensitive": {"pw": True}}, Secrets())
    [(Path(MapStep('a')), '1', '2'), (Path(MapStep('pw')), '(sensitive)', '(sensitive)'), (Path(MapStep('t'), MapStep('k')), '"v"', '(not present)')]
    >>> drift_differences({"before": {"pw": "old"}, "after": {"pw": "new"}, "after_sensitive": {"pw": True}}, Secrets())
    [(Path(MapStep('pw')), '(sensitive)', '(sensitive)')]
    """
    found: list[tuple[Path, str, str]] = []
    stack: list[tuple[Path, Any, Any, Marks, Marks, Marks]] = [(
        Path(), change.get("before"), change.get("after"), change.get("before_sensitive"),
        change.get("after_sensitive"), change.get("after_unknown"),
    )]
    while stack:
        path, before, after, before_marks, after_marks, unknown = stack.pop()
        before_marks = fit_marks(before_marks, None if before is _MISSING else before)
        after_marks = fit_marks(after_marks, None if after is _MISSING else after)
        if fit_marks(unknown, None if after is _MISSING else after) is True:
            found.append((path, *_pair(before, after, before_marks, after_marks, secrets, after_unknown=True)))
            continue
        if before_marks is True or after_marks is True:
            if before is _MISSING or after is _MISSING or before != after or before_marks != after_marks:
                found.append((path, *_pair(before, after, before_marks, after_marks, secrets)))
            continue
        if isinstance(before, Mapping) and isinstance(after, Mapping):
            for key in sorted(set(before) | set(after), reverse=True):
                step = MapStep(str(key))
                stack.append((
                    path.join(str(key)), before.get(key, _MISSING), after.get(key, _MISSING),
                    child_marks(before_marks, step), child_marks(after_marks, step), child_marks(unknown, step),
                ))
            continue
        if isinstance(before, list) and isinstance(after, list):
            for i in range(max(len(before), len(after)) - 1, -1, -1):
                step_i = SliceStep(i)
                stack.append((
                    path.join(i), before[i] if i < len(before) else _MISSING, after[i] if i < len(after) else _MISSING,
                    child_marks(before_marks, step_i), child_marks(after_marks, step_i), child_marks(unknown, step_i),
                ))
            continue
        if isinstance(before, (Mapping, list)) or isinstance(after, (Mapping, list)) or not _same_scalar(before, after):
            if before is _MISSING and after is _MISSING:
                continue
            found.append((path, *_pair(before, after, before_marks, after_marks, secrets)))
    return found


def _drift_text(rc: ResourceChange, secrets: Secrets) -> str:
    """What changed outside Terraform: deleted, or each drifted path as ``path: before -> after``."""
    change = rc.change.raw
    actions = rc.actions
    if "delete" in actions and change.get("after") is None:
        return "it was deleted outside Terraform"
    differences = drift_differences(change, secrets)
    if not differences:
        return f"it is listed as drifted (action(s) {actions_text(actions)}), but no attribute differs"
    parts = [f"{p.to_text() or '(the whole value)'}: {before} -> {after}" for p, before, after in differences]
    return "it changed outside Terraform: " + "; ".join(parts)


def _selected(selector: Resources, drifted: ResourceChange, plan: Plan) -> bool:
    """Whether ``selector`` selects a drifted object; its ``action`` is the one the plan plans for it.

    A drift entry's own actions only say how it drifted (update, delete); "no drift among the
    resources this plan leaves alone" means the planned action.
    """
    if selector.action is None:
        return selector.matches(drifted)
    if not plan.has_resource_change(drifted.address, deposed=drifted.deposed):
        return False
    return selector.matches(plan.resource_change(drifted.address, deposed=drifted.deposed))


@public("plancheck")
@frozen
class ExpectNoDrift(PlanCheck):
    """Nothing ``selector`` selects (default: every resource) changed outside Terraform since the last apply.

    Reads the plan's ``resource_drift`` (recorded when Terraform refreshes before planning; a
    ``-refresh=false`` plan has none). Each drifted object is one failure naming every drifted
    path, ``before -> after``, secrets redacted. A ``selector`` that selects no resource of the
    plan at all fails, unless it says ``allow_empty=True``.

    >>> from plancheck import Plan
    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_drift": [{"address": "widget_thing.t",
    ...     "change": {"actions": ["update"], "before": {"size": 3, "secret": "a"}, "after": {"size": 4, "secret": "b"},
    ...                "before_sensitive": {"secret": True}, "after_sensitive": {"secret": True}}}]})
    >>> ExpectNoDrift().CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectNoDrift: widget_thing.t: expected no drift, but it changed outside Terraform: secret: (sensitive) -> (sensitive); size: 3 -> 4
    """

    selector: Resources | None = None

    if TYPE_CHECKING:  # the constructor takes more than the fields hold: __post_init__ converts
        def __init__(self, selector: Resources | str | None = None) -> None: ...

    def __post_init__(self) -> None:
        name = type(self).__name__
        self._set(selector=None if self.selector is None else checked_selector(self.selector, name))

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """One failure per drifted object selected, by address."""
        name = type(self).__name__
        selector = self.selector
        drifted = sorted(plan.resource_drift, key=change_sort_key)
        if selector is not None:
            if not selector.allow_empty and not any(selector.matches(rc) for rc in (*plan.resource_changes, *drifted)):
                kinds = (str(rc.type) for rc in (*plan.resource_changes, *drifted) if rc.type)
                addresses = [rc.address for rc in (*plan.resource_changes, *drifted)]
                return [scrubbed_failure(plan.secrets, name, selector.describe(), None, empty_selection(selector, "plan", [], kinds, addresses))]
            drifted = [rc for rc in drifted if _selected(selector, rc, plan)]
        if not drifted:
            return []
        secrets = plan.secrets  # collected only when something drifted: it reads the whole plan
        return [
            scrubbed_failure(plan.secrets, name, rc.address, None, deposed_prefix(rc.deposed) + "expected no drift, but "
                    + _drift_text(rc, secrets))
            for rc in drifted
        ]

    def __repr__(self) -> str:
        return constructor_repr(type(self).__name__, *(() if self.selector is None else (self.selector,)))


@public("plancheck")
@frozen
class ExpectDrift(PlanCheck):
    """Resource ``address`` changed outside Terraform since the last apply (at ``path``, when given).

    With ``path``, the drift must touch it: the value there, something inside it, or a value
    that holds it changed (a deleted object has drifted everywhere).

    >>> from plancheck import Plan
    >>> from tfjsonpath import New
    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_drift": [{"address": "widget_thing.t",
    ...     "change": {"actions": ["update"], "before": {"size": 3, "name": "a"}, "after": {"size": 4, "name": "a"}}}]})
    >>> ExpectDrift("widget_thing.t", New("size")).CheckPlan(plan)
    >>> ExpectDrift("widget_thing.t", New("name")).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectDrift: widget_thing.t: name: expected drift at name, but it has not drifted there; drifted: size: 3 -> 4
    """

    address: str
    path: Path | None = None

    def __post_init__(self) -> None:
        name = type(self).__name__
        self._set(address=checked_address(self.address, name), path=None if self.path is None else checked_path(self.path, name))

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failure, if the resource has not drifted (there)."""
        name = type(self).__name__
        drifted = sorted(plan.resource_drift, key=change_sort_key)
        mine = [rc for rc in drifted if rc.address == self.address and rc.deposed is None]
        if not mine:
            if not drifted:
                text = "expected drift, but the plan records no drift (none found when Terraform refreshed)"
            else:
                text = "expected drift, but it has not drifted; drifted: " + ", ".join(
                    dict.fromkeys(rc.address for rc in drifted))
            return [scrubbed_failure(plan.secrets, name, self.address, None, text)]
        rc = mine[0]
        if self.path is None:
            return []
        change = rc.change.raw
        if "delete" in rc.actions and change.get("after") is None:
            return []
        differences = drift_differences(change, plan.secrets)
        wanted = self.path
        if any(p == wanted or p.is_parent_of(wanted) or p.is_child_of(wanted) for p, _, _ in differences):
            return []
        listed = "; ".join(f"{p.to_text() or '(the whole value)'}: {b} -> {a}" for p, b, a in differences)
        text = f"expected drift at {wanted.to_text() or '(the whole value)'}, but it has not drifted there; drifted: {listed}"
        return [scrubbed_failure(plan.secrets, name, self.address, wanted, text)]

    def __repr__(self) -> str:
        return constructor_repr(type(self).__name__, self.address, *(() if self.path is None else (self.path,)))
