"""Many plans, one run: ``tfplancheck PLAN [PLAN ...] --jobs N``.

Output in the order the plans were given whatever finishes first, the exit status the worst of all, a bad plan
among good ones reported in its place while the others are checked, the same bytes with ``--jobs 1`` and
``--jobs 2`` in every format, baselines keyed by plan, each plan's secrets scrubbed from every format, and no
worker (nor a worker's Terraform) left after Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import clirun
import jsonschema
import planted_secrets
import pytest
from secret_shapes import ALL_SECRETS, leaks, secret_shapes_plan

from plancheck.cli import _waivers
from plancheck.cli._output import FORMATS

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "plancheck" / "schemas" / "cli-output.schema.json").read_text("utf-8"))
FORK = sys.platform.startswith("linux")


def _plan(*changes: tuple[str, list[str]], pad: int = 0) -> dict[str, Any]:
    rcs = [{"address": address, "mode": "managed", "type": address.split(".")[0], "name": address.split(".")[1],
            "change": {"actions": actions, "before": {} if "delete" in actions else None,
                       "after": None if actions == ["delete"] else {"id": "x"}}}
           for address, actions in changes]
    # Padding resources make a plan slow to read, so a worker finishes it after the plans given after it.
    rcs += [{"address": f"null_resource.pad{i}", "mode": "managed", "type": "null_resource", "name": f"pad{i}",
             "change": {"actions": ["no-op"], "before": {"v": "p" * 40}, "after": {"v": "p" * 40}}} for i in range(pad)]
    return {"format_version": "1.2", "resource_changes": rcs}


def _each_holder(tree: Path) -> str:
    """holder.json, whose for_each key is its sensitive variable's value, and each.toml, whose check names that
    address: every plan's part shows the checks, so the other plans' parts must be scrubbed of it. The secret."""
    secret = "hunter2-key-of-each"
    holder = {"format_version": "1.2", "variables": {"pw": {"value": secret}},
              "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}},
              "resource_changes": [{"address": f'null_resource.each["{secret}"]', "mode": "managed", "type": "null_resource",
                                    "name": "each", "index": secret,
                                    "change": {"actions": ["create"], "before": None, "after": {"id": "x"}}}]}
    (tree / "holder.json").write_text(json.dumps(holder), "utf-8")
    (tree / "each.toml").write_text(f'[[check]]\ntype = "ExpectResourceAction"\naddress = \'null_resource.each["{secret}"]\'\n'
                                    'action = "Destroy"\n', "utf-8")
    return secret


PASSING = _plan(("null_resource.a", ["create"]))
FAILING = _plan(("null_resource.a", ["delete"]))
SLOW_PASSING = _plan(("null_resource.a", ["create"]), pad=20000)
CHECKS = '[[check]]\ntype = "ExpectNoDestroys"\n'
PLANS: dict[str, Any] = {"pass": PASSING, "pass2": PASSING, "fail": FAILING, "fail2": FAILING, "fail3": FAILING,
                         "slow": SLOW_PASSING, "bad": "{not json"}


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for name, document in PLANS.items():
        (tmp_path / f"{name}.json").write_text(document if isinstance(document, str) else json.dumps(document), "utf-8")
    (tmp_path / "checks.toml").write_text(CHECKS, "utf-8")
    return tmp_path


#: Unless a test gives one, these runs get an empty environment (not even PATH); no stdin stream.
_cli = partial(clirun.cli, stdin=None, environ={})


# -- the exit status: the worst of all --------------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize(
    ("plans", "status"),
    [
        pytest.param(["pass", "pass2"], 0, id="all-pass"),
        pytest.param(["pass", "fail"], 1, id="one-fails"),
        pytest.param(["fail", "pass"], 1, id="first-fails"),
        pytest.param(["pass", "bad"], 2, id="one-unreadable"),
        pytest.param(["bad", "fail", "pass"], 2, id="unreadable-beats-failed"),
        pytest.param(["fail", "fail2", "fail3"], 1, id="all-fail"),
    ],
)
def test_the_exit_status_is_the_worst_of_all_plans(tree: Path, plans: list[str], status: int, jobs: str) -> None:
    code, out, _ = _cli(*(f"{p}.json" for p in plans), "-c", "checks.toml", "--jobs", jobs, "--format", "json")
    document = json.loads(out)
    jsonschema.validate(document, SCHEMA)
    assert (code, document["ok"], [d["ok"] for d in document["plans"]]) == (
        status, status == 0, [p.startswith("pass") for p in plans])


# -- the order: as given, whatever finishes first ----------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize(
    "plans",
    [
        pytest.param(["slow", "pass", "fail"], id="slow-first"),
        pytest.param(["fail", "slow", "pass"], id="slow-middle"),
        pytest.param(["pass", "fail", "slow"], id="slow-last"),
        pytest.param(["bad", "slow", "pass"], id="bad-first"),
    ],
)
def test_the_output_is_in_the_order_the_plans_were_given(tree: Path, plans: list[str], jobs: str) -> None:
    code, out, _ = _cli(*(f"{p}.json" for p in plans), "-c", "checks.toml", "--jobs", jobs)
    # Each plan's part ends with its count line (or, unread, its "not checked" line).
    ends = [line.removeprefix("1 check in ").split(":")[0] for line in out.splitlines()
            if line.startswith("1 check in ") or line.endswith(": not checked (exit status 2)")]
    assert ends == [f"{p}.json" for p in plans]
    assert out.splitlines()[-1].startswith("3 plans: ")
    document = json.loads(_cli(*(f"{p}.json" for p in plans), "-c", "checks.toml", "--jobs", jobs, "--format", "json")[1])
    assert [d.get("source") or d["plan"]["source"] for d in document["plans"]] == [f"{p}.json" for p in plans]
    assert code == (2 if "bad" in plans else 1)


# -- one bad plan among good ones: the good ones are checked and reported -----------------------------


_BAD = "bad.json: $: expected valid JSON, found invalid JSON: Expecting property name enclosed in double quotes at line 1 column 2 (character 1)"


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        pytest.param("text", [
            "PASS  ExpectNoDestroys", "1 check in pass.json: 1 passed, 0 failed", "",
            f"ERROR  {_BAD}", "bad.json: not checked (exit status 2)", "",
            "FAIL  ExpectNoDestroys: null_resource.a: expected no destroy, but it is destroyed: action(s) [delete]",
            "1 check in fail.json: 0 passed, 1 failed", "",
            "3 plans: 1 passed, 1 failed, 1 error"], id="text"),
        pytest.param("github", [
            f"::error title=tfplancheck%3A plan error (bad.json)::{_BAD}",
            "::error title=tfplancheck%3A ExpectNoDestroys (fail.json)::ExpectNoDestroys: null_resource.a: expected no "
            "destroy, but it is destroyed: action(s) [delete]",
            "tfplancheck: pass.json: 1 check: 1 passed, 0 failed",
            "tfplancheck: bad.json: not checked (plan error)",
            "tfplancheck: fail.json: 1 check: 0 passed, 1 failed",
            "tfplancheck: 3 plans: 1 passed, 1 failed, 1 error"], id="github"),
        pytest.param("markdown", [
            "## tfplancheck: error (a plan could not be read)", "",
            "### pass.json", "",
            "| checks | passed | failed | errors | warnings | waived | known |", "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
            "| 1 | 1 | 0 | 0 | 0 | 0 | 0 |", "",
            "### bad.json", "", f"- **ERROR** not checked: {_BAD.replace('$', '$')}", "",
            "### fail.json", "",
            "| checks | passed | failed | errors | warnings | waived | known |", "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
            "| 1 | 0 | 1 | 0 | 0 | 0 | 0 |", "",
            "- **FAIL** ExpectNoDestroys: null\\_resource.a: expected no destroy, but it is destroyed: action(s) \\[delete\\]"],
            id="markdown"),
    ],
)
def test_a_bad_plan_among_good_ones_is_reported_in_its_place(tree: Path, fmt: str, expected: list[str]) -> None:
    code, out, err = _cli("pass.json", "bad.json", "fail.json", "-c", "checks.toml", "--jobs", "2", "--format", fmt)
    assert (code, err) == (2, f"tfplancheck: error: {_BAD}\n")
    assert out.splitlines() == expected


def test_a_bad_plan_among_good_ones_in_junit_and_sarif(tree: Path) -> None:
    import junitparser

    code, _, _ = _cli("pass.json", "bad.json", "fail.json", "-c", "checks.toml", "--jobs", "2",
                      "--report", "junit=r/junit.xml", "--report", "sarif=r/plans.sarif")
    assert code == 2
    suites = list(junitparser.JUnitXml.fromfile(str(tree / "r" / "junit.xml")))
    assert [(s.name, s.tests, s.failures, s.errors) for s in suites] == [
        ("pass.json", 1, 0, 0), ("bad.json", 1, 0, 1), ("fail.json", 1, 1, 0)]
    sarif = json.loads((tree / "r" / "plans.sarif").read_text("utf-8"))
    (sarif_run,) = sarif["runs"]
    assert [a["location"]["uri"] for a in sarif_run["artifacts"]] == ["pass.json", "bad.json", "fail.json"]
    (invocation,) = sarif_run["invocations"]
    assert (invocation["exitCode"], invocation["executionSuccessful"]) == (2, False)
    assert [(n["message"]["text"], n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
            for n in invocation["toolExecutionNotifications"]] == [(_BAD, "bad.json")]
    assert [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif_run["results"]] == ["fail.json"]


# -- the same bytes whatever the number of workers -------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_jobs_1_and_jobs_2_give_the_same_bytes(tree: Path, fmt: str) -> None:
    plans = ["slow.json", "fail.json", "bad.json", "pass.json"]
    outputs = []
    for jobs in ("1", "2"):
        reports = [f"--report={other}=r{jobs}/{other}" for other in FORMATS]
        code, out, err = _cli(*plans, "-c", "checks.toml", "--jobs", jobs, "--format", fmt, *reports)
        written = {other: (tree / f"r{jobs}" / other).read_text("utf-8") for other in FORMATS}
        outputs.append((code, out, err, written))
    assert outputs[0] == outputs[1]
    assert outputs[0][0] == 2


def test_one_plan_keeps_the_results_document(tree: Path) -> None:
    code, out, _ = _cli("fail.json", "-c", "checks.toml", "--format", "json", "--jobs", "2")
    assert (code, json.loads(out)["kind"]) == (1, "results")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(["pass.json", "./pass.json"], "the plan ./pass.json is named twice (each plan is checked once, and "
                     "reported under its name)", id="twice"),
        pytest.param(["pass.json", "-"], "standard input (-) can be the only plan of a run; name the other plans in "
                     "another run", id="stdin-among-others"),
        pytest.param(["pass.json", "fail.json", "--jobs", "0"], "argument -j/--jobs: invalid job count '0' (a positive "
                     "number of worker processes)", id="jobs-zero"),
        pytest.param(["pass.json", "fail.json", "--jobs", "two"], "argument -j/--jobs: invalid job count 'two' (a "
                     "positive number of worker processes)", id="jobs-word"),
    ],
)
def test_bad_plan_lists_are_usage_errors(tree: Path, argv: list[str], message: str) -> None:
    code, out, err = _cli(*argv, "-c", "checks.toml")
    assert (code, out, err.splitlines()[0]) == (2, "", f"tfplancheck: error: {message}")


# -- baselines of many plans: keyed by plan file -----------------------------------------------------


def test_a_baseline_of_many_plans_keys_each_failure_by_its_plan(tree: Path) -> None:
    env = {"TFPLANCHECK_TODAY": "2026-12-01"}
    code, _, err = _cli("fail.json", "pass.json", "-c", "checks.toml", "--write-baseline", "base.json", environ=env)
    assert (code, err) == (0, "")
    assert json.loads((tree / "base.json").read_text("utf-8")) == {"tfplancheck_baseline": 1, "failures": [
        {"check": "ExpectNoDestroys", "address": "null_resource.a", "path": None, "plan": "fail.json"}]}
    # The same failure in another plan is new: the entry accepts it in fail.json only.
    code, out, _ = _cli("fail.json", "fail2.json", "-c", "checks.toml", "--baseline", "base.json", environ=env)
    assert code == 1
    assert "KNOWN  ExpectNoDestroys: null_resource.a: expected no destroy, but it is destroyed: action(s) [delete] " \
           "(in the baseline)\n1 check in fail.json: 1 passed, 0 failed, 1 known" in out
    assert "FAIL  ExpectNoDestroys: null_resource.a: expected no destroy, but it is destroyed: action(s) [delete]\n" \
           "1 check in fail2.json: 0 passed, 1 failed" in out
    # Fixed: fail.json now passes; its entry is named in its run, nowhere else.
    (tree / "fail.json").write_text(json.dumps(PASSING), "utf-8")
    code, out, _ = _cli("fail.json", "pass.json", "-c", "checks.toml", "--baseline", "base.json", environ=env)
    assert code == 0
    assert out.count("NOTE  baseline entry no longer fails (remove it from base.json): ExpectNoDestroys: null_resource.a") == 1
    assert out.index("NOTE  baseline entry") < out.index("1 check in fail.json")
    # A run of one of those plans takes that plan's entries (its name, however it is spelled).
    (tree / "fail.json").write_text(json.dumps(FAILING), "utf-8")
    assert _cli("./fail.json", "-c", "checks.toml", "--baseline", "base.json", environ=env)[0] == 0
    assert _cli("fail2.json", "-c", "checks.toml", "--baseline", "base.json", environ=env)[0] == 1


def test_a_baseline_of_one_plan_judges_every_plan(tree: Path) -> None:
    assert _cli("fail.json", "-c", "checks.toml", "--write-baseline", "one.json")[0] == 0
    assert "plan" not in json.loads((tree / "one.json").read_text("utf-8"))["failures"][0]
    code, out, _ = _cli("fail.json", "fail2.json", "-c", "checks.toml", "--baseline", "one.json")
    assert (code, out.count("(in the baseline)")) == (0, 2)


@pytest.mark.parametrize("argv", [["--write-baseline", "many.json"], ["--baseline", "many.json"],
                                  ["--baseline", "many.json", "--write-baseline", "many.json"]],
                         ids=["write", "judge", "judge-and-rewrite"])
def test_a_baseline_of_many_plans_is_read_once_not_once_per_plan(tree: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 argv: list[str]) -> None:
    """Each plan's entries are found in one pass over the baseline: looking them up in the whole file for every
    plan named each plan file P x P times (4,000 plans of one failure each: 12.0 s of CPU, now 2.3 s)."""
    count = 300
    names = [f"env{i}/plan.json" for i in range(count)]
    for name in names:
        (tree / name).parent.mkdir()
        (tree / name).write_text(json.dumps(FAILING), "utf-8")
    assert _cli(*names, "-c", "checks.toml", "--jobs", "1", "--write-baseline", "many.json")[0] == 0
    keyed = 0
    plan_key = _waivers.plan_key

    def counted(name: str) -> str:
        nonlocal keyed
        keyed += 1
        return plan_key(name)

    monkeypatch.setattr(_waivers, "plan_key", counted)
    code, out, _ = _cli(*names, "-c", "checks.toml", "--jobs", "1", *argv)
    assert (code, out.count("(in the baseline)"), out.count("NOTE")) == (0, count, 0)
    # Three per plan at most (a write judges the plans again by what it wrote); each plan's entries named once
    # for every plan was 2 x 300 x 300.
    assert keyed <= 3 * count


def test_a_baseline_of_no_plan_is_matched_once_not_sorted_again_for_every_plan(tree: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A baseline of one plan's run (entries of no plan) judging many plans: each plan took the entries it did not
    fail as its own fixed ones and sorted them (P plans, P entries: P x P); they are now found fixed once, at the end."""
    count = 300
    names = [f"env{i}.json" for i in range(count)]
    for i, name in enumerate(names):
        (tree / name).write_text(json.dumps(_plan((f"null_resource.r{i}", ["delete"]))), "utf-8")
    failures = [{"check": "ExpectNoDestroys", "address": f"null_resource.r{i}", "path": None} for i in range(count + 1)]
    (tree / "one.json").write_text(json.dumps({"tfplancheck_baseline": 1, "failures": failures}), "utf-8")
    sorted_by = 0
    key = _waivers.BaselineEntry.key

    def counted(entry: _waivers.BaselineEntry) -> tuple[str, str, str, str]:
        nonlocal sorted_by
        sorted_by += 1
        return key(entry)

    monkeypatch.setattr(_waivers.BaselineEntry, "key", counted)
    code, out, _ = _cli(*names, "-c", "checks.toml", "--jobs", "1", "--baseline", "one.json")
    # Every plan's failure is known; the one entry no plan fails (r300) is fixed once, with the first plan.
    assert (code, out.count("(in the baseline)"), out.count("NOTE")) == (0, count, 1)
    assert "null_resource.r300" in out.split("env1.json")[0]
    # The fixed entry sorted once; each plan's fixed entries of no plan, sorted in each plan, were 300 x 300.
    assert sorted_by <= count


