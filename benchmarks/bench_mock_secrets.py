"""CPU seconds a mock provider spends on secrets when it creates many objects, each with a sensitive value of its own.

A ``MockProvider`` keeps the values of sensitive attributes it serves, to scrub them from every repr of its
calls. The example module's ``cloud_access_key`` has a computed sensitive ``secret``: each create (a plan and
an apply of one, sent to the mock's servicer as Terraform sends them, no socket and no Terraform) learns one
more distinct secret, as a module with ``count = N`` keys does. ``repr`` is one ``repr(mock.calls)`` at the
end, which scrubs every call with every secret learned (what a failing test's report shows). Best of
``--reps`` runs (process CPU time: the machine is shared, wall time moves more), each in a new mock.

    .venv/bin/python benchmarks/bench_mock_secrets.py             # 100 and 1,000 keys
    .venv/bin/python benchmarks/bench_mock_secrets.py --keys 100 1000 3000 --reps 5
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgpack  # noqa: E402

from plancheck._terraform.mock.provider import MockProvider  # noqa: E402
from plancheck._terraform.providers.server import load_grpc  # noqa: E402

CLOUD_SCHEMA = ROOT / "examples" / "mock_module" / "cloud.schema.json"


def run(keys: int, modules: Any, schema: dict[str, Any]) -> tuple[float, float, int]:
    """Create ``keys`` access keys in a new mock; CPU seconds of the creates and of the repr, and secrets learned."""
    pb = modules.pb

    def dynamic(value: Any) -> Any:
        return pb.DynamicValue(msgpack=msgpack.packb(value, use_bin_type=True))

    mock = MockProvider(schema, "acme/cloud")
    servicer = mock.plancheck_servicer(modules)
    start = time.process_time()
    for i in range(keys):
        config = {"id": None, "bucket_id": f"bucket-{i}", "secret": None}
        planned = servicer.PlanResourceChange(pb.PlanResourceChange.Request(
            type_name="cloud_access_key", prior_state=dynamic(None), proposed_new_state=dynamic(config),
            config=dynamic(config)), None).planned_state
        servicer.ApplyResourceChange(pb.ApplyResourceChange.Request(
            type_name="cloud_access_key", prior_state=dynamic(None), planned_state=planned,
            config=dynamic(config)), None)
    created = time.process_time()
    repr(mock.calls)
    shown = time.process_time()
    return created - start, shown - created, len(mock._sensitive)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    modules = load_grpc()
    schema = json.loads(CLOUD_SCHEMA.read_text(encoding="utf-8"))
    print("| keys | secrets learned | creates CPU s | µs per create | repr CPU s |")
    print("|---:|---:|---:|---:|---:|")
    for keys in args.keys:
        runs = [run(keys, modules, schema) for _ in range(args.reps)]
        creates = min(r[0] for r in runs)
        shown = min(r[1] for r in runs)
        print(f"| {keys:,} | {runs[0][2]:,} | {creates:.3f} | {creates / keys * 1e6:.0f} | {shown:.3f} |")


if __name__ == "__main__":
    main()
