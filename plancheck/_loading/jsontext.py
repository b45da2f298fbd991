"""Parsing JSON exactly, with the standard library or (the ``fast`` extra) msgspec.

Both parsers give the same result for every input, which is the standard library's:

* numbers written with a fraction or an exponent become :class:`decimal.Decimal` (``1.1``
  is ``Decimal('1.1')``, never the float 1.1000000000000000888); integers are ``int``,
  except one of more digits than Python converts to an ``int`` (``sys.get_int_max_str_digits()``,
  4300 by default), which is the ``Decimal`` of the same exact value: converting such a
  string to an ``int`` takes time quadratic in its length (that is why Python limits it), a
  ``Decimal`` linear time, and it prints without limit;
* a number that ``Decimal`` cannot hold (an exponent beyond ``decimal.MAX_EMAX``, or a digit
  below ``10**decimal.MIN_ETINY``, as in ``1e1000000000000000000``) is a format error at its
  JSON location, with its line and column;
* bytes are decoded as ``json.loads`` decodes them (UTF-8, or UTF-16/32 by their BOM or
  zero bytes);
* ``NaN`` and ``Infinity``, which are not JSON, are rejected;
* an object that repeats a key is refused (a format error at that key's JSON location): which
  of the values counts would be a guess (Python keeps the last, other readers the first), and
  a plan saying ``"errored": false`` after ``"errored": true`` must not pass;
* any depth of nesting is read: where the C scanner runs out of stack (about a thousand
  levels) or meets a number it cannot convert, the value is read level by level here
  instead (see :func:`scan_exact`), with the same result and the same syntax errors.

msgspec is used only where it is known to agree; for anything it rejects or might read
differently (a byte order mark, UTF-16, an escaped lone surrogate), the standard
library's parse decides, so a document either loads identically with both or fails with
the same error. msgspec keeps the last of a repeated key without a word, so what it reads
is proven free of repeats by counting colons (see :func:`repeats_ruled_out`); what the count
cannot prove goes to the standard library, whose ``object_pairs_hook`` sees every key.
"""

from __future__ import annotations

import codecs
import decimal
import json
import os
import re
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from decimal import Decimal
from functools import cache, partial
from json import JSONDecodeError
from typing import Any, Final, Literal, cast

from .._errors import ArgumentError, DocumentFormatError, PlanFormatError, StateFormatError
from .collector import collector_off
from .location import PathKey, hidden_inside, hidden_keys_from, json_location

