"""The runner end to end on real Terraform: module imports verified, secrets of the pre-apply plan known before apply.

* a resource in a child module (``module.child.widget_thing.t``) is compared by
  ``import_state_verify`` and handed to ``import_state_check``, never silently passed over;
* a provider error during apply that echoes a value under a sensitive mark of the plan never
  shows it, whether or not the step has pre-apply plan checks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from provider_support import WIDGET, example_module

from plancheck import ExpectResourceAction, ResourceAction
from plancheck.acceptance import (
    AcceptanceError,
    AcceptanceRunner,
    ConfigPlanChecks,
    Sensitive,
    Stage,
    TestCase,
    TestStep,
)

pytestmark = pytest.mark.e2e

widget = example_module()
SECRET = "runner-fixes-secret-5521"
MODULE_ADDRESS = "module.child.widget_thing.t"
ROOT = """
variable "secret" {
  type      = string
  sensitive = true
}

module "child" {
  source = "./child"
  secret = var.secret
}
"""
CHILD = """
terraform {
  required_providers {
    widget = { source = "example.com/acme/widget" }
  }
}

variable "secret" {
  type      = string
  sensitive = true
}

resource "widget_thing" "t" {
  name        = "alpha"
  description = "first"
  size        = 3
  secret      = var.secret
  tags        = { env = "test" }
}
"""


class Made:
    """A factory remembering its one provider, so a test can change its store behind Terraform's back."""

    def __init__(self) -> None:
        self.providers: list[Any] = []

    def __call__(self) -> Any:
        self.providers.append(widget.WidgetProvider())
        return self.providers[-1]

    def drift(self, **fields: Any) -> None:
        store = self.providers[-1].store
        widget_id = store.ids()[0]
        store.update(widget_id, {**store.get(widget_id), **fields})


def module_dir(tmp_path: Path) -> str:
    root = tmp_path / "config"
    (root / "child").mkdir(parents=True)
    (root / "main.tf").write_text(ROOT, encoding="utf-8")
    (root / "child" / "main.tf").write_text(CHILD, encoding="utf-8")
    return str(root)


def runner_for(tf_acceptance: AcceptanceRunner) -> AcceptanceRunner:
    return AcceptanceRunner(tf_acceptance.terraform, tf_acceptance.work_dir, timeout=120, echo=False)


def module_import_case(made: Made, config: str, **import_step: Any) -> TestCase:
    variables = {"secret": Sensitive(SECRET)}
    return TestCase(providers={WIDGET: made}, steps=[
        TestStep(config_directory=config, variables=variables),
        TestStep(config_directory=config, variables=variables, import_state=True, resource_name=MODULE_ADDRESS,
                 import_state_verify=True, **import_step),
    ])


def test_a_module_resource_is_verified_and_checked(tf_acceptance: AcceptanceRunner, tmp_path: Path) -> None:
    seen: list[list[tuple[str, str]]] = []

    def import_check(resources: list[Any]) -> None:
        seen.append([(r.address, r.values["name"]) for r in resources])

    runner = runner_for(tf_acceptance)
    runner.run(module_import_case(Made(), module_dir(tmp_path), import_state_check=import_check))
    assert seen == [[(MODULE_ADDRESS, "alpha")]]
    assert all(SECRET not in c.stdout + c.stderr + c.command_line for c in runner.commands)


def test_a_module_resource_that_changed_fails_verification(tf_acceptance: AcceptanceRunner, tmp_path: Path) -> None:
    made = Made()
    case = module_import_case(
        made, module_dir(tmp_path), pre_config=lambda: made.drift(description="changed behind"),
        import_state_verify_ignore=["revision"],
    )
    with pytest.raises(AcceptanceError) as info:
        runner_for(tf_acceptance).run(case)
    error = info.value
    assert (error.step, error.stage) == (2, Stage.IMPORT_STATE_VERIFY)
    assert error.reason == (
        "ImportStateVerify attributes not equivalent. Difference is shown below. "
        "The - symbol indicates attributes missing after import.\n\n"
        f"{MODULE_ADDRESS}:\n"
        '- "description": "first"\n'
        '+ "description": "changed behind"'
    )
    assert SECRET not in str(error) + repr(error)


# -- secrets of the pre-apply plan -----------------------------------------------------------------

CLOUD = "registry.terraform.io/acme/cloud"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "mock_module"
#: Any attempt to reach the network fails at once.
OFFLINE = {"HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9", "NO_PROXY": ""}
PLANTED = "PLANTED-plan-secret-8817"


def echoing_mock() -> Any:
    """A mock whose apply fails with an error that quotes ``encryption_key`` (sensitive in the schema)."""
    pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    from plancheck.acceptance import MockProvider

    def size_gb(config: dict[str, Any]) -> int:
        raise ValueError(f"cannot size a bucket keyed {config['encryption_key']}")

    return MockProvider.from_schema_file(
        EXAMPLES / "cloud.schema.json", CLOUD, seed=7, mock_resources={"cloud_bucket": {"size_gb": size_gb}}
    )


@pytest.mark.parametrize(
    "checks",
    [
        pytest.param(ConfigPlanChecks(), id="without-pre-apply-checks"),
        pytest.param(ConfigPlanChecks(pre_apply=[ExpectResourceAction("cloud_bucket.logs", ResourceAction.Create)]),
                     id="with-pre-apply-checks"),
    ],
)
def test_an_apply_error_never_shows_a_value_marked_sensitive_in_the_plan(
    tf_acceptance: AcceptanceRunner, checks: ConfigPlanChecks
) -> None:
    # The key is a literal, not a sensitive variable: only the plan's sensitive mark (from the schema) hides it.
    config = (EXAMPLES / "main.tf").read_text(encoding="utf-8").replace(
        "encryption_key = var.encryption_key", f'encryption_key = "{PLANTED}"'
    )
    assert PLANTED in config
    runner = AcceptanceRunner(tf_acceptance.terraform, tf_acceptance.work_dir, timeout=120, echo=False, env=OFFLINE)
    with pytest.raises(AcceptanceError) as info:
        runner.run(TestCase(providers={CLOUD: echoing_mock()}, steps=[
            TestStep(config=config, variables={"encryption_key": Sensitive("unused")}, config_plan_checks=checks),
        ]))
    error = info.value
    assert error.stage is Stage.APPLY
    assert "cannot size a bucket keyed (sensitive)" in str(error)
    assert PLANTED not in str(error) + repr(error)
    for command in runner.commands:
        assert PLANTED not in command.stdout + command.stderr + command.command_line
