"""The exception hierarchy of plancheck.

Everything plancheck raises derives from :class:`TfCheckError`. Malformed
documents raise a :class:`DocumentFormatError` (also a ``ValueError``); checks
that do not hold raise a :class:`CheckFailedError` (also an ``AssertionError``,
so pytest reports a failure, not an error).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import field
from typing import TYPE_CHECKING, ClassVar, Final

from tfjsonpath._errors import PicklesFields

from ._frozen import FrozenValue, frozen, public

if TYPE_CHECKING:
    from tfjsonpath import Path

__all__ = [
    "ArgumentError",
    "CheckFailedError",
    "CheckFailure",
    "ConfigCheckError",
    "DocumentFormatError",
    "ErroredPlanError",
    "PARTIAL_NOTE",
    "QUERY_PARTIAL_NOTE",
    "PlanCheckError",
    "PlanCheckWarning",
    "PlanFormatError",
    "RegexTimeoutError",
    "StateCheckError",
    "StateFormatError",
    "TestDefinitionError",
    "TfCheckError",
    "ValueMismatchError",
]


@public("plancheck")
class TfCheckError(PicklesFields, Exception):
    """Base class of every error raised by plancheck.

    >>> issubclass(PlanCheckError, TfCheckError) and issubclass(PlanFormatError, TfCheckError)
    True
    """


@public("plancheck")
class DocumentFormatError(TfCheckError, ValueError):
    """A document (plan, state, config) is not of the expected structure.

    ``location`` is a JSON location such as ``$.resource_changes[3].change.actions``;
    ``source`` names the file when there is one, or the view an entry was given to by hand
    (``ResourceChange``: the location is then within the entry, ``$.change.actions``).

    >>> str(PlanFormatError("$.resource_changes", "an array", found="an object with 2 keys", source="plan.json"))
    'plan.json: $.resource_changes: expected an array, found an object with 2 keys'
    """

    kind: str = "document"

    def __init__(self, location: str, expected: str, *, found: str | None = None, source: str | None = None) -> None:
        self.location = location
        self.expected = expected
        self.found = found
        self.source = source
        super().__init__(self._render())

    def _render(self) -> str:
        text = f"{self.location}: expected {self.expected}"
        if self.found is not None:
            text += f", found {self.found}"
        if self.source:
            text = f"{self.source}: {text}"
        return text

    def with_source(self, source: str | None) -> DocumentFormatError:
        """Return a copy of this error that names ``source`` (the file it came from).

        >>> PlanFormatError("$", "an object").with_source("p.json").source
        'p.json'
        """
        return type(self)(self.location, self.expected, found=self.found, source=source)


@public("plancheck")
class PlanFormatError(DocumentFormatError):
    """A plan document is malformed: not JSON, not an object, or not of the ``show -json`` plan structure.

    >>> PlanFormatError("$.format_version", "a string").location
    '$.format_version'
    """

    kind = "plan"


#: What a result on a plan Terraform wrote although planning failed says, wherever it is shown.
PARTIAL_NOTE: Final = (
    'the plan is partial: planning failed ("errored": true), so it holds only what Terraform planned before the error'
)
#: The same for query output read although the query failed (``allow_errored=True``): its results are partial.
QUERY_PARTIAL_NOTE: Final = (
    "the query output is partial: the query failed (an error diagnostic), so it holds only what the list blocks "
    "found before the error"
)


@public("plancheck")
class ErroredPlanError(PlanFormatError):
    """Terraform wrote the plan although planning failed (``"errored": true``): it is partial, so it is refused.

    ``terraform plan -out`` writes a plan file even when planning fails; a check on it could pass
    only because what failed was never planned. Every front end refuses such a plan unless the
    caller opts in: ``allow_errored=True`` (the loaders), ``--allow-errored`` (``tfplancheck``),
    ``--tf-allow-errored`` or the ``tf_allow_errored`` ini key (the pytest plugin). A PlanFormatError,
    so it is handled wherever a malformed plan is.

    >>> print(ErroredPlanError("plan.json"))
    plan.json: $.errored: expected a plan whose planning succeeded, found true: planning failed, so the plan is partial (to check it anyway: allow_errored=True, tfplancheck --allow-errored or pytest --tf-allow-errored)
    >>> isinstance(ErroredPlanError(), ValueError), ErroredPlanError().with_source("p.json").source
    (True, 'p.json')
    """

    def __init__(self, source: str | None = None) -> None:
        super().__init__(
            "$.errored",
            "a plan whose planning succeeded",
            found="true: planning failed, so the plan is partial "
            "(to check it anyway: allow_errored=True, tfplancheck --allow-errored or pytest --tf-allow-errored)",
            source=source,
        )

    def with_source(self, source: str | None) -> ErroredPlanError:
        """Return a copy of this error that names ``source``.

        >>> str(ErroredPlanError().with_source("p.json")).startswith("p.json: $.errored:")
        True
        """
        return type(self)(source)


@public("plancheck")
class StateFormatError(DocumentFormatError):
    """A state document (``terraform show -json`` of a state) is malformed.

    >>> isinstance(StateFormatError("$", "an object"), ValueError)
    True
    """

    kind = "state"


@frozen
@public("plancheck")
class CheckFailure(FrozenValue):
    """One failed check: what was checked, where, and why it failed (already redacted).

    >>> from tfjsonpath import New
    >>> str(CheckFailure("ExpectUnknownValue", "null_resource.a", New("id"), 'value is known: "x"'))
    'ExpectUnknownValue: null_resource.a: id: value is known: "x"'
    >>> CheckFailure("ExpectKnownValue", "a.b", New("m").AtMapKey("hunter2"), "m", 'm["(sensitive)"]')
    CheckFailure('ExpectKnownValue', 'a.b', Path(MapStep('m'), MapStep('(sensitive)')), 'm')
    """

    check: str
    address: str | None
    path: Path | None
    message: str
    #: The path as shown: its text form, with secrets in its keys scrubbed (None: ``path.to_text()``).
    shown_path: str | None = field(default=None, compare=False, repr=False)
    #: What the failure trusts (:attr:`trusted`): the texts, or a function that makes them, asked each time they
    #: are read (a failure whose text shows no secret: only an exit's scrub that finds a span reads them).
    trust: tuple[str, ...] | Callable[[], tuple[str, ...]] = field(default=(), compare=False, repr=False)
    #: The address as the document spells it, where ``address`` hides a secret instance key (None elsewhere), as
    #: ``path`` keeps the keys ``shown_path`` hides: never shown; a baseline tells two instances keyed by secrets
    #: apart by it, with a keyed fingerprint (:func:`plancheck._checking.messages.keyed_address`).
    unscrubbed_address: str | None = field(default=None, compare=False, repr=False, kw_only=True)
    #: A whole-plan check's failure (``ExpectEach*``): the addresses of the objects it fails on, as the document
    #: spells them (never shown), so that a baseline accepts each one, not the check's every failure to come.
    elements: tuple[str, ...] = field(default=(), compare=False, repr=False, kw_only=True)

    @property
    def trusted(self) -> tuple[str, ...]:
        """Texts of this failure that come from the configuration or the check's own arguments: a scrub of
        the whole text at an exit keeps a secret standing inside one (:meth:`plancheck.Secrets.trusting`).

        >>> CheckFailure("ExpectX", "t.a", None, "no", trust=lambda: ("t.a",)).trusted
        ('t.a',)
        """
        # Made each time, not kept: the failure stays the value it was built as. An exit reads them a few times
        # at most (the CLI five, with three reports), and only when its scrub found a span: a microsecond a read.
        trust = self.trust
        return trust() if callable(trust) else trust

    def _args(self, *, shown: bool = False) -> tuple[tuple[object, ...], dict[str, object]]:
        args, kwargs = FrozenValue._args(self, shown=shown)  # no bare super(): @frozen remakes the class
        if shown and self.shown_path is not None and self.path is not None:
            # A key of the path may be a secret: the repr shows the path as the message does, scrubbed.
            args = (*args[:2], _path_shown(self.shown_path), *args[3:])
        elif not shown and callable(self.trust):
            args = (*args[:5], self.trusted)  # a pickle carries the texts, not the function that makes them
        return args, kwargs

    def __str__(self) -> str:
        parts = [self.check]
        if self.address is not None:
            parts.append(self.address)
        if self.path is not None and self.path.steps:  # the root path adds no part
            parts.append(self.shown_path if self.shown_path is not None else self.path.to_text())
        parts.append(self.message)
        return ": ".join(parts)


def _path_shown(text: str) -> object:
    """A scrubbed path's text as a Path again, or as the text when scrubbing cut it where no step ends."""
    from tfjsonpath import Path, TfJsonPathError

    try:
        return Path.parse(text)
    except TfJsonPathError:
        return text


