"""Every red-team case of issue #33, one table per promise, each row asserting its own pinned outcome.

The four promises: a secret never leaves; bad input gets a typed, located error (never an INTERNALERROR
or a traceback); nothing the library starts outlives it; a verdict can be trusted. Each row is one case
of the issue's list (or of the red-team pass that followed the merge), named after what it attacks.
Other files pin the same behaviour in depth (the mechanism's own tables); a row here drives the public
behaviour itself and asserts on what a user sees. The signal matrix with real Terraform (SIGINT, SIGTERM,
SIGHUP x plan, apply, destroy, on 1.0.3 and 1.11) is ``tests/e2e/test_signals_e2e.py``; the rows here
are the command line's own.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from clirun import cli
from corpus_cases import corpus_cases
from secret_shapes import leaks

from plancheck import (
    CheckFailedError,
    ErroredPlanError,
    ExpectKnownValue,
    ExpectNoDestroys,
    ExpectNoDrift,
    Plan,
    PlanCheckWarning,
    Resources,
    assert_plan,
    load_plan,
    snapshot,
)
from plancheck import knownvalue as kv
from tfjsonpath import New

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
QUIET = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:randomly", "-p", "no:xdist")

SECRET = "zzRT-hunter2-q8w7e6"  # planted where a mark hides it
OLD = "zzRT-old-value-k3j4"  # the before side of a value marked only after


def _rc(address: str, after: Any, marks: Any, *, actions: tuple[str, ...] = ("create",), before: Any = None,
        before_marks: Any = False, **extra: Any) -> dict[str, Any]:
    kind, _, rest = address.partition(".")
    return {"address": address, "mode": "managed", "type": kind, "name": rest.split("[")[0], **extra,
            "change": {"actions": list(actions), "before": before, "after": after, "after_unknown": {},
                       "before_sensitive": before_marks, "after_sensitive": marks}}


def _plan(*changes: dict[str, Any], **envelope: Any) -> dict[str, Any]:
    return {"format_version": "1.2", "terraform_version": "1.11.4", "resource_changes": list(changes), **envelope}


def _failure(document: dict[str, Any], *checks: Any) -> str:
    with pytest.raises(AssertionError) as info:
        assert_plan(Plan.from_dict(document), *checks)
    return str(info.value)


@dataclass
class Env:
    """What a row may use: a private directory and pytester (for rows that run a pytest session)."""

    tmp: Path
    pytester: pytest.Pytester


@pytest.fixture
def env(tmp_path: Path, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Env:
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(name, raising=False)
    work = tmp_path / "work"
    work.mkdir()
    return Env(work, pytester)


def _write(path: Path, document: Any) -> Path:
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


# == Promise 1: a secret never leaves ============================================================================
# Each row returns every byte a user could see (str, repr, CLI output, pytest's terminal and JUnit XML) and
# the pinned line that must be among them; the test asserts the line and that no planted secret shows.

SYRUPY_TEST = """
from plancheck import load_plan
from plancheck.snapshot import PlanSnapshotExtension


def test_plan(snapshot):
    assert snapshot(extension_class=PlanSnapshotExtension) == load_plan("plan.json")
"""


def _syrupy_hand_edited(env: Env) -> tuple[str, str]:
    """Issue: the syrupy failure showed a secret hand-edited into the snapshot file, under -vv and in JUnit."""
    project = env.pytester
    project.makepyfile(test_inner=SYRUPY_TEST)
    _write(project.path / "plan.json", _plan(_rc("null_resource.a", {"triggers": {"pw": SECRET, "n": "1"}},
                                                 {"triggers": {"pw": True}})))
    assert project.runpytest(*QUIET, "--snapshot-update").ret == 0
    stored = project.path / "__snapshots__" / "test_inner" / "test_plan.tfplan.snap"
    text = stored.read_text("utf-8")
    assert 'triggers["pw"] = (sensitive)' in text
    stored.write_text(text.replace('triggers["pw"] = (sensitive)', f'triggers["pw"] = "{SECRET}"'), "utf-8")
    result = project.runpytest(*QUIET, "-vv", "--junitxml=report.xml")
    assert result.ret == 1
    shown = "\n".join(result.outlines + result.errlines) + (project.path / "report.xml").read_text("utf-8")
    return shown, 'null_resource.a: triggers["pw"]: (sensitive, unmarked) -> (sensitive)'


def _drift_after_only(env: Env) -> tuple[str, str]:
    """Issue: drift where only after_sensitive marks a value (a provider upgrade) showed the old value."""
    drifted = _rc("aws_db_instance.db", {"pw": SECRET}, {"pw": True}, actions=("update",), before={"pw": OLD},
                  before_marks={})
    text = _failure(_plan(resource_drift=[drifted]), ExpectNoDrift())
    return text, "ExpectNoDrift: aws_db_instance.db: expected no drift, but it changed outside Terraform: " \
                 "pw: (sensitive) -> (sensitive)"


def _one_rule_for_strings(env: Env) -> tuple[str, str]:
    """Issue: five collectors spelled a secret's strings differently (keys, numbers): now one rule, used by all."""
    from plancheck._redact import secret_strings
    from plancheck.acceptance import Sensitive
    from plancheck.acceptance._case import sensitive_strings as case_strings

    value = json.loads('{"zzRT-map-key": 1.10, "n": [12345]}', parse_float=Decimal)
    assert set(case_strings({"open": "x", "pw": Sensitive(value)})) == set(secret_strings(value)) == {
        "zzRT-map-key", "1.10", "1.1", "n", "12345"}
    # A number under a mark is hidden however the document spells it: as 1.10 and as 1.1.
    plan = _plan(_rc("null_resource.a", {"triggers": {"pw": value, "copy": "1.1", "k": "zzRT-map-key"}},
                     {"triggers": {"pw": True}}))
    text = _failure(plan, ExpectKnownValue("null_resource.a", New("triggers").AtMapKey("copy"), kv.StringExact("x")))
    # "1.1" (unmarked) is the secret's number spelled another way: hidden, and the expected value beside it.
    return text, 'ExpectKnownValue: null_resource.a: triggers["copy"]: expected value (sensitive) for StringExact ' \
                 "check, got: (sensitive)"


