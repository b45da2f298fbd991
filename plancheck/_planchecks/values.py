"""Checks on one planned value: known (a knownvalue check matches), unknown, sensitive, null or absent.

A ``true`` in ``after_unknown``/``after_sensitive`` covers the value at that point
and everything below it, so a path is unknown (sensitive) when the mark is at the
path *or at any ancestor*: real plans mark whole maps, ``{"triggers": true}``.
Go's plancheck looks at the exact path only and fails there.

A known-value check resolves the value together with its unknown and sensitive marks first, so an
unknown value fails saying "unknown" (Go hands the matcher a null for an unknown
list element, and ``knownvalue.Null()`` then passes), sensitive parts are compared
but never shown, and a missing attribute is told apart from a null one.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import KW_ONLY
from functools import partial
from typing import Any, Final

from tfjsonpath import MapStep, Path

from .._checking.fields import (
    OutputFields,
    OutputMatcherFields,
    OutputPathFields,
    OutputPathMatcherFields,
    ResourcePathFields,
    ResourcePathMatcherFields,
    check_fields,
    checked_address,
    checked_matcher,
    checked_path,
)
from .._checking.match import match_failures, no_planned_value, sensitive_problem
from .._checking.messages import actions_text, deposed_prefix, output_address, scrubbed_failure
from .._documents.plan import ActionInvocation, Plan
from .._documents.resolve import (
    ABSENT_VALUE,
    ValueStatus,
    known_value_at,
    resolve_value,
    value_at,
)
from .._errors import CheckFailure
from .._frozen import FrozenValue, frozen, public
from .._redact import walk_marks
from ..knownvalue import Check
from .base import PlanCheck, find_change, find_invocations, find_output

__all__ = [
    "ExpectKnownActionConfigValue",
    "ExpectKnownOutputValue",
    "ExpectKnownOutputValueAtPath",
    "ExpectKnownValue",
    "ExpectNoValue",
    "ExpectNullOutputValue",
    "ExpectNullOutputValueAtPath",
    "ExpectSensitiveActionConfigValue",
    "ExpectSensitiveOutputValue",
    "ExpectSensitiveValue",
    "ExpectUnknownActionConfigValue",
    "ExpectUnknownOutputValue",
    "ExpectUnknownOutputValueAtPath",
    "ExpectUnknownValue",
]


# pytest hides this module's frames from tracebacks: failures point at the user's test line,
# and the library's locals (which may hold raw values) are never printed.
__tracebackhide__ = True

_ROOT = Path()


def _known_failure(
    check: PlanCheck,
    plan: Plan,
    change: Mapping[str, Any],
    address: str,
    path: Path,
    matcher: Check,
    prefix: str,
    what: str,
) -> list[CheckFailure]:
    name = type(check).__name__
    gone = no_planned_value(change, what)
    if gone is not None:
        return [scrubbed_failure(plan.secrets, name, address, path, f"{prefix}value is {gone}")]
    # Known or null, and present: a check that passes whatever the marks (a scalar) decides
    # here, without resolving the marks; anything else goes through match_failures.
    value = known_value_at(change.get("after"), change.get("after_unknown"), path)
    if value is not ABSENT_VALUE and matcher._passes(value):
        return []
    return match_failures(plan, name, address, resolve_value(change, path=path, side="after"), matcher, prefix)


@public("plancheck")
class ExpectKnownValue(ResourcePathMatcherFields, PlanCheck):
    """The planned value at ``path`` of resource ``address`` matches the knownvalue check ``matcher``.

    Reads ``after`` with its marks: an unknown value (or one with unknown parts)
    fails saying "unknown", whatever the matcher; sensitive values are compared but
    shown as ``(sensitive)``; a null ancestor makes the value null; a missing
    attribute fails as "not present". ``deposed=`` checks a deposed object.
    The failure names the full path of the first mismatch inside the value.

    >>> from plancheck import Plan, knownvalue as kv
    >>> from tfjsonpath import New
    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [{"address": "test_resource.one",
    ...     "change": {"actions": ["create"], "after": {"list_attribute": ["value1", "value2"], "name": "x"},
    ...                "after_unknown": {"id": True}}}]})
    >>> ExpectKnownValue("test_resource.one", New("name"), kv.StringExact("x")).CheckPlan(plan)
    >>> ExpectKnownValue("test_resource.one", New("list_attribute"),
    ...                  kv.ListExact([kv.StringExact("value3"), kv.StringExact("value2")])).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectKnownValue: test_resource.one: list_attribute[0]: expected value "value3" for StringExact check, got: "value1"
    >>> ExpectKnownValue("test_resource.one", New("id"), kv.NotNull()).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectKnownValue: test_resource.one: id: value is unknown; expected <not null>
    """

    __slots__ = ()

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failure, if the value does not match, is unknown or absent, or the resource is not planned."""
        change = find_change(plan, self.address, self.deposed)
        if isinstance(change, str):
            return [scrubbed_failure(plan.secrets, type(self).__name__, self.address, None, change)]
        return _known_failure(
            self,
            plan,
            change,
            self.address,
            self.path,
            self.matcher,
            deposed_prefix(self.deposed),
            "resource",
        )


