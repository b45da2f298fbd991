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
import sys
import unittest
from collections.abc import Callable, Mapping
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from typing import Any, Final

from .._documents.sensitive import collect_plan_secrets, collect_state_secrets
from .._errors import DocumentFormatError
from .._redact import Secrets
from .._terraform import (
    CommandResult,
    TerraformBinary,
    inspect_binary,
    run_command,
    terraform_environment,
)
from ..tfversion import Version, VersionError, run_check
from ._case import TestCase, TestStep
from ._checks import plan_check_failures, state_check_failures
from ._errors import AcceptanceError, Stage, TestDefinitionError
from ._plans import planned_changes
from ._providers._errors import ProviderServerError, ProvidersNotInstalledError
from ._providers._session import ProviderSession
from ._workdir import PLAN_FILE, WorkingDirectory

__all__ = ["DEFAULT_TIMEOUT", "AcceptanceRunner"]

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
      on the test scrubs them too (the ``tf_acceptance`` fixture hands them to the pytest plugin).

    In pytest, the ``tf_acceptance`` fixture builds one for you.

    >>> runner = AcceptanceRunner(TerraformBinary("/usr/bin/terraform", "1.11.4"), "/tmp/acc")
    >>> runner.terraform.version, runner.work_dir.name, runner.commands
    ('1.11.4', 'acc', ())
    >>> runner
    <AcceptanceRunner: Terraform 1.11.4 (/usr/bin/terraform) in /tmp/acc>
    """

    __slots__ = (
        "_cases",
        "_cli_config",
        "_commands",
        "_echo",
        "_env",
        "_share_secrets",
        "_terraform",
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
    ) -> None:
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

    def run(self, case: TestCase) -> None:
        """Run every step of ``case``, then destroy; raise :class:`AcceptanceError` on the first failure."""
        __tracebackhide__ = True
        if not isinstance(case, TestCase):
            raise TestDefinitionError("AcceptanceRunner.run", f"expected a TestCase, got {type(case).__name__}")
        # Before anything else (pre_check, files, providers), as Go's TerraformVersionChecks.
        _run_version_checks(case, self._terraform.version)
        self._cases += 1
        _CaseRun(self, case, self._work_dir / f"case{self._cases}").execute()

    # Used by _CaseRun: kept here so a case run cannot change the runner's settings.
    def _environment(self, root: Path) -> dict[str, str]:
        base = {**os.environ, **self._env}
        fallback = None
        user = base.get("TF_CLI_CONFIG_FILE")
        if self._cli_config is None and user is not None and not os.path.isfile(user):
            # Beside the case directories, not in one: a configuration directory holds only the step's files.
            fallback = self._work_dir / "empty.tfrc"
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
        self.secrets = Secrets()
        self.add_secrets(Secrets(case.secrets))
        self.total = len(case.steps)
        self.step_no = 0
        self.applied = False
        self.init_digest: str | None = None
        self.current_valid = False
        self.last_valid: TestStep | None = None
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

    def tf(self, stage: Stage, *args: str, ok: tuple[int, ...] = (0,)) -> CommandResult:
        binary = self.runner.terraform
        result = run_command((binary.path, *args), cwd=self.wd.root, env=self.env, timeout=self.runner._timeout)
        self.results.append(result)
        scrub = self.secrets.scrub
        status = "timed out" if result.timed_out else f"exit code {result.returncode}"
        self.log(f"[step {self.step_no}/{self.total} {stage.value}] $ {result.command_line}  ({status}, {result.duration:.2f} s)")
        if args[:2] == ("show", "-json"):
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

    def show_plan(self, stage: Stage) -> dict[str, Any]:
        document = self._json(stage, self.tf(stage, "show", "-json", PLAN_FILE))
        self.add_secrets(collect_plan_secrets(document))
        return document

    def show_state(self, stage: Stage) -> dict[str, Any]:
        document = self._json(stage, self.tf(stage, "show", "-json"))
        self.add_secrets(collect_state_secrets(document))
        return document

    def plan(self, stage: Stage, *extra: str) -> CommandResult:
        result = self.tf(stage, "plan", "-input=false", "-no-color", *extra, f"-out={PLAN_FILE}", ok=(0, 2))
        self.current_valid = True
        return result

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

    # -- steps --------------------------------------------------------------------------------

    def write(self, step: TestStep) -> None:
        self.current_valid = False
        try:
            if self.providers.use(step.providers, self.case.providers):
                self.init_digest = None  # the CLI configuration changed: install again
            self.providers.apply_environment(self.env)
            digest = self.wd.write_step(self.providers.complete(step))
        except (ProviderServerError, ProvidersNotInstalledError) as exc:
            raise _StepFailure(Stage.CONFIG, f"cannot serve the providers: {exc}") from None
        except (DocumentFormatError, TestDefinitionError, OSError) as exc:
            raise _StepFailure(Stage.CONFIG, f"cannot write the configuration: {exc}") from None
        # .terraform only changes when init runs: it still fits whatever configuration init last accepted.
        if digest != self.init_digest:
            self.init_digest = None
            self.tf(Stage.INIT, "init", "-input=false", "-no-color")
            self.init_digest = digest

    def run_step(self, step: TestStep) -> None:
        self.write(step)
        checks = step.config_plan_checks
        if not step.plan_only:
            result = self.plan(Stage.PRE_APPLY)
            self.last_valid = step
            if checks.pre_apply:
                document = self.show_plan(Stage.PRE_APPLY)
                self.check_plan(Stage.PRE_APPLY, "Pre-apply plan check(s) failed", document, tuple(checks.pre_apply), result)
            self.applied = True
            self.tf(Stage.APPLY, "apply", "-input=false", "-no-color", PLAN_FILE)
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
        changes, result = self.follow_up_plan(stage, tuple(checks.post_apply_pre_refresh), title, "-refresh=false")
        self.last_valid = step
        if changes and not step.expect_non_empty_plan:
            raise _non_empty(stage, (after or "The ") + "non-refresh plan was not empty", changes, result)

        stage = Stage.POST_APPLY_POST_REFRESH
        title = "Refresh plan check(s) failed" if step.plan_only else "Post-apply refresh plan check(s) failed"
        changes, result = self.follow_up_plan(stage, tuple(checks.post_apply_post_refresh), title)
        if changes and not step.expect_non_empty_plan:
            raise _non_empty(stage, (after or "The ") + "refresh plan was not empty", changes, result)
        if not changes and step.expect_non_empty_plan:
            raise _StepFailure(stage, "Expected a non-empty plan, but got an empty refresh plan")

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

    def step(self, step: TestStep) -> None:
        __tracebackhide__ = True
        if step.pre_config is not None:
            step.pre_config()
        expected = step.expect_error
        assert expected is None or isinstance(expected, re.Pattern)
        try:
            self.run_step(step)
        except _StepFailure as failure:
            if expected is None:
                raise self.error(failure) from None
            if _matches(expected, failure.raw_text()):
                self.log(f"[step {self.step_no}/{self.total}] the expected error happened (matched {expected.pattern!r})")
                return
            unmatched = _StepFailure(
                Stage.EXPECT_ERROR,
                f"expected an error matching {expected.pattern!r}, but the step failed with another one "
                f"(in stage {failure.stage.value}): {failure.reason}",
                failure.result,
            )
            raise self.error(unmatched) from None
        if expected is not None:
            raise self.error(
                _StepFailure(Stage.EXPECT_ERROR, f"expected an error matching {expected.pattern!r}, but the step succeeded")
            )

    # -- the case -----------------------------------------------------------------------------

    def destroy(self, after_failure: bool) -> AcceptanceError | None:
        if not self.applied:
            return None
        try:
            if not self.current_valid and self.last_valid is not None:
                # The last step left a configuration Terraform rejected: destroy with the last one it accepted.
                self.write(self.last_valid)
            self.tf(Stage.DESTROY, "destroy", "-auto-approve", "-input=false", "-no-color", "-refresh=false")
        except _StepFailure as failure:
            failure.stage = Stage.DESTROY
            note = "; resources may be left behind in " + str(self.wd.root)
            if after_failure:
                note += " (the test had already failed: that error is shown above)"
            return self.error(failure, note)
        return None

    def execute(self) -> None:
        __tracebackhide__ = True
        failed = True
        try:
            self._execute()
            failed = False
        finally:
            self.publish()
            self.providers.close(after_failure=failed)

    def _execute(self) -> None:
        __tracebackhide__ = True
        try:
            if self.case.pre_check is not None:
                self.case.pre_check()
            for number, step in enumerate(self.case.steps, 1):
                self.step_no = number
                self.step(step)
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
