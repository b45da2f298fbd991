"""Checks files → check objects, through a registry of stand-in classes (any signature the library may grow)."""

from __future__ import annotations

import enum
import json
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from pathlib import Path as FsPath
from typing import Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck.cli._checksfile import ChecksFileError, load_checks_file, parse_checks, spec_from_flag
from plancheck.cli._registry import Registry, Signature, default_registry, discover, parse_kind
from tfjsonpath import New, Path


class _Rec:
    """Equal when of the same type with the same attributes, like the library's frozen values."""

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and vars(self) == vars(other)

    def __hash__(self) -> int:
        return hash(type(self))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({vars(self)!r})"


class Matcher(_Rec):
    """Base of the stand-in matchers."""


class Exact(Matcher):
    """The value is this string."""

    def __init__(self, value: str) -> None:
        self.value = value


class Num(Matcher):
    def __init__(self, value: int | float | Decimal) -> None:
        self.value = value


class Items(Matcher):
    def __init__(self, items: Sequence[Matcher]) -> None:
        self.items = list(items)


class Keys(Matcher):
    def __init__(self, items: Mapping[str, Matcher]) -> None:
        self.items = dict(items)


class ByIndex(Matcher):
    def __init__(self, items: Mapping[int, Matcher]) -> None:
        self.items = dict(items)


class Rx(Matcher):
    def __init__(self, pattern: str | re.Pattern[str]) -> None:
        self.pattern = pattern if isinstance(pattern, str) else pattern.pattern


class Fn(Matcher):
    def __init__(self, fn: Callable[[Any], bool]) -> None:
        self.fn = fn


class Picky(Matcher):
    def __init__(self, value: str) -> None:
        if value == "bad":
            raise ValueError("value must not be 'bad'")
        self.value = value


class Color(enum.Enum):
    NoOp = "NoOp"
    DestroyBeforeCreate = "DestroyBeforeCreate"


class _Check(_Rec):
    def failures(self, plan: Any) -> list[Any]:
        return []

    def CheckPlan(self, plan: Any) -> None:
        return None


class ExpectThing(_Check):
    """Resource ``address`` has a value at ``path`` matching ``matcher``."""

    def __init__(
        self,
        resource_address: str,
        attribute_path: Path,
        known_value: Matcher,
        *,
        deposed: str | None = None,
        color: Color = Color.NoOp,
        strict: bool = False,
        count: int = 1,
        extra: Any = None,
    ) -> None:
        self.address, self.path, self.matcher = resource_address, attribute_path, known_value
        self.deposed, self.color, self.strict, self.count, self.extra = deposed, color, strict, count, extra


class ExpectMany(_Check):
    def __init__(self, address: str, /, *paths: Path) -> None:
        self.address, self.paths = address, paths


class ExpectOutput(_Check):
    def __init__(self, name: str, mode: Literal["a", "b"] = "a") -> None:
        self.name, self.mode = name, mode


class ExpectNothing(_Check):
    pass


REGISTRY = Registry(
    [ExpectThing, ExpectMany, ExpectOutput, ExpectNothing],
    [Exact, Num, Items, Keys, ByIndex, Rx, Fn, Picky],
)


def _toml(text: str) -> list[Any]:
    return [s.check for s in parse_checks(text, "c.toml", REGISTRY)]


