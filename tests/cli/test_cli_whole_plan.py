"""Whole-plan checks from checks files: selectors as tables or globs, WARN lines, warnings in JSON, located errors."""

from __future__ import annotations

import json
import sys
from functools import partial
from pathlib import Path

import clirun
import pytest

from plancheck.cli._checksfile import ChecksFileError, parse_checks
from plancheck.cli._registry import default_registry

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "checks"))
from whole_plan_support import KEY_SECRET, SECRET, plan_document  # noqa: E402

REGISTRY = default_registry()

CHECKS = """\
[[check]]
type = "ExpectEachKnownValue"
selector = { type = "aws_s3_bucket", module = "" }
path = 'tags["team"]'
matcher = { type = "StringExact", value = "platform" }
unknown = "warn"

[[check]]
type = "ExpectEachKnownValue"
selector = "module.net.*"
path = "id"
matcher = { type = "StringRegexp", pattern = "^n" }
unknown = "pass"

[[check]]
type = "ExpectNoReplacements"
except = ["aws_instance.*"]

[[check]]
type = "ExpectNoDestroys"
except_ = { type = "aws_s3_bucket" }

[[check]]
type = "ExpectActionCounts"
create = 7
replace = 1
noop = 2

[[check]]
type = "ExpectCount"
selector = { mode = "data" }
n = 1

[[check]]
type = "ExpectEachUnknownValue"
selector = { address = "aws_s3_bucket.[*]", allow_empty = true }
path = "id"

[[check]]
type = "ExpectNoDrift"

[[check]]
type = "ExpectEachSensitiveValue"
selector = { type = "aws_s3_bucket", action = ["create", "update"] }
path = 'tags["team"]'
unknown = "warn"
"""

EACH_KNOWN_FAILED = (
    "4 of 9 failed: aws_s3_bucket.b: expected value \"platform\" for StringExact check, got: \"data\"; "
    'aws_s3_bucket.d: expected string value for StringExact check, got: null (tags is null); expected "platform"; '
    'aws_s3_bucket.e: value is not present (no key "team" in an object with 0 keys at tags); expected "platform"; '
    "aws_s3_bucket.s: expected value (sensitive) for StringExact check, got: (sensitive)"
)


#: Every run (stdin empty, PATH empty) shows no planted secret.
cli = partial(clirun.cli, never=(SECRET, KEY_SECRET))


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plan.json").write_text(json.dumps(plan_document()), "utf-8")
    (tmp_path / "checks.toml").write_text(CHECKS, "utf-8")
    return tmp_path


def test_whole_plan_checks_from_a_checks_file_print_warn_lines(files: Path) -> None:
    r = cli("plan.json", "--checks", "checks.toml")
    assert (r.code, r.err) == (1, "")
    assert r.out.splitlines() == [
        "FAIL  ExpectEachKnownValue: Resources(type='aws_s3_bucket', module=''): tags[\"team\"]: " + EACH_KNOWN_FAILED,
        "WARN  ExpectEachKnownValue: Resources(type='aws_s3_bucket', module=''): tags[\"team\"]: 3 of 9 unknown until "
        'apply: aws_s3_bucket.c (tags), aws_s3_bucket.f (tags["team"]), data.aws_s3_bucket.lookup (tags)',
        "FAIL  ExpectNoDestroys: aws_instance.web: expected no destroy, but it is replaced: action(s) [delete create] "
        "(replace_because_cannot_update)",
        "FAIL  ExpectEachSensitiveValue: Resources(type='aws_s3_bucket', action=(ResourceAction.Create, "
        "ResourceAction.Update)): tags[\"team\"]: 5 of 8 failed: aws_s3_bucket.a: it is not sensitive; it is known: "
        '"platform"; aws_s3_bucket.b: it is not sensitive; it is known: "data"; aws_s3_bucket.d: it is not sensitive; '
        'it is null (tags is null); aws_s3_bucket.e: it is not present (no key "team" in an object with 0 keys at '
        'tags); aws_s3_bucket.k["(sensitive)"]: it is not sensitive; it is known: "platform"',
        "WARN  ExpectEachSensitiveValue: Resources(type='aws_s3_bucket', action=(ResourceAction.Create, "
        "ResourceAction.Update)): tags[\"team\"]: 2 of 8 unknown until apply: aws_s3_bucket.c (tags), "
        'aws_s3_bucket.f (tags["team"])',
        "PASS  ExpectEachKnownValue: Resources(address='module.net.*'): id",
        "PASS  ExpectNoReplacements",
        "PASS  ExpectActionCounts",
        "PASS  ExpectCount: Resources(mode='data')",
        "PASS  ExpectEachUnknownValue: Resources(address='aws_s3_bucket.[*]', allow_empty=True): id",
        "PASS  ExpectNoDrift",
        "9 checks in plan.json: 6 passed, 3 failed, 2 warnings",
    ]


