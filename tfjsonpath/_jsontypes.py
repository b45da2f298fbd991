"""The JSON toolkit below everything: which values count as which JSON kind, how to name a value's kind,
how to write a number exactly, how to copy a value, and where one holds itself (:func:`find_cycle`, the one
finder of cycles: plans, states, matchers' values and a test's variables all refuse one by it).

Two meanings of "array" are told apart by name, each kept where it is needed:

* :func:`is_array`, a JSON array as a parser builds it (a ``list`` or ``tuple``): what a matcher,
  a comparison and a JSON value model accept; any other sequence (``range``, ``deque``) is no JSON;
* :func:`is_sequence`, any sequence that is not text or bytes: what a path may index and a marks
  tree may be (a lazily loaded document or a custom decoder may build other sequences).

The schema validator's array is a third, jsonschema's (a ``list`` only), kept with the validator
(``plancheck/_loading/validate.py``) so that its two modes agree.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any, Final, NamedTuple, TypeGuard

from ._errors import public

__all__ = [
    "Cycle",
    "copy_json",
    "describe_json_type",
    "find_cycle",
    "fold_nodes",
    "is_array",
    "is_json_scalar",
    "is_number",
    "is_object",
    "is_sequence",
    "json_kind",
    "json_nodes",
    "json_size",
    "json_type",
    "number_text",
    "plural",
]


# The one home of these predicates: plancheck's redaction, loading, snapshots and matchers import them from here.
# Each tests the types JSON parsers build (dict, list) by identity first: on the hot paths (marks
# walks, traversal) an isinstance against the Mapping/Sequence ABCs costs more than the rest of a step.


def is_object(value: Any) -> TypeGuard[Mapping[Any, Any]]:
    """A JSON object: any Mapping (dict, or a mapping type a custom decoder or lazy loader made).

    >>> from types import MappingProxyType
    >>> is_object({}), is_object(MappingProxyType({"a": 1})), is_object([]), is_object(None)
    (True, True, False, False)
    """
    return type(value) is dict or isinstance(value, Mapping)


def is_sequence(value: Any) -> TypeGuard[Sequence[Any]]:
    """A sequence that is not text or bytes: what a path may index into and a marks tree may be.

    >>> is_sequence([1]), is_sequence((1,)), is_sequence(range(2)), is_sequence("ab"), is_sequence(b"ab")
    (True, True, True, False, False)
    >>> is_sequence({})
    False
    """
    kind = type(value)
    if kind is list or kind is tuple:
        return True
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray))


def is_array(value: Any) -> TypeGuard[list[Any] | tuple[Any, ...]]:
    """A JSON array as a parser builds it: a ``list`` or ``tuple`` (a matcher names any other sequence non-JSON).

    >>> is_array([1]), is_array((1,)), is_array(range(2)), is_array("ab")
    (True, True, False, False)
    """
    return isinstance(value, (list, tuple))


def is_number(value: Any) -> bool:
    """A JSON number: an ``int``, ``float`` or ``Decimal``; a ``bool`` is not one.

    >>> is_number(1), is_number(Decimal("1.5")), is_number(True), is_number("1")
    (True, True, False, False)
    """
    return isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)


def is_json_scalar(value: Any) -> bool:
    """A JSON string, number, bool or null.

    >>> is_json_scalar(None), is_json_scalar({1}), is_json_scalar([])
    (True, False, False)
    """
    return value is None or isinstance(value, (str, bool)) or is_number(value)


def json_type(value: Any) -> str:
    """The JSON type name of a value: string, number, bool, null, array or object.

    Only the type is named, never the content, so it is safe for sensitive values.

    >>> [json_type(v) for v in ("s", 1, Decimal("1.5"), True, None, [], {})]
    ['string', 'number', 'number', 'bool', 'null', 'array', 'object']
    >>> json_type({1, 2}), json_type(range(2))
    ('non-JSON set', 'non-JSON range')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, str):
        return "string"
    if is_number(value):
        return "number"
    if is_array(value):
        return "array"
    if is_object(value):
        return "object"
    return f"non-JSON {type(value).__name__}"


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 key``, ``3 keys``: a count for messages; ``words`` is the plural when it is not ``word + "s"``.

    >>> plural(1, "key"), plural(0, "key"), plural(3, "key"), plural(2, "index", "indexes")
    ('1 key', '0 keys', '3 keys', '2 indexes')
    """
    return f"{count} {word if count == 1 else (words or word + 's')}"


#: Numbers whose fixed-point text would be longer than this are written with an exponent.
MAX_FIXED_DIGITS: Final = 1000


def number_text(value: int | Decimal) -> str:
    """The exact text of a JSON number, at any size: fixed-point while that stays short, else with an exponent.

    Python refuses ``str()`` of an int over 4300 digits, and fixed-point text of ``1E+999999999999``
    would not fit in memory; Terraform's numbers can be both.

    >>> number_text(12), number_text(Decimal("1.50")), len(number_text(10**5000)), number_text(Decimal("1E+99999"))
    ('12', '1.50', 5001, '1E+99999')
    """
    if isinstance(value, int):
        try:
            return str(value)
        except ValueError:
            value = Decimal(value)
    if value.is_finite() and abs(value.adjusted()) <= MAX_FIXED_DIGITS and len(value.as_tuple().digits) <= 2 * MAX_FIXED_DIGITS:
        return format(value, "f")
    return str(value)


def json_kind(value: Any) -> str:
    """Name a JSON value's kind for messages (``expected an array, found a bool``), never its content.

    >>> [json_kind(v) for v in ({}, [], "s", 1, 1.5, True, None)]
    ['an object', 'an array', 'a string', 'a number', 'a number', 'a bool', 'null']
    >>> json_kind({1, 2})
    'a non-JSON value of type set'
    """
    if is_object(value):
        return "an object"
    if is_sequence(value):
        return "an array"
    return describe_json_type(value)


@public("tfjsonpath")
def describe_json_type(value: Any) -> str:
    """Describe a JSON value by its type and size, never by its content (it may be secret).

    >>> describe_json_type({"a": 1}), describe_json_type(["x", "y"]), describe_json_type([])
    ('an object with 1 key', 'an array of 2 elements', 'an array of 0 elements')
    >>> describe_json_type("secret"), describe_json_type(1.5), describe_json_type(True), describe_json_type(None)
    ('a string', 'a number', 'a bool', 'null')
    >>> describe_json_type({1, 2})
    'a non-JSON value of type set'
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a bool"
    if isinstance(value, str):
        return "a string"
    if is_number(value):
        return "a number"
    if is_object(value):
        return f"an object with {plural(len(value), 'key')}"
    if is_sequence(value):  # what a path may index, so what its errors may have found
        return f"an array of {plural(len(value), 'element')}"
    return f"a non-JSON value of type {type(value).__name__}"


