"""Resolving a path in a planned value together with its unknown and sensitive marks.

Terraform writes a planned value as three parallel trees: the value (``after``,
unknown parts omitted), ``after_unknown`` and ``after_sensitive``. A ``true`` in
a marks tree covers the value at that point *and everything below it*: real
plans mark whole maps (``"after_unknown": {"triggers": true}``). So a path is
unknown (or sensitive) when its marks tree has ``true`` at the path or at any
ancestor of it. Go's plancheck only looks at the exact path and fails there.

The result tells apart the four states Go reports alike: known, unknown, null,
and absent.

Marks that do not fit the value fail closed (:func:`plancheck._redact.fit_marks`): a node that
is neither a bool, null nor a container is ``true``, and so is a container of the wrong kind for
the value that holds a ``true`` anywhere. A value is never shown because its marks were malformed.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from tfjsonpath import MapStep, Path, Step, describe_json_type
from tfjsonpath._jsontypes import is_sequence, plural

from .._errors import ArgumentError
from .._frozen import FrozenValue, frozen, public
from .._redact import (
    NO_SECRETS,
    NO_VALUE,
    Marks,
    Secrets,
    contains_sensitive,
    fit_marks,
    render_value,
    rendered,
    walk_marks,
    with_unknowns,
)
from .._text import closest

__all__ = ["PARTLY_UNKNOWN", "UNKNOWN_SHOWN", "ResolvedValue", "ValueStatus", "missing_key", "resolve_value"]

#: What every message says of a known value with unknown parts (the checks' failures, :meth:`ResolvedValue.describe`,
#: query's status line): Go has no words for it (it fails "the path value cannot be asserted"), Terraform shows each
#: part "(known after apply)".
PARTLY_UNKNOWN: Final = "with unknown parts"

#: How many unknown keys a missing key's reason names, at most.
_NAMED: Final = 5
_ROOT: Final = Path()


class _Unknown:
    """Stands in for an unknown element, so a partly unknown value renders as ``[<unknown>, "k"]``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<unknown>"


# rendered() shows an object it does not know as <type name>.
_Unknown.__name__ = "unknown"
#: What a value's unknown part is shown as in a message (:func:`with_unknowns`'s placeholder).
UNKNOWN_SHOWN: Final = _Unknown()


@public("plancheck")
class ValueStatus(enum.Enum):
    """What a path leads to in a planned value.

    >>> ValueStatus.UNKNOWN.value
    'unknown'
    """

    KNOWN = "known"
    UNKNOWN = "unknown"
    NULL = "null"
    ABSENT = "absent"


