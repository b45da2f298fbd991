"""The acceptance runner's own overhead: a three-step case's wall time against the time of its Terraform commands.

Each scenario runs one case (create; update in place with plan checks and state checks; a
plan-only step) through :class:`AcceptanceRunner` and compares the case's wall time with the sum
of the durations of the Terraform commands it ran (each timed around its process, exactly what
running them bare from a shell costs). What is left is the runner: writing files, reading plans
and states back, running checks, scrubbing secrets, serving providers in-process. Scenarios: the
real null provider 2.1.2 (from a filesystem mirror), the example widget provider served in this
process, and the null provider mocked from its schema (``MockProvider``). Median of ``--reps``
after one warm-up run.

    .venv/bin/python benchmarks/bench_runner.py                 # terraform on PATH and the pinned 1.0.3
    .venv/bin/python benchmarks/bench_runner.py --reps 5 --terraform /usr/local/bin/terraform
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tools.pinned: the pinned binaries of the source checkout
sys.path.insert(0, str(ROOT / "examples" / "widget_provider"))

from plancheck import ExpectKnownValue, ExpectResourceAction, ResourceAction, statecheck  # noqa: E402
from plancheck import knownvalue as kv  # noqa: E402
from plancheck._terraform.binary import (  # noqa: E402
    TerraformBinary,
    build_provider_mirror,
    discover_terraform,
    inspect_binary,
    write_cli_config,
)
from plancheck.acceptance import AcceptanceRunner, ConfigPlanChecks, MockProvider, TestCase, TestStep  # noqa: E402
from tfjsonpath import New  # noqa: E402
from tools.pinned import NULL_PROVIDER_SOURCE, find_null_provider, find_pinned_terraform  # noqa: E402

NULL = "registry.terraform.io/hashicorp/null"
NULL_SCHEMA = ROOT / "tests" / "mock" / "null_2.1.2.schema.json"
WIDGET = "example.com/acme/widget"


def null_config(value: str, *, header: bool) -> str:
    block = 'terraform {\n  required_providers {\n    null = { source = "hashicorp/null", version = "2.1.2" }\n  }\n}\n'
    return (block if header else "") + "\n".join(
        f'resource "null_resource" "r{i}" {{\n  triggers = {{ v = "{value}", i = "{i}" }}\n}}\n' for i in range(5)
    )


def widget_config(description: str) -> str:
    return "\n".join(
        f'resource "widget_thing" "w{i}" {{\n  name = "w{i}"\n  description = "{description}"\n  size = {i}\n}}\n'
        for i in range(5)
    )


def null_steps(header: bool, change: ResourceAction = ResourceAction.DestroyBeforeCreate) -> list[TestStep]:
    return [
        TestStep(config=null_config("a", header=header), config_plan_checks=ConfigPlanChecks(pre_apply=[
            ExpectResourceAction("null_resource.r0", ResourceAction.Create)])),
        TestStep(config=null_config("b", header=header), config_plan_checks=ConfigPlanChecks(pre_apply=[
            ExpectResourceAction("null_resource.r0", change)]),
            config_state_checks=[statecheck.ExpectKnownValue("null_resource.r0", New("triggers").AtMapKey("v"),
                                                             kv.StringExact("b"))]),
        TestStep(config=null_config("b", header=header), plan_only=True),
    ]


def widget_steps() -> list[TestStep]:
    return [
        TestStep(config=widget_config("a"), config_plan_checks=ConfigPlanChecks(pre_apply=[
            ExpectResourceAction("widget_thing.w0", ResourceAction.Create)])),
        TestStep(config=widget_config("b"), config_plan_checks=ConfigPlanChecks(pre_apply=[
            ExpectResourceAction("widget_thing.w0", ResourceAction.Update),
            ExpectKnownValue("widget_thing.w0", New("description"), kv.StringExact("b"))]),
            config_state_checks=[statecheck.ExpectKnownValue("widget_thing.w0", New("size"), kv.Int64Exact(0))]),
        TestStep(config=widget_config("b"), plan_only=True),
    ]


def scenarios(cli_config: Path) -> dict[str, tuple[Callable[[], TestCase], Path | None]]:
    import widget_provider

    mock = MockProvider.from_schema_file(NULL_SCHEMA, NULL, seed=1)
    return {
        "null provider (real)": (lambda: TestCase(steps=null_steps(True)), cli_config),
        "widget (in-process)": (lambda: TestCase(providers={WIDGET: widget_provider.WidgetProvider},
                                                 steps=widget_steps()), None),
        # A mock knows no RequiresReplace (a schema does not say it): the trigger change is an update.
        "null provider (mock)": (lambda: TestCase(providers={NULL: mock}, steps=null_steps(False, ResourceAction.Update)),
                                 None),
    }


def measure(binary: TerraformBinary, make: Callable[[], TestCase], cli_config: Path | None) -> tuple[float, float, int]:
    work = Path(tempfile.mkdtemp(prefix="bench-runner-"))
    try:
        runner = AcceptanceRunner(binary, work, cli_config=cli_config, echo=False, require_tf_acc=False,
                                  leftovers_dir=work / "leftovers")
        case = make()
        started = time.perf_counter()
        runner.run(case)
        wall = time.perf_counter() - started
        commands = runner.commands
        return wall, sum(c.duration for c in commands), len(commands)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--terraform", action="append", default=[])
    args = parser.parse_args(argv)
    binaries: list[TerraformBinary] = [inspect_binary(p) for p in args.terraform]
    if not binaries:
        pinned = find_pinned_terraform()
        binaries = [inspect_binary(pinned)] if pinned else []
        system = discover_terraform(None)
        if system is not None and all(system.version != b.version for b in binaries):
            binaries.append(system)
    provider = find_null_provider()
    if provider is None or not binaries:
        print("needs the pinned null provider and a terraform binary (make test installs them)")
        return 1
    scratch = Path(tempfile.mkdtemp(prefix="bench-runner-mirror-"))
    try:
        mirror = build_provider_mirror(scratch / "mirror", [provider])
        cli_config = write_cli_config(scratch / "cli.tfrc", mirror, [NULL_PROVIDER_SOURCE])
        print(f"{'terraform':<10} {'scenario':<24} {'commands':>8} {'wall s':>8} {'terraform s':>11} "
              f"{'runner s':>8} {'overhead':>8}")
        for binary in binaries:
            for name, (make, config) in scenarios(cli_config).items():
                measure(binary, make, config)  # warm-up: first imports (tf, grpc), provider install, disk caches
                runs: list[tuple[float, float, int]] = [measure(binary, make, config) for _ in range(args.reps)]
                wall = statistics.median(r[0] for r in runs)
                own = statistics.median(r[1] for r in runs)
                count = runs[0][2]
                print(f"{binary.version:<10} {name:<24} {count:>8} {wall:>8.2f} {own:>11.2f} {wall - own:>8.2f} "
                      f"{(wall - own) / own:>8.1%}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
