"""``--tf-sweep``: the session runs the registered sweepers instead of its tests (Go's ``-sweep``).

Sweepers are registered while test modules and ``conftest.py`` files are imported, that is during
collection, so the sweep replaces the test loop (``pytest_runtestloop``), after collection. It runs
in one process: with pytest-xdist's ``-n`` the workers would each sweep, so that is refused (the options and
that refusal are :mod:`.options`'; this module is imported only by a session that sweeps or destroys leftovers).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from .options import DESTROY_LEFTOVERS, SWEEP_ALLOW_FAILURES, SWEEP_REGIONS, SWEEP_RUN

__all__ = ["destroy_leftovers", "sweep"]

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
