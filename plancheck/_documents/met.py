"""Telling a front end of every document the library reads, so that its one scrub knows every secret.

A front end scrubs what it writes of the secrets it knows: the pytest plugin those of the plans and
states its fixtures loaded, the command line those of the plan it read. But a test may load a plan
itself (``plancheck.load_plan``), and a snapshot file may hold a secret in clear: what such a
document holds would reach the report unscrubbed. So every plan and state, as it is made, and every
set of secrets found elsewhere (a snapshot file's values at paths the plan marks sensitive), is
passed to the listeners of this module; a front end listens for as long as it writes (the plugin
for its session, the command line for one run). Nothing is collected here: a listener keeps what
it is given and asks for its ``secrets`` only when it has something to scrub.

Test coverage (``pytest --tf-cov``) needs three more events, which only its watchers hear: a plan
made from a configuration directory (:func:`planned_in`, said by whoever knows the directory: the
acceptance runner), a check run on a document (:func:`checked`, said by the one check runner) and
the conditions an expected diagnostic located (:func:`failed_in`, said by the acceptance runner).
With no watcher each costs one look-up. The directory a plan was planned in is also kept while the plan
lives (:func:`directory_of`), watched or not: a plan's pickle carries it, so that a plan loaded again, in
this process or another, is still its module's.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = [
    "LISTENERS",
    "WATCHERS",
    "checked",
    "directory_of",
    "failed_in",
    "heard_only_by",
    "listen",
    "listening",
    "met",
    "planned_in",
    "watch",
]

#: The listeners, in the order they began to listen. Read by a document's constructor before it calls
#: :func:`met`: without a listener, making a document passes through nothing of this.
LISTENERS: list[Callable[[Any], None]] = []
#: The coverage watchers: told ("planned", plan, directory), ("checked", document, check) and ("failed", directory,
#: located conditions). Read by the check
#: runner before it calls :func:`checked`: without a watcher, a check's route passes through nothing of this.
WATCHERS: list[Callable[[str, Any, Any], None]] = []
#: The directory each plan still alive was planned in (:func:`planned_in`), kept without keeping the plan alive.
_PLANNED_IN: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def met(found: Any) -> None:
    """Tell every listener of ``found``: a document (with a ``secrets`` attribute) or a :class:`plancheck.Secrets`.

    >>> seen = []
    >>> with listening(seen.append):
    ...     met("a document")
    >>> met("unheard"); seen
    ['a document']
    """
    for listener in tuple(LISTENERS):
        listener(found)


@contextmanager
def listening(listener: Callable[[Any], None]) -> Iterator[None]:
    """Within this block, ``listener`` is told of every document made and every secret found.

    >>> with listening(print):
    ...     met("plan")
    plan
    """
    LISTENERS.append(listener)
    try:
        yield
    finally:
        LISTENERS.remove(listener)


@contextmanager
def heard_only_by(listener: Callable[[Any], None]) -> Iterator[None]:
    """Within this block, only ``listener`` is told (the listeners outside hear nothing of it).

    For work done for a front end as a worker process would do it: ``tfplancheck PLAN PLAN ...`` checks each
    plan apart, and scrubs each plan's part of the output with that plan's secrets, the same whether the plan
    was read in a worker or, with ``--jobs 1``, in the command's own process.

    >>> outer, inner = [], []
    >>> with listening(outer.append), heard_only_by(inner.append):
    ...     met("plan")
    >>> outer, inner
    ([], ['plan'])
    """
    saved = LISTENERS[:]
    LISTENERS[:] = [listener]
    try:
        yield
    finally:
        LISTENERS[:] = saved


def listen(listener: Callable[[Any], None]) -> Callable[[], None]:
    """Start ``listener`` listening until the function returned is called (for a listener that outlives a block).

    >>> stop = listen(print)
    >>> met("state")
    state
    >>> stop(); met("not printed")
    """
    return _joined(LISTENERS, listener)


def watch(watcher: Callable[[str, Any, Any], None]) -> Callable[[], None]:
    """Start ``watcher`` watching plans made in a directory and checks run, until the function returned is called.

    >>> from plancheck import Plan
    >>> seen, plan = [], Plan({"format_version": "1.2"})
    >>> stop = watch(lambda event, document, detail: seen.append((event, document is plan, detail)))
    >>> planned_in(plan, "/modules/net"); checked(plan, "a check"); stop()
    >>> checked(plan, "unseen"); seen
    [('planned', True, '/modules/net'), ('checked', True, 'a check')]
    """
    return _joined(WATCHERS, watcher)


def _joined(audience: list[Any], member: Any) -> Callable[[], None]:
    """Add ``member`` to ``audience``; the function returned takes it out again (once, whenever it is called)."""
    audience.append(member)

    def stop() -> None:
        if member in audience:
            audience.remove(member)

    return stop


def planned_in(plan: Any, directory: Any) -> None:
    """Tell every watcher that ``plan`` was made from the configuration in ``directory`` (a path; None: not known),
    and keep the directory for as long as the plan lives (:func:`directory_of`).

    >>> from plancheck import Plan
    >>> planned_in(Plan({"format_version": "1.2"}), "/tmp")
    """
    if directory is None:
        return
    _PLANNED_IN[plan] = directory  # kept unwatched too: a plan made where nobody watches may be pickled to a watcher
    for watcher in tuple(WATCHERS):
        watcher("planned", plan, directory)


def directory_of(plan: Any) -> Any:
    """The directory ``plan`` was planned in (:func:`planned_in`), None when not known: what its pickle carries.

    >>> from plancheck import Plan
    >>> plan = Plan({"format_version": "1.2"}); planned_in(plan, "/modules/net")
    >>> directory_of(plan), directory_of(Plan({"format_version": "1.2"}))
    ('/modules/net', None)
    """
    return _PLANNED_IN.get(plan)


def checked(document: Any, check: Any) -> None:
    """Tell every watcher that ``check`` ran on ``document`` (whatever its outcome).

    >>> checked("nobody watches", "a check")
    """
    if WATCHERS:
        for watcher in tuple(WATCHERS):
            watcher("checked", document, check)


def failed_in(directory: Any, located: Any) -> None:
    """Tell every watcher that Terraform reported, planning the configuration in ``directory``, the conditions
    ``located`` failing: (condition kind, file relative to ``directory``, line), never a message.

    >>> failed_in("/modules/net", [("validation", "main.tf", 3)])
    """
    if directory is None or not located:
        return
    for watcher in tuple(WATCHERS):
        watcher("failed", directory, tuple(located))