def copy_json(value: Any, leaf: Callable[[Any], Any] | None = None, keep: Collection[str] = ()) -> Any:
    """A deep copy of a JSON value, made without recursion: each mapping a new dict, each list or tuple a
    new list (order kept), every other value shared, or replaced by ``leaf(value)`` when ``leaf`` is given,
    but a member's under a key in ``keep`` (or each item of a list there).

    >>> doc = {"a": [1, {"b": "x"}], "kind": "y", "words": ["z"]}
    >>> copied = copy_json(doc)
    >>> copied == doc and copied["a"] is not doc["a"] and copied["a"][1] is not doc["a"][1]
    True
    >>> copy_json(doc, leaf=lambda v: v.upper() if isinstance(v, str) else v, keep={"kind", "words"})
    {'a': [1, {'b': 'X'}], 'kind': 'y', 'words': ['z']}
    """
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(value, root, 0)]
    while stack:
        item, holder, slot = stack.pop()
        if isinstance(item, Mapping):
            out: dict[Any, Any] = {}
            holder[slot] = out
            for key, child in item.items():
                out[key] = None  # the key's place now, so the copy keeps the original's order
                stack.append((child, out, key))
        elif isinstance(item, (list, tuple)):
            if leaf is not None and slot in keep:  # a list of the kept words: copied as it is
                holder[slot] = copy_json(item)
                continue
            items: list[Any] = [None] * len(item)
            holder[slot] = items
            stack.extend((child, items, i) for i, child in enumerate(item))
        else:
            holder[slot] = item if leaf is None or slot in keep else leaf(item)
    return root[0]


#: A value in :func:`json_nodes`' list: the value, its parent's index (-1 for the root), and its key or
#: index in the parent (None for the root).
Node = tuple[Any, int, Any]


class Cycle(NamedTuple):
    """Where :func:`find_cycle` met a container inside itself: ``at``, the keys and indexes from the top down to
    the place where the cycle closes, and ``back``, those down to the container it goes back to.

    >>> Cycle(at=("a", 0), back=())
    Cycle(at=('a', 0), back=())
    """

    at: tuple[Any, ...]
    back: tuple[Any, ...]


#: The containers a parser builds, whose every member the garbage collector's traversal visits.
_BUILT: Final = frozenset((dict, list, tuple))

