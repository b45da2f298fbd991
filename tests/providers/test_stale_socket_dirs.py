"""Socket directories of a killed session are removed at the next start (#25 item 4), and nothing else is."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from plancheck.acceptance._providers._serve import (
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
        "from plancheck.acceptance._providers._serve import short_temp_dir\n"
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
    import plancheck.acceptance._providers._serve as serve

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(serve.tempfile, "tempdir", None)
    serve._remove_stale_once.cache_clear()
    fresh = short_temp_dir()
    try:
        assert not left.exists()
        assert fresh.is_dir()
    finally:
        import shutil

        shutil.rmtree(fresh)
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
