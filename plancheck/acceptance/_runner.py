"""The acceptance-test runner: drives a real Terraform through the steps of a :class:`TestCase`.

:class:`AcceptanceRunner` holds the settings (binary, directories, environment, timeout) and
checks the case's Terraform version requirements; each case's progress, commands and steps are
``_caserun.CaseRun``'s (handed the runner's :class:`~plancheck.acceptance._workplace.RunSettings`),
import and query steps are ``_steps``'.

:func:`destroy_leftovers` runs the same ``CaseRun`` on what cases whose destroy failed left behind
(see :mod:`._statefiles`), destroying each leftover.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import shutil
import sys
import unittest
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .._documents.plan import Plan

from .._documents.met import met, planned_in
from .._frozen import keyword_hints, public
from .._loading.lifecycle import ending_on_signals
from .._loading.source import fs_path, why_unopened
from .._redact import Secrets
from .._terraform.binary import (
    CommandResult,
    TerraformBinary,
    TerraformNotFoundError,
    TimeoutValueError,
    check_timeout,
    discover_terraform,
    inspect_binary,
)
from .._terraform.locate import ENV_TERRAFORM_PATH, ENV_TF_ACC, TF_ACC_SKIP_MESSAGE, tf_acc_set
from .._terraform.mock.plan import (
    PLAN_TIMEOUT,
    MockPlanArgumentError,
    MockPlanFailedError,
    declared_sensitive,
    find_terraform,
    input_secrets,
    out_problem,
    plan_module,
    scrubbing,
)
from .._terraform.mock.provider import MockProvider
from .._text import reserved_name, shortened, variable_name
from ..tfversion import Version, VersionError, run_check
from ._case import TestCase, TestStep, sensitive_strings, unwrap_sensitive
from ._caserun import ENV_PERSIST_WORKING_DIR, ENV_REFRESH_AFTER_APPLY, CaseRun
from ._errors import (
    AcceptanceError,
    LeftoverRecordError,
    Stage,
    TestDefinitionError,
    _StepFailure,
    wrapped_strings,
)
from ._statefiles import Leftover, LeftoverResult, find_leftovers, kept_secrets, record_attempt
from ._steps import run_import_step, run_query_step
from ._workplace import DEFAULT_TIMEOUT, RunSettings, _exact_json

__all__ = [
    "AcceptanceRunner",
    "DEFAULT_TIMEOUT",
    "ENV_PERSIST_WORKING_DIR",
    "ENV_REFRESH_AFTER_APPLY",
    "ENV_TF_ACC",
    "TF_ACC_SKIP_MESSAGE",
    "destroy_leftovers",
    "mock_plan",
    "tf_acc_set",
]


@public("plancheck.acceptance")
@keyword_hints()
class AcceptanceRunner:
    """Runs :class:`TestCase` objects against one Terraform (or OpenTofu) binary.

    * ``terraform``: a :class:`~plancheck._terraform.binary.TerraformBinary` or a path to one;
    * ``work_dir``: where each case gets its own directory (``case1``, ``case2``, ...);
    * ``cli_config``: a CLI configuration file to use (``TF_CLI_CONFIG_FILE``), e.g. one that
      installs providers from a filesystem mirror (one that cannot be read is a :class:`TestDefinitionError`:
      Terraform would run without it); without it the user's ``TF_CLI_CONFIG_FILE`` is honoured when that
      file exists;
    * ``env``: extra environment variables for every command (``TF_LOG``, ``TF_VAR_x``, ...);
    * ``timeout``: seconds each command may take;
    * ``echo``: print each command and its (redacted) output, which pytest shows for failed tests;
    * ``progress``: called with one line (redacted) as each step and each Terraform command starts and
      ends, e.g. ``[step 1/2 plan] terraform plan -refresh=false -out=tfplan ... started``; the
      ``tf_acceptance`` fixture writes them to pytest's terminal under ``-v``;
    * ``share_secrets``: called with the secrets of each case as they are found (its ``Sensitive``
      variables, then every sensitive value of its plans and states), so that whatever else reports
      on the test scrubs them too (the ``tf_acceptance`` fixture hands them to the pytest plugin);
    * ``test_name``: the name config functions see (``TestNameDirectory()``, ...; see
      :mod:`plancheck.acceptance.config`); ``base_dir``: what relative configuration paths are
      relative to (default: the current directory when a case runs);
    * ``require_tf_acc``: as Go, :meth:`run` skips (``unittest.SkipTest``) unless the ``TF_ACC``
      environment variable is set; ``False`` runs regardless (for scripts; in pytest the
      ``tf_acc_gate`` ini key or ``--no-tf-acc-gate`` do that);
    * ``leftovers_dir``: where a case whose destroy fails keeps its state and configuration
      (default ``$TFPLANCHECK_LEFTOVERS_DIR``, else ``.tfplancheck/leftovers`` under ``base_dir``);
      :func:`destroy_leftovers` destroys them later.

    In pytest, the ``tf_acceptance`` fixture builds one for you.

    >>> runner = AcceptanceRunner(TerraformBinary("/usr/bin/terraform", "1.11.4"), "/tmp/acc")
    >>> runner.terraform.version, runner.work_dir.name, runner.commands
    ('1.11.4', 'acc', ())
    >>> runner
    <AcceptanceRunner: Terraform 1.11.4 (/usr/bin/terraform) in /tmp/acc>
    """

    __slots__ = ("_cases", "_commands", "_require_tf_acc", "_settings")

    def __init__(
        self,
        terraform: TerraformBinary | str | os.PathLike[str],
        work_dir: str | os.PathLike[str],
        *,
        cli_config: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        echo: bool = True,
        progress: Callable[[str], None] | None = None,
        share_secrets: Callable[[Secrets], None] | None = None,
        test_name: str | None = None,
        base_dir: str | os.PathLike[str] | None = None,
        require_tf_acc: bool = True,
        leftovers_dir: str | os.PathLike[str] | None = None,
    ) -> None:
        if test_name is not None and not isinstance(test_name, str):
            raise TestDefinitionError("AcceptanceRunner.test_name", f"expected a str, got {type(test_name).__name__}")
        for name, flag in (("echo", echo), ("require_tf_acc", require_tf_acc)):
            if not isinstance(flag, bool):  # echo="no" is truthy: it echoed every command
                raise TestDefinitionError(f"AcceptanceRunner.{name}", f"expected a bool, got {type(flag).__name__}")
        for argument, path in (("work_dir", work_dir), ("cli_config", cli_config), ("base_dir", base_dir),
                               ("leftovers_dir", leftovers_dir)):
            if path is not None and _unheld(fs_path(path, "AcceptanceRunner")):
                raise TestDefinitionError(f"AcceptanceRunner.{argument}", "a name the system cannot take (a NUL byte "
                                          "or a lone surrogate)")
        problem = None if cli_config is None else _cli_config_problem(Path(cli_config))
        if problem is not None:
            raise TestDefinitionError("AcceptanceRunner.cli_config", problem)
        self._require_tf_acc = require_tf_acc
        self._cases = 0
        self._commands: list[CommandResult] = []
        self._settings = RunSettings(
            terraform=terraform if isinstance(terraform, TerraformBinary) else inspect_binary(
                fs_path(terraform, "AcceptanceRunner")),
            work_dir=Path(work_dir),
            cli_config=None if cli_config is None else Path(cli_config),
            env=_environment(env),
            # Refused here, not at the first command: NaN, inf, 0, negatives, bools, non-numbers.
            timeout=check_timeout(timeout),
            echo=echo,
            progress=progress,
            share_secrets=share_secrets,
            record=self._commands.extend,
            test_name=test_name,
            base_dir_arg=None if base_dir is None else Path(base_dir),
            leftovers_dir=None if leftovers_dir is None else Path(leftovers_dir),
        )

    def __repr__(self) -> str:
        return f"<AcceptanceRunner: {self._settings.terraform} in {self._settings.work_dir}>"

    @property
    def terraform(self) -> TerraformBinary:
        """The binary every command runs."""
        return self._settings.terraform

    @property
    def work_dir(self) -> Path:
        """The directory that holds one subdirectory per case run."""
        return self._settings.work_dir

    @property
    def commands(self) -> tuple[CommandResult, ...]:
        """Every command run so far, with its output redacted."""
        return tuple(self._commands)

    @property
    def test_name(self) -> str | None:
        """The test's name, as config functions see it."""
        return self._settings.test_name

    def run(self, case: TestCase) -> None:
        """Run every step of ``case``, then destroy; raise :class:`AcceptanceError` on the first failure.

        Unless ``TF_ACC`` is set (or the runner was made with ``require_tf_acc=False``) the case is
        skipped: ``unittest.SkipTest("Acceptance tests skipped unless env 'TF_ACC' set")``.
        """
        __tracebackhide__ = True
        if not isinstance(case, TestCase):
            raise TestDefinitionError("AcceptanceRunner.run", f"expected a TestCase, got {type(case).__name__}")
        if self._require_tf_acc and not (tf_acc_set() or tf_acc_set(self._settings.env)):
            raise unittest.SkipTest(TF_ACC_SKIP_MESSAGE)
        # Before anything else (pre_check, files, providers), as Go's TerraformVersionChecks.
        _run_version_checks(case, self._settings.terraform.version)
        root = Path(case.working_dir) if case.working_dir is not None else self._new_case_dir()
        CaseRun(self._settings, case, root, import_step=run_import_step, query_step=run_query_step).execute()

    def _new_case_dir(self) -> Path:
        """``case1``, ``case2``, ...: the next one no case has used, also another runner's on the same ``work_dir``."""
        work_dir = self._settings.work_dir
        work_dir.mkdir(parents=True, exist_ok=True)
        while True:
            self._cases += 1
            root = work_dir / f"case{self._cases}"
            try:
                root.mkdir()
            except FileExistsError:
                continue
            return root

    def _base_dir(self) -> Path:
        return self._settings.base_dir()


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


