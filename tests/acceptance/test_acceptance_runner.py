"""The acceptance runner driven by a scripted fake terraform: command sequences, failures, secrets, env.

Fast and deterministic; the same behaviour against real binaries is in test_acc_*_e2e.py.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from acceptance_fakes import EMPTY_PLAN, EMPTY_STATE, FakeTerraform, make_fake_terraform, plan_json, rule

from plancheck import CheckFailure, Plan, PlanCheckError, PlanFormatError, State
from plancheck._terraform.binary import TimeoutValueError
from plancheck.acceptance import (
    AcceptanceError,
    AcceptanceRunner,
    ConfigPlanChecks,
    Sensitive,
    Stage,
    TerraformBinary,
    TestCase,
    TestStep,
    find_leftovers,
)

CONFIG = 'resource "null_resource" "a" {}'
INIT = "init -input=false -no-color"
PLAN = "plan -input=false -no-color -out=tfplan"
SHOW_PLAN = "show -json tfplan"
SHOW_STATE = "show -json"
APPLY = "apply -input=false -no-color tfplan"
PLAN_NO_REFRESH = "plan -input=false -no-color -detailed-exitcode -refresh=false -out=tfplan"
PLAN_REFRESH = "plan -input=false -no-color -detailed-exitcode -out=tfplan"
DESTROY = "destroy -auto-approve -input=false -no-color -refresh=false"

SHOW_RULES = (
    rule("show", "-json", "tfplan", responses=[{"stdout": EMPTY_PLAN}]),
    rule("show", "-json", responses=[{"stdout": EMPTY_STATE}]),
)


def _loader_error(text: str) -> str:
    with pytest.raises(PlanFormatError) as info:
        Plan.from_json(text)
    return str(info.value)


# The loader's own words (its to pin): a plan of an unknown major format, refused even without checks.
NOT_A_PLAN = _loader_error('{"format_version": "7.0"}')


class RecordingCheck:
    """A duck-typed plan/state check: records what it saw, fails with ``message`` if given."""

    def __init__(self, message: str | None = None, error: type[BaseException] = AssertionError) -> None:
        self.message = message
        self.error = error
        self.seen: list[Any] = []

    def CheckPlan(self, plan: Any) -> None:
        self.seen.append(plan)
        if self.message is not None:
            raise self.error(self.message)

    def CheckState(self, state: Any) -> None:
        self.CheckPlan(state)


@pytest.fixture
def fake(tmp_path: Path) -> FakeTerraform:
    return make_fake_terraform(tmp_path / "bin")


def make_runner(fake: FakeTerraform, tmp_path: Path, **kwargs: Any) -> AcceptanceRunner:
    env = {**fake.env(), **kwargs.pop("env", {})}
    return AcceptanceRunner(TerraformBinary(str(fake.path), "1.9.0"), tmp_path / "work", env=env, **kwargs)


def failure(runner: AcceptanceRunner, case: TestCase) -> AcceptanceError:
    with pytest.raises(AcceptanceError) as info:
        runner.run(case)
    return info.value


# -- command sequences -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        pytest.param(
            [TestStep(config=CONFIG)],
            [INIT, PLAN, SHOW_PLAN, APPLY, PLAN_NO_REFRESH, PLAN_REFRESH, DESTROY],
            id="apply-step-without-checks",
        ),
        pytest.param(
            [
                TestStep(
                    config=CONFIG,
                    config_plan_checks=ConfigPlanChecks(
                        pre_apply=[RecordingCheck()],
                        post_apply_pre_refresh=[RecordingCheck()],
                        post_apply_post_refresh=[RecordingCheck()],
                    ),
                    config_state_checks=[RecordingCheck()],
                )
            ],
            [INIT, PLAN, SHOW_PLAN, APPLY, SHOW_STATE, PLAN_NO_REFRESH, SHOW_PLAN, PLAN_REFRESH, SHOW_PLAN, DESTROY],
            id="every-kind-of-check",
        ),
        pytest.param(
            [TestStep(config=CONFIG, plan_only=True)],
            [INIT, PLAN_NO_REFRESH, PLAN_REFRESH],
            id="plan-only-applies-and-destroys-nothing",
        ),
        pytest.param(
            [TestStep(config=CONFIG), TestStep(config=CONFIG, plan_only=True)],
            [INIT, PLAN, SHOW_PLAN, APPLY, PLAN_NO_REFRESH, PLAN_REFRESH, PLAN_NO_REFRESH, PLAN_REFRESH, DESTROY],
            id="unchanged-config-needs-no-second-init",
        ),
        pytest.param(
            [TestStep(config=CONFIG), TestStep(config=CONFIG + "\n# changed")],
            [INIT, PLAN, SHOW_PLAN, APPLY, PLAN_NO_REFRESH, PLAN_REFRESH, INIT, PLAN, SHOW_PLAN, APPLY, PLAN_NO_REFRESH, PLAN_REFRESH, DESTROY],
            id="changed-config-is-initialized-again",
        ),
    ],
)
def test_command_sequence(fake: FakeTerraform, tmp_path: Path, steps: list[TestStep], expected: list[str]) -> None:
    fake.script(*SHOW_RULES)
    make_runner(fake, tmp_path).run(TestCase(steps=steps))
    assert fake.argv() == expected


def test_checks_receive_loaded_documents_in_order(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(*SHOW_RULES)
    pre, post = RecordingCheck(), RecordingCheck()
    state = RecordingCheck()
    step = TestStep(
        config=CONFIG,
        config_plan_checks=ConfigPlanChecks(pre_apply=[pre], post_apply_post_refresh=[post]),
        config_state_checks=[state],
    )
    make_runner(fake, tmp_path).run(TestCase(steps=[step]))
    assert [type(p).__name__ for p in pre.seen + post.seen] == ["Plan", "Plan"]
    assert pre.seen[0].format_version == "1.2"
    assert len(state.seen) == 1


def test_each_document_show_json_prints_is_loaded_once(
    fake: FakeTerraform, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Read from the text by the loader; the checks get that Plan or State, not one validated again from a dict.
    fake.script(*SHOW_RULES)
    loads: list[str] = []
    for kind in (Plan, State):
        real = getattr(kind.from_json, "__func__")  # noqa: B009 (the function under the classmethod)

        def counted(cls: Any, /, text: Any, *, _real: Any = real, **kwargs: Any) -> Any:
            loads.append(cls.__name__)
            return _real(cls, text, **kwargs)

        def refused(cls: Any, /, document: Any, **kwargs: Any) -> Any:
            raise AssertionError(f"{cls.__name__}.from_dict: a document loaded twice")

        monkeypatch.setattr(kind, "from_json", classmethod(counted))
        monkeypatch.setattr(kind, "from_dict", classmethod(refused))
    pre, state = RecordingCheck(), RecordingCheck()
    step = TestStep(config=CONFIG, config_plan_checks=ConfigPlanChecks(pre_apply=[pre]),
                    config_state_checks=[state], check=lambda s: None)
    make_runner(fake, tmp_path).run(TestCase(steps=[step]))
    assert [type(p).__name__ for p in pre.seen + state.seen] == ["Plan", "State"]
    assert loads.count("Plan") == 1
    assert loads.count("State") == 1  # the check and the state checks share the state read after apply


def test_each_case_gets_its_own_directory_and_commands_run_there(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(*SHOW_RULES)
    runner = make_runner(fake, tmp_path)
    runner.run(TestCase(steps=[TestStep(config=CONFIG, plan_only=True)]))
    runner.run(TestCase(steps=[TestStep(config=CONFIG, plan_only=True)]))
    assert sorted(p.name for p in (tmp_path / "work").glob("case*")) == ["case1", "case2"]
    assert {c.cwd for c in runner.commands} == {str(tmp_path / "work" / "case1"), str(tmp_path / "work" / "case2")}
    assert all(call["stdin"] == "" for call in fake.calls())


# -- failures ----------------------------------------------------------------------------------

FAILING_PLAN = {"exit": 1, "stderr": "Error: Unsupported argument\n"}
CHANGES = plan_json(("null_resource.a", ["delete", "create"]), ("null_resource.b", ["no-op"]), outputs={"id": ["update"]})


@pytest.mark.parametrize(
    ("rules", "step", "stage", "reason", "command", "destroyed"),
    [
        pytest.param(
            # Not a registry's error: that one's message depends on the machine's CLI configuration
            # (test_registry_hint.py pins it).
            [rule("init", responses=[{"exit": 1, "stderr": "Error: Module not installed\n"}])],
            TestStep(config=CONFIG),
            Stage.INIT,
            "terraform init failed",
            INIT,
            False,
            id="init",
        ),
        pytest.param(
            [rule("plan", responses=[FAILING_PLAN])],
            TestStep(config=CONFIG),
            Stage.PRE_APPLY,
            "terraform plan failed",
            PLAN,
            False,
            id="plan",
        ),
        pytest.param(
            # A Go panic exits 2, which only -detailed-exitcode makes "changes present": this plan has no
            # such flag, and its crash was reported as the next command's ("terraform show failed").
            [rule("plan", responses=[{"exit": 2, "stderr": "panic: interface conversion: interface {} is nil\n"}])],
            TestStep(config=CONFIG),
            Stage.PRE_APPLY,
            "terraform plan failed",
            PLAN,
            False,
            id="a-plan-that-crashed-with-exit-status-2",
        ),
        pytest.param(
            [rule("apply", responses=[{"exit": 1, "stderr": "Error: boom\n"}])],
            TestStep(config=CONFIG),
            Stage.APPLY,
            "terraform apply failed",
            APPLY,
            True,
            id="apply-is-followed-by-destroy",
        ),
        pytest.param(
            [],
            TestStep(config=CONFIG, config_plan_checks=ConfigPlanChecks(pre_apply=[RecordingCheck("nope")])),
            Stage.PRE_APPLY,
            "Pre-apply plan check(s) failed:\n  RecordingCheck: nope",
            PLAN,
            False,
            id="pre-apply-check",
        ),
        pytest.param(
            [],
            TestStep(config=CONFIG, config_state_checks=[RecordingCheck("no such resource")]),
            Stage.STATE_CHECKS,
            "Post-apply state check(s) failed:\n  RecordingCheck: no such resource",
            None,
            True,
            id="state-check",
        ),
        pytest.param(
            [],
            TestStep(config=CONFIG, config_plan_checks=ConfigPlanChecks(post_apply_pre_refresh=[RecordingCheck("x")])),
            Stage.POST_APPLY_PRE_REFRESH,
            "Post-apply, pre-refresh plan check(s) failed:\n  RecordingCheck: x",
            PLAN_NO_REFRESH,
            True,
            id="post-apply-pre-refresh-check",
        ),
        pytest.param(
            [],
            TestStep(config=CONFIG, plan_only=True,
                     config_plan_checks=ConfigPlanChecks(post_apply_post_refresh=[RecordingCheck("y")])),
            Stage.POST_APPLY_POST_REFRESH,
            "Refresh plan check(s) failed:\n  RecordingCheck: y",
            PLAN_REFRESH,
            False,
            id="plan-only-refresh-check",
        ),
        pytest.param(
            [rule("plan", "-refresh=false", responses=[{"exit": 2}]),
             rule("show", "-json", "tfplan", responses=[{"stdout": CHANGES}])],
            TestStep(config=CONFIG),
            Stage.POST_APPLY_PRE_REFRESH,
            "After applying this test step, the non-refresh plan was not empty; planned changes:\n"
            "  null_resource.a: delete, create\n  output.id: update",
            PLAN_NO_REFRESH,
            True,
            id="non-empty-non-refresh-plan",
        ),
        pytest.param(
            [rule("plan", "-detailed-exitcode", responses=[{"exit": 0}, {"exit": 2}]),
             rule("show", "-json", "tfplan", responses=[{"stdout": CHANGES}])],
            TestStep(config=CONFIG, plan_only=True),
            Stage.POST_APPLY_POST_REFRESH,
            "The refresh plan was not empty; planned changes:\n  null_resource.a: delete, create\n  output.id: update",
            PLAN_REFRESH,
            False,
            id="non-empty-refresh-plan-of-a-plan-only-step",
        ),
        pytest.param(
            # Under -detailed-exitcode exit status 2 is "changes present", and a Go panic exits 2 too: Terraform
            # 1.0.0-1.0.4 crashed so planning a nested attribute, and the crash read as a plan with changes.
            [rule("plan", "-detailed-exitcode", responses=[
                {"exit": 0},
                {"exit": 2, "stderr": "panic: interface conversion: interface {} is nil\n\ngoroutine 1 [running]:\n"}])],
            TestStep(config=CONFIG, plan_only=True),
            Stage.POST_APPLY_POST_REFRESH,
            "terraform plan crashed (exit code 2 and a Go panic: no plan was made)",
            PLAN_REFRESH,
            False,
            id="a-detailed-exitcode-plan-that-crashed",
        ),
        pytest.param(
            [rule("plan", "-detailed-exitcode", responses=[
                {"exit": 0},
                {"exit": 2, "stderr": "\n!!!!!!!!!!!!!!!!!!!!!!!!!!! TERRAFORM CRASH !!!!!!!!!!!!!!!!!!!!!!!!!!!!\n\nTerraform crashed!\n"}])],
            TestStep(config=CONFIG, plan_only=True),
            Stage.POST_APPLY_POST_REFRESH,
            "terraform plan crashed (exit code 2 and a Go panic: no plan was made)",
            PLAN_REFRESH,
            False,
            id="a-detailed-exitcode-plan-with-terraform-s-crash-banner",
        ),
        pytest.param(
            [],
            TestStep(config=CONFIG, expect_non_empty_plan=True),
            Stage.POST_APPLY_POST_REFRESH,
            "Expected a non-empty plan, but got an empty refresh plan",
            None,
            True,
            id="expected-non-empty-plan",
        ),
        pytest.param(
            [rule("show", "-json", "tfplan", responses=[{"stdout": "TF_LOG noise {"}])],
            TestStep(config=CONFIG, config_plan_checks=ConfigPlanChecks(pre_apply=[RecordingCheck()])),
            Stage.PRE_APPLY,
            "show -json printed invalid JSON ($: expected valid JSON, found invalid JSON: Expecting value at line 1 "
            "column 1 (character 0))",
            SHOW_PLAN,
            False,
            id="show-prints-invalid-json",
        ),
        pytest.param(
            [rule("show", "-json", "tfplan", responses=[{"stdout": '{"format_version": "7.0"}'}])],
            TestStep(config=CONFIG),
            Stage.PRE_APPLY,
            f"cannot read the plan that show -json printed: {NOT_A_PLAN}",
            SHOW_PLAN,
            False,
            id="show-prints-a-plan-the-loader-refuses",
        ),
        pytest.param(
            [rule("show", "-json", "tfplan", responses=[{"stdout": "[]"}])],
            TestStep(config=CONFIG, config_plan_checks=ConfigPlanChecks(pre_apply=[RecordingCheck()])),
            Stage.PRE_APPLY,
            "show -json printed JSON that is not an object",
            SHOW_PLAN,
            False,
            id="show-prints-json-that-is-no-object",
        ),
    ],
)
def test_failures_name_step_stage_command(
    fake: FakeTerraform,
    tmp_path: Path,
    rules: list[dict[str, Any]],
    step: TestStep,
    stage: Stage,
    reason: str,
    command: str | None,
    destroyed: bool,
) -> None:
    # Step 1 (a plan-only step with another configuration) must pass: the scripted failures skip it.
    fake.script(*({**r, "unless_config": ["# first"]} for r in rules), *SHOW_RULES)
    first = TestStep(config=CONFIG + "\n# first", plan_only=True)
    err = failure(make_runner(fake, tmp_path), TestCase(steps=[first, step]))
    assert (err.step, err.steps, err.stage, err.reason) == (2, 2, stage, reason)
    assert err.command == (None if command is None else f"terraform {command}")
    assert (fake.argv()[-1] == DESTROY) is destroyed
    assert str(err).startswith(f"step 2/2, {stage.value}: {reason}")


UNREADABLE = [
    pytest.param('{"variables": {"pw": {"value": "%s"}}, "format_version": "1.2", ', id="cut-short"),
    pytest.param('{"variables": {"pw": {"value": "%s"}}, "n": NaN}', id="not-json-nan"),
    pytest.param('["%s"]', id="not-an-object"),
    # JSON, but no plan: the loader refuses it before its secrets could be collected.
    pytest.param('{"variables": {"pw": {"value": "%s"}}}', id="not-a-plan"),
]


@pytest.mark.parametrize("shown", UNREADABLE)
def test_output_that_cannot_be_read_is_withheld(
    fake: FakeTerraform, tmp_path: Path, shown: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its secrets cannot be known (a sensitive variable's default), so none of it is shown anywhere (#25)."""
    secret = "unreadable-planted-secret-5521"
    fake.script(rule("show", "-json", "tfplan", responses=[{"stdout": shown % secret}]), *SHOW_RULES)
    runner = make_runner(fake, tmp_path)
    err = failure(runner, TestCase(steps=[TestStep(config=CONFIG, config_plan_checks=ConfigPlanChecks(
        pre_apply=[RecordingCheck()]))]))
    assert err.output == "stdout:\n(withheld: the output could not be read, so its secrets are unknown)"
    assert secret not in str(err)
    assert secret not in repr(err)
    assert all(secret not in c.stdout + c.stderr for c in runner.commands)
    assert secret not in "".join(capsys.readouterr())


