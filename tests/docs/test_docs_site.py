"""The documentation site builds with ``--strict`` (no warning: no broken link, no stale reference), and its
API reference renders every public module and every public name from its docstring."""

from __future__ import annotations

import importlib
import re
import types
from pathlib import Path

import pytest
from docs_site import ROOT, Build, build_site

# The same discovery as tests/test_public_api.py: a module is public when no part of its name starts with "_".
from test_public_api import MODULES


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Build:
    return build_site(tmp_path_factory)


def test_the_site_builds_without_a_warning(site: Build) -> None:
    assert site.returncode == 0, f"mkdocs build --strict failed:\n{site.output}"
    assert (site.site / "index.html").is_file()
    assert (site.site / "search" / "search_index.json").is_file()


def _reference_pages() -> dict[str, Path]:
    """Public module -> the reference page that renders it (``::: module``)."""
    found: dict[str, Path] = {}
    for page in sorted((ROOT / "docs" / "reference").glob("*.md")):
        for match in re.finditer(r"^::: ([\w.]+)\s*$", page.read_text(encoding="utf-8"), re.M):
            found[match.group(1)] = page
    return found


def test_every_public_module_has_a_reference_page() -> None:
    pages = _reference_pages()
    assert sorted(pages) == MODULES, "docs/reference/ must render exactly the public modules"


@pytest.mark.parametrize("module", MODULES)
def test_every_public_name_is_rendered_in_the_reference(site: Build, module: str) -> None:
    if site.returncode != 0:
        pytest.fail("the site did not build (see test_the_site_builds_without_a_warning)", pytrace=False)
    page = _reference_pages()[module]
    html = (site.site / "reference" / f"{page.stem}.html").read_text(encoding="utf-8")
    imported = importlib.import_module(module)
    names = [n for n in imported.__all__ if not isinstance(getattr(imported, n), types.ModuleType)]
    missing = [n for n in names if f'id="{module}.{n}"' not in html]
    assert not missing, f"{module}: public names the reference page does not render: {missing}"
    assert f'id="{module}"' in html


def test_the_deprecated_names_are_not_rendered(site: Build) -> None:
    # Declared under TYPE_CHECKING so a user's type checker keeps their types; the reference shows the new names.
    if site.returncode != 0:
        pytest.fail("the site did not build (see test_the_site_builds_without_a_warning)", pytrace=False)
    import plancheck

    html = (site.site / "reference" / "plancheck.html").read_text(encoding="utf-8")
    assert [name for name in plancheck._DEPRECATED if f'id="plancheck.{name}"' in html] == []


def test_no_page_shows_a_raw_rest_role(site: Build) -> None:
    # Docstrings cross-reference with Sphinx roles (":func:`render`"); tools/docs_griffe.py turns them into
    # links. A role left raw renders as ":func:<code>render</code>".
    if site.returncode != 0:
        pytest.fail("the site did not build (see test_the_site_builds_without_a_warning)", pytrace=False)
    raw = re.compile(r":(?:py:)?(?:func|class|meth|attr|mod|data|exc|obj|const):(?:<code>|`)")
    # Source code shown as such (the widget provider's, in a <pre> block) keeps its docstrings as written.
    source = re.compile(r"<pre\b.*?</pre>", re.S)
    shown = {
        str(page.relative_to(site.site)): len(raw.findall(source.sub("", page.read_text(encoding="utf-8"))))
        for page in sorted(site.site.rglob("*.html"))
    }
    assert {page: n for page, n in shown.items() if n} == {}
