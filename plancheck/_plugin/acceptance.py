"""What the pytest plugin needs for the ``tf_acceptance`` fixture, the report header and the runner's skips.

The plugin (``plancheck.plugin``) registers the ``--terraform`` option and calls
:func:`make_acceptance` from its fixture, :func:`report_header` from ``pytest_report_header``
and :func:`library_skip` / :func:`skip_at_item` from its ``pytest_runtest_makereport``
wrapper; nothing here registers anything by itself.
"""

from __future__ import annotations

import os
import unittest
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import pytest

from .._redact import Secrets
from .._terraform import (
    ENV_TERRAFORM_PATH,
    TerraformBinary,
    TerraformNotFoundError,
    discover_terraform,
    inspect_binary,
    locate_terraform,
)
from ..acceptance._leftovers import default_leftovers_dir
from ..acceptance._runner import DEFAULT_TIMEOUT, ENV_TF_ACC, AcceptanceRunner, tf_acc_set
from .options import terraform_binary, tf_acc_gate

__all__ = [
    "REQUIRE_E2E_ENV",
    "TERRAFORM_OPTION",
    "configure_tf_acc",
    "library_skip",
    "make_acceptance",
    "report_header",
    "requested_terraform",
    "skip_at_item",
]

TERRAFORM_OPTION: Final = "--terraform"
#: When set to 1 (as the project's own test command does), a missing binary fails instead of skipping.
REQUIRE_E2E_ENV: Final = "TFPLANCHECK_REQUIRE_E2E"
_NOT_FOUND: Final = (
    f"no terraform binary found: pass {TERRAFORM_OPTION} PATH, set ${ENV_TERRAFORM_PATH}, "
    "or put terraform or tofu on PATH"
)


def _required() -> bool:
    return os.environ.get(REQUIRE_E2E_ENV, "").strip().lower() in ("1", "true", "yes")


def requested_terraform(config: pytest.Config | Any) -> str | None:
    """The binary asked for with ``--terraform`` (or the ``tf_terraform`` ini key), if any.

    >>> requested_terraform(None) is None  # no pytest config: nothing was asked for
    True
    """
    if config is None:
        return None
    return terraform_binary(config)


def configure_tf_acc(config: pytest.Config | Any) -> bool:
    """With the gate off (``--no-tf-acc-gate``, ``tf_acc_gate = false``), set ``TF_ACC=1`` for the session.

    Then every runner, the fixture's and those a test builds itself (and subprocesses), runs as
    if the user had exported ``TF_ACC``; the variable is restored when the session ends.
    Returns whether it set it.

    >>> from types import SimpleNamespace
    >>> configure_tf_acc(SimpleNamespace(getoption=lambda name, default=None: None, getini=lambda name: True))
    False
    """
    if tf_acc_gate(config) or tf_acc_set():
        return False
    previous = os.environ.get(ENV_TF_ACC)
    os.environ[ENV_TF_ACC] = "1"

    def restore() -> None:
        if previous is None:
            os.environ.pop(ENV_TF_ACC, None)
        else:
            os.environ[ENV_TF_ACC] = previous

    config.add_cleanup(restore)
    return True


def _test_name(request: pytest.FixtureRequest | Any) -> str | None:
    node = getattr(request, "node", None)
    name = getattr(node, "originalname", None) or getattr(node, "name", None)
    return name if isinstance(name, str) else None


def _test_dir(request: pytest.FixtureRequest | Any) -> Path | None:
    path = getattr(request, "path", None)
    return Path(path).parent if isinstance(path, (str, os.PathLike)) else None


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
            pytest.fail(f"tf_acceptance: {problem}", pytrace=False)
    if binary is None:
        if _required():
            pytest.fail(f"tf_acceptance: {_NOT_FOUND} ({REQUIRE_E2E_ENV}=1 makes this a failure)", pytrace=False)
        pytest.skip(f"tf_acceptance: {_NOT_FOUND}")
    request.node.user_properties.append(("terraform", f"{binary.product} {binary.version}"))
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
        leftovers_dir=None if rootpath is None else default_leftovers_dir(rootpath),
    )


