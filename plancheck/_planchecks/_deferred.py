"""Checks on deferred changes (Terraform 1.9+ with deferrals allowed)."""

from __future__ import annotations

import enum

from .._checking.fields import checked_address
from .._checking.messages import actions_text, quote
from .._documents.plan import DeferredChange, Plan
from .._errors import CheckFailure
from .._frozen import frozen, public
from ._base import PlanCheck, failure

__all__ = ["DeferredReason", "ExpectDeferredChange", "ExpectNoDeferredChanges"]


@public("plancheck")
class DeferredReason(enum.Enum):
    """Why Terraform deferred a change; the values are what ``deferred_changes[].reason`` holds.

    Go names three of these; Terraform's ``jsonplan`` writes all eight (``unknown``
    for a reason newer than the Terraform that wrote the plan).

    >>> DeferredReason("absent_prereq")
    DeferredReason.AbsentPrereq
    """

    Unknown = "unknown"
    InstanceCountUnknown = "instance_count_unknown"
    ResourceConfigUnknown = "resource_config_unknown"
    ProviderConfigUnknown = "provider_config_unknown"
    DeferredPrereq = "deferred_prereq"
    AbsentPrereq = "absent_prereq"
    Excluded = "excluded"
    NotIncluded = "not_included"

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


def _address(deferred: DeferredChange) -> str | None:
    address = deferred.resource_change.raw.get("address")
    return address if isinstance(address, str) else None


@public("plancheck")
@frozen
class ExpectDeferredChange(PlanCheck):
    """Resource ``address`` is deferred, with ``reason`` (a :class:`DeferredReason`).

    >>> from plancheck import Plan
    >>> plan = Plan.from_dict({"format_version": "1.2", "complete": False, "deferred_changes": [
    ...     {"reason": "absent_prereq", "resource_change": {"address": "test_resource.a", "change": {"actions": ["create"]}}}]})
    >>> ExpectDeferredChange("test_resource.a", DeferredReason.AbsentPrereq).CheckPlan(plan)
    >>> ExpectDeferredChange("test_resource.a", DeferredReason.ProviderConfigUnknown).CheckPlan(plan)
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectDeferredChange: test_resource.a: expected "provider_config_unknown", got deferred reason: "absent_prereq"
    """

    address: str
    reason: DeferredReason

    def __post_init__(self) -> None:
        name = type(self).__name__
        if not isinstance(self.reason, DeferredReason):
            raise TypeError(f"{name}: reason must be a DeferredReason, got {type(self.reason).__name__}")
        self._set(address=checked_address(self.address, name))

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """The failure, if the resource is not deferred, or for another reason."""
        name = type(self).__name__
        # Deferred changes are few and have no index; the current object comes first, as Terraform sorts them.
        matches = sorted(
            (d for d in plan.deferred_changes if _address(d) == self.address),
            key=lambda d: d.resource_change.deposed or "",
        )
        if matches:
            reason = matches[0].reason
            if reason == self.reason.value:
                return []
            message = f"expected {quote(self.reason.value)}, got deferred reason: {quote(reason)}"
            return [failure(plan, name, self.address, None, message)]
        message = "no deferred changes found for resource"
        if plan.has_resource_change(self.address):
            actions = plan.resource_change(self.address).actions
            message += f": it is planned, with action(s): {actions_text(actions)}"
        elif not plan.deferred_changes:
            message += "; the plan has no deferred changes"
        else:
            deferred = sorted({a for a in map(_address, plan.deferred_changes) if a is not None})
            message += "; deferred: " + ", ".join(deferred)
        return [failure(plan, name, self.address, None, message)]


@public("plancheck")
class ExpectNoDeferredChanges(PlanCheck):
    """Nothing is deferred, and the plan is not marked incomplete (``"complete": false``).

    A plan without ``complete`` (Terraform before 1.8, OpenTofu) cannot hold deferrals
    and passes; Go fails it.

    >>> from plancheck import Plan
    >>> ExpectNoDeferredChanges().CheckPlan(Plan.from_dict({"format_version": "1.2", "complete": True}))
    >>> ExpectNoDeferredChanges().CheckPlan(Plan.from_dict({"format_version": "1.2", "complete": False}))
    Traceback (most recent call last):
    ...
    plancheck.PlanCheckError: ExpectNoDeferredChanges: expected no deferred changes, but the plan is not complete ("complete": false): at least one more plan/apply round is needed to converge
    """

    __slots__ = ()

    def failures(self, plan: Plan) -> list[CheckFailure]:
        """One failure per deferred change, by address; else one if the plan is incomplete."""
        name = type(self).__name__
        found = []
        ordered = sorted(
            plan.deferred_changes, key=lambda d: (_address(d) or "", d.resource_change.deposed or "")
        )
        for deferred in ordered:
            address = _address(deferred)
            deposed = deferred.resource_change.deposed
            subject = "it" if deposed is None else f"its deposed object {quote(deposed)}"
            if address is None:
                subject = "a change without an address"
            message = f"expected no deferred changes, but {subject} is deferred with reason: {quote(deferred.reason)}"
            found.append(failure(plan, name, address, None, message))
        if not found and plan.complete is False:
            message = (
                'expected no deferred changes, but the plan is not complete ("complete": false): '
                "at least one more plan/apply round is needed to converge"
            )
            found.append(failure(plan, name, None, None, message))
        return found
