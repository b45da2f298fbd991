"""How a test names the providers it needs: factories, :class:`ReattachProvider`, :class:`ExternalProviders`.

``TestCase(providers=...)`` (or ``TestStep(providers=...)``) takes:

* a mapping ``{address: factory}``: ``factory()`` returns a provider object of the ``tf``
  framework (the provider class itself is a factory), served in the test process;
* a :class:`ReattachProvider`: anything else that serves the plugin protocol (another
  framework, a Go provider binary in debug mode), started and stopped by your functions;
* an :class:`ExternalProviders`: released providers, installed from a filesystem mirror or
  used from a ``dev_overrides`` directory (never from the network);
* or a list of those.

And what Terraform attaches with: provider addresses and the ``TF_REATTACH_PROVIDERS`` configuration Terraform reattaches with.

Terraform reads ``TF_REATTACH_PROVIDERS`` (a JSON object keyed by provider address) and, for
those addresses, connects to an already-running plugin server instead of installing and
starting one. Facts this module is built on (go-plugin's ``ReattachConfig``, checked against
Terraform 1.0.3 and 1.11.4):

* ``"Test": true`` is required: it makes Terraform take ``ProtocolVersion`` as negotiated and
  never kill the process itself on exit (with ``false`` Terraform 1.11 crashes);
* the key must be the address exactly as ``required_providers`` resolves it
  (``host/namespace/type``), so addresses are normalized here the way Terraform does;
* when the socket cannot be reached Terraform **SIGKILLs** ``Pid``: never the test process.

Nothing here imports ``tf`` or ``grpc``: they are needed only when a server starts.
"""

from __future__ import annotations

import glob
import json
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import field
from pathlib import Path
from typing import Any, Final, Literal

from ..._errors import TestDefinitionError
from ..._frozen import FrozenValue, ReadOnly, frozen, keyword_hints, public

