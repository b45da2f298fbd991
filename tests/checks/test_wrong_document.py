"""A check given something that is not its document says so, by name, at every entry point.

``failures`` and ``outcome`` are public: a user's runner or a REPL calls them with what it has (a dict
read with ``json.load``, None, a State where a Plan belongs). They raise the ArgumentError ``CheckPlan`` and
``assert_plan`` raise (``require_document``), never the AttributeError or KeyError the check would meet
inside. A configuration check's ``failures`` reads a dict as its ``check_config`` does (``require_config``)
and refuses the rest with the same words. The guard is the check families' bases' (``__init_subclass__``), so every exported check is here,
found by iterating ``__all__``: a new check has no way to regress.
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import pytest
from test_no_secret_leaks import CASES

import plancheck
from plancheck import ExpectEmptyPlan, ExpectNonEmptyPlan, Plan, PlanCheck, State
from plancheck import knownvalue as kv
from plancheck import querycheck as qc
from plancheck import statecheck as sc
from plancheck import tfconfig as tc
from plancheck.querycheck import KnownValueCheck, QueryOutput, QueryResultCheck, queryfilter
from plancheck.statecheck import StateCheck
from plancheck.tfconfig import Config, ConfigCheck, ConfigFormatError
from tfjsonpath import New

PLAN = Plan.from_dict({"format_version": "1.2"})
STATE = State.from_dict({"format_version": "1.0"})
QUERY = QueryOutput.from_messages([])
CONFIG = tc.parse_config("{}")
BY_ID = queryfilter.ByResourceIdentity({"id": kv.StringExact("a")})

#: One built instance of each exported query check (the leak table, which builds the others, has no query rows).
QUERY_CHECKS: list[QueryResultCheck] = [
    qc.ExpectIdentity("t.l", {"id": kv.StringExact("a")}),
    qc.ExpectLength("t.l", 1),
    qc.ExpectLengthAtLeast("t.l", 1),
    qc.ExpectNoIdentity("t.l", {"id": kv.StringExact("a")}),
    qc.ExpectResourceDisplayName("t.l", BY_ID, kv.StringExact("x")),
    qc.ExpectResourceKnownValues("t.l", BY_ID, [KnownValueCheck(New("ami"), kv.StringExact("x"))]),
    qc.ExpectTotalLengthForMatching("l$", 1),
]


#: One built instance of each exported configuration check (the leak table builds only ExpectVariable).
CONFIG_CHECKS: list[ConfigCheck] = [
    tc.ExpectDataSource("aws_ami", "ubuntu"),
    tc.ExpectDataSourceAttribute("aws_ami", "ubuntu", New("most_recent"), True),
    tc.ExpectDataSourceCount("aws_ami", 1),
    tc.ExpectLocal("greeting", references=["var.name"]),
    tc.ExpectModule("vpc", version="5.2.0"),
    tc.ExpectNoResource("aws_instance", "web"),
    tc.ExpectOutput("ip", sensitive=True),
    tc.ExpectProvider("aws", alias="euw1"),
    tc.ExpectReferences("aws_subnet", "a", "vpc_id", contains=["aws_vpc.main"]),
    tc.ExpectResource("aws_instance", "web"),
    tc.ExpectResourceAttribute("aws_instance", "web", New("tags").AtMapKey("Name"), "web-1"),
    tc.ExpectResourceCount("aws_instance", 2),
    tc.ExpectResourceWithProperties("aws_sns_topic", {"name": "alerts"}),
    tc.ExpectVariable("region", type="string"),
]


def _built() -> list[Any]:
    built = [case.build() for case in CASES]
    return [*built, ExpectNonEmptyPlan(), *QUERY_CHECKS, *CONFIG_CHECKS]


#: Per family: its base, the modules exporting its checks, its document, and how it says what it expects.
FAMILIES: dict[str, tuple[type, tuple[Any, ...], Any, str, tuple[str, ...]]] = {
    "plan": (PlanCheck, (plancheck,), PLAN, "a plancheck.Plan (use load_plan or Plan.from_dict)",
             ("failures", "outcome", "CheckPlan")),
    "state": (StateCheck, (sc,), STATE, "a plancheck.State (use load_state or State.from_dict)",
              ("failures", "CheckState")),
    "query": (QueryResultCheck, (qc,), QUERY, "a plancheck.querycheck.QueryOutput (use load_query)",
              ("failures", "CheckQuery")),
    "config": (ConfigCheck, (tc,), CONFIG,
               "a plancheck.tfconfig.Config (load_config, parse_config), a dict or a list of dicts",
               ("failures", "check_config")),
}
#: What is passed instead, and the type name the error gives: a document read with json.load, nothing, another
#: family's document, a path.
WRONG: dict[str, list[tuple[str, Any, str]]] = {
    "plan": [("dict", {"format_version": "1.2"}, "dict"), ("none", None, "NoneType"), ("state", STATE, "State"),
             ("path", "plan.json", "str")],
    "state": [("dict", {"format_version": "1.0"}, "dict"), ("none", None, "NoneType"), ("plan", PLAN, "Plan"),
              ("path", "state.json", "str")],
    "query": [("messages", [{"type": "list_start"}], "list"), ("none", None, "NoneType"), ("plan", PLAN, "Plan"),
              ("path", "query.jsonl", "str")],
    # A dict or a list of dicts is a configuration to a configuration check (see test_a_config_check_reads_a_dict).
    "config": [("none", None, "NoneType"), ("plan", PLAN, "Plan"), ("state", STATE, "State"),
               ("path", "main.tf.json", "str"), ("bytes", b"{}", "bytes")],
}


def _exported(family: str) -> list[type]:
    base, modules = FAMILIES[family][:2]
    return sorted(
        {value for module in modules for name in module.__all__
         if isinstance(value := getattr(module, name), type) and issubclass(value, base) and not inspect.isabstract(value)},
        key=lambda cls: cls.__qualname__,
    )


def _instances(family: str) -> list[Any]:
    classes = _exported(family)
    found: dict[type, Any] = {}
    for check in _built():
        if type(check) in classes:
            found.setdefault(type(check), check)
    return [found[cls] for cls in classes if cls in found]


@pytest.mark.parametrize("family", FAMILIES)
def test_every_exported_check_is_in_the_table(family: str) -> None:
    missing = {cls.__name__ for cls in _exported(family)} - {type(c).__name__ for c in _instances(family)}
    assert missing == set(), f"build one of each in QUERY_CHECKS or the leak table's rows: {sorted(missing)}"
    assert len(_exported(family)) >= {"plan": 35, "state": 10, "query": 7, "config": 14}[family]


ROWS = [
    pytest.param(family, check, method, wrong, type_name,
                 id=f"{family}-{type(check).__name__}-{method}-{wrong_id}")
    for family in FAMILIES
    for check in _instances(family)
    for method in FAMILIES[family][4]
    for wrong_id, wrong, type_name in WRONG[family]
]


@pytest.mark.parametrize(("family", "check", "method", "wrong", "type_name"), ROWS)
def test_a_wrong_document_is_a_type_error_naming_the_check(
    family: str, check: Any, method: str, wrong: Any, type_name: str
) -> None:
    how = FAMILIES[family][3]
    with pytest.raises(TypeError) as info:
        getattr(check, method)(wrong)
    assert str(info.value) == f"{type(check).__name__}.{method} expects {how}, got {type_name}"
    assert type(info.value) is plancheck.ArgumentError


# The messages themselves, written out.
MESSAGES = [
    pytest.param(lambda: ExpectEmptyPlan().failures({"format_version": "1.2"}),  # type: ignore[arg-type]
                 "ExpectEmptyPlan.failures expects a plancheck.Plan (use load_plan or Plan.from_dict), got dict",
                 id="plan-failures-dict"),
    pytest.param(lambda: plancheck.ExpectEachKnownValue("a.*", New("x"), kv.Null()).outcome(STATE),  # type: ignore[arg-type]
                 "ExpectEachKnownValue.outcome expects a plancheck.Plan (use load_plan or Plan.from_dict), got State",
                 id="plan-outcome-state"),
    pytest.param(lambda: sc.ExpectKnownValue("a.b", New("x"), kv.Null()).failures(None),  # type: ignore[arg-type]
                 "ExpectKnownValue.failures expects a plancheck.State (use load_state or State.from_dict), got NoneType",
                 id="state-failures-none"),
    pytest.param(lambda: qc.ExpectLength("t.l", 1).failures([]),  # type: ignore[arg-type]
                 "ExpectLength.failures expects a plancheck.querycheck.QueryOutput (use load_query), got list",
                 id="query-failures-list"),
    pytest.param(lambda: tc.ExpectResource("aws_instance", "web").failures(PLAN),  # type: ignore[arg-type]
                 "ExpectResource.failures expects a plancheck.tfconfig.Config (load_config, parse_config), a dict or a "
                 "list of dicts, got Plan",
                 id="config-failures-plan"),
    pytest.param(lambda: tc.ExpectVariable("region").failures(config=None),  # type: ignore[arg-type]
                 "ExpectVariable.failures expects a plancheck.tfconfig.Config (load_config, parse_config), a dict or a "
                 "list of dicts, got NoneType",
                 id="config-failures-none-by-name"),
]


@pytest.mark.parametrize(("call", "message"), MESSAGES)
def test_the_message(call: Any, message: str) -> None:
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value) == message


@dataclasses.dataclass(frozen=True)
class _UserCheck(PlanCheck):
    """A check written by a user, as PlanCheck's docstring shows: guarded too."""

    address: str

    def failures(self, plan: Plan) -> list[plancheck.CheckFailure]:
        return [] if plan.has_resource_change(self.address) else [self.failure(plan, "absent", address=self.address)]


