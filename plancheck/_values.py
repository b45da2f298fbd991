"""Resolving a path in a planned value together with its unknown and sensitive marks.

Terraform writes a planned value as three parallel trees: the value (``after``,
unknown parts omitted), ``after_unknown`` and ``after_sensitive``. A ``true`` in
a marks tree covers the value at that point *and everything below it*: real
plans mark whole maps (``"after_unknown": {"triggers": true}``). So a path is
unknown (or sensitive) when its marks tree has ``true`` at the path or at any
ancestor of it. Go's plancheck only looks at the exact path and fails there.

The result tells apart the four states Go reports alike: known, unknown, null,
and absent.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tfjsonpath import MapStep, Path, describe_json_type

from ._redact import NO_SECRETS, Marks, Secrets, child_marks, contains_sensitive, render_value

__all__ = ["ResolvedValue", "ValueStatus", "resolve_value"]


class ValueStatus(enum.Enum):
    """What a path leads to in a planned value.

    >>> ValueStatus.UNKNOWN.value
    'unknown'
    """

    KNOWN = "known"
    UNKNOWN = "unknown"
    NULL = "null"
    ABSENT = "absent"


@dataclass(frozen=True, slots=True)
class ResolvedValue:
    """The value at a path, its status, and where its marks came from.

    ``unknown_at``/``sensitive_at`` are the path (the value's own, or an ancestor's)
    whose mark is ``true``. ``value_unknown``/``value_sensitive`` are the marks trees
    *below* the value, for values that are only partly unknown or sensitive.
    ``reason`` explains an ABSENT or NULL status without showing any value.

    >>> from tfjsonpath import New
    >>> r = resolve_value({"triggers": {"a": "x"}}, {"triggers": True}, None, New("triggers").AtMapKey("a"))
    >>> r.status, r.unknown_at
    (<ValueStatus.UNKNOWN: 'unknown'>, Path(MapStep('triggers')))
    """

    path: Path
    status: ValueStatus
    value: Any = None
    unknown_at: Path | None = None
    sensitive_at: Path | None = None
    value_unknown: Marks = None
    value_sensitive: Marks = None
    reason: str = ""

    @property
    def unknown(self) -> bool:
        """True if the value (or an ancestor) is unknown."""
        return self.unknown_at is not None

    @property
    def sensitive(self) -> bool:
        """True if the value (or an ancestor) is marked sensitive."""
        return self.sensitive_at is not None

    @property
    def partly_unknown(self) -> bool:
        """True if the value is known but some element within it is unknown."""
        return self.status is ValueStatus.KNOWN and contains_sensitive(self.value_unknown)

    def render(self, secrets: Secrets = NO_SECRETS) -> str:
        """The value as text for a message: ``(sensitive)`` where marked, secrets scrubbed."""
        return render_value(self.value, True if self.sensitive else self.value_sensitive, secrets)

    def describe(self, secrets: Secrets = NO_SECRETS) -> str:
        """A phrase for failure messages, e.g. ``known: "x"``, ``unknown``, ``null``, ``not present (...)``.

        >>> from tfjsonpath import New
        >>> resolve_value({"a": "x"}, None, {"a": True}, New("a")).describe()
        'known: (sensitive)'
        """
        if self.status is ValueStatus.KNOWN:
            text = f"known: {self.render(secrets)}"
            if self.partly_unknown:
                text += " (with unknown elements)"
            return text
        if self.status is ValueStatus.UNKNOWN:
            if self.unknown_at is not None and self.unknown_at != self.path:
                where = self.unknown_at.to_text() or "the whole value"
                return f"unknown (via {where})"
            return "unknown"
        if self.status is ValueStatus.NULL:
            return f"null ({self.reason})" if self.reason else "null"
        return f"not present ({self.reason})" if self.reason else "not present"


def _first_true(marks: Marks, path: Path) -> Path | None:
    current = marks
    if current is True:
        return Path()
    for i, step in enumerate(path.steps):
        current = child_marks(current, step)
        if current is True:
            return path[: i + 1]
        if current is None or current is False:
            return None
    return None


def _marks_below(marks: Marks, path: Path) -> Marks:
    current = marks
    for step in path.steps:
        if current is True:
            return True
        current = child_marks(current, step)
        if current is None:
            return None
    return current


def resolve_value(value: Any, unknown: Marks, sensitive: Marks, path: Path) -> ResolvedValue:
    """Resolve ``path`` in ``value`` with its ``unknown`` and ``sensitive`` marks trees.

    >>> from tfjsonpath import New
    >>> resolve_value({"a": None}, None, None, New("a")).status
    <ValueStatus.NULL: 'null'>
    >>> resolve_value({}, None, None, New("a")).describe()
    'not present (no key "a" in an object with 0 keys)'
    """
    unknown_at = _first_true(unknown, path)
    sensitive_at = _first_true(sensitive, path)
    value_sensitive = True if sensitive_at is not None else _marks_below(sensitive, path)
    if unknown_at is not None:
        return ResolvedValue(
            path, ValueStatus.UNKNOWN, None, unknown_at, sensitive_at, True, value_sensitive
        )
    current = value
    for i, step in enumerate(path.steps):
        if current is None:
            where = path[:i].to_text()
            reason = f"{where} is null" if where else "the whole value is null"
            return ResolvedValue(path, ValueStatus.NULL, None, None, sensitive_at, None, value_sensitive, reason)
        if isinstance(step, MapStep):
            if not isinstance(current, Mapping):
                reason = f"expected an object at {path[:i].to_text() or 'the top'}, found {describe_json_type(current)}"
                return ResolvedValue(path, ValueStatus.ABSENT, None, None, sensitive_at, None, value_sensitive, reason)
            if step.key not in current:
                reason = f"no key {json.dumps(step.key, ensure_ascii=False)} in {describe_json_type(current)}"
                if i:
                    reason += f" at {path[:i].to_text()}"
                return ResolvedValue(path, ValueStatus.ABSENT, None, None, sensitive_at, None, value_sensitive, reason)
            current = current[step.key]
        else:
            if not isinstance(current, Sequence) or isinstance(current, (str, bytes)):
                reason = f"expected an array at {path[:i].to_text() or 'the top'}, found {describe_json_type(current)}"
                return ResolvedValue(path, ValueStatus.ABSENT, None, None, sensitive_at, None, value_sensitive, reason)
            if step.index >= len(current):
                reason = f"index {step.index} out of range for {describe_json_type(current)}"
                if i:
                    reason += f" at {path[:i].to_text()}"
                return ResolvedValue(path, ValueStatus.ABSENT, None, None, sensitive_at, None, value_sensitive, reason)
            current = current[step.index]
    value_unknown = _marks_below(unknown, path)
    if current is None:
        return ResolvedValue(path, ValueStatus.NULL, None, None, sensitive_at, value_unknown, value_sensitive)
    return ResolvedValue(path, ValueStatus.KNOWN, current, None, sensitive_at, value_unknown, value_sensitive)
