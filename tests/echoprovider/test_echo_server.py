"""The echo provider served in process, driven over gRPC as Terraform drives it (no Terraform binary needed)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")

import grpc
from tf.gen import tfplugin_pb2 as pb
from tf.gen import tfplugin_pb2_grpc as rpc

from plancheck._terraform.providers import wire
from plancheck._terraform.providers.wire import NULL, UNKNOWN, encode_object
from plancheck.acceptance import ProviderServer, echoprovider

# cty's encoding of a dynamic value: [type as JSON, value].
HELLO = b'\x92\xc4\x08"string"\xa5hello'
NUMBERS = b'\x92\xc4\x11["list","number"]\x92\x01\x02'


class Served:
    """One echo provider, its server, and a client with stubs for tf's RPCs and for the ephemeral ones."""

    def __init__(self) -> None:
        self.provider = echoprovider.NewProviderServer()()
        self.server = ProviderServer("echo", self.provider)
        self.server.start()
        self.channel = grpc.insecure_channel(f"unix:{self.server.reattach_config.addr}")
        self.stub = rpc.ProviderStub(self.channel)

    def ephemeral(self, name: str, **fields: Any) -> Any:
        m = wire.messages()
        call = self.channel.unary_unary(
            f"/tfplugin6.Provider/{name}",
            request_serializer=lambda r: r.SerializeToString(),
            response_deserializer=getattr(m, f"{name}Response").FromString,
        )
        return call(getattr(m, f"{name}Request")(**fields), timeout=10)

    def configure(self, data: bytes) -> Any:
        config = pb.DynamicValue(msgpack=encode_object({"data": data}))
        return self.stub.ConfigureProvider(pb.ConfigureProvider.Request(config=config), timeout=10)

    def close(self) -> list[str]:
        self.channel.close()
        return self.server.stop()


@pytest.fixture
def served() -> Iterator[Served]:
    s = Served()
    directory = s.server.reattach_config.addr.rsplit("/", 1)[0]
    yield s
    assert s.close() == []
    assert not os.path.exists(directory)


def value(msgpack: bytes) -> Any:
    return pb.DynamicValue(msgpack=msgpack)


def state(data: bytes) -> Any:
    return value(encode_object({"data": data}))


def data_attribute(schema: Any) -> tuple[str, bytes, bool, bool]:
    [attribute] = schema.block.attributes
    return attribute.name, attribute.type, attribute.optional, attribute.computed


def test_schema_has_provider_data_a_computed_resource_and_an_ephemeral_resource(served: Served) -> None:
    raw = served.channel.unary_unary("/tfplugin6.Provider/GetProviderSchema")(b"", timeout=10)
    response = pb.GetProviderSchema.Response.FromString(raw)
    assert data_attribute(response.provider) == ("data", b'"dynamic"', True, False)
    assert list(response.resource_schemas) == ["echo"]
    assert data_attribute(response.resource_schemas["echo"]) == ("data", b'"dynamic"', False, True)
    [(name, ephemeral)] = wire.read_ephemeral_schemas(raw).items()
    assert (name, data_attribute(pb.Schema.FromString(ephemeral))) == ("echo", ("data", b'"dynamic"', True, False))


def test_metadata_lists_both_echo_types(served: Served) -> None:
    raw = served.channel.unary_unary("/tfplugin6.Provider/GetMetadata")(b"", timeout=10)
    assert [r.type_name for r in pb.GetMetadata.Response.FromString(raw).resources] == ["echo"]
    assert wire.read_ephemeral_metadata(raw) == ["echo"]


def test_the_managed_resource_echoes_the_configuration_once_then_stays(served: Served) -> None:
    served.configure(HELLO)
    planned = served.stub.PlanResourceChange(pb.PlanResourceChange.Request(
        type_name="echo", prior_state=value(NULL), proposed_new_state=state(NULL), config=state(NULL)), timeout=10)
    assert (planned.planned_state.msgpack, list(planned.diagnostics)) == (encode_object({"data": UNKNOWN}), [])
    applied = served.stub.ApplyResourceChange(pb.ApplyResourceChange.Request(
        type_name="echo", prior_state=value(NULL), planned_state=planned.planned_state), timeout=10)
    assert applied.new_state.msgpack == encode_object({"data": HELLO})
    # A new configuration changes nothing planned for an existing echo: it is immutable.
    served.configure(NUMBERS)
    again = served.stub.PlanResourceChange(pb.PlanResourceChange.Request(
        type_name="echo", prior_state=applied.new_state, proposed_new_state=applied.new_state), timeout=10)
    assert again.planned_state.msgpack == encode_object({"data": HELLO})
    read = served.stub.ReadResource(pb.ReadResource.Request(type_name="echo", current_state=applied.new_state), timeout=10)
    assert read.new_state.msgpack == encode_object({"data": HELLO})
    # Destroying: null planned, null applied.
    gone = served.stub.PlanResourceChange(pb.PlanResourceChange.Request(
        type_name="echo", prior_state=applied.new_state, proposed_new_state=value(NULL)), timeout=10)
    assert gone.planned_state.msgpack == NULL
    destroyed = served.stub.ApplyResourceChange(pb.ApplyResourceChange.Request(
        type_name="echo", prior_state=applied.new_state, planned_state=gone.planned_state), timeout=10)
    assert destroyed.new_state.msgpack == NULL
    assert served.provider.data == NUMBERS
    # The provider never shows the data it holds (it may be a secret).
    assert repr(served.provider) == "<EchoProvider: data set, 0 ephemeral resources open>"


