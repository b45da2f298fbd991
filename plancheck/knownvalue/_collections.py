"""Checks for arrays and objects: List*, Tuple*, Map* and Object* (exact, partial and size checks).

Lists and tuples are both JSON arrays, maps and objects both JSON objects; the
names follow Terraform's types and Go's package, and only change the wording of
messages.

Checks for sets: SetExact, SetPartial, SetSizeExact.

A set is a JSON array in no particular order. The expected checks are paired
with elements by a maximum bipartite matching (augmenting paths), not greedily:
``SetExact([StringRegexp(".*"), StringExact("a")])`` matches ``["a", "b"]`` even
though the first check would also take ``"a"`` (Go's greedy search fails that).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar, final

from tfjsonpath import MapStep, SliceStep, Step
from tfjsonpath._jsontypes import is_array, is_object, json_type

from .._checking.matcher import (
    Check,
    Child,
    Ctx,
    ValueCheck,
    Visit,
    plural,
    quote,
    require_check,
)
from .._errors import ArgumentError
from .._frozen import public
from .._redact import NO_VALUE, SENSITIVE, Marks, child_marks, contains_sensitive
from ._scalars import expect_arg


def check_list(owner: str, items: Sequence[Check]) -> tuple[Check, ...]:
    """Validate a list of checks given to a constructor."""
    if not isinstance(items, (list, tuple)):
        raise ArgumentError(f"{owner} expects a list of checks, got {type(items).__name__}")
    return tuple(require_check(owner, f"element {i}", item) for i, item in enumerate(items))


def _array_type_error(name: str, value: Any) -> str:
    return f"expected array value for {name} check, got: {json_type(value)}"


def _object_type_error(name: str, value: Any) -> str:
    return f"expected object value for {name} check, got: {json_type(value)}"


def _present_keys(value: Mapping[Any, Any], unknown: Marks) -> list[Any]:
    # Terraform leaves unknown attributes out of "after" and marks them in "after_unknown":
    # such a key is there, its value is just not known yet.
    keys = list(value.keys())
    if isinstance(unknown, Mapping):
        seen = set(keys)
        keys.extend(k for k, mark in unknown.items() if mark is True and k not in seen)
    return keys


def _key_order(key: Any) -> tuple[bool, str]:
    return (not isinstance(key, str), str(key))


def _element(value: Any, index: int) -> Any:
    """The element of ``value`` at ``index``, or NO_VALUE when ``value`` is no array that long."""
    return value[index] if is_array(value) and index < len(value) else NO_VALUE


def _count_error(name: str, expected: int, got: int) -> str:
    return f"expected {plural(expected, 'element')} for {name} check, got {plural(got, 'element')}"


class ElementsCheck(Check):
    """Base of the checks built from a list of element checks (the exact list, tuple and set checks).

    >>> from plancheck import knownvalue as kv
    >>> kv.SetExact([kv.Null(), kv.Bool(True)]).items, kv.ListExact([])
    ((Null(), Bool(True)), ListExact([]))
    """

    __slots__ = ("_items",)
    _items: tuple[Check, ...]

    def __init__(self, items: Sequence[Check]) -> None:
        object.__setattr__(self, "_items", check_list(self.name, items))
        self._seal()

    @property
    def items(self) -> tuple[Check, ...]:
        """The element checks, in the order given (a set check pairs them with elements in any order)."""
        return self._items

    def _ident(self) -> tuple[Hashable, ...]:
        return (len(self._items),)

    def _kids(self) -> Sequence[Check]:
        return self._items

    def _args(self) -> tuple[Any, ...]:
        return (list(self._items),)

    def _repr_parts(self) -> Sequence[str | Check]:
        return joined(f"{self.name}([", self._items, "])")

    def _array_problem(self, value: Any, exact: bool) -> str | None:
        """Why ``value`` is not an array (of exactly as many elements as checks, if ``exact``), or None."""
        if not is_array(value):
            return _array_type_error(self.name, value)
        if exact and len(value) != len(self._items):
            return _count_error(self.name, len(self._items), len(value))
        return None


class _SequenceExact(ElementsCheck):
    __slots__ = ()

    def _text_parts(self) -> Sequence[str | Check]:
        return joined("[", self._items, "]")

    def _compared_with(self, value: Any) -> Sequence[tuple[Check, Step | None, Any]]:
        return [(kid, SliceStep(i), _element(value, i)) for i, kid in enumerate(self._items)]

    def _visit(self, value: Any, marks: Marks, unknown: Marks, ctx: Ctx) -> Visit:
        problem = self._array_problem(value, True)
        if problem is not None:
            return problem
        return [(SliceStep(i), kid, value[i]) for i, kid in enumerate(self._items)]


def joined(head: str, items: Sequence[Check], tail: str) -> list[str | Check]:
    """``head``, the items separated by ``", "``, then ``tail``: the text parts of a bracketed list."""
    parts: list[str | Check] = [head]
    for i, item in enumerate(items):
        if i:
            parts.append(", ")
        parts.append(item)
    parts.append(tail)
    return parts


@public("plancheck.knownvalue")
@final
class ListExact(_SequenceExact):
    """The value is a list of exactly these elements, in this order.

    >>> from plancheck import knownvalue as kv
    >>> kv.ListExact([kv.Int64Exact(1), kv.StringExact("a")]) == [1, "a"]
    True
    >>> kv.ListExact([kv.Int64Exact(123), kv.Int64Exact(456)]).CheckValue([123, 654])
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: [1]: expected value 456 for Int64Exact check, got: 654
    """

    __slots__ = ()
    name = "ListExact"


@public("plancheck.knownvalue")
@final
class TupleExact(_SequenceExact):
    """The value is a tuple of exactly these elements, in this order.

    >>> from plancheck import knownvalue as kv
    >>> kv.TupleExact([kv.Int64Exact(123), kv.Bool(True), kv.StringExact("hello")]) == [123, True, "hello"]
    True
    """

    __slots__ = ()
    name = "TupleExact"


_K = TypeVar("_K", int, str)


class _ByKey(Check, Generic[_K]):
    """A check built from a dict of element checks by index (partial lists) or by key (maps, objects)."""

    __slots__ = ("_items",)
    _items: tuple[tuple[_K, Check], ...]
    #: What the dict's keys are, in messages: "index" or "key".
    _key_noun: ClassVar[str]

    def __init__(self, items: Mapping[_K, Check]) -> None:
        if not isinstance(items, Mapping):
            raise ArgumentError(
                f"{self.name} expects a dict of {self._key_noun} to check, got {type(items).__name__}"
            )
        checked: list[tuple[_K, Check]] = []
        for key, item in items.items():
            checked.append((self._checked_key(key), require_check(self.name, self._place(key), item)))
        checked.sort(key=lambda pair: pair[0])
        object.__setattr__(self, "_items", tuple(checked))
        self._seal()

    def _checked_key(self, key: object) -> _K:
        """``key`` if it is a valid index or key, else raise naming the check."""
        raise NotImplementedError

    def _place(self, key: _K) -> str:
        """Where a check sits, for the error about a non-check: ``check at index 2``."""
        raise NotImplementedError

    def _ident(self) -> tuple[Hashable, ...]:
        return tuple(key for key, _ in self._items)

    def _kids(self) -> Sequence[Check]:
        return tuple(item for _, item in self._items)

    def _args(self) -> tuple[Any, ...]:
        return (dict(self._items),)

    def _repr_parts(self) -> Sequence[str | Check]:
        parts: list[str | Check] = [f"{self.name}({{"]
        for i, (key, item) in enumerate(self._items):
            parts.extend((f"{', ' if i else ''}{key!r}: ", item))
        parts.append("})")
        return parts


class _SequencePartial(_ByKey[int]):
    __slots__ = ()
    _key_noun = "index"

    # Spelled out so the signature (read by the checks-file builder) says what the keys are.
    def __init__(self, items: Mapping[int, Check]) -> None:
        super().__init__(items)

    def _checked_key(self, key: object) -> int:
        if isinstance(key, bool) or not isinstance(key, int):
            raise ArgumentError(f"{self.name} index must be an int, got {type(key).__name__}: {key!r}")
        if key < 0:
            raise ArgumentError(f"{self.name} index must be >= 0, got {key}")
        return key

    def _place(self, key: int) -> str:
        return f"check at index {key}"

    @property
    def items(self) -> dict[int, Check]:
        """The element checks by index (a new dict)."""
        return dict(self._items)

    def _text_parts(self) -> Sequence[str | Check]:
        parts: list[str | Check] = ["["]
        for index, item in self._items:
            parts.extend((f"{index}: ", item, ", "))
        parts.append("...]")
        return parts

    def _compared_with(self, value: Any) -> Sequence[tuple[Check, Step | None, Any]]:
        return [(kid, SliceStep(index), _element(value, index)) for index, kid in self._items]

    def _visit(self, value: Any, marks: Marks, unknown: Marks, ctx: Ctx) -> Visit:
        if not is_array(value):
            return _array_type_error(self.name, value)
        present: list[Child] = [
            (SliceStep(index), item, value[index]) for index, item in self._items if index < len(value)
        ]
        if len(present) == len(self._items):
            return present
        # Missing indexes are the largest ones; like Go, an element that fails before them is the first failure.
        failing = _first_failing(present, marks, unknown, ctx)
        if failing is not None:
            return failing
        missing = [str(index) for index, _ in self._items[len(present) :]]
        noun = "index" if len(missing) == 1 else "indexes"
        return f"missing element {noun} {', '.join(missing)} for {self.name} check"


def _first_failing(children: Sequence[Child], marks: Marks, unknown: Marks, ctx: Ctx) -> list[Child] | None:
    """The first of ``children`` that fails, as the one child to visit (so its failure has its path), or None."""
    for step, item, element in children:
        if ctx.run(item, element, child_marks(marks, step), child_marks(unknown, step)) is not None:
            return [(step, item, element)]
    return None


@public("plancheck.knownvalue")
@final
class ListPartial(_SequencePartial):
    """The value is a list whose elements at these indexes match; other elements are not checked.

    >>> from plancheck import knownvalue as kv
    >>> kv.ListPartial({0: kv.StringExact("a"), 2: kv.Null()}) == ["a", "anything", None]
    True
    >>> kv.ListPartial({-1: kv.Null()})
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: ListPartial index must be >= 0, got -1
    >>> kv.ListPartial({2: kv.Null(), 3: kv.Null()}).CheckValue([1])
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: missing element indexes 2, 3 for ListPartial check
    """

    __slots__ = ()
    name = "ListPartial"


@public("plancheck.knownvalue")
@final
class TuplePartial(_SequencePartial):
    """The value is a tuple whose elements at these indexes match; other elements are not checked.

    >>> from plancheck import knownvalue as kv
    >>> kv.TuplePartial({1: kv.Bool(True)}) == ["x", True]
    True

    Indexes are checked in order, as in Go: the first failing one is reported, and a
    missing index names every missing one.

    >>> check = kv.TuplePartial({0: kv.StringExact("a"), 2: kv.StringExact("c"), 3: kv.Bool(True)})
    >>> check.CheckValue(["a", "b", "x"])
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: [2]: expected value "c" for StringExact check, got: "x"
    >>> check.CheckValue(["a"])
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: missing element indexes 2, 3 for TuplePartial check
    """

    __slots__ = ()
    name = "TuplePartial"


class SizeCheck(ValueCheck):
    """Base of the size checks: the value is a collection of exactly ``size`` elements.

    >>> from plancheck import knownvalue as kv
    >>> isinstance(kv.SetSizeExact(2), SizeCheck), kv.MapSizeExact(2).size
    (True, 2)
    """

    __slots__ = ()
    _value: int
    _noun: ClassVar[str]
    _object: ClassVar[bool] = False
    _compares_count = True

    def __init__(self, size: int) -> None:
        expect_arg(self.name, size, int, "an int size")
        if size < 0:
            raise ArgumentError(f"{self.name} size must be >= 0, got {size}")
        self._init_value(size)

    @property
    def size(self) -> int:
        """The expected number of elements."""
        return self._value

    def _text_parts(self) -> Sequence[str | Check]:
        return (f"<{self._noun} of {plural(self._value, 'element')}>",)

    def _visit(self, value: Any, marks: Marks, unknown: Marks, ctx: Ctx) -> Visit:
        if self._object:
            if not is_object(value):
                return _object_type_error(self.name, value)
            count = len(_present_keys(value, unknown))
        else:
            if not is_array(value):
                return _array_type_error(self.name, value)
            count = len(value)
        if count != self._value:
            return _count_error(self.name, self._value, count)
        return None


@public("plancheck.knownvalue")
@final
class ListSizeExact(SizeCheck):
    """The value is a list of exactly this many elements.

    >>> from plancheck import knownvalue as kv
    >>> kv.ListSizeExact(2) == ["a", "b"]
    True
    >>> kv.ListSizeExact(3).CheckValue([1, 2])
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: expected 3 elements for ListSizeExact check, got 2 elements
    """

    __slots__ = ()
    name = "ListSizeExact"
    _noun = "list"


@public("plancheck.knownvalue")
@final
class TupleSizeExact(SizeCheck):
    """The value is a tuple of exactly this many elements.

    >>> from plancheck import knownvalue as kv
    >>> kv.TupleSizeExact(3) == [123, "hello", True]
    True
    """

    __slots__ = ()
    name = "TupleSizeExact"
    _noun = "tuple"


@public("plancheck.knownvalue")
@final
class MapSizeExact(SizeCheck):
    """The value is a map of exactly this many elements.

    >>> from plancheck import knownvalue as kv
    >>> kv.MapSizeExact(1) == {"a": 1}, kv.MapSizeExact(1) == [1]
    (True, False)
    """

    __slots__ = ()
    name = "MapSizeExact"
    _noun = "map"
    _object = True


class _Keyed(_ByKey[str]):
    __slots__ = ()
    _key_noun = "key"
    _noun: ClassVar[tuple[str, str]]
    #: How Go counts the keys of an exact check: "3 elements" for maps, "3 attribute(s)" for objects.
    _count_nouns: ClassVar[tuple[str, str]] = ("element", "elements")
    _exact: ClassVar[bool]

    # Spelled out so the signature (read by the checks-file builder) says what the keys are.
    def __init__(self, items: Mapping[str, Check]) -> None:
        super().__init__(items)

    def _checked_key(self, key: object) -> str:
        if not isinstance(key, str):
            raise ArgumentError(f"{self.name} key must be a str, got {type(key).__name__}: {key!r}")
        return key

    def _place(self, key: str) -> str:
        return f"check for key {key!r}"

    @property
    def items(self) -> dict[str, Check]:
        """The checks by key (a new dict, keys sorted)."""
        return dict(self._items)

    def _text_parts(self) -> Sequence[str | Check]:
        parts: list[str | Check] = ["{"]
        for i, (key, item) in enumerate(self._items):
            parts.extend((f"{', ' if i else ''}{quote(key)}: ", item))
        if not self._exact:
            parts.append(", ..." if self._items else "...")
        parts.append("}")
        return parts

    def _compared_with(self, value: Any) -> Sequence[tuple[Check, Step | None, Any]]:
        return [(kid, MapStep(key), value.get(key, NO_VALUE) if is_object(value) else NO_VALUE) for key, kid in self._items]

    def _visit(self, value: Any, marks: Marks, unknown: Marks, ctx: Ctx) -> Visit:
        if not is_object(value):
            return _object_type_error(self.name, value)
        present = _present_keys(value, unknown)
        present_set = set(present)
        missing = [key for key, _ in self._items if key not in present_set]
        children: list[Child] = [(MapStep(key), item, value.get(key)) for key, item in self._items]
        if self._exact and len(present) != len(self._items):
            return self._shape_error(present, missing, marks, ctx)
        if not missing:
            return children
        # Like Go, keys are checked in order: a value that fails before the first missing key is the first failure.
        first_missing = next(i for i, (key, _) in enumerate(self._items) if key not in present_set)
        failing = _first_failing(children[:first_missing], marks, unknown, ctx)
        if failing is not None:
            return failing
        if self._exact:
            return self._shape_error(present, missing, marks, ctx)
        one, many = self._noun
        # The keys asked for were compared with the value's: one of those a secret hides them all, as for an exact check.
        shown = self._shown_keys(missing, missing + present, marks, ctx)
        return f"missing {one if len(missing) == 1 else many} {shown} for {self.name} check"

    def _shape_error(self, present: list[Any], missing: list[str], marks: Marks, ctx: Ctx) -> str:
        """Go's count sentence for an exact check whose keys differ, then the extra and the missing keys."""
        expected = {key for key, _ in self._items}
        extra = sorted((k for k in present if k not in expected), key=_key_order)
        one, _ = self._noun
        parts = [
            f"actual value {verb} {one}(s): {self._shown_keys(keys, missing + extra, marks, ctx)}"
            for verb, keys in (("has extra", extra), ("is missing", missing))
            if keys
        ]
        return (
            f"expected {self._count(len(self._items))} for {self.name} check, "
            f"got {self._count(len(present))}: {'; '.join(parts)}"
        )

    def _count(self, n: int) -> str:
        one, many = self._count_nouns
        return f"{n} {one if n == 1 else many}"

    def _shown_keys(self, keys: list[Any], compared: list[Any], marks: Marks, ctx: Ctx) -> str:
        # Inside a sensitive map even key names stay hidden; and if any actual key is a secret,
        # an expected key could be a near miss of it, so then all keys are hidden.
        shown = [quote(k) if isinstance(k, str) else repr(k) for k in keys]
        every = [quote(k) if isinstance(k, str) else repr(k) for k in compared or keys]
        if ctx.hidden(marks) or any(ctx.lit(k, marks) == SENSITIVE for k in every):
            return SENSITIVE
        return ", ".join(shown)


