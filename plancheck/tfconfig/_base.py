"""What every configuration check shares: the ConfigCheck base and assert_config, expectations (``ANY``,
a plain JSON value as its exact knownvalue check, aws-cdk's ``objectLike``) and how they are matched, and
the helpers that find a block and word a failure.

A check is a frozen, hashable value; ``failures(config)`` lists every way the
configuration fails it, ``check_config(config)`` raises :class:`ConfigCheckError`,
and :func:`assert_config` runs many and reports every failure at once. Defaults of
``sensitive`` variables are secrets: they are never shown.
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Mapping
from typing import Any, Final, Literal

from tfjsonpath import Path, PathNotFoundError
from tfjsonpath._jsontypes import find_cycle, fold_nodes, is_array, is_object, json_nodes

from .. import knownvalue as kv
from .._checking.fields import checked_address, guard_documents, require_document
from .._checking.messages import closest, given_by, scrubbed_failure
from .._checking.run import run_checks
from .._errors import ArgumentError, CheckFailure, ConfigCheckError, ValueMismatchError
from .._frozen import FrozenValue, frozen, public
from .._redact import Marks, Secrets
from .._text import cycle_text
from ._load import config_from_dict
from ._model import Block, Config

__all__ = [
    "ANY",
    "ConfigCheck",
    "Mode",
    "as_check",
    "assert_config",
    "like",
    "mismatch",
    "properties_problem",
    "require_config",
]

# pytest hides this module's frames from tracebacks: failures point at the user's test line,
# and the library's locals (which may hold raw values) are never printed.
__tracebackhide__ = True

Mode = Literal["managed", "data", "ephemeral"]
_BLOCK_TYPE: Final = {"managed": "resource", "data": "data", "ephemeral": "ephemeral"}
_PREFIX: Final = {"managed": "", "data": "data.", "ephemeral": "ephemeral."}
_NOUN: Final = {"managed": "resource", "data": "data source", "ephemeral": "ephemeral resource"}


class _AnyValue:
    """The default of optional expectations: not checked."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ANY"

    def __reduce__(self) -> str:
        return "ANY"


ANY: Final[Any] = _AnyValue()

#: What a configuration check's entry points take, as their TypeError says.
A_CONFIG: Final = "a plancheck.tfconfig.Config (load_config, parse_config), a dict or a list of dicts"


def require_config(config: object, where: str) -> Config:
    """A Config as given, or one read from a mapping (strictly); anything else is a TypeError.

    >>> require_config({"locals": {"a": 1}}, "X").locals
    {'a': 1}
    """
    if isinstance(config, Config):
        return config
    if isinstance(config, (Mapping, list, tuple)):
        # A list is the top-level JSON array form of a configuration, which Terraform reads too.
        return config_from_dict(config)
    return require_document(config, Config, where, A_CONFIG)


