"""The docs' acceptance-test examples do what they say, on real Terraform (tests/docs/test_docs_examples.py only defines them)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from plancheck.acceptance import AcceptanceRunner
from tools.pinned import find_null_provider

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def _block_defining(name: str) -> str:
    """The Python block of the README or a docs page that defines ``name`` (each brings its own imports)."""
    found = [
        m.group(1)
        for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
        for m in _BLOCK.finditer(page.read_text(encoding="utf-8"))
        if re.search(rf"^def {name}\(", m.group(1), re.M)
    ]
    assert len(found) == 1, f"the README and docs/ define {name} in {len(found)} blocks"
    return found[0]


def _run_example(name: str, runner: AcceptanceRunner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    monkeypatch.syspath_prepend(str(ROOT / "examples" / "widget_provider"))
    monkeypatch.syspath_prepend(str(ROOT / "tests" / "providers"))  # diagnostic_widget, the deprecation example's
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "examples" / "mock_module" / "cloud.schema.json", tmp_path)  # the schema examples open
    namespace: dict[str, object] = {"__name__": "readme_example"}
    exec(compile(_block_defining(name), f"docs:{name}", "exec"), namespace)
    example = namespace[name]
    assert callable(example)
    example(runner)


@pytest.mark.parametrize(
    "name", ["test_null", "test_widget", "test_widget_lifecycle", "test_logs_module", "test_first_acceptance", "test_quickstart_acceptance",
             "test_first_mocked_module", "test_acc_greeting", "test_color_is_deprecated"]
)
def test_a_readme_example_passes(
    name: str, tf_acceptance: AcceptanceRunner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _run_example(name, tf_acceptance, monkeypatch, tmp_path)
    assert tf_acceptance.commands  # it drove Terraform, and destroyed what it made without an error


def test_the_go_provider_example_passes(
    tf_acceptance: AcceptanceRunner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The porting guide's Go provider, "built" into bin/: the pinned null provider is a Go binary.
    provider = find_null_provider()
    assert provider is not None, "the null provider 2.1.2 is not installed (make test installs it)"
    (tmp_path / "bin").mkdir()
    shutil.copy(provider.path, tmp_path / "bin" / "terraform-provider-null")
    _run_example("test_acc_built_provider", tf_acceptance, monkeypatch, tmp_path)
    # Terraform says so of every command that used the binary in bin/, not a mirror's or the registry's.
    assert any("Provider development overrides are in effect" in c.stdout + c.stderr for c in tf_acceptance.commands)


@pytest.mark.tf_min_version("1.5")  # an import block; below, the example skips itself, and a skipped e2e proves nothing
def test_the_readme_import_example_passes(
    tf_acceptance: AcceptanceRunner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _run_example("test_widget_import", tf_acceptance, monkeypatch, tmp_path)
    assert tf_acceptance.commands


@pytest.mark.tf_min_version("1.10")  # ephemeral resources
def test_the_readme_ephemeral_example_passes(
    tf_acceptance: AcceptanceRunner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _run_example("test_ephemeral_password", tf_acceptance, monkeypatch, tmp_path)
    assert tf_acceptance.commands


@pytest.mark.tf_min_version("1.11")  # Terraform 1.0.3 panics planning a nested attribute left unset (website)
def test_the_mock_secrets_example_passes(
    tf_acceptance: AcceptanceRunner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _run_example("test_the_secret_stays_out_of_the_calls", tf_acceptance, monkeypatch, tmp_path)
    assert tf_acceptance.commands


def test_the_mocked_module_plan_example_passes_in_the_layout_its_page_gives(
    tf_acceptance: AcceptanceRunner, pytester: pytest.Pytester
) -> None:
    # The page named "../modules/logs" and a schema beside the test without saying what they hold.
    pytest.importorskip("syrupy", reason="the snapshot extra (syrupy) is not installed")
    example = ROOT / "examples" / "mock_module"
    (pytester.path / "modules" / "logs").mkdir(parents=True)
    shutil.copy(example / "main.tf", pytester.path / "modules" / "logs" / "main.tf")
    (pytester.path / "tests").mkdir()
    shutil.copy(example / "cloud.schema.json", pytester.path / "tests" / "cloud.schema.json")
    (pytester.path / "tests" / "test_logs.py").write_text(_block_defining("test_mocked_logs_module_plan"), encoding="utf-8")
    options = ["-p", "no:cacheprovider", "--terraform", str(tf_acceptance.terraform.path)]
    pytester.runpytest(*options, "--snapshot-update").assert_outcomes(passed=1)
    pytester.runpytest(*options).assert_outcomes(passed=1)


#: The two step directories the upgrade example reads (``testdata/<test name>/<step>/``), which its page
#: describes but does not show: the same widget, so the second step plans no change on the first's state.
_UPGRADE_STEP = """terraform {
  required_providers {
    widget = { source = "example.com/acme/widget" }
  }
}

