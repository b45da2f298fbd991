"""Loading a large plan with the standard library on two cores.

The standard library's JSON parser builds a Python object for every value it reads, and
there is no way to check the syntax of a value without building it: for a 200 MB plan
that is some 3 seconds, of which the resource changes are half. The rest
(``planned_values``, ``prior_state``, ``configuration``, ...) only needs its syntax
checked now and is parsed if it is ever read.

So the work is split in two. This process parses ``resource_changes`` (the checks read
them) while a helper process, a fresh Python interpreter running the same ``json``
module, checks the syntax of the text before and after it and reports where each
top-level member starts and ends. Where the split falls is guessed (the first
``"resource_changes"`` key, and the first of the usual keys that follow it), and the
guess is proven, not trusted: the helper must find the text before the split to be the
opening members of an object ending exactly at the guessed key, the text after it to be
the closing members, and this process must find the array to end exactly where the
closing members begin. Anything else, and the document is loaded the ordinary way, in
one process, which also reports any syntax error. The verdict is therefore always the
one the standard library gives for the whole text.

As with msgspec (see ``split``), ``planned_values``, ``prior_state`` and
``configuration`` are validated against their part of the schema when first parsed.

No helper is started for plans under :data:`PARALLEL_MIN_BYTES`, when
``PLANCHECK_PARALLEL=0`` is set, or where a Python subprocess cannot be started.
"""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, cast

from .._errors import PlanFormatError
from .jsontext import decode_text, loads_exact, read_leniently, scan_exact, stdlib_scan
from .lazy import Thunk
from .lifecycle import release, start_held
from .members import Member, find_members
from .split import DEFER_MIN_BYTES, VALIDATED_WHEN_READ, SplitPlan, validated
from .validate import SchemaNode, plan_validator

__all__ = ["PARALLEL_ENV", "PARALLEL_MIN_BYTES", "split_parallel"]

#: Below this size a helper process costs more than it saves.
PARALLEL_MIN_BYTES: Final = 16 << 20
#: ``PLANCHECK_PARALLEL=0`` keeps loading in one process.
PARALLEL_ENV: Final = "PLANCHECK_PARALLEL"
#: Keys that usually follow ``resource_changes`` in Terraform's output: where the closing members may start.
_NEXT_KEYS: Final = ("output_changes", "prior_state", "configuration")
# The pattern matches everywhere (possibly empty), so the match is never None.
_skip_ws: Final = cast(Callable[[str, int], "re.Match[str]"], re.compile(r"[ \t\n\r]*").match)
_HELPER_SCRIPT: Final = Path(__file__).with_name("members.py")
#: What the last helper reported of itself (``peak_kb``, ``cpu_s``): for the benchmark.
last_helper_usage: dict[str, Any] = {}


def _enabled() -> bool:
    return os.environ.get(PARALLEL_ENV, "1").strip().lower() not in ("0", "false", "no", "off")


def _find_split(text: str | bytes) -> tuple[int, int, int | None] | None:
    """(start of the ``"resource_changes"`` key, start of its array, start of the next key or None).

    >>> _find_split(b'{"a": 1, "resource_changes": [], "prior_state": {}}')
    (9, 29, 33)
    """
    as_text = isinstance(text, str)

    def lit(value: str) -> Any:
        return value if as_text else value.encode()

    key_start = text.find(lit('"resource_changes"'))
    if key_start < 0:
        return None
    i = _skip_ws_any(text, key_start + len('"resource_changes"'))
    if text[i : i + 1] != lit(":"):
        return None
    value_start = _skip_ws_any(text, i + 1)
    if text[value_start : value_start + 1] != lit("["):
        return None
    candidates = [p for p in (text.find(lit(f'"{name}"'), value_start) for name in _NEXT_KEYS) if p > 0]
    return key_start, value_start, (min(candidates) if candidates else None)


def _skip_ws_any(text: str | bytes, i: int) -> int:
    while text[i : i + 1] in (" ", "\t", "\n", "\r", b" ", b"\t", b"\n", b"\r"):
        i += 1
    return i


