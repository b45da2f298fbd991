"""TestCase, TestStep, ConfigPlanChecks, Sensitive and AcceptanceError as values: validation, equality, repr."""

from __future__ import annotations

import pickle
import re
from decimal import Decimal
from pathlib import PosixPath
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck import knownvalue, statecheck
from plancheck.acceptance import (
    AcceptanceError,
    ConfigPlanChecks,
    Leftover,
    Sensitive,
    Stage,
    Sweeper,
    TestCase,
    TestDefinitionError,
    TestStep,
)
from plancheck.acceptance._case import sensitive_strings, unwrap_sensitive
from plancheck.acceptance._options import AdditionalCLIOptions, PlanOptions
from plancheck.querycheck import ExpectLength

RESERVED = "is reserved: Terraform gives it a meaning inside module blocks, so no module declares it"

# Untyped aliases: these tests pass wrong types on purpose.
Step: Any = TestStep
Case: Any = TestCase
Checks: Any = ConfigPlanChecks


class PlanCheckStandIn:
    def CheckPlan(self, plan: Any) -> None:
        """Holds for every plan."""


class StateCheckStandIn:
    def CheckState(self, state: Any) -> None:
        """Holds for every state."""


@pytest.mark.parametrize(
    ("build", "message"),
    [
        pytest.param(lambda: Step(), "TestStep: missing config=, config_directory=, config_file=, import_state=True or "
                     "refresh_state=True", id="no-config"),
        pytest.param(lambda: Step(config="", config_directory="d"),
                     "TestStep: give only one of config=, config_directory= or config_file=", id="two-configs"),
        pytest.param(lambda: Step(config=42),
                     "TestStep.config: expected HCL text (str), a JSON-syntax dict or a config function, got int",
                     id="config-type"),
        pytest.param(lambda: Step(config_directory=3), "TestStep.config_directory: expected a path or a config function, got int",
                     id="directory-type"),
        pytest.param(lambda: Step(config="", variables=[("a", 1)]), "TestStep.variables: expected a dict, got list",
                     id="variables-type"),
        pytest.param(lambda: Step(config="", variables={"1x": 1}), "TestStep.variables: '1x' is not a valid variable name",
                     id="variable-name"),
        # Terraform reserves a module call's arguments as variable names in every module, the root one too.
        pytest.param(lambda: Step(config="", variables={"count": 1}), f"TestStep.variables: 'count' {RESERVED}",
                     id="reserved-count"),
        pytest.param(lambda: Step(config="", variables={"providers": 1}), f"TestStep.variables: 'providers' {RESERVED}",
                     id="reserved-providers"),
        pytest.param(lambda: Step(config="", variables={"_": 1}), f"TestStep.variables: '_' {RESERVED}",
                     id="reserved-underscore"),
        pytest.param(lambda: Step(config="", variables={"-x": 1}), "TestStep.variables: '-x' is not a valid variable name",
                     id="variable-name-dash-first"),
        pytest.param(lambda: Step(config="", variables={"v": {"k": {1, 2}}}),
                     'TestStep.variables["v"]["k"]: expected a JSON value (str, number, bool, None, list, dict), got set',
                     id="variable-value-not-json"),
        pytest.param(lambda: Step(config="", variables={"v": [1, float("nan")]}),
                     "TestStep.variables[\"v\"][1]: numbers must be finite, got nan", id="variable-nan"),
        pytest.param(lambda: Step(config="", variables={"v": {2: "x"}}),
                     "TestStep.variables[\"v\"]: map keys must be str, got int 2", id="variable-map-key"),
        pytest.param(lambda: Step(config="", config_plan_checks=[PlanCheckStandIn()]),
                     "TestStep.config_plan_checks: expected ConfigPlanChecks(pre_apply=[...], ...), got list",
                     id="plan-checks-not-wrapped"),
        pytest.param(lambda: Checks(pre_apply=PlanCheckStandIn()),
                     "ConfigPlanChecks.pre_apply: expected a list of plan checks, got PlanCheckStandIn",
                     id="single-plan-check"),
        pytest.param(lambda: Checks(post_apply_post_refresh=[PlanCheckStandIn(), "x"]),
                     "ConfigPlanChecks.post_apply_post_refresh[1]: expected a plan check (an object with a "
                     "CheckPlan() method), got str", id="not-a-plan-check"),
        pytest.param(lambda: Step(config="", config_state_checks=[PlanCheckStandIn()]),
                     "TestStep.config_state_checks[0]: expected a state check (an object with a CheckState() method), "
                     "got PlanCheckStandIn", id="plan-check-given-as-state-check"),
        pytest.param(lambda: Step(config="", plan_only=1), "TestStep.plan_only: expected a bool, got int",
                     id="plan-only-type"),
        pytest.param(lambda: Step(config="", plan_only=True, config_state_checks=[StateCheckStandIn()]),
                     "TestStep.config_state_checks: a plan_only step applies nothing, so it cannot check the state",
                     id="plan-only-state-checks"),
        pytest.param(lambda: Step(config="", plan_only=True,
                                      config_plan_checks=Checks(pre_apply=[PlanCheckStandIn()])),
                     "TestStep.config_plan_checks.pre_apply: a plan_only step has no pre-apply plan; use "
                     "post_apply_pre_refresh or post_apply_post_refresh", id="plan-only-pre-apply"),
        pytest.param(lambda: Step(config="", expect_error="("),
                     "TestStep.expect_error: not a valid regular expression: missing ), unterminated subpattern at "
                     "position 0", id="bad-regex"),
        pytest.param(lambda: Step(config="", expect_error=3),
                     "TestStep.expect_error: expected a regular expression (str or re.Pattern), got int", id="regex-type"),
        pytest.param(lambda: Step(config="", pre_config="setup"), "TestStep.pre_config: expected a function, got str",
                     id="pre-config-type"),
        pytest.param(lambda: Case(steps=[]), "TestCase.steps: a test case needs at least one step", id="no-steps"),
        pytest.param(lambda: Case(steps=Step(config="")), "TestCase.steps: expected a list of TestStep, got TestStep",
                     id="single-step"),
        pytest.param(lambda: Case(steps=[Step(config=""), {"config": ""}]),
                     "TestCase.steps[1]: expected a TestStep, got dict", id="dict-step"),
        pytest.param(lambda: Case(steps=[Step(config="")], pre_check=True),
                     "TestCase.pre_check: expected a function, got bool", id="pre-check-type"),
    ],
)
def test_bad_definitions_name_the_argument(build: Any, message: str) -> None:
    with pytest.raises(TestDefinitionError) as info:
        build()
    assert str(info.value) == message
    assert isinstance(info.value, TypeError)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("name", [
    pytest.param("größe", id="letters-beyond-ascii"),
    pytest.param("x·y", id="a-unicode-id-continue"),
    pytest.param("my-var", id="dashed"),
    pytest.param("_-x", id="underscore-dash"),
    pytest.param("counts", id="near-a-reserved-one"),
])
def test_a_variable_name_terraform_takes_is_kept(name: str) -> None:
    # HCL's identifier: a step refused größe, which Terraform 1.0.3 and 1.11.4 declare and set.
    assert dict(Step(config="", variables={name: 1}).variables) == {name: 1}


