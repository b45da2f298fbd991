"""Values as the protocol carries them (msgpack, decoded), walked along a schema: plan, generate, fill, convert.

A value here is what ``msgpack.unpackb`` gives for cty's msgpack encoding: ``None`` for null, a
``msgpack.ExtType`` for an unknown value (code 0, or 12 with refinements), ``[type JSON bytes,
value]`` for a value of a ``dynamic`` attribute, and plain ``str``/``int``/``float``/``bool``/``list``/
``dict`` otherwise (sets are lists). Nothing here imports ``msgpack``: an unknown is recognized by
its ``code`` and ``data`` attributes, and made by the caller's ``unknown`` value.
"""

from __future__ import annotations

import decimal
import functools
import hashlib
import json
import math
import random
import string
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final, Protocol

from tfjsonpath._jsontypes import json_kind

from ..._redact import SENSITIVE, secret_strings
from ..._text import closest, shortened
from ..binary import _version_tuple
from .schema import Attribute, Block, BlockType, MockSchemaError, at_key, type_label

__all__ = [
    "GENERATE",
    "UNKNOWN",
    "Holder",
    "canonical",
    "conform",
    "decode",
    "encode",
    "fill",
    "generate_attribute",
    "generated_missing",
    "generated_string",
    "has_unknown",
    "is_unknown",
    "loads",
    "normalize_state",
    "plain",
    "plain_number",
    "planned_action",
    "redacted",
    "seeded_rng",
    "sensitive_strings",
    "unset_single_nested",
    "wire_number",
]

#: What ``terraform test`` draws a generated string's characters from (lower-case letters and digits, no upper case).
_ALPHANUMERICS: Final = string.ascii_lowercase + string.digits
_REDACTED: Final = "(sensitive)"
_INT64: Final = 1 << 63
#: Numbers whose fixed-point text would be longer than this many digits (under Python's 4,300-digit limit of
#: int to str, so a plain value always prints) travel in exponent notation
#: (``1E+100000``, which cty parses too): still exact, without building a number of a billion digits.
_MAX_DIGITS: Final = 4_000
#: The deepest value a ``dynamic`` attribute's default may be (so a list that holds itself is refused, not walked).
_MAX_VALUE_DEPTH: Final = 100


class _Marker:
    """A value that stands for something a plain value cannot say; compared by identity, shown by its name."""

    __slots__ = ("_shown",)

    def __init__(self, shown: str) -> None:
        self._shown = shown

    def __repr__(self) -> str:
        return self._shown


#: Stands for an unknown value in plain dicts (in :attr:`MockProvider.calls` and in what a default callable gets).
UNKNOWN: Final = _Marker("(unknown)")

#: What :func:`conform` puts for the object attributes a default leaves out (``missing=GENERATE``): generated at
#: apply (unknown at plan), as ``terraform test`` fills them.
GENERATE: Final = _Marker("(generated)")


class Holder(Protocol):
    """A block or a nested attribute's type: attributes and (for blocks) nested blocks."""

    @property
    def attributes(self) -> Mapping[str, Attribute]: ...

    @property
    def blocks(self) -> Mapping[str, BlockType]: ...


def is_unknown(value: object) -> bool:
    """True for msgpack's extension values, which is how cty sends unknown values.

    >>> class Ext:  # stands in for msgpack.ExtType
    ...     code, data = 0, b"\\x00"
    >>> is_unknown(Ext()), is_unknown(None), is_unknown("x")
    (True, False, False)
    """
    return hasattr(value, "code") and hasattr(value, "data") and not isinstance(value, (str, bytes, dict, list))


def wire_number(value: int | float | decimal.Decimal) -> int | float | str:
    """A number as cty's msgpack encoding writes it, exactly: an int64, else a non-integral float64, else a decimal string.

    cty tries the int64, then the float64 encoding, and writes any number neither holds exactly
    (big integers, decimals such as 0.1) as its decimal text. A Python float stands for the
    decimal its ``repr`` spells (what the literal means in a configuration).

    >>> wire_number(7), wire_number(2**64), wire_number(-(2**63) - 1), wire_number(2.5)
    (7, '18446744073709551616', '-9223372036854775809', 2.5)
    >>> wire_number(0.1), wire_number(decimal.Decimal("123456789012345678901234567890.5")), wire_number(3.0)
    ('0.1', '123456789012345678901234567890.5', 3)
    """
    if isinstance(value, float):
        if math.isinf(value):
            return value  # cty's infinities travel as float64 infinities
        value = decimal.Decimal(repr(value))
    if isinstance(value, int) and -_INT64 <= value < _INT64:
        return value
    number = value if isinstance(value, decimal.Decimal) else decimal.Decimal(value)
    if not number.is_finite():
        return float(number)  # an infinity (NaN is refused before it gets here)
    if _huge(number):
        return str(_normal(number))
    if _integral(number):
        whole = int(number)
        return whole if -_INT64 <= whole < _INT64 else format(_normal(number), "f")
    if decimal.Decimal(float(number)) == number:
        return float(number)
    return format(_normal(number), "f")


