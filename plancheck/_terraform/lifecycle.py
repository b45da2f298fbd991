"""Worker processes that follow the process lifecycle (:mod:`plancheck._loading.lifecycle`).

The lifecycle itself (what the library owns, the signal scope, :class:`~plancheck._loading.lifecycle.Terminated`)
lives in the loading layer, below every layer that starts a process: the loader's helper process for a large
standard-library load follows it as Terraform's commands do. Here is what only the layers above use: forked
worker processes (``tfplancheck --jobs``), which make the lifecycle their own as they start and are ended by
their parent on Ctrl-C, SIGTERM or SIGHUP; and a parent whose workers another library starts (pytest-xdist's
controller), which passes SIGTERM and SIGHUP on to them and waits for them before it ends.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable, Iterable, Sequence
from types import FrameType
from typing import TYPE_CHECKING, Any, Final, TypeVar

from .._loading.delivery import SIGNALS
from .._loading.lifecycle import HELD, own, pending_signal, release, signals_held, start_afresh, terminate
from .binary import _exited

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

__all__ = ["pass_termination_on", "run_in_workers", "worker_count"]

_A = TypeVar("_A")
_R = TypeVar("_R")
#: What is blocked while workers are forked: Ctrl-C and the termination signals.
_FORKING: Final = frozenset(HELD)


def worker_count() -> int:
    """How many workers a pool has by default: the CPUs this process may run on.

    >>> worker_count() >= 1
    True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods() and hasattr(signal, "pthread_sigmask")


def _worker_start() -> None:
    """A worker's first act: the lifecycle its own, then the signals its parent blocked while forking it let in."""
    start_afresh()
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _FORKING)


def _work(fn: Callable[[_A], _R], item: _A) -> _R:
    """In a worker: ``fn(item)``; after a termination signal the worker ends with it, never takes the next item.

    ``fn``'s scope delivers the signal when it has unwound, which ends the worker; but a second signal (the
    parent's SIGTERM, on top of SIGHUP or SIGTERM sent to the whole group) that lands while that scope's
    ``finally`` runs raises there instead, skipping the delivery. The pool's loop takes whatever ``fn`` raises
    for the item's result and runs the next item: a new ``terraform show`` while the parent waits for the
    worker to end, for ever.
    """
    try:
        result = fn(item)
    except KeyboardInterrupt:
        _end_worker()
        raise
    if pending_signal() is not None:
        _end_worker()
    return result


def _end_worker() -> None:
    """End this worker, its work unwound, with the signal that came (the signals held, so no other one cuts in)."""
    signal.pthread_sigmask(signal.SIG_BLOCK, HELD)
    signum = pending_signal() or int(signal.SIGTERM)  # a worker's Ctrl-C does nothing: only Terminated gets here
    signal.signal(signum, signal.SIG_DFL)
    signal.raise_signal(signum)  # held: delivered, with its default action, as it is let in
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signum})
    os._exit(128 + signum)  # not reached: the default action of SIGTERM and SIGHUP ends the process


