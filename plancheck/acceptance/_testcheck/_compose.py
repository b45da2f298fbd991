"""Go's ``ComposeTestCheckFunc`` and ``ComposeAggregateTestCheckFunc``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..._documents.state import State
from ..._frozen import public
from .._errors import TestDefinitionError
from ._check import CheckFunc
from ._errors import ComposedCheckError
from ._flatmap import FlatState

__all__ = ["ComposeAggregateTestCheckFunc", "ComposeTestCheckFunc"]

#: A check: called with the state, it raises an AssertionError (or returns an exception) to fail.
Check = Callable[[State], Any]


def _checked(where: str, fs: tuple[Any, ...]) -> tuple[Check, ...]:
    for i, f in enumerate(fs, 1):
        if not callable(f):
            raise TestDefinitionError(where, f"check {i}/{len(fs)}: expected a callable taking the state, got {type(f).__name__}")
    return fs


def _failure(f: Check, flat: FlatState) -> BaseException | None:
    """The failure of one check: what it raised (an AssertionError) or returned (an exception), or None."""
    try:
        # The library's checks share one flattened state; the caller's own functions get the State.
        result = f(flat) if isinstance(f, CheckFunc) else f(flat.state)
    except AssertionError as exc:
        return exc
    return result if isinstance(result, BaseException) else None


def _text(error: BaseException, flat: FlatState) -> str:
    # A caller's own check may have put a secret in its message.
    return flat.scrub(str(error) or type(error).__name__)


@public("plancheck.acceptance")
def ComposeTestCheckFunc(*fs: Check) -> CheckFunc:
    """Go's ``ComposeTestCheckFunc``: run the checks in order, stop at the first failure.

    The failure reads ``Check N/M error: ...``. A check fails by raising an ``AssertionError``
    (or returning an exception, as a Go check returns an error); any other exception propagates.

    >>> from plancheck import State
    >>> def fails(state):
    ...     raise AssertionError("boom")
    >>> ComposeTestCheckFunc(lambda state: None, fails, fails)(State.from_dict({"format_version": "1.0"}))
    Traceback (most recent call last):
    ...
    plancheck.acceptance.ComposedCheckError: Check 2/3 error: boom
    """
    checks = _checked("ComposeTestCheckFunc", fs)

    def run(flat: FlatState) -> None:
        for i, f in enumerate(checks, 1):
            error = _failure(f, flat)
            if error is not None:
                raise ComposedCheckError(len(checks), [(i, _text(error, flat))], [error]) from error

    return CheckFunc("ComposeTestCheckFunc", f"<{len(checks)} checks>", run)


@public("plancheck.acceptance")
def ComposeAggregateTestCheckFunc(*fs: Check) -> CheckFunc:
    """Go's ``ComposeAggregateTestCheckFunc``: run every check, report every failure, one per line.

    >>> from plancheck import State
    >>> def fails(state):
    ...     raise AssertionError("boom")
    >>> ComposeAggregateTestCheckFunc(fails, lambda state: None, fails)(State.from_dict({"format_version": "1.0"}))
    Traceback (most recent call last):
    ...
    plancheck.acceptance.ComposedCheckError: Check 1/3 error: boom
    Check 3/3 error: boom
    """
    checks = _checked("ComposeAggregateTestCheckFunc", fs)

    def run(flat: FlatState) -> None:
        failures: list[tuple[int, str]] = []
        errors: list[BaseException] = []
        for i, f in enumerate(checks, 1):
            error = _failure(f, flat)
            if error is not None:
                failures.append((i, _text(error, flat)))
                errors.append(error)
        if failures:
            raise ComposedCheckError(len(checks), failures, errors)

    return CheckFunc("ComposeAggregateTestCheckFunc", f"<{len(checks)} checks>", run)
