"""The StateCheck base class and the lookups every state check shares.

A state check is a small frozen value, like a plan check: it holds what to look for,
never a state, and reports what it found through :meth:`StateCheck.failures`.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import Any, Final

from tfjsonpath import Path

from .._checking.fields import guard_documents, require_document
from .._checking.messages import closest_text, given_by, quote, scrubbed_failure
from .._checking.run import as_shown
from .._documents.plan import ResourceNotFoundError
from .._documents.resolve import ResolvedValue, resolve_value
from .._documents.state import State, StateOutput, StateResource
from .._errors import CheckFailure, StateCheckError
from .._frozen import FrozenValue, frozen, public

__all__ = ["StateCheck"]

#: What a state check runs on, and how to get one: said when something else is passed.
A_STATE: Final = "a plancheck.State (use load_state or State.from_dict)"

# pytest hides this module's frames from tracebacks: failures point at the user's test line,
# and the library's locals (which may hold raw values) are never printed.
__tracebackhide__ = True


@public("plancheck.statecheck")
@frozen
class StateCheck(FrozenValue, abc.ABC):
    """Base class of every state check (Go's ``statecheck.StateCheck``): implement :meth:`failures`; :meth:`CheckState` raises.

    **Writing your own check**: make it a frozen dataclass that subclasses ``StateCheck`` and
    implement :meth:`failures`, building each failure with :meth:`failure` so that no secret of
    the state shows. It runs in :func:`~plancheck.statecheck.assert_state` and in acceptance
    steps (``ConfigStateChecks``).

    >>> from dataclasses import dataclass
    >>> from plancheck import State
    >>> @dataclass(frozen=True)
    ... class ExpectResources(StateCheck):
    ...     count: int
    ...     def failures(self, state):
    ...         found = len(state.resources)
    ...         return [] if found == self.count else [self.failure(state, f"{found} resources, not {self.count}")]
    >>> ExpectResources(1).CheckState(State.from_dict({"format_version": "1.0"}))
    Traceback (most recent call last):
    ...
    plancheck.StateCheckError: ExpectResources: 0 resources, not 1
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Named: the class ``@frozen`` built with slots is not the one a bare super() would find.
        super(StateCheck, cls).__init_subclass__(**kwargs)  # noqa: UP008 (see above)
        # Given something else than a State (a dict, a Plan), a check says so, as CheckState does.
        guard_documents(cls, State, A_STATE, "failures")

    @abc.abstractmethod
    def failures(self, state: State) -> list[CheckFailure]:
        """Every way ``state`` fails this check, in a stable order (empty when it holds).

        Given anything but a :class:`~plancheck.State`, it raises an ArgumentError (a TypeError) saying how to get one.
        """

    def CheckState(self, state: State) -> None:  # Go's name, kept for line-by-line ports
        """Raise :class:`~plancheck.StateCheckError` listing every failure, if there is any."""
        checked = require_state(state, f"{type(self).__name__}.CheckState")
        with given_by(self):
            found = self.failures(checked)
        if found:
            raise StateCheckError(as_shown(self, checked, found))

    def failure(self, state: State, message: str, *, address: str | None = None, path: Path | None = None) -> CheckFailure:
        """A failure of this check on ``state``, named after the check's class, with every secret of the state scrubbed."""
        return scrubbed_failure(state.secrets, type(self).__name__, address, path, message)


# -- shared helpers ---------------------------------------------------------------------------


def require_state(state: object, where: str) -> State:
    """Return ``state`` if it is a State, else raise an ArgumentError (a TypeError) that says how to get one."""
    return require_document(state, State, where, A_STATE)


def find_state_resource(state: State, address: str, deposed: str | None) -> StateResource | str:
    """The resource object at full ``address`` (in any module), or the reason it is missing."""
    try:
        return state.resource(address, deposed=deposed)
    except ResourceNotFoundError as exc:
        missing = exc
    if deposed is not None and state.has_resource(address):
        keys = sorted(r.deposed for r in state.resources if r.address == address and r.deposed is not None)
        text = f"deposed object {quote(deposed)} not found in state"
        if keys:
            return text + "; its deposed objects: " + ", ".join(quote(k) for k in keys)
        return text + "; the resource has no deposed objects"
    return _not_in_state("resource", bool(state.resources), missing.closest, "address")


def find_state_output(state: State, name: str) -> StateOutput | str:
    """The root module output ``name``, or the reason it is missing."""
    try:
        return state.output(name)
    except ResourceNotFoundError as exc:
        return _not_in_state("output", bool(state.outputs), exc.closest, "output name")


def _not_in_state(what: str, any_there: bool, closest: Sequence[str], named_by: str) -> str:
    """Why the state has no such ``what``: it has none at all, or these are the closest (by ``named_by``)."""
    if not any_there:
        return f"{what} not found in state; the state has no {what}s"
    return f"{what} not found in state" + closest_text(closest, named_by, "state")


def resolve_resource(resource: StateResource, path: Path) -> ResolvedValue:
    """The value at ``path`` of a state resource, with its sensitive marks (a state has no unknowns)."""
    return resolve_value(resource.values, None, resource.sensitive_values, path)


def resolve_output(output: StateOutput, path: Path) -> ResolvedValue:
    """The value at ``path`` inside a state output; a sensitive output is sensitive as a whole."""
    return resolve_value(output.value, None, True if output.sensitive else None, path)
