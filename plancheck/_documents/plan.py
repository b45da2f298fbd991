"""The plan document model: a thin, read-only view over ``terraform show -json`` output.

The parsed document is kept as it is (never copied, never mutated); the model
adds an index by address, built once, so every lookup is O(1).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cached_property
from types import MappingProxyType
from typing import Any, final

from .._errors import PARTIAL_NOTE, ArgumentError, ErroredPlanError, TfCheckError
from .._frozen import ReadOnly, public
from .._loading import load as route
from .._loading.load import PLAN, DocumentSource, Loaded
from .._loading.source import read_bytes
from .._redact import NO_SECRETS, Secrets
from .._text import closest
from . import met as met_module
from .sensitive import (
    HasSecrets,
    collect_plan_secrets,
    shown_address,
)
from .views import (
    ActionInvocation,
    Change,
    DeferredActionInvocation,
    DeferredChange,
    DocumentView,
    NotPicklableError,
    OutputChange,
    ResourceChange,
    replace_step,
    require_name,
)

__all__ = [
    "ActionInvocation",
    "AddressIndex",
    "Change",
    "DeferredActionInvocation",
    "DeferredChange",
    "DocumentSecrets",
    "DocumentView",
    "NotPicklableError",
    "OutputChange",
    "Plan",
    "ResourceChange",
    "ResourceNotFoundError",
    "invocation_entries",
    "load_plan",
    "pickled_document",
    "refuse_repeats",
    "replace_step",
    "require_name",
    "unpickled_document",
]

_EMPTY: Mapping[str, Any] = {}


def pickled_document(raw: Mapping[str, Any], what: str) -> bytes:
    """``raw``, the document of a Plan or State (``what``), pickled apart for the document's own pickle, so that one
    pickle cannot write (a read-only mapping, nesting deeper than the pickler's recursion goes) is a
    :class:`NotPicklableError` saying so, not the pickler's own error from somewhere in the document."""
    import pickle  # here: no import pays for it (a plain session pickles nothing)

    try:
        return pickle.dumps(raw, pickle.HIGHEST_PROTOCOL)
    except RecursionError:
        raise NotPicklableError(what, "is nested deeper than pickle goes") from None
    except (TypeError, AttributeError, pickle.PicklingError):
        # from None: the pickler's error may quote a value of the document (an object's own __reduce__ raising).
        raise NotPicklableError(
            what, "holds a value that does not pickle (a dict, list, str, number, bool or None does)"
        ) from None


def unpickled_document(data: bytes) -> Any:
    """The document :func:`pickled_document` wrote."""
    import pickle

    return pickle.loads(data)


class DocumentSecrets(ReadOnly):
    """The secrets of a document (a plan's, a state's), collected by ``collect`` when first asked: what the
    document hands its entries as their ``document`` in place of itself.

    A plan keeps the entries it made (``resource_changes``, the selections), a state all of its resources; were
    they to refer to their document, every one dropped would be cyclic garbage, freed only by the cyclic
    collector, whose collections would also walk the parsed documents still alive. An entry kept after its
    document is dropped hides the same secrets, and keeps only the parsed document alive, as it kept the plan.

    >>> DocumentSecrets({"variables": {"pw": {"value": "hunter2"}},
    ...                  "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}}},
    ...                 collect_plan_secrets).secrets
    <Secrets: 1 values>
    """

    __slots__ = ("__dict__", "_collect", "_given", "raw")
    raw: Mapping[str, Any]
    _collect: Callable[[Mapping[str, Any]], Secrets]
    _given: Secrets | None

    def __init__(
        self, raw: Mapping[str, Any], collect: Callable[[Mapping[str, Any]], Secrets], given: Secrets | None = None
    ) -> None:
        self._set(raw=raw, _collect=collect, _given=given)

    @cached_property
    def secrets(self) -> Secrets:
        """Every secret string of the document (:attr:`Plan.secrets`, :attr:`State.secrets`), and those ``given``
        by whoever made it (:func:`plancheck.acceptance.mock_plan`: the ``Sensitive(...)`` values it planned with)."""
        found = self._collect(self.raw)
        return found if self._given is None else found | self._given


def invocation_entries(plan: Plan) -> list[dict[str, Any]]:
    """The plan's action invocations as ``tfplancheck query`` lists them: the address (as shown), the action
    ``invoke``, the trigger, and a deferred one's reason.

    >>> invocation_entries(Plan.from_dict({"format_version": "1.2", "deferred_action_invocations": [
    ...     {"reason": "absent_prereq", "action_invocation": {"address": "action.t.n", "invoke_action_trigger": {}}}]}))
    [{'address': 'action.t.n', 'actions': ['invoke'], 'trigger': 'Invoke', 'deferred': 'absent_prereq'}]
    """
    pairs: list[tuple[ActionInvocation, str | None]] = [(ai, None) for ai in plan.action_invocations]
    pairs.extend((d.action_invocation, d.reason) for d in plan.deferred_action_invocations)
    return [{"address": ai._shown_address(), "actions": ["invoke"], "trigger": ai.trigger_text,
             **({} if why is None else {"deferred": why})} for ai, why in pairs]


@public("plancheck")
class ResourceNotFoundError(TfCheckError, LookupError):
    """No resource change with this address; ``closest`` lists similar addresses present.

    Every field is as shown (:func:`shown_address` with ``secrets``, those of the document):
    the address asked for and the closest ones present, duplicates dropped.

    >>> str(ResourceNotFoundError("null_resource.b", ["null_resource.a"]))
    "resource 'null_resource.b' is not in the plan; closest: null_resource.a"
    >>> ResourceNotFoundError('a.b["pw-1235"]', ['a.b["pw-1234"]', 'a.b["pw-1236"]'], secrets=Secrets(["pw-1234", "pw-1236"])).closest
    ('a.b["(sensitive)"]',)
    """

    def __init__(
        self, address: str, closest: Sequence[str], where: str = "the plan", *, secrets: Secrets = NO_SECRETS,
        noun: str = "resource",
    ) -> None:
        self.address = shown_address(address, secrets)
        self.closest = tuple(dict.fromkeys(shown_address(a, secrets) for a in closest))
        self.where = secrets.scrub(where)
        #: What was looked for: "resource", or "output" (whose name is no address).
        self.noun = noun
        text = f"{noun} {self.address!r} is not in {self.where}"
        if self.closest:
            text += "; closest: " + ", ".join(self.closest)
        else:
            text += f"; {self.where} has no similar {'address' if noun == 'resource' else 'name'}"
        super().__init__(text)


def _object_key(entry: Any) -> tuple[Any, Any]:
    # The (address, deposed key) of a change entry; (None, None) for what is no entry (an unvalidated document's).
    return (entry.get("address"), entry.get("deposed")) if isinstance(entry, Mapping) else (None, None)


def refuse_repeats(
    keys: Iterable[tuple[Any, Any]], where: Callable[[int], str], secrets: Secrets | HasSecrets,
    error: Callable[..., TfCheckError], source: str | None,
) -> None:
    """Raise ``error`` at the first of ``keys`` (each object's ``(address, deposed key)``, in document order) that
    an earlier one gave already, naming both: ``where(i)`` is the JSON location of the ``i``-th entry.

    Terraform lists an object once in each of a plan's change lists and in a state; a document that lists one
    twice was put together by hand, and an index (first wins) would hide the second from every check.
    A key whose address is no string (an unvalidated document's entry without one) is passed over.
    Linear: one dict of the keys met.

    >>> from plancheck._errors import PlanFormatError
    >>> refuse_repeats([("a.b", None), ("a.b", "dead0001")], "$.x[{}]".format, NO_SECRETS, PlanFormatError, None)
    >>> refuse_repeats([("a.b", None), ("a.c", None), ("a.b", "")], "$.x[{}]".format, NO_SECRETS, PlanFormatError, "p.json")
    Traceback (most recent call last):
    plancheck.PlanFormatError: p.json: $.x[2].address: expected an address not given before, found "a.b" again (first at $.x[0])
    """
    met: dict[tuple[str, str | None], int] = {}
    for i, (address, deposed) in enumerate(keys):
        if not isinstance(address, str):
            continue
        # A deposed key is a non-empty str; anything else (None, "", the loader's UNSET) is the current object.
        deposed = deposed if isinstance(deposed, str) and deposed else None
        first = met.setdefault((address, deposed), i)
        if first != i:
            shown = json.dumps(shown_address(address, secrets), ensure_ascii=False)
            raise error(
                f"{where(i)}.address", "an address not given before",
                found=f"{shown}{f' (deposed {json.dumps(deposed)})' if deposed else ''} again "
                f"(first at {where(first)})", source=source,
            )  # fmt: skip


@final
class AddressIndex(ReadOnly):
    """Positions of a document's resource objects by ``(address, deposed key)``, built once; a lookup is the
    mapping's own: ``index.positions.get((address, deposed))``, the current object's key being ``(address, None)``.

    A plan's ``resource_changes`` and a state's resources are looked up the same way. If an
    object is listed twice (Terraform never does that), the first entry wins, as in a scan; a plan
    and a state refuse it (:class:`Plan` and the state compare the index's size with their entries').

    >>> index = AddressIndex([("a.b", None), ("a.b", "dead0001"), ("a.b", None)])
    >>> index.positions.get(("a.b", None)), index.positions.get(("a.b", "dead0001")), index.positions.get(("a.c", None))
    (0, 1, None)
    >>> list(index.addresses())
    ['a.b']
    >>> str(index.missing("a.c", None, "the plan"))
    "resource 'a.c' is not in the plan; closest: a.b"
    >>> print(AddressIndex([('a.b["pw-1234"]', None)]).missing('a.b["pw"]', None, "the plan", Secrets(["pw-1234"])))
    resource 'a.b["pw"]' is not in the plan; closest: a.b["(sensitive)"]
    """

    __slots__ = ("positions",)
    #: The position of each object, by ``(address, deposed key or None)``: read-only, as the view is.
    positions: Mapping[tuple[str, str | None], int]

    def __init__(self, keys: Iterable[tuple[str, Any]]) -> None:
        positions: dict[tuple[str, str | None], int] = {}
        # A deposed key is a non-empty str; anything else (None, "", the loader's UNSET) is the current object.
        for i, (address, deposed) in enumerate(keys):
            positions.setdefault((address, deposed if isinstance(deposed, str) and deposed else None), i)
        self._set(positions=MappingProxyType(positions))

    def addresses(self) -> Iterator[str]:
        """The addresses of the current (non-deposed) objects, in document order."""
        return (address for address, deposed in self.positions if deposed is None)

    def missing(
        self, address: str, deposed: str | None, where: str, secrets: Secrets = NO_SECRETS
    ) -> ResourceNotFoundError:
        """The error for a miss in ``where`` (e.g. ``"the plan"``), naming the closest addresses.

        ``secrets`` (the document's) hide what the addresses hold (:func:`shown_address`).
        """
        if deposed is not None:
            where = f"{where}'s deposed objects (key {deposed!r})"
        return ResourceNotFoundError(address, closest(address, list(self.addresses())), where, secrets=secrets)


@public("plancheck")
class Plan(ReadOnly):
    """A parsed, validated plan (``terraform show -json PLANFILE``), indexed by address.

    Build one with :func:`plancheck.load_plan`, :meth:`Plan.from_json` or :meth:`Plan.from_dict`; the
    constructor, ``Plan(document)``, validates a parsed document as :meth:`from_dict` does (fast validation),
    so a document that is no plan is a :class:`~plancheck.PlanFormatError` naming where:

    >>> Plan({"format_version": "1.2", "resource_changes": [{"change": {"actions": ["create"]}}]})
    Traceback (most recent call last):
    ...
    plancheck.PlanFormatError: $.resource_changes[0].address: expected a resource address string, found no "address" key

    A plan Terraform wrote although planning failed (``"errored": true``) is refused with an
    :class:`~plancheck.ErroredPlanError` by all of them (and by the constructor) unless
    ``allow_errored=True`` is passed; such a plan is :attr:`partial`, and every verdict on it says so.

    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [
    ...     {"address": "null_resource.a", "change": {"actions": ["create"]}}]})
    >>> plan.format_version, plan.resource_change("null_resource.a").actions
    ('1.2', ('create',))

    The envelope's members are read-only attributes, read once from the document:

    >>> plan.terraform_version, plan.complete, plan.errored, plan.applyable, plan.partial, plan.partial_note
    (None, None, None, None, False, None)

    A plan pickles as its document (read whole if it was parsed lazily), its source, whether it is partial and the
    directory it was planned in (when an acceptance test planned it), and comes back as the constructor builds it
    from them, planned in that directory. The pickle holds the document's secrets as the plan
    does: it is the plan's to keep, not a message's. Its views (a resource change, ...) do not pickle
    (:class:`NotPicklableError`): take them from the plan again.

    >>> import pickle
    >>> again = pickle.loads(pickle.dumps(plan))
    >>> again.raw == plan.raw, again.resource_change("null_resource.a").actions
    (True, ('create',))
    """

    # __weakref__: a front end keeps track of the plans it has met without keeping them alive. The envelope's
    # members are attributes set once by _setup (ReadOnly refuses them later), not properties: every verdict
    # asks for the partial note.
    __slots__ = (
        "__dict__",
        "__weakref__",
        "_entries",
        "_index",
        "_secrets_of",
        "applyable",
        "complete",
        "errored",
        "format_version",
        "partial",
        "partial_note",
        "raw",
        "source",
        "terraform_version",
    )
    raw: Mapping[str, Any]
    """The parsed document, as it was given (never copied, never modified)."""
    source: str | None
    """Where the plan was read from (a path), if known."""
    format_version: str
    """The plan's ``format_version``, e.g. ``"1.2"``."""
    terraform_version: str | None
    """The ``terraform_version`` that wrote the plan, if recorded."""
    complete: bool | None
    """``complete`` (Terraform 1.8+): False when some changes were deferred; None when absent."""
    errored: bool | None
    """``errored``: True when planning failed part way; None when absent."""
    applyable: bool | None
    """``applyable``: whether the plan can be applied; None when absent."""
    partial: bool
    """True for a plan Terraform wrote although planning failed (``"errored": true``), loaded with
    ``allow_errored=True``: it holds only what was planned before the error."""
    partial_note: str | None
    """What every verdict on this plan says about it: :data:`PARTIAL_NOTE` for a partial plan, else None."""
    _entries: Sequence[Any]
    _index: AddressIndex
    _secrets_of: DocumentSecrets

    def __init__(self, raw: Mapping[str, Any], *, source: str | None = None, allow_errored: bool = False) -> None:
        # A parsed document: JSON text or None would fail inside the validator with a message about the wrong thing.
        if not isinstance(raw, Mapping):
            raise ArgumentError(f"Plan() takes a plan document already parsed (a dict), got {type(raw).__name__}: "
                            "load one with plancheck.load_plan, Plan.from_json or Plan.from_dict")
        self._setup(route.document(PLAN, raw, source=source), allow_errored)

    def _setup(self, loaded: Loaded, allow_errored: bool) -> Plan:
        """Read the envelope and index the document: the ``resource_changes`` entries the loader split out (parsed
        on access) with their index keys, or, when it did not (``entries`` None), those of ``raw``; return the plan.

        The constructor sets itself up with it, and each loader (:func:`load_plan`, :meth:`from_json`,
        :meth:`from_dict`) a new plan with what it loaded: ``cls.__new__(cls)._setup(loaded, allow_errored)``. It
        does not validate: every caller did (an unpickled plan's document was validated when it was first built)."""
        raw, source, entries, keys = loaded.raw, loaded.source, loaded.entries, loaded.keys
        # The one place an errored plan is refused: every way to build a Plan (the loaders, the
        # constructor, and through them the CLI, the pytest plugin and the acceptance runner) ends here.
        if not isinstance(allow_errored, bool):
            raise ArgumentError(f"Plan: allow_errored must be a bool, got {type(allow_errored).__name__}")
        errored = raw.get("errored")
        if errored is True and not allow_errored:
            raise ErroredPlanError(source)
        if entries is None or keys is None:
            entries = raw.get("resource_changes") or ()
            keys = ((rc["address"], rc.get("deposed")) for rc in entries)
        complete, applyable = raw.get("complete"), raw.get("applyable")
        self._set(
            raw=raw,
            source=source,
            format_version=str(raw.get("format_version", "")),
            terraform_version=raw.get("terraform_version"),
            complete=complete if isinstance(complete, bool) else None,
            errored=errored if isinstance(errored, bool) else None,
            applyable=applyable if isinstance(applyable, bool) else None,
            partial=errored is True,
            partial_note=PARTIAL_NOTE if errored is True else None,
            _entries=entries,
            _index=AddressIndex(keys),
            _secrets_of=DocumentSecrets(raw, collect_plan_secrets),
        )
        if len(self._index.positions) != len(entries):
            # Terraform keeps one change per object (internal/plans: looked up and replaced by address and deposed
            # key; jsonplan sorts them by both), so two are a hand-edited or concatenated plan, whose second (a
            # delete behind a no-op) the index, where the first wins, would hide from every check. The index is a
            # dict already: its size tells, and only then are the entries read again, to name both.
            pairs = loaded.keys if loaded.keys is not None else [(rc["address"], rc.get("deposed")) for rc in entries]
            refuse_repeats(pairs, "$.resource_changes[{}]".format, self, PLAN.error, source)
        # Drift is one entry per object too (Terraform compares each object of the prior state with its refreshed
        # self), and a deferral one per instance (internal/plans/deferring keeps them in a map by address); both
        # are sorted by address and deposed key, as resource_changes is (jsonplan.MarshalResourceChanges and
        # MarshalDeferredResourceChanges). A second entry would be hidden behind the first by no index here, but
        # it tells a plan assembled by hand, which a gate must not read as Terraform's.
        # A document set up unvalidated (a pickle of a plan a subclass built) may hold an entry without an address,
        # which names nothing twice.
        drift = loaded.drift_keys if loaded.drift_keys is not None else raw.get("resource_drift")
        if drift:
            refuse_repeats(
                drift if loaded.drift_keys is not None else [_object_key(rc) for rc in drift],
                "$.resource_drift[{}]".format, self, PLAN.error, source,
            )
        deferred = raw.get("deferred_changes")
        if deferred:
            refuse_repeats([_object_key(d.get("resource_change") if isinstance(d, Mapping) else None) for d in deferred],
                           "$.deferred_changes[{}].resource_change".format, self, PLAN.error, source)
        if met_module.LISTENERS:  # a front end listening scrubs the secrets of every plan made while it writes
            met_module.met(self)
        return self

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def from_json(
        cls,
        text: str | bytes,
        *,
        source: str | None = None,
        validation: str = "fast",
        parser: str = "auto",
        allow_errored: bool = False,
    ) -> Plan:
        """Parse and validate a plan from JSON text (str or bytes); see :func:`plancheck.load_plan`.

        >>> Plan.from_json('{"format_version": "1.0"}').format_version
        '1.0'
        """
        loaded = route.parse_text(PLAN, text, source=source, validation=validation, parser=parser)
        return cls.__new__(cls)._setup(loaded, allow_errored)

    @classmethod
    def _from_bytes(
        cls,
        box: list[bytes | str],
        source: str | None,
        *,
        validation: str = "fast",
        parser: str = "auto",
        allow_errored: bool = False,
    ) -> Plan:
        """The plan whose JSON text a front end read (``box`` holds it, and the only reference to it, so a large
        plan's bytes are freed once decoded): :func:`load_plan`'s step from bytes to a plan, and the CLI's.

        >>> Plan._from_bytes([b'{"format_version": "1.2"}'], "p.json").source
        'p.json'
        """
        return cls.__new__(cls)._setup(route.parse(PLAN, box, source, validation, parser), allow_errored)

    @classmethod
    def from_dict(
        cls,
        document: Mapping[str, Any],
        *,
        source: str | None = None,
        validation: str = "fast",
        allow_errored: bool = False,
    ) -> Plan:
        """Validate an already parsed plan document (it is not copied and never modified).

        >>> Plan.from_dict({"format_version": "0.1"}).resource_changes
        ()
        >>> Plan.from_dict({"format_version": "1.2", "errored": True}, source="p.json")
        Traceback (most recent call last):
        ...
        plancheck.ErroredPlanError: p.json: $.errored: expected a plan whose planning succeeded, found true: planning failed, so the plan is partial (to check it anyway: allow_errored=True, tfplancheck --allow-errored or pytest --tf-allow-errored)
        >>> Plan.from_dict({"format_version": "1.2", "errored": True}, allow_errored=True).partial
        True
        """
        return cls.__new__(cls)._setup(route.document(PLAN, document, source=source, validation=validation), allow_errored)

    # -- envelope ----------------------------------------------------------------------------

    @property
    def variables(self) -> Mapping[str, Any]:
        """Input variables: name to value (``{"value": ...}`` unwrapped)."""
        raw = self.raw.get("variables") or _EMPTY
        return {name: (v.get("value") if isinstance(v, Mapping) else None) for name, v in raw.items()}

    # -- changes -----------------------------------------------------------------------------

    @cached_property
    def resource_changes(self) -> tuple[ResourceChange, ...]:
        """Every resource change, in document order."""
        entries = self._entries
        # Entries parsed on first use are parsed all at once here (one call, not one per entry).
        materialize = getattr(entries, "materialize", None)
        of, document = ResourceChange._of, self._secrets_of
        return tuple(of(rc, document) for rc in (materialize() if materialize is not None else entries))

    @cached_property
    def _selected(self) -> dict[Any, tuple[ResourceChange, ...]]:
        """The changes each selector selected (:meth:`plancheck.Resources.select`), kept: a selector check and test
        coverage (``pytest --tf-cov``, recording what the check addressed) select alike."""
        return {}

    @cached_property
    def resource_drift(self) -> tuple[ResourceChange, ...]:
        """Changes made outside Terraform since the last apply."""
        return tuple(ResourceChange._of(rc, self._secrets_of) for rc in self.raw.get("resource_drift") or ())

    @cached_property
    def output_changes(self) -> Mapping[str, OutputChange]:
        """Output changes by name."""
        return {name: OutputChange._of(name, ch) for name, ch in (self.raw.get("output_changes") or _EMPTY).items()}

    @cached_property
    def deferred_changes(self) -> tuple[DeferredChange, ...]:
        """Deferred changes (Terraform 1.9+ with deferrals enabled)."""
        return tuple(DeferredChange._of(d, self._secrets_of) for d in self.raw.get("deferred_changes") or ())

    @cached_property
    def action_invocations(self) -> tuple[ActionInvocation, ...]:
        """The actions the apply will invoke (Terraform 1.14+), in document order.

        >>> Plan.from_dict({"format_version": "1.2", "action_invocations": [
        ...     {"address": "action.t.n", "invoke_action_trigger": {}}]}).action_invocations
        (<ActionInvocation action.t.n Invoke>,)
        """
        return tuple(ActionInvocation._of(a, self._secrets_of) for a in self.raw.get("action_invocations") or ())

    @cached_property
    def deferred_action_invocations(self) -> tuple[DeferredActionInvocation, ...]:
        """Action invocations Terraform deferred (Terraform 1.14+ with deferrals enabled)."""
        of, document = DeferredActionInvocation._of, self._secrets_of
        return tuple(of(d, document) for d in self.raw.get("deferred_action_invocations") or ())

    @cached_property
    def configured_actions(self) -> tuple[Mapping[str, Any], ...]:
        """The ``action`` blocks of the configuration (Terraform 1.14+): ``configuration.root_module.actions``, then
        those of each module call, depth first; each as written (``address``, ``type``, ``name``,
        ``provider_config_key``, ``count_expression`` or ``for_each_expression``), its address relative to its module.

        >>> Plan.from_dict({"format_version": "1.2", "configuration": {"root_module": {
        ...     "actions": [{"address": "action.t.n", "type": "t", "name": "n"}],
        ...     "module_calls": {"m": {"module": {"actions": [{"address": "action.t.x"}]}}}}}}).configured_actions
        ({'address': 'action.t.n', 'type': 't', 'name': 'n'}, {'address': 'action.t.x'})
        """
        found: list[Mapping[str, Any]] = []
        config = self.raw.get("configuration")
        modules = [config.get("root_module") if isinstance(config, Mapping) else None]
        while modules:
            module = modules.pop(0)
            if not isinstance(module, Mapping):
                continue
            actions = module.get("actions")  # the schema leaves the configuration's members unchecked
            if isinstance(actions, list):
                found.extend(a for a in actions if isinstance(a, Mapping))
            calls = module.get("module_calls")
            if isinstance(calls, Mapping):
                modules[:0] = [c.get("module") for c in calls.values() if isinstance(c, Mapping)]
        return tuple(found)

    def action_invocations_of(self, address: str) -> tuple[ActionInvocation, ...]:
        """Every invocation of the action ``address`` (one per trigger), in document order; empty when none.

        >>> plan = Plan.from_dict({"format_version": "1.2", "action_invocations": [
        ...     {"address": "action.t.n", "lifecycle_action_trigger": {"triggering_resource_address": "a.b",
        ...      "action_trigger_event": "BeforeCreate"}}]})
        >>> plan.action_invocations_of("action.t.n")
        (<ActionInvocation action.t.n BeforeCreate of a.b>,)
        """
        return tuple(a for a in self.action_invocations if a.raw.get("address") == address)

    def addresses(self) -> Iterator[str]:
        """The addresses of the current (non-deposed) objects, in document order."""
        return self._index.addresses()

    def has_resource_change(self, address: str, *, deposed: str | None = None) -> bool:
        """Whether there is a change for ``address`` (or for its deposed object ``deposed``).

        >>> Plan.from_dict({"format_version": "1.0"}).has_resource_change("a.b")
        False
        """
        # As resource_change refuses them: an unhashable key was a bare TypeError from the index, another False.
        require_name("Plan.has_resource_change", "an address", address)
        if deposed is not None:
            require_name("Plan.has_resource_change", "a deposed key", deposed)
        return (address, deposed) in self._index.positions

    def resource_change(self, address: str, *, deposed: str | None = None) -> ResourceChange:
        """The change for ``address`` (O(1)); ``deposed`` selects a deposed object by its key.

        If the plan lists an address twice (Terraform never does), the first entry wins,
        as in Go's linear scan.

        Raises :class:`ResourceNotFoundError` (a LookupError) naming the closest addresses present.
        """
        require_name("Plan.resource_change", "an address", address)
        if deposed is not None:
            require_name("Plan.resource_change", "a deposed key", deposed)
        i = self._index.positions.get((address, deposed))
        if i is None:
            raise self._index.missing(address, deposed, "the plan", self.secrets)
        return ResourceChange._of(self._entries[i], self._secrets_of)

    def output_change(self, name: str) -> OutputChange:
        """The change of output ``name``; raises ResourceNotFoundError naming the closest outputs.

        >>> Plan.from_dict({"format_version": "1.0", "output_changes": {"ip": {"actions": ["create"]}}}).output_change("ip")
        <OutputChange ip actions=['create']>
        """
        require_name("Plan.output_change", "an output name", name)
        raw = self.raw.get("output_changes") or _EMPTY
        if name not in raw:
            close = closest(name, list(raw))
            raise ResourceNotFoundError(name, close, "the plan's output changes", secrets=self.secrets, noun="output")
        return OutputChange._of(name, raw[name])

    # -- secrets -----------------------------------------------------------------------------

    @cached_property
    def secrets(self) -> Secrets:
        """Every secret string known to this plan, to scrub from any message.

        Sensitive variables (per ``configuration``), sensitive outputs, and every
        string under a sensitive mark in resource and output changes, prior state and
        planned values. Collecting them reads the whole plan, so it happens when first
        asked, and only a failure (a message to scrub) asks: a check that passes never does.
        """
        return self._secrets_of.secrets

    def __repr__(self) -> str:
        src = f" {self.source}" if self.source else ""
        return f"<Plan{src} format_version={self.format_version!r} resource_changes={sum(1 for _ in self.addresses())}>"

    def __reduce__(self) -> tuple[Any, ...]:
        # The default pickle would carry the indexes (a read-only mapping does not pickle) and fill the slots by
        # setattr, which a read-only plan refuses: the document is all a plan is made from. And the directory it
        # was planned in, if known: test coverage (--tf-cov) files a plan loaded again under its module, not under
        # "(unknown directory)".
        document = pickled_document(self.raw, "Plan")
        return (_reloaded_plan, (type(self), document, self.source, self.partial, met_module.directory_of(self)))


def _reloaded_plan(cls: type[Plan], document: bytes, source: str | None, partial: bool, directory: Any = None) -> Plan:
    """A pickled plan back: its document, set up as the constructor sets one up, planned where it was.

    Not validated again: the pickle came from a Plan, whose document was validated (and refused a cycle) when it was
    built, and validating a large plan costs more than unpickling it. ``directory`` defaults to None: a pickle
    written before it was carried loads as it did."""
    plan = cls.__new__(cls)._setup(Loaded(unpickled_document(document), source), partial)
    met_module.planned_in(plan, directory)
    return plan


@public("plancheck")
def load_plan(
    source: DocumentSource,
    *,
    validation: str = "fast",
    parser: str = "auto",
    max_bytes: int | None = None,
    allow_errored: bool = False,
) -> Plan:
    """Load a plan from a path (str or PathLike; ``"-"`` is stdin), a file object, JSON bytes or a parsed dict.

    A ``str`` is always a path; use :meth:`Plan.from_json` for JSON text. ``validation``
    is ``"fast"`` (the compiled schema) or ``"full"`` (the ``jsonschema`` library; same
    verdicts, same errors, slower); ``parser`` is ``"auto"`` (msgspec when the ``fast``
    extra is installed), ``"stdlib"`` or ``"fast"``; every parser gives the same plan.
    A path or a stream is read up to ``max_bytes`` (default: ``PLANCHECK_MAX_BYTES``, else
    2 GiB); more is a PlanFormatError. A state is refused: use :func:`plancheck.load_state`.

    A plan Terraform wrote although planning failed (``"errored": true``) is refused with an
    :class:`~plancheck.ErroredPlanError` naming the file; ``allow_errored=True`` loads it, and
    the plan is then :attr:`Plan.partial` (every failure and ``assert_plan`` pass says so).

    >>> load_plan(b'{"format_version": "1.2", "resource_changes": []}').format_version
    '1.2'
    >>> load_plan(b'{"format_version": "1.2", "errored": true}', allow_errored=True).partial
    True

    A binary plan (``terraform plan -out``) is not JSON: :func:`plancheck.load_plan_file` reads it.

    >>> load_plan(b"PK\\x03\\x04 a saved plan")
    Traceback (most recent call last):
    ...
    plancheck.PlanFormatError: $: expected the JSON of `terraform show -json PLANFILE`, found a binary plan (terraform plan -out): load it with plancheck.load_plan_file, which runs terraform show -json for it
    """
    from .._errors import PlanFormatError

    if isinstance(source, Mapping):
        return Plan.from_dict(source, validation=validation, allow_errored=allow_errored)
    try:
        data, name = read_bytes(source, PlanFormatError, "plan", "load_plan", max_bytes)
        box = [data]
        del data  # the box holds the only reference: a large plan's bytes are freed once decoded
        return Plan._from_bytes(box, name, validation=validation, parser=parser, allow_errored=allow_errored)
    except PlanFormatError as exc:
        if isinstance(exc, ErroredPlanError) or not _binary_plan(source):
            raise
        raise PlanFormatError("$", "the JSON of `terraform show -json PLANFILE`", found=_BINARY_PLAN,
                              source=exc.source) from None


_BINARY_PLAN = ("a binary plan (terraform plan -out): load it with plancheck.load_plan_file, which runs "
                "terraform show -json for it")


def _binary_plan(source: DocumentSource) -> bool:
    """Whether ``source``, which the loader refused, is a saved plan (a zip archive): looked at only then.

    No zip is JSON, whatever the loader tripped on first (its encoding, its size). A stream has been
    read and is not read again: its error stays the loader's.
    """
    import os

    from .._loading.source import is_saved_plan

    if isinstance(source, (bytes, bytearray, memoryview)):
        return is_saved_plan(bytes(source[:4]))
    if isinstance(source, (str, os.PathLike)) and os.fspath(source) not in ("-", b"-"):
        try:
            with open(source, "rb") as f:
                return is_saved_plan(f.read(4))
        except (OSError, ValueError):  # the loader's error (a name the system cannot open) stays
            return False
    return False
