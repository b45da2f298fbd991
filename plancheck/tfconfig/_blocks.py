"""The decoder that turns a Node tree into Blocks, by Terraform's block schema (:data:`~._model.TOP_LEVEL`) or
OpenTofu's (:data:`~._model.OPENTOFU_TOP_LEVEL`).

The rules follow the HCL JSON specification and Terraform's JSON syntax page: each label
level is an object (or an array of objects) whose property names are the labels; a body
is an object, or an array of objects for several blocks with the same labels; ``"//"``
is a comment in a body and at the root, but data inside an expression; and some
arguments are not expressions (``depends_on``, ``provider``, ``ignore_changes``, a
variable's ``type`` and ``default``, a module's ``source``...).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Final

from tfjsonpath import MapStep, SliceStep, Step
from tfjsonpath._jsontypes import plural

from .._text import closest
from ._json_reader import (
    ARRAY,
    BOOL,
    NULL,
    NUMBER,
    OBJECT,
    STRING,
    ConfigFormatError,
    IgnoredProperty,
    Node,
    Source,
    Trail,
    describe_node,
    json_location,
    trail_steps,
)
from ._model import TOP_LEVEL, Block, Spec
from ._template import EXPRESSION_KINDS, TemplateSyntaxError, parse_reference, parse_template

__all__ = ["check_unique", "decode_document", "read_again"]


# Nested blocks Terraform allows once per parent block ("Duplicate lifecycle block", ...).
_ONCE: Final = frozenset(
    {
        ("resource", "lifecycle"),
        ("resource", "connection"),
        ("data", "lifecycle"),
        ("ephemeral", "lifecycle"),
        ("provisioner", "connection"),
        ("removed", "lifecycle"),
        ("removed", "connection"),
        ("action", "config"),
        ("module", "lifecycle"),
        ("module", "_"),
    }
)
# The blocks that take at most one of count and for_each (both tools' resource.go, module_call.go; Terraform's
# action.go), and, in OpenTofu, a lifecycle's enabled.
_REPEATED: Final = frozenset({"resource", "data", "ephemeral", "module", "action"})
_LABEL_PLURAL: Final = {"type": "types", "name": "names", "provider": "provider names"}
_NAME: Final = re.compile(r"[^\W\d][\w-]*")
_PROVIDER_REF: Final = re.compile(r"[^\W\d][\w-]*(?:\.[^\W\d][\w-]*)?(?:\[.+\])?", re.DOTALL)
# Strings that are valid templates for sure (only simple interpolations, no directives): most of
# them, checked by one regular expression instead of the scanner.
_SIMPLE_TEMPLATE: Final = re.compile(r"(?:[^$%]+|\$(?!\{)|%(?!\{)|\$\$\{|%%\{|\$\{[^{}\"$%#/]*[\w\])]\s*\})*")
_SIMPLE_TRAVERSAL: Final = re.compile(r"[^\W\d][\w-]*(?:\.[\w*-]+|\[(?:[0-9]+|\*)\])*")
# A resource, data source or module reference as depends_on usually holds them: valid for sure.
_SIMPLE_REFERENCE: Final = re.compile(r"(?:data\.|ephemeral\.)?[^\W\d][\w-]*\.[^\W\d][\w-]*")
_TYPE_START: Final = re.compile(r"\s*(string|number|bool|any|list|map|set|tuple|object)\b")


def _quoted(labels: Iterable[str]) -> str:
    return " ".join(f'"{label}"' for label in labels)


def _block_name(spec: Spec, labels: tuple[str, ...]) -> str:
    return f"{spec.name} {_quoted(labels)}".rstrip()


def _article(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def _labels_expected(spec: Spec, labels: tuple[str, ...], depth: int) -> str:
    label_name = spec.labels[depth]
    what = f"an object of {spec.name} {_LABEL_PLURAL.get(label_name, label_name + 's')}"
    if labels:
        more = plural(len(spec.labels) - depth, "more label")
        return f"{what} ({_block_name(spec, labels)} needs {more}: {', '.join(spec.labels[depth:])})"
    return f"{what} (a {spec.name} block has {plural(len(spec.labels), 'label')}: {', '.join(spec.labels)})"


def _block_like(node: Node) -> bool:
    """Whether ``node`` can be a nested block's body: an object, or an array of objects."""
    if node.kind == OBJECT:
        return True
    return node.kind == ARRAY and all(child.kind == OBJECT for child in node.value)


