"""Failure output of the plugin: pinned text, hidden library frames, and secrets that never leak."""

from __future__ import annotations

import re
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

# Imported here, before any in-process pytester run: pytester restores sys.modules after each
# run, and a knownvalue module first imported inside one would leave the next run two copies.
import plancheck.knownvalue  # noqa: F401

CHECKS_IMPORT = """
from plancheck import ExpectResourceAction, ExpectSensitiveValue, ExpectUnknownOutputValue, ExpectUnknownValue
from plancheck import ResourceAction
"""

ASSERT_PLAN_SUITE = (
    """
import pytest
from tfjsonpath import New
"""
    + CHECKS_IMPORT
    + """

@pytest.mark.tf_plan("plan.json")
def test_plan(tf_plan, assert_plan):
    assert_plan(
        tf_plan,
        ExpectUnknownValue("null_resource.a", New("id")),
        ExpectSensitiveValue("null_resource.a", New("triggers").AtMapKey("secret")),
        ExpectUnknownValue("null_resource.a", New("triggers").AtMapKey("secret")),
        ExpectSensitiveValue("null_resource.a", New("triggers").AtMapKey("name")),
        ExpectResourceAction("null_resource.a", ResourceAction.Destroy),
        ExpectUnknownValue("null_resource.b", New("id")),
    )
"""
)

# Every line of the failure, in order, exactly (fnmatch: [[] is a literal "[").
ASSERT_PLAN_FAILURE = [
    "*_ test_plan _*",
    "",
    "tf_plan = <Plan */plan.json format_version='1.2' resource_changes=1>",
    "assert_plan = <plancheck assert_plan fixture>",
    "",
    '    @pytest.mark.tf_plan("plan.json")',
    "    def test_plan(tf_plan, assert_plan):",
    ">       assert_plan(",
    "            tf_plan,",
    '            ExpectUnknownValue("null_resource.a", New("id")),',
    '            ExpectSensitiveValue("null_resource.a", New("triggers").AtMapKey("secret")),',
    '            ExpectUnknownValue("null_resource.a", New("triggers").AtMapKey("secret")),',
    '            ExpectSensitiveValue("null_resource.a", New("triggers").AtMapKey("name")),',
    "            ExpectResourceAction(\"null_resource.a\", ResourceAction.Destroy),",
    '            ExpectUnknownValue("null_resource.b", New("id")),',
    "        )",
    "E       plancheck.PlanCheckError: 4 plan checks failed:",
    'E         1. ExpectUnknownValue: null_resource.a: triggers[[]"secret"[]]: expected an unknown value, '
    "but it is known: (sensitive)",
    'E         2. ExpectSensitiveValue: null_resource.a: triggers[[]"name"[]]: expected a sensitive value, '
    'but it is not sensitive; it is known: "web"',
    "E         3. ExpectResourceAction: null_resource.a: expected Destroy, got action(s): [[]create[]]",
    "E         4. ExpectUnknownValue: null_resource.b: resource not found in plan ResourceChanges; "
    "closest: null_resource.a",
    "",
    "test_plan.py:*: PlanCheckError",
]


@pytest.fixture
def secret_project(pytester: pytest.Pytester) -> pytest.Pytester:
    write_json(pytester.path / "plan.json", secret_plan())
    return pytester


def test_assert_plan_failure_lists_every_failed_check(secret_project: pytest.Pytester) -> None:
    secret_project.makepyfile(test_plan=ASSERT_PLAN_SUITE)
    result = run(secret_project)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(ASSERT_PLAN_FAILURE, consecutive=True)
    result.stdout.fnmatch_lines(["FAILED test_plan.py::test_plan - plancheck.PlanCheckError: 4 plan *"])


@pytest.mark.parametrize("args", [["--tb=long"], ["--tb=long", "--showlocals"]], ids=["long", "long-showlocals"])
def test_library_frames_are_hidden(secret_project: pytest.Pytester, args: list[str]) -> None:
    secret_project.makepyfile(test_plan=ASSERT_PLAN_SUITE)
    result = run(secret_project, *args)
    result.assert_outcomes(failed=1)
    output = result.stdout.str()
    # The only frame shown is the test's own.
    assert re.findall(r"^(\S*\.py):\d+", output, re.MULTILINE) == ["test_plan.py"]
    for library_file in ("_plugin/collectors.py", "_planchecks/base.py", "plugin.py", "_documents/resolve.py"):
        assert library_file not in output


