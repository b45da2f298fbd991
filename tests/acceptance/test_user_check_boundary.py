"""A user's check that raises (a bug, ``sys.exit()``) inside an acceptance step is that step's failure.

Before: the raw exception (``ZeroDivisionError`` with its own traceback, its text quoting the plan's
secret) reached pytest as the test's failure, naming neither the check nor the step; ``sys.exit()`` in
a ``check`` function ended the run. Now every user check goes through the one boundary of ``assert_*``
(:func:`plancheck._checking.run.run_each`, contained): an :class:`AcceptanceError` naming the step, the
stage and the check, ``raised <Type>: <text>`` scrubbed of the case's secrets; a Ctrl-C stays a Ctrl-C.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from acceptance_fakes import EMPTY_STATE, FakeTerraform, make_fake_terraform, rule

from plancheck.acceptance import (
    AcceptanceError,
    AcceptanceRunner,
    ConfigPlanChecks,
    Stage,
    TerraformBinary,
    TestCase,
    TestStep,
)
from plancheck.querycheck import QueryResultCheck

SECRET = "hunter2-very-secret"
CONFIG = 'variable "pw" {\n  sensitive = true\n}\nresource "null_resource" "a" {}'
PLAN = json.dumps({
    "format_version": "1.2", "terraform_version": "1.9.0",
    "variables": {"pw": {"value": SECRET}},
    "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}},
})


class Boom:
    """A duck-typed plan/state check with a bug: its error quotes the document's secret."""

    def __init__(self, error: BaseException | None = None) -> None:
        self.error = error

    def _raise(self, document: Any) -> None:
        raise self.error if self.error is not None else ZeroDivisionError(f"division by {SECRET}")

    def CheckPlan(self, plan: Any) -> None:
        self._raise(plan)

    def CheckState(self, state: Any) -> None:
        self._raise(state)


def boom_function(*args: Any) -> None:
    raise ZeroDivisionError(f"division by {SECRET}")


def exits(*args: Any) -> None:
    raise SystemExit(3)


@pytest.fixture
def fake(tmp_path: Path) -> FakeTerraform:
    made = make_fake_terraform(tmp_path / "bin")
    made.script(
        rule("show", "-json", "tfplan", responses=[{"stdout": PLAN}]),
        rule("show", "-json", responses=[{"stdout": EMPTY_STATE}]),
    )
    return made


def run(fake: FakeTerraform, tmp_path: Path, step: TestStep, **case: Any) -> AcceptanceError:
    runner = AcceptanceRunner(TerraformBinary(str(fake.path), "1.9.0"), tmp_path / "work", env=fake.env())
    with pytest.raises(AcceptanceError) as info:
        runner.run(TestCase(steps=[step], **case))
    return info.value


RAISED = "raised ZeroDivisionError: division by (sensitive)"
STEPS: list[Any] = [
    pytest.param(
        TestStep(config=CONFIG, variables={"pw": SECRET}, config_plan_checks=ConfigPlanChecks(pre_apply=[Boom()])),
        Stage.PRE_APPLY, f"Boom: {RAISED}", id="pre-apply-plan-check",
    ),
    pytest.param(
        TestStep(config=CONFIG, variables={"pw": SECRET}, config_state_checks=[Boom()]),
        Stage.STATE_CHECKS, f"Boom: {RAISED}", id="state-check",
    ),
    pytest.param(
        TestStep(config=CONFIG, variables={"pw": SECRET}, check=boom_function),
        Stage.CHECK, f"boom_function: {RAISED}", id="check-function",
    ),
    pytest.param(
        TestStep(config=CONFIG, variables={"pw": SECRET}, check=exits),
        Stage.CHECK, "exits: raised SystemExit: 3", id="check-function-sys-exit",
    ),
    pytest.param(
        TestStep(config=CONFIG, variables={"pw": SECRET}, config_plan_checks=ConfigPlanChecks(
            post_apply_post_refresh=[Boom()])),
        Stage.POST_APPLY_POST_REFRESH, f"Boom: {RAISED}", id="post-refresh-plan-check",
    ),
    pytest.param(
        TestStep(config=CONFIG, variables={"pw": SECRET},
                 config_plan_checks=ConfigPlanChecks(pre_apply=[Boom(SystemExit(4))])),
        Stage.PRE_APPLY, "Boom: raised SystemExit: 4", id="plan-check-sys-exit",
    ),
]


@pytest.mark.parametrize(("step", "stage", "named"), STEPS)
def test_a_raising_user_check_is_the_step_s_typed_failure(
    fake: FakeTerraform, tmp_path: Path, step: TestStep, stage: Stage, named: str
) -> None:
    error = run(fake, tmp_path, step)
    assert (error.step, error.stage) == (1, stage)
    assert named in str(error)
    assert SECRET not in str(error)
    assert SECRET not in repr(error.__cause__)
    assert SECRET not in repr(error.__context__)


def test_a_raising_check_destroy_is_the_case_s_typed_failure(fake: FakeTerraform, tmp_path: Path) -> None:
    error = run(fake, tmp_path, TestStep(config=CONFIG, variables={"pw": SECRET}), check_destroy=boom_function)
    assert error.stage == Stage.CHECK_DESTROY
    assert f"boom_function: {RAISED}" in str(error)


class BrokenQueryCheck(QueryResultCheck):
    def failures(self, output: Any) -> list[Any]:
        raise ZeroDivisionError("division by zero")


def test_a_raising_query_check_is_one_failure_and_the_others_still_run() -> None:
    from plancheck.acceptance._checks import query_result_failures
    from plancheck.querycheck import ExpectLength, QueryOutput

    output = QueryOutput.from_messages([{"type": "list_complete", "list_complete": {"address": "list.a.b", "total": 1}}])
    assert query_result_failures(output, [BrokenQueryCheck(), ExpectLength("a.b", 2)]) == [
        "BrokenQueryCheck: raised ZeroDivisionError: division by zero",
        "ExpectLength: a.b: number of found resources 2 - expected but got 1.",
    ]


def test_a_ctrl_c_in_a_user_check_stays_an_interrupt(fake: FakeTerraform, tmp_path: Path) -> None:
    runner = AcceptanceRunner(TerraformBinary(str(fake.path), "1.9.0"), tmp_path / "work", env=fake.env())
    step = TestStep(config=CONFIG, config_plan_checks=ConfigPlanChecks(pre_apply=[Boom(KeyboardInterrupt())]))
    with pytest.raises(KeyboardInterrupt) as info:
        runner.run(TestCase(steps=[step]))
    assert getattr(info.value, "plancheck_check", None) == "Boom"
