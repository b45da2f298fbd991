"""Where a case runs: the runner's settings, the working directory's files, the providers served for it.

:class:`RunSettings` is what a runner hands each case it runs: one frozen value, so a case reads its
settings and cannot change them.

:class:`WorkingDirectory` holds the files of one test case: each step's configuration and variables.
State, the lock file and ``.terraform`` stay put between steps; the files a step wrote are removed
before the next step writes its own, so steps never see each other's configuration.

:class:`ProviderSession` serves the providers of one running case: the runner makes one per case.
Before each step it calls :meth:`ProviderSession.use` with the step's providers (a step's own, else
the case's); servers are started the first time they are needed and kept until the case ends, so a
provider keeps its in-memory state from step to step and the post-test ``destroy`` still finds every
provider that created something. A step that names a *different* factory for an address gets a new
server for it. :meth:`ProviderSession.close` stops everything, also after failures.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import secrets
import shutil
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import KW_ONLY, dataclass, field, replace
from decimal import Decimal
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from tfjsonpath._jsontypes import number_text

from .._documents.met import WATCHERS, planned_in
from .._frozen import FrozenValue, frozen
from .._loading.lifecycle import release
from .._loading.source import make_directories, why_unopened
from .._redact import Secrets
from .._terraform.binary import (
    CommandResult,
    TerraformBinary,
    cli_config_text,
    default_platform,
    run_command,
    terraform_environment,
)
from .._terraform.providers.factory import (
    REATTACH_ENV,
    ExternalProviders,
    ProviderEntry,
    ProviderSet,
    ReattachConfig,
    ReattachProvider,
    provider_type,
    reattach_json,
)
from .._terraform.providers.planning import tell_plan
from .._terraform.providers.server import (
    DEFAULT_STOP_TIMEOUT,
    SERVICER_HOOK,
    ProviderServer,
    ProviderServerError,
    Sentinel,
    load_grpc,
    short_temp_dir,
)
from .._terraform.providers.wire import ProviderDiagnostic
from .._text import exception_text
from ._case import TestStep, unwrap_sensitive
from ._errors import Stage, TestDefinitionError, _StepFailure, require_utf8
from ._statefiles import default_leftovers_dir
from .config import TestStepConfigRequest

__all__ = [
    "CLI_CONFIG_ENV",
    "DEFAULT_TIMEOUT",
    "HCL_FILE",
    "JSON_FILE",
    "Place",
    "ProviderSession",
    "RunSettings",
    "TFVARS_FILE",
    "WorkingDirectory",
    "required_providers",
    "resolve_step",
]


#: Seconds each command may take, unless the runner is given another timeout.
DEFAULT_TIMEOUT: Final = 600.0


@frozen
class RunSettings(FrozenValue):
    """An :class:`~plancheck.acceptance.AcceptanceRunner`'s settings, as each case it runs sees them.

    ``record`` and ``share_secrets`` are where a case reports to: the runner's list of (redacted)
    commands and the caller's secret sink; everything else is read only.

    >>> settings = RunSettings(TerraformBinary("/usr/bin/terraform", "1.11.4"), Path("/tmp/acc"), env={"TF_LOG": "x"})
    >>> settings.env["TF_LOG"], settings.timeout, settings.base_dir(Path("/here"))
    ('x', 600.0, PosixPath('/here'))
    >>> settings.leftovers_root(Path("/here")) == default_leftovers_dir(Path("/here"))
    True
    >>> RunSettings(TerraformBinary("terraform", "1.11.4"), Path("/w"), env={"TF_VAR_pw": "hunter2"}, echo=False)
    RunSettings(TerraformBinary('terraform', '1.11.4', 'terraform', ''), PosixPath('/w'), timeout=600.0, echo=False)
    """

    terraform: TerraformBinary
    work_dir: Path
    _: KW_ONLY
    cli_config: Path | None = None
    #: Left out of the repr: it holds the case's TF_VAR_* values and cloud credentials.
    env: Mapping[str, str] = field(default_factory=dict, repr=False)
    timeout: float = DEFAULT_TIMEOUT
    echo: bool = True
    #: Told, redacted, of each step and command as it starts and ends (the plugin's ``-v`` lines); None: nobody.
    progress: Callable[[str], None] | None = field(default=None, repr=False)
    share_secrets: Callable[[Secrets], None] | None = field(default=None, repr=False)
    record: Callable[[Iterable[CommandResult]], None] = field(default=lambda _results: None, repr=False)
    test_name: str | None = None
    base_dir_arg: Path | None = None
    leftovers_dir: Path | None = None

    def __post_init__(self) -> None:
        # A copy nobody can change, whatever the caller does with the mapping it passed.
        object.__setattr__(self, "env", MappingProxyType(dict(self.env)))

    def base_dir(self, cwd: Path | None = None) -> Path:
        """What relative configuration paths are relative to: ``base_dir``, else the current directory."""
        if self.base_dir_arg is not None:
            return self.base_dir_arg
        return cwd if cwd is not None else Path.cwd()

    def leftovers_root(self, cwd: Path | None = None) -> Path:
        """Where a case whose destroy fails keeps its state and configuration."""
        return self.leftovers_dir if self.leftovers_dir is not None else default_leftovers_dir(self.base_dir(cwd))

    def environment(self, root: Path) -> dict[str, str]:
        """The environment of the case in ``root``: the process's, the runner's ``env``, Terraform's data and CLI configuration."""
        base = {**os.environ, **self.env}
        fallback = None
        user = base.get("TF_CLI_CONFIG_FILE")
        if self.cli_config is None and user is not None and not os.path.isfile(user):
            # Beside the case directories, not in one: a configuration directory holds only the step's files.
            fallback = self.work_dir / "empty.tfrc"
            fallback.parent.mkdir(parents=True, exist_ok=True)
            fallback.write_text("", encoding="utf-8")
        return terraform_environment(
            base, data_dir=root / ".terraform", cli_config=self.cli_config, fallback_cli_config=fallback
        )

    def run(self, where: str, argv: tuple[str, ...], cwd: Path, env: Mapping[str, str],
            scrub: Callable[[str], str]) -> CommandResult:
        """Run one Terraform command, telling ``progress`` (redacted) as it starts and as it ends.

        >>> told: list[str] = []
        >>> settings = RunSettings(TerraformBinary("terraform", "1.11.4"), Path("/w"), progress=told.append)
        >>> settings.run("[step 1/1 plan]", ("/bin/true", "plan", "-var=pw=hunter2"), Path("/"), {},
        ...              lambda text: text.replace("hunter2", "(sensitive)")).returncode
        0
        >>> [line.rsplit(", ", 1)[0] for line in told]
        ['[step 1/1 plan] true plan -var=pw=(sensitive) ...', '[step 1/1 plan] true plan -var=pw=(sensitive) (exit code 0']
        """
        tell = self.progress
        if tell is not None:
            tell(f"{where} {scrub(CommandResult(argv, str(cwd), 0, '', '', 0.0).command_line)} ...")
        result = run_command(argv, cwd=cwd, env=env, timeout=self.timeout)
        if tell is not None:
            status = "timed out" if result.timed_out else f"exit code {result.returncode}"
            tell(f"{where} {scrub(result.command_line)} ({status}, {result.duration:.2f} s)")
        return result

    @contextlib.contextmanager
    def telling(self, where: str) -> Iterator[None]:
        """Tell ``progress`` that what the block does (a step) starts, and how and when it ended.

        >>> told: list[str] = []
        >>> with RunSettings(TerraformBinary("terraform", "1.11.4"), Path("/w"), progress=told.append).telling("[step 1/2]"):
        ...     pass
        >>> [line.split(" (")[0] for line in told]
        ['[step 1/2] started', '[step 1/2] passed']
        """
        tell = self.progress
        if tell is None:
            yield
            return
        tell(f"{where} started")
        started = time.monotonic()
        outcome = "failed"
        try:
            yield
            outcome = "passed"
        finally:
            tell(f"{where} {outcome} ({time.monotonic() - started:.2f} s)")


