"""Text forms: Go's dotted str(), the escaped to_text() form, and Path.parse with its errors."""

from __future__ import annotations

import json
import pickle

import pytest

from tfjsonpath import MapStep, New, Path, PathSyntaxError, SliceStep, TfJsonPathError

# -- Go's String(), from TestPath_String in path_test.go ----------------------------------------

GO_STRING = [
    pytest.param(New(1), "1", id="TestPath_String/slice_step"),
    pytest.param(New("attr"), "attr", id="TestPath_String/map_step"),
    pytest.param(New(0).AtMapKey("attr"), "0.attr", id="TestPath_String/slice_step_map_step"),
    pytest.param(New("attr").AtSliceIndex(0), "attr.0", id="TestPath_String/map_step_slice_step"),
    # Ours: Go's form is kept unchanged, ambiguities included.
    pytest.param(Path(), "", id="root"),
    pytest.param(New("a.b"), "a.b", id="dotted-key-is-not-escaped"),
    pytest.param(New("a").AtMapKey("0"), "a.0", id="digit-key-looks-like-index"),
    pytest.param(New("").AtMapKey(""), ".", id="empty-keys"),
]


@pytest.mark.parametrize(("path", "expected"), GO_STRING)
def test_str_is_gos_string(path: Path, expected: str) -> None:
    assert str(path) == expected
    assert f"{path}" == expected


def test_str_is_ambiguous_but_to_text_is_not() -> None:
    pairs = [
        (New("a").AtSliceIndex(0), New("a").AtMapKey("0")),
        (New("a.b"), New("a").AtMapKey("b")),
    ]
    for left, right in pairs:
        assert str(left) == str(right)
        assert left.to_text() != right.to_text()


# -- to_text ------------------------------------------------------------------------------------

TO_TEXT = [
    pytest.param(Path(), "", id="root"),
    pytest.param(New("a"), "a", id="identifier"),
    pytest.param(New("_x1"), "_x1", id="underscore-identifier"),
    pytest.param(New("Abc_123"), "Abc_123", id="mixed-case-identifier"),
    pytest.param(New(0), "[0]", id="root-index"),
    pytest.param(New(0).AtSliceIndex(12), "[0][12]", id="root-indexes"),
    pytest.param(New("a").AtSliceIndex(0).AtMapKey("b"), 'a[0]["b"]', id="key-index-key"),
    pytest.param(New("a").AtMapKey("b"), 'a["b"]', id="identifier-after-key-is-bracketed"),
    pytest.param(New(0).AtMapKey("a"), '[0]["a"]', id="identifier-after-root-index-is-bracketed"),
    pytest.param(New("a").AtSliceIndex(9223372036854775807), "a[9223372036854775807]", id="largest-index"),
    pytest.param(New("a.b"), '["a.b"]', id="dot"),
    pytest.param(New("0"), '["0"]', id="digit-key"),
    pytest.param(New("1a"), '["1a"]', id="starts-with-digit"),
    pytest.param(New(""), '[""]', id="empty-key"),
    pytest.param(New("a").AtMapKey(""), 'a[""]', id="empty-key-after-key"),
    pytest.param(
        New("root_map_attribute").AtMapKey("example-key"), 'root_map_attribute["example-key"]', id="hyphen"
    ),
    pytest.param(New("a b"), '["a b"]', id="space"),
    pytest.param(New('say "hi"'), '["say \\"hi\\""]', id="double-quotes"),
    pytest.param(New("it's"), '["it\'s"]', id="single-quote"),
    pytest.param(New("a\\b"), '["a\\\\b"]', id="backslash"),
    pytest.param(New("a[0]"), '["a[0]"]', id="brackets"),
    pytest.param(New("a/b"), '["a/b"]', id="slash-kept"),
    pytest.param(New("ключ"), '["ключ"]', id="cyrillic-kept"),
    pytest.param(New("é"), '["é"]', id="non-ascii-letter-is-quoted"),
    pytest.param(New("😀"), '["😀"]', id="emoji-kept"),
    pytest.param(New("a\nb\tc\rd\be\ff"), '["a\\nb\\tc\\rd\\be\\ff"]', id="short-escapes"),
    pytest.param(New("\x00\x1f"), '["\\u0000\\u001f"]', id="control-characters"),
    pytest.param(New("\x7f"), '["\\u007f"]', id="delete"),
    pytest.param(New("a\xa0b"), '["a\\u00a0b"]', id="no-break-space-made-visible"),
    pytest.param(New("\u200b"), '["\\u200b"]', id="zero-width-space-made-visible"),
    pytest.param(New("\u2028"), '["\\u2028"]', id="line-separator"),
    pytest.param(New("\U000e0001"), '["\\udb40\\udc01"]', id="astral-non-printable-as-json-pair"),
    pytest.param(New("\ud800"), '["\\ud800"]', id="lone-high-surrogate"),
    pytest.param(New("\udc00x"), '["\\udc00x"]', id="lone-low-surrogate"),
    pytest.param(New("\udc00\ud800"), '["\\udc00\\ud800"]', id="low-then-high-surrogate"),
    pytest.param(New("\ud83d\ude00"), '["\\u{d83d}\\ude00"]', id="high-then-low-surrogate-code-points"),
    pytest.param(
        New("root_list_block").AtSliceIndex(0).AtMapKey("nested_list_block"),
        'root_list_block[0]["nested_list_block"]',
        id="contract",
    ),
    pytest.param(
        New("triggers").AtMapKey("file1.txt").AtSliceIndex(0).AtMapKey("ok"),
        'triggers["file1.txt"][0]["ok"]',
        id="mixed",
    ),
]