# -- secrets: each plan's output scrubbed of its secrets, in every format -----------------------------


PLANTED_CHECKS = (
    '[[check]]\ntype = "ExpectEmptyPlan"\n'
    '[[check]]\ntype = "ExpectKnownValue"\naddress = "aws_db_instance.db"\npath = "password"\n'
    'matcher = { type = "StringExact", value = "x" }\n'
    '[[check]]\ntype = "ExpectKnownOutputValue"\noutput = "db_password"\nmatcher = { type = "StringExact", value = "x" }\n'
    f'[[check]]\ntype = "ExpectResourceAction"\naddress = \'terraform_data.each["{planted_secrets.SECRET_VAR}"]\'\n'
    'action = "Destroy"\n'
)


@pytest.mark.skipif(not FORK, reason="workers are forked on Linux")
@pytest.mark.parametrize("fmt", FORMATS)
def test_no_planted_secret_in_any_format_of_many_plans(tree: Path, fmt: str) -> None:
    (tree / "planted.json").write_text(json.dumps(planted_secrets.plan_document()), "utf-8")
    (tree / "shapes.json").write_text(json.dumps(secret_shapes_plan()), "utf-8")
    (tree / "planted.toml").write_text(PLANTED_CHECKS, "utf-8")
    secrets = {**ALL_SECRETS, **{k: v for k, v in planted_secrets.PLANTED.items() if k in ("after", "before", "output", "var")}}
    reports = [f"--report={other}=r/{other}" for other in FORMATS]
    code, out, err = _cli("planted.json", "shapes.json", "bad.json", "-c", "planted.toml", "--jobs", "2", "--format", fmt,
                          *reports)
    assert code == 2
    written = {other: (tree / "r" / other).read_text("utf-8") for other in FORMATS}
    for name, text in {"stdout": out, "stderr": err, **written}.items():
        assert leaks(text, secrets) == [], name
    assert "(sensitive)" in out


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_plans_part_is_scrubbed_beyond_its_findings(tree: Path, fmt: str) -> None:
    """A plan's part holds more than its findings (its file's name, the summary line), and the stream of a run of
    many plans does not know the plan's secrets: the writer's scrub of the whole part is what keeps them out."""
    secret = "hunter2-planfile"
    plan = _plan(("null_resource.a", ["delete"]))
    plan["resource_changes"][0]["change"].update(after={"pw": secret}, after_sensitive={"pw": True}, actions=["update"])
    (tree / f"{secret}.json").write_text(json.dumps(plan), "utf-8")
    code, out, err = _cli(f"{secret}.json", "fail.json", "-c", "checks.toml", "--jobs", "1", "--format", fmt)
    assert (code, err) == (1, "")
    assert secret not in out
    assert "(sensitive).json" in urllib.parse.unquote(out)  # SARIF names it as a URI


