"""Text shared by the whole library: quoting a string, suggesting the closest names, naming an exception
that user code raised, matching globs, and where a text may hold a cut value or a whole token, the
windows (runs of characters) of texts and the spans a cover holds, that finding a secret's pieces in a text asks about,
and every text a number can be shown as, that a secret number is scrubbed in; and the few tokens of Terraform's native
syntax (HCL) that reading a module's files for their secrets needs.

Below every layer that writes messages or matches names (documents, matchers, checks, mock
providers, the CLI), so each uses the one copy.
"""

from __future__ import annotations

import difflib
import enum
import functools
import heapq
import json
import os
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from decimal import Context, Decimal
from itertools import accumulate
from typing import Any, Final

from tfjsonpath._jsontypes import Cycle, number_text

__all__ = [
    "HCL_ESCAPES",
    "HCL_TOKEN",
    "Glob",
    "Program",
    "Step",
    "at_cut",
    "bounded_by_spans",
    "closest",
    "compile_glob",
    "config_parts",
    "cycle_text",
    "encoded_spellings",
    "escape_data",
    "escape_markdown",
    "escape_property",
    "exception_message",
    "exception_text",
    "flagged_sensitive",
    "hcl_nested_assignments",
    "hcl_spans",
    "hcl_tokens",
    "heredoc_body",
    "lone_surrogate_at",
    "number_spellings",
    "one_line",
    "outside_cover",
    "quote",
    "reserved_name",
    "safe_repr",
    "sharing_a_window",
    "shortened",
    "spellings",
    "template_literals",
    "style_mark",
    "terminal_safe",
    "variable_name",
    "whole_token",
    "windows_of",
]

#: Among more candidates than this, difflib compares only those sharing the longest start and end.
_CLOSEST_SHORTLIST: Final = 300


def quote(text: str) -> str:
    """A string as a JSON literal (non-ASCII kept).

    >>> print(quote('say "hi"'))
    "say \\"hi\\""
    """
    return json.dumps(text, ensure_ascii=False)


#: The longest piece of input a message echoes whole (:func:`shortened`): longer than the addresses and keys of real
#: configurations, short enough that a message quoting an attack's 100,000 characters stays a line.
MAX_ECHOED: Final = 200


def lone_surrogate_at(text: str) -> int | None:
    """Where ``text``'s first lone surrogate stands (the one character no UTF-8 file can hold), None when it has
    none: what a front end asks of a text it will write as a Terraform file or pass as an argument.

    >>> lone_surrogate_at("caf\\u00e9"), lone_surrogate_at("ab\\ud800c")
    (None, 2)
    """
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start
    return None


def shortened(text: str, limit: int = MAX_ECHOED) -> str:
    """``text`` as a message echoes input: whole up to ``limit`` characters, else its start, its end and its length.

    What a user passed in (a key, a name, a pattern) may be any length; a message that quotes it
    whole becomes as long, once per time it quotes it. The ends are kept because they tell one
    input from another (a prefix and the name after it).

    >>> shortened("cloud_bucket.x")
    'cloud_bucket.x'
    >>> shortened("cloud_bucket." + "x" * 100_000 + "!", limit=40)
    'cloud_bucket.xxxxxxxxxxx…xxxxxxxxxxx! (100014 characters)'
    """
    if len(text) <= limit:
        return text
    head, tail = limit * 3 // 5, limit * 3 // 10
    return f"{text[:head]}…{text[-tail:]} ({len(text)} characters)"


def safe_repr(value: object) -> str:
    """``repr(value)``, or a placeholder naming why it cannot be shown: what a repr of a repr shows never raises.

    >>> class Broken:
    ...     def __repr__(self) -> str:
    ...         raise ValueError("no")
    >>> safe_repr(["a"]), safe_repr(Broken())
    ("['a']", '<not shown: its repr raised ValueError>')
    """
    try:
        return repr(value)
    except RecursionError:
        return "<not shown: nested too deep to show>"
    except Exception as exc:
        return f"<not shown: its repr raised {type(exc).__name__}>"


#: What :func:`style_mark` starts a mark with: a NUL and random hex, new in every process, so that no text read
#: from a plan, a checks file or a snapshot can spell a mark (its NUL would be shown escaped, not turned into style).
_STYLE_MARK: Final = "\x00" + os.urandom(12).hex() + "["
_STYLE_MARKS: Final = re.compile(re.escape(_STYLE_MARK) + r"([0-9]{1,3})m")
#: C0 controls but newline and tab (the line structure of our own output) and DEL: what can move the cursor,
#: erase or restyle a terminal's line. Past ASCII, :func:`_unsafe` adds what this Python's Unicode data says.
_UNSAFE_ASCII: Final = re.compile("[\x00-\x08\x0b-\x1f\x7f]")
#: The categories of characters that show nothing or move text: controls (C1 among them), format characters
#: (the bidi controls, the zero-width space, joiners and word joiner, the BOM, the soft hyphen, tag characters),
#: surrogates (no encoding can write one alone), and the line and paragraph separators.
_HIDDEN_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
#: The default-ignorable code points (Unicode's DerivedCoreProperties): shown as nothing, although some are letters
#: or marks Python counts printable (the Hangul fillers U+115F, U+1160, U+3164, U+FFA0; the variation selectors).
_INVISIBLE_BMP: Final = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164"
    "\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
)
#: The noncharacters of the BMP: no text holds them, and XML 1.0 has no U+FFFE nor U+FFFF, so a JUnit report
#: holding one (a for_each key spelling it) would not parse at all.
_NONCHARACTERS_BMP: Final = "\ufdd0-\ufdef\ufffe\uffff"
_INVISIBLE: Final = re.compile(f"[{_INVISIBLE_BMP}\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]")
#: Any character past U+FFFF: looked at one by one (a class holding such ranges is matched a range at a time).
_ASTRAL: Final = re.compile("[\U00010000-\U0010ffff]")


def _hidden(char: str) -> bool:
    return unicodedata.category(char) in _HIDDEN_CATEGORIES or _INVISIBLE.match(char) is not None


