"""Import, refresh, destroy and taint steps, check functions and config sources, end to end.

The example widget provider (examples/widget_provider) is served in this process; each test runs
on the pinned Terraform 1.0.3 and the newer one on PATH (import blocks: 1.5 and later only).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from provider_support import WIDGET, example_module, leak_check

from plancheck import ExpectResourceAction, ResourceAction, State
from plancheck.acceptance import (
    AcceptanceError,
    AcceptanceRunner,
    ConfigPlanChecks,
    ImportPlanChecks,
    ImportStateKind,
    RefreshPlanChecks,
    Sensitive,
    Stage,
    TestCase,
    TestStep,
)
from plancheck.acceptance.config import StaticFile, TestStepConfigRequest, TestStepDirectory

pytestmark = pytest.mark.e2e

widget = example_module()
SECRET = "acc-steps-secret-7781"
DRIFTED_SECRET = "acc-steps-drifted-4492"
ADDRESS = "widget_thing.t"


def hcl(name: str = "alpha", description: str = "first") -> str:
    return f"""
variable "secret" {{
  type      = string
  sensitive = true
}}

resource "widget_thing" "t" {{
  name        = "{name}"
  description = "{description}"
  size        = 3
  secret      = var.secret
  tags        = {{ env = "test" }}
}}
"""


VARS = {"secret": Sensitive(SECRET)}


class Made:
    """A factory remembering its one provider, so a test can look into (or change) its store."""

    def __init__(self) -> None:
        self.providers: list[Any] = []

    def __call__(self) -> Any:
        self.providers.append(widget.WidgetProvider())
        return self.providers[-1]

    @property
    def store(self) -> Any:
        [provider] = self.providers
        return provider.store

    def drift(self, **fields: Any) -> None:
        widget_id = self.store.ids()[0]
        self.store.update(widget_id, {**self.store.get(widget_id), **fields})


def runner_for(tf_acceptance: AcceptanceRunner, **kwargs: Any) -> AcceptanceRunner:
    kwargs.setdefault("echo", False)
    return AcceptanceRunner(tf_acceptance.terraform, tf_acceptance.work_dir, timeout=120, **kwargs)


def subcommands(runner: AcceptanceRunner) -> list[str]:
    return [c.command_line.split()[1] for c in runner.commands]


def widget_state(state: State) -> dict[str, Any]:
    return dict(state.resource(ADDRESS).values)


# -- import steps ----------------------------------------------------------------------------


def test_import_command_verifies_and_checks_in_a_separate_directory(
    tf_acceptance: AcceptanceRunner, private_tmp: Path
) -> None:
    made = Made()
    seen: list[list[Any]] = []

    def import_check(resources: list[Any]) -> None:
        seen.append([(r.address, r.values["id"], r.values["name"]) for r in resources])

    with leak_check(private_tmp) as leaks:
        tf_acceptance.run(TestCase(providers={WIDGET: made}, steps=[
            TestStep(config=hcl(), variables=VARS),
            TestStep(import_state=True, resource_name=ADDRESS, import_state_verify=True, import_state_check=import_check),
        ]))
    assert not leaks[0], leaks[0]
    assert seen == [[(ADDRESS, "w-0001", "alpha")]]
    assert made.store.ids() == []
    imports = [c for c in tf_acceptance.commands if c.command_line.split()[1] == "import"]
    assert [c.command_line.split()[-2:] for c in imports] == [[ADDRESS, "w-0001"]]
    assert imports[0].cwd.endswith("case1_import_step_2")
    # The import directory is gone; the case's own state was never touched by the import.
    assert sorted(p.name for p in tf_acceptance.work_dir.iterdir() if p.is_dir()) == ["case1"]
    assert all(SECRET not in c.stdout + c.stderr for c in tf_acceptance.commands)


def test_import_verify_names_every_difference_and_redacts_the_secret(tf_acceptance: AcceptanceRunner) -> None:
    made = Made()
    runner = runner_for(tf_acceptance)
    with pytest.raises(AcceptanceError) as info:
        runner.run(TestCase(providers={WIDGET: made}, steps=[
            TestStep(config=hcl(), variables=VARS),
            TestStep(
                pre_config=lambda: made.drift(description="changed behind", secret=DRIFTED_SECRET, size=4),
                import_state=True,
                resource_name=ADDRESS,
                import_state_verify=True,
                import_state_verify_ignore=["revision"],
            ),
        ]))
    error = info.value
    assert (error.step, error.stage) == (2, Stage.IMPORT_STATE_VERIFY)
    assert error.reason == (
        "ImportStateVerify attributes not equivalent. Difference is shown below. "
        "The - symbol indicates attributes missing after import.\n\n"
        "widget_thing.t:\n"
        '- "description": "first"\n'
        '+ "description": "changed behind"\n'
        '- "secret": (sensitive)\n'
        '+ "secret": (sensitive)\n'
        '- "size": "3"\n'
        '+ "size": "4"'
    )
    assert SECRET not in str(error)
    assert DRIFTED_SECRET not in str(error)
    assert made.store.ids() == []  # the case's resource was still destroyed


def test_import_by_id_func_with_prefix_and_persist(tf_acceptance: AcceptanceRunner) -> None:
    made = Made()
    asked: list[str] = []

    def import_id(state: State) -> str:
        asked.append(widget_state(state)["name"])
        return widget_state(state)["id"].removeprefix("w-")

    runner = runner_for(tf_acceptance)
    runner.run(TestCase(providers={WIDGET: made}, steps=[
        TestStep(config=hcl(), variables=VARS),
        # The same resource imported again under a second address, in the case's own directory.
        TestStep(
            config=hcl() + 'resource "widget_thing" "u" {\n  name = "alpha"\n}\n',
            variables=VARS,
            import_state=True,
            resource_name="widget_thing.u",
            import_state_id_func=import_id,
            import_state_id_prefix="w-",
            import_state_persist=True,
        ),
        TestStep(refresh_state=True, expect_non_empty_plan=True,
                 check=lambda state: None if state.has_resource("widget_thing.u") else AssertionError("not imported")),
    ]))
    assert asked == ["alpha"]
    imports = [c for c in runner.commands if c.command_line.split()[1] == "import"]
    assert imports[0].command_line.split()[-2:] == ["widget_thing.u", "w-0001"]
    assert imports[0].cwd.endswith("case1")


@pytest.mark.tf_min_version("1.5")
def test_import_block_plans_a_no_op_import_and_runs_the_plan_checks(tf_acceptance: AcceptanceRunner) -> None:
    made = Made()
    runner = runner_for(tf_acceptance)
    runner.run(TestCase(providers={WIDGET: made}, steps=[
        TestStep(config=hcl(), variables=VARS),
        TestStep(
            import_state=True,
            import_state_kind=ImportStateKind.ImportBlockWithID,
            resource_name=ADDRESS,
            import_plan_checks=ImportPlanChecks(pre_apply=[ExpectResourceAction(ADDRESS, ResourceAction.NoOp)]),
        ),
    ]))
    assert "import" not in subcommands(runner)
    plans = [c for c in runner.commands if c.cwd.endswith("case1_import_step_2") and c.command_line.split()[1] == "plan"]
    assert len(plans) == 1
    assert "1 to import" in plans[0].stdout


def _import_by_an_id_that_is_no_utf8_text(tf_acceptance: AcceptanceRunner, kind: ImportStateKind) -> None:
    # A lone surrogate from import_state_id_func was a bare UnicodeEncodeError where the id became an argument of
    # `terraform import` (or a file holding the import block).
    runner = runner_for(tf_acceptance)
    with pytest.raises(AcceptanceError) as info:
        runner.run(TestCase(providers={WIDGET: Made()}, steps=[
            TestStep(config=hcl(), variables=VARS),
            TestStep(import_state=True, import_state_kind=kind, resource_name=ADDRESS,
                     import_state_id_func=lambda state: "w-\ud800"),
        ]))
    assert (info.value.step, info.value.stage) == (2, Stage.IMPORT)
    assert info.value.reason == "import_state_id_func's id: expected UTF-8 text, found a lone surrogate at character 2"


def test_an_import_id_that_is_no_utf8_text_fails_the_import_command(tf_acceptance: AcceptanceRunner) -> None:
    _import_by_an_id_that_is_no_utf8_text(tf_acceptance, ImportStateKind.ImportCommandWithID)


@pytest.mark.tf_min_version("1.5")
def test_an_import_id_that_is_no_utf8_text_fails_the_import_block(tf_acceptance: AcceptanceRunner) -> None:
    _import_by_an_id_that_is_no_utf8_text(tf_acceptance, ImportStateKind.ImportBlockWithID)


@pytest.mark.tf_min_version("1.5")
def test_import_block_with_a_changed_resource_fails_as_go_does(tf_acceptance: AcceptanceRunner) -> None:
    made = Made()
    runner = runner_for(tf_acceptance)
    with pytest.raises(AcceptanceError) as info:
        runner.run(TestCase(providers={WIDGET: made}, steps=[
            TestStep(config=hcl(), variables=VARS),
            TestStep(pre_config=lambda: made.drift(description="drifted"), import_state=True,
                     import_state_kind=ImportStateKind.ImportBlockWithID, resource_name=ADDRESS),
        ]))
    assert info.value.stage is Stage.IMPORT_PLAN
    assert info.value.reason == (
        "importing resource widget_thing.t: expected a no-op import operation, got [\"update\"] action with plan"
    )


def test_resource_identity_import_is_refused_before_terraform_1_12(tf_acceptance: AcceptanceRunner) -> None:
    version = tf_acceptance.terraform.version
    if tf_acceptance.terraform.version_tuple >= (1, 12):
        pytest.skip("this binary supports resource identity")
    runner = runner_for(tf_acceptance)
    with pytest.raises(AcceptanceError) as info:
        runner.run(TestCase(providers={WIDGET: Made()}, steps=[
            TestStep(config=hcl(), variables=VARS),
            TestStep(import_state=True, import_state_kind=ImportStateKind.ImportBlockWithResourceIdentity,
                     resource_name=ADDRESS),
        ]))
    assert (info.value.step, info.value.stage) == (2, Stage.IMPORT)
    assert info.value.reason == (
        f"ImportState steps using resource identity require Terraform 1.12.0 or later (this is {version}). "
        "Either upgrade the Terraform version running the test or add a `terraform_version_checks` to the "
        "test case to skip this test."
    )


# -- refresh, destroy, taint ----------------------------------------------------------------


def test_refresh_step_sees_drift_in_its_check_and_its_plan(tf_acceptance: AcceptanceRunner) -> None:
    made = Made()
    checked: list[str] = []

    def check(state: State) -> None:
        checked.append(widget_state(state)["description"])

    runner = runner_for(tf_acceptance)
    runner.run(TestCase(providers={WIDGET: made}, steps=[
        TestStep(config=hcl(), variables=VARS),
        TestStep(
            pre_config=lambda: made.drift(description="drifted"),
            refresh_state=True,
            check=check,
            expect_non_empty_plan=True,
            refresh_plan_checks=RefreshPlanChecks(post_refresh=[ExpectResourceAction(ADDRESS, ResourceAction.Update)]),
        ),
    ]))
    assert checked == ["drifted"]
    assert subcommands(runner)[:7] == ["init", "plan", "show", "apply", "plan", "plan", "refresh"]


def test_refresh_step_with_drift_fails_without_expect_non_empty_plan(tf_acceptance: AcceptanceRunner) -> None:
    made = Made()
    runner = runner_for(tf_acceptance)
    with pytest.raises(AcceptanceError) as info:
        runner.run(TestCase(providers={WIDGET: made}, steps=[
            TestStep(config=hcl(), variables=VARS),
            TestStep(pre_config=lambda: made.drift(description="drifted"), refresh_state=True),
        ]))
    assert info.value.stage is Stage.POST_REFRESH
    assert info.value.reason == (
        "After refreshing state during this test step, a followup plan was not empty; planned changes:\n"
        "  widget_thing.t: update"
    )


def test_destroy_step_check_sees_the_state_before_and_check_destroy_runs(tf_acceptance: AcceptanceRunner) -> None:
    made = Made()
    before_destroy: list[list[str]] = []
    check_destroy: list[tuple[list[str], list[str]]] = []

    def check(state: State) -> None:
        before_destroy.append(sorted(state.addresses()))

    def gone(state: State) -> Exception | None:
        check_destroy.append((sorted(state.addresses()), made.store.ids()))
        return None if not made.store.ids() else AssertionError("widgets left behind")

    runner = runner_for(tf_acceptance)
    runner.run(TestCase(providers={WIDGET: made}, check_destroy=gone, steps=[
        TestStep(config=hcl(), variables=VARS),
        TestStep(config=hcl(), variables=VARS, destroy=True, check=check),
        TestStep(config=hcl(name="beta"), variables=VARS),
    ]))
    assert before_destroy == [[ADDRESS]]
    assert check_destroy == [([ADDRESS], [])]
    plans = [c.command_line for c in runner.commands if c.command_line.split()[1] == "plan"]
    assert sum("-destroy" in p for p in plans) == 4  # pre-apply (twice: before and after the refresh), two follow-ups


def test_check_destroy_failure_is_reported(tf_acceptance: AcceptanceRunner) -> None:
    runner = runner_for(tf_acceptance)
    with pytest.raises(AcceptanceError) as info:
        runner.run(TestCase(providers={WIDGET: Made()}, check_destroy=lambda state: ValueError(f"still {len(state.resources)}"),
                            steps=[TestStep(config=hcl(), variables=VARS)]))
    assert (info.value.stage, info.value.reason) == (Stage.CHECK_DESTROY, "CheckDestroy failed: still 1")
    assert str(info.value).startswith("check_destroy (after the post-test destroy): CheckDestroy failed: still 1")


def test_taint_replaces_the_resource(tf_acceptance: AcceptanceRunner) -> None:
    made = Made()
    runner = runner_for(tf_acceptance)
    runner.run(TestCase(providers={WIDGET: made}, steps=[
        TestStep(config=hcl(), variables=VARS),
        TestStep(
            config=hcl(), variables=VARS, taint=[ADDRESS],
            config_plan_checks=ConfigPlanChecks(pre_apply=[ExpectResourceAction(ADDRESS, ResourceAction.DestroyBeforeCreate)]),
            check=lambda state: None if widget_state(state)["id"] == "w-0002" else AssertionError(widget_state(state)["id"]),
        ),
    ]))
    assert "taint" in subcommands(runner)


# -- check functions, error_check, skip_func ------------------------------------------------


def test_step_check_failure_is_redacted_and_destroys(tf_acceptance: AcceptanceRunner) -> None:
    made = Made()

    def check(state: State) -> None:
        values = widget_state(state)
        if values["name"] != "zeta":
            raise AssertionError(f"name is {values['name']}, secret is {values['secret']}")

    runner = runner_for(tf_acceptance)
    with pytest.raises(AcceptanceError) as info:
        runner.run(TestCase(providers={WIDGET: made}, steps=[TestStep(config=hcl(), variables=VARS, check=check)]))
    assert (info.value.stage, info.value.reason) == (Stage.CHECK, "Check failed: name is alpha, secret is (sensitive)")
    assert made.store.ids() == []


def test_error_check_can_let_a_failure_pass_or_replace_it(tf_acceptance: AcceptanceRunner) -> None:
    made = Made()
    seen: list[Stage] = []

    def ignore(error: AcceptanceError) -> None:
        seen.append(error.stage)

    runner = runner_for(tf_acceptance)
    bad = hcl().replace('size        = 3', 'size        = "three"')
    runner.run(TestCase(providers={WIDGET: made}, error_check=ignore, steps=[
        TestStep(config=bad, variables=VARS),
        TestStep(config=hcl(), variables=VARS),
    ]))
    assert seen == [Stage.PRE_APPLY]

    class ProviderDown(Exception):
        pass

    with pytest.raises(ProviderDown) as info:
        runner.run(TestCase(providers={WIDGET: Made()}, error_check=lambda error: ProviderDown(error.stage.value),
                            steps=[TestStep(config=bad, variables=VARS)]))
    assert str(info.value) == "pre_apply"
    assert isinstance(info.value.__cause__, AcceptanceError)


def test_skip_func_skips_the_step(tf_acceptance: AcceptanceRunner) -> None:
    runner = runner_for(tf_acceptance)
    called: list[str] = []
    runner.run(TestCase(providers={WIDGET: Made()}, steps=[
        TestStep(config=hcl(), variables=VARS),
        TestStep(config="this is not HCL", pre_config=lambda: called.append("pre_config"),
                 skip_func=lambda: called.append("skip_func") or True),
    ]))
    assert called == ["pre_config", "skip_func"]
    assert subcommands(runner) == ["init", "plan", "show", "apply", "plan", "plan", "destroy"]


# -- config sources -----------------------------------------------------------------------


def test_config_functions_files_and_step_directories(tf_acceptance: AcceptanceRunner, tmp_path: Path) -> None:
    base = tmp_path / "tests"
    for step, name in ((2, "beta"), (3, "gamma")):
        directory = base / "testdata" / "test_sources" / str(step)
        directory.mkdir(parents=True)
        (directory / "main.tf").write_text(hcl(name=name) + 'terraform {\n  required_providers {\n'
                                           f'    widget = {{ source = "{WIDGET}" }}\n  }}\n}}\n')
    (base / "one.tf").write_text(hcl(name="delta") + 'terraform {\n  required_providers {\n'
                                 f'    widget = {{ source = "{WIDGET}" }}\n  }}\n}}\n')
    requests: list[TestStepConfigRequest] = []

    def first(request: TestStepConfigRequest) -> str:
        requests.append(request)
        return hcl(name="alpha")

    names: list[str] = []
    record = lambda state: names.append(widget_state(state)["name"])  # noqa: E731 - a one-line check
    runner = runner_for(tf_acceptance, test_name="test_sources", base_dir=base)
    runner.run(TestCase(providers={WIDGET: Made()}, steps=[
        TestStep(config=first, variables=VARS, check=record),
        TestStep(config_directory=TestStepDirectory(), variables=VARS, check=record),
        TestStep(config_directory=TestStepDirectory(), variables=VARS, check=record),
        TestStep(config_file=StaticFile("one.tf"), variables=VARS, check=record),
    ]))
    assert requests == [TestStepConfigRequest(step_number=1, test_name="test_sources")]
    assert names == ["alpha", "beta", "gamma", "delta"]


def test_a_missing_step_directory_fails_the_step(tf_acceptance: AcceptanceRunner, tmp_path: Path) -> None:
    runner = runner_for(tf_acceptance, test_name="test_missing", base_dir=tmp_path)
    with pytest.raises(AcceptanceError) as info:
        runner.run(TestCase(providers={WIDGET: Made()}, steps=[TestStep(config_directory=TestStepDirectory())]))
    assert info.value.stage is Stage.CONFIG
    assert info.value.reason == (
        f"cannot write the configuration: TestStep.config_directory: {tmp_path}/testdata/test_missing/1 is not a directory"
    )
