"""What the acceptance runner adds to Terraform's own time when it tests a provider served in-process.

The example provider (``examples/widget_provider``) goes through a full life: create, update in
place, replace, a plan-only step, destroy. Each step is timed twice:

* ``runner``: ``AcceptanceRunner.run`` with plan and state checks, the provider served in this
  process (server start included in step 1);
* ``by hand``: the very same ``terraform`` commands (same argv, same files, same environment,
  same kind of in-process server, started beforehand) run with ``subprocess``, nothing else.

``overhead`` is the difference; ``in-process`` is the runner's own time outside Terraform
(wall time minus the durations of its commands: files, plan and state JSON, checks, serving),
which is what the overhead would be without Terraform's run-to-run noise (the destroy row is
measured by its command's duration alone, so its in-process time shows as 0). Median of
``--reps`` runs, interleaved.

    .venv/bin/python benchmarks/bench_provider.py               # terraform on PATH, and the pinned 1.0.3
    .venv/bin/python benchmarks/bench_provider.py --reps 5 --terraform /usr/local/bin/terraform
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples" / "widget_provider"))
sys.path.insert(0, str(ROOT))  # tools.pinned: the pinned binaries of the source checkout

from widget_provider import ADDRESS, WidgetProvider  # noqa: E402

from plancheck import ExpectResourceAction, ExpectUnknownValue, ResourceAction, statecheck  # noqa: E402
from plancheck import knownvalue as kv  # noqa: E402
from plancheck._terraform.binary import (  # noqa: E402
    TerraformBinary,
    discover_terraform,
    inspect_binary,
    run_command,
    terraform_environment,
)
from plancheck.acceptance import AcceptanceRunner, ConfigPlanChecks, ProviderServer, TestCase, TestStep  # noqa: E402
from tfjsonpath import New  # noqa: E402
from tools.pinned import find_pinned_terraform  # noqa: E402

STEP_NAMES = ["1 create", "2 update", "3 replace", "4 plan-only", "destroy"]
_LOGGED = re.compile(r"^\[step (\d+)/\d+ (\w+)\] \$ ", re.MULTILINE)


def config(name: str, description: str) -> str:
    # With its own terraform block, the runner writes the text as is: the replay writes the same file.
    return f"""terraform {{
  required_providers {{
    widget = {{ source = "{ADDRESS}" }}
  }}
}}

resource "widget_thing" "t" {{
  name        = "{name}"
  description = "{description}"
  size        = 3
  secret      = "not-really-secret"
  tags        = {{ env = "bench" }}
}}