#: Where a value is: the link of its container and its key there (a path's tuple per level would cost time
#: quadratic in the depth); None at the top.
_Link = tuple["_Link", Any] | None
#: The place of the entry that ends a container's walk (its ``id`` the entry's value): no value is there.
_LEFT: Final[_Link] = (None, "left")


def find_cycle(
    value: Any, unwrap: Callable[[Any], Any] | None = None, sequence: Callable[[Any], bool] = is_sequence
) -> Cycle | None:
    """Where ``value`` holds a container inside itself, the first a reader meets (in document order), or None.

    Objects (:func:`is_object`) and the sequences ``sequence`` accepts are opened (a document's: any sequence, as
    a path indexes; a JSON value's: :func:`is_array`, any other being named no JSON by its caller); ``unwrap``
    opens a wrapper (a secret's), returning the value itself for anything else. A container met twice beside
    itself (one mapping shared by two parents) is no cycle, and is walked once: the time is linear in the
    containers, however often they are shared. Without recursion, so any depth works.

    >>> looped = {"tags": {"a": []}}
    >>> looped["tags"]["a"].append(looped["tags"])
    >>> find_cycle(looped)
    Cycle(at=('tags', 'a', 0), back=('tags',))
    >>> shared = [1]
    >>> find_cycle({"x": shared, "y": [shared]}) is None
    True
    """
    if _surely_acyclic(value, unwrap, sequence):
        return None
    on_path: dict[int, _Link] = {}  # the containers being walked (by id), each to where it is
    done: set[int] = set()  # the containers walked whole: one shared is not walked again
    stack: list[tuple[Any, _Link]] = [(value, None)]
    while stack:
        item, where = stack.pop()
        if where is _LEFT:
            del on_path[item]
            done.add(item)
            continue
        if unwrap is not None:
            while (inner := unwrap(item)) is not item:
                item = inner
        if is_object(item):
            members: Iterable[tuple[Any, Any]] = item.items()
        elif sequence(item):
            members = enumerate(item)
        else:
            continue
        container = id(item)
        if container in on_path:
            return Cycle(_steps(where), _steps(on_path[container]))
        if container in done:
            continue
        on_path[container] = where
        stack.append((container, _LEFT))
        inside = [(member, (where, key)) for key, member in members]
        inside.reverse()  # walked in document order: the cycle named is the first a reader meets
        stack.extend(inside)
    return None


def _surely_acyclic(value: Any, unwrap: Callable[[Any], Any] | None, sequence: Callable[[Any], bool]) -> bool:
    """True if ``value`` holds no container twice, and only dicts, lists and tuples: then no cycle either.

    The members are listed level by level by the garbage collector's own traversal (in C, as the members
    it must see to find any cycle), and only those it tracks are kept: an untracked object (a str, a number,
    a dict of those) cannot be part of a cycle, so most of a document is never looked at one by one.
    """
    if type(value) not in _BUILT:
        return False
    level, seen = [value], {id(value)}
    while level:
        tracked = list(filter(gc.is_tracked, gc.get_referents(*level)))
        level = [member for member in tracked if type(member) in _BUILT]
        if len(level) < len(tracked) and any(
            is_object(m) or sequence(m) or (unwrap is not None and unwrap(m) is not m)
            for m in tracked if type(m) not in _BUILT
        ):
            return False  # a container of another kind, or a wrapper: the exact walk opens it
        count = len(seen)
        seen.update(map(id, level))
        if len(seen) - count < len(level):
            return False  # met twice: shared (two modules given one mapping) or a cycle, which the exact walk tells
    return True


#: The shortest JSON text of each scalar that is no str or number (a number: its one digit at least).
_SCALAR_SIZES: Final = {type(None): 4, bool: 4}
#: The scalar types a parser or a test builds, told from a container by identity (a Mapping test is slow).
_SCALARS: Final = frozenset((str, int, float, bool, type(None), Decimal))


def _is_container(value: Any) -> bool:
    kind = type(value)
    return kind is dict or kind is list or kind is tuple or (kind not in _SCALARS and (is_object(value) or is_array(value)))


