"""Nothing a command starts outlives it: a timed-out command's whole process group ends, and so does what a
command leaves running when it exits (#25: a provisioner's ``sleep`` survived a timeout)."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path

import pytest

from plancheck._terraform.binary import INTERRUPT_GRACE, run_command
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
    command = "sleep 300 & echo $! > ${path.module}/child.pid.new && mv ${path.module}/child.pid.new ${path.module}/child.pid; sleep 300"
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


# -- red team (#25): a command is done when it exits; its group is signalled only while it is ours ------------


def test_a_command_is_done_when_it_exits_though_a_child_holds_its_output(tmp_path: Path) -> None:
    """The shell exits at once; its background child keeps stdout open. Before: reported as timed out,
    after the whole timeout."""
    started = time.monotonic()
    result = run_command(["/bin/sh", "-c", "sleep 300 & echo $!"], cwd=tmp_path, env={"PATH": os.environ["PATH"]},
                         timeout=30)
    took = time.monotonic() - started
    child = int(result.stdout.split()[0])
    try:
        assert (result.timed_out, result.returncode) == (False, 0)
        assert took < 10, f"waited {took:.1f} s for a command that exited at once"
        assert gone(child), f"background child {child} still runs"
    finally:
        stop(child)


def _reaped(pid: int) -> bool:
    return not Path(f"/proc/{pid}").exists()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
@pytest.mark.parametrize(
    ("script", "timeout"),
    [
        pytest.param("sleep 300 >/dev/null 2>&1 &", 30.0, id="exited"),
        pytest.param("sleep 300", 1.0, id="timed-out"),
    ],
)
def test_the_group_is_signalled_only_while_its_leader_is_unreaped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str, timeout: float
) -> None:
    """Once the command is reaped its pid, and so its group id, may be reused by a process that is not
    ours: every killpg must come before the reaping (the leader a zombie or still running)."""
    calls: list[tuple[int, int, bool]] = []
    real = os.killpg

    def spy(pgid: int, signum: int) -> None:
        calls.append((pgid, signum, _reaped(pgid)))
        real(pgid, signum)

    monkeypatch.setattr(os, "killpg", spy)
    run_command(["/bin/sh", "-c", script], cwd=tmp_path, env={"PATH": os.environ["PATH"]}, timeout=timeout)
    assert calls, "the group was never signalled"
    assert [signum for _pgid, signum, reaped in calls if reaped] == []


def test_an_interrupted_wait_ends_the_group_and_leaks_nothing(tmp_path: Path) -> None:
    """A KeyboardInterrupt while a command runs: the interrupt goes on, the command's group ends, its
    pipes are closed and it is reaped (no zombie, no descriptor left)."""
    import signal

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    fds_before = sorted(os.listdir("/proc/self/fd"))
    previous = signal.signal(signal.SIGALRM, interrupt)
    pid_file = tmp_path / "child.pid"
    try:
        signal.setitimer(signal.ITIMER_REAL, 1.0)
        with pytest.raises(KeyboardInterrupt):
            run_command(["/bin/sh", "-c", f"sleep 300 & echo $! > {pid_file}.new && mv {pid_file}.new {pid_file}; sleep 300"],
                        cwd=tmp_path, env={"PATH": os.environ["PATH"]}, timeout=60)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    child = int(pid_file.read_text())
    try:
        assert gone(child), f"background child {child} survived the interrupt"
        assert sorted(os.listdir("/proc/self/fd")) == fds_before
        assert not _zombies()
    finally:
        stop(child)


def _zombies() -> list[int]:
    found = []
    for task in Path("/proc/self/task").iterdir():
        for pid in (task / "children").read_text().split():
            with contextlib.suppress(OSError):
                if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                    found.append(int(pid))
    return found


@pytest.mark.parametrize("signum", ["SIGINT", "SIGTERM", "SIGHUP"])
@pytest.mark.parametrize("handling", [False, True], ids=["plain", "inside-an-except-block"])
def test_a_signal_while_the_command_starts_ends_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, signum: str, handling: bool
) -> None:
    """``Popen`` returns only after the child has run its program: a signal in that moment (a loaded CI machine
    saw one) used to unwind before any caller held the process, and the command's group outlived the run."""
    import signal
    import subprocess

    from plancheck._loading import lifecycle
    from plancheck._loading.lifecycle import Terminated

    number = getattr(signal, signum)
    real = subprocess.Popen
    pid_file = tmp_path / "child.pid"

    def popen_then_signalled(*args: object, **kwargs: object) -> subprocess.Popen[bytes]:
        process = real(*args, **kwargs)  # type: ignore[call-overload]
        deadline = time.monotonic() + 30
        while not pid_file.exists() and time.monotonic() < deadline:  # the child's own child is running
            time.sleep(0.01)
        os.kill(os.getpid(), number)
        return process  # type: ignore[no-any-return]

    def run() -> None:
        # Written aside and renamed: the file exists only once it holds the whole pid (a loaded machine read it empty).
        run_command(["/bin/sh", "-c", f"sleep 300 & echo $! > {pid_file}.new && mv {pid_file}.new {pid_file}; sleep 300"],
                    cwd=tmp_path,
                    env={"PATH": os.environ["PATH"]}, timeout=60)

    def run_while_handling() -> None:
        # A command run while the caller handles an exception (a cleanup destroy) is ended the same way.
        try:
            raise RuntimeError("the caller's own failure")
        except RuntimeError:
            run()

    monkeypatch.setattr(subprocess, "Popen", popen_then_signalled)
    # As a plain script runs: outside the delivery this session's plugin defers, with a handler of the user's
    # that the termination signal goes back to once the command is ended.
    monkeypatch.setattr(lifecycle._SCOPE, "deferrals", 0)
    monkeypatch.setattr(lifecycle._SCOPE, "pending", None)
    delivered: list[int] = []
    if number != signal.SIGINT:
        previous = signal.signal(number, lambda got, _frame: delivered.append(got))
    fds_before = sorted(os.listdir("/proc/self/fd"))
    try:
        with pytest.raises(KeyboardInterrupt) as raised:
            (run_while_handling if handling else run)()
    finally:
        if number != signal.SIGINT:
            signal.signal(number, previous)
    child = int(pid_file.read_text())
    try:
        assert type(raised.value) is (KeyboardInterrupt if signum == "SIGINT" else Terminated)
        assert delivered == ([] if signum == "SIGINT" else [number])
        assert lifecycle._SCOPE.pending is None
        assert gone(child), f"background child {child} survived the {signum}"
        assert sorted(os.listdir("/proc/self/fd")) == fds_before
        assert not _zombies()
    finally:
        stop(child)