@public("plancheck")
@frozen
class ResolvedValue(FrozenValue):
    """The value at a path, its status, and where its marks came from.

    ``unknown_at``/``sensitive_at`` are the path (the value's own, or an ancestor's)
    whose mark is ``true``. ``value_unknown``/``value_sensitive`` are the marks trees
    *below* the value, for values that are only partly unknown or sensitive.
    ``reason`` explains an ABSENT or NULL status without showing any value; ``closest`` lists, for a
    missing key, the object's keys most like it (none when the object is sensitive), which
    :meth:`describe` offers as "did you mean", each that shows a secret left out.

    >>> from tfjsonpath import New
    >>> r = resolve_value({"triggers": {"a": "x"}}, {"triggers": True}, None, New("triggers").AtMapKey("a"))
    >>> r.status, r.unknown_at
    (<ValueStatus.UNKNOWN: 'unknown'>, Path(MapStep('triggers')))
    >>> "hunter2" in repr(resolve_value({"pw": "hunter2"}, None, {"pw": True}, New("pw")))
    False
    """

    path: Path
    status: ValueStatus
    value: Any = None
    unknown_at: Path | None = None
    sensitive_at: Path | None = None
    value_unknown: Marks = None
    value_sensitive: Marks = None
    reason: str = ""
    closest: tuple[str, ...] = ()
    # What the marks say of the value, derived once from the fields above (every failure asks).
    unknown: bool = dataclasses.field(init=False, compare=False)
    """True if the value (or an ancestor) is unknown."""
    sensitive: bool = dataclasses.field(init=False, compare=False)
    """True if the value (or an ancestor) is marked sensitive."""
    partly_unknown: bool = dataclasses.field(init=False, compare=False)
    """True if the value is known but some element within it is unknown."""

    def __post_init__(self) -> None:
        self._set(
            unknown=self.unknown_at is not None,
            sensitive=self.sensitive_at is not None,
            partly_unknown=self.status is ValueStatus.KNOWN and contains_sensitive(self.value_unknown),
        )

    def __repr__(self) -> str:
        # The value is rendered through its marks, so a repr never shows a secret.
        return (
            f"ResolvedValue(path={self.path!r}, status={self.status!r}, value={self.render()}, "
            f"unknown_at={self.unknown_at!r}, sensitive_at={self.sensitive_at!r}, "
            f"value_unknown={self.value_unknown!r}, value_sensitive={self.value_sensitive!r}, "
            f"reason={self.reason!r}" + (f", closest={self.closest!r})" if self.closest else ")")
        )

    def render(self, secrets: Secrets = NO_SECRETS) -> str:
        """The value as text for a message: ``(sensitive)`` where marked, secrets scrubbed."""
        return render_value(self.value, True if self.sensitive else self.value_sensitive, secrets)

    def shown(self, secrets: Secrets = NO_SECRETS) -> str:
        """A known value as a message shows it: sensitive parts as ``(sensitive)``, unknown parts as ``<unknown>``.

        >>> resolve_value({"a": "x", "b": [None]}, {"b": [True]}, {"a": True}).shown()
        '{"a": (sensitive), "b": [<unknown>]}'
        """
        value = with_unknowns(self.value, self.value_unknown, UNKNOWN_SHOWN) if self.partly_unknown else self.value
        return rendered(value, True if self.sensitive else self.value_sensitive, secrets)[0]

    def describe(self, secrets: Secrets = NO_SECRETS) -> str:
        """What the value is, for failure messages: ``known: "x"``, ``known, with unknown parts: [<unknown>, "k"]``,
        ``unknown``, ``null``, ``not present (...)``.

        >>> from tfjsonpath import New
        >>> resolve_value({"a": "x"}, None, {"a": True}, New("a")).describe()
        'known: (sensitive)'
        >>> resolve_value({"tags": {"env": "prod"}}, {"tags": {"owner": True}}, None, New("tags")).describe()
        'known, with unknown parts: {"env": "prod", "owner": <unknown>}'
        >>> missing = resolve_value({"region": "x", "hunter2": 1}, None, None, New("regoin"))
        >>> missing.describe(), missing.describe(Secrets(["region"]))   # a secret is never suggested
        ('not present (no key "regoin" in an object with 2 keys; did you mean "region"?)', \
'not present (no key "regoin" in an object with 2 keys)')
        """
        if self.status is ValueStatus.KNOWN:
            label = f"known, {PARTLY_UNKNOWN}" if self.partly_unknown else "known"
            return f"{label}: {self.shown(secrets)}"
        if self.status is ValueStatus.UNKNOWN:
            if self.unknown_at is not None and self.unknown_at != self.path:
                where = self.unknown_at.to_text() or "the whole value"
                return f"unknown (via {where})"
            return "unknown"
        if self.status is ValueStatus.NULL:
            return f"null ({self.reason})" if self.reason else "null"
        return f"not present ({self.why(secrets)})" if self.reason else "not present"

    def why(self, secrets: Secrets = NO_SECRETS) -> str:
        """:attr:`reason`, with the keys :attr:`closest` names offered as "did you mean" (none showing a secret).

        >>> from tfjsonpath import New
        >>> resolve_value({"tags": {}}, None, None, New("tgas")).why()
        'no key "tgas" in an object with 1 key; did you mean "tags"?'
        """
        near = [key for key in self.closest if not secrets.touches(key)]
        if near:
            return f"{self.reason}; did you mean {' or '.join(_quoted(key) for key in near)}?"
        return self.reason


_KNOWN: Final = ValueStatus.KNOWN
_UNKNOWN: Final = ValueStatus.UNKNOWN
_NULL: Final = ValueStatus.NULL
_ABSENT: Final = ValueStatus.ABSENT

