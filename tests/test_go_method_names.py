"""Go's method names beside the snake_case ones (issue #15), so a ported Go test reads the same; where the
snake_case alias is gone, Go's name is the only one (#34).

Every public check, matcher, comparer and filter class is found by walking the public
modules, not listed, so a class added later is held to the rule without editing this file.
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Iterator

import pytest

import plancheck
import tfjsonpath
from plancheck import Plan, PlanCheck, State, compare, knownvalue, querycheck, statecheck, tfversion
from plancheck import knownvalue as kv
from plancheck.compare import ValueComparer
from plancheck.knownvalue import Check
from plancheck.querycheck import QueryOutput, QueryResultCheck, queryfilter
from plancheck.querycheck.queryfilter import QueryFilter
from plancheck.statecheck import StateCheck
from tfjsonpath import New

#: (base class, Go's method name, the snake_case alias that is gone: Go's name is the only name, #34)
GO_ONLY: list[tuple[type, str, str]] = [
    (Check, "CheckValue", "check_value"),
    (PlanCheck, "CheckPlan", "check_plan"),
    (ValueComparer, "CompareValues", "compare_values"),
    (StateCheck, "CheckState", "check_state"),
    (QueryResultCheck, "CheckQuery", "check_query"),
    (QueryResultCheck, "QueryFilters", "query_filters"),
    (tfversion.VersionCheck, "CheckTerraformVersion", "check_terraform_version"),
]

MODULES: list[types.ModuleType] = [plancheck, statecheck, knownvalue, compare, querycheck, queryfilter, tfversion]


def _public_classes() -> Iterator[type]:
    seen: set[type] = set()
    for module in MODULES:
        for name in module.__all__:
            value = getattr(module, name)
            if inspect.isclass(value) and value not in seen:
                seen.add(value)
                yield value


CLASSES = sorted(_public_classes(), key=lambda c: c.__qualname__)


def _members(base: type) -> list[type]:
    return [cls for cls in CLASSES if issubclass(cls, base)]


@pytest.mark.parametrize(
    ("base", "minimum"),
    [
        pytest.param(PlanCheck, 18, id="plan-checks"),
        pytest.param(StateCheck, 10, id="state-checks"),
        pytest.param(Check, 30, id="knownvalue-checks"),
        pytest.param(ValueComparer, 5, id="comparers"),
        pytest.param(QueryResultCheck, 8, id="query-checks"),
        pytest.param(QueryFilter, 3, id="query-filters"),
        pytest.param(tfversion.VersionCheck, 12, id="version-checks"),
    ],
)
def test_the_walk_finds_every_family(base: type, minimum: int) -> None:
    assert len(_members(base)) >= minimum



@pytest.mark.parametrize(
    ("cls", "go", "gone"),
    [
        pytest.param(cls, go, gone, id=f"{cls.__qualname__}.{go}")
        for base, go, gone in GO_ONLY
        for cls in _members(base)
    ],
)
def test_go_name_is_the_only_name(cls: type, go: str, gone: str) -> None:
    assert callable(getattr(cls, go))
    assert not hasattr(cls, gone)


@pytest.mark.parametrize("cls", _members(QueryFilter), ids=lambda c: c.__qualname__)
def test_query_filters_answer_to_filter_only(cls: type) -> None:
    # Go's ``Filter`` is the method each filter implements; the Python ``include`` it once delegated to is gone.
    assert "Filter" in vars(cls)
    assert not hasattr(cls, "include")


def test_go_names_behave_the_same() -> None:
    document = {"a": [10, {"b": "x"}]}
    path = New("a").AtSliceIndex(1).AtMapKey("b")
    assert tfjsonpath.Traverse(document, path) == path.traverse(document) == "x"

    with pytest.raises(plancheck.ValueMismatchError, match='expected value "y" for StringExact check, got: "x"'):
        kv.StringExact("y").CheckValue("x")

    with pytest.raises(plancheck.ValueMismatchError, match="expected values to be the same"):
        compare.ValuesSame().CompareValues(["a", "b"])

    plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [
        {"address": "null_resource.a", "change": {"actions": ["create"], "after": {}}}]})
    plancheck.ExpectResourceAction("null_resource.a", plancheck.ResourceAction.Create).CheckPlan(plan)
    with pytest.raises(plancheck.PlanCheckError):
        plancheck.ExpectEmptyPlan().CheckPlan(plan)

    state = State.from_dict({"format_version": "1.0", "values": {"outputs": {"o": {"value": 1}}}})
    statecheck.ExpectKnownOutputValue("o", kv.Int64Exact(1)).CheckState(state)
    with pytest.raises(plancheck.StateCheckError):
        statecheck.ExpectKnownOutputValue("o", kv.Int64Exact(2)).CheckState(state)

    output = QueryOutput.from_messages([{"type": "list_complete", "list_complete": {"address": "list.a.b", "total": 1}}])
    querycheck.ExpectLength("a.b", 1).CheckQuery(output)
    result = querycheck.QueryResult({"list_resource_found": {"address": "list.a.b", "display_name": "n"}})
    assert queryfilter.ByDisplayName(kv.StringExact("n")).Filter(result) is True
