"""The ``echo`` provider, after Go's ``echoprovider``: test data Terraform keeps out of plans and states.

An ephemeral value (a password an ephemeral resource opens, say) never reaches a plan or a state,
so no check can see it, unless something copies it there. The ``echo`` provider does, as Go's
``terraform-plugin-testing/echoprovider`` does: its provider configuration takes a dynamic
``data`` attribute (a place where ephemeral values may go), and its managed resource ``echo``
stores that value in its computed ``data`` attribute when it is created::

    ephemeral "examplecloud_thing" "this" {
      name = "thing-one"
    }

    provider "echo" {
      data = ephemeral.examplecloud_thing.this
    }

    resource "echo" "test" {}  # echo.test.data holds ephemeral.examplecloud_thing.this

Add it to a case like any provider under test (Go's ``ProtoV6ProviderFactories`` entry)::

    TestCase(
        providers={"echo": echoprovider.NewProviderServer()},
        terraform_version_checks=[tfversion.SkipBelow(tfversion.Version1_10_0)],
        steps=[...],
    )

As in Go, the ``echo`` resource is immutable: it plans ``data`` as unknown when it is created and
keeps its prior state afterwards, whatever the provider configuration becomes (a configuration is
ephemeral and may differ between plan and apply), so a second step plans no change. Import and
move are refused.

Beyond Go's, the provider has an ephemeral resource ``echo`` whose ``data`` is its own input (its
``data`` argument), so a test can make ephemeral values without another provider (Terraform 1.10
or later; the ``tf`` framework knows no ephemeral resources, so this provider speaks protocol 6.7
itself, see ``plancheck/_terraform/providers/wire.py``)::

    provider "echo" {
      alias = "source"
    }

    ephemeral "echo" "password" {
      provider = echo.source
      data     = { user = "admin", password = "hunter2" }
    }

    provider "echo" {
      data = ephemeral.echo.password.data
    }

    resource "echo" "test" {}

Every configuration of the provider (aliases too) configures the same server, and ``echo``
resources store the ``data`` of the last configuration Terraform made; above, the default
configuration comes last because it depends on the ephemeral resource, which depends on the alias.

>>> factory = NewProviderServer()
>>> provider = factory()
>>> provider
<EchoProvider: data null, 0 ephemeral resources open>
>>> factory() is provider  # one provider object per call, as Go's factory makes one server per call
False
"""

from __future__ import annotations

import itertools
import threading
import warnings
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, Final

from .._frozen import public
from .._terraform.providers import wire
from .._terraform.providers.wire import NULL, UNKNOWN, MsgpackError, encode_object, object_fields

__all__ = ["ECHO_TYPE", "EchoProvider", "NewProviderServer"]

#: The type name of the managed resource and of the ephemeral resource.
ECHO_TYPE: Final = "echo"
_DYNAMIC: Final = b'"dynamic"'
_ERROR: Final = 1  # Diagnostic.ERROR
_PROVIDER_DESCRIPTION: Final = (
    "This provider is used to output the data attribute provided to the provider configuration into all "
    "resources instances of echo. This is only useful for testing ephemeral resources where the data isn't "
    "stored to state."
)


@public("plancheck.acceptance.echoprovider")
class EchoProvider:
    """One ``echo`` provider: what its factory returns, served in the test process.

    ``data`` is the raw MessagePack value of the last provider configuration's ``data``;
    ``open_ephemeral`` counts the ephemeral ``echo`` resources opened and not yet closed (Terraform
    closes each one before it exits, so it is 0 after every command).

    >>> EchoProvider().open_ephemeral
    0
    """


    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._data = NULL
        self._open: set[bytes] = set()
        self._serial = itertools.count(1)

    def __repr__(self) -> str:
        data = "null" if self._data == NULL else "unknown" if self._data == UNKNOWN else "set"
        return f"<EchoProvider: data {data}, {self.open_ephemeral} ephemeral resources open>"

    @property
    def data(self) -> bytes:
        """The provider configuration's ``data`` as cty MessagePack (null until Terraform configures the provider).

        >>> EchoProvider().data
        b'\\xc0'
        """
        with self._lock:
            return self._data

    @property
    def open_ephemeral(self) -> int:
        """How many ephemeral ``echo`` resources are open.

        >>> EchoProvider().open_ephemeral
        0
        """
        with self._lock:
            return len(self._open)

    def plancheck_servicer(self, modules: SimpleNamespace) -> _Servicer:
        """The servicer the provider server uses (``modules`` is ``load_grpc()``'s namespace: ``pb`` is all it needs).

        >>> from types import SimpleNamespace
        >>> servicer = EchoProvider().plancheck_servicer(SimpleNamespace(pb=None))
        >>> sorted(servicer.plancheck_extra_methods()) == sorted(wire.EPHEMERAL_RPCS)
        True
        """
        return _Servicer(self, modules.pb)

    # What the servicer changes, under the lock (Terraform calls a provider from several goroutines).
    def _configure(self, data: bytes) -> None:
        with self._lock:
            self._data = data

    def _opened(self) -> bytes:
        token = f"echo-{next(self._serial)}".encode()
        with self._lock:
            self._open.add(token)
        return token

    def _closed(self, token: bytes) -> None:
        with self._lock:
            self._open.discard(token)


