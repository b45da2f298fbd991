"""The acceptance-test runner: drives a real Terraform through the steps of a :class:`TestCase`.

:class:`AcceptanceRunner` holds the settings (binary, directories, environment, timeout) and
checks the case's Terraform version requirements; each case's progress, commands and steps are
``_caserun.CaseRun``'s (handed the runner's :class:`~plancheck.acceptance._settings.RunSettings`), an
import step is ``_importstep.ImportStep``'s.
"""

from __future__ import annotations

import os
import unittest
from collections.abc import Callable, Mapping
from pathlib import Path

from .._frozen import public
from .._redact import Secrets
from .._terraform import (
    ENV_TF_ACC,
    TF_ACC_SKIP_MESSAGE,
    CommandResult,
    TerraformBinary,
    check_timeout,
    inspect_binary,
    tf_acc_set,
)
from ..tfversion import Version, VersionError, run_check
from ._case import TestCase
from ._caserun import ENV_PERSIST_WORKING_DIR, ENV_REFRESH_AFTER_APPLY, CaseRun
from ._errors import AcceptanceError, Stage, TestDefinitionError
from ._importstep import run_import_step
from ._settings import DEFAULT_TIMEOUT, RunSettings

__all__ = [
    "DEFAULT_TIMEOUT",
    "ENV_PERSIST_WORKING_DIR",
    "ENV_REFRESH_AFTER_APPLY",
    "ENV_TF_ACC",
    "TF_ACC_SKIP_MESSAGE",
    "AcceptanceRunner",
    "tf_acc_set",
]



@public("plancheck.acceptance")
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
        share_secrets: Callable[[Secrets], None] | None = None,
        test_name: str | None = None,
        base_dir: str | os.PathLike[str] | None = None,
        require_tf_acc: bool = True,
        leftovers_dir: str | os.PathLike[str] | None = None,
    ) -> None:
        if test_name is not None and not isinstance(test_name, str):
            raise TestDefinitionError("AcceptanceRunner.test_name", f"expected a str, got {type(test_name).__name__}")
        if not isinstance(require_tf_acc, bool):
            raise TestDefinitionError(
                "AcceptanceRunner.require_tf_acc", f"expected a bool, got {type(require_tf_acc).__name__}"
            )
        self._require_tf_acc = require_tf_acc
        self._cases = 0
        self._commands: list[CommandResult] = []
        self._settings = RunSettings(
            terraform=terraform if isinstance(terraform, TerraformBinary) else inspect_binary(terraform),
            work_dir=Path(work_dir),
            cli_config=None if cli_config is None else Path(cli_config),
            env=dict(env or {}),
            # Refused here, not at the first command: NaN, inf, 0, negatives, bools, non-numbers.
            timeout=check_timeout(timeout),
            echo=echo,
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
        CaseRun(self._settings, case, root, import_step=run_import_step).execute()

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
