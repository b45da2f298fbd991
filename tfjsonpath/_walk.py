"""Enumerate the values of a parsed JSON document with their Paths, iteratively."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ._jsontypes import is_array, is_object
from ._path import Path
from ._public import public
from ._steps import MapStep, SliceStep, Step

__all__ = ["leaves", "walk"]

_ROOT = Path()


def _has_children(value: Any) -> bool:
    return (is_object(value) or is_array(value)) and len(value) > 0


def _items(container: Any) -> tuple[bool, Iterator[tuple[Any, Any]]]:
    if is_object(container):
        return True, iter(container.items())
    return False, enumerate(container)


def _check_prefix(prefix: object, where: str) -> None:
    if not isinstance(prefix, Path):
        raise TypeError(f"{where} prefix must be a tfjsonpath.Path, got {type(prefix).__name__}")


def _walk(document: Any, prefix: Path, leaves_only: bool) -> Iterator[tuple[Path, Any]]:
    if not _has_children(document):
        yield prefix, document
        return
    if not leaves_only:
        yield prefix, document
    base = prefix.steps
    # `branch` holds the steps from the document down to the container being iterated; a
    # Path is materialised only for a value that is yielded, so leaves() of a 10,000-level
    # document does not build 10,000 long tuples. `open_ids` holds the containers on the
    # branch, so a document that contains itself is caught instead of looped over forever.
    branch: list[Step] = []
    containers = [document]
    frames = [_items(document)]
    open_ids = {id(document)}
    while frames:
        in_object, items = frames[-1]
        for key, child in items:
            if not in_object:
                step: Step = SliceStep(key)
            elif isinstance(key, str):
                step = MapStep(key)
            else:
                where = Path._from_steps((*base, *branch)).to_text() or "the top"
                raise TypeError(
                    f"not a JSON document: an object key at {where} is a {type(key).__name__}, not a str"
                )
            if not _has_children(child):
                yield Path._from_steps((*base, *branch, step)), child
                continue
            if id(child) in open_ids:
                where = Path._from_steps((*base, *branch, step)).to_text()
                raise ValueError(f"not a JSON document: the value at {where} contains itself")
            branch.append(step)
            if not leaves_only:
                yield Path._from_steps((*base, *branch)), child
            containers.append(child)
            frames.append(_items(child))
            open_ids.add(id(child))
            break
        else:
            frames.pop()
            open_ids.discard(id(containers.pop()))
            if branch:
                branch.pop()


@public("tfjsonpath")
def walk(document: Any, *, prefix: Path = _ROOT) -> Iterator[tuple[Path, Any]]:
    """Yield ``(path, value)`` for every value in ``document``, the document itself first.

    The order is depth first, in document order (object keys as the mapping iterates
    them, array elements by index); ``path.traverse(document) is value`` for every pair.
    ``prefix`` is put in front of every path, for walking a part cut out of a larger
    document. Any depth works: the walk keeps its own stack instead of recursing (each
    yielded path is built afresh, so the cost grows with depth times the number of values).
    A document that contains itself raises ValueError instead of looping forever.

    >>> from tfjsonpath import New
    >>> for path, value in walk({"a": [1, {"b": None}]}):
    ...     print(repr(path.to_text()), value)
    '' {'a': [1, {'b': None}]}
    'a' [1, {'b': None}]
    'a[0]' 1
    'a[1]' {'b': None}
    'a[1]["b"]' None
    >>> [p.to_text() for p, _ in walk({"id": "x"}, prefix=New("after"))]
    ['after', 'after["id"]']
    """
    _check_prefix(prefix, "walk()")
    return _walk(document, prefix, leaves_only=False)


@public("tfjsonpath")
def leaves(document: Any, *, prefix: Path = _ROOT) -> Iterator[tuple[Path, Any]]:
    """Yield ``(path, value)`` for every leaf: a string, number, bool, null, or an empty object or array.

    Same order, ``prefix`` and guarantees as :func:`walk`; only leaves get a path built,
    so a deep document with few leaves is cheap.

    >>> doc = {"first_name": "John", "phone_numbers": [{"mobile": "111"}, {}], "tags": []}
    >>> for path, value in leaves(doc):
    ...     print(path.to_text(), value)
    first_name John
    phone_numbers[0]["mobile"] 111
    phone_numbers[1] {}
    tags []
    """
    _check_prefix(prefix, "leaves()")
    return _walk(document, prefix, leaves_only=True)
