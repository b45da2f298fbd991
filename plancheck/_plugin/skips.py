"""Where the acceptance runner's skips are reported: at the test, as pytest reports a skip marker.

Light on purpose: every test's report passes through here, acceptance test or not.
"""

from __future__ import annotations

import os
import unittest

import pytest

from .._terraform.locate import ENV_TF_ACC, TF_ACC_SKIP_MESSAGE

__all__ = ["SkipCounter", "library_skip", "skip_at_item"]


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


class SkipCounter:
    """Counts the tests the runner skipped for want of ``TF_ACC``, so the session says so once at its end.

    Counted from the reports the controller logs, so pytest-xdist's workers' skips count too.

    >>> from types import SimpleNamespace
    >>> counter = SimpleNamespace(count=0)
    >>> SkipCounter.seen(counter, SimpleNamespace(skipped=True, when="call",
    ...     longrepr=("t.py", 3, "Skipped: Acceptance tests skipped unless env 'TF_ACC' set")))
    >>> counter.count
    1
    """

    def __init__(self) -> None:
        self.count = 0

    def seen(self, report: pytest.TestReport) -> None:
        """Count ``report`` if it is such a skip."""
        longrepr = report.longrepr
        if report.skipped and isinstance(longrepr, tuple) and len(longrepr) == 3 and TF_ACC_SKIP_MESSAGE in str(longrepr[2]):
            self.count += 1

    def summary(self) -> str | None:
        """The line for the end of the session, or None when nothing was skipped for this reason.

        >>> c = SkipCounter(); c.count = 3; print(c.summary())
        plancheck: 3 acceptance tests were skipped because TF_ACC is not set (Go's rule); run them with TF_ACC=1 pytest ..., or turn the gate off with --no-tf-acc-gate or tf_acc_gate = false
        """
        if not self.count:
            return None
        tests = "test was" if self.count == 1 else "tests were"
        return (
            f"plancheck: {self.count} acceptance {tests} skipped because {ENV_TF_ACC} is not set (Go's rule); "
            f"run them with {ENV_TF_ACC}=1 pytest ..., or turn the gate off with --no-tf-acc-gate or tf_acc_gate = false"
        )
