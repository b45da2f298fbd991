"""Worker processes that follow the process lifecycle (:mod:`plancheck._loading.lifecycle`), and the janitor.

The lifecycle itself (what the library owns, the signal scope, :class:`~plancheck._loading.lifecycle.Terminated`)
lives in the loading layer, below every layer that starts a process: the loader's helper process for a large
standard-library load follows it as Terraform's commands do. Here is what only the layers above use: forked
worker processes (``tfplancheck --jobs``), which make the lifecycle their own as they start and are ended by
their parent on Ctrl-C, SIGTERM or SIGHUP; a parent whose workers another library starts (pytest-xdist's
controller), which passes SIGTERM and SIGHUP on to them and waits for them before it ends; and the janitor.

The janitor is for the one end no code of the process can see: SIGKILL (the out-of-memory killer, a CI's hard
stop). The first Terraform command a process starts also starts one small process, this file run by path
(``python -I -S``, the standard library only, as the loader's helper runs ``_loading/members.py``), joined by a
pipe whose write end only its owner holds (not inherited by what the owner starts; closed in a forked child).
The owner tells it each command's process group and each temporary or socket directory as they are made, and
that they are gone as they are removed. When the pipe ends (its owner exited, however: killed too) it ends
the groups still running, as an interrupted command is ended (SIGINT, :data:`INTERRUPT_GRACE`, SIGKILL), removes
the directories, and exits. An end its owner sees (exit, a signal's default action, a pool's worker's
``os._exit``) comes after its commands have ended: the owner then closes the pipe and reaps the janitor
(:func:`_reap`), which has nothing to sweep, so that none outlives it even for a moment. A group is signalled as a
whole, so members that joined it later (Terraform's providers) are reached, and never a group that reused the id:
through a pidfd of its leader, opened as the janitor is told of it, also after the leader has died (Linux 6.9+);
elsewhere by its id while a process known to be in it (its leader as told, by its start time where ``/proc`` tells
it, and the members seen while one of those held the id) still holds the id, also after the leader has died.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from types import FrameType
from typing import TYPE_CHECKING, Any, Final, TypeVar

# The janitor runs this file alone, by path, with the standard library only: the library's modules are imported
# only where it is imported as part of the package.
if __name__ != "__main__":
    from .._loading.delivery import SIGNALS, end_with, on_ending
    from .._loading.lifecycle import (
        HELD,
        own,
        owning,
        pending_signal,
        release,
        remove_tree,
        signals_held,
        start_afresh,
        terminate,
    )

if TYPE_CHECKING:
    import subprocess
    from concurrent.futures import ProcessPoolExecutor

__all__ = [
    "INTERRUPT_GRACE",
    "end_with_parent",
    "forget",
    "pass_termination_on",
    "remove_watched",
    "run_in_workers",
    "watch_directory",
    "watched_directory",
    "watching",
    "worker_count",
]

_A = TypeVar("_A")
_R = TypeVar("_R")
_P = TypeVar("_P", bound="subprocess.Popen[bytes]")

#: How long Terraform gets to stop its providers and release its state lock after an interrupt.
INTERRUPT_GRACE: Final = 5.0


def _exited(pid: int) -> bool:
    """Whether the command has exited, leaving it unreaped (its pid, and so its group id, stay taken)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True  # reaped by someone else: nothing left to wait for


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
    """A worker's first act: the lifecycle its own, then the signals its parent blocked while forking it let in.

    A worker that the pool ends runs no exit hook (``os._exit``), only multiprocessing's finalizers: its janitor is
    reaped in one of them, or it would outlive the worker (and the run).
    """
    import multiprocessing.util

    start_afresh()
    multiprocessing.util.Finalize(None, _reap, exitpriority=0)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD)


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
    end_with(pending_signal() or int(signal.SIGTERM))  # a worker's Ctrl-C does nothing: only Terminated gets here


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
        signal.pthread_sigmask(signal.SIG_BLOCK, HELD)
        try:
            # The first submit forks every worker (a fork pool starts them all at once, before its thread): a
            # signal that comes meanwhile is delivered after, once every worker can be ended.
            futures = [pool.submit(_work, fn, item) for item in items]
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD)
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


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (state, parent, group, ...), or None."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:  # open, not pathlib: the janitor imports less
            return stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError, UnicodeDecodeError):
        return None