@public("plancheck.knownvalue")
@final
class MapExact(_Keyed):
    """The value is a map with exactly these keys, each value matching its check.

    >>> from plancheck import knownvalue as kv
    >>> kv.MapExact({"a": kv.Int64Exact(1)}) == {"a": 1}
    True
    >>> kv.MapExact({"one": kv.Null(), "two": kv.Null()}).CheckValue({"one": None, "six": None, "ten": None})
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: expected 2 elements for MapExact check, got 3 elements: actual value has extra key(s): "six", "ten"; actual value is missing key(s): "two"
    """

    __slots__ = ()
    name = "MapExact"
    _noun = ("key", "keys")
    _count_nouns = ("element", "elements")
    _exact = True


@public("plancheck.knownvalue")
@final
class MapPartial(_Keyed):
    """The value is a map that has these keys (and maybe others), each value matching its check.

    >>> from plancheck import knownvalue as kv
    >>> kv.MapPartial({"a": kv.Int64Exact(1)}) == {"a": 1, "b": 2}
    True
    >>> kv.MapPartial({"one": kv.Null()}).CheckValue({"two": None})
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: missing key "one" for MapPartial check
    """

    __slots__ = ()
    name = "MapPartial"
    _noun = ("key", "keys")
    _exact = False


@public("plancheck.knownvalue")
@final
class ObjectExact(_Keyed):
    """The value is an object with exactly these attributes, each matching its check.

    >>> from plancheck import knownvalue as kv
    >>> kv.ObjectExact({"id": kv.StringExact("x")}) == {"id": "x"}
    True
    >>> kv.ObjectExact({"id": kv.NotNull()}).CheckValue({"id": "x", "arn": "y"})
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: expected 1 attribute(s) for ObjectExact check, got 2 attribute(s): actual value has extra attribute(s): "arn"
    """

    __slots__ = ()
    name = "ObjectExact"
    _noun = ("attribute", "attributes")
    _count_nouns = ("attribute(s)", "attribute(s)")
    _exact = True


