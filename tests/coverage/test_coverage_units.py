"""The pieces of ``--tf-cov`` on their own: the block scan, instance keys, what a check addresses, plans older
than Terraform 1.5 (conditions "not available"), data files refused with typed errors, and ``coverage combine``'s
bad input."""

from __future__ import annotations

import io
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from coverage_support import TREE, tree_plan

from plancheck import (
    ExpectEachKnownValue,
    ExpectKnownOutputValueAtPath,
    ExpectNoDestroys,
    ExpectResourceReplacePaths,
    Plan,
    Resources,
)
from plancheck import knownvalue as kv
from plancheck._plugin.coverage.data import UNKNOWN_ROOT, CoverageData, CoverageDataError, config_address
from plancheck._plugin.coverage.report import json_report, term_lines
from plancheck._plugin.coverage.scan import ScanError, scan_text
from plancheck._plugin.coverage.session import targets
from plancheck.cli import run
from tfjsonpath import New


@pytest.mark.parametrize(("text", "expected"), [
    pytest.param('resource "t" "a" {\n  x = "}"\n}\n', [("t.a", 1, 3, ())], id="brace-in-string"),
    pytest.param('resource "t" "a" {\n  x = <<-EOT\n  }\n  EOT\n}\n', [("t.a", 1, 5, ())], id="heredoc"),
    pytest.param('# resource "t" "b" {\nresource "t" "a" { # }\n}\n', [("t.a", 2, 3, ())], id="comments"),
    pytest.param('data "t" "a" {\n  lifecycle {\n    postcondition {\n      condition = true\n    }\n  }\n}\n',
                 [("data.t.a", 1, 7, (("postcondition", 1),))], id="data-postcondition"),
    pytest.param('output "o" {\n  value = { a = 1 }\n  precondition {\n    condition = true\n  }\n}\n',
                 [("output.o", 1, 6, (("precondition", 1),))], id="output-precondition-and-object"),
    pytest.param('check "c" {\n  data "t" "d" {}\n  assert {\n    condition = true\n  }\n  assert {\n'
                 '    condition = false\n  }\n}\n', [("check.c", 1, 9, (("assert", 2),))], id="check-two-asserts"),
    pytest.param('locals {\n  a = "${x}-${"}"}"\n}\nmodule "m" {\n  source = "./m"\n}\n', [("module.m", 4, 6, ())],
                 id="template-and-module"),
    pytest.param('/* a\n} */ resource "t" "a" { // }\n  /* } */ x = 1 # }\n  /*/ } */\n}\n', [("t.a", 2, 5, ())],
                 id="block-comments-between-and-in-blocks"),
    pytest.param('resource t a {\n}\nvariable "a b" {}\noutput "o\\"p" {}\nresource"t""c"{}\n', [
        ("t.a", 1, 2, ()), ("var.a b", 3, 3, ()), ('output.o\\"p', 4, 4, ()), ("t.c", 5, 5, ()),
    ], id="labels-as-words-with-a-blank-an-escape-and-no-blanks"),
    pytest.param('resource "t" /* } */ "a" {}\nresource "t" "${x}" {}\nresource "t" "" {\n}\nx "a" "b" "c" {}\n',
                 [("t.a", 1, 1, ()), ("t.${x}", 2, 2, ()), ("t.", 3, 4, ())],
                 id="labels-with-a-comment-between-a-template-empty-and-three"),
    # Terraform's names are Unicode identifiers (letters of any script): the scan stopped at the first one.
    pytest.param('locals {\n  größe = 1\n  ключ-2 = 2\n}\nvariable größe {\n  validation {\n    condition = true\n'
                 '  }\n}\n', [("var.größe", 5, 9, (("validation", 1),))], id="unicode-names"),
    pytest.param('\ufeffvariable "pw" {\n  sensitive = true\n}\n', [("var.pw", 1, 3, ())], id="a-byte-order-mark"),
])
def test_block_scan(text: str, expected: list[tuple[str, int, int, tuple[Any, ...]]]) -> None:
    assert [(d.address, d.start, d.end, d.conditions) for d in scan_text(text, "main.tf")] == expected


@pytest.mark.parametrize(("text", "message"), [
    pytest.param('resource "t" "a" {\n  x = "open\n}\n', "main.tf:2: unterminated string", id="string"),
    pytest.param("}\n", "main.tf:1: unexpected }", id="stray-brace"),
    pytest.param("/* open", "main.tf:1: unterminated comment", id="comment"),
    pytest.param('resource "t" "a" {\n  x = 1 /* a */ /* open\n}\n', "main.tf:2: unterminated comment",
                 id="comment-after-a-closed-one"),
    pytest.param('resource "t" "a" {\n', "main.tf:2: block resource opened on line 1 is not closed", id="unclosed"),
])
def test_block_scan_errors(text: str, message: str) -> None:
    with pytest.raises(ScanError) as caught:
        scan_text(text, "main.tf")
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)


def test_instance_keys_are_dropped() -> None:
    assert config_address('module.a["x.y"].module.b[2].t.c["k]"]') == "module.a.module.b.t.c"


@pytest.mark.parametrize(("check", "expected"), [
    pytest.param(ExpectResourceReplacePaths("t.a", [New("x"), New("y").AtSliceIndex(0)]),
                 [("resource", "t.a", "x"), ("resource", "t.a", "y[0]")], id="paths"),
    pytest.param(ExpectKnownOutputValueAtPath("o", New("k"), kv.Null()), [("output", "o", "k")], id="output-path"),
    pytest.param(ExpectEachKnownValue(Resources(module="module.net"), New("input"), kv.NotNull()),
                 [("resource", "module.net.terraform_data.vpc", "input")], id="selector"),
    pytest.param(ExpectNoDestroys(), [], id="whole-plan-check-addresses-nothing"),
])
def test_what_a_check_addresses(check: object, expected: list[tuple[str, str, str | None]]) -> None:
    assert targets(check, Plan.from_dict(tree_plan())) == expected