def _normal(number: decimal.Decimal) -> decimal.Decimal:
    """``number`` without trailing zeros, exactly (the precision is its own)."""
    return number.normalize(decimal.Context(prec=max(len(number.as_tuple().digits), 1), Emax=decimal.MAX_EMAX,
                                            Emin=decimal.MIN_EMIN))


def _huge(number: decimal.Decimal) -> bool:
    """Whether a finite decimal's fixed-point text would have more than :data:`_MAX_DIGITS` digits."""
    return abs(number.adjusted()) > _MAX_DIGITS or len(number.as_tuple().digits) > _MAX_DIGITS


def _integral(value: decimal.Decimal) -> bool:
    """Whether a finite decimal is a whole number (``to_integral_value`` is exact: no precision applies)."""
    return value == value.to_integral_value(rounding=decimal.ROUND_DOWN)


def plain_number(value: Any) -> Any:
    """A wire number as plain Python: an int when integral, a float when one holds it exactly, else a Decimal.

    >>> plain_number("18446744073709551616"), plain_number(1.8446744073709552e19), plain_number("0.1")
    (18446744073709551616, 18446744073709551616, 0.1)
    >>> plain_number("123456789012345678901234567890.5"), plain_number(2.5)
    (Decimal('123456789012345678901234567890.5'), 2.5)
    """
    if isinstance(value, bool) or not isinstance(value, (int, float, str, decimal.Decimal)):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    try:
        number = decimal.Decimal(value)
    except decimal.InvalidOperation:
        return value  # not a number: left for Terraform to reject
    if not number.is_finite():
        return float(number)
    if _huge(number):
        return number  # kept as a Decimal: an int of that many digits is costly to make and cannot be printed
    if _integral(number):
        return int(number)
    shortest = float(number)
    return shortest if decimal.Decimal(repr(shortest)) == number else number


def _wire_numbers(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _wire_numbers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_wire_numbers(item) for item in value]
    if isinstance(value, (int, decimal.Decimal)) and not isinstance(value, bool):
        return wire_number(value)
    return value


def loads(text: str | bytes) -> Any:
    """JSON from Terraform with every number exact and in its wire form (:func:`wire_number`).

    >>> loads('{"n": 18446744073709551616, "f": 0.1, "i": [1, 2.5, 1e400]}')["i"][:2], loads('{"f": 0.1}')
    ([1, 2.5], {'f': '0.1'})
    """
    return _wire_numbers(json.loads(text, parse_float=decimal.Decimal))


def has_unknown(value: Any) -> bool:
    """Whether a plain value holds :data:`UNKNOWN` anywhere.

    >>> has_unknown({"a": [1, {"b": UNKNOWN}]}), has_unknown({"a": [1, None]})
    (True, False)
    """
    if value is UNKNOWN:
        return True
    if isinstance(value, dict):
        return any(has_unknown(item) for item in value.values())
    if isinstance(value, list):
        return any(has_unknown(item) for item in value)
    return False


def canonical(value: Any) -> bytes:
    """A wire value as bytes that depend on the value only (map keys sorted), to seed generated values with.

    The msgpack Terraform sends is already canonical; a value encoded by another writer may
    order its map keys otherwise, and must still seed the same values.

    >>> canonical({"b": [1, None], "a": "x"}) == canonical({"a": "x", "b": [1, None]})
    True
    >>> canonical({"a": 1}) == canonical({"a": True}), canonical({"a": "1"}) == canonical({"a": 1})
    (False, False)
    """
    return repr(_canonical(value)).encode()


def _canonical(value: Any) -> Any:
    if is_unknown(value):
        return ("unknown", value.code, bytes(value.data))
    if isinstance(value, dict):
        return ("map", tuple(sorted((str(key), _canonical(item)) for key, item in value.items())))
    if isinstance(value, (list, tuple)):
        return ("list", tuple(_canonical(item) for item in value))
    return (type(value).__name__, value)


def generated_string(rng: random.Random) -> str:
    """Eight random lower-case letters and digits, as ``terraform test`` mocks generate.

    >>> generated_string(random.Random(1))
    'ieqh524y'
    """
    return "".join(rng.choice(_ALPHANUMERICS) for _ in range(8))


def generate_type(cty: Any, rng: random.Random) -> Any:
    """A value of type ``cty`` by ``terraform test``'s rules: strings random, numbers 0, bools false, collections empty.

    >>> generate_type(["object", {"n": "number", "tags": ["map", "string"], "on": "bool"}], random.Random(1))
    {'n': 0, 'on': False, 'tags': {}}
    """
    if cty == "string":
        return generated_string(rng)
    if cty == "number":
        return 0
    if cty == "bool":
        return False
    if isinstance(cty, list) and cty:
        kind = cty[0]
        if kind in ("list", "set"):
            return []
        if kind == "map":
            return {}
        if kind == "object":
            return {name: generate_type(sub, rng) for name, sub in sorted(cty[1].items())}
        if kind == "tuple":
            return [generate_type(sub, rng) for sub in cty[1]]
    return None  # dynamic: a null of no particular type


