"""Hypothesis properties of paths: text and repr round-trips, hashing, traversal of every leaf."""

from __future__ import annotations

import pickle
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tfjsonpath import MapStep, New, Path, PathSyntaxError, SliceStep, Traverse, leaves, walk

# Surrogate code points are included on purpose: a Python str may hold them, so they must round-trip too.
any_char = st.characters() | st.characters(categories=["Cs"])
any_key = st.text() | st.text(any_char) | st.sampled_from(["", "0", "a.b", 'q"', "\\", "[0]", "-", "a"])
any_index = st.integers(min_value=0, max_value=2**63 - 1) | st.integers(min_value=0, max_value=12)
any_step = st.one_of(any_key.map(MapStep), any_index.map(SliceStep))
any_path = st.lists(any_step, max_size=12).map(lambda steps: Path(*steps))

# Few distinct steps, so that equal paths are generated often.
few_steps = st.sampled_from([MapStep("a"), MapStep("b"), MapStep("0"), SliceStep(0), SliceStep(1)])
small_path = st.lists(few_steps, max_size=4).map(lambda steps: Path(*steps))

json_scalar = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5)
json_document = st.recursive(
    json_scalar,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=25,
)

SETTINGS = settings(max_examples=200, deadline=None)
DOCUMENT_SETTINGS = settings(max_examples=100, deadline=None)


@SETTINGS
@given(any_path)
def test_to_text_parses_back_to_an_equal_path(path: Path) -> None:
    text = path.to_text()
    parsed = Path.parse(text)
    assert parsed == path
    assert parsed.to_text() == text


@SETTINGS
@given(any_key)
@example("\ud83d\ude00")  # two surrogate code points, which JSON's \uXXXX\uXXXX would merge
@example("\U0001f600\ud800")
def test_any_single_key_round_trips(key: str) -> None:
    assert Path.parse(New(key).to_text()).steps == (MapStep(key),)
    assert Path.parse(New("x").AtMapKey(key).AtSliceIndex(0).to_text()) == New("x").AtMapKey(
        key
    ).AtSliceIndex(0)


@SETTINGS
@given(st.text(alphabet='ab_0159.[]"\\u{}-éx \n\t', max_size=16) | st.text(max_size=16))
def test_parse_accepts_or_raises_path_syntax_error_only(text: str) -> None:
    try:
        path = Path.parse(text)
    except PathSyntaxError as error:
        caught = error
    else:
        assert Path.parse(path.to_text()) == path
        return
    assert 0 <= caught.position <= len(text)
    assert caught.text == text
    assert str(caught).startswith("invalid path ")


@SETTINGS
@given(any_path)
def test_repr_evaluates_back_to_an_equal_path(path: Path) -> None:
    assert eval(repr(path), {"Path": Path, "MapStep": MapStep, "SliceStep": SliceStep}) == path


@SETTINGS
@given(small_path, small_path)
def test_equal_paths_have_equal_hashes(a: Path, b: Path) -> None:
    if a == b:
        assert hash(a) == hash(b)
        assert a.sort_key() == b.sort_key()
    else:
        assert a.steps != b.steps
        assert a.sort_key() != b.sort_key()
    assert (a == b) == (a.to_text() == b.to_text())


@SETTINGS
@given(any_path)
def test_pickle_round_trip(path: Path) -> None:
    for protocol in (0, pickle.HIGHEST_PROTOCOL):
        loaded = pickle.loads(pickle.dumps(path, protocol=protocol))
        assert loaded == path
        assert hash(loaded) == hash(path)


@SETTINGS
@given(any_path, st.lists(any_step, max_size=4), st.lists(any_step, max_size=4))
def test_branches_from_a_shared_base_are_independent(base: Path, left: list[Any], right: list[Any]) -> None:
    before = base.steps
    a = base
    for step in left:
        a = a.AtMapKey(step.key) if isinstance(step, MapStep) else a.AtSliceIndex(step.index)
    b = base.join(*right)
    assert base.steps == before
    assert a.steps == (*before, *left)
    assert b.steps == (*before, *right)


@SETTINGS
@given(any_path, st.lists(any_step, min_size=1, max_size=4))
def test_parent_child_relations(base: Path, suffix: list[Any]) -> None:
    child = base.join(*suffix)
    assert base.is_parent_of(child)
    assert child.is_child_of(base)
    assert not child.is_parent_of(base)
    assert not base.is_parent_of(base)
    assert base in list(child.ancestors())
    assert child.parent == child[:-1]


@DOCUMENT_SETTINGS
@given(json_document)
def test_every_leaf_is_reached_by_its_path(document: Any) -> None:
    for path, value in leaves(document):
        assert Traverse(document, path) is value
        assert Path.parse(path.to_text()) == path


@DOCUMENT_SETTINGS
@given(json_document)
def test_walk_paths_are_unique_and_each_leads_to_its_value(document: Any) -> None:
    pairs = list(walk(document))
    assert len({p for p, _ in pairs}) == len(pairs)
    for path, value in pairs:
        assert Traverse(document, path) is value
