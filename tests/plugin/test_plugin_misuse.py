"""A verdict never passes on a misuse: a document helper called without its document is a typed error.

``assert_plan(check)`` (the plan forgotten) used to pass silently through the plugin's fixture,
because the fixture ran nothing when no checks followed. Every helper that takes a document
first refuses anything else, with or without checks; a document with no checks passes (Go runs
an empty list of checks fine).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from plugin_support import simple_plan

from plancheck import ExpectEmptyPlan, Plan, State, assert_plan
from plancheck import knownvalue as kv
from plancheck._plugin.collectors import AssertPlan, PlanChecks
from plancheck.querycheck import ExpectLength, assert_query
from plancheck.statecheck import ExpectKnownOutputValue, assert_state
from plancheck.tfconfig import ExpectVariable, assert_config

PLAN = Plan.from_dict(simple_plan())
STATE_CHECK = ExpectKnownOutputValue("a", kv.StringExact("x"))


def _verify(plan: Any) -> None:
    PlanChecks(lambda: PLAN).verify(plan)


MISUSES: list[Any] = [
    pytest.param(
        AssertPlan(), (ExpectEmptyPlan(),),
        "assert_plan expects a plancheck.Plan (use load_plan or Plan.from_dict), got ExpectEmptyPlan",
        id="fixture-assert_plan-check-without-plan",
    ),
    pytest.param(
        AssertPlan(), ({"format_version": "1.2"},),
        "assert_plan expects a plancheck.Plan (use load_plan or Plan.from_dict), got dict",
        id="fixture-assert_plan-dict-without-checks",
    ),
    pytest.param(
        _verify, (ExpectEmptyPlan(),),
        "plan_checks.verify expects a plancheck.Plan (use load_plan or Plan.from_dict), got ExpectEmptyPlan",
        id="fixture-plan_checks-verify-check-nothing-queued",
    ),
    pytest.param(
        assert_plan, (ExpectEmptyPlan(),),
        "assert_plan expects a plancheck.Plan (use load_plan or Plan.from_dict), got ExpectEmptyPlan",
        id="library-assert_plan",
    ),
    pytest.param(
        assert_state, (STATE_CHECK,),
        "assert_state expects a plancheck.State (use load_state or State.from_dict), got ExpectKnownOutputValue",
        id="library-assert_state",
    ),
    pytest.param(
        assert_config, (ExpectVariable("region"),),
        "assert_config expects a plancheck.tfconfig.Config (load_config, parse_config), a dict or a list of dicts,"
        " got ExpectVariable",
        id="library-assert_config",
    ),
    pytest.param(
        assert_query, (ExpectLength("a.b", 1),),
        "assert_query expects a plancheck.querycheck.QueryOutput (use load_query), got ExpectLength",
        id="library-assert_query",
    ),
]


@pytest.mark.parametrize(("helper", "args", "message"), MISUSES)
def test_a_helper_called_without_its_document_is_a_typed_error(
    helper: Callable[..., None], args: tuple[Any, ...], message: str
) -> None:
    with pytest.raises(TypeError) as info:
        helper(*args)
    assert str(info.value) == message


@pytest.mark.parametrize(
    "call",
    [
        pytest.param(lambda: AssertPlan()(PLAN), id="fixture-assert_plan"),
        pytest.param(lambda: PlanChecks(lambda: None).verify(PLAN), id="fixture-plan_checks-verify"),
        pytest.param(lambda: assert_plan(PLAN), id="library-assert_plan"),
        pytest.param(lambda: assert_state(State.from_dict({"format_version": "1.0"})), id="library-assert_state"),
        pytest.param(lambda: assert_config({}), id="library-assert_config"),
    ],
)
def test_a_document_with_no_checks_passes(call: Callable[[], None]) -> None:
    call()
