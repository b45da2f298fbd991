"""One process lifecycle: SIGTERM and SIGHUP end the library's work the way Ctrl-C does.

Every Terraform command runs in a process group of its own (see :func:`plancheck._terraform.run_command`),
so a Ctrl-C at the terminal reaches only the Python process; its ``KeyboardInterrupt`` unwinds through
the library, which interrupts the command's group, removes its temporary files and sockets, and
destroys (or keeps as a leftover) what the test case created. SIGTERM (what a CI system sends to cancel
a job) and SIGHUP (a closed terminal) would instead end the Python process at once, leaving all of that
behind. While library work runs, :func:`ending_on_signals` turns them into :class:`Terminated`, a
``KeyboardInterrupt``, so they take the very same path; when the outermost such work has unwound, the
signal is delivered again to whatever handled it before (by default: the process ends with it, status
128 + its number, as it would have without the library). A front end that has more to clean up after
the library's work (the pytest plugin: the session's fixtures and reports) holds the delivery back with
:func:`deferring_delivery` until it is done (it and the scopes' state live in :mod:`.delivery`, all the plugin imports
in a session that starts nothing).

A signal can land anywhere, also between the line that makes a process, a server or a temporary directory
and the ``try`` whose ``finally`` would remove it, or inside that ``finally`` before it holds the signals
back. So what the library starts is *owned* from the moment it exists: made with the signals held back
(:func:`owning`, :func:`start_held`) and registered with its removal before they are let in. Its owner
removes it as usual (:func:`release`, signal-held, idempotent); what a signal kept its owner from
removing is removed by the :func:`ending_on_signals` scope it was made in as the interrupt leaves it
(each enclosing scope tries again), and, outside any scope, when the process exits.

This is the one lifecycle of every process the library starts: Terraform's commands and the provider
servers (:mod:`plancheck._terraform`), the ``--jobs`` workers (:mod:`plancheck._terraform.lifecycle`) and
the loader's helper for a large standard-library load (:mod:`plancheck._loading.parallel`); it lives in
the loading layer, the lowest that starts a process, so that all of them can follow it.

Only the main thread can handle signals: elsewhere (and on platforms without these signals) the scope
does nothing. A signal that is ignored (``nohup`` ignores SIGHUP) or handled outside Python stays so.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import itertools
import os
import shutil
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Final, NoReturn, TypeVar

from tfjsonpath._errors import PicklesFields, public

from .delivery import (
    _SCOPE,
    SIGNALS,
    _deliver,
    _Handler,
    _in_main_thread,
    deferring_delivery,
    end_with,
    ending_by,
    pending_signal,
    run_ending,
)

__all__ = [
    "HELD",
    "SIGNALS",
    "Terminated",
    "deferring_delivery",
    "ending_on_signals",
    "own",
    "owning",
    "pending_signal",
    "release",
    "remove_tree",
    "signals_held",
    "start_afresh",
    "start_held",
    "temporary_directory",
    "terminate",
]

_P = TypeVar("_P")


@public("plancheck.acceptance")
class Terminated(PicklesFields, KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived while the library's processes ran: it unwinds as a Ctrl-C does.

    >>> exc = Terminated(int(signal.SIGTERM))
    >>> isinstance(exc, KeyboardInterrupt), exc.signum == signal.SIGTERM, str(exc)
    (True, True, 'SIGTERM received: the commands were ended, their files removed, and the case destroyed or kept')
    """

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(
            f"{_name(signum)} received: the commands were ended, their files removed, and the case destroyed or kept"
        )


def _name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


#: The order in which resources were made and scopes entered: a scope removes what was made after it began.
_SERIALS: Final = itertools.count()


def _on_signal(signum: int, _frame: FrameType | None) -> None:
    if _SCOPE.pending is None:
        _SCOPE.pending = signum
    raise Terminated(signum)


