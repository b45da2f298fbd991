"""Splitting a large state so that resource values are parsed on first use, as large plans are.

A state is mostly the ``values`` of its resources, while a state check reads a handful of
them. With msgspec, the state's text is checked whole (syntax, and the structure the state
schema constrains, down to each resource's skeleton: ``address``, ``index``, ``mode``,
...), but each resource's ``values``, ``sensitive_values`` and ``identity`` stay unparsed
text until first read; the marks tree is validated then, against its part of the schema,
and a problem found then is a :class:`~plancheck.StateFormatError` at that value's JSON
location. What a split state reads back is exactly what a full parse returns.

Only the fast parser splits a state (the standard library's parser cannot skip a value
without building it), and only in the ``fast`` validation mode; otherwise the state is
parsed whole, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from functools import cache
from typing import Any, Final

from .._errors import StateFormatError
from .jsontext import encoded_colons, exact_numbers, repeats_ruled_out
from .lazy import LazyObject, Thunk
from .split import (
    exact_raw,
    json_type_of_first_byte,
    members_proven_unique,
    msgspec_type,
    raw_members,
    validated,
)
from .validate import Deferred, PathKey, SchemaNode, state_validator

__all__ = ["DEFERRED_MEMBERS", "SplitState", "split_state"]

#: A resource's members that stay unparsed until read (they are nearly all of a state).
DEFERRED_MEMBERS: Final = frozenset({"values", "sensitive_values", "identity"})
#: Shorter values are parsed at once: a placeholder would cost more than the parse.
DEFER_MIN_BYTES: Final = 64
_TERRAFORM_ORDER: Final = (
    "address", "mode", "type", "name", "index", "provider_name", "schema_version", "values", "sensitive_values",
    "identity_schema_version", "identity", "depends_on", "tainted", "deposed_key",
)  # fmt: skip
#: Module nesting the one-scan route reads (deeper states take the member-by-member route).
MODULE_DEPTH: Final = 8

_VALID_RESOURCE: Final = Deferred("object")


class SplitState:
    """A state split for validation (``view``: placeholders for resources found sound) and reading (``value``)."""

    __slots__ = ("read", "value", "view")

    def __init__(self, view: dict[str, Any], value: LazyObject, read: Any = None) -> None:
        self.view = view
        self.value = value
        self.read = read  # the struct the one-scan route read ``values`` into, if it did


@cache
def _resource_node() -> SchemaNode:
    items = state_validator().node_at("values", "root_module", "resources").items
    assert items is not None
    return items


@cache
def _resource_decoders() -> tuple[Any, Any, Any, Any]:
    """Decoders for resources: a lazy one (known keys only, big members left as text), and two checking a skeleton.

    The lazy struct has the schema's members with their types, so decoding validates them;
    it refuses unknown keys, which a resource with any then gets from the slower route.
    """
    import msgspec

    node = _resource_node()
    skeleton: Any = msgspec_type(node)
    fields: list[Any] = []
    # Terraform's order (internal/command/jsonstate), so that a resource lists its keys as Terraform wrote them.
    order = {name: rank for rank, name in enumerate(_TERRAFORM_ORDER)}
    names = sorted({*node.properties, *DEFERRED_MEMBERS}, key=lambda n: (order.get(n, len(order)), n))
    for name in names:
        sub = node.properties.get(name)
        kind = msgspec.Raw if name in DEFERRED_MEMBERS or sub is None else msgspec_type(sub)
        if name in node.required:
            fields.append((name, kind))
        else:
            fields.append((name, kind | msgspec.UnsetType, msgspec.UNSET))
    lazy: Any = msgspec.defstruct("LazyResource", fields, forbid_unknown_fields=True, kw_only=True, gc=False)
    decode = msgspec.json.Decoder
    return (
        decode(list[lazy], float_hook=Decimal),
        decode(skeleton, float_hook=Decimal),
        decode(list[skeleton], float_hook=Decimal),
        decode(_values_struct(lazy), float_hook=Decimal),
    )


def _values_struct(resource: Any) -> Any:
    """A struct for a state's ``values``, its modules nested up to :data:`MODULE_DEPTH` levels, in one scan.

    msgspec types cannot refer to themselves when built at run time, so each level is a type of
    its own; the deepest keeps its ``child_modules`` as text, and a state that uses it takes the
    slower route. Unknown keys are refused for the same reason (the slower route keeps them).
    """
    import msgspec

    unset = (msgspec.UnsetType, msgspec.UNSET)
    children: Any = msgspec.Raw
    for depth in range(MODULE_DEPTH, -1, -1):
        children = msgspec.defstruct(
            f"LazyModule{depth}",
            [
                ("address", str | unset[0], unset[1]),
                ("resources", list[resource] | unset[0], unset[1]),
                ("child_modules", (children if depth == MODULE_DEPTH else list[children]) | unset[0], unset[1]),
            ],
            forbid_unknown_fields=True,
            gc=False,
        )
    return msgspec.defstruct(
        "LazyValues",
        [("outputs", msgspec.Raw | unset[0], unset[1]), ("root_module", children | unset[0], unset[1])],
        forbid_unknown_fields=True,
        gc=False,
    )


class _TooDeep(Exception):
    """Modules nested deeper than the one-scan struct reaches: take the slower route."""


def _exact(raw: Any, where: PathKey, source: str | None) -> Any:
    return exact_raw(raw, where, source, StateFormatError)


def _validated(value: Any, where: PathKey, node: SchemaNode | None, source: str | None) -> Any:
    return validated(value, where, node, source, state_validator(), StateFormatError)


def _deferred(raw: Any, where: PathKey, node: SchemaNode | None, source: str | None) -> Callable[[], Any]:
    def load() -> Any:
        return _validated(_exact(raw, where, source), where, node, source)

    return load


class _Splitter:
    def __init__(self, source: str | None) -> None:
        import msgspec

        self.msgspec = msgspec
        self.source = source
        self.resource = _resource_node()
        self.lazy, self.one, self.many, self.values_decoder = _resource_decoders()
        self.raw_members: Any = dict[str, msgspec.Raw]
        self.raw_items: Any = list[msgspec.Raw]
        self.deferred_nodes = {key: self.resource.member(key) for key in DEFERRED_MEMBERS}

    def members(self, raw: Any) -> dict[str, Any] | None:
        """The members of a JSON object as unparsed text; None when ``raw`` is not an object, or
        repeats a key (or might: its exact parse then says where)."""
        if bytes(memoryview(raw)[:1]) != b"{":
            return None
        try:
            members: dict[str, Any] = self.msgspec.json.decode(raw, type=self.raw_members)
        except Exception:
            return None
        return members if members_proven_unique(bytes(raw), members) else None

    def items(self, raw: Any) -> list[Any] | None:
        if bytes(memoryview(raw)[:1]) != b"[":
            return None
        try:
            items: list[Any] = self.msgspec.json.decode(raw, type=self.raw_items)
        except Exception:
            return None
        return items

    def module(self, raw: Any, where: PathKey) -> tuple[Any, Any]:
        """(validation view, value) of a module object."""
        members = self.members(raw)
        if members is None:
            value = _exact(raw, where, self.source)
            return value, value
        view: dict[str, Any] = {}
        values: dict[str, Any] = {}
        for key, member in members.items():
            at = (*where, key)
            entries = self.items(member) if key in ("resources", "child_modules") else None
            if entries is None:
                view[key] = values[key] = _exact(member, at, self.source)
            elif key == "resources":
                view[key], values[key] = self.resources(member, entries, at)
            else:
                pairs = [self.module(entry, (*at, i)) for i, entry in enumerate(entries)]
                view[key] = [v for v, _ in pairs]
                values[key] = [v for _, v in pairs]
        return view, LazyObject(values)

    def resources(self, raw: Any, entries: Sequence[Any], where: PathKey) -> tuple[Any, list[Any]]:
        try:
            with exact_numbers():
                structs = self.lazy.decode(raw)
        except self.msgspec.ValidationError:
            pass
        else:
            return Deferred("array"), [self.from_struct(s, (*where, i)) for i, s in enumerate(structs)]
        try:
            self.many.decode(raw)
            sound = [True] * len(entries)
        except self.msgspec.ValidationError:
            sound = [self._sound(entry) for entry in entries]
        view: list[Any] = []
        values: list[Any] = []
        for i, (entry, ok) in enumerate(zip(entries, sound, strict=True)):
            if ok:
                view.append(_VALID_RESOURCE)
                values.append(self.resource_value(entry, (*where, i)))
            else:
                # Parsed whole, for the validator to name its exact problem.
                value = _exact(entry, (*where, i), self.source)
                view.append(value)
                values.append(value)
        return Deferred("array") if all(sound) else view, values

    def _sound(self, entry: Any) -> bool:
        try:
            self.one.decode(entry)
        except self.msgspec.ValidationError:
            return False
        return True

    def values(self, raw: Any) -> tuple[Any, LazyObject, Any] | None:
        """(view, value, the struct read) of the state's ``values`` in one scan, or None when the slower route
        must read it. The caller proves that no key of what the struct holds was repeated (see :func:`split_state`)."""
        try:
            with exact_numbers():
                struct = self.values_decoder.decode(raw)
        except self.msgspec.ValidationError:
            return None
        view: dict[str, Any] = {}
        values: dict[str, Any] = {}
        if struct.outputs is not self.msgspec.UNSET:
            view["outputs"] = values["outputs"] = _exact(struct.outputs, ("values", "outputs"), self.source)
        if struct.root_module is not self.msgspec.UNSET:
            try:
                values["root_module"] = self.from_module(struct.root_module, ("values", "root_module"))
            except _TooDeep:
                return None
            view["root_module"] = _VALID_RESOURCE  # every member was checked by the decoder
        return view, LazyObject(values), struct

    def from_module(self, struct: Any, where: PathKey) -> LazyObject:
        values: dict[str, Any] = {}
        unset = self.msgspec.UNSET
        if struct.address is not unset:
            values["address"] = struct.address
        if struct.resources is not unset:
            at = (*where, "resources")
            values["resources"] = [self.from_struct(r, (*at, i)) for i, r in enumerate(struct.resources)]
        children = struct.child_modules
        if children is not unset:
            if isinstance(children, self.msgspec.Raw):
                raise _TooDeep
            at = (*where, "child_modules")
            values["child_modules"] = [self.from_module(m, (*at, i)) for i, m in enumerate(children)]
        return LazyObject(values)

    def from_struct(self, struct: Any, where: PathKey) -> LazyObject:
        values: dict[str, Any] = {}
        unset = self.msgspec.UNSET
        for key in struct.__struct_fields__:
            member = getattr(struct, key)
            if member is unset:
                continue
            if key in DEFERRED_MEMBERS:
                size = len(member)
                first = bytes(memoryview(member)[:1])
                json_type = json_type_of_first_byte(first[0]) if size else None
                if json_type is not None and size >= DEFER_MIN_BYTES:
                    values[key] = Thunk(json_type, _deferred(member, (*where, key), self.deferred_nodes[key], self.source))
                    continue
                member = _validated(_exact(member, (*where, key), self.source), (*where, key), self.deferred_nodes[key], self.source)
            values[key] = member
        return LazyObject(values)

    def resource_value(self, raw: Any, where: PathKey) -> Any:
        members = self.members(raw)
        if members is None:  # the skeleton decoded, so an object: one that repeats a key, which this parse names
            return _exact(raw, where, self.source)
        values: dict[str, Any] = {}
        for key, member in members.items():
            at = (*where, key)
            size = len(memoryview(member))
            json_type = json_type_of_first_byte(bytes(memoryview(member)[:1])[0]) if size else None
            if key in DEFERRED_MEMBERS and json_type is not None and size >= DEFER_MIN_BYTES:
                node = self.resource.member(key)
                values[key] = Thunk(json_type, _deferred(member, at, node, self.source))
            else:
                values[key] = _exact(member, at, self.source)
        return LazyObject(values)


def split_state(data: bytes, source: str | None = None) -> SplitState | None:
    """Split a state's text with msgspec; None when a full parse must decide (not an object, bad JSON...).

    >>> split = split_state(b'{"format_version": "1.0", "values": {"root_module": {"resources": ['
    ...     b'{"address": "a.b", "values": {"id": "1", "note": "long enough to be left unparsed for now, as values are"}}]}}}')
    >>> resource = split.value["values"]["root_module"]["resources"][0]
    >>> resource.is_parsed("address"), resource.is_parsed("values"), resource["values"]["id"]
    (True, False, '1')
    """
    top = raw_members(data)
    if top is None:
        return None  # not an object, or a repeated key: the full parse says where
    try:
        split = _split(top, _Splitter(source), source)
    except StateFormatError:
        # A value parsed now is bad (a number Decimal cannot hold, a repeated key): a full parse says where,
        # by line and column.
        return None
    if split.read is not None:
        try:
            colons = _colons({**top, "values": split.read})
        except Exception:  # an integer msgspec cannot write: the full parse decides
            return None
        if not repeats_ruled_out(data, None, colons):
            return None  # the one-scan struct dropped a repeated key (or an escaped colon hides the proof)
    return split


#: Resources encoded at a time to count colons: the state is never encoded whole (its size again).
_ENCODE_CHUNK: Final = 256


def _colons(value: Any) -> int:
    """:func:`encoded_colons` of what the one-scan route read, a few resources at a time.

    msgspec writes a struct or a dict as ``"name":value`` per member that is set, and a list as its
    items: the count is the sum of its parts'.
    """
    import msgspec

    if isinstance(value, msgspec.Struct):
        members = [getattr(value, name) for name in value.__struct_fields__]
        return sum(1 + _colons(member) for member in members if member is not msgspec.UNSET)
    if isinstance(value, dict):
        return sum(1 + key.count(":") + _colons(member) for key, member in value.items())
    if isinstance(value, list) and value and isinstance(value[0], msgspec.Struct) and "resources" in value[0].__struct_fields__:
        return sum(_colons(module) for module in value)  # child modules: each its resources, in pieces
    if isinstance(value, list):
        return sum(encoded_colons(value[i : i + _ENCODE_CHUNK]) for i in range(0, len(value), _ENCODE_CHUNK))
    return encoded_colons(value)


def _split(top: dict[str, Any], splitter: _Splitter, source: str | None) -> SplitState:
    view: dict[str, Any] = {}
    values: dict[str, Any] = {}
    read = None
    for key, raw in top.items():
        quick = splitter.values(raw) if key == "values" else None
        if quick is not None:
            view[key], values[key], read = quick
            continue
        members = splitter.members(raw) if key == "values" else None
        if members is None:
            view[key] = values[key] = _exact(raw, (key,), source)
            continue
        inner_view: dict[str, Any] = {}
        inner: dict[str, Any] = {}
        for name, member in members.items():
            if name == "root_module":
                inner_view[name], inner[name] = splitter.module(member, (key, name))
            else:
                inner_view[name] = inner[name] = _exact(member, (key, name), source)
        view[key] = inner_view
        values[key] = LazyObject(inner)
    return SplitState(view, LazyObject(values), read)
