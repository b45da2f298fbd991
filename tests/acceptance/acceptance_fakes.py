"""A scriptable fake ``terraform`` for fast, deterministic tests of the acceptance runner.

The fake is a Python script. A scenario (JSON) lists rules: the first rule whose ``when``
tokens all appear in argv answers, with its responses used in turn (the last one repeats).
Every call is logged (argv, selected environment variables, files present, stdin) so tests
can pin the exact command sequence.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_SCRIPT = """#!{python} -S
import json, os, sys, time
args = sys.argv[1:]
if args[:1] == ["version"]:
    print(json.dumps({{"terraform_version": os.environ.get("FAKE_TF_VERSION", "1.9.0"), "platform": "linux_amd64"}}))
    sys.exit(0)
scenario = json.load(open(os.environ["FAKE_TF_SCENARIO"]))
log_path = os.environ["FAKE_TF_LOG"]
previous = []
if os.path.exists(log_path):
    with open(log_path) as f:
        previous = [json.loads(line) for line in f if line.strip()]
entry = {{
    "args": args,
    "env": {{k: os.environ.get(k) for k in scenario.get("env_keys", [])}},
    "files": sorted(os.listdir(".")),
    "stdin": sys.stdin.read() if not sys.stdin.closed else None,
    "main_tf": open("main.tf").read() if os.path.exists("main.tf") else None,
    "query_hcl": open("main.tfquery.hcl").read() if os.path.exists("main.tfquery.hcl") else None,
    "tfvars": json.load(open("terraform.tfvars.json")) if os.path.exists("terraform.tfvars.json") else None,
}}
with open(log_path, "a") as f:
    f.write(json.dumps(entry) + "\\n")
for index, rule in enumerate(scenario.get("rules", [])):
    if all(token in args for token in rule["when"]) and all(
        token not in (entry["main_tf"] or "") for token in rule.get("unless_config", [])
    ) and all(token in (entry["main_tf"] or "") for token in rule.get("if_config", [])):
        seen = sum(1 for e in previous if e.get("rule") == index)
        with open(log_path) as f:
            lines = f.read().splitlines()
        lines[-1] = json.dumps(dict(entry, rule=index))
        with open(log_path, "w") as f:
            f.write("\\n".join(lines) + "\\n")
        responses = rule["responses"]
        response = responses[min(seen, len(responses) - 1)]
        time.sleep(response.get("sleep", 0))
        sys.stdout.write(response.get("stdout", ""))
        sys.stderr.write(response.get("stderr", ""))
        if "signal" in response:
            sys.stdout.flush()
            sys.stderr.flush()
            os.kill(os.getpid(), response["signal"])
        sys.exit(response.get("exit", 0))
sys.exit(0)
"""

EMPTY_PLAN = json.dumps({"format_version": "1.2", "terraform_version": "1.9.0"})
EMPTY_STATE = json.dumps({"format_version": "1.0", "terraform_version": "1.9.0"})


def plan_json(*changes: tuple[str, Sequence[str]], outputs: Mapping[str, Sequence[str]] | None = None,
              **extra: Any) -> str:
    """A minimal plan document with the given (address, actions) resource changes."""
    doc: dict[str, Any] = {
        "format_version": "1.2",
        "terraform_version": "1.9.0",
        "resource_changes": [
            {"address": a, "mode": "managed", "type": a.split(".")[0], "name": a.split(".")[1],
             "change": {"actions": list(actions), "before": None, "after": {}, "after_unknown": {}}}
            for a, actions in changes
        ],
    }
    if outputs:
        doc["output_changes"] = {
            name: {"actions": list(actions), "before": None, "after": "x", "after_unknown": False}
            for name, actions in outputs.items()
        }
    doc.update(extra)
    return json.dumps(doc)


# -- terraform query -json (Terraform 1.14+) -----------------------------------------------------
# Shaped after Terraform's own tests of the command (internal/command/query_test.go) and
# terraform-json's logging_query.go; no Terraform 1.14 is installed here to record real ones.


def _ui(message: str, kind: str, **body: Any) -> dict[str, Any]:
    return {"@level": "info", "@message": message, "@module": "terraform.ui",
            "@timestamp": "2026-11-20T10:00:00.000000Z", "type": kind, **body}


def query_version(version: str = "1.14.0") -> dict[str, Any]:
    return _ui(f"Terraform {version}", "version", terraform=version, ui="1.2")


def query_start(address: str, resource_type: str, config: Mapping[str, Any] | None = None,
                sensitive: Sequence[str] = ()) -> dict[str, Any]:
    body: dict[str, Any] = {"address": address, "resource_type": resource_type}
    if config is not None:
        body["input_config"] = dict(config)
    if sensitive:
        body["sensitive_attribute_paths"] = list(sensitive)
    return _ui(f"{address}: Starting query...", "list_start", list_start=body)


def query_found(address: str, resource_type: str, display_name: str, identity: Mapping[str, Any],
                resource_object: Mapping[str, Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"address": address, "display_name": display_name, "identity": dict(identity),
                            "identity_version": 1, "resource_type": resource_type}
    if resource_object is not None:
        body["resource_object"] = dict(resource_object)
    return _ui(f"{address}: Result found", "list_resource_found", list_resource_found=body)


def query_complete(address: str, resource_type: str, total: int) -> dict[str, Any]:
    return _ui(f"{address}: List complete", "list_complete",
               list_complete={"address": address, "resource_type": resource_type, "total": total})


def query_error(summary: str, detail: str = "") -> dict[str, Any]:
    return {"@level": "error", "@message": f"Error: {summary}", "@module": "terraform.ui",
            "@timestamp": "2026-11-20T10:00:00.000000Z", "type": "diagnostic",
            "diagnostic": {"severity": "error", "summary": summary, "detail": detail}}


def query_jsonl(*messages: Mapping[str, Any]) -> str:
    """The messages as ``terraform query -json`` prints them: one compact JSON object per line."""
    return "".join(json.dumps(m, separators=(",", ":")) + "\n" for m in messages)


def rule(*when: str, responses: Sequence[Mapping[str, Any]] = ({},), **extra: Any) -> dict[str, Any]:
    return {"when": list(when), "responses": list(responses), **extra}


@dataclass
class FakeTerraform:
    """The fake binary and its scenario/log files, inside one test's tmp_path."""

    path: Path
    scenario_file: Path
    log_file: Path

    def script(self, *rules: Mapping[str, Any], env_keys: Sequence[str] = ()) -> None:
        self.scenario_file.write_text(json.dumps({"rules": list(rules), "env_keys": list(env_keys)}), encoding="utf-8")

    def calls(self) -> list[dict[str, Any]]:
        if not self.log_file.exists():
            return []
        return [json.loads(line) for line in self.log_file.read_text().splitlines() if line.strip()]

    def argv(self) -> list[str]:
        """Each call as one line, e.g. ``plan -input=false -no-color -out=tfplan``."""
        return [" ".join(c["args"]) for c in self.calls()]

    def env(self) -> dict[str, str]:
        return {"FAKE_TF_SCENARIO": str(self.scenario_file), "FAKE_TF_LOG": str(self.log_file)}


def make_fake_terraform(directory: Path) -> FakeTerraform:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "terraform"
    path.write_text(_SCRIPT.format(python=sys.executable), encoding="utf-8")
    path.chmod(0o755)
    fake = FakeTerraform(path, directory / "scenario.json", directory / "calls.jsonl")
    fake.script()
    return fake


def environ_with(fake: FakeTerraform, **values: str) -> dict[str, str]:
    return {**os.environ, **fake.env(), **values}
