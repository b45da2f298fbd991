"""State checks on single values: known values of resources and outputs, and sensitive marks."""

from __future__ import annotations

from tfjsonpath import Path

from .._checks._base import checked_address, checked_deposed, checked_path, deposed_prefix
from .._checks._describe import describe, render_known
from .._checks._known import match_resolved
from .._errors import CheckFailure
from .._redact import contains_sensitive
from .._state import State
from .._values import ResolvedValue, ValueStatus
from ..knownvalue._base import Check, require_check
from ._base import (
    StateCheck,
    find_state_output,
    find_state_resource,
    output_address,
    resolve_output,
    resolve_resource,
    state_failure,
)

__all__ = [
    "ExpectKnownOutputValue",
    "ExpectKnownOutputValueAtPath",
    "ExpectKnownValue",
    "ExpectSensitiveValue",
]

# pytest hides this module's frames from tracebacks: failures point at the user's test line,
# and the library's locals (which may hold raw values) are never printed.
__tracebackhide__ = True

_ROOT = Path()


def _matcher(value: object, check: str) -> Check:
    return require_check(f"{check}:", "matcher", value)


def _match_failures(
    check: StateCheck, state: State, address: str, resolved: ResolvedValue, matcher: Check, prefix: str = ""
) -> list[CheckFailure]:
    problem = match_resolved(resolved, matcher, state.secrets)
    if problem is None:
        return []
    where, reason = problem
    return [state_failure(state.secrets, type(check).__name__, address, where, prefix + reason)]


class ExpectKnownValue(StateCheck):
    """The value at ``path`` of the resource at full ``address`` (any module) matches ``matcher``.

    Sensitive values are compared but shown as ``(sensitive)``; a null ancestor makes
    the value null; a missing attribute fails as "not present". ``deposed=`` checks a
    deposed object. The failure names the full path of the first mismatch.

    >>> from plancheck import State, knownvalue as kv
    >>> from tfjsonpath import New
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"child_modules": [
    ...     {"address": "module.m", "resources": [{"address": "module.m.test_resource.one",
    ...      "values": {"list_attribute": ["value1", "value2"]}, "sensitive_values": {}}]}]}}})
    >>> ExpectKnownValue("module.m.test_resource.one", New("list_attribute"), kv.ListSizeExact(2)).check_state(state)
    >>> ExpectKnownValue("module.m.test_resource.one", New("list_attribute"),
    ...                  kv.ListPartial({1: kv.StringExact("value3")})).check_state(state)
    Traceback (most recent call last):
    ...
    plancheck._errors.StateCheckError: ExpectKnownValue: module.m.test_resource.one: list_attribute[1]: expected value "value3" for StringExact check, got: "value2"
    """

    __slots__ = ("address", "deposed", "matcher", "path")
    _fields = ("address", "path", "matcher", "deposed")
    _keyword_fields = frozenset({"deposed"})
    address: str
    path: Path
    matcher: Check
    deposed: str | None

    def __init__(self, address: str, path: Path, matcher: Check, *, deposed: str | None = None) -> None:
        name = type(self).__name__
        self._set(
            address=checked_address(address, name),
            path=checked_path(path, name),
            matcher=_matcher(matcher, name),
            deposed=checked_deposed(deposed, name),
        )

    def failures(self, state: State) -> list[CheckFailure]:
        """The failure, if the value does not match or is absent, or the resource is not in the state."""
        resource = find_state_resource(state, self.address, self.deposed)
        if isinstance(resource, str):
            return [state_failure(state.secrets, type(self).__name__, self.address, None, resource)]
        resolved = resolve_resource(resource, self.path)
        return _match_failures(
            self, state, self.address, resolved, self.matcher, deposed_prefix(self.deposed)
        )


class ExpectKnownOutputValue(StateCheck):
    """The value of root module output ``name`` matches ``matcher``.

    >>> from plancheck import State, knownvalue as kv
    >>> state = State.from_dict({"format_version": "1.0", "values": {"outputs": {
    ...     "pw": {"value": "hunter2", "sensitive": True, "type": "string"}}}})
    >>> ExpectKnownOutputValue("pw", kv.StringRegexp("^hunter")).check_state(state)
    >>> ExpectKnownOutputValue("pw", kv.StringExact("hunter3")).check_state(state)
    Traceback (most recent call last):
    ...
    plancheck._errors.StateCheckError: ExpectKnownOutputValue: output.pw: expected value (sensitive) for StringExact check, got: (sensitive)
    """

    __slots__ = ("matcher", "name")
    _fields = ("name", "matcher")
    name: str
    matcher: Check

    def __init__(self, name: str, matcher: Check) -> None:
        kind = type(self).__name__
        self._set(name=checked_address(name, kind, "output name"), matcher=_matcher(matcher, kind))

    def failures(self, state: State) -> list[CheckFailure]:
        """The failure, if the output does not match or is not in the state."""
        return _output_failures(self, state, self.name, _ROOT, self.matcher)


