"""Python values to the reader's Node trees, checked to be JSON: what writing and ``config_from_dict`` read."""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from tfjsonpath import Step

from ._errors import ConfigFormatError, Trail, json_location, trail_steps
from ._json_reader import ARRAY, BOOL, NULL, NUMBER, OBJECT, STRING, Node

__all__ = ["python_to_node"]


def python_to_node(value: Any) -> Node:
    """Convert a Python value to a Node tree, checking it is JSON (iteratively, so any depth works).

    Accepted: mappings with str keys, lists and tuples, str, int, float and Decimal (finite),
    bool and None. Anything else, a non-finite number or a cycle is a ConfigFormatError
    naming its JSON location.

    >>> python_to_node({"a": [1, {"b": object()}]})
    Traceback (most recent call last):
    ...
    plancheck.tfconfig.ConfigFormatError: $.a[1]["b"]: expected a JSON value (dict, list, str, int, float, Decimal, bool or None), found a value of type object
    """
    root = _scalar_or_container(value, ())
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
            raise ConfigFormatError(
                json_location(trail_steps(steps)),
                "a tree of values",
                found="a value that contains itself (a cycle)",
            )
        on_path.add(id(container))
        work.append(id(container))
        if node.kind == OBJECT:
            items: list[tuple[str, int, Node]] = []
            for key, child in container.items():
                if not isinstance(key, str):
                    raise ConfigFormatError(
                        json_location(trail_steps(steps)),
                        "str property names",
                        found=f"a key of type {type(key).__name__}",
                    )
                child_steps = Trail(steps, key)
                child_node = _scalar_or_container(child, child_steps)
                items.append((key, -1, child_node))
                if child_node.kind <= ARRAY:
                    work.append((child, child_node, child_steps))
            node.value = items
        else:
            elements: list[Node] = []
            for i, child in enumerate(container):
                child_steps = Trail(steps, i)
                child_node = _scalar_or_container(child, child_steps)
                elements.append(child_node)
                if child_node.kind <= ARRAY:
                    work.append((child, child_node, child_steps))
            node.value = elements
    return root


def _scalar_or_container(value: Any, trail: Trail | tuple[Step, ...]) -> Node:
    if value is None:
        return Node(NULL, None, -1)
    if value is True or value is False:
        return Node(BOOL, value, -1)
    if isinstance(value, str):
        return Node(STRING, value, -1)
    if isinstance(value, int):
        return Node(NUMBER, int(value), -1)
    if isinstance(value, (float, Decimal)):
        if (isinstance(value, float) and not math.isfinite(value)) or (
            isinstance(value, Decimal) and not value.is_finite()
        ):
            raise ConfigFormatError(json_location(trail_steps(trail)), "a finite number", found=str(value))
        return Node(NUMBER, value, -1)
    if isinstance(value, Mapping):
        return Node(OBJECT, [], -1)
    if isinstance(value, (list, tuple)):
        return Node(ARRAY, [], -1)
    raise ConfigFormatError(
        json_location(trail_steps(trail)),
        "a JSON value (dict, list, str, int, float, Decimal, bool or None)",
        found=f"a value of type {type(value).__name__}",
    )
