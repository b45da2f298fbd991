"""Path: an immutable, hashable sequence of steps into a JSON document."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, final, overload

from ._steps import MapStep, SliceStep, Step
from ._text import parse_steps, render_steps

__all__ = ["New", "Path"]


def _step_for(key_or_index: str | int) -> Step:
    if isinstance(key_or_index, str):
        return MapStep(key_or_index)
    if isinstance(key_or_index, int) and not isinstance(key_or_index, bool):
        return SliceStep(key_or_index)
    raise TypeError(f"a path step must be a str key or an int index, got {type(key_or_index).__name__}")


@final
class Path:
    """An immutable path into a JSON document, built like Go's tfjsonpath.

    Builders return new paths, so branching from a shared base is safe:

    >>> base = New("root_list_block").AtSliceIndex(0)
    >>> a, b = base.AtMapKey("x"), base.at_map_key("y")
    >>> str(a), str(b), str(base)
    ('root_list_block.0.x', 'root_list_block.0.y', 'root_list_block.0')
    >>> Path.parse('root_map_attribute["example-key"][0]').to_text()
    'root_map_attribute["example-key"][0]'

    ``Path()`` with no steps is the document root.
    """

    __slots__ = ("_hash", "_steps")
    _steps: tuple[Step, ...]
    _hash: int

    def __init__(self, *steps: Step) -> None:
        for i, step in enumerate(steps):
            if not isinstance(step, (MapStep, SliceStep)):
                raise TypeError(f"Path step {i} must be a MapStep or SliceStep, got {type(step).__name__}")
        object.__setattr__(self, "_steps", steps)
        object.__setattr__(self, "_hash", hash((Path, steps)))

    @classmethod
    def _from_steps(cls, steps: tuple[Step, ...]) -> Path:
        # Skips per-step validation: callers pass steps that are already Step objects.
        obj = object.__new__(cls)
        object.__setattr__(obj, "_steps", steps)
        object.__setattr__(obj, "_hash", hash((Path, steps)))
        return obj

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"Path is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Path is immutable; cannot delete {name!r}")

    def __reduce__(self) -> tuple[type[Path], tuple[Step, ...]]:
        return (Path, self._steps)

    # -- building -------------------------------------------------------------------------

    def AtMapKey(self, key: str) -> Path:  # noqa: N802 - Go's name, kept for line-by-line ports
        """Return a new path one map key deeper.

        >>> New("triggers").AtMapKey("dep")
        Path(MapStep('triggers'), MapStep('dep'))
        """
        return Path._from_steps((*self._steps, MapStep(key)))

    def AtSliceIndex(self, index: int) -> Path:  # noqa: N802 - Go's name, kept for line-by-line ports
        """Return a new path one array index deeper.

        >>> New("list").AtSliceIndex(2)
        Path(MapStep('list'), SliceStep(2))
        """
        return Path._from_steps((*self._steps, SliceStep(index)))

    at_map_key = AtMapKey
    at_slice_index = AtSliceIndex

    def join(self, *others: Path | Step | str | int) -> Path:
        """Return this path followed by other paths, steps, keys (str) or indexes (int).

        >>> New("a").join(New("b"), 0, "c").to_text()
        'a["b"][0]["c"]'
        """
        steps = list(self._steps)
        for other in others:
            if isinstance(other, Path):
                steps.extend(other._steps)
            elif isinstance(other, (MapStep, SliceStep)):
                steps.append(other)
            else:
                steps.append(_step_for(other))
        return Path._from_steps(tuple(steps))

    # -- inspecting ------------------------------------------------------------------------

    @property
    def steps(self) -> tuple[Step, ...]:
        """The steps, as a tuple.

        >>> New("a").AtSliceIndex(0).steps
        (MapStep('a'), SliceStep(0))
        """
        return self._steps

    @property
    def parent(self) -> Path | None:
        """The path without its last step; ``None`` for the root path.

        >>> New("a").AtSliceIndex(0).parent
        Path(MapStep('a'))
        """
        if not self._steps:
            return None
        return Path._from_steps(self._steps[:-1])

    @property
    def last_step(self) -> Step | None:
        """The last step, or ``None`` for the root path.

        >>> New("a").AtSliceIndex(3).last_step
        SliceStep(3)
        """
        return self._steps[-1] if self._steps else None

    def ancestors(self) -> Iterator[Path]:
        """Yield every proper ancestor, nearest first, ending with the root path.

        >>> [str(p) for p in New("a").AtMapKey("b").AtSliceIndex(0).ancestors()]
        ['a.b', 'a', '']
        """
        for n in range(len(self._steps) - 1, -1, -1):
            yield Path._from_steps(self._steps[:n])

    def is_parent_of(self, other: Path) -> bool:
        """True if this path is a proper ancestor of ``other`` (any number of steps above it).

        >>> New("a").is_parent_of(New("a").AtMapKey("b").AtSliceIndex(0))
        True
        >>> New("a").is_parent_of(New("a"))
        False
        """
        if not isinstance(other, Path):
            raise TypeError(f"is_parent_of expects a Path, got {type(other).__name__}")
        n = len(self._steps)
        return len(other._steps) > n and other._steps[:n] == self._steps

    def is_child_of(self, other: Path) -> bool:
        """True if ``other`` is a proper ancestor of this path.

        >>> New("a").AtMapKey("b").is_child_of(New("a"))
        True
        """
        if not isinstance(other, Path):
            raise TypeError(f"is_child_of expects a Path, got {type(other).__name__}")
        return other.is_parent_of(self)

    def __len__(self) -> int:
        return len(self._steps)

    def __iter__(self) -> Iterator[Step]:
        return iter(self._steps)

    @overload
    def __getitem__(self, index: int) -> Step: ...
    @overload
    def __getitem__(self, index: slice) -> Path: ...
    def __getitem__(self, index: int | slice) -> Step | Path:
        if isinstance(index, slice):
            return Path._from_steps(self._steps[index])
        return self._steps[index]

    def __bool__(self) -> bool:
        # A root path is still a real path; truthiness must not hinge on length.
        return True

    # -- comparing -------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Path):
            return self._hash == other._hash and self._steps == other._steps
        return NotImplemented

    def __hash__(self) -> int:
        return self._hash

    def sort_key(self) -> tuple[tuple[int, int, str], ...]:
        """A key that orders paths deterministically (indexes numerically, before keys).

        >>> sorted([New("b"), New(1), New(0), New("a")], key=Path.sort_key)
        [Path(SliceStep(0)), Path(SliceStep(1)), Path(MapStep('a')), Path(MapStep('b'))]
        """
        return tuple((0, s.index, "") if isinstance(s, SliceStep) else (1, 0, s.key) for s in self._steps)

    # -- text ------------------------------------------------------------------------------

    def __repr__(self) -> str:
        return "Path(" + ", ".join(repr(s) for s in self._steps) + ")"

    def __str__(self) -> str:
        """Go's ``String()``: steps joined with dots. Ambiguous; use :meth:`to_text` to round-trip."""
        return ".".join(s.key if isinstance(s, MapStep) else str(s.index) for s in self._steps)

    def to_text(self) -> str:
        """The unambiguous, escaped text form, which :meth:`parse` reads back.

        >>> New("a.b").AtMapKey("0").AtSliceIndex(0).AtMapKey("ok").to_text()
        '["a.b"]["0"][0]["ok"]'
        """
        return render_steps(self._steps)

    @classmethod
    def parse(cls, text: str) -> Path:
        """Parse the escaped text form made by :meth:`to_text`.

        >>> Path.parse('triggers["file1.txt"][0]').steps
        (MapStep('triggers'), MapStep('file1.txt'), SliceStep(0))
        """
        return cls._from_steps(parse_steps(text))

    # -- resolving -------------------------------------------------------------------------

    def traverse(self, document: Any) -> Any:
        """Return the value at this path in a parsed JSON document.

        >>> New("a").AtSliceIndex(1).traverse({"a": [10, 20]})
        20
        """
        from ._traverse import traverse

        return traverse(document, self)


def New(first_step: str | int) -> Path:  # noqa: N802 - Go's name, kept for line-by-line ports
    """Start a path with a map key (str) or, for a root-level array, an index (int).

    >>> New("root_list_block").AtSliceIndex(0).AtMapKey("nested_list_block")
    Path(MapStep('root_list_block'), SliceStep(0), MapStep('nested_list_block'))
    >>> New(0)
    Path(SliceStep(0))
    """
    return Path._from_steps((_step_for(first_step),))
