"""Which instance a mock's call is about: the protocol never tells a provider an address or an object.

**Creates** (:class:`PlannedCreates`): the creates of the plan about to be applied, by address, tell a
mock which instance it applies.

The protocol never tells a provider a resource's address. The acceptance runner reads the plan
(``show -json``) before apply and hands it to each served mock; an ``ApplyResourceChange`` of a
create is then the planned create of that type whose planned values it has (a value unknown in
the plan matches any). When the candidates would get different defaults, the mock refuses
rather than guess (:class:`Indistinct`).

**Objects** (:class:`ObjectStore`): the objects one served mock holds (one test case), each resource
instance it applied under its own key.

Objects are not found by their ``id``: a constant ``id`` default gives every object of a type
the same one. The key travels in the protocol's private data instead: ``ApplyResourceChange``
returns it as ``private``, Terraform stores it with the object in the state and sends it back
(``ReadResource``'s ``private``, ``PlanResourceChange``'s ``prior_private``,
``ApplyResourceChange``'s ``planned_private``, that of a delete too), and
``ImportResourceState`` returns the key of the object it found. An object that arrives without
this mock's key (a state written elsewhere) is found by its ``id`` when exactly one object has
it, else by an equal value.

**Data source reads** (:class:`DataReads`): which data source a read is, its address learned from the
plans the runner hands over.

The protocol never tells a provider the address of a data source it reads, and Terraform reads
data sources while it plans, before any plan exists to name them. So the runner plans in passes:

1. A pass reads each data source whose configuration no plan placed yet *provisionally*, with the
   type's defaults, and remembers which state it answered for which configuration.
2. The plan of that pass (``show -json``) names every data source read at plan with the state it
   got (``prior_state``); the state leads back to the configuration, so each configuration gets
   its addresses. A read the plan defers to apply (its configuration is unknown) is listed with
   action ``read`` and the values it already knows.
3. When a read of the pass got other defaults than its configuration's addresses give, the runner
   plans again; the next pass reads with the defaults of the addresses. A chain (a data source
   whose configuration comes from another's address defaults) settles one link per pass.

A configuration that two addresses with different defaults share is :class:`Indistinct`: the
read is refused, never guessed. So is a read at apply that matches deferred reads with different
defaults, and a read no plan names (:class:`Unplanned`).
"""

from __future__ import annotations

import copy
import decimal
import functools
import json
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

from ..._frozen import FrozenValue, frozen
from .schema import Block
from .values import UNKNOWN, Holder, is_unknown, normalize_state, plain, plain_number, unset_single_nested

__all__ = [
    "Ambiguous",
    "DataReads",
    "Found",
    "Indistinct",
    "Keyed",
    "LockedState",
    "ObjectStore",
    "PlannedCreates",
    "Unplanned",
    "fingerprint",
    "same_values",
    "searchable",
]


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


class LockedState:
    """State that the server's threads share under ``self._lock``: pickled and copied without the lock, which
    cannot cross processes (pytest-xdist and multiprocessing ship a mock to their workers), a new one made for the copy.

    A copy, ``copy.copy`` as ``copy.deepcopy``, shares nothing with the original: shared state would change under
    two locks, and what one records would show on the other.

    >>> import copy
    >>> store = ObjectStore()
    >>> twin = copy.copy(store)
    >>> twin._lock is not store._lock, twin._token == store._token, twin._objects is not store._objects
    (True, True, True)
    """

    _lock: threading.Lock

    def _held(self) -> dict[str, Any]:
        """What a pickle or a copy holds: everything but the lock."""
        state = dict(vars(self))
        del state["_lock"]
        return state

    def __getstate__(self) -> dict[str, Any]:
        return self._held()

    def __setstate__(self, state: dict[str, Any]) -> None:
        vars(self).update(state)
        self._lock = threading.Lock()

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        # Not through __getstate__, which only a pickle needs: a copy stays in this process (a MockProvider's
        # default functions need no name pickle finds).
        twin = type(self).__new__(type(self))
        memo[id(self)] = twin  # what it holds may refer back to it (a mock's latest case, each call's scrub)
        twin.__setstate__(copy.deepcopy(self._held(), memo))
        return twin

    def __copy__(self) -> Any:
        return copy.deepcopy(self)


