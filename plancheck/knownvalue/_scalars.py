"""Checks for strings, bools and null: StringExact, StringRegexp, Bool, Null, NotNull."""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from typing import Any, Final, final

from .._frozen import public
from .._redact import Marks
from ._base import Check, Ctx, ValueCheck, Visit, quote
from ._jsonmodel import json_type

__all__ = ["Bool", "NotNull", "Null", "StringExact", "StringRegexp"]

_FLAG_LETTERS: Final = (
    (re.ASCII, "a"),
    (re.IGNORECASE, "i"),
    (re.MULTILINE, "m"),
    (re.DOTALL, "s"),
    (re.VERBOSE, "x"),
)


@public("plancheck.knownvalue")
@final
class StringExact(ValueCheck):
    """The value is exactly this string.

    >>> StringExact("ami-123") == "ami-123", StringExact("1") == 1
    (True, False)
    >>> StringExact("str").check_value("rts")
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: expected value "str" for StringExact check, got: "rts"
    """

    __slots__ = ()
    _value: str
    name = "StringExact"

    def __init__(self, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"StringExact expects a str, got {type(value).__name__}")
        self._init_value(value)

    @property
    def value(self) -> str:
        """The expected string."""
        return self._value

    def _text_parts(self) -> Sequence[str | Check]:
        return (quote(self._value),)

    def _passes(self, value: Any) -> bool:
        return isinstance(value, str) and value == self._value

    def _visit(self, value: Any, marks: Marks, unknown: Marks, ctx: Ctx) -> Visit:
        if not isinstance(value, str):
            return f"expected string value for StringExact check, got: {json_type(value)}"
        if value != self._value:
            expected = ctx.lit(quote(self._value), marks, value)
            return f"expected value {expected} for StringExact check, got: {ctx.got(value, marks)}"
        return None


@public("plancheck.knownvalue")
@final
class StringRegexp(Check):
    """The value is a string in which the regular expression finds a match (``re.search``, like Go's MatchString).

    The pattern is compiled at once; a bad one raises ValueError naming it.

    >>> StringRegexp(r"^ami-[0-9a-f]+$") == "ami-0abc", StringRegexp("^ami-") == "i-1"
    (True, False)
    >>> StringRegexp("(")
    Traceback (most recent call last):
    ...
    ValueError: StringRegexp: invalid regular expression '(': missing ), unterminated subpattern at position 0
    >>> StringRegexp("str").check_value("rts")
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: expected regex match /str/ for StringRegexp check, got: "rts"
    """

    __slots__ = ("_flags", "_pattern", "_regex")
    _pattern: str
    _flags: int
    _regex: re.Pattern[str]
    name = "StringRegexp"

    def __init__(self, pattern: str | re.Pattern[str], flags: int | re.RegexFlag = 0) -> None:
        if isinstance(flags, bool) or not isinstance(flags, int):
            raise TypeError(f"StringRegexp flags must be re flags (an int), got {type(flags).__name__}")
        if isinstance(pattern, re.Pattern):
            if not isinstance(pattern.pattern, str):
                raise TypeError("StringRegexp needs a str pattern, got a bytes pattern")
            if flags:
                raise ValueError("StringRegexp: cannot add flags to an already compiled pattern")
            source = pattern.pattern
            # str patterns always carry re.UNICODE; it is implied, so leave it out of repr and equality.
            flags = pattern.flags & ~re.UNICODE
            regex = pattern
        elif isinstance(pattern, str):
            source = pattern
            try:
                regex = re.compile(pattern, flags)
            except re.error as exc:
                raise ValueError(f"StringRegexp: invalid regular expression {pattern!r}: {exc}") from None
            flags = int(flags) & ~re.UNICODE
        else:
            raise TypeError(
                f"StringRegexp expects a str pattern or a compiled re.Pattern, got {type(pattern).__name__}"
            )
        object.__setattr__(self, "_pattern", source)
        object.__setattr__(self, "_flags", int(flags))
        object.__setattr__(self, "_regex", regex)
        self._seal()

    @property
    def pattern(self) -> str:
        """The regular expression's source text."""
        return self._pattern

    @property
    def flags(self) -> int:
        """The ``re`` flags the pattern was compiled with (``re.UNICODE`` left out)."""
        return self._flags

    def _ident(self) -> tuple[Hashable, ...]:
        return (self._pattern, self._flags)

    def _args(self) -> tuple[Any, ...]:
        return (self._pattern, self._flags)

    def _repr_parts(self) -> Sequence[str | Check]:
        if self._flags:
            return (f"StringRegexp({self._pattern!r}, flags={re.RegexFlag(self._flags)!r})",)
        return (f"StringRegexp({self._pattern!r})",)

    def _text_parts(self) -> Sequence[str | Check]:
        letters = "".join(letter for flag, letter in _FLAG_LETTERS if self._flags & flag)
        return (f"/{self._pattern}/{letters}",)

    def _visit(self, value: Any, marks: Marks, unknown: Marks, ctx: Ctx) -> Visit:
        if not isinstance(value, str):
            return f"expected string value for StringRegexp check, got: {json_type(value)}"
        if self._regex.search(value) is None:
            expected = ctx.lit(str(self), marks, value)
            return f"expected regex match {expected} for StringRegexp check, got: {ctx.got(value, marks)}"
        return None


