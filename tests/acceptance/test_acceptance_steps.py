"""Go's other TestStep/TestCase fields: definitions, command sequences (fake terraform), the TF_ACC gate.

Import, refresh, destroy and taint against a real Terraform are in tests/providers/test_acc_steps_e2e.py.
"""

from __future__ import annotations

import json
import os
import re
import unittest
from pathlib import Path
from typing import Any

import pytest
from acceptance_fakes import EMPTY_PLAN, FakeTerraform, make_fake_terraform, rule
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck.acceptance import (
    AcceptanceError,
    AcceptanceRunner,
    AdditionalCLIOptions,
    ApplyOptions,
    ImportPlanChecks,
    ImportStateKind,
    PlanOptions,
    RefreshPlanChecks,
    Stage,
    TerraformBinary,
    TestCase,
    TestDefinitionError,
    TestStep,
)
from plancheck.acceptance import _steps as steps_module
from plancheck.acceptance._steps import VERIFY_HEADER, flatmap, verify_import
from plancheck.acceptance._workplace import ProviderSession
from plancheck.acceptance.config import (
    StaticDirectory,
    TestNameDirectory,
    TestNameFile,
    TestStepConfigRequest,
    TestStepFile,
)

CONFIG = 'resource "null_resource" "a" {}'
INIT = "init -input=false -no-color"
PLAN = "plan -input=false -no-color -out=tfplan"
APPLY = "apply -input=false -no-color tfplan"
# Read back after every pre-apply plan: its sensitive values become secrets before apply.
SHOW_PLAN = "show -json tfplan"
PLAN_NO_REFRESH = "plan -input=false -no-color -detailed-exitcode -refresh=false -out=tfplan"
PLAN_REFRESH = "plan -input=false -no-color -detailed-exitcode -out=tfplan"
DESTROY = "destroy -auto-approve -input=false -no-color -refresh=false"
STATE = {
    "format_version": "1.0",
    "values": {"root_module": {"resources": [
        {"address": "null_resource.a", "mode": "managed", "type": "null_resource", "name": "a",
         "provider_name": "registry.terraform.io/hashicorp/null", "values": {"id": "42", "triggers": None}},
    ]}},
}
SHOW_RULES = (
    rule("show", "-json", "tfplan", responses=[{"stdout": EMPTY_PLAN}]),
    rule("show", "-json", responses=[{"stdout": json.dumps(STATE)}]),
)


class Nothing:
    def CheckPlan(self, plan: Any) -> None:
        pass

    def CheckState(self, state: Any) -> None:
        pass


def Step(**kwargs: Any) -> TestStep:
    return TestStep(**kwargs)


def Case(**kwargs: Any) -> TestCase:
    return TestCase(**kwargs)


@pytest.fixture
def fake(tmp_path: Path) -> FakeTerraform:
    return make_fake_terraform(tmp_path / "bin")


def make_runner(fake: FakeTerraform, tmp_path: Path, **kwargs: Any) -> AcceptanceRunner:
    env = {**fake.env(), **kwargs.pop("env", {})}
    kwargs.setdefault("require_tf_acc", False)
    return AcceptanceRunner(TerraformBinary(str(fake.path), "1.9.0"), tmp_path / "work", env=env, echo=False, **kwargs)


# -- definitions ------------------------------------------------------------------------------

IMPORT = {"import_state": True, "resource_name": "null_resource.a"}