def _output_known_failures(
    check: PlanCheck, plan: Plan, name: str, path: Path, matcher: Check
) -> list[CheckFailure]:
    output = find_output(plan, name)
    if isinstance(output, str):
        return [scrubbed_failure(plan.secrets, type(check).__name__, output_address(name), None, output)]
    return _known_failure(check, plan, output.change.raw, output_address(name), path, matcher, "", "output")


@public("plancheck")
class ExpectKnownOutputValue(OutputMatcherFields, PlanCheck):
    """The planned value of output ``name`` matches ``matcher`` (an unknown output fails saying so).

    >>> from plancheck import Plan, knownvalue as kv
    >>> plan = Plan.from_dict({"format_version": "1.2", "output_changes": {
    ...     "port": {"actions": ["create"], "after": 8080, "after_unknown": False},
    ...     "pw": {"actions": ["create"], "after": "hunter2", "after_unknown": False, "after_sensitive": True}}})
    >>> ExpectKnownOutputValue("port", kv.Int64Exact(8080)).CheckPlan(plan)
    >>> ExpectKnownOutputValue("pw", kv.StringExact("hunter3")).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectKnownOutputValue: output.pw: expected value (sensitive) for StringExact check, got: (sensitive)
    """

    __slots__ = ()

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failure, if the output does not match, is unknown, or is not in the plan."""
        return _output_known_failures(self, plan, self.name, _ROOT, self.matcher)


@public("plancheck")
class ExpectKnownOutputValueAtPath(OutputPathMatcherFields, PlanCheck):
    """The planned value at ``path`` inside output ``name`` matches ``matcher``.

    >>> from plancheck import Plan, knownvalue as kv
    >>> from tfjsonpath import New
    >>> plan = Plan.from_dict({"format_version": "1.2", "output_changes": {"res": {"actions": ["create"],
    ...     "after": {"string_attribute": "str"}, "after_unknown": {"id": True}}}})
    >>> ExpectKnownOutputValueAtPath("res", New("string_attribute"), kv.StringExact("str")).CheckPlan(plan)
    >>> ExpectKnownOutputValueAtPath("res", New("string_attribute"), kv.StringExact("rts")).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectKnownOutputValueAtPath: output.res: string_attribute: expected value "rts" for StringExact check, got: "str"
    """

    __slots__ = ()

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failure, if the value does not match, is unknown or absent, or the output is not in the plan."""
        return _output_known_failures(self, plan, self.name, self.path, self.matcher)


def _missing_from_its_parent(value: Any, path: Path) -> bool:
    """True if following ``path`` stops at a missing key or index; False if it meets a value of the wrong kind.

    Only asked about a path that resolved as absent.
    """
    current = value
    for step in path.steps:
        if isinstance(step, MapStep):
            if not isinstance(current, Mapping):
                return False
            if step.key not in current:
                return True
            current = current[step.key]
        else:
            if not isinstance(current, Sequence) or isinstance(current, (str, bytes)):
                return False
            if step.index >= len(current):
                return True
            current = current[step.index]
    return False


