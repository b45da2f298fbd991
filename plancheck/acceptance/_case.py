"""The test definition: :class:`TestCase`, :class:`TestStep`, :class:`ConfigPlanChecks`, :class:`Sensitive`.

These mirror Go's ``resource.TestCase``/``resource.TestStep``: a case is a sequence of steps,
each step a configuration to plan and apply, with checks on the plans and on the state.
They only describe; :class:`~plancheck.acceptance.AcceptanceRunner` runs them.
"""

from __future__ import annotations

import copy
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import KW_ONLY, field, fields
from decimal import Decimal
from types import MappingProxyType
from typing import Any, ClassVar, Final

from .._frozen import FrozenValue, frozen, keyword_hints, public
from .._terraform.providers.factory import normalize_providers
from .._text import reserved_name, variable_name
from ._diagnostics import allowances, check_attribute_sources, expectations
from ._errors import (
    TestDefinitionError,
    check_resource_address,
    quote_key,
    refuse_cycle,
    refuse_oversized,
    refusing_value,
    require_utf8,
    scrubbing_secrets,
    wrapped_strings,
)
from ._options import AdditionalCLIOptions, ImportStateKind
from ._statefiles import InitialState, read_initial_state

__all__ = [
    "ConfigPlanChecks",
    "ImportPlanChecks",
    "RefreshPlanChecks",
    "Sensitive",
    "TestCase",
    "TestStep",
    "sensitive_strings",
    "unwrap_sensitive",
]

def _type_name(value: object) -> str:
    return type(value).__name__


@public("plancheck.acceptance")
@frozen
class Sensitive(FrozenValue):
    """A variable value that is secret: the runner scrubs it from everything it prints.

    Wrap a whole value or any part of one. Its repr never shows the value.

    >>> s = Sensitive("hunter2")
    >>> s
    Sensitive((sensitive))
    >>> s.value, s == Sensitive("hunter2"), hash(s) == hash(Sensitive("hunter2"))
    ('hunter2', True, True)
    """

    #: The wrapped value.
    value: Any

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sensitive):
            return bool(self.value == other.value)
        return NotImplemented

    def __hash__(self) -> int:
        # Coarse but consistent with == (the value may be a list or a dict): equal values always
        # share a type name (bool/int/float aside).
        v = self.value
        return hash(("Sensitive", v if isinstance(v, str) else None))

    def __repr__(self) -> str:
        return "Sensitive((sensitive))"


def sensitive_strings(value: Any) -> list[str]:
    """The strings of every value wrapped in :class:`Sensitive` within ``value``, sorted.

    The wrappers decide which values are secret; their strings are those of the one rule,
    :func:`plancheck._redact.collect_secret_strings`: strings, map keys (Terraform quotes a key in
    its errors: ``element "alice": a number is required``) and every spelling of a number.

    >>> sensitive_strings({"a": "open", "b": Sensitive({"alice": "s3cret", "n": 42})})
    ['42', 'alice', 'n', 's3cret']
    """
    return sorted(wrapped_strings(value, _opened))


def _opened(value: Any) -> Any:
    return value.value if isinstance(value, Sensitive) else value