def _factory_for(leftover: Leftover, address: str, name: str | None) -> tuple[Callable[[], Any] | None, str]:
    """The factory ``name`` (``module:qualname``) names, when it is the one that made ``leftover``, else why not.

    A module is imported by name only when it is the recorded file: another project's module of the same
    name (``test_widgets`` is a common one) would serve another provider, whose delete may well succeed.
    """
    needs = f"it needs the provider under test {address} served in this process: give " \
            f"destroy_leftovers(providers={{{address!r}: factory}})"
    if not name:
        return None, needs
    module_name, _, qualname = name.partition(":")
    recorded = leftover.provider_file(address)
    module = sys.modules.get(module_name)
    if module is None:
        try:
            spec = importlib.util.find_spec(module_name)
        except Exception:  # a parent package that fails to import, a name that is no module name
            spec = None
        if spec is None:
            return None, needs
        here = spec.origin
    else:
        here = getattr(module, "__file__", None)
    if recorded is not None and not (isinstance(here, str) and os.path.realpath(here) == recorded):
        return None, f"{needs} (it came from {recorded}; the module {module_name} here is {here or 'another one'})"
    if module is None:
        try:
            module = importlib.import_module(module_name)
        except Exception:
            return None, needs
    value: Any = module
    for part in qualname.split("."):
        value = getattr(value, part, None)
        if value is None:
            return None, needs
    return (value, "") if callable(value) else (None, needs)