@pytest.mark.parametrize("baseline", [[], ["--baseline", "empty.json"]], ids=["parts", "baseline"])
def test_a_sarif_fingerprint_is_made_of_scrubbed_texts_only(tree: Path, baseline: list[str]) -> None:
    """A finding's fingerprint is a hash of its check, subject and plan: of them scrubbed of every secret its texts
    are scrubbed of, the other plans' the checks show too (a hash of a text holding one can be checked against a
    guess). So it is one fingerprint whether the plan's worker rendered its part or the run judged it by a baseline."""
    from plancheck.cli._report_formats import _fingerprint

    _each_holder(tree)
    (tree / "empty.json").write_text('{"tfplancheck_baseline": 1, "failures": []}', "utf-8")
    code, out, _ = _cli("holder.json", "pass.json", "-c", "each.toml", "--jobs", "1", "--format", "sarif", *baseline)
    assert code == 1
    found = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: r for r in json.loads(out)["runs"][0]["results"]}
    subject = 'ExpectResourceAction: null_resource.each["(sensitive)"]'
    assert found["pass.json"]["message"]["text"].startswith(subject + ": resource not found")
    assert found["pass.json"]["partialFingerprints"]["tfplancheck/v1"] == _fingerprint("ExpectResourceAction", subject,
                                                                                       "pass.json")


