"""The acceptance-test runner: drives a real Terraform through the steps of a :class:`TestCase`.

Per step (as Go's terraform-plugin-testing does): write the configuration, ``init`` (when the
configuration files changed), ``plan -out``, pre-apply plan checks, ``apply``, state checks,
then a ``-refresh=false`` plan and a refreshed plan, each with its plan checks, each required
to be empty unless the step says ``expect_non_empty_plan``. After the last step, or after a
failure, ``destroy`` runs if anything was ever applied; a failed destroy is an error of its own,
chained to the failure that came before it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import unittest
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path
from typing import Any, Final

from .._documents.sensitive import collect_plan_secrets, collect_state_secrets
from .._documents.state import State, load_state
from .._errors import DocumentFormatError
from .._redact import Secrets
from .._terraform import (
    CommandResult,
    TerraformBinary,
    inspect_binary,
    run_command,
    terraform_environment,
)
from ..querycheck import QueryFormatError, QueryOutput
from ..tfversion import Version, VersionError, run_check
from ._case import TestCase, TestStep
from ._checks import plan_check_failures, state_check_failures
from ._errors import AcceptanceError, Stage, TestDefinitionError
from ._importstate import call_check, import_block, import_block_with_identity, verify_import
from ._plans import planned_changes
from ._providers._errors import ProviderServerError, ProvidersNotInstalledError
from ._providers._session import ProviderSession
from ._query import QUERY_FILE, query_error_messages, query_refusal, query_result_failures
from ._workdir import PLAN_FILE, WorkingDirectory
from .config import TestStepConfigRequest

__all__ = [
    "DEFAULT_TIMEOUT",
    "ENV_PERSIST_WORKING_DIR",
    "ENV_REFRESH_AFTER_APPLY",
    "ENV_TF_ACC",
    "TF_ACC_SKIP_MESSAGE",
    "AcceptanceRunner",
    "tf_acc_set",
]

#: Acceptance tests run only when this is set (to anything but the empty string), as in Go.
ENV_TF_ACC: Final = "TF_ACC"
TF_ACC_SKIP_MESSAGE: Final = f"Acceptance tests skipped unless env '{ENV_TF_ACC}' set"
#: Set (even empty): an ``apply -refresh-only`` after each step, before the next (Go's ``TF_ACC_REFRESH_AFTER_APPLY``).
ENV_REFRESH_AFTER_APPLY: Final = "TF_ACC_REFRESH_AFTER_APPLY"
#: Non-empty: keep the working directories, and a copy after each step (Go's ``TF_ACC_PERSIST_WORKING_DIR``).
ENV_PERSIST_WORKING_DIR: Final = "TF_ACC_PERSIST_WORKING_DIR"


def tf_acc_set(env: Mapping[str, str] | None = None) -> bool:
    """Whether ``TF_ACC`` is set to a non-empty value in ``env`` (default: the process environment).

    >>> tf_acc_set({"TF_ACC": "1"}), tf_acc_set({"TF_ACC": ""}), tf_acc_set({})
    (True, False, False)
    """
    return bool((os.environ if env is None else env).get(ENV_TF_ACC))

DEFAULT_TIMEOUT: Final = 600.0
#: Characters of each output stream kept in an error (the end, where Terraform puts its errors).
MAX_OUTPUT_CHARS: Final = 8000
_BOX_PREFIX: Final = re.compile(r"^[ \t]*[│╷╵][ \t]?", re.MULTILINE)
_SPACES: Final = re.compile(r"\s+")


class _StepFailure(Exception):
    """Internal: a failure with its raw (unredacted) texts, before it becomes an AcceptanceError."""

    def __init__(self, stage: Stage, reason: str, result: CommandResult | None = None) -> None:
        super().__init__(reason)
        self.stage = stage
        self.reason = reason
        self.result = result

    def raw_text(self) -> str:
        parts = [self.reason]
        if self.result is not None:
            parts.extend((self.result.stderr, self.result.stdout))
        return "\n".join(parts)


def _matches(pattern: re.Pattern[str], text: str) -> bool:
    """Search ``text`` as is, and again with Terraform's diagnostic boxes and line wrapping undone."""
    if pattern.search(text):
        return True
    flat = _SPACES.sub(" ", _BOX_PREFIX.sub("", text))
    return pattern.search(flat) is not None


def _tail(text: str) -> str:
    if len(text) <= MAX_OUTPUT_CHARS:
        return text
    cut = len(text) - MAX_OUTPUT_CHARS
    return f"…({cut} earlier characters omitted)\n" + text[cut:]


def _format_output(result: CommandResult, secrets: Secrets) -> str:
    parts: list[str] = []
    for name, text in (("stderr", result.stderr), ("stdout", result.stdout)):
        # Scrub before cutting, so a cut can never leave half a secret behind.
        cleaned = secrets.scrub(text).strip("\n")
        if cleaned.strip():
            parts.append(f"{name}:\n{_tail(cleaned)}")
    return "\n".join(parts)


def _listing(title: str, items: list[str]) -> str:
    """``title:`` then each item on its own lines, indented."""
    lines = [f"{title}:"]
    for item in items:
        lines.extend("  " + line if line else line for line in item.splitlines() or [""])
    return "\n".join(lines)


def _non_empty(stage: Stage, message: str, changes: list[str], result: CommandResult) -> _StepFailure:
    return _StepFailure(stage, _listing(f"{message}; planned changes", changes), result)


def _indent(text: str) -> str:
    return "\n".join("    " + line if line else line for line in text.splitlines())


