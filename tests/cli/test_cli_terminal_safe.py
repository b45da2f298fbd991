"""Issue #33: text from a plan reaches the terminal with its control and bidi characters shown escaped.

An address, map key or value holding ``\\x1b[2K\\r`` erased a FAIL line and wrote PASS over it on a terminal;
``\\u202e`` reordered a line. Every command's streams now show such characters escaped (only our own colours
stay escape sequences), and the verdict lines escape a newline from data too, so no line can be forged.
"""

from __future__ import annotations

import io
import json
import re
import unicodedata
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from clirun import Ran, cli

from plancheck._text import terminal_safe

SECRET = "s3cr3t-Planted-Value"
#: What must never reach a stream raw: C0 but newline and tab, DEL, C1, the bidi controls, the zero-width and every
#: other format character (Cf), line and paragraph separators, surrogates, and what shows nothing although Python
#: counts it printable (the Hangul fillers, variation selectors).
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f"
                    "\u3164\ufe00-\ufe0f\ufeff\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff\U000e0000-\U000e0fff]")


def clean(result: Ran, *, colours: bool = False) -> None:
    text = result.out + result.err
    if colours:
        text = re.sub(r"\x1b\[[0-9]{1,2}m", "", text)
    assert not UNSAFE.findall(text)
    assert SECRET not in text
    assert "Traceback" not in result.err


# (raw piece planted in an address key, a map key and a value; how a line of text shows it)
HOSTILE = [
    pytest.param("\x1b[2K\r", "\\x1b[2K\\x0d", id="erase-line-carriage-return"),
    pytest.param("\x1b]0;title\x07", "\\x1b]0;title\\x07", id="osc-window-title"),
    pytest.param("\u202e", "\\u202e", id="right-to-left-override"),
    pytest.param("\u2066\u2069\u200e\u200f\u061c", "\\u2066\\u2069\\u200e\\u200f\\u061c", id="isolates-and-marks"),
    pytest.param("\u202a\u202b\u202c\u202d", "\\u202a\\u202b\\u202c\\u202d", id="embeddings"),
    pytest.param("\x9b2K\x85", "\\u009b2K\\u0085", id="c1-csi-and-nel"),
    pytest.param("\x7f\x08\x00", "\\u007f\\x08\\x00", id="del-backspace-nul"),
    pytest.param("\x00" + "0" * 24 + "[32m", "\\x00" + "0" * 24 + "[32m", id="forged-style-mark"),
    # Red team: invisible characters made two different names print alike, so a message could lie about what it named.
    pytest.param("\u200b\u200c\u200d\u2060\ufeff", "\\u200b\\u200c\\u200d\\u2060\\ufeff", id="zero-width"),
    pytest.param("\u00ad\u2061\u180e\u3164\ufe0f", "\\u00ad\\u2061\\u180e\\u3164\\ufe0f",
                 id="soft-hyphen-invisible-operator-filler-variation-selector"),
    pytest.param("\U000e0041\U000e007f", "\\udb40\\udc41\\udb40\\udc7f", id="tag-characters-as-json-surrogate-pairs"),
    pytest.param("\u2028\u2029", "\\u2028\\u2029", id="line-and-paragraph-separators"),
    # Red team: XML 1.0 has no U+FFFE nor U+FFFF, so a key holding one made the whole JUnit report unparseable.
    pytest.param("\ufffe\uffff\ufdd0", "\\ufffe\\uffff\\ufdd0", id="noncharacters"),
]


def hostile_plan(piece: str, value: str) -> dict[str, Any]:
    key = f"k{piece}"
    return {
        "format_version": "1.2",
        "variables": {"db_password": {"value": "\x1b" + SECRET + "\x85"}},
        "configuration": {"root_module": {"variables": {"db_password": {"sensitive": True}}}},
        "resource_changes": [{
            "address": f'null_resource.a["{key}"]', "mode": "managed", "type": "null_resource", "name": "a",
            "index": key,
            "change": {
                "actions": ["create"], "before": None,
                "after": {"triggers": {key: value, "pw": "\x1b" + SECRET + "\x85"}},
                "after_unknown": {}, "before_sensitive": False, "after_sensitive": {},
            },
        }],
    }


@pytest.fixture
def plan_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path / "plan.json"


def _toml_astral(match: re.Match[str]) -> str:
    high, low = int(match[1], 16), int(match[2], 16)
    return f"\\U{0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00):08x}"


