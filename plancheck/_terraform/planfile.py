"""Plan files as the front ends are given them: JSON, or a binary plan (``terraform plan -out``) that
``terraform show -json`` turns into JSON first.

One detection and one conversion, shared by the command line and the pytest plugin's ``--tf-plan``
(and ``tf_plan`` marker and ini key), so a binary plan reads the same way in both. The front end reads
the file's bytes and hands them here; what comes back is JSON bytes, which the front end parses with
the library's loader like any JSON plan (each hop once, in layer order: nothing here reads a file
the front end read, or calls back into the loader).

The conversion runs ``terraform show -no-color -json FILE`` in a given directory (the one holding
the configuration that made the plan: ``show`` reads the providers' schemas from its ``.terraform``),
non-interactively, with the user's environment minus ``TF_CLI_ARGS`` (which could change the output),
and with an empty CLI configuration when ``TF_CLI_CONFIG_FILE`` names a file that does not exist.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from typing import Final

from .._errors import PlanFormatError
from .._loading.source import InputTooLarge
from . import TerraformNotFoundError, inspect_binary, locate_terraform, run_command
from .lifecycle import ending_on_signals

__all__ = ["SHOW_TIMEOUT", "BinaryPlanError", "binary_plan_json", "plan_json"]

_ZIP_MAGIC: Final = b"PK\x03\x04"
#: How long ``terraform show -json`` may take, in seconds.
SHOW_TIMEOUT: Final = 300.0
_NEEDS: Final = "terraform or tofu on PATH (or --terraform PATH, or $TF_ACC_TERRAFORM_PATH)"
#: Variables that would change what ``show`` prints, or make it wait for input.
_DROPPED: Final = ("TF_CLI_ARGS", "TF_CLI_ARGS_show")


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
    env = {key: value for key, value in environ.items() if key not in _DROPPED}
    env["TF_IN_AUTOMATION"] = "1"
    env["TF_INPUT"] = "0"
    env["CHECKPOINT_DISABLE"] = "1"
    configured = env.get("TF_CLI_CONFIG_FILE")
    if configured is not None and not os.path.isfile(configured):
        # What Terraform reads for a missing file anyway, without the warning it would print.
        env["TF_CLI_CONFIG_FILE"] = empty_config
    return env


def _show(path: str, shown_as: str, terraform: str | None, environ: Mapping[str, str], cwd: str) -> bytes:
    located = locate_terraform(terraform, environ)
    if located is None:
        raise BinaryPlanError("$", _NEEDS, source=shown_as)
    try:
        binary = inspect_binary(located[0])
    except TerraformNotFoundError as exc:
        raise BinaryPlanError("$", _NEEDS, found=str(exc), source=shown_as) from None
    with tempfile.TemporaryDirectory(prefix="tfplancheck-show-") as tmp:
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
        raise BinaryPlanError("$", _NEEDS, found=f"{result.command_line} failed:\n{detail}", source=shown_as)
    return result.stdout.encode("utf-8")


def binary_plan_json(
    name: str,
    data: bytes,
    *,
    terraform: str | None = None,
    environ: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
) -> bytes:
    """The JSON ``terraform show -json`` prints for binary plan ``name`` (``-``: ``data``, written to a file for it).

    ``terraform`` is an explicit binary (else ``$TF_ACC_TERRAFORM_PATH``, ``terraform``, ``tofu`` on PATH);
    ``cwd`` the directory of the configuration (default: the current one). Raises :class:`BinaryPlanError`.

    >>> binary_plan_json("tfplan", b"PK\\x03\\x04", environ={"PATH": ""})
    Traceback (most recent call last):
    ...
    plancheck._terraform.planfile.BinaryPlanError: tfplan is a binary plan; reading it needs terraform or tofu on PATH (or --terraform PATH, or $TF_ACC_TERRAFORM_PATH)
    """
    env = os.environ if environ is None else environ
    where = os.getcwd() if cwd is None else os.fspath(cwd)
    # The temporary directories are removed before a SIGTERM or SIGHUP that ended the show ends the process.
    with ending_on_signals():
        if name != "-":
            return _show(name, name, terraform, env, where)
        with tempfile.TemporaryDirectory(prefix="tfplancheck-") as tmp:
            path = os.path.join(tmp, "stdin.tfplan")
            with open(path, "wb") as f:
                f.write(data)
            return _show(path, path, terraform, env, where)


def plan_json(
    name: str,
    data: bytes,
    *,
    limit: int,
    terraform: str | None = None,
    environ: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
) -> bytes:
    """The JSON of plan file ``name`` whose bytes a front end read: ``data`` itself, or for a binary plan the JSON
    ``terraform show -json`` prints for it (see :func:`binary_plan_json`), held to the same ``limit`` as a JSON file.

    Raises :class:`BinaryPlanError` when a binary plan cannot be shown, and
    :class:`~plancheck._loading.source.InputTooLarge` when its JSON is longer than ``limit``: each front end
    says so in its own words, as it does for a file too large to read.

    A binary plan is told from JSON by its first bytes: a saved plan is a zip archive.

    >>> plan_json("plan.json", b'{"format_version": "1.2"}', limit=1024)
    b'{"format_version": "1.2"}'
    >>> plan_json("tfplan", b"PK\\x03\\x04...", limit=1024, environ={"PATH": ""})
    Traceback (most recent call last):
    ...
    plancheck._terraform.planfile.BinaryPlanError: tfplan is a binary plan; reading it needs terraform or tofu on PATH (or --terraform PATH, or $TF_ACC_TERRAFORM_PATH)
    """
    if not data.startswith(_ZIP_MAGIC):
        return data
    shown = binary_plan_json(name, data, terraform=terraform, environ=environ, cwd=cwd)
    if len(shown) > limit:
        raise InputTooLarge(limit)
    return shown
