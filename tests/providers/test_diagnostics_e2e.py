"""Expected diagnostics end to end: a provider's warnings and errors with their attribute paths, Terraform's own errors.

The widget provider with diagnostics (diagnostic_widget.py) is served in this process; each test
runs on the pinned Terraform 1.0.3 and the newer one on PATH, whose JSON diagnostics have the same shape.
Terraform's own diagnostics (no provider to serve): tests/e2e/test_acc_diagnostics_e2e.py.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from diagnostic_widget import DiagnosticWidgetProvider
from provider_support import WIDGET
from secret_shapes import leaks

from plancheck.acceptance import (
    AcceptanceError,
    AcceptanceRunner,
    ExpectDiagnostic,
    Sensitive,
    Stage,
    TestCase,
    TestStep,
)
from tfjsonpath import New

pytestmark = pytest.mark.e2e

ADDRESS = "widget_thing.t"
SECRET = "weak-hunter2-diag-5531"


def widget(**fields: str) -> str:
    body = "\n".join(f"  {name} = {value}" for name, value in {"name": '"alpha"', **fields}.items())
    return f'resource "widget_thing" "t" {{\n{body}\n}}\n'


SECRET_CONFIG = 'variable "secret" {\n  type      = string\n  sensitive = true\n}\n' + widget(secret="var.secret")
DEPRECATED = ExpectDiagnostic(
    "warning", "Attribute deprecated", detail="color is deprecated: use tags instead", address=ADDRESS, attribute=New("color")
)


def runner_for(tf_acceptance: AcceptanceRunner, **kwargs: Any) -> AcceptanceRunner:
    kwargs.setdefault("echo", False)
    return AcceptanceRunner(tf_acceptance.terraform, tf_acceptance.work_dir, timeout=120, **kwargs)


def failure(runner: AcceptanceRunner, case: TestCase) -> AcceptanceError:
    with pytest.raises(AcceptanceError) as info:
        runner.run(case)
    return info.value


def subcommands(runner: AcceptanceRunner) -> list[str]:
    return [" ".join(c.command_line.split()[1:3]) for c in runner.commands]


def test_expected_warning_matched_by_every_field(tf_acceptance: AcceptanceRunner) -> None:
    runner = runner_for(tf_acceptance)
    runner.run(TestCase(providers={WIDGET: DiagnosticWidgetProvider}, steps=[
        TestStep(config=widget(color='"red"'), expect_diagnostics=[DEPRECATED]),
        TestStep(config=widget(), plan_only=True, expect_non_empty_plan=True),   # back to text output
    ]))
    assert subcommands(runner) == [
        "init -input=false", "validate -json", "plan -json", "show -json", "apply -json", "plan -json", "plan -json",
        "init -input=false", "plan -input=false", "show -json", "plan -input=false", "show -json", "destroy -auto-approve",
    ]
    # Shown as Terraform's text would show it, never as JSON.
    validate = runner.commands[1]
    assert validate.stdout.startswith("\nWarning: Attribute deprecated\n\n  with widget_thing.t,\n  on main.tf line 3")
    assert all('"@message"' not in c.stdout + c.stderr for c in runner.commands)


def test_expected_errors_with_attribute_paths_let_the_case_continue(tf_acceptance: AcceptanceRunner) -> None:
    made: list[Any] = []

    def factory() -> Any:
        made.append(DiagnosticWidgetProvider())
        return made[-1]

    runner = runner_for(tf_acceptance)
    runner.run(TestCase(providers={WIDGET: factory}, steps=[
        TestStep(config=widget(size="3")),
        TestStep(config=widget(size="-1"), expect_diagnostics=[
            ExpectDiagnostic("error", "Invalid size", detail="size must be zero or more, got -1", address=ADDRESS,
                             attribute=New("size")),
        ]),
        TestStep(config=widget(tags='{ "the key" = "v" }'), expect_diagnostics=[
            ExpectDiagnostic("error", "Invalid tag key", address=ADDRESS, attribute=New("tags").AtMapKey("the key")),
        ]),
        # An apply-time error (ApplyResourceChange), at the attribute the provider named.
        TestStep(config=widget(description='"refuse"').replace("alpha", "gamma"), expect_diagnostics=[
            ExpectDiagnostic("error", "Create refused", address=ADDRESS, attribute=New("description")),
        ]),
        # expect_error reads the same words in a step whose commands run with -json.
        TestStep(config=widget(size="-2"), expect_error=r"size must be zero or more, got -2",
                 expect_diagnostics=[ExpectDiagnostic("error", re.compile("^Invalid"))]),
    ]))
    assert made[0].store.ids() == []


def test_fail_on_warnings_names_the_warning_and_passes_with_allow_warnings(tf_acceptance: AcceptanceRunner) -> None:
    runner = runner_for(tf_acceptance)
    error = failure(runner, TestCase(fail_on_warnings=True, providers={WIDGET: DiagnosticWidgetProvider}, steps=[
        TestStep(config=widget()),
        TestStep(config=widget(color='"red"')),
    ]))
    assert (error.step, error.stage) == (2, Stage.VALIDATE)
    assert error.reason == (
        "terraform validate reported a warning that is not allowed (TestCase(fail_on_warnings=True); "
        "allow it with TestStep(allow_warnings=[...]) or expect it):\n"
        "  warning: Attribute deprecated\n"
        "    detail: color is deprecated: use tags instead\n"
        "    address: widget_thing.t\n"
        "    attribute: color"
    )
    assert error.command == "terraform validate -json -no-color"
    runner = runner_for(tf_acceptance)
    runner.run(TestCase(fail_on_warnings=True, providers={WIDGET: DiagnosticWidgetProvider}, steps=[
        TestStep(config=widget(color='"red"'), allow_warnings=["Attribute deprecated"]),
        TestStep(config=widget(color='"blue"'), expect_diagnostics=[DEPRECATED]),   # expected is allowed too
        TestStep(config=widget(color='"blue"'), allow_warnings=[ExpectDiagnostic("warning", attribute=New("color"))],
                 plan_only=True),
    ]))


def test_unmet_expectations_list_what_did_arrive(tf_acceptance: AcceptanceRunner) -> None:
    runner = runner_for(tf_acceptance)
    error = failure(runner, TestCase(providers={WIDGET: DiagnosticWidgetProvider}, steps=[
        TestStep(config=widget(color='"red"'), expect_diagnostics=[
            ExpectDiagnostic("warning", "Attribute deprecated", attribute=New("tags")),
            ExpectDiagnostic("error", "Invalid size"),
        ]),
    ]))
    assert (error.step, error.stage, error.command) == (1, Stage.EXPECT_DIAGNOSTICS, None)
    assert error.reason == (
        "2 of 2 expected diagnostics did not arrive (terraform validate, plan, apply, plan, plan):\n"
        "  missing:\n"
        "    ExpectDiagnostic('warning', summary='Attribute deprecated', attribute=Path(MapStep('tags')))\n"
        "      (a diagnostic that arrived matches every other field; its attribute is color)\n"
        "    ExpectDiagnostic('error', summary='Invalid size')\n"
        "  arrived (1):\n"
        "    warning: Attribute deprecated\n"
        "      detail: color is deprecated: use tags instead\n"
        "      address: widget_thing.t\n"
        "      attribute: color"
    )


def test_a_secret_echoed_in_a_diagnostic_is_redacted_everywhere(
    tf_acceptance: AcceptanceRunner, capsys: pytest.CaptureFixture[str]
) -> None:
    variables = {"secret": Sensitive(SECRET)}
    runner = runner_for(tf_acceptance, echo=True)
    error = failure(runner, TestCase(fail_on_warnings=True, providers={WIDGET: DiagnosticWidgetProvider}, steps=[
        TestStep(config=SECRET_CONFIG, variables=variables),
    ]))
    assert (error.stage, error.command) == (Stage.PRE_APPLY, "terraform plan -json -input=false -no-color -out=tfplan")
    assert error.reason.splitlines()[1:3] == ["  warning: Weak secret", "    detail: the secret '(sensitive)' is weak"]
    runner.run(TestCase(providers={WIDGET: DiagnosticWidgetProvider}, steps=[
        TestStep(config=SECRET_CONFIG, variables=variables, expect_diagnostics=[
            ExpectDiagnostic("warning", "Weak secret", detail=f"the secret {SECRET!r} is weak", attribute=New("secret")),
        ]),
    ]))
    unmet = failure(runner, TestCase(providers={WIDGET: DiagnosticWidgetProvider}, steps=[
        TestStep(config=SECRET_CONFIG, variables=variables, expect_diagnostics=[
            ExpectDiagnostic("warning", "Weak secret", detail=f"the secret {SECRET!r} is strong"),
        ]),
    ]))
    assert "detail: the secret '(sensitive)' is weak" in unmet.reason
    log = capsys.readouterr()
    assert "the secret '(sensitive)' is weak" in log.out
    shown = [str(error), str(unmet), log.out, log.err]
    shown += [c.command_line + c.stdout + c.stderr for c in runner.commands]
    assert [leaks(text, {"secret": SECRET}) for text in shown] == [[]] * len(shown)
