"""Many plans, one run: ``tfplancheck PLAN [PLAN ...]``, each plan read and checked in a worker process of its own.

Each plan is read (a binary one shown by Terraform) and checked by :func:`check_plan`, in a pool of ``--jobs``
worker processes (``--jobs 1``: one after the other in this process, no pool). What comes back is small: the
plan's facts (:class:`~plancheck.cli._output.PlanFacts`: its source, flags and secrets) and its results, not the
plan; the results are put back in the order the plans were given, whichever finished first, so every output is
the same bytes whatever the number of workers. A plan that cannot be read is a
:class:`~plancheck.cli._output.PlanFailed` in its place, and the others are checked all the same.

Workers are forked (their checks are the parent's, parsed once), with Ctrl-C and the termination signals
blocked until each has made the lifecycle its own (:func:`plancheck._terraform.lifecycle.start_afresh`). Ctrl-C
reaches the parent (the workers ignore it); the parent, on Ctrl-C, SIGTERM or SIGHUP, sends each worker
SIGTERM, which unwinds a worker's Terraform command as it would in the parent (its process group ended, its
files removed) and ends it, and waits for every worker before it goes on unwinding: no worker outlives the
command. Where processes cannot be forked, the plans are checked one after the other.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import multiprocessing
import os
import signal
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import IO, Any, Final, cast

from .._frozen import FrozenValue, frozen
from .._redact import Secrets
from .._text import exception_text
from ._io import CliError, read_plan
from ._output import PlanFacts, PlanFailed

__all__ = ["Job", "Outcome", "check_plan", "check_plans", "checks_text", "default_jobs"]


def default_jobs() -> int:
    """``--jobs``'s default: the CPUs this process may run on.

    >>> default_jobs() >= 1
    True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


@frozen
class Job(FrozenValue):
    """What checking one plan needs, the same for every plan of the run (a worker has it from its parent, forked).

    >>> Job((), None, {}, 1024, False, None, datetime.date(2027, 1, 31)).max_bytes
    1024
    """

    specs: tuple[Any, ...]
    terraform: str | None
    environ: Mapping[str, str]
    max_bytes: int
    allow_errored: bool
    chdir: str | None
    today: datetime.date
    stdin: IO[bytes] | None = None
    #: The checks as text (:func:`checks_text`): what every plan's part of the output may show of them.
    checks: str = ""


@frozen
class Outcome(FrozenValue):
    """A plan checked: its facts and its results, each without its check (the parent holds the checks, in order),
    and its secrets that the checks show (``crossing``: the other plans' parts show the checks too).

    >>> Outcome(PlanFacts(None, "1.2", None, None, None, None, __import__("plancheck").Secrets()), ()).results
    ()
    """

    facts: PlanFacts
    results: tuple[Any, ...]
    crossing: tuple[str, ...] = ()


def checks_text(specs: Sequence[Any]) -> str:
    """What the output may show of ``specs`` in any plan's part: each check's repr (its arguments, matchers,
    waivers), address and path.

    >>> from plancheck.cli._checksfile import CheckSpec
    >>> checks_text([CheckSpec("ExpectEmptyPlan", None, "c.toml:1 check[0]", address="a.b")])
    "CheckSpec('ExpectEmptyPlan', None, 'c.toml:1 check[0]', 'a.b', None, 'error', ())\\na.b\\n"
    """
    return "\n".join(f"{spec!r}\n{spec.address or ''}\n{spec.path.to_text() if spec.path is not None else ''}"
                     for spec in specs)


def _crossing(secrets: Secrets, text: str) -> tuple[str, ...]:
    """The secrets of ``secrets`` that ``text`` shows (a piece of one, as the scrub finds it); mostly none, found
    with the plan's own scanner (built anyway), each then told apart only when there is one."""
    if not text or not secrets.touches(text):
        return ()
    return tuple(value for value in secrets.ordered if Secrets([value]).touches(text))


#: The job of the run, set before the workers are forked (they inherit it) or the plans are checked here.
_JOB: Job | None = None


