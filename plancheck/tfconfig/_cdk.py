"""Template: aws-cdk's ``assertions.Template`` (and cdktf's Testing matchers), for Terraform JSON configuration.

So an aws-cdk test ports line by line: ``Template.from_json(synth)`` then
``has_resource_properties(type, props)``, ``resource_count_is(type, n)``,
``find_resources(type, props)``. Property patterns are plain dicts matched like
aws-cdk's ``Match.objectLike`` (partially, at every depth), or knownvalue checks.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, final

from .._checking.messages import scrubbed_failure
from .._errors import CheckFailure, ConfigCheckError
from .._frozen import ReadOnly, public
from ._checks import ANY, ExpectResourceCount, properties_problem, require_config
from ._load import Flavor, load_config, parse_config
from ._match import like, mismatch
from ._model import Block, Config

__all__ = ["Template"]

# pytest hides this module's frames from tracebacks, as every check module's: a failure points at the user's
# test line, and the library's locals (bodies of sensitive variables and outputs, in clear) are never printed.
__tracebackhide__ = True


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
        cls, path: str | os.PathLike[str], *, flavor: Flavor = "terraform", strict: bool = False
    ) -> Template:
        """A template of a ``.tf.json`` file or a module directory (e.g. cdktf's ``cdk.tf.json``).

        >>> import tempfile, pathlib
        >>> with tempfile.TemporaryDirectory() as d:
        ...     _ = pathlib.Path(d, "cdk.tf.json").write_text('{"resource": {"null_resource": {"a": {}}}}')
        ...     Template.from_file(pathlib.Path(d, "cdk.tf.json")).resource_count_is("null_resource", 1)
        """
        return cls(load_config(path, flavor=flavor, strict=strict))

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
