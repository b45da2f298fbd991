"""What the first hour's readers needed is on the site, which stands on its own offline.

The Python-provider guide shows the widget provider (its README and its whole source), not only a path
into a checkout the reader may not have; the loading guide shows script writers a safe way to print a
plan's values (its example runs in test_docs_examples.py), and ``tfjsonpath.leaves`` says it sees no marks.
Every how-to guide is linked from the README (coverage was not), and the porting guide names Go's one
constant whose Python spelling differs (``ResourceActionNoop`` is ``ResourceAction.NoOp``). The report
header the plugin page shows is the one pytest prints.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from docs_site import ROOT, Build, build_site
from test_docs_examples import python_blocks

import tfjsonpath


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Build:
    built = build_site(tmp_path_factory)
    if built.returncode != 0:
        pytest.fail(f"the site did not build:\n{built.output}", pytrace=False)
    return built


def _text(page: Path) -> str:
    """A built page's text, as a reader sees it (tags dropped, entities decoded)."""
    return html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))


def test_the_python_provider_guide_shows_the_widget_provider(site: Build) -> None:
    shown = _text(site.site / "guides" / "python-provider.html")
    source = (ROOT / "examples" / "widget_provider" / "widget_provider.py").read_text(encoding="utf-8")
    missing = [line for line in source.splitlines() if line.strip() and line not in shown]
    assert missing == [], f"lines of widget_provider.py not on the page: {missing[:5]}"
    readme = (ROOT / "examples" / "widget_provider" / "README.md").read_text(encoding="utf-8")
    for heading in re.findall(r"^## (.+)$", readme, re.M):
        assert heading in shown


def test_the_loading_guide_shows_how_to_print_a_plans_values_safely(site: Build) -> None:
    page = ROOT / "docs" / "guides" / "loading.md"
    assert "## Printing a plan's values" in page.read_text(encoding="utf-8")
    # Its example (run by test_docs_examples.py) prints through the marks, both ways.
    example = next(code for _, code in python_blocks(page) if "snapshot.render(plan)" in code)
    assert ".describe(plan.secrets)" in example
    assert "Printing a plan's values" in _text(site.site / "guides" / "loading.html")


def test_leaves_says_it_sees_no_marks() -> None:
    doc = tfjsonpath.leaves.__doc__ or ""
    assert "no marks" in doc
    assert "plancheck.snapshot.render(plan)" in doc


def test_every_how_to_guide_is_linked_from_the_readme_and_the_site_index() -> None:
    # A newcomer starts from the README: a guide it does not name (coverage was one) is found by accident or never.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    guides = sorted(p.name for p in (ROOT / "docs" / "guides").glob("*.md"))
    assert [g for g in guides if f"(docs/guides/{g})" not in readme] == []
    assert "(guides/coverage.md)" in index


def test_the_porting_guide_names_go_s_spelling_of_no_op() -> None:
    # ResourceActionNoop is the one Go constant whose Python member is not its suffix (Noop raises AttributeError).
    text = (ROOT / "docs" / "guides" / "porting-from-go.md").read_text(encoding="utf-8")
    assert "`plancheck.ResourceActionNoop` (value `\"NoOp\"`) is\n`ResourceAction.NoOp`" in text
    from plancheck import ResourceAction

    assert ResourceAction.NoOp.value == "NoOp"


def test_the_report_header_on_the_plugin_page_is_what_pytest_prints(pytester: pytest.Pytester) -> None:
    # The page showed "Terraform 1.11.4 at PATH" after the header stopped running the binary to learn its version.
    page = (ROOT / "docs" / "guides" / "pytest-plugin.md").read_text(encoding="utf-8")
    shown = re.search(r'^```text title="pytest\'s report header"\n(.*?)^```', page, re.S | re.M)
    assert shown is not None
    bin_dir = pytester.mkdir("bin")
    terraform = bin_dir / "terraform"
    terraform.write_text("#!/bin/sh\nexit 1\n", encoding="utf-8")  # the header finds it; it never runs it
    terraform.chmod(0o755)
    pytester.makepyfile(test_nothing="def test_nothing():\n    pass\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PATH", str(bin_dir))
        patch.delenv("TF_ACC_TERRAFORM_PATH", raising=False)
        result = pytester.runpytest("-p", "no:cacheprovider")
    header = [line for line in result.stdout.lines if line.startswith("plancheck: ")]
    assert header == shown.group(1).replace("/usr/local/bin/terraform", str(terraform)).splitlines()


def test_the_plugin_page_s_tests_run_on_its_plan_and_fail_as_it_shows(pytester: pytest.Pytester) -> None:
    # Copied alone, two of its tests raised NameError (no imports), and no page said which plan they assert on.
    page = (ROOT / "docs" / "guides" / "pytest-plugin.md").read_text(encoding="utf-8")
    plan = re.search(r'^```json title="tests/plan.json"\n(.*?)^```', page, re.S | re.M)
    assert plan is not None
    pytester.mkdir("tests")
    (pytester.path / "tests" / "plan.json").write_text(plan.group(1), encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", page, re.S | re.M)
    for number, code in enumerate(blocks):  # each block alone in its own file, as a reader pastes one
        (pytester.path / "tests" / f"test_block{number}.py").write_text(code, encoding="utf-8")
    result = pytester.runpytest("-p", "no:cacheprovider", "tests")
    result.assert_outcomes(passed=3, failed=2)
    shown = re.findall(r"^```python\n(?:.*?)^```\n\n```\n(.*?)^```", page, re.S | re.M)
    assert len(shown) == 2  # the failures the page prints after its two failing tests
    for output in shown:
        result.stdout.fnmatch_lines([line.replace("[", "[[]") for line in output.splitlines() if line.startswith("E ")],
                                    consecutive=True)


def test_no_page_installs_tfplancheck_by_a_name_no_public_index_serves() -> None:
    # `pip install 'tfplancheck[snapshot]'` failed for a newcomer (and would install whatever takes the name).
    pages = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), *(ROOT / "examples").rglob("*.md")]
    by_name = re.compile(r"pip install ['\"]?tfplancheck\b")
    assert [str(p.relative_to(ROOT)) for p in pages if by_name.search(p.read_text(encoding="utf-8"))] == []