VALID = [
    pytest.param(
        '[[check]]\ntype = "ExpectThing"\naddress = "a.b"\npath = \'triggers["k"]\'\nmatcher = { type = "Exact", value = "v" }',
        ExpectThing("a.b", New("triggers").AtMapKey("k"), Exact("v")),
        id="aliases-address-path-matcher",
    ),
    pytest.param(
        '[[check]]\ntype = "ExpectThing"\nresource_address = "a.b"\nattribute_path = ["l", 0]\n'
        'known_value = { type = "Items", items = [{ type = "Exact", value = "x" }, { type = "Num", value = 1.50 }] }',
        ExpectThing("a.b", New("l").AtSliceIndex(0), Items([Exact("x"), Num(Decimal("1.50"))])),
        id="real-names-path-as-array-nested-list-decimal-kept",
    ),
    pytest.param(
        '[[check]]\ntype = "plancheck.ExpectThing"\naddress = "a.b"\npath = "id"\ndeposed = "00ab"\n'
        'color = "destroy_before_create"\nstrict = true\ncount = 3\nextra = { any = [1, "x"] }\n'
        '[check.matcher]\ntype = "knownvalue.Keys"\nitems.k = { type = "Rx", pattern = "^v+$" }\n'
        'items."odd key" = { type = "ByIndex", items = { "2" = { type = "Exact", value = "z" } } }',
        ExpectThing(
            "a.b", New("id"),
            Keys({"k": Rx("^v+$"), "odd key": ByIndex({2: Exact("z")})}),
            deposed="00ab", color=Color.DestroyBeforeCreate, strict=True, count=3, extra={"any": [1, "x"]},
        ),
        id="prefixes-enum-go-name-keywords-maps-int-keys",
    ),
    pytest.param(
        '[[check]]\ntype = "ExpectThing"\naddress = "a"\npath = "x"\nmatcher = { type = "Exact", value = "v" }\ncolor = "no-op"',
        ExpectThing("a", New("x"), Exact("v"), color=Color.NoOp),
        id="enum-spelled-loosely",
    ),
    pytest.param(
        '[[check]]\ntype = "ExpectMany"\naddress = "a.b"\npaths = ["x", \'y["z"]\']',
        ExpectMany("a.b", New("x"), New("y").AtMapKey("z")),
        id="positional-only-and-variadic",
    ),
    pytest.param(
        '[[check]]\ntype = "ExpectOutput"\naddress = "ip"\nmode = "b"\n\n[[check]]\ntype = "ExpectNothing"',
        [ExpectOutput("ip", "b"), ExpectNothing()],
        id="address-alias-for-name-literal-two-checks",
    ),
    pytest.param("", [], id="empty-file"),
]


@pytest.mark.parametrize(("text", "expected"), VALID)
def test_valid_toml_builds_the_checks(text: str, expected: Any) -> None:
    built = _toml(text)
    assert built == (expected if isinstance(expected, list) else [expected])


@pytest.mark.parametrize(("text", "expected"), VALID)
def test_json_form_builds_the_same_checks(text: str, expected: Any) -> None:
    document = tomllib.loads(text, parse_float=Decimal)
    as_json = json.dumps(document, default=float)
    built = [s.check for s in parse_checks(as_json, "c.json", REGISTRY)]
    assert built == _toml(text)