@pytest.mark.parametrize(
    ("build", "message"),
    [
        pytest.param(lambda: Step(config="", config_file="x.tf"),
                     "TestStep: give only one of config=, config_directory= or config_file=", id="config-and-file"),
        pytest.param(lambda: Step(config_file=1), "TestStep.config_file: expected a path or a config function, got int",
                     id="file-type"),
        pytest.param(lambda: Step(config="", refresh_state=True),
                     "TestStep.refresh_state: cannot be combined with config=, config_directory= or config_file=",
                     id="refresh-with-config"),
        pytest.param(lambda: Step(refresh_state=True, destroy=True),
                     "TestStep.refresh_state: cannot be combined with destroy=True", id="refresh-destroy"),
        pytest.param(lambda: Step(refresh_state=True, import_state=True, resource_name="a.b"),
                     "TestStep.import_state: cannot be combined with refresh_state=True", id="refresh-import"),
        pytest.param(lambda: Step(config="", refresh_plan_checks=RefreshPlanChecks(post_refresh=[Nothing()])),
                     "TestStep.refresh_plan_checks: only for a refresh_state=True step", id="refresh-checks-alone"),
        pytest.param(lambda: Step(refresh_state=True, config_state_checks=[Nothing()]),
                     "TestStep.config_state_checks: not used by a refresh_state=True step", id="refresh-state-checks"),
        pytest.param(lambda: Step(**IMPORT, taint=["a.b"]), "TestStep.taint: not used by a import_state=True step",
                     id="import-taint"),
        pytest.param(lambda: Step(**IMPORT, check=print),
                     "TestStep.check: not used by an import_state=True step; use import_state_check", id="import-check"),
        pytest.param(lambda: Step(import_state=True),
                     "TestStep.resource_name: an import_state step needs the address of the resource to import",
                     id="import-without-address"),
        pytest.param(lambda: Step(config="", import_state_verify=True),
                     "TestStep.import_state_verify: only for an import_state=True step", id="verify-alone"),
        pytest.param(lambda: Step(config="", import_state_kind=ImportStateKind.ImportBlockWithID),
                     "TestStep.import_state_kind: only for an import_state=True step", id="kind-alone"),
        pytest.param(lambda: Step(config="", import_state_verify_identifier_attribute="name"),
                     "TestStep.import_state_verify_identifier_attribute: only for an import_state=True step",
                     id="identifier-alone"),
        pytest.param(lambda: Step(**IMPORT, import_state_kind="ImportBlockWithID"),
                     "TestStep.import_state_kind: expected an ImportStateKind (e.g. ImportStateKind.ImportBlockWithID), "
                     "got 'ImportBlockWithID'", id="kind-type"),
        pytest.param(lambda: Step(**IMPORT, import_state_kind=ImportStateKind.ImportBlockWithID, import_state_persist=True),
                     "TestStep.import_state_persist: not supported with plannable import blocks "
                     "(import_state_kind=ImportBlockWithID)", id="block-persist"),
        pytest.param(lambda: Step(**IMPORT, import_state_kind=ImportStateKind.ImportBlockWithResourceIdentity,
                                  import_state_verify=True),
                     "TestStep.import_state_verify: not supported with plannable import blocks "
                     "(import_state_kind=ImportBlockWithResourceIdentity)", id="identity-verify"),
        pytest.param(lambda: Step(**IMPORT, import_plan_checks=ImportPlanChecks(pre_apply=[Nothing()])),
                     "TestStep.import_plan_checks: the terraform import command makes no plan: use an import block kind",
                     id="command-plan-checks"),
        pytest.param(lambda: Step(**IMPORT, import_plan_checks=[Nothing()]),
                     "TestStep.import_plan_checks: expected ImportPlanChecks(pre_apply=[...], ...), got list",
                     id="import-plan-checks-type"),
        pytest.param(lambda: Step(**IMPORT, import_state_verify_ignore="revision"),
                     "TestStep.import_state_verify_ignore: expected a list of attribute prefixes, got str",
                     id="ignore-str"),
        pytest.param(lambda: Step(**IMPORT, import_state_verify_ignore=["ok", ""]),
                     "TestStep.import_state_verify_ignore[1]: expected a non-empty str, got ''", id="ignore-empty"),
        pytest.param(lambda: Step(**IMPORT, import_state_verify_identifier_attribute=""),
                     "TestStep.import_state_verify_identifier_attribute: must not be empty", id="identifier-empty"),
        pytest.param(lambda: Step(**IMPORT, import_state_id=42), "TestStep.import_state_id: expected a str, got int",
                     id="id-type"),
        pytest.param(lambda: Step(**IMPORT, import_state_id_func="id"),
                     "TestStep.import_state_id_func: expected a function, got str", id="id-func-type"),
        pytest.param(lambda: Step(config="", taint="null_resource.a"),
                     "TestStep.taint: expected a list of resource addresses, got str", id="taint-str"),
        pytest.param(lambda: Step(config="", destroy="yes"), "TestStep.destroy: expected a bool, got str", id="destroy-type"),
        pytest.param(lambda: Step(config="", skip_func=True), "TestStep.skip_func: expected a function, got bool",
                     id="skip-func-type"),
        pytest.param(lambda: Step(config="", check="state"), "TestStep.check: expected a function, got str", id="check-type"),
        pytest.param(lambda: Step(config="", additional_cli_options={"plan": {}}),
                     "TestStep.additional_cli_options: expected AdditionalCLIOptions(...), got dict", id="cli-options-type"),
        pytest.param(lambda: PlanOptions(allow_deferral=1), "PlanOptions.allow_deferral: expected a bool, got int",
                     id="plan-options-type"),
        pytest.param(lambda: Case(steps=[Step(refresh_state=True)]),
                     "TestCase.steps[0].refresh_state: a refresh_state step cannot be the first step", id="refresh-first"),
        pytest.param(lambda: Case(steps=[Step(config="")], check_destroy=1),
                     "TestCase.check_destroy: expected a function, got int", id="check-destroy-type"),
        pytest.param(lambda: Case(steps=[Step(config="")], error_check="skip"),
                     "TestCase.error_check: expected a function, got str", id="error-check-type"),
        pytest.param(lambda: Case(steps=[Step(config="")], working_dir=""),
                     "TestCase.working_dir: expected a directory path, got ''", id="working-dir-empty"),
        pytest.param(lambda: Case(steps=[Step(config="")], prevent_post_destroy_refresh=None),
                     "TestCase.prevent_post_destroy_refresh: expected a bool, got NoneType", id="prevent-refresh-type"),
        pytest.param(lambda: StaticDirectory(""), "StaticDirectory: expected a non-empty path (str), got ''",
                     id="static-directory-empty"),
        pytest.param(lambda: TestNameDirectory()(TestStepConfigRequest(1, "")),
                     "TestNameDirectory: needs the test's name: use the tf_acceptance fixture or "
                     "AcceptanceRunner(test_name=...)", id="no-test-name"),
    ],
)
def test_bad_definitions_name_the_argument(build: Any, message: str) -> None:
    with pytest.raises(TestDefinitionError) as info:
        build()
    assert str(info.value) == message


def test_good_definitions_keep_their_values() -> None:
    step = TestStep(**IMPORT, import_state_verify=True, import_state_verify_ignore=("revision", "tags."))
    assert (step.import_state_kind, step.import_state_verify_ignore) == (
        ImportStateKind.ImportCommandWithID, ("revision", "tags."))
    assert step == TestStep(**IMPORT, import_state_verify=True, import_state_verify_ignore=["revision", "tags."])
    assert hash(step) == hash(TestStep(**IMPORT, import_state_verify=True, import_state_verify_ignore=["revision", "tags."]))
    assert TestStep(refresh_state=True).refresh_plan_checks == RefreshPlanChecks()
    assert StaticDirectory("d")(TestStepConfigRequest(4, "t")) == "d"
    assert TestStepFile("m.tf")(TestStepConfigRequest(4, "t")) == "testdata/t/4/m.tf"
    assert TestNameFile.__test__ is False  # type: ignore[attr-defined]


# -- command sequences --------------------------------------------------------------------------


