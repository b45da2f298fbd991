"""Resolve a Path against a parsed JSON document, iteratively (no recursion limit)."""

from __future__ import annotations

from typing import Any

from ._path import Path, resolve
from ._public import public

__all__ = ["Traverse", "traverse"]


@public("tfjsonpath")
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
    return resolve(document, path)


#: Go's name (``tfjsonpath.Traverse(value, path)``), so ported code reads the same: the same function.
Traverse = traverse
