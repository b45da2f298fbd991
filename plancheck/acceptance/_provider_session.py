"""The providers of one running test case: servers started on demand, the environment, the CLI configuration.

The runner makes one :class:`ProviderSession` per case. Before each step it calls
:meth:`ProviderSession.use` with the step's providers (a step's own, else the case's); servers
are started the first time they are needed and kept until the case ends, so a provider keeps
its in-memory state from step to step and the post-test ``destroy`` still finds every
provider that created something. A step that names a *different* factory for an address gets
a new server for it. :meth:`ProviderSession.close` stops everything, also after failures.
"""

from __future__ import annotations

import contextlib
import re
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

from .._redact import Secrets
from .._terraform import cli_config_text, default_platform
from .._terraform.providers import (
    DEFAULT_STOP_TIMEOUT,
    REATTACH_ENV,
    SERVICER_HOOK,
    ExternalProviders,
    ProviderDiagnostic,
    ProviderEntry,
    ProviderServer,
    ProviderServerError,
    ProviderSet,
    ReattachConfig,
    ReattachProvider,
    Sentinel,
    load_grpc,
    provider_type,
    reattach_json,
    short_temp_dir,
    tell_plan,
)
from .._text import exception_text
from ._case import TestStep
from ._errors import TestDefinitionError

__all__ = ["CLI_CONFIG_ENV", "ProviderSession", "required_providers"]

CLI_CONFIG_ENV: Final = "TF_CLI_CONFIG_FILE"
#: A provider object served in this process with this method learns the case's secrets as they are found
#: (``provider.plancheck_secrets(secrets)``), so what it shows itself (a mock's recorded calls) is scrubbed too.
SECRETS_HOOK: Final = "plancheck_secrets"
_TERRAFORM_BLOCK: Final = re.compile(r"^[ \t]*terraform[ \t]*\{", re.MULTILINE)


@dataclass
class _Running:
    entry: ProviderEntry
    config: ReattachConfig
    pid: int
    stop: Callable[[], list[str]]
    server: ProviderServer | None = None
    sentinel: Sentinel | None = None
    learn: Callable[[Secrets], object] | None = None


def required_providers(providers: ProviderSet) -> dict[str, dict[str, str]]:
    """The ``required_providers`` entries for these providers, by local name (the type).

    >>> from plancheck._terraform.providers import normalize_providers
    >>> required_providers(normalize_providers({"example.com/acme/widget": dict}, "p"))
    {'widget': {'source': 'example.com/acme/widget'}}
    """
    blocks: dict[str, dict[str, str]] = {}
    for entry in providers:
        name = provider_type(entry.address)
        if name in blocks:
            raise TestDefinitionError(
                "providers",
                f"{blocks[name]['source']} and {entry.address} share the local name {name!r}; "
                "write the terraform { required_providers { ... } } block yourself",
            )
        blocks[name] = {"source": entry.address}
        if entry.version:
            blocks[name]["version"] = entry.version
    return blocks


def _hcl_block(blocks: Mapping[str, Mapping[str, str]]) -> str:
    lines = ["terraform {", "  required_providers {"]
    for name, fields in blocks.items():
        inner = ", ".join(f'{key} = "{value}"' for key, value in fields.items())
        lines.append(f"    {name} = {{ {inner} }}")
    lines.extend(["  }", "}", ""])
    return "\n".join(lines)


