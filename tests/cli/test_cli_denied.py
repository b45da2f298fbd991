"""Files the command may not open: what the user sees is exit status 2 and one line naming the file.

The tests run as root here, and root opens any file; so as root the command runs as ``nobody`` (uid and gid 65534,
no supplementary groups, no capabilities) against root's files, and otherwise as this user against files made mode
000 and directories made mode 555. ``setpriv`` drops the ids where it is installed: it still reaches an interpreter
that only root may reach (pyenv's, under /root) and runs it without a capability; elsewhere ``subprocess`` drops them
in the child. Only where neither denies (no way to run the command as nobody, a user whose capabilities pass over
file modes, no POSIX ids at all) do the rows skip.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

NOBODY = 65534
PLAN = json.dumps({"format_version": "1.2", "resource_changes": []})
CHECKS = '[[check]]\ntype = "ExpectEmptyPlan"\n'
PASSED = "PASS  ExpectEmptyPlan\n1 check in plan.json: 1 passed, 0 failed\n"

#: What a script shows of what ``load_plan`` raised: the error's class, whether it is an OSError, its message.
LOAD_PLAN = """
import sys
from plancheck import load_plan
try:
    load_plan(sys.argv[1])
except Exception as exc:
    print(f"{type(exc).__module__}.{type(exc).__qualname__} (OSError: {isinstance(exc, OSError)}): {exc}")
"""


@dataclass(frozen=True)
class Denied:
    """A directory ``root`` the command reads, where ``denied.*`` files cannot be read by it, nothing can be written
    in ``locked/`` and anything in ``free/``; :meth:`run` runs the command there as the user they are denied to."""

    root: Path
    as_nobody: bool

    def run(self, *argv: str) -> subprocess.CompletedProcess[str]:
        setpriv = shutil.which("setpriv") if self.as_nobody else None
        extra: dict[str, Any] = {}
        if setpriv is not None:
            argv = (setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *argv)
        elif self.as_nobody:
            extra = {"user": NOBODY, "group": NOBODY, "extra_groups": []}
        return subprocess.run(list(argv), cwd=self.root, capture_output=True, text=True, timeout=120, check=False,
                              env={**os.environ, "NO_COLOR": "", "HOME": str(self.root / "free")}, **extra)


def _lay_out(root: Path, as_nobody: bool) -> None:
    (root / "plan.json").write_text(PLAN)
    (root / "checks.toml").write_text(CHECKS)
    for name, text in {"denied.json": PLAN, "denied.toml": CHECKS}.items():
        (root / name).write_text(text)
        (root / name).chmod(0o600 if as_nobody else 0)
    (root / "locked").mkdir(mode=0o755 if as_nobody else 0o555)
    (root / "free").mkdir()
    (root / "free" / "terraform-provider-widget_v1.2.0_x5").write_text("#!/bin/sh\n")
    if as_nobody:
        os.chown(root / "free", NOBODY, NOBODY)
    root.chmod(0o755)


@pytest.fixture(scope="module")
def denied() -> Iterator[Denied]:
    if not hasattr(os, "geteuid"):
        pytest.skip("no POSIX user ids: no file can be denied to the command")
    # Not pytest's tmp_path: its parents are private to this user, so nobody could not reach it.
    root = Path(tempfile.mkdtemp(prefix="tfplancheck-denied-"))
    try:
        as_nobody = os.geteuid() == 0
        _lay_out(root, as_nobody)
        place = Denied(root, as_nobody)
        if as_nobody:
            try:
                started = place.run(sys.executable, "-c", "import os, plancheck; assert os.geteuid() != 0")
            except OSError as exc:
                pytest.skip(f"the command cannot run as nobody here: {exc}")
            if started.returncode != 0:
                pytest.skip(f"the command cannot run as nobody here: {started.stderr.strip()[-200:]}")
        elif os.access(root / "denied.json", os.R_OK) or os.access(root / "locked", os.W_OK):
            pytest.skip("mode 000 denies nothing to this user (its capabilities pass over file modes)")
        yield place
    finally:
        for directory in (root, root / "locked"):
            if directory.exists():
                directory.chmod(0o755)
        shutil.rmtree(root, ignore_errors=True)


TFPLANCHECK = [sys.executable, "-m", "plancheck"]


@pytest.mark.parametrize(("argv", "status", "out", "err"), [
    pytest.param(["--empty", "denied.json"], 2, "",
                 "tfplancheck: error: denied.json: cannot read the plan: Permission denied\n", id="plan-read"),
    pytest.param(["-c", "denied.toml", "plan.json"], 2, "",
                 "tfplancheck: error: denied.toml: cannot read the checks file: Permission denied\n",
                 id="checks-file-read"),
    pytest.param(["--empty", "--baseline", "denied.json", "plan.json"], 2, "",
                 "tfplancheck: error: denied.json: cannot read the baseline: Permission denied\n", id="baseline-read"),
    pytest.param(["--empty", "--report", "junit=locked/r.xml", "plan.json"], 2, PASSED,
                 "tfplancheck: error: cannot write to the report file locked/r.xml: Permission denied\n",
                 id="report-write"),
    pytest.param(["--empty", "--write-baseline", "locked/b.json", "plan.json"], 2, "",
                 "tfplancheck: error: locked/b.json: cannot write the baseline: Permission denied\n",
                 id="baseline-write"),
    pytest.param(["providers", "mirror", "free/mirror", "--no-installed", "--platform", "linux_amd64",
                  "--provider", "example.com/acme/widget=free/terraform-provider-widget_v1.2.0_x5",
                  "--cli-config", "locked/tf.rc"], 2, "",
                 "tfplancheck: error: locked/tf.rc: cannot write the CLI configuration: Permission denied\n",
                 id="cli-config-write"),
])
def test_a_denied_file_is_exit_status_2_and_one_line_naming_it(
    denied: Denied, argv: list[str], status: int, out: str, err: str
) -> None:
    done = denied.run(*TFPLANCHECK, *argv)
    assert (done.returncode, done.stdout, done.stderr) == (status, out, err)
    assert sorted(os.listdir(denied.root / "locked")) == []


@pytest.mark.parametrize(("argv", "document", "err"), [
    pytest.param(["--empty", "denied.json"],
                 {"kind": "error", "ok": False, "error": {
                     "kind": "plan", "message": "denied.json: cannot read the plan: Permission denied"}},
                 "tfplancheck: error: denied.json: cannot read the plan: Permission denied\n", id="plan-read"),
    # The run's results were written first: the report's failure is said on standard error and in the exit status.
    pytest.param(["--empty", "--report", "junit=locked/r.xml", "plan.json"], {"kind": "results", "ok": True},
                 "tfplancheck: error: cannot write to the report file locked/r.xml: Permission denied\n",
                 id="report-write"),
])
def test_standard_output_in_json_is_one_document(
    denied: Denied, argv: list[str], document: dict[str, Any], err: str
) -> None:
    done = denied.run(*TFPLANCHECK, "--format", "json", *argv)
    shown = json.loads(done.stdout)
    assert (done.returncode, {key: shown[key] for key in document}, done.stderr) == (2, document, err)


def test_the_library_raises_its_typed_error_naming_the_file(denied: Denied) -> None:
    done = denied.run(sys.executable, "-c", LOAD_PLAN, "denied.json")
    assert (done.returncode, done.stdout, done.stderr) == (0, (
        "plancheck.PlanFormatError (OSError: False): denied.json: $: expected a readable plan file, "
        "found Permission denied\n"), "")
