"""State checks beyond Go's cases: modules, deposed objects, marks on ancestors, absent and null values,
the CompareValue collector, CompareValueCollection's walk, argument validation and value semantics.
"""

from __future__ import annotations

import copy
import pickle
import threading
from typing import Any

import pytest
from state_support import make_state

from plancheck import Plan, StateCheckError, compare, revealing_sensitive
from plancheck import knownvalue as kv
from plancheck._documents.state import State
from plancheck.statecheck import (
    CompareValue,
    CompareValueCheck,
    CompareValueCollection,
    CompareValuePairs,
    ExpectKnownOutputValue,
    ExpectKnownOutputValueAtPath,
    ExpectKnownValue,
    ExpectSensitiveValue,
    StateCheck,
    assert_state,
)
from tfjsonpath import New, Path


def T(text: str) -> str:
    """A path in the escaped text form, as the renderer writes it."""
    return Path.parse(text).to_text()


DB = "aws_db_instance.db"
DEEP = 'module.a["x"].module.b.null_resource.deep[0]'

DOCUMENT: dict[str, Any] = {
    "format_version": "1.0",
    "terraform_version": "1.11.4",
    "values": {
        "outputs": {
            "pw": {"value": "pw-Out-22", "sensitive": True, "type": "string"},
            "obj": {"value": {"a": [1, None], "b": None}, "sensitive": False},
            "nothing": {"value": None, "sensitive": False},
        },
        "root_module": {
            "resources": [
                {
                    "address": DB,
                    "mode": "managed",
                    "type": "aws_db_instance",
                    "name": "db",
                    "values": {
                        "name": "db",
                        "port": 5432,
                        "backup_window": None,
                        "maintenance": None,
                        "config": {"password": "pw-Known-11", "user": "admin"},
                        "replicas": ["r1", "r2-Secret"],
                        "tags": {"env": "prod"},
                        "creds": {"a": "k-Secret-33", "b": "k-Secret-44"},
                        "blocks": [],
                    },
                    "sensitive_values": {
                        "config": {"password": True},
                        "replicas": [False, True],
                        "creds": True,
                        "backup_window": True,
                    },
                },
                {
                    "address": DB,
                    "mode": "managed",
                    "type": "aws_db_instance",
                    "name": "db",
                    "deposed_key": "00000001",
                    "values": {"name": "old-db"},
                    "sensitive_values": {},
                },
                {
                    "address": "null_resource.legacy",
                    "mode": "managed",
                    "type": "null_resource",
                    "name": "legacy",
                    "values": {"id": "1"},
                },
            ],
            "child_modules": [
                {
                    "address": 'module.a["x"]',
                    "child_modules": [
                        {
                            "address": 'module.a["x"].module.b',
                            "resources": [
                                {
                                    "address": DEEP,
                                    "mode": "managed",
                                    "type": "null_resource",
                                    "name": "deep",
                                    "index": 0,
                                    "values": {"triggers": {"n": "1"}, "id": "42"},
                                    "sensitive_values": {"triggers": {}},
                                }
                            ],
                        }
                    ],
                }
            ],
        },
    },
}
STATE = State.from_dict(DOCUMENT)

