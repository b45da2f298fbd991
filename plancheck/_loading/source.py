"""Reading a document from a file or a stream, up to a maximum size; writing an output file whole.

``/dev/zero``, a pipe that never closes or a runaway generator must not fill the memory:
``load_plan``, ``load_state`` and ``load_config`` read at most :func:`max_input_bytes`
bytes (2 GiB unless ``max_bytes=`` or ``PLANCHECK_MAX_BYTES`` says otherwise) and stop
reading as soon as there is more. A regular file's size is known before reading, so a
file too large is refused without reading any of it.

Every file a user names for output (a ``--report``, a baseline, a snapshot, a written
configuration) is written by :func:`write_whole`: the old file or the new one, never half of one.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import stat
import sys
from collections.abc import Collection, Mapping
from typing import IO, Any, Final, Literal

from .._errors import ArgumentError, DocumentFormatError

__all__ = [
    "DEFAULT_MAX_BYTES", "MAX_BYTES_ENV", "InputTooLarge", "fs_path", "is_ignored_file", "is_saved_plan",
    "make_directories", "max_input_bytes", "read_bytes", "read_limited", "regular_file", "tofu_hides", "tool_of",
    "why_unopened", "why_unread", "write_whole",
]

#: The largest document read from a file or stream unless told otherwise: 2 GiB.
DEFAULT_MAX_BYTES: Final = 2 << 30
#: The environment variable that sets the limit (a number of bytes) when ``max_bytes`` is not given.
MAX_BYTES_ENV: Final = "PLANCHECK_MAX_BYTES"
_CHUNK: Final = 1 << 20


class InputTooLarge(Exception):
    """The input holds more than ``limit`` bytes (characters, for a text stream); the loaders turn it
    into the format error of their kind.

    >>> InputTooLarge(10).limit
    10
    """

    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.limit = limit

    def expected(self, what: str) -> str:
        """The ``expected`` phrase of the format error for a ``what`` (``plan``, ``state``, ...).

        >>> InputTooLarge(1024).expected("plan")
        'a plan of at most 1024 bytes (raise the limit with max_bytes= or PLANCHECK_MAX_BYTES)'
        """
        return f"a {what} of at most {self.limit} bytes (raise the limit with max_bytes= or {MAX_BYTES_ENV})"

    @property
    def found(self) -> str:
        """The ``found`` phrase of the format error."""
        return f"more than {self.limit} bytes"


def max_input_bytes(max_bytes: int | None = None, *, environ: Mapping[str, str] | None = None) -> int:
    """The size limit: ``max_bytes`` when given, else ``PLANCHECK_MAX_BYTES`` (in ``environ``, default
    ``os.environ``), else :data:`DEFAULT_MAX_BYTES`.

    >>> max_input_bytes(4096), max_input_bytes() >= 1
    (4096, True)
    >>> max_input_bytes(0)
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: max_bytes must be a positive number of bytes, got 0
    """
    if max_bytes is not None:
        if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 1:
            raise ArgumentError(f"max_bytes must be a positive number of bytes, got {max_bytes!r}")
        return max_bytes
    text = (os.environ if environ is None else environ).get(MAX_BYTES_ENV, "").strip()
    if not text:
        return DEFAULT_MAX_BYTES
    try:
        limit = int(text)
    except ValueError:
        limit = 0
    if limit < 1:
        raise ArgumentError(f"{MAX_BYTES_ENV} must be a positive number of bytes, got {text!r}")
    return limit


def read_limited(stream: IO[Any], limit: int) -> bytes | str:
    """Everything ``stream`` holds, or :class:`InputTooLarge` as soon as it holds more than ``limit``.

    A regular file is measured first; anything else is read a chunk at a time, so no
    more than ``limit`` and a chunk are ever held.

    >>> read_limited(io.BytesIO(b"{}"), 10)
    b'{}'
    >>> read_limited(io.BytesIO(b"[1, 2, 3]"), 4)
    Traceback (most recent call last):
    ...
    plancheck._loading.source.InputTooLarge: 4
    """
    size: int | None = None  # the bytes left in a regular file; a pipe, a device or a stream without a descriptor: None
    try:
        status = os.fstat(stream.fileno())
        if stat.S_ISREG(status.st_mode):
            size = max(status.st_size - stream.tell(), 0)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass
    if size is not None and size > limit:
        raise InputTooLarge(limit)
    first = stream.read(min(size + 1, limit + 1) if size is not None else min(_CHUNK, limit + 1))
    if not isinstance(first, (bytes, bytearray, str)):
        return first  # type: ignore[no-any-return]  # the caller reports what read() returned
    more = stream.read(min(_CHUNK, limit + 1 - len(first))) if first and len(first) <= limit else first[:0]
    if not more:
        if len(first) > limit:
            raise InputTooLarge(limit)
        return first if not isinstance(first, bytearray) else bytes(first)
    # A stream of unknown length: gathered in a BytesIO, whose value is handed over without a copy.
    gathered: io.BytesIO | io.StringIO = io.StringIO() if isinstance(first, str) else io.BytesIO()
    gathered.write(first)  # type: ignore[arg-type]
    total = len(first)
    while more:
        total += len(more)
        if total > limit:
            raise InputTooLarge(limit)
        gathered.write(more)  # type: ignore[arg-type]
        more = stream.read(min(_CHUNK, limit + 1 - total))
    return gathered.getvalue()


def why_unopened(exc: OSError | ValueError) -> str:
    """Why ``open`` refused a file: the system's reason, or that the name is none the system takes.

    A name holding a NUL byte or a lone surrogate is refused by Python with a ValueError before the system is asked.

    >>> why_unopened(FileNotFoundError(2, "No such file or directory")), why_unopened(ValueError("embedded null byte"))
    ('No such file or directory', 'a name the system cannot open (embedded null byte)')
    """
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return f"a name the system cannot open ({exc})"


def why_unread(exc: OSError | ValueError) -> str:
    """Why a file's text could not be read: :func:`why_unopened`'s reason, or where its bytes are no UTF-8 (as a
    baseline or a checks file says it), never the exception's class name.

    >>> why_unread(FileNotFoundError(2, "No such file or directory")), why_unread(UnicodeDecodeError("utf-8", b"a\\xff", 1, 2, "invalid start byte"))
    ('No such file or directory', 'not UTF-8 text (byte 1)')
    """
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 text (byte {exc.start})"
    return why_unopened(exc)


def fs_path(value: object, caller: str) -> str:
    """``value``, a path argument of the public function ``caller``, as a str; else the TypeError naming ``caller``.

    Never os.fspath's or pathlib's own "expected str, bytes or os.PathLike object, not int", which names
    no function the user called; bytes are refused too (a bytes path reads as the document itself elsewhere).

    >>> fs_path("plan.json", "load_plan_file")
    'plan.json'
    >>> fs_path(7, "find_leftovers")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: find_leftovers expects a path (str or PathLike), got int
    """
    if isinstance(value, (str, os.PathLike)):
        path = os.fspath(value)
        if isinstance(path, str):
            return path
        value = path
    raise ArgumentError(f"{caller} expects a path (str or PathLike), got {type(value).__name__}")


def read_bytes(
    source: Any, error: type[DocumentFormatError], what: str, caller: str, max_bytes: int | None = None,
    *, typed: bool = False,
) -> tuple[bytes | str, str | None]:
    """The JSON text (bytes or str) and a name for ``source``: a path (``"-"``: stdin), a stream, or bytes.

    A str that is no file and reads as JSON text is a document a program passed for its path: refused without
    repeating it. ``typed``: the name is what a user typed (the command line's argument), shown as typed.

    A path or a stream is read up to ``max_bytes`` (see :func:`max_input_bytes`): past it, ``error`` is
    raised, after reading no more than that (:func:`read_limited`).

    >>> from plancheck import PlanFormatError
    >>> read_bytes(b"{}", PlanFormatError, "plan", "load_plan")
    (b'{}', None)
    >>> read_bytes(io.BytesIO(b"[" * 100), PlanFormatError, "plan", "load_plan", max_bytes=64)
    Traceback (most recent call last):
    ...
    plancheck.PlanFormatError: $: expected a plan of at most 64 bytes (raise the limit with max_bytes= or PLANCHECK_MAX_BYTES), found more than 64 bytes
    >>> read_bytes('{"variables": {"pw": {"value": "hunter2"}}}', PlanFormatError, "plan", "load_plan")
    Traceback (most recent call last):
    ...
    plancheck.PlanFormatError: $: expected a path to a plan file, found JSON text (load_plan reads a path, a file object or bytes: pass the text encoded, text.encode(), or use from_json)
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), None
    limit = max_input_bytes(max_bytes)
    name: str | None = None
    try:
        if isinstance(source, (str, os.PathLike)):
            name = os.fsdecode(source)
            if name == "-":
                name = "<stdin>"
                return read_limited(sys.stdin.buffer, limit), name
            try:
                with open(name, "rb") as f:
                    return read_limited(f, limit), name
            except (OSError, ValueError) as exc:
                if not typed and name.lstrip().startswith(("{", "[")):
                    # A document given where its path goes: never echoed as the file's name, its values may be secrets.
                    raise error(
                        "$", f"a path to a {what} file", source=None,
                        found=f"JSON text ({caller} reads a path, a file object or bytes: pass the text encoded, "
                        "text.encode(), or use from_json)",
                    ) from None  # fmt: skip
                raise error("$", f"a readable {what} file", found=why_unopened(exc), source=name) from None
        if callable(getattr(source, "read", None)):
            stream_name = getattr(source, "name", None)
            name = stream_name if isinstance(stream_name, str) else None
            data = read_limited(source, limit)
            if not isinstance(data, (bytes, bytearray, str)):
                raise ArgumentError(f"{caller}: read() returned {type(data).__name__}, expected bytes or str")
            return (data if isinstance(data, str) else bytes(data)), name
    except InputTooLarge as exc:
        raise error("$", exc.expected(what), found=exc.found, source=name) from None
    raise ArgumentError(f"{caller} expects a path, file object, bytes or dict, got {type(source).__name__}")


