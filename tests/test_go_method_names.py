"""Go's names are the only names (#34): a ported Go test reads the same, and one thing has one name.

Every public module is found by walking the packages, and every public class and free function
by reading their ``__all__``, not listed, so a name added later is held to the rule without
editing this file. A second name is allowed only while it is deprecated (it warns, naming Go's).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import types
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import plancheck
import tfjsonpath
from plancheck import Plan, PlanCheck, State, compare, knownvalue, querycheck, statecheck, tfversion
from plancheck import knownvalue as kv
from plancheck.acceptance import Sweeper
from plancheck.compare import ValueComparer
from plancheck.knownvalue import Check
from plancheck.querycheck import QueryOutput, QueryResultCheck, queryfilter
from plancheck.querycheck.queryfilter import QueryFilter
from plancheck.statecheck import StateCheck
from tfjsonpath import New

#: (base class, Go's method name, the snake_case alias that is gone: Go's name is the only name, #34)
GO_ONLY: list[tuple[type, str, str]] = [
    (Check, "CheckValue", "check_value"),
    (PlanCheck, "CheckPlan", "check_plan"),
    (ValueComparer, "CompareValues", "compare_values"),
    (StateCheck, "CheckState", "check_state"),
    (QueryResultCheck, "CheckQuery", "check_query"),
    (QueryResultCheck, "QueryFilters", "query_filters"),
    (tfversion.VersionCheck, "CheckTerraformVersion", "check_terraform_version"),
]

MODULES: list[types.ModuleType] = [plancheck, statecheck, knownvalue, compare, querycheck, queryfilter, tfversion]


def _public_classes() -> Iterator[type]:
    seen: set[type] = set()
    for module in MODULES:
        for name in module.__all__:
            value = getattr(module, name)
            if inspect.isclass(value) and value not in seen:
                seen.add(value)
                yield value


CLASSES = sorted(_public_classes(), key=lambda c: c.__qualname__)


def _members(base: type) -> list[type]:
    return [cls for cls in CLASSES if issubclass(cls, base)]


@pytest.mark.parametrize(
    ("base", "minimum"),
    [
        pytest.param(PlanCheck, 18, id="plan-checks"),
        pytest.param(StateCheck, 10, id="state-checks"),
        pytest.param(Check, 30, id="knownvalue-checks"),
        pytest.param(ValueComparer, 5, id="comparers"),
        pytest.param(QueryResultCheck, 8, id="query-checks"),
        pytest.param(QueryFilter, 3, id="query-filters"),
        pytest.param(tfversion.VersionCheck, 12, id="version-checks"),
    ],
)
def test_the_walk_finds_every_family(base: type, minimum: int) -> None:
    assert len(_members(base)) >= minimum



@pytest.mark.parametrize(
    ("cls", "go", "gone"),
    [
        pytest.param(cls, go, gone, id=f"{cls.__qualname__}.{go}")
        for base, go, gone in GO_ONLY
        for cls in _members(base)
    ],
)
def test_go_name_is_the_only_name(cls: type, go: str, gone: str) -> None:
    assert callable(getattr(cls, go))
    assert not hasattr(cls, gone)


@pytest.mark.parametrize("cls", _members(QueryFilter), ids=lambda c: c.__qualname__)
def test_query_filters_answer_to_filter_only(cls: type) -> None:
    # Go's ``Filter`` is the method each filter implements; the Python ``include`` it once delegated to is gone.
    assert "Filter" in vars(cls)
    assert not hasattr(cls, "include")


def test_go_names_behave_the_same() -> None:
    document = {"a": [10, {"b": "x"}]}
    path = New("a").AtSliceIndex(1).AtMapKey("b")
    assert tfjsonpath.Traverse(document, path) == "x"

    with pytest.raises(plancheck.ValueMismatchError, match='expected value "y" for StringExact check, got: "x"'):
        kv.StringExact("y").CheckValue("x")

    with pytest.raises(plancheck.ValueMismatchError, match="expected values to be the same"):
        compare.ValuesSame().CompareValues(["a", "b"])

    plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [
        {"address": "null_resource.a", "change": {"actions": ["create"], "after": {}}}]})
    plancheck.ExpectResourceAction("null_resource.a", plancheck.ResourceAction.Create).CheckPlan(plan)
    with pytest.raises(plancheck.PlanCheckError):
        plancheck.ExpectEmptyPlan().CheckPlan(plan)

    state = State.from_dict({"format_version": "1.0", "values": {"outputs": {"o": {"value": 1}}}})
    statecheck.ExpectKnownOutputValue("o", kv.Int64Exact(1)).CheckState(state)
    with pytest.raises(plancheck.StateCheckError):
        statecheck.ExpectKnownOutputValue("o", kv.Int64Exact(2)).CheckState(state)

    output = QueryOutput.from_messages([{"type": "list_complete", "list_complete": {"address": "list.a.b", "total": 1}}])
    querycheck.ExpectLength("a.b", 1).CheckQuery(output)
    result = querycheck.QueryResult({"list_resource_found": {"address": "list.a.b", "display_name": "n"}})
    assert queryfilter.ByDisplayName(kv.StringExact("n")).Filter(result) is True


def _public_modules() -> list[types.ModuleType]:
    found = []
    for package in (plancheck, tfjsonpath):
        found.append(package)
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not any(part.startswith("_") for part in info.name.split(".")):
                found.append(importlib.import_module(info.name))
    return found


PUBLIC_MODULES = _public_modules()


def _spelling(name: str) -> str:
    """What a name says without its case and underscores: ``add_state_value`` and ``AddStateValue`` say the same."""
    return name.replace("_", "").lower()


def _deprecated(value: object) -> bool:
    # typing_extensions.deprecated marks what it wraps; a property carries the mark on its getter.
    return hasattr(getattr(value, "fget", value), "__deprecated__")


def _class_second_names(cls: type, free: dict[str, str]) -> list[str]:
    """A class's public members that name the same thing twice: by spelling, by identity, or beside a free function."""
    members = {name: value for klass in reversed(cls.__mro__) if klass is not object
               for name, value in vars(klass).items() if not name.startswith("_") and not _deprecated(value)}
    fields = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
    found = []
    by_spelling: dict[str, str] = {}
    by_identity: dict[int, str] = {}
    for name, value in members.items():
        if _spelling(name) in by_spelling:
            found.append(f"{cls.__qualname__}.{by_spelling[_spelling(name)]} and .{name}")
        by_spelling[_spelling(name)] = name
        if callable(value) and id(value) in by_identity:
            found.append(f"{cls.__qualname__}.{by_identity[id(value)]} and .{name} are one object")
        by_identity[id(value)] = name
        if inspect.isfunction(value) and name not in fields and _spelling(name) in free:
            found.append(f"{cls.__qualname__}.{name} and {free[_spelling(name)]}()")
    return found


