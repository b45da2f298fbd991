"""Red team of the runner (#25): cases never share a directory. Fast, with the scripted fake Terraform."""

from __future__ import annotations

from pathlib import Path

import pytest
from acceptance_fakes import FakeTerraform, make_fake_terraform, rule

from plancheck._terraform import TerraformBinary
from plancheck.acceptance import AcceptanceError, AcceptanceRunner, TestCase, TestStep

CONFIG = 'output "x" {\n  value = 1\n}\n'
FAILING_INIT = rule("init", responses=[{"exit": 1, "stderr": "Error: stop here\n"}])


@pytest.fixture
def fake(tmp_path: Path) -> FakeTerraform:
    return make_fake_terraform(tmp_path / "bin")


def make_runner(fake: FakeTerraform, work: Path) -> AcceptanceRunner:
    return AcceptanceRunner(TerraformBinary(str(fake.path), "1.9.0"), work, env=fake.env(), echo=False,
                            require_tf_acc=False)


def test_two_runners_on_one_work_dir_never_share_a_case_directory(fake: FakeTerraform, tmp_path: Path) -> None:
    """Each runner counted its cases from case1, so a second runner on the same work_dir (as a test that makes
    its own runner beside tf_acceptance's does) ran in the first one's directory: among its files (a main.tf.json
    Terraform reads with the new main.tf) and over its state."""
    fake.script(FAILING_INIT)
    work = tmp_path / "work"
    first, second = make_runner(fake, work), make_runner(fake, work)
    with pytest.raises(AcceptanceError):
        first.run(TestCase(steps=[TestStep(config={"output": {"x": {"value": 1}}})]))
    with pytest.raises(AcceptanceError):
        second.run(TestCase(steps=[TestStep(config=CONFIG)]))
    assert sorted(p.name for p in work.glob("case*")) == ["case1", "case2"]
    assert [c.cwd for c in first.commands] == [str(work / "case1")]
    assert [c.cwd for c in second.commands] == [str(work / "case2")]
    assert [call["files"] for call in fake.calls()] == [["main.tf.json"], ["main.tf"]]
