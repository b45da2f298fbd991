"""Running a knownvalue matcher on a resolved value, for the plan and the state checks alike."""

from __future__ import annotations

from typing import Final

from tfjsonpath import Path

from .._documents.resolve import ResolvedValue, ValueStatus
from .._errors import CheckFailure, ValueMismatchError
from .._redact import SENSITIVE, Secrets, sensitive_shown
from ..knownvalue import Check
from .messages import scrubbed_failure

__all__ = ["match_failures", "match_resolved", "with_expected"]

#: Longest expected or actual value a failure message shows; a longer one is cut.
MAX_SHOWN: Final = 300


def _cut(text: str) -> str:
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + "…"


def with_expected(reason: str, expected: str | None, actual: str | None, note: str = "") -> str:
    """``reason`` and ``note``, then the expected and the actual value where ``reason`` does not show them already.

    A matcher's own message often names only what differs (a count, a type, a key); the failure
    of a check says the whole expected and actual values too. Both come redacted.

    >>> with_expected("expected number value for Int64Exact check, got: string", "3", '"v"')
    'expected number value for Int64Exact check, got: string; expected 3, got "v"'
    >>> with_expected('expected value "y" for StringExact check, got: "x"', '"y"', '"x"')
    'expected value "y" for StringExact check, got: "x"'
    >>> with_expected("expected non-null value for NotNull check, got: null", "<not null>", "null", " (a is null)")
    'expected non-null value for NotNull check, got: null (a is null)'
    >>> with_expected("value is unknown", '"y"', None)
    'value is unknown; expected "y"'
    """
    parts: list[str] = []
    if expected is not None and not _shows_expected(reason, expected):
        parts.append(f"expected {_cut(expected)}")
    if actual is not None and not reason.endswith(f"got: {actual}"):
        parts.append(f"got {_cut(actual)}")
    return reason + note + (f"; {', '.join(parts)}" if parts else "")


# Null's and NotNull's messages say all they expect: a type.
_TYPE_ONLY: Final = {"null": "expected null value ", "<not null>": "expected non-null value "}


def _shows_expected(reason: str, expected: str) -> bool:
    """True if ``reason`` (a scalar check's mismatch) already names the whole ``expected`` value."""
    if reason.startswith(_TYPE_ONLY.get(expected, "\0")):
        return True
    return f"expected value {expected} for " in reason or f"expected regex match {expected} for " in reason


def _expected_text(matcher: Check, secrets: Secrets) -> str:
    """The matcher's expected value as text, hidden when it touches a secret."""
    text = str(matcher)
    return SENSITIVE if not sensitive_shown() and secrets.touches(text) else text


def match_resolved(resolved: ResolvedValue, matcher: Check, secrets: Secrets) -> tuple[Path, str] | None:
    """Run ``matcher`` on a resolved value: None if it matches, else where (a full path) and why not.

    Only a known or null value reaches the matcher, with the marks below it; an
    unknown or absent one fails here, by status.

    >>> from plancheck import knownvalue as kv
    >>> from plancheck._documents.resolve import resolve_value
    >>> from tfjsonpath import New
    >>> r = resolve_value({"l": [None, "k"]}, {"l": [True, False]}, None, New("l"))
    >>> match_resolved(r, kv.ListExact([kv.Null(), kv.StringExact("k")]), Secrets())
    (Path(MapStep('l'), SliceStep(0)), 'value is unknown; expected null')
    """
    path = resolved.path
    if resolved.status is ValueStatus.UNKNOWN or resolved.status is ValueStatus.ABSENT:
        return path, with_expected("value is " + resolved.describe(secrets), _expected_text(matcher, secrets), None)
    value = resolved.value if resolved.status is ValueStatus.KNOWN else None
    try:
        matcher.check_value(
            value,
            sensitive=resolved.value_sensitive,
            unknown=resolved.value_unknown,
            secrets=secrets,
            path=path,
        )
    except ValueMismatchError as exc:
        # A value null only because an ancestor is says which.
        note = f" ({resolved.reason})" if resolved.status is ValueStatus.NULL and resolved.reason else ""
        return exc.path, with_expected(exc.reason, exc.expected, exc.actual, note)
    return None


def match_failures(
    secrets: Secrets, check: str, address: str, resolved: ResolvedValue, matcher: Check, prefix: str = ""
) -> list[CheckFailure]:
    """The failure of ``check`` when ``matcher`` does not match ``resolved`` (see :func:`match_resolved`).

    ``prefix`` starts the message (a deposed object's).

    >>> from plancheck import knownvalue as kv
    >>> from plancheck._documents.resolve import resolve_value
    >>> from tfjsonpath import New
    >>> r = resolve_value({"a": "x"}, None, None, New("a"))
    >>> match_failures(Secrets(), "ExpectX", "t.a", r, kv.StringExact("y"))[0].message
    'expected value "y" for StringExact check, got: "x"'
    """
    problem = match_resolved(resolved, matcher, secrets)
    if problem is None:
        return []
    where, reason = problem
    return [scrubbed_failure(secrets, check, address, where, prefix + reason)]
