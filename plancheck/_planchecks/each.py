"""Whole-plan value checks: one question asked of every resource a selector selects, three verdicts.

``ExpectEachKnownValue``, ``ExpectEachSensitiveValue``, ``ExpectEachUnknownValue`` and
``ExpectEachNullValue`` run the single-resource check on the planned (``after``) value of every
resource change a :class:`~plancheck.Resources` selector selects. Each resource passes, fails, or
is *unknown until apply* (the value, or an ancestor of it, is unknown in the plan), and
``unknown="fail" | "pass" | "warn"`` says what the third verdict does: it is never counted as a
pass or a failure in silence.

Objects with no planned value (deleted or forgotten, and deposed objects, which are destroyed)
are not checked: there is no after-value to ask about. A selector that leaves nothing to check
fails, naming the selector, unless it says ``allow_empty=True``.

With an :class:`~plancheck.Actions` selector the same four questions are asked of every selected
action invocation's configuration (``config_values`` with its ``config_unknown`` and
``config_sensitive`` marks), each invocation named by its address and trigger.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import KW_ONLY, field
from typing import TYPE_CHECKING, Any, Literal

from tfjsonpath import Path

from .._checking.fields import (
    check_fields,
    checked_matcher,
    checked_path,
    checked_plan_selector,
    checked_unknown_mode,
    empty_selection,
    item_label,
)
from .._checking.match import (
    Item,
    Verdict,
    each_outcome,
    match_verdict,
    no_planned_value,
    path_text,
    sensitive_problem,
)
from .._checking.messages import scrubbed_failure
from .._checking.run import emit_warnings
from .._documents.plan import Plan
from .._documents.resolve import ABSENT_VALUE, ValueStatus, known_value_at, resolve_value, value_at
from .._documents.select import Actions, Resources
from .._errors import CheckFailure, PlanCheckWarning
from .._frozen import constructor_repr, frozen, public
from .._redact import walk_marks
from ..knownvalue import Check
from .base import PlanCheck
from .values import config_change

__all__ = [
    "ExpectEachKnownValue",
    "ExpectEachNullValue",
    "ExpectEachSensitiveValue",
    "ExpectEachUnknownValue",
]

# pytest hides this module's frames from tracebacks: failures point at the user's test line,
# and the library's locals (which may hold raw values) are never printed.
__tracebackhide__ = True

#: (change, path, plan) -> the verdict on one resource, and its detail.
_Judge = Callable[[Mapping[str, Any], Path, Plan], "tuple[Verdict, str]"]

UnknownMode = Literal["fail", "pass", "warn"]


@frozen
class _EachCheck(PlanCheck):
    """What the four checks share: the selector, the path, ``unknown=``, and the walk over the plan."""

    selector: Resources | Actions
    path: Path
    _: KW_ONLY
    unknown: UnknownMode = "fail"

    if TYPE_CHECKING:  # the constructor takes more than the fields hold: __post_init__ converts
        def __init__(self, selector: Resources | Actions | str, path: Path, *, unknown: UnknownMode = "fail") -> None: ...

    def __post_init__(self) -> None:
        check_fields(self, selector=checked_plan_selector, path=checked_path, unknown=checked_unknown_mode)

    def _judge(self, change: Mapping[str, Any], path: Path, plan: Plan) -> tuple[Verdict, str]:
        raise NotImplementedError

    def outcome(self, plan: Plan) -> tuple[list[CheckFailure], list[PlanCheckWarning]]:
        """The failure (failed and, under ``unknown="fail"``, unknown resources) and the warning (``"warn"``)."""
        name = type(self).__name__
        selector = self.selector
        if isinstance(selector, Actions):
            return self._action_outcome(plan, selector)
        items: list[Item] = []
        skipped: list[str] = []
        path = self.path
        judge = self._judge
        passed = 0
        empty: dict[str, Any] = {}
        for rc in selector.select(plan):
            change = rc.raw.get("change") or empty  # read directly: the wrappers were a third of a pass
            deposed = rc.deposed
            if deposed is not None or (change.get("after") is None and no_planned_value(change, "resource")):
                skipped.append(item_label(rc.address, deposed))
                continue
            verdict, detail = judge(change, path, plan)
            if verdict is Verdict.PASS:
                passed += 1
            else:
                items.append(Item(item_label(rc.address, None), verdict, detail))
        subject = selector.describe()
        if not items and not passed:
            if selector.allow_empty:
                return [], []
            message = empty_selection(
                selector,
                "plan",
                sorted(skipped),
                (str(rc.type) for rc in plan.resource_changes if rc.type),
                plan.addresses(),
            )
            return [scrubbed_failure(plan.secrets, name, subject, None, message)], []
        return each_outcome(name, subject, path, items, self.unknown, plan, passed=passed)

    def _action_outcome(self, plan: Plan, selector: Actions) -> tuple[list[CheckFailure], list[PlanCheckWarning]]:
        """:meth:`outcome` over the configuration of each action invocation ``selector`` selects."""
        items: list[Item] = []
        passed = 0
        for ai in selector.select(plan):
            verdict, detail = self._judge(config_change(ai), self.path, plan)
            if verdict is Verdict.PASS:
                passed += 1
            else:
                items.append(Item(f"{ai.address} ({ai.trigger_text})", verdict, detail))
        subject = selector.describe()
        if not items and not passed:
            if selector.allow_empty:
                return [], []
            return [scrubbed_failure(plan.secrets, type(self).__name__, subject, None, empty_invocations(plan))], []
        return each_outcome(type(self).__name__, subject, self.path, items, self.unknown, plan, passed=passed)

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failures; under ``unknown="warn"`` the warning is emitted from here (never a silent pass)."""
        found, warned = self.outcome(plan)
        emit_warnings(warned)
        return found

    def __repr__(self) -> str:
        args, kwargs = self._args()
        if kwargs.get("unknown") == "fail":
            kwargs["unknown"] = None  # the default stays out of the repr
        return constructor_repr(type(self).__name__, *args, **kwargs)


