"""A module's configuration read (one file, a module directory by Terraform's or OpenTofu's rules, text, or a
dict), its override files merged in, and written (checked by the reader's rules first).

Override files are merged by Terraform's rules (``internal/configs/module_merge.go``): Terraform reads
the primary files of a module, then each override file (``override.tf.json``, ``*_override.tf.json``)
in lexical order, and merges every block of it into the block of the primary files with the same type
and labels:

* arguments replace the base's arguments of the same name, one by one; a nested block type
  written in the override replaces every base block of that type (``dynamic "x"`` counts as
  type ``x``);
* a resource's ``lifecycle`` is merged argument by argument (``create_before_destroy``,
  ``prevent_destroy``, ``ignore_changes``; ``destroy`` stays the base's), the override's
  ``action_trigger`` blocks replace the base's; the base's conditions stay, the override's are
  not used; a variable's ``validation`` and an output's ``precondition`` stay the base's, and
  so does the ``deprecated`` text of either (OpenTofu merges ``destroy`` and ``deprecated``; its schema has no
  ``action_trigger``, so an OpenTofu read refuses one);
* ``locals`` are merged value by value, whichever ``locals`` block defines them;
* the ``terraform`` block: ``required_version`` replaces all the base's constraints, a
  ``backend`` or ``cloud`` replaces the base's, ``required_providers`` entries replace the
  base's entries of the same provider name (others stay);
* an override with nothing to merge into is an error (Terraform's "Missing resource to
  override"...), except a provider configuration without alias, which is added;
  ``depends_on`` in an override and ``moved``/``import`` blocks in override files are errors;
  ``check``, ``removed`` and ``ephemeral`` blocks of override files are not used.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from pathlib import Path as FsPath
from typing import Any, Final, Literal

from tfjsonpath import MapStep, SliceStep
from tfjsonpath._jsontypes import number_text

from .._errors import ArgumentError
from .._frozen import public
from .._loading.source import (
    InputTooLarge,
    fs_path,
    is_ignored_file,
    max_input_bytes,
    read_limited,
    tofu_hides,
    tool_of,
    why_unread,
    write_whole,
)
from ._blocks import check_unique, decode_document, read_again
from ._json_reader import (
    ARRAY,
    BOOL,
    NULL,
    NUMBER,
    OBJECT,
    STRING,
    ConfigFormatError,
    IgnoredProperty,
    Member,
    Node,
    Source,
    parse_json,
    python_to_node,
)
from ._model import OPENTOFU_TOP_LEVEL, TOP_LEVEL, Block, Config, Spec

__all__ = [
    "CONFIG_SUFFIXES",
    "Flavor",
    "config_from_dict",
    "config_from_node",
    "dumps_config",
    "load_config",
    "load_config_for_test",
    "merge_overrides",
    "parse_config",
    "write_config",
]

Flavor = Literal["terraform", "opentofu"]
#: Each flavor's schema: what its reader knows.
_SCHEMAS: Final[dict[str, dict[str, Spec]]] = {"terraform": TOP_LEVEL, "opentofu": OPENTOFU_TOP_LEVEL}


def _schema(flavor: object, caller: str = "") -> dict[str, Spec]:
    """The schema of ``flavor``; else the ValueError naming ``caller`` (when given)."""
    schema = _SCHEMAS.get(flavor) if isinstance(flavor, str) else None
    if schema is None:
        raise ArgumentError(f"{caller}{': ' if caller else ''}flavor must be 'terraform' or 'opentofu', got {flavor!r}")
    return schema


def config_from_node(
    root: Node,
    source: Source,
    *,
    strict: bool,
    override: bool = False,
    directory: str | None = None,
    flavor: Flavor = "terraform",
) -> Config:
    """Decode one parsed document into a Config (checking for duplicate definitions) by ``flavor``'s schema;
    ``directory``: the module directory of the file it was read from."""
    blocks, ignored = decode_document(root, source, strict=strict, override=override, top_level=_SCHEMAS[flavor])
    if not override:
        check_unique(blocks)
    return Config(blocks, files=(source.name,) if source.name else (), ignored=ignored, directory=directory)


def _decode_text(data: str | bytes, name: str | None) -> str:
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = data[: exc.start].decode("utf-8")
        source = Source(name, good)
        line, column = source.line_column(len(good))
        raise ConfigFormatError(
            "$",
            "UTF-8 text",
            found=f"the byte 0x{data[exc.start]:02x}",
            source=name,
            line=line,
            column=column,
        ) from None


@public("plancheck.tfconfig")
def parse_config(
    text: str | bytes,
    *,
    filename: str | None = None,
    strict: bool = False,
    override: bool = False,
    flavor: Flavor = "terraform",
) -> Config:
    """Read one JSON configuration document from text (``filename`` only names it in errors).

    With ``strict=False`` unknown top-level properties (legacy ``atlas`` blocks, generic
    HCL JSON) are kept aside in ``Config.ignored``; with ``strict=True`` they are errors,
    as in Terraform. ``override=True`` reads the text as an override file: its blocks need
    no required argument (an output without ``value``) and may repeat each other.
    ``flavor="opentofu"`` reads it by OpenTofu's schema, which lacks some of Terraform's arguments
    (an output's ``type``, a lifecycle's ``action_trigger``): one is an error, as a misspelt one is.

    >>> cfg = parse_config('{"//": "generated", "output": {"id": {"value": "${terraform_data.a.id}"}}}')
    >>> cfg.output("id").references()[0].subject
    'terraform_data.a'
    >>> parse_config('{"output": {"id": {"sensitive": true}}}', override=True).output("id").body
    {'sensitive': True}
    >>> parse_config('{"resource": {"aws_instance": "web"}}', filename="main.tf.json")
    Traceback (most recent call last):
    ...
    plancheck.tfconfig.ConfigFormatError: main.tf.json:1:31: $.resource["aws_instance"]: expected an object of resource names (resource "aws_instance" needs 1 more label: name), found a string
    >>> parse_config('{"output": {"id": {"value": 1, "type": "number"}}}', flavor="opentofu")
    Traceback (most recent call last):
    ...
    plancheck.tfconfig.ConfigFormatError: 1:32: $.output["id"]["type"]: expected an argument or block of output "id" (depends_on, deprecated, description, ephemeral, precondition, sensitive, value), found "type"
    """
    if not isinstance(text, (str, bytes)):
        raise ArgumentError(f"parse_config expects the configuration's text (str or bytes), got {type(text).__name__}")
    _schema(flavor, "parse_config")
    _require_bools("parse_config", strict=strict, override=override)
    decoded = _decode_text(text, filename)
    source = Source(filename, decoded)
    return config_from_node(parse_json(decoded, source), source, strict=strict, override=override, flavor=flavor)


@public("plancheck.tfconfig")
def config_from_dict(
    config: Mapping[str, Any] | Sequence[Mapping[str, Any]], *, strict: bool = True, flavor: Flavor = "terraform"
) -> Config:
    """Read a configuration given as a Python mapping (what a generator is about to write), or as a list
    of mappings (the top-level JSON array Terraform also reads).

    Strict by default: an unknown top-level property is an error. Error locations are
    JSON locations such as ``$.resource["null_resource"]``. ``flavor="opentofu"`` reads it by
    OpenTofu's schema, as :func:`parse_config` does.

    >>> sorted(config_from_dict([{"variable": {"x": {}}}, {"variable": {"y": {}}}]).variables)
    ['x', 'y']

    >>> config_from_dict({"resource": {"null_resource": {"a": {"depends_on": "x"}}}})
    Traceback (most recent call last):
    ...
    plancheck.tfconfig.ConfigFormatError: $.resource["null_resource"]["a"]["depends_on"]: expected an array of references such as "aws_instance.web", found a string
    """
    if not isinstance(config, (Mapping, list, tuple)):
        raise ConfigFormatError(
            "$", "a mapping of top-level blocks (or a list of them)", found=f"a value of type {type(config).__name__}"
        )
    _schema(flavor, "config_from_dict")
    _require_bools("config_from_dict", strict=strict)
    return config_from_node(python_to_node(config), Source(None, "", config), strict=strict, flavor=flavor)


def _is_override(name: str, suffix: str) -> bool:
    stem = name[: -len(suffix)]
    return stem == "override" or stem.endswith("_override")


def _suffix(name: str) -> str | None:
    for suffix in (".tf.json", ".tofu.json"):
        if name.endswith(suffix) and len(name) > len(suffix):
            return suffix
    return None


def _fs_path(caller: str, path: object) -> FsPath:
    """``path`` as a path, or the TypeError naming ``caller`` and what it was given (never os.fspath's own)."""
    return FsPath(fs_path(path, caller))


def _read_file(path: FsPath, limit: int) -> bytes:
    """A configuration file's bytes, at most ``limit`` of them (see :mod:`plancheck._loading.source`)."""
    try:
        with path.open("rb") as f:
            data = read_limited(f, limit)
    except (OSError, ValueError) as exc:
        # As the command line's readers say it: the system's reason, never the exception's class name.
        raise ConfigFormatError("$", "a readable file", found=why_unread(exc), source=str(path)) from None
    except InputTooLarge as exc:
        raise ConfigFormatError("$", exc.expected("configuration file"), found=exc.found, source=str(path)) from None
    assert isinstance(data, bytes)
    return data


@public("plancheck.tfconfig")
def load_config(
    path: str | os.PathLike[str],
    *,
    flavor: Flavor = "terraform",
    strict: bool = False,
    max_bytes: int | None = None,
    merge_overrides: bool = True,
) -> Config:
    """Read one configuration file, or every JSON configuration file of a module directory.

    A directory is read as the chosen tool reads it, files in lexical order:

    * ``flavor="terraform"``: every ``*.tf.json``; ``*.tofu.json`` files are not read.
    * ``flavor="opentofu"``: ``*.tf.json`` and ``*.tofu.json``; when ``foo.tofu.json`` and
      ``foo.tf.json`` both exist, only ``foo.tofu.json`` is read.
    * Both skip hidden files (``.x.tf.json``) and editor leftovers (``x.tf.json~``, ``#x.tf.json#``),
      as Terraform and OpenTofu do; they are listed in ``Config.skipped_files``.

    Override files (``override.tf.json``, ``*_override.tf.json``; also ``*.tofu.json`` ones
    for OpenTofu) are merged into the blocks of the other files by the flavor's rules (OpenTofu's
    also merge a lifecycle's ``destroy`` and a non-empty ``deprecated``; see :func:`merge_overrides`), in
    lexical order: ``Config.blocks`` and every accessor show what the tool uses. The blocks
    as written stay reachable: ``Config.primary_blocks`` (the other files) and
    ``Config.overrides`` (the override files); ``merge_overrides=False`` makes ``blocks`` the
    unmerged primary blocks. An override with no block to merge into is an error, as in
    Terraform. Native-syntax files (``*.tf``, ``*.tofu``) and shadowed files are listed in
    ``Config.skipped_files``. Definitions repeated across primary files (two
    ``resource "a" "b"``, two ``variable "x"``...) are errors, as in Terraform.
    Each file is read up to ``max_bytes`` (default: ``PLANCHECK_MAX_BYTES``, else 2 GiB);
    a larger one is a ConfigFormatError.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = pathlib.Path(d, "a.tf.json").write_text('{"variable": {"x": {}}}')
    ...     _ = pathlib.Path(d, "a.tofu.json").write_text('{"variable": {"y": {}}}')
    ...     sorted(load_config(d).variables), sorted(load_config(d, flavor="opentofu").variables)
    (['x'], ['y'])
    """
    _schema(flavor)
    _require_bools("load_config", strict=strict, merge_overrides=merge_overrides)
    limit = max_input_bytes(max_bytes)
    target = _fs_path("load_config", path)
    if target.is_dir():
        return _load_directory(target, flavor, strict, limit, merge_overrides)
    data = _read_file(target, limit)
    decoded = _decode_text(data, str(target))
    source = Source(str(target), decoded)
    return config_from_node(
        parse_json(decoded, source), source, strict=strict, directory=str(target.parent), flavor=flavor
    )


def _require_bools(caller: str, **flags: object) -> None:
    """Each of ``flags`` is a bool: else the TypeError naming ``caller`` and the flag (strict="no" was strict)."""
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise ArgumentError(f"{caller}: {name} must be a bool, got {type(value).__name__}")


def _load_directory(directory: FsPath, flavor: Flavor, strict: bool, limit: int, merge: bool) -> Config:
    suffixes = (".tf.json", ".tofu.json") if flavor == "opentofu" else (".tf.json",)
    names = sorted(entry.name for entry in directory.iterdir() if entry.is_file())
    chosen: list[tuple[str, str]] = []
    skipped: list[str] = []
    for name in names:
        if is_ignored_file(name):
            skipped.append(str(directory / name))
            continue
        suffix = _suffix(name)
        if suffix is None:
            if name.endswith((".tf", ".tofu")):
                skipped.append(str(directory / name))
            continue
        if suffix not in suffixes:
            skipped.append(str(directory / name))
            continue
        if flavor == "opentofu" and tofu_hides(name, names):
            skipped.append(str(directory / name))
            continue
        chosen.append((name, suffix))
    blocks: list[Block] = []
    overrides: list[Block] = []
    ignored: list[IgnoredProperty] = []
    files: list[str] = []
    # Every file read before any is parsed: an error in one hides a default another file declares sensitive.
    texts = [_decode_text(_read_file(directory / name, limit), str(directory / name)) for name, _ in chosen]
    for i, (name, suffix) in enumerate(chosen):
        file_path = directory / name
        decoded = texts[i]
        source = Source(str(file_path), decoded, module=(*texts[:i], *texts[i + 1 :]))
        is_override = _is_override(name, suffix)
        file_blocks, file_ignored = decode_document(
            parse_json(decoded, source), source, strict=strict, override=is_override, top_level=_SCHEMAS[flavor]
        )
        (overrides if is_override else blocks).extend(file_blocks)
        ignored.extend(file_ignored)
        files.append(str(file_path))
    check_unique(blocks)
    merged = merge_overrides(blocks, overrides, flavor=flavor) if merge else blocks
    return Config(
        merged, files=files, ignored=ignored, overrides=overrides, skipped_files=skipped, primary_blocks=blocks,
        directory=str(directory),
    )


@public("plancheck.tfconfig")
def load_config_for_test(
    target: str | os.PathLike[str],
    *,
    relative_to: str | os.PathLike[str] | None = None,
    flavor: Flavor | None = None,
    strict: bool = False,
) -> Config:
    """Load the configuration a test names: a ``.tf.json``/``.tofu.json`` file or a module directory.

    A relative ``target`` is taken from ``relative_to`` (a test file, or a directory);
    this is what ``@pytest.mark.tf_config("dir_or_file")`` resolves against the test's
    file. A missing target is a ``FileNotFoundError`` naming the resolved path. Without a ``flavor``, a
    ``.tofu.json`` file and a directory holding a ``.tofu`` or ``.tofu.json`` file (which Terraform never reads) are
    read as OpenTofu reads them, anything else as Terraform does.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = pathlib.Path(d, "fixtures").mkdir()
    ...     _ = pathlib.Path(d, "fixtures", "main.tf.json").write_text('{"locals": {"a": 1}}')
    ...     load_config_for_test("fixtures", relative_to=pathlib.Path(d, "test_x.py")).locals
    {'a': 1}
    """
    path = _fs_path("load_config_for_test", target)
    if not path.is_absolute() and relative_to is not None:
        base = _fs_path("load_config_for_test", relative_to)
        if not base.is_dir():
            base = base.parent
        path = base / path
    if not path.exists():
        raise FileNotFoundError(f"tf_config: no configuration file or directory at {path}")
    return load_config(path, flavor=tool_of(path) if flavor is None else flavor, strict=strict)


# -- override files -----------------------------------------------------------------------------


_MISSING_SUMMARY: Final = {
    "resource": ("resource", "Missing resource to override"),
    "data": ("data source", "Missing data resource to override"),
    "action": ("action", "Missing resource to override"),
    "variable": ("variable", "Missing base variable declaration to override"),
    "output": ("output", "Missing base output definition to override"),
    "module": ("module call", "Missing module call to override"),
    "provider": ("provider configuration", "Missing base provider configuration for override"),
}
# Names an override of this block type does not merge (the base's are kept; see each one's module_merge.go):
# OpenTofu merges a variable's and an output's deprecated (when not empty), Terraform does not.
_NOT_MERGED: Final[dict[Flavor, dict[str, frozenset[str]]]] = {
    "terraform": {
        "variable": frozenset({"validation", "deprecated"}),
        "output": frozenset({"precondition", "deprecated"}),
        "data": frozenset({"lifecycle"}),
        "module": frozenset({"ignore_nested_deprecations"}),
    },
    "opentofu": {
        "variable": frozenset({"validation"}),
        "output": frozenset({"precondition"}),
        "data": frozenset({"lifecycle"}),
        # OpenTofu 1.11 merges no module call's lifecycle (enabled), and 1.9 no provider's for_each.
        "module": frozenset({"lifecycle"}),
        "provider": frozenset({"for_each"}),
    },
}
# The lifecycle arguments an override merges: OpenTofu's destroy too (Terraform 1.16's is kept from the base).
_LIFECYCLE_MERGED: Final[dict[Flavor, frozenset[str]]] = {
    "terraform": frozenset({"create_before_destroy", "prevent_destroy", "ignore_changes"}),
    "opentofu": frozenset({"create_before_destroy", "prevent_destroy", "ignore_changes", "destroy"}),
}
_NOT_USED: Final = frozenset({"check", "removed", "ephemeral"})


def _key(block: Block) -> tuple[str, ...]:
    if block.block_type == "provider":
        alias = block.get("alias")
        return ("provider", block.labels[0], alias if isinstance(alias, str) else "")
    return (block.block_type, *block.labels)


def _described(block: Block) -> str:
    if block.block_type == "provider":
        alias = block.get("alias")
        return f'provider "{block.labels[0]}"' + (f' with alias "{alias}"' if isinstance(alias, str) else "")
    return " ".join([block.block_type, *(f'"{label}"' for label in block.labels)])


def _rebuild(block: Block, members: Sequence[Member], nested: Iterable[Block]) -> Block:
    """``block`` with other members and nested blocks (its place and file kept: Terraform keeps the base's)."""
    return Block(
        block.block_type,
        block.labels,
        node=Node(OBJECT, list(members), block._node.start),
        members=tuple(members),
        nested=tuple(nested),
        source=block._source,
        spec=block._spec,
        start=block._start,
        steps=block._steps,
        decl=block._decl,
    )


def _entries(node: Node) -> list[Member]:
    """The properties of an object, or of every object of an array of objects (label levels, attribute maps)."""
    if node.kind == OBJECT:
        return [m for m in node.value if m[0] != "//"]
    if node.kind == ARRAY:
        return [m for element in node.value if element.kind == OBJECT for m in element.value if m[0] != "//"]
    return []


def _nested_type(block: Block) -> str:
    return block.labels[0] if block.block_type == "dynamic" else block.block_type


def _merge_body(base: Block, override_members: Sequence[Member], override_nested: Iterable[Block]) -> Block:
    """Arguments replaced by name; nested block types (``dynamic "x"`` is type ``x``) replaced as a whole."""
    dynamic_over = [m for name, _, node in override_members if name == "dynamic" for m in _entries(node)]
    replaced = {name for name, _, _ in override_members if name != "dynamic"} | {m[0] for m in dynamic_over}
    members: list[Member] = []
    placed: set[str] = set()
    dynamic_kept: list[Member] = []
    for member in base._members:
        name = member[0]
        if name == "dynamic":
            dynamic_kept.extend(m for m in _entries(member[2]) if m[0] not in replaced)
        elif name in replaced:
            if name not in placed:
                placed.add(name)
                members.extend(m for m in override_members if m[0] == name)
        else:
            members.append(member)
    members.extend(m for m in override_members if m[0] != "dynamic" and m[0] not in placed)
    dynamic = dynamic_kept + dynamic_over
    if dynamic:
        members.append(("dynamic", -1, Node(OBJECT, dynamic, -1)))
    nested = [b for b in base._nested if _nested_type(b) not in replaced]
    nested.extend(override_nested)
    return _rebuild(base, members, nested)


def _depends_on_error(override: Block) -> ConfigFormatError | None:
    for name, key_start, node in override._members:
        if name == "depends_on" and node.kind == ARRAY and node.value:
            first = node.value[0]
            return override._source.error(
                first.start if key_start >= 0 else -1,
                (*override._steps, MapStep("depends_on"), SliceStep(0)),
                "no depends_on in an override block (Terraform: Unsupported override: "
                "the depends_on argument may not be overridden)",
                f"depends_on in an override of {_described(override)}",
            )
    return None


def _merge_lifecycle(base: Block, override: Block, flavor: Flavor) -> tuple[list[Member], list[Block]]:
    """The override's members and nested blocks to apply to a resource, its lifecycle merged argument by argument."""
    members = [m for m in override._members if m[0] != "lifecycle"]
    nested = [b for b in override._nested if b.block_type != "lifecycle"]
    over_lifecycle = next((b for b in override._nested if b.block_type == "lifecycle"), None)
    if over_lifecycle is None:
        return members, nested
    # The override's action_trigger blocks replace all the base's, when it writes one (Terraform 1.14+ tests
    # len(ActionTriggers) != 0): an empty array leaves the base's.
    triggers = [b for b in over_lifecycle._nested if b.block_type == "action_trigger"]
    applied = [
        m
        for m in over_lifecycle._members
        if (m[0] in _LIFECYCLE_MERGED[flavor] or (m[0] == "action_trigger" and triggers))
        # An empty ignore_changes list leaves the base's (Terraform tests len(IgnoreChanges) != 0).
        and not (m[0] == "ignore_changes" and m[2].kind == ARRAY and not m[2].value)
    ]
    base_lifecycle = next((b for b in base._nested if b.block_type == "lifecycle"), None)
    if base_lifecycle is None:
        merged = _rebuild(over_lifecycle, applied, triggers)
    else:
        merged = _merge_body(base_lifecycle, applied, triggers)
    members.append(("lifecycle", -1, merged._node))
    nested.append(merged)
    return members, nested


def _merge_block(base: Block, override: Block, flavor: Flavor) -> Block:
    kind = override.block_type
    if kind in ("resource", "output", "module"):
        error = _depends_on_error(override)
        if error is not None:
            raise error
    skip = _NOT_MERGED[flavor].get(kind, frozenset())
    if kind == "resource":
        members, nested = _merge_lifecycle(base, override, flavor)
    else:
        members = [m for m in override._members if m[0] not in skip]
        nested = [b for b in override._nested if b.block_type not in skip]
    # An empty array of a nested block type ("provisioner": []) leaves the base's blocks (Terraform tests len != 0).
    members = [m for m in members if not (m[0] in base._spec.nested and m[2].kind == ARRAY and not m[2].value)]
    # An empty description does not replace an output's (Terraform tests Description != ""), nor an empty
    # deprecated a variable's or an output's (OpenTofu tests Deprecated != "").
    empty_kept = {"output": ("description", "deprecated"), "variable": ("deprecated",)}.get(kind, ())
    members = [m for m in members if not (m[0] in empty_kept and m[2].kind == STRING and not m[2].value)]
    if kind == "module":
        # An empty providers map does not replace the base's.
        members = [m for m in members if not (m[0] == "providers" and m[2].kind == OBJECT and not m[2].value)]
    return _merge_body(base, members, nested)


def _missing(override: Block, described_kind: str, summary: str) -> ConfigFormatError:
    return override._source.error(
        override._decl,
        override._steps,
        f"a {described_kind} of that name in a primary (non-override) file to merge into (Terraform: {summary})",
        f"an override of {_described(override)}, which no primary file defines",
    )


class _Merger:
    """The blocks of a module while override files are merged into it, in order."""

    __slots__ = ("blocks", "flavor", "index")

    def __init__(self, primary: Iterable[Block], flavor: Flavor) -> None:
        self.flavor = flavor
        self.blocks: list[Block] = list(primary)
        self.index: dict[tuple[str, ...], int] = {}
        for i, block in enumerate(self.blocks):
            self.index.setdefault(_key(block), i)

    def merge(self, override: Block) -> None:
        kind = override.block_type
        if kind in _NOT_USED:
            return
        if kind in ("moved", "import", "language"):
            # OpenTofu's language block (1.12) says what the whole module is written in: never overridden.
            why = "OpenTofu: Language selections in override file" if kind == "language" else (
                f"Terraform: Cannot override '{kind}' blocks")
            raise override._source.error(
                override._decl, override._steps, f"{kind} blocks only in primary files ({why})",
                f"a {kind} block in an override file",
            )
        if kind == "locals":
            self._merge_locals(override)
            return
        if kind == "terraform":
            self._merge_terraform(override)
            return
        key = _key(override)
        position = self.index.get(key)
        if position is None:
            if kind == "provider" and key[2] == "":
                # A default provider configuration missing from the base is simply added.
                self.index[key] = len(self.blocks)
                self.blocks.append(override)
                return
            raise _missing(override, *_MISSING_SUMMARY[kind])
        self.blocks[position] = _merge_block(self.blocks[position], override, self.flavor)

    def _merge_locals(self, override: Block) -> None:
        for name, key_start, node in override._members:
            for i, block in enumerate(self.blocks):
                if block.block_type == "locals" and any(m[0] == name for m in block._members):
                    members = [(n, s, node if n == name else v) for n, s, v in block._members]
                    self.blocks[i] = _rebuild(block, members, block._nested)
                    break
            else:
                raise override._source.error(
                    key_start,
                    (*override._steps, MapStep(name)),
                    "a local value of that name in a primary (non-override) file to merge into "
                    "(Terraform: Missing base local value definition to override)",
                    f'an override of local "{name}", which no primary file defines',
                )

    def _merge_terraform(self, override: Block) -> None:
        over = {name: node for name, _, node in override._members}
        drop: set[str] = set()
        if "required_version" in over:
            drop.add("required_version")
        if "backend" in over or "cloud" in over:
            drop.update(("backend", "cloud"))
        providers = [m for b in override._nested if b.block_type == "required_providers" for m in b._members]
        provider_names = {m[0] for m in providers}
        target: int | None = None
        for i, block in enumerate(self.blocks):
            if block.block_type != "terraform":
                continue
            if target is None:
                target = i
            self.blocks[i] = _without(block, drop, provider_names)
        added = [m for m in override._members if m[0] in drop]
        added_nested = [b for b in override._nested if b.block_type in drop]
        if target is None:
            if not (added or providers):
                return
            self.blocks.append(_rebuild(override, [], ()))
            target = len(self.blocks) - 1
        self.blocks[target] = _merge_body(self.blocks[target], added, added_nested)
        if providers:
            # Into the first required_providers block there is (else the first terraform block).
            holder = next(
                (
                    i
                    for i, b in enumerate(self.blocks)
                    if b.block_type == "terraform" and any(n.block_type == "required_providers" for n in b._nested)
                ),
                target,
            )
            self.blocks[holder] = _add_required_providers(self.blocks[holder], providers)


def _without(block: Block, drop: set[str], provider_names: set[str]) -> Block:
    """A terraform block without the arguments and blocks an override replaces, nor its overridden providers."""
    members: list[Member] = []
    nested: list[Block] = []
    for member in block._members:
        if member[0] in drop:
            continue
        if member[0] == "required_providers" and provider_names:
            kept = [m for m in _entries(member[2]) if m[0] not in provider_names]
            member = (member[0], member[1], Node(OBJECT, kept, member[2].start))
        members.append(member)
    for child in block._nested:
        if child.block_type in drop:
            continue
        if child.block_type == "required_providers" and provider_names:
            kept = [m for m in child._members if m[0] not in provider_names]
            if not kept:
                continue
            child = _rebuild(child, kept, ())
        nested.append(child)
    return _rebuild(block, members, nested)


def _add_required_providers(block: Block, providers: list[Member]) -> Block:
    """``block`` (a terraform block) with ``providers`` added to its (first) required_providers."""
    members = list(block._members)
    nested = list(block._nested)
    where = next((i for i, m in enumerate(members) if m[0] == "required_providers"), None)
    if where is None:
        members.append(("required_providers", -1, Node(OBJECT, list(providers), -1)))
    else:
        name, start, node = members[where]
        members[where] = (name, start, Node(OBJECT, _entries(node) + providers, node.start))
    index = next((i for i, b in enumerate(nested) if b.block_type == "required_providers"), None)
    if index is None:
        spec = TOP_LEVEL["terraform"].nested["required_providers"]
        nested.append(
            Block(
                "required_providers",
                (),
                node=Node(OBJECT, list(providers), -1),
                members=tuple(providers),
                nested=(),
                source=block._source,
                spec=spec,
                start=block._start,
                steps=(*block._steps, MapStep("required_providers")),
                decl=block._decl,
            )
        )
    else:
        old = nested[index]
        nested[index] = _rebuild(old, [*old._members, *providers], ())
    return _rebuild(block, members, nested)


def merge_overrides(
    primary: Iterable[Block], overrides: Iterable[Block], *, flavor: Flavor = "terraform"
) -> list[Block]:
    """The primary files' blocks with the override files' blocks (in file order) merged into them.

    ``flavor`` is whose merge: ``"opentofu"`` also merges a variable's and an output's ``deprecated`` and a
    resource's lifecycle ``destroy``, which Terraform keeps from the base.

    >>> from plancheck.tfconfig import parse_config
    >>> base = parse_config('{"output": {"o": {"value": 1, "description": "d", "deprecated": "old"}}}').blocks
    >>> over = parse_config('{"output": {"o": {"value": 2, "deprecated": "new"}}}', override=True).blocks
    >>> [b.body for b in merge_overrides(base, over)]
    [{'value': 2, 'description': 'd', 'deprecated': 'old'}]
    >>> [b.body for b in merge_overrides(base, over, flavor="opentofu")]
    [{'value': 2, 'description': 'd', 'deprecated': 'new'}]
    """
    schema = _schema(flavor, "merge_overrides")
    # Blocks another flavor's schema read are read again by this one's: OpenTofu refuses Terraform's action_trigger.
    merger = _Merger((read_again(block, schema, override=False) for block in primary), flavor)
    for block in overrides:
        merger.merge(read_again(block, schema, override=True))
    return merger.blocks


# -- writing ------------------------------------------------------------------------------------


#: The file name endings Terraform (``.tf.json``) and OpenTofu (both) read as JSON configuration.
CONFIG_SUFFIXES: Final = (".tf.json", ".tofu.json")


def _number_text(value: int | float | Decimal) -> str:
    if isinstance(value, int):
        return number_text(value)
    if isinstance(value, float):
        text = repr(value)
        return text
    # str() of a finite Decimal is always a valid JSON number (1E+3, 0.0001, -0).
    return str(value)


def _dumps_node(root: Node, indent: int = 2) -> str:
    out: list[str] = []
    encode = json.JSONEncoder(ensure_ascii=False).encode
    # Stack items: a Node to write at a depth, or a literal string.
    stack: list[tuple[Node, int] | str] = [(root, 0)]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        node, depth = item
        kind = node.kind
        if kind == STRING:
            out.append(encode(node.value))
        elif kind == NUMBER:
            out.append(_number_text(node.value))
        elif kind == BOOL:
            out.append("true" if node.value else "false")
        elif kind == NULL:
            out.append("null")
        elif not node.value:
            out.append("{}" if kind == OBJECT else "[]")
        else:
            pad = "\n" + " " * (indent * (depth + 1))
            close = "\n" + " " * (indent * depth) + ("}" if kind == OBJECT else "]")
            out.append("{" if kind == OBJECT else "[")
            stack.append(close)
            children = node.value
            for i in range(len(children) - 1, -1, -1):
                if kind == OBJECT:
                    name, _, child = children[i]
                    stack.append((child, depth + 1))
                    stack.append(pad + encode(name) + ": ")
                else:
                    stack.append((children[i], depth + 1))
                    stack.append(pad)
                if i:
                    stack.append(",")
    return "".join(out) + "\n"


@public("plancheck.tfconfig")
def dumps_config(config: Mapping[str, Any]) -> str:
    """Check ``config`` against Terraform's JSON configuration rules and return it as JSON text.

    The checks are those of the reader (block types, label levels, bodies, Terraform's
    own arguments, templates, duplicate names) in strict mode: an unknown top-level
    property is an error. Decimal numbers are written exactly. Property order is kept.

    >>> print(dumps_config({"resource": {"terraform_data": {"web": {"input": Decimal("0.10")}}}}), end="")
    {
      "resource": {
        "terraform_data": {
          "web": {
            "input": 0.10
          }
        }
      }
    }
    >>> dumps_config({"resource": {"null_resource": "x"}})
    Traceback (most recent call last):
    ...
    plancheck.tfconfig.ConfigFormatError: $.resource["null_resource"]: expected an object of resource names (resource "null_resource" needs 1 more label: name), found a string
    """
    if not isinstance(config, Mapping):
        raise ConfigFormatError(
            "$", "a mapping of top-level blocks", found=f"a value of type {type(config).__name__}"
        )
    root = python_to_node(config)
    config_from_node(root, Source(None, "", config), strict=True)
    return _dumps_node(root)


@public("plancheck.tfconfig")
def write_config(
    config: Mapping[str, Any], directory: str | os.PathLike[str], *, filename: str = "main.tf.json"
) -> FsPath:
    """Check ``config`` (as :func:`dumps_config` does) and write it to ``directory/filename``; return the path.

    ``filename`` must end with ``.tf.json`` or ``.tofu.json`` (else Terraform would not read
    it). The directory is created if needed; the file is replaced atomically
    (:func:`plancheck._loading.source.write_whole`): an :class:`OSError` if it cannot be written.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = write_config({"locals": {"greeting": "Hello, ${var.name}"}}, d)
    ...     path.name, path.read_text().count("greeting")
    ('main.tf.json', 1)
    """
    if (
        not isinstance(filename, str)
        or not filename.endswith(CONFIG_SUFFIXES)
        or os.sep in filename
        or (os.altsep and os.altsep in filename)
    ):
        raise ArgumentError(
            f"filename must be a plain file name ending with .tf.json or .tofu.json, got {filename!r}"
        )
    target_dir = _fs_path("write_config", directory)
    text = dumps_config(config)
    target = target_dir / filename
    write_whole(target, text)
    return target
