"""The janitor (``plancheck/_terraform/lifecycle.py``): what a process killed by SIGKILL started does not outlive it.

Nothing inside a process killed by SIGKILL can react; its janitor, a small process joined to it by a pipe, sees
the pipe end and ends the commands the process left running and removes their directories. It starts with the
first command (never in a process that runs none), ends with its owner (after a clean exit too), is not held by
a forked child, is replaced (and told everything again) when it is killed itself, and never signals a group whose
leader is not the process it was told about. (tests/e2e/test_signals_e2e.py kills real Terraform runs.)
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from plancheck._terraform.lifecycle import INTERRUPT_GRACE, _sweep, start_time

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists() or not hasattr(os, "killpg"),
                                reason="needs POSIX process groups and /proc")

#: Each script prints one JSON line (what the test needs to know), then, unless it ends, waits for its kill.
PRELUDE = """
import json, os, sys, threading
from plancheck._terraform import lifecycle
from plancheck._terraform.binary import run_command

def children():
    return sorted(int(pid) for task in os.listdir("/proc/self/task")
                  for pid in open(f"/proc/self/task/{task}/children").read().split())

def janitor():
    return lifecycle._JANITOR.pid

def report(**fields):
    print(json.dumps(fields), flush=True)
"""

SCRIPTS = {
    # No command: directories watched, a plan loaded, nothing started.
    "no-command": """
from plancheck import Plan
with lifecycle.watched_directory("tfplancheck-doc-") as d:
    Plan.from_json('{"format_version": "1.2"}')
    report(janitor=janitor(), children=children())
""",
    # A command run, then a clean exit: the janitor has nothing to do and ends with its owner.
    "clean-exit": """
run_command(["true"], cwd=".", env=os.environ, timeout=60)
report(janitor=janitor())
""",
    # Killed in the middle of a command: its group and its directory are left to the janitor.
    "killed-in-a-command": """
threading.Timer(0.5, lambda: report(janitor=janitor(), temp=os.listdir(os.environ["TMPDIR"]))).start()
run_command(["sh", "-c", "sleep 60 & sleep 60"], cwd=".", env=os.environ, timeout=120)
""",
    # The janitor killed, then a command: a new one, told of the directory made before it too.
    "janitor-replaced": """
run_command(["true"], cwd=".", env=os.environ, timeout=60)
first = janitor()
os.kill(first, 9)
while open(f"/proc/{first}/stat").read().rsplit(")", 1)[1].split()[0] != "Z":
    pass  # dead, left for the owner to reap when a write finds it gone
with lifecycle.watched_directory("tfplancheck-kept-"):
    threading.Timer(0.5, lambda: report(janitor=janitor(), first=first, temp=os.listdir(os.environ["TMPDIR"]))).start()
    run_command(["sh", "-c", "sleep 60 & sleep 60"], cwd=".", env=os.environ, timeout=120)
""",
    # A forked child holds no end of the pipe: its parent killed, the janitor ends though the child lives on.
    "forked-child": """
run_command(["true"], cwd=".", env=os.environ, timeout=60)
child = os.fork()
if child == 0:
    import time
    time.sleep(60)
    os._exit(0)
report(janitor=janitor(), child=child)
threading.Event().wait()
""",
}


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def _all_gone(pids: list[int], within: float) -> list[int]:
    """``pids`` still running after ``within`` seconds."""
    deadline = time.monotonic() + within
    while (left := [pid for pid in pids if _running(pid)]) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def _in_group(pgid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError, IndexError):
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if entry.name.isdigit() and fields[2] == str(pgid) and fields[0] != "Z":
                found.append(int(entry.name))
    return found


@contextlib.contextmanager
def _script(name: str, tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], dict[str, Any], Path]]:
    temp = tmp_path / "tmp"
    temp.mkdir()
    process = subprocess.Popen([sys.executable, "-c", PRELUDE + SCRIPTS[name]], cwd=tmp_path,
                               env={**os.environ, "TMPDIR": str(temp)}, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        yield process, json.loads(process.stdout.readline()), temp
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate()


def test_a_process_that_runs_no_command_starts_no_janitor(tmp_path: Path) -> None:
    with _script("no-command", tmp_path) as (process, told, _temp):
        assert told == {"janitor": None, "children": []}
        assert process.wait(timeout=60) == 0


def test_the_janitor_ends_with_a_clean_exit(tmp_path: Path) -> None:
    with _script("clean-exit", tmp_path) as (process, told, _temp):
        assert process.wait(timeout=60) == 0
        assert told["janitor"] is not None
        assert _all_gone([told["janitor"]], within=5.0) == []


@pytest.mark.parametrize(("name", "directories"), [
    pytest.param("killed-in-a-command", ["tfplancheck-cmd"], id="killed-in-a-command"),
    pytest.param("janitor-replaced", ["tfplancheck-cmd", "tfplancheck-kept"], id="janitor-replaced"),
])
def test_a_killed_process_leaves_no_command_and_no_directory(tmp_path: Path, name: str, directories: list[str]) -> None:
    with _script(name, tmp_path) as (process, told, temp):
        assert sorted(entry.rsplit("-", 1)[0] for entry in told["temp"]) == directories
        groups = [pgid for pgid in _group_ids(process.pid) if pgid != os.getpgid(process.pid)]
        left_over = [pid for pgid in groups for pid in _in_group(pgid)]
        assert left_over, "the command is running"
        if name == "janitor-replaced":
            assert told["janitor"] != told["first"]
        process.kill()
        process.wait()
        try:
            assert _all_gone([*left_over, told["janitor"]], within=INTERRUPT_GRACE + 5) == []
            assert sorted(os.listdir(temp)) == []
        finally:
            for pid in left_over:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)


def _group_ids(parent: int) -> list[int]:
    """The process groups of ``parent``'s children."""
    groups = []
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError, IndexError):
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if entry.name.isdigit() and fields[1] == str(parent):
                groups.append(int(fields[2]))
    return groups


def test_a_forked_child_does_not_keep_the_janitor_waiting(tmp_path: Path) -> None:
    with _script("forked-child", tmp_path) as (process, told, _temp):
        try:
            process.kill()
            process.wait()
            assert _all_gone([told["janitor"]], within=5.0) == []
            assert _running(told["child"])
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.kill(told["child"], signal.SIGKILL)


@pytest.mark.parametrize(("told", "signalled"), [
    pytest.param("its start time", True, id="the-same-leader"),
    pytest.param("another start time", False, id="a-reused-group-id"),
    pytest.param("no start time", False, id="start-time-unknown"),
])
def test_the_janitor_signals_a_group_only_while_its_leader_is_the_one_told(
    tmp_path: Path, told: str, signalled: bool
) -> None:
    leader = subprocess.Popen(["sleep", "60"], start_new_session=True)
    directory = tmp_path / "command"
    directory.mkdir()
    try:
        started = {"its start time": start_time(leader.pid), "another start time": "1", "no start time": None}[told]
        _sweep({str(directory): [(leader.pid, started)]})
        assert (leader.poll() is not None) is signalled
        assert not directory.exists()
    finally:
        leader.kill()
        leader.wait()