def report_header(config: pytest.Config | Any) -> list[str]:
    """Lines for ``pytest_report_header``: which binary acceptance tests would use, and its version.

    >>> from types import SimpleNamespace
    >>> config = SimpleNamespace(getoption=lambda name, default=None: "/nonexistent/terraform", getini=lambda name: "")
    >>> report_header(config)
    ['plancheck: acceptance tests: cannot use Terraform binary /nonexistent/terraform: no such file (from --terraform)']
    """
    try:
        located = locate_terraform(requested_terraform(config))
    except (OSError, ValueError) as exc:
        return [f"plancheck: acceptance tests: cannot look for terraform ({exc})"]
    if located is None:
        outcome = "fail" if _required() else "be skipped"
        return [f"plancheck: acceptance tests: {_NOT_FOUND}; tf_acceptance tests will {outcome}"]
    path, origin = located
    if origin == "explicit":
        origin = TERRAFORM_OPTION
    try:
        binary = inspect_binary(path)
    except TerraformNotFoundError as exc:
        return [f"plancheck: acceptance tests: {exc} (from {origin})"]
    return [f"plancheck: acceptance tests use {binary.product} {binary.version} at {binary.path} (from {origin})"]


def library_skip(excinfo: pytest.ExceptionInfo[BaseException] | None) -> bool:
    """Whether ``excinfo`` is a ``unittest.SkipTest`` that plancheck itself raised (the acceptance runner's skips).

    The runner skips with unittest's exception so that it needs no pytest; pytest turns that
    into its own skip inside ``_pytest/unittest.py`` and would report the skip there. Only
    the frame that raised counts: a SkipTest from the user's own code keeps pytest's handling.

    >>> def raise_skip(module):  # a function defined in ``module``, raising the runner's skip
    ...     namespace = {"__name__": module, "unittest": unittest}
    ...     exec("def run(): raise unittest.SkipTest('Acceptance tests skipped unless env TF_ACC set')", namespace)
    ...     with pytest.raises(unittest.SkipTest) as info:
    ...         namespace["run"]()
    ...     return info
    >>> library_skip(raise_skip("plancheck.acceptance._runner")), library_skip(raise_skip("tests.test_acc")), library_skip(None)
    (True, False, False)
    """
    if excinfo is None or not isinstance(excinfo.value, unittest.SkipTest):
        return False
    tb = excinfo.tb
    while tb.tb_next is not None:
        tb = tb.tb_next
    module = tb.tb_frame.f_globals.get("__name__")
    return isinstance(module, str) and module.startswith("plancheck.")


def skip_at_item(item: pytest.Item, report: pytest.TestReport) -> None:
    """Point a skipped ``report`` at the test item's own location, as pytest does for a skip marker.

    pytest reports a skip as ``(path, line, "Skipped: reason")``; the reason is kept, the
    path and line become the test's (``-rs`` then names the test, not pytest's internals).
    A report that did not skip, or an item without a line, is left as it is.

    >>> from types import SimpleNamespace
    >>> item = SimpleNamespace(reportinfo=lambda: ("/src/tests/test_x.py", 11, "test_x"))
    >>> report = SimpleNamespace(skipped=True, longrepr=("/venv/_pytest/unittest.py", 521, "Skipped: no TF_ACC"))
    >>> skip_at_item(item, report)
    >>> report.longrepr
    ('/src/tests/test_x.py', 12, 'Skipped: no TF_ACC')
    """
    longrepr = report.longrepr
    if not report.skipped or not isinstance(longrepr, tuple) or len(longrepr) != 3:
        return
    path, line = item.reportinfo()[:2]
    if line is None:
        return
    # reportinfo's line counts from 0, a report's from 1 (pytest's own skip-marker report does the same).
    report.longrepr = (os.fspath(path), line + 1, longrepr[2])
