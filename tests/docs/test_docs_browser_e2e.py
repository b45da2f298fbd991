"""The built documentation site works in a real browser: headless Chromium, from the system's packages.

Served by a local HTTP server, the home page and the ``plancheck`` API page render, the navigation
leads from one to the other, the search finds a check by name, and no page logs a console error, an
uncaught exception or a failed load. Without Chromium the test skips, saying how to install it; under
``TFPLANCHECK_REQUIRE_E2E=1`` (``make test``, CI) it fails instead (``.ci/run`` installs Chromium).
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator

import pytest
from chromium_cdp import Page, find_chromium, start_chromium
from docs_site import Build, build_site, skip_or_fail


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


@pytest.fixture
def page() -> Iterator[Page]:
    binary = find_chromium()
    if binary is None:
        skip_or_fail("Chromium is not installed: apt-get install -y chromium (the docs' browser check needs it)")
        raise AssertionError("unreachable")  # skip_or_fail raises
    with start_chromium(binary) as ws_url:
        tab = Page(ws_url)
        try:
            tab.call("Page.enable")
            tab.call("Runtime.enable")
            tab.call("Log.enable")
            yield tab
        finally:
            tab.close()


def test_the_site_renders_navigates_and_searches_in_chromium(site_url: str, page: Page) -> None:
    page.load("Page.navigate", url=site_url)
    assert page.evaluate("document.title").startswith("tfplancheck")
    assert page.evaluate("document.querySelector('article h1').textContent.trim()").startswith("tfplancheck")
    assert page.evaluate("document.querySelectorAll('nav.md-nav a.md-nav__link').length") > 20

    # The navigation leads to the API page of plancheck, which renders the classes from their docstrings.
    link = "document.querySelector('nav.md-nav a.md-nav__link[href$=\"reference/plancheck/\"]')"
    assert page.evaluate(f"{link} !== null")
    page.load("Runtime.evaluate", expression=f"{link}.click()")
    assert page.evaluate("location.pathname").endswith("/reference/plancheck/")
    assert page.evaluate("document.getElementById('plancheck.Plan') !== null")
    assert page.evaluate("document.getElementById('plancheck.ExpectUnknownValue') !== null")
    assert "ExpectUnknownValue" in page.evaluate("document.querySelector('article').textContent")

    # The search (a worker over the built index) finds a check by name.
    page.evaluate("document.querySelector('.md-search__input').focus()")
    page.call("Input.insertText", text="ExpectNoDestroys")
    page.evaluate("document.querySelector('.md-search__input').dispatchEvent(new KeyboardEvent('keyup', {key: 's'}))")
    found = page.wait_until("document.querySelectorAll('.md-search-result__item').length")
    assert found > 0
    assert "ExpectNoDestroys" in page.evaluate("document.querySelector('.md-search-result__list').textContent")

    assert page.errors == []
