"""MockProvider against hostile input: every refusal is a MockSchemaError naming where, never a RecursionError,
ValueError, OverflowError or an "internal error"; numbers stay exact where cty is exact; reprs never raise."""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from mock_support import CLOUD, Direct, cloud_document

from plancheck._terraform.mock.provider import MockCall, MockProvider
from plancheck._terraform.mock.schema import MAX_DEPTH
from plancheck.acceptance import MockSchemaError

DEEP = 5_000
INT64_MAX = (1 << 63) - 1
ADDR = "acme/cloud"


def nested_blocks(depth: int) -> dict[str, Any]:
    block: dict[str, Any] = {"attributes": {"v": {"type": "string", "optional": True}}}
    for _ in range(depth):
        block = {"block_types": {"b": {"nesting_mode": "list", "block": block}}}
    return {"resource_schemas": {"t": {"block": block}}}


def nested_attributes(depth: int) -> dict[str, Any]:
    attribute: dict[str, Any] = {"type": "string", "optional": True}
    for _ in range(depth):
        attribute = {"nested_type": {"nesting_mode": "single", "attributes": {"n": attribute}}, "optional": True}
    return {"resource_schemas": {"t": {"block": {"attributes": {"n": attribute}}}}}


def nested_type(depth: int) -> dict[str, Any]:
    cty: Any = "string"
    for _ in range(depth):
        cty = ["list", cty]
    return {"resource_schemas": {"t": {"block": {"attributes": {"v": {"type": cty, "optional": True}}}}}}


def one_type(**spec: Any) -> dict[str, Any]:
    return {"resource_schemas": {"t": {"block": {}, **spec}}}


def with_block(**limits: Any) -> dict[str, Any]:
    return {"resource_schemas": {"t": {"block": {"block_types": {"rule": {"nesting_mode": "list", "block": {}, **limits}}}}}}


def with_nested(**limits: Any) -> dict[str, Any]:
    nested = {"nesting_mode": "list", "attributes": {"a": {"type": "string", "optional": True}}, **limits}
    return {"resource_schemas": {"t": {"block": {"attributes": {"n": {"nested_type": nested, "optional": True}}}}}}


BLOCK_PATH = "schema.resource_schemas.t.block" + ".block_types.b.block" * (MAX_DEPTH + 1)
ATTRIBUTE_PATH = "schema.resource_schemas.t.block.attributes.n" + ".nested_type.attributes.n" * MAX_DEPTH + ".nested_type"
TOO_DEEP = f"nested more than {MAX_DEPTH} levels deep (blocks, nested attributes and types together): the mock refuses deeper schemas"
WHOLE = f"expected a whole number from 0 to {INT64_MAX} (int64)"

#: (schema document, the exact message): depth, and the protocol's integer bounds.
DOCUMENTS = [
    pytest.param(nested_blocks(DEEP), f"{BLOCK_PATH}: {TOO_DEEP}", id="blocks-5000-deep"),
    pytest.param(nested_attributes(DEEP), f"{ATTRIBUTE_PATH}: {TOO_DEEP}", id="nested-attributes-5000-deep"),
    pytest.param(nested_type(DEEP), f"schema.resource_schemas.t.block.attributes.v.type: {TOO_DEEP}", id="type-5000-deep"),
    pytest.param(with_block(max_items=1 << 63), f"schema.resource_schemas.t.block.block_types.rule.max_items: {WHOLE}, "
                 "got a number past int64", id="max-items-past-int64"),
    pytest.param(with_block(min_items=-1), f"schema.resource_schemas.t.block.block_types.rule.min_items: {WHOLE}, "
                 "got a negative number", id="min-items-negative"),
    pytest.param(with_block(max_items=1e400), f"schema.resource_schemas.t.block.block_types.rule.max_items: {WHOLE}, "
                 "got a number", id="max-items-infinite-float"),
    pytest.param(with_nested(max_items=10**5000), f"schema.resource_schemas.t.block.attributes.n.nested_type.max_items: "
                 f"{WHOLE}, got a number past int64", id="nested-max-items-5000-digits"),
    pytest.param(with_nested(min_items=-(1 << 64)), f"schema.resource_schemas.t.block.attributes.n.nested_type.min_items: "
                 f"{WHOLE}, got a negative number", id="nested-min-items-negative"),
    pytest.param(one_type(version=1 << 63), f"schema.resource_schemas.t.version: {WHOLE}, got a number past int64",
                 id="version-past-int64"),
    pytest.param(one_type(version=-(1 << 63)), f"schema.resource_schemas.t.version: {WHOLE}, got a negative number",
                 id="version-negative"),
    pytest.param(one_type(version="1"), f"schema.resource_schemas.t.version: {WHOLE}, got a string", id="version-string"),
]