@public("plancheck")
class CheckFailedError(TfCheckError, AssertionError):
    """One or more checks failed. ``failures`` lists every one, in a stable order.

    ``note`` is what the verdict stands on, said after the failures (a partial plan's
    :data:`PARTIAL_NOTE`); None when there is nothing to say.

    >>> err = PlanCheckError([CheckFailure("ExpectEmptyPlan", None, None, "plan has 1 change")])
    >>> print(err)
    ExpectEmptyPlan: plan has 1 change
    >>> err.address is None and len(err.failures) == 1
    True
    >>> print(PlanCheckError([CheckFailure("ExpectNoDestroys", None, None, "a.b is destroyed")], note="a note"))
    ExpectNoDestroys: a.b is destroyed
    note: a note
    """

    noun: str = "check"

    def __init__(self, failures: Iterable[CheckFailure], *, note: str | None = None) -> None:
        self.failures = tuple(failures)
        self.note = note
        if not self.failures:
            raise ArgumentError(f"{type(self).__name__} needs at least one failure")
        super().__init__(self._render() + (f"\nnote: {note}" if note else ""))

    @property
    def trusted(self) -> tuple[str, ...]:
        """The trusted texts of every failure (:attr:`CheckFailure.trusted`), for a scrub of the whole message.

        >>> PlanCheckError([CheckFailure("ExpectX", "t.a", None, "no", trust=("t.a",))]).trusted
        ('t.a',)
        """
        return tuple(dict.fromkeys(t for f in self.failures if isinstance(f, CheckFailure) for t in f.trusted))

    def _render(self) -> str:
        if len(self.failures) == 1:
            return str(self.failures[0])
        lines = [f"{len(self.failures)} {self.noun}s failed:"]
        lines.extend(f"  {i}. {failure}" for i, failure in enumerate(self.failures, 1))
        return "\n".join(lines)

    @property
    def address(self) -> str | None:
        """The address of the first failure (``None`` when it has none)."""
        return self.failures[0].address

    @property
    def path(self) -> Path | None:
        """The path of the first failure (``None`` when it has none)."""
        return self.failures[0].path


