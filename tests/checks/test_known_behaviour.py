"""ExpectKnownValue, ExpectKnownOutputValue[AtPath] and ExpectNoValue beyond Go's cases: unknown, sensitive,
null, absent and deleted values, deposed objects, modules, argument validation, and value semantics.
"""

from __future__ import annotations

import copy
import pickle
from decimal import Decimal
from typing import Any

import pytest

from plancheck import Plan, PlanCheck, PlanCheckError, assert_plan, revealing_sensitive
from plancheck import knownvalue as kv
from plancheck._planchecks.values import (
    ExpectKnownOutputValue,
    ExpectKnownOutputValueAtPath,
    ExpectKnownValue,
    ExpectNoValue,
)
from tfjsonpath import New, Path

DB = "aws_db_instance.db"
PART = "terraform_data.partial"

DOCUMENT: dict[str, Any] = {
    "format_version": "1.2",
    "resource_changes": [
        {
            "address": DB,
            "change": {
                "actions": ["update"],
                "before": {"name": "db"},
                "after": {
                    "name": "db",
                    "port": 5432,
                    "weight": Decimal("0.25"),
                    "backup_window": None,
                    "maintenance": None,
                    "config": {"password": "pw-Known-1", "user": "admin"},
                    "replicas": ["r1", "r2-Secret"],
                    "tags": {"env": "prod"},
                    "triggers": {"a": "x"},
                    "blocks": [],
                },
                "after_unknown": {"arn": True, "triggers": True},
                "after_sensitive": {"config": {"password": True}, "replicas": [False, True]},
            },
        },
        {
            "address": PART,
            "change": {
                "actions": ["create"],
                "before": None,
                "after": {"input": {"list": [None, "k"], "x": "1"}},
                "after_unknown": {"id": True, "input": {"list": [True, False], "y": True}},
                "after_sensitive": {},
            },
        },
        {
            "address": "module.child.null_resource.deep[0]",
            "change": {
                "actions": ["create"],
                "after": {"triggers": {"n": "1"}},
                "after_unknown": {"id": True},
            },
        },
        {
            "address": "null_resource.gone",
            "change": {"actions": ["delete"], "before": {"id": "1"}, "after": None},
        },
        {
            "address": "null_resource.swap",
            "deposed": "00000001",
            "change": {"actions": ["delete"], "before": {"id": "old"}, "after": None},
        },
        {
            "address": "null_resource.swap",
            "change": {"actions": ["create"], "after": {"name": "new"}, "after_unknown": {"id": True}},
        },
    ],
    "output_changes": {
        "pw": {"actions": ["create"], "after": "pw-Out-2", "after_unknown": False, "after_sensitive": True},
        "later": {"actions": ["create"], "after_unknown": True},
        "obj": {
            "actions": ["create"],
            "after": {"a": [1, None], "b": None},
            "after_unknown": {"a": [False, True]},
            "after_sensitive": False,
        },
        "removed": {"actions": ["delete"], "before": "x", "after": None},
    },
}
PLAN = Plan.from_dict(DOCUMENT)
MISMATCH = "expected string value for StringExact check, got: "


def T(text: str) -> str:
    """A path in the escaped text form, as the renderer writes it (``triggers["a"]``)."""
    return Path.parse(text).to_text()


