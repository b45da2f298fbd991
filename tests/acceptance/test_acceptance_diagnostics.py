"""Expected diagnostics and fail_on_warnings, driven by the scripted fake terraform: command sequences,
verdicts, messages, unreadable output, secrets.

Fast and deterministic; the same against Terraform 1.0.3 and 1.11.4 is in tests/providers/test_diagnostics_e2e.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from acceptance_fakes import EMPTY_PLAN, FakeTerraform, make_fake_terraform, rule
from diagnostic_fakes import diagnostic, json_rules, ui_lines, validate_json
from secret_shapes import leaks

from plancheck.acceptance import (
    AcceptanceError,
    AcceptanceRunner,
    ConfigPlanChecks,
    ExpectDiagnostic,
    Sensitive,
    Stage,
    TerraformBinary,
    TestCase,
    TestStep,
)

CONFIG = 'resource "widget_thing" "t" {}'
INIT = "init -input=false -no-color"
VALIDATE = "validate -json -no-color"
PLAN = "plan -input=false -no-color -out=tfplan"
PLAN_J = "plan -json -input=false -no-color -out=tfplan"
SHOW_PLAN = "show -json tfplan"
SHOW = "show -json"
APPLY = "apply -input=false -no-color tfplan"
APPLY_J = "apply -json -input=false -no-color tfplan"
PLAN_NO_REFRESH = "plan -input=false -no-color -detailed-exitcode -refresh=false -out=tfplan"
PLAN_NO_REFRESH_J = "plan -json -input=false -no-color -detailed-exitcode -refresh=false -out=tfplan"
PLAN_REFRESH = "plan -input=false -no-color -detailed-exitcode -out=tfplan"
PLAN_REFRESH_J = "plan -json -input=false -no-color -detailed-exitcode -out=tfplan"
REFRESH_J = "refresh -json -input=false -no-color"
DESTROY = "destroy -auto-approve -input=false -no-color -refresh=false"
STATE = {"format_version": "1.0", "values": {"root_module": {"resources": [
    {"address": "widget_thing.t", "mode": "managed", "type": "widget_thing", "name": "t",
     "provider_name": "example.com/acme/widget", "values": {"id": "w-1"}}]}}}
SHOW_RULES = (
    rule("show", "-json", "tfplan", responses=[{"stdout": EMPTY_PLAN}]),
    rule("show", "-json", responses=[{"stdout": json.dumps(STATE)}]),
)
CONTEXT = 'resource "widget_thing" "t"'
DEPRECATED = diagnostic("warning", "Attribute deprecated", "color is deprecated: use tags", address="widget_thing.t",
                        line=3, code='  color = "red"', context=CONTEXT)
WEAK = diagnostic("warning", "Weak secret", "the secret is weak", address="widget_thing.t", line=4,
                  code="  secret = var.secret", context=CONTEXT)
INVALID = diagnostic("error", "Invalid size", "size must be >= 0, got -1", address="widget_thing.t", line=5,
                     code="  size = -1", context=CONTEXT)
WARNING_TEXT = (
    "Warning: Attribute deprecated\n\n  with widget_thing.t,\n"
    '  on main.tf line 3, in resource "widget_thing" "t":\n   3:   color = "red"\n\ncolor is deprecated: use tags'
)
ARRIVED_DEPRECATED = (
    "warning: Attribute deprecated\n"
    "  detail: color is deprecated: use tags\n"
    "  address: widget_thing.t\n"
    "  attribute: unknown (not reported by a provider served in this process)"
)


@pytest.fixture
def fake(tmp_path: Path) -> FakeTerraform:
    return make_fake_terraform(tmp_path / "bin")


def make_runner(fake: FakeTerraform, tmp_path: Path, **kwargs: Any) -> AcceptanceRunner:
    env = {**fake.env(), **kwargs.pop("env", {})}
    kwargs.setdefault("require_tf_acc", False)
    return AcceptanceRunner(TerraformBinary(str(fake.path), "1.9.0"), tmp_path / "work", env=env, **kwargs)


def failure(runner: AcceptanceRunner, case: TestCase) -> AcceptanceError:
    with pytest.raises(AcceptanceError) as info:
        runner.run(case)
    return info.value


def indented(text: str, prefix: str) -> str:
    return "\n".join(prefix + line if line else line for line in text.splitlines())


# -- which commands run with -json ---------------------------------------------------------------

EXPECT_WARNING = [ExpectDiagnostic("warning", "Attribute deprecated")]
ALLOW = ["Attribute deprecated"]


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        pytest.param(
            TestCase(steps=[TestStep(config=CONFIG)]),
            [INIT, PLAN, SHOW_PLAN, APPLY, PLAN_NO_REFRESH, PLAN_REFRESH, DESTROY],
            id="a-step-that-asks-nothing-runs-as-before",
        ),
        pytest.param(
            TestCase(steps=[TestStep(config=CONFIG, expect_diagnostics=EXPECT_WARNING)]),
            [INIT, VALIDATE, PLAN_J, SHOW_PLAN, APPLY_J, PLAN_NO_REFRESH_J, PLAN_REFRESH_J, DESTROY],
            id="expect-diagnostics",
        ),
        pytest.param(
            TestCase(steps=[TestStep(config=CONFIG, expect_diagnostics=EXPECT_WARNING),
                            TestStep(config=CONFIG, plan_only=True)]),
            [INIT, VALIDATE, PLAN_J, SHOW_PLAN, APPLY_J, PLAN_NO_REFRESH_J, PLAN_REFRESH_J,
             PLAN_NO_REFRESH, PLAN_REFRESH, DESTROY],
            id="only-the-step-that-asks",
        ),
        pytest.param(
            TestCase(fail_on_warnings=True, steps=[
                TestStep(config=CONFIG, plan_only=True, allow_warnings=ALLOW),
                TestStep(refresh_state=True, allow_warnings=ALLOW),
            ]),
            [INIT, VALIDATE, PLAN_NO_REFRESH_J, PLAN_REFRESH_J, REFRESH_J, PLAN_REFRESH_J],
            id="fail-on-warnings-plan-only-and-refresh-steps",
        ),
        pytest.param(
            TestCase(fail_on_warnings=True, steps=[
                TestStep(config=CONFIG, allow_warnings=ALLOW),
                TestStep(config=CONFIG, destroy=True, check=lambda state: None, allow_warnings=ALLOW),
            ]),
            [INIT, VALIDATE, PLAN_J, SHOW_PLAN, APPLY_J, PLAN_NO_REFRESH_J, PLAN_REFRESH_J,
             VALIDATE, "plan -json -input=false -no-color -destroy -out=tfplan", SHOW_PLAN, REFRESH_J, SHOW,
             "plan -json -input=false -no-color -destroy -out=tfplan", APPLY_J,
             "plan -json -input=false -no-color -detailed-exitcode -refresh=false -destroy -out=tfplan",
             "plan -json -input=false -no-color -detailed-exitcode -destroy -out=tfplan", DESTROY],
            id="fail-on-warnings-destroy-step-with-check",
        ),
        pytest.param(
            TestCase(fail_on_warnings=True, steps=[
                TestStep(config=CONFIG, allow_warnings=ALLOW),
                TestStep(import_state=True, resource_name="widget_thing.t"),
            ]),
            [INIT, VALIDATE, PLAN_J, SHOW_PLAN, APPLY_J, PLAN_NO_REFRESH_J, PLAN_REFRESH_J,
             SHOW, INIT, "import -input=false -no-color widget_thing.t w-1", SHOW, DESTROY],
            id="import-steps-run-as-before",
        ),
    ],
)
def test_commands_of_steps_that_check_diagnostics(fake: FakeTerraform, tmp_path: Path, case: TestCase,
                                                  expected: list[str]) -> None:
    fake.script(*json_rules(validate=[DEPRECATED], plan=[DEPRECATED]), *SHOW_RULES)
    make_runner(fake, tmp_path).run(case)
    assert fake.argv() == expected


def test_refresh_after_apply_runs_with_json_too(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(*json_rules(validate=[DEPRECATED], plan=[DEPRECATED]), *SHOW_RULES)
    runner = make_runner(fake, tmp_path, env={"TF_ACC_REFRESH_AFTER_APPLY": "1"})
    runner.run(TestCase(fail_on_warnings=True, steps=[
        TestStep(config=CONFIG, allow_warnings=ALLOW), TestStep(config=CONFIG, plan_only=True, allow_warnings=ALLOW),
    ]))
    assert "apply -json -refresh-only -auto-approve -input=false -no-color" in fake.argv()


# -- what the runner shows -----------------------------------------------------------------------


def test_json_output_is_shown_as_terraforms_text(fake: FakeTerraform, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    fake.script(*json_rules(validate=[DEPRECATED], plan=[DEPRECATED]), *SHOW_RULES)
    runner = make_runner(fake, tmp_path, echo=True)
    runner.run(TestCase(steps=[TestStep(config=CONFIG, expect_diagnostics=EXPECT_WARNING)]))
    validate, plan = runner.commands[1:3]
    assert (validate.stdout, validate.stderr) == (
        f"\n{WARNING_TEXT}\nSuccess! The configuration is valid, but there were some validation warnings as shown above.\n",
        "",
    )
    assert plan.stdout == f"Plan: 1 to add, 0 to change, 0 to destroy.\n\n{WARNING_TEXT}\n"
    log = capsys.readouterr().out
    assert f"[step 1/1 pre_apply] $ terraform {PLAN_J}" in log
    assert indented(WARNING_TEXT, "    ") in log
    assert "[step 1/1] the expected diagnostics arrived (terraform validate, plan, apply, plan, plan)" in log
    assert "@message" not in log + "".join(c.stdout + c.stderr for c in runner.commands)


# -- verdicts ------------------------------------------------------------------------------------


def test_an_expected_error_lets_the_case_continue(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(
        {"when": ["validate"], "if_config": ["size"], "responses": [{"stdout": validate_json(INVALID), "exit": 1}]},
        {"when": ["plan"], "if_config": ["size"], "responses": [{"stdout": ui_lines(INVALID), "exit": 1}]},
        *SHOW_RULES,
    )
    make_runner(fake, tmp_path).run(TestCase(steps=[
        TestStep(config=CONFIG),
        TestStep(config=CONFIG + "\n# size", expect_diagnostics=[
            ExpectDiagnostic("error", "Invalid size", detail=re.compile(r">= 0"), address="widget_thing.t")]),
        TestStep(config=CONFIG, plan_only=True),
    ]))
    calls = fake.calls()
    assert [" ".join(c["args"]) for c in calls[6:9]] == [INIT, VALIDATE, PLAN_J]
    assert [" ".join(c["args"]) for c in calls[-4:]] == [INIT, PLAN_NO_REFRESH, PLAN_REFRESH, DESTROY]
    assert calls[-1]["main_tf"] == CONFIG


@pytest.mark.parametrize(
    ("validate", "verdict"),
    [
        pytest.param([INVALID], None, id="validate-says-why"),
        pytest.param([], "expected an error diagnostic, but the step failed in stage init without one, for another "
                         "reason: terraform init failed", id="validate-finds-nothing"),
    ],
)
def test_a_failed_init_is_explained_by_validate(fake: FakeTerraform, tmp_path: Path, validate: list[dict[str, Any]],
                                               verdict: str | None) -> None:
    fake.script(rule("init", if_config=["size"], responses=[{"exit": 1, "stderr": "Error: Invalid size\n"}]),
                *json_rules(validate=validate), *SHOW_RULES)
    case = TestCase(steps=[TestStep(config=CONFIG + "\n# size", expect_diagnostics=[ExpectDiagnostic("error", "Invalid size")])])
    if verdict is None:
        make_runner(fake, tmp_path).run(case)
    else:
        error = failure(make_runner(fake, tmp_path), case)
        assert (error.stage, error.reason, error.command) == (Stage.EXPECT_DIAGNOSTICS, verdict, f"terraform {INIT}")
    assert fake.argv() == [INIT, VALIDATE]


def test_an_error_reported_by_validate_alone_is_met(fake: FakeTerraform, tmp_path: Path) -> None:
    # validate's errors do not stop the step: the plan decides, and here it succeeds.
    fake.script(*json_rules(validate=[INVALID]), *SHOW_RULES)
    runner = make_runner(fake, tmp_path)
    runner.run(TestCase(steps=[TestStep(config=CONFIG, expect_diagnostics=[ExpectDiagnostic("error", "Invalid size")])]))
    assert fake.argv()[-1] == DESTROY


def test_unmet_expectations_after_success(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(*json_rules(validate=[DEPRECATED], plan=[DEPRECATED, WEAK]), *SHOW_RULES)
    error = failure(make_runner(fake, tmp_path), TestCase(steps=[TestStep(config=CONFIG, expect_diagnostics=[
        ExpectDiagnostic("warning", "Attribute deprecated"),
        ExpectDiagnostic("error", "Invalid size", address="widget_thing.t"),
        ExpectDiagnostic("warning", re.compile("^Weak"), detail="the secret is strong"),
    ])]))
    assert (error.step, error.stage, error.command, error.output) == (1, Stage.EXPECT_DIAGNOSTICS, None, "")
    assert error.reason == (
        "2 of 3 expected diagnostics did not arrive (terraform validate, plan, apply, plan, plan):\n"
        "  missing:\n"
        "    ExpectDiagnostic('error', summary='Invalid size', address='widget_thing.t')\n"
        "    ExpectDiagnostic('warning', summary=re.compile('^Weak'), detail='the secret is strong')\n"
        "  arrived (2):\n"
        f"{indented(ARRIVED_DEPRECATED, '    ')}\n"
        "    warning: Weak secret\n"
        "      detail: the secret is weak\n"
        "      address: widget_thing.t\n"
        "      attribute: unknown (not reported by a provider served in this process)"
    )
    assert fake.argv()[-1] == DESTROY


def test_unmet_expectations_after_a_failure_name_the_failure(fake: FakeTerraform, tmp_path: Path) -> None:
    other = diagnostic("error", "Reference to undeclared input variable", 'No variable named "x".')
    fake.script(*json_rules(validate=[other], plan=[other, DEPRECATED], plan_exit=1), *SHOW_RULES)
    error = failure(make_runner(fake, tmp_path), TestCase(steps=[TestStep(config=CONFIG, expect_diagnostics=[
        ExpectDiagnostic("error", "Invalid size"),
    ])]))
    assert (error.stage, error.command, error.exit_code) == (Stage.EXPECT_DIAGNOSTICS, f"terraform {PLAN_J}", 1)
    assert error.reason == (
        "1 of 1 expected diagnostics did not arrive (terraform validate, plan):\n"
        "  the step failed: in stage pre_apply, terraform plan failed\n"
        "  missing:\n"
        "    ExpectDiagnostic('error', summary='Invalid size')\n"
        "  arrived (2):\n"
        "    error: Reference to undeclared input variable\n"
        '      detail: No variable named "x".\n'
        "      address: (none)\n"
        "      attribute: unknown (not reported by a provider served in this process)\n"
        f"{indented(ARRIVED_DEPRECATED, '    ')}"
    )
    assert error.output.startswith("stderr:\nError: Reference to undeclared input variable\n\nNo variable named")


def test_an_expected_error_does_not_excuse_another_failure(fake: FakeTerraform, tmp_path: Path) -> None:
    class Fails:
        def CheckPlan(self, plan: Any) -> None:
            raise AssertionError("not this plan")

    fake.script(*json_rules(validate=[INVALID]), *SHOW_RULES)
    error = failure(make_runner(fake, tmp_path), TestCase(steps=[TestStep(
        config=CONFIG, expect_diagnostics=[ExpectDiagnostic("error", "Invalid size")],
        config_plan_checks=ConfigPlanChecks(pre_apply=[Fails()]),
    )]))
    assert (error.stage, error.reason) == (
        Stage.EXPECT_DIAGNOSTICS,
        "expected an error diagnostic, but the step failed in stage pre_apply without one, for another reason: "
        "Pre-apply plan check(s) failed:\n  Fails: not this plan",
    )


def test_expected_warnings_do_not_excuse_a_failure(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(*json_rules(validate=[DEPRECATED], plan=[DEPRECATED, INVALID], plan_exit=1), *SHOW_RULES)
    seen: list[AcceptanceError] = []

    def error_check(error: AcceptanceError) -> AcceptanceError:
        seen.append(error)
        return error

    error = failure(make_runner(fake, tmp_path), TestCase(error_check=error_check, steps=[
        TestStep(config=CONFIG, expect_diagnostics=EXPECT_WARNING),
    ]))
    assert (error.stage, error.reason) == (Stage.PRE_APPLY, "terraform plan failed")
    assert seen == [error]   # an ordinary failure: error_check sees it


def test_expect_error_reads_the_text_of_json_output(fake: FakeTerraform, tmp_path: Path) -> None:
    # Terraform writes ">" as \u003e in JSON; the pattern reads the text, as in a step without -json.
    escaped = [
        rule("validate", responses=[{"stdout": validate_json(INVALID).replace(">", "\\u003e"), "exit": 1}]),
        rule("plan", "-json", responses=[{"stdout": ui_lines(INVALID).replace(">", "\\u003e"), "exit": 1}]),
    ]
    assert "size must be \\u003e= 0" in escaped[1]["responses"][0]["stdout"]
    fake.script(*escaped, *SHOW_RULES)
    runner = make_runner(fake, tmp_path)
    runner.run(TestCase(fail_on_warnings=True, steps=[TestStep(config=CONFIG, expect_error=r"size must be >= 0")]))
    error = failure(runner, TestCase(steps=[TestStep(config=CONFIG, expect_error=r"Invalid size",
                                                     expect_diagnostics=[ExpectDiagnostic("error", "Other")])]))
    assert error.stage is Stage.EXPECT_DIAGNOSTICS
    assert error.reason.splitlines()[:2] == [
        "1 of 1 expected diagnostics did not arrive (terraform validate, plan):",
        "  the step failed: in stage pre_apply, terraform plan failed",
    ]


# -- fail_on_warnings ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "allowed",
    [
        pytest.param({"allow_warnings": ["Attribute deprecated", "Weak secret"]}, id="summaries"),
        pytest.param({"allow_warnings": [re.compile("deprecated$"), re.compile("^Weak")]}, id="patterns"),
        pytest.param({"allow_warnings": [ExpectDiagnostic("warning", address="widget_thing.t")]}, id="by-address"),
        pytest.param({"allow_warnings": [{"summary": "Weak secret"}],
                      "expect_diagnostics": [ExpectDiagnostic("warning", "Attribute deprecated")]}, id="expected-is-allowed"),
    ],
)
def test_allowed_warnings_pass(fake: FakeTerraform, tmp_path: Path, allowed: dict[str, Any]) -> None:
    fake.script(*json_rules(validate=[DEPRECATED], plan=[DEPRECATED, WEAK], apply=[WEAK]), *SHOW_RULES)
    make_runner(fake, tmp_path).run(TestCase(fail_on_warnings=True, steps=[TestStep(config=CONFIG, **allowed)]))
    assert fake.argv()[-1] == DESTROY


def test_a_warning_not_allowed_fails_at_its_command(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(*json_rules(validate=[DEPRECATED], plan=[DEPRECATED, WEAK, WEAK]), *SHOW_RULES)
    seen: list[AcceptanceError] = []
    error = failure(make_runner(fake, tmp_path), TestCase(
        fail_on_warnings=True, error_check=lambda e: seen.append(e),  # type: ignore[func-returns-value]
        steps=[TestStep(config=CONFIG, allow_warnings=["Attribute deprecated"])],
    ))
    assert (error.stage, error.command, error.exit_code) == (Stage.PRE_APPLY, f"terraform {PLAN_J}", 0)
    assert error.reason == (
        "terraform plan reported a warning that is not allowed (TestCase(fail_on_warnings=True); "
        "allow it with TestStep(allow_warnings=[...]) or expect it):\n"
        "  warning: Weak secret\n"
        "    detail: the secret is weak\n"
        "    address: widget_thing.t\n"
        "    attribute: unknown (not reported by a provider served in this process)"
    )
    assert seen == []   # the test's own assertion: error_check does not see it
    assert DESTROY not in fake.argv()   # nothing was applied


def test_warnings_not_allowed_are_listed_errors_and_all(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(*json_rules(validate=[WEAK, INVALID, DEPRECATED]), *SHOW_RULES)
    error = failure(make_runner(fake, tmp_path), TestCase(fail_on_warnings=True, steps=[
        TestStep(config=CONFIG, expect_diagnostics=[ExpectDiagnostic("error", "Invalid size")]),
    ]))
    assert (error.stage, error.exit_code) == (Stage.VALIDATE, 1)
    assert error.reason.splitlines() == [
        "terraform validate reported 2 warnings that are not allowed (TestCase(fail_on_warnings=True); "
        "allow it with TestStep(allow_warnings=[...]) or expect it):",
        *indented(ARRIVED_DEPRECATED, "  ").splitlines(),
        "  warning: Weak secret",
        "    detail: the secret is weak",
        "    address: widget_thing.t",
        "    attribute: unknown (not reported by a provider served in this process)",
    ]


# -- output that cannot be read ------------------------------------------------------------------

SECRET = "diag-fake-secret-6613"
VALID = rule("validate", responses=[{"stdout": validate_json()}])


@pytest.mark.parametrize(
    ("rules", "stage", "reason"),
    [
        pytest.param(
            [rule("validate", responses=[{"stdout": f'{{"valid": true, "diagnostics": [{{"summary": "{SECRET}"}}]}}'}])],
            Stage.VALIDATE,
            "cannot read the output of terraform validate -json (withheld):\n  $.diagnostics[0].severity: missing",
            id="validate",
        ),
        pytest.param(
            [VALID, rule("plan", "-json", responses=[
                {"stdout": ui_lines(DEPRECATED) + f'{{"type": "diagnostic", "@message": "{SECRET}\n'}])],
            Stage.PRE_APPLY,
            "cannot read the output of terraform plan -json (withheld):\n  line 3: not JSON",
            id="plan-line-cut-short",
        ),
    ],
)
def test_unreadable_output_is_withheld_everywhere(fake: FakeTerraform, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  rules: list[dict[str, Any]], stage: Stage, reason: str) -> None:
    fake.script(*rules, *SHOW_RULES)
    runner = make_runner(fake, tmp_path, echo=True)
    error = failure(runner, TestCase(steps=[TestStep(config=CONFIG, expect_diagnostics=EXPECT_WARNING)]))
    assert (error.stage, error.reason) == (stage, reason)
    withheld = "(withheld: "
    assert withheld in error.output
    shown = [str(error), capsys.readouterr().out] + [c.stdout + c.stderr for c in runner.commands]
    assert [leaks(text, {"secret": SECRET}) for text in shown] == [[]] * len(shown)


def test_a_timeout_is_said_before_what_it_cut_short(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(VALID, rule("plan", "-json", responses=[{"stdout": '{"type": "vers', "sleep": 5}]), *SHOW_RULES)
    runner = make_runner(fake, tmp_path, timeout=1)
    error = failure(runner, TestCase(steps=[TestStep(config=CONFIG, expect_diagnostics=EXPECT_WARNING)]))
    assert (error.stage, error.reason) == (Stage.PRE_APPLY, "terraform plan timed out after 1 s")


# -- secrets -------------------------------------------------------------------------------------


def test_a_secret_in_a_diagnostic_is_redacted_everywhere(fake: FakeTerraform, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    echoed = diagnostic("warning", "Weak secret", f"the secret {SECRET!r} is weak", address="widget_thing.t")
    fake.script(*json_rules(validate=[echoed], plan=[echoed]), *SHOW_RULES)
    runner = make_runner(fake, tmp_path, echo=True)
    variables = {"secret": Sensitive(SECRET)}
    runner.run(TestCase(steps=[TestStep(config=CONFIG, variables=variables, expect_diagnostics=[
        ExpectDiagnostic("warning", "Weak secret", detail=f"the secret {SECRET!r} is weak")])]))
    unmet = failure(runner, TestCase(steps=[TestStep(config=CONFIG, variables=variables, expect_diagnostics=[
        ExpectDiagnostic("warning", "Weak secret", detail=SECRET)])]))
    refused = failure(runner, TestCase(fail_on_warnings=True, steps=[TestStep(config=CONFIG, variables=variables)]))
    assert "      detail: the secret '(sensitive)' is weak" in unmet.reason.splitlines()
    assert "ExpectDiagnostic('warning', summary='Weak secret', detail='(sensitive)')" in unmet.reason
    assert "    detail: the secret '(sensitive)' is weak" in refused.reason.splitlines()
    log = capsys.readouterr().out
    assert "the secret '(sensitive)' is weak" in log
    shown = [str(unmet), str(refused), log] + [c.command_line + c.stdout + c.stderr for c in runner.commands]
    assert [leaks(text, {"secret": SECRET}) for text in shown] == [[]] * len(shown)