data "widget_lookup" "l" {{
  id = widget_thing.t.id
}}
"""


CONFIGS = [config("a", "one"), config("a", "two"), config("b", "two"), config("b", "two")]


def case() -> TestCase:
    return TestCase(providers={ADDRESS: WidgetProvider}, steps=[
        TestStep(config=CONFIGS[0], config_plan_checks=ConfigPlanChecks(pre_apply=[
            ExpectResourceAction("widget_thing.t", ResourceAction.Create),
            ExpectUnknownValue("widget_thing.t", New("id")),
        ]), config_state_checks=[statecheck.ExpectKnownValue("widget_thing.t", New("id"), kv.StringExact("w-0001"))]),
        TestStep(config=CONFIGS[1], config_plan_checks=ConfigPlanChecks(pre_apply=[
            ExpectResourceAction("widget_thing.t", ResourceAction.Update),
        ])),
        TestStep(config=CONFIGS[2], config_plan_checks=ConfigPlanChecks(pre_apply=[
            ExpectResourceAction("widget_thing.t", ResourceAction.DestroyBeforeCreate),
        ]), config_state_checks=[statecheck.ExpectKnownValue("widget_thing.t", New("id"), kv.StringExact("w-0002"))]),
        TestStep(config=CONFIGS[3], plan_only=True),
    ])


def run_with_runner(
    terraform: TerraformBinary, work: Path
) -> tuple[dict[str, float], dict[str, float], list[tuple[str, tuple[str, ...]]]]:
    """Per-step wall times, per-step time outside Terraform, and every command with the step it belongs to."""
    marks: list[float] = []
    steps = [
        TestStep(**{**{f: getattr(s, f) for f in ("config", "config_plan_checks", "config_state_checks", "plan_only")},
                    "pre_config": lambda: marks.append(time.perf_counter())})
        for s in case().steps
    ]
    runner = AcceptanceRunner(terraform, work, echo=True, require_tf_acc=False)
    log = io.StringIO()
    with contextlib.redirect_stdout(log):
        started = time.perf_counter()
        runner.run(TestCase(providers={ADDRESS: WidgetProvider}, steps=steps))
        ended = time.perf_counter()
    labels = [("destroy" if stage == "destroy" else STEP_NAMES[int(n) - 1]) for n, stage in _LOGGED.findall(log.getvalue())]
    commands = runner.commands
    assert len(labels) == len(commands), (len(labels), len(commands))
    destroy = sum(c.duration for c, label in zip(commands, labels, strict=True) if label == "destroy")
    bounds = [*marks, ended - destroy]
    times = {STEP_NAMES[i]: bounds[i + 1] - bounds[i] for i in range(len(marks))}
    times["destroy"] = destroy
    outside = {name: times[name] - sum(c.duration for c, label in zip(commands, labels, strict=True) if label == name)
               for name in times}
    outside["total"] = (ended - started) - sum(c.duration for c in commands)
    return times, outside, [(label, c.argv) for c, label in zip(commands, labels, strict=True)]


def run_by_hand(terraform: TerraformBinary, work: Path, commands: list[tuple[str, tuple[str, ...]]]) -> dict[str, float]:
    """The same commands with subprocess, the same files and environment; the server is started beforehand."""
    work.mkdir(parents=True)
    base = dict(os.environ)
    fallback = work.parent / f"{work.name}.tfrc"
    fallback.write_text("")
    times: dict[str, float] = defaultdict(float)
    with ProviderServer(ADDRESS, WidgetProvider()) as server:
        env = terraform_environment({**base, **server.environment()}, data_dir=work / ".terraform", fallback_cli_config=fallback)
        written = None
        for label, argv in commands:
            if label != "destroy":
                index = STEP_NAMES.index(label)
                if written != index:
                    (work / "main.tf").write_text(CONFIGS[index])
                    written = index
            started = time.perf_counter()
            result = run_command((terraform.path, *argv[1:]), cwd=work, env=env, timeout=600)
            times[label] += time.perf_counter() - started
            if result.returncode not in (0, 2):
                raise SystemExit(f"{' '.join(argv)} failed:\n{result.stderr}")
    return dict(times)


def binaries(explicit: str | None) -> list[TerraformBinary]:
    found: list[TerraformBinary] = []
    other = discover_terraform(explicit)
    if other is not None:
        found.append(other)
    pinned = find_pinned_terraform()
    if explicit is None and pinned is not None:
        binary = inspect_binary(pinned)
        if all(b.version != binary.version for b in found):
            found.append(binary)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--terraform", help="one binary (default: terraform on PATH and the pinned 1.0.3)")
    args = parser.parse_args()
    for terraform in binaries(args.terraform):
        runner_times: dict[str, list[float]] = defaultdict(list)
        hand_times: dict[str, list[float]] = defaultdict(list)
        outside: dict[str, list[float]] = defaultdict(list)
        with tempfile.TemporaryDirectory(prefix="bench-provider-") as tmp:
            for rep in range(args.reps):
                times, own, commands = run_with_runner(terraform, Path(tmp, f"runner{rep}"))
                for k, v in own.items():
                    outside[k].append(v)
                for k, v in times.items():
                    runner_times[k].append(v)
                for k, v in run_by_hand(terraform, Path(tmp, f"hand{rep}"), commands).items():
                    hand_times[k].append(v)
        print(f"\n{terraform} ({args.reps} runs, median; {len(commands)} terraform commands a run)\n")
        print("| step | runner s | by hand s | overhead s | overhead | in-process s |")
        print("|---|---:|---:|---:|---:|---:|")
        total_runner = total_hand = 0.0
        for name in STEP_NAMES:
            r, h = statistics.median(runner_times[name]), statistics.median(hand_times[name])
            total_runner += r
            total_hand += h
            own = statistics.median(outside[name])
            print(f"| {name} | {r:.3f} | {h:.3f} | {r - h:+.3f} | {100 * (r - h) / h:+.1f}% | {own:.3f} |")
        own = statistics.median(outside["total"])
        print(f"| **total** | {total_runner:.3f} | {total_hand:.3f} | {total_runner - total_hand:+.3f} | "
              f"{100 * (total_runner - total_hand) / total_hand:+.1f}% | {own:.3f} |")
        print(f"\nin-process (runner wall time minus its commands' durations): {own:.3f} s, "
              f"{100 * own / total_hand:.1f}% of Terraform's time by hand")


if __name__ == "__main__":
    main()
