"""What every plan check shares: validation, value semantics, repr, assert_plan, no mutation, cost."""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import pickle
from collections.abc import Callable
from functools import cached_property
from typing import Any

import pytest

import plancheck
from plancheck import (
    CheckFailure,
    DeferredReason,
    ExpectDeferredChange,
    ExpectEmptyPlan,
    ExpectNoDeferredChanges,
    ExpectNonEmptyPlan,
    ExpectNullOutputValue,
    ExpectNullOutputValueAtPath,
    ExpectResourceAction,
    ExpectResourceReplacePaths,
    ExpectSensitiveOutputValue,
    ExpectSensitiveValue,
    ExpectUnknownOutputValue,
    ExpectUnknownOutputValueAtPath,
    ExpectUnknownValue,
    Plan,
    PlanCheck,
    PlanCheckError,
    ResourceAction,
    Secrets,
    assert_plan,
)
from tfjsonpath import MapStep, New, Path, SliceStep

ID = New("id")

# One instance of every check, and its exact repr.
REPRS: list[tuple[PlanCheck, str]] = [
    (ExpectUnknownValue("null_resource.a", ID), "ExpectUnknownValue('null_resource.a', Path(MapStep('id')))"),
    (
        ExpectUnknownValue("a.b", New("x").AtSliceIndex(0), deposed="d1"),
        "ExpectUnknownValue('a.b', Path(MapStep('x'), SliceStep(0)), deposed='d1')",
    ),
    (ExpectSensitiveValue("a.b", ID), "ExpectSensitiveValue('a.b', Path(MapStep('id')))"),
    (ExpectUnknownOutputValue("ip"), "ExpectUnknownOutputValue('ip')"),
    (
        ExpectUnknownOutputValueAtPath("ip", New(0)),
        "ExpectUnknownOutputValueAtPath('ip', Path(SliceStep(0)))",
    ),
    (ExpectSensitiveOutputValue("pw"), "ExpectSensitiveOutputValue('pw')"),
    (ExpectNullOutputValue("o"), "ExpectNullOutputValue('o')"),
    (ExpectNullOutputValueAtPath("o", New("k")), "ExpectNullOutputValueAtPath('o', Path(MapStep('k')))"),
    (
        ExpectResourceAction("a.b", ResourceAction.Replace),
        "ExpectResourceAction('a.b', ResourceAction.Replace)",
    ),
    (
        ExpectResourceAction("a.b", ResourceAction.Destroy, deposed="d1"),
        "ExpectResourceAction('a.b', ResourceAction.Destroy, deposed='d1')",
    ),
    (ExpectEmptyPlan(), "ExpectEmptyPlan()"),
    (ExpectNonEmptyPlan(), "ExpectNonEmptyPlan()"),
    (
        ExpectResourceReplacePaths("a.b", [New("z"), New("a"), New("z")]),
        "ExpectResourceReplacePaths('a.b', [Path(MapStep('a')), Path(MapStep('z'))])",
    ),
    (
        ExpectDeferredChange("a.b", DeferredReason.AbsentPrereq),
        "ExpectDeferredChange('a.b', DeferredReason.AbsentPrereq)",
    ),
    (ExpectNoDeferredChanges(), "ExpectNoDeferredChanges()"),
]
CHECKS = [c for c, _ in REPRS]
CHECK_IDS = [type(c).__name__ + str(i) for i, c in enumerate(CHECKS)]
NAMESPACE = {
    "Path": Path,
    "MapStep": MapStep,
    "SliceStep": SliceStep,
    "ResourceAction": ResourceAction,
    "DeferredReason": DeferredReason,
    **{name: getattr(plancheck, name) for name in plancheck.__all__},
}


@pytest.mark.parametrize(("check", "text"), REPRS, ids=CHECK_IDS)
def test_repr_is_the_constructor_call(check: PlanCheck, text: str) -> None:
    assert repr(check) == text
    rebuilt = eval(text, NAMESPACE)  # the repr is the constructor form
    assert rebuilt == check
    assert hash(rebuilt) == hash(check)


