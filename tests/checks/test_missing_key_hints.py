"""A missing key in a path says which keys are near ("did you mean", as addresses already do), and counts
the attributes a planned resource lacks because they are unknown until apply (a newcomer read "no key tags
in an object with 2 keys" about a resource of 4 attributes). A suggestion never shows a secret: none under
a sensitive mark, none that is a secret's value (a sensitive variable's value used as a map key).
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest

from plancheck import ExpectKnownValue, Plan, PlanCheckError, State, StateCheckError, assert_plan, statecheck
from plancheck import knownvalue as kv
from plancheck.statecheck import assert_state
from tfjsonpath import New

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from secret_shapes import KEY_SECRET, MAP_KEY_SECRET, leaks, secret_shapes_plan

RESOURCE = "null_resource.a"


def _plan() -> Plan:
    doc = secret_shapes_plan()
    # A map not under a mark whose key is a sensitive variable's value (nonsensitive() in a for expression).
    doc["resource_changes"][0]["change"]["after"]["labels"] = {KEY_SECRET: "x", "env": "prod"}
    return Plan.from_json(json.dumps(doc))


PLAN_CASES = [
    pytest.param(
        New("tgas"),
        f'ExpectKnownValue: {RESOURCE}: tgas: value is not present (no key "tgas" in an object with 4 keys, '
        '1 unknown until apply: "id"; did you mean "tags"?); expected "v"',
        id="did-you-mean-and-the-unknown-attributes",
    ),
    pytest.param(
        New("labels").AtMapKey("evn"),
        f'ExpectKnownValue: {RESOURCE}: labels["evn"]: value is not present (no key "evn" in an object with 2 keys '
        'at labels; did you mean "env"?); expected "v"',
        id="did-you-mean-in-a-map",
    ),
    pytest.param(
        New("labels").AtMapKey("zzkey-for-each-5e6"),
        f'ExpectKnownValue: {RESOURCE}: labels["(sensitive)"]: value is not present (no key "(sensitive)" in an '
        'object with 2 keys at labels); expected "v"',
        id="a-key-that-is-a-secret-is-never-suggested",
    ),
    pytest.param(
        New("tags").AtMapKey("zzmapkey-under-mark"),
        f'ExpectKnownValue: {RESOURCE}: tags["(sensitive)"]: value is not present (no key "(sensitive)" in an '
        'object with 1 key at tags); expected "v"',
        id="no-suggestion-under-a-sensitive-mark",
    ),
]


@pytest.mark.parametrize(("path", "expected"), PLAN_CASES)
def test_a_missing_key_in_a_plan(path: object, expected: str) -> None:
    with pytest.raises(PlanCheckError) as info:
        assert_plan(_plan(), ExpectKnownValue(RESOURCE, path, kv.StringExact("v")))  # type: ignore[arg-type]
    text = str(info.value)
    assert text == expected
    assert leaks(text) == []
    assert MAP_KEY_SECRET not in text
    assert KEY_SECRET not in text


def test_a_resource_whose_other_attributes_are_unknown_says_so() -> None:
    # The newcomer's plan: 4 attributes, 2 known, 2 unknown until apply; "tags" is none of them.
    plan = Plan.from_json(json.dumps({"format_version": "1.2", "resource_changes": [{
        "address": "aws_s3_bucket.b", "mode": "managed", "type": "aws_s3_bucket", "name": "b",
        "change": {"actions": ["create"], "before": None, "after": {"bucket": "logs", "region": "eu-west-1"},
                   "after_unknown": {"arn": True, "id": True}}}]}))
    with pytest.raises(PlanCheckError) as info:
        assert_plan(plan, ExpectKnownValue("aws_s3_bucket.b", New("tags"), kv.Null()))
    assert str(info.value) == (
        'ExpectKnownValue: aws_s3_bucket.b: tags: value is not present (no key "tags" in an object with 4 keys, '
        '2 unknown until apply: "arn", "id"); expected null'
    )


def test_a_missing_key_in_a_state() -> None:
    state = State.from_json(json.dumps({"format_version": "1.0", "values": {"root_module": {"resources": [{
        "address": "null_resource.s", "mode": "managed", "type": "null_resource", "name": "s",
        "values": {"id": "1", "triggers": {"region": "eu"}}, "sensitive_values": {}}]}}}))
    with pytest.raises(StateCheckError) as info:
        assert_state(state, statecheck.ExpectKnownValue("null_resource.s", New("triggers").AtMapKey("regoin"),
                                                        kv.StringExact("eu")))
    assert str(info.value) == (
        'ExpectKnownValue: null_resource.s: triggers["regoin"]: value is not present (no key "regoin" in an '
        'object with 1 key at triggers; did you mean "region"?); expected "eu"'
    )


def test_the_plan_is_not_changed() -> None:
    doc = secret_shapes_plan()
    before = copy.deepcopy(doc)
    with pytest.raises(PlanCheckError):
        assert_plan(Plan.from_json(json.dumps(doc)), ExpectKnownValue(RESOURCE, New("tgas"), kv.Null()))
    assert doc == before


@pytest.mark.parametrize(("variable_sensitive", "expected_end"), [
    pytest.param(True, 'in an object with 1 key at tags); expected "x"', id="the-key-is-a-secret-never-suggested"),
    pytest.param(False, 'in an object with 1 key at tags; did you mean "var-db-6Wm3zz"?); expected "x"',
                 id="control-the-same-key-not-secret-is-suggested"),
])
def test_a_key_that_is_a_sensitive_variables_value_is_never_suggested(
    variable_sensitive: bool, expected_end: str
) -> None:
    # A map whose one key is the value of a variable (for_each keys and map keys come from variables); the
    # key asked for is near it (difflib) without a piece of it the scrubber would catch.
    secret = "var-db-6Wm3zz"
    doc = {
        "format_version": "1.2",
        "variables": {"db_password": {"value": secret}},
        "configuration": {"root_module": {"variables": {"db_password": {"sensitive": variable_sensitive}}}},
        "resource_changes": [{
            "address": "aws_db_instance.db", "mode": "managed", "type": "aws_db_instance", "name": "db",
            "change": {"actions": ["create"], "before": None, "after": {"tags": {secret: "x"}}, "after_unknown": {}},
        }],
    }
    asked = "var-dbX6Wm3zz"
    with pytest.raises(PlanCheckError) as info:
        assert_plan(Plan.from_json(json.dumps(doc)),
                    ExpectKnownValue("aws_db_instance.db", New("tags").AtMapKey(asked), kv.StringExact("x")))
    assert str(info.value).endswith(f'no key "{asked}" {expected_end}')
    assert (secret in str(info.value)) is not variable_sensitive
