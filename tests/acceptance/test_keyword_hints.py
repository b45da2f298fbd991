"""A Go field name or a misspelt keyword given to TestCase, TestStep or the runner's constructors names the one meant.

Go users port ``resource.TestStep{Config: ...}`` line by line; Python's own TypeError only says the keyword is
unexpected. The porting guide's tables (every Go ``TestCase``/``TestStep`` field and its Python keyword) are the
reference: each Go field the guide gives a keyword for is answered with that keyword, the others with no guess.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest

from plancheck.acceptance import (
    AcceptanceRunner,
    AdditionalCLIOptions,
    ApplyOptions,
    ConfigPlanChecks,
    ExpectDiagnostic,
    ExternalProviders,
    ImportPlanChecks,
    MockProvider,
    PlanOptions,
    ReattachProvider,
    RefreshPlanChecks,
    TestCase,
    TestStep,
)

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guides" / "porting-from-go.md"

def _call(factory: Any, **kwargs: Any) -> str:
    with pytest.raises(TypeError) as caught:
        factory(**kwargs)
    return str(caught.value)


@pytest.mark.parametrize(
    ("factory", "keyword", "message"),
    [
        pytest.param(TestStep, "Config", "TestStep() got an unexpected keyword argument 'Config'; did you mean config=?",
                     id="step-go-config"),
        pytest.param(TestStep, "ConfigVariables",
                     "TestStep() got an unexpected keyword argument 'ConfigVariables'; did you mean variables=?",
                     id="step-go-renamed"),
        pytest.param(TestStep, "ImportStateId",
                     "TestStep() got an unexpected keyword argument 'ImportStateId'; did you mean import_state_id=?",
                     id="step-go-camel"),
        pytest.param(TestStep, "confg", "TestStep() got an unexpected keyword argument 'confg'; did you mean config=?",
                     id="step-typo"),
        pytest.param(TestStep, "GenerateConfig",
                     "TestStep() got an unexpected keyword argument 'GenerateConfig'; Go's GenerateConfig is not a "
                     "TestStep keyword here (see the porting guide)",
                     id="step-go-not-implemented-no-lookalike"),
        pytest.param(TestCase, "ProtoV6ProviderFactories",
                     "TestCase() got an unexpected keyword argument 'ProtoV6ProviderFactories'; did you mean providers=?",
                     id="case-go-providers"),
        pytest.param(TestCase, "Steps", "TestCase() got an unexpected keyword argument 'Steps'; did you mean steps=?",
                     id="case-go-steps"),
        pytest.param(TestCase, "IsUnitTest",
                     "TestCase() got an unexpected keyword argument 'IsUnitTest'; Go's IsUnitTest is not a TestCase "
                     "keyword here (see the porting guide)",
                     id="case-go-on-the-runner"),
        pytest.param(ConfigPlanChecks, "PreApply",
                     "ConfigPlanChecks() got an unexpected keyword argument 'PreApply'; did you mean pre_apply=?",
                     id="config-plan-checks"),
        pytest.param(RefreshPlanChecks, "PostRefresh",
                     "RefreshPlanChecks() got an unexpected keyword argument 'PostRefresh'; did you mean post_refresh=?",
                     id="refresh-plan-checks"),
        pytest.param(ImportPlanChecks, "PreApply",
                     "ImportPlanChecks() got an unexpected keyword argument 'PreApply'; did you mean pre_apply=?",
                     id="import-plan-checks"),
        pytest.param(PlanOptions, "NoRefresh",
                     "PlanOptions() got an unexpected keyword argument 'NoRefresh'; did you mean no_refresh=?",
                     id="plan-options"),
        pytest.param(ApplyOptions, "AllowDeferral",
                     "ApplyOptions() got an unexpected keyword argument 'AllowDeferral'; did you mean allow_deferral=?",
                     id="apply-options"),
        pytest.param(AdditionalCLIOptions, "Plan",
                     "AdditionalCLIOptions() got an unexpected keyword argument 'Plan'; did you mean plan=?",
                     id="additional-cli-options"),
        pytest.param(ExpectDiagnostic, "Summary",
                     "ExpectDiagnostic() got an unexpected keyword argument 'Summary'; did you mean summary=?",
                     id="expect-diagnostic"),
    ],
)
def test_unknown_keyword_names_the_one_meant(factory: Any, keyword: str, message: str) -> None:
    assert _call(factory, **{keyword: None}) == message


@pytest.mark.parametrize(("factory", "kwargs", "message"), [
    pytest.param(AcceptanceRunner, {"terraform": "/usr/bin/terraform", "work_dir": "/tmp/acc", "Timeout": 3},
                 "AcceptanceRunner() got an unexpected keyword argument 'Timeout'; did you mean timeout=?", id="runner"),
    pytest.param(ExternalProviders, {"versions": {"hashicorp/null": "3.2.2"}, "mirorr": "/m"},
                 "ExternalProviders() got an unexpected keyword argument 'mirorr'; did you mean mirror=?",
                 id="external-providers"),
    pytest.param(ReattachProvider, {"address": "example.com/acme/gadget", "Start": None},
                 "ReattachProvider() got an unexpected keyword argument 'Start'; did you mean start=?",
                 id="reattach-provider"),
    pytest.param(MockProvider, {"schema": {}, "address": "acme/cloud", "mock_resource": {}},
                 "MockProvider() got an unexpected keyword argument 'mock_resource'; did you mean mock_resources=?",
                 id="mock-provider"),
    # Both spellings given: "did you mean config=?" told a caller who had given config= to give it.
    pytest.param(TestStep, {"config": 'resource "null_resource" "a" {}', "Config": 'resource "null_resource" "a" {}'},
                 "TestStep() got an unexpected keyword argument 'Config'; Go's Config is config=, given already",
                 id="step-go-config-beside-config"),
    pytest.param(TestStep, {"variables": {}, "ConfigVariables": {}},
                 "TestStep() got an unexpected keyword argument 'ConfigVariables'; Go's ConfigVariables is variables=, "
                 "given already", id="step-go-renamed-beside-it"),
    pytest.param(TestCase, {"steps": [], "Steps": []},
                 "TestCase() got an unexpected keyword argument 'Steps'; Go's Steps is steps=, given already",
                 id="case-go-steps-beside-steps"),
    pytest.param(TestStep, {"config": 'resource "null_resource" "a" {}', "confg": "x"},
                 "TestStep() got an unexpected keyword argument 'confg'; did you mean config=? config= is given already",
                 id="step-typo-beside-config"),
])
def test_the_runner_and_its_providers_name_the_keyword_meant(factory: Any, kwargs: dict[str, Any], message: str) -> None:
    assert _call(factory, **kwargs) == message


@pytest.mark.parametrize(
    ("factory", "kwargs", "error"),
    [
        pytest.param(TestStep, {"xyzzy": 1}, "TestStep.__init__() got an unexpected keyword argument 'xyzzy'",
                     id="nothing-alike-python-error-kept"),
        pytest.param(TestStep, {"config": 5},
                     "TestStep.config: expected HCL text (str), a JSON-syntax dict or a config function, got int",
                     id="known-keyword-own-error-kept"),
    ],
)
def test_other_errors_are_left_as_they_are(factory: Any, kwargs: dict[str, Any], error: str) -> None:
    with pytest.raises((TypeError, ValueError)) as caught:
        factory(**kwargs)
    assert str(caught.value) == error


def _guide_rows() -> list[tuple[str, str, str]]:
    """(class, Go field, Python column) of the guide's two field tables."""
    rows: list[tuple[str, str, str]] = []
    table = None
    for line in GUIDE.read_text(encoding="utf-8").splitlines():
        head = re.match(r"\| Go `(TestCase|TestStep)` field \|", line)
        if head:
            table = head.group(1)
            continue
        if table is None or not line.startswith("| `"):
            table = None if not line.startswith("|") else table
            continue
        go, python = (cell.strip() for cell in line.split("|")[1:3])
        names = re.findall(r"`([A-Za-z0-9]+)`", go)
        # A row of several fields pairs them with its Python column's parts ("`providers` / not applicable",
        # "`query=True`, `query_result_checks=[...]`"); otherwise every field of the row has the whole column.
        parts = python.split(" / ") if " / " in python else re.findall(r"`[^`]*`", python)
        rows.extend(zip([table] * len(names), names, parts if len(parts) == len(names) else [python] * len(names), strict=True))
    return rows


def _keyword(python: str) -> str:
    """The keyword a row of the guide names ("" when it names none the constructor takes)."""
    match = re.match(r"`([a-z_]+)(?:=[^`]*)?`", python)
    return match.group(1) if match else ""


def test_the_guide_lists_both_tables() -> None:
    tables = {table for table, _, _ in _guide_rows()}
    assert tables == {"TestCase", "TestStep"}


@pytest.mark.parametrize(("table", "go", "python"), _guide_rows(), ids=lambda value: str(value)[:40])
def test_every_go_field_of_the_guide_gets_its_keyword(table: str, go: str, python: str) -> None:
    factory: Any = {"TestCase": TestCase, "TestStep": TestStep}[table]
    keyword = _keyword(python)
    if keyword in {field.name for field in dataclasses.fields(factory)}:
        expected = f"did you mean {keyword}=?"
    else:
        expected = f"Go's {go} is not a {table} keyword here (see the porting guide)"
    assert _call(factory, **{go: None}).endswith(expected)
