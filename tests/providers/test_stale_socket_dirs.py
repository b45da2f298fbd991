"""Socket directories of a killed session are removed at the next start (#25 item 4), and nothing else is."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from plancheck._loading.lifecycle import release
from plancheck._terraform.providers.server import (
    FOREIGN_GRACE,
    NAMESPACE_FILE,
    OWNER_FILE,
    UNOWNED_GRACE,
    remove_stale_dirs,
    short_temp_dir,
)

pytestmark = pytest.mark.skipif(not hasattr(os, "getuid"), reason="ownership is checked by uid (POSIX)")


def dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def own_mark() -> str:
    return Path(f"/proc/{os.getpid()}/stat").read_text().rsplit(")", 1)[1].split()[19]


def make(base: Path, name: str, owner: str | None) -> Path:
    directory = base / name
    directory.mkdir()
    (directory / "widget.sock").write_text("")
    if owner is not None:
        (directory / OWNER_FILE).write_text(owner)
    return directory


def test_only_dirs_of_dead_owners_are_removed(tmp_path: Path) -> None:
    live_start = own_mark() if Path("/proc").is_dir() else ""
    dirs = {
        "dead-owner": make(tmp_path, "tfpc-dead", str(dead_pid())),
        "reused-pid": make(tmp_path, "tfpc-reused", f"{os.getpid()}:1"),
        "garbage-owner": make(tmp_path, "tfpc-garbage", "not a pid"),
        "live-owner": make(tmp_path, "tfpc-live", f"{os.getpid()}:{live_start}" if live_start else str(os.getpid())),
        "unowned-young": make(tmp_path, "tfpc-young", None),
        "other-name": make(tmp_path, "other-dead", str(dead_pid())),
    }
    (tmp_path / "tfpc-file").write_text("a file, not a directory")
    (tmp_path / "tfpc-link").symlink_to(dirs["dead-owner"].parent / "other-dead")
    removed = {p.name for p in remove_stale_dirs(tmp_path)}
    assert removed == {"tfpc-dead", "tfpc-reused", "tfpc-garbage"}
    assert {p.name for p in tmp_path.iterdir()} == {"tfpc-live", "tfpc-young", "other-dead", "tfpc-file", "tfpc-link"}
    # An owner-less directory goes once it is old enough that nobody can be about to claim it.
    later = time.time() + UNOWNED_GRACE + 1
    assert {p.name for p in remove_stale_dirs(tmp_path, now=later)} == {"tfpc-young"}


def test_a_killed_sessions_directory_is_removed_at_the_next_start(
    private_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tmp_path = private_tmp  # short: socket directories are made in $TMPDIR only when its path is short
    code = (
        "import sys, time\n"
        "from plancheck._terraform.providers.server import short_temp_dir\n"
        "print(short_temp_dir(), flush=True)\n"
        "time.sleep(300)\n"
    )
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, env=env, text=True,
                             cwd=Path(__file__).resolve().parents[2])
    try:
        assert child.stdout is not None
        left = Path(child.stdout.readline().strip())
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert left.is_dir()  # the killed session could not clean up
    assert left.parent == tmp_path
    assert (left / OWNER_FILE).read_text().startswith(f"{child.pid}")
    import plancheck._terraform.providers.server as serve

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(serve.tempfile, "tempdir", None)
    serve._remove_stale_once.cache_clear()
    fresh = short_temp_dir()
    try:
        assert not left.exists()
        assert fresh.is_dir()
    finally:
        release(fresh, end=True)  # as short_temp_dir says: removed, and no longer owned
        serve._remove_stale_once.cache_clear()


@pytest.mark.parametrize(
    "owner",
    [
        pytest.param(b"99999999999999999999999", id="pid-beyond-any-pid"),
        pytest.param(b"99999999999999999999:1", id="pid-beyond-any-pid-with-start"),
        pytest.param("²".encode(), id="a-digit-int-refuses"),
        pytest.param(b"\xff\xfe12", id="not-ascii"),
        pytest.param(b"12" * 5000, id="long"),
    ],
)
def test_a_hostile_owner_file_is_a_dead_owner_not_a_crash(tmp_path: Path, owner: bytes) -> None:
    """Red team (#25): an owner file of a huge number (OverflowError from os.kill), a Unicode digit
    (ValueError from int) or non-ASCII bytes (UnicodeDecodeError) raised out of the clean-up, that is out
    of the first provider server start of every later session."""
    directory = make(tmp_path, "tfpc-hostile", None)
    (directory / OWNER_FILE).write_bytes(owner)
    assert [p.name for p in remove_stale_dirs(tmp_path)] == ["tfpc-hostile"]
    assert list(tmp_path.iterdir()) == []


def _can_unshare() -> bool:
    try:
        return subprocess.run(["unshare", "--pid", "--fork", "--mount-proc", "true"], capture_output=True,
                              timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.mark.skipif(not Path("/proc/self/ns/pid").exists() or not _can_unshare(),
                    reason="needs PID namespaces (unshare --pid, as root)")
def test_a_live_directory_of_another_pid_namespace_is_left_alone(private_tmp: Path) -> None:
    """Red team (#25): a session in a container sharing /tmp (another PID namespace) records a pid that means
    another process here, or none: its live directory was removed under its running provider server."""
    code = (
        "import sys\n"
        "from plancheck._terraform.providers.server import short_temp_dir\n"
        "print(short_temp_dir(), flush=True)\n"
        "sys.stdin.read()\n"
    )
    env = {**os.environ, "TMPDIR": str(private_tmp)}
    inner = subprocess.Popen(["unshare", "--pid", "--fork", "--mount-proc", sys.executable, "-c", code],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True,
                             cwd=Path(__file__).resolve().parents[2])
    try:
        assert inner.stdout is not None
        live = Path(inner.stdout.readline().strip())
        assert live.is_dir()
        assert remove_stale_dirs(private_tmp) == []
        assert live.is_dir()
        # Once it is old enough that no case can still be using it, it goes.
        later = time.time() + 2 * 86400
        assert remove_stale_dirs(private_tmp, now=later) == [live]
    finally:
        assert inner.stdin is not None
        inner.stdin.close()
        inner.wait(timeout=30)


@pytest.mark.skipif(not Path("/proc/self/ns/pid").exists(), reason="PID namespaces are Linux's")
def test_a_directory_of_another_pid_namespace_is_judged_by_age_only(tmp_path: Path) -> None:
    foreign = make(tmp_path, "tfpc-foreign", f"{dead_pid()}:1")
    (foreign / NAMESPACE_FILE).write_text("1")  # no namespace is numbered so
    assert remove_stale_dirs(tmp_path) == []
    assert remove_stale_dirs(tmp_path, now=time.time() + UNOWNED_GRACE + 1) == []
    assert remove_stale_dirs(tmp_path, now=time.time() + FOREIGN_GRACE + 1) == [foreign]


def test_the_owner_mark_stays_as_older_readers_read_it_and_the_namespace_is_beside_it() -> None:
    """An older tfplancheck (another project's, another worktree's) reads the owner file as pid[:start]: a
    namespace appended to it made them take every live directory of this version for a dead owner's."""
    directory = short_temp_dir()
    try:
        mark = (directory / OWNER_FILE).read_text()
        namespace = (directory / NAMESPACE_FILE).read_text() if (directory / NAMESPACE_FILE).exists() else None
    finally:
        release(directory, end=True)
    assert mark == (f"{os.getpid()}:{own_mark()}" if Path("/proc").is_dir() else str(os.getpid()))
    if Path("/proc/self/ns/pid").exists():
        assert namespace == os.readlink("/proc/self/ns/pid")[len("pid:["):-1]
