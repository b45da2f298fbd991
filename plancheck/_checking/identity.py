"""Matching a resource identity (attribute name to value) against a dict of knownvalue checks.

State checks (``statecheck.ExpectIdentity``), query checks (``querycheck.ExpectIdentity``,
``ExpectNoIdentity``) and query filters (``queryfilter.ByResourceIdentity``) all compare an
identity object with Go's rule: exactly the given attributes, each matching its check.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tfjsonpath import Path

from .._documents.resolve import resolve_value
from .._frozen import FrozenValue, frozen
from .._redact import Secrets
from .fields import checked_address
from .match import match_resolved
from .matcher import Check, require_check
from .messages import quote

__all__ = [
    "AddressIdentityFields",
    "checked_identity",
    "identity_attribute_failures",
    "identity_matches",
    "identity_shape_problem",
    "identity_text",
    "identity_value_failures",
]


def checked_identity(value: object, check: str) -> tuple[tuple[str, Check], ...]:
    """An identity argument (a dict of attribute name to knownvalue check) as sorted pairs.

    >>> from plancheck import knownvalue as kv
    >>> checked_identity({"region": kv.NotNull(), "id": kv.StringExact("x")}, "ExpectX")
    (('id', StringExact('x')), ('region', NotNull()))
    >>> checked_identity({"id": "x"}, "ExpectX")
    Traceback (most recent call last):
    ...
    TypeError: ExpectX: identity["id"] must be a knownvalue check, got str (wrap plain values with knownvalue.exact())
    """
    if not isinstance(value, Mapping):
        raise TypeError(
            f"{check}: identity must be a dict of attribute name to knownvalue check, got {type(value).__name__}"
        )
    pairs: list[tuple[str, Check]] = []
    for key, item in value.items():
        if not isinstance(key, str):
            raise TypeError(f"{check}: identity attribute names must be str, got {type(key).__name__}: {key!r}")
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
    identity: Mapping[str, Any], expected: tuple[tuple[str, Check], ...], secrets: Secrets
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
    identity: Mapping[str, Any], expected: tuple[tuple[str, Check], ...], secrets: Secrets
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
        name = type(self).__name__
        self._set(address=checked_address(self.address, name), identity=checked_identity(self.identity, name))

    def _args(self, *, shown: bool = False) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self.address, dict(self.identity)), {}
