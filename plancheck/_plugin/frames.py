"""Withholding what pytest shows of plancheck's own frames in a failure: their arguments and local variables.

A failure raised out of plancheck (``load_plan`` refusing a document, a check failing in ``assert_plan``) is
shown by pytest frame by frame, with each frame's arguments (``--tb=long``, ``--fulltrace``) and, with ``-l``,
its locals: the raw document's bytes, its parsed dict, the values a check compared. The session's scrub knows
the secrets of the documents that loaded, never those of one that failed to load. The plugin's report hooks
(:mod:`plancheck._plugin.hooks`) hand every failure drawn frame by frame to :func:`withhold_library_frames`;
this module is imported only then, so a passing session never loads it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from typing import Any, Final

__all__ = ["FRAME_WITHHELD", "TRACEBACK_WITHHELD", "withhold_library_frames"]

#: What pytest shows instead of each argument's and local's value in a frame of plancheck's (or one it called).
FRAME_WITHHELD: Final = "(withheld: plancheck's data)"
#: A failure's whole text, when it passes through plancheck's frames and its rendering is of an unknown shape.
TRACEBACK_WITHHELD: Final = (
    "plancheck: this failure's traceback is withheld because it passes through plancheck's frames and "
    "pytest rendered it as a {shape}, whose frames' data plancheck cannot withhold; run with "
    "--tf-show-sensitive locally to see it"
)
_LIBRARIES: Final = ("plancheck", "tfjsonpath")


def _library_roots() -> tuple[str, ...]:
    """The directories of plancheck and tfjsonpath (one not imported has no frame to show), each ending in a separator."""
    roots = []
    for name in _LIBRARIES:
        module = sys.modules.get(name)
        file = getattr(module, "__file__", None)
        if isinstance(file, str):
            roots.append(os.path.join(os.path.dirname(os.path.abspath(file)), ""))
    return tuple(roots)


def _inside(path: object, roots: tuple[str, ...]) -> bool:
    """Whether ``path`` (absolute, or relative to the working directory as pytest shows it) is in one of ``roots``.

    >>> _inside("/site/plancheck/_loading/load.py", ("/site/plancheck/",)), _inside("/site/plancheck_x.py", ("/site/plancheck/",))
    (True, False)
    """
    return os.path.abspath(os.fspath(path)).startswith(roots) if isinstance(path, (str, os.PathLike)) else False


def _chained(exc: BaseException | None) -> Iterator[BaseException]:
    """``exc``, the exceptions chained to it (cause, context) and those grouped in it, each once."""
    seen: set[int] = set()
    stack: list[BaseException | None] = [exc]
    while stack:
        current = stack.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        stack.extend((current.__cause__, current.__context__))
        if isinstance(current, BaseExceptionGroup):
            stack.extend(current.exceptions)


def _passes_through(exc: BaseException | None, roots: tuple[str, ...]) -> bool:
    """Whether a frame of ``exc``'s traceback, or of an exception chained to it or grouped in it, is in ``roots``."""
    for current in _chained(exc):
        tb = current.__traceback__
        while tb is not None:
            if _inside(tb.tb_frame.f_code.co_filename, roots):
                return True
            tb = tb.tb_next
    return False


def _failed_load(exc: BaseException | None) -> bool:
    """Whether a document failed to load in ``exc`` (or an exception chained to it): then no scrub knows its secrets,
    and the frames that handed it to plancheck (the test's, holding the text it read) show them as much."""
    errors = sys.modules.get("plancheck._errors")  # not imported: no document was ever loaded
    base = getattr(errors, "DocumentFormatError", None)
    return isinstance(base, type) and any(isinstance(current, base) for current in _chained(exc))


def _withheld_locals(lines: Sequence[str]) -> list[str]:
    """pytest's ``name = value`` lines of a frame's locals, each value withheld (a line of another form whole).

    >>> _withheld_locals(["data       = b'{...}'", "__builtins__ = <builtins>", "odd"])
    ["data       = (withheld: plancheck's data)", "__builtins__ = (withheld: plancheck's data)", "(withheld: plancheck's data)"]
    """
    return [f"{line.partition(' = ')[0]} = {FRAME_WITHHELD}" if " = " in line else FRAME_WITHHELD for line in lines]


