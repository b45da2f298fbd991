"""The attribute and output checks, case by case, with Go's wording pinned (cases after Go's testing_test.go)."""

from __future__ import annotations

import pickle
import re
from collections.abc import Callable
from typing import Any

import pytest
from testcheck_support import make_state, one, resource

from plancheck import State
from plancheck.acceptance import (
    CheckFunc,
    TestCheckFuncError,
    TestCheckModuleNoResourceAttr,
    TestCheckModuleResourceAttr,
    TestCheckModuleResourceAttrPair,
    TestCheckModuleResourceAttrPtr,
    TestCheckModuleResourceAttrSet,
    TestCheckNoResourceAttr,
    TestCheckOutput,
    TestCheckResourceAttr,
    TestCheckResourceAttrPair,
    TestCheckResourceAttrPtr,
    TestCheckResourceAttrSet,
    TestCheckResourceAttrWith,
    TestDefinitionError,
    TestMatchOutput,
    TestMatchResourceAttr,
    TestModuleMatchResourceAttr,
)

ATTRS = one(
    {
        "id": "i-1",
        "empty": "",
        "flag": True,
        "ratio": 1.2,
        "count": 123,
        "list": ["v0"],
        "map": {"k1": "v1"},
        "nested": [{"port": 80}],
        "gone": None,
        "no_list": [],
        "no_map": {},
    }
)
PAIRS = make_state(
    [
        resource("test.a", {"a": "boop", "l": [], "m": {"x": "1"}, "beep": "beep", "z": ["q"]}),
        resource("test.b", {"b": "boop", "m": {"y": "1"}, "beep": "boop", "z": []}),
    ]
)
MODULES = make_state(
    [resource("test.a", {"id": "root"})],
    modules=[{"address": "module.child", "resources": [resource("module.child.test.a", {"id": "child", "l": []})]}],
)
OUTPUTS = make_state(
    outputs={
        "s": {"value": "hello"},
        "b": {"value": True},
        "n": {"value": 1.5},
        "l": {"value": ["a", 1]},
        "m": {"value": {"k": "v"}},
    }
)

LIST_HINT = (
    "test.a: list or set attribute 'list' must be checked by element count key (list.#) or element value keys "
    "(e.g. list.0). Set element value checks should use TestCheckTypeSet functions instead."
)
MAP_HINT = "test.a: map attribute 'map' must be checked by element count key (map.%) or element value keys (e.g. map.examplekey)."

