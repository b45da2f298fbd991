"""Every output file a user names is written by one writer (``plancheck._loading.source.write_whole``), whole or not at
all: a ``--report``, a baseline, a snapshot, a written configuration, the coverage data, the CLI configuration of
``providers mirror`` and mock-plan's ``--out``.

Each target (a new file, a file of mode 0640, links, a device, a FIFO, a missing or blocked directory, an interrupt, a
full disk) is written by each writer, and each writer says a failure in its own words, byte for byte as before.
"""

from __future__ import annotations

import errno
import io
import os
import stat
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from plancheck._loading.source import regular_file, write_whole
from plancheck._plugin.coverage.data import CoverageData
from plancheck._plugin.coverage.report import write_data
from plancheck._redact import NO_SECRETS
from plancheck._terraform.binary import cli_config_text, write_cli_config
from plancheck._terraform.mock.plan import MockPlanArgumentError
from plancheck._terraform.mock.plan import _write as write_mock_out
from plancheck.cli import run
from plancheck.cli._io import Io, _WriteFailed, write_report
from plancheck.cli._waivers import BaselineError, write_entries
from plancheck.snapshot import SnapshotFormatError
from plancheck.snapshot._api import write_snapshot_file
from plancheck.tfconfig import dumps_config, write_config

TEXT = "# tfplancheck plan snapshot 1\n"
OLD = "old\n"
CONFIG = {"locals": {"a": 1}}
#: Every target's name ends with .tf.json: the one name write_config takes.
NAME = "out.tf.json"
UMASK = 0o002  # neither 0o644 (the snapshot writer's fixed mode) nor mkstemp's 0o600


@dataclass(frozen=True)
class Writer:
    write: Callable[[Path], object]
    text: str
    error: type[BaseException]
    #: The failure's words: {path} the file written, {named} the file the system names, {reason} and {errno} its own.
    message: str
    devices: bool = True  # write_config takes a directory and a plain name: never /dev/null


RAW = "[Errno {errno}] {reason}: '{named}'"
WRITERS = {
    "write_whole": Writer(lambda path: write_whole(path, TEXT), TEXT, OSError, RAW),
    "snapshot": Writer(lambda path: write_snapshot_file(path, TEXT), TEXT, SnapshotFormatError,
                       "{path}: expected a snapshot file that can be written, found {reason}"),
    "baseline": Writer(lambda path: write_entries(str(path), [], NO_SECRETS),
                       '{\n  "tfplancheck_baseline": 1,\n  "failures": []\n}\n', BaselineError,
                       "{path}: cannot write the baseline: {reason}"),
    "report": Writer(lambda path: write_report(Io(io.StringIO(), io.StringIO(), None, {}), str(path), TEXT.strip()),
                     TEXT, _WriteFailed, "cannot write to the report file {path}: {reason}"),
    "config": Writer(lambda path: write_config(CONFIG, path.parent, filename=path.name), dumps_config(CONFIG), OSError,
                     RAW, devices=False),
    "coverage-data": Writer(lambda path: write_data(CoverageData(), path),
                            '{\n "format": "tfplancheck-coverage-data",\n "modules": {},\n "version": 1\n}\n', OSError,
                            RAW),
    "cli-config": Writer(lambda path: write_cli_config(path, "/m", ["example.com/a/x"]),
                         cli_config_text("/m", ["example.com/a/x"]), OSError, RAW),
    "mock-plan-out": Writer(lambda path: write_mock_out(path, TEXT), TEXT, MockPlanArgumentError,
                            "{path}: cannot write: {reason}"),
}


@pytest.fixture(autouse=True)
def umask() -> Iterator[None]:
    old = os.umask(UMASK)
    try:
        yield
    finally:
        os.umask(old)


def _entries(directory: Path) -> list[str]:
    return sorted(os.listdir(directory))


# -- targets: each writes where it is told, and nothing else is left ------------------------------------------------


def _new_file(tmp: Path, writer: Writer) -> None:
    writer.write(tmp / NAME)
    # A new file gets the mode any file the user makes gets: mkstemp's 0o600 (write_config) and a fixed 0o644
    # (the snapshot writer) surprised a user whose umask lets the group write.
    assert ((tmp / NAME).read_text("utf-8"), stat.S_IMODE((tmp / NAME).stat().st_mode), _entries(tmp)) == (
        writer.text, 0o666 & ~UMASK, [NAME])


