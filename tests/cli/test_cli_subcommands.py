"""``query`` is an argparse subcommand; a command line that names none is the plan-checking one, unchanged."""

from __future__ import annotations

import argparse
import json
from functools import partial
from pathlib import Path

import clirun
import pytest

from plancheck.cli._command import _command_parser, _Commands

PLAN = {
    "format_version": "1.2",
    "resource_changes": [
        {"address": "null_resource.a", "mode": "managed", "type": "null_resource", "name": "a",
         "change": {"actions": ["create"], "before": None, "after": {"triggers": {"k": "v"}},
                    "after_unknown": {"id": True}, "before_sensitive": False, "after_sensitive": {}}},
    ],
}

MAIN_USAGE = "usage: tfplancheck [-h] [-c FILE]"
QUERY_USAGE = "usage: tfplancheck query [-h] [--before]"


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plan.json").write_text(json.dumps(PLAN), "utf-8")
    return tmp_path


#: Standard input holds the plan (for "-"); the environment is empty (not even PATH).
cli = partial(clirun.cli, stdin=json.dumps(PLAN).encode(), environ={})


def test_query_is_registered_as_an_argparse_subcommand() -> None:
    (commands,) = [a for a in _command_parser()._actions if isinstance(a, _Commands)]
    assert isinstance(commands, argparse._SubParsersAction)
    assert list(commands.choices) == ["query", "mock-plan", "destroy-leftovers", "snapshot", "providers", "coverage"]
    assert commands.choices["query"].prog == "tfplancheck query"


@pytest.mark.parametrize(
    ("argv", "code", "out_start"),
    [
        pytest.param(["query", "--help"], 0, QUERY_USAGE, id="query-help"),
        pytest.param(["query", "-h"], 0, QUERY_USAGE, id="query-h"),
        pytest.param(["--help"], 0, MAIN_USAGE, id="main-help"),
        pytest.param(["plan.json", "--help"], 0, MAIN_USAGE, id="main-help-after-plan"),
        pytest.param(["query", "plan.json"], 0, "null_resource.a  create", id="query-list"),
        pytest.param(["query", "--format", "json", "plan.json", "null_resource.a", "triggers"], 0, "{",
                     id="query-options-first"),
        pytest.param(["query", "plan.json", "null_resource.a", "--before", "triggers"], 0, "null_resource.a triggers (before)",
                     id="query-intermixed"),
        pytest.param(["plan.json", "--unknown", "null_resource.a", "id"], 0, "PASS", id="plan-first"),
        pytest.param(["--unknown", "null_resource.a", "id", "plan.json"], 0, "PASS", id="options-first"),
        pytest.param(["-", "--non-empty"], 0, "PASS", id="stdin"),
    ],
)
def test_subcommand_and_plan_forms_run(in_tmp: Path, argv: list[str], code: int, out_start: str) -> None:
    got_code, out, err = cli(*argv)
    assert (got_code, err) == (code, "")
    assert out.startswith(out_start)


_FAILED_EMPTY = ("FAIL  ExpectEmptyPlan: null_resource.a: expected an empty plan, but it has planned action(s): [create]\n"
                 "1 check in plan.json: 0 passed, 1 failed\n")
_NOT_FOUND = "ERROR  query: cannot read the plan: No such file or directory\nquery: not checked (exit status 2)\n"


@pytest.mark.parametrize(
    ("argv", "out"),
    [
        pytest.param(["plan.json", "query", "--empty"], f"{_FAILED_EMPTY}\n{_NOT_FOUND}", id="query-second"),
        pytest.param(["--empty", "query", "plan.json"], f"{_NOT_FOUND}\n{_FAILED_EMPTY}", id="query-after-option"),
        pytest.param(["--empty", "--", "query", "plan.json"], f"{_NOT_FOUND}\n{_FAILED_EMPTY}", id="query-after-dashes"),
    ],
)
def test_query_names_the_subcommand_only_as_the_first_argument_elsewhere_it_is_a_plan(
    in_tmp: Path, argv: list[str], out: str
) -> None:
    # Another plan (tfplancheck PLAN [PLAN ...]): plan.json is checked, the plan named query is not found.
    (in_tmp / "plan.json").write_text(json.dumps(PLAN))
    assert cli(*argv, "--jobs", "1") == (
        2, f"{out}\n2 plans: 0 passed, 1 failed, 1 error\n",
        "tfplancheck: error: query: cannot read the plan: No such file or directory\n")


@pytest.mark.parametrize(
    ("argv", "message", "usage"),
    [
        pytest.param(["query"], "the following arguments are required: plan", QUERY_USAGE, id="query-no-plan"),
        pytest.param(["query", "--bogus", "plan.json"], "unrecognized arguments: --bogus", QUERY_USAGE, id="query-unknown-option"),
        pytest.param(["query", "plan.json", "a", "b", "c"], "unrecognized arguments: c", QUERY_USAGE, id="query-extra"),
        pytest.param(["query", "plan.json", "--format", "xml"],
                     "argument --format: invalid choice: 'xml' (choose from 'text', 'json')", QUERY_USAGE, id="query-bad-choice"),
        pytest.param(["plan.json", "--bogus"], "unrecognized arguments: --bogus", MAIN_USAGE, id="main-unknown-option"),
    ],
)
def test_usage_errors_are_one_line_then_the_usage_and_exit_2(in_tmp: Path, argv: list[str], message: str, usage: str) -> None:
    code, out, err = cli(*argv)
    first, *rest = err.splitlines()
    assert (code, out, first) == (2, "", f"tfplancheck: error: {message}")
    assert "\n".join(rest).startswith(usage)


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["query", "--format", "json"], id="query"),
        pytest.param(["--format", "json", "plan.json", "--bogus"], id="main"),
    ],
)
def test_usage_errors_in_json_mode_are_a_document_too(in_tmp: Path, argv: list[str]) -> None:
    code, out, _ = cli(*argv)
    assert code == 2
    assert json.loads(out)["error"]["kind"] == "usage"