def generate_object(holder: Holder, rng: random.Random) -> dict[str, Any]:
    """An object of a block or nested type with every attribute generated; nested blocks empty."""
    out: dict[str, Any] = {name: generate_attribute(a, rng) for name, a in sorted(holder.attributes.items())}
    for name, block in sorted(holder.blocks.items()):
        if block.mode in ("list", "set"):
            out[name] = []
        elif block.mode == "map":
            out[name] = {}
        else:
            out[name] = generate_object(block.block, rng)
    return out


def generate_attribute(attribute: Attribute, rng: random.Random) -> Any:
    """A generated value for one attribute (a nested attribute: one object, or an empty collection)."""
    nested = attribute.nested
    if nested is None:
        return generate_type(attribute.type, rng)
    if nested.mode == "single":
        return generate_object(nested, rng)
    return {} if nested.mode == "map" else []


def _each(mode: str, value: Any, function: Callable[[Any], Any]) -> Any:
    """``function`` applied to every object of a nested block or nested attribute value."""
    if value is None or is_unknown(value):
        return value
    if mode in ("single", "group"):
        return function(value)
    if mode == "map":
        return {key: function(item) for key, item in value.items()}
    return [function(item) for item in value]


def plan_create(holder: Holder, value: Any, unknown: object, known: Mapping[str, Any] | None = None) -> Any:
    """The planned new object of a create: computed attributes the configuration leaves null become unknown.

    ``known`` gives the values of some of them instead (``override_during="plan"``), and under the name of a nested
    block (or nested attribute that is not computed) the values of those of each of its objects.

    >>> from .schema import read_provider_schema
    >>> doc = {"resource_schemas": {"t": {"block": {"attributes": {
    ...     "id": {"type": "string", "computed": True}, "name": {"type": "string", "optional": True, "computed": True}}}}}}
    >>> block = read_provider_schema(doc, "a/b").resources["t"].block
    >>> plan_create(block, {"id": None, "name": "x"}, "?")
    {'id': '?', 'name': 'x'}
    """
    if value is None or is_unknown(value):
        return value
    out = dict(value)
    for name, attribute in holder.attributes.items():
        current = value.get(name)
        if current is None and attribute.computed:
            if known is not None and name in known:
                out[name] = generated_missing(attribute.type, known[name], lambda _cty: unknown)
            else:
                out[name] = unknown
        elif attribute.nested is not None:
            nested = attribute.nested
            # Not computed: ``known`` has the defaults of each of its objects (see check_block_default).
            inner = known.get(name) if known is not None and not attribute.computed else None
            out[name] = _each(nested.mode, current, functools.partial(plan_create, nested, unknown=unknown, known=inner))
    for name, block in holder.blocks.items():
        inner = None if known is None else known.get(name)
        out[name] = _each(block.mode, value.get(name), functools.partial(plan_create, block.block, unknown=unknown, known=inner))
    return out


def fill(holder: Holder, value: Any, rng: random.Random, given: Mapping[str, Any] | None = None) -> Any:
    """``value`` with every unknown replaced: by ``given[name]``, else a generated value.

    Under the name of a nested block (or nested attribute that is not computed) ``given`` holds the defaults of
    each of its objects, as ``terraform test`` applies them.
    """
    if is_unknown(value):
        return generate_object(holder, rng)
    if value is None:
        return None
    given = given or {}
    out = dict(value)
    for name, attribute in sorted(holder.attributes.items()):
        current = value.get(name)
        # A nested attribute that is not computed has, instead of a value, the defaults of each of its objects.
        each = attribute.nested is not None and not attribute.computed
        if is_unknown(current):
            if name in given and not each:
                out[name] = generated_missing(attribute.type, given[name], lambda cty: generate_type(cty, rng))
            else:
                out[name] = generate_attribute(attribute, rng)
        elif attribute.nested is not None:
            nested = attribute.nested
            inner = given.get(name) if each else None
            out[name] = _each(nested.mode, current, functools.partial(fill, nested, rng=rng, given=inner))
        elif current is not None:
            out[name] = fill_type(attribute.type, current, rng)
    for name, block in sorted(holder.blocks.items()):
        current = value.get(name)
        if is_unknown(current):
            out[name] = generate_object(block.block, rng) if block.mode in ("single", "group") else (
                {} if block.mode == "map" else []
            )
        else:
            out[name] = _each(block.mode, current, functools.partial(fill, block.block, rng=rng, given=given.get(name)))
    return out