#: A key below Sensitive(...) is as secret as its value: planted in every row, it must never show.
_KEY = "zz-secret-key-9k8j7h"
_UTF8 = "expected UTF-8 text, found a lone surrogate at character"


def _looped() -> dict[str, Any]:
    """A map that holds itself (under ``"x"``)."""
    looped: dict[str, Any] = {}
    looped["x"] = looped
    return looped


@pytest.mark.parametrize(
    ("build", "message"),
    [
        pytest.param(lambda: Step(config="", variables={"v": Sensitive({_KEY: float("nan")})}),
                     'TestStep.variables["v"]["(sensitive)"]: numbers must be finite, got (sensitive)', id="nan-below-a-secret-key"),
        pytest.param(lambda: Step(config="", variables={"v": Sensitive({_KEY: {1, 2}})}),
                     'TestStep.variables["v"]["(sensitive)"]: expected a JSON value (str, number, bool, None, list, dict), '
                     "got set", id="not-json-below-a-secret-key"),
        pytest.param(lambda: Step(config="", variables={"v": Sensitive({_KEY: [{3: "x"}]})}),
                     'TestStep.variables["v"]["(sensitive)"][0]: map keys must be str, got int', id="key-not-str-below-a-secret"),
        pytest.param(lambda: Step(config="", variables={"v": {"a": Sensitive({b"zz-secret-bytes": 1})}}),
                     'TestStep.variables["v"]["a"]: map keys must be str, got bytes', id="secret-key-not-str"),
        pytest.param(lambda: Step(config="", variables={"v": Sensitive({_KEY: "zz-secret-\ud800-value"})}),
                     'TestStep.variables["v"]["(sensitive)"]: expected UTF-8 text, found a lone surrogate',
                     id="surrogate-in-a-secret-not-located"),
        pytest.param(lambda: Step(config="", variables={"v": {"k": ["ok", "\udc00"]}}),
                     f'TestStep.variables["v"]["k"][1]: {_UTF8} 0', id="surrogate-in-a-value"),
        pytest.param(lambda: Step(config="", variables={"v": {"a\ud800": 1}}),
                     f'TestStep.variables["v"]: {_UTF8} 1', id="surrogate-in-a-key"),
        pytest.param(lambda: Step(config='output "x" {\n  value = "\ud800"\n}\n'),
                     f"TestStep.config: {_UTF8} 24", id="surrogate-in-the-config"),
        pytest.param(lambda: Step(query=True, config='list "a" "b" {\n  provider = x\n}\n# \ud800'),
                     f"TestStep.config: {_UTF8} 34", id="surrogate-in-a-query"),
        pytest.param(lambda: Step(config="", import_state=True, resource_name="a.b", import_state_id="id-\ud800"),
                     f"TestStep.import_state_id: {_UTF8} 3", id="surrogate-in-an-import-id"),
    ],
)
def test_a_value_terraform_cannot_read_is_named_and_a_secret_key_never_shown(build: Any, message: str) -> None:
    # Before: a secret key showed in the location ('["zz-secret-key-9k8j7h"]') and in a non-str key's repr, and a
    # lone surrogate was the runner's bare UnicodeEncodeError when it wrote the step's files.
    with pytest.raises(TestDefinitionError) as info:
        build()
    assert str(info.value) == message
    assert "zz-secret" not in str(info.value)


