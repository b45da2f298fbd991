"""Configuration checks, in the style of the plan checks: ExpectResource, ExpectVariable, ExpectReferences...

A check is a frozen, hashable value; ``failures(config)`` lists every way the
configuration fails it, ``check_config(config)`` raises :class:`ConfigCheckError`,
and :func:`assert_config` runs many and reports every failure at once. Expected
values are knownvalue checks, or plain JSON values (compared exactly). Defaults of
``sensitive`` variables are secrets: they are never shown.
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import KW_ONLY
from typing import Any, Final, Literal

from tfjsonpath import Path, PathNotFoundError

from .._checking.fields import checked_address, checked_path, require_document
from .._checking.messages import closest, given_by, scrubbed_failure
from .._checking.run import run_checks
from .._errors import CheckFailure, ConfigCheckError
from .._frozen import FrozenValue, frozen, public
from ._load import config_from_dict
from ._match import as_check, like, mismatch
from ._model import Block, Config

__all__ = [
    "ConfigCheck",
    "ExpectDataSource",
    "ExpectDataSourceAttribute",
    "ExpectDataSourceCount",
    "ExpectLocal",
    "ExpectModule",
    "ExpectNoResource",
    "ExpectOutput",
    "ExpectProvider",
    "ExpectReferences",
    "ExpectResource",
    "ExpectResourceAttribute",
    "ExpectResourceCount",
    "ExpectResourceWithProperties",
    "ExpectVariable",
    "Mode",
    "assert_config",
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
    return require_document(
        config, Config, where, "a plancheck.tfconfig.Config (load_config, parse_config), a dict or a list of dicts"
    )


@public("plancheck.tfconfig")
@frozen
class ConfigCheck(FrozenValue, abc.ABC):
    """Base class of every configuration check: implement :meth:`failures`; :meth:`check_config` raises.

    A check is an immutable value, like a plan or a state check (see
    :class:`~plancheck._frozen.FrozenValue`); its repr leaves out what is left at its
    default: an expectation not checked (``ANY``), ``mode="managed"``, a trailing
    optional argument that is None.

    >>> from plancheck.tfconfig import config_from_dict
    >>> ExpectResource("terraform_data", "web").check_config({"resource": {"terraform_data": {"wbe": {}}}})
    Traceback (most recent call last):
    ...
    plancheck.ConfigCheckError: ExpectResource: terraform_data.web: no resource terraform_data.web in the configuration; closest: terraform_data.wbe
    """

    @abc.abstractmethod
    def failures(self, config: Config) -> list[CheckFailure]:
        """Every way ``config`` fails this check, in a stable order (empty when it holds)."""

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
    if value not in _BLOCK_TYPE:
        raise ValueError(f"{owner}: mode must be 'managed', 'data' or 'ephemeral', got {value!r}")
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


# -- resources and data sources -----------------------------------------------------------------


@frozen
class _ResourceBlockCheck(ConfigCheck):
    """A check about resource block ``type.name`` as a whole (``mode="data"`` for a data source)."""

    type: str
    name: str
    _: KW_ONLY
    mode: Mode = "managed"
    __match_args__ = ("type", "name")

    def __post_init__(self) -> None:
        owner = self.__class__.__name__
        self._set(
            type=checked_address(self.type, owner, "type"),
            name=checked_address(self.name, owner, "name"),
            mode=_mode(self.mode, owner),
        )


@public("plancheck.tfconfig")
class ExpectResource(_ResourceBlockCheck):
    """The configuration declares resource ``type.name`` (``mode="data"`` for a data source).

    >>> cfg = {"resource": {"aws_instance": {"web": {}}}}
    >>> ExpectResource("aws_instance", "web").check_config(cfg)
    >>> ExpectResource("aws_instance", "db").check_config(cfg)
    Traceback (most recent call last):
    ...
    plancheck.ConfigCheckError: ExpectResource: aws_instance.db: no resource aws_instance.db in the configuration; closest: aws_instance.web
    """

    __slots__ = ()

    def failures(self, config: Config) -> list[CheckFailure]:
        """Every way ``config`` fails this check, in a stable order (empty when it holds)."""
        found = _find(config, self.mode, self.type, self.name)
        if isinstance(found, str):
            return [
                _failure(config, type(self).__name__, _address(self.mode, self.type, self.name), None, found)
            ]
        return []


@public("plancheck.tfconfig")
class ExpectNoResource(_ResourceBlockCheck):
    """The configuration does not declare resource ``type.name``.

    >>> ExpectNoResource("aws_instance", "web").check_config({"resource": {"aws_instance": {"web": {}}}})
    Traceback (most recent call last):
    ...
    plancheck.ConfigCheckError: ExpectNoResource: aws_instance.web: expected no such resource, found one at $.resource["aws_instance"]["web"]
    """

    __slots__ = ()

    def failures(self, config: Config) -> list[CheckFailure]:
        """Every way ``config`` fails this check, in a stable order (empty when it holds)."""
        found = _find(config, self.mode, self.type, self.name)
        if isinstance(found, str):
            return []
        return [
            _failure(
                config,
                type(self).__name__,
                found.address if self.mode == "managed" else _address(self.mode, self.type, self.name),
                None,
                f"expected no such {_NOUN[self.mode]}, found one at {found.location}",
            )
        ]


@public("plancheck.tfconfig")
@frozen
class ExpectResourceCount(ConfigCheck):
    """The configuration declares exactly ``count`` resource blocks of ``type``.

    It counts blocks, not instances: ``count``/``for_each`` are not evaluated.

    >>> ExpectResourceCount("aws_instance", 2).check_config({"resource": {"aws_instance": {"a": {}, "b": {}}}})
    """

    type: str
    count: int
    _: KW_ONLY
    mode: Mode = "managed"
    __match_args__ = ("type", "count")

    def __post_init__(self) -> None:
        owner = self.__class__.__name__
        checked_type = checked_address(self.type, owner, "type")
        if isinstance(self.count, bool) or not isinstance(self.count, int) or self.count < 0:
            raise ValueError(f"{owner}: count must be a non-negative int, got {self.count!r}")
        self._set(type=checked_type, mode=_mode(self.mode, owner))

    def failures(self, config: Config) -> list[CheckFailure]:
        """Every way ``config`` fails this check, in a stable order (empty when it holds)."""
        block_type = _BLOCK_TYPE[self.mode]
        found = [b for b in config.blocks_of(block_type) if b.labels[0] == self.type]
        if len(found) == self.count:
            return []
        noun = _NOUN[self.mode]
        names = ", ".join(_PREFIX[self.mode] + ".".join(b.labels) for b in found[:10])
        more = f" and {len(found) - 10} more" if len(found) > 10 else ""
        listing = f": {names}{more}" if found else ""
        return [
            _failure(
                config,
                type(self).__name__,
                self.type,
                None,
                f"expected {self.count} {self.type} {noun}s, found {len(found)}{listing}",
            )
        ]


@public("plancheck.tfconfig")
@frozen
class ExpectResourceAttribute(ConfigCheck):
    """The value at ``path`` in the body of resource ``type.name`` matches ``value``.

    ``value`` is a knownvalue check or a plain JSON value (compared exactly). The body
    is the JSON as written: expressions are strings such as ``"${var.ami}"``.

    >>> from tfjsonpath import New
    >>> cfg = {"resource": {"aws_instance": {"web": {"tags": {"Name": "web-1"}}}}}
    >>> ExpectResourceAttribute("aws_instance", "web", New("tags").AtMapKey("Name"), "web-1").check_config(cfg)
    >>> ExpectResourceAttribute("aws_instance", "web", New("tags").AtMapKey("Name"), "web-2").check_config(cfg)
    Traceback (most recent call last):
    ...
    plancheck.ConfigCheckError: ExpectResourceAttribute: aws_instance.web: tags["Name"]: expected value "web-2" for StringExact check, got: "web-1"
    """

    type: str
    name: str
    path: Path
    value: Any
    _: KW_ONLY
    mode: Mode = "managed"
    __match_args__ = ("type", "name", "path", "value")

    def __post_init__(self) -> None:
        owner = self.__class__.__name__
        self._set(
            type=checked_address(self.type, owner, "type"),
            name=checked_address(self.name, owner, "name"),
            path=checked_path(self.path, owner),
            mode=_mode(self.mode, owner),
        )
        self._set(value=as_check(self.value, owner))

    def failures(self, config: Config) -> list[CheckFailure]:
        """Every way ``config`` fails this check, in a stable order (empty when it holds)."""
        check = type(self).__name__
        address = _address(self.mode, self.type, self.name)
        found = _find(config, self.mode, self.type, self.name)
        if isinstance(found, str):
            return [_failure(config, check, address, self.path, found)]
        problem = _value_problem(config, found, self.path, self.value, False)
        if problem is None:
            return []
        return [_failure(config, check, address, problem[0], problem[1])]


@public("plancheck.tfconfig")
@frozen
class ExpectResourceWithProperties(ConfigCheck):
    """Some resource of ``type`` has a body matching ``properties``, like aws-cdk's ``hasResourceProperties``.

    A plain dict matches partially at every depth (aws-cdk's ``objectLike``); arrays
    match element by element; knownvalue checks can be used anywhere inside.

    >>> cfg = {"resource": {"aws_sns_topic": {"a": {"name": "alerts", "fifo_topic": False}}}}
    >>> ExpectResourceWithProperties("aws_sns_topic", {"name": "alerts"}).check_config(cfg)
    >>> ExpectResourceWithProperties("aws_sns_topic", {"name": "alarms"}).check_config(cfg)
    Traceback (most recent call last):
    ...
    plancheck.ConfigCheckError: ExpectResourceWithProperties: aws_sns_topic: none of 1 aws_sns_topic resources matches; aws_sns_topic.a: name: expected value "alarms" for StringExact check, got: "alerts"
    """

    type: str
    properties: Any
    _: KW_ONLY
    mode: Mode = "managed"
    __match_args__ = ("type", "properties")

    def __post_init__(self) -> None:
        owner = self.__class__.__name__
        self._set(type=checked_address(self.type, owner, "type"), mode=_mode(self.mode, owner))
        self._set(properties=like(self.properties, owner))

    def failures(self, config: Config) -> list[CheckFailure]:
        """Every way ``config`` fails this check, in a stable order (empty when it holds)."""
        message = properties_problem(
            config, _BLOCK_TYPE[self.mode], self.type, self.properties, _NOUN[self.mode]
        )
        if message is None:
            return []
        return [_failure(config, type(self).__name__, self.type, None, message)]


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


@public("plancheck.tfconfig")
@frozen
class ExpectDataSource(ConfigCheck):
    """The configuration declares data source ``data.type.name``.

    >>> ExpectDataSource("aws_ami", "ubuntu").check_config({"data": {"aws_ami": {"ubuntu": {}}}})
    """

    type: str
    name: str
    __match_args__ = ("type", "name")

    def __post_init__(self) -> None:
        owner = self.__class__.__name__
        self._set(type=checked_address(self.type, owner, "type"), name=checked_address(self.name, owner, "name"))

    def failures(self, config: Config) -> list[CheckFailure]:
        """Every way ``config`` fails this check, in a stable order (empty when it holds)."""
        return _renamed(self, ExpectResource(self.type, self.name, mode="data").failures(config))


@public("plancheck.tfconfig")
@frozen
class ExpectDataSourceCount(ConfigCheck):
    """The configuration declares exactly ``count`` data sources of ``type``.

    >>> ExpectDataSourceCount("aws_ami", 0).check_config({})
    """

    type: str
    count: int
    __match_args__ = ("type", "count")

    def __post_init__(self) -> None:
        # Checked by the resource count check it runs (whose name its errors carry).
        inner = ExpectResourceCount(self.type, self.count, mode="data")
        self._set(type=inner.type, count=inner.count)

    def failures(self, config: Config) -> list[CheckFailure]:
        """Every way ``config`` fails this check, in a stable order (empty when it holds)."""
        return _renamed(self, ExpectResourceCount(self.type, self.count, mode="data").failures(config))


@public("plancheck.tfconfig")
@frozen
class ExpectDataSourceAttribute(ConfigCheck):
    """The value at ``path`` in the body of data source ``data.type.name`` matches ``value``.

    >>> from tfjsonpath import New
    >>> cfg = {"data": {"aws_ami": {"ubuntu": {"most_recent": True}}}}
    >>> ExpectDataSourceAttribute("aws_ami", "ubuntu", New("most_recent"), True).check_config(cfg)
    """

    type: str
    name: str
    path: Path
    value: Any
    __match_args__ = ("type", "name", "path", "value")

    def __post_init__(self) -> None:
        # Checked by the resource attribute check it runs (whose name its errors carry).
        inner = ExpectResourceAttribute(self.type, self.name, self.path, self.value, mode="data")
        self._set(type=inner.type, name=inner.name, path=inner.path, value=inner.value)

    def failures(self, config: Config) -> list[CheckFailure]:
        """Every way ``config`` fails this check, in a stable order (empty when it holds)."""
        inner = ExpectResourceAttribute(self.type, self.name, self.path, self.value, mode="data")
        return _renamed(self, inner.failures(config))


# -- variables, outputs, locals, modules, providers ------------------------------------------------


def _type_text(value: str) -> str:
    return "".join(value.split())


@public("plancheck.tfconfig")
@frozen
class ExpectVariable(ConfigCheck):
    """Variable ``name`` is declared, with the given ``type`` / ``default`` / ``sensitive`` / ... if given.

    ``type`` is compared as a type expression with spaces ignored (``"list( string )"``
    equals ``"list(string)"``), or with a knownvalue check. The default of a sensitive
    variable is never shown.

    >>> cfg = {"variable": {"db_password": {"type": "string", "sensitive": True, "default": "hunter2"}}}
    >>> ExpectVariable("db_password", type="string", sensitive=True).check_config(cfg)
    >>> ExpectVariable("db_password", default="letmein").check_config(cfg)
    Traceback (most recent call last):
    ...
    plancheck.ConfigCheckError: ExpectVariable: var.db_password: default: expected value (sensitive) for StringExact check, got: (sensitive)
    """

    name: str
    _: KW_ONLY
    type: Any = ANY
    default: Any = ANY
    sensitive: Any = ANY
    nullable: Any = ANY
    description: Any = ANY
    __match_args__ = ("name",)

    def __post_init__(self) -> None:
        owner = self.__class__.__name__
        self._set(
            name=checked_address(self.name, owner, "name"),
            type=self.type if self.type is ANY or isinstance(self.type, str) else as_check(self.type, owner),
            default=_expected(self.default, owner),
            description=_expected(self.description, owner),
            sensitive=_flag(self.sensitive, owner, "sensitive"),
            nullable=_flag(self.nullable, owner, "nullable"),
        )

    def failures(self, config: Config) -> list[CheckFailure]:
        """Every way ``config`` fails this check, in a stable order (empty when it holds)."""
        check = type(self).__name__
        address = f"var.{self.name}"
        block = config.variable(self.name)
        if block is None:
            return _undeclared(config, check, address, "variable", [f"var.{n}" for n in config.variables])
        out: list[CheckFailure] = []
        if self.type is not ANY:
            declared = block.get("type")
            if isinstance(self.type, str):
                if not isinstance(declared, str) or _type_text(declared) != _type_text(self.type):
                    shown = f'"{declared}"' if isinstance(declared, str) else "not declared"
                    out.append(
                        _failure(
                            config,
                            check,
                            address,
                            Path.parse("type"),
                            f'type is {shown}, expected "{self.type}"',
                        )
                    )
            else:
                problem = mismatch(self.type, declared, sensitive=None, secrets=config.secrets)
                if problem is not None:
                    out.append(
                        _failure(config, check, address, Path.parse("type").join(problem[0]), problem[1])
                    )
        sensitive = block.get("sensitive") in (True, "true")
        out.extend(_flag_failures(config, self, address, block, ("sensitive", "nullable")))
        secret = "default" if sensitive else None
        out.extend(
            _attribute_failures(config, self, address, block, ("default", "description"), "variable", secret)
        )
        return out


def _references_problem(block: Block, attribute: str | None, contains: tuple[str, ...]) -> str | None:
    refs = block.references(attribute)
    missing = [c for c in contains if not any(r.matches(c) for r in refs)]
    if not missing:
        return None
    found = ", ".join(r.text for r in refs) if refs else "none"
    return f"expected references to {', '.join(missing)}; found: {found}"


def _strings(value: object, owner: str, what: str) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise TypeError(f"{owner}: {what} must be a list of str, got {type(value).__name__}")
    return tuple(checked_address(item, owner, f"each of {what}") for item in value)


def _names(value: Any, owner: str) -> Any:
    """An optional ``references`` expectation as kept: ANY, or a tuple of names."""
    return value if value is ANY else _strings(value, owner, "references")


def _flag(value: Any, owner: str, what: str) -> Any:
    """An optional bool expectation (``sensitive``, ``nullable``): ANY or a bool."""
    if value is not ANY and not isinstance(value, bool):
        raise TypeError(f"{owner}: {what} must be a bool, got {type(value).__name__}")
    return value


@public("plancheck.tfconfig")
@frozen
class ExpectOutput(ConfigCheck):
    """Output ``name`` is declared, with the given ``value`` / ``sensitive`` / ``description`` / references.

    ``value`` is matched against the JSON as written (``"${aws_instance.web.id}"``);
    ``references`` lists what the value must refer to (``"aws_instance.web"`` matches
    ``aws_instance.web.id``).

    >>> cfg = {"output": {"ip": {"value": "${aws_instance.web.public_ip}", "sensitive": True}}}
    >>> ExpectOutput("ip", sensitive=True, references=["aws_instance.web"]).check_config(cfg)
    >>> ExpectOutput("ip", sensitive=False).check_config(cfg)
    Traceback (most recent call last):
    ...
    plancheck.ConfigCheckError: ExpectOutput: output.ip: sensitive is true, expected false
    """

    name: str
    _: KW_ONLY
    value: Any = ANY
    sensitive: Any = ANY
    description: Any = ANY
    references: Any = ANY
    __match_args__ = ("name",)

    def __post_init__(self) -> None:
        owner = self.__class__.__name__
        self._set(
            name=checked_address(self.name, owner, "name"),
            value=_expected(self.value, owner),
            description=_expected(self.description, owner),
            sensitive=_flag(self.sensitive, owner, "sensitive"),
            references=_names(self.references, owner),
        )

    def failures(self, config: Config) -> list[CheckFailure]:
        """Every way ``config`` fails this check, in a stable order (empty when it holds)."""
        check = type(self).__name__
        address = f"output.{self.name}"
        block = config.output(self.name)
        if block is None:
            return _undeclared(config, check, address, "output", [f"output.{n}" for n in config.outputs])
        out = _flag_failures(config, self, address, block, ("sensitive",))
        sensitive = block.get("sensitive") in (True, "true")
        secret = "value" if sensitive else None
        out.extend(
            _attribute_failures(config, self, address, block, ("value", "description"), "output", secret)
        )
        if self.references is not ANY:
            message = _references_problem(block, "value", self.references)
            if message is not None:
                out.append(_failure(config, check, address, Path.parse("value"), message))
        return out


@public("plancheck.tfconfig")
@frozen
class ExpectLocal(ConfigCheck):
    """Local value ``name`` is defined, matching ``value`` and referring to ``references`` if given.

    >>> ExpectLocal("greeting", references=["var.name"]).check_config({"locals": {"greeting": "Hi ${var.name}"}})
    """

    name: str
    _: KW_ONLY
    value: Any = ANY
    references: Any = ANY
    __match_args__ = ("name",)

    def __post_init__(self) -> None:
        owner = self.__class__.__name__
        self._set(
            name=checked_address(self.name, owner, "name"),
            value=_expected(self.value, owner),
            references=_names(self.references, owner),
        )

    def failures(self, config: Config) -> list[CheckFailure]:
        """Every way ``config`` fails this check, in a stable order (empty when it holds)."""
        check = type(self).__name__
        address = f"local.{self.name}"
        block = next((b for b in config.blocks_of("locals") if b.has(self.name)), None)
        if block is None:
            return _undeclared(config, check, address, "local value", [f"local.{n}" for n in config.locals])
        out: list[CheckFailure] = []
        if self.value is not ANY:
            problem = _value_problem(
                config, block, Path.parse(f'["{_escape(self.name)}"]'), self.value, False
            )
            if problem is not None:
                out.append(_failure(config, check, address, problem[0][1:], problem[1]))
        if self.references is not ANY:
            message = _references_problem(block, self.name, self.references)
            if message is not None:
                out.append(_failure(config, check, address, None, message))
        return out


def _escape(name: str) -> str:
    return name.replace("\\", "\\\\").replace('"', '\\"')


@public("plancheck.tfconfig")
@frozen
class ExpectModule(ConfigCheck):
    """Module call ``name`` is declared, with the given ``source`` / ``version`` and ``inputs`` (partially).

    >>> cfg = {"module": {"vpc": {"source": "terraform-aws-modules/vpc/aws", "version": "5.1.0", "cidr": "10.0.0.0/16"}}}
    >>> ExpectModule("vpc", source="terraform-aws-modules/vpc/aws", inputs={"cidr": "10.0.0.0/16"}).check_config(cfg)
    >>> ExpectModule("vpc", version="5.2.0").check_config(cfg)
    Traceback (most recent call last):
    ...
    plancheck.ConfigCheckError: ExpectModule: module.vpc: version: expected value "5.2.0" for StringExact check, got: "5.1.0"
    """

    name: str
    _: KW_ONLY
    source: Any = ANY
    version: Any = ANY
    inputs: Any = ANY
    __match_args__ = ("name",)

    def __post_init__(self) -> None:
        owner = self.__class__.__name__
        self._set(
            name=checked_address(self.name, owner, "name"),
            source=_expected(self.source, owner),
            version=_expected(self.version, owner),
            inputs=self.inputs if self.inputs is ANY else like(self.inputs, owner),
        )

    def failures(self, config: Config) -> list[CheckFailure]:
        """Every way ``config`` fails this check, in a stable order (empty when it holds)."""
        check = type(self).__name__
        address = f"module.{self.name}"
        block = config.module(self.name)
        if block is None:
            return _undeclared(config, check, address, "module call", [f"module.{n}" for n in config.modules])
        out = _attribute_failures(config, self, address, block, ("source", "version"), "module call")
        if self.inputs is not ANY:
            problem = _value_problem(config, block, Path(), self.inputs, False)
            if problem is not None:
                out.append(_failure(config, check, address, problem[0], problem[1]))
        return out


@public("plancheck.tfconfig")
@frozen
class ExpectProvider(ConfigCheck):
    """A configuration of provider ``name`` exists: with ``alias`` if given (``None``: the default, unaliased
    one), and a body matching ``properties`` (partially) if given.

    >>> cfg = {"provider": {"aws": [{"region": "us-east-1"}, {"alias": "usw1", "region": "us-west-1"}]}}
    >>> ExpectProvider("aws", alias="usw1", properties={"region": "us-west-1"}).check_config(cfg)
    >>> ExpectProvider("aws", alias="euw1").check_config(cfg)
    Traceback (most recent call last):
    ...
    plancheck.ConfigCheckError: ExpectProvider: provider.aws.euw1: no provider configuration provider.aws.euw1 in the configuration; closest: provider.aws.usw1, provider.aws
    """

    name: str
    _: KW_ONLY
    alias: Any = ANY
    properties: Any = ANY
    __match_args__ = ("name",)

    def __post_init__(self) -> None:
        owner = self.__class__.__name__
        self._set(
            name=checked_address(self.name, owner, "name"),
            alias=self.alias if self.alias is ANY or self.alias is None else checked_address(self.alias, owner, "alias"),
            properties=self.properties if self.properties is ANY else like(self.properties, owner),
        )

    def failures(self, config: Config) -> list[CheckFailure]:
        """Every way ``config`` fails this check, in a stable order (empty when it holds)."""
        check = type(self).__name__
        candidates = list(config.providers(self.name))
        if self.alias is not ANY:
            candidates = [b for b in candidates if _alias(b) == self.alias]
        address = f"provider.{self.name}" + (f".{self.alias}" if isinstance(self.alias, str) else "")
        if not candidates:
            names = [b.address for b in config.providers()]
            return _undeclared(config, check, address, "provider configuration", names)
        if self.properties is ANY:
            return []
        problems: list[str] = []
        for b in candidates:
            found = mismatch(self.properties, b.body, sensitive=None, secrets=config.secrets)
            if found is None:
                return []
            where, reason = found
            problems.append(f"{b.address}: {where.to_text() + ': ' if len(where) else ''}{reason}")
        return [_failure(config, check, address, None, "; ".join(problems))]


def _alias(block: Block) -> str | None:
    alias = block.get("alias")
    return alias if isinstance(alias, str) else None


@public("plancheck.tfconfig")
@frozen
class ExpectReferences(ConfigCheck):
    """Resource ``type.name`` (or one of its arguments) refers to each of ``contains``.

    References come from ``${...}`` interpolations and from ``depends_on`` /
    ``replace_triggered_by``. An expected ``"aws_vpc.main"`` matches a reference to
    ``aws_vpc.main.id``; ``"module.net"`` matches ``module.net.subnet_ids``.

    >>> cfg = {"resource": {"aws_subnet": {"a": {"vpc_id": "${aws_vpc.main.id}", "cidr_block": "${var.cidr}"}}}}
    >>> ExpectReferences("aws_subnet", "a", "vpc_id", contains=["aws_vpc.main"]).check_config(cfg)
    >>> ExpectReferences("aws_subnet", "a", contains=["var.cidr", "local.tags"]).check_config(cfg)
    Traceback (most recent call last):
    ...
    plancheck.ConfigCheckError: ExpectReferences: aws_subnet.a: expected references to local.tags; found: aws_vpc.main.id, var.cidr
    """

    type: str
    name: str
    attribute: str | None = None
    _: KW_ONLY
    contains: Sequence[str] = ()
    mode: Mode = "managed"
    __match_args__ = ("type", "name", "attribute")

    def __post_init__(self) -> None:
        owner = self.__class__.__name__
        self._set(
            type=checked_address(self.type, owner, "type"),
            name=checked_address(self.name, owner, "name"),
            attribute=None if self.attribute is None else checked_address(self.attribute, owner, "attribute"),
            contains=_strings(self.contains, owner, "contains"),
            mode=_mode(self.mode, owner),
        )

    def failures(self, config: Config) -> list[CheckFailure]:
        """Every way ``config`` fails this check, in a stable order (empty when it holds)."""
        check = type(self).__name__
        address = _address(self.mode, self.type, self.name)
        path = Path.parse(f'["{_escape(self.attribute)}"]') if self.attribute is not None else None
        found = _find(config, self.mode, self.type, self.name)
        if isinstance(found, str):
            return [_failure(config, check, address, path, found)]
        message = _references_problem(found, self.attribute, tuple(self.contains))
        if message is None:
            return []
        return [_failure(config, check, address, path, message)]
