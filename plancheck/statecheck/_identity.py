"""State checks on resource identity (Terraform 1.12+): Go's ``ExpectIdentity`` family.

Terraform 1.12 writes a managed resource's identity into ``terraform show -json`` of a
state, beside its values: ``"identity": {"id": "i-1"}`` with ``"identity_schema_version": 0``.
A state without them (an older Terraform, or a resource type whose provider has no
identity schema) fails every check here with Go's message, saying which it may be.

Unlike Go: resources in child modules are found by their full address; ``ExpectIdentity``
reports every attribute that does not match (Go stops at the first) and both the missing
and the extra attributes; values are compared as JSON (``1 == 1.0``, ``true != 1``), and a
state value under a sensitive mark, or any secret of the state, is shown as ``(sensitive)``.
"""

from __future__ import annotations

from collections.abc import Mapping

from tfjsonpath import Path

from .._checking.fields import checked_address, checked_matcher, checked_path
from .._checking.match import AddressIdentityFields, identity_attribute_failures, match_resolved
from .._checking.messages import located, scrubbed_failure
from .._documents.resolve import ValueStatus, resolve_value
from .._documents.state import State, StateResource
from .._errors import CheckFailure
from .._frozen import frozen, public
from ..compare.internal import first_difference, render_compared
from ..knownvalue.internal import Check
from ._base import StateCheck, find_state_resource, resolve_resource

__all__ = [
    "ExpectIdentity",
    "ExpectIdentityValue",
    "ExpectIdentityValueMatchesState",
    "ExpectIdentityValueMatchesStateAtPath",
]

# pytest hides this module's frames from tracebacks: failures point at the user's test line,
# and the library's locals (which may hold raw values) are never printed.
__tracebackhide__ = True

_NO_IDENTITY = (
    "identity not found in state. Either the resource does not support identity or the Terraform "
    "version running the test does not support identity. (must be v1.12+)"
)


def _identity_of(state: State, check: StateCheck, address: str) -> StateResource | CheckFailure:
    """The resource at ``address`` if it has an identity, else the failure saying why not."""
    name = type(check).__name__
    resource = find_state_resource(state, address, None)
    if isinstance(resource, str):
        return scrubbed_failure(state.secrets, name, address, None, resource)
    identity = resource.identity
    if resource.identity_schema_version is None or not isinstance(identity, Mapping) or not identity:
        written = f" (this state was written by Terraform {state.terraform_version})" if state.terraform_version else ""
        return scrubbed_failure(state.secrets, name, address, None, _NO_IDENTITY + written)
    return resource


@public("plancheck.statecheck")
class ExpectIdentity(AddressIdentityFields, StateCheck):
    """The identity of the resource at full ``address`` has exactly these attributes, each matching its check.

    ``identity`` maps each identity attribute name to a knownvalue check (Go's
    ``map[string]knownvalue.Check``); a missing or an extra attribute fails. Needs
    Terraform 1.12+ and a resource type with an identity schema.

    >>> from plancheck import State, knownvalue as kv
    >>> state = State.from_dict({"format_version": "1.0", "terraform_version": "1.12.0", "values": {"root_module": {
    ...     "resources": [{"address": "examplecloud_thing.one", "mode": "managed", "type": "examplecloud_thing",
    ...         "name": "one", "values": {"id": "id-123"}, "sensitive_values": {},
    ...         "identity_schema_version": 0, "identity": {"id": "id-123", "list_of_numbers": [1, 2]}}]}}})
    >>> ExpectIdentity("examplecloud_thing.one", {
    ...     "id": kv.StringExact("id-123"), "list_of_numbers": kv.ListExact([kv.Int64Exact(1), kv.Int64Exact(2)])}
    ... ).CheckState(state)
    >>> ExpectIdentity("examplecloud_thing.one", {"id": kv.StringExact("321-id")}).check_state(state)
    Traceback (most recent call last):
    ...
    plancheck.StateCheckError: ExpectIdentity: examplecloud_thing.one: expected 1 attribute(s) in the actual identity object, got 2 attribute(s): actual identity has extra attribute(s): "list_of_numbers"
    """

    __slots__ = ()

    def failures(self, state: State) -> list[CheckFailure]:
        """Every failing attribute, or why the resource or its identity is not there."""
        resource = _identity_of(state, self, self.address)
        if isinstance(resource, CheckFailure):
            return [resource]
        identity = resource.identity
        assert identity is not None  # _identity_of returns a resource only when it has one
        return [
            scrubbed_failure(state.secrets, type(self).__name__, self.address, None, message)
            for message in identity_attribute_failures(identity, self.identity, state.secrets)
        ]


