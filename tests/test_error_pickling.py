"""Every public error survives pickling (pytest-xdist and multiprocessing ship errors between processes).

The errors pickle as their fields (``tfjsonpath._errors.PicklesFields``), not through their
constructors: the table holds one instance of each public exception class, and a completeness
test keeps it whole.
"""

from __future__ import annotations

import importlib
import inspect
import pickle
from typing import Any

import pytest

from plancheck import (
    ArgumentError,
    CheckFailedError,
    CheckFailure,
    ConfigCheckError,
    DocumentFormatError,
    ErroredPlanError,
    NotPicklableError,
    PlanCheckError,
    PlanCheckWarning,
    PlanFormatError,
    RegexTimeoutError,
    ResourceNotFoundError,
    Secrets,
    StateCheckError,
    StateFormatError,
    TfCheckError,
    ValueMismatchError,
)
from plancheck.acceptance import (
    AcceptanceError,
    ComposedCheckError,
    LeftoverRecordError,
    MockNotPicklableError,
    MockPlanArgumentError,
    MockPlanError,
    MockPlanFailedError,
    MockSchemaError,
    ProviderServerError,
    ProvidersNotInstalledError,
    Stage,
    SweepFailedError,
    SweepResult,
    Terminated,
    TerraformNotFoundError,
    TestCheckFuncError,
    TestDefinitionError,
)
from plancheck.querycheck import ErroredQueryError, QueryCheckError, QueryCheckWarning, QueryFormatError
from plancheck.snapshot import SnapshotFormatError, SnapshotMismatchError, SnapshotMissingError
from plancheck.tfconfig import ConfigFormatError, TemplateSyntaxError
from plancheck.tfversion import VersionError
from tfjsonpath import (
    New,
    Path,
    PathArgumentError,
    PathNotFoundError,
    PathSyntaxError,
    TfJsonPathError,
    Traverse,
)

PUBLIC_MODULES = (
    "tfjsonpath", "plancheck", "plancheck.knownvalue", "plancheck.compare", "plancheck.statecheck",
    "plancheck.querycheck", "plancheck.tfconfig", "plancheck.tfversion", "plancheck.snapshot", "plancheck.acceptance",
)

_FAILURE = CheckFailure("ExpectKnownValue", "null_resource.a", New("a"), "expected 1, got 2")


def _path_not_found() -> PathNotFoundError:
    with pytest.raises(PathNotFoundError) as caught:
        Traverse({"a": [1]}, New("a").AtSliceIndex(3))
    return caught.value


def _path_syntax() -> PathSyntaxError:
    with pytest.raises(PathSyntaxError) as caught:
        Path.parse("a[")
    return caught.value


