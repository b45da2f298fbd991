"""What a configuration is made of: the block types Terraform and OpenTofu define (their schemas: :class:`Spec`,
:data:`TOP_LEVEL`, :data:`OPENTOFU_TOP_LEVEL`), and the read model, Config (a module's blocks) and Block (one block,
with its body)."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any, Final, final

from tfjsonpath import Path, PathNotFoundError, Step, Traverse

from .._documents import met as met_module
from .._errors import ArgumentError
from .._frozen import ReadOnly, public
from .._redact import Secrets, secret_strings
from ._json_reader import OBJECT, STRING, IgnoredProperty, Node, Source, json_location, node_to_python
from ._template import Reference, collect_references, given_secrets, nodes_sensitive_literals, parse_template

__all__ = [
    "OPENTOFU_TOP_LEVEL",
    "TOP_LEVEL",
    "Block",
    "Config",
    "Spec",
]

_MISSING: Final[Any] = object()


# -- the schema ---------------------------------------------------------------------------------


class Spec:
    """The schema of one block type: labels, known arguments (by kind), nested block types."""

    __slots__ = ("args", "attributes_only", "labels", "literal", "name", "needs", "nested", "open", "required", "reserved")
    name: str
    labels: tuple[str, ...]
    args: dict[str, str]
    nested: dict[str, Spec]
    open: bool
    literal: bool
    attributes_only: bool
    required: tuple[str, ...]
    #: Names the tool refuses here though no schema gives them a meaning yet: name -> (tool, its diagnostic's summary).
    reserved: dict[str, tuple[str, str]]
    #: Arguments that need another: name -> (the other, the diagnostic's summary).
    needs: dict[str, tuple[str, str]]

    def __init__(
        self,
        name: str,
        labels: tuple[str, ...] = (),
        args: dict[str, str] | None = None,
        nested: dict[str, Spec] | None = None,
        *,
        open: bool = False,
        literal: bool = False,
        attributes_only: bool = False,
        required: tuple[str, ...] = (),
        reserved: dict[str, tuple[str, str]] | None = None,
        needs: dict[str, tuple[str, str]] | None = None,
    ) -> None:
        self.name = name
        self.labels = labels
        self.args = args or {}
        self.nested = nested or {}
        self.open = open
        self.literal = literal
        self.attributes_only = attributes_only
        self.required = required
        self.reserved = reserved or {}
        self.needs = needs or {}

    def arg_kind(self, name: str) -> str:
        """How the value of argument ``name`` is read (``"expr"``, ``"open"``, ``"literal"``...)."""
        kind = self.args.get(name)
        if kind is not None:
            return kind
        if self.attributes_only:
            return "literal" if self.literal else "expr"
        if self.open:
            return "literal" if self.literal else "open"
        return "unknown"

    def __repr__(self) -> str:
        return f"<Spec {self.name}>"


def _condition(name: str) -> Spec:
    return Spec(
        name, args={"condition": "expr", "error_message": "expr"}, required=("condition", "error_message")
    )


_CONNECTION: Final = Spec("connection", args={"type": "literal_string"}, open=True)
_PROVISIONER: Final = Spec(
    "provisioner",
    ("type",),
    args={"when": "keyword", "on_failure": "keyword"},
    nested={"connection": _CONNECTION},
    open=True,
)
_DYNAMIC: Final = Spec(
    "dynamic",
    ("type",),
    args={"for_each": "expr", "iterator": "ident", "labels": "expr"},
    required=("for_each",),
)
_CONTENT: Final = Spec("content", open=True)
_DYNAMIC.nested["content"] = _CONTENT
_CONTENT.nested["dynamic"] = _DYNAMIC

_RESOURCE_LIFECYCLE: Final = Spec(
    "lifecycle",
    args={
        "create_before_destroy": "bool",
        "prevent_destroy": "bool",
        "ignore_changes": "ignore_changes",
        "replace_triggered_by": "expr_list",
        # Terraform 1.16 and OpenTofu 1.12: false forgets the object instead of destroying it (actions ["forget"],
        # and Terraform's ["create", "forget"] or OpenTofu's ["forget", "create"] for a replacement).
        "destroy": "bool",
    },
    nested={
        "precondition": _condition("precondition"),
        "postcondition": _condition("postcondition"),
        "action_trigger": Spec(
            "action_trigger", args={"events": "literal", "actions": "expr_list"}, open=True
        ),
    },
)
_DATA_LIFECYCLE: Final = Spec(
    "lifecycle", nested={"precondition": _condition("precondition"), "postcondition": _condition("postcondition")}
)
_META: Final = {"count": "expr", "for_each": "expr", "provider": "provider_ref", "depends_on": "ref_list"}


def _reserved(summary: str, *names: str) -> dict[str, tuple[str, str]]:
    """``names``, each reserved by Terraform with the diagnostic ``summary``."""
    return {name: ("Terraform", summary) for name in names}


def _locals_reserved(keyword: str) -> dict[str, tuple[str, str]]:
    # Both tools' resource.go: a locals block in a resource, data or ephemeral block is reserved for a future use.
    return _reserved(f"Reserved block type name in {keyword} block", "locals")


_RESOURCE: Final = Spec(
    "resource",
    ("type", "name"),
    args=dict(_META),
    nested={
        "lifecycle": _RESOURCE_LIFECYCLE,
        "provisioner": _PROVISIONER,
        "connection": _CONNECTION,
        "dynamic": _DYNAMIC,
    },
    open=True,
    reserved=_locals_reserved("resource"),
)


def _read_only(keyword: str) -> Spec:
    # Data sources and ephemeral resources take the same meta-arguments and nested blocks.
    return Spec(
        keyword,
        ("type", "name"),
        args=dict(_META),
        nested={"lifecycle": _DATA_LIFECYCLE, "dynamic": _DYNAMIC},
        open=True,
        reserved=_locals_reserved(keyword),
    )


_DATA: Final = _read_only("data")
_EPHEMERAL: Final = _read_only("ephemeral")
_ACTION: Final = Spec(
    "action",
    ("type", "name"),
    args={"count": "expr", "for_each": "expr", "provider": "provider_ref"},
    nested={"config": Spec("config", open=True)},
)


_MODULE: Final = Spec(
    "module",
    ("name",),
    args={
        "source": "literal_string",
        "version": "literal_string",
        "providers": "providers_map",
        "count": "expr",
        "for_each": "expr",
        "depends_on": "ref_list",
        # Terraform 1.15+: a static bool (OpenTofu has none: an input).
        "ignore_nested_deprecations": "bool",
    },
    # "_" escapes: its arguments are inputs, a meta-argument's name too (both tools' configs/module_call.go).
    nested={"_": Spec("_", attributes_only=True)},
    attributes_only=True,
    required=("source",),
    # An argument of these names is a block in HCL's JSON, not an input (configs/module_call.go).
    reserved=_reserved("Reserved block type name in module block", "lifecycle", "locals", "provider"),
)
_PROVIDER: Final = Spec(
    "provider",
    ("name",),
    args={"alias": "name", "version": "literal_string"},
    open=True,
    # configs/provider.go: names no provider's own arguments may take.
    reserved={
        **_reserved("Reserved argument name in provider block", "count", "depends_on", "for_each", "source"),
        **_reserved("Reserved block type name in provider block", "lifecycle", "locals"),
    },
)
_VARIABLE: Final = Spec(
    "variable",
    ("name",),
    args={
        "type": "type_expr",
        "default": "literal",
        "description": "literal_string",
        "sensitive": "bool",
        "nullable": "bool",
        "ephemeral": "bool",
        # Terraform 1.15+ (OpenTofu: deprecated 1.10+, const 1.12+): a warning's text, and a value known early.
        "deprecated": "literal_string",
        "const": "bool",
    },
    nested={"validation": _condition("validation")},
)
_OUTPUT: Final = Spec(
    "output",
    ("name",),
    args={
        "value": "expr",
        "description": "literal_string",
        "sensitive": "bool",
        "ephemeral": "bool",
        "depends_on": "ref_list",
        # Terraform 1.15+ (OpenTofu: deprecated 1.10+): a warning's text, and the value's type constraint.
        "deprecated": "literal_string",
        "type": "type_expr",
    },
    nested={"precondition": _condition("precondition")},
    required=("value",),
)
_LOCALS: Final = Spec("locals", attributes_only=True)
# Both tools read a terraform block by a closed schema (parser_config.go: terraformBlockSchema); Terraform's
# state_store (1.13+, read by a build with experiments) is no OpenTofu block, OpenTofu's encryption (1.7+) none of
# Terraform's.
_TERRAFORM: Final = Spec(
    "terraform",
    args={"required_version": "literal_string", "experiments": "literal", "language": "literal"},
    nested={
        "required_providers": Spec("required_providers", attributes_only=True, literal=True),
        "backend": Spec("backend", ("type",), open=True, literal=True),
        "cloud": Spec("cloud", open=True, literal=True),
        "provider_meta": Spec("provider_meta", ("provider",), open=True, literal=True),
        "state_store": Spec("state_store", ("type",), open=True, literal=True),
    },
    literal=True,
)
_MOVED: Final = Spec("moved", args={"from": "address", "to": "address"}, required=("from", "to"))
_IMPORT: Final = Spec(
    "import",
    args={"to": "address", "id": "expr", "identity": "expr", "provider": "provider_ref", "for_each": "expr"},
    required=("to",),
)
_REMOVED: Final = Spec(
    "removed",
    args={"from": "address"},
    nested={
        "lifecycle": Spec("lifecycle", args={"destroy": "bool"}),
        "provisioner": _PROVISIONER,
        "connection": _CONNECTION,
    },
    required=("from",),
)
_CHECK: Final = Spec(
    "check",
    ("name",),
    nested={
        "data": Spec("data", ("type", "name"), args=dict(_META), open=True, reserved=_locals_reserved("data")),
        "assert": _condition("assert"),
    },
)

#: Terraform's top-level block types.
TOP_LEVEL: Final[dict[str, Spec]] = {
    spec.name: spec
    for spec in (
        _RESOURCE,
        _DATA,
        _EPHEMERAL,
        _ACTION,
        _MODULE,
        _PROVIDER,
        _VARIABLE,
        _OUTPUT,
        _LOCALS,
        _TERRAFORM,
        _MOVED,
        _IMPORT,
        _REMOVED,
        _CHECK,
    )
}


def _without(spec: Spec, *names: str, args: dict[str, str] | None = None, **nested: Spec) -> Spec:
    """``spec`` without the arguments and nested block types ``names``, with the arguments ``args`` and the nested
    block types ``nested`` (replacing its own), and its reserved names OpenTofu's: those OpenTofu gives a meaning
    left out, each reserved by OpenTofu."""
    copied = copy.copy(spec)
    copied.args = {**{name: kind for name, kind in spec.args.items() if name not in names}, **(args or {})}
    copied.nested = {**{name: each for name, each in spec.nested.items() if name not in names}, **nested}
    copied.reserved = {
        name: ("OpenTofu", summary) for name, (_, summary) in spec.reserved.items() if name not in copied.args | nested
    }
    return copied


_ENABLED: Final = {"enabled": "expr"}
_OPENTOFU_PROVIDER: Final = _without(_PROVIDER, args={"for_each": "expr"})
_OPENTOFU_PROVIDER.needs = {"for_each": ("alias", 'Alias required when using "for_each"')}

#: OpenTofu's top-level block types, as :data:`TOP_LEVEL` is Terraform's. Where its schema differs (opentofu/opentofu
#: internal/configs: named_values.go, resource.go, removed.go, module_call.go, provider.go, language.go,
#: parser_config.go): an output has no type constraint (Terraform 1.15's), there is no action block nor a
#: lifecycle's action_trigger (Terraform 1.14's actions), and a removed block has no connection; a lifecycle's
#: enabled (OpenTofu 1.11: a resource's, a data source's, an ephemeral resource's, a module call's), a provider's
#: for_each (OpenTofu 1.9, with an alias) and the language block (OpenTofu 1.12) are OpenTofu's.
OPENTOFU_TOP_LEVEL: Final[dict[str, Spec]] = {
    **{name: spec for name, spec in TOP_LEVEL.items() if name != "action"},
    "resource": _without(_RESOURCE, lifecycle=_without(_RESOURCE_LIFECYCLE, "action_trigger", args=_ENABLED)),
    "data": _without(_DATA, lifecycle=_without(_DATA_LIFECYCLE, args=_ENABLED)),
    "ephemeral": _without(_EPHEMERAL, lifecycle=_without(_DATA_LIFECYCLE, args=_ENABLED)),
    "module": _without(_MODULE, "ignore_nested_deprecations", lifecycle=Spec("lifecycle", args=_ENABLED)),
    "provider": _OPENTOFU_PROVIDER,
    "output": _without(_OUTPUT, "type"),
    "removed": _without(_REMOVED, "connection"),
    "check": _without(_CHECK, data=_without(_CHECK.nested["data"])),
    "terraform": _without(_TERRAFORM, "state_store", encryption=Spec("encryption", open=True, literal=True)),
    "language": Spec(
        "language", args={"edition": "literal", "experiments": "literal"},
        nested={"compatible_with": Spec("compatible_with", open=True, literal=True)},
    ),
}


# -- the read model -----------------------------------------------------------------------------


@public("plancheck.tfconfig")
@final
class Block(ReadOnly):
    """One block of a configuration: its type, labels and body, and where it was written.

    ``body`` is a fresh plain-JSON copy of the body every time (numbers are ``int`` or
    exact ``Decimal``), without ``"//"`` comment properties; a property name written
    more than once (repeated nested blocks) becomes one list of all the values.

    >>> from plancheck.tfconfig import parse_config
    >>> cfg = parse_config('{"resource": {"aws_instance": {"web": {"ami": "${var.ami}", "count": 2}}}}',
    ...                    filename="main.tf.json")
    >>> web = cfg.resource("aws_instance", "web")
    >>> web
    Block('resource', ('aws_instance', 'web'), location='main.tf.json:1:32')
    >>> web.address, web.body, [r.text for r in web.references("ami")]
    ('aws_instance.web', {'ami': '${var.ami}', 'count': 2}, ['var.ami'])
    """

    __slots__ = (
        "_decl",
        "_members",
        "_nested",
        "_node",
        "_source",
        "_spec",
        "_start",
        "_steps",
        "block_type",
        "labels",
    )
    block_type: str
    labels: tuple[str, ...]
    _node: Node
    _members: tuple[tuple[str, int, Node], ...]
    _nested: tuple[Block, ...]
    _source: Source
    _spec: Spec
    _start: int
    _steps: tuple[Step, ...]
    _decl: int

    def __init__(
        self,
        block_type: str,
        labels: tuple[str, ...],
        *,
        node: Node,
        members: tuple[tuple[str, int, Node], ...],
        nested: tuple[Block, ...],
        source: Source,
        spec: Spec,
        start: int,
        steps: tuple[Step, ...],
        decl: int = -1,
    ) -> None:
        self._set(
            block_type=block_type, labels=labels, _node=node, _members=members, _nested=nested, _source=source,
            _spec=spec, _start=start, _steps=steps,
        )
        # Where Terraform places the block in its diagnostics (the body's "{", or the "[" of an array of bodies).
        self._set(_decl=decl if decl >= 0 else start)

    # -- identity ----------------------------------------------------------------------------

    @property
    def name(self) -> str | None:
        """The last label (the resource, variable, module... name); ``None`` for unlabelled blocks."""
        return self.labels[-1] if self.labels else None

    @property
    def address(self) -> str:
        """How Terraform names the block: ``aws_instance.web``, ``data.a.b``, ``var.x``, ``module.m``...

        >>> from plancheck.tfconfig import parse_config
        >>> cfg = parse_config('{"provider": {"aws": [{}, {"alias": "west"}]}, "variable": {"x": {}}}')
        >>> [b.address for b in cfg.blocks]
        ['provider.aws', 'provider.aws.west', 'var.x']
        """
        t = self.block_type
        labels = self.labels
        if t == "resource":
            return ".".join(labels)
        if t == "variable":
            return "var." + labels[0]
        if t == "provider":
            alias = self.get("alias")
            return f"provider.{labels[0]}" + (f".{alias}" if isinstance(alias, str) else "")
        return ".".join((t, *labels))

    @property
    def file(self) -> str | None:
        """The file the block was read from (``None`` for a dict)."""
        return self._source.name

    @property
    def line(self) -> int | None:
        """The 1-based line of the block's last label (or its type), when read from a file."""
        return self._source.line_column(self._start)[0] if self._start >= 0 else None

    @property
    def column(self) -> int | None:
        """The 1-based column of the block's last label (or its type), when read from a file."""
        return self._source.line_column(self._start)[1] if self._start >= 0 else None

    @property
    def location(self) -> str:
        """``file:line:column`` where the block is defined, or its JSON location for a dict.

        >>> from plancheck.tfconfig import config_from_dict
        >>> config_from_dict({"locals": {"a": 1}}).blocks[0].location
        '$.locals'
        """
        if self._start < 0:
            return json_location(self._steps)
        line, column = self._source.line_column(self._start)
        return f"{self._source.name or '<string>'}:{line}:{column}"

    @property
    def json_path(self) -> Path:
        """Where the body is in its JSON document, as a Path.

        >>> from plancheck.tfconfig import config_from_dict
        >>> config_from_dict({"provider": {"aws": [{}, {"alias": "w"}]}}).blocks[1].json_path.to_text()
        'provider["aws"][1]'
        """
        return Path(*self._steps)

    # -- content -----------------------------------------------------------------------------

    @property
    def body(self) -> dict[str, Any]:
        """A fresh plain-JSON copy of the body, ``"//"`` comments left out."""
        out: dict[str, Any] = node_to_python(Node(OBJECT, list(self._members), -1))
        return out

    def names(self) -> tuple[str, ...]:
        """The argument and nested block names in the body, in order, each once.

        >>> from plancheck.tfconfig import config_from_dict
        >>> config_from_dict({"variable": {"x": {"//": "c", "type": "string", "default": "a"}}}).blocks[0].names()
        ('type', 'default')
        """
        return tuple(dict.fromkeys(name for name, _, _ in self._members))

    def has(self, name: str) -> bool:
        """True if the body sets ``name`` (an argument or a nested block).

        >>> from plancheck.tfconfig import config_from_dict
        >>> config_from_dict({"variable": {"x": {"default": None}}}).blocks[0].has("default")
        True
        """
        return any(n == name for n, _, _ in self._members)

    def get(self, name: str, default: Any = None) -> Any:
        """A fresh plain-JSON copy of the value of ``name`` (merged if written more than once), or ``default``.

        >>> from plancheck.tfconfig import config_from_dict
        >>> config_from_dict({"module": {"m": {"source": "./m"}}}).module("m").get("source")
        './m'
        """
        found = [node for n, _, node in self._members if n == name]
        if not found:
            return default
        if len(found) == 1:
            return node_to_python(found[0])
        return node_to_python(Node(OBJECT, [(name, -1, node) for node in found], -1))[name]

    def value_at(self, path: Path | str) -> Any:
        """The value at ``path`` (a tfjsonpath Path, or its text form) in the body.

        Raises ``tfjsonpath.PathNotFoundError`` naming the failing step.

        >>> from plancheck.tfconfig import config_from_dict
        >>> b = config_from_dict({"resource": {"x": {"y": {"tags": {"Name": "web"}}}}}).resource("x", "y")
        >>> b.value_at('tags.Name')
        'web'
        """
        if isinstance(path, str):
            path = Path.parse(path)
        if not len(path):
            return self.body
        first = path[0]
        key = getattr(first, "key", None)
        if key is not None:
            value = self.get(key, _MISSING)
            if value is not _MISSING:
                try:
                    return Traverse(value, path[1:])
                except PathNotFoundError:
                    pass  # traversed again from the body below, so the error names the whole path
        return Traverse(self.body, path)

    def blocks(self, block_type: str | None = None) -> tuple[Block, ...]:
        """The nested blocks Terraform itself defines (lifecycle, provisioner, connection, dynamic, ...).

        Blocks a provider defines are not known without its schema; they stay in ``body``.

        >>> from plancheck.tfconfig import config_from_dict
        >>> b = config_from_dict({"resource": {"terraform_data": {"a": {"provisioner": [
        ...     {"local-exec": {"command": "echo 1"}}, {"local-exec": {"command": "echo 2"}}]}}}}).blocks[0]
        >>> [(p.labels, p.get("command")) for p in b.blocks("provisioner")]
        [(('local-exec',), 'echo 1'), (('local-exec',), 'echo 2')]
        """
        if block_type is None:
            return self._nested
        return tuple(b for b in self._nested if b.block_type == block_type)

    def expression(self, name: str) -> Any:
        """How Terraform reads the string argument ``name``: a ParsedTemplate, or ``None`` if not a string.

        >>> from plancheck.tfconfig import config_from_dict
        >>> config_from_dict({"output": {"o": {"value": "${var.x}"}}}).output("o").expression("value").kind
        'interpolation'
        """
        for n, _, node in self._members:
            if n == name and node.kind == STRING:
                return parse_template(node.value)
        return None

    def references(self, attribute: str | None = None) -> tuple[Reference, ...]:
        """The references made by the block (or by one argument or nested block type), in order, each once.

        Includes ``depends_on`` and ``replace_triggered_by`` entries; leaves out the
        iterators of ``dynamic`` blocks and literal arguments (a variable's default, a
        module's source...).

        >>> from plancheck.tfconfig import config_from_dict
        >>> b = config_from_dict({"resource": {"terraform_data": {"a": {
        ...     "input": "${module.net.vpc_id}-${local.suffix}", "depends_on": ["aws_vpc.main"]}}}}).blocks[0]
        >>> [r.text for r in b.references()]
        ['module.net.vpc_id', 'local.suffix', 'aws_vpc.main']
        """
        refs: list[Reference] = []
        iterators: set[str] = set()
        # Depth-first, so references come in source order: a block's arguments, then its nested blocks.
        work: list[tuple[Block, str | None]] = [(self, attribute)]
        while work:
            block, only = work.pop()
            spec = block._spec
            for name, _, node in block._members:
                if only is not None and name != only:
                    continue
                if name in spec.nested:
                    continue
                collect_references(spec.arg_kind(name), node, refs)
            children = [n for n in block._nested if only is None or n.block_type == only]
            for nested in children:
                if nested.block_type == "dynamic":
                    iterator = nested.get("iterator")
                    iterators.add(iterator if isinstance(iterator, str) else nested.labels[0])
            work.extend((nested, None) for nested in reversed(children))
        unique = dict.fromkeys(r for r in refs if r.text.split(".", 1)[0].split("[", 1)[0] not in iterators)
        return tuple(unique)

    # -- value semantics ---------------------------------------------------------------------

    def _key(self) -> tuple[Any, ...]:
        return (self.block_type, self.labels, self._source.name, self._start, self._steps)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Block):
            return self._key() == other._key() and self.body == other.body
        return NotImplemented

    def __hash__(self) -> int:
        return hash((Block, *self._key()))

    def __repr__(self) -> str:
        return f"Block({self.block_type!r}, {self.labels!r}, location={self.location!r})"


