"""Query steps (``TestStep(query=True, query_result_checks=[...])``, Terraform 1.14+) through the runner.

No Terraform 1.14 exists here: the runs use the scripted fake terraform reporting 1.14.x and
printing ``terraform query -json`` lines shaped like Terraform's (see ``acceptance_fakes``). The
refusal on an older binary is checked end to end against the real ones (1.0.3, 1.11.4).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from acceptance_fakes import (
    EMPTY_STATE,
    FakeTerraform,
    make_fake_terraform,
    query_complete,
    query_error,
    query_found,
    query_jsonl,
    query_start,
    query_version,
    rule,
)

from plancheck import CheckFailure
from plancheck import knownvalue as kv
from plancheck._terraform.binary import inspect_binary
from plancheck.acceptance import (
    AcceptanceError,
    AcceptanceRunner,
    Sensitive,
    Stage,
    TerraformBinary,
    TestCase,
    TestStep,
)
from plancheck.acceptance._steps import QUERY_FILE
from plancheck.querycheck import (
    ExpectIdentity,
    ExpectLength,
    ExpectLengthAtLeast,
    ExpectResourceDisplayName,
    QueryOutput,
    QueryResultCheck,
    queryfilter,
)

CONFIG = 'resource "concept_pet" "a" {}'
QUERY = 'list "concept_pet" "pets" {\n  provider = concept\n}\n'
INIT = "init -input=false -no-color"
PLAN = "plan -input=false -no-color -out=tfplan"
APPLY = "apply -input=false -no-color tfplan"
# Read back after every pre-apply plan: its sensitive values become secrets before apply.
SHOW_PLAN = "show -json tfplan"
PLAN_NO_REFRESH = "plan -input=false -no-color -detailed-exitcode -refresh=false -out=tfplan"
PLAN_REFRESH = "plan -input=false -no-color -detailed-exitcode -out=tfplan"
QUERY_CMD = "query -no-color -json"
DESTROY = "destroy -auto-approve -input=false -no-color -refresh=false"
PETS = "list.concept_pet.pets"
SECRET = "tok-83kq9zz"

#: Three pets found by one list block, as Terraform 1.14 prints them.
PETS_OUTPUT = query_jsonl(
    query_version(),
    query_start(PETS, "concept_pet"),
    query_found(PETS, "concept_pet", "This is a fluffy-otter", {"id": "fluffy-otter", "legs": 4}),
    query_found(PETS, "concept_pet", "This is a brave-heron", {"id": "brave-heron", "legs": 2}),
    query_found(PETS, "concept_pet", "This is a quiet-newt", {"id": "quiet-newt", "legs": 4}),
    query_complete(PETS, "concept_pet", 3),
)


@pytest.fixture
def fake(tmp_path: Path) -> FakeTerraform:
    return make_fake_terraform(tmp_path / "bin")


def make_runner(fake: FakeTerraform, tmp_path: Path, version: str = "1.14.0", flavor: str = "terraform",
                **kwargs: Any) -> AcceptanceRunner:
    env = {**fake.env(), **kwargs.pop("env", {})}
    kwargs.setdefault("require_tf_acc", False)
    binary = TerraformBinary(str(fake.path), version, flavor)
    return AcceptanceRunner(binary, tmp_path / "work", env=env, **kwargs)


def query_rule(stdout: str = PETS_OUTPUT, exit: int = 0, stderr: str = "") -> dict[str, Any]:
    return rule("query", "-json", responses=[{"stdout": stdout, "exit": exit, "stderr": stderr}])


def failure(runner: AcceptanceRunner, case: TestCase) -> AcceptanceError:
    with pytest.raises(AcceptanceError) as info:
        runner.run(case)
    return info.value


# -- commands and files --------------------------------------------------------------------------


def test_a_query_step_after_a_config_step_runs_init_and_query_beside_its_configuration(
    fake: FakeTerraform, tmp_path: Path
) -> None:
    fake.script(query_rule(), rule("show", "-json", responses=[{"stdout": EMPTY_STATE}]))
    runner = make_runner(fake, tmp_path)
    runner.run(TestCase(steps=[
        TestStep(config=CONFIG, variables={"region": "eu"}),
        TestStep(query=True, config=QUERY, query_result_checks=[ExpectLength("concept_pet.pets", 3)]),
    ]))
    assert fake.argv() == [INIT, PLAN, SHOW_PLAN, APPLY, PLAN_NO_REFRESH, PLAN_REFRESH, INIT, QUERY_CMD, INIT, DESTROY]
    calls = fake.calls()
    query = calls[7]
    assert query["query_hcl"] == QUERY
    assert query["main_tf"] == CONFIG  # the applied configuration stays, as in Go
    assert query["files"] == ["main.tf", QUERY_FILE, "terraform.tfvars.json"]
    # The query file never outlives its step: destroy runs with the applied configuration alone.
    assert calls[-1]["query_hcl"] is None
    assert calls[-1]["files"] == ["main.tf", "terraform.tfvars.json"]


def test_a_first_query_step_runs_alone_and_destroys_nothing(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(query_rule())
    make_runner(fake, tmp_path).run(TestCase(steps=[TestStep(query=True, config=QUERY)]))
    assert fake.argv() == [INIT, QUERY_CMD]
    assert fake.calls()[1]["files"] == ["main.tf", QUERY_FILE]
    assert fake.calls()[1]["main_tf"] == ""


def test_a_query_step_gives_its_own_variables_or_keeps_the_applied_ones(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(query_rule(), rule("show", "-json", responses=[{"stdout": EMPTY_STATE}]))
    make_runner(fake, tmp_path).run(TestCase(steps=[
        TestStep(config=CONFIG, variables={"region": "eu"}),
        TestStep(query=True, config=QUERY),
        TestStep(query=True, config=QUERY, variables={"region": "us"}),
    ]))
    queries = [c["tfvars"] for c in fake.calls() if c["args"][0] == "query"]
    assert queries == [{"region": "eu"}, {"region": "us"}]


def test_a_config_function_gives_the_query_text(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(query_rule())
    seen: list[int] = []

    def config(request: Any) -> str:
        seen.append(request.step_number)
        return QUERY

    make_runner(fake, tmp_path).run(TestCase(steps=[TestStep(query=True, config=config)]))
    assert seen == [1]
    assert fake.calls()[1]["query_hcl"] == QUERY


def test_the_binary_version_is_read_from_the_fake(fake: FakeTerraform, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_TF_VERSION", "1.14.1")
    fake.script(query_rule())
    binary = inspect_binary(fake.path)
    assert binary.version == "1.14.1"
    AcceptanceRunner(binary, tmp_path / "work", env=fake.env(), require_tf_acc=False).run(
        TestCase(steps=[TestStep(query=True, config=QUERY, query_result_checks=[ExpectLength("concept_pet.pets", 3)])])
    )
    assert fake.argv()[-1] == QUERY_CMD


# -- checks --------------------------------------------------------------------------------------


def test_passing_query_result_checks(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(query_rule())
    heron = queryfilter.ByResourceIdentity({"id": kv.StringExact("brave-heron"), "legs": kv.Int64Exact(2)})
    make_runner(fake, tmp_path).run(TestCase(steps=[TestStep(query=True, config=QUERY, query_result_checks=[
        ExpectLength("concept_pet.pets", 3),
        ExpectLengthAtLeast("concept_pet.pets", 2),
        ExpectIdentity("concept_pet.pets", {"id": kv.StringExact("quiet-newt"), "legs": kv.Int64Exact(4)}),
        ExpectResourceDisplayName("concept_pet.pets", heron, kv.StringRegexp("heron$")),
    ])]))
    assert fake.argv() == [INIT, QUERY_CMD]


class RaisesAssertion(QueryResultCheck):
    """A project's own check that raises instead of returning failures."""

    __slots__ = ()

    def failures(self, output: QueryOutput) -> list[CheckFailure]:
        raise AssertionError(f"saw {len(output.results)} results")


