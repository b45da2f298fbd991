"""The argument sets that plan and state checks share, each validated in one place.

A plan check and its state twin (``ExpectKnownValue`` in both, ``ExpectSensitiveValue``
in both) take the same arguments with the same checks and messages; each class here
declares one such set (slots, fields, constructor) and the checks derive from it
next to PlanCheck or StateCheck, which keep their own meaning.
"""

from __future__ import annotations

from dataclasses import KW_ONLY
from typing import TypeVar

from tfjsonpath import Path

from .._frozen import FrozenValue, frozen
from .matcher import Check, require_check

__all__ = [
    "checked_address",
    "checked_deposed",
    "checked_path",
    "OutputFields",
    "OutputMatcherFields",
    "OutputPathFields",
    "OutputPathMatcherFields",
    "ResourcePathFields",
    "ResourcePathMatcherFields",
    "checked_matcher",
    "require_document",
]

_D = TypeVar("_D")


def require_document(document: object, kind: type[_D], where: str, how: str) -> _D:
    """Return ``document`` if it is a ``kind``, else raise a TypeError saying ``how`` to get one.

    >>> from plancheck import State
    >>> require_document({}, State, "assert_state", "a plancheck.State (use load_state or State.from_dict)")
    Traceback (most recent call last):
    ...
    TypeError: assert_state expects a plancheck.State (use load_state or State.from_dict), got dict
    """
    if not isinstance(document, kind):
        raise TypeError(f"{where} expects {how}, got {type(document).__name__}")
    return document


def checked_address(value: object, check: str, what: str = "address") -> str:
    """Return ``value`` as an exact, non-empty str, or raise TypeError/ValueError naming the check.

    >>> checked_address("", "ExpectX", "name")
    Traceback (most recent call last):
    ...
    ValueError: ExpectX: name must not be empty
    """
    if not isinstance(value, str):
        raise TypeError(f"{check}: {what} must be a str, got {type(value).__name__}")
    if not value:
        raise ValueError(f"{check}: {what} must not be empty")
    return value if type(value) is str else str.__str__(value)


def checked_path(value: object, check: str) -> Path:
    """Return ``value`` if it is a tfjsonpath Path, else raise a TypeError with a hint for strings.

    >>> checked_path("a.b", "ExpectX")
    Traceback (most recent call last):
    ...
    TypeError: ExpectX: path must be a tfjsonpath.Path, got str (to use text, parse it: tfjsonpath.Path.parse('a.b'))
    """
    if isinstance(value, Path):
        return value
    hint = ""
    if isinstance(value, str):
        hint = f" (to use text, parse it: tfjsonpath.Path.parse({value!r}))"
    raise TypeError(f"{check}: path must be a tfjsonpath.Path, got {type(value).__name__}{hint}")


def checked_deposed(value: object, check: str) -> str | None:
    """Return a deposed key (a non-empty str) or None.

    >>> checked_deposed(None, "ExpectX"), checked_deposed("k1", "ExpectX")
    (None, 'k1')
    """
    if value is None:
        return None
    return checked_address(value, check, "deposed")


def checked_matcher(value: object, check: str) -> Check:
    """Return ``value`` if it is a knownvalue check, else raise a TypeError naming the check."""
    return require_check(f"{check}:", "matcher", value)


@frozen
class ResourcePathFields(FrozenValue):
    """``(address, path, *, deposed=None)``: a value inside a resource object (``deposed=``: a deposed one).

    >>> from tfjsonpath import New
    >>> class Probe(ResourcePathFields):
    ...     __slots__ = ()
    >>> Probe("a.b", New("x"), deposed="k")
    Probe('a.b', Path(MapStep('x')), deposed='k')
    """

    address: str
    path: Path
    _: KW_ONLY
    deposed: str | None = None

    def __post_init__(self) -> None:
        name = type(self).__name__
        self._set(
            address=checked_address(self.address, name),
            path=checked_path(self.path, name),
            deposed=checked_deposed(self.deposed, name),
        )


@frozen
class ResourcePathMatcherFields(FrozenValue):
    """``(address, path, matcher, *, deposed=None)``: a value inside a resource object, and what it must match.

    >>> from tfjsonpath import New
    >>> class Probe(ResourcePathMatcherFields):
    ...     __slots__ = ()
    >>> Probe("a.b", New("x"), "y")
    Traceback (most recent call last):
    ...
    TypeError: Probe: matcher must be a knownvalue check, got str (wrap plain values with knownvalue.exact())
    """

    address: str
    path: Path
    matcher: Check
    _: KW_ONLY
    deposed: str | None = None

    def __post_init__(self) -> None:
        name = type(self).__name__
        self._set(
            address=checked_address(self.address, name),
            path=checked_path(self.path, name),
            matcher=checked_matcher(self.matcher, name),
            deposed=checked_deposed(self.deposed, name),
        )


@frozen
class OutputFields(FrozenValue):
    """``(name)``: a root module output as a whole.

    >>> class Probe(OutputFields):
    ...     __slots__ = ()
    >>> Probe("")
    Traceback (most recent call last):
    ...
    ValueError: Probe: output name must not be empty
    """

    name: str

    def __post_init__(self) -> None:
        self._set(name=checked_address(self.name, type(self).__name__, "output name"))


@frozen
class OutputPathFields(FrozenValue):
    """``(name, path)``: a value inside a root module output.

    >>> from tfjsonpath import New
    >>> class Probe(OutputPathFields):
    ...     __slots__ = ()
    >>> Probe("o", New(0))
    Probe('o', Path(SliceStep(0)))
    """

    name: str
    path: Path

    def __post_init__(self) -> None:
        kind = type(self).__name__
        self._set(name=checked_address(self.name, kind, "output name"), path=checked_path(self.path, kind))


@frozen
class OutputMatcherFields(FrozenValue):
    """``(name, matcher)``: a root module output as a whole, and what it must match.

    >>> from plancheck import knownvalue as kv
    >>> class Probe(OutputMatcherFields):
    ...     __slots__ = ()
    >>> Probe("o", kv.Null())
    Probe('o', Null())
    """

    name: str
    matcher: Check

    def __post_init__(self) -> None:
        kind = type(self).__name__
        self._set(name=checked_address(self.name, kind, "output name"), matcher=checked_matcher(self.matcher, kind))


@frozen
class OutputPathMatcherFields(FrozenValue):
    """``(name, path, matcher)``: a value inside a root module output, and what it must match.

    >>> from plancheck import knownvalue as kv
    >>> from tfjsonpath import New
    >>> class Probe(OutputPathMatcherFields):
    ...     __slots__ = ()
    >>> Probe("o", New("a"), kv.Null())
    Probe('o', Path(MapStep('a')), Null())
    """

    name: str
    path: Path
    matcher: Check

    def __post_init__(self) -> None:
        kind = type(self).__name__
        self._set(
            name=checked_address(self.name, kind, "output name"),
            path=checked_path(self.path, kind),
            matcher=checked_matcher(self.matcher, kind),
        )
