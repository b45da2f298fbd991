"""A plan snapshot's format: its structure (blocks of resource changes and outputs), its one text form, and
reading that text back, every fault named by its line.

The text is what a snapshot file holds and what a reviewer reads::

    # tfplancheck plan snapshot 1
    # One planned value per line: (known after apply) is unknown, (sensitive) hidden, no line absent.

    resource null_resource.a
      action: create
      id = (known after apply)
      triggers["k"] = "v"

    output ip
      action: create
      value = (known after apply)

A block is a resource object (``resource ADDRESS``, a deposed object ``resource ADDRESS (deposed
N)``) or an output (``output NAME``); its lines are facts (``action:``, ``reason:``, ``moved
from:``, ``deferred:``, ``replace:``, and ``after:`` for a planned value that is not an object
with attributes) and values, one ``PATH = VALUE`` line per leaf. Parsing the text gives back the
same structure, so two snapshots are compared value by value, not line by line. The text is
canonicalised on the way back (paths and values as the renderer writes them, lines in path order),
so a hand-edited file that says the same thing compares equal.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final

from tfjsonpath import MapStep, Path, PathSyntaxError, Step
from tfjsonpath._jsontypes import number_text

from .._frozen import FrozenValue, frozen
from .._redact import KNOWN_AFTER_APPLY, SENSITIVE
from ._errors import SnapshotFormatError

__all__ = [
    "FACTS",
    "HEADER",
    "INVOCATION",
    "JSON_LITERALS",
    "UNKNOWN",
    "Block",
    "Snapshot",
    "TextBlock",
    "is_sensitive",
    "json_scalar",
    "json_string",
    "line_key",
    "natural_key",
    "parse_snapshot",
    "path_key",
    "same_value",
    "shown_alike",
    "shown_apart",
]

FORMAT_VERSION: Final = 1
HEADER: Final = f"# tfplancheck plan snapshot {FORMAT_VERSION}"
HEADER_PREFIX: Final = "# tfplancheck plan snapshot "
COMMENT: Final = (
    "# One planned value per line: (known after apply) is unknown, (sensitive) hidden, no line absent."
)
#: Names the key the fingerprints were made with (a fingerprint of a constant), never the key.
KEY_LINE_PREFIX: Final = "# fingerprint key #"
UNKNOWN: Final = KNOWN_AFTER_APPLY
#: JSON's literal names, by the Python value each stands for (look up only None and bools: 1 == True).
JSON_LITERALS: Final[Mapping[Any, str]] = {None: "null", True: "true", False: "false"}
#: A sensitive value with its fingerprint: ``(sensitive #0123456789ab)``.
FINGERPRINTED: Final = re.compile(r"\(sensitive #([0-9a-f]{12})\)\Z")
#: The facts a block may state, in the order they are written.
FACTS: Final = ("action", "reason", "moved from", "deferred", "identity", "replace")
#: The label of a resource's planned value as a whole (the ``after:`` line).
ROOT_LABEL: Final = "after"
RESOURCE, INVOCATION, OUTPUT = "resource", "invocation", "output"
#: Blocks in this order: resources, then action invocations (Terraform 1.14+), then outputs.
_KIND_RANK: Final = {RESOURCE: 0, INVOCATION: 1, OUTPUT: 2}
_DIGITS: Final = re.compile(r"([0-9]+)")
#: A hidden instance key's fingerprint in an address (a snapshot made with a key).
KEY_FINGERPRINT: Final = re.compile(r"\(sensitive #[0-9a-f]{12}\)")
#: An instance key shown ``"(sensitive)"`` whole, numbered (``"(sensitive 2)"``) among addresses shown alike, or not.
_WHOLE_HIDDEN_KEY: Final = re.compile(r'"\(sensitive(?: ([0-9]+))?\)"')
#: An address numbered among addresses shown alike that have no instance key hidden whole.
_NUMBERED: Final = re.compile(r" \(([0-9]+)\)\Z")
_SHORT_ESCAPES: Final = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def is_sensitive(token: str) -> bool:
    """Whether a value token is a sensitive value (with or without a fingerprint).

    >>> is_sensitive("(sensitive)"), is_sensitive("(sensitive #0123456789ab)"), is_sensitive('"(sensitive)"')
    (True, True, False)
    """
    return token == SENSITIVE or FINGERPRINTED.match(token) is not None


def same_value(old: str, new: str) -> bool:
    """Whether two value tokens stand for the same value.

    Two sensitive values are the same unless both carry fingerprints and these differ: without a
    fingerprint on either side, nothing tells them apart.

    >>> same_value("(sensitive)", "(sensitive #0123456789ab)"), same_value('"a"', '"b"')
    (True, False)
    >>> same_value("(sensitive #0123456789ab)", "(sensitive #ba9876543210)")
    False
    """
    if old == new:
        return True
    return is_sensitive(old) and is_sensitive(new) and (old == SENSITIVE or new == SENSITIVE)


def shown_apart(name: str, n: int) -> str:
    """The name of the ``n``-th (from 1) of the resource objects whose addresses all show as ``name``.

    Addresses show alike where their instance keys hide secrets: the last key hidden whole is
    numbered, else the name is.

    >>> shown_apart('a.b["(sensitive)"]', 2), shown_apart('a.b["x-(sensitive)"]', 1)
    ('a.b["(sensitive 2)"]', 'a.b["x-(sensitive)"] (1)')
    """
    head, sep, tail = name.rpartition(f'"{SENSITIVE}"')
    return f'{head}"(sensitive {n})"{tail}' if sep else f"{name} ({n})"


def shown_alike(name: str) -> str:
    """A resource block's name as every object whose address is shown alike has it: no fingerprint, no number.

    The inverse of :func:`shown_apart`, and of a key's fingerprints: ``"(sensitive #…)"`` (a
    snapshot made with a key) is ``"(sensitive)"``.

    >>> shown_alike('a.b["(sensitive 2)"]'), shown_alike('a.b["x-(sensitive)"] (1)')
    ('a.b["(sensitive)"]', 'a.b["x-(sensitive)"]')
    >>> shown_alike('module.m["(sensitive #0123456789ab)"].a.b["(sensitive #ba9876543210)"]')
    'module.m["(sensitive)"].a.b["(sensitive)"]'
    """
    if "(sensitive" not in name and not name.endswith(")"):
        return name
    name = KEY_FINGERPRINT.sub(SENSITIVE, name)
    numbered = _NUMBERED.search(name)
    if numbered is not None:
        return name[: numbered.start()]
    hidden = list(_WHOLE_HIDDEN_KEY.finditer(name))
    if not hidden or hidden[-1].group(1) is None:
        return name
    last = hidden[-1]
    return f'{name[: last.start()]}"{SENSITIVE}"{name[last.end():]}'


def natural_key(text: str) -> tuple[object, ...]:
    """A sort key putting ``a[2]`` before ``a[10]``: runs of digits compare by value.

    >>> sorted(["a[10]", "a[2]", "b", "a"], key=natural_key)
    ['a', 'a[2]', 'a[10]', 'b']
    """
    parts: list[object] = []
    for i, part in enumerate(_DIGITS.split(text)):
        if i % 2:
            digits = part.lstrip("0")
            parts.append((len(digits), digits, part))
        else:
            parts.append(part)
    return tuple(parts)


def step_key(step: Step) -> tuple[int, str | int]:
    """The sort key of one step: keys (by code point) before indexes (by value), as the walk orders them."""
    return (0, step.key) if isinstance(step, MapStep) else (1, step.index)


@functools.lru_cache(maxsize=1 << 16)
def path_key(text: str) -> tuple[tuple[int, str | int], ...]:
    """The sort key of a value line's path text (the root, ``""``, first).

    >>> sorted(['b', 'a["x"]', 'a[2]', 'a[10]', ''], key=path_key)
    ['', 'a["x"]', 'a[2]', 'a[10]', 'b']
    """
    return tuple(step_key(step) for step in Path.parse(text).steps) if text else ()


@frozen
class Block(FrozenValue):
    """One block of a snapshot: a resource object or an output, its facts and its values.

    ``facts`` are ``(name, text)`` pairs in :data:`FACTS` order; ``values`` are ``(path text,
    value token)`` pairs in path order (the root, ``""``, is a resource's ``after:`` line).

    >>> b = Block("resource", "null_resource.a", 0, (("action", "create"),), (("id", UNKNOWN),))
    >>> print("\\n".join(b.lines()))
    resource null_resource.a
      action: create
      id = (known after apply)
    >>> b.label, Block("output", "ip", 0, (), ()).label, Block("resource", "a.b", 2, (), ()).label
    ('null_resource.a', 'output.ip', 'a.b (deposed 2)')
    """

    kind: str
    name: str
    deposed: int
    facts: tuple[tuple[str, str], ...]
    values: tuple[tuple[str, str], ...]

    if TYPE_CHECKING:  # the constructor takes more than the fields hold: __post_init__ converts
        def __init__(
            self,
            kind: str,
            name: str,
            deposed: int,
            facts: Iterable[tuple[str, str]],
            values: Iterable[tuple[str, str]],
        ) -> None: ...

    def __post_init__(self) -> None:
        self._set(facts=tuple(self.facts), values=tuple(self.values))

    @property
    def key(self) -> tuple[str, str, int]:
        """What identifies the block within a snapshot."""
        return (self.kind, self.name, self.deposed)

    @property
    def sort_key(self) -> tuple[object, ...]:
        """Resources by address (``a[2]`` before ``a[10]``), deposed objects after theirs, then action
        invocations, then outputs."""
        return (_KIND_RANK.get(self.kind, 1), natural_key(self.name), self.name, self.deposed)

    @property
    def label(self) -> str:
        """The block as a review comment names it: ``ADDRESS``, ``ADDRESS (deposed N)``, ``output.NAME``."""
        if self.kind == OUTPUT:
            return f"output.{self.name}"
        if self.kind == INVOCATION:
            return self.name
        return f"{self.name} (deposed {self.deposed})" if self.deposed else self.name

    def header(self) -> str:
        """The block's first line."""
        if self.kind in (OUTPUT, INVOCATION):
            return f"{self.kind} {self.name}"
        return f"resource {self.label}"

    def lines(self) -> list[str]:
        """The block as text lines: its header, its facts, its values."""
        return [self.header(), *body_lines(self.facts, self.values)]

    def fact(self, name: str) -> str | None:
        """The text of the fact ``name`` (the first, for ``replace``), or None."""
        for fact, text in self.facts:
            if fact == name:
                return text
        return None


def body_lines(facts: Iterable[tuple[str, str]], values: Iterable[tuple[str, str]]) -> list[str]:
    """The lines of a block after its header: its facts, then its values (the root as ``after:``)."""
    out = [f"  {name}: {text}" for name, text in facts]
    out.extend(f"  {ROOT_LABEL}: {token}" if not path else f"  {path} = {token}" for path, token in values)
    return out


class TextBlock:
    """A block as the renderer makes it: its identity, and its lines after the header as one text.

    A plan's snapshot is written as text and compared as text first (the common case: equal);
    only a difference is worth the structure (:class:`Block`, by parsing).

    >>> TextBlock("resource", "a.b", 1, "  action: delete").text()
    'resource a.b (deposed 1)\\n  action: delete'
    """

    __slots__ = ("body", "deposed", "kind", "name")

    def __init__(self, kind: str, name: str, deposed: int, body: str) -> None:
        self.kind, self.name, self.deposed, self.body = kind, name, deposed, body

    @property
    def sort_key(self) -> tuple[object, ...]:
        """As :attr:`Block.sort_key`."""
        return (_KIND_RANK.get(self.kind, 1), natural_key(self.name), self.name, self.deposed)

    def text(self) -> str:
        """The block's lines, header first."""
        return Block(self.kind, self.name, self.deposed, (), ()).header() + "\n" + self.body


def snapshot_text(blocks: Iterable[TextBlock], key_id: str | None) -> str:
    """The text of a snapshot of ``blocks`` (in any order), as :meth:`Snapshot.text` writes it."""
    parts = [HEADER]
    if key_id is not None:
        parts.append(KEY_LINE_PREFIX + key_id)
    parts.append(COMMENT)
    for block in sorted(blocks, key=lambda b: b.sort_key):
        parts.append("")
        parts.append(block.text())
    parts.append("")
    return "\n".join(parts)


@frozen
class Snapshot(FrozenValue):
    """A whole snapshot: its blocks in order, and the id of the key its fingerprints were made with.

    >>> s = Snapshot((Block("output", "ip", 0, (("action", "create"),), (("value", '"10.0.0.1"'),)),), None)
    >>> print(s.text(), end="")
    # tfplancheck plan snapshot 1
    # One planned value per line: (known after apply) is unknown, (sensitive) hidden, no line absent.
    <BLANKLINE>
    output ip
      action: create
      value = "10.0.0.1"
    """

    blocks: tuple[Block, ...]
    key_id: str | None

    if TYPE_CHECKING:  # the constructor takes more than the fields hold: __post_init__ converts
        def __init__(self, blocks: Iterable[Block], key_id: str | None) -> None: ...

    def __post_init__(self) -> None:
        self._set(blocks=tuple(sorted(self.blocks, key=lambda b: b.sort_key)))

    def text(self) -> str:
        """The snapshot's text: what a snapshot file holds."""
        blocks = (TextBlock(b.kind, b.name, b.deposed, "\n".join(body_lines(b.facts, b.values))) for b in self.blocks)
        return snapshot_text(blocks, self.key_id)


def json_string(text: str) -> str:
    """``text`` as a JSON string literal that a reviewer can trust: every unprintable character escaped.

    JSON itself leaves line separators, bidirectional overrides and zero-width characters raw; here
    they are ``\\uXXXX``, so what a line shows is what it holds, and a line is one line everywhere.

    >>> print(json_string('say "hi"'), json_string("a\\u2028b\\u202e"), json_string("ключ 🔑"))
    "say \\"hi\\"" "a\\u2028b\\u202e" "ключ 🔑"
    """
    if text.isprintable():
        if '"' not in text and "\\" not in text:
            return f'"{text}"'
        return json.dumps(text, ensure_ascii=False)
    out = ['"']
    for ch in text:
        short = _SHORT_ESCAPES.get(ch)
        if short is not None:
            out.append(short)
        elif ch.isprintable():
            out.append(ch)
        elif ord(ch) > 0xFFFF:
            code = ord(ch) - 0x10000
            out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            out.append(f"\\u{ord(ch):04x}")
    out.append('"')
    return "".join(out)


def json_scalar(value: Any) -> str:
    """The exact JSON text of a scalar (numbers at any size, strings as :func:`json_string` writes them).

    >>> json_scalar(None), json_scalar(True), json_scalar(Decimal("1.50")), json_scalar(10**30)
    ('null', 'true', '1.50', '1000000000000000000000000000000')
    """
    if value is None or isinstance(value, bool):
        return JSON_LITERALS[value]
    if isinstance(value, str):
        return json_string(value)
    if isinstance(value, (int, Decimal)):
        return number_text(value)
    if isinstance(value, float):
        return repr(value)
    return json_string(str(value))


# -- reading the text back

_DEPOSED: Final = re.compile(r"(.+) \(deposed ([0-9]+)\)\Z", re.DOTALL)
_FACT: Final = re.compile(r"(action|reason|moved from|deferred|identity|replace|after):(?: (.*))?\Z", re.DOTALL)
_KEY_ID: Final = re.compile(r"[0-9a-f]{8}\Z")
_SHOWN: Final = 60
_EXPECT_BLOCK: Final = (
    "a block header (resource ADDRESS, invocation ADDRESS (TRIGGER) or output NAME), an indented line of a block, "
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
        elif line.startswith((f"{RESOURCE} ", f"{INVOCATION} ", f"{OUTPUT} ")):
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