@pytest.mark.parametrize(
    ("stdout", "checks", "reason"),
    [
        pytest.param(
            PETS_OUTPUT,
            [ExpectLength("concept_pet.pets", 2), ExpectLength("concept_pet.pets", 3),
             ExpectLengthAtLeast("concept_pet.pets", 5)],
            "Query result check(s) failed:\n"
            "  ExpectLength: concept_pet.pets: number of found resources 2 - expected but got 3.\n"
            "  ExpectLengthAtLeast: concept_pet.pets: Query result of at least length 5 - expected but got 3.",
            id="every-failure-in-order",
        ),
        pytest.param(
            PETS_OUTPUT, [RaisesAssertion(), ExpectLength("concept_pet.pets", 1)],
            "Query result check(s) failed:\n"
            "  RaisesAssertion: saw 3 results\n"
            "  ExpectLength: concept_pet.pets: number of found resources 1 - expected but got 3.",
            id="a-raising-check-does-not-stop-the-others",
        ),
        pytest.param(
            "", [ExpectLength("concept_pet.pets", 0)],
            # The second line is querycheck's own "not found" wording: taken from it, not pinned twice.
            "Query result check(s) failed:\n  query: no query results found\n  "
            + str(ExpectLength("concept_pet.pets", 0).failures(QueryOutput.from_messages([]))[0]),
            id="no-output-at-all",
        ),
    ],
)
def test_failing_checks_report_every_failure(fake: FakeTerraform, tmp_path: Path, stdout: str,
                                             checks: list[Any], reason: str) -> None:
    fake.script(query_rule(stdout))
    error = failure(make_runner(fake, tmp_path), TestCase(steps=[TestStep(query=True, config=QUERY,
                                                                          query_result_checks=checks)]))
    assert (error.step, error.steps, error.stage) == (1, 1, Stage.QUERY_RESULT_CHECKS)
    assert error.reason == reason
    assert str(error).startswith("step 1/1, query_result_checks: Query result check(s) failed:")


