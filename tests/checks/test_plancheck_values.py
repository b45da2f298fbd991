"""ExpectUnknownValue, ExpectSensitiveValue and the output value checks, against tests/fixtures/plans/values.json.

Each row: the check, and the exact failure messages (empty when the check must pass).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from plancheck import (
    ExpectNullOutputValue,
    ExpectNullOutputValueAtPath,
    ExpectSensitiveOutputValue,
    ExpectSensitiveValue,
    ExpectUnknownOutputValue,
    ExpectUnknownOutputValueAtPath,
    ExpectUnknownValue,
    Plan,
    PlanCheck,
    PlanCheckError,
)
from tfjsonpath import New, Path

DB = "aws_db_instance.db"
UNKNOWN = "expected an unknown value, but it is "
SENSITIVE = "expected a sensitive value, but it is "
NULL = "expected a null value, but it is "
DELETED = "not present: the resource has no planned value (action(s): [delete])"
REMOVED_OUTPUT = "not present: the output has no planned value (action(s): [delete])"

UNKNOWN_CASES: list[tuple[str, PlanCheck, list[str]]] = [
    # whole-map unknown: Go fails every one of these
    ("whole-map", ExpectUnknownValue("null_resource.whole", New("triggers")), []),
    ("whole-map-child", ExpectUnknownValue("null_resource.whole", New("triggers").AtMapKey("dep")), []),
    (
        "whole-map-grandchild",
        ExpectUnknownValue("null_resource.whole", New("triggers").AtMapKey("a").AtSliceIndex(3)),
        [],
    ),
    ("leaf", ExpectUnknownValue("null_resource.whole", New("id")), []),
    (
        "list-element-unknown",
        ExpectUnknownValue("terraform_data.partial", New("input").AtMapKey("list").AtSliceIndex(0)),
        [],
    ),
    (
        "object-attribute-unknown",
        ExpectUnknownValue("terraform_data.partial", New("input").AtMapKey("y")),
        [],
    ),
    ("count-instance", ExpectUnknownValue("null_resource.counted[1]", New("triggers").AtMapKey("n")), []),
    ("module-instance", ExpectUnknownValue("module.child.module.grand.null_resource.deep", New("id")), []),
    (
        "key-with-brackets",
        ExpectUnknownValue('null_resource.each["br[0]"]', New("triggers").AtMapKey("br[0]")),
        [],
    ),
    # every way of not being unknown
    ("known-string", ExpectUnknownValue(DB, New("name")), [UNKNOWN + 'known: "db"']),
    ("known-number", ExpectUnknownValue(DB, New("port")), [UNKNOWN + "known: 5432"]),
    ("known-float", ExpectUnknownValue(DB, New("weight")), [UNKNOWN + "known: 0.25"]),
    ("known-bool", ExpectUnknownValue(DB, New("enabled")), [UNKNOWN + "known: true"]),
    ("known-empty-list", ExpectUnknownValue(DB, New("empty_list")), [UNKNOWN + "known: []"]),
    ("known-empty-map", ExpectUnknownValue(DB, New("empty_map")), [UNKNOWN + "known: {}"]),
    ("known-map", ExpectUnknownValue(DB, New("tags")), [UNKNOWN + 'known: {"env": "prod"}']),
    ("known-sensitive-parent", ExpectUnknownValue(DB, New("config")), [UNKNOWN + "known: (sensitive)"]),
    (
        "known-under-sensitive-parent",
        ExpectUnknownValue(DB, New("config").AtMapKey("password")),
        [UNKNOWN + "known: (sensitive)"],
    ),
    (
        "known-partly-sensitive",
        ExpectUnknownValue(DB, New("replicas")),
        [UNKNOWN + 'known: ["r1", (sensitive)]'],
    ),
    (
        "known-sensitive-element",
        ExpectUnknownValue(DB, New("replicas").AtSliceIndex(1)),
        [UNKNOWN + "known: (sensitive)"],
    ),
    (
        "known-with-unknown-parts",
        ExpectUnknownValue("terraform_data.partial", New("input")),
        [UNKNOWN + 'known, with unknown parts: {"x": "1", "list": [<unknown>, "k"], "y": <unknown>}'],
    ),
    (
        "known-list-with-unknown-element",
        ExpectUnknownValue("terraform_data.partial", New("input").AtMapKey("list")),
        [UNKNOWN + 'known, with unknown parts: [<unknown>, "k"]'],
    ),
    ("null", ExpectUnknownValue(DB, New("backup_window")), [UNKNOWN + "null"]),
    (
        "null-parent",
        ExpectUnknownValue(DB, New("maintenance").AtMapKey("window")),
        [UNKNOWN + "null (maintenance is null)"],
    ),
    (
        "attribute-not-present",
        ExpectUnknownValue(DB, New("nope")),
        [UNKNOWN + 'not present (no key "nope" in an object with 12 keys, 1 unknown until apply: "arn")'],
    ),
    (
        "nested-key-not-present",
        ExpectUnknownValue(DB, New("config").AtMapKey("zzz")),
        [UNKNOWN + 'not present (no key "zzz" in an object with 2 keys at config)'],
    ),
    (
        "index-out-of-range",
        ExpectUnknownValue(DB, New("replicas").AtSliceIndex(5)),
        [UNKNOWN + "not present (index 5 out of range for an array of 2 elements at replicas)"],
    ),
    (
        "step-into-a-string",
        ExpectUnknownValue(DB, New("name").AtMapKey("x")),
        [UNKNOWN + "not present (expected an object at name, found a string)"],
    ),
    ("resource-deleted", ExpectUnknownValue("null_resource.gone", New("triggers")), [UNKNOWN + DELETED]),
    (
        "resource-not-in-plan",
        ExpectUnknownValue("aws_db_instance.dbx", New("id")),
        ["resource not found in plan ResourceChanges; closest: aws_db_instance.db"],
    ),
    (
        "resource-no-similar-address",
        ExpectUnknownValue("google_sql_database.zzzzzzzz", New("id")),
        ["resource not found in plan ResourceChanges; the plan has no similar address"],
    ),
    (
        "for-each-dot-key",
        ExpectUnknownValue('null_resource.each["a.b"]', New("triggers").AtMapKey("a.b")),
        [UNKNOWN + 'known: "dot"'],
    ),
    (
        "for-each-quote-key",
        ExpectUnknownValue('null_resource.each["q\\"uote"]', New("triggers").AtMapKey('q"uote')),
        [UNKNOWN + 'known: "quote"'],
    ),
    (
        "for-each-space-key",
        ExpectUnknownValue('null_resource.each["sp ace"]', New("triggers").AtMapKey("sp ace")),
        [UNKNOWN + 'known: "space"'],
    ),
    (
        "for-each-unicode-key",
        ExpectUnknownValue('null_resource.each["ünï"]', New("triggers").AtMapKey("ünï")),
        [UNKNOWN + 'known: "unicode"'],
    ),
    (
        "count-known",
        ExpectUnknownValue("null_resource.counted[0]", New("triggers").AtMapKey("n")),
        [UNKNOWN + 'known: "0"'],
    ),
    (
        "module-known",
        ExpectUnknownValue("module.child.module.grand.null_resource.deep", New("triggers")),
        [UNKNOWN + 'known: {"k": "v"}'],
    ),
    (
        "root-path-partly-unknown",
        ExpectUnknownValue("null_resource.whole", Path()),
        [UNKNOWN + 'known, with unknown parts: {"id": <unknown>, "triggers": <unknown>}'],
    ),
]

SENSITIVE_CASES: list[tuple[str, PlanCheck, list[str]]] = [
    ("sensitive-parent", ExpectSensitiveValue(DB, New("config")), []),
    ("under-sensitive-parent", ExpectSensitiveValue(DB, New("config").AtMapKey("password")), []),
    ("sensitive-element", ExpectSensitiveValue(DB, New("replicas").AtSliceIndex(1)), []),
    (
        "not-sensitive",
        ExpectSensitiveValue(DB, New("name")),
        [SENSITIVE + 'not sensitive; it is known: "db"'],
    ),
    (
        "element-not-sensitive",
        ExpectSensitiveValue(DB, New("replicas").AtSliceIndex(0)),
        [SENSITIVE + 'not sensitive; it is known: "r1"'],
    ),
    (
        "partly-sensitive",
        ExpectSensitiveValue(DB, New("replicas")),
        ['expected a sensitive value, but only parts of it are sensitive: ["r1", (sensitive)]'],
    ),
    (
        "unknown-not-sensitive",
        ExpectSensitiveValue(DB, New("arn")),
        [SENSITIVE + "not sensitive; it is unknown"],
    ),
    (
        "null-not-sensitive",
        ExpectSensitiveValue(DB, New("backup_window")),
        [SENSITIVE + "not sensitive; it is null"],
    ),
    (
        "absent-under-sensitive-parent",
        ExpectSensitiveValue(DB, New("config").AtMapKey("zzz")),
        [SENSITIVE + 'not present (no key "zzz" in an object with 2 keys at config)'],
    ),
    ("resource-deleted", ExpectSensitiveValue("null_resource.gone", New("id")), [SENSITIVE + DELETED]),
    (
        "resource-not-in-plan",
        ExpectSensitiveValue("aws_db_instance.dbx", New("id")),
        ["resource not found in plan ResourceChanges; closest: aws_db_instance.db"],
    ),
]

OUTPUT_CASES: list[tuple[str, PlanCheck, list[str]]] = [
    ("unknown-whole", ExpectUnknownOutputValue("o_unknown"), []),
    ("unknown-whole-at-path", ExpectUnknownOutputValueAtPath("o_unknown", New("a").AtSliceIndex(0)), []),
    ("unknown-at-root-path", ExpectUnknownOutputValueAtPath("o_unknown", Path()), []),
    ("unknown-element", ExpectUnknownOutputValueAtPath("o_partial", New(0)), []),
    ("unknown-attribute", ExpectUnknownOutputValueAtPath("o_map", New("b")), []),
    ("known", ExpectUnknownOutputValue("o_known"), [UNKNOWN + 'known: "10.0.0.1"']),
    ("known-sensitive", ExpectUnknownOutputValue("o_secret"), [UNKNOWN + "known: (sensitive)"]),
    (
        "partly-unknown-list",
        ExpectUnknownOutputValue("o_partial"),
        [UNKNOWN + 'known, with unknown parts: [<unknown>, "known"]'],
    ),
    (
        "partly-unknown-map",
        ExpectUnknownOutputValue("o_map"),
        [UNKNOWN + 'known, with unknown parts: {"a": "x", "b": <unknown>}'],
    ),
    ("known-element", ExpectUnknownOutputValueAtPath("o_partial", New(1)), [UNKNOWN + 'known: "known"']),
    ("null", ExpectUnknownOutputValue("o_null"), [UNKNOWN + "null"]),
    ("removed", ExpectUnknownOutputValue("o_removed"), [UNKNOWN + REMOVED_OUTPUT]),
    (
        "at-path-absent",
        ExpectUnknownOutputValueAtPath("o_map", New("c")),
        [UNKNOWN + 'not present (no key "c" in an object with 2 keys, 1 unknown until apply: "b")'],
    ),
    (
        "index-out-of-range",
        ExpectUnknownOutputValueAtPath("o_partial", New(2)),
        [UNKNOWN + "not present (index 2 out of range for an array of 2 elements)"],
    ),
    (
        "output-not-in-plan",
        ExpectUnknownOutputValue("o_knwn"),
        ["output not found in plan OutputChanges; closest: o_known, o_unknown"],
    ),
    (
        "output-at-path-not-in-plan",
        ExpectUnknownOutputValueAtPath("zzzzzz", New("a")),
        ["output not found in plan OutputChanges; the plan has no similar output name"],
    ),
    ("sensitive", ExpectSensitiveOutputValue("o_secret"), []),
    (
        "not-sensitive",
        ExpectSensitiveOutputValue("o_known"),
        [SENSITIVE + 'not sensitive; it is known: "10.0.0.1"'],
    ),
    (
        "unknown-not-sensitive",
        ExpectSensitiveOutputValue("o_unknown"),
        [SENSITIVE + "not sensitive; it is unknown"],
    ),
    ("removed-sensitive", ExpectSensitiveOutputValue("o_removed"), [SENSITIVE + REMOVED_OUTPUT]),
    ("null-output", ExpectNullOutputValue("o_null"), []),
    ("null-output-known", ExpectNullOutputValue("o_known"), [NULL + 'known: "10.0.0.1"']),
    # Go reads `before` unless the output is created, and passes an unknown output as null.
    ("null-output-unknown", ExpectNullOutputValue("o_unknown"), [NULL + "unknown"]),
    ("null-output-removed", ExpectNullOutputValue("o_removed"), [NULL + REMOVED_OUTPUT]),
    ("null-output-sensitive", ExpectNullOutputValue("o_secret"), [NULL + "known: (sensitive)"]),
    ("null-at-path-unknown-element", ExpectNullOutputValueAtPath("o_partial", New(0)), [NULL + "unknown"]),
    ("null-at-path-known", ExpectNullOutputValueAtPath("o_map", New("a")), [NULL + 'known: "x"']),
    ("null-at-path-under-null", ExpectNullOutputValueAtPath("o_null", New("a")), []),
    (
        "null-at-path-missing",
        ExpectNullOutputValueAtPath("o_nul", New("a")),
        ["output not found in plan OutputChanges; closest: o_null"],
    ),
]

ALL = UNKNOWN_CASES + SENSITIVE_CASES + OUTPUT_CASES


@pytest.mark.parametrize(("check", "messages"), [(c, m) for _, c, m in ALL], ids=[i for i, _, _ in ALL])
def test_failure_messages(check: PlanCheck, messages: list[str], fixture_plan: Callable[[str], Plan]) -> None:
    plan = fixture_plan("values")
    assert [f.message for f in check.failures(plan)] == messages
    if messages:
        with pytest.raises(PlanCheckError) as info:
            check.CheckPlan(plan)
        assert list(info.value.failures) == check.failures(plan)
    else:
        check.CheckPlan(plan)


@pytest.mark.parametrize(
    ("check", "messages"), [(c, m) for _, c, m in ALL if m], ids=[i for i, _, m in ALL if m]
)
def test_failure_names_check_address_and_path(
    check: PlanCheck, messages: list[str], fixture_plan: Callable[[str], Plan]
) -> None:
    (failure,) = check.failures(fixture_plan("values"))
    assert failure.check == type(check).__name__
    name = getattr(check, "name", None)
    assert failure.address == (f"output.{name}" if name is not None else getattr(check, "address"))  # noqa: B009
    if "not found in plan" in failure.message:
        assert failure.path is None
    else:
        assert failure.path == getattr(check, "path", Path())


@pytest.mark.parametrize(
    ("check", "text"),
    [
        (
            ExpectUnknownValue(DB, New("replicas").AtSliceIndex(0)),
            'ExpectUnknownValue: aws_db_instance.db: replicas[0]: expected an unknown value, but it is known: "r1"',
        ),
        (
            ExpectUnknownValue('null_resource.each["a.b"]', New("triggers").AtMapKey("a.b")),
            'ExpectUnknownValue: null_resource.each["a.b"]: triggers["a.b"]: expected an unknown value, '
            'but it is known: "dot"',
        ),
        (
            ExpectSensitiveValue(DB, New("name")),
            "ExpectSensitiveValue: aws_db_instance.db: name: expected a sensitive value, but it is not sensitive; "
            'it is known: "db"',
        ),
        (
            ExpectUnknownOutputValue("o_known"),
            'ExpectUnknownOutputValue: output.o_known: expected an unknown value, but it is known: "10.0.0.1"',
        ),
        (
            ExpectUnknownValue("null_resource.nope", New("id")),
            "ExpectUnknownValue: null_resource.nope: resource not found in plan ResourceChanges; "
            "closest: null_resource.gone, null_resource.whole, null_resource.counted[1]",
        ),
    ],
    ids=["list-element", "odd-keys", "sensitive", "output", "not-found"],
)
def test_error_text(check: PlanCheck, text: str, fixture_plan: Callable[[str], Plan]) -> None:
    with pytest.raises(PlanCheckError) as info:
        check.CheckPlan(fixture_plan("values"))
    assert str(info.value) == text


def test_a_plan_without_sensitivity_marks_says_so() -> None:
    # Format 0.1 plans (before Terraform 0.15) have no after_sensitive at all.
    plan = Plan.from_dict(
        {
            "format_version": "0.1",
            "resource_changes": [
                {
                    "address": "null_resource.a",
                    "change": {"actions": ["create"], "after": {"x": "y"}, "after_unknown": {}},
                }
            ],
        }
    )
    (failure,) = ExpectSensitiveValue("null_resource.a", New("x")).failures(plan)
    assert (
        failure.message
        == SENSITIVE + 'not sensitive; it is known: "y" (this plan records no after_sensitive marks)'
    )


@pytest.mark.parametrize(
    ("after_unknown", "path", "holds"),
    [
        (True, New("a"), True),
        ({"a": True}, New("a").AtMapKey("b").AtSliceIndex(9), True),
        ({"a": {"b": [False, True]}}, New("a").AtMapKey("b").AtSliceIndex(1), True),
        ({"a": {"b": [False, True]}}, New("a").AtMapKey("b").AtSliceIndex(0), False),
        ({"a": {"b": [False, True]}}, New("a").AtMapKey("b"), False),
        ({"a": False}, New("a"), False),
        ({}, Path(), False),
        (True, Path(), True),
    ],
    ids=[
        "root-true",
        "ancestor-true",
        "element-true",
        "element-false",
        "parent-of-true",
        "false",
        "empty",
        "root",
    ],
)
def test_unknown_means_a_true_mark_at_the_path_or_an_ancestor(
    after_unknown: object, path: Path, holds: bool
) -> None:
    plan = Plan.from_dict(
        {
            "format_version": "1.2",
            "resource_changes": [
                {
                    "address": "x.y",
                    "change": {
                        "actions": ["create"],
                        "after": {"a": {"b": [None, None]}},
                        "after_unknown": after_unknown,
                    },
                }
            ],
        }
    )
    assert (ExpectUnknownValue("x.y", path).failures(plan) == []) is holds