def empty_invocations(plan: Plan) -> str:
    """The failure message of an :class:`~plancheck.Actions` selector that selects no invocation: what the plan invokes.

    >>> empty_invocations(Plan.from_dict({"format_version": "1.2", "action_invocations": [
    ...     {"address": "action.t.b", "invoke_action_trigger": {}}, {"address": "action.t.a", "invoke_action_trigger": {}}]}))
    'selects no action invocation in the plan; it invokes: action.t.a (Invoke), action.t.b (Invoke) (allow_empty=True on the selector accepts that)'
    """
    invoked = sorted(f"{ai.address} ({ai.trigger_text})" for ai in plan.action_invocations)
    what = f"it invokes: {', '.join(invoked)}" if invoked else "it invokes no action"
    return f"selects no action invocation in the plan; {what} (allow_empty=True on the selector accepts that)"


def _judge_known(change: Mapping[str, Any], path: Path, plan: Plan, matcher: Check) -> tuple[Verdict, str]:
    # Known and matching: decided without resolving the marks (the common case of a large plan).
    value = known_value_at(change.get("after"), change.get("after_unknown"), path)
    if value is not ABSENT_VALUE and matcher._passes(value):
        return Verdict.PASS, ""
    return match_verdict(resolve_value(change, path=path, side="after"), matcher, plan, path)