@pytest.mark.parametrize(("path", "text"), TO_TEXT)
def test_to_text(path: Path, text: str) -> None:
    assert path.to_text() == text
    assert Path.parse(text) == path


@pytest.mark.parametrize(
    "key",
    [
        pytest.param("a.b", id="dot"),
        pytest.param('q"uote', id="quote"),
        pytest.param("back\\slash", id="backslash"),
        pytest.param("ключ 😀", id="unicode"),
        pytest.param("\x00\n", id="controls"),
        pytest.param("\u2028\xa0", id="invisible"),
        pytest.param("\U000e0001", id="astral-non-printable"),
    ],
)
def test_quoted_keys_from_json_documents_are_json_string_literals(key: str) -> None:
    text = New(key).to_text()
    assert text.startswith("[")
    assert text.endswith("]")
    assert json.loads(text[1:-1]) == key


# -- parse: accepted, non-canonical spellings --------------------------------------------------

PARSE = [
    pytest.param("", Path(), id="empty-is-root"),
    pytest.param('["a"]', New("a"), id="quoted-identifier"),
    pytest.param("a.b.c", New("a").AtMapKey("b").AtMapKey("c"), id="dotted-keys-after-key"),
    pytest.param("a[0].b", New("a").AtSliceIndex(0).AtMapKey("b"), id="dotted-key-after-index"),
    pytest.param("[0].a", New(0).AtMapKey("a"), id="dotted-key-after-root-index"),
    pytest.param('["a\\/b"]', New("a/b"), id="escaped-slash"),
    pytest.param('["\\u0041\\u00e9"]', New("Aé"), id="unicode-escapes"),
    pytest.param('["\\uD83D\\uDE00"]', New("😀"), id="json-surrogate-pair-is-one-character"),
    pytest.param('["\\ud83d\\u0041"]', New("\ud83dA"), id="high-surrogate-then-non-low"),
    pytest.param('["\\ud83d"]', New("\ud83d"), id="lone-high-surrogate-at-end"),
    pytest.param('["\\ud83dx"]', New("\ud83dx"), id="lone-high-surrogate-then-char"),
    pytest.param('["\\u{41}"]', New("A"), id="braced-escape"),
    pytest.param('["\\u{1F600}"]', New("😀"), id="braced-astral"),
    pytest.param('["\\u{10FFFF}"]', New("\U0010ffff"), id="braced-max"),
    pytest.param('["\\u{d83d}\\ude00"]', New("\ud83d\ude00"), id="braced-surrogate-is-not-combined"),
    pytest.param('["\\u{00d83d}"]', New("\ud83d"), id="braced-leading-zeros"),
    pytest.param('["ключ"]', New("ключ"), id="raw-unicode"),
    pytest.param('["\x7f"]', New("\x7f"), id="raw-delete-allowed"),
    pytest.param("[0][1]", New(0).AtSliceIndex(1), id="root-array"),
    pytest.param("a[9223372036854775807]", New("a").AtSliceIndex(2**63 - 1), id="largest-index"),
    pytest.param("_.__", New("_").AtMapKey("__"), id="underscores"),
]