def _existing_0640(tmp: Path, writer: Writer) -> None:
    (tmp / NAME).write_text(OLD, "utf-8")
    (tmp / NAME).chmod(0o640)
    writer.write(tmp / NAME)
    # The baseline writer gave it the umask's mode (0o664 here), write_config mkstemp's 0o600.
    assert ((tmp / NAME).read_text("utf-8"), stat.S_IMODE((tmp / NAME).stat().st_mode), _entries(tmp)) == (
        writer.text, 0o640, [NAME])


def _symlink(tmp: Path, writer: Writer) -> None:
    (tmp / "shared").mkdir()
    (tmp / "shared" / NAME).write_text(OLD, "utf-8")
    (tmp / NAME).symlink_to(Path("shared", NAME))
    writer.write(tmp / NAME)
    # write_config renamed its file over the link: the link became a file, the file it named kept the old text.
    assert ((tmp / NAME).is_symlink(), (tmp / "shared" / NAME).read_text("utf-8"), _entries(tmp / "shared")) == (
        True, writer.text, [NAME])


def _symlink_to_missing(tmp: Path, writer: Writer) -> None:
    (tmp / NAME).symlink_to("target.tf.json")
    writer.write(tmp / NAME)
    assert ((tmp / NAME).is_symlink(), (tmp / "target.tf.json").read_text("utf-8"), _entries(tmp)) == (
        True, writer.text, [NAME, "target.tf.json"])


def _hard_link(tmp: Path, writer: Writer) -> None:
    # The name written is replaced whole (a rename replaces a name, not the file): the other name keeps the old file.
    # A --report was written into the file in place, under both names, and half of it on a full disk.
    (tmp / "other.json").write_text(OLD, "utf-8")
    os.link(tmp / "other.json", tmp / NAME)
    writer.write(tmp / NAME)
    assert ((tmp / NAME).read_text("utf-8"), (tmp / "other.json").read_text("utf-8"), _entries(tmp)) == (
        writer.text, OLD, ["other.json", NAME])


