"""Splitting a large plan into what validation needs now and what can be parsed on first use.

Two splitters (this module's, with msgspec, and ``_parallel``'s, with the standard
library) check the syntax of the whole text, as a full parse would, but build Python
objects only for what the plan schema constrains:

* the small top-level values, parsed exactly;
* for ``resource_changes`` and ``resource_drift``, what the schema looks at in each entry
  (``address``, ``deposed``, ``change.actions``, ...), never the attribute values: here
  msgspec checks it, against types built from the schema, while it skips the rest;
* everything else (``planned_values``, ``prior_state``, ``configuration``, and each entry
  as a whole) stays unparsed text, read into Python objects on first access.

The members of :data:`VALIDATED_WHEN_READ` (``planned_values``, ``prior_state``,
``configuration``: most of a plan, read only to collect secrets) and, with msgspec, each
entry's marks trees are validated when first parsed, against their part of the schema:
checking them now would mean building them now (msgspec cannot check a marks tree
without building it), which doubles the cost of loading. An error is then raised on that
first access, a PlanFormatError at the value's JSON location. Numbers are converted only
when parsed, so a number Decimal cannot hold in such a value is found then too, and so is a
key repeated inside it (msgspec keeps the last; see ``jsontext``). A key repeated at the top
level is found at load (:func:`members_proven_unique`). The secret collection reads the two
states without parsing them whole (their resources repeat the changes' sides), and raises
the same errors then (:func:`plancheck._loading.split_state.plan_state_skims`).

The result is a :class:`SplitPlan`: a ``view`` for the validator (values, and
:class:`~plancheck._loading.validate.Deferred` placeholders for what is known to be valid or only
needs its JSON type checked) and the ``values`` of the document
(:class:`~plancheck._loading.lazy.Thunk` and :class:`~plancheck._loading.lazy.LazyEntries` for what is
parsed later).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache, partial
from typing import Any, Final, Literal, cast

from .._errors import DocumentFormatError, PlanFormatError
from .jsontext import loads_exact, read_leniently
from .lazy import LazyEntries, Thunk
from .location import PathKey
from .validate import Deferred, SchemaNode, SchemaValidator, plan_validator, render_violation

__all__ = [
    "ENTRY_ARRAYS",
    "VALIDATED_WHEN_READ",
    "SplitPlan",
    "exact_raw",
    "json_type_of_first_byte",
    "members_proven_unique",
    "raw_members",
    "split_fast",
    "validated",
]

#: Top-level arrays whose entries are validated by skeleton and parsed one by one on access.
ENTRY_ARRAYS: Final = ("resource_changes", "resource_drift")
#: Values shorter than this are parsed at once: deferring them would cost more than it saves.
DEFER_MIN_BYTES: Final = 4096
#: Top-level members whose structure is validated when first read (they are most of a plan, and
#: only secret collection reads them); every other member is validated now.
VALIDATED_WHEN_READ: Final = ("planned_values", "prior_state", "configuration")

_TYPE_OF_BYTE: Final = {ord("{"): "object", ord("["): "array"}


def json_type_of_first_byte(first: int) -> str | None:
    """The JSON type of a container value from its first byte, None for a scalar.

    >>> json_type_of_first_byte(ord("[")), json_type_of_first_byte(ord("1"))
    ('array', None)
    """
    return _TYPE_OF_BYTE.get(first)


@dataclass(slots=True)
class SplitPlan:
    """A plan split for validation (``view``) and for lazy reading (``values``).

    ``keys[name]`` lists ``(address, deposed)`` of each entry of entry array ``name``,
    taken without parsing the entries, for the index. ``texts[name]`` is the unparsed text
    (a ``msgspec.Raw``) of each member left unparsed, entry arrays included. ``whole()`` parses the whole
    text again, unvalidated, for the secrets an error of a piece validated alone hides (the error of the
    plan loaded whole hides those of the document it parsed); ``lenient()`` reads it as an error of a text broken
    inside a piece (a repeated key) reads it (:func:`~plancheck._loading.jsontext.read_leniently`), for the same.
    """

    whole: Callable[[], Any]
    lenient: Callable[[], Any]
    view: dict[str, Any] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)
    entries: dict[str, LazyEntries] = field(default_factory=dict)
    keys: dict[str, list[tuple[Any, Any]]] = field(default_factory=dict)
    texts: dict[str, Any] = field(default_factory=dict)


# -- msgspec types from the schema -------------------------------------------------------------------

_SIMPLE_TYPES: Final = {"string": str, "boolean": bool, "integer": int, "null": type(None), "object": dict[str, Any]}


def msgspec_type(node: SchemaNode, structs: dict[int, Any] | None = None) -> Any:
    """A msgspec type that accepts what ``node`` accepts, for the keywords entries use.

    msgspec then validates while it skips, in C. It must never accept what the schema
    refuses, except in a marks tree (a tree node, see :meth:`SchemaNode.tree_leaves`), which it
    skips (``msgspec.Raw``): that is validated when the entry is parsed. Refusing more
    would only cost a slower path, but it does not (strings, bools, 64-bit integers,
    string enums, arrays, objects and required keys mean the same in both; an integer
    beyond 64 bits is refused by msgspec and then judged by the schema).

    >>> msgspec_type(plan_validator().node_at("resource_changes").items).__name__
    'ResourceChangeSkeleton'
    """
    import msgspec

    structs = {} if structs is None else structs
    schema = node.schema
    if node.tree_leaves() is not None:
        return msgspec.Raw
    if "pattern" in schema:
        raise ValueError("patterns are validated in Python, not by msgspec")
    if "enum" in schema:
        return Literal[tuple(schema["enum"])]
    types = schema.get("type")
    names = [types] if isinstance(types, str) else list(types or ())
    if node.properties or node.required:
        if names != ["object"] or node.additional is not None:
            raise ValueError("only plain objects become structs")
        if id(node) not in structs:
            structs[id(node)] = None  # a recursive schema (not supported) fails on None below
            fields: list[Any] = []
            for name, sub in node.properties.items():
                kind = msgspec_type(sub, structs)
                if kind is None:
                    raise ValueError("recursive subschemas are validated in Python")
                if name in node.required:
                    fields.append((name, kind))
                else:
                    fields.append((name, kind | msgspec.UnsetType, msgspec.UNSET))
            title = str(schema.get("x-struct", "Skeleton"))
            structs[id(node)] = msgspec.defstruct(title, sorted(fields, key=len), gc=False)
        return structs[id(node)]
    if names == ["array"]:
        return list[msgspec_type(node.items, structs)] if node.items is not None else list[Any]  # type: ignore[misc]
    if names == ["object"]:
        if node.additional is not None:
            raise ValueError("additionalProperties is validated in Python")
        return dict[str, Any]
    if not names:
        return Any
    kinds = [_SIMPLE_TYPES[name] for name in names]
    union: Any = kinds[0]
    for kind in kinds[1:]:
        union = union | kind
    return union


@cache
def _entry_decoders() -> tuple[Any, Any]:
    """Decoders checking one resource change, and an array of them, against the schema."""
    import msgspec

    item = plan_validator().node_at("resource_changes").items
    assert item is not None
    entry: Any = msgspec_type(item)
    return msgspec.json.Decoder(entry, float_hook=Decimal), msgspec.json.Decoder(
        list[entry], float_hook=Decimal
    )


def exact_raw(
    raw: Any,
    where: PathKey,
    source: str | None,
    error: type[DocumentFormatError] = PlanFormatError,
    whole: Callable[[], Any] | None = None,
) -> Any:
    """Parse one unparsed value exactly (msgspec, or the standard library when msgspec balks).

    ``where`` locates the value in its document, for errors (``error``, a plan's by default): a
    number Decimal cannot hold is found only here (checking the syntax does not convert numbers);
    ``whole()`` reads the document leniently, for the secrets such an error's location hides.

    >>> exact_raw(b'{"n": 1.50}', ("x",), None)
    {'n': Decimal('1.50')}
    """
    return loads_exact(raw, error=error, source=source, parser="fast", where=where, whole=whole)


_skip_ws: Final = cast(Callable[[bytes, int], "re.Match[bytes]"], re.compile(rb"[ \t\n\r]*").match)


def raw_members(data: bytes) -> dict[str, Any] | None:
    """The members of the JSON object ``data``, each a ``msgspec.Raw`` (its text, not parsed), each key
    proven to stand once (:func:`members_proven_unique`); None when msgspec cannot read ``data`` as an
    object or a key repeats (or might): a full parse then decides, and says where.

    >>> sorted(raw_members(b'{"a": [1], "b": 2}')), raw_members(b'{"a": 1, "a": 2}'), raw_members(b'[1]')
    (['a', 'b'], None, None)
    """
    import msgspec

    try:
        members = msgspec.json.decode(data, type=dict[str, msgspec.Raw])
    except Exception:
        return None
    return members if members_proven_unique(data, members) else None


def members_proven_unique(data: bytes, members: Mapping[str, Any]) -> bool:
    """Whether the JSON object ``data``, whose members msgspec read into ``members`` (a key to its
    ``msgspec.Raw``), has each key once; False also when that cannot be shown here.

    msgspec keeps the last of a repeated key. The text is walked member by member, each value
    skipped by the length of the one msgspec kept for its key, which must be the very bytes
    there; reaching the end with every key seen once is then a reading of the whole object,
    and JSON text has only one: the object has no other members. It costs a comparison of
    bytes, not a parse.

    >>> import msgspec
    >>> members_proven_unique(b'{"a": [1], "b": 2}', msgspec.json.decode(b'{"a": [1], "b": 2}', type=dict[str, msgspec.Raw]))
    True
    >>> members_proven_unique(b'{"a": 1, "a": 1}', msgspec.json.decode(b'{"a": 1, "a": 1}', type=dict[str, msgspec.Raw]))
    False
    """
    ws = _skip_ws
    pos = ws(data, 0).end()
    if data[pos : pos + 1] != b"{":
        return False
    pos = ws(data, pos + 1).end()
    if data[pos : pos + 1] == b"}":
        return not members and ws(data, pos + 1).end() == len(data)
    seen: set[str] = set()
    while data[pos : pos + 1] == b'"':
        end = _string_end(data, pos)
        if end < 0:
            return False
        try:
            key = json.loads(data[pos:end])
        except ValueError:
            return False
        raw = members.get(key)
        if key in seen or raw is None:
            return False
        seen.add(key)
        pos = ws(data, end).end()
        if data[pos : pos + 1] != b":":
            return False
        pos = ws(data, pos + 1).end()
        if not data.startswith(raw, pos):
            return False
        pos = ws(data, pos + len(memoryview(raw))).end()
        c = data[pos : pos + 1]
        if c == b"}":
            return ws(data, pos + 1).end() == len(data) and len(seen) == len(members)
        if c != b",":
            return False
        pos = ws(data, pos + 1).end()
    return False


def _string_end(data: bytes, start: int) -> int:
    """Where the JSON string at ``start`` (its opening quote) ends, after its closing quote; -1 if it does not."""
    i = start + 1
    while True:
        i = data.find(b'"', i)
        if i < 0:
            return -1
        backslashes = 0
        while data[i - 1 - backslashes] == 0x5C:  # an even run of backslashes escapes only itself
            backslashes += 1
        if backslashes % 2 == 0:
            return i + 1
        i += 1


def validated(
    value: Any,
    where: PathKey,
    node: SchemaNode | None,
    source: str | None,
    validator: SchemaValidator | None = None,
    error: type[DocumentFormatError] = PlanFormatError,
    whole: Callable[[], Any] | None = None,
) -> Any:
    """``value`` (at ``where`` in its document), once its part of the schema (``node`` of ``validator``,
    the plan's by default) has been checked; ``whole()`` reads the document whole, for the secrets its error hides
    (:func:`~plancheck._loading.validate.render_violation`).

    >>> validated({"root_module": {"resources": 5}}, ("prior_state", "values"), plan_validator().node_at("prior_state", "values"), None)
    Traceback (most recent call last):
    ...
    plancheck.PlanFormatError: $.prior_state.values.root_module.resources: expected an array of resources, found a number
    """
    if node is not None and not node.trivial:
        validator = validator or plan_validator()
        violation = validator.first_violation(value, path=where, node=node)
        if violation is not None:
            raise render_violation(violation, value, validator.schema, error, source, where, whole=whole)
    return value


_VALID_ENTRY: Final = Deferred("object")


def _check_entries(
    key: str, raw: Any, raws: Sequence[Any], source: str | None, lenient: Callable[[], Any]
) -> tuple[Any, list[tuple[Any, Any]]]:
    """The validation view of an entry array, and each entry's (address, deposed).

    When msgspec finds every entry sound, the view is a placeholder the validator takes
    as a valid array; otherwise each unsound entry is parsed whole, for the validator to
    find its exact problem, and the others stand for valid objects.
    """
    import msgspec

    one, many = _entry_decoders()
    # ArithmeticError: a number no Decimal holds (decimal.InvalidOperation from the float hook) is unsound too,
    # for the exact parse of its entry to say where.
    try:
        skeletons = many.decode(raw)
    except (msgspec.ValidationError, ArithmeticError):
        pass
    else:
        return Deferred("array"), [(s.address, s.deposed) for s in skeletons]
    view: list[Any] = []
    for i, entry_raw in enumerate(raws):
        try:
            one.decode(entry_raw)
            view.append(_VALID_ENTRY)
        except (msgspec.ValidationError, ArithmeticError):
            view.append(exact_raw(entry_raw, (key, i), source, whole=lenient))
    return view, []


# The loaders below take the split's readers, not the split: a closure holding it would make a cycle (the split holds
# the closures), keeping its view alive to the garbage collector, which measurably walked it (+54M instructions).
def _entry_loader(
    key: str, raws: Sequence[Any], source: str | None, whole: Callable[[], Any], lenient: Callable[[], Any]
) -> Callable[[int], Any]:
    item = plan_validator().node_at("resource_changes").items

    def entry(i: int) -> Any:
        return validated(exact_raw(raws[i], (key, i), source, whole=lenient), (key, i), item, source, whole=whole)

    return entry


def _entries_loader(
    key: str, raw: Any, source: str | None, whole: Callable[[], Any], lenient: Callable[[], Any]
) -> Callable[[], list[Any]]:
    """Every entry of the array ``raw`` parsed in one call, each validated as :func:`_entry_loader` does."""
    validator = plan_validator()
    array = validator.node_at("resource_changes")
    item = array.items

    def entries() -> list[Any]:
        parsed = exact_raw(raw, (key,), source, whole=lenient)
        if not isinstance(parsed, list) or not validator.is_valid(parsed, array):
            # Find the first bad entry, with its location, the way one-by-one reading does.
            return [validated(value, (key, i), item, source, whole=whole) for i, value in enumerate(parsed)]
        return parsed

    return entries


def _member_loader(
    key: str, raw: Any, node: SchemaNode | None, source: str | None, whole: Callable[[], Any], lenient: Callable[[], Any]
) -> Callable[[], Any]:
    def member() -> Any:
        return validated(exact_raw(raw, (key,), source, whole=lenient), (key,), node, source, whole=whole)

    return member


def split_fast(data: bytes, source: str | None = None) -> SplitPlan | None:
    """Split ``data`` with msgspec; None when the standard library must decide (not an object, bad JSON...).

    ``source`` names the plan in the errors of what is validated on first access; such an error hides the secrets
    of the whole plan, read again then (:attr:`SplitPlan.whole`), as the error of a plan loaded whole does.

    >>> split = split_fast(b'{"format_version": "1.2", "resource_changes": [{"address": "a.b", "change": {"actions": ["create"], "after": {}}}]}')
    >>> split.keys["resource_changes"], split.entries["resource_changes"][0]["change"]["after"]
    ([('a.b', UNSET)], {})
    """
    import msgspec

    top = raw_members(data)
    if top is None:
        return None  # the ordinary load says what is wrong, and where
    validator = plan_validator()
    # Unvalidated, as the whole parse reads it: a piece that fails validation is in it too. The text is kept by
    # the pieces left unparsed (each a msgspec.Raw of it) in any case.
    split = SplitPlan(whole=partial(exact_raw, data, (), source), lenient=partial(read_leniently, data))
    for key, raw in top.items():
        view = memoryview(raw)
        size = len(view)
        first = view[0] if size else 0
        del view
        if key in ENTRY_ARRAYS and first == ord("["):
            try:
                raws = msgspec.json.decode(raw, type=list[msgspec.Raw])
            except Exception:
                return None
            entries = LazyEntries(
                len(raws),
                _entry_loader(key, raws, source, split.whole, split.lenient),
                _entries_loader(key, raw, source, split.whole, split.lenient),
            )
            split.view[key], split.keys[key] = _check_entries(key, raw, raws, source, split.lenient)
            split.values[key] = split.entries[key] = entries
            split.texts[key] = raw
            continue
        node = validator.root.member(key)
        json_type = json_type_of_first_byte(first)
        if (
            json_type is not None
            and size >= DEFER_MIN_BYTES
            and (node is None or node.shallow or key in VALIDATED_WHEN_READ)
        ):
            # Only its JSON type is checked now; the rest when it is first read.
            member = _member_loader(key, raw, node, source, split.whole, split.lenient)
            split.view[key] = split.values[key] = Thunk(json_type, member)
            split.texts[key] = raw
            continue
        value = exact_raw(raw, (key,), source, whole=split.lenient)
        split.view[key] = value
        split.values[key] = value
    return split