def start_time(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since boot, from ``/proc``), so that a pid reused by another process
    never passes for it; None where there is no such process, or no ``/proc`` to tell.

    >>> start_time(os.getpid()) is not None or not os.path.isdir("/proc")
    True
    >>> start_time(0) is None
    True
    """
    fields = _stat(pid) if pid > 0 else None
    return fields[19] if fields is not None and len(fields) > 19 else None


class _Janitor:
    """This process's janitor, once started: the write end of its pipe, and what it was told (sent again to a new
    janitor if the first one was killed)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.fd: int | None = None
        self.pid: int | None = None
        #: What is watched now: a directory's path -> the messages that told the janitor about it and its group.
        self.told: dict[str, list[bytes]] = {}
        #: The message that tells it of this process's parent (:func:`end_with_parent`), if any.
        self.parent: bytes | None = None


_JANITOR: Final = _Janitor()


def _forked() -> None:
    """In a forked child: the parent's janitor and what it was told are the parent's (closed here, or the janitor
    would see no end of its pipe until the child ended too)."""
    if _JANITOR.fd is not None:
        with contextlib.suppress(OSError):
            os.close(_JANITOR.fd)
    _JANITOR.fd = _JANITOR.pid = None
    _JANITOR.told = {}
    _JANITOR.parent = None
    _JANITOR.lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked)


def _reap() -> None:
    """This process ends in a way it sees, its commands ended: close the janitor's pipe and wait for the janitor,
    which has nothing to sweep and exits at once (else it outlived its owner by the moment it takes to see the pipe
    end, and a check for leftover processes right after the run found it). One still told of something is left to
    sweep it, as after a kill; so is one whose lock this end interrupted. A forked child has no janitor of its own
    until its first command (:func:`_forked`): its parent's is never reaped here.

    >>> _reap(); _JANITOR.fd is None or bool(_JANITOR.told)
    True
    """
    if not _JANITOR.lock.acquire(blocking=False):
        return
    try:
        if _JANITOR.fd is None or _JANITOR.told:
            return
        os.close(_JANITOR.fd)
        _JANITOR.fd = None
        if _JANITOR.pid is not None:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(_JANITOR.pid, 0)
            _JANITOR.pid = None
    finally:
        _JANITOR.lock.release()


if __name__ != "__main__":
    on_ending(_reap)


def _message(*fields: object) -> bytes:
    return json.dumps(fields).encode() + b"\n"