@public("plancheck.acceptance")
def destroy_leftovers(
    root: str | os.PathLike[str] | None = None,
    *,
    terraform: TerraformBinary | str | os.PathLike[str] | None = None,
    providers: Mapping[str, Any] | None = None,
    cli_config: str | os.PathLike[str] | None = None,
    timeout: float | None = None,
    log: Callable[[str], object] = print,
    project: str | os.PathLike[str] | None = None,
) -> LeftoverResult:
    """Destroy every leftover under ``root`` (default :func:`default_leftovers_dir`); remove those destroyed.

    ``terraform`` defaults to the binary that made the leftover when it is still there, else the one
    found as the runner finds it. ``providers`` (``{address: factory}``) serves providers under test
    that cannot be imported back by name. ``cli_config`` defaults to the leftover's copy of the CLI
    configuration the case used, when it had one. A ``terraform`` that was named but cannot be used
    raises :class:`TerraformNotFoundError` before any leftover is touched; without any usable binary
    each leftover is kept, saying so. Whatever a leftover's manifest holds, it is destroyed or kept
    with the reason (recorded in its manifest), never an exception. A manifest that cannot be read
    at all (not a JSON object) is in ``unreadable`` with its :class:`LeftoverRecordError`'s message,
    and that leftover is left exactly as it is: never destroyed, removed, or written to.

    ``project`` (a directory) leaves alone the leftovers of tests outside it: another project's, in a
    leftovers directory two projects share (``$TFPLANCHECK_LEFTOVERS_DIR``); ``pytest --tf-destroy-leftovers``
    gives its rootdir.

    >>> destroy_leftovers("/no/such/directory", log=lambda line: None)
    LeftoverResult([], {}, [], {})

    A Ctrl-C, SIGTERM or SIGHUP ends the destroy under way (its commands and providers) and keeps its leftover.
    """
    # SIGTERM and SIGHUP unwind like a Ctrl-C until the commands and providers of the leftover at hand have ended.
    for path in (root, cli_config, project):
        if path is not None:
            fs_path(path, "destroy_leftovers")
    with ending_on_signals():
        return _destroy_all(root, terraform, providers, cli_config, timeout, log, project)


