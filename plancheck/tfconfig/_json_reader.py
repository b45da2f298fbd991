"""JSON documents as :class:`Node` trees, read from text by HCL JSON's rules or from Python values, and
ConfigFormatError, which says where in them something is wrong.

The standard library's ``json`` loses duplicate property names and positions, both of
which the HCL JSON specification requires, so this parser builds :class:`Node` trees
instead. It is iterative (10,000 nesting levels parse fine) and leans on the C string
scanner of the standard library for speed. Numbers are read as plancheck reads plans
(see :mod:`plancheck._loading.jsontext`): an integer is an ``int``, or, past the digits Python converts
to an ``int`` (``sys.get_int_max_str_digits()``), the ``Decimal`` of the same value; any
other number a ``Decimal``; one that ``Decimal`` cannot hold is a located error. A Python value
(what ``config_from_dict`` and writing read) becomes the same tree, checked to be JSON
(:func:`python_to_node`). Errors name the file, line and column when there is a file (:class:`Source`),
and always the JSON location (``$.resource["aws_instance"]``).
"""

from __future__ import annotations

import json
import json.decoder
import math
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping
from dataclasses import KW_ONLY
from decimal import Decimal
from functools import partial
from json.decoder import JSONDecodeError
from typing import Any, Final, cast, final

from tfjsonpath import MapStep, Path, SliceStep, Step

from .._errors import DocumentFormatError
from .._frozen import FrozenValue, frozen, public
from .._redact import MIN_SECRET_LENGTH, SENSITIVE
from .._text import lone_surrogate_at

__all__ = [
    "ARRAY",
    "BLOCK_TYPES",
    "BOOL",
    "NULL",
    "NUMBER",
    "OBJECT",
    "STRING",
    "ConfigFormatError",
    "IgnoredProperty",
    "Member",
    "Node",
    "Source",
    "Trail",
    "describe_node",
    "json_location",
    "node_to_python",
    "parse_json",
    "python_to_node",
    "trail_steps",
]


