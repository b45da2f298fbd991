"""``destroy_leftovers``: destroy what cases whose destroy failed left behind (see :mod:`._leftovers`)."""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import shutil
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .._frozen import public
from .._redact import Secrets
from .._terraform import (
    ENV_TERRAFORM_PATH,
    TerraformBinary,
    TerraformNotFoundError,
    check_timeout,
    discover_terraform,
    inspect_binary,
)
from .._terraform.lifecycle import ending_on_signals
from ._case import TestCase, TestStep
from ._caserun import CaseRun
from ._errors import LeftoverRecordError, Stage, TestDefinitionError
from ._leftovers import Leftover, LeftoverResult, find_leftovers, kept_secrets, record_attempt
from ._settings import DEFAULT_TIMEOUT, RunSettings
from ._stepfailure import _StepFailure

__all__ = ["destroy_leftovers"]


def _factory_for(leftover: Leftover, address: str, name: str | None) -> tuple[Callable[[], Any] | None, str]:
    """The factory ``name`` (``module:qualname``) names, when it is the one that made ``leftover``, else why not.

    A module is imported by name only when it is the recorded file: another project's module of the same
    name (``test_widgets`` is a common one) would serve another provider, whose delete may well succeed.
    """
    needs = f"it needs the provider under test {address} served in this process: give " \
            f"destroy_leftovers(providers={{{address!r}: factory}})"
    if not name:
        return None, needs
    module_name, _, qualname = name.partition(":")
    recorded = leftover.provider_file(address)
    module = sys.modules.get(module_name)
    if module is None:
        try:
            spec = importlib.util.find_spec(module_name)
        except Exception:  # a parent package that fails to import, a name that is no module name
            spec = None
        if spec is None:
            return None, needs
        here = spec.origin
    else:
        here = getattr(module, "__file__", None)
    if recorded is not None and not (isinstance(here, str) and os.path.realpath(here) == recorded):
        return None, f"{needs} (it came from {recorded}; the module {module_name} here is {here or 'another one'})"
    if module is None:
        try:
            module = importlib.import_module(module_name)
        except Exception:
            return None, needs
    value: Any = module
    for part in qualname.split("."):
        value = getattr(value, part, None)
        if value is None:
            return None, needs
    return (value, "") if callable(value) else (None, needs)


@public("plancheck.acceptance")
def destroy_leftovers(
    root: str | os.PathLike[str] | None = None,
    *,
    terraform: TerraformBinary | str | os.PathLike[str] | None = None,
    providers: Mapping[str, Any] | None = None,
    cli_config: str | os.PathLike[str] | None = None,
    timeout: float | None = None,
    log: Callable[[str], object] = print,
    project: str | os.PathLike[str] | None = None,
) -> LeftoverResult:
    """Destroy every leftover under ``root`` (default :func:`default_leftovers_dir`); remove those destroyed.

    ``terraform`` defaults to the binary that made the leftover when it is still there, else the one
    found as the runner finds it. ``providers`` (``{address: factory}``) serves providers under test
    that cannot be imported back by name. ``cli_config`` defaults to the leftover's copy of the CLI
    configuration the case used, when it had one. A ``terraform`` that was named but cannot be used
    raises :class:`TerraformNotFoundError` before any leftover is touched; without any usable binary
    each leftover is kept, saying so. Whatever a leftover's manifest holds, it is destroyed or kept
    with the reason (recorded in its manifest), never an exception. A manifest that cannot be read
    at all (not a JSON object) is in ``unreadable`` with its :class:`LeftoverRecordError`'s message,
    and that leftover is left exactly as it is: never destroyed, removed, or written to.

    ``project`` (a directory) leaves alone the leftovers of tests outside it: another project's, in a
    leftovers directory two projects share (``$TFPLANCHECK_LEFTOVERS_DIR``); ``pytest --tf-destroy-leftovers``
    gives its rootdir.

    >>> destroy_leftovers("/no/such/directory", log=lambda line: None)
    LeftoverResult([], {}, [], {})

    A Ctrl-C, SIGTERM or SIGHUP ends the destroy under way (its commands and providers) and keeps its leftover.
    """
    # SIGTERM and SIGHUP unwind like a Ctrl-C until the commands and providers of the leftover at hand have ended.
    with ending_on_signals():
        return _destroy_all(root, terraform, providers, cli_config, timeout, log, project)