@public("plancheck.tfconfig")
@frozen
class ConfigCheck(FrozenValue, abc.ABC):
    """Base class of every configuration check: implement :meth:`failures`; :meth:`check_config` raises.

    A check is an immutable value, like a plan or a state check (see
    :class:`~plancheck._frozen.FrozenValue`); its repr leaves out what is left at its
    default: an expectation not checked (``ANY``), ``mode="managed"``, a trailing
    optional argument that is None.

    >>> from plancheck.tfconfig import ExpectResource
    >>> ExpectResource("terraform_data", "web").check_config({"resource": {"terraform_data": {"wbe": {}}}})
    Traceback (most recent call last):
    ...
    plancheck.ConfigCheckError: ExpectResource: terraform_data.web: no resource terraform_data.web in the configuration; closest: terraform_data.wbe
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Named: the class ``@frozen`` built with slots is not the one a bare super() would find.
        super(ConfigCheck, cls).__init_subclass__(**kwargs)  # noqa: UP008 (see above)
        # Given a dict, failures reads it as check_config does; given something else (None, a Plan, a path), it
        # says so, as check_config does, not with the AttributeError the check would meet inside.
        guard_documents(cls, Config, A_CONFIG, "failures", convert=require_config)

    @abc.abstractmethod
    def failures(self, config: Config) -> list[CheckFailure]:
        """Every way ``config`` fails this check, in a stable order (empty when it holds).

        Given a dict or a list of dicts, it reads the configuration from it, as :meth:`check_config` does;
        given anything else but a :class:`~plancheck.tfconfig.Config`, it raises an ArgumentError (a TypeError) saying what it takes.
        """

    def __repr__(self) -> str:
        args, kwargs = self._args()
        while args and args[-1] is None:
            args = args[:-1]
        shown = {k: _shown(k, v) for k, v in kwargs.items()}
        parts = [repr(a) for a in args]
        parts.extend(f"{k}={v!r}" for k, v in shown.items() if v is not ANY)
        return f"{type(self).__name__}({', '.join(parts)})"

    def check_config(self, config: Config | Mapping[str, Any]) -> None:
        """Raise :class:`~plancheck.ConfigCheckError` listing every failure, if there is any."""
        with given_by(self):
            found = self.failures(require_config(config, f"{type(self).__name__}.check_config"))
        if found:
            raise ConfigCheckError(found)


@public("plancheck.tfconfig")
def assert_config(config: Config | Mapping[str, Any], *checks: ConfigCheck) -> None:
    """Run every check on ``config``; raise one :class:`~plancheck.ConfigCheckError` listing every failure.

    >>> from plancheck.tfconfig import ExpectResourceCount, ExpectVariable
    >>> cfg = {"variable": {"region": {"type": "string"}}, "resource": {"terraform_data": {"a": {}}}}
    >>> assert_config(cfg, ExpectVariable("region", type="string"), ExpectResourceCount("terraform_data", 1))
    >>> assert_config(cfg, ExpectVariable("region", sensitive=True), ExpectResourceCount("terraform_data", 2))
    Traceback (most recent call last):
    ...
    plancheck.ConfigCheckError: 2 config checks failed:
      1. ExpectVariable: var.region: sensitive is false, expected true
      2. ExpectResourceCount: terraform_data: expected 2 terraform_data resources, found 1: terraform_data.a
    """
    cfg = require_config(config, "assert_config")
    run_checks("assert_config", "config", cfg, checks, ConfigCheck, ConfigCheckError)


# -- helpers ------------------------------------------------------------------------------------


def _mode(value: object, owner: str) -> Mode:
    if not isinstance(value, str):  # a list is not hashable: the look-up below raised a bare TypeError
        raise ArgumentError(f"{owner}: mode must be a str, got {type(value).__name__}")
    if value not in _BLOCK_TYPE:
        raise ArgumentError(f"{owner}: mode must be 'managed', 'data' or 'ephemeral', got {value!r}")
    return value  # type: ignore[return-value]


def _shown(name: str, value: Any) -> Any:
    """A keyword argument as the repr shows it: the default mode left out, a list of names as a list."""
    if name == "mode" and value == "managed":
        return ANY
    if name in ("references", "contains") and isinstance(value, tuple):
        return list(value)
    return value


def _expected(value: Any, owner: str) -> Any:
    """An optional expectation as kept: ANY (not checked), or its knownvalue check."""
    return value if value is ANY else as_check(value, owner)


def _closest(target: str, candidates: Iterable[str]) -> list[str]:
    return closest(target, sorted(set(candidates)))


def _failure(
    config: Config, check: str, address: str | None, path: Path | None, message: str
) -> CheckFailure:
    return scrubbed_failure(config.secrets, check, address, path, message)


def _undeclared(
    config: Config, check: str, address: str, what: str, candidates: list[str]
) -> list[CheckFailure]:
    """The failure of a check whose block (a variable, an output, ...) is not in the configuration."""
    return [_failure(config, check, address, None, _missing(config, what, address, candidates))]


def _attribute_failures(
    config: Config,
    check: ConfigCheck,
    address: str,
    block: Block,
    attrs: tuple[str, ...],
    noun: str,
    secret: str | None = None,
) -> list[CheckFailure]:
    """A failure for each attribute among ``attrs`` of ``block`` that does not match the check's expectation.

    An attribute left as ANY is not checked; one that is expected but missing fails
    saying the ``noun`` has no such attribute. The value of attribute ``secret`` is
    never shown.
    """
    name = type(check).__name__
    out: list[CheckFailure] = []
    for attr in attrs:
        expected = getattr(check, attr)
        if expected is ANY:
            continue
        if not block.has(attr):
            out.append(_failure(config, name, address, Path.parse(attr), f"{noun} has no {attr}"))
            continue
        problem = _value_problem(config, block, Path.parse(attr), expected, attr == secret)
        if problem is not None:
            out.append(_failure(config, name, address, problem[0], problem[1]))
    return out


def _flag_failures(
    config: Config, check: ConfigCheck, address: str, block: Block, attrs: tuple[str, ...]
) -> list[CheckFailure]:
    """A failure for each bool attribute among ``attrs`` (``sensitive``, ``nullable``) that differs from
    the check's expectation; an attribute left out is false, but ``nullable`` is true."""
    out: list[CheckFailure] = []
    for attr in attrs:
        expected = getattr(check, attr)
        if expected is ANY:
            continue
        actual = block.get(attr, attr == "nullable")
        if (actual in (True, "true")) != expected:
            message = f"{attr} is {_bool_text(actual)}, expected {_bool_text(expected)}"
            out.append(_failure(config, type(check).__name__, address, None, message))
    return out


