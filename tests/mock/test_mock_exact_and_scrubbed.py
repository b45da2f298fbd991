"""MockProvider, without Terraform: numbers kept exact as cty encodes them, defaults that wait for a known
configuration, import that never matches a secret, and exceptions that leave with the secrets scrubbed."""

from __future__ import annotations

import json
import math
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from mock_support import CLOUD, SECRET, Direct, cloud_document

from plancheck._terraform.mock.provider import MockProvider
from plancheck._terraform.mock.values import UNKNOWN, loads, plain_number, wire_number
from plancheck.acceptance import MockSchemaError

INT64 = 1 << 63


def bucket_config(**extra: Any) -> dict[str, Any]:
    config: dict[str, Any] = {
        "id": None, "name": "logs", "arn": None, "region": None, "size_gb": None, "public": None,
        "tags": {"team": "platform"}, "readers": ["alice"], "endpoints": None, "encryption_key": SECRET,
        "website": {"index_document": "index.html", "endpoint": None},
        "cors_rules": [{"origins": ["https://example.com"], "max_age": None}],
        "versioning": {"enabled": True, "version_id": None},
        "lifecycle_rule": [{"prefix": "tmp/", "expire_days": 7, "rule_id": None}],
    }
    config.update(extra)
    return config


# -- 1. numbers as cty's msgpack encoding writes them -----------------------------------------------

#: number -> (wire form, plain form): int64, else non-integral float64, else the decimal text.
NUMBERS = [
    pytest.param(7, 7, 7, id="small-int"),
    pytest.param(INT64 - 1, INT64 - 1, INT64 - 1, id="int64-max"),
    pytest.param(-INT64, -INT64, -INT64, id="int64-min"),
    pytest.param(2**64, "18446744073709551616", 2**64, id="2^64"),
    pytest.param(-INT64 - 1, "-9223372036854775809", -INT64 - 1, id="-2^63-1"),
    pytest.param(Decimal("1e400"), "1" + "0" * 400, 10**400, id="1e400"),
    pytest.param(2.5, 2.5, 2.5, id="exact-float"),
    pytest.param(0.1, "0.1", 0.1, id="float-0.1-as-its-decimal"),
    pytest.param(Decimal("0.1"), "0.1", 0.1, id="decimal-0.1"),
    pytest.param(Decimal("123456789012345678901234567890.5"), "123456789012345678901234567890.5",
                 Decimal("123456789012345678901234567890.5"), id="big-decimal"),
    pytest.param(3.0, 3, 3, id="integral-float"),
    pytest.param(Decimal("1e-7"), "0.0000001", 1e-7, id="small-decimal"),
    pytest.param(math.inf, math.inf, math.inf, id="infinity"),
]


@pytest.mark.parametrize(("number", "wire", "shown"), NUMBERS)
def test_a_number_travels_as_cty_writes_it(number: Any, wire: Any, shown: Any) -> None:
    assert wire_number(number) == wire
    assert type(wire_number(number)) is type(wire)
    assert plain_number(wire_number(number)) == shown


@settings(max_examples=200, deadline=None)
@given(st.one_of(
    st.integers(min_value=-(2**200), max_value=2**200),
    st.decimals(allow_nan=False, allow_infinity=False, places=None, min_value=Decimal("-1e60"), max_value=Decimal("1e60")),
))
@example(Decimal("73411663138421.625"))  # a float exactly, whose shortest repr is not its text
def test_the_wire_form_is_exact_and_packs(number: int | Decimal) -> None:
    msgpack = pytest.importorskip("msgpack", reason="the providers extra (tf, grpcio, msgpack) is not installed")

    wire = wire_number(number)
    assert isinstance(wire, str) or (isinstance(wire, int) and -INT64 <= wire < INT64) or isinstance(wire, float)
    assert Decimal(wire) == Decimal(number)  # exact, whichever form
    assert msgpack.unpackb(msgpack.packb(wire)) == wire
    shown = plain_number(wire)
    # A float shown is the float nearest the number; its repr may be shorter than the number's text
    # (73411663138421.625 is exact as a float, and its shortest repr is ...62).
    assert shown == float(number) if isinstance(shown, float) else Decimal(shown) == number


