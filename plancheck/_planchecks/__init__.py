"""Plan checks: ports of Go's ``terraform-plugin-testing/plancheck``, without its faults.

>>> from plancheck import Plan
>>> from tfjsonpath import New
>>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [{"address": "null_resource.a",
...     "change": {"actions": ["create"], "after": {}, "after_unknown": {"id": True, "triggers": True}}}]})
>>> assert_plan(plan, ExpectResourceAction("null_resource.a", ResourceAction.Create),
...             ExpectUnknownValue("null_resource.a", New("triggers").AtMapKey("dep")))
"""

from .base import PlanCheck, assert_plan
from .changes import (
    DeferredReason,
    ExpectActionCounts,
    ExpectCount,
    ExpectDeferredChange,
    ExpectEmptyPlan,
    ExpectNoDeferredChanges,
    ExpectNoDestroys,
    ExpectNonEmptyPlan,
    ExpectNoReplacements,
    ExpectNoResourceChanges,
    ExpectOnlyOutputChanges,
    ExpectResourceAction,
    ExpectResourceReplacePaths,
    ResourceAction,
)
from .drift import ExpectDrift, ExpectNoDrift
from .each import ExpectEachKnownValue, ExpectEachNullValue, ExpectEachSensitiveValue, ExpectEachUnknownValue
from .values import (
    ExpectKnownOutputValue,
    ExpectKnownOutputValueAtPath,
    ExpectKnownValue,
    ExpectNoValue,
    ExpectNullOutputValue,
    ExpectNullOutputValueAtPath,
    ExpectSensitiveOutputValue,
    ExpectSensitiveValue,
    ExpectUnknownOutputValue,
    ExpectUnknownOutputValueAtPath,
    ExpectUnknownValue,
)

__all__ = [
    "DeferredReason",
    "ExpectActionCounts",
    "ExpectCount",
    "ExpectDeferredChange",
    "ExpectDrift",
    "ExpectEachKnownValue",
    "ExpectEachNullValue",
    "ExpectEachSensitiveValue",
    "ExpectEachUnknownValue",
    "ExpectEmptyPlan",
    "ExpectKnownOutputValue",
    "ExpectKnownOutputValueAtPath",
    "ExpectKnownValue",
    "ExpectNoDeferredChanges",
    "ExpectNoDestroys",
    "ExpectNoDrift",
    "ExpectNoReplacements",
    "ExpectNoResourceChanges",
    "ExpectNoValue",
    "ExpectNonEmptyPlan",
    "ExpectNullOutputValue",
    "ExpectNullOutputValueAtPath",
    "ExpectOnlyOutputChanges",
    "ExpectResourceAction",
    "ExpectResourceReplacePaths",
    "ExpectSensitiveOutputValue",
    "ExpectSensitiveValue",
    "ExpectUnknownOutputValue",
    "ExpectUnknownOutputValueAtPath",
    "ExpectUnknownValue",
    "PlanCheck",
    "ResourceAction",
    "assert_plan",
]
