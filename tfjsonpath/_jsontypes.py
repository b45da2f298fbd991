"""The JSON toolkit below everything: which values count as which JSON kind, how to name a value's kind,
how to write a number exactly, and how to copy a value.

Two meanings of "array" are told apart by name, each kept where it is needed:

* :func:`is_array`, a JSON array as a parser builds it (a ``list`` or ``tuple``): what a matcher,
  a comparison and a JSON value model accept; any other sequence (``range``, ``deque``) is no JSON;
* :func:`is_sequence`, any sequence that is not text or bytes: what a path may index and a marks
  tree may be (a lazily loaded document or a custom decoder may build other sequences).

The schema validator's array is a third, jsonschema's (a ``list`` only), kept with the validator
(``plancheck/_loading/validate.py``) so that its two modes agree.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from decimal import Decimal
from typing import Any, Final, TypeGuard

from ._errors import public

__all__ = [
    "ContainsItself",
    "copy_json",
    "describe_json_type",
    "fold_nodes",
    "is_array",
    "is_json_scalar",
    "is_number",
    "is_object",
    "is_sequence",
    "json_kind",
    "json_nodes",
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


class ContainsItself(TypeError):
    """:func:`json_nodes` met a value inside itself: ``nodes`` as listed so far (the last is where the cycle
    closes) and ``back``, the index of the value it goes back to; :meth:`steps` tells where each is.

    >>> looped = {"a": []}
    >>> looped["a"].append(looped)
    >>> try:
    ...     json_nodes(looped)
    ... except ContainsItself as cycle:
    ...     print(cycle, cycle.steps(len(cycle.nodes) - 1), cycle.steps(cycle.back))
    a value that contains itself (a cycle) ('a', 0) ()
    """

    def __init__(self, nodes: list[Node], back: int) -> None:
        self.nodes = nodes
        self.back = back
        super().__init__("a value that contains itself (a cycle)")

    def steps(self, index: int) -> tuple[Any, ...]:
        """The keys and indexes from the top down to node ``index``."""
        steps: list[Any] = []
        while index >= 0:
            _, parent, key = self.nodes[index]
            if parent >= 0:
                steps.append(key)
            index = parent
        return tuple(reversed(steps))


def json_nodes(value: Any, closed: Callable[[Any], bool] | None = None) -> list[Node]:
    """Every value in ``value`` in pre-order (document order), made without recursion, so any depth works.

    Objects (:func:`is_object`) and arrays (:func:`is_array`) are opened, except one ``closed`` says to
    keep whole; a key is kept as the mapping gives it (a caller that builds JSON checks it is a str).

    A value that contains itself (a cycle) raises :class:`ContainsItself` (a TypeError) with the nodes listed
    so far, the last one where the cycle closes: its caller names where.

    >>> json_nodes({"a": [1, None]})
    [({'a': [1, None]}, -1, None), ([1, None], 0, 'a'), (1, 1, 0), (None, 1, 1)]
    """
    nodes: list[Node] = []
    stack: list[Node] = [(value, -1, None)]
    opened: set[int] = set()  # containers opened: one met again is shared, or (when it is its own ancestor) a cycle
    while stack:
        item = stack.pop()
        nodes.append(item)
        node = item[0]
        if closed is not None and closed(node):
            continue
        me = len(nodes) - 1
        array = is_array(node)
        if not (array or is_object(node)):
            continue
        if id(node) in opened:
            ancestor = item[1]
            while ancestor >= 0 and nodes[ancestor][0] is not node:
                ancestor = nodes[ancestor][1]
            if ancestor >= 0:
                raise ContainsItself(nodes, ancestor)
        opened.add(id(node))
        if array:
            stack.extend((node[i], me, i) for i in range(len(node) - 1, -1, -1))
        else:
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
