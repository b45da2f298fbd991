"""The plugin-protocol pieces for ephemeral resources that ``tf``'s protocol module lacks.

``tf`` 1.2 generated its ``tfplugin_pb2`` before protocol 6.7 (Terraform 1.10) added ephemeral
resources: its ``GetProviderSchema.Response`` has no ``ephemeral_resource_schemas`` (field 8),
its ``GetMetadata.Response`` no ``ephemeral_resources`` (field 6), and its service none of
``ValidateEphemeralResourceConfig``, ``OpenEphemeralResource``, ``RenewEphemeralResource``,
``CloseEphemeralResource``. This module declares exactly those messages, with the field numbers
of Terraform's ``docs/plugin-protocol/tfplugin6.proto``, in a private descriptor pool (nothing is
added to protobuf's default pool, so a later ``tf`` that has them cannot clash).

Two tricks keep it small:

* protobuf messages concatenate: the bytes of a message holding only field 8 appended to a
  ``GetProviderSchema.Response`` are that response with field 8 added. :func:`add_ephemeral_schemas`
  merges them into ``tf``'s message, which keeps them as unknown fields and sends them on;
* a length-delimited ``bytes`` field is wire-identical to an embedded message, so schemas,
  ``ClientCapabilities`` and the like need no declaration here: a schema travels as the bytes of
  ``tf``'s own ``Schema`` message, and fields left undeclared are kept as unknown fields.

``google.protobuf`` comes with ``tf`` (the ``providers`` extra) and is imported on first use.

>>> suffix = ephemeral_schemas_suffix({"echo": b"\\x12\\x00"})
>>> suffix
b'B\\n\\n\\x04echo\\x12\\x02\\x12\\x00'
>>> read_ephemeral_schemas(b"\\x0a\\x00" + suffix)  # other fields before it are skipped
{'echo': b'\\x12\\x00'}
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterable, Mapping
from types import SimpleNamespace
from typing import Any, Final

__all__ = [
    "EPHEMERAL_RPCS",
    "add_ephemeral_metadata",
    "add_ephemeral_schemas",
    "ephemeral_metadata_suffix",
    "ephemeral_schemas_suffix",
    "messages",
    "method_table",
    "read_ephemeral_metadata",
    "read_ephemeral_schemas",
]

#: The RPCs of ephemeral resources (protocol 6.7), in the order Terraform calls them.
EPHEMERAL_RPCS: Final = (
    "ValidateEphemeralResourceConfig",
    "OpenEphemeralResource",
    "RenewEphemeralResource",
    "CloseEphemeralResource",
)
#: ``GetProviderSchema.Response.ephemeral_resource_schemas`` and ``GetMetadata.Response.ephemeral_resources``.
SCHEMAS_FIELD: Final = 8
METADATA_FIELD: Final = 6
_PACKAGE: Final = "plancheck_ephemeral"

# (name, number, type, repeated): type is a scalar's name in descriptor_pb2.FieldDescriptorProto's Type
# (``"string"`` for ``TYPE_STRING``), or a message's name here; the runtime's own enums give the numbers.
_SCALARS: Final = frozenset({"string", "bytes", "int32"})
_Field = tuple[str, int, str, bool]


def _f(name: str, number: int, kind: str, repeated: bool = False) -> _Field:
    return (name, number, kind, repeated)


_DIAGNOSTICS: Final = _f("diagnostics", 1, "Diagnostic", repeated=True)
#: Message name -> fields. Only what the echo provider reads or writes is declared.
_MESSAGES: Final[dict[str, tuple[_Field, ...]]] = {
    "DynamicValue": (_f("msgpack", 1, "bytes"), _f("json", 2, "bytes")),
    # severity is an enum on the wire, that is a varint: int32 reads and writes the same bytes.
    "Diagnostic": (_f("severity", 1, "int32"), _f("summary", 2, "string"), _f("detail", 3, "string")),
    "ValidateEphemeralResourceConfigRequest": (_f("type_name", 1, "string"), _f("config", 2, "DynamicValue")),
    "ValidateEphemeralResourceConfigResponse": (_DIAGNOSTICS,),
    # client_capabilities (3) stays an unknown field.
    "OpenEphemeralResourceRequest": (_f("type_name", 1, "string"), _f("config", 2, "DynamicValue")),
    # renew_at (2) and deferred (5) are never sent: the echo never needs renewing nor defers.
    "OpenEphemeralResourceResponse": (
        _DIAGNOSTICS,
        _f("result", 3, "DynamicValue"),
        _f("private", 4, "bytes"),
    ),
    "RenewEphemeralResourceRequest": (_f("type_name", 1, "string"), _f("private", 2, "bytes")),
    "RenewEphemeralResourceResponse": (_DIAGNOSTICS, _f("private", 3, "bytes")),
    "CloseEphemeralResourceRequest": (_f("type_name", 1, "string"), _f("private", 2, "bytes")),
    "CloseEphemeralResourceResponse": (_DIAGNOSTICS,),
    "EphemeralMetadata": (_f("type_name", 1, "string"),),
    "GetMetadataExtra": (_f("ephemeral_resources", METADATA_FIELD, "EphemeralMetadata", repeated=True),),
    "GetProviderSchemaExtra": (
        _f("ephemeral_resource_schemas", SCHEMAS_FIELD, "GetProviderSchemaExtra.SchemasEntry", repeated=True),
    ),
}
#: map<string, bytes>: protobuf spells a map as a repeated nested entry message.
_MAP_ENTRY: Final = ("GetProviderSchemaExtra", "SchemasEntry", (_f("key", 1, "string"), _f("value", 2, "bytes")))


def _add_fields(message: Any, fields: Iterable[_Field], proto: Any) -> None:
    """Declares ``fields`` on ``message`` (a ``DescriptorProto``); ``proto`` is ``FieldDescriptorProto``."""
    for name, number, kind, repeated in fields:
        label = proto.LABEL_REPEATED if repeated else proto.LABEL_OPTIONAL
        if kind in _SCALARS:
            message.field.add(name=name, number=number, type=getattr(proto, f"TYPE_{kind.upper()}"), label=label)
        else:
            message.field.add(name=name, number=number, type=proto.TYPE_MESSAGE, label=label,
                              type_name=f".{_PACKAGE}.{kind}")


@functools.cache
def messages() -> SimpleNamespace:
    """The message classes, by name (``messages().OpenEphemeralResourceRequest``), built once.

    >>> m = messages()
    >>> request = m.OpenEphemeralResourceRequest.FromString(b"\\n\\x04echo\\x12\\x03\\n\\x01\\xc0")
    >>> request.type_name, request.config.msgpack
    ('echo', b'\\xc0')
    """
    descriptor_pb2: Any = importlib.import_module("google.protobuf.descriptor_pb2")
    descriptor_pool: Any = importlib.import_module("google.protobuf.descriptor_pool")
    message_factory: Any = importlib.import_module("google.protobuf.message_factory")
    file = descriptor_pb2.FileDescriptorProto(name="plancheck_ephemeral.proto", package=_PACKAGE, syntax="proto3")
    for name, fields in _MESSAGES.items():
        message = file.message_type.add(name=name)
        _add_fields(message, fields, descriptor_pb2.FieldDescriptorProto)
        if name == _MAP_ENTRY[0]:
            entry = message.nested_type.add(name=_MAP_ENTRY[1])
            entry.options.map_entry = True
            _add_fields(entry, _MAP_ENTRY[2], descriptor_pb2.FieldDescriptorProto)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return SimpleNamespace(
        **{
            name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{_PACKAGE}.{name}"))
            for name in _MESSAGES
        }
    )


def ephemeral_schemas_suffix(schemas: Mapping[str, bytes]) -> bytes:
    """``ephemeral_resource_schemas`` (type name -> serialized ``Schema``) as bytes to append to a ``GetProviderSchema.Response``.

    >>> ephemeral_schemas_suffix({})
    b''
    """
    extra = messages().GetProviderSchemaExtra()
    for name, schema in schemas.items():
        extra.ephemeral_resource_schemas[name] = schema
    return extra.SerializeToString(deterministic=True)  # type: ignore[no-any-return]


def ephemeral_metadata_suffix(type_names: Iterable[str]) -> bytes:
    """``ephemeral_resources`` as bytes to append to a ``GetMetadata.Response``.

    >>> ephemeral_metadata_suffix(["echo"])
    b'2\\x06\\n\\x04echo'
    """
    m = messages()
    extra = m.GetMetadataExtra(ephemeral_resources=[m.EphemeralMetadata(type_name=name) for name in type_names])
    return extra.SerializeToString(deterministic=True)  # type: ignore[no-any-return]


def read_ephemeral_schemas(response: bytes) -> dict[str, bytes]:
    """The ``ephemeral_resource_schemas`` of a serialized ``GetProviderSchema.Response`` (other fields are skipped).

    >>> read_ephemeral_schemas(b"")
    {}
    """
    extra = messages().GetProviderSchemaExtra.FromString(response)
    return dict(extra.ephemeral_resource_schemas)


def read_ephemeral_metadata(response: bytes) -> list[str]:
    """The ``ephemeral_resources`` type names of a serialized ``GetMetadata.Response``.

    >>> read_ephemeral_metadata(ephemeral_metadata_suffix(["a", "b"]))
    ['a', 'b']
    """
    return [item.type_name for item in messages().GetMetadataExtra.FromString(response).ephemeral_resources]


def add_ephemeral_schemas(response: Any, schemas: Mapping[str, bytes]) -> Any:
    """``tf``'s ``GetProviderSchema.Response`` with ``ephemeral_resource_schemas`` merged in (kept as unknown fields); returns it."""
    response.MergeFromString(ephemeral_schemas_suffix(schemas))
    return response


