"""The two kinds of step a Path is made of."""

from __future__ import annotations

from typing import Any, Final, final

__all__ = ["MapStep", "SliceStep", "Step"]


@final
class MapStep:
    """A step into a JSON object by key.

    >>> MapStep("triggers")
    MapStep('triggers')
    >>> MapStep("a") == MapStep("a"), MapStep("a") == "a"
    (True, False)
    """

    __slots__ = ("key",)
    key: str

    def __init__(self, key: str) -> None:
        if not isinstance(key, str):
            raise TypeError(f"MapStep key must be a str, got {type(key).__name__}")
        object.__setattr__(self, "key", key)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"MapStep is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"MapStep is immutable; cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MapStep):
            return self.key == other.key
        return NotImplemented

    def __hash__(self) -> int:
        return hash((MapStep, self.key))

    def __repr__(self) -> str:
        return f"MapStep({self.key!r})"

    def __reduce__(self) -> tuple[type[MapStep], tuple[str]]:
        return (MapStep, (self.key,))


@final
class SliceStep:
    """A step into a JSON array by a non-negative index.

    >>> SliceStep(0)
    SliceStep(0)
    >>> SliceStep(-1)
    Traceback (most recent call last):
    ...
    ValueError: SliceStep index must be >= 0, got -1
    """

    __slots__ = ("index",)
    index: int

    def __init__(self, index: int) -> None:
        # bool is an int subclass, but True is never meant as an index.
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"SliceStep index must be an int, got {type(index).__name__}")
        if index < 0:
            raise ValueError(f"SliceStep index must be >= 0, got {index}")
        object.__setattr__(self, "index", index)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"SliceStep is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"SliceStep is immutable; cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SliceStep):
            return self.index == other.index
        return NotImplemented

    def __hash__(self) -> int:
        return hash((SliceStep, self.index))

    def __repr__(self) -> str:
        return f"SliceStep({self.index!r})"

    def __reduce__(self) -> tuple[type[SliceStep], tuple[int]]:
        return (SliceStep, (self.index,))


Step = MapStep | SliceStep
STEP_TYPES: Final = (MapStep, SliceStep)
