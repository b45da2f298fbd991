"""Resolve a Path against a parsed JSON document, iteratively (no recursion limit)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ._errors import PathNotFoundError
from ._path import Path
from ._steps import MapStep, SliceStep

__all__ = ["describe_json_type", "traverse"]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def describe_json_type(value: Any) -> str:
    """Describe a JSON value by its type and size, never by its content (it may be secret).

    >>> describe_json_type({"a": 1}), describe_json_type("secret"), describe_json_type(None)
    ('an object with 1 key', 'a string', 'null')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a bool"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (int, float)) or type(value).__name__ == "Decimal":
        return "a number"
    if isinstance(value, Mapping):
        return f"an object with {_plural(len(value), 'key')}"
    if isinstance(value, Sequence):
        return f"an array of {_plural(len(value), 'element')}"
    return f"a non-JSON value of type {type(value).__name__}"


def _is_array(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray))


def traverse(document: Any, path: Path) -> Any:
    """Return the value at ``path`` in ``document``; raise PathNotFoundError naming the failing step.

    >>> from tfjsonpath import New
    >>> traverse({"a": {"b": [1, 2]}}, New("a").AtMapKey("b").AtSliceIndex(1))
    2
    """
    if not isinstance(path, Path):
        raise TypeError(f"traverse expects a tfjsonpath.Path, got {type(path).__name__}")
    current = document
    steps = path.steps
    for i, step in enumerate(steps):
        if isinstance(step, MapStep):
            if isinstance(current, Mapping):
                try:
                    current = current[step.key]
                    continue
                except KeyError:
                    go_path = str(path[: i + 1])
                    raise PathNotFoundError(
                        path=path,
                        step_index=i,
                        step=step,
                        found=describe_json_type(current),
                        go_message=f"path not found: specified key {step.key} not found in map at {go_path}",
                        detail=(
                            f"key {step.key!r} missing at step {i + 1} of {go_path}; "
                            f"the map has {_plural(len(current), 'key')}"
                        ),
                    ) from None
            go_path = str(path[: i + 1])
            raise PathNotFoundError(
                path=path,
                step_index=i,
                step=step,
                found=describe_json_type(current),
                go_message=f"path not found: cannot convert object at MapStep {go_path} to map[string]any",
                detail=f"expected an object at step {i + 1} of {go_path}, found {describe_json_type(current)}",
            )
        assert isinstance(step, SliceStep)
        if _is_array(current):
            if step.index < len(current):
                current = current[step.index]
                continue
            go_path = str(path[: i + 1])
            raise PathNotFoundError(
                path=path,
                step_index=i,
                step=step,
                found=describe_json_type(current),
                go_message=(
                    f"path not found: SliceStep index {go_path} is out of range with slice length {len(current)}"
                ),
                detail=(
                    f"index {step.index} out of range at step {i + 1} of {go_path}; "
                    f"the array has {_plural(len(current), 'element')}"
                ),
            )
        go_path = str(path[: i + 1])
        raise PathNotFoundError(
            path=path,
            step_index=i,
            step=step,
            found=describe_json_type(current),
            go_message=f"path not found: cannot convert object at SliceStep {go_path} to []any",
            detail=f"expected an array at step {i + 1} of {go_path}, found {describe_json_type(current)}",
        )
    return current
