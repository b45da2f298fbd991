"""A block scan of a module's files: which items it declares, their conditions, and where each is written.

Test coverage needs what a plan's ``configuration`` does not carry: ``check`` blocks, the conditions of
each item (variable ``validation``, ``lifecycle`` ``precondition``/``postcondition``, an output's
``precondition``, a check block's ``assert``) and the lines of each block (the HTML report colours them).
A ``.tf`` file is scanned for its blocks only: strings (with their ``${...}`` templates), heredocs and
comments are skipped, an attribute's expression is skipped to its end, and nothing is evaluated. A
``.tf.json`` file is read by :mod:`plancheck.tfconfig`. A file that cannot be scanned is named with the
reason (:class:`ScanError`) and its items are left to what the plans say.
"""

from __future__ import annotations

import bisect
import json
import os
import re
from pathlib import Path
from typing import Final, NamedTuple

from ..._errors import TfCheckError
from ..._loading.source import tofu_hides, tool_of, why_unread
from ..._text import flagged_sensitive, hcl_nested_assignments

__all__ = ["CONDITION_KINDS", "Declared", "ScanError", "ScannedModule", "locate", "scan_module", "scan_text"]

#: The condition kinds, in the order an item lists them.
CONDITION_KINDS: Final = ("validation", "precondition", "postcondition", "assert")

#: A name as HCL reads one: a Unicode identifier (a letter of any script or ``_``, then letters, digits, ``_``, ``-``).
_IDENT: Final = re.compile(r"[^\W\d][\w-]*")
#: Runs of characters the scanner passes over, skipped at once: blanks and comments (a line comment up to its line's
#: end; a closed ``/* */`` one whole), without line ends and with them (between items); what an expression holds
#: besides strings, comments, brackets and its line's end; what a string holds besides escapes, templates, its closing
#: quote and a line end.
_SPACE: Final = tuple(
    re.compile(rf"(?:[ \t\r{newline}]+|#[^\n]*|//[^\n]*|/\*.*?\*/)*", re.DOTALL) for newline in ("", "\n")
)
_PLAIN_EXPRESSION: Final = re.compile(r'[^"<#/()\[\]{}\n]+')
_PLAIN_STRING: Final = re.compile(r'[^"\\$%\n]+')
#: An attribute whose value is one plain string or word on its line (most are): read with one match, as the
#: statement-by-statement scan reads it (its value as written, stripped; the line's end or a ``}`` left to read).
_SIMPLE_ATTRIBUTE: Final = re.compile(r'([A-Za-z_][A-Za-z0-9_-]*)[ \t]*=[ \t]*("[^"\\$%\n]*"|[A-Za-z0-9_.]+)[ \t]*(?=[\n}])')
#: A block header whose labels are plain strings without blanks or words, blank-separated on its line (most are):
#: read with one match, as the label-by-label scan reads it (its type, then its labels split at the blanks; the ``{``
#: taken).
_SIMPLE_HEADER: Final = re.compile(r'([A-Za-z_][A-Za-z0-9_-]*)((?:[ \t]+(?:"[^"\\$%\s]*"|[A-Za-z_][A-Za-z0-9_-]*))*)[ \t]*\{')
#: Top-level block type -> (item kind, address prefix, number of labels).
_ITEMS: Final = {
    "resource": ("resource", "", 2),
    "data": ("data", "data.", 2),
    "variable": ("variable", "var.", 1),
    "output": ("output", "output.", 1),
    "module": ("module", "module.", 1),
    "check": ("check", "check.", 1),
}


class ScanError(TfCheckError, ValueError):
    """A file the block scan cannot follow: ``file``, its 1-based ``line`` and what was wrong.

    >>> str(ScanError("main.tf", 3, "unterminated string"))
    'main.tf:3: unterminated string'
    """

    def __init__(self, file: str, line: int, problem: str) -> None:
        self.file = file
        self.line = line
        self.problem = problem
        super().__init__(f"{file}:{line}: {problem}")


class Declared(NamedTuple):
    """One declared item: its kind, module-relative address, conditions per kind, file and lines.

    ``withheld`` are the lines of values that must never be shown (a sensitive variable's default);
    ``condition_lines`` the first and last line of each condition block, as (kind, index, start, end): what a
    Terraform diagnostic's location is matched against (empty for a ``.tf.json`` file, whose lines are not known).

    >>> Declared("variable", "var.name", "main.tf", 1, 4, (("validation", 1),)).condition_count
    1
    """

    kind: str
    address: str
    file: str
    start: int
    end: int
    conditions: tuple[tuple[str, int], ...] = ()
    withheld: tuple[int, ...] = ()
    condition_lines: tuple[tuple[str, int, int, int], ...] = ()

    @property
    def condition_count(self) -> int:
        """How many conditions the item declares."""
        return sum(n for _, n in self.conditions)


