"""The acceptance runner's read of the plan Terraform writes although planning failed (``WorkingDirectory.errored_plan``):
only while coverage watches, only this step's plan file, and a plan that cannot be shown or read is left alone."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from coverage_support import tree_plan

from plancheck._documents.met import watch
from plancheck.acceptance._errors import Stage, _StepFailure
from plancheck.acceptance._workplace import PLAN_FILE, WorkingDirectory


class FakeRun:
    """What errored_plan asks of a case run: ``tf`` (here: show prints ``stdout``, or fails) and ``add_secrets``."""

    def __init__(self, stdout: str | None) -> None:
        self.stdout = stdout
        self.commands: list[tuple[str, ...]] = []
        self.secrets: list[Any] = []

    def tf(self, stage: Any, *args: str) -> Any:
        self.commands.append(args)
        if self.stdout is None:
            raise _StepFailure(stage, "show failed")
        return type("Result", (), {"stdout": self.stdout})()

    def add_secrets(self, found: Any) -> None:
        self.secrets.append(found)


def _directory(tmp_path: Path, plan_age: int) -> WorkingDirectory:
    """A working directory whose step wrote main.tf, and a plan file ``plan_age`` seconds older than it."""
    source = tmp_path / "source"
    source.mkdir()
    (source / "main.tf").write_text("", encoding="utf-8")
    wd = WorkingDirectory(tmp_path / "work")
    wd._copy_directory(source)
    wd.source = source
    plan = wd.root / PLAN_FILE
    plan.write_text("binary", encoding="utf-8")
    written = (wd.root / "main.tf").stat().st_mtime_ns
    os.utime(plan, ns=(written - plan_age * 10**9, written - plan_age * 10**9))
    return wd


@pytest.mark.parametrize(("watching", "plan_age", "stdout", "place", "shown", "heard"), [
    pytest.param(True, 0, json.dumps(tree_plan(name="db")), None, True, True, id="read"),
    pytest.param(False, 0, json.dumps(tree_plan(name="db")), None, False, False, id="nobody-watches"),
    pytest.param(True, 60, json.dumps(tree_plan(name="db")), None, False, False, id="an-earlier-steps-plan"),
    pytest.param(True, 0, None, None, True, False, id="show-fails"),
    pytest.param(True, 0, "not json", None, True, False, id="unreadable"),
    pytest.param(True, 0, json.dumps(tree_plan(name="db")), "another place", False, False, id="another-place"),
])
def test_errored_plan(tmp_path: Path, watching: bool, plan_age: int, stdout: str | None, place: Any, shown: bool,
                      heard: bool) -> None:
    wd = _directory(tmp_path, plan_age)
    run = FakeRun(stdout)
    events: list[tuple[str, Any]] = []
    stop = watch(lambda event, document, detail: events.append((event, detail))) if watching else (lambda: None)
    try:
        wd.errored_plan(run, Stage.PRE_APPLY, place)
    finally:
        stop()
    assert run.commands == ([("show", "-json", PLAN_FILE)] if shown else [])
    assert events == ([("planned", wd.source)] if heard else [])
    assert len(run.secrets) == (1 if heard else 0)
