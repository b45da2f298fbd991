"""Comparing state values with a comparer: across test steps (CompareValue) and within one state (pairs).

Go's ``CompareValue`` hides its state: ``AddStateValue`` registers an address and
returns the collector itself, and each run reads the address registered at position
"number of values collected so far", so running the checks in another order reads the
wrong attribute. Here the collector is an explicit object, and each check it hands
out is a frozen value that knows its own address and path and adds to that collector.

CompareValueCollection: some element of a collection in one resource compares with a value of another.

How the collection is walked (Go's semantics, kept): the first path leads, in the
resource ``address``, to an array or an object. Each further path is followed from
every element of the arrays met so far (and from an object itself: a single nested
object), so nested lists flatten. What the last path reaches is collected: each
element of an array, each value of an object (in key order), or the one value.
Each collected element is then compared with the other value, wrapped in a
one-element array when that value is an array; the check passes if any comparison
holds.

Unlike Go: an empty collection fails (Go passes, having compared nothing); a path
that does not fit an element (a key into a string) fails instead of collecting the
string; a null met before the last path is skipped (there is nothing below it), where
Go collects the null itself.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple

from typing_extensions import deprecated

from tfjsonpath import MapStep, Path, SliceStep, describe_json_type
from tfjsonpath._jsontypes import copy_json, is_array, plural

from .._checking.fields import check_fields, checked_address, checked_instance, checked_path
from .._checking.messages import located, scrubbed_failure
from .._documents.resolve import ResolvedValue, ValueStatus, resolve_value
from .._documents.state import State
from .._errors import ArgumentError, CheckFailure, ValueMismatchError
from .._frozen import frozen, public
from .._redact import NO_SECRETS, Marks, Secrets, child_marks
from ..compare import ValueComparer
from ._base import StateCheck, find_state_resource, resolve_resource

__all__ = ["CompareValue", "CompareValueCheck", "CompareValueCollection", "CompareValuePairs"]


def require_comparer(value: object, check: str) -> ValueComparer:
    """Return ``value`` if it is a compare.ValueComparer, else raise an ArgumentError (a TypeError) naming the check."""
    if not isinstance(value, ValueComparer):
        raise ArgumentError(
            f"{check}: comparer must be a compare.ValueComparer (e.g. compare.ValuesSame()), "
            f"got {type(value).__name__}"
        )
    return value


def value_problem(resolved: ResolvedValue) -> str | None:
    """Why a resolved state value cannot be compared (it is not there), or None."""
    if resolved.status is ValueStatus.ABSENT or resolved.status is ValueStatus.UNKNOWN:
        return "value is " + resolved.describe()
    return None


def compared_value(resolved: ResolvedValue) -> tuple[Any, Marks]:
    """The value to compare (None for a null) and its sensitive marks."""
    return (resolved.value if resolved.status is ValueStatus.KNOWN else None), resolved.value_sensitive


class _Entry(NamedTuple):
    value: Any
    marks: Marks


@public("plancheck.statecheck")
class CompareValue:
    """A collector: compares the values it collects, one per run of its checks, with ``comparer``.

    Unlike the checks, a collector is **not** a frozen value: it accumulates. Make one
    per sequence of values to compare (e.g. per acceptance test), get a check for each
    test step with :meth:`AddStateValue` (Go's name), and
    run the checks in order. Each run reads its own address and path, copies the value
    into the collector, then compares everything collected so far. A value that is
    missing fails that run and is not collected. Sensitive values are compared but
    never shown, and the secrets of every state seen are scrubbed.

    >>> from plancheck import State, compare
    >>> from tfjsonpath import New
    >>> def state(ami):
    ...     return State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...         {"address": "aws_instance.web", "values": {"ami": ami}, "sensitive_values": {}}]}}})
    >>> same_ami = CompareValue(compare.ValuesSame())
    >>> step = same_ami.AddStateValue("aws_instance.web", New("ami"))
    >>> step.CheckState(state("ami-1"))
    >>> step.CheckState(state("ami-1"))
    >>> step.CheckState(state("ami-2"))
    Traceback (most recent call last):
    ...
    plancheck.StateCheckError: CompareValue: aws_instance.web: ami: expected values to be the same, but they differ: "ami-1" != "ami-2" (3 values collected)
    >>> same_ami.values
    ('ami-1', 'ami-1', 'ami-2')
    """

    __slots__ = ("_comparer", "_entries", "_lock", "_secrets")
    _comparer: ValueComparer
    _entries: list[_Entry]
    _secrets: Secrets
    _lock: threading.Lock

    def __init__(self, comparer: ValueComparer) -> None:
        self._comparer = require_comparer(comparer, "CompareValue")
        self._entries = []
        self._secrets = NO_SECRETS
        self._lock = threading.Lock()

    @property
    def comparer(self) -> ValueComparer:
        """The comparer the collected values are compared with."""
        return self._comparer

    @property
    def values(self) -> tuple[Any, ...]:
        """Copies of the values collected so far, in order (null for a null value)."""
        with self._lock:
            return tuple(copy_json(e.value) for e in self._entries)

    def AddStateValue(self, address: str, path: Path) -> CompareValueCheck:
        """A check that collects the value at ``path`` of resource ``address`` into this collector (Go's name).

        >>> from plancheck import compare
        >>> from tfjsonpath import New
        >>> collector = CompareValue(compare.ValuesDiffer())
        >>> collector.AddStateValue("null_resource.a", New("id"))
        CompareValueCheck(CompareValue(ValuesDiffer()), 'null_resource.a', Path(MapStep('id')))
        """
        return CompareValueCheck(self, address, path)

    @deprecated(
        "plancheck.statecheck.CompareValue.add_state_value is deprecated; use plancheck.statecheck.CompareValue.AddStateValue"
    )
    def add_state_value(self, address: str, path: Path) -> CompareValueCheck:
        """Deprecated: :meth:`AddStateValue`, Go's name, is the one name (#34); this one goes in the next release."""
        return self.AddStateValue(address, path)

    def reset(self) -> None:
        """Forget every collected value, to start a new sequence with the same checks.

        >>> from plancheck import compare
        >>> collector = CompareValue(compare.ValuesSame())
        >>> collector.reset()
        >>> collector.values
        ()
        """
        with self._lock:
            self._entries.clear()
            self._secrets = NO_SECRETS

    def _collect(self, value: Any, marks: Marks, secrets: Secrets) -> tuple[str | None, int, Secrets]:
        """Add a copy of ``value``, then compare all: (the comparer's reason or None, count, all secrets)."""
        with self._lock:
            self._entries.append(_Entry(copy_json(value), copy_json(marks)))
            self._secrets = self._secrets | secrets
            entries = list(self._entries)
            all_secrets = self._secrets
        try:
            self._comparer.CompareValues(
                [e.value for e in entries], sensitive=[e.marks for e in entries], secrets=all_secrets
            )
        except ValueMismatchError as exc:
            return exc.reason, len(entries), all_secrets
        return None, len(entries), all_secrets

    def __repr__(self) -> str:
        return f"CompareValue({self._comparer!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        with self._lock:
            entries = [(e.value, e.marks) for e in self._entries]
            secrets = self._secrets.ordered  # Secrets itself does not pickle
        return (_rebuild_collector, (self._comparer, entries, secrets))


def _rebuild_collector(
    comparer: ValueComparer, entries: list[tuple[Any, Marks]], secrets: tuple[str, ...]
) -> CompareValue:
    collector = CompareValue(comparer)
    collector._entries.extend(_Entry(v, m) for v, m in entries)
    collector._secrets = Secrets(secrets)
    return collector


@public("plancheck.statecheck")
@frozen
class CompareValueCheck(StateCheck):
    """The check :meth:`CompareValue.AddStateValue` returns: collect one value, then compare all.

    Frozen and hashable like every check; it refers to its collector (compared by
    identity), and each run adds one value to that collector.

    >>> from plancheck import compare
    >>> from tfjsonpath import New
    >>> collector = CompareValue(compare.ValuesSame())
    >>> check = collector.AddStateValue("null_resource.a", New("id"))
    >>> check == collector.AddStateValue("null_resource.a", New("id")), check.collector is collector
    (True, True)
    """

    collector: CompareValue
    address: str
    path: Path

    def __post_init__(self) -> None:
        check_fields(
            self, collector=checked_instance(CompareValue, "collector"), address=checked_address, path=checked_path
        )

    def failures(self, state: State) -> list[CheckFailure]:
        """Collect the value (a missing one fails and is not collected), then compare everything collected."""
        kind = "CompareValue"
        resource = find_state_resource(state, self.address, None)
        if isinstance(resource, str):
            return [scrubbed_failure(state.secrets, kind, self.address, None, resource)]
        resolved = resolve_resource(resource, self.path)
        problem = value_problem(resolved)
        if problem is not None:
            return [scrubbed_failure(state.secrets, kind, self.address, self.path, problem)]
        value, marks = compared_value(resolved)
        reason, count, secrets = self.collector._collect(value, marks, state.secrets)
        if reason is None:
            return []
        return [
            scrubbed_failure(secrets, kind, self.address, self.path, f"{reason} ({count} values collected)")
        ]


@public("plancheck.statecheck")
@frozen
class CompareValuePairs(StateCheck):
    """The value at ``path1`` of ``address1`` compares with the value at ``path2`` of ``address2``.

    >>> from plancheck import State, compare
    >>> from tfjsonpath import New
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...     {"address": "test_resource.one", "values": {"bool_attribute": True, "float_attribute": 1.234},
    ...      "sensitive_values": {}}]}}})
    >>> CompareValuePairs("test_resource.one", New("bool_attribute"), "test_resource.one", New("float_attribute"),
    ...                   compare.ValuesDiffer()).CheckState(state)
    >>> CompareValuePairs("test_resource.one", New("bool_attribute"), "test_resource.one", New("float_attribute"),
    ...                   compare.ValuesSame()).CheckState(state)
    Traceback (most recent call last):
    ...
    plancheck.StateCheckError: CompareValuePairs: test_resource.one: bool_attribute: expected values to be the same, but they differ: true != 1.234 (compared with test_resource.one.float_attribute)
    """

    address1: str
    path1: Path
    address2: str
    path2: Path
    comparer: ValueComparer

    def __post_init__(self) -> None:
        check_fields(
            self,
            address1=partial(checked_address, what="address1"),
            path1=checked_path,
            address2=partial(checked_address, what="address2"),
            path2=checked_path,
            comparer=require_comparer,
        )

    def failures(self, state: State) -> list[CheckFailure]:
        """A failure for each value that is missing; else the comparer's failure, if any."""
        name = type(self).__name__
        found: list[CheckFailure] = []
        sides: list[tuple[Any, Marks]] = []
        for address, path in ((self.address1, self.path1), (self.address2, self.path2)):
            resource = find_state_resource(state, address, None)
            if isinstance(resource, str):
                found.append(scrubbed_failure(state.secrets, name, address, None, resource))
                continue
            resolved = resolve_resource(resource, path)
            problem = value_problem(resolved)
            if problem is not None:
                found.append(scrubbed_failure(state.secrets, name, address, path, problem))
                continue
            sides.append(compared_value(resolved))
        if found:
            return found
        values, marks = [v for v, _ in sides], [m for _, m in sides]
        # A secret decides no comparison, only what a mismatch shows: the state's secrets (a walk of all of it)
        # are asked for only when the values do not compare, and they are compared again with them for the text.
        if _mismatch(self.comparer, values, marks, None) is None:
            return []
        reason = _mismatch(self.comparer, values, marks, state.secrets)
        if reason is None:
            return []
        message = f"{reason} (compared with {located(self.address2, self.path2)})"
        return [scrubbed_failure(state.secrets, name, self.address1, self.path1, message)]


# An element of the collection: its location (from the resource's root), value and sensitive marks.
_Element = tuple[Path, Any, Marks]


def _paths_text(paths: Sequence[Path]) -> str:
    out = ""
    for path in paths:
        text = path.to_text()
        out += text if (not out or text.startswith("[")) else "." + text
    return out


def _walk(start: _Element, rest: Sequence[Path]) -> list[_Element] | tuple[Path, str]:
    """Every element the collection paths reach, in order; or (location, reason) where a path does not fit."""
    out: list[_Element] = []
    stack: list[tuple[Path, Any, Marks, int]] = [(*start, 0)]
    while stack:
        where, value, marks, depth = stack.pop()
        if depth == len(rest):
            # The last path reached this: collect its elements (or itself).
            if is_array(value):
                out.extend(
                    (where.join(SliceStep(i)), v, child_marks(marks, SliceStep(i)))
                    for i, v in enumerate(value)
                )
            elif isinstance(value, Mapping):
                out.extend(
                    (where.join(MapStep(k)), value[k], child_marks(marks, MapStep(k))) for k in sorted(value)
                )
            else:
                out.append((where, value, marks))
            continue
        if value is None:
            continue  # nothing below a null
        step_path = rest[depth]
        sources: list[tuple[Path, Any, Marks]]
        if is_array(value):
            sources = [
                (where.join(SliceStep(i)), v, child_marks(marks, SliceStep(i))) for i, v in enumerate(value)
            ]
        else:
            sources = [(where, value, marks)]
        found: list[tuple[Path, Any, Marks, int]] = []
        for source_where, source, source_marks in sources:
            if source is None:
                continue  # nothing below a null element
            if not (is_array(source) or isinstance(source, Mapping)):
                return source_where, f"cannot follow {step_path.to_text()} into {describe_json_type(source)}"
            resolved = resolve_value(source, None, source_marks, step_path)
            target = source_where.join(*step_path.steps)
            if resolved.status is ValueStatus.ABSENT:
                return target, "value is " + resolved.describe()
            if resolved.status is ValueStatus.NULL:
                continue
            found.append((target, resolved.value, resolved.value_sensitive, depth + 1))
        stack.extend(reversed(found))
    return out


def _compare_one(
    comparer: ValueComparer, element: _Element, other: Any, other_marks: Marks, secrets: Secrets | None
) -> str | None:
    _, value, marks = element
    if is_array(other):
        value, marks = [value], [marks]
    return _mismatch(comparer, [value, other], [marks, other_marks], secrets)


def _mismatch(comparer: ValueComparer, values: list[Any], marks: list[Marks], secrets: Secrets | None) -> str | None:
    """Why ``values`` do not compare (the comparer's reason, scrubbed of ``secrets``), or None when they do."""
    try:
        comparer.CompareValues(values, sensitive=marks, secrets=secrets)
    except ValueMismatchError as exc:
        return exc.reason
    return None


@public("plancheck.statecheck")
@frozen
class CompareValueCollection(StateCheck):
    """Some element of the collection at ``collection_path`` in ``address`` compares with another value.

    ``collection_path`` is a list of paths: the first leads to the collection in
    ``address``, each further one is followed from every element (see the module
    documentation for the walk). The other value is at ``value_path`` of
    ``value_address``; an array value is compared with ``[element]``. An empty
    collection fails (Go passes).

    >>> from plancheck import State, compare
    >>> from tfjsonpath import New
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...     {"address": "test_resource.one", "values": {"string_attribute": "str", "other": "x"}},
    ...     {"address": "test_resource.two", "values": {"list_nested_block": [
    ...         {"list_nested_block_attribute": "str2"}, {"list_nested_block_attribute": "str"}]}}]}}})
    >>> blocks = [New("list_nested_block"), New("list_nested_block_attribute")]
    >>> CompareValueCollection("test_resource.two", blocks, "test_resource.one", New("string_attribute"),
    ...                        compare.ValuesSame()).CheckState(state)
    >>> CompareValueCollection("test_resource.two", blocks, "test_resource.one", New("other"),
    ...                        compare.ValuesSame()).CheckState(state)
    Traceback (most recent call last):
    ...
    plancheck.StateCheckError: CompareValueCollection: test_resource.two: collection list_nested_block.list_nested_block_attribute (2 elements): no element compares with test_resource.one.other: expected values to be the same, but they differ: "str2" != "x"; expected values to be the same, but they differ: "str" != "x"
    """

    address: str
    collection_path: tuple[Path, ...]
    value_address: str
    value_path: Path
    comparer: ValueComparer

    if TYPE_CHECKING:  # the constructor takes more than the fields hold: __post_init__ converts
        def __init__(
            self,
            address: str,
            collection_path: Sequence[Path],
            value_address: str,
            value_path: Path,
            comparer: ValueComparer,
        ) -> None: ...

    def __post_init__(self) -> None:
        name = type(self).__name__
        if isinstance(self.collection_path, Path) or not isinstance(self.collection_path, (list, tuple)):
            raise ArgumentError(
                f"{name}: collection_path must be a list of tfjsonpath.Path, got {type(self.collection_path).__name__}"
            )
        if not self.collection_path:
            raise ArgumentError(
                f"{name}: collection_path must hold at least one path (Go: no collection path was provided)"
            )
        self._set(
            address=checked_address(self.address, name),
            collection_path=tuple(checked_path(p, name) for p in self.collection_path),
            value_address=checked_address(self.value_address, name, "value_address"),
            value_path=checked_path(self.value_path, name),
            comparer=require_comparer(self.comparer, name),
        )

    def _args(self, *, shown: bool = False) -> tuple[tuple[Any, ...], dict[str, Any]]:
        args, kwargs = StateCheck._args(self, shown=shown)  # no zero-argument super(): a slotted dataclass is a new class
        # The repr and pickle show the collection path as the list it was given as.
        return (args[0], list(args[1]), *args[2:]), kwargs

    def failures(self, state: State) -> list[CheckFailure]:
        """The failure, if no element compares, the collection is empty, or a value is missing."""
        name = type(self).__name__

        def fail(address: str, path: Path | None, message: str) -> list[CheckFailure]:
            return [scrubbed_failure(state.secrets, name, address, path, message)]

        resource = find_state_resource(state, self.address, None)
        if isinstance(resource, str):
            return fail(self.address, None, resource)
        first = self.collection_path[0]
        resolved = resolve_resource(resource, first)
        problem = value_problem(resolved)
        if problem is not None:
            return fail(self.address, first, problem)
        value, marks = compared_value(resolved)
        if not (is_array(value) or isinstance(value, Mapping)):
            found = describe_json_type(value)
            return fail(self.address, first, f"expected a collection (an array or an object), found {found}")
        walked = _walk((first, value, marks), self.collection_path[1:])
        if isinstance(walked, tuple):
            where, why = walked
            return fail(self.address, where, f"collection element: {why}")
        collection = f"collection {_paths_text(self.collection_path)}"
        target = located(self.value_address, self.value_path)
        if not walked:
            return fail(self.address, None, f"{collection} is empty: nothing to compare with {target}")
        other_resource = find_state_resource(state, self.value_address, None)
        if isinstance(other_resource, str):
            return fail(self.value_address, None, other_resource)
        other_resolved = resolve_resource(other_resource, self.value_path)
        problem = value_problem(other_resolved)
        if problem is not None:
            return fail(self.value_address, self.value_path, problem)
        other, other_marks = compared_value(other_resolved)
        # A secret decides no comparison: the state's secrets (a walk of all of it) are asked for only when no
        # element compares, to tell why each does not.
        if any(_compare_one(self.comparer, element, other, other_marks, None) is None for element in walked):
            return []
        reasons: list[str] = []
        for element in walked:
            mismatch = _compare_one(self.comparer, element, other, other_marks, state.secrets)
            if mismatch is not None and mismatch not in reasons:
                reasons.append(mismatch)
        return fail(
            self.address,
            None,
            f"{collection} ({plural(len(walked), 'element')}): no element compares with {target}: "
            + "; ".join(reasons),
        )
