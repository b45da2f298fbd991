"""Just enough of Terraform's MessagePack values (cty's encoding) to pass attribute values through unchanged.

A provider that echoes a value never needs to understand it: this splits an object's encoding into
its attributes' raw bytes and joins such bytes back into an object, so the value (with its dynamic
type tag, unknowns and all) reaches Terraform byte for byte as it came. The ``msgpack`` library (the
``providers`` extra) does the reading and writing; it is imported on first use, so importing this
module costs nothing in a core install. Values are skipped, never decoded, and one nested deeper than
the library's own stack is walked header by header, so depth costs no recursion.

>>> fields = object_fields(b"\\x82\\xa1a\\x01\\xa1b\\x92\\xc3\\xc0")
>>> fields
{'a': b'\\x01', 'b': b'\\x92\\xc3\\xc0'}
>>> encode_object(fields) == b"\\x82\\xa1a\\x01\\xa1b\\x92\\xc3\\xc0"
True
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping
from typing import Any, Final

from ..._errors import TfCheckError

__all__ = ["NULL", "UNKNOWN", "MsgpackError", "encode_object", "item_end", "object_fields"]

#: cty's null, and its unknown value (extension type 0 with one zero byte).
NULL: Final = b"\xc0"
UNKNOWN: Final = b"\xd4\x00\x00"

_CUT: Final = "the value is cut short"


class MsgpackError(TfCheckError, ValueError):
    """A value that is not the MessagePack Terraform sends; ``offset`` is where reading stopped.

    >>> print(MsgpackError(3, "the value is cut short"))
    MessagePack value, byte 3: the value is cut short
    """

    def __init__(self, offset: int, problem: str) -> None:
        self.offset = offset
        self.problem = problem
        super().__init__(f"MessagePack value, byte {offset}: {problem}")


@functools.cache
def _msgpack() -> Any:
    return importlib.import_module("msgpack")


class _Cursor:
    """The ``msgpack`` unpacker reading ``data`` from ``base`` on; the offsets it reports count in ``data``."""

    __slots__ = ("base", "data", "lib", "reader")

    def __init__(self, data: bytes, base: int = 0) -> None:
        self.data = data
        self.lib: Any = _msgpack()
        self.start(base)

    def start(self, base: int) -> None:
        """A new unpacker from ``base`` on."""
        # Every length limit is the input's size: a longer declared string or binary is cut short, not allocated.
        self.base = base
        size = max(len(self.data) - base, 1)  # read_size: the buffer is made once, at its full size
        self.reader: Any = self.lib.Unpacker(raw=False, max_buffer_size=size, read_size=size)
        self.reader.feed(memoryview(self.data)[base:] if base else self.data)

    def at(self) -> int:
        return self.base + self.reader.tell()  # type: ignore[no-any-return]

    def cut(self) -> MsgpackError:
        return MsgpackError(len(self.data), _CUT)

    def header(self, read: str) -> int | None:
        """The count of the array (``read_array_header``) or map (``read_map_header``) here, or None if not one."""
        try:
            return int(getattr(self.reader, read)())
        except self.lib.OutOfData:
            raise self.cut() from None
        except ValueError:  # another kind of item; the unpacker has not moved
            return None

    def skip(self) -> None:
        """Past one whole item, nested items included."""
        at = self.at()
        try:
            self.reader.skip()
            return
        except self.lib.OutOfData:
            raise self.cut() from None
        except self.lib.StackError:
            pass  # nested deeper than the library's stack: walked below, one container header at a time
        except self.lib.FormatError:
            raise MsgpackError(at, f"0x{self.data[at]:02x} starts no MessagePack value") from None
        except ValueError:  # a declared length past the end (the limits are the input's size)
            raise self.cut() from None
        walker = _Cursor(self.data, at)
        pending = 1
        while pending:
            pending -= 1
            items = walker.header("read_array_header")
            if items is None:
                pairs = walker.header("read_map_header")
                items = None if pairs is None else 2 * pairs
            if items is None:
                walker.skip()  # not a container, so the library skips it in one step
            else:
                pending += items
        self.start(walker.at())  # the unpacker that overflowed lost its place

    def key(self) -> str:
        at = self.at()
        try:
            name = self.reader.unpack()
        except UnicodeDecodeError:
            raise MsgpackError(at, "an attribute name is not UTF-8") from None
        except self.lib.OutOfData:
            raise self.cut() from None
        except ValueError:  # malformed, or a container nested past the library's stack: no name either way
            name = None
        if type(name) is not str:
            raise MsgpackError(at, "an attribute name is not a string")
        return name


def item_end(data: bytes, start: int = 0) -> int:
    """The offset just after the whole item (nested items included) that starts at ``start``.

    >>> item_end(b"\\x92\\x01\\xa2hi\\xc0"), item_end(b"\\x92\\x01\\xa2hi\\xc0", 1)
    (5, 2)
    """
    cursor = _Cursor(data, start)
    cursor.skip()
    return cursor.at()


def object_fields(data: bytes) -> dict[str, bytes]:
    """An object's attributes, by name, as the raw bytes of each value.

    >>> object_fields(b"\\xc0")
    Traceback (most recent call last):
    ...
    plancheck._terraform.providers.cty_msgpack.MsgpackError: MessagePack value, byte 0: expected an object (a map), got 0xc0
    """
    if not data:
        raise MsgpackError(0, "expected an object (a map), got nothing")
    # Once per value the echo passes on: the unpacker is called directly, and a cursor made from the
    # same offset only when that fails (to say why, or to walk a value nested too deep for the library).
    lib = _msgpack()
    reader = lib.Unpacker(raw=False, max_buffer_size=len(data), read_size=len(data))
    reader.feed(data)
    try:
        count = reader.read_map_header()
    except lib.OutOfData:
        raise MsgpackError(len(data), _CUT) from None
    except ValueError:
        raise MsgpackError(0, f"expected an object (a map), got 0x{data[0]:02x}") from None
    fields: dict[str, bytes] = {}
    base = 0
    for _ in range(count):
        at = base + reader.tell()
        try:
            name = reader.unpack()
        except Exception:  # the cursor reads it again and raises the error that says why
            name = None
        if type(name) is not str:
            cursor = _Cursor(data, at)
            name = cursor.key()
            reader, base = cursor.reader, cursor.base
        start = base + reader.tell()
        try:
            reader.skip()
        except Exception:  # the cursor walks it header by header, or raises the error that says why
            cursor = _Cursor(data, start)
            cursor.skip()
            reader, base = cursor.reader, cursor.base
        fields[name] = data[start : base + reader.tell()]
    end = base + reader.tell()
    if end != len(data):
        raise MsgpackError(end, "unexpected bytes after the object")
    return fields


def encode_object(fields: Mapping[str, bytes]) -> bytes:
    """An object from its attributes' raw values, names sorted as cty writes them.

    >>> encode_object({"data": UNKNOWN})
    b'\\x81\\xa4data\\xd4\\x00\\x00'
    """
    packer = _msgpack().Packer()
    parts = [packer.pack_map_header(len(fields))]
    for name in sorted(fields):
        parts.append(packer.pack(name))
        parts.append(fields[name])
    return b"".join(parts)