_NOT_JSON = "expected a JSON value (str, number, bool, None, list, dict), got"


@pytest.mark.parametrize(
    ("build", "message"),
    [
        pytest.param(lambda: Step(config="", variables={"pw": Sensitive(_KEY), "tags": {_KEY: {1, 2}}}),
                     f'TestStep.variables["tags"]["(sensitive)"]: {_NOT_JSON} set', id="not-json"),
        pytest.param(lambda: Step(config="", variables={"pw": Sensitive(_KEY), "tags": {_KEY: float("inf")}}),
                     'TestStep.variables["tags"]["(sensitive)"]: numbers must be finite, got inf', id="not-finite"),
        pytest.param(lambda: Step(config="", variables={"tags": {"a": {f"x-{_KEY}": ["\udc00"]}}, "pw": Sensitive(_KEY)}),
                     f'TestStep.variables["tags"]["a"]["x-(sensitive)"][0]: {_UTF8} 0', id="inside-a-longer-key"),
        # The secret is a key of a Sensitive map, and a plain map's key elsewhere.
        pytest.param(lambda: Step(config="", variables={"pw": Sensitive({_KEY: "x"}), "tags": {_KEY: [object()]}}),
                     f'TestStep.variables["tags"]["(sensitive)"][0]: {_NOT_JSON} object', id="secret-map-key"),
        # A key that is no str is shown by its repr: spelling a secret, it shows the secret no more.
        pytest.param(lambda: Step(config="", variables={"pw": Sensitive(31337), "tags": {31337: "x"}}),
                     'TestStep.variables["tags"]: map keys must be str, got int (sensitive)', id="key-not-str"),
        pytest.param(lambda: Step(config="", variables={"pw": Sensitive(_KEY), "tags": {_KEY.encode(): "x"}}),
                     "TestStep.variables[\"tags\"]: map keys must be str, got bytes b'(sensitive)'",
                     id="key-not-str-bytes"),
        # Elsewhere in the step than its variables: a key of its config dict, a variable's name, an address.
        pytest.param(lambda: Step(config={"resource": {"aws_x": {_KEY: _looped()}}}, variables={"pw": Sensitive(_KEY)}),
                     'TestStep.config["resource"]["aws_x"]["(sensitive)"]["(sensitive)"]: expected a JSON value, got a '
                     "value that contains itself (a cycle)", id="config-key"),
        pytest.param(lambda: Step(config={_KEY: _looped()}, variables={"pw": Sensitive(_KEY)}),
                     'TestStep.config["(sensitive)"]["x"]: expected a JSON value, got a value that contains itself (a cycle)',
                     id="config-block-type"),
        pytest.param(lambda: Step(config="", variables={"pw": Sensitive(f"{_KEY} x"), f"{_KEY} x": 1}),
                     "TestStep.variables: '(sensitive)' is not a valid variable name", id="variable-name"),
        pytest.param(lambda: Step(config="", variables={"pw": Sensitive("count-31337"), "count-31337": 1, "count": 2}),
                     f"TestStep.variables: 'count' {RESERVED}", id="reserved-name-beside-a-secret-one"),
        pytest.param(lambda: Step(config="", taint=[f"{_KEY} x"], variables={"pw": Sensitive(_KEY)}),
                     "TestStep.taint[0]: expected a resource address such as aws_instance.web or "
                     "module.app.aws_instance.web[0], got '(sensitive) x'", id="taint-address"),
        pytest.param(lambda: Step(config="", import_state=True, resource_name=f"{_KEY}.x y", variables={"pw": Sensitive(_KEY)}),
                     "TestStep.resource_name: expected a resource address such as aws_instance.web or "
                     "module.app.aws_instance.web[0], got '(sensitive).x y'", id="import-resource-name"),
    ],
)
def test_a_plain_key_spelling_a_secret_of_the_step_is_hidden(build: Any, message: str) -> None:
    """A plain variable's keys showed in its location even where one spelt a string Sensitive elsewhere in the same
    step's variables: 'TestStep.variables["tags"]["zz-secret-key-9k8j7h"]'; so did a key of the step's config dict,
    a variable's name and an address. Each is scrubbed by the step's secrets wherever it stands (the location's other
    keys, and the names of the variables that spell none, stay)."""
    with pytest.raises(TestDefinitionError) as info:
        build()
    assert str(info.value) == message
    shown = [str(info.value), repr(info.value), info.value.where, info.value.problem, repr(info.value.__reduce__())]
    assert [text for text in shown if "zz-secret" in text or "31337" in text] == []