def _no_value_problem(change: Mapping[str, Any], path: Path, plan: Plan, what: str) -> str | None:
    actions = tuple(change.get("actions") or ())
    if no_planned_value(change, what) is not None:
        return f"expected no value, but the {what} has no planned value at all (action(s): {actions_text(actions)})"
    resolved = resolve_value(change, path=path, side="after")
    if resolved.status is ValueStatus.ABSENT:
        if _missing_from_its_parent(change.get("after"), path):
            return None
        return f"expected no value, but the path does not fit the value: {resolved.reason}"
    return "expected no value, but it is " + resolved.describe(plan.secrets)


# (change, path, plan, "resource" or "output") -> the failure message, or None when the check holds.
_Problem = Callable[[Mapping[str, Any], Path, Plan, str], "str | None"]


# A deleted or forgotten object has no planned value, whatever its marks say; that is checked first.


def _unknown_problem(change: Mapping[str, Any], path: Path, plan: Plan, what: str) -> str | None:
    gone = no_planned_value(change, what)
    if gone is not None:
        return "expected an unknown value, but it is " + gone
    if walk_marks(change.get("after_unknown"), path.steps)[0] >= 0:
        return None  # passing on the mark alone; only a failure needs the value resolved and described
    resolved = resolve_value(change, path=path, side="after")
    if resolved.unknown:
        return None
    return "expected an unknown value, but it is " + resolved.describe(plan.secrets)


def _sensitive_problem(change: Mapping[str, Any], path: Path, plan: Plan, what: str) -> str | None:
    gone = no_planned_value(change, what)
    if gone is not None:
        return "expected a sensitive value, but it is " + gone
    if walk_marks(change.get("after_sensitive"), path.steps)[0] >= 0 and (
        value_at(change.get("after"), path) is not ABSENT_VALUE
        or walk_marks(change.get("after_unknown"), path.steps)[0] >= 0
    ):
        return None  # sensitive and present (known, null or unknown): what sensitive_problem passes
    # Plans before format 0.2 (Terraform 0.15) record no sensitivity at all.
    unmarked = None if "after_sensitive" in change else "this plan records no after_sensitive marks"
    return sensitive_problem(resolve_value(change, path=path, side="after"), plan, unmarked)


def _null_problem(change: Mapping[str, Any], path: Path, plan: Plan, what: str) -> str | None:
    gone = no_planned_value(change, what)
    if gone is not None:
        return "expected a null value, but it is " + gone
    resolved = resolve_value(change, path=path, side="after")
    if resolved.status is ValueStatus.NULL:
        return None
    return "expected a null value, but it is " + resolved.describe(plan.secrets)


