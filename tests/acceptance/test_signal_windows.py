"""One process lifecycle (#33 item 3): a signal that lands *between* two lines leaves nothing behind either.

A process, a server or a temporary directory exists from the moment the call that makes it returns, but the
``try`` whose ``finally`` removes it starts a few lines later: a SIGTERM in that gap used to leave the thing
behind. Each test lands the signal in one such gap, deterministically (the creating call is wrapped to signal
this very process), and checks that the signal still ends the work, is delivered once, and leaves no process
or directory behind.
"""

from __future__ import annotations

import contextlib
import os
import signal
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import signal_scope

from plancheck._loading import lifecycle
from plancheck._loading.lifecycle import Terminated, ending_on_signals
from plancheck._terraform import binary
from plancheck._terraform import lifecycle as workers
from plancheck._terraform.binary import run_command

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGHUP") or not Path("/proc/self/stat").exists(),
                                reason="POSIX signals, process groups and /proc")


@pytest.fixture(autouse=True)
def as_a_script(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """As a script (:func:`signal_scope.as_a_script`); no signal is left pending."""
    with signal_scope.as_a_script(monkeypatch) as seen:
        yield seen
    assert lifecycle._SCOPE.pending is None


@pytest.fixture
def newly_owned() -> Callable[[], list[object]]:
    """What the test made and left owned. The register is the process's: a test run before this one in the same
    worker may have left something of its own in it, which is not this test's finding."""
    before = set(lifecycle._SCOPE.owned)

    def made_since() -> list[object]:
        return [resource for resource in lifecycle._SCOPE.owned if resource not in before]

    return made_since


def _signal_self() -> None:
    os.kill(os.getpid(), signal.SIGTERM)


def _gone(pid: int, within: float = 10.0) -> bool:
    """Whether ``pid`` has ended and been reaped (a zombie is a process nobody waited for)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not Path(f"/proc/{pid}").exists():
            return True
        time.sleep(0.05)
    return False


def _stop(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def _stop_our_child(pid: int) -> None:
    """Kill ``pid`` if it is still a child of this process (once reaped, its pid may be another's)."""
    with contextlib.suppress(OSError, IndexError, ValueError):
        if int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1]) == os.getpid():
            _stop(pid)


def _made_then_signalled(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """``tempfile.mkdtemp`` makes its directory, then SIGTERM lands before its caller has it (the gap before a try)."""
    real = tempfile.mkdtemp
    made: list[str] = []

    def mkdtemp(*args: object, **kwargs: object) -> str:
        made.append(real(*args, **kwargs))  # type: ignore[call-overload]
        _signal_self()
        return made[-1]

    monkeypatch.setattr(tempfile, "mkdtemp", mkdtemp)
    return made


def _run_a_command(tmp_path: Path) -> None:
    run_command(["/bin/sh", "-c", "true"], cwd=tmp_path, env={"PATH": os.environ["PATH"], "TMPDIR": str(tmp_path)},
                timeout=30)


def _show_a_binary_plan_from_stdin(tmp_path: Path) -> None:
    from plancheck._terraform.planfile import binary_plan_json

    binary_plan_json("-", b"PK\x03\x04", environ={"PATH": ""}, cwd=tmp_path)


def _serve_a_provider(tmp_path: Path) -> None:
    pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    from plancheck._terraform.providers.server import ProviderServer

    with ending_on_signals():  # as the runner serves it: inside the case's scope
        ProviderServer("example.com/acme/widget", provider=object()).start()


MADE_THEN_SIGNALLED: list[object] = [
    pytest.param(_run_a_command, id="run_command-private-TMPDIR"),
    pytest.param(_show_a_binary_plan_from_stdin, id="binary-plan-from-stdin-tempdir"),
    pytest.param(_serve_a_provider, id="provider-server-socket-dir"),
]


@pytest.mark.parametrize("front_door", MADE_THEN_SIGNALLED)
def test_a_signal_right_after_a_directory_is_made_removes_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, as_a_script: list[int], front_door: Callable[[Path], None],
    newly_owned: Callable[[], list[object]],
) -> None:
    """Before: the directory was made, the signal unwound before the ``try`` that removes it, and it stayed."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    made = _made_then_signalled(monkeypatch)
    with pytest.raises(Terminated):
        front_door(tmp_path)
    assert made, "no directory was made"
    assert [d for d in made if os.path.exists(d)] == []
    assert as_a_script == [signal.SIGTERM]  # delivered once, after the cleanup
    assert newly_owned() == []



def test_a_signal_as_a_leftover_is_made_leaves_it_whole(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, as_a_script: list[int]
) -> None:
    """A leftover is the record of resources a destroy could not remove. Before: a signal just after its directory
    was made left that directory empty, with no manifest, so nothing would ever find, destroy or remove it (cut
    short later, a copy holding the state's secrets). Now the leftover is made whole, then the signal goes on."""
    from plancheck._terraform.binary import TerraformBinary
    from plancheck.acceptance import find_leftovers
    from plancheck.acceptance._statefiles import keep_leftover

    work, root = tmp_path / "work", tmp_path / "leftovers"
    work.mkdir()
    (work / "terraform.tfstate").write_text('{"version": 4, "resources": []}')
    made = _made_then_signalled(monkeypatch)
    with pytest.raises(Terminated), ending_on_signals():
        keep_leftover(root, work, test_name="test_x", terraform=TerraformBinary("/bin/terraform", "1.11.0"),
                      cli_config=None, providers=[], reason="the post-test destroy was interrupted")
    assert [Path(d) for d in made] == [leftover.path for leftover in find_leftovers(root)]
    assert (root / Path(made[0]).name / "terraform.tfstate").is_file()
    assert as_a_script == [signal.SIGTERM]


def _pid_file_script(pid_file: Path) -> list[str]:
    return ["/bin/sh", "-c", f"sleep 300 & echo $! > {pid_file}.new && mv {pid_file}.new {pid_file}; sleep 300"]


def test_a_signal_after_the_command_started_but_before_its_wait_ends_its_group(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, as_a_script: list[int],
    newly_owned: Callable[[], list[object]],
) -> None:
    """Before: the command was started (and handed over), the signal unwound before the wait's ``try``, and
    the command and its background child ran on, unreaped."""
    pid_file = tmp_path / "child.pid"
    real = binary._pidfd
    started: list[int] = []

    def pidfd_then_signalled(pid: int) -> int | None:
        started.append(pid)
        deadline = time.monotonic() + 30
        while not pid_file.exists() and time.monotonic() < deadline:  # the command's own child is running
            time.sleep(0.01)
        _signal_self()
        return real(pid)

    monkeypatch.setattr(binary, "_pidfd", pidfd_then_signalled)
    with pytest.raises(Terminated):
        run_command(_pid_file_script(pid_file), cwd=tmp_path, env={"PATH": os.environ["PATH"], "TMPDIR": str(tmp_path)},
                    timeout=60)
    child = int(pid_file.read_text())
    try:
        assert _gone(started[0]), "the command outlived the signal (or was never reaped)"
        assert _gone(child, within=10.0) or _zombie(child), f"the command's background child {child} survived"
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith("tfplancheck-cmd-")] == []
        assert as_a_script == [signal.SIGTERM]
        assert newly_owned() == []
    finally:
        _stop(child)
        _stop_our_child(started[0])