def test_plans_before_terraform_1_5_say_conditions_not_available(tmp_path: Path) -> None:
    shutil.copytree(TREE, tmp_path / "tree")
    data = CoverageData()
    data.add_plan(Plan.from_dict(tree_plan(version="1.0.3")), tmp_path / "tree", tmp_path)
    report = json_report(data)
    assert [(m["module"], m["conditions_available"]) for m in report["modules"]] == [
        ("tree", False), ("tree/modules/net", False)]
    seen = [c for m in report["modules"] for i in m["items"] for c in i["conditions"] if c["passed"] or c["failed"]]
    assert seen == []
    rows = [line.split() for line in term_lines(data)[3:5]]
    assert [(row[0], row[4]) for row in rows] == [("tree", "n/a"), ("tree/modules/net", "n/a")]


@pytest.mark.parametrize(("document", "message"), [
    # An object or array is named by its kind and size, as the plan and state loaders name it (not "list", "dict").
    pytest.param([], "d.json: $: expected an object, found an array of 0 elements", id="not-an-object"),
    pytest.param({"format": "tfplancheck-coverage-data", "version": 1, "modules": ["m"]},
                 "d.json: $.modules: expected an object, found an array of 1 element", id="modules-array"),
    pytest.param({"format": "tfplancheck-coverage-data", "version": 1, "modules": {"m": {"local": {"a": 1}}}},
                 'd.json: $.modules["m"].local: expected true or false, found an object with 1 key', id="field-object"),
    pytest.param({"format": {}, "version": 1},
                 'd.json: $.format: expected "tfplancheck-coverage-data", found an object with 0 keys', id="format-object"),
    pytest.param({"format": "tfplancheck-coverage-data", "version": 2},
                 "d.json: $.version: expected 1, found 2", id="version"),
    pytest.param({"format": "tfplancheck-coverage-data", "version": 1, "modules": {"m": {"local": "yes"}}},
                 'd.json: $.modules["m"].local: expected true or false, found "yes"', id="field"),
    pytest.param({"format": "tfplancheck-coverage-data", "version": 1, "modules": {"m": {
        "local": True, "checks_available": True, "scan_errors": [], "withheld": {"main.tf": [True]}, "items": {}}}},
        'd.json: $.modules["m"].withheld["main.tf"][0]: expected a line number, found true', id="line-number"),
    *(pytest.param({"format": "tfplancheck-coverage-data", "version": 1, "modules": {"m": {
        "local": True, "checks_available": True, "scan_errors": [], "withheld": {}, "items": {"var.x": {
            "kind": "variable", "planned": True, "actions": [], "asserted": False, "asserted_paths": [],
            "passed": [], "failed": [], "conditions": ["validation:0", key]}}}}},
        f'd.json: $.modules["m"].items["var.x"].conditions[1]: expected a condition such as "validation:0", found {shown}',
        id=f"condition-{name}")
      for name, key, shown in [("empty", "", '""'), ("no-index", "validation", '"validation"'),
                               ("not-a-number", "validation:x", '"validation:x"'),
                               ("past-any-index", "assert:" + "9" * 19, '"assert:' + "9" * 19 + '"')]),
])
def test_bad_data_is_a_typed_error(document: Any, message: str) -> None:
    with pytest.raises(CoverageDataError) as caught:
        CoverageData.from_json(document, "d.json")
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)


#: /dev/full: every write fails with ENOSPC after the open succeeded.
FULL_DISK = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")


@pytest.mark.parametrize(("files", "argv", "message"), [
    # It said "found FileNotFoundError", where every other reader says the system's reason.
    pytest.param({}, ["missing.tfcov"], "tfplancheck: error: missing.tfcov: $: expected a readable coverage data file, "
                 "found No such file or directory", id="missing"),
    pytest.param({"bad.tfcov": "{"}, ["bad.tfcov"], "tfplancheck: error: bad.tfcov: $: expected valid JSON", id="json"),
    # A data file nested deeper than the parser goes was "coverage: unexpected error: RecursionError ... (a bug)".
    pytest.param({"deep.tfcov": "[" * 100_000 + "]" * 100_000}, ["deep.tfcov"],
                 "tfplancheck: error: deep.tfcov: $: expected valid JSON", id="nested-too-deeply"),
    pytest.param({"ok.tfcov": json.dumps({"format": "tfplancheck-coverage-data", "version": 1, "modules": {}})},
                 ["ok.tfcov", "--report", "xml"],
                 "tfplancheck: error: coverage report 'xml': expected term, json:PATH or html:DIR", id="report"),
    # An unwritable --data-file was "coverage: unexpected error: FileNotFoundError: ... (a bug: please report it)".
    pytest.param({"ok.tfcov": json.dumps({"format": "tfplancheck-coverage-data", "version": 1, "modules": {}})},
                 ["ok.tfcov", "--data-file", "ok.tfcov/merged.tfcov"],
                 "tfplancheck: error: ok.tfcov/merged.tfcov: cannot write the data file: Not a directory",
                 id="data-file-unwritable"),
    pytest.param({"ok.tfcov": json.dumps({"format": "tfplancheck-coverage-data", "version": 1, "modules": {}}),
                  "taken": ""},
                 ["ok.tfcov", "--report", "html:taken"],
                 "tfplancheck: error: {tmp}/taken: cannot write the report: Not a directory", id="report-unwritable"),
    # A write that fails after its file opened (a full disk) named no file: "cannot write the report: No space ...".
    pytest.param({"ok.tfcov": json.dumps({"format": "tfplancheck-coverage-data", "version": 1, "modules": {}})},
                 ["ok.tfcov", "--report", "json:/dev/full"],
                 "tfplancheck: error: /dev/full: cannot write the report: No space left on device",
                 id="report-on-a-full-disk", marks=FULL_DISK),
    # A report over a data file it merges replaced the shard with the report.
    pytest.param({"ok.tfcov": json.dumps({"format": "tfplancheck-coverage-data", "version": 1, "modules": {}})},
                 ["ok.tfcov", "--report", "json:ok.tfcov"],
                 "tfplancheck: error: --report ok.tfcov: the file is an input of the run (it would be overwritten)",
                 id="report-over-data"),
    pytest.param({"ok.tfcov": json.dumps({"format": "tfplancheck-coverage-data", "version": 1, "modules": {}})},
                 ["ok.tfcov", "--report", "json:m.tfcov", "--data-file", "m.tfcov"],
                 "tfplancheck: error: --report m.tfcov: the file is written by --data-file too", id="report-over-data-file"),
])
def test_combine_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str], argv: list[str],
                           message: str) -> None:
    monkeypatch.chdir(tmp_path)
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert run(["coverage", "combine", *argv], stdout=out, stderr=err, environ={}) == 2
    assert err.getvalue().splitlines() == [message.replace("{tmp}", str(tmp_path))]
    assert {name: (tmp_path / name).read_text(encoding="utf-8") for name in files} == files  # no input overwritten


