"""CompareValueCollection: some element of a collection in one resource compares with a value of another.

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

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tfjsonpath import MapStep, Path, SliceStep, describe_json_type
from tfjsonpath.internal import plural

from .._checking.fields import checked_address, checked_path
from .._checking.messages import located, scrubbed_failure
from .._documents.resolve import ValueStatus, resolve_value
from .._documents.state import State
from .._errors import CheckFailure, ValueMismatchError
from .._frozen import frozen, public
from .._redact import Marks, Secrets, child_marks
from ..compare import ValueComparer
from ..knownvalue.internal import is_array
from ._base import StateCheck, find_state_resource, resolve_resource
from ._compare import compared_value, require_comparer, value_problem

__all__ = ["CompareValueCollection"]

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
    comparer: ValueComparer, element: _Element, other: Any, other_marks: Marks, secrets: Secrets
) -> str | None:
    _, value, marks = element
    if is_array(other):
        value, marks = [value], [marks]
    try:
        comparer.compare_values([value, other], sensitive=[marks, other_marks], secrets=secrets)
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
    ...                        compare.ValuesSame()).check_state(state)
    >>> CompareValueCollection("test_resource.two", blocks, "test_resource.one", New("other"),
    ...                        compare.ValuesSame()).check_state(state)
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
            raise TypeError(
                f"{name}: collection_path must be a list of tfjsonpath.Path, got {type(self.collection_path).__name__}"
            )
        if not self.collection_path:
            raise ValueError(
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
        secrets = state.secrets

        def fail(address: str, path: Path | None, message: str) -> list[CheckFailure]:
            return [scrubbed_failure(secrets, name, address, path, message)]

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
        reasons: list[str] = []
        for element in walked:
            mismatch = _compare_one(self.comparer, element, other, other_marks, secrets)
            if mismatch is None:
                return []
            if mismatch not in reasons:
                reasons.append(mismatch)
        return fail(
            self.address,
            None,
            f"{collection} ({plural(len(walked), 'element')}): no element compares with {target}: "
            + "; ".join(reasons),
        )