def second_names(module: types.ModuleType) -> list[str]:
    """Every pair of public names in ``module`` that are one thing named twice (empty when each thing has one name)."""
    found = []
    by_spelling: dict[str, str] = {}
    by_identity: dict[int, str] = {}
    free: dict[str, str] = {}
    for name in module.__all__:
        value = getattr(module, name)
        if _spelling(name) in by_spelling:
            found.append(f"{module.__name__}.{by_spelling[_spelling(name)]} and {name}")
        by_spelling[_spelling(name)] = name
        if (inspect.isclass(value) or inspect.isfunction(value)) and id(value) in by_identity:
            found.append(f"{module.__name__}.{by_identity[id(value)]} and {name} are one object")
        by_identity[id(value)] = name
        if inspect.isfunction(value):
            free.setdefault(_spelling(name), name)
    classes = {id(c): c for c in (getattr(module, name) for name in module.__all__) if inspect.isclass(c)}
    for cls in classes.values():
        if cls.__module__ == module.__name__:
            found.extend(_class_second_names(cls, free))
    return found


def test_the_walk_finds_every_public_module() -> None:
    names = {m.__name__ for m in PUBLIC_MODULES}
    assert {"plancheck.acceptance.echoprovider", "plancheck.querycheck", "plancheck.acceptance", "tfjsonpath"} <= names
    assert len(names) >= 15


@pytest.mark.parametrize("module", PUBLIC_MODULES, ids=lambda m: m.__name__)
def test_each_thing_has_one_name(module: types.ModuleType) -> None:
    assert second_names(module) == []


def _alias_module() -> types.ModuleType:
    # A module as it would look with a second name added: each kind of pair the rule must catch.
    module = types.ModuleType("plancheck.example")

    def Traverse(value: object) -> object:
        return value

    class Check:
        def CheckValue(self, value: object) -> None:
            pass

        def check_value(self, value: object) -> None:
            self.CheckValue(value)

        Run = CheckValue

        def traverse(self, value: object) -> object:
            return Traverse(value)

    Check.__module__ = Traverse.__module__ = module.__name__
    Check.__qualname__ = "Check"
    module.__dict__.update(Traverse=Traverse, traverse=Traverse, Check=Check, Checker=Check)
    module.__all__ = ["Check", "Checker", "Traverse", "traverse"]
    return module