def test_state_json_numbers_stay_exact() -> None:
    text = '{"a": 18446744073709551616, "b": 0.1, "c": [1e400, 2.5, -9223372036854775809]}'
    assert loads(text) == {"a": "18446744073709551616", "b": "0.1", "c": ["1" + "0" * 400, 2.5, "-9223372036854775809"]}


@pytest.mark.parametrize(("number", "wire", "shown"), NUMBERS[:-1])
def test_a_stored_state_upgrades_and_applies_with_the_exact_number(number: Any, wire: Any, shown: Any) -> None:
    direct = Direct(MockProvider(cloud_document(), CLOUD))
    text = json.dumps(bucket_config(id="b1", lifecycle_rule=[{"prefix": "p", "expire_days": 0, "rule_id": "r"}]))
    literal = format(number, "f") if isinstance(number, Decimal) else repr(number)
    text = text.replace('"expire_days": 0', f'"expire_days": {literal}')
    request = direct.pb.UpgradeResourceState.Request(type_name="cloud_bucket", raw_state=direct.pb.RawState(json=text.encode()))
    upgraded = direct.value(direct.servicer.UpgradeResourceState(request, None).upgraded_state)
    assert upgraded["lifecycle_rule"][0]["expire_days"] == wire
    # Through plan and apply of a create, and as a default of a computed number.
    config = bucket_config(lifecycle_rule=[{"prefix": "p", "expire_days": wire, "rule_id": None}])
    mock = MockProvider(cloud_document(), CLOUD, mock_resources={"cloud_bucket": {"size_gb": number}})
    state = Direct(mock).create("cloud_bucket", config)
    assert (state["lifecycle_rule"][0]["expire_days"], state["size_gb"]) == (wire, wire)
    assert mock.objects("cloud_bucket")[0]["size_gb"] == shown


def test_a_nan_default_is_refused() -> None:
    with pytest.raises(MockSchemaError, match=r'^mock_resources\["cloud_bucket"\]\["size_gb"\]: expected number, got NaN '):
        MockProvider(cloud_document(), CLOUD, mock_resources={"cloud_bucket": {"size_gb": math.nan}})


# -- 2. a default function waits for a known configuration --------------------------------------------


@pytest.mark.parametrize(("defaults", "plan_secret", "apply_secret"), [
    pytest.param({"secret": lambda c: f"sk-{c['bucket_id']}"}, "unknown", "sk-b1", id="function-attribute"),
    pytest.param(lambda c: {"secret": f"sk-{c['bucket_id']}"}, "unknown", "sk-b1", id="function-type"),
    pytest.param({"secret": "fixed-secret"}, "fixed-secret", "fixed-secret", id="static-value-known-at-plan"),
])
def test_plan_time_defaults_of_an_unknown_configuration(defaults: Any, plan_secret: str, apply_secret: str) -> None:
    seen: list[Any] = []

    def watched(function: Any) -> Any:
        def called(config: Any) -> Any:
            seen.append(config)
            return function(config)
        return called

    if callable(defaults):
        defaults = watched(defaults)
    else:
        defaults = {k: watched(v) if callable(v) else v for k, v in defaults.items()}
    mock = MockProvider(cloud_document(), CLOUD, override_during="plan", mock_resources={"cloud_access_key": defaults})
    direct = Direct(mock)
    planned = direct.value(direct.plan("cloud_access_key", None, {"id": None, "bucket_id": direct.unknown, "secret": None},
                                       {"id": None, "bucket_id": direct.unknown, "secret": None}).planned_state)
    assert (direct.unknown if plan_secret == "unknown" else plan_secret) == planned["secret"]
    assert seen == []
    config = {"id": None, "bucket_id": "b1", "secret": None}
    state = direct.value(direct.apply("cloud_access_key", None, {**planned, "bucket_id": "b1"}, config).new_state)
    assert state["secret"] == apply_secret
    assert all(UNKNOWN not in c.values() for c in seen)


