"""Emitting the warnings of checks that pass only because something is not known until apply.

A warning names the line of the user's code that ran the check (the first frame outside
plancheck), so pytest's warnings summary and Python's own report point at the test, not at
the library.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Iterable

__all__ = ["emit_warnings"]

#: The package directory whose frames a warning's location skips.
_LIBRARY_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _outside_level() -> int:
    """The ``stacklevel`` of the first frame outside plancheck, counted from the caller of ``warnings.warn``."""
    frame = sys._getframe(1)  # emit_warnings
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(_LIBRARY_DIR):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level


def emit_warnings(found: Iterable[Warning]) -> None:
    """``warnings.warn`` each of ``found``, located at the first caller outside plancheck.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as seen:
    ...     warnings.simplefilter("always")
    ...     emit_warnings([UserWarning("1 of 2 unknown until apply")])
    >>> [str(w.message) for w in seen]
    ['1 of 2 unknown until apply']
    """
    items = list(found)
    if not items:
        return
    level = _outside_level()
    for item in items:
        warnings.warn(item, stacklevel=level)