def _cli_json_escaped(env: Env) -> tuple[str, str]:
    """A secret with quotes, a backslash and non-ASCII, printed by the CLI as JSON (escaped): still scrubbed."""
    odd = 'zzRT"q\\ü-secret-7'
    _write(env.tmp / "plan.json", _plan(_rc("null_resource.a", {"triggers": {"pw": odd}}, {"triggers": {"pw": True}})))
    code, out, err = cli("query", "plan.json", "null_resource.a", "--format", "json", cwd=env.tmp)
    assert code == 0
    shown = out + err
    for form in (odd, json.dumps(odd)[1:-1], odd[6:]):
        assert form not in shown
    return shown, '"value": "{\\"triggers\\": {\\"pw\\": (sensitive)}}"'


LEAKY_SWEEPER = """
from plancheck import load_plan
from plancheck.acceptance import AddTestSweepers, Sweeper


def leaky(region):
    load_plan("plan.json")  # what the sweeper read: its secrets are the session's
    raise RuntimeError("cannot delete bucket {secret} in " + region)


AddTestSweepers("leaky", Sweeper("leaky", leaky))
"""


def _sweeper_exception_text(env: Env) -> tuple[str, str]:
    """Red team: a sweeper's exception quoting a secret of a document the session read reached the terminal."""
    project = env.pytester
    project.makeconftest(LEAKY_SWEEPER.replace("{secret}", SECRET))
    project.makepyfile(test_x="def test_x():\n    pass\n")
    _write(project.path / "plan.json", _plan(_rc("null_resource.a", {"triggers": {"pw": SECRET}},
                                                 {"triggers": {"pw": True}})))
    result = project.runpytest_subprocess(*QUIET, "--tf-sweep=r1", "--junitxml=report.xml")
    assert result.ret == 1
    shown = "\n".join(result.outlines + result.errlines) + (project.path / "report.xml").read_text("utf-8")
    assert "  sweeper leaky failed in region r1: RuntimeError: cannot delete bucket (sensitive) in r1" in shown
    return shown, "[sweep] leaky (r1): FAILED: RuntimeError: cannot delete bucket (sensitive) in r1"


SECRETS_ROWS = [
    pytest.param(_sweeper_exception_text, id="sweeper-exception-text"),
    pytest.param(_syrupy_hand_edited, id="syrupy-hand-edited-snapshot-vv-junit"),
    pytest.param(_drift_after_only, id="drift-marked-after-only"),
    pytest.param(_one_rule_for_strings, id="one-rule-for-a-secret-s-strings"),
    pytest.param(_cli_json_escaped, id="cli-json-escaped-secret"),
]


@pytest.mark.parametrize("case", SECRETS_ROWS)
def test_secrets_never_leave(case: Callable[[Env], tuple[str, str]], env: Env) -> None:
    shown, pinned = case(env)
    assert pinned in shown
    assert leaks(shown, {"secret": SECRET, "old": OLD}) == []


# == Promise 1, the other side: redaction never destroys what is not secret ======================================

TAGS = {"env": "prod", "owner": "team"}
TAGS_PLAN = _plan(
    _rc("terraform_data.tags_null", {"input": {"tags": TAGS}}, {"input": True}),
    _rc("terraform_data.prod_owner", {"input": "production"}, {}),
    _rc("terraform_data.label", {"input": "a prod box for the team"}, {}),
)

READABLE_ROWS = [
    pytest.param(
        ExpectKnownValue("terraform_data.tags_null", New("input").AtMapKey("tags").AtMapKey("env"), kv.StringExact("x")),
        'ExpectKnownValue: terraform_data.tags_null: input["tags"]["env"]: expected value (sensitive) for StringExact'
        " check, got: (sensitive)",
        id="issue-resource-named-tags_null-and-the-path-the-user-wrote",
    ),
    pytest.param(
        ExpectKnownValue("terraform_data.prod_owner", New("input"), kv.StringExact("staging")),
        'ExpectKnownValue: terraform_data.prod_owner: input: expected value "staging" for StringExact check,'
        ' got: "production"',
        id="short-secret-inside-a-name-and-inside-a-longer-word",
    ),
    pytest.param(
        ExpectKnownValue("terraform_data.label", New("input"), kv.StringExact("x")),
        # A value holding a secret as a whole word is hidden whole (the stricter answer), and the expected value
        # compared with it too (tests/test_expected_shown.py).
        "ExpectKnownValue: terraform_data.label: input: expected value (sensitive) for StringExact check,"
        " got: (sensitive)",
        id="short-secret-as-a-whole-word-hides-the-value",
    ),
]


