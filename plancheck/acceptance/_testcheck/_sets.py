"""Go's ``TestCheckTypeSetElem*`` functions: find a set (or list) element by value, ``*`` for its index.

An ``attr`` such as ``rule.*`` or ``group.*.rule.*`` names elements; each ``*`` stands for an index
(any flatmap key part, except the count keys ``#``/``%``, which Go would match too: Go's
``TestCheckTypeSetElemAttr("r", "set.*", "2")`` passes on any two-element set).

For the nested-attribute checks an element matches when every non-empty expected value is met
in that one element (an empty string, as Go's documentation says, does not constrain). Go
counts matches per last index only, so it can pass on values spread over several elements
of an outer set, or count an empty expected value in place of a missing one; here it does not.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Final

from ..._frozen import public
from ..._redact import SENSITIVE, sensitive_shown
from .._errors import TestDefinitionError
from ._check import CheckFunc, Fail, compile_regex, instance, leaf, require_str, shown
from ._flatmap import FlatAttributes, FlatState
from ._gotext import go_quote, go_string_map

__all__ = [
    "TestCheckTypeSetElemAttr",
    "TestCheckTypeSetElemAttrPair",
    "TestCheckTypeSetElemNestedAttrs",
    "TestMatchTypeSetElemNestedAttrs",
]

_SENTINEL: Final = "*"
_COUNTS: Final = frozenset({"#", "%"})


def _part_matches(pattern: str, part: str) -> bool:
    return pattern == part or (pattern == _SENTINEL and part not in _COUNTS)


def _prefix_matches(attr_parts: list[str], key_parts: list[str]) -> bool:
    return all(_part_matches(p, k) for p, k in zip(attr_parts, key_parts, strict=False))


def _ends_with_sentinel(where: str, attr: str) -> list[str]:
    parts = attr.split(".")
    if parts[-1] != _SENTINEL:
        raise TestDefinitionError(where, f"{go_quote(attr)} does not end with the special value {go_quote(_SENTINEL)}")
    return parts


def _under_pattern_sensitive(attrs: FlatAttributes, attr_parts: list[str]) -> bool:
    n = len(attr_parts)
    return any(
        attrs.sensitive(key) for key in attrs if len(parts := key.split(".")) >= n and _prefix_matches(attr_parts, parts)
    )


def _elem(attrs: FlatAttributes, attr: str, value: str) -> None:
    attr_parts = attr.split(".")
    for key, got in attrs.items():
        if got == value:
            parts = key.split(".")
            if len(parts) == len(attr_parts) and _prefix_matches(attr_parts, parts):
                return
    secret = _under_pattern_sensitive(attrs, attr_parts)
    raise Fail(f"no TypeSet element {go_quote(attr)}, with value {shown(value, secret)} in state: {attrs.go_repr()}")


@public("plancheck.acceptance")
def TestCheckTypeSetElemAttr(name: str, attr: str, value: str) -> CheckFunc:
    """Go's ``TestCheckTypeSetElemAttr``: some element of the set at ``attr`` (ending in ``*``) is ``value``.

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...     {"address": "null_resource.a", "values": {"ports": [80, 443]}}]}}})
    >>> TestCheckTypeSetElemAttr("null_resource.a", "ports.*", "443")(state)
    >>> TestCheckTypeSetElemAttr("null_resource.a", "ports.*", "2")(state)
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestCheckFuncError: "null_resource.a" error: no TypeSet element "ports.*", with value "2" in state: map[string]string{"%":"1", "ports.#":"2", "ports.0":"80", "ports.1":"443"}
    """
    where = "TestCheckTypeSetElemAttr"
    name, attr, value = require_str(where, "name", name), require_str(where, "attr", attr), require_str(where, "value", value)
    _ends_with_sentinel(where, attr)

    def run(flat: FlatState) -> None:
        attrs = instance(flat, "", name)
        try:
            _elem(attrs, attr, value)
        except Fail as failure:
            raise Fail(f"{go_quote(name)} error: {failure.message}") from None

    return leaf(where, f"{name!r}, {attr!r}", name, attr, run)


@public("plancheck.acceptance")
def TestCheckTypeSetElemAttrPair(name_first: str, key_first: str, name_second: str, key_second: str) -> CheckFunc:
    """Go's ``TestCheckTypeSetElemAttrPair``: some element at ``key_first`` (``*`` for indexes) equals the second value.

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...     {"address": "null_resource.a", "values": {"ids": ["x", "y"]}},
    ...     {"address": "null_resource.b", "values": {"id": "y"}}]}}})
    >>> TestCheckTypeSetElemAttrPair("null_resource.a", "ids.*", "null_resource.b", "id")(state)
    >>> TestCheckTypeSetElemAttrPair("null_resource.a", "ids.*", "null_resource.b", "name")(state)
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestCheckFuncError: null_resource.b: Attribute "name" not set, cannot be checked against TypeSet
    """
    where = "TestCheckTypeSetElemAttrPair"
    name1, key1 = require_str(where, "name_first", name_first), require_str(where, "key_first", key_first)
    name2, key2 = require_str(where, "name_second", name_second), require_str(where, "key_second", key_second)

    def run(flat: FlatState) -> None:
        first = instance(flat, "", name1)
        second = instance(flat, "", name2)
        value = second.get(key2)
        if value is None:
            raise Fail(f"{name2}: Attribute {go_quote(key2)} not set, cannot be checked against TypeSet")
        attr_parts = key1.split(".")
        for key, got in first.items():
            if got == value:
                parts = key.split(".")
                if len(parts) == len(attr_parts) and _prefix_matches(attr_parts, parts):
                    return
        secret = second.sensitive(key2) or _under_pattern_sensitive(first, attr_parts)
        raise Fail(f"no TypeSet element {go_quote(key1)}, with value {shown(value, secret)} in state: {first.go_repr()}")

    return leaf(where, f"{name1!r}, {key1!r}, {name2!r}, {key2!r}", name1, key1, run)


def _find_element(attrs: FlatAttributes, attr_parts: list[str], test: Mapping[str, Callable[[str], bool]]) -> bool:
    """Whether one element under ``attr_parts`` passes every test of ``test`` (nested key -> test of its value)."""
    n = len(attr_parts)
    passed: dict[tuple[str, ...], set[str]] = {}
    for key, value in attrs.items():
        parts = key.split(".")
        # As Go: a nested key has at least three parts and lies below the pattern.
        if len(parts) < 3 or len(parts) <= n - 1 or not _prefix_matches(attr_parts, parts[:n]):
            continue
        nested = ".".join(parts[n:])
        check = test.get(nested)
        if check is not None and check(value):
            element = tuple(parts[:n])
            found = passed.setdefault(element, set())
            found.add(nested)
            if len(found) == len(test):
                return True
    return False


def _nested_check(
    where: str, name: Any, attr: Any, tests: dict[str, Callable[[str], bool]], describe: Callable[[FlatAttributes, bool], str]
) -> CheckFunc:
    parts = _ends_with_sentinel(where, attr)

    def run(flat: FlatState) -> None:
        attrs = instance(flat, "", name)
        if not _find_element(attrs, parts, tests):
            raise Fail(describe(attrs, _under_pattern_sensitive(attrs, parts)))

    return leaf(where, f"{name!r}, {attr!r}", name, attr, run)


@public("plancheck.acceptance")
def TestCheckTypeSetElemNestedAttrs(name: str, attr: str, values: Mapping[str, str]) -> CheckFunc:
    """Go's ``TestCheckTypeSetElemNestedAttrs``: one element at ``attr`` (ending in ``*``) has all of ``values``.

    ``values`` maps nested flatmap keys to expected values; an empty value does not constrain.
    At least one value must be non-empty.

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...     {"address": "null_resource.a", "values": {"rule": [{"port": 80, "proto": "tcp"}, {"port": 53, "proto": "udp"}]}}]}}})
    >>> TestCheckTypeSetElemNestedAttrs("null_resource.a", "rule.*", {"port": "53", "proto": "udp"})(state)
    >>> TestCheckTypeSetElemNestedAttrs("null_resource.a", "rule.*", {"port": "53", "proto": "tcp"})(state)
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestCheckFuncError: "null_resource.a" no TypeSet element "rule.*", with nested attrs map[string]string{"port":"53", "proto":"tcp"} in state: map[string]string{"%":"1", "rule.#":"2", "rule.0.%":"2", "rule.0.port":"80", "rule.0.proto":"tcp", "rule.1.%":"2", "rule.1.port":"53", "rule.1.proto":"udp"}
    """
    where = "TestCheckTypeSetElemNestedAttrs"
    name, attr = require_str(where, "name", name), require_str(where, "attr", attr)
    if not isinstance(values, Mapping):
        raise TestDefinitionError(where, f"values: expected a mapping of str to str, got {type(values).__name__}")
    expected = {require_str(where, "values key", k): require_str(where, f"values[{k!r}]", v) for k, v in values.items()}
    tests: dict[str, Callable[[str], bool]] = {k: v.__eq__ for k, v in expected.items() if v != ""}
    if not tests:
        raise TestDefinitionError(where, f"{go_string_map(expected)} has no non-empty values")

    def describe(attrs: FlatAttributes, secret: bool) -> str:
        hidden = {k: SENSITIVE for k in expected} if secret and not sensitive_shown() else None
        wanted = go_string_map(expected, hidden)
        return f"{go_quote(name)} no TypeSet element {go_quote(attr)}, with nested attrs {wanted} in state: {attrs.go_repr()}"

    return _nested_check(where, name, attr, tests, describe)


@public("plancheck.acceptance")
def TestMatchTypeSetElemNestedAttrs(name: str, attr: str, values: Mapping[str, str | re.Pattern[str] | None]) -> CheckFunc:
    """Go's ``TestMatchTypeSetElemNestedAttrs``: one element at ``attr`` has nested values matching ``values``.

    ``values`` maps nested flatmap keys to regular expressions (searched anywhere); None does
    not constrain. At least one must be given.

    >>> from plancheck import State
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...     {"address": "null_resource.a", "values": {"rule": [{"cidr": "10.0.0.0/8"}]}}]}}})
    >>> TestMatchTypeSetElemNestedAttrs("null_resource.a", "rule.*", {"cidr": r"^10\\."})(state)
    >>> TestMatchTypeSetElemNestedAttrs("null_resource.a", "rule.*", {"cidr": r"^192\\."})(state)
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestCheckFuncError: "null_resource.a" no TypeSet element "rule.*", with the regex provided, match in state: map[string]string{"%":"1", "rule.#":"1", "rule.0.%":"1", "rule.0.cidr":"10.0.0.0/8"}
    """
    where = "TestMatchTypeSetElemNestedAttrs"
    name, attr = require_str(where, "name", name), require_str(where, "attr", attr)
    if not isinstance(values, Mapping):
        raise TestDefinitionError(where, f"values: expected a mapping of str to regular expressions, got {type(values).__name__}")
    tests: dict[str, Callable[[str], bool]] = {}
    for key, pattern in values.items():
        require_str(where, "values key", key)
        if pattern is not None:
            regex = compile_regex(where, f"values[{key!r}]", pattern)
            tests[key] = lambda text, regex=regex: regex.search(text) is not None  # type: ignore[misc]
    if not tests:
        raise TestDefinitionError(where, "values has no non-empty values")

    def describe(attrs: FlatAttributes, secret: bool) -> str:
        return f"{go_quote(name)} no TypeSet element {go_quote(attr)}, with the regex provided, match in state: {attrs.go_repr()}"

    return _nested_check(where, name, attr, tests, describe)