ERRORS = [
    pytest.param("[[check]\ntype = 1", "c.toml:1: invalid TOML: Expected ']]' at the end of an array declaration (at line 1, column 8)", id="toml-syntax"),
    pytest.param('[[check]]\ntype = "ExpectThin"', "c.toml:2: check[0].type: unknown plan check 'ExpectThin'; did you mean ExpectThing, ExpectNothing, ExpectMany? (see tfplancheck --list-checks)", id="unknown-check-suggests"),
    pytest.param('[[check]]\naddress = "a"', "c.toml:1: check[0].type: expected a plan check name (string), found null", id="missing-type"),
    pytest.param('[[check]]\ntype = "ExpectOutput"\nname = "a"\ncolour = "x"', "c.toml:4: check[0].colour: unknown key for ExpectOutput, which takes: name, mode", id="unknown-key"),
    pytest.param('[[check]]\ntype = "ExpectNothing"\n\n[[check]]\ntype = "ExpectThing"\naddress = "a"', "c.toml:4: check[1]: ExpectThing needs 'attribute_path' (path), 'known_value' (matcher)", id="missing-arguments-second-check-line"),
    pytest.param('[[check]]\ntype = "ExpectThing"\naddress = "a"\npath = "x"\nmatcher = { type = "Items", items = [{ type = "Exact", value = "v" }, { type = "Exact", value = 7 }] }', "c.toml:5: check[0].matcher.items[1].value: expected a string, found a number", id="nested-matcher-wrong-type"),
    pytest.param('[[check]]\ntype = "ExpectThing"\naddress = "a"\npath = "x["\nmatcher = { type = "Exact", value = "v" }', "c.toml:4: check[0].path: invalid path 'x[' at offset 2: expected an index or a quoted key, found the end of the text", id="bad-path"),
    pytest.param('[[check]]\ntype = "ExpectThing"\naddress = "a"\npath = 3\nmatcher = { type = "Exact", value = "v" }', "c.toml:4: check[0].path: expected a path (text such as 'triggers[\"k\"]' or an array of keys and indexes), found a number", id="path-not-text"),
    pytest.param('[[check]]\ntype = "ExpectThing"\naddress = "a"\npath = "x"\nmatcher = { type = "Exact", value = "v" }\ncolor = "Blue"', "c.toml:6: check[0].color: expected one of NoOp, DestroyBeforeCreate, found \"Blue\"", id="bad-enum"),
    pytest.param('[[check]]\ntype = "ExpectThing"\naddress = "a"\npath = "x"\nmatcher = "v"', "c.toml:5: check[0].matcher: expected a matcher table such as { type = \"StringExact\", value = \"x\" }, found a string", id="matcher-not-table"),
    pytest.param('[[check]]\ntype = "ExpectThing"\naddress = "a"\npath = "x"\nmatcher = { type = "Exakt", value = "v" }', "c.toml:5: check[0].matcher.type: unknown matcher 'Exakt'; did you mean Exact? (see tfplancheck --list-checks)", id="unknown-matcher"),
    pytest.param('[[check]]\ntype = "ExpectThing"\naddress = "a"\npath = "x"\nmatcher = { type = "Fn", fn = "len" }', "c.toml:5: check[0].matcher.fn: this argument (Callable[[Any], bool]) cannot be given in a checks file", id="unsupported-argument"),
    pytest.param('[[check]]\ntype = "ExpectThing"\naddress = "a"\npath = "x"\nmatcher = { type = "Picky", value = "bad" }', "c.toml:5: check[0].matcher: Picky: value must not be 'bad'", id="constructor-rejects"),
    pytest.param('[[check]]\ntype = "ExpectThing"\naddress = "a"\npath = "x"\nmatcher = { type = "ByIndex", items = { x = { type = "Exact", value = "v" } } }', "c.toml:5: check[0].matcher.items.x: expected an index (a key such as \"0\" or \"2\")", id="index-key-not-a-number"),
    pytest.param('[[check]]\ntype = "ExpectThing"\naddress = "a"\npath = "x"\nmatcher = { type = "Exact", value = "v" }\nextra = { when = 1979-05-27 }', "c.toml:6: check[0].extra.when: expected a JSON value, found a date/time (not a JSON value)", id="toml-date"),
    pytest.param('[[check]]\ntype = "ExpectOutput"\nname = "a"\nmode = "c"', "c.toml:4: check[0].mode: expected one of a|b, found \"c\"", id="literal"),
    pytest.param('[[check]]\ntype = "ExpectMany"\naddress = "a"\npaths = "x"', "c.toml:4: check[0].paths: expected a list of path, found a string", id="variadic-needs-list"),
    # The key's line is found in its check's block alone: the same key in the check before does not count.
    pytest.param('[[check]]\ntype = "ExpectOutput"\nname = "a"\nmode = "a"\n\n[[check]]\ntype = "ExpectOutput"\nname = "b"\n'
                 'mode = "c"', "c.toml:9: check[1].mode: expected one of a|b, found \"c\"", id="key-line-in-its-own-check"),
    # Where the block does not assign the key on one line, the header's line stays: a [check.matcher] sub-table,
    # or the key's words seen twice (inside a multi-line string too).
    pytest.param('[[check]]\ntype = "ExpectThing"\naddress = "a"\npath = "x"\n[check.matcher]\ntype = "Exakt"\nvalue = "v"',
                 "c.toml:1: check[0].matcher.type: unknown matcher 'Exakt'; did you mean Exact? (see tfplancheck --list-checks)",
                 id="key-under-a-sub-table-header-keeps-the-header-line"),
    pytest.param('[[check]]\ntype = "ExpectOutput"\nname = """\nmode = "a"\n"""\nmode = "c"',
                 "c.toml:1: check[0].mode: expected one of a|b, found \"c\"", id="key-seen-twice-keeps-the-header-line"),
    pytest.param('version = 2', "c.toml: version: unknown top-level key; a checks file has only 'check' (a list of tables)", id="unknown-top-level"),
    pytest.param('check = "x"', "c.toml: check: expected a list of tables ([[check]]), found a string", id="check-not-list"),
    pytest.param('check = [1]', "c.toml: check[0]: expected a table with a 'type' key, found a number", id="check-not-table-inline-no-line"),
]