def _did_you_mean(name: str, choices: Iterable[str]) -> str:
    close = closest(name, choices, n=1)
    return f' (did you mean "{close[0]}"?)' if close else ""


class _Decoder:
    """Decodes one document's blocks; errors carry the document's Source."""

    __slots__ = ("override", "source")

    def __init__(self, source: Source, *, override: bool = False) -> None:
        self.source = source
        # An override file's top-level blocks need no required argument: they only change a base block.
        self.override = override

    def error(
        self, node_or_offset: Node | int, steps: tuple[Step, ...], expected: str, found: str | None
    ) -> ConfigFormatError:
        offset = node_or_offset if isinstance(node_or_offset, int) else node_or_offset.start
        return self.source.error(offset, steps, expected, found)

    # -- labels and bodies ---------------------------------------------------------------

    def expand(
        self, spec: Spec, node: Node, steps: tuple[Step, ...], start: int
    ) -> list[tuple[tuple[str, ...], Node, tuple[Step, ...], int, int]]:
        """Flatten label levels and bodies: ``(labels, body node, body steps, label offset, definition offset)``.

        The definition offset is where Terraform places the block (its ``DefRange``): the body's
        ``{``, or the ``[`` of an array of bodies, which all the array's bodies share. A ``null``
        body defines no block, as in HCL.
        """
        out: list[tuple[tuple[str, ...], Node, tuple[Step, ...], int, int]] = []
        # Work items: (labels so far, node, steps, offset of the last label); processed in order.
        level: list[tuple[tuple[str, ...], Node, tuple[Step, ...], int]] = [((), node, steps, start)]
        for depth, label_name in enumerate(spec.labels):
            next_level: list[tuple[tuple[str, ...], Node, tuple[Step, ...], int]] = []
            for labels, n, st, _ in level:
                members: list[tuple[str, int, Node, tuple[Step, ...]]] = []
                if n.kind == OBJECT:
                    members.extend((k, ks, child, (*st, MapStep(k))) for k, ks, child in n.value)
                elif n.kind == ARRAY:
                    for i, element in enumerate(n.value):
                        if element.kind != OBJECT:
                            raise self.error(
                                element,
                                (*st, SliceStep(i)),
                                _labels_expected(spec, labels, depth),
                                describe_node(element),
                            )
                        members.extend(
                            (k, ks, child, (*st, SliceStep(i), MapStep(k))) for k, ks, child in element.value
                        )
                else:
                    raise self.error(n, st, _labels_expected(spec, labels, depth), describe_node(n))
                if not members:
                    raise self.error(
                        n,
                        st,
                        f"at least one property naming the {spec.name} block's {label_name}",
                        describe_node(n),
                    )
                next_level.extend(((*labels, k), child, cst, ks) for k, ks, child, cst in members)
            level = next_level
        for labels, n, st, offset in level:
            body_of = f"the body of {_block_name(spec, labels)}"
            if n.kind == OBJECT:
                out.append((labels, n, st, offset, n.start))
            elif n.kind == NULL:
                continue
            elif n.kind == ARRAY:
                for i, element in enumerate(n.value):
                    if element.kind != OBJECT:
                        raise self.error(
                            element, (*st, SliceStep(i)), f"an object ({body_of})", describe_node(element)
                        )
                    out.append((labels, element, (*st, SliceStep(i)), element.start, n.start))
            else:
                raise self.error(
                    n, st, f"an object ({body_of}) or an array of such objects", describe_node(n)
                )
        return out

    def decode_body(
        self, spec: Spec, labels: tuple[str, ...], node: Node, steps: tuple[Step, ...], start: int, decl: int = -1
    ) -> Block:
        """Decode one block body and, iteratively, its known nested blocks."""
        # Post-order without recursion: frames hold a body whose nested blocks are still being built.
        root_frame = self._frame(spec, labels, node, steps, start, decl, required=not self.override)
        stack = [root_frame]
        result: Block | None = None
        while stack:
            frame = stack[-1]
            pending = frame[6]
            if pending:
                nspec, nlabels, nnode, nsteps, nstart, ndecl = pending.pop(0)
                stack.append(self._frame(nspec, nlabels, nnode, nsteps, nstart, ndecl))
                continue
            stack.pop()
            fspec, flabels, fnode, fsteps, fstart, fmembers, _, built, fdecl = frame
            block = Block(
                fspec.name,
                flabels,
                node=fnode,
                members=fmembers,
                nested=tuple(built),
                source=self.source,
                spec=fspec,
                start=fstart,
                steps=fsteps,
                decl=fdecl,
            )
            if stack:
                stack[-1][7].append(block)
            else:
                result = block
        assert result is not None
        return result

    def _frame(
        self,
        spec: Spec,
        labels: tuple[str, ...],
        node: Node,
        steps: tuple[Step, ...],
        start: int,
        decl: int,
        *,
        required: bool = True,
    ) -> list:  # type: ignore[type-arg]
        members, nested = self.check_body(spec, labels, node, steps, required=required)
        return [spec, labels, node, steps, start, members, nested, [], decl]

    def check_body(
        self, spec: Spec, labels: tuple[str, ...], node: Node, steps: tuple[Step, ...], *, required: bool = True
    ) -> tuple[
        tuple[tuple[str, int, Node], ...], list[tuple[Spec, tuple[str, ...], Node, tuple[Step, ...], int, int]]
    ]:
        """Check a body's arguments; return its members (no comments) and its nested blocks to decode."""
        members: list[tuple[str, int, Node]] = []
        nested: list[tuple[Spec, tuple[str, ...], Node, tuple[Step, ...], int, int]] = []
        seen: dict[str, tuple[int, Node]] = {}
        for name, key_start, child in node.value:
            if name == "//":
                continue
            reserved = spec.reserved.get(name)
            if reserved is not None:
                raise self.error(
                    key_start,
                    (*steps, MapStep(name)),
                    f"an argument or block of {_block_name(spec, labels)} other than one {reserved[0]} reserves "
                    f"({reserved[0]}: {reserved[1]})",
                    f'"{name}"',
                )
            members.append((name, key_start, child))
            nspec = spec.nested.get(name)
            if nspec is not None:
                child_steps = (*steps, MapStep(name))
                for nlabels, nnode, nsteps, nstart, ndecl in self.expand(nspec, child, child_steps, key_start):
                    if (spec.name, name) in _ONCE:
                        first_decl = next((d for ns, _, _, _, _, d in nested if ns is nspec), None)
                        if first_decl is not None:
                            line, column = self.source.line_column(first_decl) if first_decl >= 0 else (None, None)
                            first = f" (first at {line}:{column})" if line is not None else ""
                            raise self.error(
                                ndecl,
                                nsteps,
                                f"at most one {name} block in {_article(spec.name)} block "
                                f"(Terraform: Duplicate {'escaping' if name == '_' else name} block)",
                                f"a second {name} block{first}",
                            )
                    nested.append((nspec, nlabels, nnode, nsteps, nstart, ndecl))
                continue
            kind = spec.arg_kind(name)
            if kind == "unknown":
                known = sorted({*spec.args, *spec.nested})
                raise self.error(
                    key_start,
                    (*steps, MapStep(name)),
                    f"an argument or block of {_block_name(spec, labels)} ({', '.join(known)})",
                    f'"{name}"{_did_you_mean(name, known)}',
                )
            if name in seen:
                # In an open body (a schema this library cannot know) a repeated name may be a
                # repeated nested block; an argument has exactly one defining property.
                first_start, first_child = seen[name]
                if kind != "open" or not (_block_like(first_child) and _block_like(child)):
                    line, column = self.source.line_column(first_start) if first_start >= 0 else (None, None)
                    first = f" (first set at {line}:{column})" if line is not None else ""
                    raise self.error(
                        key_start,
                        (*steps, MapStep(name)),
                        f"each argument of {_block_name(spec, labels)} once (Terraform: Duplicate argument)",
                        f'"{name}" again{first}',
                    )
            else:
                seen[name] = (key_start, child)
            if kind in EXPRESSION_KINDS:
                # The common case (provider arguments) builds no Step objects unless there is an error.
                if child.kind == STRING:
                    if "${" in child.value or "%{" in child.value:
                        self._template(child.value, child.start, Trail(steps, name))
                elif child.kind <= ARRAY:
                    self.check_expression(child, Trail(steps, name), allow_duplicates=kind == "open")
            else:
                self.check_value(kind, child, (*steps, MapStep(name)))
        for name in spec.required if required else ():
            if name not in seen:
                raise self.error(
                    node, steps, f'a "{name}" argument (required in {_article(spec.name)} block)', "none"
                )
        for name, (needed, summary) in spec.needs.items():
            if name in seen and needed not in seen:
                raise self.error(
                    seen[name][0],
                    (*steps, MapStep(name)),
                    f'the "{needed}" argument beside "{name}" (OpenTofu: {summary})',
                    f'"{name}" without "{needed}"',
                )
        if spec.name in _REPEATED:
            self._one_repetition(spec, seen, nested, steps)
        return tuple(members), nested

    def _one_repetition(
        self,
        spec: Spec,
        seen: Mapping[str, tuple[int, Node]],
        nested: list[tuple[Spec, tuple[str, ...], Node, tuple[Step, ...], int, int]],
        steps: tuple[Step, ...],
    ) -> None:
        """Refuse a block that repeats itself in two ways, as its tool does: Terraform's count and for_each, and
        OpenTofu's (whose schema has a lifecycle's enabled, 1.11) count, a lifecycle's enabled and for_each."""
        lifecycle = spec.nested.get("lifecycle")
        tool = "OpenTofu" if lifecycle is not None and "enabled" in lifecycle.args else "Terraform"
        found = {name: (seen[name][0], (*steps, MapStep(name))) for name in ("count", "for_each") if name in seen}
        for nspec, _, body, body_steps, _, _ in nested if tool == "OpenTofu" else ():
            for name, key_start, _ in body.value if nspec is lifecycle else ():
                if name == "enabled":
                    found["enabled"] = (key_start, (*body_steps, MapStep(name)))
        if len(found) < 2:
            return
        quoted = [f'"{name}"' for name in sorted(found)]
        both = " and ".join(quoted) if len(quoted) == 2 else f"{', '.join(quoted[:-1])}, and {quoted[-1]}"
        # Terraform places its error at for_each's name; OpenTofu's spans from the first name to the last.
        at, where = found["for_each"] if tool == "Terraform" else min(found.values(), key=lambda place: place[0])
        raise self.error(
            at,
            where,
            f"at most one of {both} ({tool}: Invalid combination of {both})",
            "both" if len(quoted) == 2 else "all three",
        )

    # -- values --------------------------------------------------------------------------

    def check_value(self, kind: str, node: Node, steps: tuple[Step, ...]) -> None:
        """Check one argument value against its kind."""
        if kind in EXPRESSION_KINDS:
            self.check_expression(node, steps, allow_duplicates=kind == "open")
        elif kind == "literal":
            # Not templates, but still JSON objects: a property given twice is an error (HCL JSON spec).
            if node.kind <= ARRAY:
                self.check_expression(node, steps, allow_duplicates=False, templates=False)
        elif kind == "literal_string":
            if node.kind not in (STRING, NUMBER, BOOL):
                raise self.error(
                    node, steps, "a literal string (not interpreted as a template)", describe_node(node)
                )
        elif kind == "bool":
            if not (node.kind == BOOL or (node.kind == STRING and node.value in ("true", "false"))):
                raise self.error(node, steps, "true or false", describe_node(node))
        elif kind == "ref_list":
            self.check_list(node, steps, 'an array of references such as "aws_instance.web"', self._reference)
        elif kind == "expr_list":
            self.check_list(node, steps, "an array of reference strings", self._bare_expression)
        elif kind == "ignore_changes":
            if node.kind == STRING and node.value == "all":
                return
            if node.kind == STRING:
                raise self.error(node, steps, '"all" or an array of attribute names', f'"{node.value}"')
            self.check_list(node, steps, '"all" or an array of attribute names', self._bare_expression)
        elif kind == "provider_ref":
            self._provider_ref(node, steps)
        elif kind == "providers_map":
            what = 'an object mapping provider names to provider configurations, such as {"aws": "aws.west"}'
            if node.kind != OBJECT:
                raise self.error(node, steps, what, describe_node(node))
            for name, _, child in node.value:
                self._provider_ref(child, (*steps, MapStep(name)))
        elif kind == "type_expr":
            ok = node.kind == STRING and _TYPE_START.match(node.value) is not None and _balanced(node.value)
            if not ok:
                found = f'"{node.value}"' if node.kind == STRING else describe_node(node)
                raise self.error(node, steps, 'a type expression such as "string" or "list(string)"', found)
        elif kind in ("name", "ident"):
            if node.kind != STRING or _NAME.fullmatch(node.value) is None:
                found = f'"{node.value}"' if node.kind == STRING else describe_node(node)
                raise self.error(
                    node,
                    steps,
                    "a name (letters, digits, underscores and dashes, not starting with a digit)",
                    found,
                )
        elif kind in ("address", "keyword"):
            if node.kind != STRING:
                what = (
                    'a resource address string such as "aws_instance.web"'
                    if kind == "address"
                    else "a string"
                )
                raise self.error(node, steps, what, describe_node(node))
            if kind == "address":
                self._bare_expression(node, steps)
        else:  # pragma: no cover - every kind in the schema is handled above
            raise AssertionError(kind)

    def check_list(self, node: Node, steps: tuple[Step, ...], what: str, check_item: object) -> None:
        if node.kind != ARRAY:
            raise self.error(node, steps, what, describe_node(node))
        for i, item in enumerate(node.value):
            check_item(item, Trail(steps, i))  # type: ignore[operator]

    def _reference(self, node: Node, trail: Trail | tuple[Step, ...]) -> None:
        what = 'a reference such as "aws_instance.web" or "module.m" (no ${ })'
        if node.kind != STRING:
            raise self.error(node, trail_steps(trail), what, describe_node(node))
        if _SIMPLE_REFERENCE.fullmatch(node.value):
            return
        try:
            parse_reference(node.value)
        except TemplateSyntaxError:
            raise self.error(node, trail_steps(trail), what, f'"{node.value}"') from None

    def _bare_expression(self, node: Node, trail: Trail | tuple[Step, ...]) -> None:
        if node.kind != STRING:
            raise self.error(node, trail_steps(trail), "a reference string", describe_node(node))
        if _SIMPLE_TRAVERSAL.fullmatch(node.value):
            return
        try:
            parse_template("${" + node.value + "}")
        except TemplateSyntaxError as exc:
            raise self.error(node, trail_steps(trail), "a valid expression", exc.reason) from None

    def _provider_ref(self, node: Node, steps: tuple[Step, ...]) -> None:
        if node.kind != STRING or _PROVIDER_REF.fullmatch(node.value) is None:
            found = f'"{node.value}"' if node.kind == STRING else describe_node(node)
            raise self.error(node, steps, 'a provider reference such as "aws" or "aws.west"', found)

    def check_expression(
        self, node: Node, steps: Trail | tuple[Step, ...], *, allow_duplicates: bool, templates: bool = True
    ) -> None:
        """Check every string of an expression value is a valid template (and object keys unique).

        With ``templates=False`` (a literal value: a variable's default...) only the keys are checked.
        """
        stack: list[tuple[Node, Trail | tuple[Step, ...]]] = [(node, steps)]
        while stack:
            current, st = stack.pop()
            kind = current.kind
            if kind == STRING:
                if templates:
                    self._template(current.value, current.start, st)
            elif kind == OBJECT:
                members = current.value
                seen: dict[str | tuple[str], tuple[int, Node]] = {}
                for name, key_start, child in members:
                    key = _constant_key(name) if templates else name
                    if key in seen:
                        first_start, first_child = seen[key]
                        # Where the value may be a nested block's body (``allow_duplicates``: the schema
                        # is unknown), a repeated name may be a repeated block: objects, or arrays of them.
                        if not (allow_duplicates and _block_like(first_child) and _block_like(child)):
                            first = (
                                " (first at {}:{})".format(*self.source.line_column(first_start))
                                if first_start >= 0
                                else ""
                            )
                            raise self.error(
                                key_start,
                                Trail(st, name).steps(),
                                "unique property names in an object value (Terraform: Duplicate object attribute)",
                                f'"{name}" again{first}',
                            )
                    else:
                        seen[key] = (key_start, child)
                    if templates and ("${" in name or "%{" in name):
                        self._template(name, key_start, Trail(st, name))
                    if child.kind <= STRING:
                        stack.append((child, Trail(st, name)))
            elif kind == ARRAY:
                for i, child in enumerate(current.value):
                    if child.kind <= STRING:
                        stack.append((child, Trail(st, i)))

    def _template(self, text: str, offset: int, trail: Trail | tuple[Step, ...]) -> None:
        if ("${" in text or "%{" in text) and not _SIMPLE_TEMPLATE.fullmatch(text):
            try:
                parse_template(text)
            except TemplateSyntaxError as exc:
                # Terraform places a template error inside the string, at the offending character.
                where = _raw_offset(self.source.text, offset, exc.offset) if offset >= 0 else offset
                raise self.error(
                    where,
                    trail_steps(trail),
                    "a valid string template",
                    f"{exc.reason}, at character {exc.offset + 1} of the string",
                ) from None