PLAN_CHECKS_SUITE = (
    """
import pytest
from plancheck import load_plan
from tfjsonpath import New
"""
    + CHECKS_IMPORT
    + """

@pytest.mark.tf_plan("plan.json")
def test_queued_checks_run_when_the_test_returns(plan_checks):
    plan_checks.add(ExpectUnknownValue("null_resource.a", New("id")))
    plan_checks.add(ExpectUnknownValue("null_resource.a", New("triggers").AtMapKey("name")),
                    ExpectResourceAction("null_resource.a", ResourceAction.Update))

@pytest.mark.tf_plan("plan.json")
def test_passing_checks(plan_checks):
    plan_checks.add(ExpectUnknownValue("null_resource.a", New("id")))
    assert len(plan_checks) == 1

def test_verify_against_an_explicit_plan(plan_checks, request):
    plan_checks.add(ExpectResourceAction("null_resource.a", ResourceAction.Create))
    plan_checks.verify(load_plan(request.path.parent / "plan.json"))
    assert plan_checks.pending == ()

@pytest.mark.tf_plan("plan.json")
def test_explicit_verify_fails_at_its_line(plan_checks):
    plan_checks.add(ExpectResourceAction("null_resource.a", ResourceAction.Update))
    plan_checks.verify()
    raise RuntimeError("not reached")

@pytest.mark.tf_plan("plan.json")
def test_not_verified_after_the_test_failed(plan_checks):
    plan_checks.add(ExpectResourceAction("null_resource.a", ResourceAction.Update))
    assert 1 == 2

def test_no_checks_needs_no_plan(plan_checks):
    pass
"""
)


def test_plan_checks_collector(secret_project: pytest.Pytester) -> None:
    secret_project.makepyfile(test_collector=PLAN_CHECKS_SUITE)
    result = run(secret_project, "-rf")
    result.assert_outcomes(passed=3, failed=3)
    result.stdout.fnmatch_lines(
        [
            "*_ test_queued_checks_run_when_the_test_returns _*",
            "plan_checks (verified after test_queued_checks_run_when_the_test_returns returned): "
            "2 plan checks failed:",
            '  1. ExpectUnknownValue: null_resource.a: triggers[[]"name"[]]: expected an unknown value, '
            'but it is known: "web"',
            "  2. ExpectResourceAction: null_resource.a: expected Update, got action(s): [[]create[]]",
        ],
        consecutive=True,
    )
    result.stdout.fnmatch_lines(
        [
            ">       plan_checks.verify()",
            "E       plancheck.PlanCheckError: ExpectResourceAction: null_resource.a: expected Update, "
            "got action(s): [[]create[]]",
        ],
        consecutive=True,
    )
    result.stdout.fnmatch_lines(["E       assert 1 == 2"])
    # The failed test's queued check is not reported on top of its own failure.
    # Counted before the short summary, whose lines pytest truncates only outside CI.
    failures_section = result.stdout.str().split("short test summary info")[0]
    assert failures_section.count("expected Update") == 2


LEAKY_SUITE = (
    """
import logging
import pytest
from plancheck import knownvalue as kv
from tfjsonpath import New
"""
    + CHECKS_IMPORT
    + """

pytestmark = pytest.mark.tf_plan("plan.json")

def test_checks(tf_plan, assert_plan):
    assert_plan(
        tf_plan,
        ExpectUnknownValue("null_resource.a", New("triggers").AtMapKey("secret")),
        ExpectUnknownValue("null_resource.a", New("triggers")),
        ExpectUnknownValue("null_resource.a", New("triggers").AtMapKey("copy")),
        ExpectUnknownOutputValue("pw"),
    )

def test_collector(plan_checks):
    plan_checks.add(ExpectUnknownValue("null_resource.a", New("triggers").AtMapKey("password")))

def test_raw_value_in_a_plain_assert(tf_plan):
    after = tf_plan.resource_change("null_resource.a").change.after
    secret = after["triggers"]["secret"]
    print("stdout:", secret, tf_plan.variables)
    logging.getLogger("t").warning("log: %s", after)
    assert after["triggers"]["secret"] == "x"

def test_raw_value_against_a_matcher(tf_plan):
    after = tf_plan.resource_change("null_resource.a").change.after
    assert after["triggers"] == kv.MapExact({"secret": kv.StringExact("x")})

def test_raw_output_value(tf_plan):
    assert tf_plan.output_changes["pw"].change.after == kv.StringExact("x")

def test_passing_test_prints_a_secret(tf_plan):
    print("passing:", tf_plan.output_changes["pw"].change.after)
"""
)


def _leaky_plan() -> dict[str, Any]:
    plan = secret_plan()
    # Terraform sometimes drops a mark: an unmarked copy must be caught by value.
    plan["resource_changes"][0]["change"]["after"]["triggers"]["copy"] = SECRET_VAR
    return plan


