"""When a termination signal the library's work caught is delivered again: the state of the signal scopes of
:mod:`plancheck._loading.lifecycle`, and the front ends' hold on the delivery (:func:`deferring_delivery`).

Apart from the lifecycle because the pytest plugin holds the delivery back in every session, before any test
can start Terraform: this is all it imports for that, not the scopes, the owned resources or the errors under
:class:`~plancheck._loading.lifecycle.Terminated` (#34: every module a plain session imports costs it pytest's
assertion rewriter's look).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Final, TypeAlias

__all__ = ["SIGNALS", "deferring_delivery", "pending_signal"]

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


def _in_main_thread() -> bool:
    # Python runs signal handlers in the main thread only, and only there may they be installed.
    return threading.current_thread() is threading.main_thread()


def _deliver(signum: int) -> None:
    """Send the signal caught during the library's work again, now that its cleanup is done (its callers ask
    only when one was caught: most scopes end with none)."""
    _SCOPE.pending = None
    # Its previous handler is back: the default ends the process with it; a handler of the user's runs now.
    signal.raise_signal(signum)


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
