"""Laws of the plan checks, checked with Hypothesis."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck import (
    ExpectEmptyPlan,
    ExpectNonEmptyPlan,
    ExpectResourceReplacePaths,
    ExpectSensitiveValue,
    ExpectUnknownValue,
    Plan,
    ResourceAction,
)
from tfjsonpath import MapStep, Path, SliceStep

SETTINGS = settings(max_examples=100, deadline=None)

keys = st.sampled_from(["a", "b", "c", "tags", "a.b", "sp ace", "ü"])
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(alphabet="xyz", max_size=3)),
    lambda children: st.one_of(st.lists(children, max_size=3), st.dictionaries(keys, children, max_size=3)),
    max_leaves=12,
)


def _paths(value: Any) -> Iterator[Path]:
    stack = [(Path(), value)]
    while stack:
        path, current = stack.pop()
        yield path
        if isinstance(current, Mapping):
            stack.extend((path.join(MapStep(k)), v) for k, v in current.items())
        elif isinstance(current, list):
            stack.extend((path.join(SliceStep(i)), v) for i, v in enumerate(current))


def _marks_with_true_at(path: Path) -> Any:
    """A marks tree with a single ``true``, at ``path``."""
    marks: Any = True
    for step in reversed(path.steps):
        marks = {step.key: marks} if isinstance(step, MapStep) else [False] * step.index + [marks]
    return marks


def _one_resource_plan(after: Any, after_unknown: Any = None, after_sensitive: Any = None) -> Plan:
    change = {"actions": ["create"], "after": after, "after_unknown": after_unknown or {}}
    if after_sensitive is not None:
        change["after_sensitive"] = after_sensitive
    return Plan.from_dict(
        {"format_version": "1.2", "resource_changes": [{"address": "r.x", "change": change}]}
    )


@st.composite
def value_and_two_paths(draw: st.DrawFn) -> tuple[Any, Path, Path]:
    value = draw(json_values)
    paths = sorted(_paths(value), key=Path.sort_key)
    return value, draw(st.sampled_from(paths)), draw(st.sampled_from(paths))


@SETTINGS
@given(value_and_two_paths())
def test_unknown_iff_a_mark_at_the_path_or_an_ancestor(case: tuple[Any, Path, Path]) -> None:
    value, checked, marked = case
    plan = _one_resource_plan(value, after_unknown=_marks_with_true_at(marked))
    covered = marked == checked or marked.is_parent_of(checked)
    assert (ExpectUnknownValue("r.x", checked).failures(plan) == []) is covered


@SETTINGS
@given(value_and_two_paths())
def test_sensitive_iff_a_mark_at_the_path_or_an_ancestor(case: tuple[Any, Path, Path]) -> None:
    value, checked, marked = case
    plan = _one_resource_plan(value, after_sensitive=_marks_with_true_at(marked))
    covered = marked == checked or marked.is_parent_of(checked)
    assert (ExpectSensitiveValue("r.x", checked).failures(plan) == []) is covered


secrets = st.text(alphabet="QZXJ#%@~", min_size=4, max_size=10)


@SETTINGS
@given(value_and_two_paths(), secrets)
def test_a_value_under_a_sensitive_mark_never_shows(case: tuple[Any, Path, Path], secret: str) -> None:
    value, checked, marked = case
    # Plant the secret at the marked path (replacing what was there).
    planted = Path() if not len(marked) else marked
    document: Any = {"v": value}
    container: Any = document
    key: Any = "v"
    for step in planted.steps:
        container = container[key]
        key = step.key if isinstance(step, MapStep) else step.index
    container[key] = secret
    plan = _one_resource_plan(document["v"], after_sensitive=_marks_with_true_at(marked))
    for path in (checked, Path(), planted):
        for failure in ExpectUnknownValue("r.x", path).failures(plan):
            assert secret not in str(failure)


actions_lists = st.one_of(
    st.sampled_from(
        [
            ["no-op"],
            ["create"],
            ["read"],
            ["update"],
            ["delete"],
            ["delete", "create"],
            ["create", "delete"],
            ["forget"],
            ["create", "forget"],
        ]
    ),
    st.lists(st.sampled_from(["no-op", "create", "read", "update", "delete", "forget"]), max_size=3),
)


@SETTINGS
@given(actions_lists)
def test_at_most_one_exact_action_matches_and_replace_is_either_order(actions: list[str]) -> None:
    exact = [a for a in ResourceAction if a is not ResourceAction.Replace and a.matches(actions)]
    assert len(exact) <= 1
    assert (ResourceAction.of(actions) is None) == (exact == [])
    assert ResourceAction.Replace.matches(actions) == bool(
        {ResourceAction.DestroyBeforeCreate, ResourceAction.CreateBeforeDestroy} & set(exact)
    )


resource_changes = st.lists(
    st.fixed_dictionaries(
        {"actions": actions_lists.filter(bool), "moved": st.booleans(), "imported": st.booleans()}
    ),
    max_size=4,
)


@SETTINGS
@given(
    resource_changes,
    st.lists(st.sampled_from([["no-op"], ["create"], ["update"], ["delete"]]), max_size=3),
    st.lists(st.sampled_from(["absent_prereq", "unknown"]), max_size=2),
)
def test_exactly_one_of_empty_and_non_empty_holds(
    changes: list[dict[str, Any]], outputs: list[list[str]], deferred: list[str]
) -> None:
    rcs = []
    for i, c in enumerate(changes):
        rc: dict[str, Any] = {"address": f"r.n{i}", "change": {"actions": c["actions"]}}
        if c["moved"]:
            rc["previous_address"] = f"r.old{i}"
        if c["imported"]:
            rc["change"]["importing"] = {"id": str(i)}
        rcs.append(rc)
    plan = Plan.from_dict(
        {
            "format_version": "1.2",
            "resource_changes": rcs,
            "output_changes": {f"o{i}": {"actions": a} for i, a in enumerate(outputs)},
            "deferred_changes": [
                {"reason": r, "resource_change": {"address": f"d.x{i}", "change": {"actions": ["create"]}}}
                for i, r in enumerate(deferred)
            ],
        }
    )
    empty = ExpectEmptyPlan().failures(plan)
    non_empty = ExpectNonEmptyPlan().failures(plan)
    assert (empty == []) != (non_empty == [])
    expected_count = (
        sum(c["actions"] != ["no-op"] or c["moved"] or c["imported"] for c in changes)
        + sum(a != ["no-op"] for a in outputs)
        + len(deferred)
    )
    assert len(empty) == expected_count


path_pool = st.sampled_from(
    [Path(MapStep("a")), Path(MapStep("b"), SliceStep(0)), Path(MapStep("tags"), MapStep("a.b")), Path()]
)


@SETTINGS
@given(st.lists(path_pool, max_size=4), st.lists(path_pool, max_size=6))
def test_replace_paths_compare_as_sets(actual: list[Path], expected: list[Path]) -> None:
    raw = [[s.key if isinstance(s, MapStep) else s.index for s in p.steps] for p in actual]
    change: dict[str, Any] = {"actions": ["delete", "create"]}
    if raw:
        change["replace_paths"] = raw
    plan = Plan.from_dict(
        {"format_version": "1.2", "resource_changes": [{"address": "r.x", "change": change}]}
    )
    failures = ExpectResourceReplacePaths("r.x", expected).failures(plan)
    assert (failures == []) is (set(actual) == set(expected))
    if failures:
        message = failures[0].message
        assert ("missing " in message) is bool(set(expected) - set(actual))
        assert ("unexpected " in message) is bool(set(actual) - set(expected))
    # Order and duplicates in the expectation never matter.
    assert ExpectResourceReplacePaths(
        "r.x", list(reversed(expected)) + expected
    ) == ExpectResourceReplacePaths("r.x", expected)
