"""State checks on single values: known values of resources and outputs, and sensitive marks."""

from __future__ import annotations

from tfjsonpath import Path

from .._checking.fields import (
    OutputMatcherFields,
    OutputPathMatcherFields,
    ResourcePathFields,
    ResourcePathMatcherFields,
)
from .._checking.match import match_failures, sensitive_problem
from .._checking.messages import deposed_prefix, output_address, scrubbed_failure
from .._documents.state import State
from .._errors import CheckFailure
from .._frozen import public
from ..knownvalue.internal import Check
from ._base import (
    StateCheck,
    find_state_output,
    find_state_resource,
    resolve_output,
    resolve_resource,
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


@public("plancheck.statecheck")
class ExpectKnownValue(ResourcePathMatcherFields, StateCheck):
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
    plancheck.StateCheckError: ExpectKnownValue: module.m.test_resource.one: list_attribute[1]: expected value "value3" for StringExact check, got: "value2"
    """

    __slots__ = ()

    def failures(self, state: State) -> list[CheckFailure]:
        """The failure, if the value does not match or is absent, or the resource is not in the state."""
        resource = find_state_resource(state, self.address, self.deposed)
        if isinstance(resource, str):
            return [scrubbed_failure(state.secrets, type(self).__name__, self.address, None, resource)]
        resolved = resolve_resource(resource, self.path)
        return match_failures(
            state.secrets,
            type(self).__name__,
            self.address,
            resolved,
            self.matcher,
            deposed_prefix(self.deposed),
        )


@public("plancheck.statecheck")
class ExpectKnownOutputValue(OutputMatcherFields, StateCheck):
    """The value of root module output ``name`` matches ``matcher``.

    >>> from plancheck import State, knownvalue as kv
    >>> state = State.from_dict({"format_version": "1.0", "values": {"outputs": {
    ...     "pw": {"value": "hunter2", "sensitive": True, "type": "string"}}}})
    >>> ExpectKnownOutputValue("pw", kv.StringRegexp("^hunter")).check_state(state)
    >>> ExpectKnownOutputValue("pw", kv.StringExact("hunter3")).check_state(state)
    Traceback (most recent call last):
    ...
    plancheck.StateCheckError: ExpectKnownOutputValue: output.pw: expected value (sensitive) for StringExact check, got: (sensitive)
    """

    __slots__ = ()

    def failures(self, state: State) -> list[CheckFailure]:
        """The failure, if the output does not match or is not in the state."""
        return _output_failures(self, state, self.name, _ROOT, self.matcher)


@public("plancheck.statecheck")
class ExpectKnownOutputValueAtPath(OutputPathMatcherFields, StateCheck):
    """The value at ``path`` inside root module output ``name`` matches ``matcher``.

    >>> from plancheck import State, knownvalue as kv
    >>> from tfjsonpath import New
    >>> state = State.from_dict({"format_version": "1.0", "values": {"outputs": {
    ...     "obj": {"value": {"tags": {"env": "prod"}}, "type": ["object", {"tags": ["map", "string"]}]}}}})
    >>> ExpectKnownOutputValueAtPath("obj", New("tags"), kv.MapExact({"env": kv.StringExact("prod")})).check_state(state)
    >>> ExpectKnownOutputValueAtPath("obj", New("name"), kv.Null()).check_state(state)
    Traceback (most recent call last):
    ...
    plancheck.StateCheckError: ExpectKnownOutputValueAtPath: output.obj: name: value is not present (no key "name" in an object with 1 key); expected null
    """

    __slots__ = ()

    def failures(self, state: State) -> list[CheckFailure]:
        """The failure, if the value does not match or is absent, or the output is not in the state."""
        return _output_failures(self, state, self.name, self.path, self.matcher)


def _output_failures(
    check: StateCheck, state: State, name: str, path: Path, matcher: Check
) -> list[CheckFailure]:
    output = find_state_output(state, name)
    if isinstance(output, str):
        return [scrubbed_failure(state.secrets, type(check).__name__, output_address(name), None, output)]
    return match_failures(
        state.secrets, type(check).__name__, output_address(name), resolve_output(output, path), matcher
    )


@public("plancheck.statecheck")
class ExpectSensitiveValue(ResourcePathFields, StateCheck):
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
    plancheck.StateCheckError: ExpectSensitiveValue: test_resource.one: name: expected a sensitive value, but it is not sensitive; it is known: "n"
    """

    __slots__ = ()

    def failures(self, state: State) -> list[CheckFailure]:
        """The failure, if the value is not sensitive or absent, or the resource is not in the state."""
        name = type(self).__name__
        resource = find_state_resource(state, self.address, self.deposed)
        if isinstance(resource, str):
            return [scrubbed_failure(state.secrets, name, self.address, None, resource)]
        # Terraform before 0.15 wrote no sensitive_values into a state.
        unmarked = (
            None if "sensitive_values" in resource.raw else "this state records no sensitive_values marks"
        )
        problem = sensitive_problem(resolve_resource(resource, self.path), state, unmarked)
        if problem is None:
            return []
        return [
            scrubbed_failure(
                state.secrets, name, self.address, self.path, deposed_prefix(self.deposed) + problem
            )
        ]