# -- failures of the command and its output ------------------------------------------------------

BAD_LINE = '{"type":"list_complete","list_complete":{"address":"list.a.b","total":"2"}}\n'


@pytest.mark.parametrize(
    ("response", "reason", "exit_code"),
    [
        pytest.param(
            {"stdout": query_jsonl(query_version(), query_error("Invalid list block", "Missing provider argument.")),
             "exit": 1},
            "terraform query reported errors:\n  Error: Invalid list block\n  Missing provider argument.",
            1, id="error-diagnostics",
        ),
        pytest.param(
            {"stdout": query_jsonl(query_version(), query_error("Unsupported block type")), "exit": 0},
            "terraform query reported errors:\n  Error: Unsupported block type",
            0, id="error-diagnostics-despite-exit-0",
        ),
        pytest.param({"stdout": "", "stderr": "crashed", "exit": 1}, "terraform query failed", 1, id="exit-1-without-output"),
        pytest.param({"stdout": "", "stderr": "usage", "exit": 2}, "terraform query failed", 2, id="exit-2"),
        pytest.param(
            {"stdout": query_jsonl(query_version()) + BAD_LINE},
            "cannot read the output of terraform query -json: terraform query -json: line 2: $.list_complete.total: "
            "expected a result count (an integer), found a string",
            0, id="bad-document",
        ),
        pytest.param(
            {"stdout": query_jsonl(query_version()) + "{not json\n"},
            "cannot read the output of terraform query -json: terraform query -json: line 2: $: expected valid JSON, "
            "found invalid JSON: Expecting property name enclosed in double quotes at column 2",
            0, id="not-json",
        ),
    ],
)
def test_query_command_failures_name_the_query_stage(fake: FakeTerraform, tmp_path: Path, response: dict[str, Any],
                                                     reason: str, exit_code: int) -> None:
    fake.script(rule("query", "-json", responses=[response]))
    error = failure(make_runner(fake, tmp_path), TestCase(steps=[TestStep(query=True, config=QUERY)]))
    assert (error.stage, error.reason, error.exit_code) == (Stage.QUERY, reason, exit_code)
    assert error.command is not None
    assert error.command.endswith(QUERY_CMD)


