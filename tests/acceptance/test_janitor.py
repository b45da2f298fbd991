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
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from group_signal import needs_group_signal, until

from plancheck._terraform import lifecycle
from plancheck._terraform.lifecycle import INTERRUPT_GRACE, _Group, _pidfd, _sweep, start_time

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
    # Killed in the middle of a command whose leader was killed just before: its member is left to the janitor.
    "leader-killed-first": """
threading.Timer(0.5, lambda: report(janitor=janitor(), temp=os.listdir(os.environ["TMPDIR"]))).start()
run_command(["sh", "-c", "sleep 60 & exec sleep 60"], cwd=".", env=os.environ, timeout=120)
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


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "gone"


def test_a_group_whose_leader_died_before_the_sweep_is_ended(tmp_path: Path) -> None:
    """The leader gone (killed, reaped by init) as its owner is killed: only its members hold the group id. The
    janitor, stopped until then, sweeps the group through the pidfd it opened of the leader when it was told (Linux
    6.9+), elsewhere by its id, which the member it finds as it begins still holds."""
    with _script("leader-killed-first", tmp_path) as (process, told, temp):
        (leader,) = set(_group_ids(process.pid)) - {os.getpgid(process.pid), told["janitor"]}
        members = [pid for pid in _in_group(leader) if pid != leader]
        assert len(members) == 1
        try:
            os.kill(told["janitor"], signal.SIGSTOP)
            process.send_signal(signal.SIGSTOP)  # so that it does not see its command end
            os.kill(leader, signal.SIGKILL)
            until(lambda: _state(leader) == "Z", "the leader never died")
            process.kill()
            process.wait()
            until(lambda: _state(leader) == "gone", "the leader was never reaped")
            assert _in_group(leader) == members
            os.kill(told["janitor"], signal.SIGCONT)
            assert _all_gone([*members, told["janitor"]], within=INTERRUPT_GRACE + 5) == []
            assert sorted(os.listdir(temp)) == []
        finally:
            for pid in [*members, told["janitor"]]:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)


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
        _sweep({str(directory): [(leader.pid, started, _pidfd(leader.pid, started))]})
        assert (leader.poll() is not None) is signalled
        assert not directory.exists()
    finally:
        leader.kill()
        leader.wait()


#: A member that, interrupted, starts one more member and ends half a second later, after its leader ended at once.
MEMBER_STARTS_ONE_MORE = """
import os, signal, subprocess, time
if os.fork() == 0:
    def one_more(_signum, _frame):
        subprocess.Popen(["sleep", "60"])
        time.sleep(0.5)
        os._exit(0)
    signal.signal(signal.SIGINT, one_more)
    print("started", flush=True)
    time.sleep(60)
"""

#: A leader (ended by SIGINT) whose group holds a zombie: a member whose parent left the group and never reaps it.
ZOMBIE_MEMBER = """
import os, time
ready, told = os.pipe()
if os.fork() == 0:
    zombie = os.fork()
    if zombie == 0:
        os._exit(0)
    os.setpgid(0, 0)
    os.write(told, str(zombie).encode())
    time.sleep(60)
    os._exit(0)
zombie = int(os.read(ready, 16))
while open(f"/proc/{zombie}/stat").read().rsplit(")", 1)[1].split()[0] != "Z":
    time.sleep(0.01)
