"""A plan Terraform wrote although planning failed (``"errored": true``) is refused by every front end.

``terraform plan -out`` writes a plan file even when planning fails (Terraform 1.2+: a failed
precondition, for one); its JSON says ``"errored": true`` and holds only what was planned before
the error. A check on it could pass only because what failed was never planned, so the one check
in ``Plan`` construction refuses it (an :class:`~plancheck.ErroredPlanError` naming the source) for
every loader, the command line (exit 2), the pytest plugin's ``tf_plan`` and the acceptance runner,
unless the caller opts in (``allow_errored=True``, ``--allow-errored``, ``--tf-allow-errored``); then
every verdict says the plan is partial, and ``ExpectEmptyPlan`` never passes it.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import clirun
import pytest

from plancheck import (
    ErroredPlanError,
    ExpectEmptyPlan,
    ExpectNonEmptyPlan,
    ExpectResourceAction,
    Plan,
    PlanCheckError,
    PlanCheckWarning,
    PlanFormatError,
    ResourceAction,
    TfCheckError,
    assert_plan,
    load_plan,
)
from plancheck._plugin.cache import load_plan_file
from plancheck._terraform.binary import TerraformBinary, terraform_environment

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
SCHEMA = json.loads((ROOT / "plancheck" / "schemas" / "cli-output.schema.json").read_text("utf-8"))

REFUSED = (
    "$.errored: expected a plan whose planning succeeded, found true: planning failed, so the plan is partial "
    "(to check it anyway: allow_errored=True, tfplancheck --allow-errored or pytest --tf-allow-errored)"
)
PARTIAL = (
    'the plan is partial: planning failed ("errored": true), so it holds only what Terraform planned before the error'
)
NOT_EMPTY = (
    'ExpectEmptyPlan: expected an empty plan, but planning failed ("errored": true): '
    "what failed was not planned, so an empty-looking plan proves nothing"
)


def _plan(**envelope: Any) -> dict[str, Any]:
    return {"format_version": "1.2", **envelope}


CREATE_A = {"address": "null_resource.a", "mode": "managed", "type": "null_resource", "name": "a",
            "change": {"actions": ["create"], "before": None, "after": {}, "after_unknown": {"id": True}}}

#: Hand-made errored plans: what Terraform 1.11 writes (a failed precondition), and the smallest shapes.
ERRORED = [
    pytest.param(_plan(errored=True, complete=False, applyable=False, resource_changes=[CREATE_A]),
                 id="terraform-1.11-precondition"),
    pytest.param(_plan(errored=True), id="nothing-planned"),
    pytest.param(_plan(errored=True, resource_changes=[]), id="no-complete-or-applyable"),  # OpenTofu's shape
]
#: Plans that are not errored: loaded as before.
NOT_ERRORED = [
    # planned_values: the plugin refuses a document of none of a plan's keys (an empty state), errored or not.
    pytest.param(_plan(planned_values={}), id="no-errored-key"),
    pytest.param(_plan(errored=False, complete=True, applyable=True), id="errored-false"),
    pytest.param(_plan(errored=False, complete=False, applyable=False), id="incomplete-not-errored"),
]


def _write(tmp_path: Path, document: dict[str, Any]) -> Path:
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def _from_stream(path: Path, **options: Any) -> Plan:
    with open(path, "rb") as stream:
        return load_plan(stream, **options)


# Every loader, given a file named plan.json (or its text or dict with source="plan.json").
LOADERS: list[Any] = [
    pytest.param(lambda p, **kw: load_plan(p, **kw), id="load_plan-path"),
    pytest.param(_from_stream, id="load_plan-stream"),
    pytest.param(lambda p, **kw: load_plan_file(p, **kw), id="load_plan_file"),
    pytest.param(lambda p, **kw: Plan.from_json(p.read_text(), source=str(p), **kw), id="Plan.from_json"),
    pytest.param(lambda p, **kw: Plan.from_dict(json.loads(p.read_text()), source=str(p), **kw), id="Plan.from_dict"),
    pytest.param(lambda p, **kw: Plan(json.loads(p.read_text()), source=str(p), **kw), id="Plan"),
    pytest.param(lambda p, **kw: Plan.from_json(p.read_bytes(), source=str(p), validation="full", **kw),
                 id="Plan.from_json-full-validation"),
]


@pytest.mark.parametrize("loader", LOADERS)
@pytest.mark.parametrize("document", ERRORED)
def test_every_loader_refuses_an_errored_plan_naming_it(
    tmp_path: Path, loader: Callable[..., Plan], document: dict[str, Any]
) -> None:
    path = _write(tmp_path, document)
    with pytest.raises(ErroredPlanError) as caught:
        loader(path)
    assert str(caught.value) == f"{path}: {REFUSED}"
    assert caught.value.source == str(path)
    assert isinstance(caught.value, (PlanFormatError, TfCheckError, ValueError))


@pytest.mark.parametrize("loader", LOADERS)
@pytest.mark.parametrize("document", ERRORED)
def test_every_loader_reads_an_errored_plan_when_asked_and_marks_it_partial(
    tmp_path: Path, loader: Callable[..., Plan], document: dict[str, Any]
) -> None:
    plan = loader(_write(tmp_path, document), allow_errored=True)
    assert (plan.partial, plan.errored, plan.partial_note) == (True, True, PARTIAL)


@pytest.mark.parametrize("loader", LOADERS)
@pytest.mark.parametrize("document", NOT_ERRORED)
def test_a_plan_that_did_not_error_loads_as_before(
    tmp_path: Path, loader: Callable[..., Plan], document: dict[str, Any]
) -> None:
    plan = loader(_write(tmp_path, document))
    assert (plan.partial, plan.partial_note) == (False, None)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        pytest.param(1, "Plan: allow_errored must be a bool, got int", id="int"),
        pytest.param("yes", "Plan: allow_errored must be a bool, got str", id="str"),
        pytest.param(None, "Plan: allow_errored must be a bool, got NoneType", id="None"),
    ],
)
def test_allow_errored_must_be_a_bool(value: object, message: str) -> None:
    with pytest.raises(TypeError) as caught:
        Plan.from_dict(_plan(errored=True), allow_errored=value)  # type: ignore[arg-type]
    assert str(caught.value) == message


def test_the_error_pickles_as_its_fields() -> None:
    error = ErroredPlanError("plan.json")
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), str(copy), copy.source, copy.location) == (ErroredPlanError, str(error), "plan.json", "$.errored")


# -- verdicts on a partial plan (opted in) ---------------------------------------------------


def _partial(**envelope: Any) -> Plan:
    return Plan.from_dict(_plan(errored=True, complete=False, applyable=False, **envelope), allow_errored=True)


@pytest.mark.parametrize(
    ("checks", "message"),
    [
        pytest.param(
            [ExpectResourceAction("null_resource.a", ResourceAction.Update)],
            f"ExpectResourceAction: null_resource.a: expected Update, got action(s): [create]\nnote: {PARTIAL}",
            id="one-failure",
        ),
        pytest.param(
            [ExpectEmptyPlan()],
            f"2 plan checks failed:\n  1. {NOT_EMPTY}\n"
            "  2. ExpectEmptyPlan: null_resource.a: expected an empty plan, but it has planned action(s): [create]\n"
            f"note: {PARTIAL}",
            id="empty-with-a-change",
        ),
    ],
)
def test_a_failure_on_a_partial_plan_says_it_is_partial(checks: list[Any], message: str) -> None:
    with pytest.raises(PlanCheckError) as caught:
        assert_plan(_partial(resource_changes=[CREATE_A]), *checks)
    assert str(caught.value) == message
    assert caught.value.note == PARTIAL
    with pytest.raises(PlanCheckError) as single:
        checks[0].CheckPlan(_partial(resource_changes=[CREATE_A]))
    assert str(single.value).endswith(f"\nnote: {PARTIAL}")


def test_a_pass_on_a_partial_plan_warns_that_it_is_partial() -> None:
    with pytest.warns(PlanCheckWarning) as seen:
        assert_plan(_partial(resource_changes=[CREATE_A]), ExpectResourceAction("null_resource.a", ResourceAction.Create),
                    ExpectNonEmptyPlan())
    assert [str(w.message) for w in seen] == [f"assert_plan: {PARTIAL}"]
    assert seen[0].filename == __file__  # located at the caller's line, not in the library


def test_a_pass_on_a_complete_plan_says_nothing() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_plan(Plan.from_dict(_plan(resource_changes=[CREATE_A])), ExpectNonEmptyPlan())


@pytest.mark.parametrize("document", ERRORED)
def test_expect_empty_plan_never_passes_an_errored_plan(document: dict[str, Any]) -> None:
    plan = Plan.from_dict(document, allow_errored=True)
    failures = [str(f) for f in ExpectEmptyPlan().failures(plan)]
    assert failures[0] == NOT_EMPTY


# -- the command line ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["plan.json", "--empty"], id="checks-flag"),
        pytest.param(["plan.json", "--action", "null_resource.a", "create", "--format", "json"], id="checks-json"),
        pytest.param(["query", "plan.json"], id="query"),
        pytest.param(["query", "plan.json", "null_resource.a", "--format", "json"], id="query-json"),
        pytest.param(["snapshot", "plan.json", "plan.snap", "--update"], id="snapshot"),
    ],
)
def test_the_command_line_refuses_an_errored_plan_in_one_line(tmp_path: Path, argv: list[str]) -> None:
    _write(tmp_path, _plan(errored=True, complete=False, applyable=False, resource_changes=[CREATE_A]))
    code, out, err = clirun.cli(*argv, cwd=tmp_path)
    assert (code, err) == (2, f"tfplancheck: error: plan.json: {REFUSED}\n")
    if "json" in argv:
        doc = json.loads(out)
        assert (doc["ok"], doc["error"]) == (False, {"kind": "plan", "message": f"plan.json: {REFUSED}"})
    else:
        assert out == ""
    assert not (tmp_path / "plan.snap").exists()


_NOTES = [
    f"NOTE  {PARTIAL}",
    'NOTE  the plan is not complete ("complete": false): another plan and apply are needed to converge',
    'NOTE  the plan is not applyable ("applyable": false): terraform apply would refuse it',
]


@pytest.mark.parametrize(
    ("flags", "code", "lines"),
    [
        pytest.param(["--action", "null_resource.a", "create"], 0,
                     [*_NOTES, "PASS  ExpectResourceAction: null_resource.a",
                      "1 check in plan.json (a partial plan): 1 passed, 0 failed"], id="pass"),
        pytest.param(["--empty"], 1,
                     [*_NOTES, f"FAIL  {NOT_EMPTY}",
                      "        null_resource.a: expected an empty plan, but it has planned action(s): [create]",
                      "1 check in plan.json (a partial plan): 0 passed, 1 failed"], id="empty-fails"),
        pytest.param(["--action", "null_resource.a", "create", "-q"], 0, [f"NOTE  {PARTIAL}"], id="quiet"),
    ],
)
def test_allow_errored_checks_the_partial_plan_and_says_so(
    tmp_path: Path, flags: list[str], code: int, lines: list[str]
) -> None:
    _write(tmp_path, _plan(errored=True, complete=False, applyable=False, resource_changes=[CREATE_A]))
    got, out, err = clirun.cli("plan.json", "--allow-errored", *flags, cwd=tmp_path)
    assert (got, out.splitlines(), err) == (code, lines, "")


@pytest.mark.parametrize(
    ("document", "flags", "code", "plan_fields"),
    [
        pytest.param(_plan(errored=True, complete=False, applyable=False, resource_changes=[CREATE_A]),
                     ["--allow-errored", "--empty"], 1,
                     {"errored": True, "complete": False, "applyable": False, "partial": True}, id="errored"),
        pytest.param(_plan(errored=False, complete=False, applyable=False, resource_changes=[CREATE_A]),
                     ["--non-empty"], 0,
                     {"errored": False, "complete": False, "applyable": False, "partial": False}, id="incomplete"),
        pytest.param(_plan(resource_changes=[CREATE_A]), ["--non-empty"], 0,
                     {"errored": None, "complete": None, "applyable": None, "partial": False}, id="no-keys"),
    ],
)
def test_the_json_report_says_errored_complete_applyable_and_partial(
    tmp_path: Path, document: dict[str, Any], flags: list[str], code: int, plan_fields: dict[str, Any]
) -> None:
    import jsonschema

    _write(tmp_path, document)
    got, out, _ = clirun.cli("plan.json", *flags, "--format", "json", cwd=tmp_path)
    doc = json.loads(out)
    jsonschema.validate(doc, SCHEMA)
    assert (got, doc["ok"]) == (code, code == 0)
    assert {k: doc["plan"][k] for k in plan_fields} == plan_fields


def test_the_text_summary_shows_complete_and_applyable_false(tmp_path: Path) -> None:
    _write(tmp_path, _plan(errored=False, complete=False, applyable=False, resource_changes=[CREATE_A]))
    code, out, _ = clirun.cli("plan.json", "--non-empty", cwd=tmp_path)
    assert (code, out.splitlines()) == (0, [*_NOTES[1:], "PASS  ExpectNonEmptyPlan", "1 check in plan.json: 1 passed, 0 failed"])


@pytest.mark.parametrize(
    ("errored", "argv", "lines"),
    [
        pytest.param(True, ["query", "plan.json"], [f"NOTE  {PARTIAL}", "null_resource.a  create"], id="addresses"),
        pytest.param(True, ["query", "plan.json", "null_resource.a", "id"],
                     [f"NOTE  {PARTIAL}", "null_resource.a id (after)", "  status:    unknown", "  sensitive: no",
                      "  value:     (known after apply)"],
                     id="value"),
        pytest.param(False, ["query", "plan.json"], ["null_resource.a  create"], id="addresses-complete-plan"),
    ],
)
def test_query_says_its_answer_stands_on_a_partial_plan(
    tmp_path: Path, errored: bool, argv: list[str], lines: list[str]
) -> None:
    """Before: the same answer as on a complete plan, nothing saying the plan held only part of what was planned."""
    _write(tmp_path, _plan(errored=errored, complete=False, applyable=False, resource_changes=[CREATE_A]))
    code, out, err = clirun.cli(*argv, "--allow-errored", cwd=tmp_path)
    assert (code, out.splitlines(), err) == (0, lines, "")


@pytest.mark.parametrize(
    ("argv", "key"),
    [
        pytest.param(["query", "plan.json"], ("partial",), id="addresses"),
        pytest.param(["query", "plan.json", "null_resource.a", "id"], ("plan", "partial"), id="value"),
    ],
)
@pytest.mark.parametrize("errored", [True, False], ids=["errored", "not-errored"])
def test_query_json_says_whether_the_plan_is_partial(
    tmp_path: Path, argv: list[str], key: tuple[str, ...], errored: bool
) -> None:
    import jsonschema

    _write(tmp_path, _plan(errored=errored, resource_changes=[CREATE_A]))
    code, out, _ = clirun.cli(*argv, "--allow-errored", "--format", "json", cwd=tmp_path)
    doc = json.loads(out)
    jsonschema.validate(doc, SCHEMA)
    for part in key:
        doc = doc[part]
    assert (code, doc) == (0, errored)


# -- the pytest plugin ----------------------------------------------------------------------------

_FIXTURE_TEST = """
from plancheck import ExpectEmptyPlan