@pytest.mark.parametrize(("text", "expected"), PARSE)
def test_parse(text: str, expected: Path) -> None:
    assert Path.parse(text) == expected


@pytest.mark.parametrize(
    ("dotted", "canonical"),
    [
        pytest.param("a.b", 'a["b"]', id="key-key"),
        pytest.param("a[0].b.c", 'a[0]["b"]["c"]', id="key-index-key-key"),
        pytest.param("[1].x", '[1]["x"]', id="root-index-key"),
        pytest.param('["a-b"].c', '["a-b"]["c"]', id="quoted-first-key"),
        pytest.param("tags.env", 'tags["env"]', id="hcl-map-key"),
    ],
)
def test_only_a_first_identifier_key_goes_bare(dotted: str, canonical: str) -> None:
    # Both spellings parse to one path; rendering brackets every key after the first step.
    path = Path.parse(dotted)
    assert Path.parse(canonical) == path
    assert path.to_text() == canonical


# -- parse errors, messages pinned --------------------------------------------------------------

NEXT = "'.', '[' or the end of the path"
IDENT = "a key of letters, digits and '_' after '.' (quote other keys as [\"...\"])"
BRACKET = "an index or a quoted key"
END = "the end of the text"

PARSE_ERRORS = [
    pytest.param("a[", 2, BRACKET, END, id="open-bracket-at-end"),
    pytest.param(".a", 0, "a key or '['", "'.'", id="leading-dot"),
    pytest.param("0", 0, "a key or '['", "'0'", id="bare-index"),
    pytest.param("-a", 0, "a key or '['", "'-'", id="leading-hyphen"),
    pytest.param("a.", 2, IDENT, END, id="trailing-dot"),
    pytest.param("a..b", 2, IDENT, "'.'", id="double-dot"),
    pytest.param("a.0", 2, IDENT, "'0'", id="dotted-index"),
    pytest.param("a.é", 2, IDENT, "'é'", id="non-ascii-bare-key"),
    pytest.param("a b", 1, NEXT, "' '", id="space"),
    pytest.param("a-b", 1, NEXT, "'-'", id="hyphen-must-be-quoted"),
    pytest.param("a[0]b", 4, NEXT, "'b'", id="key-after-index-without-dot"),
    pytest.param("a[-1]", 2, BRACKET, "'-'", id="negative-index"),
    pytest.param("a[x]", 2, BRACKET, "'x'", id="bare-key-in-brackets"),
    pytest.param("a['x']", 2, BRACKET, '"\'"', id="single-quoted-key"),
    pytest.param("a[ 0]", 2, BRACKET, "' '", id="space-in-brackets"),
    pytest.param("a[]", 2, BRACKET, "']'", id="empty-brackets"),
    pytest.param("a[01]", 3, "']' after the index", "'1'", id="leading-zero"),
    pytest.param("a[1", 3, "']' after the index", END, id="unclosed-index"),
    pytest.param("a[1.5]", 3, "']' after the index", "'.'", id="fractional-index"),
    pytest.param(
        "a[9223372036854775808]",
        2,
        "an index no greater than 9223372036854775807",
        "9223372036854775808",
        id="index-too-big",
    ),
    pytest.param(
        "a[" + "9" * 40 + "]",
        2,
        "an index no greater than 9223372036854775807",
        "a number of 40 digits",
        id="index-far-too-big",
    ),
    pytest.param(
        "a[" + "9" * 5000 + "]",
        2,
        "an index no greater than 9223372036854775807",
        "a number of 5000 digits",
        id="index-beyond-int-str-limit",
    ),
    pytest.param('a["x"', 5, "']' after the quoted key", END, id="unclosed-bracket-after-key"),
    pytest.param('a["x"x]', 5, "']' after the quoted key", "'x'", id="junk-after-key"),
    pytest.param('a["x', 4, "a closing '\"'", END, id="unterminated-string"),
    pytest.param('["', 2, "a closing '\"'", END, id="just-a-quote"),
    pytest.param(
        'a["x\ny"]', 4, "an escape sequence instead of a raw control character", "'\\n'", id="raw-newline"
    ),
    pytest.param(
        'a["\x00"]', 3, "an escape sequence instead of a raw control character", "'\\x00'", id="raw-nul"
    ),
    pytest.param(
        'a["x\\q"]',
        5,
        'an escape: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX or \\u{X...}',
        "'q'",
        id="unknown-escape",
    ),
    pytest.param(
        'a["x\\',
        5,
        'an escape: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX or \\u{X...}',
        END,
        id="backslash-at-end",
    ),
    pytest.param('a["\\u12"]', 5, "4 hex digits after '\\u'", "'12\"]'", id="short-unicode-escape"),
    pytest.param('a["\\u', 5, "4 hex digits after '\\u'", END, id="unicode-escape-at-end"),
    pytest.param('a["\\u{}"]', 6, "hex digits after '\\u{'", "'}'", id="empty-braces"),
    pytest.param('a["\\u{41"]', 8, "'}' after the hex digits", "'\"'", id="unclosed-braces"),
    pytest.param(
        'a["\\u{110000}"]', 6, "a code point no greater than 10FFFF", "110000", id="code-point-too-big"
    ),
    pytest.param(
        'a["\\u{1234567}"]', 6, "a code point no greater than 10FFFF", "1234567", id="seven-hex-digits"
    ),
    pytest.param(
        'a["\\u{' + "f" * 20 + '}"]',
        6,
        "a code point no greater than 10FFFF",
        "ffffffffffff...",
        id="many-hex-digits",
    ),
]