def _renamed(check: ConfigCheck, failures: list[CheckFailure]) -> list[CheckFailure]:
    """The failures of an inner check, reported as ``check``'s."""
    return [CheckFailure(type(check).__name__, f.address, f.path, f.message) for f in failures]


def _missing(config: Config, what: str, address: str, candidates: list[str]) -> str:
    close = _closest(address, candidates)
    if close:
        return f"no {what} {address} in the configuration; closest: {', '.join(close)}"
    if not candidates:
        return f"no {what} {address} in the configuration; it has no {what}s"
    return f"no {what} {address} in the configuration; it has {len(candidates)} other {what}(s)"


def _address(mode: Mode, type_: str, name: str) -> str:
    """The address of resource ``type_.name``: ``aws_instance.web``, ``data.aws_ami.ubuntu``."""
    return f"{_PREFIX[mode]}{type_}.{name}"


def _find(config: Config, mode: Mode, type_: str, name: str) -> Block | str:
    block_type = _BLOCK_TYPE[mode]
    prefix = _PREFIX[mode]
    for b in config.blocks:
        if b.block_type == block_type and b.labels == (type_, name):
            return b
    candidates = [prefix + ".".join(b.labels) for b in config.blocks_of(block_type)]
    return _missing(config, _NOUN[mode], _address(mode, type_, name), candidates)


def _value_problem(
    config: Config, block: Block, path: Path, check: Any, sensitive: bool
) -> tuple[Path, str] | None:
    try:
        value = block.value_at(path)
    except PathNotFoundError as exc:
        return path, f"attribute not found: {exc.detail}"
    found = mismatch(check, value, sensitive=True if sensitive else None, secrets=config.secrets)
    if found is None:
        return None
    where, reason = found
    return path.join(where), reason


def _bool_text(value: object) -> str:
    return "true" if value in (True, "true") else "false"


def _references_problem(block: Block, attribute: str | None, contains: tuple[str, ...]) -> str | None:
    refs = block.references(attribute)
    missing = [c for c in contains if not any(r.matches(c) for r in refs)]
    if not missing:
        return None
    found = ", ".join(r.text for r in refs) if refs else "none"
    return f"expected references to {', '.join(missing)}; found: {found}"


def _strings(value: object, owner: str, what: str) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise ArgumentError(f"{owner}: {what} must be a list of str, got {type(value).__name__}")
    return tuple(checked_address(item, owner, f"each of {what}") for item in value)


def _names(value: Any, owner: str) -> Any:
    """An optional ``references`` expectation as kept: ANY, or a tuple of names."""
    return value if value is ANY else _strings(value, owner, "references")