def _destroy_all(
    root: str | os.PathLike[str] | None, terraform: TerraformBinary | str | os.PathLike[str] | None,
    providers: Mapping[str, Any] | None, cli_config: str | os.PathLike[str] | None, timeout: float | None,
    log: Callable[[str], object], project: str | os.PathLike[str] | None,
) -> LeftoverResult:
    destroyed: list[str] = []
    kept: dict[str, str] = {}
    if timeout is not None:
        timeout = check_timeout(timeout)
    found = find_leftovers(root)
    # A binary that was named and cannot be used fails at once, before any leftover is touched.
    chosen = None if terraform is None or not found else (
        terraform if isinstance(terraform, TerraformBinary) else inspect_binary(terraform))
    left_alone: list[str] = []
    unreadable: dict[str, str] = {}
    for leftover in found:
        try:
            leftover.require_record()
        except LeftoverRecordError as exc:
            unreadable[str(leftover.path)] = str(exc)
            log(f"[leftovers] {exc}")
            continue
        if project is not None and not leftover.made_under(project):
            left_alone.append(str(leftover.path))
            log(f"[leftovers] left alone {leftover.path}: left by tests under {leftover.base_dir}, "
                f"not this project's ({project})")
            continue
        try:
            problem = _destroy_one(leftover, chosen, providers, cli_config, timeout, log)
        except (TestDefinitionError, TerraformNotFoundError) as exc:
            problem = str(exc)
        record_attempt(leftover, problem)
        if problem is None:
            shutil.rmtree(leftover.path, ignore_errors=True)
            destroyed.append(str(leftover.path))
            log(f"[leftovers] destroyed and removed {leftover.path}")
        else:
            kept[str(leftover.path)] = problem
            log(f"[leftovers] kept {leftover.path}: {problem}")
    return LeftoverResult(destroyed, kept, left_alone, unreadable)


