"""Comparing two snapshots: their differences as review comments, one line per change, in a fixed order.

Blocks in snapshot order (resources by address, then outputs); within a block, its facts
(action, reason, moved from, deferred, identity, replace paths), then its values in path order::

    + cloud_bucket.extra (create)
    - cloud_bucket.old
    cloud_bucket.logs: action: create -> delete, create
    cloud_bucket.logs: + replace: name
    cloud_bucket.logs: name: "logs" -> "logs2"
    cloud_bucket.logs: + tags["env"] = "prod"
    cloud_bucket.logs: arn: "arn:aws:s3:::logs" -> (known after apply)
    cloud_bucket.logs: password: (sensitive) -> (sensitive, changed)
    cloud_bucket.logs: token: (sensitive, unmarked) -> (sensitive)
    output.ip: value: "10.0.0.1" -> (known after apply)

A fingerprint is never shown (only whether it changed), and a long value is cut short. A value
marked sensitive on either side is hidden on both, as in every comparison the library shows: a
value at a path (or under a path) the other side marks is ``(sensitive, unmarked)``, since its own
side did not mark it (a hand-edited snapshot file, a value a provider upgrade made sensitive).
Its text is a secret: :func:`differences` hands it to the caller, to scrub wherever else it shows.

Resource objects whose addresses hide their instance keys are matched by the keys' fingerprints
where both sides have them under one key (a value moved between two of them shows), and else by
what they hold, as a snapshot made without a key numbers them (see :func:`_told_apart`)::

    null_resource.a["(sensitive 1)"]: size: 1 -> 2

A plan of 20,000 resources has a snapshot of tens of megabytes; one changed value must not cost
reading all of it back. Both texts are cut into blocks at their headers; a block whose text is
the same on both sides says the same, and is passed over. The rest (and the preambles, where
the fingerprint key is named) are parsed, with the file's line numbers, and compared value by
value; with each, every block told apart from it only by a number or a fingerprint (the deposed
objects of one address, the objects whose addresses hide their keys), as such blocks are matched
up as a group (:func:`differences`). A text that cannot be cut cleanly (a
header given twice) is parsed whole, which names the fault.
"""

from __future__ import annotations

import json
import re
from typing import Final

from tfjsonpath import MapStep, Path

from .._documents.met import met
from .._loading.collector import collector_off
from .._redact import SENSITIVE, SENSITIVE_CHANGED, SENSITIVE_UNMARKED, Secrets
from ._errors import SnapshotFormatError
from ._format import (
    FACTS,
    FINGERPRINTED,
    INVOCATION,
    KEY_FINGERPRINT,
    OUTPUT,
    RESOURCE,
    ROOT_LABEL,
    UNKNOWN,
    Block,
    Snapshot,
    body_lines,
    is_sensitive,
    natural_key,
    parse_snapshot,
    path_key,
    same_value,
    shown_alike,
    shown_apart,
)

__all__ = [
    "HIDDEN_UNMARKED", "KEY_CHANGED", "compare_texts", "differences", "review", "scrubbed_error", "secret_text", "shown_value",
]

#: Values longer than this are cut in a review comment (the file keeps them whole).
MAX_SHOWN: Final = 72
KEY_CHANGED: Final = (
    "sensitive values: fingerprinted with another key than the snapshot's, so their changes are not compared "
    "(update the snapshot)"
)
_NONE: Final = "(none)"
#: A value hidden because the other side marks its path (or a path holding it): it was not marked on its own side.
HIDDEN_UNMARKED: Final = SENSITIVE_UNMARKED
#: Value tokens that hold no text worth hiding, and would blank ordinary words if scrubbed as secrets.
_NO_SECRET: Final = frozenset({"null", "true", "false", "{}", "[]", UNKNOWN})
_HEADS: Final = (f"{RESOURCE} ", f"{OUTPUT} ", f"{INVOCATION} ")
_DEPOSED: Final = re.compile(r" \(deposed [0-9]+\)\Z")


