"""The README's Python examples run, so the README cannot drift from the library.

Blocks are run in order in one namespace, as a reader would paste them; blocks written as
doctests (``>>>``) are checked with doctest. Fenced blocks in other languages are not run.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path
from typing import Any

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def _blocks() -> list[tuple[int, str]]:
    text = README.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in _BLOCK.finditer(text)]


def test_readme_has_python_examples() -> None:
    assert len(_blocks()) >= 15


def test_readme_python_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {"__name__": "readme"}
    for line, code in _blocks():
        if ">>>" in code:
            test = doctest.DocTestParser().get_doctest(code, namespace, f"README.md:{line}", str(README), line)
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
            runner.run(test, clear_globs=False)
            namespace.update(test.globs)  # DocTest works on a copy; later blocks build on its names
            assert runner.failures == 0, f"README.md line {line}: doctest failed (run pytest -s to see it)"
        else:
            try:
                exec(compile(code, f"README.md:{line}", "exec"), namespace)
            except Exception as exc:  # the line number of the block is what a reader needs
                raise AssertionError(f"README.md line {line}: example raised {exc!r}") from exc
