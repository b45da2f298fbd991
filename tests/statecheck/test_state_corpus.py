"""Every state check against the real states of the shared corpus (skipped when it is absent).

For every resource object (in any module, deposed ones too): each top-level attribute
passes ExpectKnownValue with ``kv.exact`` of its value and fails with a mutated one; each
``true`` in ``sensitive_values`` passes ExpectSensitiveValue there; each unmarked leaf
fails it; CompareValuePairs of an attribute with itself passes ValuesSame and fails
ValuesDiffer; a CompareValue collector fed the same attribute twice passes ValuesSame.
Every output passes ExpectKnownOutputValue with its value.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from decimal import Decimal
from pathlib import Path as FsPath
from typing import Any

import pytest
from corpus_cases import corpus_cases

from plancheck import compare
from plancheck import knownvalue as kv
from plancheck._documents.state import State, load_state
from plancheck._redact import marks_at
from plancheck.statecheck import (
    CompareValue,
    CompareValuePairs,
    ExpectKnownOutputValue,
    ExpectKnownValue,
    ExpectSensitiveValue,
)
from tfjsonpath import MapStep, New, Path, SliceStep

CORPUS = FsPath(__file__).resolve().parents[2].parent / "shared" / "corpus" / "states"
STATE_FILES = sorted(CORPUS.glob("*.json")) if CORPUS.is_dir() else []
STATES = {p.name: load_state(p) for p in STATE_FILES}
WITH_RESOURCES = sorted(
    n for n, s in STATES.items() if any(isinstance(r.values, Mapping) for r in s.resources)
)
WITH_OUTPUTS = sorted(n for n, s in STATES.items() if s.outputs)


def _walk(value: Any) -> Iterator[tuple[Path, Any]]:
    stack: list[tuple[Path, Any]] = [(Path(), value)]
    while stack:
        path, current = stack.pop()
        yield path, current
        if isinstance(current, Mapping):
            stack.extend((path.join(MapStep(k)), v) for k, v in current.items())
        elif isinstance(current, list):
            stack.extend((path.join(SliceStep(i)), v) for i, v in enumerate(current))


def mutated(value: Any) -> Any:
    if value is None:
        return "not-null"
    if isinstance(value, bool):
        return not value
    if isinstance(value, str):
        return value + "~"
    if isinstance(value, (int, float, Decimal)):
        return value + 1
    if isinstance(value, list):
        return [*value, None]
    return {**value, "__no_such_attribute__": None}


def test_corpus_is_present() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"no corpus at {CORPUS}")
    assert len(WITH_RESOURCES) >= 5
    assert len(WITH_OUTPUTS) >= 3
    # Some corpus state has child modules, so module addresses are exercised.
    assert any(r.module_address for s in STATES.values() for r in s.resources)


@pytest.mark.parametrize("name", corpus_cases(WITH_RESOURCES, CORPUS))
def test_known_values_of_every_attribute(name: str) -> None:
    state: State = STATES[name]
    checked = 0
    for resource in state.resources:
        values = resource.values
        if not isinstance(values, Mapping):
            continue
        address, deposed = resource.address, resource.deposed
        for key, value in values.items():
            assert (
                ExpectKnownValue(address, New(key), kv.exact(value), deposed=deposed).failures(state) == []
            ), (
                address,
                key,
            )
            wrong = ExpectKnownValue(address, New(key), kv.exact(mutated(value)), deposed=deposed)
            (failure,) = wrong.failures(state)
            assert failure.path is not None
            assert failure.path.steps[0] == MapStep(key)
            if value is not None and marks_at(resource.sensitive_values, (MapStep(key),))[0]:
                # (A sensitive null fails on its type, "got: null"; a type is not a secret.)
                assert "(sensitive)" in failure.message
            checked += 1
            if deposed is None:
                same = CompareValuePairs(address, New(key), address, New(key), compare.ValuesSame())
                assert same.failures(state) == []
                (differ,) = CompareValuePairs(
                    address, New(key), address, New(key), compare.ValuesDiffer()
                ).failures(state)
                assert differ.message.startswith("expected values to differ, but they are the same: ")
                collector = CompareValue(compare.ValuesSame())
                step = collector.AddStateValue(address, New(key))
                assert step.failures(state) == []
                assert step.failures(state) == []
                assert collector.values == (value, value)
    assert checked


@pytest.mark.parametrize("name", corpus_cases(WITH_RESOURCES, CORPUS))
def test_sensitive_marks(name: str) -> None:
    state: State = STATES[name]
    for resource in state.resources:
        if not isinstance(resource.values, Mapping):
            continue
        address, deposed = resource.address, resource.deposed
        for path, mark in _walk(resource.sensitive_values):
            if mark is True:
                assert ExpectSensitiveValue(address, path, deposed=deposed).failures(state) == [], (
                    address,
                    path,
                )
        for path, value in _walk(resource.values):
            if not len(path) or isinstance(value, (Mapping, list)):
                continue
            if marks_at(resource.sensitive_values, path.steps)[0]:
                assert ExpectSensitiveValue(address, path, deposed=deposed).failures(state) == []
            else:
                (failure,) = ExpectSensitiveValue(address, path, deposed=deposed).failures(state)
                assert "it is not sensitive" in failure.message, (address, path)


@pytest.mark.parametrize("name", corpus_cases(WITH_OUTPUTS, CORPUS))
def test_outputs(name: str) -> None:
    state: State = STATES[name]
    for output_name, output in state.outputs.items():
        assert ExpectKnownOutputValue(output_name, kv.exact(output.value)).failures(state) == []
        (failure,) = ExpectKnownOutputValue(output_name, kv.exact(mutated(output.value))).failures(state)
        if output.sensitive and output.value is not None:
            assert "(sensitive)" in failure.message
