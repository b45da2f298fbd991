"""Matching knownvalue checks against what a check found, and saying what it found, without leaking secrets.

A knownvalue matcher runs on a resolved value the same way for the plan and the state checks; a
resolved planned value is described in a failure message by the phrases here.

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

A resource identity (attribute name to value) is matched against a dict of knownvalue checks: state
checks (``statecheck.ExpectIdentity``), query checks (``querycheck.ExpectIdentity``,
``ExpectNoIdentity``) and query filters (``queryfilter.ByResourceIdentity``) all compare an
identity object with Go's rule: exactly the given attributes, each matching its check.
"""
from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from tfjsonpath import MapStep, Path, SliceStep, Step

from .._documents.resolve import ResolvedValue, ValueStatus, resolve_value
from .._documents.sensitive import HasSecrets, secrets_of
from .._errors import ArgumentError, CheckFailure, PlanCheckWarning, ValueMismatchError
from .._frozen import FrozenValue, frozen
from .._redact import (
    SENSITIVE,
    Secrets,
    contains_sensitive,
    sensitive_shown,
)
from .fields import check_fields, checked_address
from .matcher import Check, Ctx, first_failure, require_check
from .messages import actions_text, quote, scrubbed_failure

__all__ = [
    "AddressIdentityFields",
    "Item",
    "Verdict",
    "checked_identity",
    "each_outcome",
    "identity_attribute_failures",
    "identity_matches",
    "identity_shape_problem",
    "identity_text",
    "identity_value_failures",
    "match_failures",
    "match_resolved",
    "match_verdict",
    "no_planned_value",
    "path_text",
    "sensitive_problem",
    "with_expected",
]


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


def match_resolved(resolved: ResolvedValue, matcher: Check, secrets: Secrets | HasSecrets) -> tuple[Path, str] | None:
    """Run ``matcher`` on a resolved value: None if it matches, else where (a full path) and why not.

    Only a known or null value reaches the matcher, with the marks below it; an
    unknown or absent one fails here, by status. ``secrets`` may be a document's (a plan,
    a state): they are asked for only when there is a failure to tell (:func:`secrets_of`).

    >>> from plancheck import knownvalue as kv
    >>> from plancheck._documents.resolve import resolve_value
    >>> from tfjsonpath import New
    >>> r = resolve_value({"l": [None, "k"]}, {"l": [True, False]}, None, New("l"))
    >>> match_resolved(r, kv.ListExact([kv.Null(), kv.StringExact("k")]), Secrets())
    (Path(MapStep('l'), SliceStep(0)), 'value is unknown; expected null')
    """
    if resolved.status is ValueStatus.UNKNOWN or resolved.status is ValueStatus.ABSENT:
        known = secrets_of(secrets)
        return resolved.path, with_expected("value is " + resolved.describe(known), _expected_text(matcher, known), None)
    # A secret decides no match, only what a mismatch shows: a document's secrets (a walk of all of it) are
    # asked for only when the matcher fails, and it runs again with them for the text.
    found = _mismatch(resolved, matcher, secrets if isinstance(secrets, Secrets) else None)
    if found is not None and not isinstance(secrets, Secrets):
        found = _mismatch(resolved, matcher, secrets.secrets)
    if found is None:
        return None
    # A value null only because an ancestor is says which.
    note = f" ({resolved.reason})" if resolved.status is ValueStatus.NULL and resolved.reason else ""
    return found.path, with_expected(found.reason, found.expected, found.actual, note)


def _mismatch(resolved: ResolvedValue, matcher: Check, secrets: Secrets | None) -> ValueMismatchError | None:
    """What ``matcher`` raises on a known or null resolved value, its texts scrubbed of ``secrets``; None if it matches."""
    try:
        matcher.CheckValue(
            resolved.value if resolved.status is ValueStatus.KNOWN else None,
            sensitive=resolved.value_sensitive,
            unknown=resolved.value_unknown,
            secrets=secrets,
            path=resolved.path,
        )
    except ValueMismatchError as exc:
        return exc
    return None