REFRESH = "refresh -input=false -no-color"
SHOW = "show -json"


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        pytest.param(
            TestCase(steps=[Step(config=CONFIG), Step(config=CONFIG, destroy=True)]),
            [INIT, PLAN, SHOW_PLAN, APPLY, PLAN_NO_REFRESH, PLAN_REFRESH,
             "plan -input=false -no-color -destroy -out=tfplan", SHOW_PLAN, APPLY,
             "plan -input=false -no-color -detailed-exitcode -refresh=false -destroy -out=tfplan",
             "plan -input=false -no-color -detailed-exitcode -destroy -out=tfplan", DESTROY],
            id="destroy-step",
        ),
        pytest.param(
            TestCase(prevent_post_destroy_refresh=True, steps=[Step(config=CONFIG, destroy=True)]),
            [INIT, "plan -input=false -no-color -destroy -out=tfplan", SHOW_PLAN, APPLY,
             "plan -input=false -no-color -detailed-exitcode -refresh=false -destroy -out=tfplan",
             "plan -input=false -no-color -detailed-exitcode -destroy -refresh=false -out=tfplan", DESTROY],
            id="destroy-step-without-refresh",
        ),
        pytest.param(
            TestCase(steps=[Step(config=CONFIG), Step(config=CONFIG, taint=["null_resource.a", "null_resource.b"])]),
            [INIT, PLAN, SHOW_PLAN, APPLY, PLAN_NO_REFRESH, PLAN_REFRESH, "taint -no-color null_resource.a",
             "taint -no-color null_resource.b", PLAN, SHOW_PLAN, APPLY, PLAN_NO_REFRESH, PLAN_REFRESH, DESTROY],
            id="taint",
        ),
        pytest.param(
            TestCase(steps=[Step(config=CONFIG, destroy=True, taint=["null_resource.a"])]),
            [INIT, "plan -input=false -no-color -destroy -out=tfplan", SHOW_PLAN, APPLY,
             "plan -input=false -no-color -detailed-exitcode -refresh=false -destroy -out=tfplan",
             "plan -input=false -no-color -detailed-exitcode -destroy -out=tfplan", DESTROY],
            id="a-destroy-step-taints-nothing",
        ),
        pytest.param(
            TestCase(steps=[Step(config=CONFIG), Step(refresh_state=True)]),
            [INIT, PLAN, SHOW_PLAN, APPLY, PLAN_NO_REFRESH, PLAN_REFRESH, REFRESH, PLAN_REFRESH, DESTROY],
            id="refresh-step",
        ),
        pytest.param(
            TestCase(steps=[Step(config=CONFIG), Step(refresh_state=True, check=lambda state: None)]),
            [INIT, PLAN, SHOW_PLAN, APPLY, PLAN_NO_REFRESH, PLAN_REFRESH, REFRESH, SHOW, PLAN_REFRESH, DESTROY],
            id="refresh-step-with-check",
        ),
        pytest.param(
            TestCase(steps=[Step(config=CONFIG, check=lambda state: None)]),
            [INIT, PLAN, SHOW_PLAN, APPLY, SHOW, PLAN_NO_REFRESH, PLAN_REFRESH, DESTROY],
            id="check-reads-the-state-after-apply",
        ),
        pytest.param(
            TestCase(steps=[Step(config=CONFIG, check=lambda state: None, config_state_checks=[Nothing()])]),
            [INIT, PLAN, SHOW_PLAN, APPLY, SHOW, PLAN_NO_REFRESH, PLAN_REFRESH, DESTROY],
            id="check-and-state-checks-read-the-state-once",
        ),
        pytest.param(
            TestCase(steps=[Step(config=CONFIG), Step(config=CONFIG, destroy=True, check=lambda state: None)]),
            [INIT, PLAN, SHOW_PLAN, APPLY, PLAN_NO_REFRESH, PLAN_REFRESH,
             "plan -input=false -no-color -destroy -out=tfplan", SHOW_PLAN, REFRESH, SHOW,
             "plan -input=false -no-color -destroy -out=tfplan", APPLY,
             "plan -input=false -no-color -detailed-exitcode -refresh=false -destroy -out=tfplan",
             "plan -input=false -no-color -detailed-exitcode -destroy -out=tfplan", DESTROY],
            id="destroy-step-check-sees-the-state-before",
        ),
        pytest.param(
            TestCase(additional_cli_options=AdditionalCLIOptions(plan=PlanOptions(allow_deferral=True, no_refresh=True),
                                                                 apply=ApplyOptions(allow_deferral=True)),
                     steps=[Step(config=CONFIG)]),
            [INIT, "plan -input=false -no-color -allow-deferral -refresh=false -out=tfplan", SHOW_PLAN,
             "apply -input=false -no-color -allow-deferral tfplan",
             "plan -input=false -no-color -detailed-exitcode -refresh=false -allow-deferral -out=tfplan",
             "plan -input=false -no-color -detailed-exitcode -allow-deferral -refresh=false -out=tfplan", DESTROY],
            id="additional-cli-options",
        ),
        pytest.param(
            TestCase(additional_cli_options=AdditionalCLIOptions(plan=PlanOptions(allow_deferral=True)),
                     steps=[Step(config=CONFIG, additional_cli_options=AdditionalCLIOptions())]),
            [INIT, PLAN, SHOW_PLAN, APPLY, PLAN_NO_REFRESH, PLAN_REFRESH, DESTROY],
            id="step-cli-options-replace-the-case-ones",
        ),
        pytest.param(
            TestCase(steps=[Step(config=CONFIG), Step(config="not HCL", skip_func=lambda: True)]),
            [INIT, PLAN, SHOW_PLAN, APPLY, PLAN_NO_REFRESH, PLAN_REFRESH, DESTROY],
            id="skip-func",
        ),
        pytest.param(
            TestCase(steps=[Step(config=CONFIG)], check_destroy=lambda state: None),
            [INIT, PLAN, SHOW_PLAN, APPLY, PLAN_NO_REFRESH, PLAN_REFRESH, SHOW, DESTROY],
            id="check-destroy-reads-the-state-first",
        ),
    ],
)
def test_command_sequence(fake: FakeTerraform, tmp_path: Path, case: TestCase, expected: list[str]) -> None:
    fake.script(*SHOW_RULES)
    make_runner(fake, tmp_path).run(case)
    assert fake.argv() == expected


