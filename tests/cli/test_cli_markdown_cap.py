"""The Markdown summary is capped (``MARKDOWN_MAX_BYTES``): GitHub's step summary takes 1 MiB, GitLab's comment 1,000,000 characters.

A longer summary keeps its heading and every plan's table whole, and cuts the list of findings (and notes)
with a line saying how many it leaves out; its heading still says what the exit status says.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from plancheck import Plan
from plancheck._errors import CheckFailure
from plancheck._text import escape_markdown
from plancheck.cli._checksfile import CheckResult, CheckSpec
from plancheck.cli._command import run
from plancheck.cli._output import render
from plancheck.cli._report_formats import MARKDOWN_MAX_BYTES
from plancheck.cli._runs import PlanRun

_OMITTED = re.compile(r"^- \*(\d+) more (findings|findings and notes) not shown: the summary is capped at "
                      r"\d+ bytes; every finding is in the text, JSON, JUnit and SARIF outputs\*$")


def _run(name: str, failures: int, *, warnings: int = 0) -> PlanRun:
    """A plan's run with ``failures`` failures of one check (each about 60 bytes as a line) and ``warnings`` warnings."""
    spec = CheckSpec("ExpectNoDestroys", None, "checks.toml:1")
    found = tuple(CheckFailure("ExpectNoDestroys", f"null_resource.r{i:04}", None, "expected no destroy")
                  for i in range(failures))
    warned = tuple(CheckFailure("ExpectNoDestroys", f"null_resource.w{i:04}", None, "unknown until apply")
                   for i in range(warnings))
    result = CheckResult(spec, "fail" if failures else "pass", found, warned)
    return PlanRun(Plan.from_dict({"format_version": "1.2"}, source=name), (result,))


def _size(text: str) -> int:
    return len(text.encode("utf-8"))


def _tables(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("| ") and "---" not in line and "checks" not in line]


def _finding_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("- **")]


def _omitted(text: str) -> list[int]:
    return [int(m.group(1)) for line in text.splitlines() if (m := _OMITTED.match(line))]


def test_a_summary_within_the_cap_is_whole() -> None:
    runs = [_run("a.json", 20, warnings=3)]
    whole = render("markdown", runs)
    assert render("markdown", runs, markdown_max_bytes=_size(whole)) == whole
    assert len(_finding_lines(whole)) == 23
    assert _omitted(whole) == []


#: (plans' failures, cap in bytes) -> failures shown per plan; every table is kept whatever the cap.
CUTS = [
    pytest.param([100], 2_000, id="one-plan-cut"),
    pytest.param([100, 100], 4_000, id="first-plan-fills-the-budget"),
    pytest.param([5, 100], 3_000, id="second-plan-cut"),
    pytest.param([100, 100], 10, id="cap-below-the-tables"),
]


@pytest.mark.parametrize(("failures", "cap"), CUTS)
def test_a_capped_summary_keeps_every_table_and_says_what_it_leaves_out(failures: list[int], cap: int) -> None:
    runs = [_run(f"p{i}.json", n) for i, n in enumerate(failures)]
    whole = render("markdown", runs)
    capped = render("markdown", runs, markdown_max_bytes=cap)
    assert _size(whole) > cap
    assert capped.splitlines()[0] == "## tfplancheck: failed"  # still what the exit status says
    assert _tables(capped) == _tables(whole)  # every plan's counts, whole
    assert _size(capped) <= cap or _finding_lines(capped) == []  # only the tables may pass a cap below them
    # What is shown is the start of each plan's list, and the omitted lines count the rest exactly.
    per_plan = capped.split("\n### ")[1:]
    whole_per_plan = whole.split("\n### ")[1:]
    for shown, full, n in zip(per_plan, whole_per_plan, failures, strict=True):
        lines = _finding_lines(shown)
        assert lines == _finding_lines(full)[: len(lines)]
        assert len(lines) + sum(_omitted(shown)) == n


def test_a_capped_summary_fills_the_cap() -> None:
    runs = [_run("p.json", 1_000)]
    capped = render("markdown", runs, markdown_max_bytes=20_000)
    assert 19_000 < _size(capped) <= 20_000


def test_cut_notes_are_counted() -> None:
    plan = Plan.from_dict({"format_version": "1.2", "complete": False, "applyable": False}, source="p.json")
    runs = [PlanRun(plan, _run("p.json", 50).results)]
    whole = render("markdown", runs)
    # Room for the fixed parts and part of one note only: both notes and every finding are left out.
    capped = render("markdown", runs, markdown_max_bytes=_size(whole) - sum(_size(line) + 1 for line in
                                                                            _finding_lines(whole)) - 60)
    assert not [line for line in capped.splitlines() if line.startswith("> ")]
    assert _omitted(capped) == [52]
    assert "findings and notes not shown" in capped


# -- through the command line, at the real cap ----------------------------------------------------------


def test_the_command_caps_a_summary_larger_than_a_step_summary_takes(tmp_path: Path) -> None:
    # About 240 bytes per finding line: 6,000 destroyed resources make a summary of about 1.4 MB.
    names = [f"null_resource.{'long_name_' * 20}{i:05}" for i in range(6_000)]
    plan = {"format_version": "1.2", "resource_changes": [
        {"address": name, "change": {"actions": ["delete"], "before": {}, "after": None}} for name in names]}
    (tmp_path / "plan.json").write_text(json.dumps(plan), "utf-8")
    (tmp_path / "checks.toml").write_text('[[check]]\ntype = "ExpectNoDestroys"\n', "utf-8")
    out, err = io.StringIO(), io.StringIO()
    status = run(["--chdir", str(tmp_path), str(tmp_path / "plan.json"), "-c", str(tmp_path / "checks.toml"),
                  "--format", "markdown", "--report", f"markdown={tmp_path / 'summary.md'}"],
                 stdout=out, stderr=err, environ={"PATH": ""})
    assert (status, err.getvalue()) == (1, "")
    text = out.getvalue()
    assert MARKDOWN_MAX_BYTES - 1_000 < _size(text) <= MARKDOWN_MAX_BYTES
    assert (tmp_path / "summary.md").read_text("utf-8") == text
    assert _tables(text) == ["| 1 | 0 | 1 | 0 | 0 | 0 | 0 |"]
    shown = _finding_lines(text)
    assert shown[0].endswith(escape_markdown(f"{names[0]}: expected no destroy, but it is destroyed: action(s) [delete]"))
    assert len(shown) + _omitted(text)[0] == len(names)
    assert text.splitlines()[-1] == f"- *{len(names) - len(shown)} more findings not shown: the summary is capped at " \
                                    f"{MARKDOWN_MAX_BYTES} bytes; every finding is in the text, JSON, JUnit and SARIF outputs*"
