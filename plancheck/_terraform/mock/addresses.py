"""Keys of ``mock_resources`` / ``mock_data``: a type name, a resource address, or an address glob.

An address key uses the glob grammar of :class:`plancheck.Resources` (``*`` any text, ``?`` one
character, ``[*]`` any instance key; a key without an instance key covers every instance). The
type in it is spelled out, so its defaults are checked against that type's schema when the mock
is built. Where several keys match an instance, the most specific wins (:attr:`DefaultsKey.rank`):

1. an instance address (``cloud_bucket.x[0]``, no wildcard): one instance;
2. a resource address (``cloud_bucket.x``, no wildcard, no instance key): every instance of it;
3. a glob, fewer wildcards first (each ``*``, ``?`` and ``[*]`` counts one);
4. the type name.

Two keys of the same type and the same rank that can match one address are refused when the mock
is built: the winner would be a guess.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Final

from ..._documents.select import address_pattern
from ..._frozen import FrozenValue, frozen
from ..._text import Glob, shortened
from .schema import MockSchemaError, at_key
from .values import closest_names

__all__ = ["DefaultsKey", "best_key", "check_ties", "parse_key"]

_NAME: Final = re.compile(r"[A-Za-z_*?][A-Za-z0-9_*?-]*")
_STAR: Final = object()
_ANY: Final = object()
#: Rank classes (lower wins).
_INSTANCE, _RESOURCE, _GLOB, _TYPE = 0, 1, 2, 3


@frozen
class DefaultsKey(FrozenValue):
    """One parsed key: its text, its type, how specific it is, what it matches (None: every instance of the type).

    >>> key = parse_key('module.*.cloud_bucket.x[*]', "mock_resources", {"cloud_bucket"}, data=False)
    >>> key.type_name, key.rank, key.matches('module.a.cloud_bucket.x["b"]'), key.matches("cloud_bucket.x[0]")
    ('cloud_bucket', (2, 2), True, False)
    """

    text: str
    type_name: str
    rank: tuple[int, int]
    pattern: Glob | None = None

    def matches(self, address: str) -> bool:
        return self.pattern is None or self.pattern.matches(address)

    @property
    def kind(self) -> str:
        return ("instance address", "resource address", "address glob", "type name")[self.rank[0]]


def _segments(text: str) -> list[str]:
    """``text`` split at the dots outside instance keys (brackets closed: ``address_pattern`` checked them)."""
    parts, current, depth, quoted, i = [], "", 0, False, 0
    while i < len(text):
        c = text[i]
        if quoted and c == "\\":
            current += text[i : i + 2]
            i += 2
            continue
        if c == '"' and depth:
            quoted = not quoted
        elif not quoted and c == "[":
            depth += 1
        elif not quoted and c == "]":
            depth -= 1
        elif c == "." and not depth and not quoted:
            parts.append(current)
            current = ""
            i += 1
            continue
        current += c
        i += 1
    parts.append(current)
    return parts


def _name_of(segment: str) -> str:
    return segment.split("[", 1)[0]


def parse_key(key: str, option: str, types: Iterable[str], *, data: bool, provider: str = "the provider") -> DefaultsKey:
    """A key of ``option`` (``mock_resources`` or ``mock_data``); :class:`MockSchemaError` where it is not one.

    >>> parse_key("cloud_bucket.x[0", "mock_resources", {"cloud_bucket"}, data=False)
    Traceback (most recent call last):
    ...
    plancheck.acceptance.MockSchemaError: mock_resources["cloud_bucket.x[0"]: not an address: '[' at offset 14 is never closed
    """
    where = at_key(option, key)
    types = set(types)
    if key in types:
        return DefaultsKey(key, key, (_TYPE, 0))
    try:
        pattern = address_pattern(key, "key", where)
    except ValueError as exc:
        reason = str(exc).removeprefix(f"{where}: ").split("is not a valid pattern: ", 1)[-1]
        raise MockSchemaError(where, f"not an address: {reason}") from None
    parts = _segments(key)
    if len(parts) == 1:
        raise _unknown_type(where, key, types, data, provider)
    if data:
        if "data" not in parts[:-2] or len(parts) < 3:
            raise MockSchemaError(where, "a data source key is a type name or a data address (data.TYPE.NAME)")
        at = len(parts) - 3
        if parts[at] != "data":
            raise MockSchemaError(where, "a data source key is a type name or a data address (data.TYPE.NAME)")
        prefix, type_part, name_part = parts[:at], parts[at + 1], parts[at + 2]
    else:
        if len(parts) < 2:
            raise _unknown_type(where, key, types, data, provider)
        prefix, type_part, name_part = parts[:-2], parts[-2], parts[-1]
        if prefix[-1:] == ["data"]:
            raise MockSchemaError(where, "a data source address: its defaults go in mock_data")
    if len(prefix) % 2 or any(p != "module" for p in prefix[::2]):
        raise MockSchemaError(where, "the part before the type must be module.NAME steps (module.a.module.b)")
    for step in [*prefix[1::2], name_part]:
        if not _NAME.fullmatch(_name_of(step)):
            raise MockSchemaError(where, f"{shortened(_name_of(step))!r} is not a name (letters, digits, _ and -, or * and ?)")
    if type_part not in types:
        if "*" in type_part or "?" in type_part or "[" in type_part:
            raise MockSchemaError(
                where, f"the type {shortened(type_part)!r} must be spelled out (its defaults are checked against its schema)"
            )
        raise _unknown_type(where, type_part, types, data, provider)
    wildcards = _wildcards(key)
    rank = (_GLOB, wildcards) if wildcards else (_INSTANCE if "[" in name_part else _RESOURCE, 0)
    return DefaultsKey(key, type_part, rank, pattern)


def _unknown_type(where: str, type_name: str, types: set[str], data: bool, provider: str) -> MockSchemaError:
    kind = "data source" if data else "resource type"
    return MockSchemaError(
        where, f"{provider} has no {kind} {shortened(type_name)}", type_name=type_name,
        suggestions=closest_names(type_name, sorted(types)),
    )


def _wildcards(text: str) -> int:
    """How many ``*`` and ``?`` a key holds outside escapes (``[*]`` is one)."""
    count, i = 0, 0
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        count += text[i] in "*?"
        i += 1
    return count


def _tokens(key: DefaultsKey) -> list[list[Any]]:
    """The key as character tokens (``*`` any text, ``?`` one character), one list per spelling it
    matches: a key without an instance key may also end in one."""
    out: list[Any] = []
    text, i = key.text, 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            out.extend(text[i : i + 2])
            i += 2
            continue
        out.append(_STAR if c == "*" else _ANY if c == "?" else c)
        i += 1
    if text.endswith(("]", "*")):
        return [out]
    return [out, [*out, "[", _STAR, "]"]]


def _overlap(a: list[Any], b: list[Any]) -> bool:
    """Whether two token lists match a common text (the product of their automata reaches both ends)."""
    seen: set[tuple[int, int]] = set()
    stack = [(0, 0)]
    while stack:
        i, j = stack.pop()
        if (i, j) in seen:
            continue
        seen.add((i, j))
        if i == len(a) and j == len(b):
            return True
        if i < len(a) and a[i] is _STAR:
            stack.append((i + 1, j))
        if j < len(b) and b[j] is _STAR:
            stack.append((i, j + 1))
        if i < len(a) and j < len(b):
            x, y = a[i], b[j]
            if x is _STAR or y is _STAR or x is _ANY or y is _ANY or x == y:
                stack.append((i if x is _STAR else i + 1, j if y is _STAR else j + 1))
    return False


def overlaps(first: DefaultsKey, second: DefaultsKey) -> bool:
    """Whether two keys can match one address.

    >>> types = {"t"}
    >>> a = parse_key("module.a.t.*", "o", types, data=False)
    >>> overlaps(a, parse_key("module.b.t.*", "o", types, data=False)), overlaps(a, parse_key("module.*.t.x", "o", types, data=False))
    (False, True)
    """
    if first.type_name != second.type_name:
        return False
    return any(_overlap(a, b) for a in _tokens(first) for b in _tokens(second))


def check_ties(keys: Iterable[DefaultsKey], option: str) -> None:
    """Refuse two keys of one type and one rank that can match the same address (in key order)."""
    seen: list[DefaultsKey] = []
    for key in keys:
        for other in seen:
            if other.rank == key.rank and other.type_name == key.type_name and overlaps(other, key):
                raise MockSchemaError(
                    at_key(option, key.text),
                    f"ties with {at_key(option, other.text)}: both are {key.kind}s"
                    + (f" with {key.rank[1]} wildcard{'s' * (key.rank[1] != 1)}" if key.rank[0] == _GLOB else "")
                    + " that can match the same address, so neither is more specific; make one of them narrower",
                    type_name=key.type_name,
                )
        seen.append(key)


def best_key(keys: Mapping[str, DefaultsKey], type_name: str, address: str | None) -> DefaultsKey | None:
    """The most specific key of ``type_name`` for ``address`` (None: the type's own key only), or None.

    >>> types = {"t"}
    >>> keys = {k: parse_key(k, "o", types, data=False) for k in ("t", "t.x", "t.x[0]", "t.*")}
    >>> [best_key(keys, "t", a).text for a in ("t.x[0]", "t.x[1]", "t.y", "module.m.t.x")]
    ['t.x[0]', 't.x', 't.*', 't']
    """
    found = [k for k in keys.values() if k.type_name == type_name and (k.pattern is None or (address is not None and k.matches(address)))]
    return min(found, key=lambda k: k.rank, default=None)