@functools.cache
def _unsafe() -> re.Pattern[str]:
    """What :func:`terminal_safe` escapes in the BMP.

    Made on first use from this Python's Unicode data (a scan of the BMP's categories, some 20 ms, paid
    only by a process that shows text past ASCII), so no table of categories here goes stale; a
    character past U+FFFF (emoji, tag characters) is rare, and looked at one by one.
    """
    category = unicodedata.category
    ranges: list[list[int]] = []
    for code in range(0x80, 0x10000):
        if category(chr(code)) in _HIDDEN_CATEGORIES:
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1][1] = code
            else:
                ranges.append([code, code])
    found = "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges)
    # One class of the BMP only: the regex engine then skips from one candidate to the next at C speed.
    return re.compile(f"[\x00-\x08\x0b-\x1f\x7f{found}{_INVISIBLE_BMP}{_NONCHARACTERS_BMP}]")


def _escape(char: str) -> str:
    # \uXXXX past ASCII's controls: inside a JSON string it is a valid escape of the same character, so a JSON
    # document written to the same stream stays the same JSON (json.dumps already escapes C0 itself); past
    # U+FFFF, the surrogate pair JSON writes (\udb40\udc41), which reads back as the one character.
    code = ord(char)
    if code < 0x20:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _escaped_match(match: re.Match[str]) -> str:
    return _escape(match.group())


def _escaped_astral(match: re.Match[str]) -> str:
    found = match.group()
    return _escape(found) if _hidden(found) else found  # an emoji is kept, a tag character escaped


def _escaped(text: str) -> str:
    """``text`` with every character that shows nothing or moves text escaped (see :func:`terminal_safe`)."""
    if text.isascii():
        return _UNSAFE_ASCII.sub(_escaped_match, text)
    text = _unsafe().sub(_escaped_match, text)
    return _ASTRAL.sub(_escaped_astral, text) if _ASTRAL.search(text) else text


def one_line(text: str, scrub: Callable[[str], str] | None = None) -> str:
    """``text`` as :func:`terminal_safe` shows it, a newline too: what a one-line message says of data from outside.

    The stream keeps newlines (they are our own line structure), so a newline in an address or a message would
    start a line the data wrote, such as a forged ``PASS``: what puts data on a line of ours escapes it first.
    Given ``scrub`` (a plan's ``secrets.scrub``), the text is scrubbed before it is escaped: escaping changes how
    a secret holding a control character is spelled, so a scrub after it could miss the secret.

    >>> one_line('null_resource.a["x\\nPASS"]')
    'null_resource.a["x\\\\nPASS"]'
    >>> one_line("pw=hunter2\\n", lambda text: text.replace("hunter2\\n", "(sensitive)"))
    'pw=(sensitive)'
    """
    if scrub is not None:
        text = scrub(text)
    return _escaped(text).replace("\n", "\\n")


# -- outside data in a CI report: GitHub's workflow commands and Markdown ------------------------


