"""How far ``MockProvider`` agrees with ``terraform test``'s ``mock_provider``: the differential suite.

For each schema source (:data:`SOURCES`) and each scenario (:data:`SCENARIOS`) the suite builds one
module: every resource type and data source of the schema (or of its slice) twice, ``min`` (only what
is required) and ``full`` (every argument set, one item in every block, recursively). The real
Terraform runs it under ``terraform test`` with ``mock_provider`` (``tools/record_mock_reference.py``
records what it planned, read and applied in ``tests/mock/differential/recorded/<source>.json``);
our mock runs the same configurations by the protocol (:func:`replay`), as Terraform would call it.

Both answers become **facts**, one per position of every value (an attribute, a block, an item of
a collection, recursively), compared position by position:

* ``unknown`` (at plan), ``null``, ``bool true``, ``number 0``, a configured or default string
  exactly (``string "cfg-7"``), a generated string by its shape only
  (``generated string len=8 [a-z0-9]``: Terraform's are random), ``list 2``/``map 1``/``object 3``
  for a collection and its size (sets are compared as multisets: their items are sorted by their
  own facts first);
* ``sensitive`` marks, when both sides come from Terraform's JSON (the live test of our mock);
* per data source: whether a second read gives the same values (``stable``).

The figure is ``N of M facts agree``; :data:`DELIBERATE` lists the differences we keep on purpose,
each with its reason, and ``tests/mock/test_mock_differential.py`` fails on any other.

    .venv/bin/python tools/mock_reference.py [--quiet]     # the agreement figure from the recordings
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, Final

ROOT: Final = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: the checkout's plancheck, not an installed one
    sys.path.insert(0, str(ROOT))

from plancheck._terraform.mock.schema import (  # noqa: E402
    Attribute,
    Block,
    NestedType,
    ProviderSchema,
    read_provider_schema,
)

SUITE: Final = ROOT / "tests" / "mock" / "differential"
RECORDED: Final = SUITE / "recorded"
CORPUS: Final = ROOT.parent / "shared" / "corpus"
RECORDING_FORMAT: Final = 1
#: Strings the suite writes itself (configuration values, defaults) start so; any other string was generated.
OWN_PREFIXES: Final = ("cfg-", "dflt-")


@dataclass(frozen=True)
class Source:
    """Where a provider schema comes from: a file in the repository, or one beside it (the shared corpus)."""

    name: str
    path: Path
    address: str
    local: str
    corpus: bool = False
    #: Only these resource types and data sources (None: all of them).
    types: tuple[str, ...] | None = None

    def available(self) -> bool:
        return self.path.is_file()

    def document(self) -> dict[str, Any]:
        """The provider's entry of the schema document (a file may hold other keys and providers)."""
        raw = json.loads(self.path.read_text(encoding="utf-8"), parse_float=Decimal)
        entry = raw.get("provider_schemas", {}).get(self.address, raw)
        if self.types is None:
            return dict(entry)
        keep = set(self.types)
        return {
            **entry,
            "resource_schemas": {k: v for k, v in entry.get("resource_schemas", {}).items() if k in keep},
            "data_source_schemas": {k: v for k, v in entry.get("data_source_schemas", {}).items() if k in keep},
        }

    def schema(self) -> ProviderSchema:
        return read_provider_schema(self.document(), self.address)


SOURCES: Final = (
    Source("cloud", ROOT / "examples" / "mock_module" / "cloud.schema.json", "registry.terraform.io/acme/cloud", "cloud"),
    Source("null", ROOT / "tests" / "mock" / "null_2.1.2.schema.json", "registry.terraform.io/hashicorp/null", "null"),
    Source("synthetic", SUITE / "schemas" / "synthetic.schema.json", "registry.terraform.io/acme/synth", "synth"),
    Source("tuple", SUITE / "schemas" / "tuple.schema.json", "registry.terraform.io/acme/tuple", "tuple"),
    # A real provider's schema: 930 attributes per type, nested attributes of every mode three deep.
    Source(
        "tfcoremock", CORPUS / "other" / "terraform-cloud-plan-json-full-redacted.json",
        "registry.terraform.io/hashicorp/tfcoremock", "tfcoremock", corpus=True,
    ),
)


@dataclass(frozen=True)
class Scenario:
    """How the module is mocked: ``terraform test``'s ``override_during`` and whether types get defaults."""

    name: str
    override_during: str = "apply"
    defaults: bool = False


SCENARIOS: Final = (
    Scenario("generated"),
    Scenario("defaults_at_apply", "apply", defaults=True),
    Scenario("defaults_at_plan", "plan", defaults=True),
)

