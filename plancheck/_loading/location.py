"""Where a problem in a document is, for its error: a JSON location (``$.resource_changes[3].change.actions``),
with every key that is a secret shown as ``(sensitive)``: a key of a map some marks tree marks, or, where the
marks cannot be read, every key inside a holder's values or trees (failing closed).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any, Final

from tfjsonpath import MapStep, SliceStep
from tfjsonpath._jsontypes import is_object, is_sequence

__all__ = ["PathKey", "hidden_from", "hidden_inside", "hidden_keys_from", "json_location"]

PathKey = tuple[str | int, ...]


def json_location(path: PathKey, hidden_from: int | None = None, start: int = 0) -> str:
    """A JSON location for messages: ``$``, ``$.resource_changes[3].change.actions``, ``$.output_changes["a-b"]``;
    a key at index ``hidden_from`` of ``path`` or after it is shown as ``(sensitive)`` (see :func:`hidden_from`).
    ``start`` drops the steps before it: the location within an entry (a view built alone) of a path in a document.

    >>> json_location(("resource_changes", 3, "change", "actions"))
    '$.resource_changes[3].change.actions'
    >>> json_location(("output_changes", "my-output"))
    '$.output_changes["my-output"]'
    >>> json_location(("resource_changes", 0, "change", "after_unknown", "tags", "hunter2", 1), hidden_from=5)
    '$.resource_changes[0].change.after_unknown.tags["(sensitive)"][1]'
    >>> json_location(("resource_changes", 0, "change", "after", "hunter2"), hidden_from=4, start=3)
    '$.after["(sensitive)"]'
    """
    parts = ["$"]
    for i in range(start, len(path)):
        step = path[i]
        if isinstance(step, int):
            parts.append(f"[{step}]")
        elif hidden_from is not None and i >= hidden_from:
            # An error's path only: loading a valid document imports no redaction.
            from .._redact import SENSITIVE

            parts.append(f'["{SENSITIVE}"]')
        elif _IDENTIFIER.fullmatch(step):
            parts.append(f".{step}")
        else:
            parts.append(f"[{json.dumps(step, ensure_ascii=False)}]")
    return "".join(parts)


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

#: The trees a holder (a resource change's ``change``, an action invocation, a resource of a state) keeps beside
#: its values, keyed as the values are: a location inside one names the keys of the values' maps.
_TREES: Final = frozenset((
    "before_sensitive", "after_sensitive", "after_unknown", "before_unknown", "config_sensitive", "config_unknown",
    "sensitive_values",
))  # fmt: skip
#: A holder's values and the marks that say which of them are sensitive (a sensitive map's keys are secrets too).
_MARKED_SIDES: Final = (
    ("before", "before_sensitive"), ("after", "after_sensitive"), ("config_values", "config_sensitive"),
    ("values", "sensitive_values"), ("value", "sensitive"), ("default", "sensitive"),
)  # fmt: skip
#: Where a location enters a holder: one of its trees, or one of its values (a value's own keys, named by a
#: location only when the text itself is broken there: a repeated key, a number out of range).
_INSIDE: Final = _TREES | {values for values, _ in _MARKED_SIDES}


def hidden_inside(path: PathKey, at: PathKey = ()) -> int | None:
    """The index of ``path`` from which its keys are hidden when no marks can be read: every key inside a holder's
    value or tree (failing closed); the way to the holder still says where.

    >>> hidden_inside(("resource_changes", 0, "change", "after", "tags", "k"))
    4
    >>> hidden_inside(("prior_state", "values", "outputs", "region", "value", "k"))
    5
    """
    for i in range(len(at), len(path)):
        # A state's own "values" (a state's top level, a plan's prior state's) is the way to its holders, no value.
        if path[i] in _INSIDE and not (path[i] == "values" and path[:i] in ((), ("prior_state",))):
            return i + 1
    return None


def hidden_from(path: PathKey, document: Any, at: PathKey = ()) -> int | None:
    """The index of ``path`` from which its keys are secrets, or None: a location inside a holder's tree (a marks or
    unknown tree) names keys of its values, and a key of a map that any of the holder's marks trees marks (itself or
    an ancestor: the other side's too) is a secret, as it is in every message. ``document`` is what ``path``
    starts in, found at ``at`` (an entry checked alone). Where the holder cannot be read, every key inside the tree is.

    >>> change = {"before": {"tags": {"k-secret": "v"}}, "before_sensitive": {"tags": True},
    ...           "after_unknown": {"tags": {"k-secret": "?"}}}
    >>> hidden_from(("resource_changes", 0, "change", "after_unknown", "tags", "k-secret"), {"resource_changes": [{"change": change}]})
    5
    >>> hidden_from(("change", "after_unknown", "tags", "k-secret"), {"change": {**change, "before_sensitive": {}}}) is None
    True
    """
    try:
        if path[:1] == ("variables",) and path[2:3] == ("value",) and len(path) > 3:
            # A plan's variable is sensitive where its configuration says so (a state output, a configuration's
            # variable, say it beside their value: the sides above); the variables read alone (the lazy route's)
            # cannot ask it, so every one is (failing closed).
            config = _member(document, "configuration", "root_module", "variables", path[1])
            if at or (is_object(config) and config.get("sensitive", False) is not False):
                return 3
        node = document
        for i in range(len(at), len(path)):
            step = path[i]
            if isinstance(step, str) and step in _INSIDE and is_object(node):
                found = _marked_from(node, path[i + 1 :], i + 1)
                if found is not None or step in _TREES:
                    return found
            within = is_object(node) and step in node if isinstance(step, str) else is_sequence(node) and step < len(node)
            if not within:
                return None
            node = node[step]
    except Exception:  # marks no walk can read, a document no walk foresaw: every key inside a value (failing closed)
        return hidden_inside(path, at)
    return None


def hidden_keys_from(path: PathKey, document: Any, at: PathKey, shows: Callable[[str], bool]) -> int | None:
    """The index of ``path`` from which its location hides the keys: inside a sensitive map (:func:`hidden_from`), or
    from the first key that ``shows(text)`` says shows a secret of the document (the one rule: a string equal to a
    secret is one wherever it stands, a key of a marks tree too). The keys are asked together, then one by one only
    when they show one; where ``shows`` raises (the secrets cannot be read), every key inside a holder's value or
    tree is hidden (failing closed).

    >>> path = ("resource_changes", 0, "change", "after_sensitive", "tags", "hunter2")
    >>> hidden_keys_from(path, {}, (), lambda text: "hunter2" in text), hidden_keys_from(path, {}, (), lambda text: False)
    (5, None)
    """
    hidden = hidden_from(path, document, at)
    keys = [(i, step) for i, step in enumerate(path[:hidden]) if isinstance(step, str)]
    try:
        if not keys or not shows("\n".join(key for _, key in keys)):
            return hidden
        return next((i for i, key in keys if shows(key)), hidden)
    except Exception:
        inside = hidden_inside(path, at)
        return inside if hidden is None or (inside is not None and inside < hidden) else hidden


def _member(node: Any, *keys: str | int) -> Any:
    """The member of ``node`` at ``keys`` (objects all the way), or None."""
    for key in keys:
        if not is_object(node):
            return None
        node = node.get(key)
    return node


def _marked_from(holder: Mapping[str, Any], steps: PathKey, offset: int) -> int | None:
    """The index (from ``offset``) from which ``steps`` into ``holder``'s trees are keys of a marked map, or None."""
    from .._redact import NO_VALUE, walk_marks  # an error's path only

    walk = tuple(MapStep(step) if isinstance(step, str) else SliceStep(step) for step in steps)
    depths = [
        walk_marks(holder[marks], walk, holder.get(values, NO_VALUE))[0]
        for values, marks in _MARKED_SIDES
        if marks in holder
    ]
    marked = [depth for depth in depths if depth >= 0]
    return offset + min(marked) if marked else None
