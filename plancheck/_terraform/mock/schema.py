"""A provider's schema, read from the document ``terraform providers schema -json`` prints.

Types stay in cty's JSON form (``"string"``, ``["list", "string"]``, ``["object", {...}]``): that
is what the protocol carries too (``Schema.Attribute.type`` is those JSON bytes), so nothing is
translated twice.

Here too: reading the file a schema comes in (:func:`read_schema_file`), the error of a mock whose schema
or defaults do not fit (:class:`MockSchemaError`: a bad document, an unknown name, a default of the wrong type),
and that of a mock pickled with a default function pickle cannot send (:class:`MockNotPicklableError`).
"""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from tfjsonpath._jsontypes import json_kind

from ..._documents.plan import NotPicklableError
from ..._errors import DocumentFormatError, TfCheckError
from ..._frozen import FrozenValue, frozen, public
from ..._loading.jsontext import loads_exact
from ..._loading.source import MAX_BYTES_ENV, InputTooLarge, max_input_bytes, read_limited
from ..._redact import SENSITIVE, Secrets
from ..._text import closest, exception_text, shortened
from ..providers.factory import normalize_address

__all__ = [
    "Attribute",
    "Block",
    "BlockType",
    "MockNotPicklableError",
    "MockSchemaError",
    "NestedType",
    "ProviderSchema",
    "TypeSchema",
    "at_key",
    "at_name",
    "check_sendable",
    "loads_json_file",
    "nothing_required",
    "read_provider_schema",
    "read_schema_file",
    "schema_message",
    "schema_response",
    "scrubbed",
    "type_label",
]


def at_key(at: str, key: str, *, hidden: bool = False) -> str:
    """Where ``key`` under ``at`` is, as a message names it: ``at["key"]``, a long key shortened.

    A key is the user's (a ``mock_resources`` key, an attribute name, a map key of a default), so
    any length: the message echoes it bounded (:func:`plancheck._text.shortened`). A key ``hidden``
    (below a sensitive attribute, where everything is a secret, keys included) is ``["(sensitive)"]``,
    as a plan's locations show one.

    >>> at_key("mock_resources", "cloud_bucket"), len(at_key("mock_resources", "x" * 100_000))
    ('mock_resources["cloud_bucket"]', 219)
    >>> at_key('mock_resources["cloud_bucket"]["token"]', "hunter2", hidden=True)
    'mock_resources["cloud_bucket"]["token"]["(sensitive)"]'
    """
    return f'{at}["{SENSITIVE if hidden else shortened(key)}"]'


def at_name(at: str, name: object) -> str:
    """Where the member ``name`` of ``at`` is in a schema document, as a message names it: ``at.name``, bounded.

    >>> at_name("schema.resource_schemas", "cloud_bucket"), len(at_name("schema", "x" * 100_000))
    ('schema.resource_schemas.cloud_bucket', 208)
    """
    return f"{at}.{shortened(str(name))}"  # a dict given in Python may have keys of other types


@public("plancheck.acceptance")
class MockSchemaError(TfCheckError, ValueError):
    """A :class:`MockProvider`'s schema document or defaults do not fit together.

    ``where`` says which option or key (``mock_resources["cloud_bucket"]["arn"]``); ``type_name``,
    ``attribute`` and ``expected`` are set when they apply; ``suggestions`` holds the closest names.
    The message never shows a value (a default may be a secret), only names and types.

    >>> err = MockSchemaError('mock_resources["cloud_bucket"]', "no resource type cloud_buckt", suggestions=["cloud_bucket"])
    >>> print(err)
    mock_resources["cloud_bucket"]: no resource type cloud_buckt; did you mean cloud_bucket?
    >>> isinstance(err, ValueError)
    True
    """

    def __init__(
        self,
        where: str,
        problem: str,
        *,
        type_name: str | None = None,
        attribute: str | None = None,
        expected: str | None = None,
        suggestions: Sequence[str] = (),
    ) -> None:
        self.where = where
        self.problem = problem
        self.type_name = type_name
        self.attribute = attribute
        self.expected = expected
        self.suggestions = tuple(suggestions)
        hint = f"; did you mean {' or '.join(self.suggestions)}?" if self.suggestions else ""
        super().__init__(f"{where}: {problem}{hint}")