# A frozen dataclass sets its fields one by one through object.__setattr__, with keyword
# handling around it: that was a tenth of a passing check. The slot descriptors set them directly.
_new_object = object.__new__
(
    _set_path,
    _set_status,
    _set_value,
    _set_unknown_at,
    _set_sensitive_at,
    _set_value_unknown,
    _set_value_sensitive,
    _set_reason,
    _set_closest,
    _set_unknown,
    _set_sensitive,
    _set_partly_unknown,
) = (getattr(ResolvedValue, field.name).__set__ for field in dataclasses.fields(ResolvedValue))


class _Absent:
    __slots__ = ()

    def __repr__(self) -> str:
        return "ABSENT_VALUE"


#: What :func:`value_at` returns when the path is not in the value.
ABSENT_VALUE: Final[Any] = _Absent()


def mark_depth(marks: Marks, path: Path, value: Any = NO_VALUE) -> int:
    """How many steps of ``path`` lead to the first ``true`` in ``marks`` (-1 if none covers the path).

    The fast half of :func:`resolve_value`, for checks that pass on a mark alone. Given the
    ``value`` the marks describe, it is exactly what :func:`resolve_value` finds, malformed marks
    included; without it, it finds a ``true`` only where :func:`resolve_value` finds one too (at
    the same depth or above): enough to pass on a mark, not to rule one out.

    >>> from tfjsonpath import New
    >>> mark_depth({"triggers": True}, New("triggers").AtMapKey("a")), mark_depth({"id": True}, New("name"))
    (1, -1)
    >>> mark_depth({"pw": [True]}, New("pw")), mark_depth({"pw": [True]}, New("pw"), {"pw": "hunter2"})
    (-1, 1)
    """
    return walk_marks(marks, path.steps, value)[0]


def fitted_marks(marks: Marks, value: Any) -> Marks:
    """``marks`` with every node fitted to ``value`` (:func:`plancheck._redact.fit_marks`), all the way down.

    The marks themselves when every node fits (nothing is copied), else a fitted copy: what a
    :class:`ResolvedValue` holds, so whatever reads its marks later reads well-formed ones.

    >>> fitted_marks({"a": [False, True]}, {"a": ["x", "y"]})
    {'a': [False, True]}
    >>> fitted_marks({"a": [True], "b": "true", "c": {"d": False}}, {"a": "hunter2", "b": 1, "c": [1]})
    {'a': True, 'b': True, 'c': None}
    """
    if _fits(marks, value):
        return marks
    root: list[Any] = [None]
    stack: list[tuple[Marks, Any, Any, Any]] = [(marks, value, root, 0)]
    while stack:
        node, val, parent, slot = stack.pop()
        node = fit_marks(node, val)
        if isinstance(node, Mapping):
            obj: dict[Any, Any] = {}
            parent[slot] = obj
            for key, sub in node.items():
                obj[key] = None
                stack.append((sub, val[key] if isinstance(val, Mapping) and key in val else NO_VALUE, obj, key))
        elif is_sequence(node):
            items: list[Any] = [None] * len(node)
            parent[slot] = items
            for i, sub in enumerate(node):
                has = is_sequence(val) and i < len(val)
                stack.append((sub, val[i] if has else NO_VALUE, items, i))
        else:
            parent[slot] = node
    return root[0]


def _fits(marks: Marks, value: Any) -> bool:
    """True if every node of ``marks`` fits ``value``'s node at the same place (nothing to fail closed)."""
    stack: list[tuple[Marks, Any]] = [(marks, value)]
    while stack:
        node, val = stack.pop()
        if node is True or node is None or node is False:
            continue
        if fit_marks(node, val) is not node:
            return False
        if isinstance(node, Mapping):
            for key, sub in node.items():
                stack.append((sub, val[key] if isinstance(val, Mapping) and key in val else NO_VALUE))
        else:
            has_items = is_sequence(val)
            for i, sub in enumerate(node):
                stack.append((sub, val[i] if has_items and i < len(val) else NO_VALUE))
    return True


# Why a walk of a value stopped (the second item of _walk_value's result).
_REACHED, _NULL_ON_THE_WAY, _NOT_AN_OBJECT, _NO_KEY, _NOT_AN_ARRAY, _OUT_OF_RANGE = range(6)


