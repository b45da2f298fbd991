"""A mapping that counts how often it is read whole: what a walk costs, told without a clock (tests assert on
counts, never times), and the value shared at every level that makes a walk down every path exponential."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any


class Counted(Mapping[str, Any]):
    """A mapping that counts how often it is read whole (its keys listed), in the class's ``reads``."""

    reads = 0

    def __init__(self, **members: Any) -> None:
        self._members = members

    def __getitem__(self, key: str) -> Any:
        return self._members[key]

    def __iter__(self) -> Iterator[str]:
        Counted.reads += 1
        return iter(self._members)

    def __len__(self) -> int:
        return len(self._members)


def counted_shared(levels: int) -> Counted:
    """``levels + 1`` counted mappings, each holding the one below twice: ``2**levels`` ways down, no cycle."""
    value = Counted()
    for _ in range(levels):
        value = Counted(left=value, right=value)
    return value