def generated_missing(cty: Any, value: Any, make: Callable[[Any], Any]) -> Any:
    """A default's value with each :data:`GENERATE` in it replaced by ``make(its type)``.

    >>> generated_missing(["object", {"a": "string", "n": "number"}], {"a": "x", "n": GENERATE}, lambda cty: 0)
    {'a': 'x', 'n': 0}
    """
    if value is GENERATE:
        return make(cty)
    if value is None or not isinstance(cty, list) or not isinstance(value, (dict, list)):
        return value
    kind, inner = cty[0], cty[1]
    if kind in ("list", "set") and isinstance(value, list):
        return [generated_missing(inner, item, make) for item in value]
    if kind == "map" and isinstance(value, dict):
        return {key: generated_missing(inner, item, make) for key, item in value.items()}
    if kind == "object" and isinstance(value, dict):
        return {key: generated_missing(inner.get(key, "dynamic"), item, make) for key, item in value.items()}
    if kind == "tuple" and isinstance(value, list):
        return [generated_missing(sub, item, make) for sub, item in zip(inner, value, strict=False)]
    return value


def fill_type(cty: Any, value: Any, rng: random.Random) -> Any:
    """A value of type ``cty`` with the unknowns inside it generated."""
    if is_unknown(value):
        return generate_type(cty, rng)
    if value is None or not isinstance(cty, list):
        return value
    kind, inner = cty[0], cty[1]
    if kind in ("list", "set"):
        return [fill_type(inner, item, rng) for item in value]
    if kind == "map":
        return {key: fill_type(inner, item, rng) for key, item in value.items()}
    if kind == "object":
        return {key: fill_type(inner.get(key, "dynamic"), item, rng) for key, item in value.items()}
    if kind == "tuple":
        return [fill_type(sub, item, rng) for sub, item in zip(inner, value, strict=False)]
    return value


# -- plain values (for assertions and default callables) -------------------------------------------


def _plain_type(cty: Any, value: Any) -> Any:
    if is_unknown(value):
        return UNKNOWN
    if value is None:
        return None
    if cty == "dynamic":
        if isinstance(value, list) and len(value) == 2 and isinstance(value[0], bytes):
            try:
                return _plain_type(json.loads(value[0]), value[1])
            except (ValueError, RecursionError):
                return value[1]
        return value
    if cty == "number":
        return plain_number(value)
    if not isinstance(cty, list):
        return value
    kind, inner = cty[0], cty[1]
    if kind in ("list", "set"):
        return [_plain_type(inner, item) for item in value]
    if kind == "map":
        return {key: _plain_type(inner, item) for key, item in value.items()}
    if kind == "object":
        return {key: _plain_type(inner.get(key, "dynamic"), item) for key, item in value.items()}
    if kind == "tuple":
        return [_plain_type(sub, item) for sub, item in zip(inner, value, strict=False)]
    return value


def plain(holder: Holder, value: Any) -> Any:
    """A wire value as plain Python: unknowns as :data:`UNKNOWN`, dynamic values unwrapped."""
    if is_unknown(value):
        return UNKNOWN
    if value is None:
        return None
    out: dict[str, Any] = {}
    for name, attribute in holder.attributes.items():
        current = value.get(name)
        nested = attribute.nested
        if nested is not None:
            out[name] = _each(nested.mode, current, functools.partial(plain, nested))
            if is_unknown(out[name]):
                out[name] = UNKNOWN
        else:
            out[name] = _plain_type(attribute.type, current)
    for name, block in holder.blocks.items():
        out[name] = _each(block.mode, value.get(name), functools.partial(plain, block.block))
        if is_unknown(out[name]):
            out[name] = UNKNOWN
    return out


def redacted(holder: Holder, value: Any) -> Any:
    """A plain value with every sensitive attribute's value replaced by ``(sensitive)``."""
    if not isinstance(value, dict):
        return value
    out = dict(value)
    for name, attribute in holder.attributes.items():
        if name not in value or value[name] is None:
            continue
        if attribute.sensitive:
            out[name] = _REDACTED
        elif attribute.nested is not None:
            nested = attribute.nested
            out[name] = _each(nested.mode, value[name], functools.partial(redacted, nested))
    for name, block in holder.blocks.items():
        if name in value:
            out[name] = _each(block.mode, value[name], functools.partial(redacted, block.block))
    return out


def sensitive_strings(holder: Holder, value: Any) -> Iterator[str]:
    """The strings under sensitive attributes of a plain value (to scrub wherever else they show up).

    >>> from .schema import read_provider_schema
    >>> doc = {"resource_schemas": {"t": {"block": {"attributes": {
    ...     "key": {"type": "string", "optional": True, "sensitive": True}, "name": {"type": "string", "optional": True}}}}}}
    >>> list(sensitive_strings(read_provider_schema(doc, "a/b").resources["t"].block, {"key": "hunter22", "name": "n"}))
    ['hunter22']
    """
    if not isinstance(value, dict):
        return
    for name, attribute in holder.attributes.items():
        current = value.get(name)
        if current is None:
            continue
        if attribute.sensitive:
            yield from sorted(secret_strings(current))
        elif attribute.nested is not None:
            for item in _items(attribute.nested.mode, current):
                yield from sensitive_strings(attribute.nested, item)
    for name, block in holder.blocks.items():
        for item in _items(block.mode, value.get(name)):
            yield from sensitive_strings(block.block, item)


