"""A module directory planned with mocked providers: what ``tfplancheck mock-plan`` and
:func:`plancheck.acceptance.mock_plan` both run (one engine).

:func:`plan_module` copies the module directory to a private temporary directory (with a local
backend override, so no remote state is touched), together with every local module it reaches
(``source = "../lib"``), in the same relative layout and with symlinks replaced by what they point
to; each mock is served in this process and reattached, and ``init``, ``plan`` and ``show -json``
run there: no credentials, no network for the mocked providers. Every process and the temporary
directory are ended and removed when it returns or fails.

It reads a few things of the module's own files without Terraform: module calls and sensitive
variables. A few tokens of Terraform's native syntax (:func:`plancheck._text.hcl_tokens`: words, plain strings,
brackets, ``=``; strings, heredocs and comments skipped as HCL skips them) are enough to find module
sources, sensitive variable declarations and a variables file's plain values, without a full HCL
parser; a ``.tf.json`` file is read as JSON.

The secrets a mocked plan must never print are the values given to the module's sensitive
variables. Terraform itself shows a variable's value in some messages (a validation error says
``var.pw is "..."``), and a value copied into a plain attribute is unmarked in the plan. So every
value given to a variable the module declares ``sensitive = true`` (by a variable, a variables file
or a ``TF_VAR_`` environment variable) is scrubbed from every message, and so is every variable
value whose variable the plan's JSON says is sensitive.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import shutil
from collections.abc import Callable, Iterator, Mapping, Sequence
from decimal import Decimal
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Final

from ..._errors import ArgumentError, DocumentFormatError, TfCheckError
from ..._frozen import public
from ..._loading.jsontext import show_json_refused
from ..._loading.source import write_whole
from ..._redact import Secrets, secret_strings
from ..._text import (
    HCL_ESCAPES,
    HCL_TOKEN,
    flagged_sensitive,
    hcl_nested_assignments,
    hcl_spans,
    hcl_tokens,
    heredoc_body,
    template_literals,
)

if TYPE_CHECKING:
    from ..._documents.plan import Plan
    from .provider import MockProvider

__all__ = [
    "MockPlanArgumentError",
    "MockPlanError",
    "MockPlanFailedError",
    "PLAN_TIMEOUT",
    "REFERENCE",
    "UnreadablePlan",
    "call_secrets",
    "call_value_secrets",
    "child_sensitive",
    "children_sensitive",
    "copy_module",
    "declared_sensitive",
    "encryption_secrets",
    "encryption_value_secrets",
    "find_terraform",
    "input_secrets",
    "plan_module",
    "plan_sensitive",
    "scrubbing",
]

# -- module calls ---------------------------------------------------------------------------------


def _json_module_calls(text: str) -> list[tuple[str, str]]:
    """(name, source) of each module block of a JSON file; none when it is not JSON (Terraform says so itself).

    >>> _json_module_calls('{"module": {"lib": {"source": "../lib"}, "net": [{"source": "./net"}]}}')
    [('lib', '../lib'), ('net', './net')]
    """
    return [(name, body["source"]) for name, body in _json_blocks(text, "module") if isinstance(body.get("source"), str)]


#: What :func:`_json_document` gives for a text that is no JSON.
_NOT_JSON: Final = object()


def _json_document(text: str) -> Any:
    """The JSON document ``text`` holds, numbers exact (kept as written: 1.10 shows as 1.10 and as 1.1), or
    :data:`_NOT_JSON`.

    >>> _json_document('{"n": 1.10}'), _json_document('{"n": 1') is _NOT_JSON
    ({'n': Decimal('1.10')}, True)
    """
    try:
        return json.loads(text, parse_float=Decimal)
    except (ValueError, RecursionError):
        return _NOT_JSON


def _json_blocks(text: str, block_type: str) -> list[tuple[str, dict[str, Any]]]:
    """(label, body) of each ``block_type`` block of a JSON file, numbers exact; none when it is not JSON.

    >>> _json_blocks('{"variable": [{"a": {"default": 1.10}}, {"b": [{}, {"type": "string"}]}]}', "variable")
    [('a', {'default': Decimal('1.10')}), ('b', {}), ('b', {'type': 'string'})]
    """
    document = _json_document(text)
    return [
        (name, body)
        for blocks in _objects(document.get(block_type) if isinstance(document, dict) else None)
        for name, bodies in blocks.items()
        for body in _objects(bodies)
    ]


def _module_texts(directory: Path) -> Iterator[tuple[bool, str]]:
    """(whether it is JSON, its text) of each ``.tf``, ``.tf.json``, ``.tofu`` and ``.tofu.json`` file of
    ``directory`` that can be read: OpenTofu's too (a file one of them hides only adds what it holds: failing
    closed)."""
    for path in _files(directory, (".tf", ".tf.json", ".tofu", ".tofu.json")):
        try:
            yield path.name.endswith(".json"), path.read_bytes().decode("utf-8", "replace")
        except OSError:
            continue


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
    block of a native syntax file whose label is a token of a kind in ``labels`` (only a value's first token
    is read: a value that opens a bracket is that bracket).

    >>> list(_arguments('variable "pw" {\\n  sensitive = true\\n  v = { sensitive = true }\\n}\\n', "variable", ("string",)))
    [('pw', 'sensitive', ('word', 'true')), ('pw', 'v', ('{', None))]
    """
    depth = 0
    block: str | None = None  # the label of the block being read
    last: tuple[tuple[str, str | None], ...] = (("", None), ("", None))
    for kind, value in hcl_tokens(text):
        if block is not None and depth == 1 and last[1] == ("=", None) and last[0][0] == "word" and last[0][1]:
            yield block, last[0][1], (kind, value)
        if kind in ("{", "[", "("):
            if depth == 0 and kind == "{" and last[0] == ("word", block_type) and last[1][0] in labels:
                block = last[1][1]
            depth += 1
        elif kind in ("}", "]", ")"):
            depth = max(depth - 1, 0)
            block = block if depth else None
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
    for is_json, text in _module_texts(directory):
        found.update(_json_sensitive(text) if is_json else _hcl_sensitive(text))
    return found