@public("plancheck.knownvalue")
@final
class ObjectPartial(_Keyed):
    """The value is an object that has these attributes (and maybe others), each matching its check.

    >>> from plancheck import knownvalue as kv
    >>> kv.ObjectPartial({"id": kv.NotNull()}) == {"id": "x", "arn": "y"}
    True
    >>> kv.ObjectPartial({"a": kv.StringExact("x"), "z": kv.Null()}).CheckValue({"a": "y"})
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: a: expected value "x" for StringExact check, got: "y"
    >>> kv.ObjectPartial({"a": kv.StringExact("x"), "z": kv.Null()}).CheckValue({"b": "y"})
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: missing attributes "a", "z" for ObjectPartial check
    """

    __slots__ = ()
    name = "ObjectPartial"
    _noun = ("attribute", "attributes")
    _exact = False


def max_matching(n_left: int, n_right: int, fits: Callable[[int, int], bool]) -> list[int]:
    """A maximum matching of left to right vertices: ``result[i]`` is the right partner of ``i``, or -1.

    Each left vertex in turn searches breadth-first for an augmenting path, trying right
    vertices in index order, so the result is deterministic.

    >>> max_matching(2, 2, lambda i, j: i == 0 or j == 0)
    [1, 0]
    """
    left = [-1] * n_left
    right = [-1] * n_right
    for start in range(n_left):
        reached_from: dict[int, int] = {}
        seen_left = {start}
        queue = deque([start])
        free = -1
        while queue and free < 0:
            u = queue.popleft()
            for v in range(n_right):
                if v in reached_from or not fits(u, v):
                    continue
                reached_from[v] = u
                if right[v] < 0:
                    free = v
                    break
                w = right[v]
                if w not in seen_left:
                    seen_left.add(w)
                    queue.append(w)
        v = free
        while v >= 0:
            # Flip the path: each left vertex on it takes the right vertex it reached.
            u = reached_from[v]
            previous = left[u]
            left[u] = v
            right[v] = u
            v = previous
    return left


