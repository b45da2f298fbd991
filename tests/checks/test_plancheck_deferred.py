"""ExpectDeferredChange and ExpectNoDeferredChanges."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from unvalidated import unvalidated_plan

from plancheck import DeferredReason, ExpectDeferredChange, ExpectNoDeferredChanges, Plan

DR = DeferredReason

# Every reason Terraform's jsonplan writes, and the resource deferred.json defers with it.
DEFERRED = {
    "test_resource.a": DR.ResourceConfigUnknown,
    "module.m.test_resource.b": DR.ProviderConfigUnknown,
    "test_resource.c": DR.AbsentPrereq,
    "test_resource.d": DR.DeferredPrereq,
    "test_resource.e[*]": DR.InstanceCountUnknown,
    "test_resource.f": DR.Unknown,
    "test_resource.g": DR.Excluded,
    "test_resource.h": DR.NotIncluded,
}
MATRIX = [(address, reason) for address in DEFERRED for reason in DeferredReason]


def test_the_fixture_covers_every_reason() -> None:
    assert set(DEFERRED.values()) == set(DeferredReason)


@pytest.mark.parametrize(("address", "reason"), MATRIX, ids=[f"{a}-{r.name}" for a, r in MATRIX])
def test_every_reason_against_every_deferral(
    address: str, reason: DeferredReason, fixture_plan: Callable[[str], Plan]
) -> None:
    failures = ExpectDeferredChange(address, reason).failures(fixture_plan("deferred"))
    actual = DEFERRED[address]
    if reason is actual:
        assert failures == []
    else:
        assert [f.message for f in failures] == [
            f'expected "{reason.value}", got deferred reason: "{actual.value}"'
        ]


ALL_DEFERRED = (
    "module.m.test_resource.b, test_resource.a, test_resource.c, test_resource.d, test_resource.e[*], "
    "test_resource.f, test_resource.g, test_resource.h"
)


@pytest.mark.parametrize(
    ("fixture", "address", "message"),
    [
        (
            "deferred",
            "null_resource.ready",
            "no deferred changes found for resource: it is planned, with action(s): [create]",
        ),
        ("deferred", "test_resource.zz", f"no deferred changes found for resource; deferred: {ALL_DEFERRED}"),
        (
            "empty",
            "null_resource.x",
            "no deferred changes found for resource; the plan has no deferred changes",
        ),
    ],
    ids=["planned-not-deferred", "not-in-plan", "no-deferrals"],
)
def test_not_deferred(fixture: str, address: str, message: str, fixture_plan: Callable[[str], Plan]) -> None:
    (failure,) = ExpectDeferredChange(address, DR.AbsentPrereq).failures(fixture_plan(fixture))
    assert (failure.check, failure.address, failure.path, failure.message) == (
        "ExpectDeferredChange",
        address,
        None,
        message,
    )


def test_error_text_keeps_go_wording(fixture_plan: Callable[[str], Plan]) -> None:
    (failure,) = ExpectDeferredChange("test_resource.c", DR.ProviderConfigUnknown).failures(
        fixture_plan("deferred")
    )
    assert str(failure) == (
        'ExpectDeferredChange: test_resource.c: expected "provider_config_unknown", got deferred reason: "absent_prereq"'
    )


def test_no_deferred_changes_lists_each_by_address(fixture_plan: Callable[[str], Plan]) -> None:
    failures = ExpectNoDeferredChanges().failures(fixture_plan("deferred"))
    assert [(f.address, f.message) for f in failures] == [
        (
            address,
            f'expected no deferred changes, but it is deferred with reason: "{DEFERRED[address].value}"',
        )
        for address in sorted(DEFERRED)
    ]


def _plan(**top: Any) -> Plan:
    return Plan.from_dict({"format_version": "1.2", **top})


INCOMPLETE = (
    'ExpectNoDeferredChanges: expected no deferred changes, but the plan is not complete ("complete": false): '
    "at least one more plan/apply round is needed to converge"
)


@pytest.mark.parametrize(
    ("plan", "texts"),
    [
        (_plan(complete=True), []),
        # Terraform before 1.8 and OpenTofu write no "complete"; they never defer (Go fails these).
        (_plan(), []),
        (_plan(complete=False), [INCOMPLETE]),
        (
            _plan(
                complete=False,
                deferred_changes=[
                    {
                        "reason": "absent_prereq",
                        "resource_change": {"address": "b.x", "change": {"actions": ["create"]}},
                    },
                    {
                        "reason": "unknown",
                        "resource_change": {
                            "address": "a.x",
                            "deposed": "d1",
                            "change": {"actions": ["delete"]},
                        },
                    },
                ],
            ),
            [
                'ExpectNoDeferredChanges: a.x: expected no deferred changes, but its deposed object "d1" is deferred with reason: "unknown"',
                'ExpectNoDeferredChanges: b.x: expected no deferred changes, but it is deferred with reason: "absent_prereq"',
            ],
        ),
    ],
    ids=["complete", "no-complete-field", "incomplete", "deferred-sorted"],
)
def test_no_deferred_changes(plan: Plan, texts: list[str]) -> None:
    assert [str(f) for f in ExpectNoDeferredChanges().failures(plan)] == texts


def test_a_deferred_change_without_an_address_is_reported() -> None:
    # Every loader and the constructor reject such a document; a Plan that holds one anyway must not crash the checks.
    plan = unvalidated_plan({"format_version": "1.2", "deferred_changes": [{"reason": "excluded"}]})
    assert [str(f) for f in ExpectNoDeferredChanges().failures(plan)] == [
        "ExpectNoDeferredChanges: expected no deferred changes, but a change without an address is deferred "
        'with reason: "excluded"'
    ]


def test_deposed_deferrals_do_not_shadow_the_current_object() -> None:
    plan = _plan(
        deferred_changes=[
            {
                "reason": "unknown",
                "resource_change": {"address": "a.x", "deposed": "d1", "change": {"actions": ["delete"]}},
            },
            {
                "reason": "absent_prereq",
                "resource_change": {"address": "a.x", "change": {"actions": ["create"]}},
            },
        ]
    )
    assert ExpectDeferredChange("a.x", DR.AbsentPrereq).failures(plan) == []


@pytest.mark.parametrize("reason", list(DeferredReason), ids=[r.name for r in DeferredReason])
def test_reasons_round_trip_through_their_values(reason: DeferredReason) -> None:
    assert DeferredReason(reason.value) is reason
    assert repr(reason) == f"DeferredReason.{reason.name}"