class ExpectKnownOutputValueAtPath(StateCheck):
    """The value at ``path`` inside root module output ``name`` matches ``matcher``.

    >>> from plancheck import State, knownvalue as kv
    >>> from tfjsonpath import New
    >>> state = State.from_dict({"format_version": "1.0", "values": {"outputs": {
    ...     "obj": {"value": {"tags": {"env": "prod"}}, "type": ["object", {"tags": ["map", "string"]}]}}}})
    >>> ExpectKnownOutputValueAtPath("obj", New("tags"), kv.MapExact({"env": kv.StringExact("prod")})).check_state(state)
    >>> ExpectKnownOutputValueAtPath("obj", New("name"), kv.Null()).check_state(state)
    Traceback (most recent call last):
    ...
    plancheck._errors.StateCheckError: ExpectKnownOutputValueAtPath: output.obj: name: value is not present (no key "name" in an object with 1 key)
    """

    __slots__ = ("matcher", "name", "path")
    _fields = ("name", "path", "matcher")
    name: str
    path: Path
    matcher: Check

    def __init__(self, name: str, path: Path, matcher: Check) -> None:
        kind = type(self).__name__
        self._set(
            name=checked_address(name, kind, "output name"),
            path=checked_path(path, kind),
            matcher=_matcher(matcher, kind),
        )

    def failures(self, state: State) -> list[CheckFailure]:
        """The failure, if the value does not match or is absent, or the output is not in the state."""
        return _output_failures(self, state, self.name, self.path, self.matcher)


def _output_failures(
    check: StateCheck, state: State, name: str, path: Path, matcher: Check
) -> list[CheckFailure]:
    output = find_state_output(state, name)
    if isinstance(output, str):
        return [state_failure(state.secrets, type(check).__name__, output_address(name), None, output)]
    return _match_failures(check, state, output_address(name), resolve_output(output, path), matcher)


class ExpectSensitiveValue(StateCheck):
    """The value at ``path`` of resource ``address`` is marked sensitive in the state's ``sensitive_values``.

    A ``true`` mark at an ancestor covers the path (Go looks at the exact path only and
    fails on a sensitive list or map when asked about an element). Passes for a sensitive
    null; fails when the path is not in the value or only parts of the value are sensitive.

    >>> from plancheck import State
    >>> from tfjsonpath import New
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...     {"address": "test_resource.one", "values": {"sensitive_list_attribute": ["value1"], "name": "n"},
    ...      "sensitive_values": {"sensitive_list_attribute": True}}]}}})
    >>> ExpectSensitiveValue("test_resource.one", New("sensitive_list_attribute").AtSliceIndex(0)).check_state(state)
    >>> ExpectSensitiveValue("test_resource.one", New("name")).check_state(state)
    Traceback (most recent call last):
    ...
    plancheck._errors.StateCheckError: ExpectSensitiveValue: test_resource.one: name: expected a sensitive value, but it is not sensitive; it is known: "n"
    """

    __slots__ = ("address", "deposed", "path")
    _fields = ("address", "path", "deposed")
    _keyword_fields = frozenset({"deposed"})
    address: str
    path: Path
    deposed: str | None

    def __init__(self, address: str, path: Path, *, deposed: str | None = None) -> None:
        name = type(self).__name__
        self._set(
            address=checked_address(address, name),
            path=checked_path(path, name),
            deposed=checked_deposed(deposed, name),
        )

    def failures(self, state: State) -> list[CheckFailure]:
        """The failure, if the value is not sensitive or absent, or the resource is not in the state."""
        name = type(self).__name__
        resource = find_state_resource(state, self.address, self.deposed)
        if isinstance(resource, str):
            return [state_failure(state.secrets, name, self.address, None, resource)]
        resolved = resolve_resource(resource, self.path)
        if resolved.sensitive and resolved.status is not ValueStatus.ABSENT:
            return []
        problem = "expected a sensitive value, but "
        if resolved.status is ValueStatus.ABSENT:
            problem += "it is " + describe(resolved, state.secrets)
        elif resolved.status is ValueStatus.KNOWN and contains_sensitive(resolved.value_sensitive):
            problem += "only parts of it are sensitive: " + render_known(resolved, state.secrets)
        else:
            problem += "it is not sensitive; it is " + describe(resolved, state.secrets)
            if "sensitive_values" not in resource.raw:
                # Terraform before 0.15 wrote no sensitive_values into a state.
                problem += " (this state records no sensitive_values marks)"
        return [
            state_failure(
                state.secrets, name, self.address, self.path, deposed_prefix(self.deposed) + problem
            )
        ]