print("started", flush=True)
time.sleep(60)
"""

#: The two ways the janitor signals a group: through its leader's pidfd (Linux 6.9+), or by its id (older kernels).
WAYS = {"pidfd": True, "by-id": False}


def _in_session(sid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError, IndexError):
            if entry.name.isdigit() and (entry / "stat").read_text().rsplit(")", 1)[1].split()[3] == str(sid):
                found.append(int(entry.name))
    return found


@contextlib.contextmanager
def _leader(argv: list[str], way: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[int, _Group]]:
    """A command's leader in a session of its own, once it printed ``started``, and its group as the janitor keeps it
    (the sweep taking ``way``); reaped by a thread as soon as it ends (as init reaps a killed owner's command)."""
    monkeypatch.setattr(lifecycle, "_GROUP_SIGNAL", WAYS[way])
    leader = subprocess.Popen(argv, start_new_session=True, stdout=subprocess.PIPE)
    since = start_time(leader.pid)
    pidfd = _pidfd(leader.pid, since)
    assert leader.stdout is not None
    reaper = threading.Thread(target=leader.wait)
    try:
        assert pidfd is not None
        assert leader.stdout.readline() == b"started\n"
        reaper.start()
        yield leader.pid, (leader.pid, since, pidfd)
    finally:
        for pid in _in_session(leader.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        leader.kill()
        if reaper.is_alive():
            reaper.join(timeout=10)
        leader.wait()
        leader.stdout.close()
        if pidfd is not None:
            os.close(pidfd)


@pytest.mark.parametrize(("way", "argv", "leader_ends_first"), [
    # Only its member holds the group id when the sweep begins.
    pytest.param("pidfd", ["sh", "-c", "sleep 60 & echo started"], True, id="pidfd-leader-died-before-the-sweep",
                 marks=needs_group_signal),
    pytest.param("by-id", ["sh", "-c", "sleep 60 & echo started"], True, id="by-id-leader-died-before-the-sweep"),
    # Interrupted, a member starts one more member, after the sweep looked at the group, and ends half a second later.
    pytest.param("pidfd", [sys.executable, "-c", MEMBER_STARTS_ONE_MORE], True,
                 id="pidfd-member-joined-while-one-known-ran", marks=needs_group_signal),
    pytest.param("by-id", [sys.executable, "-c", MEMBER_STARTS_ONE_MORE], True,
                 id="by-id-member-joined-while-one-known-ran"),
    # Interrupted, the leader starts one more member and exits at once: only its pidfd tells that member's group.
    pytest.param("pidfd", ["sh", "-c", "trap 'sleep 60 & exit' INT; echo started; while :; do sleep 0.1; done"],
                 False, id="pidfd-member-joined-as-the-leader-ended", marks=needs_group_signal),
])
def test_the_janitor_ends_a_group_whose_leader_has_died(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, way: str, argv: list[str], leader_ends_first: bool
) -> None:
    """The group is signalled as a whole to the end: members that joined late, and after the leader has died (reaped
    at once, as init reaps a killed owner's command). Through the pidfd of the leader opened as the janitor is told
    of the group; by its id while a member known to be in it holds the id (kernels before 6.9, forced here)."""
    with _leader(argv, way, monkeypatch) as (pgid, group):
        if leader_ends_first:
            until(lambda: _state(pgid) == "gone", "the leader never ended")
        assert _in_group(pgid) != []
        _sweep({str(tmp_path / "command"): [group]})
        assert _all_gone(_in_group(pgid), within=5.0) == []
        assert _in_group(pgid) == []


@pytest.mark.parametrize("way", ["pidfd", "by-id"])
def test_a_zombie_member_does_not_hold_the_sweep_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, way: str
) -> None:
    """A zombie has ended: with the leader ended by the SIGINT, the sweep goes on at once, not after the grace period
    (30 s here, so that returning before it is no question of speed)."""
    monkeypatch.setattr(lifecycle, "INTERRUPT_GRACE", 30.0)
    with _leader([sys.executable, "-c", ZOMBIE_MEMBER], way, monkeypatch) as (pgid, group):
        assert [_state(pid) for pid in _in_session(pgid)].count("Z") == 1
        began = time.monotonic()
        _sweep({str(tmp_path / "command"): [group]})
        assert time.monotonic() - began < 30.0, "the sweep waited out the grace period"
        assert _all_gone(_in_group(pgid), within=5.0) == []


#: What an end its owner sees runs in, the owner's janitor written to ``told.json`` once it runs (and, with ``check``,
#: what the test needs besides): a script, or the one test of a pytest session, the plugin loaded.
OWNED = """
import json, os, sys, threading
from plancheck._terraform import lifecycle
from plancheck._terraform.binary import run_command

def tell(**fields):
    with open("told.json.part", "w") as f:
        json.dump({"janitor": lifecycle._JANITOR.pid, **fields}, f)
    os.rename("told.json.part", "told.json")
"""

#: A command that runs until the signal comes, the janitor told of meanwhile.
SIGNALLED = """
threading.Timer(0.5, tell).start()
run_command(["sleep", "60"], cwd=".", env=os.environ, timeout=120)
"""

ENDS = {
    # A command run, then a clean exit.
    "clean-exit": """
run_command(["true"], cwd=".", env=os.environ, timeout=60)
tell()
""",
    # A forked child's exit runs its exit hooks: they must leave the parent's janitor alone, which then ends with it.
    "forked-child-exits": """
run_command(["true"], cwd=".", env=os.environ, timeout=60)
child = os.fork()
if child == 0:
    sys.exit(0)
os.waitpid(child, 0)
tell(alive_after_the_child=open(f"/proc/{lifecycle._JANITOR.pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z")
""",
    "signalled": SIGNALLED,
}


def _pytest_session(tmp_path: Path) -> list[str]:
    (tmp_path / "test_signalled.py").write_text(OWNED + "\n\ndef test_signalled():\n" + textwrap.indent(SIGNALLED, "    "))
    return [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
            str(tmp_path / "test_signalled.py")]


@pytest.mark.parametrize(("front_end", "script", "signum", "status"), [
    pytest.param("script", "clean-exit", None, 0, id="script-clean-exit"),
    pytest.param("script", "forked-child-exits", None, 0, id="script-whose-forked-child-exits"),
    pytest.param("script", "signalled", signal.SIGTERM, -signal.SIGTERM, id="script-SIGTERM-in-a-command"),
    pytest.param("script", "signalled", signal.SIGHUP, -signal.SIGHUP, id="script-SIGHUP-in-a-command"),
    pytest.param("script", "signalled", signal.SIGINT, -signal.SIGINT, id="script-SIGINT-in-a-command"),
    pytest.param("pytest", "signalled", signal.SIGTERM, -signal.SIGTERM, id="pytest-SIGTERM-in-a-command"),
    pytest.param("pytest", "signalled", signal.SIGINT, 2, id="pytest-SIGINT-in-a-command"),
])
def test_no_janitor_is_left_the_moment_its_owner_ends_in_a_way_it_sees(
    tmp_path: Path, front_end: str, script: str, signum: signal.Signals | None, status: int
) -> None:
    """Its owner closes the pipe and reaps it as it ends (at exit, or just before a signal's default action), its
    commands ended: none is left running even for the moment it takes to see the pipe end (a CI's check for leftover
    processes right after the run found it)."""
    argv = _pytest_session(tmp_path) if front_end == "pytest" else [sys.executable, "-c", OWNED + ENDS[script]]
    process = subprocess.Popen(argv, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "told.json").exists():
            assert process.poll() is None or signum is None, process.communicate()
            assert time.monotonic() < deadline, "the owner never told its janitor"
            time.sleep(0.05)
        told = json.loads((tmp_path / "told.json").read_text())
        assert told["janitor"] is not None
        if signum is not None:
            process.send_signal(signum)
        out, _ = process.communicate(timeout=60)
        assert process.returncode == status, out
        assert (told.pop("alive_after_the_child", True), _running(told["janitor"])) == (True, False)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


#: ``--jobs``'s workers, each running a command: the pool ends each with ``os._exit`` once the work is done.
IN_WORKERS = """
from plancheck._terraform.lifecycle import run_in_workers

def work(_item):
    run_command(["true"], cwd=".", env=os.environ, timeout=60)
    return lifecycle._JANITOR.pid

janitors = run_in_workers(work, [1, 2], 2)
print(json.dumps([os.path.exists(f"/proc/{pid}") for pid in janitors]))
"""


def test_a_worker_the_pool_ends_leaves_no_janitor() -> None:
    """The pool's worker ends with ``os._exit`` (no exit hook runs): it reaps its janitor in multiprocessing's
    finalizers, so none is left once the pool has joined its workers."""
    done = subprocess.run([sys.executable, "-c", OWNED + IN_WORKERS], capture_output=True, text=True, timeout=120,
                          check=False)
    assert (done.returncode, done.stdout) == (0, "[false, false]\n"), done.stderr


#: An ending its owner sees, cut into by a second signal: a ``--jobs`` worker ending with its own SIGTERM gets the
#: pool's on top once another worker has ended. The callback after the janitor's reaping sends it and then says
#: whether the janitor was reaped; the default action of the second signal met then would end the process first.
SECOND_SIGNAL = """
import signal
from plancheck._loading.delivery import on_ending

def second_signal():
    os.kill(os.getpid(), signal.SIGTERM)
    with open("ended.json", "w") as f:
        json.dump({"reaped": lifecycle._JANITOR.pid is None}, f)

on_ending(second_signal)
"""


@pytest.mark.parametrize("signum", [
    pytest.param(signal.SIGTERM, id="SIGTERM-then-SIGTERM"),
    pytest.param(signal.SIGHUP, id="SIGHUP-then-SIGTERM"),
])
def test_a_second_signal_while_the_owner_ends_cuts_nothing_short(tmp_path: Path, signum: signal.Signals) -> None:
    process = subprocess.Popen([sys.executable, "-c", OWNED + SECOND_SIGNAL + SIGNALLED], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "told.json").exists():
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the owner never told its janitor"
            time.sleep(0.05)
        janitor = json.loads((tmp_path / "told.json").read_text())["janitor"]
        process.send_signal(signum)
        out, _ = process.communicate(timeout=60)
        assert process.returncode == -signum, out
        assert (tmp_path / "ended.json").exists(), "the second signal ended the process in the middle of its ending"
        assert (json.loads((tmp_path / "ended.json").read_text()), _running(janitor)) == ({"reaped": True}, False)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


#: A pytest-xdist worker's part: its parent (the controller) watched from its first command on.
WITH_PARENT = """
lifecycle.end_with_parent()
threading.Timer(0.5, lambda: tell(owner=os.getpid())).start()
run_command(["sleep", "60"], cwd=".", env=os.environ, timeout=120)
"""


def test_a_parent_killed_ends_its_child_and_its_command_at_once(tmp_path: Path) -> None:
    """The parent (an xdist controller) killed by SIGKILL: its child's janitor sends the child SIGTERM at once, which
    ends its command and then the child (before: they ran on until execnet's ``os._exit`` 10-15 s later)."""
    parent = subprocess.Popen([sys.executable, "-c", "import subprocess, sys; subprocess.run(sys.argv[1:])",
                               sys.executable, "-c", OWNED + WITH_PARENT], cwd=tmp_path, start_new_session=True)
    told: dict[str, Any] = {}
    try:
        until(lambda: (tmp_path / "told.json").exists(), "the child never told its janitor", within=60)
        told = json.loads((tmp_path / "told.json").read_text())
        (command,) = set(_group_ids(told["owner"])) - {os.getpgid(told["owner"]), told["janitor"]}
        assert _in_group(command) == [command]
        parent.kill()
        parent.wait()
        assert _all_gone([told["owner"], told["janitor"], command], within=2.0) == []
    finally:
        for pid in [*_in_group(parent.pid), *told.values()]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if parent.poll() is None:
            parent.kill()
            parent.wait()
