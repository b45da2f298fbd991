"""The protocol-6.7 pieces ``tf`` lacks: field numbers, suffixes merged into ``tf``'s responses, request decoding.

The bytes are checked with a wire reader written here (independent of protobuf's), against the
field numbers of Terraform's ``docs/plugin-protocol/tfplugin6.proto``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")

from tf.gen import tfplugin_pb2 as pb

from plancheck._terraform.providers import wire

# (message, field, number, repeated) as tfplugin6.proto declares them.
PROTO_FIELDS = [
    ("ValidateEphemeralResourceConfigRequest", "type_name", 1, False),
    ("ValidateEphemeralResourceConfigRequest", "config", 2, False),
    ("ValidateEphemeralResourceConfigResponse", "diagnostics", 1, True),
    ("OpenEphemeralResourceRequest", "type_name", 1, False),
    ("OpenEphemeralResourceRequest", "config", 2, False),
    ("OpenEphemeralResourceResponse", "diagnostics", 1, True),
    ("OpenEphemeralResourceResponse", "result", 3, False),
    ("OpenEphemeralResourceResponse", "private", 4, False),
    ("RenewEphemeralResourceRequest", "type_name", 1, False),
    ("RenewEphemeralResourceRequest", "private", 2, False),
    ("RenewEphemeralResourceResponse", "diagnostics", 1, True),
    ("RenewEphemeralResourceResponse", "private", 3, False),
    ("CloseEphemeralResourceRequest", "type_name", 1, False),
    ("CloseEphemeralResourceRequest", "private", 2, False),
    ("CloseEphemeralResourceResponse", "diagnostics", 1, True),
    ("GetMetadataExtra", "ephemeral_resources", 6, True),
    ("GetProviderSchemaExtra", "ephemeral_resource_schemas", 8, True),
    ("DynamicValue", "msgpack", 1, False),
    ("DynamicValue", "json", 2, False),
    ("Diagnostic", "severity", 1, False),
    ("Diagnostic", "summary", 2, False),
    ("Diagnostic", "detail", 3, False),
]


@pytest.mark.parametrize(("message", "field", "number", "repeated"), PROTO_FIELDS,
                         ids=[f"{m}.{f}" for m, f, _, _ in PROTO_FIELDS])
def test_field_numbers_are_the_protocols(message: str, field: str, number: int, repeated: bool) -> None:
    descriptor = getattr(wire.messages(), message).DESCRIPTOR.fields_by_name[field]
    assert (descriptor.number, descriptor.label == descriptor.LABEL_REPEATED) == (number, repeated)


# tf's own messages share DynamicValue and Diagnostic's numbers: bytes of one parse as the other.
@pytest.mark.parametrize("name", ["DynamicValue", "Diagnostic"])
def test_shared_messages_match_tfs(name: str) -> None:
    ours = {f.name: f.number for f in getattr(wire.messages(), name).DESCRIPTOR.fields}
    theirs = {f.name: f.number for f in getattr(pb, name).DESCRIPTOR.fields}
    assert ours.items() <= theirs.items()


def varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def fields(data: bytes) -> Iterator[tuple[int, bytes | int]]:
    """(field number, value) of every top-level field: bytes for length-delimited, int for varints."""
    at = 0
    while at < len(data):
        key, at = varint(data, at)
        number, kind = key >> 3, key & 7
        if kind == 0:
            value, at = varint(data, at)
            yield number, value
        elif kind == 2:
            size, at = varint(data, at)
            yield number, data[at : at + size]
            at += size
        else:
            raise AssertionError(f"wire type {kind} in field {number}")


def schema_bytes(description: str) -> bytes:
    attribute = pb.Schema.Attribute(name="data", type=b'"dynamic"', optional=True)
    return bytes(pb.Schema(block=pb.Schema.Block(attributes=[attribute], description=description)).SerializeToString())


names = st.text(st.characters(codec="utf-8"), max_size=12)


@settings(max_examples=60, deadline=None)
@given(schemas=st.dictionaries(names, st.text(max_size=20).map(schema_bytes), max_size=4),
       resource=st.text(max_size=8))
def test_schemas_merged_into_tfs_response_reach_the_wire_and_read_back(schemas: dict[str, bytes], resource: str) -> None:
    response = pb.GetProviderSchema.Response(resource_schemas={resource: pb.Schema(version=2)})
    before = response.SerializeToString()
    sent = wire.add_ephemeral_schemas(response, schemas).SerializeToString()
    # tf's message still reads its own fields as before; ours read back as given.
    assert pb.GetProviderSchema.Response.FromString(sent).resource_schemas[resource].version == 2
    assert wire.read_ephemeral_schemas(sent) == schemas
    # On the wire: tf's bytes, then one field 8 per schema, each a map entry {1: name, 2: schema}.
    entries = [dict(fields(value)) for number, value in fields(sent) if number == 8 and isinstance(value, bytes)]
    assert {bytes(e.get(1, b"")).decode(): e.get(2, b"") for e in entries} == schemas
    assert sent == before + wire.ephemeral_schemas_suffix(schemas)


@settings(max_examples=60, deadline=None)
@given(type_names=st.lists(names, max_size=5))
def test_metadata_merged_into_tfs_response_keeps_order(type_names: list[str]) -> None:
    response = pb.GetMetadata.Response(resources=[pb.GetMetadata.ResourceMetadata(type_name="echo")])
    sent = wire.add_ephemeral_metadata(response, type_names).SerializeToString()
    assert [r.type_name for r in pb.GetMetadata.Response.FromString(sent).resources] == ["echo"]
    assert wire.read_ephemeral_metadata(sent) == type_names
    raw = [dict(fields(v)).get(1, b"") for n, v in fields(sent) if n == 6 and isinstance(v, bytes)]
    assert [bytes(r).decode() for r in raw if isinstance(r, bytes)] == type_names


def field_bytes(number: int, payload: bytes) -> bytes:
    assert number < 16
    assert len(payload) < 128
    return bytes([number << 3 | 2, len(payload)]) + payload


@settings(max_examples=60, deadline=None)
@given(type_name=st.text(max_size=10).filter(lambda t: len(t.encode()) < 100),
       msgpack=st.binary(max_size=40), capabilities=st.binary(max_size=10))
def test_open_request_decodes_and_keeps_unknown_fields(type_name: str, msgpack: bytes, capabilities: bytes) -> None:
    raw = field_bytes(1, type_name.encode()) + field_bytes(2, field_bytes(1, msgpack)) + field_bytes(3, capabilities)
    _, decode, _ = wire.method_table(Echo())["OpenEphemeralResource"]
    request = decode(raw)
    assert (request.type_name, request.config.msgpack) == (type_name, msgpack)
    # client_capabilities (field 3) is not declared here, and survives as an unknown field.
    assert (3, capabilities) in list(fields(request.SerializeToString()))


class Echo:
    """A servicer with every ephemeral RPC, answering with what it was given."""

    def ValidateEphemeralResourceConfig(self, request: object, context: object) -> object:
        return wire.messages().ValidateEphemeralResourceConfigResponse()

    def OpenEphemeralResource(self, request: object, context: object) -> object:
        return wire.messages().OpenEphemeralResourceResponse(result=request.config)  # type: ignore[attr-defined]

    def RenewEphemeralResource(self, request: object, context: object) -> object:
        return wire.messages().RenewEphemeralResourceResponse(private=request.private)  # type: ignore[attr-defined]

    def CloseEphemeralResource(self, request: object, context: object) -> object:
        return wire.messages().CloseEphemeralResourceResponse()


RESPONSES = [
    ("open", "OpenEphemeralResourceResponse", {"result": {"msgpack": b"\xc0"}, "private": b"t"},
     [(3, b"\n\x01\xc0"), (4, b"t")]),
    ("renew", "RenewEphemeralResourceResponse", {"private": b"tok"}, [(3, b"tok")]),
    ("close-diagnostic", "CloseEphemeralResourceResponse",
     {"diagnostics": [{"severity": 1, "summary": "S", "detail": "D"}]}, [(1, b"\x08\x01\x12\x01S\x1a\x01D")]),
    ("validate-empty", "ValidateEphemeralResourceConfigResponse", {}, []),
]


@pytest.mark.parametrize(("message", "values", "expected"), [r[1:] for r in RESPONSES], ids=[r[0] for r in RESPONSES])
def test_responses_encode_with_the_protocols_numbers(message: str, values: dict[str, object],
                                                     expected: list[tuple[int, bytes]]) -> None:
    response = getattr(wire.messages(), message)(**values)
    assert list(fields(response.SerializeToString())) == expected


def test_method_table_offers_only_the_rpcs_a_servicer_has() -> None:
    assert list(wire.method_table(Echo())) == list(wire.EPHEMERAL_RPCS)
    assert wire.method_table(object()) == {}
    _, _, encode = wire.method_table(Echo())["CloseEphemeralResource"]
    assert encode(wire.messages().CloseEphemeralResourceResponse()) == b""


def test_nothing_is_added_to_protobufs_default_pool() -> None:
    import importlib

    descriptor_pool = importlib.import_module("google.protobuf.descriptor_pool")

    wire.messages()
    with pytest.raises(KeyError):
        descriptor_pool.Default().FindMessageTypeByName("plancheck_ephemeral.OpenEphemeralResourceRequest")
