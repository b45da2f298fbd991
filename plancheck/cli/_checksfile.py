"""Reading a checks file (TOML or JSON) into plan check objects, and running them on a plan.

A checks file is a list of tables, each naming a plan check by its Go/Python
class name in ``type`` and giving the constructor's arguments by name::

    [[check]]
    type = "ExpectKnownValue"
    address = "null_resource.a"
    path = 'triggers["k"]'
    matcher = { type = "StringExact", value = "v" }

Any entry may add ``severity = "warning"`` (the default is ``"error"``): its failures are then
reported as warnings, which fail the run only under ``--fail-on warning`` (:func:`exit_status`); and
``waive = [{ address = "GLOB", reason = "...", until = 2027-01-31 }]``: its failures at those addresses
are reported as waived until the waiver expires (:mod:`plancheck.cli._waivers`).

Every error names the file, the line when one is known (in TOML, its key's, else its check's header's), the key path
(``check[2].matcher.value``) and what was expected there. The checks run through the library's one
runner (:func:`run_checks`), each to a :class:`CheckResult`.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import functools
import json
import math
import re
import sys
import tomllib
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final

from tfjsonpath import Path, PathSyntaxError, describe_json_type

from .._checking.run import run_each
from .._documents.actions import ResourceAction
from .._documents.select import Actions, Resources
from .._errors import CheckFailure
from .._frozen import FrozenValue, frozen
from .._loading.jsontext import marking_repeats
from .._loading.source import max_input_bytes
from .._planchecks import changes, values
from .._planchecks.each import (
    ExpectEachKnownValue,
    ExpectEachNullValue,
    ExpectEachSensitiveValue,
    ExpectEachUnknownValue,
)
from .._text import closest, exception_message, exception_text
from ._io import UnreadableInput, read_input
from ._registry import Kind, Registry, Signature, enum_choices
from ._waivers import Waived, Waiver, WaiverError, apply_waivers, exact_json_int, parse_waivers

if TYPE_CHECKING:
    from .._documents.plan import Plan
    from .._planchecks.base import PlanCheck
    from ..snapshot import FingerprintKey

__all__ = [
    "FAIL_ON",
    "FLAG_CHECKS",
    "MAX_DEPTH",
    "SEVERITIES",
    "CheckResult",
    "CheckSpec",
    "ChecksFileError",
    "apply_waivers",
    "build_check",
    "exit_status",
    "load_checks_file",
    "parse_checks",
    "run_checks",
    "spec_from_flag",
    "verdict",
]

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*\Z")
_CHECK_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*check[ \t]*\]\]", re.MULTILINE)


class ChecksFileError(Exception):
    """A checks file (or a check given on the command line) is malformed.

    >>> str(ChecksFileError("checks.toml", "check[2].path", "expected a path, found a number", line=7))
    'checks.toml:7: check[2].path: expected a path, found a number'
    """

    def __init__(self, source: str, where: str, message: str, *, line: int | None = None) -> None:
        self.source = source
        self.where = where
        self.message = message
        self.line = line
        prefix = source if line is None else f"{source}:{line}"
        super().__init__(f"{prefix}: {where}: {message}" if where else f"{prefix}: {message}")


class _Invalid(Exception):
    """A conversion error at a key path; becomes a ChecksFileError once the source is known."""

    def __init__(self, where: str, message: str) -> None:
        self.where = where
        self.message = message
        super().__init__(f"{where}: {message}")


@frozen
class CheckSpec(FrozenValue):
    """A built plan check and where it came from.

    >>> CheckSpec("ExpectEmptyPlan", object(), "checks.toml: check[0]").address is None
    True
    """

    type: str
    check: Any
    origin: str
    address: str | None = None
    path: Path | None = None
    #: ``"error"`` (its failures fail the run) or ``"warning"`` (they are reported as warnings).
    severity: str = "error"
    #: The entry's ``waive`` list: failures it accepts, with why and until when.
    waivers: tuple[Waiver, ...] = ()


def _found(value: Any) -> str:
    if isinstance(value, (datetime.date, datetime.time)):
        return "a date/time (not a JSON value)"
    return describe_json_type(value)


def _key(where: str, key: str) -> str:
    if _IDENT.match(key) and len(key) <= _MAX_KEY_SHOWN:
        return f"{where}.{key}" if where else key
    return f"{where}[{json.dumps(_cut(key), ensure_ascii=False)}]"


#: Longer keys are cut short in key paths, so that an error stays one readable line.
_MAX_KEY_SHOWN: Final = 60


def _norm(text: str) -> str:
    return re.sub(r"[-_ ]", "", text).lower()


def _convert_enum(cls: type[enum.Enum], value: Any, where: str) -> enum.Enum:
    if isinstance(value, str):
        wanted = _norm(value)
        prefix = _norm(cls.__name__)
        for member in cls:
            spellings = {_norm(member.name), _norm(str(member.value))}
            if wanted in spellings or (wanted.startswith(prefix) and wanted[len(prefix) :] in spellings):
                return member
    raise _Invalid(where, f"expected one of {', '.join(enum_choices(cls))}, found {_show(value)}")


def _show(value: Any) -> str:
    if isinstance(value, str):
        return json.dumps(_cut(value), ensure_ascii=False)
    return _found(value)


def _cut(text: str) -> str:
    """A file's text as an error shows it: cut short when long, so that the error stays a readable line."""
    return text if len(text) <= _MAX_KEY_SHOWN else text[: _MAX_KEY_SHOWN - 10] + "…"


