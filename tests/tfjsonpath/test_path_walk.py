"""walk() and leaves(): every value with its path, in document order; checked on the real corpus too."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path as FilePath
from typing import Any

import pytest

from tfjsonpath import New, Path, PathArgumentError, Traverse, leaves, walk

CORPUS = FilePath(__file__).resolve().parents[2].parent / "shared" / "corpus"


def test_walk_order_and_paths() -> None:
    document = {"b": [1, {"c": None, "d": []}], "a": {}, "s": "text"}
    assert [(p.to_text(), v) for p, v in walk(document)] == [
        ("", document),
        ("b", document["b"]),
        ("b[0]", 1),
        ("b[1]", document["b"][1]),
        ('b[1]["c"]', None),
        ('b[1]["d"]', []),
        ("a", {}),
        ("s", "text"),
    ]


def test_leaves_are_scalars_and_empty_containers() -> None:
    document = {"b": [1, {"c": None, "d": []}], "a": {}, "s": "text"}
    assert [(p.to_text(), v) for p, v in leaves(document)] == [
        ("b[0]", 1),
        ('b[1]["c"]', None),
        ('b[1]["d"]', []),
        ("a", {}),
        ("s", "text"),
    ]


WHOLE_DOCUMENTS = [
    pytest.param("text", [("", "text")], id="scalar"),
    pytest.param(None, [("", None)], id="null"),
    pytest.param({}, [("", {})], id="empty-object"),
    pytest.param([], [("", [])], id="empty-array"),
    pytest.param(["a", "b"], [("[0]", "a"), ("[1]", "b")], id="root-array"),
    pytest.param({"a.b": 1, "": 2}, [('["a.b"]', 1), ('[""]', 2)], id="awkward-keys"),
    pytest.param({"t": ("x",)}, [("t[0]", "x")], id="tuple-is-an-array"),
    pytest.param({"s": "abc"}, [("s", "abc")], id="strings-are-not-walked-into"),
]


@pytest.mark.parametrize(("document", "expected"), WHOLE_DOCUMENTS)
def test_leaves_of_small_documents(document: Any, expected: list[tuple[str, Any]]) -> None:
    assert [(p.to_text(), v) for p, v in leaves(document)] == expected


def test_prefix_is_put_in_front_of_every_path() -> None:
    after = {"id": "x", "tags": {"Name": "n"}}
    pairs = list(leaves(after, prefix=New("change").AtMapKey("after")))
    assert [p.to_text() for p, _ in pairs] == ['change["after"]["id"]', 'change["after"]["tags"]["Name"]']
    document = {"change": {"after": after}}
    for path, value in pairs:
        assert Traverse(document, path) is value


def test_walk_is_lazy() -> None:
    items = walk({"a": [1, 2, 3]})
    assert next(items)[0] == Path()
    assert next(items)[0] == New("a")


def test_walk_does_not_mutate_the_document() -> None:
    document = {"a": [1, {"b": 2}]}
    before = json.dumps(document)
    list(walk(document))
    assert json.dumps(document) == before


def test_shared_subtrees_are_walked_twice() -> None:
    shared = [1]
    assert [p.to_text() for p, _ in leaves({"x": shared, "y": shared})] == ["x[0]", "y[0]"]


WALK_ERRORS = [
    pytest.param(
        {"a": {1: "x"}},
        PathArgumentError,
        "not a JSON document: an object key at a is a int, not a str",
        id="int-key",
    ),
    pytest.param(
        {None: "x"},
        PathArgumentError,
        "not a JSON document: an object key at the top is a NoneType, not a str",
        id="none-key-at-top",
    ),
    pytest.param(
        {"a": [{"b": {2: 1}}]},
        PathArgumentError,
        'not a JSON document: an object key at a[0]["b"] is a int, not a str',
        id="int-key-deep",
    ),
    pytest.param(
        {"a": {True: 1}},
        PathArgumentError,
        "not a JSON document: an object key at a is a bool, not a str",
        id="bool-key",
    ),
]


@pytest.mark.parametrize(("document", "error", "message"), WALK_ERRORS)
def test_walk_rejects_non_json(document: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        list(walk(document))
    assert (type(info.value), str(info.value)) == (error, message)


def _take(pairs: Iterator[tuple[Path, Any]]) -> None:
    # Bounded, so that a walk that fails to notice a cycle fails the test instead of hanging it.
    for _ in itertools.islice(pairs, 1_000):
        pass


def test_walk_detects_a_cycle() -> None:
    document: dict[str, Any] = {"a": [1]}
    document["a"].append(document)
    with pytest.raises(PathArgumentError) as info:
        _take(walk(document))
    assert str(info.value) == "not a JSON document: the value at a[1] contains itself"
    with pytest.raises(PathArgumentError) as info:
        _take(leaves(document))
    assert str(info.value) == "not a JSON document: the value at a[1] contains itself"


def test_walk_detects_an_inner_cycle() -> None:
    inner: list[Any] = []
    inner.append({"again": inner})
    with pytest.raises(PathArgumentError) as info:
        _take(walk({"x": [inner]}))
    assert str(info.value) == 'not a JSON document: the value at x[0][0]["again"] contains itself'


def test_int_keyed_mapping_is_not_mistaken_for_an_array() -> None:
    with pytest.raises(TypeError):
        list(leaves({1: "x"}))


def test_walk_rejects_a_bad_prefix_at_once() -> None:
    with pytest.raises(PathArgumentError) as info:
        walk({}, prefix="a")  # type: ignore[arg-type]
    assert str(info.value) == "walk() prefix must be a tfjsonpath.Path, got str"
    with pytest.raises(PathArgumentError) as info:
        leaves({}, prefix=("a",))  # type: ignore[arg-type]
    assert str(info.value) == "leaves() prefix must be a tfjsonpath.Path, got tuple"


# -- the real corpus ----------------------------------------------------------------------------


def _corpus_files() -> list[Any]:
    if not CORPUS.is_dir():
        return [pytest.param(None, id="corpus-absent")]
    files = sorted(
        f for f in CORPUS.rglob("*.json") if f.is_file() and "invalid" not in f.relative_to(CORPUS).parts
    )
    return [pytest.param(f, id=str(f.relative_to(CORPUS))) for f in files]


def _count_nodes(value: Any) -> int:
    # Corpus documents are shallow; plain recursion is fine for this independent count.
    if isinstance(value, dict):
        return 1 + sum(_count_nodes(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(_count_nodes(v) for v in value)
    return 1


@pytest.mark.parametrize("file", _corpus_files())
def test_every_value_of_a_real_document_is_reached_by_its_path(file: FilePath | None) -> None:
    if file is None:
        pytest.skip(f"corpus not found at {CORPUS}")
    document = json.loads(file.read_text(encoding="utf-8"))
    count = 0
    for path, value in walk(document):
        count += 1
        assert Traverse(document, path) is value
        assert Path.parse(path.to_text()) == path
    assert count == _count_nodes(document)
    leaf_paths = [p for p, _ in leaves(document)]
    assert len(set(leaf_paths)) == len(leaf_paths)
