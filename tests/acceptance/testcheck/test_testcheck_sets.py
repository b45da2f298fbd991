"""The TestCheckTypeSetElem* checks (cases after Go's testing_sets_test.go), and where they are stricter than Go."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from testcheck_support import make_state, one, resource

from plancheck import State
from plancheck.acceptance import (
    CheckFunc,
    TestCheckFuncError,
    TestCheckTypeSetElemAttr,
    TestCheckTypeSetElemAttrPair,
    TestCheckTypeSetElemNestedAttrs,
    TestDefinitionError,
    TestMatchTypeSetElemNestedAttrs,
)

SCALARS = one({"id": "x", "tags": ["value1", "value2"], "ports": [80, 443], "empty": []})
BLOCKS = one(
    {
        "rule": [
            {"port": 80, "proto": "tcp", "note": ""},
            {"port": 53, "proto": "udp", "note": None},
        ]
    }
)
# Go's "varying depths" case: groups nest groups.
GROUPS = one(
    {
        "groups": [
            {"gid": "group ID 0", "groups": []},
            {"gid": "group ID 1", "groups": [{"gid": "group ID 2", "groups": [{"gid": "group ID 3", "groups": []}]}]},
        ]
    }
)
# The same inner element index (0) under two outer elements: Go counts both as one.
SPLIT = one({"outer": [{"inner": [{"a": "1", "b": "2"}]}, {"inner": [{"a": "3", "b": "4"}]}]})
PAIR = make_state(
    [resource("test.a", {"ids": ["x", "y"], "n": [1]}), resource("test.b", {"id": "y", "other": "z", "two": "2"})]
)

CASES: list[Any] = [
    pytest.param(TestCheckTypeSetElemAttr("test.a", "tags.*", "value1"), SCALARS, None, id="elem-first"),
    pytest.param(TestCheckTypeSetElemAttr("test.a", "tags.*", "value2"), SCALARS, None, id="elem-second"),
    pytest.param(TestCheckTypeSetElemAttr("test.a", "ports.*", "443"), SCALARS, None, id="elem-number-text"),
    pytest.param(
        TestCheckTypeSetElemAttr("test.a", "tags.*", "value3"), SCALARS,
        '"test.a" error: no TypeSet element "tags.*", with value "value3" in state: map[string]string{"%":"4", '
        '"empty.#":"0", "id":"x", "ports.#":"2", "ports.0":"80", "ports.1":"443", "tags.#":"2", "tags.0":"value1", "tags.1":"value2"}',
        id="elem-missing",
    ),
    pytest.param(
        TestCheckTypeSetElemAttr("test.a", "tags.*", "2"), SCALARS,
        '"test.a" error: no TypeSet element "tags.*", with value "2" in state: map[string]string{"%":"4", '
        '"empty.#":"0", "id":"x", "ports.#":"2", "ports.0":"80", "ports.1":"443", "tags.#":"2", "tags.0":"value1", "tags.1":"value2"}',
        id="elem-star-never-matches-count",
    ),
    pytest.param(TestCheckTypeSetElemAttr("test.a", "outer.*.inner.0.*", "4"), SPLIT, None, id="elem-two-stars"),
    pytest.param(TestCheckTypeSetElemAttr("test.a", "rule.0.*", ""), BLOCKS, None, id="elem-star-over-object-keys"),
    pytest.param(
        TestCheckTypeSetElemAttr("test.nope", "tags.*", "x"), SCALARS, "Not found: test.nope in [root]", id="elem-no-resource",
    ),
    # nested attrs
    pytest.param(
        TestCheckTypeSetElemNestedAttrs("test.a", "rule.*", {"port": "53", "proto": "udp"}), BLOCKS, None, id="nested-match",
    ),
    pytest.param(
        TestCheckTypeSetElemNestedAttrs("test.a", "rule.*", {"port": "80", "note": ""}), BLOCKS, None,
        id="nested-empty-value-does-not-constrain",
    ),
    pytest.param(
        TestCheckTypeSetElemNestedAttrs("test.a", "rule.*", {"%": "3"}), BLOCKS, None, id="nested-element-count",
    ),
    pytest.param(
        TestCheckTypeSetElemNestedAttrs("test.a", "rule.*", {"port": "80", "proto": "udp"}), BLOCKS,
        '"test.a" no TypeSet element "rule.*", with nested attrs map[string]string{"port":"80", "proto":"udp"} in state: '
        'map[string]string{"%":"1", "rule.#":"2", "rule.0.%":"3", "rule.0.note":"", "rule.0.port":"80", "rule.0.proto":"tcp", '
        '"rule.1.%":"3", "rule.1.port":"53", "rule.1.proto":"udp"}',
        id="nested-values-in-different-elements",
    ),
    pytest.param(
        TestCheckTypeSetElemNestedAttrs("test.a", "groups.*.groups.*.groups.*", {"gid": "group ID 3"}), GROUPS, None,
        id="nested-varying-depths-match",
    ),
    pytest.param(
        TestCheckTypeSetElemNestedAttrs("test.a", "groups.*.groups.*", {"gid": "group ID 3"}), GROUPS,
        '"test.a" no TypeSet element "groups.*.groups.*", with nested attrs map[string]string{"gid":"group ID 3"} in state: '
        'map[string]string{"%":"1", "groups.#":"2", "groups.0.%":"2", "groups.0.gid":"group ID 0", "groups.0.groups.#":"0", '
        '"groups.1.%":"2", "groups.1.gid":"group ID 1", "groups.1.groups.#":"1", "groups.1.groups.0.%":"2", '
        '"groups.1.groups.0.gid":"group ID 2", "groups.1.groups.0.groups.#":"1", "groups.1.groups.0.groups.0.%":"2", '
        '"groups.1.groups.0.groups.0.gid":"group ID 3", "groups.1.groups.0.groups.0.groups.#":"0"}',
        id="nested-varying-depths-wrong-level",
    ),
    pytest.param(
        TestCheckTypeSetElemNestedAttrs("test.a", "outer.*.inner.*", {"a": "3", "b": "4"}), SPLIT, None, id="nested-two-stars",
    ),
    pytest.param(
        TestCheckTypeSetElemNestedAttrs("test.a", "outer.*.inner.*", {"a": "1", "b": "4"}), SPLIT,
        '"test.a" no TypeSet element "outer.*.inner.*", with nested attrs map[string]string{"a":"1", "b":"4"} in state: '
        'map[string]string{"%":"1", "outer.#":"2", "outer.0.%":"1", "outer.0.inner.#":"1", "outer.0.inner.0.%":"2", '
        '"outer.0.inner.0.a":"1", "outer.0.inner.0.b":"2", "outer.1.%":"1", "outer.1.inner.#":"1", "outer.1.inner.0.%":"2", '
        '"outer.1.inner.0.a":"3", "outer.1.inner.0.b":"4"}',
        id="nested-values-split-over-outer-elements-fail-unlike-go",
    ),
    # regex nested attrs
    pytest.param(
        TestMatchTypeSetElemNestedAttrs("test.a", "rule.*", {"port": r"^5\d$", "proto": "^u"}), BLOCKS, None, id="match-nested",
    ),
    pytest.param(
        TestMatchTypeSetElemNestedAttrs("test.a", "rule.*", {"port": "^53$", "note": None}), BLOCKS, None,
        id="match-nested-none-does-not-constrain",
    ),
    pytest.param(
        TestMatchTypeSetElemNestedAttrs("test.a", "rule.*", {"port": re.compile("^8"), "proto": "udp"}), BLOCKS,
        '"test.a" no TypeSet element "rule.*", with the regex provided, match in state: map[string]string{"%":"1", '
        '"rule.#":"2", "rule.0.%":"3", "rule.0.note":"", "rule.0.port":"80", "rule.0.proto":"tcp", "rule.1.%":"3", '
        '"rule.1.port":"53", "rule.1.proto":"udp"}',
        id="match-nested-fails",
    ),
    # pair
    pytest.param(TestCheckTypeSetElemAttrPair("test.a", "ids.*", "test.b", "id"), PAIR, None, id="pair-match"),
    pytest.param(TestCheckTypeSetElemAttrPair("test.a", "ids.1", "test.b", "id"), PAIR, None, id="pair-exact-key"),
    pytest.param(
        TestCheckTypeSetElemAttrPair("test.a", "ids.*", "test.b", "other"), PAIR,
        'no TypeSet element "ids.*", with value "z" in state: map[string]string{"%":"2", "ids.#":"2", "ids.0":"x", '
        '"ids.1":"y", "n.#":"1", "n.0":"1"}',
        id="pair-no-element",
    ),
    pytest.param(
        TestCheckTypeSetElemAttrPair("test.a", "ids.*", "test.b", "two"), PAIR,
        'no TypeSet element "ids.*", with value "2" in state: map[string]string{"%":"2", "ids.#":"2", "ids.0":"x", '
        '"ids.1":"y", "n.#":"1", "n.0":"1"}',
        id="pair-star-never-matches-count",
    ),
    pytest.param(
        TestCheckTypeSetElemAttrPair("test.a", "ids.*", "test.b", "nope"), PAIR,
        'test.b: Attribute "nope" not set, cannot be checked against TypeSet', id="pair-second-unset",
    ),
]


@pytest.mark.parametrize(("check", "state", "message"), CASES)
def test_set_check(check: CheckFunc, state: State, message: str | None) -> None:
    if message is None:
        check(state)  # passes: raises nothing
        return
    with pytest.raises(TestCheckFuncError) as info:
        check(state)
    assert str(info.value) == message


BAD: list[Any] = [
    pytest.param(lambda: TestCheckTypeSetElemAttr("a.b", "tags", "x"), 'TestCheckTypeSetElemAttr: "tags" does not end with the special value "*"', id="elem-no-star"),
    pytest.param(lambda: TestCheckTypeSetElemNestedAttrs("a.b", "rule.*.x", {"a": "b"}), 'TestCheckTypeSetElemNestedAttrs: "rule.*.x" does not end with the special value "*"', id="nested-no-star"),
    pytest.param(lambda: TestCheckTypeSetElemNestedAttrs("a.b", "rule.*", {}), "TestCheckTypeSetElemNestedAttrs: map[string]string{} has no non-empty values", id="nested-no-values"),
    pytest.param(lambda: TestCheckTypeSetElemNestedAttrs("a.b", "rule.*", {"key": ""}), 'TestCheckTypeSetElemNestedAttrs: map[string]string{"key":""} has no non-empty values', id="nested-only-empty"),
    pytest.param(lambda: TestCheckTypeSetElemNestedAttrs("a.b", "rule.*", [("a", "b")]), "TestCheckTypeSetElemNestedAttrs: values: expected a mapping of str to str, got list", id="nested-not-mapping"),  # type: ignore[arg-type]
    pytest.param(lambda: TestCheckTypeSetElemNestedAttrs("a.b", "rule.*", {"a": 1}), "TestCheckTypeSetElemNestedAttrs: values['a']: expected a str (Go's string; write \"1\" for a number), got int", id="nested-value-not-str"),  # type: ignore[dict-item]
    pytest.param(lambda: TestMatchTypeSetElemNestedAttrs("a.b", "rule.*", {"key": None}), "TestMatchTypeSetElemNestedAttrs: values has no non-empty values", id="match-only-none"),
    pytest.param(lambda: TestMatchTypeSetElemNestedAttrs("a.b", "rule.*", {"key": "["}), "TestMatchTypeSetElemNestedAttrs: values['key']: bad regular expression \"[\": unterminated character set at position 0", id="match-bad-regex"),
]


@pytest.mark.parametrize(("build", "message"), BAD)
def test_bad_set_arguments_fail_when_built(build: Callable[[], object], message: str) -> None:
    with pytest.raises(TestDefinitionError) as info:
        build()
    assert str(info.value) == message
