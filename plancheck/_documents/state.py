"""The state document model: ``terraform show -json`` of a state, indexed by full resource address.

Every resource of the root module and of every child module, at any depth, is indexed
by its full address (``module.a["x"].module.b.aws_instance.c[0]``), so looking one up
costs O(1). (Go's statecheck searches the root module's resources only.) Deposed
objects are indexed too, by address and deposed key.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cached_property
from typing import Any

from .._errors import ArgumentError, StateFormatError
from .._frozen import public
from .._loading import load as route
from .._loading.load import STATE, DocumentSource, Loaded
from .._loading.source import read_bytes
from .._redact import Secrets
from .._text import closest
from . import met as met_module
from .plan import (
    AddressIndex,
    DocumentSecrets,
    ResourceNotFoundError,
    pickled_document,
    refuse_repeats,
    unpickled_document,
)
from .sensitive import collect_state_secrets
from .views import StateOutput, StateResource, require_name

__all__ = ["State", "StateOutput", "StateResource", "StateSource", "load_state", "walk_modules"]

#: What ``load_state`` reads: the same sources as ``load_plan``.
StateSource = DocumentSource

_EMPTY: Mapping[str, Any] = {}


def walk_modules(root: Any) -> Iterator[tuple[str | None, Mapping[str, Any]]]:
    """Every resource with its module's address: the root module's, then each child module's, depth first.

    ``root`` is a ``root_module`` of a state's (or a plan's ``prior_state``'s) ``values``.

    >>> root = {"resources": [{"address": "a.b"}], "child_modules": [{"address": "module.m",
    ...     "resources": [{"address": "module.m.a.c"}]}]}
    >>> [(module, resource["address"]) for module, resource in walk_modules(root)]
    [(None, 'a.b'), ('module.m', 'module.m.a.c')]
    """
    for _, module in _modules(root):
        address = module.get("address")
        for resource in module.get("resources") or ():
            yield (address if isinstance(address, str) else None), resource


def _modules(root: Any, at: str = "$.values.root_module") -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Each module under ``root`` (itself first, then its children, depth first) with its JSON location: a stack,
    not recursion, since a hand-made document may nest modules deeper than Python recurses."""
    stack: list[tuple[str, Any]] = [(at, root)]
    while stack:
        at, module = stack.pop()
        if not isinstance(module, Mapping):
            continue
        yield at, module
        children = module.get("child_modules") or ()
        stack.extend(reversed([(f"{at}.child_modules[{i}]", child) for i, child in enumerate(children)]))


