"""Documents whose big parts are parsed on first use.

A 200 MB plan is mostly ``planned_values``, ``prior_state``, ``configuration`` and the
before/after values of thousands of resource changes, while a check reads a handful of
resources. The loaders check the whole text's syntax and the structure the schema
constrains, then keep the heavy values as unparsed spans of the text; these classes
parse a span the first time it is read and keep the result. What they return is exactly
what parsing the whole document at once returns (same values, same types).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, overload

from .validate import Deferred

__all__ = ["LazyEntries", "LazyObject", "Thunk"]


class Thunk(Deferred):
    """A value not parsed yet: its JSON type, and how to parse it.

    ``skim``, when the loader can give one, reads what secret collection needs of the value without
    parsing what repeats text of the document already parsed and validated (see :meth:`LazyObject.skim`).

    >>> t = Thunk("array", lambda: [1, 2])
    >>> t.json_type, t.load()
    ('array', [1, 2])
    """

    __slots__ = ("_load", "skim")

    def __init__(self, json_type: str, load: Callable[[], Any]) -> None:
        super().__init__(json_type)
        self._load = load
        self.skim: Callable[[Mapping[str, Any]], Any] | None = None

    def load(self) -> Any:
        """Parse the value (each call parses anew; callers cache)."""
        return self._load()


class LazyEntries(Sequence[Any]):
    """The entries of a JSON array, each parsed on first access and then kept.

    >>> entries = LazyEntries(3, lambda i: {"n": i})
    >>> entries[1], len(entries), entries[1] is entries[1]
    ({'n': 1}, 3, True)
    """

    __slots__ = ("_cache", "_load", "_load_all")

    def __init__(
        self, count: int, load: Callable[[int], Any], load_all: Callable[[], Sequence[Any]] | None = None
    ) -> None:
        self._cache: list[Any] = [_MISSING] * count
        self._load = load
        # Parsing every entry in one call is cheaper than one call each: what reading them all uses.
        self._load_all = load_all

    def __len__(self) -> int:
        return len(self._cache)

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self._cache)))]
        value = self._cache[index]
        if value is _MISSING:
            position = index if index >= 0 else index + len(self._cache)
            value = self._cache[position] = self._load(position)
        return value

    def materialize(self) -> list[Any]:
        """All entries as a plain list (sharing the entries already parsed).

        With ``load_all``, the entries not parsed yet are parsed in one call; should that fail,
        they are parsed one by one, so the error (and what was parsed before it) is the same.

        >>> entries = LazyEntries(3, lambda i: {"n": i}, lambda: [{"n": 0}, {"n": 1}, {"n": 2}])
        >>> first = entries[0]
        >>> entries.materialize(), entries.materialize()[0] is first
        ([{'n': 0}, {'n': 1}, {'n': 2}], True)
        """
        cache = self._cache
        if self._load_all is not None and _MISSING in cache:
            try:
                parsed = self._load_all()
            except Exception:  # the entry that fails is found, and reported, one by one below
                parsed = None
            if parsed is not None and len(parsed) == len(cache):
                for i, value in enumerate(cache):
                    if value is _MISSING:
                        cache[i] = parsed[i]
        return [self[i] for i in range(len(cache))]

    def __repr__(self) -> str:
        parsed = sum(1 for v in self._cache if v is not _MISSING)
        return f"<LazyEntries {len(self._cache)} entries, {parsed} parsed>"


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<not parsed>"


_MISSING: Any = _Missing()


class LazyObject(Mapping[str, Any]):
    """A JSON object some of whose values are parsed on first access.

    ``values`` maps each key, in document order, to its parsed value or to a
    :class:`Thunk` or :class:`LazyEntries`; reading a key returns the parsed value (a
    ``LazyEntries`` becomes a plain list) and keeps it. Equality is the equality of the
    parsed document, and so is a pickle: it loads as a dict.

    >>> doc = LazyObject({"a": 1, "b": Thunk("object", lambda: {"c": 2})})
    >>> doc["b"], dict(doc) == {"a": 1, "b": {"c": 2}}
    ({'c': 2}, True)
    """

    __slots__ = ("_values",)

    def __init__(self, values: dict[str, Any]) -> None:
        self._values = values

    def __getitem__(self, key: str) -> Any:
        value = self._values[key]
        if isinstance(value, Thunk):
            value = self._values[key] = value.load()
        elif isinstance(value, LazyEntries):
            value = self._values[key] = value.materialize()
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._values))

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, key: object) -> bool:
        return key in self._values

    def peek(self, key: str) -> Any:
        """The value as stored: parsed, or still a Thunk / LazyEntries (never parses)."""
        return self._values[key]

    def skim(self, key: str, changes: Mapping[str, Any]) -> Any:
        """``key``'s value as secret collection reads it (a state's resources: address, values and marks), taken
        without parsing it whole; None when it must be read (``self[key]``): parsed already, or the loader
        could not prove the value sound this way, for reading it to raise what it raises.

        ``changes`` maps addresses to the plan's current resource changes (parsed and validated): a
        resource whose values and marks are the very text of its change's side gets that side's
        parsed objects. Never parses ``key``'s value, never keeps what it returns.

        >>> doc = LazyObject({"a": Thunk("object", lambda: {"c": 2})})
        >>> doc.skim("a", {}) is None, doc.skim("b", {}) is None
        (True, True)
        """
        value = self._values.get(key)
        if isinstance(value, Thunk) and value.skim is not None:
            return value.skim(changes)
        return None

    def is_parsed(self, key: str) -> bool:
        """Whether ``key``'s value has been parsed already."""
        return not isinstance(self._values[key], (Thunk, LazyEntries))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mapping):
            return NotImplemented
        return dict(self.items()) == dict(other.items())

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        # A document pickles as what parsing it whole gives (a pickled plan is its document): a dict, read whole.
        return (dict, (dict(self.items()),))

    def __repr__(self) -> str:
        # Keys only: values may hold secrets.
        shown = ", ".join(f"{k!r}: {'parsed' if self.is_parsed(k) else 'not parsed'}" for k in self._values)
        return f"<LazyObject {{{shown}}}>"
