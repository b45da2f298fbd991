"""Provider addresses and the ``TF_REATTACH_PROVIDERS`` configuration Terraform reattaches with.

Terraform reads ``TF_REATTACH_PROVIDERS`` (a JSON object keyed by provider address) and, for
those addresses, connects to an already-running plugin server instead of installing and
starting one. Facts this module is built on (go-plugin's ``ReattachConfig``, checked against
Terraform 1.0.3 and 1.11.4):

* ``"Test": true`` is required: it makes Terraform take ``ProtocolVersion`` as negotiated and
  never kill the process itself on exit (with ``false`` Terraform 1.11 crashes);
* the key must be the address exactly as ``required_providers`` resolves it
  (``host/namespace/type``), so addresses are normalized here the way Terraform does;
* when the socket cannot be reached Terraform **SIGKILLs** ``Pid``: never the test process.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import field
from typing import Any, Final

from ..._errors import TestDefinitionError
from ..._frozen import FrozenValue, frozen, public

__all__ = [
    "DEFAULT_HOST",
    "DEFAULT_NAMESPACE",
    "REATTACH_ENV",
    "ReattachConfig",
    "normalize_address",
    "provider_type",
    "reattach_json",
]

REATTACH_ENV: Final = "TF_REATTACH_PROVIDERS"
DEFAULT_HOST: Final = "registry.terraform.io"
DEFAULT_NAMESPACE: Final = "hashicorp"
_PROTOCOL_VERSIONS: Final = (5, 6)
_NETWORKS: Final = ("unix", "tcp")
_LABEL: Final = re.compile(r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\Z")
_HOST: Final = re.compile(r"[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?(?::[0-9]{1,5})?\Z")


def normalize_address(address: object, where: str) -> str:
    """The full ``host/namespace/type`` form of a provider source address, as Terraform resolves it.

    A short ``type`` means ``registry.terraform.io/hashicorp/type``; ``namespace/type`` means
    ``registry.terraform.io/namespace/type``. Terraform compares addresses case-insensitively.

    >>> normalize_address("example.com/Acme/widget", "providers")
    'example.com/acme/widget'
    >>> normalize_address("null", "providers"), normalize_address("acme/widget", "providers")
    ('registry.terraform.io/hashicorp/null', 'registry.terraform.io/acme/widget')
    >>> normalize_address("a/b/c/d", "TestCase.providers")
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: TestCase.providers: 'a/b/c/d' is not a provider address (host/namespace/type, namespace/type or type)
    """
    if not isinstance(address, str):
        raise TestDefinitionError(where, f"a provider address must be a str, got {type(address).__name__}")
    parts = address.strip().lower().split("/")
    problem = f"{address!r} is not a provider address (host/namespace/type, namespace/type or type)"
    if not 1 <= len(parts) <= 3:
        raise TestDefinitionError(where, problem)
    while len(parts) < 3:
        # As Go's harness: TF_ACC_PROVIDER_NAMESPACE / TF_ACC_PROVIDER_HOST replace the defaults of short names.
        if len(parts) == 1:
            parts.insert(0, os.environ.get("TF_ACC_PROVIDER_NAMESPACE", "").strip().lower() or DEFAULT_NAMESPACE)
        else:
            parts.insert(0, os.environ.get("TF_ACC_PROVIDER_HOST", "").strip().lower() or DEFAULT_HOST)
    host, namespace, kind = parts
    if not (_HOST.match(host) and _LABEL.match(namespace) and _LABEL.match(kind)):
        raise TestDefinitionError(where, problem)
    if kind.startswith("terraform-provider-"):
        raise TestDefinitionError(where, f"{address!r}: the type is {kind.removeprefix('terraform-provider-')!r}, without the terraform-provider- prefix")
    return f"{host}/{namespace}/{kind}"


def provider_type(address: str) -> str:
    """The type part of an address (the prefix of its resource types, its usual local name).

    >>> provider_type("example.com/acme/widget")
    'widget'
    """
    return address.rsplit("/", 1)[-1]


@public("plancheck.acceptance")
@frozen
class ReattachConfig(FrozenValue):
    """Where a running plugin server listens, for ``TF_REATTACH_PROVIDERS`` (go-plugin's ``ReattachConfig``).

    * ``addr``: the socket path (``network="unix"``) or ``host:port`` (``network="tcp"``);
    * ``pid``: a process Terraform may SIGKILL when it cannot reach ``addr``; ``None`` lets the
      runner start a sentinel process for it. The test process's own pid is refused;
    * ``protocol_version``: 6 (``tf``, terraform-plugin-framework) or 5 (SDKv2);
    * ``handle``: anything the code that started the server needs to stop it (not serialized).

    ``Test`` is always true: without it Terraform 1.11 crashes and older ones would kill the server.

    >>> config = ReattachConfig("/tmp/tfpc-1/widget.sock", pid=4242)
    >>> config.to_json()
    {'Protocol': 'grpc', 'ProtocolVersion': 6, 'Pid': 4242, 'Test': True, 'Addr': {'Network': 'unix', 'String': '/tmp/tfpc-1/widget.sock'}}
    >>> ReattachConfig.from_json(config.to_json(), "start()") == config
    True
    >>> ReattachConfig("/tmp/x.sock", pid=os.getpid())
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: ReattachConfig.pid: is this test process's own pid, which Terraform SIGKILLs when it cannot reach the socket; give the server process's pid, or None for a sentinel process
    """

    addr: str
    pid: int | None = None
    network: str = "unix"
    protocol_version: int = 6
    handle: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.addr, str) or not self.addr:
            raise TestDefinitionError("ReattachConfig.addr", f"expected a socket path or host:port, got {self.addr!r}")
        if self.network not in _NETWORKS:
            raise TestDefinitionError("ReattachConfig.network", f"expected 'unix' or 'tcp', got {self.network!r}")
        if self.protocol_version not in _PROTOCOL_VERSIONS or isinstance(self.protocol_version, bool):
            raise TestDefinitionError(
                "ReattachConfig.protocol_version", f"expected 5 or 6, got {self.protocol_version!r}"
            )
        if self.pid is not None:
            if not isinstance(self.pid, int) or isinstance(self.pid, bool) or self.pid <= 1:
                raise TestDefinitionError("ReattachConfig.pid", f"expected a process id above 1 or None, got {self.pid!r}")
            if self.pid in (os.getpid(), os.getppid()):
                whose = "this test process's own" if self.pid == os.getpid() else "the parent of this test process's"
                raise TestDefinitionError(
                    "ReattachConfig.pid",
                    f"is {whose} pid, which Terraform SIGKILLs when it cannot reach the socket; "
                    "give the server process's pid, or None for a sentinel process",
                )

    def to_json(self, pid: int | None = None) -> dict[str, Any]:
        """The JSON object Terraform expects for one provider (``pid`` overrides ``self.pid``).

        >>> ReattachConfig("127.0.0.1:9000", network="tcp", protocol_version=5).to_json(pid=77)["Addr"]
        {'Network': 'tcp', 'String': '127.0.0.1:9000'}
        """
        chosen = self.pid if pid is None else pid
        if chosen is None:
            raise TestDefinitionError("ReattachConfig.pid", "no pid: the runner gives a sentinel process's pid")
        return {
            "Protocol": "grpc",
            "ProtocolVersion": self.protocol_version,
            "Pid": chosen,
            "Test": True,
            "Addr": {"Network": self.network, "String": self.addr},
        }

    @classmethod
    def from_json(cls, value: object, where: str, address: str | None = None) -> ReattachConfig:
        """Read one provider's reattach object, or a whole ``TF_REATTACH_PROVIDERS`` mapping.

        A whole mapping (as Go providers print in debug mode) must hold ``address`` or a single
        entry. ``"Test"`` is ignored (always true here); ``"Protocol"`` must be ``"grpc"``.

        >>> text = '{"registry.terraform.io/acme/gadget": {"Protocol": "grpc", "ProtocolVersion": 5,'
        >>> text += ' "Pid": 5150, "Test": true, "Addr": {"Network": "unix", "String": "/tmp/plugin1"}}}'
        >>> ReattachConfig.from_json(json.loads(text), "start()", "registry.terraform.io/acme/gadget")
        ReattachConfig('/tmp/plugin1', 5150, 'unix', 5)
        >>> ReattachConfig.from_json({"Addr": {"Network": "unix"}}, "start()")
        Traceback (most recent call last):
        ...
        plancheck.acceptance.TestDefinitionError: start(): "Addr"."String" is missing or not a str
        """
        if not isinstance(value, Mapping):
            raise TestDefinitionError(where, f"expected a reattach config (a mapping), got {type(value).__name__}")
        if "Addr" not in value:
            value = _single_entry(value, where, address)
        protocol = value.get("Protocol", "grpc")
        if protocol != "grpc":
            raise TestDefinitionError(where, f'"Protocol" must be "grpc" (Terraform reattaches over gRPC only), got {protocol!r}')
        addr = value.get("Addr")
        if not isinstance(addr, Mapping):
            raise TestDefinitionError(where, '"Addr" must be an object with "Network" and "String"')
        if not isinstance(addr.get("String"), str):
            raise TestDefinitionError(where, '"Addr"."String" is missing or not a str')
        version = value.get("ProtocolVersion")
        if version is None:
            raise TestDefinitionError(where, '"ProtocolVersion" is missing (5 or 6)')
        return cls(
            addr=addr["String"],
            pid=value.get("Pid"),
            network=addr.get("Network", "unix"),
            protocol_version=version,
        )


def _single_entry(value: Mapping[Any, Any], where: str, address: str | None) -> Mapping[str, Any]:
    if address is not None:
        for key, entry in value.items():
            if isinstance(key, str) and normalize_address(key, where) == address:
                return _mapping(entry, where, key)
    if len(value) == 1:
        key, entry = next(iter(value.items()))
        return _mapping(entry, where, str(key))
    keys = ", ".join(sorted(map(str, value))) or "none"
    wanted = f"an entry for {address}" if address is not None else "a single entry"
    raise TestDefinitionError(where, f"expected a reattach object with \"Addr\", or a mapping with {wanted}; keys: {keys}")


def _mapping(entry: object, where: str, key: str) -> Mapping[str, Any]:
    if not isinstance(entry, Mapping):
        raise TestDefinitionError(where, f"the entry for {key!r} is a {type(entry).__name__}, not an object")
    return entry


def reattach_json(configs: Mapping[str, tuple[ReattachConfig, int]]) -> str:
    """The ``TF_REATTACH_PROVIDERS`` value: address -> (config, the pid Terraform may kill).

    Sorted, so the same servers always give the same text.

    >>> print(reattach_json({"example.com/acme/widget": (ReattachConfig("/tmp/w.sock"), 4321)}))
    {"example.com/acme/widget": {"Protocol": "grpc", "ProtocolVersion": 6, "Pid": 4321, "Test": true, "Addr": {"Network": "unix", "String": "/tmp/w.sock"}}}
    """
    return json.dumps({address: config.to_json(pid) for address, (config, pid) in sorted(configs.items())})
