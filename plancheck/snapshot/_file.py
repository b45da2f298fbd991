"""Snapshot files: read whole or refused with a located error; written atomically, never half.

A file is read up to the size limit (``PLANCHECK_MAX_BYTES``, else 2 GiB, as plans are); one
that is larger, not UTF-8 text, or unreadable is a :class:`SnapshotFormatError` naming it. A file
is written to a temporary file beside it, flushed to disk, then renamed over the old one
(``os.replace``), so a reader sees the old snapshot or the new one, never a mix, and an
interrupted write leaves the old one in place.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from typing import Final

from .._loading.source import MAX_BYTES_ENV, max_input_bytes
from ._errors import SnapshotFormatError

__all__ = ["Unreadable", "read_snapshot_file", "unreadable", "unreadable_error", "write_snapshot_file"]

_BOM: Final = "\ufeff"
_NEW_FILE_MODE: Final = 0o644
#: What a failure says to repair a file that cannot be read.
_REPAIR_HINT = "rewrite it with --snapshot-update"


class Unreadable(str):
    """The stored data of a file that is no snapshot: its error's text, and the error (never equal to a plan's)."""

    error: SnapshotFormatError


def unreadable(error: SnapshotFormatError) -> Unreadable:
    """Stored data standing for the file that ``error`` says is no snapshot."""
    data = Unreadable(f"{error}; {_REPAIR_HINT}")
    data.error = error
    return data


def unreadable_error(data: object) -> str | None:
    """The located error (and repair hint) of stored data that could not be read, or None for a snapshot's text.

    >>> unreadable_error("# tfplancheck plan snapshot 1") is None
    True
    >>> unreadable_error(unreadable(SnapshotFormatError("a.tfplan.snap", 3, "a value line", found="'<<<<<<< HEAD'")))
    "a.tfplan.snap:3: expected a value line, found '<<<<<<< HEAD'; rewrite it with --snapshot-update"
    """
    return str(data) if isinstance(data, Unreadable) else None


def read_snapshot_file(file: str | os.PathLike[str], max_bytes: int | None = None) -> str | None:
    """The text of the snapshot file ``file``, or None when there is none.

    >>> read_snapshot_file("/nonexistent/plan.snap") is None
    True
    """
    name = os.fspath(file)
    limit = max_input_bytes(max_bytes)
    try:
        with open(name, "rb") as stream:
            data = stream.read(limit + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise SnapshotFormatError(name, None, "a readable snapshot file", found=reason) from None
    if len(data) > limit:
        raise SnapshotFormatError(
            name, None, f"a snapshot of at most {limit} bytes (raise the limit with {MAX_BYTES_ENV})",
            found="a larger file",
        )
    nul = data.find(b"\x00")
    try:
        text = data.decode("utf-8")
        bad = -1
    except UnicodeDecodeError as exc:
        bad = exc.start
    if nul >= 0 or bad >= 0:
        first = min(at for at in (nul, bad) if at >= 0)
        raise SnapshotFormatError(name, data.count(b"\n", 0, first) + 1, "UTF-8 text", found="binary data")
    return text.removeprefix(_BOM)


def write_snapshot_file(file: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``file`` atomically (its directory is made if missing).

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     write_snapshot_file(pathlib.Path(d, "sub", "plan.snap"), "x\\n")
    ...     pathlib.Path(d, "sub", "plan.snap").read_text()
    'x\\n'
    """
    name = os.fspath(file)
    directory = os.path.dirname(os.path.abspath(name))
    try:
        os.makedirs(directory, exist_ok=True)
        try:
            mode = os.stat(name).st_mode & 0o7777
        except FileNotFoundError:
            mode = _NEW_FILE_MODE
        handle, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(name)}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise SnapshotFormatError(name, None, "a snapshot file that can be written",
                                  found=exc.strerror or type(exc).__name__) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, name)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError):
            raise SnapshotFormatError(name, None, "a snapshot file that can be written",
                                      found=exc.strerror or type(exc).__name__) from None
        raise