def is_saved_plan(head: bytes) -> bool:
    """Whether a document starting with ``head`` is a saved plan (``terraform plan -out``), not JSON: it is a zip.

    The one test, here below every user: the front ends that read plan files (``load_plan_file``, the command
    line) give only such a file to ``plancheck._terraform.planfile.plan_json`` to show with terraform, and
    ``load_plan`` says to use ``load_plan_file`` for it.

    >>> is_saved_plan(b"PK\\x03\\x04..."), is_saved_plan(b'{"format_version": "1.2"}')
    (True, False)
    """
    return head.startswith(b"PK\x03\x04")


def regular_file(name: str) -> os.stat_result | Literal[False] | None:
    """The status of the regular file ``name`` names through its links; ``None`` when nothing is there (a new
    file); ``False`` for anything else: a device, a pipe, a FIFO, a directory. An :class:`OSError` when it cannot
    be told (a directory that cannot be searched, a loop of links).

    >>> regular_file("/dev/null"), regular_file("/no/such/file")
    (False, None)
    """
    try:
        status = os.stat(name)
    except FileNotFoundError:
        return None
    return status if stat.S_ISREG(status.st_mode) else False


#: Names of a process's open streams, whatever they lead to: ``/dev/stdout`` redirected to a file is that file to
#: ``stat``, but the shell holds it open: a file renamed over it would take the rest of the run's output away.
_STREAMS: Final = ("/dev/stdout", "/dev/stderr", "/dev/fd/", "/proc/")


