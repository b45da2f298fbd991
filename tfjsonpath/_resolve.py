"""The walk behind :func:`tfjsonpath.traverse` and ``Path.traverse``, iterative (no recursion limit).

It only reads the path's steps and text forms, so it needs no import of ``_path``: both the
function and the method call it without an import cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._errors import PathNotFoundError
from ._jsontypes import describe_json_type, is_array, is_object, plural
from ._steps import MapStep

if TYPE_CHECKING:
    from ._path import Path

__all__ = ["resolve"]


def resolve(document: Any, path: Path) -> Any:
    """The value at ``path`` in ``document``, or PathNotFoundError naming the step (see :func:`tfjsonpath.traverse`).

    >>> from tfjsonpath import New
    >>> resolve({"a": [1, 2]}, New("a").AtSliceIndex(0))
    1
    """
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