class _Helper:
    """The helper process and its input.

    On Linux the input goes into an anonymous in-memory file (``memfd_create``) that the
    helper inherits: writing it is a memory copy, nothing reaches the disk, and it does not
    count in this process's RSS. Elsewhere it goes through a pipe, all of it before this
    process goes on (the helper reads everything first); a writer thread instead would
    wait for the GIL at every pipe-full while this process parses.

    The helper follows the process lifecycle (:mod:`plancheck._loading.lifecycle`): it is owned from the
    moment it exists (started with the signals held back, so a Ctrl-C or SIGTERM inside ``Popen`` ends it
    too) and ended by ``release(proc, end=True)`` (:func:`_end`, with the signals held back, so a second
    signal cannot leave it unreaped).
    """

    def __init__(self, data: bytes, segments: list[tuple[str, int, int]]) -> None:
        self.count = len(segments)
        header = json.dumps([[kind, end - start] for kind, start, end in segments]).encode() + b"\n"
        view = memoryview(data)
        chunks = [memoryview(header), *(view[start:end] for _, start, end in segments)]
        command = [sys.executable, "-I", "-S", str(_HELPER_SCRIPT)]
        memfd_create = getattr(os, "memfd_create", None)
        if memfd_create is not None:
            fd = memfd_create("plancheck-segments", 0)
            try:
                for chunk in chunks:
                    _write_all(fd, chunk)
                os.lseek(fd, 0, os.SEEK_SET)
                self.proc = start_held(functools.partial(_start, command, fd), _end)
            finally:
                os.close(fd)
            return
        self.proc = start_held(functools.partial(_start, command, None), _end)
        stdin = self.proc.stdin
        assert stdin is not None
        try:
            for chunk in chunks:
                stdin.write(chunk)
            stdin.close()
        except BaseException:  # not yet in split_parallel's hands: a Ctrl-C or SIGTERM here must end it too
            release(self.proc, end=True)
            raise

    def results(self) -> list[Any] | None:
        """One result per segment (members, or None), or None if the helper failed."""
        stdout = self.proc.stdout
        assert stdout is not None
        try:
            lines = [json.loads(stdout.readline()) for _ in range(self.count)]
            usage = stdout.readline()
            last_helper_usage.clear()
            if usage:
                last_helper_usage.update(json.loads(usage))
            self.proc.wait(timeout=60)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            return None  # split_parallel ends it
        return lines if self.proc.returncode == 0 else None


def _start(command: list[str], fd: int | None) -> subprocess.Popen[bytes]:
    """Start the helper: its input the in-memory file ``fd``, which it inherits, else a pipe."""
    if fd is None:
        return subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return subprocess.Popen(
        [*command, "--fd", str(fd)],
        pass_fds=(fd,),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )


def _end(proc: subprocess.Popen[bytes]) -> None:
    """End and reap the helper, close its output (its removal as an owned process): nothing when it has exited and
    been reaped already."""
    proc.kill()
    proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()


def _write_all(fd: int, chunk: memoryview) -> None:
    while chunk:
        chunk = chunk[os.write(fd, chunk) :]


def _parse_array(text: str, start: int) -> tuple[list[Any], int]:
    """Parse the array at ``start`` (entry by entry: one call for all would be as fast, but not interruptible)."""
    scan = stdlib_scan()
    ws = _skip_ws
    entries: list[Any] = []
    i = ws(text, start + 1).end()
    if text[i : i + 1] == "]":
        return entries, i + 1
    while True:
        value, i = scan(text, i)
        entries.append(value)
        i = ws(text, i).end()
        c = text[i : i + 1]
        if c == ",":
            i = ws(text, i + 1).end()
            continue
        if c == "]":
            return entries, i + 1
        raise ValueError("not an array")


def _closing_members(text: str, after: int, next_key: int | None, guessed: Any) -> list[Member] | None:
    """The members after the array: the helper's, if its guess of where they begin held, else found here."""
    c = text[after : after + 1]
    if c == "}" and _skip_ws(text, after + 1).end() == len(text):
        return []
    if c != ",":
        return None
    begin = _skip_ws(text, after + 1).end()
    if guessed is not None and begin == next_key:
        return [[key, a + begin, b + begin, first] for key, a, b, first in guessed]
    try:
        found = find_members(text[begin:], "close")
    except (ValueError, RecursionError):
        return None
    return None if found is None else [[key, a + begin, b + begin, first] for key, a, b, first in found]


def _thunk(
    text: str, start: int, key: str, node: SchemaNode | None, source: str | None, split: SplitPlan
) -> Callable[[], Any]:
    whole, lenient = split.whole, split.lenient  # not the split: a closure holding it would make a cycle (see split.py)

    def load() -> Any:
        value = scan_exact(text, start, error=PlanFormatError, source=source, where=(key,), whole=lenient)
        return validated(value, (key,), node, source, whole=whole)

    return load


