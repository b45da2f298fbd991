"""Reading Terraform's JSON diagnostics: verbatim recordings of Terraform 1.0.3 and 1.11.4, and malformed output.

The recordings (tests/fixtures/diagnostics, see its README) are what the runner reads in a step
that checks diagnostics; the rendering is pinned against Terraform's own text output of the same run.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from plancheck.acceptance._diagnostics import read_ui, read_validate

DATA = Path(__file__).resolve().parents[1] / "fixtures" / "diagnostics"
VERSIONS = ["1.0.3", "1.11.4"]

WARNING_TEXT = (
    "\nWarning: Attribute deprecated\n\n  with widget_thing.t,\n"
    '  on main.tf line 8, in resource "widget_thing" "t":\n   8:   color = "red"\n\ncolor is deprecated: use tags\n'
)
ERROR_TEXT = (
    "\nError: Invalid size\n\n  with widget_thing.t,\n"
    '  on main.tf line 9, in resource "widget_thing" "t":\n   9:   size  = -1\n\nsize must be >= 0, got -1\n'
)
# Terraform's own text output (plan -no-color, both versions) of the run recorded in plan-operand-*.jsonl.
OPERAND_TEXT = """
Error: Invalid operand

  on main.tf line 6, in output "o":
   6:   value = var.x + 1
    ├────────────────
    │ var.x is "abc"