@public("plancheck")
class PlanCheckError(CheckFailedError):
    """A plan check failed.

    >>> issubclass(PlanCheckError, AssertionError)
    True
    """

    noun = "plan check"


@public("plancheck")
class PlanCheckWarning(UserWarning):
    """A plan check passed, but only because something is not known until apply: never a silent pass.

    Emitted (``warnings.warn``) by whole-plan checks built with ``unknown="warn"``; pytest lists it in
    its warnings summary and ``tfplancheck`` prints it as a ``WARN`` line. The text is already
    redacted; ``check``, ``address`` (the selector) and ``path`` say which check it came from.

    >>> w = PlanCheckWarning("ExpectEachKnownValue: a.*: id: 1 of 2 unknown until apply: a.b (id)")
    >>> issubclass(PlanCheckWarning, UserWarning), str(w).startswith("ExpectEachKnownValue")
    (True, True)
    >>> w = PlanCheckWarning.of(CheckFailure("ExpectX", "a.b", None, "1 of 1 unknown until apply: a.b (id)"))
    >>> w.check, w.address, str(w)
    ('ExpectX', 'a.b', 'ExpectX: a.b: 1 of 1 unknown until apply: a.b (id)')
    """

    #: The warning as a record: ``check``, ``address`` (a selector's text), ``path`` and ``message``;
    #: None for a warning built from text alone.
    record: CheckFailure | None

    def __init__(self, text: str, record: CheckFailure | None = None) -> None:
        super().__init__(text)
        self.record = record

    @classmethod
    def of(cls, record: CheckFailure) -> PlanCheckWarning:
        """The warning that says what ``record`` (an already redacted warning record) says."""
        return cls(str(record), record)

    @property
    def check(self) -> str | None:
        """The name of the check that warned."""
        return self.record.check if self.record is not None else None

    @property
    def address(self) -> str | None:
        """What the warning is about: a resource address, or a selector's text."""
        return self.record.address if self.record is not None else None

    @property
    def path(self) -> Path | None:
        """The path the check looked at, if any."""
        return self.record.path if self.record is not None else None

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (str(self), self.record))


@public("plancheck")
class StateCheckError(CheckFailedError):
    """A state check failed.

    >>> issubclass(StateCheckError, AssertionError)
    True
    """

    noun = "state check"


@public("plancheck")
class ConfigCheckError(CheckFailedError):
    """A configuration (``.tf.json``) check failed.

    >>> issubclass(ConfigCheckError, AssertionError)
    True
    """

    noun = "config check"


