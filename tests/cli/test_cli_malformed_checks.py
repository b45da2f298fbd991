"""Issue #12 (items 13, 14, 16): malformed checks files are typed errors; numbers convert as advertised; linear lines.

Every checks-file problem is a :class:`ChecksFileError` naming the file, the line when known and the key
path; numbers from TOML and JSON reach every number-taking matcher as ``--list-checks`` advertises them.
"""

from __future__ import annotations

import json
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from plancheck import knownvalue
from plancheck.cli._checksfile import (
    MAX_DEPTH,
    ChecksFileError,
    _header_lines,
    load_checks_file,
    parse_checks,
)
from plancheck.cli._registry import Kind, Registry, default_registry

REGISTRY = default_registry()
LIMIT = sys.get_int_max_str_digits()
BIG = "9" * 5000  # a 5000-digit integer literal


def json_check(matcher: str, *, check: str = "ExpectKnownOutputValue", extra: str = "") -> str:
    """A one-check JSON file whose matcher is the JSON text ``matcher``."""
    return f'{{"check": [{{"type": "{check}", "address": "x"{extra}, "matcher": {matcher}}}]}}'


def toml_check(matcher: str) -> str:
    """A one-check TOML file (the header on line 1) whose matcher is the TOML text ``matcher``."""
    return f'[[check]]\ntype = "ExpectKnownOutputValue"\naddress = "x"\nmatcher = {matcher}\n'


def nested_list_exact(depth: int) -> str:
    return '{"type": "ListExact", "items": [' * depth + '{"type": "Null"}' + "]}" * depth


REPEATED = "expected each key once in its object, found this key repeated (which of its values counts would be a guess)"

JSON_ERRORS = [
    pytest.param(json_check('{"type": "NumberExact", "value": 1e1000000000000000000}'),
                 "c.json: check[0].matcher.value: number out of range: 1e1000000000000000000", id="huge-exponent"),
    pytest.param(json_check('{"type": "NumberExact", "value": -1e1000000000000000000}'),
                 "c.json: check[0].matcher.value: number out of range: -1e1000000000000000000", id="huge-exponent-negative"),
    pytest.param(json_check('{"type": "NumberExact", "value": 1e' + "9" * 50 + "}"),
                 "c.json: check[0].matcher.value: number out of range: 1e999999999999999999…9999999999 (52 characters)",
                 id="huge-exponent-long-literal-cut-short"),
    pytest.param('{"check": [{"type": 1e1000000000000000000}]}',
                 "c.json: check[0].type: number out of range: 1e1000000000000000000", id="huge-exponent-as-check-type"),
    pytest.param(json_check('{"type": "NumberExact", "value": NaN}'),
                 "c.json: check[0].matcher.value: expected a JSON value, found NaN, which is not JSON", id="nan"),
    pytest.param(json_check('{"type": "Float64Exact", "value": -Infinity}'),
                 "c.json: check[0].matcher.value: expected a JSON value, found -Infinity, which is not JSON",
                 id="minus-infinity"),
    pytest.param(json_check(f'{{"type": "Int64Exact", "value": {BIG}}}'),
                 f"c.json: check[0].matcher.value: expected an integer of at most {LIMIT} digits, found one of 5000 digits",
                 id="5000-digit-integer-for-an-int"),
    pytest.param(json_check(f'{{"type": "Float64Exact", "value": {BIG}}}'),
                 "c.json: check[0].matcher.value: expected a number within the range of a float (about ±1.8e308), "
                 "found 99999999999999999999…9999999999 (5000 characters)", id="5000-digit-integer-for-a-float"),
    pytest.param(json_check('{"type": "Float32Exact", "value": 1e400}'),
                 "c.json: check[0].matcher.value: expected a number within the range of a float (about ±1.8e308), "
                 "found 1E+400", id="beyond-float-range"),
    # A key given twice was read as its last value: a check silently replaced by another (TOML refuses it).
    pytest.param('{"check": [{"type": "ExpectEmptyPlan", "type": "ExpectNoDestroys"}]}',
                 "c.json: check[0].type: " + REPEATED, id="check-type-repeated"),
    pytest.param(json_check('{"type": "StringExact", "value": "a", "value": "b"}'),
                 "c.json: check[0].matcher.value: " + REPEATED, id="matcher-value-repeated"),
    pytest.param('{"check": [{"type": "ExpectEmptyPlan"}], "check": [{"type": "ExpectNoDestroys"}]}',
                 "c.json: check: " + REPEATED, id="check-list-repeated"),
    pytest.param(json_check("[" * 5000 + "]" * 5000), "c.json: invalid JSON: nested too deeply", id="nested-5000-deep"),
    pytest.param(json_check(nested_list_exact(MAX_DEPTH)),
                 f"c.json: check[0]: nested more than {MAX_DEPTH} levels deep", id="matchers-nested-beyond-the-limit"),
    pytest.param(json_check('{"type": "ListPartial", "items": {"123456789012345678901234567890": {"type": "Null"}}}'),
                 'c.json: check[0].matcher.items["123456789012345678901234567890"]: expected an index '
                 '(a key such as "0" or "2")', id="index-key-too-long-for-an-index"),
    pytest.param(json_check('{"type": "Null"}', extra=', "' + "k" * 200 + '": 1'),
                 'c.json: check[0]["' + "k" * 50 + '…"]: unknown key for ExpectKnownOutputValue, which takes: '
                 "name, matcher", id="long-key-cut-short"),
    pytest.param(json_check('{"type": "Null"}', extra=', "colour\\n": 1'),
                 'c.json: check[0]["colour\\n"]: unknown key for ExpectKnownOutputValue, which takes: name, matcher',
                 id="key-with-a-trailing-newline-quoted"),
    pytest.param('{"check": [\n{"type": "ExpectEmptyPlan"},\n{"type": "ExpectEmptyPlan",}]}',
                 "c.json:3: invalid JSON: Expecting property name enclosed in double quotes (at line 3, column 28)",
                 id="syntax-error-located"),
]