CASES: list[Any] = [
    # TestCheckResourceAttr
    pytest.param(TestCheckResourceAttr("test.a", "id", "i-1"), ATTRS, None, id="attr-string-match"),
    pytest.param(TestCheckResourceAttr("test.a", "empty", ""), ATTRS, None, id="attr-empty-string-match"),
    pytest.param(TestCheckResourceAttr("test.a", "flag", "true"), ATTRS, None, id="attr-bool-text"),
    pytest.param(
        TestCheckResourceAttr("test.a", "flag", "false"), ATTRS,
        "test.a: Attribute 'flag' expected \"false\", got \"true\"", id="attr-bool-mismatch",
    ),
    pytest.param(TestCheckResourceAttr("test.a", "ratio", "1.2"), ATTRS, None, id="attr-float-text"),
    pytest.param(
        TestCheckResourceAttr("test.a", "count", "456"), ATTRS,
        "test.a: Attribute 'count' expected \"456\", got \"123\"", id="attr-int-mismatch",
    ),
    pytest.param(TestCheckResourceAttr("test.a", "list.#", "1"), ATTRS, None, id="attr-list-count"),
    pytest.param(TestCheckResourceAttr("test.a", "list.0", "v0"), ATTRS, None, id="attr-list-element"),
    pytest.param(TestCheckResourceAttr("test.a", "map.%", "1"), ATTRS, None, id="attr-map-count"),
    pytest.param(TestCheckResourceAttr("test.a", "map.k1", "v1"), ATTRS, None, id="attr-map-element"),
    pytest.param(TestCheckResourceAttr("test.a", "nested.0.port", "80"), ATTRS, None, id="attr-nested-block"),
    pytest.param(TestCheckResourceAttr("test.a", "%", "11"), ATTRS, None, id="attr-root-count-counts-nulls"),
    pytest.param(TestCheckResourceAttr("test.a", "absent.#", "0"), ATTRS, None, id="attr-absent-list-count-zero"),
    pytest.param(TestCheckResourceAttr("test.a", "absent.%", "0"), ATTRS, None, id="attr-absent-map-count-zero"),
    pytest.param(TestCheckResourceAttr("test.a", "no_list.#", "0"), ATTRS, None, id="attr-empty-list-count-zero"),
    pytest.param(
        TestCheckResourceAttr("test.a", "absent.#", "1"), ATTRS,
        "test.a: Attribute 'absent.#' not found", id="attr-absent-count-nonzero",
    ),
    pytest.param(
        TestCheckResourceAttr("test.a", "gone", ""), ATTRS, "test.a: Attribute 'gone' not found", id="attr-null-is-absent",
    ),
    pytest.param(TestCheckResourceAttr("test.a", "list", "x"), ATTRS, LIST_HINT, id="attr-list-without-count"),
    pytest.param(TestCheckResourceAttr("test.a", "map", "x"), ATTRS, MAP_HINT, id="attr-map-without-count"),
    pytest.param(
        TestCheckResourceAttr("test.a", "list.#", "2"), ATTRS,
        "test.a: Attribute 'list.#' expected \"2\", got \"1\"", id="attr-count-mismatch",
    ),
    pytest.param(
        TestCheckResourceAttr("test.nope", "id", "x"), ATTRS, "Not found: test.nope in [root]", id="attr-resource-not-found",
    ),
    pytest.param(
        TestCheckResourceAttr("test.a", "set.1234567.id", "x"), ATTRS,
        "Error in test check: test.a: Attribute 'set.1234567.id' not found\n"
        'Test check address "set.1234567.id" likely indexes into TypeSet\nThis is currently not possible in the SDK',
        id="attr-typeset-hash-hint",
    ),
    pytest.param(
        TestCheckResourceAttr("test.a", "id", 'say "hi"\n'), ATTRS,
        "test.a: Attribute 'id' expected \"say \\\"hi\\\"\\n\", got \"i-1\"", id="attr-go-quoting",
    ),
    # TestCheckResourceAttrSet
    pytest.param(TestCheckResourceAttrSet("test.a", "id"), ATTRS, None, id="set-present"),
    pytest.param(
        TestCheckResourceAttrSet("test.a", "empty"), ATTRS, "test.a: Attribute 'empty' expected to be set", id="set-empty-string",
    ),
    pytest.param(
        TestCheckResourceAttrSet("test.a", "gone"), ATTRS, "test.a: Attribute 'gone' expected to be set", id="set-null",
    ),
    pytest.param(TestCheckResourceAttrSet("test.a", "list"), ATTRS, LIST_HINT, id="set-list-hint"),
    pytest.param(TestCheckResourceAttrSet("test.a", "map"), ATTRS, MAP_HINT, id="set-map-hint"),
    pytest.param(TestCheckResourceAttrSet("test.a", "list.#"), ATTRS, None, id="set-count"),
    # TestCheckNoResourceAttr
    pytest.param(TestCheckNoResourceAttr("test.a", "gone"), ATTRS, None, id="no-null"),
    pytest.param(TestCheckNoResourceAttr("test.a", "absent"), ATTRS, None, id="no-absent"),
    pytest.param(TestCheckNoResourceAttr("test.a", "no_list.#"), ATTRS, None, id="no-empty-list-count"),
    pytest.param(TestCheckNoResourceAttr("test.a", "no_map.%"), ATTRS, None, id="no-empty-map-count"),
    pytest.param(
        TestCheckNoResourceAttr("test.a", "flag"), ATTRS, "test.a: Attribute 'flag' found when not expected", id="no-present",
    ),
    pytest.param(
        TestCheckNoResourceAttr("test.a", "empty"), ATTRS, "test.a: Attribute 'empty' found when not expected",
        id="no-empty-string-is-present",
    ),
    pytest.param(
        TestCheckNoResourceAttr("test.a", "list.#"), ATTRS, "test.a: Attribute 'list.#' found when not expected",
        id="no-nonzero-count",
    ),
    pytest.param(TestCheckNoResourceAttr("test.a", "list"), ATTRS, LIST_HINT, id="no-list-hint"),
    pytest.param(TestCheckNoResourceAttr("test.a", "map"), ATTRS, MAP_HINT, id="no-map-hint"),
    # TestMatchResourceAttr
    pytest.param(TestMatchResourceAttr("test.a", "id", r"^i-\d$"), ATTRS, None, id="match-anchored"),
    pytest.param(TestMatchResourceAttr("test.a", "id", "-"), ATTRS, None, id="match-searches-anywhere"),
    pytest.param(TestMatchResourceAttr("test.a", "absent", "^$"), ATTRS, None, id="match-absent-is-empty-string"),
    pytest.param(TestMatchResourceAttr("test.a", "id", re.compile("I-1", re.I)), ATTRS, None, id="match-compiled-flags"),
    pytest.param(
        TestMatchResourceAttr("test.a", "id", "^x"), ATTRS, "test.a: Attribute 'id' didn't match \"^x\", got \"i-1\"",
        id="match-fails",
    ),
    # TestCheckResourceAttrWith
    pytest.param(TestCheckResourceAttrWith("test.a", "count", lambda v: None), ATTRS, None, id="with-none-passes"),
    pytest.param(TestCheckResourceAttrWith("test.a", "count", lambda v: v == "123"), ATTRS, None, id="with-true-passes"),
    pytest.param(
        TestCheckResourceAttrWith("test.a", "count", lambda v: ValueError(f"got {v}")), ATTRS,
        'test.a: Attribute "count" value: got 123', id="with-returned-error",
    ),
    pytest.param(
        TestCheckResourceAttrWith("test.a", "id", int), ATTRS,
        "test.a: Attribute \"id\" value: invalid literal for int() with base 10: 'i-1'", id="with-raised-error",
    ),
    pytest.param(
        TestCheckResourceAttrWith("test.a", "id", lambda v: False), ATTRS,
        'test.a: Attribute "id" value: check function returned False', id="with-false",
    ),
    pytest.param(
        TestCheckResourceAttrWith("test.a", "gone", lambda v: None), ATTRS, "test.a: Attribute 'gone' expected to be set",
        id="with-absent-not-called",
    ),
    # TestCheckResourceAttrPtr
    pytest.param(TestCheckResourceAttrPtr("test.a", "id", lambda: "i-1"), ATTRS, None, id="ptr-match"),
    pytest.param(
        TestCheckResourceAttrPtr("test.a", "id", lambda: "i-2"), ATTRS,
        "test.a: Attribute 'id' expected \"i-2\", got \"i-1\"", id="ptr-mismatch",
    ),
    # TestCheckResourceAttrPair (Go's table)
    pytest.param(TestCheckResourceAttrPair("test.a", "a", "test.b", "b"), PAIRS, None, id="pair-exist-match"),
    pytest.param(TestCheckResourceAttrPair("test.a", "nope", "test.b", "nope"), PAIRS, None, id="pair-both-unset"),
    pytest.param(
        TestCheckResourceAttrPair("test.a", "beep", "test.b", "beep"), PAIRS,
        "test.a: Attribute 'beep' expected \"boop\", got \"beep\"", id="pair-exist-nonmatch",
    ),
    pytest.param(
        TestCheckResourceAttrPair("test.a", "a", "test.b", "nope"), PAIRS,
        'test.a: Attribute "a" is "boop", but "nope" is not set in test.b', id="pair-only-first-set",
    ),
    pytest.param(
        TestCheckResourceAttrPair("test.a", "nope", "test.b", "b"), PAIRS,
        'test.a: Attribute "nope" not set, but "b" is set in test.b as "boop"', id="pair-only-second-set",
    ),
    pytest.param(TestCheckResourceAttrPair("test.a", "l.#", "test.b", "l.#"), PAIRS, None, id="pair-zero-and-unset-list"),
    pytest.param(
        TestCheckResourceAttrPair("test.a", "z.#", "test.a", "l.#"), PAIRS,
        'test.a: Attribute "z.#" is "1", but "l.#" is not set in test.a', id="pair-count-vs-zero",
    ),
    pytest.param(TestCheckResourceAttrPair("test.a", "m.%", "test.b", "m.%"), PAIRS, None, id="pair-count-equal"),
    pytest.param(
        TestCheckResourceAttrPair("test.a", "a", "test.nope", "b"), PAIRS, "Not found: test.nope in [root]",
        id="pair-second-not-found",
    ),
    pytest.param(
        TestCheckResourceAttrPair("test.a", "s.4567.x", "test.b", "b"), PAIRS,
        'Error in test check: test.a: Attribute "s.4567.x" not set, but "b" is set in test.b as "boop"\n'
        'Test check address "s.4567.x" or "b" likely indexes into TypeSet\nThis is currently not possible in the SDK',
        id="pair-typeset-hash-hint",
    ),
    # module variants
    pytest.param(TestCheckModuleResourceAttr(["child"], "test.a", "id", "child"), MODULES, None, id="module-names"),
    pytest.param(TestCheckModuleResourceAttr(["root", "child"], "test.a", "id", "child"), MODULES, None, id="module-legacy-root"),
    pytest.param(TestCheckModuleResourceAttr("module.child", "test.a", "id", "child"), MODULES, None, id="module-address"),
    pytest.param(TestCheckModuleResourceAttr([], "test.a", "id", "root"), MODULES, None, id="module-empty-is-root"),
    pytest.param(
        TestCheckModuleResourceAttr(["other"], "test.a", "id", "x"), MODULES, "No module found at: module.other",
        id="module-not-found",
    ),
    pytest.param(
        TestCheckModuleResourceAttr(["child"], "test.b", "id", "x"), MODULES, "Not found: test.b in [root child]",
        id="module-resource-not-found",
    ),
    pytest.param(TestCheckModuleResourceAttrSet(["child"], "test.a", "id"), MODULES, None, id="module-set"),
    pytest.param(TestCheckModuleNoResourceAttr(["child"], "test.a", "l.#"), MODULES, None, id="module-no-attr"),
    pytest.param(TestModuleMatchResourceAttr(["child"], "test.a", "id", "^ch"), MODULES, None, id="module-match"),
    pytest.param(TestCheckModuleResourceAttrPtr(["child"], "test.a", "id", lambda: "child"), MODULES, None, id="module-ptr"),
    pytest.param(
        TestCheckModuleResourceAttrPair([], "test.a", "id", ["child"], "test.a", "id"), MODULES,
        "test.a: Attribute 'id' expected \"child\", got \"root\"", id="module-pair-across-modules",
    ),
    # outputs
    pytest.param(TestCheckOutput("s", "hello"), OUTPUTS, None, id="output-string"),
    pytest.param(TestCheckOutput("b", "true"), OUTPUTS, None, id="output-bool-as-text"),
    pytest.param(TestCheckOutput("n", "1.5"), OUTPUTS, None, id="output-number-as-text"),
    pytest.param(TestCheckOutput("nope", "x"), OUTPUTS, "Not found: nope", id="output-not-found"),
    pytest.param(
        TestCheckOutput("s", "bye"), OUTPUTS,
        'Output \'s\': expected "bye", got &terraform.OutputState{Sensitive:false, Type:"string", Value:"hello"}',
        id="output-mismatch",
    ),
    pytest.param(
        TestCheckOutput("l", "a"), OUTPUTS,
        'Output \'l\': expected "a", got &terraform.OutputState{Sensitive:false, Type:"list", Value:[]interface {}{"a", "1"}}',
        id="output-list-never-a-string",
    ),
    pytest.param(TestMatchOutput("s", "^hel"), OUTPUTS, None, id="match-output"),
    pytest.param(TestMatchOutput("b", "^true$"), OUTPUTS, None, id="match-output-bool-text"),
    pytest.param(
        TestMatchOutput("m", "."), OUTPUTS, "unexpected type map[string]interface {} for resource value", id="match-output-map",
    ),
    pytest.param(
        TestMatchOutput("s", "^bye"), OUTPUTS,
        'Output \'s\': &terraform.OutputState{Sensitive:false, Type:"string", Value:"hello"} didn\'t match "^bye"',
        id="match-output-mismatch",
    ),
    pytest.param(TestMatchOutput("nope", "."), OUTPUTS, "Not found: nope", id="match-output-not-found"),
]


