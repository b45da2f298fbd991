"""What the plugin protocol carries that ``tf`` does not read or write for us: cty's MessagePack objects,
the ephemeral-resource messages of protocol 6.7, and the diagnostics of a response.

**cty's MessagePack**: just enough of Terraform's MessagePack values (cty's encoding) to pass attribute
values through unchanged.

A provider that echoes a value never needs to understand it: this splits an object's encoding into
its attributes' raw bytes and joins such bytes back into an object, so the value (with its dynamic
type tag, unknowns and all) reaches Terraform byte for byte as it came. The ``msgpack`` library (the
``providers`` extra) does the reading and writing; it is imported on first use, so importing this
module costs nothing in a core install. Values are skipped, never decoded, and one nested deeper than
the library's own stack is walked header by header, so depth costs no recursion.

>>> fields = object_fields(b"\\x82\\xa1a\\x01\\xa1b\\x92\\xc3\\xc0")
>>> fields
{'a': b'\\x01', 'b': b'\\x92\\xc3\\xc0'}
>>> encode_object(fields) == b"\\x82\\xa1a\\x01\\xa1b\\x92\\xc3\\xc0"
True

**Ephemeral resources**: the plugin-protocol pieces for ephemeral resources that ``tf``'s protocol
module lacks.

``tf`` 1.2 generated its ``tfplugin_pb2`` before protocol 6.7 (Terraform 1.10) added ephemeral
resources: its ``GetProviderSchema.Response`` has no ``ephemeral_resource_schemas`` (field 8),
its ``GetMetadata.Response`` no ``ephemeral_resources`` (field 6), and its service none of
``ValidateEphemeralResourceConfig``, ``OpenEphemeralResource``, ``RenewEphemeralResource``,
``CloseEphemeralResource``. This declares exactly those messages, with the field numbers
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

**Diagnostics**: those a provider served in this process returns, recorded with their attribute paths.

Terraform's JSON output drops a diagnostic's attribute path (it keeps the source range it found
for it), so the server notes every diagnostic of every response it sends: the runner joins them
to Terraform's by severity, summary and detail (see ``plancheck.acceptance._diagnostics``). Each
distinct diagnostic is kept once, so a long case holds as many records as it has distinct messages.
"""

from __future__ import annotations

import functools
import importlib
import threading
from collections.abc import Callable, Iterable, Mapping
from types import SimpleNamespace
from typing import Any, Final

from tfjsonpath import MapStep, Path, SliceStep, Step

from ..._errors import TfCheckError
from ..._frozen import FrozenValue, frozen

