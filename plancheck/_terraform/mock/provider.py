"""``MockProvider``: a provider served in the test process whose behaviour comes from a provider schema.

It answers the protocol itself (the ``plancheck_servicer`` hook of the provider server), working
from the schema document, with ``terraform test``'s mock rules: computed attributes the
configuration leaves null are unknown in the plan of a create and generated at apply (strings of
eight random lower-case letters and digits, numbers 0, bools false, collections empty, objects attribute by
attribute), unless a default says otherwise.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import field
from typing import Any, Final, Literal

from ..._frozen import FrozenValue, frozen, keyword_hints, public
from ..._redact import Secrets
from ..._text import exception_text, safe_repr, shortened
from .addresses import DefaultsKey, best_key, check_ties, parse_key
from .instances import (
    Ambiguous,
    DataReads,
    Indistinct,
    Keyed,
    LockedState,
    ObjectStore,
    PlannedCreates,
    Unplanned,
    fingerprint,
    searchable,
)
from .schema import (
    Block,
    MockSchemaError,
    ProviderSchema,
    TypeSchema,
    at_key,
    check_sendable,
    read_provider_schema,
    read_schema_file,
    schema_response,
    scrubbed,
)
from .values import (
    GENERATE,
    UNKNOWN,
    canonical,
    check_block_default,
    closest_names,
    conform,
    decode,
    encode,
    fill,
    has_unknown,
    loads,
    normalize_state,
    plain,
    plan_create,
    planned_action,
    redacted,
    seeded_rng,
    sensitive_strings,
    unset_single_nested,
)

__all__ = ["MockCall", "MockProvider"]

OverrideDuring = Literal["apply", "plan"]
_OVERRIDE_DURING: Final = ("apply", "plan")
#: A default: ``{attribute: value or callable(config) -> value}``, or ``callable(config) -> {attribute: value}``.
Defaults = Mapping[str, Any] | Callable[[dict[str, Any]], Mapping[str, Any]]


# Decorated after the dataclass is made: dataclass() looks annotations up in sys.modules[cls.__module__],
# and plancheck.acceptance need not be imported (the CLI's mock-plan does not import it).
@public("plancheck.acceptance")
@frozen
class MockCall(FrozenValue):
    """One RPC a :class:`MockProvider` answered: its protocol name, the type, the configuration (plain Python).

    ``action`` is what the mock did: ``"create"``, ``"update"`` or ``"delete"`` for
    ``PlanResourceChange`` and ``ApplyResourceChange``, and ``"no-op"`` for a
    ``PlanResourceChange`` whose planned state equals the prior state (Terraform then applies
    nothing); else ``""``. The repr shows sensitive attributes as ``(sensitive)``; ``config``
    itself holds the real values, for assertions.

    >>> MockCall("ApplyResourceChange", "cloud_bucket", {"name": "logs"}, "create")
    MockCall('ApplyResourceChange', 'cloud_bucket', {'name': 'logs'}, action='create')
    """


    rpc: str
    type_name: str
    config: Any
    action: str = ""
    _shown: Any = field(default=None, repr=False, compare=False)
    _scrub: Callable[[str], str] | None = field(default=None, repr=False, compare=False)

    def __repr__(self) -> str:
        # Never raises (a repr is what a failing assertion shows): a configuration that cannot be shown, or a
        # scrub that fails, shows as a placeholder naming the problem, never the unscrubbed text.
        shown = self.config if self._shown is None else self._shown
        action = f", action={safe_repr(self.action)}" if self.action else ""
        head = f"MockCall({safe_repr(self.rpc)}, {safe_repr(self.type_name)}, "
        body = safe_repr(shown)
        text = f"{head}{body}{action})"
        if self._scrub is None:
            return text
        # A sensitive value copied into another resource's plain attribute is scrubbed there too.
        try:
            return self._scrub(text)
        except Exception as exc:
            return f"MockCall(<not shown: scrubbing it raised {type(exc).__name__}>)"


def _defaults(
    given: Mapping[str, Defaults] | None, schemas: Mapping[str, TypeSchema], option: str, kind: str, address: str
) -> tuple[dict[str, Defaults], dict[str, DefaultsKey]]:
    """The defaults by key, checked against their type's schema, and each key parsed (ties refused)."""
    if given is None:
        return {}, {}
    if not isinstance(given, Mapping):
        raise MockSchemaError(option, f"expected a dict of {kind} -> defaults, got {type(given).__name__}")
    out: dict[str, Defaults] = {}
    keys: dict[str, DefaultsKey] = {}
    for text, values in given.items():
        if not isinstance(text, str):
            raise MockSchemaError(
                f"{option}[{shortened(safe_repr(text))}]", f"expected a {kind} or an address (str), got {type(text).__name__}"
            )
        key = parse_key(text, option, schemas, data=option == "mock_data", provider=address)
        where, type_name = at_key(option, text), key.type_name
        if callable(values):
            out[text] = values
        elif isinstance(values, Mapping):
            out[text] = check_block_default(schemas[type_name].block, values, where, type_name)
        else:
            raise MockSchemaError(
                where, f"expected a dict of attribute -> value or a function (config) -> dict, got {type(values).__name__}",
                type_name=type_name,
            )
        keys[text] = key
    check_ties(keys.values(), option)
    return out, keys