# -- configurations ---------------------------------------------------------------------------------


class _Counter:
    """Numbers the values of one configuration, so that no two are equal (set items stay distinct)."""

    def __init__(self) -> None:
        self.n = 0

    def next(self) -> int:
        self.n += 1
        return self.n


def value_of(cty: Any, counter: _Counter) -> Any:
    """A configuration value of type ``cty`` (plain JSON): strings ``cfg-N``, numbers ``N``, one item per collection.

    >>> value_of(["object", {"a": "string", "b": ["set", "number"], "c": ["map", "bool"]}], _Counter())
    {'a': 'cfg-1', 'b': [2, 3], 'c': {'k1': True}}
    """
    if cty == "string" or cty == "dynamic":
        return f"cfg-{counter.next()}"
    if cty == "number":
        return counter.next()
    if cty == "bool":
        return True
    kind, inner = cty[0], cty[1]
    if kind == "list":
        return [value_of(inner, counter)]
    if kind == "set":
        return [value_of(inner, counter)] if inner == "bool" else [value_of(inner, counter), value_of(inner, counter)]
    if kind == "map":
        return {"k1": value_of(inner, counter)}
    if kind == "object":
        return {name: value_of(sub, counter) for name, sub in sorted(inner.items())}
    return [value_of(sub, counter) for sub in inner]  # tuple


def _wanted(attribute: Attribute, full: bool) -> bool:
    return attribute.required or (full and attribute.optional)


def given_config(block: Block | Any, full: bool, counter: _Counter) -> dict[str, Any]:
    """What the module sets for one object: required arguments, and with ``full`` every optional one and one of
    every block (``min_items`` of them when more are required)."""
    out: dict[str, Any] = {}
    for name, attribute in sorted(block.attributes.items()):
        if not _wanted(attribute, full):
            continue
        nested = attribute.nested
        if nested is None:
            out[name] = value_of(attribute.type, counter)
            continue
        items = max(1, nested.min_items)
        if nested.mode == "single":
            out[name] = given_config(nested, full, counter)
        elif nested.mode == "map":
            out[name] = {f"k{i + 1}": given_config(nested, full, counter) for i in range(items)}
        else:
            out[name] = [given_config(nested, full, counter) for _ in range(items)]
    for name, block_type in sorted(getattr(block, "blocks", {}).items()):
        if not full and block_type.min_items == 0:
            continue
        items = max(1, block_type.min_items)
        if block_type.mode in ("single", "group"):
            out[name] = given_config(block_type.block, full, counter)
        elif block_type.mode == "map":
            out[name] = {f"k{i + 1}": given_config(block_type.block, full, counter) for i in range(items)}
        else:
            out[name] = [given_config(block_type.block, full, counter) for _ in range(items)]
    return out


