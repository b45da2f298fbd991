"""Running many checks on one document and raising every failure at once: what every ``assert_*`` does."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar, cast

from .._errors import CheckFailedError, CheckFailure
from .warn import emit_warnings

__all__ = ["outcome_of", "run_checks"]

# pytest hides this module's frames from tracebacks: failures point at the user's test line,
# and the library's locals (which may hold raw values) are never printed.
__tracebackhide__ = True

_D = TypeVar("_D", contravariant=True)


class _Check(Protocol[_D]):
    def failures(self, document: _D, /) -> list[CheckFailure]: ...


def _no_hint(check: object) -> str:
    return ""


def outcome_of(check: _Check[_D], document: _D) -> tuple[list[CheckFailure], list[Warning]]:
    """A check's failures and warnings: ``check.outcome(document)`` where it has one, else its failures alone.

    ``outcome`` reports warnings without emitting them; ``failures`` of a check that warns emits them.

    >>> class Even:
    ...     def failures(self, n):
    ...         return [] if n % 2 == 0 else [CheckFailure("Even", None, None, f"{n} is odd")]
    >>> outcome_of(Even(), 2)
    ([], [])
    """
    outcome = getattr(check, "outcome", None)
    if outcome is not None:
        found, warned = outcome(document)
        return list(found), list(warned)
    return list(check.failures(document)), []


def run_checks(
    where: str,
    document_name: str,
    document: _D,
    checks: Sequence[object],
    kind: type,
    error: type[CheckFailedError],
    hint: Callable[[object], str] = _no_hint,
) -> None:
    """Check that every one of ``checks`` is a ``kind``, run them all, raise ``error`` listing every failure.

    A wrong argument is a TypeError naming ``where`` and its position, with ``hint(check)``
    added (a list gets the unpacking hint). Failures come in the order the checks were given.
    Warnings of the checks (:class:`~plancheck.PlanCheckWarning`) are emitted before any failure is raised.

    >>> from plancheck._errors import PlanCheckError
    >>> class Even:
    ...     def failures(self, n):
    ...         return [] if n % 2 == 0 else [CheckFailure("Even", None, None, f"{n} is odd")]
    >>> run_checks("assert_number", "n", 2, [Even()], Even, PlanCheckError)
    >>> run_checks("assert_number", "n", 3, [Even(), Even()], Even, PlanCheckError)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: 2 plan checks failed:
      1. Even: 3 is odd
      2. Even: 3 is odd
    >>> run_checks("assert_number", "n", 2, [[Even()]], Even, PlanCheckError)
    Traceback (most recent call last):
    ...
    TypeError: assert_number: check 1 must be a Even, got list; to pass a list of checks, unpack it: assert_number(n, *checks)
    """
    valid: list[_Check[_D]] = []
    for i, check in enumerate(checks):
        if isinstance(check, kind):
            # ``kind`` is the checks' base class (abstract, so it cannot be typed as type[_Check[_D]]).
            valid.append(cast("_Check[_D]", check))
        else:
            if isinstance(check, (list, tuple, set, frozenset)):
                extra = f"; to pass a list of checks, unpack it: {where}({document_name}, *checks)"
            else:
                extra = hint(check)
            raise TypeError(
                f"{where}: check {i + 1} must be a {kind.__name__}, got {type(check).__name__}{extra}"
            )
    found: list[CheckFailure] = []
    warned: list[Warning] = []
    for valid_check in valid:
        failures, warnings = outcome_of(valid_check, document)
        found.extend(failures)
        warned.extend(warnings)
    emit_warnings(warned)
    if found:
        raise error(found)
