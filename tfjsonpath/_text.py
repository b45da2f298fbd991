"""The two kinds of step a path is made of (MapStep and SliceStep, with their validating constructors), and
the quoted keys of a path's escaped text form (``["example-key"]``): written by :func:`quote_key`, read by
:func:`_scan_quoted`. The rest of the text form is read and written by ``Path.parse`` and ``Path.to_text``.

A quoted key is a JSON string literal; ``\\u{HEX}`` (1 to 6 hex digits) also stands for one code point.
Printable characters are written as they are, the rest escaped. ``\\u{...}`` is written only where JSON
cannot say it: a lone high surrogate directly followed by a lone low surrogate, which JSON's
``\\uXXXX\\uXXXX`` would merge into one character.
"""

from __future__ import annotations

import re
from typing import Any, Final, Self, TypeAlias, final

from ._errors import PathArgumentError, PathSyntaxError, public

__all__ = ["MapStep", "SliceStep", "Step", "quote_key"]


MAX_INDEX: Final = 2**63 - 1


class _Immutable:
    """What tfjsonpath's values (a Path and both kinds of step) share: set once when built, never changed, so
    a copy is the value itself."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot delete {name!r}")

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self


@public("tfjsonpath")
@final
class MapStep(_Immutable):
    """A step into a JSON object by key (Go's ``tfjsonpath.MapStep``).

    >>> MapStep("triggers")
    MapStep('triggers')
    >>> MapStep("a") == MapStep("a"), MapStep("a") == "a"
    (True, False)
    >>> MapStep(0)
    Traceback (most recent call last):
    ...
    tfjsonpath.PathArgumentError: MapStep() key must be a str, got int

    A key is checked once, here; a builder that passes its argument on (``AtMapKey()``) says the
    refusal in its own name.
    """

    __slots__ = ("key",)
    __match_args__ = ("key",)
    key: str

    def __init__(self, key: str) -> None:
        if not isinstance(key, str):
            raise _key_refusal(key, "MapStep()")
        # A str subclass (e.g. a str-mixin Enum) could override __eq__/__hash__/__str__;
        # storing an exact str keeps equality, hashing and rendering predictable.
        object.__setattr__(self, "key", key if type(key) is str else str.__str__(key))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MapStep):
            return self.key == other.key
        return NotImplemented

    def __hash__(self) -> int:
        return hash((MapStep, self.key))

    def __repr__(self) -> str:
        return f"MapStep({self.key!r})"

    def __reduce__(self) -> tuple[type[MapStep], tuple[str]]:
        return (MapStep, (self.key,))


@public("tfjsonpath")
@final
class SliceStep(_Immutable):
    """A step into a JSON array by a non-negative index (Go's ``tfjsonpath.SliceStep``).

    >>> SliceStep(0)
    SliceStep(0)
    >>> SliceStep(-1)
    Traceback (most recent call last):
    ...
    tfjsonpath.PathArgumentError: SliceStep() index must be >= 0, got -1

    An index is checked once, here; a builder that passes its argument on (``AtSliceIndex()``) says
    the refusal in its own name.
    """

    __slots__ = ("index",)
    __match_args__ = ("index",)
    index: int

    def __init__(self, index: int) -> None:
        # An int from 0 to 2**63 - 1, bool aside; _index_refusal says why anything else is refused.
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= MAX_INDEX:
            raise _index_refusal(index, "SliceStep()")
        object.__setattr__(self, "index", index if type(index) is int else int.__index__(index))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SliceStep):
            return self.index == other.index
        return NotImplemented

    def __hash__(self) -> int:
        return hash((SliceStep, self.index))

    def __repr__(self) -> str:
        return f"SliceStep({self.index!r})"

    def __reduce__(self) -> tuple[type[SliceStep], tuple[int]]:
        return (SliceStep, (self.index,))


def _key_refusal(key: object, by: str) -> PathArgumentError:
    """Why ``key`` is no map key, said by ``by``: the step, or the builder that passed the key on to it.

    >>> _key_refusal(0, "AtMapKey()")
    PathArgumentError('AtMapKey() key must be a str, got int')
    """
    return PathArgumentError(f"{by} key must be a str, got {type(key).__name__}")


def _index_refusal(index: object, by: str) -> PathArgumentError:
    """Why ``index`` is no array index, said by ``by``: the step, or the builder that passed the index on to it.

    >>> _index_refusal(True, "AtSliceIndex()"), _index_refusal(-1, "join() argument 2")
    (PathArgumentError('AtSliceIndex() index must be an int, got bool'), PathArgumentError('join() argument 2 index must be >= 0, got -1'))
    """
    # bool is an int subclass, but True is never meant as an index.
    if isinstance(index, bool) or not isinstance(index, int):
        return PathArgumentError(f"{by} index must be an int, got {type(index).__name__}")
    if index < 0:
        # Go accepts a negative SliceStep and then panics inside Traverse; refuse it here.
        return PathArgumentError(f"{by} index must be >= 0, got {index}")
    # Go's int is 64-bit; no array is that long, and huge ints cannot even be printed (int_max_str_digits).
    return PathArgumentError(f"{by} index must be <= {MAX_INDEX} (2**63 - 1), got a {index.bit_length()}-bit int")


Step: TypeAlias = MapStep | SliceStep
"""One step of a Path: a MapStep or a SliceStep."""

STEP_TYPES: Final = (MapStep, SliceStep)


# A run of characters that stand for themselves inside a quoted key.
_PLAIN_RUN = re.compile(r'[^"\\\x00-\x1f]+')
_HEX4 = re.compile(r"[0-9A-Fa-f]{4}")
_HEX_RUN = re.compile(r"[0-9A-Fa-f]*")

_SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_UNESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}

_EXPECT_STRING_END = "a closing '\"'"
_EXPECT_NO_CONTROL = "an escape sequence instead of a raw control character"
_EXPECT_ESCAPE = 'an escape: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX or \\u{X...}'
_EXPECT_HEX4 = "4 hex digits after '\\u'"
_EXPECT_BRACED = "hex digits after '\\u{'"
_EXPECT_BRACE_END = "'}' after the hex digits"
_EXPECT_CODE_POINT = "a code point no greater than 10FFFF"


def _is_high(ch: str) -> bool:
    return "\ud800" <= ch <= "\udbff"


def _is_low(ch: str) -> bool:
    return "\udc00" <= ch <= "\udfff"


def quote_key(key: str) -> str:
    """Render ``key`` as a quoted string that :meth:`Path.parse` reads back exactly (with :func:`_scan_quoted`).

    >>> print(quote_key('a.b'), quote_key('say "hi"'), quote_key('tab\\there'), quote_key('ключ'))
    "a.b" "say \\"hi\\"" "tab\\there" "ключ"
    """
    if key.isprintable() and '"' not in key and "\\" not in key:
        return f'"{key}"'
    out = ['"']
    last = len(key) - 1
    for i, ch in enumerate(key):
        short = _SHORT_ESCAPES.get(ch)
        if short is not None:
            out.append(short)
        elif ch.isprintable():
            out.append(ch)
        elif _is_high(ch) and i < last and _is_low(key[i + 1]):
            out.append(f"\\u{{{ord(ch):x}}}")
        elif ord(ch) > 0xFFFF:
            # JSON has no escape above the BMP; a surrogate pair stands for the one character.
            code = ord(ch) - 0x10000
            out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            out.append(f"\\u{ord(ch):04x}")
    out.append('"')
    return "".join(out)


def _scan_quoted(text: str, pos: int) -> tuple[str, int]:
    """Decode the quoted key whose opening quote is at ``pos - 1``; return it and the offset after its closing quote."""
    chunks: list[str] = []
    end = len(text)
    while True:
        run = _PLAIN_RUN.match(text, pos)
        if run is not None:
            chunks.append(run.group())
            pos = run.end()
        if pos >= end:
            raise PathSyntaxError(text, pos, _EXPECT_STRING_END)
        ch = text[pos]
        if ch == '"':
            return "".join(chunks), pos + 1
        if ch != "\\":
            raise PathSyntaxError(text, pos, _EXPECT_NO_CONTROL)
        pos += 1
        if pos >= end:
            raise PathSyntaxError(text, pos, _EXPECT_ESCAPE)
        esc = text[pos]
        simple = _UNESCAPES.get(esc)
        if simple is not None:
            chunks.append(simple)
            pos += 1
            continue
        if esc != "u":
            raise PathSyntaxError(text, pos, _EXPECT_ESCAPE)
        pos += 1
        if text.startswith("{", pos):
            digits = _HEX_RUN.match(text, pos + 1)
            assert digits is not None  # the pattern also matches the empty string
            hex_digits = digits.group()
            if not hex_digits:
                raise PathSyntaxError(text, pos + 1, _EXPECT_BRACED)
            if not text.startswith("}", digits.end()):
                raise PathSyntaxError(text, digits.end(), _EXPECT_BRACE_END)
            if len(hex_digits) > 6 or (code := int(hex_digits, 16)) > 0x10FFFF:
                shown = hex_digits if len(hex_digits) <= 12 else hex_digits[:12] + "..."
                raise PathSyntaxError(text, pos + 1, _EXPECT_CODE_POINT, found=shown)
            chunks.append(chr(code))
            pos = digits.end() + 1
            continue
        hex4 = _HEX4.match(text, pos)
        if hex4 is None:
            raise PathSyntaxError(
                text, pos, _EXPECT_HEX4, found=repr(text[pos : pos + 4]) if pos < end else None
            )
        code = int(hex4.group(), 16)
        pos = hex4.end()
        # As in JSON, an escaped high surrogate followed by an escaped low one is one character.
        if 0xD800 <= code <= 0xDBFF and text.startswith("\\u", pos):
            low = _HEX4.match(text, pos + 2)
            if low is not None and 0xDC00 <= (low_code := int(low.group(), 16)) <= 0xDFFF:
                code = 0x10000 + ((code - 0xD800) << 10) + (low_code - 0xDC00)
                pos = low.end()
        chunks.append(chr(code))