def _destroy_one(
    leftover: Leftover, terraform: Any, providers: Mapping[str, Any] | None, cli_config: Any,
    timeout: float | None, log: Callable[[str], object],
) -> str | None:
    served: dict[str, Any] = {}
    for address, name in leftover.providers_in_process.items():
        factory = (providers or {}).get(address)
        if factory is None:
            factory, problem = _factory_for(leftover, address, name)
            if factory is None:
                return problem
        served[address] = factory
    binary = terraform if terraform is not None else _recorded_or_found(leftover)
    if binary is None:
        return (f"no terraform binary found: give terraform= (--terraform PATH), set ${ENV_TERRAFORM_PATH}, "
                "or put terraform or tofu on PATH")
    config = cli_config
    if config is None and (leftover.path / "cli.tfrc").is_file():
        config = leftover.path / "cli.tfrc"
    settings = RunSettings(
        binary if isinstance(binary, TerraformBinary) else inspect_binary(binary), leftover.path,
        cli_config=None if config is None else Path(config), timeout=check_timeout(timeout or DEFAULT_TIMEOUT),
        echo=False,
    )
    case = TestCase(steps=[TestStep(config="")], providers=served or None)
    run = CaseRun(settings, case, leftover.path)
    # Before any command: a provider's error may echo a value of the kept state (its delete failing again).
    run.add_secrets(Secrets(kept_secrets(leftover.path)))
    log(f"[leftovers] destroying {leftover.path} (left by {leftover.test or 'an unnamed test'})")
    try:
        run.use_providers(case.steps[0])
        run.tf(Stage.INIT, "init", "-input=false", "-no-color")
        run.tf(Stage.DESTROY, "destroy", "-auto-approve", "-input=false", "-no-color")
    except _StepFailure as failure:
        return run.secrets.scrub(f"{failure.reason}: {_last_line(failure)}")
    finally:
        run.providers.close(after_failure=True)
    return None


def _recorded_or_found(leftover: Leftover) -> TerraformBinary | None:
    """The binary that made ``leftover`` while it is there and works, else the one the runner would find."""
    recorded = leftover.manifest.get("terraform")
    path = recorded.get("path") if isinstance(recorded, dict) else None
    if isinstance(path, str) and os.path.isfile(path):
        with contextlib.suppress(TerraformNotFoundError):
            return inspect_binary(path)
    return discover_terraform()


def _last_line(failure: Any) -> str:
    result = failure.result
    text = (result.stderr or result.stdout or "").strip() if result is not None else ""
    lines = [line.strip(" │╷╵") for line in text.splitlines() if line.strip(" │╷╵")]
    return lines[0] if lines else "no output"