@pytest.mark.parametrize("plan", ["planted", "shapes"])
def test_a_plan_rendered_by_its_worker_sends_back_no_secret(tree: Path, plan: str) -> None:
    """Without a baseline each worker renders its plan's part of every format (scrubbed there): what it sends back
    holds no secret but those the checks show (``crossing``, for the stream's scrub), not the plan's secrets."""
    import argparse
    import dataclasses
    import datetime
    import pickle

    from plancheck.cli import _many, _output
    from plancheck.cli._checksfile import parse_checks
    from plancheck.cli._io import Job, PlanParts, checks_text
    from plancheck.cli._registry import default_registry

    document = planted_secrets.plan_document() if plan == "planted" else secret_shapes_plan()
    (tree / f"{plan}.json").write_text(json.dumps(document), "utf-8")
    specs = tuple(parse_checks(PLANTED_CHECKS, "c.toml", default_registry()))
    args = argparse.Namespace(format="text", quiet=False, fail_on="error", report=[(fmt, fmt) for fmt in FORMATS])
    _many._JOB[:] = [Job(specs, None, {}, 10**9, False, None, datetime.date(2026, 1, 1), None, checks_text(specs),
                         _output.part_keys(args, False))]
    try:
        sent = _many.check_plan(f"{plan}.json")
    finally:
        _many._JOB.clear()
    assert isinstance(sent, PlanParts)
    assert sorted(key[0] for key, _ in sent.parts) == sorted(FORMATS)
    # The plan's own secrets (the checks name planted's variable, no secret of the shapes plan: the stream scrubs it).
    planted = {k: v for k, v in planted_secrets.PLANTED.items() if k in ("after", "before", "output", "var")}
    secrets = planted if plan == "planted" else ALL_SECRETS
    assert leaks(pickle.dumps(dataclasses.replace(sent, crossing=())).decode("utf-8", "surrogateescape"), secrets) == []


