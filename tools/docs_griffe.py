"""A griffe extension for the documentation site: docstrings' doctest examples become code blocks.

The library's docstrings are prose with doctest examples (every public name has one, and the suite
runs them); mkdocstrings renders docstrings as Markdown, where ``>>>`` would start a quote.
This fences each run of doctest lines as ``pycon``, so the examples render as the code they are.
"""

from __future__ import annotations

import ast
from typing import Any

import griffe

__all__ = ["DoctestFences", "fence_doctests"]


def fence_doctests(text: str) -> str:
    """``text`` with every doctest example (``>>>`` up to the next blank line) fenced as ``pycon``.

    >>> fence_doctests("Prose.\\n\\n>>> 1 + 1\\n2\\n\\nMore.").split("\\n")
    ['Prose.', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'More.']
    >>> fence_doctests("```python\\n>>> x\\n```") == "```python\\n>>> x\\n```"   # already fenced: left alone
    True
    """
    out: list[str] = []
    in_example = in_fence = False
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped.startswith("```"):
            in_fence = not in_fence
        elif not in_fence and not in_example and stripped.startswith(">>>"):
            in_example = True
            out.append("```pycon")
        elif in_example and not stripped:
            in_example = False
            out.append("```")
        out.append(line)
    if in_example:
        out.append("```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fences the doctest examples of every docstring griffe loads (see :func:`fence_doctests`).

    >>> from types import SimpleNamespace
    >>> obj = SimpleNamespace(docstring=SimpleNamespace(value=">>> 1\\n1"))
    >>> DoctestFences().on_instance(node=None, obj=obj, agent=None)
    >>> obj.docstring.value
    '```pycon\\n>>> 1\\n1\\n```'
    """

    def on_instance(self, *, node: ast.AST | Any, obj: Any, agent: Any, **kwargs: Any) -> None:
        docstring = getattr(obj, "docstring", None)
        if docstring is not None and ">>>" in docstring.value:
            docstring.value = fence_doctests(docstring.value)