class ScannedModule(NamedTuple):
    """What a module directory's files declare: items in file order, and each file that could not be scanned;
    ``withheld``: (file, lines) of values outside any item that must never be shown (OpenTofu's encryption keys);
    ``files``: the files scanned, in name order.

    >>> ScannedModule((), ()).items
    ()
    """

    items: tuple[Declared, ...]
    errors: tuple[str, ...]
    withheld: tuple[tuple[str, tuple[int, ...]], ...] = ()
    #: The files scanned, in name order: those the tool reads.
    files: tuple[str, ...] = ()


class _Block:
    """A block found by the scan: type, labels, lines, nested blocks and attributes (name -> lines and text)."""

    def __init__(self, kind: str, labels: list[str], start: int) -> None:
        self.kind = kind
        self.labels = labels
        self.start = start
        self.end = start
        self.children: list[_Block] = []
        self.attributes: dict[str, tuple[int, int, str]] = {}


class _Scanner:
    def __init__(self, text: str, name: str) -> None:
        self.t = text
        self.n = len(text)
        self.i = 1 if text.startswith("\ufeff") else 0  # a byte order mark, which Terraform reads past
        self.name = name
        self.newlines = [m.start() for m in re.finditer("\n", text)]

    def line(self, pos: int) -> int:
        return bisect.bisect_left(self.newlines, pos) + 1

    def fail(self, problem: str, pos: int | None = None) -> ScanError:
        return ScanError(self.name, self.line(self.i if pos is None else pos), problem)

    def skip_space(self, newlines: bool) -> None:
        match = _SPACE[newlines].match(self.t, self.i)
        assert match is not None  # the pattern matches the empty string
        self.i = match.end()
        if self.t.startswith("/*", self.i):  # what stops the run there is a comment without its end
            raise self.fail("unterminated comment")

    def body(self, block: _Block | None) -> list[_Block]:
        found: list[_Block] = []
        while True:
            self.skip_space(True)
            if self.i >= self.n:
                if block is not None:
                    raise self.fail(f"block {block.kind} opened on line {block.start} is not closed")
                return found
            if self.t[self.i] == "}":
                if block is None:
                    raise self.fail("unexpected }")
                block.end = self.line(self.i)
                self.i += 1
                return found
            start = self.i
            simple = _SIMPLE_ATTRIBUTE.match(self.t, start)
            if simple is not None:
                if block is not None:
                    line = self.line(start)
                    block.attributes[simple.group(1)] = (line, line, simple.group(2))
                self.i = simple.end()
                continue
            header = _SIMPLE_HEADER.match(self.t, start)
            if header is not None:
                self.i = header.end()
                kind = header.group(1)
                labels = [label[1:-1] if label[0] == '"' else label for label in header.group(2).split()]
            else:
                match = _IDENT.match(self.t, self.i)
                if match is None:
                    raise self.fail(f"unexpected {self.t[self.i]!r}")
                self.i = match.end()
                self.skip_space(False)
                if self.t.startswith("=", self.i) and not self.t.startswith("==", self.i):
                    self.attribute(block, match.group())
                    continue
                kind = match.group()
                labels = self.labels(kind, start)
            child = _Block(kind, labels, self.line(start))
            child.children = self.body(child)
            found.append(child)

    def attribute(self, block: _Block | None, name: str) -> None:
        """Read an attribute's value from its ``=`` on: skipped, and kept as written when it is a block's."""
        self.i += 1
        value_start = self.i
        self.expression()
        if block is not None:
            block.attributes[name] = (self.line(value_start), self.line(self.i), self.t[value_start:self.i].strip())

    def labels(self, kind: str, start: int) -> list[str]:
        """A block header's labels read one by one, its ``{`` taken: the header the one-match reading did not take."""
        labels: list[str] = []
        while self.i < self.n and self.t[self.i] != "{":
            if self.t[self.i] == '"':
                label_start = self.i
                self.string()
                labels.append(self.t[label_start + 1:self.i - 1])
            else:
                label = _IDENT.match(self.t, self.i)
                if label is None:
                    raise self.fail(f"expected a label or {{ after {kind}")
                labels.append(label.group())
                self.i = label.end()
            self.skip_space(False)
        if self.i >= self.n:
            raise self.fail(f"expected {{ after {kind}", start)
        self.i += 1
        return labels

    def expression(self) -> None:
        """Skip an attribute's expression: to the end of its line outside brackets, or to an enclosing ``}``."""
        t = self.t
        depth = 0
        while self.i < self.n:
            c = t[self.i]
            if c == '"':
                self.string()
            elif t.startswith("<<", self.i):
                self.heredoc()
            elif c == "#" or t.startswith("//", self.i) or t.startswith("/*", self.i):
                self.skip_space(False)
            elif c in "([{":
                depth += 1
                self.i += 1
            elif c in ")]}":
                if depth == 0:
                    return
                depth -= 1
                self.i += 1
            elif c == "\n" and depth == 0:
                return
            else:
                plain = _PLAIN_EXPRESSION.match(t, self.i)
                self.i = self.i + 1 if plain is None else plain.end()

    def string(self) -> None:
        start = self.i
        self.i += 1
        t = self.t
        while self.i < self.n:
            c = t[self.i]
            if c == "\\":
                self.i += 2
            elif c == '"':
                self.i += 1
                return
            elif t.startswith(("$${", "%%{"), self.i):
                self.i += 3
            elif t.startswith(("${", "%{"), self.i):
                self.i += 2
                self.template()
            elif c == "\n":
                break
            else:
                plain = _PLAIN_STRING.match(t, self.i)
                self.i = self.i + 1 if plain is None else plain.end()
        raise self.fail("unterminated string", start)

    def template(self) -> None:
        depth = 1
        start = self.i
        while self.i < self.n:
            c = self.t[self.i]
            if c == '"':
                self.string()
                continue
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    self.i += 1
                    return
            self.i += 1
        raise self.fail("unterminated template", start)

    def heredoc(self) -> None:
        match = re.compile(r"<<-?([A-Za-z_][A-Za-z0-9_-]*)[ \t]*\r?\n").match(self.t, self.i)
        if match is None:
            self.i += 2  # a shift operator would be an error later; here it is not a heredoc
            return
        end = re.compile(rf"^[ \t]*{re.escape(match.group(1))}[ \t]*\r?$", re.MULTILINE).search(self.t, match.end())
        if end is None:
            raise self.fail("unterminated heredoc")
        self.i = end.end()


