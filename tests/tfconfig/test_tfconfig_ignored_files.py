"""A module directory is read as Terraform reads it: hidden files and editor leftovers are skipped."""

from __future__ import annotations

from pathlib import Path

import pytest

from plancheck.tfconfig import load_config

GARBAGE = "{ this is not JSON"


@pytest.mark.parametrize(
    ("name", "read"),
    [
        pytest.param(".hidden.tf.json", False, id="hidden"),
        pytest.param(".override.tf.json", False, id="hidden-override"),
        pytest.param("main.tf.json~", False, id="vim-backup"),
        pytest.param("#main.tf.json#", False, id="emacs-autosave"),
        pytest.param("#main.tf.json", True, id="hash-prefix-only-is-read"),
        pytest.param("extra.tf.json", True, id="ordinary"),
    ],
)
@pytest.mark.parametrize("flavor", ["terraform", "opentofu"])
def test_which_files_a_directory_holds(tmp_path: Path, name: str, read: bool, flavor: str) -> None:
    (tmp_path / "main.tf.json").write_text('{"variable": {"x": {}}}', encoding="utf-8")
    (tmp_path / name).write_text('{"variable": {"y": {}}}' if read else GARBAGE, encoding="utf-8")
    config = load_config(tmp_path, flavor=flavor)  # type: ignore[arg-type]
    assert sorted(config.variables) == (["x", "y"] if read else ["x"])
    assert (str(tmp_path / name) in config.skipped_files) is not read