__all__ = [
    "DEFAULT_HOST",
    "DEFAULT_NAMESPACE",
    "REATTACH_ENV",
    "ExternalProviders",
    "ProviderEntry",
    "ProviderFactory",
    "ProviderSet",
    "ReattachConfig",
    "ReattachProvider",
    "normalize_address",
    "normalize_providers",
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


#: A function (or class) returning a provider object of the ``tf`` framework.
ProviderFactory = Callable[[], Any]

_EXACT_VERSION: Final = re.compile(r"[0-9]+\.[0-9]+\.[0-9]+(?:-[0-9A-Za-z.-]+)?\Z")


def _type_name(value: object) -> str:
    return type(value).__name__


@public("plancheck.acceptance")
@keyword_hints()
class ReattachProvider:
    """A provider served by something other than this process's ``tf`` server: a Go binary in debug mode, pyvider, ...

    * ``address``: the provider's address as in ``required_providers`` (``example.com/acme/gadget``);
    * ``start(directory)``: starts the server and returns where it listens, as a
      :class:`ReattachConfig` or the JSON Terraform reads (one provider's object, or the whole
      ``TF_REATTACH_PROVIDERS`` mapping a Go provider prints with ``-debug``). ``directory`` is a
      short private directory of the test case, for a Unix socket. With no ``Pid`` the runner
      supplies a sentinel process for Terraform to kill if the socket is unreachable;
    * ``stop(config)``: called with that :class:`ReattachConfig` when the case ends, also after a
      failure (put whatever it needs, a ``Popen`` say, in ``ReattachConfig(handle=...)``).

    It is started once per test case, before the first ``terraform`` command that needs it.

    >>> gadget = ReattachProvider("example.com/acme/gadget", start=lambda d: ReattachConfig(f"{d}/g.sock"))
    >>> gadget
    ReattachProvider('example.com/acme/gadget')
    >>> ReattachProvider("example.com/acme/gadget", start="go run .")
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: ReattachProvider.start: expected a function (directory) -> ReattachConfig, got str
    """

    __slots__ = ("address", "start", "stop")

    address: str
    start: Callable[[Path], ReattachConfig | Mapping[str, Any]]
    stop: Callable[[ReattachConfig], object] | None

    def __init__(
        self,
        address: str,
        start: Callable[[Path], ReattachConfig | Mapping[str, Any]],
        stop: Callable[[ReattachConfig], object] | None = None,
    ) -> None:
        self.address = normalize_address(address, "ReattachProvider.address")
        if not callable(start):
            raise TestDefinitionError(
                "ReattachProvider.start", f"expected a function (directory) -> ReattachConfig, got {_type_name(start)}"
            )
        if stop is not None and not callable(stop):
            raise TestDefinitionError("ReattachProvider.stop", f"expected a function (config) -> None, got {_type_name(stop)}")
        self.start = start
        self.stop = stop

    def __repr__(self) -> str:
        return f"ReattachProvider({self.address!r})"


def _path(value: object, where: str) -> Path:
    if not isinstance(value, (str, os.PathLike)):
        raise TestDefinitionError(where, f"expected a directory path, got {_type_name(value)}")
    return Path(os.fspath(value)).absolute()


@public("plancheck.acceptance")
@keyword_hints()
class ExternalProviders(ReadOnly):
    """Released providers a case needs, installed from a local directory so that ``init`` stays offline.

    ``versions`` maps addresses to version constraints (``{"hashicorp/null": "2.1.2"}``), written
    into ``required_providers`` when a step's ``config`` has no ``terraform`` block (as Go's
    ``ExternalProviders`` does). Exactly one source:

    * ``mirror``: a filesystem mirror directory (packed or unpacked layout, as
      ``terraform providers mirror`` writes it);
    * ``dev_overrides``: a directory (or ``{address: directory}``) holding ``terraform-provider-TYPE``
      binaries, used as Terraform's ``dev_overrides`` do. ``terraform init`` would still ask the
      registry for them (Terraform 1.0 to 1.11), so the runner also offers each binary to ``init``
      from a private mirror, under the exact version given here.

    The case then runs with a CLI configuration of its own (it replaces the runner's
    ``cli_config`` for that case); other providers install as usual.

    >>> null = ExternalProviders({"hashicorp/null": "2.1.2"}, mirror="/opt/tf-mirror")
    >>> null
    ExternalProviders({'registry.terraform.io/hashicorp/null': '2.1.2'}, mirror='/opt/tf-mirror')
    >>> null.addresses
    ('registry.terraform.io/hashicorp/null',)
    >>> ExternalProviders({"hashicorp/null": "~> 2.1"}, dev_overrides="/opt/bin")
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: ExternalProviders.versions["hashicorp/null"]: dev_overrides need an exact version such as '2.1.2' (init is offered the binary under it), got '~> 2.1'
    """

    __slots__ = ("_dev_overrides", "_mirror", "_versions")

    _versions: tuple[tuple[str, str], ...]
    _mirror: Path | None
    _dev_overrides: tuple[tuple[str, Path], ...]

    def __init__(
        self,
        versions: Mapping[str, str],
        *,
        mirror: str | os.PathLike[str] | None = None,
        dev_overrides: str | os.PathLike[str] | Mapping[str, str | os.PathLike[str]] | None = None,
    ) -> None:
        where = "ExternalProviders.versions"
        if not isinstance(versions, Mapping) or not versions:
            raise TestDefinitionError(where, f"expected a non-empty dict of address -> version, got {versions!r}")
        if (mirror is None) == (dev_overrides is None):
            raise TestDefinitionError("ExternalProviders", "give exactly one of mirror= or dev_overrides=")
        pairs: dict[str, str] = {}
        for key, version in versions.items():
            at = f'{where}["{key}"]'
            address = normalize_address(key, at)
            if not isinstance(version, str):
                raise TestDefinitionError(at, f"expected a version constraint (str), got {_type_name(version)}")
            if dev_overrides is not None and not _EXACT_VERSION.match(version.strip()):
                raise TestDefinitionError(
                    at, f"dev_overrides need an exact version such as '2.1.2' (init is offered the binary under it), got {version!r}"
                )
            if address in pairs:
                raise TestDefinitionError(at, f"{address} is listed twice")
            pairs[address] = version.strip()
        self._set(
            _versions=tuple(sorted(pairs.items())),
            _mirror=None if mirror is None else _path(mirror, "ExternalProviders.mirror"),
            _dev_overrides=self._overrides(dev_overrides, pairs),
        )

    @staticmethod
    def _overrides(
        value: str | os.PathLike[str] | Mapping[str, str | os.PathLike[str]] | None, versions: Mapping[str, str]
    ) -> tuple[tuple[str, Path], ...]:
        if value is None:
            return ()
        if isinstance(value, Mapping):
            found: dict[str, Path] = {}
            for key, directory in value.items():
                at = f'ExternalProviders.dev_overrides["{key}"]'
                address = normalize_address(key, at)
                if address not in versions:
                    raise TestDefinitionError(at, f"{address} has no version in ExternalProviders.versions")
                found[address] = _path(directory, at)
            missing = sorted(set(versions) - set(found))
            if missing:
                raise TestDefinitionError("ExternalProviders.dev_overrides", f"no directory for {', '.join(missing)}")
            return tuple(sorted(found.items()))
        directory = _path(value, "ExternalProviders.dev_overrides")
        return tuple((address, directory) for address in sorted(versions))

    @property
    def addresses(self) -> tuple[str, ...]:
        """The full addresses of these providers, sorted.

        >>> ExternalProviders({"b/y": "1.0.0", "a/x": "2.0.0"}, mirror="/m").addresses
        ('registry.terraform.io/a/x', 'registry.terraform.io/b/y')
        """
        return tuple(address for address, _ in self._versions)

    @property
    def versions(self) -> dict[str, str]:
        """Address -> version constraint.

        >>> ExternalProviders({"hashicorp/null": "2.1.2"}, mirror="/m").versions
        {'registry.terraform.io/hashicorp/null': '2.1.2'}
        """
        return dict(self._versions)

    @property
    def mirror(self) -> Path | None:
        """The filesystem mirror, if that is the source.

        >>> ExternalProviders({"hashicorp/null": "2.1.2"}, mirror="/m").mirror
        PosixPath('/m')
        """
        return self._mirror

    @property
    def dev_overrides(self) -> dict[str, Path]:
        """Address -> directory of its binary, if ``dev_overrides`` is the source.

        >>> ExternalProviders({"hashicorp/null": "2.1.2"}, dev_overrides="/b").dev_overrides
        {'registry.terraform.io/hashicorp/null': PosixPath('/b')}
        """
        return dict(self._dev_overrides)

    def _key(self) -> tuple[object, ...]:
        return (self._versions, self._mirror, self._dev_overrides)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ExternalProviders):
            return self._key() == other._key()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        source = f"mirror={str(self._mirror)!r}" if self._mirror is not None else f"dev_overrides={self._dev_repr()}"
        return f"ExternalProviders({dict(self._versions)!r}, {source})"

    def _dev_repr(self) -> str:
        directories = {str(path) for _, path in self._dev_overrides}
        if len(directories) == 1:
            return repr(directories.pop())
        return repr({address: str(path) for address, path in self._dev_overrides})

    def resolve(self, platform: str) -> list[tuple[str, Path]]:
        """Check every provider is where it should be; return (address, what was found) pairs.

        Raises :class:`TestDefinitionError` naming the provider and every place looked at.

        >>> ExternalProviders({"hashicorp/null": "2.1.2"}, mirror="/nonexistent").resolve("linux_amd64")
        Traceback (most recent call last):
        ...
        plancheck.acceptance.TestDefinitionError: ExternalProviders.mirror: /nonexistent is not a directory
        """
        if self._mirror is not None:
            return [(address, self._in_mirror(self._mirror, address, version, platform)) for address, version in self._versions]
        return [(address, _binary_in(directory, address)) for address, directory in self._dev_overrides]

    @staticmethod
    def _in_mirror(mirror: Path, address: str, version: str, platform: str) -> Path:
        if not mirror.is_dir():
            raise TestDefinitionError("ExternalProviders.mirror", f"{mirror} is not a directory")
        base = mirror / address
        kind = provider_type(address)
        if _EXACT_VERSION.match(version):
            candidates = [base / version / platform, base / f"terraform-provider-{kind}_{version}_{platform}.zip"]
        else:
            candidates = [base]
        for candidate in candidates:
            if candidate.exists():
                return candidate
        looked = ", ".join(str(c) for c in candidates)
        raise TestDefinitionError(
            "ExternalProviders.mirror", f"{address} {version or '(any version)'} for {platform} is not in the mirror (looked for {looked})"
        )