@pytest.mark.parametrize(("check", "state", "message"), CASES)
def test_check(check: CheckFunc, state: State, message: str | None) -> None:
    if message is None:
        check(state)  # passes: raises nothing
        return
    with pytest.raises(TestCheckFuncError) as info:
        check(state)
    assert str(info.value) == message
    assert isinstance(info.value, AssertionError)
    assert info.value.check == check.check


def test_error_fields_survive_pickling() -> None:
    with pytest.raises(TestCheckFuncError) as info:
        TestCheckResourceAttr("test.a", "id", "x")(ATTRS)
    err = pickle.loads(pickle.dumps(info.value))
    assert (err.check, err.name, err.key) == ("TestCheckResourceAttr", "test.a", "id")
    assert str(err) == str(info.value)


def test_check_pickles_its_error_class() -> None:
    err = pickle.loads(pickle.dumps(TestCheckFuncError("TestCheckOutput", "o", None, "Not found: o")))
    assert (type(err), err.check, err.name, err.key, err.message) == (
        TestCheckFuncError, "TestCheckOutput", "o", None, "Not found: o")


def test_pointer_is_read_when_the_check_runs() -> None:
    box = {"v": "before"}
    check = TestCheckResourceAttrPtr("test.a", "id", lambda: box["v"])
    box["v"] = "i-1"
    check(ATTRS)  # passes: raises nothing
    assert box["v"] == "i-1"