def unwrap_sensitive(value: Any, where: str) -> Any:
    """A plain JSON-ready copy of ``value``: Sensitive unwrapped, tuples as lists, Decimals kept exact.

    Raises :class:`TestDefinitionError` naming the JSON location of anything that is not JSON, or of a string
    that is no UTF-8 text (a lone surrogate: Terraform reads UTF-8 files). Below a Sensitive, whose keys are as
    secret as its values, a key is named ``"(sensitive)"`` and a key that is no str is not shown. Elsewhere, a key
    that spells a string of any Sensitive in ``value`` is scrubbed of it, as any text shown is.

    >>> unwrap_sensitive({"a": Sensitive(["x", 1])}, "variables")
    {'a': ['x', 1]}
    >>> unwrap_sensitive({"a": {1, 2}}, "variables")
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: variables["a"]: expected a JSON value (str, number, bool, None, list, dict), got set
    >>> unwrap_sensitive({"a": Sensitive({"hunter2": float("nan")})}, "variables")
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: variables["a"]["(sensitive)"]: numbers must be finite, got (sensitive)
    >>> unwrap_sensitive({"pw": Sensitive("s3cret"), "tags": {"s3cret": {1}}}, "variables")
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: variables["tags"]["(sensitive)"]: expected a JSON value (str, number, bool, None, list, dict), got set
    """
    # A cycle is refused first (the walk below would go round it), then a value too large to write; wherever refused,
    # the location is scrubbed. A container held in many places is copied once, and the copy shared as it was.
    with refusing_value(value, where, _opened) as scrub:
        refuse_oversized(value, where, _opened)
        copies: dict[int, Any] = {}
        result: list[Any] = [None]
        # (value, where, container, key, below a Sensitive): iterative, so a deeply nested value cannot hit RecursionError.
        stack: list[tuple[Any, str, Any, Any, bool]] = [(value, where, result, 0, False)]
        while stack:
            current, at, container, key, hidden = stack.pop()
            while isinstance(current, Sensitive):
                current, hidden = current.value, True
            if id(current) in copies:
                container[key] = copies[id(current)]
            elif isinstance(current, Mapping):
                new: dict[str, Any] = {}
                copies[id(current)] = new
                for k, v in current.items():
                    if not isinstance(k, str):
                        shown = "" if hidden else f" {scrub(repr(k))}"  # a repr is no location: scrubbed here
                        raise TestDefinitionError(at, f"map keys must be str, got {_type_name(k)}{shown}")
                    require_utf8(k, at, secret=hidden)
                    new[k] = None
                    stack.append((v, f'{at}["(sensitive)"]' if hidden else f"{at}[{quote_key(k)}]", new, k, hidden))
                container[key] = new
            elif isinstance(current, (list, tuple)):
                items: list[Any] = [None] * len(current)
                copies[id(current)] = items
                for i, v in enumerate(current):
                    stack.append((v, f"{at}[{i}]", items, i, hidden))
                container[key] = items
            elif current is None or isinstance(current, (str, bool, int)):
                if isinstance(current, str):
                    require_utf8(current, at, secret=hidden)
                container[key] = current
            elif isinstance(current, float):
                if current != current or current in (float("inf"), float("-inf")):
                    raise TestDefinitionError(at, f"numbers must be finite, got {current!r}")
                container[key] = current
            elif isinstance(current, Decimal):
                if not current.is_finite():
                    raise TestDefinitionError(at, f"numbers must be finite, got {current}")
                container[key] = current  # kept exact: a float would round it
            else:
                raise TestDefinitionError(
                    at, f"expected a JSON value (str, number, bool, None, list, dict), got {_type_name(current)}"
                )
        return result[0]


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


def _query_checks(value: object) -> tuple[Any, ...]:
    if value is None or value == ():
        return ()
    # Imported here: only a step with query checks needs the query document model.
    from ..querycheck import QueryResultCheck

    where = "TestStep.query_result_checks"
    if isinstance(value, (str, bytes, QueryResultCheck)) or not isinstance(value, (Sequence, frozenset, set)):
        raise TestDefinitionError(where, f"expected a list of query checks, got {_type_name(value)}")
    checks = tuple(value)
    for i, check in enumerate(checks):
        if not isinstance(check, QueryResultCheck):
            raise TestDefinitionError(
                f"{where}[{i}]",
                f"expected a query check (a plancheck.querycheck.QueryResultCheck, e.g. ExpectLength), got {_type_name(check)}",
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


@frozen
class _PlanChecks(FrozenValue):
    """What Go's three groups of plan checks share: each field is a list of plan checks for one plan of
    the step, checked when the group is built; a group is true when any of its lists holds a check."""

    def __post_init__(self) -> None:
        for phase in fields(self):
            where = f"{type(self).__name__}.{phase.name}"
            object.__setattr__(self, phase.name, _checks(getattr(self, phase.name), where, "CheckPlan", "plan check"))

    def __bool__(self) -> bool:
        return any(getattr(self, phase.name) for phase in fields(self))


@public("plancheck.acceptance")
@keyword_hints()
@frozen
class ConfigPlanChecks(_PlanChecks):
    """Plan checks for the three plans of a step (Go's ``resource.ConfigPlanChecks``).

    * ``pre_apply``: the plan that is about to be applied;
    * ``post_apply_pre_refresh``: the plan made right after apply with ``-refresh=false``;
    * ``post_apply_post_refresh``: the plan made after that, with refresh.

    A plan check is any object with ``CheckPlan(plan)`` that raises an ``AssertionError``
    (such as :class:`plancheck.PlanCheckError`) when it does not hold.

    >>> class Nothing:
    ...     def CheckPlan(self, plan): pass
    >>> checks = ConfigPlanChecks(pre_apply=[Nothing()])
    >>> len(checks.pre_apply), checks.post_apply_pre_refresh, bool(checks), bool(ConfigPlanChecks())
    (1, (), True, False)
    """

    _: KW_ONLY  # Go's struct literal is keyed: so are the arguments, and the repr names each one
    pre_apply: Sequence[Any] = ()
    post_apply_pre_refresh: Sequence[Any] = ()
    post_apply_post_refresh: Sequence[Any] = ()


@public("plancheck.acceptance")
@keyword_hints()
@frozen
class RefreshPlanChecks(_PlanChecks):
    """Plan checks of a ``refresh_state`` step (Go's ``resource.RefreshPlanChecks``).

    * ``post_refresh``: the plan made right after ``terraform refresh``.

    >>> from plancheck import ExpectEmptyPlan
    >>> RefreshPlanChecks(post_refresh=[ExpectEmptyPlan()])
    RefreshPlanChecks(post_refresh=(ExpectEmptyPlan(),))
    """

    _: KW_ONLY
    post_refresh: Sequence[Any] = ()


@public("plancheck.acceptance")
@keyword_hints()
@frozen
class ImportPlanChecks(_PlanChecks):
    """Plan checks of an ``import_state`` step with an import block (Go's ``resource.ImportPlanChecks``).

    * ``pre_apply``: the plan that imports the resource (``ImportBlockWithID`` and
      ``ImportBlockWithResourceIdentity`` only; the ``terraform import`` command makes no plan).

    >>> from plancheck import ExpectEmptyPlan
    >>> bool(ImportPlanChecks()), bool(ImportPlanChecks(pre_apply=[ExpectEmptyPlan()]))
    (False, True)
    """

    _: KW_ONLY
    pre_apply: Sequence[Any] = ()


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


_CONFIG_SOURCES: tuple[str, ...] = ("config", "config_directory", "config_file")
#: Fields of an import step only, with their defaults.
_IMPORT_FIELDS: tuple[str, ...] = (
    "import_state_id",
    "import_state_id_func",
    "import_state_id_prefix",
    "import_state_check",
    "import_state_verify",
    "import_state_verify_ignore",
    "import_state_verify_identifier_attribute",
    "import_state_persist",
    "import_state_config_exact",
)


def _differs(step: Any, name: str) -> bool:
    """Whether the field ``name`` of ``step`` is not at its default."""
    default = next(f.default for f in fields(step) if f.name == name)
    return bool(getattr(step, name) != default)


def _function(value: object, where: str) -> None:
    if value is not None and not callable(value):
        raise TestDefinitionError(where, f"expected a function, got {_type_name(value)}")


def _strings(value: object, where: str, nouns: str) -> tuple[str, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, set, frozenset)):
        raise TestDefinitionError(where, f"expected a list of {nouns}, got {_type_name(value)}")
    items = tuple(value)
    for i, item in enumerate(items):
        if not isinstance(item, str) or not item:
            raise TestDefinitionError(f"{where}[{i}]", f"expected a non-empty str, got {item!r}")
    return items