@pytest.mark.parametrize(("text", "position", "expected", "found"), PARSE_ERRORS)
def test_parse_errors(text: str, position: int, expected: str, found: str) -> None:
    with pytest.raises(PathSyntaxError) as info:
        Path.parse(text)
    error = info.value
    assert (error.text, error.position, error.expected, error.found) == (text, position, expected, found)
    if len(text) <= 60:
        assert str(error) == f"invalid path {text!r} at offset {position}: expected {expected}, found {found}"


PINNED_PARSE_MESSAGES = [
    pytest.param(
        "a[",
        "invalid path 'a[' at offset 2: expected an index or a quoted key, found the end of the text",
        id="open-bracket",
    ),
    pytest.param(
        "a.0",
        "invalid path 'a.0' at offset 2: expected a key of letters, digits and '_' after '.' (quote other keys as [\"...\"]), found '0'",
        id="dotted-index",
    ),
    pytest.param(
        "a-b",
        "invalid path 'a-b' at offset 1: expected '.', '[' or the end of the path, found '-'",
        id="hyphen",
    ),
    pytest.param(
        'a["\\u{110000}"]',
        "invalid path 'a[\"\\\\u{110000}\"]' at offset 6: expected a code point no greater than 10FFFF, found 110000",
        id="code-point",
    ),
    pytest.param(
        "a" * 100 + "!",
        "invalid path ...'"
        + "a" * 25
        + "!' (length 101) at offset 100: expected '.', '[' or the end of the path, found '!'",
        id="long-text-excerpt-at-end",
    ),
    pytest.param(
        "!" + "a" * 100,
        "invalid path '!" + "a" * 24 + "'... (length 101) at offset 0: expected a key or '[', found '!'",
        id="long-text-excerpt-at-start",
    ),
    pytest.param(
        "a" * 50 + "-" + "b" * 50,
        "invalid path ...'"
        + "a" * 25
        + "-"
        + "b" * 24
        + "'... (length 101) at offset 50: expected '.', '[' or the end of the path, found '-'",
        id="long-text-excerpt-in-middle",
    ),
]


@pytest.mark.parametrize(("text", "message"), PINNED_PARSE_MESSAGES)
def test_parse_error_messages(text: str, message: str) -> None:
    with pytest.raises(PathSyntaxError) as info:
        Path.parse(text)
    assert str(info.value) == message


def test_parse_error_is_a_value_error_and_pickles() -> None:
    with pytest.raises(PathSyntaxError) as info:
        Path.parse("a[x]")
    error = info.value
    assert isinstance(error, ValueError)
    assert isinstance(error, TfJsonPathError)
    loaded = pickle.loads(pickle.dumps(error))
    assert type(loaded) is PathSyntaxError
    assert (loaded.text, loaded.position, loaded.expected, loaded.found) == ("a[x]", 2, BRACKET, "'x'")
    assert str(loaded) == str(error)


def test_parse_keeps_step_types() -> None:
    assert Path.parse('a[0]["0"]').steps == (MapStep("a"), SliceStep(0), MapStep("0"))
