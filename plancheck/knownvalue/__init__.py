"""knownvalue: checks that describe an expected JSON value, a port of Go's terraform-plugin-testing ``knownvalue``.

Build a check, then run it against a parsed JSON value (``str``, ``bool``,
``int``, ``Decimal``/``float``, ``None``, ``list``, ``dict``):

>>> from plancheck import knownvalue as kv
>>> check = kv.ObjectPartial({"ami": kv.StringRegexp(r"^ami-"), "tags": kv.MapExact({"env": kv.StringExact("prod")})})
>>> check == {"ami": "ami-0abc", "tags": {"env": "prod"}, "id": "i-1"}
True
>>> check.CheckValue({"ami": "ami-0abc", "tags": {"env": "dev"}})
Traceback (most recent call last):
...
plancheck.ValueMismatchError: tags["env"]: expected value "prod" for StringExact check, got: "dev"

Unlike Go: typing is strict JSON typing (``True`` is not 1); numbers compare
exactly; set checks pair checks with elements by a maximum matching, not
greedily; unknown values fail every check (Null and NotNull too); sensitive
values are compared but never shown; partial checks reject negative indexes at
construction and exact map/object checks name every missing and extra key.
"""

from .._checking.matcher import Check
from ._collections import (
    ListExact,
    ListPartial,
    ListSizeExact,
    MapExact,
    MapPartial,
    MapSizeExact,
    ObjectExact,
    ObjectPartial,
    SetExact,
    SetPartial,
    SetSizeExact,
    TupleExact,
    TuplePartial,
    TupleSizeExact,
)
from ._exact import exact, explain_mismatch
from ._funcs import BoolFunc, Float32Func, Float64Func, Int32Func, Int64Func, NumberFunc, StringFunc
from ._scalars import (
    Bool,
    Float32Exact,
    Float64Exact,
    Int32Exact,
    Int64Exact,
    NotNull,
    Null,
    NumberExact,
    StringExact,
    StringRegexp,
)

__all__ = [
    "Bool",
    "BoolFunc",
    "Check",
    "Float32Exact",
    "Float32Func",
    "Float64Exact",
    "Float64Func",
    "Int32Exact",
    "Int32Func",
    "Int64Exact",
    "Int64Func",
    "ListExact",
    "ListPartial",
    "ListSizeExact",
    "MapExact",
    "MapPartial",
    "MapSizeExact",
    "NotNull",
    "Null",
    "NumberExact",
    "NumberFunc",
    "ObjectExact",
    "ObjectPartial",
    "SetExact",
    "SetPartial",
    "SetSizeExact",
    "StringExact",
    "StringFunc",
    "StringRegexp",
    "TupleExact",
    "TuplePartial",
    "TupleSizeExact",
    "exact",
    "explain_mismatch",
]