@public("plancheck.acceptance")
@keyword_hints()
class MockProvider(LockedState):
    """A provider for ``TestCase(providers={address: mock})`` that needs no cloud: its schema is all it knows.

    ``schema`` is the document ``terraform providers schema -json`` prints (as a dict), or one
    provider's entry of it; ``address`` the provider's address. Options:

    * ``seed``: generated values are reproducible. A data source read is a function of the seed, the
      type and the configuration: read again, it gives the same answer (so a step's plan after
      apply is empty). A resource object's values are made when it is applied, from the seed, the
      type, the configuration and how many times the case applied that configuration before
      (``count = 3`` makes three distinct objects), and kept: refresh reads them back;
    * ``mock_resources`` / ``mock_data``: ``{type: {attribute: value}}`` defaults for computed
      attributes (a value, or a function of the configuration dict), or ``{type: function}``
      returning such a dict. Under the name of a nested block (or of a nested attribute that is not
      computed) one object of such defaults applies to every object of it, as ``terraform test`` takes
      ``defaults = { disk = { uuid = "..." } }`` (a list there is refused, as it refuses it). A
      ``mock_resources`` key may also be an address or an address glob
      (``"cloud_bucket.logs"``, ``'module.a.cloud_bucket.x["b"]'``, ``"cloud_bucket.x[*]"``,
      ``"module.*.cloud_bucket.x"``: :class:`plancheck.Resources`' grammar); the most specific key
      wins (an instance address, a resource address, a glob with fewer wildcards, the type name),
      two keys that tie are refused. A create learns its address from the plan the runner reads
      before apply (matched by its planned values); identical instances whose defaults differ are
      refused with a diagnostic naming both, never guessed;
    * ``override_during``: ``"apply"`` (defaults appear at apply, like generated values) or
      ``"plan"`` (they are known in the plan already; a function whose configuration still holds
      unknown values at plan is called at apply instead, its attributes unknown until then).

    The provider's own configuration needs nothing: its schema is served with every argument optional
    and no block required, as ``terraform test``'s ``mock_provider`` does (a module without a provider
    block plans). Each test case gets a fresh mock (calling the object makes one). It keeps each resource
    instance it applied as its own object, under a key it returns as the protocol's private data;
    Terraform stores that with the object in the state and sends it back, so refresh reads that
    object, and an update or a destroy changes or removes that one, whatever ``id`` the defaults
    give (a constant ``id`` default gives every object the same one: they never overwrite each
    other). An object that comes without the key (a state written elsewhere) is the one with its
    ``id`` when exactly one has it, else one equal to it; when there is none, it is gone. Import
    looks the import id up in ``id``, then in the other top-level string attributes that are not
    sensitive, in schema order: the first attribute any object holds it in decides; one object
    there is imported (with its key), several are an error diagnostic saying how many and to
    import by another attribute, never a guess. A default function never sees an unknown value,
    and what it raises reaches Terraform with every sensitive value scrubbed. :attr:`calls`
    records every RPC, over all cases.

    A mock pickles (pytest-xdist and multiprocessing send it to their workers) and copies as all it holds: its
    definition, its calls, the latest case's objects and the secrets it scrubs from them, so a copy's reprs
    hide what the original's hide. A copy (``copy.copy`` as ``copy.deepcopy``) is a mock of its own: what
    one records after, the other does not see. A default function pickles as Python pickles a function, by
    its module and name: a ``lambda`` or a function defined inside another raises a
    :class:`MockNotPicklableError` naming the mock and the default; define it at a module's top level to send
    the mock to another process.

    >>> schema = {"resource_schemas": {"cloud_bucket": {"block": {"attributes": {
    ...     "name": {"type": "string", "required": True},
    ...     "arn": {"type": "string", "computed": True}}}}}}
    >>> mock = MockProvider(schema, "acme/cloud", mock_resources={"cloud_bucket": {"arn": "arn:bucket"}})
    >>> mock
    MockProvider('registry.terraform.io/acme/cloud', resources=['cloud_bucket'], data_sources=[])
    >>> mock.objects("cloud_bucket")  # nothing applied yet
    []
    >>> MockProvider(schema, "acme/cloud", mock_resources={"cloud_bucket.*": {}, "cloud_bucket.?": {}})
    Traceback (most recent call last):
    ...
    plancheck.acceptance.MockSchemaError: mock_resources["cloud_bucket.?"]: ties with mock_resources["cloud_bucket.*"]: both are address globs with 1 wildcard that can match the same address, so neither is more specific; make one of them narrower
    >>> MockProvider(schema, "acme/cloud", mock_resources={"cloud_bucket": {"anr": "x"}})
    Traceback (most recent call last):
    ...
    plancheck.acceptance.MockSchemaError: mock_resources["cloud_bucket"]["anr"]: cloud_bucket has no attribute anr; did you mean arn?
    """

    #: What an unknown value is in :attr:`calls` (a default function is only called with known values).
    UNKNOWN: Final = UNKNOWN

    def __init__(
        self,
        schema: Mapping[str, Any],
        address: str,
        *,
        seed: int | str = 0,
        mock_resources: Mapping[str, Defaults] | None = None,
        mock_data: Mapping[str, Defaults] | None = None,
        override_during: OverrideDuring = "apply",
    ) -> None:
        self.schema: ProviderSchema = read_provider_schema(schema, address)
        self.address = self.schema.address
        if isinstance(seed, bool) or not isinstance(seed, (int, str)):
            raise MockSchemaError("MockProvider.seed", f"expected an int or a str, got {type(seed).__name__}")
        if override_during not in _OVERRIDE_DURING:
            raise MockSchemaError(
                "MockProvider.override_during", f"expected 'apply' or 'plan', got {override_during!r}",
                suggestions=closest_names(str(override_during), list(_OVERRIDE_DURING)),
            )
        self.seed = seed
        self.override_during: OverrideDuring = override_during
        self._resource_defaults, self._resource_keys = _defaults(
            mock_resources, self.schema.resources, "mock_resources", "resource type", self.address
        )
        self._data_defaults, self._data_keys = _defaults(mock_data, self.schema.data_sources, "mock_data", "data source", self.address)
        self._lock = threading.Lock()
        self._calls: list[MockCall] = []
        self._latest: _MockInstance | None = None
        self._schema_cache: tuple[Any, Any] | None = None
        self._sensitive: set[str] = set()
        # The secrets of the cases the mock served (sensitive variables and outputs), as the runner handed them over:
        # joined when a scrub needs them (:meth:`_learned_secrets`), not at each handover (bench_case_secrets.py).
        self._learned: list[Secrets] = []
        # The sensitive values served and the secrets learned, as one scrub, built when a scrub first needs it after
        # a secret was learned (None until then): a module of 1,000 keys learns 1,000 secrets, and building the scrub
        # again at each made its creates quadratic (benchmarks/bench_mock_secrets.py).
        self._secrets: Secrets | None = Secrets()

    @classmethod
    def from_schema_file(
        cls, path: str | os.PathLike[str], address: str, *, max_bytes: int | None = None, **options: Any
    ) -> MockProvider:
        """A mock from a file holding ``terraform providers schema -json``'s output.

        The file is read up to ``max_bytes`` (default: ``PLANCHECK_MAX_BYTES``, else 2 GiB), as plans
        are: a larger file, or a device that never ends (``/dev/zero``), is refused after reading no more.

        >>> MockProvider.from_schema_file("/no/such/schema.json", "acme/cloud")
        Traceback (most recent call last):
        ...
        plancheck.acceptance.MockSchemaError: /no/such/schema.json: cannot read the schema: No such file or directory
        >>> MockProvider.from_schema_file("/dev/zero", "acme/cloud", max_bytes=1024)
        Traceback (most recent call last):
        ...
        plancheck.acceptance.MockSchemaError: /dev/zero: cannot read the schema: larger than 1024 bytes (raise the limit with max_bytes= or PLANCHECK_MAX_BYTES)
        """
        return cls(read_schema_file(path, max_bytes), address, **options)

    def __getstate__(self) -> dict[str, Any]:
        check_sendable(f"the mock of {self.address}", mock_resources=self._resource_defaults, mock_data=self._data_defaults)
        return self._held()

    def _held(self) -> dict[str, Any]:
        # The schema answer is a cache holding the protocol's generated module, which does not pickle; it is
        # built again on the first GetProviderSchema.
        return {**super()._held(), "_schema_cache": None}

    def __repr__(self) -> str:
        return (
            f"MockProvider({self.address!r}, resources={sorted(self.schema.resources)!r}, "
            f"data_sources={sorted(self.schema.data_sources)!r})"
        )

    def __call__(self) -> _MockInstance:
        """A fresh mock with nothing applied yet (the provider factory protocol: one per test case)."""
        instance = _MockInstance(self)
        with self._lock:
            self._latest = instance
        return instance

    def plancheck_servicer(self, modules: Any) -> Any:
        """Serve a fresh mock (so ``ProviderServer(address, mock)`` works too)."""
        return self().plancheck_servicer(modules)

    @property
    def calls(self) -> list[MockCall]:
        """Every RPC answered so far, oldest first (a copy)."""
        with self._lock:
            return list(self._calls)

    def objects(self, type_name: str) -> list[dict[str, Any]]:
        """The objects of ``type_name`` the latest mock holds (each one it created and has not destroyed, oldest
        first, however many share an id), as plain dicts."""
        with self._lock:
            latest = self._latest
        if latest is None:
            return []
        schema = self.schema.resources.get(type_name)
        if schema is None:
            raise MockSchemaError(
                "MockProvider.objects", f"{self.address} has no resource type {type_name}", type_name=type_name,
                suggestions=closest_names(type_name, list(self.schema.resources)),
            )
        return [plain(schema.block, value) for value in latest.stored(type_name)]

    def plancheck_secrets(self, secrets: Secrets | Iterable[str]) -> None:
        """Learn secrets to scrub from every repr of :attr:`calls` and from what the mock's errors say.

        The runner hands over each case's secrets (its :class:`Sensitive` variables, the sensitive
        values of its plans, states and outputs) as it finds them, so a secret placed in a plain
        attribute does not show in ``repr(mock.calls)``, with or without pytest.

        >>> from plancheck.acceptance import MockCall
        >>> mock = MockProvider({"resource_schemas": {}}, "acme/cloud")
        >>> mock.plancheck_secrets(["hunter2-pw"])
        >>> MockCall("ConfigureProvider", "", {"token": "hunter2-pw"}, "", None, mock._scrub)
        MockCall('ConfigureProvider', '', {'token': '(sensitive)'})
        """
        found = secrets if isinstance(secrets, Secrets) else Secrets(secrets)
        with self._lock:
            self._learned.append(found)
            self._secrets = None

    def _learned_secrets(self) -> Secrets:
        """Every secret learned, as one (the parts joined once, and kept joined); called holding the lock."""
        if len(self._learned) > 1:
            self._learned = [Secrets.union(self._learned)]
        return self._learned[0] if self._learned else Secrets()

    def _record(self, call: MockCall) -> None:
        with self._lock:
            self._calls.append(call)

    def _remember(self, block: Block, value: Any) -> None:
        """Keep the values of sensitive attributes (plain ``value``), to scrub them from every repr."""
        found = set(sensitive_strings(block, value)) - self._sensitive
        if found:
            with self._lock:
                self._sensitive |= found
                self._secrets = None

    def _scrub(self, text: str) -> str:
        with self._lock:
            secrets = self._secrets
            if secrets is None:
                secrets = self._secrets = Secrets(self._sensitive) | self._learned_secrets()
        return secrets.scrub(text)

    def _schema_response(self, pb: Any) -> Any:
        """The ``GetProviderSchema`` answer, built once: Terraform asks for it several times per command,
        and a schema the size of a cloud provider's takes a second to build."""
        with self._lock:
            if self._schema_cache is None or self._schema_cache[0] is not pb:
                self._schema_cache = (pb, schema_response(pb, self.schema))
            return self._schema_cache[1]

    def has_address_keys(self, type_name: str, *, data: bool = False) -> bool:
        """Whether some ``mock_resources`` (``mock_data``) key of ``type_name`` is an address (its defaults need the
        instance's address)."""
        keys = self._data_keys if data else self._resource_keys
        return any(k.pattern is not None and k.type_name == type_name for k in keys.values())

    def defaults_key(self, type_name: str, address: str | None, *, data: bool = False) -> str | None:
        """The ``mock_resources`` (``mock_data``) key whose defaults an instance gets (None: no defaults)."""
        key = best_key(self._data_keys if data else self._resource_keys, type_name, address)
        return None if key is None else key.text

    def data_key(self, type_name: str, address: str | None) -> str | None:
        """The ``mock_data`` key whose defaults the data source at ``address`` gets (None: no defaults)."""
        return self.defaults_key(type_name, address, data=True)

    def _address_attributes(self, type_name: str) -> set[str] | None:
        """The attributes some address key of ``type_name`` sets (None: unknown, a function gives them all)."""
        names: set[str] = set()
        for key in self._resource_keys.values():
            if key.pattern is None or key.type_name != type_name:
                continue
            given = self._resource_defaults[key.text]
            if callable(given):
                return None
            names.update(given)
        return names

    def _resolve(
        self, data: bool, type_name: str, block: Block, config: Any, *, at_plan: bool = False, address: str | None = None,
        key: Keyed | None = None,
    ) -> dict[str, Any]:
        """The defaults of one instance (of the most specific key for ``address``) for one configuration:
        callables called, results checked.

        At plan (``override_during="plan"``) a configuration that still holds unknown values
        leaves every function's attributes out (they stay unknown, and are computed at apply):
        a value computed from :data:`UNKNOWN` would not be the one apply makes. At apply
        everything is known, so a function never receives :data:`UNKNOWN` then. The plan never
        knows an instance's address, so an attribute an address key of the type sets is left
        unknown at plan too (apply gives it, by address). ``key`` gives the key itself instead of ``address``
        (a data source read placed by :class:`DataReads`).
        """
        option = "mock_data" if data else "mock_resources"
        keys = self._data_keys if data else self._resource_keys
        found = best_key(keys, type_name, address) if key is None else None if key.key is None else keys[key.key]
        if found is None:
            return {}
        given = (self._data_defaults if data else self._resource_defaults)[found.text]
        where = at_key(option, found.text)
        if at_plan and not data:
            overridden = self._address_attributes(type_name)
            if overridden is None:
                return {}
            return {n: v for n, v in self._called_defaults(given, where, type_name, block, config, at_plan).items()
                    if n not in overridden}
        return self._called_defaults(given, where, type_name, block, config, at_plan)

    def _called_defaults(
        self, given: Defaults, where: str, type_name: str, block: Block, config: Any, at_plan: bool
    ) -> dict[str, Any]:
        plain_config = plain(block, config)
        pending = has_unknown(plain_config)
        if pending and not at_plan:
            raise MockSchemaError(
                where, "the configuration still holds unknown values, so no default can be computed from it",
                type_name=type_name,
            )
        if callable(given):
            if pending:
                return {}
            result = _called(given, plain_config, where, type_name, None)
            if not isinstance(result, Mapping):
                raise MockSchemaError(
                    where, f"the function returned {type(result).__name__}, expected a dict of attribute -> value",
                    type_name=type_name,
                )
            given = check_block_default(block, result, where, type_name)
        out: dict[str, Any] = {}
        for name, value in given.items():
            if callable(value):
                if pending:
                    continue
                at = at_key(where, name)
                value = conform(
                    block.attributes[name].type, _called(value, plain_config, at, type_name, name), at,
                    attribute=name, type_name=type_name, missing=GENERATE, sensitive=block.attributes[name].sensitive,
                )
            out[name] = value
        return out