def _dev_null(tmp: Path, writer: Writer) -> None:
    writer.write(Path("/dev/null"))
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def _dev_fd_of_a_file(tmp: Path, writer: Writer) -> None:
    # /dev/stdout redirected to a file (`> out.txt`) is that file to stat: the baseline and snapshot writers renamed a
    # file over it, so the file the shell opened was unlinked and the rest of the run's output went nowhere.
    if not os.path.isdir("/dev/fd"):
        pytest.skip("no /dev/fd here")
    held = os.open(tmp / "captured.txt", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        writer.write(Path(f"/dev/fd/{held}"))
        assert (os.fstat(held).st_ino, os.fstat(held).st_nlink) == ((tmp / "captured.txt").stat().st_ino, 1)
    finally:
        os.close(held)
    assert ((tmp / "captured.txt").read_text("utf-8"), _entries(tmp)) == (writer.text, ["captured.txt"])


def _dev_fd_between_writes(tmp: Path, writer: Writer) -> None:
    # `tfplancheck ... --report json=/dev/stdout > out.txt`: /dev/stdout opened again was a new open file, at offset 0
    # (and truncating), so what the run printed before the report was lost and what it printed after overwrote the
    # report's start. The process's own descriptor is written through: the bytes follow one another.
    if not os.path.isdir("/dev/fd"):
        pytest.skip("no /dev/fd here")
    held = os.open(tmp / "captured.txt", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        os.write(held, b"printed before\n")
        writer.write(Path(f"/dev/fd/{held}"))
        os.write(held, b"printed after\n")
    finally:
        os.close(held)
    assert ((tmp / "captured.txt").read_text("utf-8"), _entries(tmp)) == (
        f"printed before\n{writer.text}printed after\n", ["captured.txt"])


def _owned_by_another(tmp: Path, writer: Writer) -> None:
    # A replaced file keeps its owner and group, as it keeps its mode, where the process may set them (root: a CI job
    # rewriting a report another user reads); the temporary file renamed over it was root's.
    if not hasattr(os, "chown") or os.geteuid() != 0:
        pytest.skip("only root may give a file to another user")
    (tmp / NAME).write_text(OLD, "utf-8")
    os.chown(tmp / NAME, 4321, 8765)
    (tmp / NAME).chmod(0o640)
    writer.write(tmp / NAME)
    status = (tmp / NAME).stat()
    assert ((tmp / NAME).read_text("utf-8"), status.st_uid, status.st_gid, stat.S_IMODE(status.st_mode),
            _entries(tmp)) == (writer.text, 4321, 8765, 0o640, [NAME])


def _fifo(tmp: Path, writer: Writer) -> None:
    # A file renamed over a device or a pipe replaced it (as root: /dev/stdout, /dev/full); a FIFO stands for them.
    os.mkfifo(tmp / NAME)
    heard: list[bytes] = []
    reader = threading.Thread(target=lambda: heard.append((tmp / NAME).read_bytes()), daemon=True)
    reader.start()
    try:
        writer.write(tmp / NAME)
    finally:
        reader.join(timeout=30)
    assert (heard, stat.S_ISFIFO(os.stat(tmp / NAME).st_mode), _entries(tmp)) == (
        [writer.text.encode()], True, [NAME])


def _missing_parent(tmp: Path, writer: Writer) -> None:
    writer.write(tmp / "a" / "b" / NAME)
    assert ((tmp / "a" / "b" / NAME).read_text("utf-8"), _entries(tmp / "a" / "b")) == (writer.text, [NAME])


TARGETS = {
    "new-file": _new_file,
    "existing-0640": _existing_0640,
    "symlink": _symlink,
    "symlink-to-missing": _symlink_to_missing,
    "hard-link": _hard_link,
    "dev-null": _dev_null,
    "dev-fd-of-a-file": _dev_fd_of_a_file,
    "dev-fd-between-writes": _dev_fd_between_writes,
    "owned-by-another": _owned_by_another,
    "fifo-with-a-reader": _fifo,
    "missing-parent": _missing_parent,
}
DEVICES = {"dev-null", "dev-fd-of-a-file", "dev-fd-between-writes"}


#: Every writer with every target it can be given: write_config writes a .tf.json file in a directory, never a device.
WRITER_TARGETS = [
    pytest.param(writer, target, id=f"{writer}-{target}")
    for writer in WRITERS
    for target in TARGETS
    if WRITERS[writer].devices or target not in DEVICES
]


@pytest.mark.parametrize(("writer", "target"), WRITER_TARGETS)
def test_each_writer_writes_each_target(tmp_path: Path, writer: str, target: str) -> None:
    TARGETS[target](tmp_path, WRITERS[writer])


# -- failures: each writer's words, and the old file intact ----------------------------------------------------------


def _expected(writer: Writer, path: Path, named: Path, code: int) -> str:
    return writer.message.format(path=path, named=named, reason=os.strerror(code), errno=code)


@pytest.mark.parametrize("below", [
    # The file's own directory is a file: it said "File exists", as if the file to write were there already.
    pytest.param("", id="parent"),
    pytest.param("sub", id="grandparent"),
])
@pytest.mark.parametrize("writer", WRITERS)
def test_a_parent_that_is_a_file_is_each_writers_error(tmp_path: Path, writer: str, below: str) -> None:
    (tmp_path / "file").write_text(OLD, "utf-8")
    path = tmp_path / "file" / below / NAME
    with pytest.raises(WRITERS[writer].error) as caught:
        WRITERS[writer].write(path)
    # The directory that cannot be made is named by the system's error.
    assert str(caught.value) == _expected(WRITERS[writer], path, path.parent, errno.ENOTDIR)
    assert ((tmp_path / "file").read_text("utf-8"), _entries(tmp_path)) == (OLD, ["file"])


class _FullDisk:
    """Every file opened while it is on refuses to be written to, as on a full disk (ENOSPC)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        real = io.open

        def opened(*args: Any, **kwargs: Any) -> Any:
            stream = real(*args, **kwargs)

            def refused(text: str) -> int:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

            stream.write = refused
            return stream

        monkeypatch.setattr(io, "open", opened)


@pytest.mark.parametrize("writer", WRITERS)
def test_a_full_disk_leaves_the_old_file_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, writer: str) -> None:
    # A --report (and the coverage data, the CLI configuration, mock-plan's --out) was written in place: the old file
    # was truncated, then half written, when the disk was full.
    path = tmp_path / NAME
    path.write_text(OLD, "utf-8")
    with monkeypatch.context() as patched:
        _FullDisk(patched)
        with pytest.raises(WRITERS[writer].error) as caught:
            WRITERS[writer].write(path)
    assert str(caught.value) == _expected(WRITERS[writer], path, path, errno.ENOSPC)
    assert (path.read_text("utf-8"), _entries(tmp_path)) == (OLD, [NAME])


def test_a_report_onto_a_full_disk_is_exit_2_and_the_old_report_stays(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    # Exit 2 said so, but the old report was gone and a truncated one was there for the next CI step to read.
    monkeypatch.chdir(tmp_path)
    Path("plan.json").write_text('{"format_version": "1.2", "resource_changes": []}', "utf-8")
    Path("checks.toml").write_text('[[check]]\ntype = "ExpectNoDestroys"\n', "utf-8")
    Path("r.json").write_text(OLD, "utf-8")
    out, err = io.StringIO(), io.StringIO()
    with monkeypatch.context() as patched:
        _FullDisk(patched)
        code = run(["plan.json", "-c", "checks.toml", "--report", "json=r.json"], stdout=out, stderr=err, environ={})
    assert (code, err.getvalue()) == (2, "tfplancheck: error: cannot write to the report file r.json: No space left on device\n")
    assert (Path("r.json").read_text("utf-8"), _entries(tmp_path)) == (OLD, ["checks.toml", "plan.json", "r.json"])


@pytest.mark.parametrize("writer", WRITERS)
def test_an_interrupted_write_leaves_the_old_file_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, writer: str,
) -> None:
    # Interrupted (Ctrl-C, or SIGTERM: plancheck._loading.lifecycle makes it a KeyboardInterrupt) once the new text is
    # written, before it is renamed into place.
    path = tmp_path / NAME
    path.write_text(OLD, "utf-8")

    def interrupted(descriptor: int) -> None:
        raise KeyboardInterrupt

    with monkeypatch.context() as patched:
        patched.setattr(os, "fsync", interrupted)
        with pytest.raises(KeyboardInterrupt):
            WRITERS[writer].write(path)
    assert (path.read_text("utf-8"), _entries(tmp_path)) == (OLD, [NAME])


def _synced(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What each fsync synced: "file" or "directory"."""
    synced: list[str] = []
    real = os.fsync

    def fsync(descriptor: int) -> None:
        synced.append("directory" if stat.S_ISDIR(os.fstat(descriptor).st_mode) else "file")
        real(descriptor)

    monkeypatch.setattr(os, "fsync", fsync)
    return synced


@pytest.mark.parametrize("existing", [False, True], ids=["new-file", "replaced-file"])
def test_the_directory_is_synced_after_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, existing: bool) -> None:
    # POSIX: a rename is durable once its directory is synced; the file's own fsync alone left a crash free to bring
    # the old file back (or none, for a new one).
    if existing:
        (tmp_path / NAME).write_text(OLD, "utf-8")
    synced = _synced(monkeypatch)
    write_whole(tmp_path / NAME, TEXT)
    assert (synced, (tmp_path / NAME).read_text("utf-8")) == (["file", "directory"], TEXT)


def test_a_directory_that_cannot_be_opened_is_not_synced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Where a directory cannot be opened (Windows), the file is written all the same, its directory left unsynced.
    synced = _synced(monkeypatch)
    real = os.open

    def refused(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if os.path.isdir(path):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
        return real(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refused)
    write_whole(tmp_path / NAME, TEXT)
    assert (synced, (tmp_path / NAME).read_text("utf-8"), _entries(tmp_path)) == (["file"], TEXT, [NAME])


# -- the one "regular file" test: the writer's and the --report clash check's ---------------------------------------


@pytest.mark.parametrize(("make", "expected"), [
    pytest.param(lambda tmp: tmp / "missing", None, id="missing"),
    pytest.param(lambda tmp: tmp / "link-to-missing", None, id="link-to-missing"),
    pytest.param(lambda tmp: tmp / "file", "regular", id="file"),
    pytest.param(lambda tmp: tmp / "link", "regular", id="link-to-file"),
    pytest.param(lambda tmp: tmp, False, id="directory"),
    pytest.param(lambda tmp: tmp / "fifo", False, id="fifo"),
    pytest.param(lambda tmp: Path("/dev/null"), False, id="device"),
])
def test_regular_file(tmp_path: Path, make: Callable[[Path], Path], expected: object) -> None:
    (tmp_path / "file").write_text(OLD, "utf-8")
    (tmp_path / "link").symlink_to("file")
    (tmp_path / "link-to-missing").symlink_to("missing")
    os.mkfifo(tmp_path / "fifo")
    status = regular_file(str(make(tmp_path)))
    if expected == "regular":
        assert isinstance(status, os.stat_result)
        assert status.st_ino == (tmp_path / "file").stat().st_ino
    else:
        assert status is expected


def test_regular_file_that_cannot_be_told_is_an_os_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text(OLD, "utf-8")
    with pytest.raises(NotADirectoryError) as caught:
        regular_file(str(tmp_path / "file" / "x"))
    assert str(caught.value) == f"[Errno 20] Not a directory: '{tmp_path / 'file' / 'x'}'"