def _walk_value(value: Any, steps: tuple[Step, ...]) -> tuple[Any, int, int]:
    """Follow ``steps`` in ``value``: (what was reached or where it stopped, why it stopped, at which step).

    The one walk behind both :func:`value_at` (the checks' fast path) and :func:`resolve_value`
    (which turns a stop into a reason). dict and list are tested by identity before the ABCs.
    """
    current = value
    for i, step in enumerate(steps):
        if current is None:
            return None, _NULL_ON_THE_WAY, i
        kind = type(current)
        if type(step) is MapStep:
            if kind is not dict and not isinstance(current, Mapping):
                return current, _NOT_AN_OBJECT, i
            key = step.key
            if key not in current:
                return current, _NO_KEY, i
            current = current[key]
        else:
            if kind is not list and (not isinstance(current, Sequence) or isinstance(current, (str, bytes))):
                return current, _NOT_AN_ARRAY, i
            if step.index >= len(current):
                return current, _OUT_OF_RANGE, i
            current = current[step.index]
    return current, _REACHED, len(steps)


def value_at(value: Any, path: Path) -> Any:
    """The value at ``path`` (None when it or an ancestor is null), or :data:`ABSENT_VALUE`.

    The same walk as :func:`resolve_value`'s, without a reason or a result object:
    passing checks use it, failing ones resolve the value to explain it.

    >>> from tfjsonpath import New
    >>> value_at({"a": [None, "x"]}, New("a").AtSliceIndex(1)), value_at({"a": None}, New("a").AtMapKey("b"))
    ('x', None)
    >>> value_at({"a": "x"}, New("b")) is ABSENT_VALUE
    True
    """
    found, why, _ = _walk_value(value, path.steps)
    if why in (_REACHED, _NULL_ON_THE_WAY):
        return found
    return ABSENT_VALUE


def known_value_at(value: Any, unknown: Marks, path: Path) -> Any:
    """The value at ``path`` if it is present and not unknown, else :data:`ABSENT_VALUE`.

    Exactly ``value_at(value, path)`` when :func:`resolve_value` finds the value known or null
    (unknown marks that do not fit it failing closed), in one walk of the value and its marks
    together: the fast path of a check that passes on a known value.

    >>> from tfjsonpath import New
    >>> known_value_at({"a": "x", "b": "y"}, {"b": True}, New("a")), known_value_at({"a": None}, None, New("a"))
    ('x', None)
    >>> known_value_at({"a": "x"}, {"a": True}, New("a")), known_value_at({"a": "x"}, {"a": [True]}, New("a"))
    (ABSENT_VALUE, ABSENT_VALUE)
    """
    marks = unknown
    if marks is True:
        return ABSENT_VALUE
    current = value
    steps = path.steps
    for i, step in enumerate(steps):
        if marks is not None and marks is not False:
            kind = type(marks)
            if not ((kind is dict or kind is list) and (type(current) is kind or current is None)):
                marks = fit_marks(marks, current)
                if marks is True:
                    return ABSENT_VALUE
        if current is None:
            # Null on the way: the value is null, and its marks go on alone, as in resolve_value.
            if marks is None or marks is False or walk_marks(marks, steps[i:])[0] < 0:
                return None
            return ABSENT_VALUE
        kind = type(current)
        if type(step) is MapStep:
            if kind is not dict and not isinstance(current, Mapping):
                return ABSENT_VALUE
            key = step.key
            if key not in current:
                return ABSENT_VALUE
            current = current[key]
            if marks is not None and marks is not False:
                marks = marks.get(key) if isinstance(marks, Mapping) else None
        else:
            if kind is not list and (not isinstance(current, Sequence) or isinstance(current, (str, bytes))):
                return ABSENT_VALUE
            index = step.index
            if index >= len(current):
                return ABSENT_VALUE
            current = current[index]
            if marks is not None and marks is not False:
                marks = marks[index] if type(marks) is list and index < len(marks) else _array_child(marks, index)
        if marks is True:
            return ABSENT_VALUE
    if marks is not None and marks is not False and fit_marks(marks, current) is True:
        return ABSENT_VALUE
    return current


