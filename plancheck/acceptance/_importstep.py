"""An ``import_state`` step (Go's ``testStepNewImportState``): import by command or block, then check and verify."""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final

from .._documents.state import State
from .._errors import DocumentFormatError
from .._terraform import CommandResult
from ..tfversion import Version, VersionError
from ._case import TestStep
from ._errors import Stage, TestDefinitionError
from ._importstate import import_block, import_block_with_identity, state_resources, verify_import
from ._stepfailure import _StepFailure
from ._workdir import Place, WorkingDirectory

if TYPE_CHECKING:
    from ._caserun import CaseRun

__all__ = ["IMPORT_BLOCK_FILE", "run_import_step"]

#: Go's minimum versions for the import block kinds (``importStatePreconditions``).
_IMPORT_BLOCK_MIN: Final = Version("1.5.0")
_IDENTITY_MIN: Final = Version("1.12.0")
_VERSION_HINT: Final = (
    "Either upgrade the Terraform version running the test or add a `terraform_version_checks` "
    "to the test case to skip this test."
)
IMPORT_BLOCK_FILE: Final = "plancheck_import.tf"


class _ImportStep:
    """An ``import_state`` step (Go's ``testStepNewImportState``): import, then check and verify."""

    def __init__(self, run: CaseRun, step: TestStep) -> None:
        self.run_ = run
        self.step = step
        self.kind = step.import_state_kind
        assert step.resource_name is not None  # checked by TestStep
        self.address = step.resource_name

    def fail(self, stage: Stage, reason: str, result: CommandResult | None = None) -> _StepFailure:
        return _StepFailure(stage, reason, result)

    def preconditions(self) -> None:
        try:
            version = Version(self.run_.settings.terraform.version)
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
        resource = next((r for r in state_resources(document) if r.get("address") == self.address), None)
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

    def place(self) -> Place | None:
        """The working directory to import in: None is the case's own (``import_state_persist``)."""
        if self.step.import_state_persist:
            return None
        run = self.run_
        root = run.wd.root.parent / f"{run.wd.root.name}_import_step_{run.step_no}"
        shutil.rmtree(root, ignore_errors=True)
        wd = WorkingDirectory(root)
        return Place(wd, {**run.env, "TF_DATA_DIR": str(root / ".terraform")})

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

    def prepare(self, place: Place | None, config: TestStep, extra: Mapping[str, str]) -> None:
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

    def clean(self, place: Place) -> None:
        run = self.run_
        if self.step.prevent_disk_cleanup or run.persist:
            run.log(f"[step {run.step_no}/{run.total}] the import working directory is kept in {place.wd.root}")
            return
        shutil.rmtree(place.wd.root, ignore_errors=True)

    def import_command(self, place: Place | None, import_id: str, before: Mapping[str, Any]) -> None:
        run, step = self.run_, self.step
        run.tf(Stage.IMPORT, "import", "-input=false", "-no-color", self.address, import_id, place=place)
        if place is None:
            run.applied = True
        after = run.show_state(Stage.IMPORT, place)
        imported = run.load(Stage.IMPORT, after)
        if step.import_state_check is not None:
            # Every imported resource, whatever its module (Go's root-module-only list would miss module.x.y.z).
            resources = [r for r in imported.resources if r.raw.get("mode", "managed") == "managed"]
            run.run_check(Stage.IMPORT_STATE_CHECK, "ImportStateCheck failed", step.import_state_check, resources)
        if step.import_state_verify:
            problem = verify_import(
                state_resources(before),
                state_resources(after),
                identifier_attribute=step.import_state_verify_identifier_attribute,
                ignore=step.import_state_verify_ignore,
                address=self.address,
            )
            if problem is not None:
                raise self.fail(Stage.IMPORT_STATE_VERIFY, problem)

    def plan_import(self, place: Place | None, identity: Mapping[str, Any] | None) -> None:
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
                (r for r in state_resources(document, "planned_values") if r.get("address") == self.address), None
            )
            new = planned.get("identity") if planned is not None else None
            if new != identity:
                raise self.fail(
                    Stage.IMPORT_PLAN,
                    f"importing resource {self.address}: expected identity values {identity}, got {new}",
                    result,
                )


def run_import_step(run: CaseRun, step: TestStep) -> None:
    """Run the ``import_state`` step ``step`` of ``run`` (what the runner hands a case as ``import_step``)."""
    _ImportStep(run, step).run()
