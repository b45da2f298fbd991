"""Public classes show their public module (as users import them), and old names warn, then work."""

from __future__ import annotations

import importlib
import pickle
import warnings

import pytest

import plancheck
import tfjsonpath
from plancheck import acceptance, querycheck, snapshot, statecheck, tfconfig, tfversion

PUBLIC_ERRORS = [
    (plancheck, "TfCheckError"),
    (plancheck, "DocumentFormatError"),
    (plancheck, "PlanFormatError"),
    (plancheck, "StateFormatError"),
    (plancheck, "CheckFailedError"),
    (plancheck, "PlanCheckError"),
    (plancheck, "StateCheckError"),
    (plancheck, "ConfigCheckError"),
    (plancheck, "ValueMismatchError"),
    (plancheck, "ResourceNotFoundError"),
    (plancheck, "CheckFailure"),
    (tfconfig, "ConfigFormatError"),
    (querycheck, "QueryFormatError"),
    (querycheck, "QueryCheckError"),
    (acceptance, "AcceptanceError"),
    (acceptance, "TestDefinitionError"),
    (acceptance, "TerraformNotFoundError"),
    (acceptance, "ProviderServerError"),
    (acceptance, "ProvidersNotInstalledError"),
    (acceptance, "TestCheckFuncError"),
    (acceptance, "ComposedCheckError"),
    (acceptance, "MockSchemaError"),
    (tfversion, "VersionError"),
    (snapshot, "SnapshotFormatError"),
    (snapshot, "SnapshotMismatchError"),
    (snapshot, "SnapshotMissingError"),
    (tfjsonpath, "TfJsonPathError"),
    (tfjsonpath, "PathNotFoundError"),
    (tfjsonpath, "PathSyntaxError"),
    (plancheck, "PlanCheckWarning"),
]


@pytest.mark.parametrize(("module", "name"), PUBLIC_ERRORS, ids=[f"{m.__name__}.{n}" for m, n in PUBLIC_ERRORS])
def test_errors_name_their_public_module(module: object, name: str) -> None:
    cls = getattr(module, name)
    assert cls.__module__ == module.__name__  # type: ignore[attr-defined]
    # The name a traceback shows resolves to the class itself (and so pickling finds it).
    assert getattr(importlib.import_module(cls.__module__), cls.__qualname__) is cls


@pytest.mark.parametrize(("module", "name"), PUBLIC_ERRORS[:10], ids=[n for _, n in PUBLIC_ERRORS[:10]])
def test_everything_plancheck_raises_derives_from_its_base(module: object, name: str) -> None:
    assert issubclass(getattr(module, name), plancheck.TfCheckError) or name == "CheckFailure"


def test_resource_not_found_error_is_a_lookup_error_and_pickles() -> None:
    plan = plancheck.Plan.from_dict({"format_version": "1.2", "resource_changes": []})
    with pytest.raises(plancheck.ResourceNotFoundError) as info:
        plan.resource_change("null_resource.a")
    assert isinstance(info.value, LookupError)
    assert str(pickle.loads(pickle.dumps(info.value))) == str(info.value)
    assert str(info.value).startswith("resource 'null_resource.a' is not in the plan")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        pytest.param("ResourceNotFound", plancheck.ResourceNotFoundError,
                     "plancheck.ResourceNotFound is deprecated; use plancheck.ResourceNotFoundError", id="ResourceNotFound"),
        pytest.param("StateCheck", statecheck.StateCheck,
                     "plancheck.StateCheck is deprecated; use plancheck.statecheck.StateCheck", id="StateCheck"),
        pytest.param("assert_state", statecheck.assert_state,
                     "plancheck.assert_state is deprecated; use plancheck.statecheck.assert_state", id="assert_state"),
    ],
)
def test_old_names_warn_and_work(old: str, new: object, message: str) -> None:
    with pytest.warns(DeprecationWarning, match="is deprecated") as record:
        value = getattr(plancheck, old)
    assert value is new
    assert [str(w.message) for w in record] == [message]
    assert old not in plancheck.__all__


def test_public_names_need_no_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name in plancheck.__all__:
            assert getattr(plancheck, name) is not None


def test_unknown_attribute() -> None:
    with pytest.raises(AttributeError, match=r"^module 'plancheck' has no attribute 'Nope'$"):
        plancheck.Nope  # noqa: B018


def test_the_lazy_table_the_type_imports_and_all_name_the_same_names() -> None:
    import ast
    from pathlib import Path

    tree = ast.parse(Path(plancheck.__file__).read_text(encoding="utf-8"))
    typed = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    } - {"annotations", "TYPE_CHECKING", "Any"}
    lazy = set(plancheck._PUBLIC)  # type: ignore[attr-defined]
    assert set(plancheck.__all__) == lazy == typed