def test_repr_names_the_check_not_the_value() -> None:
    check = TestCheckResourceAttr("test.a", "pw", "hunter2-value")
    assert repr(check) == "TestCheckResourceAttr('test.a', 'pw')"


def test_a_check_takes_a_state_only() -> None:
    with pytest.raises(TestDefinitionError, match=r"^TestCheckResourceAttr: expected a plancheck.State to check, got dict$"):
        TestCheckResourceAttr("test.a", "id", "x")({"format_version": "1.0"})  # type: ignore[arg-type]


BAD: list[Any] = [
    pytest.param(lambda: TestCheckResourceAttr(1, "id", "x"), "TestCheckResourceAttr: name: expected a str (Go's string; write \"1\" for a number), got int", id="name-not-str"),  # type: ignore[arg-type]
    pytest.param(lambda: TestCheckResourceAttr("a.b", "id", True), 'TestCheckResourceAttr: value: expected a str (Go\'s string; write "true" for a bool), got bool', id="value-bool"),  # type: ignore[arg-type]
    pytest.param(lambda: TestCheckResourceAttr("a.b", None, "x"), "TestCheckResourceAttr: key: expected a str, got NoneType", id="key-none"),  # type: ignore[arg-type]
    pytest.param(lambda: TestMatchResourceAttr("a.b", "id", "("), 'TestMatchResourceAttr: r: bad regular expression "(": missing ), unterminated subpattern at position 0', id="bad-regex"),
    pytest.param(lambda: TestMatchResourceAttr("a.b", "id", re.compile(b"x")), "TestMatchResourceAttr: r: expected a str pattern, got a bytes pattern", id="bytes-regex"),  # type: ignore[arg-type]
    pytest.param(lambda: TestMatchOutput("o", 5), "TestMatchOutput: r: expected a regular expression (str or re.Pattern), got int", id="regex-not-str"),  # type: ignore[arg-type]
    pytest.param(lambda: TestCheckResourceAttrWith("a.b", "id", "x"), "TestCheckResourceAttrWith: check_value_func: expected a callable, got str", id="with-not-callable"),  # type: ignore[arg-type]
    pytest.param(lambda: TestCheckResourceAttrPtr("a.b", "id", "x"), "TestCheckResourceAttrPtr: value: expected a callable returning the expected str (Go's *string), got str", id="ptr-not-callable"),  # type: ignore[arg-type]
    pytest.param(lambda: TestCheckResourceAttrPair("a.b", "id", "a.b", "id"), "TestCheckResourceAttrPair: comparing self: resource a.b attribute id", id="pair-self"),
    pytest.param(lambda: TestCheckModuleResourceAttrPair(["m"], "a.b", "id", "module.m", "a.b", "id"), "TestCheckModuleResourceAttrPair: comparing self: resource a.b attribute id", id="module-pair-self"),
    pytest.param(lambda: TestCheckModuleResourceAttr("child", "a.b", "id", "x"), 'TestCheckModuleResourceAttr: module: expected a module address such as "module.child" or a list of names, got "child"', id="module-bare-name"),
    pytest.param(lambda: TestCheckModuleResourceAttr([""], "a.b", "id", "x"), "TestCheckModuleResourceAttr: module: expected module names (non-empty str), got ''", id="module-empty-name"),
    pytest.param(lambda: TestCheckModuleResourceAttr(5, "a.b", "id", "x"), "TestCheckModuleResourceAttr: module: expected a list of module names or a module address, got int", id="module-not-list"),
]


