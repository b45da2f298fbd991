"""The test definition: :class:`TestCase`, :class:`TestStep`, :class:`ConfigPlanChecks`, :class:`Sensitive`.

These mirror Go's ``resource.TestCase``/``resource.TestStep``: a case is a sequence of steps,
each step a configuration to plan and apply, with checks on the plans and on the state.
They only describe; :class:`~plancheck.acceptance.AcceptanceRunner` runs them.
"""

from __future__ import annotations

import copy
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from types import MappingProxyType
from typing import Any, ClassVar

from ._errors import TestDefinitionError
from ._providers._factory import normalize_providers

__all__ = ["ConfigPlanChecks", "Sensitive", "TestCase", "TestStep", "sensitive_strings", "unwrap_sensitive"]

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")


def _type_name(value: object) -> str:
    return type(value).__name__


class Sensitive:
    """A variable value that is secret: the runner scrubs it from everything it prints.

    Wrap a whole value or any part of one. Its repr never shows the value.

    >>> s = Sensitive("hunter2")
    >>> s
    Sensitive((sensitive))
    >>> s.value, s == Sensitive("hunter2"), hash(s) == hash(Sensitive("hunter2"))
    ('hunter2', True, True)
    """

    __slots__ = ("_value",)
    _value: Any

    def __init__(self, value: Any) -> None:
        object.__setattr__(self, "_value", value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Sensitive is immutable")

    @property
    def value(self) -> Any:
        """The wrapped value."""
        return self._value

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sensitive):
            return bool(self._value == other._value)
        return NotImplemented

    def __hash__(self) -> int:
        # Coarse but consistent with ==: equal values always share a type name (bool/int/float aside).
        v = self._value
        return hash(("Sensitive", v if isinstance(v, str) else None))

    def __repr__(self) -> str:
        return "Sensitive((sensitive))"

    def __reduce__(self) -> tuple[object, ...]:
        return (Sensitive, (self._value,))


def _children(value: Any) -> Iterator[Any]:
    if isinstance(value, Sensitive):
        yield value.value
    elif isinstance(value, Mapping):
        yield from value.values()
    elif isinstance(value, (list, tuple)):
        yield from value


def sensitive_strings(value: Any) -> list[str]:
    """Every string (and number's text) that lies inside a :class:`Sensitive` within ``value``.

    >>> sensitive_strings({"a": "open", "b": Sensitive({"k": "s3cret", "n": 42})})
    ['s3cret', '42']
    """
    found: list[str] = []
    stack: list[tuple[Any, bool]] = [(value, False)]
    while stack:
        current, inside = stack.pop()
        inside = inside or isinstance(current, Sensitive)
        if isinstance(current, (Sensitive, Mapping, list, tuple)):
            stack.extend((child, inside) for child in reversed(list(_children(current))))
        elif inside and isinstance(current, str):
            found.append(current)
        elif inside and isinstance(current, (int, float, Decimal)) and not isinstance(current, bool):
            found.append(str(current))
    return found


def unwrap_sensitive(value: Any, where: str) -> Any:
    """A plain JSON-ready copy of ``value``: Sensitive unwrapped, tuples as lists, Decimals as numbers.

    Raises :class:`TestDefinitionError` naming the JSON location of anything that is not JSON.

    >>> unwrap_sensitive({"a": Sensitive(["x", 1])}, "variables")
    {'a': ['x', 1]}
    >>> unwrap_sensitive({"a": {1, 2}}, "variables")
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: variables["a"]: expected a JSON value (str, number, bool, None, list, dict), got set
    """
    result: list[Any] = [None]
    # (value, where, container, key): iterative, so a deeply nested value cannot hit RecursionError.
    stack: list[tuple[Any, str, Any, Any]] = [(value, where, result, 0)]
    while stack:
        current, at, container, key = stack.pop()
        while isinstance(current, Sensitive):
            current = current.value
        if isinstance(current, Mapping):
            new: dict[str, Any] = {}
            for k, v in current.items():
                if not isinstance(k, str):
                    raise TestDefinitionError(at, f"map keys must be str, got {_type_name(k)} {k!r}")
                new[k] = None
                stack.append((v, f"{at}[{_quote(k)}]", new, k))
            container[key] = new
        elif isinstance(current, (list, tuple)):
            items: list[Any] = [None] * len(current)
            for i, v in enumerate(current):
                stack.append((v, f"{at}[{i}]", items, i))
            container[key] = items
        elif current is None or isinstance(current, (str, bool, int)):
            container[key] = current
        elif isinstance(current, float):
            if current != current or current in (float("inf"), float("-inf")):
                raise TestDefinitionError(at, f"numbers must be finite, got {current!r}")
            container[key] = current
        elif isinstance(current, Decimal):
            if not current.is_finite():
                raise TestDefinitionError(at, f"numbers must be finite, got {current}")
            container[key] = int(current) if current == current.to_integral_value() else float(current)
        else:
            raise TestDefinitionError(
                at, f"expected a JSON value (str, number, bool, None, list, dict), got {_type_name(current)}"
            )
    return result[0]


