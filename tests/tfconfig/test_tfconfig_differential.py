"""The differential suite: the library reads every recorded case as Terraform 1.11 did (issue #19).

Runs from the recordings (no Terraform needed). Every compared point (verdict, error file and line,
outputs, variables, resources, arguments, constant values, references) must agree, apart from the
deliberate differences listed with their reasons in ``tools.tfjson_agreement.DELIBERATE``.
"""

from __future__ import annotations

import decimal
import json
from pathlib import Path

import pytest

from tools.record_tfjson_differential import case_digest
from tools.tfjson_agreement import CORPUS, DELIBERATE, Point, collect, compare_case, summary

CASES = sorted(p.stem for p in (CORPUS / "recorded").glob("*.json"))


def _recording(case: str) -> dict[str, object]:
    text = (CORPUS / "recorded" / f"{case}.json").read_text(encoding="utf-8")
    data: dict[str, object] = json.loads(text, parse_float=decimal.Decimal)
    return data


def _show(points: list[Point]) -> list[str]:
    return [f"{p.what}: terraform {p.terraform}, library {p.library}" for p in points]


@pytest.mark.parametrize("case", CASES)
def test_case_agrees_with_terraform(case: str) -> None:
    points = compare_case(CORPUS / "cases" / case, _recording(case))
    disagree = [p for p in points if not p.agrees and (p.case, p.what) not in DELIBERATE]
    assert _show(disagree) == []
    # A deliberate difference that has come to agree is no longer a difference: take it off the list.
    stale = [what for (name, what) in DELIBERATE if name == case and all(p.agrees for p in points if p.what == what)]
    assert stale == []


@pytest.mark.parametrize("case", CASES)
def test_recording_is_of_the_case_as_it_is(case: str) -> None:
    recording = _recording(case)
    assert recording["case_digest"] == case_digest(CORPUS / "cases" / case), (
        f"recorded/{case}.json is stale: run python tools/record_tfjson_differential.py {case}"
    )


def test_every_case_has_a_recording_and_every_deliberate_difference_a_case_and_reason() -> None:
    cases = sorted(p.name for p in (CORPUS / "cases").iterdir() if p.is_dir())
    assert cases == CASES
    assert len(CASES) >= 40
    assert sorted({case for case, _ in DELIBERATE} - set(CASES)) == []
    assert [key for key, reason in DELIBERATE.items() if len(reason) < 40] == []


def test_agreement_figure() -> None:
    points = collect()
    figure = summary(points)
    print(f"\n.tf.json differential suite: {figure}")
    agree = sum(p.agrees for p in points)
    assert figure == (
        f"{agree} of {len(points)} points agree ({len(CASES)} cases); {len(DELIBERATE)} deliberate differences, 0 other"
    )


_ROOT = {"outputs": {"o": {"expression": {"constant_value": 2, "references": ["var.x"]}}}}


@pytest.mark.parametrize(
    ("text", "recording", "expected"),
    [
        pytest.param(
            '{"output": {"o": {}}}',
            {"validate": {"valid": True}},
            ["verdict: terraform valid, library invalid"],
            id="verdict",
        ),
        pytest.param(
            '{"output": {"o": {"value": 1}}}',
            {"validate": {"valid": False, "diagnostics": [
                {"severity": "error", "range": {"filename": "main.tf.json", "start": {"line": 3}}}]}},
            ["verdict: terraform invalid, library valid"],
            id="verdict-invalid",
        ),
        pytest.param(
            '{"output": {"o": {"value": "${var.x}"}}}',
            {"validate": {"valid": True}, "plan": {"configuration": {"root_module": _ROOT}}},
            ['output.o.value: terraform {"constant_value": 2, "references": ["var.x"]}, '
             'library {"constant_value": "${var.x}", "references": ["var.x"]}'],
            id="constant-value",
        ),
        pytest.param(
            '{"output": {"p": {"value": 2}}}',
            {"validate": {"valid": True}, "plan": {"configuration": {"root_module": _ROOT}}},
            ['outputs: terraform ["o"], library ["p"]'],
            id="outputs",
        ),
        pytest.param(
            '{"output": {"o": {"value": 1,}}}',
            {"validate": {"valid": False, "diagnostics": [
                {"severity": "error", "range": {"filename": "main.tf.json", "start": {"line": 1, "column": 28}}}]}},
            ["error location: terraform main.tf.json:1:28, library main.tf.json:1:29"],
            id="error-location",
        ),
    ],
)
def test_a_disagreement_is_reported(tmp_path: Path, text: str, recording: dict[str, object], expected: list[str]) -> None:
    (tmp_path / "main.tf.json").write_text(text, encoding="utf-8")
    points = compare_case(tmp_path, recording)
    assert _show([p for p in points if not p.agrees]) == expected
