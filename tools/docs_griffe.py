"""A griffe extension for the documentation site: doctest examples become code blocks, reST roles links.

The library's docstrings are prose with doctest examples (every public name has one, and the suite
runs them) and Sphinx-style cross-references (``:func:`render```); mkdocstrings renders docstrings as
Markdown, where ``>>>`` would start a quote and a role would show as raw text. This fences each run of
doctest lines as ``pycon``, so the examples render as the code they are, and turns each role into an
optional autorefs cross-reference: a link where the target is rendered on the site, plain code where it
is not (a private helper). Only the rendered copy changes: the source docstrings, and so the doctests,
are untouched.
"""

from __future__ import annotations

import ast
import html
import re
from collections.abc import Callable, Iterator
from typing import Any

import griffe

__all__ = ["DoctestFences", "fence_doctests", "link_roles"]


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


#: A Sphinx role (``:func:`x```, ``:py:meth:`~a.b```): Python-domain roles only, the ones docstrings use.
_ROLE = r":(?:py:)?(?:func|class|meth|attr|mod|data|exc|obj|const|type):`(?P<short>~?)(?P<target>[\w.]+)(?P<call>\(\))?`"
_TOKEN = re.compile(rf"{_ROLE}|(?P<code>``.+?``|`[^`]+`)")


def link_roles(text: str, resolve: Callable[[str], str | None]) -> str:
    """``text`` with every reST role outside code fences and inline code as an optional autorefs reference.

    ``resolve`` turns a role's target (as written: relative to the docstring's scope, or dotted) into the
    full identifier autorefs knows, or None when it cannot. A ``~`` shows the last name only, as in Sphinx.
    An optional reference renders as a link when its target is on the site, and as plain code otherwise.

    >>> full = {"render": "plancheck.snapshot.render", "Plan.from_json": "plancheck.Plan.from_json"}
    >>> link_roles("See :func:`render` and :meth:`~Plan.from_json`.", full.get)
    'See <autoref identifier="plancheck.snapshot.render" optional><code>render</code></autoref> and \
<autoref identifier="plancheck.Plan.from_json" optional><code>from_json</code></autoref>.'
    >>> link_roles(":func:`nowhere`", full.get)            # unresolvable: code, never raw role text
    '<code>nowhere</code>'
    >>> link_roles("```\\n:func:`render`\\n```", full.get)   # inside a fence: left alone
    '```\\n:func:`render`\\n```'
    """
    out: list[str] = []
    in_fence = False
    for line in text.split("\n"):
        if line.strip().startswith("```"):
            in_fence = not in_fence
        elif not in_fence and ":`" in line:
            line = _link_line(line, resolve)
        out.append(line)
    return "\n".join(out)


def _link_line(line: str, resolve: Callable[[str], str | None]) -> str:
    # Read left to right, a role or an inline code span (``x`` or `x`) at a time: a code span holds
    # literal text, so a role inside one is shown as written.
    def one(match: re.Match[str]) -> str:
        return match.group(0) if match.group("code") else _reference(match, resolve)

    return _TOKEN.sub(one, line)


def _reference(match: re.Match[str], resolve: Callable[[str], str | None]) -> str:
    short, target, call = match.group("short"), match.group("target"), match.group("call") or ""
    shown = html.escape((target.rsplit(".", 1)[-1] if short else target) + call)
    identifier = resolve(target)
    if identifier is None:
        return f"<code>{shown}</code>"
    return f'<autoref identifier="{html.escape(identifier)}" optional><code>{shown}</code></autoref>'


def _resolver(obj: Any) -> Callable[[str], str | None]:
    """Resolves a role's target as Python would from ``obj``'s scope: its own members, then its parents'."""

    def resolve(target: str) -> str | None:
        first, _, rest = target.partition(".")
        scope = obj
        while scope is not None:
            try:
                found = scope.resolve(first) if scope.is_module or scope.is_class else None
            except (griffe.NameResolutionError, griffe.AliasResolutionError, griffe.CyclicAliasError):
                found = None  # not a name of this scope (or an alias whose target is not loaded): the parent's?
            if found is not None:
                return f"{found}.{rest}" if rest else str(found)
            scope = scope.parent
        return target if "." in target else None

    return resolve


def _objects(obj: Any) -> Iterator[Any]:
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _objects(member)


class DoctestFences(griffe.Extension):
    """Fences the doctest examples of every docstring griffe loads (see :func:`fence_doctests`), and links
    its reST roles (see :func:`link_roles`) once the whole package is loaded, so that names resolve.

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

    def on_package(self, *, pkg: Any, **kwargs: Any) -> None:
        for obj in _objects(pkg):
            if obj.docstring is not None and ":`" in obj.docstring.value:
                obj.docstring.value = link_roles(obj.docstring.value, _resolver(obj))