def write_whole(file: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``file``, whole or not at all.

    A missing directory is made. A regular file, or a new one, is written to a temporary file beside it,
    flushed to disk, and renamed over it: a reader, a full disk or a crash leaves the old file or the new
    one, never half of one, and no temporary file (also on an interrupt). It keeps its mode; a new file gets
    the mode any file the user makes gets (``0o666`` less the umask), not a temporary file's owner-only one.
    Once renamed, the directory is flushed to disk too (POSIX makes a rename durable only then), where a
    directory can be opened. As root, the replaced file keeps its owner and group as well.
    Through a symbolic link the file it names is written, and the link kept. A device, a pipe or a FIFO
    (see :func:`regular_file`), and a process's stream (``/dev/stdout``, ``/dev/fd/N``, ``/proc/...``) even
    when it is redirected to a file, are written into: a file renamed over ``/dev/full`` would replace the device.
    The process's own streams (``/dev/stdout``, ``/dev/stderr``, ``/dev/fd/N``, ``/proc/self/fd/N``) are written
    through its own descriptor, after what it printed before: opened again, ``/dev/stdout`` redirected to a file
    (``> out.txt``) is a new open file at offset 0, over which what the process prints next would be written.

    Raises :class:`OSError` for each caller to say in its own words: a directory that cannot be made
    names that directory (``filename``; a file in its place is "Not a directory": :func:`make_directories`),
    anything else names ``file``.

    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     write_whole(pathlib.Path(d, "reports", "r.txt"), "ok\\n")
    ...     pathlib.Path(d, "reports", "r.txt").read_text()
    'ok\\n'
    >>> write_whole("/dev/null/r.txt", "")
    Traceback (most recent call last):
    ...
    NotADirectoryError: [Errno 20] Not a directory: '/dev/null'
    """
    import tempfile  # here, not at the top: it brings random and shutil, which `import plancheck` needs nothing of

    name = os.fspath(file)
    if os.path.dirname(name):
        make_directories(os.path.dirname(name))  # before the links are followed: its error names what was typed
    written = os.path.realpath(name)
    try:
        status = False if os.path.abspath(name).startswith(_STREAMS) else regular_file(name)
        if status is False:
            folder, _, number = os.path.abspath(name).rpartition("/")
            own = {"/dev/stdout": 1, "/dev/stderr": 2}.get(os.path.abspath(name))
            if folder in ("/dev/fd", "/proc/self/fd") and number.isascii() and number.isdigit():
                own = int(number)
            if own is not None:
                for printed in (sys.stdout, sys.stderr):  # what the process printed before comes first
                    with contextlib.suppress(AttributeError, ValueError, OSError):  # None, or closed
                        printed.flush()
            with open(name if own is None else own, "w", encoding="utf-8", newline="\n", closefd=own is None) as stream:
                stream.write(text)
            return
        mode = _new_file_mode() if status is None else stat.S_IMODE(status.st_mode)
        handle, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(written)}.", suffix=".tmp",
                                             dir=os.path.dirname(written))
    except OSError as exc:
        raise _naming(exc, name) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        if status is not None and hasattr(os, "chown"):
            # Before the mode: giving a file away clears its set-user-ID bit. Only root may, whoever owned it.
            with contextlib.suppress(PermissionError):
                os.chown(temporary, status.st_uid, status.st_gid)
        os.chmod(temporary, mode)
        os.replace(temporary, written)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError):
            raise _naming(exc, name) from None
        raise
    try:
        directory = os.open(os.path.dirname(written), os.O_RDONLY)
    except OSError:
        return  # a platform where a directory cannot be opened (Windows) has no directory to flush either
    try:
        os.fsync(directory)
    except OSError as exc:
        # A file system that cannot flush a directory (EINVAL) has nothing to make durable that way; the file is.
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise _naming(exc, name) from None
    finally:
        os.close(directory)


def make_directories(name: str | os.PathLike[str]) -> None:
    """Make the directory ``name`` and its missing parents, as ``os.makedirs(name, exist_ok=True)`` does, except that
    a file in its place is a :class:`NotADirectoryError` naming it, as a file in a parent's place already is.

    >>> make_directories("/dev/null")
    Traceback (most recent call last):
    ...
    NotADirectoryError: [Errno 20] Not a directory: '/dev/null'
    """
    try:
        os.makedirs(name, exist_ok=True)
    except FileExistsError:
        # mkdir's "File exists" read as if the file to write were there already: a report to plan.json/r.xml
        # said so, where plan.json/sub/r.xml said "Not a directory".
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), os.fspath(name)) from None


def _naming(exc: OSError, name: str) -> OSError:
    # The system's error as it was (its class and reason), naming the file the caller asked for, not the temporary one.
    return OSError(exc.errno, exc.strerror, name) if exc.errno is not None else exc


def _new_file_mode() -> int:
    # The umask can only be read by setting it: set back at once.
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def is_ignored_file(name: str) -> bool:
    """Whether Terraform (and OpenTofu) skip this file of a module directory: hidden files and editor leftovers
    (configs.IsIgnoredFile).

    >>> [is_ignored_file(n) for n in (".main.tf.json", "main.tf.json~", "#main.tf.json#", "main.tf.json")]
    [True, True, True, False]
    """
    return name.startswith(".") or name.endswith("~") or (name.startswith("#") and name.endswith("#"))


def tofu_hides(name: str, names: Collection[str]) -> bool:
    """Whether OpenTofu skips the file ``name`` of a module directory whose files are ``names``: ``x.tofu`` hides
    ``x.tf`` and ``x.tofu.json`` hides ``x.tf.json``, not across (opentofu internal/configs/parser_config_dir.go,
    ``filterTfPathsWithTofuAlternatives``, applied to the primary and the override files apart: the two files of a
    pair share their base name, so they are always of one kind).

    >>> names = {"a.tf", "a.tofu", "b.tf.json", "b.tofu", "c.tf.json", "c.tofu.json", "d_override.tf", "d_override.tofu"}
    >>> [n for n in sorted(names) if tofu_hides(n, names)]
    ['a.tf', 'c.tf.json', 'd_override.tf']
    """
    for suffix, alternative in ((".tf", ".tofu"), (".tf.json", ".tofu.json")):
        if name.endswith(suffix):
            return name[: -len(suffix)] + alternative in names
    return False


def tool_of(path: str | os.PathLike[str]) -> Literal["terraform", "opentofu"]:
    """Whose configuration ``path`` is, when nobody says: ``"opentofu"`` for a ``.tofu``/``.tofu.json`` file or a
    module directory holding one that OpenTofu reads (not hidden, no editor's leftover), a clear sign, as Terraform
    reads none; else ``"terraform"`` (also for a directory that cannot be listed: its reader says why).

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = pathlib.Path(d, "main.tf").write_text(""), pathlib.Path(d, ".old.tofu").write_text("")
    ...     before = tool_of(d)
    ...     _ = pathlib.Path(d, "enc.tofu").write_text("")
    ...     before, tool_of(d), tool_of(pathlib.Path(d, "main.tf")), tool_of(pathlib.Path(d, "x.tofu.json"))
    ('terraform', 'opentofu', 'terraform', 'opentofu')
    """
    suffixes = (".tofu", ".tofu.json")
    if not isinstance(path, (str, os.PathLike)):
        return "terraform"  # what its reader refuses, in its words
    if not os.path.isdir(path):
        return "opentofu" if os.fspath(path).endswith(suffixes) else "terraform"
    try:
        names = [entry.name for entry in os.scandir(path) if entry.is_file()]
    except OSError:
        return "terraform"
    # Hidden files and editor leftovers, which neither tool reads, are no sign.
    return "opentofu" if any(n.endswith(suffixes) and not is_ignored_file(n) for n in names) else "terraform"
