"""A plan snapshot as a structure: blocks of resource changes and outputs, and its one text form.

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
same structure, so two snapshots are compared value by value, not line by line.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from tfjsonpath import MapStep, Path, Step

from .._frozen import FrozenValue, frozen
from .._redact import SENSITIVE

__all__ = [
    "FACTS",
    "HEADER",
    "UNKNOWN",
    "Block",
    "Snapshot",
    "TextBlock",
    "is_sensitive",
    "natural_key",
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
UNKNOWN: Final = "(known after apply)"
#: A sensitive value with its fingerprint: ``(sensitive #0123456789ab)``.
FINGERPRINTED: Final = re.compile(r"\(sensitive #([0-9a-f]{12})\)\Z")
#: The facts a block may state, in the order they are written.
FACTS: Final = ("action", "reason", "moved from", "deferred", "replace")
#: The label of a resource's planned value as a whole (the ``after:`` line).
ROOT_LABEL: Final = "after"
RESOURCE, OUTPUT = "resource", "output"
_DIGITS: Final = re.compile(r"([0-9]+)")
#: A hidden instance key's fingerprint in an address (a snapshot made with a key).
KEY_FINGERPRINT: Final = re.compile(r"\(sensitive #[0-9a-f]{12}\)")
#: An instance key shown ``"(sensitive)"`` whole, numbered (``"(sensitive 2)"``) among addresses shown alike, or not.
_WHOLE_HIDDEN_KEY: Final = re.compile(r'"\(sensitive(?: ([0-9]+))?\)"')
#: An address numbered among addresses shown alike that have no instance key hidden whole.
_NUMBERED: Final = re.compile(r" \(([0-9]+)\)\Z")


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
        """Resources by address (``a[2]`` before ``a[10]``), deposed objects after theirs, then outputs."""
        return (self.kind != RESOURCE, natural_key(self.name), self.name, self.deposed)

    @property
    def label(self) -> str:
        """The block as a review comment names it: ``ADDRESS``, ``ADDRESS (deposed N)``, ``output.NAME``."""
        if self.kind == OUTPUT:
            return f"output.{self.name}"
        return f"{self.name} (deposed {self.deposed})" if self.deposed else self.name

    def header(self) -> str:
        """The block's first line."""
        if self.kind == OUTPUT:
            return f"output {self.name}"
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
        return (self.kind != RESOURCE, natural_key(self.name), self.name, self.deposed)

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
