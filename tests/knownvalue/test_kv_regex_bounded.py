"""A user's regular expression searched in bounded time: Go's RE2 runs in linear time, Python's re backtracks.

A pattern such as ``(a|aa)+$`` on a long value never ended with ``re``: a CI gate given a checks file with it hung.
With the ``regex`` extra (in the test extra too) every search of a user's pattern runs on the ``regex`` library in its
version 0 (``re``'s syntax and meaning) under a time limit, and a search past it raises
:class:`~plancheck.RegexTimeoutError` naming the check, never the text. Ordinary patterns match exactly as ``re``
matches them: the parity table below holds both engines to it. Without the extra ``re`` runs as before.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from plancheck import ExpectKnownValue, Plan, RegexTimeoutError, State, assert_plan
from plancheck import knownvalue as kv
from plancheck._checking import matcher
from plancheck.acceptance import TestMatchOutput
from plancheck.querycheck import ExpectTotalLengthForMatching, QueryOutput
from tfjsonpath import New

pytest.importorskip("regex", reason="the regex extra is not installed")

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from clirun import HERMETIC, cli  # noqa: E402

#: Backtracks without end under re (2**40 ways to split the a's before the b fails them all).
CATASTROPHIC = r"(a|aa)+$"
LONG = "a" * 40 + "b"


@pytest.fixture
def short_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A limit of a fifth of a second: the search of CATASTROPHIC would outlive any limit, so it only shortens the wait."""
    monkeypatch.setattr(matcher, "REGEX_SECONDS", 0.2)


# -- ordinary patterns: the same answer as re ---------------------------------------------------------------------

PARITY = [
    pytest.param(r"^ami-[0-9a-f]+$", 0, ["ami-0abc", "ami-0abc\n", "i-1", "AMI-0ABC"], id="anchored"),
    pytest.param(r"^ami-", re.IGNORECASE, ["AMI-1", "ami-1", "xami-"], id="ignorecase"),
    pytest.param(r"^b$", re.MULTILINE, ["a\nb\nc", "ab"], id="multiline"),
    pytest.param(r"a.b", re.DOTALL, ["a\nb", "ab"], id="dotall"),
    pytest.param(r"\w+\Z", 0, ["naïve", "日本", "a b "], id="unicode-word"),
    pytest.param(r"\w+\Z", re.ASCII, ["naïve", "abc"], id="ascii-word"),
    pytest.param(r" a  # the letter\n b", re.VERBOSE, ["ab", "a b"], id="verbose"),
    pytest.param(r"(?P<x>ab)(?P=x)", 0, ["abab", "abba"], id="backreference"),
    pytest.param(r"foo(?=bar)", 0, ["foobar", "foobaz"], id="lookahead"),
    pytest.param(r"(?<!x)y", 0, ["xy", "zy"], id="lookbehind"),
    pytest.param(r"\d{2,}", 0, ["1", "12", "١٢"], id="unicode-digits"),
    pytest.param(r"(?i)straße", 0, ["STRASSE", "Straße"], id="inline-flag"),
    pytest.param(r"", 0, ["", "x"], id="empty"),
]


@pytest.mark.parametrize(("pattern", "flags", "texts"), PARITY)
def test_an_ordinary_pattern_matches_as_re_matches_it(pattern: str, flags: int, texts: list[str]) -> None:
    compiled = re.compile(pattern, flags)
    assert matcher._bounded(compiled.pattern, compiled.flags) is not None  # searched by the regex library
    for text in texts:
        assert matcher.search_pattern(compiled, text, "T") is (compiled.search(text) is not None), text


# What the regex library reads otherwise than re, even in its version 0: searched by re, unbounded, as before.
READ_OTHERWISE = [
    pytest.param(r"[[:alpha:]]", ["a", "a]", "[:"], id="posix-class-a-set-in-re"),
    pytest.param(r"[[=a=]]", ["a", "=]"], id="collating-element"),
    pytest.param(r"(ab){e<=1}", ["ab", "ab{e<=1}", "xb"], id="fuzzy-constraint-literal-in-re"),
    pytest.param(r"\{name\}", ["{name}"], id="escaped-braces-with-letters"),
]