#: The first Terraform that plans a single nested attribute left unset: 1.0.0 to 1.0.4 panic in ``objchange`` planning
#: one, before asking the provider ("core: Handle null nested single attribute values", hashicorp/terraform#29411).
_PLANS_UNSET_SINGLE_NESTED: Final = (1, 0, 5)


def unset_single_nested(terraform_version: str, type_name: str, block: Block, config: Any) -> tuple[str, str] | None:
    """The error (summary, detail) of a configuration (decoded) ``terraform_version`` would panic planning: one that
    leaves an optional single nested attribute unset, on Terraform 1.0.0 to 1.0.4; else None.

    >>> from .schema import read_provider_schema
    >>> doc = {"resource_schemas": {"bucket": {"block": {"attributes": {"website": {"optional": True, "nested_type": {
    ...     "nesting_mode": "single", "attributes": {"index": {"type": "string", "required": True}}}}}}}}}
    >>> block = read_provider_schema(doc, "a/b").resources["bucket"].block
    >>> unset_single_nested("1.0.3", "bucket", block, {"website": {"index": "i"}}) is None
    True
    >>> unset_single_nested("1.0.5", "bucket", block, {"website": None}) is None
    True
    >>> print("\\n".join(unset_single_nested("1.0.3", "bucket", block, {"website": None})))
    Terraform 1.0.3 would panic planning bucket: it leaves website unset
    Terraform 1.0.0 to 1.0.4 panic planning an optional single nested attribute left unset (hashicorp/terraform#29388, fixed in Terraform 1.0.5): set website, or use Terraform 1.0.5 or newer.
    """
    version = _version_tuple(terraform_version)  # () when not told (a data source; before ConfigureProvider)
    if not version or version >= _PLANS_UNSET_SINGLE_NESTED:
        return None
    unset = list(_unset_single_nested(block, plain(block, config), ""))
    if not unset:
        return None
    names = ", ".join(unset)
    return (
        f"Terraform {terraform_version} would panic planning {type_name}: it leaves {names} unset",
        "Terraform 1.0.0 to 1.0.4 panic planning an optional single nested attribute left unset "
        f"(hashicorp/terraform#29388, fixed in Terraform 1.0.5): set {names}, or use Terraform 1.0.5 or newer.",
    )


def _unset_single_nested(holder: Holder, value: Any, at: str) -> Iterator[str]:
    """The paths of the optional single nested attributes (not computed) a plain value leaves null, at any depth."""
    if not isinstance(value, dict):
        return
    for name, attribute in holder.attributes.items():
        nested, current = attribute.nested, value.get(name)
        if nested is None or attribute.computed:
            continue  # a computed one left null takes the prior value: Terraform never looks inside
        if nested.mode == "single" and current is None:
            yield at + name
        for item in _items(nested.mode, current):
            yield from _unset_single_nested(nested, item, f"{at}{name}.")
    for name, block in holder.blocks.items():
        for item in _items(block.mode, value.get(name)):
            yield from _unset_single_nested(block.block, item, f"{at}{name}.")


def planned_action(prior: Any, planned: Any) -> str:
    """The action a planned state means for a prior state, as :attr:`MockCall.action` records it.

    An update whose planned state equals the prior state (decoded, as Terraform compares them)
    is a no-op: Terraform applies nothing for it.

    >>> planned_action(None, {"id": "a"}), planned_action({"id": "a"}, None)
    ('create', 'delete')
    >>> planned_action({"id": "a", "n": 1}, {"id": "a", "n": 2}), planned_action({"id": "a"}, {"id": "a"})
    ('update', 'no-op')
    """
    if planned is None:
        return "delete"
    if prior is None:
        return "create"
    return "no-op" if planned == prior else "update"


def _items(mode: str, value: Any) -> list[Any]:
    if not isinstance(value, (dict, list)):
        return []
    if mode in ("single", "group"):
        return [value]
    return list(value.values()) if mode == "map" and isinstance(value, dict) else list(value)


# -- defaults given in Python ---------------------------------------------------------------------


def _unwritable(number: int | float | decimal.Decimal) -> str:
    """Why a number cannot be a value (NaN, an infinity), or ``""``."""
    if isinstance(number, int):
        return ""
    if math.isnan(number) if isinstance(number, float) else number.is_nan():
        return "expected number, got NaN (cty has no NaN)"
    if math.isinf(number) if isinstance(number, float) else number.is_infinite():
        return (
            "expected number, got an infinity (Terraform cannot write it in a state or plan JSON; "
            "1e5000 is a float infinity in Python: give Decimal(\"1e5000\") for the number)"
        )
    return ""


Bad = Callable[..., MockSchemaError]