@pytest.mark.parametrize(("make", "found"), [
    # Each said the exception's class: "found IsADirectoryError", "found UnicodeDecodeError".
    pytest.param(lambda path: path.mkdir(), "Is a directory", id="a-directory"),
    pytest.param(lambda path: path.write_bytes(b'{"format": "\xff"}'), "not UTF-8 text (byte 12)", id="not-utf-8"),
])
def test_combine_unreadable_data_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make: Callable[[Path], object],
                                      found: str) -> None:
    monkeypatch.chdir(tmp_path)
    make(tmp_path / "d.tfcov")
    out, err = io.StringIO(), io.StringIO()
    assert run(["coverage", "combine", "d.tfcov"], stdout=out, stderr=err, environ={}) == 2
    assert err.getvalue() == f"tfplancheck: error: d.tfcov: $: expected a readable coverage data file, found {found}\n"


@pytest.mark.parametrize(("make", "errors"), [
    # Each said the exception's class: "cannot be read (UnicodeDecodeError)", in the HTML report too.
    pytest.param(lambda path: (path.mkdir(), (path / "main.tf").write_bytes(b'output "o" {\n  value = "\xff"\n}\n')),
                 ["main.tf: cannot be read (not UTF-8 text (byte 24))"], id="not-utf-8"),
    pytest.param(lambda path: None, ["{root}: cannot be read (No such file or directory)"], id="no-directory"),
])
def test_a_module_file_that_cannot_be_read_says_why(tmp_path: Path, make: Callable[[Path], object],
                                                    errors: list[str]) -> None:
    from plancheck._plugin.coverage.data import ModuleData
    from plancheck._plugin.coverage.html import _sources
    from plancheck._plugin.coverage.scan import scan_module

    root = tmp_path / "module"
    make(root)
    shown = [error.replace("{root}", str(root)) for error in errors]
    assert list(scan_module(root).errors) == shown
    if root.is_dir():
        assert "<h3>main.tf</h3><p>cannot be read (not UTF-8 text (byte 24))</p>" in _sources(ModuleData(local=True), root, None)


@pytest.mark.parametrize("minimum", [
    pytest.param("nan", id="nan"), pytest.param("inf", id="inf"), pytest.param("101", id="over-100"),
    pytest.param("-1", id="negative"), pytest.param("lots", id="not-a-number"),
])
def test_combine_fail_under_is_a_percentage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, minimum: str) -> None:
    # nan said "total of 100.00% is less than --fail-under=nan%" and exited 1; -1 could never fail.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ok.tfcov").write_text(json.dumps({"format": "tfplancheck-coverage-data", "version": 1, "modules": {}}))
    out, err = io.StringIO(), io.StringIO()
    assert run(["coverage", "combine", "ok.tfcov", "--fail-under", minimum], stdout=out, stderr=err, environ={}) == 2
    assert err.getvalue().splitlines()[0] == (
        f"tfplancheck: error: argument --fail-under: invalid percentage {minimum!r}: expected a number from 0 to 100")


@pytest.mark.parametrize(("actions", "recorded"), [
    pytest.param(["create"], ["create"], id="create"),
    pytest.param(["create", "delete"], ["replace"], id="create-before-destroy"),
    pytest.param(["forget"], ["forget"], id="forget"),
    # A replacement whose old object is forgotten (lifecycle destroy = false): a create and a forget, as
    # ExpectResourceActions counts it; they were recorded as no action at all.
    pytest.param(["create", "forget"], ["create", "forget"], id="terraform-1.16-create-then-forget"),
    pytest.param(["forget", "create"], ["create", "forget"], id="opentofu-1.12-forget-then-create"),
    pytest.param(["read", "update"], [], id="no-known-action"),
])
def test_the_planned_actions_are_recorded_by_name(actions: list[str], recorded: list[str]) -> None:
    data = CoverageData()
    data.add_plan(Plan.from_dict({"format_version": "1.2", "configuration": {"root_module": {
        "resources": [{"address": "t.a", "mode": "managed", "type": "t", "name": "a"}]}},
        "resource_changes": [{"address": "t.a", "mode": "managed", "type": "t", "name": "a",
                              "change": {"actions": actions}}]}), None, Path("."))
    item = data.modules[UNKNOWN_ROOT].items["t.a"]
    assert (item.planned, sorted(item.actions)) == (True, recorded)


_EPHEMERAL = {"address": "ephemeral.t.p", "mode": "ephemeral", "type": "t", "name": "p"}
_MANAGED = {"address": "t.p", "mode": "managed", "type": "t", "name": "p"}
_CONDITION = {"condition": "${true}", "error_message": "e"}


