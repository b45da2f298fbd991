"""The selector arguments of whole-plan checks: one ``Resources`` (or an address glob), or several.

A check takes ``selector`` as a :class:`~plancheck.Resources` or an address glob string (shorthand
for ``Resources(address=...)``), and ``except_`` as one of those or a list of them. Both are
validated here, with messages that name the check and the argument.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from .._documents.select import Resources, address_pattern
from .._text import closest

__all__ = [
    "UNKNOWN_MODES",
    "checked_selector",
    "checked_selectors",
    "checked_unknown_mode",
    "empty_selection",
    "item_label",
]

#: What ``unknown=`` may say a verdict "unknown until apply" does.
UNKNOWN_MODES: Final = ("fail", "pass", "warn")


def checked_selector(value: object, check: str, what: str = "selector") -> Resources:
    """``value`` as a Resources: itself, or ``Resources(address=value)`` for an address glob.

    >>> checked_selector("aws_s3_bucket.*", "ExpectX")
    Resources(address='aws_s3_bucket.*')
    >>> checked_selector("aws_s3_bucket.logs[", "ExpectX")
    Traceback (most recent call last):
    ...
    ValueError: ExpectX: selector 'aws_s3_bucket.logs[' is not a valid pattern: '[' at offset 18 is never closed
    >>> checked_selector(3, "ExpectX")
    Traceback (most recent call last):
    ...
    TypeError: ExpectX: selector must be a plancheck.Resources or an address glob (str), got int
    """
    if isinstance(value, Resources):
        return value
    if isinstance(value, str):
        address_pattern(value, what, owner=check)  # the check's own words for a bad pattern
        return Resources(address=value)
    raise TypeError(f"{check}: {what} must be a plancheck.Resources or an address glob (str), got {type(value).__name__}")


def checked_selectors(value: object, check: str, what: str = "except_") -> tuple[Resources, ...]:
    """One selector or a list of them (Resources or address globs), as a tuple; None is no selector.

    >>> checked_selectors(["null_resource.a", "module.db.*"], "ExpectX")
    (Resources(address='null_resource.a'), Resources(address='module.db.*'))
    >>> checked_selectors(None, "ExpectX"), checked_selectors("a.b", "ExpectX")
    ((), (Resources(address='a.b'),))
    >>> checked_selectors([1], "ExpectX")
    Traceback (most recent call last):
    ...
    TypeError: ExpectX: except_[0] must be a plancheck.Resources or an address glob (str), got int
    """
    if value is None:
        return ()
    if isinstance(value, (Resources, str)):
        return (checked_selector(value, check, what),)
    if not isinstance(value, Iterable) or isinstance(value, (bytes, bytearray)):
        raise TypeError(
            f"{check}: {what} must be a plancheck.Resources, an address glob (str) or a list of them, "
            f"got {type(value).__name__}"
        )
    return tuple(dict.fromkeys(checked_selector(item, check, f"{what}[{i}]") for i, item in enumerate(value)))


def checked_unknown_mode(value: object, check: str) -> str:
    """``unknown=``: what a verdict "unknown until apply" does (``"fail"``, ``"pass"`` or ``"warn"``).

    >>> checked_unknown_mode("warn", "ExpectX")
    'warn'
    >>> checked_unknown_mode("wran", "ExpectX")
    Traceback (most recent call last):
    ...
    ValueError: ExpectX: unknown must be 'fail', 'pass' or 'warn', got 'wran' (did you mean 'warn'?)
    """
    if not isinstance(value, str):
        raise TypeError(f"{check}: unknown must be 'fail', 'pass' or 'warn' (a str), got {type(value).__name__}")
    if value not in UNKNOWN_MODES:
        hint = closest(value.lower(), UNKNOWN_MODES, n=1)
        did = f" (did you mean {hint[0]!r}?)" if hint else ""
        raise ValueError(f"{check}: unknown must be 'fail', 'pass' or 'warn', got {value!r}{did}")
    return value


def item_label(address: str, deposed: str | None) -> str:
    """How a message names one object: its address, and its deposed key when it is a deposed object.

    >>> item_label("a.b", None), item_label("a.b", "00000001")
    ('a.b', 'a.b (deposed "00000001")')
    """
    if deposed is None:
        return address
    return f'{address} (deposed "{deposed}")'


def empty_selection(
    selector: Resources, where: str, skipped: Sequence[str], types: Iterable[str], addresses: Iterable[str]
) -> str:
    """The failure message of a selector that selects nothing to check in ``where`` (``"plan"``, ``"state"``).

    ``skipped`` are the labels of objects it selected but could not check (no planned value);
    ``types`` and ``addresses`` are what the document holds, to suggest the closest.

    >>> empty_selection(Resources(type="aws_s3_bukcet"), "plan", [], ["aws_s3_bucket"], ["aws_s3_bucket.a"])
    'selects no resource in the plan; closest type: aws_s3_bucket (allow_empty=True on the selector accepts that)'
    >>> empty_selection(Resources(type="aws_s3_bucket", module=""), "plan", [], ["aws_s3_bucket"], ["module.m.aws_s3_bucket.a"])
    "selects no resource in the plan; 1 resource matches type 'aws_s3_bucket' but not the other fields (allow_empty=True on the selector accepts that)"
    >>> empty_selection(Resources(type="x"), "plan", ["x.a", "x.b"], ["x"], ["x.a"])
    'selects no resource with a planned value in the plan: 2 selected are deleted or forgotten: x.a, x.b (allow_empty=True on the selector accepts that)'
    """
    accept = " (allow_empty=True on the selector accepts that)"
    if skipped:
        verb = "is" if len(skipped) == 1 else "are"
        return (
            f"selects no resource with a planned value in the {where}: {len(skipped)} selected {verb} "
            f"deleted or forgotten: {', '.join(skipped)}{accept}"
        )
    hints: list[str] = []
    if selector.type is not None:
        kinds = list(types)
        type_re = selector._compiled[0]
        typed = sum(1 for kind in kinds if type_re is not None and type_re.matches(kind))
        if typed:
            # The type is there: another field left them out.
            noun = "resource matches" if typed == 1 else "resources match"
            hints.append(f"{typed} {noun} type {selector.type!r} but not the other fields")
        elif "*" not in selector.type and "?" not in selector.type:
            near = closest(selector.type, sorted(set(kinds)), n=3)
            if near:
                hints.append(f"closest type{'s' if len(near) > 1 else ''}: {', '.join(near)}")
    if selector.address is not None and "*" not in selector.address and "?" not in selector.address:
        near = closest(selector.address, list(dict.fromkeys(addresses)), n=3)
        if near:
            hints.append(f"closest address{'es' if len(near) > 1 else ''}: {', '.join(near)}")
    hint = "; " + "; ".join(hints) if hints else ""
    return f"selects no resource in the {where}{hint}{accept}"