@public("plancheck.acceptance")
class MockNotPicklableError(NotPicklableError, pickle.PicklingError):
    """A :class:`MockProvider` was pickled (pytest-xdist and multiprocessing send it to their workers) with a
    default function pickle cannot send: ``mock`` names the mock, ``where`` the default, ``function`` the function.

    Pickle sends a function by its module and name, so a ``lambda`` or a function defined inside another cannot
    cross to another process. A :class:`plancheck.NotPicklableError`, and a ``pickle.PicklingError`` as pickle's
    own error for such a function is.

    >>> print(MockNotPicklableError("the mock of example.com/acme/cloud", 'mock_resources["cloud_bucket"]', "m.<lambda>"))
    the mock of example.com/acme/cloud does not pickle: mock_resources["cloud_bucket"] is m.<lambda>, which pickle cannot send (it sends a function by its module and name, and finds none for a lambda or a function defined inside another); define the function at the top level of a module to send the mock to another process
    """

    def __init__(self, mock: str, where: str, function: str) -> None:
        self.mock = mock
        self.where = where
        self.function = function
        self.what = "MockProvider"
        self.problem = (
            f"{where} is {function}, which pickle cannot send (it sends a function by its module and name, and finds "
            "none for a lambda or a function defined inside another); define the function at the top level of a "
            "module to send the mock to another process"
        )
        # Past NotPicklableError's own words, which are about documents and their views.
        super(NotPicklableError, self).__init__(f"{mock} does not pickle: {self.problem}")


def check_sendable(mock: str, **options: Mapping[str, Any]) -> None:
    """Raise a :class:`MockNotPicklableError` for the first default function of ``options`` (``mock_resources=``,
    ``mock_data=``: their checked defaults) that pickle cannot send; ``mock`` names the mock.

    Each function is pickled alone, as a pickle of the mock would pickle it: pickle's own error for one it
    cannot send names neither the mock nor the default, and comes from deep inside the mock's state.

    >>> check_sendable("the mock of a/b", mock_resources={"vm": {"id": len}})
    >>> try:
    ...     check_sendable("the mock of a/b", mock_resources={"vm": {"id": lambda config: "x"}})
    ... except MockNotPicklableError as exc:
    ...     print(exc.where, exc.function)
    mock_resources["vm"]["id"] <lambda>
    """
    for option, defaults in options.items():
        for key, given in defaults.items():
            where = at_key(option, key)
            functions: list[tuple[str, Callable[..., Any]]] = [(where, given)] if callable(given) else [
                (at_key(where, name), value) for name, value in given.items() if callable(value)]
            for at, function in functions:
                try:
                    pickle.dumps(function, pickle.HIGHEST_PROTOCOL)
                except Exception:
                    name = getattr(function, "__qualname__", None)
                    raise MockNotPicklableError(
                        mock, at, name if isinstance(name, str) else f"a {type(function).__name__}"
                    ) from None


_BLOCK_MODES: Final = ("single", "list", "set", "map", "group")
_NESTED_MODES: Final = ("single", "list", "set", "map")
_PRIMITIVES: Final = ("string", "number", "bool", "dynamic")
#: The deepest nesting a schema may have, counting every block, nested attribute and cty type constructor on
#: the way down (real providers stay under 20). A block or nested attribute is two levels of protocol messages,
#: and the protobuf runtime refuses messages nested more than 100 deep; every walk of a schema and of its values
#: recurses along it too. A document nested deeper is refused at construction with a :class:`MockSchemaError`,
#: instead of failing at some later RPC.
MAX_DEPTH: Final = 40
#: The largest count or version the protocol carries (protobuf ``int64``).
MAX_INT64: Final = (1 << 63) - 1


@frozen
class NestedType(FrozenValue):
    """A protocol 6 nested attribute's object type and how its objects are collected."""

    mode: str
    attributes: Mapping[str, Attribute]
    min_items: int = 0
    max_items: int = 0

    @property
    def blocks(self) -> Mapping[str, BlockType]:
        """None: nested attributes hold attributes only (the walkers treat them like blocks)."""
        return {}


@frozen
class Attribute(FrozenValue):
    """One attribute: its cty type (for a nested attribute, the implied one), flags and nested type."""

    name: str
    type: Any
    nested: NestedType | None
    required: bool
    optional: bool
    computed: bool
    sensitive: bool
    description: str
    description_kind: str
    deprecated: bool


@frozen
class BlockType(FrozenValue):
    """A nested block: its nesting mode, its own block, item limits."""

    name: str
    mode: str
    block: Block
    min_items: int
    max_items: int