def _is_null(value: Any) -> bool:
    """A DynamicValue that decodes to null (Terraform sends MessagePack; an empty value is null too)."""
    if value.msgpack:
        return bool(value.msgpack == NULL)
    return value.json.strip() in (b"", b"null")


_RPC = Callable[["_Servicer", Any, Any], Any]


def _echo_type_only(rpc: _RPC) -> _RPC:
    """An RPC about one managed resource: for a type this provider lacks, its response holds the diagnostic alone."""
    name = rpc.__name__

    # Not functools.wraps: the provider server unwraps ``__wrapped__`` (tf's own wrapper), which would skip this.
    def checked(self: _Servicer, request: Any, context: Any) -> Any:
        problems = self._unsupported(name, request.type_name)
        if problems:
            return getattr(self.pb, name).Response(diagnostics=problems)
        return rpc(self, request, context)

    return checked


class _Servicer:
    """The protocol-6 RPCs of the echo provider (the provider server wraps them; unlisted ones are UNIMPLEMENTED)."""

    def __init__(self, provider: EchoProvider, pb: Any) -> None:
        self.provider = provider
        self.pb = pb

    # Diagnostics and schemas.
    def _error(self, summary: str, detail: str = "") -> Any:
        return self.pb.Diagnostic(severity=self.pb.Diagnostic.ERROR, summary=summary, detail=detail)

    def _unsupported(self, rpc: str, type_name: str) -> list[Any]:
        if type_name == ECHO_TYPE:
            return []
        detail = f"{rpc} was called for a resource type that is not supported by this provider: {type_name!r}"
        return [self._error("Unsupported Resource", detail)]

    def _schema(self, description: str, *, optional: bool = False, computed: bool = False, block: str = "") -> Any:
        pb = self.pb
        attribute = pb.Schema.Attribute(
            name="data", type=_DYNAMIC, description=description, description_kind=pb.PLAIN,
            optional=optional, computed=computed,
        )  # fmt: skip
        return pb.Schema(block=pb.Schema.Block(attributes=[attribute], description=block, description_kind=pb.PLAIN))

    def GetProviderSchema(self, request: Any, context: Any) -> Any:
        pb = self.pb
        response = pb.GetProviderSchema.Response(
            provider=self._schema("Dynamic data to provide to the echo resource.", optional=True, block=_PROVIDER_DESCRIPTION),
            resource_schemas={ECHO_TYPE: self._schema("Dynamic data that was provided to the provider configuration.", computed=True)},
        )
        ephemeral = self._schema("Dynamic data, returned as the ephemeral resource's data.", optional=True)
        return wire.add_ephemeral_schemas(response, {ECHO_TYPE: ephemeral.SerializeToString()})

    def GetMetadata(self, request: Any, context: Any) -> Any:
        pb = self.pb
        response = pb.GetMetadata.Response(resources=[pb.GetMetadata.ResourceMetadata(type_name=ECHO_TYPE)])
        return wire.add_ephemeral_metadata(response, [ECHO_TYPE])

    # Provider configuration.
    def ValidateProviderConfig(self, request: Any, context: Any) -> Any:
        return self.pb.ValidateProviderConfig.Response()

    def ConfigureProvider(self, request: Any, context: Any) -> Any:
        response = self.pb.ConfigureProvider.Response()
        try:
            fields = object_fields(request.config.msgpack)
        except MsgpackError as exc:
            response.diagnostics.append(self._error("Error reading Config", str(exc)))
            return response
        if "data" not in fields:
            response.diagnostics.append(self._error('Attribute "data" not found in config'))
            return response
        self.provider._configure(fields["data"])
        return response

    def StopProvider(self, request: Any, context: Any) -> Any:
        return self.pb.StopProvider.Response()

    # The managed resource.
    @_echo_type_only
    def ValidateResourceConfig(self, request: Any, context: Any) -> Any:
        return self.pb.ValidateResourceConfig.Response()

    @_echo_type_only
    def PlanResourceChange(self, request: Any, context: Any) -> Any:
        pb = self.pb
        if _is_null(request.proposed_new_state):  # destroying
            return pb.PlanResourceChange.Response(planned_state=request.proposed_new_state)
        if not _is_null(request.prior_state):  # immutable: the data may change between commands, the resource never does
            return pb.PlanResourceChange.Response(planned_state=request.prior_state)
        # Unknown until apply: the provider configuration (ephemeral) may differ between plan and apply.
        planned = pb.DynamicValue(msgpack=encode_object({"data": UNKNOWN}))
        return pb.PlanResourceChange.Response(planned_state=planned)

    @_echo_type_only
    def ApplyResourceChange(self, request: Any, context: Any) -> Any:
        pb = self.pb
        if _is_null(request.planned_state):  # destroyed
            return pb.ApplyResourceChange.Response(new_state=request.planned_state)
        new_state = pb.DynamicValue(msgpack=encode_object({"data": self.provider.data}))
        return pb.ApplyResourceChange.Response(new_state=new_state)

    def ReadResource(self, request: Any, context: Any) -> Any:
        # The data never needs refreshing.
        return self.pb.ReadResource.Response(new_state=request.current_state, private=request.private)

    @_echo_type_only
    def UpgradeResourceState(self, request: Any, context: Any) -> Any:
        pb = self.pb
        if request.version != 0:
            problem = self._error(
                "Unsupported Resource",
                "UpgradeResourceState was called for echo, which does not support multiple schema versions",
            )
            return pb.UpgradeResourceState.Response(diagnostics=[problem])
        if not request.raw_state.json:
            problem = self._error("Unable to Read Previously Saved State for UpgradeResourceState", "the state has no JSON")
            return pb.UpgradeResourceState.Response(diagnostics=[problem])
        # The stored JSON is already the current schema's: Terraform decodes a JSON DynamicValue as it does MessagePack.
        return pb.UpgradeResourceState.Response(upgraded_state=pb.DynamicValue(json=request.raw_state.json))

    def ImportResourceState(self, request: Any, context: Any) -> Any:
        detail = "ImportResourceState is not supported by this provider."
        return self.pb.ImportResourceState.Response(diagnostics=[self._error("Unsupported Resource Operation", detail)])

    def MoveResourceState(self, request: Any, context: Any) -> Any:
        detail = "MoveResourceState is not supported by this provider."
        return self.pb.MoveResourceState.Response(diagnostics=[self._error("Unsupported Resource Operation", detail)])

    # The ephemeral resource (RPCs tf's protocol module lacks: served through the extra-methods hook).
    def plancheck_extra_methods(
        self,
    ) -> dict[str, tuple[Callable[[Any, Any], Any], Callable[[bytes], Any], Callable[[Any], bytes]]]:
        return wire.method_table(self)

    def _ephemeral_problems(self, rpc: str, type_name: str) -> list[Any]:
        if type_name == ECHO_TYPE:
            return []
        detail = f"{rpc} was called for an ephemeral resource type that is not supported by this provider: {type_name!r}"
        return [wire.messages().Diagnostic(severity=_ERROR, summary="Unsupported Ephemeral Resource", detail=detail)]

    def ValidateEphemeralResourceConfig(self, request: Any, context: Any) -> Any:
        problems = self._ephemeral_problems("ValidateEphemeralResourceConfig", request.type_name)
        return wire.messages().ValidateEphemeralResourceConfigResponse(diagnostics=problems)

    def OpenEphemeralResource(self, request: Any, context: Any) -> Any:
        m = wire.messages()
        problems = self._ephemeral_problems("OpenEphemeralResource", request.type_name)
        if problems:
            return m.OpenEphemeralResourceResponse(diagnostics=problems)
        # The result is the configuration itself: data in, the same data out, byte for byte.
        result = m.DynamicValue(msgpack=request.config.msgpack, json=request.config.json)
        return m.OpenEphemeralResourceResponse(result=result, private=self.provider._opened())

    def RenewEphemeralResource(self, request: Any, context: Any) -> Any:
        # Never asked for (Open sets no renew_at); answering keeps the resource as it is.
        problems = self._ephemeral_problems("RenewEphemeralResource", request.type_name)
        return wire.messages().RenewEphemeralResourceResponse(diagnostics=problems, private=request.private)

    def CloseEphemeralResource(self, request: Any, context: Any) -> Any:
        problems = self._ephemeral_problems("CloseEphemeralResource", request.type_name)
        if not problems:
            self.provider._closed(request.private)
        return wire.messages().CloseEphemeralResourceResponse(diagnostics=problems)


def NewProviderServer() -> Callable[[], EchoProvider]:
    """A factory of ``echo`` providers, for ``TestCase(providers={"echo": NewProviderServer()})`` (Go's name).

    >>> factory = NewProviderServer()
    >>> type(factory()).__name__
    'EchoProvider'
    """
    return EchoProvider


def __getattr__(name: str) -> Any:
    # The snake_case spelling of Go's NewProviderServer, kept working for one release (#34: Go's name is the one name).
    if name == "new_provider_server":
        warnings.warn(
            f"{__name__}.new_provider_server is deprecated; use {__name__}.NewProviderServer", DeprecationWarning, stacklevel=2
        )
        return NewProviderServer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
