"""The built documentation site works in a real browser: headless Chromium, from the system's packages.

Served by a local HTTP server, the home page and the ``plancheck`` API page render, the navigation
leads from one to the other, the search finds a check by name, and no page logs a console error, an
uncaught exception or a failed load. Opened from disk (``file://``, as a reader opens ``site/index.html``),
every link names a file, not a directory, and the API pages show the docstrings' cross-references
(``:func:`render```) as links, never as raw role text. Playwright (the test extra) drives the system's Chromium through
``executable_path``: it downloads no browser of its own. Without Chromium or Playwright the test skips,
saying how to install it; under ``TFPLANCHECK_REQUIRE_E2E=1`` (``make test``, CI) it fails instead
(``.ci/run`` installs Chromium).
"""

from __future__ import annotations

import functools
import http.server
import importlib.util
import re
import shutil
import threading
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from docs_site import Build, build_site, skip_or_fail

if TYPE_CHECKING:
    from playwright.sync_api import ConsoleMessage, Error, Page

#: Flags beyond Playwright's own (which already turn off background networking, sync, extensions and
#: component updates): this machine's network is closed, and it has no GPU.
FLAGS = ("--disable-quic", "--disable-gpu")


def find_chromium() -> str | None:
    """The Chromium (or Chrome) binary on PATH, if any."""
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # the test reports what matters
        pass


