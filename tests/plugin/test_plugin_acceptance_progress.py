"""Under ``-v``, ``tf_acceptance`` shows its progress: a line per step and per Terraform command as it starts
and as it ends, written through pytest's terminal reporter while the test runs (a user saw nothing for ten
seconds, and ``-s`` dumped every command's whole output). Without ``-v``, nothing more than before.

A scripted fake ``terraform`` (tests/acceptance/acceptance_fakes.py) stands in for the binary.
"""

from __future__ import annotations

import re
import sys
import textwrap
from pathlib import Path

import pytest
from plugin_support import run

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "acceptance"))
from acceptance_fakes import EMPTY_PLAN, EMPTY_STATE, make_fake_terraform, rule

SECRET = "s3cr3t-progress-5e1d"
INNER = textwrap.dedent(
    f"""
    import os

    import pytest

    from plancheck.acceptance import Sensitive, TerraformBinary, TestCase, TestStep

    CONFIG = 'resource "null_resource" "a" {{}}'


    @pytest.fixture
    def tf_acceptance_binary():
        return TerraformBinary(os.environ["FAKE_TF_BINARY"], "1.9.0")


    def test_two_steps(tf_acceptance):
        tf_acceptance.run(TestCase(steps=[
            TestStep(config=CONFIG, variables={{"pw": Sensitive("{SECRET}")}}),
            TestStep(config=CONFIG, plan_only=True),
        ]))
    """
)
# What -v shows between the test's name and its PASSED, durations as "T".
_PLAN_PRE_REFRESH = "terraform plan -input=false -no-color -detailed-exitcode -refresh=false -out=tfplan"
_PLAN_REFRESH = "terraform plan -input=false -no-color -detailed-exitcode -out=tfplan"
_DESTROY = "terraform destroy -auto-approve -input=false -no-color -refresh=false"


def _command(where: str, command: str, code: int = 0) -> list[str]:
    return [f"tf_acceptance [{where}] {command} ...", f"tf_acceptance [{where}] {command} (exit code {code}, T s)"]


PROGRESS = [
    "tf_acceptance [step 1/2] started",
    *_command("step 1/2 init", "terraform init -input=false -no-color"),
    *_command("step 1/2 pre_apply", "terraform plan -input=false -no-color -out=tfplan"),
    *_command("step 1/2 pre_apply", "terraform show -json tfplan"),
    *_command("step 1/2 apply", "terraform apply -input=false -no-color tfplan"),
    *_command("step 1/2 post_apply_pre_refresh", _PLAN_PRE_REFRESH),
    *_command("step 1/2 post_apply_post_refresh", _PLAN_REFRESH),
    "tf_acceptance [step 1/2] passed (T s)",
    "tf_acceptance [step 2/2] started",
    *_command("step 2/2 post_apply_pre_refresh", _PLAN_PRE_REFRESH),
    *_command("step 2/2 post_apply_post_refresh", _PLAN_REFRESH),
    "tf_acceptance [step 2/2] passed (T s)",
    *_command("step 2/2 destroy", _DESTROY),
]


@pytest.fixture
def inner(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    fake = make_fake_terraform(pytester.path / "fakebin")
    fake.script(
        rule("show", "-json", "tfplan", responses=[{"stdout": EMPTY_PLAN}]),
        rule("show", "-json", responses=[{"stdout": EMPTY_STATE}]),
    )
    for name, value in {**fake.env(), "FAKE_TF_BINARY": str(fake.path), "TF_ACC": "1"}.items():
        monkeypatch.setenv(name, value)
    pytester.makepyfile(test_inner=INNER)
    return pytester


def _progress(lines: list[str]) -> list[str]:
    return [re.sub(r"\d+\.\d\d s\)", "T s)", line) for line in lines if line.startswith("tf_acceptance [")]


def test_verbose_shows_each_step_and_command_as_it_starts_and_ends(inner: pytest.Pytester) -> None:
    result = run(inner, "-v")
    result.assert_outcomes(passed=1)
    assert _progress(result.outlines) == PROGRESS
    # Written as they happen: the test's verdict comes after all of them.
    verdict = next(i for i, line in enumerate(result.outlines) if "PASSED" in line)
    assert verdict > max(i for i, line in enumerate(result.outlines) if line.startswith("tf_acceptance ["))
    assert SECRET not in "\n".join(result.outlines + result.errlines)


@pytest.mark.parametrize("args", [pytest.param((), id="default"), pytest.param(("-q",), id="quiet")])
def test_without_verbose_nothing_more_is_shown(inner: pytest.Pytester, args: tuple[str, ...]) -> None:
    result = run(inner, *args)
    result.assert_outcomes(passed=1)
    assert _progress(result.outlines) == []
    assert not any("tf_acceptance" in line for line in result.outlines)


def test_a_failed_step_says_so(inner: pytest.Pytester) -> None:
    make_fake_terraform(inner.path / "fakebin").script(
        rule("apply", responses=[{"exit": 1, "stderr": f"Error: boom {SECRET}\n"}]),
        rule("show", "-json", "tfplan", responses=[{"stdout": EMPTY_PLAN}]),
        rule("show", "-json", responses=[{"stdout": EMPTY_STATE}]),
    )
    result = run(inner, "-v")
    result.assert_outcomes(failed=1)
    shown = _progress(result.outlines)
    # The destroy after a failure still runs, and says so.
    assert shown[-4:] == [
        "tf_acceptance [step 1/2 apply] terraform apply -input=false -no-color tfplan (exit code 1, T s)",
        "tf_acceptance [step 1/2] failed (T s)",
        *_command("step 1/2 destroy", _DESTROY),
    ]
    assert "tf_acceptance [step 2/2] started" not in shown
    assert SECRET not in "\n".join(result.outlines + result.errlines)