@frozen
class Block(FrozenValue):
    """A block's attributes and nested block types."""

    attributes: Mapping[str, Attribute]
    blocks: Mapping[str, BlockType]
    description: str = ""
    description_kind: str = "plain"
    deprecated: bool = False


@frozen
class TypeSchema(FrozenValue):
    """The schema of the provider's configuration, of one resource type or data source."""

    version: int
    block: Block


@frozen
class ProviderSchema(FrozenValue):
    """One provider's schemas, by kind then type name."""

    address: str
    provider: TypeSchema
    resources: Mapping[str, TypeSchema]
    data_sources: Mapping[str, TypeSchema]


def type_label(cty: Any) -> str:
    """A cty type in Terraform's own notation, for messages.

    >>> type_label(["map", ["list", "string"]])
    'map(list(string))'
    >>> type_label(["object", {"b": "bool", "a": "number"}])
    'object({a = number, b = bool})'
    """
    if isinstance(cty, str):
        return cty
    if isinstance(cty, list) and len(cty) >= 2:
        kind, inner = cty[0], cty[1]
        if kind == "object" and isinstance(inner, dict):
            return "object({" + ", ".join(f"{k} = {type_label(v)}" for k, v in sorted(inner.items())) + "})"
        if kind == "tuple" and isinstance(inner, list):
            return "tuple([" + ", ".join(type_label(v) for v in inner) + "])"
        return f"{kind}({type_label(inner)})"
    return repr(cty)


def _too_deep(where: str) -> MockSchemaError:
    return MockSchemaError(
        where, f"nested more than {MAX_DEPTH} levels deep (blocks, nested attributes and types together): "
        "the mock refuses deeper schemas",
    )


def _check_type(cty: Any, where: str, depth: int = 0) -> None:
    if depth > MAX_DEPTH:
        raise _too_deep(where)
    if isinstance(cty, str) and cty in _PRIMITIVES:
        return
    if isinstance(cty, list) and len(cty) >= 2:
        kind, inner = cty[0], cty[1]
        if kind in ("list", "set", "map") and len(cty) == 2:
            _check_type(inner, where, depth + 1)
            return
        if kind == "object" and isinstance(inner, dict):
            for name, sub in inner.items():
                _check_type(sub, at_name(where, name), depth + 1)
            return
        if kind == "tuple" and isinstance(inner, list) and len(cty) == 2:
            for i, sub in enumerate(inner):
                _check_type(sub, f"{where}[{i}]", depth + 1)
            return
    raise MockSchemaError(where, f"expected a cty type (\"string\", [\"list\", ...], ...), got {json_kind(cty)}")


def _mapping(value: object, where: str) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise MockSchemaError(where, f"expected an object, got {json_kind(value)}")
    return value


def _flag(raw: Mapping[str, Any], name: str, where: str) -> bool:
    value = raw.get(name, False)
    if not isinstance(value, bool):
        raise MockSchemaError(f"{where}.{name}", f"expected true or false, got {json_kind(value)}")
    return value


