"""``--format json`` prints exactly one JSON document whose ``ok`` agrees with the exit status, on every command
and every outcome (pass, fail, bad input); and an empty path argument is a usage error on every command (#33).

A command without ``--format`` (``providers``, ``destroy-leftovers``) refuses it as a usage error, in JSON.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from clirun import automation, cli

from plancheck.acceptance import AcceptanceRunner

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "plancheck" / "schemas" / "cli-output.schema.json").read_text("utf-8"))
sys.path.insert(0, str(ROOT / "tests" / "mock"))
from mock_support import CLOUD_SCHEMA, EXAMPLE  # noqa: E402

PLAN = {
    "format_version": "1.2",
    "resource_changes": [{"address": "null_resource.a", "mode": "managed", "type": "null_resource", "name": "a",
                          "change": {"actions": ["create"], "before": None, "after": {"triggers": {"k": "v"}},
                                     "after_unknown": {"id": True}}}],
}
CHANGED = {**PLAN, "resource_changes": [{**PLAN["resource_changes"][0], "change": {
    **PLAN["resource_changes"][0]["change"], "after": {"triggers": {"k": "w"}}}}]}


def _one_document(code: int, out: str) -> dict[str, Any]:
    doc = json.loads(out)  # exactly one document: anything after it is "Extra data"
    jsonschema.validate(doc, SCHEMA)
    assert doc["ok"] is (code == 0), (code, doc)
    return doc


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "plan.json").write_text(json.dumps(PLAN), encoding="utf-8")
    (tmp_path / "changed.json").write_text(json.dumps(CHANGED), encoding="utf-8")
    (tmp_path / "checks.toml").write_text('[[check]]\ntype = "ExpectNonEmptyPlan"\n', encoding="utf-8")
    (tmp_path / "leftovers").mkdir()
    return tmp_path


# (argv, exit status, kind): every command, each outcome it has.
CASES = [
    pytest.param(["plan.json", "--non-empty"], 0, "results", id="checks-pass"),
    pytest.param(["plan.json", "-c", "checks.toml", "--empty"], 1, "results", id="checks-fail"),
    pytest.param(["missing.json", "--empty"], 2, "error", id="checks-missing-plan"),
    pytest.param(["plan.json", "-c", "missing.toml"], 2, "error", id="checks-missing-checks-file"),
    pytest.param(["plan.json", "--bogus"], 2, "error", id="checks-usage"),
    pytest.param(["plan.json", "-c", ""], 2, "error", id="checks-empty-checks-path"),
    pytest.param(["", "--empty"], 2, "error", id="checks-empty-plan-path"),
    pytest.param(["--list-checks"], 0, "catalogue", id="list-checks"),
    pytest.param(["query", "plan.json"], 0, "addresses", id="query-addresses"),
    pytest.param(["query", "plan.json", "null_resource.a", 'triggers["k"]'], 0, "value", id="query-value"),
    pytest.param(["query", "plan.json", "null_resource.nope"], 2, "error", id="query-missing-address"),
    pytest.param(["query", "missing.json"], 2, "error", id="query-missing-plan"),
    pytest.param(["query", ""], 2, "error", id="query-empty-path"),
    pytest.param(["snapshot", "plan.json", "p.snap", "--update"], 0, "snapshot", id="snapshot-write"),
    pytest.param(["snapshot", "plan.json", "p.snap"], 2, "error", id="snapshot-missing"),
    pytest.param(["snapshot", "missing.json", "p.snap"], 2, "error", id="snapshot-missing-plan"),
    pytest.param(["snapshot", "plan.json", ""], 2, "error", id="snapshot-empty-path"),
    pytest.param(["mock-plan", "nowhere", "--mock", "acme/cloud=missing.json"], 2, "error", id="mock-plan-bad-input"),
    pytest.param(["mock-plan", "", "--mock", "acme/cloud=x.json"], 2, "error", id="mock-plan-empty-path"),
    pytest.param(["providers", "mirror", "mirror"], 2, "error", id="providers-no-format"),
    pytest.param(["providers", "mirror", ""], 2, "error", id="providers-empty-path"),
    pytest.param(["destroy-leftovers", "leftovers"], 2, "error", id="leftovers-no-format"),
    pytest.param(["destroy-leftovers", ""], 2, "error", id="leftovers-empty-path"),
]


@pytest.mark.parametrize(("argv", "code", "kind"), CASES)
def test_every_command_prints_one_json_document_agreeing_with_its_exit_status(
    files: Path, argv: list[str], code: int, kind: str
) -> None:
    got, out, err = cli(*argv, "--format", "json", cwd=files)
    doc = _one_document(got, out)
    assert (got, doc["kind"]) == (code, kind), (out, err)
    assert not (files / "mirror").exists()  # nothing is written by a refused command
    if kind == "error":
        assert err.startswith(f"tfplancheck: error: {doc['error']['message']}\n")


def test_snapshot_json_says_same_then_differs(files: Path) -> None:
    assert cli("snapshot", "plan.json", "p.snap", "--update", cwd=files)[0] == 0
    code, out, _ = cli("snapshot", "plan.json", "p.snap", "--format", "json", cwd=files)
    assert _one_document(code, out)["snapshot"] == {
        "file": "p.snap", "status": "same", "ok": True, "lines": ["p.snap: the plan matches its snapshot"]}
    code, out, _ = cli("snapshot", "changed.json", "p.snap", "--format", "json", cwd=files)
    doc = _one_document(code, out)
    assert (code, doc["snapshot"]["status"], doc["snapshot"]["lines"]) == (1, "differs", [
        'null_resource.a: triggers["k"]: "v" -> "w"',
        "p.snap: the plan differs from its snapshot (1 difference; accept them with --update)"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(["providers", "mirror", ""], "argument DIR: an empty path (name a file or directory)", id="providers"),
        pytest.param(["providers", "mirror", "m", "--cli-config", ""],
                     "argument --cli-config: an empty path (name a file or directory)", id="providers-cli-config"),
        pytest.param(["destroy-leftovers", ""], "argument DIR: an empty path (name a file or directory)", id="leftovers"),
        pytest.param(["destroy-leftovers", "--terraform", ""],
                     "argument --terraform: an empty path (name a file or directory)", id="leftovers-terraform"),
        pytest.param(["mock-plan", "", "--mock", "a=b"], "argument DIR: an empty path (name a file or directory)",
                     id="mock-plan"),
        pytest.param(["mock-plan", "d", "--mock", "a=b", "--out", ""],
                     "argument --out: an empty path (name a file or directory)", id="mock-plan-out"),
        pytest.param(["mock-plan", "d", "--mock", "a=b", "--snapshot", ""],
                     "argument --snapshot: an empty path (name a file or directory)", id="mock-plan-snapshot"),
        pytest.param(["mock-plan", "d", "--mock", "a=b", "--var-file", " "],
                     "argument --var-file/-var-file: an empty path (name a file or directory)", id="mock-plan-var-file-blank"),
        pytest.param(["mock-plan", "d", "--mock", "a=b", "-c", ""],
                     "argument -c/--checks: an empty path (name a file or directory)", id="mock-plan-checks"),
        pytest.param(["snapshot", "", "p.snap"], "argument PLAN: an empty path (name a file or directory)",
                     id="snapshot-plan"),
        pytest.param(["snapshot", "plan.json", ""], "argument FILE: an empty path (name a file or directory)",
                     id="snapshot-file"),
        pytest.param(["query", ""], "argument plan: an empty path (name a file or directory)", id="query"),
        pytest.param(["query", "plan.json", "--terraform", ""],
                     "argument --terraform: an empty path (name a file or directory)", id="query-terraform"),
        pytest.param(["", "--empty"], "argument plan: an empty path (name a file or directory)", id="checks-plan"),
        pytest.param(["plan.json", "-c", ""], "argument -c/--checks: an empty path (name a file or directory)",
                     id="checks-file"),
        pytest.param(["plan.json", "--empty", "--terraform", ""],
                     "argument --terraform: an empty path (name a file or directory)", id="checks-terraform"),
    ],
)
def test_an_empty_path_argument_is_a_usage_error(files: Path, argv: list[str], message: str) -> None:
    code, out, err = cli(*argv, cwd=files)
    assert (code, out, err.splitlines()[0]) == (2, "", f"tfplancheck: error: {message}")
    assert sorted(p.name for p in files.iterdir()) == ["changed.json", "checks.toml", "leftovers", "plan.json"]


# -- mock-plan with real Terraform: --snapshot, with and without checks --------------------------


@pytest.mark.e2e
def test_mock_plan_snapshot_json_agrees_with_its_exit_status(
    tf_acceptance: AcceptanceRunner, tmp_path: Path, private_tmp: Path
) -> None:
    pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    environ = automation()
    (tmp_path / "checks.toml").write_text('[[check]]\ntype = "ExpectNonEmptyPlan"\n', encoding="utf-8")
    base = ["mock-plan", str(EXAMPLE), "--mock", f"acme/cloud={CLOUD_SCHEMA}", "--terraform",
            tf_acceptance.terraform.path, "--snapshot", "m.snap", "--format", "json", "--var", "encryption_key=k3y-Value"]
    code, out, err = cli(*base, "--update", cwd=tmp_path, environ=environ)
    assert (code, _one_document(code, out).get("snapshot", {}).get("status")) == (0, "written"), out + err
    changed = ["--var", "name=logs2"]
    code, out, _ = cli(*base, *changed, cwd=tmp_path, environ=environ)
    assert (code, _one_document(code, out)["snapshot"]["status"]) == (1, "differs")
    # The checks pass, the snapshot differs: one results document, ok false, exit 1.
    code, out, _ = cli(*base, *changed, "-c", "checks.toml", cwd=tmp_path, environ=environ)
    doc = _one_document(code, out)
    assert (code, doc["kind"], doc["summary"]["passed"], doc["snapshot"]["status"]) == (1, "results", 1, "differs")
    code, out, _ = cli(*base, "-c", "checks.toml", cwd=tmp_path, environ=environ)
    doc = _one_document(code, out)
    assert (code, doc["snapshot"]["status"]) == (0, "same")