@pytest.mark.parametrize(("check", "message"), READABLE_ROWS)
@pytest.mark.parametrize("front_end", ["assert_plan", "cli-text", "cli-json", "cli-text-warning", "cli-json-warning"])
def test_redaction_keeps_what_is_not_secret(check: ExpectKnownValue, message: str, front_end: str,
                                            tmp_path: Path) -> None:
    if front_end == "assert_plan":
        with pytest.raises(CheckFailedError) as info:
            assert_plan(Plan.from_dict(TAGS_PLAN), check)
        assert str(info.value) == message
        return
    _write(tmp_path / "plan.json", TAGS_PLAN)
    matcher = check.matcher
    assert isinstance(matcher, kv.StringExact)
    # A check of warning severity (#35) reports the same failure as a warning, redacted the same way.
    severity = "warning" if front_end.endswith("-warning") else "error"
    _write(tmp_path / "checks.json", {"check": [{"type": "ExpectKnownValue", "address": check.address,
                                                 "path": check.path.to_text(), "severity": severity,
                                                 "matcher": {"type": "StringExact", "value": matcher.value}}]})
    form = "json" if front_end.startswith("cli-json") else "text"
    code, out, err = cli("plan.json", "-c", "checks.json", "--format", form, cwd=tmp_path)
    assert code == (0 if severity == "warning" else 1), out + err
    _, address, rest = message.split(": ", 2)
    if form == "text":
        assert f"{'WARN' if severity == 'warning' else 'FAIL'}  {message}" in out.splitlines()
    else:
        failure = json.loads(out)["results"][0]["failures"][0]
        path, text = rest.split(": ", 1)
        assert (failure["address"], failure["path"], failure["message"]) == (address, path, text)