@public("plancheck.acceptance")
def mock_plan(
    module_dir: str | os.PathLike[str],
    *,
    mocks: MockProvider | Sequence[MockProvider],
    variables: Mapping[str, Any] | None = None,
    var_files: Sequence[str | os.PathLike[str]] = (),
    terraform: TerraformBinary | str | os.PathLike[str] | None = None,
    timeout: float = PLAN_TIMEOUT,
    out: str | os.PathLike[str] | None = None,
) -> Plan:
    """The plan of the module in ``module_dir`` with its providers mocked: ``tfplancheck mock-plan`` in Python.

    The same engine as the command line: the module (and every local module it reaches) is copied to a
    private temporary directory with a local backend, each of ``mocks`` (:class:`MockProvider`) is served
    in this process, and ``init``, ``plan`` and ``show -json`` run there: no credentials, no network for
    the mocked providers; every process and file it made is gone when it returns or fails. ``variables``
    are the root module's (JSON values; wrap a secret in :class:`Sensitive`), applied after ``var_files``;
    ``TF_VAR_*`` variables of the environment reach the module too. ``terraform`` is a path or a
    :class:`TerraformBinary` (default: ``$TF_ACC_TERRAFORM_PATH``, then ``terraform`` on ``PATH``);
    ``timeout`` is per command; ``out`` gets the plan JSON as Terraform printed it (sensitive values in
    clear; not as a file Terraform would read as part of the module, such as ``plan.tf.json`` in its directory). Unlike :meth:`AcceptanceRunner.run` it needs no ``TF_ACC``: nothing real is planned.

    A bad argument raises :class:`MockPlanArgumentError` (``argument`` names it), a failing Terraform or
    mock :class:`MockPlanFailedError` (Terraform's own message in it; ``show -json`` printing what is no plan
    is one too, said as the acceptance runner says it, with Terraform's stderr); no message shows the value of a
    sensitive variable or of a :class:`Sensitive`, nor does a check of the plan: a ``Sensitive`` value is one of its
    :attr:`~plancheck.Plan.secrets` whatever the module declares (a copy pickled forgets it). The plan is a
    :class:`plancheck.Plan`:
    ``assert_plan(mock_plan(...), ...)``, ``assert snapshot(extension_class=PlanSnapshotExtension) == mock_plan(...)``.

    >>> mock_plan("examples/mock_module", mocks=["acme/cloud"])
    Traceback (most recent call last):
    ...
    plancheck.acceptance.MockPlanArgumentError: mocks[0]: expected a MockProvider, got str
    """
    directory = _path_argument(module_dir, "module_dir")
    served = _mocks_argument(mocks)
    values, secrets = _variables_argument(variables)
    files = [os.path.abspath(_path_argument(f, f"var_files[{i}]")) for i, f in enumerate(_sequence(var_files, "var_files"))]
    for i, name in enumerate(files):
        if not os.path.isfile(name):
            found = "is a directory" if os.path.isdir(name) else "no such file"
            raise MockPlanArgumentError("var_files", f"var_files[{i}]: {name}: {found}")
    written = None if out is None else Path(_path_argument(out, "out"))
    problem = None if written is None else out_problem(written, Path(directory))
    if problem is not None:
        raise MockPlanArgumentError("out", f"out: {problem}")
    try:
        seconds = check_timeout(timeout)
    except TimeoutValueError as exc:
        raise MockPlanArgumentError("timeout", str(exc)) from None
    environ = dict(os.environ)
    if isinstance(terraform, TerraformBinary):
        binary = terraform.path
    else:
        given = None if terraform is None else _path_argument(terraform, "terraform")
        binary = find_terraform(given, environ)
    names = declared_sensitive(Path(directory))
    secrets = secrets | input_secrets(Path(directory), [], files, environ) | Secrets(
        s for name in names & set(values) for s in wrapped_strings(values[name], lambda v: v, hidden=True)
    )
    met(secrets)  # a front end writing (the pytest plugin's session) scrubs them from everything it writes
    for mock in served:
        mock.plancheck_secrets(secrets)
    scrub = scrubbing(secrets, served)
    # SIGTERM and SIGHUP unwind like a Ctrl-C: the mocks and Terraform are ended, the copy removed.
    with ending_on_signals():
        try:
            plan = plan_module(
                Path(directory), served, terraform=binary, environ=environ, timeout=seconds, out=written,
                var_files=files, variables_json=_exact_json(values) if values else None,
            )
        except MockPlanFailedError as exc:
            raise MockPlanFailedError(exc.step, scrub(exc.detail)) from None
        except MockPlanArgumentError as exc:
            raise MockPlanArgumentError(exc.argument, scrub(exc.problem)) from None
    planned_in(plan, Path(directory))  # module coverage (--tf-cov) counts it as this module's plan
    if secrets:
        from .._documents.plan import DocumentSecrets
        from .._documents.sensitive import collect_plan_secrets

        # A Sensitive(...) value is secret whatever the module declares, and the plan marks none of a variable that
        # is not sensitive: its checks hide it too (as the acceptance runner's do), in a script without pytest.
        plan._set(_secrets_of=DocumentSecrets(plan.raw, collect_plan_secrets, secrets))
    return plan


def _path_argument(value: object, argument: str) -> str:
    if isinstance(value, (str, os.PathLike)) and not isinstance(value, bytes):
        text = os.fspath(value)
        if isinstance(text, str) and _unheld(text):
            # os.path's and open's own bare ValueError ('embedded null byte') or UnicodeEncodeError, naming nothing.
            raise MockPlanArgumentError(argument, f"{argument}: {text!r}: a name the system cannot take (a NUL byte or "
                                                  "a lone surrogate)")
        if isinstance(text, str) and text:
            return text
    raise MockPlanArgumentError(argument, f"{argument}: expected a path (str or os.PathLike), got {_kind(value)}")