def test_a_default_function_never_gets_unknowns_at_apply() -> None:
    mock = MockProvider(cloud_document(), CLOUD, mock_resources={"cloud_access_key": {"secret": lambda c: "x"}})
    direct = Direct(mock)
    config = {"id": None, "bucket_id": direct.unknown, "secret": None}
    with pytest.raises(MockSchemaError) as caught:
        direct.apply("cloud_access_key", None, {"id": direct.unknown, "bucket_id": direct.unknown, "secret": direct.unknown}, config)
    assert str(caught.value) == (
        'mock_resources["cloud_access_key"]: the configuration still holds unknown values, '
        "so no default can be computed from it"
    )


# -- 3. import by id never matches a sensitive attribute -------------------------------------------


@pytest.mark.parametrize(("wanted", "found"), [
    pytest.param("b-id", True, id="by-id"),
    pytest.param("logs", True, id="by-plain-string-attribute"),
    pytest.param(SECRET, False, id="never-by-a-sensitive-attribute"),
    pytest.param("nope", False, id="unknown"),
])
def test_import_finds_by_id_then_plain_strings(wanted: str, found: bool) -> None:
    mock = MockProvider(cloud_document(), CLOUD, mock_resources={"cloud_bucket": {"id": "b-id"}})
    direct = Direct(mock)
    direct.create("cloud_bucket", bucket_config())
    pb = direct.pb
    response = direct.servicer.ImportResourceState(pb.ImportResourceState.Request(type_name="cloud_bucket", id=wanted), None)
    if found:
        assert direct.value(response.imported_resources[0].state)["id"] == "b-id"
    else:
        assert [d.summary for d in response.diagnostics] == [
            f"Cannot import cloud_bucket: the mock of {CLOUD} holds no object with that id"
        ]


def test_import_prefers_the_id_over_another_object_s_string() -> None:
    mock = MockProvider(cloud_document(), CLOUD, mock_resources={"cloud_bucket": lambda c: {"id": c["name"] + "-id"}})
    direct = Direct(mock)
    direct.create("cloud_bucket", bucket_config(name="second-id"))  # its name is the other one's id
    direct.create("cloud_bucket", bucket_config(name="second"))
    pb = direct.pb
    response = direct.servicer.ImportResourceState(pb.ImportResourceState.Request(type_name="cloud_bucket", id="second-id"), None)
    assert direct.value(response.imported_resources[0].state)["name"] == "second"


# -- 4. an exception leaves the mock with the secrets scrubbed -------------------------------------


def boom(config: dict[str, Any]) -> Any:
    raise ValueError(f"cannot build from {config!r}")


@pytest.mark.parametrize(("defaults", "message"), [
    pytest.param({"arn": boom}, 'mock_resources["cloud_bucket"]["arn"]: the default function raised ValueError: cannot build from ',
                 id="raises-with-the-config"),
    pytest.param({"size_gb": lambda c: int(c["encryption_key"])},
                 'mock_resources["cloud_bucket"]["size_gb"]: the default function raised ValueError: invalid literal for int()',
                 id="int-of-the-secret"),
    pytest.param(lambda c: {"arn": "x", c["encryption_key"]: 1},
                 'mock_resources["cloud_bucket"]["(sensitive)"]: cloud_bucket has no attribute (sensitive)',
                 id="secret-as-a-key"),
    pytest.param({"arn": lambda c: {"k": c["encryption_key"]}},
                 'mock_resources["cloud_bucket"]["arn"]: expected string, got an object', id="wrong-type"),
    pytest.param(lambda c: {"arn": str(1 / 0)},
                 'mock_resources["cloud_bucket"]: the default function raised ZeroDivisionError: division by zero',
                 id="type-function-raises"),
])
def test_a_default_s_exception_never_shows_a_secret(defaults: Any, message: str) -> None:
    mock = MockProvider(cloud_document(), CLOUD, mock_resources={"cloud_bucket": defaults})
    with pytest.raises(MockSchemaError) as caught:
        Direct(mock).create("cloud_bucket", bucket_config())
    error = caught.value
    assert str(error).startswith(message)
    assert SECRET not in str(error) + repr(error) + repr(error.args)
    assert error.__cause__ is None
    assert error.__suppress_context__