@pytest.mark.parametrize(("text", "message"), JSON_ERRORS)
def test_malformed_json_checks_file_is_one_located_typed_error(text: str, message: str) -> None:
    with pytest.raises(ChecksFileError) as info:
        parse_checks(text, "c.json", REGISTRY)
    assert str(info.value) == message


TOML_ERRORS = [
    pytest.param(toml_check('{ type = "NumberExact", value = 1e1000000000000000000 }'),
                 "c.toml:4: check[0].matcher.value: number out of range: 1e1000000000000000000", id="huge-exponent"),
    pytest.param(toml_check('{ type = "NumberExact", value = nan }'),
                 "c.toml:4: check[0].matcher.value: expected a finite number, found nan", id="nan"),
    pytest.param(toml_check('{ type = "Float64Exact", value = -inf }'),
                 "c.toml:4: check[0].matcher.value: expected a finite number, found -inf", id="minus-inf"),
    pytest.param("x = " + "[" * 600 + "]" * 600, "c.toml: invalid TOML: nested too deeply", id="arrays-600-deep"),
    pytest.param("x = " + "{a = " * 600 + "1" + "}" * 600, "c.toml: invalid TOML: nested too deeply",
                 id="inline-tables-600-deep"),
    pytest.param(toml_check("[" * 150 + "]" * 150), f"c.toml:1: check[0]: nested more than {MAX_DEPTH} levels deep",
                 id="150-deep-beyond-the-limit"),
    pytest.param(toml_check(f'{{ type = "NumberExact", value = {BIG} }}'),
                 f"c.toml:4: invalid TOML: integer too long (5000 digits, at most {LIMIT}; "
                 "write it with a fraction such as .0 to read it exactly as a decimal)", id="5000-digit-integer"),
    pytest.param('[[check]]\ntype = "ExpectEmptyPlan"\n\n[[check]]\ntype = "ExpectKnownOutputValue"\naddress = "x"\n'
                 'matcher = { type = "Float64Exact", value = 1e400 }\n',
                 "c.toml:7: check[1].matcher.value: expected a number within the range of a float (about ±1.8e308), "
                 "found 1E+400", id="second-check-line"),
    pytest.param("[[check]]\ntype = \"ExpectEmptyPlan\"\nwhen = 1979-02-30",
                 "c.toml:3: invalid TOML: Invalid date or datetime (at line 3, column 8)", id="bad-date"),
]


@pytest.mark.parametrize(("text", "message"), TOML_ERRORS)
def test_malformed_toml_checks_file_is_one_located_typed_error(text: str, message: str) -> None:
    with pytest.raises(ChecksFileError) as info:
        parse_checks(text, "c.toml", REGISTRY)
    assert str(info.value) == message