def test_failure_message_pins_the_command_and_its_output(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(rule("apply", responses=[{"exit": 1, "stdout": "null_resource.a: Creating...\n",
                                          "stderr": "\nError: boom\n\n  on main.tf line 1\n"}]), *SHOW_RULES)
    err = failure(make_runner(fake, tmp_path), TestCase(steps=[TestStep(config=CONFIG)]))
    assert str(err) == (
        "step 1/1, apply: terraform apply failed\n"
        "command: terraform apply -input=false -no-color tfplan (exit code 1)\n"
        "  stderr:\n"
        "  Error: boom\n"
        "\n"
        "    on main.tf line 1\n"
        "  stdout:\n"
        "  null_resource.a: Creating..."
    )
    assert err.exit_code == 1


def test_long_output_keeps_its_end(fake: FakeTerraform, tmp_path: Path) -> None:
    noise = "".join(f"debug line {i}\n" for i in range(2000))
    fake.script(rule("plan", responses=[{"exit": 1, "stderr": noise + "Error: the real reason\n"}]), *SHOW_RULES)
    err = failure(make_runner(fake, tmp_path), TestCase(steps=[TestStep(config=CONFIG)]))
    assert err.output.endswith("Error: the real reason")
    assert re.search(r"…\(\d+ earlier characters omitted\)", err.output)
    assert len(err.output) < 8200


class TwoFailures:
    def CheckPlan(self, plan: Any) -> None:
        raise PlanCheckError([CheckFailure("ExpectA", "null_resource.a", None, "first"),
                              CheckFailure("ExpectB", None, None, "second\nwith a second line")])


def test_every_failure_of_every_check_is_listed(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(*SHOW_RULES)
    checks = ConfigPlanChecks(pre_apply=[RecordingCheck("plain assert"), RecordingCheck(), TwoFailures()])
    err = failure(make_runner(fake, tmp_path), TestCase(steps=[TestStep(config=CONFIG, config_plan_checks=checks)]))
    assert err.reason == (
        "Pre-apply plan check(s) failed:\n"
        "  RecordingCheck: plain assert\n"
        "  ExpectA: null_resource.a: first\n"
        "  ExpectB: second\n"
        "  with a second line"
    )


def test_check_that_raises_a_non_assertion_error_is_the_step_s_failure_after_destroy(
    fake: FakeTerraform, tmp_path: Path
) -> None:
    """It propagated raw (a KeyError with the check's own traceback); now it goes through the boundary of assert_*."""
    fake.script(*SHOW_RULES)
    step = TestStep(config=CONFIG, config_state_checks=[RecordingCheck("bug in check", error=KeyError)])
    err = failure(make_runner(fake, tmp_path), TestCase(steps=[step]))
    assert (err.stage, err.reason) == (
        Stage.STATE_CHECKS, "Post-apply state check(s) failed:\n  RecordingCheck: raised KeyError: 'bug in check'"
    )
    assert fake.argv()[-1] == DESTROY


def test_timeout_is_a_failure_with_no_exit_code(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(rule("plan", responses=[{"sleep": 5}]), *SHOW_RULES)
    err = failure(make_runner(fake, tmp_path, timeout=0.5), TestCase(steps=[TestStep(config=CONFIG)]))
    assert (err.stage, err.reason, err.exit_code) == (Stage.PRE_APPLY, "terraform plan timed out after 0.5 s", None)
    assert "(exit code" not in str(err)


# -- expect_error ------------------------------------------------------------------------------

BOXED = (
    "╷\n│ Error: Unsupported argument\n│\n│   on main.tf line 3, in resource \"null_resource\" \"b\":\n"
    "│    3:   bogus = 1\n│\n│ An argument named \"bogus\" is not expected\n│ here.\n╵\n"
)


@pytest.mark.parametrize(
    "pattern",
    [
        pytest.param("Unsupported argument", id="plain"),
        pytest.param(r'argument named "bogus" is not expected here', id="across-a-wrapped-line"),
        pytest.param(re.compile("unsupported ARGUMENT", re.IGNORECASE), id="compiled-pattern"),
        pytest.param("terraform plan failed", id="the-reason-itself"),
    ],
)
def test_expected_error_lets_the_case_continue(fake: FakeTerraform, tmp_path: Path, pattern: Any) -> None:
    fake.script(rule("plan", if_config=["bogus"], responses=[{"exit": 1, "stderr": BOXED}]), *SHOW_RULES)
    make_runner(fake, tmp_path).run(TestCase(steps=[
        TestStep(config=CONFIG),
        TestStep(config=CONFIG + "\nbogus", expect_error=pattern),
        TestStep(config=CONFIG, plan_only=True),
    ]))
    assert fake.argv()[-3:] == [PLAN_NO_REFRESH, PLAN_REFRESH, DESTROY]


def test_expected_error_that_does_not_match(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(rule("plan", responses=[{"exit": 1, "stderr": "Error: Invalid reference\n"}]), *SHOW_RULES)
    err = failure(make_runner(fake, tmp_path), TestCase(steps=[TestStep(config=CONFIG, expect_error="Unsupported")]))
    assert err.stage is Stage.EXPECT_ERROR
    assert err.reason == (
        "expected an error matching 'Unsupported', but the step failed with another one (in stage pre_apply): "
        "terraform plan failed"
    )
    assert "Error: Invalid reference" in err.output


def test_expected_error_that_does_not_happen(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(*SHOW_RULES)
    err = failure(make_runner(fake, tmp_path), TestCase(steps=[TestStep(config=CONFIG, expect_error="Unsupported")]))
    assert str(err) == "step 1/1, expect_error: expected an error matching 'Unsupported', but the step succeeded"
    assert fake.argv()[-1] == DESTROY


# -- destroy -----------------------------------------------------------------------------------

DESTROY_FAILS = rule("destroy", responses=[{"exit": 1, "stderr": "Error: Instance cannot be destroyed\n"}])


def test_failed_destroy_after_a_passing_case_is_an_error(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(DESTROY_FAILS, *SHOW_RULES)
    leftovers = tmp_path / "leftovers"
    err = failure(make_runner(fake, tmp_path, leftovers_dir=leftovers), TestCase(steps=[TestStep(config=CONFIG)]))
    [kept] = find_leftovers(leftovers)
    assert str(err).splitlines()[:2] == [
        f"post-test destroy (after step 1/1): terraform destroy failed; its state and configuration are kept in "
        f"{kept.path}; destroy them later with: tfplancheck destroy-leftovers {leftovers}",
        f"command: terraform {DESTROY} (exit code 1)",
    ]
    assert err.__cause__ is None


def test_failed_destroy_after_a_failure_is_secondary_to_the_first_failure(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(DESTROY_FAILS, *SHOW_RULES)
    step = TestStep(config=CONFIG, config_state_checks=[RecordingCheck("wrong value")])
    leftovers = tmp_path / "leftovers"
    err = failure(make_runner(fake, tmp_path, leftovers_dir=leftovers), TestCase(steps=[step]))
    [kept] = find_leftovers(leftovers)
    assert err.stage is Stage.STATE_CHECKS
    assert err.reason == "Post-apply state check(s) failed:\n  RecordingCheck: wrong value"
    assert str(err).splitlines() == [
        "step 1/1, state_checks: Post-apply state check(s) failed:",
        "  RecordingCheck: wrong value",
        f"also: post-test destroy (after step 1/1): terraform destroy failed; its state and configuration are kept in "
        f"{kept.path}; destroy them later with: tfplancheck destroy-leftovers {leftovers}",
        f"  command: terraform {DESTROY} (exit code 1)",
        "    stderr:",
        "    Error: Instance cannot be destroyed",
    ]


def test_destroy_uses_the_last_configuration_terraform_accepted(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(rule("plan", if_config=["BROKEN"], responses=[{"exit": 1, "stderr": "Error: Unsupported block type\n"}]),
                *SHOW_RULES)
    make_runner(fake, tmp_path).run(TestCase(steps=[
        TestStep(config=CONFIG),
        TestStep(config="BROKEN", expect_error="Unsupported block type"),
    ]))
    calls = fake.calls()
    assert [" ".join(c["args"]) for c in calls[-3:]] == [PLAN, INIT, DESTROY]
    assert calls[-1]["main_tf"] == CONFIG


def test_nothing_applied_means_nothing_destroyed(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(rule("plan", responses=[FAILING_PLAN]), *SHOW_RULES)
    failure(make_runner(fake, tmp_path), TestCase(steps=[TestStep(config=CONFIG)]))
    assert DESTROY not in fake.argv()


def test_pre_check_can_skip_before_any_command(fake: FakeTerraform, tmp_path: Path) -> None:
    def pre_check() -> None:
        pytest.skip("needs credentials")

    with pytest.raises(pytest.skip.Exception, match="needs credentials"):
        make_runner(fake, tmp_path).run(TestCase(steps=[TestStep(config=CONFIG)], pre_check=pre_check))
    assert fake.argv() == []


def test_pre_config_runs_before_the_step_is_written(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(*SHOW_RULES)
    seen: list[list[str]] = []
    step_two = TestStep(config=CONFIG + "\n# two", plan_only=True, pre_config=lambda: seen.append(fake.argv()))
    make_runner(fake, tmp_path).run(TestCase(steps=[TestStep(config=CONFIG), step_two]))
    assert seen == [[INIT, PLAN, SHOW_PLAN, APPLY, PLAN_NO_REFRESH, PLAN_REFRESH]]


# -- secrets -----------------------------------------------------------------------------------

SECRET = "hunter2-planted-secret"


def test_sensitive_variables_never_appear_in_errors_logs_or_transcript(
    fake: FakeTerraform, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    leak = f"Error: value {SECRET} rejected (escaped: {json.dumps(SECRET)})\n"
    fake.script(rule("apply", responses=[{"exit": 1, "stdout": leak, "stderr": leak}]), *SHOW_RULES)
    step = TestStep(config=CONFIG, variables={"pw": Sensitive(SECRET), "region": "eu"})
    runner = make_runner(fake, tmp_path)
    err = failure(runner, TestCase(steps=[step]))
    printed = capsys.readouterr().out
    transcript = "".join(c.stdout + c.stderr for c in runner.commands)
    for text in (str(err), printed, transcript, repr(step), repr(err)):
        assert SECRET not in text
    assert "Error: value (sensitive) rejected" in str(err)
    tfvars = json.loads((tmp_path / "work" / "case1" / "terraform.tfvars.json").read_text())
    assert tfvars == {"pw": SECRET, "region": "eu"}


def test_secrets_found_in_a_plan_are_scrubbed_from_later_output(fake: FakeTerraform, tmp_path: Path) -> None:
    plan = plan_json(
        variables={"token": {"value": "tok-from-hcl-default"}},
        configuration={"root_module": {"variables": {"token": {"sensitive": True}}}},
    )
    fake.script(
        rule("show", "-json", "tfplan", responses=[{"stdout": plan}]),
        rule("apply", responses=[{"exit": 1, "stderr": "Error: token tok-from-hcl-default expired\n"}]),
        *SHOW_RULES,
    )
    runner = make_runner(fake, tmp_path)
    step = TestStep(config=CONFIG, config_plan_checks=ConfigPlanChecks(pre_apply=[RecordingCheck()]))
    err = failure(runner, TestCase(steps=[step]))
    assert "Error: token (sensitive) expired" in str(err)
    assert all("tok-from-hcl-default" not in c.stdout + c.stderr for c in runner.commands)


def test_echo_prints_commands_and_output_unless_turned_off(
    fake: FakeTerraform, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake.script(rule("init", responses=[{"stdout": "Terraform has been successfully initialized!\n"}]), *SHOW_RULES)
    make_runner(fake, tmp_path).run(TestCase(steps=[TestStep(config=CONFIG, plan_only=True)]))
    out = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"\[step 1/1 init\] \$ terraform init -input=false -no-color  \(exit code 0, \d+\.\d\d s\)", out[0])
    assert out[1] == "    Terraform has been successfully initialized!"
    make_runner(fake, tmp_path, echo=False).run(TestCase(steps=[TestStep(config=CONFIG, plan_only=True)]))
    assert capsys.readouterr().out == ""


# -- environment -------------------------------------------------------------------------------

ENV_KEYS = (
    "TF_CLI_CONFIG_FILE", "TF_IN_AUTOMATION", "TF_INPUT", "CHECKPOINT_DISABLE", "TF_DATA_DIR", "TF_WORKSPACE",
    "TF_CLI_ARGS", "TF_CLI_ARGS_plan", "TF_PLUGIN_CACHE_DIR", "TF_LOG",
)


def _env_of_first_call(fake: FakeTerraform, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                       user: dict[str, str], **kwargs: Any) -> dict[str, str | None]:
    for key in ENV_KEYS:
        monkeypatch.delenv(key, raising=False)
    for key, value in user.items():
        monkeypatch.setenv(key, value)
    fake.script(*SHOW_RULES, env_keys=ENV_KEYS)
    make_runner(fake, tmp_path, **kwargs).run(TestCase(steps=[TestStep(config=CONFIG, plan_only=True)]))
    env: dict[str, str | None] = fake.calls()[0]["env"]
    return env


def test_commands_run_non_interactively_and_isolated(
    fake: FakeTerraform, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = _env_of_first_call(fake, tmp_path, monkeypatch, {
        "TF_WORKSPACE": "prod", "TF_CLI_ARGS": "-json", "TF_CLI_ARGS_plan": "-destroy", "TF_DATA_DIR": "/shared",
        "TF_LOG": "DEBUG", "TF_IN_AUTOMATION": "", "TF_INPUT": "1",
    })
    assert env == {
        "TF_CLI_CONFIG_FILE": None, "TF_IN_AUTOMATION": "1", "TF_INPUT": "0", "CHECKPOINT_DISABLE": "1",
        "TF_DATA_DIR": str(tmp_path / "work" / "case1" / ".terraform"), "TF_WORKSPACE": None, "TF_CLI_ARGS": None,
        "TF_CLI_ARGS_plan": None, "TF_PLUGIN_CACHE_DIR": None, "TF_LOG": "DEBUG",
    }


@pytest.mark.parametrize(
    ("user_config", "runner_config", "cache_kept", "expected"),
    [
        pytest.param(None, None, True, None, id="unset-stays-unset"),
        pytest.param("exists", None, True, "exists", id="existing-user-file-is-honoured"),
        pytest.param("missing", None, True, "empty", id="missing-user-file-becomes-an-empty-one"),
        pytest.param("exists", "mirror", False, "mirror", id="runner-config-wins-and-drops-plugin-cache"),
    ],
)
def test_cli_config_policy(
    fake: FakeTerraform, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    user_config: str | None, runner_config: str | None, cache_kept: bool, expected: str | None,
) -> None:
    files = {"exists": tmp_path / "user.tfrc", "missing": tmp_path / "nope.tfrc", "mirror": tmp_path / "mirror.tfrc"}
    files["exists"].write_text("")
    files["mirror"].write_text("")  # the runner's own file must be readable (a missing one is refused when made)
    user = {"TF_PLUGIN_CACHE_DIR": str(tmp_path / "cache")}
    if user_config is not None:
        user["TF_CLI_CONFIG_FILE"] = str(files[user_config])
    env = _env_of_first_call(fake, tmp_path, monkeypatch, user,
                             cli_config=None if runner_config is None else files[runner_config])
    empty = tmp_path / "work" / "empty.tfrc"
    names: dict[str | None, str | None] = {None: None, "empty": str(empty), **{k: str(v) for k, v in files.items()}}
    wanted = names[expected]
    assert env["TF_CLI_CONFIG_FILE"] == wanted
    assert (env["TF_PLUGIN_CACHE_DIR"] is not None) is cache_kept
    if expected == "empty":
        assert empty.read_text() == ""


@pytest.mark.parametrize(
    ("timeout", "expected"),
    [
        pytest.param(0, "timeout 0: expected a number of seconds greater than 0 and at most 604800 (a week)", id="zero"),
        pytest.param(-1.5, "timeout -1.5: expected a number of seconds greater than 0 and at most 604800 (a week)",
                     id="negative"),
        pytest.param(float("nan"), "timeout nan: expected a number of seconds greater than 0 and at most 604800 (a week)",
                     id="nan"),
        pytest.param(float("inf"), "timeout inf: expected a number of seconds greater than 0 and at most 604800 (a week)",
                     id="infinite"),
        pytest.param(True, "timeout True: expected a number of seconds greater than 0 and at most 604800 (a week)",
                     id="bool"),
        pytest.param("60", "timeout '60': expected a number of seconds greater than 0 and at most 604800 (a week)",
                     id="text"),
    ],
)
def test_runner_refuses_a_bad_timeout_when_made(fake: FakeTerraform, tmp_path: Path, timeout: Any, expected: str) -> None:
    with pytest.raises(TimeoutValueError) as info:
        make_runner(fake, tmp_path, timeout=timeout)
    assert str(info.value) == expected
    assert fake.calls() == []  # refused before any command


def test_run_rejects_something_that_is_not_a_test_case(fake: FakeTerraform, tmp_path: Path) -> None:
    with pytest.raises(TypeError, match=r"AcceptanceRunner.run: expected a TestCase, got list"):
        make_runner(fake, tmp_path).run([TestStep(config=CONFIG)])  # type: ignore[arg-type]


def test_runner_given_a_path_asks_the_binary_for_its_version(fake: FakeTerraform, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_TF_VERSION", "1.6.6")
    runner = AcceptanceRunner(os.fspath(fake.path), tmp_path)
    assert (runner.terraform.version, runner.terraform.path) == ("1.6.6", str(fake.path))


# -- configuration files -----------------------------------------------------------------------


def test_config_directory_is_copied_and_removed_again(fake: FakeTerraform, tmp_path: Path) -> None:
    source = tmp_path / "module-test"
    (source / "modules" / "m").mkdir(parents=True)
    (source / ".terraform" / "providers").mkdir(parents=True)
    (source / "main.tf").write_text('module "m" {\n  source = "./modules/m"\n}\n')
    (source / "modules" / "m" / "main.tf").write_text("")
    (source / "terraform.tfstate").write_text("{}")
    (source / ".terraform.lock.hcl").write_text("")
    fake.script(*SHOW_RULES)
    runner = make_runner(fake, tmp_path)
    runner.run(TestCase(steps=[
        TestStep(config_directory=source, plan_only=True),
        TestStep(config=CONFIG, plan_only=True),
    ]))
    first, last = fake.calls()[0], fake.calls()[-1]
    assert first["files"] == ["main.tf", "modules"]
    assert first["main_tf"].startswith('module "m"')
    assert last["files"] == ["main.tf"]
    assert last["main_tf"] == CONFIG


def test_variables_given_twice_are_a_config_failure(fake: FakeTerraform, tmp_path: Path) -> None:
    source = tmp_path / "with-vars"
    source.mkdir()
    (source / "main.tf").write_text("")
    (source / "terraform.tfvars.json").write_text("{}")
    err = failure(make_runner(fake, tmp_path), TestCase(steps=[TestStep(config_directory=source, variables={"a": 1})]))
    assert str(err) == (
        "step 1/1, config: cannot write the configuration: TestStep.variables: config_directory already has a "
        "terraform.tfvars.json; give the values in one place"
    )
    assert fake.argv() == []


def test_a_missing_config_directory_is_a_config_failure(fake: FakeTerraform, tmp_path: Path) -> None:
    err = failure(make_runner(fake, tmp_path), TestCase(steps=[TestStep(config_directory=tmp_path / "absent")]))
    assert err.reason == (
        f"cannot write the configuration: TestStep.config_directory: {tmp_path / 'absent'} is not a directory"
    )