def shown_value(token: str) -> str:
    """A value token as a review comment shows it: a fingerprint hidden, a long value cut.

    >>> shown_value("(sensitive #0123456789ab)"), shown_value('"' + "x" * 100 + '"')[-6:]
    ('(sensitive)', 'xxxx…"')
    """
    if is_sensitive(token):
        return SENSITIVE
    if len(token) <= MAX_SHOWN:
        return token
    if token.startswith('"'):
        return token[: MAX_SHOWN - 2] + '…"'
    return token[: MAX_SHOWN - 1] + "…"


def _change(old: str, new: str) -> str:
    if is_sensitive(old) and is_sensitive(new):
        return f"{SENSITIVE} -> {SENSITIVE_CHANGED}"
    return f"{shown_value(old)} -> {shown_value(new)}"


class _Marked:
    """The paths of a block that either side marks sensitive, and what hiding under them found.

    The snapshot form of the rule every comparison keeps (:func:`plancheck._checking.equality.render_compared`):
    each side is shown under the union of both sides' marks.
    """

    __slots__ = ("hidden", "paths")

    def __init__(self, old: Block, new: Block, hidden: list[str] | None) -> None:
        self.paths = {path for path, token in (*old.values, *new.values) if is_sensitive(token)}
        self.hidden = hidden

    def covers(self, path: str) -> bool:
        """Whether ``path`` or a path holding it is marked on either side."""
        return self._covered_below(path) is not None

    def _covered_below(self, path: str) -> list[str] | None:
        """The map keys of ``path`` below the outermost path either side marks (``[]``: none), or None when unmarked.

        >>> marked = _Marked(Block("resource", "a.b", 0, [], [("tags", "(sensitive)")]), Block("resource", "a.b", 0, [], []), None)
        >>> marked._covered_below('tags["k1"]'), marked._covered_below("tags"), marked._covered_below("n")
        (['k1'], [], None)
        """
        paths = self.paths
        if not paths:
            return None
        if "" in paths:
            return [step.key for step in Path.parse(path).steps if isinstance(step, MapStep)] if path else []
        if path in paths:
            return []
        steps = Path.parse(path).steps if path else ()
        for i in range(1, len(steps)):
            if Path(*steps[:i]).to_text() in paths:
                return [step.key for step in steps[i:] if isinstance(step, MapStep)]
        return None

    def show(self, path: str, token: str) -> str:
        """``token`` as a review comment shows it, hidden if either side marks its path.

        A map key below the marked path is as secret as the value (a marked map's keys are), and is handed on
        with it: the line is scrubbed of it, where its path shows it. An unknown value is shown (it holds no
        secret), but its path names such a key all the same.
        """
        if is_sensitive(token):
            return SENSITIVE
        keys = self._covered_below(path)
        if keys is None:
            return shown_value(token)
        if self.hidden is not None:
            if token not in _NO_SECRET:
                self.hidden.append(secret_text(token))
            self.hidden.extend(keys)
        return shown_value(token) if token == UNKNOWN else HIDDEN_UNMARKED


def secret_text(token: str) -> str:
    """The text a value token shows: a quoted string's content, else the token (a number).

    >>> secret_text('"hunter2"'), secret_text("4321")
    ('hunter2', '4321')
    """
    if token.startswith('"'):
        try:
            text = json.loads(token)
        except ValueError:
            return token
        return text if isinstance(text, str) else token
    return token


def _unfingerprinted(token: str) -> str:
    return SENSITIVE if is_sensitive(token) else token


def differences(old: Snapshot, new: Snapshot, hidden: list[str] | None = None) -> list[str]:
    """Every difference from ``old`` to ``new``, one review comment each.

    ``hidden``, when given, receives the text of every value hidden because the other side marks its
    path: a secret written in clear on one side (to scrub from anything else that shows that side).

    >>> a = Snapshot([Block("resource", "a.b", 0, [("action", "create")], [("n", '"x"'), ("pw", '"hunter2"')])], None)
    >>> b = Snapshot([Block("resource", "a.b", 0, [("action", "update")], [("n", '"y"'), ("pw", "(sensitive)")])], None)
    >>> found = []
    >>> differences(a, b, found), found
    (['a.b: action: create -> update', 'a.b: n: "x" -> "y"', 'a.b: pw: (sensitive, unmarked) -> (sensitive)'], ['hunter2'])
    """
    lines: list[str] = []
    compare_fingerprints = True
    if old.key_id is not None and new.key_id is not None and old.key_id != new.key_id:
        lines.append(KEY_CHANGED)
        compare_fingerprints = False
    old, new, labels, by_content = _told_apart(old, new, old.key_id is not None and old.key_id == new.key_id)
    before = {block.key: block for block in old.blocks}
    after = {block.key: block for block in new.blocks}
    keys = sorted({**before, **after}.values(), key=lambda b: b.sort_key)
    for block in keys:
        was, now = before.get(block.key), after.get(block.key)
        label = block.label if block.name not in labels else Block(block.kind, labels[block.name], block.deposed, (), ()).label
        if was is None:
            assert now is not None
            lines.append(f"+ {label} ({now.fact('action') or _NONE})")
        elif now is None:
            lines.append(f"- {label}")
        elif was != now:
            compared = compare_fingerprints and block.key not in by_content
            lines.extend(f"{label}: {line}" for line in _block_differences(was, now, compared, hidden))
    return lines