def _members(argument: str, value: Any, kind: type) -> tuple[Any, ...]:
    """``value``, a ``Config`` argument, as a tuple of ``kind``; an ``ArgumentError`` naming the argument if it is not.

    >>> _members("files", ["main.tf.json"], str)
    ('main.tf.json',)
    >>> _members("files", "main.tf.json", str)
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: Config: files must be an iterable of str, got str
    """
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise ArgumentError(f"Config: {argument} must be an iterable of {kind.__name__}, got {type(value).__name__}")
    members = tuple(value)
    for position, member in enumerate(members):
        if not isinstance(member, kind):
            raise ArgumentError(f"Config: {argument}[{position}] must be {kind.__name__}, got {type(member).__name__}")
    return members


@public("plancheck.tfconfig")
@final
class Config(ReadOnly):
    """A Terraform module's configuration as read from ``.tf.json`` / ``.tofu.json`` files (or a dict).

    ``blocks`` holds every block in file order then source order, with the override files
    (``override.tf.json``, ``*_override.tf.json``) merged in as Terraform merges them; the
    accessors below select from it. ``primary_blocks`` and ``overrides`` hold the blocks as
    written, of the other files and of the override files. ``ignored`` lists unknown
    top-level properties (read leniently), ``skipped_files`` files of a directory that were
    not read.

    >>> from plancheck.tfconfig import config_from_dict
    >>> cfg = config_from_dict({
    ...     "variable": {"region": {"type": "string", "default": "eu-west-1"}},
    ...     "resource": {"aws_s3_bucket": {"logs": {"bucket": "logs"}, "data": {"bucket": "data"}}},
    ... })
    >>> [b.address for b in cfg.resources("aws_s3_bucket")], cfg.variable("region").get("default")
    (['aws_s3_bucket.logs', 'aws_s3_bucket.data'], 'eu-west-1')
    """

    __slots__ = ("_blocks", "_directory", "_files", "_ignored", "_overrides", "_primary", "_secrets", "_skipped")
    _blocks: tuple[Block, ...]
    _directory: str | None
    _primary: tuple[Block, ...]
    _files: tuple[str, ...]
    _ignored: tuple[IgnoredProperty, ...]
    _overrides: tuple[Block, ...]
    _skipped: tuple[str, ...]
    _secrets: Secrets | None

    def __init__(
        self,
        blocks: Iterable[Block],
        *,
        files: Iterable[str] = (),
        ignored: Iterable[IgnoredProperty] = (),
        overrides: Iterable[Block] = (),
        skipped_files: Iterable[str] = (),
        primary_blocks: Iterable[Block] | None = None,
        directory: str | None = None,
    ) -> None:
        # Checked here, where the argument is named: a wrong one was a bare TypeError ("'int' object is not
        # iterable"), or a member no accessor could read, met later.
        blocks = _members("blocks", blocks, Block)
        if directory is not None and not isinstance(directory, str):
            raise ArgumentError(f"Config: directory must be a str or None, got {type(directory).__name__}")
        self._set(
            _blocks=blocks,
            # The module directory the files were read from, whose local module calls' children tell secrets.
            _directory=directory,
            _primary=blocks if primary_blocks is None else _members("primary_blocks", primary_blocks, Block),
            _files=_members("files", files, str),
            _ignored=_members("ignored", ignored, IgnoredProperty),
            _overrides=_members("overrides", overrides, Block),
            _skipped=_members("skipped_files", skipped_files, str),
            _secrets=None,
        )
        # A front end listening scrubs the secrets of every configuration made while it writes, as of every plan:
        # a test that reads a module itself (load_config) and shows a sensitive default is scrubbed too.
        if met_module.LISTENERS:
            met_module.met(self)

    @property
    def blocks(self) -> tuple[Block, ...]:
        """Every block, in file order then source order."""
        return self._blocks

    @property
    def files(self) -> tuple[str, ...]:
        """The files read, in the order they were read."""
        return self._files

    @property
    def ignored(self) -> tuple[IgnoredProperty, ...]:
        """Unknown top-level properties kept aside when reading leniently."""
        return self._ignored

    @property
    def overrides(self) -> tuple[Block, ...]:
        """The blocks of the override files as written, in file order (they are merged into :attr:`blocks`).

        >>> import tempfile, pathlib
        >>> from plancheck.tfconfig import load_config
        >>> with tempfile.TemporaryDirectory() as d:
        ...     _ = pathlib.Path(d, "main.tf.json").write_text('{"variable": {"r": {"default": "eu"}}}')
        ...     _ = pathlib.Path(d, "override.tf.json").write_text('{"variable": {"r": {"default": "us"}}}')
        ...     cfg = load_config(d)
        >>> cfg.variable("r").get("default"), [b.get("default") for b in cfg.overrides]
        ('us', ['us'])
        >>> [b.get("default") for b in cfg.primary_blocks]
        ['eu']
        """
        return self._overrides

    @property
    def primary_blocks(self) -> tuple[Block, ...]:
        """The blocks of the primary (non-override) files as written, before override files are merged in.

        The same as :attr:`blocks` when the module has no override file (or was loaded with
        ``merge_overrides=False``).

        >>> from plancheck.tfconfig import config_from_dict
        >>> cfg = config_from_dict({"locals": {"a": 1}})
        >>> cfg.primary_blocks == cfg.blocks
        True
        """
        return self._primary

    @property
    def skipped_files(self) -> tuple[str, ...]:
        """Files of a directory that were not read (native ``.tf`` syntax, or shadowed by ``.tofu.json``)."""
        return self._skipped

    def blocks_of(self, block_type: str) -> tuple[Block, ...]:
        """The top-level blocks of one type (``"moved"``, ``"import"``, ``"check"``, ``"terraform"``...).

        >>> from plancheck.tfconfig import config_from_dict
        >>> len(config_from_dict({"moved": [{"from": "a.b", "to": "a.c"}, {"from": "a.d", "to": "a.e"}]})
        ...     .blocks_of("moved"))
        2
        """
        return tuple(b for b in self._blocks if b.block_type == block_type)

    def resources(self, type: str | None = None) -> tuple[Block, ...]:
        """The managed resources, optionally only those of one type."""
        return self._of_type("resource", type)

    def resource(self, type: str, name: str) -> Block | None:
        """The managed resource ``type.name``, or ``None``."""
        return self._find("resource", (type, name))

    def data_sources(self, type: str | None = None) -> tuple[Block, ...]:
        """The data sources, optionally only those of one type."""
        return self._of_type("data", type)

    def data_source(self, type: str, name: str) -> Block | None:
        """The data source ``data.type.name``, or ``None``."""
        return self._find("data", (type, name))

    @property
    def variables(self) -> dict[str, Block]:
        """The input variables by name."""
        return self._by_name("variable")

    def variable(self, name: str) -> Block | None:
        """The variable ``name``, or ``None``."""
        return self._find("variable", (name,))

    @property
    def outputs(self) -> dict[str, Block]:
        """The outputs by name."""
        return self._by_name("output")

    def output(self, name: str) -> Block | None:
        """The output ``name``, or ``None``."""
        return self._find("output", (name,))

    @property
    def modules(self) -> dict[str, Block]:
        """The module calls by name."""
        return self._by_name("module")

    def module(self, name: str) -> Block | None:
        """The module call ``name``, or ``None``."""
        return self._find("module", (name,))

    def providers(self, name: str | None = None) -> tuple[Block, ...]:
        """The provider configurations, optionally only those of one provider."""
        return tuple(
            b for b in self._blocks if b.block_type == "provider" and (name is None or b.labels[0] == name)
        )

    def provider(self, name: str, alias: str | None = None) -> Block | None:
        """The configuration of provider ``name`` with ``alias`` (``None``: the default one), or ``None``.

        >>> from plancheck.tfconfig import config_from_dict
        >>> cfg = config_from_dict({"provider": {"aws": [{"region": "us-east-1"}, {"alias": "usw1"}]}})
        >>> cfg.provider("aws").get("region"), cfg.provider("aws", "usw1").address
        ('us-east-1', 'provider.aws.usw1')
        """
        for b in self.providers(name):
            a = b.get("alias")
            if (a if isinstance(a, str) else None) == alias:
                return b
        return None

    @property
    def locals(self) -> dict[str, Any]:
        """The local values by name, as plain JSON (expressions stay strings).

        >>> from plancheck.tfconfig import config_from_dict
        >>> config_from_dict({"locals": [{"a": 1}, {"b": "${local.a}"}]}).locals
        {'a': 1, 'b': '${local.a}'}
        """
        out: dict[str, Any] = {}
        for b in self._blocks:
            if b.block_type == "locals":
                out.update(b.body)
        return out

    @property
    def secrets(self) -> Secrets:
        """Strings never to show: defaults of ``sensitive`` variables, literal values of sensitive outputs and string
        literals given to ``sensitive()``; the literal key material of OpenTofu's ``encryption`` block (a ``pbkdf2``
        passphrase, a method's ``keys``, a key provider's credentials); and, for a configuration :func:`load_config`
        read from the disk, the literal values a module call gives a variable its local child module
        (``source = "./child"``) declares ``sensitive`` (its ``.tf`` and ``.tf.json`` files are read for the flags; a
        remote module is not read). Of a template given so, or as a sensitive output's value, its literal runs
        (``"hunter2-${var.x}"``: Terraform marks the whole value) and its expressions' quoted strings, not its
        references.

        A variable or output is sensitive when it is in any of its definitions (the merged block,
        the primary file's, an override file's); then the values of all of them are secrets, so an
        overridden default stays hidden too.

        >>> from plancheck.tfconfig import config_from_dict
        >>> "hunter2" in config_from_dict({"variable": {"pw": {"default": "hunter2", "sensitive": True}}}).secrets
        True
        """
        cached = self._secrets
        if cached is None:
            values: list[str] = []
            every = (*self._blocks, *self._primary, *self._overrides)
            sensitive = {
                b.address
                for b in every
                if b.block_type in ("variable", "output") and b.get("sensitive") in (True, "true")
            }
            for b in every:
                if b.block_type == "variable" and b.address in sensitive:
                    values.extend(secret_strings(b.get("default")))  # a default is literal: no template in it
                elif b.block_type == "output" and b.address in sensitive:
                    # Terraform marks the output's whole value: a template's literal runs, as a call's to a sensitive
                    # variable are (an expression, "${var.pw}", names where a secret comes from, not the secret).
                    from .._terraform.mock.plan import call_value_secrets

                    values.extend(call_value_secrets(b.get("value")))
            values.extend(given_secrets(self._directory, every))
            # A literal given to sensitive() anywhere (a resource's argument, a local, a module's input).
            values.extend(nodes_sensitive_literals(node for b in every for _, _, node in b._members))
            cached = Secrets(values)
            self._set(_secrets=cached)
        return cached

    def is_sensitive_variable(self, name: str) -> bool:
        """True if variable ``name`` is declared ``sensitive``.

        >>> from plancheck.tfconfig import config_from_dict
        >>> config_from_dict({"variable": {"pw": {"sensitive": True}}}).is_sensitive_variable("pw")
        True
        """
        v = self.variable(name)
        return v is not None and v.get("sensitive") in (True, "true")

    def _of_type(self, block_type: str, type: str | None) -> tuple[Block, ...]:
        """The ``resource`` or ``data`` blocks, of one resource ``type`` (their first label) or all."""
        return tuple(b for b in self._blocks if b.block_type == block_type and (type is None or b.labels[0] == type))

    def _by_name(self, block_type: str) -> dict[str, Block]:
        """The blocks of a one-label ``block_type`` (variables, outputs, module calls) by their label."""
        return {b.labels[0]: b for b in self._blocks if b.block_type == block_type}

    def _find(self, block_type: str, labels: tuple[str, ...]) -> Block | None:
        for b in self._blocks:
            if b.block_type == block_type and b.labels == labels:
                return b
        return None

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Config):
            return (self._blocks, self._files, self._ignored, self._overrides, self._skipped, self._primary) == (
                other._blocks,
                other._files,
                other._ignored,
                other._overrides,
                other._skipped,
                other._primary,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash((Config, self._blocks, self._files))

    def __repr__(self) -> str:
        counts: dict[str, int] = {}
        for b in self._blocks:
            counts[b.block_type] = counts.get(b.block_type, 0) + 1
        inner = ", ".join(f"{k}={v}" for k, v in counts.items())
        files = f", files={list(self._files)!r}" if self._files else ""
        return f"<Config {inner or 'empty'}{files}>"