@pytest.mark.parametrize(("build", "message"), BAD)
def test_bad_arguments_fail_when_built(build: Callable[[], object], message: str) -> None:
    with pytest.raises(TestDefinitionError) as info:
        build()
    assert str(info.value) == message


def test_pointer_returning_not_a_str() -> None:
    with pytest.raises(TestDefinitionError, match=r"the callable returned int, expected a str"):
        TestCheckResourceAttrPtr("test.a", "id", lambda: 5)(ATTRS)  # type: ignore[arg-type,return-value]


def test_other_exceptions_of_with_callback_become_failures_but_base_exceptions_propagate() -> None:
    def interrupt(value: str) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        TestCheckResourceAttrWith("test.a", "id", interrupt)(ATTRS)


def test_state_not_mutated_and_checks_reusable() -> None:
    check = TestCheckResourceAttr("test.a", "id", "i-1")
    before = repr(ATTRS.raw)
    check(ATTRS)
    check(ATTRS)
    assert repr(ATTRS.raw) == before


def test_no_exported_name_is_collected_by_pytest() -> None:
    import plancheck.acceptance as package

    named_like_tests = [n for n in package.__all__ if n.lower().startswith("test")]
    # the 19 Go functions, TestCheckFuncError, TestDefinitionError, TestCase and TestStep (#34: Go's names only)
    assert len(named_like_tests) == 23
    assert [n for n in named_like_tests if getattr(getattr(package, n), "__test__", True)] == []


def test_go_names_are_the_only_names() -> None:
    """#34: Go's names only; the snake_case (and reordered) aliases of them are gone, Python names stay where
    Go has none (``flatten``, ``run_sweepers``)."""
    import plancheck.acceptance as acceptance
    from plancheck.acceptance import ImportStateKind, config

    exported = {*acceptance.__all__, *config.__all__}
    aliases = sorted(n for n in exported if n.startswith(("test_", "compose_", "static_", "add_")))
    aliases += [n for n in ("TestMatchModuleResourceAttr",) if hasattr(acceptance, n)]
    aliases += [n for n in ImportStateKind.__members__ if n.isupper()]
    assert aliases == []
    assert {"flatten", "run_sweepers", "AddTestSweepers", "TestModuleMatchResourceAttr"} <= exported
