"""ExpectResourceAction, ExpectEmptyPlan, ExpectNonEmptyPlan and ExpectResourceReplacePaths."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from unvalidated import unvalidated_plan

from plancheck import (
    ExpectEmptyPlan,
    ExpectNoDestroys,
    ExpectNonEmptyPlan,
    ExpectNoReplacements,
    ExpectResourceAction,
    ExpectResourceReplacePaths,
    Plan,
    ResourceAction,
)
from tfjsonpath import New, Path

RA = ResourceAction

# What each resource of actions.json is, as every ResourceAction that must match it.
ACTUAL: dict[str, tuple[str, set[ResourceAction]]] = {
    "null_resource.noop": ("[no-op]", {RA.NoOp}),
    "null_resource.create": ("[create]", {RA.Create}),
    "data.http.read": ("[read]", {RA.Read}),
    "null_resource.update": ("[update]", {RA.Update}),
    "null_resource.delete": ("[delete]", {RA.Destroy}),
    "null_resource.dbc": ("[delete create]", {RA.DestroyBeforeCreate, RA.Replace}),
    "null_resource.cbd": ("[create delete]", {RA.CreateBeforeDestroy, RA.Replace}),
    "aws_instance.tainted": ("[delete create]", {RA.DestroyBeforeCreate, RA.Replace}),
    "null_resource.forget": ("[forget]", {RA.Forget}),
    "null_resource.cforget": ("[create forget]", {RA.CreateThenForget}),
}
MATRIX = [(address, action) for address in ACTUAL for action in ResourceAction]


@pytest.mark.parametrize(("address", "action"), MATRIX, ids=[f"{a}-{b.name}" for a, b in MATRIX])
def test_every_action_against_every_kind_of_change(
    address: str, action: ResourceAction, fixture_plan: Callable[[str], Plan]
) -> None:
    text, matching = ACTUAL[address]
    failures = ExpectResourceAction(address, action).failures(fixture_plan("actions"))
    if action in matching:
        assert failures == []
    else:
        assert [f.message for f in failures] == [f"expected {action.value}, got action(s): {text}"]


@pytest.mark.parametrize(
    ("check", "messages"),
    [
        # Go's own cases
        (ExpectResourceAction("null_resource.create", RA.NoOp), ["expected NoOp, got action(s): [create]"]),
        (
            ExpectResourceAction("null_resource.dbc", RA.Create),
            ["expected Create, got action(s): [delete create]"],
        ),
        (
            ExpectResourceAction("null_resource.create", RA.Replace),
            ["expected Replace, got action(s): [create]"],
        ),
        (
            ExpectResourceAction("random_string.doesntexist", RA.Create),
            ["resource not found in plan ResourceChanges; the plan has no similar address"],
        ),
        # a deposed object is selected by its key, never confused with the current object
        (ExpectResourceAction("null_resource.cbd", RA.Destroy, deposed="9f2d1a7c"), []),
        (
            ExpectResourceAction("null_resource.cbd", RA.CreateBeforeDestroy, deposed="9f2d1a7c"),
            ['deposed object "9f2d1a7c": expected CreateBeforeDestroy, got action(s): [delete]'],
        ),
        (
            ExpectResourceAction("null_resource.cbd", RA.Destroy, deposed="00000000"),
            ['deposed object "00000000" not found in plan ResourceChanges; its deposed objects: "9f2d1a7c"'],
        ),
        (
            ExpectResourceAction("null_resource.noop", RA.Destroy, deposed="00000000"),
            [
                'deposed object "00000000" not found in plan ResourceChanges; the resource has no deposed objects'
            ],
        ),
        (
            ExpectResourceAction("null_resource.creat", RA.Create),
            [
                "resource not found in plan ResourceChanges; closest: null_resource.create, null_resource.cforget, null_resource.forget"
            ],
        ),
        # moves and imports are no-ops as actions
        (ExpectResourceAction("null_resource.moved", RA.NoOp), []),
        (ExpectResourceAction("null_resource.imported", RA.NoOp), []),
    ],
    ids=[
        "go-noop",
        "go-create",
        "go-replace",
        "go-not-found",
        "deposed",
        "deposed-mismatch",
        "deposed-key-missing",
        "no-deposed-objects",
        "closest",
        "moved",
        "imported",
    ],
)
def test_resource_action_cases(
    check: ExpectResourceAction, messages: list[str], fixture_plan: Callable[[str], Plan]
) -> None:
    assert [f.message for f in check.failures(fixture_plan("actions"))] == messages


def _plan(*resource_changes: dict[str, Any], **top: Any) -> Plan:
    return Plan.from_dict({"format_version": "1.2", "resource_changes": list(resource_changes), **top})


def _rc(address: str, actions: list[str], **extra: Any) -> dict[str, Any]:
    change = {"actions": actions, **extra.pop("change", {})}
    return {"address": address, "change": change, **extra}


def test_only_deposed_objects_are_named() -> None:
    plan = _plan(
        _rc("null_resource.a", ["delete"], deposed="abc"), _rc("null_resource.a", ["delete"], deposed="abd")
    )
    (failure,) = ExpectResourceAction("null_resource.a", RA.Destroy).failures(plan)
    assert failure.message == (
        "resource not found in plan ResourceChanges: only deposed objects of it are planned "
        '(select one with deposed=): "abc", "abd"'
    )


def test_a_deferred_resource_is_named_as_deferred(fixture_plan: Callable[[str], Plan]) -> None:
    (failure,) = ExpectResourceAction("test_resource.a", RA.Create).failures(fixture_plan("deferred"))
    assert (
        failure.message
        == 'resource not found in plan ResourceChanges: it is deferred with reason "resource_config_unknown"'
    )


def test_a_plan_without_changes_says_so() -> None:
    (failure,) = ExpectResourceAction("null_resource.a", RA.Create).failures(_plan())
    assert failure.message == "resource not found in plan ResourceChanges; the plan has no resource changes"


# -- ExpectEmptyPlan / ExpectNonEmptyPlan ---------------------------------------------------------------

EMPTY_PLAN_ACTIONS = [
    ("aws_instance.tainted", "it has planned action(s): [delete create]"),
    ("aws_instance.web", "it has planned action(s): [delete create]"),
    ("data.http.read", "it has planned action(s): [read]"),
    ("null_resource.cbd", "it has planned action(s): [create delete]"),
    ("null_resource.cbd", 'its deposed object "9f2d1a7c" has planned action(s): [delete]'),
    ("null_resource.cforget", "it has planned action(s): [create forget]"),
    ("null_resource.create", "it has planned action(s): [create]"),
    ("null_resource.dbc", "it has planned action(s): [delete create]"),
    ("null_resource.delete", "it has planned action(s): [delete]"),
    ("null_resource.forget", "it has planned action(s): [forget]"),
    ("null_resource.imported", "it is imported"),
    ("null_resource.moved", "it moves from null_resource.old_name"),
    ("null_resource.update", "it has planned action(s): [update]"),
    ("output.changed", "it has planned action(s): [update]"),
]
EMPTY_PLAN_DEFERRED = [
    ("null_resource.ready", "it has planned action(s): [create]"),
    ("module.m.test_resource.b", 'it is deferred with reason "provider_config_unknown"'),
    ("test_resource.a", 'it is deferred with reason "resource_config_unknown"'),
    ("test_resource.c", 'it is deferred with reason "absent_prereq"'),
    ("test_resource.d", 'it is deferred with reason "deferred_prereq"'),
    ("test_resource.e[*]", 'it is deferred with reason "instance_count_unknown"'),
    ("test_resource.f", 'it is deferred with reason "unknown"'),
    ("test_resource.g", 'it is deferred with reason "excluded"'),
    ("test_resource.h", 'it is deferred with reason "not_included"'),
]


@pytest.mark.parametrize(
    ("fixture", "expected"),
    [("empty", []), ("actions", EMPTY_PLAN_ACTIONS), ("deferred", EMPTY_PLAN_DEFERRED)],
    ids=["empty", "actions", "deferred"],
)
def test_empty_plan_lists_every_change_in_order(
    fixture: str, expected: list[tuple[str, str]], fixture_plan: Callable[[str], Plan]
) -> None:
    failures = ExpectEmptyPlan().failures(fixture_plan(fixture))
    assert [(f.address, f.message) for f in failures] == [
        (address, f"expected an empty plan, but {clause}") for address, clause in expected
    ]
    assert all(f.check == "ExpectEmptyPlan" and f.path is None for f in failures)


def test_empty_plan_text_pins_go_wording(fixture_plan: Callable[[str], Plan]) -> None:
    failures = ExpectEmptyPlan().failures(fixture_plan("actions"))
    assert str(failures[0]) == (
        "ExpectEmptyPlan: aws_instance.tainted: expected an empty plan, but it has planned action(s): [delete create]"
    )


SINGLE_CHANGES: list[tuple[str, Plan, list[str]]] = [
    ("read", _plan(_rc("data.a.b", ["read"])), ["data.a.b: it has planned action(s): [read]"]),
    (
        "moved-only",
        _plan(_rc("a.new", ["no-op"], previous_address="a.old")),
        ["a.new: it moves from a.old"],
    ),
    (
        "moved-and-updated",
        _plan(_rc("a.new", ["update"], previous_address="a.old")),
        ["a.new: it has planned action(s): [update]; moves from a.old"],
    ),
    (
        "imported-only",
        _plan(_rc("a.b", ["no-op"], change={"importing": {"id": "i-1"}})),
        ["a.b: it is imported"],
    ),
    (
        "output-only",
        _plan(output_changes={"o": {"actions": ["create"]}, "p": {"actions": ["no-op"]}}),
        ["output.o: it has planned action(s): [create]"],
    ),
    (
        "deferred-only",
        _plan(deferred_changes=[{"reason": "absent_prereq", "resource_change": _rc("a.b", ["create"])}]),
        ['a.b: it is deferred with reason "absent_prereq"'],
    ),
]


@pytest.mark.parametrize(
    ("plan", "expected"), [(p, e) for _, p, e in SINGLE_CHANGES], ids=[i for i, _, _ in SINGLE_CHANGES]
)
def test_each_kind_of_change_makes_a_plan_non_empty(plan: Plan, expected: list[str]) -> None:
    failures = ExpectEmptyPlan().failures(plan)
    assert [
        f"{f.address}: {f.message.removeprefix('expected an empty plan, but ')}" for f in failures
    ] == expected
    assert ExpectNonEmptyPlan().failures(plan) == []


def test_a_deferred_change_without_an_address_is_still_a_change() -> None:
    # Every loader and the constructor reject such a document; a Plan that holds one anyway must not crash the checks.
    plan = unvalidated_plan({"format_version": "1.2", "deferred_changes": [{"reason": "unknown"}]})
    assert [str(f) for f in ExpectEmptyPlan().failures(plan)] == [
        'ExpectEmptyPlan: expected an empty plan, but a deferred change without an address has reason "unknown"'
    ]
    assert ExpectNonEmptyPlan().failures(plan) == []


@pytest.mark.parametrize(
    "plan",
    [
        _plan(),
        _plan(_rc("a.b", ["no-op"]), output_changes={"o": {"actions": ["no-op"]}}),
        _plan(_rc("a.b", ["no-op"], previous_address="a.b")),
        _plan(_rc("a.b", ["no-op"]), complete=False),
    ],
    ids=["nothing", "no-ops", "previous-address-is-itself", "incomplete-but-nothing-deferred"],
)
def test_non_empty_plan_fails_on_an_empty_plan(plan: Plan) -> None:
    failures = ExpectNonEmptyPlan().failures(plan)
    assert [str(f) for f in failures] == [
        "ExpectNonEmptyPlan: expected a non-empty plan, but got an empty plan"
    ]
    assert ExpectEmptyPlan().failures(plan) == []


def test_non_empty_plan_passes_on_fixtures(fixture_plan: Callable[[str], Plan]) -> None:
    for name in ("actions", "deferred", "values"):
        assert ExpectNonEmptyPlan().failures(fixture_plan(name)) == [], name
    assert ExpectNonEmptyPlan().failures(fixture_plan("empty")) != []


# -- ExpectResourceReplacePaths ------------------------------------------------------------------------

EBS = New("ebs_block_device").AtSliceIndex(0).AtMapKey("volume_size")
TAGS_AB = New("tags").AtMapKey("a.b")


@pytest.mark.parametrize(
    ("check", "messages"),
    [
        (ExpectResourceReplacePaths("aws_instance.web", [EBS, TAGS_AB]), []),
        (ExpectResourceReplacePaths("aws_instance.web", [TAGS_AB, EBS, TAGS_AB]), []),
        (ExpectResourceReplacePaths("null_resource.dbc", [New("triggers")]), []),
        (ExpectResourceReplacePaths("aws_instance.tainted", []), []),
        (ExpectResourceReplacePaths("null_resource.create", ()), []),
        (
            ExpectResourceReplacePaths("aws_instance.web", [TAGS_AB]),
            [
                'expected replace paths [tags["a.b"]], got [ebs_block_device[0]["volume_size"], tags["a.b"]]: '
                'unexpected ebs_block_device[0]["volume_size"]'
            ],
        ),
        (
            ExpectResourceReplacePaths("aws_instance.web", [EBS, TAGS_AB, New("ami")]),
            [
                'expected replace paths [ami, ebs_block_device[0]["volume_size"], tags["a.b"]], '
                'got [ebs_block_device[0]["volume_size"], tags["a.b"]]: missing ami'
            ],
        ),
        (
            ExpectResourceReplacePaths("null_resource.cbd", [New("triggers")]),
            [
                'expected replace paths [triggers], got [name, triggers["a"]]: '
                'missing triggers; unexpected name, triggers["a"]'
            ],
        ),
        (
            ExpectResourceReplacePaths("aws_instance.tainted", [New("ami")]),
            [
                "expected replace paths [ami], got []: missing ami "
                "(the change has no replace_paths; action(s): [delete create])"
            ],
        ),
        (
            ExpectResourceReplacePaths("null_resource.dbc", []),
            ["expected replace paths [], got [triggers]: unexpected triggers"],
        ),
        (
            ExpectResourceReplacePaths("null_resource.cbd", [], deposed="9f2d1a7c"),
            [],
        ),
        (
            ExpectResourceReplacePaths("null_resource.nope", []),
            [
                "resource not found in plan ResourceChanges; closest: null_resource.noop, null_resource.moved, null_resource.update"
            ],
        ),
    ],
    ids=[
        "exact",
        "any-order-and-duplicates",
        "single",
        "none-expected-none-there",
        "none-on-create",
        "extra",
        "missing",
        "missing-and-extra",
        "no-replace-paths",
        "expected-none",
        "deposed",
        "not-found",
    ],
)
def test_replace_paths(
    check: ExpectResourceReplacePaths, messages: list[str], fixture_plan: Callable[[str], Plan]
) -> None:
    assert [f.message for f in check.failures(fixture_plan("actions"))] == messages


def test_replace_path_into_a_set_element_is_reported_as_json() -> None:
    # A path into a set has the element itself as its step; no tfjsonpath Path can name it.
    plan = _plan(
        _rc("a.b", ["delete", "create"], change={"replace_paths": [["rule", {"port": 80}], ["name"]]})
    )
    (failure,) = ExpectResourceReplacePaths("a.b", [New("name")]).failures(plan)
    assert (
        failure.message
        == 'expected replace paths [name], got [name, ["rule", {"port": 80}]]: unexpected ["rule", {"port": 80}]'
    )


_HUGE = 10**30  # no list index: past 2**63 - 1, where a Path cannot go


@pytest.mark.parametrize(
    ("read", "shown"),
    [
        (lambda plan: plan.resource_changes[0].change.replace_paths, (New("tags"), New("x").AtSliceIndex(1), New("n"))),
        (
            lambda plan: [f.message for f in ExpectResourceReplacePaths("a.b", [New("n")]).failures(plan)],
            [f'expected replace paths [n], got [["n", -1], ["tags", {_HUGE}], ["x", 1, {_HUGE}]]: '
             f'missing n; unexpected ["n", -1], ["tags", {_HUGE}], ["x", 1, {_HUGE}]'],
        ),
        (
            lambda plan: [f.message for f in ExpectNoDestroys().failures(plan)],
            ["expected no destroy, but it is replaced: action(s) [delete create] (replace paths: n, tags, x[1])"],
        ),
        (
            lambda plan: [f.message for f in ExpectNoReplacements().failures(plan)],
            ["expected no replacement, but it is replaced: action(s) [delete create] (replace paths: n, tags, x[1])"],
        ),
    ],
    ids=["change-replace-paths", "replace-paths-check", "no-destroys", "no-replacements"],
)
def test_a_replace_path_step_past_any_index_ends_the_path_as_a_set_step_does(
    read: Callable[[Plan], Any], shown: Any
) -> None:
    # A step no Path can hold is never a ValueError: it cuts the path (shown) or is the raw JSON (compared).
    plan = _plan(
        _rc("a.b", ["delete", "create"], change={"replace_paths": [["tags", _HUGE], ["x", 1, _HUGE], ["n", -1]]})
    )
    assert read(plan) == shown


def test_replace_path_of_the_whole_value() -> None:
    plan = _plan(_rc("a.b", ["delete", "create"], change={"replace_paths": [[]]}))
    assert ExpectResourceReplacePaths("a.b", [Path()]).failures(plan) == []
    (failure,) = ExpectResourceReplacePaths("a.b", []).failures(plan)
    assert (
        failure.message == "expected replace paths [], got [(the whole value)]: unexpected (the whole value)"
    )
