"""Every check against the real plans of the shared corpus (skipped when the corpus is absent).

For each plan: it loads; every ``true`` in ``after_unknown``/``after_sensitive`` passes the
matching check there and at every path below it that ``after`` names; every known leaf of
``after`` outside an unknown mark fails ExpectUnknownValue with a "known" (or "null")
message, showing ``(sensitive)`` when the leaf is sensitive.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path as FsPath
from typing import Any

import pytest
from corpus_cases import corpus_cases

from plancheck import (
    Change,
    ExpectSensitiveOutputValue,
    ExpectSensitiveValue,
    ExpectUnknownOutputValue,
    ExpectUnknownOutputValueAtPath,
    ExpectUnknownValue,
    Plan,
    PlanCheck,
    load_plan,
)
from plancheck._redact import marks_at
from tfjsonpath import MapStep, Path, SliceStep

CORPUS = FsPath(__file__).resolve().parents[2].parent / "shared" / "corpus" / "plans"
PLAN_FILES = sorted(CORPUS.glob("*.json")) if CORPUS.is_dir() else []


def _walk(value: Any, prefix: Path | None = None) -> Iterator[tuple[Path, Any]]:
    """Every (path, value) in a JSON value, itself first; iterative."""
    stack = [(prefix or Path(), value)]
    while stack:
        path, current = stack.pop()
        yield path, current
        if isinstance(current, Mapping):
            stack.extend((path.join(MapStep(k)), v) for k, v in current.items())
        elif isinstance(current, list):
            stack.extend((path.join(SliceStep(i)), v) for i, v in enumerate(current))


def _true_marks(marks: Any) -> list[Path]:
    return [path for path, mark in _walk(marks) if mark is True]


def _value_at(value: Any, path: Path) -> tuple[bool, Any]:
    for step in path.steps:
        if isinstance(step, MapStep) and isinstance(value, Mapping) and step.key in value:
            value = value[step.key]
        elif isinstance(step, SliceStep) and isinstance(value, list) and step.index < len(value):
            value = value[step.index]
        else:
            return False, None
    return True, value


def _below(change: Change, path: Path) -> list[Path]:
    """The path and every path below it that ``after`` names."""
    found, value = _value_at(change.after, path)
    if not found:
        return [path]
    return [p for p, _ in _walk(value, path)]


def _is_leaf(value: Any) -> bool:
    return not isinstance(value, (Mapping, list)) or len(value) == 0


def _resource_targets(plan: Plan) -> Iterator[tuple[str, str | None, Change]]:
    """(address, deposed, change) of every resource change the index can select unambiguously."""
    counts = Counter((rc.address, rc.deposed) for rc in plan.resource_changes)
    for rc in plan.resource_changes:
        if counts[(rc.address, rc.deposed)] == 1:
            yield rc.address, rc.deposed, rc.change


def _failures(check: PlanCheck, plan: Plan) -> list[str]:
    return [str(f) for f in check.failures(plan)]


@pytest.mark.parametrize("plan_file", corpus_cases(PLAN_FILES, CORPUS, lambda p: p.stem))
def test_corpus_plan(plan_file: FsPath) -> None:
    plan = load_plan(plan_file, allow_errored=True)  # the corpus's errored plans are checked on purpose
    problems: list[str] = []

    for address, deposed, change in _resource_targets(plan):
        for mark in _true_marks(change.after_unknown):
            for path in _below(change, mark):
                problems += _failures(ExpectUnknownValue(address, path, deposed=deposed), plan)
        for mark in _true_marks(change.after_sensitive):
            for path in _below(change, mark):
                problems += _failures(ExpectSensitiveValue(address, path, deposed=deposed), plan)
        if change.after is None:
            continue
        for path, value in _walk(change.after):
            if not _is_leaf(value) or marks_at(change.after_unknown, path.steps)[0]:
                continue
            failures = ExpectUnknownValue(address, path, deposed=deposed).failures(plan)
            messages = [f.message for f in failures]
            if value is None:
                ok = len(messages) == 1 and messages[0].startswith(
                    "expected an unknown value, but it is null"
                )
            elif marks_at(change.after_sensitive, path.steps)[0]:
                ok = messages == ["expected an unknown value, but it is known: (sensitive)"]
            elif _true_marks(_value_at(change.after_unknown, path)[1]):
                # An empty object in after whose attributes are all unknown: {"id": <unknown>, ...}
                ok = len(messages) == 1 and messages[0].startswith(
                    "expected an unknown value, but it is known, with unknown parts: "
                )
            else:
                ok = len(messages) == 1 and messages[0].startswith(
                    "expected an unknown value, but it is known: "
                )
            if not ok:
                problems.append(f"{address} {path.to_text()}: known leaf gave {messages}")

    for name, output in plan.output_changes.items():
        change = output.change
        if change.after_unknown is True:
            problems += _failures(ExpectUnknownOutputValue(name), plan)
        for mark in _true_marks(change.after_unknown):
            for path in _below(change, mark):
                problems += _failures(ExpectUnknownOutputValueAtPath(name, path), plan)
        if change.after_sensitive is True and set(change.actions) - {"delete"}:
            problems += _failures(ExpectSensitiveOutputValue(name), plan)
        if change.after_unknown is not True and "after" in change.raw and set(change.actions) - {"delete"}:
            (failure,) = ExpectUnknownOutputValue(name).failures(plan)
            if change.after_sensitive is True and failure.message != (
                "expected an unknown value, but it is known: (sensitive)"
            ):
                problems.append(f"output {name}: sensitive output shown as {failure.message}")

    assert problems == [], f"{plan_file.name}: {len(problems)} problems, e.g. {problems[:5]}"


def test_the_corpus_exercises_every_kind_of_mark() -> None:
    if not PLAN_FILES:
        pytest.skip(f"no corpus at {CORPUS}")
    seen = Counter[str]()
    for plan_file in PLAN_FILES:
        plan = load_plan(plan_file, allow_errored=True)
        for _, _, change in _resource_targets(plan):
            unknown = _true_marks(change.after_unknown)
            seen["unknown"] += len(unknown)
            seen["whole-map-unknown"] += sum(
                isinstance(_value_at(change.after, p)[1], Mapping) or not _value_at(change.after, p)[0]
                for p in unknown
            )
            seen["sensitive"] += len(_true_marks(change.after_sensitive))
        for output in plan.output_changes.values():
            seen["output-unknown-whole"] += output.change.after_unknown is True
            seen["output-sensitive"] += output.change.after_sensitive is True
    assert all(
        seen[k] > 0
        for k in ("unknown", "whole-map-unknown", "sensitive", "output-unknown-whole", "output-sensitive")
    ), seen