def _print(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


class AcceptanceRunner:
    """Runs :class:`TestCase` objects against one Terraform (or OpenTofu) binary.

    * ``terraform``: a :class:`~plancheck._terraform.TerraformBinary` or a path to one;
    * ``work_dir``: where each case gets its own directory (``case1``, ``case2``, ...);
    * ``cli_config``: a CLI configuration file to use (``TF_CLI_CONFIG_FILE``), e.g. one that
      installs providers from a filesystem mirror; without it the user's ``TF_CLI_CONFIG_FILE``
      is honoured when that file exists;
    * ``env``: extra environment variables for every command (``TF_LOG``, ``TF_VAR_x``, ...);
    * ``timeout``: seconds each command may take;
    * ``echo``: print each command and its (redacted) output, which pytest shows for failed tests;
    * ``share_secrets``: called with the secrets of each case as they are found (its ``Sensitive``
      variables, then every sensitive value of its plans and states), so that whatever else reports
      on the test scrubs them too (the ``tf_acceptance`` fixture hands them to the pytest plugin);
    * ``test_name``: the name config functions see (``TestNameDirectory()``, ...; see
      :mod:`plancheck.acceptance.config`); ``base_dir``: what relative configuration paths are
      relative to (default: the current directory when a case runs);
    * ``require_tf_acc``: as Go, :meth:`run` skips (``unittest.SkipTest``) unless the ``TF_ACC``
      environment variable is set; ``False`` runs regardless (for scripts; in pytest the
      ``tf_acc_gate`` ini key or ``--no-tf-acc-gate`` do that).

    In pytest, the ``tf_acceptance`` fixture builds one for you.

    >>> runner = AcceptanceRunner(TerraformBinary("/usr/bin/terraform", "1.11.4"), "/tmp/acc")
    >>> runner.terraform.version, runner.work_dir.name, runner.commands
    ('1.11.4', 'acc', ())
    >>> runner
    <AcceptanceRunner: Terraform 1.11.4 (/usr/bin/terraform) in /tmp/acc>
    """

    __slots__ = (
        "_base_dir_arg",
        "_cases",
        "_cli_config",
        "_commands",
        "_echo",
        "_env",
        "_require_tf_acc",
        "_share_secrets",
        "_terraform",
        "_test_name",
        "_timeout",
        "_work_dir",
    )

    def __init__(
        self,
        terraform: TerraformBinary | str | os.PathLike[str],
        work_dir: str | os.PathLike[str],
        *,
        cli_config: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        echo: bool = True,
        share_secrets: Callable[[Secrets], None] | None = None,
        test_name: str | None = None,
        base_dir: str | os.PathLike[str] | None = None,
        require_tf_acc: bool = True,
    ) -> None:
        if test_name is not None and not isinstance(test_name, str):
            raise TestDefinitionError("AcceptanceRunner.test_name", f"expected a str, got {type(test_name).__name__}")
        if not isinstance(require_tf_acc, bool):
            raise TestDefinitionError(
                "AcceptanceRunner.require_tf_acc", f"expected a bool, got {type(require_tf_acc).__name__}"
            )
        self._test_name = test_name
        self._base_dir_arg = None if base_dir is None else Path(base_dir)
        self._require_tf_acc = require_tf_acc
        self._terraform = terraform if isinstance(terraform, TerraformBinary) else inspect_binary(terraform)
        self._work_dir = Path(work_dir)
        self._cli_config = None if cli_config is None else Path(cli_config)
        self._env = dict(env or {})
        if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not timeout > 0:
            raise TestDefinitionError("AcceptanceRunner.timeout", f"expected a positive number of seconds, got {timeout!r}")
        self._timeout = float(timeout)
        self._echo = echo
        self._share_secrets = share_secrets
        self._cases = 0
        self._commands: list[CommandResult] = []

    def __repr__(self) -> str:
        return f"<AcceptanceRunner: {self._terraform} in {self._work_dir}>"

    @property
    def terraform(self) -> TerraformBinary:
        """The binary every command runs."""
        return self._terraform

    @property
    def work_dir(self) -> Path:
        """The directory that holds one subdirectory per case run."""
        return self._work_dir

    @property
    def commands(self) -> tuple[CommandResult, ...]:
        """Every command run so far, with its output redacted."""
        return tuple(self._commands)

    @property
    def test_name(self) -> str | None:
        """The test's name, as config functions see it."""
        return self._test_name

    def run(self, case: TestCase) -> None:
        """Run every step of ``case``, then destroy; raise :class:`AcceptanceError` on the first failure.

        Unless ``TF_ACC`` is set (or the runner was made with ``require_tf_acc=False``) the case is
        skipped: ``unittest.SkipTest("Acceptance tests skipped unless env 'TF_ACC' set")``.
        """
        __tracebackhide__ = True
        if not isinstance(case, TestCase):
            raise TestDefinitionError("AcceptanceRunner.run", f"expected a TestCase, got {type(case).__name__}")
        if self._require_tf_acc and not (tf_acc_set() or tf_acc_set(self._env)):
            raise unittest.SkipTest(TF_ACC_SKIP_MESSAGE)
        # Before anything else (pre_check, files, providers), as Go's TerraformVersionChecks.
        _run_version_checks(case, self._terraform.version)
        self._cases += 1
        root = Path(case.working_dir) if case.working_dir is not None else self._work_dir / f"case{self._cases}"
        _CaseRun(self, case, root).execute()

    def _base_dir(self) -> Path:
        return self._base_dir_arg if self._base_dir_arg is not None else Path.cwd()

    # Used by _CaseRun: kept here so a case run cannot change the runner's settings.
    def _environment(self, root: Path) -> dict[str, str]:
        base = {**os.environ, **self._env}
        fallback = None
        user = base.get("TF_CLI_CONFIG_FILE")
        if self._cli_config is None and user is not None and not os.path.isfile(user):
            # Beside the case directories, not in one: a configuration directory holds only the step's files.
            fallback = self._work_dir / "empty.tfrc"
            fallback.parent.mkdir(parents=True, exist_ok=True)
            fallback.write_text("", encoding="utf-8")
        return terraform_environment(
            base, data_dir=root / ".terraform", cli_config=self._cli_config, fallback_cli_config=fallback
        )


def _run_version_checks(case: TestCase, version: str) -> None:
    """The first error fails the case (AcceptanceError), the first skip raises ``unittest.SkipTest``."""
    __tracebackhide__ = True
    if not case.terraform_version_checks:
        return
    total = len(case.steps)
    try:
        terraform = Version(version)
    except VersionError as exc:
        reason = f"Failed version check: cannot read the Terraform version: {exc.problem}"
        raise AcceptanceError(0, total, Stage.VERSION_CHECKS, reason) from None
    for i, check in enumerate(case.terraform_version_checks):
        where = f"TestCase.terraform_version_checks[{i}]"
        try:
            result = run_check(check, terraform, where)
        except VersionError as exc:
            raise TestDefinitionError(exc.where, exc.problem) from None
        if result.error is not None:
            raise AcceptanceError(0, total, Stage.VERSION_CHECKS, f"Failed version check: {result.error}")
        if result.skip is not None:
            # unittest's own skip: pytest reports it as skipped, and the library needs no pytest.
            raise unittest.SkipTest(result.skip)


class _CaseRun:
    """The mutable progress of one case: kept apart from the runner, discarded when the case ends."""

    def __init__(self, runner: AcceptanceRunner, case: TestCase, root: Path) -> None:
        self.runner = runner
        self.case = case
        self.wd = WorkingDirectory(root)
        self.env = runner._environment(root)
        settings = {**os.environ, **runner._env}
        # Go looks these up itself (os.LookupEnv / os.Getenv), whatever the command environment says.
        self.refresh_after_apply = ENV_REFRESH_AFTER_APPLY in settings
        self.persist = bool(settings.get(ENV_PERSIST_WORKING_DIR))
        self.secrets = Secrets()
        self.add_secrets(Secrets(case.secrets))
        self.total = len(case.steps)
        self.step_no = 0
        self.applied = False
        self.init_digest: str | None = None
        self.current_valid = False
        self.last_valid: TestStep | None = None
        # The configuration of the last config-mode step: what an import step without its own uses (Go's appliedCfg).
        self.applied_config: TestStep | None = None
        self.log: Callable[[str], None] = _print if runner._echo else (lambda _text: None)
        # Raw until the case ends: secrets found later in the case (in a plan, in a state) are scrubbed too.
        self.results: list[CommandResult] = []
        # Started on demand by write(), stopped by execute(): one socket directory per case (xdist-safe).
        self.providers = ProviderSession(platform=runner.terraform.platform, log=self.log)

    def add_secrets(self, found: Secrets) -> None:
        self.secrets = self.secrets | found
        if self.runner._share_secrets is not None and len(found):
            self.runner._share_secrets(found)

    def publish(self) -> None:
        scrub = self.secrets.scrub
        self.runner._commands.extend(replace(r, stdout=scrub(r.stdout), stderr=scrub(r.stderr)) for r in self.results)
        self.results = []

    # -- commands -----------------------------------------------------------------------------

    def tf(self, stage: Stage, *args: str, ok: tuple[int, ...] = (0,), place: _Place | None = None) -> CommandResult:
        binary = self.runner.terraform
        cwd, env = (self.wd.root, self.env) if place is None else (place.wd.root, place.env)
        result = run_command((binary.path, *args), cwd=cwd, env=env, timeout=self.runner._timeout)
        self.results.append(result)
        scrub = self.secrets.scrub
        status = "timed out" if result.timed_out else f"exit code {result.returncode}"
        where = "" if place is None else f" (in {place.wd.root.name})"
        self.log(
            f"[step {self.step_no}/{self.total} {stage.value}] $ {scrub(result.command_line)}{where}  "
            f"({status}, {result.duration:.2f} s)"
        )
        # JSON is not echoed: it can hold secrets not known yet (a query's sensitive list block inputs).
        if args[:2] == ("show", "-json") or args[:1] == ("query",):
            self.log(f"    ({len(result.stdout)} characters of JSON)")
            if result.stderr.strip():
                self.log(_indent(scrub(result.stderr)))
        else:
            for text in (result.stdout, result.stderr):
                if text.strip():
                    self.log(_indent(scrub(text)))
        name = os.path.basename(binary.path)
        if result.timed_out:
            raise _StepFailure(stage, f"{name} {args[0]} timed out after {self.runner._timeout:g} s", result)
        if result.returncode not in ok:
            raise _StepFailure(stage, f"{name} {args[0]} failed", result)
        return result

    def _json(self, stage: Stage, result: CommandResult) -> dict[str, Any]:
        try:
            document = json.loads(result.stdout, parse_float=Decimal)
        except (ValueError, RecursionError) as exc:
            raise _StepFailure(stage, f"show -json printed invalid JSON ({exc})", result) from None
        if not isinstance(document, dict):
            raise _StepFailure(stage, "show -json printed JSON that is not an object", result)
        return document

    def show_plan(self, stage: Stage, place: _Place | None = None) -> dict[str, Any]:
        document = self._json(stage, self.tf(stage, "show", "-json", PLAN_FILE, place=place))
        self.add_secrets(collect_plan_secrets(document))
        return document

    def show_state(self, stage: Stage, place: _Place | None = None) -> dict[str, Any]:
        document = self._json(stage, self.tf(stage, "show", "-json", place=place))
        self.add_secrets(collect_state_secrets(document))
        return document

    def plan(self, stage: Stage, *extra: str, place: _Place | None = None) -> CommandResult:
        args = _unique(("plan", "-input=false", "-no-color", *extra, f"-out={PLAN_FILE}"))
        result = self.tf(stage, *args, ok=(0, 2), place=place)
        if place is None:
            self.current_valid = True
        return result

    def cli_options(self, step: TestStep) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The extra plan and apply arguments of ``step`` (its own options, else the case's)."""
        options = step.additional_cli_options or self.case.additional_cli_options
        if options is None:
            return (), ()
        return options.plan.args(), options.apply.args()

    # -- checks -------------------------------------------------------------------------------

    def check_plan(
        self, stage: Stage, title: str, document: dict[str, Any], checks: tuple[Any, ...], result: CommandResult
    ) -> None:
        try:
            failures = plan_check_failures(document, checks)
        except DocumentFormatError as exc:
            raise _StepFailure(stage, f"cannot read the plan that show -json printed: {exc}", result) from None
        if failures:
            raise _StepFailure(stage, _listing(title, failures), result)

    def load(self, stage: Stage, document: dict[str, Any]) -> State:
        try:
            return load_state(document)
        except DocumentFormatError as exc:
            raise _StepFailure(stage, f"cannot read the state that show -json printed: {exc}") from None

    def run_check(self, stage: Stage, title: str, function: Callable[..., object], *args: Any) -> None:
        failure = call_check(function, *args)
        if failure is not None:
            raise _StepFailure(stage, f"{title}: {failure}")

    def follow_up_plan(
        self, stage: Stage, checks: tuple[Any, ...], title: str, *extra: str
    ) -> tuple[list[str], CommandResult]:
        """Make a plan and run its checks; return its changes (empty when the plan is empty) and the command."""
        result = self.plan(stage, "-detailed-exitcode", *extra)
        # Exit code 0 means Terraform found nothing to change: reading the plan back would only cost time.
        if result.returncode == 0 and not checks:
            return [], result
        document = self.show_plan(stage)
        if checks:
            self.check_plan(stage, title, document, checks, result)
        return planned_changes(document), result

    # -- configuration ------------------------------------------------------------------------

    def resolve(self, step: TestStep) -> TestStep | None:
        """``step`` with its config functions called and relative paths made absolute; None without a configuration."""
        request = TestStepConfigRequest(step_number=self.step_no, test_name=self.runner._test_name or "")
        changes: dict[str, Any] = {}
        try:
            if callable(step.config):
                changes["config"] = step.config(request)
                if not isinstance(changes["config"], (str, Mapping)):
                    raise TestDefinitionError(
                        "TestStep.config",
                        f"the config function returned {type(changes['config']).__name__}, expected HCL text (str) or a dict",
                    )
            for name in ("config_directory", "config_file"):
                value = getattr(step, name)
                if callable(value):
                    value = value(request)
                    if not isinstance(value, (str, os.PathLike)) or not os.fspath(value):
                        raise TestDefinitionError(
                            f"TestStep.{name}", f"the config function returned {value!r}, expected a path"
                        )
                if value is not None:
                    path = Path(value)
                    changes[name] = os.fspath(path if path.is_absolute() else self.runner._base_dir() / path)
            if not changes and step.config is None:
                return None
            return replace(step, **changes)
        except TestDefinitionError as exc:
            raise _StepFailure(Stage.CONFIG, f"cannot write the configuration: {exc}") from None

    def use_providers(self, step: TestStep) -> None:
        try:
            if self.providers.use(step.providers, self.case.providers):
                self.init_digest = None  # the CLI configuration changed: install again
            self.providers.apply_environment(self.env)
        except (ProviderServerError, ProvidersNotInstalledError) as exc:
            raise _StepFailure(Stage.CONFIG, f"cannot serve the providers: {exc}") from None

    def write(self, step: TestStep, extra: Mapping[str, str] | None = None) -> None:
        self.current_valid = False
        self.use_providers(step)
        try:
            digest = self.wd.write_step(self.providers.complete(step), extra)
        except (DocumentFormatError, TestDefinitionError, OSError) as exc:
            raise _StepFailure(Stage.CONFIG, f"cannot write the configuration: {exc}") from None
        # .terraform only changes when init runs: it still fits whatever configuration init last accepted.
        if digest != self.init_digest:
            self.init_digest = None
            self.tf(Stage.INIT, "init", "-input=false", "-no-color")
            self.init_digest = digest

    def restore_valid_config(self) -> None:
        """Write back the last configuration Terraform accepted, when the current one was rejected."""
        if not self.current_valid and self.last_valid is not None:
            self.write(self.last_valid)

    # -- steps --------------------------------------------------------------------------------

    def run_step(self, step: TestStep) -> None:
        resolved = self.resolve(step)
        assert resolved is not None  # a config-mode step always has a configuration (checked by TestStep)
        # As Go: a destroy step taints nothing (it is about to remove everything anyway).
        for address in () if step.destroy else step.taint:
            self.tf(Stage.TAINT, "taint", "-no-color", address)
        self.write(resolved)
        self.applied_config = resolved
        checks = step.config_plan_checks
        plan_args, apply_args = self.cli_options(step)
        destroy = ("-destroy",) if step.destroy else ()
        if not step.plan_only:
            result = self.plan(Stage.PRE_APPLY, *destroy, *plan_args)
            self.last_valid = resolved
            if checks.pre_apply:
                document = self.show_plan(Stage.PRE_APPLY)
                self.check_plan(Stage.PRE_APPLY, "Pre-apply plan check(s) failed", document, tuple(checks.pre_apply), result)
            before: dict[str, Any] | None = None
            if step.check is not None and step.destroy:
                # Go's order: the check of a destroy step sees the refreshed state from before the destroy.
                self.tf(Stage.CHECK, "refresh", "-input=false", "-no-color")
                before = self.show_state(Stage.CHECK)
                self.plan(Stage.PRE_APPLY, "-destroy", *plan_args)
            self.applied = True
            self.tf(Stage.APPLY, "apply", "-input=false", "-no-color", *apply_args, PLAN_FILE)
            if step.check is not None:
                document = before if before is not None else self.show_state(Stage.CHECK)
                self.run_check(Stage.CHECK, "Check failed", step.check, self.load(Stage.CHECK, document))
            if step.config_state_checks:
                state = self.show_state(Stage.STATE_CHECKS)
                try:
                    failures = state_check_failures(state, tuple(step.config_state_checks))
                except DocumentFormatError as exc:
                    raise _StepFailure(Stage.STATE_CHECKS, f"cannot read the state that show -json printed: {exc}") from None
                if failures:
                    raise _StepFailure(Stage.STATE_CHECKS, _listing("Post-apply state check(s) failed", failures))

        after = "" if step.plan_only else "After applying this test step, the "
        stage = Stage.POST_APPLY_PRE_REFRESH
        title = "Non-refresh plan check(s) failed" if step.plan_only else "Post-apply, pre-refresh plan check(s) failed"
        changes, result = self.follow_up_plan(
            stage, tuple(checks.post_apply_pre_refresh), title, "-refresh=false", *destroy, *plan_args
        )
        self.last_valid = resolved
        if changes and not step.expect_non_empty_plan:
            raise _non_empty(stage, (after or "The ") + "non-refresh plan was not empty", changes, result)

        stage = Stage.POST_APPLY_POST_REFRESH
        title = "Refresh plan check(s) failed" if step.plan_only else "Post-apply refresh plan check(s) failed"
        no_refresh = ("-refresh=false",) if step.destroy and self.prevent_post_destroy_refresh(step) else ()
        changes, result = self.follow_up_plan(
            stage, tuple(checks.post_apply_post_refresh), title, *destroy, *no_refresh, *plan_args
        )
        if changes and not step.expect_non_empty_plan:
            raise _non_empty(stage, (after or "The ") + "refresh plan was not empty", changes, result)
        if not changes and step.expect_non_empty_plan:
            raise _StepFailure(stage, "Expected a non-empty plan, but got an empty refresh plan")
        if step.post_apply_func is not None:
            step.post_apply_func()
        self.refresh_if_asked(step)

    def prevent_post_destroy_refresh(self, step: TestStep) -> bool:
        return step.prevent_post_destroy_refresh or self.case.prevent_post_destroy_refresh

    def refresh_if_asked(self, step: TestStep) -> None:
        """``TF_ACC_REFRESH_AFTER_APPLY``: an ``apply -refresh-only`` before the next step (unless that refreshes)."""
        if not self.refresh_after_apply or step.destroy or step.plan_only or step.expect_non_empty_plan:
            return
        if self.step_no >= self.total or self.case.steps[self.step_no].refresh_state:
            return
        self.tf(Stage.REFRESH_AFTER_APPLY, "apply", "-refresh-only", "-auto-approve", "-input=false", "-no-color")

    def run_refresh(self, step: TestStep) -> None:
        """A ``refresh_state`` step (Go's ``testStepNewRefreshState``)."""
        self.use_providers(step)
        self.restore_valid_config()
        self.tf(Stage.REFRESH, "refresh", "-input=false", "-no-color")
        if step.check is not None:
            document = self.show_state(Stage.CHECK)
            self.run_check(Stage.CHECK, "Check failed", step.check, self.load(Stage.CHECK, document))
        changes, result = self.follow_up_plan(
            Stage.POST_REFRESH, tuple(step.refresh_plan_checks.post_refresh), "Post-refresh plan check(s) failed"
        )
        if changes and not step.expect_non_empty_plan:
            raise _non_empty(
                Stage.POST_REFRESH, "After refreshing state during this test step, a followup plan was not empty", changes, result
            )

    def run_import(self, step: TestStep) -> None:
        _ImportStep(self, step).run()

    def run_query(self, step: TestStep) -> None:
        """A ``query`` step (Go's ``testStepNewQuery``): write the query file, init, query, check."""
        refusal = query_refusal(self.runner.terraform)
        if refusal is not None:
            raise _StepFailure(Stage.QUERY, refusal)
        # resolve() builds the step again, so TestStep refuses a config function's dict itself.
        resolved = self.resolve(step)
        assert resolved is not None  # a query step always has config= (checked by TestStep)
        assert isinstance(resolved.config, str)
        text = resolved.config
        # As Go, the last config-mode step's configuration stays (its provider and resource blocks).
        base = self.applied_config if self.applied_config is not None else TestStep(config="")
        base = replace(base, variables=step.variables or base.variables, providers=step.providers)
        # The query file is never a "valid configuration" to go back to: write() leaves current_valid
        # false, so whatever runs next (destroy, refresh, import) writes the last applied one again.
        self.write(base, {QUERY_FILE: text})
        result = self.tf(Stage.QUERY, "query", "-no-color", "-json", ok=(0, 1))
        output = self.read_query(result)
        errors = query_error_messages(output)
        if errors:
            raise _StepFailure(Stage.QUERY, _listing("terraform query reported errors", errors), replace(result, stdout=""))
        if result.returncode != 0:
            raise _StepFailure(Stage.QUERY, "terraform query failed", result)
        failures = query_result_failures(output, tuple(step.query_result_checks))
        if failures:
            raise _StepFailure(Stage.QUERY_RESULT_CHECKS, _listing("Query result check(s) failed", failures))

    def read_query(self, result: CommandResult) -> QueryOutput:
        """The query's JSON lines; its sensitive list block inputs join the case's secrets."""
        try:
            output = QueryOutput.from_json(result.stdout, source="terraform query -json")
        except QueryFormatError as exc:
            # Unreadable, so its sensitive values are unknown: the output is withheld (fail closed).
            withheld = replace(result, stdout="(withheld: the output could not be read, so its secrets are unknown)")
            if self.results and self.results[-1] is result:
                self.results[-1] = withheld
            raise _StepFailure(Stage.QUERY, f"cannot read the output of terraform query -json: {exc}", withheld) from None
        self.add_secrets(output.secrets)
        return output

    def error(self, failure: _StepFailure, suffix: str = "") -> AcceptanceError:
        scrub = self.secrets.scrub
        result = failure.result
        return AcceptanceError(
            self.step_no,
            self.total,
            failure.stage,
            scrub(failure.reason + suffix),
            command=None if result is None else scrub(result.command_line),
            exit_code=None if result is None else result.returncode,
            output="" if result is None else _format_output(result, self.secrets),
        )

    def dispatch(self, step: TestStep) -> None:
        if step.import_state:
            self.run_import(step)
        elif step.refresh_state:
            self.run_refresh(step)
        elif step.query:
            self.run_query(step)
        else:
            self.run_step(step)

    def step(self, step: TestStep) -> None:
        __tracebackhide__ = True
        if step.pre_config is not None:
            step.pre_config()
        if step.skip_func is not None and step.skip_func():
            self.log(f"Skipping step {self.step_no}/{self.total} due to skip_func")
            return
        expected = step.expect_error
        assert expected is None or isinstance(expected, re.Pattern)
        error: AcceptanceError | None = None
        try:
            self.dispatch(step)
        except _StepFailure as failure:
            if expected is None:
                error = self.error(failure)
            elif _matches(expected, failure.raw_text()):
                self.log(f"[step {self.step_no}/{self.total}] the expected error happened (matched {expected.pattern!r})")
                return
            else:
                unmatched = _StepFailure(
                    Stage.EXPECT_ERROR,
                    f"expected an error matching {expected.pattern!r}, but the step failed with another one "
                    f"(in stage {failure.stage.value}): {failure.reason}",
                    failure.result,
                )
                raise self.error(unmatched) from None
        if error is not None:
            self.fail(error)
            return
        if expected is not None:
            raise self.error(
                _StepFailure(Stage.EXPECT_ERROR, f"expected an error matching {expected.pattern!r}, but the step succeeded")
            )

    def fail(self, error: AcceptanceError) -> None:
        """Raise ``error``, or what the case's ``error_check`` makes of it (None: the step passes)."""
        __tracebackhide__ = True
        if self.case.error_check is None:
            raise error
        returned = self.case.error_check(error)
        if returned is None:
            self.log(f"[step {self.step_no}/{self.total}] error_check let the error pass")
            return
        if returned is error:
            raise error
        if isinstance(returned, BaseException):
            raise returned from error
        raise TestDefinitionError(
            "TestCase.error_check", f"expected it to return an exception or None, got {type(returned).__name__}"
        )

    # -- the case -----------------------------------------------------------------------------

    def destroy(self, after_failure: bool) -> AcceptanceError | None:
        if not self.applied:
            return None
        before: dict[str, Any] | None = None
        try:
            self.restore_valid_config()
            if self.case.check_destroy is not None:
                before = self.show_state(Stage.DESTROY)
            self.tf(Stage.DESTROY, "destroy", "-auto-approve", "-input=false", "-no-color", "-refresh=false")
        except _StepFailure as failure:
            failure.stage = Stage.DESTROY
            note = "; resources may be left behind in " + str(self.wd.root)
            if after_failure:
                note += " (the test had already failed: that error is shown above)"
            return self.error(failure, note)
        if self.case.check_destroy is not None and before is not None:
            try:
                state = self.load(Stage.CHECK_DESTROY, before)
                self.run_check(Stage.CHECK_DESTROY, "CheckDestroy failed", self.case.check_destroy, state)
            except _StepFailure as failure:
                return self.error(failure)
        return None

    def keep_step_copy(self) -> None:
        """``TF_ACC_PERSIST_WORKING_DIR``: a copy of the working directory after each step, as Go's ``step_N``."""
        if not self.persist or self.step_no == 0:
            return
        target = self.wd.root.parent / f"{self.wd.root.name}_step_{self.step_no}"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(self.wd.root, target, ignore=shutil.ignore_patterns(".terraform"))
        self.log(f"Working directory and files have been copied to: {target}")

    def execute(self) -> None:
        __tracebackhide__ = True
        failed = True
        try:
            self._execute()
            failed = False
        finally:
            self.publish()
            self.providers.close(after_failure=failed)
            if self.persist:
                self.log(f"{ENV_PERSIST_WORKING_DIR} is set: the working directory is kept in {self.wd.root}")

    def _execute(self) -> None:
        __tracebackhide__ = True
        try:
            if self.case.pre_check is not None:
                self.case.pre_check()
            for number, step in enumerate(self.case.steps, 1):
                self.keep_step_copy()
                self.step_no = number
                self.step(step)
            self.keep_step_copy()
        except BaseException as exc:
            failed_destroy = self.destroy(after_failure=True)
            if failed_destroy is not None:
                if isinstance(exc, AcceptanceError):
                    # Its frames are all the runner's own: without them pytest prints just the message.
                    exc.with_traceback(None)
                raise failed_destroy from exc
            raise
        failed_destroy = self.destroy(after_failure=False)
        if failed_destroy is not None:
            raise failed_destroy


def _unique(args: tuple[str, ...]) -> tuple[str, ...]:
    """``args`` without repeats (``-refresh=false`` may come from the step and from the CLI options)."""
    seen: set[str] = set()
    kept: list[str] = []
    for arg in args:
        if arg not in seen:
            seen.add(arg)
            kept.append(arg)
    return tuple(kept)


@dataclass(frozen=True, slots=True)
class _Place:
    """Another working directory of the case (an import step's), with its own environment."""

    wd: WorkingDirectory
    env: dict[str, str]


#: Go's minimum versions for the import block kinds (``importStatePreconditions``).
_IMPORT_BLOCK_MIN: Final = Version("1.5.0")
_IDENTITY_MIN: Final = Version("1.12.0")
_VERSION_HINT: Final = (
    "Either upgrade the Terraform version running the test or add a `terraform_version_checks` "
    "to the test case to skip this test."
)
IMPORT_BLOCK_FILE: Final = "plancheck_import.tf"


def _root_resources(document: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    values = document.get("values")
    root = values.get("root_module") if isinstance(values, Mapping) else None
    resources = root.get("resources") if isinstance(root, Mapping) else None
    return [r for r in resources if isinstance(r, Mapping)] if isinstance(resources, list) else []


class _ImportStep:
    """An ``import_state`` step (Go's ``testStepNewImportState``): import, then check and verify."""

    def __init__(self, run: _CaseRun, step: TestStep) -> None:
        self.run_ = run
        self.step = step
        self.kind = step.import_state_kind
        assert step.resource_name is not None  # checked by TestStep
        self.address = step.resource_name

    def fail(self, stage: Stage, reason: str, result: CommandResult | None = None) -> _StepFailure:
        return _StepFailure(stage, reason, result)

    def preconditions(self) -> None:
        try:
            version = Version(self.run_.runner.terraform.version)
        except VersionError:
            return  # an unreadable version was already reported by any version check; let Terraform decide
        if self.kind.resource_identity and version < _IDENTITY_MIN:
            raise self.fail(
                Stage.IMPORT,
                f"ImportState steps using resource identity require Terraform 1.12.0 or later "
                f"(this is {version}). {_VERSION_HINT}",
            )
        if self.kind.plannable and version < _IMPORT_BLOCK_MIN:
            raise self.fail(
                Stage.IMPORT,
                f"ImportState steps using plannable import blocks require Terraform 1.5.0 or later "
                f"(this is {version}). {_VERSION_HINT}",
            )

    def import_id(self, state: State) -> str:
        step = self.step
        if step.import_state_id_func is not None:
            try:
                returned = step.import_state_id_func(state)
            except AssertionError as exc:
                raise self.fail(Stage.IMPORT, f"import_state_id_func failed: {exc}") from None
            if isinstance(returned, BaseException):
                raise self.fail(Stage.IMPORT, f"import_state_id_func failed: {returned}")
            if not isinstance(returned, str):
                raise self.fail(
                    Stage.IMPORT, f"import_state_id_func returned {type(returned).__name__}, expected the import id (str)"
                )
            found = returned
        elif step.import_state_id is not None:
            found = step.import_state_id
        else:
            if not state.has_resource(self.address):
                raise self.fail(Stage.IMPORT, f"Not found: {self.address} in the state")
            values = state.resource(self.address).values
            value = values.get("id") if isinstance(values, Mapping) else None
            if not isinstance(value, str) or not value:
                raise self.fail(
                    Stage.IMPORT,
                    f"{self.address} has no id attribute to import by: give import_state_id or import_state_id_func",
                )
            found = value
        return step.import_state_id_prefix + found

    def identity(self, document: Mapping[str, Any]) -> dict[str, Any]:
        resource = next((r for r in _root_resources(document) if r.get("address") == self.address), None)
        identity = resource.get("identity") if resource is not None else None
        if not isinstance(identity, Mapping) or not identity:
            raise self.fail(
                Stage.IMPORT, f"importing resource {self.address}: expected prior state to have resource identity values, got none"
            )
        return dict(identity)

    def configuration(self) -> TestStep:
        run, step = self.run_, self.step
        resolved = run.resolve(step)
        if resolved is not None:
            return resolved
        prior = run.applied_config
        if prior is None:
            raise self.fail(Stage.CONFIG, "Cannot import state with no specified config")
        # The earlier step's configuration, with its variables unless this step gives its own.
        return replace(prior, variables=step.variables or prior.variables)

    def place(self) -> _Place | None:
        """The working directory to import in: None is the case's own (``import_state_persist``)."""
        if self.step.import_state_persist:
            return None
        run = self.run_
        root = run.wd.root.parent / f"{run.wd.root.name}_import_step_{run.step_no}"
        shutil.rmtree(root, ignore_errors=True)
        wd = WorkingDirectory(root)
        return _Place(wd, {**run.env, "TF_DATA_DIR": str(root / ".terraform")})

    def run(self) -> None:
        run, step = self.run_, self.step
        self.preconditions()
        run.use_providers(step)
        run.restore_valid_config()
        document = run.show_state(Stage.IMPORT)
        state = run.load(Stage.IMPORT, document)
        import_id = self.import_id(state)
        identity = self.identity(document) if self.kind.resource_identity else None
        config = self.configuration()
        extra: dict[str, str] = {}
        if self.kind.plannable and not step.import_state_config_exact:
            block = import_block_with_identity(self.address, identity) if identity else import_block(self.address, import_id)
            extra[IMPORT_BLOCK_FILE] = block
        place = self.place()
        try:
            self.prepare(place, config, extra)
            if self.kind.plannable:
                self.plan_import(place, identity)
            else:
                self.import_command(place, import_id, document)
        finally:
            if place is not None:
                self.clean(place)

    def prepare(self, place: _Place | None, config: TestStep, extra: Mapping[str, str]) -> None:
        run = self.run_
        if place is None:
            run.write(config, extra)
            return
        try:
            place.wd.write_step(run.providers.complete(config), extra)
        except (DocumentFormatError, TestDefinitionError, OSError) as exc:
            raise self.fail(Stage.CONFIG, f"cannot write the configuration: {exc}") from None
        state_file = run.wd.root / "terraform.tfstate"
        if self.kind.plannable and run.step_no > 1 and state_file.is_file():
            # As Go: the case's state, minus the resource to import, so the plan imports just that one.
            shutil.copyfile(state_file, place.wd.root / "terraform.tfstate")
        run.tf(Stage.INIT, "init", "-input=false", "-no-color", place=place)
        if self.kind.plannable and (place.wd.root / "terraform.tfstate").is_file():
            run.tf(Stage.IMPORT, "state", "rm", self.address, ok=(0, 1), place=place)

    def clean(self, place: _Place) -> None:
        run = self.run_
        if self.step.prevent_disk_cleanup or run.persist:
            run.log(f"[step {run.step_no}/{run.total}] the import working directory is kept in {place.wd.root}")
            return
        shutil.rmtree(place.wd.root, ignore_errors=True)

    def import_command(self, place: _Place | None, import_id: str, before: Mapping[str, Any]) -> None:
        run, step = self.run_, self.step
        run.tf(Stage.IMPORT, "import", "-input=false", "-no-color", self.address, import_id, place=place)
        if place is None:
            run.applied = True
        after = run.show_state(Stage.IMPORT, place)
        imported = run.load(Stage.IMPORT, after)
        if step.import_state_check is not None:
            resources = [r for r in imported.resources if r.module_address is None and r.raw.get("mode", "managed") == "managed"]
            run.run_check(Stage.IMPORT_STATE_CHECK, "ImportStateCheck failed", step.import_state_check, resources)
        if step.import_state_verify:
            problem = verify_import(
                _root_resources(before),
                _root_resources(after),
                identifier_attribute=step.import_state_verify_identifier_attribute,
                ignore=step.import_state_verify_ignore,
            )
            if problem is not None:
                raise self.fail(Stage.IMPORT_STATE_VERIFY, problem)

    def plan_import(self, place: _Place | None, identity: Mapping[str, Any] | None) -> None:
        run, step = self.run_, self.step
        result = run.plan(Stage.IMPORT_PLAN, place=place)
        document = run.show_plan(Stage.IMPORT_PLAN, place)
        changes = document.get("resource_changes")
        change = next(
            (c for c in changes if isinstance(c, Mapping) and c.get("address") == self.address), None
        ) if isinstance(changes, list) else None
        body = change.get("change") if change is not None else None
        actions = body.get("actions") if isinstance(body, Mapping) else None
        if not isinstance(actions, list):
            raise self.fail(
                Stage.IMPORT_PLAN, f"importing resource {self.address}: expected a resource change, got no changes", result
            )
        assert isinstance(body, Mapping)
        if body.get("importing") is None:
            raise self.fail(
                Stage.IMPORT_PLAN,
                f"importing resource {self.address}: expected an import operation, got {actions} action with plan",
                result,
            )
        if not step.expect_non_empty_plan and actions != ["no-op"]:
            raise self.fail(
                Stage.IMPORT_PLAN,
                f"importing resource {self.address}: expected a no-op import operation, got {actions} action with plan",
                result,
            )
        if step.import_plan_checks.pre_apply:
            run.check_plan(
                Stage.IMPORT_PLAN, "Import plan check(s) failed", document, tuple(step.import_plan_checks.pre_apply), result
            )
        if identity is not None:
            planned = next(
                (r for r in _planned_resources(document) if r.get("address") == self.address), None
            )
            new = planned.get("identity") if planned is not None else None
            if new != identity:
                raise self.fail(
                    Stage.IMPORT_PLAN,
                    f"importing resource {self.address}: expected identity values {identity}, got {new}",
                    result,
                )


def _planned_resources(document: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    planned = document.get("planned_values")
    return _root_resources({"values": planned}) if isinstance(planned, Mapping) else []
