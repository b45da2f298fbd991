"""knownvalue over real Terraform state documents from the shared corpus."""

from __future__ import annotations

import json
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from plancheck import knownvalue as kv
from plancheck._errors import ValueMismatchError
from tfjsonpath import MapStep, SliceStep, Step

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
STATES = sorted((CORPUS / "states").glob("*.json")) if CORPUS.is_dir() else []


def _resources(module: Any) -> Iterator[dict[str, Any]]:
    stack = [module]
    while stack:
        current = stack.pop()
        if not isinstance(current, dict):
            continue
        yield from (r for r in current.get("resources", []) if isinstance(r, dict))
        stack.extend(current.get("child_modules", []))


def _state_resources(path: Path) -> list[dict[str, Any]]:
    document = json.loads(path.read_text(encoding="utf-8"), parse_float=Decimal)
    values = document.get("values") if isinstance(document, dict) else None
    if not isinstance(values, dict):
        return []
    return [r for r in _resources(values.get("root_module")) if isinstance(r.get("values"), dict)]


def _first_string_leaf(value: Any) -> list[Step] | None:
    stack: list[tuple[Any, list[Step]]] = [(value, [])]
    while stack:
        item, steps = stack.pop()
        if isinstance(item, str):
            return steps
        if isinstance(item, list):
            stack.extend((v, [*steps, SliceStep(i)]) for i, v in reversed(list(enumerate(item))))
        elif isinstance(item, dict):
            stack.extend((v, [*steps, MapStep(k)]) for k, v in reversed(list(item.items())))
    return None


def _replace(value: Any, steps: list[Step], new: Any) -> Any:
    copy = json.loads(json.dumps(value, default=str))  # Decimals become strings: fine, only the leaf matters
    if not steps:
        return new
    target = copy
    for step in steps[:-1]:
        target = target[step.key if isinstance(step, MapStep) else step.index]
    last = steps[-1]
    target[last.key if isinstance(last, MapStep) else last.index] = new
    return copy


@pytest.fixture(params=STATES, ids=[p.name for p in STATES])
def state_path(request: pytest.FixtureRequest) -> Path:
    return Path(request.param)


def test_corpus_is_present_or_skipped() -> None:
    if not STATES:
        pytest.skip(f"no corpus states at {CORPUS}")
    assert all(p.suffix == ".json" for p in STATES)


@pytest.mark.skipif(not STATES, reason="shared corpus not present")
def test_exact_check_of_every_resource_matches_it(state_path: Path) -> None:
    resources = _state_resources(state_path)
    for resource in resources:
        values = resource["values"]
        check = kv.exact(values)
        assert check == values, resource.get("address")
        check.CheckValue(values, sensitive=resource.get("sensitive_values"))


@pytest.mark.skipif(not STATES, reason="shared corpus not present")
def test_changed_leaf_is_reported_at_its_path(state_path: Path) -> None:
    for resource in _state_resources(state_path):
        values = resource["values"]
        steps = _first_string_leaf(values)
        if steps is None:
            continue
        check = kv.exact(json.loads(json.dumps(values, default=str)))
        changed = _replace(values, steps, "QZJ-changed")
        with pytest.raises(ValueMismatchError) as info:
            check.CheckValue(changed, sensitive=resource.get("sensitive_values"))
        assert list(info.value.path.steps) == steps
        assert info.value.reason.startswith("expected value ")
        assert info.value.reason.endswith('got: "QZJ-changed"') or info.value.reason.endswith(
            "got: (sensitive)"
        )


@pytest.mark.skipif(not STATES, reason="shared corpus not present")
def test_sensitive_corpus_values_are_hidden() -> None:
    seen = 0
    for path in STATES:
        for resource in _state_resources(path):
            marks = resource.get("sensitive_values")
            values = resource["values"]
            if not isinstance(marks, dict):
                continue
            for key, mark in marks.items():
                if mark is True and isinstance(values.get(key), str) and len(values[key]) >= 3:
                    seen += 1
                    check = kv.ObjectPartial({key: kv.StringExact(values[key] + "-x")})
                    with pytest.raises(ValueMismatchError) as info:
                        check.CheckValue(values, sensitive=marks)
                    assert values[key] not in str(info.value)
                    assert str(info.value).endswith(
                        "expected value (sensitive) for StringExact check, got: (sensitive)"
                    )
    if not seen:
        pytest.skip("no resource in the corpus has a sensitive string attribute")