def _called(function: Callable[[Any], Any], config: Any, where: str, type_name: str, attribute: str | None) -> Any:
    """What a default function returns; what it raises becomes a :class:`MockSchemaError` saying which default."""
    try:
        return function(config)
    except Exception as exc:
        raise MockSchemaError(
            where, f"the default function raised {exception_text(exc)}", type_name=type_name, attribute=attribute
        ) from exc


_STATE_FIELDS: Final = ("config", "prior_state", "proposed_new_state", "planned_state", "current_state")


RPC = Callable[["_MockServicer", Any, Any], Any]
TypedRPC = Callable[["_MockServicer", Any, TypeSchema], Any]


def _scrubbing(method: RPC) -> RPC:
    """An RPC whose exceptions leave with the sensitive values scrubbed (the server shows them to Terraform).

    The values scrubbed are the ones the request's configuration and states hold under sensitive
    attributes, and every sensitive value the mock saw before. The original exception is not
    chained: its text and traceback are what would leak.
    """
    def rpc(self: _MockServicer, request: Any, context: Any) -> Any:
        try:
            return method(self, request, context)
        except Exception as exc:
            error = scrubbed(exc, self._secrets(request))
        raise error from None

    rpc.__name__ = method.__name__
    rpc.__qualname__ = method.__qualname__
    rpc.__doc__ = method.__doc__
    return rpc


