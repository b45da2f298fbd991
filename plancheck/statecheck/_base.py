"""The StateCheck base class, :func:`assert_state`, and the lookups every state check shares.

A state check is a small frozen value, like a plan check: it holds what to look for,
never a state, and reports what it found through :meth:`StateCheck.failures`.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import Any, ClassVar

from tfjsonpath import Path

from .._checks._base import constructor_repr, quoted
from .._errors import CheckFailure, StateCheckError
from .._plan import ResourceNotFound
from .._redact import Secrets
from .._state import State, StateOutput, StateResource
from .._values import ResolvedValue, resolve_value

__all__ = ["StateCheck", "assert_state"]

# pytest hides this module's frames from tracebacks: failures point at the user's test line,
# and the library's locals (which may hold raw values) are never printed.
__tracebackhide__ = True


class StateCheck(abc.ABC):
    """Base class of every state check: implement :meth:`failures`; :meth:`check_state` raises.

    Subclasses list their attributes in ``__slots__`` and ``_fields`` (constructor
    order; names in ``_keyword_fields`` are keyword-only and left out of the repr when
    None), set them once with :meth:`_set`, and get equality, hashing, pickling and a
    constructor-form repr from here.

    >>> from plancheck import State
    >>> class ExpectFormat(StateCheck):
    ...     __slots__ = ()
    ...     def failures(self, state):
    ...         if state.format_version == "1.0":
    ...             return []
    ...         return [CheckFailure("ExpectFormat", None, None, f"format {state.format_version}")]
    >>> ExpectFormat().check_state(State.from_dict({"format_version": "0.1"}))
    Traceback (most recent call last):
    ...
    plancheck._errors.StateCheckError: ExpectFormat: format 0.1
    """

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    _keyword_fields: ClassVar[frozenset[str]] = frozenset()

    @abc.abstractmethod
    def failures(self, state: State) -> list[CheckFailure]:
        """Every way ``state`` fails this check, in a stable order (empty when it holds)."""

    def check_state(self, state: State) -> None:
        """Raise :class:`~plancheck.StateCheckError` listing every failure, if there is any."""
        found = self.failures(require_state(state, f"{type(self).__name__}.check_state"))
        if found:
            raise StateCheckError(found)

    # -- value semantics ------------------------------------------------------------------------

    def _set(self, **values: Any) -> None:
        """Set attributes once, from ``__init__``."""
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if type(other) is type(self):
            return self._values() == other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash((type(self), self._values()))

    def _args(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        args = tuple(getattr(self, n) for n in self._fields if n not in self._keyword_fields)
        kwargs = {n: getattr(self, n) for n in self._fields if n in self._keyword_fields}
        return args, kwargs

    def __repr__(self) -> str:
        args, kwargs = self._args()
        return constructor_repr(type(self).__name__, *args, **kwargs)

    def __reduce__(self) -> tuple[Any, ...]:
        args, kwargs = self._args()
        return (_rebuild, (type(self), args, kwargs))

    def __copy__(self) -> StateCheck:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> StateCheck:
        return self


def _rebuild(cls: type[StateCheck], args: tuple[Any, ...], kwargs: dict[str, Any]) -> StateCheck:
    return cls(*args, **kwargs)


def assert_state(state: State, *checks: StateCheck) -> None:
    """Run every check on ``state``; raise one :class:`~plancheck.StateCheckError` listing every failure.

    Failures come in the order the checks were given (each check orders its own).

    >>> from plancheck import State, knownvalue as kv
    >>> from plancheck.statecheck import ExpectKnownOutputValue
    >>> state = State.from_dict({"format_version": "1.0", "values": {"outputs": {
    ...     "a": {"value": "x", "type": "string"}, "b": {"value": 2, "type": "number"}}}})
    >>> assert_state(state, ExpectKnownOutputValue("a", kv.StringExact("x")))
    >>> assert_state(state, ExpectKnownOutputValue("a", kv.StringExact("y")), ExpectKnownOutputValue("b", kv.Null()))
    Traceback (most recent call last):
    ...
    plancheck._errors.StateCheckError: 2 state checks failed:
      1. ExpectKnownOutputValue: output.a: expected value "y" for StringExact check, got: "x"
      2. ExpectKnownOutputValue: output.b: expected null value for Null check, got: number
    """
    require_state(state, "assert_state")
    for i, check in enumerate(checks):
        if not isinstance(check, StateCheck):
            hint = ""
            if isinstance(check, (list, tuple, set, frozenset)):
                hint = "; to pass a list of checks, unpack it: assert_state(state, *checks)"
            elif isinstance(check, _collector_type()):
                hint = "; a CompareValue collects values: pass collector.add_state_value(address, path)"
            raise TypeError(
                f"assert_state: check {i + 1} must be a StateCheck, got {type(check).__name__}{hint}"
            )
    found: list[CheckFailure] = []
    for check in checks:
        found.extend(check.failures(state))
    if found:
        raise StateCheckError(found)


def _collector_type() -> type:
    from ._compare import CompareValue  # _compare builds on this module

    return CompareValue


# -- shared helpers ---------------------------------------------------------------------------


def require_state(state: object, where: str) -> State:
    """Return ``state`` if it is a State, else raise a TypeError that says how to get one."""
    if not isinstance(state, State):
        raise TypeError(
            f"{where} expects a plancheck.State (use load_state or State.from_dict), got {type(state).__name__}"
        )
    return state


def state_failure(
    secrets: Secrets, check: str, address: str | None, path: Path | None, message: str
) -> CheckFailure:
    """A CheckFailure with every secret scrubbed out of its message and address."""
    if address is not None:
        address = secrets.scrub(address)
    return CheckFailure(check, address, path, secrets.scrub(message))


def _closest(closest: Sequence[str], what: str) -> str:
    if closest:
        return "; closest: " + ", ".join(closest)
    return f"; the state has no similar {what}"


def find_state_resource(state: State, address: str, deposed: str | None) -> StateResource | str:
    """The resource object at full ``address`` (in any module), or the reason it is missing."""
    try:
        return state.resource(address, deposed=deposed)
    except ResourceNotFound as exc:
        missing = exc
    if deposed is not None and state.has_resource(address):
        keys = sorted(r.deposed for r in state.resources if r.address == address and r.deposed is not None)
        text = f"deposed object {quoted(deposed)} not found in state"
        if keys:
            return text + "; its deposed objects: " + ", ".join(quoted(k) for k in keys)
        return text + "; the resource has no deposed objects"
    if not state.resources:
        return "resource not found in state; the state has no resources"
    return "resource not found in state" + _closest(missing.closest, "address")


def find_state_output(state: State, name: str) -> StateOutput | str:
    """The root module output ``name``, or the reason it is missing."""
    try:
        return state.output(name)
    except ResourceNotFound as exc:
        if not state.outputs:
            return "output not found in state; the state has no outputs"
        return "output not found in state" + _closest(exc.closest, "output name")


def resolve_resource(resource: StateResource, path: Path) -> ResolvedValue:
    """The value at ``path`` of a state resource, with its sensitive marks (a state has no unknowns)."""
    return resolve_value(resource.values, None, resource.sensitive_values, path)


def resolve_output(output: StateOutput, path: Path) -> ResolvedValue:
    """The value at ``path`` inside a state output; a sensitive output is sensitive as a whole."""
    return resolve_value(output.value, None, True if output.sensitive else None, path)


def output_address(name: str) -> str:
    """The address a failure about output ``name`` carries: ``output.<name>``."""
    return f"output.{name}"


def located(address: str, path: Path) -> str:
    """An address and a path as one text, as Go prints them: ``test_resource.one.list[0]``."""
    text = path.to_text()
    if not text:
        return address
    return address + (text if text.startswith("[") else "." + text)