def _condition_blocks(block: _Block) -> list[tuple[str, int, int, int]]:
    """Each condition block of ``block``: (kind, index within its kind, first line, last line), in file order."""
    found: list[tuple[str, int, int, int]] = []
    counts: dict[str, int] = {}

    def add(kind: str, blocks: list[_Block]) -> None:
        for child in blocks:
            if child.kind == kind:
                found.append((kind, counts.get(kind, 0), child.start, child.end))
                counts[kind] = counts.get(kind, 0) + 1

    if block.kind == "variable":
        add("validation", block.children)
    elif block.kind in ("resource", "data"):
        for lifecycle in (b for b in block.children if b.kind == "lifecycle"):
            add("precondition", lifecycle.children)
            add("postcondition", lifecycle.children)
    elif block.kind == "output":
        add("precondition", block.children)
    elif block.kind == "check":
        add("assert", block.children)
    return found


def _conditions(found: list[tuple[str, int, int, int]]) -> tuple[tuple[str, int], ...]:
    counts: dict[str, int] = {}
    for kind, _, _, _ in found:
        counts[kind] = counts.get(kind, 0) + 1
    return tuple((kind, counts[kind]) for kind in CONDITION_KINDS if kind in counts)


def _withheld(block: _Block) -> tuple[int, ...]:
    sensitive = block.attributes.get("sensitive")
    if block.kind != "variable" or sensitive is None or not flagged_sensitive(sensitive[2]):
        return ()
    if "default" not in block.attributes:
        return ()
    first, last, _ = block.attributes["default"]
    return tuple(range(first, last + 1))