HCL_FILE: Final = "main.tf"
JSON_FILE: Final = "main.tf.json"
TFVARS_FILE: Final = "terraform.tfvars.json"
# Never copied from a config_directory: they belong to another working directory.
_NOT_COPIED: Final = frozenset({".terraform", ".terraform.lock.hcl", "terraform.tfstate", "terraform.tfstate.backup"})
PLAN_FILE: Final = "tfplan"


def _exact_json(value: Any) -> str:
    """``value`` (plain JSON values, a copy :func:`unwrap_sensitive` made: it is changed) as indented JSON, numbers exact.

    ``json.dumps`` rounds a Decimal through a float (or refuses it) and refuses an int of more digits than
    Python converts (4300); a Terraform number has neither limit. Each such number goes through
    ``json.dumps`` as a stand-in string no value can hold (a random token), then its exact text replaces it.

    >>> print(_exact_json({"n": Decimal("12345678901234567890.123"), "big": 10**30, "s": "x"}))
    {
      "n": 12345678901234567890.123,
      "big": 1000000000000000000000000000000,
      "s": "x"
    }
    """
    token = secrets.token_hex(16)
    texts: list[str] = []
    root: list[Any] = [value]
    stack: list[tuple[Any, Any]] = [(root, 0)]
    seen: set[int] = set()  # a container the copy shares (as the step's value did) is changed once
    while stack:
        container, key = stack.pop()
        current = container[key]
        if isinstance(current, (dict, list)) and id(current) in seen:
            continue
        if isinstance(current, dict):
            seen.add(id(current))
            stack.extend((current, k) for k in current)
        elif isinstance(current, list):
            seen.add(id(current))
            stack.extend((current, i) for i in range(len(current)))
        elif isinstance(current, Decimal) or (isinstance(current, int) and not isinstance(current, bool)):
            texts.append(number_text(current))
            container[key] = f"{token}:{len(texts) - 1}"
    text = json.dumps(root[0], ensure_ascii=False, indent=2)
    return re.sub(f'"{token}:([0-9]+)"', lambda match: texts[int(match.group(1))], text)


