"""Severity (#35): a checks-file entry's ``severity``, ``--fail-on``, and how text and JSON report them.

The exit status is 1 only for a failing check of ``error`` severity, or any warning under ``--fail-on
warning`` (a ``warning``-severity check that fails, an ``unknown = "warn"`` verdict); the JSON ``ok``
always agrees with it. A bad ``severity`` is a located exit-2 error, as any bad entry.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import clirun
import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "checks"))
from whole_plan_support import plan_document  # noqa: E402
from whole_plan_support import run_with_checks as cli  # noqa: E402

VALIDATOR = jsonschema.Draft202012Validator(
    json.loads((ROOT / "plancheck" / "schemas" / "cli-output.schema.json").read_text("utf-8")))

#: A check that fails on the plan (aws_instance.web is replaced), one that passes, one that passes with a warning.
FAILS = 'type = "ExpectNoDestroys"\nexcept_ = { type = "aws_s3_bucket" }\n'
PASSES = 'type = "ExpectNoDrift"\n'
WARNS = 'type = "ExpectEachKnownValue"\nselector = "aws_s3_bucket.?"\npath = "id"\nmatcher = { type = "NotNull" }\nunknown = "warn"\n'
#: Fails naming aws_s3_bucket.k["<the key secret>"], and warns: its WARN lines must not show the key.
FAILS_ON_A_SECRET_KEY = (
    'type = "ExpectEachSensitiveValue"\nselector = { type = "aws_s3_bucket", action = ["create", "update"] }\n'
    "path = 'tags[\"team\"]'\nunknown = \"warn\"\n"
)

FAIL_LINE = ("ExpectNoDestroys: aws_instance.web: expected no destroy, but it is replaced: action(s) [delete create] "
             "(replace_because_cannot_update)")
WARN_LINE = ("WARN  ExpectEachKnownValue: Resources(address='aws_s3_bucket.?'): id: 7 of 8 unknown until apply: "
             "aws_s3_bucket.a (id), aws_s3_bucket.c (id), aws_s3_bucket.d (id), aws_s3_bucket.e (id), aws_s3_bucket.f (id), "
             'aws_s3_bucket.k["(sensitive)"] (id), aws_s3_bucket.s (id)')


def entry(body: str, severity: str | None = None) -> str:
    return "[[check]]\n" + body + (f'severity = "{severity}"\n' if severity is not None else "")


# (checks, --fail-on) -> exit status, JSON summary (passed, failed, warned, errors, warnings), text count line.
TABLE = [
    pytest.param([(FAILS, None)], "error", 1, (0, 1, 0, 0, 0), "0 passed, 1 failed", id="error-default-fails"),
    pytest.param([(FAILS, "error")], "error", 1, (0, 1, 0, 0, 0), "0 passed, 1 failed", id="error-fails"),
    pytest.param([(FAILS, "error")], "warning", 1, (0, 1, 0, 0, 0), "0 passed, 1 failed", id="error-fails-fail-on-warning"),
    pytest.param([(FAILS, "warning")], "error", 0, (0, 0, 1, 0, 1), "0 passed, 0 failed, 1 warning",
                 id="warning-fails-passes-the-run"),
    pytest.param([(FAILS, "warning")], "warning", 1, (0, 0, 1, 0, 1), "0 passed, 0 failed, 1 warning",
                 id="warning-fails-fail-on-warning"),
    pytest.param([(PASSES, "warning")], "warning", 0, (1, 0, 0, 0, 0), "1 passed, 0 failed", id="warning-passes"),
    pytest.param([(PASSES, "error")], "warning", 0, (1, 0, 0, 0, 0), "1 passed, 0 failed", id="error-passes"),
    pytest.param([(WARNS, None)], "error", 0, (1, 0, 0, 0, 1), "1 passed, 0 failed, 1 warning",
                 id="unknown-warn-passes-the-run"),
    pytest.param([(WARNS, None)], "warning", 1, (1, 0, 0, 0, 1), "1 passed, 0 failed, 1 warning",
                 id="unknown-warn-fail-on-warning"),
    pytest.param([(WARNS, "warning")], "warning", 1, (1, 0, 0, 0, 1), "1 passed, 0 failed, 1 warning",
                 id="unknown-warn-of-a-warning-check-fail-on-warning"),
    pytest.param([(FAILS, "warning"), (PASSES, None), (FAILS, None)], "error", 1, (1, 1, 1, 0, 1),
                 "1 passed, 1 failed, 1 warning", id="mixed-an-error-fails"),
    pytest.param([(FAILS, "warning"), (PASSES, None), (WARNS, None)], "error", 0, (2, 0, 1, 0, 2),
                 "2 passed, 0 failed, 2 warnings", id="mixed-only-warnings"),
    pytest.param([(FAILS_ON_A_SECRET_KEY, "warning")], "error", 0, (0, 0, 1, 0, 2), "0 passed, 0 failed, 2 warnings",
                 id="warning-naming-a-secret-key"),
]


@pytest.mark.parametrize(("checks", "fail_on", "status", "counts", "count_line"), TABLE)
def test_severity_and_fail_on_decide_the_exit_status_in_text_and_json(
    tmp_path: Path, checks: list[tuple[str, str | None]], fail_on: str, status: int,
    counts: tuple[int, ...], count_line: str,
) -> None:
    text = "\n".join(entry(body, severity) for body, severity in checks)
    code, out, err = cli(tmp_path, text, "--fail-on", fail_on)
    assert (code, err) == (status, "")
    noun = "check" if len(checks) == 1 else "checks"
    assert out.splitlines()[-1] == f"{len(checks)} {noun} in plan.json: {count_line}"
    code, out, err = cli(tmp_path, text, "--fail-on", fail_on, "--format", "json")
    doc: Any = json.loads(out)
    VALIDATOR.validate(doc)
    assert (code, err) == (status, "")
    assert (doc["ok"], doc["fail_on"]) == (status == 0, fail_on)
    summary = doc["summary"]
    assert (summary["passed"], summary["failed"], summary["warned"], summary["errors"], summary["warnings"]) == counts
    assert summary["total"] == summary["passed"] + summary["failed"] + summary["warned"] + summary["errors"]
    assert [r["severity"] for r in doc["results"]] == [severity or "error" for _, severity in checks]


def test_a_failing_warning_check_is_a_warn_line_listed_with_the_failures_first(tmp_path: Path) -> None:
    checks = entry(PASSES) + entry(WARNS) + entry(FAILS, "warning") + entry(FAILS)
    code, out, _ = cli(tmp_path, checks)
    assert code == 1
    assert out.splitlines() == [
        f"FAIL  {FAIL_LINE}",
        f"WARN  {FAIL_LINE}",
        WARN_LINE,
        "PASS  ExpectNoDrift",
        "4 checks in plan.json: 2 passed, 1 failed, 2 warnings",
    ]
    # --quiet keeps every line that needs attention, warnings included, and drops the count line.
    assert cli(tmp_path, checks, "--quiet")[1].splitlines() == [f"FAIL  {FAIL_LINE}", f"WARN  {FAIL_LINE}", WARN_LINE]


def test_json_reports_a_failing_warning_check_as_warn_with_its_failures(tmp_path: Path) -> None:
    code, out, _ = cli(tmp_path, entry(FAILS, "warning"), "--format", "json")
    assert code == 0
    (result,) = json.loads(out)["results"]
    assert result == {
        "origin": "checks.toml:1 check[0]", "check": "ExpectNoDestroys", "address": "Resources(type='aws_s3_bucket')",
        "path": None, "severity": "warning", "status": "warn", "warnings": [], "waived": [], "known": [], "expired_waivers": [],
        "failures": [{"address": "aws_instance.web", "path": None, "message": FAIL_LINE.split(": ", 2)[2]}],
    }


def test_the_warning_of_a_secret_key_is_scrubbed(tmp_path: Path) -> None:
    code, out, _ = cli(tmp_path, entry(FAILS_ON_A_SECRET_KEY, "warning"))
    assert code == 0
    assert out.splitlines()[0].startswith("WARN  ExpectEachSensitiveValue: ")
    assert 'aws_s3_bucket.k["(sensitive)"]: it is not sensitive' in out.splitlines()[0]


BAD = [
    pytest.param('severity = "fatal"', 'expected "error" or "warning", found "fatal"', id="unknown-word"),
    pytest.param('severity = "warn"', """expected "error" or "warning", found "warn" (did you mean 'warning'?)""",
                 id="near-miss"),
    pytest.param('severity = "Error"', """expected "error" or "warning", found "Error" (did you mean 'error'?)""",
                 id="wrong-case"),
    pytest.param("severity = 1", 'expected "error" or "warning", found a number', id="number"),
    pytest.param("severity = true", 'expected "error" or "warning", found a bool', id="boolean"),
    pytest.param('severity = ["warning"]', 'expected "error" or "warning", found an array of 1 element', id="array"),
    pytest.param('severity = { level = "warning" }', 'expected "error" or "warning", found an object with 1 key', id="table"),
]


@pytest.mark.parametrize(("line", "message"), BAD)
def test_a_bad_severity_is_a_located_exit_2_error(tmp_path: Path, line: str, message: str) -> None:
    checks = entry(PASSES) + "\n[[check]]\n" + PASSES + line + "\n"
    code, out, err = cli(tmp_path, checks)
    assert (code, out) == (2, "")
    assert err == f"tfplancheck: error: checks.toml:6: check[1].severity: {message}\n"
    code, out, _ = cli(tmp_path, checks, "--format", "json")
    assert code == 2
    assert json.loads(out)["error"]["message"] == f"checks.toml:6: check[1].severity: {message}"


def test_a_bad_severity_in_a_json_checks_file_is_located(tmp_path: Path) -> None:
    (tmp_path / "checks.json").write_text('{"check": [{"type": "ExpectNoDrift", "severity": null}]}', "utf-8")
    (tmp_path / "plan.json").write_text(json.dumps(plan_document()), "utf-8")
    code, _, err = clirun.cli(str(tmp_path / "plan.json"), "-c", str(tmp_path / "checks.json"), stdin=None, environ={})
    assert code == 2
    assert err == f'tfplancheck: error: {tmp_path}/checks.json: check[0].severity: expected "error" or "warning", found null\n'


@pytest.mark.parametrize("value", ["fatal", "warnings", ""], ids=["fatal", "plural", "empty"])
def test_a_bad_fail_on_is_a_usage_error(tmp_path: Path, value: str) -> None:
    code, out, err = cli(tmp_path, entry(PASSES), "--fail-on", value)
    assert (code, out) == (2, "")
    assert f"argument --fail-on: invalid choice: '{value}' (choose from" in err


class _Broken:
    """A check that cannot run: its result is ``error`` at either severity."""

    def failures(self, plan: object) -> list[str]:
        raise ZeroDivisionError("division by zero")


@pytest.mark.parametrize("severity", ["error", "warning"])
@pytest.mark.parametrize("fail_on", ["error", "warning"])
def test_a_check_that_cannot_run_is_exit_status_2_at_either_severity(severity: str, fail_on: str) -> None:
    from plancheck import Plan
    from plancheck.cli._checksfile import CheckSpec, exit_status, run_checks
    from plancheck.cli._report_formats import results_document

    plan = Plan.from_dict(plan_document())
    (result,) = run_checks([CheckSpec("Broken", _Broken(), "check[0]", severity=severity)], plan)
    assert (result.status, result.severity, result.fails(fail_on)) == ("error", severity, False)
    assert exit_status([result], fail_on) == 2
    doc = results_document([result], plan, "0", fail_on)
    VALIDATOR.validate(doc)
    assert (doc["ok"], doc["summary"]["errors"], doc["summary"]["warnings"]) == (False, 1, 0)