def scan_text(text: str, name: str) -> list[Declared]:
    """The items a ``.tf`` file's text declares, in file order.

    >>> [(d.address, d.start, d.end, d.conditions) for d in scan_text('''
    ... variable "n" {
    ...   default = "${"}"}" # not a brace
    ...   validation {
    ...     condition     = length(var.n) > 0
    ...     error_message = <<EOT
    ... }
    ... EOT
    ...   }
    ... }
    ... resource "t" "a" { lifecycle { precondition { condition = true } } }
    ... ''', "main.tf")]
    [('var.n', 2, 10, (('validation', 1),)), ('t.a', 11, 11, (('precondition', 1),))]
    >>> scan_text('resource "t" "a" {', "bad.tf")
    Traceback (most recent call last):
    ...
    plancheck._plugin.coverage.scan.ScanError: bad.tf:1: block resource opened on line 1 is not closed
    """
    found: list[Declared] = []
    for block in _Scanner(text, name).body(None):
        spec = _ITEMS.get(block.kind)
        if spec is None or len(block.labels) != spec[2]:
            continue
        kind, prefix, _ = spec
        address = prefix + ".".join(block.labels)
        if not block.children:  # most items: no nested block, so no condition (a tuple's defaults)
            found.append(Declared(kind, address, name, block.start, block.end, (), _withheld(block)))
            continue
        conditions = _condition_blocks(block)
        found.append(Declared(
            kind, address, name, block.start, block.end, _conditions(conditions), _withheld(block), tuple(conditions),
        ))
    return found


def _encryption_lines(text: str) -> tuple[int, ...]:
    """The lines of a ``.tf`` file's values that OpenTofu's ``encryption`` block takes as key material.

    >>> _encryption_lines('terraform {\\n  encryption {\\n    key_provider "pbkdf2" "k" {\\n      passphrase = <<EOT\\n'
    ...                   'hunter2\\nEOT\\n      key_length = 32\\n    }\\n  }\\n}\\n')
    (4, 5, 6)
    """
    from ..._terraform.mock.plan import ENCRYPTION_SECRETS, REFERENCE

    lines: list[int] = []
    for _, source, start in hcl_nested_assignments(text, ("terraform", "encryption"), ENCRYPTION_SECRETS):
        if REFERENCE.fullmatch(source.strip()):
            continue  # names a key provider (key_provider.pbkdf2.k) or a variable: no key
        first = text.count("\n", 0, start) + 1
        lines.extend(range(first, first + source.rstrip().count("\n") + 1))
    return tuple(lines)


def _scan_json(path: Path, name: str, tool: str) -> tuple[list[Declared], tuple[int, ...]]:
    """The items of a ``.tf.json`` file, and the lines of its values OpenTofu's encryption takes as key material."""
    from ..._terraform.mock.plan import encryption_value_secrets
    from ...tfconfig import ConfigFormatError, load_config

    # The plan does not say which tool wrote it: a file either reads is scanned as that one reads it (a module call's
    # lifecycle and a provider's for_each are OpenTofu's, Terraform refuses them; an action block is Terraform's).
    refused: ConfigFormatError | None = None
    for flavor in ("terraform", "opentofu") if tool == "terraform" else ("opentofu",):
        try:
            config = load_config(path, strict=False, merge_overrides=False, flavor=flavor)
            break
        except ConfigFormatError as exc:
            refused = refused or exc
    else:
        raise ScanError(name, 1, str(refused)) from None
    found: list[Declared] = []
    keys: list[int] = []
    for encryption in (e for b in config.blocks if b.block_type == "terraform" for e in b.blocks("encryption")):
        if encryption_value_secrets(encryption.body):
            keys.extend(_json_lines(path, encryption.line, encryption.column, "encryption"))
    for block in config.blocks:
        spec = _ITEMS.get(block.block_type)
        if spec is None or len(block.labels) != spec[2]:
            continue
        kind, prefix, _ = spec
        nested = list(block.blocks())
        counts: dict[str, int] = {}
        for child in nested:
            inner = list(child.blocks()) if child.block_type == "lifecycle" else [child]
            for condition in inner:
                if condition.block_type in CONDITION_KINDS:
                    counts[condition.block_type] = counts.get(condition.block_type, 0) + 1
        line = block.line or 1
        withheld: tuple[int, ...] = ()
        if kind == "variable" and block.get("sensitive") not in (None, False, "false") and block.has("default"):
            withheld = _json_lines(path, block.line, block.column, block.labels[-1])
        found.append(Declared(
            kind, prefix + ".".join(block.labels), name, line, line,
            tuple((k, counts[k]) for k in CONDITION_KINDS if k in counts), withheld,
        ))
    return found, tuple(keys)


