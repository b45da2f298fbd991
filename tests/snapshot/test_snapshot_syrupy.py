"""PlanSnapshotExtension in real pytest sessions (pytester): create, compare equal, compare different, update;
the failure shows review comments, and a planted secret shows nowhere, under any verbosity."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("syrupy", reason="the snapshot extra (syrupy) is not installed")

# Imported here, outside the inner sessions: pytester restores sys.modules after each in-process run.
from plancheck.snapshot import PlanSnapshotExtension

PLUGIN_DIR = Path(__file__).resolve().parents[1] / "plugin"
sys.path.insert(0, str(PLUGIN_DIR))
from plugin_support import QUIET_PLUGINS, SECRETS, secret_plan, write_json  # noqa: E402

INNER = """
import pytest
from plancheck import Resources, load_plan
from plancheck.snapshot import PlanSnapshotExtension

IGNORING = PlanSnapshotExtension.ignoring('triggers["build"]', Resources(type="random_*"))


def test_plan(snapshot):
    assert snapshot(extension_class=PlanSnapshotExtension) == load_plan("plan.json")


def test_plan_ignoring(snapshot):
    assert snapshot(extension_class=IGNORING) == load_plan("plan.json")
"""
SNAPSHOT_DIR = Path("__snapshots__") / "test_inner"


def _plan(name: str = "web", secret_suffix: str = "", build: str = "1") -> dict[str, Any]:
    document = secret_plan()
    after = document["resource_changes"][0]["change"]["after"]
    after["triggers"].update(name=name, build=build)
    if secret_suffix:
        text = json.dumps(document)
        for secret in SECRETS:
            text = text.replace(secret, secret + secret_suffix)
        document = json.loads(text)
    document["resource_changes"].append({
        "address": "random_id.r", "mode": "managed", "type": "random_id", "name": "r",
        "change": {"actions": ["create"], "before": None, "after": {"byte_length": 4}, "after_unknown": {"hex": True}},
    })
    return document


@pytest.fixture(autouse=True)
def _not_an_xdist_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """Inner sessions are sessions of their own: under xdist, syrupy would take them for workers and say nothing."""
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(test_inner=INNER)
    write_json(pytester.path / "plan.json", _plan())
    return pytester


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest(*QUIET_PLUGINS, "-p", "no:randomly", *args)


def all_output(result: pytest.RunResult) -> str:
    return "\n".join(result.outlines + result.errlines)


def test_create_compare_differ_update(project: pytest.Pytester) -> None:
    missing = run(project)
    missing.assert_outcomes(failed=2)
    assert "Snapshot 'test_plan' does not exist! (write it with --snapshot-update)" in all_output(missing)

    created = run(project, "--snapshot-update")
    created.assert_outcomes(passed=2)
    stored = project.path / SNAPSHOT_DIR / "test_plan.tfplan.snap"
    assert stored.read_text(encoding="utf-8").startswith("# tfplancheck plan snapshot 1\n")
    assert 'triggers["build"] = "1"' in stored.read_text(encoding="utf-8")
    ignoring = (project.path / SNAPSHOT_DIR / "test_plan_ignoring.tfplan.snap").read_text(encoding="utf-8")
    assert "build" not in ignoring
    assert "random_id" not in ignoring

    run(project).assert_outcomes(passed=2)

    write_json(project.path / "plan.json", _plan(build="2"))
    only_build = run(project)
    only_build.assert_outcomes(failed=1, passed=1)  # the ignoring snapshot does not see the build number
    assert 'null_resource.a: triggers["build"]: "1" -> "2"' in all_output(only_build)

    write_json(project.path / "plan.json", _plan(name="api", secret_suffix="-rotated", build="2"))
    for flags in ((), ("-vv",), ("-vv", "--showlocals", "-rA"), ("--tb=native",)):
        differ = run(project, *flags)
        differ.assert_outcomes(failed=2)
        text = all_output(differ)
        assert "[- snapshot] == [+ received]" in text
        assert 'null_resource.a: triggers["build"]: "1" -> "2"' in text
        assert 'null_resource.a: triggers["name"]: "web" -> "api"' in text
        assert "@@" not in text
        assert "+   " not in text
        for secret in SECRETS:
            assert secret not in text, flags

    updated = run(project, "--snapshot-update")
    updated.assert_outcomes(passed=2)
    assert "2 snapshots updated" in all_output(updated)
    run(project).assert_outcomes(passed=2)
    stored_text = stored.read_text(encoding="utf-8")
    assert 'triggers["name"] = "api"' in stored_text
    for secret in SECRETS:
        assert secret not in stored_text
        assert secret + "-rotated" not in stored_text


def test_with_a_key_a_changed_secret_shows_as_changed(project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TFPLANCHECK_SNAPSHOT_KEY", "pytest-ci-secret-0123456789")
    run(project, "--snapshot-update").assert_outcomes(passed=2)
    write_json(project.path / "plan.json", _plan(secret_suffix="-rotated"))
    result = run(project, "-vv")
    result.assert_outcomes(failed=2)
    text = all_output(result)
    assert 'null_resource.a: triggers["secret"]: (sensitive) -> (sensitive, changed)' in text
    assert "output.pw: value: (sensitive) -> (sensitive, changed)" in text
    assert "#" not in "".join(line for line in result.outlines if "-> (sensitive" in line)  # no fingerprint shown
    for secret in SECRETS:
        assert secret not in text


def test_a_stored_file_that_is_no_snapshot_fails_with_its_location(project: pytest.Pytester) -> None:
    run(project, "--snapshot-update").assert_outcomes(passed=2)
    stored = project.path / SNAPSHOT_DIR / "test_plan.tfplan.snap"
    stored.write_text(stored.read_text(encoding="utf-8").replace("  action: create", "  action create", 1),
                      encoding="utf-8")
    result = run(project, "-k", "test_plan and not ignoring")
    result.assert_outcomes(failed=1)
    assert f"{stored}:5: expected a line 'NAME: TEXT'" in all_output(result)


def test_something_else_than_a_plan_is_refused(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_other="""
from plancheck.snapshot import PlanSnapshotExtension