def _raw_offset(text: str, quote: int, index: int) -> int:
    r"""The offset in the file of character ``index`` of the JSON string whose ``"`` is at ``quote``.

    >>> _raw_offset('"a\\nb"', 0, 2)
    4
    """
    i = quote + 1
    n = len(text)
    for _ in range(index):
        if i >= n or text[i] == '"':
            break
        if text[i] != "\\":
            i += 1
        elif text.startswith("u", i + 1):
            # A surrogate pair (two escapes) is one character of the string.
            high = 0xD800 <= int(text[i + 2 : i + 6] or "0", 16) < 0xDC00
            i += 12 if high and text.startswith("\\u", i + 6) else 6
        else:
            i += 2
    return i


_STRING_KEY: Final = re.compile(r'\$\{\s*"([^"\\$%{}]*)"\s*\}')


def _constant_key(name: str) -> str | tuple[str]:
    """What an object key template evaluates to when that is known without evaluation (``"${\"a\"}"`` is ``a``).

    Other templates are kept apart as ``(template,)``: two equal templates are still the same key, but
    ``"${x}"`` is not the key ``"$${x}"`` stands for.

    >>> _constant_key('${"a"}'), _constant_key("$${x}"), _constant_key("${var.k}")
    ('a', '${x}', ('${var.k}',))
    """
    if "${" not in name and "%{" not in name:
        return name
    m = _STRING_KEY.fullmatch(name)
    if m is not None:
        return m.group(1)
    if _OPENER_ONLY_ESCAPED.fullmatch(name):
        return name.replace("$${", "${").replace("%%{", "%{")
    return (name,)


