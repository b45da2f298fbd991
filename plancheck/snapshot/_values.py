"""A planned value with its unknown and sensitive marks, flattened to one ``(path, value)`` line per leaf.

Each leaf is a JSON scalar, ``{}`` or ``[]`` (an empty collection is a value of its own, apart from
null and from an absent attribute, which has no line), ``(known after apply)`` or ``(sensitive)``.
A mark on a collection covers it whole: one line for the collection, nothing of what it holds.
Marks that do not fit the value fail closed, as everywhere in the library
(:func:`plancheck._redact.fit_marks`). A value is also ``(sensitive)`` when its text touches a
secret of the plan (:class:`plancheck.Secrets`: a sensitive variable or output, or a marked value
copied where no mark follows it), and so is every value under an object key that touches one (the
key itself is shown as ``"(sensitive)"``). The walk keeps its own stack, so any depth works.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any, Final

from tfjsonpath.internal import quote_key

from .._redact import NO_VALUE, SENSITIVE, Marks, contains_sensitive, fit_marks, number_text
from ._key import FingerprintKey
from ._model import ROOT_LABEL, UNKNOWN
from ._secrets import ValueSecrets

__all__ = ["Ignored", "flatten", "json_scalar", "json_string"]

_IDENT: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_SHORT_ESCAPES: Final = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
#: An ignore trie: a step (("k", key) or ("i", index)) to the trie below it, or to IGNORED where a path ends.
Ignored = Mapping[tuple[str, Any], Any]
IGNORED: Final = True
_NO_IGNORE: Final[Ignored] = {}
_EMPTY_OBJECT: Final = "{}"
_EMPTY_ARRAY: Final = "[]"
#: The line of a value at the root path (a resource's whole planned value), as the walk makes it.
_ROOT_LINE: Final = "   = "


def json_string(text: str) -> str:
    """``text`` as a JSON string literal that a reviewer can trust: every unprintable character escaped.

    JSON itself leaves line separators, bidirectional overrides and zero-width characters raw; here
    they are ``\\uXXXX``, so what a line shows is what it holds, and a line is one line everywhere.

    >>> print(json_string('say "hi"'), json_string("a\\u2028b\\u202e"), json_string("ключ 🔑"))
    "say \\"hi\\"" "a\\u2028b\\u202e" "ключ 🔑"
    """
    if text.isprintable():
        if '"' not in text and "\\" not in text:
            return f'"{text}"'
        return json.dumps(text, ensure_ascii=False)
    out = ['"']
    for ch in text:
        short = _SHORT_ESCAPES.get(ch)
        if short is not None:
            out.append(short)
        elif ch.isprintable():
            out.append(ch)
        elif ord(ch) > 0xFFFF:
            code = ord(ch) - 0x10000
            out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            out.append(f"\\u{ord(ch):04x}")
    out.append('"')
    return "".join(out)


def json_scalar(value: Any) -> str:
    """The exact JSON text of a scalar (numbers at any size, strings as :func:`json_string` writes them).

    >>> json_scalar(None), json_scalar(True), json_scalar(Decimal("1.50")), json_scalar(10**30)
    ('null', 'true', '1.50', '1000000000000000000000000000000')
    """
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return json_string(value)
    if isinstance(value, (int, Decimal)):
        return number_text(value)
    if isinstance(value, float):
        return repr(value)
    return json_string(str(value))


def _child_path(text: str, key: str) -> str:
    if not text and _IDENT.match(key):
        return key
    return f"{text}[{quote_key(key)}]"


def _is_object(value: Any) -> bool:
    return type(value) is dict or isinstance(value, Mapping)


def _is_array(value: Any) -> bool:
    return type(value) is list or (isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray)))


def _marked_keys(marks: Any, value: Any) -> list[str]:
    """The keys of a marks object that are not in ``value`` but hold a mark: a value there, unknown or hidden."""
    if not _is_object(marks):
        return []
    return [k for k, m in marks.items() if isinstance(k, str) and k not in value and m is not None and m is not False
            and (m is True or contains_sensitive(m))]


def flatten(
    value: Any,
    unknown: Marks,
    sensitive: Marks,
    root: str,
    *,
    secrets: ValueSecrets,
    key: FingerprintKey | None,
    where: str,
    ignore: Ignored = _NO_IGNORE,
) -> tuple[list[str], bool]:
    """The lines of a value (``  PATH = VALUE``, or ``  after: VALUE`` for the root), in path order; and whether
    a key was hidden.

    ``root`` is the text of the value's own path (``""`` for a resource's planned value, ``"value"``
    for an output's). ``where`` names the value for fingerprints. ``ignore`` is a trie of paths left
    out. When a key was hidden (shown as ``"(sensitive)"``) the lines may be out of path order: the
    caller sorts them.

    >>> lines, _ = flatten({"id": None, "tags": {}, "pw": "x", "l": [1]}, {"arn": True}, {"pw": True}, "",
    ...                    secrets=ValueSecrets(), key=None, where="a.b")
    >>> lines
    ['  arn = (known after apply)', '  id = null', '  l[0] = 1', '  pw = (sensitive)', '  tags = {}']
    """
    walker = _Walker(secrets, key, where)
    walker.marked(value, unknown, sensitive, root, ignore)
    out = walker.out
    if not root and out and out[0].startswith(_ROOT_LINE):  # the root has a line only when it is the only one
        out[0] = f"  {ROOT_LABEL}: {out[0][len(_ROOT_LINE):]}"
    return out, walker.hidden_key


#: Below this depth a subtree without marks is walked by recursion (fast); deeper, by the walk with its own stack.
_PLAIN_DEPTH: Final = 64


class _Walker:
    """One flattening: its lines so far, and what every value is checked with."""

    __slots__ = ("checking", "hidden_key", "key", "out", "touches", "where")

    def __init__(self, secrets: ValueSecrets, key: FingerprintKey | None, where: str) -> None:
        self.out: list[str] = []
        self.hidden_key = False
        self.checking = secrets.active
        self.touches = secrets.touches
        self.key = key
        self.where = where

    def scalar(self, val: Any, text: str) -> str:
        """The token of a scalar that is neither a str nor None."""
        shown = json_scalar(val)
        if self.checking and type(val) is not bool and self.touches(shown):
            return _sensitive(self.key, self.where, text, val, None)
        return shown

    def plain(self, val: Any, text: str, trie: Any, depth: int) -> None:
        """A dict or list without a mark anywhere in it: the common case, walked without looking for marks."""
        emit = self.out.append
        checking, touches = self.checking, self.touches
        if type(val) is dict:
            if not val:
                emit(f"  {text} = {_EMPTY_OBJECT}")
                return
            items: Any = sorted(val.items()) if all(type(k) is str for k in val) else sorted(val.items(), key=_str_key)
        else:
            if not val:
                emit(f"  {text} = {_EMPTY_ARRAY}")
                return
            items = enumerate(val)
        is_dict = type(val) is dict
        hidden: dict[str, Any] = {}
        for k, child in items:
            sub = None
            if is_dict:
                name = k if type(k) is str else str(k)
                if trie:
                    sub = trie.get(("k", name))
                    if sub is IGNORED:
                        continue
                if checking and touches(name):
                    hidden[name] = child
                    continue
                path = f"{text}[{quote_key(name)}]" if text else _child_path(text, name)
            else:
                if trie:
                    sub = trie.get(("i", k))
                    if sub is IGNORED:
                        continue
                path = f"{text}[{k}]"
            kind = type(child)
            if kind is str:
                shown = (_sensitive(self.key, self.where, path, child, None) if checking and touches(child)
                         else json_string(child))
                emit(f"  {path} = {shown}")
            elif child is None:
                emit(f"  {path} = null")
            elif kind is dict or kind is list:
                if depth < _PLAIN_DEPTH:
                    self.plain(child, path, sub, depth + 1)
                else:
                    self.marked(child, None, None, path, sub)
            elif _is_object(child) or _is_array(child):
                self.marked(child, None, None, path, sub)
            else:
                emit(f"  {path} = {self.scalar(child, path)}")
        if hidden:
            self.hide(text, hidden, None)

    def hide(self, text: str, entries: dict[str, Any], unknown: dict[str, Any] | None) -> None:
        """One line for every entry of an object whose key touches a secret: ``["(sensitive)"] = (sensitive)``.

        The keys cannot be told apart once hidden, so their values are one value (fingerprinted together).
        """
        self.hidden_key = True
        shown = _child_path(text, SENSITIVE)
        self.out.append(f"  {shown} = {_sensitive(self.key, self.where, shown, entries, unknown)}")

    def marked(self, value: Any, unknown: Marks, sensitive: Marks, root: str, ignore: Any) -> None:
        """Any value with its marks, walked with an explicit stack (any depth)."""
        emit = self.out.append
        checking, touches = self.checking, self.touches
        stack: list[tuple[Any, Marks, Marks, str, Any]] = [(value, unknown, sensitive, root, ignore)]
        pop, push = stack.pop, stack.append
        while stack:
            val, um, sm, text, trie = pop()
            kind = type(val)
            if sm is not None and sm is not False:
                if sm is not True:
                    mark_kind = type(sm)
                    if not ((mark_kind is dict or mark_kind is list) and (kind is mark_kind or val is None or val is NO_VALUE)):
                        sm = fit_marks(sm, val)
                if sm is True:
                    emit(f"  {text} = {_sensitive(self.key, self.where, text, val, um)}")
                    continue
            if um is not None and um is not False:
                if um is not True:
                    mark_kind = type(um)
                    if not ((mark_kind is dict or mark_kind is list) and (kind is mark_kind or val is None or val is NO_VALUE)):
                        um = fit_marks(um, val)
                if um is True:
                    emit(f"  {text} = {UNKNOWN}")
                    continue
            if kind is str:
                shown = (_sensitive(self.key, self.where, text, val, None) if checking and touches(val)
                         else json_string(val))
                emit(f"  {text} = {shown}")
                continue
            if val is None:
                emit(f"  {text} = null")
                continue
            if not um and not sm and (kind is dict or kind is list):
                self.plain(val, text, trie, 0)  # nothing marked in it: the fast walk
                continue
            if val is NO_VALUE:  # absent, but marks below it say something is there
                val = {} if _is_object(um) or _is_object(sm) else []
                kind = type(val)
            if kind is dict:
                is_object = True
            elif kind is list:
                is_object = False
            elif kind is bool or kind is int or kind is Decimal or not (_is_object(val) or _is_array(val)):
                emit(f"  {text} = {self.scalar(val, text)}")
                continue
            else:
                is_object = _is_object(val)
            if is_object:
                keys = list(val)
                if um:
                    keys.extend(_marked_keys(um, val))
                if sm:
                    keys.extend(k for k in _marked_keys(sm, val) if k not in keys)
                if not keys:
                    emit(f"  {text} = {_EMPTY_OBJECT}")
                    continue
                keys.sort(key=str)
                um_obj = um is not None and um is not False and (type(um) is dict or _is_object(um))
                sm_obj = sm is not None and sm is not False and (type(sm) is dict or _is_object(sm))
                hidden: dict[str, Any] = {}
                hidden_unknown: dict[str, Any] = {}
                for k in reversed(keys):
                    name = k if type(k) is str else str(k)
                    sub = None
                    if trie:
                        sub = trie.get(("k", name))
                        if sub is IGNORED:
                            continue
                    child = val.get(k, NO_VALUE)
                    child_um = um.get(k) if um_obj else None
                    child_sm = sm.get(k) if sm_obj else None
                    if checking and touches(name):
                        hidden[name] = None if child is NO_VALUE else child
                        hidden_unknown[name] = child_um
                        continue
                    push((child, child_um, child_sm, f"{text}[{quote_key(name)}]" if text else _child_path(text, name), sub))
                if hidden:
                    self.hide(text, hidden, hidden_unknown)
                continue
            size = len(val)
            um_list = um is not None and um is not False and (type(um) is list or _is_array(um))
            sm_list = sm is not None and sm is not False and (type(sm) is list or _is_array(sm))
            count = size
            for marks, is_list in ((um, um_list), (sm, sm_list)):
                if is_list and len(marks) > count:
                    # Marks past the end of the value: elements unknown (or hidden) it has no room for.
                    for i in range(len(marks) - 1, count - 1, -1):
                        m = marks[i]
                        if m is True or (m is not None and m is not False and contains_sensitive(m)):
                            count = i + 1
                            break
            if not count:
                emit(f"  {text} = {_EMPTY_ARRAY}")
                continue
            for i in range(count - 1, -1, -1):
                sub = None
                if trie:
                    sub = trie.get(("i", i))
                    if sub is IGNORED:
                        continue
                push((
                    val[i] if i < size else NO_VALUE,
                    um[i] if um_list and i < len(um) else None,
                    sm[i] if sm_list and i < len(sm) else None,
                    f"{text}[{i}]",
                    sub,
                ))


def _str_key(item: tuple[Any, Any]) -> str:
    return str(item[0])


def _sensitive(key: FingerprintKey | None, where: str, path: str, value: Any, unknown: Marks) -> str:
    if key is None:
        return SENSITIVE
    place = where + "\x00" + path
    return f"(sensitive #{key.fingerprint(place, None if value is NO_VALUE else value, unknown)})"