__all__ = [
    "PARSERS",
    "KeyRepeated",
    "ParserName",
    "check_utf8",
    "decode_text",
    "each_key_once",
    "encoded_colons",
    "exact_numbers",
    "fast_agrees",
    "fast_decoder",
    "fast_parser_available",
    "loads_exact",
    "marking_repeats",
    "read_leniently",
    "repeated_key_error",
    "repeats_ruled_out",
    "resolve_parser",
    "scan_exact",
    "spelled_alike",
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


class _RepeatedKey(ValueError):
    """An object the C scanner read repeats a key: where is found level by level (see :func:`_scan_levels`)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # The C scanner calls this for every object; one dict and two lengths keep it cheap (~30 % of a parse).
    made = dict(pairs)
    if len(made) != len(pairs):
        raise _RepeatedKey
    return made


class KeyRepeated(ValueError):
    """What :func:`each_key_once` raises: the key an object of one of the tool's own small files gives twice (a
    ValueError, as json.loads's own errors are; its readers catch it before them)."""

    def __init__(self, key: str) -> None:
        super().__init__(f"the key {key[:60]!r} is given twice in one object (which of its values counts would be a guess)")
        self.key = key


def each_key_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An ``object_pairs_hook`` for ``json.loads`` of the tool's own files (a baseline, a leftover's record) raising
    :class:`KeyRepeated`: a hand edit or a merge can repeat a key, and json.loads would keep the last value, a guess
    nobody sees in the file. Documents and checks files refuse it their own way (:func:`loads_exact`).

    >>> json.loads('{"a": 1, "a": 2}', object_pairs_hook=each_key_once)
    Traceback (most recent call last):
    ...
    plancheck._loading.jsontext.KeyRepeated: the key 'a' is given twice in one object (which of its values counts would be a guess)
    """
    made = dict(pairs)
    if len(made) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise KeyRepeated(key)
            seen.add(key)
    return made


def marking_repeats(pairs: list[tuple[str, Any]], repeated: object) -> dict[str, Any]:
    """An ``object_pairs_hook`` keeping each key once, a repeated key holding ``repeated``: for a reader that reports
    it at its key path (the checks file's); the loader's own refuses the document at once (:func:`_unique_keys`).

    >>> marking_repeats([("type", "a"), ("n", 1), ("type", "b")], "twice")
    {'type': 'twice', 'n': 1}
    """
    made = dict(pairs)
    if len(made) < len(pairs):
        made.update((key, repeated) for key, count in Counter(key for key, _ in pairs).items() if count > 1)
    return made


_DECODER: Final = json.JSONDecoder(
    parse_float=Decimal, parse_constant=_reject_constant, object_pairs_hook=_unique_keys
)

# Decimal("1e1000000000000000000") signals InvalidOperation; with the trap off (a caller's own
# context may turn it off) it would quietly be NaN, which is not JSON. Parsing uses this context.
_TRAPPING: Final = decimal.Context(traps=[decimal.InvalidOperation])


@contextmanager
def exact_numbers() -> Iterator[None]:
    """Run a parse in a decimal context that refuses, rather than rounds or NaNs, a number Decimal cannot hold.

    (Converting text to a Decimal is exact whatever the context's precision.)

    >>> with exact_numbers():
    ...     Decimal("1.10")
    Decimal('1.10')
    """
    if decimal.getcontext().traps[decimal.InvalidOperation]:
        # The usual case. Switching contexts would cost more than the parse of a small value, and it
        # sets a context variable: objects the program froze (gc.freeze()) would be freed.
        yield
        return
    with decimal.localcontext(_TRAPPING):
        yield


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
            raise ArgumentError('parser="fast" needs the fast extra: pip install "tfplancheck[fast]"')
        return "fast"
    if parser == "auto":
        if os.environ.get(PARSER_ENV, "").strip().lower() == "stdlib":
            return "stdlib"
        return "fast" if fast_parser_available() else "stdlib"
    raise ArgumentError(f"parser must be one of {', '.join(PARSERS)}, got {parser!r}")


@cache
def fast_decoder() -> Any:
    """A msgspec decoder that reads numbers exactly like :func:`loads_exact`."""
    import msgspec

    return msgspec.json.Decoder(float_hook=Decimal)


@cache
def _fast_encoder() -> Any:
    import msgspec

    return msgspec.json.Encoder(decimal_format="number")


@cache
def _spelling_encoder() -> Callable[[Any], bytes]:
    """What :func:`spelled_alike` compares: each value written with the type of every part, a Decimal by its text.

    msgspec's JSON encoder when installed (a Decimal as its text in a string), else a pickle, which
    also writes which parts are one object: two values whose parts are shared otherwise are not proven
    alike (the caller walks both). The standard library's JSON encoder took 1.4 s of CPU for the 20,000-resource
    reference plan's states where msgspec takes 0.3 s and a pickle 0.9 s (both sides of every comparison).
    """
    if fast_parser_available():
        import msgspec

        return msgspec.json.Encoder().encode
    import pickle  # here: no import pays for it (nothing else of a plain session imports it)

    return partial(pickle.dumps, protocol=pickle.HIGHEST_PROTOCOL)


def spelled_alike(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are equal and written alike: each value of one has the other's type and text.

    ``==`` finds ``1000 == Decimal("1E+3") == 1000.0`` and ``1 == True``, though a message may show
    each of them otherwise; what the exact parse keeps of a number's spelling (:func:`loads_exact`: an
    int, or a Decimal of the very digits and exponent written) must then be the same in both. Objects
    with their keys in another order are not alike, nor is what the encoder cannot write (the caller walks both).

    >>> spelled_alike({"n": [1, Decimal("1.5")]}, {"n": [1, Decimal("1.5")]})
    True
    >>> [spelled_alike(1000, x) for x in (Decimal("1E+3"), Decimal("1000.0"), 1000.0)], spelled_alike(1, True)
    ([False, False, False], False)
    >>> spelled_alike(Decimal("1"), "1"), spelled_alike({"a": 1, "b": 2}, {"b": 2, "a": 1})
    (False, False)
    """
    try:
        # Equality first, at C speed: the encodings below then differ only where the types or a Decimal's text do.
        if a != b:
            return False
        encode = _spelling_encoder()
        return encode(a) == encode(b)
    except Exception:  # a comparison that raises (Decimal('sNaN')), a value the encoder cannot write: not proven alike
        return False


#: Bytes a ``msgspec.Raw`` is copied in to be counted: a value of 100 MB is never copied whole.
_CHUNK: Final = 1 << 22


def repeats_ruled_out(data: Any, value: Any, colons: int | None = None) -> bool:
    """Whether ``value``, read by msgspec from the JSON text ``data``, is proven to have lost no repeated key.

    msgspec keeps the last of a repeated key and says nothing. But outside strings a JSON text
    has one colon per member of an object, and encoding ``value`` again writes one colon per
    member msgspec kept, plus every colon of every string (a ``msgspec.Raw`` is written as it was
    read). A colon in a string is written as it was read, unless it was escaped (``\\u003a``).
    So when ``data`` escapes no colon, the same count of colons in both proves that no member was
    dropped. False (a repeat, or only an escaped colon) leaves the verdict to the standard library.
    ``data`` is bytes, str or a ``msgspec.Raw`` (counted a few MB at a time); ``colons``, when
    given, is the count of colons ``value`` encodes to, counted by the caller piece by piece.

    >>> repeats_ruled_out(b'{"a": {"b": "c:d"}}', {"a": {"b": "c:d"}})
    True
    >>> repeats_ruled_out(b'{"a": 1, "a": 2}', {"a": 2})
    False
    """
    if colons is None:
        try:
            colons = _fast_encoder().encode(value).count(b":")
        except Exception:  # an integer msgspec cannot write: the standard library decides
            return False
    if isinstance(data, str):
        return colons == data.count(":") and "\\u003a" not in data and "\\u003A" not in data
    if isinstance(data, bytes):
        return colons == data.count(b":") and b"\\u003a" not in data and b"\\u003A" not in data
    # A msgspec.Raw, counted a few MB at a time: a value of 100 MB is never copied whole.
    view = memoryview(data)
    found = 0
    for start in range(0, len(view), _CHUNK):
        # 5 bytes more, so that an escape across the boundary is seen (and its colon counted once).
        chunk = bytes(view[start : start + _CHUNK + 5])
        if b"\\u003a" in chunk or b"\\u003A" in chunk:
            return False
        found += chunk.count(b":", 0, _CHUNK)
    return colons == found


def encoded_colons(value: Any) -> int:
    """The colons in msgspec's encoding of ``value``: what :func:`repeats_ruled_out` counts, for a caller that
    encodes a large value a piece at a time.

    >>> encoded_colons({"a": "b:c", "d": [1, {"e": 2}]})
    4
    """
    encoded: bytes = _fast_encoder().encode(value)
    return encoded.count(b":")


#: How `terraform plan -json` (and apply, destroy, validate with -json) starts each line of its machine-readable log:
#: a newcomer's plan.json as often as not, which "Extra data at line 2" alone would not name.
_UI_LOG_START: Final = '{"@level":'
_UI_LOG: Final = (
    "the machine-readable log `terraform plan -json` writes (one JSON message a line), which is a different format; "
    "get a plan's JSON from terraform plan -out=PLANFILE, then terraform show -json PLANFILE"
)


#: Said after the parser's words when a plan or state does not even start as JSON (its first token is no JSON value):
#: `terraform show PLANFILE` without -json, a saved `terraform plan` log, a .tf file. Every front end reads it; the
#: command line says it in its own words instead (plancheck.cli._io), as do the acceptance runner and mock_plan, which
#: ran show -json (:func:`show_json_refused`).
NOT_JSON_HINT: Final = (
    "not JSON at all (Terraform's text output, or a configuration?): get a plan's JSON from "
    "terraform show -json PLANFILE, a state's from terraform show -json"
)


def without_hint(exc: DocumentFormatError) -> str:
    """The loader's words for ``exc`` without :data:`NOT_JSON_HINT`: for a reader of the JSON Terraform printed (it
    ran show -json), and for the command line, which says what it reads in its own words.

    >>> without_hint(PlanFormatError("$", "valid JSON", found=f"invalid JSON: Expecting value; {NOT_JSON_HINT}"))
    '$: expected valid JSON, found invalid JSON: Expecting value'
    """
    return str(exc).removesuffix(f"; {NOT_JSON_HINT}")


def show_json_refused(exc: DocumentFormatError, noun: str) -> str:
    """What happened, said by one who ran ``terraform show -json`` and had the loader refuse what it printed (``exc``,
    of the ``noun``, plan or state): no hint for a person's file, Terraform printed it.

    >>> show_json_refused(PlanFormatError("$", "valid JSON", found=f"invalid JSON: Expecting value; {NOT_JSON_HINT}"), "plan")
    'show -json printed invalid JSON ($: expected valid JSON, found invalid JSON: Expecting value)'
    >>> show_json_refused(PlanFormatError("$.format_version", "a string"), "plan")
    'cannot read the plan that show -json printed: $.format_version: expected a string'
    """
    if exc.location == "$" and exc.expected == "valid JSON":
        return f"show -json printed invalid JSON ({without_hint(exc)})"
    if exc.location == "$" and exc.expected.startswith("a JSON object"):
        return "show -json printed JSON that is not an object"
    return f"cannot read the {noun} that show -json printed: {exc}"


def _syntax_error(
    exc: BaseException, error: type[DocumentFormatError], source: str | None
) -> DocumentFormatError:
    """The loader's error for a document that does not parse; a plan or state whose first token is no JSON value is
    told what it may be instead.

    >>> print(_syntax_error(json.JSONDecodeError("Expecting value", "\\nNo changes.", 1), PlanFormatError, "p.txt"))
    p.txt: $: expected valid JSON, found invalid JSON: Expecting value at line 2 column 1 (character 1); not JSON at all (Terraform's text output, or a configuration?): get a plan's JSON from terraform show -json PLANFILE, a state's from terraform show -json
    """
    if isinstance(exc, json.JSONDecodeError) and exc.msg == "Extra data" and exc.doc.lstrip().startswith(_UI_LOG_START):
        return error("$", "one JSON document", found=_UI_LOG, source=source)
    if isinstance(exc, json.JSONDecodeError):
        where = f" at line {exc.lineno} column {exc.colno} (character {exc.pos})"
        message = exc.msg.removesuffix(" at")  # "Invalid control character at", then our own "at line"
        found = f"invalid JSON: {message}{where}"
        first_token = exc.msg == "Expecting value" and exc.pos == _skip_ws(exc.doc, 0).end() < len(exc.doc)
        if first_token and issubclass(error, (PlanFormatError, StateFormatError)):
            found = f"{found}; {NOT_JSON_HINT}"
        return error("$", "valid JSON", found=found, source=source)
    if isinstance(exc, _NonStandardConstant):
        return error("$", "valid JSON", found=f"{exc.name}, which is not JSON", source=source)
    if isinstance(exc, _Located):
        return exc.error(error, source)
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


def _loads_stdlib(
    data: str | bytes,
    error: type[DocumentFormatError],
    source: str | None,
    where: PathKey,
    whole: Callable[[], Any] | None = None,
) -> Any:
    text = data if isinstance(data, str) else decode_text(bytes(data), error=error, source=source)
    try:
        with collector_off(promote=True), exact_numbers():
            return _DECODER.decode(text)
    except (JSONDecodeError, _NonStandardConstant) as exc:
        if not where:
            raise _syntax_error(exc, error, source) from None
    except (RecursionError, ValueError, ArithmeticError):
        pass  # too deep for the C scanner, or a number it cannot convert: read it level by level
    start = 0
    try:
        with collector_off(promote=True), exact_numbers():
            start = _skip_ws(text, 0).end()
            value, end = _scan_levels(text, start, ())
            end = _skip_ws(text, end).end()
            if end != len(text):
                raise JSONDecodeError("Extra data", text, end)
            return value
    except (JSONDecodeError, _NonStandardConstant, _Located) as exc:
        if isinstance(exc, _Located):
            exc.start, exc.whole = start, whole
        raise _syntax_error(_relocated(exc, where) if where else exc, error, source) from None


def fast_agrees(data: str | bytes) -> bool:
    """Whether msgspec reads ``data`` as the standard library would (no BOM, no UTF-16/32).

    >>> fast_agrees(b'{}'), fast_agrees(b'\\xef\\xbb\\xbf{}'), fast_agrees('{}'.encode('utf-16-le'))
    (True, False, False)
    """
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
    where: PathKey = (),
    whole: Callable[[], Any] | None = None,
) -> Any:
    """Parse a whole JSON document exactly (see the module docstring): str, bytes, or a ``msgspec.Raw``.

    ``where`` is the JSON location of ``data`` in a larger document it was cut from (a
    value parsed on first access): an error then names its location in that document,
    without a line and column, which would count from the start of the piece. ``whole()`` reads that
    document leniently (:func:`read_leniently`), or, for ``data`` that is one line of JSON lines, every line's
    value: the keys of an error's location that spell one of its secrets are hidden (:meth:`_Located.location`).

    >>> loads_exact(b'{"n": 1.1, "big": 123456789012345678901234567890}')
    {'n': Decimal('1.1'), 'big': 123456789012345678901234567890}
    >>> loads_exact("[NaN]")
    Traceback (most recent call last):
    ...
    plancheck.DocumentFormatError: $: expected valid JSON, found NaN, which is not JSON
    >>> loads_exact('{"a": [1, 2e1000000000000000000]}')
    Traceback (most recent call last):
    ...
    plancheck.DocumentFormatError: $.a[1]: expected a number that Python's Decimal can hold (exponent at most decimal.MAX_EMAX, no digit below 10**decimal.MIN_ETINY), found a number beyond that range at line 1 column 11 (character 10)
    >>> type(loads_exact("1" * 5000)).__name__, loads_exact("[" * 5000 + "]" * 5000) is not None
    ('Decimal', True)
    """
    if resolve_parser(parser) == "fast":
        # A text msgspec might read otherwise (see fast_agrees) is one it refuses: a byte order mark is
        # an invalid character to it, and UTF-16 or UTF-32 JSON has a zero byte in its first two.
        try:
            with collector_off(promote=True), exact_numbers():
                value = fast_decoder().decode(data)
                if repeats_ruled_out(data, value):
                    return value
        except Exception:
            pass
    return _loads_stdlib(data, error, source, where, whole)


def scan_exact(
    text: str,
    start: int,
    *,
    error: type[DocumentFormatError],
    source: str | None = None,
    where: PathKey = (),
    whole: Callable[[], Any] | None = None,
) -> Any:
    """Parse the JSON value starting at ``start`` of ``text`` (a part of a document known to be valid JSON).

    ``where`` is the value's JSON location in the document, for errors (a number Decimal
    cannot hold); the line and column count from the start of ``text``; ``whole()`` reads the document
    leniently, for the secrets an error's location hides (see :func:`loads_exact`).

    >>> scan_exact('{"a": [1, 2.5]}', 6, error=DocumentFormatError)
    [1, Decimal('2.5')]
    """
    try:
        with collector_off(promote=True), exact_numbers():
            try:
                return _DECODER.scan_once(text, start)[0]  # type: ignore[attr-defined]
            except (RecursionError, ValueError, ArithmeticError) as exc:
                if isinstance(exc, (JSONDecodeError, _NonStandardConstant)):
                    raise
            return _scan_levels(text, start, where)[0]
    except StopIteration as stop:
        raise _syntax_error(JSONDecodeError("Expecting value", text, stop.value), error, source) from None
    except (JSONDecodeError, _NonStandardConstant, _Located) as exc:
        if isinstance(exc, _Located):
            exc.start, exc.at, exc.whole = start, where, whole
        raise _syntax_error(exc, error, source) from None


# -- reading what the C scanner cannot, level by level -------------------------------------------

# The pattern matches everywhere (possibly empty), so the match is never None.
_skip_ws: Final = cast(Callable[[str, int], "re.Match[str]"], re.compile(r"[ \t\n\r]*").match)
_NUMBER: Final = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
#: After the C scanner runs out of stack at some depth, this many levels below are read here
#: before it is tried again: each part of a deep value is then scanned a bounded number of times.
_WINDOW: Final = 256


#: The longest text read again, leniently, to find which keys of an error's location are secrets: a longer one's
#: keys inside a value are all hidden (failing closed) rather than a document that large parsed twice.
_REREAD_MAX: Final = 64 << 20


def read_leniently(data: str | bytes, start: int = 0) -> Any:
    """The JSON value at ``start`` of ``data`` as an error's location reads it for its marks and secrets: leniently (a
    repeated key's last value, a number as a float), raising for a text over 64 MB (whose keys inside a value are then
    all hidden: failing closed, rather than a document that large parsed twice) or one broken further on.

    >>> read_leniently(b' {"a": 1, "a": 1e999999999999999999}')
    {'a': inf}
    """
    too_long = DocumentFormatError("$", "a text of at most 64 MB to read again", found="a longer one")
    if len(data) > 4 * _REREAD_MAX:  # longer than that in any encoding: not decoded for nothing
        raise too_long
    text = data if isinstance(data, str) else decode_text(bytes(data), error=DocumentFormatError)
    if len(text) > _REREAD_MAX:
        raise too_long
    return json.JSONDecoder().raw_decode(text, _skip_ws(text, start).end())[0]


class _Located(Exception):
    """A problem at ``pos`` of ``text``, at JSON ``path``, that the syntax alone does not show.

    ``start`` is where the value read starts in ``text``, ``at`` its location in its whole document, ``whole`` what
    reads that document, or the lines of a JSON-lines text, again (set by the reader that catches it): its
    location's keys are shown only where they are no secret (:meth:`location`).
    """

    def __init__(self, text: str, pos: int, path: PathKey) -> None:
        super().__init__(path)
        self.text = text
        self.pos = pos
        self.path = path
        self.positions = True
        self.start = 0
        self.at: PathKey = ()
        self.whole: Callable[[], Any] | None = None

    def location(self, error: type[DocumentFormatError]) -> str:
        """``path`` as a location, hiding a key of a sensitive map and a key that spells a secret of the document
        (:func:`~plancheck._loading.location.hidden_keys_from`, the rule of a schema error's location): the document
        is read again, leniently (:func:`read_leniently`), the whole one a value was cut from (``whole``) too.

        >>> text = '{"after": {"tags": {"k-secret": 1, "k-secret": 2}}, "after_sensitive": {"tags": true}}'
        >>> _Located(text, 30, ("after", "tags", "k-secret")).location(PlanFormatError)
        '$.after.tags["(sensitive)"]'
        """
        from .validate import secret_asker  # an error's location only: the registered secret test

        whole, at = self.whole, self.at
        try:
            if whole is not None and at:  # a value cut from a document: located, and its secrets read, in the whole
                document, at, whole = whole(), (), None
            else:
                document = read_leniently(self.text, self.start)
        except Exception:  # broken further on, too deep, too large: no marks, every key inside a value hidden
            return json_location(self.path, hidden_inside(self.path, self.at))
        shows = secret_asker(whole or (lambda: document), at, error)
        return json_location(self.path, hidden_keys_from(self.path, document, at, shows))

    def _where(self) -> str:
        if not self.positions:
            return ""
        line = self.text.count("\n", 0, self.pos) + 1
        column = self.pos - self.text.rfind("\n", 0, self.pos)
        return f" at line {line} column {column} (character {self.pos})"

    def error(self, error: type[DocumentFormatError], source: str | None) -> DocumentFormatError:
        raise NotImplementedError


class _NumberOutOfRange(_Located):
    """A number Decimal cannot hold, at ``pos`` of ``text``, at JSON ``path``."""

    def error(self, error: type[DocumentFormatError], source: str | None) -> DocumentFormatError:
        # The number itself is not shown: it may be a secret.
        return error(
            self.location(error),
            "a number that Python's Decimal can hold "
            "(exponent at most decimal.MAX_EMAX, no digit below 10**decimal.MIN_ETINY)",
            found=f"a number beyond that range{self._where()}",
            source=source,
        )


class _KeyRepeated(_Located):
    """The key at ``pos`` of ``text`` (JSON ``path``, ending with the key) was already in its object."""

    def error(self, error: type[DocumentFormatError], source: str | None) -> DocumentFormatError:
        return repeated_key_error(self.path, error, source, self._where(), self.location(error))


def repeated_key_error(
    path: PathKey, error: type[DocumentFormatError], source: str | None = None, where: str = "",
    location: str | None = None,
) -> DocumentFormatError:
    """The error for an object that repeats a key: ``path`` locates the key (the object's location, then the key),
    shown as ``location`` when given (its secret keys hidden).

    Neither value is shown (either may be a secret), only where the key is.

    >>> str(repeated_key_error(("resource_changes", 0, "change", "after_sensitive"), DocumentFormatError, "plan.json"))
    'plan.json: $.resource_changes[0].change.after_sensitive: expected each key once in its object, found this key repeated (which of its values counts would be a guess)'
    """
    return error(
        json_location(path) if location is None else location,
        "each key once in its object",
        found=f"this key repeated{where} (which of its values counts would be a guess)",
        source=source,
    )


def _relocated(exc: Exception, where: PathKey) -> Exception:
    """An error in a piece cut from a document, located in the document (its offsets would mislead)."""
    if isinstance(exc, _Located):
        exc.path = (*where, *exc.path)
        exc.at = (*where, *exc.at)
        exc.positions = False
        return exc
    if isinstance(exc, JSONDecodeError):
        return ValueError(f"invalid JSON in the value at {json_location(where)}: {exc.msg}")
    return exc


class _Level:
    """One object or array being read: the container, where it starts, and its members' spans."""

    __slots__ = ("c_from", "container", "is_object", "key", "key_at", "spans", "start", "step")

    def __init__(self, is_object: bool, start: int, step: str | int | None, c_from: int) -> None:
        self.is_object = is_object
        self.container: Any = {} if is_object else []
        self.start = start
        self.step = step  # this container's key or index in its parent
        self.key = ""
        self.key_at = 0  # where the key starts, for the error when it repeats one
        self.spans: list[tuple[int, int]] = []  # (start, end) of each member value read so far
        self.c_from = c_from  # depth from which containers are handed to the C scanner again


def _path(levels: list[_Level]) -> PathKey:
    steps: list[str | int] = []
    for level in levels[1:]:
        assert level.step is not None
        steps.append(level.step)
    if levels:
        top = levels[-1]
        steps.append(top.key if top.is_object else len(top.container))
    return tuple(steps)


def _number(text: str, pos: int, levels: list[_Level], where: PathKey) -> tuple[Any, int]:
    """A number the C scanner could not convert: a long integer (a Decimal), or one out of Decimal's range."""
    match = _NUMBER.match(text, pos)
    assert match is not None, "the C scanner read a number here"
    raw = match.group()
    if match.group(1) is None and match.group(2) is None:
        try:
            return int(raw), match.end()
        except ValueError:
            return Decimal(raw), match.end()
    try:
        return Decimal(raw), match.end()
    except ArithmeticError:
        raise _NumberOutOfRange(text, pos, (*where, *_path(levels))) from None


def _explain(text: str, level: _Level) -> JSONDecodeError:
    """The error the standard library gives for the container ``level`` reads: its own pure-Python
    reader runs over the container again, with the members already read handed back by their spans.
    """
    ends = dict(level.spans)
    scan = _DECODER.scan_once  # type: ignore[attr-defined]

    def member(s: str, idx: int) -> tuple[Any, int]:
        if idx in ends:
            return None, ends[idx]
        return scan(s, idx)  # type: ignore[no-any-return]

    try:
        if level.is_object:
            json.decoder.JSONObject((text, level.start + 1), True, member, None, None, {})  # type: ignore[attr-defined]
        else:
            json.decoder.JSONArray((text, level.start + 1), member)  # type: ignore[attr-defined]
    except JSONDecodeError as exc:
        return exc
    raise AssertionError("the container was expected to be malformed")  # pragma: no cover


def _scan_levels(text: str, pos: int, where: PathKey) -> tuple[Any, int]:
    """Read the value at ``pos`` like the C scanner, but level by level where it fails.

    Each value is first handed to the C scanner. When it runs out of stack the value's
    containers are read here, :data:`_WINDOW` levels deep before the scanner is tried again;
    when it meets a number it cannot convert, the containers down to that number are read
    here. Syntax errors are the standard library's own (see :func:`_explain`).
    """
    scan = _DECODER.scan_once  # type: ignore[attr-defined]
    ws = _skip_ws
    levels: list[_Level] = []
    value: Any
    while True:
        # -- one value at pos ---------------------------------------------------------------
        c = text[pos : pos + 1]
        depth = len(levels)
        c_from = levels[-1].c_from if levels else 0
        start = pos
        opening = c == "{" or c == "["
        descend = opening and depth < c_from
        if not descend:
            try:
                value, pos = scan(text, pos)
            except StopIteration as stop:
                # A value missing here: the standard library's reader of the container says how it
                # reads that (a trailing comma has a message of its own in newer Pythons); missing
                # deeper in what the scanner read: its position, as json.loads reports it.
                if levels and stop.value == pos:
                    raise _explain(text, levels[-1]) from None
                raise JSONDecodeError("Expecting value", text, stop.value) from None
            except RecursionError:
                descend, c_from = True, depth + _WINDOW
            except (JSONDecodeError, _NonStandardConstant):
                raise
            except (ValueError, ArithmeticError):
                if not opening:
                    value, pos = _number(text, pos, levels, where)
                descend = opening
        if descend:
            step = None
            if levels:
                top = levels[-1]
                step = top.key if top.is_object else len(top.container)
            level = _Level(c == "{", start, step, c_from)
            pos = ws(text, pos + 1).end()
            if text[pos : pos + 1] == ("}" if level.is_object else "]"):
                value, pos = level.container, pos + 1
            else:
                levels.append(level)
                if level.is_object:
                    pos = _read_key(text, pos, level)
                continue
        # -- attach it, closing the containers it ends ---------------------------------------
        while True:
            if not levels:
                return value, pos
            top = levels[-1]
            top.spans.append((start, pos))
            if top.is_object:
                if top.key in top.container:
                    raise _KeyRepeated(text, top.key_at, (*where, *_path(levels)))
                top.container[top.key] = value
            else:
                top.container.append(value)
            pos = ws(text, pos).end()
            c = text[pos : pos + 1]
            if c == ",":
                pos = ws(text, pos + 1).end()
                if top.is_object:
                    pos = _read_key(text, pos, top)
                break
            if c != ("}" if top.is_object else "]"):
                raise _explain(text, top)
            levels.pop()
            value, start, pos = top.container, top.start, pos + 1


def _read_key(text: str, pos: int, level: _Level) -> int:
    """Read ``"key":`` at ``pos`` into ``level``; the position of the value after it."""
    if text[pos : pos + 1] != '"':
        raise _explain(text, level)
    key, end = json.decoder.scanstring(text, pos + 1, True)  # type: ignore[attr-defined]
    end = _skip_ws(text, end).end()
    if text[end : end + 1] != ":":
        raise _explain(text, level)
    level.key = key
    level.key_at = pos
    return int(_skip_ws(text, end + 1).end())