CASES: list[tuple[str, StateCheck, list[str]]] = [
    # known values
    ("module-resource", ExpectKnownValue(DEEP, New("triggers").AtMapKey("n"), kv.StringExact("1")), []),
    (
        "module-resource-mismatch",
        ExpectKnownValue(DEEP, New("id"), kv.StringExact("43")),
        [f'ExpectKnownValue: {DEEP}: id: expected value "43" for StringExact check, got: "42"'],
    ),
    ("deposed", ExpectKnownValue(DB, New("name"), kv.StringExact("old-db"), deposed="00000001"), []),
    ("current-not-deposed", ExpectKnownValue(DB, New("name"), kv.StringExact("db")), []),
    (
        "deposed-mismatch",
        ExpectKnownValue(DB, New("name"), kv.StringExact("db"), deposed="00000001"),
        [
            f'ExpectKnownValue: {DB}: name: deposed object "00000001": expected value "db" for StringExact '
            'check, got: "old-db"'
        ],
    ),
    (
        "deposed-missing",
        ExpectKnownValue(DB, New("name"), kv.Null(), deposed="00000009"),
        [
            f'ExpectKnownValue: {DB}: deposed object "00000009" not found in state; its deposed objects: "00000001"'
        ],
    ),
    (
        "deposed-none",
        ExpectKnownValue(DEEP, New("id"), kv.Null(), deposed="00000009"),
        [
            f'ExpectKnownValue: {DEEP}: deposed object "00000009" not found in state; the resource has no deposed objects'
        ],
    ),
    (
        "resource-missing",
        ExpectKnownValue("aws_db_instance.dbb", New("name"), kv.Null()),
        [f"ExpectKnownValue: aws_db_instance.dbb: resource not found in state; closest: {DB}"],
    ),
    (
        "absent",
        ExpectKnownValue(DB, New("nope"), kv.Null()),
        [f'ExpectKnownValue: {DB}: nope: value is not present (no key "nope" in an object with 9 keys); expected null'],
    ),
    ("null", ExpectKnownValue(DB, New("maintenance"), kv.Null()), []),
    ("null-ancestor", ExpectKnownValue(DB, New("maintenance").AtMapKey("window"), kv.Null()), []),
    (
        "null-ancestor-mismatch",
        ExpectKnownValue(DB, New("maintenance").AtMapKey("window"), kv.NotNull()),
        [
            f"ExpectKnownValue: {DB}: {T('maintenance.window')}: expected non-null value for NotNull check, "
            "got: null (maintenance is null)"
        ],
    ),
    (
        "sensitive-match",
        ExpectKnownValue(DB, New("config").AtMapKey("password"), kv.StringExact("pw-Known-11")),
        [],
    ),
    (
        "sensitive-mismatch",
        ExpectKnownValue(DB, New("config"), kv.ObjectPartial({"password": kv.StringExact("pw-Known-12")})),
        [
            f"ExpectKnownValue: {DB}: {T('config.password')}: expected value (sensitive) for StringExact check, "
            "got: (sensitive)"
        ],
    ),
    (
        "sensitive-map-keys-hidden",
        ExpectKnownValue(DB, New("creds"), kv.MapExact({"a": kv.StringExact("x")})),
        [
            f"ExpectKnownValue: {DB}: creds: expected 1 element for MapExact check, got 2 elements: "
            "actual value has extra key(s): (sensitive); expected (sensitive), got (sensitive)"
        ],
    ),
    ("whole-values", ExpectKnownValue(DB, Path(), kv.ObjectPartial({"port": kv.Int64Exact(5432)})), []),
    ("output-sensitive-match", ExpectKnownOutputValue("pw", kv.StringExact("pw-Out-22")), []),
    (
        "output-sensitive-mismatch",
        ExpectKnownOutputValue("pw", kv.StringExact("pw-Out-23")),
        [
            "ExpectKnownOutputValue: output.pw: expected value (sensitive) for StringExact check, got: (sensitive)"
        ],
    ),
    ("output-null", ExpectKnownOutputValue("nothing", kv.Null()), []),
    (
        "output-at-path-null-element",
        ExpectKnownOutputValueAtPath("obj", New("a").AtSliceIndex(1), kv.Null()),
        [],
    ),
    (
        "output-at-path-absent",
        ExpectKnownOutputValueAtPath("obj", New("a").AtSliceIndex(2), kv.Null()),
        [
            "ExpectKnownOutputValueAtPath: output.obj: a[2]: value is not present "
            "(index 2 out of range for an array of 2 elements at a); expected null"
        ],
    ),
    (
        "output-missing",
        ExpectKnownOutputValue("pww", kv.Null()),
        ["ExpectKnownOutputValue: output.pww: output not found in state; closest: pw"],
    ),
    # sensitive marks
    ("sensitive-leaf", ExpectSensitiveValue(DB, New("config").AtMapKey("password")), []),
    ("sensitive-via-ancestor", ExpectSensitiveValue(DB, New("creds").AtMapKey("a")), []),
    ("sensitive-list-element", ExpectSensitiveValue(DB, New("replicas").AtSliceIndex(1)), []),
    ("sensitive-null", ExpectSensitiveValue(DB, New("backup_window")), []),
    (
        "sensitive-deep-module",
        ExpectSensitiveValue(DEEP, New("id")),
        [
            f'ExpectSensitiveValue: {DEEP}: id: expected a sensitive value, but it is not sensitive; it is known: "42"'
        ],
    ),
    (
        "sensitive-partly",
        ExpectSensitiveValue(DB, New("config")),
        [
            f"ExpectSensitiveValue: {DB}: config: expected a sensitive value, but only parts of it are sensitive: "
            '{"password": (sensitive), "user": "admin"}'
        ],
    ),
    (
        "sensitive-partly-list",
        ExpectSensitiveValue(DB, New("replicas")),
        [
            f"ExpectSensitiveValue: {DB}: replicas: expected a sensitive value, but only parts of it are "
            'sensitive: ["r1", (sensitive)]'
        ],
    ),
    (
        "sensitive-not",
        ExpectSensitiveValue(DB, New("tags")),
        [
            f'ExpectSensitiveValue: {DB}: tags: expected a sensitive value, but it is not sensitive; it is known: {{"env": "prod"}}'
        ],
    ),
    (
        "sensitive-null-not",
        ExpectSensitiveValue(DB, New("maintenance")),
        [
            f"ExpectSensitiveValue: {DB}: maintenance: expected a sensitive value, but it is not sensitive; it is null"
        ],
    ),
    (
        "sensitive-absent",
        ExpectSensitiveValue(DB, New("nope")),
        [
            f'ExpectSensitiveValue: {DB}: nope: expected a sensitive value, but it is not present (no key "nope" in an object with 9 keys)'
        ],
    ),
    (
        "sensitive-absent-under-sensitive",
        ExpectSensitiveValue(DB, New("creds").AtMapKey("zz")),
        [
            f"ExpectSensitiveValue: {DB}: {T('creds.zz')}: expected a sensitive value, but it is not present "
            '(no key "zz" in an object with 2 keys at creds)'
        ],
    ),
    (
        "sensitive-no-marks-recorded",
        ExpectSensitiveValue("null_resource.legacy", New("id")),
        [
            "ExpectSensitiveValue: null_resource.legacy: id: expected a sensitive value, but it is not sensitive; "
            'it is known: "1" (this state records no sensitive_values marks)'
        ],
    ),
    (
        "sensitive-deposed",
        ExpectSensitiveValue(DB, New("name"), deposed="00000001"),
        [
            f'ExpectSensitiveValue: {DB}: name: deposed object "00000001": expected a sensitive value, but it is '
            'not sensitive; it is known: "old-db"'
        ],
    ),
    # pairs
    ("pairs-module", CompareValuePairs(DEEP, New("id"), DB, New("port"), compare.ValuesDiffer()), []),
    (
        "pairs-null",
        CompareValuePairs(DB, New("maintenance"), DB, New("maintenance"), compare.ValuesSame()),
        [],
    ),
    (
        "pairs-sensitive-both-hidden",
        CompareValuePairs(DB, New("config").AtMapKey("password"), DB, New("name"), compare.ValuesSame()),
        [
            f"CompareValuePairs: {DB}: {T('config.password')}: expected values to be the same, but they differ: "
            f"(sensitive) != (sensitive) (compared with {DB}.name)"
        ],
    ),
    (
        "pairs-missing-both",
        CompareValuePairs(DB, New("nope"), "null_resource.nope", New("id"), compare.ValuesSame()),
        [
            f'CompareValuePairs: {DB}: nope: value is not present (no key "nope" in an object with 9 keys)',
            "CompareValuePairs: null_resource.nope: resource not found in state; closest: null_resource.legacy",
        ],
    ),
]


