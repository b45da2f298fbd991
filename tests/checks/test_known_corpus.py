"""The known-value plan checks against every real plan of the shared corpus (skipped when it is absent).

For each resource change with a planned value: every top-level attribute passes
ExpectKnownValue with ``kv.exact`` of its value and fails with a mutated one; every
leaf of ``after`` outside an unknown mark passes too; every ``true`` in ``after_unknown``
fails, whatever the matcher, saying "value is unknown"; a made-up attribute passes
ExpectNoValue. Outputs likewise.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path as FsPath
from typing import Any

import pytest
from corpus_cases import corpus_cases

from plancheck import Plan, load_plan
from plancheck import knownvalue as kv
from plancheck._documents.resolve import ValueStatus, resolve_value
from plancheck._documents.sensitive import shown_address
from plancheck._planchecks.values import ExpectKnownOutputValue, ExpectKnownValue, ExpectNoValue
from plancheck._redact import contains_sensitive, marks_at
from tfjsonpath import MapStep, New, Path, SliceStep

# A value with unknown parts fails an exact matcher built from "after": as unknown, or for the
# unknown attributes "after" leaves out (the marks still say they are there).
UNKNOWN_OR_EXTRA = re.compile(
    r"value is unknown|expected \d+ attribute\(s\) for ObjectExact check, got \d+ attribute\(s\): "
    r"actual value has extra attribute\(s\): "
)

CORPUS = FsPath(__file__).resolve().parents[2].parent / "shared" / "corpus" / "plans"
PLAN_FILES = sorted(CORPUS.glob("*.json")) if CORPUS.is_dir() else []
ABSENT_KEY = "__no_such_attribute__"


def _walk(value: Any) -> Iterator[tuple[Path, Any]]:
    """Every (path, value) in a JSON value, itself first; iterative."""
    stack: list[tuple[Path, Any]] = [(Path(), value)]
    while stack:
        path, current = stack.pop()
        yield path, current
        if isinstance(current, Mapping):
            stack.extend((path.join(MapStep(k)), v) for k, v in current.items())
        elif isinstance(current, list):
            stack.extend((path.join(SliceStep(i)), v) for i, v in enumerate(current))


def mutated(value: Any) -> Any:
    """A JSON value that differs from ``value``."""
    if value is None:
        return "not-null"
    if isinstance(value, bool):
        return not value
    if isinstance(value, str):
        return value + "~"
    if isinstance(value, (int, float)) or type(value).__name__ == "Decimal":
        return value + 1
    if isinstance(value, list):
        return [*value, None]
    return {**value, ABSENT_KEY: None}


def _plan(path: FsPath) -> Plan:
    return load_plan(path, allow_errored=True)  # the corpus holds errored plans on purpose


def _changes(plan: Plan) -> Iterator[tuple[str, str | None, Any, Any]]:
    for rc in plan.resource_changes:
        change = rc.change
        if isinstance(change.after, Mapping):
            yield rc.address, rc.deposed, change, rc


def _has_planned_resources(plan: Plan) -> bool:
    return any(True for _ in _changes(plan))


def _has_planned_outputs(plan: Plan) -> bool:
    return any(not all(a == "delete" for a in o.change.actions) for o in plan.output_changes.values())


# Loaded once at collection (the corpus is small), so each test runs only on the plans it applies to.
PLANS = {p.name: _plan(p) for p in PLAN_FILES}
WITH_RESOURCES = sorted(name for name, plan in PLANS.items() if _has_planned_resources(plan))
WITH_OUTPUTS = sorted(name for name, plan in PLANS.items() if _has_planned_outputs(plan))


def test_corpus_is_present() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"no corpus at {CORPUS}")
    assert len(PLAN_FILES) > 10
    assert len(WITH_RESOURCES) > 10
    assert len(WITH_OUTPUTS) > 5


@pytest.mark.parametrize("name", corpus_cases(WITH_RESOURCES, CORPUS))
def test_top_level_attributes_match_exactly_and_not_when_mutated(name: str) -> None:
    corpus_plan = PLANS[name]
    checked = 0
    for address, deposed, change, _ in _changes(corpus_plan):
        for key, value in change.after.items():
            resolved = resolve_value(change.after, change.after_unknown, change.after_sensitive, New(key))
            check = ExpectKnownValue(address, New(key), kv.exact(value), deposed=deposed)
            if resolved.unknown or resolved.partly_unknown:
                messages = [f.message for f in check.failures(corpus_plan)]
                assert len(messages) == 1
                assert UNKNOWN_OR_EXTRA.match(messages[0]), (address, key)
                continue
            assert check.failures(corpus_plan) == [], (address, key)
            wrong = ExpectKnownValue(address, New(key), kv.exact(mutated(value)), deposed=deposed)
            (failure,) = wrong.failures(corpus_plan)
            assert failure.address == shown_address(address, corpus_plan.secrets)
            assert failure.path is not None
            assert failure.path.steps[0] == MapStep(key)
            checked += 1
        assert ExpectNoValue(address, New(ABSENT_KEY), deposed=deposed).failures(corpus_plan) == []
    assert checked or all(not change.after for _, _, change, _ in _changes(corpus_plan))


@pytest.mark.parametrize("name", corpus_cases(WITH_RESOURCES, CORPUS))
def test_known_leaves_pass_and_unknown_marks_fail(name: str) -> None:
    corpus_plan = PLANS[name]
    seen = 0
    for address, deposed, change, _ in _changes(corpus_plan):
        for path, value in _walk(change.after):
            if isinstance(value, (Mapping, list)) or not len(path):
                continue
            unknown, _ = marks_at(change.after_unknown, path.steps)
            if unknown:
                continue
            check = ExpectKnownValue(address, path, kv.exact(value), deposed=deposed)
            assert check.failures(corpus_plan) == [], (address, path)
            seen += 1
        for path, mark in _walk(change.after_unknown):
            if mark is not True or not len(path):
                continue
            for matcher in (kv.Null(), kv.NotNull()):
                check = ExpectKnownValue(address, path, matcher, deposed=deposed)
                (failure,) = check.failures(corpus_plan)
                assert failure.message.startswith("value is unknown"), (address, path, failure)
                assert failure.path == path
            (no_value,) = ExpectNoValue(address, path, deposed=deposed).failures(corpus_plan)
            assert "but it is unknown" in no_value.message
            seen += 1
    assert seen or all(not change.after for _, _, change, _ in _changes(corpus_plan))


@pytest.mark.parametrize("plan_name", corpus_cases(WITH_OUTPUTS, CORPUS))
def test_outputs(plan_name: str) -> None:
    corpus_plan = PLANS[plan_name]
    seen = 0
    for name, output in corpus_plan.output_changes.items():
        change = output.change
        if change.actions and all(a == "delete" for a in change.actions):
            continue
        resolved = resolve_value(change.after, change.after_unknown, change.after_sensitive, Path())
        check = ExpectKnownOutputValue(name, kv.exact(change.after))
        if resolved.status is ValueStatus.UNKNOWN:
            (failure,) = check.failures(corpus_plan)
            assert failure.message == f"value is unknown; expected {kv.exact(change.after)}", name
        elif resolved.partly_unknown:
            # after leaves unknown attributes out; the matcher still sees them, through the marks.
            (failure,) = check.failures(corpus_plan)
            assert UNKNOWN_OR_EXTRA.match(failure.message), name
        else:
            assert check.failures(corpus_plan) == [], name
            (failure,) = ExpectKnownOutputValue(name, kv.exact(mutated(change.after))).failures(corpus_plan)
            if resolved.sensitive or contains_sensitive(resolved.value_sensitive):
                assert "(sensitive)" in failure.message
        seen += 1
    assert seen
