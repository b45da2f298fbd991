"""The two kinds of step a Path is made of, and their validating constructors."""

from __future__ import annotations

from typing import Any, Final, TypeAlias, final

from ._public import public

__all__ = ["MapStep", "SliceStep", "Step"]

MAX_INDEX: Final = 2**63 - 1


def checked_key(key: object, where: str) -> str:
    """Return ``key`` as an exact str, or raise TypeError naming ``where``."""
    if not isinstance(key, str):
        raise TypeError(f"{where} key must be a str, got {type(key).__name__}")
    # A str subclass (e.g. a str-mixin Enum) could override __eq__/__hash__/__str__;
    # storing an exact str keeps equality, hashing and rendering predictable.
    return key if type(key) is str else str.__str__(key)


def checked_index(index: object, where: str) -> int:
    """Return ``index`` as an exact non-negative int, or raise TypeError/ValueError naming ``where``."""
    # bool is an int subclass, but True is never meant as an index.
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError(f"{where} index must be an int, got {type(index).__name__}")
    if index < 0:
        # Go accepts a negative SliceStep and then panics inside Traverse; refuse it here.
        raise ValueError(f"{where} index must be >= 0, got {index}")
    if index > MAX_INDEX:
        # Go's int is 64-bit; no array is that long, and huge ints cannot even be printed (int_max_str_digits).
        raise ValueError(
            f"{where} index must be <= {MAX_INDEX} (2**63 - 1), got a {index.bit_length()}-bit int"
        )
    return index if type(index) is int else int.__index__(index)


@public("tfjsonpath")
@final
class MapStep:
    """A step into a JSON object by key (Go's ``tfjsonpath.MapStep``).

    >>> MapStep("triggers")
    MapStep('triggers')
    >>> MapStep("a") == MapStep("a"), MapStep("a") == "a"
    (True, False)
    >>> MapStep(0)
    Traceback (most recent call last):
    ...
    TypeError: MapStep() key must be a str, got int
    """

    __slots__ = ("key",)
    __match_args__ = ("key",)
    key: str

    def __init__(self, key: str) -> None:
        object.__setattr__(self, "key", checked_key(key, "MapStep()"))

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

    def __copy__(self) -> MapStep:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> MapStep:
        return self


@public("tfjsonpath")
@final
class SliceStep:
    """A step into a JSON array by a non-negative index (Go's ``tfjsonpath.SliceStep``).

    >>> SliceStep(0)
    SliceStep(0)
    >>> SliceStep(-1)
    Traceback (most recent call last):
    ...
    ValueError: SliceStep() index must be >= 0, got -1
    """

    __slots__ = ("index",)
    __match_args__ = ("index",)
    index: int

    def __init__(self, index: int) -> None:
        object.__setattr__(self, "index", checked_index(index, "SliceStep()"))

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

    def __copy__(self) -> SliceStep:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> SliceStep:
        return self


Step: TypeAlias = MapStep | SliceStep
"""One step of a Path: a MapStep or a SliceStep."""

STEP_TYPES: Final = (MapStep, SliceStep)
