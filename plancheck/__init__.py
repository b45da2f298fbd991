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

import functools
import importlib
import warnings
from typing import TYPE_CHECKING, Any

# Where each public name lives: the one table. Type checkers read these imports (so a user's
# `from plancheck import ExpectKnownValue` has its type); at run time `_homes` reads the same
# lines, compiled, the first time a name is asked for, so a name is written here once and once in
# __all__ below.
if TYPE_CHECKING:
    from . import compare, knownvalue, querycheck, snapshot, statecheck
    from ._documents.actions import ActionTriggerEvent, ResourceAction
    from ._documents.plan import (
        ActionInvocation,
        Change,
        DeferredActionInvocation,
        DeferredChange,
        NotPicklableError,
        OutputChange,
        Plan,
        ResourceChange,
        ResourceNotFoundError,
        load_plan,
    )
    from ._documents.resolve import ResolvedValue, ValueStatus, resolve_value
    from ._documents.select import Actions, Resources
    from ._documents.state import State, StateOutput, StateResource, load_state
    from ._errors import (
        ArgumentError,
        CheckFailedError,
        CheckFailure,
        ConfigCheckError,
        DocumentFormatError,
        ErroredPlanError,
        PlanCheckError,
        PlanCheckWarning,
        PlanFormatError,
        RegexTimeoutError,
        StateCheckError,
        StateFormatError,
        TfCheckError,
        ValueMismatchError,
    )
    from ._planchecks.base import PlanCheck, assert_plan
    from ._planchecks.changes import (
        DeferredReason,
        ExpectActionCounts,
        ExpectActionInvocation,
        ExpectCount,
        ExpectDeferredActionInvocation,
        ExpectDeferredChange,
        ExpectEmptyPlan,
        ExpectNoActionInvocations,
        ExpectNoDeferredChanges,
        ExpectNoDestroys,
        ExpectNonEmptyPlan,
        ExpectNoReplacements,
        ExpectNoResourceChanges,
        ExpectOnlyOutputChanges,
        ExpectResourceAction,
        ExpectResourceReplacePaths,
    )
    from ._planchecks.drift import ExpectDrift, ExpectNoDrift
    from ._planchecks.each import (
        ExpectEachKnownValue,
        ExpectEachNullValue,
        ExpectEachSensitiveValue,
        ExpectEachUnknownValue,
    )
    from ._planchecks.values import (
        ExpectKnownActionConfigValue,
        ExpectKnownOutputValue,
        ExpectKnownOutputValueAtPath,
        ExpectKnownValue,
        ExpectNoValue,
        ExpectNullOutputValue,
        ExpectNullOutputValueAtPath,
        ExpectSensitiveActionConfigValue,
        ExpectSensitiveOutputValue,
        ExpectSensitiveValue,
        ExpectUnknownActionConfigValue,
        ExpectUnknownOutputValue,
        ExpectUnknownOutputValueAtPath,
        ExpectUnknownValue,
    )
    from ._redact import SENSITIVE, Secrets, revealing_sensitive
    from ._terraform.planfile import load_plan_file

__all__ = [
    "ActionInvocation",
    "ActionTriggerEvent",
    "Actions",
    "ArgumentError",
    "Change",
    "CheckFailedError",
    "CheckFailure",
    "ConfigCheckError",
    "DeferredActionInvocation",
    "DeferredChange",
    "DeferredReason",
    "DocumentFormatError",
    "ErroredPlanError",
    "ExpectActionCounts",
    "ExpectActionInvocation",
    "ExpectCount",
    "ExpectDeferredActionInvocation",
    "ExpectDeferredChange",
    "ExpectDrift",
    "ExpectEachKnownValue",
    "ExpectEachNullValue",
    "ExpectEachSensitiveValue",
    "ExpectEachUnknownValue",
    "ExpectEmptyPlan",
    "ExpectKnownActionConfigValue",
    "ExpectKnownOutputValue",
    "ExpectKnownOutputValueAtPath",
    "ExpectKnownValue",
    "ExpectNoActionInvocations",
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
    "ExpectSensitiveActionConfigValue",
    "ExpectSensitiveOutputValue",
    "ExpectSensitiveValue",
    "ExpectUnknownActionConfigValue",
    "ExpectUnknownOutputValue",
    "ExpectUnknownOutputValueAtPath",
    "ExpectUnknownValue",
    "NotPicklableError",
    "OutputChange",
    "Plan",
    "PlanCheck",
    "PlanCheckError",
    "PlanCheckWarning",
    "PlanFormatError",
    "RegexTimeoutError",
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
    "load_plan_file",
    "load_state",
    "querycheck",
    "resolve_value",
    "revealing_sensitive",
    "snapshot",
    "statecheck",
]


@functools.cache
def _homes() -> dict[str, tuple[str, str | None]]:
    """Where each public name lives, read once from the imports above (see :mod:`tfjsonpath._lazy`)."""
    from tfjsonpath._lazy import homes  # with the first name asked for: `import plancheck` imports nothing

    return homes(__spec__)


#: Old names kept working, with a DeprecationWarning naming the new home.
_DEPRECATED: dict[str, tuple[str, str, str]] = {
    "StateCheck": ("plancheck.statecheck", "StateCheck", "plancheck.statecheck.StateCheck"),
    "assert_state": ("plancheck.statecheck", "assert_state", "plancheck.statecheck.assert_state"),
    "ResourceNotFound": ("plancheck._documents.plan", "ResourceNotFoundError", "plancheck.ResourceNotFoundError"),
}


# __getattr__ only at run time: a type checker that saw one would take any name, a misspelt one too, as an
# Any. It reads the imports above instead, and the old names here (assignments: not in the table of homes).
if TYPE_CHECKING:
    StateCheck = statecheck.StateCheck
    assert_state = statecheck.assert_state
    ResourceNotFound = ResourceNotFoundError
else:

    def __getattr__(name: str) -> Any:
        if name in __all__:
            from tfjsonpath._lazy import resolve

            return resolve(globals(), _homes(), name)
        if name in _DEPRECATED:
            module, attribute, new = _DEPRECATED[name]
            warnings.warn(f"plancheck.{name} is deprecated; use {new}", DeprecationWarning, stacklevel=2)
            return getattr(importlib.import_module(module), attribute)
        raise AttributeError(f"module 'plancheck' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