def default_of(cty: Any, name: str) -> Any:
    """A ``mock_resources``/``defaults`` value for a computed attribute: strings ``dflt-NAME``, numbers 42;
    objects partly (the attributes they leave out are Terraform's to fill)."""
    if cty == "string":
        return f"dflt-{name}"
    if cty == "number":
        return 42
    if cty == "bool":
        return True
    if cty == "dynamic" or not isinstance(cty, list):
        return None
    kind, inner = cty[0], cty[1]
    if kind in ("list", "set"):
        item = default_of(inner, name)
        return [] if item is None else [item]
    if kind == "map":
        item = default_of(inner, name)
        return {} if item is None else {"k": item}
    if kind == "object":
        names = sorted(inner)[: max(1, len(inner) // 2)]
        return {n: default_of(inner[n], n) for n in names if default_of(inner[n], n) is not None}
    return None  # tuples: no default (an HCL tuple literal converts to it, but not every writer can say so)


def defaults_for(block: Block | NestedType) -> dict[str, Any]:
    """Defaults for every other computed attribute (in name order): the rest is left to generate.

    Inside every nested block and every nested attribute that is not computed too, as ``terraform test`` takes
    them: one object under its name, applied to each of its objects.
    """
    computed = [n for n, a in sorted(block.attributes.items()) if a.computed]
    out: dict[str, Any] = {}
    for name, block_type in sorted(block.blocks.items()):
        inner = defaults_for(block_type.block)
        if inner:
            out[name] = inner
    for name, attribute in sorted(block.attributes.items()):
        if attribute.nested is not None and not attribute.computed:
            inner = defaults_for(attribute.nested)
            if inner:
                out[name] = inner
    for name in computed[::2]:
        attribute = block.attributes[name]
        if attribute.nested is not None or _objects_inside(attribute.type):
            # terraform test applies such a default to every object of the collection, path by path; a
            # MockProvider default of a computed attribute is its whole value: the two say different things.
            # (Inside a nested block or a nested attribute that is not computed both take one object: above.)
            continue
        value = default_of(attribute.type, name)
        if value is not None and value != {} and value != []:
            out[name] = value
    return out


def _objects_inside(cty: Any) -> bool:
    """Whether a collection type holds objects (an object type itself is fine: it is one whole value)."""
    return isinstance(cty, list) and cty[0] in ("list", "set", "map") and isinstance(cty[1], list) and (
        cty[1][0] == "object" or _objects_inside(cty[1])
    )


@dataclass
class Instance:
    """One resource or data source instance of the module."""

    address: str
    mode: str  # "managed" or "data"
    type_name: str
    config: dict[str, Any]


@dataclass
class Module:
    """The module of one source: its instances and the defaults of each type (for the scenarios that use them)."""

    source: Source
    schema: ProviderSchema
    instances: list[Instance] = field(default_factory=list)
    resource_defaults: dict[str, dict[str, Any]] = field(default_factory=dict)
    data_defaults: dict[str, dict[str, Any]] = field(default_factory=dict)


def build_module(source: Source) -> Module:
    """Every type of the source, ``min`` and ``full``, with deterministic values."""
    schema = source.schema()
    module = Module(source, schema)
    for mode, types in (("managed", schema.resources), ("data", schema.data_sources)):
        for type_name, type_schema in sorted(types.items()):
            for variant in ("min", "full"):
                config = given_config(type_schema.block, variant == "full", _Counter())
                prefix = "data." if mode == "data" else ""
                module.instances.append(Instance(f"{prefix}{type_name}.{variant}", mode, type_name, config))
            defaults = defaults_for(type_schema.block)
            if defaults:
                (module.data_defaults if mode == "data" else module.resource_defaults)[type_name] = defaults
    return module


def module_json(module: Module) -> dict[str, Any]:
    """The module as ``main.tf.json``."""
    source = module.source
    out: dict[str, Any] = {
        "terraform": {"required_providers": {source.local: {"source": source.address}}},
    }
    for instance in module.instances:
        kind = "data" if instance.mode == "data" else "resource"
        _, name = instance.address.rsplit(".", 1)
        body = _json_body(instance.config, _block(module.schema, instance))
        out.setdefault(kind, {}).setdefault(instance.type_name, {})[name] = {**body, "provider": source.local}
        if instance.mode == "data":
            # terraform test's verbose plan shows resource changes only: this one shows what the plan read.
            out.setdefault("resource", {}).setdefault("terraform_data", {})[reader_name(instance)] = {
                "input": f"${{{instance.address}}}"
            }
    return out


def reader_name(instance: Instance) -> str:
    """The ``terraform_data`` resource whose planned ``input`` is what a data source read while planning."""
    return "read_" + instance.address.removeprefix("data.").replace(".", "_")


def _block(schema: ProviderSchema, instance: Instance) -> Block:
    types = schema.data_sources if instance.mode == "data" else schema.resources
    return types[instance.type_name].block


def _json_body(config: Mapping[str, Any], block: Block) -> dict[str, Any]:
    """A configuration object in Terraform's JSON syntax (map blocks keyed by label, the rest as is)."""
    out: dict[str, Any] = {}
    for name, value in config.items():
        block_type = block.blocks.get(name)
        if block_type is None:
            out[name] = value
        elif block_type.mode in ("single", "group"):
            out[name] = _json_body(value, block_type.block)
        elif block_type.mode == "map":
            out[name] = {label: _json_body(item, block_type.block) for label, item in value.items()}
        else:
            out[name] = [_json_body(item, block_type.block) for item in value]
    return out


def hcl(value: Any, indent: int = 0) -> str:
    """A plain JSON value as an HCL expression (for ``defaults = ...`` in a test file).

    >>> print(hcl({"a": ["x", 1, True], "b": {}}))
    {
      "a" = ["x", 1, true]
      "b" = {}
    }
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, Decimal)):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value).replace("${", "$${").replace("%{", "%%{")
    if isinstance(value, list):
        return "[" + ", ".join(hcl(item, indent) for item in value) + "]"
    if not value:
        return "{}"
    pad = "  " * (indent + 1)
    lines = [f"{pad}{json.dumps(k)} = {hcl(v, indent + 1)}" for k, v in value.items()]
    return "{\n" + "\n".join(lines) + "\n" + "  " * indent + "}"


def tftest_file(module: Module, scenario: Scenario) -> str:
    """The ``.tftest.hcl`` of one scenario: a plan run, then an apply run."""
    lines = [f'mock_provider "{module.source.local}" {{']
    if scenario.override_during == "plan":
        lines.append("  override_during = plan")
    if scenario.defaults:
        for kind, table in (("mock_resource", module.resource_defaults), ("mock_data", module.data_defaults)):
            for type_name, defaults in sorted(table.items()):
                lines.append(f'  {kind} "{type_name}" {{')
                lines.append(f"    defaults = {hcl(defaults, 2)}")
                lines.append("  }")
    lines.append("}")
    lines += ['run "plan" {', "  command = plan", "}", 'run "apply" {', "  command = apply", "}"]
    return "\n".join(lines) + "\n"


# -- Terraform's JSON to facts --------------------------------------------------------------------

_LOWER: Final = re.compile(r"[a-z0-9]*")
_MIXED: Final = re.compile(r"[A-Za-z0-9]*")


def string_fact(text: str) -> str:
    """A string's fact: exact when the suite wrote it, else the shape of a generated one.

    >>> string_fact("cfg-3"), string_fact("a8bz09qq"), string_fact("aB3dEf9h"), string_fact("a-b")
    ('string "cfg-3"', 'generated string len=8 [a-z0-9]', 'generated string len=8 [A-Za-z0-9]', 'generated string len=3 other')
    """
    if text.startswith(OWN_PREFIXES):
        return f"string {json.dumps(text)}"
    shape = "[a-z0-9]" if _LOWER.fullmatch(text) else "[A-Za-z0-9]" if _MIXED.fullmatch(text) else "other"
    return f"generated string len={len(text)} {shape}"


class _Walk:
    """Facts of one value along its schema: ``{path: fact}``."""

    def __init__(self, with_sensitive: bool) -> None:
        self.with_sensitive = with_sensitive

    def block(self, block: Any, value: Any, unknown: Any, sensitive: Any, path: str) -> dict[str, str]:
        out: dict[str, str] = {}
        for name, attribute in sorted(block.attributes.items()):
            at = f"{path}.{name}" if path else name
            out.update(self.attribute(attribute, _get(value, name), _get(unknown, name), _get(sensitive, name), at))
        for name, block_type in sorted(getattr(block, "blocks", {}).items()):
            at = f"{path}.{name}" if path else name
            out.update(self.collection(
                block_type.mode, lambda v, u, s, p, b=block_type.block: self.object(b, v, u, s, p),
                _get(value, name), _get(unknown, name), _get(sensitive, name), at,
            ))
        return out

    def object(self, holder: Any, value: Any, unknown: Any, sensitive: Any, path: str) -> dict[str, str]:
        head = self.head(value, unknown, sensitive, path, "object")
        if len(head) == 1 and not isinstance(value, dict):
            return head
        return {**head, **self.block(holder, value, unknown, sensitive, path)}

    def attribute(self, attribute: Attribute, value: Any, unknown: Any, sensitive: Any, path: str) -> dict[str, str]:
        nested = attribute.nested
        if nested is None:
            return self.typed(attribute.type, value, unknown, sensitive, path)
        return self.collection(
            nested.mode, lambda v, u, s, p: self.object(nested, v, u, s, p), value, unknown, sensitive, path
        )

    def head(self, value: Any, unknown: Any, sensitive: Any, path: str, kind: str) -> dict[str, str]:
        mark = " sensitive" if self.with_sensitive and sensitive is True else ""
        if unknown is True:
            return {path: "unknown" + mark}
        if value is None:
            return {path: "null" + mark}
        size = f" {len(value)}" if isinstance(value, (list, dict)) and kind != "object" else ""
        return {path: f"{kind}{size}{mark}"}

    def collection(self, mode: str, item: Any, value: Any, unknown: Any, sensitive: Any, path: str) -> dict[str, str]:
        if mode in ("single", "group"):
            return dict(item(value, unknown, sensitive, path))
        kind = {"list": "list", "set": "set", "map": "map"}[mode]
        head = self.head(value, unknown, sensitive, path, kind)
        if unknown is True or value is None:
            return head
        return {**head, **self.items(kind, item, value, unknown, sensitive, path)}

    def items(self, kind: str, item: Any, value: Any, unknown: Any, sensitive: Any, path: str) -> dict[str, str]:
        out: dict[str, str] = {}
        if kind == "map" and isinstance(value, dict):
            for key in sorted(value):
                out.update(item(value[key], _get(unknown, key), _get(sensitive, key), f"{path}[{json.dumps(key)}]"))
            return out
        if not isinstance(value, list):
            return {path: f"not a {kind}: {type(value).__name__}"}
        facts = [item(v, _index(unknown, i), _index(sensitive, i), "") for i, v in enumerate(value)]
        if kind == "set":  # a set has no order: its items go by their own facts
            facts.sort(key=lambda f: json.dumps(sorted(f.items())))
        for i, one in enumerate(facts):
            for sub, fact in one.items():
                out[f"{path}[{i}]{sub}"] = fact
        return out

    def typed(self, cty: Any, value: Any, unknown: Any, sensitive: Any, path: str) -> dict[str, str]:
        if cty == "dynamic":
            return self.dynamic(value, unknown, sensitive, path)
        if not isinstance(cty, list):
            head = self.head(value, unknown, sensitive, path, cty)
            if unknown is True or value is None:
                return head
            mark = " sensitive" if self.with_sensitive and sensitive is True else ""
            return {path: leaf_fact(value) + mark}
        kind, inner = cty[0], cty[1]
        if kind in ("list", "set", "map"):
            return self.collection(
                kind, lambda v, u, s, p: self.typed(inner, v, u, s, p), value, unknown, sensitive, path
            )
        head = self.head(value, unknown, sensitive, path, kind)
        if unknown is True or value is None:
            return head
        out = dict(head)
        if kind == "object" and isinstance(value, dict):
            for name, sub in sorted(inner.items()):
                out.update(self.typed(sub, value.get(name), _get(unknown, name), _get(sensitive, name), f"{path}.{name}"))
        elif kind == "tuple" and isinstance(value, list):
            for i, sub in enumerate(inner):
                item = value[i] if i < len(value) else None
                out.update(self.typed(sub, item, _index(unknown, i), _index(sensitive, i), f"{path}[{i}]"))
        return out

    def dynamic(self, value: Any, unknown: Any, sensitive: Any, path: str) -> dict[str, str]:
        if unknown is True or value is None or not isinstance(value, (list, dict)):
            head = self.head(value, unknown, sensitive, path, "dynamic")
            if unknown is True or value is None:
                return head
            mark = " sensitive" if self.with_sensitive and sensitive is True else ""
            return {path: leaf_fact(value) + mark}
        if isinstance(value, dict):
            out = self.head(value, unknown, sensitive, path, "map")
            for key in sorted(value):
                out.update(self.dynamic(value[key], _get(unknown, key), _get(sensitive, key), f"{path}[{json.dumps(key)}]"))
            return out
        out = self.head(value, unknown, sensitive, path, "list")
        for i, item in enumerate(value):
            out.update(self.dynamic(item, _index(unknown, i), _index(sensitive, i), f"{path}[{i}]"))
        return out


def leaf_fact(value: Any) -> str:
    """The fact of a known primitive value.

    >>> leaf_fact(True), leaf_fact(0), leaf_fact(Decimal("2.50")), leaf_fact("cfg-1")
    ('bool true', 'number 0', 'number 2.5', 'string "cfg-1"')
    """
    if isinstance(value, bool):
        return f"bool {'true' if value else 'false'}"
    if isinstance(value, (int, float, Decimal)):
        number = Decimal(str(value)).normalize()
        return f"number {number:f}" if number == number.to_integral_value() else f"number {number}"
    if isinstance(value, str):
        return string_fact(value)
    return f"{type(value).__name__} {value!r}"


def _get(tree: Any, key: str) -> Any:
    return tree.get(key) if isinstance(tree, dict) else None


def _index(tree: Any, index: int) -> Any:
    return tree[index] if isinstance(tree, list) and index < len(tree) else None


def facts_of(block: Block, value: Any, unknown: Any = None, sensitive: Any = None, *, with_sensitive: bool = False) -> dict[str, str]:
    """The facts of one object (a resource's planned or applied values, a data source's read)."""
    return _Walk(with_sensitive).object(block, value, unknown, sensitive, "")


# -- our side: the mock called by the protocol -------------------------------------------------------


def wire_config(block: Any, given: Mapping[str, Any] | None) -> Any:
    """The configuration object Terraform sends for ``given`` (cty's msgpack, decoded): every attribute present
    (null when unset), absent blocks empty (a ``group`` block an object of nulls), dynamic values typed."""
    if given is None:
        return None
    out: dict[str, Any] = {}
    for name, attribute in block.attributes.items():
        value = given.get(name)
        nested = attribute.nested
        if nested is None:
            out[name] = _wire_typed(attribute.type, value)
        elif value is None:
            out[name] = None
        elif nested.mode == "single":
            out[name] = wire_config(nested, value)
        elif nested.mode == "map":
            out[name] = {k: wire_config(nested, v) for k, v in value.items()}
        else:
            out[name] = [wire_config(nested, v) for v in value]
    for name, block_type in getattr(block, "blocks", {}).items():
        value = given.get(name)
        if block_type.mode == "group":
            out[name] = wire_config(block_type.block, value or {})
        elif block_type.mode == "single":
            out[name] = wire_config(block_type.block, value)
        elif block_type.mode == "map":
            out[name] = {k: wire_config(block_type.block, v) for k, v in (value or {}).items()}
        else:
            out[name] = [wire_config(block_type.block, v) for v in (value or [])]
    return out


def _wire_typed(cty: Any, value: Any) -> Any:
    if value is None:
        return None
    if cty == "dynamic":
        return [json.dumps(_implied(value)).encode(), value]
    if not isinstance(cty, list):
        return value
    kind, inner = cty[0], cty[1]
    if kind in ("list", "set"):
        return [_wire_typed(inner, v) for v in value]
    if kind == "map":
        return {k: _wire_typed(inner, v) for k, v in value.items()}
    if kind == "object":
        return {k: _wire_typed(sub, value.get(k)) for k, sub in inner.items()}
    return [_wire_typed(sub, v) for sub, v in zip(inner, value, strict=False)]


def _implied(value: Any) -> Any:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, Decimal)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return ["tuple", [_implied(v) for v in value]]
    return ["object", {k: _implied(v) for k, v in value.items()}]


def from_wire(value: Any) -> tuple[Any, Any]:
    """A decoded msgpack value as Terraform's JSON shows it: ``(value, unknown tree)``; dynamic values unwrapped."""
    if hasattr(value, "code") and hasattr(value, "data") and not isinstance(value, (str, bytes)):
        return None, True
    if isinstance(value, list) and len(value) == 2 and isinstance(value[0], bytes):
        return from_wire(value[1])
    if isinstance(value, dict):
        pairs = {k: from_wire(v) for k, v in value.items()}
        return {k: p[0] for k, p in pairs.items()}, {k: p[1] for k, p in pairs.items() if p[1]}
    if isinstance(value, list):
        pairs_list = [from_wire(v) for v in value]
        return [p[0] for p in pairs_list], [p[1] or False for p in pairs_list]
    if isinstance(value, str) and value and (value[0].isdigit() or value[0] == "-") and _number(value):
        return Decimal(value), False
    return value, False


def _number(text: str) -> bool:
    try:
        Decimal(text)
    except ArithmeticError:
        return False
    return True


@dataclass
class Answer:
    """One side's answer for one instance: the plan (value and unknowns), the applied or read values, and for a
    data source whether a second read gave the same values."""

    plan: tuple[Any, Any, Any]
    #: None when the apply failed.
    apply: tuple[Any, Any, Any] | None
    stable: bool | None = None


def replay(module: Module, scenario: Scenario, seed: int = 0) -> dict[str, Answer]:
    """Our mock's answers, by instance address, calling it by the protocol as Terraform does for a create."""
    import msgpack  # type: ignore[import-untyped]

    from plancheck._terraform.providers.server import load_grpc
    from plancheck.acceptance import MockProvider

    source = module.source
    options: dict[str, Any] = {"seed": seed, "override_during": scenario.override_during}
    if scenario.defaults:
        options["mock_resources"] = module.resource_defaults
        options["mock_data"] = module.data_defaults
    mock = MockProvider(module.source.document(), source.address, **options)
    modules = load_grpc()
    pb = modules.pb
    servicer = mock().plancheck_servicer(modules)

    def dv(value: Any) -> Any:
        return pb.DynamicValue(msgpack=msgpack.packb(_packable(value), use_bin_type=True))

    def decoded(dynamic: Any, diagnostics: Any) -> Any:
        if diagnostics:
            raise RuntimeError("; ".join(f"{d.summary}: {d.detail}" for d in diagnostics))
        return msgpack.unpackb(dynamic.msgpack, raw=False) if dynamic.msgpack else None

    out: dict[str, Answer] = {}
    for instance in module.instances:
        block = _block(module.schema, instance)
        config = wire_config(block, instance.config)
        if instance.mode == "data":
            request = pb.ReadDataSource.Request(type_name=instance.type_name, config=dv(config))
            first = servicer.ReadDataSource(request, None)
            second = servicer.ReadDataSource(request, None)
            one = from_wire(decoded(first.state, first.diagnostics))
            two = from_wire(decoded(second.state, second.diagnostics))
            out[instance.address] = Answer((*one, None), (*two, None), stable=one == two)
            continue
        planned_response = servicer.PlanResourceChange(pb.PlanResourceChange.Request(
            type_name=instance.type_name, prior_state=dv(None), proposed_new_state=dv(config), config=dv(config),
        ), None)
        planned = decoded(planned_response.planned_state, planned_response.diagnostics)
        applied_response = servicer.ApplyResourceChange(pb.ApplyResourceChange.Request(
            type_name=instance.type_name, prior_state=dv(None), planned_state=dv(planned), config=dv(config),
            planned_private=planned_response.planned_private,
        ), None)
        applied = decoded(applied_response.new_state, applied_response.diagnostics)
        out[instance.address] = Answer((*from_wire(planned), None), (*from_wire(applied), None))
    return out


def _packable(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, dict):
        return {k: _packable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_packable(v) for v in value]
    return value


# -- Terraform's side: the recording ---------------------------------------------------------------


def recording_path(source: Source) -> Path:
    return RECORDED / f"{source.name}.json"


def load_recording(source: Source) -> dict[str, Any]:
    return json.loads(recording_path(source).read_text(encoding="utf-8"), parse_float=Decimal)  # type: ignore[no-any-return]


def recorded_answers(recording: Mapping[str, Any], scenario: Scenario) -> dict[str, Answer]:
    """Terraform's answers of one scenario, by instance address, from a recording."""
    runs = recording["scenarios"][scenario.name]
    out: dict[str, Answer] = {}
    for address, entry in runs["instances"].items():
        plan = entry["plan"]
        apply = entry["apply"]
        answer = Answer(
            (plan["values"], plan.get("unknown"), plan.get("sensitive")),
            None if apply is None else (apply["values"], apply.get("unknown"), apply.get("sensitive")),
        )
        if entry["mode"] == "data" and apply is not None:
            answer.stable = plan["values"] == apply["values"]
        out[address] = answer
    return out


# -- comparison ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Deliberate:
    """A difference we keep on purpose: where (globs over source, scenario, phase, address, path), what each side
    says (globs over facts), and why."""

    source: str
    scenario: str
    phase: str
    address: str
    path: str
    terraform: str
    ours: str
    reason: str

    def covers(self, point: Point) -> bool:
        """Whether the point is this difference (each field a glob, or globs separated by ``|``)."""
        return all(
            any(_glob(one).fullmatch(have) for one in want.split("|")) for have, want in (
                (point.source, self.source), (point.scenario, self.scenario), (point.phase, self.phase),
                (point.address, self.address), (point.path, self.path), (point.terraform, self.terraform),
                (point.ours, self.ours),
            )
        )


#: The differences we keep, with why. ``tests/mock/test_mock_differential.py`` pins each one (it must still
#: occur) and fails on any difference none of them covers.
DELIBERATE: Final = (
    Deliberate(
        "tuple", "*", "run", "", "", "crashed: panic: unknown complex type: tuple", "ran",
        "terraform test 1.11 panics generating a computed tuple attribute (GenerateValueForType has no case for "
        "tuples); the mock generates it item by item, as it does an object.",
    ),
    Deliberate(
        "*", "defaults_at_plan", "plan", "*", "*",
        "generated string len=8 [a-z0-9]|number 0|bool false|list 0|set 0|map 0|object|null", "unknown|(absent)",
        "override_during = plan: terraform test 1.11 generates at plan every computed attribute no default covers "
        "(and what is inside it), then generates it anew in the plan it makes while applying, so its apply fails "
        "with 'Provider produced inconsistent final plan' (the apply facts below). The mock gives the defaults at "
        "plan and leaves the rest unknown until apply, where it generates it once, so the step applies.",
    ),
    Deliberate(
        "*", "defaults_at_plan", "apply", "*", "", "apply failed", "applied",
        "override_during = plan: terraform test 1.11's apply fails ('Provider produced inconsistent final plan': "
        "the values it generated at plan are generated anew while applying); the mock's apply works.",
    ),
    Deliberate(
        "*", "*", "stable", "data.*", "", "differs", "same",
        "A data source read is a function of the seed, the type and the configuration (issue #24 item 1): read "
        "again at apply and in the plan after apply it gives the same answer, so a step's post-apply plan is "
        "empty. terraform test generates new random strings at every read (a run after apply plans changes).",
    ),
)


def _glob(pattern: str) -> re.Pattern[str]:
    """``*`` is any text, every other character itself (facts hold brackets: ``[a-z0-9]``).

    >>> bool(_glob("generated string * [a-z0-9]").fullmatch("generated string len=8 [a-z0-9]"))
    True
    """
    return re.compile(".*".join(re.escape(part) for part in pattern.split("*")), re.DOTALL)


@dataclass(frozen=True)
class Point:
    """One compared fact."""

    source: str
    scenario: str
    phase: str  # "plan", "apply" or "stable"
    address: str
    path: str
    terraform: str
    ours: str

    @property
    def agrees(self) -> bool:
        return self.terraform == self.ours

    def __str__(self) -> str:
        where = f"{self.source}/{self.scenario}/{self.phase} {self.address} {self.path or '(object)'}"
        return f"{where}: terraform test says {self.terraform!r}, the mock {self.ours!r}"


def compare(
    module: Module, scenario: Scenario, terraform: Mapping[str, Answer], ours: Mapping[str, Answer],
    *, with_sensitive: bool = False,
) -> Iterator[Point]:
    """Every fact of every instance, both sides (a fact one side lacks is ``(absent)``)."""
    name = module.source.name
    for instance in module.instances:
        block = _block(module.schema, instance)
        theirs, mine = terraform.get(instance.address), ours.get(instance.address)
        if theirs is None or mine is None:
            yield Point(name, scenario.name, "instance", instance.address, "", _present(theirs), _present(mine))
            continue
        if theirs.apply is None or mine.apply is None:
            yield Point(name, scenario.name, "apply", instance.address, "", _applied(theirs), _applied(mine))
        for phase in ("plan", "apply"):
            if getattr(theirs, phase) is None or getattr(mine, phase) is None:
                continue
            left = facts_of(block, *getattr(theirs, phase), with_sensitive=with_sensitive)
            right = facts_of(block, *getattr(mine, phase), with_sensitive=with_sensitive)
            for path in sorted(set(left) | set(right)):
                yield Point(name, scenario.name, phase, instance.address, path,
                            left.get(path, "(absent)"), right.get(path, "(absent)"))
        if instance.mode == "data" and theirs.stable is not None and mine.stable is not None:
            theirs_stable = "same" if theirs.stable else "differs"
            if theirs.stable and not _generates_strings(theirs):
                continue  # nothing random to tell: a read without generated strings is the same anyway
            yield Point(name, scenario.name, "stable", instance.address, "", theirs_stable,
                        "same" if mine.stable else "differs")


def _generates_strings(answer: Answer) -> bool:
    return "generated string" in json.dumps([string_fact(s) for s in _strings(answer.plan[0])])


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def crash_point(module: Module, recording: Mapping[str, Any]) -> Point:
    """The one fact of a source ``terraform test`` crashed on: its panic, against whether our mock runs it."""
    try:
        for scenario in SCENARIOS:
            replay(module, scenario)
        ours = "ran"
    except Exception as exc:  # what went wrong is the fact
        ours = f"failed: {type(exc).__name__}: {exc}"
    return Point(module.source.name, "*", "run", "", "", f"crashed: {recording['crashed']}", ours)


def _applied(answer: Answer) -> str:
    return "apply failed" if answer.apply is None else "applied"


def _present(answer: Answer | None) -> str:
    return "(absent)" if answer is None else "present"


@dataclass
class Tally:
    """The agreement figure and the disagreements, deliberate or not."""

    points: int = 0
    agree: int = 0
    deliberate: list[tuple[Point, Deliberate]] = field(default_factory=list)
    other: list[Point] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)

    def add(self, point: Point) -> None:
        self.points += 1
        if point.agrees:
            self.agree += 1
            return
        for known in DELIBERATE:
            if known.covers(point):
                self.deliberate.append((point, known))
                return
        self.other.append(point)

    def figure(self) -> str:
        return (
            f"{self.agree} of {self.points} facts agree ({', '.join(self.sources)}); "
            f"{len(self.deliberate)} deliberate differences, {len(self.other)} other"
        )


def tally(sources: tuple[Source, ...] = SOURCES) -> Tally:
    """Replay every recorded source (those whose schema and recording are here) and count."""
    result = Tally()
    for source in sources:
        if not source.available() or not recording_path(source).is_file():
            continue
        module = build_module(source)
        recording = load_recording(source)
        result.sources.append(source.name)
        if "crashed" in recording:
            result.add(crash_point(module, recording))
            continue
        for scenario in SCENARIOS:
            if scenario.name not in recording["scenarios"]:
                continue
            for point in compare(module, scenario, recorded_answers(recording, scenario), replay(module, scenario)):
                result.add(point)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quiet", action="store_true", help="print the figure only")
    args = parser.parse_args(argv)
    result = tally()
    if not args.quiet:
        for point in result.other:
            print(f"DIFFERS {point}")
        seen: set[str] = set()
        for point, known in result.deliberate:
            if known.reason not in seen:
                seen.add(known.reason)
                print(f"deliberate ({point.phase} {point.path or point.address}): {known.reason}")
    print(result.figure())
    return 0


if __name__ == "__main__":
    sys.exit(main())