@public("plancheck")
@frozen
class ExpectEachKnownValue(_EachCheck):
    """The planned value at ``path`` of every resource ``selector`` selects matches the knownvalue check ``matcher``.

    ``selector`` is a :class:`~plancheck.Resources` or an address glob (``"aws_s3_bucket.*"``), or an
    :class:`~plancheck.Actions`: then each selected action invocation's configuration is checked.
    A resource whose value is unknown (or has unknown parts the matcher would need) is *unknown until
    apply*: ``unknown="fail"`` (the default) fails the check and names it apart from the failing
    ones, ``"warn"`` emits a :class:`~plancheck.PlanCheckWarning`, ``"pass"`` lets it pass. A value
    whose known parts already fail is a failure. Null, absent and sensitive values are told apart;
    sensitive values are compared but never shown.

    >>> from plancheck import Plan, Resources, knownvalue as kv
    >>> from tfjsonpath import New
    >>> def bucket(name, after, unknown=None):
    ...     return {"address": f"aws_s3_bucket.{name}", "type": "aws_s3_bucket", "name": name, "mode": "managed",
    ...             "change": {"actions": ["create"], "after": after, "after_unknown": unknown or {}}}
    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [
    ...     bucket("a", {"tags": {"team": "platform"}}), bucket("b", {"tags": {"team": "data"}}),
    ...     bucket("c", {}, {"tags": True}), bucket("d", {"tags": None})]})
    >>> check = ExpectEachKnownValue(Resources(type="aws_s3_bucket"), New("tags").AtMapKey("team"), kv.StringExact("platform"))
    >>> check.CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectEachKnownValue: Resources(type='aws_s3_bucket'): tags["team"]: 2 of 4 failed: aws_s3_bucket.b: expected value "platform" for StringExact check, got: "data"; aws_s3_bucket.d: expected string value for StringExact check, got: null (tags is null); expected "platform"; 1 of 4 unknown until apply: aws_s3_bucket.c (tags)
    >>> ExpectEachKnownValue("aws_s3_bucket.[ac]", New("tags"), kv.NotNull())
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: ExpectEachKnownValue: selector 'aws_s3_bucket.[ac]' is not a valid pattern: [ac] at offset 14 is neither [N], ["key"] nor [*]
    """

    matcher: Check

    if TYPE_CHECKING:
        def __init__(
            self, selector: Resources | Actions | str, path: Path, matcher: Check, *, unknown: UnknownMode = "fail"
        ) -> None: ...

    def __post_init__(self) -> None:
        check_fields(
            self,
            selector=checked_plan_selector,
            path=checked_path,
            matcher=checked_matcher,
            unknown=checked_unknown_mode,
        )

    def _judge(self, change: Mapping[str, Any], path: Path, plan: Plan) -> tuple[Verdict, str]:
        return _judge_known(change, path, plan, self.matcher)


_NOT_SENSITIVE = "expected a sensitive value, but "


def _judge_sensitive(change: Mapping[str, Any], path: Path, plan: Plan) -> tuple[Verdict, str]:
    if walk_marks(change.get("after_sensitive"), path.steps)[0] >= 0 and (
        value_at(change.get("after"), path) is not ABSENT_VALUE or walk_marks(change.get("after_unknown"), path.steps)[0] >= 0
    ):
        return Verdict.PASS, ""
    resolved = resolve_value(change, path=path, side="after")
    if resolved.sensitive and resolved.status is not ValueStatus.ABSENT:
        return Verdict.PASS, ""
    if resolved.status is ValueStatus.UNKNOWN:
        return Verdict.UNKNOWN, path_text(resolved.unknown_at if resolved.unknown_at is not None else path)
    unmarked = None if "after_sensitive" in change else "this plan records no after_sensitive marks"
    problem = sensitive_problem(resolved, plan, unmarked) or ""
    return Verdict.FAIL, problem.removeprefix(_NOT_SENSITIVE)