def _destroy_all(
    root: str | os.PathLike[str] | None, terraform: TerraformBinary | str | os.PathLike[str] | None,
    providers: Mapping[str, Any] | None, cli_config: str | os.PathLike[str] | None, timeout: float | None,
    log: Callable[[str], object], project: str | os.PathLike[str] | None,
) -> LeftoverResult:
    destroyed: list[str] = []
    kept: dict[str, str] = {}
    if timeout is not None:
        timeout = check_timeout(timeout)
    found = find_leftovers(root)
    # A binary that was named and cannot be used fails at once, before any leftover is touched.
    chosen = None if terraform is None or not found else (
        terraform if isinstance(terraform, TerraformBinary) else inspect_binary(terraform))
    left_alone: list[str] = []
    unreadable: dict[str, str] = {}
    for leftover in found:
        try:
            leftover.require_record()
        except LeftoverRecordError as exc:
            unreadable[str(leftover.path)] = str(exc)
            log(f"[leftovers] {exc}")
            continue
        if project is not None and not leftover.made_under(project):
            left_alone.append(str(leftover.path))
            log(f"[leftovers] left alone {leftover.path}: left by tests under {leftover.base_dir}, "
                f"not this project's ({project})")
            continue
        try:
            problem = _destroy_one(leftover, chosen, providers, cli_config, timeout, log)
        except (TestDefinitionError, TerraformNotFoundError) as exc:
            problem = str(exc)
        record_attempt(leftover, problem)
        if problem is None:
            shutil.rmtree(leftover.path, ignore_errors=True)
            destroyed.append(str(leftover.path))
            log(f"[leftovers] destroyed and removed {leftover.path}")
        else:
            kept[str(leftover.path)] = problem
            log(f"[leftovers] kept {leftover.path}: {problem}")
    return LeftoverResult(destroyed, kept, left_alone, unreadable)


def _destroy_one(
    leftover: Leftover, terraform: Any, providers: Mapping[str, Any] | None, cli_config: Any,
    timeout: float | None, log: Callable[[str], object],
) -> str | None:
    served: dict[str, Any] = {}
    for address, name in leftover.providers_in_process.items():
        factory = (providers or {}).get(address)
        if factory is None:
            factory, problem = _factory_for(leftover, address, name)
            if factory is None:
                return problem
        served[address] = factory
    binary = terraform if terraform is not None else _recorded_or_found(leftover)
    if binary is None:
        return (f"no terraform binary found: give terraform= (--terraform PATH), set ${ENV_TERRAFORM_PATH}, "
                "or put terraform or tofu on PATH")
    config = cli_config
    if config is None and (leftover.path / "cli.tfrc").is_file():
        config = leftover.path / "cli.tfrc"
    settings = RunSettings(
        binary if isinstance(binary, TerraformBinary) else inspect_binary(binary), leftover.path,
        cli_config=None if config is None else Path(config), timeout=check_timeout(timeout or DEFAULT_TIMEOUT),
        echo=False,
    )
    case = TestCase(steps=[TestStep(config="")], providers=served or None)
    run = CaseRun(settings, case, leftover.path)
    # Before any command: a provider's error may echo a value of the kept state (its delete failing again).
    run.add_secrets(Secrets(kept_secrets(leftover.path)))
    log(f"[leftovers] destroying {leftover.path} (left by {leftover.test or 'an unnamed test'})")
    try:
        run.use_providers(case.steps[0])
        run.tf(Stage.INIT, "init", "-input=false", "-no-color")
        run.tf(Stage.DESTROY, "destroy", "-auto-approve", "-input=false", "-no-color")
    except _StepFailure as failure:
        return run.secrets.scrub(f"{failure.reason}: {_last_line(failure)}")
    finally:
        run.providers.close(after_failure=True)
    return None


def _recorded_or_found(leftover: Leftover) -> TerraformBinary | None:
    """The binary that made ``leftover`` while it is there and works, else the one the runner would find."""
    recorded = leftover.manifest.get("terraform")
    path = recorded.get("path") if isinstance(recorded, dict) else None
    if isinstance(path, str) and os.path.isfile(path):
        with contextlib.suppress(TerraformNotFoundError):
            return inspect_binary(path)
    return discover_terraform()


def _last_line(failure: Any) -> str:
    result = failure.result
    text = (result.stderr or result.stdout or "").strip() if result is not None else ""
    lines = [line.strip(" │╷╵") for line in text.splitlines() if line.strip(" │╷╵")]
    return lines[0] if lines else "no output"