@pytest.mark.parametrize(("text", "message"), ERRORS)
def test_malformed_toml_names_file_line_key_and_expectation(text: str, message: str) -> None:
    with pytest.raises(ChecksFileError) as info:
        parse_checks(text, "c.toml", REGISTRY)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param('{"check": [\n  {"type": "ExpectNothing",}\n]}', "c.json:2: invalid JSON: Expecting property name enclosed in double quotes (at line 2, column 28)", id="json-syntax"),
        pytest.param('[{"type": "ExpectOutput", "name": null}]', "c.json: check[0].name: expected a string, found null", id="bare-array-null"),
        pytest.param('{"check": [{"type": "ExpectThing", "address": "a", "path": "x", "matcher": {"type": "Num", "value": true}}]}', "c.json: check[0].matcher.value: expected a number, found a bool", id="bool-is-not-number"),
        pytest.param('{"check": [{"type": "ExpectThing", "address": "a", "path": "x", "matcher": {"type": "Exact", "value": "v"}, "count": 1.0}]}', "c.json: check[0].count: expected an integer, found a number", id="float-is-not-int"),
        pytest.param('"x"', "c.json: expected a table with a 'check' list, found a string", id="not-a-table"),
    ],
)
def test_malformed_json(text: str, message: str) -> None:
    with pytest.raises(ChecksFileError) as info:
        parse_checks(text, "c.json", REGISTRY)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("source", "text", "message"),
    [
        pytest.param("checks.yaml", "check:\n  - type: ExpectEmptyPlan\n", "checks.yaml: a checks file is TOML (.toml) or JSON (.json), not YAML", id="yaml"),
        pytest.param("ci/Checks.YML", "check: []\n", "ci/Checks.YML: a checks file is TOML (.toml) or JSON (.json), not YAML", id="yml-any-case"),
        pytest.param("checks.yaml.toml", "check:\n", "checks.yaml.toml:1: invalid TOML: Expected '=' after a key in a key/value pair (at line 1, column 6)", id="toml-suffix-read-as-toml"),
    ],
)
def test_a_yaml_checks_file_is_named_as_such(source: str, text: str, message: str) -> None:
    with pytest.raises(ChecksFileError) as info:
        parse_checks(text, source, REGISTRY)
    assert str(info.value) == message


def test_unreadable_and_non_utf8_files(tmp_path: FsPath) -> None:
    with pytest.raises(ChecksFileError, match=r"^.*missing\.toml: cannot read the checks file: No such file or directory$"):
        load_checks_file(str(tmp_path / "missing.toml"), REGISTRY)
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'# caf\xe9\n')
    with pytest.raises(ChecksFileError, match=r"latin\.toml:1: not UTF-8 text \(byte 5\)$"):
        load_checks_file(str(latin), REGISTRY)


def test_origin_records_file_line_and_index() -> None:
    specs = parse_checks('\n[[check]]\ntype = "ExpectNothing"\n\n[[check]]\ntype = "ExpectOutput"\nname = "ip"', "c.toml", REGISTRY)
    assert [(s.origin, s.type, s.address, s.path) for s in specs] == [
        ("c.toml:2 check[0]", "ExpectNothing", None, None),
        ("c.toml:5 check[1]", "ExpectOutput", "ip", None),
    ]