@pytest.mark.parametrize("flags", [pytest.param('"DEBUG"', id="by-name"), pytest.param("128", id="by-number")])
def test_a_regexp_flag_that_prints_is_refused_and_prints_nothing(flags: str, capsys: pytest.CaptureFixture[str]) -> None:
    """--list-checks offers DEBUG among StringRegexp's flags; re.compile then printed its dump on standard output,
    before and inside what --format json / sarif / junit write there (which no longer parsed)."""
    with pytest.raises(ChecksFileError) as info:
        parse_checks(toml_check(f'{{ type = "StringRegexp", pattern = "^a", flags = {flags} }}'), "c.toml", REGISTRY)
    assert str(info.value) == ("c.toml:4: check[0].matcher: StringRegexp: re.DEBUG prints the compiled pattern on "
                               "standard output: leave it out")
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(("flags", "found"), [
    pytest.param('"TEMPLATE"', "re.TEMPLATE", id="template-by-name"),
    pytest.param("1", "re.TEMPLATE", id="template-by-number"),
    pytest.param("1048576", "re.RegexFlag(1048576)", id="no-such-flag-by-number"),
])  # fmt: skip
def test_a_regexp_flag_not_listed_is_refused(flags: str, found: str) -> None:
    """--list-checks offers StringRegexp's flags from the tuple it checks them against: one it does not list, refused."""
    with pytest.raises(ChecksFileError) as info:
        parse_checks(toml_check(f'{{ type = "StringRegexp", pattern = "^a", flags = {flags} }}'), "c.toml", REGISTRY)
    assert str(info.value) == (f"c.toml:4: check[0].matcher: StringRegexp: flags {found} are not taken; it takes "
                               "re.ASCII, re.IGNORECASE, re.UNICODE, re.MULTILINE, re.DOTALL, re.VERBOSE")


FILE_ERRORS = [
    pytest.param("latin.toml", b'[[check]]\n# caf\xe9\n', None, "latin.toml:2: not UTF-8 text (byte 15)", id="not-utf8-line"),
    pytest.param("big.toml", b"#" * 101, 100,
                 "big.toml: the checks file is larger than 100 bytes (raise the limit with --max-bytes or PLANCHECK_MAX_BYTES)", id="max-bytes"),
    pytest.param("edge.toml", b"#" * 100, 100, None, id="max-bytes-exactly-is-fine"),
    pytest.param("bom.toml", b"\xef\xbb\xbf# saved by an editor that marks UTF-8\n", None, None, id="byte-order-mark-toml"),
    pytest.param("bom.json", b'\xef\xbb\xbf{"check": [{"type": "ExpectKnownValue"}]}', None,
                 "bom.json: check[0]: ExpectKnownValue needs 'address' (string), 'path' (path), 'matcher' (matcher)", id="byte-order-mark-json"),
    pytest.param("adir", None, None, "adir: cannot read the checks file: Is a directory", id="directory"),
    pytest.param("missing.toml", "absent", None, "missing.toml: cannot read the checks file: No such file or directory",
                 id="missing"),
]


@pytest.mark.parametrize(("name", "content", "max_bytes", "message"), FILE_ERRORS)
def test_reading_a_checks_file_fails_with_one_typed_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, content: bytes | str | None, max_bytes: int | None,
    message: str | None,
) -> None:
    monkeypatch.chdir(tmp_path)
    if content is None:
        (tmp_path / name).mkdir()
    elif isinstance(content, bytes):
        (tmp_path / name).write_bytes(content)
    if message is None:
        assert load_checks_file(name, REGISTRY, max_bytes=max_bytes) == []
        return
    with pytest.raises(ChecksFileError) as info:
        load_checks_file(name, REGISTRY, max_bytes=max_bytes)
    assert str(info.value) == message


def test_an_endless_checks_file_is_refused_at_the_limit() -> None:
    with pytest.raises(ChecksFileError) as info:
        load_checks_file("/dev/zero", REGISTRY, max_bytes=1 << 16)
    assert str(info.value) == "/dev/zero: the checks file is larger than 65536 bytes (raise the limit with --max-bytes or PLANCHECK_MAX_BYTES)"


def test_a_5000_digit_json_integer_is_read_exactly() -> None:
    (spec,) = parse_checks(json_check(f'{{"type": "NumberExact", "value": {BIG}}}'), "c.json", REGISTRY)
    matcher = spec.check.matcher
    assert matcher.value == Decimal(BIG)
    matcher.CheckValue(10**5000 - 1)  # the same number, as an int (the plan loader reads it exactly)
    matcher.CheckValue(Decimal(BIG))


