"""Every real document loads, by every route, to exactly the same plan or state."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from loading_support import (
    ROUTES,
    corpus_files,
    deep_plain,
    exactly_equal,
    generated_plan,
    load_by,
    needs_corpus,
    plain,
    route,
)

from plancheck._documents.plan import Plan, load_plan
from plancheck._documents.state import State, load_state
from plancheck._errors import PlanFormatError, StateFormatError

PLANS = corpus_files("plans")
STATES = corpus_files("states")


def _reference(data: bytes) -> object:
    return json.loads(data, parse_float=Decimal)


@needs_corpus
def test_the_corpus_is_there() -> None:
    assert len(PLANS) >= 60
    assert len(STATES) >= 10


@needs_corpus
@pytest.mark.parametrize("path", PLANS, ids=[p.stem for p in PLANS])
@pytest.mark.parametrize("route_name", list(ROUTES))
def test_corpus_plan_loads_exactly(path: Path, route_name: str) -> None:
    data = path.read_bytes()
    plan = load_by(route_name, data, allow_errored=True)  # the corpus's errored plans load exactly too
    assert isinstance(plan, Plan), plan
    reference = _reference(data)
    assert exactly_equal(plain(plan.raw), reference)
    for rc in reference.get("resource_changes") or ():
        got = plan.resource_change(rc["address"], deposed=rc.get("deposed"))
        assert exactly_equal(got.raw, rc)


@needs_corpus
@pytest.mark.parametrize("path", PLANS, ids=[p.stem for p in PLANS])
def test_corpus_plan_passes_the_full_json_schema(path: Path) -> None:
    plan = load_plan(path, validation="full", allow_errored=True)
    assert plan.format_version.split(".")[0] in ("0", "1")


@needs_corpus
@pytest.mark.parametrize("path", STATES, ids=[p.stem for p in STATES])
@pytest.mark.parametrize("validation", ["fast", "full"])
@pytest.mark.parametrize("route_name", list(ROUTES))
def test_corpus_state_loads(path: Path, validation: str, route_name: str) -> None:
    with route(route_name) as parser:
        state = load_state(path, validation=validation, parser=parser)
    reference = _reference(path.read_bytes())
    split = route_name == "fast-lazy" and validation == "fast"
    # Each object's keys in the file's order, by every route (a split state's in Terraform's, which the corpus's are).
    assert exactly_equal(deep_plain(state.raw), reference)
    assert (type(state.raw) is dict) is not split
    for resource in state.resources:
        assert state.resource(resource.address, deposed=resource.deposed) is resource


@needs_corpus
def test_corpus_prior_states_load_as_states() -> None:
    loaded = 0
    for path in PLANS:
        prior = load_plan(path, allow_errored=True).raw.get("prior_state")
        if prior and "format_version" in prior:
            state = State.from_dict(prior, validation="full")
            assert state.format_version == prior["format_version"]
            loaded += 1
    assert loaded >= 20


@needs_corpus
@pytest.mark.parametrize("path", corpus_files("other"), ids=[p.stem for p in corpus_files("other")])
def test_hcp_redacted_plans_are_refused_with_a_hint(path: Path) -> None:
    with pytest.raises(PlanFormatError) as caught:
        load_plan(path)
    assert str(caught.value) == (
        f'{path}: $.format_version: expected a "format_version" key (a terraform show -json plan or state), '
        'found HCP Terraform redacted plan JSON ("plan_format_version": "1.1"), which is a different format; '
        "get the plan from terraform show -json PLANFILE"
    )
    with pytest.raises(PlanFormatError) as full:
        load_plan(path, validation="full")
    assert str(full.value) == str(caught.value)


@needs_corpus
@pytest.mark.parametrize(
    ("name", "loader", "message"),
    [
        pytest.param(
            "tfjson-invalid-plan.json", load_plan,
            "$: expected valid JSON, found invalid JSON: Extra data at line 676 column 29 (character 15543)",
            id="plan-extra-data",
        ),
        pytest.param(
            "tfjson-invalid-state.json", load_state,
            "$: expected valid JSON, found invalid JSON: Extra data at line 12 column 28 (character 228)",
            id="state-extra-data",
        ),
    ],
)  # fmt: skip
def test_invalid_corpus_documents_are_refused(name: str, loader: object, message: str) -> None:
    path = Path(corpus_files("invalid")[0]).parent / name
    with pytest.raises((PlanFormatError, StateFormatError)) as caught:
        loader(path)  # type: ignore[operator]
    assert str(caught.value) == f"{path}: {message}"


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("route_name", list(ROUTES))
def test_generated_plan_loads_exactly(seed: int, route_name: str) -> None:
    data = generated_plan(50, seed)
    plan = load_by(route_name, data)
    assert isinstance(plan, Plan), plan
    reference = _reference(data)
    assert exactly_equal(plain(plan.raw), reference)
    assert [rc.address for rc in plan.resource_changes] == [
        rc["address"] for rc in reference["resource_changes"]
    ]
    assert any(isinstance(v, Decimal) for v in _leaves(reference)), "the generator writes non-integers"


def _leaves(document: object) -> list[object]:
    out: list[object] = []
    stack = [document]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        else:
            out.append(value)
    return out