def _zombie(pid: int) -> bool:
    with contextlib.suppress(OSError, IndexError):
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    return False



def _fds() -> list[str]:
    return sorted(os.listdir("/proc/self/fd"))


def test_a_signal_as_the_cleanup_begins_before_its_hold_still_ends_the_command(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, as_a_script: list[int],
    newly_owned: Callable[[], list[object]],
) -> None:
    """The command's ``finally`` kills its group, closes the wait's descriptors and reaps it with the signals
    held back; a signal landing as that ``finally`` begins, before the hold takes effect, used to skip all of it:
    the command stayed unreaped (a zombie), its pipes and the wait's descriptors open."""
    real_exited, real_held = binary._exited, lifecycle.signals_held
    exited: list[int] = []

    def remember_exit(pid: int) -> bool:
        done = real_exited(pid)
        if done and not exited:
            exited.append(pid)
        return done

    def signalled_before_the_first_hold_after_the_exit() -> contextlib.AbstractContextManager[list[int]]:
        if exited and not signalled:
            signalled.append(True)
            _signal_self()  # handled here: the hold below is never reached
        return real_held()

    signalled: list[bool] = []
    monkeypatch.setattr(binary, "_exited", remember_exit)
    monkeypatch.setattr(lifecycle, "signals_held", signalled_before_the_first_hold_after_the_exit)
    fds_before = _fds()
    with pytest.raises(Terminated):
        _run_a_command(tmp_path)
    assert signalled, "the signal was never sent"
    assert exited, "the command never exited"
    try:
        assert _gone(exited[0], within=10.0), "the command was left unreaped"
        assert _fds() == fds_before, "the command's pipes or the wait's descriptors were left open"
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith("tfplancheck-cmd-")] == []
        assert as_a_script == [signal.SIGTERM]
        assert newly_owned() == []
    finally:
        _stop_our_child(exited[0])


