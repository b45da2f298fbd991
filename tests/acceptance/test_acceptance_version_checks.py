"""TestCase(terraform_version_checks=...) in the runner, with the scripted fake terraform: gates run first."""

from __future__ import annotations

import unittest
from pathlib import Path
from typing import Any

import pytest
from acceptance_fakes import EMPTY_PLAN, EMPTY_STATE, FakeTerraform, make_fake_terraform, rule

from plancheck.acceptance import (
    AcceptanceError,
    AcceptanceRunner,
    Stage,
    TerraformBinary,
    TestCase,
    TestDefinitionError,
    TestStep,
)
from plancheck.tfversion import All, RequireAbove, RequireNot, Result, SkipBelow, SkipIf, SkipIfNotAlpha

CONFIG = 'resource "null_resource" "a" {}'
SHOW_RULES = (
    rule("show", "-json", "tfplan", responses=[{"stdout": EMPTY_PLAN}]),
    rule("show", "-json", responses=[{"stdout": EMPTY_STATE}]),
)


@pytest.fixture
def fake(tmp_path: Path) -> FakeTerraform:
    fake = make_fake_terraform(tmp_path / "bin")
    fake.script(*SHOW_RULES)
    return fake


def make_runner(fake: FakeTerraform, tmp_path: Path, version: str = "1.11.4") -> AcceptanceRunner:
    return AcceptanceRunner(TerraformBinary(str(fake.path), version), tmp_path / "work", env=fake.env(), echo=False)


def case(*checks: Any, pre_check: Any = None) -> TestCase:
    return TestCase(steps=[TestStep(config=CONFIG)], terraform_version_checks=list(checks), pre_check=pre_check)


@pytest.mark.parametrize(
    ("checks", "version", "message"),
    [
        pytest.param(
            [SkipBelow("1.12.0")],
            "1.11.4",
            "Terraform CLI version 1.11.4 is below minimum version 1.12.0: skipping test",
            id="skip-below",
        ),
        pytest.param(
            [RequireAbove("1.0.0"), SkipIfNotAlpha(), RequireNot("1.11.4")],
            "1.11.4",
            "Terraform CLI version 1.11.4 is not an alpha build: skipping test.",
            id="first-skip-wins-over-a-later-error",
        ),
    ],
)
def test_a_skip_raises_skiptest_before_anything_runs(
    fake: FakeTerraform, tmp_path: Path, checks: list[Any], version: str, message: str
) -> None:
    called: list[str] = []
    runner = make_runner(fake, tmp_path, version)
    with pytest.raises(unittest.SkipTest) as info:
        runner.run(case(*checks, pre_check=lambda: called.append("pre_check")))
    assert str(info.value) == message
    assert fake.argv() == []
    assert called == []
    assert runner.commands == ()
    assert not (tmp_path / "work").exists()


@pytest.mark.parametrize(
    ("checks", "version", "reason"),
    [
        pytest.param(
            [RequireAbove("1.12.0")],
            "1.11.4",
            "Failed version check: expected Terraform CLI version above 1.12.0 but detected version is 1.11.4",
            id="require-above",
        ),
        pytest.param(
            [All(RequireNot("1.0.3")), SkipIf("1.0.3")],
            "1.0.3",
            "Failed version check: unexpected Terraform CLI version: 1.0.3",
            id="first-error-wins-over-a-later-skip",
        ),
        pytest.param(
            [SkipIf("1.0.3")],
            "dev-build",
            "Failed version check: cannot read the Terraform version: not a version: 'dev-build'"
            " (expected e.g. 1.12.0 or 1.12.0-alpha20240101)",
            id="unreadable-terraform-version",
        ),
    ],
)
def test_an_error_fails_before_anything_runs(
    fake: FakeTerraform, tmp_path: Path, checks: list[Any], version: str, reason: str
) -> None:
    called: list[str] = []
    with pytest.raises(AcceptanceError) as info:
        make_runner(fake, tmp_path, version).run(case(*checks, pre_check=lambda: called.append("pre_check")))
    err = info.value
    assert (err.stage, err.reason, err.command) == (Stage.VERSION_CHECKS, reason, None)
    assert str(err) == f"version checks (before step 1/1): {reason}"
    assert fake.argv() == []
    assert called == []


def test_passing_checks_run_the_steps(fake: FakeTerraform, tmp_path: Path) -> None:
    called: list[str] = []
    make_runner(fake, tmp_path, "1.12.0-alpha20240101").run(
        case(SkipBelow("1.12.0"), SkipIfNotAlpha(), RequireNot("1.11.4"), pre_check=lambda: called.append("pre"))
    )
    assert called == ["pre"]
    assert fake.argv()[0].startswith("init")
    assert fake.argv()[-1].startswith("destroy")


def test_a_custom_check_with_a_bad_result_is_a_definition_error(fake: FakeTerraform, tmp_path: Path) -> None:
    class Bad:
        def check_terraform_version(self, version: object) -> object:
            return "skip"

    with pytest.raises(TestDefinitionError) as info:
        make_runner(fake, tmp_path).run(case(Bad()))
    assert str(info.value) == (
        "TestCase.terraform_version_checks[0]: expected a result with error and skip (str or None), got str"
    )
    assert fake.argv() == []


def test_custom_checks_see_the_binary_version(fake: FakeTerraform, tmp_path: Path) -> None:
    seen: list[str] = []

    class Record:
        def check_terraform_version(self, version: object) -> Result:
            seen.append(str(version))
            return Result()

    make_runner(fake, tmp_path, "1.11.4").run(case(Record()))
    assert seen == ["1.11.4"]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        pytest.param(SkipIf("1.0.3"), "TestCase.terraform_version_checks: expected a list of version checks, got SkipIf", id="bare-check"),
        pytest.param("1.0.3", "TestCase.terraform_version_checks: expected a list of version checks, got str", id="text"),
        pytest.param(
            [SkipIf("1.0.3"), object()],
            "TestCase.terraform_version_checks[1]: expected a version check"
            " (an object with a check_terraform_version() method), got object",
            id="not-a-check",
        ),
    ],
)
def test_bad_version_checks_fail_at_definition(value: Any, message: str) -> None:
    with pytest.raises(TestDefinitionError) as info:
        TestCase(steps=[TestStep(config=CONFIG)], terraform_version_checks=value)
    assert str(info.value) == message


def test_version_checks_default_to_none_and_are_kept_as_a_tuple() -> None:
    checks = [SkipIf("1.0.3")]
    built = TestCase(steps=[TestStep(config=CONFIG)], terraform_version_checks=checks)
    assert built.terraform_version_checks == (SkipIf("1.0.3"),)
    assert checks == [SkipIf("1.0.3")]
    assert TestCase(steps=[TestStep(config=CONFIG)]).terraform_version_checks == ()
