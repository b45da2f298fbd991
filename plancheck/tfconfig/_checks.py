"""The configuration checks, in the style of the plan checks (ExpectResource, ExpectVariable,
ExpectReferences...), and aws-cdk's Template over the same configuration.

Expected values are knownvalue checks, or plain JSON values (compared exactly). Template is aws-cdk's
``assertions.Template`` (and cdktf's Testing matchers) for Terraform JSON configuration, so an aws-cdk
test ports line by line: ``Template.from_json(synth)`` then ``has_resource_properties(type, props)``,
``resource_count_is(type, n)``, ``find_resources(type, props)``. Property patterns are plain dicts
matched like aws-cdk's ``Match.objectLike`` (partially, at every depth), or knownvalue checks.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import KW_ONLY
from typing import Any, final

from tfjsonpath import Path

from .._checking.fields import checked_address, checked_path
from .._checking.messages import scrubbed_failure
from .._errors import ArgumentError, CheckFailure, ConfigCheckError
from .._frozen import ReadOnly, frozen, public
from .._loading.source import tool_of
from ._base import (
    _BLOCK_TYPE,
    _NOUN,
    _PREFIX,
    ANY,
    ConfigCheck,
    Mode,
    _address,
    _attribute_failures,
    _expected,
    _failure,
    _find,
    _flag,
    _flag_failures,
    _mode,
    _names,
    _references_problem,
    _renamed,
    _strings,
    _undeclared,
    _value_problem,
    as_check,
    like,
    mismatch,
    properties_problem,
    require_config,
)
from ._load import Flavor, load_config, parse_config
from ._model import Block, Config

# pytest hides this module's frames from tracebacks: failures point at the user's test line,
# and the library's locals (bodies of sensitive variables and outputs, in clear) are never printed.
__tracebackhide__ = True


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
            raise ArgumentError(f"{owner}: count must be a non-negative int, got {self.count!r}")
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


# -- aws-cdk's Template -----------------------------------------------------------------------------


@public("plancheck.tfconfig")
@final
class Template(ReadOnly):
    """Assertions over a whole configuration, named as in aws-cdk's ``Template``.

    Every assertion raises :class:`~plancheck.ConfigCheckError` (an ``AssertionError``).

    >>> t = Template.from_json({"resource": {"aws_sns_topic": {"alerts": {"name": "alerts", "fifo_topic": False}}}})
    >>> t.has_resource_properties("aws_sns_topic", {"name": "alerts"})
    >>> t.resource_count_is("aws_sns_topic", 1)
    >>> t.find_resources("aws_sns_topic", {"fifo_topic": False})
    {'alerts': {'name': 'alerts', 'fifo_topic': False}}
    """

    __slots__ = ("_config",)
    _config: Config

    def __init__(self, config: Config | Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> None:
        self._set(_config=require_config(config, "Template"))

    # -- constructors (aws-cdk names) -----------------------------------------------------------

    @classmethod
    def from_json(cls, config: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> Template:
        """A template of a configuration given as a dict, or a list of dicts (the top-level array form), as
        aws-cdk's ``Template.fromJSON``; checked strictly.

        >>> Template.from_json({"locals": {"a": 1}}).config.locals
        {'a': 1}
        >>> Template.from_json([{"locals": {"a": 1}}, {"locals": {"b": 2}}]).config.locals
        {'a': 1, 'b': 2}
        """
        return cls(config)

    @classmethod
    def from_string(cls, text: str, *, strict: bool = True) -> Template:
        """A template of configuration JSON text (aws-cdk's ``Template.fromString``).

        >>> Template.from_string('{"output": {"o": {"value": 1}}}').config.output("o").get("value")
        1
        """
        return cls(parse_config(text, strict=strict))

    @classmethod
    def from_file(
        cls, path: str | os.PathLike[str], *, flavor: Flavor | None = None, strict: bool = False
    ) -> Template:
        """A template of a ``.tf.json`` file or a module directory (e.g. cdktf's ``cdk.tf.json``), read by
        ``flavor``'s rules; without one, a ``.tofu.json`` file and a directory holding a ``.tofu`` or ``.tofu.json``
        file (which Terraform never reads) are read as OpenTofu reads them, anything else as Terraform does.

        >>> import tempfile, pathlib
        >>> with tempfile.TemporaryDirectory() as d:
        ...     _ = pathlib.Path(d, "cdk.tf.json").write_text('{"resource": {"null_resource": {"a": {}}}}')
        ...     Template.from_file(pathlib.Path(d, "cdk.tf.json")).resource_count_is("null_resource", 1)
        """
        return cls(load_config(path, flavor=tool_of(path) if flavor is None else flavor, strict=strict))

    @property
    def config(self) -> Config:
        """The configuration being asserted on."""
        return self._config

    def to_json(self) -> dict[str, Any]:
        """The configuration as one plain dict (block type, then labels, then body), as aws-cdk's ``toJSON``.

        Blocks with no labels (``locals``, ``terraform``, ``moved``...) are listed in order.

        >>> Template.from_json({"resource": {"t": {"a": {"x": 1}}}, "locals": {"b": 2}}).to_json()
        {'resource': {'t': {'a': {'x': 1}}}, 'locals': [{'b': 2}]}
        """
        out: dict[str, Any] = {}
        for block in self._config.blocks:
            if not block.labels:
                out.setdefault(block.block_type, []).append(block.body)
                continue
            level = out.setdefault(block.block_type, {})
            for label in block.labels[:-1]:
                level = level.setdefault(label, {})
            if block.block_type == "provider" and block.labels[-1] in level:
                existing = level[block.labels[-1]]
                level[block.labels[-1]] = (
                    [*existing, block.body] if isinstance(existing, list) else [existing, block.body]
                )
            else:
                level[block.labels[-1]] = block.body
        return out

    # -- resources ----------------------------------------------------------------------------

    def find_resources(self, type: str, props: Any = ANY) -> dict[str, dict[str, Any]]:
        """The resources of ``type`` (matching ``props``, if given), by name, as plain bodies."""
        return self._find("resource", type, props)

    def has_resource_properties(self, type: str, props: Any) -> None:
        """Some resource of ``type`` has a body matching ``props`` (aws-cdk ``hasResourceProperties``,
        cdktf ``toHaveResourceWithProperties``).

        >>> Template.from_json({"resource": {"aws_s3_bucket": {"b": {"bucket": "logs"}}}}).has_resource_properties(
        ...     "aws_s3_bucket", {"bucket": "data"})
        Traceback (most recent call last):
        ...
        plancheck.ConfigCheckError: has_resource_properties: aws_s3_bucket: none of 1 aws_s3_bucket resources matches; aws_s3_bucket.b: bucket: expected value "data" for StringExact check, got: "logs"
        """
        self._has("has_resource_properties", "resource", type, props, "resource")

    def has_resource(self, type: str, props: Any = ANY) -> None:
        """Some resource of ``type`` exists and (if given) matches ``props``, meta-arguments included
        (``depends_on``, ``lifecycle``...: Terraform keeps them in the body).

        >>> Template.from_json({"resource": {"t": {"a": {"depends_on": ["t.b"]}, "b": {}}}}).has_resource(
        ...     "t", {"depends_on": ["t.b"]})
        """
        self._has("has_resource", "resource", type, props, "resource")

    def resource_count_is(self, type: str, count: int) -> None:
        """Exactly ``count`` resource blocks of ``type`` are declared (aws-cdk ``resourceCountIs``)."""
        failures = ExpectResourceCount(type, count).failures(self._config)
        if failures:
            raise ConfigCheckError(
                [CheckFailure("resource_count_is", f.address, f.path, f.message) for f in failures]
            )

    def resource_properties_count_is(self, type: str, props: Any, count: int) -> None:
        """Exactly ``count`` resources of ``type`` match ``props`` (aws-cdk ``resourcePropertiesCountIs``).

        >>> t = Template.from_json({"resource": {"t": {"a": {"x": 1}, "b": {"x": 1}, "c": {"x": 2}}}})
        >>> t.resource_properties_count_is("t", {"x": 1}, 2)
        """
        found = self._find("resource", type, props)
        if len(found) != count:
            names = ", ".join(f"{type}.{n}" for n in found) or "none"
            raise ConfigCheckError(
                [
                    CheckFailure(
                        "resource_properties_count_is",
                        type,
                        None,
                        f"expected {count} matching {type} resources, found {len(found)}: {names}",
                    )
                ]
            )

    def all_resources_properties(self, type: str, props: Any) -> None:
        """Every resource of ``type`` matches ``props`` (aws-cdk ``allResourcesProperties``).

        >>> Template.from_json({"resource": {"t": {"a": {"x": 1}, "b": {"x": 2}}}}).all_resources_properties(
        ...     "t", {"x": 1})
        Traceback (most recent call last):
        ...
        plancheck.ConfigCheckError: all_resources_properties: t.b: x: expected value 1 for NumberExact check, got: 2
        """
        check = like(props, "all_resources_properties")
        failures: list[CheckFailure] = []
        for block in self._config.resources(type):
            found = mismatch(check, block.body, sensitive=None, secrets=self._config.secrets)
            if found is not None:
                failures.append(
                    scrubbed_failure(
                        self._config.secrets, "all_resources_properties", block.address, found[0], found[1]
                    )
                )
        if failures:
            raise ConfigCheckError(failures)

    # -- data sources, providers, outputs, variables, modules ------------------------------------

    def find_data_sources(self, type: str, props: Any = ANY) -> dict[str, dict[str, Any]]:
        """The data sources of ``type`` (matching ``props``, if given), by name."""
        return self._find("data", type, props)

    def has_data_source_properties(self, type: str, props: Any = ANY) -> None:
        """Some data source of ``type`` matches ``props`` (cdktf ``toHaveDataSourceWithProperties``).

        >>> Template.from_json({"data": {"aws_ami": {"u": {"most_recent": True}}}}).has_data_source_properties(
        ...     "aws_ami", {"most_recent": True})
        """
        self._has("has_data_source_properties", "data", type, props, "data source")

    def has_provider(self, name: str, props: Any = ANY) -> None:
        """Some configuration of provider ``name`` matches ``props`` (cdktf ``toHaveProviderWithProperties``).

        >>> Template.from_json({"provider": {"aws": {"region": "eu-west-1"}}}).has_provider("aws", {"region": "eu-west-1"})
        """
        self._has("has_provider", "provider", name, props, "provider configuration")

    def find_outputs(self, name: str = "*", props: Any = ANY) -> dict[str, dict[str, Any]]:
        """The outputs (``name="*"``: all) whose body matches ``props``, by name (aws-cdk ``findOutputs``).

        >>> Template.from_json({"output": {"a": {"value": 1}, "b": {"value": 2}}}).find_outputs("*", {"value": 2})
        {'b': {'value': 2}}
        """
        return self._named("output", name, props)

    def has_output(self, name: str, props: Any = ANY) -> None:
        """An output named ``name`` (``"*"``: any) matches ``props`` (aws-cdk ``hasOutput``).

        >>> Template.from_json({"output": {"id": {"value": "${aws_vpc.main.id}"}}}).has_output("*", {"value": "x"})
        Traceback (most recent call last):
        ...
        plancheck.ConfigCheckError: has_output: output.*: no output matches; output.id: value: expected value "x" for StringExact check, got: "${aws_vpc.main.id}"
        """
        self._has_named("has_output", "output", name, props)

    def find_variables(self, name: str = "*", props: Any = ANY) -> dict[str, dict[str, Any]]:
        """The variables (``name="*"``: all) whose body matches ``props`` (aws-cdk ``findParameters``)."""
        return self._named("variable", name, props)

    def has_variable(self, name: str, props: Any = ANY) -> None:
        """A variable named ``name`` (``"*"``: any) matches ``props`` (aws-cdk ``hasParameter``).

        >>> Template.from_json({"variable": {"region": {"type": "string"}}}).has_variable("region", {"type": "string"})
        """
        self._has_named("has_variable", "variable", name, props)

    def has_module(self, name: str, props: Any = ANY) -> None:
        """A module call named ``name`` (``"*"``: any) matches ``props``.

        >>> Template.from_json({"module": {"vpc": {"source": "./vpc"}}}).has_module("vpc", {"source": "./vpc"})
        """
        self._has_named("has_module", "module", name, props)

    # -- machinery ----------------------------------------------------------------------------

    def _blocks(self, block_type: str, first_label: str) -> list[Block]:
        return [b for b in self._config.blocks_of(block_type) if b.labels and b.labels[0] == first_label]

    def _find(self, block_type: str, type_: str, props: Any) -> dict[str, dict[str, Any]]:
        check = None if props is ANY else like(props, "find")
        out: dict[str, dict[str, Any]] = {}
        for block in self._blocks(block_type, type_):
            body = block.body
            if check is None or mismatch(check, body, sensitive=None, secrets=self._config.secrets) is None:
                out[block.labels[-1]] = body
        return out

    def _has(self, method: str, block_type: str, type_: str, props: Any, noun: str) -> None:
        check = like({} if props is ANY else props, method)
        message = properties_problem(self._config, block_type, type_, check, noun)
        if message is not None:
            raise ConfigCheckError([scrubbed_failure(self._config.secrets, method, type_, None, message)])

    def _named(self, block_type: str, name: str, props: Any) -> dict[str, dict[str, Any]]:
        check = None if props is ANY else like(props, "find")
        out: dict[str, dict[str, Any]] = {}
        for block in self._config.blocks_of(block_type):
            if name != "*" and block.labels[0] != name:
                continue
            body = block.body
            secret = block_type == "variable" and body.get("sensitive") in (True, "true")
            if (
                check is None
                or mismatch(
                    check, body, sensitive={"default": True} if secret else None, secrets=self._config.secrets
                )
                is None
            ):
                out[block.labels[0]] = body
        return out

    def _has_named(self, method: str, block_type: str, name: str, props: Any) -> None:
        check = like({} if props is ANY else props, method)
        prefix = "var" if block_type == "variable" else block_type
        candidates = [b for b in self._config.blocks_of(block_type) if name == "*" or b.labels[0] == name]
        if not candidates:
            raise ConfigCheckError(
                [
                    CheckFailure(
                        method, f"{prefix}.{name}", None, f"no {block_type} named {name} in the configuration"
                    )
                ]
            )
        problems: list[str] = []
        for block in candidates:
            body = block.body
            secret = block_type == "variable" and body.get("sensitive") in (True, "true")
            found = mismatch(
                check, body, sensitive={"default": True} if secret else None, secrets=self._config.secrets
            )
            if found is None:
                return
            where, reason = found
            problems.append(f"{block.address}: {where.to_text() + ': ' if len(where) else ''}{reason}")
        message = f"no {block_type} matches; " + "; ".join(problems[:3])
        raise ConfigCheckError(
            [scrubbed_failure(self._config.secrets, method, f"{prefix}.{name}", None, message)]
        )

    def __repr__(self) -> str:
        return f"Template({self._config!r})"
