"""One process lifecycle (#33 item 3), without Terraform: SIGTERM and SIGHUP take the path a Ctrl-C takes.

While library work runs they raise ``Terminated`` (a ``KeyboardInterrupt``) in the main thread, the command's
group is ended and its private ``TMPDIR`` removed; afterwards the signal is delivered again to the handler it
had before (here a recording handler of the test's, so that the default action does not end the test run).
The real matrix (real Terraform, each signal, each phase, each front end) is tests/e2e/test_signals_e2e.py.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from plancheck._loading import lifecycle
from plancheck._loading.lifecycle import Terminated, deferring_delivery, ending_on_signals, pending_signal
from plancheck._terraform import lifecycle as workers
from plancheck._terraform.binary import run_command


def gone(pid: int, within: float = 5.0) -> bool:
    """Whether ``pid`` has ended (a zombie waiting to be reaped counts as ended)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return True
        if state == "Z":
            return True
        time.sleep(0.05)
    return False


def stop(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGHUP") or not Path("/proc/self/stat").exists(),
                                reason="POSIX signals, process groups and /proc")

TERMINATING = [pytest.param(signal.SIGTERM, id="SIGTERM"), pytest.param(signal.SIGHUP, id="SIGHUP")]


@pytest.fixture(autouse=True)
def undeferred(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """These tests run as a plain script does: outside the delivery this pytest session's plugin defers."""
    monkeypatch.setattr(lifecycle._SCOPE, "deferrals", 0)
    monkeypatch.setattr(lifecycle._SCOPE, "pending", None)
    yield
    assert lifecycle._SCOPE.pending is None, "a signal was left to be delivered to the test session"


@pytest.fixture
def delivered() -> Iterator[list[int]]:
    """A handler of the test's own for SIGTERM and SIGHUP that records what reaches it."""
    seen: list[int] = []
    previous = {s: signal.signal(s, lambda signum, _frame: seen.append(signum)) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield seen
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _send_when(path: Path, signum: int) -> threading.Thread:
    """Signal this process (its main thread handles it) once ``path`` exists."""

    def wait_and_send() -> None:
        deadline = time.monotonic() + 30
        while not path.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        os.kill(os.getpid(), signum)

    thread = threading.Thread(target=wait_and_send, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("signum", TERMINATING)
def test_a_command_ended_by_a_termination_signal_leaves_nothing(
    tmp_path: Path, delivered: list[int], signum: signal.Signals
) -> None:
    """Before: the signal went to the user's handler only; the command ran on to its timeout, its files stayed."""
    ready = tmp_path / "ready"
    script = f'echo "$TMPDIR" > {tmp_path}/tmpdir; touch "$TMPDIR/socket"; sleep 300 & echo $! > {ready}.new && mv {ready}.new {ready}; sleep 300'
    before = signal.getsignal(signum)
    sender = _send_when(ready, signum)
    with pytest.raises(Terminated) as info:
        run_command(["/bin/sh", "-c", script], cwd=tmp_path, env={"PATH": os.environ["PATH"], "TMPDIR": str(tmp_path)},
                    timeout=20)
    sender.join()
    child = int(ready.read_text())
    try:
        assert isinstance(info.value, KeyboardInterrupt)
        assert info.value.signum == signum
        assert gone(child), f"the command's background child {child} survived {signum.name}"
        private = Path((tmp_path / "tmpdir").read_text().strip())
        assert private.parent == tmp_path
        assert private.name.startswith("tfplancheck-cmd-")
        assert not private.exists(), "the command's TMPDIR (and the socket in it) was not removed"
        # Delivered again, once, after the cleanup, to the handler it had; which is back.
        assert delivered == [signum]
        assert signal.getsignal(signum) is before
        assert pending_signal() is None
    finally:
        stop(child)


def test_a_commands_private_tmpdir_is_removed_after_it_exits(tmp_path: Path) -> None:
    result = run_command(["/bin/sh", "-c", 'touch "$TMPDIR/plugin123"; echo "$TMPDIR"'], cwd=tmp_path,
                         env={"PATH": os.environ["PATH"], "TMPDIR": str(tmp_path)}, timeout=20)
    private = Path(result.stdout.strip())
    assert (result.ok, private.parent) == (True, tmp_path)
    assert not private.exists()


def test_scopes_nest_and_only_the_outermost_delivers(delivered: list[int]) -> None:
    with ending_on_signals():
        with pytest.raises(Terminated), ending_on_signals():
            signal.raise_signal(signal.SIGTERM)
        assert delivered == []  # the outer work is still unwinding: not yet
    assert delivered == [signal.SIGTERM]


def test_a_front_end_defers_the_delivery_until_its_own_cleanup_is_done(delivered: list[int]) -> None:
    with deferring_delivery():
        with pytest.raises(Terminated), ending_on_signals():
            signal.raise_signal(signal.SIGHUP)
        assert (delivered, pending_signal()) == ([], signal.SIGHUP)
    assert (delivered, pending_signal()) == ([signal.SIGHUP], None)


def test_an_ignored_signal_stays_ignored() -> None:
    """``nohup`` ignores SIGHUP: the library must not start ending work on it."""
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with ending_on_signals():
            assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
            signal.raise_signal(signal.SIGHUP)  # nothing happens
        assert pending_signal() is None
    finally:
        signal.signal(signal.SIGHUP, previous)


def test_outside_the_main_thread_the_scope_does_nothing() -> None:
    """Only the main thread may set handlers: a runner used from a worker thread must still work."""
    outcome: list[object] = []

    def work() -> None:
        try:
            with ending_on_signals(), deferring_delivery():
                outcome.append(signal.getsignal(signal.SIGTERM))
        except BaseException as exc:  # a ValueError from signal.signal would land here
            outcome.append(exc)

    before = signal.getsignal(signal.SIGTERM)
    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert outcome == [before]


def test_terminated_pickles_with_its_signal() -> None:
    """It crosses process boundaries (xdist reports) like the other exceptions."""
    copy = pickle.loads(pickle.dumps(Terminated(signal.SIGHUP)))
    assert (type(copy), copy.signum, str(copy)) == (Terminated, signal.SIGHUP, str(Terminated(signal.SIGHUP)))


def _cut_short(ran: str) -> None:
    """A worker's work whose scope a second signal cut short (its finally never delivered the first): the
    Terminated escapes it with the signal still pending."""
    with open(ran, "a", encoding="utf-8") as f:
        f.write(f"{os.getpid()}\n")
    lifecycle._SCOPE.pending = int(signal.SIGTERM)
    raise Terminated(signal.SIGTERM)


def test_a_worker_whose_signal_escaped_its_work_ends_and_takes_no_other_item(tmp_path: Path) -> None:
    """The pool's loop would take the Terminated for the item's result and run the next: a new ``terraform show``
    while the parent waits for the worker, for ever. The worker ends with the signal instead (the pool breaks)."""
    from concurrent.futures.process import BrokenProcessPool

    ran = tmp_path / "ran"
    # BaseException: on the old code the Terminated came back to the parent as the item's result, and was raised.
    with pytest.raises(BaseException) as caught:
        workers.run_in_workers(_cut_short, [str(ran)] * 6, 2)
    assert caught.type is BrokenProcessPool
    pids = ran.read_text("utf-8").split()
    assert len(pids) == len(set(pids)), "a worker ran another item after its signal"



#: A parent that passes termination on to one child (the child traps the signal, writes ``ended`` a second later
#: and exits), its own handler for the signal set as the row says; it writes the child's pid, then ``ready``.
PASSING_PARENT = """
import signal, subprocess, sys, time
from pathlib import Path
from plancheck._terraform.lifecycle import pass_termination_on

root, signum, handler = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
if handler == "ignored":
    signal.signal(signum, signal.SIG_IGN)
elif handler == "the user's":
    signal.signal(signum, lambda *_: (root / "user-handled").touch() or sys.exit(3))
child = subprocess.Popen([sys.executable, "-c", CHILD, str(root), str(signum)])
while not (root / "child.pid").exists():
    time.sleep(0.01)
pass_termination_on(lambda: [child.pid])
(root / "ready").touch()
time.sleep(60)
"""
PASSING_CHILD = """
import os, signal, sys, time
from pathlib import Path

root = Path(sys.argv[1])
signal.signal(int(sys.argv[2]), lambda *_: (time.sleep(1), (root / "ended").touch(), sys.exit(0)))
(root / "child.pid").write_text(str(os.getpid()))
time.sleep(60)
"""


@pytest.mark.parametrize("signum", TERMINATING)
@pytest.mark.parametrize(("handler", "ended_by", "files"), [
    # Passed on: the parent ends with the signal only once its child, signalled too, has ended.
    pytest.param("default", "the signal", ["child.pid", "ended", "ready"], id="passed-on-and-waited-for"),
    # Someone else's handler is theirs alone, and an ignored signal stays ignored: the child is not signalled.
    pytest.param("the user's", "exit 3", ["child.pid", "ready", "user-handled"], id="a-users-handler-stays"),
    pytest.param("ignored", "SIGKILL", ["child.pid", "ready"], id="ignored-stays-ignored"),
])
def test_a_termination_signal_is_passed_on_to_the_children_first(
    tmp_path: Path, signum: signal.Signals, handler: str, ended_by: str, files: list[str]
) -> None:
    import subprocess
    import sys

    script = f"CHILD = {PASSING_CHILD!r}\n{PASSING_PARENT}"
    process = subprocess.Popen([sys.executable, "-c", script, str(tmp_path), str(int(signum)), handler])
    try:
        deadline = time.monotonic() + 30
        while not (tmp_path / "ready").exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        process.send_signal(signum)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(3)
        process.kill()  # still running (the signal ignored): ended as its supervisor would
        returncode = process.wait()
        seen = {-signum: "the signal", -signal.SIGKILL: "SIGKILL"}.get(returncode, f"exit {returncode}")
        assert (seen, sorted(p.name for p in tmp_path.iterdir())) == (ended_by, files)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        with contextlib.suppress(OSError, ValueError):
            stop(int((tmp_path / "child.pid").read_text()))