class PlanningRecorder:
    """A provider served here that is told each plan (``plancheck_planning``): notes it among the fake's commands."""

    def __init__(self, fake: FakeTerraform) -> None:
        self.fake = fake
        self.told: list[tuple[int, bool]] = []

    def plancheck_planning(self, active: bool) -> bool:
        self.told.append((len(self.fake.calls()), active))
        return False


@pytest.mark.parametrize("step", [
    pytest.param(Step(config=CONFIG, destroy=True, check=lambda state: None), id="destroy-step-with-a-check"),
    pytest.param(Step(config=CONFIG, destroy=True), id="destroy-step"),
    pytest.param(Step(config=CONFIG, check=lambda state: None), id="step-with-a-check"),
])
def test_every_plan_is_told_to_the_providers_served_here(
    fake: FakeTerraform, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: TestStep
) -> None:
    # A destroy step's second plan (after the refresh its check reads) was not: a mock served here refuses what
    # Terraform 1.0.0-1.0.4 would panic on only within the plans it is told of.
    fake.script(*SHOW_RULES)
    recorder = PlanningRecorder(fake)
    monkeypatch.setattr(ProviderSession, "served", property(lambda session: [recorder]))
    make_runner(fake, tmp_path).run(Case(steps=[Step(config=CONFIG), step]))
    plans = [i for i, argv in enumerate(fake.argv()) if argv.startswith("plan ")]
    # The i-th command a plan: told it begins when i commands had run, and that it ends when i + 1 had.
    assert recorder.told == [(at, active) for i in plans for at, active in ((i, True), (i + 1, False))]


@pytest.mark.parametrize(
    ("env", "steps", "expected"),
    [
        pytest.param({"TF_ACC_REFRESH_AFTER_APPLY": ""}, [Step(config=CONFIG), Step(config=CONFIG)],
                     [INIT, PLAN, SHOW_PLAN, APPLY, PLAN_NO_REFRESH, PLAN_REFRESH,
                      "apply -refresh-only -auto-approve -input=false -no-color",
                      PLAN, SHOW_PLAN, APPLY, PLAN_NO_REFRESH, PLAN_REFRESH, DESTROY], id="refresh-before-the-next-step"),
        pytest.param({"TF_ACC_REFRESH_AFTER_APPLY": "1"}, [Step(config=CONFIG), Step(refresh_state=True)],
                     [INIT, PLAN, SHOW_PLAN, APPLY, PLAN_NO_REFRESH, PLAN_REFRESH, REFRESH, PLAN_REFRESH, DESTROY],
                     id="not-before-a-refresh-step"),
    ],
)
def test_refresh_after_apply(
    fake: FakeTerraform, tmp_path: Path, env: dict[str, str], steps: list[TestStep], expected: list[str]
) -> None:
    fake.script(*SHOW_RULES)
    make_runner(fake, tmp_path, env=env).run(TestCase(steps=steps))
    assert fake.argv() == expected