_OPENER_ONLY_ESCAPED: Final = re.compile(r"(?:[^$%]|\$(?!\{)|%(?!\{)|\$\$\{|%%\{)*")


def _balanced(text: str) -> bool:
    depth: list[str] = []
    pairs = {")": "(", "]": "[", "}": "{"}
    for c in text:
        if c in "([{":
            depth.append(c)
        elif c in pairs and (not depth or depth.pop() != pairs[c]):
            return False
    return not depth


def _top_level_expected(top_level: Mapping[str, Spec]) -> str:
    return "one of the top-level block types (" + ", ".join(sorted(top_level)) + ")"


def decode_document(
    root: Node, source: Source, *, strict: bool, override: bool = False, top_level: Mapping[str, Spec] = TOP_LEVEL
) -> tuple[list[Block], list[IgnoredProperty]]:
    """Decode a parsed document into its blocks (in source order) and its ignored unknown properties.

    ``override``: the document is an override file, whose top-level blocks need no required argument.
    ``top_level``: whose schema reads it, Terraform's (:data:`TOP_LEVEL`) or OpenTofu's.
    """
    decoder = _Decoder(source, override=override)
    members: list[tuple[str, int, Node, tuple[Step, ...]]] = []
    if root.kind == OBJECT:
        members.extend((k, ks, child, (MapStep(k),)) for k, ks, child in root.value)
    elif root.kind == ARRAY and all(e.kind == OBJECT for e in root.value):
        for i, element in enumerate(root.value):
            members.extend((k, ks, child, (SliceStep(i), MapStep(k))) for k, ks, child in element.value)
    else:
        bad = next((e for e in root.value if e.kind != OBJECT), root) if root.kind == ARRAY else root
        steps: tuple[Step, ...] = () if bad is root else (SliceStep(root.value.index(bad)),)
        raise decoder.error(
            bad, steps, "a JSON object of top-level blocks (or an array of such objects)", describe_node(bad)
        )
    blocks: list[Block] = []
    ignored: list[IgnoredProperty] = []
    for name, key_start, child, steps in members:
        if name == "//":
            continue
        spec = top_level.get(name)
        if spec is None:
            if strict or name == "required_providers":
                hint = (
                    " (it belongs inside the terraform block)"
                    if name == "required_providers"
                    else _did_you_mean(name, top_level)
                )
                raise decoder.error(key_start, steps, _top_level_expected(top_level), f'"{name}"{hint}')
            where = source.line_column(key_start) if key_start >= 0 else None
            location = f"{source.name or '<string>'}:{where[0]}:{where[1]}" if where else _steps_text(steps)
            ignored.append(IgnoredProperty(name, location=location))
            continue
        for labels, body, body_steps, start, decl in decoder.expand(spec, child, steps, key_start):
            blocks.append(decoder.decode_body(spec, labels, body, body_steps, start, decl))
    return blocks, ignored