@public("plancheck.tfconfig")
class ConfigFormatError(DocumentFormatError):
    """A configuration (``.tf.json``, ``.tofu.json`` or a dict to write) is malformed.

    Besides the JSON ``location`` (``$.resource["aws_instance"]``) it carries the ``source``
    file, and the 1-based ``line`` and ``column`` of the offending token when there is a file.

    >>> str(ConfigFormatError('$.resource["aws_instance"]', "an object of resource names", found="a string",
    ...                       source="main.tf.json", line=3, column=21))
    'main.tf.json:3:21: $.resource["aws_instance"]: expected an object of resource names, found a string'
    >>> str(ConfigFormatError("$.variable", "an object", found="null"))
    '$.variable: expected an object, found null'
    """

    kind = "config"

    def __init__(
        self,
        location: str,
        expected: str,
        *,
        found: str | None = None,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.line = line
        self.column = column
        super().__init__(location, expected, found=found, source=source)

    @property
    def file(self) -> str | None:
        """The file the error is in (the same as ``source``); ``None`` for a dict being written.

        >>> ConfigFormatError("$", "an object", source="a.tf.json", line=1, column=1).file
        'a.tf.json'
        """
        return self.source

    def _render(self) -> str:
        text = f"{self.location}: expected {self.expected}"
        if self.found is not None:
            text += f", found {self.found}"
        prefix = [p for p in (self.source, self.line, self.column) if p is not None]
        if prefix:
            text = ":".join(str(p) for p in prefix) + ": " + text
        return text

    def with_source(self, source: str | None) -> ConfigFormatError:
        """Return a copy of this error that names ``source``, keeping line and column.

        >>> ConfigFormatError("$", "an object", line=1, column=1).with_source("x.tf.json").file
        'x.tf.json'
        """
        return type(self)(
            self.location, self.expected, found=self.found, source=source, line=self.line, column=self.column
        )


@public("plancheck.tfconfig")
@final
@frozen
class IgnoredProperty(FrozenValue):
    """A top-level property that is not a block type Terraform knows, kept aside when reading leniently.

    >>> from plancheck.tfconfig import parse_config
    >>> parse_config('{"atlas": {"name": "x"}}', filename="old.tf.json").ignored
    (IgnoredProperty('atlas', location='old.tf.json:1:2'),)
    """

    name: str
    _: KW_ONLY
    location: str



def json_location(steps: Iterable[Step]) -> str:
    """Render steps as a JSON location: ``$``, then the escaped tfjsonpath text form.

    >>> from tfjsonpath import MapStep, SliceStep
    >>> json_location([MapStep("resource"), MapStep("aws_instance")])
    '$.resource["aws_instance"]'
    >>> json_location([MapStep("provider"), MapStep("aws"), SliceStep(1), MapStep("a.b")])
    '$.provider["aws"][1]["a.b"]'
    """
    text = Path(*steps).to_text()
    if not text or text.startswith("["):
        return "$" + text
    return "$." + text


class Source:
    """The text of one configuration file (or of a dict being written, with no name), for locations.

    >>> s = Source("main.tf.json", '{\\n  "a": 1\\n}')
    >>> s.line_column(6)
    (2, 5)
    """

    __slots__ = ("_line_starts", "document", "module", "name", "text")
    name: str | None
    text: str
    _line_starts: list[int] | None

    def __init__(self, name: str | None, text: str, document: Any = None, module: tuple[str, ...] = ()) -> None:
        self.name = name
        self.text = text
        #: The configuration as Python values when it was given so (no text): what tells a sensitive block.
        self.document = document
        #: The texts of the module's other files: a variable one declares sensitive has its default in another
        #: (an override file's), which is a secret there too.
        self.module = module
        self._line_starts = None

    def line_column(self, offset: int) -> tuple[int, int]:
        """The 1-based line and column (in characters) of a character offset."""
        starts = self._line_starts
        if starts is None:
            starts = [0]
            text = self.text
            i = text.find("\n")
            while i != -1:
                starts.append(i + 1)
                i = text.find("\n", i + 1)
            self._line_starts = starts
        line = bisect_right(starts, offset)
        return line, offset - starts[line - 1] + 1

    def error(
        self, offset: int, steps: Iterable[Step], expected: str, found: str | None = None
    ) -> ConfigFormatError:
        """A ConfigFormatError at ``offset`` (``-1``: no position, as for a dict being written)."""
        line: int | None = None
        column: int | None = None
        if offset >= 0:
            line, column = self.line_column(offset)
        steps = tuple(steps)
        cut = self._secret_from(steps)
        if cut is not None:
            # Inside a sensitive variable's default (a sensitive output's value): its keys and the text quoted of it
            # are secrets, as they are in every message.
            steps = (*steps[:cut], *(MapStep(SENSITIVE) if isinstance(step, MapStep) else step for step in steps[cut:]))
            # Unless it quotes the key the location ends with, shown already (the name of a block type that is none).
            named = steps[-1].key if len(steps) == cut and isinstance(steps[-1], MapStep) else None
            found = None if found is None else _QUOTED.sub(partial(_hidden_quote, named), found, count=1)
        return ConfigFormatError(
            json_location(steps), expected, found=found, source=self.name, line=line, column=column
        )

    def _secret_from(self, steps: tuple[Step, ...]) -> int | None:
        """The index of ``steps`` from which they are inside a sensitive variable's ``default`` or a sensitive
        output's ``value`` (or any argument of either block but its plain ones, :data:`_PLAIN_ARGUMENTS`), or below
        a top-level name that is no block type, or None. Sensitive unless every definition of the block says plainly false; when
        the file cannot be read again for its flags (it is broken), every such value is if any block of the file has
        a ``sensitive`` flag (failing closed)."""
        names = [i for i, step in enumerate(steps) if isinstance(step, MapStep)]
        # The block's kind first, or after a file's index (a list of files given as Python values).
        if not names or names[0] > 1:
            return None
        kind = cast(MapStep, steps[names[0]]).key
        if kind == "terraform" and len(names) > 2 and cast(MapStep, steps[names[1]]).key == "encryption":
            # OpenTofu's encryption keys are secrets as written (a passphrase, a method's keys, a credential).
            from .._terraform.mock.plan import ENCRYPTION_SECRETS

            keys = [i for i in names[2:] if cast(MapStep, steps[i]).key in ENCRYPTION_SECRETS]
            return keys[0] + 1 if keys else None
        if kind not in BLOCK_TYPES and kind != "//":
            # A block type Terraform does not know (a misspelt "varible") has no schema to tell a secret's place
            # by: nothing below it is shown (failing closed); its name is, and the reader's hint works from it.
            return names[0] + 1 if self._may_hold_secret() else None
        if len(names) < 3 or steps[names[0]] not in _PLAIN_ARGUMENTS:
            return None
        block, name, attribute = (cast(MapStep, steps[i]) for i in names[:3])
        if attribute.key in _PLAIN_ARGUMENTS[block]:
            return None
        return names[2] + 1 if self._sensitive(block.key, name.key) else None

    def _may_hold_secret(self) -> bool:
        """Whether the configuration may hold a secret anywhere: a dict being written may (it is not read again);
        a text when it or another file of its module has a ``sensitive`` flag or call (as the broken file's fallback of
        :meth:`_sensitive`, the text as Terraform reads its escapes: :func:`_unescaped`)."""
        return self.document is not None or any("sensitive" in _unescaped(text) for text in (self.text, *self.module))

    def _sensitive(self, block: str, name: str) -> bool:
        return any(_flagged(document, block, name) for document in (self.document, self.text, *self.module))

    def __repr__(self) -> str:
        return f"Source({self.name!r}, <{len(self.text)} characters>)"


def _flagged(document: Any, block: str, name: str) -> bool:
    """Whether a file (its text, or its Python values; None: none) has the block ``name`` of kind ``block`` with a
    ``sensitive`` flag that is not plainly false."""
    if isinstance(document, str):
        try:
            document = json.loads(document, object_pairs_hook=_every_value)
        except Exception:  # broken (or too deep): which block says so cannot be told (failing closed)
            return '"sensitive"' in _unescaped(document)
    files = document if isinstance(document, (list, tuple)) else [document]
    bodies = [
        body
        for top in files if isinstance(top, Mapping)
        for blocks in _each(top.get(block)) if isinstance(blocks, Mapping)
        for body in _each(blocks.get(name)) if isinstance(body, Mapping)
    ]
    return any(body.get("sensitive", False) not in (False, "false") for body in bodies)


def _unescaped(text: str) -> str:
    r"""The text with each ``\uXXXX`` escape read as its character, for a search of a file that cannot be parsed for
    a ``sensitive`` flag or call: Terraform reads ``"\u0073ensitive": true`` as the flag. (An escaped backslash before
    a ``u`` is read so too: the search then fails closed.)

    >>> _unescaped(r'{"\u0073ensitiv\u0065": true, "value": "${sensitiv\u0065(var.pw)}"}')
    '{"sensitive": true, "value": "${sensitive(var.pw)}"}'
    """
    return _UNICODE_ESCAPE.sub(lambda escape: chr(int(escape.group(1), 16)), text)


#: A ``\uXXXX`` escape of a JSON string; the only escape that spells a letter.
_UNICODE_ESCAPE: Final = re.compile(r"\\u([0-9a-fA-F]{4})")
#: Terraform's top-level block types (and OpenTofu's; ``action`` is Terraform 1.14+): the names of
#: ``_model.TOP_LEVEL``'s specs, here because a location below any other top-level name is hidden.
BLOCK_TYPES: Final = frozenset({
    "action", "check", "data", "ephemeral", "import", "locals", "module", "moved", "output", "provider", "removed",
    "resource", "terraform", "variable",
})
#: The arguments of a variable and an output block that hold no secret when the block is sensitive. Any other holds
#: one: its ``default`` (``value``), and as well a key the secret was written under by mistake (``"default: "`` of a
#: forgotten closing quote, ``defualt``), whose value is that secret all the same (failing closed). Every argument
#: the reader knows but those (``_model``'s variable and output specs) is here, Terraform 1.15's too.
_PLAIN_ARGUMENTS: Final = {
    MapStep("variable"): frozenset(
        {"type", "description", "validation", "sensitive", "nullable", "ephemeral", "deprecated", "const", "//"}
    ),
    MapStep("output"): frozenset(
        {"description", "sensitive", "depends_on", "precondition", "ephemeral", "deprecated", "type", "//"}
    ),
}
#: The text of the document a ``found`` begins by quoting (a word, a key, an escape): a secret inside a sensitive value.
_QUOTED: Final = re.compile(r"""^(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")""")


def _hidden_quote(shown: str | None, match: re.Match[str]) -> str:
    """A quoted text of the document, hidden when it is long enough to be a secret (a character of syntax is none)
    and is not the key ``shown`` in the location."""
    quoted = match.group()
    return SENSITIVE if len(quoted) - 2 >= MIN_SECRET_LENGTH and quoted[1:-1] != shown else quoted


def _each(value: Any) -> list[Any]:
    """A block written once (an object) or several times (an array of objects), as a list."""
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _every_value(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object read again for its flags, a repeated key keeping each of its values (a list): a block kind
    written twice holds both blocks (as the reader merges them), a ``sensitive`` flag given twice is no plain false.

    >>> json.loads('{"variable": {"a": {}}, "variable": {"b": {"sensitive": true, "sensitive": false}}}', object_pairs_hook=_every_value)
    {'variable': [{'a': {}}, {'b': {'sensitive': [True, False]}}]}
    """
    made: dict[str, Any] = {}
    for key, value in pairs:
        made[key] = [*_each(made[key]), *_each(value)] if key in made else value
    return made


class Trail:
    """A JSON location built one step at a time in O(1) (a linked list of raw keys and indexes),
    turned into tfjsonpath steps only when an error needs them.

    >>> from tfjsonpath import MapStep
    >>> Trail(Trail((MapStep("a"),), 0), "b").steps()
    (MapStep('a'), SliceStep(0), MapStep('b'))
    """

    __slots__ = ("key", "parent")
    parent: Trail | tuple[Step, ...]
    key: str | int

    def __init__(self, parent: Trail | tuple[Step, ...], key: str | int) -> None:
        self.parent = parent
        self.key = key

    def steps(self) -> tuple[Step, ...]:
        """The steps from the root, in order."""
        out: list[Step] = []
        link: Trail | tuple[Step, ...] = self
        while isinstance(link, Trail):
            key = link.key
            out.append(MapStep(key) if isinstance(key, str) else SliceStep(key))
            link = link.parent
        out.reverse()
        return (*link, *out)


def trail_steps(trail: Trail | tuple[Step, ...]) -> tuple[Step, ...]:
    """The steps of a Trail, or the tuple itself.

    >>> from tfjsonpath import MapStep
    >>> trail_steps((MapStep("a"),))
    (MapStep('a'),)
    """
    return trail.steps() if isinstance(trail, Trail) else trail


OBJECT: Final = 0
ARRAY: Final = 1
STRING: Final = 2
NUMBER: Final = 3
BOOL: Final = 4
NULL: Final = 5

_KIND_NAMES: Final = ("an object", "an array", "a string", "a number", "a bool", "null")


class Node:
    """One JSON value with the character offset where it starts (``-1`` when it was not read from text).

    ``value`` is: for an object a list of :data:`Member` ``(name, name_offset, node)`` in
    source order, duplicates kept; for an array a list of nodes; for a string the str; for
    a number an ``int`` (integer literals) or a ``Decimal`` (exact), or a ``float`` given
    by a caller; for a bool the bool; for null ``None``.

    >>> n = parse_json('{"a": 1, "a": 2.50}', Source(None, ""))
    >>> [(name, child.value) for name, _, child in n.value]
    [('a', 1), ('a', Decimal('2.50'))]
    """

    __slots__ = ("kind", "start", "value")
    kind: int
    value: Any
    start: int

    def __init__(self, kind: int, value: Any, start: int) -> None:
        self.kind = kind
        self.value = value
        self.start = start

    def __repr__(self) -> str:
        return f"<Node {_KIND_NAMES[self.kind]} at {self.start}>"


Member = tuple[str, int, Node]

_WS: Final = re.compile(r"[ \t\n\r]*")
# The C string scanner behind json.loads: decodes escapes and rejects raw control characters.
scanstring: Final[Callable[[str, int, bool], tuple[str, int]]] = json.decoder.scanstring  # type: ignore[attr-defined]


# Always matches (possibly empty), hence the ignores on ``.end()`` below: a wrapper would cost ~20% of parsing.
_WS_MATCH: Final = _WS.match


_NUMBER: Final = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_WORD: Final = re.compile(r"[A-Za-z0-9_\-.$+]+")


_NUMBER_RANGE: Final = (
    "a number that Python's Decimal can hold (exponent at most decimal.MAX_EMAX, no digit below 10**decimal.MIN_ETINY)"
)


def _number(match: re.Match[str]) -> int | Decimal | None:
    """The value of a number literal, or None when Decimal cannot hold it (the number is not shown: it may be a secret).

    >>> _number(_NUMBER.match("12")), _number(_NUMBER.match("1.50")), _number(_NUMBER.match("1e1000000000000000000"))
    (12, Decimal('1.50'), None)
    """
    raw = match.group()
    if not match.group(1) and not match.group(2):
        try:
            return int(raw)
        except ValueError:  # more digits than Python converts to an int: the same value, exactly, in linear time
            return Decimal(raw)
    try:
        value = Decimal(raw)
    except ArithmeticError:
        return None
    # With InvalidOperation not trapped (a caller's decimal context), Decimal gives NaN instead.
    return None if value.is_nan() else value


def describe_node(node: Node) -> str:
    """Describe a node by its JSON type and size, never by its content (it may be a secret).

    >>> describe_node(parse_json('[1, 2]', Source(None, "")))
    'an array of 2 elements'
    """
    if node.kind == OBJECT:
        n = len(node.value)
        return f"an object with {n} propert{'y' if n == 1 else 'ies'}" if n else "an empty object"
    if node.kind == ARRAY:
        n = len(node.value)
        return f"an array of {n} element{'' if n == 1 else 's'}" if n else "an empty array"
    return _KIND_NAMES[node.kind]


def _found_at(text: str, pos: int) -> str:
    if pos >= len(text):
        return "the end of the file"
    word = _WORD.match(text, pos)
    if word and len(word.group()) > 1:
        w = word.group()
        return repr(w if len(w) <= 20 else w[:20] + "…")
    return repr(text[pos])


class _Frame:
    __slots__ = ("key", "key_start", "node", "steps")

    def __init__(self, node: Node, steps: Trail | tuple[Step, ...]) -> None:
        self.node = node
        self.key = ""
        self.key_start = -1
        self.steps = steps


def _current_steps(stack: list[_Frame]) -> Trail | tuple[Step, ...]:
    # Trails are O(1) to extend; a tuple of steps per level would cost O(depth**2) for deep documents.
    if not stack:
        return ()
    top = stack[-1]
    if top.node.kind == OBJECT:
        return Trail(top.steps, top.key) if top.key_start >= 0 else top.steps
    return Trail(top.steps, len(top.node.value))


def parse_json(text: str, source: Source) -> Node:
    """Parse one JSON document (RFC 8259, nothing more) into a :class:`Node` tree.

    Errors are :class:`ConfigFormatError` with the line and column of the offending
    character and the JSON location of the value being read.

    >>> parse_json('{"a": [1, 2}', Source("x.tf.json", '{"a": [1, 2}'))
    Traceback (most recent call last):
    ...
    plancheck.tfconfig.ConfigFormatError: x.tf.json:1:12: $.a[1]: expected ',' or ']' after an array element, found '}'
    """
    n = len(text)
    pos = _WS_MATCH(text, 0).end()  # type: ignore[union-attr]
    if text.startswith("\ufeff"):
        raise source.error(
            0, (), "a JSON value (Terraform does not accept a UTF-8 byte order mark)", "a byte order mark"
        )
    if pos >= n:
        raise source.error(pos, (), "a JSON object", "an empty file" if not text else "only whitespace")
    stack: list[_Frame] = []
    root: Node | None = None
    while True:
        # -- read one value at pos ----------------------------------------------------------
        c = text[pos] if pos < n else ""
        node: Node
        if c == '"':
            try:
                s, end = scanstring(text, pos + 1, True)
            except JSONDecodeError as exc:
                raise _string_error(text, pos, exc, source, trail_steps(_current_steps(stack))) from None
            node = Node(STRING, s, pos)
            pos = end
        elif c == "{" or c == "[":
            steps = _current_steps(stack)
            node = Node(OBJECT if c == "{" else ARRAY, [], pos)
            frame = _Frame(node, steps)
            pos = _WS_MATCH(text, pos + 1).end()  # type: ignore[union-attr]
            closer = "}" if c == "{" else "]"
            if pos < n and text[pos] == closer:
                pos += 1
            else:
                stack.append(frame)
                if c == "{":
                    pos = _read_key(text, pos, frame, source, "a property name string or '}'")
                continue
        elif c == "t" and text.startswith("true", pos):
            node = Node(BOOL, True, pos)
            pos += 4
        elif c == "f" and text.startswith("false", pos):
            node = Node(BOOL, False, pos)
            pos += 5
        elif c == "n" and text.startswith("null", pos):
            node = Node(NULL, None, pos)
            pos += 4
        else:
            m = _NUMBER.match(text, pos)
            if m is None:
                raise source.error(
                    pos, trail_steps(_current_steps(stack)), "a JSON value", _found_at(text, pos)
                )
            number = _number(m)
            if number is None:
                raise source.error(pos, trail_steps(_current_steps(stack)), _NUMBER_RANGE, "a number beyond that range")
            node = Node(NUMBER, number, pos)
            pos = m.end()
        # -- attach it to its container, closing containers as they end -------------------
        while True:
            if not stack:
                root = node
                break
            frame = stack[-1]
            container = frame.node
            pos = _WS_MATCH(text, pos).end()  # type: ignore[union-attr]
            c = text[pos] if pos < n else ""
            if container.kind == OBJECT:
                container.value.append((frame.key, frame.key_start, node))
                if c == ",":
                    comma = pos
                    pos = _WS_MATCH(text, pos + 1).end()  # type: ignore[union-attr]
                    if text[pos : pos + 1] == "}":
                        raise _trailing_comma(source, comma, frame, MapStep(frame.key), "property", "object")
                    pos = _read_key(text, pos, frame, source, "a property name string")
                    break
                if c == "}":
                    pos += 1
                    stack.pop()
                    node = container
                    continue
                raise _no_separator(source, text, pos, frame, MapStep(frame.key), "',' or '}' after an object property")
            container.value.append(node)
            if c == ",":
                comma = pos
                pos = _WS_MATCH(text, pos + 1).end()  # type: ignore[union-attr]
                if text[pos : pos + 1] == "]":
                    raise _trailing_comma(source, comma, frame, SliceStep(len(container.value) - 1), "element", "array")
                break
            if c == "]":
                pos += 1
                stack.pop()
                node = container
                continue
            last = SliceStep(len(container.value) - 1)
            raise _no_separator(source, text, pos, frame, last, "',' or ']' after an array element")
        if root is not None:
            break
    pos = _WS_MATCH(text, pos).end()  # type: ignore[union-attr]
    if pos < n:
        raise source.error(pos, (), "the end of the file after the root value", _found_at(text, pos))
    return root


def _trailing_comma(source: Source, comma: int, frame: _Frame, last: Step, member: str, kind: str) -> ConfigFormatError:
    # Terraform points at the comma itself ("Trailing comma in object").
    return source.error(
        comma,
        (*trail_steps(frame.steps), last),
        f"another {member} after ',' (Terraform: Trailing comma in {kind})",
        "a trailing comma",
    )


def _no_separator(source: Source, text: str, pos: int, frame: _Frame, last: Step, expected: str) -> ConfigFormatError:
    return source.error(pos, (*trail_steps(frame.steps), last), expected, _found_at(text, pos))


def _read_key(text: str, pos: int, frame: _Frame, source: Source, expected: str) -> int:
    if pos >= len(text) or text[pos] != '"':
        raise source.error(pos, trail_steps(frame.steps), expected, _found_at(text, pos))
    try:
        key, end = scanstring(text, pos + 1, True)
    except JSONDecodeError as exc:
        raise _string_error(text, pos, exc, source, trail_steps(frame.steps)) from None
    frame.key = key
    frame.key_start = pos
    end = _WS_MATCH(text, end).end()  # type: ignore[union-attr]
    if end >= len(text) or text[end] != ":":
        raise source.error(
            end, (*trail_steps(frame.steps), MapStep(key)), "':' after a property name", _found_at(text, end)
        )
    return _WS_MATCH(text, end + 1).end()  # type: ignore[union-attr]


def _string_error(
    text: str, start: int, exc: JSONDecodeError, source: Source, steps: tuple[Step, ...]
) -> ConfigFormatError:
    pos = exc.pos
    msg = exc.msg
    if msg.startswith("Unterminated string"):
        return source.error(
            start, steps, "a closing '\"' for the string that starts here", "the end of the file"
        )
    if msg.startswith("Invalid control character"):
        return source.error(
            pos,
            steps,
            "an escaped control character in a string (such as \\n)",
            f"a raw control character U+{ord(text[pos]):04X}",
        )
    if msg.startswith("Invalid \\uXXXX"):
        return source.error(pos, steps, "4 hex digits after \\u in a string", repr(text[pos : pos + 6]))
    return source.error(pos, steps, "a valid escape sequence in a string", repr(text[pos : pos + 2]))


def node_to_python(node: Node) -> Any:
    """The plain Python value of a node: dicts, lists, str, int, Decimal, bool, None.

    Repeated property names in one object are merged into one list of their values, in
    order (an array value contributes its elements), which is how HCL reads repeated
    nested blocks. Iterative, so any depth converts.

    >>> node_to_python(parse_json('{"rule": {"a": 1}, "rule": [{"a": 2}], "n": 1.0}', Source(None, "")))
    {'rule': [{'a': 1}, {'a': 2}], 'n': Decimal('1.0')}
    """
    if node.kind > ARRAY:
        return node.value
    result: Any = {} if node.kind == OBJECT else []
    work: list[tuple[Node, Any]] = [(node, result)]
    while work:
        current, out = work.pop()
        if current.kind == OBJECT:
            members = current.value
            repeated: set[str] = set()
            if len(members) > 1:
                seen: set[str] = set()
                for name, _, _ in members:
                    if name in seen:
                        repeated.add(name)
                    seen.add(name)
            for name, _, child in members:
                if name in repeated:
                    items = out.setdefault(name, [])
                    for element in child.value if child.kind == ARRAY else (child,):
                        items.append(_make(element, work))
                else:
                    out[name] = _make(child, work)
        else:
            for child in current.value:
                out.append(_make(child, work))
    return result


def _make(node: Node, work: list[tuple[Node, Any]]) -> Any:
    if node.kind == OBJECT:
        obj: dict[str, Any] = {}
        work.append((node, obj))
        return obj
    if node.kind == ARRAY:
        arr: list[Any] = []
        work.append((node, arr))
        return arr
    return node.value


def python_to_node(value: Any) -> Node:
    """Convert a Python value to a Node tree, checking it is JSON (iteratively, so any depth works).

    Accepted: mappings with str keys, lists and tuples, str, int, float and Decimal (finite),
    bool and None. Anything else, a non-finite number or a cycle is a ConfigFormatError
    naming its JSON location.

    Below a top-level name that is no block type (a misspelt ``"varible"``), a dict's keys are not shown: such a body
    may be a sensitive variable's.

    >>> python_to_node({"locals": {"a": [1, {"b": object()}]}})
    Traceback (most recent call last):
    ...
    plancheck.tfconfig.ConfigFormatError: $.locals["a"][1]["b"]: expected a JSON value (dict, list, str, int, float, Decimal, bool or None), found a value of type object
    >>> python_to_node({"a": [1, {"b": object()}]})
    Traceback (most recent call last):
    ...
    plancheck.tfconfig.ConfigFormatError: $.a[1]["(sensitive)"]: expected a JSON value (dict, list, str, int, float, Decimal, bool or None), found a value of type object
    """
    # Its errors hide what a sensitive block's value holds, as a file's do: the value is what tells the blocks.
    source = Source(None, "", value)
    root = _scalar_or_container(value, (), source)
    if root.kind > ARRAY:
        return root
    on_path: set[int] = set()
    # Depth-first with exit markers (ints), so on_path holds exactly the containers above the current one.
    work: list[tuple[Any, Node, Trail | tuple[Step, ...]] | int] = [(value, root, ())]
    while work:
        item = work.pop()
        if isinstance(item, int):
            on_path.discard(item)
            continue
        container, node, steps = item
        if id(container) in on_path:
            raise source.error(-1, trail_steps(steps), "a tree of values", "a value that contains itself (a cycle)")
        on_path.add(id(container))
        work.append(id(container))
        if node.kind == OBJECT:
            items: list[tuple[str, int, Node]] = []
            for key, child in container.items():
                if not isinstance(key, str):
                    raise source.error(-1, trail_steps(steps), "str property names", f"a key of type {type(key).__name__}")
                if lone_surrogate_at(key) is not None:  # a .tf.json file is UTF-8
                    raise source.error(-1, trail_steps(steps), "UTF-8 property names", "a key with a lone surrogate")
                child_steps = Trail(steps, key)
                child_node = _scalar_or_container(child, child_steps, source)
                items.append((key, -1, child_node))
                if child_node.kind <= ARRAY:
                    work.append((child, child_node, child_steps))
            node.value = items
        else:
            elements: list[Node] = []
            for i, child in enumerate(container):
                child_steps = Trail(steps, i)
                child_node = _scalar_or_container(child, child_steps, source)
                elements.append(child_node)
                if child_node.kind <= ARRAY:
                    work.append((child, child_node, child_steps))
            node.value = elements
    return root


def _scalar_or_container(value: Any, trail: Trail | tuple[Step, ...], source: Source) -> Node:
    if value is None:
        return Node(NULL, None, -1)
    if value is True or value is False:
        return Node(BOOL, value, -1)
    if isinstance(value, str):
        if lone_surrogate_at(value) is not None:
            raise source.error(-1, trail_steps(trail), "UTF-8 text", "a lone surrogate")
        return Node(STRING, value, -1)
    if isinstance(value, int):
        return Node(NUMBER, int(value), -1)
    if isinstance(value, (float, Decimal)):
        if (isinstance(value, float) and not math.isfinite(value)) or (
            isinstance(value, Decimal) and not value.is_finite()
        ):
            raise source.error(-1, trail_steps(trail), "a finite number", str(value))
        return Node(NUMBER, value, -1)
    if isinstance(value, Mapping):
        return Node(OBJECT, [], -1)
    if isinstance(value, (list, tuple)):
        return Node(ARRAY, [], -1)
    raise source.error(
        -1, trail_steps(trail), "a JSON value (dict, list, str, int, float, Decimal, bool or None)",
        f"a value of type {type(value).__name__}",
    )
