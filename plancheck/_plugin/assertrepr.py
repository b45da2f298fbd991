"""pytest's report for a failed ``value == knownvalue_check`` comparison (the check on either side)."""

from __future__ import annotations

from types import ModuleType

from .._redact import Secrets

__all__ = ["explain_comparison"]


def explain_comparison(
    knownvalue: ModuleType, left: object, right: object, secrets: Secrets | None = None
) -> list[str] | None:
    """Lines for ``assert left == right`` when exactly one side is a knownvalue check; None otherwise.

    The first line replaces pytest's ``left == right`` summary, so the raw value is never
    printed by pytest itself; the rest say where inside the value it differs and why.
    ``secrets`` (those of the session's documents) are never shown.

    >>> from plancheck import knownvalue as kv
    >>> explain_comparison(kv, {"a": "b"}, kv.MapExact({"a": kv.StringExact("c")}))
    ["value does not match MapExact({'a': StringExact('c')})", 'a: expected value "c" for StringExact check, got: "b"']
    >>> explain_comparison(kv, 1, 2) is None
    True
    """
    check_type = getattr(knownvalue, "Check", None)
    explain = getattr(knownvalue, "explain_mismatch", None)
    if not isinstance(check_type, type) or explain is None:
        return None
    left_is, right_is = isinstance(left, check_type), isinstance(right, check_type)
    if left_is == right_is:
        # Two plain values are pytest's business; two checks compare as values, like any objects.
        return None
    check, value = (left, right) if left_is else (right, left)
    try:
        lines = explain(check, value, secrets=secrets)
    except Exception:  # an assertion report must never raise: let pytest fall back to its own
        return None
    return list(lines) if lines else None