@pytest.mark.parametrize(("resources", "changes", "checks", "items"), [
    # OpenTofu's configuration lists ephemeral resources (jsonconfig marshalModule): one was a resource item t.p, never
    # planned, lowering the module's percent.
    pytest.param([_EPHEMERAL], [], [], {}, id="opentofu-configuration-lists-an-ephemeral-resource"),
    pytest.param([_EPHEMERAL, _MANAGED], [{**_MANAGED, "change": {"actions": ["create"]}}], [],
                 {"t.p": (True, ["create"], [], [])}, id="opentofu-ephemeral-beside-a-managed-namesake"),
    # Terraform's checks give an ephemeral resource's conditions mode "ephemeral" (jsonchecks objects.go): its failed
    # precondition was the managed namesake's.
    pytest.param([_MANAGED], [{**_MANAGED, "change": {"actions": ["create"]}}],
                 [{"address": {**_EPHEMERAL, "kind": "resource", "to_display": "ephemeral.t.p"}, "status": "fail"}],
                 {"t.p": (True, ["create"], [], [])}, id="terraform-check-of-an-ephemeral-namesake"),
    pytest.param([_MANAGED], [{**_MANAGED, "change": {"actions": ["create"]}}],
                 [{"address": {**_MANAGED, "kind": "resource", "to_display": "t.p"}, "status": "fail"}],
                 {"t.p": (True, ["create"], [], ["precondition:0"])}, id="terraform-check-of-the-managed-resource"),
])
def test_ephemeral_resources_are_no_items(tmp_path: Path, resources: list[dict[str, Any]],
                                          changes: list[dict[str, Any]], checks: list[dict[str, Any]],
                                          items: dict[str, tuple[bool, list[str], list[str], list[str]]]) -> None:
    # The module's files declare what its configuration lists, each block with one precondition.
    blocks = {"ephemeral" if r["mode"] == "ephemeral" else "resource": {"t": {"p": {"lifecycle": {
        "precondition": _CONDITION}}}} for r in resources}
    (tmp_path / "main.tf.json").write_text(json.dumps(blocks), encoding="utf-8")
    data = CoverageData()
    data.add_plan(Plan.from_dict({"format_version": "1.2", "terraform_version": "1.11.0",
                                  "configuration": {"root_module": {"resources": resources}},
                                  "resource_changes": changes, "checks": checks}), tmp_path, tmp_path)
    found = {address: (item.planned, sorted(item.actions), sorted(item.passed), sorted(item.failed))
             for module in data.modules.values() for address, item in module.items.items() if item.kind == "resource"}
    assert found == items


_ONE_MODULE = {"format": "tfplancheck-coverage-data", "version": 1, "modules": {"net": {
    "local": False, "checks_available": True, "scan_errors": [], "withheld": {}, "items": {"terraform_data.a": {
        "kind": "resource", "planned": True, "actions": ["create"], "asserted": True, "asserted_paths": ["input"],
        "conditions": ["precondition:0"], "passed": ["precondition:0"], "failed": []}}}}}


@pytest.mark.parametrize(("data", "written"), [
    pytest.param({"format": "tfplancheck-coverage-data", "version": 1, "modules": {}},
                 '{"format_version": "2", "percent": 100.0, "modules": []}\n', id="no-module"),
    pytest.param(_ONE_MODULE,
                 '{"format_version": "2", "percent": 75.0, "modules": [{"module": "net", "percent": 75.0, '
                 '"conditions_available": true, "items": [{"kind": "resource", "address": "terraform_data.a", '
                 '"planned": true, "actions": ["create"], "assertable": true, "asserted": true, '
                 '"asserted_paths": ["input"], "conditions": [{"kind": "precondition", "index": 0, "passed": true, '
                 '"failed": false}]}]}]}\n', id="one-module"),
])
def test_the_json_report_is_written_compact(tmp_path: Path, data: dict[str, Any], written: str) -> None:
    # One line, as coverage.py's `coverage json` without --pretty-print writes (json.dumps with an indent is pure
    # Python: a quarter of what --tf-cov cost the bench's session); the fields in the contract's order.
    (tmp_path / "data.tfcov").write_text(json.dumps(data), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = run(["coverage", "combine", str(tmp_path / "data.tfcov"), "--report", f"json:{tmp_path / 'tf.json'}"],
               stdout=out, stderr=err, environ={})
    assert (code, err.getvalue()) == (0, "")
    assert (tmp_path / "tf.json").read_text(encoding="utf-8") == written


#: Run in a fresh interpreter where pytest cannot be imported, as in a CI job that only combines the shards' data.
_WITHOUT_PYTEST = """
import io, sys

class NoPytest:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in ("pytest", "_pytest"):
            raise ModuleNotFoundError(f"No module named {name!r}")

sys.meta_path.insert(0, NoPytest())
from plancheck.cli import run
out, err = io.StringIO(), io.StringIO()
code = run(sys.argv[1:], stdout=out, stderr=err, environ={})
print(code, err.getvalue().splitlines()[:1], out.getvalue().splitlines()[:1])
"""


@pytest.mark.parametrize(("argv", "shown"), [
    pytest.param(["coverage", "combine", "ok.tfcov", "--fail-under", "50"],
                 "0 [] ['Terraform coverage: no module was planned']", id="combine"),
    pytest.param(["coverage", "combine", "ok.tfcov", "--fail-under", "nan"],
                 "2 [\"tfplancheck: error: argument --fail-under: invalid percentage 'nan': expected a number from 0 to "
                 "100\"] []", id="bad-minimum"),
])
def test_combine_needs_no_pytest(tmp_path: Path, argv: list[str], shown: str) -> None:
    # pytest is no dependency of the command line: the --fail-under type, read from the plugin's options,
    # imported pytest with them ("unexpected error: ModuleNotFoundError ... (a bug: please report it)").
    import os
    import subprocess
    import sys

    (tmp_path / "ok.tfcov").write_text(json.dumps({"format": "tfplancheck-coverage-data", "version": 1, "modules": {}}))
    done = subprocess.run([sys.executable, "-c", _WITHOUT_PYTEST, *argv], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "80"}, timeout=120)
    assert (done.stdout.strip(), done.stderr) == (shown, "")


_DEFAULT = 'default = "hunter2"'


