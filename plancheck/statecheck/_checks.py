"""The state checks on values, identities and sensitive marks, and ``assert_state``, which runs many.

State checks on single values: known values of resources and outputs, and sensitive marks.

``statecheck.ExpectEachKnownValue``: one knownvalue check over every resource a selector selects in a state.

A state has no unknown values, so each resource passes or fails; the message has the form of the
plan checks' (``2 of 5 failed: address: reason; ...``), in address order, over every module.

State checks on resource identity (Terraform 1.12+): Go's ``ExpectIdentity`` family.

Terraform 1.12 writes a managed resource's identity into ``terraform show -json`` of a
state, beside its values: ``"identity": {"id": "i-1"}`` with ``"identity_schema_version": 0``.
A state without them (an older Terraform, or a resource type whose provider has no
identity schema) fails every check here with Go's message, saying which it may be.

Unlike Go: resources in child modules are found by their full address; ``ExpectIdentity``
reports every attribute that does not match (Go stops at the first) and both the missing
and the extra attributes; values are compared as JSON (``1 == 1.0``, ``true != 1``), and a
state value under a sensitive mark, or any secret of the state, is shown as ``(sensitive)``.

``assert_state``: run many state checks on one state and report every failure at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from tfjsonpath import Path

from .._checking.equality import first_difference, render_compared
from .._checking.fields import (
    OutputMatcherFields,
    OutputPathMatcherFields,
    ResourcePathFields,
    ResourcePathMatcherFields,
    check_fields,
    checked_address,
    checked_matcher,
    checked_path,
    checked_selector,
    empty_selection,
    item_label,
)
from .._checking.match import (
    AddressIdentityFields,
    Item,
    each_outcome,
    identity_attribute_failures,
    match_failures,
    match_resolved,
    match_verdict,
    sensitive_problem,
)
from .._checking.messages import deposed_prefix, located, output_address, scrubbed_failure
from .._checking.run import run_checks
from .._documents.resolve import ValueStatus, resolve_value
from .._documents.select import Resources
from .._documents.state import State, StateResource
from .._errors import ArgumentError, CheckFailure, StateCheckError
from .._frozen import frozen, public
from ..knownvalue import Check
from ..tfversion import Version, VersionError
from ._base import (
    StateCheck,
    find_state_output,
    find_state_resource,
    require_state,
    resolve_output,
    resolve_resource,
)
from ._compare import CompareValue

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
    >>> ExpectKnownValue("module.m.test_resource.one", New("list_attribute"), kv.ListSizeExact(2)).CheckState(state)
    >>> ExpectKnownValue("module.m.test_resource.one", New("list_attribute"),
    ...                  kv.ListPartial({1: kv.StringExact("value3")})).CheckState(state)
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
            state,
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
    >>> ExpectKnownOutputValue("pw", kv.StringRegexp("^hunter")).CheckState(state)
    >>> ExpectKnownOutputValue("pw", kv.StringExact("hunter3")).CheckState(state)
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
    >>> ExpectKnownOutputValueAtPath("obj", New("tags"), kv.MapExact({"env": kv.StringExact("prod")})).CheckState(state)
    >>> ExpectKnownOutputValueAtPath("obj", New("name"), kv.Null()).CheckState(state)
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
    return match_failures(state, type(check).__name__, output_address(name), resolve_output(output, path), matcher)


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
    >>> ExpectSensitiveValue("test_resource.one", New("sensitive_list_attribute").AtSliceIndex(0)).CheckState(state)
    >>> ExpectSensitiveValue("test_resource.one", New("name")).CheckState(state)
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
            _schema_unmarked(state) if "sensitive_values" in resource.raw else "this state records no sensitive_values marks"
        )
        problem = sensitive_problem(resolve_resource(resource, self.path), state, unmarked)
        if problem is None:
            return []
        return [
            scrubbed_failure(
                state.secrets, name, self.address, self.path, deposed_prefix(self.deposed) + problem
            )
        ]


#: The first Terraform whose ``terraform show -json`` marks schema-sensitive attributes in a state's
#: ``sensitive_values`` (hashicorp/terraform#33059, backported to 1.4.6); OpenTofu's versions all do.
SCHEMA_MARKS_SINCE: Final = "1.4.6"


def _schema_unmarked(state: State) -> str | None:
    """Why a state's sensitive_values may lack a mark: the Terraform that wrote it, if it is older than 1.4.6.

    >>> from plancheck import State
    >>> _schema_unmarked(State.from_dict({"format_version": "0.2", "terraform_version": "1.0.3"}))
    "Terraform 1.0.3's terraform show -json marks in a state's sensitive_values only what the configuration made sensitive, not the attributes a provider's schema declares sensitive: Terraform 1.4.6 or later (or OpenTofu) marks those too"
    >>> _schema_unmarked(State.from_dict({"format_version": "1.0", "terraform_version": "1.11.4"})) is None
    True
    """
    written = state.terraform_version
    try:
        if written is None or Version(written) >= Version(SCHEMA_MARKS_SINCE):
            return None
    except VersionError:
        return None
    return (
        f"Terraform {written}'s terraform show -json marks in a state's sensitive_values only what the configuration "
        "made sensitive, not the attributes a provider's schema declares sensitive: "
        f"Terraform {SCHEMA_MARKS_SINCE} or later (or OpenTofu) marks those too"
    )


@public("plancheck.statecheck")
@frozen
class ExpectEachKnownValue(StateCheck):
    """The value at ``path`` of every resource ``selector`` selects in the state (any module) matches ``matcher``.

    ``selector`` is a :class:`~plancheck.Resources` (without ``action``: a state has none) or an
    address glob. Deposed objects are checked too. A selector that selects nothing fails, naming
    it, unless it says ``allow_empty=True``. Sensitive values are compared but never shown.

    >>> from plancheck import State, knownvalue as kv
    >>> from tfjsonpath import New
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...     {"address": "aws_s3_bucket.a", "type": "aws_s3_bucket", "values": {"acl": "private"}},
    ...     {"address": "aws_s3_bucket.b", "type": "aws_s3_bucket", "values": {"acl": "public-read"}}],
    ...     "child_modules": [{"address": "module.m", "resources": [{"address": "module.m.aws_s3_bucket.c",
    ...      "type": "aws_s3_bucket", "values": {"acl": "private"}}]}]}}})
    >>> ExpectEachKnownValue("module.m.*", New("acl"), kv.StringExact("private")).CheckState(state)
    >>> ExpectEachKnownValue("*aws_s3_bucket.*", New("acl"), kv.StringExact("private")).CheckState(state)
    Traceback (most recent call last):
    ...
    plancheck.StateCheckError: ExpectEachKnownValue: Resources(address='*aws_s3_bucket.*'): acl: 1 of 3 failed: aws_s3_bucket.b: expected value "private" for StringExact check, got: "public-read"
    """

    selector: Resources
    path: Path
    matcher: Check

    if TYPE_CHECKING:  # the constructor takes more than the fields hold: __post_init__ converts
        def __init__(self, selector: Resources | str, path: Path, matcher: Check) -> None: ...

    def __post_init__(self) -> None:
        name = type(self).__name__
        chosen = checked_selector(self.selector, name)
        if chosen.action is not None:
            raise ArgumentError(f"{name}: the selector's action selects resource changes of a plan; a state has none")
        self._set(selector=chosen, path=checked_path(self.path, name), matcher=checked_matcher(self.matcher, name))

    def failures(self, state: State) -> list[CheckFailure]:
        """The failure naming every resource whose value does not match (or is absent), in address order."""
        name = type(self).__name__
        items: list[Item] = []
        for resource in self.selector.select(state):
            verdict, detail = match_verdict(resolve_resource(resource, self.path), self.matcher, state, self.path)
            items.append(Item(item_label(resource.address, resource.deposed), verdict, detail))
        subject = self.selector.describe()
        if not items:
            if self.selector.allow_empty:
                return []
            message = empty_selection(
                self.selector, "state", [], (str(r.type) for r in state.resources if r.type), state.addresses()
            )
            return [scrubbed_failure(state.secrets, name, subject, None, message)]
        found, _ = each_outcome(name, subject, self.path, items, "fail", state)
        return found


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
    >>> ExpectIdentity("examplecloud_thing.one", {"id": kv.StringExact("321-id")}).CheckState(state)
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
            for message in identity_attribute_failures(identity, self.identity, state)
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
    >>> ExpectIdentityValue('module.app.examplecloud_thing.one["a"]', New("id"), kv.StringExact("id-123")).CheckState(state)
    >>> ExpectIdentityValue('module.app.examplecloud_thing.one["a"]', New("list_of_numbers").AtSliceIndex(2),
    ...                     kv.Int64Exact(4)).CheckState(state)
    Traceback (most recent call last):
    ...
    plancheck.StateCheckError: ExpectIdentityValue: module.app.examplecloud_thing.one["a"]: error checking identity value for attribute at path: identity.list_of_numbers[2], err: expected value 4 for Int64Exact check, got: 3
    """

    address: str
    path: Path
    matcher: Check

    def __post_init__(self) -> None:
        check_fields(self, address=checked_address, path=checked_path, matcher=checked_matcher)

    def failures(self, state: State) -> list[CheckFailure]:
        """The failure, if the value does not match or is absent, or the resource or its identity is missing."""
        resource = _identity_of(state, self, self.address)
        if isinstance(resource, CheckFailure):
            return [resource]
        problem = match_resolved(resolve_value(resource.identity, None, None, self.path), self.matcher, state)
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
    in_identity = resolve_value(resource.identity, None, None, identity_path)
    in_state = resolve_resource(resource, state_path)
    for where, resolved in ((located("identity", identity_path), in_identity), (located("values", state_path), in_state)):
        if resolved.status is ValueStatus.ABSENT:
            secrets = state.secrets
            return [scrubbed_failure(secrets, name, address, None, f"{where}: value is {resolved.describe(secrets)}")]
    left = in_identity.value if in_identity.status is ValueStatus.KNOWN else None
    right = in_state.value if in_state.status is ValueStatus.KNOWN else None
    if first_difference(left, right) is None:
        return []
    secrets = state.secrets  # asked for only now: a walk of the whole state, which a pass never needs
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
    >>> ExpectIdentityValueMatchesState("examplecloud_thing.one[0]", New("id")).CheckState(state)
    >>> ExpectIdentityValueMatchesState("examplecloud_thing.one[0]", New("name")).CheckState(state)
    Traceback (most recent call last):
    ...
    plancheck.StateCheckError: ExpectIdentityValueMatchesState: examplecloud_thing.one[0]: expected identity and state value at path to match, but they differ: examplecloud_thing.one[0].name, identity value: "other", state value: "n"
    """

    address: str
    path: Path

    def __post_init__(self) -> None:
        check_fields(self, address=checked_address, path=checked_path)

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
    >>> ExpectIdentityValueMatchesStateAtPath("examplecloud_thing.one", New("identifier"), New("id")).CheckState(state)
    >>> ExpectIdentityValueMatchesStateAtPath("examplecloud_thing.one", New("identifier"), New("password")).CheckState(state)
    Traceback (most recent call last):
    ...
    plancheck.StateCheckError: ExpectIdentityValueMatchesStateAtPath: examplecloud_thing.one: expected identity (examplecloud_thing.one.identifier) and state value (examplecloud_thing.one.password) to match, but they differ: identity value: (sensitive), state value: (sensitive)
    """

    address: str
    identity_path: Path
    state_path: Path

    def __post_init__(self) -> None:
        check_fields(self, address=checked_address, identity_path=checked_path, state_path=checked_path)

    def failures(self, state: State) -> list[CheckFailure]:
        """The failure, if the two values differ or either is absent, or the resource or its identity is missing."""
        return _matches_state_failures(self, state, self.address, self.identity_path, self.state_path)