def _flag(value: Any, owner: str, what: str) -> Any:
    """An optional bool expectation (``sensitive``, ``nullable``): ANY or a bool."""
    if value is not ANY and not isinstance(value, bool):
        raise ArgumentError(f"{owner}: {what} must be a bool, got {type(value).__name__}")
    return value


def properties_problem(config: Config, block_type: str, type_: str, check: Any, noun: str) -> str | None:
    """None if some block of ``type_`` matches ``check``; else a message naming the closest candidates."""
    candidates = [b for b in config.blocks_of(block_type) if b.labels and b.labels[0] == type_]
    if not candidates:
        others = sorted({b.labels[0] for b in config.blocks_of(block_type) if b.labels})
        close = _closest(type_, others)
        hint = f"; closest types: {', '.join(close)}" if close else ""
        return f"the configuration has no {type_} {noun}s{hint}"
    misses: list[tuple[int, str]] = []
    for b in candidates:
        found = mismatch(check, b.body, sensitive=None, secrets=config.secrets)
        if found is None:
            return None
        where, reason = found
        text = f"{where.to_text()}: {reason}" if len(where) else reason
        misses.append((-len(where), f"{b.address}: {text}"))
    # The deepest mismatch first: that resource came closest to matching.
    misses.sort(key=lambda m: m[0])
    shown = "; ".join(text for _, text in misses[:3])
    more = f"; and {len(misses) - 3} more" if len(misses) > 3 else ""
    return f"none of {len(candidates)} {type_} {noun}s matches; {shown}{more}"


# -- expectations -------------------------------------------------------------------------------


def _is_check(value: Any) -> bool:
    return callable(getattr(value, "CheckValue", None)) and not isinstance(value, type)


def as_check(value: Any, owner: str) -> Any:
    """A check as given, or the exact knownvalue check of a plain JSON value.

    >>> as_check({"a": [1]}, "X")
    ObjectExact({'a': ListExact([NumberExact(1)])})
    """
    if _is_check(value):
        return value
    try:
        return kv.exact(value)
    except TypeError as exc:
        raise ArgumentError(f"{owner}: expected a knownvalue check or a JSON value; {exc}") from None


def like(value: Any, owner: str) -> Any:
    """aws-cdk's ``objectLike`` for a plain value: objects match partially (at every depth), arrays
    element by element, scalars exactly; checks inside are kept as they are.

    >>> like({"tags": {"env": "prod"}, "ports": [80]}, "X")
    ObjectPartial({'ports': ListExact([NumberExact(80)]), 'tags': ObjectPartial({'env': StringExact('prod')})})
    """
    if _is_check(value):
        return value
    # Nesting of any depth is converted without recursion; a check inside stays as it is.
    cycle = find_cycle(value, lambda v: None if _is_check(v) else v, sequence=is_array)
    if cycle is not None:
        raise ArgumentError(f"{owner}: expected a knownvalue check or a JSON value; {cycle_text(cycle)}")
    nodes = json_nodes(value, closed=_is_check)
    for node, _, _ in nodes:
        if is_object(node) and not _is_check(node):
            for key in reversed(list(node)):
                if not isinstance(key, str):
                    raise ArgumentError(f"{owner}: object keys must be strings, got {type(key).__name__}")

    def build(current: Any, children: list[tuple[Any, Any]]) -> Any:
        if _is_check(current):
            return current
        if is_object(current):
            return kv.ObjectPartial(dict(children))
        if is_array(current):
            return kv.ListExact([c for _, c in children])
        return as_check(current, owner)

    return fold_nodes(nodes, build)


def mismatch(check: Any, value: Any, *, sensitive: Marks, secrets: Secrets) -> tuple[Path, str] | None:
    """Run ``check``; return where (inside ``value``) and why it failed, or None if it matched."""
    try:
        check.CheckValue(value, sensitive=sensitive, secrets=secrets, unknown=None)
    except ValueMismatchError as exc:
        return exc.path, secrets.scrub(exc.reason)
    return None