@pytest.mark.parametrize(("check", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_failures(check: StateCheck, expected: list[str]) -> None:
    assert [str(f) for f in check.failures(STATE)] == expected


def test_the_state_is_not_mutated() -> None:
    document = copy.deepcopy(DOCUMENT)
    state = State.from_dict(document)
    for _, check, _ in CASES:
        check.failures(state)
    assert document == DOCUMENT


def test_revealing_shows_sensitive_values_on_purpose() -> None:
    check = ExpectKnownOutputValue("pw", kv.StringExact("zz"))
    with revealing_sensitive():
        (found,) = check.failures(STATE)
    assert found.message == 'expected value "zz" for StringExact check, got: "pw-Out-22"'


# -- assert_state ------------------------------------------------------------------------------


def test_assert_state_reports_every_failure_in_order() -> None:
    with pytest.raises(StateCheckError) as info:
        assert_state(
            STATE,
            ExpectKnownValue(DB, New("port"), kv.Int64Exact(1)),
            ExpectSensitiveValue(DB, New("name")),
            ExpectKnownOutputValue("nothing", kv.NotNull()),
        )
    assert str(info.value) == (
        "3 state checks failed:\n"
        f"  1. ExpectKnownValue: {DB}: port: expected value 1 for Int64Exact check, got: 5432\n"
        f'  2. ExpectSensitiveValue: {DB}: name: expected a sensitive value, but it is not sensitive; it is known: "db"\n'
        "  3. ExpectKnownOutputValue: output.nothing: expected non-null value for NotNull check, got: null"
    )
    assert isinstance(info.value, AssertionError)


def test_assert_state_passes_with_no_failures() -> None:
    assert_state(STATE)
    assert_state(STATE, ExpectSensitiveValue(DB, New("creds")))


TYPE_ERRORS: list[tuple[str, Any, str]] = [
    (
        "list-of-checks",
        lambda: assert_state(STATE, [ExpectSensitiveValue(DB, New("creds"))]),
        "assert_state: check 1 must be a StateCheck, got list; to pass a list of checks, unpack it: "
        "assert_state(state, *checks)",
    ),
    (
        "plan-check",
        lambda: assert_state(STATE, ExpectSensitiveValue(DB, New("creds")), "x"),
        "assert_state: check 2 must be a StateCheck, got str",
    ),
    (
        "plan-not-state",
        lambda: assert_state(Plan.from_dict({"format_version": "1.2"})),
        "assert_state expects a plancheck.State (use load_state or State.from_dict), got Plan",
    ),
    (
        "check-state-on-dict",
        lambda: ExpectSensitiveValue(DB, New("creds")).CheckState({"format_version": "1.0"}),
        "ExpectSensitiveValue.CheckState expects a plancheck.State (use load_state or State.from_dict), got dict",
    ),
]


@pytest.mark.parametrize(("call", "message"), [t[1:] for t in TYPE_ERRORS], ids=[t[0] for t in TYPE_ERRORS])
def test_type_errors(call: Any, message: str) -> None:
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value) == message


# -- CompareValue ------------------------------------------------------------------------------


def ami_state(ami: Any, *, sensitive: bool = False, other: str = "x") -> State:
    return make_state(
        {"aws_instance.web": {"ami": ami, "other": other}},
        sensitive={"aws_instance.web": {"ami": True}} if sensitive else None,
    )


def test_each_check_reads_its_own_address_whatever_the_order() -> None:
    # In Go the n-th run reads the n-th AddStateValue registration, so running the checks
    # out of order reads the wrong attribute. Here each check knows its own.
    collector = CompareValue(compare.ValuesSame())
    by_ami = collector.AddStateValue("aws_instance.web", New("ami"))
    by_other = collector.AddStateValue("aws_instance.web", New("other"))
    state = ami_state("ami-1", other="ami-1")
    assert by_other.failures(state) == []
    assert by_ami.failures(state) == []
    assert collector.values == ("ami-1", "ami-1")


def test_values_are_copied_on_collection() -> None:
    document = {
        "format_version": "1.0",
        "values": {"root_module": {"resources": [{"address": "a.b", "values": {"tags": {"k": ["v"]}}}]}},
    }
    collector = CompareValue(compare.ValuesDiffer())
    collector.AddStateValue("a.b", New("tags")).CheckState(State.from_dict(document))
    document["values"]["root_module"]["resources"][0]["values"]["tags"]["k"].append("changed")  # type: ignore[index]
    snapshot = collector.values
    snapshot[0]["k"].append("mine")
    assert collector.values == ({"k": ["v"]},)


def test_a_missing_value_fails_and_is_not_collected() -> None:
    collector = CompareValue(compare.ValuesSame())
    check = collector.AddStateValue("aws_instance.web", New("nope"))
    assert [str(f) for f in check.failures(ami_state("ami-1"))] == [
        'CompareValue: aws_instance.web: nope: value is not present (no key "nope" in an object with 2 keys)'
    ]
    missing = collector.AddStateValue("aws_instance.db", New("ami"))
    assert [str(f) for f in missing.failures(ami_state("ami-1"))] == [
        "CompareValue: aws_instance.db: resource not found in state; closest: aws_instance.web"
    ]
    assert collector.values == ()


def test_reset_starts_a_new_sequence() -> None:
    collector = CompareValue(compare.ValuesSame())
    check = collector.AddStateValue("aws_instance.web", New("ami"))
    check.CheckState(ami_state("ami-1"))
    collector.reset()
    check.CheckState(ami_state("ami-2"))
    assert collector.values == ("ami-2",)


def test_differ_all_names_the_indexes_of_collected_values() -> None:
    collector = CompareValue(compare.ValuesDifferAll())
    check = collector.AddStateValue("aws_instance.web", New("ami"))
    check.CheckState(ami_state("a1"))
    check.CheckState(ami_state("a2"))
    with pytest.raises(StateCheckError) as info:
        check.CheckState(ami_state("a1"))
    assert str(info.value) == (
        "CompareValue: aws_instance.web: ami: expected all values to differ, but values 0 and 2 are the same: "
        '"a1" == "a1" (3 values collected)'
    )


def test_a_value_sensitive_in_an_earlier_state_stays_hidden() -> None:
    collector = CompareValue(compare.ValuesDiffer())
    check = collector.AddStateValue("aws_instance.web", New("ami"))
    check.CheckState(ami_state("ami-Secret-9", sensitive=True))
    # The same value, unmarked in the next state: still hidden, both by its marks and as a secret.
    (found,) = check.failures(ami_state("ami-Secret-9"))
    assert (
        found.message
        == "expected values to differ, but they are the same: (sensitive) == (sensitive) (2 values collected)"
    )


def test_concurrent_runs_collect_every_value() -> None:
    collector = CompareValue(compare.ValuesSame())
    check = collector.AddStateValue("aws_instance.web", New("ami"))
    state = ami_state("ami-1")
    threads = [threading.Thread(target=lambda: [check.failures(state) for _ in range(25)]) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(collector.values) == 100


def test_collector_and_check_semantics() -> None:
    collector = CompareValue(compare.ValuesSame())
    other = CompareValue(compare.ValuesSame())
    check = collector.AddStateValue("aws_instance.web", New("ami"))
    assert check == collector.AddStateValue("aws_instance.web", New("ami"))
    assert hash(check) == hash(collector.AddStateValue("aws_instance.web", New("ami")))
    assert check != other.AddStateValue("aws_instance.web", New("ami"))
    assert collector != other
    assert repr(collector) == "CompareValue(ValuesSame())"
    assert (
        repr(check)
        == "CompareValueCheck(CompareValue(ValuesSame()), 'aws_instance.web', Path(MapStep('ami')))"
    )
    assert collector.comparer == compare.ValuesSame()
    assert copy.deepcopy(check) is check
    check.CheckState(ami_state("ami-1"))
    # Pickling keeps the collected values and the link between a collector and its checks.
    collector2, check2 = pickle.loads(pickle.dumps((collector, check)))
    assert check2.collector is collector2
    assert collector2.values == ("ami-1",)
    with pytest.raises(StateCheckError):
        check2.CheckState(ami_state("ami-2"))
    assert collector.values == ("ami-1",)
    with pytest.raises(AttributeError, match="is immutable"):
        check.address = "x"  # type: ignore[misc]


# -- CompareValueCollection --------------------------------------------------------------------

TWO = "test_resource.two"
ONE = "test_resource.one"


def collection_state(values: dict[str, Any], sensitive: dict[str, Any] | None = None) -> State:
    return make_state(
        {ONE: {"s": "str", "l": ["str"], "m": {"x": "str"}}, TWO: values},
        sensitive={TWO: sensitive} if sensitive else None,
    )


def same(paths: list[Path], value_path: Path | None = None) -> CompareValueCollection:
    return CompareValueCollection(TWO, paths, ONE, value_path or New("s"), compare.ValuesSame())


COLLECTION: list[tuple[str, dict[str, Any], dict[str, Any] | None, CompareValueCollection, list[str]]] = [
    (
        "empty-list-fails",
        {"l": []},
        None,
        same([New("l")]),
        [f"CompareValueCollection: {TWO}: collection l is empty: nothing to compare with {ONE}.s"],
    ),
    (
        "empty-map-fails",
        {"m": {}},
        None,
        same([New("m")]),
        [f"CompareValueCollection: {TWO}: collection m is empty: nothing to compare with {ONE}.s"],
    ),
    (
        "empty-after-walk-fails",
        {"l": [{"inner": []}, {"inner": []}]},
        None,
        same([New("l"), New("inner")]),
        [f"CompareValueCollection: {TWO}: collection l.inner is empty: nothing to compare with {ONE}.s"],
    ),
    (
        "nested-lists-flatten",
        {"l": [{"inner": ["a", "b"]}, {"inner": ["str"]}]},
        None,
        same([New("l"), New("inner")]),
        [],
    ),
    ("object-values-collected", {"m": {"b": "x", "a": "str"}}, None, same([New("m")]), []),
    (
        "map-then-path-follows-the-object",
        {"m": {"o": {"x": "str"}}},
        None,
        same([New("m"), New("o"), New("x")]),
        [],
    ),
    (
        "nulls-mid-path-skipped",
        {"l": [{"o": None}, {"o": {"x": "str"}}]},
        None,
        same([New("l"), New("o"), New("x")]),
        [],
    ),
    (
        "nulls-only-is-empty",
        {"l": [{"o": None}]},
        None,
        same([New("l"), New("o"), New("x")]),
        [f"CompareValueCollection: {TWO}: collection l.o.x is empty: nothing to compare with {ONE}.s"],
    ),
    ("null-element-collected", {"l": [None, "str"]}, None, same([New("l")]), []),
    ("array-value-compared-with-one-element-list", {"l": ["a", "str"]}, None, same([New("l")], New("l")), []),
    (
        "key-missing-in-an-element",
        {"l": [{"x": "str"}, {"y": "z"}]},
        None,
        same([New("l"), New("x")]),
        [
            f"CompareValueCollection: {TWO}: {T('l[1].x')}: collection element: value is not present "
            '(no key "x" in an object with 1 key)'
        ],
    ),
    (
        "path-into-a-string",
        {"l": ["a", "b"]},
        None,
        same([New("l"), New("x")]),
        [f"CompareValueCollection: {TWO}: l[0]: collection element: cannot follow x into a string"],
    ),
    (
        "collection-absent",
        {"l": ["a"]},
        None,
        same([New("nope")]),
        [
            f'CompareValueCollection: {TWO}: nope: value is not present (no key "nope" in an object with 1 key)'
        ],
    ),
    (
        "collection-null",
        {"l": None},
        None,
        same([New("l")]),
        [f"CompareValueCollection: {TWO}: l: expected a collection (an array or an object), found null"],
    ),
    (
        "value-missing",
        {"l": ["str"]},
        None,
        same([New("l")], New("nope")),
        [
            f'CompareValueCollection: {ONE}: nope: value is not present (no key "nope" in an object with 3 keys)'
        ],
    ),
    (
        "sensitive-elements-hidden",
        {"l": ["k-Secret-1", "k-Secret-2"]},
        {"l": True},
        same([New("l")]),
        [
            f"CompareValueCollection: {TWO}: collection l (2 elements): no element compares with {ONE}.s: "
            "expected values to be the same, but they differ: (sensitive) != (sensitive)"
        ],
    ),
    ("sensitive-element-matches", {"l": ["x", "str"]}, {"l": [False, True]}, same([New("l")]), []),
]


@pytest.mark.parametrize(
    ("values", "sensitive", "check", "expected"), [c[1:] for c in COLLECTION], ids=[c[0] for c in COLLECTION]
)
def test_compare_value_collection(
    values: dict[str, Any],
    sensitive: dict[str, Any] | None,
    check: CompareValueCollection,
    expected: list[str],
) -> None:
    assert [str(f) for f in check.failures(collection_state(values, sensitive))] == expected


def test_collection_resource_missing() -> None:
    check = CompareValueCollection("test_resource.three", [New("l")], ONE, New("s"), compare.ValuesSame())
    assert [str(f) for f in check.failures(collection_state({"l": []}))] == [
        "CompareValueCollection: test_resource.three: resource not found in state; closest: test_resource.two, "
        "test_resource.one"
    ]


# -- construction and value semantics ------------------------------------------------------------

BAD_ARGS: list[tuple[str, Any, type[Exception], str]] = [
    (
        "matcher-plain",
        lambda: ExpectKnownValue(DB, New("a"), "x"),
        TypeError,
        "ExpectKnownValue: matcher must be a knownvalue check, got str (wrap plain values with knownvalue.exact())",
    ),
    (
        "output-matcher-plain",
        lambda: ExpectKnownOutputValue("o", 1),
        TypeError,
        "ExpectKnownOutputValue: matcher must be a knownvalue check, got int (wrap plain values with knownvalue.exact())",
    ),
    (
        "path-text",
        lambda: ExpectSensitiveValue(DB, "a"),
        TypeError,
        "ExpectSensitiveValue: path must be a tfjsonpath.Path, got str (to use text, parse it: tfjsonpath.Path.parse('a'))",
    ),
    (
        "comparer-missing",
        lambda: CompareValue(None),
        TypeError,
        "CompareValue: comparer must be a compare.ValueComparer (e.g. compare.ValuesSame()), got NoneType",
    ),
    (
        "comparer-class",
        lambda: CompareValuePairs(DB, New("a"), DB, New("b"), compare.ValuesSame),
        TypeError,
        "CompareValuePairs: comparer must be a compare.ValueComparer (e.g. compare.ValuesSame()), got type",
    ),
    (
        "collection-path-a-path",
        lambda: CompareValueCollection(TWO, New("l"), ONE, New("s"), compare.ValuesSame()),
        TypeError,
        "CompareValueCollection: collection_path must be a list of tfjsonpath.Path, got Path",
    ),
    (
        "collection-path-text",
        lambda: CompareValueCollection(TWO, ["l"], ONE, New("s"), compare.ValuesSame()),
        TypeError,
        "CompareValueCollection: path must be a tfjsonpath.Path, got str (to use text, parse it: tfjsonpath.Path.parse('l'))",
    ),
    (
        "pairs-empty-address",
        lambda: CompareValuePairs(DB, New("a"), "", New("b"), compare.ValuesSame()),
        ValueError,
        "CompareValuePairs: address2 must not be empty",
    ),
    (
        "check-without-collector",
        lambda: CompareValueCheck(compare.ValuesSame(), DB, New("a")),
        TypeError,
        "CompareValueCheck: collector must be a CompareValue, got ValuesSame",
    ),
]


@pytest.mark.parametrize(
    ("build", "error", "message"), [b[1:] for b in BAD_ARGS], ids=[b[0] for b in BAD_ARGS]
)
def test_bad_arguments_fail_at_construction(build: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        build()
    assert str(info.value) == message


SAMPLES: list[tuple[StateCheck, StateCheck, StateCheck, str]] = [
    (
        ExpectKnownValue(DB, New("a"), kv.StringExact("x")),
        ExpectKnownValue(DB, New("a"), kv.StringExact("x")),
        ExpectKnownValue(DB, New("a"), kv.StringExact("y")),
        "ExpectKnownValue('aws_db_instance.db', Path(MapStep('a')), StringExact('x'))",
    ),
    (
        ExpectKnownOutputValue("o", kv.Null()),
        ExpectKnownOutputValue("o", kv.Null()),
        ExpectKnownOutputValue("o", kv.NotNull()),
        "ExpectKnownOutputValue('o', Null())",
    ),
    (
        ExpectKnownOutputValueAtPath("o", New(0), kv.Null()),
        ExpectKnownOutputValueAtPath("o", New(0), kv.Null()),
        ExpectKnownOutputValueAtPath("p", New(0), kv.Null()),
        "ExpectKnownOutputValueAtPath('o', Path(SliceStep(0)), Null())",
    ),
    (
        ExpectSensitiveValue(DB, New("a"), deposed="k"),
        ExpectSensitiveValue(DB, New("a"), deposed="k"),
        ExpectSensitiveValue(DB, New("a")),
        "ExpectSensitiveValue('aws_db_instance.db', Path(MapStep('a')), deposed='k')",
    ),
    (
        CompareValuePairs(DB, New("a"), DB, New("b"), compare.ValuesSame()),
        CompareValuePairs(DB, New("a"), DB, New("b"), compare.ValuesSame()),
        CompareValuePairs(DB, New("a"), DB, New("b"), compare.ValuesDiffer()),
        "CompareValuePairs('aws_db_instance.db', Path(MapStep('a')), 'aws_db_instance.db', Path(MapStep('b')), ValuesSame())",
    ),
    (
        CompareValueCollection(TWO, [New("l"), New("x")], ONE, New("s"), compare.ValuesSame()),
        CompareValueCollection(TWO, (New("l"), New("x")), ONE, New("s"), compare.ValuesSame()),
        CompareValueCollection(TWO, [New("l")], ONE, New("s"), compare.ValuesSame()),
        "CompareValueCollection('test_resource.two', [Path(MapStep('l')), Path(MapStep('x'))], 'test_resource.one', "
        "Path(MapStep('s')), ValuesSame())",
    ),
]


@pytest.mark.parametrize(
    ("a", "same_check", "other", "text"),
    SAMPLES,
    ids=[s[3].split("(")[0] + str(i) for i, s in enumerate(SAMPLES)],
)
def test_value_semantics(a: StateCheck, same_check: StateCheck, other: StateCheck, text: str) -> None:
    assert a == same_check
    assert hash(a) == hash(same_check)
    assert a != other
    assert a != text
    assert repr(a) == text
    assert pickle.loads(pickle.dumps(a)) == a
    assert copy.copy(a) is a
    with pytest.raises(AttributeError, match="is immutable"):
        a.path = New("z")  # type: ignore[misc]