Unsuitable value for left operand: a number is required.
"""
FIELDS = [
    ("warning", "Attribute deprecated", "color is deprecated: use tags", "widget_thing.t", "main.tf", 8, 11,
     'resource "widget_thing" "t"', '  color = "red"', 8),
    ("error", "Invalid size", "size must be >= 0, got -1", "widget_thing.t", "main.tf", 9, 11,
     'resource "widget_thing" "t"', "  size  = -1", 9),
]


def fields(reading: object) -> list[tuple[object, ...]]:
    return [(d.severity, d.summary, d.detail, d.address, d.filename, d.line, d.column, d.context, d.code, d.code_line)
            for d in reading.diagnostics]  # type: ignore[attr-defined]


@pytest.mark.parametrize("version", VERSIONS)
def test_validate_json_of_both_versions(version: str) -> None:
    reading = read_validate((DATA / f"validate-{version}.json").read_text(encoding="utf-8"))
    assert fields(reading) == FIELDS
    assert (reading.stdout, reading.stderr, reading.problems) == (WARNING_TEXT, ERROR_TEXT, ())


@pytest.mark.parametrize("version", VERSIONS)
def test_plan_json_lines_of_both_versions(version: str) -> None:
    reading = read_ui((DATA / f"plan-{version}.jsonl").read_text(encoding="utf-8"))
    assert fields(reading) == FIELDS
    # The version line is left out (Terraform's text output has none); errors go with stderr, as there.
    assert (reading.stdout, reading.stderr, reading.problems) == (WARNING_TEXT, ERROR_TEXT, ())


@pytest.mark.parametrize("version", VERSIONS)
def test_a_snippet_with_values_renders_as_terraforms_text(version: str) -> None:
    reading = read_ui((DATA / f"plan-operand-{version}.jsonl").read_text(encoding="utf-8"))
    assert reading.stderr == OPERAND_TEXT
    [diagnostic] = reading.diagnostics
    assert (diagnostic.address, diagnostic.values) == (None, (("var.x", 'is "abc"'),))
    # 1.11.4 reports the summary of the plan it could not make; 1.0.3 does not.
    assert reading.stdout == ("Plan: 0 to add, 0 to change, 0 to destroy.\n" if version == "1.11.4" else "")


def line(**message: object) -> str:
    return json.dumps(message) + "\n"


GOOD = line(type="change_summary", **{"@message": "Plan: 1 to add, 0 to change, 0 to destroy."})
DIAGNOSTIC = {"severity": "warning", "summary": "Deprecated", "detail": "use b"}


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        pytest.param("not json\n", "line 2: not JSON", id="not-json"),
        pytest.param('{"type": "diagnostic", "diagnostic": {"severity": "warn\n', "line 2: not JSON", id="cut-short"),
        pytest.param("[1, 2]\n", "line 2: expected a JSON object, found an array", id="array"),
        pytest.param(line(type=3), "line 2: $.type: expected a string, found a number", id="type-not-a-string"),
        pytest.param(line(type="diagnostic"), "line 2: $.diagnostic: expected an object, found null", id="no-diagnostic"),
        pytest.param(line(type="diagnostic", diagnostic={**DIAGNOSTIC, "severity": "fatal"}),
                     "line 2: $.diagnostic.severity: expected \"error\" or \"warning\", found 'fatal'", id="severity"),
        pytest.param(line(type="diagnostic", diagnostic={"severity": "error"}),
                     "line 2: $.diagnostic.summary: missing", id="no-summary"),
        pytest.param(line(type="diagnostic", diagnostic={**DIAGNOSTIC, "detail": ["x"]}),
                     "line 2: $.diagnostic.detail: expected a string, found an array", id="detail-type"),
        pytest.param(line(type="diagnostic", diagnostic={**DIAGNOSTIC, "address": True}),
                     "line 2: $.diagnostic.address: expected a string, found a bool", id="address-type"),
        pytest.param(line(type="diagnostic", diagnostic={**DIAGNOSTIC, "range": {"filename": "main.tf", "start": {"line": "8"}}}),
                     "line 2: $.diagnostic.range.start.line: expected an integer, found a string", id="range-line"),
        pytest.param(line(type="diagnostic", diagnostic={**DIAGNOSTIC, "snippet": {"values": ["var.x"]}}),
                     "line 2: $.diagnostic.snippet.values[0]: expected an object, found a string", id="snippet-values"),
    ],
)
def test_an_unreadable_line_is_withheld_and_named(text: str, problem: str) -> None:
    reading = read_ui(GOOD + text + GOOD)
    assert reading.problems == (problem,)
    assert reading.stdout == (
        "Plan: 1 to add, 0 to change, 0 to destroy.\n"
        "(withheld: line 2 could not be read, so its secrets are unknown)\n"
        "Plan: 1 to add, 0 to change, 0 to destroy.\n"
    )
    assert reading.diagnostics == ()


def test_lines_terraform_may_print_are_read() -> None:
    text = (
        "\n"   # blank lines are no messages
        + line(type="outputs", outputs={"n": {"sensitive": False, "value": 1e300}}, **{"@message": "Outputs: 1"})
        + '{"type": "outputs", "@message": "Outputs: 1", "outputs": {"n": {"value": 1e5000}}}\n'
        + line(type="log", **{"@message": "a log line"})
        + line(type="diagnostic", diagnostic=DIAGNOSTIC)   # no @message: Terraform always writes one
    )
    reading = read_ui(text)
    assert reading.problems == ()
    assert reading.stdout == "Outputs: 1\nOutputs: 1\na log line\n\nWarning: Deprecated\n\nuse b\n"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        pytest.param("", "$: expected valid JSON, found invalid JSON: Expecting value at line 1 column 1 (character 0)",
                     id="empty"),
        pytest.param('{"valid": true, "diagnostics": []', "$: expected valid JSON, found invalid JSON: Expecting ',' "
                     "delimiter at line 1 column 34 (character 33)", id="cut-short"),
        pytest.param("[]", "$: expected a JSON object, found an array", id="array"),
        pytest.param('{"valid": false, "diagnostics": {}}', "$.diagnostics: expected an array, found an object",
                     id="diagnostics-object"),
        pytest.param('{"valid": false, "diagnostics": [{"severity": "error", "summary": 1}]}',
                     "$.diagnostics[0].summary: expected a string, found a number", id="summary-type"),
    ],
)
def test_an_unreadable_validate_document_is_withheld(text: str, problem: str) -> None:
    reading = read_validate(text)
    assert (reading.diagnostics, reading.problems) == ((), (problem,))
    assert reading.stdout == "(withheld: the output could not be read, so its secrets are unknown)\n"


def test_a_valid_configuration_says_so_as_terraform_does() -> None:
    reading = read_validate('{"format_version": "1.0", "valid": true, "error_count": 0, "warning_count": 0, "diagnostics": []}')
    assert (reading.stdout, reading.stderr) == ("Success! The configuration is valid.\n", "")
