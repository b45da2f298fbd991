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
    output.ip: value: "10.0.0.1" -> (known after apply)

A fingerprint is never shown (only whether it changed), and a long value is cut short.
"""

from __future__ import annotations

from typing import Final

from .._redact import SENSITIVE
from ._model import FACTS, ROOT_LABEL, Block, Snapshot, is_sensitive, path_key, same_value

__all__ = ["KEY_CHANGED", "differences", "shown_value"]

#: Values longer than this are cut in a review comment (the file keeps them whole).
MAX_SHOWN: Final = 72
KEY_CHANGED: Final = (
    "sensitive values: fingerprinted with another key than the snapshot's, so their changes are not compared "
    "(update the snapshot)"
)
_NONE: Final = "(none)"


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


def _unfingerprinted(token: str) -> str:
    return SENSITIVE if is_sensitive(token) else token


def differences(old: Snapshot, new: Snapshot) -> list[str]:
    """Every difference from ``old`` to ``new``, one review comment each.

    >>> a = Snapshot([Block("resource", "a.b", 0, [("action", "create")], [("n", '"x"')])], None)
    >>> b = Snapshot([Block("resource", "a.b", 0, [("action", "update")], [("n", '"y"')])], None)
    >>> differences(a, b)
    ['a.b: action: create -> update', 'a.b: n: "x" -> "y"']
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
            lines.extend(f"{block.label}: {line}" for line in _block_differences(was, now, compare_fingerprints))
    return lines


def _block_differences(old: Block, new: Block, compare_fingerprints: bool) -> list[str]:
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
    for path in sorted(was_values.keys() | now_values.keys(), key=path_key):
        was_token, now_token = was_values.get(path), now_values.get(path)
        if was_token is None:
            assert now_token is not None
            lines.append(f"+ {ROOT_LABEL}: {shown_value(now_token)}" if not path else f"+ {path} = {shown_value(now_token)}")
        elif now_token is None:
            lines.append(f"- {ROOT_LABEL}: {shown_value(was_token)}" if not path else f"- {path} = {shown_value(was_token)}")
        elif not same_value(was_token, now_token):
            lines.append(f"{path or ROOT_LABEL}: {_change(was_token, now_token)}")
    return lines