__all__ = [
    "EPHEMERAL_RPCS",
    "NULL",
    "UNKNOWN",
    "DiagnosticRecorder",
    "MsgpackError",
    "ProviderDiagnostic",
    "add_ephemeral_metadata",
    "add_ephemeral_schemas",
    "attribute_path",
    "encode_object",
    "ephemeral_metadata_suffix",
    "ephemeral_schemas_suffix",
    "item_end",
    "messages",
    "method_table",
    "object_fields",
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


#: cty's null, and its unknown value (extension type 0 with one zero byte).
NULL: Final = b"\xc0"
UNKNOWN: Final = b"\xd4\x00\x00"

_CUT: Final = "the value is cut short"


class MsgpackError(TfCheckError, ValueError):
    """A value that is not the MessagePack Terraform sends; ``offset`` is where reading stopped.

    >>> print(MsgpackError(3, "the value is cut short"))
    MessagePack value, byte 3: the value is cut short
    """

    def __init__(self, offset: int, problem: str) -> None:
        self.offset = offset
        self.problem = problem
        super().__init__(f"MessagePack value, byte {offset}: {problem}")


@functools.cache
def _msgpack() -> Any:
    return importlib.import_module("msgpack")


class _Cursor:
    """The ``msgpack`` unpacker reading ``data`` from ``base`` on; the offsets it reports count in ``data``."""

    __slots__ = ("base", "data", "lib", "reader")

    def __init__(self, data: bytes, base: int = 0) -> None:
        self.data = data
        self.lib: Any = _msgpack()
        self.start(base)

    def start(self, base: int) -> None:
        """A new unpacker from ``base`` on."""
        # Every length limit is the input's size: a longer declared string or binary is cut short, not allocated.
        self.base = base
        size = max(len(self.data) - base, 1)  # read_size: the buffer is made once, at its full size
        self.reader: Any = self.lib.Unpacker(raw=False, max_buffer_size=size, read_size=size)
        self.reader.feed(memoryview(self.data)[base:] if base else self.data)

    def at(self) -> int:
        return self.base + self.reader.tell()  # type: ignore[no-any-return]

    def cut(self) -> MsgpackError:
        return MsgpackError(len(self.data), _CUT)

    def header(self, read: str) -> int | None:
        """The count of the array (``read_array_header``) or map (``read_map_header``) here, or None if not one."""
        try:
            return int(getattr(self.reader, read)())
        except self.lib.OutOfData:
            raise self.cut() from None
        except ValueError:  # another kind of item; the unpacker has not moved
            return None

    def skip(self) -> None:
        """Past one whole item, nested items included."""
        at = self.at()
        try:
            self.reader.skip()
            return
        except self.lib.OutOfData:
            raise self.cut() from None
        except self.lib.StackError:
            pass  # nested deeper than the library's stack: walked below, one container header at a time
        except self.lib.FormatError:
            raise MsgpackError(at, f"0x{self.data[at]:02x} starts no MessagePack value") from None
        except ValueError:  # a declared length past the end (the limits are the input's size)
            raise self.cut() from None
        walker = _Cursor(self.data, at)
        pending = 1
        while pending:
            pending -= 1
            items = walker.header("read_array_header")
            if items is None:
                pairs = walker.header("read_map_header")
                items = None if pairs is None else 2 * pairs
            if items is None:
                walker.skip()  # not a container, so the library skips it in one step
            else:
                pending += items
        self.start(walker.at())  # the unpacker that overflowed lost its place

    def key(self) -> str:
        at = self.at()
        try:
            name = self.reader.unpack()
        except UnicodeDecodeError:
            raise MsgpackError(at, "an attribute name is not UTF-8") from None
        except self.lib.OutOfData:
            raise self.cut() from None
        except ValueError:  # malformed, or a container nested past the library's stack: no name either way
            name = None
        if type(name) is not str:
            raise MsgpackError(at, "an attribute name is not a string")
        return name


def item_end(data: bytes, start: int = 0) -> int:
    """The offset just after the whole item (nested items included) that starts at ``start``.

    >>> item_end(b"\\x92\\x01\\xa2hi\\xc0"), item_end(b"\\x92\\x01\\xa2hi\\xc0", 1)
    (5, 2)
    """
    cursor = _Cursor(data, start)
    cursor.skip()
    return cursor.at()


def object_fields(data: bytes) -> dict[str, bytes]:
    """An object's attributes, by name, as the raw bytes of each value.

    >>> object_fields(b"\\xc0")
    Traceback (most recent call last):
    ...
    plancheck._terraform.providers.wire.MsgpackError: MessagePack value, byte 0: expected an object (a map), got 0xc0
    """
    if not data:
        raise MsgpackError(0, "expected an object (a map), got nothing")
    # Once per value the echo passes on: the unpacker is called directly, and a cursor made from the
    # same offset only when that fails (to say why, or to walk a value nested too deep for the library).
    lib = _msgpack()
    reader = lib.Unpacker(raw=False, max_buffer_size=len(data), read_size=len(data))
    reader.feed(data)
    try:
        count = reader.read_map_header()
    except lib.OutOfData:
        raise MsgpackError(len(data), _CUT) from None
    except ValueError:
        raise MsgpackError(0, f"expected an object (a map), got 0x{data[0]:02x}") from None
    fields: dict[str, bytes] = {}
    base = 0
    for _ in range(count):
        at = base + reader.tell()
        try:
            name = reader.unpack()
        except Exception:  # the cursor reads it again and raises the error that says why
            name = None
        if type(name) is not str:
            cursor = _Cursor(data, at)
            name = cursor.key()
            reader, base = cursor.reader, cursor.base
        start = base + reader.tell()
        try:
            reader.skip()
        except Exception:  # the cursor walks it header by header, or raises the error that says why
            cursor = _Cursor(data, start)
            cursor.skip()
            reader, base = cursor.reader, cursor.base
        fields[name] = data[start : base + reader.tell()]
    end = base + reader.tell()
    if end != len(data):
        raise MsgpackError(end, "unexpected bytes after the object")
    return fields


def encode_object(fields: Mapping[str, bytes]) -> bytes:
    """An object from its attributes' raw values, names sorted as cty writes them.

    >>> encode_object({"data": UNKNOWN})
    b'\\x81\\xa4data\\xd4\\x00\\x00'
    """
    packer = _msgpack().Packer()
    parts = [packer.pack_map_header(len(fields))]
    for name in sorted(fields):
        parts.append(packer.pack(name))
        parts.append(fields[name])
    return b"".join(parts)


#: The protocol's ``Diagnostic.Severity``: 1 is ERROR, 2 is WARNING (0, INVALID, is never shown).
_SEVERITIES: Final = {1: "error", 2: "warning"}


@frozen
class ProviderDiagnostic(FrozenValue):
    """A diagnostic a provider served in this process returned, as the server saw it (with its attribute path).

    >>> from tfjsonpath import New
    >>> ProviderDiagnostic("warning", "Attribute deprecated", "use tags", "widget_thing", New("color")).attribute
    Path(MapStep('color'))
    """

    severity: str
    summary: str
    detail: str
    type_name: str
    attribute: Path | None


def attribute_path(message: Any) -> Path | None:
    """A protocol ``AttributePath`` as a :class:`tfjsonpath.Path` (names and string keys as map steps,
    integer keys as slice steps, as in a plan's JSON); None when it has no steps or one cannot be a path.

    >>> from types import SimpleNamespace as S
    >>> def step(kind, value):
    ...     return S(WhichOneof=lambda _: kind, **{kind: value})
    >>> attribute_path(S(steps=[step("attribute_name", "tags"), step("element_key_string", "env"),
    ...                         step("element_key_int", 0)]))
    Path(MapStep('tags'), MapStep('env'), SliceStep(0))
    """
    steps: list[Step] = []
    for item in getattr(message, "steps", ()):
        kind = item.WhichOneof("selector")
        value: Any = getattr(item, kind) if kind else None
        try:
            if kind in ("attribute_name", "element_key_string"):
                steps.append(MapStep(value))
            elif kind == "element_key_int":
                steps.append(SliceStep(value))
            else:
                return None
        except (TypeError, ValueError):
            return None  # a negative index, say: a provider's bug, and no path of a plan's JSON
    return Path(*steps) if steps else None


class DiagnosticRecorder:
    """Thread-safe: Terraform calls a provider from several goroutines at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: dict[ProviderDiagnostic, None] = {}

    def record(self, request: Any, response: Any) -> None:
        """Note the diagnostics of ``response`` (an answer to ``request``); never raises."""
        try:
            diagnostics = list(getattr(response, "diagnostics", None) or ())
        except TypeError:
            return
        if not diagnostics:
            return
        type_name = str(getattr(request, "type_name", "") or "")
        found: list[ProviderDiagnostic] = []
        for diagnostic in diagnostics:
            try:
                severity = _SEVERITIES.get(int(diagnostic.severity))
                if severity is None:
                    continue
                has_path = diagnostic.HasField("attribute")
                path = attribute_path(diagnostic.attribute) if has_path else None
                found.append(ProviderDiagnostic(severity, str(diagnostic.summary), str(diagnostic.detail), type_name, path))
            except (AttributeError, TypeError, ValueError):
                continue  # not a protocol Diagnostic: a servicer of its own answers as it likes
        with self._lock:
            for record in found:
                self._seen.setdefault(record, None)

    def snapshot(self) -> list[ProviderDiagnostic]:
        """Every distinct diagnostic recorded so far, oldest first."""
        with self._lock:
            return list(self._seen)