def write_checks(piece: str) -> None:
    # JSON's escapes are TOML's, but for a character past U+FFFF: TOML writes it \UXXXXXXXX, not as a surrogate pair.
    address = re.sub(r"\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})", _toml_astral, json.dumps(f'null_resource.a["k{piece}"]'))
    Path("checks.toml").write_text(
        f'[[check]]\ntype = "ExpectResourceAction"\naddress = {address}\naction = "ResourceActionDestroy"\n', "utf-8"
    )


@pytest.mark.parametrize(("piece", "shown"), HOSTILE)
def test_verdict_lines_show_controls_escaped(plan_file: Path, piece: str, shown: str) -> None:
    plan_file.write_text(json.dumps(hostile_plan(piece, f"v{piece}")), "utf-8")
    write_checks(piece)
    result = cli("plan.json", "-c", "checks.toml")
    clean(result)
    assert (result.code, result.err) == (1, "")
    assert result.out.splitlines() == [
        f'FAIL  ExpectResourceAction: null_resource.a["k{shown}"]: expected Destroy, got action(s): [create]',
        "1 check in plan.json: 0 passed, 1 failed",
    ]


@pytest.mark.parametrize(("piece", "shown"), HOSTILE)
def test_colours_stay_and_only_ours(plan_file: Path, piece: str, shown: str) -> None:
    plan_file.write_text(json.dumps(hostile_plan(piece, f"v{piece}")), "utf-8")
    write_checks(piece)
    result = cli("plan.json", "-c", "checks.toml", "--color", "always")
    clean(result, colours=True)
    assert result.out.splitlines() == [
        f'\x1b[31mFAIL\x1b[0m  ExpectResourceAction: null_resource.a["k{shown}"]: expected Destroy, '
        "got action(s): [create]",
        "1 check in plan.json: \x1b[2m0 passed\x1b[0m, \x1b[31m1 failed\x1b[0m",
    ]


#: Visible text stays as it is, homoglyphs included: a Cyrillic "а" is a letter of a name (a for_each key in Russian),
#: and escaping every script but Latin would make their messages unreadable; what is escaped is what shows nothing.
VISIBLE = [
    pytest.param("\u0430\u0435\u043e", id="cyrillic-homoglyphs"),
    pytest.param("ключ-é-ß-日本", id="words-of-other-scripts"),
    pytest.param("\u00a0\u3000", id="no-break-and-ideographic-spaces"),
    pytest.param("🔑🚀", id="emoji"),
]


@pytest.mark.parametrize("piece", VISIBLE)
def test_visible_text_is_kept_as_it_is(plan_file: Path, piece: str) -> None:
    plan_file.write_text(json.dumps(hostile_plan(piece, f"v{piece}")), "utf-8")
    write_checks(piece)
    result = cli("plan.json", "-c", "checks.toml")
    clean(result)
    assert result.out.splitlines()[0] == (
        f'FAIL  ExpectResourceAction: null_resource.a["k{piece}"]: expected Destroy, got action(s): [create]'
    )
    assert terminal_safe(piece) == piece