@public("plancheck.knownvalue")
@final
class Bool(ValueCheck):
    """The value is this bool (``1`` is not ``true``).

    >>> Bool(True) == True, Bool(True) == 1
    (True, False)
    >>> Bool(True).check_value(False)
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: expected value true for Bool check, got: false
    """

    __slots__ = ()
    _value: bool
    name = "Bool"

    def __init__(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"Bool expects a bool, got {type(value).__name__}")
        self._init_value(value)

    @property
    def value(self) -> bool:
        """The expected bool."""
        return self._value

    def _text_parts(self) -> Sequence[str | Check]:
        return ("true" if self._value else "false",)

    def _passes(self, value: Any) -> bool:
        return value is self._value

    def _visit(self, value: Any, marks: Marks, unknown: Marks, ctx: Ctx) -> Visit:
        if not isinstance(value, bool):
            return f"expected bool value for Bool check, got: {json_type(value)}"
        if value is not self._value:
            expected = ctx.lit(str(self), marks)
            return f"expected value {expected} for Bool check, got: {ctx.got(value, marks)}"
        return None


class _NoArgs(Check):
    __slots__ = ()

    def __init__(self) -> None:
        self._seal()

    def _ident(self) -> tuple[Hashable, ...]:
        return ()

    def _args(self) -> tuple[Any, ...]:
        return ()

    def _repr_parts(self) -> Sequence[str | Check]:
        return (f"{self.name}()",)


@public("plancheck.knownvalue")
@final
class Null(_NoArgs):
    """The value is null (and known: an unknown value fails, unlike in Go).

    >>> Null() == None, Null() == 0
    (True, False)
    >>> Null().check_value(False)
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: expected null value for Null check, got: bool
    """

    __slots__ = ()
    name = "Null"

    def _text_parts(self) -> Sequence[str | Check]:
        return ("null",)

    def _passes(self, value: Any) -> bool:
        return value is None

    def _visit(self, value: Any, marks: Marks, unknown: Marks, ctx: Ctx) -> Visit:
        if value is not None:
            return f"expected null value for Null check, got: {json_type(value)}"
        return None


@public("plancheck.knownvalue")
@final
class NotNull(_NoArgs):
    """The value is known and not null.

    >>> NotNull() == "", NotNull() == None
    (True, False)
    >>> NotNull().check_value(None)
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: expected non-null value for NotNull check, got: null
    """

    __slots__ = ()
    name = "NotNull"

    def _text_parts(self) -> Sequence[str | Check]:
        return ("<not null>",)

    def _passes(self, value: Any) -> bool:
        return value is not None

    def _visit(self, value: Any, marks: Marks, unknown: Marks, ctx: Ctx) -> Visit:
        if value is None:
            return "expected non-null value for NotNull check, got: null"
        return None