def _case(*steps: Any, **case: Any) -> Any:
    return TestCase(steps=list(steps), **case)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        # The case's own errors knew none of its steps' values.
        pytest.param(lambda: _case(Step(config="", variables={"pw": Sensitive(_KEY)}), providers={f"{_KEY} x": object}),
                     "TestCase.providers: '(sensitive) x' is not a provider address (host/namespace/type, namespace/type "
                     "or type)", id="a-case-provider-address"),
        pytest.param(lambda: _case(Step(config="", variables={"pw": Sensitive(_KEY)}), initial_state=f"{_KEY}.json"),
                     "TestCase.initial_state: (sensitive).json: cannot read the state: No such file or directory",
                     id="a-case-state-path"),
    ],
)
def test_a_value_another_definition_marks_sensitive_is_hidden(build: Any, message: str) -> None:
    """A case's own definition errors were scrubbed of nothing: a string Sensitive in one of its steps showed in
    them (a provider address, a state file's path)."""
    with pytest.raises(TestDefinitionError) as info:
        build()
    assert str(info.value) == message
    shown = [str(info.value), repr(info.value), info.value.where, info.value.problem, repr(info.value.__reduce__())]
    assert [text for text in shown if "zz-secret" in text] == []


_QUERY_NOT_USED = [
    ("plan_only", {"plan_only": True}),
    ("destroy", {"destroy": True}),
    ("taint", {"taint": ["concept_pet.a"]}),
    ("check", {"check": lambda state: None}),
    ("expect_non_empty_plan", {"expect_non_empty_plan": True}),
    ("config_state_checks", {"config_state_checks": [StateCheckStandIn()]}),
    ("config_plan_checks", {"config_plan_checks": ConfigPlanChecks(post_apply_pre_refresh=[PlanCheckStandIn()])}),
    ("post_apply_func", {"post_apply_func": lambda: None}),
    ("additional_cli_options", {"additional_cli_options": AdditionalCLIOptions(plan=PlanOptions(no_refresh=True))}),
]


