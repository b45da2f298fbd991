"""The HTML report of ``pytest --tf-cov`` (``html:DIR``): pages, block colours and legend pinned, no secret in
any report, and the report checked in headless Chromium (it renders, the legend shows, a missed block is red).

With ``TFPLANCHECK_SCREENSHOT=PATH`` the Chromium test also saves the module page's screenshot there (the one
docs/guides/coverage.md shows).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from coverage_support import TREE
from test_coverage_session import CONFTEST, TESTS_A, TESTS_B

from plancheck._plugin.coverage.data import CoverageData
from plancheck._plugin.coverage.html import write_html

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs"))
from planted_secrets import SECRET_CONFIG

SECRET_TF = f"""
variable "token" {{
  type      = string
  sensitive = true
  default   = "{SECRET_CONFIG}"
}}

variable "token_commented" {{
  sensitive = true # a comment after the flag
  default   = "{SECRET_CONFIG}-commented"
}}
"""
#: The same in a .tf.json file, whose reader keeps no line of a value.
SECRET_TF_JSON = f"""{{"variable": {{"token_json": {{
  "sensitive": true,
  "default": "{SECRET_CONFIG}-json"}}}}}}
"""


@pytest.fixture
def html_dir(pytester: pytest.Pytester) -> Path:
    shutil.copytree(TREE, pytester.path / "tree")
    (pytester.path / "tree" / "secret.tf").write_text(SECRET_TF, encoding="utf-8")
    (pytester.path / "tree" / "secret.tf.json").write_text(SECRET_TF_JSON, encoding="utf-8")
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_a=TESTS_A, test_b=TESTS_B)
    result = pytester.runpytest("--tf-cov", "--tf-cov-report=html:htmlcov", "--tf-cov-report=json:tf.json",
                                "--tf-cov-report=term", "--tf-cov-data=tf.data", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=3, skipped=1)
    (pytester.path / "stdout.txt").write_text(result.stdout.str() + result.stderr.str(), encoding="utf-8")
    return pytester.path


def _classes(page: str, file: str) -> dict[int, str]:
    """Line number -> its class, for the lines of ``file`` on a module page."""
    found = re.findall(rf'<span class="line ?([a-z]*)" id="{re.escape(file)}-(\d+)">', page)
    return {int(number): css for css, number in found}


def test_pages_and_colours(html_dir: Path) -> None:
    pages = sorted(p.name for p in (html_dir / "htmlcov").iterdir())
    assert pages == ["cloudposse_label_null.html", "index.html", "tree.html", "tree_modules_net.html"]
    index = (html_dir / "htmlcov" / "index.html").read_text(encoding="utf-8")
    assert re.findall(r'<a href="([^"]+)">([^<]+)</a>', index) == [
        ("cloudposse_label_null.html", "cloudposse/label/null"), ("tree.html", "tree"),
        ("tree_modules_net.html", "tree/modules/net"),
    ]
    page = (html_dir / "htmlcov" / "tree.html").read_text(encoding="utf-8")
    lines = _classes(page, "main.tf")
    by_status: dict[str, list[int]] = {}
    for number, css in lines.items():
        by_status.setdefault(css or "plain", []).append(number)

    def span(first: int, last: int) -> list[int]:
        return list(range(first, last + 1))

    assert {css: numbers for css, numbers in by_status.items() if css != "plain"} == {
        # No check can address var.name (its validation seen both ways), var.replicas, module.net, the check block
        # (its assert seen both ways): planned is all they can be. Format "1" left them yellow: "partial".
        "covered": span(2, 10) + span(12, 15) + span(17, 19) + span(26, 29) + span(31, 36) + span(38, 40),
        "missed": span(21, 24),  # terraform_data.spare: never planned
    }
    assert "covered: planned, asserted (or n/a: no check can address it), every condition seen both ways" in page
    rows = dict(re.findall(r"<tr class=\"[a-z]+\"><td>([^<]+)</td><td>[a-z]+</td><td>[a-z]+</td><td>[^<]*</td>"
                           r"<td>([^<]+)</td>", page))
    assert rows == {"check.name_is_web": "n/a", "module.label": "n/a", "module.net": "n/a", "output.app_id": "yes",
                    "terraform_data.app": "yes", "terraform_data.spare": "no", "var.name": "n/a", "var.replicas": "n/a",
                    "var.token": "n/a", "var.token_commented": "n/a", "var.token_json": "n/a"}
    # Asserted: of the items a check can address.
    assert re.findall(r'<a href="[^"]+">([^<]+)</a></td><td class="n">\d+</td><td class="n">\d+</td>'
                      r'<td class="n">([^<]+)</td>', index) == [
        ("cloudposse/label/null", "0/1"), ("tree", "2/3"), ("tree/modules/net", "1/1"),
    ]
    # The child's output and variable are green; its resource yellow: its precondition was never seen failing.
    net = _classes((html_dir / "htmlcov" / "tree_modules_net.html").read_text(encoding="utf-8"), "main.tf")
    assert {number for number, css in net.items() if css == "covered"} == set(span(1, 3) + span(16, 18))
    assert {number for number, css in net.items() if css == "partial"} == set(span(5, 14))
    registry = (html_dir / "htmlcov" / "cloudposse_label_null.html").read_text(encoding="utf-8")
    assert "Not a local module: its files are not shown." in registry


def test_no_secret_in_any_report(html_dir: Path) -> None:
    page = (html_dir / "htmlcov" / "tree.html").read_text(encoding="utf-8")
    assert "default   = (withheld: a sensitive value)" in page
    written = ["stdout.txt", "tf.json", "tf.data", *(f"htmlcov/{p.name}" for p in (html_dir / "htmlcov").iterdir())]
    leaks = [name for name in written if SECRET_CONFIG in (html_dir / name).read_text(encoding="utf-8")]
    assert leaks == []


@pytest.mark.e2e
def test_the_report_in_headless_chromium(html_dir: Path) -> None:
    from docs_site import skip_or_fail
    from test_docs_browser_e2e import FLAGS, find_chromium

    binary = find_chromium()
    if binary is None:
        skip_or_fail("Chromium is not installed: apt-get install -y chromium (the HTML report's check needs it)")
    if importlib.util.find_spec("playwright") is None:
        skip_or_fail("Playwright is not installed: pip install -e '.[test]' (make test installs it)")
    from playwright.sync_api import sync_playwright

    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=binary, args=list(FLAGS))
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
            page.goto((html_dir / "htmlcov" / "index.html").as_uri())
            assert page.title() == "Terraform coverage"
            page.click("text=tree/modules/net")
            assert page.title() == "Terraform coverage: tree/modules/net"
            page.click("text=All modules")
            page.click("a[href='tree.html']")
            assert page.locator(".legend span").all_inner_texts() == [
                "covered: planned, asserted (or n/a: no check can address it), every condition seen both ways",
                "partial: planned, but not asserted (where a check can address it) or a condition not seen both ways",
                "missed: never planned",
            ]
            assert page.locator(".legend").is_visible()
            spare = page.locator("[id='main.tf-21']")
            assert spare.is_visible()
            assert spare.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(248, 192, 192)"
            assert "terraform_data" in spare.inner_text()
            screenshot = os.environ.get("TFPLANCHECK_SCREENSHOT")
            if screenshot:
                page.locator("[id='main.tf-1']").scroll_into_view_if_needed()
                page.screenshot(path=screenshot, full_page=False)
        finally:
            browser.close()
    assert errors == []


#: Module keys whose page names would pass the 255 bytes a file name may have: a local module nested eight
#: directories of 37 characters deep, and a registry source named in full (two keys alike in their first 100 characters and more).
LONG_KEYS = {
    "a-deeply-nested-local-module": "/".join(["abcdefghijklmnopqrstuvwxyz_0123456789"] * 8),
    "two-long-sources-alike-at-their-start": "git::https://example.com/" + "x" * 280 + "?ref=v1",
}


@pytest.mark.parametrize("keys", [
    pytest.param([LONG_KEYS["a-deeply-nested-local-module"]], id="a-deeply-nested-local-module"),
    pytest.param([LONG_KEYS["two-long-sources-alike-at-their-start"],
                  LONG_KEYS["two-long-sources-alike-at-their-start"].replace("v1", "v2")],
                 id="two-long-sources-alike-at-their-start"),
])
def test_a_module_of_a_long_name_gets_its_page(tmp_path: Path, keys: list[str]) -> None:
    data = CoverageData()
    for key in keys:
        data.module(key).item("terraform_data.a", "resource").planned = True
    write_html(data, tmp_path / "htmlcov", tmp_path, None)
    index = (tmp_path / "htmlcov" / "index.html").read_text(encoding="utf-8")
    linked = dict(re.findall(r'<a href="([^"]+)">([^<]+)</a>', index))
    assert sorted(linked.values()) == sorted(keys)
    for name, key in linked.items():
        assert len(name) <= 110
        page = (tmp_path / "htmlcov" / name).read_text(encoding="utf-8")
        assert f"<h1>Terraform coverage: {key}</h1>" in page
