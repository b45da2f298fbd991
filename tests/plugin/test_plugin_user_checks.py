"""Checks written by a user, outside the package, with public names only, run through the plugin.

The inner test module imports nothing but ``plancheck``, ``plancheck.knownvalue``,
``plancheck.statecheck``, ``plancheck.querycheck`` and ``tfjsonpath``: a matcher (Go's custom
``knownvalue.Check``), a plan check, a state check and a query check, each on its public base
class with no underscore name. It runs them through the plugin's ``tf_plan``/``tf_state``
fixtures, ``assert_plan`` and ``plan_checks``, nested in library checks, and checks that
failures are reported (with a planted secret scrubbed).
"""

from __future__ import annotations

import ast
import re

import pytest
from plugin_support import run, write_json

SECRET = "pw-user-9Hq4zz"

PLAN = {
    "format_version": "1.2",
    "variables": {"db_password": {"value": SECRET}},
    "configuration": {"root_module": {"variables": {"db_password": {"sensitive": True}}}},
    "resource_changes": [{
        "address": "aws_instance.web", "mode": "managed", "type": "aws_instance", "name": "web",
        "change": {"actions": ["create"], "after": {"ami": "ami-0abc", "tags": {"env": "prod"}, "note": SECRET},
                   "after_unknown": {}, "after_sensitive": {}},
    }],
}
STATE = {
    "format_version": "1.0",
    "values": {"root_module": {"resources": [{
        "address": "aws_instance.web", "mode": "managed", "type": "aws_instance", "name": "web",
        "values": {"ami": "ami-0abc"}, "sensitive_values": {},
    }]}},
}

USER_MODULE = '''
from dataclasses import dataclass

import pytest

from plancheck import ExpectKnownValue, PlanCheck, assert_plan as run_plan_checks
from plancheck import knownvalue as kv
from plancheck.querycheck import QueryOutput, QueryResultCheck, assert_query
from plancheck.statecheck import ExpectKnownValue as StateKnownValue, StateCheck, assert_state
from tfjsonpath import New


class StartsWith(kv.Check):
    def __init__(self, prefix):
        self.prefix = prefix
        super().__init__()

    def mismatch(self, value):
        if isinstance(value, str) and value.startswith(self.prefix):
            return None
        return f"expected a string starting with {self.prefix!r}, got {value!r}"

    def __str__(self):
        return f"<starts with {self.prefix!r}>"


@dataclass(frozen=True)
class ExpectTag(PlanCheck):
    address: str
    key: str

    def failures(self, plan):
        after = plan.resource_change(self.address).change.after
        tags = after.get("tags") or {}
        if self.key in tags:
            return []
        return [self.failure(plan, f"no tag {self.key!r}; note is {after['note']}", address=self.address)]


@dataclass(frozen=True)
class ExpectResourceCount(StateCheck):
    count: int

    def failures(self, state):
        found = len(state.resources)
        return [] if found == self.count else [self.failure(state, f"{found} resources, not {self.count}")]


@dataclass(frozen=True)
class ExpectResults(QueryResultCheck):
    minimum: int

    def failures(self, output):
        found = len(output.results)
        return [] if found >= self.minimum else [self.failure(output, f"{found} results, not {self.minimum}")]


def test_matcher_passes(tf_plan, assert_plan):
    assert_plan(tf_plan, ExpectKnownValue("aws_instance.web", New("ami"), StartsWith("ami-")),
                ExpectKnownValue("aws_instance.web", New("tags"), kv.MapExact({"env": StartsWith("pr")})))


def test_matcher_fails(tf_plan, assert_plan):
    assert_plan(tf_plan, ExpectKnownValue("aws_instance.web", New("tags"), kv.MapExact({"env": StartsWith("dev")})))


def test_plan_check_passes(tf_plan, plan_checks):
    plan_checks.add(ExpectTag("aws_instance.web", "env"))


def test_plan_check_fails(tf_plan):
    run_plan_checks(tf_plan, ExpectTag("aws_instance.web", "team"))


def test_state_checks(tf_state):
    assert_state(tf_state, ExpectResourceCount(1), StateKnownValue("aws_instance.web", New("ami"), StartsWith("ami-")))


def test_state_check_fails(tf_state):
    assert_state(tf_state, ExpectResourceCount(2))


def test_query_check_fails():
    assert_query(QueryOutput.from_messages([]), ExpectResults(1))
'''


def test_user_written_checks_use_public_names_only() -> None:
    tree = ast.parse(USER_MODULE)
    imported = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert imported == ["dataclasses", "plancheck", "plancheck", "plancheck.querycheck", "plancheck.statecheck",
                        "tfjsonpath"]
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names]
    assert [name for name in names if name.startswith("_")] == []
    attributes = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert sorted(a for a in attributes if a.startswith("_") and not a.endswith("__")) == []


def test_user_written_checks_run_through_the_plugin(pytester: pytest.Pytester) -> None:
    write_json(pytester.path / "plan.json", PLAN)
    write_json(pytester.path / "state.json", STATE)
    pytester.makepyfile(test_user=USER_MODULE)
    result = run(pytester, "--tf-plan", "plan.json", "--tf-state", "state.json", "-q")
    result.assert_outcomes(passed=3, failed=4)
    out = result.stdout.str()
    assert SECRET not in out
    failures = re.findall(r"^E\s+(plancheck\.\S+: .*)$", out, flags=re.MULTILINE)
    assert failures == [
        "plancheck.PlanCheckError: ExpectKnownValue: aws_instance.web: tags[\"env\"]: expected a string starting "
        "with 'dev', got 'prod'; expected <starts with 'dev'>, got \"prod\"",
        "plancheck.PlanCheckError: ExpectTag: aws_instance.web: no tag 'team'; note is (sensitive)",
        "plancheck.StateCheckError: ExpectResourceCount: 1 resources, not 2",
        "plancheck.querycheck.QueryCheckError: ExpectResults: 0 results, not 1",
    ]