@pytest.mark.parametrize(("file", "text", "withheld"), [
    pytest.param("main.tf", f'variable "v" {{\n  sensitive = true\n  {_DEFAULT}\n}}\n', (3,), id="tf"),
    pytest.param("main.tf", f'variable "v" {{\n  sensitive = true # why\n  {_DEFAULT}\n}}\n', (3,), id="tf-comment"),
    pytest.param("main.tf", f'variable "v" {{\n  sensitive = (true)\n  {_DEFAULT}\n}}\n', (3,), id="tf-parenthesised"),
    pytest.param("main.tf", f'variable "v" {{\n  {_DEFAULT}\n  sensitive = true /* c */\n}}\n', (2,), id="tf-after"),
    pytest.param("main.tf", f'variable "v" {{\n  sensitive = false # no\n  {_DEFAULT}\n}}\n', (), id="tf-false"),
    pytest.param("main.tf", f'variable "v" {{\n  sensitive = (false)\n  {_DEFAULT}\n}}\n', (), id="tf-false-parens"),
    # A line comment ends on its line: what follows is more of the expression, here true.
    pytest.param("main.tf", f'variable "v" {{\n  sensitive = (false # no\n    || true)\n  {_DEFAULT}\n}}\n', (4,),
                 id="tf-false-then-more-after-a-comment"),
    pytest.param("main.tf.json", '{"variable": {"v": {\n "sensitive": true,\n "default": {\n  "k": "hunter2"}}},\n'
                 ' "output": {"o": {"value": 1}}}\n', (1, 2, 3, 4), id="json"),
    pytest.param("main.tf.json", '{"variable": [{"v": {"sensitive": "true", "default": "hunter2"}}]}', (1,),
                 id="json-array-of-bodies-string-bool"),
    pytest.param("main.tf.json", '{"variable": {"v": {"sensitive": false, "default": "hunter2"}}}', (), id="json-false"),
    pytest.param("main.tf.json", '{"variable": {"v": {"sensitive": true}}}', (), id="json-no-default"),
])
def test_a_sensitive_variables_default_is_withheld_however_it_is_spelled(
    tmp_path: Path, file: str, text: str, withheld: tuple[int, ...]
) -> None:
    from plancheck._plugin.coverage.scan import scan_module

    (tmp_path / file).write_text(text, encoding="utf-8")
    variable = scan_module(tmp_path).items[0]
    assert (variable.address, variable.withheld) == ("var.v", withheld)


#: A sensitive variable's default over more than one line: a heredoc line, a list item or a map key may hold an "="
#: of its own, and what stands before it is the secret too. Only the line naming ``default`` keeps its name.
_SPREAD_DEFAULTS = [
    pytest.param('  default = <<EOT\npostgres://app:hunter2@db?sslmode=require\nEOT\n',
                 ["  default = (withheld: a sensitive value)", "(withheld: a sensitive value)",
                  "(withheld: a sensitive value)"], id="heredoc-line-with-equals"),
    pytest.param('  default = [\n    "hunter2=x",\n  ]\n',
                 ["  default = (withheld: a sensitive value)", "(withheld: a sensitive value)",
                  "(withheld: a sensitive value)"], id="list-item-with-equals"),
    pytest.param('  default = {\n    "hunter2" = "x"\n  }\n',
                 ["  default = (withheld: a sensitive value)", "(withheld: a sensitive value)",
                  "(withheld: a sensitive value)"], id="map-key"),
    pytest.param('  default   = "hunter2"\n', ["  default   = (withheld: a sensitive value)"], id="one-line"),
]


@pytest.mark.parametrize(("default", "shown"), _SPREAD_DEFAULTS)
def test_the_html_page_shows_no_piece_of_a_sensitive_default(tmp_path: Path, default: str, shown: list[str]) -> None:
    import html

    from plancheck._plugin.coverage.data import ModuleData
    from plancheck._plugin.coverage.html import _sources
    from plancheck._plugin.coverage.scan import scan_module

    (tmp_path / "main.tf").write_text('variable "v" {\n  sensitive = true\n' + default + "}\n", encoding="utf-8")
    withheld = set(scan_module(tmp_path).items[0].withheld)
    assert withheld == set(range(3, 3 + len(shown)))
    page = _sources(ModuleData(local=True, withheld={"main.tf": withheld}), tmp_path, None)
    assert "hunter2" not in page
    assert [html.escape(line) in page for line in shown] == [True] * len(shown)


def test_a_tf_json_module_is_scanned_through_tfconfig(tmp_path: Path) -> None:
    from plancheck._plugin.coverage.scan import scan_module

    (tmp_path / "main.tf.json").write_text(json.dumps({
        "variable": {"name": {"type": "string", "validation": [{"condition": "${length(var.name) > 1}", "error_message": "s"}]}},
        "resource": {"terraform_data": {"a": {"lifecycle": [{
            "precondition": [{"condition": "${true}", "error_message": "x"}],
            "postcondition": [{"condition": "${true}", "error_message": "y"}]}]}}},
        "check": {"c": {"assert": [{"condition": "${true}", "error_message": "z"}, {"condition": "${true}", "error_message": "w"}]}},
        "output": {"o": {"value": 1, "precondition": [{"condition": "${true}", "error_message": "p"}]}},
    }, indent=1), encoding="utf-8")
    (tmp_path / "broken.tf.json").write_text("{", encoding="utf-8")
    scanned = scan_module(tmp_path)
    assert [(d.kind, d.address, d.file, d.conditions) for d in scanned.items] == [
        ("variable", "var.name", "main.tf.json", (("validation", 1),)),
        ("resource", "terraform_data.a", "main.tf.json", (("precondition", 1), ("postcondition", 1))),
        ("check", "check.c", "main.tf.json", (("assert", 2),)),
        ("output", "output.o", "main.tf.json", (("precondition", 1),)),
    ]
    assert [error.split(":")[0] for error in scanned.errors] == ["broken.tf.json"]