@pytest.mark.parametrize(
    ("build", "message"),
    [
        pytest.param(lambda: Step(query=True),
                     "TestStep.config: a query=True step needs config= (the text of its .tfquery.hcl file)",
                     id="query-without-config"),
        pytest.param(lambda: Step(query=True, config={"list": {}}),
                     "TestStep.config: a query=True step takes the .tfquery.hcl text (str) or a config function, got dict",
                     id="query-json-config"),
        pytest.param(lambda: Step(query=True, config_directory="queries"),
                     "TestStep.config_directory: not supported by a query=True step: give the .tfquery.hcl text as "
                     "config= (as Go)", id="query-config-directory"),
        pytest.param(lambda: Step(query=True, config_file="pets.tfquery.hcl"),
                     "TestStep.config_file: not supported by a query=True step: give the .tfquery.hcl text as "
                     "config= (as Go)", id="query-config-file"),
        pytest.param(lambda: Step(query=True, config="", import_state=True, resource_name="concept_pet.a"),
                     "TestStep.query: cannot be combined with import_state=True", id="query-and-import"),
        pytest.param(lambda: Step(query=True, refresh_state=True),
                     "TestStep.query: cannot be combined with refresh_state=True", id="query-and-refresh"),
        pytest.param(lambda: Step(query="yes", config=""), "TestStep.query: expected a bool, got str", id="query-type"),
        pytest.param(lambda: Step(config="", query_result_checks=[ExpectLength("concept_pet.pets", 1)]),
                     "TestStep.query_result_checks: only for a query=True step", id="query-checks-without-query"),
        pytest.param(lambda: Step(query=True, config="", query_result_checks=ExpectLength("concept_pet.pets", 1)),
                     "TestStep.query_result_checks: expected a list of query checks, got ExpectLength",
                     id="single-query-check"),
        pytest.param(lambda: Step(query=True, config="", query_result_checks="ExpectLength"),
                     "TestStep.query_result_checks: expected a list of query checks, got str", id="query-checks-str"),
        pytest.param(lambda: Step(query=True, config="", query_result_checks=[ExpectLength("a.b", 1), PlanCheckStandIn()]),
                     "TestStep.query_result_checks[1]: expected a query check (a plancheck.querycheck.QueryResultCheck, "
                     "e.g. ExpectLength), got PlanCheckStandIn", id="plan-check-given-as-query-check"),
        pytest.param(lambda: Step(query=True, config="", import_state_verify=True),
                     "TestStep.import_state_verify: only for an import_state=True step", id="query-with-import-field"),
        *[
            pytest.param(lambda extra=extra: Step(query=True, config="", **extra),
                         f"TestStep.{name}: not used by a query=True step", id=f"query-{name.replace('_', '-')}")
            for name, extra in _QUERY_NOT_USED
        ],
    ],
)
def test_bad_query_steps_name_the_argument(build: Any, message: str) -> None:
    with pytest.raises(TestDefinitionError) as info:
        build()
    assert str(info.value) == message


def test_query_steps_are_values() -> None:
    one = TestStep(query=True, config="list {}", query_result_checks=[ExpectLength("concept_pet.pets", 1)])
    two = TestStep(query=True, config="list {}", query_result_checks=(ExpectLength("concept_pet.pets", 1),))
    other = TestStep(query=True, config="list {}", query_result_checks=[ExpectLength("concept_pet.pets", 2)])
    assert one == two
    assert hash(one) == hash(two)
    assert one != other
    assert one != TestStep(config="list {}")
    assert one.query_result_checks == (ExpectLength("concept_pet.pets", 1),)


def test_step_copies_what_it_is_given() -> None:
    config: dict[str, Any] = {"resource": {"null_resource": {"a": {}}}}
    variables: dict[str, Any] = {"tags": ["a"]}
    step = TestStep(config=config, variables=variables)
    config["resource"]["null_resource"]["b"] = {}
    variables["tags"].append("b")
    assert dict(step.config) == {"resource": {"null_resource": {"a": {}}}}  # type: ignore[arg-type]
    assert dict(step.variables) == {"tags": ["a"]}
    with pytest.raises(TypeError):
        step.variables["x"] = 1  # type: ignore[index]


