"""Parsing JSON exactly, with the standard library or (the ``fast`` extra) msgspec.

Both parsers give the same result for every input, which is the standard library's:

* numbers written with a fraction or an exponent become :class:`decimal.Decimal` (``1.1``
  is ``Decimal('1.1')``, never the float 1.1000000000000000888), integers stay ``int``
  of any size;
* bytes are decoded as ``json.loads`` decodes them (UTF-8, or UTF-16/32 by their BOM or
  zero bytes);
* ``NaN`` and ``Infinity``, which are not JSON, are rejected;
* a duplicated key keeps its last value.

msgspec is used only where it is known to agree; for anything it rejects or might read
differently (a byte order mark, UTF-16, an escaped lone surrogate), the standard
library's parse decides, so a document either loads identically with both or fails with
the same error.
"""

from __future__ import annotations

import codecs
import gc
import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from decimal import Decimal
from functools import cache
from typing import Any, Final, Literal

from ._errors import DocumentFormatError

__all__ = [
    "PARSERS",
    "ParserName",
    "check_utf8",
    "collector_paused",
    "decode_text",
    "fast_decoder",
    "fast_parser_available",
    "loads_exact",
    "resolve_parser",
    "stdlib_scan",
]

ParserName = Literal["auto", "stdlib", "fast"]
PARSERS: Final = ("auto", "stdlib", "fast")

#: Set to ``stdlib`` to never use the fast parser (for comparing the two).
PARSER_ENV: Final = "PLANCHECK_JSON_PARSER"


class _NonStandardConstant(ValueError):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def _reject_constant(name: str) -> Any:
    raise _NonStandardConstant(name)


_DECODER: Final = json.JSONDecoder(parse_float=Decimal, parse_constant=_reject_constant)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Build a parsed tree without the cyclic garbage collector, then hand it to the oldest generation.

    A parsed JSON tree holds no reference cycles, yet each of its containers would be
    traversed by every young collection that runs while it is being built, and again when
    promoted. Pausing the collector and then moving what was built to the oldest generation
    (``gc.freeze()`` + ``gc.unfreeze()``, both O(1)) skips that work: parsing an entry of
    a plan costs a third as much. Nothing is kept from collection: other objects created
    meanwhile are collected by the next full collection instead of a young one. When the
    program froze objects itself (``gc.freeze()`` before forking workers), only the pause
    is used, so its frozen objects stay frozen.

    >>> with collector_paused():
    ...     gc.isenabled()
    False
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if gc.get_freeze_count() == 0:
            gc.freeze()
            gc.unfreeze()
        if enabled:
            gc.enable()


def stdlib_scan() -> Callable[[str, int], tuple[Any, int]]:
    """The exact standard-library scanner: ``scan(text, index) -> (value, end)`` (no leading whitespace).

    >>> stdlib_scan()('[1.5, 2]', 0)
    ([Decimal('1.5'), 2], 8)
    """
    return _DECODER.scan_once  # type: ignore[attr-defined,no-any-return]


@cache
def fast_parser_available() -> bool:
    """Whether the ``fast`` extra (msgspec) is installed.

    >>> isinstance(fast_parser_available(), bool)
    True
    """
    try:
        import msgspec  # noqa: F401
    except ImportError:
        return False
    return True


def resolve_parser(parser: str) -> Literal["stdlib", "fast"]:
    """The parser to use for ``parser`` (``auto``: the fast one when installed, unless the
    environment variable ``PLANCHECK_JSON_PARSER=stdlib`` says otherwise).

    >>> resolve_parser("stdlib")
    'stdlib'
    """
    if parser == "stdlib":
        return "stdlib"
    if parser == "fast":
        if not fast_parser_available():
            raise ValueError('parser="fast" needs the fast extra: pip install "tfplancheck[fast]"')
        return "fast"
    if parser == "auto":
        if os.environ.get(PARSER_ENV, "").strip().lower() == "stdlib":
            return "stdlib"
        return "fast" if fast_parser_available() else "stdlib"
    raise ValueError(f"parser must be one of {', '.join(PARSERS)}, got {parser!r}")


