"""Config checks are values: repr, equality, hashing, pickling and constructor signatures, pinned per check.

Written before config checks moved from ``@dataclass`` onto :class:`plancheck._frozen.FrozenValue`
(#13), so the move is shown to keep every one of these exactly.
"""

from __future__ import annotations

import copy
import inspect
import pickle
from collections.abc import Callable
from typing import Any

import pytest

from plancheck import knownvalue as kv
from plancheck import tfconfig as t
from plancheck._frozen import FrozenValue
from plancheck.tfconfig._base import ANY
from tfjsonpath import New

_EMPTY = inspect.Parameter.empty
_P = "POSITIONAL_OR_KEYWORD"
_K = "KEYWORD_ONLY"

# (id, make, repr): every config check, with defaults and with every option given.
CASES: list[tuple[str, Callable[[], t.ConfigCheck], str]] = [
    ("resource", lambda: t.ExpectResource("aws_instance", "web"), "ExpectResource('aws_instance', 'web')"),
    ("resource-data", lambda: t.ExpectResource("aws_ami", "u", mode="data"), "ExpectResource('aws_ami', 'u', mode='data')"),
    (
        "no-resource",
        lambda: t.ExpectNoResource("aws_instance", "web", mode="ephemeral"),
        "ExpectNoResource('aws_instance', 'web', mode='ephemeral')",
    ),
    ("resource-count", lambda: t.ExpectResourceCount("aws_instance", 2), "ExpectResourceCount('aws_instance', 2)"),
    (
        "resource-count-data",
        lambda: t.ExpectResourceCount("aws_ami", 0, mode="data"),
        "ExpectResourceCount('aws_ami', 0, mode='data')",
    ),
    (
        "resource-attribute",
        lambda: t.ExpectResourceAttribute("aws_instance", "web", New("tags").AtMapKey("Name"), "web-1"),
        "ExpectResourceAttribute('aws_instance', 'web', Path(MapStep('tags'), MapStep('Name')), StringExact('web-1'))",
    ),
    (
        "resource-attribute-check",
        lambda: t.ExpectResourceAttribute("a", "b", New("x"), kv.Null(), mode="data"),
        "ExpectResourceAttribute('a', 'b', Path(MapStep('x')), Null(), mode='data')",
    ),
    (
        "with-properties",
        lambda: t.ExpectResourceWithProperties("aws_sns_topic", {"name": "alerts"}),
        "ExpectResourceWithProperties('aws_sns_topic', ObjectPartial({'name': StringExact('alerts')}))",
    ),
    (
        "with-properties-ephemeral",
        lambda: t.ExpectResourceWithProperties("t", {"a": [1]}, mode="ephemeral"),
        "ExpectResourceWithProperties('t', ObjectPartial({'a': ListExact([NumberExact(1)])}), mode='ephemeral')",
    ),
    ("data-source", lambda: t.ExpectDataSource("aws_ami", "ubuntu"), "ExpectDataSource('aws_ami', 'ubuntu')"),
    ("data-source-count", lambda: t.ExpectDataSourceCount("aws_ami", 3), "ExpectDataSourceCount('aws_ami', 3)"),
    (
        "data-source-attribute",
        lambda: t.ExpectDataSourceAttribute("aws_ami", "ubuntu", New("most_recent"), True),
        "ExpectDataSourceAttribute('aws_ami', 'ubuntu', Path(MapStep('most_recent')), Bool(True))",
    ),
    ("variable", lambda: t.ExpectVariable("region"), "ExpectVariable('region')"),
    (
        "variable-all",
        lambda: t.ExpectVariable(
            "pw", type="string", default="x", sensitive=True, nullable=False, description=kv.StringRegexp("^p")
        ),
        "ExpectVariable('pw', type='string', default=StringExact('x'), sensitive=True, nullable=False, "
        "description=StringRegexp('^p'))",
    ),
    (
        "variable-type-check",
        lambda: t.ExpectVariable("v", type=kv.StringExact("list(string)")),
        "ExpectVariable('v', type=StringExact('list(string)'))",
    ),
    ("output", lambda: t.ExpectOutput("ip"), "ExpectOutput('ip')"),
    (
        "output-all",
        lambda: t.ExpectOutput("ip", value="${a.b}", sensitive=False, description="d", references=["aws_instance.web"]),
        "ExpectOutput('ip', value=StringExact('${a.b}'), sensitive=False, description=StringExact('d'), "
        "references=['aws_instance.web'])",
    ),
    ("local", lambda: t.ExpectLocal("greeting"), "ExpectLocal('greeting')"),
    (
        "local-all",
        lambda: t.ExpectLocal("greeting", value="hi", references=("var.name", "local.x")),
        "ExpectLocal('greeting', value=StringExact('hi'), references=['var.name', 'local.x'])",
    ),
    ("module", lambda: t.ExpectModule("vpc"), "ExpectModule('vpc')"),
    (
        "module-all",
        lambda: t.ExpectModule("vpc", source="s", version=kv.StringExact("5.1.0"), inputs={"cidr": "10.0.0.0/16"}),
        "ExpectModule('vpc', source=StringExact('s'), version=StringExact('5.1.0'), "
        "inputs=ObjectPartial({'cidr': StringExact('10.0.0.0/16')}))",
    ),
    ("provider", lambda: t.ExpectProvider("aws"), "ExpectProvider('aws')"),
    ("provider-default", lambda: t.ExpectProvider("aws", alias=None), "ExpectProvider('aws', alias=None)"),
    (
        "provider-all",
        lambda: t.ExpectProvider("aws", alias="usw1", properties={"region": "us-west-1"}),
        "ExpectProvider('aws', alias='usw1', properties=ObjectPartial({'region': StringExact('us-west-1')}))",
    ),
    ("references", lambda: t.ExpectReferences("aws_subnet", "a"), "ExpectReferences('aws_subnet', 'a', contains=[])"),
    (
        "references-attribute",
        lambda: t.ExpectReferences("aws_subnet", "a", "vpc_id", contains=["aws_vpc.main"]),
        "ExpectReferences('aws_subnet', 'a', 'vpc_id', contains=['aws_vpc.main'])",
    ),
    (
        "references-data",
        lambda: t.ExpectReferences("aws_ami", "u", contains=("var.x",), mode="data"),
        "ExpectReferences('aws_ami', 'u', contains=['var.x'], mode='data')",
    ),
]
_IDS = [c[0] for c in CASES]