@public("plancheck.statecheck")
@frozen
class ExpectIdentityValue(StateCheck):
    """The identity attribute at ``path`` of the resource at full ``address`` matches ``matcher``.

    >>> from plancheck import State, knownvalue as kv
    >>> from tfjsonpath import New
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"child_modules": [
    ...     {"address": "module.app", "resources": [{"address": 'module.app.examplecloud_thing.one["a"]',
    ...         "index": "a", "values": {"id": "id-123"}, "identity_schema_version": 1,
    ...         "identity": {"id": "id-123", "list_of_numbers": [1, 2, 3]}}]}]}}})
    >>> ExpectIdentityValue('module.app.examplecloud_thing.one["a"]', New("id"), kv.StringExact("id-123")).check_state(state)
    >>> ExpectIdentityValue('module.app.examplecloud_thing.one["a"]', New("list_of_numbers").AtSliceIndex(2),
    ...                     kv.Int64Exact(4)).check_state(state)
    Traceback (most recent call last):
    ...
    plancheck.StateCheckError: ExpectIdentityValue: module.app.examplecloud_thing.one["a"]: error checking identity value for attribute at path: identity.list_of_numbers[2], err: expected value 4 for Int64Exact check, got: 3
    """

    address: str
    path: Path
    matcher: Check

    def __post_init__(self) -> None:
        name = type(self).__name__
        self._set(
            address=checked_address(self.address, name),
            path=checked_path(self.path, name),
            matcher=checked_matcher(self.matcher, name),
        )

    def failures(self, state: State) -> list[CheckFailure]:
        """The failure, if the value does not match or is absent, or the resource or its identity is missing."""
        resource = _identity_of(state, self, self.address)
        if isinstance(resource, CheckFailure):
            return [resource]
        problem = match_resolved(resolve_value(resource.identity, None, None, self.path), self.matcher, state.secrets)
        if problem is None:
            return []
        where, reason = problem
        message = f"error checking identity value for attribute at path: {located('identity', where)}, err: {reason}"
        return [scrubbed_failure(state.secrets, type(self).__name__, self.address, None, message)]


def _matches_state_failures(
    check: StateCheck, state: State, address: str, identity_path: Path, state_path: Path
) -> list[CheckFailure]:
    name = type(check).__name__
    resource = _identity_of(state, check, address)
    if isinstance(resource, CheckFailure):
        return [resource]
    secrets = state.secrets
    in_identity = resolve_value(resource.identity, None, None, identity_path)
    in_state = resolve_resource(resource, state_path)
    for where, resolved in ((located("identity", identity_path), in_identity), (located("values", state_path), in_state)):
        if resolved.status is ValueStatus.ABSENT:
            return [scrubbed_failure(secrets, name, address, None, f"{where}: value is {resolved.describe(secrets)}")]
    left = in_identity.value if in_identity.status is ValueStatus.KNOWN else None
    right = in_state.value if in_state.status is ValueStatus.KNOWN else None
    if first_difference(left, right) is None:
        return []
    shown = render_compared([left, right], [None, True if in_state.sensitive else in_state.value_sensitive], secrets, [0, 1])
    if identity_path == state_path:
        message = (
            f"expected identity and state value at path to match, but they differ: {located(address, state_path)}, "
            f"identity value: {shown[0]}, state value: {shown[1]}"
        )
    else:
        message = (
            f"expected identity ({located(address, identity_path)}) and state value "
            f"({located(address, state_path)}) to match, but they differ: "
            f"identity value: {shown[0]}, state value: {shown[1]}"
        )
    return [scrubbed_failure(secrets, name, address, None, message)]


@public("plancheck.statecheck")
@frozen
class ExpectIdentityValueMatchesState(StateCheck):
    """The identity attribute at ``path`` equals the resource's state value at the same ``path``.

    >>> from plancheck import State
    >>> from tfjsonpath import New
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...     {"address": "examplecloud_thing.one[0]", "index": 0, "values": {"id": "id-123", "name": "n"},
    ...      "identity_schema_version": 0, "identity": {"id": "id-123", "name": "other"}}]}}})
    >>> ExpectIdentityValueMatchesState("examplecloud_thing.one[0]", New("id")).check_state(state)
    >>> ExpectIdentityValueMatchesState("examplecloud_thing.one[0]", New("name")).check_state(state)
    Traceback (most recent call last):
    ...
    plancheck.StateCheckError: ExpectIdentityValueMatchesState: examplecloud_thing.one[0]: expected identity and state value at path to match, but they differ: examplecloud_thing.one[0].name, identity value: "other", state value: "n"
    """

    address: str
    path: Path

    def __post_init__(self) -> None:
        name = type(self).__name__
        self._set(address=checked_address(self.address, name), path=checked_path(self.path, name))

    def failures(self, state: State) -> list[CheckFailure]:
        """The failure, if the two values differ or either is absent, or the resource or its identity is missing."""
        return _matches_state_failures(self, state, self.address, self.path, self.path)


@public("plancheck.statecheck")
@frozen
class ExpectIdentityValueMatchesStateAtPath(StateCheck):
    """The identity attribute at ``identity_path`` equals the resource's state value at ``state_path``.

    >>> from plancheck import State
    >>> from tfjsonpath import New
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...     {"address": "examplecloud_thing.one", "values": {"id": "id-123", "password": "hunter2"},
    ...      "sensitive_values": {"password": True},
    ...      "identity_schema_version": 0, "identity": {"identifier": "id-123"}}]}}})
    >>> ExpectIdentityValueMatchesStateAtPath("examplecloud_thing.one", New("identifier"), New("id")).check_state(state)
    >>> ExpectIdentityValueMatchesStateAtPath("examplecloud_thing.one", New("identifier"), New("password")).check_state(state)
    Traceback (most recent call last):
    ...
    plancheck.StateCheckError: ExpectIdentityValueMatchesStateAtPath: examplecloud_thing.one: expected identity (examplecloud_thing.one.identifier) and state value (examplecloud_thing.one.password) to match, but they differ: identity value: (sensitive), state value: (sensitive)
    """

    address: str
    identity_path: Path
    state_path: Path

    def __post_init__(self) -> None:
        name = type(self).__name__
        self._set(
            address=checked_address(self.address, name),
            identity_path=checked_path(self.identity_path, name),
            state_path=checked_path(self.state_path, name),
        )

    def failures(self, state: State) -> list[CheckFailure]:
        """The failure, if the two values differ or either is absent, or the resource or its identity is missing."""
        return _matches_state_failures(self, state, self.address, self.identity_path, self.state_path)
