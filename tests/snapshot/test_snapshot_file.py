"""assert_matches: create, compare, update; files written atomically, never half, and kept canonical."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from snapshot_support import change, plan_of

from plancheck import snapshot
from plancheck.snapshot import SnapshotFormatError, SnapshotMismatchError, SnapshotMissingError

PLAN = plan_of(change("a.b", ["create"], {"id": "1", "tags": {}}))
CHANGED = plan_of(change("a.b", ["create"], {"id": "2", "tags": {}}))


def test_create_compare_update(tmp_path: Path) -> None:
    file = tmp_path / "snapshots" / "plan.snap"  # the directory is made
    with pytest.raises(SnapshotMissingError):
        snapshot.assert_matches(PLAN, file)
    snapshot.assert_matches(PLAN, file, update=True)
    assert file.read_text(encoding="utf-8") == snapshot.render(PLAN, key=None)
    snapshot.assert_matches(PLAN, str(file))  # a str names the file too
    with pytest.raises(SnapshotMismatchError) as info:
        snapshot.assert_matches(CHANGED, file)
    assert info.value.lines == ('a.b: id: "1" -> "2"',)
    snapshot.assert_matches(CHANGED, file, update=True)
    snapshot.assert_matches(CHANGED, file)
    assert file.read_text(encoding="utf-8") == snapshot.render(CHANGED, key=None)
    assert sorted(p.name for p in file.parent.iterdir()) == ["plan.snap"]  # no temporary file left


def test_a_hand_edited_file_that_says_the_same_passes_and_update_makes_it_canonical(tmp_path: Path) -> None:
    file = tmp_path / "plan.snap"
    text = snapshot.render(PLAN, key=None)
    edited = text.replace('  id = "1"\n', '    id   =   "\\u0031"\n# reviewed\n')
    file.write_text(edited, encoding="utf-8")
    snapshot.assert_matches(PLAN, file)
    assert file.read_text(encoding="utf-8") == edited  # compared, not rewritten
    snapshot.assert_matches(PLAN, file, update=True)
    assert file.read_text(encoding="utf-8") == text


def test_a_snapshot_edited_into_a_bad_state_is_an_error_then_replaced_on_update(tmp_path: Path) -> None:
    file = tmp_path / "plan.snap"
    file.write_text(snapshot.render(PLAN, key=None).replace('"1"', "1'"), encoding="utf-8")
    with pytest.raises(SnapshotFormatError, match=r"plan\.snap:6: expected a value"):
        snapshot.assert_matches(PLAN, file)
    snapshot.assert_matches(PLAN, file, update=True)
    snapshot.assert_matches(PLAN, file)


def test_the_file_mode_is_kept_on_update(tmp_path: Path) -> None:
    file = tmp_path / "plan.snap"
    snapshot.assert_matches(PLAN, file, update=True)
    assert file.stat().st_mode & 0o777 == 0o644
    file.chmod(0o600)
    snapshot.assert_matches(CHANGED, file, update=True)
    assert file.stat().st_mode & 0o777 == 0o600


def test_a_write_that_fails_half_way_leaves_the_old_snapshot_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = tmp_path / "plan.snap"
    snapshot.assert_matches(PLAN, file, update=True)
    before = file.read_bytes()

    def crash(*_args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", crash)
    with pytest.raises(SnapshotFormatError, match=r"plan\.snap: expected a snapshot file that can be written, "
                                                   r"found No space left on device$"):
        snapshot.assert_matches(CHANGED, file, update=True)
    assert file.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan.snap"]

    monkeypatch.undo()

    def interrupt(*_args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupt)
    with pytest.raises(KeyboardInterrupt):
        snapshot.assert_matches(CHANGED, file, update=True)
    assert file.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan.snap"]


def test_a_file_written_with_a_key_compares_without_it_and_the_other_way(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    secret_plan = plan_of(change("a.b", ["create"], {"pw": "hunter2"}, None, {"pw": True}))
    changed_secret = plan_of(change("a.b", ["create"], {"pw": "hunter3"}, None, {"pw": True}))
    file = tmp_path / "plan.snap"
    monkeypatch.setenv("TFPLANCHECK_SNAPSHOT_KEY", "ci-secret-key-0123456789")
    snapshot.assert_matches(secret_plan, file, update=True)
    assert "(sensitive #" in file.read_text(encoding="utf-8")
    with pytest.raises(SnapshotMismatchError) as info:
        snapshot.assert_matches(changed_secret, file)
    assert info.value.lines == ("a.b: pw: (sensitive) -> (sensitive, changed)",)
    monkeypatch.delenv("TFPLANCHECK_SNAPSHOT_KEY")
    snapshot.assert_matches(changed_secret, file)  # a developer without the CI key: nothing to compare the secret by
    snapshot.assert_matches(secret_plan, file, key="ci-secret-key-0123456789")