def _plain(value: Any, where: str) -> Any:
    """A TOML/JSON value as plain JSON data (lists, dicts, str, int, Decimal, bool, None)."""
    stack: list[tuple[Any, str]] = [(value, where)]
    while stack:
        item, at = stack.pop()
        if isinstance(item, (datetime.date, datetime.time)):
            raise _Invalid(at, f"expected a JSON value, found {_found(item)}")
        if isinstance(item, Mapping):
            stack.extend((v, _key(at, k)) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, f"{at}[{i}]") for i, v in enumerate(item))
    return value


def convert(kind: Kind, value: Any, where: str, registry: Registry) -> Any:
    """Convert a file value to what a constructor argument of ``kind`` takes; raise on mismatch."""
    tag = kind.tag
    if tag == "optional":
        return None if value is None else convert(kind.of[0], value, where, registry)
    if tag == "union":
        errors: list[_Invalid] = []
        for alternative in kind.of:
            try:
                return convert(alternative, value, where, registry)
            except _Invalid as exc:
                errors.append(exc)
        # Where exactly one alternative takes a value of this shape, its own error says what is wrong inside it.
        fitting = [e for alternative, e in zip(kind.of, errors, strict=True) if _fits_shape(alternative, value)]
        if len(fitting) == 1:
            raise fitting[0]
        raise _Invalid(where, f"expected {kind.describe()}, found {_found(value)}")
    if tag == "any":
        return _plain(value, where)
    if tag == "str" and isinstance(value, str):
        return value
    if tag == "bool" and isinstance(value, bool):
        return value
    if tag == "int" and isinstance(value, int) and not isinstance(value, bool):
        return value
    if tag == "int" and _is_long_integer(value):
        limit = sys.get_int_max_str_digits()
        digits = len(value.as_tuple().digits)
        raise _Invalid(where, f"expected an integer of at most {limit} digits, found one of {digits} digits")
    if tag == "number" and isinstance(value, (int, Decimal, float)) and not isinstance(value, bool):
        return _convert_number(kind, value, where)
    if tag == "path":
        return _convert_path(value, where)
    if tag == "enum" and kind.cls is not None:
        return _convert_enum(kind.cls, value, where)
    if tag == "literal":
        if value in kind.choices and type(value) in {type(c) for c in kind.choices}:
            return value
        hint = ""
        if isinstance(value, str):
            near = closest(value, [c for c in kind.choices if isinstance(c, str)], n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
        raise _Invalid(where, f"expected {kind.describe()}, found {_show(value)}{hint}")
    if tag == "selector":
        return _convert_selector(value, where, actions=kind.cls is Actions)
    if tag == "pattern" and isinstance(value, str):
        try:
            return re.compile(value)
        except re.error as exc:
            raise _Invalid(where, f"invalid regular expression: {exc}") from None
    if tag == "matcher":
        return _build_matcher(kind, value, where, registry)
    if tag == "list" and isinstance(value, list):
        return [convert(kind.of[0], item, f"{where}[{i}]", registry) for i, item in enumerate(value)]
    if tag == "map" and isinstance(value, Mapping):
        if kind.cls is int:
            return {_index_key(k, where): convert(kind.of[0], v, _key(where, k), registry) for k, v in value.items()}
        return {k: convert(kind.of[0], v, _key(where, k), registry) for k, v in value.items()}
    if tag == "unsupported":
        raise _Invalid(where, f"this argument ({kind.text}) cannot be given in a checks file")
    article = "an" if kind.describe()[0] in "aeiou" else "a"
    raise _Invalid(where, f"expected {article} {kind.describe()}, found {_found(value)}")


#: The fields of a selector table: Resources' keyword arguments.
_SELECTOR_FIELDS: Final = tuple(spec.name for spec in dataclasses.fields(Resources) if spec.init)
#: The fields of an action selector table: ``actions`` (the address glob) and Actions' keyword arguments.
_ACTIONS_FIELDS: Final = ("actions", *[spec.name for spec in dataclasses.fields(Actions) if spec.init][1:])

_ACTIONS_EXAMPLE: Final = ' (or, for action invocations, { actions = "action.aws_lambda_invoke.*" })'


def _convert_selector(value: Any, where: str, actions: bool = False) -> Resources | Actions:
    """A selector: an address glob (``"aws_s3_bucket.*"``) or a table of ``Resources`` fields; where the
    check takes :class:`~plancheck.Actions` too (``actions``), a table with ``actions = "<glob>"`` is one.

    Every problem is located: an unknown field (naming the fields and the closest one), a value of
    the wrong type, a bad glob or action name (at its field).

    >>> _convert_selector({"type": "aws_s3_bucket", "module": "module.net.*"}, "check[0].selector")
    Resources(type='aws_s3_bucket', module='module.net.*')
    >>> _convert_selector({"tpye": "x"}, "check[0].selector")
    Traceback (most recent call last):
    ...
    plancheck.cli._checksfile._Invalid: check[0].selector.tpye: unknown selector field 'tpye'; did you mean 'type'? (a selector takes: type, module, address, mode, provider, action, allow_empty)
    >>> _convert_selector({"actions": "action.t.*", "event": "Invoke"}, "check[0].selector", actions=True)
    Actions('action.t.*', event=ActionTriggerEvent.Invoke)
    >>> _convert_selector({"actions": "action.t.*", "evnet": "Invoke"}, "check[0].selector", actions=True)
    Traceback (most recent call last):
    ...
    plancheck.cli._checksfile._Invalid: check[0].selector.evnet: unknown action selector field 'evnet'; did you mean 'event'? (an action selector takes: actions, type, event, triggered_by, allow_empty)
    """
    if isinstance(value, str):
        try:
            return Resources(address=value)
        except (TypeError, ValueError) as exc:
            raise _Invalid(where, str(exc)) from None
    if not isinstance(value, Mapping):
        raise _Invalid(
            where,
            "expected a selector: an address glob such as \"aws_s3_bucket.*\" or a table such as "
            f'{{ type = "aws_s3_bucket", module = "module.net.*" }}{_ACTIONS_EXAMPLE if actions else ""}, '
            f"found {_found(value)}",
        )
    invocations = actions and "actions" in value
    cls: Any = Actions if invocations else Resources
    names, noun = (_ACTIONS_FIELDS, "an action selector") if invocations else (_SELECTOR_FIELDS, "a selector")
    fields: dict[str, Any] = {}
    for key, item in value.items():
        at = _key(where, key)
        if key not in names:
            near = closest(key, list(names), n=1)
            did = f"; did you mean {near[0]!r}?" if near else ""
            field_noun = noun.split(" ", 1)[1]
            raise _Invalid(at, f"unknown {field_noun} field {_cut(key)!r}{did} ({noun} takes: {', '.join(names)})")
        if key == "allow_empty":
            if not isinstance(item, bool):
                raise _Invalid(at, f"expected a boolean, found {_found(item)}")
        elif key == "action":
            if not isinstance(item, str) and not (isinstance(item, list) and all(isinstance(i, str) for i in item)):
                raise _Invalid(at, f"expected an action name or a list of them, found {_found(item)}")
        elif not isinstance(item, str):
            raise _Invalid(at, f"expected a string, found {_found(item)}")
        name = "address" if key == "actions" else key
        try:
            cls(**{name: item})  # each field alone first, so that an error is located at its field
        except (TypeError, ValueError) as exc:
            raise _Invalid(at, str(exc)) from None
        fields[name] = item
    selected: Resources | Actions = cls(**fields)
    return selected


def _fits_shape(kind: Kind, value: Any) -> bool:
    """Whether ``kind`` takes values of ``value``'s JSON shape (a table, an array, a string, ...) at all."""
    tag = kind.tag
    if tag in ("any", "literal", "unsupported"):
        return False
    if tag in ("optional",):
        return _fits_shape(kind.of[0], value)
    if tag == "union":
        return any(_fits_shape(k, value) for k in kind.of)
    if isinstance(value, Mapping):
        return tag in ("selector", "matcher", "map")
    if isinstance(value, list):
        return tag in ("list", "path")
    if isinstance(value, bool):
        return tag == "bool"
    if isinstance(value, str):
        return tag in ("str", "selector", "path", "enum", "pattern")
    return isinstance(value, (int, float, Decimal)) and tag in ("int", "number")


def _convert_number(kind: Kind, value: int | Decimal | float, where: str) -> int | Decimal | float:
    """A file's number (int, or Decimal for a fraction or exponent) as the argument's type hint takes it.

    A ``float`` argument gets the nearest float for a fraction (a TOML float is an IEEE binary64 by
    the TOML specification, and Python code passing ``1.5`` gets the same) and an int unchanged, as
    the numeric tower allows; any other number argument gets the number exactly as read.

    >>> _convert_number(Kind("number", cls=float), Decimal("1.5"), "v"), _convert_number(Kind("number"), 3, "v")
    (1.5, 3)
    """
    if kind.cls is float:
        try:
            number = float(value)
        except OverflowError:  # an int beyond the float range
            number = math.inf
        if not math.isfinite(number):
            raise _Invalid(where, f"expected a number within the range of a float (about ±1.8e308), found {_literal(str(value))}")
        return value if isinstance(value, int) else number
    return Decimal(repr(value)) if isinstance(value, float) else value


def _is_long_integer(value: Any) -> bool:
    """A JSON integer longer than Python converts to ``int`` (read as an exact Decimal instead)."""
    limit = sys.get_int_max_str_digits()
    return (
        isinstance(value, Decimal) and value.is_finite() and value.as_tuple().exponent == 0
        and bool(limit) and len(value.as_tuple().digits) > limit
    )


#: An index key in a table by index ("0", "2"): any more digits could not be a list index.
_MAX_INDEX_DIGITS: Final = 18


def _index_key(key: str, where: str) -> int:
    if isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= _MAX_INDEX_DIGITS:
        return int(key)
    raise _Invalid(_key(where, key), "expected an index (a key such as \"0\" or \"2\")")


def _convert_path(value: Any, where: str) -> Path:
    if isinstance(value, str):
        try:
            return Path.parse(value)
        except PathSyntaxError as exc:
            raise _Invalid(where, str(exc)) from None
    if isinstance(value, list) and all(
        isinstance(s, str) or (isinstance(s, int) and not isinstance(s, bool)) for s in value
    ):
        try:
            return Path().join(*value)
        except (ValueError, TypeError) as exc:
            raise _Invalid(where, str(exc)) from None
    raise _Invalid(
        where, f"expected a path (text such as 'triggers[\"k\"]' or an array of keys and indexes), found {_found(value)}"
    )


def _instantiate(sig: Signature, table: Mapping[str, Any], where: str, registry: Registry) -> tuple[Any, dict[str, Any]]:
    given: dict[str, Any] = {}
    for key, raw in table.items():
        if key == "type":
            continue
        param = sig.keys.get(key)
        if param is None:
            takes = ", ".join(p.name for p in sig.params) or "no arguments"
            near = closest(key, [p.name for p in sig.params], n=1) if isinstance(key, str) else []
            did = f"; did you mean {near[0]!r}?" if near else ""
            raise _Invalid(_key(where, key), f"unknown key for {sig.name}, which takes: {takes}{did}")
        if param.name in given:
            raise _Invalid(_key(where, key), f"{param.name!r} is given twice (as {key!r} and under another name)")
        if param.variadic:
            if not isinstance(raw, list):
                raise _Invalid(_key(where, key), f"expected a list of {param.kind.describe()}, found {_found(raw)}")
            given[param.name] = [convert(param.kind, item, f"{_key(where, key)}[{i}]", registry) for i, item in enumerate(raw)]
        else:
            given[param.name] = convert(param.kind, raw, _key(where, key), registry)
    missing = [p for p in sig.params if p.required and p.name not in given]
    if missing:
        wanted = ", ".join(f"{p.name!r} ({p.kind.describe()})" for p in missing)
        raise _Invalid(where, f"{sig.name} needs {wanted}")
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    has_variadic = any(p.variadic for p in sig.params)
    before_variadic = True
    for p in sig.params:
        if p.variadic:
            args.extend(given.get(p.name, []))
            before_variadic = False
        elif p.positional_only or (has_variadic and before_variadic):
            args.append(given.get(p.name, p.default))
        elif p.name in given:
            kwargs[p.name] = given[p.name]
    try:
        return sig.cls(*args, **kwargs), given
    except Exception as exc:  # whatever a constructor rejects, it rejects the file's values: a user error
        raise _Invalid(where, _rejected(sig.name, exc)) from None


def _rejected(name: str, exc: Exception) -> str:
    """What check (or matcher) ``name``'s constructor said of its arguments, named once by the check."""
    text = exception_message(exc) or type(exc).__name__
    return text if text.startswith(f"{name}:") else f"{name}: {text}"


def _signature(table: Any, where: str, what: str, signatures: Mapping[str, Signature], expected: str) -> Signature:
    """The signature of the catalogue entry ``table`` names in its ``type`` key (``plancheck.`` or ``knownvalue.``
    before it allowed); ``what`` is ``plan check`` or ``matcher``."""
    if not isinstance(table, Mapping):
        raise _Invalid(where, f"expected {expected}, found {_found(table)}")
    name = table.get("type")
    if not isinstance(name, str):
        raise _Invalid(_key(where, "type"), f"expected a {what} name (string), found {_found(name)}")
    if name in signatures:
        return signatures[name]
    for prefix in ("plancheck.", "knownvalue."):
        if name.startswith(prefix) and name[len(prefix) :] in signatures:
            return signatures[name[len(prefix) :]]
    close = closest(name, sorted(signatures))
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise _Invalid(f"{where}.type" if where else "type", f"unknown {what} {_cut(name)!r}{hint} (see tfplancheck --list-checks)")


def _build_matcher(kind: Kind, value: Any, where: str, registry: Registry) -> Any:
    example = 'a matcher table such as { type = "StringExact", value = "x" }'
    sig = _signature(value, where, "matcher", registry.matchers, example)
    name = sig.name
    matcher, _ = _instantiate(sig, value, where, registry)
    if kind.cls is not None:
        try:
            ok = isinstance(matcher, kind.cls)
        except TypeError:
            ok = True
        if not ok:
            raise _Invalid(where, f"{name} cannot be used here; expected a {kind.cls.__name__}")
    return matcher


def build_check(sig: Signature, table: Mapping[str, Any], where: str, registry: Registry) -> CheckSpec:
    """Build the plan check ``sig`` from its table; raises ``_Invalid`` (converted by the callers)."""
    check, given = _instantiate(sig, table, where, registry)
    # The check's address is what its address argument (address, name, output, *_address, *_name) gives.
    address = next((v for k, v in given.items() if isinstance(v, str)
                    and (k in _ADDRESS_ARGUMENTS or k.endswith(("_address", "_name")))), None)
    if address is None:
        # A whole-plan check is about what its selector selects: the selector's text stands for the address.
        address = next((v.describe() for v in given.values() if isinstance(v, Resources)), None)
    path = next((v for v in given.values() if isinstance(v, Path)), None)
    return CheckSpec(sig.name, check, where, address, path)


_ADDRESS_ARGUMENTS: Final = frozenset({"address", "name", "output"})


def _header_lines(text: str) -> list[int]:
    """The line of every ``[[check]]`` header, counting each newline once (linear in the text).

    >>> _header_lines('[[check]]\\ntype = "A"\\n\\n[[check]]\\n')
    [1, 4]
    """
    lines: list[int] = []
    line, counted = 1, 0
    for match in _CHECK_HEADER.finditer(text):
        line += text.count("\n", counted, match.start())
        counted = match.start()
        lines.append(line)
    return lines


class _Unreadable:
    """A number (or NaN/Infinity) the parser met but no JSON value can hold; reported with its key path."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


def _literal(text: str) -> str:
    # A number may be a million characters long; the message shows its ends.
    return text if len(text) <= 40 else f"{text[:20]}…{text[-10:]} ({len(text)} characters)"


def _read_decimal(text: str) -> Decimal | _Unreadable:
    """A fraction/exponent number exactly, or a marker when it is no finite number a Decimal can hold."""
    try:
        number = Decimal(text)
    except ArithmeticError:  # an exponent beyond what any Decimal can hold (1e1000000000000000000)
        return _Unreadable(f"number out of range: {_literal(text)}")
    if not number.is_finite():  # TOML's nan and inf
        return _Unreadable(f"expected a finite number, found {text}")
    return number


def _json_constant(name: str) -> _Unreadable:
    return _Unreadable(f"expected a JSON value, found {name}, which is not JSON")


#: What a key given twice in one object holds: TOML refuses it, and so does every JSON document the library reads.
_REPEATED: Final = _Unreadable("expected each key once in its object, found this key repeated "
                               "(which of its values counts would be a guess)")


_JSON_DECODER = json.JSONDecoder(parse_float=_read_decimal, parse_int=exact_json_int, parse_constant=_json_constant,
                                 object_pairs_hook=functools.partial(marking_repeats, repeated=_REPEATED))


def _parse_json(text: str, source: str) -> Any:
    try:
        return _JSON_DECODER.decode(text)
    except json.JSONDecodeError as exc:
        message = f"invalid JSON: {exc.msg} (at line {exc.lineno}, column {exc.colno})"
        raise ChecksFileError(source, "", message, line=exc.lineno) from None
    except RecursionError:
        raise ChecksFileError(source, "", "invalid JSON: nested too deeply") from None
    except Exception as exc:  # whatever else the parser meets in the text is the text's fault
        raise ChecksFileError(source, "", f"invalid JSON: {exception_text(exc)}") from None


_TOML_LONG_INT = re.compile(r"(?:^|[=\[,{])[ \t]*[+-]?([1-9][0-9_]*)")


def _toml_error(text: str, source: str, exc: Exception) -> ChecksFileError:
    """The error for what the TOML parser raised on ``text``; a decimal integer too long to convert is located
    at the first such integer."""
    limit = sys.get_int_max_str_digits()
    if not limit or not isinstance(exc, ValueError) or "integer string conversion" not in str(exc):
        return ChecksFileError(source, "", f"invalid TOML: {exception_text(exc)}")
    for match in _TOML_LONG_INT.finditer(text):
        digits = match.group(1).replace("_", "")
        if len(digits) > limit:
            line = text.count("\n", 0, match.start(1)) + 1
            message = (f"invalid TOML: integer too long ({len(digits)} digits, at most {limit}; "
                       "write it with a fraction such as .0 to read it exactly as a decimal)")
            return ChecksFileError(source, "", message, line=line)
    return ChecksFileError(source, "", f"invalid TOML: integer too long (more than {limit} digits)")


def _parse_toml(text: str, source: str) -> Any:
    try:
        return tomllib.loads(text, parse_float=_read_decimal)
    except tomllib.TOMLDecodeError as exc:
        line = re.search(r"line (\d+)", str(exc))
        raise ChecksFileError(source, "", f"invalid TOML: {exc}", line=int(line[1]) if line else None) from None
    except RecursionError:
        raise ChecksFileError(source, "", "invalid TOML: nested too deeply") from None
    except Exception as exc:  # whatever else the parser meets in the text is the text's fault
        raise _toml_error(text, source, exc) from None


#: How deeply a check's table may nest (tables and arrays); far more than any matcher needs, and little
#: enough that building the check and its matchers never comes near Python's recursion limit.
MAX_DEPTH: Final = 100


def _scan(table: Any, where: str) -> None:
    """Reject a check nested too deeply or holding an unreadable number (iteratively: any depth is safe)."""
    if _is_sound(table):
        return
    stack: list[tuple[Any, str, int]] = [(table, where, 0)]
    while stack:  # again, naming key paths this time (building them for every sound check costs a fifth)
        item, at, depth = stack.pop()
        if isinstance(item, _Unreadable):
            raise _Invalid(at, item.reason)
        if isinstance(item, (dict, list)):
            if depth >= MAX_DEPTH:
                raise _Invalid(where, f"nested more than {MAX_DEPTH} levels deep")
            pairs = item.items() if isinstance(item, dict) else enumerate(item)
            stack.extend(
                (v, _key(at, k) if isinstance(k, str) else f"{at}[{k}]", depth + 1) for k, v in reversed(list(pairs))
            )


def _is_sound(table: Any) -> bool:
    stack: list[tuple[Any, int]] = [(table, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            values: Any = item.values()
        elif isinstance(item, list):
            values = item
        else:
            if isinstance(item, _Unreadable):
                return False
            continue
        if depth >= MAX_DEPTH:
            return False
        stack.extend((v, depth + 1) for v in values)
    return True


def _checks_list(document: Any, source: str) -> list[Any]:
    if isinstance(document, list):
        return document
    if isinstance(document, Mapping):
        extra = sorted(set(document) - {"check"})
        if extra:
            raise ChecksFileError(source, _key("", extra[0]), "unknown top-level key; a checks file has only 'check' (a list of tables)")
        checks = document.get("check", [])
        if not isinstance(checks, list):
            why = f"expected a list of tables ([[check]]), found {_found(checks)}"
            raise ChecksFileError(source, "check", checks.reason if isinstance(checks, _Unreadable) else why)
        return checks
    raise ChecksFileError(source, "", f"expected a table with a 'check' list, found {_found(document)}")


#: What a checks-file entry's ``severity`` takes, the default first.
SEVERITIES: Final = ("error", "warning")
#: What ``--fail-on`` takes: the least severity whose findings fail the run.
FAIL_ON: Final = SEVERITIES


def _severity(table: Any, where: str) -> tuple[str, Any]:
    """An entry's ``severity`` (default ``error``) and the entry without it, the given table left as it is.

    >>> _severity({"type": "ExpectEmptyPlan", "severity": "warning"}, "check[0]")
    ('warning', {'type': 'ExpectEmptyPlan'})
    >>> _severity({"type": "ExpectEmptyPlan", "severity": "warn"}, "check[0]")
    Traceback (most recent call last):
    ...
    plancheck.cli._checksfile._Invalid: check[0].severity: expected "error" or "warning", found "warn" (did you mean 'warning'?)
    """
    if not isinstance(table, Mapping) or "severity" not in table:
        return SEVERITIES[0], table
    value = table["severity"]
    if value not in SEVERITIES or not isinstance(value, str):
        near = closest(value, list(SEVERITIES), n=1) if isinstance(value, str) else []
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        raise _Invalid(_key(where, "severity"), f'expected "error" or "warning", found {_show(value)}{hint}')
    return value, {k: v for k, v in table.items() if k != "severity"}


def _waive(table: Any, where: str, origin: str) -> tuple[tuple[Waiver, ...], Any]:
    """An entry's ``waive`` list (default none) and the entry without it, the given table left as it is.

    >>> _waive({"type": "ExpectEmptyPlan", "waive": [{"address": "*", "reason": "why"}]}, "check[0]", "c.toml")[0][0].origin
    'c.toml check[0].waive[0]'
    """
    if not isinstance(table, Mapping) or "waive" not in table:
        return (), table
    try:
        waivers = parse_waivers(table["waive"], _key(where, "waive"), origin)
    except WaiverError as exc:
        raise _Invalid(exc.where, exc.message) from None
    return waivers, {k: v for k, v in table.items() if k != "waive"}


#: The checks whose failure lists the objects that fail it (CheckFailure.elements), which a waiver's element names.
_WHOLE_PLAN: Final = (ExpectEachKnownValue, ExpectEachNullValue, ExpectEachSensitiveValue, ExpectEachUnknownValue)


def _build_located(table: Any, where: str, registry: Registry, origin: str = "") -> CheckSpec:
    """:func:`build_check` after :func:`_scan`, with the entry's severity and waivers; any failure is an ``_Invalid`` at ``where`` or below."""
    _scan(table, where)
    severity, table = _severity(table, where)
    waivers, table = _waive(table, where, origin)
    try:
        sig = _signature(table, where, "plan check", registry.checks, "a table with a 'type' key")
        spec = dataclasses.replace(build_check(sig, table, where, registry), severity=severity, waivers=waivers)
    except _Invalid:
        raise
    except RecursionError:
        raise _Invalid(where, "nested too deeply") from None
    except Exception as exc:  # a library bug must still not print a traceback: name the check that met it
        raise _Invalid(where, f"cannot build this check: {exception_text(exc)}") from None
    named = next((i for i, w in enumerate(waivers) if w.element is not None), None)
    if named is not None and not isinstance(spec.check, _WHOLE_PLAN):
        # Only a whole-plan check's failure lists objects: on any other check such a waiver would waive nothing.
        raise _Invalid(_key(where, "waive") + f"[{named}].element", f"{spec.type} fails once per address, which a "
                       "waiver names by its address; element names the objects an ExpectEach* check's failure lists")
    return spec


def _key_line(text: str, lines: list[int], i: int, where: str, table: Any) -> int:
    """The line of the key that the error at ``where`` in check ``i`` is about, when the check's block assigns that
    key on one line (``key = ...``, ``key.sub = ...``); else the line of its ``[[check]]`` header (``lines[i]``).

    tomllib gives no positions, so the block's lines are searched for the key the parsed table holds; a key set
    under a ``[check.key]`` header, or seen on two lines (one inside a multi-line string), keeps the header's line.

    >>> _key_line('[[check]]\\ntype = "A"\\n\\npath = 3\\n', [1], 0, "check[0].path", {"type": "A", "path": 3})
    4
    >>> _key_line('[[check]]\\ntype = "A"\\n', [1], 0, "check[0]", {"type": "A"})
    1
    """
    key = re.match(r"\.([A-Za-z_][A-Za-z0-9_-]*)", where.removeprefix(f"check[{i}]"))
    if key is None or key[1] not in table:  # a key path below check[i] is only ever built for a key of its table
        return lines[i]
    assigns = re.compile(rf"""[ \t]*(?:{key[1]}|"{key[1]}"|'{key[1]}')[ \t]*[=.]""")  # a bare key: nothing to escape
    block = text.split("\n")[lines[i] - 1 : lines[i + 1] - 1 if i + 1 < len(lines) else None]
    found = [n for n, line in enumerate(block) if assigns.match(line)]
    return lines[i] + found[0] if len(found) == 1 else lines[i]


def parse_checks(text: str, source: str, registry: Registry, *, fmt: str | None = None) -> list[CheckSpec]:
    """Parse a checks file's text (``fmt`` ``"toml"``/``"json"``, else guessed from ``source``).

    Every problem is a :class:`ChecksFileError` naming ``source``, with the line when known.

    >>> parse_checks('check = []', "c.toml", Registry([], []))
    []
    >>> parse_checks('{"check": [{"type": "X", "n": 1e999999999999999999999}]}', "c.json", Registry([], []))
    Traceback (most recent call last):
    ...
    plancheck.cli._checksfile.ChecksFileError: c.json: check[0].n: number out of range: 1e999999999999999999999
    >>> parse_checks("check: []", "checks.yaml", Registry([], []))
    Traceback (most recent call last):
    ...
    plancheck.cli._checksfile.ChecksFileError: checks.yaml: a checks file is TOML (.toml) or JSON (.json), not YAML
    """
    if fmt is None and source.lower().endswith((".yaml", ".yml")):
        # Read as TOML, a YAML file fails on its first line with a TOML syntax error that does not say why.
        raise ChecksFileError(source, "", "a checks file is TOML (.toml) or JSON (.json), not YAML")
    fmt = fmt or ("json" if source.lower().endswith(".json") or text.lstrip().startswith("{") else "toml")
    lines: list[int] = []
    if fmt == "json":
        document = _parse_json(text, source)
    else:
        document = _parse_toml(text, source)
        lines = _header_lines(text)
    checks = _checks_list(document, source)
    if len(lines) != len(checks):
        lines = []  # checks written inline: no reliable line per check
    specs: list[CheckSpec] = []
    for i, table in enumerate(checks):
        where = f"check[{i}]"
        origin = f"{source}:{lines[i]}" if lines else source
        try:
            spec = _build_located(table, where, registry, origin)
        except _Invalid as exc:
            line = _key_line(text, lines, i, exc.where, table) if lines else None
            raise ChecksFileError(source, exc.where, exc.message, line=line) from None
        specs.append(dataclasses.replace(spec, origin=f"{origin} {where}"))
    return specs


def load_checks_file(filename: str, registry: Registry, *, max_bytes: int | None = None) -> list[CheckSpec]:
    """Read and parse the checks file ``filename``; every problem is a :class:`ChecksFileError`.

    A file longer than ``max_bytes`` (default: as for plans, ``PLANCHECK_MAX_BYTES`` or 2 GiB) is
    refused before it is parsed, so an endless input such as ``/dev/zero`` is an error, not a hang.
    """
    try:
        data = read_input(filename, "checks file", limit=max_input_bytes(max_bytes))
    except UnreadableInput as exc:
        raise ChecksFileError(filename, "", str(exc)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ChecksFileError(filename, "", f"not UTF-8 text (byte {exc.start})", line=line) from None
    # A byte-order mark (an editor's, on Windows) is no part of the text: as a plan's and a snapshot file's.
    return parse_checks(text.removeprefix("\ufeff"), filename, registry)


def spec_from_flag(flag: str, number: int, table: Mapping[str, Any], registry: Registry) -> CheckSpec:
    """Build a check of ``registry`` from a table of its arguments given on a command line (``--thing #2``).

    The table's type is looked up, not read as a checks file's entry is; its arguments are converted as a
    checks file's are. The command line's own flags (``--unknown``...) need no registry: ``_command._flag_check``.
    """
    where = f"{flag} #{number}"
    try:
        spec = build_check(registry.checks[table["type"]], table, "", registry)
    except _Invalid as exc:
        raise ChecksFileError("command line", f"{where} {exc.where}".strip(), exc.message) from None
    return dataclasses.replace(spec, origin=where)


#: A flag's argument as its check takes it: the text as given (None), or a checks file's converter for it.
_FlagArgument = tuple[str, Callable[[Any, str], Any] | None]

#: The command line's check flags: flag -> (check, its arguments in the flag's order, by their checks-file keys).
#: Each argument converts as that key of a checks-file entry does, so a flag and an entry build equal checks
#: (built by ``_command._flag_check``, without a registry: the flags are the command line's, never a user's types).
FLAG_CHECKS: Final[Mapping[str, tuple[type[PlanCheck], tuple[_FlagArgument, ...]]]] = {
    "--unknown": (values.ExpectUnknownValue, (("address", None), ("path", _convert_path))),
    "--sensitive": (values.ExpectSensitiveValue, (("address", None), ("path", _convert_path))),
    "--action": (changes.ExpectResourceAction, (("address", None), ("action", functools.partial(_convert_enum, ResourceAction)))),
    "--empty": (changes.ExpectEmptyPlan, ()),
    "--non-empty": (changes.ExpectNonEmptyPlan, ()),
    "--no-deferred": (changes.ExpectNoDeferredChanges, ()),
}


@frozen
class CheckResult(FrozenValue):
    """The outcome of one check, at its severity, with its failures and its warnings.

    ``status`` is ``pass``; ``fail`` (failures of an ``error``-severity check: the run fails); ``warn``
    (failures of a ``warning``-severity check: reported as warnings, the run fails only under
    ``--fail-on warning``); or ``error`` (the check could not run: exit status 2). ``warnings`` are
    what a check warns about whatever its status (a whole-plan check's ``unknown="warn"``: resources
    whose verdict is unknown until apply); like a ``warn`` status they fail the run only under
    ``--fail-on warning``. A check whose failures are all ``waived`` (or ``known`` from a baseline) passes.

    >>> result = CheckResult(CheckSpec("ExpectEmptyPlan", None, "check[0]", severity="warning"), "warn")
    >>> result.ok, result.severity, result.fails("error"), result.fails("warning")
    (False, 'warning', False, True)
    """

    spec: CheckSpec
    status: str
    failures: tuple[CheckFailure, ...] = ()
    warnings: tuple[CheckFailure, ...] = ()
    #: Failures a live waiver of the check accepts: reported as waived, never as failures.
    waived: tuple[Waived, ...] = ()
    #: Failures recorded in the ``--baseline`` file: reported as known, never as failures.
    known: tuple[CheckFailure, ...] = ()
    #: The check's waivers past their ``until`` date: they waive nothing, and the reports say so.
    expired_waivers: tuple[Waiver, ...] = ()
    #: Its live waivers that waived nothing (a typo, a failure fixed): the reports say so, as of a baseline's entries.
    unused_waivers: tuple[Waiver, ...] = ()

    @property
    def ok(self) -> bool:
        """True when the check passed (it may still have warnings)."""
        return self.status == "pass"

    @property
    def severity(self) -> str:
        """The check's severity: ``error`` or ``warning``."""
        return self.spec.severity

    def fails(self, fail_on: str = "error") -> bool:
        """Whether this result fails the run: a ``fail``; under ``fail_on="warning"`` any warning too."""
        return self.status == "fail" or (fail_on == "warning" and (self.status == "warn" or bool(self.warnings)))


#: The summary's key for the checks of each status.
_COUNTED: Final = {"pass": "passed", "fail": "failed", "warn": "warned", "error": "errors"}


def verdict(results: Sequence[CheckResult], fail_on: str = "error") -> tuple[int, dict[str, int]]:
    """A run's verdict, counted in one pass: its exit status (:func:`exit_status`) and its summary.

    The summary counts the checks by status (``warned``: of warning severity, failed), the warnings
    reported (a result's ``warnings``, and its failures when its status is ``warn``), and the failures
    waived and known.

    >>> warned = CheckResult(CheckSpec("ExpectEmptyPlan", None, "check[0]", severity="warning"), "warn")
    >>> verdict([warned])[0], verdict([warned], fail_on="warning")[0], verdict([warned])[1]["warned"]
    (0, 1, 1)
    """
    counts = dict.fromkeys(("total", "passed", "failed", "warned", "errors", "warnings", "waived", "known"), 0)
    failing = False
    for result in results:
        status = result.status
        counts[_COUNTED[status]] += 1
        counts["warnings"] += len(result.warnings) + (len(result.failures) if status == "warn" else 0)
        counts["waived"] += len(result.waived)
        counts["known"] += len(result.known)
        failing = failing or result.fails(fail_on)
    counts["total"] = len(results)
    return (2 if counts["errors"] else 1 if failing else 0), counts


def exit_status(results: Sequence[CheckResult], fail_on: str = "error") -> int:
    """The run's exit status: 2 when a check could not run, 1 when a result fails (:meth:`CheckResult.fails`), else 0.

    >>> warned = CheckResult(CheckSpec("ExpectEmptyPlan", None, "check[0]", severity="warning"), "warn")
    >>> exit_status([warned]), exit_status([warned], fail_on="warning")
    (0, 1)
    """
    return verdict(results, fail_on)[0]


def run_checks(specs: Sequence[CheckSpec], plan: Plan, *, today: datetime.date | None = None,
               key: FingerprintKey | None = None) -> list[CheckResult]:
    """Run every check, in order, through the library's one runner (:func:`plancheck._checking.run.run_each`).

    A check that raises is an ``error`` result, never a traceback. Its message, as every message of the results,
    is scrubbed of the plan's secrets at each exit the command writes it to (the text report, each document's values,
    the stream): once there, trusting what the run's failures trust, not here as well. A check's warnings are collected (``outcome``), not emitted: the command line prints them.
    A ``warning``-severity check that fails is a ``warn`` result. Each check's waivers then apply as
    of ``today`` (default: today's UTC date; :func:`apply_waivers`, with ``key``, ``TFPLANCHECK_SNAPSHOT_KEY``).
    """
    # The runner runs the checks; what a check gave as text (or raised) is labelled with its spec's type,
    # address and path, which only those outcomes ask for.
    labels = {id(spec.check): (spec.type, spec.address, spec.path) for spec in specs}
    outcomes = run_each(plan, [spec.check for spec in specs], label=lambda check: labels[id(check)], contain=True)
    results = [CheckResult(spec, "warn" if o.status == "fail" and spec.severity == "warning" else o.status,
                           o.failures, o.warnings) for spec, o in zip(specs, outcomes, strict=True)]
    if not any(spec.waivers for spec in specs):
        return results
    on = today if today is not None else datetime.datetime.now(datetime.UTC).date()
    return [apply_waivers(result, on, plan.source, plan.secrets, key) for result in results]