def _int(raw: Mapping[str, Any], name: str, where: str) -> int:
    value = raw.get(name, 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_INT64:
        found = ("a negative number" if value < 0 else "a number past int64") if isinstance(value, int) and not isinstance(
            value, bool
        ) else json_kind(value)
        raise MockSchemaError(f"{where}.{name}", f"expected a whole number from 0 to {MAX_INT64} (int64), got {found}")
    return value


def _text(raw: Mapping[str, Any], name: str, where: str, default: str = "") -> str:
    value = raw.get(name, default)
    if not isinstance(value, str):
        raise MockSchemaError(f"{where}.{name}", f"expected a string, got {json_kind(value)}")
    return value


def _attribute(name: str, raw: object, where: str, depth: int) -> Attribute:
    spec = _mapping(raw, where)
    nested: NestedType | None = None
    if "nested_type" in spec:
        nested = _nested_type(spec["nested_type"], f"{where}.nested_type", depth + 1)
        cty = implied_nested_type(nested)
    elif "type" in spec:
        cty = spec["type"]
        _check_type(cty, f"{where}.type", depth)
    else:
        raise MockSchemaError(where, "an attribute needs a type or a nested_type")
    flags = {f: _flag(spec, f, where) for f in ("required", "optional", "computed", "sensitive", "deprecated")}
    if not (flags["required"] or flags["optional"] or flags["computed"]):
        raise MockSchemaError(where, "an attribute must be required, optional or computed")
    return Attribute(
        name=name,
        type=cty,
        nested=nested,
        required=flags["required"],
        optional=flags["optional"],
        computed=flags["computed"],
        sensitive=flags["sensitive"],
        description=_text(spec, "description", where),
        description_kind=_text(spec, "description_kind", where, "plain"),
        deprecated=flags["deprecated"],
    )


def _nested_type(raw: object, where: str, depth: int) -> NestedType:
    if depth > MAX_DEPTH:
        raise _too_deep(where)
    spec = _mapping(raw, where)
    mode = spec.get("nesting_mode")
    if mode not in _NESTED_MODES:
        raise MockSchemaError(f"{where}.nesting_mode", f"expected one of {', '.join(_NESTED_MODES)}, got {shortened(str(mode))!r}")
    attributes = {
        n: _attribute(n, a, at_name(f"{where}.attributes", n), depth)
        for n, a in _mapping(spec.get("attributes"), f"{where}.attributes").items()
    }
    return NestedType(str(mode), attributes, _int(spec, "min_items", where), _int(spec, "max_items", where))


def _block(raw: object, where: str, depth: int = 0) -> Block:
    if depth > MAX_DEPTH:
        raise _too_deep(where)
    spec = _mapping(raw, where)
    attributes = {
        n: _attribute(n, a, at_name(f"{where}.attributes", n), depth)
        for n, a in _mapping(spec.get("attributes"), f"{where}.attributes").items()
    }
    blocks: dict[str, BlockType] = {}
    for name, value in _mapping(spec.get("block_types"), f"{where}.block_types").items():
        at = at_name(f"{where}.block_types", name)
        block_spec = _mapping(value, at)
        mode = block_spec.get("nesting_mode")
        if mode not in _BLOCK_MODES:
            raise MockSchemaError(f"{at}.nesting_mode", f"expected one of {', '.join(_BLOCK_MODES)}, got {shortened(str(mode))!r}")
        blocks[name] = BlockType(
            name, str(mode), _block(block_spec.get("block"), f"{at}.block", depth + 1),
            _int(block_spec, "min_items", at), _int(block_spec, "max_items", at),
        )
    return Block(
        attributes, blocks, _text(spec, "description", where), _text(spec, "description_kind", where, "plain"),
        _flag(spec, "deprecated", where),
    )


def _type_schema(raw: object, where: str) -> TypeSchema:
    spec = _mapping(raw, where)
    version = _int(spec, "version", where)
    return TypeSchema(version, _block(spec.get("block"), f"{where}.block"))


def implied_nested_type(nested: NestedType) -> Any:
    """The cty type of a nested attribute's value.

    >>> n = NestedType("set", {})
    >>> implied_nested_type(n)
    ['set', ['object', {}]]
    """
    obj = ["object", {name: a.type for name, a in nested.attributes.items()}]
    return obj if nested.mode == "single" else [nested.mode, obj]


#: The keys of one provider's entry (``internal/command/jsonprovider``'s ``Provider``): any of them makes a
#: document an entry. A mock serves the provider, resources and data sources; the rest (ephemeral and list
#: resources, functions, identities, actions, state stores: Terraform 1.10 to 1.15) is read past, never refused.
_ENTRY_KEYS: Final = (
    "provider", "resource_schemas", "data_source_schemas", "ephemeral_resource_schemas", "list_resource_schemas",
    "functions", "resource_identity_schemas", "action_schemas", "state_store_schemas",
)  # fmt: skip


def read_provider_schema(document: object, address: str) -> ProviderSchema:
    """The schema of provider ``address`` in ``document`` (the whole ``providers schema -json`` output, or one provider's entry).

    >>> doc = {"provider_schemas": {"registry.terraform.io/hashicorp/null": {"resource_schemas": {}}}}
    >>> read_provider_schema(doc, "hashicorp/null").address
    'registry.terraform.io/hashicorp/null'
    >>> read_provider_schema(doc, "hashicorp/nul")
    Traceback (most recent call last):
    ...
    plancheck.acceptance.MockSchemaError: MockProvider schema: no provider registry.terraform.io/hashicorp/nul in the document; did you mean registry.terraform.io/hashicorp/null?
    """
    try:
        full = normalize_address(address, "MockProvider.address")
    except ValueError as exc:
        raise MockSchemaError("MockProvider.address", str(getattr(exc, "problem", exc))) from None
    where = "MockProvider schema"
    if not isinstance(document, Mapping):
        raise MockSchemaError(where, f"expected the JSON object 'terraform providers schema -json' prints, got {json_kind(document)}")
    if "provider_schemas" in document:
        providers = _mapping(document["provider_schemas"], f"{where}: provider_schemas")
        if full not in providers:
            listed = shortened(", ".join(sorted(providers)) or "none")
            raise MockSchemaError(
                where, f"no provider {full} in the document" + ("" if closest(full, providers) else f" (it has {listed})"),
                suggestions=closest(full, providers, n=1),
            )
        entry = _mapping(providers[full], f"{where}: {at_key('provider_schemas', full)}")
        at = at_key("provider_schemas", full)
    elif any(key in document for key in _ENTRY_KEYS):
        entry, at = document, "schema"
    else:
        keys = shortened(", ".join(sorted(str(k) for k in document)[:5])) or "no keys"
        raise MockSchemaError(
            where,
            "not a provider schema: expected provider_schemas (the output of 'terraform providers schema -json') "
            f"or one provider's entry (provider, resource_schemas, data_source_schemas), found {keys}",
        )
    provider = _type_schema(entry.get("provider", {"block": {}}), f"{at}.provider")
    resources = {
        n: _type_schema(s, at_name(f"{at}.resource_schemas", n)) for n, s in _mapping(entry.get("resource_schemas"), at).items()
    }
    data = {
        n: _type_schema(s, at_name(f"{at}.data_source_schemas", n))
        for n, s in _mapping(entry.get("data_source_schemas"), at).items()
    }
    return ProviderSchema(full, provider, resources, data)


def schema_message(pb: Any, schema: TypeSchema) -> Any:
    """The protocol 6 ``Schema`` message for one type (``pb`` is ``tf.gen.tfplugin_pb2``)."""
    return pb.Schema(version=schema.version, block=_block_message(pb, schema.block))


def _kind_enum(pb: Any, kind: str) -> Any:
    return pb.MARKDOWN if kind == "markdown" else pb.PLAIN


def _attribute_message(pb: Any, attribute: Attribute) -> Any:
    fields: dict[str, Any] = {
        "name": attribute.name,
        "description": attribute.description,
        "description_kind": _kind_enum(pb, attribute.description_kind),
        "required": attribute.required,
        "optional": attribute.optional,
        "computed": attribute.computed,
        "sensitive": attribute.sensitive,
        "deprecated": attribute.deprecated,
    }
    if attribute.nested is not None:
        nested = attribute.nested
        fields["nested_type"] = pb.Schema.Object(
            attributes=[_attribute_message(pb, a) for a in nested.attributes.values()],
            nesting=pb.Schema.Object.NestingMode.Value(nested.mode.upper()),
            min_items=nested.min_items,
            max_items=nested.max_items,
        )
    else:
        fields["type"] = json.dumps(attribute.type, separators=(",", ":")).encode()
    return pb.Schema.Attribute(**fields)


def _block_message(pb: Any, block: Block) -> Any:
    return pb.Schema.Block(
        attributes=[_attribute_message(pb, a) for a in block.attributes.values()],
        block_types=[
            pb.Schema.NestedBlock(
                type_name=b.name,
                block=_block_message(pb, b.block),
                nesting=pb.Schema.NestedBlock.NestingMode.Value(b.mode.upper()),
                min_items=b.min_items,
                max_items=b.max_items,
            )
            for b in block.blocks.values()
        ],
        description=block.description,
        description_kind=_kind_enum(pb, block.description_kind),
        deprecated=block.deprecated,
    )


def read_schema_file(path: str | os.PathLike[str], max_bytes: int | None = None) -> Any:
    """The document of a file holding ``terraform providers schema -json``'s output, parsed (not yet read as a schema).

    The file is read up to ``max_bytes`` (default: ``PLANCHECK_MAX_BYTES``, else 2 GiB), as plans
    are: a larger file, or a device that never ends (``/dev/zero``), is refused after reading no more.

    A relative path that is not there is named with the directory it was looked for in: a test's files are
    beside it, while pytest's current directory is where it was started.

    >>> read_schema_file("/no/such/schema.json")
    Traceback (most recent call last):
    ...
    plancheck.acceptance.MockSchemaError: /no/such/schema.json: cannot read the schema: No such file or directory
    """
    where = os.fspath(path)
    try:
        limit = max_input_bytes(max_bytes)
    except ValueError as exc:
        raise MockSchemaError("MockProvider.from_schema_file", str(exc)) from None
    try:
        with open(where, "rb") as stream:
            data = read_limited(stream, limit)
    except InputTooLarge:
        raise MockSchemaError(
            where, f"cannot read the schema: larger than {limit} bytes (raise the limit with max_bytes= or {MAX_BYTES_ENV})"
        ) from None
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if isinstance(exc, FileNotFoundError) and not os.path.isabs(where):
            reason += f" (a relative path is taken from the current directory, {os.getcwd()})"
        raise MockSchemaError(where, f"cannot read the schema: {reason}") from None
    return loads_json_file(data, where)


def loads_json_file(data: bytes | str, where: str) -> Any:
    """A schema or defaults file's text, parsed as the plan loader parses a plan (any depth, exact numbers, a byte
    order mark read, ``NaN`` and a repeated key refused), or a :class:`MockSchemaError` naming ``where`` and the
    JSON location.

    >>> loads_json_file(b'\\xef\\xbb\\xbf{"a": [1.5]}', "s.json")
    {'a': [Decimal('1.5')]}
    >>> loads_json_file(b'{"a": NaN}', "s.json")
    Traceback (most recent call last):
    ...
    plancheck.acceptance.MockSchemaError: s.json: $: expected valid JSON, found NaN, which is not JSON
    """
    try:
        return loads_exact(data)
    except DocumentFormatError as exc:
        raise MockSchemaError(where, str(exc)) from None


def scrubbed(error: Exception, secrets: Secrets) -> MockSchemaError:
    """``error`` as a :class:`MockSchemaError` whose every text field has the secrets scrubbed."""
    if isinstance(error, MockSchemaError):
        return MockSchemaError(
            secrets.scrub(error.where), secrets.scrub(error.problem), type_name=error.type_name,
            attribute=None if error.attribute is None else secrets.scrub(error.attribute), expected=error.expected,
            suggestions=[secrets.scrub(s) for s in error.suggestions],
        )
    if isinstance(error, RecursionError):
        return MockSchemaError("MockProvider", "a value Terraform sent is nested too deep for the mock to walk")
    return MockSchemaError("MockProvider", secrets.scrub(f"internal error: {exception_text(error)}"))


def nothing_required(block: Block) -> Block:
    """``block`` with every attribute optional and no nested block required, at every depth.

    A mock serves its provider's configuration so, as ``terraform test``'s ``mock_provider`` does: a module
    without a provider block (or with one that leaves out the credentials) plans, while a provider block's
    arguments are still checked against their names and types.

    >>> doc = {"provider": {"block": {"attributes": {"user": {"type": "string", "required": True}},
    ...     "block_types": {"remote": {"nesting_mode": "list", "min_items": 1, "block": {"attributes": {
    ...         "name": {"type": "string", "required": True}}}}}}}}
    >>> relaxed = nothing_required(read_provider_schema(doc, "a/b").provider.block)
    >>> relaxed.attributes["user"].required, relaxed.attributes["user"].optional
    (False, True)
    >>> relaxed.blocks["remote"].min_items, relaxed.blocks["remote"].block.attributes["name"].optional
    (0, True)
    """
    return dataclasses.replace(
        block,
        attributes={n: _not_required(a) for n, a in block.attributes.items()},
        blocks={n: dataclasses.replace(b, block=nothing_required(b.block), min_items=0) for n, b in block.blocks.items()},
    )


def _not_required(attribute: Attribute) -> Attribute:
    nested = attribute.nested
    if nested is not None:
        nested = dataclasses.replace(
            nested, attributes={n: _not_required(a) for n, a in nested.attributes.items()}, min_items=0
        )
    if not attribute.required and nested is attribute.nested:
        return attribute
    return dataclasses.replace(attribute, nested=nested, required=False, optional=attribute.optional or attribute.required)


def schema_response(pb: Any, schema: ProviderSchema) -> Any:
    """The ``GetProviderSchema`` answer for ``schema``: the provider's configuration with nothing required
    (:func:`nothing_required`), and every resource type's and data source's schema as it is."""
    provider = TypeSchema(schema.provider.version, nothing_required(schema.provider.block))
    return pb.GetProviderSchema.Response(
        provider=schema_message(pb, provider),
        provider_meta=pb.Schema(block=pb.Schema.Block()),
        resource_schemas={n: schema_message(pb, s) for n, s in schema.resources.items()},
        data_source_schemas={n: schema_message(pb, s) for n, s in schema.data_sources.items()},
    )