def _quote(key: str) -> str:
    return '"' + key.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _checks(value: object, where: str, method: str, noun: str) -> tuple[Any, ...]:
    if value is None:
        return ()
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, frozenset, set)) or hasattr(value, method):
        raise TestDefinitionError(where, f"expected a list of {noun}s, got {_type_name(value)}")
    checks = tuple(value)
    for i, check in enumerate(checks):
        if not callable(getattr(check, method, None)):
            raise TestDefinitionError(
                f"{where}[{i}]", f"expected a {noun} (an object with a {method}() method), got {_type_name(check)}"
            )
    return checks


def _version_checks(value: object) -> tuple[Any, ...]:
    where = "TestCase.terraform_version_checks"
    if value is None:
        return ()
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise TestDefinitionError(where, f"expected a list of version checks, got {_type_name(value)}")
    checks = tuple(value)
    for i, check in enumerate(checks):
        if not any(callable(getattr(check, m, None)) for m in ("check_terraform_version", "CheckTerraformVersion")):
            raise TestDefinitionError(
                f"{where}[{i}]",
                f"expected a version check (an object with a check_terraform_version() method), got {_type_name(check)}",
            )
    return checks


@dataclass(frozen=True, slots=True)
class ConfigPlanChecks:
    """Plan checks for the three plans of a step (Go's ``resource.ConfigPlanChecks``).

    * ``pre_apply``: the plan that is about to be applied;
    * ``post_apply_pre_refresh``: the plan made right after apply with ``-refresh=false``;
    * ``post_apply_post_refresh``: the plan made after that, with refresh.

    A plan check is any object with ``check_plan(plan)`` that raises an ``AssertionError``
    (such as :class:`plancheck.PlanCheckError`) when it does not hold.

    >>> class Nothing:
    ...     def check_plan(self, plan): pass
    >>> checks = ConfigPlanChecks(pre_apply=[Nothing()])
    >>> len(checks.pre_apply), checks.post_apply_pre_refresh, bool(checks), bool(ConfigPlanChecks())
    (1, (), True, False)
    """

    pre_apply: Sequence[Any] = ()
    post_apply_pre_refresh: Sequence[Any] = ()
    post_apply_post_refresh: Sequence[Any] = ()

    def __post_init__(self) -> None:
        for name in ("pre_apply", "post_apply_pre_refresh", "post_apply_post_refresh"):
            value = _checks(getattr(self, name), f"ConfigPlanChecks.{name}", "check_plan", "plan check")
            object.__setattr__(self, name, value)

    def __bool__(self) -> bool:
        return bool(self.pre_apply or self.post_apply_pre_refresh or self.post_apply_post_refresh)


def _copy_json_like(value: Any, where: str) -> Any:
    try:
        return copy.deepcopy(value)
    except RecursionError:
        raise TestDefinitionError(where, "nested too deeply to copy") from None


