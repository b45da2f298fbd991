"""The catalogue of plan checks and knownvalue matchers the command line can build.

Nothing here names a check: the catalogue is built from the public classes of the
public modules (:data:`PUBLIC_MODULES`): every concrete subclass of
:class:`plancheck.PlanCheck` they export is a plan check, every concrete subclass of
:class:`plancheck.knownvalue.Check` a matcher. No module is found by its file name,
so nothing private is ever part of the catalogue. Each constructor's signature and
type hints say which keys a checks file may give and how to convert them. A check or
matcher the library exports is usable from the command line without touching this module.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import importlib
import inspect
import re
import types
import typing
from collections.abc import Collection, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from decimal import Decimal
from typing import Any, Final

from tfjsonpath import Path

from .. import Actions, PlanCheck, Resources
from .._frozen import FrozenValue, frozen
from ..knownvalue import Check

__all__ = ["PUBLIC_MODULES", "Kind", "Param", "Registry", "Signature", "default_registry", "discover", "parse_kind"]

#: The public modules whose exported classes make the catalogue (what a user can import is what a file can name).
PUBLIC_MODULES: Final = ("plancheck", "plancheck.knownvalue")


@frozen
class Kind(FrozenValue):
    """What a constructor argument accepts, derived from its type hint.

    ``tag`` is one of ``str int bool number path enum matcher selector list map optional union literal pattern
    any unsupported``; ``of`` holds the element kinds (list, map, optional, union); ``cls`` the enum or matcher
    base class, or the one type (``float``, ``Decimal``) a number is converted to; ``choices`` the literal values.

    >>> parse_kind(list[str]).describe()
    'list of string'
    """

    tag: str
    of: tuple[Kind, ...] = ()
    cls: type | None = None
    choices: tuple[Any, ...] = ()
    text: str = ""

    def describe(self) -> str:
        """A short phrase for ``--list-checks`` and error messages.

        >>> parse_kind(int | None).describe()
        'integer or null'
        """
        if self.tag in _SIMPLE_NAMES:
            return _SIMPLE_NAMES[self.tag]
        if self.tag == "enum" and self.cls is not None:
            return "one of " + "|".join(enum_choices(self.choices or self.cls))
        if self.tag == "literal":
            return "one of " + "|".join(str(c) for c in self.choices)
        if self.tag == "matcher":
            return "matcher"
        if self.tag == "selector":
            return "selector of resources or actions" if self.cls is Actions else "selector"
        if self.tag == "list":
            return f"list of {self.of[0].describe()}"
        if self.tag == "map":
            keys = " by index" if self.cls is int else ""
            return f"table{keys} of {self.of[0].describe()}"
        if self.tag == "optional":
            return f"{self.of[0].describe()} or null"
        if self.tag == "union":
            return " or ".join(k.describe() for k in self.of)
        return f"unsupported ({self.text})"

    @property
    def supported(self) -> bool:
        """False when a checks file cannot express a value of this kind."""
        return self.tag != "unsupported" and all(k.supported for k in self.of)


_SIMPLE_NAMES = {
    "str": "string",
    "int": "integer",
    "bool": "boolean",
    "number": "number",
    "path": "path",
    "pattern": "regular expression",
    "any": "any value",
}


def enum_choices(cls: type | Iterable[enum.Enum]) -> list[str]:
    """The spellings shown for an enum (or the members of one an argument takes): its values when they are
    strings, else its names.

    >>> class Color(enum.Enum):
    ...     RED = "red"
    ...     BLUE = "blue"
    >>> enum_choices(Color), enum_choices([Color.BLUE])
    (['red', 'blue'], ['blue'])
    """
    members: list[enum.Enum] = list(cls)  # type: ignore[arg-type]
    if all(isinstance(m.value, str) for m in members):
        return [m.value for m in members]
    return [m.name for m in members]


def _is_matcher_base(tp: type, matchers: Iterable[type]) -> bool:
    if tp is object:
        return False
    if issubclass(tp, Check):
        return True
    for m in matchers:
        try:
            if issubclass(m, tp):
                return True
        except TypeError:  # a non-runtime-checkable Protocol
            break
    return False


def parse_kind(tp: Any, matchers: Sequence[type] = ()) -> Kind:
    """The :class:`Kind` of a type hint (already evaluated).

    >>> parse_kind(Path).tag, parse_kind(Sequence[Path]).describe()
    ('path', 'list of path')
    """
    if tp is Any or tp is object or tp is inspect.Parameter.empty:
        return Kind("any")
    if tp is str:
        return Kind("str")
    if tp is bool:
        return Kind("bool")
    if tp is int:
        return Kind("int")
    if tp in (float, Decimal):
        # The class says what to convert a file's number to (a float argument rejects a Decimal).
        return Kind("number", cls=tp)
    if tp is Path:
        return Kind("path")
    if tp is Resources:
        # A table of the selector's fields, or an address glob: a str beside it in a union is the same glob.
        return Kind("selector", cls=Resources)
    if tp is Actions:
        # Beside Resources in a union (the ExpectEach* checks): one selector whose table may say `actions = ...`.
        return Kind("selector", cls=Actions)
    if tp is re.Pattern or typing.get_origin(tp) is re.Pattern:
        return Kind("pattern")
    if typing.get_origin(tp) is typing.Annotated:
        # An enum narrowed to the members the constructor takes (StringRegexp's flags): only those are offered.
        base, *extras = typing.get_args(tp)
        kind = parse_kind(base, matchers)
        taken = next((extra for extra in extras if isinstance(extra, tuple)), ())
        if kind.tag == "enum" and taken and all(isinstance(member, kind.cls) for member in taken):  # type: ignore[arg-type]
            return Kind("enum", cls=kind.cls, choices=taken)
        return kind
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Union or origin is types.UnionType:
        alternatives = [a for a in args if a is not type(None)]
        kinds = _merge_numbers([parse_kind(a, matchers) for a in alternatives])
        if any(k.tag == "selector" for k in kinds):
            kinds = [k for k in kinds if k.tag != "str"]
            selectors = [k for k in kinds if k.tag == "selector"]
            if len(selectors) > 1:
                kinds = [Kind("selector", cls=Actions)] + [k for k in kinds if k.tag != "selector"]
        inner = kinds[0] if len(kinds) == 1 else Kind("union", tuple(kinds))
        return Kind("optional", (inner,)) if len(alternatives) < len(args) else inner
    if origin is typing.Literal:
        return Kind("literal", choices=args)
    if origin in (list, tuple, set, frozenset) or origin in _SEQUENCE_ORIGINS:
        element = args[0] if args else Any
        if origin is tuple and (len(args) != 2 or args[1] is not Ellipsis):
            return Kind("unsupported", text=_type_text(tp))
        return Kind("list", (parse_kind(element, matchers),))
    if origin in (dict,) or origin in _MAPPING_ORIGINS:
        key = args[0] if args else str
        if key not in (str, int):
            return Kind("unsupported", text=_type_text(tp))
        # Table keys are always strings; an int-keyed mapping (ListPartial's indexes) takes "0", "2", ...
        return Kind("map", (parse_kind(args[1] if args else Any, matchers),), cls=int if key is int else None)
    if isinstance(tp, type):
        if issubclass(tp, enum.Enum):
            return Kind("enum", cls=tp)
        if _is_matcher_base(tp, matchers):
            return Kind("matcher", cls=tp)
    return Kind("unsupported", text=_type_text(tp))


def _merge_numbers(kinds: list[Kind]) -> list[Kind]:
    # `int | float | Decimal` is one "number" to a file author (ints are passed unchanged to every number
    # argument); only an argument taking floats and no Decimals has fractions converted (to float).
    numbers = {k for k in kinds if k.tag == "number"}
    if numbers:
        merged = next(iter(numbers)) if len(numbers) == 1 else Kind("number")
        kinds = [merged if k.tag == "number" else k for k in kinds if k.tag != "int"]
    out: list[Kind] = []
    for k in kinds:
        if k not in out:
            out.append(k)
    return out


_SEQUENCE_ORIGINS: frozenset[Any] = frozenset({Sequence, Iterable, Collection, AbstractSet})
_MAPPING_ORIGINS: frozenset[Any] = frozenset({Mapping})


def _type_text(tp: Any) -> str:
    if typing.get_origin(tp) is None and isinstance(getattr(tp, "__name__", None), str):
        return str(tp.__name__)
    return str(tp).replace("typing.", "").replace("collections.abc.", "")


@frozen
class Param(FrozenValue):
    """One constructor argument: its key in a checks file, its kind, and how it is passed.

    >>> Param("address", Kind("str"), required=True).describe()
    'address: string'
    """

    name: str
    kind: Kind
    required: bool
    variadic: bool = False
    positional_only: bool = False
    default: Any = None

    def describe(self) -> str:
        """``name: kind`` plus ``= default`` or ``...`` for a variadic argument."""
        text = f"{self.name}: {self.kind.describe()}"
        if self.variadic:
            return f"{self.name}: list of {self.kind.describe()}"
        if not self.required:
            kind = self.kind.of[0] if self.kind.tag == "optional" and self.default is None else self.kind
            text = f"{self.name}: {kind.describe()} = {_default_text(self.default)}"
        return text


def _default_text(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    return str(value) if isinstance(value, (int, Decimal, float)) else "…"


# Keys a file author may use whatever the constructor calls the argument, when it is unambiguous.
_ALIASES: Mapping[str, tuple[str, ...]] = {
    "address": ("resource_address", "output_address", "output_name", "output", "name"),
    "output": ("output_address", "output_name", "name", "address"),
    "name": ("output_name", "output_address", "output", "address"),
    "path": ("attribute_path", "value_path", "output_path"),
    "action": ("action_type", "resource_action", "actions"),
    "reason": ("deferred_reason",),
    "except": ("except_",),
}


@frozen
class Signature(FrozenValue):
    """A check or matcher class with the arguments a checks file can give it.

    ``keys`` maps each key a checks file may give to its argument: the argument's own name, and an
    alias (:data:`_ALIASES`; ``matcher`` for the one matcher argument) that names one argument alone.

    >>> class Demo:
    ...     def __init__(self, address: str, count: int = 1) -> None: ...
    >>> Signature.of(Demo).describe()
    'Demo(address: string, count: integer = 1)'
    >>> class Output:
    ...     def __init__(self, output_address: str) -> None: ...
    >>> sorted(Signature.of(Output).keys)
    ['address', 'name', 'output', 'output_address']
    """

    name: str
    cls: type
    params: tuple[Param, ...]
    doc: str = ""
    keys: Mapping[str, Param] = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Resolved once per signature: a checks file of 50,000 checks looks up every key of every check.
        keys = {p.name: p for p in self.params}
        for key, names in (*_ALIASES.items(), ("matcher", ())):
            if key in keys:
                continue
            candidates = [p for p in self.params if p.name in names]
            if key == "matcher" and not candidates:
                candidates = [p for p in self.params if p.kind.tag == "matcher" or (p.kind.of and p.kind.of[0].tag == "matcher")]
            if len(candidates) == 1:
                keys[key] = candidates[0]
        self._set(keys=keys)

    @classmethod
    def of(cls, target: type, matchers: Sequence[type] = ()) -> Signature:
        """Introspect ``target``'s constructor."""
        hints = _type_hints(target)
        params: list[Param] = []
        try:
            sig = inspect.signature(target)
        except (TypeError, ValueError):
            sig = inspect.Signature()
        for p in sig.parameters.values():
            if p.kind is inspect.Parameter.VAR_KEYWORD:
                continue
            hint = hints.get(p.name, p.annotation)
            kind = parse_kind(hint, matchers) if not isinstance(hint, str) else Kind("unsupported", text=hint)
            params.append(
                Param(
                    p.name,
                    kind,
                    required=p.default is inspect.Parameter.empty and p.kind is not inspect.Parameter.VAR_POSITIONAL,
                    variadic=p.kind is inspect.Parameter.VAR_POSITIONAL,
                    positional_only=p.kind is inspect.Parameter.POSITIONAL_ONLY,
                    default=None if p.default is inspect.Parameter.empty else p.default,
                )
            )
        first_line = (inspect.getdoc(target) or "").strip().splitlines()
        return cls(target.__name__, target, tuple(params), _plain_doc(first_line[0]) if first_line else "")

    @property
    def supported(self) -> bool:
        """False when a required argument has a kind no checks file can express."""
        return all(p.kind.supported for p in self.params if p.required or p.variadic)

    def describe(self) -> str:
        """The constructor form shown by ``--list-checks``."""
        return f"{self.name}(" + ", ".join(p.describe() for p in self.params) + ")"