@pytest.mark.parametrize(("document", "message"), DOCUMENTS)
def test_a_hostile_schema_is_refused_naming_where(document: dict[str, Any], message: str) -> None:
    with pytest.raises(MockSchemaError) as info:
        MockProvider(document, ADDR)
    assert str(info.value) == message


@pytest.mark.parametrize("make", [nested_blocks, nested_attributes, nested_type], ids=["blocks", "attributes", "type"])
def test_the_deepest_schema_allowed_is_served(make: Callable[[int], dict[str, Any]]) -> None:
    # Deep enough to reach the limit on every path, and every RPC walks it without a RecursionError.
    mock = MockProvider(make(MAX_DEPTH - 1), ADDR)
    direct = Direct(mock)
    response = direct.servicer.GetProviderSchema(direct.pb.GetProviderSchema.Request(), None)
    assert "t" in response.resource_schemas
    assert direct.create("t", _nulls(mock.schema.resources["t"].block)) is not None


def _nulls(block: Any) -> dict[str, Any]:
    out: dict[str, Any] = {name: None for name in block.attributes}
    out.update({name: [] for name in block.blocks})
    return out


# -- defaults: numbers, dynamic values ---------------------------------------------------------------

NUMBER_SCHEMA = {"resource_schemas": {"t": {"block": {"attributes": {
    "n": {"type": "number", "computed": True},
    "d": {"type": "dynamic", "computed": True},
}}}}}
AT_N = 'mock_resources["t"]["n"]'
AT_D = 'mock_resources["t"]["d"]'
INFINITY = ("expected number, got an infinity (Terraform cannot write it in a state or plan JSON; 1e5000 is a float "
            'infinity in Python: give Decimal("1e5000") for the number)')
NAN = "expected number, got NaN (cty has no NaN)"
JSON_LIKE = "expected a JSON-like value for a dynamic attribute (None, bool, number, str, list, tuple or dict), got "


def _self_list() -> list[Any]:
    value: list[Any] = []
    value.append(value)
    return value


