"""What the pytest plugin needs for the ``tf_acceptance`` fixture, the report header and the runner's skips.

The plugin (``plancheck.plugin``) registers the ``--terraform`` option and calls
:func:`make_acceptance` from its fixture, :func:`report_header` from ``pytest_report_header``
and :func:`library_skip` / :func:`skip_at_item` from its ``pytest_runtest_makereport``
wrapper; nothing here registers anything by itself.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .._documents.plan import Plan
from .._redact import Secrets
from .._terraform.binary import TerraformBinary, TerraformNotFoundError, discover_terraform
from ..acceptance import DEFAULT_TIMEOUT, AcceptanceRunner, default_leftovers_dir, mock_plan
from .gate import NOT_FOUND as _NOT_FOUND
from .gate import (
    REQUIRE_E2E_ENV,
    TERRAFORM_OPTION,
    configure_tf_acc,
    library_skip,
    report_header,
    requested_terraform,
    required,
    skip_at_item,
)
from .options import tf_acc_gate

__all__ = [
    "REQUIRE_E2E_ENV",
    "TERRAFORM_OPTION",
    "configure_tf_acc",
    "library_skip",
    "make_acceptance",
    "make_mock_plan",
    "progress_writer",
    "report_header",
    "requested_terraform",
    "session_terraform",
    "skip_at_item",
]

def session_terraform(
    request: pytest.FixtureRequest | Any, terraform: TerraformBinary | str | os.PathLike[str] | None, fixture: str
) -> TerraformBinary:
    """The binary a fixture runs: ``terraform`` if given, else ``--terraform``, else ``$TF_ACC_TERRAFORM_PATH``,
    else ``terraform`` then ``tofu`` on ``PATH``; recorded in the test's ``user_properties`` (JUnit XML).

    With none found the test is skipped, unless ``TFPLANCHECK_REQUIRE_E2E=1`` makes it a failure; a binary
    that was named but is unusable always fails.
    """
    __tracebackhide__ = True
    if isinstance(terraform, TerraformBinary):
        binary: TerraformBinary | None = terraform
    else:
        wanted = terraform if terraform is not None else requested_terraform(request.config)
        problem = None
        try:
            binary = discover_terraform(wanted)
        except TerraformNotFoundError as exc:
            problem = str(exc)
        if problem is not None:
            # Failing outside the except block keeps pytest from printing the chained exception too.
            pytest.fail(f"{fixture}: {problem}", pytrace=False)
    if binary is None:
        if required():
            pytest.fail(f"{fixture}: {_NOT_FOUND} ({REQUIRE_E2E_ENV}=1 makes this a failure)", pytrace=False)
        pytest.skip(f"{fixture}: {_NOT_FOUND}")
    request.node.user_properties.append(("terraform", f"{binary.product} {binary.version}"))
    return binary


def make_mock_plan(request: pytest.FixtureRequest | Any, terraform: TerraformBinary | str | None) -> Callable[..., Plan]:
    """The function behind the ``tf_mock_plan`` fixture: :func:`plancheck.acceptance.mock_plan` with the session's
    Terraform, a relative module directory taken from the test file's directory.

    >>> from types import SimpleNamespace
    >>> request = SimpleNamespace(path="/repo/tests/test_mod.py", node=SimpleNamespace(user_properties=[]))
    >>> plan = make_mock_plan(request, TerraformBinary("/usr/bin/terraform", "1.11.4"))
    >>> plan("../modules/logs", mocks=["acme/cloud"])
    Traceback (most recent call last):
    ...
    plancheck.acceptance.MockPlanArgumentError: mocks[0]: expected a MockProvider, got str
    """
    binary = session_terraform(request, terraform, "tf_mock_plan")
    base = _test_dir(request)

    def planned(module_dir: str | os.PathLike[str], **options: Any) -> Plan:
        __tracebackhide__ = True
        if base is not None and isinstance(module_dir, (str, os.PathLike)) and not isinstance(module_dir, bytes):
            module_dir = base / module_dir  # an absolute path stays itself
        return mock_plan(module_dir, terraform=options.pop("terraform", binary), **options)

    return planned


def _test_name(request: pytest.FixtureRequest | Any) -> str | None:
    node = getattr(request, "node", None)
    name = getattr(node, "originalname", None) or getattr(node, "name", None)
    return name if isinstance(name, str) else None


def _test_dir(request: pytest.FixtureRequest | Any) -> Path | None:
    path = getattr(request, "path", None)
    return Path(path).parent if isinstance(path, (str, os.PathLike)) else None


def progress_writer(config: pytest.Config | Any) -> Callable[[str], None] | None:
    """Under ``-v``, what writes the runner's progress lines to pytest's terminal, as they happen; else None.

    A line per step and per Terraform command as it starts and ends, through the terminal reporter
    (with capture suspended, as pytest's live logging writes): a user sees what a slow test is doing
    without ``-s``, which would also show every command's whole output. Without ``-v``, or with no
    terminal (an xdist worker's is not shown), nothing.

    >>> from types import SimpleNamespace
    >>> progress_writer(SimpleNamespace(get_verbosity=lambda: 0)) is None
    True
    >>> progress_writer(None) is None   # make_acceptance called without pytest's config
    True
    """
    verbosity = getattr(config, "get_verbosity", None)
    if not callable(verbosity) or verbosity() < 1:
        return None
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return None
    capture = config.pluginmanager.get_plugin("capturemanager")

    def write(line: str) -> None:
        with capture.global_and_fixture_disabled() if capture is not None else contextlib.nullcontext():
            reporter.write_line(f"tf_acceptance {line}")

    return write


def make_acceptance(
    request: pytest.FixtureRequest | Any,
    tmp_path: Path,
    *,
    terraform: TerraformBinary | str | os.PathLike[str] | None = None,
    cli_config: str | os.PathLike[str] | None = None,
    env: dict[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    share_secrets: Callable[[Secrets], None] | None = None,
) -> AcceptanceRunner:
    """The runner behind the ``tf_acceptance`` fixture, working under ``tmp_path / "tf"``.

    The binary is ``terraform`` if given, else ``--terraform``, else ``$TF_ACC_TERRAFORM_PATH``,
    else ``terraform`` then ``tofu`` on ``PATH``. With none found the test is skipped, unless
    ``TFPLANCHECK_REQUIRE_E2E=1`` makes it a failure; a binary that was named but is unusable
    always fails. The version is recorded in the test's ``user_properties`` (JUnit XML).
    Config functions see the test function's name (without pytest's parameters) and relative
    configuration paths are relative to the test file's directory; ``TF_ACC`` gates :meth:`run`
    unless the gate is off (see :func:`configure_tf_acc`).

    >>> from types import SimpleNamespace
    >>> request = SimpleNamespace(config=None, node=SimpleNamespace(user_properties=[]))
    >>> runner = make_acceptance(request, Path("/tmp/t"), terraform=TerraformBinary("/usr/bin/terraform", "1.11.4"))
    >>> runner.work_dir.as_posix(), request.node.user_properties
    ('/tmp/t/tf', [('terraform', 'Terraform 1.11.4')])
    """
    __tracebackhide__ = True
    binary = session_terraform(request, terraform, "tf_acceptance")
    config = getattr(request, "config", None)
    rootpath = getattr(config, "rootpath", None)
    return AcceptanceRunner(
        binary,
        tmp_path / "tf",
        cli_config=cli_config,
        env=env,
        timeout=timeout,
        share_secrets=share_secrets,
        test_name=_test_name(request),
        base_dir=_test_dir(request),
        require_tf_acc=True if config is None else tf_acc_gate(config),
        progress=progress_writer(config),
        leftovers_dir=None if rootpath is None else default_leftovers_dir(rootpath),
    )
