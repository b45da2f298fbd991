"""ExpectDiagnostic, expect_diagnostics, allow_warnings and fail_on_warnings as definitions: validation, values, matching."""

from __future__ import annotations

import copy
import pickle
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck.acceptance import (
    ExpectDiagnostic,
    ExternalProviders,
    ReattachProvider,
    TestCase,
    TestDefinitionError,
    TestStep,
)
from plancheck.acceptance._diagnostics import Diagnostic, ProviderDiagnostic, join_attributes, listing
from tfjsonpath import New, Path

# Untyped aliases: these tests pass wrong types on purpose.
Expect: Any = ExpectDiagnostic
Step: Any = TestStep
Case: Any = TestCase
WIDGET = "example.com/acme/widget"
NO_SERVER = "Terraform's JSON diagnostics carry no attribute path: only a provider served in this process " \
    "(providers={address: factory}) reports one, and this step has none (external and reattached providers and " \
    "Terraform's own diagnostics cannot be matched by attribute; match address, summary or detail)"


def reattach() -> ReattachProvider:
    return ReattachProvider(WIDGET, start=lambda directory: {"Protocol": "grpc", "ProtocolVersion": 6,
                                                             "Addr": {"Network": "unix", "String": "/tmp/x.sock"}})


@pytest.mark.parametrize(
    ("build", "message"),
    [
        pytest.param(lambda: Expect("fatal"), 'ExpectDiagnostic.severity: expected "error" or "warning", got "fatal"',
                     id="severity"),
        pytest.param(lambda: Expect(1), 'ExpectDiagnostic.severity: expected "error" or "warning", got int',
                     id="severity-type"),
        pytest.param(lambda: Expect("Error"), 'ExpectDiagnostic.severity: expected "error" or "warning", got "Error"',
                     id="severity-case"),
        pytest.param(lambda: Expect("error", 3),
                     "ExpectDiagnostic.summary: expected a str (matched exactly) or an re.Pattern (searched), got int",
                     id="summary-type"),
        pytest.param(lambda: Expect("error", detail=re.compile(b"x")),
                     "ExpectDiagnostic.detail: expected a str pattern, got a bytes pattern", id="bytes-pattern"),
        pytest.param(lambda: Expect("error", address=""),
                     "ExpectDiagnostic.address: an empty address matches nothing: Terraform leaves the address out of "
                     "diagnostics that have none", id="empty-address"),
        pytest.param(lambda: Expect("error", attribute="size"),
                     'ExpectDiagnostic.attribute: expected a tfjsonpath.Path such as tfjsonpath.New("size"), got str',
                     id="attribute-str"),
        pytest.param(lambda: Expect("error", attribute=Path()),
                     "ExpectDiagnostic.attribute: the root path names no attribute", id="attribute-root"),
        pytest.param(lambda: Step(config="", expect_diagnostics=ExpectDiagnostic("error")),
                     "TestStep.expect_diagnostics: expected a list of ExpectDiagnostic, got ExpectDiagnostic",
                     id="not-a-list"),
        pytest.param(lambda: Step(config="", expect_diagnostics="Invalid size"),
                     "TestStep.expect_diagnostics: expected a list of ExpectDiagnostic, got str", id="a-str"),
        pytest.param(lambda: Step(config="", expect_diagnostics=[ExpectDiagnostic("error"), {"severity": "fatal"}]),
                     'TestStep.expect_diagnostics[1].severity: expected "error" or "warning", got "fatal"',
                     id="dict-severity"),
        pytest.param(lambda: Step(config="", expect_diagnostics=[{"summary": "x"}]),
                     'TestStep.expect_diagnostics[0].severity: missing: give "error" or "warning"', id="dict-no-severity"),
        pytest.param(lambda: Step(config="", expect_diagnostics=[{"severity": "error", "sumary": "x"}]),
                     "TestStep.expect_diagnostics[0]: unknown key 'sumary' (expected some of severity, summary, detail, "
                     "address, attribute)", id="dict-unknown-key"),
        pytest.param(lambda: Step(config="", expect_diagnostics=[{"severity": "error", "attribute": ["size"]}]),
                     'TestStep.expect_diagnostics[0].attribute: expected a tfjsonpath.Path such as tfjsonpath.New("size"), '
                     "got list", id="dict-attribute"),
        pytest.param(lambda: Step(config="", expect_diagnostics=["Invalid size"]),
                     "TestStep.expect_diagnostics[0]: expected an ExpectDiagnostic or a dict of its arguments, got str",
                     id="item-str"),
        pytest.param(lambda: Step(config="", allow_warnings=[3]),
                     "TestStep.allow_warnings[0]: expected an ExpectDiagnostic, a dict of its arguments or a summary "
                     "(str or re.Pattern), got int", id="allow-int"),
        pytest.param(lambda: Step(config="", allow_warnings=[ExpectDiagnostic("error", "x")]),
                     'TestStep.allow_warnings[0].severity: allow_warnings takes warnings, got "error" (expect errors '
                     "with expect_diagnostics)", id="allow-error"),
        pytest.param(lambda: Step(config="", allow_warnings=[{"severity": "error"}]),
                     'TestStep.allow_warnings[0].severity: allow_warnings takes warnings, got "error" (expect errors '
                     "with expect_diagnostics)", id="allow-dict-error"),
        pytest.param(lambda: Step(config="", allow_warnings=["ok", re.compile(b"x")]),
                     "TestStep.allow_warnings[1].summary: expected a str pattern, got a bytes pattern", id="allow-bytes"),
        pytest.param(lambda: Step(import_state=True, resource_name="a.b", expect_diagnostics=[ExpectDiagnostic("error")]),
                     "TestStep.expect_diagnostics: not used by an import_state=True step (terraform import has no JSON "
                     "output)", id="import-step"),
        pytest.param(lambda: Step(query=True, config="", allow_warnings=["x"]),
                     "TestStep.allow_warnings: not used by a query=True step (check its diagnostics with expect_error)",
                     id="query-step"),
        pytest.param(lambda: Case(steps=[Step(config="")], fail_on_warnings=1),
                     "TestCase.fail_on_warnings: expected a bool, got int", id="fail-on-warnings-type"),
        pytest.param(lambda: Case(steps=[Step(config=""), Step(config="", allow_warnings=["x"])]),
                     "TestCase.steps[1].allow_warnings: allows warnings only in a TestCase(fail_on_warnings=True)",
                     id="allow-without-fail-on-warnings"),
        pytest.param(lambda: Case(steps=[Step(config="", expect_diagnostics=[Expect("error", attribute=New("a"))])]),
                     f"TestCase.steps[0].expect_diagnostics[0].attribute: {NO_SERVER}", id="attribute-without-providers"),
        pytest.param(lambda: Case(providers=ExternalProviders({"hashicorp/null": "2.1.2"}, mirror="/m"), steps=[
                         Step(config="", expect_diagnostics=[Expect("error"), Expect("warning", attribute=New("a"))])]),
                     f"TestCase.steps[0].expect_diagnostics[1].attribute: {NO_SERVER}", id="attribute-external-provider"),
        pytest.param(lambda: Case(fail_on_warnings=True, steps=[
                         Step(config="", providers={WIDGET: dict}),
                         Step(config="", providers=reattach(), allow_warnings=[Expect("warning", attribute=New("a"))])]),
                     f"TestCase.steps[1].allow_warnings[0].attribute: {NO_SERVER}", id="attribute-reattached-provider"),
    ],
)
def test_definition_errors(build: Any, message: str) -> None:
    with pytest.raises(TestDefinitionError) as info:
        build()
    assert str(info.value) == message
    assert isinstance(info.value, TypeError)
    assert isinstance(info.value, ValueError)


