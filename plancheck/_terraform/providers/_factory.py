"""How a test names the providers it needs: factories, :class:`ReattachProvider`, :class:`ExternalProviders`.

``TestCase(providers=...)`` (or ``TestStep(providers=...)``) takes:

* a mapping ``{address: factory}``: ``factory()`` returns a provider object of the ``tf``
  framework (the provider class itself is a factory), served in the test process;
* a :class:`ReattachProvider`: anything else that serves the plugin protocol (another
  framework, a Go provider binary in debug mode), started and stopped by your functions;
* an :class:`ExternalProviders`: released providers, installed from a filesystem mirror or
  used from a ``dev_overrides`` directory (never from the network);
* or a list of those.

Nothing here imports ``tf`` or ``grpc``: they are needed only when a server starts.
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Literal

from ..._errors import TestDefinitionError
from ..._frozen import FrozenValue, ReadOnly, frozen, public
from ._reattach import ReattachConfig, normalize_address, provider_type

__all__ = [
    "ExternalProviders",
    "ProviderEntry",
    "ProviderFactory",
    "ProviderSet",
    "ReattachProvider",
    "normalize_providers",
]

#: A function (or class) returning a provider object of the ``tf`` framework.
ProviderFactory = Callable[[], Any]

_EXACT_VERSION: Final = re.compile(r"[0-9]+\.[0-9]+\.[0-9]+(?:-[0-9A-Za-z.-]+)?\Z")


def _type_name(value: object) -> str:
    return type(value).__name__


@public("plancheck.acceptance")
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