#: The noncharacters of the BMP (Unicode's PropList.txt): XML 1.0 has no U+FFFE nor U+FFFF.
NONCHARACTERS_BMP = {*range(0xFDD0, 0xFDF0), 0xFFFE, 0xFFFF}
#: Unicode's default-ignorable code points (DerivedCoreProperties.txt): they show nothing, whatever their category.
DEFAULT_IGNORABLE = [(0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
                     (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
                     (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
                     (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF)]


def test_the_rule_over_every_character_past_ascii() -> None:
    """Every character past ASCII this Python knows: escaped when it shows nothing or moves text (controls, format
    characters, surrogates, line and paragraph separators, default-ignorable code points, the BMP's noncharacters),
    else kept as it is (letters, marks, digits, punctuation, symbols and spaces of every script, private use,
    unassigned)."""
    ignorable = {code for first, last in DEFAULT_IGNORABLE for code in range(first, last + 1)} | NONCHARACTERS_BMP
    wrong: list[str] = []
    for start in range(0x80, 0x110000, 4096):
        chunk = "".join(chr(code) for code in range(start, min(start + 4096, 0x110000)))
        kept = set(terminal_safe(chunk))  # an escape is ASCII: a character past ASCII in the output was kept
        for char in chunk:
            hidden = unicodedata.category(char) in {"Cc", "Cf", "Cs", "Zl", "Zp"} or ord(char) in ignorable
            if hidden == (char in kept):
                wrong.append(f"U+{ord(char):04X} {unicodedata.category(char)}")
    assert wrong == []


def test_a_newline_in_an_address_cannot_forge_a_verdict_line(plan_file: Path) -> None:
    piece = "\nPASS  ExpectResourceAction: null_resource.b"
    plan_file.write_text(json.dumps(hostile_plan(piece, "v")), "utf-8")
    write_checks(piece)
    result = cli("plan.json", "-c", "checks.toml")
    clean(result)
    assert result.out.splitlines() == [
        'FAIL  ExpectResourceAction: null_resource.a["k\\nPASS  ExpectResourceAction: null_resource.b"]: '
        "expected Destroy, got action(s): [create]",
        "1 check in plan.json: 0 passed, 1 failed",
    ]
    listed = cli("query", "plan.json")
    assert listed.out == 'null_resource.a["k\\nPASS  ExpectResourceAction: null_resource.b"]  create\n'


@pytest.mark.parametrize(("name", "shown"), [
    pytest.param("a\nPASS  everything.json", "a\\nPASS  everything.json", id="newline"),
    pytest.param("a\rb.json", "a\\x0db.json", id="carriage-return"),
    pytest.param("a\x1b[2Kb.json", "a\\x1b[2Kb.json", id="ansi-erase-line"),
], )  # fmt: skip
def test_a_plan_file_name_cannot_forge_a_line(plan_file: Path, name: str, shown: str) -> None:
    """The count line names the plan file as given: a newline in the name started a line the name wrote."""
    Path(name).write_text(json.dumps(hostile_plan("", "v")), "utf-8")
    write_checks("")
    result = cli(name, "-c", "checks.toml")
    clean(result)
    assert result.out.splitlines() == [
        'FAIL  ExpectResourceAction: null_resource.a["k"]: expected Destroy, got action(s): [create]',
        f"1 check in {shown}: 0 passed, 1 failed",
    ]


@pytest.mark.parametrize(("piece", "shown"), HOSTILE)
def test_query_shows_addresses_keys_and_values_escaped(plan_file: Path, piece: str, shown: str) -> None:
    plan_file.write_text(json.dumps(hostile_plan(piece, f"v{piece}")), "utf-8")
    listed = cli("query", "plan.json")
    clean(listed)
    assert (listed.code, listed.out) == (0, f'null_resource.a["k{shown}"]  create\n')
    value = cli("query", "plan.json", f'null_resource.a["k{piece}"]')
    clean(value)
    # The value is rendered as JSON (which escapes C0 itself), and the stream escapes what JSON keeps raw.
    key, val = json.dumps(f"k{piece}"), json.dumps(f"v{piece}")
    assert value.out.splitlines() == [
        f'null_resource.a["k{shown}"] (after)',
        "  status:    known",
        "  sensitive: no",
        f'  value:     {{"triggers": {{{key}: {val}, "pw": (sensitive)}}}}',
    ]


@pytest.mark.parametrize(("piece", "shown"), HOSTILE)
def test_error_lines_show_controls_escaped(plan_file: Path, piece: str, shown: str) -> None:
    plan_file.write_text(json.dumps(hostile_plan(piece, "v")), "utf-8")
    missing = cli("query", "plan.json", f'null_resource.b["k{piece}"]')
    clean(missing)
    assert missing.code == 2
    asked = terminal_safe(repr(f'null_resource.b["k{piece}"]'))
    assert missing.err == (
        f'tfplancheck: error: resource {asked} is not in the plan; closest: null_resource.a["k{shown}"]\n'
    )
    unreadable = cli("query", f"plan{piece}.json")
    clean(unreadable)
    if "\x00" in piece:  # no file can be named so: a usage error (it was an internal error)
        assert unreadable.err.splitlines()[0] == (
            "tfplancheck: error: argument plan: a path holding a NUL character (no file can be named so)"
        )
    else:
        assert unreadable.err == f"tfplancheck: error: plan{shown}.json: cannot read the plan: No such file or directory\n"


@pytest.mark.parametrize(("piece", "shown"), HOSTILE)
def test_snapshot_differences_show_controls_escaped(plan_file: Path, piece: str, shown: str) -> None:
    plan_file.write_text(json.dumps(hostile_plan(piece, f"v{piece}")), "utf-8")
    wrote = cli("snapshot", "plan.json", "plan.snap", "--update")
    clean(wrote)
    assert (wrote.code, wrote.out) == (0, "plan.snap: wrote the snapshot\n")
    plan_file.write_text(json.dumps(hostile_plan(piece, f"w{piece}")), "utf-8")
    differs = cli("snapshot", "plan.json", "plan.snap")
    clean(differs)
    key, before, after = (terminal_safe(json.dumps(t)) for t in (f"k{piece}", f"v{piece}", f"w{piece}"))
    assert (differs.code, differs.out.splitlines()) == (1, [
        f'null_resource.a["k{shown}"]: triggers[{key}]: {before} -> {after}',
        "plan.snap: the plan differs from its snapshot (1 difference; accept them with --update)",
    ])


@pytest.mark.parametrize(("piece", "shown"), HOSTILE)
def test_a_junit_report_parses_whatever_a_key_holds(plan_file: Path, piece: str, shown: str) -> None:
    plan_file.write_text(json.dumps(hostile_plan(piece, f"v{piece}")), "utf-8")
    write_checks(piece)
    result = cli("plan.json", "-c", "checks.toml", "--format", "junit", "--report", "junit=r.xml")
    for text in (result.out, Path("r.xml").read_text("utf-8")):
        (case,) = ElementTree.fromstring(text).iter("testcase")
        assert case.get("name") == f'ExpectResourceAction: null_resource.a["k{shown}"]'
    clean(result)


@pytest.mark.parametrize(("piece", "shown"), HOSTILE)
def test_json_stays_the_same_json(plan_file: Path, piece: str, shown: str) -> None:
    """JSON is escaped too (a document printed to a terminal is safe), with escapes JSON reads as the same text."""
    plan_file.write_text(json.dumps(hostile_plan(piece, f"v{piece}")), "utf-8")
    result = cli("query", "plan.json", f'null_resource.a["k{piece}"]', "--format", "json")
    clean(result)
    assert json.loads(result.out)["address"] == f'null_resource.a["k{piece}"]'
    assert json.dumps(f"k{piece}", ensure_ascii=False) in json.loads(result.out)["value"]


def test_a_secret_holding_a_control_character_is_scrubbed_before_it_is_escaped(plan_file: Path) -> None:
    plan = hostile_plan("x", "\x1b" + SECRET + "\x85")
    plan["resource_changes"][0]["address"] = f'null_resource.a["\x1b{SECRET}\x85"]'
    plan["resource_changes"][0]["index"] = "\x1b" + SECRET + "\x85"
    plan_file.write_text(json.dumps(plan), "utf-8")
    write_checks(f'"]x["\x1b{SECRET}\x85')  # an address in the checks file that is not in the plan: an error line
    for result in (cli("plan.json", "-c", "checks.toml"), cli("query", "plan.json"),
                   cli("query", "plan.json", f'null_resource.a["\x1b{SECRET}\x85"]')):
        clean(result)
        assert "s3cr3t" not in result.out + result.err
    assert cli("query", "plan.json").out == 'null_resource.a["(sensitive)"]  create\n'


@pytest.mark.parametrize("secret", [
    pytest.param("\x1b" + SECRET + "\x85", id="esc-and-c1"),
    pytest.param(SECRET + "\u202e\x7f", id="bidi-and-del"),
    pytest.param("\r" + SECRET + "\n" + SECRET, id="carriage-return-and-newline"),
])
def test_the_stream_scrubs_before_it_escapes(secret: str) -> None:
    """What reaches the stream unscrubbed (its backstop) is scrubbed as the document spells it, then escaped."""
    from plancheck._redact import Secrets
    from plancheck.cli._io import _Guarded

    sink = io.StringIO()
    stream = _Guarded(sink, "standard output")
    stream.scrub = Secrets([secret]).scrub
    stream.write(f"value: {secret}\x1b[2K\n")
    assert sink.getvalue() == "value: (sensitive)\\x1b[2K\n"


@pytest.mark.parametrize("secret", [
    pytest.param("\x1b" + SECRET + "\x85", id="esc-and-c1"),
    pytest.param(SECRET + "\u202e\x7f", id="bidi-and-del"),
    pytest.param("\r" + SECRET + "\n" + SECRET, id="carriage-return-and-newline"),
])
def test_one_line_scrubs_what_it_is_given_before_it_escapes(secret: str) -> None:
    """Data put on a line of ours (every writer's subject and message) is scrubbed as the document spells it, then
    made one line: escaped first, the secret would be spelled otherwise and missed."""
    from plancheck._redact import Secrets
    from plancheck._text import one_line

    shown = one_line(f"value: {secret}, next\nPASS\x1b[2K", Secrets([secret]).scrub)
    assert shown == "value: (sensitive), next\\nPASS\\x1b[2K"
