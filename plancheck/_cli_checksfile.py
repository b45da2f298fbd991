"""Reading a checks file (TOML or JSON) into plan check objects.

A checks file is a list of tables, each naming a plan check by its Go/Python
class name in ``type`` and giving the constructor's arguments by name::

    [[check]]
    type = "ExpectKnownValue"
    address = "null_resource.a"
    path = 'triggers["k"]'
    matcher = { type = "StringExact", value = "v" }

Every error names the file, the line when one is known, the key path
(``check[2].matcher.value``) and what was expected there.
"""

from __future__ import annotations

import dataclasses
import datetime
import difflib
import enum
import json
import re
import tomllib
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from tfjsonpath import Path, PathSyntaxError, describe_json_type

from ._cli_registry import Kind, Param, Registry, Signature, enum_choices

__all__ = ["CheckSpec", "ChecksFileError", "build_check", "load_checks_file", "parse_checks"]

# Keys a file author may use whatever the constructor calls the argument, when it is unambiguous.
_ALIASES: Mapping[str, tuple[str, ...]] = {
    "address": ("resource_address", "output_address", "output_name", "output", "name"),
    "output": ("output_address", "output_name", "name", "address"),
    "name": ("output_name", "output_address", "output", "address"),
    "path": ("attribute_path", "value_path", "output_path"),
    "action": ("action_type", "resource_action", "actions"),
    "reason": ("deferred_reason",),
}
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
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


@dataclasses.dataclass(frozen=True, slots=True)
class CheckSpec:
    """A built plan check and where it came from.

    >>> CheckSpec("ExpectEmptyPlan", object(), "checks.toml: check[0]").address is None
    True
    """

    type: str
    check: Any
    origin: str
    address: str | None = None
    path: Path | None = None


def _found(value: Any) -> str:
    if isinstance(value, (datetime.date, datetime.time)):
        return "a date/time (not a JSON value)"
    return describe_json_type(value)


def _key(where: str, key: str) -> str:
    if _IDENT.match(key):
        return f"{where}.{key}" if where else key
    return f"{where}[{json.dumps(key, ensure_ascii=False)}]"


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
        return json.dumps(value, ensure_ascii=False)
    return _found(value)


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
        for alternative in kind.of:
            try:
                return convert(alternative, value, where, registry)
            except _Invalid:
                continue
        raise _Invalid(where, f"expected {kind.describe()}, found {_found(value)}")
    if tag == "any":
        return _plain(value, where)
    if tag == "str" and isinstance(value, str):
        return value
    if tag == "bool" and isinstance(value, bool):
        return value
    if tag == "int" and isinstance(value, int) and not isinstance(value, bool):
        return value
    if tag == "number" and isinstance(value, (int, Decimal, float)) and not isinstance(value, bool):
        if kind.cls is float:
            return float(value)
        return Decimal(repr(value)) if isinstance(value, float) else value
    if tag == "path":
        return _convert_path(value, where)
    if tag == "enum" and kind.cls is not None:
        return _convert_enum(kind.cls, value, where)
    if tag == "literal":
        if value in kind.choices:
            return value
        raise _Invalid(where, f"expected {kind.describe()}, found {_show(value)}")
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


def _index_key(key: str, where: str) -> int:
    if isinstance(key, str) and key.isascii() and key.isdigit():
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


def _lookup(names: Sequence[str], name: str, what: str, where: str) -> str:
    for prefix in ("plancheck.", "knownvalue."):
        if name.startswith(prefix) and name[len(prefix) :] in names:
            return name[len(prefix) :]
    if name in names:
        return name
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise _Invalid(f"{where}.type" if where else "type", f"unknown {what} {name!r}{hint} (see tfplancheck --list-checks)")


def _resolve_key(sig: Signature, key: str) -> Param | None:
    direct = sig.param(key)
    if direct is not None:
        return direct
    names = _ALIASES.get(key, ())
    candidates = [p for p in sig.params if p.name in names]
    if key == "matcher" and not candidates:
        candidates = [p for p in sig.params if p.kind.tag == "matcher" or (p.kind.of and p.kind.of[0].tag == "matcher")]
    return candidates[0] if len(candidates) == 1 else None


def _instantiate(sig: Signature, table: Mapping[str, Any], where: str, registry: Registry) -> tuple[Any, dict[str, Any]]:
    given: dict[str, Any] = {}
    for key, raw in table.items():
        if key == "type":
            continue
        param = _resolve_key(sig, key)
        if param is None:
            takes = ", ".join(p.name for p in sig.params) or "no arguments"
            raise _Invalid(_key(where, key), f"unknown key for {sig.name}, which takes: {takes}")
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
        text = str(exc) or type(exc).__name__
        raise _Invalid(where, text if text.startswith(f"{sig.name}:") else f"{sig.name}: {text}") from None