def test_steps_are_values() -> None:
    check = PlanCheckStandIn()
    one = TestStep(config={"output": {"x": {"value": 1}}}, variables={"pw": Sensitive("s3cret")},
                   config_plan_checks=ConfigPlanChecks(pre_apply=[check]), expect_error="boom")
    two = TestStep(config={"output": {"x": {"value": 1}}}, variables={"pw": Sensitive("s3cret")},
                   config_plan_checks=ConfigPlanChecks(pre_apply=(check,)), expect_error="boom")
    other = TestStep(config={"output": {"x": {"value": 2}}}, variables={"pw": Sensitive("s3cret")})
    assert one == two
    assert hash(one) == hash(two)
    assert one != other
    assert one.__eq__("not a step") is NotImplemented
    assert len({TestCase(steps=[one]), TestCase(steps=[two])}) == 1


def test_steps_and_cases_are_frozen() -> None:
    step = TestStep(config="")
    with pytest.raises(AttributeError):
        step.plan_only = True  # type: ignore[misc]
    with pytest.raises(AttributeError):
        TestCase(steps=[step]).steps = ()  # type: ignore[misc]


def test_test_named_classes_are_not_collected_by_pytest() -> None:
    assert TestCase.__test__ is False
    assert TestStep.__test__ is False
    assert TestDefinitionError.__test__ is False


def test_expect_error_keeps_a_compiled_pattern() -> None:
    pattern = re.compile("x", re.IGNORECASE)
    assert TestStep(config="", expect_error=pattern).expect_error is pattern


# -- Sensitive ---------------------------------------------------------------------------------


def test_sensitive_never_shows_its_value() -> None:
    step = TestStep(config="", variables={"pw": Sensitive("hunter2-xyz"), "nested": {"k": Sensitive(["deep-secret"])}})
    assert "hunter2" not in repr(step)
    assert "deep-secret" not in repr(step)
    assert repr(Sensitive({"a": "b"})) == "Sensitive((sensitive))"
    assert step.secrets == ["deep-secret", "hunter2-xyz"]


def test_sensitive_is_an_immutable_value() -> None:
    s = Sensitive(["a"])
    with pytest.raises(AttributeError, match="Sensitive is immutable"):
        s.value = 1  # type: ignore[misc]
    assert Sensitive(1) == Sensitive(1)
    assert Sensitive(1) != Sensitive(2)
    assert Sensitive("x").__eq__("x") is NotImplemented
    assert pickle.loads(pickle.dumps(Sensitive({"k": "v"}))) == Sensitive({"k": "v"})


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=12,
)


def _wrap_some(value: Any, data: st.DataObject) -> Any:
    if isinstance(value, dict):
        value = {k: _wrap_some(v, data) for k, v in value.items()}
    elif isinstance(value, list):
        value = [_wrap_some(v, data) for v in value]
    return Sensitive(value) if data.draw(st.booleans()) else value


@settings(max_examples=200, deadline=None)
@given(value=json_values, data=st.data())
def test_unwrapping_removes_every_wrapper_and_nothing_else(value: Any, data: st.DataObject) -> None:
    assert unwrap_sensitive(_wrap_some(value, data), "v") == value


@settings(max_examples=200, deadline=None)
@given(value=json_values)
def test_every_string_under_a_wrapper_is_a_secret(value: Any) -> None:
    """Every string and number inside a Sensitive is a secret, map keys too (Terraform quotes keys in errors)."""
    strings: list[str] = []
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            strings.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, str):
            strings.append(v)
    assert sensitive_strings({"open": value, "secret": Sensitive(value)}) == sorted(
        set(strings + [str(v) for v in _numbers(value)])
    )


def _numbers(value: Any) -> list[int]:
    found: list[int] = []
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, int) and not isinstance(v, bool):
            found.append(v)
    return found