class _ResourceValueCheck(ResourcePathFields, PlanCheck):
    """A check on the planned value at ``path`` of resource ``address`` (of its deposed object ``deposed``).

    The checks of this kind share one way to fail: the resource is not planned, or their ``problem``
    with the value (known, null, unknown, absent, not sensitive) is the message.
    """

    __slots__ = ()

    @staticmethod
    def problem(change: Mapping[str, Any], path: Path, plan: Plan, what: str) -> str | None:
        """What is wrong with the planned value at ``path`` of the raw ``change`` (of a ``what``, here "resource"), or
        None."""
        raise NotImplementedError

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failure, if the value at the path is not what the check expects, or the resource is not planned."""
        kind = type(self).__name__
        change = find_change(plan, self.address, self.deposed)
        if isinstance(change, str):
            return [scrubbed_failure(plan.secrets, kind, self.address, None, change)]
        problem = self.problem(change, self.path, plan, "resource")
        if problem is None:
            return []
        return [scrubbed_failure(plan.secrets, kind, self.address, self.path, deposed_prefix(self.deposed) + problem)]


@public("plancheck")
class ExpectNoValue(_ResourceValueCheck):
    """The planned value of resource ``address`` has nothing at ``path``: not a value, not null, not unknown.

    Passes only when a key or index on the path is missing. An unknown value (or an
    unknown ancestor) fails: it may be set after apply. A path that meets a value of
    another kind (a key into a string) fails too, and so does a resource with no
    planned value at all (being deleted): use ExpectResourceAction for that.

    >>> from plancheck import Plan
    >>> from tfjsonpath import New
    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [{"address": "test_resource.one",
    ...     "change": {"actions": ["update"], "after": {"name": "x", "tags": None, "blocks": []},
    ...                "after_unknown": {"id": True}}}]})
    >>> ExpectNoValue("test_resource.one", New("timeouts")).CheckPlan(plan)
    >>> ExpectNoValue("test_resource.one", New("blocks").AtSliceIndex(0)).CheckPlan(plan)
    >>> ExpectNoValue("test_resource.one", New("tags")).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectNoValue: test_resource.one: tags: expected no value, but it is null
    """

    __slots__ = ()
    problem = staticmethod(_no_value_problem)


@public("plancheck")
class ExpectUnknownValue(_ResourceValueCheck):
    """The planned value at ``path`` of resource ``address`` is unknown (known only after apply).

    A ``true`` mark on an ancestor counts: ``{"triggers": true}`` makes ``triggers["x"]`` unknown.
    ``deposed=`` checks a deposed object of the resource instead of its current object.

    >>> from plancheck import Plan
    >>> from tfjsonpath import New
    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [{"address": "null_resource.a",
    ...     "change": {"actions": ["create"], "after": {"name": "x"}, "after_unknown": {"id": True, "triggers": True}}}]})
    >>> ExpectUnknownValue("null_resource.a", New("triggers").AtMapKey("dep")).CheckPlan(plan)
    >>> ExpectUnknownValue("null_resource.a", New("name")).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectUnknownValue: null_resource.a: name: expected an unknown value, but it is known: "x"
    """

    __slots__ = ()
    problem = staticmethod(_unknown_problem)


@public("plancheck")
class ExpectSensitiveValue(_ResourceValueCheck):
    """The planned value at ``path`` of resource ``address`` is marked sensitive (itself or an ancestor).

    Passes for a sensitive value that is null or unknown; fails when the path is not
    in the value, or only parts of the value are sensitive.

    >>> from plancheck import Plan
    >>> from tfjsonpath import New
    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [{"address": "aws_db_instance.db",
    ...     "change": {"actions": ["create"], "after": {"config": {"password": "pw-123"}, "name": "db"},
    ...                "after_sensitive": {"config": True}}}]})
    >>> ExpectSensitiveValue("aws_db_instance.db", New("config").AtMapKey("password")).CheckPlan(plan)
    >>> ExpectSensitiveValue("aws_db_instance.db", New("name")).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectSensitiveValue: aws_db_instance.db: name: expected a sensitive value, but it is not sensitive; it is known: "db"
    """

    __slots__ = ()
    problem = staticmethod(_sensitive_problem)


def _output_failures(
    check: PlanCheck, plan: Plan, name: str, path: Path, problem_of: _Problem
) -> list[CheckFailure]:
    kind = type(check).__name__
    output = find_output(plan, name)
    if isinstance(output, str):
        return [scrubbed_failure(plan.secrets, kind, output_address(name), None, output)]
    problem = problem_of(output.change.raw, path, plan, "output")
    if problem is None:
        return []
    return [scrubbed_failure(plan.secrets, kind, output_address(name), path, problem)]


@public("plancheck")
class ExpectUnknownOutputValue(OutputFields, PlanCheck):
    """The planned value of output ``name`` is unknown as a whole.

    >>> from plancheck import Plan
    >>> plan = Plan.from_dict({"format_version": "1.2", "output_changes": {
    ...     "id": {"actions": ["create"], "after_unknown": True},
    ...     "ip": {"actions": ["create"], "after": "10.0.0.1", "after_unknown": False}}})
    >>> ExpectUnknownOutputValue("id").CheckPlan(plan)
    >>> ExpectUnknownOutputValue("ip").CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectUnknownOutputValue: output.ip: expected an unknown value, but it is known: "10.0.0.1"
    """

    __slots__ = ()

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failure, if the output is known, null or not in the plan."""
        return _output_failures(self, plan, self.name, _ROOT, _unknown_problem)


