"""The creates of the plan about to be applied, by address: how a mock learns which instance it applies.

The protocol never tells a provider a resource's address. The acceptance runner reads the plan
(``show -json``) before apply and hands it to each served mock; an ``ApplyResourceChange`` of a
create is then the planned create of that type whose planned values it has (a value unknown in
the plan matches any). When the candidates would get different defaults, the mock refuses
rather than guess (:class:`Indistinct`).
"""

from __future__ import annotations

import decimal
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..._frozen import FrozenValue, frozen
from ._values import UNKNOWN

__all__ = ["Indistinct", "PlannedCreates", "Unplanned", "same_values"]


@frozen
class Indistinct(FrozenValue):
    """Two planned creates an apply request matches, whose defaults differ: their addresses and keys."""

    first: str
    second: str
    first_key: str | None
    second_key: str | None


@frozen
class Unplanned(FrozenValue):
    """An apply request no create of the plan matches (or no plan was told)."""

    told: bool


@dataclass
class _Create:
    address: str
    type_name: str
    after: Any
    unknown: Any
    claimed: bool = False


def _number(value: Any) -> decimal.Decimal | None:
    if isinstance(value, bool) or not isinstance(value, (int, float, decimal.Decimal, str)):
        return None
    try:
        return decimal.Decimal(repr(value) if isinstance(value, float) else value)
    except decimal.InvalidOperation:
        return None


def same_values(after: Any, unknown: Any, value: Any) -> bool:
    """Whether a plain value (:func:`plain`) can be the plan's ``after`` (``after_unknown`` marks wildcards).

    >>> same_values({"a": 1, "b": None}, {"b": True}, {"a": 1, "b": "x"}), same_values({"a": 1}, {}, {"a": 2})
    (True, False)
    """
    if unknown is True or value is UNKNOWN:
        return True
    if isinstance(after, Mapping) and isinstance(value, Mapping):
        marks = unknown if isinstance(unknown, Mapping) else {}
        return all(same_values(after.get(k), marks.get(k), value.get(k)) for k in set(after) | set(value))
    if isinstance(after, list) and isinstance(value, list):
        items = unknown if isinstance(unknown, list) else []
        return len(after) == len(value) and all(
            same_values(a, items[i] if i < len(items) else None, v) for i, (a, v) in enumerate(zip(after, value, strict=True))
        )
    if isinstance(after, bool) or isinstance(value, bool):
        return after is value
    left, right = _number(after), _number(value)
    if left is not None and right is not None and not isinstance(after, str) and not isinstance(value, str):
        return left == right
    return bool(after == value)


class PlannedCreates:
    """The planned creates of one provider, told by the runner before each apply."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._creates: list[_Create] | None = None

    def tell(self, document: Mapping[str, Any], provider: str) -> None:
        """Keep the managed creates ``provider`` (its full address) makes in a plan JSON document."""
        creates: list[_Create] = []
        for change in document.get("resource_changes") or ():
            if not isinstance(change, Mapping) or change.get("mode") != "managed":
                continue
            name = change.get("provider_name")
            body = change.get("change")
            if not isinstance(body, Mapping) or "create" not in (body.get("actions") or ()):
                continue
            if name != provider and not (isinstance(name, str) and name.endswith("/" + provider)):
                continue
            creates.append(_Create(str(change.get("address")), str(change.get("type")), body.get("after"),
                                   body.get("after_unknown")))
        with self._lock:
            self._creates = creates

    def claim(self, type_name: str, value: Any, key_of: Callable[[str], str | None]) -> str | Indistinct | Unplanned:
        """The address of the planned create an apply of ``value`` (plain) is, now claimed; or why there is none.

        Candidates whose defaults (``key_of(address)``) are the same stand for one another: any of
        them is claimed. Candidates with different defaults are :class:`Indistinct`.
        """
        with self._lock:
            if self._creates is None:
                return Unplanned(told=False)
            found = [c for c in self._creates
                     if not c.claimed and c.type_name == type_name and same_values(c.after, c.unknown, value)]
            if not found:
                return Unplanned(told=True)
            found.sort(key=lambda c: c.address)
            first_key = key_of(found[0].address)
            for other in found[1:]:
                other_key = key_of(other.address)
                if other_key != first_key:
                    return Indistinct(found[0].address, other.address, first_key, other_key)
            found[0].claimed = True
            return found[0].address