CASES: list[tuple[str, PlanCheck, list[str]]] = [
    # unknown: whatever the matcher, an unknown value fails saying so (Go passes Null() on unknown elements)
    (
        "unknown-leaf",
        ExpectKnownValue(DB, New("arn"), kv.NotNull()),
        [f"ExpectKnownValue: {DB}: arn: value is unknown; expected <not null>"],
    ),
    (
        "unknown-leaf-null-matcher",
        ExpectKnownValue(DB, New("arn"), kv.Null()),
        [f"ExpectKnownValue: {DB}: arn: value is unknown; expected null"],
    ),
    (
        "unknown-via-ancestor",
        ExpectKnownValue(DB, New("triggers").AtMapKey("a"), kv.StringExact("x")),
        [f"ExpectKnownValue: {DB}: {T('triggers.a')}: value is unknown (via triggers); expected \"x\""],
    ),
    (
        "unknown-list-element-null-matcher",
        ExpectKnownValue(PART, New("input").AtMapKey("list"), kv.ListExact([kv.Null(), kv.StringExact("k")])),
        [f"ExpectKnownValue: {PART}: {T('input.list[0]')}: value is unknown; expected null"],
    ),
    (
        "unknown-list-element-direct",
        ExpectKnownValue(PART, New("input").AtMapKey("list").AtSliceIndex(0), kv.Null()),
        [f"ExpectKnownValue: {PART}: {T('input.list[0]')}: value is unknown; expected null"],
    ),
    (
        "unknown-object-attribute-left-out-of-after",
        ExpectKnownValue(PART, New("input"), kv.ObjectPartial({"x": kv.StringExact("1"), "y": kv.Null()})),
        [f"ExpectKnownValue: {PART}: {T('input.y')}: value is unknown; expected null"],
    ),
    ("known-part-passes", ExpectKnownValue(PART, New("input").AtMapKey("x"), kv.StringExact("1")), []),
    # The value shown beside a mismatch shows its unknown parts, never a null (list) or nothing (object) for them:
    # Go counts only what `after` holds, so its MapExact({"x"}) passes here, and says "got 1 attribute(s)".
    (
        "unknown-attribute-shown-in-the-actual-value",
        ExpectKnownValue(PART, New("input"), kv.ObjectExact({"x": kv.StringExact("1"), "list": kv.NotNull()})),
        [f"ExpectKnownValue: {PART}: {T('input')}: expected 2 attribute(s) for ObjectExact check, got 3 attribute(s): "
         'actual value has extra attribute(s): "y"; expected {"list": <not null>, "x": "1"}, '
         'got {"list": [<unknown>, "k"], "x": "1", "y": <unknown>}'],
    ),
    (
        "unknown-element-shown-in-the-actual-value",
        ExpectKnownValue(PART, New("input").AtMapKey("list"), kv.ListSizeExact(3)),
        [f"ExpectKnownValue: {PART}: {T('input.list')}: expected 3 elements for ListSizeExact check, got 2 elements; "
         'expected <list of 3 elements>, got [<unknown>, "k"]'],
    ),
    (
        "unknown-output",
        ExpectKnownOutputValue("later", kv.Null()),
        ["ExpectKnownOutputValue: output.later: value is unknown; expected null"],
    ),
    (
        "unknown-output-element",
        ExpectKnownOutputValue("obj", kv.ObjectPartial({"a": kv.ListExact([kv.Int64Exact(1), kv.Null()])})),
        ["ExpectKnownOutputValue: output.obj: a[1]: value is unknown; expected null"],
    ),
    (
        "unknown-output-at-path",
        ExpectKnownOutputValueAtPath("obj", New("a").AtSliceIndex(1), kv.Null()),
        ["ExpectKnownOutputValueAtPath: output.obj: a[1]: value is unknown; expected null"],
    ),
    # sensitive: compared, never shown
    (
        "sensitive-match",
        ExpectKnownValue(DB, New("config").AtMapKey("password"), kv.StringExact("pw-Known-1")),
        [],
    ),
    (
        "sensitive-mismatch",
        ExpectKnownValue(DB, New("config").AtMapKey("password"), kv.StringExact("pw-Known-2")),
        [
            f"ExpectKnownValue: {DB}: {T('config.password')}: expected value (sensitive) for StringExact check, got: (sensitive)"
        ],
    ),
    (
        "sensitive-inside-object",
        ExpectKnownValue(
            DB,
            New("config"),
            kv.ObjectExact({"password": kv.StringExact("zz"), "user": kv.StringExact("admin")}),
        ),
        [
            f"ExpectKnownValue: {DB}: {T('config.password')}: expected value (sensitive) for StringExact check, got: (sensitive)"
        ],
    ),
    (
        "sensitive-element-wrong-size",
        ExpectKnownValue(DB, New("replicas"), kv.ListExact([kv.StringExact("r1")])),
        # The expected "r1" was compared with "r1", not with the hidden element: shown (the secrets page's rule).
        [f"ExpectKnownValue: {DB}: replicas: expected 1 element for ListExact check, got 2 elements; expected [\"r1\"], got [\"r1\", (sensitive)]"],
    ),
    ("sensitive-output-match", ExpectKnownOutputValue("pw", kv.StringExact("pw-Out-2")), []),
    (
        "sensitive-output-regexp",
        ExpectKnownOutputValue("pw", kv.StringRegexp("^nope")),
        [
            "ExpectKnownOutputValue: output.pw: expected regex match (sensitive) for StringRegexp check, got: (sensitive)"
        ],
    ),
    # null, absent, deleted
    ("null", ExpectKnownValue(DB, New("backup_window"), kv.Null()), []),
    (
        "null-mismatch",
        ExpectKnownValue(DB, New("backup_window"), kv.StringExact("zz")),
        [f"ExpectKnownValue: {DB}: backup_window: {MISMATCH}null; expected \"zz\""],
    ),
    ("null-ancestor", ExpectKnownValue(DB, New("maintenance").AtMapKey("window"), kv.Null()), []),
    (
        "null-ancestor-mismatch",
        ExpectKnownValue(DB, New("maintenance").AtMapKey("window"), kv.StringExact("zz")),
        [f"ExpectKnownValue: {DB}: {T('maintenance.window')}: {MISMATCH}null (maintenance is null); expected \"zz\""],
    ),
    (
        "absent",
        ExpectKnownValue(DB, New("nope"), kv.Null()),
        [f'ExpectKnownValue: {DB}: nope: value is not present (no key "nope" in an object with 11 keys, 1 unknown until apply: "arn"); expected null'],
    ),
    (
        "absent-index",
        ExpectKnownValue(DB, New("blocks").AtSliceIndex(0), kv.NotNull()),
        [
            f"ExpectKnownValue: {DB}: blocks[0]: value is not present (index 0 out of range for an array of 0 elements at blocks); expected <not null>"
        ],
    ),
    (
        "deleted",
        ExpectKnownValue("null_resource.gone", New("id"), kv.Null()),
        [
            "ExpectKnownValue: null_resource.gone: id: value is not present: the resource has no planned value (action(s): [delete])"
        ],
    ),
    (
        "deleted-output",
        ExpectKnownOutputValue("removed", kv.Null()),
        [
            "ExpectKnownOutputValue: output.removed: value is not present: the output has no planned value (action(s): [delete])"
        ],
    ),
    ("whole-value", ExpectKnownValue(DB, Path(), kv.ObjectPartial({"port": kv.Int64Exact(5432)})), []),
    ("float-exact", ExpectKnownValue(DB, New("weight"), kv.Float64Exact(0.25)), []),
    # addresses
    (
        "module-instance",
        ExpectKnownValue(
            "module.child.null_resource.deep[0]", New("triggers"), kv.MapExact({"n": kv.StringExact("1")})
        ),
        [],
    ),
    ("current-object", ExpectKnownValue("null_resource.swap", New("name"), kv.StringExact("new")), []),
    (
        "deposed-object",
        ExpectKnownValue("null_resource.swap", New("name"), kv.StringExact("new"), deposed="00000001"),
        [
            'ExpectKnownValue: null_resource.swap: name: deposed object "00000001": value is not present: the resource has no planned value (action(s): [delete])'
        ],
    ),
    (
        "deposed-missing",
        ExpectKnownValue("null_resource.swap", New("name"), kv.Null(), deposed="00000009"),
        [
            'ExpectKnownValue: null_resource.swap: deposed object "00000009" not found in plan ResourceChanges; its deposed objects: "00000001"'
        ],
    ),
    # ExpectNoValue
    ("no-value-missing-key", ExpectNoValue(DB, New("timeouts")), []),
    ("no-value-missing-nested-key", ExpectNoValue(DB, New("tags").AtMapKey("team")), []),
    ("no-value-missing-index", ExpectNoValue(DB, New("blocks").AtSliceIndex(0).AtMapKey("x")), []),
    ("no-value-missing-ancestor", ExpectNoValue(DB, New("timeouts").AtMapKey("create")), []),
    (
        "no-value-module",
        ExpectNoValue("module.child.null_resource.deep[0]", New("id").AtMapKey("x")),
        [
            f"ExpectNoValue: module.child.null_resource.deep[0]: {T('id.x')}: expected no value, but it is unknown (via id)"
        ],
    ),
    (
        "no-value-known",
        ExpectNoValue(DB, New("name")),
        [f'ExpectNoValue: {DB}: name: expected no value, but it is known: "db"'],
    ),
    (
        "no-value-empty-list",
        ExpectNoValue(DB, New("blocks")),
        [f"ExpectNoValue: {DB}: blocks: expected no value, but it is known: []"],
    ),
    (
        "no-value-null",
        ExpectNoValue(DB, New("backup_window")),
        [f"ExpectNoValue: {DB}: backup_window: expected no value, but it is null"],
    ),
    (
        "no-value-null-ancestor",
        ExpectNoValue(DB, New("maintenance").AtMapKey("window")),
        [
            f"ExpectNoValue: {DB}: {T('maintenance.window')}: expected no value, but it is null (maintenance is null)"
        ],
    ),
    (
        "no-value-unknown",
        ExpectNoValue(DB, New("arn")),
        [f"ExpectNoValue: {DB}: arn: expected no value, but it is unknown"],
    ),
    (
        "no-value-unknown-ancestor",
        ExpectNoValue(DB, New("triggers").AtMapKey("b")),
        [f"ExpectNoValue: {DB}: {T('triggers.b')}: expected no value, but it is unknown (via triggers)"],
    ),
    (
        "no-value-unknown-missing-from-after",
        ExpectNoValue(PART, New("input").AtMapKey("y")),
        [f"ExpectNoValue: {PART}: {T('input.y')}: expected no value, but it is unknown"],
    ),
    (
        "no-value-sensitive",
        ExpectNoValue(DB, New("config").AtMapKey("password")),
        [f"ExpectNoValue: {DB}: {T('config.password')}: expected no value, but it is known: (sensitive)"],
    ),
    (
        "no-value-path-into-string",
        ExpectNoValue(DB, New("name").AtMapKey("x")),
        [
            f"ExpectNoValue: {DB}: {T('name.x')}: expected no value, but the path does not fit the value: expected an object at name, found a string"
        ],
    ),
    (
        "no-value-index-into-object",
        ExpectNoValue(DB, New("tags").AtSliceIndex(0)),
        [
            f"ExpectNoValue: {DB}: tags[0]: expected no value, but the path does not fit the value: expected an array at tags, found an object with 1 key"
        ],
    ),
    (
        "no-value-deleted",
        ExpectNoValue("null_resource.gone", New("id")),
        [
            "ExpectNoValue: null_resource.gone: id: expected no value, but the resource has no planned value at all (action(s): [delete])"
        ],
    ),
    (
        "no-value-deposed",
        ExpectNoValue("null_resource.swap", New("name"), deposed="00000001"),
        [
            'ExpectNoValue: null_resource.swap: name: deposed object "00000001": expected no value, but the resource has no planned value at all (action(s): [delete])'
        ],
    ),
    (
        "no-value-resource-missing",
        ExpectNoValue("null_resource.gon", New("id")),
        [
            "ExpectNoValue: null_resource.gon: resource not found in plan ResourceChanges; closest: null_resource.gone, null_resource.swap"
        ],
    ),
]