def test_the_rule_fails_on_a_new_alias() -> None:
    assert second_names(_alias_module()) == [
        "plancheck.example.Check and Checker are one object",
        "plancheck.example.Traverse and traverse",
        "plancheck.example.Traverse and traverse are one object",
        "Check.CheckValue and .check_value",
        "Check.CheckValue and .Run are one object",
        "Check.traverse and Traverse()",
    ]


#: (how the old name is reached, the Go name's value, the warnings, one a line): each old name works for one release.
DEPRECATED: list[Any] = [
    pytest.param(
        lambda: New("a").traverse({"a": [1]}),
        lambda: tfjsonpath.Traverse({"a": [1]}, New("a")),
        "tfjsonpath.Path.traverse is deprecated; use tfjsonpath.Traverse(document, path)",
        id="Path.traverse",
    ),
    pytest.param(
        lambda: importlib.import_module("plancheck.acceptance.echoprovider").new_provider_server()(),
        lambda: importlib.import_module("plancheck.acceptance.echoprovider").NewProviderServer()(),
        "plancheck.acceptance.echoprovider.new_provider_server is deprecated; "
        "use plancheck.acceptance.echoprovider.NewProviderServer",
        id="echoprovider.new_provider_server",
    ),
    pytest.param(
        lambda: statecheck.CompareValue(compare.ValuesSame()).add_state_value("a.b", New("x")),
        lambda: statecheck.CompareValue(compare.ValuesSame()).AddStateValue("a.b", New("x")),
        "plancheck.statecheck.CompareValue.add_state_value is deprecated; "
        "use plancheck.statecheck.CompareValue.AddStateValue",
        id="CompareValue.add_state_value",
    ),
    pytest.param(
        lambda: querycheck.KnownValueCheck(path=New("a"), known_value=kv.Null()),
        lambda: querycheck.KnownValueCheck(Path=New("a"), KnownValue=kv.Null()),
        "plancheck.querycheck.KnownValueCheck(path=...) is deprecated; use KnownValueCheck(Path=...)\n"
        "plancheck.querycheck.KnownValueCheck(known_value=...) is deprecated; use KnownValueCheck(KnownValue=...)",
        id="KnownValueCheck(path=)",
    ),
    pytest.param(
        lambda: querycheck.KnownValueCheck(New("a"), known_value=kv.Null()),
        lambda: querycheck.KnownValueCheck(New("a"), kv.Null()),
        "plancheck.querycheck.KnownValueCheck(known_value=...) is deprecated; use KnownValueCheck(KnownValue=...)",
        id="KnownValueCheck(known_value=)",
    ),
    pytest.param(
        lambda: querycheck.KnownValueCheck(New("a"), kv.Null()).path,
        lambda: querycheck.KnownValueCheck(New("a"), kv.Null()).Path,
        "plancheck.querycheck.KnownValueCheck.path is deprecated; use plancheck.querycheck.KnownValueCheck.Path",
        id="KnownValueCheck.path",
    ),
    pytest.param(
        lambda: querycheck.KnownValueCheck(New("a"), kv.Null()).known_value,
        lambda: querycheck.KnownValueCheck(New("a"), kv.Null()).KnownValue,
        "plancheck.querycheck.KnownValueCheck.known_value is deprecated; "
        "use plancheck.querycheck.KnownValueCheck.KnownValue",
        id="KnownValueCheck.known_value",
    ),
    pytest.param(
        lambda: Sweeper(name="a", f=print, dependencies=["b"]),
        lambda: Sweeper(Name="a", F=print, Dependencies=["b"]),
        "plancheck.acceptance.Sweeper(name=...) is deprecated; use Sweeper(Name=...)\n"
        "plancheck.acceptance.Sweeper(f=...) is deprecated; use Sweeper(F=...)\n"
        "plancheck.acceptance.Sweeper(dependencies=...) is deprecated; use Sweeper(Dependencies=...)",
        id="Sweeper(name=,f=,dependencies=)",
    ),
    pytest.param(
        lambda: Sweeper("a", print, ["b"]).name,
        lambda: Sweeper("a", print, ["b"]).Name,
        "plancheck.acceptance.Sweeper.name is deprecated; use plancheck.acceptance.Sweeper.Name",
        id="Sweeper.name",
    ),
    pytest.param(
        lambda: Sweeper("a", print, ["b"]).f,
        lambda: Sweeper("a", print, ["b"]).F,
        "plancheck.acceptance.Sweeper.f is deprecated; use plancheck.acceptance.Sweeper.F",
        id="Sweeper.f",
    ),
    pytest.param(
        lambda: Sweeper("a", print, ["b"]).dependencies,
        lambda: Sweeper("a", print, ["b"]).Dependencies,
        "plancheck.acceptance.Sweeper.dependencies is deprecated; use plancheck.acceptance.Sweeper.Dependencies",
        id="Sweeper.dependencies",
    ),
]