_RST_ROLE = re.compile(r":[a-z]+:`~?(?:[\w.]+\.)?([^`]+)`")


def _plain_doc(text: str) -> str:
    """A docstring line without reST markup.

    >>> _plain_doc("Resource ``address`` has a :class:`~plancheck.ResourceAction`.")
    'Resource address has a ResourceAction.'
    """
    return _RST_ROLE.sub(r"\1", text).replace("``", "")


def _namespace(target: type) -> dict[str, Any]:
    module = importlib.import_module(target.__module__)
    ns: dict[str, Any] = {"Path": Path, "Decimal": Decimal, "Any": Any, "re": re}
    for modname in ("typing", "collections.abc"):
        mod = importlib.import_module(modname)
        ns.update({k: getattr(mod, k) for k in dir(mod) if not k.startswith("_")})
    ns.update(vars(module))
    return ns


def _type_hints(target: type) -> dict[str, Any]:
    init = next((vars(c)["__init__"] for c in target.__mro__ if "__init__" in vars(c)), object.__init__)
    ns: dict[str, Any] | None = None
    for fn in (init, target):
        try:
            return typing.get_type_hints(fn, include_extras=True)
        except Exception:  # annotations naming TYPE_CHECKING-only imports: resolve them in a wider namespace
            pass
        try:
            ns = ns if ns is not None else _namespace(target)
            return typing.get_type_hints(fn, globalns=ns, include_extras=True)
        except Exception:  # fall through to evaluating each annotation alone
            continue
    hints: dict[str, Any] = {}
    ns = ns if ns is not None else _namespace(target)
    for name, raw in getattr(init, "__annotations__", {}).items():
        try:
            hints[name] = eval(raw, ns) if isinstance(raw, str) else raw  # our own modules' annotations
        except Exception:
            hints[name] = raw
    return hints