def add_ephemeral_metadata(response: Any, type_names: Iterable[str]) -> Any:
    """``tf``'s ``GetMetadata.Response`` with ``ephemeral_resources`` merged in; returns it."""
    response.MergeFromString(ephemeral_metadata_suffix(type_names))
    return response


def _serialize(message: Any) -> bytes:
    return message.SerializeToString()  # type: ignore[no-any-return]


def method_table(
    servicer: object,
) -> dict[str, tuple[Callable[[Any, Any], Any], Callable[[bytes], Any], Callable[[Any], bytes]]]:
    """``{rpc: (servicer's method, request decoder, response encoder)}`` for the ephemeral RPCs ``servicer`` has.

    This is what a servicer's ``plancheck_extra_methods()`` returns for the provider server.

    >>> class Only:
    ...     def OpenEphemeralResource(self, request, context): ...
    >>> sorted(method_table(Only()))
    ['OpenEphemeralResource']
    """
    m = messages()
    table: dict[str, tuple[Callable[[Any, Any], Any], Callable[[bytes], Any], Callable[[Any], bytes]]] = {}
    for name in EPHEMERAL_RPCS:
        method = getattr(servicer, name, None)
        if callable(method):
            table[name] = (method, getattr(m, f"{name}Request").FromString, _serialize)
    return table