def test_matchers_at_the_depth_limit_still_build() -> None:
    # MAX_DEPTH levels of containers: the check table, then (matcher table + value list) pairs.
    depth = (MAX_DEPTH - 2) // 2
    (spec,) = parse_checks(json_check(nested_list_exact(depth)), "c.json", REGISTRY)
    assert type(spec.check).__name__ == "ExpectKnownOutputValue"


# -- item 14: every number-taking matcher takes what --list-checks advertises, from TOML and JSON -------------


def _number_params(registry: Registry) -> set[tuple[str, str, str]]:
    """(matcher, argument, kind) for every matcher argument taking a number or an integer."""

    def tags(kind: Kind) -> set[str]:
        return {kind.tag}.union(*(tags(k) for k in kind.of))

    found = set()
    for name in registry.matcher_names():
        for param in registry.matcher(name).params:
            numeric = tags(param.kind) & {"number", "int"}
            if numeric:
                found.add((name, param.name, "number" if "number" in numeric else "int"))
    return found


# (matcher, argument, the number as written in TOML and JSON, the Python call it must equal)
NUMBERS = [
    pytest.param("Float64Exact", "value", "1.5", knownvalue.Float64Exact(1.5), id="Float64Exact-fraction"),
    pytest.param("Float64Exact", "value", "3", knownvalue.Float64Exact(3), id="Float64Exact-integer"),
    pytest.param("Float64Exact", "value", "-2.5e-3", knownvalue.Float64Exact(-0.0025), id="Float64Exact-exponent"),
    pytest.param("Float64Exact", "value", "0.1", knownvalue.Float64Exact(0.1), id="Float64Exact-nearest-float"),
    pytest.param("Float32Exact", "value", "1.1", knownvalue.Float32Exact(1.1), id="Float32Exact-fraction"),
    pytest.param("Float32Exact", "value", "7", knownvalue.Float32Exact(7), id="Float32Exact-integer"),
    pytest.param("Float32Exact", "value", "3.4e38", knownvalue.Float32Exact(3.4e38), id="Float32Exact-near-max"),
    pytest.param("NumberExact", "value", "1.50", knownvalue.NumberExact(Decimal("1.50")), id="NumberExact-exact-decimal"),
    pytest.param("NumberExact", "value", "12345678901234567890.123456789",
                 knownvalue.NumberExact(Decimal("12345678901234567890.123456789")), id="NumberExact-beyond-float-precision"),
    pytest.param("NumberExact", "value", "42", knownvalue.NumberExact(42), id="NumberExact-integer"),
    pytest.param("NumberExact", "value", "1e3", knownvalue.NumberExact(Decimal("1e3")), id="NumberExact-exponent"),
    pytest.param("Int64Exact", "value", "-9223372036854775808", knownvalue.Int64Exact(-(2**63)), id="Int64Exact-min"),
    pytest.param("Int32Exact", "value", "2147483647", knownvalue.Int32Exact(2**31 - 1), id="Int32Exact-max"),
    pytest.param("ListSizeExact", "size", "3", knownvalue.ListSizeExact(3), id="ListSizeExact"),
    pytest.param("MapSizeExact", "size", "0", knownvalue.MapSizeExact(0), id="MapSizeExact"),
    pytest.param("SetSizeExact", "size", "2", knownvalue.SetSizeExact(2), id="SetSizeExact"),
    pytest.param("TupleSizeExact", "size", "1", knownvalue.TupleSizeExact(1), id="TupleSizeExact"),
    pytest.param("StringRegexp", "flags", "2", knownvalue.StringRegexp("^a", flags=2), id="StringRegexp-flags"),
]


@pytest.mark.parametrize("fmt", ["toml", "json"])
@pytest.mark.parametrize(("name", "arg", "number", "expected"), NUMBERS)
def test_every_number_taking_matcher_takes_a_file_number(fmt: str, name: str, arg: str, number: str, expected: Any) -> None:
    regexp = name == "StringRegexp"  # its number is the flags, next to the pattern it needs
    if fmt == "toml":
        text = toml_check(f'{{ type = "{name}", {arg} = {number}' + (', pattern = "^a"' if regexp else "") + " }")
    else:
        text = json_check(f'{{"type": "{name}", "{arg}": {number}' + (', "pattern": "^a"' if regexp else "") + "}")
    (spec,) = parse_checks(text, f"c.{fmt}", REGISTRY)
    built = spec.check.matcher
    assert type(built) is type(expected)
    assert repr(built) == repr(expected)
    assert getattr(built, "value", None) == getattr(expected, "value", None)


