"""Splitting and joining cty's MessagePack objects byte for byte, checked against the msgpack library."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck._errors import TfCheckError
from plancheck._terraform.providers.wire import (
    NULL,
    UNKNOWN,
    MsgpackError,
    encode_object,
    item_end,
    object_fields,
)

msgpack: Any = pytest.importorskip("msgpack", reason="msgpack (installed with the providers extra) is not installed")

scalars = (
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats(allow_nan=False)
    | st.text(max_size=40) | st.binary(max_size=300)
    | st.builds(lambda code, data: msgpack.ExtType(code, data), st.integers(0, 127), st.binary(max_size=20))
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=20) | st.dictionaries(st.text(max_size=5), inner, max_size=20),
    max_leaves=20,
)
objects = st.dictionaries(st.text(max_size=40), values, max_size=6)


@settings(max_examples=150, deadline=None)
@given(value=values, tail=st.binary(max_size=5))
def test_item_end_finds_the_end_of_any_value(value: object, tail: bytes) -> None:
    packed = msgpack.packb(value)
    assert item_end(packed + tail) == len(packed)


@settings(max_examples=150, deadline=None)
@given(obj=objects)
def test_object_fields_split_and_encode_object_joins_byte_for_byte(obj: dict[str, object]) -> None:
    ordered = dict(sorted(obj.items()))
    packed = msgpack.packb(ordered)
    fields = object_fields(packed)
    assert fields == {name: msgpack.packb(value) for name, value in ordered.items()}
    assert encode_object(fields) == packed


@settings(max_examples=100, deadline=None)
@given(obj=objects, cut=st.integers(1, 50))
def test_a_cut_short_object_is_a_typed_error(obj: dict[str, object], cut: int) -> None:
    packed = msgpack.packb(obj)
    if cut >= len(packed):
        return
    with pytest.raises(MsgpackError):
        object_fields(packed[: len(packed) - cut])


def test_constants_are_ctys_null_and_unknown() -> None:
    assert msgpack.unpackb(NULL) is None
    assert msgpack.unpackb(UNKNOWN) == msgpack.ExtType(0, b"\x00")


ERRORS = [
    ("empty", b"", "MessagePack value, byte 0: expected an object (a map), got nothing"),
    ("null", b"\xc0", "MessagePack value, byte 0: expected an object (a map), got 0xc0"),
    ("array", b"\x91\x01", "MessagePack value, byte 0: expected an object (a map), got 0x91"),
    ("cut-value", b"\x81\xa1a", "MessagePack value, byte 3: the value is cut short"),
    ("cut-string", b"\x81\xa1a\xa5ab", "MessagePack value, byte 6: the value is cut short"),
    ("cut-length", b"\x81\xa1a\xda\x00", "MessagePack value, byte 5: the value is cut short"),
    ("never-used-c1", b"\x81\xa1a\xc1", "MessagePack value, byte 3: 0xc1 starts no MessagePack value"),
    ("number-key", b"\x81\x01\x02", "MessagePack value, byte 1: an attribute name is not a string"),
    ("non-utf8-key", b"\x81\xa1\xff\x02", "MessagePack value, byte 1: an attribute name is not UTF-8"),
    ("trailing", b"\x80\x00", "MessagePack value, byte 1: unexpected bytes after the object"),
    ("huge-count", b"\x81\xa1a\xdd\xff\xff\xff\xff", "MessagePack value, byte 8: the value is cut short"),
    ("no-name", b"\x81", "MessagePack value, byte 1: the value is cut short"),
    ("huge-object", b"\xdf\xff\xff\xff\xff", "MessagePack value, byte 5: the value is cut short"),
    ("cut-map-header", b"\xde\x00", "MessagePack value, byte 2: the value is cut short"),
    ("name-too-long", b"\x81\xdb\xff\xff\xff\xff", "MessagePack value, byte 6: the value is cut short"),
    ("binary-name", b"\x81\xc4\x01a\xc0", "MessagePack value, byte 1: an attribute name is not a string"),
    ("deep-name", b"\x81" + b"\x91" * 2000 + b"\xc0\xc0", "MessagePack value, byte 1: an attribute name is not a string"),
    ("bin-too-long", b"\x81\xa1a\xc6\xff\xff\xff\xff", "MessagePack value, byte 8: the value is cut short"),
    ("deep-then-c1", b"\x81\xa1a" + b"\x91" * 2000 + b"\xc1", "MessagePack value, byte 2003: 0xc1 starts no MessagePack value"),
]


@pytest.mark.parametrize(("data", "message"), [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_bad_values_name_the_byte_and_the_problem(data: bytes, message: str) -> None:
    with pytest.raises(MsgpackError) as info:
        object_fields(data)
    assert str(info.value) == message
    assert isinstance(info.value, TfCheckError)
    assert isinstance(info.value, ValueError)


def test_deep_nesting_needs_no_recursion() -> None:
    deep = b"\x91" * 100_000 + b"\xc0"
    assert item_end(deep) == len(deep)
    assert object_fields(b"\x81\xa1a" + deep) == {"a": deep}


LONG = [
    ("16-attributes", {f"k{i:02}": b"\x01" for i in range(16)}, b"\xde\x00\x10"),
    ("long-name", {"n" * 40: NULL}, b"\x81\xd9\x28"),
    ("longer-name", {"n" * 300: NULL}, b"\x81\xda\x01\x2c"),
]


@pytest.mark.parametrize(("fields", "start"), [x[1:] for x in LONG], ids=[x[0] for x in LONG])
def test_wide_headers_read_back(fields: dict[str, bytes], start: bytes) -> None:
    encoded = encode_object(fields)
    assert encoded.startswith(start)
    assert object_fields(encoded) == fields


# -- what cty writes, passed through byte for byte (pinned on the hand-written reader this replaced) ---------
CTY_VALUES = [
    ("null", b"\xc0"),
    ("unknown", UNKNOWN),  # extension type 0
    ("unknown-refined", b"\xc7\x04\x0c\x81\x01\xa1x"),  # extension type 12: a refinement's own map inside
    ("dynamic", b'\x92\xc4\x08"string"\xa5hello'),  # [type as JSON in a binary, value]
    ("dynamic-unknown-type", b'\x92\xc4\x09"dynamic"\xd4\x00\x00'),
    ("big-number", b"\xb5123456789012345678901"),  # past int64 and float64: cty writes the decimal string
    ("negative-int64", b"\xd3\x80\x00\x00\x00\x00\x00\x00\x00"),
    ("uint64", b"\xcf\xff\xff\xff\xff\xff\xff\xff\xff"),
    ("float64", b"\xcb\x3f\xf8\x00\x00\x00\x00\x00\x00"),
    ("float64-nan", b"\xcb\x7f\xf8\x00\x00\x00\x00\x00\x01"),  # a NaN's payload bits kept, as any float's
    ("float32", b"\xca\x3f\xc0\x00\x00"),  # cty never writes it; decoding and re-encoding would widen it
    ("wide-str8-short", b"\xd9\x02hi"),  # not the shortest form: kept as sent, not re-encoded
    ("map-of-set", b"\x81\xa1k\x92\x01\x02"),
    ("empty-array16", b"\xdc\x00\x00"),
]


@pytest.mark.parametrize("value", [v[1] for v in CTY_VALUES], ids=[v[0] for v in CTY_VALUES])
def test_ctys_values_pass_through_unchanged(value: bytes) -> None:
    packed = b"\x82\xa4data" + value + b"\xa4more\xc0"
    assert object_fields(packed) == {"data": value, "more": NULL}
    assert encode_object({"more": NULL, "data": value}) == packed
    assert item_end(value + b"\xc0") == len(value)


single_floats = st.recursive(
    st.floats(width=32, allow_nan=False) | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=5),
    max_leaves=10,
)


@settings(max_examples=100, deadline=None)
@given(obj=st.dictionaries(st.text(max_size=10), single_floats, max_size=6))
def test_split_and_join_round_trip_bytes_no_re_encoding_would_keep(obj: dict[str, object]) -> None:
    packed = msgpack.packb(dict(sorted(obj.items())), use_single_float=True)
    assert encode_object(object_fields(packed)) == packed


def test_importing_the_modules_imports_neither_msgpack_nor_protobuf() -> None:
    """A core install (no ``providers`` extra) imports these through the echo provider's module."""
    code = (
        "import sys\n"
        "import plancheck.acceptance.echoprovider\n"
        "import plancheck._terraform.providers.wire\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'msgpack', 'google', 'grpc', 'tf'}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout == "[]\n"
