"""Errors of the acceptance runner: a failed step (an ``AssertionError``) and a malformed test definition."""

from __future__ import annotations

from enum import StrEnum

from .._errors import TestDefinitionError, TfCheckError
from .._frozen import public

__all__ = ["AcceptanceError", "LeftoverRecordError", "Stage", "TestDefinitionError"]


@public("plancheck.acceptance")
class Stage(StrEnum):
    """Where in a test case something failed.

    >>> Stage.PRE_APPLY.value, str(Stage.DESTROY)
    ('pre_apply', 'destroy')
    """

    VERSION_CHECKS = "version_checks"
    CONFIG = "config"
    INIT = "init"
    TAINT = "taint"
    VALIDATE = "validate"
    PRE_APPLY = "pre_apply"
    APPLY = "apply"
    CHECK = "check"
    STATE_CHECKS = "state_checks"
    POST_APPLY_PRE_REFRESH = "post_apply_pre_refresh"
    POST_APPLY_POST_REFRESH = "post_apply_post_refresh"
    POST_APPLY_FUNC = "post_apply_func"
    REFRESH_AFTER_APPLY = "refresh_after_apply"
    IMPORT = "import"
    IMPORT_PLAN = "import_plan"
    IMPORT_STATE_CHECK = "import_state_check"
    IMPORT_STATE_VERIFY = "import_state_verify"
    REFRESH = "refresh"
    POST_REFRESH = "post_refresh"
    QUERY = "query"
    QUERY_RESULT_CHECKS = "query_result_checks"
    EXPECT_ERROR = "expect_error"
    EXPECT_DIAGNOSTICS = "expect_diagnostics"
    DESTROY = "destroy"
    CHECK_DESTROY = "check_destroy"


def _indent(text: str, prefix: str = "  ") -> str:
    return "\n".join(prefix + line if line else line for line in text.splitlines())


@public("plancheck.acceptance")
class AcceptanceError(TfCheckError, AssertionError):
    """A test case failed: at which step (1-based) of how many, in which stage, and why.

    Every text in it (``reason``, ``command``, ``output``) is already redacted: the values
    of sensitive variables and of marked attributes and outputs show as ``(sensitive)``.

    >>> err = AcceptanceError(2, 3, Stage.APPLY, "terraform apply failed",
    ...                       command="terraform apply -input=false -no-color tfplan", exit_code=1,
    ...                       output="stderr:\\nError: boom")
    >>> print(err)
    step 2/3, apply: terraform apply failed
    command: terraform apply -input=false -no-color tfplan (exit code 1)
      stderr:
      Error: boom
    >>> isinstance(err, AssertionError), err.step, err.stage
    (True, 2, <Stage.APPLY: 'apply'>)

    ``also`` holds what failed after it, in the post-test destroy or ``check_destroy``: the
    first failure stays the headline.

    >>> print(AcceptanceError(1, 1, Stage.CHECK, "Check failed: no widget",
    ...                       also=("check_destroy (after the post-test destroy): CheckDestroy failed:\\nwidget left",)))
    step 1/1, check: Check failed: no widget
    also: check_destroy (after the post-test destroy): CheckDestroy failed:
      widget left
    """

    def __init__(
        self,
        step: int,
        steps: int,
        stage: Stage,
        reason: str,
        *,
        command: str | None = None,
        exit_code: int | None = None,
        output: str = "",
        also: tuple[str, ...] = (),
        trusted: tuple[str, ...] = (),
    ) -> None:
        self.step = step
        self.steps = steps
        self.stage = Stage(stage)
        self.reason = reason
        self.command = command
        self.exit_code = exit_code
        self.output = output
        self.also = tuple(also)
        #: What the check failures in ``reason`` trust (:attr:`plancheck.CheckFailure.trusted`): the report
        #: hook's scrub keeps it too.
        self.trusted = tuple(trusted)
        super().__init__(self._render())

    def add_also(self, failure: str) -> None:
        """Append a later failure (the post-test destroy's, ``check_destroy``'s) to this one's message."""
        self.also = (*self.also, failure)
        self.args = (self._render(),)

    def _render(self) -> str:
        if self.stage is Stage.DESTROY:
            head = f"post-test destroy (after step {self.step}/{self.steps}): {self.reason}"
        elif self.stage is Stage.CHECK_DESTROY:
            head = f"check_destroy (after the post-test destroy): {self.reason}"
        elif self.stage is Stage.VERSION_CHECKS:
            head = f"version checks (before step 1/{self.steps}): {self.reason}"
        else:
            head = f"step {self.step}/{self.steps}, {self.stage.value}: {self.reason}"
        lines = [head]
        if self.command is not None:
            status = "" if self.exit_code is None else f" (exit code {self.exit_code})"
            lines.append(f"command: {self.command}{status}")
        if self.output:
            lines.append(_indent(self.output))
        for failure in self.also:
            first, _, rest = failure.partition("\n")
            lines.append(f"also: {first}")
            if rest:
                lines.append(_indent(rest))
        return "\n".join(lines)


@public("plancheck.acceptance")
class LeftoverRecordError(TfCheckError, ValueError):
    """A leftover's record (``leftover.json``) cannot be read: the leftover is neither destroyed nor removed.

    Without its record nothing says which Terraform, providers and project the kept state needs, so
    an attempt could "succeed" on the wrong thing and remove the only copy of a state that still
    owns real infrastructure: the leftover is left for a person to look at.

    >>> print(LeftoverRecordError("/l/x/leftover.json", "not valid JSON"))
    /l/x/leftover.json: unreadable leftover record (not valid JSON); the leftover was neither destroyed nor removed: repair or remove it by hand
    """

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(
            f"{path}: unreadable leftover record ({problem}); the leftover was neither destroyed nor removed: "
            "repair or remove it by hand"
        )
