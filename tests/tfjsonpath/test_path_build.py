"""Building and inspecting paths: builders, validation, immutability, equality, hashing, pickling."""

from __future__ import annotations

import copy
import enum
import inspect
import pickle
from typing import Any

import pytest

import tfjsonpath
from tfjsonpath import MapStep, New, Path, PathArgumentError, SliceStep, TfJsonPathError


class Color(str, enum.Enum):  # noqa: UP042 - the mixin form on purpose: its str() is not its value
    RED = "red"


class Level(enum.IntEnum):
    TWO = 2


# -- the contract from the issue ---------------------------------------------------------------


def test_contract_example() -> None:
    p = tfjsonpath.New("root_list_block").AtSliceIndex(0).AtMapKey("nested_list_block")
    assert str(p) == "root_list_block.0.nested_list_block"
    assert p.steps == (MapStep("root_list_block"), SliceStep(0), MapStep("nested_list_block"))
    assert eval(repr(p), vars(tfjsonpath)) == p
    assert p.parent == New("root_list_block").AtSliceIndex(0)
    assert p.last_step == MapStep("nested_list_block")
    assert len(p) == 3


@pytest.mark.parametrize(
    ("owner", "alias"),
    [
        pytest.param(Path, "at_map_key", id="at_map_key"),
        pytest.param(Path, "at_slice_index", id="at_slice_index"),
        pytest.param(Path, "Traverse", id="Path.Traverse"),
        pytest.param(tfjsonpath, "traverse", id="tfjsonpath.traverse"),
    ],
)
def test_gos_names_are_the_only_names(owner: object, alias: str) -> None:
    # #34: one name for one thing; Go's where Go has one (AtMapKey, Traverse), Python's where it has none.
    assert not hasattr(owner, alias)


def test_new_accepts_a_root_level_index() -> None:
    assert New(0).steps == (SliceStep(0),)
    assert New(0).AtMapKey("StringValue").steps == (SliceStep(0), MapStep("StringValue"))


def test_path_constructor_takes_steps() -> None:
    assert Path(MapStep("a"), SliceStep(1)) == New("a").AtSliceIndex(1)
    assert Path().steps == ()


# -- bad construction fails at once, naming the argument --------------------------------------