class PlannedCreates(LockedState):
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


class ObjectStore(LockedState):
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


@frozen
class Keyed(FrozenValue):
    """The defaults key a read gets (None: no defaults)."""

    key: str | None


Placed = Keyed | Indistinct | Unplanned
KeyOf = Callable[[str, str | None], str | None]


def fingerprint(holder: Holder, value: Any) -> str:
    """A plain value as text that depends on the value only: set elements sorted, numbers exact.

    Terraform keeps a set in its own order, which need not be the order the mock returned it in.

    >>> from .schema import read_provider_schema
    >>> doc = {"data_source_schemas": {"t": {"block": {"attributes": {
    ...     "tags": {"type": ["set", "string"], "optional": True}, "n": {"type": "number", "optional": True}}}}}}
    >>> block = read_provider_schema(doc, "a/b").data_sources["t"].block
    >>> fingerprint(block, {"tags": ["b", "a"], "n": 1}) == fingerprint(block, {"tags": ["a", "b"], "n": 1.0})
    True
    """
    return repr(_object(holder, value))


def _object(holder: Holder, value: Any) -> Any:
    if value is None or is_unknown(value) or value is UNKNOWN or not isinstance(value, Mapping):
        return _scalar(value)
    out = []
    for name, attribute in sorted(holder.attributes.items()):
        current = value.get(name)
        nested = attribute.nested
        if nested is not None:
            out.append((name, _collection(nested.mode, current, functools.partial(_object, nested))))
        else:
            out.append((name, _typed(attribute.type, current)))
    for name, block in sorted(holder.blocks.items()):
        out.append((name, _collection(block.mode, value.get(name), functools.partial(_object, block.block))))
    return ("object", tuple(out))


def _collection(mode: str, value: Any, each: Callable[[Any], Any]) -> Any:
    if value is None or is_unknown(value) or value is UNKNOWN:
        return _scalar(value)
    if mode in ("single", "group"):
        return each(value)
    if mode == "map" and isinstance(value, Mapping):
        return ("map", tuple(sorted((str(k), each(v)) for k, v in value.items())))
    if isinstance(value, list):
        items = [each(v) for v in value]
        return ("set", tuple(sorted(items, key=repr))) if mode == "set" else ("list", tuple(items))
    return _scalar(value)


def _typed(cty: Any, value: Any) -> Any:
    if value is None or is_unknown(value) or value is UNKNOWN or not isinstance(cty, list):
        return _scalar(value)
    kind, inner = cty[0], cty[1]
    if kind in ("list", "set") and isinstance(value, list):
        items = [_typed(inner, v) for v in value]
        return ("set", tuple(sorted(items, key=repr))) if kind == "set" else ("list", tuple(items))
    if kind == "map" and isinstance(value, Mapping):
        return ("map", tuple(sorted((str(k), _typed(inner, v)) for k, v in value.items())))
    if kind == "object" and isinstance(value, Mapping):
        return ("map", tuple(sorted((str(k), _typed(inner.get(k, "dynamic"), v)) for k, v in value.items())))
    if kind == "tuple" and isinstance(value, list):
        return ("list", tuple(_typed(sub, v) for sub, v in zip(inner, value, strict=False)))
    return _scalar(value)


def _scalar(value: Any) -> Any:
    if value is None:
        return ("null",)
    if value is UNKNOWN or is_unknown(value):
        return ("unknown",)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, (int, float, decimal.Decimal)):
        number = plain_number(value)
        return ("number", str(decimal.Decimal(repr(number) if isinstance(number, float) else number).normalize()))
    if isinstance(value, Mapping):
        return ("map", tuple(sorted((str(k), _scalar(v)) for k, v in value.items())))
    if isinstance(value, list):
        return ("list", tuple(_scalar(v) for v in value))
    return (type(value).__name__, value)


@dataclass
class _Deferred:
    address: str
    type_name: str
    after: Any
    unknown: Any


@frozen
class _Read(FrozenValue):
    type_name: str
    config: str
    key: str | None


