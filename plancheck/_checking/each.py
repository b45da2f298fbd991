"""What checks over many resources share: their selector arguments, three verdicts, one message.

A check takes ``selector`` as a :class:`~plancheck.Resources` or an address glob string (shorthand
for ``Resources(address=...)``), and ``except_`` as one of those or a list of them. Both are
validated here, with messages that name the check and the argument.

A whole-plan check (``ExpectEachKnownValue`` and its siblings, in plans and states) asks one
question of every selected resource and gets one of three answers: it holds, it does not, or
it cannot be known before apply (the value, or an ancestor of it, is unknown). The third is
never folded into the other two: ``unknown="fail" | "pass" | "warn"`` decides what it does,
and every message lists the failing and the unknown resources apart, by address.

Message form (pinned in tests/checks/test_each_checks.py)::

    ExpectEachKnownValue: Resources(type='aws_s3_bucket'): tags["team"]: 2 of 5 failed:
    aws_s3_bucket.a: expected value "platform" for StringExact check, got: "data"; aws_s3_bucket.b:
    value is null; 1 of 5 unknown until apply: aws_s3_bucket.z (tags)

(one line): the failed group lists ``address: reason`` separated by ``; ``, the unknown group
``address (what is unknown)`` separated by ``, ``; both in address order.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import Any, Final

from tfjsonpath import MapStep, Path, SliceStep, Step

from .._documents.resolve import ResolvedValue, ValueStatus
from .._documents.select import Resources, address_pattern
from .._errors import CheckFailure, PlanCheckWarning
from .._frozen import FrozenValue, frozen
from .._redact import Secrets, sensitive_shown
from .._text import closest
from .match import match_resolved
from .matcher import Check, Ctx, first_failure
from .messages import scrubbed_failure

__all__ = [
    "Item",
    "UNKNOWN_MODES",
    "Verdict",
    "checked_selector",
    "checked_selectors",
    "checked_unknown_mode",
    "each_outcome",
    "empty_selection",
    "item_label",
    "match_verdict",
    "path_text",
]


class Verdict(enum.Enum):
    """What a check over many resources says about one of them.

    >>> Verdict.UNKNOWN.value
    'unknown until apply'
    """

    PASS = "passed"
    FAIL = "failed"
    UNKNOWN = "unknown until apply"


@frozen
class Item(FrozenValue):
    """One checked object: its label (address, deposed key), its verdict, and the detail a message shows.

    ``detail`` is the reason for a failure (already rendered without sensitive values), or the
    text of the path that is unknown for an unknown verdict; empty for a pass.
    """

    label: str
    verdict: Verdict
    detail: str = ""


def path_text(path: Path) -> str:
    """A path as an unknown verdict names it; the root is the whole object.

    >>> from tfjsonpath import New
    >>> path_text(New("tags").AtMapKey("team")), path_text(Path())
    ('tags["team"]', 'the whole object')
    """
    return path.to_text() or "the whole object"


def _is_unknown_reason(reason: str) -> bool:
    return reason == "value is unknown" or reason.endswith(": value is unknown")


def match_verdict(resolved: ResolvedValue, matcher: Check, secrets: Secrets, base: Path) -> tuple[Verdict, str]:
    """The verdict of ``matcher`` on a resolved value, and its detail.

    Unknown (itself or an ancestor): unknown until apply. A value with unknown parts that the
    matcher fails only there is unknown too, unless it fails even with every unknown part counted
    as matching (then no value the unknown parts take can make it match): that is a failure, with
    the reason found. A failure deeper than ``base`` (the checked path) names where.

    >>> from plancheck import knownvalue as kv
    >>> from plancheck._documents.resolve import resolve_value
    >>> from tfjsonpath import New
    >>> r = resolve_value({"l": [None, "x"]}, {"l": [True, False]}, None, New("l"))
    >>> match_verdict(r, kv.ListExact([kv.StringExact("a"), kv.StringExact("x")]), Secrets(), New("l"))
    (<Verdict.UNKNOWN: 'unknown until apply'>, 'l[0]')
    >>> match_verdict(r, kv.ListExact([kv.StringExact("a"), kv.StringExact("y")]), Secrets(), New("l"))
    (<Verdict.FAIL: 'failed'>, 'l[1]: expected value "y" for StringExact check, got: "x"')
    """
    if resolved.status is ValueStatus.UNKNOWN:
        return Verdict.UNKNOWN, path_text(resolved.unknown_at if resolved.unknown_at is not None else resolved.path)
    problem = match_resolved(resolved, matcher, secrets)
    if problem is None:
        return Verdict.PASS, ""
    where, reason = problem
    if resolved.partly_unknown:
        # Run again with every unknown part matching anything: if it still fails, no value the unknown
        # parts take can make it match (and the reason names a known part); else it is unknown until apply.
        value = resolved.value if resolved.status is ValueStatus.KNOWN else None
        definite = first_failure(
            matcher,
            value,
            resolved.value_sensitive,
            resolved.value_unknown,
            Ctx(secrets, sensitive_shown(), unknown_passes=True),
        )
        if definite is None:
            if not _is_unknown_reason(reason):
                where = resolved.path.join(*_first_mark(resolved.value_unknown))
            return Verdict.UNKNOWN, path_text(where)
        where, reason = resolved.path.join(*definite.steps()), definite.reason
    return Verdict.FAIL, _located(where, base, reason)


def _first_mark(marks: Any) -> list[Step]:
    """The steps to the first ``true`` of a marks tree, in document order (keys sorted); none if there is none.

    >>> _first_mark({"b": [False, True], "a": {}})
    [MapStep('b'), SliceStep(1)]
    """
    stack: list[tuple[Any, list[Step]]] = [(marks, [])]
    while stack:
        node, steps = stack.pop()
        if node is True:
            return steps
        if isinstance(node, dict):
            stack.extend((node[k], [*steps, MapStep(k)]) for k in sorted(node, reverse=True) if isinstance(k, str))
        elif isinstance(node, list):
            stack.extend((node[i], [*steps, SliceStep(i)]) for i in range(len(node) - 1, -1, -1))
    return []


def _located(where: Path, base: Path, reason: str) -> str:
    return reason if where == base else f"{where.to_text() or '(the whole object)'}: {reason}"


def _group(items: Sequence[Item], total: int, verdict: Verdict) -> str:
    chosen = [i for i in items if i.verdict is verdict]
    if verdict is Verdict.FAIL:
        body = "; ".join(f"{i.label}: {i.detail}" for i in chosen)
    else:
        body = ", ".join(f"{i.label} ({i.detail})" for i in chosen)
    return f"{len(chosen)} of {total} {verdict.value}: {body}"


def each_outcome(
    check: str,
    subject: str,
    path: Path | None,
    items: Sequence[Item],
    unknown: str,
    secrets: Secrets,
    *,
    passed: int = 0,
) -> tuple[list[CheckFailure], list[PlanCheckWarning]]:
    """The failure and the warning of a check over ``items`` (in any order; reported by label).

    ``passed`` counts further objects that passed without an item (a large plan's passes cost no object).

    ``unknown`` is the check's ``unknown=``: ``"fail"`` lists unknown verdicts in the failure,
    ``"warn"`` in a warning, ``"pass"`` nowhere. ``subject`` (the selector's text) is the
    failure's address; every text is scrubbed of ``secrets``.

    >>> from tfjsonpath import New
    >>> items = [Item("a.z", Verdict.UNKNOWN, "id"), Item("a.x", Verdict.FAIL, "value is null"), Item("a.y", Verdict.PASS)]
    >>> found, warned = each_outcome("ExpectX", "a.*", New("id"), items, "warn", Secrets())
    >>> print(found[0])
    ExpectX: a.*: id: 1 of 3 failed: a.x: value is null
    >>> print(warned[0])
    ExpectX: a.*: id: 1 of 3 unknown until apply: a.z (id)
    """
    ordered = sorted(items, key=lambda i: i.label)
    total = len(ordered) + passed
    failed = any(i.verdict is Verdict.FAIL for i in ordered)
    unsure = any(i.verdict is Verdict.UNKNOWN for i in ordered)
    groups: list[str] = []
    if failed:
        groups.append(_group(ordered, total, Verdict.FAIL))
    if unsure and unknown == "fail":
        groups.append(_group(ordered, total, Verdict.UNKNOWN))
    found = [scrubbed_failure(secrets, check, subject, path, "; ".join(groups))] if groups else []
    warned: list[PlanCheckWarning] = []
    if unsure and unknown == "warn":
        record = scrubbed_failure(secrets, check, subject, path, _group(ordered, total, Verdict.UNKNOWN))
        warned.append(PlanCheckWarning.of(record))
    return found, warned


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