def test_a_bad_document_is_withheld_from_messages_and_logs(fake: FakeTerraform, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    unreadable = query_jsonl(query_version(), query_start(PETS, "concept_pet", {"token": SECRET}, [".token"])) + BAD_LINE
    fake.script(query_rule(unreadable))
    runner = make_runner(fake, tmp_path)
    error = failure(runner, TestCase(steps=[TestStep(query=True, config=QUERY)]))
    assert error.output == "stdout:\n(withheld: the output could not be read, so its secrets are unknown)"
    assert SECRET not in str(error)
    assert all(SECRET not in c.stdout for c in runner.commands)
    assert SECRET not in capsys.readouterr().out


@pytest.mark.parametrize(
    ("version", "flavor", "found"),
    [
        pytest.param("1.13.5", "terraform", "Terraform 1.13.5): terraform query was added in 1.14.0.", id="tf1.13.5"),
        pytest.param("1.14.0-beta1", "terraform", "Terraform 1.14.0-beta1): terraform query was added in 1.14.0.",
                     id="prerelease"),
        pytest.param("1.10.0", "tofu", "OpenTofu 1.10.0, which has no query command).", id="opentofu"),
    ],
)
def test_an_older_binary_is_refused_before_any_command(fake: FakeTerraform, tmp_path: Path, version: str,
                                                       flavor: str, found: str) -> None:
    error = failure(make_runner(fake, tmp_path, version, flavor),
                    TestCase(steps=[TestStep(query=True, config=QUERY)]))
    assert error.stage is Stage.QUERY
    assert error.reason == (
        f"Query steps require Terraform 1.14.0 or later (this is {found} Either upgrade the Terraform version "
        'running the test or add `terraform_version_checks=[SkipBelow("1.14.0")]` to the test case to skip this test.'
    )
    assert fake.argv() == []


def test_a_config_function_returning_a_dict_fails_the_config_stage(fake: FakeTerraform, tmp_path: Path) -> None:
    error = failure(make_runner(fake, tmp_path),
                    TestCase(steps=[TestStep(query=True, config=lambda request: {"list": {}})]))
    assert (error.stage, error.reason) == (
        Stage.CONFIG,
        "cannot write the configuration: TestStep.config: a query=True step takes the .tfquery.hcl text (str) "
        "or a config function, got dict",
    )
    assert fake.argv() == []


# -- expect_error, error_check, secrets ----------------------------------------------------------


def test_expect_error_matches_a_query_error(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(query_rule(query_jsonl(query_error("Invalid list block", "Missing provider argument.")), exit=1))
    make_runner(fake, tmp_path).run(TestCase(steps=[
        TestStep(query=True, config=QUERY, expect_error="Missing provider argument"),
    ]))
    assert fake.argv() == [INIT, QUERY_CMD]


def test_expect_error_matches_the_version_refusal(fake: FakeTerraform, tmp_path: Path) -> None:
    make_runner(fake, tmp_path, "1.11.4").run(TestCase(steps=[
        TestStep(query=True, config=QUERY, expect_error=r"require Terraform 1\.14\.0 or later"),
    ]))
    assert fake.argv() == []


def test_error_check_sees_a_query_failure(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(query_rule())
    seen: list[AcceptanceError] = []

    def let_pass(error: AcceptanceError) -> None:
        seen.append(error)

    make_runner(fake, tmp_path).run(TestCase(
        steps=[TestStep(query=True, config=QUERY, query_result_checks=[ExpectLength("concept_pet.pets", 9)])],
        error_check=let_pass,
    ))
    assert [e.stage for e in seen] == [Stage.QUERY_RESULT_CHECKS]


def test_secrets_never_leave_a_query_step(fake: FakeTerraform, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    # A sensitive list block input (found by Terraform's sensitive_attribute_paths) and a Sensitive
    # variable, both echoed back in the display names that a failing check prints.
    variable = "pw-Zq81xk2"
    output = query_jsonl(
        query_version(),
        query_start(PETS, "concept_pet", {"token": SECRET, "owner": "ops"}, [".token"]),
        query_found(PETS, "concept_pet", f"pet of {SECRET}", {"id": "a", "legs": 4}),
        query_found(PETS, "concept_pet", f"pet of {variable}", {"id": "b", "legs": 4}),
        query_complete(PETS, "concept_pet", 2),
    )
    fake.script(query_rule(output))
    runner = make_runner(fake, tmp_path)
    checks = [
        ExpectResourceDisplayName("concept_pet.pets", queryfilter.ByResourceIdentity(
            {"id": kv.StringExact(name), "legs": kv.Int64Exact(4)}), kv.StringExact("a pet"))
        for name in ("a", "b")
    ]
    error = failure(runner, TestCase(steps=[
        TestStep(query=True, config=QUERY, variables={"pw": Sensitive(variable)}, query_result_checks=checks),
    ]))
    text = str(error)
    assert text.count("ExpectResourceDisplayName") == 2
    assert 'got: "pet of (sensitive)"' in text
    assert SECRET not in text
    assert variable not in text
    assert all(SECRET not in c.stdout and variable not in c.stdout for c in runner.commands)
    assert SECRET not in capsys.readouterr().out


# -- end to end: the real binaries here are older than 1.14 --------------------------------------


@pytest.mark.e2e
def test_a_real_older_terraform_refuses_a_query_step(tf_acceptance: AcceptanceRunner) -> None:
    version = tf_acceptance.terraform.version
    with pytest.raises(AcceptanceError) as info:
        tf_acceptance.run(TestCase(steps=[TestStep(query=True, config=QUERY)]))
    assert str(info.value) == (
        f"step 1/1, query: Query steps require Terraform 1.14.0 or later (this is Terraform {version}): "
        "terraform query was added in 1.14.0. Either upgrade the Terraform version running the test or add "
        '`terraform_version_checks=[SkipBelow("1.14.0")]` to the test case to skip this test.'
    )
    assert tf_acceptance.commands == ()
