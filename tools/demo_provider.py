"""The provider-under-test part of ``make demo``: ``examples/widget_provider`` served in this process.

The provider is written in Python with the ``tf`` framework; the runner serves it on a Unix
socket of the test case and hands it to Terraform through ``TF_REATTACH_PROVIDERS``, the way Go's
``resource.Test`` does with ``ProtoV6ProviderFactories``: no build, no install, no registry.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from tfjsonpath import New

__all__ = ["WIDGET_ADDRESS", "run_provider_demo"]

WIDGET_ADDRESS = "example.com/acme/widget"
_CONFIG = """
resource "widget_thing" "t" {
  name        = "%s"
  description = "%s"
  secret      = var.secret
}

variable "secret" {
  type      = string
  sensitive = true
}
"""


def _widget_provider() -> Any:
    directory = Path(__file__).resolve().parents[1] / "examples" / "widget_provider"
    if str(directory) not in sys.path:
        sys.path.insert(0, str(directory))
    import widget_provider  # type: ignore[import-not-found]  # examples/ is not a package

    return widget_provider.WidgetProvider


def run_provider_demo(terraform: Path, work_dir: Path) -> int:
    """Run a three-step test of the example provider (create, update in place, replace); 0 when it passed."""
    try:
        provider = _widget_provider()
    except ImportError as exc:
        print(f"SKIP  the providers extra is not installed ({exc}); `make demo` installs it", flush=True)
        return 0
    from plancheck import (
        ExpectResourceAction,
        ExpectSensitiveValue,
        ExpectUnknownValue,
        ResourceAction,
        statecheck,
    )
    from plancheck import knownvalue as kv
    from plancheck.acceptance import (
        AcceptanceError,
        AcceptanceRunner,
        ConfigPlanChecks,
        Sensitive,
        TestCase,
        TestStep,
    )

    from .demo_acceptance import show_progress

    secret = {"secret": Sensitive("widget-demo-passphrase")}
    thing = "widget_thing.t"
    steps = [
        (
            "create: id unknown in the plan, secret sensitive; then id known in the state",
            TestStep(
                config=_CONFIG % ("alpha", "first"),
                variables=secret,
                config_plan_checks=ConfigPlanChecks(pre_apply=[
                    ExpectResourceAction(thing, ResourceAction.Create),
                    ExpectUnknownValue(thing, New("id")),
                    ExpectSensitiveValue(thing, New("secret")),
                ]),
                config_state_checks=[
                    statecheck.ExpectKnownValue(thing, New("id"), kv.StringExact("w-0001")),
                    statecheck.ExpectSensitiveValue(thing, New("secret")),
                ],
            ),
        ),
        (
            "a new description: updated in place, revision unknown until apply",
            TestStep(
                config=_CONFIG % ("alpha", "second"),
                variables=secret,
                config_plan_checks=ConfigPlanChecks(pre_apply=[
                    ExpectResourceAction(thing, ResourceAction.Update),
                    ExpectUnknownValue(thing, New("revision")),
                ]),
                config_state_checks=[statecheck.ExpectKnownValue(thing, New("revision"), kv.Int64Exact(2))],
            ),
        ),
        (
            "a new name forces replacement: a new id",
            TestStep(
                config=_CONFIG % ("beta", "second"),
                variables=secret,
                config_plan_checks=ConfigPlanChecks(pre_apply=[
                    ExpectResourceAction(thing, ResourceAction.DestroyBeforeCreate),
                ]),
                config_state_checks=[statecheck.ExpectKnownValue(thing, New("id"), kv.StringExact("w-0002"))],
            ),
        ),
    ]
    case = TestCase(providers={WIDGET_ADDRESS: provider}, steps=[step for _, step in steps])
    runner = AcceptanceRunner(terraform, work_dir, echo=False, require_tf_acc=False, progress=show_progress)
    print(f"# An acceptance test of the provider under test ({WIDGET_ADDRESS}, served in this process), "
          f"{len(steps)} steps on {runner.terraform.product} {runner.terraform.version}: each Terraform command "
          "as it starts", flush=True)
    try:
        runner.run(case)
    except AcceptanceError as err:
        print(f"FAIL  {err}", flush=True)
        return 1
    for number, (title, _) in enumerate(steps, 1):
        print(f"PASS  step {number}: {title}", flush=True)
    print(f"provider test passed ({len(runner.commands)} terraform commands, destroyed at the end)", flush=True)
    return 0