def _binary_in(directory: Path, address: str) -> Path:
    kind = provider_type(address)
    where = "ExternalProviders.dev_overrides"
    if not directory.is_dir():
        raise TestDefinitionError(where, f"{directory} is not a directory")
    exact = directory / f"terraform-provider-{kind}"
    candidates = [exact, *sorted(Path(p) for p in glob.glob(glob.escape(str(exact)) + "_*"))]
    for candidate in candidates:
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    raise TestDefinitionError(where, f"no executable terraform-provider-{kind} or terraform-provider-{kind}_* in {directory} (for {address})")


@frozen
class ProviderEntry(FrozenValue):
    """One provider of a :class:`ProviderSet`: its address, how it is provided, and from what.

    >>> ProviderEntry("example.com/acme/widget", "factory", dict).kind
    'factory'
    """

    address: str
    kind: Literal["factory", "reattach", "external"]
    source: Any
    version: str = ""


class ProviderSet(ReadOnly):
    """The normalized ``providers=`` of a :class:`TestCase` or :class:`TestStep`: entries sorted by address.

    >>> providers = normalize_providers({"example.com/acme/widget": dict}, "TestCase.providers")
    >>> providers
    ProviderSet(['example.com/acme/widget (factory dict)'])
    >>> [e.address for e in providers], len(providers), bool(providers)
    (['example.com/acme/widget'], 1, True)
    """

    __slots__ = ("_entries",)
    _entries: tuple[ProviderEntry, ...]

    def __init__(self, entries: Sequence[ProviderEntry]) -> None:
        self._set(_entries=tuple(sorted(entries, key=lambda e: e.address)))

    def __iter__(self) -> Iterator[ProviderEntry]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ProviderSet):
            return self._entries == other._entries
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._entries)

    def __repr__(self) -> str:
        def describe(entry: ProviderEntry) -> str:
            if entry.kind == "factory":
                name = getattr(entry.source, "__qualname__", None) or _type_name(entry.source)
                return f"{entry.address} (factory {name})"
            if entry.kind == "external":
                return f"{entry.address} {entry.version} (external)"
            return f"{entry.address} (reattach)"

        return f"ProviderSet({[describe(e) for e in self._entries]!r})"

    def get(self, address: str) -> ProviderEntry | None:
        """The entry for ``address`` (full form), if any.

        >>> normalize_providers({"acme/w": dict}, "p").get("registry.terraform.io/acme/w").kind
        'factory'
        """
        for entry in self._entries:
            if entry.address == address:
                return entry
        return None


