"""Running checks on one document and collecting every failure: the one runner behind every front end.

``run_checks`` is what every ``assert_*`` does (raise every failure at once); :func:`run_each` is
the loop under it, which the command line (one result per check, a check that breaks is an
``error``, not a traceback) and the acceptance runner (duck-typed ``CheckPlan(plan)`` checks)
call too, so running, collecting, ordering and scrubbing exist once.

The warnings of checks that pass only because something is not known until apply are emitted here
too (:func:`emit_warnings`): a warning names the line of the user's code that ran the check (the
first frame outside plancheck), so pytest's warnings summary and Python's own report point at the
test, not at the library.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import traceback
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import field
from typing import Any, Protocol, TypeVar, cast

from .._documents.met import WATCHERS, checked
from .._documents.sensitive import HasSecrets, secrets_of
from .._errors import ArgumentError, CheckFailedError, CheckFailure, PlanCheckWarning, TfCheckError
from .._frozen import FrozenValue, frozen
from .._redact import Secrets
from .._text import exception_message, exception_text
from .messages import RUNNING_CHECK, given_by, scrubbed_record

__all__ = [
    "CheckOutcome",
    "as_shown",
    "as_warned",
    "by_method",
    "emit_warnings",
    "listed",
    "outcome_of",
    "run_checks",
    "run_each",
]


# pytest hides this module's frames from tracebacks: failures point at the user's test line,
# and the library's locals (which may hold raw values) are never printed.
__tracebackhide__ = True

_D = TypeVar("_D", contravariant=True)

#: How a check is run on a document: its failures (a CheckFailure, or a text the runner labels) and warnings.
Runner = Callable[[Any, Any], tuple[Iterable[object], Iterable[Warning]]]
#: What a failure without its own record is labelled with: (check, address, path), as in a CheckFailure.
Label = Callable[[Any], tuple[str, str | None, Any]]


class _Check(Protocol[_D]):
    def failures(self, document: _D, /) -> list[CheckFailure]: ...


def _no_hint(check: object) -> str:
    return ""


def _type_label(check: object) -> tuple[str, str | None, Any]:
    return type(check).__name__, None, None


def listed(items: Any, check: object, method: str) -> list[Any]:
    """What a check's ``method`` returned, as a list; a text, a mapping or no iterable at all is the check's bug.

    ``list("oops")`` would be four failures, one a letter: a check that returns a message instead of a list
    of them is told so, by name, through the boundary every front end has (a failure of that check).

    >>> listed((), "c", "failures")
    []
    >>> listed("no tag", object(), "failures")
    Traceback (most recent call last):
    ...
    TypeError: object.failures() returned a value of type str; it returns a list of failures (an empty list when the check holds)
    """
    if isinstance(items, (str, bytes, bytearray, Mapping)) or not isinstance(items, Iterable):
        raise TypeError(
            f"{type(check).__name__}.{method}() returned "
            f"{'None' if items is None else f'a value of type {type(items).__name__}'}; "
            "it returns a list of failures (an empty list when the check holds)"
        )
    return list(items)


def outcome_of(check: _Check[_D], document: _D) -> tuple[list[CheckFailure], list[Warning]]:
    """A check's failures and warnings: ``check.outcome(document)`` where it has one, else its failures alone.

    ``outcome`` reports warnings without emitting them; ``failures`` of a check that warns emits them.

    >>> class Even:
    ...     def failures(self, n):
    ...         return [] if n % 2 == 0 else [CheckFailure("Even", None, None, f"{n} is odd")]
    >>> outcome_of(Even(), 2)
    ([], [])
    """
    slot = RUNNING_CHECK.get()
    if slot is None:  # not inside run_each, which sets the slot once for all its checks
        with given_by(check):
            return outcome_of(check, document)
    previous, slot[0] = slot[0], check  # as given_by(check), inline: this runs for every check
    try:
        outcome = getattr(check, "outcome", None)
        if outcome is not None:
            found, warned = outcome(document)
        else:
            found, warned = check.failures(document), ()
        # A list (what every check of the library returns) needs no checking; anything else is told apart.
        return (found if type(found) is list else listed(found, check, "failures")), list(warned)
    finally:
        slot[0] = previous


def by_method(name: str) -> Runner:
    """A runner for duck-typed checks: ``check.<name>(document)``, whose returned and raised failures are collected.

    A :class:`~plancheck.CheckFailedError` gives its failures; any other AssertionError one failure, its text.

    >>> class Odd:
    ...     def check_number(self, n):
    ...         assert n % 2, f"{n} is even"
    >>> by_method("check_number")(Odd(), 4)
    (['4 is even'], [])
    """

    def run(check: Any, document: Any) -> tuple[list[object], list[Warning]]:
        try:
            # ``CheckPlan`` returns None; ``failures`` returns its failures (and may raise as well).
            with given_by(check):
                returned = getattr(check, name)(document)
        except CheckFailedError as exc:
            return list(exc.failures), []
        except AssertionError as exc:
            return [exception_message(exc) or "check failed"], []
        return listed(() if returned is None else returned, check, name), []

    return run


@frozen
class CheckOutcome(FrozenValue):
    """What one check gave: ``status`` (``pass``, ``fail``, or ``error``: it could not run), its failures and warnings.

    ``warnings`` are the warnings as records (what a front end prints); ``raised`` the Warning
    objects themselves (what ``run_checks`` emits); ``error`` what the check raised (status ``error``).

    >>> CheckOutcome("a check", "pass").ok
    True
    """

    check: Any
    status: str
    failures: tuple[CheckFailure, ...] = ()
    warnings: tuple[CheckFailure, ...] = ()
    raised: tuple[Warning, ...] = ()
    error: BaseException | None = field(default=None, compare=False, repr=False)

    @property
    def ok(self) -> bool:
        """True when the check passed."""
        return self.status == "pass"


#: How ``run_each`` scrubs what it shows: a function, secrets, or a document whose secrets are asked for then.
Scrub = Callable[[str], str] | Secrets | HasSecrets | None


def _shown(item: object, check: object, label: Label, scrub: Scrub, document: object = None) -> CheckFailure:
    """What ``check`` gave (a failure, a failure's text, a warning) as the record shown: a text labelled with
    ``label(check)``, scrubbed by ``scrub``.

    Secrets trust what the failure trusts (:attr:`~plancheck.CheckFailure.trusted`). A user's check (one not
    defined in plancheck) may build its failure itself, its address and path included, with no scrub at all: what
    it gave is scrubbed with ``scrub``'s secrets, or, with no scrub, with ``document``'s (:func:`scrubbed_record`).
    """
    record = getattr(item, "record", None) if isinstance(item, Warning) else item
    if not isinstance(record, CheckFailure):
        record = CheckFailure(*label(check), str(item))
    if not callable(scrub) and type(check).__module__.partition(".")[0] != "plancheck":
        source = document if scrub is None else scrub
        if scrub is not None or isinstance(getattr(source, "secrets", None), Secrets):
            return scrubbed_record(secrets_of(cast("Secrets | HasSecrets", source)), record)
    if scrub is None:
        return record
    if callable(scrub):
        return dataclasses.replace(record, message=scrub(record.message))
    # A document's secrets are collected now, for a record to show.
    return dataclasses.replace(record, message=secrets_of(scrub).trusting(record.trust).scrub(record.message))


def as_shown(check: object, document: object, found: Iterable[object]) -> list[CheckFailure]:
    """What ``check`` gave on ``document`` as :func:`run_each` shows it (for Go's ``CheckPlan``, ``CheckState``,
    ``CheckQuery``, called on the check itself): a user's check's failures scrubbed of the document's secrets.

    >>> class Even:
    ...     def failures(self, n):
    ...         return [CheckFailure("Even", None, None, f"{n} is odd")]
    >>> [str(f) for f in as_shown(Even(), 3, Even().failures(3))]
    ['Even: 3 is odd']
    """
    return [_shown(item, check, _type_label, None, document) for item in found]


def as_warned(check: object, document: object, raised: Iterable[Warning]) -> list[Warning]:
    """The warnings ``check`` gave on ``document`` to emit: each as raised, or, where what it shows is scrubbed (a
    user's check's own, :func:`as_shown`), a warning of its kind saying that.

    >>> [str(w) for w in as_warned(object(), None, [UserWarning("1 of 2 unknown")])]
    ['1 of 2 unknown']
    """
    warned: list[Warning] = []
    for item in raised:
        record = getattr(item, "record", None)
        shown = _shown(item, check, _type_label, None, document)
        if shown is record or (record is None and shown.message == str(item)):
            warned.append(item)
        elif isinstance(item, PlanCheckWarning):
            warned.append(type(item).of(shown))
        else:  # a text the runner labelled: its message, as the check gave it
            warned.append(_warning_of(type(item), shown.message))
    return warned


def _warning_of(kind: type[Warning], text: str) -> Warning:
    """A warning of ``kind`` saying ``text``; a UserWarning when ``kind`` is built otherwise."""
    try:
        return kind(text)
    except Exception:
        return UserWarning(text)


def run_each(
    document: Any,
    checks: Iterable[Any],
    *,
    run: Runner = outcome_of,
    label: Label = _type_label,
    contain: bool = False,
    scrub: Scrub = None,
) -> list[CheckOutcome]:
    """Run every check on ``document``, in order; one outcome per check, its failures in the order it gave them.

    ``run(check, document)`` runs one (default: :func:`outcome_of`); a failure that is a text is
    labelled with ``label(check)``. With ``contain``, a check that raises is an ``error`` outcome
    (a plancheck error says its message, anything else ``raised`` and the exception's type and text),
    not an exception: ``sys.exit()`` in a check included, while ``KeyboardInterrupt`` and pytest's
    outcomes (``pytest.skip()``: BaseExceptions too) go on to the caller.
    ``scrub`` (a document's ``secrets``, a document, or a function) is applied to every failure and warning
    message; secrets trust what each failure trusts (:attr:`~plancheck.CheckFailure.trusted`). A document's
    secrets are asked for only when there is a message to scrub: checks that all pass collect none.

    >>> class Even:
    ...     def failures(self, n):
    ...         return [] if n % 2 == 0 else [f"{n} is odd"]
    >>> class Broken:
    ...     def failures(self, n):
    ...         return 1 / 0
    >>> [(o.status, [str(f) for f in o.failures]) for o in run_each(3, [Even(), Broken()], contain=True)]
    [('fail', ['Even: 3 is odd']), ('error', ['Broken: raised ZeroDivisionError: division by zero'])]
    """
    outcomes: list[CheckOutcome] = []
    token = RUNNING_CHECK.set([None])  # the running check's slot (given_by), set once for all of them
    try:
        for check in checks:
            if WATCHERS:  # test coverage (pytest --tf-cov): what the check addresses was asserted
                checked(document, check)
            try:
                found, warned = run(check, document)
                failures = [_shown(item, check, label, scrub, document) for item in found]
                raised = list(warned)
            except KeyboardInterrupt as exc:
                # Still an interrupt (whoever called stops), naming the check it stopped: the pytest plugin makes
                # it that test's failure before the session stops.
                name = label(check)[0]
                exc.add_note(f"(raised by the check {name})")
                exc.plancheck_check = name  # type: ignore[attr-defined]
                raise
            except (Exception, SystemExit) as exc:
                if not contain:
                    raise
                text = exception_message(exc) if isinstance(exc, TfCheckError) else ""
                text = text or f"raised {exception_text(exc)}"
                failure = _shown(text, check, label, scrub, document)
                outcomes.append(CheckOutcome(check, "error", (failure,), error=exc))
                continue
            outcomes.append(
                CheckOutcome(
                    check,
                    "fail" if failures else "pass",
                    tuple(failures),
                    tuple(_shown(w, check, label, scrub, document) for w in raised),
                    tuple(raised),
                )
            )
    finally:
        RUNNING_CHECK.reset(token)
    return outcomes


def run_checks(
    where: str,
    document_name: str,
    document: _D,
    checks: Sequence[object],
    kind: type,
    error: type[CheckFailedError],
    hint: Callable[[object], str] = _no_hint,
    note: str | None = None,
) -> None:
    """Check that every one of ``checks`` is a ``kind``, run them all, raise ``error`` listing every failure.

    A wrong argument is a TypeError naming ``where`` and its position, with ``hint(check)``
    added (a list gets the unpacking hint). Failures come in the order the checks were given.
    Warnings of the checks (:class:`~plancheck.PlanCheckWarning`) are emitted before any failure is raised.
    ``note`` (what the verdict stands on: a partial plan) is said at the end of the error.
    A check that raises something other than a plancheck error (a bug in a user's check, ``sys.exit()``)
    is a failure naming the check (``raised ZeroDivisionError: ...``), the others still run.

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
    plancheck.ArgumentError: assert_number: check 1 must be a Even, got list; to pass a list of checks, unpack it: assert_number(n, *checks)
    >>> class Broken(Even):
    ...     def failures(self, n):
    ...         raise SystemExit(3)
    >>> run_checks("assert_number", "n", 2, [Broken(), Even()], Even, PlanCheckError)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: Broken: raised SystemExit: 3
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
            raise ArgumentError(
                f"{where}: check {i + 1} must be a {kind.__name__}, got {type(check).__name__}{extra}"
            )
    outcomes = run_each(document, valid, contain=True)
    raised = [outcome.error for outcome in outcomes if outcome.error is not None]
    for exc in raised:
        if isinstance(exc, TfCheckError):
            raise exc  # already typed and located (a malformed document, a definition error): as it was
    warned = [w for outcome in outcomes if outcome.raised for w in as_warned(outcome.check, document, outcome.raised)]
    if warned:
        emit_warnings(warned)
    # What a check raised is the user's text, which may quote the document: scrubbed with its secrets
    # (asked for only then: a check that passes or fails collects none here).
    scrub = getattr(getattr(document, "secrets", None), "scrub", None) if raised else None
    found: list[CheckFailure] = []
    for outcome in outcomes:
        for failure in outcome.failures:
            if outcome.error is not None and callable(scrub):
                failure = dataclasses.replace(failure, message=scrub(failure.message))
            found.append(failure)
    if found:
        # A check that raised is one failure among the others, naming it; the first one's traceback stays reachable
        # as the cause unless it shows a secret. That traceback prints what its failure's message says (the
        # exception's type and text): a message scrubbed of a secret drops its own cause, and another check's
        # secret, which the traceback does not hold, drops nothing.
        cause = raised[0] if raised else None
        if cause is not None and _chain_shows_a_secret(cause, document):
            cause = None
        raise error(found, note=note) from cause


def _chain_shows_a_secret(exc: BaseException, document: object) -> bool:
    """Whether the traceback Python prints of ``exc`` shows a secret of ``document``: its message, its notes, and
    every exception chained under it (a ``KeyError`` of the value the check looked up, which its message hides).

    >>> from plancheck import Plan
    >>> plan = Plan.from_dict({"format_version": "1.2", "variables": {"pw": {"value": "hunter2-secret"}},
    ...     "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}}})
    >>> try:
    ...     try:
    ...         {}["hunter2-secret"]
    ...     except KeyError:
    ...         raise RuntimeError("lookup failed")
    ... except RuntimeError as exc:
    ...     _chain_shows_a_secret(exc, plan), _chain_shows_a_secret(RuntimeError("lookup failed"), plan)
    (True, False)
    """
    secrets = getattr(document, "secrets", None)
    return isinstance(secrets, Secrets) and secrets.touches("".join(traceback.format_exception(exc)))


#: The package directory whose frames a warning's location skips.
_LIBRARY_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _outside_level() -> int:
    """The ``stacklevel`` of the first frame outside plancheck, counted from the caller of ``warnings.warn``."""
    frame = sys._getframe(1)  # emit_warnings
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(_LIBRARY_DIR):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level


def emit_warnings(found: Iterable[Warning]) -> None:
    """``warnings.warn`` each of ``found``, located at the first caller outside plancheck.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as seen:
    ...     warnings.simplefilter("always")
    ...     emit_warnings([UserWarning("1 of 2 unknown until apply")])
    >>> [str(w.message) for w in seen]
    ['1 of 2 unknown until apply']
    """
    items = list(found)
    if not items:
        return
    level = _outside_level()
    for item in items:
        warnings.warn(item, stacklevel=level)