@pytest.mark.parametrize(("old", "go", "message"), DEPRECATED)
def test_old_names_warn_naming_go_and_still_work(old: Callable[[], object], go: Callable[[], object], message: str) -> None:
    with pytest.warns(DeprecationWarning, match=r"is deprecated; use ") as record:
        value = old()
    assert "\n".join(str(w.message) for w in record) == message
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        expected = go()
    assert type(value) is type(expected)
    assert repr(value) == repr(expected)


@pytest.mark.parametrize(
    ("module", "go", "old"),
    [
        pytest.param("plancheck.acceptance.echoprovider", "NewProviderServer", "new_provider_server", id="echoprovider"),
        pytest.param("plancheck.statecheck", "CompareValue", "add_state_value", id="statecheck"),
        pytest.param("plancheck.querycheck", "KnownValueCheck", "known_value", id="querycheck"),
        pytest.param("plancheck.acceptance", "Sweeper", "dependencies", id="acceptance"),
        pytest.param("tfjsonpath", "Traverse", "traverse", id="tfjsonpath"),
    ],
)
def test_go_name_is_public_and_the_old_one_is_not(module: str, go: str, old: str) -> None:
    names = importlib.import_module(module).__all__
    assert go in names
    assert old not in names


def test_two_spellings_of_one_keyword_are_refused() -> None:
    with pytest.raises(TypeError, match=r"^KnownValueCheck\(\) got both path= and Path=; use Path= only$"):
        querycheck.KnownValueCheck(Path=New("a"), path=New("a"), KnownValue=kv.Null())


def _renamed_keywords() -> list[tuple[type, str, str]]:
    """(class, old keyword, Go's) of every public value whose constructor still takes its old keywords
    (``renamed_keywords``: a wrapped ``__init__``, a deprecated property per old name, spelled as its field)."""
    found: dict[tuple[type, str, str], None] = {}
    for module in PUBLIC_MODULES:
        for cls in (getattr(module, name) for name in module.__all__):
            if not (inspect.isclass(cls) and dataclasses.is_dataclass(cls) and hasattr(cls.__init__, "__wrapped__")):
                continue
            fields = {_spelling(f.name): f.name for f in dataclasses.fields(cls)}
            for old, value in vars(cls).items():
                if _deprecated(value) and _spelling(old) in fields:
                    found[(cls, old, fields[_spelling(old)])] = None
    return list(found)


#: A value of each class whose constructor takes old keywords, and a new value for each of its fields.
EXAMPLES: dict[str, Callable[[], Any]] = {
    "Sweeper": lambda: Sweeper("a", print, ["b"]),
    "KnownValueCheck": lambda: querycheck.KnownValueCheck(New("a"), kv.Null()),
}
REPLACEMENTS: dict[str, object] = {"Name": "other", "F": len, "Dependencies": ("c",), "Path": New("b"),
                                   "KnownValue": kv.StringExact("x")}
RENAMED = _renamed_keywords()


def test_the_walk_finds_every_renamed_keyword() -> None:
    assert sorted((cls.__qualname__, old) for cls, old, _ in RENAMED) == [
        ("KnownValueCheck", "known_value"), ("KnownValueCheck", "path"),
        ("Sweeper", "dependencies"), ("Sweeper", "f"), ("Sweeper", "name")]


@pytest.mark.parametrize(("cls", "old", "go"), [pytest.param(*r, id=f"{r[0].__qualname__}.{r[1]}") for r in RENAMED])
def test_replace_takes_go_s_keyword_and_refuses_the_old_one_naming_go_s(cls: type, old: str, go: str) -> None:
    # dataclasses.replace passes every field by its name: an old keyword arrives beside Go's, as a caller's second
    # spelling of it would, and is refused as that is (naming the keyword to use), never silently preferred.
    value = EXAMPLES[cls.__qualname__]()
    new = REPLACEMENTS[go]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no DeprecationWarning either way: the old keyword was not taken
        with pytest.raises(TypeError, match=rf"^{cls.__qualname__}\(\) got both {old}= and {go}=; use {go}= only$"):
            dataclasses.replace(value, **{old: new})
        replaced = dataclasses.replace(value, **{go: new})
    assert getattr(replaced, go) == new
    assert replaced != value