@pytest.mark.filterwarnings("ignore:Possible nested set:FutureWarning")
@pytest.mark.parametrize(("pattern", "texts"), READ_OTHERWISE)
def test_a_pattern_the_regex_library_reads_otherwise_is_searched_by_re(pattern: str, texts: list[str]) -> None:
    compiled = re.compile(pattern)
    assert matcher._bounded(compiled.pattern, compiled.flags) is None
    for text in texts:
        assert matcher.search_pattern(compiled, text, "T") is (compiled.search(text) is not None), text


def test_without_the_extra_re_runs_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "regex", None)  # import regex raises ImportError
    matcher._bounded.cache_clear()
    try:
        assert matcher._bounded("^a", 0) is None
        assert matcher.search_pattern(re.compile("^a"), "ab", "T") is True
    finally:
        matcher._bounded.cache_clear()


# -- a pattern that backtracks without end: a typed error naming the check, not a hang -------------------------------

PLAN = Plan.from_dict({"format_version": "1.2", "resource_changes": [{
    "address": "t.a", "mode": "managed", "type": "t", "name": "a",
    "change": {"actions": ["create"], "before": None, "after": {"name": LONG, "pw": LONG}, "after_unknown": {},
               "after_sensitive": {"pw": True}}}]})


# A sensitive value's length is not named (found red-teaming #34: a password's length tells something of it).
@pytest.mark.parametrize(("plan", "where", "length", "shown"), [
    pytest.param(PLAN, "name", len(LONG), "a text of 41 characters", id="plain-value"),
    pytest.param(PLAN, "pw", None, "a sensitive text", id="secret-value"),
])
def test_string_regexp_past_the_limit_raises_naming_the_check(short_limit: None, plan: Plan, where: str,
                                                              length: int | None, shown: str) -> None:
    with pytest.raises(RegexTimeoutError) as caught:
        assert_plan(plan, ExpectKnownValue("t.a", New(where), kv.StringRegexp(CATASTROPHIC)))
    error = caught.value
    assert isinstance(error, TimeoutError)
    assert (error.owner, error.seconds, error.length) == ("StringRegexp", 0.2, length)
    assert f"after 0.2 s ({shown}): it backtracks" in str(error)
    assert LONG not in str(error)


CHECKS = f"""
[[check]]
type = "ExpectKnownValue"
address = "t.a"
path = "name"
matcher = {{ type = "StringRegexp", pattern = '{CATASTROPHIC}' }}
"""


def test_a_gate_given_such_a_checks_file_ends_with_the_check_in_error(short_limit: None, tmp_path: Path) -> None:
    (tmp_path / "plan.json").write_text(json.dumps(PLAN.raw), "utf-8")
    (tmp_path / "checks.toml").write_text(CHECKS, "utf-8")
    code, out, err = cli(str(tmp_path / "plan.json"), "-c", str(tmp_path / "checks.toml"), environ=HERMETIC,
                         never=(LONG,))
    assert code == 2
    assert ("ExpectKnownValue: t.a: name: StringRegexp: the regular expression was still searching after 0.2 s "
            "(a text of 41 characters)") in out
    assert "Traceback" not in out + err


def test_the_query_and_legacy_checks_are_bounded_too(short_limit: None) -> None:
    output = QueryOutput.from_messages([
        {"type": "list_complete", "list_complete": {"address": f"list.t.{LONG}", "resource_type": "t", "total": 1}}])
    with pytest.raises(RegexTimeoutError) as caught:
        ExpectTotalLengthForMatching(CATASTROPHIC, 1).CheckQuery(output)
    assert caught.value.owner == "ExpectTotalLengthForMatching"
    state = State.from_dict({"format_version": "1.0", "values": {"outputs": {"o": {"value": LONG}}, "root_module": {}}})
    with pytest.raises(RegexTimeoutError) as caught:
        TestMatchOutput("o", CATASTROPHIC)(state)
    assert (caught.value.owner, caught.value.length) == ("Output 'o'", len(LONG))
    secret = State.from_dict({"format_version": "1.0", "values": {"outputs": {"o": {"value": LONG, "sensitive": True}},
                                                                   "root_module": {}}})
    with pytest.raises(RegexTimeoutError) as caught:
        TestMatchOutput("o", CATASTROPHIC)(secret)
    assert (caught.value.owner, caught.value.length) == ("Output 'o'", None)


