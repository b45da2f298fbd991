"""Whole-plan checks under the pytest plugin: a warning lands in pytest's warnings summary at the test's line,
and neither it nor a failure ever shows a secret (a sensitive attribute, variable, output or for_each key)."""

from __future__ import annotations

from typing import Any

import pytest
from plugin_support import (
    SECRET_ATTR,
    SECRET_OUT,
    SECRET_VAR,
    SECRETS,
    run,
    run_subprocess,
    secret_plan,
    write_json,
)

# Imported here, before any in-process pytester run (see test_plugin_failures.py).
import plancheck.knownvalue  # noqa: F401


def _plan() -> dict[str, Any]:
    plan = secret_plan()
    base = plan["resource_changes"][0]
    # A bucket keyed by the sensitive variable (a for_each key made with nonsensitive()), its id unknown.
    keyed = {**base, "address": f'null_resource.each["{SECRET_VAR}"]', "name": "each", "index": SECRET_VAR,
             "change": {**base["change"], "after": {"triggers": {"name": "web"}}, "after_sensitive": {}}}
    # One whose triggers are unknown as a whole.
    later = {**base, "address": "null_resource.later", "name": "later",
             "change": {**base["change"], "after": {}, "after_unknown": {"id": True, "triggers": True},
                        "after_sensitive": {}}}
    # One whose name is wrong, and holds an unmarked copy of the sensitive output's value.
    wrong = {**base, "address": "null_resource.wrong", "name": "wrong",
             "change": {**base["change"], "after": {"triggers": {"name": SECRET_OUT}}, "after_sensitive": {}}}
    plan["resource_changes"] += [keyed, later, wrong]
    return plan


SUITE = """
import pytest
from plancheck import ExpectEachKnownValue, ExpectEachUnknownValue, ExpectNoDestroys, Resources, knownvalue as kv
from tfjsonpath import New

pytestmark = pytest.mark.tf_plan("plan.json")
NAME = New("triggers").AtMapKey("name")


def test_warns_about_what_is_unknown_until_apply(tf_plan, assert_plan):
    assert_plan(tf_plan, ExpectEachUnknownValue("null_resource.*", New("id")),
                ExpectEachKnownValue(Resources(type="null_resource"), New("id"), kv.NotNull(), unknown="warn"))


def test_fails_naming_the_failed_and_the_unknown_apart(tf_plan, assert_plan):
    assert_plan(tf_plan, ExpectEachKnownValue(Resources(type="null_resource"), NAME, kv.StringExact("web")))


def test_collector_warns_and_fails_when_the_test_returns(plan_checks):
    plan_checks.add(ExpectEachKnownValue("null_resource.*", NAME, kv.StringExact("web"), unknown="warn"),
                    ExpectNoDestroys())


def test_secret_in_the_triggers_of_the_passing_ones(tf_plan, assert_plan):
    assert_plan(tf_plan, ExpectEachKnownValue("null_resource.a", New("triggers").AtMapKey("secret"), kv.NotNull()))
"""

WARNING = (
    "*PlanCheckWarning: ExpectEachKnownValue: Resources(type='null_resource'): id: 4 of 4 unknown until apply: "
    'null_resource.a (id), null_resource.each[[]"(sensitive)"[]] (id), null_resource.later (id), '
    "null_resource.wrong (id)"
)
COLLECTOR_FAILURE = (
    "plan_checks (verified after test_collector_warns_and_fails_when_the_test_returns returned): ExpectEachKnownValue: "
    "Resources(address='null_resource.*'): triggers[[]\"name\"[]]: 1 of 4 failed: null_resource.wrong: expected value "
    "(sensitive) for StringExact check, got: (sensitive)"
)
FAILURE = (
    "*PlanCheckError: ExpectEachKnownValue: Resources(type='null_resource'): triggers[[]\"name\"[]]: 1 of 4 failed: "
    "null_resource.wrong: expected value (sensitive) for StringExact check, got: (sensitive); 1 of 4 unknown until "
    "apply: null_resource.later (triggers)"
)


@pytest.mark.parametrize("args", [pytest.param(["-vv"], id="vv"), pytest.param(["-vv", "-rA", "-l"], id="vv-rA-l")])
def test_warnings_and_failures_reach_pytest_without_secrets(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    monkeypatch.delenv("CI", raising=False)
    write_json(pytester.path / "plan.json", _plan())
    pytester.makepyfile(test_whole=SUITE)
    result = run(pytester, *args)
    result.assert_outcomes(passed=2, failed=2)
    output = result.stdout.str() + result.stderr.str()
    for secret in SECRETS:
        assert secret not in output
    result.stdout.fnmatch_lines([FAILURE])
    result.stdout.fnmatch_lines([COLLECTOR_FAILURE])
    # Each warning is located at the test's own line (the collector's: at the test function).
    result.stdout.fnmatch_lines([
        "*warnings summary*",
        "test_whole.py::test_warns_about_what_is_unknown_until_apply",
        "  *test_whole.py:10: " + WARNING.lstrip("*"),
        "*",
        "test_whole.py::test_collector_warns_and_fails_when_the_test_returns",
        "  *test_whole.py:18: PlanCheckWarning: ExpectEachKnownValue: Resources(address='null_resource.*'): "
        'triggers[[]"name"[]]: 1 of 4 unknown until apply: null_resource.later (triggers)',
    ])


def test_a_fresh_interpreter_shows_no_secret_either(pytester: pytest.Pytester) -> None:
    write_json(pytester.path / "plan.json", _plan())
    pytester.makepyfile(test_whole=SUITE)
    result = run_subprocess(pytester, "-vv", "-rA", "--tb=long", "--showlocals")
    result.assert_outcomes(passed=2, failed=2)
    output = result.stdout.str() + result.stderr.str()
    assert "PlanCheckWarning" in output
    for secret in (SECRET_ATTR, SECRET_VAR, SECRET_OUT):
        assert secret not in output
