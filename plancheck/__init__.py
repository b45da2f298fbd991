"""plancheck: assertions on Terraform and OpenTofu JSON plans, states and configurations.

>>> from plancheck import Plan
>>> from tfjsonpath import New
>>> plan = Plan.from_json('{"format_version": "1.2", "resource_changes": [{"address": "null_resource.a", '
...     '"change": {"actions": ["create"], "after": {}, "after_unknown": {"id": true}}}]}')
>>> plan.resource_change("null_resource.a").actions
('create',)
"""

from . import compare, knownvalue, statecheck
from ._checks import (
    DeferredReason,
    ExpectDeferredChange,
    ExpectEmptyPlan,
    ExpectKnownOutputValue,
    ExpectKnownOutputValueAtPath,
    ExpectKnownValue,
    ExpectNoDeferredChanges,
    ExpectNonEmptyPlan,
    ExpectNoValue,
    ExpectNullOutputValue,
    ExpectNullOutputValueAtPath,
    ExpectResourceAction,
    ExpectResourceReplacePaths,
    ExpectSensitiveOutputValue,
    ExpectSensitiveValue,
    ExpectUnknownOutputValue,
    ExpectUnknownOutputValueAtPath,
    ExpectUnknownValue,
    PlanCheck,
    ResourceAction,
    assert_plan,
)
from ._documents.plan import Change, DeferredChange, OutputChange, Plan, ResourceChange, ResourceNotFound
from ._documents.resolve import ResolvedValue, ValueStatus, resolve_value
from ._documents.state import State, StateOutput, StateResource, load_state
from ._errors import (
    CheckFailedError,
    CheckFailure,
    ConfigCheckError,
    DocumentFormatError,
    PlanCheckError,
    PlanFormatError,
    StateCheckError,
    StateFormatError,
    TfCheckError,
    ValueMismatchError,
)
from ._loading.load import load_plan
from ._redact import SENSITIVE, Secrets, revealing_sensitive
from .statecheck import StateCheck, assert_state

__all__ = [
    "Change",
    "CheckFailedError",
    "CheckFailure",
    "ConfigCheckError",
    "DeferredChange",
    "DeferredReason",
    "DocumentFormatError",
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
    "OutputChange",
    "Plan",
    "PlanCheck",
    "PlanCheckError",
    "PlanFormatError",
    "ResolvedValue",
    "ResourceAction",
    "ResourceChange",
    "ResourceNotFound",
    "SENSITIVE",
    "Secrets",
    "State",
    "StateCheck",
    "StateCheckError",
    "StateFormatError",
    "StateOutput",
    "StateResource",
    "TfCheckError",
    "ValueMismatchError",
    "ValueStatus",
    "assert_plan",
    "assert_state",
    "compare",
    "knownvalue",
    "load_plan",
    "load_state",
    "resolve_value",
    "revealing_sensitive",
    "statecheck",
]