class _SetCheck(ElementsCheck):
    __slots__ = ()
    _exact: ClassVar[bool]

    def _text_parts(self) -> Sequence[str | Check]:
        if self._exact:
            return joined("[", self._items, "]")
        return [*joined("[", self._items, ", ..." if self._items else "..."), "]"]

    def _visit(self, value: Any, marks: Marks, unknown: Marks, ctx: Ctx) -> Visit:
        problem = self._array_problem(value, self._exact)
        if problem is not None:
            return problem
        steps = [SliceStep(j) for j in range(len(value))]
        elem_marks = [child_marks(marks, step) for step in steps]
        elem_unknown = [child_marks(unknown, step) for step in steps]
        cache: dict[tuple[int, int], bool] = {}

        def fits(i: int, j: int) -> bool:
            key = (i, j)
            if key not in cache:
                cache[key] = ctx.run(self._items[i], value[j], elem_marks[j], elem_unknown[j]) is None
            return cache[key]

        pairing = max_matching(len(self._items), len(value), fits)
        missing = [i for i, j in enumerate(pairing) if j < 0]
        if not missing:
            return None
        elements = [ctx.shown(value[j], elem_marks[j]) for j in range(len(value))]
        shown_elements = [text for text, _ in elements]
        # Any hidden element could equal (or nearly equal) an expected literal, so then none is shown.
        hide = not ctx.reveal and (contains_sensitive(marks) or any(hid for _, hid in elements))
        shown = [SENSITIVE if hide else ctx.lit(str(self._items[i]), None) for i in missing]
        noun = "value" if len(missing) == 1 else "values"
        reason = f"missing {noun} {', '.join(shown)} for {self.name} check"
        if self._exact:
            taken = set(pairing)
            spare = [j for j in range(len(value)) if j not in taken]
            listed = ", ".join(f"[{j}]: {shown_elements[j]}" for j in spare)
            reason += f"; unmatched {'element' if len(spare) == 1 else 'elements'} {listed}"
        return reason


