"""CPU seconds the acceptance runner spends handing a case's secrets to the providers it serves, over many steps.

A case hands what it finds (its ``Sensitive`` variables, then each plan's and state's sensitive values) to its
provider session as it finds them (``ProviderSession.add_secrets``), which hands them to every provider served in the
test process that asks (a ``MockProvider`` here) and keeps them for one started later. Each step of this case finds
``--values`` sensitive values as Terraform shows them four times a step (the plan, the state after apply with the
computed ones, the two plans after it), ``--new`` of them new in each step (a ``count`` that grows, a rotated key).
No Terraform and no server: the handovers alone, as a case makes them. ``scrub`` is the mock's first scrub at the
end, with every secret handed over (what ``repr(mock.calls)`` in a failing test's report does). Best of ``--reps`` runs
(process CPU time: the machine is shared), each in a new session and mock.

    .venv/bin/python benchmarks/bench_case_secrets.py                # 1,000 values, 10 steps
    .venv/bin/python benchmarks/bench_case_secrets.py --values 1000 3000 --steps 20 --reps 5
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from plancheck._redact import Secrets  # noqa: E402
from plancheck._terraform.mock.provider import MockProvider  # noqa: E402
from plancheck.acceptance._workplace import ProviderSession, _Running  # noqa: E402

CLOUD_SCHEMA = ROOT / "examples" / "mock_module" / "cloud.schema.json"


def run(values: int, new: int, steps: int, schema: dict[str, object]) -> tuple[float, float, int]:
    """The CPU seconds of a case's handovers, of the mock's scrub at its end, and how many secrets were handed over."""
    mock = MockProvider(schema, "acme/cloud")
    session = ProviderSession(platform="linux_amd64")
    # As the session keeps a provider it serves in this process (started before the case finds anything); no server.
    session._running["acme/cloud"] = _Running(None, None, 0, list, learn=mock.plancheck_secrets)  # type: ignore[arg-type]
    found = [
        Secrets(f"secret-{step}-{i:06d}" if i < new else f"secret-{i:06d}" for i in range(values))
        for step in range(steps)
    ]
    start = time.process_time()
    for step in range(steps):
        for _ in range(4):  # the plan, the state, the two plans after apply
            session.add_secrets(found[step])
    handed = time.process_time()
    mock._scrub("a text to scrub")  # what each repr of a call does, with every secret handed over
    shown = time.process_time()
    session.close()
    return handed - start, shown - handed, len(Secrets.union(found))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--values", type=int, nargs="+", default=[1000])
    parser.add_argument("--new", type=int, default=100, help="values new in each step")
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    schema = json.loads(CLOUD_SCHEMA.read_text(encoding="utf-8"))
    print("| values a step | new a step | steps | secrets | handovers CPU s | ms per handover | scrub CPU s |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for values in args.values:
        runs = [run(values, args.new, args.steps, schema) for _ in range(args.reps)]
        handed = min(r[0] for r in runs)
        shown = min(r[1] for r in runs)
        print(f"| {values:,} | {args.new:,} | {args.steps} | {runs[0][2]:,} | {handed:.3f} | "
              f"{handed / (4 * args.steps) * 1e3:.2f} | {shown:.3f} |")


if __name__ == "__main__":
    main()
