"""Comparing two snapshot texts: block by block, reading back into structure only the blocks whose text differs.

A plan of 20,000 resources has a snapshot of tens of megabytes; one changed value must not cost
reading all of it back. Both texts are cut into blocks at their headers; a block whose text is
the same on both sides says the same, and is passed over. The rest (and the preambles, where
the fingerprint key is named) are parsed, with the file's line numbers, and compared value by
value. A text that cannot be cut cleanly (a header given twice) is parsed whole, which names
the fault.
"""

from __future__ import annotations

from typing import Final

from .._loading.collector import collector_off
from ._diff import differences
from ._model import OUTPUT, RESOURCE, Snapshot
from ._parse import parse_snapshot

__all__ = ["compare_texts"]

_HEADS: Final = (f"{RESOURCE} ", f"{OUTPUT} ")


def _blocks(text: str) -> tuple[list[str], dict[str, tuple[int, list[str]]]] | None:
    """The preamble's lines, and each block's (first line number, lines) by header; None if a header repeats."""
    lines = text.split("\n")
    blocks: dict[str, tuple[int, list[str]]] = {}
    current: list[str] = []
    preamble = current
    for number, line in enumerate(lines, start=1):
        if line.startswith(_HEADS):
            if line in blocks:
                return None
            current = []
            blocks[line] = (number, current)
        current.append(line)
    for _, block in blocks.values():
        while block and not block[-1]:
            block.pop()
    return preamble, blocks


def _part(preamble: list[str], blocks: dict[str, tuple[int, list[str]]], headers: list[str]
          ) -> tuple[str, list[int]]:
    """The text of the preamble and the blocks ``headers``, and the file line number of each of its lines."""
    lines = list(preamble)
    numbers = list(range(1, len(preamble) + 1))
    for header in headers:
        first, block = blocks[header]
        lines.extend(block)
        numbers.extend(range(first, first + len(block)))
    return "\n".join(lines), numbers


def compare_texts(old: str, new: str, old_file: str | None = None, new_file: str | None = None) -> list[str]:
    """The differences from snapshot text ``old`` to ``new`` (review comments), parsing only what differs.

    >>> text = "# tfplancheck plan snapshot 1\\n\\nresource a.b\\n  action: create\\n  n = 1\\n"
    >>> compare_texts(text, text.replace("n = 1", "n = 2"))
    ['a.b: n: 1 -> 2']
    """
    if old == new:
        return []
    with collector_off():  # reading texts back makes many objects and no cycle: see collector_off
        return _differences(old, new, old_file, new_file)


def _differences(old: str, new: str, old_file: str | None, new_file: str | None) -> list[str]:
    cut_old, cut_new = _blocks(old), _blocks(new)
    if cut_old is None or cut_new is None:
        return differences(parse_snapshot(old, old_file), parse_snapshot(new, new_file))
    old_preamble, old_blocks = cut_old
    new_preamble, new_blocks = cut_new
    differ_old = [h for h, (_, lines) in old_blocks.items() if h not in new_blocks or new_blocks[h][1] != lines]
    differ_new = [h for h, (_, lines) in new_blocks.items() if h not in old_blocks or old_blocks[h][1] != lines]
    parsed: list[Snapshot] = []
    for preamble, blocks, headers, file in ((old_preamble, old_blocks, differ_old, old_file),
                                            (new_preamble, new_blocks, differ_new, new_file)):
        text, numbers = _part(preamble, blocks, headers)
        parsed.append(parse_snapshot(text, file, numbers))
    return differences(parsed[0], parsed[1])
