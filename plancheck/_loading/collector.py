"""Building or walking a large parsed document without the cyclic garbage collector, which has nothing to find in it."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_off"]


class _Pauses:
    """The pauses under way in the process: the collector is one switch for every thread."""

    lock = threading.Lock()
    depth = 0
    #: Whether the collector was on when the first pause began: what the last one to end restores.
    restore = False


@contextmanager
def collector_off(*, promote: bool = False) -> Iterator[None]:
    """Run work that allocates much and makes no reference cycle without the cyclic garbage collector.

    A freshly loaded plan is millions of containers that the collector has not yet visited in a
    full collection; the young collections that a walk over it (collecting secrets, rendering a
    snapshot, comparing one) sets off promote its short-lived objects until one becomes due, and
    that visits the whole plan for nothing: a plan holds no cycle. What the work keeps is
    collected as usual afterwards.

    ``promote=True`` is for building a parsed tree: each of its containers would be traversed by
    every young collection that runs while it is being built, and again when promoted. What was
    built is then moved to the oldest generation (``gc.freeze()`` + ``gc.unfreeze()``, both O(1)):
    parsing an entry of a plan costs a third as much. Nothing is kept from collection: other
    objects created meanwhile are collected by the next full collection instead of a young one.
    When the program froze objects itself (``gc.freeze()`` before forking workers), only the pause
    is used, so its frozen objects stay frozen.

    Pauses nest and overlap across threads: the collector is turned off when the first begins and
    restored, as it was then, when the last ends (each thread restoring what it saw would leave it
    off for good when two pauses interleave).

    >>> with collector_off():
    ...     gc.isenabled()
    False
    >>> with collector_off(promote=True):
    ...     gc.isenabled()
    False
    """
    with _Pauses.lock:
        if _Pauses.depth == 0:
            _Pauses.restore = gc.isenabled()
            gc.disable()
        _Pauses.depth += 1
    try:
        yield
    finally:
        if promote and gc.get_freeze_count() == 0:
            gc.freeze()
            gc.unfreeze()
        with _Pauses.lock:
            _Pauses.depth -= 1
            if _Pauses.depth == 0 and _Pauses.restore:
                gc.enable()
