"""Running a knownvalue matcher on a resolved value, for the plan and the state checks alike."""

from __future__ import annotations

from tfjsonpath import Path

from .._documents.resolve import ResolvedValue, ValueStatus
from .._errors import CheckFailure, ValueMismatchError
from .._redact import Secrets
from ..knownvalue._base import Check
from .messages import scrubbed_failure

__all__ = ["match_failures", "match_resolved"]


def match_resolved(resolved: ResolvedValue, matcher: Check, secrets: Secrets) -> tuple[Path, str] | None:
    """Run ``matcher`` on a resolved value: None if it matches, else where (a full path) and why not.

    Only a known or null value reaches the matcher, with the marks below it; an
    unknown or absent one fails here, by status.

    >>> from plancheck import knownvalue as kv
    >>> from plancheck._documents.resolve import resolve_value
    >>> from tfjsonpath import New
    >>> r = resolve_value({"l": [None, "k"]}, {"l": [True, False]}, None, New("l"))
    >>> match_resolved(r, kv.ListExact([kv.Null(), kv.StringExact("k")]), Secrets())
    (Path(MapStep('l'), SliceStep(0)), 'value is unknown')
    """
    path = resolved.path
    if resolved.status is ValueStatus.UNKNOWN or resolved.status is ValueStatus.ABSENT:
        return path, "value is " + resolved.describe(secrets)
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
        reason = exc.reason
        if resolved.status is ValueStatus.NULL and resolved.reason:
            # The value is null only because an ancestor is; say which.
            reason += f" ({resolved.reason})"
        return exc.path, reason
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
