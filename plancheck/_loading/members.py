"""Checking the syntax of part of a JSON object's text and finding its members.

Imported, it serves ``_parallel`` in this process; run as a script (standard library
only, no ``plancheck`` import, so ``python -I -S`` can run it), it is the helper
process that ``_parallel`` starts: it reads segments from stdin and prints one JSON line
per segment, the members found or ``null``.
"""

from __future__ import annotations

import gc
import json
import os
import re
import sys
from collections.abc import Callable
from typing import Any, cast

__all__ = ["find_members", "main"]


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    made = dict(pairs)
    if len(made) != len(pairs):
        raise ValueError("a repeated key")
    return made


# The same settings as plancheck's own parser, minus Decimal: only the syntax matters here,
# and every number the Decimal parser accepts, the float parser accepts too. A repeated key is
# refused as there (``jsontext``): the ordinary load then says where.
_scan = json.JSONDecoder(parse_constant=_reject_constant, object_pairs_hook=_unique_keys).scan_once  # type: ignore[attr-defined]
# The pattern matches everywhere (possibly empty), so the match is never None.
_ws = cast(Callable[[str, int], "re.Match[str]"], re.compile(r"[ \t\n\r]*").match)

Member = list[Any]  # [key, start of value, end of value, first character of value]


#: Containers this close to the segment's top are walked here, deeper ones parsed whole by the scanner:
#: checking a 50 MB ``planned_values`` then never holds more than one resource's objects at a time.
WALK_DEPTH = 4


def _expect(text: str, i: int, what: str) -> None:
    if text[i : i + 1] != what:
        raise ValueError(f"expecting {what!r} at {i}")


def _value_end(text: str, i: int, depth: int) -> int:
    """Check the value at ``i`` exactly as ``json`` would parse it; return where it ends."""
    opening = text[i : i + 1]
    if depth >= WALK_DEPTH or opening not in ("{", "["):
        try:
            value, end = _scan(text, i)
        except StopIteration:
            raise ValueError(f"expecting a value at {i}") from None
        del value  # only the syntax was wanted
        return int(end)
    closing = "}" if opening == "{" else "]"
    i = _ws(text, i + 1).end()
    if text[i : i + 1] == closing:
        return i + 1
    keys: set[str] = set()
    while True:
        if opening == "{":
            _expect(text, i, '"')
            key, i = _scan(text, i)
            if key in keys:
                raise ValueError(f"a repeated key at {i}")
            keys.add(key)
            i = _ws(text, i).end()
            _expect(text, i, ":")
            i = _ws(text, i + 1).end()
        i = _ws(text, _value_end(text, i, depth + 1)).end()
        c = text[i : i + 1]
        if c == closing:
            return i + 1
        _expect(text, i, ",")
        i = _ws(text, i + 1).end()


def find_members(text: str, kind: str) -> list[Member] | None:
    """The members of a segment of an object's text, or None if the segment is not one.

    An ``open`` segment is the object's ``{`` and members, each followed by ``,`` (it ends
    where the next member's key begins); a ``close`` segment is members separated by ``,``
    and then the ``}`` ending the document. Syntax errors, and an object inside a member that
    repeats a key, raise ``ValueError`` (the segment's own keys are returned, repeats and all).

    >>> find_members('{"a": 1, "b": [2],', "open")
    [['a', 6, 7, '1'], ['b', 14, 17, '[']]
    >>> find_members('"c": {"d": [1, {"e": [true]}]} }', "close")
    [['c', 5, 30, '{']]
    >>> find_members('"c": {} } x', "close") is None
    True
    >>> find_members('"c": [1,] }', "close")
    Traceback (most recent call last):
    ...
    ValueError: expecting a value at 8
    """
    i = _ws(text, 0).end()
    n = len(text)
    found: list[Member] = []
    if kind == "open":
        if text[i : i + 1] != "{":
            return None
        i = _ws(text, i + 1).end()
        if i == n:
            return found
    while True:
        if text[i : i + 1] != '"':
            return None
        key, i = _scan(text, i)
        i = _ws(text, i).end()
        if text[i : i + 1] != ":":
            return None
        i = _ws(text, i + 1).end()
        start = i
        i = _value_end(text, i, 1)
        found.append([key, start, i, text[start]])
        i = _ws(text, i).end()
        c = text[i : i + 1]
        if c == ",":
            i = _ws(text, i + 1).end()
            if kind == "open" and i == n:
                return found
            continue
        if kind == "close" and c == "}" and _ws(text, i + 1).end() == n:
            return found
        return None


def main(argv: list[str] | None = None) -> None:
    """Serve one request: a JSON header line ``[[kind, size], ...]``, then the segments' UTF-8 bytes,
    read from the inherited file descriptor given as ``--fd N`` (or stdin); one result line per
    segment, then this process's usage.
    """
    gc.disable()  # parsed values are dropped at once and hold no cycles: collecting is wasted work
    args = sys.argv[1:] if argv is None else argv
    source = open(int(args[1]), "rb") if args[:1] == ["--fd"] else sys.stdin.buffer  # noqa: SIM115
    with source:
        header = json.loads(source.readline())
        segments = [(kind, source.read(size)) for kind, size in header]
    while segments:
        kind, data = segments.pop(0)
        text = data.decode("utf-8", "surrogatepass")
        del data
        try:
            result = find_members(text, kind)
        except (ValueError, RecursionError):
            result = None
        del text
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()
    sys.stdout.write(json.dumps(_own_usage()) + "\n")


def _own_usage() -> dict[str, Any]:
    """This process's peak memory since it started running this script, and CPU time, for benchmarks.

    (``ru_maxrss`` would count the parent's memory too: a child is forked from it.)
    """
    peak_kb = None
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    peak_kb = int(line.split()[1])
    except OSError:
        pass
    times = os.times()
    return {"peak_kb": peak_kb, "cpu_s": times.user + times.system}


if __name__ == "__main__":
    main()
