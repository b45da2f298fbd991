"""Resolve a Path against a parsed JSON document, iteratively (no recursion limit)."""

from __future__ import annotations

from typing import Any

from ._errors import PathNotFoundError
from ._jsontypes import describe_json_type, is_array, is_object, plural
from ._path import Path
from ._steps import MapStep

__all__ = ["traverse"]


def traverse(document: Any, path: Path) -> Any:
    """Return the value at ``path`` in ``document`` (Go's ``tfjsonpath.Traverse``).

    A MapStep only enters an object (any Mapping) and a SliceStep only enters an
    array (any Sequence but str/bytes): a path never indexes into a string, never
    treats an array as an object or an object as an array. Nothing in the document
    is modified (a ``defaultdict`` gains no keys). When the path leads nowhere,
    PathNotFoundError says at which step and what was found there, by JSON type only.

    >>> from tfjsonpath import New
    >>> traverse({"a": {"b": [1, 2]}}, New("a").AtMapKey("b").AtSliceIndex(1))
    2
    >>> from tfjsonpath import PathNotFoundError
    >>> try:
    ...     traverse({"Array": [1, 2]}, New("Array").AtSliceIndex(7))
    ... except PathNotFoundError as e:
    ...     print(e)
    path not found: SliceStep index Array.7 is out of range with slice length 2; index 7 out of range at step 2 of Array[7]; the array has 2 elements
    """
    if not isinstance(path, Path):
        raise TypeError(f"traverse() path must be a tfjsonpath.Path, got {type(path).__name__}")
    current = document
    for i, step in enumerate(path.steps):
        if isinstance(step, MapStep):
            key = step.key
            if is_object(current):
                # `in` first: a Mapping's __getitem__ may insert (defaultdict) or compute a default.
                if key in current:
                    current = current[key]
                    continue
                raise _not_found(
                    path,
                    i,
                    current,
                    f"specified key {key} not found in map at {path[: i + 1]}",
                    f"key {key!r} missing at step {i + 1} of {path.to_text()}; "
                    f"the map has {plural(len(current), 'key')}",
                )
            raise _not_found(
                path,
                i,
                current,
                f"cannot convert object at MapStep {path[: i + 1]} to map[string]any",
                f"expected an object for key {key!r} at step {i + 1} of {path.to_text()}, "
                f"found {describe_json_type(current)}",
            )
        index = step.index
        if is_array(current):
            if index < len(current):
                current = current[index]
                continue
            raise _not_found(
                path,
                i,
                current,
                f"SliceStep index {path[: i + 1]} is out of range with slice length {len(current)}",
                f"index {index} out of range at step {i + 1} of {path.to_text()}; "
                f"the array has {plural(len(current), 'element')}",
            )
        raise _not_found(
            path,
            i,
            current,
            f"cannot convert object at SliceStep {path[: i + 1]} to []any",
            f"expected an array for index {index} at step {i + 1} of {path.to_text()}, "
            f"found {describe_json_type(current)}",
        )
    return current


def _not_found(path: Path, step_index: int, found: Any, go_reason: str, detail: str) -> PathNotFoundError:
    return PathNotFoundError(
        path=path,
        step_index=step_index,
        step=path.steps[step_index],
        found=describe_json_type(found),
        go_message=f"path not found: {go_reason}",
        detail=detail,
    )