def test_warnings_are_printed_with_quiet_and_a_warning_alone_passes(files: Path) -> None:
    (files / "warn.toml").write_text(
        '[[check]]\ntype = "ExpectEachKnownValue"\nselector = "aws_s3_bucket.?"\npath = "id"\n'
        'matcher = { type = "NotNull" }\nunknown = "warn"\n', "utf-8")
    r = cli("plan.json", "--checks", "warn.toml", "--quiet")
    assert r.code == 0
    assert r.out.splitlines() == [
        "WARN  ExpectEachKnownValue: Resources(address='aws_s3_bucket.?'): id: 7 of 8 unknown until apply: "
        "aws_s3_bucket.a (id), aws_s3_bucket.c (id), aws_s3_bucket.d (id), aws_s3_bucket.e (id), aws_s3_bucket.f (id), "
        'aws_s3_bucket.k["(sensitive)"] (id), aws_s3_bucket.s (id)']
    assert cli("plan.json", "--checks", "warn.toml").out.splitlines()[-1] == (
        "1 check in plan.json: 1 passed, 0 failed, 1 warning")


def test_json_output_carries_the_warnings(files: Path) -> None:
    doc = cli("plan.json", "--checks", "checks.toml", "--format", "json").json()
    assert doc["summary"] == {"total": 9, "passed": 6, "failed": 3, "warned": 0, "errors": 0, "warnings": 2,
                              "waived": 0, "known": 0}
    first = doc["results"][0]
    assert (first["check"], first["address"], first["path"], first["status"]) == (
        "ExpectEachKnownValue", "Resources(type='aws_s3_bucket', module='')", 'tags["team"]', "fail")
    assert first["warnings"] == [{
        "address": "Resources(type='aws_s3_bucket', module='')", "path": 'tags["team"]',
        "message": '3 of 9 unknown until apply: aws_s3_bucket.c (tags), aws_s3_bucket.f (tags["team"]), '
                   "data.aws_s3_bucket.lookup (tags)"}]
    assert [len(r["warnings"]) for r in doc["results"]] == [1, 0, 0, 0, 0, 0, 0, 0, 1]
    assert doc["results"][3]["failures"][0]["address"] == "aws_instance.web"


def test_json_and_toml_checks_files_build_the_same_checks() -> None:
    document = {"check": [
        {"type": "ExpectEachKnownValue", "selector": {"type": "aws_s3_bucket", "module": ""}, "path": 'tags["team"]',
         "matcher": {"type": "StringExact", "value": "platform"}, "unknown": "warn"},
        {"type": "ExpectNoReplacements", "except": ["aws_instance.*"]},
    ]}
    from_json = parse_checks(json.dumps(document), "c.json", REGISTRY)
    from_toml = parse_checks(CHECKS, "c.toml", REGISTRY)
    assert [s.check for s in from_json] == [from_toml[0].check, from_toml[2].check]


ERRORS = [
    ("unknown-selector-field", 'selector = { tpye = "aws_s3_bucket" }',
     "c.toml:4: check[0].selector.tpye: unknown selector field 'tpye'; did you mean 'type'? (a selector takes: "
     "type, module, address, mode, provider, action, allow_empty)"),
    ("bad-glob", 'selector = "aws_s3_bucket.x["',
     "c.toml:4: check[0].selector: Resources: address 'aws_s3_bucket.x[' is not a valid pattern: '[' at offset 15 is "
     "never closed"),
    ("bad-glob-in-a-table", 'selector = { module = "module.net[x]" }',
     "c.toml:4: check[0].selector.module: Resources: module 'module.net[x]' is not a valid pattern: [x] at offset 10 "
     'is neither [N], ["key"] nor [*]'),
    ("bad-action-name", 'selector = { action = "crate" }',
     "c.toml:4: check[0].selector.action: Resources: action 'crate' is not a ResourceAction; did you mean Create? "
     "(one of NoOp, Create, Read, Update, Destroy, DestroyBeforeCreate, CreateBeforeDestroy, Replace, Forget, "
     "CreateThenForget, ForgetThenCreate)"),
    ("bad-action-type", "selector = { action = 3 }",
     "c.toml:4: check[0].selector.action: expected an action name or a list of them, found a number"),
    ("bad-mode", 'selector = { mode = "resource" }',
     "c.toml:4: check[0].selector.mode: Resources: mode must be 'managed' or 'data', got 'resource'"),
    ("allow-empty-not-bool", 'selector = { type = "x", allow_empty = "yes" }',
     "c.toml:4: check[0].selector.allow_empty: expected a boolean, found a string"),
    ("selector-wrong-type", "selector = 3",
     "c.toml:4: check[0].selector: expected a selector: an address glob such as \"aws_s3_bucket.*\" or a table such as "
     '{ type = "aws_s3_bucket", module = "module.net.*" } (or, for action invocations, '
     '{ actions = "action.aws_lambda_invoke.*" }), found a number'),
    ("selector-field-wrong-type", "selector = { type = 3 }",
     "c.toml:4: check[0].selector.type: expected a string, found a number"),
    ("bad-unknown", 'selector = "a.*"\nunknown = "wran"',
     "c.toml:5: check[0].unknown: expected one of fail|pass|warn, found \"wran\" (did you mean 'warn'?)"),
    ("unknown-not-a-string", 'selector = "a.*"\nunknown = true',
     "c.toml:5: check[0].unknown: expected one of fail|pass|warn, found a bool"),
    ("misspelt-argument", 'selectr = "a.*"',
     "c.toml:4: check[0].selectr: unknown key for ExpectEachNullValue, which takes: selector, path, unknown; "
     "did you mean 'selector'?"),
    ("missing-selector", "",
     "c.toml:1: check[0]: ExpectEachNullValue needs 'selector' (selector of resources or actions)"),
]


