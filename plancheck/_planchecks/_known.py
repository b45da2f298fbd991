"""Known-value plan checks: a planned value matches a knownvalue check, or is not there at all.

The value is resolved together with its unknown and sensitive marks first, so an
unknown value fails saying "unknown" (Go hands the matcher a null for an unknown
list element, and ``knownvalue.Null()`` then passes), sensitive parts are compared
but never shown, and a missing attribute is told apart from a null one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tfjsonpath import MapStep, Path

from .._checking.describe import describe, no_planned_value
from .._checking.fields import (
    OutputMatcherFields,
    OutputPathMatcherFields,
    ResourcePathFields,
    ResourcePathMatcherFields,
)
from .._checking.match import match_failures
from .._checking.messages import actions_text, deposed_prefix, output_address
from .._documents.plan import Change, Plan
from .._documents.resolve import ABSENT_VALUE, ValueStatus, known_value_at
from .._errors import CheckFailure
from .._frozen import public
from ..knownvalue.internal import Check
from ._base import PlanCheck, failure, find_change, find_output
from ._unknown_sensitive_null import resolve_after, resource_failures

# The deprecated null-output checks live with the other output checks; re-exported for old imports.

__all__ = [
    "ExpectKnownOutputValue",
    "ExpectKnownOutputValueAtPath",
    "ExpectKnownValue",
    "ExpectNoValue",
]

# pytest hides this module's frames from tracebacks: failures point at the user's test line,
# and the library's locals (which may hold raw values) are never printed.
__tracebackhide__ = True

_ROOT = Path()


def _known_failure(
    check: PlanCheck,
    plan: Plan,
    change: Change,
    address: str,
    path: Path,
    matcher: Check,
    prefix: str,
    what: str,
) -> list[CheckFailure]:
    name = type(check).__name__
    gone = no_planned_value(change, what)
    if gone is not None:
        return [failure(plan, name, address, path, f"{prefix}value is {gone}")]
    raw = change.raw
    # Known or null, and present: a check that passes whatever the marks (a scalar) decides
    # here, without resolving the marks; anything else goes through match_failures.
    value = known_value_at(raw.get("after"), raw.get("after_unknown"), path)
    if value is not ABSENT_VALUE and matcher._passes(value):
        return []
    return match_failures(plan.secrets, name, address, resolve_after(change, path), matcher, prefix)


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
            return [failure(plan, type(self).__name__, self.address, None, change)]
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
        return [failure(plan, type(check).__name__, output_address(name), None, output)]
    return _known_failure(check, plan, output.change, output_address(name), path, matcher, "", "output")


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


@public("plancheck")
class ExpectNoValue(ResourcePathFields, PlanCheck):
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

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failure, if there is a value (known, null or unknown) at the path, or the resource is not planned."""
        return resource_failures(self, plan, _no_value_problem)


def _no_value_problem(change: Change, path: Path, plan: Plan, what: str) -> str | None:
    actions = change.actions
    if no_planned_value(change, what) is not None:
        return f"expected no value, but the {what} has no planned value at all (action(s): {actions_text(actions)})"
    resolved = resolve_after(change, path)
    if resolved.status is ValueStatus.ABSENT:
        if _missing_from_its_parent(change.after, path):
            return None
        return f"expected no value, but the path does not fit the value: {resolved.reason}"
    return "expected no value, but it is " + describe(resolved, plan.secrets)