def _build_matcher(kind: Kind, value: Any, where: str, registry: Registry) -> Any:
    if not isinstance(value, Mapping):
        raise _Invalid(where, f"expected a matcher table such as {{ type = \"StringExact\", value = \"x\" }}, found {_found(value)}")
    type_name = value.get("type")
    if not isinstance(type_name, str):
        raise _Invalid(_key(where, "type"), f"expected a matcher name (string), found {_found(type_name)}")
    name = _lookup(registry.matcher_names(), type_name, "matcher", where)
    matcher, _ = _instantiate(registry.matcher(name), value, where, registry)
    if kind.cls is not None:
        try:
            ok = isinstance(matcher, kind.cls)
        except TypeError:
            ok = True
        if not ok:
            raise _Invalid(where, f"{name} cannot be used here; expected a {kind.cls.__name__}")
    return matcher


def build_check(table: Any, where: str, registry: Registry) -> CheckSpec:
    """Build one plan check from its table; raises ``_Invalid`` (converted by the callers)."""
    if not isinstance(table, Mapping):
        raise _Invalid(where, f"expected a table with a 'type' key, found {_found(table)}")
    type_name = table.get("type")
    if not isinstance(type_name, str):
        raise _Invalid(_key(where, "type"), f"expected a plan check name (string), found {_found(type_name)}")
    name = _lookup(registry.check_names(), type_name, "plan check", where)
    sig = registry.check(name)
    check, given = _instantiate(sig, table, where, registry)
    address = next((v for k, v in given.items() if isinstance(v, str) and _is_address_param(k)), None)
    path = next((v for v in given.values() if isinstance(v, Path)), None)
    return CheckSpec(name, check, where, address, path)


def _is_address_param(name: str) -> bool:
    return name in ("address", "name", "output") or name.endswith(("_address", "_name"))


def _header_lines(text: str) -> list[int]:
    return [text.count("\n", 0, m.start()) + 1 for m in _CHECK_HEADER.finditer(text)]


def parse_checks(text: str, source: str, registry: Registry, *, fmt: str | None = None) -> list[CheckSpec]:
    """Parse a checks file's text (``fmt`` ``"toml"``/``"json"``, else guessed from ``source``).

    >>> parse_checks('check = []', "c.toml", Registry([], []))
    []
    """
    fmt = fmt or ("json" if source.lower().endswith(".json") or text.lstrip().startswith("{") else "toml")
    lines: list[int] = []
    if fmt == "json":
        try:
            document = json.loads(text, parse_float=Decimal)
        except json.JSONDecodeError as exc:
            raise ChecksFileError(source, "", f"invalid JSON: {exc.msg} (at line {exc.lineno}, column {exc.colno})", line=exc.lineno) from None
        except RecursionError:
            raise ChecksFileError(source, "", "invalid JSON: nested too deeply") from None
    else:
        try:
            document = tomllib.loads(text, parse_float=Decimal)
        except tomllib.TOMLDecodeError as exc:
            line_match = re.search(r"line (\d+)", str(exc))
            raise ChecksFileError(
                source, "", f"invalid TOML: {exc}", line=int(line_match.group(1)) if line_match else None
            ) from None
        lines = _header_lines(text)
    if isinstance(document, list):
        checks: Any = document
    elif isinstance(document, Mapping):
        extra = sorted(set(document) - {"check"})
        if extra:
            raise ChecksFileError(source, _key("", extra[0]), "unknown top-level key; a checks file has only 'check' (a list of tables)")
        checks = document.get("check", [])
    else:
        raise ChecksFileError(source, "", f"expected a table with a 'check' list, found {_found(document)}")
    if not isinstance(checks, list):
        raise ChecksFileError(source, "check", f"expected a list of tables ([[check]]), found {_found(checks)}")
    if len(lines) != len(checks):
        lines = []  # checks written inline: no reliable line per check
    specs: list[CheckSpec] = []
    for i, table in enumerate(checks):
        where = f"check[{i}]"
        try:
            spec = build_check(table, where, registry)
        except _Invalid as exc:
            raise ChecksFileError(source, exc.where, exc.message, line=lines[i] if lines else None) from None
        origin = f"{source}:{lines[i]}" if lines else source
        specs.append(dataclasses.replace(spec, origin=f"{origin} {where}"))
    return specs


def load_checks_file(filename: str, registry: Registry) -> list[CheckSpec]:
    """Read and parse the checks file ``filename``; every problem is a :class:`ChecksFileError`."""
    try:
        with open(filename, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise ChecksFileError(filename, "", f"cannot read the checks file: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ChecksFileError(filename, "", f"not UTF-8 text (byte {exc.start})") from None
    return parse_checks(text, filename, registry)


def spec_from_flag(flag: str, number: int, table: Mapping[str, Any], registry: Registry) -> CheckSpec:
    """Build a check given by a command-line flag such as ``--unknown ADDRESS PATH``."""
    where = f"{flag} #{number}"
    try:
        spec = build_check(table, "", registry)
    except _Invalid as exc:
        raise ChecksFileError("command line", f"{where} {exc.where}".strip(), exc.message) from None
    return dataclasses.replace(spec, origin=where)