@public("plancheck")
class ExpectUnknownOutputValueAtPath(OutputPathFields, PlanCheck):
    """The value at ``path`` inside output ``name`` is unknown (itself, an ancestor, or the whole output).

    >>> from plancheck import Plan
    >>> from tfjsonpath import New
    >>> plan = Plan.from_dict({"format_version": "1.2", "output_changes": {"ids": {"actions": ["create"],
    ...     "after": [None, "known"], "after_unknown": [True, False]}}})
    >>> ExpectUnknownOutputValueAtPath("ids", New(0)).CheckPlan(plan)
    >>> ExpectUnknownOutputValueAtPath("ids", New(1)).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectUnknownOutputValueAtPath: output.ids: [1]: expected an unknown value, but it is known: "known"
    """

    __slots__ = ()

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failure, if the value is known, null, absent, or the output is not in the plan."""
        return _output_failures(self, plan, self.name, self.path, _unknown_problem)


@public("plancheck")
class ExpectSensitiveOutputValue(OutputFields, PlanCheck):
    """Output ``name`` is sensitive (Terraform marks outputs as a whole).

    >>> from plancheck import Plan
    >>> plan = Plan.from_dict({"format_version": "1.2", "output_changes": {
    ...     "pw": {"actions": ["create"], "after": "hunter2", "after_unknown": False, "after_sensitive": True},
    ...     "ip": {"actions": ["create"], "after": "10.0.0.1", "after_unknown": False, "after_sensitive": False}}})
    >>> ExpectSensitiveOutputValue("pw").CheckPlan(plan)
    >>> ExpectSensitiveOutputValue("ip").CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectSensitiveOutputValue: output.ip: expected a sensitive value, but it is not sensitive; it is known: "10.0.0.1"
    """

    __slots__ = ()

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failure, if the output is not sensitive or not in the plan."""
        return _output_failures(self, plan, self.name, _ROOT, _sensitive_problem)


def _deprecated(name: str, instead: str) -> None:
    warnings.warn(
        f"{name} is deprecated (as in Go's plancheck); use {instead} instead",
        DeprecationWarning,
        stacklevel=3,
    )


@public("plancheck")
class ExpectNullOutputValue(OutputFields, PlanCheck):
    """Deprecated, as in Go: the planned value of output ``name`` is null.

    Use ``ExpectKnownOutputValue(name, knownvalue.Null())`` instead; constructing one
    emits a DeprecationWarning. Unlike Go, which reads ``before`` for anything but a
    create, this checks the planned (``after``) value, and an unknown value fails.

    >>> from plancheck import Plan
    >>> plan = Plan.from_dict({"format_version": "1.2", "output_changes": {
    ...     "none": {"actions": ["create"], "after": None, "after_unknown": False},
    ...     "later": {"actions": ["create"], "after_unknown": True}}})
    >>> ExpectNullOutputValue("none").CheckPlan(plan)
    >>> ExpectNullOutputValue("later").CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectNullOutputValue: output.later: expected a null value, but it is unknown
    """

    __slots__ = ()

    def __init__(self, name: str) -> None:
        _deprecated("ExpectNullOutputValue", "ExpectKnownOutputValue(name, knownvalue.Null())")
        super().__init__(name)

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failure, if the output is not null or not in the plan."""
        return _output_failures(self, plan, self.name, _ROOT, _null_problem)


@public("plancheck")
class ExpectNullOutputValueAtPath(OutputPathFields, PlanCheck):
    """Deprecated, as in Go: the planned value at ``path`` inside output ``name`` is null.

    Use ``ExpectKnownOutputValueAtPath(name, path, knownvalue.Null())`` instead; constructing
    one emits a DeprecationWarning. A null ancestor counts as null.

    >>> from plancheck import Plan
    >>> from tfjsonpath import New
    >>> plan = Plan.from_dict({"format_version": "1.2", "output_changes": {"o": {"actions": ["create"],
    ...     "after": {"a": None, "b": 1}, "after_unknown": False}}})
    >>> ExpectNullOutputValueAtPath("o", New("a")).CheckPlan(plan)
    >>> ExpectNullOutputValueAtPath("o", New("c")).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectNullOutputValueAtPath: output.o: c: expected a null value, but it is not present (no key "c" in an object with 2 keys)
    """

    __slots__ = ()

    def __init__(self, name: str, path: Path) -> None:
        _deprecated(
            "ExpectNullOutputValueAtPath", "ExpectKnownOutputValueAtPath(name, path, knownvalue.Null())"
        )
        super().__init__(name, path)

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failure, if the value is not null, or absent, or the output is not in the plan."""
        return _output_failures(self, plan, self.name, self.path, _null_problem)