def json_size(value: Any, unwrap: Callable[[Any], Any] | None = None) -> int:
    """At least how many characters ``value`` takes as compact JSON text: as long as writing it, without writing it.

    JSON has no references, so a container held in many places is written out at each; one held twice at every
    level of 40 takes ``2**40`` times its own size. This walk opens each container once (memoised by identity) and
    counts it at each place, so the time is linear in the containers however often they are shared. A string counts
    its characters and quotes, ``true``/``false``/``null`` four, a number one: a lower bound, escapes and digits only
    add. ``unwrap`` opens a wrapper (a secret's), returning the value itself for anything else; objects and arrays
    (:func:`is_array`) are opened, anything else counts as a number would. ``value`` holds no cycle (its caller
    refused one with :func:`find_cycle`).

    >>> json_size({"a": [1, "xy"]}), len('{"a":[1,"xy"]}')
    (14, 14)
    >>> shared = []
    >>> for _ in range(40):
    ...     shared = [shared, shared]
    >>> json_size(shared)
    5497558138877
    """

    def opened(item: Any) -> Any:
        if unwrap is not None:
            while (inner := unwrap(item)) is not item:
                item = inner
        return item

    value = opened(value)
    sizes: dict[int, int] = {}  # each container's size, by identity
    stack: list[tuple[Any, list[Any] | None]] = [(value, None)] if _is_container(value) else []
    while stack:
        item, inside = stack.pop()
        if inside is None:  # first met: its members are counted first
            if id(item) in sizes:
                continue
            sizes[id(item)] = 0  # met again before it is counted only in a cycle, which the caller refused
            kind = type(item)
            inside = list(item if kind is list or kind is tuple or not is_object(item) else item.values())
            if unwrap is not None:
                inside = list(map(opened, inside))
            stack.append((item, inside))
            stack.extend((m, None) for m in inside if _is_container(m))
            continue
        # Brackets and commas, then the keys with their quotes and colons (a key that is no str, which the caller
        # refuses, as four), then the members.
        total = 1 + max(len(inside), 1)
        if type(item) is not list and type(item) is not tuple and is_object(item):
            try:
                total += sum(map(len, item)) + 3 * len(item)  # str keys, at C speed
            except TypeError:
                total += sum(len(key) + 3 if isinstance(key, str) else 4 for key in item)
        for member in inside:
            kind = type(member)
            if kind is str:
                total += len(member) + 2
            elif _is_container(member):
                total += sizes[id(member)]
            else:
                total += len(member) + 2 if isinstance(member, str) else _SCALAR_SIZES.get(kind, 1)
        sizes[id(item)] = total
    if _is_container(value):
        return sizes[id(value)]
    return len(value) + 2 if isinstance(value, str) else _SCALAR_SIZES.get(type(value), 1)


def _steps(link: _Link) -> tuple[Any, ...]:
    steps: list[Any] = []
    while link is not None:
        link, step = link
        steps.append(step)
    return tuple(reversed(steps))


def json_nodes(value: Any, closed: Callable[[Any], bool] | None = None) -> list[Node]:
    """Every value in ``value`` in pre-order (document order), made without recursion, so any depth works.

    Objects (:func:`is_object`) and arrays (:func:`is_array`) are opened, except one ``closed`` says to
    keep whole; a key is kept as the mapping gives it (a caller that builds JSON checks it is a str).
    ``value`` holds no cycle (its caller refused one with :func:`find_cycle`): the walk would go round it.

    >>> json_nodes({"a": [1, None]})
    [({'a': [1, None]}, -1, None), ([1, None], 0, 'a'), (1, 1, 0), (None, 1, 1)]
    """
    nodes: list[Node] = []
    stack: list[Node] = [(value, -1, None)]
    while stack:
        item = stack.pop()
        nodes.append(item)
        node = item[0]
        if closed is not None and closed(node):
            continue
        me = len(nodes) - 1
        if is_array(node):
            stack.extend((node[i], me, i) for i in range(len(node) - 1, -1, -1))
        elif is_object(node):
            stack.extend((node[key], me, key) for key in reversed(list(node)))
    return nodes


def fold_nodes(nodes: list[Node], build: Callable[[Any, list[tuple[Any, Any]]], Any]) -> Any:
    """Build a result from :func:`json_nodes`' list children first: ``build(value, children)`` for each value,
    ``children`` the (key or index, built child) of an opened object or array in order (else empty).

    >>> fold_nodes(json_nodes({"a": [1, 2]}), lambda v, kids: dict(kids) if isinstance(v, dict) else
    ...            [k for _, k in kids] if isinstance(v, list) else v * 10)
    {'a': [10, 20]}
    """
    built: list[Any] = [None] * len(nodes)
    children: list[list[tuple[Any, Any]]] = [[] for _ in nodes]
    for index in range(len(nodes) - 1, -1, -1):
        value, parent, key = nodes[index]
        kids = children[index]
        kids.reverse()  # collected last-first
        built[index] = made = build(value, kids)
        children[index] = []  # free as we go
        if parent >= 0:
            children[parent].append((key, made))
    return built[0]