def _json_lines(path: Path, line: int | None, column: int | None, label: str) -> tuple[int, ...]:
    """The lines of the ``"label": {...}`` member whose name starts at ``line``:``column`` of a ``.tf.json`` file (a
    sensitive variable's body: the reader keeps no line of its default), or every line of the file when that member
    cannot be found there."""
    text = path.read_text(encoding="utf-8")
    everything = tuple(range(1, text.count("\n") + 2))
    if line is None or column is None:
        return everything
    lines = text.split("\n")
    start = sum(len(before) + 1 for before in lines[: line - 1]) + column - 1
    decoder = json.JSONDecoder()
    try:
        key, at = decoder.raw_decode(text, start)
        colon = re.compile(r"\s*:\s*").match(text, at)
        if key != label or colon is None:
            return everything
        _, end = decoder.raw_decode(text, colon.end())
    except ValueError:
        return everything
    return tuple(range(line, text.count("\n", 0, end) + 2))


def scan_module(directory: str | os.PathLike[str], flavor: str | None = None) -> ScannedModule:
    """Scan every ``.tf`` and ``.tf.json`` file of ``directory`` (not its subdirectories), in name order; for the
    ``"opentofu"`` flavor also every ``.tofu`` and ``.tofu.json`` file, each hiding the ``.tf`` (``.tf.json``) file of
    its name, as OpenTofu reads them (a JSON file by OpenTofu's schema alone). Without a flavor, a directory holding
    a ``.tofu`` or ``.tofu.json`` file is OpenTofu's (Terraform reads none), any other Terraform's.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "main.tf").write_text('output "o" {\\n  value = 1\\n}\\n')
    ...     [item.address for item in scan_module(d).items]
    ...     _ = (Path(d) / "main.tofu").write_text('output "t" {\\n  value = 1\\n}\\n')
    ...     [item.address for item in scan_module(d).items], scan_module(d, "terraform").files
    ['output.o']
    (['output.t'], ('main.tf',))
    """
    root = Path(directory)
    tool = tool_of(root) if flavor is None else flavor
    suffixes = (".tf", ".tf.json", ".tofu", ".tofu.json") if tool == "opentofu" else (".tf", ".tf.json")
    items: list[Declared] = []
    errors: list[str] = []
    withheld: list[tuple[str, tuple[int, ...]]] = []
    try:
        names = sorted(entry.name for entry in root.iterdir() if entry.is_file())
    except OSError as exc:
        return ScannedModule((), (f"{root}: cannot be read ({why_unread(exc)})",))
    files = [n for n in names if n.endswith(suffixes) and not (tool == "opentofu" and tofu_hides(n, names))]
    for name in files:
        path = root / name
        try:
            if name.endswith((".tf", ".tofu")):
                text = path.read_text(encoding="utf-8")
                items.extend(scan_text(text, name))
                keys = _encryption_lines(text) if "encryption" in text else ()
            else:
                declared, keys = _scan_json(path, name, tool)
                items.extend(declared)
            if keys:
                withheld.append((name, keys))
        except ScanError as exc:
            errors.append(str(exc))
        except (OSError, UnicodeDecodeError) as exc:
            errors.append(f"{name}: cannot be read ({why_unread(exc)})")
    return ScannedModule(tuple(items), tuple(errors), tuple(withheld), tuple(files))


def locate(items: tuple[Declared, ...] | list[Declared], file: str, line: int, kind: str) -> tuple[str, str] | None:
    """The one condition of ``kind`` in ``file`` whose block holds ``line``: (item address, ``kind:index``).

    None when no condition or several hold it (a diagnostic that does not name one condition is not guessed at).

    >>> items = scan_text('''resource "t" "a" {
    ...   lifecycle {
    ...     precondition { condition = true }
    ...     precondition { condition = false }
    ...   }
    ... }
    ... resource "t" "b" { lifecycle { precondition { condition = 1 } precondition { condition = 2 } } }
    ... ''', "main.tf")
    >>> locate(items, "main.tf", 4, "precondition"), locate(items, "main.tf", 4, "postcondition")
    (('t.a', 'precondition:1'), None)
    >>> locate(items, "main.tf", 7, "precondition") is None  # two on the line: not guessed
    True
    """
    found = [
        (item.address, f"{kind}:{index}")
        for item in items if item.file == file
        for condition_kind, index, start, end in item.condition_lines
        if condition_kind == kind and start <= line <= end
    ]
    return found[0] if len(found) == 1 else None
