"""Red team of destroy_leftovers and ``tfplancheck destroy-leftovers`` (#25): whatever a leftover directory holds
(a damaged or hand-edited manifest, no usable terraform), each leftover is destroyed or kept with the reason,
never a traceback. Fast, with the scripted fake Terraform."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from acceptance_fakes import FakeTerraform, make_fake_terraform, rule

from plancheck.acceptance import (
    LeftoverRecordError,
    TerraformNotFoundError,
    destroy_leftovers,
    find_leftovers,
)
from plancheck.cli import main

WIDGET = "example.com/acme/widget"
NEEDS_WIDGET = (f"it needs the provider under test {WIDGET} served in this process: give "
                f"destroy_leftovers(providers={{{WIDGET!r}: factory}})")
NO_TERRAFORM = ("no terraform binary found: give terraform= (--terraform PATH), set $TF_ACC_TERRAFORM_PATH, "
                "or put terraform or tofu on PATH")


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeTerraform:
    made = make_fake_terraform(tmp_path / "bin")
    for key, value in made.env().items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("TF_ACC_TERRAFORM_PATH", str(made.path))
    return made


def leftover(root: Path, manifest: str, name: str = "20260101T000000Z-test_a-x1") -> Path:
    directory = root / name
    directory.mkdir(parents=True)
    (directory / "leftover.json").write_text(manifest)
    (directory / "main.tf").write_text("")
    return directory


def quiet(line: str) -> None:
    pass


MANIFESTS: list[Any] = [
    pytest.param(json.dumps({"providers_in_process": {WIDGET: 5}}), 0, NEEDS_WIDGET, id="provider-name-a-number"),
    pytest.param(json.dumps({"providers_in_process": {WIDGET: ""}}), 0, NEEDS_WIDGET, id="provider-name-empty"),
    pytest.param(json.dumps({"attempts": 5}), 1, "terraform destroy failed: Error: still there", id="attempts-a-number"),
    pytest.param(json.dumps({"attempts": "abc"}), 1, "terraform destroy failed: Error: still there",
                 id="attempts-a-string"),
    pytest.param(json.dumps({"terraform": {"path": 5}}), 0, None, id="terraform-path-a-number"),
    pytest.param(json.dumps({"terraform": {"path": "/bin/true"}}), 0, None, id="terraform-path-not-terraform"),
    pytest.param(json.dumps({"terraform": "x", "test": 7}), 0, None, id="fields-of-other-types"),
]


@pytest.mark.parametrize(("manifest", "destroy_exit", "problem"), MANIFESTS)
def test_a_hand_edited_manifest_is_destroyed_or_kept_never_a_crash(
    fake: FakeTerraform, tmp_path: Path, manifest: str, destroy_exit: int, problem: str | None
) -> None:
    """Before: RecursionError (deep nesting), AttributeError (a provider name that is a number), TypeError
    (attempts a number, once a destroy failed), TerraformNotFoundError out of the whole run (a recorded path
    that is not Terraform), each ending the run for every other leftover too."""
    fake.script(rule("destroy", responses=[{"exit": destroy_exit, "stderr": "Error: still there\n"}]))
    root = tmp_path / "leftovers"
    kept = leftover(root, manifest)
    result = destroy_leftovers(root, log=quiet)
    if problem is None:
        assert (result.destroyed, result.kept) == ([str(kept)], {})
        assert not kept.exists()
    else:
        assert (result.destroyed, result.kept) == ([], {str(kept): problem})
        if "attempts" in manifest:
            attempts = json.loads((kept / "leftover.json").read_text())["attempts"]
            assert [a["problem"] for a in attempts] == [problem]


UNREADABLE: list[Any] = [
    pytest.param("[" * 100000 + "]" * 100000, "not valid JSON: nested too deep", id="nested-too-deep-for-json.loads"),
    pytest.param("{damaged", "not valid JSON (line 1, column 2)", id="not-json"),
    pytest.param("", "not valid JSON (line 1, column 1)", id="empty"),
    pytest.param("[]", "expected a JSON object, got an array", id="an-array"),
    pytest.param('"x"', "expected a JSON object, got a string", id="a-string"),
    pytest.param("null", "expected a JSON object, got null", id="null"),
    pytest.param(b"\xff\xfe{", "not valid JSON", id="not-utf8"),
    # A hand edit or a merge that repeats a key: json.loads kept the last value and the leftover was destroyed by a
    # guess ("destroyed and removed"); the baseline and every document already refused a repeated key.
    pytest.param('{"terraform": "/a/terraform", "terraform": "/b/terraform"}',
                 "the key 'terraform' is given twice in one object (which of its values counts would be a guess)",
                 id="a-repeated-key"),
]


def _unreadable(kept: Path, problem: str) -> str:
    return (f"{kept / 'leftover.json'}: unreadable leftover record ({problem}); the leftover was neither "
            "destroyed nor removed: repair or remove it by hand")


@pytest.mark.parametrize(("manifest", "problem"), UNREADABLE)
def test_an_unreadable_record_is_reported_and_its_leftover_left_untouched(
    fake: FakeTerraform, tmp_path: Path, capsys: pytest.CaptureFixture[str], manifest: str | bytes, problem: str
) -> None:
    """Before: a record that was not a JSON object was read as an empty one, the leftover destroyed with whatever
    Terraform was found and no provider under test, "destroyed and removed", and the only copy of its state gone."""
    root = tmp_path / "leftovers"
    kept = leftover(root, "")
    (kept / "leftover.json").write_bytes(manifest.encode() if isinstance(manifest, str) else manifest)
    readable = leftover(root, "{}", name="20260102T000000Z-test_b-x2")
    before = (kept / "leftover.json").read_bytes()
    result = destroy_leftovers(root, log=quiet)
    assert (result.destroyed, result.kept, result.unreadable) == ([str(readable)], {}, {str(kept): _unreadable(kept, problem)})
    assert not result.ok
    assert sorted(p.name for p in kept.iterdir()) == ["leftover.json", "main.tf"]
    assert (kept / "leftover.json").read_bytes() == before  # no attempt recorded over it
    with pytest.raises(LeftoverRecordError) as info:
        find_leftovers(root)[0].require_record()
    assert (info.value.path, info.value.problem) == (str(kept / "leftover.json"), problem)
    assert isinstance(info.value, ValueError)
    assert main(["destroy-leftovers", str(root)]) == 2
    out, err = capsys.readouterr()
    assert f"[leftovers] {_unreadable(kept, problem)}" in out
    assert err == f"tfplancheck: error: {_unreadable(kept, problem)}\n"
    assert kept.exists()


def test_an_unreadable_record_fails_the_plugins_destroy_leftovers(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = pytester.path / "leftovers"
    kept = leftover(root, "{damaged")
    monkeypatch.setenv("TFPLANCHECK_LEFTOVERS_DIR", str(root))
    pytester.makepyfile(test_nothing="def test_never_runs():\n    raise AssertionError('tests must not run')\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "--tf-destroy-leftovers")
    assert result.ret == 1
    result.stdout.fnmatch_lines([
        f"*[[]leftovers] {_unreadable(kept, 'not valid JSON (line 1, column 2)')}*",
        f"*[[]leftovers] 0 leftover(s) kept in {root}, 1 with an unreadable record (untouched); 0 destroyed*",
    ])
    assert (kept / "leftover.json").read_text() == "{damaged"


def test_without_any_terraform_each_leftover_is_kept_saying_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: discover_terraform() gave None, and AcceptanceRunner(None, ...) raised a bare TypeError (a CLI traceback)."""
    monkeypatch.delenv("TF_ACC_TERRAFORM_PATH", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    root = tmp_path / "leftovers"
    kept = leftover(root, json.dumps({"terraform": {"path": str(tmp_path / "gone" / "terraform")}}))
    assert destroy_leftovers(root, log=quiet).kept == {str(kept): NO_TERRAFORM}
    assert main(["destroy-leftovers", str(root)]) == 1
    assert f"[leftovers] kept {kept}: {NO_TERRAFORM}" in capsys.readouterr().out


def test_a_named_terraform_that_cannot_be_used_fails_before_any_leftover(tmp_path: Path) -> None:
    root = tmp_path / "leftovers"
    leftover(root, "{}")
    with pytest.raises(TerraformNotFoundError):
        destroy_leftovers(root, terraform=tmp_path / "nope", log=quiet)
    assert [p.name for p in root.iterdir()] == ["20260101T000000Z-test_a-x1"]
    assert destroy_leftovers(tmp_path / "none", terraform=tmp_path / "nope", log=quiet).ok  # nothing to destroy


def test_a_file_given_as_the_leftovers_directory_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: 'tfplancheck: no leftovers', exit 0, for a mistyped path that is a file."""
    path = tmp_path / "leftover.json"
    path.write_text("{}")
    assert main(["destroy-leftovers", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"tfplancheck: error: {path} is not a directory (DIR is where the leftovers are kept)\n")


def test_a_link_in_the_leftovers_directory_is_not_followed(fake: FakeTerraform, tmp_path: Path) -> None:
    """Leftover directories are made there, never links: a link to another directory with a manifest (another
    project's leftover) was destroyed, and then 'removed' while the link stayed, to be destroyed again next time."""
    elsewhere = leftover(tmp_path / "elsewhere", "{}")
    root = tmp_path / "leftovers"
    root.mkdir()
    (root / "20260101T000000Z-linked-x2").symlink_to(elsewhere)
    assert find_leftovers(root) == []
    assert destroy_leftovers(root, log=quiet).destroyed == []
    assert fake.calls() == []
    assert elsewhere.exists()


def test_a_bad_timeout_is_refused_before_anything_runs(tmp_path: Path) -> None:
    leftover(tmp_path / "leftovers", "{}")
    with pytest.raises(ValueError, match="timeout -1: expected a number of seconds"):
        destroy_leftovers(tmp_path / "leftovers", timeout=-1, log=quiet)
    assert os.listdir(tmp_path / "leftovers") == ["20260101T000000Z-test_a-x1"]


# -- another project's leftovers -----------------------------------------------------------------------------


def manifest_of(base_dir: Path | None = None, **fields: Any) -> str:
    return json.dumps({"format": 1, "base_dir": None if base_dir is None else str(base_dir), "attempts": [], **fields})


def test_with_a_project_the_leftovers_of_tests_elsewhere_are_left_alone(fake: FakeTerraform, tmp_path: Path) -> None:
    root = tmp_path / "shared"
    ours = leftover(root, manifest_of(tmp_path / "a" / "tests"), "20260101T000000Z-ours-x1")
    theirs = leftover(root, manifest_of(tmp_path / "b" / "tests"), "20260101T000000Z-theirs-x2")
    unknown = leftover(root, manifest_of(), "20260101T000000Z-unknown-x3")
    lines: list[str] = []
    result = destroy_leftovers(root, project=tmp_path / "a", log=lines.append)
    assert (result.destroyed, result.kept, result.left_alone) == ([str(ours), str(unknown)], {}, [str(theirs)])
    assert result.ok
    assert f"[leftovers] left alone {theirs}: left by tests under {tmp_path / 'b' / 'tests'}, " \
           f"not this project's ({tmp_path / 'a'})" in lines
    assert json.loads((theirs / "leftover.json").read_text())["attempts"] == []
    assert sum(" ".join(c["args"]).startswith("destroy") for c in fake.calls()) == 2


PROVIDER_MODULE = "WidgetProvider = dict\n"


@pytest.fixture
def same_name_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A module ``rt_test_widgets`` of this project (imported) and one of the same name in another project."""
    here, there = tmp_path / "here", tmp_path / "there"
    for directory in (here, there):
        directory.mkdir()
        (directory / "rt_test_widgets.py").write_text(PROVIDER_MODULE)
    monkeypatch.syspath_prepend(str(here))
    monkeypatch.delitem(__import__("sys").modules, "rt_test_widgets", raising=False)
    return here / "rt_test_widgets.py", there / "rt_test_widgets.py"


@pytest.mark.parametrize("imported", [True, False], ids=["module-imported", "module-importable"])
def test_a_provider_is_never_taken_from_another_projects_module_of_the_same_name(
    fake: FakeTerraform, tmp_path: Path, same_name_module: tuple[Path, Path], imported: bool
) -> None:
    """The provider was resolved by module:qualname alone: another project's leftover got this project's
    provider of the same name (proven end to end in tests/e2e/test_leftovers_projects_e2e.py)."""
    here, there = same_name_module
    if imported:
        __import__("rt_test_widgets")
    root = tmp_path / "leftovers"
    kept = leftover(root, manifest_of(providers_in_process={WIDGET: "rt_test_widgets:WidgetProvider"},
                                      provider_files={WIDGET: str(there)}))
    result = destroy_leftovers(root, log=quiet)
    assert result.kept == {str(kept): f"{NEEDS_WIDGET} (it came from {there}; the module rt_test_widgets here is {here})"}
    assert fake.calls() == []


def test_a_provider_from_the_recorded_module_is_served(
    fake: FakeTerraform, tmp_path: Path, same_name_module: tuple[Path, Path]
) -> None:
    here, _there = same_name_module
    root = tmp_path / "leftovers"
    kept = leftover(root, manifest_of(providers_in_process={WIDGET: "rt_test_widgets:WidgetProvider"},
                                      provider_files={WIDGET: str(here)}))
    pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    [problem] = destroy_leftovers(root, log=quiet).kept.values()
    # Found and called: the stand-in (dict) is no tf provider, which is the next thing to go wrong.
    assert problem.startswith(f"cannot serve the providers: provider {WIDGET}: the factory returned a dict, not a tf provider")
    assert kept.exists()


def test_a_leftover_that_cannot_be_kept_whole_is_not_kept_in_part(
    fake: FakeTerraform, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A copy cut short (a full disk) left a directory with the state's secrets and no manifest, which no
    destroy-leftovers would ever find, and so never remove."""
    import shutil

    from plancheck._terraform.binary import TerraformBinary
    from plancheck.acceptance import AcceptanceError, AcceptanceRunner, TestCase, TestStep

    real = shutil.copyfile

    def full_disk(source: Any, target: Any, *args: Any, **kwargs: Any) -> Any:
        if str(target).endswith("terraform.tfvars.json"):
            raise OSError(28, "No space left on device")
        return real(source, target, *args, **kwargs)

    fake.script(rule("destroy", responses=[{"exit": 1, "stderr": "Error: still there\n"}]),
                rule("show", "-json", "tfplan", responses=[{"stdout": '{"format_version": "1.2"}'}]),
                rule("show", "-json", responses=[{"stdout": '{"format_version": "1.0"}'}]))
    monkeypatch.setattr(shutil, "copyfile", full_disk)
    leftovers = tmp_path / "leftovers"
    runner = AcceptanceRunner(TerraformBinary(str(fake.path), "1.9.0"), tmp_path / "work", echo=False,
                              require_tf_acc=False, leftovers_dir=leftovers)
    with pytest.raises(AcceptanceError) as info:
        runner.run(TestCase(steps=[TestStep(config='variable "v" {}\n', variables={"v": "x"})]))
    assert "; resources may be left behind in " in str(info.value)
    assert "(could not keep them: " in str(info.value)
    assert list(leftovers.iterdir()) == []


def test_the_plugin_says_so_when_the_leftovers_directory_is_a_file(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: '0 leftover(s) destroyed; nothing is left in FILE', a pass, for a mistyped TFPLANCHECK_LEFTOVERS_DIR."""
    path = pytester.path / "leftovers.txt"
    path.write_text("")
    monkeypatch.setenv("TFPLANCHECK_LEFTOVERS_DIR", str(path))
    pytester.makepyfile(test_nothing="def test_never_runs():\n    raise AssertionError('tests must not run')\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "--tf-destroy-leftovers")
    assert result.ret == 1
    result.stdout.fnmatch_lines([
        f"*[[]leftovers] {path} is not a directory: it is where leftovers are kept ($TFPLANCHECK_LEFTOVERS_DIR?)*"])


INTERRUPTED_DESTROY = """#!/bin/sh
case "$1" in
  destroy) kill -USR1 $PPID; sleep 30; exit 1;;
  show) if [ "$3" = tfplan ]; then echo '{"format_version": "1.2"}'; else echo '{"format_version": "1.0"}'; fi;;
esac
exit 0
"""


def test_an_interrupted_destroy_keeps_a_leftover(tmp_path: Path) -> None:
    """A Ctrl-C during the post-test destroy (simulated: the destroy signals the test process, whose handler raises
    KeyboardInterrupt) left nothing kept: the case's directory, the only record of what was not destroyed yet, went
    with pytest's temporary directories."""
    import signal

    from plancheck._terraform.binary import TerraformBinary
    from plancheck.acceptance import AcceptanceRunner, TestCase, TestStep

    binary = tmp_path / "terraform"
    binary.write_text(INTERRUPTED_DESTROY)
    binary.chmod(0o755)

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGUSR1, interrupt)
    except ValueError:
        pytest.skip("signal handlers are the main thread's")
    leftovers = tmp_path / "leftovers"
    runner = AcceptanceRunner(TerraformBinary(str(binary), "1.9.0"), tmp_path / "work", echo=False,
                              require_tf_acc=False, leftovers_dir=leftovers, test_name="test_interrupted")
    try:
        with pytest.raises(KeyboardInterrupt) as info:
            runner.run(TestCase(steps=[TestStep(config='output "x" {\n  value = 1\n}\n')]))
    finally:
        signal.signal(signal.SIGUSR1, previous)
    [kept] = find_leftovers(leftovers)
    assert kept.manifest["reason"] == "the post-test destroy was interrupted"
    assert info.value.__notes__ == [
        f"the post-test destroy was interrupted; its state and configuration are kept in {kept.path}; destroy them "
        f"later with: tfplancheck destroy-leftovers {leftovers}"
    ]