def _started() -> bool:
    """Start this process's janitor unless it runs, and tell it all that is watched (the lock held); whether one
    runs. Where it cannot start (no POSIX process groups, no interpreter to run it), commands run as before."""
    if _JANITOR.fd is not None:
        return True
    if not hasattr(os, "killpg") or not hasattr(os, "posix_spawn") or not sys.executable:
        return False
    read_end, write_end = os.pipe()  # neither is inherited by a program started later (close-on-exec)
    try:
        # Spawned, not a Popen: no object whose finalizer warns at exit that it still runs (it ends after its owner).
        # A session of its own: neither a Ctrl-C at the terminal nor a signal to the owner's group ends it first.
        pid = os.posix_spawn(
            sys.executable, [sys.executable, "-I", "-S", __file__], os.environ,
            file_actions=[(os.POSIX_SPAWN_DUP2, read_end, 0), (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
                          (os.POSIX_SPAWN_DUP2, 1, 2)],
            setsid=True, setsigmask=(),
        )
    except OSError:
        os.close(write_end)
        return False
    finally:
        os.close(read_end)
    _JANITOR.fd, _JANITOR.pid = write_end, pid
    return _written((_JANITOR.parent or b"") + b"".join(line for lines in _JANITOR.told.values() for line in lines))


def _written(data: bytes) -> bool:
    """Send ``data`` to the running janitor (the lock held); False (and none runs) when it was gone."""
    if _JANITOR.fd is None:
        return False
    try:
        os.write(_JANITOR.fd, data)  # at once: a message (far below PIPE_BUF) is never cut short by a kill
        return True
    except OSError:
        os.close(_JANITOR.fd)
        _JANITOR.fd = None
        if _JANITOR.pid is not None:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(_JANITOR.pid, 0)  # it was killed: reaped, not left a zombie
        return False


def _tell(data: bytes) -> None:
    """Send ``data`` to the janitor if one runs (the lock held); one that was killed is replaced and told all again."""
    if _JANITOR.fd is not None and not _written(data):
        _started()


def watch_directory(path: str) -> None:
    """Tell the janitor of ``path``, a directory just made that a SIGKILL of this process must not leave behind.

    Starts no process: the first command's :func:`watching` starts the janitor and tells it then.

    >>> watch_directory("/never/made"); forget("/never/made")
    """
    line = _message("directory", path)
    with _JANITOR.lock:
        _JANITOR.told[path] = [line]
        _tell(line)


def end_with_parent() -> None:
    """From now on this process gets SIGTERM as soon as its parent process ends, however it ends (SIGKILL too), once
    it has started Terraform: its janitor watches the parent (a pidfd, Linux 5.3+; elsewhere nothing changes).

    For a pytest-xdist worker, whose controller killed left it running Terraform until execnet's ``os._exit``
    10-15 s later: on SIGTERM it ends its commands and its case at once (:mod:`plancheck._loading.lifecycle`).

    >>> end_with_parent(); _JANITOR.parent is not None
    True
    >>> _JANITOR.parent = None
    """
    owner, parent = os.getpid(), os.getppid()
    line = _message("parent", "", owner, start_time(owner), parent, start_time(parent))
    with _JANITOR.lock:
        _JANITOR.parent = line
        _tell(line)


def forget(path: str) -> None:
    """``path`` (and the command that ran in it) is gone: the janitor must not remove it any more.

    >>> forget("/never/watched")
    """
    with _JANITOR.lock:
        if _JANITOR.told.pop(path, None) is not None:
            _tell(_message("forget", path))


def watching(start: Callable[[], _P], directory: str) -> _P:
    """``start()`` a command in a process group of its own, in ``directory`` (watched), with this process's janitor
    running first (started now if need be) and told of the group as soon as it exists.

    Called with the signals held back (:func:`~plancheck._loading.lifecycle.start_held`).

    >>> import subprocess, tempfile
    >>> d = tempfile.mkdtemp()
    >>> done = watching(lambda: subprocess.Popen([sys.executable, "-c", "pass"], start_new_session=True), d)
    >>> done.wait(), _JANITOR.pid is not None or not hasattr(os, "posix_spawn")
    (0, True)
    >>> remove_watched(d)
    """
    with _JANITOR.lock:
        _started()
    process = start()
    line = _message("group", directory, process.pid, start_time(process.pid))
    with _JANITOR.lock:
        _JANITOR.told.setdefault(directory, []).append(line)
        _tell(line)
    return process


def watched_directory(prefix: str, base: str | None = None) -> contextlib.AbstractContextManager[str]:
    """A new private directory (in ``base``, else the temporary directory) that the janitor removes if this process
    is killed before it does; as :func:`~plancheck._loading.lifecycle.temporary_directory` otherwise.

    >>> with watched_directory("tfplancheck-doc-") as d:
    ...     os.path.isdir(d)
    True
    >>> os.path.exists(d)
    False
    """
    import tempfile

    def create() -> str:
        path = tempfile.mkdtemp(prefix=prefix, dir=base)
        watch_directory(path)
        return path

    return owning(create, remove_watched)


def remove_watched(path: str | os.PathLike[str]) -> None:
    """Remove a directory the janitor watches, then tell it so (what :func:`own` calls on one).

    >>> import tempfile
    >>> d = tempfile.mkdtemp(); watch_directory(d); remove_watched(d); os.path.exists(d)
    False
    """
    remove_tree(path)
    forget(os.fspath(path))


#: pidfd_send_signal's flag (``PIDFD_SIGNAL_PROCESS_GROUP``, <linux/pidfd.h>, Linux 6.9+; Python names it nowhere): the
#: signal goes to the process group of the pidfd's process, the very group it was in, even after that process died.
_PIDFD_GROUP: Final = 4


def _group_signal() -> bool:
    """Whether this kernel signals a process group through a pidfd (:data:`_PIDFD_GROUP`). A signal 0 to the group
    this process would lead, through a pidfd of itself, asks without signalling anything: the kernel refuses an
    unknown flag (EINVAL) before it looks for the group.

    >>> isinstance(_group_signal(), bool)
    True
    """
    if not hasattr(os, "pidfd_open"):
        return False
    try:
        pidfd = os.pidfd_open(os.getpid())
    except OSError:
        return False
    try:
        signal.pidfd_send_signal(pidfd, 0, None, _PIDFD_GROUP)
    except ProcessLookupError:  # the flag is known: this process leads no group
        return True
    except OSError:
        return False
    finally:
        os.close(pidfd)
    return True


#: Whether the sweep signals a group through its leader's pidfd (asked once, :func:`_group_signal`), else by its id
#: while a process known to be in it holds the id (:func:`_signalled`). The rows of the older kernels' way set it False.
_GROUP_SIGNAL: Final = _group_signal()

#: A command's group as the janitor keeps it: its id, its leader's start time, a pidfd of its leader (or None).
_Group = tuple[int, "str | None", "int | None"]


def _pidfd(pgid: int, since: str | None) -> int | None:
    """A pidfd of the group's leader, opened as the janitor is told of the group (its owner still holds the leader
    unreaped), kept only if its start time, read once the descriptor holds it, is the one told: through it the group is
    signalled also after the leader has died (only its members hold the group id then, which no other group can take
    while they live), and never a group that reused the id. None before Linux 5.3, or when the leader is gone."""
    if since is None or not hasattr(os, "pidfd_open"):
        return None
    try:
        pidfd = os.pidfd_open(pgid)
    except OSError:
        return None
    if start_time(pgid) != since:  # it opened another process that reused the id
        os.close(pidfd)
        return None
    return pidfd


def _in_group(pgid: int) -> dict[int, str]:
    """The processes in group ``pgid`` and their start times, zombies too (until reaped, one still holds the id)."""
    members = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None and len(fields) > 19 and fields[2] == str(pgid):
                members[int(entry)] = fields[19]
    return members


def _still_in(pgid: int, known: dict[int, str], running: bool = False) -> bool:
    """Whether one of the processes ``known`` to be in group ``pgid`` (pid -> start time) is still the same process and
    in it: still holds the id, a zombie too; with ``running``, one that has not ended (a zombie is dead)."""
    for pid, since in known.items():
        fields = _stat(pid)
        if (fields is not None and len(fields) > 19 and fields[19] == since and fields[2] == str(pgid)
                and not (running and fields[0] == "Z")):
            return True
    return False


def _known(group: _Group) -> dict[int, str]:
    """The processes known to be in the group as the sweep begins: its leader as told, and every process in it then.
    Its owner held the leader unreaped, the id the group's, until it ended, moments ago; but none if a process of
    another start time holds the leader's id, or the leader's start time was not known (the id was or may be reused)."""
    pgid, since, _pidfd = group
    if since is None or start_time(pgid) not in (None, since):
        return {}
    return {pgid: since, **_in_group(pgid)}


def _more_known(pgid: int, known: dict[int, str]) -> dict[int, str]:
    """``known``, and the processes in the group now if one known held the id before and after they were looked for (it
    held it all the while: they are in the very group, members that joined late too)."""
    found = _in_group(pgid)
    return {**known, **found} if _still_in(pgid, known) else known


def _signalled(group: _Group, signum: int, known: dict[int, str]) -> bool:
    """Send ``signum`` to the group the owner started, late members too; whether it was sent. Through its leader's
    pidfd (:data:`_GROUP_SIGNAL`); elsewhere by the group id while a process ``known`` to be in it still holds the id,
    after its leader has died too (no other group can take the id while one holds it); never to a group that reused
    the id, but for one that took it in the moment between that look and the signal (the id must come round again)."""
    pgid, _since, pidfd = group
    if pidfd is not None and _GROUP_SIGNAL:
        try:
            signal.pidfd_send_signal(pidfd, signum, None, _PIDFD_GROUP)
            return True
        except ProcessLookupError:
            return False  # no member is left
        except OSError:
            pass
    if not _still_in(pgid, known):
        return False
    with contextlib.suppress(OSError):
        os.killpg(pgid, signum)
    return True


def _sweep(directories: dict[str, list[_Group]]) -> None:
    """What a killed owner left: end its commands' groups (SIGINT, the grace period, SIGKILL), remove its directories.

    Each group is signalled as a whole (:func:`_signalled`): members that joined it after the janitor was told (the
    providers Terraform starts) are reached too, also after the leader has died. The grace period ends once none of
    the processes that had the SIGINT runs (a zombie has ended); members that join meanwhile, looked for as it goes
    (:func:`_more_known`), end with the SIGKILL. Without the pidfd's group signal, a group whose last known member ends is left alone: a member that joined it in
    the moment before (within one look, 50 ms) cannot be told by its id from one of a group that reused it.
    """
    groups = [group for groups in directories.values() for group in groups]
    known = {group: _known(group) for group in groups}
    interrupted = [group for group in groups if _signalled(group, signal.SIGINT, known[group])]
    had_sigint = dict(known)  # a member that joins later gets no grace period: it had nothing to end gracefully on
    give_up = time.monotonic() + INTERRUPT_GRACE
    while time.monotonic() < give_up:
        for group in interrupted:
            known[group] = _more_known(group[0], known[group])
        if not any(_still_in(group[0], had_sigint[group], running=True) for group in interrupted):
            break
        time.sleep(0.05)
    for group in interrupted:
        _signalled(group, signal.SIGKILL, _more_known(group[0], known[group]))
    for path in directories:
        shutil.rmtree(path, ignore_errors=True)


def _janitor() -> None:
    """The janitor's life: read what the owner tells until its pipe ends, then :func:`_sweep` what is left. Told of
    the owner's parent (:func:`end_with_parent`), it sends the owner SIGTERM the moment that parent ends."""
    import selectors

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.chdir("/")  # not in a directory it is to remove
    directories: dict[str, list[_Group]] = {}
    selector = selectors.DefaultSelector()
    selector.register(0, selectors.EVENT_READ)
    pending = b""
    while True:
        for key, _events in selector.select():
            if key.fd != 0:  # the owner's parent ended: the owner ends its commands and itself as on SIGTERM
                selector.unregister(key.fd)
                with contextlib.suppress(OSError):
                    signal.pidfd_send_signal(key.data, signal.SIGTERM)
                continue
            data = os.read(0, 65536)
            if not data:  # the pipe ended (what is pending: a message its owner was killed in the middle of writing)
                _sweep(directories)
                return
            *lines, pending = (pending + data).split(b"\n")
            for line in lines:
                try:
                    kind, path, *group = json.loads(line)
                except ValueError:
                    continue
                if kind == "forget":
                    for _pgid, _since, pidfd in directories.pop(path, []):
                        if pidfd is not None:
                            os.close(pidfd)
                elif kind == "parent":
                    owner, parent = _pidfd(group[0], group[1]), _pidfd(group[2], group[3])
                    if owner is not None and parent is not None:
                        selector.register(parent, selectors.EVENT_READ, owner)
                else:
                    found = directories.setdefault(path, [])
                    if kind == "group":
                        found.append((group[0], group[1], _pidfd(group[0], group[1])))


if __name__ == "__main__":
    _janitor()