# -- an action's configuration (Terraform 1.14+) ----------------------------------------------------


def config_change(ai: ActionInvocation) -> Mapping[str, Any]:
    """An invocation's configuration as a planned value: ``config_values`` with its ``config_unknown`` and
    ``config_sensitive`` marks read exactly as a resource's ``after`` with ``after_unknown`` and ``after_sensitive``."""
    raw = ai.raw
    change = {"actions": ["create"], "after": raw.get("config_values"), "after_unknown": raw.get("config_unknown")}
    if "config_sensitive" in raw:
        change["after_sensitive"] = raw.get("config_sensitive")
    return change


#: (the configuration as a change, the prefix naming the invocation) -> the failures of one invocation.
_PerInvocation = Callable[[Mapping[str, Any], str], list[CheckFailure]]


def _action_failures(
    check: object, plan: Plan, address: str, triggered_by: str | None, per_invocation: _PerInvocation
) -> list[CheckFailure]:
    """The failures of a check on every invocation of action ``address`` (by ``triggered_by``, when given)."""
    found = find_invocations(plan, address, triggered_by)
    if isinstance(found, str):
        return [scrubbed_failure(plan.secrets, type(check).__name__, address, None, found)]
    failures: list[CheckFailure] = []
    for ai in found:
        failures.extend(per_invocation(config_change(ai), f"invocation {ai.trigger_text}: " if len(found) > 1 else ""))
    return failures


#: The triggering (or calling) resource an action check is narrowed to: an address, or None (every invocation).
_checked_triggered_by: Final = partial(checked_address, what="triggered_by", optional=True)


@frozen
class _ActionPathFields(FrozenValue):
    """``(address, path, *, triggered_by=None)``: a value in the configuration of action ``address``."""

    address: str
    path: Path
    _: KW_ONLY
    triggered_by: str | None = None

    def __post_init__(self) -> None:
        check_fields(self, address=checked_address, path=checked_path, triggered_by=_checked_triggered_by)

    def _problem_failures(self, plan: Plan, problem_of: _Problem) -> list[CheckFailure]:
        kind = type(self).__name__

        def per_invocation(change: Mapping[str, Any], prefix: str) -> list[CheckFailure]:
            problem = problem_of(change, self.path, plan, "action")
            return [] if problem is None else [scrubbed_failure(plan.secrets, kind, self.address, self.path, prefix + problem)]

        return _action_failures(self, plan, self.address, self.triggered_by, per_invocation)