@public("plancheck")
class ExpectEachSensitiveValue(_EachCheck):
    """The planned value at ``path`` of every resource ``selector`` selects is marked sensitive (or an ancestor is).

    A sensitive value passes whether known, null or unknown; a value that is unknown and not
    marked is *unknown until apply* (``unknown=`` decides); one that is known and not marked, or
    only partly marked, or absent, fails.

    >>> from plancheck import Plan, knownvalue as kv
    >>> from tfjsonpath import New
    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [
    ...     {"address": "aws_db_instance.a", "type": "aws_db_instance", "change": {"actions": ["create"],
    ...      "after": {"password": "hunter2"}, "after_sensitive": {"password": True}}},
    ...     {"address": "aws_db_instance.b", "type": "aws_db_instance", "change": {"actions": ["create"],
    ...      "after": {"password": "hunter3"}, "after_sensitive": {}}}]})
    >>> ExpectEachSensitiveValue("aws_db_instance.*", New("password")).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectEachSensitiveValue: Resources(address='aws_db_instance.*'): password: 1 of 2 failed: aws_db_instance.b: it is not sensitive; it is known: "hunter3"
    """

    __slots__ = ()

    def _judge(self, change: Mapping[str, Any], path: Path, plan: Plan) -> tuple[Verdict, str]:
        return _judge_sensitive(change, path, plan)


def _judge_unknown(change: Mapping[str, Any], path: Path, plan: Plan) -> tuple[Verdict, str]:
    if walk_marks(change.get("after_unknown"), path.steps)[0] >= 0:
        return Verdict.PASS, ""
    resolved = resolve_value(change, path=path, side="after")
    if resolved.unknown:
        return Verdict.PASS, ""
    return Verdict.FAIL, "it is " + resolved.describe(plan.secrets)


@public("plancheck")
@frozen
class ExpectEachUnknownValue(_EachCheck):
    """The planned value at ``path`` of every resource ``selector`` selects is unknown (known only after apply).

    Two verdicts only: unknown passes; known, null or absent fails.

    >>> from plancheck import Plan
    >>> from tfjsonpath import New
    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [
    ...     {"address": "null_resource.a", "change": {"actions": ["create"], "after": {}, "after_unknown": {"id": True}}},
    ...     {"address": "null_resource.b", "change": {"actions": ["no-op"], "after": {"id": "42"}, "after_unknown": {}}}]})
    >>> ExpectEachUnknownValue("null_resource.*", New("id")).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectEachUnknownValue: Resources(address='null_resource.*'): id: 1 of 2 failed: null_resource.b: it is known: "42"
    """

    unknown: UnknownMode = field(default="fail", init=False)

    if TYPE_CHECKING:
        def __init__(self, selector: Resources | Actions | str, path: Path) -> None: ...

    def _judge(self, change: Mapping[str, Any], path: Path, plan: Plan) -> tuple[Verdict, str]:
        return _judge_unknown(change, path, plan)


def _judge_null(change: Mapping[str, Any], path: Path, plan: Plan) -> tuple[Verdict, str]:
    resolved = resolve_value(change, path=path, side="after")
    if resolved.status is ValueStatus.NULL:
        return Verdict.PASS, ""
    if resolved.status is ValueStatus.UNKNOWN:
        return Verdict.UNKNOWN, path_text(resolved.unknown_at if resolved.unknown_at is not None else path)
    return Verdict.FAIL, "it is " + resolved.describe(plan.secrets)


@public("plancheck")
class ExpectEachNullValue(_EachCheck):
    """The planned value at ``path`` of every resource ``selector`` selects is null (itself or a null ancestor).

    An absent attribute is not null: it fails, saying "not present". An unknown value is
    *unknown until apply* (``unknown=`` decides).

    >>> from plancheck import Plan
    >>> from tfjsonpath import New
    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [
    ...     {"address": "aws_instance.a", "change": {"actions": ["create"], "after": {"key_name": None}}},
    ...     {"address": "aws_instance.b", "change": {"actions": ["create"], "after": {}, "after_unknown": {"key_name": True}}}]})
    >>> ExpectEachNullValue("aws_instance.*", New("key_name"), unknown="pass").CheckPlan(plan)
    >>> ExpectEachNullValue("aws_instance.*", New("key_name")).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectEachNullValue: Resources(address='aws_instance.*'): key_name: 1 of 2 unknown until apply: aws_instance.b (key_name)
    """

    __slots__ = ()

    def _judge(self, change: Mapping[str, Any], path: Path, plan: Plan) -> tuple[Verdict, str]:
        return _judge_null(change, path, plan)