@pytest.mark.parametrize(("body", "message"), [r[1:] for r in ERRORS], ids=[r[0] for r in ERRORS])
def test_a_bad_entry_is_a_located_error(body: str, message: str) -> None:
    text = f'[[check]]\ntype = "ExpectEachNullValue"\npath = "id"\n{body}\n'
    with pytest.raises(ChecksFileError) as info:
        parse_checks(text, "c.toml", REGISTRY)
    assert str(info.value) == message


OTHER_ERRORS = [
    ("except-item-wrong-type", '[[check]]\ntype = "ExpectNoDestroys"\nexcept = ["a.*", 3]\n',
     "c.toml:3: check[0].except[1]: expected a selector: an address glob such as \"aws_s3_bucket.*\" or a table such "
     'as { type = "aws_s3_bucket", module = "module.net.*" }, found a number'),
    ("except-unknown-field", '[[check]]\ntype = "ExpectNoReplacements"\nexcept = { adress = "a.*" }\n',
     "c.toml:3: check[0].except.adress: unknown selector field 'adress'; did you mean 'address'? (a selector takes: "
     "type, module, address, mode, provider, action, allow_empty)"),
    ("counts-bad-action-name", '[[check]]\ntype = "ExpectActionCounts"\ncrate = 1\n',
     "c.toml:3: check[0].crate: unknown key for ExpectActionCounts, which takes: create, update, delete, replace, "
     "noop, read, forget, invoke; did you mean 'create'?"),
    ("counts-wrong-type", '[[check]]\ntype = "ExpectActionCounts"\ncreate = "1"\n',
     "c.toml:3: check[0].create: expected an integer, found a string"),
    ("counts-negative", '[[check]]\ntype = "ExpectActionCounts"\ncreate = -1\n',
     "c.toml:1: check[0]: ExpectActionCounts: create must be >= 0, got -1"),
    ("counts-none-given", '[[check]]\ntype = "ExpectActionCounts"\n',
     "c.toml:1: check[0]: ExpectActionCounts: give at least one count (create, update, delete, replace, noop, read, "
     "forget, invoke)"),
    ("count-n-missing", '[[check]]\ntype = "ExpectCount"\nselector = "a.*"\n',
     "c.toml:1: check[0]: ExpectCount needs 'n' (integer)"),
    ("drift-path-bad", '[[check]]\ntype = "ExpectDrift"\naddress = "a.b"\npath = "a..b"\n',
     "c.toml:4: check[0].path: invalid path 'a..b' at offset 2: expected a key of letters, digits and '_' after '.' "
     "(quote other keys as [\"...\"]), found '.'"),
]


@pytest.mark.parametrize(("text", "message"), [r[1:] for r in OTHER_ERRORS], ids=[r[0] for r in OTHER_ERRORS])
def test_change_scope_entries_with_bad_arguments_are_located(text: str, message: str) -> None:
    with pytest.raises(ChecksFileError) as info:
        parse_checks(text, "c.toml", REGISTRY)
    assert str(info.value) == message


def test_a_bad_checks_file_exits_2_without_a_traceback(files: Path) -> None:
    (files / "bad.toml").write_text('[[check]]\ntype = "ExpectEachNullValue"\npath = "id"\nselector = { tpye = "x" }\n',
                                    "utf-8")
    r = cli("plan.json", "--checks", "bad.toml")
    assert (r.code, r.out) == (2, "")
    assert r.err.startswith("tfplancheck: error: bad.toml:4: check[0].selector.tpye: unknown selector field 'tpye'")
    doc = cli("plan.json", "--checks", "bad.toml", "--format", "json").json()
    assert doc["error"]["kind"] == "checks"