def test_attribute_paths_need_a_provider_served_in_this_process_somewhere_in_scope() -> None:
    attribute = [Expect("warning", attribute=New("color"))]
    # The case's factory; a step's own; one a later step keeps using (as the runner does).
    TestCase(providers={WIDGET: dict}, steps=[TestStep(config="", expect_diagnostics=attribute)])
    TestCase(steps=[TestStep(config="", providers={WIDGET: dict}, expect_diagnostics=attribute)])
    TestCase(steps=[TestStep(config="", providers={WIDGET: dict}), TestStep(config="", expect_diagnostics=attribute)])


def test_steps_keep_what_they_were_given_as_values() -> None:
    step = TestStep(config="", expect_diagnostics=[{"severity": "warning", "summary": "A"}], allow_warnings=("B",))
    assert step.expect_diagnostics == (ExpectDiagnostic("warning", "A"),)
    assert step.allow_warnings == (ExpectDiagnostic("warning", "B"),)
    assert step == TestStep(config="", expect_diagnostics=[ExpectDiagnostic("warning", "A")], allow_warnings=["B"])
    assert TestStep(config="").expect_diagnostics == ()
    assert TestCase(steps=[step], fail_on_warnings=True).fail_on_warnings


@pytest.mark.parametrize(
    "value",
    [
        pytest.param(ExpectDiagnostic("warning"), id="severity-only"),
        pytest.param(ExpectDiagnostic("error", "Invalid size", detail=re.compile("got -1", re.I), address="widget_thing.t",
                                      attribute=New("tags").AtMapKey("k")), id="every-field"),
    ],
)
def test_expect_diagnostic_is_a_value(value: ExpectDiagnostic) -> None:
    again = eval(repr(value), {"ExpectDiagnostic": ExpectDiagnostic, "re": re, "Path": Path,
                               "MapStep": __import__("tfjsonpath").MapStep})
    assert again == value
    assert hash(again) == hash(value)
    assert pickle.loads(pickle.dumps(value)) == value
    assert copy.deepcopy(value) is value
    assert value != ExpectDiagnostic("error", "other")
    assert value.__eq__("warning") is NotImplemented
    with pytest.raises(AttributeError):
        value.severity = "error"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("expected", "found", "matches"),
    [
        pytest.param(ExpectDiagnostic("warning", "Deprecated"), Diagnostic("warning", "Deprecated", "x"), True, id="summary"),
        pytest.param(ExpectDiagnostic("warning", "Deprecated"), Diagnostic("error", "Deprecated", "x"), False, id="severity"),
        pytest.param(ExpectDiagnostic("warning", "Deprecat"), Diagnostic("warning", "Deprecated", ""), False,
                     id="a-str-is-exact"),
        pytest.param(ExpectDiagnostic("warning", re.compile("precat")), Diagnostic("warning", "Deprecated", ""), True,
                     id="a-pattern-searches"),
        pytest.param(ExpectDiagnostic("warning", detail=""), Diagnostic("warning", "A", ""), True, id="empty-detail"),
        pytest.param(ExpectDiagnostic("warning", address="a.b"), Diagnostic("warning", "A", ""), False, id="no-address"),
        pytest.param(ExpectDiagnostic("warning", address=re.compile(".")), Diagnostic("warning", "A", "", address="a.b"),
                     True, id="address-pattern"),
        pytest.param(ExpectDiagnostic("warning", attribute=New("a")),
                     Diagnostic("warning", "A", "", attribute=New("a"), attribute_status="path"), True, id="attribute"),
        pytest.param(ExpectDiagnostic("warning", attribute=New("a")), Diagnostic("warning", "A", ""), False,
                     id="attribute-unknown"),
        pytest.param(ExpectDiagnostic("warning", attribute=New("a")),
                     Diagnostic("warning", "A", "", attribute_status="ambiguous", candidates=(New("a"), New("b"))), False,
                     id="attribute-ambiguous"),
    ],
)
def test_matching(expected: ExpectDiagnostic, found: Diagnostic, matches: bool) -> None:
    assert expected._matches(found) is matches