def _coarse_key(value: Any) -> Any:
    """A hashable summary of a config that equal configs always share (so it can back __hash__)."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return ("mapping", tuple(sorted(str(k) for k in value)))
    return type(value).__name__


@dataclass(frozen=True, slots=True, eq=False)
class TestStep:
    """One step of a :class:`TestCase` (Go's ``resource.TestStep`` in config mode).

    Exactly one of:

    * ``config``: HCL text (written as ``main.tf``) or a dict in Terraform's JSON configuration
      syntax (validated, then written as ``main.tf.json``);
    * ``config_directory``: a directory whose files are copied in (``.terraform``, state files
      and lock files excepted).

    Then:

    * ``variables``: values for input variables, written as ``terraform.tfvars.json``; wrap a
      secret in :class:`Sensitive` so it is scrubbed from every message;
    * ``config_plan_checks``, ``config_state_checks``: checks on the plans and on the state
      after apply (any object with ``check_state(state)``, raising an ``AssertionError``);
    * ``plan_only``: skip plan-and-apply; only make the two follow-up plans, which must be
      empty unless ``expect_non_empty_plan``;
    * ``expect_non_empty_plan``: the plans after apply may (and the refreshed one must) show changes;
    * ``expect_error``: a regular expression the step's error must match (searched for, also in
      the output with line wrapping undone); the step must fail;
    * ``pre_config``: a function called before the configuration is written;
    * ``providers``: the providers this step needs, when the case does not give them (see
      :class:`TestCase`); a later step without ``providers`` keeps using them.

    >>> step = TestStep(config='resource "null_resource" "a" {}', variables={"pw": Sensitive("x1y2")})
    >>> step.plan_only, step.variables["pw"], step.expect_error
    (False, Sensitive((sensitive)), None)
    >>> TestStep(config="", expect_error="Unsupported argument").expect_error
    re.compile('Unsupported argument')
    >>> TestStep()
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: TestStep: give exactly one of config= or config_directory=
    """

    __test__: ClassVar[bool] = False

    config: str | Mapping[str, Any] | None = None
    config_directory: str | os.PathLike[str] | None = None
    variables: Mapping[str, Any] = field(default_factory=dict)
    config_plan_checks: ConfigPlanChecks = field(default_factory=ConfigPlanChecks)
    config_state_checks: Sequence[Any] = ()
    plan_only: bool = False
    expect_non_empty_plan: bool = False
    expect_error: str | re.Pattern[str] | None = None
    pre_config: Callable[[], object] | None = None
    providers: Any = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "providers", normalize_providers(self.providers, "TestStep.providers"))
        if (self.config is None) == (self.config_directory is None):
            raise TestDefinitionError("TestStep", "give exactly one of config= or config_directory=")
        if self.config is not None:
            if isinstance(self.config, Mapping):
                object.__setattr__(self, "config", MappingProxyType(_copy_json_like(dict(self.config), "TestStep.config")))
            elif not isinstance(self.config, str):
                raise TestDefinitionError(
                    "TestStep.config", f"expected HCL text (str) or a JSON-syntax dict, got {_type_name(self.config)}"
                )
        if self.config_directory is not None:
            if not isinstance(self.config_directory, (str, os.PathLike)):
                raise TestDefinitionError(
                    "TestStep.config_directory", f"expected a path, got {_type_name(self.config_directory)}"
                )
            object.__setattr__(self, "config_directory", os.fspath(self.config_directory))
        if not isinstance(self.variables, Mapping):
            raise TestDefinitionError("TestStep.variables", f"expected a dict, got {_type_name(self.variables)}")
        for name in self.variables:
            if not isinstance(name, str) or not _IDENTIFIER.match(name):
                raise TestDefinitionError("TestStep.variables", f"{name!r} is not a valid variable name")
        # Validated now, so a bad value fails where the step is written, not steps later.
        unwrap_sensitive(self.variables, "TestStep.variables")
        object.__setattr__(
            self, "variables", MappingProxyType(_copy_json_like(dict(self.variables), "TestStep.variables"))
        )
        if self.config_plan_checks is None:
            object.__setattr__(self, "config_plan_checks", ConfigPlanChecks())
        elif not isinstance(self.config_plan_checks, ConfigPlanChecks):
            raise TestDefinitionError(
                "TestStep.config_plan_checks",
                f"expected ConfigPlanChecks(pre_apply=[...], ...), got {_type_name(self.config_plan_checks)}",
            )
        object.__setattr__(
            self,
            "config_state_checks",
            _checks(self.config_state_checks, "TestStep.config_state_checks", "check_state", "state check"),
        )
        for name in ("plan_only", "expect_non_empty_plan"):
            if not isinstance(getattr(self, name), bool):
                raise TestDefinitionError(f"TestStep.{name}", f"expected a bool, got {_type_name(getattr(self, name))}")
        if self.plan_only and self.config_state_checks:
            raise TestDefinitionError(
                "TestStep.config_state_checks", "a plan_only step applies nothing, so it cannot check the state"
            )
        if self.plan_only and self.config_plan_checks.pre_apply:
            raise TestDefinitionError(
                "TestStep.config_plan_checks.pre_apply",
                "a plan_only step has no pre-apply plan; use post_apply_pre_refresh or post_apply_post_refresh",
            )
        if isinstance(self.expect_error, str):
            try:
                object.__setattr__(self, "expect_error", re.compile(self.expect_error))
            except re.error as exc:
                raise TestDefinitionError("TestStep.expect_error", f"not a valid regular expression: {exc}") from None
        elif self.expect_error is not None and not isinstance(self.expect_error, re.Pattern):
            raise TestDefinitionError(
                "TestStep.expect_error", f"expected a regular expression (str or re.Pattern), got {_type_name(self.expect_error)}"
            )
        if self.pre_config is not None and not callable(self.pre_config):
            raise TestDefinitionError("TestStep.pre_config", f"expected a function, got {_type_name(self.pre_config)}")

    @property
    def secrets(self) -> list[str]:
        """The strings of this step's :class:`Sensitive` variable values.

        >>> TestStep(config="", variables={"a": "open", "b": Sensitive("s3cret")}).secrets
        ['s3cret']
        """
        return sensitive_strings(dict(self.variables))

    def _key(self) -> tuple[Any, ...]:
        config = dict(self.config) if isinstance(self.config, Mapping) else self.config
        return (
            config,
            self.config_directory,
            dict(self.variables),
            self.config_plan_checks,
            self.config_state_checks,
            self.plan_only,
            self.expect_non_empty_plan,
            self.expect_error,
            self.pre_config,
            self.providers,
        )

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TestStep):
            return self._key() == other._key()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(
            (
                _coarse_key(self.config),
                self.config_directory,
                tuple(sorted(self.variables)),
                self.config_plan_checks,
                self.config_state_checks,
                self.plan_only,
                self.expect_non_empty_plan,
                self.expect_error,
                self.pre_config,
                self.providers,
            )
        )


@dataclass(frozen=True, slots=True)
class TestCase:
    """A sequence of :class:`TestStep` run in one working directory, destroyed at the end.

    ``terraform_version_checks`` (Go's ``TerraformVersionChecks``, see :mod:`plancheck.tfversion`)
    run first, before ``pre_check`` and before any file or command: the first error fails the case,
    the first skip reason skips it. ``pre_check`` (Go's ``PreCheck``) is called next; it may ``pytest.skip``.

    >>> from plancheck.tfversion import SkipBelow
    >>> TestCase(steps=[TestStep(config="")], terraform_version_checks=[SkipBelow("1.5.0")]).terraform_version_checks
    (SkipBelow(Version('1.5.0')),)

    ``providers`` (Go's ``ProtoV6ProviderFactories`` and ``ExternalProviders``) are the
    providers under test: ``{address: factory}`` where ``factory()`` returns a ``tf`` provider,
    served in this process for every ``terraform`` command of the case (the ``providers`` extra),
    a :class:`ReattachProvider`, an :class:`ExternalProviders`, or a list of those. Give them
    here or on the steps, not both (as in Go).

    >>> TestCase(steps=[TestStep(config="")], providers={"example.com/acme/widget": dict}).providers
    ProviderSet(['example.com/acme/widget (factory dict)'])

    >>> case = TestCase(steps=[TestStep(config="")])
    >>> len(case.steps), case.pre_check
    (1, None)
    >>> TestCase(steps=[])
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: TestCase.steps: a test case needs at least one step
    """

    __test__: ClassVar[bool] = False

    steps: Sequence[TestStep]
    pre_check: Callable[[], object] | None = None
    providers: Any = None
    terraform_version_checks: Sequence[Any] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "providers", normalize_providers(self.providers, "TestCase.providers"))
        object.__setattr__(self, "terraform_version_checks", _version_checks(self.terraform_version_checks))
        if isinstance(self.steps, (str, bytes, TestStep)) or not isinstance(self.steps, Sequence):
            raise TestDefinitionError("TestCase.steps", f"expected a list of TestStep, got {_type_name(self.steps)}")
        steps = tuple(self.steps)
        if not steps:
            raise TestDefinitionError("TestCase.steps", "a test case needs at least one step")
        for i, step in enumerate(steps):
            if not isinstance(step, TestStep):
                raise TestDefinitionError(f"TestCase.steps[{i}]", f"expected a TestStep, got {_type_name(step)}")
        object.__setattr__(self, "steps", steps)
        if self.providers is not None:
            for i, step in enumerate(steps):
                if step.providers is not None:
                    raise TestDefinitionError(
                        f"TestCase.steps[{i}].providers",
                        "the case already gives providers; give them either on the TestCase or on its steps",
                    )
        if self.pre_check is not None and not callable(self.pre_check):
            raise TestDefinitionError("TestCase.pre_check", f"expected a function, got {_type_name(self.pre_check)}")

    @property
    def secrets(self) -> list[str]:
        """The sensitive variable values of every step.

        >>> TestCase(steps=[TestStep(config="", variables={"p": Sensitive("abc123")})]).secrets
        ['abc123']
        """
        return [s for step in self.steps for s in step.secrets]
