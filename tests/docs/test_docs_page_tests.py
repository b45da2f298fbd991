"""Every test function a docs page shows runs, as a reader would run it, and does what the page says.

A page's Python blocks run in tests/docs/test_docs_examples.py, which only *defines* a ``def test_...``;
three of them (the first plan check's pytest test, the snapshot test, the upgrade test) ran nowhere, so a
change that broke them would have gone unseen. The acceptance examples run on real Terraform in
tests/e2e/test_readme_examples_e2e.py; the pytest ones run here, each page's blocks pasted into a test
file of a project of its own; the guard below keeps a new example from joining the unrun.
"""

from __future__ import annotations

import json
import re

import pytest
from docs_site import ROOT
from test_docs_examples import pages, python_blocks

#: The pages whose blocks run whole in a pytest session of their own (here, and the plugin page in
#: test_docs_first_hour.py), so every test they define runs.
PAGES_RUN_WHOLE = ("first-plan-check.md", "pytest-plugin.md", "snapshots.md")
E2E = ROOT / "tests" / "e2e" / "test_readme_examples_e2e.py"
#: A planted secret: the snapshot test must never write or print it.
SECRET = "correct-horse-battery-7f3a"


def _defined_tests() -> dict[str, str]:
    """Each test function a docs block (or the README's) defines, with the page that defines it."""
    return {
        name: page.name
        for page in pages()
        for _, code in python_blocks(page)
        for name in re.findall(r"^def (test_\w+)\(", code, re.M)
    }


def _pytest_blocks(page: str) -> list[str]:
    """The Python blocks of a docs page that hold a pytest test (the others are scripts)."""
    path = next(p for p in pages() if p.name == page)
    return [code for _, code in python_blocks(path) if re.search(r"^def test_", code, re.M)]


def test_every_test_a_page_defines_runs() -> None:
    run_on_terraform = set(re.findall(r'"(test_\w+)"', E2E.read_text(encoding="utf-8")))
    unrun = {name: page for name, page in _defined_tests().items()
             if name not in run_on_terraform and page not in PAGES_RUN_WHOLE}
    assert unrun == {}, "run each in tests/e2e/test_readme_examples_e2e.py, or its page whole here"


def _first_plan_check_plan() -> str:
    """The plan the first-plan-check page loads inline (``Plan.from_json(\"\"\"...\"\"\")``), as JSON text."""
    page = ROOT / "docs" / "getting-started" / "first-plan-check.md"
    found = re.search(r'Plan\.from_json\("""(.*?)"""\)', page.read_text(encoding="utf-8"), re.S)
    assert found is not None
    return found.group(1)


def test_the_first_plan_checks_pytest_test_passes_on_the_pages_plan(pytester: pytest.Pytester) -> None:
    # The page says "in your project it is load_plan("plan.json")": its pytest test, on that plan, passes.
    (test,) = _pytest_blocks("first-plan-check.md")
    pytester.mkdir("tests")
    (pytester.path / "tests" / "plan.json").write_text(_first_plan_check_plan(), encoding="utf-8")
    (pytester.path / "tests" / "test_plan.py").write_text(test, encoding="utf-8")
    result = pytester.runpytest("-p", "no:cacheprovider", "tests")
    result.assert_outcomes(passed=1)
    # ... and it asserts: the same test on a plan where the resource is not created fails.
    (pytester.path / "tests" / "plan.json").write_text(
        _first_plan_check_plan().replace('"create"', '"no-op"'), encoding="utf-8")
    failed = pytester.runpytest("-p", "no:cacheprovider", "tests")
    failed.assert_outcomes(failed=1)
    failed.stdout.fnmatch_lines(["*ExpectResourceAction: null_resource.app: expected Create, got action(s): [[]no-op]*"])


def _bucket_plan(name: str) -> str:
    """A plan with a sensitive attribute holding :data:`SECRET`, as ``terraform show -json`` writes it."""
    return json.dumps({
        "format_version": "1.2",
        "resource_changes": [{
            "address": "cloud_bucket.logs", "mode": "managed", "type": "cloud_bucket", "name": "logs",
            "change": {
                "actions": ["create"], "before": None,
                "after": {"name": name, "encryption_key": SECRET, "tags": {"created": "2026-11-29"}},
                "after_unknown": {"arn": True}, "before_sensitive": False,
                "after_sensitive": {"encryption_key": True},
            },
        }],
    })


def test_the_snapshot_pages_test_records_then_catches_a_change_and_never_shows_the_secret(
    pytester: pytest.Pytester,
) -> None:
    pytest.importorskip("syrupy", reason="the snapshot extra (syrupy) is not installed")
    (test,) = _pytest_blocks("snapshots.md")
    pytester.mkdir("tests")
    plan = pytester.path / "tests" / "plan.json"
    plan.write_text(_bucket_plan("logs"), encoding="utf-8")
    (pytester.path / "tests" / "test_plan.py").write_text(test, encoding="utf-8")
    recorded = pytester.runpytest("-p", "no:cacheprovider", "tests", "--snapshot-update")
    recorded.assert_outcomes(passed=1)
    (written,) = (pytester.path / "tests" / "__snapshots__").rglob("*.tfplan.snap")
    assert written.name == "test_plan_snapshot.tfplan.snap"  # the page's path: <test file>/<test name>.tfplan.snap
    assert "encryption_key = (sensitive)" in written.read_text(encoding="utf-8")
    pytester.runpytest("-p", "no:cacheprovider", "tests").assert_outcomes(passed=1)  # the same plan again
    plan.write_text(_bucket_plan("logs2"), encoding="utf-8")
    changed = pytester.runpytest("-p", "no:cacheprovider", "tests", "-vv", "-l")
    changed.assert_outcomes(failed=1)
    changed.stdout.fnmatch_lines(['*cloud_bucket.logs: name: "logs" -> "logs2"*'])  # the review comment
    output = changed.stdout.str() + changed.stderr.str()
    files = "".join(p.read_text(encoding="utf-8") for p in pytester.path.rglob("*.snap"))
    assert SECRET not in output + files
    assert SECRET[:12] not in output + files