def _kind(value: object) -> str:
    return "an empty string" if value == "" else type(value).__name__


def _sequence(value: object, argument: str) -> Sequence[Any]:
    if isinstance(value, (list, tuple)):
        return value
    raise MockPlanArgumentError(argument, f"{argument}: expected a list, got {type(value).__name__}")


def _mocks_argument(mocks: object) -> list[MockProvider]:
    given = [mocks] if isinstance(mocks, MockProvider) else _sequence(mocks, "mocks")
    for i, mock in enumerate(given):
        if not isinstance(mock, MockProvider):
            raise MockPlanArgumentError("mocks", f"mocks[{i}]: expected a MockProvider, got {type(mock).__name__}")
    addresses = [m.address for m in given]
    twice = sorted({a for a in addresses if addresses.count(a) > 1})
    if twice:
        raise MockPlanArgumentError("mocks", f"mocks: {twice[0]} is given twice")
    return list(given)


def _variables_argument(variables: object) -> tuple[dict[str, Any], Secrets]:
    if variables is None:
        return {}, Secrets()
    if not isinstance(variables, Mapping):
        raise MockPlanArgumentError(
            "variables", f"variables: expected a dict of variable name -> value, got {type(variables).__name__}"
        )
    secrets = Secrets(sensitive_strings(variables))
    for name in variables:
        if not variable_name(name):
            problem = reserved_name(name) or "is not a variable name"
            # The one rule: a name that spells a Sensitive string of another variable is that secret.
            shown = secrets.scrub(repr(name)) if isinstance(name, str) else type(name).__name__
            raise MockPlanArgumentError("variables", f"variables: {shortened(shown)} {problem}")
    try:
        values = unwrap_sensitive(dict(variables), "variables")
    except TestDefinitionError as exc:
        raise MockPlanArgumentError("variables", str(exc)) from None
    return values, secrets


def _cli_config_problem(path: Path) -> str | None:
    """What keeps Terraform from reading the CLI configuration file ``path``, or None: Terraform only warns of it,
    runs without it, and ``init`` then failed saying no provider mirror is set up.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _cli_config_problem(Path(d, "missing.tfrc")) == f"cannot read {Path(d, 'missing.tfrc')}: No such file or directory"
    True
    """
    try:
        with open(path, "rb"):
            return None
    except (OSError, ValueError) as exc:  # the system's reason, as every other file the library cannot read
        return f"cannot read {path}: {why_unopened(exc)}"


def _unheld(text: str) -> bool:
    """Whether ``text`` cannot be a path, an argument or an environment entry of a command: Popen and every system
    call raised a bare ValueError ('embedded null byte') or UnicodeEncodeError for it, inside the first command."""
    try:
        os.fsencode(text)
    except UnicodeEncodeError:
        return True
    return "\0" in text


def _environment(env: object) -> dict[str, str]:
    """``AcceptanceRunner(env=...)`` as a dict, or the TestDefinitionError naming the entry no environment holds
    (by its name only: a value, ``TF_VAR_password``'s say, may be a secret)."""
    if env is None:
        return {}
    if not isinstance(env, Mapping):
        raise TestDefinitionError("AcceptanceRunner.env", f"expected a mapping of str to str, got {type(env).__name__}")
    for name, value in env.items():
        where = f"AcceptanceRunner.env[{name!r}]" if isinstance(name, str) and not _unheld(name) else "AcceptanceRunner.env"
        if not isinstance(name, str) or not isinstance(value, str):
            raise TestDefinitionError(where, f"expected a str name and value, got {type(name).__name__} and "
                                             f"{type(value).__name__}")
        if _unheld(name) or "=" in name or _unheld(value):
            raise TestDefinitionError(where, "an entry no environment can hold (a NUL byte, a lone surrogate, or an "
                                             "= in its name)")
    return dict(env)