def read_again(block: Block, top_level: Mapping[str, Spec], *, override: bool) -> Block:
    """``block`` as ``top_level``'s schema reads it: itself when that schema read it, else read again from what was
    written, raising what that reader raises (an argument OpenTofu does not have in a block Terraform's schema read).

    ``override``: the block is from an override file (it needs no required argument).
    """
    spec = top_level.get(block.block_type)
    if spec is block._spec:
        return block
    decoder = _Decoder(block._source, override=override)
    if spec is None:
        raise decoder.error(block._decl, block._steps, _top_level_expected(top_level), f'"{block.block_type}"')
    return decoder.decode_body(spec, block.labels, block._node, block._steps, block._start, block._decl)


def _steps_text(steps: tuple[Step, ...]) -> str:
    return json_location(steps)


_UNIQUE: Final = {
    "resource": "resource",
    "data": "data source",
    "ephemeral": "ephemeral resource",
    "action": "action",
    "variable": "variable",
    "output": "output",
    "module": "module call",
    "check": "check block",
}


def check_unique(blocks: Iterable[Block]) -> None:
    """Raise ConfigFormatError at the second definition of a resource, variable, local, provider..."""
    seen: dict[tuple[str, ...], Block] = {}
    locals_seen: dict[str, tuple[Block, int, tuple[Step, ...]]] = {}
    for block in blocks:
        kind = block.block_type
        key: tuple[str, ...] | None = None
        described = ""
        if kind in _UNIQUE:
            key = (kind, *block.labels)
            described = _block_name(block._spec, block.labels)
        elif kind == "provider":
            alias = block.get("alias")
            alias_text = alias if isinstance(alias, str) else ""
            key = ("provider", block.labels[0], alias_text)
            described = f'provider "{block.labels[0]}"' + (
                f' with alias "{alias_text}"' if alias_text else ""
            )
        elif kind == "locals":
            for name, key_start, _ in block._members:
                steps = (*block._steps, MapStep(name))
                if name in locals_seen:
                    first_block, first_offset, first_steps = locals_seen[name]
                    raise block._source.error(
                        key_start,
                        steps,
                        "each local value defined once",
                        f'local "{name}" again (first defined at {_where(first_block, first_offset, first_steps)})',
                    )
                locals_seen[name] = (block, key_start, steps)
            continue
        if key is None:
            continue
        first = seen.get(key)
        if first is not None:
            what = _UNIQUE.get(kind, "provider configuration")
            # Terraform places both definitions at their bodies' "{" (or the shared "[" of an array of bodies).
            raise block._source.error(
                block._decl,
                block._steps,
                f"each {what} defined once",
                f"a second {described} (first defined at {_where(first, first._decl, first._steps)})",
            )
        seen[key] = block


def _where(block: Block, offset: int, steps: tuple[Step, ...]) -> str:
    if offset < 0:
        return _steps_text(steps)
    line, column = block._source.line_column(offset)
    return f"{block._source.name or '<string>'}:{line}:{column}"
