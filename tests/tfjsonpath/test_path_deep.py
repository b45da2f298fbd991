"""Deep documents and long paths never hit RecursionError, and stay fast enough to use."""

from __future__ import annotations

import copy
import pickle
import sys
from typing import Any

import pytest

import tfjsonpath
from tfjsonpath import MapStep, New, Path, PathNotFoundError, SliceStep, Traverse, leaves, walk

DEPTH = 10_000
LONG = 20_000

# Well past the interpreter's recursion limit, so any recursive implementation would fail.
assert sys.getrecursionlimit() < DEPTH


def _nested(depth: int) -> tuple[Any, Path]:
    """A document nested ``depth`` levels (objects and arrays alternating), and the path to its leaf."""
    document: Any = "leaf"
    steps: list[Any] = []
    for level in range(depth):
        if level % 2:
            document = [document]
            steps.append(SliceStep(0))
        else:
            document = {"k": document}
            steps.append(MapStep("k"))
    return document, Path(*reversed(steps))


@pytest.fixture(scope="module")
def deep() -> tuple[Any, Path]:
    return _nested(DEPTH)


def test_traverse_a_deep_document(deep: tuple[Any, Path]) -> None:
    document, path = deep
    assert len(path) == DEPTH
    assert Traverse(document, path) == "leaf"


def test_not_found_deep_in_a_deep_document(deep: tuple[Any, Path]) -> None:
    document, path = deep
    with pytest.raises(PathNotFoundError) as info:
        Traverse(document, path.AtMapKey("beyond"))
    assert info.value.step_index == DEPTH
    assert info.value.found == "a string"
    assert info.value.reached == path


def test_leaves_of_a_deep_document(deep: tuple[Any, Path]) -> None:
    document, path = deep
    assert list(leaves(document)) == [(path, "leaf")]


def test_walk_of_a_deep_document() -> None:
    # walk() builds one path per value, so its cost is depth x values: 3,000 levels is
    # past the recursion limit and keeps the test fast.
    document, path = _nested(3_000)
    pairs = list(walk(document))
    assert len(pairs) == 3_001
    assert pairs[-1] == (path, "leaf")
    assert [len(p) for p, _ in pairs] == list(range(3_001))
    assert pairs[1_500][0] == path[:1_500]


@pytest.fixture(scope="module")
def long_path() -> Path:
    steps = [MapStep(f"k{i}") if i % 3 else SliceStep(i) for i in range(LONG)]
    return Path(*steps)


def test_long_path_built_one_step_at_a_time() -> None:
    path = New("root")
    for i in range(10_000):
        path = path.AtSliceIndex(i) if i % 2 else path.AtMapKey("x")
    assert len(path) == 10_001
    assert path.last_step == SliceStep(9_999)


def test_long_path_text_forms(long_path: Path) -> None:
    text = long_path.to_text()
    assert Path.parse(text) == long_path
    assert str(long_path).count(".") == LONG - 1
    assert eval(repr(long_path), vars(tfjsonpath)) == long_path


def test_long_path_hash_and_equality(long_path: Path) -> None:
    twin = Path(*long_path.steps)
    assert twin == long_path
    assert hash(twin) == hash(long_path)
    assert long_path.AtMapKey("x") != long_path.AtMapKey("y")
    assert long_path.sort_key() == twin.sort_key()
    assert long_path.parent is not None
    assert long_path.parent.is_parent_of(long_path)


def test_long_path_pickle_and_copy(long_path: Path) -> None:
    assert pickle.loads(pickle.dumps(long_path)) == long_path
    assert copy.deepcopy({"p": long_path})["p"] == long_path


def test_long_path_traverse_error_names_the_step(long_path: Path) -> None:
    with pytest.raises(PathNotFoundError) as info:
        Traverse({"k": 1}, long_path)
    assert info.value.step_index == 0
    assert info.value.go_message == "path not found: cannot convert object at SliceStep 0 to []any"


def test_long_path_parse_error_is_short() -> None:
    text = "a" + "[0]" * LONG + "!"
    with pytest.raises(tfjsonpath.PathSyntaxError) as info:
        Path.parse(text)
    assert info.value.position == len(text) - 1
    assert len(str(info.value)) < 200