def _withhold_entries(longrepr: Any, roots: tuple[str, ...], *, everywhere: bool) -> str | None:
    """Withhold, in place, the arguments and locals of every entry from the first of plancheck's on (of every entry,
    if ``everywhere``), in each traceback of ``longrepr``; the name of the shape met that is not pytest's known one,
    or None."""
    from _pytest._code.code import ReprEntry, ReprEntryNative, ReprFuncArgs, ReprLocals

    chain = getattr(longrepr, "chain", None)
    tracebacks = [link[0] for link in chain] if isinstance(chain, list) else [getattr(longrepr, "reprtraceback", longrepr)]
    for reprtraceback in tracebacks:
        entries = getattr(reprtraceback, "reprentries", None)
        if not isinstance(entries, list):
            return type(reprtraceback).__name__
        called = everywhere  # a frame after one of plancheck's was called by it: it was handed plancheck's data
        for entry in entries:
            if isinstance(entry, ReprEntryNative):
                continue  # Python's own traceback text: no arguments, no locals
            if not isinstance(entry, ReprEntry):
                return type(entry).__name__
            location = entry.reprfileloc
            # An entry located nowhere shows no frame's data; one that would anyway is withheld (failing closed).
            called = called or location is None or _inside(location.path, roots)
            if not called:
                continue
            if entry.reprfuncargs is not None:
                entry.reprfuncargs = ReprFuncArgs([(name, FRAME_WITHHELD) for name, _value in entry.reprfuncargs.args])
            if entry.reprlocals is not None:
                entry.reprlocals = ReprLocals(_withheld_locals(entry.reprlocals.lines))
    return None


def withhold_library_frames(report: Any, excinfo: Any = None) -> None:
    """Withhold the data pytest shows of plancheck's frames in ``report``'s failure: their arguments and locals.

    A failure raised out of plancheck (``load_plan`` refusing a document, a check failing in ``assert_plan``) is
    shown frame by frame, with each frame's arguments (``--tb=long``, ``--fulltrace``) and locals (``-l``): the
    raw document's bytes, its parsed dict, the values a check compared. The session's scrub knows the secrets of
    the documents that loaded, never those of one that failed to load. So the values are withheld, names kept, in
    every frame in ``plancheck/`` or ``tfjsonpath/`` and every frame such a frame called (``json``, a user's check:
    handed plancheck's data), and in every frame when a document failed to load (the test's holds the text it
    read); before xdist serialises the report, so the terminal, JUnit XML and workers agree. A rendering of a
    shape this does not know, through plancheck's frames, is withheld whole (failing closed). ``excinfo`` (the
    failure's ``pytest.ExceptionInfo``, when known) says whether plancheck's frames are in it at all; without it,
    a rendering of an unknown shape is left as it is (a plugin's own, none of pytest's frames).

    >>> import plancheck
    >>> from types import SimpleNamespace
    >>> from _pytest._code.code import ReprEntry, ReprFileLocation, ReprFuncArgs, ReprTraceback
    >>> where = ReprFileLocation(os.path.join(os.path.dirname(plancheck.__file__), "load.py"), 1, "PlanFormatError")
    >>> entry = ReprEntry([], ReprFuncArgs([("data", "b'hunter2'")]), None, where, "long")
    >>> withhold_library_frames(SimpleNamespace(longrepr=ReprTraceback([entry], None, "long")))
    >>> entry.reprfuncargs.args
    [('data', "(withheld: plancheck's data)")]
    """
    try:
        roots = _library_roots()
        exc = getattr(excinfo, "value", None)
        shape = _withhold_entries(report.longrepr, roots, everywhere=_failed_load(exc))
        if shape is None or excinfo is None or not _passes_through(exc, roots):
            return
    except Exception as exc:  # a hook must never raise; pytest's internals moved: the text is withheld
        shape = type(exc).__name__
    report.longrepr = TRACEBACK_WITHHELD.format(shape=shape)