BAD_CONSTRUCTION = [
    pytest.param(
        lambda: New(1.5),
        PathArgumentError,
        "New() first_step must be a str (map key) or an int (slice index), got float",
        id="new-float",
    ),
    pytest.param(
        lambda: New(None),
        PathArgumentError,
        "New() first_step must be a str (map key) or an int (slice index), got NoneType",
        id="new-none",
    ),
    pytest.param(
        lambda: New(True),
        PathArgumentError,
        "New() first_step must be a str (map key) or an int (slice index), got bool",
        id="new-bool",
    ),
    pytest.param(
        lambda: New(b"a"),
        PathArgumentError,
        "New() first_step must be a str (map key) or an int (slice index), got bytes",
        id="new-bytes",
    ),
    pytest.param(
        lambda: New(-1), PathArgumentError, "New() first_step index must be >= 0, got -1", id="new-negative"
    ),
    pytest.param(
        lambda: New("a").AtMapKey(1), PathArgumentError, "AtMapKey() key must be a str, got int", id="at-map-key-int"
    ),
    pytest.param(
        lambda: New("a").AtMapKey(None),
        PathArgumentError,
        "AtMapKey() key must be a str, got NoneType",
        id="at-map-key-none",
    ),
    pytest.param(
        lambda: New("a").AtMapKey(b"k"),
        PathArgumentError,
        "AtMapKey() key must be a str, got bytes",
        id="at-map-key-bytes",
    ),
    pytest.param(
        lambda: New("a").AtSliceIndex("0"),
        PathArgumentError,
        "AtSliceIndex() index must be an int, got str",
        id="at-slice-index-str",
    ),
    pytest.param(
        lambda: New("a").AtSliceIndex(True),
        PathArgumentError,
        "AtSliceIndex() index must be an int, got bool",
        id="at-slice-index-bool",
    ),
    pytest.param(
        lambda: New("a").AtSliceIndex(1.0),
        PathArgumentError,
        "AtSliceIndex() index must be an int, got float",
        id="at-slice-index-float",
    ),
    pytest.param(
        lambda: New("a").AtSliceIndex(-3),
        PathArgumentError,
        "AtSliceIndex() index must be >= 0, got -3",
        id="at-slice-index-negative",
    ),
    pytest.param(
        lambda: New("a").AtSliceIndex(2**63),
        PathArgumentError,
        "AtSliceIndex() index must be <= 9223372036854775807 (2**63 - 1), got a 64-bit int",
        id="at-slice-index-too-big",
    ),
    pytest.param(
        lambda: New("a").AtSliceIndex(10**5000),
        PathArgumentError,
        "AtSliceIndex() index must be <= 9223372036854775807 (2**63 - 1), got a 16610-bit int",
        id="at-slice-index-unprintably-big",
    ),
    pytest.param(lambda: MapStep(0), PathArgumentError, "MapStep() key must be a str, got int", id="mapstep-int"),
    pytest.param(
        lambda: SliceStep("0"), PathArgumentError, "SliceStep() index must be an int, got str", id="slicestep-str"
    ),
    pytest.param(
        lambda: SliceStep(False), PathArgumentError, "SliceStep() index must be an int, got bool", id="slicestep-bool"
    ),
    pytest.param(
        lambda: SliceStep(-1), PathArgumentError, "SliceStep() index must be >= 0, got -1", id="slicestep-negative"
    ),
    pytest.param(
        lambda: Path("a"),
        PathArgumentError,
        "Path() step 0 must be a MapStep or SliceStep, got str (build paths from keys and indexes with New(...) or Path.parse(...))",
        id="path-str-step",
    ),
    pytest.param(
        lambda: Path(MapStep("a"), 0),
        PathArgumentError,
        "Path() step 1 must be a MapStep or SliceStep, got int (build paths from keys and indexes with New(...) or Path.parse(...))",
        id="path-int-step",
    ),
    pytest.param(
        lambda: New("a").join(1.5),
        PathArgumentError,
        "join() argument 1 must be a Path, MapStep, SliceStep, str key or int index, got float",
        id="join-float",
    ),
    pytest.param(
        lambda: New("a").join("b", True),
        PathArgumentError,
        "join() argument 2 must be a Path, MapStep, SliceStep, str key or int index, got bool",
        id="join-bool",
    ),
    pytest.param(
        lambda: New("a").join(0, -1),
        PathArgumentError,
        "join() argument 2 index must be >= 0, got -1",
        id="join-negative",
    ),
    pytest.param(
        lambda: New("a").is_parent_of("a"),
        PathArgumentError,
        "is_parent_of() expects a Path, got str",
        id="is-parent-of-str",
    ),
    pytest.param(
        lambda: New("a").is_child_of(None),
        PathArgumentError,
        "is_child_of() expects a Path, got NoneType",
        id="is-child-of-none",
    ),
    pytest.param(
        lambda: New("a")["x"], TypeError, "Path indices must be ints or slices, got str", id="getitem-str"
    ),
    pytest.param(
        lambda: New("a")[1],
        IndexError,
        "step 1 is out of range for a path of 1 steps",
        id="getitem-out-of-range",
    ),
    pytest.param(
        lambda: Path.parse(b"a"), PathArgumentError, "Path.parse() text must be a str, got bytes", id="parse-bytes"
    ),
    pytest.param(
        lambda: tfjsonpath.Traverse({}, "a"),
        PathArgumentError,
        "Traverse() path must be a tfjsonpath.Path, got str",
        id="traverse-str",
    ),
]