def _factory_entry(address: str, value: object, at: str) -> ProviderEntry:
    if isinstance(value, ReattachProvider):
        if value.address != address:
            raise TestDefinitionError(at, f"the key says {address} but the ReattachProvider serves {value.address}")
        return ProviderEntry(address, "reattach", value)
    if isinstance(value, ExternalProviders):
        raise TestDefinitionError(at, "give ExternalProviders(...) itself (or in a list), not as a mapping value")
    if isinstance(value, str):
        raise TestDefinitionError(
            at, f"{value!r} is not a provider factory; for a released provider use ExternalProviders({{...: {value!r}}}, mirror=...)"
        )
    if not callable(value):
        raise TestDefinitionError(
            at, f"expected a provider factory (a function or class returning a tf provider), got a {_type_name(value)} instance"
        )
    return ProviderEntry(address, "factory", value)


def _items(value: object, where: str) -> Iterator[tuple[str, object, str, bool]]:
    """(address, source, where, from a mapping) for every provider ``value`` names."""
    parts: Sequence[object]
    if isinstance(value, (Mapping, ReattachProvider, ExternalProviders)):
        parts = [value]
        numbered = False
    elif isinstance(value, (list, tuple)):
        parts = value
        numbered = True
    else:
        raise TestDefinitionError(
            where,
            f"expected {{address: factory}}, a ReattachProvider, an ExternalProviders, or a list of them; got {_type_name(value)}",
        )
    for i, part in enumerate(parts):
        at = f"{where}[{i}]" if numbered else where
        if isinstance(part, Mapping):
            for key, source in part.items():
                yield normalize_address(key, at), source, f'{at}["{key}"]', True
        elif isinstance(part, ReattachProvider):
            yield part.address, part, at, False
        elif isinstance(part, ExternalProviders):
            for address in part.addresses:
                yield address, part, at, False
        else:
            raise TestDefinitionError(
                at, f"expected {{address: factory}}, a ReattachProvider or an ExternalProviders, got {_type_name(part)}"
            )


def normalize_providers(value: object, where: str) -> ProviderSet | None:
    """Validate a ``providers=`` argument; ``None`` (or nothing in it) gives ``None``.

    >>> normalize_providers(None, "TestStep.providers") is None
    True
    >>> null = ExternalProviders({"hashicorp/null": "2.1.2"}, mirror="/m")
    >>> normalize_providers([{"example.com/acme/widget": dict}, null], "TestCase.providers")
    ProviderSet(['example.com/acme/widget (factory dict)', 'registry.terraform.io/hashicorp/null 2.1.2 (external)'])
    >>> normalize_providers([{"hashicorp/null": dict}, null], "TestCase.providers")
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: TestCase.providers[1]: registry.terraform.io/hashicorp/null is given twice
    """
    if value is None or isinstance(value, ProviderSet):
        return value or None
    entries: dict[str, ProviderEntry] = {}
    for address, source, at, keyed in _items(value, where):
        if address in entries:
            raise TestDefinitionError(at.split('["')[0], f"{address} is given twice")
        if isinstance(source, ExternalProviders) and not keyed:
            entries[address] = ProviderEntry(address, "external", source, source.versions[address])
        else:
            entries[address] = _factory_entry(address, source, at)
    return ProviderSet(list(entries.values())) if entries else None