def _of_type(data: bool) -> Callable[[TypedRPC], RPC]:
    """An RPC about one resource type (or data source, when ``data``), handed that type's schema.

    Every such RPC answers a type the schema does not list the same way: an error diagnostic naming
    the closest type, in the RPC's own response.
    """
    def decorate(method: TypedRPC) -> RPC:
        def rpc(self: _MockServicer, request: Any, context: Any) -> Any:
            schema = self._schema(data, request.type_name)
            if schema is None:
                response = getattr(self._pb, method.__name__).Response
                return response(diagnostics=self._unknown_type(data, request.type_name))
            return method(self, request, schema)

        rpc.__name__ = method.__name__
        rpc.__qualname__ = method.__qualname__
        rpc.__doc__ = method.__doc__
        return rpc

    return decorate


class _MockInstance(LockedState):
    """One served mock (one test case): the objects it applied (an :class:`ObjectStore`), and its generators."""

    def __init__(self, owner: MockProvider) -> None:
        self.owner = owner
        self.objects = ObjectStore()
        self.planned = PlannedCreates()
        self.data = DataReads({n: s.block for n, s in owner.schema.data_sources.items()}, owner.address)
        self._lock = threading.Lock()
        self._applied: dict[tuple[str, bytes], int] = {}
        self.terraform_version = ""  # as the current plan's ConfigureProvider tells it
        self.planning: bool | None = None  # whether a runner's plan is under way; None: no runner tells this mock

    def plancheck_servicer(self, modules: Any) -> _MockServicer:
        return _MockServicer(self, modules)

    def plancheck_secrets(self, secrets: Secrets | Iterable[str]) -> None:
        """The case's secrets, as the runner finds them: its mock learns them (see :meth:`MockProvider.plancheck_secrets`)."""
        self.owner.plancheck_secrets(secrets)

    def plancheck_planning(self, active: bool) -> bool:
        """The runner begins (True) or ends (False) a plan it hands over if asked: data source reads of types with
        address keys are provisional in it. Ending, True asks for the plan (:meth:`plancheck_plan`)."""
        # A version told before is another command's (an apply's, the last plan's): in the next command's validation,
        # which comes before its own ConfigureProvider, it refused a resource that command never plans (count = 0).
        self.terraform_version, self.planning = "", active
        return self.data.planning(active)

    def plancheck_crash(self, stderr: str) -> str | None:
        """Why Terraform crashed planning (its ``stderr``), when this mock knows: see :meth:`DataReads.deferred_crash`."""
        return self.data.deferred_crash(self.terraform_version, stderr)

    def plancheck_plan(self, document: Mapping[str, Any]) -> bool:
        """A plan (``show -json``): what maps each create, and each data source read, to its address.

        True when a data source read of that plan got other defaults than its address gives: plan again.
        """
        self.planned.tell(document, self.owner.address)
        return self.data.tell(document, self.owner.data_key)

    def stored(self, type_name: str) -> list[Any]:
        return self.objects.values(type_name)

    def resource_rng(self, type_name: str, config: Any) -> random.Random:
        """The generator for one apply of a resource: seeded by the seed, the type, the configuration and
        how many times this configuration was applied before (``count = 3`` makes three distinct objects)."""
        material = canonical(config)
        with self._lock:
            made = self._applied.get((type_name, material), 0)
            self._applied[(type_name, material)] = made + 1
        return seeded_rng(self.owner.seed, "resource", type_name, made, material)

    def data_rng(self, type_name: str, config: Any) -> random.Random:
        """The generator for one data source read: seeded by the seed, the type and the configuration only,
        so a read gives the same answer every time (a step's plan after apply reads it again)."""
        return seeded_rng(self.owner.seed, "data", type_name, 0, canonical(config))


