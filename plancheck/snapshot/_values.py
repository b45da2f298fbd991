"""A planned value with its unknown and sensitive marks, flattened to one ``(path, value)`` line per leaf.

Each leaf is a JSON scalar, ``{}`` or ``[]`` (an empty collection is a value of its own, apart from
null and from an absent attribute, which has no line), ``(known after apply)`` or ``(sensitive)``.
A mark on a collection covers it whole: one line for the collection, nothing of what it holds.
Marks that do not fit the value fail closed, as everywhere in the library
(:func:`plancheck._redact.fit_marks`). A value is also ``(sensitive)`` when its text touches a
secret of the plan (:class:`plancheck.Secrets`: a sensitive variable or output, or a marked value
copied where no mark follows it), and so is every value under an object key that touches one (the
key itself is shown as ``"(sensitive)"``; a key that is literally ``"(sensitive)"`` beside such
keys is hidden with them, else two lines would have one path). The walk keeps its own stack, so
any depth works.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Final

from tfjsonpath._jsontypes import is_object, is_sequence
from tfjsonpath._text import quote_key

from .._redact import NO_VALUE, SENSITIVE, Marks, contains_sensitive, fit_marks
from ._format import ROOT_LABEL, UNKNOWN, json_scalar, json_string
from ._secrets import MEMO_LIMIT, FingerprintKey, ValueSecrets

__all__ = ["IGNORED", "Ignored", "flatten"]

_IDENT: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
#: An ignore trie: a step (("k", key) or ("i", index)) to the trie below it, or to IGNORED where a path ends.
Ignored = Mapping[tuple[str, Any], Any]
IGNORED: Final = True
_NO_IGNORE: Final[Ignored] = {}
_EMPTY_OBJECT: Final = "{}"
_EMPTY_ARRAY: Final = "[]"
#: The line of a value at the root path (a resource's whole planned value), as the walk makes it.
_ROOT_LINE: Final = "   = "


def _child_path(text: str, key: str) -> str:
    if not text and _IDENT.match(key):
        return key
    return f"{text}[{quote_key(key)}]"


def _marked_keys(marks: Any, value: Any) -> list[str]:
    """The keys of a marks object that are not in ``value`` but hold a mark: a value there, unknown or hidden."""
    if not is_object(marks):
        return []
    return [k for k, m in marks.items() if isinstance(k, str) and k not in value and m is not None and m is not False
            and (m is True or contains_sensitive(m))]


def _object_keys(value: Any, unknown: Marks, sensitive: Marks) -> list[Any]:
    """The keys of an object with its marks, sorted: its own, and those its marks name where it has none.

    Marks may name keys the value lacks (unknown or hidden there); they are looked for only when the
    marks hold a key the value has not.
    """
    keys = list(value)
    plain_dict = type(value) is dict
    if unknown and not (plain_dict and type(unknown) is dict and unknown.keys() <= value.keys()):
        keys.extend(_marked_keys(unknown, value))
    if sensitive and not (plain_dict and type(sensitive) is dict and sensitive.keys() <= value.keys()):
        keys.extend(k for k in _marked_keys(sensitive, value) if k not in keys)
    keys.sort(key=str)
    return keys


def _holds_keys(marks: Marks) -> bool:
    """Whether a marks tree is an object (its children are looked up by key)."""
    return marks is not None and marks is not False and (type(marks) is dict or is_object(marks))


def _fitted(marks: Any, value: Any, kind: type) -> Any:
    """``marks`` fitted to ``value`` (of type ``kind``): as they are when already a container of its kind.

    Marks that do not fit fail closed (:func:`plancheck._redact.fit_marks`).
    """
    mark_kind = type(marks)
    if (mark_kind is dict or mark_kind is list) and (kind is mark_kind or value is None or value is NO_VALUE):
        return marks
    return fit_marks(marks, value)


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
    """The lines of a value (``  PATH = VALUE``, or ``  after: VALUE`` for the root), and whether they may be
    out of path order (the caller then sorts them).

    ``root`` is the text of the value's own path (``""`` for a resource's planned value, ``"value"``
    for an output's). ``where`` names the value for fingerprints. ``ignore`` is a trie of paths left
    out. The lines come in path order, the line of an object's hidden keys (``["(sensitive)"]``)
    too, except in two cases no parser makes: an object whose keys are not all strings, and one
    that holds a key ``"(sensitive)"`` besides keys that are hidden.

    >>> lines, _ = flatten({"id": None, "tags": {}, "pw": "x", "l": [1]}, {"arn": True}, {"pw": True}, "",
    ...                    secrets=ValueSecrets(), key=None, where="a.b")
    >>> lines
    ['  arn = (known after apply)', '  id = null', '  l[0] = 1', '  pw = (sensitive)', '  tags = {}']
    """
    walker = _Walker(secrets, key, where)
    walker.walk(value, unknown, sensitive, root, ignore, 0)
    out = walker.out
    if not root and out and out[0].startswith(_ROOT_LINE):  # the root has a line only when it is the only one
        out[0] = f"  {ROOT_LABEL}: {out[0][len(_ROOT_LINE):]}"
    return out, walker.unsorted


def _array_extent(val: Any, um: Marks, sm: Marks) -> tuple[int, int, bool, bool]:
    """An array's length, how many elements it shows, and whether each marks tree is an array.

    It shows more elements than it holds where marks past its end say elements it has no room
    for are unknown (or hidden).
    """
    size = len(val)
    um_list = um is not None and um is not False and (type(um) is list or is_sequence(um))
    sm_list = sm is not None and sm is not False and (type(sm) is list or is_sequence(sm))
    count = size
    for marks, is_list in ((um, um_list), (sm, sm_list)):
        if is_list and len(marks) > count:
            for i in range(len(marks) - 1, count - 1, -1):
                m = marks[i]
                if m is True or (m is not None and m is not False and contains_sensitive(m)):
                    count = i + 1
                    break
    return size, count, um_list, sm_list


#: Below this depth a subtree without marks is walked by recursion (fast); deeper, by the walk with its own stack.
_PLAIN_DEPTH: Final = 64


#: The step of an object's hidden keys (never bare: the parentheses are no identifier's).
_HIDDEN_STEP: Final = f"[{quote_key(SENSITIVE)}]"
#: The types of an object's keys when they are all strings, as every JSON parser makes them.
_STR: Final = {str}
#: The steps of the first indexes of an array, made once.
_INDEXES: Final = 256
_INDEX_STEPS: Final = tuple(f"[{i}]" for i in range(_INDEXES))
@functools.lru_cache(maxsize=1 << 16)
def _key_step(name: str) -> str:
    """A key's step in a path: the keys of a plan repeat in every resource of a type."""
    return f"[{quote_key(name)}]"


