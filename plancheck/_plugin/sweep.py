"""``--tf-sweep``: the session runs the registered sweepers instead of its tests (Go's ``-sweep``).

Sweepers are registered while test modules and ``conftest.py`` files are imported, that is during
collection, so the sweep replaces the test loop (``pytest_runtestloop``), after collection. It runs
in one process: with pytest-xdist's ``-n`` the workers would each sweep, so that is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import pytest

__all__ = [
    "DESTROY_LEFTOVERS",
    "SWEEP_ALLOW_FAILURES",
    "SWEEP_REGIONS",
    "SWEEP_RUN",
    "add_sweep_options",
    "check_sweep_options",
    "destroy_leftovers",
    "sweep",
]

SWEEP_REGIONS: Final = "tf_sweep"
SWEEP_RUN: Final = "tf_sweep_run"
SWEEP_ALLOW_FAILURES: Final = "tf_sweep_allow_failures"
DESTROY_LEFTOVERS: Final = "tf_destroy_leftovers"


def add_sweep_options(group: pytest.OptionGroup) -> None:
    """``--tf-sweep``, ``--tf-sweep-run`` and ``--tf-sweep-allow-failures``."""
    group.addoption(
        "--tf-sweep", dest=SWEEP_REGIONS, metavar="REGIONS", default=None,
        help="run the registered sweepers (plancheck.acceptance.AddTestSweepers) in these comma-separated "
        "regions instead of the tests (Go's -sweep). Destructive: test environments only.",
    )
    group.addoption(
        "--tf-sweep-run", dest=SWEEP_RUN, metavar="NAMES", default=None,
        help="with --tf-sweep: only the sweepers whose names contain one of these comma-separated words "
        "(and their dependencies) (Go's -sweep-run)",
    )
    group.addoption(
        "--tf-sweep-allow-failures", dest=SWEEP_ALLOW_FAILURES, action="store_true", default=False,
        help="with --tf-sweep: go on after a sweeper fails (Go's -sweep-allow-failures)",
    )
    group.addoption(
        "--tf-destroy-leftovers", dest=DESTROY_LEFTOVERS, action="store_true", default=False,
        help="instead of the tests, destroy what acceptance cases whose destroy failed left in "
        ".tfplancheck/leftovers ($TFPLANCHECK_LEFTOVERS_DIR), serving their providers under test",
    )


def check_sweep_options(config: pytest.Config) -> None:
    """Refuse option combinations that cannot work, before anything runs."""
    regions = config.getoption(SWEEP_REGIONS)
    if config.getoption(DESTROY_LEFTOVERS):
        if regions is not None:
            raise pytest.UsageError("--tf-destroy-leftovers and --tf-sweep: give one at a time")
        if getattr(config.option, "numprocesses", None) or hasattr(config, "workerinput"):
            raise pytest.UsageError("--tf-destroy-leftovers runs in one process: leave out pytest-xdist's -n")
    if regions is None:
        if config.getoption(SWEEP_RUN) is not None or config.getoption(SWEEP_ALLOW_FAILURES):
            raise pytest.UsageError("--tf-sweep-run and --tf-sweep-allow-failures need --tf-sweep=REGIONS")
        return
    if not [r for r in regions.split(",") if r.strip()]:
        raise pytest.UsageError("--tf-sweep needs at least one region, e.g. --tf-sweep=us-east-1,eu-west-1")
    if getattr(config.option, "numprocesses", None) or hasattr(config, "workerinput"):
        raise pytest.UsageError("--tf-sweep runs in one process: leave out pytest-xdist's -n")


def _terminal_log(session: pytest.Session, scrub: Callable[[str], str]) -> Callable[[str], None]:
    """Writing a line to the terminal, scrubbed first: a sweeper's exception text, a leftover's line, is the user's
    and may quote a secret of a document the session read; no report carries it through the report hooks' scrub."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")

    def log(line: str) -> None:
        if reporter is not None:
            reporter.write_line(scrub(line))

    return log


def sweep(session: pytest.Session, scrub: Callable[[str], str] = str) -> bool:
    """Run the sweepers if ``--tf-sweep`` was given (then the tests do not run); True when it did.

    ``scrub`` is the session's scrub of a text it writes (each line goes through it).
    """
    config = session.config
    regions = config.getoption(SWEEP_REGIONS)
    if regions is None or config.option.collectonly:
        return False
    from ..acceptance import SweepFailedError, run_sweepers  # only a sweeping session pays for the runner

    log = _terminal_log(session, scrub)

    try:
        result = run_sweepers(
            regions, run=config.getoption(SWEEP_RUN), allow_failures=config.getoption(SWEEP_ALLOW_FAILURES), log=log,
        )
    except KeyboardInterrupt:
        # The sweeper was named as it stopped (run_sweepers logs it); pytest ends the session as interrupted.
        session.testsfailed = max(session.testsfailed, 1)
        log("[sweep] interrupted: the remaining sweepers did not run")
        raise
    except SweepFailedError as exc:
        session.testsfailed = len(exc.result.failures)
        log(f"[sweep] {len(exc.result.failures)} sweeper(s) failed:")
        for line in str(exc).splitlines():
            log(f"  {line}")
        return True
    ran = sum(len(names) for names in result.regions.values())
    log(f"[sweep] {ran} sweeper run(s) succeeded; no tests were run (--tf-sweep)")
    return True


def destroy_leftovers(session: pytest.Session, scrub: Callable[[str], str] = str) -> bool:
    """Destroy the leftovers if ``--tf-destroy-leftovers`` was given (then the tests do not run); True when it did.

    After collection: the test modules are imported, so providers under test named in a leftover's
    manifest (``module:qualname``) are found. ``scrub`` is the session's scrub of a text it writes.
    """
    config = session.config
    if not config.getoption(DESTROY_LEFTOVERS) or config.option.collectonly:
        return False
    from ..acceptance import LEFTOVERS_ENV, TerraformNotFoundError, default_leftovers_dir
    from ..acceptance import destroy_leftovers as destroy
    from .acceptance import requested_terraform

    log = _terminal_log(session, scrub)

    root = default_leftovers_dir(config.rootpath)
    if root.exists() and not root.is_dir():
        log(f"[leftovers] {root} is not a directory: it is where leftovers are kept (${LEFTOVERS_ENV}?)")
        session.testsfailed = 1
        return True
    try:
        result = destroy(root, terraform=requested_terraform(config), log=log, project=config.rootpath)
    except TerraformNotFoundError as exc:
        log(f"[leftovers] {exc}")
        session.testsfailed = 1
        return True
    if not result.ok:
        session.testsfailed = len(result.kept) + len(result.unreadable)
        unreadable = f", {len(result.unreadable)} with an unreadable record (untouched)" if result.unreadable else ""
        log(f"[leftovers] {len(result.kept)} leftover(s) kept in {root}{unreadable}; "
            f"{len(result.destroyed)} destroyed")
    else:
        left = "nothing of this project's is left" if result.left_alone else "nothing is left"
        log(f"[leftovers] {len(result.destroyed)} leftover(s) destroyed; {left} in {root}; no tests were run")
    return True