def test_unwrapping_a_deep_value_does_not_recurse() -> None:
    deep: Any = "leaf"
    for _ in range(20_000):
        deep = [deep]
    assert unwrap_sensitive(Sensitive(deep), "v") is not None
    assert sensitive_strings(Sensitive(deep)) == ["leaf"]


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        pytest.param(Decimal("3"), 3, id="integral-decimal"),
        pytest.param(Decimal("1.5"), 1.5, id="fractional-decimal"),
        pytest.param((1, "a"), [1, "a"], id="tuple"),
    ],
)
def test_unwrapping_makes_json_ready_values(given: Any, expected: Any) -> None:
    assert unwrap_sensitive(given, "v") == expected


# -- AcceptanceError ---------------------------------------------------------------------------


def test_acceptance_error_is_an_assertion_error_that_pickles() -> None:
    err = AcceptanceError(1, 2, Stage.STATE_CHECKS, "Post-apply state check(s) failed:\nX: y", command=None)
    again = pickle.loads(pickle.dumps(err))
    assert isinstance(again, AcceptanceError)
    assert (again.step, again.steps, again.stage, again.reason, str(again)) == (1, 2, Stage.STATE_CHECKS, err.reason, str(err))
    assert str(err) == "step 1/2, state_checks: Post-apply state check(s) failed:\nX: y"


def test_acceptance_error_shows_where_it_comes_from() -> None:
    assert AcceptanceError.__module__ == "plancheck.acceptance"
    assert str(AcceptanceError(3, 3, Stage.DESTROY, "terraform destroy failed", command="terraform destroy",
                               exit_code=1)) == (
        "post-test destroy (after step 3/3): terraform destroy failed\ncommand: terraform destroy (exit code 1)"
    )


@pytest.mark.parametrize(
    ("make", "shown"),
    [
        pytest.param(lambda: PlanOptions(no_refresh=True), "PlanOptions(allow_deferral=False, no_refresh=True)",
                     id="PlanOptions"),
        pytest.param(lambda: AdditionalCLIOptions(plan=PlanOptions(allow_deferral=True)),
                     "AdditionalCLIOptions(apply=ApplyOptions(allow_deferral=False), "
                     "plan=PlanOptions(allow_deferral=True, no_refresh=False))", id="AdditionalCLIOptions"),
        pytest.param(lambda: ConfigPlanChecks(),
                     "ConfigPlanChecks(pre_apply=(), post_apply_pre_refresh=(), post_apply_post_refresh=())",
                     id="ConfigPlanChecks"),
        pytest.param(lambda: Sweeper("widget", print, Dependencies=["a"]), "Sweeper('widget', Dependencies=('a',))",
                     id="Sweeper-function-left-out"),
        pytest.param(lambda: Leftover(PosixPath("/x"), {"test": "t", "secret": "hunter2"}), "Leftover(PosixPath('/x'))",
                     id="Leftover-manifest-left-out"),
    ],
)
def test_acceptance_values_show_as_the_call_that_makes_them(make: Any, shown: str) -> None:
    assert repr(make()) == shown


@pytest.mark.parametrize("make", [
    pytest.param(lambda: TestStep("x"), id="TestStep"),
    pytest.param(lambda: ConfigPlanChecks(()), id="ConfigPlanChecks"),
    pytest.param(lambda: PlanOptions(True), id="PlanOptions"),
])
def test_go_struct_values_take_keyword_arguments_only(make: Any) -> None:
    with pytest.raises(TypeError, match="positional argument"):
        make()


def test_a_step_repr_names_its_fields_and_hides_sensitive_variables() -> None:
    step = TestStep(config="x", variables={"p": Sensitive("hunter2")}, plan_only=True)
    shown = repr(TestCase([step]))
    assert shown.startswith("TestCase((TestStep(config='x', variables=mappingproxy({'p': Sensitive((sensitive))}), ")
    assert "plan_only=True" in shown
    assert "hunter2" not in shown


@pytest.mark.e2e
def test_a_real_terraform_takes_a_variable_named_beyond_ascii(tf_acceptance: Any) -> None:
    # A step refused the name before running anything: 'TestStep.variables: 'größe' is not a valid variable name'.
    config = 'variable "größe" {\n  type = number\n}\noutput "size" {\n  value = var.größe * 2\n}\n'
    tf_acceptance.run(TestCase(steps=[TestStep(config=config, variables={"größe": 21}, config_state_checks=[
        statecheck.ExpectKnownOutputValue("size", knownvalue.Int64Exact(42))])]))