@pytest.mark.parametrize("method", ["failures", "outcome", "CheckPlan"])
def test_a_users_check_is_guarded_and_still_runs(method: str) -> None:
    check = _UserCheck("a.b")
    with pytest.raises(TypeError, match=rf"^_UserCheck\.{method} expects a plancheck\.Plan .*, got dict$"):
        getattr(check, method)({})
    assert [str(f) for f in check.failures(PLAN)] == ["_UserCheck: a.b: absent"]
    assert [str(f) for f in check.outcome(PLAN)[0]] == ["_UserCheck: a.b: absent"]


def test_the_right_document_runs_the_check_as_written() -> None:
    # The guard keeps the method's name, docstring and signature (what help() and the docs show).
    method = plancheck.ExpectKnownValue.failures
    assert method.__name__ == "failures"
    assert method.__doc__ == method.unguarded.__doc__  # type: ignore[attr-defined]
    assert list(inspect.signature(method).parameters) == ["self", "plan"]
    assert ExpectEmptyPlan().failures(PLAN) == []
    assert ExpectEmptyPlan().outcome(PLAN) == ([], [])


@dataclasses.dataclass(frozen=True)
class _UserCheckWithOptions(PlanCheck):
    """A user's check whose failures takes more than the plan (an option its own runner passes)."""

    def failures(self, plan: Plan, limit: int = 0) -> list[plancheck.CheckFailure]:
        return [self.failure(plan, f"limit {limit}")]