def _files(directory: Path, suffixes: tuple[str, ...]) -> list[Path]:
    """The files of ``directory`` Terraform reads whose names end with one of ``suffixes`` (not hidden), in name
    order; none when it cannot be read."""
    try:
        paths = sorted(directory.iterdir())
    except OSError:
        return []
    return [path for path in paths if not path.name.startswith(".") and path.name.endswith(suffixes)]


def _hcl_sensitive(text: str) -> Iterator[str]:
    for variable, name, _, source in _assignments(text):
        if variable is not None and name == "sensitive" and flagged_sensitive(source):
            yield variable


def _json_sensitive(text: str) -> Iterator[str]:
    # A JSON flag is a value, not source text (flagged_sensitive's): plainly false is false or "false" (a template
    # holding only that text); anything else ("true", "${true}") may be true, so it is sensitive.
    for name, body in _json_blocks(text, "variable"):
        if body.get("sensitive", False) not in (False, "false"):
            yield name


def _file_values(path: str, names: set[str]) -> Iterator[str]:
    """The values a variables file gives to ``names``: plain strings and JSON values exactly, and the source text of
    each value as written (an expression is not evaluated).

    Terraform quotes a variables file's lines in its errors and shows a value it evaluated (a heredoc, a template):
    so the text of each value given to ``names`` that is not one plain string is secret as written too, and every
    line of a JSON file that is no JSON object (whose values cannot be told apart).
    """
    try:
        text = Path(path).read_bytes().decode("utf-8", "replace")
    except OSError:
        return
    if path.endswith(".json"):
        document = _json_document(text)
        if isinstance(document, dict):
            for name in names & set(document):
                yield from secret_strings(document[name])
        else:
            yield from (line.strip() for line in text.splitlines())
        return
    for variable, name, tokens, source in _assignments(text):
        if variable is None and name in names:
            yield from _given(tokens, source)


def _default_values(directory: Path, names: set[str]) -> Iterator[str]:
    """The defaults the module in ``directory`` declares for the variables ``names``, as :func:`_file_values` reads
    a value (Terraform shows a default it evaluated as it shows a given value)."""
    for is_json, text in _module_texts(directory):
        if is_json:
            yield from (v for name, body in _json_blocks(text, "variable") if name in names
                        for v in secret_strings(body.get("default")))
            continue
        for variable, name, tokens, source in _assignments(text):
            if variable in names and name == "default":
                yield from _given(tokens, source)


def call_secrets(directory: Path) -> Iterator[str]:
    """The values the module in ``directory`` gives, in its calls of local modules (``source = "./child"``), to the
    variables the child declares ``sensitive = true``: as :func:`_file_values` reads a value in a ``.tf`` file (a
    reference is none), and as :func:`call_value_secrets` reads a ``.tf.json`` one. Only the call knows them, and
    Terraform quotes the call's lines in its errors. A remote module is not read (it is not on the disk before
    ``init``).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "child").mkdir(), (Path(d) / "child" / "v.tf").write_text('variable "pw" {\\n  sensitive = true\\n}\\n')
    ...     _ = (Path(d) / "m.tf").write_text('module "c" {\\n  source = "./child"\\n  pw = "hunter2-x"\\n  n = "logs"\\n}\\n')
    ...     _ = (Path(d) / "j.tf.json").write_text('{"module": {"j": {"source": "./child", "pw": ["s3cret-y"]}}}')
    ...     sorted(call_secrets(Path(d)))
    ['hunter2-x', 's3cret-y']

    An argument an override file gives a call is read by the call's ``source`` in any file of the module (Terraform
    merges the blocks of one call): ``override.tf`` holding ``module "c" { pw = "..." }`` alone.
    """
    children = children_sensitive(directory)
    texts = list(_module_texts(directory))
    sources: dict[str, set[str]] = {}
    for is_json, text in texts:
        for label, source in _json_module_calls(text) if is_json else _hcl_module_calls(text):
            sources.setdefault(label, set()).add(source)

    def sensitive_of(call: str | None) -> set[str]:
        return {name for source in sources.get(call or "", ()) for name in children(source)}

    for is_json, text in texts:
        if is_json:
            for label, body in _json_blocks(text, "module"):
                # Both tools read the "_" block's arguments as the call's inputs (configs/module_call.go).
                for inputs in (body, *_objects(body.get("_"))):
                    for name in sensitive_of(label) & set(inputs):
                        yield from call_value_secrets(inputs[name])
            continue
        for call, name, tokens, source in _assignments(text, "module"):
            # A reference (var.pw, module.x.out[0]) names where a value comes from, not the value.
            if name in sensitive_of(call) and not REFERENCE.fullmatch(source.strip()):
                yield from _given(tokens, source)


#: The arguments of OpenTofu's ``terraform { encryption { } }`` block (1.7+) whose literals are key material or the
#: credentials that reach it (opentofu internal/encryption, the key providers and methods its default registry
#: holds): pbkdf2's ``passphrase`` and ``chain``, a method's ``keys`` (aes_gcm, external); aws_kms's ``access_key``,
#: ``secret_key``, ``token`` and an assumed role's ``web_identity_token``; gcp_kms's ``credentials`` and
#: ``access_token``; azure_vault's ``client_secret``, ``client_certificate``, ``client_certificate_password``,
#: ``oidc_token`` and ``oidc_request_token``; openbao's ``token``. No ``sensitive`` flag marks them, and OpenTofu
#: quotes the lines of an error in the block.
ENCRYPTION_SECRETS: Final = frozenset({
    "passphrase", "chain", "keys", "access_key", "secret_key", "token", "web_identity_token", "credentials",
    "access_token", "client_secret", "client_certificate", "client_certificate_password", "oidc_token",
    "oidc_request_token",
})


