"""Explaining a failed ``value == check`` for pytest's assertion report."""

from __future__ import annotations

from typing import Any, Final

from .._errors import ValueMismatchError
from .._frozen import public
from .._redact import Marks, Secrets, contains_sensitive, sensitive_shown
from ._base import Check

__all__ = ["explain_mismatch"]

_MAX_REPR: Final = 200


@public("plancheck.knownvalue")
def explain_mismatch(
    check: Check,
    value: Any,
    *,
    sensitive: Marks = None,
    secrets: Secrets | None = None,
    unknown: Marks = None,
) -> list[str] | None:
    """Lines explaining why ``value`` does not match ``check``, or None if it matches.

    Meant for a ``pytest_assertrepr_compare`` hook, so that ``assert value == kv.X(...)``
    reports where and why the value differs.

    >>> from plancheck import knownvalue as kv
    >>> for line in explain_mismatch(kv.ListExact([kv.StringExact("a")]), ["b"]):
    ...     print(line)
    value does not match ListExact([StringExact('a')])
    [0]: expected value "a" for StringExact check, got: "b"
    >>> explain_mismatch(kv.StringExact("a"), "a") is None
    True
    """
    if not isinstance(check, Check):
        raise TypeError(f"explain_mismatch expects a knownvalue check, got {type(check).__name__}")
    try:
        check.check_value(value, sensitive=sensitive, secrets=secrets, unknown=unknown)
    except ValueMismatchError as exc:
        shown = repr(check)
        if len(shown) > _MAX_REPR:
            shown = shown[: _MAX_REPR - 1] + "…"
        if not sensitive_shown() and (
            contains_sensitive(sensitive) or (secrets is not None and secrets.touches(shown))
        ):
            # The check's literals may equal the hidden value, so name the check only.
            shown = f"{check.describe()} check"
        return [f"value does not match {shown}", str(exc)]
    return None
