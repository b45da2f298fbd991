"""The StateCheck base class, :func:`assert_state`, and the lookups every state check shares.

A state check is a small frozen value, like a plan check: it holds what to look for,
never a state, and reports what it found through :meth:`StateCheck.failures`.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence

from tfjsonpath import Path

from .._checking.run import run_checks
from .._checks._base import quoted
from .._documents.plan import ResourceNotFound
from .._documents.resolve import ResolvedValue, resolve_value
from .._documents.state import State, StateOutput, StateResource
from .._errors import CheckFailure, StateCheckError
from .._frozen import FrozenValue

__all__ = ["StateCheck", "assert_state"]

# pytest hides this module's frames from tracebacks: failures point at the user's test line,
# and the library's locals (which may hold raw values) are never printed.
__tracebackhide__ = True


class StateCheck(FrozenValue, abc.ABC):
    """Base class of every state check: implement :meth:`failures`; :meth:`check_state` raises.

    Subclasses list their attributes in ``__slots__`` and ``_fields`` (constructor
    order; names in ``_keyword_fields`` are keyword-only and left out of the repr when
    None), set them once with :meth:`_set`, and get equality, hashing, pickling and a
    constructor-form repr from :class:`~plancheck._frozen.FrozenValue`.

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

    @abc.abstractmethod
    def failures(self, state: State) -> list[CheckFailure]:
        """Every way ``state`` fails this check, in a stable order (empty when it holds)."""

    def check_state(self, state: State) -> None:
        """Raise :class:`~plancheck.StateCheckError` listing every failure, if there is any."""
        found = self.failures(require_state(state, f"{type(self).__name__}.check_state"))
        if found:
            raise StateCheckError(found)


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
    run_checks(
        "assert_state",
        "state",
        require_state(state, "assert_state"),
        checks,
        StateCheck,
        StateCheckError,
        _hint,
    )


def _hint(check: object) -> str:
    from ._compare import CompareValue  # _compare builds on this module

    if isinstance(check, CompareValue):
        return "; a CompareValue collects values: pass collector.add_state_value(address, path)"
    return ""


# -- shared helpers ---------------------------------------------------------------------------


def require_state(state: object, where: str) -> State:
    """Return ``state`` if it is a State, else raise a TypeError that says how to get one."""
    if not isinstance(state, State):
        raise TypeError(
            f"{where} expects a plancheck.State (use load_state or State.from_dict), got {type(state).__name__}"
        )
    return state


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
