"""Acceptance tests against a real Terraform or OpenTofu, after Go's ``helper/resource``.

A :class:`TestCase` is a list of :class:`TestStep`; each step's configuration is planned and
applied in the case's own directory, with plan checks (:class:`ConfigPlanChecks`) and state
checks along the way; the case is destroyed at the end, also after a failure. In pytest the
``tf_acceptance`` fixture gives an :class:`AcceptanceRunner`::

    def test_null(tf_acceptance):
        tf_acceptance.run(TestCase(steps=[TestStep(config=HCL, config_plan_checks=...)]))

A failure raises :class:`AcceptanceError` (an ``AssertionError``) naming the step, the stage,
the command and its output, with every secret shown as ``(sensitive)``.

>>> from plancheck.acceptance import TestCase, TestStep, Sensitive
>>> case = TestCase(steps=[
...     TestStep(config='variable "pw" { sensitive = true }', variables={"pw": Sensitive("hunter2")}),
...     TestStep(config="bad", expect_error=r"Argument or block definition required"),
... ])
>>> len(case.steps), case.steps[0].variables["pw"]
(2, Sensitive((sensitive)))
"""

from .._terraform import TerraformBinary, TerraformNotFoundError, discover_terraform
from ._case import ConfigPlanChecks, Sensitive, TestCase, TestStep
from ._errors import AcceptanceError, Stage, TestDefinitionError
from ._providers import (
    ExternalProviders,
    ProviderServer,
    ProviderServerError,
    ProvidersNotInstalledError,
    ReattachConfig,
    ReattachProvider,
)
from ._runner import AcceptanceRunner

__all__ = [
    "AcceptanceError",
    "AcceptanceRunner",
    "ConfigPlanChecks",
    "ExternalProviders",
    "ProviderServer",
    "ProviderServerError",
    "ProvidersNotInstalledError",
    "ReattachConfig",
    "ReattachProvider",
    "Sensitive",
    "Stage",
    "TerraformBinary",
    "TerraformNotFoundError",
    "TestCase",
    "TestDefinitionError",
    "TestStep",
    "discover_terraform",
]