def terminate(signum: int) -> NoReturn:
    """End this process with ``signum`` as a signal caught during library work ends it: where a scope or a front
    end's deferral (:func:`deferring_delivery`) delivers it again once its cleanup is done, raise
    :class:`Terminated` with it pending; elsewhere deliver it now, with its default action.

    For a handler of the front ends' that has done its own part first (pytest-xdist's controller, its workers
    ended): the pytest session then finishes as after a Ctrl-C (reports, JUnit XML) and ends with the signal.

    >>> with deferring_delivery():
    ...     try:
    ...         terminate(int(signal.SIGTERM))
    ...     except Terminated as exc:
    ...         caught = (exc.signum, _SCOPE.pending)
    ...         _SCOPE.pending = None   # not delivered to this doctest's process
    >>> caught == (signal.SIGTERM, signal.SIGTERM)
    True
    """
    if _SCOPE.depth or _SCOPE.deferrals:
        _on_signal(signum, None)
    end_with(signum)


@contextlib.contextmanager
def ending_on_signals() -> Iterator[None]:
    """While the body runs, SIGTERM and SIGHUP raise :class:`Terminated` in the main thread; afterwards they are
    delivered again, to the handlers they had before (unless :func:`deferring_delivery` holds them back).

    Scopes nest: only the outermost installs and restores the handlers and delivers the signal.

    >>> with ending_on_signals():
    ...     signal.getsignal(signal.SIGTERM) is _on_signal
    True
    >>> signal.getsignal(signal.SIGTERM) is _on_signal
    False

    Inside, ``signal.raise_signal(signal.SIGTERM)`` raises :class:`Terminated`; after the outermost scope the
    signal is raised again, and with the default handler back, the process ends with it (status 143).
    """
    if not SIGNALS or not _in_main_thread():
        yield
        return
    outermost = _SCOPE.depth == 0
    if outermost:
        for signum in SIGNALS:
            previous = signal.getsignal(signum)
            # Ignored stays ignored (nohup); a handler installed outside Python could not be put back.
            if previous is not None and previous != signal.SIG_IGN:
                signal.signal(signum, _on_signal)
                _SCOPE.previous[signum] = previous
    _SCOPE.depth += 1
    since = next(_SERIALS)
    try:
        yield
    except KeyboardInterrupt:
        # What a signal kept its owner from removing (it landed before the owner's try, or in its finally).
        _release_since(since, _maker())
        raise
    finally:
        _SCOPE.depth -= 1
        if outermost:
            if _SCOPE.deferrals == 0 and _SCOPE.pending is not None and \
                    _SCOPE.previous.get(_SCOPE.pending) == signal.SIG_DFL:
                # It ends the process: before its default action is back, which a second signal would meet.
                end_with(_SCOPE.pending)
            while _SCOPE.previous:
                signum, previous = _SCOPE.previous.popitem()
                assert previous is not None
                signal.signal(signum, previous)
            if _SCOPE.deferrals == 0 and _SCOPE.pending is not None:
                _deliver(_SCOPE.pending)


def _left_to_the_parent(_signum: int, _frame: FrameType | None) -> None:
    """A worker's Ctrl-C: nothing (its parent ends it with SIGTERM); reset to the default in what it runs."""


def start_afresh() -> None:
    """In a worker process forked from a process inside :func:`ending_on_signals`: forget the parent's scopes.

    The child inherits the parent's handlers and its scope depth, so its own work would never be the
    outermost scope: a SIGTERM would raise where nothing unwinds it, or end it before its Terraform
    commands were ended. Afterwards the termination signals have their default action (the worker ends at
    once when idle) and the worker's own :func:`ending_on_signals` scopes work as in any process: the
    signal unwinds its work (ending its commands' process groups), then ends it. Ctrl-C does nothing: it
    reaches the whole foreground group, and the parent, which owns the workers, ends them with SIGTERM. (A
    handler that does nothing, not SIG_IGN: an ignored signal stays ignored in the programs a worker runs, and
    Terraform, interrupted at the end of its grace period, would be killed instead of stopping its providers.)

    >>> import multiprocessing, sys
    >>> def child():
    ...     start_afresh()
    ...     sys.exit(0 if signal.getsignal(signal.SIGINT) is _left_to_the_parent and _SCOPE.depth == 0 else 1)
    >>> with ending_on_signals():
    ...     worker = multiprocessing.get_context("fork").Process(target=child)
    ...     worker.start(); worker.join()
    >>> worker.exitcode
    0
    """
    _SCOPE.depth = _SCOPE.deferrals = 0
    _SCOPE.previous.clear()
    _SCOPE.pending = None
    _SCOPE.owned.clear()  # the parent's: the parent removes them
    if _in_main_thread():
        signal.signal(signal.SIGINT, _left_to_the_parent)
        for signum in SIGNALS:
            signal.signal(signum, signal.SIG_DFL)