def _implied(value: Any, at: str, bad: Bad, hidden: bool, inside: dict[int, str], depth: int = 0) -> Any:
    """The cty type of a JSON-like value given for a ``dynamic`` attribute; anything else is refused.

    ``inside`` holds the lists and mappings being walked (by id) with where each is: one met again inside itself
    is refused where it closes the cycle, naming where it goes back to (not 100 levels further down, where the
    depth limit would stop it). ``hidden``: keys are shown as ``(sensitive)`` (see :func:`~.schema.at_key`).
    """
    if depth > _MAX_VALUE_DEPTH:
        raise bad(at, "dynamic", f"nested more than {_MAX_VALUE_DEPTH} levels deep")
    if isinstance(value, (list, tuple, Mapping)):
        back = inside.get(id(value))
        if back is not None:
            raise bad(at, "dynamic", f"expected a JSON-like value (which holds no cycle), found a reference back to {back}")
        inside[id(value)] = at
        try:
            return _implied_container(value, at, bad, hidden, inside, depth)
        finally:
            del inside[id(value)]  # met again beside this one (shared, not inside itself), it is no cycle
    if value is None:
        return "dynamic"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float, decimal.Decimal)):
        refused = _unwritable(value)
        if refused:
            raise bad(at, "dynamic", refused)
        return "number"
    if isinstance(value, str):
        return "string"
    raise bad(
        at, "dynamic",
        f"expected a JSON-like value for a dynamic attribute (None, bool, number, str, list, tuple or dict), "
        f"got {json_kind(value)}",
    )


def _implied_container(value: Any, at: str, bad: Bad, hidden: bool, inside: dict[int, str], depth: int) -> Any:
    if isinstance(value, (list, tuple)):
        return ["tuple", [_implied(item, f"{at}[{i}]", bad, hidden, inside, depth + 1) for i, item in enumerate(value)]]
    for key in value:
        if not isinstance(key, str):
            raise bad(at, "dynamic", f"expected string keys, got {json_kind(key)} as a key")
    return ["object", {
        key: _implied(item, at_key(at, key, hidden=hidden), bad, hidden, inside, depth + 1) for key, item in value.items()
    }]


def _dynamic(value: Any, at: str, bad: Bad, hidden: bool) -> Any:
    if value is None:
        return None
    cty = _implied(value, at, bad, hidden, {})
    return [json.dumps(cty, separators=(",", ":")).encode(), conform(cty, value, at, sensitive=hidden)]


def conform(
    cty: Any, value: Any, where: str, *, attribute: str | None = None, type_name: str | None = None,
    missing: object = None, sensitive: bool = False,
) -> Any:
    """``value`` (plain Python) as a wire value of type ``cty``; :class:`MockSchemaError` when it does not fit.

    An object's attributes that ``value`` leaves out become ``missing`` (null, or :data:`GENERATE` for a default:
    ``terraform test`` generates what a default's object leaves out). The value of a ``sensitive`` attribute is a
    secret, its keys included: an error shows each key below ``where`` as ``(sensitive)``.

    >>> conform(["list", "number"], (1, 2.5), "d")
    [1, 2.5]
    >>> conform(["map", "string"], {"a": 1}, 'mock_resources["t"]["tags"]', attribute="tags")
    Traceback (most recent call last):
    ...
    plancheck.acceptance.MockSchemaError: mock_resources["t"]["tags"]["a"]: expected string, got a number
    >>> conform(["map", "string"], {"hunter2": 1}, 'mock_resources["t"]["keys"]', attribute="keys", sensitive=True)
    Traceback (most recent call last):
    ...
    plancheck.acceptance.MockSchemaError: mock_resources["t"]["keys"]["(sensitive)"]: expected string, got a number
    """
    def bad(at: str, expected: Any, problem: str, suggestions: list[str] | None = None) -> MockSchemaError:
        return MockSchemaError(
            at, problem, type_name=type_name, attribute=attribute, expected=type_label(expected), suggestions=suggestions or ()
        )

    def walk(cty: Any, item: Any, at: str) -> Any:
        if item is None:
            return None
        problem = f"expected {type_label(cty)}, got {json_kind(item)}"
        if cty == "dynamic":
            return _dynamic(item, at, bad, sensitive)
        if cty == "string":
            if isinstance(item, str):
                return item
            raise bad(at, cty, problem)
        if cty == "number":
            if isinstance(item, (int, float, decimal.Decimal)) and not isinstance(item, bool):
                refused = _unwritable(item)
                if refused:
                    raise bad(at, cty, refused)
                return wire_number(item)
            raise bad(at, cty, problem)
        if cty == "bool":
            if isinstance(item, bool):
                return item
            raise bad(at, cty, problem)
        kind, inner = cty[0], cty[1]
        if kind in ("list", "set", "tuple"):
            if isinstance(item, (list, tuple, set, frozenset)):
                items = sorted(item, key=repr) if isinstance(item, (set, frozenset)) else list(item)
                if kind == "tuple":
                    if len(items) != len(inner):
                        raise bad(at, cty, f"expected {type_label(cty)} ({len(inner)} items), got {len(items)} items")
                    return [walk(sub, x, f"{at}[{i}]") for i, (sub, x) in enumerate(zip(inner, items, strict=True))]
                return [walk(inner, x, f"{at}[{i}]") for i, x in enumerate(items)]
            raise bad(at, cty, problem)
        if isinstance(item, Mapping):
            out: dict[str, Any] = {}
            for key, sub in item.items():
                if not isinstance(key, str):
                    raise bad(at, cty, f"expected {type_label(cty)} with string keys, got {json_kind(key)} as a key")
                if kind == "map":
                    out[key] = walk(inner, sub, at_key(at, key, hidden=sensitive))
                elif key not in inner:
                    # Below a sensitive attribute the name is a secret, and so is the closest name found from it.
                    raise bad(
                        at_key(at, key, hidden=sensitive), cty,
                        f"{type_label(cty)} has no attribute {SENSITIVE if sensitive else shortened(key)}",
                        None if sensitive else closest_names(key, inner),
                    )
                else:
                    out[key] = walk(inner[key], sub, at_key(at, key, hidden=sensitive))
            if kind == "object":
                for key in inner:
                    out.setdefault(key, missing)
            return out
        raise bad(at, cty, problem)

    return walk(cty, value, where)


