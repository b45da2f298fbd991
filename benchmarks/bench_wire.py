"""What the echo provider pays to split and join cty's MessagePack objects, and to build its protocol messages.

``wire``'s ``object_fields``/``encode_object`` split a configuration object into its attributes' raw bytes and
join them back (the echo's whole use of MessagePack); its ``messages`` builds the protocol-6.7 message classes
once and decodes and encodes one ephemeral request and response per call. Each row is timed on
this checkout and, with ``--baseline REV``, on that git revision's modules loaded side by side
(``--baseline main`` compares a branch with main). Best of ``--reps`` runs of ``--number`` calls,
microseconds per call. The ``path`` rows are the whole road a value takes: ``ConfigureProvider`` and
``PlanResourceChange`` sent over gRPC to the echo provider served in this process (the baseline's
functions patched into it), as Terraform sends them.

    .venv/bin/python benchmarks/bench_wire.py
    .venv/bin/python benchmarks/bench_wire.py --baseline main --reps 7
"""

from __future__ import annotations

import argparse
import functools
import importlib
import importlib.util
import subprocess
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from plancheck._terraform.providers import wire  # noqa: E402

msgpack: Any = importlib.import_module("msgpack")  # the providers extra

DEEP = b"\x91" * 100_000 + b"\xc0"
PAYLOADS: dict[str, bytes] = {
    "echo config (a string)": msgpack.packb({"data": "hello"}),
    "dynamic value [type, 1000 numbers]": msgpack.packb({"data": [b'["list","number"]', list(range(1000))]}),
    "100 attributes": msgpack.packb({f"attr{i:03}": {"k": [i, "v" * 20, None]} for i in range(100)}),
    "100 kB string": msgpack.packb({"data": "x" * 100_000}),
    "nested 100,000 deep": b"\x81\xa4data" + DEEP,
}


def load(rev: str, relative: str, name: str) -> ModuleType:
    """``relative`` as it is at git revision ``rev``, imported under its package (for its relative imports)."""
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{relative}"], check=True,
                            capture_output=True, text=True).stdout
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "plancheck._terraform.providers"
    sys.modules[name] = module
    exec(compile(source, relative, "exec"), module.__dict__)
    return module


def baseline(rev: str) -> tuple[ModuleType, ModuleType]:
    """The MessagePack and the ephemeral-message modules at ``rev``: one ``wire.py`` since #34, two files before it."""
    try:
        both = load(rev, "plancheck/_terraform/providers/wire.py", "_baseline_wire")
    except subprocess.CalledProcessError:  # a revision before #34 merged the two
        return (load(rev, "plancheck/_terraform/providers/cty_msgpack.py", "_baseline_cty_msgpack"),
                load(rev, "plancheck/_terraform/providers/ephemeral_wire.py", "_baseline_ephemeral_wire"))
    return both, both


def best(call: Callable[[], Any], number: int, reps: int) -> float:
    return min(timeit.repeat(call, number=number, repeat=reps)) / number * 1e6


def rows(cty: Any, wire: Any, number: int, reps: int) -> dict[str, float]:
    out: dict[str, float] = {}
    for label, payload in PAYLOADS.items():
        n = max(1, number // 100) if "deep" in label or "kB" in label else number
        fields = cty.object_fields(payload)
        out[f"split  {label}"] = best(functools.partial(cty.object_fields, payload), n, reps)
        out[f"join   {label}"] = best(functools.partial(cty.encode_object, fields), n, reps)
    m = wire.messages()
    request = m.OpenEphemeralResourceRequest(type_name="echo", config=m.DynamicValue(msgpack=PAYLOADS["echo config (a string)"]))
    raw = request.SerializeToString()
    out["wire   decode OpenEphemeralResource request"] = best(lambda: m.OpenEphemeralResourceRequest.FromString(raw), number, reps)
    out["wire   encode OpenEphemeralResource response"] = best(
        lambda: m.OpenEphemeralResourceResponse(result=request.config, private=b"").SerializeToString(), number, reps)
    out["wire   schemas suffix"] = best(lambda: wire.ephemeral_schemas_suffix({"echo": b"\x12\x00"}), number, reps)
    built = wire.messages.__wrapped__
    out["wire   build the message classes (once per process)"] = best(built, max(1, number // 100), reps)
    out.update(path(cty, number // 4, reps))
    return out


def path(cty: Any, number: int, reps: int) -> dict[str, float]:
    import grpc
    from tf.gen import tfplugin_pb2 as pb
    from tf.gen import tfplugin_pb2_grpc as rpc

    from plancheck._terraform.providers.server import ProviderServer
    from plancheck.acceptance import echoprovider

    saved = {name: getattr(echoprovider, name) for name in ("object_fields", "encode_object", "MsgpackError")}
    for name in saved:
        setattr(echoprovider, name, getattr(cty, name))
    server = ProviderServer("echo", echoprovider.NewProviderServer()())
    server.start()
    channel = grpc.insecure_channel(f"unix:{server.reattach_config.addr}")
    out: dict[str, float] = {}
    try:
        stub = rpc.ProviderStub(channel)
        for label in ("echo config (a string)", "100 kB string"):
            config = pb.DynamicValue(msgpack=PAYLOADS[label])
            configure = pb.ConfigureProvider.Request(config=config)
            plan = pb.PlanResourceChange.Request(type_name="echo", config=pb.DynamicValue(msgpack=b"\x80"),
                                                 prior_state=pb.DynamicValue(msgpack=b"\xc0"),
                                                 proposed_new_state=pb.DynamicValue(msgpack=b"\x80"))
            stub.ConfigureProvider(configure, timeout=10)
            out[f"path   ConfigureProvider, {label}"] = best(functools.partial(stub.ConfigureProvider, configure, timeout=10), number, reps)
            out[f"path   PlanResourceChange, {label}"] = best(functools.partial(stub.PlanResourceChange, plan, timeout=10), number, reps)
    finally:
        channel.close()
        server.stop()
        for name, value in saved.items():
            setattr(echoprovider, name, value)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="git revision to compare with (e.g. main)")
    parser.add_argument("--number", type=int, default=2000)
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    results = {"this checkout": rows(wire, wire, args.number, args.reps)}
    if args.baseline:
        results[args.baseline] = rows(*baseline(args.baseline), args.number, args.reps)
    names = list(results)
    print(f"{'µs per call':58}" + "".join(f"{n:>16}" for n in names) + ("    ratio" if len(names) == 2 else ""))
    for row in results[names[0]]:
        figures = [results[n][row] for n in names]
        ratio = f"{figures[0] / figures[1]:9.2f}" if len(figures) == 2 else ""
        print(f"{row:58}" + "".join(f"{f:16.2f}" for f in figures) + ratio)


if __name__ == "__main__":
    main()