@public("plancheck.statecheck")
def assert_state(state: State, *checks: StateCheck) -> None:
    """Run every check on ``state``; raise one :class:`~plancheck.StateCheckError` listing every failure.

    Failures come in the order the checks were given (each check orders its own).

    >>> from plancheck import State, knownvalue as kv
    >>> from plancheck.statecheck import ExpectKnownOutputValue
    >>> state = State.from_dict({"format_version": "1.0", "values": {"outputs": {
    ...     "a": {"value": "x", "type": "string"}, "b": {"value": 2, "type": "number"}}}})
    >>> assert_state(state, ExpectKnownOutputValue("a", kv.StringExact("x")))
    >>> assert_state(state, ExpectKnownOutputValue("a", kv.StringExact("y")), ExpectKnownOutputValue("b", kv.Null()))
    Traceback (most recent call last):
    ...
    plancheck.StateCheckError: 2 state checks failed:
      1. ExpectKnownOutputValue: output.a: expected value "y" for StringExact check, got: "x"
      2. ExpectKnownOutputValue: output.b: expected null value for Null check, got: number; got 2
    """
    run_checks(
        "assert_state",
        "state",
        require_state(state, "assert_state"),
        checks,
        StateCheck,
        StateCheckError,
        _hint,
    )


def _hint(check: object) -> str:
    if isinstance(check, CompareValue):
        return "; a CompareValue collects values: pass collector.AddStateValue(address, path)"
    return ""
