"""Rendering values for messages without ever leaking a secret.

Two defences, because Terraform itself sometimes drops a mark:

* structural: a subtree under a sensitive mark (``true`` at the value or any
  ancestor in ``after_sensitive``/``before_sensitive``/``sensitive_values``)
  renders as ``(sensitive)``;
* by value: the string values of sensitive variables, outputs and marked
  attributes are collected as :class:`Secrets`, and any text that contains one
  is scrubbed before it is shown.

Revealing is possible only on purpose, for local debugging, through
:func:`revealing_sensitive` (the pytest option ``--tf-show-sensitive``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import Decimal
from typing import Any, Final

from tfjsonpath import MapStep, SliceStep, Step

__all__ = [
    "SENSITIVE",
    "Marks",
    "Secrets",
    "child_marks",
    "contains_sensitive",
    "marks_at",
    "render_value",
    "revealing_sensitive",
    "sensitive_shown",
    "walk_marks",
]

SENSITIVE: Final = "(sensitive)"
#: Shortest secret scrubbed by value: shorter strings ("", "a", "id") would blank out ordinary words.
MIN_SECRET_LENGTH: Final = 3
MAX_RENDER_CHARS: Final = 4000

# A marks tree as Terraform writes it: true, false, or objects/arrays of marks mirroring the value.
Marks = Any

_SHOW: ContextVar[bool] = ContextVar("plancheck_show_sensitive", default=False)


def sensitive_shown() -> bool:
    """True only inside :func:`revealing_sensitive`.

    >>> sensitive_shown()
    False
    """
    return _SHOW.get()


@contextmanager
def revealing_sensitive(reveal: bool = True) -> Iterator[None]:
    """Within this block, messages show sensitive values (for local debugging only).

    >>> with revealing_sensitive():
    ...     render_value("hunter2", True)
    '"hunter2"'
    >>> render_value("hunter2", True)
    '(sensitive)'
    """
    token = _SHOW.set(reveal)
    try:
        yield
    finally:
        _SHOW.reset(token)


def child_marks(marks: Marks, step: Step) -> Marks:
    """The marks of the child at ``step``; ``True`` is inherited by every descendant.

    >>> child_marks(True, MapStep("a")), child_marks({"a": [False, True]}, MapStep("a"))
    (True, [False, True])
    """
    if marks is True:
        return True
    if isinstance(step, MapStep):
        if isinstance(marks, Mapping):
            return marks.get(step.key)
        return None
    if isinstance(marks, Sequence) and not isinstance(marks, str) and step.index < len(marks):
        return marks[step.index]
    return None


def walk_marks(marks: Marks, steps: Sequence[Step]) -> tuple[int, Marks]:
    """One walk of a marks tree along ``steps``: the depth of the first ``true`` (-1 if none), and the
    marks at the end (``True`` when inherited from an ancestor, None when the tree stops short).

    The types JSON parsers build (dict, list) are tested by identity first: an ``isinstance``
    against the ``Mapping``/``Sequence`` ABCs costs more than the rest of the step.

    >>> from tfjsonpath import New
    >>> walk_marks({"triggers": True}, New("triggers").AtMapKey("x").steps)
    (1, True)
    >>> walk_marks({"a": {"b": [False, True]}}, New("a").AtMapKey("b").steps)
    (-1, [False, True])
    """
    current = marks
    depth = 0
    for step in steps:
        if current is True:
            return depth, True
        if current is None or current is False:
            return -1, None
        kind = type(current)
        if type(step) is MapStep:
            current = current.get(step.key) if kind is dict else child_marks(current, step)
        elif kind is list:
            index = step.index
            current = current[index] if index < len(current) else None
        else:
            current = child_marks(current, step)
        depth += 1
    if current is True:
        return depth, True
    return -1, current


def marks_at(marks: Marks, steps: Iterable[Step]) -> tuple[bool, int | None]:
    """Whether the value at ``steps`` is marked, and at which depth the first ``true`` was met.

    >>> from tfjsonpath import New
    >>> marks_at({"triggers": True}, New("triggers").AtMapKey("x").steps)
    (True, 1)
    >>> marks_at({"triggers": {"x": False}}, New("triggers").AtMapKey("x").steps)
    (False, None)
    """
    depth, _ = walk_marks(marks, tuple(steps))
    return (True, depth) if depth >= 0 else (False, None)


def _has_any_mark(marks: Marks) -> bool:
    stack = [marks]
    while stack:
        m = stack.pop()
        if m is True:
            return True
        if isinstance(m, Mapping):
            stack.extend(m.values())
        elif isinstance(m, list):
            stack.extend(m)
    return False


class Secrets:
    """A set of secret strings to scrub from any text shown to a user.

    >>> s = Secrets(["hunter2", "ab"])
    >>> s.scrub("password is hunter2!")
    'password is (sensitive)!'
    >>> "hunter2" in repr(s)
    False
    """

    __slots__ = ("_forms", "_ordered", "_values")
    _values: frozenset[str]
    _ordered: tuple[str, ...]
    _forms: tuple[str, ...]

    def __init__(self, values: Iterable[str] = ()) -> None:
        vals = frozenset(v for v in values if isinstance(v, str) and len(v) >= MIN_SECRET_LENGTH)
        object.__setattr__(self, "_values", vals)
        # Longest first, so a secret that contains another is scrubbed whole.
        object.__setattr__(self, "_ordered", tuple(sorted(vals, key=lambda v: (-len(v), v))))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Secrets is immutable")

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, value: object) -> bool:
        return value in self._values

    def __or__(self, other: Secrets) -> Secrets:
        return Secrets(self._values | other._values)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Secrets):
            return self._values == other._values
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values)

    def __repr__(self) -> str:
        return f"<Secrets: {len(self._values)} values>"

    def touches(self, text: str) -> bool:
        """True if ``text`` contains any secret.

        >>> Secrets(["hunter2"]).touches("xhunter2x")
        True
        """
        return any(v in text for v in self._ordered)

    def scrub(self, text: str) -> str:
        """Replace every occurrence of every secret (and of its JSON-escaped form) by ``(sensitive)``."""
        if not self._ordered or _SHOW.get():
            return text
        for form in self._scrub_forms():
            if form in text:
                text = text.replace(form, SENSITIVE)
        return text

    def _scrub_forms(self) -> tuple[str, ...]:
        # Each secret, then its JSON-escaped forms, in the order they are replaced; computed once,
        # as escaping thousands of secrets on every scrub made each failure cost milliseconds.
        try:
            return self._forms
        except AttributeError:
            pass
        forms: list[str] = []
        for value in self._ordered:
            forms.append(value)
            escaped = json.dumps(value, ensure_ascii=False)[1:-1]
            if escaped != value:
                forms.append(escaped)
            ascii_escaped = json.dumps(value)[1:-1]
            if ascii_escaped not in (value, escaped):
                forms.append(ascii_escaped)
        object.__setattr__(self, "_forms", tuple(forms))
        return self._forms


NO_SECRETS: Final = Secrets()


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (int, Decimal)):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    return f"<{type(value).__name__}>"


def render_value(value: Any, marks: Marks = None, secrets: Secrets = NO_SECRETS) -> str:
    """Render a JSON value compactly, with every marked subtree and secret shown as ``(sensitive)``.

    >>> render_value({"a": "x", "b": [1, "pw"]}, {"b": [False, True]})
    '{"a": "x", "b": [1, (sensitive)]}'
    >>> render_value("user=hunter2", None, Secrets(["hunter2"]))
    '(sensitive)'
    """
    reveal = _SHOW.get()
    out: list[str] = []
    size = 0
    # Iterative, so a 10,000-level document renders without RecursionError.
    stack: list[tuple[Any, Marks, bool] | str] = [(value, marks, False)]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            size += len(item)
        else:
            val, mk, _ = item
            if mk is True and not reveal:
                out.append(SENSITIVE)
                size += len(SENSITIVE)
            elif isinstance(val, Mapping):
                entries = list(val.items())
                stack.append("}")
                for i in range(len(entries) - 1, -1, -1):
                    k, v = entries[i]
                    stack.append((v, child_marks(mk, MapStep(k)) if isinstance(k, str) else None, False))
                    key_text = json.dumps(k, ensure_ascii=False) if isinstance(k, str) else _scalar(k)
                    if not reveal and secrets.touches(key_text):
                        key_text = SENSITIVE
                    stack.append(("" if i == 0 else ", ") + key_text + ": ")
                stack.append("{")
            elif isinstance(val, (list, tuple)):
                stack.append("]")
                for i in range(len(val) - 1, -1, -1):
                    stack.append((val[i], child_marks(mk, SliceStep(i)), False))
                    if i:
                        stack.append(", ")
                stack.append("[")
            else:
                text = _scalar(val)
                if not reveal and isinstance(val, str) and secrets.touches(val):
                    text = SENSITIVE
                out.append(text)
                size += len(text)
        if size > MAX_RENDER_CHARS:
            out.append(" …(truncated)")
            break
    return "".join(out)


def contains_sensitive(marks: Marks) -> bool:
    """True if any value within ``marks`` is marked.

    >>> contains_sensitive({"a": [False, {"b": True}]}), contains_sensitive({"a": False})
    (True, False)
    """
    return _has_any_mark(marks)
