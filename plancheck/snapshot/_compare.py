"""Comparing two snapshot texts: block by block, reading back into structure only the blocks whose text differs.

A plan of 20,000 resources has a snapshot of tens of megabytes; one changed value must not cost
reading all of it back. Both texts are cut into blocks at their headers; a block whose text is
the same on both sides says the same, and is passed over. The rest (and the preambles, where
the fingerprint key is named) are parsed, with the file's line numbers, and compared value by
value; with each, every block told apart from it only by a number or a fingerprint (the deposed
objects of one address, the objects whose addresses hide their keys), as such blocks are matched
up as a group (:func:`plancheck.snapshot._diff.differences`). A text that cannot be cut cleanly (a
header given twice) is parsed whole, which names the fault.
"""

from __future__ import annotations

import re
from typing import Final

from .._documents.met import met
from .._loading.collector import collector_off
from .._redact import Secrets
from ._diff import differences
from ._model import OUTPUT, RESOURCE, Snapshot, shown_alike
from ._parse import parse_snapshot

__all__ = ["compare_texts", "review"]

_HEADS: Final = (f"{RESOURCE} ", f"{OUTPUT} ")
_DEPOSED: Final = re.compile(r" \(deposed [0-9]+\)\Z")


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


def compare_texts(
    old: str, new: str, old_file: str | None = None, new_file: str | None = None, hidden: list[str] | None = None
) -> list[str]:
    """The differences from snapshot text ``old`` to ``new`` (review comments), parsing only what differs.

    ``hidden`` receives the text of each value hidden because the other side marks it (see
    :func:`plancheck.snapshot._diff.differences`).

    >>> text = "# tfplancheck plan snapshot 1\\n\\nresource a.b\\n  action: create\\n  n = 1\\n"
    >>> compare_texts(text, text.replace("n = 1", "n = 2"))
    ['a.b: n: 1 -> 2']
    """
    if old == new:
        return []
    with collector_off():  # reading texts back makes many objects and no cycle: see collector_off
        return _differences(old, new, old_file, new_file, hidden)


def review(
    old: str, new: str, secrets: Secrets, old_file: str | None = None, new_file: str | None = None
) -> tuple[list[str], Secrets]:
    """The differences from ``old`` to ``new``, scrubbed; and every secret they were scrubbed of.

    The one way a comparison of snapshot texts is shown. Besides ``secrets`` (the plan's), each side
    is a source of secrets of its own: a file was written by us, so a value in it at a path the other
    side marks sensitive is a secret written in clear (hand-edited, or from before a provider marked
    it). Those values are hidden in the lines (``(sensitive, unmarked)``), scrubbed from every other
    line, returned, and told to the front end listening (:mod:`plancheck._documents.met`), so that
    whatever else shows the file (a pytest report: syrupy's repr of the snapshot) is scrubbed of them too.

    >>> text = "# tfplancheck plan snapshot 1\\n\\nresource a.b\\n  action: create\\n  pw = (sensitive)\\n"
    >>> review(text.replace("(sensitive)", '"hunter2"'), text, Secrets())
    (['a.b: pw: (sensitive, unmarked) -> (sensitive)'], <Secrets: 1 values>)
    """
    hidden: list[str] = []
    lines = compare_texts(old, new, old_file, new_file, hidden)
    found = secrets
    if hidden:
        found = secrets | Secrets(hidden)
        met(Secrets(hidden))
    return [found.scrub(line) for line in lines], found


def _group(header: str) -> str | None:
    """The block's objects shown alike (:func:`shown_alike`), for a block told apart from others by a number or key."""
    if not header.startswith(_HEADS[0]) or ("(sensitive" not in header and not header.endswith(")")):
        return None
    return shown_alike(_DEPOSED.sub("", header[len(_HEADS[0]) :]))


def _with_groups(differ_old: list[str], differ_new: list[str], old_blocks: dict[str, tuple[int, list[str]]],
                 new_blocks: dict[str, tuple[int, list[str]]]) -> None:
    """Add to the differing headers of each side every header of a group one of them belongs to."""
    wanted = {group for header in (*differ_old, *differ_new) if (group := _group(header)) is not None}
    if not wanted:
        return
    for differ, blocks in ((differ_old, old_blocks), (differ_new, new_blocks)):
        have = set(differ)
        differ.extend(h for h in blocks if h not in have and _group(h) in wanted)


def _differences(old: str, new: str, old_file: str | None, new_file: str | None, hidden: list[str] | None) -> list[str]:
    cut_old, cut_new = _blocks(old), _blocks(new)
    if cut_old is None or cut_new is None:
        return differences(parse_snapshot(old, old_file), parse_snapshot(new, new_file), hidden)
    old_preamble, old_blocks = cut_old
    new_preamble, new_blocks = cut_new
    differ_old = [h for h, (_, lines) in old_blocks.items() if h not in new_blocks or new_blocks[h][1] != lines]
    differ_new = [h for h, (_, lines) in new_blocks.items() if h not in old_blocks or old_blocks[h][1] != lines]
    _with_groups(differ_old, differ_new, old_blocks, new_blocks)
    parsed: list[Snapshot] = []
    for preamble, blocks, headers, file in ((old_preamble, old_blocks, differ_old, old_file),
                                            (new_preamble, new_blocks, differ_new, new_file)):
        text, numbers = _part(preamble, blocks, headers)
        parsed.append(parse_snapshot(text, file, numbers))
    return differences(parsed[0], parsed[1], hidden)
