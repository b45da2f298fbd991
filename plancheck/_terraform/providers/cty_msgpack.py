"""Just enough of Terraform's MessagePack values (cty's encoding) to pass attribute values through unchanged.

A provider that echoes a value never needs to understand it: this splits an object's encoding into
its attributes' raw bytes and joins such bytes back into an object, so the value (with its dynamic
type tag, unknowns and all) reaches Terraform byte for byte as it came. No MessagePack library is
needed, and nesting depth costs no recursion.

>>> fields = object_fields(b"\\x82\\xa1a\\x01\\xa1b\\x92\\xc3\\xc0")
>>> fields
{'a': b'\\x01', 'b': b'\\x92\\xc3\\xc0'}
>>> encode_object(fields) == b"\\x82\\xa1a\\x01\\xa1b\\x92\\xc3\\xc0"
True
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from typing import Final

from ..._errors import TfCheckError

__all__ = ["NULL", "UNKNOWN", "MsgpackError", "encode_object", "item_end", "object_fields"]

#: cty's null, and its unknown value (extension type 0 with one zero byte).
NULL: Final = b"\xc0"
UNKNOWN: Final = b"\xd4\x00\x00"

# Lead byte -> (bytes of the length that follows, bytes per length unit) for strings, binaries, extensions.
_SIZED: Final = {0xC4: 1, 0xC5: 2, 0xC6: 4, 0xD9: 1, 0xDA: 2, 0xDB: 4}
_EXT: Final = {0xC7: 1, 0xC8: 2, 0xC9: 4}
_FIXED: Final = {
    0xC0: 0, 0xC2: 0, 0xC3: 0, 0xCA: 4, 0xCB: 8, 0xCC: 1, 0xCD: 2, 0xCE: 4, 0xCF: 8,
    0xD0: 1, 0xD1: 2, 0xD2: 4, 0xD3: 8, 0xD4: 2, 0xD5: 3, 0xD6: 5, 0xD7: 9, 0xD8: 17,
}  # fmt: skip
# Arrays and maps: (bytes of the count, items per count).
_CONTAINERS: Final = {0xDC: (2, 1), 0xDD: (4, 1), 0xDE: (2, 2), 0xDF: (4, 2)}


class MsgpackError(TfCheckError, ValueError):
    """A value that is not the MessagePack Terraform sends; ``offset`` is where reading stopped.

    >>> print(MsgpackError(3, "the value is cut short"))
    MessagePack value, byte 3: the value is cut short
    """

    def __init__(self, offset: int, problem: str) -> None:
        self.offset = offset
        self.problem = problem
        super().__init__(f"MessagePack value, byte {offset}: {problem}")


def _uint(data: bytes, at: int, size: int) -> int:
    if at + size > len(data):
        raise MsgpackError(len(data), "the value is cut short")
    return int.from_bytes(data[at : at + size], "big")


def _one(data: bytes, at: int) -> tuple[int, int]:
    """(offset after the lead of the item at ``at``, how many items it contains)."""
    if at >= len(data):
        raise MsgpackError(len(data), "the value is cut short")
    lead = data[at]
    at += 1
    if lead <= 0x7F or lead >= 0xE0:
        return at, 0
    if lead <= 0x8F:
        return at, 2 * (lead & 0x0F)
    if lead <= 0x9F:
        return at, lead & 0x0F
    if lead <= 0xBF:
        return at + (lead & 0x1F), 0
    if lead in _FIXED:
        return at + _FIXED[lead], 0
    if lead in _SIZED:
        size = _SIZED[lead]
        return at + size + _uint(data, at, size), 0
    if lead in _EXT:
        size = _EXT[lead]
        return at + size + 1 + _uint(data, at, size), 0
    if lead in _CONTAINERS:
        size, per = _CONTAINERS[lead]
        return at + size, per * _uint(data, at, size)
    raise MsgpackError(at - 1, f"0x{lead:02x} starts no MessagePack value")


def item_end(data: bytes, start: int = 0) -> int:
    """The offset just after the whole item (nested items included) that starts at ``start``.

    >>> item_end(b"\\x92\\x01\\xa2hi\\xc0"), item_end(b"\\x92\\x01\\xa2hi\\xc0", 1)
    (5, 2)
    """
    at, pending = start, 1
    while pending:
        at, inner = _one(data, at)
        pending += inner - 1
    if at > len(data):
        raise MsgpackError(len(data), "the value is cut short")
    return at


def _key(data: bytes, at: int) -> tuple[str, int]:
    lead = data[at] if at < len(data) else -1
    if 0xA0 <= lead <= 0xBF:
        start = at + 1
    elif lead in (0xD9, 0xDA, 0xDB):
        start = at + 1 + _SIZED[lead]
    else:
        raise MsgpackError(at, "an attribute name is not a string")
    end = item_end(data, at)
    try:
        return data[start:end].decode("utf-8"), end
    except UnicodeDecodeError:
        raise MsgpackError(at, "an attribute name is not UTF-8") from None


def object_fields(data: bytes) -> dict[str, bytes]:
    """An object's attributes, by name, as the raw bytes of each value.

    >>> object_fields(b"\\xc0")
    Traceback (most recent call last):
    ...
    plancheck._terraform.providers.cty_msgpack.MsgpackError: MessagePack value, byte 0: expected an object (a map), got 0xc0
    """
    lead = data[0] if data else -1
    if 0x80 <= lead <= 0x8F:
        count, at = lead & 0x0F, 1
    elif lead in (0xDE, 0xDF):
        size = _CONTAINERS[lead][0]
        count, at = _uint(data, 1, size), 1 + size
    else:
        got = f"0x{lead:02x}" if data else "nothing"
        raise MsgpackError(0, f"expected an object (a map), got {got}")
    fields: dict[str, bytes] = {}
    for _ in range(count):
        name, at = _key(data, at)
        end = item_end(data, at)
        fields[name] = data[at:end]
        at = end
    if at != len(data):
        raise MsgpackError(at, "unexpected bytes after the object")
    return fields


def _header(count: int, fix: int, wide: tuple[int, int]) -> bytes:
    if count < 16:
        return bytes([fix | count])
    return bytes([wide[0]]) + struct.pack(">H", count) if count < 2**16 else bytes([wide[1]]) + struct.pack(">I", count)


def _string(text: str) -> bytes:
    raw = text.encode("utf-8")
    n = len(raw)
    if n < 32:
        return bytes([0xA0 | n]) + raw
    if n < 2**8:
        return bytes([0xD9, n]) + raw
    return (bytes([0xDA]) + struct.pack(">H", n) if n < 2**16 else bytes([0xDB]) + struct.pack(">I", n)) + raw


def encode_object(fields: Mapping[str, bytes]) -> bytes:
    """An object from its attributes' raw values, names sorted as cty writes them.

    >>> encode_object({"data": UNKNOWN})
    b'\\x81\\xa4data\\xd4\\x00\\x00'
    """
    parts = [_header(len(fields), 0x80, (0xDE, 0xDF))]
    for name in sorted(fields):
        parts.append(_string(name))
        parts.append(fields[name])
    return b"".join(parts)
