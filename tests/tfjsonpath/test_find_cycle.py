"""``find_cycle``, the one finder of a value held inside itself: plans, states, matchers' values, marks trees and a
test's variables all refuse a cycle by it, each naming the place in its own words (tests/test_cyclic_values.py).

It names the first cycle a reader meets, the place where it closes and the container it goes back to; a container
shared by two parents is no cycle and is walked once, so a value sharing its containers at every level (2**30 ways
down through 31 containers) costs 31 steps, not 2**30 (before: ``knownvalue``'s, the comparers' and the runner's
walks went down every way, and a marks tree of that shape hung ``CompareValues``).
"""

from __future__ import annotations

from collections import deque
from typing import Any

import pytest
from counted_reads import Counted, counted_shared

from plancheck import ValueMismatchError
from plancheck.compare import ValuesDiffer, ValuesSame
from tfjsonpath._jsontypes import Cycle, find_cycle, is_array


class _Wrapped:
    """A wrapper (a secret's) that :func:`find_cycle` opens with ``unwrap``."""

    def __init__(self, value: Any) -> None:
        self.value = value


def _unwrap(value: Any) -> Any:
    return value.value if isinstance(value, _Wrapped) else value


def _shared(levels: int, kind: str = "list") -> Any:
    """A value whose every container is held twice by the one above it: ``2**levels`` ways down, no cycle."""
    value: Any = [] if kind == "list" else {}
    for _ in range(levels):
        value = [value, value] if kind == "list" else {"left": value, "right": value}
    return value


def _self_list() -> list[Any]:
    value: list[Any] = [1]
    value.append(value)
    return value


def _back_to_middle() -> dict[str, Any]:
    inner: dict[str, Any] = {"k": []}
    inner["k"].append(inner)
    return {"a": [0, {"b": inner}]}


def _two_cycles() -> dict[str, Any]:
    first: list[Any] = []
    first.append(first)
    second: list[Any] = []
    second.append(second)
    return {"x": first, "y": second}


def _through_wrapper() -> list[Any]:
    value: list[Any] = []
    value.append(_Wrapped({"s": value}))
    return value


def _through_tuple() -> list[Any]:
    value: list[Any] = []
    value.append(("t", value))
    return value


def _through_deque() -> list[Any]:
    value: list[Any] = []
    value.append(deque([value]))
    return value


@pytest.mark.parametrize(
    ("make", "options", "found"),
    [
        pytest.param(lambda: {"a": 1, "b": [None, "x"]}, {}, None, id="plain-json"),
        pytest.param(lambda: 7, {}, None, id="scalar"),
        pytest.param(_self_list, {}, Cycle(at=(1,), back=()), id="list-holds-itself"),
        pytest.param(_back_to_middle, {}, Cycle(at=("a", 1, "b", "k", 0), back=("a", 1, "b")), id="back-to-middle"),
        pytest.param(_two_cycles, {}, Cycle(at=("x", 0), back=("x",)), id="first-in-document-order"),
        pytest.param(_through_tuple, {}, Cycle(at=(0, 1), back=()), id="through-a-tuple"),
        pytest.param(lambda: {"x": _shared(3), "y": [_shared(3)]}, {}, None, id="shared-is-no-cycle"),
        pytest.param(_through_wrapper, {"unwrap": _unwrap}, Cycle(at=(0, "s"), back=()), id="through-a-wrapper"),
        pytest.param(_through_wrapper, {}, None, id="wrapper-kept-closed-without-unwrap"),
        pytest.param(_through_deque, {}, Cycle(at=(0, 0), back=()), id="document-opens-any-sequence"),
        pytest.param(_through_deque, {"sequence": is_array}, None, id="json-value-opens-arrays-only"),
    ],
)
def test_find_cycle_names_where_it_closes_and_where_it_goes_back(make: Any, options: dict[str, Any],
                                                                  found: Cycle | None) -> None:
    assert find_cycle(make(), **options) == found


@pytest.mark.parametrize("kind", ["list", "dict"])
def test_a_value_shared_at_every_level_is_walked_once_per_container(kind: str) -> None:
    value = _shared(30, kind)
    assert find_cycle(value) is None
    looped = _shared(30, kind)
    inner = looped
    while inner:  # down the first way to the bottom, which is made to hold the top
        inner = inner[0] if kind == "list" else inner["left"]
    if kind == "list":
        inner.append(looped)
    else:
        inner["back"] = looped
    assert find_cycle(looped) == Cycle(at=(0,) * 30 + (0,) if kind == "list" else ("left",) * 30 + ("back",), back=())


def test_the_finder_reads_each_shared_container_once() -> None:
    value = counted_shared(20)
    Counted.reads = 0
    assert find_cycle(value) is None
    assert Counted.reads == 21


@pytest.mark.parametrize("levels", [20, 30], ids=["20-levels", "30-levels"])
def test_compare_values_walks_a_shared_marks_tree_once_per_container(levels: int) -> None:
    tree = counted_shared(levels)
    Counted.reads = 0
    ValuesSame().CompareValues([1, 1], sensitive=[tree, None])
    assert Counted.reads <= 2 * (levels + 1)


# The comparers' own walks (is each value JSON, where do two differ) go through a shared container once too: before,
# ``CompareValues`` went down each of the 2**30 ways of these values.


@pytest.mark.parametrize("kind", ["list", "dict"])
def test_compare_values_of_values_shared_at_every_level_completes(kind: str) -> None:
    ValuesSame().CompareValues([_shared(30, kind), _shared(30, kind)])
    with pytest.raises(ValueMismatchError, match=r"^expected values to differ, but they are the same: "):
        ValuesDiffer().CompareValues([_shared(2, kind), _shared(2, kind)])


def test_compare_values_reads_each_shared_container_of_the_values_a_few_times() -> None:
    values = [counted_shared(20), counted_shared(20)]
    Counted.reads = 0
    ValuesSame().CompareValues(values)
    assert Counted.reads <= 6 * 21  # each value's containers: checked as JSON, then compared (keys, then items)


@pytest.mark.parametrize(
    ("kind", "place"),
    [pytest.param("list", "[1]" * 30 + '["bad"]', id="list"), pytest.param("dict", 'right' + '["right"]' * 29 + '["bad"]', id="dict")],
)
def test_a_fault_in_a_shared_container_is_named_at_the_first_place_it_is_checked(kind: str, place: str) -> None:
    bottom: Any = {"bad": {1}}
    value: Any = bottom
    for _ in range(30):
        value = [value, value] if kind == "list" else {"left": value, "right": value}
    with pytest.raises(TypeError) as info:
        ValuesSame().CompareValues([value, 1])
    assert str(info.value) == f"CompareValues: values[0] at {place} is not a JSON value: non-JSON set"


@pytest.mark.parametrize("kind", ["list", "dict"])
def test_a_cycle_below_shared_containers_is_still_refused_where_it_closes(kind: str) -> None:
    value = _shared(30, kind)
    inner = value
    while inner:
        inner = inner[0] if kind == "list" else inner["left"]
    if kind == "list":
        inner.append(value)
    else:
        inner["back"] = value
    place = "[0]" * 31 if kind == "list" else "left" + '["left"]' * 29 + '["back"]'
    with pytest.raises(TypeError) as info:
        ValuesSame().CompareValues([value, 1])
    assert str(info.value) == (
        f"CompareValues: values[0] is not a JSON value: the value at {place} contains itself (a cycle back to the root)"
    )