def closest_names(name: str, names: Mapping[str, Any] | list[str]) -> list[str]:
    """The closest of ``names`` to ``name`` (one at most), for "did you mean" hints.

    >>> closest_names("anr", ["arn", "name"])
    ['arn']
    """
    return closest(name, list(names), n=1)


def normalize_state(holder: Holder, value: Any) -> Any:
    """A stored state's JSON object (``UpgradeResourceState``) as a wire value of this schema.

    Attributes the schema no longer has are dropped, missing ones are null, and ``dynamic``
    values (stored as ``{"value": ..., "type": ...}``) get their type back. An error inside a stored value
    shows none of its keys: which attribute held it is not said either, so they would tell little, and the
    value may be a secret.
    """
    if not isinstance(value, Mapping):
        return None
    out: dict[str, Any] = {}
    for name, attribute in holder.attributes.items():
        current = value.get(name)
        if attribute.nested is not None:
            nested = attribute.nested
            out[name] = _each(nested.mode, current, functools.partial(normalize_state, nested))
        else:
            out[name] = _state_value(attribute.type, current)
    for name, block in holder.blocks.items():
        current = value.get(name)
        if current is None and block.mode in ("list", "set"):
            current = []
        elif current is None and block.mode == "map":
            current = {}
        out[name] = _each(block.mode, current, functools.partial(normalize_state, block.block))
    return out


def _state_value(cty: Any, value: Any) -> Any:
    if value is None:
        return None
    if cty == "dynamic":
        if isinstance(value, Mapping) and set(value) == {"value", "type"}:
            return [json.dumps(value["type"], separators=(",", ":")).encode(), _state_value(value["type"], value["value"])]
        return _dynamic(value, "stored state", _state_error, True)
    if cty == "number" and isinstance(value, (int, float, decimal.Decimal)) and not isinstance(value, bool):
        return wire_number(value)
    if not isinstance(cty, list):
        return value
    kind, inner = cty[0], cty[1]
    if kind in ("list", "set") and isinstance(value, list):
        return [_state_value(inner, item) for item in value]
    if kind == "map" and isinstance(value, Mapping):
        return {key: _state_value(inner, item) for key, item in value.items()}
    if kind == "object" and isinstance(value, Mapping):
        return {key: _state_value(sub, value.get(key)) for key, sub in inner.items()}
    if kind == "tuple" and isinstance(value, list):
        return [_state_value(sub, item) for sub, item in zip(inner, value, strict=False)]
    return value


def _state_error(at: str, expected: Any, problem: str, suggestions: list[str] | None = None) -> MockSchemaError:
    return MockSchemaError(at, problem, expected=type_label(expected))