def _fingerprinted(block: Block) -> bool:
    """Whether the block holds a fingerprint: in its name (a hidden instance key) or a value."""
    return KEY_FINGERPRINT.search(block.name) is not None or any(
        FINGERPRINTED.match(token) is not None for _, token in block.values
    )


def _unkeyed_body(block: Block) -> str:
    """The lines of ``block`` after its header as a snapshot made without a key has them."""
    return "\n".join(body_lines(block.facts, ((path, _unfingerprinted(token)) for path, token in block.values)))


def _told_apart(
    old: Snapshot, new: Snapshot, comparable: bool
) -> tuple[Snapshot, Snapshot, dict[str, str], set[tuple[str, str, int]]]:
    """Both snapshots with their resource objects shown alike matched up; labels; the blocks matched by content.

    The objects of one address (deposed ones) and of the addresses shown alike (their instance keys
    hide secrets) are told apart by a number. A snapshot made without a key numbers them by what
    they hold; one made with a key fingerprints each hidden instance key instead (and numbers
    deposed objects by what they hold, fingerprints included). Where both sides fingerprint every
    hidden key of such a group under one key (``comparable``), its objects are matched by
    fingerprint: a value that moved between two of them is a difference. Anywhere else (a side made
    without the key, or with another, or before hidden keys were fingerprinted) each side is
    numbered again as a snapshot made without a key numbers it, so the two compare as such
    snapshots do: their sensitive values too, as the fingerprints of two objects matched by what
    they hold are no one value's. What holds no fingerprint is numbered so already, and so are the
    deposed objects of an address with no hidden key, made with one key: both are left as they are.

    The labels name the objects matched by fingerprint in review comments, numbered in
    fingerprint order (``"(sensitive 1)"``): a fingerprint itself is never shown.
    """
    groups: dict[str, tuple[dict[str, list[Block]], dict[str, list[Block]]]] = {}
    for side, snapshot in enumerate((old, new)):
        for block in snapshot.blocks:
            if block.kind != RESOURCE:
                continue
            alike = shown_alike(block.name)
            if alike != block.name or block.deposed or SENSITIVE in block.name:
                groups.setdefault(alike, ({}, {}))[side].setdefault(block.name, []).append(block)
    labels: dict[str, str] = {}
    renamed: tuple[dict[tuple[str, str, int], Block], dict[tuple[str, str, int], Block]] = ({}, {})
    for alike, sides in groups.items():
        if not any(_fingerprinted(block) for side in sides for blocks in side.values() for block in blocks):
            continue
        names = {*sides[0], *sides[1]}
        if comparable and all(KEY_FINGERPRINT.search(name) is not None for name in names):
            ordered = sorted(names, key=lambda name: (natural_key(name), name))
            labels.update((name, alike if len(ordered) == 1 else shown_apart(alike, n)) for n, name in enumerate(ordered, 1))
            continue
        if comparable and SENSITIVE not in alike:
            continue
        for objects, found in zip(sides, renamed, strict=True):
            found.update(_renumbered(alike, objects))
    by_content = {block.key for found in renamed for block in found.values()}
    return _with(old, renamed[0]), _with(new, renamed[1]), labels, by_content