@pytest.mark.parametrize(
    "args",
    [
        pytest.param([], id="default"),
        pytest.param(["-vv"], id="vv"),
        pytest.param(["-vv", "--tb=long", "--showlocals"], id="vv-long-showlocals"),
        pytest.param(["--tb=short", "-l"], id="short-l"),
        pytest.param(["--tb=native", "-l"], id="native-l"),
        pytest.param(["--full-trace", "-l"], id="full-trace-l"),
        pytest.param(["-rA", "-vv", "-l"], id="rA-shows-passing-tests-output"),
    ],
)
def test_secrets_never_reach_the_terminal(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    monkeypatch.delenv("CI", raising=False)
    write_json(pytester.path / "plan.json", _leaky_plan())
    pytester.makepyfile(test_leaky=LEAKY_SUITE)
    result = run(pytester, *args)
    result.assert_outcomes(passed=1, failed=5)
    output = result.stdout.str() + result.stderr.str()
    for secret in SECRETS:
        assert secret not in output
    assert "(sensitive)" in output
    result.stdout.fnmatch_lines(
        [
            '*ExpectUnknownValue: null_resource.a: triggers: expected an unknown value, but it is known: {"name": '
            '"web", "secret": (sensitive), "password": (sensitive), "copy": (sensitive)}',
        ]
    )


def test_secrets_never_reach_a_fresh_interpreters_output(pytester: pytest.Pytester) -> None:
    write_json(pytester.path / "plan.json", _leaky_plan())
    pytester.makepyfile(test_leaky=LEAKY_SUITE)
    result = run_subprocess(pytester, "-vv", "--tb=long", "--showlocals", "-rA")
    result.assert_outcomes(passed=1, failed=5)
    output = result.stdout.str() + result.stderr.str()
    assert output.count("(sensitive)") >= 10
    for secret in SECRETS:
        assert secret not in output


@pytest.mark.parametrize(
    ("ci", "revealed"),
    [pytest.param(None, True, id="locally"), pytest.param("true", False, id="refused-in-ci")],
)
def test_show_sensitive_reveals_secrets(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, ci: str | None, revealed: bool
) -> None:
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    write_json(pytester.path / "plan.json", _leaky_plan())
    pytester.makepyfile(test_leaky=LEAKY_SUITE)
    result = run(pytester, "--tf-show-sensitive")
    result.assert_outcomes(passed=1, failed=5)
    output = result.stdout.str()
    expected_line = (
        f'*ExpectUnknownValue: null_resource.a: triggers[[]"secret"[]]: expected an unknown value, '
        f'but it is known: "{SECRET_ATTR}"'
    )
    if revealed:
        result.stdout.fnmatch_lines([expected_line, f"*stdout: {SECRET_ATTR}*"])
        assert SECRET_OUT in output
    else:
        result.stdout.no_fnmatch_line(expected_line)
        for secret in SECRETS:
            assert secret not in output


MATCHER_SUITE = """
from plancheck import knownvalue as kv

def test_value_on_the_left():
    assert {"a": ["x", "y"]} == kv.MapExact({"a": kv.ListExact([kv.StringExact("x"), kv.StringExact("z")])})

def test_matcher_on_the_left():
    assert kv.Int64Exact(3) == 4

def test_foreign_types_keep_pytests_report():
    assert [1, 2] == [1, 3]

def test_two_matchers_compare_as_values():
    assert kv.StringExact("a") == kv.StringExact("b")

def test_matching_values_pass():
    assert "ami-123" == kv.StringRegexp("^ami-")
"""


def test_assertrepr_explains_knownvalue_mismatches(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_matchers=MATCHER_SUITE)
    result = run(pytester)
    result.assert_outcomes(passed=1, failed=4)
    result.stdout.fnmatch_lines(
        [
            "E       assert value does not match MapExact({'a': ListExact([StringExact('x'), StringExact('z')])})",
            'E         a[[]1[]]: expected value "z" for StringExact check, got: "y"',
        ],
        consecutive=True,
    )
    result.stdout.fnmatch_lines(
        [
            "E       assert value does not match Int64Exact(3)",
            "E         expected value 3 for Int64Exact check, got: 4",
        ],
        consecutive=True,
    )
    result.stdout.fnmatch_lines(["E       assert [[]1, 2[]] == [[]1, 3[]]", "E         At index 1 diff: 2 != 3"])
    result.stdout.fnmatch_lines(["E       AssertionError: assert StringExact('a') == StringExact('b')"])


def test_xdist_two_workers(pytester: pytest.Pytester) -> None:
    write_json(pytester.path / "plan.json", _leaky_plan())
    pytester.makepyfile(test_leaky=LEAKY_SUITE)
    pytester.makepyfile(
        test_many=(
            "import pytest\n\n"
            "@pytest.mark.parametrize('n', range(6))\n"
            "@pytest.mark.tf_plan('plan.json')\n"
            "def test_shared_plan(tf_plan, n, _plancheck_documents):\n"
            "    assert tf_plan.has_resource_change('null_resource.a')\n"
            "    assert _plancheck_documents.plans.loads == 1\n"
        )
    )
    result = run_subprocess(pytester, "-n", "2", "-l", "-vv")
    result.assert_outcomes(passed=7, failed=5)
    output = result.stdout.str() + result.stderr.str()
    for secret in SECRETS:
        assert secret not in output
    result.stdout.fnmatch_lines(
        ["created: 2/2 workers", "E       plancheck.PlanCheckError: 4 plan checks failed:"],
    )
