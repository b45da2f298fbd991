"""Every Python example of the README and of every documentation page runs, so the docs cannot drift from the library.

Each page's blocks run in order in one namespace (a fresh one per page, in a fresh directory), as a
reader would paste them; blocks written as doctests (``>>>``) are checked with doctest. Fenced blocks
in other languages (``sh``, ``console``, ``toml``, ``text``, ...) are not run. There is no way to mark
a Python block "not run": a block that cannot run on its own is written in another language. A block that defines a test function
imports or defines every name it reads, so that it runs copied alone into a reader's test file.
"""

from __future__ import annotations

import builtins
import doctest
import re
import symtable
import sys
import types
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def pages() -> list[Path]:
    """The README and every Markdown page of the documentation site, README first."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def python_blocks(page: Path) -> list[tuple[int, str]]:
    """``(line, code)`` of each fenced Python block of ``page``, in order (line: the fence's, from 1)."""
    text = page.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in _BLOCK.finditer(text)]


def _id(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def test_the_docs_have_python_examples() -> None:
    counts = {_id(p): len(python_blocks(p)) for p in pages()}
    assert counts["README.md"] >= 2, counts  # the third README example (a CI gate) is checked below
    assert sum(counts.values()) >= 50, counts  # the README held 50 before the site: none was lost


@pytest.mark.parametrize("page", pages(), ids=_id)
def test_the_python_examples_of_a_page_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    name = _id(page)
    # A page's blocks run as one module of a user's would: importable by name (dataclasses look their
    # module up) and compiled without this file's __future__ imports.
    module = types.ModuleType("docs_example")
    monkeypatch.setitem(sys.modules, "docs_example", module)
    namespace: dict[str, Any] = module.__dict__
    preset = len(namespace)
    blocks = python_blocks(page)
    for line, code in blocks:
        if ">>>" in code:
            test = doctest.DocTestParser().get_doctest(code, namespace, f"{name}:{line}", str(page), line)
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
            runner.run(test, clear_globs=False)
            namespace.update(test.globs)  # DocTest works on a copy; later blocks build on its names
            assert runner.failures == 0, f"{name} line {line}: doctest failed (run pytest -s to see it)"
        else:
            try:
                exec(compile(code, f"{name}:{line}", "exec", dont_inherit=True), namespace)
            except Exception as exc:  # the line number of the block is what a reader needs
                raise AssertionError(f"{name} line {line}: example raised {exc!r}") from exc
    assert len(namespace) > preset or not blocks  # the blocks defined something: they ran


def _unbound_names(code: str, filename: str) -> list[str]:
    """The names ``code`` reads (at its top level or in its functions) that it neither imports nor defines."""
    top = symtable.symtable(code, filename, "exec")
    bound = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported() or s.is_namespace()}
    read = {s.get_name() for s in top.get_symbols() if s.is_referenced()}
    tables = list(top.get_children())
    while tables:
        table = tables.pop()
        read |= {s.get_name() for s in table.get_symbols() if s.is_global() and s.is_referenced()}
        tables.extend(table.get_children())
    return sorted(n for n in read - bound if not hasattr(builtins, n) and not n.startswith("__"))


def test_a_block_that_defines_a_test_runs_copied_alone() -> None:
    # A reader copies one test into a file of their own: a name it took from an earlier block of the page
    # (WidgetProvider, kv, TestCase, ...) raised NameError there, and this file's page-wide namespace hid it.
    unbound = {
        f"{_id(page)}:{line}": names
        for page in pages()
        for line, code in python_blocks(page)
        if ">>>" not in code and re.search(r"^def test_", code, re.M)
        if (names := _unbound_names(code, _id(page)))
    }
    assert unbound == {}


QUICK_START = """\
```sh
make demo   # the main job on bundled example data: plan examples/null with real Terraform, check it with tfplancheck, run acceptance tests (a Python provider, a mocked module)
make test   # the whole test suite: ruff, mypy --strict, and pytest (unit, property, corpus and end-to-end tests)
```
"""


def test_the_readme_is_short_and_keeps_the_two_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300, "the README is the front door: the rest belongs in docs/"
    assert QUICK_START in text


def test_the_readme_ci_gate_prints_what_it_shows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from plancheck.cli import run

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    gate = text[text.index("**A CI gate**"):]
    checks = re.search(r"^```toml\n(.*?)^```", gate, re.S | re.M)
    console = re.search(r"^```console\n\$ (.*?)\n(.*?)^```", gate, re.S | re.M)
    assert checks is not None
    assert console is not None
    monkeypatch.chdir(tmp_path)
    (tmp_path / "checks.toml").write_text(checks.group(1), encoding="utf-8")
    # JSON under the binary plan's name: the command reads either (a real plan.bin goes through terraform show).
    (tmp_path / "plan.bin").write_text(
        '{"format_version": "1.2", "resource_changes": [{"address": "null_resource.app", "change": {'
        '"actions": ["create"], "after": {"triggers": {"greeting": "hello"}}, "after_unknown": {"id": true}}}]}',
        encoding="utf-8",
    )
    argv = console.group(1).split()
    assert argv[0] == "tfplancheck"
    out, err = io.StringIO(), io.StringIO()
    assert run(argv[1:], stdout=out, stderr=err, environ={}) == 0, err.getvalue()
    assert out.getvalue() == console.group(2)
