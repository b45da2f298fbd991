"""Plan checks: ports of Go's ``terraform-plugin-testing/plancheck``, without its faults.

>>> from plancheck import Plan
>>> from tfjsonpath import New
>>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [{"address": "null_resource.a",
...     "change": {"actions": ["create"], "after": {}, "after_unknown": {"id": True, "triggers": True}}}]})
>>> assert_plan(plan, ExpectResourceAction("null_resource.a", ResourceAction.Create),
...             ExpectUnknownValue("null_resource.a", New("triggers").AtMapKey("dep")))
"""

from ._actions import (
    ExpectEmptyPlan,
    ExpectNonEmptyPlan,
    ExpectResourceAction,
    ExpectResourceReplacePaths,
    ResourceAction,
)
from ._base import PlanCheck, assert_plan
from ._deferred import DeferredReason, ExpectDeferredChange, ExpectNoDeferredChanges
from ._known import ExpectKnownOutputValue, ExpectKnownOutputValueAtPath, ExpectKnownValue, ExpectNoValue
from ._unknown_sensitive_null import (
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
    "ExpectDeferredChange",
    "ExpectEmptyPlan",
    "ExpectKnownOutputValue",
    "ExpectKnownOutputValueAtPath",
    "ExpectKnownValue",
    "ExpectNoDeferredChanges",
    "ExpectNoValue",
    "ExpectNonEmptyPlan",
    "ExpectNullOutputValue",
    "ExpectNullOutputValueAtPath",
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