ERRORS: list[Any] = [
    pytest.param(lambda: TfJsonPathError("plain"), id="TfJsonPathError"),
    pytest.param(_path_not_found, id="PathNotFoundError"),
    pytest.param(_path_syntax, id="PathSyntaxError"),
    pytest.param(lambda: PathArgumentError("AtSliceIndex() index must be >= 0, got -1"), id="PathArgumentError"),
    pytest.param(lambda: TfCheckError("plain"), id="TfCheckError"),
    pytest.param(lambda: ArgumentError("StringExact expects a str, got int"), id="ArgumentError"),
    pytest.param(lambda: CheckFailedError([_FAILURE]), id="CheckFailedError"),
    pytest.param(lambda: PlanCheckError([_FAILURE]), id="PlanCheckError"),
    pytest.param(lambda: StateCheckError([_FAILURE]), id="StateCheckError"),
    pytest.param(lambda: ConfigCheckError([_FAILURE]), id="ConfigCheckError"),
    pytest.param(lambda: QueryCheckError([_FAILURE]), id="QueryCheckError"),
    pytest.param(lambda: DocumentFormatError("$.a", "an array", found="a bool", source="d.json"), id="DocumentFormatError"),
    pytest.param(lambda: PlanFormatError("$.a", "an array", found="a bool", source="p.json"), id="PlanFormatError"),
    pytest.param(lambda: StateFormatError("$.a", "an array"), id="StateFormatError"),
    pytest.param(lambda: ErroredPlanError("plan.json"), id="ErroredPlanError"),
    pytest.param(lambda: QueryFormatError("$.a", "an integer", found="a string", source="q.jsonl", line=4),
                 id="QueryFormatError"),
    pytest.param(lambda: ErroredQueryError("Invalid list block", source="q.jsonl", line=4), id="ErroredQueryError"),
    pytest.param(lambda: ConfigFormatError("$.resource", "an object", found="a string", source="main.tf.json",
                                           line=2, column=7), id="ConfigFormatError"),
    pytest.param(lambda: PlanCheckWarning("careful", _FAILURE), id="PlanCheckWarning"),
    pytest.param(lambda: QueryCheckWarning("assert_query: partial", _FAILURE), id="QueryCheckWarning"),
    pytest.param(lambda: ResourceNotFoundError("null_resource.b", ["null_resource.a"], "the state"),
                 id="ResourceNotFoundError"),
    pytest.param(lambda: ValueMismatchError(New("a"), "differs", expected="1", actual="2"), id="ValueMismatchError"),
    pytest.param(lambda: RegexTimeoutError("StringRegexp", 10.0, 50_000), id="RegexTimeoutError"),
    pytest.param(lambda: TemplateSyntaxError(6, "unclosed '${'"), id="TemplateSyntaxError"),
    pytest.param(lambda: VersionError("SkipBelow(minimum)", "not a version: 'one'"), id="VersionError"),
    pytest.param(lambda: SnapshotFormatError("s.ambr", 3, "a block header", found="text"), id="SnapshotFormatError"),
    pytest.param(lambda: SnapshotMismatchError("s.ambr", ["- a", "+ b"]), id="SnapshotMismatchError"),
    pytest.param(lambda: SnapshotMissingError("s.ambr"), id="SnapshotMissingError"),
    pytest.param(lambda: AcceptanceError(2, 3, Stage.APPLY, "apply failed", command="terraform apply", exit_code=1,
                                         output="Error: boom", also=("check_destroy failed",)), id="AcceptanceError"),
    pytest.param(lambda: ComposedCheckError(3, [(1, "boom"), (3, "bang")]), id="ComposedCheckError"),
    pytest.param(lambda: LeftoverRecordError("/l/x/leftover.json", "not valid JSON"), id="LeftoverRecordError"),
    pytest.param(lambda: MockSchemaError("$.resource_schemas.t", "expected an object", type_name="t",
                                         attribute="a", expected="a string", suggestions=("b",)), id="MockSchemaError"),
    pytest.param(lambda: MockPlanError("a mocked plan failed"), id="MockPlanError"),
    pytest.param(lambda: MockPlanArgumentError("mocks", "mocks[0]: expected a MockProvider, got str"),
                 id="MockPlanArgumentError"),
    pytest.param(lambda: MockPlanFailedError("plan", "terraform plan failed:\nError: x"), id="MockPlanFailedError"),
    pytest.param(lambda: NotPicklableError("ResourceChange"), id="NotPicklableError"),
    pytest.param(lambda: MockNotPicklableError("the mock of example.com/acme/cloud", 'mock_resources["cloud_bucket"]',
                                               "<lambda>"), id="MockNotPicklableError"),
    pytest.param(lambda: ProviderServerError("example.com/acme/widget", "the factory raised"), id="ProviderServerError"),
    pytest.param(lambda: ProvidersNotInstalledError("No module named 'tf'"), id="ProvidersNotInstalledError"),
    pytest.param(lambda: SweepFailedError(SweepResult({"r1": {"a": "boom", "b": None}})), id="SweepFailedError"),
    pytest.param(lambda: Terminated(15), id="Terminated"),
    pytest.param(lambda: TerraformNotFoundError("/nope/terraform", "no such file"), id="TerraformNotFoundError"),
    pytest.param(lambda: TestCheckFuncError("TestCheckResourceAttr", "null_resource.a", "id", "not set"),
                 id="TestCheckFuncError"),
    pytest.param(lambda: TestDefinitionError("TestStep.plan_only", "expected a bool, got str"), id="TestDefinitionError"),
]


def _fields(error: BaseException) -> dict[str, Any]:
    return {name: value for name, value in vars(error).items() if name != "errors"}


@pytest.mark.parametrize("make", ERRORS)
def test_an_error_pickles_with_its_type_text_and_fields(make: Any) -> None:
    error = make()
    for protocol in (0, pickle.HIGHEST_PROTOCOL):
        copy = pickle.loads(pickle.dumps(error, protocol))
        assert type(copy) is type(error)
        assert (str(copy), copy.args) == (str(error), error.args)
        assert repr(_fields(copy)) == repr(_fields(error))


def test_composed_errors_leave_the_check_functions_own_errors_behind() -> None:
    class Unpicklable(Exception):
        def __init__(self, a: int, b: int) -> None:
            super().__init__(f"{a} {b} hunter2-secret")

    error = ComposedCheckError(2, [(1, "(sensitive) is wrong")], [Unpicklable(1, 2)])
    copy = pickle.loads(pickle.dumps(error))
    assert (str(copy), copy.failures, copy.errors) == (str(error), error.failures, ())


def test_a_secret_the_error_was_told_about_does_not_travel() -> None:
    error = ResourceNotFoundError("null_resource.a", ["null_resource.b"], secrets=Secrets(["hunter2-secret"]))
    assert b"hunter2-secret" not in pickle.dumps(error)


def _public_exceptions() -> set[str]:
    found = set()
    for name in PUBLIC_MODULES:
        module = importlib.import_module(name)
        for attribute in module.__all__:
            value = getattr(module, attribute)
            if inspect.isclass(value) and issubclass(value, BaseException):
                found.add(value.__name__)
    return found


def test_the_table_holds_every_public_exception() -> None:
    assert {param.id for param in ERRORS} == _public_exceptions()
