"""Three verdicts for a check over many resources, and the one message that reports them.

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
from collections.abc import Sequence
from typing import Any

from tfjsonpath import MapStep, Path, SliceStep, Step

from .._documents.resolve import ResolvedValue, ValueStatus
from .._errors import CheckFailure, PlanCheckWarning
from .._frozen import FrozenValue, frozen
from .._redact import Secrets, sensitive_shown
from .match import match_resolved
from .matcher import Check, Ctx, first_failure
from .messages import scrubbed_failure

__all__ = ["Item", "Verdict", "each_outcome", "match_verdict", "path_text"]


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