def _data_sources(module: Any) -> Iterator[Mapping[str, Any]]:
    """Every data source of a ``prior_state`` module, its child modules' too."""
    pending = [module]
    while pending:
        current = pending.pop()
        if not isinstance(current, Mapping):
            continue
        for resource in current.get("resources") or ():
            if isinstance(resource, Mapping) and resource.get("mode") == "data":
                yield resource
        pending.extend(current.get("child_modules") or ())


def _ours(name: object, provider: str) -> bool:
    return name == provider or (isinstance(name, str) and name.endswith("/" + provider))


class DataReads(LockedState):
    """The data source reads of one served mock: which configuration is which address, told by the runner."""

    def __init__(self, blocks: Mapping[str, Block], provider: str) -> None:
        self._blocks = blocks
        self._provider = provider
        self._lock = threading.Lock()
        #: type -> fingerprint of a state the mock answered -> fingerprints of the configurations it answered it for.
        self._answered: dict[str, dict[str, set[str]]] = {}
        #: type -> configuration fingerprint -> addresses, from the latest plan told (None: none told yet).
        self._addresses: dict[str, dict[str, set[str]]] | None = None
        self._deferred: list[_Deferred] = []
        self._planning = False
        #: The map was told during the current planning: it describes this configuration, not an earlier one.
        self._fresh = False
        self._reads: list[_Read] = []
        #: The latest tell asked for another pass: the next plan continues this planning.
        self._again = False
        #: Configurations read provisionally that the plan told afterwards does not name: refused from then on.
        self._unplaced: set[tuple[str, str]] = set()
        #: (type, configuration) validated in the current plan before its ConfigureProvider: reads it may defer.
        self._validated: list[tuple[str, Any]] = []

    # -- the runner's side ------------------------------------------------------------------------

    def planning(self, active: bool) -> bool:
        """Begin (True) or end (False) one plan; ending, whether its reads need the plan to be checked (:meth:`tell`).

        A plan begun after a :meth:`tell` that asked for another is the next pass of the same planning.
        """
        with self._lock:
            if active:
                if not self._again:
                    self._fresh = False
                    self._unplaced = set()
                self._again = False
                self._reads = []
                self._validated = []
            self._planning = active
            return bool(self._reads)

    def validated(self, type_name: str, config: Any) -> None:
        """A data source configuration (decoded) the current plan validates before ConfigureProvider: the plan may
        read it, or defer the read to apply."""
        with self._lock:
            if self._planning:
                self._validated.append((type_name, config))

    def deferred_crash(self, terraform_version: str, stderr: str) -> str | None:
        """Why ``terraform_version`` crashed (``stderr``) planning the current plan: Terraform 1.0.0 to 1.0.4 panic
        planning a read they defer to apply (``objchange.PlannedDataResourceObject``) that leaves an optional
        single nested attribute unset, before they ask the provider anything; else None.

        >>> from .schema import read_provider_schema
        >>> doc = {"data_source_schemas": {"region": {"block": {"attributes": {"filter": {"optional": True,
        ...     "nested_type": {"nesting_mode": "single", "attributes": {"zone": {"type": "string", "required": True}}}}}}}}}
        >>> reads = DataReads({"region": read_provider_schema(doc, "a/b").data_sources["region"].block}, "a/b")
        >>> _ = reads.planning(True); reads.validated("region", {"filter": None})
        >>> print(reads.deferred_crash("1.0.3", "panic: ...\\nobjchange.PlannedDataResourceObject(...)"))
        Terraform 1.0.3 would panic planning data source region, a read deferred to apply: it leaves filter unset
        Terraform 1.0.0 to 1.0.4 panic planning an optional single nested attribute left unset (hashicorp/terraform#29388, fixed in Terraform 1.0.5): set filter, or use Terraform 1.0.5 or newer.
        """
        if "objchange.PlannedDataResourceObject" not in stderr:
            return None
        with self._lock:
            validated = list(self._validated)
        for type_name, config in validated:
            what = f"data source {type_name}, a read deferred to apply"
            crash = unset_single_nested(terraform_version, what, self._blocks[type_name], config)
            if crash is not None:
                return "\n".join(crash)
        return None

    def tell(self, document: Mapping[str, Any], key_of: KeyOf) -> bool:
        """Learn the addresses of a plan's data sources; True when a read of the pass got other defaults than
        its address gives (the plan must be made again)."""
        addresses: dict[str, dict[str, set[str]]] = {}
        deferred: list[_Deferred] = []
        prior = document.get("prior_state")
        values = prior.get("values") if isinstance(prior, Mapping) else None
        root = values.get("root_module") if isinstance(values, Mapping) else None
        with self._lock:
            for resource in _data_sources(root):
                type_name = str(resource.get("type"))
                block = self._blocks.get(type_name)
                if block is None or not _ours(resource.get("provider_name"), self._provider):
                    continue
                state = fingerprint(block, plain(block, normalize_state(block, resource.get("values"))))
                for config in self._answered.get(type_name, {}).get(state, ()):
                    addresses.setdefault(type_name, {}).setdefault(config, set()).add(str(resource.get("address")))
            for change in document.get("resource_changes") or ():
                body = change.get("change") if isinstance(change, Mapping) else None
                if not isinstance(body, Mapping) or change.get("mode") != "data" or "read" not in (body.get("actions") or ()):
                    continue
                if _ours(change.get("provider_name"), self._provider):
                    deferred.append(_Deferred(str(change.get("address")), str(change.get("type")), body.get("after"),
                                              body.get("after_unknown")))
            self._addresses, self._deferred = addresses, deferred
            if not self._reads:
                self._again = False
                return False
            self._fresh = True
            again = False
            for read in self._reads:
                placed = self._agree(read.type_name, addresses.get(read.type_name, {}).get(read.config), key_of)
                if placed is None:
                    self._unplaced.add((read.type_name, read.config))
                again = again or not (isinstance(placed, Keyed) and placed.key == read.key)
            self._reads = []
            self._again = again
            return again

    # -- the read's side --------------------------------------------------------------------------

    def place(self, type_name: str, config: str, value: Any, key_of: KeyOf) -> Placed:
        """The defaults key of a read of ``type_name`` with the configuration fingerprinted ``config`` (plain ``value``)."""
        with self._lock:
            told = self._addresses is not None
            known = (self._addresses or {}).get(type_name, {}).get(config)
            placed = self._agree(type_name, known, key_of)
            if not self._planning:
                found = placed if placed is not None else self._at_apply(type_name, config, value, key_of)
                return Unplanned(told=told) if found is None else found
            if self._fresh and (type_name, config) in self._unplaced:
                return Unplanned(told=True)
            if self._fresh and isinstance(placed, Indistinct):
                return placed
            if placed is None or isinstance(placed, Indistinct):
                # Provisional: the plan of this pass will say which address it is, and the runner plans again if
                # that address has other defaults. Never applied: a provisional read only ever reaches a plan.
                placed = Keyed(key_of(type_name, None))
            self._reads.append(_Read(type_name, config, placed.key))
            return placed

    def answered(self, type_name: str, config: str, state: str) -> None:
        """Remember that a read of ``config`` answered ``state`` (both fingerprints): a plan names a data source by its state."""
        with self._lock:
            self._answered.setdefault(type_name, {}).setdefault(state, set()).add(config)

    def _at_apply(self, type_name: str, config: str, value: Any, key_of: KeyOf) -> Keyed | Indistinct | None:
        """A read the plan deferred to apply: the deferred reads of the type whose known values it has."""
        found = sorted({d.address for d in self._deferred
                        if d.type_name == type_name and same_values(d.after, d.unknown, value)})
        placed = self._agree(type_name, set(found), key_of)
        if isinstance(placed, Keyed) and self._addresses is not None:
            # The plans after apply read it at plan, with this configuration: they find it here.
            self._addresses.setdefault(type_name, {}).setdefault(config, set()).update(found)
        return placed

    @staticmethod
    def _agree(type_name: str, addresses: Iterable[str] | None, key_of: KeyOf) -> Keyed | Indistinct | None:
        """The key every one of ``addresses`` gets, or the first two that differ; None without addresses."""
        ordered = sorted(addresses or ())
        if not ordered:
            return None
        first = key_of(type_name, ordered[0])
        for other in ordered[1:]:
            other_key = key_of(type_name, other)
            if other_key != first:
                return Indistinct(ordered[0], other, first, other_key)
        return Keyed(first)