def _is_concrete_public(obj: Any) -> bool:
    return (
        isinstance(obj, type)
        and not obj.__name__.startswith("_")
        and not issubclass(obj, (BaseException, enum.Enum))
        and not getattr(obj, "_is_protocol", False)
        and not inspect.isabstract(obj)
    )


class Registry:
    """Plan checks and matchers by name, with their signatures.

    >>> class Always:
    ...     '''Never fails.'''
    ...     def failures(self, plan): return []
    ...     def CheckPlan(self, plan): pass
    >>> reg = Registry([Always], [])
    >>> reg.check("Always").describe(), reg.check_names()
    ('Always()', ['Always'])
    """

    def __init__(self, checks: Iterable[type], matchers: Iterable[type]) -> None:
        matcher_list = list(dict.fromkeys(matchers))
        #: Every matcher's signature by its class name.
        self.matchers: Mapping[str, Signature] = {m.__name__: Signature.of(m, matcher_list) for m in matcher_list}
        #: Every plan check's signature by its class name.
        self.checks: Mapping[str, Signature] = {c.__name__: Signature.of(c, matcher_list) for c in dict.fromkeys(checks)}
        self.matcher_classes: tuple[type, ...] = tuple(matcher_list)

    def check(self, name: str) -> Signature:
        """The signature of plan check ``name``; KeyError if there is none."""
        return self.checks[name]

    def matcher(self, name: str) -> Signature:
        """The signature of matcher ``name``; KeyError if there is none."""
        return self.matchers[name]

    def check_names(self) -> list[str]:
        """Every plan check name, sorted."""
        return sorted(self.checks)

    def matcher_names(self) -> list[str]:
        """Every matcher name, sorted."""
        return sorted(self.matchers)


def _public_members(module: types.ModuleType) -> Iterable[Any]:
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in dir(module) if not n.startswith("_")]
    for name in names:
        obj = getattr(module, name, None)
        if obj is not None:
            yield obj


def _catalogued(obj: Any, base: type) -> bool:
    return _is_concrete_public(obj) and issubclass(obj, base) and obj is not base


def discover(modules: Iterable[str] = PUBLIC_MODULES) -> Registry:
    """Build the registry from the public classes of ``modules`` (imported by their public names).

    >>> registry = discover()
    >>> "ExpectKnownValue" in registry.check_names(), "StringExact" in registry.matcher_names()
    (True, True)
    >>> "PlanCheck" in registry.check_names(), "Check" in registry.matcher_names()
    (False, False)
    """
    exported = [obj for name in modules for obj in _public_members(importlib.import_module(name))]
    checks = [obj for obj in exported if _catalogued(obj, PlanCheck)]
    matchers = [obj for obj in exported if _catalogued(obj, Check)]
    return Registry(checks, matchers)


@functools.cache
def default_registry() -> Registry:
    """The registry of the installed library (discovered once per process)."""
    return discover()
