"""Every check family's failure shows the expected value beside the actual one, unless the expected value is a secret.

A matcher's own message often names only what differs (a count, a type, a key, a missing
value); the failure of a check adds the matcher's whole expected value and the actual value
(``; expected X, got Y``), where the message does not show them already. An unknown or absent
value has no actual value to show: the failure says what it is, then the expected value.
An expected value that is a secret of the document, or that was compared with a hidden value,
is ``(sensitive)``, part by part (a map's check for a key the value lacks shows beside a secret under
another key): planted secrets below prove it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from planted_secrets import (
    PLANTED,
    SECRET_AFTER,
    SECRET_BEFORE,
    SECRET_OUTPUT,
    SECRET_STATE_ATTR,
    SECRET_VAR,
    plan_document,
    state_document,
)
from secret_shapes import leaks

from plancheck import (
    CheckFailure,
    ExpectEachKnownValue,
    ExpectKnownOutputValue,
    ExpectKnownOutputValueAtPath,
    ExpectKnownValue,
    Plan,
    Resources,
    State,
    revealing_sensitive,
)
from plancheck import knownvalue as kv
from plancheck import statecheck as sc
from plancheck.querycheck import ExpectIdentity, ExpectResourceKnownValues, KnownValueCheck, QueryOutput
from tfjsonpath import New

PLAN = Plan.from_dict({
    "format_version": "1.2",
    "resource_changes": [{"address": "a.b", "mode": "managed", "type": "a", "name": "b", "change": {
        "actions": ["create"],
        "after": {"l": [1, 2], "s": "x", "m": {"k": 1}, "t": {"env": None}},
        "after_unknown": {"u": True},
    }}],
    "output_changes": {"o": {"actions": ["create"], "after": {"v": "w"}, "after_unknown": False}},
})
STATE = State.from_dict({
    "format_version": "1.0",
    "values": {
        "outputs": {"o": {"value": ["w"], "sensitive": False}},
        "root_module": {"resources": [{"address": "a.b", "mode": "managed", "type": "a", "name": "b",
                                       "values": {"l": [1, 2], "s": "x"}, "sensitive_values": {}}]},
    },
})
QUERY = QueryOutput.from_messages([
    {"type": "list_resource_found", "list_resource_found": {
        "address": "list.t.x", "display_name": "x", "identity": {"id": "i-1"}, "identity_version": 1,
        "resource_type": "t", "resource_object": {"ami": "ami-1", "tags": ["a"]}}},
    {"type": "list_complete", "list_complete": {"address": "list.t.x", "resource_type": "t", "total": 1}},
])


def messages(check: Any, document: Any) -> list[str]:
    return [str(f) for f in check.failures(document)]


CASES: dict[str, tuple[Callable[[], list[str]], list[str]]] = {
    "plan-size": (
        lambda: messages(ExpectKnownValue("a.b", New("l"), kv.ListExact([kv.Int64Exact(1)])), PLAN),
        ["ExpectKnownValue: a.b: l: expected 1 element for ListExact check, got 2 elements; expected [1], got [1, 2]"],
    ),
    "plan-type": (
        lambda: messages(ExpectKnownValue("a.b", New("s"), kv.Int64Exact(3)), PLAN),
        ['ExpectKnownValue: a.b: s: expected number value for Int64Exact check, got: string; expected 3, got "x"'],
    ),
    "plan-scalar-already-shows-both": (
        lambda: messages(ExpectKnownValue("a.b", New("s"), kv.StringExact("y")), PLAN),
        ['ExpectKnownValue: a.b: s: expected value "y" for StringExact check, got: "x"'],
    ),
    "plan-keys": (
        lambda: messages(ExpectKnownValue("a.b", New("m"), kv.MapPartial({"j": kv.Int64Exact(1)})), PLAN),
        ['ExpectKnownValue: a.b: m: missing key "j" for MapPartial check; expected {"j": 1, ...}, got {"k": 1}'],
    ),
    "plan-set": (
        lambda: messages(ExpectKnownValue("a.b", New("l"), kv.SetPartial([kv.Int64Exact(3)])), PLAN),
        ["ExpectKnownValue: a.b: l: missing value 3 for SetPartial check; expected [3, ...], got [1, 2]"],
    ),
    "plan-nested-null": (
        lambda: messages(ExpectKnownValue("a.b", New("t"), kv.MapExact({"env": kv.StringExact("prod")})), PLAN),
        ['ExpectKnownValue: a.b: t["env"]: expected string value for StringExact check, got: null; expected "prod"'],
    ),
    "plan-null-check-says-it-all": (
        lambda: messages(ExpectKnownValue("a.b", New("s"), kv.Null()), PLAN),
        ["ExpectKnownValue: a.b: s: expected null value for Null check, got: string; got \"x\""],
    ),
    "plan-absent": (
        lambda: messages(ExpectKnownValue("a.b", New("zz"), kv.StringExact("y")), PLAN),
        ['ExpectKnownValue: a.b: zz: value is not present (no key "zz" in an object with 5 keys, 1 unknown until apply: "u"); expected "y"'],
    ),
    "plan-unknown": (
        lambda: messages(ExpectKnownValue("a.b", New("u"), kv.StringExact("y")), PLAN),
        ['ExpectKnownValue: a.b: u: value is unknown; expected "y"'],
    ),
    "plan-output": (
        lambda: messages(ExpectKnownOutputValue("o", kv.ListSizeExact(1)), PLAN),
        ['ExpectKnownOutputValue: output.o: expected array value for ListSizeExact check, got: object; '
         'expected <list of 1 element>, got {"v": "w"}'],
    ),
    "plan-output-at-path": (
        lambda: messages(ExpectKnownOutputValueAtPath("o", New("v"), kv.Bool(True)), PLAN),
        ['ExpectKnownOutputValueAtPath: output.o: v: expected bool value for Bool check, got: string; '
         'expected true, got "w"'],
    ),
    "plan-each": (
        lambda: messages(ExpectEachKnownValue(Resources(type="a"), New("l"), kv.ListSizeExact(3)), PLAN),
        ["ExpectEachKnownValue: Resources(type='a'): l: 1 of 1 failed: a.b: expected 3 elements for ListSizeExact "
         "check, got 2 elements; expected <list of 3 elements>, got [1, 2]"],
    ),
    "state-size": (
        lambda: messages(sc.ExpectKnownValue("a.b", New("l"), kv.TupleExact([kv.Int64Exact(1)])), STATE),
        ["ExpectKnownValue: a.b: l: expected 1 element for TupleExact check, got 2 elements; expected [1], got [1, 2]"],
    ),
    "state-output": (
        lambda: messages(sc.ExpectKnownOutputValue("o", kv.SetExact([kv.StringExact("v")])), STATE),
        ['ExpectKnownOutputValue: output.o: missing value "v" for SetExact check; unmatched element [0]: "w"; '
         'expected ["v"], got ["w"]'],
    ),
    "query-known-values": (
        lambda: messages(ExpectResourceKnownValues("t.x", None, [KnownValueCheck(New("tags"), kv.ListSizeExact(2))]),
                         QUERY),
        ['ExpectResourceKnownValues: t.x: error checking value for attribute at path: tags for resource with '
         'identity {"id": "i-1"}, err: expected 2 elements for ListSizeExact check, got 1 element; '
         'expected <list of 2 elements>, got ["a"]'],
    ),
    "query-identity": (
        lambda: messages(ExpectIdentity("t.x", {"id": kv.Int64Exact(1)}), QUERY),
        # Go's wording names the expected identity already.
        ['ExpectIdentity: t.x: an identity with the following attributes was not found: attribute "id": 1 '
         "(1 result of this list block searched, lines 1)"],
    ),
}


@pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))
def test_failures_show_the_expected_and_the_actual_value(case: tuple[Callable[[], list[str]], list[str]]) -> None:
    found, expected = case
    assert found() == expected


# -- expected values that are secrets stay hidden ----------------------------------------------------

SECRET_PLAN = Plan.from_dict(plan_document())
SECRET_STATE = State.from_dict(state_document())
DB = "aws_db_instance.db"

SECRET_CASES: dict[str, tuple[Callable[[], list[CheckFailure]], str]] = {
    # The expected value is a secret of the plan: a sensitive variable's value, a marked attribute's.
    "plan-wrong-type": (
        lambda: ExpectKnownValue(DB, New("name"), kv.ListExact([kv.StringExact(SECRET_VAR)])).failures(SECRET_PLAN),
        "name: expected array value for ListExact check, got: string; expected (sensitive), got \"db\"",
    ),
    "plan-size": (
        lambda: ExpectKnownValue(DB, New("list"), kv.ListExact([kv.StringExact(SECRET_AFTER)])).failures(SECRET_PLAN),
        'list: expected 1 element for ListExact check, got 2 elements; expected (sensitive), got ["plain", (sensitive)]',
    ),
    "plan-unknown": (
        lambda: ExpectKnownValue(DB, New("arn"), kv.StringExact(SECRET_BEFORE)).failures(SECRET_PLAN),
        "arn: value is unknown; expected (sensitive)",
    ),
    "plan-absent": (
        lambda: ExpectKnownValue(DB, New("nope"), kv.SetExact([kv.StringExact(SECRET_OUTPUT)])).failures(SECRET_PLAN),
        "nope: value is not present (no key \"nope\" in an object with 8 keys, 1 unknown until apply: \"arn\"); expected (sensitive)",
    ),
    # Not a secret, but compared with a hidden value: a near miss would give the secret away.
    "plan-compared-with-hidden": (
        lambda: ExpectKnownValue(DB, New("password"), kv.Int64Exact(3)).failures(SECRET_PLAN),
        "password: expected number value for Int64Exact check, got: string; expected (sensitive), got (sensitive)",
    ),
    "state-size": (
        lambda: sc.ExpectKnownValue(DB, New("list"), kv.ListExact([kv.StringExact(SECRET_STATE_ATTR)]))
        .failures(SECRET_STATE),
        'list: expected 1 element for ListExact check, got 2 elements; expected (sensitive), got ["plain", (sensitive)]',
    ),
}


@pytest.mark.parametrize("case", list(SECRET_CASES.values()), ids=list(SECRET_CASES))
def test_an_expected_secret_is_hidden(case: tuple[Callable[[], list[CheckFailure]], str]) -> None:
    build, expected = case
    (failure,) = build()
    shown = f"{failure.path.to_text() if failure.path else ''}: {failure.message}"
    assert shown == expected
    assert leaks(str(failure), PLANTED) == []
    # The row proves the redaction: with redaction off, the secret would be in the message.
    with revealing_sensitive():
        (revealed,) = build()
    assert leaks(str(revealed), PLANTED) != []


# -- a secret in the actual value only hides the parts of the expected value compared with it --------------

# settings is {"mode": "b", "token": <secret, marked>}, list is ["plain", <secret, marked>]. A collection check's
# expected value was shown whole as (sensitive) beside any secret in the actual value; the secrets page's rule is
# part by part: the user's own literal shows, except where it equals a secret or was compared with a hidden value.
PARTS_CASES: dict[str, tuple[Any, Any, str]] = {
    "map-keys-not-compared": (
        New("settings"), kv.MapExact({"mode": kv.StringExact("b"), "region": kv.StringExact("eu")}),
        'settings: expected 2 elements for MapExact check, got 2 elements: actual value has extra key(s): "token"; '
        'actual value is missing key(s): "region"; expected {"mode": "b", "region": "eu"}, got {"mode": "b", "token": (sensitive)}'),
    "map-key-compared-with-the-secret": (
        New("settings"),
        kv.MapExact({"mode": kv.StringExact("b"), "token": kv.StringExact("near-miss"), "zz": kv.StringExact("y")}),
        'settings: expected 3 elements for MapExact check, got 2 elements: actual value is missing key(s): "zz"; '
        'expected {"mode": "b", "token": (sensitive), "zz": "y"}, got {"mode": "b", "token": (sensitive)}'),
    "map-nested-check-compared-with-the-secret": (
        New("settings"),
        kv.MapExact({"mode": kv.ListExact([kv.StringExact("b")]), "token": kv.MapExact({"a": kv.Null()}), "zz": kv.Null()}),
        'settings: expected 3 elements for MapExact check, got 2 elements: actual value is missing key(s): "zz"; '
        'expected {"mode": ["b"], "token": (sensitive), "zz": null}, got {"mode": "b", "token": (sensitive)}'),
    "map-expected-holds-a-secret": (
        New("settings"),
        kv.MapExact({"mode": kv.StringExact(SECRET_AFTER), "region": kv.StringExact("eu"), "zz": kv.Null()}),
        'settings: expected 3 elements for MapExact check, got 2 elements: actual value has extra key(s): "token"; '
        'actual value is missing key(s): "region", "zz"; expected (sensitive), got {"mode": "b", "token": (sensitive)}'),
    "list-element-not-hidden": (
        New("list"), kv.ListExact([kv.StringExact("plain")]),
        'list: expected 1 element for ListExact check, got 2 elements; expected ["plain"], got ["plain", (sensitive)]'),
    "list-element-compared-with-the-secret": (
        New("list"), kv.ListExact([kv.StringExact("plain"), kv.StringExact("near-miss"), kv.StringExact("z")]),
        'list: expected 3 elements for ListExact check, got 2 elements; expected ["plain", (sensitive), "z"], '
        'got ["plain", (sensitive)]'),
    "list-partial-index-not-present": (
        New("list"), kv.ListPartial({5: kv.StringExact("x")}),
        'list: missing element index 5 for ListPartial check; expected [5: "x", ...], got ["plain", (sensitive)]'),
    "set-compared-with-every-element": (
        New("list"), kv.SetPartial([kv.StringExact("zz")]),
        'list: missing value (sensitive) for SetPartial check; expected [(sensitive), ...], got ["plain", (sensitive)]'),
    "list-size-compared-with-the-count": (
        New("list"), kv.ListSizeExact(3),
        'list: expected 3 elements for ListSizeExact check, got 2 elements; expected <list of 3 elements>, '
        'got ["plain", (sensitive)]'),
    "map-size-compared-with-the-count": (
        New("settings"), kv.MapSizeExact(3),
        'settings: expected 3 elements for MapSizeExact check, got 2 elements; expected <map of 3 elements>, '
        'got {"mode": "b", "token": (sensitive)}'),
    # tags is {<a secret, the db_password variable's value>: "key-is-secret"}: the keys asked for were compared
    # with it (a near miss of a short secret would show), so they hide, in the message and in the expected value.
    "map-exact-beside-a-secret-key": (
        New("tags"), kv.MapExact({"near": kv.StringExact("x"), "zz": kv.Null()}),
        'tags: expected 2 elements for MapExact check, got 1 element: actual value has extra key(s): (sensitive); '
        'actual value is missing key(s): (sensitive); expected (sensitive), got {(sensitive): "key-is-secret"}'),
    "map-partial-beside-a-secret-key": (
        New("tags"), kv.MapPartial({"near": kv.StringExact("x")}),
        'tags: missing key (sensitive) for MapPartial check; expected (sensitive), got {(sensitive): "key-is-secret"}'),
    "whole-value-sensitive": (
        New("password"), kv.MapExact({"a": kv.Null()}),
        "password: expected object value for MapExact check, got: string; expected (sensitive), got (sensitive)"),
}


@pytest.mark.parametrize(("path", "matcher", "expected"), PARTS_CASES.values(), ids=PARTS_CASES.keys())
def test_an_expected_part_is_hidden_only_where_compared_with_a_hidden_one(path: Any, matcher: Any, expected: str) -> None:
    (failure,) = ExpectKnownValue(DB, path, matcher).failures(SECRET_PLAN)
    assert f"{failure.path.to_text() if failure.path else ''}: {failure.message}" == expected
    assert leaks(str(failure), PLANTED) == []
    with revealing_sensitive():
        (revealed,) = ExpectKnownValue(DB, path, matcher).failures(SECRET_PLAN)
    assert leaks(str(revealed), PLANTED) != []


# -- a number that is a secret by its spelling (a sensitive variable's, copied unmarked) -----------------

NUMBER_SECRET = "31337.25"
NUMBER_PLAN = Plan.from_json(
    '{"format_version": "1.2", "variables": {"n": {"value": 31337.25}},'
    ' "configuration": {"root_module": {"variables": {"n": {"sensitive": true}}}},'
    ' "resource_changes": [{"address": "a.b", "mode": "managed", "type": "a", "name": "b", "change": {'
    '"actions": ["create"], "before": null, "after": {"x": 31337.25, "y": 7, "l": [1, 31337.25]},'
    ' "after_unknown": {}, "after_sensitive": {}}}]}'
)

NUMBER_CASES: dict[str, tuple[Any, str]] = {
    "NumberExact, a near miss": (
        ExpectKnownValue("a.b", New("x"), kv.NumberExact(31337)),
        "x: expected value (sensitive) for NumberExact check, got: (sensitive)"),
    "Float64Exact, a near miss": (
        ExpectKnownValue("a.b", New("x"), kv.Float64Exact(31337.5)),
        "x: expected value (sensitive) for Float64Exact check, got: (sensitive)"),
    "Int64Exact, the expected value added": (
        ExpectKnownValue("a.b", New("x"), kv.Int64Exact(31337)),
        "x: expected number parseable as int64 for Int64Exact check, got: (sensitive); expected (sensitive)"),
    "a list holding it": (
        ExpectKnownValue("a.b", New("l"), kv.ListSizeExact(1)),
        "l: expected 1 element for ListSizeExact check, got 2 elements; expected <list of 1 element>, got [1, (sensitive)]"),
    # Not over-hidden: a number that is no secret.
    "a number that is no secret": (
        ExpectKnownValue("a.b", New("y"), kv.Int64Exact(8)), "y: expected value 8 for Int64Exact check, got: 7"),
}


@pytest.mark.parametrize(("check", "expected"), NUMBER_CASES.values(), ids=NUMBER_CASES.keys())
def test_an_expected_number_compared_with_a_secret_number_is_hidden(check: Any, expected: str) -> None:
    (failure,) = check.failures(NUMBER_PLAN)
    shown = f"{failure.path.to_text() if failure.path else ''}: {failure.message}"
    assert shown == expected
    assert "31337" not in str(failure)