#: What :func:`signals_held` and :func:`start_held` hold back: Ctrl-C and the termination signals.
HELD: Final[tuple[int, ...]] = (int(signal.SIGINT), *SIGNALS)


def start_held(start: Callable[[], _P], end: Callable[[_P], object]) -> _P:
    """``start()`` a process with Ctrl-C and the termination signals held back; one that came meanwhile ends it.

    ``subprocess.Popen`` returns only after the child has run its program, so a signal that interrupts it
    arrives while the child runs but before any caller holds it: nothing would end the child. Held back,
    such a signal is given to ``end(process)`` first and then raised again where it was held, with the
    handlers that were in place (``KeyboardInterrupt``, :class:`Terminated`) to take its usual path
    (:func:`signals_held`).

    The process is owned (see the module) before any signal is let in: its caller ends it and then calls
    :func:`release`; a signal before the caller's ``try`` leaves ``end(process)`` to the scope.

    >>> release(start_held(lambda: "started", lambda process: None))
    >>> import os, signal
    >>> ended = []
    >>> try:
    ...     start_held(lambda: os.kill(os.getpid(), signal.SIGINT) or "started", ended.append)
    ... except KeyboardInterrupt:
    ...     print("interrupted after ending", ended)
    interrupted after ending ['started']
    """
    with signals_held() as caught:
        process = own(start(), end)
        if caught:  # end it now, before the signal unwinds the caller (a later one leaves it to its owner's scope)
            release(process, end=True)
    return process


def own(resource: _P, end: Callable[[_P], object]) -> _P:
    """Register ``resource``, just made with the signals held back (:func:`signals_held`), with its removal:
    from now on a signal cannot leave it behind. Its owner removes it and then calls :func:`release`.

    >>> with signals_held():
    ...     d = own(tempfile.mkdtemp(), shutil.rmtree)
    >>> release(d, end=True)
    >>> os.path.exists(d)
    False
    """
    _SCOPE.owned[resource] = (next(_SERIALS), _maker(), functools.partial(end, resource))
    return resource


def release(resource: object, *, end: bool = False) -> None:
    """``resource`` is no longer owned: its owner removed it (or, with ``end``, its registered removal runs now).

    Signal-held and idempotent: releasing what is not owned (released already) does nothing.

    >>> release("never owned")
    """
    with signals_held():
        entry = _SCOPE.owned.pop(resource, None)
        if end and entry is not None:
            entry[2]()


@contextlib.contextmanager
def owning(create: Callable[[], _P], remove: Callable[[_P], object]) -> Iterator[_P]:
    """``create()`` a resource (a temporary directory) and ``remove`` it when the body is done, also after a
    signal: it is owned from the moment it exists (made with the signals held back, registered before they
    are let in), and removed with the signals held back.

    >>> with owning(tempfile.mkdtemp, shutil.rmtree) as d:
    ...     os.path.isdir(d)
    True
    >>> os.path.exists(d)
    False
    """
    with signals_held():
        resource = own(create(), remove)
    try:
        yield resource
    finally:
        release(resource, end=True)


def temporary_directory(prefix: str, base: str | None = None) -> contextlib.AbstractContextManager[str]:
    """A new private directory (in ``base``, else the temporary directory) :func:`owning`: removed with all it
    holds when the body is done, also after a signal.

    >>> with temporary_directory("tfplancheck-doc-") as d:
    ...     os.path.basename(d).startswith("tfplancheck-doc-")
    True
    >>> os.path.exists(d)
    False
    """
    return owning(functools.partial(tempfile.mkdtemp, prefix=prefix, dir=base), remove_tree)