@public("plancheck.knownvalue")
@final
class SetExact(_SetCheck):
    """The value is a set whose elements pair off one to one with these checks, in any order.

    >>> from plancheck import knownvalue as kv
    >>> kv.SetExact([kv.StringRegexp(".*"), kv.StringExact("a")]) == ["a", "b"]
    True
    >>> kv.SetExact([kv.Int64Exact(123), kv.Int64Exact(789)]).CheckValue([123, 654])
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: missing value 789 for SetExact check; unmatched element [1]: 654
    """

    __slots__ = ()
    name = "SetExact"
    _exact = True


@public("plancheck.knownvalue")
@final
class SetPartial(_SetCheck):
    """The value is a set in which each check matches its own element; other elements are not checked.

    >>> from plancheck import knownvalue as kv
    >>> kv.SetPartial([kv.StringExact("a"), kv.StringRegexp("^a")]) == ["b", "a", "ab"]
    True
    >>> kv.SetPartial([kv.StringExact("a"), kv.StringExact("a")]) == ["a"]
    False
    """

    __slots__ = ()
    name = "SetPartial"
    _exact = False


@public("plancheck.knownvalue")
@final
class SetSizeExact(SizeCheck):
    """The value is a set of exactly this many elements.

    >>> from plancheck import knownvalue as kv
    >>> kv.SetSizeExact(2) == [1, 2]
    True
    """

    __slots__ = ()
    name = "SetSizeExact"
    _noun = "set"