def match_failures(
    secrets: Secrets | HasSecrets, check: str, address: str, resolved: ResolvedValue, matcher: Check, prefix: str = ""
) -> list[CheckFailure]:
    """The failure of ``check`` when ``matcher`` does not match ``resolved`` (see :func:`match_resolved`).

    ``prefix`` starts the message (a deposed object's). ``secrets`` may be a document's, asked for only on a failure.

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
    return [scrubbed_failure(secrets_of(secrets), check, address, where, prefix + reason)]


def no_planned_value(change: Mapping[str, Any], what: str) -> str | None:
    """Why a raw change being deleted or forgotten has no planned value at all, or None."""
    if change.get("after") is not None:
        return None  # the common case, decided without building the actions tuple
    actions = tuple(change.get("actions") or ())
    if actions and all(a in ("delete", "forget") for a in actions):
        return f"not present: the {what} has no planned value (action(s): {actions_text(actions)})"
    return None


def sensitive_problem(resolved: ResolvedValue, document: HasSecrets, unmarked: str | None) -> str | None:
    """Why a resolved value is not sensitive as a whole, or None when it is (and present).

    ``document`` (the plan or state) gives the secrets to hide, asked for only on a
    failure: collecting them walks the whole document. ``unmarked`` is added when the
    value is not sensitive and the document records no sensitive marks at all (old
    plans and states), so the failure says why.
    """
    if resolved.sensitive and resolved.status is not ValueStatus.ABSENT:
        return None
    secrets = document.secrets
    if resolved.status is ValueStatus.ABSENT:
        return "expected a sensitive value, but it is " + resolved.describe(secrets)
    if resolved.status is ValueStatus.KNOWN and contains_sensitive(resolved.value_sensitive):
        return "expected a sensitive value, but only parts of it are sensitive: " + resolved.shown(secrets)
    text = "expected a sensitive value, but it is not sensitive; it is " + resolved.describe(secrets)
    if unmarked is not None:
        text += f" ({unmarked})"
    return text


def checked_identity(value: object, check: str) -> tuple[tuple[str, Check], ...]:
    """An identity argument (a dict of attribute name to knownvalue check) as sorted pairs.

    >>> from plancheck import knownvalue as kv
    >>> checked_identity({"region": kv.NotNull(), "id": kv.StringExact("x")}, "ExpectX")
    (('id', StringExact('x')), ('region', NotNull()))
    >>> checked_identity({"id": "x"}, "ExpectX")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: ExpectX: identity["id"] must be a knownvalue check, got str (wrap plain values with knownvalue.exact())
    """
    if not isinstance(value, Mapping):
        raise ArgumentError(
            f"{check}: identity must be a dict of attribute name to knownvalue check, got {type(value).__name__}"
        )
    pairs: list[tuple[str, Check]] = []
    for key, item in value.items():
        if not isinstance(key, str):
            raise ArgumentError(f"{check}: identity attribute names must be str, got {type(key).__name__}: {key!r}")
        pairs.append((key, require_check(f"{check}:", f"identity[{quote(key)}]", item)))
    return tuple(sorted(pairs, key=lambda pair: pair[0]))


def _delta(have: list[str], other: set[str], prefix: str) -> str:
    keys = sorted(k for k in have if k not in other)
    return prefix + ", ".join(quote(k) for k in keys) if keys else ""


def identity_shape_problem(identity: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """Why ``identity`` does not have exactly the attributes ``names`` (Go's messages), or None.

    >>> identity_shape_problem({"id": "a", "region": "r"}, ["id"])
    'expected 1 attribute(s) in the actual identity object, got 2 attribute(s): actual identity has extra attribute(s): "region"'
    >>> identity_shape_problem({"id": "a"}, ["name"])
    'missing attribute "name" in actual identity object'
    """
    actual = [k for k in identity if isinstance(k, str)]
    if len(actual) == len(names):
        missing_names = [name for name in names if name not in identity]
        if not missing_names:
            return None
        return "; ".join(f"missing attribute {quote(k)} in actual identity object" for k in missing_names)
    extra = _delta(actual, set(names), "actual identity has extra attribute(s): ")
    missing = _delta(list(names), set(actual), "actual identity is missing attribute(s): ")
    detail = "; ".join(part for part in (extra, missing) if part)
    return (
        f"expected {len(names)} attribute(s) in the actual identity object, "
        f"got {len(actual)} attribute(s): {detail}"
    )


def identity_value_failures(
    identity: Mapping[str, Any], expected: tuple[tuple[str, Check], ...], secrets: Secrets | HasSecrets
) -> list[str]:
    """Why each attribute of ``identity`` named in ``expected`` does not match its check (Go's wording).

    >>> from plancheck import knownvalue as kv
    >>> identity_value_failures({"id": "a", "n": [1]}, (("id", kv.StringExact("b")), ("n", kv.ListExact([kv.Int64Exact(2)]))), Secrets())
    ['"id" identity attribute: expected value "b" for StringExact check, got: "a"', '"n" identity attribute: [0]: expected value 2 for Int64Exact check, got: 1']
    """
    found: list[str] = []
    for name, matcher in expected:
        problem = match_resolved(resolve_value(identity, None, None, Path().join(name)), matcher, secrets)
        if problem is not None:
            where, reason = problem
            inner = Path(*where.steps[1:]).to_text()
            found.append(f"{quote(name)} identity attribute: {inner + ': ' if inner else ''}{reason}")
    return found


def identity_attribute_failures(
    identity: Mapping[str, Any], expected: tuple[tuple[str, Check], ...], secrets: Secrets | HasSecrets
) -> list[str]:
    """Why ``identity`` is not exactly the attributes of ``expected``, each matching: Go's messages, every failure.

    >>> from plancheck import knownvalue as kv
    >>> identity_attribute_failures({"id": "a", "region": "r"}, (("id", kv.StringExact("b")),), Secrets())
    ['expected 1 attribute(s) in the actual identity object, got 2 attribute(s): actual identity has extra attribute(s): "region"']
    >>> identity_attribute_failures({"id": "a"}, (("id", kv.StringExact("b")),), Secrets())
    ['"id" identity attribute: expected value "b" for StringExact check, got: "a"']
    """
    shape = identity_shape_problem(identity, [k for k, _ in expected])
    if shape is not None:
        return [shape]
    return identity_value_failures(identity, expected, secrets)


def identity_matches(identity: Any, expected: tuple[tuple[str, Check], ...]) -> bool:
    """Whether ``identity`` is an object with exactly the attributes of ``expected``, each matching.

    >>> from plancheck import knownvalue as kv
    >>> identity_matches({"id": "a"}, (("id", kv.StringExact("a")),)), identity_matches(None, ())
    (True, False)
    """
    if not isinstance(identity, Mapping):
        return False
    return not identity_attribute_failures(identity, expected, Secrets())


def identity_text(expected: tuple[tuple[str, Check], ...]) -> str:
    """The expected identity as Go lists it: ``attribute "id": "x"``, one per attribute, sorted.

    >>> from plancheck import knownvalue as kv
    >>> identity_text((("id", kv.StringExact("x")), ("legs", kv.Int64Exact(2))))
    'attribute "id": "x", attribute "legs": 2'
    """
    return ", ".join(f"attribute {quote(name)}: {check}" for name, check in expected)


@frozen
class AddressIdentityFields(FrozenValue):
    """The fields of a check on one address's identity: ``address`` and ``identity`` (sorted name/check pairs).

    >>> from plancheck import knownvalue as kv
    >>> class ExpectX(AddressIdentityFields):
    ...     __slots__ = ()
    >>> ExpectX("a.b", {"id": kv.StringExact("x")})
    ExpectX('a.b', {'id': StringExact('x')})
    """

    address: str
    identity: tuple[tuple[str, Check], ...]

    if TYPE_CHECKING:  # the constructor takes more than the fields hold: __post_init__ converts
        def __init__(self, address: str, identity: Mapping[str, Check]) -> None: ...

    def __post_init__(self) -> None:
        check_fields(self, address=checked_address, identity=checked_identity)

    def _args(self, *, shown: bool = False) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self.address, dict(self.identity)), {}


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


def match_verdict(
    resolved: ResolvedValue, matcher: Check, secrets: Secrets | HasSecrets, base: Path
) -> tuple[Verdict, str]:
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
            Ctx(secrets_of(secrets), sensitive_shown(), unknown_passes=True),
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
    secrets: Secrets | HasSecrets,
    *,
    passed: int = 0,
) -> tuple[list[CheckFailure], list[PlanCheckWarning]]:
    """The failure and the warning of a check over ``items`` (in any order; reported by label).

    ``passed`` counts further objects that passed without an item (a large plan's passes cost no object).

    ``unknown`` is the check's ``unknown=``: ``"fail"`` lists unknown verdicts in the failure,
    ``"warn"`` in a warning, ``"pass"`` nowhere. ``subject`` (the selector's text) is the
    failure's address; every text is scrubbed of ``secrets`` (a document's: asked for only when there is a text).

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
    found: list[CheckFailure] = []
    if groups:
        # What the failure lists, each by its address: a baseline's entries name them one by one.
        listed = tuple(i.label for i in ordered if i.verdict is Verdict.FAIL or (unknown == "fail" and i.verdict is Verdict.UNKNOWN))
        failure = scrubbed_failure(secrets_of(secrets), check, subject, path, "; ".join(groups))
        found.append(dataclasses.replace(failure, elements=listed))
    warned: list[PlanCheckWarning] = []
    if unsure and unknown == "warn":
        record = scrubbed_failure(secrets_of(secrets), check, subject, path, _group(ordered, total, Verdict.UNKNOWN))
        warned.append(PlanCheckWarning.of(record))
    return found, warned
