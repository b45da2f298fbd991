"""The plugin's light half of acceptance tests: the ``TF_ACC`` gate, its skips, and the report header.

A session that uses no acceptance fixture must not pay for the acceptance stack (about a hundred
modules) nor run ``terraform version``: these run at configure time (with the gate off), for the header,
for a report of a ``unittest.SkipTest`` and at the end of a session that skipped tests, so they import only
the base modules (a plain ``-q`` session imports none of this). The binary is found on ``PATH`` here
(cheap); its version is read when a test asks for ``tf_acceptance``. The runner's skips (``TF_ACC``
unset, no binary) are reported at the test, as pytest reports a skip marker, and counted for one line
at the session's end.
"""

from __future__ import annotations

import os
import unittest
from collections.abc import Iterable
from typing import Any, Final

import pytest

from .._terraform.locate import (
    ENV_TERRAFORM_PATH,
    ENV_TF_ACC,
    TF_ACC_SKIP_MESSAGE,
    executable_problem,
    locate_terraform,
    tf_acc_set,
)
from .options import terraform_binary, tf_acc_gate

__all__ = [
    "NOT_FOUND",
    "REQUIRE_E2E_ENV",
    "TERRAFORM_OPTION",
    "configure_tf_acc",
    "library_skip",
    "report_header",
    "requested_terraform",
    "required",
    "skip_at_item",
    "tf_acc_skips",
]

TERRAFORM_OPTION: Final = "--terraform"
#: When set to 1 (as the project's own test command does), a missing binary fails instead of skipping.
REQUIRE_E2E_ENV: Final = "TFPLANCHECK_REQUIRE_E2E"
NOT_FOUND: Final = (
    f"no terraform binary found: pass {TERRAFORM_OPTION} PATH, set ${ENV_TERRAFORM_PATH}, "
    "or put terraform or tofu on PATH"
)


def required() -> bool:
    """Whether a missing binary fails acceptance tests instead of skipping them (``TFPLANCHECK_REQUIRE_E2E=1``)."""
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


def report_header(config: pytest.Config | Any) -> list[str]:
    """Lines for ``pytest_report_header``: which binary acceptance tests would use, found without running it.

    >>> from types import SimpleNamespace
    >>> config = SimpleNamespace(getoption=lambda name, default=None: "/nonexistent/terraform", getini=lambda name: "")
    >>> report_header(config)
    ['plancheck: acceptance tests: cannot use Terraform binary /nonexistent/terraform: no such file (from --terraform)']
    """
    try:
        located = locate_terraform(requested_terraform(config))
    except (OSError, ValueError) as exc:
        return [f"plancheck: acceptance tests: {exc} (from {TERRAFORM_OPTION})"]
    if located is None:
        outcome = "fail" if required() else "be skipped"
        return [f"plancheck: acceptance tests: {NOT_FOUND}; tf_acceptance tests will {outcome}"]
    path, origin = located
    origin = TERRAFORM_OPTION if origin == "explicit" else origin
    found, problem = executable_problem(path)  # a few stat calls: the version is read when a test needs it
    if problem is not None:
        # Only now the error (and the base modules under it): its text is the one the runner raises.
        from .._terraform.binary import TerraformNotFoundError

        return [f"plancheck: acceptance tests: {TerraformNotFoundError(found, problem)} (from {origin})"]
    return [f"plancheck: acceptance tests use {found} (from {origin})"]


# -- the runner's skips ---------------------------------------------------------------------------


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


def tf_acc_skips(reports: Iterable[Any]) -> str | None:
    """The line for the end of the session when some of the skipped ``reports`` are the runner's for want of
    ``TF_ACC``, else None.

    >>> from types import SimpleNamespace
    >>> gated = SimpleNamespace(skipped=True, longrepr=("t.py", 3, "Skipped: Acceptance tests skipped unless env 'TF_ACC' set"))
    >>> print(tf_acc_skips([gated, gated, SimpleNamespace(skipped=True, longrepr=("t.py", 5, "Skipped: other"))]))
    plancheck: 2 acceptance tests were skipped because TF_ACC is not set (Go's rule); run them with TF_ACC=1 pytest ..., or turn the gate off with --no-tf-acc-gate or tf_acc_gate = false
    >>> tf_acc_skips([]) is None
    True
    """
    count = 0
    for report in reports:
        longrepr = getattr(report, "longrepr", None)
        if getattr(report, "skipped", False) and isinstance(longrepr, tuple) and len(longrepr) == 3 \
                and TF_ACC_SKIP_MESSAGE in str(longrepr[2]):
            count += 1
    if not count:
        return None
    tests = "test was" if count == 1 else "tests were"
    return (
        f"plancheck: {count} acceptance {tests} skipped because {ENV_TF_ACC} is not set (Go's rule); "
        f"run them with {ENV_TF_ACC}=1 pytest ..., or turn the gate off with --no-tf-acc-gate or tf_acc_gate = false"
    )
