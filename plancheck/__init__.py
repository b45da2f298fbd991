"""plancheck: assertions on Terraform and OpenTofu JSON plans, states and configurations.

>>> from plancheck import Plan
>>> from tfjsonpath import New
>>> plan = Plan.from_json('{"format_version": "1.2", "resource_changes": [{"address": "null_resource.a", '
...     '"change": {"actions": ["create"], "after": {}, "after_unknown": {"id": true}}}]}')
>>> plan.resource_change("null_resource.a").actions
('create',)
"""

# Every public name is imported on first use (PEP 562): `import plancheck` (which pytest does for
# every session through the plugin's entry point) costs next to nothing, and a test that uses
# one check loads only what that check needs.
from __future__ import annotations

import importlib
import warnings
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from . import compare, knownvalue, querycheck, snapshot, statecheck
    from ._documents.plan import (
        Change,
        DeferredChange,
        OutputChange,
        Plan,
        ResourceChange,
        ResourceNotFoundError,
        load_plan,
    )
    from ._documents.resolve import ResolvedValue, ValueStatus, resolve_value
    from ._documents.select import Resources
    from ._documents.state import State, StateOutput, StateResource, load_state
    from ._errors import (
        CheckFailedError,
        CheckFailure,
        ConfigCheckError,
        DocumentFormatError,
        ErroredPlanError,
        PlanCheckError,
        PlanCheckWarning,
        PlanFormatError,
        StateCheckError,
        StateFormatError,
        TfCheckError,
        ValueMismatchError,
    )
    from ._planchecks import (
        DeferredReason,
        ExpectActionCounts,
        ExpectCount,
        ExpectDeferredChange,
        ExpectDrift,
        ExpectEachKnownValue,
        ExpectEachNullValue,
        ExpectEachSensitiveValue,
        ExpectEachUnknownValue,
        ExpectEmptyPlan,
        ExpectKnownOutputValue,
        ExpectKnownOutputValueAtPath,
        ExpectKnownValue,
        ExpectNoDeferredChanges,
        ExpectNoDestroys,
        ExpectNoDrift,
        ExpectNonEmptyPlan,
        ExpectNoReplacements,
        ExpectNoResourceChanges,
        ExpectNoValue,
        ExpectNullOutputValue,
        ExpectNullOutputValueAtPath,
        ExpectOnlyOutputChanges,
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
    from ._redact import SENSITIVE, Secrets, revealing_sensitive

__all__ = [
    "Change",
    "CheckFailedError",
    "CheckFailure",
    "ConfigCheckError",
    "DeferredChange",
    "DeferredReason",
    "DocumentFormatError",
    "ErroredPlanError",
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
    "OutputChange",
    "Plan",
    "PlanCheck",
    "PlanCheckError",
    "PlanCheckWarning",
    "PlanFormatError",
    "ResolvedValue",
    "ResourceAction",
    "ResourceChange",
    "ResourceNotFoundError",
    "Resources",
    "SENSITIVE",
    "Secrets",
    "State",
    "StateCheckError",
    "StateFormatError",
    "StateOutput",
    "StateResource",
    "TfCheckError",
    "ValueMismatchError",
    "ValueStatus",
    "assert_plan",
    "compare",
    "knownvalue",
    "load_plan",
    "load_state",
    "querycheck",
    "resolve_value",
    "revealing_sensitive",
    "snapshot",
    "statecheck",
]

_PUBLIC: dict[str, tuple[str, str | None]] = {
    "Change": ("plancheck._documents.plan", 'Change'),
    "CheckFailedError": ("plancheck._errors", 'CheckFailedError'),
    "CheckFailure": ("plancheck._errors", 'CheckFailure'),
    "ConfigCheckError": ("plancheck._errors", 'ConfigCheckError'),
    "DeferredChange": ("plancheck._documents.plan", 'DeferredChange'),
    "DeferredReason": ("plancheck._planchecks", 'DeferredReason'),
    "DocumentFormatError": ("plancheck._errors", 'DocumentFormatError'),
    "ErroredPlanError": ("plancheck._errors", 'ErroredPlanError'),
    "ExpectActionCounts": ("plancheck._planchecks", 'ExpectActionCounts'),
    "ExpectCount": ("plancheck._planchecks", 'ExpectCount'),
    "ExpectDeferredChange": ("plancheck._planchecks", 'ExpectDeferredChange'),
    "ExpectDrift": ("plancheck._planchecks", 'ExpectDrift'),
    "ExpectEachKnownValue": ("plancheck._planchecks", 'ExpectEachKnownValue'),
    "ExpectEachNullValue": ("plancheck._planchecks", 'ExpectEachNullValue'),
    "ExpectEachSensitiveValue": ("plancheck._planchecks", 'ExpectEachSensitiveValue'),
    "ExpectEachUnknownValue": ("plancheck._planchecks", 'ExpectEachUnknownValue'),
    "ExpectEmptyPlan": ("plancheck._planchecks", 'ExpectEmptyPlan'),
    "ExpectKnownOutputValue": ("plancheck._planchecks", 'ExpectKnownOutputValue'),
    "ExpectKnownOutputValueAtPath": ("plancheck._planchecks", 'ExpectKnownOutputValueAtPath'),
    "ExpectKnownValue": ("plancheck._planchecks", 'ExpectKnownValue'),
    "ExpectNoDeferredChanges": ("plancheck._planchecks", 'ExpectNoDeferredChanges'),
    "ExpectNoDestroys": ("plancheck._planchecks", 'ExpectNoDestroys'),
    "ExpectNoDrift": ("plancheck._planchecks", 'ExpectNoDrift'),
    "ExpectNoReplacements": ("plancheck._planchecks", 'ExpectNoReplacements'),
    "ExpectNoResourceChanges": ("plancheck._planchecks", 'ExpectNoResourceChanges'),
    "ExpectNoValue": ("plancheck._planchecks", 'ExpectNoValue'),
    "ExpectNonEmptyPlan": ("plancheck._planchecks", 'ExpectNonEmptyPlan'),
    "ExpectNullOutputValue": ("plancheck._planchecks", 'ExpectNullOutputValue'),
    "ExpectNullOutputValueAtPath": ("plancheck._planchecks", 'ExpectNullOutputValueAtPath'),
    "ExpectOnlyOutputChanges": ("plancheck._planchecks", 'ExpectOnlyOutputChanges'),
    "ExpectResourceAction": ("plancheck._planchecks", 'ExpectResourceAction'),
    "ExpectResourceReplacePaths": ("plancheck._planchecks", 'ExpectResourceReplacePaths'),
    "ExpectSensitiveOutputValue": ("plancheck._planchecks", 'ExpectSensitiveOutputValue'),
    "ExpectSensitiveValue": ("plancheck._planchecks", 'ExpectSensitiveValue'),
    "ExpectUnknownOutputValue": ("plancheck._planchecks", 'ExpectUnknownOutputValue'),
    "ExpectUnknownOutputValueAtPath": ("plancheck._planchecks", 'ExpectUnknownOutputValueAtPath'),
    "ExpectUnknownValue": ("plancheck._planchecks", 'ExpectUnknownValue'),
    "OutputChange": ("plancheck._documents.plan", 'OutputChange'),
    "Plan": ("plancheck._documents.plan", 'Plan'),
    "PlanCheck": ("plancheck._planchecks", 'PlanCheck'),
    "PlanCheckError": ("plancheck._errors", 'PlanCheckError'),
    "PlanCheckWarning": ("plancheck._errors", 'PlanCheckWarning'),
    "PlanFormatError": ("plancheck._errors", 'PlanFormatError'),
    "ResolvedValue": ("plancheck._documents.resolve", 'ResolvedValue'),
    "ResourceAction": ("plancheck._documents.actions", 'ResourceAction'),
    "ResourceChange": ("plancheck._documents.plan", 'ResourceChange'),
    "ResourceNotFoundError": ("plancheck._documents.plan", 'ResourceNotFoundError'),
    "Resources": ("plancheck._documents.select", 'Resources'),
    "SENSITIVE": ("plancheck._redact", 'SENSITIVE'),
    "Secrets": ("plancheck._redact", 'Secrets'),
    "State": ("plancheck._documents.state", 'State'),
    "StateCheckError": ("plancheck._errors", 'StateCheckError'),
    "StateFormatError": ("plancheck._errors", 'StateFormatError'),
    "StateOutput": ("plancheck._documents.state", 'StateOutput'),
    "StateResource": ("plancheck._documents.state", 'StateResource'),
    "TfCheckError": ("plancheck._errors", 'TfCheckError'),
    "ValueMismatchError": ("plancheck._errors", 'ValueMismatchError'),
    "ValueStatus": ("plancheck._documents.resolve", 'ValueStatus'),
    "assert_plan": ("plancheck._planchecks", 'assert_plan'),
    "compare": ("plancheck.compare", None),
    "knownvalue": ("plancheck.knownvalue", None),
    "load_plan": ("plancheck._documents.plan", 'load_plan'),
    "load_state": ("plancheck._documents.state", 'load_state'),
    "querycheck": ("plancheck.querycheck", None),
    "resolve_value": ("plancheck._documents.resolve", 'resolve_value'),
    "revealing_sensitive": ("plancheck._redact", 'revealing_sensitive'),
    "snapshot": ("plancheck.snapshot", None),
    "statecheck": ("plancheck.statecheck", None),
}

#: Old names kept working, with a DeprecationWarning naming the new home.
_DEPRECATED: dict[str, tuple[str, str, str]] = {
    "StateCheck": ("plancheck.statecheck", "StateCheck", "plancheck.statecheck.StateCheck"),
    "assert_state": ("plancheck.statecheck", "assert_state", "plancheck.statecheck.assert_state"),
    "ResourceNotFound": ("plancheck._documents.plan", "ResourceNotFoundError", "plancheck.ResourceNotFoundError"),
}


def __getattr__(name: str) -> Any:
    if name in _PUBLIC:
        module, attribute = _PUBLIC[name]
        value = importlib.import_module(module)
        if attribute is not None:
            value = getattr(value, attribute)
        globals()[name] = value
        return value
    if name in _DEPRECATED:
        module, attribute, new = _DEPRECATED[name]
        warnings.warn(f"plancheck.{name} is deprecated; use {new}", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(module), attribute)
    raise AttributeError(f"module 'plancheck' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