@pytest.mark.parametrize(("make", "expected"), [c[1:] for c in CASES], ids=_IDS)
def test_repr(make: Callable[[], t.ConfigCheck], expected: str) -> None:
    assert repr(make()) == expected


@pytest.mark.parametrize("make", [c[1] for c in CASES], ids=_IDS)
def test_equal_and_hash_equal_when_built_alike(make: Callable[[], t.ConfigCheck]) -> None:
    a, b = make(), make()
    assert a is not b
    assert a == b
    assert hash(a) == hash(b)
    assert len({a, b}) == 1


@pytest.mark.parametrize("make", [c[1] for c in CASES], ids=_IDS)
def test_pickle_round_trip(make: Callable[[], t.ConfigCheck]) -> None:
    check = make()
    back = pickle.loads(pickle.dumps(check))
    assert type(back) is type(check)
    assert back == check
    assert hash(back) == hash(check)
    assert repr(back) == repr(check)


@pytest.mark.parametrize("make", [c[1] for c in CASES], ids=_IDS)
def test_copies_are_equal(make: Callable[[], t.ConfigCheck]) -> None:
    check = make()
    assert copy.copy(check) == check
    assert copy.deepcopy(check) == check


@pytest.mark.parametrize("make", [c[1] for c in CASES], ids=_IDS)
def test_immutable_and_a_frozen_value(make: Callable[[], t.ConfigCheck]) -> None:
    check = make()
    assert isinstance(check, FrozenValue)
    with pytest.raises(AttributeError):
        check.name = "other"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del check.name  # type: ignore[misc]
    assert not hasattr(check, "__dict__")


