"""When a termination signal the library's work caught is delivered again: the state of the signal scopes of
:mod:`plancheck._loading.lifecycle`, and the front ends' hold on the delivery (:func:`deferring_delivery`).

Apart from the lifecycle because the pytest plugin holds the delivery back in every session, before any test
can start Terraform: this is all it imports for that, not the scopes, the owned resources or the errors under
:class:`~plancheck._loading.lifecycle.Terminated` (#34: every module a plain session imports costs it pytest's
assertion rewriter's look).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Final, NoReturn, TypeAlias

__all__ = ["SIGNALS", "deferring_delivery", "end_with", "ending_by", "on_ending", "pending_signal", "run_ending"]

#: The signals turned into :class:`Terminated` while library work runs (SIGINT already raises KeyboardInterrupt).
SIGNALS: Final[tuple[int, ...]] = tuple(
    int(getattr(signal, name)) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)

_Handler: TypeAlias = "Callable[[int, FrameType | None], object] | int | signal.Handlers | None"


class _Scope:
    """The state of the handlers: touched only from the main thread (the only one signals reach)."""

    def __init__(self) -> None:
        self.depth = 0
        self.deferrals = 0
        self.previous: dict[int, _Handler] = {}
        self.pending: int | None = None
        #: What the library started and has not removed yet: resource -> (serial, (pid, thread) that made it,
        #: its removal).
        self.owned: dict[object, tuple[int, tuple[int, int], Callable[[], object]]] = {}


_SCOPE: Final = _Scope()

#: What runs as this process ends in a way it sees (:func:`on_ending`).
_ON_ENDING: Final[list[Callable[[], object]]] = []


def _in_main_thread() -> bool:
    # Python runs signal handlers in the main thread only, and only there may they be installed.
    return threading.current_thread() is threading.main_thread()


def _deliver(signum: int) -> None:
    """Send the signal caught during the library's work again, now that its cleanup is done (its callers ask
    only when one was caught: most scopes end with none)."""
    _SCOPE.pending = None
    # Its previous handler is back: the default ends the process with it; a handler of the user's runs now.
    ending_by(signum)
    signal.raise_signal(signum)


def on_ending(callback: Callable[[], object]) -> None:
    """Call ``callback`` as this process ends in a way it sees: at exit, and just before a signal is raised whose
    default action then ends it (:func:`ending_by`). For what a layer above must do then and this one may not import
    (layers import only downward): the janitor's reaping (:mod:`plancheck._terraform.lifecycle`).

    >>> def said():
    ...     print("ending")
    >>> on_ending(said); run_ending()
    ending
    >>> _ON_ENDING.remove(said)
    """
    _ON_ENDING.append(callback)


def ending_by(signum: int) -> None:
    """``signum`` is raised next: if its default action is what it meets (which ends the process), end the process
    with it now (:func:`end_with`: the :func:`on_ending` callbacks first); a handler's signal ends nothing.

    >>> def said():
    ...     print("ending")
    >>> on_ending(said); signal.getsignal(signal.SIGINT) is signal.SIG_DFL   # Python's: KeyboardInterrupt
    False
    >>> ending_by(int(signal.SIGINT))
    >>> _ON_ENDING.remove(said)
    """
    if signal.getsignal(signum) == signal.SIG_DFL:
        end_with(signum)


def _ending_anyway(_signum: int, _frame: FrameType | None) -> None:
    """A signal that comes while this process ends with another one (:func:`end_with`): nothing."""


#: What does nothing while the process ends with a signal: Ctrl-C and the termination signals.
_PARKED: Final[tuple[int, ...]] = (int(signal.SIGINT), *SIGNALS)


def end_with(signum: int) -> NoReturn:
    """End this process with ``signum``'s default action, the :func:`on_ending` callbacks run first, with Ctrl-C and
    the termination signals doing nothing meanwhile: the default action of a second one would end the process in
    the middle of the callbacks. (A pool's workers get it: once one of them has ended, the pool sends each of the
    others SIGTERM on top of their own; a worker killed so as it reaped its janitor left that running, 2 runs in 10.)

    >>> import multiprocessing
    >>> child = multiprocessing.get_context("fork").Process(target=end_with, args=(int(signal.SIGTERM),))
    >>> child.start(); child.join(); child.exitcode == -signal.SIGTERM
    True
    """
    _SCOPE.pending = None
    if _in_main_thread():
        for each in _PARKED:
            handler = signal.getsignal(each)
            if handler is not None and handler != signal.SIG_IGN:  # ignored stays ignored
                signal.signal(each, _ending_anyway)
    run_ending()
    if _in_main_thread():
        signal.signal(signum, signal.SIG_DFL)
    signal.raise_signal(signum)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signum})  # held back by the mask (a worker's end): now it ends
    os._exit(128 + signum)  # not reached: the default action of the signals that end a process ends it


def run_ending() -> None:
    """Run the :func:`on_ending` callbacks (at exit: the lifecycle's own hook calls this): each one, whatever
    another one raised.

    >>> run_ending()
    """
    for callback in _ON_ENDING:
        with contextlib.suppress(Exception):
            callback()


@contextlib.contextmanager
def deferring_delivery() -> Iterator[None]:
    """Hold back the delivery of a signal the library's work caught until the body is done (a front end's own
    cleanup: the pytest plugin's session teardown and reports); it is delivered when the outermost one ends.

    >>> with deferring_delivery():
    ...     pending_signal() is None
    True
    """
    if not SIGNALS or not _in_main_thread():
        yield
        return
    _SCOPE.deferrals += 1
    try:
        yield
    finally:
        _SCOPE.deferrals -= 1
        if _SCOPE.deferrals == 0 and _SCOPE.depth == 0 and _SCOPE.pending is not None:
            _deliver(_SCOPE.pending)


def pending_signal() -> int | None:
    """The termination signal caught during the library's work and not delivered again yet, if any.

    >>> pending_signal() is None
    True
    """
    return _SCOPE.pending