@public("plancheck")
class ValueMismatchError(TfCheckError, AssertionError):
    """A knownvalue matcher did not match. ``path`` is where, inside the checked value, it failed.

    ``expected`` is the expected value of the matcher that failed there, as text, and ``actual``
    the value it was given (None when that value is unknown); both show a secret as ``(sensitive)``.

    >>> from tfjsonpath import Path
    >>> err = ValueMismatchError(Path.parse('triggers["a"][2]'), 'expected value "x" for StringExact check, got: "y"',
    ...                          expected='"x"', actual='"y"')
    >>> str(err), err.expected, err.actual
    ('triggers["a"][2]: expected value "x" for StringExact check, got: "y"', '"x"', '"y"')
    """

    def __init__(self, path: Path, reason: str, *, expected: str | None = None, actual: str | None = None) -> None:
        self.path = path
        self.reason = reason
        self.expected = expected
        self.actual = actual
        super().__init__(f"{path.to_text()}: {reason}" if len(path) else reason)


@public("plancheck")
class RegexTimeoutError(TfCheckError, TimeoutError):
    """A user's regular expression was still searching a text after ``seconds``: one that backtracks without end.

    Go's ``regexp`` (RE2) runs in linear time; Python's ``re`` backtracks, and a pattern such as ``(a|aa)+$``
    may never end on a long value. With the ``regex`` extra installed (``pip install 'tfplancheck[regex]'``),
    every search of a pattern the user gave (``StringRegexp``, the query and legacy checks, ``expect_error``)
    runs on the ``regex`` library with a time limit and raises this instead of hanging; without it, ``re``
    runs as it is. The message names the check and the text's length, never the text (it may hold a secret); a
    sensitive text's length is not named either (``length`` None): a secret's length tells something of it.

    >>> print(RegexTimeoutError("StringRegexp", 10.0, 50_000))
    StringRegexp: the regular expression was still searching after 10 s (a text of 50000 characters): it backtracks without end on this text; rewrite it with an atomic group (?>...) or a possessive quantifier (a++), or anchor it
    >>> print(RegexTimeoutError("StringRegexp", 10.0, None))  # doctest: +ELLIPSIS
    StringRegexp: the regular expression was still searching after 10 s (a sensitive text): it backtracks ...
    """

    def __init__(self, owner: str, seconds: float, length: int | None) -> None:
        self.owner = owner
        self.seconds = seconds
        self.length = length
        text = "a sensitive text" if length is None else f"a text of {length} characters"
        super().__init__(
            f"{owner}: the regular expression was still searching after {seconds:g} s ({text}): "
            "it backtracks without end on this text; rewrite it with an atomic group (?>...) or a possessive "
            "quantifier (a++), or anchor it"
        )


@public("plancheck")
class ArgumentError(TfCheckError, TypeError, ValueError):
    """A check, a matcher, a selector, a loader or any other part of plancheck was given an argument it cannot use.

    Raised wherever plancheck is misused (a ``StringExact`` of an int, an invalid ``StringRegexp``, a negative
    ``ExpectCount``, ``load_plan(None)``, a ``Resources`` pattern that does not parse...), so an
    ``except TfCheckError`` sees it; also a ``TypeError`` and a ``ValueError``, which such a misuse raised before.
    The message is what the caller wrote wrong, as given: no value of a document, so never a secret. Two
    subclasses say more: ``acceptance.TestDefinitionError`` (a test case's field) and
    ``acceptance.MockPlanArgumentError`` (``mock_plan``'s argument).

    >>> from plancheck.knownvalue import StringExact
    >>> try:
    ...     StringExact(1)
    ... except TfCheckError as exc:
    ...     print(type(exc).__name__, isinstance(exc, TypeError), exc)
    ArgumentError True StringExact expects a str, got int
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)


@public("plancheck.acceptance")
class TestDefinitionError(ArgumentError):
    """A :class:`TestCase` or :class:`TestStep` was built with an argument it cannot use: an
    :class:`ArgumentError` (so a ``TfCheckError``, a ``TypeError`` and a ``ValueError``) that says where.

    >>> error = TestDefinitionError("TestStep.plan_only", "expected a bool, got str")
    >>> str(error), isinstance(error, ArgumentError)
    ('TestStep.plan_only: expected a bool, got str', True)
    """

    # Not a test class, even when imported into a test module.
    __test__: ClassVar[bool] = False

    def __init__(self, where: str, problem: str) -> None:
        self.where = where
        self.problem = problem
        super().__init__(f"{where}: {problem}")
