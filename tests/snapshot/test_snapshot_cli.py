"""``tfplancheck snapshot PLAN FILE``: exit 0 same, 1 different (review comments printed), 2 bad input, in one
line and never a traceback; no secret in any output."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import clirun
import pytest
from clirun import Ran
from snapshot_support import PLANTED, secret_document

from plancheck.snapshot._api import write_snapshot_file

KEY = "cli-ci-secret-0123456789abcdef"


def cli(*argv: str, stdin: bytes | None = None, **environ: str) -> Ran:
    """A run in the caller's environment without a snapshot key or size limit, plus ``environ``."""
    env = {k: v for k, v in os.environ.items() if k not in ("TFPLANCHECK_SNAPSHOT_KEY", "PLANCHECK_MAX_BYTES")}
    return clirun.cli(*argv, stdin=stdin, environ={**env, **environ}, never=PLANTED.values())


def _document(name: str = "db", password: str | None = None) -> dict[str, Any]:
    document = secret_document()
    after = document["resource_changes"][0]["change"]["after"]
    after["name"] = name
    if password is not None:
        after["password"] = password
    return document


@pytest.fixture
def plan_file(tmp_path: Path) -> Path:
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(_document()), encoding="utf-8")
    return path


def test_write_compare_differ_update(tmp_path: Path, plan_file: Path) -> None:
    snap = tmp_path / "plan.snap"
    assert cli("snapshot", str(plan_file), str(snap)) == (
        2, "", f"tfplancheck: error: {snap}: no snapshot yet: write it with --update\n")
    assert cli("snapshot", str(plan_file), str(snap), "--update") == (0, f"{snap}: wrote the snapshot\n", "")
    assert cli("snapshot", str(plan_file), str(snap)) == (0, f"{snap}: the plan matches its snapshot\n", "")
    plan_file.write_text(json.dumps(_document(name="db2")), encoding="utf-8")
    assert cli("snapshot", str(plan_file), str(snap)) == (1, (
        'aws_db_instance.db: name: "db" -> "db2"\n'
        f"{snap}: the plan differs from its snapshot (1 difference; accept them with --update)\n"), "")
    assert cli("snapshot", str(plan_file), str(snap), "--update") == (0, (
        'aws_db_instance.db: name: "db" -> "db2"\n'
        f"{snap}: updated the snapshot (1 difference)\n"), "")
    assert cli("snapshot", str(plan_file), str(snap))[0] == 0


def test_update_through_a_link_rewrites_the_file_it_names_and_keeps_the_link(tmp_path: Path, plan_file: Path) -> None:
    # The snapshot was a temporary file renamed over the link: the link became a file, the file it named kept the old.
    (tmp_path / "snaps").mkdir()
    shared = tmp_path / "snaps" / "plan.snap"
    link = tmp_path / "plan.snap"
    link.symlink_to("snaps/plan.snap")
    assert cli("snapshot", str(plan_file), str(link), "--update") == (0, f"{link}: wrote the snapshot\n", "")
    assert (link.is_symlink(), shared.read_text("utf-8").startswith("# tfplancheck plan snapshot 1")) == (True, True)


def test_a_snapshot_written_to_a_pipe_is_written_into_it(tmp_path: Path) -> None:
    # A file renamed over a device or a pipe replaced it (as root: /dev/stdout, /dev/full); a FIFO stands for them.
    fifo = tmp_path / "plan.snap"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_snapshot_file(fifo, "# tfplancheck plan snapshot 1\n")
        assert (stat.S_ISFIFO(os.stat(fifo).st_mode), os.read(reader, 100)) == (True, b"# tfplancheck plan snapshot 1\n")
    finally:
        os.close(reader)


def test_the_plan_on_stdin_and_ignore_specs(tmp_path: Path, plan_file: Path) -> None:
    snap = tmp_path / "plan.snap"
    data = plan_file.read_bytes()
    ignore = ["--ignore", "name", "--ignore", "type=terraform_data", "--ignore", "mode=data,path=path"]
    assert cli("snapshot", "-", str(snap), "--update", *ignore, stdin=data)[0] == 0
    text = snap.read_text(encoding="utf-8")
    assert "name =" not in text
    assert "terraform_data" not in text
    assert 'path = "kv/db"' not in text
    plan_file.write_text(json.dumps(_document(name="other")), encoding="utf-8")
    assert cli("snapshot", str(plan_file), str(snap), *ignore)[0] == 0


