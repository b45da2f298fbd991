"""A snapshot's render and comparison run without the cyclic garbage collector, and restore it.

They make many short-lived objects and no reference cycle. The young collections they would set
off promote those objects until a full collection comes due, and that one visits every container
of the freshly loaded plan for nothing: on the 20,000-resource reference plan, 3 s of a 17 s
render (benchmarks/bench_snapshot.py). So the walks run with the collector off.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from snapshot_support import change, plan_of

from plancheck import Plan, snapshot
from plancheck.snapshot import _compare, _render


@pytest.fixture
def walks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bool]]:
    """Whether the collector was on, each time a value was flattened or a snapshot text read back."""
    seen: list[bool] = []

    def spy(real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            seen.append(gc.isenabled())
            return real(*args, **kwargs)
        return call

    monkeypatch.setattr(_render, "flatten", spy(_render.flatten))
    monkeypatch.setattr(_compare, "parse_snapshot", spy(_compare.parse_snapshot))
    enabled = gc.isenabled()
    gc.enable()
    try:
        yield seen
    finally:
        gc.enable() if enabled else gc.disable()


def _plan(name: str) -> Plan:
    return plan_of(*(change(f"cloud_bucket.b[{i}]", ["create"], {"name": f"{name}-{i}", "tags": {"k": ["v", i]}},
                            sensitive={"tags": {"k": [True, False]}}) for i in range(3)))


def _update(a: Plan, b: Plan, file: Path) -> object:
    file.write_text(snapshot.render(a), encoding="utf-8")
    snapshot.assert_matches(b, file, update=True)
    return file.read_text(encoding="utf-8") == snapshot.render(b)


ACTIONS: dict[str, tuple[Callable[[Plan, Plan, Path], object], int]] = {
    # the action, and how many values it flattens and texts it reads back (3 resources a plan)
    "render": (lambda a, b, file: snapshot.render(a), 3),
    "diff-plans": (lambda a, b, file: snapshot.diff(a, b), 3 + 3 + 2),
    "diff-texts": (lambda a, b, file: snapshot.diff(snapshot.render(a), snapshot.render(b)), 3 + 3 + 2),
    "compare-with-file-and-update": (_update, 3 + 3 + 2 + 3),
    # what the syrupy extension and the plugin's report call
    "compare-texts": (lambda a, b, file: _compare.compare_texts(snapshot.render(a), snapshot.render(b)), 3 + 3 + 2),
}


@pytest.mark.parametrize(("action", "count"), ACTIONS.values(), ids=ACTIONS.keys())
def test_values_are_walked_and_texts_read_with_the_collector_off(
    action: Callable[[Plan, Plan, Path], object], count: int, walks: list[bool], tmp_path: Path
) -> None:
    assert action(_plan("a"), _plan("b"), tmp_path / "plan.snap")
    assert walks == [False] * count
    assert gc.isenabled()


def test_the_collector_is_restored_after_a_failure(walks: list[bool], tmp_path: Path) -> None:
    file = tmp_path / "plan.snap"
    file.write_text(snapshot.render(_plan("a")), encoding="utf-8")
    with pytest.raises(snapshot.SnapshotMismatchError):
        snapshot.assert_matches(_plan("b"), file)
    assert gc.isenabled()
    gc.disable()
    with pytest.raises(snapshot.SnapshotMismatchError):
        snapshot.assert_matches(_plan("b"), file)
    assert not gc.isenabled()  # a program that turned the collector off finds it off