@cache
def fast_decoder() -> Any:
    """A msgspec decoder that reads numbers exactly like :func:`loads_exact`."""
    import msgspec

    return msgspec.json.Decoder(float_hook=Decimal)


def _syntax_error(
    exc: Exception, error: type[DocumentFormatError], source: str | None
) -> DocumentFormatError:
    if isinstance(exc, json.JSONDecodeError):
        where = f" at line {exc.lineno} column {exc.colno} (character {exc.pos})"
        return error("$", "valid JSON", found=f"invalid JSON: {exc.msg}{where}", source=source)
    if isinstance(exc, _NonStandardConstant):
        return error("$", "valid JSON", found=f"{exc.name}, which is not JSON", source=source)
    if isinstance(exc, RecursionError):
        return error(
            "$",
            "JSON nested less deeply than Python's recursion limit",
            found="deeper nesting",
            source=source,
        )
    if isinstance(exc, UnicodeDecodeError):
        return error(
            "$", "JSON text in UTF-8 (or UTF-16/UTF-32)",
            found=f"an invalid byte 0x{exc.object[exc.start]:02x} at byte offset {exc.start}", source=source,
        )  # fmt: skip
    return error("$", "valid JSON", found=str(exc), source=source)


def decode_text(data: bytes, *, error: type[DocumentFormatError], source: str | None = None) -> str:
    """Decode JSON bytes to text the way ``json.loads`` does.

    >>> decode_text(b'\\xef\\xbb\\xbf{}', error=DocumentFormatError)
    '{}'
    """
    try:
        return data.decode(json.detect_encoding(data), "surrogatepass")
    except UnicodeDecodeError as exc:
        raise _syntax_error(exc, error, source) from None


def check_utf8(data: bytes, *, error: type[DocumentFormatError], source: str | None = None) -> None:
    """Raise unless ``data`` decodes as UTF-8 (as :func:`decode_text` would), without building the text.

    >>> check_utf8(b'{"a": "\\xc3\\xa9"}', error=DocumentFormatError)
    """
    if data.isascii():
        return
    decode = codecs.getincrementaldecoder("utf-8")("surrogatepass").decode
    view = memoryview(data)
    step = 1 << 20
    try:
        for start in range(0, len(data), step):
            decode(view[start : start + step], start + step >= len(data))
    except UnicodeDecodeError:
        try:  # an invalid document: decode it whole, for the exact offset
            data.decode("utf-8", "surrogatepass")
        except UnicodeDecodeError as exc:
            raise _syntax_error(exc, error, source) from None
        raise  # pragma: no cover - the incremental decoder and the whole decode agree


def _loads_stdlib(data: str | bytes, error: type[DocumentFormatError], source: str | None) -> Any:
    text = data if isinstance(data, str) else decode_text(bytes(data), error=error, source=source)
    try:
        with collector_paused():
            return _DECODER.decode(text)
    except (ValueError, RecursionError) as exc:
        raise _syntax_error(exc, error, source) from None


def _fast_agrees(data: str | bytes) -> bool:
    """Whether msgspec reads ``data`` as the standard library would (no BOM, no UTF-16/32)."""
    head = data[:4]
    if isinstance(head, str):
        return not head.startswith("\ufeff")
    return not head.startswith(codecs.BOM_UTF8) and b"\x00" not in head


def loads_exact(
    data: str | bytes,
    *,
    error: type[DocumentFormatError] = DocumentFormatError,
    source: str | None = None,
    parser: str = "auto",
) -> Any:
    """Parse a whole JSON document exactly (see the module docstring).

    >>> loads_exact(b'{"n": 1.1, "big": 123456789012345678901234567890}')
    {'n': Decimal('1.1'), 'big': 123456789012345678901234567890}
    >>> loads_exact("[NaN]")
    Traceback (most recent call last):
    ...
    plancheck._errors.DocumentFormatError: $: expected valid JSON, found NaN, which is not JSON
    """
    if resolve_parser(parser) == "fast" and _fast_agrees(data):
        try:
            with collector_paused():
                return fast_decoder().decode(data)
        except Exception:
            pass
    return _loads_stdlib(data, error, source)
