"""Splitting and joining cty's MessagePack objects byte for byte, checked against the msgpack library."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck._errors import TfCheckError
from plancheck._terraform.providers.cty_msgpack import (
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