def _write_json_config(config: Mapping[str, object], directory: Path) -> Path:
    # Imported here: the configuration model is only needed by steps that give a dict.
    from ..tfconfig import write_config

    return write_config(dict(config), directory, filename=JSON_FILE)


class WorkingDirectory:
    """The directory a test case runs in; writes a step's files and remembers them for removal.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     wd = WorkingDirectory(Path(d, "case1"))
    ...     digest = wd.write_step(TestStep(config='output "x" { value = 1 }', variables={"v": 1}))
    ...     sorted(p.name for p in wd.root.iterdir())
    ['main.tf', 'terraform.tfvars.json']
    """

    __slots__ = ("_dirs", "_written", "root", "source")

    def copy_for_step(self, step_no: int) -> Path:
        """A copy of the working directory (without ``.terraform``) beside it, as Go's ``step_N``; its path."""
        target = self.root.parent / f"{self.root.name}_step_{step_no}"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(self.root, target, ignore=shutil.ignore_patterns(".terraform"))
        return target

    def __init__(self, root: Path) -> None:
        self.root = root
        try:
            make_directories(root)  # a file in its place is "Not a directory", never mkdir's "File exists"
        except (OSError, ValueError) as exc:  # ValueError: a name no system call takes (a NUL byte, a lone surrogate)
            reason = why_unopened(exc)
            raise TestDefinitionError("TestCase.working_dir", f"{root}: cannot make the directory: {reason}") from None
        self._written: list[Path] = []
        self._dirs: list[Path] = []
        self.source: Path | None = None

    def __repr__(self) -> str:
        return f"WorkingDirectory({str(self.root)!r})"

    def errored_plan(self, run: Any, stage: Any, place: object = None) -> None:
        """After ``run``'s plan failed, read the plan Terraform wrote all the same (1.11 writes one, ``"errored":
        true``) for test coverage: its ``checks`` say which validation or precondition failed. Only while coverage
        watches and the configuration came from a directory; a plan file older than this step's configuration is
        an earlier step's (Terraform before 1.5 writes none on failure), and one that cannot be shown or read is
        left: the step's own failure is what the case reports. A plan of another ``place`` (an import step's) is not
        this directory's."""
        from .._documents.plan import Plan
        from .._documents.sensitive import collect_plan_secrets
        from .._errors import DocumentFormatError

        plan_file = self.root / PLAN_FILE
        if not WATCHERS or place is not None or self.source is None or not plan_file.is_file():
            return
        written = [path.stat().st_mtime_ns for path in self._written if path.is_file()]
        if written and plan_file.stat().st_mtime_ns < max(written):
            return
        try:
            document = Plan.from_json(run.tf(stage, "show", "-json", PLAN_FILE).stdout, allow_errored=True)
        except (_StepFailure, DocumentFormatError):
            return
        run.add_secrets(collect_plan_secrets(document.raw))
        planned_in(document, self.source)

    def planned(self, plan: object) -> None:
        """Say that ``plan`` was made here: test coverage (``pytest --tf-cov``) reads the module's files where the
        configuration was copied from, when it was (``source``)."""
        planned_in(plan, self.source)

    def clear(self) -> None:
        """Remove every file (and directory it created) the last step wrote."""
        for path in self._written:
            if path.is_file() or path.is_symlink():
                path.unlink()
        for directory in sorted(self._dirs, key=lambda p: len(p.parts), reverse=True):
            if directory.is_dir() and not any(directory.iterdir()):
                directory.rmdir()
        self._written = []
        self._dirs = []

    def write_step(self, step: TestStep, extra: Mapping[str, str] | None = None) -> str:
        """Write ``step``'s configuration and variables; return a digest of the configuration files.

        ``step`` has its configuration source resolved (no config functions). ``extra`` maps more
        file names to their text (an ``import`` block, say). Two steps with the same digest need
        no new ``terraform init``.
        """
        self.clear()
        if callable(step.config) or callable(step.config_directory) or callable(step.config_file):
            raise TestDefinitionError("TestStep", "a config function must be resolved before writing (runner bug)")
        # Where the configuration was copied from (test coverage reads the module's files there); None for text.
        self.source = Path(step.config_directory) if step.config_directory is not None else (
            Path(step.config_file).parent if step.config_file is not None else None
        )
        if isinstance(step.config, str):
            target = self.root / HCL_FILE
            require_utf8(step.config, "TestStep.config")
            target.write_text(step.config, encoding="utf-8")
            self._written.append(target)
        elif isinstance(step.config, Mapping):
            target = _write_json_config(step.config, self.root)
            self._written.append(target)
        elif step.config_directory is not None:
            self._copy_directory(Path(step.config_directory))
        elif step.config_file is not None:
            self._copy_file(Path(step.config_file))
        for name, text in (extra or {}).items():
            target = self.root / name
            require_utf8(text, name)  # made of the step's own strings (an import block's id, say)
            target.write_text(text, encoding="utf-8")
            self._written.append(target)
        digest = self._digest()
        if step.variables:
            target = self.root / TFVARS_FILE
            if target.exists():
                raise TestDefinitionError(
                    "TestStep.variables", f"config_directory already has a {TFVARS_FILE}; give the values in one place"
                )
            values = unwrap_sensitive(dict(step.variables), "TestStep.variables")
            target.write_text(_exact_json(values), encoding="utf-8")
            self._written.append(target)
        return digest

    def _copy_file(self, source: Path) -> None:
        if not source.is_file():
            raise TestDefinitionError("TestStep.config_file", f"{source} is not a file")
        target = self.root / source.name
        shutil.copyfile(source, target)
        self._written.append(target)

    def _copy_directory(self, source: Path) -> None:
        if not source.is_dir():
            raise TestDefinitionError("TestStep.config_directory", f"{source} is not a directory")
        pending = [source]
        while pending:
            current = pending.pop()
            for entry in sorted(current.iterdir()):
                if entry.name in _NOT_COPIED or entry.name.endswith(".tfstate"):
                    continue
                target = self.root / entry.relative_to(source)
                if entry.is_dir():
                    if not target.exists():
                        target.mkdir()
                        self._dirs.append(target)
                    pending.append(entry)
                else:
                    shutil.copyfile(entry, target)
                    self._written.append(target)

    def _digest(self) -> str:
        h = hashlib.sha256()
        for path in sorted(self._written):
            h.update(str(path.relative_to(self.root)).encode())
            h.update(b"\0")
            h.update(path.read_bytes())
            h.update(b"\0")
        return h.hexdigest()