@pytest.mark.parametrize("check", CHECKS, ids=CHECK_IDS)
def test_checks_are_frozen_slotted_and_picklable(check: PlanCheck) -> None:
    assert not hasattr(check, "__dict__")
    for name in [*(spec.name for spec in dataclasses.fields(check)), "anything"]:
        with pytest.raises(AttributeError, match="is immutable; cannot set"):
            setattr(check, name, "x")
        with pytest.raises(AttributeError, match="is immutable; cannot delete"):
            delattr(check, name)
    assert pickle.loads(pickle.dumps(check)) == check
    assert copy.deepcopy(check) == check
    assert isinstance(check, PlanCheck)


def test_equality_and_hash() -> None:
    a = ExpectUnknownValue("a.b", ID)
    assert a == ExpectUnknownValue("a.b", New("id"))
    assert len({a, ExpectUnknownValue("a.b", New("id")), ExpectSensitiveValue("a.b", ID)}) == 2
    assert a != ExpectUnknownValue("a.b", ID, deposed="d")
    assert a != ExpectSensitiveValue("a.b", ID)  # same fields, another check
    assert ExpectEmptyPlan() == ExpectEmptyPlan()
    assert ExpectEmptyPlan() != ExpectNonEmptyPlan()
    assert a.__eq__("a.b") is NotImplemented
    assert ExpectResourceReplacePaths("a.b", [New("x"), New("y")]) == ExpectResourceReplacePaths(
        "a.b", [New("y"), New("x")]
    )


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: ExpectUnknownValue(1, ID), TypeError, "ExpectUnknownValue: address must be a str, got int"),
        (lambda: ExpectUnknownValue("", ID), ValueError, "ExpectUnknownValue: address must not be empty"),
        (
            lambda: ExpectUnknownValue("a.b", "id"),
            TypeError,
            "ExpectUnknownValue: path must be a tfjsonpath.Path, got str (to use text, parse it: "
            "tfjsonpath.Path.parse('id'))",
        ),
        (
            lambda: ExpectSensitiveValue("a.b", ["id"]),
            TypeError,
            "ExpectSensitiveValue: path must be a tfjsonpath.Path, got list",
        ),
        (
            lambda: ExpectUnknownValue("a.b", ID, deposed=1),
            TypeError,
            "ExpectUnknownValue: deposed must be a str, got int",
        ),
        (
            lambda: ExpectUnknownValue("a.b", ID, deposed=""),
            ValueError,
            "ExpectUnknownValue: deposed must not be empty",
        ),
        (
            lambda: ExpectUnknownOutputValue(None),
            TypeError,
            "ExpectUnknownOutputValue: output name must be a str, got NoneType",
        ),
        (
            lambda: ExpectUnknownOutputValueAtPath("o", None),
            TypeError,
            "ExpectUnknownOutputValueAtPath: path must be a tfjsonpath.Path, got NoneType",
        ),
        (
            lambda: ExpectSensitiveOutputValue(""),
            ValueError,
            "ExpectSensitiveOutputValue: output name must not be empty",
        ),
        (
            lambda: ExpectResourceAction("a.b", "Create"),
            TypeError,
            "ExpectResourceAction: action must be a ResourceAction, got str (did you mean ResourceAction.Create?)",
        ),
        (
            lambda: ExpectResourceAction("a.b", "create"),
            TypeError,
            "ExpectResourceAction: action must be a ResourceAction, got str (did you mean ResourceAction.Create?)",
        ),
        (
            lambda: ExpectResourceAction("a.b", "no-op"),
            TypeError,
            "ExpectResourceAction: action must be a ResourceAction, got str (did you mean ResourceAction.NoOp?)",
        ),
        (
            lambda: ExpectResourceAction("a.b", "delete"),
            TypeError,
            "ExpectResourceAction: action must be a ResourceAction, got str",
        ),
        (
            lambda: ExpectResourceAction("a.b", 3),
            TypeError,
            "ExpectResourceAction: action must be a ResourceAction, got int",
        ),
        (
            lambda: ExpectDeferredChange("a.b", "absent_prereq"),
            TypeError,
            "ExpectDeferredChange: reason must be a DeferredReason, got str (did you mean DeferredReason.AbsentPrereq?)",
        ),
        (
            lambda: ExpectResourceReplacePaths("a.b", New("x")),
            TypeError,
            "ExpectResourceReplacePaths: paths must be a list of tfjsonpath Paths, got Path",
        ),
        (
            lambda: ExpectResourceReplacePaths("a.b", "x"),
            TypeError,
            "ExpectResourceReplacePaths: paths must be a list of tfjsonpath Paths, got str",
        ),
        (
            lambda: ExpectResourceReplacePaths("a.b", [New("x"), "y"]),
            TypeError,
            "ExpectResourceReplacePaths: paths[1] must be a tfjsonpath.Path, got str",
        ),
        (
            lambda: ExpectResourceReplacePaths("a.b", 3),
            TypeError,
            "ExpectResourceReplacePaths: paths must be a list of tfjsonpath Paths, got int",
        ),
    ],
    ids=[
        "address-type",
        "address-empty",
        "path-str",
        "path-list",
        "deposed-type",
        "deposed-empty",
        "output-name-type",
        "output-path-type",
        "output-name-empty",
        "action-str-go-spelling",
        "action-str-terraform-spelling",
        "action-str-no-op",
        "action-str-no-member-no-hint",
        "action-int-no-hint",
        "reason-str-snake-case",
        "paths-single-path",
        "paths-str",
        "paths-element",
        "paths-int",
    ],
)
def test_constructors_validate_at_once(
    make: Callable[[], object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as info:
        make()
    assert str(info.value) == message


def test_an_exact_str_is_kept() -> None:
    class Name(str):
        pass

    check = ExpectUnknownValue(Name("a.b"), ID)
    assert type(check.address) is str


def test_replace_paths_accepts_any_iterable_and_copies_it() -> None:
    paths = [New("b"), New("a")]
    check = ExpectResourceReplacePaths("a.b", iter(paths))
    paths.append(New("c"))
    assert check.paths == (New("a"), New("b"))


# -- assert_plan and CheckPlan ------------------------------------------------------------------------


def _plan() -> Plan:
    return Plan.from_dict(
        {
            "format_version": "1.2",
            "resource_changes": [
                {
                    "address": "null_resource.a",
                    "change": {"actions": ["create"], "after": {"x": 1}, "after_unknown": {"id": True}},
                },
                {
                    "address": "null_resource.b",
                    "change": {"actions": ["update"], "after": {}, "after_unknown": {}},
                },
            ],
        }
    )


def test_assert_plan_reports_every_failure_in_the_order_given() -> None:
    with pytest.raises(PlanCheckError) as info:
        assert_plan(
            _plan(),
            ExpectResourceAction("null_resource.b", ResourceAction.Create),
            ExpectUnknownValue("null_resource.a", ID),
            ExpectEmptyPlan(),
            ExpectUnknownValue("null_resource.a", New("x")),
        )
    assert str(info.value) == "\n".join(
        [
            "4 plan checks failed:",
            "  1. ExpectResourceAction: null_resource.b: expected Create, got action(s): [update]",
            "  2. ExpectEmptyPlan: null_resource.a: expected an empty plan, but it has planned action(s): [create]",
            "  3. ExpectEmptyPlan: null_resource.b: expected an empty plan, but it has planned action(s): [update]",
            "  4. ExpectUnknownValue: null_resource.a: x: expected an unknown value, but it is known: 1",
        ]
    )
    assert info.value.address == "null_resource.b"
    assert isinstance(info.value, AssertionError)


def test_assert_plan_passes_silently() -> None:
    assert assert_plan(_plan(), ExpectUnknownValue("null_resource.a", ID), ExpectNonEmptyPlan()) is None
    assert assert_plan(_plan()) is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ({"format_version": "1.2"},),
            "assert_plan expects a plancheck.Plan (use load_plan or Plan.from_dict), got dict",
        ),
        ((_plan(), ExpectEmptyPlan(), "x"), "assert_plan: check 2 must be a PlanCheck, got str"),
        (
            (_plan(), [ExpectEmptyPlan()]),
            "assert_plan: check 1 must be a PlanCheck, got list; to pass a list of checks, unpack it: "
            "assert_plan(plan, *checks)",
        ),
    ],
    ids=["not-a-plan", "not-a-check", "a-list"],
)
def test_assert_plan_rejects_bad_arguments(args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(TypeError) as info:
        assert_plan(*args)
    assert str(info.value) == message


def test_check_plan_rejects_a_document() -> None:
    with pytest.raises(TypeError) as info:
        ExpectEmptyPlan().CheckPlan({"format_version": "1.2"})  # type: ignore[arg-type]
    assert str(info.value) == (
        "ExpectEmptyPlan.CheckPlan expects a plancheck.Plan (use load_plan or Plan.from_dict), got dict"
    )


def test_a_custom_check_joins_in() -> None:
    class ExpectFormat(PlanCheck):
        __slots__ = ()

        def failures(self, plan: Plan) -> list[CheckFailure]:
            return [CheckFailure("ExpectFormat", None, None, f"format is {plan.format_version}")]

    with pytest.raises(PlanCheckError) as info:
        assert_plan(_plan(), ExpectFormat(), ExpectNonEmptyPlan())
    assert str(info.value) == "ExpectFormat: format is 1.2"


def test_plan_check_is_abstract() -> None:
    with pytest.raises(TypeError):
        PlanCheck()  # type: ignore[abstract]


# -- checks never mutate the plan ---------------------------------------------------------------------

EVERY_CHECK_ON_FIXTURES = [
    *CHECKS,
    ExpectUnknownValue("null_resource.whole", New("triggers")),
    ExpectUnknownValue("aws_db_instance.db", New("config")),
    ExpectSensitiveValue("aws_db_instance.db", New("replicas")),
    ExpectUnknownOutputValue("o_partial"),
    ExpectResourceReplacePaths("aws_instance.web", [New("x")]),
    ExpectResourceAction("null_resource.cbd", ResourceAction.Destroy, deposed="9f2d1a7c"),
    ExpectDeferredChange("test_resource.a", DeferredReason.AbsentPrereq),
]


@pytest.mark.parametrize("name", ["values", "actions", "deferred", "empty"])
def test_checks_never_mutate_the_plan(name: str, fixture_document: Callable[[str], dict[str, Any]]) -> None:
    document = fixture_document(name)
    pristine = copy.deepcopy(document)
    plan = Plan.from_dict(document)
    for check in EVERY_CHECK_ON_FIXTURES:
        check.failures(plan)
        with contextlib.suppress(PlanCheckError):
            check.CheckPlan(plan)
    assert document == pristine


# -- cost: a passing lookup uses the index, never scans or collects secrets -------------------------------


class _GuardedPlan(Plan):
    """A plan that fails the test if anything scans its changes or collects its secrets."""

    @cached_property
    def resource_changes(self) -> Any:  # type: ignore[override]
        raise AssertionError("scanned resource_changes")

    @cached_property
    def deferred_changes(self) -> Any:  # type: ignore[override]
        raise AssertionError("scanned deferred_changes")

    @cached_property
    def secrets(self) -> Secrets:  # type: ignore[override]
        raise AssertionError("collected secrets without a failure")


@pytest.mark.parametrize(
    "check",
    [
        ExpectUnknownValue("null_resource.whole", New("triggers").AtMapKey("x")),
        ExpectSensitiveValue("aws_db_instance.db", New("config").AtMapKey("password")),
        ExpectUnknownOutputValue("o_unknown"),
        ExpectUnknownOutputValueAtPath("o_partial", New(0)),
        ExpectSensitiveOutputValue("o_secret"),
        ExpectNullOutputValue("o_null"),
    ],
    ids=lambda c: type(c).__name__,
)
def test_a_passing_value_check_only_uses_the_index(
    check: PlanCheck, fixture_document: Callable[[str], dict[str, Any]]
) -> None:
    assert check.failures(_GuardedPlan(fixture_document("values"))) == []


@pytest.mark.parametrize(
    "check",
    [
        ExpectResourceAction("null_resource.cbd", ResourceAction.Replace),
        ExpectResourceAction("null_resource.cbd", ResourceAction.Destroy, deposed="9f2d1a7c"),
        ExpectResourceReplacePaths("null_resource.dbc", [New("triggers")]),
    ],
    ids=lambda c: type(c).__name__,
)
def test_a_passing_action_check_only_uses_the_index(
    check: PlanCheck, fixture_document: Callable[[str], dict[str, Any]]
) -> None:
    assert check.failures(_GuardedPlan(fixture_document("actions"))) == []