def encryption_value_secrets(value: Any) -> list[str]:
    """The secrets of the body of an ``encryption`` block as JSON values: under each argument named in
    :data:`ENCRYPTION_SECRETS`, however deep, its strings; of a template, the quoted strings of its expressions and
    its literal runs (``"hunter2-${var.x}"`` gives ``hunter2-``; ``"${key_provider.pbkdf2.k}"`` names a key, none).

    >>> encryption_value_secrets({"key_provider": {"pbkdf2": {"k": {"passphrase": "hunter2-x", "iterations": 600000}}},
    ...                           "method": {"aes_gcm": {"m": {"keys": "${key_provider.pbkdf2.k}"}}}})
    ['hunter2-x']
    >>> encryption_value_secrets([{"key_provider": [{"pbkdf2": {"k": {"passphrase": "s3cret-${var.tail}"}}}]}])
    ['s3cret-']
    """
    found: list[str] = []
    work = [value]
    while work:
        item = work.pop()
        if isinstance(item, list):
            work.extend(item)
        elif isinstance(item, dict):
            for name, inner in item.items():
                if name not in ENCRYPTION_SECRETS:
                    work.append(inner)
                    continue
                found.extend(call_value_secrets(inner))  # a template's literal runs too (template_literals)
    return found


def encryption_secrets(directory: Path) -> Iterator[str]:
    """The literals the ``encryption`` blocks of the module in ``directory`` give to OpenTofu's key material
    (:data:`ENCRYPTION_SECRETS`), in its ``.tf``, ``.tf.json``, ``.tofu`` and ``.tofu.json`` files: as
    :func:`encryption_value_secrets` reads a JSON one, as :func:`_file_values` reads a native one (a reference is none).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "e.tofu").write_text('terraform {\\n  encryption {\\n    key_provider "pbkdf2" "k" {\\n'
    ...                                        '      passphrase = "hunter2-x"\\n    }\\n'
    ...                                        '    method "aes_gcm" "m" { keys = key_provider.pbkdf2.k }\\n  }\\n}\\n')
    ...     _ = (Path(d) / "j.tf.json").write_text('{"terraform": {"encryption": {"key_provider": '
    ...                                           '{"pbkdf2": {"j": {"passphrase": "s3cret-y"}}}}}}')
    ...     sorted(encryption_secrets(Path(d)))
    ['hunter2-x', 's3cret-y']
    """
    for is_json, text in _module_texts(directory):
        if is_json:
            # A terraform block has no label: its members come as (name, value).
            yield from (s for name, body in _json_blocks(text, "terraform") if name == "encryption"
                        for s in encryption_value_secrets(body))
            continue
        for tokens, source, _ in hcl_nested_assignments(text, ("terraform", "encryption"), ENCRYPTION_SECRETS):
            if not REFERENCE.fullmatch(source.strip()):
                yield from _given(tokens, source)  # a template's literal runs too (template_literals)


#: A native syntax value that only refers to another (``var.pw``, ``module.db.password[0]``).
REFERENCE: Final = re.compile(r"[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*|\[\d+\])+")


def call_value_secrets(value: Any) -> list[str]:
    """The secrets of a JSON value a call gives a child's sensitive variable: its strings, but of a template only its
    literal runs (``"hunter2-${var.x}"``: Terraform marks the variable's whole value, which holds them as written)
    and the quoted strings of its expressions (``"${upper(\"s3cret\")}"``): ``"${var.pw}"`` names where a secret
    comes from, not the secret (its pieces would blank out every mention of the variable).

    >>> sorted(call_value_secrets(["hunter2-x", "${var.pw}", '${upper("s3cret-z") + var.n}', "LEAK23-${var.x}"]))
    ['LEAK23-', 'hunter2-x', 's3cret-z']
    """
    return [
        secret
        for text in secret_strings(value)
        for secret in (
            [text]
            if "${" not in text
            else [*template_literals(text), *(v for kind, v, _ in hcl_spans(text) if kind == "string" and v)]
        )
    ]


def children_sensitive(directory: Path) -> Callable[[object], set[str]]:
    """:func:`child_sensitive` for the calls of the module in ``directory``, each local child read once, however many
    calls (or copies of one call) name it; a ``source`` that is no string (a hand-written file's list) reaches none.

    >>> sensitive_of = children_sensitive(Path("/repo"))
    >>> sensitive_of(["./child"]), sensitive_of("terraform-aws-modules/vpc/aws")
    (set(), set())
    """
    cached = functools.cache(functools.partial(child_sensitive, directory))
    return lambda source: cached(source) if isinstance(source, str) else set()


def child_sensitive(directory: Path, source: object) -> set[str]:
    """The variables declared sensitive by the module a call in ``directory`` with this ``source`` reaches, when it
    is a local one (``./child``, ``../lib``, read by :func:`declared_sensitive`); none for a remote one.

    >>> child_sensitive(Path("/repo"), "terraform-aws-modules/vpc/aws")
    set()
    """
    if not isinstance(source, str) or not source.startswith(_LOCAL_SOURCE):
        return set()
    child = _lexical_join(str(directory), source)
    return set() if child is None else declared_sensitive(Path(child))