@pytest.mark.parametrize(("check", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_failures(check: PlanCheck, expected: list[str]) -> None:
    assert [str(f) for f in check.failures(PLAN)] == expected


def test_check_plan_raises_the_same_failures() -> None:
    check = ExpectKnownValue(DB, New("name"), kv.StringExact("zz"))
    with pytest.raises(PlanCheckError) as info:
        check.CheckPlan(PLAN)
    assert info.value.failures == tuple(check.failures(PLAN))
    assert info.value.address == DB
    assert info.value.path == New("name")


def test_failure_path_is_the_full_path_of_the_mismatch() -> None:
    check = ExpectKnownValue(DB, New("config"), kv.ObjectPartial({"user": kv.StringExact("root")}))
    (found,) = check.failures(PLAN)
    assert found.path == New("config").AtMapKey("user")
    assert found.message == 'expected value "root" for StringExact check, got: "admin"'


def test_assert_plan_lists_every_failure_in_order() -> None:
    with pytest.raises(PlanCheckError) as info:
        assert_plan(
            PLAN,
            ExpectKnownValue(DB, New("port"), kv.Int64Exact(1)),
            ExpectNoValue(DB, New("name")),
            ExpectKnownOutputValue("later", kv.NotNull()),
        )
    assert str(info.value) == (
        "3 plan checks failed:\n"
        f"  1. ExpectKnownValue: {DB}: port: expected value 1 for Int64Exact check, got: 5432\n"
        f'  2. ExpectNoValue: {DB}: name: expected no value, but it is known: "db"\n'
        "  3. ExpectKnownOutputValue: output.later: value is unknown; expected <not null>"
    )


def test_revealing_shows_sensitive_values_on_purpose() -> None:
    check = ExpectKnownOutputValue("pw", kv.StringExact("zz"))
    with revealing_sensitive():
        (found,) = check.failures(PLAN)
    assert found.message == 'expected value "zz" for StringExact check, got: "pw-Out-2"'


def test_the_plan_is_not_mutated() -> None:
    document = copy.deepcopy(DOCUMENT)
    plan = Plan.from_dict(document)
    for _, check, _ in CASES:
        check.failures(plan)
    assert document == DOCUMENT


# -- construction ------------------------------------------------------------------------------

BAD_ARGS: list[tuple[str, Any, type[Exception], str]] = [
    (
        "matcher-plain-value",
        lambda: ExpectKnownValue(DB, New("a"), "x"),
        TypeError,
        "ExpectKnownValue: matcher must be a knownvalue check, got str (wrap plain values with knownvalue.exact())",
    ),
    (
        "matcher-comparer",
        lambda: ExpectKnownOutputValue("o", None),
        TypeError,
        "ExpectKnownOutputValue: matcher must be a knownvalue check, got NoneType (wrap plain values with knownvalue.exact())",
    ),
    (
        "matcher-missing-at-path",
        lambda: ExpectKnownOutputValueAtPath("o", New("a"), 1),
        TypeError,
        "ExpectKnownOutputValueAtPath: matcher must be a knownvalue check, got int (wrap plain values with knownvalue.exact())",
    ),
    (
        "path-as-text",
        lambda: ExpectKnownValue(DB, "a.b", kv.Null()),
        TypeError,
        "ExpectKnownValue: path must be a tfjsonpath.Path, got str (to use text, parse it: tfjsonpath.Path.parse('a.b'))",
    ),
    (
        "empty-address",
        lambda: ExpectNoValue("", New("a")),
        ValueError,
        "ExpectNoValue: address must not be empty",
    ),
    (
        "address-not-str",
        lambda: ExpectNoValue(1, New("a")),
        TypeError,
        "ExpectNoValue: address must be a str, got int",
    ),
    (
        "empty-output-name",
        lambda: ExpectKnownOutputValue("", kv.Null()),
        ValueError,
        "ExpectKnownOutputValue: output name must not be empty",
    ),
    (
        "deposed-not-str",
        lambda: ExpectKnownValue(DB, New("a"), kv.Null(), deposed=1),
        TypeError,
        "ExpectKnownValue: deposed must be a str, got int",
    ),
]


@pytest.mark.parametrize(
    ("build", "error", "message"), [b[1:] for b in BAD_ARGS], ids=[b[0] for b in BAD_ARGS]
)
def test_bad_arguments_fail_at_construction(build: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        build()
    assert str(info.value) == message


def test_exact_wraps_plain_values() -> None:
    check = ExpectKnownValue(DB, New("tags"), kv.exact({"env": "prod"}))
    assert check.failures(PLAN) == []


# -- value semantics -------------------------------------------------------------------------

SAMPLES: list[tuple[PlanCheck, PlanCheck, PlanCheck, str]] = [
    (
        ExpectKnownValue(DB, New("a"), kv.StringExact("x")),
        ExpectKnownValue(DB, New("a"), kv.StringExact("x")),
        ExpectKnownValue(DB, New("a"), kv.StringExact("y")),
        "ExpectKnownValue('aws_db_instance.db', Path(MapStep('a')), StringExact('x'))",
    ),
    (
        ExpectKnownValue(DB, New("a"), kv.Null(), deposed="k"),
        ExpectKnownValue(DB, New("a"), kv.Null(), deposed="k"),
        ExpectKnownValue(DB, New("a"), kv.Null()),
        "ExpectKnownValue('aws_db_instance.db', Path(MapStep('a')), Null(), deposed='k')",
    ),
    (
        ExpectKnownOutputValue("o", kv.Bool(True)),
        ExpectKnownOutputValue("o", kv.Bool(True)),
        ExpectKnownOutputValue("p", kv.Bool(True)),
        "ExpectKnownOutputValue('o', Bool(True))",
    ),
    (
        ExpectKnownOutputValueAtPath("o", New(0), kv.Bool(True)),
        ExpectKnownOutputValueAtPath("o", New(0), kv.Bool(True)),
        ExpectKnownOutputValueAtPath("o", New(1), kv.Bool(True)),
        "ExpectKnownOutputValueAtPath('o', Path(SliceStep(0)), Bool(True))",
    ),
    (
        ExpectNoValue(DB, New("a")),
        ExpectNoValue(DB, New("a")),
        ExpectNoValue(DB, New("b")),
        "ExpectNoValue('aws_db_instance.db', Path(MapStep('a')))",
    ),
]


@pytest.mark.parametrize(
    ("a", "same", "other", "text"), SAMPLES, ids=[s[3].split("(")[0] + str(i) for i, s in enumerate(SAMPLES)]
)
def test_value_semantics(a: PlanCheck, same: PlanCheck, other: PlanCheck, text: str) -> None:
    assert a == same
    assert hash(a) == hash(same)
    assert a != other
    assert a != text
    assert repr(a) == text
    assert pickle.loads(pickle.dumps(a)) == a
    assert copy.deepcopy(a) is a
    with pytest.raises(AttributeError, match="is immutable"):
        a.address = "x"  # type: ignore[attr-defined]