def test_a_tf_json_file_only_opentofu_reads_is_scanned(tmp_path: Path) -> None:
    """The scan cannot tell which tool wrote the plan: a file Terraform's schema refuses (a module call's lifecycle is
    OpenTofu's) is read as OpenTofu reads it, where it became a scan error once the reader refused it for Terraform
    (with the reader's change alone, main.tf.json's items were missing); one neither reads is Terraform's error.
    Before both changes, a provider's count was read as a provider argument (no scan error)."""
    from plancheck._plugin.coverage.scan import scan_module

    files: dict[str, Any] = {
        "main.tf.json": {
            "module": {"m": {"source": "./m", "lifecycle": {"enabled": "${var.on}"}}},
            "resource": {"t": {"a": {"lifecycle": {
                "enabled": False, "precondition": {"condition": "${true}", "error_message": "x"}}}}},
        },
        "actions.tf.json": {"action": {"local_command": {"go": {"config": {}}}}, "output": {"o": {"value": 1}}},
        "broken.tf.json": {"provider": {"aws": {"count": 2}}},
    }
    for name, document in files.items():
        (tmp_path / name).write_text(json.dumps(document), encoding="utf-8")
    scanned = scan_module(tmp_path)
    assert [(d.kind, d.address, d.file, d.conditions) for d in scanned.items] == [
        ("output", "output.o", "actions.tf.json", ()),
        ("module", "module.m", "main.tf.json", ()),
        ("resource", "t.a", "main.tf.json", (("precondition", 1),)),
    ]
    # Neither tool reads it: the error is Terraform's reader's.
    assert [e.replace(f"{tmp_path}/", "") for e in scanned.errors] == [
        'broken.tf.json:1: broken.tf.json:1:23: $.provider["aws"]["count"]: expected an argument or block of provider '
        '"aws" other than one Terraform reserves (Terraform: Reserved argument name in provider block), found "count"'
    ]


