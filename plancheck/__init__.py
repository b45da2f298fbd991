"""plancheck: assertions on Terraform and OpenTofu JSON plans, states and configurations.

>>> from plancheck import Plan
>>> from tfjsonpath import New
>>> plan = Plan.from_json('{"format_version": "1.2", "resource_changes": [{"address": "null_resource.a", '
...     '"change": {"actions": ["create"], "after": {}, "after_unknown": {"id": true}}}]}')
>>> plan.resource_change("null_resource.a").actions
('create',)
"""

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
from ._load import load_plan
from ._plan import Change, DeferredChange, OutputChange, Plan, ResourceChange, ResourceNotFound
from ._redact import SENSITIVE, Secrets, revealing_sensitive
from ._values import ResolvedValue, ValueStatus, resolve_value

__all__ = [
    "SENSITIVE",
    "Change",
    "CheckFailedError",
    "CheckFailure",
    "ConfigCheckError",
    "DeferredChange",
    "DocumentFormatError",
    "OutputChange",
    "Plan",
    "PlanCheckError",
    "PlanFormatError",
    "ResolvedValue",
    "ResourceChange",
    "ResourceNotFound",
    "Secrets",
    "StateCheckError",
    "StateFormatError",
    "TfCheckError",
    "ValueMismatchError",
    "ValueStatus",
    "load_plan",
    "resolve_value",
    "revealing_sensitive",
]
