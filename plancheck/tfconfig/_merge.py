"""Override files merged into a module's blocks, by Terraform's rules (``internal/configs/module_merge.go``).

Terraform reads the primary files of a module, then each override file (``override.tf.json``,
``*_override.tf.json``) in lexical order, and merges every block of it into the block of the
primary files with the same type and labels:

* arguments replace the base's arguments of the same name, one by one; a nested block type
  written in the override replaces every base block of that type (``dynamic "x"`` counts as
  type ``x``);
* a resource's ``lifecycle`` is merged argument by argument (``create_before_destroy``,
  ``prevent_destroy``, ``ignore_changes``); the base's conditions stay, the override's are
  not used; a variable's ``validation`` and an output's ``precondition`` stay the base's;
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

from collections.abc import Iterable, Sequence
from typing import Final

from tfjsonpath import MapStep, SliceStep

from ._errors import ConfigFormatError
from ._json_reader import ARRAY, OBJECT, STRING, Node
from ._model import Block

__all__ = ["merge_overrides"]

Member = tuple[str, int, Node]

_MISSING_SUMMARY: Final = {
    "resource": ("resource", "Missing resource to override"),
    "data": ("data source", "Missing data resource to override"),
    "action": ("action", "Missing resource to override"),
    "variable": ("variable", "Missing base variable declaration to override"),
    "output": ("output", "Missing base output definition to override"),
    "module": ("module call", "Missing module call to override"),
    "provider": ("provider configuration", "Missing base provider configuration for override"),
}
# Names an override of this block type does not merge (Terraform keeps the base's; see module_merge.go).
_NOT_MERGED: Final = {
    "variable": frozenset({"validation"}),
    "output": frozenset({"precondition"}),
    "data": frozenset({"lifecycle"}),
}
_LIFECYCLE_MERGED: Final = frozenset({"create_before_destroy", "prevent_destroy", "ignore_changes"})
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


def _merge_lifecycle(base: Block, override: Block) -> tuple[list[Member], list[Block]]:
    """The override's members and nested blocks to apply to a resource, its lifecycle merged argument by argument."""
    members = [m for m in override._members if m[0] != "lifecycle"]
    nested = [b for b in override._nested if b.block_type != "lifecycle"]
    over_lifecycle = next((b for b in override._nested if b.block_type == "lifecycle"), None)
    if over_lifecycle is None:
        return members, nested
    applied = [
        m
        for m in over_lifecycle._members
        if m[0] in _LIFECYCLE_MERGED
        # An empty ignore_changes list leaves the base's (Terraform tests len(IgnoreChanges) != 0).
        and not (m[0] == "ignore_changes" and m[2].kind == ARRAY and not m[2].value)
    ]
    base_lifecycle = next((b for b in base._nested if b.block_type == "lifecycle"), None)
    if base_lifecycle is None:
        merged = _rebuild(over_lifecycle, applied, ())
    else:
        merged = _merge_body(base_lifecycle, applied, ())
    members.append(("lifecycle", -1, merged._node))
    nested.append(merged)
    return members, nested


def _merge_block(base: Block, override: Block) -> Block:
    kind = override.block_type
    if kind in ("resource", "output", "module"):
        error = _depends_on_error(override)
        if error is not None:
            raise error
    skip = _NOT_MERGED.get(kind, frozenset())
    if kind == "resource":
        members, nested = _merge_lifecycle(base, override)
    else:
        members = [m for m in override._members if m[0] not in skip]
        nested = [b for b in override._nested if b.block_type not in skip]
    # An empty array of a nested block type ("provisioner": []) leaves the base's blocks (Terraform tests len != 0).
    members = [m for m in members if not (m[0] in base._spec.nested and m[2].kind == ARRAY and not m[2].value)]
    if kind == "output":
        # An empty description does not replace the base's (Terraform tests Description != "").
        members = [m for m in members if not (m[0] == "description" and m[2].kind == STRING and not m[2].value)]
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

    __slots__ = ("blocks", "index")

    def __init__(self, primary: Iterable[Block]) -> None:
        self.blocks: list[Block] = list(primary)
        self.index: dict[tuple[str, ...], int] = {}
        for i, block in enumerate(self.blocks):
            self.index.setdefault(_key(block), i)

    def merge(self, override: Block) -> None:
        kind = override.block_type
        if kind in _NOT_USED:
            return
        if kind in ("moved", "import"):
            raise override._source.error(
                override._decl,
                override._steps,
                f"{kind} blocks only in primary files (Terraform: Cannot override '{kind}' blocks)",
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
        self.blocks[position] = _merge_block(self.blocks[position], override)

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
        from ._blocks import TOP_LEVEL

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


def merge_overrides(primary: Iterable[Block], overrides: Iterable[Block]) -> list[Block]:
    """The primary files' blocks with the override files' blocks (in file order) merged into them.

    >>> from plancheck.tfconfig import parse_config
    >>> base = parse_config('{"output": {"o": {"value": 1, "description": "d"}}}').blocks
    >>> over = parse_config('{"output": {"o": {"value": 2}}}', override=True).blocks
    >>> [b.body for b in merge_overrides(base, over)]
    [{'value': 2, 'description': 'd'}]
    """
    merger = _Merger(primary)
    for block in overrides:
        merger.merge(block)
    return merger.blocks