@pytest.mark.parametrize(("build", "error", "message"), BAD_CONSTRUCTION)
def test_bad_construction_fails_at_once(build: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        build()
    assert type(info.value) is error
    assert str(info.value) == message


def test_a_path_argument_error_is_a_tfjsonpath_error_and_both_builtins_it_was() -> None:
    # Code that caught the builtin a misuse raised before (TypeError or ValueError) goes on catching it.
    assert [issubclass(PathArgumentError, base) for base in (TfJsonPathError, TypeError, ValueError)] == [True] * 3
    assert (PathArgumentError.__module__, "PathArgumentError" in tfjsonpath.__all__) == ("tfjsonpath", True)


@pytest.mark.parametrize(("build", "error", "message"), BAD_CONSTRUCTION)
def test_a_refusal_is_one_error_in_the_traceback(build: Any, error: type[Exception], message: str) -> None:
    # A builder says its step's refusal in its own name: the step's own wording is not shown before it.
    with pytest.raises(error) as info:
        build()
    assert info.value.__cause__ is None
    assert info.value.__context__ is None or info.value.__suppress_context__


@pytest.mark.parametrize(
    ("step", "parameters"),
    [pytest.param(MapStep, ["key"], id="MapStep-key"), pytest.param(SliceStep, ["index"], id="SliceStep-index")],
)
def test_a_steps_constructor_takes_its_key_or_index_only(step: type, parameters: list[str]) -> None:
    # #34: the builder a refusal names was a private keyword of the public constructor (_caller).
    assert list(inspect.signature(step).parameters) == parameters


# -- normalisation of subclasses ---------------------------------------------------------------


def test_str_and_int_subclasses_are_stored_as_plain_values() -> None:
    p = New(Color.RED).AtMapKey(Color.RED).AtSliceIndex(Level.TWO)
    assert [type(s.key if isinstance(s, MapStep) else s.index) for s in p] == [str, str, int]
    assert p == New("red").AtMapKey("red").AtSliceIndex(2)
    assert str(p) == "red.red.2"
    assert repr(p) == "Path(MapStep('red'), MapStep('red'), SliceStep(2))"
    assert type(SliceStep(Level.TWO).index) is int
    assert type(MapStep(Color.RED).key) is str


# -- immutability and branching ----------------------------------------------------------------

MUTATIONS = [
    pytest.param(
        lambda: setattr(New("a"), "_steps", ()), "Path is immutable; cannot set '_steps'", id="path-set"
    ),
    pytest.param(
        lambda: setattr(New("a"), "extra", 1), "Path is immutable; cannot set 'extra'", id="path-set-new"
    ),
    pytest.param(
        lambda: delattr(New("a"), "_steps"), "Path is immutable; cannot delete '_steps'", id="path-delete"
    ),
    pytest.param(
        lambda: setattr(MapStep("a"), "key", "b"), "MapStep is immutable; cannot set 'key'", id="mapstep-set"
    ),
    pytest.param(
        lambda: delattr(MapStep("a"), "key"), "MapStep is immutable; cannot delete 'key'", id="mapstep-delete"
    ),
    pytest.param(
        lambda: setattr(SliceStep(0), "index", 1),
        "SliceStep is immutable; cannot set 'index'",
        id="slicestep-set",
    ),
    pytest.param(
        lambda: delattr(SliceStep(0), "index"),
        "SliceStep is immutable; cannot delete 'index'",
        id="slicestep-delete",
    ),
]


@pytest.mark.parametrize(("mutate", "message"), MUTATIONS)
def test_paths_and_steps_are_immutable(mutate: Any, message: str) -> None:
    with pytest.raises(AttributeError) as info:
        mutate()
    assert str(info.value) == message


def test_objects_are_slotted() -> None:
    for obj in (New("a"), MapStep("a"), SliceStep(0)):
        assert not hasattr(obj, "__dict__")


def test_steps_are_a_tuple() -> None:
    assert type(New("a").AtSliceIndex(0).steps) is tuple


@pytest.mark.parametrize("base_length", [0, 1, 2, 3, 4, 5, 8])
def test_branches_from_a_shared_base_never_affect_each_other(base_length: int) -> None:
    # In Go, AtMapKey appends to the base's backing array; when it has spare capacity
    # (base of 3 steps: len 3, cap 4) two branches share, and the second overwrites the first.
    base = New("root")
    for i in range(base_length):
        base = base.AtMapKey(f"k{i}") if i % 2 else base.AtSliceIndex(i)
    base_steps = base.steps
    x = base.AtMapKey("x")
    y = base.AtMapKey("y")
    z = base.AtSliceIndex(9)
    assert x.last_step == MapStep("x")
    assert y.last_step == MapStep("y")
    assert z.last_step == SliceStep(9)
    assert len({x, y, z}) == 3
    assert base.steps == base_steps
    assert x.parent == y.parent == z.parent == base
    # Further building on a branch leaves its siblings alone.
    x2 = x.AtMapKey("deeper")
    assert y.steps == (*base_steps, MapStep("y"))
    assert x2.parent == x


def test_builders_return_new_objects() -> None:
    base = New("a")
    assert base.AtMapKey("b") is not base
    assert base.join() == base


# -- inspecting ---------------------------------------------------------------------------------


def test_parent_and_last_step_of_the_root() -> None:
    assert Path().parent is None
    assert Path().last_step is None
    assert New("a").parent == Path()


def test_ancestors_nearest_first() -> None:
    p = New("a").AtSliceIndex(0).AtMapKey("b")
    assert list(p.ancestors()) == [New("a").AtSliceIndex(0), New("a"), Path()]
    assert list(Path().ancestors()) == []


RELATIONS = [
    # (parent candidate, child candidate, is_parent_of)
    pytest.param(Path(), New("a"), True, id="root-over-one"),
    pytest.param(Path(), Path(), False, id="root-root"),
    pytest.param(New("a"), New("a").AtMapKey("b"), True, id="direct"),
    pytest.param(New("a"), New("a").AtMapKey("b").AtSliceIndex(0), True, id="grandparent"),
    pytest.param(New("a"), New("a"), False, id="equal"),
    pytest.param(New("a").AtMapKey("b"), New("a"), False, id="reversed"),
    pytest.param(New("a"), New("ab"), False, id="string-prefix-is-not-a-path-prefix"),
    pytest.param(New("a"), New("b").AtMapKey("a"), False, id="unrelated"),
    pytest.param(New(0), New("0").AtMapKey("x"), False, id="index-is-not-key"),
    pytest.param(New("a").AtSliceIndex(1), New("a").AtSliceIndex(10), False, id="index-prefix-digits"),
]


@pytest.mark.parametrize(("upper", "lower", "expected"), RELATIONS)
def test_is_parent_of_and_is_child_of(upper: Path, lower: Path, expected: bool) -> None:
    assert upper.is_parent_of(lower) is expected
    assert lower.is_child_of(upper) is expected


def test_sequence_protocol() -> None:
    p = New("a").AtSliceIndex(0).AtMapKey("b")
    assert len(p) == 3
    assert list(p) == [MapStep("a"), SliceStep(0), MapStep("b")]
    assert p[0] == MapStep("a")
    assert p[-1] == MapStep("b")
    assert p[1:] == Path(SliceStep(0), MapStep("b"))
    assert isinstance(p[:0], Path)
    assert p[:0] == Path()
    assert SliceStep(0) in p
    assert MapStep("0") not in p
    assert len(Path()) == 0


def test_root_path_is_truthy() -> None:
    assert bool(Path()) is True


def test_join() -> None:
    assert New("a").join(New("b").AtSliceIndex(0), "c", 1, MapStep("d"), SliceStep(2)) == (
        New("a").AtMapKey("b").AtSliceIndex(0).AtMapKey("c").AtSliceIndex(1).AtMapKey("d").AtSliceIndex(2)
    )
    assert Path().join(New(0)) == New(0)


def test_sort_key_orders_indexes_numerically_and_before_keys() -> None:
    paths = [
        New("b"),
        New("a").AtSliceIndex(10),
        New("a").AtSliceIndex(2),
        New(3),
        New("a"),
        Path(),
        New("a").AtMapKey("z"),
    ]
    ordered = sorted(paths, key=Path.sort_key)
    assert [p.to_text() for p in ordered] == ["", "[3]", "a", "a[2]", "a[10]", 'a["z"]', "b"]


# -- equality and hashing -----------------------------------------------------------------------

EQUALITY = [
    pytest.param(New("a"), New("a"), True, id="same-key"),
    pytest.param(New("a"), New("b"), False, id="other-key"),
    pytest.param(New(0), New("0"), False, id="index-vs-digit-key"),
    pytest.param(New("a").AtSliceIndex(0), Path(MapStep("a"), SliceStep(0)), True, id="built-vs-constructed"),
    pytest.param(New("a.b"), New("a").AtMapKey("b"), False, id="dotted-key-vs-two-keys"),
    pytest.param(Path(), Path(), True, id="roots"),
    pytest.param(Path(), New("a"), False, id="root-vs-one"),
    pytest.param(Path.parse('["a"]'), New("a"), True, id="parsed-quoted-vs-bare"),
]


@pytest.mark.parametrize(("left", "right", "equal"), EQUALITY)
def test_equality_and_hash(left: Path, right: Path, equal: bool) -> None:
    assert (left == right) is equal
    assert (left != right) is not equal
    if equal:
        assert hash(left) == hash(right)


@pytest.mark.parametrize(
    "foreign",
    [
        pytest.param("a", id="str"),
        pytest.param(("a",), id="tuple"),
        pytest.param((MapStep("a"),), id="tuple-of-steps"),
        pytest.param(["a"], id="list"),
        pytest.param(None, id="none"),
    ],
)
def test_foreign_types_are_never_equal(foreign: object) -> None:
    assert New("a") != foreign
    assert New("a").__eq__(foreign) is NotImplemented
    assert MapStep("a").__eq__(foreign) is NotImplemented
    assert SliceStep(0).__eq__(foreign) is NotImplemented
    assert MapStep("0") != SliceStep(0)


def test_hash_is_stable_and_usable_in_sets_and_dicts() -> None:
    p = New("a").AtSliceIndex(0)
    assert hash(p) == hash(p)
    table = {p: "value"}
    assert table[Path.parse("a[0]")] == "value"
    assert len({New("a"), New("a"), Path.parse("a"), New("b")}) == 2


def test_equality_after_one_side_is_hashed() -> None:
    a, b, c = New("a").AtMapKey("x"), New("a").AtMapKey("x"), New("a").AtMapKey("y")
    hash(a)
    assert a == b
    assert b == a
    hash(c)
    assert a != c


# -- repr, pickle, copy -------------------------------------------------------------------------

REPRS = [
    pytest.param(Path(), "Path()", id="root"),
    pytest.param(New(0), "Path(SliceStep(0))", id="root-index"),
    pytest.param(New("a").AtSliceIndex(1), "Path(MapStep('a'), SliceStep(1))", id="two"),
    pytest.param(New('it\'s "q"\n'), "Path(MapStep('it\\'s \"q\"\\n'))", id="quotes"),
]


@pytest.mark.parametrize(("path", "text"), REPRS)
def test_repr_is_the_constructor_form(path: Path, text: str) -> None:
    assert repr(path) == text
    assert eval(text, {"Path": Path, "MapStep": MapStep, "SliceStep": SliceStep}) == path


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_round_trip(protocol: int) -> None:
    p = New("a.b").AtSliceIndex(3).AtMapKey("")
    loaded = pickle.loads(pickle.dumps(p, protocol=protocol))
    assert loaded == p
    assert hash(loaded) == hash(p)
    assert pickle.loads(pickle.dumps(MapStep("k"), protocol=protocol)) == MapStep("k")
    assert pickle.loads(pickle.dumps(SliceStep(7), protocol=protocol)) == SliceStep(7)


def test_copy_and_deepcopy_return_the_same_immutable_object() -> None:
    p = New("a").AtSliceIndex(0)
    assert copy.copy(p) is p
    assert copy.deepcopy(p) is p
    assert copy.deepcopy({"k": p})["k"] == p
    assert copy.copy(MapStep("a")) == MapStep("a")
    assert copy.deepcopy(SliceStep(1)) == SliceStep(1)


def test_match_args_allow_pattern_matching() -> None:
    def describe(step: object) -> str:
        match step:
            case MapStep(key):
                return f"key {key}"
            case SliceStep(index):
                return f"index {index}"
        return "other"

    assert [describe(s) for s in New("a").AtSliceIndex(2)] == ["key a", "index 2"]