def check_block_default(
    block: Holder, values: Mapping[str, Any], where: str, type_name: str, *, nested: bool = False, sensitive: bool = False
) -> dict[str, Any]:
    """Validate ``{attribute: default}`` for a type; callables are kept (checked when called).

    As ``terraform test`` reads them: a nested block's name, or a nested attribute's that is not computed (its
    objects come from the configuration), takes an object of defaults for the computed attributes of every one
    of its objects (``{"disk": {"uuid": "u-1"}}``); a list there is refused. A computed attribute takes its
    whole value. A function is a whole type's or a top-level attribute's default only (``nested``: below one).
    Everything under a sensitive attribute (``sensitive``: these defaults are) is a secret, keys included: an
    error shows each key below it as ``(sensitive)``.

    >>> from .schema import read_provider_schema
    >>> doc = {"resource_schemas": {"vm": {"block": {"attributes": {"id": {"type": "string", "computed": True}},
    ...     "block_types": {"disk": {"nesting_mode": "list", "block": {"attributes": {
    ...         "label": {"type": "string", "required": True}, "uuid": {"type": "string", "computed": True}}}}}}}}}
    >>> block = read_provider_schema(doc, "a/b").resources["vm"].block
    >>> check_block_default(block, {"disk": {"uuid": "u-1"}}, 'mock_resources["vm"]', "vm")
    {'disk': {'uuid': 'u-1'}}
    >>> check_block_default(block, {"disk": [{"uuid": "u-1"}]}, 'mock_resources["vm"]', "vm")
    Traceback (most recent call last):
    ...
    plancheck.acceptance.MockSchemaError: mock_resources["vm"]["disk"]: vm.disk is a nested block: expected an object type (its defaults apply to every disk), got an array
    """
    out: dict[str, Any] = {}
    for name, value in values.items():
        text = name if isinstance(name, str) else repr(name)
        at, shown = at_key(where, text, hidden=sensitive), SENSITIVE if sensitive else shortened(text)
        if isinstance(name, str) and name in block.blocks:
            out[name] = _each_default(block.blocks[name].block, value, at, type_name, name, "a nested block", sensitive)
            continue
        if not isinstance(name, str) or name not in block.attributes:
            raise MockSchemaError(
                at, f"{type_name} has no attribute {shown}", type_name=type_name, attribute=shown,
                # the closest name to a secret would tell about it
                suggestions=() if sensitive else closest_names(shown, [*block.attributes, *block.blocks]),
            )
        attribute = block.attributes[name]
        secret = sensitive or attribute.sensitive
        if attribute.nested is not None and not attribute.computed:
            out[name] = _each_default(attribute.nested, value, at, type_name, name, "a nested attribute", secret)
            continue
        if not attribute.computed:
            raise MockSchemaError(
                at, f"{type_name}.{name} is not computed: only computed attributes take mock values (set it in the configuration)",
                type_name=type_name, attribute=name,
            )
        if nested and callable(value):
            raise MockSchemaError(
                at, f"{type_name}.{name}: a function is a default of a whole type or of a top-level attribute only",
                type_name=type_name, attribute=name,
            )
        out[name] = value if callable(value) else conform(
            attribute.type, value, at, attribute=name, type_name=type_name, missing=GENERATE, sensitive=secret
        )
    return out


def _each_default(
    holder: Holder, value: Any, at: str, type_name: str, name: str, kind: str, sensitive: bool
) -> dict[str, Any]:
    """The defaults of every object of a nested block or nested attribute: one object, as ``terraform test`` takes."""
    if not isinstance(value, Mapping):
        raise MockSchemaError(
            at, f"{type_name}.{name} is {kind}: expected an object type (its defaults apply to every {name}), got "
            f"{'a function' if callable(value) else json_kind(value)}",
            type_name=type_name, attribute=name,
        )
    return check_block_default(holder, value, at, f"{type_name}.{name}", nested=True, sensitive=sensitive)


def decode(msgpack: Any, value: Any) -> Any:
    """A ``DynamicValue`` Terraform sent, decoded: its msgpack, else its JSON (None when it holds neither).

    ``msgpack`` is the library's module (imported by the caller, the ``providers`` extra).

    >>> import msgpack, types
    >>> decode(msgpack, types.SimpleNamespace(msgpack=b"\\x81\\xa2id\\xa1a", json=b""))
    {'id': 'a'}
    """
    try:
        if value.msgpack:
            return msgpack.unpackb(value.msgpack, raw=False, strict_map_key=False)
        if value.json:
            return loads(value.json)
    except (ValueError, RecursionError) as exc:  # msgpack's StackError is a ValueError
        raise MockSchemaError(
            "MockProvider", f"cannot decode a value Terraform sent ({type(exc).__name__}: nested too deep or malformed)"
        ) from None
    return None


def encode(msgpack: Any, value: Any) -> bytes:
    """``value`` in msgpack, as a ``DynamicValue`` carries it to Terraform.

    >>> import msgpack
    >>> encode(msgpack, {"id": "a"})
    b'\\x81\\xa2id\\xa1a'
    """
    try:
        packed: bytes = msgpack.packb(value, use_bin_type=True)
    except (ValueError, RecursionError) as exc:
        raise MockSchemaError(
            "MockProvider", f"cannot encode a value for Terraform ({type(exc).__name__}: nested too deep)"
        ) from None
    return packed


def seeded_rng(seed: int | str, kind: str, type_name: str, made: int, config: bytes) -> random.Random:
    """The generator of one generated value: seeded by the mock's seed, the kind, the type, how many were made, the configuration.

    >>> seeded_rng(0, "data", "t", 0, b"{}").random() == seeded_rng(0, "data", "t", 0, b"{}").random()
    True
    """
    material = f"{seed!r}\0{kind}\0{type_name}\0{made}\0".encode() + config
    return random.Random(int.from_bytes(hashlib.sha256(material).digest()[:8], "big"))