def test_the_number_table_covers_every_number_taking_matcher() -> None:
    covered = {(p.values[0], p.values[1]) for p in NUMBERS}
    assert {(name, arg) for name, arg, _ in _number_params(REGISTRY)} == covered


@pytest.mark.parametrize(
    ("name", "number", "message"),
    [
        pytest.param("Int64Exact", "1.5", "matcher.value: expected an integer, found a number", id="int-takes-no-fraction"),
        pytest.param("Int64Exact", "9223372036854775808", "matcher: Int64Exact: Int64Exact value must be an int64 "
                     "(from -9223372036854775808 to 9223372036854775807), got 9223372036854775808", id="int64-range"),
        pytest.param("Float32Exact", "1e39", "matcher: Float32Exact: Float32Exact value is out of the float32 range: 1e+39",
                     id="float32-range"),
        pytest.param("NumberExact", '"1.5"', "matcher.value: expected a number, found a string", id="number-is-not-text"),
    ],
)
def test_numbers_a_matcher_cannot_take_are_named(name: str, number: str, message: str) -> None:
    for fmt, text in (("toml", toml_check(f'{{ type = "{name}", value = {number} }}')),
                      ("json", json_check(f'{{"type": "{name}", "value": {number}}}'))):
        with pytest.raises(ChecksFileError) as info:
            parse_checks(text, f"c.{fmt}", REGISTRY)
        line = ":4" if fmt == "toml" else ""  # the matcher key's line (toml_check writes it fourth)
        assert str(info.value) == f"c.{fmt}{line}: check[0].{message}"


# -- item 16: line numbers are computed once over the text (reading is linear in the number of checks) --------


class _CountingText(str):
    """A str that adds up how many characters ``count`` is asked to scan."""

    scanned = 0

    def count(self, sub: str, start: Any = None, end: Any = None) -> int:
        lo = 0 if start is None else start
        hi = len(self) if end is None else end
        _CountingText.scanned += max(0, hi - lo)
        return super().count(sub, start, end)


def _many_checks(n: int) -> tuple[str, list[int]]:
    """A TOML file of ``n`` checks separated by 0-3 blank or comment lines, and each header's line."""
    parts: list[str] = []
    lines: list[int] = []
    line = 1
    for i in range(n):
        gap = ["", "# note", "", "   # indented note"][: i % 4]
        parts.extend(gap)
        line += len(gap)
        lines.append(line)
        parts.extend(["[[check]]", 'type = "ExpectUnknownValue"', f'address = "null_resource.r{i}"', 'path = "id"'])
        line += 4
    return "\n".join(parts) + "\n", lines


def test_header_lines_scan_each_character_once() -> None:
    text, expected = _many_checks(3000)
    _CountingText.scanned = 0
    assert _header_lines(_CountingText(text)) == expected
    # Recounting from the start for every header (the quadratic way) would scan ~4500 times the text.
    assert _CountingText.scanned <= len(text)


def test_every_check_of_a_large_file_has_its_own_line() -> None:
    text, expected = _many_checks(5000)
    specs = parse_checks(text, "big.toml", REGISTRY)
    assert [s.origin for s in specs] == [f"big.toml:{line} check[{i}]" for i, line in enumerate(expected)]
    last = text.rindex('path = "id"')
    with pytest.raises(ChecksFileError) as info:
        parse_checks(text[:last] + 'path = "id["\n', "big.toml", REGISTRY)
    # The error is at its key's line, the fourth of its check (a line found in that check's block alone).
    assert str(info.value).startswith(f"big.toml:{expected[-1] + 3}: check[4999].path: invalid path 'id['")


def test_json_and_toml_forms_of_the_example_build_equal_number_matchers() -> None:
    doc = {"check": [{"type": "ExpectKnownOutputValue", "address": "x",
                      "matcher": {"type": "Float64Exact", "value": 1.5}}]}
    from_json = parse_checks(json.dumps(doc), "c.json", REGISTRY)
    from_toml = parse_checks(toml_check('{ type = "Float64Exact", value = 1.5 }'), "c.toml", REGISTRY)
    assert repr(from_json[0].check) == repr(from_toml[0].check)
