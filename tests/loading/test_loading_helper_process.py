"""The helper process of a large stdlib load (``plancheck._loading.parallel``) never outlives the load (#33).

Whatever ends the load while this process reads the helper's results (Ctrl-C, SIGTERM, an exception), the
helper is ended and reaped before the interrupt leaves ``split_parallel``: no running or zombie process, no
descriptor (its in-memory input, its pipe) and no temporary file is left behind. The interrupt is landed
deterministically: the helper's output is wrapped so that the first read interrupts.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import signal_scope

import plancheck._loading.parallel as parallel
from plancheck._loading.lifecycle import Terminated, ending_on_signals

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGTERM") or not Path("/proc/self/fd").exists(),
                                reason="POSIX signals and /proc")

_PLAN = (b'{"format_version": "1.2", "terraform_version": "1.5.0", "resource_changes": ['
         + b", ".join(b'{"address": "null_resource.n%d", "type": "null_resource"}' % i for i in range(50))
         + b'], "prior_state": {"format_version": "1.0"}}')


@pytest.fixture(autouse=True)
def as_a_script(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """As a script (:func:`signal_scope.as_a_script`), every load through the helper process."""
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.delenv(parallel.PARALLEL_ENV, raising=False)
    with signal_scope.as_a_script(monkeypatch) as seen:
        yield seen


class _Interrupting:
    """The helper's output, whose first read is interrupted by ``interrupt``."""

    def __init__(self, stream: Any, interrupt: Callable[[], None]) -> None:
        self.stream = stream
        self.interrupt = interrupt

    def readline(self) -> bytes:
        self.interrupt()
        return bytes(self.stream.readline())

    def close(self) -> None:
        self.stream.close()


def _sigterm() -> None:
    os.kill(os.getpid(), signal.SIGTERM)


def _ctrl_c() -> None:
    raise KeyboardInterrupt


def _a_bug() -> None:
    raise RuntimeError("a bug while reading")


def _ctrl_c_again_as_the_helper_is_waited_for(proc: subprocess.Popen[bytes]) -> None:
    """A second Ctrl-C landing as the wait for the ended helper begins."""
    real_wait = proc.wait

    def interrupted_wait(timeout: float | None = None) -> int:
        os.kill(os.getpid(), signal.SIGINT)
        return real_wait(timeout)

    proc.wait = interrupted_wait  # type: ignore[method-assign]


# (what interrupts the first read of the helper's results, what more happens to the helper once started, what the
# load raises). A Ctrl-C ends the load; a second one landing while the helper is killed and waited for used to cut
# the wait short and leave a zombie: ended with the signals held back, the second is raised only once it is reaped.
INTERRUPTED_READS = [
    pytest.param(_ctrl_c, None, KeyboardInterrupt, id="ctrl-c"),
    pytest.param(_sigterm, None, Terminated, id="sigterm"),
    pytest.param(_a_bug, None, RuntimeError, id="exception"),
    pytest.param(_ctrl_c, _ctrl_c_again_as_the_helper_is_waited_for, KeyboardInterrupt,
                 id="a-second-ctrl-c-while-the-helper-is-ended"),
]


@pytest.mark.parametrize(("interrupt", "after_start", "raised"), INTERRUPTED_READS)
def test_an_interrupted_read_of_the_helpers_results_ends_and_reaps_it(
    monkeypatch: pytest.MonkeyPatch, as_a_script: list[int], interrupt: Callable[[], None],
    after_start: Callable[[subprocess.Popen[bytes]], None] | None, raised: type[BaseException], tmp_path: Path,
) -> None:
    # A temporary directory of this test's own, for this process and the helper: the machine's is shared.
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    started: list[int] = []
    original = parallel._Helper.__init__

    def start(self: parallel._Helper, data: bytes, segments: list[tuple[str, int, int]]) -> None:
        original(self, data, segments)
        started.append(self.proc.pid)
        self.proc.stdout = _Interrupting(self.proc.stdout, interrupt)  # type: ignore[assignment]
        if after_start is not None:
            after_start(self.proc)

    monkeypatch.setattr(parallel._Helper, "__init__", start)
    fds = sorted(os.listdir("/proc/self/fd"))
    temporary = sorted(os.listdir(tempfile.gettempdir()))
    try:
        with pytest.raises(raised) as caught, ending_on_signals():
            parallel.split_parallel([_PLAN], "plan.json")
        # The traceback (held here) keeps the load's frames, and with them the helper's Popen, alive: only an
        # explicit wait reaps it.
        assert caught.value is not None
    finally:
        _ends_and_reaps(started)
    assert sorted(os.listdir("/proc/self/fd")) == fds
    assert sorted(os.listdir(tempfile.gettempdir())) == temporary
    assert as_a_script == ([signal.SIGTERM] if raised is Terminated else [])


def test_an_uninterrupted_load_still_splits() -> None:
    split = parallel.split_parallel([_PLAN], "plan.json")
    assert split is not None
    assert len(split.values["resource_changes"]) == 50


def _ends_and_reaps(started: list[int]) -> None:
    """The helper of the load is neither running nor a zombie; what a failing check left is killed and reaped."""
    try:
        assert len(started) == 1
        assert not Path(f"/proc/{started[0]}").exists(), "the helper is still running, or a zombie not reaped"
    finally:
        for pid in started:
            with contextlib.suppress(ProcessLookupError, ChildProcessError):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)


def test_a_signal_inside_the_helpers_start_ends_it(
    monkeypatch: pytest.MonkeyPatch, as_a_script: list[int],
) -> None:
    """``Popen`` returns only after the helper runs: a SIGTERM landing inside it, before the helper was anyone's,
    used to leave it running. Started with the signals held back, it is owned before the signal is let in."""
    started: list[int] = []
    real_popen = subprocess.Popen

    def signalled_inside_the_start(*args: Any, **kwargs: Any) -> Any:
        proc = real_popen(*args, **kwargs)
        started.append(proc.pid)
        _sigterm()  # as if it landed as Popen returned
        return proc

    monkeypatch.setattr(subprocess, "Popen", signalled_inside_the_start)
    fds = sorted(os.listdir("/proc/self/fd"))
    with pytest.raises(Terminated), ending_on_signals():
        parallel.split_parallel([_PLAN], "plan.json")
    _ends_and_reaps(started)
    assert sorted(os.listdir("/proc/self/fd")) == fds
    assert as_a_script == [signal.SIGTERM]
