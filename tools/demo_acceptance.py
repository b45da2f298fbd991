"""The acceptance-test part of ``make demo``: a small TestCase run against the pinned Terraform."""

from __future__ import annotations

from pathlib import Path

from tfjsonpath import New

__all__ = ["run_acceptance_demo", "show_progress"]


def show_progress(line: str) -> None:
    """The runner's ``progress``, for the demo: each Terraform command as it starts (a step takes seconds).

    >>> show_progress("[step 1/2 init] terraform init -input=false -no-color ...")
      [step 1/2 init] terraform init -input=false -no-color ...
    >>> show_progress("[step 1/2 init] terraform init -input=false -no-color (exit code 0, 0.52 s)")
    """
    if line.endswith(" ..."):
        print(f"  {line}", flush=True)


def _describe(check: object) -> str:
    parts = [type(check).__name__]
    target = getattr(check, "address", None) or getattr(check, "name", None)
    if isinstance(target, str):
        parts.append(target)
    path = getattr(check, "path", None)
    if path is not None and hasattr(path, "to_text"):
        parts.append(path.to_text())
    return ": ".join(parts)


def run_acceptance_demo(terraform: Path, cli_config: Path, work_dir: Path) -> int:
    """Run a two-step acceptance test of ``examples/null`` and print each check; 0 when all passed."""
    from plancheck import (
        ExpectKnownOutputValue,
        ExpectResourceAction,
        ExpectSensitiveValue,
        ExpectUnknownOutputValue,
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

    from .examples import example_dir

    config = (example_dir() / "main.tf").read_text(encoding="utf-8")
    secret = {"db_password": Sensitive("s3cr3t-from-the-demo")}
    pre_apply = [
        ExpectResourceAction("null_resource.app", ResourceAction.Create),
        ExpectUnknownValue("null_resource.app", New("id")),
        ExpectSensitiveValue("null_resource.app", New("triggers").AtMapKey("password")),
        ExpectUnknownValue("null_resource.worker[1]", New("triggers").AtMapKey("app_id")),
        ExpectUnknownOutputValue("app_id"),
        ExpectKnownOutputValue("greeting", kv.StringExact("hello")),
    ]
    state_checks = [
        statecheck.ExpectKnownValue("null_resource.app", New("triggers").AtMapKey("replicas"), kv.StringExact("3")),
        statecheck.ExpectSensitiveValue("null_resource.app", New("triggers").AtMapKey("password")),
        statecheck.ExpectKnownValue("null_resource.worker[0]", New("id"), kv.StringRegexp(r"^\d+$")),
    ]
    changed = config.replace('replicas = "3"', 'replicas = "4"')
    case = TestCase(steps=[
        TestStep(config=config, variables=secret,
                 config_plan_checks=ConfigPlanChecks(pre_apply=pre_apply), config_state_checks=state_checks),
        # Changing a trigger replaces the resource: a plan-only step that expects changes.
        TestStep(config=changed, variables=secret, plan_only=True, expect_non_empty_plan=True),
    ])
    runner = AcceptanceRunner(terraform, work_dir, cli_config=cli_config, echo=False, require_tf_acc=False,
                              progress=show_progress)
    print(f"# An acceptance test of the same configuration, 2 steps on {runner.terraform.product} "
          f"{runner.terraform.version}: each Terraform command as it starts",
          flush=True)
    try:
        runner.run(case)
    except AcceptanceError as err:
        print(f"FAIL  {err}", flush=True)
        return 1
    for stage, checks in (("pre-apply plan", pre_apply), ("state", state_checks)):
        for check in checks:
            print(f"PASS  step 1 {stage}: {_describe(check)}", flush=True)
    print("PASS  step 2: plan_only, expect_non_empty_plan (a trigger change replaces the resource)", flush=True)
    print(f"acceptance test passed ({len(runner.commands)} terraform commands, destroyed at the end)", flush=True)
    return 0
