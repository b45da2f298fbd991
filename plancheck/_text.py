"""Wording shared by every message of the library: quoting a string, suggesting the closest names, and
naming an exception that user code raised.

Below every layer that writes messages (documents, matchers, checks, the CLI), so each uses
the one copy.
"""

from __future__ import annotations

import difflib
import heapq
import json
import os
from collections.abc import Iterable
from typing import Final

__all__ = ["closest", "exception_message", "exception_text", "quote"]

#: Among more candidates than this, difflib compares only those sharing the longest start and end.
_CLOSEST_SHORTLIST: Final = 300


def quote(text: str) -> str:
    """A string as a JSON literal (non-ASCII kept).

    >>> print(quote('say "hi"'))
    "say \\"hi\\""
    """
    return json.dumps(text, ensure_ascii=False)


def closest(target: str, candidates: Iterable[str], n: int = 3) -> list[str]:
    """The candidates most similar to ``target`` (difflib ratio at least 0.6), best first.

    Among many candidates, difflib's full comparison (seconds for 20,000 addresses) is
    kept for the few hundred sharing the longest start and end with ``target``.

    >>> closest("null_resource.b", ["null_resource.a", "aws_instance.x"])
    ['null_resource.a']
    >>> closest("regoin", ["region", "zone", "regions"], n=1)
    ['region']
    """
    pool = list(candidates)
    if len(pool) > _CLOSEST_SHORTLIST:
        reversed_target = target[::-1]

        def shared_ends(candidate: str) -> int:
            # Character by character is meant: addresses are not paths.
            start = os.path.commonprefix((target, candidate))  # noqa: RUF071
            end = os.path.commonprefix((reversed_target, candidate[::-1]))  # noqa: RUF071
            return len(start) + len(end)

        pool = heapq.nlargest(_CLOSEST_SHORTLIST, pool, key=shared_ends)
    return difflib.get_close_matches(target, pool, n=n, cutoff=0.6)


def exception_text(exc: BaseException) -> str:
    """``Type: message``, or ``Type`` alone when the message is empty or cannot be made; never raises.

    Every front end (pytest hooks and fixtures, sweepers, the command line, ``assert_*``) names a
    user's exception through this one function: an exception whose ``str()`` raises (or returns
    no str) is still reported, by its type's name, instead of ending the run with a second error.

    >>> exception_text(ValueError("bad region"))
    'ValueError: bad region'
    >>> exception_text(SystemExit(3))
    'SystemExit: 3'
    >>> class Odd(Exception):
    ...     def __str__(self):
    ...         raise RuntimeError("no text")
    >>> exception_text(Odd())
    'Odd'
    """
    try:
        name = str(type(exc).__name__)
    except Exception:  # a metaclass whose __name__ is not a str
        name = "exception"
    text = exception_message(exc)
    return f"{name}: {text}" if text else name


def exception_message(exc: BaseException) -> str:
    """``str(exc)``, or ``""`` when that raises or gives no str (see :func:`exception_text`); never raises.

    >>> exception_message(ValueError("bad region")), exception_message(ValueError())
    ('bad region', '')
    """
    try:
        text = str(exc)
    except KeyboardInterrupt:
        raise
    except BaseException:  # a __str__ may raise anything, SystemExit included
        return ""
    return text if isinstance(text, str) else ""
