"""``assert_state``: run many state checks on one state and report every failure at once.

It lives apart from the StateCheck base so that it may know every kind of state check
(a CompareValue collector passed by mistake gets a hint) without an import cycle.
"""

from __future__ import annotations

from .._checking.run import run_checks
from .._documents.state import State
from .._errors import StateCheckError
from .._frozen import public
from ._base import StateCheck, require_state
from ._compare import CompareValue

__all__ = ["assert_state"]

# pytest hides this module's frames from tracebacks: failures point at the user's test line,
# and the library's locals (which may hold raw values) are never printed.
__tracebackhide__ = True


@public("plancheck.statecheck")
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
    plancheck.StateCheckError: 2 state checks failed:
      1. ExpectKnownOutputValue: output.a: expected value "y" for StringExact check, got: "x"
      2. ExpectKnownOutputValue: output.b: expected null value for Null check, got: number; got 2
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
    if isinstance(check, CompareValue):
        return "; a CompareValue collects values: pass collector.add_state_value(address, path)"
    return ""