@public("plancheck")
@frozen
class ExpectKnownActionConfigValue(PlanCheck):
    """The configuration value at ``path`` of action ``address`` matches ``matcher``, in every invocation (1.14+).

    Every invocation of the action is checked, or those triggered by resource ``triggered_by`` when given.
    The configuration (``config_values`` with its ``config_unknown`` and ``config_sensitive`` marks) is
    read as :class:`ExpectKnownValue` reads a planned value: an unknown value fails saying "unknown",
    sensitive values are compared but shown as ``(sensitive)``.

    >>> from plancheck import Plan, knownvalue as kv
    >>> from tfjsonpath import New
    >>> plan = Plan.from_dict({"format_version": "1.2", "action_invocations": [{"address": "action.t.notify",
    ...     "config_values": {"channel": "ops", "token": "tok-9981"}, "config_unknown": {"url": True},
    ...     "config_sensitive": {"token": True}, "invoke_action_trigger": {}}]})
    >>> ExpectKnownActionConfigValue("action.t.notify", New("channel"), kv.StringExact("ops")).CheckPlan(plan)
    >>> ExpectKnownActionConfigValue("action.t.notify", New("url"), kv.NotNull()).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectKnownActionConfigValue: action.t.notify: url: value is unknown; expected <not null>
    """

    address: str
    path: Path
    matcher: Check
    _: KW_ONLY
    triggered_by: str | None = None

    def __post_init__(self) -> None:
        check_fields(
            self,
            address=checked_address,
            path=checked_path,
            matcher=checked_matcher,
            triggered_by=_checked_triggered_by,
        )

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failures, if the value does not match, is unknown or absent, or the action is not invoked."""

        def per_invocation(change: Mapping[str, Any], prefix: str) -> list[CheckFailure]:
            return _known_failure(self, plan, change, self.address, self.path, self.matcher, prefix, "action")

        return _action_failures(self, plan, self.address, self.triggered_by, per_invocation)


@public("plancheck")
class ExpectUnknownActionConfigValue(_ActionPathFields, PlanCheck):
    """The configuration value at ``path`` of action ``address`` is unknown until apply, in every invocation (1.14+).

    Every invocation of the action is checked, or those triggered by resource ``triggered_by`` when given;
    a ``true`` mark on an ancestor counts.

    >>> from plancheck import Plan
    >>> from tfjsonpath import New
    >>> plan = Plan.from_dict({"format_version": "1.2", "action_invocations": [{"address": "action.t.notify",
    ...     "config_values": {"channel": "ops"}, "config_unknown": {"url": True}, "invoke_action_trigger": {}}]})
    >>> ExpectUnknownActionConfigValue("action.t.notify", New("url")).CheckPlan(plan)
    >>> ExpectUnknownActionConfigValue("action.t.notify", New("channel")).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectUnknownActionConfigValue: action.t.notify: channel: expected an unknown value, but it is known: "ops"
    """

    __slots__ = ()

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failures, if the value is known, null or absent, or the action is not invoked."""
        return self._problem_failures(plan, _unknown_problem)


def _action_sensitive_problem(change: Mapping[str, Any], path: Path, plan: Plan, what: str) -> str | None:
    if walk_marks(change.get("after_sensitive"), path.steps)[0] >= 0 and (
        value_at(change.get("after"), path) is not ABSENT_VALUE or walk_marks(change.get("after_unknown"), path.steps)[0] >= 0
    ):
        return None
    unmarked = None if "after_sensitive" in change else "the invocation records no config_sensitive marks"
    return sensitive_problem(resolve_value(change, path=path, side="after"), plan, unmarked)


@public("plancheck")
class ExpectSensitiveActionConfigValue(_ActionPathFields, PlanCheck):
    """The configuration value at ``path`` of action ``address`` is marked sensitive, in every invocation (1.14+).

    Sensitive are the action schema's sensitive attributes and sensitive values. Every invocation of the
    action is checked, or those triggered by resource ``triggered_by`` when given.

    >>> from plancheck import Plan
    >>> from tfjsonpath import New
    >>> plan = Plan.from_dict({"format_version": "1.2", "action_invocations": [{"address": "action.t.notify",
    ...     "config_values": {"channel": "ops", "token": "tok-9981"}, "config_sensitive": {"token": True},
    ...     "invoke_action_trigger": {}}]})
    >>> ExpectSensitiveActionConfigValue("action.t.notify", New("token")).CheckPlan(plan)
    >>> ExpectSensitiveActionConfigValue("action.t.notify", New("channel")).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectSensitiveActionConfigValue: action.t.notify: channel: expected a sensitive value, but it is not sensitive; it is known: "ops"
    """

    __slots__ = ()

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failures, if the value is not sensitive, or absent, or the action is not invoked."""
        return self._problem_failures(plan, _action_sensitive_problem)