def resolve_step(step: TestStep, step_no: int, settings: RunSettings) -> TestStep | None:
    """``step`` with its config functions called and relative paths made absolute (against ``settings``'
    ``base_dir``); None without a configuration. A config function's bad answer is the step's failure.

    >>> from plancheck._terraform.binary import TerraformBinary
    >>> from plancheck.acceptance.config import TestStepDirectory
    >>> settings = RunSettings(TerraformBinary("/bin/terraform", "1.11.4"), Path("/work"), base_dir_arg=Path("/tests"),
    ...                        test_name="test_a")
    >>> resolve_step(TestStep(config_directory=TestStepDirectory()), 2, settings).config_directory
    '/tests/testdata/test_a/2'
    >>> resolve_step(TestStep(refresh_state=True), 1, settings) is None
    True
    """
    request = TestStepConfigRequest(step_number=step_no, test_name=settings.test_name or "")
    changes: dict[str, Any] = {}
    try:
        if callable(step.config):
            changes["config"] = step.config(request)
            if not isinstance(changes["config"], (str, Mapping)):
                raise TestDefinitionError(
                    "TestStep.config",
                    f"the config function returned {type(changes['config']).__name__}, expected HCL text (str) or a dict",
                )
        for name in ("config_directory", "config_file"):
            value = getattr(step, name)
            if callable(value):
                value = value(request)
                if not isinstance(value, (str, os.PathLike)) or not os.fspath(value):
                    raise TestDefinitionError(
                        f"TestStep.{name}", f"the config function returned {value!r}, expected a path"
                    )
            if value is not None:
                path = Path(value)
                changes[name] = os.fspath(path if path.is_absolute() else settings.base_dir() / path)
        if not changes and step.config is None:
            return None
        return replace(step, **changes)
    except TestDefinitionError as exc:
        raise _StepFailure(Stage.CONFIG, f"cannot write the configuration: {exc}") from None


@frozen
class Place(FrozenValue):
    """Another working directory of the case (an import step's), with its own environment.

    >>> Place(WorkingDirectory(Path("/tmp/case1_import_step_2")), {"TF_DATA_DIR": "/tmp/x"}).wd.root.name
    'case1_import_step_2'
    """

    wd: WorkingDirectory
    env: dict[str, str] = field(repr=False)  # the case's environment: TF_VAR_* values, credentials


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

    >>> from plancheck._terraform.providers.factory import normalize_providers
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
        # What the case found, part by part, for a provider started later: joined only then (a handover is made a few
        # times a step, and joining them at each built the scrub of every secret again; bench_case_secrets.py).
        self._found: list[Secrets] = []

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
        if len(found):
            self._found.append(found)
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
        if learn is not None and self._found:
            self._found = [Secrets.union(self._found)]  # joined once, for this provider and any started after it
            learn(self._found[0])
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
        """The provider objects served in this process now (what :func:`plancheck._terraform.providers.planning.settled_plan` hands plans to)."""
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
            release(self._directory, end=True)
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