def run_in_workers(fn: Callable[[_A], _R], items: Sequence[_A], workers: int) -> list[_R]:
    """``fn(item)`` for each of ``items`` in up to ``workers`` forked worker processes, the results in the order of
    ``items`` whichever finished first; with one worker (or where processes cannot be forked), one after the other
    in this process. ``fn`` (a module's function) wraps its own work in :func:`ending_on_signals`.

    Workers are forked (they have what the parent had set up) with Ctrl-C and the termination signals blocked
    until each has made the lifecycle its own (:func:`start_afresh`). On Ctrl-C, SIGTERM or SIGHUP the parent
    sends each worker SIGTERM, which unwinds a worker's commands (their groups ended, their files removed) and
    ends it, and waits for every worker before it goes on unwinding: no worker outlives the call.

    >>> run_in_workers(abs, [-3, 2, -1], 2)
    [3, 2, 1]
    """
    if min(workers, len(items)) <= 1 or not _can_fork():
        return [fn(item) for item in items]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # Owned like a command: a second signal that lands as the ``except`` below begins, before the workers are
    # ended, leaves them to the enclosing scope (which ends them), not to a shutdown that waits for their work.
    with signals_held():
        pool = own(ProcessPoolExecutor(max_workers=min(workers, len(items)), initializer=_worker_start,
                                       mp_context=multiprocessing.get_context("fork")), _end_pool)
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, _FORKING)
        try:
            # The first submit forks every worker (a fork pool starts them all at once, before its thread): a
            # signal that comes meanwhile is delivered after, once every worker can be ended.
            futures = [pool.submit(_work, fn, item) for item in items]
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, _FORKING)
        results = [future.result() for future in futures]
    except BaseException:
        _end_pool(pool)
        release(pool)
        raise
    pool.shutdown(wait=True)
    release(pool)
    return results


def _end_pool(pool: ProcessPoolExecutor) -> None:
    """End the pool's workers (:func:`_end_workers`), then shut it down: none of its processes or threads is left."""
    _end_workers(getattr(pool, "_processes", None) or {})
    pool.shutdown(wait=True, cancel_futures=True)


def _end_workers(processes: dict[Any, Any]) -> None:
    """SIGTERM every worker and wait until each has ended (each ends its commands first); a further Ctrl-C or SIGTERM
    while waiting sends SIGTERM again, which cuts a worker's grace period short, never the wait.

    (The pool's own ``_processes``: ``terminate_workers`` is Python 3.14's, and shutting down waits for the work.)
    """
    workers = list(processes.values())
    for worker in workers:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            worker.terminate()
    for worker in workers:
        while True:
            try:
                worker.join()
                break
            except KeyboardInterrupt:
                with contextlib.suppress(OSError, ValueError, AttributeError):
                    worker.terminate()


def pass_termination_on(children: Callable[[], Iterable[int]]) -> Callable[[], None]:
    """From now on a SIGTERM or SIGHUP that would end this process (its handler the default) is first passed on to
    the child processes ``children()`` names, and ends this process only once each of them has ended (by
    :func:`~plancheck._loading.lifecycle.terminate`: a pytest session first finishes as after a Ctrl-C); a further
    one while waiting is passed on again, which cuts a child's grace period short, never the wait. Returns what
    puts the default handlers back. A signal ignored or handled by someone else stays so; outside the main
    thread, or without ``waitid``, nothing changes.

    For a parent whose workers another library starts and would end too early: pytest-xdist's controller, which
    otherwise ended at once, its workers then ended by execnet (``os._exit``) 15 s later in the middle of their
    cleanup, or never interrupted at all when SIGINT is ignored. Each worker, signalled, ends its Terraform
    commands and its case as a plain session does (:mod:`plancheck._loading.lifecycle`).

    >>> restore = pass_termination_on(lambda: [])
    >>> signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    False
    >>> restore()
    >>> signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    True
    """
    import threading

    if not hasattr(os, "waitid") or threading.current_thread() is not threading.main_thread():
        return lambda: None

    def pass_on(signum: int, _frame: FrameType | None) -> None:
        # Only a child not yet ended: a pid the child's exit left unreaped is still ours, a reaped one may not be.
        waiting = [pid for pid in children() if not _exited(pid)]
        for pid in waiting:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signum)
        while waiting:
            time.sleep(0.05)
            waiting = [pid for pid in waiting if not _exited(pid)]
        terminate(signum)

    passing = [signum for signum in SIGNALS if signal.getsignal(signum) == signal.SIG_DFL]
    for signum in passing:
        signal.signal(signum, pass_on)

    def restore() -> None:
        for signum in passing:
            if signal.getsignal(signum) is pass_on:
                signal.signal(signum, signal.SIG_DFL)

    return restore