def missing_key(key: str, found: Mapping[Any, Any], unknown: Marks, hidden: bool) -> tuple[str, tuple[str, ...]]:
    """Why ``key`` is not in ``found`` (an object whose ``unknown`` marks are given), and the keys most like it.

    A planned object lacks its attributes that are unknown until apply; its unknown marks name them, so
    they count, and are named, with the others. ``hidden`` (the object is sensitive): no key is named.

    >>> missing_key("tags", {"name": "a", "tag": "b"}, {"id": True, "arn": True}, False)
    ('no key "tags" in an object with 4 keys, 2 unknown until apply: "arn", "id"', ('tag',))
    >>> missing_key("regoin", {"region": "x"}, None, False)
    ('no key "regoin" in an object with 1 key', ('region',))
    >>> missing_key("pw", {"pw1": "hunter2"}, {"pw2": True}, True)   # sensitive: its keys may be secrets
    ('no key "pw" in an object with 2 keys, 1 unknown until apply', ())
    """
    unknown_keys = sorted(k for k, m in unknown.items() if m is True and k not in found) if isinstance(
        unknown, Mapping) else []
    reason = f"no key {_quoted(key)} in an object with {plural(len(found) + len(unknown_keys), 'key')}"
    if unknown_keys:
        named = "" if hidden else ": " + ", ".join(_quoted(k) for k in unknown_keys[:_NAMED])
        more = ", ..." if named and len(unknown_keys) > _NAMED else ""
        reason += f", {len(unknown_keys)} unknown until apply{named}{more}"
    if hidden:
        return reason, ()
    return reason, tuple(closest(key, [k for k in (*found, *unknown_keys) if isinstance(k, str)]))


def _quoted(key: object) -> str:
    return json.dumps(key, ensure_ascii=False)


def _array_child(marks: Marks, index: int) -> Marks:
    if is_sequence(marks) and index < len(marks):
        return marks[index]
    return None


#: A raw change's side -> the keys of its value, unknown marks and sensitive marks (Terraform writes no
#: ``before_unknown``: what was before is known, so its unknown marks are read as absent).
_SIDES: Final = {
    "after": ("after", "after_unknown", "after_sensitive"),
    "before": ("before", "before_unknown", "before_sensitive"),
}