def _deep_list(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


#: (attribute, default, the exact message)
REFUSED_DEFAULTS = [
    pytest.param("n", float("inf"), f"{AT_N}: {INFINITY}", id="float-inf"),
    pytest.param("n", 1e5000, f"{AT_N}: {INFINITY}", id="literal-1e5000-is-inf"),
    pytest.param("n", float("-inf"), f"{AT_N}: {INFINITY}", id="float-minus-inf"),
    pytest.param("n", Decimal("Infinity"), f"{AT_N}: {INFINITY}", id="decimal-infinity"),
    pytest.param("n", float("nan"), f"{AT_N}: {NAN}", id="float-nan"),
    pytest.param("n", Decimal("NaN"), f"{AT_N}: {NAN}", id="decimal-nan"),
    pytest.param("n", Decimal("sNaN"), f"{AT_N}: {NAN}", id="decimal-signalling-nan"),
    pytest.param("d", {1, 2}, f"{AT_D}: {JSON_LIKE}a non-JSON value of type set", id="dynamic-set"),
    pytest.param("d", object(), f"{AT_D}: {JSON_LIKE}a non-JSON value of type object", id="dynamic-object"),
    pytest.param("d", len, f"{AT_D}: {JSON_LIKE}a non-JSON value of type builtin_function_or_method", id="dynamic-function-is-not-called"),
    pytest.param("d", [b"x"], f"{AT_D}[0]: {JSON_LIKE}a non-JSON value of type bytes", id="dynamic-bytes-inside"),
    pytest.param("d", _self_list(), f"{AT_D}[0]: expected a JSON-like value (which holds no cycle), found a reference back to {AT_D}",
                 id="dynamic-self-referencing-list"),
    pytest.param("d", _deep_list(DEEP), f"{AT_D}" + "[0]" * 101 + ": nested more than 100 levels deep",
                 id="dynamic-5000-deep"),
    pytest.param("d", {"a": math.nan}, f'{AT_D}["a"]: {NAN}', id="dynamic-nan-inside"),
    pytest.param("d", {1: "x"}, f"{AT_D}: expected string keys, got a number as a key", id="dynamic-int-key"),
]


@pytest.mark.parametrize(("attribute", "default", "message"), REFUSED_DEFAULTS)
def test_a_hostile_default_is_refused_at_construction(attribute: str, default: Any, message: str) -> None:
    if callable(default):
        # A function default is a function of the configuration: it is called at apply, and what it returns is checked then.
        mock = MockProvider(NUMBER_SCHEMA, ADDR, mock_resources={"t": {attribute: lambda _config: default}})
        with pytest.raises(MockSchemaError) as info:
            Direct(mock).create("t", {"n": None, "d": None})
        assert str(info.value) == message
        return
    with pytest.raises(MockSchemaError) as info:
        MockProvider(NUMBER_SCHEMA, ADDR, mock_resources={"t": {attribute: default}})
    assert str(info.value) == message


BIG = 10**5000 + 7
#: (default, what the wire carries, what mock.objects shows): exact however large.
EXACT_DEFAULTS = [
    pytest.param(BIG, format(Decimal(BIG), "f"), Decimal(BIG), id="int-5001-digits"),
    pytest.param(-BIG, format(Decimal(-BIG), "f"), Decimal(-BIG), id="negative-int-5001-digits"),
    pytest.param(Decimal("1e5000"), "1E+5000", Decimal("1e5000"), id="decimal-1e5000"),
    pytest.param(Decimal("1e-5000"), "1E-5000", Decimal("1e-5000"), id="decimal-1e-5000"),
    pytest.param(Decimal("1e999999999"), "1E+999999999", Decimal("1e999999999"), id="decimal-huge-exponent"),
    pytest.param(10**3000, "1" + "0" * 3000, 10**3000, id="int-3001-digits-fixed-point"),
]


@pytest.mark.parametrize(("default", "wire", "shown"), EXACT_DEFAULTS)
def test_a_huge_number_default_stays_exact(default: Any, wire: str, shown: Any) -> None:
    mock = MockProvider(NUMBER_SCHEMA, ADDR, mock_resources={"t": {"n": default, "d": {"big": default}}})
    state = Direct(mock).create("t", {"n": None, "d": None})
    assert state["n"] == wire
    assert Decimal(state["n"]) == Decimal(default)
    (stored,) = mock.objects("t")
    assert stored["n"] == shown
    assert type(stored["n"]) is type(shown)
    assert stored["d"] == {"big": shown}
    assert repr(mock.calls)  # prints, however many digits


# -- schema files: the size limit, what json cannot read ------------------------------------------------


def _huge_sparse_file(tmp_path: Path) -> Path:
    path = tmp_path / "huge.schema.json"
    with open(path, "wb") as stream:
        stream.truncate(3 << 30)  # 3 GiB, sparse: nothing is written, nothing should be read
    return path


FILES = [
    pytest.param(lambda _tmp: Path("/dev/zero"), {"max_bytes": 4096}, {},
                 "/dev/zero: cannot read the schema: larger than 4096 bytes (raise the limit with max_bytes= or "
                 "PLANCHECK_MAX_BYTES)", id="dev-zero-max-bytes"),
    pytest.param(lambda _tmp: Path("/dev/zero"), {}, {"PLANCHECK_MAX_BYTES": "65536"},
                 "/dev/zero: cannot read the schema: larger than 65536 bytes (raise the limit with max_bytes= or "
                 "PLANCHECK_MAX_BYTES)", id="dev-zero-env"),
    pytest.param(_huge_sparse_file, {}, {},
                 "{path}: cannot read the schema: larger than 2147483648 bytes (raise the limit with max_bytes= or "
                 "PLANCHECK_MAX_BYTES)", id="3-gib-file-default-limit"),
    # A schema file is parsed as a plan is (any depth, exact numbers, a BOM read, NaN and repeated keys refused, each
    # located); what the JSON holds is then read as a schema, whose depth the mock bounds.
    pytest.param(lambda tmp: _write(tmp, "[" * DEEP + "]" * DEEP), {}, {},
                 "MockProvider schema: expected the JSON object 'terraform providers schema -json' prints, got an array",
                 id="json-5000-deep"),
    pytest.param(lambda tmp: _write(tmp, '{"resource_schemas": {"t": {"version": 0, "block": {"attributes": {"a": '
                                         '{"optional": true, "type": ' + '["list", ' * DEEP + '"string"' + "]" * DEEP
                                         + "}}}}}}"), {}, {},
                 f"schema.resource_schemas.t.block.attributes.a.type: nested more than {MAX_DEPTH} levels deep (blocks, "
                 "nested attributes and types together): the mock refuses deeper schemas", id="type-5000-deep"),
    pytest.param(lambda tmp: _write(tmp, '{"resource_schemas": {"t": {"version": 1' + "0" * 5000 + "}}}"), {}, {},
                 "schema.resource_schemas.t.version: expected a whole number from 0 to 9223372036854775807 (int64), "
                 "got a number", id="json-int-5001-digits"),
    pytest.param(lambda tmp: _write(tmp, '{"format_version": NaN}'), {}, {},
                 "{path}: $: expected valid JSON, found NaN, which is not JSON", id="json-nan"),
    pytest.param(lambda tmp: _write(tmp, '{"a": 1, "a": 1}'), {}, {},
                 "{path}: $.a: expected each key once in its object, found this key repeated at line 1 column 10 "
                 "(character 9) (which of its values counts would be a guess)", id="json-repeated-key"),
    pytest.param(lambda tmp: _write(tmp, '{\n  oops'), {}, {},
                 "{path}: $: expected valid JSON, found invalid JSON: Expecting property name enclosed in double quotes "
                 "at line 2 column 3 (character 4)", id="json-syntax"),
    pytest.param(lambda tmp: _write(tmp, '\ufeff{"resources": {}}'), {}, {},
                 "MockProvider schema: not a provider schema: expected provider_schemas (the output of 'terraform "
                 "providers schema -json') or one provider's entry (provider, resource_schemas, data_source_schemas), "
                 "found resources", id="utf8-bom-is-read"),
    pytest.param(lambda tmp: _write_bytes(tmp, b'{"a": "\xff"}'), {}, {},
                 "{path}: $: expected JSON text in UTF-8 (or UTF-16/UTF-32), found an invalid byte 0xff at byte offset 7",
                 id="not-utf8"),
    pytest.param(lambda _tmp: Path("/dev/null"), {"max_bytes": 0}, {},
                 "MockProvider.from_schema_file: max_bytes must be a positive number of bytes, got 0", id="bad-max-bytes"),
]


def _write(tmp: Path, text: str) -> Path:
    path = tmp / "hostile.schema.json"
    path.write_text(text, encoding="utf-8")
    return path


def _write_bytes(tmp: Path, data: bytes) -> Path:
    path = tmp / "hostile.schema.json"
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(("make", "options", "env", "message"), FILES)
def test_a_hostile_schema_file_fails_fast(make: Callable[[Path], Path], options: dict[str, Any], env: dict[str, str],
                                          message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PLANCHECK_MAX_BYTES", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    path = make(tmp_path)
    with pytest.raises(MockSchemaError) as info:
        MockProvider.from_schema_file(path, ADDR, **options)
    assert str(info.value) == message.replace("{path}", os.fspath(path))


# -- repr(mock.calls) never raises ----------------------------------------------------------------------


class _Unprintable:
    def __repr__(self) -> str:
        raise RuntimeError("hunter2-in-the-message")


def _failing_scrub(_text: str) -> str:
    raise RuntimeError("scrub broke")


REPRS = [
    pytest.param(MockCall("ApplyResourceChange", "t", {"v": _Unprintable()}, "create"),
                 "MockCall('ApplyResourceChange', 't', <not shown: its repr raised RuntimeError>, action='create')",
                 id="config-whose-repr-raises"),
    pytest.param(MockCall("ReadResource", "t", _deep_list(sys.getrecursionlimit() * 5)),
                 "MockCall('ReadResource', 't', <not shown: nested too deep to show>)", id="config-too-deep-to-repr"),
    pytest.param(MockCall("ReadResource", "t", {"n": 10**5000}),
                 "MockCall('ReadResource', 't', <not shown: its repr raised ValueError>)", id="config-int-too-long-to-print"),
    pytest.param(MockCall("ReadResource", "t", _self_list()), "MockCall('ReadResource', 't', [[...]])", id="config-holds-itself"),
    pytest.param(MockCall("ReadResource", "t", {"v": "secret-value"}, "", None, _failing_scrub),
                 "MockCall(<not shown: scrubbing it raised RuntimeError>)", id="scrub-raises"),
]


@pytest.mark.parametrize(("call", "shown"), REPRS)
def test_the_repr_of_a_call_never_raises(call: MockCall, shown: str) -> None:
    assert repr(call) == shown
    assert repr([call]) == f"[{shown}]"


def test_the_example_schema_still_reads() -> None:
    # The limits refuse nothing a real provider has.
    assert MockProvider(cloud_document(), CLOUD).schema.resources
    assert json.dumps(cloud_document())


@pytest.mark.parametrize(("env", "message"), [
    pytest.param({"PLANCHECK_MAX_BYTES": "65536"}, "tfplancheck: error: --mock acme/cloud: /dev/zero: cannot read the schema: "
                 "larger than 65536 bytes (raise the limit with max_bytes= or PLANCHECK_MAX_BYTES)\n", id="dev-zero"),
    pytest.param({"PLANCHECK_MAX_BYTES": "lots"}, "tfplancheck: error: PLANCHECK_MAX_BYTES must be a positive number of "
                 "bytes, got 'lots'\n", id="bad-limit"),
])
def test_mock_plan_refuses_an_endless_schema_file(env: dict[str, str], message: str, tmp_path: Path) -> None:
    import io

    from plancheck.cli._command import run

    (tmp_path / "main.tf").write_text("", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    status = run(["mock-plan", str(tmp_path), "--mock", "acme/cloud=/dev/zero"], stdout=out, stderr=err, environ=env)
    assert (status, out.getvalue(), err.getvalue()) == (2, "", message)


# -- values Terraform sends: nested past what msgpack and Python walk ------------------------------------


@pytest.mark.parametrize("depth", [600, DEEP])
def test_a_value_nested_deep_works_or_is_a_typed_error(depth: int) -> None:
    mock = MockProvider(NUMBER_SCHEMA, ADDR)
    direct = Direct(mock)
    dynamic = b"\x91" * depth + b"\x90"  # a list of a list of ... (msgpack), as a dynamic attribute's value
    config = b"\x82\xa1n\xc0\xa1d\x92\xc4\x09\x22dynamic\x22" + dynamic
    request = direct.pb.ValidateResourceConfig.Request(type_name="t", config=direct.pb.DynamicValue(msgpack=config))
    if depth < 1000:  # msgpack decodes it; the mock records it, and its repr still prints
        assert not direct.servicer.ValidateResourceConfig(request, None).diagnostics
        assert repr(mock.calls).endswith("<not shown: nested too deep to show>)]") or "[[[[" in repr(mock.calls)
        return
    with pytest.raises(MockSchemaError) as info:
        direct.servicer.ValidateResourceConfig(request, None)
    assert str(info.value) == "MockProvider: cannot decode a value Terraform sent (StackError: nested too deep or malformed)"