# -- Go's exported names (terraform-plugin-testing v1.14: its packages' exported types, functions and constants) --

#: Every exported name of Go's check packages, by the Python module a port imports it from.
GO_EXPORTS: dict[str, str] = {
    "plancheck": (
        "CheckPlanRequest CheckPlanResponse DeferredReason DeferredReasonAbsentPrereq DeferredReasonProviderConfigUnknown "
        "DeferredReasonResourceConfigUnknown ExpectDeferredChange ExpectEmptyPlan ExpectKnownOutputValue "
        "ExpectKnownOutputValueAtPath ExpectKnownValue ExpectNoDeferredChanges ExpectNonEmptyPlan ExpectNullOutputValue "
        "ExpectNullOutputValueAtPath ExpectResourceAction ExpectSensitiveValue ExpectUnknownOutputValue "
        "ExpectUnknownOutputValueAtPath ExpectUnknownValue PlanCheck ResourceActionCreate ResourceActionCreateBeforeDestroy "
        "ResourceActionDestroy ResourceActionDestroyBeforeCreate ResourceActionNoop ResourceActionRead ResourceActionReplace "
        "ResourceActionType ResourceActionUpdate"
    ),
    "plancheck.statecheck": (
        "CheckStateRequest CheckStateResponse CompareValue CompareValueCollection CompareValuePairs CreateDeltaString "
        "ExpectIdentity ExpectIdentityValue ExpectIdentityValueMatchesState ExpectIdentityValueMatchesStateAtPath "
        "ExpectKnownOutputValue ExpectKnownOutputValueAtPath ExpectKnownValue ExpectSensitiveValue StateCheck"
    ),
    "plancheck.knownvalue": (
        "Bool BoolFunc Check Float32Exact Float32Func Float64Exact Float64Func Int32Exact Int32Func Int64Exact Int64Func "
        "ListExact ListPartial ListSizeExact MapExact MapPartial MapSizeExact NotNull Null NumberExact NumberFunc ObjectExact "
        "ObjectPartial SetExact SetPartial SetSizeExact StringExact StringFunc StringRegexp TupleExact TuplePartial "
        "TupleSizeExact"
    ),
    "plancheck.compare": "ValueComparer ValuesDiffer ValuesSame",
    "tfjsonpath": "MapStep New Path SliceStep Traverse",
    "plancheck.querycheck": (
        "CheckQueryRequest CheckQueryResponse ExpectIdentity ExpectLength ExpectLengthAtLeast ExpectNoIdentity "
        "ExpectResourceDisplayName ExpectResourceKnownValues ExpectTotalLengthForMatching KnownValueCheck QueryResultCheck "
        "QueryResultCheckWithFilters"
    ),
    "plancheck.querycheck.queryfilter": "ByDisplayName ByResourceIdentity FilterQueryRequest FilterQueryResponse QueryFilter",
    "plancheck.acceptance.echoprovider": "NewProviderServer",
}

#: Go's enum constants, which are members of one enum here ("ResourceActionNoop" is spelt as its value, NoOp).
GO_ENUM_PREFIXES = {"ResourceAction": plancheck.ResourceAction, "DeferredReason": plancheck.DeferredReason}
GO_ENUM_SPELLINGS = {"Noop": "NoOp"}

DIFFERENCES = (Path(__file__).resolve().parents[1] / "docs" / "explanation" / "differences.md").read_text(encoding="utf-8")
NOT_HERE = DIFFERENCES.partition("## Go names that are not here")[2].partition("\n## ")[0]


def _go_export_rows() -> list[Any]:
    return [pytest.param(module, name, id=f"{module}.{name}") for module, names in GO_EXPORTS.items() for name in names.split()]


@pytest.mark.parametrize(("module_name", "name"), _go_export_rows())
def test_every_go_export_is_here_or_on_the_differences_page(module_name: str, name: str) -> None:
    module = importlib.import_module(module_name)
    if hasattr(module, name) or f"`{name}`" in NOT_HERE or f"`{module_name.rpartition('.')[2]}.{name}`" in NOT_HERE:
        return
    prefix = next((p for p in GO_ENUM_PREFIXES if module is plancheck and name.startswith(p)), None)
    assert prefix is not None, f"Go's {name} is neither in {module_name} nor listed under 'Go names that are not here'"
    enum, member = GO_ENUM_PREFIXES[prefix], name.removeprefix(prefix)
    assert hasattr(enum, GO_ENUM_SPELLINGS.get(member, member)), f"{enum.__name__} has no member for Go's {name}"
    assert f"`{prefix}" in NOT_HERE