def test_post_apply_func_runs_after_the_plans(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(*SHOW_RULES)
    seen: list[int] = []
    make_runner(fake, tmp_path).run(TestCase(steps=[
        Step(config=CONFIG, post_apply_func=lambda: seen.append(len(fake.argv()))),
    ]))
    assert seen == [6]  # init, plan, its show -json, apply and both follow-up plans


@pytest.mark.parametrize(
    ("check", "stage", "reason"),
    [
        pytest.param(lambda state: ValueError("no widget"), Stage.CHECK, "Check failed: no widget", id="returned-error"),
        pytest.param(lambda state: (_ for _ in ()).throw(AssertionError(f"id {state.resource('null_resource.a').values['id']}")),
                     Stage.CHECK, "Check failed: id 42", id="raised-assertion"),
    ],
)
def test_check_failures(fake: FakeTerraform, tmp_path: Path, check: Any, stage: Stage, reason: str) -> None:
    fake.script(*SHOW_RULES)
    with pytest.raises(AcceptanceError) as info:
        make_runner(fake, tmp_path).run(TestCase(steps=[Step(config=CONFIG, check=check)]))
    assert (info.value.step, info.value.stage, info.value.reason) == (1, stage, reason)
    assert fake.argv()[-1] == DESTROY


def test_error_check_returning_a_non_exception_is_a_definition_error(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(rule("apply", responses=[{"exit": 1, "stderr": "Error: boom"}]), *SHOW_RULES)
    with pytest.raises(TestDefinitionError) as info:
        make_runner(fake, tmp_path).run(TestCase(steps=[Step(config=CONFIG)], error_check=lambda error: "ignore"))
    assert str(info.value) == "TestCase.error_check: expected it to return an exception or None, got str"
    assert fake.argv()[-1] == DESTROY


@pytest.mark.parametrize(
    ("skip_func", "returned"),
    [
        # Go's SkipFunc is func() (bool, error); `return false, nil` ported as a tuple is always true.
        pytest.param(lambda: (False, None), "tuple", id="go-bool-error-pair"),
        pytest.param(lambda: None, "NoneType", id="no-return"),
        pytest.param(lambda: "yes", "str", id="truthy-str"),
    ],
)
def test_skip_func_returning_a_non_bool_is_a_definition_error(
    fake: FakeTerraform, tmp_path: Path, skip_func: Any, returned: str
) -> None:
    fake.script(*SHOW_RULES)
    with pytest.raises(TestDefinitionError) as info:
        make_runner(fake, tmp_path).run(TestCase(steps=[Step(config=CONFIG), Step(config=CONFIG, skip_func=skip_func)]))
    assert str(info.value) == (
        f"TestStep.skip_func: expected it to return a bool, got {returned} (raise to fail where Go returns an error)"
    )
    assert fake.argv()[-1] == DESTROY


def test_import_command_in_its_own_directory(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(*SHOW_RULES)
    make_runner(fake, tmp_path).run(TestCase(steps=[
        Step(config=CONFIG),
        Step(import_state=True, resource_name="null_resource.a", import_state_verify=True),
    ]))
    calls = fake.calls()
    assert fake.argv()[6:10] == [SHOW, INIT, "import -input=false -no-color null_resource.a 42", SHOW]
    import_dir = tmp_path / "work" / "case1_import_step_2"
    assert [c["env"] for c in calls] == [{}] * len(calls)
    assert "main.tf" in calls[7]["files"]
    assert not import_dir.exists()


def test_import_id_from_state_must_exist(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(*SHOW_RULES)
    with pytest.raises(AcceptanceError) as info:
        make_runner(fake, tmp_path).run(TestCase(steps=[
            Step(config=CONFIG), Step(import_state=True, resource_name="null_resource.zz"),
        ]))
    assert (info.value.stage, info.value.reason) == (Stage.IMPORT, "Not found: null_resource.zz in the state")


def test_import_needs_a_configuration(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(*SHOW_RULES)
    with pytest.raises(AcceptanceError) as info:
        make_runner(fake, tmp_path).run(TestCase(steps=[
            Step(import_state=True, resource_name="null_resource.a", import_state_id="42"),
        ]))
    assert (info.value.stage, info.value.reason) == (Stage.CONFIG, "Cannot import state with no specified config")


def test_persist_working_dir_keeps_copies(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(*SHOW_RULES)
    make_runner(fake, tmp_path, env={"TF_ACC_PERSIST_WORKING_DIR": "1"}).run(TestCase(steps=[
        Step(config=CONFIG), Step(import_state=True, resource_name="null_resource.a"),
    ]))
    kept = sorted(p.name for p in (tmp_path / "work").iterdir() if p.is_dir())
    assert kept == ["case1", "case1_import_step_2", "case1_step_1", "case1_step_2"]
    assert (tmp_path / "work" / "case1_step_1" / "main.tf").read_text() == CONFIG


def test_working_dir_replaces_the_case_directory(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(*SHOW_RULES)
    make_runner(fake, tmp_path).run(TestCase(steps=[Step(config=CONFIG)], working_dir=tmp_path / "mine"))
    assert (tmp_path / "mine" / "main.tf").read_text() == CONFIG
    assert not (tmp_path / "work" / "case1").exists()


def test_config_function_sees_the_step_and_the_test_name(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(*SHOW_RULES)
    seen: list[TestStepConfigRequest] = []

    def config(request: TestStepConfigRequest) -> str:
        seen.append(request)
        return CONFIG + f"\n# step {request.step_number}"

    make_runner(fake, tmp_path, test_name="test_x").run(TestCase(steps=[Step(config=config), Step(config=config)]))
    assert seen == [TestStepConfigRequest(1, "test_x"), TestStepConfigRequest(2, "test_x")]
    assert [c["main_tf"] for c in fake.calls() if c["args"][0] == "init"] == [CONFIG + "\n# step 1", CONFIG + "\n# step 2"]


def test_config_function_returning_garbage_fails_the_step(fake: FakeTerraform, tmp_path: Path) -> None:
    with pytest.raises(AcceptanceError) as info:
        make_runner(fake, tmp_path).run(TestCase(steps=[Step(config=lambda request: 42)]))
    assert (info.value.stage, info.value.reason) == (
        Stage.CONFIG,
        "cannot write the configuration: TestStep.config: the config function returned int, "
        "expected HCL text (str) or a dict",
    )


# -- the TF_ACC gate ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "runs"),
    [pytest.param(None, False, id="unset"), pytest.param("", False, id="empty"), pytest.param("1", True, id="set")],
)
def test_tf_acc_gate(fake: FakeTerraform, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str | None,
                     runs: bool) -> None:
    fake.script(*SHOW_RULES)
    if value is None:
        monkeypatch.delenv("TF_ACC", raising=False)
    else:
        monkeypatch.setenv("TF_ACC", value)
    runner = make_runner(fake, tmp_path, require_tf_acc=True)
    if runs:
        runner.run(TestCase(steps=[Step(config=CONFIG)]))
        assert fake.argv()[0] == INIT
    else:
        with pytest.raises(unittest.SkipTest) as info:
            runner.run(TestCase(steps=[Step(config=CONFIG)]))
        assert str(info.value) == "Acceptance tests skipped unless env 'TF_ACC' set"
        assert fake.argv() == []
    make_runner(fake, tmp_path, require_tf_acc=False).run(TestCase(steps=[Step(config=CONFIG)]))


GATED_TEST = """
import os
from plancheck.acceptance import TestCase, TestStep

def test_gated(tf_acceptance):
    tf_acceptance.run(TestCase(steps=[TestStep(config="")]))

def test_env():
    assert os.environ.get("TF_ACC") == "1"
"""


@pytest.mark.parametrize(
    ("args", "ini", "outcomes"),
    [
        pytest.param([], "", {"skipped": 1, "failed": 1}, id="gated-by-default"),
        pytest.param(["--no-tf-acc-gate"], "", {"failed": 1, "passed": 1}, id="cli-turns-it-off"),
        pytest.param([], "tf_acc_gate = false", {"failed": 1, "passed": 1}, id="ini-turns-it-off"),
    ],
)
def test_the_plugin_gate(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, fake: FakeTerraform,
                         args: list[str], ini: str, outcomes: dict[str, int]) -> None:
    monkeypatch.delenv("TF_ACC", raising=False)
    pytester.makepyfile(test_gate=GATED_TEST)
    pytester.makeini(f"[pytest]\n{ini}\n")
    # The fake has no scenario for "version": with the gate off test_gated fails on the fake's init, not a skip.
    monkeypatch.setenv("FAKE_TF_SCENARIO", str(fake.scenario_file))
    monkeypatch.setenv("FAKE_TF_LOG", str(fake.log_file))
    fake.script(rule("init", responses=[{"exit": 1, "stderr": "Error: fake init"}]))
    result = pytester.runpytest("-rs", "-p", "no:cacheprovider", f"--terraform={fake.path}", *args)
    result.assert_outcomes(**outcomes)
    assert "TF_ACC" not in os.environ  # the session put it back as it found it
    if not args and not ini:
        result.stdout.fnmatch_lines(["*Acceptance tests skipped unless env 'TF_ACC' set*"])


# -- ImportStateVerify ------------------------------------------------------------------------------


def resource(values: dict[str, Any], marks: Any = None, address: str = "w.t") -> dict[str, Any]:
    return {"address": address, "mode": "managed", "type": "w", "provider_name": "p", "values": values,
            "sensitive_values": marks or {}}


@pytest.mark.parametrize(
    ("old", "new", "kwargs", "expected"),
    [
        pytest.param(resource({"id": "1", "tags": {}}), resource({"id": "1"}), {}, None, id="empty-map-is-absent"),
        pytest.param(resource({"id": "1", "timeouts": {"create": "1m"}}), resource({"id": "1"}), {}, None,
                     id="timeouts-ignored"),
        pytest.param(resource({"id": "1", "tags": {"a": "x"}}), resource({"id": "1", "tags": {"a": "y"}}),
                     {"ignore": ["tags."]}, None, id="ignored-prefix"),
        pytest.param(resource({"id": "1", "l": ["a", "b"]}), resource({"id": "1", "l": ["a"]}), {},
                     'w.t:\n- "l.#": "2"\n+ "l.#": "1"\n- "l.1": "b"', id="missing-after-import"),
        pytest.param(resource({"id": "1", "pw": "hunter2"}, {"pw": True}), resource({"id": "1", "pw": "other7"}), {},
                     'w.t:\n- "pw": (sensitive)\n+ "pw": (sensitive)', id="sensitive-on-one-side-hides-both"),
        pytest.param(resource({"id": "1"}), resource({"id": "2"}), {},
                     "Failed state verification, resource with ID 2 not found", id="not-found"),
        pytest.param(resource({"id": "1"}), resource({"id": "1"}), {"identifier_attribute": "name"},
                     "ImportStateVerify: New resource missing identifier attribute 'name', ensure attribute value is "
                     "properly set or use import_state_verify_identifier_attribute to choose different attribute",
                     id="identifier-missing"),
    ],
)
def test_verify_import(old: dict[str, Any], new: dict[str, Any], kwargs: dict[str, Any], expected: str | None) -> None:
    found = verify_import([old], [new], **kwargs)
    if expected is None or expected.startswith(("Failed", "ImportStateVerify:")):
        assert found == expected
    else:
        assert found is not None
        assert found.split("\n\n", 1)[1] == expected


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text("ab", max_size=2),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text("xy", min_size=1, max_size=2), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.text("abc", min_size=1, max_size=3), JSON, max_size=4))
def test_a_resource_always_verifies_against_itself(values: dict[str, Any]) -> None:
    values = {**values, "id": "1"}
    assert verify_import([resource(values)], [resource(values)]) is None


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.text("abc", min_size=1, max_size=3), JSON, max_size=4))
def test_everything_under_a_sensitive_mark_is_marked(values: dict[str, Any]) -> None:
    flat = flatmap({"s": values}, {"s": True})
    assert all(f.sensitive for f in flat.values())


# -- TF_ACC_PROVIDER_NAMESPACE / TF_ACC_PROVIDER_HOST ---------------------------------------------


@pytest.mark.parametrize(
    ("env", "address", "expected"),
    [
        pytest.param({}, "widget", "registry.terraform.io/hashicorp/widget", id="defaults"),
        pytest.param({"TF_ACC_PROVIDER_NAMESPACE": "acme"}, "widget", "registry.terraform.io/acme/widget", id="namespace"),
        pytest.param({"TF_ACC_PROVIDER_NAMESPACE": "acme", "TF_ACC_PROVIDER_HOST": "example.com"}, "widget",
                     "example.com/acme/widget", id="both"),
        pytest.param({"TF_ACC_PROVIDER_HOST": "example.com"}, "corp/widget", "example.com/corp/widget", id="host-only"),
        pytest.param({"TF_ACC_PROVIDER_HOST": "example.com"}, "other.org/corp/widget", "other.org/corp/widget",
                     id="full-address-unchanged"),
    ],
)
def test_short_provider_names_use_the_tf_acc_provider_variables(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], address: str, expected: str
) -> None:
    for name in ("TF_ACC_PROVIDER_NAMESPACE", "TF_ACC_PROVIDER_HOST"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    case = TestCase(steps=[Step(config="")], providers={address: dict})
    assert repr(case.providers) == f"ProviderSet(['{expected} (factory dict)'])"


def test_the_fixture_gives_the_test_name_and_directory(tmp_path: Path) -> None:
    from types import SimpleNamespace

    from plancheck._plugin.acceptance import make_acceptance

    node = SimpleNamespace(user_properties=[], originalname="test_widget", name="test_widget[tf1.0.3]")
    request = SimpleNamespace(config=None, node=node, path=tmp_path / "tests" / "test_widget.py")
    runner = make_acceptance(request, tmp_path, terraform=TerraformBinary("/usr/bin/terraform", "1.11.4"))
    assert runner.test_name == "test_widget"
    assert runner._base_dir() == tmp_path / "tests"


# -- import blocks (fake terraform of any version) ---------------------------------------------------

IDENTITY_STATE = {
    "format_version": "1.0",
    "values": {"root_module": {"resources": [
        {"address": "null_resource.a", "mode": "managed", "type": "null_resource", "name": "a",
         "provider_name": "registry.terraform.io/hashicorp/null", "values": {"id": "42"},
         "identity": {"id": "42", "region": "eu", "zone": None}},
    ]}},
}


def import_plan(actions: list[str], identity: dict[str, Any] | None = None, importing: bool = True) -> str:
    change: dict[str, Any] = {"actions": actions, "before": {}, "after": {}, "after_unknown": {}}
    if importing:
        change["importing"] = {"id": "42"}
    return json.dumps({
        "format_version": "1.2",
        "resource_changes": [{"address": "null_resource.a", "mode": "managed", "type": "null_resource", "name": "a",
                              "change": change}],
        "planned_values": {"root_module": {"resources": [
            {"address": "null_resource.a", "mode": "managed", "type": "null_resource", "name": "a", "values": {},
             **({"identity": identity} if identity is not None else {})},
        ]}},
    })


def identity_runner(fake: FakeTerraform, tmp_path: Path, version: str) -> AcceptanceRunner:
    return AcceptanceRunner(TerraformBinary(str(fake.path), version), tmp_path / "work", env=fake.env(), echo=False,
                            require_tf_acc=False)


def _import_by_identity(
    fake: FakeTerraform, tmp_path: Path, plan: str, state: str, reason: str | None, **step: Any
) -> None:
    """Import null_resource.a by its identity (Terraform 1.12.1) from ``state``, planning ``plan``: it passes, or
    fails at the import plan for ``reason``."""
    fake.script(rule("show", "-json", "tfplan", responses=[{"stdout": plan}]),
                rule("show", "-json", responses=[{"stdout": state}]))
    case = TestCase(steps=[
        Step(config=CONFIG),
        Step(import_state=True, resource_name="null_resource.a", **step,
             import_state_kind=ImportStateKind.ImportBlockWithResourceIdentity,
             pre_config=lambda: (tmp_path / "work" / "case1" / "terraform.tfstate").write_text("{}")),
    ])
    runner = identity_runner(fake, tmp_path, "1.12.1")
    if reason is None:
        runner.run(case)
    else:
        with pytest.raises(AcceptanceError) as info:
            runner.run(case)
        assert (info.value.stage, info.value.reason) == (Stage.IMPORT_PLAN, reason)


@pytest.mark.parametrize(
    ("plan", "reason"),
    [
        pytest.param(import_plan(["no-op"], {"id": "42", "region": "eu", "zone": None}), None, id="same-identity"),
        pytest.param(import_plan(["no-op"], {"id": "43", "region": "eu"}), "importing resource null_resource.a: expected "
                     "identity values map[id:42 region:eu zone:<nil>], got map[id:43 region:eu]",
                     id="other-identity"),
        pytest.param(import_plan(["update"], {"id": "42"}), "importing resource null_resource.a: expected a no-op import "
                     "operation, got [\"update\"] action with plan", id="not-no-op"),
        pytest.param(import_plan(["create"], importing=False), "importing resource null_resource.a: expected an import "
                     "operation, got [\"create\"] action with plan", id="not-an-import"),
    ],
)
def test_import_block_with_resource_identity(fake: FakeTerraform, tmp_path: Path, plan: str, reason: str | None) -> None:
    _import_by_identity(fake, tmp_path, plan, json.dumps(IDENTITY_STATE), reason, prevent_disk_cleanup=True)
    block = (tmp_path / "work" / "case1_import_step_2" / "plancheck_import.tf").read_text()
    assert block == 'import {\n  to = null_resource.a\n  identity = {\n    "id" = "42"\n    "region" = "eu"\n  }\n}\n'
    assert "state rm null_resource.a" in fake.argv()  # the copied state minus the resource to import
    assert (tmp_path / "work" / "case1_import_step_2" / "terraform.tfstate").read_text() == "{}"


#: ExpectError patterns of terraform-plugin-testing's own import tests (helper/resource/importstate), which a ported
#: test keeps: Go writes the actions with %q and the identities with %v, not as Python's repr.
GO_IMPORT_PATTERNS = {
    "not-no-op": (import_plan(["update"], {"id": "42"}), r'importing resource null_resource.a: expected a no-op import '
                  r'operation, got.*\["update"\] action with plan(.?)'),
    "not-an-import": (import_plan(["create"], importing=False), r'expected an import operation, got \["create"\] action'),
    "other-identity": (import_plan(["no-op"], {"id": "43", "region": "eu"}),
                       r"expected identity values map\[id:42 region:eu zone:<nil>\], got map\[id:43 region:eu\]"),
    "no-planned-identity": (import_plan(["no-op"], None), r"expected identity values map\[.*\], got map\[\]\n"),
}


@pytest.mark.parametrize(("plan", "pattern"), list(GO_IMPORT_PATTERNS.values()), ids=list(GO_IMPORT_PATTERNS))
def test_import_failures_match_go_expect_error_patterns(
    fake: FakeTerraform, tmp_path: Path, plan: str, pattern: str
) -> None:
    """Before: the actions and identities were Python's repr (['update'], {'id': '42'}), which Go's patterns miss."""
    _import_by_identity(fake, tmp_path, plan, json.dumps(IDENTITY_STATE), None, expect_error=re.compile(pattern))


#: A prior identity with a number and a bool; the planned identity each row's plan holds (raw JSON: the number's
#: spelling is the point), and the failure when it is not the same typed value (Terraform's cty object).
TYPED_STATE = json.dumps({**IDENTITY_STATE, "values": {"root_module": {"resources": [
    {**IDENTITY_STATE["values"]["root_module"]["resources"][0], "identity": {"id": "42", "n": 1, "on": True}}]}}})
TYPED_DIFFERS = "importing resource null_resource.a: expected identity values map[id:42 n:1 on:true], got "


@pytest.mark.parametrize(
    ("identity", "reason"),
    [
        pytest.param('{"on": true, "n": 1, "id": "42"}', None, id="key-order"),
        pytest.param('{"id": "42", "n": 1.0, "on": true}', None, id="number-1.0"),
        pytest.param('{"id": "42", "n": 1e0, "on": true}', None, id="number-1e0"),
        pytest.param('{"id": "42", "n": 10E-1, "on": true}', None, id="number-10E-1"),
        pytest.param('{"id": "42", "n": 1, "on": 1}', TYPED_DIFFERS + "map[id:42 n:1 on:1]",
                     id="bool-is-no-number"),
        pytest.param('{"id": "42", "n": true, "on": true}', TYPED_DIFFERS + "map[id:42 n:true on:true]",
                     id="number-is-no-bool"),
        pytest.param('{"id": "42", "n": 1.5, "on": true}', TYPED_DIFFERS + "map[id:42 n:1.5 on:true]",
                     id="other-number"),
        pytest.param('{"id": "42", "n": 1, "on": true, "zone": null}',
                     TYPED_DIFFERS + "map[id:42 n:1 on:true zone:<nil>]", id="extra-null-attribute"),
    ],
)
def test_import_identity_is_compared_as_terraform_types_it(
    fake: FakeTerraform, tmp_path: Path, identity: str, reason: str | None
) -> None:
    """Before: the planned identity was compared with Python's ==, where true equals 1."""
    plan = import_plan(["no-op"], {}).replace('"identity": {}', '"identity": ' + identity)
    _import_by_identity(fake, tmp_path, plan, TYPED_STATE, reason)


@pytest.mark.parametrize(
    ("kind", "version", "reason"),
    [
        pytest.param(ImportStateKind.ImportBlockWithID, "1.4.7", "ImportState steps using plannable import blocks "
                     "require Terraform 1.5.0 or later (this is 1.4.7).", id="block-before-1.5"),
        pytest.param(ImportStateKind.ImportBlockWithResourceIdentity, "1.11.4", "ImportState steps using resource "
                     "identity require Terraform 1.12.0 or later (this is 1.11.4).", id="identity-before-1.12"),
    ],
)
def test_import_blocks_need_a_recent_terraform(fake: FakeTerraform, tmp_path: Path, kind: ImportStateKind, version: str,
                                               reason: str) -> None:
    fake.script(*SHOW_RULES)
    with pytest.raises(AcceptanceError) as info:
        identity_runner(fake, tmp_path, version).run(TestCase(steps=[
            Step(config=CONFIG), Step(import_state=True, resource_name="null_resource.a", import_state_kind=kind),
        ]))
    assert info.value.stage is Stage.IMPORT
    assert info.value.reason == reason + (
        " Either upgrade the Terraform version running the test or add a `terraform_version_checks` to the test case "
        "to skip this test."
    )


def _w(ident: str | None, value: str, address: str, kind: str = "w") -> dict[str, Any]:
    values = {"v": value} if ident is None else {"id": ident, "v": value}
    return {**resource(values, address=address), "type": kind}


@pytest.mark.parametrize(("applied", "imported", "expected"), [
    # Go's loop scans the applied resources in order for each imported one: the first of its kind with the same
    # identifier is compared, and one of its kind without an identifier met first stops the scan with an error.
    pytest.param([_w("1", "a", "w.first"), _w("1", "b", "w.second")], [_w("1", "b", "w.i")],
                 'w.i:\n- "v": "a"\n+ "v": "b"', id="first-of-the-identifier"),
    pytest.param([_w(None, "a", "w.none"), _w("1", "b", "w.one")], [_w("1", "b", "w.i")],
                 "ImportStateVerify: Old resource missing identifier attribute 'id', ensure attribute value is properly "
                 "set or use import_state_verify_identifier_attribute to choose different attribute",
                 id="no-identifier-met-first"),
    pytest.param([_w("1", "a", "w.one"), _w(None, "b", "w.none")], [_w("1", "a", "w.i")], None,
                 id="no-identifier-met-after"),
    pytest.param([_w(None, "a", "x.none", kind="x"), _w("1", "a", "w.one")], [_w("1", "a", "w.i")], None,
                 id="no-identifier-of-another-kind"),
    pytest.param([_w("1", "a", "w.one"), _w(None, "b", "w.none"), _w("2", "c", "w.two")],
                 [_w("1", "z", "w.i"), _w("2", "c", "w.j")],
                 "ImportStateVerify: Old resource missing identifier attribute 'id', ensure attribute value is properly "
                 "set or use import_state_verify_identifier_attribute to choose different attribute",
                 id="scan-resumed-meets-the-stop"),
])
def test_verify_import_scans_as_go_does(applied: list[dict[str, Any]], imported: list[dict[str, Any]],
                                        expected: str | None) -> None:
    found = verify_import(applied, imported)
    assert (found if found is None or not found.startswith(VERIFY_HEADER) else found.split("\n\n", 1)[1]) == expected


@pytest.mark.parametrize("count", [1, 10, 200])
def test_verify_import_flattens_each_resource_once(count: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # Scanned from the start for each imported resource, the applied ones were flattened again each time:
    # count * (count + 1) / 2 of them, time quadratic in the resources.
    calls: list[object] = []

    def counted(values: Any, marks: Any = None) -> Any:
        calls.append(values)
        return flatmap(values, marks)

    monkeypatch.setattr(steps_module, "flatmap", counted)
    applied = [_w(str(i), "a", f"w.t{i}") for i in range(count)]
    imported = [_w(str(i), "b", f"w.t{i}") for i in reversed(range(count))]
    found = verify_import(applied, imported)
    assert found is not None
    assert found.count('+ "v": "b"') == count
    assert len(calls) == 2 * count


def test_verify_import_of_a_deep_attribute() -> None:
    deep: Any = "p"
    for _ in range(3):
        deep = {"a": deep}
    changed = json.loads(json.dumps(deep).replace('"p"', '"q"'))
    found = verify_import([resource({"id": "1", "x": deep})], [resource({"id": "1", "x": changed})])
    assert found == f'{VERIFY_HEADER}\n\nw.t:\n- "x.a.a.a": "p"\n+ "x.a.a.a": "q"'