class ProviderSession:
    """The providers of one test case (internal to the runner).

    >>> session = ProviderSession(platform="linux_amd64")
    >>> session.use(None)
    False
    >>> env = {"TF_REATTACH_PROVIDERS": "{}"}
    >>> session.apply_environment(env)
    >>> env
    {'TF_REATTACH_PROVIDERS': '{}'}
    >>> session.close()
    """

    def __init__(
        self,
        *,
        platform: str,
        stop_timeout: float = DEFAULT_STOP_TIMEOUT,
        log: Callable[[str], None] | None = None,
    ) -> None:
        self._platform = platform or default_platform()
        self._stop_timeout = stop_timeout
        self._log = log or (lambda _text: None)
        self._directory: Path | None = None
        self._running: dict[str, _Running] = {}
        self._external: dict[str, ProviderEntry] = {}
        self._cli_config: Path | None = None
        self._cli_configs = 0
        self._current: ProviderSet | None = None
        self._closed = False
        # The diagnostics of servers already stopped (a step that named another factory for an address).
        self._past_diagnostics: list[ProviderDiagnostic] = []
        self._secrets = Secrets()

    @property
    def directory(self) -> Path | None:
        """The case's private directory (sockets, CLI configuration, mirror), once one is needed."""
        return self._directory

    @property
    def servers(self) -> dict[str, ProviderServer]:
        """The in-process servers running now, by address."""
        return {a: r.server for a, r in self._running.items() if r.server is not None}

    def add_secrets(self, found: Secrets) -> None:
        """The case found secrets: every provider served here that asks for them (``plancheck_secrets``) learns them,
        and so does each one started later."""
        self._secrets = self._secrets | found
        for running in self._running.values():
            if running.learn is not None:
                running.learn(found)

    def _dir(self) -> Path:
        if self._directory is None:
            self._directory = short_temp_dir()
        return self._directory

    # -- starting -------------------------------------------------------------------------------

    def use(self, step: ProviderSet | None, case: ProviderSet | None = None) -> bool:
        """Make ``step`` (else ``case``, else what ran before) available; True when ``init`` must run again.

        Raises :class:`ProviderServerError` (a provider that cannot be started, a server that
        stopped serving, an external provider that is not where it was said to be), or
        :class:`ProvidersNotInstalledError` when a ``tf`` provider is to be served without the extra.
        """
        if self._closed:
            raise ProviderServerError("(all)", "the case's providers have been stopped")
        wanted = step if step is not None else case
        if wanted is None or wanted is self._current:
            self.check()
            return False
        for entry in wanted:
            if entry.kind == "external":
                continue
            running = self._running.get(entry.address)
            if running is not None and running.entry == entry:
                continue
            if running is not None:
                self._stop_one(entry.address)
            self._running[entry.address] = self._start(entry)
        self._current = wanted
        self.check()
        external = {e.address: e for e in wanted if e.kind == "external"}
        if external and external != self._external:
            self._external = external
            try:
                self._write_cli_config()
            except TestDefinitionError as exc:
                raise ProviderServerError(", ".join(sorted(external)), str(exc)) from None
            return True
        return False

    def _start(self, entry: ProviderEntry) -> _Running:
        if entry.kind == "factory":
            return self._start_factory(entry)
        return self._start_reattach(entry)

    def _start_factory(self, entry: ProviderEntry) -> _Running:
        load_grpc()  # a missing extra is the first thing to say, before any provider code runs
        try:
            provider = entry.source()
        except Exception as exc:
            raise ProviderServerError(entry.address, f"the factory raised {exception_text(exc)}") from exc
        needed = ("get_provider_schema", "get_resources", "get_model_prefix")
        serves_itself = callable(getattr(provider, SERVICER_HOOK, None))
        missing = [] if serves_itself else [m for m in needed if not callable(getattr(provider, m, None))]
        if missing:
            raise ProviderServerError(
                entry.address,
                f"the factory returned a {type(provider).__name__}, not a tf provider (no {', '.join(missing)})",
            )
        learn = getattr(provider, SECRETS_HOOK, None)
        learn = learn if callable(learn) else None
        if learn is not None and len(self._secrets):
            learn(self._secrets)
        server = ProviderServer(entry.address, provider, self._dir(), stop_timeout=self._stop_timeout)
        config = server.start()
        assert config.pid is not None
        self._log(f"[providers] serving {entry.address} in this process on {config.addr}")
        return _Running(entry, config, config.pid, server.stop, server=server, learn=learn)

    def _start_reattach(self, entry: ProviderEntry) -> _Running:
        source: ReattachProvider = entry.source
        try:
            started = source.start(self._dir())
        except Exception as exc:
            raise ProviderServerError(entry.address, f"start() raised {exception_text(exc)}") from exc
        try:
            if isinstance(started, ReattachConfig):
                config = started
            else:
                config = ReattachConfig.from_json(started, "start() returned", entry.address)
        except TestDefinitionError as exc:
            raise ProviderServerError(entry.address, f"{exc} (stop() was not called: nothing says how)") from None
        try:
            sentinel = Sentinel.start() if config.pid is None else None
        except OSError as exc:
            if source.stop is not None:
                with contextlib.suppress(Exception):
                    source.stop(config)
            raise ProviderServerError(entry.address, f"cannot start the sentinel process: {exc}") from None
        pid = sentinel.pid if sentinel is not None else config.pid
        assert pid is not None

        def stop() -> list[str]:
            problems: list[str] = []
            try:
                if source.stop is not None:
                    source.stop(config)
            except Exception as exc:
                problems.append(f"stop() raised {exception_text(exc)}")
            finally:
                if sentinel is not None:
                    sentinel.stop(self._stop_timeout)
            return problems

        self._log(f"[providers] reattaching {entry.address} at {config.addr}")
        return _Running(entry, config, pid, stop, sentinel=sentinel)

    def _write_cli_config(self) -> None:
        mirror_sources: dict[Path, list[str]] = {}
        overrides: dict[str, Path] = {}
        for entry in self._external.values():
            external: ExternalProviders = entry.source
            if external.mirror is not None:
                external.resolve(self._platform)
                mirror_sources.setdefault(external.mirror, []).append(entry.address)
            else:
                for address, binary in external.resolve(self._platform):
                    if address == entry.address:
                        overrides[address] = binary
        if overrides:
            private = self._dir() / "mirror"
            for address, binary in overrides.items():
                target = private / address / self._external[address].version / self._platform
                target.mkdir(parents=True, exist_ok=True)
                link = target / f"terraform-provider-{provider_type(address)}_v{self._external[address].version}"
                if link.is_symlink() or link.exists():
                    link.unlink()
                link.symlink_to(binary.resolve())
            mirror_sources.setdefault(private, []).extend(overrides)
        self._cli_configs += 1
        path = self._dir() / f"terraform-{self._cli_configs}.tfrc"
        path.write_text(_cli_config(mirror_sources, overrides), encoding="utf-8")
        self._cli_config = path
        self._log(f"[providers] CLI configuration {path} for {', '.join(sorted(self._external))}")

    # -- using ----------------------------------------------------------------------------------

    @property
    def served(self) -> list[object]:
        """The provider objects served in this process now (what :func:`plancheck._terraform.providers.settled_plan` hands plans to)."""
        return [server.provider for server in self.servers.values()]

    def tell_plan(self, document: Mapping[str, Any]) -> bool:
        """Hand a plan to every in-process provider that asks for it (``plancheck_plan``): the protocol never tells a
        provider a resource's address, and a mock's per-address defaults need it. True: one asks to plan again."""
        return tell_plan(self.served, document)

    def apply_environment(self, env: dict[str, str]) -> None:
        """Point ``env`` at the running servers and, with external providers, at the case's CLI configuration."""
        if self._running:
            env[REATTACH_ENV] = reattach_json({a: (r.config, r.pid) for a, r in self._running.items()})
        if self._cli_config is not None:
            env[CLI_CONFIG_ENV] = str(self._cli_config)

    def complete(self, step: TestStep) -> TestStep:
        """``step`` with a ``required_providers`` block (at the end) for the providers in use, if its ``config`` has no ``terraform`` block.

        That is what Go's harness does; without it a resource type ``widget_thing`` would mean
        ``registry.terraform.io/hashicorp/widget`` and ``init`` would look for it on the network.
        """
        if self._current is None or step.config is None or callable(step.config):
            return step
        if isinstance(step.config, str):
            if _TERRAFORM_BLOCK.search(step.config):
                return step
            # Appended, not prepended: the line numbers in Terraform's messages stay those of the test's config.
            separator = "" if step.config.endswith("\n") or not step.config else "\n"
            return replace(step, config=step.config + separator + _hcl_block(required_providers(self._current)))
        if "terraform" in step.config:
            return step
        config: dict[str, Any] = {"terraform": {"required_providers": required_providers(self._current)}, **step.config}
        return replace(step, config=config)

    def check(self) -> None:
        """Raise :class:`ProviderServerError` when a server this case started is no longer serving."""
        for running in self._running.values():
            if running.server is not None:
                running.server.check()

    def provider_errors(self) -> list[str]:
        """One line per exception the in-process providers raised so far."""
        return [
            f"{address}: {error.summary}"
            for address, running in sorted(self._running.items())
            if running.server is not None
            for error in running.server.errors
        ]

    def provider_diagnostics(self) -> list[ProviderDiagnostic]:
        """The diagnostics the in-process providers of this case returned so far, with their attribute paths."""
        found = list(self._past_diagnostics)
        for _address, running in sorted(self._running.items()):
            if running.server is not None:
                found.extend(running.server.diagnostics)
        return found

    # -- stopping -------------------------------------------------------------------------------

    def _stop_one(self, address: str) -> list[str]:
        running = self._running.pop(address)
        if running.server is not None:
            self._past_diagnostics.extend(running.server.diagnostics)
        return [f"{address}: {problem}" for problem in running.stop()]

    def close(self, *, after_failure: bool = False) -> None:
        """Stop every server and remove the case's private directory.

        Raises :class:`ProviderServerError` if something could not be stopped or removed, unless
        the case already failed: then the problems are only logged, so the failure stays the error.
        """
        if self._closed:
            return
        self._closed = True
        problems: list[str] = []
        for address in sorted(self._running):
            try:
                problems.extend(self._stop_one(address))
            except Exception as exc:  # one provider's failure must not leave the others running
                problems.append(f"{address}: stopping failed: {exception_text(exc)}")
        if self._directory is not None:
            shutil.rmtree(self._directory, ignore_errors=True)
            if self._directory.exists():
                problems.append(f"cannot remove {self._directory}")
        if problems and after_failure:
            self._log("[providers] " + "; ".join(problems))
        elif problems:
            raise ProviderServerError("(case)", "; ".join(problems))


def _cli_config(mirrors: Mapping[Path, list[str]], overrides: Mapping[str, Path]) -> str:
    """A CLI configuration: ``dev_overrides``, then one ``filesystem_mirror`` per mirror, then ``direct``."""
    lines = ["provider_installation {"]
    if overrides:
        lines.append("  dev_overrides {")
        lines.extend(f"    {_quote(a)} = {_quote(str(p.parent))}" for a, p in sorted(overrides.items()))
        lines.append("  }")
    for mirror, sources in mirrors.items():
        # cli_config_text gives one filesystem_mirror and one direct block; take the mirror part only.
        text = cli_config_text(mirror, sorted(sources))
        block = text.split("  direct {")[0].split("provider_installation {\n", 1)[1]
        lines.append(block.rstrip("\n"))
    every = sorted({s for sources in mirrors.values() for s in sources})
    lines.append("  direct {")
    lines.append(f"    exclude = [{', '.join(_quote(s) for s in every)}]")
    lines.extend(["  }", "}", ""])
    return "\n".join(lines)


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("${", "$${").replace("%{", "%%{") + '"'