def remove_tree(directory: str | os.PathLike[str]) -> None:
    """Remove ``directory`` and all it holds, as far as it can: what :func:`own` calls on a temporary directory
    (one already gone, or a file in it another process holds, is no reason to fail the cleanup).

    >>> d = tempfile.mkdtemp()
    >>> os.mkdir(os.path.join(d, "sub")); remove_tree(d); os.path.exists(d)
    False
    """
    shutil.rmtree(directory, ignore_errors=True)


def _maker() -> tuple[int, int]:
    """Who makes a resource: this process (a forked child must not remove its parent's) and thread (a scope, in
    the main thread, must not end what another thread is still using)."""
    return os.getpid(), threading.get_ident()


def _release_since(since: int, maker: tuple[int, int] | None = None) -> None:
    """Remove, newest first, what was made after ``since`` (by ``maker``, else by any thread of this process) and
    is still owned; the signals held back."""
    with signals_held():
        pid = os.getpid()
        # In the order they were first registered, that is made: the newest is removed first. (A copy: another
        # thread may own or release meanwhile.)
        left = [resource for resource, (serial, made_by, _end) in list(_SCOPE.owned.items())
                if serial > since and (made_by == maker if maker is not None else made_by[0] == pid)]
        for resource in reversed(left):
            entry = _SCOPE.owned.pop(resource, None)
            if entry is not None:
                with contextlib.suppress(Exception):  # one failing removal must not keep the others from running
                    entry[2]()


@atexit.register
def _release_all() -> None:
    """At exit (outside any scope: a ``ProviderServer`` used by hand): what this process still owns; then what
    the layers above do as the process ends (:func:`~.delivery.on_ending`), with nothing of it left by then."""
    _release_since(-1)
    run_ending()


@contextlib.contextmanager
def signals_held() -> Iterator[list[int]]:
    """Hold Ctrl-C and the termination signals back while the body runs; one that came meanwhile is raised
    again as the body is done (also when the body raised). For making and registering what a signal must not
    leave behind, and for the last steps of ending a command (killing its group, reaping it), which a further
    signal must not cut short: a worker gets SIGHUP or SIGTERM sent to its group and its parent's SIGTERM on top,
    and the second would otherwise raise in the middle of the first one's cleanup. It gives the list of the
    signals caught so far.

    Held by handlers, not by the signal mask: a child started in the body would inherit the mask, and a mask is
    the calling thread's: in a process with other threads (gRPC's, a test runner's) the kernel gives a signal sent
    to the process to a thread that does not block it, and its handler then runs in the main thread in the middle
    of the body. (Python runs handlers in the main thread only, so in another thread there is nothing to hold.)

    >>> try:
    ...     with signals_held():
    ...         signal.raise_signal(signal.SIGINT)
    ...         print("not interrupted")
    ... except KeyboardInterrupt:
    ...     print("then interrupted")
    not interrupted
    then interrupted
    """
    caught: list[int] = []
    if not _in_main_thread():
        yield caught
        return
    previous: dict[int, _Handler] = {}

    def hold(signum: int, _frame: FrameType | None) -> None:
        caught.append(signum)

    try:
        for signum in HELD:
            handler = signal.getsignal(signum)
            if handler is None or handler == signal.SIG_IGN:
                continue  # ignored stays ignored; a handler installed outside Python could not be put back
            previous[signum] = handler
            signal.signal(signum, hold)
        yield caught
    finally:
        _put_back(previous)
        _raise_again(caught)  # a held signal is never lost


def _put_back(previous: dict[int, _Handler]) -> None:
    for signum, handler in previous.items():
        assert handler is not None
        signal.signal(signum, handler)


def _raise_again(caught: list[int]) -> None:
    for signum in dict.fromkeys(caught):
        ending_by(signum)
        signal.raise_signal(signum)