def _addresses(value: object, where: str) -> tuple[str, ...]:
    items = _strings(value, where, "resource addresses")
    for i, item in enumerate(items):
        check_resource_address(item, f"{where}[{i}]")
    return items


#: The Go ``TestCase``/``TestStep`` fields whose Python keyword is not their snake_case, "" where there is none
#: (the porting guide's tables list every field): ``TestStep(ConfigVariables=...)`` is refused with
#: "did you mean variables=?", ``TestStep(GenerateConfig=...)`` naming no look-alike.
GO_RENAMED: Final = {
    "ConfigVariables": "variables",
    "DefaultWorkspaceOnly": "",
    "ExternalProviders": "providers",
    "GenerateConfig": "",
    "IDRefreshIgnore": "",
    "IDRefreshName": "",
    "IsUnitTest": "",
    "ProtoV5ProviderFactories": "providers",
    "ProtoV6ProviderFactories": "providers",
    "ProviderFactories": "",
    "Providers": "",
    "StateStore": "",
    "VerifyStateStoreLock": "",
}


@public("plancheck.acceptance")
@keyword_hints(**GO_RENAMED)
@frozen
class TestStep(FrozenValue):
    """One step of a :class:`TestCase` (Go's ``resource.TestStep``).

    A step is in one of three modes. **Config mode** (the default) plans and applies a
    configuration given by at most one of:

    * ``config``: HCL text (written as ``main.tf``), a dict in Terraform's JSON configuration
      syntax (validated, then written as ``main.tf.json``), or a function of a
      :class:`~plancheck.acceptance.config.TestStepConfigRequest` returning either;
    * ``config_directory``: a directory whose files are copied in (``.terraform``, state files
      and lock files excepted), or a config function returning one (see :mod:`plancheck.acceptance.config`);
    * ``config_file``: one file copied in, or a config function returning one.

    **Import mode** (``import_state=True``, see "Import steps" in docs/guides/acceptance-tests.md) imports
    ``resource_name`` in a separate working directory and compares; **refresh mode**
    (``refresh_state=True``) runs ``terraform refresh`` and a plan; **query mode**
    (``query=True``, Terraform 1.14 or later) writes ``config`` (HCL text, or a config function
    returning it) as ``main.tfquery.hcl`` beside the last config-mode step's configuration, runs
    ``terraform query -json`` and checks its results with ``query_result_checks`` (see
    :mod:`plancheck.querycheck`).

    Then:

    * ``variables``: values for input variables, written as ``terraform.tfvars.json``; wrap a
      secret in :class:`Sensitive` so it is scrubbed from every message;
    * ``config_plan_checks``, ``config_state_checks``: checks on the plans and on the state
      after apply (any object with ``CheckState(state)``, raising an ``AssertionError``);
    * ``check``: a function of the state after apply (a :class:`plancheck.State`), Go's
      ``Check``; it fails by raising ``AssertionError`` or returning an exception;
    * ``plan_only``: skip plan-and-apply; only make the two follow-up plans, which must be
      empty unless ``expect_non_empty_plan``;
    * ``destroy``: plan with ``-destroy`` and apply that; ``check`` then sees the state before;
    * ``taint``: addresses to ``terraform taint`` before the step;
    * ``expect_non_empty_plan``: the plans after apply may (and the refreshed one must) show changes;
    * ``expect_error``: a regular expression the step's error must match (searched for, also in
      the output with line wrapping undone); the step must fail;
    * ``expect_diagnostics``: :class:`ExpectDiagnostic` values (or dicts of their arguments)
      matched against the diagnostics Terraform reports in its JSON output; each must be met by
      one. An expected error that arrives makes the step pass (as ``expect_error``); expected
      warnings must arrive in a step that otherwise succeeds. ``allow_warnings``: the warnings a
      case with ``fail_on_warnings=True`` lets this step report (:class:`ExpectDiagnostic` of a
      warning, or a summary: ``str`` exact, ``re.Pattern`` searched). Either one makes the step's
      ``plan``, ``apply`` and ``refresh`` run with ``-json`` (and a ``validate -json`` run first);
      config- and refresh-mode steps only;
    * ``pre_config``: a function called before the configuration is written; ``skip_func``:
      a function called next; when it returns ``True`` the step is skipped (it must return a ``bool``:
      Go's ``(bool, error)`` is the bool here, and the error is raised); ``post_apply_func``:
      a function called after the step's plans and checks;
    * ``providers``: the providers this step needs, when the case does not give them (see
      :class:`TestCase`); a later step without ``providers`` keeps using them.

    >>> step = TestStep(config='resource "null_resource" "a" {}', variables={"pw": Sensitive("x1y2")})
    >>> step.plan_only, step.variables["pw"], step.expect_error
    (False, Sensitive((sensitive)), None)
    >>> TestStep(config="", expect_error="Unsupported argument").expect_error
    re.compile('Unsupported argument')
    >>> TestStep(import_state=True, resource_name="widget_thing.t", import_state_verify=True).import_state_kind
    <ImportStateKind.ImportCommandWithID>
    >>> TestStep(config="", expect_diagnostics=[{"severity": "warning", "summary": "Attribute deprecated"}]).expect_diagnostics
    (ExpectDiagnostic('warning', summary='Attribute deprecated'),)
    >>> from plancheck.querycheck import ExpectLength
    >>> TestStep(query=True, config='list "concept_pet" "pets" { provider = concept }',
    ...          query_result_checks=[ExpectLength("concept_pet.pets", 3)]).query_result_checks
    (ExpectLength('concept_pet.pets', 3),)
    >>> TestStep()
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: TestStep: missing config=, config_directory=, config_file=, import_state=True or refresh_state=True
    """

    __test__: ClassVar[bool] = False

    _: KW_ONLY
    config: str | Mapping[str, Any] | Callable[[Any], Any] | None = None
    config_directory: str | os.PathLike[str] | Callable[[Any], Any] | None = None
    variables: Mapping[str, Any] = field(default_factory=dict)
    config_plan_checks: ConfigPlanChecks = field(default_factory=ConfigPlanChecks)
    config_state_checks: Sequence[Any] = ()
    plan_only: bool = False
    expect_non_empty_plan: bool = False
    expect_error: str | re.Pattern[str] | None = None
    pre_config: Callable[[], object] | None = None
    providers: Any = None
    config_file: str | os.PathLike[str] | Callable[[Any], Any] | None = None
    check: Callable[[Any], object] | None = None
    destroy: bool = False
    taint: Sequence[str] = ()
    skip_func: Callable[[], object] | None = None
    post_apply_func: Callable[[], object] | None = None
    prevent_disk_cleanup: bool = False
    prevent_post_destroy_refresh: bool = False
    additional_cli_options: AdditionalCLIOptions | None = None
    refresh_state: bool = False
    refresh_plan_checks: RefreshPlanChecks = field(default_factory=RefreshPlanChecks)
    import_state: bool = False
    resource_name: str | None = None
    import_state_kind: ImportStateKind = ImportStateKind.ImportCommandWithID
    import_state_id: str | None = None
    import_state_id_func: Callable[[Any], str] | None = None
    import_state_id_prefix: str = ""
    import_state_check: Callable[[Any], object] | None = None
    import_plan_checks: ImportPlanChecks = field(default_factory=ImportPlanChecks)
    import_state_verify: bool = False
    import_state_verify_ignore: Sequence[str] = ()
    import_state_verify_identifier_attribute: str = "id"
    import_state_persist: bool = False
    import_state_config_exact: bool = False
    query: bool = False
    query_result_checks: Sequence[Any] = ()
    expect_diagnostics: Sequence[Any] = ()
    allow_warnings: Sequence[Any] = ()

    def __post_init__(self) -> None:
        # The one rule: a string a Sensitive wraps in the variables is a secret wherever it stands, in a plain key of
        # the config or the variables, a variable's name or an address, as in every message of the step's run.
        with scrubbing_secrets(self.variables, [f"TestStep.{f.name}" for f in fields(self)], _opened):
            self._validate()

    def _validate(self) -> None:
        object.__setattr__(self, "providers", normalize_providers(self.providers, "TestStep.providers"))
        self._check_flags()
        self._check_query()
        self._check_config_source()
        self._check_variables()
        self._check_plan_checks()
        self._check_expect_error()
        for name in ("pre_config", "check", "skip_func", "post_apply_func"):
            _function(getattr(self, name), f"TestStep.{name}")
        object.__setattr__(self, "taint", _addresses(self.taint, "TestStep.taint"))
        if self.additional_cli_options is not None and not isinstance(self.additional_cli_options, AdditionalCLIOptions):
            raise TestDefinitionError(
                "TestStep.additional_cli_options",
                f"expected AdditionalCLIOptions(...), got {_type_name(self.additional_cli_options)}",
            )
        self._check_modes()
        self._check_import()
        self._check_diagnostics()

    def _check_diagnostics(self) -> None:
        for name, read in (("expect_diagnostics", expectations), ("allow_warnings", allowances)):
            value = read(getattr(self, name), f"TestStep.{name}")
            object.__setattr__(self, name, value)
            mode = "import_state" if self.import_state else "query" if self.query else None
            if value and mode is not None:
                why = "terraform import has no JSON output" if mode == "import_state" else "check its diagnostics with expect_error"
                article = "an" if mode == "import_state" else "a"
                raise TestDefinitionError(f"TestStep.{name}", f"not used by {article} {mode}=True step ({why})")

    def _check_flags(self) -> None:
        for name in (
            "plan_only",
            "expect_non_empty_plan",
            "destroy",
            "prevent_disk_cleanup",
            "prevent_post_destroy_refresh",
            "refresh_state",
            "import_state",
            "import_state_verify",
            "import_state_persist",
            "import_state_config_exact",
            "query",
        ):
            if not isinstance(getattr(self, name), bool):
                raise TestDefinitionError(f"TestStep.{name}", f"expected a bool, got {_type_name(getattr(self, name))}")

    def _check_query(self) -> None:
        object.__setattr__(self, "query_result_checks", _query_checks(self.query_result_checks))
        if not self.query:
            if self.query_result_checks:
                raise TestDefinitionError("TestStep.query_result_checks", "only for a query=True step")
            return
        for name in ("import_state", "refresh_state"):
            if getattr(self, name):
                raise TestDefinitionError("TestStep.query", f"cannot be combined with {name}=True")
        for name in ("config_directory", "config_file"):
            if getattr(self, name) is not None:
                raise TestDefinitionError(
                    f"TestStep.{name}", "not supported by a query=True step: give the .tfquery.hcl text as config= (as Go)"
                )
        if self.config is None:
            raise TestDefinitionError("TestStep.config", "a query=True step needs config= (the text of its .tfquery.hcl file)")
        if not isinstance(self.config, str) and not callable(self.config):
            raise TestDefinitionError(
                "TestStep.config",
                f"a query=True step takes the .tfquery.hcl text (str) or a config function, got {_type_name(self.config)}",
            )

    def _check_config_source(self) -> None:
        given = [name for name in _CONFIG_SOURCES if getattr(self, name) is not None]
        if len(given) > 1:
            raise TestDefinitionError("TestStep", "give only one of config=, config_directory= or config_file=")
        if not given and not self.import_state and not self.refresh_state:
            raise TestDefinitionError(
                "TestStep", "missing config=, config_directory=, config_file=, import_state=True or refresh_state=True"
            )
        if isinstance(self.config, str):
            require_utf8(self.config, "TestStep.config")
        elif isinstance(self.config, Mapping):
            # Copied whole, it would go round every walk. A location names a block's type and up to two labels (or
            # one label and an argument): a key deeper down may be one of a sensitive variable's default, a sensitive
            # output's value or a literal given to a child's sensitive variable.
            refuse_cycle(self.config, "TestStep.config", lambda v: v, shown_keys=3)
            refuse_oversized(self.config, "TestStep.config", lambda v: v)
            object.__setattr__(self, "config", MappingProxyType(_copy_json_like(dict(self.config), "TestStep.config")))
        elif self.config is not None and not isinstance(self.config, str) and not callable(self.config):
            raise TestDefinitionError(
                "TestStep.config",
                f"expected HCL text (str), a JSON-syntax dict or a config function, got {_type_name(self.config)}",
            )
        for name in ("config_directory", "config_file"):
            value = getattr(self, name)
            if value is None or callable(value):
                continue
            if not isinstance(value, (str, os.PathLike)):
                raise TestDefinitionError(f"TestStep.{name}", f"expected a path or a config function, got {_type_name(value)}")
            object.__setattr__(self, name, os.fspath(value))

    def _check_variables(self) -> None:
        if not isinstance(self.variables, Mapping):
            raise TestDefinitionError("TestStep.variables", f"expected a dict, got {_type_name(self.variables)}")
        # Terraform's rule for a variable block, in the root module as in any (1.0.3 and 1.11.4 refuse count).
        for name in self.variables:
            if not variable_name(name):
                problem = reserved_name(name) or "is not a valid variable name"
                raise TestDefinitionError("TestStep.variables", f"{name!r} {problem}")
        # Validated now, so a bad value fails where the step is written, not steps later.
        unwrap_sensitive(self.variables, "TestStep.variables")
        variables = MappingProxyType(_copy_json_like(dict(self.variables), "TestStep.variables"))
        object.__setattr__(self, "variables", variables)

    def _check_plan_checks(self) -> None:
        for name, kind, argument in (
            ("config_plan_checks", ConfigPlanChecks, "pre_apply"),
            ("refresh_plan_checks", RefreshPlanChecks, "post_refresh"),
            ("import_plan_checks", ImportPlanChecks, "pre_apply"),
        ):
            value = getattr(self, name)
            if value is None:
                object.__setattr__(self, name, kind())
            elif not isinstance(value, kind):
                raise TestDefinitionError(
                    f"TestStep.{name}", f"expected {kind.__name__}({argument}=[...], ...), got {_type_name(value)}"
                )
        object.__setattr__(
            self,
            "config_state_checks",
            _checks(self.config_state_checks, "TestStep.config_state_checks", "CheckState", "state check"),
        )
        if self.plan_only and self.config_state_checks:
            raise TestDefinitionError(
                "TestStep.config_state_checks", "a plan_only step applies nothing, so it cannot check the state"
            )
        if self.plan_only and self.config_plan_checks.pre_apply:
            raise TestDefinitionError(
                "TestStep.config_plan_checks.pre_apply",
                "a plan_only step has no pre-apply plan; use post_apply_pre_refresh or post_apply_post_refresh",
            )

    def _check_expect_error(self) -> None:
        if isinstance(self.expect_error, str):
            try:
                object.__setattr__(self, "expect_error", re.compile(self.expect_error))
            except re.error as exc:
                raise TestDefinitionError("TestStep.expect_error", f"not a valid regular expression: {exc}") from None
        elif self.expect_error is not None and not isinstance(self.expect_error, re.Pattern):
            raise TestDefinitionError(
                "TestStep.expect_error", f"expected a regular expression (str or re.Pattern), got {_type_name(self.expect_error)}"
            )

    def _check_modes(self) -> None:
        has_config = any(getattr(self, name) is not None for name in _CONFIG_SOURCES)
        if self.refresh_state and has_config:
            raise TestDefinitionError(
                "TestStep.refresh_state", "cannot be combined with config=, config_directory= or config_file="
            )
        if self.refresh_state and self.destroy:
            raise TestDefinitionError("TestStep.refresh_state", "cannot be combined with destroy=True")
        if self.import_state and self.refresh_state:
            raise TestDefinitionError("TestStep.import_state", "cannot be combined with refresh_state=True")
        if self.refresh_plan_checks and not self.refresh_state:
            raise TestDefinitionError("TestStep.refresh_plan_checks", "only for a refresh_state=True step")
        if self.import_state or self.refresh_state:
            mode = "import_state" if self.import_state else "refresh_state"
            for name in ("config_plan_checks", "config_state_checks", "plan_only", "destroy", "taint", "post_apply_func"):
                if getattr(self, name):
                    raise TestDefinitionError(f"TestStep.{name}", f"not used by a {mode}=True step")
        if self.query:
            for name in (
                "config_plan_checks",
                "config_state_checks",
                "plan_only",
                "destroy",
                "taint",
                "post_apply_func",
                "check",
                "expect_non_empty_plan",
                "additional_cli_options",
            ):
                if getattr(self, name):
                    raise TestDefinitionError(f"TestStep.{name}", "not used by a query=True step")
        if self.import_state and self.check is not None:
            raise TestDefinitionError("TestStep.check", "not used by an import_state=True step; use import_state_check")

    def _check_import(self) -> None:
        if not isinstance(self.import_state_kind, ImportStateKind):
            raise TestDefinitionError(
                "TestStep.import_state_kind",
                f"expected an ImportStateKind (e.g. ImportStateKind.ImportBlockWithID), got {self.import_state_kind!r}",
            )
        for name in ("import_state_id", "resource_name"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise TestDefinitionError(f"TestStep.{name}", f"expected a str, got {_type_name(value)}")
        for name in ("import_state_id_prefix", "import_state_verify_identifier_attribute"):
            if not isinstance(getattr(self, name), str):
                raise TestDefinitionError(f"TestStep.{name}", f"expected a str, got {_type_name(getattr(self, name))}")
        for name in ("import_state_id", "resource_name", "import_state_id_prefix"):
            if getattr(self, name) is not None:
                require_utf8(getattr(self, name), f"TestStep.{name}")  # a command-line argument, or an import block's
        if not self.import_state_verify_identifier_attribute:
            raise TestDefinitionError("TestStep.import_state_verify_identifier_attribute", "must not be empty")
        for name in ("import_state_id_func", "import_state_check"):
            _function(getattr(self, name), f"TestStep.{name}")
        object.__setattr__(
            self,
            "import_state_verify_ignore",
            _strings(self.import_state_verify_ignore, "TestStep.import_state_verify_ignore", "attribute prefixes"),
        )
        if not self.import_state:
            extra = [name for name in _IMPORT_FIELDS if _differs(self, name)]
            if self.import_state_kind is not ImportStateKind.ImportCommandWithID:
                extra.insert(0, "import_state_kind")
            if self.import_plan_checks:
                extra.append("import_plan_checks")
            if extra:
                raise TestDefinitionError(f"TestStep.{extra[0]}", "only for an import_state=True step")
            return
        if not self.resource_name:
            raise TestDefinitionError("TestStep.resource_name", "an import_state step needs the address of the resource to import")
        check_resource_address(self.resource_name, "TestStep.resource_name")
        kind = self.import_state_kind
        if kind.plannable:
            where = f"not supported with plannable import blocks (import_state_kind={kind.name})"
            if self.import_state_persist:
                raise TestDefinitionError("TestStep.import_state_persist", where)
            if self.import_state_verify:
                raise TestDefinitionError("TestStep.import_state_verify", where)
        elif self.import_plan_checks:
            raise TestDefinitionError(
                "TestStep.import_plan_checks", "the terraform import command makes no plan: use an import block kind"
            )

    @property
    def secrets(self) -> list[str]:
        """The strings of this step's :class:`Sensitive` variable values.

        >>> TestStep(config="", variables={"a": "open", "b": Sensitive("s3cret")}).secrets
        ['s3cret']
        """
        return sensitive_strings(dict(self.variables))

    def _key(self) -> tuple[Any, ...]:
        values = []
        for f in fields(self):
            value = getattr(self, f.name)
            values.append(dict(value) if isinstance(value, Mapping) else value)
        return tuple(values)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TestStep):
            return self._key() == other._key()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(
            (
                _coarse_key(self.config),
                self.config_directory if not callable(self.config_directory) else "function",
                tuple(sorted(self.variables)),
                self.plan_only,
                self.expect_non_empty_plan,
                self.import_state,
                self.refresh_state,
                self.resource_name,
                self.query,
            )
        )