def _assignments(
    text: str, block_type: str = "variable"
) -> Iterator[tuple[str | None, str, list[tuple[str, str | None]], str]]:
    """(block, name, value tokens, value source) of each ``NAME = VALUE`` of a native syntax file: at its top
    level (a variables file: block None) and directly in a top-level ``block_type "LABEL" { }`` block (its label),
    or in a module block's ``_ { }`` block, whose arguments both tools read as the call's inputs.

    A value ends where the next argument or nested block starts, or with its block: in a file Terraform cannot
    parse, it may take in what follows it, never less than it is.

    >>> [(v, n, s) for v, n, _, s in _assignments('variable "pw" {\\n  default = "x"\\n  validation {\\n  }\\n}\\n')]
    [('pw', 'default', ' "x"\\n  ')]
    >>> [(v, n, s) for v, n, _, s in _assignments('a = <<EOT\\nx\\nEOT\\nb = { c = 1 }')]
    [(None, 'a', ' <<EOT\\nx\\nEOT\\n'), (None, 'b', ' { c = 1 }')]
    >>> [(m, n, s) for m, n, _, s in _assignments('module "c" {\\n  _ { count = "x" }\\n  n = 1\\n}', "module")]
    [('c', 'count', ' "x" '), ('c', 'n', ' 1\\n')]
    """
    depth = 0
    block: str | None = None  # the label of the block being read
    current: tuple[str | None, str, int] | None = None  # the value being read: its variable, name and start
    tokens: list[tuple[str, str | None]] = []
    before: tuple[str, str | None, int] = ("", None, 0)
    last: tuple[str, str | None, int] = ("", None, 0)
    escaped = False  # in a module block's "_" block: its arguments are read one level deeper
    for kind, value, at in hcl_spans(text):
        level = 0 if block is None else 2 if escaped else 1
        # A word at the value's level followed by "=" (or, in a block, "{") starts the next argument or block.
        starts = depth == level and last[0] == "word" and (kind == "=" or (kind == "{" and level >= 1))
        if current is not None and (starts or (kind == "}" and depth == level and block is not None)):
            yield current[0], current[1], tokens[:-1] if starts else tokens, text[current[2] : last[2] if starts else at]
            current = None
        if starts and kind == "=" and last[1] is not None:
            current, tokens = (block, last[1], at + 1), []
        elif current is not None:
            tokens.append((kind, value))
        if kind in ("{", "[", "("):
            if depth == 0 and kind == "{" and before[:2] == ("word", block_type) and last[0] == "string":
                block = last[1]
            escaped = escaped or (block_type == "module" and depth == 1 and kind == "{" and last[:2] == ("word", "_"))
            depth += 1
        elif kind in ("}", "]", ")"):
            depth = max(depth - 1, 0)
            block = block if depth else None
            escaped = escaped and depth > 1
        before, last = last, (kind, value, at)
    if current is not None:
        yield current[0], current[1], tokens, text[current[2] :]


def _given(tokens: list[tuple[str, str | None]], source: str) -> Iterator[str]:
    """What a value read by :func:`_assignments` can show: its plain strings, and its source when it is more than one,
    with its templates evaluated where they can be, and their literal runs (``"hunter2-${var.x}"``: Terraform marks a
    sensitive variable's whole value, which holds them as written) where they cannot."""
    yield from (value for kind, value in tokens if kind == "string" and value is not None)
    if not _one_plain_string(tokens):
        yield from _written(source)
        for kind, value, at in hcl_spans(source):
            if kind == "string" and value is None:
                evaluated = _template_value(source, at + 1)
                if evaluated is not None:
                    yield evaluated[1]
                yield from template_literals(source, at + 1, quoted=True)
            elif kind == "heredoc":
                # Terraform shows a heredoc evaluated and escaped ("a-b\\n  c\\n"): each evaluated line is secret.
                opening = HCL_TOKEN.match(source, at)
                body = _template_value(heredoc_body(source, opening)[0], 0, quoted=False) if opening else None
                if body is not None:
                    yield from (line.strip() for line in body[1].splitlines())
                elif opening:
                    yield from template_literals(heredoc_body(source, opening)[0])


#: An interpolation's opening (``${``, then a quote) and its closing, around the one literal template it may hold.
_INTERPOLATION_START: Final = re.compile(r'\{\s*"')
_INTERPOLATION_END: Final = re.compile(r'\s*\}')


def _template_value(text: str, pos: int, *, quoted: bool = True) -> tuple[int, str] | None:
    """(its end, its value) of the quoted template whose opening quote ends at ``pos``, when each interpolation
    in it holds one quoted template: as Terraform evaluates it, and shows it (``var.pw is "a-b"``). A variables
    file or a default references nothing, so its templates are mostly of this kind. None for any other.

    Not ``quoted``: ``text`` from ``pos`` on is a heredoc's body, a template with no escapes and no closing quote.

    >>> _template_value('"a-${"b-${ "c" }"}-d"', 1), _template_value('"a-${1 + 1}"', 1)
    ((21, 'a-b-c-d'), None)
    >>> _template_value('a-"${"b"}"\\n\\\\n $${c}\\n', 0, quoted=False)
    (20, 'a-"b"\\n\\\\n ${c}\\n')
    """
    value: list[str] = []
    while pos < len(text):
        char = text[pos]
        pos += 1
        if char == '"' and quoted:
            return pos, "".join(value)
        if (char == "\n" and quoted) or (char == "%" and text.startswith("{", pos)):
            return None  # a quoted string ends on its line; a directive is not evaluated here
        if char == "\\" and quoted:
            escaped = HCL_ESCAPES.get(text[pos : pos + 1])
            if escaped is None:
                return None
            value.append(escaped)
            pos += 1
        elif char in "$%" and text.startswith(char + "{", pos):  # $${ and %%{ are a literal ${ and %{
            value.append(char + "{")
            pos += 2
        elif char == "$" and text.startswith("{", pos):
            start = _INTERPOLATION_START.match(text, pos)
            inner = _template_value(text, start.end()) if start else None
            end = _INTERPOLATION_END.match(text, inner[0]) if inner else None
            if inner is None or end is None:
                return None
            value.append(inner[1])
            pos = end.end()
        else:
            value.append(char)
    return None if quoted else (pos, "".join(value))


def _one_plain_string(tokens: list[tuple[str, str | None]]) -> bool:
    """Whether a value's tokens are one plain string, whose value is all it can show."""
    return len(tokens) == 1 and tokens[0][0] == "string" and tokens[0][1] is not None