@pytest.mark.parametrize(
    ("recorded", "found", "status", "attribute", "shown"),
    [
        pytest.param([ProviderDiagnostic("error", "Bad", "d", "widget_thing", New("size"))],
                     Diagnostic("error", "Bad", "d", address='module.m["k"].widget_thing.t[0]'),
                     "path", New("size"), "size", id="one-path"),
        pytest.param([ProviderDiagnostic("error", "Bad", "d", "widget_thing", None)],
                     Diagnostic("error", "Bad", "d", address="widget_thing.t"),
                     "none", None, "none (the provider reported no attribute path)", id="no-path"),
        pytest.param([ProviderDiagnostic("error", "Bad", "d", "widget_thing", New("size")),
                      ProviderDiagnostic("error", "Bad", "d", "widget_thing", New("tags").AtMapKey("k"))],
                     Diagnostic("error", "Bad", "d", address="widget_thing.t"),
                     "ambiguous", None, 'ambiguous (the provider reported this diagnostic at size, tags["k"])', id="two-paths"),
        pytest.param([ProviderDiagnostic("error", "Bad", "d", "widget_thing", New("size")),
                      ProviderDiagnostic("error", "Bad", "d", "widget_thing", None)],
                     Diagnostic("error", "Bad", "d", address="widget_thing.t"),
                     "ambiguous", None, "ambiguous (the provider reported this diagnostic at size and without one)",
                     id="path-and-none"),
        pytest.param([ProviderDiagnostic("error", "Bad", "d", "widget_lookup", New("id")),
                      ProviderDiagnostic("error", "Bad", "d", "widget_thing", New("size"))],
                     Diagnostic("error", "Bad", "d", address="data.widget_lookup.l"),
                     "path", New("id"), "id", id="the-address-picks-the-type"),
        pytest.param([ProviderDiagnostic("error", "Bad", "d", "", New("id_prefix"))],
                     Diagnostic("error", "Bad", "d", address='provider["example.com/acme/widget"]'),
                     "path", New("id_prefix"), "id_prefix", id="provider-configuration"),
        pytest.param([ProviderDiagnostic("error", "Bad", "other detail", "widget_thing", New("size"))],
                     Diagnostic("error", "Bad", "d", address="widget_thing.t"),
                     "unknown", None, "unknown (not reported by a provider served in this process)", id="not-recorded"),
    ],
)
def test_attribute_paths_are_joined_from_what_providers_reported(
    recorded: list[ProviderDiagnostic], found: Diagnostic, status: str, attribute: Path | None, shown: str
) -> None:
    [joined] = join_attributes([found], recorded)
    assert (joined.attribute_status, joined.attribute) == (status, attribute)
    assert listing([joined])[0].splitlines()[-1] == f"  attribute: {shown}"


TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)
DIAGNOSTICS = st.builds(
    Diagnostic, st.sampled_from(["error", "warning"]), TEXT, TEXT,
    address=st.one_of(st.none(), st.sampled_from(["a.b", "c.d", "module.m.a.b"])),
    line=st.one_of(st.none(), st.integers(1, 99)),
)


@settings(max_examples=200, deadline=None)
@given(found=DIAGNOSTICS)
def test_an_expectation_made_of_a_diagnostics_fields_matches_it(found: Diagnostic) -> None:
    exact = ExpectDiagnostic(found.severity, found.summary, detail=found.detail, address=found.address)
    searched = ExpectDiagnostic(found.severity, re.compile(re.escape(found.summary)), detail=re.compile(re.escape(found.detail)))
    assert exact._matches(found)
    assert searched._matches(found)
    other = "warning" if found.severity == "error" else "error"
    assert not ExpectDiagnostic(other, found.summary)._matches(found)


@settings(max_examples=200, deadline=None)
@given(found=st.lists(DIAGNOSTICS, max_size=8), data=st.data())
def test_listing_is_the_same_in_any_order_and_lists_each_diagnostic_once(found: list[Diagnostic], data: Any) -> None:
    shuffled = data.draw(st.permutations(found))
    assert listing(shuffled) == listing(found) == listing(found + shuffled)
    assert len(listing(found)) == len({d.key() for d in found})