@functools.lru_cache(maxsize=1 << 16)
def _first_step(name: str) -> str:
    return _child_path("", name)


class _Walker:
    """One flattening: its lines so far, and what every value is checked with.

    Lines are made in path order (what :func:`plancheck.snapshot._format.line_key` sorts by): the keys
    of an object by code point, then the indexes of an array in order, and the line of an object's
    hidden keys at ``["(sensitive)"]``'s place among its keys. Where that order is not certain (see
    :func:`flatten`) the line goes where earlier versions of the walk put it and :attr:`unsorted` is
    set: sorted then, as those versions sorted every block with a hidden key, the lines are the same.
    """

    __slots__ = ("answers", "checking", "key", "out", "secrets", "tokens", "unsorted", "where")

    def __init__(self, secrets: ValueSecrets, key: FingerprintKey | None, where: str) -> None:
        self.out: list[str] = []
        self.unsorted = False
        self.checking = secrets.active
        self.secrets = secrets
        self.answers = secrets.answers
        self.tokens = secrets.tokens
        self.key = key
        self.where = where

    def token(self, text: str) -> str:
        """A string value's token, ``""`` if it touches a secret (remembered for the whole plan: see ValueSecrets.tokens)."""
        shown = "" if self.checking and self.secrets.touches(text) else json_string(text)
        tokens = self.tokens
        if len(tokens) < MEMO_LIMIT:
            tokens[text] = shown
        return shown

    def hides(self, name: str) -> bool:
        """Whether an object's key touches a secret (then it and its value are hidden)."""
        if not self.checking:
            return False
        found = self.answers.get(name)
        return self.secrets.touches(name) if found is None else found

    def folds(self, keys: Any, trie: Any) -> bool:
        """Whether an object's key ``"(sensitive)"`` goes into the line of its hidden keys: when another
        key is hidden there, else the two lines have one path and the snapshot cannot be read back.

        Asked only of an object holding that key (rare): its value is hidden with the others.
        """
        for k in keys:
            name = k if type(k) is str else str(k)
            if name == SENSITIVE or (trie and trie.get(("k", name)) is IGNORED):
                continue
            if self.hides(name):
                return True
        return False

    def scalar(self, val: Any, text: str) -> str:
        """The token of a scalar that is neither a str nor None."""
        shown = json_scalar(val)
        if self.checking and type(val) is not bool and self.secrets.touches(shown):
            return _sensitive(self.key, self.where, text, val, None)
        return shown

    def plain(self, val: Any, text: str, trie: Any, depth: int) -> None:
        """A dict or list without a mark anywhere in it: the common case, walked without looking for marks."""
        out = self.out
        emit = out.append
        tokens_get, answers_get, checking = self.tokens.get, self.answers.get, self.checking
        is_dict = type(val) is dict
        str_keys, late, at = True, False, 0
        if is_dict:
            if not val:
                emit(f"  {text} = {_EMPTY_OBJECT}")
                return
            str_keys = set(map(type, val)) == _STR
            items: Any = sorted(val) if str_keys else sorted(val, key=str)
            # The hidden keys' line goes before the first key that sorts after "(sensitive)": where that
            # is, is known at once when the first key does (the common case: "(" sorts before letters).
            first = items[0] if str_keys else str(items[0])
            late = checking and first <= SENSITIVE
            at = len(out)
            fold = late and SENSITIVE in val and self.folds(items, trie)
        else:
            if not val:
                emit(f"  {text} = {_EMPTY_ARRAY}")
                return
            items = range(len(val))
            fold = False
        hidden: dict[str, Any] = {}
        for k in items:
            sub = None
            child = val[k]
            if is_dict:
                name = k if type(k) is str else str(k)
                if late and name > SENSITIVE:
                    at, late = len(out), False
                if trie:
                    sub = trie.get(("k", name))
                    if sub is IGNORED:
                        continue
                if checking:
                    found = answers_get(name)
                    if found if found is not None else self.secrets.touches(name):
                        hidden[name] = child
                        continue
                    if fold and name == SENSITIVE:
                        hidden[name] = child
                        continue
                step = _key_step(name) if text else _first_step(name)
            else:
                if trie:
                    sub = trie.get(("i", k))
                    if sub is IGNORED:
                        continue
                step = _INDEX_STEPS[k] if k < _INDEXES else f"[{k}]"
            kind = type(child)
            if kind is str:
                shown = tokens_get(child)
                if shown is None:
                    shown = self.token(child)
                emit(f"  {text}{step} = {shown or _sensitive(self.key, self.where, text + step, child, None)}")
            elif child is None:
                emit(f"  {text}{step} = null")
            elif kind is dict or kind is list:
                if depth < _PLAIN_DEPTH:
                    self.plain(child, text + step, sub, depth + 1)
                else:
                    self.marked(child, None, None, text + step, sub, fast=False)
            elif is_object(child) or is_sequence(child):
                self.marked(child, None, None, text + step, sub, fast=False)
            else:
                emit(f"  {text}{step} = {self.scalar(child, text + step)}")
        if hidden:
            line = self.hidden_line(text, hidden, None)
            if str_keys and (SENSITIVE not in val or SENSITIVE in hidden):
                out.insert(len(out) if late else at, line)
            else:
                emit(line)
                self.unsorted = True

    def hidden_line(self, text: str, entries: dict[str, Any], unknown: dict[str, Any] | None) -> str:
        """The line of every entry of an object whose key touches a secret: ``["(sensitive)"] = (sensitive)``.

        The keys cannot be told apart once hidden, so their values are one value (fingerprinted together).
        """
        shown = text + _HIDDEN_STEP
        return f"  {shown} = {_sensitive(self.key, self.where, shown, entries, unknown)}"

    def settle(self, val: Any, um: Marks, sm: Marks, text: str, trie: Any, plain: bool) -> tuple[Any, Any, Any, bool] | None:
        """What :meth:`walk` and :meth:`marked` do first with a value: fit its marks, and write its line when
        it is one (hidden, unknown, a string, null, a number or a bool), or hand it to :meth:`plain` when it
        is a container without marks (and ``plain``). Else the container to open: the value (an absent one
        that marks say holds something, as an empty one), its fitted marks, and whether it is an object.
        """
        emit = self.out.append
        kind = type(val)
        if sm is not None and sm is not False and sm is not True:
            sm = _fitted(sm, val, kind)
        if sm is True:
            emit(f"  {text} = {_sensitive(self.key, self.where, text, val, um)}")
            return None
        if um is not None and um is not False and um is not True:
            um = _fitted(um, val, kind)
        if um is True:
            emit(f"  {text} = {UNKNOWN}")
            return None
        if kind is str:
            shown = self.tokens.get(val)
            if shown is None:
                shown = self.token(val)
            emit(f"  {text} = {shown or _sensitive(self.key, self.where, text, val, None)}")
            return None
        if val is None:
            emit(f"  {text} = null")
            return None
        if plain and not um and not sm and (kind is dict or kind is list):
            self.plain(val, text, trie, 0)  # nothing marked in it: the fast walk
            return None
        if val is NO_VALUE:  # absent, but marks below it say something is there
            val = {} if is_object(um) or is_object(sm) else []
            kind = type(val)
        if kind is dict:
            return val, um, sm, True
        if kind is list:
            return val, um, sm, False
        if kind is bool or kind is int or kind is Decimal or not (is_object(val) or is_sequence(val)):
            emit(f"  {text} = {self.scalar(val, text)}")
            return None
        return val, um, sm, is_object(val)

    def walk(self, val: Any, um: Marks, sm: Marks, text: str, trie: Any, depth: int) -> None:
        """A value with its marks: by recursion, and past :data:`_PLAIN_DEPTH` by :meth:`marked`.

        The same lines as :meth:`marked` makes, in the same order: it is :meth:`marked` with the
        stack made by recursion, and a child without marks that is a string, null, a number, a bool or
        a container (the most of them) handled where it is met, as :meth:`marked` would on popping it.
        """
        if depth >= _PLAIN_DEPTH:
            self.marked(val, um, sm, text, trie)
            return
        settled = self.settle(val, um, sm, text, trie, True)
        if settled is None:
            return
        val, um, sm, is_object = settled
        out = self.out
        emit = out.append
        hidden: dict[str, Any] = {}
        hidden_unknown: dict[str, Any] = {}
        um_obj = sm_obj = um_list = sm_list = False
        late, at, size, um_size, sm_size = False, 0, 0, 0, 0
        if is_object:
            keys = _object_keys(val, um, sm)
            if not keys:
                emit(f"  {text} = {_EMPTY_OBJECT}")
                return
            um_obj, sm_obj = _holds_keys(um), _holds_keys(sm)
            # The hidden keys' line goes before the first key that sorts after "(sensitive)", as in plain().
            late = self.checking
            at = len(out)
            items: Any = keys
            fold = late and SENSITIVE in keys and self.folds(keys, trie)
        else:
            size, count, um_list, sm_list = _array_extent(val, um, sm)
            if not count:
                emit(f"  {text} = {_EMPTY_ARRAY}")
                return
            um_size = len(um) if um_list else 0
            sm_size = len(sm) if sm_list else 0
            items = range(count)
            fold = False
        start = len(out)
        checking, answers_get, tokens_get = self.checking, self.answers.get, self.tokens.get
        for k in items:
            sub = None
            if is_object:
                name = k if type(k) is str else str(k)
                if late and name > SENSITIVE:
                    at, late = len(out), False
                if trie:
                    sub = trie.get(("k", name))
                    if sub is IGNORED:
                        continue
                child = val.get(k, NO_VALUE)
                child_um = um.get(k) if um_obj else None
                if checking:
                    found = answers_get(name)
                    if (found if found is not None else self.secrets.touches(name)) or (fold and name == SENSITIVE):
                        hidden[name] = None if child is NO_VALUE else child
                        hidden_unknown[name] = child_um
                        continue
                child_sm = sm.get(k) if sm_obj else None
                step = _key_step(name) if text else _first_step(name)
            else:
                if trie:
                    sub = trie.get(("i", k))
                    if sub is IGNORED:
                        continue
                child = val[k] if k < size else NO_VALUE
                child_um = um[k] if k < um_size else None
                child_sm = sm[k] if k < sm_size else None
                step = _INDEX_STEPS[k] if k < _INDEXES else f"[{k}]"
            # What the walk of the child would do first, done here for the common children.
            if child_sm is None or child_sm is False:
                if child_um is None or child_um is False:
                    child_kind = type(child)
                    if child_kind is str:
                        shown = tokens_get(child)
                        if shown is None:
                            shown = self.token(child)
                        emit(f"  {text}{step} = {shown or _sensitive(self.key, self.where, text + step, child, None)}")
                        continue
                    if child is None:
                        emit(f"  {text}{step} = null")
                        continue
                    if child_kind is dict or child_kind is list:
                        self.plain(child, text + step, sub, 0)
                        continue
                    if child_kind is bool or child_kind is int or child_kind is Decimal or child_kind is float:
                        emit(f"  {text}{step} = {self.scalar(child, text + step)}")
                        continue
                elif child_um is True:
                    emit(f"  {text}{step} = {UNKNOWN}")
                    continue
            elif child_sm is True:
                emit(f"  {text}{step} = {_sensitive(self.key, self.where, text + step, child, child_um)}")
                continue
            self.walk(child, child_um, child_sm, text + step, sub, depth + 1)
        if hidden:
            line = self.hidden_line(text, hidden, hidden_unknown)
            if set(map(type, keys)) == _STR and (SENSITIVE in hidden or SENSITIVE not in keys):
                out.insert(len(out) if late else at, line)
            else:
                out.insert(start, line)  # before the object's lines, as earlier walks did: sorted by the caller
                self.unsorted = True

    def marked(
        self, value: Any, unknown: Marks, sensitive: Marks, root: str, ignore: Any, *, fast: bool = True
    ) -> None:
        """Any value with its marks, walked with an explicit stack (any depth): what :meth:`walk` does deeper
        than :data:`_PLAIN_DEPTH`. An object's hidden keys have their line before the object's lines, and
        :attr:`unsorted` set: the walk is rarely this deep.

        ``fast``: hand a container without marks to :meth:`plain` (which recurses); :meth:`plain` itself
        passes False when it is already :data:`_PLAIN_DEPTH` deep, so a deeper value stays on this stack
        instead of growing Python's without bound.
        """
        emit = self.out.append
        checking = self.checking
        stack: list[tuple[Any, Marks, Marks, str, Any]] = [(value, unknown, sensitive, root, ignore)]
        pop, push = stack.pop, stack.append
        while stack:
            val, um, sm, text, trie = pop()
            settled = self.settle(val, um, sm, text, trie, fast)
            if settled is None:
                continue
            val, um, sm, is_object = settled
            if is_object:
                keys = _object_keys(val, um, sm)
                if not keys:
                    emit(f"  {text} = {_EMPTY_OBJECT}")
                    continue
                um_obj, sm_obj = _holds_keys(um), _holds_keys(sm)
                hidden: dict[str, Any] = {}
                hidden_unknown: dict[str, Any] = {}
                fold = checking and SENSITIVE in keys and self.folds(keys, trie)
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
                    if checking and (self.hides(name) or (fold and name == SENSITIVE)):
                        hidden[name] = None if child is NO_VALUE else child
                        hidden_unknown[name] = child_um
                        continue
                    push((child, child_um, child_sm, f"{text}{_key_step(name)}" if text else _first_step(name), sub))
                if hidden:
                    emit(self.hidden_line(text, hidden, hidden_unknown))
                    self.unsorted = True
                continue
            size, count, um_list, sm_list = _array_extent(val, um, sm)
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


def _sensitive(key: FingerprintKey | None, where: str, path: str, value: Any, unknown: Marks) -> str:
    if key is None:
        return SENSITIVE
    place = where + "\x00" + path
    return f"(sensitive #{key.fingerprint(place, None if value is NO_VALUE else value, unknown)})"