def test_the_ephemeral_resource_returns_its_configuration_and_is_closed(served: Served) -> None:
    config = wire.messages().DynamicValue(msgpack=encode_object({"data": NUMBERS}))
    assert list(served.ephemeral("ValidateEphemeralResourceConfig", type_name="echo", config=config).diagnostics) == []
    opened = served.ephemeral("OpenEphemeralResource", type_name="echo", config=config)
    assert (opened.result.msgpack, list(opened.diagnostics)) == (config.msgpack, [])
    assert served.provider.open_ephemeral == 1
    renewed = served.ephemeral("RenewEphemeralResource", type_name="echo", private=opened.private)
    assert renewed.private == opened.private
    served.ephemeral("CloseEphemeralResource", type_name="echo", private=opened.private)
    assert served.provider.open_ephemeral == 0


def unsupported(rpc: str, kind: str = "a resource type") -> tuple[str, str]:
    summary = "Unsupported Ephemeral Resource" if "ephemeral" in kind else "Unsupported Resource"
    return summary, f"{rpc} was called for {kind} that is not supported by this provider: 'other'"


EPHEMERAL = "an ephemeral resource type"
REFUSALS = [
    ("plan-other-type", "PlanResourceChange", {"type_name": "other"}, unsupported("PlanResourceChange")),
    ("apply-other-type", "ApplyResourceChange", {"type_name": "other"}, unsupported("ApplyResourceChange")),
    ("validate-other-type", "ValidateResourceConfig", {"type_name": "other"}, unsupported("ValidateResourceConfig")),
    ("upgrade-other-type", "UpgradeResourceState", {"type_name": "other"}, unsupported("UpgradeResourceState")),
    ("upgrade-version-1", "UpgradeResourceState", {"type_name": "echo", "version": 1, "raw_state": {"json": b"{}"}},
     ("Unsupported Resource", "UpgradeResourceState was called for echo, which does not support multiple schema versions")),
    ("upgrade-flatmap", "UpgradeResourceState", {"type_name": "echo", "raw_state": {"flatmap": {"id": "x"}}},
     ("Unable to Read Previously Saved State for UpgradeResourceState", "the state has no JSON")),
    ("import", "ImportResourceState", {"type_name": "echo", "id": "x"},
     ("Unsupported Resource Operation", "ImportResourceState is not supported by this provider.")),
    ("move", "MoveResourceState", {"target_type_name": "echo"},
     ("Unsupported Resource Operation", "MoveResourceState is not supported by this provider.")),
    ("configure-no-data", "ConfigureProvider", {"config": {"msgpack": b"\x80"}},
     ('Attribute "data" not found in config', "")),
    ("configure-bad-msgpack", "ConfigureProvider", {"config": {"msgpack": b"\x81\xa4data"}},
     ("Error reading Config", "MessagePack value, byte 6: the value is cut short")),
    ("ephemeral-validate-other", "ValidateEphemeralResourceConfig", {"type_name": "other"},
     unsupported("ValidateEphemeralResourceConfig", EPHEMERAL)),
    ("ephemeral-open-other", "OpenEphemeralResource", {"type_name": "other"}, unsupported("OpenEphemeralResource", EPHEMERAL)),
    ("ephemeral-renew-other", "RenewEphemeralResource", {"type_name": "other"}, unsupported("RenewEphemeralResource", EPHEMERAL)),
    ("ephemeral-close-other", "CloseEphemeralResource", {"type_name": "other"}, unsupported("CloseEphemeralResource", EPHEMERAL)),
]


@pytest.mark.parametrize(("name", "fields", "expected"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_refusals_are_error_diagnostics(served: Served, name: str, fields: dict[str, Any], expected: tuple[str, str]) -> None:
    if name in wire.EPHEMERAL_RPCS:
        response = served.ephemeral(name, **fields)
    else:
        response = getattr(served.stub, name)(getattr(pb, name).Request(**fields), timeout=10)
    assert [(d.severity, d.summary, d.detail) for d in response.diagnostics] == [(1, *expected)]
    assert served.provider.data == NULL
    assert served.provider.open_ephemeral == 0
    assert served.server.errors == []


def test_upgrade_passes_the_stored_json_through(served: Served) -> None:
    stored = b'{"data":{"value":"hello","type":"string"}}'
    response = served.stub.UpgradeResourceState(
        pb.UpgradeResourceState.Request(type_name="echo", raw_state=pb.RawState(json=stored)), timeout=10)
    assert (response.upgraded_state.json, list(response.diagnostics)) == (stored, [])


def test_each_factory_call_is_a_new_provider_with_its_own_data() -> None:
    factory = echoprovider.NewProviderServer()
    first, second = factory(), factory()
    assert first is not second
    assert isinstance(first, echoprovider.EchoProvider)
    assert repr(first) == "<EchoProvider: data null, 0 ephemeral resources open>"