# Where the regex library's version 0 reads a pattern otherwise than re (found red-teaming #34's bounded search): its
# \w, \s, \d (and so \b, \B) follow a newer Unicode than re's str methods, its case folding keeps Turkish dotless i
# apart, and its \B matches an empty text. A check's verdict must not depend on whether the extra is installed:
# such a search goes to re, as before the extra.
DISAGREE = [
    pytest.param(r"^\w+$", 0, "e\u0301", id="word-combining-mark"),
    pytest.param(r"^\w+$", 0, "x\u00b2", id="word-superscript-digit"),
    pytest.param(r"[\w-]", 0, "\u0301", id="word-in-a-set"),
    pytest.param(r"a\b", 0, "a\u0301", id="boundary-before-a-mark"),
    pytest.param(r"\W", 0, "\u00b2", id="non-word"),
    pytest.param(r"\s", 0, "\x1c", id="space-file-separator"),
    pytest.param(r"^\S+$", 0, "a\x1fb", id="non-space-unit-separator"),
    pytest.param(r"\d", 0, "\U00010d40", id="digit-newer-unicode"),
    pytest.param(r"\B", 0, "", id="non-boundary-empty-text"),
    pytest.param(r"^x*\B$", 0, "", id="non-boundary-after-empty-match"),
    pytest.param(r"(?i)[h-j]", 0, "\u0131", id="ignorecase-dotless-i-in-text"),
    pytest.param(r"ı", re.IGNORECASE, "i", id="ignorecase-dotless-i-in-pattern"),
    pytest.param(r"a(?i:\u0131)", 0, "ai", id="scoped-ignorecase"),
    pytest.param(r"(?i)\w", 0, "\u0345", id="ignorecase-word"),
]


@pytest.mark.parametrize(("pattern", "flags", "text"), DISAGREE)
def test_where_the_engines_disagree_re_answers(pattern: str, flags: int, text: str) -> None:
    compiled = re.compile(pattern, flags)
    assert matcher.search_pattern(compiled, text, "T") is (compiled.search(text) is not None)


# The same patterns on plain text (ASCII, none of the separators \x1c-\x1f) are bounded: the engines agree there.
PLAIN = [
    pytest.param(r"^(\w+\s?)+$", 0, "ab cd", id="word"),
    pytest.param(r"^(\w+\s?)+$", re.IGNORECASE, "Ab cd", id="word-ignorecase"),
    pytest.param(r"\bi\b", re.IGNORECASE, "x I y", id="ignorecase-i"),
]


@pytest.mark.parametrize(("pattern", "flags", "text"), PLAIN)
def test_on_plain_text_the_search_stays_bounded(short_limit: None, pattern: str, flags: int, text: str) -> None:
    compiled = re.compile(pattern, flags)
    assert matcher.search_pattern(compiled, text, "T") is (compiled.search(text) is not None)
    with pytest.raises(RegexTimeoutError):
        matcher.search_pattern(re.compile(CATASTROPHIC, flags), LONG, "T")


def test_each_code_point_is_read_as_re_reads_it() -> None:
    # Each class escape and a case-insensitive letter, against the first 2048 code points (Latin, the combining marks,
    # Greek, Cyrillic) and a few further ones the engines read otherwise: the verdict is re's.
    texts = [chr(i) for i in range(0x800)] + ["\u1e9e", "\u212a", "\u2028", "\u3000", "\U00010d40", "\U0001d7ce"]
    for pattern in (r"\w", r"\s", r"\d", r"\b", r"(?i)i", r"(?i)[^i]", r"(?i)[^\x00-\x7f]"):
        compiled = re.compile(pattern)
        wrong = [t for t in texts if matcher.search_pattern(compiled, t, "T") is not (compiled.search(t) is not None)]
        assert wrong == [], (pattern, [hex(ord(t)) for t in wrong[:5]])
