"""The objects one served mock holds (one test case): each resource instance it applied, under its own key.

Objects are not found by their ``id``: a constant ``id`` default gives every object of a type
the same one. The key travels in the protocol's private data instead: ``ApplyResourceChange``
returns it as ``private``, Terraform stores it with the object in the state and sends it back
(``ReadResource``'s ``private``, ``PlanResourceChange``'s ``prior_private``,
``ApplyResourceChange``'s ``planned_private``, that of a delete too), and
``ImportResourceState`` returns the key of the object it found. An object that arrives without
this mock's key (a state written elsewhere) is found by its ``id`` when exactly one object has
it, else by an equal value.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Mapping
from typing import Any, Final

from ..._frozen import FrozenValue, frozen
from ._schema import Block

__all__ = ["Ambiguous", "Found", "ObjectStore", "searchable"]

#: The one field of the mock's private data (JSON, as the plugin SDKs write theirs).
_FIELD: Final = "tfplancheck_mock_object"


@frozen
class Found(FrozenValue):
    """An object an import id names, and its key."""

    key: str
    value: Any


@frozen
class Ambiguous(FrozenValue):
    """An import id several objects hold in the same attribute: which attribute, how many objects."""

    attribute: str
    count: int


def searchable(block: Block) -> list[str]:
    """The attributes an import id is looked up in, in order: ``id``, then the other top-level strings.

    Sensitive attributes never match: knowing a secret must not be a way to find (and show) the
    object that holds it.
    """
    names = [n for n, a in block.attributes.items() if a.type == "string" and not a.sensitive]
    return (["id"] if "id" in names else []) + [n for n in names if n != "id"]


class ObjectStore:
    """Objects by type, then key; keys are this store's own (a token of its own, then a serial number)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        # Another store's key (another test case's state) must never name one of this store's objects.
        self._token = os.urandom(6).hex()
        self._serial = 0
        self._objects: dict[str, dict[str, Any]] = {}

    def new_key(self) -> str:
        with self._lock:
            self._serial += 1
            return f"{self._token}/{self._serial}"

    def private(self, key: str) -> bytes:
        """The private data that carries ``key``."""
        return json.dumps({_FIELD: key}, separators=(",", ":")).encode()

    def key_in(self, private: bytes) -> str | None:
        """This store's key in some private data; None when it holds none (empty, foreign, or another store's)."""
        if not private:
            return None
        try:
            data = json.loads(private)
        except ValueError:
            return None
        key = data.get(_FIELD) if isinstance(data, dict) else None
        if isinstance(key, str) and key.startswith(self._token + "/"):
            return key
        return None

    def values(self, type_name: str) -> list[Any]:
        with self._lock:
            return list(self._objects.get(type_name, {}).values())

    def get(self, type_name: str, key: str) -> Any:
        with self._lock:
            return self._objects.get(type_name, {}).get(key)

    def put(self, type_name: str, key: str, value: Any) -> None:
        with self._lock:
            self._objects.setdefault(type_name, {})[key] = value

    def remove(self, type_name: str, key: str) -> None:
        with self._lock:
            self._objects.get(type_name, {}).pop(key, None)

    def locate(self, type_name: str, private: bytes, value: Any) -> tuple[str | None, bool]:
        """The key of the stored object a state object (``value`` with its ``private`` data) is, and
        whether it is the only candidate.

        With this store's key: that object, or None once it is gone (never another one). Without:
        the one object whose ``id`` is the value's, else the first stored object equal to the
        value (several equal objects cannot be told apart, so any stands for the others; the
        second item is then False).
        """
        key = self.key_in(private)
        with self._lock:
            objects = dict(self._objects.get(type_name, {}))
        if key is not None:
            return (key if key in objects else None), True
        if not isinstance(value, Mapping):
            return None, False
        identity = value.get("id")
        if isinstance(identity, str):
            same_id = [k for k, v in objects.items() if isinstance(v, Mapping) and v.get("id") == identity]
            if len(same_id) == 1:
                return same_id[0], True
            pool = same_id
        else:
            pool = list(objects)
        equal = [k for k in pool if objects[k] == value]
        return (equal[0] if equal else None), len(equal) == 1

    def find(self, type_name: str, block: Block, wanted: str) -> Found | Ambiguous | None:
        """The object an import id names: the one whose ``id`` is ``wanted``, else the one whose next
        attribute of :func:`searchable` holds it. Several objects holding it in the first attribute
        that matches any is :class:`Ambiguous`: a guess would import the wrong object silently."""
        with self._lock:
            objects = list(self._objects.get(type_name, {}).items())
        for name in searchable(block):
            matches = [(k, v) for k, v in objects if isinstance(v, Mapping) and v.get(name) == wanted]
            if len(matches) == 1:
                return Found(*matches[0])
            if matches:
                return Ambiguous(name, len(matches))
        return None
