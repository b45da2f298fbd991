"""Reading the plan or checks file the command line was given: the loader reads, this module words the errors.

The bytes are read once, by :func:`plancheck._loading.load.read_source` (which stops after
``limit`` bytes), so the command line holds no second copy of opening files, reading
streams or enforcing the size limit; it only says what went wrong in its own words.
"""

from __future__ import annotations

import sys
from typing import IO

from .._errors import DocumentFormatError
from .._loading.load import read_source
from .._loading.source import MAX_BYTES_ENV, InputTooLarge

__all__ = ["UnreadableInput", "read_input"]


class UnreadableInput(Exception):
    """A plan or checks file that could not be read: ``reason`` says why, ``limit`` when it was too large.

    >>> str(UnreadableInput("plan", "standard input is closed"))
    'cannot read the plan: standard input is closed'
    >>> str(UnreadableInput("checks file", "", limit=30))
    'the checks file is larger than 30 bytes (raise the limit with --max-bytes or PLANCHECK_MAX_BYTES)'
    """

    def __init__(self, what: str, reason: str, *, limit: int | None = None) -> None:
        self.what = what
        self.reason = reason
        self.limit = limit
        if limit is not None:
            text = f"the {what} is larger than {limit} bytes (raise the limit with --max-bytes or {MAX_BYTES_ENV})"
        else:
            text = f"cannot read the {what}: {reason}"
        super().__init__(text)


class _ReadFailed(DocumentFormatError):
    """The loader's report of a file or stream it could not read (told apart from other format errors)."""


def read_input(name: str, what: str, *, limit: int, stdin: IO[bytes] | None = None) -> bytes:
    """The bytes of file ``name`` (``-``: ``stdin``, else the process's standard input), at most ``limit``.

    >>> import io
    >>> read_input("-", "plan", limit=10, stdin=io.BytesIO(b"{}"))
    b'{}'
    >>> read_input("-", "plan", limit=4, stdin=io.BytesIO(b"[1, 2, 3]"))
    Traceback (most recent call last):
    ...
    plancheck.cli._input.UnreadableInput: the plan is larger than 4 bytes (raise the limit with --max-bytes or PLANCHECK_MAX_BYTES)
    """
    source: str | IO[bytes] | None = name
    if name == "-":
        source = stdin if stdin is not None else getattr(sys.stdin, "buffer", None)
        if source is None:  # started with stdin closed (`<&-`)
            raise UnreadableInput(what, "standard input is closed")
    try:
        read = read_source(source, _ReadFailed, what, "tfplancheck", limit)
    except _ReadFailed as exc:
        if exc.found == InputTooLarge(limit).found:
            raise UnreadableInput(what, exc.found, limit=limit) from None
        raise UnreadableInput(what, exc.found or exc.expected) from None
    except OSError as exc:  # a stream that fails while it is read
        raise UnreadableInput(what, exc.strerror or str(exc)) from None
    except TypeError as exc:  # read() returned neither bytes nor str
        raise UnreadableInput(what, str(exc)) from None
    data = read[0] if isinstance(read, tuple) else None
    if not isinstance(data, bytes):  # a text stream
        raise UnreadableInput(what, f"expected bytes, read {type(data).__name__}")
    return data