def _written(source: str) -> Iterator[str]:
    """A value's source text as secrets: all of it, and each line of it without its indentation (a heredoc's lines
    as ``<<-`` strips them; not its ``<<EOT`` and ``EOT`` lines).

    >>> list(_written(' <<-EOT\\n    s3cret line\\n    EOT\\n'))
    ['<<-EOT\\n    s3cret line\\n    EOT', 's3cret line']
    """
    whole = source.strip()
    if not whole:
        return
    yield whole
    lines = whole.splitlines()
    if whole.startswith("<<"):
        lines = lines[1:-1]
    if len(lines) > 1 or whole.startswith("<<"):
        yield from (line.strip() for line in lines)


def input_secrets(
    directory: Path, variables: Sequence[str], var_files: Sequence[str], environ: Mapping[str, str]
) -> Secrets:
    """The values given to the sensitive variables of the module in ``directory``: by ``--var NAME=VALUE``
    (``variables``), by the variables files (``var_files``, and those Terraform loads from ``directory`` itself:
    ``terraform.tfvars``, ``*.auto.tfvars`` and their ``.json``), by ``TF_VAR_NAME`` in ``environ``, and the
    defaults the module declares for them; and the defaults of the sensitive variables of every local module it
    reaches (``source = "./child"``).

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
    loaded = [str(p) for p in _files(directory, _AUTO_VARIABLES) if _auto_variables(p.name)]
    for path in [*loaded, *var_files]:
        found.extend(_file_values(path, names))
    found.extend(environ[f"TF_VAR_{name}"] for name in names if f"TF_VAR_{name}" in environ)
    found.extend(_default_values(directory, names))
    # A local child module's sensitive default is Terraform's to show too ("cannot convert "<default>" to number").
    try:
        children = _local_modules(os.path.realpath(directory), directory)[1:]
    except MockPlanArgumentError:
        children = []  # a module that cannot be read or reached: Terraform refuses it before evaluating a default
    for child in map(Path, children):
        found.extend(_default_values(child, declared_sensitive(child)))
    # What a module (the root or a local child) gives a local child's sensitive variable is Terraform's to show too;
    # and a line of a file of one that is no JSON, which Terraform quotes in its syntax error.
    for module in [directory, *map(Path, children)]:
        found.extend(call_secrets(module))
        # OpenTofu's encryption keys, written as literals (it quotes the block's lines in its errors).
        found.extend(encryption_secrets(module))
        found.extend(_unreadable_lines(module))
    return Secrets(found)


def _unreadable_lines(directory: Path) -> Iterator[str]:
    """Every line of each ``.tf.json`` file of the module in ``directory`` that is no JSON: Terraform quotes the lines
    of its syntax error, and which block a value there is in (a sensitive variable's default, a value given to a
    child's sensitive variable), or whether a flag makes it sensitive, cannot be told (failing closed, as
    :func:`_file_values` reads a variables file that is no JSON object).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     for name, text in [("a.tf.json", '{"variable": {"pw": {"sensitive": true,\\n  "default": "hunter2" "x"}}}'),
    ...                        ("b.tf.json", '{"output": {"o": {"value": "plain"}}}')]:
    ...         _ = (Path(d) / name).write_text(text)
    ...     broken = list(_unreadable_lines(Path(d)))
    >>> broken
    ['{"variable": {"pw": {"sensitive": true,', '"default": "hunter2" "x"}}}']
    """
    for is_json, text in _module_texts(directory):
        if is_json and _json_document(text) is _NOT_JSON:
            yield from (line.strip() for line in text.splitlines())


#: What the variables files Terraform loads by itself end with: terraform.tfvars(.json), NAME.auto.tfvars(.json).
_AUTO_VARIABLES: Final = ("terraform.tfvars", "terraform.tfvars.json", ".auto.tfvars", ".auto.tfvars.json")


def _auto_variables(name: str) -> bool:
    """True for the name of a variables file Terraform loads by itself (not ``myterraform.tfvars``)."""
    return name.endswith(_AUTO_VARIABLES) and (name.startswith("terraform.") or ".auto." in name)


def _read_as_configuration(path: Path, module_dir: Path) -> bool:
    """True when Terraform planning ``module_dir`` reads the file ``path`` as its configuration or variables."""
    name = path.name
    # A hidden file Terraform skips, as the module's copy does (_files).
    if name.startswith(".") or not (name.endswith((".tf", ".tf.json", ".tofu", ".tofu.json")) or _auto_variables(name)):
        return False
    return os.path.realpath(path.parent) == os.path.realpath(module_dir)


def out_problem(out: Path, module_dir: Path) -> str | None:
    """Why ``out`` may not take the plan JSON of the module in ``module_dir`` (None when it may): Terraform reads
    every configuration file (``.tf``, ``.tf.json``, OpenTofu's ``.tofu`` too) and automatic variables file of a
    module's directory, so the plan written there as one would be read as the module's own the next time it is
    planned, and fail it (or change it). Both front ends ask it before planning, of the path as given and of the
    file a write reaches through symbolic links.

    >>> print(out_problem(Path("modules/logs/plan.tf.json"), Path("modules/logs")))
    modules/logs/plan.tf.json: Terraform would read the plan JSON as configuration of the module modules/logs the next time it is planned (it reads every .tf, .tf.json and automatic .tfvars file in the module's directory); write it outside the module or under another name, such as plan.json
    >>> out_problem(Path("modules/logs/plan.json"), Path("modules/logs")), out_problem(Path("plan.tf.json"), Path("modules/logs"))
    (None, None)
    """
    # The path as given (a link in the module is read as the file it names) and the file a write through links reaches.
    if not any(_read_as_configuration(path, module_dir) for path in (out, Path(os.path.realpath(out)))):
        return None
    return (f"{out}: Terraform would read the plan JSON as configuration of the module {module_dir} the next time it is "
            "planned (it reads every .tf, .tf.json and automatic .tfvars file in the module's directory); write it "
            "outside the module or under another name, such as plan.json")


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


# -- the errors ----------------------------------------------------------------------------------------


@public("plancheck.acceptance")
class MockPlanError(TfCheckError):
    """A module could not be planned with mocked providers (:func:`plancheck.acceptance.mock_plan`,
    ``tfplancheck mock-plan``); the message never shows a sensitive variable's value.

    >>> from plancheck.acceptance import MockPlanArgumentError
    >>> err = MockPlanArgumentError("module_dir", "/no/such/dir: not a directory")
    >>> print(err), err.argument, isinstance(err, (MockPlanError, ValueError, TypeError))
    /no/such/dir: not a directory
    (None, 'module_dir', True)
    """


@public("plancheck.acceptance")
class MockPlanArgumentError(MockPlanError, ArgumentError):
    """An argument is wrong: ``argument`` names it (``module_dir``, ``mocks``, ``variables``, ``var_files``,
    ``terraform``, ``timeout``, ``out``), ``problem`` says what is wrong and where (a path, a key, a file).

    A :class:`plancheck.ArgumentError` as every misused argument is, so both a ``TypeError`` (an argument of
    the wrong type) and a ``ValueError`` (a wrong value).

    >>> from plancheck import ArgumentError
    >>> err = MockPlanArgumentError("variables", "variables: '1x' is not a variable name")
    >>> err.argument, str(err), isinstance(err, ArgumentError) and isinstance(err, TypeError) and isinstance(err, ValueError)
    ('variables', "variables: '1x' is not a variable name", True)
    """

    def __init__(self, argument: str, problem: str) -> None:
        self.argument = argument
        self.problem = problem
        super().__init__(problem)


@public("plancheck.acceptance")
class MockPlanFailedError(MockPlanError, RuntimeError):
    """Terraform or a mock failed: ``step`` is ``"terraform"`` (finding the binary), ``"init"``, ``"plan"``,
    ``"show"`` or ``"mock"`` (serving a mock); ``detail`` is what happened, Terraform's own message included.

    >>> print(MockPlanFailedError("plan", "terraform plan failed:\\nError: Missing required argument"))
    terraform plan failed:
    Error: Missing required argument
    """

    def __init__(self, step: str, detail: str) -> None:
        self.step = step
        self.detail = detail
        super().__init__(detail)


# -- the plan of a mocked module ------------------------------------------------------------------------

#: The default timeout of each terraform command (seconds).
PLAN_TIMEOUT: Final = 600.0
_OVERRIDE_FILE: Final = "zz_tfplancheck_mock_override.tf"
_VARIABLES_FILE: Final = "zz_tfplancheck_mock_plan.tfvars.json"
_SKIPPED: Final = (".terraform", ".terraform.lock.hcl", "terraform.tfstate", "terraform.tfstate.backup", ".git")
# Terraform's own rule: only these prefixes make a module source a local directory.
_LOCAL_SOURCE: Final = ("./", "../")
_CONFIG_SUFFIXES: Final = (".tf", ".tf.json", ".tfvars", ".tfvars.json")


class UnreadablePlan(MockPlanFailedError):
    """``terraform show -json`` printed what the loader refuses (``error``): said as the acceptance runner says it,
    with what Terraform said on stderr; what it printed is withheld (its secrets cannot be known).

    >>> from plancheck import PlanFormatError
    >>> print(UnreadablePlan(PlanFormatError("$", "a JSON object"), "Warning: a deprecated flag\\n"))
    terraform show -json printed JSON that is not an object:
    Warning: a deprecated flag
    """

    def __init__(self, error: DocumentFormatError, stderr: str) -> None:
        self.error = error
        said = f":\n{stderr.strip()}" if stderr.strip() else ""
        super().__init__("show", f"terraform {show_json_refused(error, 'plan')}{said}")


def _usage(problem: str, argument: str = "module_dir") -> MockPlanArgumentError:
    return MockPlanArgumentError(argument, problem)


def copy_module(source: Path, target: Path) -> Path:
    """Copy the module ``source`` and every local module it reaches under ``target``; return the copy of ``source``.

    The directories keep their layout relative to their common ancestor, so ``../lib`` still works.
    """
    if not source.is_dir():
        raise _usage(f"{source}: not a directory")
    if not any(source.glob("*.tf")) and not any(source.glob("*.tf.json")):
        raise _usage(f"{source}: no .tf or .tf.json files: not a Terraform module directory")
    root = os.path.realpath(source)
    modules = _local_modules(root, source)
    top = os.path.commonpath(modules)
    try:
        # Parents first: a module inside a directory already copied is in that copy.
        for module in sorted(modules, key=lambda m: PurePosixPath(m).parts):
            copy = target / os.path.relpath(module, top)
            if not copy.exists():
                copy.parent.mkdir(parents=True, exist_ok=True)
                _copy_tree(Path(module), copy)
        copied = target / os.path.relpath(root, top)
        # A remote backend would need credentials: the plan is made against an empty local state instead.
        (copied / _OVERRIDE_FILE).write_text('terraform {\n  backend "local" {}\n}\n', encoding="utf-8")
    except OSError as exc:
        raise _usage(f"{source}: cannot copy the module: {exc}") from None
    return copied


def _local_modules(root: str, shown: Path) -> list[str]:
    """``root`` and the directory of every local module it reaches, directly or through other local modules."""
    found = [root]
    pending = [root]
    while pending:
        directory = pending.pop()
        for file, name, source in _module_calls(Path(directory)):
            if not source.startswith(_LOCAL_SOURCE):
                continue
            where = f'{shown if directory == root else directory}{os.sep}{file}: module "{name}": source "{source}"'
            reached = _lexical_join(directory, source)
            if reached is None:
                raise _usage(f"{where} leaves the filesystem root")
            if not os.path.isdir(reached):
                raise _usage(f"{where} is not a directory: {reached}")
            if reached not in found:
                found.append(reached)
                pending.append(reached)
    return found


def _lexical_join(directory: str, source: str) -> str | None:
    """``source`` joined to ``directory`` as Terraform joins it, on the text; None when it climbs above the root.

    >>> _lexical_join("/repo/envs/prod", "../../modules/lib"), _lexical_join("/repo", "./a/./b/../c/")
    ('/repo/modules/lib', '/repo/a/c')
    >>> _lexical_join("/repo", "../../etc") is None
    True
    """
    parts = list(PurePosixPath(directory).parts)
    for part in source.split("/"):
        if part == "..":
            if len(parts) == 1:
                return None
            parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return str(PurePosixPath(*parts))


def _module_calls(directory: Path) -> list[tuple[str, str, str]]:
    """(file name, module name, source) of each module block in the configuration files of ``directory``."""
    calls: list[tuple[str, str, str]] = []
    try:
        for path in sorted(directory.iterdir()):
            name = path.name
            # The files Terraform reads: .tf and .tf.json, neither hidden nor an editor's backup.
            if name.startswith(".") or not name.endswith((".tf", ".tf.json")) or not path.is_file():
                continue
            text = path.read_bytes().decode("utf-8", "replace")
            found = _json_module_calls(text) if name.endswith(".tf.json") else _hcl_module_calls(text)
            calls.extend((name, module, source) for module, source in found)
    except OSError as exc:
        raise _usage(f"{directory}: cannot read the module: {exc.strerror or exc}") from None
    return calls


def _copy_tree(source: Path, target: Path) -> None:
    """Copy a directory with every symlink replaced by what it points to (a relative link would be dangling).

    Broken symlinks and special files (sockets, pipes) are left out, as Terraform never reads them, but a
    broken configuration file is refused, and so is a link to a directory that contains it (an endless copy).
    """
    pending = [(source, target, _identities(Path(os.path.realpath(source))))]
    while pending:
        directory, copy, above = pending.pop()
        copy.mkdir()
        with os.scandir(directory) as scan:
            entries = sorted(scan, key=lambda e: e.name)
        for entry in entries:
            if entry.name in _SKIPPED:
                continue
            if entry.is_dir():
                identity = _identity(entry.path)
                if identity in above:
                    raise _usage(f"{entry.path}: a symlink to a directory that contains it: cannot copy the module")
                pending.append((Path(entry.path), copy / entry.name, above | {identity}))
            elif entry.is_file():
                shutil.copy2(entry.path, copy / entry.name)  # follows a symlink: the copy holds the target's content
            elif entry.is_symlink() and entry.name.endswith(_CONFIG_SUFFIXES):
                raise _usage(f"{entry.path}: a broken symlink (to {os.readlink(entry.path)})")


def _identity(path: str | Path) -> tuple[int, int]:
    status = os.stat(path)
    return status.st_dev, status.st_ino


def _identities(path: Path) -> frozenset[tuple[int, int]]:
    """The identities of ``path`` (a real path) and of every directory above it."""
    return frozenset(_identity(p) for p in (path, *path.parents))


@contextlib.contextmanager
def _served(mocks: Sequence[MockProvider], directory: Path) -> Iterator[tuple[dict[str, str], list[Any]]]:
    from ..providers.factory import reattach_json
    from ..providers.server import ProviderServer, ProviderServerError, ProvidersNotInstalledError

    servers: list[Any] = []
    try:
        configs: dict[str, tuple[Any, int]] = {}
        for mock in mocks:
            # The served instance itself: it is handed the plans (per-address defaults need them).
            server = ProviderServer(mock.address, mock(), directory)
            servers.append(server)
            config = server.start()
            assert config.pid is not None
            configs[mock.address] = (config, config.pid)
        yield {"TF_REATTACH_PROVIDERS": reattach_json(configs)}, servers
    except (ProviderServerError, ProvidersNotInstalledError) as exc:
        raise MockPlanFailedError("mock", str(exc)) from None
    finally:
        for server in servers:
            server.stop()


def find_terraform(given: str | os.PathLike[str] | None, environ: Mapping[str, str]) -> str:
    """The Terraform binary a mocked plan runs: ``given``, else ``$TF_ACC_TERRAFORM_PATH``, else ``terraform`` on PATH."""
    from ..binary import TerraformNotFoundError, inspect_binary
    from ..locate import locate_terraform

    try:
        located = locate_terraform(given, environ)
        if located is None:
            raise MockPlanFailedError(
                "terraform", "mock-plan needs terraform on PATH (or --terraform PATH, or $TF_ACC_TERRAFORM_PATH)"
            )
        return inspect_binary(located[0]).path
    except TerraformNotFoundError as exc:
        raise MockPlanFailedError("terraform", str(exc)) from None


def plan_module(
    module_dir: Path,
    mocks: Sequence[MockProvider],
    *,
    terraform: str,
    environ: Mapping[str, str],
    variables_json: str | None = None,
    var_files: Sequence[str] = (),
    timeout: float = PLAN_TIMEOUT,
    out: Path | None = None,
    shown: Path | None = None,
) -> Plan:
    """The plan of the module in ``module_dir`` with ``mocks`` served, read by the loader.

    ``environ`` is the commands' environment (``TF_VAR_*`` values in it reach the module); ``variables_json``
    is the text of a JSON variables file, applied after ``var_files`` (absolute paths); ``out`` gets
    the JSON ``terraform show -json`` printed, before it is read (a plan the loader refuses raises
    :class:`UnreadablePlan` after ``out`` is written); ``shown`` is the plan's source
    in messages (default ``module_dir``). Everything it starts and writes is removed on every exit.
    """
    from ..._documents.plan import Plan
    from ..._loading.lifecycle import release
    from ..binary import CommandResult, cli_config_replaced, run_command, terraform_environment
    from ..providers.planning import PlanNotSettled, settled_plan
    from ..providers.server import short_temp_dir

    root = short_temp_dir("tfpc-mock-")
    try:
        module = copy_module(module_dir, root / "module")
        files = list(var_files)
        if variables_json is not None:
            (root / _VARIABLES_FILE).write_text(variables_json, encoding="utf-8")
            files.append(str(root / _VARIABLES_FILE))
        empty = root / "empty.tfrc"
        empty.write_text("", encoding="utf-8")
        env = terraform_environment(environ, data_dir=root / "data", fallback_cli_config=empty)
        with _served(mocks, root) as (reattach, servers):
            env.update(reattach)
            plan_file = str(root / "plan.tfplan")

            def run(step: str, *args: str) -> CommandResult:
                result = run_command([terraform, step, *args], cwd=module, env=env, timeout=timeout)
                if not result.ok:
                    raise MockPlanFailedError(step, _failure(result, servers, module, env, cli_config_replaced(environ)))
                return result

            loaded: list[Plan | UnreadablePlan] = []

            def show() -> Mapping[str, Any]:
                result = run("show", "-no-color", "-json", plan_file)
                if out is not None:
                    _write(out, result.stdout)
                try:
                    plan: Plan | UnreadablePlan = Plan.from_json(result.stdout, source=str(shown or module_dir))
                except DocumentFormatError as exc:
                    # Raised once the plan is settled (after ``out`` got what Terraform printed).
                    plan = UnreadablePlan(exc, result.stderr.replace(str(module) + os.sep, ""))
                loaded.append(plan)
                return plan.raw if isinstance(plan, Plan) else {}

            run("init", "-input=false", "-no-color")
            # Planned again while a mock learns which data source each read is (mock_data address keys).
            try:
                settled_plan(
                    [s.provider for s in servers],
                    lambda: run("plan", "-input=false", "-no-color", "-lock=false", f"-out={plan_file}",
                                *(f"-var-file={f}" for f in files)),
                    show, always_show=True,
                )
            except PlanNotSettled as exc:
                raise MockPlanFailedError("plan", f"terraform plan: {exc}") from None
            if isinstance(loaded[-1], UnreadablePlan):
                raise loaded[-1]
            return loaded[-1]
    finally:
        release(root, end=True)


def _write(out: Path, text: str) -> None:
    try:
        write_whole(out, text)
    except OSError as exc:
        raise MockPlanArgumentError("out", f"{out}: cannot write: {exc.strerror or exc}") from None


#: Terraform's words (1.0 to 1.11) for a root variable without a value; it may wrap them at any space.
_UNSET_VARIABLE: Final = re.compile(r'The\s+root\s+module\s+input\s+variable\s+"([^"]+)"\s+is\s+not\s+set')
_IN_PYTHON: Final = " (mock_plan: variables= or var_files=)"
#: The variables file of the values given in the call, as a message names it.
_GIVEN: Final = "the variables given (mock_plan's variables=, or --var)"


def _failure(
    result: Any, servers: Sequence[Any], module: Path, env: Mapping[str, str], replaced: str | None = None
) -> str:
    """What a failed command says, with Terraform's words completed where they name a flag we do not take;
    ``replaced``: the user's ``TF_CLI_CONFIG_FILE`` the commands ran without (it names no file).

    >>> from types import SimpleNamespace
    >>> said = 'Error: No value for required variable\\n\\nThe root module input variable "pw" is not set, and ...'
    >>> failed = SimpleNamespace(argv=["terraform", "plan"], timed_out=False, stderr=said, stdout="", returncode=1,
    ...                          killed_by=None)
    >>> print(_failure(failed, [], Path("/m"), {}).splitlines()[-1])
    hint: pw has no value: give it with --var pw=VALUE or --var-file FILE (mock_plan: variables= or var_files=), or TF_VAR_pw
    """
    from ..binary import registry_hint
    from ..providers.planning import crash_cause

    how = "timed out" if result.timed_out else "failed" if result.killed_by is None else f"was killed by {result.killed_by}"
    hint = registry_hint(result.stderr, env, replaced) if result.argv[1] == "init" else None
    if hint is not None:
        how = f"failed: {hint}"
    detail = (result.stderr.strip() or result.stdout.strip() or f"exit status {result.returncode}").replace(
        str(module) + os.sep, ""
    )
    # Where Terraform says a variable's value was defined: the private variables file, gone when the call returns.
    detail = re.sub(re.escape(str(module.parent / _VARIABLES_FILE)) + r"(?::\d+,\d+-\d+(?:,\d+)?)?", _GIVEN, detail)
    # A Go stack trace tells a user nothing: the mock that knows why Terraform crashed says it instead.
    why = crash_cause([s.provider for s in servers], result.stderr) if result.argv[1] == "plan" else None
    if why is not None:
        how, detail = "crashed", why
    raised = [f"{s.address}: {e.summary}" for s in servers for e in s.errors]
    extra = ("\nthe mock raised: " + "; ".join(raised)) if raised else ""
    # Terraform says "use a -var or -var-file command line argument", which neither front end takes.
    unset = sorted(set(_UNSET_VARIABLE.findall(result.stderr))) if result.argv[1] == "plan" else []
    if len(unset) == 1:
        name = unset[0]
        extra += f"\nhint: {name} has no value: give it with --var {name}=VALUE or --var-file FILE{_IN_PYTHON}, or TF_VAR_{name}"
    elif unset:
        extra += f"\nhint: {', '.join(unset)} have no value: give them with --var NAME=VALUE or --var-file FILE{_IN_PYTHON}, or TF_VAR_NAME"
    return f"terraform {result.argv[1]} {how}:\n{detail}{extra}"


def scrubbing(secrets: Secrets, mocks: Sequence[MockProvider]) -> Callable[[str], str]:
    """A scrub of the variables' ``secrets`` and of what each mock saw under sensitive attributes."""

    def scrub(message: str) -> str:
        for mock in mocks:
            message = mock._scrub(message)
        return secrets.scrub(message)

    return scrub
