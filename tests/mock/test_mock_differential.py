"""MockProvider against ``terraform test``'s ``mock_provider``: the recorded differential suite, replayed.

``tools/record_mock_reference.py`` records what Terraform 1.11's ``terraform test`` plans, reads and
applies for every type of each schema source (``tests/mock/differential/recorded/``); here the mock
gets the same configurations by the protocol and every fact (unknown at plan, generated shapes,
nested blocks and attributes of every mode, sets, data sources, ``override_during``) must agree,
except the differences ``tools/mock_reference.py`` lists in ``DELIBERATE``, each pinned below.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from mock_support import Direct

from plancheck._terraform.mock.values import generated_string
from plancheck.acceptance import MockProvider
from tools.mock_reference import (
    DELIBERATE,
    SCENARIOS,
    SOURCES,
    Point,
    Source,
    build_module,
    compare,
    load_recording,
    recorded_answers,
    recording_path,
    replay,
    tally,
)
from tools.record_mock_reference import module_digest

pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")

IN_REPO = [s for s in SOURCES if not s.corpus]


def _points(source: Source) -> list[Point]:
    module = build_module(source)
    recording = load_recording(source)
    points: list[Point] = []
    for scenario in SCENARIOS:
        if scenario.name in recording["scenarios"]:
            points += compare(module, scenario, recorded_answers(recording, scenario), replay(module, scenario))
    return points


def _available(source: Source) -> Source:
    if not source.available():
        pytest.skip(f"{source.path} is absent (the shared corpus is not beside the repository)")
    return source


@pytest.mark.parametrize("source", SOURCES, ids=[s.name for s in SOURCES])
def test_the_recording_is_of_the_module_the_suite_builds(source: Source) -> None:
    """A change to the configurations, defaults or test files needs a new recording (tools/record_mock_reference.py)."""
    _available(source)
    recording = load_recording(source)
    assert recording["format"] == 1
    assert recording["terraform_version"].startswith("1.11"), "override_during needs terraform test 1.11 or later"
    assert recording["module_digest"] == module_digest(build_module(source))


@pytest.mark.parametrize("source", SOURCES, ids=[s.name for s in SOURCES])
def test_every_fact_agrees_with_terraform_test_or_is_a_deliberate_difference(source: Source) -> None:
    _available(source)
    points = [p for p in _points(source) if not p.agrees]
    new = [str(p) for p in points if not any(d.covers(p) for d in DELIBERATE)]
    assert new == [], f"{len(new)} new disagreements with terraform test, the first ones:\n" + "\n".join(new[:25])


def test_the_suite_is_large_and_compares_every_kind_of_fact() -> None:
    """The figure of the notes, from the sources in the repository: it may only grow."""
    result = tally(tuple(IN_REPO))
    assert result.other == []
    assert result.points >= 10_000
    assert result.agree / result.points > 0.94  # the rest: the deliberate differences
    facts = {p.terraform for p in _all_points() if p.agrees}
    for wanted in ("unknown", "generated string len=8 [a-z0-9]", "number 0", "bool false", "set 0", "map 0",
                   "list 0", "object", "null", 'string "dflt-id"', "set 2", "map 1"):
        assert wanted in facts, wanted


@pytest.mark.parametrize("deliberate", DELIBERATE, ids=[f"{d.scenario}-{d.phase}-{d.source}" for d in DELIBERATE])
def test_each_deliberate_difference_still_occurs(deliberate: Any) -> None:
    """A deliberate difference that no longer occurs must leave the table (Terraform or the mock changed)."""
    assert any(deliberate.covers(p) and not p.agrees for p in _all_points())


_CACHE: dict[str, list[Point]] = {}


def _all_points() -> list[Point]:
    if "all" not in _CACHE:
        _CACHE["all"] = [p for s in IN_REPO for p in _points(s)] + [p for p in _crash_points()]
    return _CACHE["all"]


def _crash_points() -> list[Point]:
    from tools.mock_reference import crash_point

    out = []
    for source in IN_REPO:
        recording = load_recording(source)
        if "crashed" in recording:
            out.append(crash_point(build_module(source), recording))
    return out


# -- each deliberate difference and each fix, pinned on its own --------------------------------------

SCHEMA = {"resource_schemas": {"t": {"block": {"attributes": {
    "id": {"type": "string", "computed": True},
    "name": {"type": "string", "required": True},
    "spec": {"type": ["object", {"kind": "string", "size": "number", "on": "bool"}], "computed": True},
    "pair": {"type": ["tuple", ["string", "number"]], "computed": True},
}}}}, "data_source_schemas": {"d": {"block": {"attributes": {
    "name": {"type": "string", "required": True},
    "value": {"type": "string", "computed": True},
}}}}}
CONFIG = {"id": None, "name": "n", "spec": None, "pair": None}


def test_generated_strings_are_eight_lower_case_letters_and_digits_as_terraform_test_makes_them() -> None:
    made = {generated_string(random.Random(seed)) for seed in range(200)}
    assert all(re.fullmatch(r"[a-z0-9]{8}", s) for s in made)
    assert len(made) == 200


@pytest.mark.parametrize("override_during", ["apply", "plan"])
def test_a_default_object_gets_the_attributes_it_leaves_out_generated_like_terraform_tests_fill(
    override_during: Any,
) -> None:
    mock = MockProvider(SCHEMA, "acme/t", override_during=override_during, mock_resources={"t": {"spec": {"kind": "k"}}})
    assert repr(mock._resource_defaults["t"]["spec"]["size"]) == "(generated)"
    direct = Direct(mock)
    planned = direct.value(direct.plan("t", None, CONFIG).planned_state)
    if override_during == "plan":  # the default is known at plan, what it leaves out is generated at apply
        assert planned["spec"]["kind"] == "k"
        assert direct.unknown == planned["spec"]["size"]
        assert direct.unknown == planned["spec"]["on"]
    else:
        assert direct.unknown == planned["spec"]
    applied = direct.value(direct.apply("t", None, planned, CONFIG).new_state)
    assert applied["spec"] == {"kind": "k", "size": 0, "on": False}


def test_deliberate_a_computed_tuple_is_generated_where_terraform_test_panics() -> None:
    direct = Direct(MockProvider(SCHEMA, "acme/t"))
    state = direct.create("t", CONFIG)
    assert state["pair"][1] == 0
    assert re.fullmatch(r"[a-z0-9]{8}", state["pair"][0])
    assert "panic: unknown complex type: tuple" in load_recording(_source("tuple"))["crashed"]


def test_deliberate_a_data_source_read_twice_gives_the_same_answer() -> None:
    direct = Direct(MockProvider(SCHEMA, "acme/t"))
    request = direct.pb.ReadDataSource.Request(type_name="d", config=direct.dv({"name": "n", "value": None}))
    first, second = (direct.value(direct.servicer.ReadDataSource(request, None).state) for _ in range(2))
    assert first == second
    assert re.fullmatch(r"[a-z0-9]{8}", first["value"])


def test_deliberate_override_during_plan_leaves_what_no_default_covers_unknown_until_apply() -> None:
    """terraform test 1.11 generates it at plan, then again while applying, and fails ('inconsistent final plan')."""
    direct = Direct(MockProvider(SCHEMA, "acme/t", override_during="plan", mock_resources={"t": {"id": "fixed"}}))
    planned = direct.value(direct.plan("t", None, CONFIG).planned_state)
    assert planned["id"] == "fixed"
    assert direct.unknown == planned["spec"]
    assert direct.unknown == planned["pair"]
    recording = load_recording(_source("cloud"))["scenarios"]["defaults_at_plan"]
    assert any("Provider produced inconsistent final plan" in e for e in recording["apply_errors"])


def _source(name: str) -> Source:
    return next(s for s in SOURCES if s.name == name)


def test_every_in_repo_source_has_a_recording() -> None:
    assert [s.name for s in IN_REPO if not recording_path(s).is_file()] == []
