"""The HTML report: an index of the modules, and a page per module showing its files with each block coloured.

A block's colour is the status of its item (all of its instances at every call site merged): ``covered``
(planned, asserted unless no check can address it, each condition seen passing and failing), ``partial``
(planned, but an assertable item not asserted or a condition not seen both ways) or ``missed`` (never
planned). An item no check can address (a variable, a module call, a child module's output, a ``check``
block: :func:`.data.assertable`) has ``n/a`` as its asserted cell. Lines are located by the block scan of the
module's files (:mod:`.scan`); a module that is not local (a registry source) has its item table only.
What the page shows of a file never holds a secret: a sensitive variable's default is withheld, and so is every
line that shows a secret of a plan of the module (found as the plan was read: the data's withheld lines, so a worker's
data and ``coverage combine`` withhold them too); every other line passes through the session's scrub when there is
one.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path
from typing import Final

from ..._loading.source import make_directories, why_unread
from .data import CoverageData, ItemData, ModuleData, assertable, counts, percent
from .scan import scan_module

__all__ = ["status_of", "write_html"]

_STYLE: Final = """
body { font-family: sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }
td.n { text-align: right; }
.covered { background: #c8f0c8; }
.partial { background: #fff0a8; }
.missed { background: #f8c0c0; }
.legend span { display: inline-block; padding: 0.2em 0.8em; margin-right: 0.5em; border: 1px solid #aaa; }
pre.source { border: 1px solid #ccc; padding: 0; margin: 0 0 2em 0; }
pre.source span.line { display: block; padding: 0 0.5em; }
pre.source span.no { display: inline-block; width: 3em; color: #888; user-select: none; }
"""
_LEGEND: Final = (
    '<p class="legend"><span class="covered">covered: planned, asserted (or n/a: no check can address it), '
    'every condition seen both ways</span>'
    '<span class="partial">partial: planned, but not asserted (where a check can address it) or a condition '
    'not seen both ways</span>'
    '<span class="missed">missed: never planned</span></p>'
)
_WITHHELD: Final = "(withheld: a sensitive value)"
#: The line where a variable's default starts: ``default =`` and the value, the argument's name kept.
_DEFAULT_LINE: Final = re.compile(r"(\s*default\s*)=")


def status_of(item: ItemData, can_assert: bool = True) -> str:
    """``covered``, ``partial`` or ``missed``; ``can_assert``: whether a check can address the item at all.

    >>> status_of(ItemData("resource", planned=True)), status_of(ItemData("output"))
    ('partial', 'missed')
    >>> status_of(ItemData("variable", planned=True), can_assert=False)
    'covered'
    """
    if not item.planned:
        return "missed"
    if (item.asserted or not can_assert) and all(c in item.passed and c in item.failed for c in item.conditions):
        return "covered"
    return "partial"


def _page(title: str, body: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f"<style>{_STYLE}</style></head><body>\n{body}\n</body></html>\n")


def _file_name(key: str, taken: set[str]) -> str:
    # At most 100 characters: a file name has at most 255 bytes, and a deeply nested module's key or a registry
    # source in full has more (its page was not written, nor the index); two keys alike so far differ by a number.
    base = re.sub(r"[^A-Za-z0-9_.-]+", "_", key)[:100].strip("._") or "module"
    name, n = f"{base}.html", 2
    while name in taken or name == "index.html":
        name, n = f"{base}-{n}.html", n + 1
    taken.add(name)
    return name


def _items_table(module: ModuleData) -> str:
    rows = ["<table><tr><th>Item</th><th>Kind</th><th>Planned</th><th>Actions</th><th>Asserted</th>"
            "<th>Paths asserted</th><th>Conditions (passed / failed)</th></tr>"]
    for address, item in sorted(module.items.items()):
        can_assert = assertable(address, item)
        conditions = ", ".join(
            f"{c.replace(':', '[')}]: {'yes' if c in item.passed else 'no'} / {'yes' if c in item.failed else 'no'}"
            for c in item.conditions
        )
        rows.append(
            f'<tr class="{status_of(item, can_assert)}"><td>{html.escape(address)}</td><td>{item.kind}</td>'
            f"<td>{'yes' if item.planned else 'no'}</td><td>{html.escape(', '.join(sorted(item.actions)))}</td>"
            f"<td>{'yes' if item.asserted else 'no' if can_assert else 'n/a'}</td><td>{html.escape(', '.join(sorted(item.paths)))}</td>"
            f"<td>{html.escape(conditions)}</td></tr>"
        )
    rows.append("</table>")
    return "\n".join(rows)


def _merged(module: ModuleData, relative: str) -> tuple[ItemData, bool] | None:
    """The item a block declares, merged over every call site of the module (``module.x.`` prefixes), and whether
    a check can address it at one of them at least."""
    found = [(address, item) for address, item in module.items.items()
             if address == relative or (address.endswith("." + relative) and _is_prefix(address[: -len(relative) - 1]))]
    if not found:
        return None
    merged = ItemData(found[0][1].kind)
    for _, item in found:
        merged.merge(item)
    return merged, any(assertable(address, item) for address, item in found)


def _is_prefix(text: str) -> bool:
    return re.fullmatch(r"module\.[^.]+(\.module\.[^.]+)*", text) is not None


def _sources(module: ModuleData, directory: Path, scrub: Callable[[str], str] | None) -> str:
    scanned = scan_module(directory)
    by_file: dict[str, dict[int, str]] = {}
    for declared in scanned.items:
        found = _merged(module, declared.address)
        if found is None:
            continue
        lines = by_file.setdefault(declared.file, {})
        for line in range(declared.start, declared.end + 1):
            lines[line] = status_of(*found)
    parts = []
    for error in scanned.errors:
        parts.append(f"<p>Not coloured: {html.escape(error)}</p>")
    for name in scanned.files:
        try:
            text = (directory / name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            parts.append(f"<h3>{html.escape(name)}</h3><p>cannot be read ({html.escape(why_unread(exc))})</p>")
            continue
        withheld = module.withheld.get(name, set())
        colours = by_file.get(name, {})
        shown = []
        for number, source in enumerate(text.split("\n"), start=1):
            if number in withheld:
                # The .tf line naming the default keeps that name. Any other line of the value goes whole: what stands
                # before an "=" there (a heredoc's line, a list item, a map key) is the value too, as is a .tf.json line.
                named = _DEFAULT_LINE.match(source) if name.endswith(".tf") else None
                source = f"{named[1]}= {_WITHHELD}" if named else _WITHHELD
            elif scrub is not None:
                source = scrub(source)
            css = colours.get(number)
            attribute = f' class="line {css}"' if css else ' class="line"'
            shown.append(f'<span{attribute} id="{html.escape(name)}-{number}"><span class="no">{number}</span>'
                         f"{html.escape(source)}</span>")
        parts.append(f'<h3>{html.escape(name)}</h3>\n<pre class="source">{"".join(shown)}</pre>')
    return "\n".join(parts)


def write_html(data: CoverageData, directory: Path, rootdir: Path, scrub: Callable[[str], str] | None) -> None:
    """Write ``index.html`` and a page per module into ``directory`` (made when missing).

    ``rootdir`` is what local module keys are relative to; ``scrub`` hides the session's secrets in the
    lines shown of a module's files.
    """
    make_directories(directory)
    total = percent(pair for module in data.modules.values() for pair in module.items.items())
    taken: set[str] = set()
    rows = ["<table><tr><th>Module</th><th>Items</th><th>Planned</th><th>Asserted</th><th>Percent</th></tr>"]
    for key, module in sorted(data.modules.items()):
        name = _file_name(key, taken)
        items = module.items.items()
        n, planned, asserted, can, _, _ = counts(items)
        rows.append(
            f'<tr><td><a href="{name}">{html.escape(key)}</a></td><td class="n">{n}</td>'
            f'<td class="n">{planned}</td><td class="n">{asserted}/{can}</td>'
            f'<td class="n">{percent(items):.2f}%</td></tr>'
        )
        body = [f"<h1>Terraform coverage: {html.escape(key)}</h1>",
                f'<p><a href="index.html">All modules</a> &middot; {percent(items):.2f}%</p>', _LEGEND,
                _items_table(module)]
        local = rootdir / key
        if module.local and local.is_dir():
            body.append(_sources(module, local, scrub))
        elif not module.local:
            body.append("<p>Not a local module: its files are not shown.</p>")
        else:
            body.append(f"<p>The module's directory {html.escape(key)} is not here: its files are not shown.</p>")
        if not module.checks_available:
            body.append("<p>Conditions' outcomes: not available (no plan of this module came from Terraform 1.5+).</p>")
        (directory / name).write_text(_page(f"Terraform coverage: {key}", "\n".join(body)), encoding="utf-8")
    rows.append("</table>")
    index = [f"<h1>Terraform coverage: {total:.2f}%</h1>", _LEGEND, "\n".join(rows)]
    (directory / "index.html").write_text(_page("Terraform coverage", "\n".join(index)), encoding="utf-8")
