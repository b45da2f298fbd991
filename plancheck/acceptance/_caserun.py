"""The progress of one test case: its commands, steps, checks, and the destroy at the end.

Per step (as Go's terraform-plugin-testing does): write the configuration, ``init`` (when the
configuration files changed), ``plan -out`` and its ``show -json`` (always: the plan's sensitive
values must be known as secrets before apply), pre-apply plan checks, ``apply``, state checks,
then a ``-refresh=false`` plan and a refreshed plan, each with its plan checks, each required
to be empty unless the step says ``expect_non_empty_plan``. After the last step, or after a
failure, ``destroy`` (and ``check_destroy``) run if anything was ever applied; after a failure
theirs is appended to it (``also: ...``), else it is the error.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, Final, TypeVar

from .._documents.plan import Plan
from .._documents.sensitive import collect_plan_secrets, collect_state_secrets
from .._documents.state import State
from .._errors import DocumentFormatError
from .._loading.jsontext import show_json_refused
from .._loading.lifecycle import ending_on_signals
from .._redact import Secrets
from .._terraform.binary import CommandResult, cli_config_replaced, registry_hint
from .._terraform.mock.plan import input_secrets
from .._terraform.providers.factory import ProviderSet
from .._terraform.providers.planning import CRASHED, PlanNotSettled, crash_cause, settled_plan
from .._terraform.providers.server import ProviderServerError, ProvidersNotInstalledError
from ._case import TestCase, TestStep
from ._checks import (
    check_function_failure,
    plan_check_failures,
    planned_changes,
    skip_step,
    state_check_failures,
    trusted_by,
)
from ._diagnostics import JSON_COMMANDS, DiagnosticsFailure, Reading, StepDiagnostics, tell_failed_conditions
from ._errors import (
    AcceptanceError,
    Stage,
    TestDefinitionError,
    _format_output,
    _indent,
    _listing,
    _matches,
    _non_empty,
    _StepFailure,
)
from ._statefiles import (
    InitialState,
    StateInTheWay,
    destroy_hint,
    keep_leftover,
    orphans_reason,
    write_initial_state,
)
from ._workplace import PLAN_FILE, Place, ProviderSession, RunSettings, WorkingDirectory, resolve_step

__all__ = ["ENV_PERSIST_WORKING_DIR", "ENV_REFRESH_AFTER_APPLY"]

_Doc = TypeVar("_Doc", Plan, State)
#: How many shown documents keep their loaded Plan or State (a step holds at most a plan and two states).
_KEPT_DOCUMENTS: Final = 4

#: Set (even empty): an ``apply -refresh-only`` after each step, before the next (Go's ``TF_ACC_REFRESH_AFTER_APPLY``).
ENV_REFRESH_AFTER_APPLY: Final = "TF_ACC_REFRESH_AFTER_APPLY"
#: Non-empty: keep the working directories, and a copy after each step (Go's ``TF_ACC_PERSIST_WORKING_DIR``).
ENV_PERSIST_WORKING_DIR: Final = "TF_ACC_PERSIST_WORKING_DIR"


def _print(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


class CaseRun:
    """The mutable progress of one case: kept apart from the runner, discarded when the case ends.

    ``settings`` are the runner's, read only; ``import_step`` runs an ``import_state`` step and ``query_step``
    a ``query`` step (the runner hands in ``_steps.run_import_step`` and ``_steps.run_query_step``, which
    drive this run: so this module needs not import them).
    """

    def __init__(
        self, settings: RunSettings, case: TestCase, root: Path,
        *, import_step: Callable[[CaseRun, TestStep], None] | None = None,
        query_step: Callable[[CaseRun, TestStep], None] | None = None,
    ) -> None:
        self.settings = settings
        self.case = case
        self.import_step = import_step
        self.query_step = query_step
        self.wd = WorkingDirectory(root)
        self.env = settings.environment(root)
        environ = {**os.environ, **settings.env}
        #: The user's TF_CLI_CONFIG_FILE the commands run without (it names no file): a failed init names it.
        self.cli_config_replaced = cli_config_replaced(environ, settings.cli_config)
        # Go looks these up itself (os.LookupEnv / os.Getenv), whatever the command environment says.
        self.refresh_after_apply = ENV_REFRESH_AFTER_APPLY in environ
        self.persist = bool(environ.get(ENV_PERSIST_WORKING_DIR))
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
        self.log: Callable[[str], None] = _print if settings.echo else (lambda _text: None)
        # Raw until the case ends: secrets found later in the case (in a plan, in a state) are scrubbed too.
        self.results: list[CommandResult] = []
        # Started on demand by write(), stopped by execute(): one socket directory per case (xdist-safe).
        # What the session reports (a provider's stop() failing, say) may echo a secret of the case.
        self.providers = ProviderSession(
            platform=settings.terraform.platform, log=lambda text: self.log(self.secrets.scrub(text))
        )
        self.providers.add_secrets(self.secrets)
        # The recorded state's addresses until the first plan is read: one the configuration lacks fails then.
        self.orphans_unchecked: tuple[str, ...] = ()
        # Set while a step that checks diagnostics runs: its plan, apply, refresh and validate run with -json.
        self.diagnostics: StepDiagnostics | None = None
        # The last documents show -json printed, each with the Plan or State loaded from it (not loaded twice).
        self.loaded: list[tuple[dict[str, Any], Plan | State]] = []

    def learn_configuration(self, root: Path) -> None:
        """The values of sensitive variables the configuration written in ``root`` gives itself (a default,
        ``terraform.tfvars``, a ``TF_VAR_``): secrets no plan lists yet, which a failed plan's errors show."""
        self.add_secrets(input_secrets(root, [], [], self.env))

    def add_secrets(self, found: Secrets) -> None:
        self.secrets = self.secrets | found
        providers: ProviderSession | None = getattr(self, "providers", None)
        if providers is not None:
            providers.add_secrets(found)  # a mock served in this process scrubs them from its recorded calls
        if self.settings.share_secrets is not None and len(found):
            self.settings.share_secrets(found)

    def publish(self) -> None:
        scrub = self.secrets.scrub
        self.settings.record(replace(r, stdout=scrub(r.stdout), stderr=scrub(r.stderr)) for r in self.results)
        self.results = []

    # -- commands -----------------------------------------------------------------------------

    def tf(self, stage: Stage, *args: str, ok: tuple[int, ...] = (0,), place: Place | None = None) -> CommandResult:
        binary = self.settings.terraform
        cwd, env = (self.wd.root, self.env) if place is None else (place.wd.root, place.env)
        diagnostics = self.diagnostics if place is None and args[0] in JSON_COMMANDS else None
        if diagnostics is not None:
            args = diagnostics.arguments(args)
        where = f"[step {self.step_no}/{self.total} {stage.value}]"
        result = self.settings.run(where, (binary.path, *args), cwd, env, self.secrets.scrub)
        reading = None
        if diagnostics is not None:
            # Shown as text from here on (log, errors, expect_error): the JSON itself never is.
            result, reading = diagnostics.read(args[0], result)
        self.results.append(result)
        scrub = self.secrets.scrub
        status = "timed out" if result.timed_out else f"exit code {result.returncode}"
        elsewhere = "" if place is None else f" (in {place.wd.root.name})"
        self.log(f"{where} $ {scrub(result.command_line)}{elsewhere}  ({status}, {result.duration:.2f} s)")
        # JSON is not echoed: it can hold secrets not known yet (a query's sensitive list block inputs).
        if args[:2] == ("show", "-json") or args[:1] == ("query",):
            self.log(f"    ({len(result.stdout)} characters of JSON)")
            if result.stderr.strip():
                self.log(_indent(scrub(result.stderr), "    "))
        else:
            for text in (result.stdout, result.stderr):
                if text.strip():
                    self.log(_indent(scrub(text), "    "))
        name = os.path.basename(binary.path)
        if result.timed_out:
            raise _StepFailure(stage, f"{name} {args[0]} timed out after {self.settings.timeout:g} s", result)
        if diagnostics is not None and reading is not None:
            self.check_warnings(stage, args[0], diagnostics, reading, result)
        if result.returncode not in ok:
            hint = registry_hint(result.stderr, env, self.cli_config_replaced) if args[0] == "init" else None
            # A Terraform killed (the OOM killer, a CI's kill of its process) says nothing itself: the signal is why.
            how = "failed" if result.killed_by is None else f"was killed by {result.killed_by}"
            raise _StepFailure(stage, f"{name} {args[0]} {how}" + ("" if hint is None else f": {hint}"), result)
        return result

    def check_warnings(
        self, stage: Stage, command: str, diagnostics: StepDiagnostics, reading: Reading, result: CommandResult
    ) -> None:
        """Fail on output that could not be read, then (``fail_on_warnings``) on a warning the step does not allow."""
        name = os.path.basename(self.settings.terraform.path)
        if reading.problems:
            raise _StepFailure(
                stage, _listing(f"cannot read the output of {name} {command} -json (withheld)", list(reading.problems)), result
            )
        refused = diagnostics.unallowed(reading, self.providers.provider_diagnostics())
        if refused:
            raise DiagnosticsFailure(stage, diagnostics.unallowed_message(command, refused), result)

    def _read(self, stage: Stage, result: CommandResult, kind: type[Plan] | type[State]) -> dict[str, Any]:
        """The document ``show -json`` printed, read by the library's loader (the one every front end uses:
        exact numbers, any depth, format-version checks); the loaded Plan or State is kept for the checks."""
        noun = "plan" if kind is Plan else "state"
        try:
            loaded = kind.from_json(result.stdout)
        except DocumentFormatError as exc:
            # Output that cannot be read has secrets that cannot be known: it is withheld (fail closed).
            raise _StepFailure(stage, show_json_refused(exc, noun), self.withhold(result)) from None
        self.wd.planned(loaded)
        document = loaded.raw
        # Read from text, the document is a plain dict (only bytes are split and parsed lazily).
        assert isinstance(document, dict)
        self.loaded = [*self.loaded[-(_KEPT_DOCUMENTS - 1):], (document, loaded)]
        return document

    def loaded_document(self, document: Mapping[str, Any], kind: type[_Doc]) -> _Doc:
        """The Plan or State :meth:`_read` loaded for ``document``; one of another origin is validated now."""
        for raw, loaded in reversed(self.loaded):
            if raw is document and isinstance(loaded, kind):
                return loaded
        return kind.from_dict(document)

    def withhold(self, result: CommandResult) -> CommandResult:
        """``result`` with its output withheld, everywhere it is kept: output that cannot be read has
        secrets that cannot be known (a sensitive variable's default), so none of it is shown (fail closed)."""
        withheld = replace(result, stdout="(withheld: the output could not be read, so its secrets are unknown)")
        self.results = [withheld if r is result else r for r in self.results]
        return withheld

    def show_plan(self, stage: Stage, place: Place | None = None) -> dict[str, Any]:
        document = self._read(stage, self.tf(stage, "show", "-json", PLAN_FILE, place=place), Plan)
        self.add_secrets(collect_plan_secrets(document))
        if self.orphans_unchecked and place is None:
            recorded, self.orphans_unchecked = self.orphans_unchecked, ()
            self.check_orphans(stage, document, recorded)
        return document

    def check_orphans(self, stage: Stage, document: dict[str, Any], recorded: tuple[str, ...]) -> None:
        reason = orphans_reason(recorded, document.get("configuration"), self.step_no)
        if reason is not None:
            raise _StepFailure(stage, reason)

    def show_state(self, stage: Stage, place: Place | None = None) -> dict[str, Any]:
        document = self._read(stage, self.tf(stage, "show", "-json", place=place), State)
        self.add_secrets(collect_state_secrets(document))
        return document

    def settled_plan(self, stage: Stage, *extra: str, always_show: bool) -> tuple[CommandResult, Mapping[str, Any] | None]:
        """A plan, made again while a mock served here learns which data source each read is (``plancheck._terraform.providers.planning``);
        its document when read (always, with ``always_show``)."""
        try:
            return settled_plan(
                self.providers.served, lambda: self.plan(stage, *extra), lambda: self.show_plan(stage), always_show=always_show
            )
        except PlanNotSettled as exc:
            raise _StepFailure(stage, str(exc)) from None

    def plan(self, stage: Stage, *extra: str, place: Place | None = None) -> CommandResult:
        # Without repeats: -refresh=false may come from the step and from the CLI options.
        args = tuple(dict.fromkeys(("plan", "-input=false", "-no-color", *extra, f"-out={PLAN_FILE}")))
        # Exit status 2 is "changes present" only under -detailed-exitcode; without it, it is a failure (a Go
        # panic exits 2), to be reported as the plan's, not as the missing plan file's of the show after it.
        ok = (0, 2) if "-detailed-exitcode" in args else (0,)
        try:
            result = self.tf(stage, *args, ok=ok, place=place)
            if result.returncode == 2 and CRASHED.search(result.stderr):
                name = os.path.basename(self.settings.terraform.path)
                raise _StepFailure(stage, f"{name} plan crashed (exit code 2 and a Go panic: no plan was made)", result)
        except _StepFailure as failure:
            self.wd.errored_plan(self, stage, place)  # test coverage: the conditions that stopped planning
            why = None if failure.result is None else crash_cause(self.providers.served, failure.result.stderr)
            if why is not None:
                failure.reason = f"{failure.reason}: {why}"
            initial = self.case.initial_state
            if self.orphans_unchecked and place is None and initial is not None and failure.result is not None:
                hint = initial.unreadable_hint(failure.result.stderr)
                if hint:
                    failure.reason = f"{failure.reason}: {hint}"
            raise
        self.current_valid |= place is None
        return result

    def cli_options(self, step: TestStep) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The extra plan and apply arguments of ``step`` (its own options, else the case's)."""
        options = step.additional_cli_options or self.case.additional_cli_options
        if options is None:
            return (), ()
        return options.plan.args(), options.apply.args()

    # -- checks -------------------------------------------------------------------------------

    def check_plan(
        self, stage: Stage, title: str, document: Mapping[str, Any], checks: tuple[Any, ...], result: CommandResult
    ) -> None:
        try:
            failures = plan_check_failures(self.loaded_document(document, Plan), checks)
        except DocumentFormatError as exc:
            raise _StepFailure(stage, f"cannot read the plan that show -json printed: {exc}", result) from None
        if failures:
            raise _StepFailure(stage, _listing(title, [str(f) for f in failures]), result, trusted_by(failures))

    def load(self, stage: Stage, document: dict[str, Any]) -> State:
        try:
            return self.loaded_document(document, State)
        except DocumentFormatError as exc:
            raise _StepFailure(stage, f"cannot read the state that show -json printed: {exc}") from None

    def run_check(self, stage: Stage, title: str, function: Callable[..., object], *args: Any) -> None:
        """Run a Go-style check function through the one runner of checks, contained as ``assert_*`` contains one.

        A failure it reports is said as it said it; one it raises (a bug, ``sys.exit()``) names the function.
        """
        failure = check_function_failure(function, args, self.secrets)
        if failure is not None:
            raise _StepFailure(stage, f"{title}: {failure}")

    def follow_up_plan(
        self, stage: Stage, checks: tuple[Any, ...], title: str, *extra: str
    ) -> tuple[list[str], CommandResult]:
        """Make a plan and run its checks; return its changes (empty when the plan is empty) and the command."""
        result, told = self.settled_plan(stage, "-detailed-exitcode", *extra, always_show=False)
        # Exit code 0 means Terraform found nothing to change: reading the plan back would only cost time.
        if result.returncode == 0 and not checks:
            return [], result
        document = told if told is not None else self.show_plan(stage)
        if checks:
            self.check_plan(stage, title, document, checks, result)
        return planned_changes(document), result

    # -- configuration ------------------------------------------------------------------------

    def resolve(self, step: TestStep) -> TestStep | None:
        """``step`` with its config functions called and relative paths made absolute; None without a configuration."""
        return resolve_step(step, self.step_no, self.settings)

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
        self.learn_configuration(self.wd.root)
        # .terraform only changes when init runs: it still fits whatever configuration init last accepted.
        if digest != self.init_digest:
            self.init_digest = None
            try:
                self.tf(Stage.INIT, "init", "-input=false", "-no-color")
            except _StepFailure as failure:
                self.diagnose_init(failure)
                raise
            self.init_digest = digest

    def diagnose_init(self, failure: _StepFailure) -> None:
        """In a step that checks diagnostics, ask ``validate -json`` why ``init`` failed (Terraform 1.0's init has
        no JSON output): an error it reports may be an expected one, which then excuses the failed init."""
        if self.diagnostics is None or failure.result is None or failure.result.timed_out:
            return
        try:
            validate = self.tf(Stage.VALIDATE, "validate", "-no-color", ok=(0, 1))
        except DiagnosticsFailure:
            raise
        except _StepFailure:
            return  # validate could not say why either: the failed init stands as it is
        self.diagnostics.vouch(failure.result, validate)

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
        if self.diagnostics is not None:
            # Only for its diagnostics: its errors do not stop the step; the plan reports them again and decides.
            self.tf(Stage.VALIDATE, "validate", "-no-color", ok=(0, 1))
        checks = step.config_plan_checks
        plan_args, apply_args = self.cli_options(step)
        destroy = ("-destroy",) if step.destroy else ()
        if not step.plan_only:
            # Always read back, checks or not: the plan's sensitive values must be known as secrets
            # before apply, whose errors (a provider echoing a value) would otherwise show them. The
            # mocks served here learn from it the addresses of what they create and read.
            result, told = self.settled_plan(Stage.PRE_APPLY, *destroy, *plan_args, always_show=True)
            assert told is not None
            document = told
            self.last_valid = resolved
            if checks.pre_apply:
                self.check_plan(Stage.PRE_APPLY, "Pre-apply plan check(s) failed", document, tuple(checks.pre_apply), result)
            before: dict[str, Any] | None = None
            if step.check is not None and step.destroy:
                # Go's order: the check of a destroy step sees the refreshed state from before the destroy.
                self.tf(Stage.CHECK, "refresh", "-input=false", "-no-color")
                before = self.show_state(Stage.CHECK)
                # Told as the first: within it the mocks refuse what Terraform 1.0.0-1.0.4 would panic on.
                self.settled_plan(Stage.PRE_APPLY, "-destroy", *plan_args, always_show=False)
            self.applied = True
            self.tf(Stage.APPLY, "apply", "-input=false", "-no-color", *apply_args, PLAN_FILE)
            # The state after apply is read once, whether the check, the state checks or both need it.
            after_apply: dict[str, Any] | None = None
            if step.check is not None:
                if before is None:
                    after_apply = self.show_state(Stage.CHECK)
                checked = before if before is not None else after_apply
                assert checked is not None
                self.run_check(Stage.CHECK, "Check failed", step.check, self.load(Stage.CHECK, checked))
            if step.config_state_checks:
                state = after_apply if after_apply is not None else self.show_state(Stage.STATE_CHECKS)
                try:
                    failures = state_check_failures(self.loaded_document(state, State), tuple(step.config_state_checks))
                except DocumentFormatError as exc:
                    raise _StepFailure(Stage.STATE_CHECKS, f"cannot read the state that show -json printed: {exc}") from None
                if failures:
                    raise _StepFailure(
                        Stage.STATE_CHECKS,
                        _listing("Post-apply state check(s) failed", [str(f) for f in failures]),
                        trusted=trusted_by(failures),
                    )

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
        if self.import_step is None:
            raise AssertionError("CaseRun: an import_state step needs import_step=")  # the runner always hands one
        self.import_step(self, step)

    def run_query(self, step: TestStep) -> None:
        if self.query_step is None:
            raise AssertionError("CaseRun: a query step needs query_step=")  # the runner always hands one
        self.query_step(self, step)

    def error(self, failure: _StepFailure, suffix: str = "") -> AcceptanceError:
        scrub = self.secrets.scrub
        result = failure.result
        return AcceptanceError(
            self.step_no,
            self.total,
            failure.stage,
            # A check's failure keeps its configuration names and given paths (what it trusts).
            self.secrets.trusting(failure.trusted).scrub(failure.reason + suffix),
            command=None if result is None else scrub(result.command_line),
            exit_code=None if result is None else result.returncode,
            output="" if result is None else _format_output(result, self.secrets),
            trusted=failure.trusted,
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
        if step.skip_func is not None and skip_step(step.skip_func):
            self.log(f"Skipping step {self.step_no}/{self.total} due to skip_func")
            return
        expected = step.expect_error
        assert expected is None or isinstance(expected, re.Pattern)
        error: AcceptanceError | None = None
        diagnostics = self.diagnostics = StepDiagnostics.of(self.case, step, self.settings.terraform.path)
        try:
            self.dispatch(step)
        except DiagnosticsFailure as failure:
            raise self.error(failure) from None
        except _StepFailure as failure:
            if expected is None:
                if diagnostics is not None and diagnostics.expects_error:
                    verdict = self.diagnostics_verdict(diagnostics, failure, excuse=True)
                    if verdict is not None:
                        raise verdict from None
                    tell_failed_conditions(self.wd.source, step, diagnostics, failure)
                    return
                error = self.error(failure)
            elif _matches(expected, failure.raw_text()):
                self.log(f"[step {self.step_no}/{self.total}] the expected error happened (matched {expected.pattern!r})")
                verdict = self.diagnostics_verdict(diagnostics, failure)
                if verdict is not None:
                    raise verdict from None
                tell_failed_conditions(self.wd.source, step, diagnostics, failure)
                return
            else:
                unmatched = _StepFailure(
                    Stage.EXPECT_ERROR,
                    f"expected an error matching {expected.pattern!r}, but the step failed with another one "
                    f"(in stage {failure.stage.value}): {failure.reason}",
                    failure.result,
                )
                raise self.error(unmatched) from None
        finally:
            self.diagnostics = None
        if error is not None:
            self.fail(error)
            return
        if expected is not None:
            raise self.error(
                _StepFailure(Stage.EXPECT_ERROR, f"expected an error matching {expected.pattern!r}, but the step succeeded")
            )
        verdict = self.diagnostics_verdict(diagnostics, None)
        if verdict is not None:
            raise verdict
        tell_failed_conditions(self.wd.source, step, diagnostics, None)  # an expected warning: a check block's assertion

    def diagnostics_verdict(
        self, diagnostics: StepDiagnostics | None, failure: _StepFailure | None, *, excuse: bool = False
    ) -> AcceptanceError | None:
        """None when every expected diagnostic arrived, else the error to fail with. ``failure``: what the
        step failed with; ``excuse``: it is to pass only as the failure of a command that reported errors."""
        if diagnostics is None or not diagnostics.expected:
            return None
        where = f"[step {self.step_no}/{self.total}]"
        result = None if failure is None else failure.result
        if excuse and failure is not None and not diagnostics.excuses(result):
            reason = (
                f"expected an error diagnostic, but the step failed in stage {failure.stage.value} "
                f"without one, for another reason: {failure.reason}"
            )
            return self.error(DiagnosticsFailure(Stage.EXPECT_DIAGNOSTICS, reason, result))
        unmet, arrived = diagnostics.unmet(self.providers.provider_diagnostics())
        if not unmet:
            self.log(self.secrets.scrub(f"{where} the expected diagnostics arrived ({diagnostics.checked()})"))
            return None
        failed = None if failure is None else f"in stage {failure.stage.value}, {failure.reason.splitlines()[0]}"
        return self.error(DiagnosticsFailure(Stage.EXPECT_DIAGNOSTICS, diagnostics.unmet_message(unmet, arrived, failed), result))

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

    def destroy(self) -> AcceptanceError | None:
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
            return self.error(failure, self.keep_leftover(failure))
        except KeyboardInterrupt as interrupt:
            # Ctrl-C during the destroy: what it had not destroyed yet is kept like any destroy's failure.
            kept = self.keep_leftover(_StepFailure(Stage.DESTROY, "the post-test destroy was interrupted"))
            note = f"the post-test destroy was interrupted{kept}"
            self.log(f"[case] {note}")
            interrupt.add_note(note)
            raise
        if self.case.check_destroy is not None and before is not None:
            try:
                state = self.load(Stage.CHECK_DESTROY, before)
                self.run_check(Stage.CHECK_DESTROY, "CheckDestroy failed", self.case.check_destroy, state)
            except _StepFailure as failure:
                return self.error(failure)
        return None

    def keep_leftover(self, failure: _StepFailure) -> str:
        """Keep the state and configuration of a case whose destroy failed; say where, and how to destroy them."""
        root = self.settings.leftovers_root()
        used = self.used_providers()
        try:
            kept = self.keep(failure.reason)
        except OSError as exc:
            return f"; resources may be left behind in {self.wd.root} (could not keep them: {exc.strerror or exc})"
        return f"; its state and configuration are kept in {kept}; destroy them later with: {destroy_hint(root, used)}"

    def used_providers(self) -> list[ProviderSet]:
        return [p for p in (self.case.providers, *(s.providers for s in self.case.steps)) if p is not None]

    def keep(self, reason: str) -> Path:
        """Copy the working directory, state included, to a new leftover; raises OSError when it cannot."""
        return keep_leftover(
            self.settings.leftovers_root(), self.wd.root, test_name=self.settings.test_name,
            terraform=self.settings.terraform, cli_config=self.settings.cli_config, providers=self.used_providers(),
            reason=self.secrets.scrub(reason), secrets=self.secrets.ordered, base_dir=self.settings.base_dir(),
        )

    def keep_until_destroyed(self) -> Path | None:
        """An interrupted case's state, kept before its post-test destroy runs (removed once that has finished).

        An interruption (Ctrl-C, a CI cancelling the job) is often followed by a kill that cannot be handled
        (SIGKILL after the CI's grace period), which may cut the destroy short: the resources would then be
        left with nothing recording them.
        """
        if not self.applied:
            return None
        try:
            kept = self.keep("the test was interrupted and its post-test destroy did not finish")
        except OSError:
            return None
        self.log(f"[case] interrupted: its state is kept in {kept} until the post-test destroy has finished")
        return kept

    def keep_step_copy(self) -> None:
        """``TF_ACC_PERSIST_WORKING_DIR``: a copy of the working directory after each step, as Go's ``step_N``."""
        if not self.persist or self.step_no == 0:
            return
        self.log(f"Working directory and files have been copied to: {self.wd.copy_for_step(self.step_no)}")

    def write_initial(self, initial: InitialState) -> None:
        """Write ``initial_state`` before the first step (which it belongs to)."""
        self.step_no = 1
        try:
            write_initial_state(initial, self.wd.root)
        except (StateInTheWay, OSError) as exc:
            raise self.error(_StepFailure(Stage.CONFIG, f"cannot write initial_state: {exc}")) from None
        self.orphans_unchecked = initial.addresses
        self.log(f"[case] initial state written: {initial!r}")

    def execute(self) -> None:
        __tracebackhide__ = True
        # SIGTERM and SIGHUP unwind like a Ctrl-C until the case is destroyed (or kept) and its providers stopped.
        with ending_on_signals():
            self._execute_and_close()

    def _execute_and_close(self) -> None:
        __tracebackhide__ = True
        failed = True
        try:
            self._execute()
            failed = False
        finally:
            self.publish()
            try:
                self.providers.close(after_failure=failed)
            except ProviderServerError as exc:
                raise ProviderServerError(exc.address, self.secrets.scrub(exc.problem)) from None
            if self.persist:
                self.log(f"{ENV_PERSIST_WORKING_DIR} is set: the working directory is kept in {self.wd.root}")

    def _execute(self) -> None:
        __tracebackhide__ = True
        try:
            if self.case.pre_check is not None:
                self.case.pre_check()
            initial = self.case.initial_state
            if initial is not None:
                self.write_initial(initial)
            for number, step in enumerate(self.case.steps, 1):
                self.keep_step_copy()
                self.step_no = number
                with self.settings.telling(f"[step {number}/{self.total}]"):
                    self.step(step)
            self.keep_step_copy()
        except BaseException as exc:
            # As Go, destroy and check_destroy run after a failure too; what fails there is secondary:
            # the step's failure stays the exception raised (its own chain intact), theirs joins as "also: ...".
            provisional = self.keep_until_destroyed() if isinstance(exc, KeyboardInterrupt) else None
            try:
                failed_destroy = self.destroy()
            finally:
                # Destroyed, or kept afresh by destroy() (failed or interrupted again): the early copy is stale.
                if provisional is not None:
                    shutil.rmtree(provisional, ignore_errors=True)
            if isinstance(exc, AcceptanceError) and failed_destroy is not None:
                exc.add_also(str(failed_destroy), scrub=self.secrets.scrub)
            elif failed_destroy is not None:
                exc.add_note(f"also: {failed_destroy}")
            raise
        failed_destroy = self.destroy()
        if failed_destroy is not None:
            raise failed_destroy