@public("plancheck")
def resolve_value(
    value: Any, unknown: Marks = None, sensitive: Marks = None, path: Path = _ROOT, *, side: str | None = None
) -> ResolvedValue:
    """Resolve ``path`` in ``value`` with its ``unknown`` and ``sensitive`` marks trees.

    With ``side`` (``"after"`` or ``"before"``), ``value`` is a raw ``change`` object (a plan's, or
    ``Change.raw``) and the three trees are that side's (for ``"after"``: ``after``, ``after_unknown`` and
    ``after_sensitive``).

    >>> from tfjsonpath import New
    >>> resolve_value({"a": None}, None, None, New("a")).status
    <ValueStatus.NULL: 'null'>
    >>> resolve_value({}, None, None, New("a")).describe()
    'not present (no key "a" in an object with 0 keys)'
    >>> change = {"after": {"pw": "hunter2"}, "after_unknown": {"id": True}, "after_sensitive": {"pw": True}}
    >>> resolve_value(change, path=New("pw"), side="after").describe()
    'known: (sensitive)'
    >>> resolve_value(change, path=New("id"), side="after").status
    <ValueStatus.UNKNOWN: 'unknown'>
    >>> resolve_value(change, change["after_unknown"], path=New("pw"), side="after")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: resolve_value(side="after") reads the marks from the change: pass no unknown or sensitive marks
    """
    if side is not None:
        keys = _SIDES.get(side) if isinstance(side, str) else None
        # A dict is told apart before the ABC check, which costs more than the rest of this step.
        if keys is None or unknown is not None or sensitive is not None or (
            type(value) is not dict and not isinstance(value, Mapping)
        ):
            raise _side_error(value, unknown, sensitive, side)
        value_key, unknown_key, sensitive_key = keys
        value, unknown, sensitive = value.get(value_key), value.get(unknown_key), value.get(sensitive_key)
    if type(path) is not Path and not isinstance(path, Path):  # else a bare AttributeError: no attribute 'steps'
        raise ArgumentError(f"resolve_value() path must be a tfjsonpath.Path, got {type(path).__name__}")
    steps = path.steps
    current, why, i = _walk_value(value, steps)
    unknown_depth, value_unknown = walk_marks(unknown, steps, value)
    sensitive_depth, value_sensitive = walk_marks(sensitive, steps, value)
    # What the result holds is well-formed all the way down, for whatever reads it next.
    here = current if why == _REACHED else NO_VALUE
    if value_sensitive is not None and value_sensitive is not True and value_sensitive is not False:
        value_sensitive = fitted_marks(value_sensitive, here)
    sensitive_at = (
        None if sensitive_depth < 0 else path if sensitive_depth == len(steps) else path[:sensitive_depth]
    )
    unknown_at: Path | None = None
    reason = ""
    near: tuple[str, ...] = ()
    if unknown_depth >= 0:
        status, current, value_unknown = _UNKNOWN, None, True
        unknown_at = path if unknown_depth == len(steps) else path[:unknown_depth]
    elif why == _REACHED:
        status = _KNOWN if current is not None else _NULL
        if value_unknown is not None and value_unknown is not False:
            value_unknown = fitted_marks(value_unknown, here)
    else:
        status, reason, near = _stopped(path, why, i, current, unknown, value, sensitive_depth)
        current, value_unknown = None, None
    # ResolvedValue(...) with every field given, at a fraction of the cost (and what its __post_init__ derives).
    obj: ResolvedValue = _new_object(ResolvedValue)
    _set_path(obj, path)
    _set_status(obj, status)
    _set_value(obj, current)
    _set_unknown_at(obj, unknown_at)
    _set_sensitive_at(obj, sensitive_at)
    _set_value_unknown(obj, value_unknown)
    _set_value_sensitive(obj, value_sensitive)
    _set_reason(obj, reason)
    _set_closest(obj, near)
    _set_unknown(obj, unknown_at is not None)
    _set_sensitive(obj, sensitive_at is not None)
    # Most known values have no unknown marks below them: that is decided without a walk of the marks.
    partly = status is _KNOWN and value_unknown is not None and value_unknown is not False
    _set_partly_unknown(obj, partly and contains_sensitive(value_unknown))
    return obj


def _side_error(value: Any, unknown: Marks, sensitive: Marks, side: str) -> Exception:
    """What is wrong with a call of :func:`resolve_value` that names a ``side``."""
    if not isinstance(side, str) or side not in _SIDES:
        return ArgumentError(f'resolve_value() side must be "after" or "before", got {side!r}')
    if unknown is not None or sensitive is not None:
        return ArgumentError(f'resolve_value(side="{side}") reads the marks from the change: pass no unknown or sensitive marks')
    return ArgumentError(f'resolve_value(side="{side}") expects a raw change (a mapping), got {type(value).__name__}')


def _stopped(
    path: Path, why: int, i: int, current: Any, unknown: Marks, value: Any, sensitive_depth: int
) -> tuple[ValueStatus, str, tuple[str, ...]]:
    """Why the walk of ``path`` in ``value`` stopped at step ``i`` (``why``, in ``current``): null on the way, or
    absent, with the reason and the closest keys (known keys, and the ``unknown`` marks' ones there)."""
    if why == _NULL_ON_THE_WAY:
        where = path[:i].to_text()
        return _NULL, (f"{where} is null" if where else "the whole value is null"), ()
    at = path[:i].to_text()
    near: tuple[str, ...] = ()
    if why == _NOT_AN_OBJECT:
        reason = f"expected an object at {at or 'the top'}, found {describe_json_type(current)}"
    elif why == _NOT_AN_ARRAY:
        reason = f"expected an array at {at or 'the top'}, found {describe_json_type(current)}"
    else:
        step = path.steps[i]  # a missing key stops at a MapStep, an index out of range at a SliceStep
        if isinstance(step, MapStep):
            # Under a sensitive mark, an object's keys may be secrets: then neither named nor suggested.
            hidden = 0 <= sensitive_depth <= i
            reason, near = missing_key(step.key, current, walk_marks(unknown, path.steps[:i], value)[1], hidden)
        else:
            reason = f"index {step.index} out of range for {describe_json_type(current)}"
        if i:
            reason += f" at {at}"
    return _ABSENT, reason, near
