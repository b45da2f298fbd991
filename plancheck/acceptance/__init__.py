"""Acceptance tests against a real Terraform or OpenTofu, after Go's ``helper/resource``.

A :class:`TestCase` is a list of :class:`TestStep`; each step's configuration is planned and
applied in the case's own directory, with plan checks (:class:`ConfigPlanChecks`) and state
checks along the way; the case is destroyed at the end, also after a failure. In pytest the
``tf_acceptance`` fixture gives an :class:`AcceptanceRunner`::

    def test_null(tf_acceptance):
        tf_acceptance.run(TestCase(steps=[TestStep(config=HCL, config_plan_checks=...)]))

A failure raises :class:`AcceptanceError` (an ``AssertionError``) naming the step, the stage,
the command and its output, with every secret shown as ``(sensitive)``.

Besides config steps there are Go's import steps (``import_state=True``, see
:class:`ImportStateKind`), refresh steps (``refresh_state=True``), ``destroy`` and ``taint``
steps, ``check`` functions, and configuration sources (:mod:`plancheck.acceptance.config`).
As in Go, :meth:`AcceptanceRunner.run` skips unless ``TF_ACC`` is set.

>>> from plancheck.acceptance import TestCase, TestStep, Sensitive
>>> case = TestCase(steps=[
...     TestStep(config='variable "pw" { sensitive = true }', variables={"pw": Sensitive("hunter2")}),
...     TestStep(config="bad", expect_error=r"Argument or block definition required"),
... ])
>>> len(case.steps), case.steps[0].variables["pw"]
(2, Sensitive((sensitive)))
>>> TestStep(import_state=True, resource_name="widget_thing.t", import_state_verify=True).import_state_verify
True

``expect_diagnostics`` matches what Terraform's JSON output reports, field by field, and a case with
``fail_on_warnings=True`` fails on a warning a step neither expects nor allows:

>>> from plancheck.acceptance import ExpectDiagnostic
>>> TestCase(fail_on_warnings=True, steps=[TestStep(
...     config='data "terraform_remote_state" "x" { backend = "nope" }',
...     expect_diagnostics=[ExpectDiagnostic("error", "Invalid backend configuration",
...                                          address="data.terraform_remote_state.x")],
...     allow_warnings=["Attribute deprecated"])]).fail_on_warnings
True
"""

from .._loading.lifecycle import Terminated
from .._terraform.binary import TerraformBinary, TerraformNotFoundError, discover_terraform
from .._terraform.mock.plan import MockPlanArgumentError, MockPlanError, MockPlanFailedError
from .._terraform.mock.provider import MockCall, MockProvider
from .._terraform.mock.schema import MockNotPicklableError, MockSchemaError
from .._terraform.providers.factory import ExternalProviders, ReattachConfig, ReattachProvider
from .._terraform.providers.server import ProviderServer, ProviderServerError, ProvidersNotInstalledError
from . import config as config
from . import echoprovider as echoprovider
from ._case import ConfigPlanChecks, ImportPlanChecks, RefreshPlanChecks, Sensitive, TestCase, TestStep
from ._diagnostics import ExpectDiagnostic
from ._errors import (
    AcceptanceError,
    ComposedCheckError,
    LeftoverRecordError,
    Stage,
    TestCheckFuncError,
    TestDefinitionError,
)
from ._options import AdditionalCLIOptions, ApplyOptions, ImportStateKind, PlanOptions
from ._runner import DEFAULT_TIMEOUT, AcceptanceRunner, destroy_leftovers, mock_plan
from ._statefiles import LEFTOVERS_ENV, Leftover, LeftoverResult, default_leftovers_dir, find_leftovers
from ._sweep import (
    AddTestSweepers,
    Sweeper,
    SweepFailedError,
    SweepResult,
    filter_sweepers,
    registered_sweepers,
    run_sweepers,
)
from ._testcheck.flatmap import FlatAttributes, FlatOutput, FlatState, flatten
from ._testcheck.funcs import (
    CheckFunc,
    ComposeAggregateTestCheckFunc,
    ComposeTestCheckFunc,
    TestCheckModuleNoResourceAttr,
    TestCheckModuleResourceAttr,
    TestCheckModuleResourceAttrPair,
    TestCheckModuleResourceAttrPtr,
    TestCheckModuleResourceAttrSet,
    TestCheckNoResourceAttr,
    TestCheckOutput,
    TestCheckResourceAttr,
    TestCheckResourceAttrPair,
    TestCheckResourceAttrPtr,
    TestCheckResourceAttrSet,
    TestCheckResourceAttrWith,
    TestCheckTypeSetElemAttr,
    TestCheckTypeSetElemAttrPair,
    TestCheckTypeSetElemNestedAttrs,
    TestMatchOutput,
    TestMatchResourceAttr,
    TestMatchTypeSetElemNestedAttrs,
    TestModuleMatchResourceAttr,
)

__all__ = [
    "AcceptanceError",
    "AcceptanceRunner",
    "AddTestSweepers",
    "AdditionalCLIOptions",
    "ApplyOptions",
    "CheckFunc",
    "ComposeAggregateTestCheckFunc",
    "ComposeTestCheckFunc",
    "ComposedCheckError",
    "ConfigPlanChecks",
    "DEFAULT_TIMEOUT",
    "ExpectDiagnostic",
    "ExternalProviders",
    "FlatAttributes",
    "FlatOutput",
    "FlatState",
    "ImportPlanChecks",
    "ImportStateKind",
    "LEFTOVERS_ENV",
    "Leftover",
    "LeftoverRecordError",
    "LeftoverResult",
    "MockCall",
    "MockNotPicklableError",
    "MockPlanArgumentError",
    "MockPlanError",
    "MockPlanFailedError",
    "MockProvider",
    "MockSchemaError",
    "PlanOptions",
    "ProviderServer",
    "ProviderServerError",
    "ProvidersNotInstalledError",
    "ReattachConfig",
    "ReattachProvider",
    "RefreshPlanChecks",
    "Sensitive",
    "Stage",
    "SweepFailedError",
    "SweepResult",
    "Sweeper",
    "Terminated",
    "TerraformBinary",
    "TerraformNotFoundError",
    "TestCase",
    "TestCheckFuncError",
    "TestCheckModuleNoResourceAttr",
    "TestCheckModuleResourceAttr",
    "TestCheckModuleResourceAttrPair",
    "TestCheckModuleResourceAttrPtr",
    "TestCheckModuleResourceAttrSet",
    "TestCheckNoResourceAttr",
    "TestCheckOutput",
    "TestCheckResourceAttr",
    "TestCheckResourceAttrPair",
    "TestCheckResourceAttrPtr",
    "TestCheckResourceAttrSet",
    "TestCheckResourceAttrWith",
    "TestCheckTypeSetElemAttr",
    "TestCheckTypeSetElemAttrPair",
    "TestCheckTypeSetElemNestedAttrs",
    "TestDefinitionError",
    "TestMatchOutput",
    "TestMatchResourceAttr",
    "TestMatchTypeSetElemNestedAttrs",
    "TestModuleMatchResourceAttr",
    "TestStep",
    "config",
    "default_leftovers_dir",
    "destroy_leftovers",
    "discover_terraform",
    "echoprovider",
    "filter_sweepers",
    "find_leftovers",
    "flatten",
    "mock_plan",
    "registered_sweepers",
    "run_sweepers",
]