def test_each_plans_secrets_travel_back_from_its_worker() -> None:
    """The writers scrub each plan's part with its own secrets, also after the facts crossed the worker's pipe."""
    import pickle

    from plancheck import Plan
    from plancheck.cli._checksfile import parse_checks, run_checks
    from plancheck.cli._io import PlanFacts
    from plancheck.cli._output import render
    from plancheck.cli._registry import default_registry
    from plancheck.cli._runs import PlanRun

    plan = Plan.from_dict(planted_secrets.plan_document(), source="planted.json")
    results = tuple(run_checks(parse_checks(PLANTED_CHECKS, "c.toml", default_registry()), plan))
    facts = pickle.loads(pickle.dumps(PlanFacts.of(plan)))
    secrets = {k: v for k, v in planted_secrets.PLANTED.items() if k in ("after", "before", "output", "var")}
    other = PlanRun(Plan.from_dict(PASSING, source="other.json"), ())
    for fmt in FORMATS:
        text = render(fmt, [PlanRun(facts, results), other], tool_version="0")
        assert leaks(text, secrets) == [], fmt
        assert text == render(fmt, [PlanRun(plan, results), other], tool_version="0"), fmt


# -- Ctrl-C and SIGTERM: no worker left, nor a worker's Terraform ------------------------------------