def _with(snapshot: Snapshot, renamed: dict[tuple[str, str, int], Block]) -> Snapshot:
    """``snapshot`` with the blocks ``renamed`` has (by their key) in place of its own."""
    if not renamed:
        return snapshot
    return Snapshot((renamed.get(block.key, block) for block in snapshot.blocks), snapshot.key_id)


def _renumbered(alike: str, objects: dict[str, list[Block]]) -> dict[tuple[str, str, int], Block]:
    """Each block of ``objects`` (by name, all shown alike as ``alike``) by its key: named and numbered as without a key."""
    instances: list[list[tuple[tuple[str, str, int], Block]]] = []
    for blocks in objects.values():
        current = [(b.key, b) for b in blocks if not b.deposed]
        deposed = sorted((b for b in blocks if b.deposed), key=_unkeyed_body)
        instances.append(current + [(b.key, Block(b.kind, b.name, n, b.facts, b.values)) for n, b in enumerate(deposed, 1)])
    instances.sort(key=lambda instance: [(b.deposed, _unkeyed_body(b)) for _, b in instance])
    out: dict[tuple[str, str, int], Block] = {}
    for n, instance in enumerate(instances, 1):
        name = alike if len(instances) == 1 else shown_apart(alike, n)
        out.update((was, Block(b.kind, name, b.deposed, b.facts, b.values)) for was, b in instance)
    return out


def _block_differences(old: Block, new: Block, compare_fingerprints: bool, hidden: list[str] | None) -> list[str]:
    lines: list[str] = []
    for name in FACTS:
        if name == "replace":
            continue
        was, now = old.fact(name) or _NONE, new.fact(name) or _NONE
        if was != now:
            lines.append(f"{name}: {was} -> {now}")
    old_replace = {text for name, text in old.facts if name == "replace"}
    new_replace = {text for name, text in new.facts if name == "replace"}
    for text in sorted(old_replace ^ new_replace, key=path_key):
        lines.append(f"{'-' if text in old_replace else '+'} replace: {text}")
    was_values, now_values = dict(old.values), dict(new.values)
    if not compare_fingerprints:
        was_values = {path: _unfingerprinted(token) for path, token in was_values.items()}
        now_values = {path: _unfingerprinted(token) for path, token in now_values.items()}
    marked = _Marked(old, new, hidden)
    for path in sorted(was_values.keys() | now_values.keys(), key=path_key):
        was_token, now_token = was_values.get(path), now_values.get(path)
        if was_token is None:
            assert now_token is not None
            shown = marked.show(path, now_token)
            lines.append(f"+ {ROOT_LABEL}: {shown}" if not path else f"+ {path} = {shown}")
        elif now_token is None:
            shown = marked.show(path, was_token)
            lines.append(f"- {ROOT_LABEL}: {shown}" if not path else f"- {path} = {shown}")
        elif not same_value(was_token, now_token):
            if is_sensitive(was_token) and is_sensitive(now_token):
                lines.append(f"{path or ROOT_LABEL}: {_change(was_token, now_token)}")
            else:
                lines.append(f"{path or ROOT_LABEL}: {marked.show(path, was_token)} -> {marked.show(path, now_token)}")
    return lines


# -- comparing texts: only the blocks that differ are read back


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
    :func:`differences`).

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
    try:
        lines = compare_texts(old, new, old_file, new_file, hidden)
    except SnapshotFormatError as exc:  # a side that is no snapshot quotes its text: a word there may be a secret
        raise scrubbed_error(exc, secrets) from None
    found = secrets
    if hidden:
        found = secrets | Secrets(hidden)
        met(Secrets(hidden))
    # Two lines that differ only in secrets say the same once scrubbed (two hidden keys of one map): said once.
    return list(dict.fromkeys(found.scrub(line) for line in lines)), found


def scrubbed_error(exc: SnapshotFormatError, secrets: Secrets) -> SnapshotFormatError:
    """``exc`` with what it quotes of the snapshot text scrubbed of ``secrets``.

    >>> str(scrubbed_error(SnapshotFormatError("a.snap", 3, "a value", found="'hunter2'"), Secrets(["hunter2"])))
    "a.snap:3: expected a value, found '(sensitive)'"
    """
    found = None if exc.found is None else secrets.scrub(exc.found)
    return SnapshotFormatError(exc.file, exc.line, secrets.scrub(exc.expected), found=found)


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