def test_uses_the_plan(tf_plan, assert_plan):
    assert tf_plan.partial
    assert_plan(tf_plan, ExpectEmptyPlan())
"""


@pytest.mark.parametrize(
    ("args", "ini", "outcome", "expected"),
    [
        pytest.param([], "", {"errors": 1}, f"tf_plan (from --tf-plan): {{plan}}: {REFUSED}", id="refused"),
        pytest.param(["--tf-allow-errored"], "", {"failed": 1}, f"note: {PARTIAL}", id="option"),
        pytest.param([], "tf_allow_errored = true", {"failed": 1}, f"note: {PARTIAL}", id="ini"),
        pytest.param([], "tf_allow_errored = false", {"errors": 1}, f"tf_plan (from --tf-plan): {{plan}}: {REFUSED}",
                     id="ini-false"),
    ],
)
def test_the_tf_plan_fixture_refuses_an_errored_plan_unless_asked(
    pytester: pytest.Pytester, args: list[str], ini: str, outcome: dict[str, int], expected: str
) -> None:
    plan = _write(pytester.path, _plan(errored=True, complete=False, applyable=False))
    if ini:
        pytester.makeini(f"[pytest]\n{ini}\n")
    pytester.makepyfile(test_errored=_FIXTURE_TEST)
    result = pytester.runpytest("-p", "no:hypothesispytest", "-p", "no:cacheprovider", "--tf-plan", "plan.json", *args)
    result.assert_outcomes(**outcome)
    out = result.stdout.str()
    assert expected.format(plan=plan) in out
    assert ("Traceback" in out, "INTERNALERROR" in out) == (False, False)


# -- the corpus ---------------------------------------------------------------------------------------


def _corpus_errored() -> list[Any]:
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.is_file():
        return [pytest.param(None, id="no-corpus", marks=pytest.mark.skip(reason=f"no corpus at {CORPUS}"))]
    names = [line.split("\t")[0] for line in manifest.read_text("utf-8").splitlines()[1:]
             if "errored=true" in line and line.split("\t")[1] == "plan"]
    return [pytest.param(CORPUS / name, id=Path(name).stem) for name in names]


@pytest.mark.parametrize("path", _corpus_errored())
def test_the_corpus_s_errored_plans_are_refused_by_default_and_never_pass_empty(path: Path, tmp_path: Path) -> None:
    assert json.loads(path.read_text("utf-8"))["errored"] is True  # the manifest's word, checked
    with pytest.raises(ErroredPlanError) as caught:
        load_plan(path)
    assert str(caught.value) == f"{path}: {REFUSED}"
    code, _, err = clirun.cli(str(path), "--empty", cwd=tmp_path)
    assert (code, err) == (2, f"tfplancheck: error: {path}: {REFUSED}\n")
    code, out, _ = clirun.cli(str(path), "--empty", "--allow-errored", cwd=tmp_path)
    assert (code, f"FAIL  {NOT_EMPTY}" in out.splitlines()) == (1, True)


def test_the_corpus_has_errored_plans() -> None:
    cases = _corpus_errored()
    if cases[0].id == "no-corpus":
        pytest.skip(f"no corpus at {CORPUS}")
    assert len(cases) >= 2


# -- real Terraform: a binary plan file written although planning failed -------------------------

_FAILING_CONFIG = """
terraform {
  required_providers {
    null = { source = "hashicorp/null", version = "2.1.2" }
  }
}
variable "gate" {
  default = "closed"
}
resource "null_resource" "a" {}
resource "null_resource" "b" {
  lifecycle {
    precondition {
      condition     = var.gate == "open"
      error_message = "The gate is closed."
    }
  }
}
"""


@pytest.mark.e2e
def test_a_real_errored_binary_plan_is_refused_by_the_command_line(
    tf_acceptance_binary: TerraformBinary | None, tf_acceptance_cli_config: Path, tmp_path: Path
) -> None:
    """Terraform 1.2+ writes the plan file of a failed precondition (``errored: true``); 1.0.3 knows no
    precondition and writes no plan file when planning fails, so there is nothing to refuse."""
    if tf_acceptance_binary is None:
        pytest.skip("no Terraform binary")
    (tmp_path / "main.tf").write_text(_FAILING_CONFIG, encoding="utf-8")
    env = terraform_environment(os.environ, data_dir=tmp_path / ".terraform", cli_config=tf_acceptance_cli_config)
    terraform = str(tf_acceptance_binary.path)

    def tf(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([terraform, *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
                              check=False)

    init = tf("init", "-input=false", "-no-color")
    planned = tf("plan", "-input=false", "-no-color", "-out=tfplan")
    assert planned.returncode == 1 or init.returncode == 1
    if tf_acceptance_binary.version_tuple < (1, 2):
        assert "Unsupported block type" in init.stderr + planned.stderr
        assert not (tmp_path / "tfplan").exists()
        return
    assert "The gate is closed." in planned.stderr
    assert (tmp_path / "tfplan").read_bytes().startswith(b"PK\x03\x04")

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "plancheck", "tfplan", "--terraform", terraform, *args],
                              cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)

    refused = cli("--no-deferred")
    assert (refused.returncode, refused.stdout, refused.stderr) == (2, "", f"tfplancheck: error: tfplan: {REFUSED}\n")
    empty = cli("--empty", "--allow-errored")
    assert (empty.returncode, f"FAIL  {NOT_EMPTY}" in empty.stdout.splitlines()) == (1, True), empty.stdout + empty.stderr
    created = cli("--action", "null_resource.a", "create", "--allow-errored", "--format", "json")
    doc = json.loads(created.stdout)
    assert (created.returncode, doc["ok"]) == (0, True), created.stdout + created.stderr
    assert {k: doc["plan"][k] for k in ("errored", "complete", "applyable", "partial")} == {
        "errored": True, "complete": False, "applyable": False, "partial": True}


@pytest.mark.parametrize(
    ("attribute", "value"),
    [("partial", False), ("partial_note", None), ("errored", False), ("complete", True), ("applyable", True),
     ("format_version", "9.9"), ("terraform_version", "0.0.0")],
)
def test_a_plans_envelope_is_read_only(attribute: str, value: object) -> None:
    # The envelope is read from the document once; on main each member was a property without a setter.
    # A plan that could be told it is not partial would lose the note every verdict on it gives.
    plan = Plan.from_dict({"format_version": "1.2", "errored": True}, allow_errored=True)
    before = getattr(plan, attribute)
    with pytest.raises(AttributeError):
        setattr(plan, attribute, value)
    assert getattr(plan, attribute) == before
    assert plan.partial
    assert plan.partial_note is not None