# The guard takes the arguments the method as written takes (its signature is the one help() shows): the document by
# its name too, and whatever else the method accepts. A guard of one positional argument refused them all.
AS_WRITTEN = [
    pytest.param(lambda: ExpectEmptyPlan().failures(plan=PLAN), [], id="plan-failures-by-name"),
    pytest.param(lambda: ExpectEmptyPlan().outcome(plan=PLAN), ([], []), id="plan-outcome-by-name"),
    pytest.param(lambda: sc.ExpectKnownValue("a.b", New("x"), kv.Null()).failures(state=STATE)[0].message,
                 "resource not found in state; the state has no resources", id="state-failures-by-name"),
    pytest.param(lambda: [f.message for f in qc.ExpectLength("t.l", 0).failures(output=QUERY)],
                 ["the list block t.l was not found in the query results; the query output has no list blocks"],
                 id="query-failures-by-name"),
    pytest.param(lambda: [str(f) for f in _UserCheckWithOptions().failures(PLAN, 3)], ["_UserCheckWithOptions: limit 3"],
                 id="users-check-more-arguments"),
    pytest.param(lambda: [str(f) for f in _UserCheckWithOptions().failures(PLAN, limit=4)],
                 ["_UserCheckWithOptions: limit 4"], id="users-check-more-arguments-by-name"),
]


@pytest.mark.parametrize(("call", "expected"), AS_WRITTEN)
def test_the_guarded_method_takes_its_arguments_as_written(call: Any, expected: Any) -> None:
    assert call() == expected


@pytest.mark.parametrize(("call", "message"), [
    pytest.param(lambda: ExpectEmptyPlan().failures(plan={}),
                 "ExpectEmptyPlan.failures expects a plancheck.Plan (use load_plan or Plan.from_dict), got dict",
                 id="plan-failures-by-name"),
    pytest.param(lambda: sc.ExpectKnownValue("a.b", New("x"), kv.Null()).failures(state=PLAN),
                 "ExpectKnownValue.failures expects a plancheck.State (use load_state or State.from_dict), got Plan",
                 id="state-failures-by-name"),
    pytest.param(lambda: ExpectEmptyPlan().failures(),
                 "ExpectEmptyPlan.failures() missing 1 required positional argument: 'plan'", id="no-document"),
])
def test_a_wrong_document_by_name_is_refused_too(call: Any, message: str) -> None:
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value) == message


#: A configuration, as a dict and as the top-level JSON array Terraform also reads (most of the checks fail on it).
AS_DICT: dict[str, Any] = {
    "variable": {"region": {"type": "number"}},
    "resource": {"aws_instance": {"web": {"tags": {"Name": "web-2"}}}},
}


@pytest.mark.parametrize("document", [AS_DICT, [AS_DICT]], ids=["dict", "list-of-dicts"])
@pytest.mark.parametrize("check", CONFIG_CHECKS, ids=lambda check: type(check).__name__)
def test_a_config_check_reads_a_dict_as_check_config_does(check: ConfigCheck, document: Any) -> None:
    # check_config and assert_config take a dict (require_config): failures, their public half, takes it too.
    config = tc.config_from_dict(document)
    assert isinstance(config, Config)
    expected = [str(f) for f in check.failures(config)]
    assert [str(f) for f in check.failures(document)] == expected
    assert [str(f) for f in check.failures(config=document)] == expected


def test_a_malformed_config_dict_is_the_error_check_config_gives() -> None:
    check = tc.ExpectResource("aws_instance", "web")
    with pytest.raises(ConfigFormatError) as by_failures:
        check.failures({"resource": 3})  # type: ignore[arg-type]
    with pytest.raises(ConfigFormatError) as by_check_config:
        check.check_config({"resource": 3})
    assert str(by_failures.value) == str(by_check_config.value) == (
        "$.resource: expected an object of resource types (a resource block has 2 labels: type, name), found a number"
    )
