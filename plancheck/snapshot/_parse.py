"""Reading a snapshot's text back into its structure, every fault named by its line.

The text is canonicalised on the way (paths and values as the renderer writes them, lines in
path order), so a hand-edited file that says the same thing compares equal.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Sequence
from decimal import Decimal
from typing import Any, Final

from tfjsonpath import MapStep, Path, PathSyntaxError

from .._redact import SENSITIVE
from ._errors import SnapshotFormatError
from ._model import (
    FACTS,
    FINGERPRINTED,
    FORMAT_VERSION,
    HEADER,
    HEADER_PREFIX,
    KEY_LINE_PREFIX,
    OUTPUT,
    RESOURCE,
    ROOT_LABEL,
    UNKNOWN,
    Block,
    Snapshot,
    step_key,
)
from ._values import json_scalar

__all__ = ["line_key", "parse_snapshot"]

_DEPOSED: Final = re.compile(r"(.+) \(deposed ([0-9]+)\)\Z", re.DOTALL)
_FACT: Final = re.compile(r"(action|reason|moved from|deferred|replace|after):(?: (.*))?\Z", re.DOTALL)
_KEY_ID: Final = re.compile(r"[0-9a-f]{8}\Z")
_SHOWN: Final = 60
_EXPECT_BLOCK: Final = (
    "a block header (resource ADDRESS or output NAME), an indented line of a block, "
    "a comment (#) or a blank line"
)
_EXPECT_LINE: Final = f"a line 'NAME: TEXT' ({', '.join((*FACTS, ROOT_LABEL))}) or 'PATH = VALUE'"
_EXPECT_VALUE: Final = (
    "a value: a JSON string, number, true, false or null, {}, [], (known after apply), (sensitive) "
    "or (sensitive #<12 hex digits>)"
)
_DECODER: Final = json.JSONDecoder(parse_float=Decimal, parse_constant=lambda name: _reject(name))


def _reject(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _shown(text: str) -> str:
    """A piece of a line as an error quotes it: repr'd, cut short."""
    return repr(text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…")


class _Reader:
    """The state of one parse: the blocks read so far, and the block being read."""

    def __init__(self, file: str | None) -> None:
        self.file = file
        self.blocks: dict[tuple[str, str, int], tuple[Block, int]] = {}
        self.key_id: str | None = None
        self.kind = ""
        self.name = ""
        self.deposed = 0
        self.start = 0
        self.facts: dict[str, tuple[str, int]] = {}
        self.replace: dict[str, int] = {}
        self.values: dict[str, tuple[tuple[Any, ...], str, int]] = {}

    def fail(self, line: int, expected: str, found: str | None = None) -> SnapshotFormatError:
        return SnapshotFormatError(self.file, line, expected, found=found)

    # -- blocks ---------------------------------------------------------------------------

    def begin(self, kind: str, name: str, deposed: int, number: int) -> None:
        self.finish()
        self.kind, self.name, self.deposed, self.start = kind, name, deposed, number
        self.facts, self.replace, self.values = {}, {}, {}

    def finish(self) -> None:
        if not self.kind:
            return
        if "action" not in self.facts:
            raise self.fail(self.start, f"an 'action:' line in {self.kind} {self.name}", "none")
        self._check_nesting()
        facts: list[tuple[str, str]] = [(name, self.facts[name][0]) for name in FACTS if name in self.facts]
        replace = sorted(self.replace, key=lambda text: tuple(step_key(s) for s in Path.parse(text).steps))
        facts.extend(("replace", text) for text in replace)
        values = sorted(self.values.items(), key=lambda item: item[1][0])
        block = Block(self.kind, self.name, self.deposed, facts, ((path, token) for path, (_, token, _) in values))
        first = self.blocks.get(block.key)
        if first is not None:
            raise self.fail(self.start, "each block once", f"{block.header()!r} again (first on line {first[1]})")
        self.blocks[block.key] = (block, self.start)
        self.kind = ""

    def _check_nesting(self) -> None:
        keys = {sort_key: (path, number) for path, (sort_key, _, number) in self.values.items()}
        for path, (sort_key, _, number) in sorted(self.values.items(), key=lambda item: item[1][2]):
            for depth in range(len(sort_key) - 1, -1, -1):
                above = keys.get(sort_key[:depth])
                if above is not None:
                    shown = above[0] or ROOT_LABEL
                    raise self.fail(number, "a value at a path or below it, not both",
                                    f"{path} below {shown} (line {above[1]})")

    # -- lines ----------------------------------------------------------------------------

    def header(self, line: str, number: int) -> None:
        kind, _, rest = line.partition(" ")
        if not rest or rest != rest.strip():
            raise self.fail(number, f"a name after '{kind} ' (and no space around it)", _shown(line))
        deposed = 0
        if kind == RESOURCE:
            match = _DEPOSED.match(rest)
            if match is not None:
                rest, deposed = match.group(1), int(match.group(2))
                if deposed < 1:
                    raise self.fail(number, "a deposed object numbered from 1", _shown(line))
        self.begin(kind, rest, deposed, number)

    def member(self, line: str, number: int) -> None:
        if not self.kind:
            raise self.fail(number, "a block header (resource ADDRESS or output NAME) before the lines of a block",
                            _shown(line))
        body = line.strip()
        fact = _FACT.match(body)
        if fact is not None:
            name, text = fact.group(1), (fact.group(2) or "").strip()
            if name == ROOT_LABEL:
                if self.kind == OUTPUT:
                    raise self.fail(number, "an output's value as 'value = VALUE'", _shown(line))
                self.value("", (), self.token(text, number), number)
            elif self.kind == OUTPUT and name != "action":
                raise self.fail(number, "only 'action:' and 'value' lines in an output", _shown(line))
            elif name == "replace":
                replaced = self.path(text, number)
                self.replace.setdefault(replaced.to_text(), number)
            else:
                if name in self.facts:
                    raise self.fail(number, f"one '{name}:' line per block",
                                    f"a second one (the first is on line {self.facts[name][1]})")
                if not text:
                    raise self.fail(number, f"a text after '{name}: '", _shown(line))
                self.facts[name] = (text, number)
            return
        parsed: tuple[str, tuple[Any, ...], bool] | None = None
        start = 0
        while True:
            at = body.find(" = ", start)
            if at < 0:
                break
            parsed = _parsed_path(body[:at].rstrip())
            if parsed is None:
                start = at + 1
                continue
            break
        if parsed is None or not parsed[1]:
            raise self.fail(number, _EXPECT_LINE, _shown(line))
        text, sort_key, under_value = parsed
        if self.kind == OUTPUT and not under_value:
            raise self.fail(number, "an output's paths to start with value", _shown(body[:at].rstrip()))
        self.value(text, sort_key, self.token(body[at + 3 :].strip(), number), number)

    def path(self, text: str, number: int) -> Path:
        try:
            return Path.parse(text)
        except PathSyntaxError as exc:
            raise self.fail(number, f"a path ({exc.expected} at offset {exc.position})", _shown(text)) from None

    def token(self, text: str, number: int) -> str:
        if text in (UNKNOWN, SENSITIVE, "{}", "[]") or FINGERPRINTED.match(text):
            return text
        try:
            value, end = _DECODER.raw_decode(text)
        except (ValueError, RecursionError, ArithmeticError):
            raise self.fail(number, _EXPECT_VALUE, _shown(text)) from None
        if end != len(text) or isinstance(value, (dict, list)):
            raise self.fail(number, _EXPECT_VALUE + " (one leaf a line: write [1] as PATH[0] = 1)", _shown(text))
        return json_scalar(value)

    def value(self, path: str, sort_key: tuple[Any, ...], token: str, number: int) -> None:
        first = self.values.get(path)
        if first is not None:
            raise self.fail(number, "each path once in a block", f"{path or ROOT_LABEL} again (first on line {first[2]})")
        self.values[path] = (sort_key, token, number)


@functools.lru_cache(maxsize=1 << 16)
def _parsed_path(text: str) -> tuple[str, tuple[Any, ...], bool] | None:
    """A value line's path: its canonical text, its sort key, whether it starts with ``value``; None if no path.

    Remembered: the same paths come back in every resource of a type.
    """
    try:
        path = Path.parse(text)
    except PathSyntaxError:
        return None
    steps = path.steps
    return path.to_text(), tuple(step_key(s) for s in steps), bool(steps) and steps[0] == MapStep("value")


def line_key(line: str) -> tuple[Any, ...]:
    """The sort key of a value line the renderer made (the root's ``after:`` line first).

    >>> sorted(['  b = 1', '  a["x"] = 2', '  a[0] = 3'], key=line_key)
    ['  a["x"] = 2', '  a[0] = 3', '  b = 1']
    """
    body = line.strip()
    if body.startswith(f"{ROOT_LABEL}:"):
        return ()
    start = 0
    while (at := body.find(" = ", start)) >= 0:
        parsed = _parsed_path(body[:at])
        if parsed is not None:
            return parsed[1]
        start = at + 1
    return ()


def parse_snapshot(text: str, file: str | None = None, numbers: Sequence[int] | None = None) -> Snapshot:
    """The structure of a snapshot's text; a :class:`SnapshotFormatError` names the line at fault.

    >>> s = parse_snapshot("# tfplancheck plan snapshot 1\\n\\nresource a.b\\n  action: create\\n  id = \\"x\\"\\n")
    >>> s.blocks[0].values
    (('id', '"x"'),)
    >>> parse_snapshot('{"format_version": "1.2"}', "plan.snap")
    Traceback (most recent call last):
    ...
    plancheck.snapshot.SnapshotFormatError: plan.snap:1: expected the header line '# tfplancheck plan snapshot 1', found a JSON document (a plan, not its snapshot?)

    ``numbers``, when given, are the line numbers in the file of the lines of ``text`` (a part of
    the file): errors name those.
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    reader = _Reader(file)
    _check_header(lines[0].rstrip("\r") if lines else "", not text, text.lstrip()[:1], reader)
    in_preamble = True
    for index, raw in enumerate(lines[1:], start=1):
        number = numbers[index] if numbers is not None else index + 1
        line = raw[:-1] if raw.endswith("\r") else raw
        if not line:
            continue
        if line.startswith("#"):
            if in_preamble and line.startswith(KEY_LINE_PREFIX):
                key_id = line[len(KEY_LINE_PREFIX) :]
                if not _KEY_ID.match(key_id):
                    raise reader.fail(number, f"'{KEY_LINE_PREFIX}' and 8 hex digits", _shown(line))
                reader.key_id = key_id
            continue
        if line[0] in " \t":
            if not line.strip():
                continue
            reader.member(line, number)
        elif line.startswith((f"{RESOURCE} ", f"{OUTPUT} ")):
            in_preamble = False
            reader.header(line, number)
        else:
            raise reader.fail(number, _EXPECT_BLOCK, _shown(line))
    reader.finish()
    return Snapshot((block for block, _ in reader.blocks.values()), reader.key_id)


def _check_header(first: str, empty: bool, lead: str, reader: _Reader) -> None:
    if first == HEADER:
        return
    expected = f"the header line {HEADER!r}"
    if empty:
        found = "an empty file"
    elif first.startswith(HEADER_PREFIX):
        version = first[len(HEADER_PREFIX) :]
        found = f"{_shown(first)}: format {_shown(version)}, and this tfplancheck reads format {FORMAT_VERSION}"
    elif lead in ("{", "["):
        found = "a JSON document (a plan, not its snapshot?)"
    elif first.startswith("# tfplancheck"):
        found = _shown(first)
    else:
        # The first line of a file that is not a snapshot is not quoted: it may be anything, a secret too.
        found = "a first line that is not it (not a snapshot file?)"
    raise reader.fail(1, expected, found)
