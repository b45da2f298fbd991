"""Nothing a command starts outlives it: a timed-out command's whole process group ends, and so does what a
command leaves running when it exits (#25: a provisioner's ``sleep`` survived a timeout)."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path

import pytest

from plancheck._terraform import INTERRUPT_GRACE, run_command
from plancheck.acceptance import AcceptanceError, AcceptanceRunner, TestCase, TestStep

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")


def gone(pid: int, within: float = 5.0) -> bool:
    """Whether ``pid`` has ended (a zombie waiting for init to reap it counts as ended)."""
    deadline = time.monotonic() + within
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return True
        if state == "Z":
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def stop(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, 9)


SCRIPTS = [
    pytest.param("sleep 300 & echo $!; exec sleep 300", 1.0, True, id="timed-out-with-a-background-child"),
    pytest.param("sleep 300 >/dev/null 2>&1 & echo $!", 30.0, False, id="exited-leaving-a-background-child"),
    pytest.param("trap '' INT; sleep 300 & echo $!; sleep 300", 1.0, True, id="ignores-the-interrupt"),
]


@pytest.mark.parametrize(("script", "timeout", "times_out"), SCRIPTS)
def test_nothing_outlives_the_command(tmp_path: Path, script: str, timeout: float, times_out: bool) -> None:
    started = time.monotonic()
    result = run_command(["/bin/sh", "-c", script], cwd=tmp_path, env={"PATH": os.environ["PATH"]}, timeout=timeout)
    took = time.monotonic() - started
    child = int(result.stdout.split()[0])
    try:
        assert result.timed_out is times_out
        assert (result.returncode is None) is times_out
        assert gone(child), f"background child {child} still runs"
        assert took < timeout + INTERRUPT_GRACE + 10
    finally:
        stop(child)


def test_a_command_that_stops_on_the_interrupt_is_not_waited_for(tmp_path: Path) -> None:
    """SIGINT first: a command that ends on it is done at once, not after the grace period."""
    code = "import signal, sys, time\nprint('ready', flush=True)\ntime.sleep(300)\n"
    started = time.monotonic()
    result = run_command([sys.executable, "-c", code], cwd=tmp_path, env=dict(os.environ), timeout=2)
    assert result.timed_out
    assert "KeyboardInterrupt" in result.stderr  # Python's answer to SIGINT: it got the interrupt
    assert time.monotonic() - started < 2 + INTERRUPT_GRACE


PROVISIONER = """
terraform {
  required_providers {
    null = { source = "hashicorp/null", version = "2.1.2" }
  }
}

resource "null_resource" "slow" {
  provisioner "local-exec" {
    command = "sleep 300 & echo $! > ${path.module}/child.pid; sleep 300"
  }
}
"""


@pytest.mark.e2e
def test_a_timed_out_terraform_apply_leaves_no_provisioner_running(
    tf_acceptance: AcceptanceRunner, tf_acceptance_cli_config: Path
) -> None:
    runner = AcceptanceRunner(tf_acceptance.terraform, tf_acceptance.work_dir, timeout=15,
                              cli_config=tf_acceptance_cli_config)
    with pytest.raises(AcceptanceError) as info:
        runner.run(TestCase(steps=[TestStep(config=PROVISIONER)]))
    pids = list(Path(tf_acceptance.work_dir).rglob("child.pid"))
    assert "timed out" in str(info.value) or "timeout" in str(info.value)
    assert pids, "the provisioner never ran"
    child = int(pids[0].read_text().split()[0])
    try:
        assert gone(child), f"the provisioner's background sleep {child} survived the timeout"
    finally:
        stop(child)