@public("plancheck")
class State:
    """A parsed, validated state (``terraform show -json`` of a state), indexed by full address.

    Build one with :func:`plancheck.load_state`, :meth:`State.from_json` or
    :meth:`State.from_dict` (which also reads a plan's ``prior_state``); the constructor, ``State(document)``,
    validates a parsed document as :meth:`from_dict` does (fast validation):

    >>> State({"format_version": "1.0", "values": {"root_module": {"resources": [{}]}}})
    Traceback (most recent call last):
    ...
    plancheck.StateFormatError: $.values.root_module.resources[0].address: expected a resource address string, found no "address" key

    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"child_modules": [
    ...     {"address": "module.m", "resources": [{"address": "module.m.null_resource.a", "values": {"id": "7"}}]}]}}})
    >>> state.resource("module.m.null_resource.a").values
    {'id': '7'}

    A state pickles as its document and its source, as a plan does (:class:`plancheck.Plan`), its secrets
    with it; its views (a resource, an output) do not pickle.

    >>> import pickle
    >>> pickle.loads(pickle.dumps(state)).resource("module.m.null_resource.a").values
    {'id': '7'}
    """

    # __weakref__: a front end keeps track of the states it has met without keeping them alive.
    __slots__ = ("__dict__", "__weakref__", "_index", "_resources", "_secrets_of", "raw", "source")
    raw: Mapping[str, Any]
    source: str | None

    def __init__(self, raw: Mapping[str, Any], *, source: str | None = None) -> None:
        # A parsed document: JSON text or None would fail inside the validator with a message about the wrong thing.
        if not isinstance(raw, Mapping):
            raise ArgumentError(f"State() takes a state document already parsed (a dict), got {type(raw).__name__}: "
                            "load one with plancheck.load_state, State.from_json or State.from_dict")
        self._setup(route.document(STATE, raw, source=source).raw, source)

    def _setup(self, raw: Mapping[str, Any], source: str | None) -> State:
        """Index the document and return the state: the constructor's work once the document is known sound,
        and each loader's, which validated it (an unpickled state's document was validated when first built)."""
        self.raw = raw
        self.source = source
        values = raw.get("values") or _EMPTY
        # Its resources know its secrets, not the state itself: see DocumentSecrets.
        self._secrets_of = secrets_of = DocumentSecrets(raw, collect_state_secrets)
        resources = tuple(StateResource._of(r, m, secrets_of) for m, r in walk_modules(values.get("root_module")))
        self._resources = resources
        self._index = AddressIndex((r.address, r.deposed) for r in resources)
        if len(self._index.positions) != len(resources):
            # Terraform's state holds one object per instance and deposed key (states.Resource keeps its instances
            # in a map by key, each its objects by deposed key); a second the index (first wins) would hide from
            # every check. Its size tells, and only then are the modules walked again, to say where both stand.
            where = [f"{at}.resources[{i}]" for at, module in _modules(values.get("root_module"))
                     for i in range(len(module.get("resources") or ()))]  # fmt: skip
            refuse_repeats(((r.address, r.deposed) for r in resources), where.__getitem__, self,
                           StateFormatError, source)
        if met_module.LISTENERS:  # a front end listening scrubs the secrets of every state made while it writes
            met_module.met(self)
        return self

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def from_json(
        cls, text: str | bytes, *, source: str | None = None, validation: str = "fast", parser: str = "auto"
    ) -> State:
        """Parse and validate a state from JSON text (str or bytes).

        >>> State.from_json('{"format_version": "1.0"}').resources
        ()
        """
        return cls._from_loaded(route.parse_text(STATE, text, source=source, validation=validation, parser=parser))

    @classmethod
    def from_dict(
        cls, document: Mapping[str, Any], *, source: str | None = None, validation: str = "fast"
    ) -> State:
        """Validate an already parsed state document (not copied, never modified), e.g. a plan's ``prior_state``.

        >>> State.from_dict({"format_version": "0.1", "terraform_version": "0.12.0"}).terraform_version
        '0.12.0'
        """
        return cls._from_loaded(route.document(STATE, document, source=source, validation=validation))

    @classmethod
    def _from_loaded(cls, loaded: Loaded) -> State:
        return cls.__new__(cls)._setup(loaded.raw, loaded.source)

    # -- envelope ----------------------------------------------------------------------------

    @property
    def format_version(self) -> str:
        """The state's ``format_version``, e.g. ``"1.0"``."""
        return str(self.raw.get("format_version", ""))

    @property
    def terraform_version(self) -> str | None:
        """The ``terraform_version`` that wrote the state, if recorded."""
        return self.raw.get("terraform_version")

    # -- outputs -----------------------------------------------------------------------------

    @cached_property
    def outputs(self) -> Mapping[str, StateOutput]:
        """Root module outputs by name."""
        values = self.raw.get("values") or _EMPTY
        return {name: StateOutput._of(name, out) for name, out in (values.get("outputs") or _EMPTY).items()}

    def output(self, name: str) -> StateOutput:
        """The output ``name``; raises ResourceNotFoundError naming the closest outputs.

        >>> State.from_dict({"format_version": "1.0", "values": {"outputs": {"ip": {"value": "10.0.0.1"}}}}).output("ip").value
        '10.0.0.1'
        """
        require_name("State.output", "an output name", name)
        outputs = self.outputs
        if name not in outputs:
            close = closest(name, list(outputs))
            raise ResourceNotFoundError(name, close, "the state's outputs", secrets=self.secrets, noun="output")
        return outputs[name]

    # -- resources ---------------------------------------------------------------------------

    @property
    def resources(self) -> tuple[StateResource, ...]:
        """Every resource object, root module first, then child modules depth first."""
        return self._resources

    def addresses(self) -> Iterator[str]:
        """The addresses of the current (non-deposed) objects, in document order."""
        return self._index.addresses()

    def has_resource(self, address: str, *, deposed: str | None = None) -> bool:
        """Whether the state has ``address`` (or its deposed object ``deposed``).

        >>> State.from_dict({"format_version": "1.0"}).has_resource("a.b")
        False
        """
        # As resource refuses them: an unhashable key was a bare TypeError from the index, another False.
        require_name("State.has_resource", "an address", address)
        if deposed is not None:
            require_name("State.has_resource", "a deposed key", deposed)
        return (address, deposed) in self._index.positions

    def resource(self, address: str, *, deposed: str | None = None) -> StateResource:
        """The resource at full ``address`` (O(1)); ``deposed`` selects a deposed object by its key.

        Raises :class:`ResourceNotFoundError` (a LookupError) naming the closest addresses present.

        >>> State.from_dict({"format_version": "1.0"}).resource("null_resource.a")
        Traceback (most recent call last):
        ...
        plancheck.ResourceNotFoundError: resource 'null_resource.a' is not in the state; the state has no similar address
        """
        require_name("State.resource", "an address", address)
        if deposed is not None:
            require_name("State.resource", "a deposed key", deposed)
        i = self._index.positions.get((address, deposed))
        if i is None:
            raise self._index.missing(address, deposed, "the state", self.secrets)
        return self._resources[i]

    # -- secrets -----------------------------------------------------------------------------

    @cached_property
    def secrets(self) -> Secrets:
        """Every secret string of this state (sensitive outputs and marked values), to scrub from messages.

        Collected on first real use, as a plan's are (:attr:`plancheck.Plan.secrets`).
        """
        return self._secrets_of.secrets

    def __repr__(self) -> str:
        src = f" {self.source}" if self.source else ""
        return f"<State{src} format_version={self.format_version!r} resources={len(self._resources)}>"

    def __reduce__(self) -> tuple[Any, ...]:
        # The default pickle would carry the index, whose read-only mapping does not pickle: the document is all
        # a state is made from.
        return (_reloaded_state, (type(self), pickled_document(self.raw, "State"), self.source))


def _reloaded_state(cls: type[State], document: bytes, source: str | None) -> State:
    """A pickled state back: its document, set up as the constructor sets one up, not validated again (the pickle
    came from a State, whose document was validated when it was built)."""
    return cls.__new__(cls)._setup(unpickled_document(document), source)


@public("plancheck")
def load_state(
    source: StateSource, *, validation: str = "fast", parser: str = "auto", max_bytes: int | None = None
) -> State:
    """Load a state from a path (str or PathLike; ``"-"`` is stdin), a file object, JSON bytes or a parsed dict.

    The same inputs and options as :func:`plancheck.load_plan` (a plan is refused: use load_plan).

    >>> load_state(b'{"format_version": "1.0", "values": {"outputs": {"a": {"value": 1, "sensitive": false}}}}').outputs["a"].value
    1
    """
    if isinstance(source, Mapping):
        return State.from_dict(source, validation=validation)
    data, name = read_bytes(source, STATE.error, STATE.noun, STATE.caller, max_bytes)
    box = [data]
    del data  # the box holds the only reference: a large state's bytes are freed once decoded
    return State._from_loaded(route.parse(STATE, box, name, validation, parser))
