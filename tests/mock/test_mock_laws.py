"""Laws of the mock's values over random schemas: a create's plan keeps the configuration and leaves exactly the
computed nulls unknown; apply fills every unknown, keeps every known value, and conforms to the schema's types."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck._terraform.mock.schema import Block, read_provider_schema
from plancheck._terraform.mock.values import conform, fill, is_unknown, plan_create


class Unknown:
    """Stands in for msgpack's ExtType(0, ...): what cty sends for an unknown value."""

    code = 0
    data = b"\x00"

    def __repr__(self) -> str:
        return "?"


U = Unknown()
NAMES = st.from_regex(r"[a-z]{1,5}", fullmatch=True)
PRIMITIVE = st.sampled_from(["string", "number", "bool"])
TYPES = st.one_of(PRIMITIVE, st.tuples(st.sampled_from(["list", "set", "map"]), PRIMITIVE).map(list))
FLAGS = st.sampled_from([{"required": True}, {"optional": True}, {"computed": True}, {"optional": True, "computed": True}])


@st.composite
def attributes(draw: Any, depth: int) -> dict[str, Any]:
    names = draw(st.lists(NAMES, min_size=1, max_size=4, unique=True))
    out: dict[str, Any] = {}
    for name in names:
        spec: dict[str, Any] = {**draw(FLAGS), "sensitive": draw(st.booleans())}
        if depth > 0 and draw(st.integers(0, 4)) == 0:
            spec["nested_type"] = {"nesting_mode": draw(st.sampled_from(["single", "list", "set", "map"])),
                                   "attributes": draw(attributes(depth - 1))}
        else:
            spec["type"] = draw(TYPES)
        out[name] = spec
    return out


@st.composite
def blocks(draw: Any, depth: int = 1) -> dict[str, Any]:
    block: dict[str, Any] = {"attributes": draw(attributes(depth))}
    if depth > 0:
        kinds = draw(st.lists(NAMES.map(lambda n: "b" + n), max_size=2, unique=True))
        block["block_types"] = {
            name: {"nesting_mode": draw(st.sampled_from(["single", "list", "set", "map", "group"])),
                   "block": draw(blocks(depth - 1))}
            for name in kinds if name not in block["attributes"]
        }
    return block


def value_of(draw: Any, cty: Any) -> Any:
    if cty == "string":
        return draw(st.text(max_size=4))
    if cty == "number":
        return draw(st.integers(-5, 5))
    if cty == "bool":
        return draw(st.booleans())
    kind, inner = cty[0], cty[1]
    if kind == "object":
        return {k: value_of(draw, t) for k, t in inner.items()}
    items = [value_of(draw, inner) for _ in range(draw(st.integers(0, 2)))]
    return {f"k{i}": v for i, v in enumerate(items)} if kind == "map" else items


def config_of(draw: Any, holder: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, attribute in holder.attributes.items():
        if not (attribute.required or attribute.optional) or (not attribute.required and draw(st.booleans())):
            out[name] = None
        elif attribute.nested is not None:
            objects = [config_of(draw, attribute.nested) for _ in range(draw(st.integers(1, 2)))]
            mode = attribute.nested.mode
            out[name] = objects[0] if mode == "single" else (
                {f"k{i}": o for i, o in enumerate(objects)} if mode == "map" else objects)
        else:
            out[name] = value_of(draw, attribute.type)
    for name, block in holder.blocks.items():
        objects = [config_of(draw, block.block) for _ in range(draw(st.integers(0, 2)))]
        if block.mode in ("single", "group"):
            out[name] = objects[0] if objects else (config_of(draw, block.block) if block.mode == "group" else None)
        elif block.mode == "map":
            out[name] = {f"k{i}": o for i, o in enumerate(objects)}
        else:
            out[name] = objects
    return out


def agrees(config: Any, value: Any) -> bool:
    """Every non-null value of ``config`` is in ``value`` unchanged."""
    if config is None:
        return True
    if isinstance(config, dict):
        return isinstance(value, dict) and all(agrees(v, value.get(k)) for k, v in config.items())
    if isinstance(config, list):
        return isinstance(value, list) and len(value) == len(config) and all(map(agrees, config, value))
    return bool(config == value)


def unknowns(value: Any) -> int:
    if is_unknown(value):
        return 1
    if isinstance(value, dict):
        return sum(unknowns(v) for v in value.values())
    if isinstance(value, list):
        return sum(unknowns(v) for v in value)
    return 0


def computed_nulls(holder: Any, config: Any) -> int:
    """How many computed attributes the configuration leaves null, nested objects included."""
    if not isinstance(config, dict):
        return 0
    count = 0
    for name, attribute in holder.attributes.items():
        value = config.get(name)
        if value is None:
            count += attribute.computed
        elif attribute.nested is not None:
            items = [value] if attribute.nested.mode == "single" else (
                list(value.values()) if attribute.nested.mode == "map" else value)
            count += sum(computed_nulls(attribute.nested, item) for item in items)
    for name, block in holder.blocks.items():
        value = config.get(name)
        items = [] if value is None else [value] if block.mode in ("single", "group") else (
            list(value.values()) if block.mode == "map" else value)
        count += sum(computed_nulls(block.block, item) for item in items)
    return count


def conforms(holder: Any, value: dict[str, Any]) -> None:
    for name, attribute in holder.attributes.items():
        if value.get(name) is not None:
            conform(attribute.type, value[name], name)  # raises when it does not fit


def schema(block: dict[str, Any]) -> Block:
    return read_provider_schema({"resource_schemas": {"t": {"block": block}}}, "a/b").resources["t"].block


@settings(max_examples=80, deadline=None)
@given(blocks(), st.data(), st.integers(0, 2**31))
def test_plan_then_apply(raw: dict[str, Any], data: Any, seed: int) -> None:
    block = schema(raw)
    config = config_of(data.draw, block)
    planned = plan_create(block, config, U)
    assert agrees(config, planned)
    assert unknowns(planned) == computed_nulls(block, config)
    applied = fill(block, planned, random.Random(seed))
    assert unknowns(applied) == 0
    assert agrees(config, applied)
    conforms(block, applied)
    assert fill(block, planned, random.Random(seed)) == applied  # reproducible