@public("plancheck.acceptance")
@keyword_hints(**GO_RENAMED)
@frozen
class TestCase(FrozenValue):
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

    More of Go's fields:

    * ``check_destroy``: a function called after the post-test destroy with the state as it was
      just before it (a :class:`plancheck.State`), to make sure the resources are gone;
    * ``error_check``: a function of each step's :class:`AcceptanceError` (steps without
      ``expect_error``); it returns the error to fail with, or ``None`` to let the step pass
      (or it skips the test);
    * ``working_dir``: run in this directory instead of one under the runner's ``work_dir``;
    * ``prevent_post_destroy_refresh``: the refreshed plan after a ``destroy`` step is made with
      ``-refresh=false`` (as the step's own flag);
    * ``additional_cli_options``: extra arguments for every plan and apply.

    ``fail_on_warnings=True`` fails a step at the first command reporting a warning that the step
    neither expects (``expect_diagnostics``) nor allows (``allow_warnings``); its config- and
    refresh-mode steps run ``plan``, ``apply`` and ``refresh`` with ``-json`` (see :class:`TestStep`).

    Beyond Go, ``initial_state`` starts the case from a recorded state (upgrade tests): a state
    file as Terraform writes it (format 4, e.g. from ``terraform state pull``), by path or as a
    dict. It is checked now (every problem located) and written into the case's directory before
    the first step, so the first plan runs the provider's ``UpgradeResourceState``; a resource the
    first step's configuration lacks fails that step by name. Plan with
    ``AdditionalCLIOptions(plan=PlanOptions(no_refresh=True))`` to run such a test offline.

    >>> TestCase(steps=[TestStep(config="")], initial_state={"version": 3})
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: TestCase.initial_state["version"]: state format version 3 is written by Terraform 0.11 and older, which no supported Terraform reads; upgrade it with Terraform 0.12 to 0.14 first (format 4)

    >>> case = TestCase(steps=[TestStep(config="")])
    >>> len(case.steps), case.pre_check, case.check_destroy
    (1, None, None)
    >>> TestCase(steps=[])
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: TestCase.steps: a test case needs at least one step
    """

    __test__: ClassVar[bool] = False

    steps: Sequence[TestStep]
    _: KW_ONLY
    pre_check: Callable[[], object] | None = None
    providers: Any = None
    terraform_version_checks: Sequence[Any] = ()
    check_destroy: Callable[[Any], object] | None = None
    error_check: Callable[[Any], BaseException | None] | None = None
    working_dir: str | os.PathLike[str] | None = None
    prevent_post_destroy_refresh: bool = False
    additional_cli_options: AdditionalCLIOptions | None = None
    initial_state: Any = None
    fail_on_warnings: bool = False

    def __post_init__(self) -> None:
        # A key or a path the case names may spell a string its steps wrap: scrubbed of those too.
        steps = self.steps if isinstance(self.steps, (list, tuple)) else ()
        variables = [step.variables for step in steps if isinstance(step, TestStep)]
        with scrubbing_secrets(variables, [f"TestCase.{f.name}" for f in fields(self)], _opened):
            self._validate()

    def _validate(self) -> None:
        object.__setattr__(self, "providers", normalize_providers(self.providers, "TestCase.providers"))
        if self.initial_state is not None and not isinstance(self.initial_state, InitialState):
            object.__setattr__(self, "initial_state", read_initial_state(self.initial_state))
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
        if steps[0].refresh_state:
            raise TestDefinitionError("TestCase.steps[0].refresh_state", "a refresh_state step cannot be the first step")
        if self.providers is not None:
            for i, step in enumerate(steps):
                if step.providers is not None:
                    raise TestDefinitionError(
                        f"TestCase.steps[{i}].providers",
                        "the case already gives providers; give them either on the TestCase or on its steps",
                    )
        for name in ("pre_check", "check_destroy", "error_check"):
            _function(getattr(self, name), f"TestCase.{name}")
        if not isinstance(self.prevent_post_destroy_refresh, bool):
            raise TestDefinitionError(
                "TestCase.prevent_post_destroy_refresh", f"expected a bool, got {_type_name(self.prevent_post_destroy_refresh)}"
            )
        if self.working_dir is not None:
            if not isinstance(self.working_dir, (str, os.PathLike)) or not os.fspath(self.working_dir):
                raise TestDefinitionError("TestCase.working_dir", f"expected a directory path, got {self.working_dir!r}")
            object.__setattr__(self, "working_dir", os.fspath(self.working_dir))
        if self.additional_cli_options is not None and not isinstance(self.additional_cli_options, AdditionalCLIOptions):
            raise TestDefinitionError(
                "TestCase.additional_cli_options",
                f"expected AdditionalCLIOptions(...), got {_type_name(self.additional_cli_options)}",
            )
        self._check_diagnostics(steps)

    def _check_diagnostics(self, steps: tuple[TestStep, ...]) -> None:
        if not isinstance(self.fail_on_warnings, bool):
            raise TestDefinitionError("TestCase.fail_on_warnings", f"expected a bool, got {_type_name(self.fail_on_warnings)}")
        if not self.fail_on_warnings:
            for i, step in enumerate(steps):
                if step.allow_warnings:
                    raise TestDefinitionError(
                        f"TestCase.steps[{i}].allow_warnings", "allows warnings only in a TestCase(fail_on_warnings=True)"
                    )
        check_attribute_sources(steps, self.providers)

    @property
    def secrets(self) -> list[str]:
        """The sensitive variable values of every step.

        >>> TestCase(steps=[TestStep(config="", variables={"p": Sensitive("abc123")})]).secrets
        ['abc123']
        """
        initial = list(self.initial_state.secrets) if isinstance(self.initial_state, InitialState) else []
        return initial + [s for step in self.steps for s in step.secrets]
