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
    from ._checks import (
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
        PlanCheckError,
        PlanCheckWarning,
        PlanFormatError,
        StateCheckError,
        StateFormatError,
        TfCheckError,
        ValueMismatchError,
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
    "DeferredReason": ("plancheck._checks", 'DeferredReason'),
    "DocumentFormatError": ("plancheck._errors", 'DocumentFormatError'),
    "ExpectActionCounts": ("plancheck._checks", 'ExpectActionCounts'),
    "ExpectCount": ("plancheck._checks", 'ExpectCount'),
    "ExpectDeferredChange": ("plancheck._checks", 'ExpectDeferredChange'),
    "ExpectDrift": ("plancheck._checks", 'ExpectDrift'),
    "ExpectEachKnownValue": ("plancheck._checks", 'ExpectEachKnownValue'),
    "ExpectEachNullValue": ("plancheck._checks", 'ExpectEachNullValue'),
    "ExpectEachSensitiveValue": ("plancheck._checks", 'ExpectEachSensitiveValue'),
    "ExpectEachUnknownValue": ("plancheck._checks", 'ExpectEachUnknownValue'),
    "ExpectEmptyPlan": ("plancheck._checks", 'ExpectEmptyPlan'),
    "ExpectKnownOutputValue": ("plancheck._checks", 'ExpectKnownOutputValue'),
    "ExpectKnownOutputValueAtPath": ("plancheck._checks", 'ExpectKnownOutputValueAtPath'),
    "ExpectKnownValue": ("plancheck._checks", 'ExpectKnownValue'),
    "ExpectNoDeferredChanges": ("plancheck._checks", 'ExpectNoDeferredChanges'),
    "ExpectNoDestroys": ("plancheck._checks", 'ExpectNoDestroys'),
    "ExpectNoDrift": ("plancheck._checks", 'ExpectNoDrift'),
    "ExpectNoReplacements": ("plancheck._checks", 'ExpectNoReplacements'),
    "ExpectNoResourceChanges": ("plancheck._checks", 'ExpectNoResourceChanges'),
    "ExpectNoValue": ("plancheck._checks", 'ExpectNoValue'),
    "ExpectNonEmptyPlan": ("plancheck._checks", 'ExpectNonEmptyPlan'),
    "ExpectNullOutputValue": ("plancheck._checks", 'ExpectNullOutputValue'),
    "ExpectNullOutputValueAtPath": ("plancheck._checks", 'ExpectNullOutputValueAtPath'),
    "ExpectOnlyOutputChanges": ("plancheck._checks", 'ExpectOnlyOutputChanges'),
    "ExpectResourceAction": ("plancheck._checks", 'ExpectResourceAction'),
    "ExpectResourceReplacePaths": ("plancheck._checks", 'ExpectResourceReplacePaths'),
    "ExpectSensitiveOutputValue": ("plancheck._checks", 'ExpectSensitiveOutputValue'),
    "ExpectSensitiveValue": ("plancheck._checks", 'ExpectSensitiveValue'),
    "ExpectUnknownOutputValue": ("plancheck._checks", 'ExpectUnknownOutputValue'),
    "ExpectUnknownOutputValueAtPath": ("plancheck._checks", 'ExpectUnknownOutputValueAtPath'),
    "ExpectUnknownValue": ("plancheck._checks", 'ExpectUnknownValue'),
    "OutputChange": ("plancheck._documents.plan", 'OutputChange'),
    "Plan": ("plancheck._documents.plan", 'Plan'),
    "PlanCheck": ("plancheck._checks", 'PlanCheck'),
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
    "assert_plan": ("plancheck._checks", 'assert_plan'),
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