def _diff(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    return snapshot.diff(Plan.from_dict(old), Plan.from_dict(new))


#: Red team: an unmarked map with a literal key "(sensitive)" was hidden whole when another map, marked whole, held
#: that key (its keys are secrets): the marker itself became a secret, and its windows blanked the word "sensitive".
LITERAL_KEY_PLAN = _plan(_rc("null_resource.a", {"t": {"(sensitive)": "open-x", "plain": "open-y"}}, {}),
                         _rc("null_resource.b", {"m": {"(sensitive)": SECRET}}, {"m": True}))


def _snapshot_lines(document: dict[str, Any]) -> list[str]:
    return [line for line in snapshot.render(Plan.from_dict(document)).splitlines() if line.startswith(("  t", "  m"))]


def _query_lines(document: dict[str, Any]) -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        _write(Path(tmp) / "plan.json", document)
        text = cli("query", "plan.json", "null_resource.a", cwd=Path(tmp))[1]
        as_json = cli("query", "plan.json", "null_resource.a", "--format", "json", cwd=Path(tmp))[1]
    assert SECRET not in text + as_json
    return text.splitlines() + [line.strip().rstrip(",") for line in as_json.splitlines()
                                if "sensitive" in line and not line.strip().startswith('"value"')]


#: Red team: a secret that spells the library's own marker (a map key "(sensitive)" under a mark, a value
#: "(sensitive)") was scrubbed out of the markers themselves: "(sensitive), unmarked)", "(sensitive), changed)".
MARKER_ROWS = [
    pytest.param(
        lambda: _diff(_plan(_rc("null_resource.a", {"pw": "(sensitive)"}, {})),
                      _plan(_rc("null_resource.a", {"pw": "x"}, {"pw": True}))),
        ["null_resource.a: pw: (sensitive, unmarked) -> (sensitive)"],
        id="a-value-spelled-(sensitive)-then-marked",
    ),
    pytest.param(
        lambda: _diff(_plan(_rc("null_resource.a", {"m": {"(sensitive)": SECRET}, "pw": "a"}, {"m": True, "pw": True})),
                      _plan(_rc("null_resource.a", {"m": {"(sensitive)": SECRET}, "pw": "b"}, {"m": True, "pw": True}))),
        ["null_resource.a: pw: (sensitive) -> (sensitive, changed)"],
        id="a-marked-key-spelled-(sensitive)-beside-a-changed-secret",
    ),
    pytest.param(
        lambda: [str(_failure(_plan(_rc("terraform_data.a", {"input": "sensitive", "n": "1"}, {"input": True})),
                              ExpectKnownValue("terraform_data.a", New("input"), kv.StringExact("x"))))],
        ["ExpectKnownValue: terraform_data.a: input: expected value (sensitive) for StringExact check, "
         "got: (sensitive)"],
        id="a-secret-spelled-sensitive",
    ),
    pytest.param(
        lambda: _snapshot_lines(LITERAL_KEY_PLAN),
        ['  t["(sensitive)"] = "open-x"', '  t["plain"] = "open-y"', "  m = (sensitive)"],
        id="an-unmarked-literal-(sensitive)-key-beside-a-marked-map-holding-that-key",
    ),
    pytest.param(
        lambda: _query_lines(LITERAL_KEY_PLAN),
        ["null_resource.a (after)", "  status:    known", "  sensitive: no",
         '  value:     {"t": {"(sensitive)": "open-x", "plain": "open-y"}}',
         '"sensitive": false', '"partly_sensitive": false'],
        id="the-command-line-s-own-words-beside-a-marked-map-holding-a-(sensitive)-key",
    ),
    pytest.param(
        lambda: [_failure(LITERAL_KEY_PLAN, ExpectKnownValue("null_resource.a", New("t"), kv.StringExact("x")))],
        ['ExpectKnownValue: null_resource.a: t: expected string value for StringExact check, got: object; '
         'expected "x", got {"(sensitive)": "open-x", "plain": "open-y"}'],
        # Nothing of the value is hidden: a key spelled "(sensitive)" is no reason to hide what the user expected.
        id="the-expected-value-beside-an-unmarked-literal-(sensitive)-key",
    ),
]


@pytest.mark.parametrize(("make", "lines"), MARKER_ROWS)
def test_the_markers_stay_readable_whatever_the_secret(make: Callable[[], list[str]], lines: list[str]) -> None:
    assert make() == lines


# == Promise 2: typed, located errors, never an INTERNALERROR or a traceback ======================================

SWEEPERS = """
import sys
from plancheck.acceptance import Sweeper, AddTestSweepers


class Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no text")


def exits(region):
    sys.exit(3)


def unprintable(region):
    raise Unprintable


AddTestSweepers("exits", Sweeper("exits", exits))
AddTestSweepers("unprintable", Sweeper("unprintable", unprintable))
"""


def _sweepers_exit_and_unprintable(env: Env) -> tuple[str, list[str]]:
    env.pytester.makeconftest(SWEEPERS)
    env.pytester.makepyfile(test_x="def test_x():\n    pass\n")
    result = env.pytester.runpytest_subprocess(*QUIET, "--tf-sweep=r1", "--tf-sweep-allow-failures")
    text = "\n".join(result.outlines + result.errlines)
    assert result.ret != 0
    return text, ["[sweep] exits (r1): FAILED: SystemExit: 3", "[sweep] unprintable (r1): FAILED: Unprintable"]


def _conflicted_old_name(env: Env) -> tuple[str, list[str]]:
    """Issue: a merge-conflicted ``test_*.tfplan.txt`` snapshot aborted the session during collection."""
    project = env.pytester
    project.makepyfile(test_inner=SYRUPY_TEST)
    _write(project.path / "plan.json", _plan(_rc("null_resource.a", {"triggers": {"n": "1"}}, {})))
    assert project.runpytest(*QUIET, "--snapshot-update").ret == 0
    directory = project.path / "__snapshots__" / "test_inner"
    good = (directory / "test_plan.tfplan.snap").read_text("utf-8")
    (directory / "test_plan.tfplan.snap").unlink()
    (directory / "test_plan.tfplan.txt").write_text(good.replace("resource ", "<<<<<<< HEAD\nresource ", 1), "utf-8")
    result = project.runpytest(*QUIET, "--doctest-glob=*.txt")
    text = "\n".join(result.outlines + result.errlines)
    assert result.ret == 1
    repaired = project.runpytest(*QUIET, "--snapshot-update")
    assert repaired.ret == 0
    text += "\n" + "\n".join(sorted(p.name for p in directory.iterdir()))
    # Read under its old name, the file is renamed first: the message names the new one.
    return text, ["test_plan.tfplan.snap:4: expected a block header (resource ADDRESS, invocation ADDRESS (TRIGGER) or "
                  "output NAME), an indented "
                  "line of a block, a comment (#) or a blank line, found '<<<<<<< HEAD'; rewrite it with "
                  "--snapshot-update", "test_plan.tfplan.snap"]


def _sensitive_literal_key(env: Env) -> tuple[str, list[str]]:
    """Issue: a map key that is literally ``(sensitive)`` beside a secret key made diff(plan, plan) raise."""
    plan = Plan.from_dict(_plan(_rc("null_resource.a", {"triggers": {"(sensitive)": "x", SECRET: "y"}},
                                    {"triggers": {SECRET: True}})))
    changed = Plan.from_dict(_plan(_rc("null_resource.a", {"triggers": {"(sensitive)": "z", SECRET: "y"}},
                                       {"triggers": {SECRET: True}})))
    assert snapshot.diff(plan, plan) == []
    return "\n".join(snapshot.diff(plan, changed)), ['null_resource.a: triggers["(sensitive)"]: "x" -> "z"']


def _sensitive_literal_key_unmarked(env: Env) -> tuple[str, list[str]]:
    """The issue's shape with the secret key unmarked (a sensitive variable's value as a key): both keys are shown
    as ``(sensitive)``, one line, never a raise."""
    plan = Plan.from_dict(_plan(_rc("null_resource.a", {"triggers": {"(sensitive)": "x", SECRET: "y"}}, {}),
                                variables={"pw": {"value": SECRET}},
                                configuration={"root_module": {"variables": {"pw": {"sensitive": True}}}}))
    assert snapshot.diff(plan, plan) == []
    return snapshot.render(plan), ['  triggers["(sensitive)"] = (sensitive)']


TYPED_ROWS = [
    pytest.param(_sweepers_exit_and_unprintable, id="sweeper-sys-exit-and-unprintable-exception"),
    pytest.param(_conflicted_old_name, id="merge-conflicted-tfplan-txt-snapshot-with-doctest-glob"),
    pytest.param(_sensitive_literal_key, id="literal-(sensitive)-key-beside-a-secret-key"),
    pytest.param(_sensitive_literal_key_unmarked, id="literal-(sensitive)-key-beside-a-secret-key-unmarked"),
]


@pytest.mark.parametrize("case", TYPED_ROWS)
def test_typed_errors_never_internal(case: Callable[[Env], tuple[str, list[str]]], env: Env) -> None:
    text, pinned = case(env)
    lines = text.splitlines()
    for line in pinned:
        assert any(line in shown for shown in lines), (line, text)
    for never in ("INTERNALERROR", "Traceback (most recent call last)", "during collection", SECRET):
        assert never not in text


#: Red team: a mock key of 100,000 characters came back whole, twice, in its error (200 KB on one line). Input a
#: message echoes is shown whole up to 200 characters, else by its ends and its length (``_text.shortened``).
LONG = "x" * 100_000
LONG_SHOWN = "x" * 120 + "…" + "x" * 60 + " (100000 characters)"
ACCENTED = "cloud_bucket." + "é" * 100_000 + "!"
ACCENTED_SHOWN = "cloud_bucket." + "é" * 107 + "…" + "é" * 59 + "! (100014 characters)"
MOCK_SCHEMA = {"resource_schemas": {"cloud_bucket": {"block": {"attributes": {
    "arn": {"type": "string", "computed": True}, "tags": {"type": ["map", "string"], "computed": True}}}}}}


def _mock(**options: Any) -> Any:
    from plancheck.acceptance import MockProvider

    return MockProvider(MOCK_SCHEMA, "acme/cloud", **options)


def _mock_of(schema: dict[str, Any]) -> Any:
    from plancheck.acceptance import MockProvider

    return MockProvider(schema, "acme/cloud")


ECHOED_ROWS = [
    pytest.param(lambda: _mock(mock_resources={LONG: {}}),
                 f'mock_resources["{LONG_SHOWN}"]: registry.terraform.io/acme/cloud has no resource type {LONG_SHOWN}',
                 id="mock-key-100k-unknown-type"),
    pytest.param(lambda: _mock(mock_resources={ACCENTED: {}}),
                 f'mock_resources["{ACCENTED_SHOWN}"]: \'{"é" * 120}…{"é" * 59}! (100001 characters)\' is not a name '
                 "(letters, digits, _ and -, or * and ?)", id="mock-key-100k-not-a-name"),
    pytest.param(lambda: _mock(mock_resources={"data.cloud_bucket." + LONG: {}}),
                 'mock_resources["data.cloud_bucket.' + "x" * 102 + "…" + "x" * 60 + ' (100018 characters)"]: a data '
                 "source address: its defaults go in mock_data", id="mock-data-key-100k"),
    pytest.param(lambda: _mock(mock_resources={"cloud_bucket": {LONG: "v"}}),
                 f'mock_resources["cloud_bucket"]["{LONG_SHOWN}"]: cloud_bucket has no attribute {LONG_SHOWN}',
                 id="mock-attribute-100k"),
    pytest.param(lambda: _mock(mock_resources={"cloud_bucket": {"tags": {LONG: 1}}}),
                 f'mock_resources["cloud_bucket"]["tags"]["{LONG_SHOWN}"]: expected string, got a number',
                 id="mock-map-key-100k"),
    pytest.param(lambda: _mock_of({"resource_schemas": {"cloud_bucket": {"block": {"attributes": {
                     LONG: {"type": "string", "computed": "yes"}}}}}}),
                 f"schema.resource_schemas.cloud_bucket.block.attributes.{LONG_SHOWN}.computed: expected true or false, "
                 "got a string", id="mock-schema-attribute-name-100k"),
    pytest.param(lambda: Resources(address="null_resource.a[" + LONG),
                 "Resources: address 'null_resource.a[" + "x" * 104 + "…" + "x" * 60 + " (100016 characters)' is not a "
                 "valid pattern: '[' at offset 15 is never closed", id="resources-address-100k"),
]


@pytest.mark.parametrize(("make", "message"), ECHOED_ROWS)
def test_an_error_echoes_long_input_bounded(make: Callable[[], Any], message: str) -> None:
    with pytest.raises(ValueError) as info:
        make()
    assert str(info.value) == message
    assert len(str(info.value)) < 1000


async def _async_sweeper(region: str) -> None:
    raise AssertionError("never runs")


def _generator_sweeper(region: str) -> Iterator[None]:
    raise AssertionError("never runs")
    yield


#: Red team: a sweeper written ``async def`` (or with a ``yield``) returned an object nothing ran, and the sweep
#: said "ok": the cloud was never swept.
NOT_RUN = "a sweeper is a plain function of the region (not async def, no yield)"
DID_NOTHING = [
    pytest.param(_async_sweeper, f"it returned a coroutine, which nothing runs: {NOT_RUN}", id="async-def-sweeper"),
    pytest.param(_generator_sweeper, f"it returned a generator, which nothing runs: {NOT_RUN}", id="generator-sweeper"),
]


@pytest.mark.filterwarnings("error::RuntimeWarning")  # "coroutine was never awaited": it is closed, not dropped
@pytest.mark.parametrize(("f", "error"), DID_NOTHING)
def test_a_sweeper_that_did_nothing_never_passes(f: Callable[[str], Any], error: str) -> None:
    from plancheck.acceptance import Sweeper, SweepFailedError, run_sweepers

    with pytest.raises(SweepFailedError) as info:
        run_sweepers("r1", sweepers={"a": Sweeper("a", f)}, allow_failures=True, log=lambda line: None)
    assert info.value.result.failures == [("r1", "a", error)]


# == Promise 3: nothing outlives us ==============================================================================
# The real-Terraform matrix is tests/e2e/test_signals_e2e.py. Here: the command line reading a binary plan
# (``terraform show -json``) is sent SIGTERM while the show runs; a stand-in terraform that answers
# ``version`` and, for ``show``, starts a long ``sleep`` (a child of its own) shows whether the group ended.

FAKE_TERRAFORM = """#!/bin/sh
if [ "$1" = "version" ]; then
  echo '{"terraform_version": "1.11.4", "platform": "linux_amd64", "provider_selections": {}}'
  exit 0
fi
touch "$STARTED"
sleep 300 &
wait
"""


def _marked(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            if marker.encode() in (entry / "environ").read_bytes():
                found.append(int(entry.name))
    return found


@contextlib.contextmanager
def _ending(marker: str) -> Iterator[None]:
    try:
        yield
    finally:
        for pid in _marked(marker):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


SIGNALS = [pytest.param(signal.SIGTERM, id="SIGTERM"), pytest.param(signal.SIGHUP, id="SIGHUP"),
           pytest.param(signal.SIGINT, id="SIGINT")]
#: Every command that shows a binary plan (and the one with stdin, whose plan is copied to a file first).
COMMANDS = [
    pytest.param(["plan.bin", "--empty"], id="cli-checks"),
    pytest.param(["query", "plan.bin"], id="cli-query"),
    pytest.param(["snapshot", "plan.bin", "p.tfplan.snap", "--update"], id="cli-snapshot"),
    pytest.param(["-", "--empty"], id="cli-checks-stdin"),
]


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
@pytest.mark.parametrize("signum", SIGNALS)
@pytest.mark.parametrize("argv", COMMANDS)
def test_nothing_outlives_the_command_line(argv: list[str], signum: signal.Signals, tmp_path: Path) -> None:
    fake = tmp_path / "terraform"
    fake.write_text(FAKE_TERRAFORM, encoding="utf-8")
    fake.chmod(0o755)
    (tmp_path / "plan.bin").write_bytes(b"PK\x03\x04 not json")
    private = tmp_path / "tmp"
    private.mkdir()
    marker = f"TFPLANCHECK_PROMISE={uuid.uuid4().hex}"
    environ = {**os.environ, "STARTED": str(tmp_path / "started"), "TMPDIR": str(private),
               marker.split("=")[0]: marker.split("=")[1]}
    with _ending(marker):
        with open(tmp_path / "plan.bin", "rb") as stdin:
            process = subprocess.Popen([sys.executable, "-m", "plancheck", *argv, "--terraform", str(fake)],
                                       cwd=tmp_path, env=environ, stdin=stdin, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + 60
            while not (tmp_path / "started").exists():
                assert process.poll() is None, process.communicate()
                assert time.monotonic() < deadline, "the show never started"
                time.sleep(0.05)
            process.send_signal(signum)
            out, err = process.communicate(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()
                process.communicate()
        # SIGKILL is delivered to the group as the command ends, but a loaded machine takes a moment to end them.
        deadline = time.monotonic() + 10
        while (left := [pid for pid in _marked(marker) if pid != process.pid]) and time.monotonic() < deadline:
            time.sleep(0.05)
    assert process.returncode in (-signum, 128 + signum, 130 if signum == signal.SIGINT else -signum), (out, err)
    assert b"Traceback" not in err, err
    assert left == []
    assert list(private.iterdir()) == []
    assert not (tmp_path / "p.tfplan.snap").exists()


# == Promise 4: verdicts can be trusted ==========================================================================

CREATE_A = _rc("null_resource.a", {}, {})
DELETE_B = _rc("null_resource.b", None, False, actions=("delete",), before={})
ERRORED = _plan(CREATE_A, errored=True, complete=False, applyable=False)
REFUSED = ("$.errored: expected a plan whose planning succeeded, found true: planning failed, so the plan is partial "
           "(to check it anyway: allow_errored=True, tfplancheck --allow-errored or pytest --tf-allow-errored)")


def _cli_errored_checks_file(tmp: Path) -> tuple[Any, Any]:
    """Issue: ``tfplancheck plan -c checks.toml`` printed PASS ExpectNoDestroys and exited 0 on an errored plan."""
    _write(tmp / "plan.json", ERRORED)
    (tmp / "checks.toml").write_text('[[check]]\ntype = "ExpectNoDestroys"\n', encoding="utf-8")
    return cli("plan.json", "-c", "checks.toml", cwd=tmp), (2, "", f"tfplancheck: error: plan.json: {REFUSED}\n")


def _cli_errored_empty(tmp: Path) -> tuple[Any, Any]:
    _write(tmp / "plan.json", ERRORED)
    return cli("plan.json", "--empty", cwd=tmp), (2, "", f"tfplancheck: error: plan.json: {REFUSED}\n")


def _load_errored(tmp: Path) -> tuple[Any, Any]:
    _write(tmp / "plan.json", ERRORED)
    with pytest.raises(ErroredPlanError) as info:
        load_plan(tmp / "plan.json")
    return str(info.value), f"{tmp / 'plan.json'}: {REFUSED}"


def _allow_errored_says_partial(tmp: Path) -> tuple[Any, Any]:
    _write(tmp / "plan.json", _plan(CREATE_A, DELETE_B, errored=True))
    (tmp / "checks.toml").write_text('[[check]]\ntype = "ExpectNoDestroys"\n', encoding="utf-8")
    code, out, _ = cli("plan.json", "--allow-errored", "-c", "checks.toml", "--format", "json", cwd=tmp)
    doc = json.loads(out)
    return (code, doc["ok"], doc["plan"]["partial"]), (1, False, True)


def _many_stars(tmp: Path) -> tuple[Any, Any]:
    """Issue: ``*a*a*a*a*a*a*a*a*b`` over an 80-character address backtracked for over 30 s; a hang guard of 20 s."""
    address = "x" + "a" * 198
    pattern = "*a" * 20 + "*b"
    previous = signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError("the glob backtracks")))
    signal.alarm(20)
    try:
        plan = Plan.from_dict(_plan(_rc(f"null_resource.{address}", {}, {}), _rc(f"null_resource.{address}b", {}, {})))
        chosen = [rc.address for rc in plan.resource_changes if Resources(address=f"null_resource.{pattern}").matches(rc)]
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return chosen, [f"null_resource.{address}b"]


def _mock_plan_snapshot_json_usage(tmp: Path) -> tuple[Any, Any]:
    """Issue: ``mock-plan --snapshot FILE --format json`` printed text; every outcome is one JSON document."""
    code, out, _ = cli("mock-plan", "nowhere", "--mock", "acme/cloud=missing.json", "--snapshot", "m.snap",
                        "--format", "json", cwd=tmp)
    doc = json.loads(out)
    return (code, doc["ok"], doc["kind"]), (2, False, "error")


def _providers_mirror_empty(tmp: Path) -> tuple[Any, Any]:
    """Issue: ``providers mirror ""`` mirrored into the current directory."""
    code, out, err = cli("providers", "mirror", "", cwd=tmp)
    return (code, out, err.splitlines()[0], sorted(os.listdir(tmp))), (
        2, "", "tfplancheck: error: argument DIR: an empty path (name a file or directory)", [])


def _version_json(tmp: Path) -> tuple[Any, Any]:
    """Red team: ``tfplancheck --version --format json`` printed text, the one outcome without its JSON document."""
    import jsonschema

    from plancheck.cli._io import tool_version

    code, out, err = cli("--version", "--format", "json", cwd=tmp)
    doc = json.loads(out)
    jsonschema.validate(doc, json.loads((ROOT / "plancheck" / "schemas" / "cli-output.schema.json").read_text("utf-8")))
    return (code, doc, err), (0, {"schema_version": 1, "kind": "version", "tool_version": tool_version(), "ok": True}, "")


def _invisible_characters_in_a_name(tmp: Path) -> tuple[Any, Any]:
    """Red team: a zero-width space, a BOM or a right-to-left override in an instance key printed as nothing, so a
    FAIL line named ``null_resource.a["k"]`` while it meant another instance; an invisible character is shown escaped."""
    piece = "\u200b\ufeff\u2066"
    _write(tmp / "plan.json", _plan(_rc('null_resource.a["k"]', {}, {}),
                                    _rc(f'null_resource.a["k{piece}"]', {}, {})))
    address = json.dumps("null_resource.a[" + json.dumps("k" + piece, ensure_ascii=False) + "]")
    (tmp / "checks.toml").write_text(f'[[check]]\ntype = "ExpectResourceAction"\naddress = {address}\n'
                                     'action = "ResourceActionDestroy"\n', encoding="utf-8")
    code, out, err = cli("plan.json", "-c", "checks.toml", cwd=tmp)
    return (code, out.splitlines()[0], err), (
        1, 'FAIL  ExpectResourceAction: null_resource.a["k\\u200b\\ufeff\\u2066"]: expected Destroy, got action(s): '
        "[create]", "")


VERDICT_ROWS = [
    pytest.param(_invisible_characters_in_a_name, id="zero-width-bom-and-bidi-in-a-name-shown-escaped"),
    pytest.param(_cli_errored_checks_file, id="cli-errored-plan-checks-file-no-destroys"),
    pytest.param(_cli_errored_empty, id="cli-errored-plan-empty"),
    pytest.param(_load_errored, id="load_plan-errored"),
    pytest.param(_allow_errored_says_partial, id="allow-errored-json-says-partial"),
    pytest.param(_many_stars, id="glob-20-stars-200-characters"),
    pytest.param(_mock_plan_snapshot_json_usage, id="mock-plan-snapshot-json-one-document"),
    pytest.param(_providers_mirror_empty, id="providers-mirror-empty-path"),
    pytest.param(_version_json, id="version-json-one-document"),
]


@pytest.mark.parametrize("case", VERDICT_ROWS)
def test_verdicts_can_be_trusted(case: Callable[[Path], tuple[Any, Any]], tmp_path: Path) -> None:
    got, expected = case(tmp_path)
    assert got == expected


def _corpus_errored() -> list[Any]:
    manifest = CORPUS / "MANIFEST.tsv"
    lines = manifest.read_text("utf-8").splitlines() if manifest.exists() else []
    names = [line.split("\t")[0] for line in lines if line.endswith("-plan-error.json") or "plan-error" in line.split("\t")[0]]
    return corpus_cases([CORPUS / name for name in names], CORPUS, lambda path: path.stem)


@pytest.mark.parametrize("path", _corpus_errored())
def test_the_corpus_s_errored_plans_never_pass_empty(path: Path, tmp_path: Path) -> None:
    code, out, err = cli(str(path), "--empty", cwd=tmp_path)
    assert (code, out) == (2, "")
    assert err.endswith(f"{REFUSED}\n")


def test_no_destroys_on_an_errored_plan_never_passes_through_assert_plan() -> None:
    """The check itself, given a plan read with allow_errored=True: a pass says the plan is partial."""
    with pytest.warns(PlanCheckWarning) as caught:
        assert_plan(Plan.from_dict(ERRORED, allow_errored=True), ExpectNoDestroys())
    assert [str(w.message) for w in caught] == [
        'assert_plan: the plan is partial: planning failed ("errored": true), so it holds only what Terraform '
        "planned before the error"]
    with pytest.raises(ErroredPlanError) as info:
        Plan.from_dict(ERRORED)
    assert str(info.value) == REFUSED


FORGOT_THE_PLAN = [
    pytest.param("ExpectNoDestroys()", "got ExpectNoDestroys", id="a-check-where-the-plan-goes"),
    pytest.param('"plan.json", ExpectNoDestroys()', "got str", id="a-path-where-the-plan-goes"),
    pytest.param('"plan.json"', "got str", id="a-path-and-no-checks"),
]


@pytest.mark.parametrize(("arguments", "got"), FORGOT_THE_PLAN)
def test_the_assert_plan_fixture_never_passes_without_a_plan(pytester: pytest.Pytester, arguments: str,
                                                             got: str) -> None:
    """Red team: ``assert_plan(ExpectNoDestroys())`` (the plan forgotten) passed, running nothing; the library's
    ``assert_plan`` refuses the same call."""
    pytester.makepyfile(test_inner=f"""
from plancheck import ExpectNoDestroys


def test_forgot(assert_plan):
    assert_plan({arguments})
""")
    result = pytester.runpytest(*QUIET)
    result.assert_outcomes(failed=1)
    assert f"plancheck.ArgumentError: assert_plan expects a plancheck.Plan (use load_plan or Plan.from_dict), {got}" in \
        result.stdout.str()


def _two_secret_keys(first: int, second: int) -> Plan:
    keys = ("zzRT-key-one-1111", "zzRT-key-two-2222")
    return Plan.from_dict(_plan(
        *(_rc(f'null_resource.a["{key}"]', {"size": size}, {}, index=key) for key, size in zip(keys, (first, second), strict=True)),
        variables={"a": {"value": keys[0]}, "b": {"value": keys[1]}},
        configuration={"root_module": {"variables": {"a": {"sensitive": True}, "b": {"sensitive": True}}}},
    ))


def test_values_moved_between_instances_with_hidden_keys_are_a_difference() -> None:
    """Red team: two instances keyed by secrets swap their values; the snapshot diff (two plans, which has a key made
    for the call) says nothing changed, and ``tfplancheck snapshot`` says the plan matches its snapshot."""
    assert snapshot.diff(_two_secret_keys(1, 2), _two_secret_keys(2, 1)) != []


DUPLICATE_KEYS = [
    pytest.param('{"format_version": "1.2", "errored": true, "errored": false, "resource_changes": []}', ["--empty"],
                 id="errored-true-then-false-passes-empty"),
    pytest.param('{"format_version": "1.2", "resource_changes": [{"address": "a.b", "mode": "managed", "type": "a", '
                 '"name": "b", "change": {"actions": ["create"], "before": null, "after": {"pw": "' + SECRET + '"}, '
                 '"after_sensitive": {"pw": true}, "after_sensitive": {}}}]}', ["--unknown", "a.b", "pw"],
                 id="a-mark-then-none-shows-the-secret"),
]


@pytest.mark.parametrize(("text", "argv"), DUPLICATE_KEYS)
def test_a_plan_with_a_repeated_key_is_refused(text: str, argv: list[str], tmp_path: Path) -> None:
    """Red team: Terraform never repeats a key, but a hand-merged or crafted plan may; either reading is a guess."""
    (tmp_path / "plan.json").write_text(text, encoding="utf-8")
    code, out, err = cli("plan.json", *argv, cwd=tmp_path)
    assert SECRET not in out + err
    assert (code, out) == (2, "")
    assert "repeated" in err or "duplicate" in err


PARTIAL_NOTE = ('the plan is partial: planning failed ("errored": true), so it holds only what Terraform planned '
                "before the error")
SAY_PARTIAL = [
    pytest.param(["query", "plan.json", "--allow-errored"], id="query-addresses"),
    pytest.param(["query", "plan.json", "null_resource.a", "--allow-errored"], id="query-value"),
    pytest.param(["query", "plan.json", "null_resource.a", "--allow-errored", "--format", "json"], id="query-value-json"),
    pytest.param(["snapshot", "plan.json", "p.tfplan.snap", "--allow-errored", "--update"], id="snapshot-write"),
    pytest.param(["snapshot", "plan.json", "p.tfplan.snap", "--allow-errored", "--update", "--format", "json"],
                 id="snapshot-write-json"),
]


@pytest.mark.parametrize("argv", SAY_PARTIAL)
def test_every_command_reading_an_errored_plan_says_it_is_partial(argv: list[str], tmp_path: Path) -> None:
    """Red team: the issue asks that, with ``--allow-errored``, each result says the plan is partial; only the checks
    command did (NOTE and the JSON report's plan.partial), query and snapshot read the partial plan silently."""
    _write(tmp_path / "plan.json", ERRORED)
    code, out, err = cli(*argv, cwd=tmp_path)
    assert code == 0, err
    if "json" in argv:
        import jsonschema

        doc = json.loads(out)
        jsonschema.validate(doc, json.loads((ROOT / "plancheck" / "schemas" / "cli-output.schema.json").read_text("utf-8")))
        assert (doc["plan"]["partial"] if doc["kind"] == "value" else doc["partial"]) is True
    else:
        assert f"NOTE  {PARTIAL_NOTE}" in out.splitlines()


_SECRET_CONFIG = """
terraform {
  required_providers {
    null = { source = "hashicorp/null", version = "2.1.2" }
  }
}
variable "pw" {
  sensitive = true
  default   = "%s"
}
resource "null_resource" "a" {
  triggers = { pw = var.pw, name = "web" }
}
"""


@pytest.mark.e2e
def test_a_real_binary_plan_s_secret_never_leaves_the_command_line(
    tf_acceptance_binary: Any, tf_acceptance_cli_config: Path, tmp_path: Path
) -> None:
    """The secrets table on real Terraform (1.0.3 and 1.11): a sensitive variable's value, planned into a binary plan,
    shows in no byte the command line prints for it (checks, query, snapshot; text and JSON)."""
    from plancheck._terraform.binary import terraform_environment

    if tf_acceptance_binary is None:
        pytest.skip("no Terraform binary")
    (tmp_path / "main.tf").write_text(_SECRET_CONFIG % SECRET, encoding="utf-8")
    env = terraform_environment(os.environ, data_dir=tmp_path / ".terraform", cli_config=tf_acceptance_cli_config)
    terraform = str(tf_acceptance_binary.path)
    for step in (["init", "-input=false", "-no-color"], ["plan", "-input=false", "-no-color", "-out=tfplan"]):
        done = subprocess.run([terraform, *step], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
                              check=False)
        assert done.returncode == 0, done.stdout + done.stderr
    shown = []
    for argv in (["tfplan", "--sensitive", "null_resource.a", 'triggers["pw"]', "--unknown", "null_resource.a",
                  'triggers["pw"]'], ["tfplan", "--unknown", "null_resource.a", "triggers", "--format", "json"],
                 ["query", "tfplan", "null_resource.a"], ["query", "tfplan", "null_resource.a", "--format", "json"],
                 ["snapshot", "tfplan", "p.tfplan.snap", "--update"]):
        done = subprocess.run([sys.executable, "-m", "plancheck", *argv, "--terraform", terraform], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=300, check=False)
        assert "Traceback" not in done.stderr
        shown.append(done.stdout + done.stderr)
    shown.append((tmp_path / "p.tfplan.snap").read_text("utf-8"))
    assert leaks("\n".join(shown), {"secret": SECRET}) == []
    assert 'FAIL  ExpectUnknownValue: null_resource.a: triggers["pw"]: expected an unknown value, but it is known: ' \
           "(sensitive)" in shown[0].splitlines()
    assert '  triggers["pw"] = (sensitive)' in shown[-1].splitlines()