def test_a_key_in_the_environment_shows_a_changed_secret(tmp_path: Path, plan_file: Path) -> None:
    snap = tmp_path / "plan.snap"
    assert cli("snapshot", str(plan_file), str(snap), "--update", TFPLANCHECK_SNAPSHOT_KEY=KEY)[0] == 0
    plan_file.write_text(json.dumps(_document(password="rotated-Zq81xw")), encoding="utf-8")
    assert cli("snapshot", str(plan_file), str(snap))[0] == 0  # without the key, nothing tells
    status, out, _ = cli("snapshot", str(plan_file), str(snap), TFPLANCHECK_SNAPSHOT_KEY=KEY)
    assert status == 1
    assert out.splitlines()[0] == "aws_db_instance.db: password: (sensitive) -> (sensitive, changed)"
    assert "rotated-Zq81xw" not in out


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, plan_file: Path) -> None:
    snap = tmp_path / "plan.snap"
    assert cli("snapshot", str(plan_file), str(snap), "--update")[0] == 0
    binary = tmp_path / "binary.snap"
    binary.write_bytes(b"\x00\x01")
    edited = tmp_path / "edited.snap"
    edited.write_text(snap.read_text(encoding="utf-8").replace("  action: update", "  action update"), encoding="utf-8")
    large = tmp_path / "large.snap"
    limit = plan_file.stat().st_size
    large.write_text(snap.read_text(encoding="utf-8") + "# padding\n" * limit, encoding="utf-8")
    bad_plan = tmp_path / "bad.json"
    bad_plan.write_text('{"format_version": 1}', encoding="utf-8")
    cases = [
        (["snapshot", str(plan_file), str(edited)],
         f"tfplancheck: error: {edited}:5: expected a line 'NAME: TEXT' (action, reason, moved from, deferred, "
         "identity, replace, after) or 'PATH = VALUE', found '  action update'", {}),
        (["snapshot", str(plan_file), str(binary)], f"tfplancheck: error: {binary}:1: expected UTF-8 text, "
         "found binary data", {}),
        (["snapshot", str(plan_file), str(plan_file)], f"tfplancheck: error: {plan_file}:1: expected the header line "
         "'# tfplancheck plan snapshot 1', found a JSON document (a plan, not its snapshot?)", {}),
        (["snapshot", str(plan_file), str(snap), "--max-bytes", "10"],
         f"tfplancheck: error: {plan_file}: the plan is larger than 10 bytes (raise the limit with --max-bytes "
         "or PLANCHECK_MAX_BYTES)", {}),
        (["snapshot", str(plan_file), str(large)],
         f"tfplancheck: error: {large}: expected a snapshot of at most {limit} bytes (raise the limit with "
         "PLANCHECK_MAX_BYTES), found a larger file", {"PLANCHECK_MAX_BYTES": str(limit)}),
        (["snapshot", str(plan_file), str(snap), "--ignore", "a["],
         "tfplancheck: error: --ignore 'a[' is neither a path (expected an index or a quoted key at offset 2, found "
         "the end of the text) nor a selector FIELD=VALUE[,FIELD=VALUE...][,path=PATH] with fields type, module, "
         "address, mode, provider, action", {}),
        (["snapshot", str(plan_file), str(snap), "--ignore", "mode=resource"],
         "tfplancheck: error: --ignore 'mode=resource': mode must be 'managed' or 'data', got 'resource'", {}),
        (["snapshot", str(plan_file), str(snap)],
         "tfplancheck: error: plancheck.snapshot: a fingerprint key ($TFPLANCHECK_SNAPSHOT_KEY) must be at least "
         "16 bytes long, got 5 (use a random CI secret)", {"TFPLANCHECK_SNAPSHOT_KEY": "short"}),
        (["snapshot", str(tmp_path / "none.json"), str(snap)],
         f"tfplancheck: error: {tmp_path / 'none.json'}: cannot read the plan: No such file or directory", {}),
        (["snapshot", str(bad_plan), str(snap)],
         f"tfplancheck: error: {bad_plan}: $.format_version: expected a plan format version 0.x or 1.x (plancheck "
         "reads terraform show -json plans of major format version 0 and 1), found a number", {}),
        (["snapshot", str(plan_file)], "tfplancheck: error: the following arguments are required: FILE", {}),
    ]
    for argv, message, environ in cases:
        status, out, err = cli(*argv, **environ)
        assert (status, out) == (2, ""), (argv, err)
        assert err.splitlines()[0] == message, argv


def test_the_installed_program_exits_2_without_a_traceback(tmp_path: Path, plan_file: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "plancheck", "snapshot", str(plan_file), str(tmp_path / "x.snap")],
                          capture_output=True, text=True, timeout=120, check=False,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 2
    assert done.stderr == f"tfplancheck: error: {tmp_path / 'x.snap'}: no snapshot yet: write it with --update\n"


def test_help_describes_the_command() -> None:
    status, out, _ = cli("snapshot", "--help")
    assert status == 0
    assert out.startswith("usage: tfplancheck snapshot [-h] [--update] [--ignore PATH_OR_SELECTOR]")
    assert "TFPLANCHECK_SNAPSHOT_KEY" in out
    assert "exit status: 0 the plan matches" in out