def test_flag_checks_build_and_report_errors() -> None:
    spec = spec_from_flag("--many", 1, {"type": "ExpectMany", "address": "a.b", "paths": ["x"]}, REGISTRY)
    assert (spec.origin, spec.check) == ("--many #1", ExpectMany("a.b", New("x")))
    with pytest.raises(ChecksFileError) as info:
        spec_from_flag("--thing", 2, {"type": "ExpectThing", "address": "a", "path": "[", "matcher": {}}, REGISTRY)
    assert str(info.value).startswith("command line: --thing #2 path: invalid path '['")


@pytest.mark.parametrize(
    ("sig", "text"),
    [
        (ExpectThing, "ExpectThing(resource_address: string, attribute_path: path, known_value: matcher, deposed: string = null, "
         "color: one of NoOp|DestroyBeforeCreate = NoOp, strict: boolean = false, count: integer = 1, extra: any value = null)"),
        (ExpectMany, "ExpectMany(address: string, paths: list of path)"),
        (ByIndex, "ByIndex(items: table by index of matcher)"),
        (Rx, "Rx(pattern: string or regular expression)"),
        (Fn, "Fn(fn: unsupported (Callable[[Any], bool]))"),
        (Num, "Num(value: number)"),
    ],
    ids=lambda v: getattr(v, "__name__", "text"),
)
def test_signatures_are_described_for_list_checks(sig: type, text: str) -> None:
    described = Signature.of(sig, REGISTRY.matcher_classes)
    assert described.describe() == text
    assert described.supported is (sig is not Fn)


def test_kinds_of_bare_types() -> None:
    assert [parse_kind(t).describe() for t in (str, int, bool, float, Path, Any, dict[str, int], tuple[str, int])] == [
        "string", "integer", "boolean", "number", "path", "any value", "table of integer", "unsupported (tuple[str, int])",
    ]


def test_discovery_finds_the_library_checks_and_matchers_and_skips_bases() -> None:
    registry = discover()
    names = set(registry.check_names())
    assert {"ExpectUnknownValue", "ExpectSensitiveValue", "ExpectResourceAction", "ExpectEmptyPlan"} <= names
    assert "PlanCheck" not in names
    assert {"StringExact", "ListExact", "MapExact"} <= set(registry.matcher_names())
    assert "Check" not in registry.matcher_names()
    assert default_registry() is default_registry()


def test_bundled_example_checks_files_build_the_same_checks() -> None:
    examples = FsPath(__file__).resolve().parents[2] / "examples" / "null"
    registry = default_registry()
    from_toml = load_checks_file(str(examples / "checks.toml"), registry)
    from_json = load_checks_file(str(examples / "checks.json"), registry)
    assert [s.check for s in from_toml] == [s.check for s in from_json]
    assert len(from_toml) >= 8
    assert {s.type for s in from_toml} >= {"ExpectUnknownValue", "ExpectSensitiveValue", "ExpectResourceAction", "ExpectKnownValue"}


_steps = st.lists(
    st.one_of(st.text(min_size=0, max_size=8), st.integers(min_value=0, max_value=10**6)), min_size=1, max_size=6
).filter(lambda steps: isinstance(steps[0], str))


@settings(max_examples=200, deadline=None)
@given(_steps)
def test_any_path_written_in_text_form_reads_back_equal(steps: list[str | int]) -> None:
    path = Path().join(*steps)
    text = '[[check]]\ntype = "ExpectMany"\naddress = "a.b"\npaths = [' + json.dumps(path.to_text(), ensure_ascii=False) + "]"
    (spec,) = parse_checks(text, "c.toml", REGISTRY)
    assert spec.check == ExpectMany("a.b", path)
    as_array = parse_checks(json.dumps({"check": [{"type": "ExpectMany", "address": "a.b", "paths": [steps]}]}),
                            "c.json", REGISTRY)
    assert as_array[0].check == spec.check