def test_dict(snapshot):
    assert snapshot(extension_class=PlanSnapshotExtension) == {"format_version": "1.2", "secret": "zz-not-shown"}
""")
    result = run(pytester, "--snapshot-update")
    result.assert_outcomes(failed=1)
    assert "PlanSnapshotExtension snapshots a plancheck.Plan, got dict (load it with plancheck.load_plan)" in (
        all_output(result)
    )


def test_without_syrupy_the_package_imports_and_the_extension_names_the_extra() -> None:
    code = (
        "import sys\n"
        "sys.modules['syrupy'] = None\n"
        "import plancheck.snapshot as s\n"
        "print(s.render.__module__)\n"
        "try:\n"
        "    from plancheck.snapshot import PlanSnapshotExtension\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "plancheck.snapshot",
        "plancheck.snapshot.PlanSnapshotExtension needs syrupy: pip install 'tfplancheck[snapshot]'",
    ]


def test_the_extension_is_a_syrupy_single_file_extension_named_by_its_public_module() -> None:
    from syrupy.extensions.single_file import SingleFileSnapshotExtension

    assert issubclass(PlanSnapshotExtension, SingleFileSnapshotExtension)
    assert PlanSnapshotExtension.__module__ == "plancheck.snapshot"
    assert PlanSnapshotExtension.file_extension == "tfplan.snap"


def test_the_extension_s_docstring_examples_run() -> None:
    """Its doctests are not collected with --doctest-modules: the class is imported on first use."""
    import doctest

    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = [t for item in (PlanSnapshotExtension, PlanSnapshotExtension.ignoring)
             for t in finder.find(item, item.__name__, globs={"PlanSnapshotExtension": PlanSnapshotExtension})
             if t.examples]
    assert len(tests) == 2
    for test in tests:
        runner.run(test)
    assert runner.failures == 0


# -- issue #33: file names no collection pattern matches; an unreadable file fails its test, and update repairs it --


def _conflicted(text: str) -> str:
    """``text`` as a merge leaves it when both branches changed its first value line."""
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if " = " in line)
    return "\n".join([*lines[:at], "<<<<<<< HEAD", lines[at], "=======", lines[at] + "0", ">>>>>>> other", *lines[at + 1:]])


_CONFLICT = ("test_plan.tfplan.snap:6: expected a block header (resource ADDRESS, invocation ADDRESS (TRIGGER) or "
             "output NAME), an indented line "
             "of a block, a comment (#) or a blank line, found '<<<<<<< HEAD'; rewrite it with --snapshot-update")
#: (id, the stored file's name, what it holds): each fails only its own test, and --snapshot-update rewrites it
#: as test_plan.tfplan.snap (removing a .tfplan.txt file).
UNREADABLE = [
    ("conflicted", "test_plan.tfplan.snap", "conflict", _CONFLICT),
    ("conflicted-old-name", "test_plan.tfplan.txt", "conflict", _CONFLICT),
    ("binary", "test_plan.tfplan.snap", "binary",
     "test_plan.tfplan.snap:1: expected UTF-8 text, found binary data; rewrite it with --snapshot-update"),
]


@pytest.mark.parametrize(("name", "content", "message"), [u[1:] for u in UNREADABLE], ids=[u[0] for u in UNREADABLE])
def test_an_unreadable_snapshot_fails_its_test_and_update_rewrites_it(
    project: pytest.Pytester, name: str, content: str, message: str,
) -> None:
    run(project, "--snapshot-update").assert_outcomes(passed=2)
    fresh = project.path / SNAPSHOT_DIR / "test_plan.tfplan.snap"
    good = fresh.read_text(encoding="utf-8")
    fresh.unlink()
    stored = project.path / SNAPSHOT_DIR / name
    if content == "binary":
        stored.write_bytes(b"\x00\x01 not text")
    else:
        stored.write_text(_conflicted(good), encoding="utf-8")
    for flags in ((), ("--doctest-glob=*.txt",)):
        result = run(project, *flags)
        result.assert_outcomes(failed=1, passed=1)
        text = all_output(result)
        assert "during collection" not in text
        assert "INTERNALERROR" not in text
        assert message in text
        assert "rewrite it with --snapshot-update" in text
    repaired = run(project, "--snapshot-update")
    repaired.assert_outcomes(passed=2)
    assert fresh.read_text(encoding="utf-8") == good
    assert sorted(p.name for p in (project.path / SNAPSHOT_DIR).iterdir()) == [
        "test_plan.tfplan.snap", "test_plan_ignoring.tfplan.snap"]
    run(project).assert_outcomes(passed=2)


def test_a_snapshot_under_its_old_name_is_renamed_as_it_is_read(project: pytest.Pytester) -> None:
    """Read where it is, syrupy took it for an unused snapshot: the session failed, and --snapshot-update deleted it."""
    run(project, "--snapshot-update").assert_outcomes(passed=2)
    directory = project.path / SNAPSHOT_DIR
    new = directory / "test_plan.tfplan.snap"
    text = new.read_text(encoding="utf-8")
    old = directory / "test_plan.tfplan.txt"
    new.rename(old)
    result = run(project)
    result.assert_outcomes(passed=2)
    assert result.ret == 0
    assert "unused" not in all_output(result)
    assert not old.exists()
    assert new.read_text(encoding="utf-8") == text
    new.rename(old)
    write_json(project.path / "plan.json", _plan(build="2"))
    differs = run(project)
    differs.assert_outcomes(failed=1, passed=1)
    assert 'null_resource.a: triggers["build"]: "1" -> "2"' in all_output(differs)
    run(project, "--snapshot-update").assert_outcomes(passed=2)
    assert not old.exists()
    assert 'triggers["build"] = "2"' in new.read_text(encoding="utf-8")