def split_parallel(box: list[bytes | str], source: str | None = None) -> SplitPlan | None:
    """Split the bytes in ``box`` using a helper process; None when the ordinary load must decide.

    ``box`` holds the only reference to the bytes: they are dropped (the box emptied) once
    handed to the helper and decoded, unless None is returned. ``source`` names the plan in
    the errors of values parsed later.
    """
    data = box[0]
    if (
        not isinstance(data, bytes)
        or len(data) < PARALLEL_MIN_BYTES
        or not _enabled()
        or not sys.executable
        or not _HELPER_SCRIPT.is_file()
        or b"\x00" in data[:4]  # UTF-16/32 by json's detection (or garbage): the ordinary load decodes it
    ):
        return None
    # In ASCII text character and byte offsets agree: the helper can start before the text is decoded.
    ascii_only = data.isascii()
    text: str | None = None
    if not ascii_only:
        try:
            text = decode_text(data, error=PlanFormatError)
        except PlanFormatError:
            return None
    where = _find_split(data if text is None else text)
    if where is None:
        return None
    key_start, value_start, next_key = where
    segments = [("open", 0, key_start)]
    if next_key is not None:
        segments.append(("close", next_key, len(data if text is None else text)))
    try:
        if text is None:
            helper = _Helper(data, segments)
        else:
            encoded = [text[a:b].encode("utf-8", "surrogatepass") for _, a, b in segments]
            helper = _Helper(b"".join(encoded), _consecutive(segments, encoded))
            del encoded
    except OSError:
        return None
    # The helper is a child of this process: whatever way the load ends (a result, a failure, Ctrl-C, SIGTERM
    # or a bug while its results are read), it is ended and reaped here, never left to the garbage collector.
    try:
        if text is None:
            text = data.decode("ascii")
        box.clear()
        del data
        split = _split_text(text, helper, value_start, next_key, source)
    finally:
        release(helper.proc, end=True)
    if split is None:
        box.append(text)  # the ordinary load reads the decoded text
    return split


def _consecutive(segments: list[tuple[str, int, int]], encoded: list[bytes]) -> list[tuple[str, int, int]]:
    out = []
    at = 0
    for (kind, _, _), chunk in zip(segments, encoded, strict=True):
        out.append((kind, at, at + len(chunk)))
        at += len(chunk)
    return out


def _split_text(
    text: str, helper: _Helper, value_start: int, next_key: int | None, source: str | None
) -> SplitPlan | None:
    try:
        entries, end = _parse_array(text, value_start)
    except (ValueError, RecursionError, StopIteration, ArithmeticError):
        return None
    results = helper.results()
    if results is None or results[0] is None:
        return None
    closing = _closing_members(text, _skip_ws(text, end).end(), next_key, results[1] if next_key else None)
    if closing is None:
        return None
    members = [*results[0], ["resource_changes", value_start, end, "["], *closing]
    if len({key for key, *_ in members}) != len(members):
        return None  # a repeated key: the ordinary load says where
    return _assemble(text, members, value_start, entries, source)


def _assemble(
    text: str, members: list[Member], array_start: int, entries: list[Any], source: str | None
) -> SplitPlan:
    validator = plan_validator()
    # The whole text parsed again, unvalidated, for the secrets an error of a value parsed later hides (see
    # SplitPlan): the thunks keep the text in any case.
    split = SplitPlan(
        whole=functools.partial(loads_exact, text, error=PlanFormatError, source=source, parser="stdlib"),
        lenient=functools.partial(read_leniently, text),
    )
    for key, start, end, first in members:
        node = validator.root.member(key)
        json_type = {"{": "object", "[": "array"}.get(first)
        value: Any
        if start == array_start:
            value = entries
        elif (
            json_type is not None
            and end - start >= DEFER_MIN_BYTES
            and (node is None or node.shallow or key in VALIDATED_WHEN_READ)
        ):
            split.view[key] = split.values[key] = Thunk(json_type, _thunk(text, start, key, node, source, split))
            continue
        else:
            value = scan_exact(text, start, error=PlanFormatError, source=source, where=(key,), whole=split.lenient)
        split.view[key] = value
        split.values[key] = value
    return split