_FAKE_TERRAFORM = """\
import json, os, signal, subprocess, sys, time
if sys.argv[1:2] == ["version"]:
    print(json.dumps({"terraform_version": "1.5.7", "platform": "linux_amd64"}))
    sys.exit(0)
# show: a provider-like child in the command's group, then a long wait; each writes its pid, and whether it
# was started with Ctrl-C ignored (Terraform would then be killed after its grace period, not interrupted).
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
ignored = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
with open(os.path.join(os.environ["FAKE_PIDS"], f"{os.getpid()}"), "w") as f:
    f.write(f"{os.getpid()} {child.pid}")
with open(os.path.join(os.environ["FAKE_PIDS"], f"{os.getpid()}.sigint"), "w") as f:
    f.write("ignored" if ignored else "default")
time.sleep(300)
"""


def _descendants(pid: int) -> set[int]:
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, todo = set(), [pid]
    while todo:
        parent = todo.pop()
        for child, its_parent in parents.items():
            if its_parent == parent and child not in found:
                found.add(child)
                todo.append(child)
    return found


def _is_janitor(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().endswith(b"/_terraform/lifecycle.py\x00")
    except OSError:
        return False


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.fixture
def binary_plans(tmp_path: Path) -> Iterator[tuple[Path, list[str]]]:
    fake = tmp_path / "terraform"
    fake.write_text(f"#!{sys.executable}\n{_FAKE_TERRAFORM}", "utf-8")
    fake.chmod(0o755)
    (tmp_path / "pids").mkdir()
    names = []
    for i in range(6):
        (tmp_path / f"p{i}.tfplan").write_bytes(b"PK\x03\x04 a saved plan")
        names.append(f"p{i}.tfplan")
    (tmp_path / "checks.toml").write_text(CHECKS, "utf-8")
    yield tmp_path, names
    for recorded in (tmp_path / "pids").glob("[0-9]*[0-9]"):  # should none be ended, they are, after the test
        for pid in map(int, recorded.read_text().split()):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.skipif(not FORK, reason="workers are forked, and /proc is read, on Linux")
@pytest.mark.parametrize(
    ("signum", "to_group", "status"),
    [
        pytest.param(signal.SIGINT, True, 130, id="ctrl-c-to-the-foreground-group"),
        pytest.param(signal.SIGINT, False, 130, id="sigint-to-the-command"),
        pytest.param(signal.SIGTERM, False, -signal.SIGTERM, id="sigterm-to-the-command"),
        pytest.param(signal.SIGHUP, True, -signal.SIGHUP, id="sighup-to-the-group"),
    ],
)
def test_no_worker_nor_its_terraform_is_left_after_a_signal(binary_plans: tuple[Path, list[str]], signum: int,
                                                             to_group: bool, status: int) -> None:
    where, names = binary_plans
    env = {**os.environ, "FAKE_PIDS": str(where / "pids"), "PYTHONPATH": str(ROOT)}
    command = subprocess.Popen(
        [sys.executable, "-m", "plancheck", *names, "-c", "checks.toml", "--jobs", "2", "--terraform", str(where / "terraform")],
        cwd=where, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while len(list((where / "pids").glob("*.sigint"))) < 2:  # both workers are in terraform show
            assert command.poll() is None, command.communicate()
            assert time.monotonic() < deadline, "the workers never ran terraform show"
            time.sleep(0.05)
        time.sleep(0.2)  # each show has written its pid and is waiting
        started = _descendants(command.pid)
        shows = {int(pid) for f in (where / "pids").glob("[0-9]*[0-9]") for pid in f.read_text().split()}
        assert {f.read_text() for f in (where / "pids").glob("*.sigint")} == {"default"}
        assert shows <= started  # the shows and their children are the workers' (in sessions of their own)
        assert len(started) >= 2 + len(shows)
        janitors = {pid for pid in started if _is_janitor(pid)}  # read now: one reaped leaves no /proc entry
        if to_group:
            os.killpg(command.pid, signum)
        else:
            command.send_signal(signum)
        _out, err = command.communicate(timeout=60)
        assert command.returncode == status, err
        assert b"Traceback" not in err, err
        assert len(janitors) >= 2  # one per worker: each started Terraform
        # The workers, their Terraform and each worker's janitor (plancheck/_terraform/lifecycle.py) are gone at once:
        # a worker reaps its janitor as it ends, also when the pool's SIGTERM to every worker, once one has ended,
        # comes on top of its own signal meanwhile (2 runs in 10 left a janitor to sweep before end_with).
        assert {pid for pid in started if _alive(pid)} == set()
    finally:
        if command.poll() is None:
            os.killpg(command.pid, signal.SIGKILL)
            command.communicate()


# -- each format's part of a plan: made and scrubbed by one writer ----------------------------------

#: Not a secret of the plan below (so its writers leave it): a run of many plans scrubs its parts of it as another
#: plan's. Planted in every text a part holds: the plan's file, a note, the checks file (origins), a failure's address
#: and message, a warning's, a waiver's reason (waived, and expired: a note).
PART_SECRET = "hunter2-part"
PART_CHECKS = (
    f'[[check]]\ntype = "ExpectResourceAction"\naddress = \'null_resource.each["{PART_SECRET}"]\'\naction = "Destroy"\n'
    f'[[check]]\ntype = "ExpectResourceAction"\nseverity = "warning"\naddress = "null_resource.{PART_SECRET}"\n'
    'action = "Destroy"\n'
    f'[[check]]\ntype = "ExpectNoDestroys"\nwaive = [{{ address = "null_resource.*", reason = "{PART_SECRET}" }}]\n'
    '[[check]]\ntype = "ExpectNonEmptyPlan"\n'
    f'waive = [{{ address = "null_resource.*", reason = "{PART_SECRET}", until = 2020-01-01 }}]\n'
)


def test_every_format_has_one_writer_of_its_part() -> None:
    """A format's part of a plan is made and scrubbed by one writer (its module's): a run of many plans renders each
    plan's part in its worker, then scrubs it of the other plans' secrets, and the scrub must know the part's shape."""
    from plancheck.cli._output import _WRITERS
    from plancheck.cli._runs import PartWriter

    assert list(_WRITERS) == list(FORMATS)
    for name, writer in _WRITERS.items():
        assert isinstance(writer, PartWriter), name
        assert (writer.name, callable(writer.make), callable(writer.scrubbed)) == (name, True, True)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_parts_scrub_knows_the_shape_its_maker_made(fmt: str) -> None:
    """Scrubbed of no secret, a plan's part renders the same bytes (the scrub keeps its shape); scrubbed of a secret
    planted in every text of the part, it holds none of it (the scrub reaches every value the maker put in): the text
    part too, which the command's stream does not scrub again (it is Rendered, as every format's document is)."""
    import argparse
    import datetime
    import pickle

    from plancheck import Plan, Secrets
    from plancheck.cli._checksfile import parse_checks, run_checks
    from plancheck.cli._io import Style
    from plancheck.cli._output import part_keys, parts_scrubbed, plan_parts, render
    from plancheck.cli._registry import default_registry
    from plancheck.cli._runs import PlanRun

    plan = Plan.from_dict({**FAILING, "complete": False}, source=f"{PART_SECRET}.json")
    specs = parse_checks(PART_CHECKS, f"{PART_SECRET}.toml", default_registry())
    results = tuple(run_checks(specs, plan, today=datetime.date(2026, 1, 1)))
    assert [(r.status, len(r.waived), len(r.expired_waivers)) for r in results] == [("fail", 0, 0), ("warn", 0, 0), ("pass", 1, 0), ("pass", 0, 1)]
    run = PlanRun(plan, results, waived=1)
    (key,) = part_keys(argparse.Namespace(format=fmt, quiet=False, fail_on="error", report=[]), False)
    parts = plan_parts(run, [key], "error")

    def rendered(parts: Any) -> str:
        return render(fmt, [parts], tool_version=key[2] if fmt == "json" else "", style=Style(False))

    assert rendered(parts_scrubbed(parts, Secrets())) == rendered(parts)
    assert PART_SECRET in rendered(parts)
    scrubbed = parts_scrubbed(parts, Secrets([PART_SECRET]))
    assert PART_SECRET not in pickle.dumps(scrubbed.parts).decode("utf-8", "surrogateescape")
    assert PART_SECRET not in urllib.parse.unquote(rendered(scrubbed))


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_secret_the_checks_show_is_in_no_other_plans_part(tree: Path, fmt: str, jobs: str) -> None:
    """The checks name a secret of one plan (a key of its for_each); another plan's part shows the checks (its
    failure names the address): that part is scrubbed of it in every format, rendered in a worker or here."""
    secret = _each_holder(tree)
    reports = [f"--report={other}=r/{other}" for other in FORMATS if other != fmt]
    code, out, err = _cli("holder.json", "pass.json", "-c", "each.toml", "--jobs", jobs, "--format", fmt, *reports)
    assert (code, err) == (1, "")
    written = {other: (tree / "r" / other).read_text("utf-8") for other in FORMATS if other != fmt}
    for name, text in {fmt: out, **written}.items():
        assert secret not in urllib.parse.unquote(text), name
        # pass.json's part shows the address (the resource is not found there), scrubbed.
        assert "(sensitive)" in urllib.parse.unquote(text), name


_ACTION = '[[check]]\ntype = "ExpectResourceAction"\naction = "Destroy"\naddress = "null_resource.a"\n'


@pytest.mark.parametrize(
    ("secret", "checks", "origin", "crosses"),
    [
        pytest.param("error", _ACTION, "c.toml", False, id="severity-error"),
        pytest.param("warning", _ACTION + 'severity = "warning"\n', "c.toml", False, id="severity-warning"),
        pytest.param("hunter2-key", _ACTION.replace("null_resource.a", 'null_resource.each[\\"hunter2-key\\"]'), "c.toml",
                     True, id="address"),
        pytest.param("hunter2-file", _ACTION, "hunter2-file.toml", True, id="origin"),
        pytest.param("hunter2-path", '[[check]]\ntype = "ExpectKnownValue"\naddress = "null_resource.a"\n'
                     'path = \'triggers["hunter2-path"]\'\nmatcher = { type = "StringExact", value = "x" }\n', "c.toml",
                     True, id="path"),
        pytest.param("hunter2-value", '[[check]]\ntype = "ExpectKnownValue"\naddress = "null_resource.a"\npath = "id"\n'
                     'matcher = { type = "StringExact", value = "hunter2-value" }\n', "c.toml", True, id="matcher"),
        pytest.param("hunter2-why", _ACTION + 'waive = [{ address = "null_resource.*", reason = "hunter2-why" }]\n', "c.toml",
                     True, id="waiver-reason"),
    ],
)
def test_a_secret_crosses_to_the_other_plans_when_the_checks_show_it(secret: str, checks: str, origin: str,
                                                                      crosses: bool) -> None:
    """A plan's secret that the checks show is scrubbed from every other plan's part (it crosses); one the checks
    spell only as a word of the reports' formats (a severity: ``error``, ``warning``) does not, so it costs no
    scrub and leaves the other plans' own words as they are."""
    from plancheck import Secrets
    from plancheck.cli._checksfile import parse_checks
    from plancheck.cli._io import checks_text, crossing_secrets
    from plancheck.cli._registry import default_registry

    specs = parse_checks(checks, origin, default_registry())
    assert crossing_secrets(Secrets([secret, "other-pw"]), checks_text(specs)) == ((secret,) if crosses else ())


def test_a_secret_only_a_severity_spells_leaves_the_other_plans_words(tree: Path) -> None:
    """A plan's secret ``error`` is not shown by the checks (their severity is a word of the formats): the other
    plan's part is what a run of it alone prints, its own ``error`` (a resource's name) as it is."""
    holder = {"format_version": "1.2", "variables": {"pw": {"value": "error"}},
              "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}}}
    (tree / "holder.json").write_text(json.dumps(holder), "utf-8")
    (tree / "other.json").write_text(json.dumps(_plan(("null_resource.error", ["delete"]))), "utf-8")
    code, out, err = _cli("holder.json", "other.json", "-c", "checks.toml", "--jobs", "1")
    assert (code, err) == (1, "")
    alone = _cli("other.json", "-c", "checks.toml")[1]
    assert "null_resource.error: expected no destroy" in alone
    assert out.split("\n\n")[1] == alone.rstrip("\n")


# -- waivers naming plans --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("plan_glob", "waived_in"),
    [
        pytest.param(None, ["fail.json", "fail2.json"], id="no-plan-every-plan"),
        pytest.param("fail.json", ["fail.json"], id="one-plan"),
        pytest.param("./fail2.*", ["fail2.json"], id="normalised-glob"),
        pytest.param("envs/*", [], id="no-plan-matches"),
    ],
)
def test_a_waiver_naming_plans_waives_in_those_only(tree: Path, plan_glob: str | None, waived_in: list[str]) -> None:
    plan = f', plan = "{plan_glob}"' if plan_glob is not None else ""
    (tree / "waived.toml").write_text(
        f'[[check]]\ntype = "ExpectNoDestroys"\nwaive = [{{ address = "null_resource.*", reason = "r"{plan} }}]\n', "utf-8")
    code, out, _ = _cli("fail.json", "fail2.json", "-c", "waived.toml", "--format", "json", "--jobs", "1")
    document = json.loads(out)
    jsonschema.validate(document, SCHEMA)
    waived = [d["plan"]["source"] for d in document["plans"] if d["results"][0]["waived"]]
    assert (code, waived) == (0 if len(waived_in) == 2 else 1, waived_in)
    # A run of one plan applies the same rule.
    assert _cli("./fail.json", "-c", "waived.toml")[0] == (0 if "fail.json" in waived_in else 1)


@pytest.mark.parametrize(
    ("waiver", "message"),
    [
        pytest.param('plan = 1', 'check[0].waive[0].plan: expected a glob of plan files such as "envs/legacy/*", found a number',
                     id="not-a-string"),
        pytest.param('plan = ""', 'check[0].waive[0].plan: expected a glob of plan files such as "envs/legacy/*", found an '
                     "empty string", id="empty"),
    ],
)
def test_a_bad_plan_glob_is_a_located_error(tree: Path, waiver: str, message: str) -> None:
    (tree / "bad.toml").write_text(f'[[check]]\ntype = "ExpectNoDestroys"\nwaive = [{{ address = "a.*", reason = "r", {waiver} }}]\n',
                                   "utf-8")
    assert _cli("pass.json", "-c", "bad.toml") == (2, "", f"tfplancheck: error: bad.toml:3: {message}\n")