def _grown(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` changed in place, as a test may change a fixture's document between plans: one resource more."""
    document["configuration"]["root_module"]["resources"].append(
        {"address": "terraform_data.extra", "mode": "managed", "type": "terraform_data", "name": "extra"})
    document["resource_changes"].append({"address": "terraform_data.extra", "mode": "managed", "type": "terraform_data",
                                         "name": "extra", "change": {"actions": ["create"]}})
    return document


@pytest.mark.parametrize("steps", [
    pytest.param(["web", "web"], id="one-configuration-twice"),
    pytest.param(["web", "registry", "web"], id="a-module-call-comes-and-goes"),
    pytest.param(["old-terraform", "web"], id="outcomes-available-or-not"),
    pytest.param(["web", "grown"], id="the-same-document-changed-in-place"),
    pytest.param(["web", "subclass", "subclass"], id="a-dict-subclass-is-walked-each-time"),
])
def test_plans_of_one_module_read_as_each_alone(tmp_path: Path, steps: list[str]) -> None:
    # A plan's configuration equal to the last one walked is not walked again: the data must be what reading each
    # plan into data of its own, then merging them all, gives.
    class Subclass(dict[str, Any]):
        pass

    shutil.copytree(TREE, tmp_path / "tree")
    shared = tree_plan()
    made = {"web": lambda: shared, "registry": lambda: tree_plan(registry=True),
            "old-terraform": lambda: {k: v for k, v in tree_plan(version="1.0.3").items() if k != "checks"}, "grown": lambda: _grown(shared),
            "subclass": lambda: {**shared, "configuration": Subclass(shared["configuration"])}}
    data, alone = CoverageData(), CoverageData()
    for step in steps:
        plan = Plan.from_dict(made[step]())
        data.add_plan(plan, tmp_path / "tree", tmp_path, [("resource", "terraform_data.app", "input")])
        each = CoverageData()
        each.add_plan(plan, tmp_path / "tree", tmp_path, [("resource", "terraform_data.app", "input")])
        alone.merge(each)
    assert data.to_json() == alone.to_json()


class _RaisingEquality:
    """A value no JSON document holds (a document built in code, not validated), whose ``==`` raises."""

    def __eq__(self, other: object) -> bool:
        raise ValueError("cannot compare")

    __hash__ = None  # type: ignore[assignment]


def _orphan(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with a change of a resource its configuration does not declare in ``module.net`` (an orphan)."""
    document["resource_changes"].append({"address": "module.net.terraform_data.extra", "module_address": "module.net",
                                         "mode": "managed", "type": "terraform_data", "name": "extra",
                                         "change": {"actions": ["delete"]}})
    document["checks"].append({"address": {"kind": "resource", "name": "extra", "module": "module.net",
                                           "mode": "managed", "type": "terraform_data"}, "status": "pass"})
    return document


def _other_root(document: dict[str, Any]) -> dict[str, Any]:
    """A plan of another root (``tree/other``) calling the same child directory as ``net``, whose configuration of
    it declares ``terraform_data.extra`` too."""
    call = document["configuration"]["root_module"]["module_calls"]["net"]
    call["source"] = "../modules/net"
    call["module"]["resources"].append({"address": "terraform_data.extra", "mode": "managed",
                                        "type": "terraform_data", "name": "extra"})
    return document


_TARGETS = [("resource", "terraform_data.app", "input"), ("resource", "module.net.terraform_data.extra", "input")]


@pytest.mark.parametrize("steps", [
    pytest.param(["web", "web", "web"], id="one-plan-three-times"),
    pytest.param(["orphan", "other-root", "orphan"], id="an-item-another-root-declares-later"),
    pytest.param(["web", "actions-changed-in-place", "web"], id="the-changes-changed-in-place"),
    pytest.param(["web", "checks-changed-in-place", "web"], id="the-checks-changed-in-place"),
    pytest.param(["web", "outputs-renamed-in-place", "outputs-renamed-in-place"], id="the-output-names-changed-in-place"),
    pytest.param(["web", "raising", "raising", "web"], id="a-value-whose-equality-raises"),
    # The tree's files show "10.0.0.0/16" (module.net's cidr): a plan marking it withholds that line.
    pytest.param(["web", "web", "change-marked-in-place", "web"], id="a-change-marked-in-place"),
    pytest.param(["web", "web", "output-marked-in-place"], id="an-output-marked-in-place"),
])
def test_plans_read_as_without_what_the_walks_keep(tmp_path: Path, steps: list[str]) -> None:
    # What a walk keeps (its configuration, the changes and checks read, the targets found) skips reading a plan
    # again: the data must be what reading each plan after forgetting every walk gives.
    shutil.copytree(TREE, tmp_path / "tree")
    (tmp_path / "tree" / "other").mkdir()
    shared = tree_plan()
    made = {"web": lambda: shared, "orphan": lambda: _orphan(tree_plan()), "other-root": lambda: _other_root(tree_plan())}

    def changed_actions() -> dict[str, Any]:
        shared["resource_changes"][0]["change"]["actions"][:] = ["update"]
        return shared

    def changed_checks() -> dict[str, Any]:
        shared["checks"][2]["status"] = shared["checks"][2]["instances"][0]["status"] = "fail"
        return shared

    def raising() -> dict[str, Any]:
        document = tree_plan()
        document["configuration"]["root_module"]["variables"]["name"]["default"] = _RaisingEquality()
        document["resource_changes"][0]["change"]["before"] = _RaisingEquality()
        return document

    def renamed_outputs() -> dict[str, Any]:
        # The output change renamed to a name the configuration does not declare (the names read are not kept: one
        # found no item), and back.
        outputs = shared["output_changes"]
        old, new = ("app_id", "undeclared") if "app_id" in outputs else ("undeclared", "app_id")
        outputs[new] = outputs.pop(old)
        return shared

    def marked_change() -> dict[str, Any]:
        # The resource changes read as the last plan's but for one mark (a session's plans repeat their marks).
        shared["resource_changes"][-1]["change"]["after_sensitive"] = {"input": True}
        return shared

    def marked_output() -> dict[str, Any]:
        # The resource changes read as the last plan's: only the rest of the plan holds the mark.
        shared["output_changes"]["app_id"].update(after="10.0.0.0/16", after_unknown=False, after_sensitive=True)
        return shared

    made.update({"change-marked-in-place": marked_change, "output-marked-in-place": marked_output})
    made.update({"actions-changed-in-place": changed_actions, "checks-changed-in-place": changed_checks,
                 "outputs-renamed-in-place": renamed_outputs, "raising": raising})
    kept, forgetting = CoverageData(), CoverageData()
    for step in steps:
        plan = Plan(made[step]())  # built in code: a raising value is no JSON (and is not validated)
        directory = tmp_path / "tree" / ("other" if step == "other-root" else "")
        found = [] if step == "other-root" else _TARGETS
        kept.add_plan(plan, directory, tmp_path, found)
        forgetting._walks.clear()
        forgetting.add_plan(plan, directory, tmp_path, found)
    assert kept.to_json() == forgetting.to_json()


_SENSITIVE_TAGS = {"format_version": "1.2", "resource_changes": [{
    "address": "t.a", "mode": "managed", "type": "t", "name": "a", "change": {
        "actions": ["create"], "before": None, "after": {"tags": {"env": "prod", "key": "hunter2-planted-key"}},
        "after_unknown": {}, "before_sensitive": False, "after_sensitive": {"tags": True}}}]}


@pytest.mark.parametrize(("texts", "recorded", "collected"), [
    pytest.param(["input", None, "id"], ["input", None, "id"], False, id="short-paths-collect-no-secret"),
    pytest.param(['tags["hunter2-planted-key"]'], ['tags["(sensitive)"]'], True, id="a-long-secret-is-scrubbed"),
    # A short secret in the path a check was given is a word the user wrote: a failure shows it too.
    pytest.param(['tags["prod"]', "env"], ['tags["prod"]', "env"], True, id="a-short-secret-shows-as-in-a-failure"),
])
def test_path_texts_scrubbed_as_a_failure_shows_them(texts: list[str | None], recorded: list[str | None],
                                                     collected: bool) -> None:
    from plancheck._plugin.coverage.session import _scrubbed

    plan = Plan.from_dict(_SENSITIVE_TAGS)
    found = [("resource", "t.a", text) for text in texts]
    assert [text for _, _, text in _scrubbed(plan, found)] == recorded
    # The plan's secrets (a walk of all of it) are collected only when a text could show one.
    assert ("secrets" in vars(plan)) == collected


def _plan_of(resources: list[dict[str, Any]], planned: list[dict[str, Any]]) -> Plan:
    return Plan.from_dict({"format_version": "1.2", "configuration": {"root_module": {"resources": resources}},
                           "planned_values": {"root_module": {"resources": planned}}})


_MANAGED = {"address": "t.a", "mode": "managed", "type": "t", "name": "a"}
_DATA = {"address": "data.t.d", "mode": "data", "type": "t", "name": "d"}


@pytest.mark.parametrize(("plans", "planned"), [
    pytest.param([([_MANAGED, _DATA], [_MANAGED, _DATA])], True, id="read-while-planning"),
    pytest.param([([_MANAGED], [_MANAGED]), ([_MANAGED, _DATA], [_MANAGED, _DATA])], True,
                 id="declared-by-a-later-plan-of-the-module"),
    pytest.param([([_MANAGED, _DATA], [_MANAGED])], False, id="not-in-the-planned-values"),
])
def test_a_data_source_in_the_planned_values_is_planned(
    plans: list[tuple[list[dict[str, Any]], list[dict[str, Any]]]], planned: bool,
) -> None:
    # Whether a module has a data source item is asked once per count of its items: a module that had none when its
    # first plan was read (a plan without a directory: every such plan is one module's) finds the one a later plan
    # declares.
    data = CoverageData()
    for resources, values in plans:
        data.add_plan(_plan_of(resources, values), None, Path("."))
    item = data.modules["(unknown directory)"].items["data.t.d"]
    assert (item.kind, item.planned) == ("data", planned)


def test_a_module_key_from_outside_cannot_forge_or_restyle_a_line_of_the_term_report() -> None:
    # A directory name (or a registry source) is the module's key: Terraform took "./evil\u001b[31mred\nFAKE LINE".
    data = CoverageData()
    key = "evil\x1b[31mred\nFAKE LINE"
    data.module(key).item("terraform_data.z", "resource").planned = True
    assert term_lines(data) == [
        "Terraform coverage: 1 module",
        "Module                      Items  Planned  Asserted  Conditions  Percent",
        "-------------------------------------------------------------------------",
        "evil\\x1b[31mred\\nFAKE LINE      1        1       0/1         0/0   50.00%",
        "-------------------------------------------------------------------------",
        "TOTAL                           1        1       0/1         0/0   50.00%",
        "Missed:",
        "  evil\\x1b[31mred\\nFAKE LINE: not asserted: terraform_data.z",
    ]


_PASSPHRASE = "hunter2-TOFU25"


@pytest.mark.parametrize(("file", "text", "withheld"), [
    pytest.param("main.tf", 'terraform {\n  encryption {\n    key_provider "pbkdf2" "k" {\n'
                 f'      passphrase = "{_PASSPHRASE}"\n      key_length = 32\n    }}\n  }}\n}}\n', (4,), id="tf"),
    pytest.param("main.tf", 'terraform {\n  encryption {\n    key_provider "pbkdf2" "k" {\n      passphrase = <<EOT\n'
                 f'{_PASSPHRASE}\nEOT\n    }}\n  }}\n}}\n', (4, 5, 6), id="tf-heredoc"),
    pytest.param("main.tf.json", '{"terraform": {\n  "encryption": {"key_provider": {"pbkdf2": {"k": {\n'
                 f'    "passphrase": "{_PASSPHRASE}"}}}}}}}}\n  }}\n}}\n', (2, 3), id="json-the-encryption-member"),
    pytest.param("main.tf", 'terraform {\n  encryption {\n    method "aes_gcm" "m" {\n'
                 '      keys = key_provider.pbkdf2.k\n    }\n  }\n}\n', None, id="a-reference-is-no-key"),
])
def test_opentofu_encryption_keys_are_withheld(
    tmp_path: Path, file: str, text: str, withheld: tuple[int, ...] | None
) -> None:
    """OpenTofu's literal encryption keys stand in no item, and no plan holds them. Before: shown on the HTML page."""
    from plancheck._plugin.coverage.data import ModuleData
    from plancheck._plugin.coverage.html import _sources
    from plancheck._plugin.coverage.scan import scan_module

    (tmp_path / file).write_text(text, encoding="utf-8")
    scanned = scan_module(tmp_path)
    assert scanned.withheld == (((file, withheld),) if withheld else ())
    page = _sources(ModuleData(local=True, withheld={file: set(withheld or ())}), tmp_path, None)
    assert (_PASSPHRASE in page) is False
    assert ("key_provider.pbkdf2.k" in page) is (withheld is None)


_OUTPUT = 'output "{}" {{\n  value = 1\n}}\n'


@pytest.mark.parametrize(("files", "flavor", "scanned", "items"), [
    pytest.param({"main.tf": _OUTPUT.format("tf"), "main.tofu": _OUTPUT.format("tofu"), "j.tf.json": '{"output": {"jt": {"value": 1}}}',
                  "j.tofu.json": '{"output": {"jo": {"value": 1}}}', "k.tf.json": '{"output": {"k": {"value": 1}}}',
                  "k.tofu": _OUTPUT.format("k2")},
                 None, ("j.tofu.json", "k.tf.json", "k.tofu", "main.tofu"), ["output.jo", "output.k", "output.k2", "output.tofu"],
                 id="tofu-files-hide-their-tf-files-not-across"),
    pytest.param({"main.tf": _OUTPUT.format("tf"), "main.tofu": _OUTPUT.format("tofu")}, "terraform", ("main.tf",),
                 ["output.tf"], id="terraform-reads-no-tofu-file"),
    pytest.param({"main.tf": _OUTPUT.format("tf"), ".old.tofu": _OUTPUT.format("old")}, None, ("main.tf",), ["output.tf"],
                 id="a-hidden-tofu-file-is-no-sign"),
    # A module call's lifecycle is OpenTofu's: an OpenTofu module's JSON is read by OpenTofu's schema.
    pytest.param({"m.tofu.json": '{"module": {"m": {"source": "./m", "lifecycle": {"enabled": false}}}}'}, None,
                 ("m.tofu.json",), ["module.m"], id="tofu-json-by-opentofus-schema"),
])
def test_the_scan_reads_the_files_each_tool_reads(
    tmp_path: Path, files: dict[str, str], flavor: str | None, scanned: tuple[str, ...], items: list[str]
) -> None:
    """OpenTofu (configs/parser_config_dir.go filterTfPathsWithTofuAlternatives): x.tofu hides x.tf, x.tofu.json hides
    x.tf.json; a directory holding a .tofu file is OpenTofu's. Before: .tf and .tf.json files alone, all of them."""
    from plancheck._plugin.coverage.data import ModuleData
    from plancheck._plugin.coverage.html import _sources
    from plancheck._plugin.coverage.scan import scan_module

    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    found = scan_module(tmp_path, flavor)
    assert (found.files, sorted(item.address for item in found.items), found.errors) == (scanned, items, ())
    if flavor is None:
        page = _sources(ModuleData(local=True), tmp_path, None)
        assert [name for name in files if f"<h3>{name}</h3>" in page] == [n for n in files if n in scanned]


@pytest.mark.parametrize("name", ["main.tofu", "main.tofu.json"])
def test_a_tofu_files_line_showing_a_plans_secret_is_withheld(tmp_path: Path, name: str) -> None:
    """The HTML page shows OpenTofu's files now: their lines showing a plan's secret are withheld as a .tf file's.
    Before: .tf and .tf.json files alone were searched."""
    from plancheck._plugin.coverage.data import _lines_showing
    from plancheck._redact import Secrets

    (tmp_path / name).write_text('resource "terraform_data" "a" {\n  input = "hunter2-TOFU25"\n}\n', encoding="utf-8")
    assert _lines_showing(tmp_path, Secrets(["hunter2-TOFU25"])) == {name: {2}}