def test_an_interrupted_scope_removes_only_what_its_own_thread_made(tmp_path: Path, as_a_script: list[int]) -> None:
    """What the scope removes after a signal is what its work made and still owns; a directory another thread
    made meanwhile (a runner used from a worker thread) is that thread's to remove, still in use there."""
    import threading

    from plancheck._loading.lifecycle import release, temporary_directory

    others: list[str] = []
    made = threading.Event()
    done = threading.Event()

    def other_thread() -> None:
        with temporary_directory("other-", str(tmp_path)) as d:
            others.append(d)
            made.set()
            done.wait(30)

    mine = str(tmp_path / "mine")
    thread = threading.Thread(target=other_thread)

    def work_left_owned_then_signalled() -> None:
        with ending_on_signals():
            with lifecycle.signals_held():
                os.mkdir(mine)
                lifecycle.own(mine, lifecycle.remove_tree)
            thread.start()
            made.wait(30)
            _signal_self()

    with pytest.raises(Terminated):
        work_left_owned_then_signalled()
    try:
        assert not os.path.exists(mine), "what the scope's own work made and left owned was not removed"
        assert os.path.isdir(others[0]), "the scope removed a directory another thread was using"
    finally:
        done.set()
        thread.join(30)
        release(mine)
    assert not os.path.exists(others[0])
    assert as_a_script == [signal.SIGTERM]


@contextlib.contextmanager
def _a_thread_sending(thread_blocks_it: bool) -> Iterator[Callable[[], None]]:
    """A thread, started now, that sends SIGTERM to this process when asked (the kernel gives it to a thread that
    does not block it). Started before the hold, as gRPC's or a test runner's threads are: a thread inherits the
    signal mask of the thread that starts it."""
    import threading

    asked, sent = threading.Event(), threading.Event()

    def send() -> None:
        if thread_blocks_it:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
        asked.wait(10)
        _signal_self()
        sent.set()

    sender = threading.Thread(target=send)
    sender.start()

    def ask() -> None:
        asked.set()
        assert sent.wait(10), "the thread did not send the signal"

    try:
        yield ask
    finally:
        asked.set()
        sender.join()


@pytest.mark.parametrize("thread_blocks_it", [pytest.param(False, id="another-thread-takes-it"),
                                              pytest.param(True, id="the-main-thread-takes-it")])
def test_signals_held_hold_a_signal_whichever_thread_the_kernel_gives_it_to(
    as_a_script: list[int], thread_blocks_it: bool
) -> None:
    """Before: the hold was the main thread's signal mask. In a process with other threads (gRPC's, an xdist
    worker's) the kernel gave the signal to a thread that did not block it, and its handler ran in the main thread
    in the middle of the held body: what the body made was not yet owned when the signal unwound."""
    from plancheck._loading.lifecycle import signals_held

    events: list[str] = []
    signal.signal(signal.SIGTERM, lambda signum, _frame: (as_a_script.append(signum), events.append("signal")))
    with _a_thread_sending(thread_blocks_it) as send, signals_held():
        send()
        time.sleep(0.05)  # a handler due runs at the latest as the sleep returns
        events.append("body done")
    assert events == ["body done", "signal"]
    assert as_a_script == [signal.SIGTERM]


def _signal_the_parent_then_work(mark: str) -> None:
    """A worker's item: its pid noted, SIGTERM to the parent (the first item only: the first signal), then work
    that takes a while and notes that it finished, which it must not: the parent ends its workers."""
    # Written whole or not at all: the parent may end this worker at any moment, also inside a write.
    Path(f"{mark}.pid.new").write_text(str(os.getpid()), "utf-8")
    os.replace(f"{mark}.pid.new", f"{mark}.pid")
    if mark.endswith("first"):
        os.kill(os.getppid(), signal.SIGTERM)
    time.sleep(3)
    Path(f"{mark}.finished").touch()


def test_a_second_signal_as_the_workers_are_to_be_ended_still_ends_them(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, as_a_script: list[int],
    newly_owned: Callable[[], list[object]],
) -> None:
    """``run_in_workers`` ends its workers in its ``except`` after a signal; a second one landing as that begins
    used to skip it, and the pool's shutdown then waited for the workers to finish their work (a ``terraform
    apply``, for as long as it takes) instead of ending them. The pool is owned: the enclosing scope ends it."""
    real_end = workers._end_workers
    signalled: list[bool] = []

    def signalled_as_the_ending_begins(processes: dict[object, object]) -> None:
        if not signalled:
            signalled.append(True)
            _signal_self()  # handled here: the workers are not ended by this call
        real_end(processes)

    monkeypatch.setattr(workers, "_end_workers", signalled_as_the_ending_begins)
    marks = [str(tmp_path / "first"), str(tmp_path / "second")]
    try:
        with pytest.raises(Terminated), ending_on_signals():
            workers.run_in_workers(_signal_the_parent_then_work, marks, 2)
        assert signalled, "the second signal was never sent"
        pids = [int(Path(f"{mark}.pid").read_text("utf-8")) for mark in marks if Path(f"{mark}.pid").exists()]
        assert pids, "no worker ran"
        assert all(_gone(pid, within=10.0) for pid in pids), "a worker was left running or unreaped"
        assert [p.name for p in tmp_path.glob("*.finished")] == [], "the workers were waited for, not ended"
        assert as_a_script == [signal.SIGTERM]
        assert newly_owned() == []
    finally:
        for mark in marks:
            with contextlib.suppress(OSError, ValueError):
                _stop_our_child(int(Path(f"{mark}.pid").read_text("utf-8")))
