"""Record what ``terraform test`` with ``mock_provider`` plans, reads and applies for the mock differential suite.

For each schema source of ``tools/mock_reference.py`` (those present: the shared corpus may be absent),
this script writes the source's module (``main.tf.json``: every type, ``min`` and ``full``) and one
``tests/<scenario>.tftest.hcl`` per scenario (a ``plan`` run, then an ``apply`` run, under
``mock_provider``), and runs ``terraform init`` and ``terraform test -verbose -json`` with the
``terraform`` on PATH (or ``--terraform``; Terraform 1.11 or later for ``override_during``).

``terraform test`` still asks the real provider for its schema (its mock wraps the provider and only
takes over planning, applying and reading), so the script serves the recorded schema in this process
(a ``MockProvider``: Terraform calls nothing but ``GetProviderSchema`` and validation on it) and
reattaches Terraform to it: no provider binary, no registry, no network, an empty CLI configuration.

From the ``-verbose`` output it keeps, per instance: the plan run's planned values, unknowns and
sensitive marks (a data source: the values it read while planning) and the apply run's state values
and sensitive marks. They go to ``tests/mock/differential/recorded/<source>.json`` with the module's
digest (the unit test refuses a recording of another module). Generated strings are random: a
re-recording differs in them and in nothing the comparison looks at.

Usage::

    python tools/record_mock_reference.py                   # every source present (about 30 s)
    python tools/record_mock_reference.py cloud synthetic   # only these
    python tools/record_mock_reference.py --check           # record in memory; exit 1 when facts drift
    python tools/record_mock_reference.py --write-synthetic # rewrite schemas/synthetic.schema.json first
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Final

ROOT: Final = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.mock_reference import (  # noqa: E402
    RECORDING_FORMAT,
    SCENARIOS,
    SOURCES,
    SUITE,
    Module,
    Scenario,
    Source,
    build_module,
    compare,
    load_recording,
    module_json,
    reader_name,
    recorded_answers,
    recording_path,
    tftest_file,
)

TIMEOUT_S: Final = 600


class TerraformCrashed(Exception):
    """``terraform test`` panicked: the recording says so (the panic's first line) instead of answers."""


class RecordError(Exception):
    """Terraform failed, or said something the recorder cannot read."""


def module_files(module: Module) -> dict[str, str]:
    """The files of the recorded module, by relative path."""
    files = {"main.tf.json": json.dumps(module_json(module), indent=1, sort_keys=True) + "\n"}
    for scenario in SCENARIOS:
        files[f"tests/{scenario.name}.tftest.hcl"] = tftest_file(module, scenario)
    return files


def module_digest(module: Module) -> str:
    """What the recording was made from: a new module needs a new recording."""
    digest = hashlib.sha256()
    for name, text in sorted(module_files(module).items()):
        digest.update(name.encode() + b"\0" + text.encode() + b"\0")
    return digest.hexdigest()


def _environment(work: Path, reattach: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TF_")}
    cli_config = work / "empty.tfrc"
    cli_config.write_text("", encoding="utf-8")
    env.update(
        TF_CLI_CONFIG_FILE=str(cli_config), TF_IN_AUTOMATION="1", CHECKPOINT_DISABLE="1",
        HTTPS_PROXY="http://127.0.0.1:9", HTTP_PROXY="http://127.0.0.1:9", NO_PROXY="",
    )
    env.update(reattach)
    return env


def _run(terraform: str, args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([terraform, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT_S,
                          check=False)


def run_terraform_test(source: Source, module: Module, terraform: str) -> tuple[str, list[dict[str, Any]]]:
    """``terraform test -verbose -json`` on the source's module: Terraform's version and its JSON messages."""
    from plancheck._terraform.providers.server import ProviderServer
    from plancheck.acceptance import MockProvider

    work = Path(tempfile.mkdtemp(prefix="tfpc-mockref-"))
    try:
        for name, text in module_files(module).items():
            path = work / "module" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        schema_server = MockProvider(source.document(), source.address)
        with ProviderServer(source.address, schema_server()) as server:
            env = _environment(work, server.environment())
            cwd = work / "module"
            init = _run(terraform, ["init", "-input=false", "-no-color", "-backend=false"], cwd, env)
            if init.returncode != 0:
                raise RecordError(f"{source.name}: terraform init failed:\n{init.stdout}\n{init.stderr}")
            test = _run(terraform, ["test", "-verbose", "-json", "-no-color"], cwd, env)
        messages = [json.loads(line) for line in test.stdout.splitlines() if line.startswith("{")]
        version = next((m.get("terraform", "") for m in messages if m.get("type") == "version"), "")
        crash = re.search(r"^panic: .*$", test.stderr, re.MULTILINE)
        if crash is not None:
            raise TerraformCrashed(crash.group(0))
        if not any(m.get("type") == "test_summary" for m in messages):
            raise RecordError(f"{source.name}: terraform test ended without a summary:\n{test.stderr[:3000]}")
        return version, messages
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _resources(document: dict[str, Any]) -> list[dict[str, Any]]:
    root = document.get("values", document).get("root_module", {})
    found = list(root.get("resources", []))
    stack = list(root.get("child_modules", []))
    while stack:
        child = stack.pop()
        found += child.get("resources", [])
        stack += child.get("child_modules", [])
    return found


def _run_status(messages: list[dict[str, Any]], test_path: str, run: str) -> tuple[str, list[str]]:
    """A run's status (pass, fail, error) and its error diagnostics, summary then detail."""
    status = next((m["test_run"].get("status", "") for m in messages if m.get("type") == "test_run"
                   and m.get("@testfile") == test_path and m["test_run"].get("progress") == "complete"
                   and m["test_run"].get("run") == run), "")
    errors = [f"{m['diagnostic'].get('summary', '')}: {m['diagnostic'].get('detail', '')}" for m in messages
              if m.get("type") == "diagnostic" and m.get("@testfile") == test_path and m.get("@testrun") == run
              and m["diagnostic"].get("severity") == "error"]
    return status, errors


def _verbose(messages: list[dict[str, Any]], kind: str, test_path: str, run: str) -> dict[str, Any] | None:
    return next((m[kind] for m in messages
                 if m.get("type") == kind and m.get("@testfile") == test_path and m.get("@testrun") == run), None)


def answers_of(
    messages: list[dict[str, Any]], module: Module, scenarios: tuple[Scenario, ...] = SCENARIOS
) -> dict[str, Any]:
    """The recording's ``scenarios``: per scenario, per instance, the plan and apply answers.

    The plan run must pass. An apply run that fails is recorded as its errors (Terraform 1.11 fails
    to apply what ``override_during = plan`` generated: see ``DELIBERATE``).
    """
    found: dict[str, Any] = {}
    name = module.source.name
    for scenario in scenarios:
        test_path = f"tests/{scenario.name}.tftest.hcl"
        status, errors = _run_status(messages, test_path, "plan")
        plan = _verbose(messages, "test_plan", test_path, "plan")
        if status != "pass" or plan is None:
            raise RecordError(f"{name}/{scenario.name}: the plan run {status or 'did not run'}:\n" + "\n".join(errors[:10]))
        status, errors = _run_status(messages, test_path, "apply")
        state = _verbose(messages, "test_state", test_path, "apply")
        if status == "pass" and state is None:
            raise RecordError(f"{name}/{scenario.name}: no verbose state in terraform test's output")
        planned = {c["address"]: c["change"] for c in plan.get("resource_changes", []) if c.get("mode") == "managed"}
        readers = {c["address"]: c["change"] for c in plan.get("resource_changes", []) if c.get("type") == "terraform_data"}
        applied = {r["address"]: r for r in _resources(state or {})}
        instances: dict[str, Any] = {}
        for instance in module.instances:
            address = instance.address
            if instance.mode == "data":
                reader = readers.get(f"terraform_data.{reader_name(instance)}")
                if reader is None or (reader.get("after_unknown") or {}).get("input") is True:
                    raise RecordError(f"{name}/{scenario.name}: {address} was not read while planning")
                plan_answer = {"values": reader["after"]["input"],
                               "sensitive": (reader.get("after_sensitive") or {}).get("input")}
            else:
                change = planned.get(address)
                if change is None:
                    raise RecordError(f"{name}/{scenario.name}: {address} is not in the plan")
                plan_answer = {"values": change.get("after"), "unknown": change.get("after_unknown"),
                               "sensitive": change.get("after_sensitive")}
            done = applied.get(address)
            apply_answer = None if done is None else {"values": done.get("values"), "sensitive": done.get("sensitive_values")}
            if apply_answer is None and status == "pass":
                raise RecordError(f"{name}/{scenario.name}: {address} is not in the state after apply")
            instances[address] = {"mode": instance.mode, "type": instance.type_name, "plan": plan_answer,
                                  "apply": apply_answer}
        entry: dict[str, Any] = {"instances": instances}
        if status != "pass":
            entry["apply_errors"] = sorted({_generic(e) for e in errors})
        found[scenario.name] = entry
    return found


def _generic(error: str) -> str:
    """An error without the random values it quotes (so that re-recording gives the same text)."""
    found = re.match(r"(.*?produced an invalid new value for [^:]+)", error, re.DOTALL)
    return found.group(1) if found else error


def record(source: Source, terraform: str) -> dict[str, Any]:
    module = build_module(source)
    head = {"format": RECORDING_FORMAT, "source": source.name, "address": source.address,
            "module_digest": module_digest(module)}
    try:
        version, messages = run_terraform_test(source, module, terraform)
    except TerraformCrashed as crash:
        version = _version(terraform)
        return {**head, "terraform_version": version, "crashed": str(crash), "scenarios": {}}
    return {**head, "terraform_version": version, "scenarios": answers_of(messages, module)}


def _version(terraform: str) -> str:
    out = subprocess.run([terraform, "version", "-json"], capture_output=True, text=True, check=False, timeout=60)
    return str(json.loads(out.stdout or "{}").get("terraform_version", ""))


def drift(source: Source, fresh: dict[str, Any]) -> list[str]:
    """The facts a fresh recording says otherwise than the stored one."""
    module = build_module(source)
    stored = load_recording(source)
    lines: list[str] = []
    for scenario in SCENARIOS:
        old, new = recorded_answers(stored, scenario), recorded_answers(fresh, scenario)
        lines += [str(p) for p in compare(module, scenario, old, new, with_sensitive=True) if not p.agrees]
    return lines


# -- the synthetic schema: every nesting mode, every flag, deep ---------------------------------------

_TYPES: Final[dict[str, Any]] = {
    "string": "string",
    "number": "number",
    "bool": "bool",
    "list": ["list", "string"],
    "set": ["set", "string"],
    "set_number": ["set", "number"],
    "map": ["map", "string"],
    "object": ["object", {"name": "string", "size": "number", "on": "bool", "tags": ["map", "string"]}],
    "list_of_objects": ["list", ["object", {"a": "string", "b": "number"}]],
    "set_of_objects": ["set", ["object", {"a": "string"}]],
    "tuple": ["tuple", ["string", "number", "bool"]],
    "dynamic": "dynamic",
}
_FLAGS: Final[dict[str, dict[str, bool]]] = {
    "required": {"required": True},
    "optional": {"optional": True},
    "computed": {"computed": True},
    "optional_computed": {"optional": True, "computed": True},
    "computed_sensitive": {"computed": True, "sensitive": True},
    "optional_sensitive": {"optional": True, "sensitive": True},
}
_INNER: Final[dict[str, Any]] = {
    "id": {"type": "string", "computed": True},
    "name": {"type": "string", "required": True},
    "size": {"type": "number", "optional": True, "computed": True},
    "enabled": {"type": "bool", "optional": True},
    "ready": {"type": "bool", "computed": True},
    "labels": {"type": ["list", "string"], "optional": True, "computed": True},
    "members": {"type": ["set", "string"], "computed": True},
    "secret": {"type": "string", "computed": True, "sensitive": True},
    "spec": {"type": ["object", {"kind": "string", "replicas": "number"}], "computed": True},
}


def _attr(spec: dict[str, Any]) -> dict[str, Any]:
    return {**spec, "description_kind": "plain"}


def _inner_attributes() -> dict[str, Any]:
    out = {n: _attr(a) for n, a in _INNER.items()}
    out["status"] = _attr({"nested_type": {"nesting_mode": "single", "attributes": {
        "phase": _attr({"type": "string", "computed": True}),
        "message": _attr({"type": "string", "optional": True}),
    }}, "optional": True, "computed": True})
    return out


def _wide_block(depth: int) -> dict[str, Any]:
    attributes = _inner_attributes()
    blocks: dict[str, Any] = {}
    if depth > 0:
        for mode in ("single", "list", "set", "map", "group"):
            blocks[f"{mode}_block"] = {"nesting_mode": mode, "block": _wide_block(depth - 1)}
    return {"attributes": attributes, "block_types": blocks, "description_kind": "plain"}


def _wide_resource() -> dict[str, Any]:
    attributes: dict[str, Any] = {"id": _attr({"type": "string", "computed": True})}
    for type_name, cty in _TYPES.items():
        for flag_name, flags in _FLAGS.items():
            if type_name == "tuple" and flags.get("computed"):
                continue  # terraform test 1.11 crashes generating a tuple: the tuple source shows it
            attributes[f"{type_name}_{flag_name}"] = _attr({"type": cty, **flags})
    for mode in ("single", "list", "set", "map"):
        for flag_name, flags in _FLAGS.items():
            if flag_name == "optional_sensitive":
                continue
            attributes[f"nested_{mode}_{flag_name}"] = _attr(
                {"nested_type": {"nesting_mode": mode, "attributes": _inner_attributes()}, **flags}
            )
    block = _wide_block(2)
    block["attributes"].update(attributes)
    block["block_types"]["required_list"] = {
        "nesting_mode": "list", "min_items": 1, "max_items": 2, "block": _wide_block(0),
    }
    return {"version": 0, "block": block}


def _deep_resource() -> dict[str, Any]:
    """Ten levels: blocks list, set, map, single, group, list, then nested attributes single, list, set, map."""
    def level(name: str) -> dict[str, Any]:
        return {
            "id": _attr({"type": "string", "computed": True}),
            f"{name}_name": _attr({"type": "string", "required": True}),
            f"{name}_value": _attr({"type": "string", "optional": True, "computed": True}),
            f"{name}_secret": _attr({"type": "string", "computed": True, "sensitive": True}),
        }

    inner: dict[str, Any] = {"attributes": level("leaf")}
    for i, mode in enumerate(reversed(("single", "list", "set", "map"))):
        inner = {"attributes": {
            **level(f"a{4 - i}"),
            f"attr_{mode}": _attr({"nested_type": {"nesting_mode": mode, **inner}, "optional": True}),
        }}
    block: dict[str, Any] = {"attributes": inner["attributes"], "description_kind": "plain"}
    for i, mode in enumerate(reversed(("list", "set", "map", "single", "group", "list"))):
        block = {
            "attributes": level(f"b{6 - i}"),
            "block_types": {f"block_{mode}": {"nesting_mode": mode, "block": block}},
            "description_kind": "plain",
        }
    return {"version": 0, "block": block}


def synthetic_schema() -> dict[str, Any]:
    """A provider schema made for the suite: hundreds of attributes, every nesting mode, ten levels deep."""
    wide, deep = _wide_resource(), _deep_resource()
    simple = {"version": 0, "block": {"attributes": {
        "id": _attr({"type": "string", "computed": True}),
        "name": _attr({"type": "string", "required": True}),
        "arn": _attr({"type": "string", "computed": True}),
        "size": _attr({"type": "number", "optional": True, "computed": True}),
    }, "description_kind": "plain"}}
    return {
        "format_version": "1.0",
        "provider_schemas": {"registry.terraform.io/acme/synth": {
            "provider": {"version": 0, "block": {"attributes": {
                "region": _attr({"type": "string", "optional": True}),
            }, "description_kind": "plain"}},
            "resource_schemas": {"synth_wide": wide, "synth_deep": deep, "synth_simple": simple},
            "data_source_schemas": {"synth_wide": wide, "synth_deep": deep, "synth_simple": simple},
        }},
    }


def tuple_schema() -> dict[str, Any]:
    """One computed tuple attribute: what ``terraform test`` 1.11 cannot generate (it panics)."""
    return {
        "format_version": "1.0",
        "provider_schemas": {"registry.terraform.io/acme/tuple": {
            "provider": {"version": 0, "block": {"description_kind": "plain"}},
            "resource_schemas": {"tuple_thing": {"version": 0, "block": {"attributes": {
                "id": _attr({"type": "string", "computed": True}),
                "pair": _attr({"type": ["tuple", ["string", "number"]], "computed": True}),
            }, "description_kind": "plain"}}},
        }},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("sources", nargs="*", help="source names (default: every source present)")
    parser.add_argument("--terraform", default=shutil.which("terraform") or "terraform")
    parser.add_argument("--check", action="store_true", help="record in memory and report drift; write nothing")
    parser.add_argument("--write-synthetic", action="store_true", help="rewrite the synthetic schema first")
    args = parser.parse_args(argv)
    if args.write_synthetic:
        for name, document in (("synthetic", synthetic_schema()), ("tuple", tuple_schema())):
            path = SUITE / "schemas" / f"{name}.schema.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    known = {s.name: s for s in SOURCES}
    unknown = [n for n in args.sources if n not in known]
    if unknown:
        parser.error(f"unknown sources {unknown}; known: {sorted(known)}")
    chosen = [known[n] for n in args.sources] if args.sources else [s for s in SOURCES if s.available()]
    status = 0
    for source in chosen:
        if not source.available():
            print(f"{source.name}: {source.path} is absent, skipped")
            continue
        fresh = record(source, args.terraform)
        if args.check:
            lines = drift(source, fresh)
            print(f"{source.name}: {len(lines)} facts drifted")
            for line in lines[:50]:
                print(f"  {line}")
            status |= 1 if lines else 0
            continue
        path = recording_path(source)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(fresh, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"{source.name}: recorded {path.relative_to(ROOT)} with Terraform {fresh['terraform_version']}")
    return status


if __name__ == "__main__":
    sys.exit(main())