# Same fields, another class or another value: never equal.
UNEQUAL: list[tuple[str, Any, Any]] = [
    ("resource-vs-no-resource", t.ExpectResource("a", "b"), t.ExpectNoResource("a", "b")),
    ("resource-vs-data-source", t.ExpectResource("a", "b", mode="data"), t.ExpectDataSource("a", "b")),
    ("mode", t.ExpectResource("a", "b"), t.ExpectResource("a", "b", mode="data")),
    ("count", t.ExpectResourceCount("a", 1), t.ExpectResourceCount("a", 2)),
    ("any-vs-given", t.ExpectVariable("v"), t.ExpectVariable("v", sensitive=False)),
    ("alias-none-vs-any", t.ExpectProvider("aws"), t.ExpectProvider("aws", alias=None)),
    ("contains", t.ExpectReferences("a", "b", contains=["x"]), t.ExpectReferences("a", "b", contains=["y"])),
    ("not-a-tuple", t.ExpectResource("a", "b"), ("a", "b", "managed")),
]


@pytest.mark.parametrize(("a", "b"), [u[1:] for u in UNEQUAL], ids=[u[0] for u in UNEQUAL])
def test_unequal(a: Any, b: Any) -> None:
    assert a != b
    assert a.__eq__(b) is not True


def test_pickle_keeps_the_any_singleton() -> None:
    back = pickle.loads(pickle.dumps(t.ExpectVariable("v")))
    assert back.type is ANY
    assert back.default is ANY


SIGNATURES: list[tuple[str, list[tuple[str, str, Any]]]] = [
    ("ExpectResource", [("type", _P, _EMPTY), ("name", _P, _EMPTY), ("mode", _K, "managed")]),
    ("ExpectNoResource", [("type", _P, _EMPTY), ("name", _P, _EMPTY), ("mode", _K, "managed")]),
    ("ExpectResourceCount", [("type", _P, _EMPTY), ("count", _P, _EMPTY), ("mode", _K, "managed")]),
    (
        "ExpectResourceAttribute",
        [("type", _P, _EMPTY), ("name", _P, _EMPTY), ("path", _P, _EMPTY), ("value", _P, _EMPTY), ("mode", _K, "managed")],
    ),
    ("ExpectResourceWithProperties", [("type", _P, _EMPTY), ("properties", _P, _EMPTY), ("mode", _K, "managed")]),
    ("ExpectDataSource", [("type", _P, _EMPTY), ("name", _P, _EMPTY)]),
    ("ExpectDataSourceCount", [("type", _P, _EMPTY), ("count", _P, _EMPTY)]),
    ("ExpectDataSourceAttribute", [("type", _P, _EMPTY), ("name", _P, _EMPTY), ("path", _P, _EMPTY), ("value", _P, _EMPTY)]),
    (
        "ExpectVariable",
        [("name", _P, _EMPTY), ("type", _K, ANY), ("default", _K, ANY), ("sensitive", _K, ANY), ("nullable", _K, ANY), ("description", _K, ANY)],
    ),
    ("ExpectOutput", [("name", _P, _EMPTY), ("value", _K, ANY), ("sensitive", _K, ANY), ("description", _K, ANY), ("references", _K, ANY)]),
    ("ExpectLocal", [("name", _P, _EMPTY), ("value", _K, ANY), ("references", _K, ANY)]),
    ("ExpectModule", [("name", _P, _EMPTY), ("source", _K, ANY), ("version", _K, ANY), ("inputs", _K, ANY)]),
    ("ExpectProvider", [("name", _P, _EMPTY), ("alias", _K, ANY), ("properties", _K, ANY)]),
    (
        "ExpectReferences",
        [("type", _P, _EMPTY), ("name", _P, _EMPTY), ("attribute", _P, None), ("contains", _K, ()), ("mode", _K, "managed")],
    ),
]


@pytest.mark.parametrize(("name", "expected"), SIGNATURES, ids=[s[0] for s in SIGNATURES])
def test_constructor_signature(name: str, expected: list[tuple[str, str, Any]]) -> None:
    params = inspect.signature(getattr(t, name)).parameters.values()
    assert [(p.name, p.kind.name, p.default) for p in params] == expected
    # As a dataclass made it: the positional arguments, for ``case ExpectX(a, b):`` patterns.
    assert getattr(t, name).__match_args__ == tuple(n for n, kind, _ in expected if kind == _P)


def test_every_config_check_is_in_the_tables() -> None:
    public = {n for n in t.__all__ if n.startswith("Expect")}
    assert public == {s[0] for s in SIGNATURES}
    assert public == {type(make()).__name__ for _, make, _ in CASES}
