"""``destroy_leftovers``: destroy what cases whose destroy failed left behind (see :mod:`._leftovers`)."""

from __future__ import annotations

import contextlib
import importlib
import os
import shutil
import sys
from collections.abc import Callable, Mapping
from typing import Any

from .._redact import Secrets
from .._terraform import (
    ENV_TERRAFORM_PATH,
    TerraformBinary,
    TerraformNotFoundError,
    check_timeout,
    discover_terraform,
    inspect_binary,
)
from ._case import TestCase, TestStep
from ._caserun import _CaseRun
from ._errors import Stage, TestDefinitionError
from ._leftovers import Leftover, LeftoverResult, find_leftovers, kept_secrets, record_attempt
from ._runner import DEFAULT_TIMEOUT, AcceptanceRunner
from ._stepfailure import _StepFailure

__all__ = ["destroy_leftovers"]


def _resolve_factory(name: str) -> Callable[[], Any] | None:
    module_name, _, qualname = name.partition(":")
    module = sys.modules.get(module_name)
    if module is None:
        try:
            module = importlib.import_module(module_name)
        except Exception:
            return None
    value: Any = module
    for part in qualname.split("."):
        value = getattr(value, part, None)
        if value is None:
            return None
    return value if callable(value) else None


def destroy_leftovers(
    root: str | os.PathLike[str] | None = None,
    *,
    terraform: TerraformBinary | str | os.PathLike[str] | None = None,
    providers: Mapping[str, Any] | None = None,
    cli_config: str | os.PathLike[str] | None = None,
    timeout: float | None = None,
    log: Callable[[str], object] = print,
) -> LeftoverResult:
    """Destroy every leftover under ``root`` (default :func:`default_leftovers_dir`); remove those destroyed.

    ``terraform`` defaults to the binary that made the leftover when it is still there, else the one
    found as the runner finds it. ``providers`` (``{address: factory}``) serves providers under test
    that cannot be imported back by name. ``cli_config`` defaults to the leftover's copy of the CLI
    configuration the case used, when it had one. A ``terraform`` that was named but cannot be used
    raises :class:`TerraformNotFoundError` before any leftover is touched; without any usable binary
    each leftover is kept, saying so. Whatever a leftover's manifest holds, it is destroyed or kept
    with the reason (recorded in its manifest), never an exception.

    >>> destroy_leftovers("/no/such/directory", log=lambda line: None)
    LeftoverResult(destroyed=[], kept={})
    """
    destroyed: list[str] = []
    kept: dict[str, str] = {}
    if timeout is not None:
        timeout = check_timeout(timeout)
    found = find_leftovers(root)
    # A binary that was named and cannot be used fails at once, before any leftover is touched.
    chosen = None if terraform is None or not found else (
        terraform if isinstance(terraform, TerraformBinary) else inspect_binary(terraform))
    for leftover in found:
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
    return LeftoverResult(destroyed, kept)


def _destroy_one(
    leftover: Leftover, terraform: Any, providers: Mapping[str, Any] | None, cli_config: Any,
    timeout: float | None, log: Callable[[str], object],
) -> str | None:
    served: dict[str, Any] = {}
    for address, name in leftover.providers_in_process.items():
        given = (providers or {}).get(address)
        factory = given if given is not None else (_resolve_factory(name) if name else None)
        if factory is None:
            return (f"it needs the provider under test {address} served in this process: give "
                    f"destroy_leftovers(providers={{{address!r}: factory}})")
        served[address] = factory
    binary = terraform if terraform is not None else _recorded_or_found(leftover)
    if binary is None:
        return (f"no terraform binary found: give terraform= (--terraform PATH), set ${ENV_TERRAFORM_PATH}, "
                "or put terraform or tofu on PATH")
    config = cli_config
    if config is None and (leftover.path / "cli.tfrc").is_file():
        config = leftover.path / "cli.tfrc"
    runner = AcceptanceRunner(
        binary, leftover.path, cli_config=config, timeout=timeout or DEFAULT_TIMEOUT, require_tf_acc=False,
        echo=False,
    )
    case = TestCase(steps=[TestStep(config="")], providers=served or None)
    run = _CaseRun(runner, case, leftover.path)
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


