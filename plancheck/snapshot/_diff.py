"""The differences between two snapshots, as review comments: one line per change, in a fixed order.

Blocks in snapshot order (resources by address, then outputs); within a block, its facts
(action, reason, moved from, deferred, replace paths), then its values in path order::

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
"""

from __future__ import annotations

import json
from typing import Final

from tfjsonpath import Path

from .._redact import SENSITIVE
from ._model import FACTS, ROOT_LABEL, UNKNOWN, Block, Snapshot, is_sensitive, path_key, same_value

__all__ = ["HIDDEN_UNMARKED", "KEY_CHANGED", "differences", "secret_text", "shown_value"]

#: Values longer than this are cut in a review comment (the file keeps them whole).
MAX_SHOWN: Final = 72
KEY_CHANGED: Final = (
    "sensitive values: fingerprinted with another key than the snapshot's, so their changes are not compared "
    "(update the snapshot)"
)
_NONE: Final = "(none)"
#: A value hidden because the other side marks its path (or a path holding it): it was not marked on its own side.
HIDDEN_UNMARKED: Final = "(sensitive, unmarked)"
#: Value tokens that hold no text worth hiding, and would blank ordinary words if scrubbed as secrets.
_NO_SECRET: Final = frozenset({"null", "true", "false", "{}", "[]", UNKNOWN})


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
        return f"{SENSITIVE} -> (sensitive, changed)"
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
        paths = self.paths
        if not paths:
            return False
        if path in paths or "" in paths:
            return True
        steps = Path.parse(path).steps if path else ()
        return any(Path(*steps[:i]).to_text() in paths for i in range(1, len(steps)))

    def show(self, path: str, token: str) -> str:
        """``token`` as a review comment shows it, hidden if either side marks its path."""
        if is_sensitive(token):
            return SENSITIVE
        if token == UNKNOWN or not self.covers(path):
            return shown_value(token)
        if self.hidden is not None and token not in _NO_SECRET:
            self.hidden.append(secret_text(token))
        return HIDDEN_UNMARKED


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
    before = {block.key: block for block in old.blocks}
    after = {block.key: block for block in new.blocks}
    keys = sorted({**before, **after}.values(), key=lambda b: b.sort_key)
    for block in keys:
        was, now = before.get(block.key), after.get(block.key)
        if was is None:
            assert now is not None
            lines.append(f"+ {now.label} ({now.fact('action') or _NONE})")
        elif now is None:
            lines.append(f"- {was.label}")
        elif was != now:
            lines.extend(f"{block.label}: {line}" for line in _block_differences(was, now, compare_fingerprints, hidden))
    return lines


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