class _MockServicer:
    """The protocol 6 provider service of one mock, answering from the schema."""

    def __init__(self, instance: _MockInstance, modules: Any) -> None:
        self._instance = instance
        self._owner = instance.owner
        self._pb = modules.pb
        self._msgpack: Any = importlib.import_module("msgpack")
        self._unknown = self._msgpack.ExtType(0, b"\x00")

    # -- helpers ------------------------------------------------------------------------------------

    def _decode(self, value: Any) -> Any:
        return decode(self._msgpack, value)

    def _encode(self, value: Any) -> Any:
        return self._pb.DynamicValue(msgpack=encode(self._msgpack, value))

    def _error(self, summary: str, detail: str = "") -> list[Any]:
        return [self._pb.Diagnostic(severity=self._pb.Diagnostic.ERROR, summary=summary, detail=detail)]

    def _schema(self, data: bool, type_name: str) -> TypeSchema | None:
        schemas = self._owner.schema.data_sources if data else self._owner.schema.resources
        return schemas.get(type_name)

    def _unknown_type(self, data: bool, type_name: str) -> list[Any]:
        schemas = self._owner.schema.data_sources if data else self._owner.schema.resources
        kind = "data source" if data else "resource type"
        hint = closest_names(type_name, list(schemas))
        return self._error(
            f"The mock of {self._owner.address} has no {kind} {type_name}",
            "Its schema document does not list it" + (f"; did you mean {hint[0]}?" if hint else "."),
        )

    def _secrets(self, request: Any) -> Secrets:
        """The sensitive values a request holds (by its type's schemas), with every one the mock saw before."""
        with self._owner._lock:
            found: set[str] = set(self._owner._sensitive)
            learned = self._owner._learned_secrets()
        type_name = getattr(request, "type_name", "")
        schemas = [s for s in (self._schema(False, type_name), self._schema(True, type_name)) if s is not None]
        if not type_name:
            schemas.append(self._owner.schema.provider)
        for name in _STATE_FIELDS:
            dynamic = getattr(request, name, None)
            if dynamic is None:
                continue
            try:
                value = self._decode(dynamic)
                for schema in schemas:
                    found.update(sensitive_strings(schema.block, plain(schema.block, value)))
            except Exception:
                continue  # a request that does not decode holds no value to hide
        return Secrets(found) | learned

    def _record(self, rpc: str, type_name: str, block: Block | None, config: Any, action: str = "") -> None:
        shown = None
        if block is not None:
            config = plain(block, config)
            shown = redacted(block, config)
            self._owner._remember(block, config)
        self._owner._record(MockCall(rpc, type_name, config, action, shown, self._owner._scrub))

    # -- provider -------------------------------------------------------------------------------------

    def GetMetadata(self, request: Any, context: Any) -> Any:
        pb = self._pb
        return pb.GetMetadata.Response(
            server_capabilities=pb.ServerCapabilities(plan_destroy=False),
            resources=[pb.GetMetadata.ResourceMetadata(type_name=n) for n in self._owner.schema.resources],
            data_sources=[pb.GetMetadata.DataSourceMetadata(type_name=n) for n in self._owner.schema.data_sources],
        )

    def GetProviderSchema(self, request: Any, context: Any) -> Any:
        self._record("GetProviderSchema", "", None, None)
        return self._owner._schema_response(self._pb)

    @_scrubbing
    def ValidateProviderConfig(self, request: Any, context: Any) -> Any:
        self._record("ValidateProviderConfig", "", self._owner.schema.provider.block, self._decode(request.config))
        return self._pb.ValidateProviderConfig.Response()

    @_scrubbing
    def ConfigureProvider(self, request: Any, context: Any) -> Any:
        self._record("ConfigureProvider", "", self._owner.schema.provider.block, self._decode(request.config))
        self._instance.terraform_version = request.terraform_version
        return self._pb.ConfigureProvider.Response()

    def StopProvider(self, request: Any, context: Any) -> Any:
        return self._pb.StopProvider.Response()

    # -- validation -----------------------------------------------------------------------------------

    @_scrubbing
    @_of_type(False)
    def ValidateResourceConfig(self, request: Any, schema: TypeSchema) -> Any:
        # Terraform validates a resource again after ConfigureProvider (which tells its version), just before it plans;
        # out of a runner's plans (the apply of a plan made, the post-test destroy, a validate) none is planned anew.
        version = self._instance.terraform_version if self._instance.planning is not False else ""
        return self._validate("ValidateResourceConfig", request, schema, version)

    @_scrubbing
    @_of_type(True)
    def ValidateDataResourceConfig(self, request: Any, schema: TypeSchema) -> Any:
        if not self._instance.terraform_version:  # before the plan's ConfigureProvider: a read it may defer
            self._instance.data.validated(request.type_name, self._decode(request.config))
        return self._validate("ValidateDataResourceConfig", request, schema)

    def _validate(self, rpc: str, request: Any, schema: TypeSchema, terraform_version: str = "") -> Any:
        """A type's configuration is valid when the type exists: the mock checks no values beyond their types, but
        refuses one ``terraform_version`` would panic planning (:func:`unset_single_nested`; a data source's is not
        checked: Terraform 1.0 panics on one only when it defers the read, and then validates nothing first, so
        its crash is explained afterwards, :meth:`_MockInstance.plancheck_crash`)."""
        config = self._decode(request.config)
        self._record(rpc, request.type_name, schema.block, config)
        crash = unset_single_nested(terraform_version, request.type_name, schema.block, config)
        return getattr(self._pb, rpc).Response(diagnostics=[] if crash is None else self._error(*crash))

    # -- resources ------------------------------------------------------------------------------------

    @_scrubbing
    @_of_type(False)
    def UpgradeResourceState(self, request: Any, schema: TypeSchema) -> Any:
        response = self._pb.UpgradeResourceState.Response
        if not request.raw_state.json:
            return response(diagnostics=self._error(
                f"The mock of {self._owner.address} cannot read a flatmap state of {request.type_name}",
                "States written by Terraform 0.11 and older are not supported.",
            ))
        state = normalize_state(schema.block, loads(request.raw_state.json))
        return response(upgraded_state=self._encode(state))

    @_scrubbing
    @_of_type(False)
    def PlanResourceChange(self, request: Any, schema: TypeSchema) -> Any:
        response = self._pb.PlanResourceChange.Response
        type_name = request.type_name
        block = schema.block
        prior = self._decode(request.prior_state)
        proposed = self._decode(request.proposed_new_state)
        config = self._decode(request.config)
        if proposed is not None and prior is None:
            known = None
            if self._owner.override_during == "plan":
                known = self._owner._resolve(False, type_name, block, config, at_plan=True)
            planned = plan_create(block, proposed, self._unknown, known)
        else:
            # Terraform's proposed new state already keeps the prior computed values the configuration leaves null.
            planned = proposed
        self._record("PlanResourceChange", type_name, block, config, planned_action(prior, planned))
        return response(planned_state=self._encode(planned), planned_private=request.prior_private)

    @_scrubbing
    @_of_type(False)
    def ApplyResourceChange(self, request: Any, schema: TypeSchema) -> Any:
        response = self._pb.ApplyResourceChange.Response
        type_name = request.type_name
        block, instance = schema.block, self._instance
        prior = self._decode(request.prior_state)
        planned = self._decode(request.planned_state)
        config = self._decode(request.config)
        action = "delete" if planned is None else "create" if prior is None else "update"
        self._record("ApplyResourceChange", type_name, block, config, action)
        key = None if prior is None else instance.objects.locate(type_name, request.planned_private, prior)[0]
        if planned is None:
            if key is not None:
                instance.objects.remove(type_name, key)
            return response(new_state=self._encode(None))
        address = None
        if prior is None and self._owner.has_address_keys(type_name):
            claimed = instance.planned.claim(
                type_name, plain(block, planned), lambda at: self._owner.defaults_key(type_name, at)
            )
            if not isinstance(claimed, str):
                return response(diagnostics=self._no_address(type_name, claimed))
            address = claimed
        given = self._owner._resolve(False, type_name, block, config, address=address)
        new = fill(block, planned, instance.resource_rng(type_name, config), given)
        if key is None:
            key = instance.objects.new_key()  # a create, or an update of an object this mock never held
        instance.objects.put(type_name, key, new)
        self._owner._remember(block, plain(block, new))
        return response(new_state=self._encode(new), private=instance.objects.private(key))

    @_scrubbing
    @_of_type(False)
    def ReadResource(self, request: Any, schema: TypeSchema) -> Any:
        response = self._pb.ReadResource.Response
        type_name = request.type_name
        current = self._decode(request.current_state)
        self._record("ReadResource", type_name, schema.block, current)
        objects = self._instance.objects
        key, only = objects.locate(type_name, request.private, current)
        if key is None:
            # Not applied by this mock (or removed since): gone, as a real provider would say.
            return response(new_state=self._encode(None), private=request.private)
        # An object found without its key gets it, unless several equal objects could be this one.
        private = objects.private(key) if only else request.private
        return response(new_state=self._encode(objects.get(type_name, key)), private=private)

    @_scrubbing
    @_of_type(False)
    def ImportResourceState(self, request: Any, schema: TypeSchema) -> Any:
        pb = self._pb
        response = pb.ImportResourceState.Response
        type_name = request.type_name
        self._record("ImportResourceState", type_name, None, {"id": request.id})
        found = self._instance.objects.find(type_name, schema.block, request.id)
        if isinstance(found, Ambiguous):
            return response(diagnostics=self._ambiguous(type_name, schema.block, found, request.id))
        if found is None:
            return response(diagnostics=self._error(
                f"Cannot import {type_name}: the mock of {self._owner.address} holds no object with that id",
                "A mock imports only the objects it applied in this test case.",
            ))
        imported = pb.ImportResourceState.ImportedResource(
            type_name=type_name, state=self._encode(found.value), private=self._instance.objects.private(found.key)
        )
        return response(imported_resources=[imported])

    def _no_address(self, type_name: str, why: Indistinct | Unplanned, *, data: bool = False) -> list[Any]:
        """The refusal of a create (a data source read) whose address decides its defaults but cannot be told:
        never a guess."""
        mock = f"The mock of {self._owner.address}"
        option_name = "mock_data" if data else "mock_resources"
        # A data source is found by its configuration (at plan) or by the values a deferred read knows (at apply).
        finds = (f"{mock} finds the address of a data source read by its configuration, and these two {type_name} "
                 "data sources are read with the same one" if data else
                 f"{mock} finds the address of a create by its planned values, and these two {type_name} instances "
                 "plan the same ones")
        if isinstance(why, Indistinct):
            def option(key: str | None) -> str:
                return "no defaults" if key is None else at_key(option_name, key)
            return self._error(
                self._owner._scrub(f"Cannot tell {why.first} from {why.second}: their defaults differ"),
                self._owner._scrub(
                    f"{finds}, while {why.first} gets {option(why.first_key)} and {why.second} gets "
                    f"{option(why.second_key)}. It will not guess which is which: give them configurations that differ, "
                    "or the same defaults."
                ),
            )
        verb, runner = ("read", "plans the acceptance runner and tfplancheck mock-plan read") if data else (
            "apply", "plan the acceptance runner reads before apply (TestCase steps)")
        if not why.told:
            return self._error(
                f"Cannot {verb} {type_name}: the mock of {self._owner.address} was not told the plan",
                f"{option_name} has address keys for this type; a mock learns the addresses of its "
                f"{'data sources' if data else 'creates'} from the {runner}, so these defaults need "
                f"{'one of them' if data else 'that runner'}.",
            )
        if data:
            return self._error(
                f"Cannot read {type_name}: no data source of the plan has this configuration",
                f"{mock} finds the address of a data source read by its configuration (a data source the plan read) "
                f"or by the values the plan knows of a read it defers to apply, and no {type_name} of the plan has "
                "them, so it cannot say which address (and so which mock_data key) applies.",
            )
        return self._error(
            f"Cannot apply {type_name}: no create of the plan has these values",
            f"{mock} finds the address of a create by its planned values, and no {type_name} the plan creates has "
            "them, so it cannot say which address (and so which mock_resources key) applies.",
        )

    def _ambiguous(self, type_name: str, block: Block, found: Ambiguous, wanted: str) -> list[Any]:
        """The refusal of an import id several objects hold: a guess would import the wrong one silently."""
        others = ", ".join(n for n in searchable(block) if n != found.attribute) or "none"
        why = " Their ids are equal (as a constant id default makes them), so the id names none of them." if found.attribute == "id" else ""
        shown = json.dumps(self._owner._scrub(wanted), ensure_ascii=False)  # scrubbed before quoting escapes it
        return self._error(
            f"Cannot import {type_name}: {found.count} objects of {type_name} have {found.attribute} {shown}",
            f"The mock of {self._owner.address} will not guess which of them to import.{why} Use as import id "
            f"a value only one of them holds: the mock finds an object by its id, else by a top-level string "
            f"attribute that is not sensitive (of {type_name}: {others}).",
        )

    # -- data sources ---------------------------------------------------------------------------------

    @_scrubbing
    @_of_type(True)
    def ReadDataSource(self, request: Any, schema: TypeSchema) -> Any:
        response = self._pb.ReadDataSource.Response
        type_name = request.type_name
        block = schema.block
        config = self._decode(request.config)
        self._record("ReadDataSource", type_name, block, config)
        placed, config_print = None, ""
        if self._owner.has_address_keys(type_name, data=True):
            plain_config = plain(block, config)
            config_print = fingerprint(block, plain_config)
            found = self._instance.data.place(type_name, config_print, plain_config, self._owner.data_key)
            if not isinstance(found, Keyed):
                return response(diagnostics=self._no_address(type_name, found, data=True))
            placed = found
        given = self._owner._resolve(True, type_name, block, config, key=placed)
        planned = plan_create(block, config, self._unknown)
        state = fill(block, planned, self._instance.data_rng(type_name, config), given)
        plain_state = plain(block, state)
        self._owner._remember(block, plain_state)
        if placed is not None:
            self._instance.data.answered(type_name, config_print, fingerprint(block, plain_state))
        return response(state=self._encode(state))

