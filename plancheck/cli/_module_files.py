"""What ``mock-plan`` reads of a module's own files, without Terraform: module calls and sensitive variables.

A few tokens of Terraform's native syntax (:func:`hcl_tokens`: words, plain strings, brackets, ``=``;
strings, heredocs and comments skipped as HCL skips them) are enough to find module sources, sensitive
variable declarations and a variables file's plain values, without a full HCL parser; a ``.tf.json``
file is read as JSON.

The secrets ``mock-plan`` must never print are the values given to the module's sensitive variables.
Terraform itself shows a variable's value in some messages (a validation error says ``var.pw is
"..."``), and a value copied into a plain attribute is unmarked in the plan. So every value given
to a variable the module declares ``sensitive = true`` (by ``--var``, a ``--var-file`` or a
``TF_VAR_`` environment variable) is scrubbed from everything ``mock-plan`` prints, and so is every
``--var`` value whose variable the plan's JSON says is sensitive.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any, Final

from .._redact import Secrets, secret_strings

__all__ = ["declared_sensitive", "hcl_tokens", "input_secrets", "plan_sensitive"]

_ESCAPES: Final = {'"': '"', "\\": "\\", "n": "\n", "r": "\r", "t": "\t"}
_HCL_TOKEN: Final = re.compile(
    r"""
    \s+ | \#[^\n]* | //[^\n]* | /\*.*?(?:\*/|\Z)
    | (?P<heredoc> <<-? (?P<tag>[A-Za-z_][\w-]*) [ \t]* \r?\n )
    | (?P<quote> " )
    | (?P<word> [A-Za-z_][\w-]* )
    | (?P<op> ==|!=|<=|>=|=> )
    | (?P<punct> [][{}()=] )
    | (?P<other> . )
    """,
    re.VERBOSE | re.DOTALL,
)


def hcl_tokens(text: str) -> Iterator[tuple[str, str | None]]:
    """The tokens of a native syntax file that matter here: words, plain strings, brackets and ``=``.

    >>> list(hcl_tokens('a = <<EOT\\n}"\\nEOT\\n/* } */ b {"${c}"}'))  # doctest: +NORMALIZE_WHITESPACE
    [('word', 'a'), ('=', None), ('heredoc', None), ('word', 'b'), ('{', None), ('string', None), ('}', None)]
    """
    pos = 0
    while pos < len(text):
        match = _HCL_TOKEN.match(text, pos)
        assert match is not None  # the last alternative takes any one character
        pos = match.end()
        if match["quote"]:
            pos, literal = _hcl_string(text, pos)
            yield "string", literal
        elif match["heredoc"]:
            end = re.compile(rf"^[ \t]*{re.escape(match['tag'])}[ \t]*\r?$", re.MULTILINE).search(text, pos)
            pos = end.end() if end else len(text)
            yield "heredoc", None
        elif match["word"]:
            yield "word", match["word"]
        elif match["punct"]:
            yield match["punct"], None
        elif match["op"] or match["other"]:
            yield "other", None


def _hcl_string(text: str, pos: int) -> tuple[int, str | None]:
    """Skip the quoted template whose opening quote ends at ``pos``: (its end, its value when it is a plain string).

    >>> _hcl_string('"../lib" }', 1), _hcl_string('"a${ {k = "}"}[0] }b" x', 1), _hcl_string('"$${x}"', 1)
    ((8, '../lib'), (21, None), (7, '${x}'))
    """
    # -1: inside quotes; n >= 0: inside ${ } (or %{ }) with n braces open, where a quote opens a nested template.
    stack = [-1]
    value: list[str] = []
    literal = True
    while stack and pos < len(text):
        char = text[pos]
        pos += 1
        if stack[-1] >= 0:
            if char == '"':
                stack.append(-1)
            elif char in "{}":
                stack[-1] += 1 if char == "{" else -1
                if stack[-1] < 0:
                    stack.pop()
        elif char == '"':
            stack.pop()
        elif char == "\n":
            break  # a quoted string ends on its line; Terraform reports the missing quote
        elif char == "\\":
            escaped = _ESCAPES.get(text[pos : pos + 1])
            literal = literal and escaped is not None
            value.append(escaped or "")
            pos += 1
        elif char in "$%" and text.startswith(char + "{", pos):  # $${ and %%{ are a literal ${ and %{
            value.append(char + "{")
            pos += 2
        elif char in "$%" and text.startswith("{", pos):
            literal = False
            stack.append(0)
            pos += 1
        else:
            value.append(char)
    return pos, "".join(value) if literal and not stack else None


# -- module calls ---------------------------------------------------------------------------------


def _json_module_calls(text: str) -> list[tuple[str, str]]:
    """(name, source) of each module block of a JSON file; none when it is not JSON (Terraform says so itself).

    >>> _json_module_calls('{"module": {"lib": {"source": "../lib"}, "net": [{"source": "./net"}]}}')
    [('lib', '../lib'), ('net', './net')]
    """
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        return []
    modules = document.get("module") if isinstance(document, dict) else None
    return [
        (name, body["source"])
        for blocks in _objects(modules)
        for name, bodies in blocks.items()
        for body in _objects(bodies)
        if isinstance(body.get("source"), str)
    ]


def _objects(value: object) -> list[dict[str, Any]]:
    """A JSON block value as its list of objects (Terraform accepts an object or an array of objects)."""
    return [v for v in (value if isinstance(value, list) else [value]) if isinstance(v, dict)]


def _hcl_module_calls(text: str) -> list[tuple[str, str]]:
    """(name, source) of each module block of a native syntax file whose source is a plain string.

    >>> _hcl_module_calls('module "lib" {\\n  source = "../lib" # shared\\n  tags = { source = "./x" }\\n}\\n')
    [('lib', '../lib')]
    """
    return [
        (block, value)
        for block, name, (kind, value) in _arguments(text, "module", ("word", "string"))
        if name == "source" and kind == "string" and value is not None
    ]


def _arguments(text: str, block_type: str, labels: tuple[str, ...]) -> Iterator[tuple[str, str, tuple[str, str | None]]]:
    """(label, name, value token) of each ``NAME = VALUE`` directly in a top-level ``block_type LABEL { }``
    block of a native syntax file whose label is a token of a kind in ``labels`` (a value that opens a
    bracket is none: only a single token is a value here).

    >>> list(_arguments('variable "pw" {\\n  sensitive = true\\n  v = { sensitive = true }\\n}\\n', "variable", ("string",)))
    [('pw', 'sensitive', ('word', 'true'))]
    """
    depth = 0
    block: str | None = None  # the label of the block being read
    last: tuple[tuple[str, str | None], ...] = (("", None), ("", None))
    for kind, value in hcl_tokens(text):
        if kind in ("{", "[", "("):
            if depth == 0 and kind == "{" and last[0] == ("word", block_type) and last[1][0] in labels:
                block = last[1][1]
            depth += 1
        elif kind in ("}", "]", ")"):
            depth = max(depth - 1, 0)
            block = block if depth else None
        elif block is not None and depth == 1 and last[1] == ("=", None):
            name_kind, name = last[0]
            if name_kind == "word" and name is not None:
                yield block, name, (kind, value)
        last = (last[1], (kind, value))


# -- sensitive variables and the values given to them -----------------------------------------------


def declared_sensitive(directory: Path) -> set[str]:
    """The variables the module in ``directory`` declares ``sensitive = true`` (none when it cannot be read).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "v.tf").write_text('variable "pw" {\\n  sensitive = true\\n}\\nvariable "n" {}\\n')
    ...     _ = (Path(d) / "j.tf.json").write_text('{"variable": {"token": {"sensitive": true}, "x": {}}}')
    ...     sorted(declared_sensitive(Path(d)))
    ['pw', 'token']
    """
    found: set[str] = set()
    try:
        paths = sorted(directory.iterdir())
    except OSError:
        return found
    for path in paths:
        name = path.name
        if name.startswith(".") or not name.endswith((".tf", ".tf.json")):
            continue
        try:
            text = path.read_bytes().decode("utf-8", "replace")
        except OSError:
            continue
        found.update(_json_sensitive(text) if name.endswith(".tf.json") else _hcl_sensitive(text))
    return found


def _hcl_sensitive(text: str) -> Iterator[str]:
    for block, name, token in _arguments(text, "variable", ("string",)):
        if name == "sensitive" and token == ("word", "true"):
            yield block


def _json_sensitive(text: str) -> Iterator[str]:
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        return
    for blocks in _objects(document.get("variable") if isinstance(document, dict) else None):
        for name, bodies in blocks.items():
            if any(body.get("sensitive") is True for body in _objects(bodies)):
                yield name


def _file_values(path: str, names: set[str]) -> Iterator[str]:
    """The values a variables file gives to ``names`` (plain strings and JSON values; an expression is not evaluated)."""
    try:
        text = Path(path).read_bytes().decode("utf-8", "replace")
    except OSError:
        return
    if path.endswith(".json"):
        try:
            document = json.loads(text, parse_float=Decimal)  # kept as written: 1.10 shows as 1.10 and as 1.1
        except (ValueError, RecursionError):
            return
        if isinstance(document, dict):
            for name in names & set(document):
                yield from secret_strings(document[name])
        return
    depth = 0
    current: str | None = None  # the variable whose value is being read, at depth 0 and inside its brackets
    last: tuple[str, str | None] = ("", None)
    for kind, value in hcl_tokens(text):
        if depth == 0 and last == ("=", None):
            pass  # the value of the name read just before
        elif depth == 0 and kind == "word":
            current = value
        if kind in ("{", "[", "("):
            depth += 1
        elif kind in ("}", "]", ")"):
            depth = max(depth - 1, 0)
        elif kind == "string" and value is not None and current in names:
            yield value
        last = (kind, value)


def input_secrets(
    directory: Path, variables: Sequence[str], var_files: Sequence[str], environ: Mapping[str, str]
) -> Secrets:
    """The values given to the sensitive variables of the module in ``directory``: by ``--var NAME=VALUE``
    (``variables``), by the variables files, by ``TF_VAR_NAME`` in ``environ``.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "v.tf").write_text('variable "pw" {\\n  sensitive = true\\n}\\n')
    ...     s = input_secrets(Path(d), ["pw=hunter2-x", "n=logs"], [], {"TF_VAR_pw": "env-secret"})
    >>> s.scrub("hunter2-x env-secret logs")
    '(sensitive) (sensitive) logs'
    """
    names = declared_sensitive(directory)
    found: list[str] = []
    for pair in variables:
        name, sep, value = pair.partition("=")
        if sep and name.strip() in names:
            found.append(value)
    for path in var_files:
        found.extend(_file_values(path, names))
    found.extend(environ[f"TF_VAR_{name}"] for name in names if f"TF_VAR_{name}" in environ)
    return Secrets(found)


def plan_sensitive(document: Mapping[str, Any], variables: Sequence[str]) -> Secrets:
    """The ``--var`` values whose variable the plan (``configuration.root_module.variables``) says is sensitive.

    ``document`` is the plan as the loader read it (``Plan.raw``).

    >>> doc = {"configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}}}
    >>> len(plan_sensitive(doc, ["pw=hunter2-x", "n=logs"]))
    1
    """
    try:
        declared = document["configuration"]["root_module"]["variables"]
        names = {name for name, body in declared.items() if isinstance(body, Mapping) and body.get("sensitive") is True}
    except (KeyError, TypeError, AttributeError):
        return Secrets()
    found = []
    for pair in variables:
        name, sep, value = pair.partition("=")
        if sep and name.strip() in names:
            found.append(value)
    return Secrets(found)