def check_plan(name: str) -> Outcome | PlanFailed:
    """Read and check plan file ``name`` with the run's job; bad input is a :class:`PlanFailed`, never an exception.

    An unexpected exception (a bug) is one too, of kind ``internal``, its text scrubbed of the plan's secrets.
    """
    from .._documents.met import heard_only_by
    from .._terraform.lifecycle import ending_on_signals
    from ._checksfile import run_checks

    job = _JOB
    assert job is not None, "check_plans sets the job"
    source = "<stdin>" if name == "-" else name
    heard: list[Any] = []
    # A worker's own scope: SIGTERM unwinds its Terraform command (the group ended, its files removed), then ends it.
    # Its plan is heard here only (so, too, with --jobs 1): the writers scrub each plan's part with its own secrets.
    with ending_on_signals(), heard_only_by(heard.append):
        try:
            plan = read_plan(name, terraform=job.terraform, stdin=job.stdin, environ=job.environ,
                             max_bytes=job.max_bytes, allow_errored=job.allow_errored, chdir=job.chdir)
            results = run_checks(job.specs, plan, today=job.today)
            # Each result without its check (the parent has them, in order): a check need not pickle, nor travel.
            return Outcome(PlanFacts.of(plan), tuple(dataclasses.replace(r, spec=cast(Any, None)) for r in results),
                           _crossing(plan.secrets, job.checks))
        except CliError as exc:
            return PlanFailed(source, exc.kind, exc.message)
        except Exception as exc:  # the boundary of one plan: the others are still checked and reported
            return PlanFailed(source, "internal", _unexpected(exc, heard))


def _unexpected(exc: BaseException, heard: Sequence[Any]) -> str:
    text = " ".join(exception_text(exc).split())
    try:
        for found in heard:
            secrets = getattr(found, "secrets", None)
            if secrets is not None:
                text = secrets.scrub(text)
    except Exception:  # the plan that broke the check may be what cannot give its secrets
        text = f"{type(exc).__name__} (its message is withheld: the secrets it may show could not be listed)"
    return f"unexpected error: {text} (a bug: please report it)"


_BLOCKED: Final = frozenset({int(signal.SIGINT), int(signal.SIGTERM), *(int(s) for s in (getattr(signal, "SIGHUP", None),) if s)})


def _worker_start() -> None:
    """A worker's first act: the lifecycle its own, then the signals its parent blocked while forking it let in."""
    from .._terraform.lifecycle import start_afresh

    start_afresh()
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _BLOCKED)


@contextlib.contextmanager
def _signals_blocked() -> Iterator[None]:
    """Ctrl-C and the termination signals held back while workers are forked: one that came meanwhile is delivered
    after, once every worker can be ended (a worker has them blocked until it has set its handlers)."""
    signal.pthread_sigmask(signal.SIG_BLOCK, _BLOCKED)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _BLOCKED)


def _can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods() and hasattr(signal, "pthread_sigmask")


def check_plans(names: Sequence[str], job: Job, jobs: int) -> list[Outcome | PlanFailed]:
    """Check every plan of ``names`` with ``job`` in ``jobs`` worker processes; the outcomes in the order of ``names``."""
    global _JOB
    _JOB = job
    try:
        workers = min(jobs, len(names))
        if workers <= 1 or not _can_fork():
            return [check_plan(name) for name in names]
        return _in_pool(names, workers)
    finally:
        _JOB = None


def _in_pool(names: Sequence[str], workers: int) -> list[Outcome | PlanFailed]:
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"),
                               initializer=_worker_start)
    try:
        with _signals_blocked():
            # The first submit forks every worker (a fork pool starts them all at once, before its thread).
            futures: list[Future[Outcome | PlanFailed]] = [pool.submit(check_plan, name) for name in names]
        return [future.result() for future in futures]
    except BaseException:
        _end_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """SIGTERM every worker and wait until each has ended (each ends its Terraform command first); a further Ctrl-C
    or SIGTERM while waiting sends SIGTERM again, which cuts a worker's grace period short, never the wait."""
    processes = list(getattr(pool, "_processes", {}).values())
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.terminate()
    for process in processes:
        while True:
            try:
                process.join()
                break
            except KeyboardInterrupt:
                with contextlib.suppress(OSError, ValueError, AttributeError):
                    process.terminate()