@pytest.fixture(scope="module")
def site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    site: Build = build_site(tmp_path_factory)
    if site.returncode != 0:
        pytest.fail(f"the site did not build:\n{site.output}", pytrace=False)
    handler = functools.partial(_QuietHandler, directory=str(site.site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@dataclass
class Tab:
    """A page of a headless Chromium, and every console error, uncaught exception and failed load it reported."""

    page: Page
    errors: list[str] = field(default_factory=list)


@pytest.fixture
def tab() -> Iterator[Tab]:
    binary = find_chromium()
    if binary is None:
        skip_or_fail("Chromium is not installed: apt-get install -y chromium (the docs' browser check needs it)")
        raise AssertionError("unreachable")  # skip_or_fail raises
    if importlib.util.find_spec("playwright") is None:
        skip_or_fail("Playwright is not installed: pip install -e '.[test]' (make test installs it)")
    from playwright.sync_api import sync_playwright

    # Leaving the block stops Playwright's driver, which ends the browser it started (and removes its
    # profile) also when the test failed; close() first does it in order.
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=binary, args=list(FLAGS))
        try:
            opened = Tab(browser.new_page())

            def console(message: ConsoleMessage) -> None:
                # A failed load is logged by Chromium as a console error ("Failed to load resource: ...").
                if message.type in ("error", "assert"):
                    opened.errors.append(f"console.{message.type}: {message.text} {message.location.get('url', '')}".strip())

            def uncaught(error: Error) -> None:
                opened.errors.append(f"uncaught: {error}")

            opened.page.on("console", console)
            opened.page.on("pageerror", uncaught)
            yield opened
        finally:
            browser.close()


def test_the_site_renders_navigates_and_searches_in_chromium(site_url: str, tab: Tab) -> None:
    page = tab.page
    page.goto(site_url)
    assert page.evaluate("document.title").startswith("tfplancheck")
    assert page.evaluate("document.querySelector('article h1').textContent.trim()").startswith("tfplancheck")
    assert page.evaluate("document.querySelectorAll('nav.md-nav a.md-nav__link').length") > 20

    # The navigation leads to the API page of plancheck, which renders the classes from their docstrings.
    link = "document.querySelector('nav.md-nav a.md-nav__link[href$=\"reference/plancheck.html\"]')"
    assert page.evaluate(f"{link} !== null")
    page.evaluate(f"{link}.click()")
    page.wait_for_url("**/reference/plancheck.html")  # and for its load event
    assert page.evaluate("location.pathname").endswith("/reference/plancheck.html")
    assert page.evaluate("document.getElementById('plancheck.Plan') !== null")
    assert page.evaluate("document.getElementById('plancheck.ExpectUnknownValue') !== null")
    assert "ExpectUnknownValue" in page.evaluate("document.querySelector('article').textContent")

    # The search (a worker over the built index) finds a check by name, typed key by key as a reader would.
    page.locator(".md-search__input").press_sequentially("ExpectNoDestroys")
    found = page.wait_for_function("document.querySelectorAll('.md-search-result__item').length").json_value()
    assert found > 0
    assert "ExpectNoDestroys" in page.evaluate("document.querySelector('.md-search-result__list').textContent")

    assert tab.errors == []


#: Every link of a page, as the browser resolved it (absolute URLs), without its fragment.
_LINKS = "[...document.querySelectorAll('a[href]')].map(a => a.href)"
#: A reST role's raw text (":func:`render`" renders as ":func:<code>render</code>", reading ":func:render").
_RAW_ROLE = re.compile(r":(?:py:)?(?:func|class|meth|attr|mod|data|exc|obj|const):\S")


def _local_target(url: str) -> tuple[Path, str] | None:
    """The file and fragment a file:// link names (None for another scheme)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme != "file":
        return None
    return Path(urllib.request.url2pathname(parts.path)), urllib.parse.unquote(parts.fragment)


def _assert_links_resolve_to_files(urls: list[str]) -> int:
    """Every file:// link names a file (not a directory, which a browser shows as a listing), and its
    fragment an element of that file; returns how many were checked."""
    checked = 0
    for url in sorted(set(urls)):
        target = _local_target(url)
        if target is None:
            continue
        path, fragment = target
        assert path.is_file(), f"{url}: not a file (a directory URL shows as a listing from disk)"
        if fragment:
            assert f'id="{fragment}"' in path.read_text(encoding="utf-8"), f"{url}: no element with that id"
        checked += 1
    return checked


def test_the_site_works_opened_from_disk(tmp_path_factory: pytest.TempPathFactory, tab: Tab) -> None:
    site = build_site(tmp_path_factory)
    if site.returncode != 0:
        pytest.fail(f"the site did not build:\n{site.output}", pytrace=False)
    page = tab.page
    page.goto((site.site / "index.html").as_uri())
    assert page.evaluate("document.querySelector('article h1').textContent.trim()").startswith("tfplancheck")
    assert _assert_links_resolve_to_files(page.evaluate(_LINKS)) > 20

    # From the navigation to an API page, as a reader clicks: it is a file, and it renders.
    page.evaluate("document.querySelector('nav.md-nav a.md-nav__link[href$=\"reference/snapshot.html\"]').click()")
    page.wait_for_url("**/reference/snapshot.html")
    assert page.evaluate("document.getElementById('plancheck.snapshot.render') !== null")
    article = page.evaluate("document.querySelector('article').textContent")
    assert _RAW_ROLE.findall(article) == []
    # The docstrings' roles are links: ":func:`render`" in assert_matches' docstring leads to render.
    cross = page.evaluate("[...document.querySelectorAll('article a.autorefs-internal')].map(a => a.href)")
    assert any(url.endswith("snapshot.html#plancheck.snapshot.render") for url in cross)
    assert _assert_links_resolve_to_files(cross) == len(set(cross)) > 10

    # A link to another page's name (statecheck's docstrings name plancheck's classes) opens that file.
    page.goto((site.site / "reference" / "statecheck.html").as_uri())
    elsewhere = [u for u in page.evaluate(_LINKS) if "/reference/plancheck.html#" in u]
    assert elsewhere, "statecheck's page links no name of plancheck's"
    page.goto(elsewhere[0])
    fragment = urllib.parse.unquote(urllib.parse.urlsplit(elsewhere[0]).fragment)
    assert page.evaluate("id => document.getElementById(id) !== null", fragment)
