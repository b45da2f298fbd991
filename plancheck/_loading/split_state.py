"""Splitting a large state so that resource values are parsed on first use, as large plans are.

A state is mostly the ``values`` of its resources, while a state check reads a handful of
them. With msgspec, the state's text is checked whole (syntax, and the structure the state
schema constrains, down to each resource's skeleton: ``address``, ``index``, ``mode``,
...), but each resource's ``values``, ``sensitive_values`` and ``identity`` stay unparsed
text until first read; the marks tree is validated then, against its part of the schema,
and a problem found then is a :class:`~plancheck.StateFormatError` at that value's JSON
location. What a split state reads back is exactly what a full parse returns, each object listing its keys
in the same order for a state Terraform or OpenTofu wrote (their structs' order, which the one-scan
struct's is). A hand-written state that lists a resource's keys in another order reads back equal, its
keys in Terraform's order: the one-scan struct keeps no order of its own.

Only the fast parser splits a state (the standard library's parser cannot skip a value
without building it), and only in the ``fast`` validation mode; otherwise the state is
parsed whole, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from functools import cache, partial
from typing import Any, Final

from .._errors import DocumentFormatError, StateFormatError
from .jsontext import encoded_colons, exact_numbers, read_leniently, repeats_ruled_out
from .lazy import LazyObject, Thunk
from .location import PathKey
from .split import (
    exact_raw,
    json_type_of_first_byte,
    members_proven_unique,
    msgspec_type,
    raw_members,
    validated,
)
from .validate import Deferred, SchemaNode, state_validator

__all__ = ["DEFERRED_MEMBERS", "SplitState", "plan_state_skims", "split_state"]

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
    """A state split for validation (``view``: placeholders for resources found sound) and reading (``value``);
    ``whole()`` parses the whole text again, unvalidated, for the secrets an error hides (a view's, a value's parsed
    on first read): those the error of the state parsed whole hides."""

    __slots__ = ("read", "value", "view", "whole")

    def __init__(self, view: dict[str, Any], value: LazyObject, whole: Callable[[], Any], read: Any = None) -> None:
        self.view = view
        self.value = value
        self.whole = whole
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
            [  # Terraform's order (jsonplan and jsonstate's module): an encoding of the struct is the text it read
                ("resources", list[resource] | unset[0], unset[1]),
                ("address", str | unset[0], unset[1]),
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


def _exact(raw: Any, where: PathKey, source: str | None, whole: Callable[[], Any] | None = None) -> Any:
    return exact_raw(raw, where, source, StateFormatError, whole)


def _validated(
    value: Any, where: PathKey, node: SchemaNode | None, source: str | None, whole: Callable[[], Any] | None = None
) -> Any:
    return validated(value, where, node, source, state_validator(), StateFormatError, whole)


def _deferred(raw: Any, where: PathKey, node: SchemaNode | None, splitter: _Splitter) -> Callable[[], Any]:
    """How to read the value ``raw`` of a resource, validated, when first read (its error hides the secrets of the
    whole state: :attr:`_Splitter.whole`)."""

    def load() -> Any:
        source = splitter.source
        return _validated(_exact(raw, where, source, splitter.lenient), where, node, source, splitter.whole)

    return load


class _Splitter:
    def __init__(self, source: str | None, data: bytes) -> None:
        import msgspec

        self.msgspec = msgspec
        self.source = source
        # The whole state parsed again, unvalidated, for the secrets an error hides (a schema error's; the lenient
        # reading, a repeated key's). The pieces left unparsed (each a msgspec.Raw of it) keep the text in any case.
        self.whole = partial(exact_raw, data, (), source, StateFormatError)
        self.lenient = partial(read_leniently, data)
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
        # In the struct's order, Terraform's (resources, address, child_modules), as the full parse lists what
        # Terraform wrote: the address first listed every child module's keys in another order than that parse.
        values: dict[str, Any] = {}
        unset = self.msgspec.UNSET
        if struct.resources is not unset:
            at = (*where, "resources")
            values["resources"] = [self.from_struct(r, (*at, i)) for i, r in enumerate(struct.resources)]
        if struct.address is not unset:
            values["address"] = struct.address
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
                    values[key] = Thunk(json_type, _deferred(member, (*where, key), self.deferred_nodes[key], self))
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
                values[key] = Thunk(json_type, _deferred(member, at, node, self))
            elif key in DEFERRED_MEMBERS:  # the skeleton skipped it (a marks tree): checked now, as from_struct does
                values[key] = _validated(_exact(member, at, self.source), at, self.deferred_nodes[key], self.source)
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
        split = _split(top, _Splitter(source, data), source)
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
    return SplitState(view, LazyObject(values), splitter.whole, read)


# -- a plan's states, as its secret collection reads them ---------------------------------------------


def plan_state_skims(texts: Mapping[str, Any]) -> dict[str, Callable[[Mapping[str, Any]], Any]]:
    """How a plan's secret collection reads its unparsed ``planned_values`` and ``prior_state`` (``texts``: the
    plan's unparsed members, :attr:`~plancheck._loading.split.SplitPlan.texts`): a ``skim`` for each one's
    :class:`~plancheck._loading.lazy.Thunk` (see :meth:`~plancheck._loading.lazy.LazyObject.skim`).

    A plan's states repeat its changes: a planned resource's ``values`` and ``sensitive_values`` are,
    byte for byte, its change's ``after`` and ``after_sensitive`` (a prior one's, ``before``), which were
    parsed and validated with the changes. A skim reads a state in one scan, as a large state's
    ``values`` are read (:func:`split_state`, whose struct the plan schema's modules and resources share),
    keeps the resources' values as text, takes the change's parsed side for each resource that is its
    very text, and parses and validates the rest. It proves what parsing the whole value would (no
    repeated key, every number held by Decimal, the schema); when it cannot, it returns None and the
    value is read whole, which raises what it raises.

    >>> plan_state_skims({"format_version": b'"1.2"'})
    {}
    """
    changes = texts.get("resource_changes")
    if changes is None:
        return {}
    sides = cache(partial(_change_sides, changes))  # read once, for both states
    skims: dict[str, Callable[[Mapping[str, Any]], Any]] = {}
    if "planned_values" in texts:
        skims["planned_values"] = partial(_skim_values, texts["planned_values"], sides, "after")
    if "prior_state" in texts:
        skims["prior_state"] = partial(_skim_prior, texts["prior_state"], sides)
    return skims


@cache
def _change_sides_decoder() -> Any:
    import msgspec

    unset = (msgspec.UnsetType, msgspec.UNSET)
    sides = msgspec.defstruct(
        "ChangeSides",
        [(name, msgspec.Raw | unset[0], unset[1]) for name in ("before", "before_sensitive", "after", "after_sensitive")],
        gc=False,
    )
    entry: Any = msgspec.defstruct(
        "ChangeEntrySides", [("address", Any, None), ("deposed", Any, None), ("change", sides | unset[0], unset[1])],
        gc=False,
    )  # fmt: skip
    return msgspec.json.Decoder(list[entry], float_hook=Decimal)


def _change_sides(text: Any) -> dict[str, Any] | None:
    """The sides of each current resource change (a struct of ``msgspec.Raw``), by address, chosen as the
    secret collection chooses the parsed ones (the last change of an address that is not deposed); None
    when a change is not an object (the parsed ones decide)."""
    import msgspec

    try:
        with exact_numbers():
            entries = _change_sides_decoder().decode(text)
    except (msgspec.ValidationError, msgspec.DecodeError, ArithmeticError, RecursionError):  # see _decoded
        return None
    return {
        entry.address: entry.change
        for entry in entries
        if not entry.deposed and isinstance(entry.address, str) and entry.change is not msgspec.UNSET
    }


class _Unproven(Exception):
    """A skim cannot prove its value sound: the value is read whole."""


def _skim_values(
    text: Any, sides: Callable[[], dict[str, Any] | None], side: str, changes: Mapping[str, Any]
) -> dict[str, Any] | None:
    """A state ``values`` object (``text``) as secret collection reads it, or None (see :func:`plan_state_skims`)."""
    struct = _decoded(_resource_decoders()[3], text)
    if struct is None or not _nothing_dropped(text, struct):
        return None
    return _skimmed(struct, sides, side, changes)


def _skim_prior(text: Any, sides: Callable[[], dict[str, Any] | None], changes: Mapping[str, Any]) -> dict[str, Any] | None:
    """A plan's ``prior_state`` as secret collection reads it, or None (see :func:`plan_state_skims`): one with a
    member Terraform does not write is read whole."""
    import msgspec

    struct = _decoded(_prior_decoder(), text)
    if struct is None or not _nothing_dropped(text, struct):
        return None
    prior = {name: getattr(struct, name) for name in struct.__struct_fields__}
    prior = {name: value for name, value in prior.items() if value is not msgspec.UNSET}
    if "values" in prior:
        prior["values"] = _skimmed(prior["values"], sides, "before", changes)
        if prior["values"] is None:
            return None
    return prior


@cache
def _prior_decoder() -> Any:
    """A decoder for a plan's ``prior_state``: Terraform's members (in its order), the values read in one scan."""
    import msgspec

    values = _resource_decoders()[3].type
    prior: Any = msgspec.defstruct(
        "LazyPriorState",
        [("format_version", Any, msgspec.UNSET), ("terraform_version", Any, msgspec.UNSET),
         ("values", values | msgspec.UnsetType, msgspec.UNSET)],
        forbid_unknown_fields=True, gc=False,
    )  # fmt: skip
    return msgspec.json.Decoder(prior, float_hook=Decimal)


def _decoded(decoder: Any, text: Any) -> Any:
    """``text`` read by ``decoder`` (numbers exact), or None when it does not fit the decoder's struct."""
    import msgspec

    try:
        with exact_numbers():
            return decoder.decode(text)
    except (msgspec.ValidationError, msgspec.DecodeError, ArithmeticError, RecursionError):
        # RecursionError: a value nested deeper than msgspec reads from here (its depth limit counts the caller's
        # frames, and secrets are asked deeper down the stack than the load that read the text)
        return None


def _skimmed(
    struct: Any, sides: Callable[[], dict[str, Any] | None], side: str, changes: Mapping[str, Any]
) -> dict[str, Any] | None:
    known = sides()
    if known is None:
        return None
    try:
        return _Skim(known, changes, side).values(struct)
    except (_Unproven, DocumentFormatError):
        return None


def _nothing_dropped(text: Any, struct: Any) -> bool:
    """Whether the one-scan ``struct`` read from ``text`` kept every member (msgspec keeps the last of a repeated key).

    Terraform writes compact JSON in its structs' order, which the struct's is: the struct's encoding (its
    values' texts written as they were read) is then ``text`` itself, each key once, and comparing them costs
    a copy. Any other text (indented, reordered) is proven by its colons (:func:`repeats_ruled_out`).
    """
    import msgspec

    try:
        if msgspec.Raw(msgspec.json.encode(struct)) == text:
            return True
        return repeats_ruled_out(text, None, _colons(struct))
    except Exception:  # an integer msgspec cannot write: the whole read decides
        return False


class _Skim:
    """Reads the one-scan struct of a state's ``values`` into address, values and marks of each resource.

    The texts it parses (the resources unlike their change, the identities, the outputs) are parsed
    together, as one array (a parse each cost a state of a thousand read data sources a tenth of a second).
    """

    def __init__(self, known: dict[str, Any], changes: Mapping[str, Any], side: str) -> None:
        import msgspec

        self.unset = msgspec.UNSET
        self.raw = msgspec.Raw
        self.known = known
        self.changes = changes
        self.side = side
        self.marks = f"{side}_sensitive"
        self.validator = state_validator()
        self.nodes = {key: _resource_node().member(key) for key in DEFERRED_MEMBERS}
        #: (where the parsed value goes, its key there, its text, its schema node): parsed by :meth:`values`.
        self.pending: list[tuple[dict[str, Any], str, Any, SchemaNode | None]] = []

    def values(self, struct: Any) -> dict[str, Any]:
        values: dict[str, Any] = {}
        if struct.outputs is not self.unset:
            self.pending.append((values, "outputs", struct.outputs, self.validator.node_at("values", "outputs")))
        if struct.root_module is not self.unset:
            values["root_module"] = self.module(struct.root_module)
        if self.pending:
            parsed = _exact(b"[" + b",".join(text for _, _, text, _ in self.pending) + b"]", (), None)
            for (into, key, _, node), value in zip(self.pending, parsed, strict=True):
                if node is not None and not self.validator.is_valid(value, node):
                    raise _Unproven
                into[key] = value
        return values

    def module(self, struct: Any) -> dict[str, Any]:
        module: dict[str, Any] = {}
        if struct.address is not self.unset:
            module["address"] = struct.address
        if struct.resources is not self.unset:
            module["resources"] = [self.resource(r) for r in struct.resources]
        children = struct.child_modules
        if children is not self.unset:
            if isinstance(children, self.raw):
                raise _Unproven  # nested deeper than the struct reaches
            module["child_modules"] = [self.module(m) for m in children]
        return module

    def resource(self, struct: Any) -> dict[str, Any]:
        resource: dict[str, Any] = {"address": struct.address}
        if struct.identity is not self.unset:
            self.pending.append(({}, "identity", struct.identity, self.nodes["identity"]))  # validated, not kept
        values, marks = struct.values, struct.sensitive_values
        sides = self.known.get(struct.address)
        change = self.changes.get(struct.address)
        if (
            isinstance(change, Mapping)
            and sides is not None
            and values is not self.unset
            and marks is not self.unset
            and getattr(sides, self.side) == values
            and getattr(sides, self.marks) == marks
        ):
            # The very text of the change's side: parsed and validated with it, and what it parses to.
            resource["values"], resource["sensitive_values"] = change.get(self.side), change.get(self.marks)
            return resource
        if values is not self.unset:
            self.pending.append((resource, "values", values, self.nodes["values"]))
        if marks is not self.unset:
            self.pending.append((resource, "sensitive_values", marks, self.nodes["sensitive_values"]))
        return resource