resource "widget_thing" "t" {
  name = "a"
}
"""


def test_the_upgrade_example_passes_with_a_directory_per_step(
    tf_acceptance: AcceptanceRunner, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    monkeypatch.syspath_prepend(str(ROOT / "examples" / "widget_provider"))
    (pytester.path / "tests").mkdir()
    for step in ("1", "2"):
        directory = pytester.path / "tests" / "testdata" / "test_widget_upgrade" / step
        directory.mkdir(parents=True)
        (directory / "main.tf").write_text(_UPGRADE_STEP, encoding="utf-8")
    (pytester.path / "tests" / "test_upgrade.py").write_text(_block_defining("test_widget_upgrade"), encoding="utf-8")
    result = pytester.runpytest("-p", "no:cacheprovider", "--terraform", str(tf_acceptance.terraform.path), "-v")
    result.assert_outcomes(passed=1)
    # It read the step directories: without them the same test fails, naming the directory it looked for.
    for step in ("1", "2"):
        (pytester.path / "tests" / "testdata" / "test_widget_upgrade" / step / "main.tf").unlink()
    missing = pytester.runpytest("-p", "no:cacheprovider", "--terraform", str(tf_acceptance.terraform.path))
    missing.assert_outcomes(failed=1)
    missing.stdout.fnmatch_lines(["*testdata/test_widget_upgrade/1*"])


def _page_blocks(page: Path, language: str) -> list[str]:
    """The fenced blocks of ``language`` of a docs page, in order."""
    return re.findall(rf"^```{language}\n(.*?)^```", page.read_text(encoding="utf-8"), re.S | re.M)


@pytest.mark.tf_min_version("1.5")  # a condition seen passing needs the plan's checks section
def test_the_coverage_pages_module_reaches_the_reports_it_shows(
    tf_acceptance: AcceptanceRunner, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The page's module and its two tests ("test_store_plan", "test_store_steps"), laid out as it says: 70%
    # without TF_ACC, 100% with it, each report as the page prints it.
    pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    page = ROOT / "docs" / "guides" / "coverage.md"
    (module,) = (block for block in _page_blocks(page, "hcl") if 'resource "cloud_bucket" "store"' in block)
    (pytester.path / "modules" / "store").mkdir(parents=True)
    (pytester.path / "modules" / "store" / "main.tf").write_text(module, encoding="utf-8")
    (pytester.path / "tests").mkdir()
    shutil.copy(ROOT / "examples" / "mock_module" / "cloud.schema.json", pytester.path / "tests" / "cloud.schema.json")
    tests = _block_defining("test_store_plan") + "\n" + _block_defining("test_store_steps")
    (pytester.path / "tests" / "test_store.py").write_text(tests, encoding="utf-8")
    first, full = (block.splitlines() for block in _page_blocks(page, "text") if block.startswith("Module "))
    # With "=": written apart, pytest took the binary's path for a test path and named the module from its directory.
    options = ["-p", "no:cacheprovider", f"--terraform={tf_acceptance.terraform.path}", "--tf-cov"]
    monkeypatch.delenv("TF_ACC", raising=False)
    without = pytester.runpytest(*options)
    without.assert_outcomes(passed=1, skipped=1)
    without.stdout.re_match_lines([re.escape(line) + "$" for line in first], consecutive=True)
    monkeypatch.setenv("TF_ACC", "1")
    with_acc = pytester.runpytest(*options, "--tf-cov-fail-under=100")
    with_acc.assert_outcomes(passed=2)
    with_acc.stdout.re_match_lines([re.escape(line) + "$" for line in full], consecutive=True)
    assert with_acc.ret == 0