def escape_data(text: str) -> str:
    """A workflow command's message escaped as GitHub's toolkit does (``%``, ``\\r``, ``\\n``).

    >>> escape_data("50% done\\nnext")
    '50%25 done%0Anext'
    """
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value escaped as GitHub's toolkit does (also ``:`` and ``,``).

    >>> escape_property("ExpectKnownValue: a, b")
    'ExpectKnownValue%3A a%2C b'
    """
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


#: What Markdown (CommonMark, GitHub's) reads as markup or HTML: shown with a backslash, so data stays text.
_MARKDOWN_SPECIAL: Final = frozenset("\\`*_[]<>|~&@#")


def escape_markdown(text: str) -> str:
    """``text`` shown literally in Markdown: its markup characters backslash-escaped (one line).

    >>> escape_markdown('triggers["a|b"] <script>')
    'triggers\\\\["a\\\\|b"\\\\] \\\\<script\\\\>'
    """
    return "".join("\\" + c if c in _MARKDOWN_SPECIAL else c for c in one_line(text))


def style_mark(code: int) -> str:
    """The mark of the terminal style ``code`` (SGR): :func:`terminal_safe` turns it, and only it, into ``ESC[codem``.

    >>> terminal_safe(style_mark(31) + "FAIL" + style_mark(0))
    '\\x1b[31mFAIL\\x1b[0m'
    """
    return f"{_STYLE_MARK}{code}m"


def terminal_safe(text: str) -> str:
    """``text`` safe to show on a terminal: what shows nothing or moves text escaped, style marks made styles.

    So a message cannot lie about what it names: two names that differ only by a character that
    shows nothing print differently, and nothing in a name can erase, restyle or reorder a line.
    Escaped (``\\xNN`` below U+0020, else ``\\uXXXX``, a surrogate pair past U+FFFF, as JSON writes it):

    * controls but newline and tab: C0, DEL, C1 (``\\x1b``, ``\\u0085``);
    * format characters (Cf): the bidi controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), the
      zero-width space, joiners and word joiner (U+200B-U+200D, U+2060), the BOM (U+FEFF), the soft hyphen,
      the tag characters;
    * surrogates, the line and paragraph separators (U+2028, U+2029);
    * the other default-ignorable code points, which show nothing although Python counts them printable
      (the Hangul fillers U+115F, U+1160, U+3164, U+FFA0, the variation selectors);
    * the noncharacters of the BMP (U+FDD0-U+FDEF, U+FFFE, U+FFFF: XML 1.0 has no U+FFFE nor U+FFFF).

    Visible text is kept, homoglyphs included: a Cyrillic ``а`` beside a Latin ``a`` is a letter of
    another script, legitimate in a name or a value, and escaping every script but Latin would make
    their messages unreadable; no-break and other spaces show as space and are kept too. The only
    escape sequences left are those :func:`style_mark` asked for, which text from outside cannot spell.

    >>> terminal_safe("null_resource.a\\x1b[2K\\rPASS \\u202egnp.x")
    'null_resource.a\\\\x1b[2K\\\\x0dPASS \\\\u202egnp.x'
    >>> terminal_safe("a\\tb\\nc\\x85")
    'a\\tb\\nc\\\\u0085'
    >>> print(terminal_safe('x["k\\u200b\\ufeff"] x["\\U000e0041"] ключ'))
    x["k\\u200b\\ufeff"] x["\\udb40\\udc41"] ключ
    """
    if _STYLE_MARK not in text:
        return _escaped(text)
    parts = _STYLE_MARKS.split(text)
    # split alternates text and captured codes: [text, code, text, code, ..., text].
    return "".join(_escaped(part) if i % 2 == 0 else f"\x1b[{part}m" for i, part in enumerate(parts))


def closest(target: str, candidates: Iterable[str], n: int = 3) -> list[str]:
    """The candidates most similar to ``target`` (difflib ratio at least 0.6), best first.

    Among many candidates, difflib's full comparison (seconds for 20,000 addresses) is
    kept for the few hundred sharing the longest start and end with ``target``.

    >>> closest("null_resource.b", ["null_resource.a", "aws_instance.x"])
    ['null_resource.a']
    >>> closest("regoin", ["region", "zone", "regions"], n=1)
    ['region']
    """
    pool = list(candidates)
    if len(pool) > _CLOSEST_SHORTLIST:
        reversed_target = target[::-1]

        def shared_ends(candidate: str) -> int:
            # Character by character is meant: addresses are not paths.
            start = os.path.commonprefix((target, candidate))  # noqa: RUF071
            end = os.path.commonprefix((reversed_target, candidate[::-1]))  # noqa: RUF071
            return len(start) + len(end)

        pool = heapq.nlargest(_CLOSEST_SHORTLIST, pool, key=shared_ends)
    return difflib.get_close_matches(target, pool, n=n, cutoff=0.6)


def exception_text(exc: BaseException) -> str:
    """``Type: message``, or ``Type`` alone when the message is empty or cannot be made; never raises.

    Every front end (pytest hooks and fixtures, sweepers, the command line, ``assert_*``) names a
    user's exception through this one function: an exception whose ``str()`` raises (or returns
    no str) is still reported, by its type's name, instead of ending the run with a second error.

    >>> exception_text(ValueError("bad region"))
    'ValueError: bad region'
    >>> exception_text(SystemExit(3))
    'SystemExit: 3'
    >>> class Odd(Exception):
    ...     def __str__(self):
    ...         raise RuntimeError("no text")
    >>> exception_text(Odd())
    'Odd'
    """
    try:
        name = str(type(exc).__name__)
    except Exception:  # a metaclass whose __name__ is not a str
        name = "exception"
    text = exception_message(exc)
    return f"{name}: {text}" if text else name


def exception_message(exc: BaseException) -> str:
    """``str(exc)``, or ``""`` when that raises or gives no str (see :func:`exception_text`); never raises.

    >>> exception_message(ValueError("bad region")), exception_message(ValueError())
    ('bad region', '')
    """
    try:
        text = str(exc)
    except KeyboardInterrupt:
        raise
    except BaseException:  # a __str__ may raise anything, SystemExit included
        return ""
    return text if isinstance(text, str) else ""


# -- globs --------------------------------------------------------------------------------------------


class Step(enum.Enum):
    """A glob program's steps besides literal text (see :func:`compile_glob`).

    >>> Step.STAR.value
    'any text'
    """

    ANY = "one character"
    STAR = "any text"
    #: One instance key: ``[0]`` or ``["k"]`` (a JSON string, escapes allowed).
    KEY = "one instance key"
    #: An instance key, or nothing.
    OPTIONAL_KEY = "an optional instance key"
    #: One unit of a quoted key: a character other than ``"`` and ``\``, or an escape pair.
    UNIT = "one unit of a quoted key"
    #: Any run of such units.
    UNITS = "any units of a quoted key"


#: A glob program: literal texts and steps, in order.
Program = Sequence["str | Step"]

# Automaton states: consume one character of a class, or branch without consuming, or accept.
_CHAR, _SPLIT, _MATCH = 0, 1, 2
# Character classes besides a single character.
_EVERY, _DIGIT, _PLAIN = "every", "digit", "plain"


class Glob:
    """A compiled glob: :meth:`matches` answers in time linear in the text, whatever the pattern.

    Built by :func:`compile_glob`. A program of literal text, ``ANY`` and ``STAR`` only (every type
    and provider glob, and address globs without brackets) is matched the classic way: the texts
    between stars are found left to right with ``str.find``, each at its earliest place, which is
    where a full match can put it. Any other program runs as an automaton over the set of states
    it can be in (Thompson's construction): one pass over the text, no backtracking.

    >>> glob = compile_glob(["aws_", Step.STAR], "aws_*")
    >>> glob.matches("aws_s3_bucket"), glob.matches("gcp_x"), glob
    (True, False, <Glob 'aws_*'>)
    """

    __slots__ = ("_automaton", "_keyed", "_segments", "text")

    def __init__(
        self, text: str, segments: list[str] | None, automaton: _Automaton | None, *, keyed: bool = False
    ) -> None:
        self.text = text
        self._segments = segments
        self._automaton = automaton
        #: The plain program ends in an optional instance key.
        self._keyed = keyed

    def __repr__(self) -> str:
        return f"<Glob {self.text!r}>"

    def matches(self, text: str) -> bool:
        """Whether the whole of ``text`` matches.

        >>> compile_glob([Step.STAR, "a", Step.STAR, "b"]).matches("xxaxxb")
        True
        """
        if self._segments is not None:
            if _segments_match(self._segments, text):
                return True
            if not self._keyed:
                return False
            # An address ends in at most one instance key: the text before it must match.
            key = _trailing_key(text)
            return key >= 0 and _segments_match(self._segments, text[:key])
        assert self._automaton is not None
        return self._automaton.run(text)


def compile_glob(program: Program, text: str = "") -> Glob:
    """Compile a glob ``program`` (literal texts and :class:`Step` values); ``text`` is the pattern as written.

    >>> compile_glob(["x.y", Step.OPTIONAL_KEY]).matches('x.y["k"]'), compile_glob(["x.y", Step.KEY]).matches("x.y")
    (True, False)
    """
    keyed = bool(program) and program[-1] is Step.OPTIONAL_KEY
    body = program[:-1] if keyed else program
    plain = all(item in (Step.ANY, Step.STAR) or (isinstance(item, str) and _WILD not in item) for item in body)
    if plain:
        return Glob(text, _segments(body), None, keyed=keyed)
    return Glob(text, None, _Automaton(program))


def _trailing_key(text: str) -> int:
    """Where the instance key ``text`` ends with starts (``[0]``, ``["k"]``), or -1; found in one backward pass.

    A key is unique: a longer one would hold the shorter one's opening quote unescaped.

    >>> _trailing_key('a.b["k"]'), _trailing_key("a.b[12]"), _trailing_key("a.b[]"), _trailing_key('a"]')
    (3, 3, -1, -1)
    """
    if not text.endswith("]"):
        return -1
    end = len(text) - 1
    if not text.endswith('"]'):
        start = text.rfind("[", 0, end)
        digits = text[start + 1 : end]
        return start if start >= 0 and digits and all("0" <= c <= "9" for c in digits) else -1
    close = end - 1
    if _backslashes_before(text, close) % 2:
        return -1  # the closing quote is escaped
    i = close - 1
    while i >= 1:
        i = text.rfind('"', 0, i + 1)
        if i < 1:
            return -1
        if _backslashes_before(text, i) % 2 == 0:
            return i - 1 if text[i - 1] == "[" else -1
        i -= 1
    return -1


def _backslashes_before(text: str, at: int) -> int:
    count = 0
    while at - count - 1 >= 0 and text[at - count - 1] == "\\":
        count += 1
    return count


#: What ``?`` is in a segment of a plain program (a literal NUL sends the program to the automaton).
_WILD: Final = "\x00"


def _segments(program: Program) -> list[str]:
    """The texts between the stars of a plain program, ``?`` written as :data:`_WILD`."""
    segments = [""]
    for item in program:
        if item is Step.STAR:
            segments.append("")
        elif item is Step.ANY:
            segments[-1] += _WILD
        else:
            assert isinstance(item, str)
            segments[-1] += item
    return segments


def _fits(segment: str, text: str, at: int) -> bool:
    if _WILD not in segment:
        return text.startswith(segment, at)
    return len(text) - at >= len(segment) and all(p in (_WILD, text[at + i]) for i, p in enumerate(segment))


def _find(segment: str, text: str, start: int, end: int) -> int:
    """The first offset from ``start`` where ``segment`` fits before ``end``, or -1."""
    if _WILD not in segment:
        return text.find(segment, start, end)
    # Find the longest literal piece with str.find, then check the rest around it.
    pieces = segment.split(_WILD)
    longest = max(range(len(pieces)), key=lambda i: len(pieces[i]))
    offset = sum(len(piece) + 1 for piece in pieces[:longest])
    piece = pieces[longest]
    at = start
    while at + len(segment) <= end:
        if piece:
            hit = text.find(piece, at + offset, end - (len(segment) - offset - len(piece)))
            if hit < 0:
                return -1
            at = hit - offset
        if _fits(segment, text, at):
            return at
        at += 1
    return -1


def _segments_match(segments: list[str], text: str) -> bool:
    """The classic wildcard match, ``segments`` being the texts between the stars."""
    first, last = segments[0], segments[-1]
    if len(segments) == 1:
        return len(text) == len(first) and _fits(first, text, 0)
    end = len(text) - len(last)
    if end < len(first) or not _fits(first, text, 0) or not _fits(last, text, end):
        return False
    position = len(first)
    for segment in segments[1:-1]:
        at = _find(segment, text, position, end)
        if at < 0:
            return False
        position = at + len(segment)
    return True


class _Automaton:
    """A program as a nondeterministic automaton, run over the set of states it can be in."""

    __slots__ = ("_first", "_steps", "classes", "kind", "out1", "out2", "start")

    def __init__(self, program: Program) -> None:
        self.kind: list[int] = []
        self.classes: list[str] = []
        self.out1: list[int] = []
        self.out2: list[int] = []
        then = self._state(_MATCH)
        for item in reversed(program):
            if item is Step.ANY:
                then = self._char(_EVERY, then)
            elif item is Step.STAR:
                then = self._loop(lambda nxt: self._char(_EVERY, nxt), then)
            elif item is Step.KEY:
                then = self._key(then)
            elif item is Step.OPTIONAL_KEY:
                then = self._state(_SPLIT, out1=self._key(then), out2=then)
            elif item is Step.UNIT:
                then = self._unit(then)
            elif item is Step.UNITS:
                then = self._loop(self._unit, then)
            else:
                assert isinstance(item, str)
                for c in reversed(item):
                    then = self._char(c, then)
        self.start = then
        self._first = frozenset(self._closure([then]))
        #: The sets of states met so far, by (set, character): the automaton turned deterministic as it
        #: runs, so a character costs one lookup once its step has been taken (kept to a bounded size).
        self._steps: dict[tuple[frozenset[int], str], frozenset[int]] = {}

    def _state(self, kind: int, cls: str = "", out1: int = -1, out2: int = -1) -> int:
        self.kind.append(kind)
        self.classes.append(cls)
        self.out1.append(out1)
        self.out2.append(out2)
        return len(self.kind) - 1

    def _char(self, cls: str, then: int) -> int:
        return self._state(_CHAR, cls, then)

    def _loop(self, body: Callable[[int], int], then: int) -> int:
        """Any repetitions of ``body`` (built by ``body(next)``), then ``then``."""
        split = self._state(_SPLIT, out2=then)
        self.out1[split] = body(split)
        return split

    def _unit(self, then: int) -> int:
        escape = self._char("\\", self._char(_EVERY, then))
        return self._state(_SPLIT, out1=self._char(_PLAIN, then), out2=escape)

    def _key(self, then: int) -> int:
        close = self._char("]", then)
        digits = self._state(_SPLIT, out2=close)
        self.out1[digits] = self._char(_DIGIT, digits)
        quoted = self._char('"', self._loop(self._unit, self._char('"', close)))
        return self._char("[", self._state(_SPLIT, out1=self._char(_DIGIT, digits), out2=quoted))

    def _closure(self, states: Iterable[int]) -> list[int]:
        """The states reachable from ``states`` without consuming a character, each once."""
        kind, out1, out2 = self.kind, self.out1, self.out2
        seen: set[int] = set()
        found: list[int] = []
        stack = list(states)
        while stack:
            state = stack.pop()
            if state in seen:
                continue
            seen.add(state)
            if kind[state] == _SPLIT:
                stack.append(out2[state])
                stack.append(out1[state])
            else:
                found.append(state)
        return found

    def run(self, text: str) -> bool:
        kind, classes, out1, steps = self.kind, self.classes, self.out1, self._steps
        current = self._first
        for c in text:
            following = steps.get((current, c))
            if following is None:
                stepped = [out1[s] for s in current if kind[s] == _CHAR and _in_class(classes[s], c)]
                following = frozenset(self._closure(stepped))
                if len(steps) >= _MAX_STEPS:
                    steps.clear()
                steps[(current, c)] = following
            if not following:
                return False
            current = following
        return any(kind[state] == _MATCH for state in current)


#: How many steps an automaton remembers before it starts again (a bound on its memory, not on its time).
_MAX_STEPS: Final = 4096


def _in_class(cls: str, c: str) -> bool:
    if cls == _EVERY:
        return True
    if cls == _DIGIT:
        return "0" <= c <= "9"
    if cls == _PLAIN:
        return c != '"' and c != "\\"
    return c == cls


#: Characters next to which a cut fragment of a secret may stand: where a renderer stops or resumes a
#: value (quotes, whitespace and line ends, an ellipsis, an escaped line break).
_CUTS: Final = frozenset(" \t\r\n\"'`")
_ELLIPSES: Final = ("...", "…")
#: How far from a fragment an escape sequence (``\\u0026``, ``\\xc3``, ``\\\\``) may stand and still count as a cut.
_ESCAPE_REACH: Final = 6


def at_cut(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` stands where a renderer may have cut or interrupted a value.

    Next to a quote, whitespace, a line end or an ellipsis on either side; or with an escape
    sequence in or near it: a renderer that escapes a character of a secret in a way no spelling
    foresaw (Go's ``\\u0026``, a repr of JSON, the repr of UTF-8 bytes) splits the secret there.
    """
    return (
        start == 0
        or text[start - 1] in _CUTS
        or text.endswith(_ELLIPSES, 0, start)
        or end >= len(text)
        or text[end] in _CUTS
        or text.startswith(_ELLIPSES, end)
        or "\\" in text[max(0, start - _ESCAPE_REACH) : end + _ESCAPE_REACH]
    )


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


def whole_token(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` stands as a value or a whole token, not inside a longer word.

    Token characters are letters, digits and ``_``: a short secret ``tags`` stays in ``tags_null``,
    ``env`` in ``environment``. Everything else bounds a token, ``-`` and ``.`` included:

    * ``-`` joins values into new ones (``"${var.env}-db"``, ``pw-1234``, a ``for_each`` key made
      of a secret and a suffix), so a short secret next to a dash is still scrubbed; names that hold
      a dash (``tags-null``) are configuration, kept by being trusted
      (:meth:`plancheck.Secrets.trusting`), not by this rule;
    * ``.`` separates an address's parts and a flatmap key's steps, where a secret key stands alone.

    An edge of the span that is not a token character is a boundary itself; so is an escape
    sequence just before it (``\\nprod`` in a ``repr``: the ``n`` belongs to the escape).

    >>> [whole_token(t, 0, 4) for t in ("prod", "prod,x", "prod_x", "prod-x", "prod.x", "prodx")]
    [True, True, False, True, True, False]
    >>> whole_token('"prod"', 1, 5), whole_token("xprod", 1, 5), whole_token("\\\\nprod", 2, 6)
    (True, False, True)
    """
    return _left_bounded(text, start) and _right_bounded(text, end)


def _left_bounded(text: str, start: int) -> bool:
    if start == 0 or not _is_word(text[start]) or not _is_word(text[start - 1]):
        return True
    return "\\" in text[max(0, start - _ESCAPE_REACH) : start]


def _right_bounded(text: str, end: int) -> bool:
    return end >= len(text) or not _is_word(text[end - 1]) or not _is_word(text[end])


def bounded_by_spans(
    text: str, inside: list[tuple[int, int]], found: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """The short secrets of ``inside`` that stand as whole tokens once the spans of ``found`` are scrubbed.

    ``(sensitive)`` is bounded by parentheses: a short secret next to a scrubbed span stands alone
    after the scrub, so it is scrubbed too (and so on, along a chain of them).
    """
    # The characters scrubbed so far: a span is bounded on the left if the one before it is among them, on
    # the right if the one at its end is (asking every span scrubbed instead made a long message quadratic).
    scrubbed = {i for a, b in found for i in range(a, b)}
    added: list[tuple[int, int]] = []
    pending = inside
    while pending:
        left_out: list[tuple[int, int]] = []
        for s, e in pending:
            if (_left_bounded(text, s) or s - 1 in scrubbed) and (_right_bounded(text, e) or e in scrubbed):
                scrubbed.update(range(s, e))
                added.append((s, e))
            else:
                left_out.append((s, e))
        if len(left_out) == len(pending):
            break
        pending = left_out
    return added


def outside_cover(spans: list[tuple[int, int]], cover: list[tuple[int, int]], size: int) -> list[tuple[int, int]]:
    """``spans`` less the ones shorter than ``size`` that are a proper part of a span of ``cover`` (sorted here).

    The occurrences are sorted once and each span is looked up by bisection: asking every occurrence
    for every span made a message naming thousands of addresses (a warning over every resource of a
    large plan) spend most of its scrub here.

    >>> outside_cover([(2, 5), (20, 24), (21, 24), (8, 12), (30, 50)], [(20, 24), (0, 10), (30, 60)], 8)
    [(20, 24), (8, 12), (30, 50)]
    """
    cover.sort()
    starts = [start for start, _ in cover]
    reach = list(accumulate((end for _, end in cover), max))  # the furthest end of the occurrences up to each
    kept: list[tuple[int, int]] = []
    for s, e in spans:
        # Held properly: by an occurrence from at or before it that ends after it, or from before it that ends with it.
        up_to, before = bisect_right(starts, s), bisect_left(starts, s)
        if e - s >= size or not ((up_to and reach[up_to - 1] > e) or (before and reach[before - 1] >= e)):
            kept.append((s, e))
    return kept


def windows_of(texts: Iterable[str], size: int) -> frozenset[str]:
    """Every run of ``size`` characters of ``texts``.

    >>> sorted(windows_of(["hunter2-k", "ab"], 8))
    ['hunter2-', 'unter2-k']
    """
    found: set[str] = set()
    for text in texts:
        found.update(text[i : i + size] for i in range(len(text) - size + 1))
    return frozenset(found)


def sharing_a_window(texts: Iterable[str], text: str, size: int) -> list[str]:
    """The ``texts`` that may share a run of ``size`` (3 or more) characters with ``text``: every one that does,
    and few more, found without making their runs.

    A run ``t[j:j + size]`` that ``text`` holds holds the gram of ``size - 2`` characters of ``t`` that starts at
    the multiple of 3 in ``[j, j + 2]``: a text none of whose every-third grams ``text`` holds shares no run
    with it, and is passed over after a third of its grams are looked up.

    >>> sharing_a_window(["hunter2-key", "other-secret"], "pw: hunter2-k...", 8)
    ['hunter2-key']
    """
    gram = size - 2
    grams = {text[i : i + gram] for i in range(len(text) - gram + 1)}
    return [t for t in texts if any(t[j : j + gram] in grams for j in range(0, len(t) - gram + 1, 3))]


def number_spellings(value: int | float | Decimal) -> tuple[str, ...]:
    """Every text a number can be shown as: as JSON and Terraform print it, and as Python's ``str()``.

    Terraform prints a number in its shortest exact form (``1.10`` as ``1.1``, ``1e3`` as ``1000``);
    a JSON document, a variables file or a Python value may spell it otherwise (``1.10``, ``1E+3``,
    ``1000.0``), and a message may show any of them. An int too long for ``str()`` has one text.

    >>> number_spellings(Decimal("1.10")), number_spellings(Decimal("1E+3")), number_spellings(1e3)
    (('1.1', '1.10'), ('1000', '1E+3'), ('1000', '1000.0'))
    >>> number_spellings(12345), number_spellings(Decimal("NaN")), len(number_spellings(10**5000)[0])
    (('12345',), ('NaN',), 5001)
    """
    if isinstance(value, int):
        return (number_text(value),)  # an int (also a huge one) has one text; str() refuses over 4300 digits
    texts: set[str] = set()
    try:
        exact = value if isinstance(value, Decimal) else Decimal(repr(value))
        if exact.is_finite():
            texts.add(number_text(exact))
            # Terraform's (and Go's) shortest form: no trailing zeros, no exponent while short. Normalized
            # at the number's own precision: the default context would round a long one.
            digits = len(exact.as_tuple().digits)
            texts.add(number_text(exact.normalize(Context(prec=max(digits, 1)))))
    except ArithmeticError:
        pass  # a signalling NaN, an exponent too large to normalize: its own text below is all there is
    texts.add(repr(value) if isinstance(value, float) else str(value))
    return tuple(sorted(texts))


#: A string every renderer spells as it is (:func:`spellings`): printable ASCII with no quote, backslash, ``&``, ``<`` or ``>``.
_SPELLED_AS_IS: Final = re.compile(r"[ !#-%(-;=?-\[\]-~]*").fullmatch


def spellings(value: str) -> set[str]:
    """The ways a message can spell ``value``: as is, JSON-escaped, ``repr``-escaped (either quote) and HCL-quoted."""
    if _SPELLED_AS_IS(value) and "${" not in value and "%{" not in value:
        return {value}  # most secrets: one spelling, found without a dozen encoders run per secret
    return encoded_spellings(value)


def encoded_spellings(value: str) -> set[str]:
    """:func:`spellings` with every encoder run (the shortcut there gives the same set)."""
    as_json = {json.dumps(value, ensure_ascii=False)[1:-1], json.dumps(value)[1:-1]}
    forms = {value, repr(value)[1:-1], ascii(value)[1:-1], *as_json}
    # Go's encoder (Terraform's JSON output, jsonencode()) also escapes &, < and > as \u0026, \u003c, \u003e.
    forms.update(form.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e") for form in as_json)
    # Terraform quotes an instance key as HCL does (addrs.StringKey: 'fe["zz$${x}"]'): JSON's escapes and a template's
    # introducer doubled, so a short secret holding one, not found whole, showed in every address of its for_each.
    forms.update(form.replace("${", "$${").replace("%{", "%%{") for form in list(forms))
    # repr() picks its quote by the content; a repr nested in another quoting escapes the other one.
    for form in list(forms):
        forms.add(form.replace("'", "\\'"))
        forms.add(form.replace('"', '\\"'))
    return forms


#: An instance key of an address (``["..."]``, JSON-escaped inside, or ``[0]``).
_ANY_INSTANCE_KEY: Final = re.compile(r'\[(?:"(?:[^"\\]|\\.)*"|[^\]]*)\]')


def config_parts(address: str) -> list[str]:
    """The parts of ``address`` that come from the configuration's text: all but its instance keys.

    An instance key can hold a ``for_each`` secret; a module, type or resource name cannot.

    >>> config_parts('module.m["k"].aws_instance.web[0]'), config_parts("output.tags")
    (['module.m', 'aws_instance.web'], ['output.tags'])
    """
    if "[" not in address:
        return [address]  # most addresses: no instance key, no split
    return [part.strip(".") for part in _ANY_INSTANCE_KEY.split(address) if part.strip(".")]


#: The escapes of a quoted HCL string that stand for one character.
HCL_ESCAPES: Final = {'"': '"', "\\": "\\", "n": "\n", "r": "\r", "t": "\t"}
#: A token of Terraform's native syntax (HCL) as the mock-plan secret readers take it.
HCL_TOKEN: Final = re.compile(
    r"""
    \s+ | \#[^\n]* | //[^\n]* | /\*.*?(?:\*/|\Z)
    | (?P<heredoc> <<-? (?P<tag>[A-Za-z_][\w-]*) [ \t]* \r?\n )
    | (?P<quote> " )
    | (?P<word> [A-Za-z_][\w-]* )
    | (?P<op> ==|!=|<=|>=|=> )
    | (?P<punct> [][{}()=] )
    | (?P<other> . )
    """,
    re.VERBOSE | re.DOTALL,
)


def hcl_tokens(text: str) -> Iterator[tuple[str, str | None]]:
    """The tokens of a native syntax file that matter here: words, plain strings, brackets and ``=``.

    >>> list(hcl_tokens('a = <<EOT\\n}"\\nEOT\\n/* } */ b {"${c}"}'))  # doctest: +NORMALIZE_WHITESPACE
    [('word', 'a'), ('=', None), ('heredoc', None), ('word', 'b'), ('{', None), ('string', None), ('}', None)]
    """
    for kind, value, _ in hcl_spans(text):
        yield kind, value


def hcl_spans(text: str) -> Iterator[tuple[str, str | None, int]]:
    """:func:`hcl_tokens`, each with the offset where it starts.

    >>> list(hcl_spans('pw = "x"'))
    [('word', 'pw', 0), ('=', None, 3), ('string', 'x', 5)]
    """
    pos = 0
    while pos < len(text):
        match = HCL_TOKEN.match(text, pos)
        assert match is not None  # the last alternative takes any one character
        start, pos = pos, match.end()
        if match["quote"]:
            pos, literal = _hcl_string(text, pos)
            yield "string", literal, start
        elif match["heredoc"]:
            pos = heredoc_body(text, match)[1]
            yield "heredoc", None, start
        elif match["word"]:
            yield "word", match["word"], start
        elif match["punct"]:
            yield match["punct"], None, start
        elif match["op"] or match["other"]:
            yield "other", None, start


def hcl_nested_assignments(
    text: str, path: tuple[str, ...], names: frozenset[str]
) -> Iterator[tuple[list[tuple[str, str | None]], str, int]]:
    """(value tokens, value source, where it starts) of each ``NAME = VALUE`` of a native syntax file whose name is in ``names``,
    inside the blocks ``path`` names from the top level (``("terraform", "encryption")``: a ``terraform`` block's
    ``encryption`` blocks), however deep below them (a nested block's, an object's). A value ends where the next
    argument or block of its level starts, or its level closes.

    >>> [s for _, s, _ in hcl_nested_assignments('terraform {\\n encryption {\\n  key_provider "aws_kms" "k" {\\n'
    ...     '   secret_key = "abc"\\n   assume_role_with_web_identity = { web_identity_token = "tok" }\\n  }\\n }\\n}',
    ...     ("terraform", "encryption"), frozenset({"secret_key", "web_identity_token"}))]
    [' "abc"\\n   ', ' "tok" ']
    """
    depth = 0
    opened: list[str | None] = []  # the word before each open "{" (a block's type), None for any other bracket
    reading: dict[int, tuple[int, list[tuple[str, str | None]]]] = {}  # depth -> (value start, tokens) being read
    last: tuple[str, str | None, int] = ("", None, 0)
    inside = False  # within the blocks of path
    for kind, value, at in hcl_spans(text):
        starts = last[0] == "word" and kind in ("=", "{")
        if (starts or kind in ("}", "]", ")")) and depth in reading:
            start, tokens = reading.pop(depth)
            yield (tokens[:-1] if starts else tokens), text[start : last[2] if starts else at], start
        for _, tokens in reading.values():
            tokens.append((kind, value))
        if inside and starts and kind == "=" and last[1] in names:
            reading[depth] = (at + 1, [])
        if kind in ("{", "[", "("):
            opened.append(last[1] if last[0] == "word" and kind == "{" else None)
            depth += 1
        elif kind in ("}", "]", ")"):
            opened = opened[:-1]
            depth = max(depth - 1, 0)
        inside = tuple(opened[: len(path)]) == path
        last = (kind, value, at)
    yield from ((tokens, text[start:], start) for start, tokens in reading.values())


def heredoc_body(text: str, opening: re.Match[str]) -> tuple[str, int]:
    """(its body, its end) of the heredoc whose ``<<TAG`` line :data:`HCL_TOKEN` matched as ``opening``: it runs
    to the line holding its tag alone, or to the end of ``text``.

    >>> heredoc_body('x = <<EOT\\na\\n  EOT\\ny', HCL_TOKEN.match('x = <<EOT\\na\\n  EOT\\ny', 4))
    ('a\\n', 17)
    """
    end = re.compile(rf"^[ \t]*{re.escape(opening['tag'])}[ \t]*\r?$", re.MULTILINE).search(text, opening.end())
    return text[opening.end() : end.start() if end else len(text)], end.end() if end else len(text)


def _hcl_string(
    text: str, pos: int, *, quoted: bool = True, runs: list[str] | None = None
) -> tuple[int, str | None]:
    """Skip the quoted template whose opening quote ends at ``pos``: (its end, its value when it is a plain string).

    Not ``quoted``: ``text`` from ``pos`` on is a template with no quotes around it and no escapes (a heredoc's body,
    a ``.tf.json`` string as its JSON is read), which runs to the end. ``runs``, when given, gets each literal run of
    the template that is not empty (the text between its interpolations and directives, as Terraform writes it into
    the value).

    >>> _hcl_string('"../lib" }', 1), _hcl_string('"a${ {k = "}"}[0] }b" x', 1), _hcl_string('"$${x}"', 1)
    ((8, '../lib'), (21, None), (7, '${x}'))
    >>> runs = []
    >>> _hcl_string('"pw-${var.x}-${"z"}%{ if true }y%{ endif }" x', 1, runs=runs), runs
    ((43, None), ['pw-', '-', 'y'])
    """
    # -1: inside quotes; n >= 0: inside ${ } (or %{ }) with n braces open, where a quote opens a nested template.
    stack = [-1]
    value: list[str] = []
    nested: list[str] = []  # what a quoted string inside an interpolation holds: no part of the value
    literal = True
    run = 0  # where the literal run being read starts in value
    while stack and pos < len(text):
        char = text[pos]
        pos += 1
        own = len(stack) == 1  # the template's own level, not a string inside one of its interpolations
        into = value if own else nested
        if stack[-1] >= 0:
            if char == '"':
                stack.append(-1)
            elif char in "{}":
                stack[-1] += 1 if char == "{" else -1
                if stack[-1] < 0:
                    stack.pop()
                    run = len(value)
        elif not quoted and own and char in '"\n\\':
            value.append(char)  # an unquoted template's own level has no quotes nor escapes, and runs on
        elif char == '"':
            stack.pop()
        elif char == "\n":
            break  # a quoted string ends on its line; Terraform reports the missing quote
        elif char == "\\":
            escaped = HCL_ESCAPES.get(text[pos : pos + 1])
            literal = literal and escaped is not None
            into.append(escaped or "")
            pos += 1
        elif char in "$%" and text.startswith(char + "{", pos):  # $${ and %%{ are a literal ${ and %{
            into.append(char + "{")
            pos += 2
        elif char in "$%" and text.startswith("{", pos):
            if runs is not None and own and run < len(value):
                runs.append("".join(value[run:]))
            literal = False
            stack.append(0)
            pos += 1
        else:
            into.append(char)
    if runs is not None and run < len(value):
        runs.append("".join(value[run:]))
    return pos, "".join(value) if literal and not stack else None


def template_literals(text: str, pos: int = 0, *, quoted: bool = False) -> list[str]:
    """The literal runs of the template in ``text`` from ``pos`` on, which is not a plain string: what its value holds
    whatever its interpolations give. ``quoted``: a quoted template whose opening quote ends at ``pos`` (as
    :func:`_hcl_string` reads one); else one with no quotes around it (a ``.tf.json`` string, a heredoc's body).

    >>> template_literals("hunter2-${var.x}"), template_literals('${upper("s")}'), template_literals("a$${b}-${c}-")
    (['hunter2-'], [], ['a${b}-', '-'])
    >>> template_literals('pw = "s3cret-${var.x}" # "no"', 6, quoted=True)
    ['s3cret-']
    """
    runs: list[str] = []
    _hcl_string(text, pos, quoted=quoted, runs=runs)
    return runs


#: What a ``sensitive`` argument's source text says when it is plainly false: the literal, parenthesised or not, and
#: comments after it (a line comment ends on its line: what follows it is more of the expression).
_PLAINLY_FALSE: Final = re.compile(r"\(*\s*false\s*\)*(?:\s*(?:(?:#|//)[^\n]*|/\*.*?\*/))*", re.DOTALL)


def flagged_sensitive(flag: str) -> bool:
    """Whether a variable whose ``sensitive`` argument is written ``flag`` (its source text after the ``=``) is
    sensitive: unless the flag is plainly false. A value scrubbed needlessly costs a word of a message, one shown
    costs the secret: so ``true # why``, ``(true)`` and any expression (``false || true``) are sensitive.
    mock-plan's scrubbing and the coverage report's withheld defaults both read a ``.tf`` file's flag by it.

    >>> [flagged_sensitive(f) for f in (" false # why\\n", "(false)", "true", "(true)", "false || true")]
    [False, False, True, True, True]
    >>> flagged_sensitive("(false # why\\n || true)"), flagged_sensitive("false /* unterminated")
    (True, True)
    """
    return _PLAINLY_FALSE.fullmatch(flag.strip()) is None


def cycle_text(cycle: Cycle) -> str:
    """Where a value met inside itself is, and where it goes back to, as paths' texts.

    >>> from tfjsonpath._jsontypes import find_cycle
    >>> looped = {"tags": {"a": []}}
    >>> looped["tags"]["a"].append(looped["tags"])
    >>> print(cycle_text(find_cycle(looped)))
    the value at tags["a"][0] contains itself (a cycle back to tags)
    """

    # Imported only for a refusal: most users of this module need no path.
    from tfjsonpath import MapStep, Path, SliceStep

    def shown(keys: tuple[Any, ...]) -> str:
        steps = [MapStep(k) if isinstance(k, str) else SliceStep(k) for k in keys]
        return Path(*steps).to_text() or "the root"

    return f"the value at {shown(cycle.at)} contains itself (a cycle back to {shown(cycle.back)})"


#: The names no module may give a variable, the root module too (Terraform 1.0 to 1.11, decodeVariableBlock):
#: a module call's own arguments and block types.
_RESERVED_NAMES: Final = frozenset(
    ("source", "version", "count", "for_each", "depends_on", "providers", "_", "lifecycle", "locals", "provider")
)


def variable_name(name: object) -> bool:
    """Whether Terraform takes ``name`` as a variable's, in any module: HCL's identifier
    (``hclsyntax.ValidIdentifier``, ``(ID_Start | "_") (ID_Continue | "-")*``, Python's identifier with dashes
    after the first character) that no module call reserves (:func:`reserved_name` says why).

    >>> [variable_name(n) for n in ("my-var", "_-x", "größe", "x·y")]
    [True, True, True, True]
    >>> [variable_name(n) for n in ("1x", "-x", "a.b", "a b", "", "count", 2)]
    [False, False, False, False, False, False, False]
    """
    if not isinstance(name, str) or name.startswith("-") or name in _RESERVED_NAMES:
        return False
    return name.replace("-", "_").isidentifier()


def reserved_name(name: object) -> str | None:
    """Why no module can declare a variable ``name`` Terraform reserves (a module call's argument), or None.

    >>> reserved_name("count"), reserved_name("counts")
    ('is reserved: Terraform gives it a meaning inside module blocks, so no module declares it', None)
    """
    if name not in _RESERVED_NAMES:
        return None
    return "is reserved: Terraform gives it a meaning inside module blocks, so no module declares it"
