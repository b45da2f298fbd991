"""Plan files as the front ends are given them: JSON, or a binary plan (``terraform plan -out``) that
``terraform show -json`` turns into JSON first.

One detection and one conversion, shared by the command line and the pytest plugin's ``--tf-plan``
(and ``tf_plan`` marker and ini key), so a binary plan reads the same way in both. The front end reads
the file's bytes and hands them here; what comes back is JSON bytes, which the front end parses with
the library's loader like any JSON plan (each hop once, in layer order: nothing here reads a file
the front end read, or calls back into the loader).

The conversion runs ``terraform show -no-color -json FILE`` where the plan's providers are: the
directory holding the configuration that made the plan (``show`` reads the providers' schemas from
its ``.terraform``), which is the plan file's directory unless the caller names another (``--chdir
DIR`` as Terraform spells it, ``chdir=``); the same rule for the command line, the plugin and
:func:`load_plan_file`. When ``show`` cannot load the providers there, the error names the directory
tried and says to run ``terraform init`` there or name another. It runs non-interactively, with the user's environment minus ``TF_CLI_ARGS`` (which could change the output),
and with an empty CLI configuration when ``TF_CLI_CONFIG_FILE`` names a file that does not exist.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from .._errors import PlanFormatError
from .._frozen import public
from .._loading.lifecycle import ending_on_signals
from .._loading.source import InputTooLarge, is_saved_plan
from .binary import TerraformNotFoundError, inspect_binary, run_command, without_cli_args
from .lifecycle import watched_directory
from .locate import locate_terraform

if TYPE_CHECKING:
    from .._documents.plan import Plan

__all__ = ["SHOW_TIMEOUT", "BinaryPlanError", "binary_plan_json", "load_plan_file", "plan_json", "read_plan_file",
           "show_directory"]

#: How long ``terraform show -json`` may take, in seconds.
SHOW_TIMEOUT: Final = 300.0
_NEEDS: Final = "terraform or tofu on PATH (or --terraform PATH, or $TF_ACC_TERRAFORM_PATH)"
#: What Terraform (0.13 to 1.11) and OpenTofu print when ``show`` cannot start the plan's providers where it runs.
_NO_PROVIDERS: Final = ("to obtain schema", "Could not load plugin", "Failed to load plugin schemas")


class BinaryPlanError(PlanFormatError):
    """A binary plan file that could not be turned into JSON: ``source`` is the file, ``found`` why
    (``None``: no terraform or tofu was found; else an unusable binary, or ``show`` failing, in its words).

    >>> str(BinaryPlanError("$", _NEEDS, source="tfplan"))
    'tfplan is a binary plan; reading it needs terraform or tofu on PATH (or --terraform PATH, or $TF_ACC_TERRAFORM_PATH)'
    >>> str(BinaryPlanError("$", _NEEDS, found="terraform show -no-color -json tfplan failed:\\nboom", source="tfplan"))
    'tfplan is a binary plan; terraform show -no-color -json tfplan failed:\\nboom'
    """

    def _render(self) -> str:
        if self.found is None:
            return f"{self.source} is a binary plan; reading it needs {self.expected}"
        return f"{self.source} is a binary plan; {self.found}"


def _environment(environ: Mapping[str, str], empty_config: str) -> dict[str, str]:
    env = without_cli_args(environ)
    env["TF_IN_AUTOMATION"] = "1"
    env["TF_INPUT"] = "0"
    env["CHECKPOINT_DISABLE"] = "1"
    configured = env.get("TF_CLI_CONFIG_FILE")
    if configured is not None and not os.path.isfile(configured):
        # What Terraform reads for a missing file anyway, without the warning it would print.
        env["TF_CLI_CONFIG_FILE"] = empty_config
    return env


def show_directory(name: str, chdir: str | os.PathLike[str] | None = None) -> str:
    """Where ``terraform show`` runs for plan file ``name``: ``chdir`` when given, else the file's directory
    (the current one for ``-``, standard input), as an absolute path.

    >>> import os
    >>> show_directory("work/tfplan") == os.path.abspath("work")
    True
    >>> show_directory("work/tfplan", chdir="/srv/infra")
    '/srv/infra'
    >>> show_directory("-") == os.getcwd()
    True
    """
    if chdir is not None:
        return os.path.abspath(os.fspath(chdir))
    return os.getcwd() if name == "-" else os.path.dirname(os.path.abspath(name))


def _failed(command_line: str, detail: str, cwd: str, hint: str | None, data_dir: str | None = None) -> str:
    if not any(marker in detail for marker in _NO_PROVIDERS):
        return f"{command_line} failed:\n{detail}"
    other = "" if hint is None else f", or pass {hint} naming the directory of the configuration that made the plan"
    # The user's TF_DATA_DIR is kept, so show looked for the providers there (a relative one from cwd), not in
    # cwd's .terraform: an init that helps is one run with it, and the directory it names is where to look.
    where = cwd if not data_dir else f"{cwd} (TF_DATA_DIR: {os.path.join(cwd, data_dir)})"
    init = "`terraform init` there" if not data_dir else "`terraform init` there with the same TF_DATA_DIR"
    return (f"terraform show could not load the plan's providers in {where}: run {init}{other}\n"
            f"{command_line} failed:\n{detail}")


def _show(path: str, shown_as: str, terraform: str | None, environ: Mapping[str, str], cwd: str,
          hint: str | None) -> bytes:
    located = locate_terraform(terraform, environ)
    if located is None:
        raise BinaryPlanError("$", _NEEDS, source=shown_as)
    try:
        binary = inspect_binary(located[0])
    except TerraformNotFoundError as exc:
        raise BinaryPlanError("$", _NEEDS, found=str(exc), source=shown_as) from None
    if not os.path.isdir(cwd):
        found = f"terraform show cannot run in {cwd}: {'not a directory' if os.path.exists(cwd) else 'no such directory'}"
        raise BinaryPlanError("$", _NEEDS, found=found, source=shown_as)
    with watched_directory("tfplancheck-show-") as tmp:
        empty_config = os.path.join(tmp, "empty.tfrc")
        with open(empty_config, "w", encoding="utf-8"):
            pass
        result = run_command(
            [binary.path, "show", "-no-color", "-json", os.path.abspath(path)],
            cwd=cwd,
            env=_environment(environ, empty_config),
            timeout=SHOW_TIMEOUT,
        )
    if not result.ok:
        detail = result.stderr.strip() or result.stdout.strip() or f"exit status {result.returncode}"
        found = _failed(result.command_line, detail, cwd, hint, environ.get("TF_DATA_DIR"))
        raise BinaryPlanError("$", _NEEDS, found=found, source=shown_as)
    return result.stdout.encode("utf-8")


def binary_plan_json(
    name: str,
    data: bytes,
    *,
    terraform: str | None = None,
    environ: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    hint: str | None = None,
) -> bytes:
    """The JSON ``terraform show -json`` prints for binary plan ``name`` (``-``: ``data``, written to a file for it).

    ``terraform`` is an explicit binary (else ``$TF_ACC_TERRAFORM_PATH``, ``terraform``, ``tofu`` on PATH);
    ``cwd`` the directory of the configuration (default: :func:`show_directory`'s, the plan file's). Raises
    :class:`BinaryPlanError`; when the providers cannot be loaded there, its message names ``cwd``, says to run
    ``terraform init`` there, and, given a ``hint`` (how the caller names another directory: ``"--chdir DIR"``),
    to pass it.

    >>> binary_plan_json("tfplan", b"PK\\x03\\x04", environ={"PATH": ""})
    Traceback (most recent call last):
    ...
    plancheck._terraform.planfile.BinaryPlanError: tfplan is a binary plan; reading it needs terraform or tofu on PATH (or --terraform PATH, or $TF_ACC_TERRAFORM_PATH)
    """
    env = os.environ if environ is None else environ
    where = show_directory(name, cwd)
    # The temporary directories are removed before a SIGTERM or SIGHUP that ended the show ends the process.
    with ending_on_signals():
        if name != "-":
            return _show(name, name, terraform, env, where, hint)
        with watched_directory("tfplancheck-") as tmp:
            path = os.path.join(tmp, "stdin.tfplan")
            with open(path, "wb") as f:
                f.write(data)
            return _show(path, path, terraform, env, where, hint)


def plan_json(
    name: str,
    data: bytes,
    *,
    limit: int,
    terraform: str | None = None,
    environ: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    hint: str | None = None,
) -> bytes:
    """The JSON ``terraform show -json`` prints for binary plan file ``name``, whose bytes ``data`` a front end read
    (see :func:`binary_plan_json`), held to the same ``limit`` as a JSON file.

    A front end tells a binary plan from JSON by its first bytes (a saved plan is a zip archive:
    :func:`~plancheck._loading.source.is_saved_plan`), and brings only a binary plan here: a JSON plan is read as it is.

    Raises :class:`BinaryPlanError` when a binary plan cannot be shown, and
    :class:`~plancheck._loading.source.InputTooLarge` when its JSON is longer than ``limit``: each front end
    says so in its own words, as it does for a file too large to read.

    >>> plan_json("tfplan", b"PK\\x03\\x04...", limit=1024, environ={"PATH": ""})
    Traceback (most recent call last):
    ...
    plancheck._terraform.planfile.BinaryPlanError: tfplan is a binary plan; reading it needs terraform or tofu on PATH (or --terraform PATH, or $TF_ACC_TERRAFORM_PATH)
    """
    shown = binary_plan_json(name, data, terraform=terraform, environ=environ, cwd=cwd, hint=hint)
    if len(shown) > limit:
        raise InputTooLarge(limit)
    return shown


@public("plancheck")
def load_plan_file(
    path: str | os.PathLike[str],
    terraform: str | os.PathLike[str] | None = None,
    chdir: str | os.PathLike[str] | None = None,
    *,
    allow_errored: bool = False,
) -> Plan:
    """Load a plan file: a JSON plan, or a binary plan (``terraform plan -out``) shown as JSON by
    ``terraform show -json`` where the plan's providers are.

    ``show`` runs in ``chdir``, the directory of the configuration that made the plan (``terraform
    -chdir=DIR``), by default the plan file's directory, whatever the current one is: the rule of the
    command line (``--chdir DIR``) and of the pytest plugin's ``--tf-plan``. ``terraform`` is the binary
    (default: ``$TF_ACC_TERRAFORM_PATH``, else ``terraform``, else ``tofu`` on PATH). The file, and the JSON
    shown for it, are held to the loader's limit (``PLANCHECK_MAX_BYTES``, else 2 GiB). A plan Terraform
    wrote although planning failed is refused (:class:`~plancheck.ErroredPlanError`) unless ``allow_errored``.

    Raises :class:`~plancheck.PlanFormatError` for a bad plan, and for a binary plan that cannot be shown:
    no terraform found, or ``show`` failing, in its words; when it cannot load the providers, the message
    names the directory tried and says to run ``terraform init`` there or pass ``chdir``.

    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = pathlib.Path(d, "plan.json").write_text('{"format_version": "1.2", "resource_changes": []}')
    ...     load_plan_file(pathlib.Path(d, "plan.json")).format_version
    '1.2'
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = pathlib.Path(d, "tfplan").write_bytes(b"PK\\x03\\x04 a saved plan")
    ...     load_plan_file(pathlib.Path(d, "tfplan"), terraform=pathlib.Path(d, "no-such-terraform"))
    Traceback (most recent call last):
    ...
    plancheck._terraform.planfile.BinaryPlanError: /.../tfplan is a binary plan; ...no-such-terraform...
    """
    return read_plan_file(path, terraform, chdir, allow_errored=allow_errored, hint="chdir=")


def read_plan_file(
    path: str | os.PathLike[str],
    terraform: str | os.PathLike[str] | None = None,
    chdir: str | os.PathLike[str] | None = None,
    *,
    allow_errored: bool = False,
    hint: str | None = None,
) -> Plan:
    """:func:`load_plan_file` for a front end that names another directory its own way (``hint``, as in
    :func:`binary_plan_json`; ``None``: it cannot, and the message says only to run ``terraform init``).

    >>> read_plan_file(b"{}")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: load_plan_file expects a path (str or PathLike), got bytes
    """
    from .._documents.plan import Plan
    from .._loading.source import fs_path, max_input_bytes, read_bytes

    name = fs_path(path, "load_plan_file")
    limit = max_input_bytes()
    data, source = read_bytes(name, PlanFormatError, "plan", "load_plan_file", limit)
    if isinstance(data, bytes) and is_saved_plan(data):  # a path is read as bytes; a binary plan is shown as JSON
        try:
            data = plan_json(name, data, limit=limit, terraform=None if terraform is None else os.fspath(terraform),
                             cwd=chdir, hint=hint)
        except InputTooLarge as too_large:
            raise PlanFormatError("$", too_large.expected("plan"), found=too_large.found, source=source) from None
    return Plan._from_bytes([data], source, allow_errored=allow_errored)
