"""A small scanner of HCL string templates: literal or not, and which objects a template refers to.

It is not an evaluator. It knows enough of the template and expression syntax to find
where interpolations (``${...}``) and directives (``%{...}``) end, skipping escapes
(``$${``, ``%%{``), nested braces, quoted strings (with their own interpolations),
comments, function calls and ``for`` iterators, and to pick out the references
(``var.x``, ``aws_instance.web.id``, ``module.m.out``, ``local.y``, ``data.a.b.c``).
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import KW_ONLY
from pathlib import Path as FsPath
from typing import Any, Final, Literal, final

from .._errors import ArgumentError, TfCheckError
from .._frozen import FrozenValue, frozen, public
from ._json_reader import ARRAY, OBJECT, STRING, Node

__all__ = [
    "EXPRESSION_KINDS",
    "REFERENCE_LIST_KINDS",
    "ParsedTemplate",
    "Reference",
    "TemplateSyntaxError",
    "collect_references",
    "given_secrets",
    "parse_reference",
    "parse_template",
    "nodes_sensitive_literals",
    "sensitive_literals",
]

#: Argument kinds whose strings are templates.
EXPRESSION_KINDS: Final = frozenset({"expr", "open"})
#: Argument kinds whose strings are references or bare expressions (no ``${ }``).
REFERENCE_LIST_KINDS: Final = frozenset({"ref_list", "expr_list", "address"})

_OPENER: Final = re.compile(r"\$\$\{|%%\{|\$\{|%\{")
_IDENT: Final = re.compile(r"[^\W\d][\w-]*")
_NUMBER: Final = re.compile(r"[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_INDEX: Final = re.compile(r'\[\s*(?:[0-9]+|"(?:[^"\\$%]|\\.)*"|\*)\s*\]')
_DOT_STEP: Final = re.compile(r"\.(?:[^\W\d][\w-]*|[0-9]+|\*)")
_FOR_HEAD: Final = re.compile(r"\s+([^\W\d][\w-]*)\s*(?:,\s*([^\W\d][\w-]*)\s*)?in\b")
_FUNCTION_NAMESPACE: Final = re.compile(r"(?:::[^\W\d][\w-]*)+")
_KEYWORDS: Final = frozenset({"true", "false", "null", "for", "in", "if", "else", "endif", "endfor"})
_TWO_PART_ROOTS: Final = {
    "var": "var",
    "local": "local",
    "module": "module",
    "path": "path",
    "terraform": "terraform",
    "count": "count",
    "each": "each",
    "self": "self",
}
_THREE_PART_ROOTS: Final = {"data": "data", "ephemeral": "ephemeral", "action": "action"}

ReferenceKind = Literal[
    "var",
    "local",
    "module",
    "data",
    "ephemeral",
    "action",
    "resource",
    "path",
    "terraform",
    "count",
    "each",
    "self",
]
TemplateKind = Literal["literal", "interpolation", "template"]


@public("plancheck.tfconfig")
class TemplateSyntaxError(TfCheckError, ValueError):
    """A string template is malformed (an unclosed ``${``, an unbalanced ``%{ if }``...).

    ``offset`` is the character offset inside the string where the problem starts.

    >>> try:
    ...     parse_template("Hello ${var.name")
    ... except TemplateSyntaxError as e:
    ...     (e.offset, e.reason)
    (6, "unclosed '${': no '}' ends this interpolation")
    """

    def __init__(self, offset: int, reason: str) -> None:
        self.offset = offset
        self.reason = reason
        super().__init__(f"at character {offset + 1}: {reason}")


@public("plancheck.tfconfig")
@final
@frozen
class Reference(FrozenValue):
    """A reference to another object, as found in an expression.

    ``text`` is the traversal as written (up to the first computed index), ``subject`` the
    object referred to, ``kind`` what sort of object it is.

    >>> r = parse_reference("aws_instance.web[0].private_ip")
    >>> r
    Reference('aws_instance.web[0].private_ip', kind='resource', subject='aws_instance.web')
    >>> r.matches("aws_instance.web"), r.matches("aws_instance.web[0]"), r.matches("aws_instance.we")
    (True, True, False)
    """

    text: str
    _: KW_ONLY
    kind: ReferenceKind
    subject: str

    def matches(self, expected: str) -> bool:
        """True if ``expected`` is this reference or a prefix of it ending at a step boundary."""
        text = self.text
        if text == expected:
            return True
        return text.startswith(expected) and text[len(expected)] in ".["

    def __str__(self) -> str:
        return self.text


@public("plancheck.tfconfig")
@final
@frozen
class ParsedTemplate(FrozenValue):
    """What a JSON string means where Terraform reads it as an expression.

    ``kind`` is ``"literal"`` (no interpolation or directive; ``literal`` is its value after
    unescaping ``$${`` and ``%%{``), ``"interpolation"`` (exactly one ``${...}`` and nothing
    else, which Terraform unwraps: the result need not be a string; ``expression`` is the
    inner source) or ``"template"`` (anything else: the result is a string).

    >>> parse_template("${var.instance_count}").kind
    'interpolation'
    >>> t = parse_template("web-${var.env}-%{ if var.blue }blue%{ endif }")
    >>> t.kind, [r.text for r in t.references]
    ('template', ['var.env', 'var.blue'])
    >>> parse_template("cost: $${price}").literal
    'cost: ${price}'
    """

    text: str
    kind: TemplateKind
    references: tuple[Reference, ...] = ()
    literal: str | None = None
    expression: str | None = None

    def __post_init__(self) -> None:
        self._set(references=tuple(self.references))

    def __repr__(self) -> str:  # every field named, None ones too
        return (
            f"ParsedTemplate({self.text!r}, {self.kind!r}, references={self.references!r}, "
            f"literal={self.literal!r}, expression={self.expression!r})"
        )



def _classify(parts: list[str], text: str) -> Reference | None:
    root = parts[0]
    kind2 = _TWO_PART_ROOTS.get(root)
    if kind2 is not None:
        if len(parts) < 2 or parts[1].startswith("["):
            return None
        return Reference(text, kind=kind2, subject=root + parts[1])  # type: ignore[arg-type]
    kind3 = _THREE_PART_ROOTS.get(root)
    if kind3 is not None:
        if len(parts) < 3 or parts[1].startswith("[") or parts[2].startswith("["):
            return None
        return Reference(text, kind=kind3, subject=root + parts[1] + parts[2])  # type: ignore[arg-type]
    if len(parts) < 2 or not _IDENT.fullmatch(parts[1][1:]):
        return None
    return Reference(text, kind="resource", subject=root + parts[1])


def _traversal(text: str, start: int, end: int) -> tuple[list[str], int]:
    """The steps of the traversal whose root identifier is text[start:end], and where it ends."""
    parts = [text[start:end]]
    k = end
    n = len(text)
    while k < n:
        c = text[k]
        if c == ".":
            m = _DOT_STEP.match(text, k)
            if m is None:
                break
        elif c == "[":
            m = _INDEX.match(text, k)
            if m is None:
                break
        else:
            break
        parts.append(m.group())
        k = m.end()
    return parts, k


def _skip_ws(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i] in " \t\r\n":
        i += 1
    return i


def _scan_expression(
    text: str,
    start: int,
    refs: list[Reference],
    iterators: set[str],
    opener_at: int,
    what: str,
    secrets: list[str] | None = None,
) -> int:
    """Scan an expression from ``start`` up to its closing ``}``; return the offset just past it.

    ``secrets``, when given, gets the literal text (as written) of every quoted string and number inside the
    argument of a ``sensitive()`` call, however deep: in a nested call, parentheses or a template's literal part.
    """
    n = len(text)
    # Each frame: [mode, brace depth, offset where it opened, parenthesis depth]; mode "E" expression, "Q" quoted
    # string, whose literal piece being read starts at its second item.
    stack: list[list[Any]] = [["E", 0, opener_at, 0]]
    # The sensitive() calls open: (the index of their frame, the parenthesis depth their "(" opened).
    calls: list[tuple[int, int]] = []
    calling = False  # a sensitive() call's name was read: the "(" next (after whitespace) opens it
    prev = "{"
    i = start
    while stack:
        if i >= n:
            mode, piece, at, _ = stack[-1]
            if mode == "Q":
                if secrets is not None and calls:  # the unclosed string runs to the end: all of it is the argument's
                    secrets.append(text[piece:])
                raise TemplateSyntaxError(at, "unclosed quoted string inside an interpolation")
            raise TemplateSyntaxError(at, f"unclosed '{what}': no '}}' ends this {_WHAT[what]}")
        frame = stack[-1]
        c = text[i]
        if frame[0] == "Q":
            if c == "\\":
                i += 2
            elif text.startswith("$${", i) or text.startswith("%%{", i):
                i += 3
            elif text.startswith("${", i) or text.startswith("%{", i):
                if secrets is not None and calls:
                    secrets.append(text[frame[1] : i])
                stack.append(["E", 0, i, 0])
                prev = "{"
                i += 2
            elif c == '"':
                if secrets is not None and calls:
                    secrets.append(text[frame[1] : i])
                stack.pop()
                prev = '"'
                i += 1
            else:
                i += 1
            continue
        if c in " \t\r\n":
            i += 1
            continue
        if c == '"':
            stack.append(["Q", i + 1, i, 0])
            i += 1
            continue
        if c == "{":
            frame[1] += 1
        elif c == "}":
            if frame[1] == 0:
                if prev in _DANGLING:
                    # "${1 + }", "${}": HCL's "Expected the start of an expression".
                    raise TemplateSyntaxError(i, "expected the start of an expression before '}'")
                stack.pop()
                # A call its interpolation ends before its ")" ends with it; a string's literal goes on after it.
                calls = [call for call in calls if call[0] < len(stack)]
                if stack and stack[-1][0] == "Q":
                    stack[-1][1] = i + 1
                i += 1
                prev = "}"
                continue
            frame[1] -= 1
        elif c == "(":
            frame[3] += 1
            if calling:
                calls.append((len(stack) - 1, frame[3]))
                calling = False
        elif c == ")":
            if calls and calls[-1] == (len(stack) - 1, frame[3]):
                calls.pop()
            frame[3] -= 1
        elif c == "#" or text.startswith("//", i):
            eol = text.find("\n", i)
            i = n if eol == -1 else eol
            continue
        elif text.startswith("/*", i):
            close = text.find("*/", i + 2)
            if close == -1:
                raise TemplateSyntaxError(i, "unclosed '/*' comment inside an interpolation")
            i = close + 2
            continue
        elif "0" <= c <= "9":
            m = _NUMBER.match(text, i)
            assert m is not None
            if secrets is not None and calls:
                secrets.append(m.group())
            i = m.end()
            prev = "0"
            continue
        else:
            m = _IDENT.match(text, i)
            if m is not None:
                word = m.group()
                end = m.end()
                if prev == ".":
                    pass
                elif word == "for" and prev in "[{":
                    head = _FOR_HEAD.match(text, end)
                    if head is not None:
                        iterators.update(name for name in head.groups() if name)
                        end = head.end()
                elif word in _KEYWORDS:
                    pass
                else:
                    after = _skip_ws(text, end)
                    if text.startswith("(", after):
                        # Terraform's, not nonsensitive() nor a provider's (skipped below): its "(" opens the call.
                        calling = word == "sensitive"
                    elif text.startswith("::", end):
                        fn = _FUNCTION_NAMESPACE.match(text, end)
                        end = fn.end() if fn else end + 2
                    else:
                        parts, end = _traversal(text, i, end)
                        if parts[0] not in iterators:
                            ref = _classify(parts, text[i:end])
                            if ref is not None:
                                refs.append(ref)
                i = end
                prev = "a"
                continue
        prev = c
        i += 1
    return i


_WHAT: Final = {"${": "interpolation", "%{": "directive"}
# What an interpolation cannot end with: an operator (or nothing at all) still waits for its operand.
_DANGLING: Final = frozenset("{+-*/%<>=!&|?:,")


@public("plancheck.tfconfig")
def parse_template(text: str) -> ParsedTemplate:
    """Scan ``text`` as an HCL string template (how Terraform reads a JSON string expression).

    >>> t = parse_template('${jsonencode({ "a" = "${var.x}-y" })}')
    >>> t.kind, t.references
    ('interpolation', (Reference('var.x', kind='var', subject='var.x'),))
    >>> [r.text for r in parse_template("${[for s in var.list : upper(s.name)]}").references]
    ['var.list']
    """
    if not isinstance(text, str):
        raise ArgumentError(f"parse_template expects a str, got {type(text).__name__}")
    return _parse(text, None)


def _parse(text: str, secrets: list[str] | None) -> ParsedTemplate:
    """:func:`parse_template`, handing ``secrets`` to each expression's scan (:func:`_scan_expression`)."""
    refs: list[Reference] = []
    iterators: set[str] = set()
    literal: list[str] = []
    interpolations: list[tuple[int, int]] = []
    directives: list[tuple[str, int]] = []
    directive_count = 0
    i = 0
    n = len(text)
    while i < n:
        m = _OPENER.search(text, i)
        if m is None:
            literal.append(text[i:])
            break
        literal.append(text[i : m.start()])
        token = m.group()
        if token == "$${":
            literal.append("${")
            i = m.end()
            continue
        if token == "%%{":
            literal.append("%{")
            i = m.end()
            continue
        if token == "${":
            end = _scan_expression(text, m.end(), refs, iterators, m.start(), "${", secrets)
            interpolations.append((m.start(), end))
        else:
            keyword_at = _skip_ws(text, m.end() + (1 if text.startswith("~", m.end()) else 0))
            kw = _IDENT.match(text, keyword_at)
            keyword = kw.group() if kw else ""
            _check_directive(keyword, directives, m.start())
            end = _scan_expression(text, m.end(), refs, iterators, m.start(), "%{", secrets)
            directive_count += 1
        i = end
    if directives:
        keyword, at = directives[-1]
        raise TemplateSyntaxError(at, f"'%{{ {keyword} }}' has no matching '%{{ end{keyword} }}'")
    if not interpolations and not directive_count:
        return ParsedTemplate(text, "literal", literal="".join(literal))
    if len(interpolations) == 1 and not directive_count and interpolations[0] == (0, n):
        inner = text[2:-1].strip()
        if inner.startswith("~"):
            inner = inner[1:]
        if inner.endswith("~"):
            inner = inner[:-1]
        return ParsedTemplate(text, "interpolation", tuple(refs), expression=inner.strip())
    return ParsedTemplate(text, "template", tuple(refs))


def _check_directive(keyword: str, open_directives: list[tuple[str, int]], at: int) -> None:
    if keyword in ("if", "for"):
        open_directives.append((keyword, at))
    elif keyword == "else":
        if not open_directives or open_directives[-1][0] != "if":
            raise TemplateSyntaxError(at, "'%{ else }' outside of '%{ if }'")
    elif keyword in ("endif", "endfor"):
        wanted = keyword[3:]
        if not open_directives or open_directives[-1][0] != wanted:
            raise TemplateSyntaxError(at, f"'%{{ {keyword} }}' without an open '%{{ {wanted} }}'")
        open_directives.pop()
    else:
        raise TemplateSyntaxError(
            at,
            "a directive must be one of if, else, endif, for, endfor"
            + (f"; found {keyword!r}" if keyword else ""),
        )


_STATIC: Final = re.compile(
    r"[^\W\d][\w-]*(?:\.(?:[^\W\d][\w-]*|[0-9]+)|\[(?:[0-9]+|\"(?:[^\"\\]|\\.)*\")\])*"
)


@public("plancheck.tfconfig")
def parse_reference(text: str) -> Reference:
    """Parse a static reference, as ``depends_on`` entries are written (no ``${ }``).

    >>> parse_reference("module.network")
    Reference('module.network', kind='module', subject='module.network')
    >>> parse_reference("${aws_vpc.main}")
    Traceback (most recent call last):
    ...
    plancheck.tfconfig.TemplateSyntaxError: at character 1: expected a reference such as aws_instance.web or module.m, with no ${ }
    """
    if not isinstance(text, str):
        raise ArgumentError(f"parse_reference expects a str, got {type(text).__name__}")
    m = _STATIC.fullmatch(text)
    ref = None
    if m is not None:
        root = _IDENT.match(text)
        assert root is not None
        parts, end = _traversal(text, 0, root.end())
        if end == len(text):
            ref = _classify(parts, text)
    if ref is None:
        raise TemplateSyntaxError(
            0, "expected a reference such as aws_instance.web or module.m, with no ${ }"
        )
    return ref


def sensitive_literals(text: str) -> list[str]:
    r"""The literals ``text`` gives to ``sensitive()``: secrets as soon as they are written (a plan marks them), each
    as written and unescaped. Every call's argument is read, however it is written (a template's literal parts, a
    string inside another call or in parentheses, a number), by the template scanner; a template too broken to
    scan gives what its argument held up to where it breaks.

    >>> sensitive_literals('${upper(sensitive("hunter2"))}-${nonsensitive(var.a)} ${sensitive("a\\"b")}')
    ['hunter2', 'a\\"b', 'a"b']
    >>> sensitive_literals('${sensitive("s3cret-${var.x}-tail")}${sensitive((format("%s", "pw-9")))}')
    ['s3cret-', '-tail', '%s', 'pw-9']
    """
    pieces: list[str] = []
    with contextlib.suppress(TemplateSyntaxError):
        _parse(text, pieces)
    found: list[str] = []
    for written in pieces:
        if not written:
            continue
        found.append(written)
        try:
            unescaped = json.loads(f'"{written}"').replace("$${", "${").replace("%%{", "%{")
        except ValueError:  # an escape JSON has not (HCL's \U0001F600): as written only
            continue
        if unescaped != written:
            found.append(unescaped)
    return found


def nodes_sensitive_literals(nodes: Iterable[Node]) -> list[str]:
    """The literals the strings of ``nodes`` (argument values, however nested) give to ``sensitive()``, as
    :func:`sensitive_literals` reads one; read off the parsed nodes (a body as Python values is made anew at each ask).

    >>> from ._json_reader import Source, parse_json
    >>> nodes_sensitive_literals([parse_json('{"a": {"b": ["${sensitive(1234567)}", "plain"]}}', Source(None, ""))])
    ['1234567']
    """
    found: list[str] = []
    work = list(nodes)
    while work:
        node = work.pop()
        if node.kind == STRING:
            if "sensitive" in node.value:
                found.extend(sensitive_literals(node.value))
        elif node.kind == OBJECT:
            work.extend(child for _, _, child in node.value)
        elif node.kind == ARRAY:
            work.extend(node.value)
    return found


def given_secrets(directory: str | None, blocks: Iterable[Any]) -> Iterator[str]:
    """The literals a configuration's ``blocks`` (:class:`~plancheck.tfconfig.Block`) give where a tool takes them as
    secrets without a ``sensitive`` flag: OpenTofu's ``encryption`` key material (mock-plan's
    :data:`~plancheck._terraform.mock.plan.ENCRYPTION_SECRETS`), and, read from ``directory`` (a configuration read
    from the disk), what the module calls give the sensitive variables of their local children (mock-plan's rule: the
    child's flags are read as it reads them).

    >>> from plancheck.tfconfig import config_from_dict
    >>> config = config_from_dict({"terraform": {"encryption": {"key_provider": {"pbkdf2": {"k": {
    ...     "passphrase": "hunter2-x", "key_length": 32}}}}}}, flavor="opentofu")
    >>> list(given_secrets(None, config.blocks))
    ['hunter2-x']
    """
    # Imported only for a block that needs them: most configurations have neither.
    encryption = [e.body for b in blocks if b.block_type == "terraform" for e in b.blocks("encryption")]
    if encryption or directory is not None:
        from .._terraform.mock.plan import call_value_secrets, children_sensitive, encryption_value_secrets

        yield from encryption_value_secrets(encryption)
    if directory is None:
        return
    # A call stands in the merged blocks and in its file's as written (an override's too): its child's files are
    # read once per source, as mock-plan's call_secrets reads them.
    sensitive_of = children_sensitive(FsPath(directory))
    for b in blocks:
        if b.block_type == "module":
            for name in sensitive_of(b.get("source")):
                for inputs in (b, *b.blocks("_")):
                    yield from call_value_secrets(inputs.get(name))


def collect_references(kind: str, node: Node, refs: list[Reference]) -> None:
    """Add to ``refs`` the references an argument of ``kind`` (a :class:`Spec` argument kind) makes in ``node``.

    A reference that does not parse is no reference (the block reads it as written).
    """
    if kind in REFERENCE_LIST_KINDS:
        items = node.value if node.kind == ARRAY else [node]
        for item in items:
            if item.kind == STRING:
                try:
                    if kind == "ref_list":
                        refs.append(parse_reference(item.value))
                    else:
                        refs.extend(parse_template("${" + item.value + "}").references)
                except TemplateSyntaxError:
                    pass
        return
    if kind not in EXPRESSION_KINDS:
        return
    stack = [node]
    while stack:
        current = stack.pop()
        if current.kind == STRING:
            text = current.value
            if "${" in text or "%{" in text:
                refs.extend(parse_template(text).references)
        elif current.kind == OBJECT:
            for name, _, child in reversed(current.value):
                stack.append(child)
                if "${" in name or "%{" in name:
                    stack.append(Node(STRING, name, -1))
        elif current.kind == ARRAY:
            stack.extend(reversed(current.value))
