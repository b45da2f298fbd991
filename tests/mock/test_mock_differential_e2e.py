"""The mock differential suite live: ``terraform test`` still answers as recorded, and the mock served to a real
``terraform plan``/``apply`` gives the facts the replay gives, sensitive marks included (Terraform 1.11+)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from plancheck.acceptance import MockProvider, ProviderServer
from tools.mock_reference import (
    DELIBERATE,
    SCENARIOS,
    SOURCES,
    build_module,
    compare,
    load_recording,
    module_json,
    recorded_answers,
)
from tools.record_mock_reference import answers_of, drift, record

pytestmark = [pytest.mark.e2e, pytest.mark.tf_min_version("1.11")]
pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")

CLOUD = next(s for s in SOURCES if s.name == "cloud")
GENERATED = next(s for s in SCENARIOS if s.name == "generated")


def test_terraform_test_still_answers_as_recorded(tf_acceptance_binary: Any) -> None:
    fresh = record(CLOUD, str(tf_acceptance_binary.path))
    assert drift(CLOUD, fresh) == []


def _terraform(binary: str, args: list[str], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run([binary, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_mock_under_real_terraform_gives_the_recorded_facts(tf_acceptance_binary: Any, private_tmp: Path) -> None:
    module = build_module(CLOUD)
    (private_tmp / "main.tf.json").write_text(json.dumps(module_json(module)), encoding="utf-8")
    (private_tmp / "empty.tfrc").write_text("", encoding="utf-8")
    binary = str(tf_acceptance_binary.path)
    mock = MockProvider(CLOUD.document(), CLOUD.address)
    with ProviderServer(CLOUD.address, mock()) as server:
        env = {k: v for k, v in os.environ.items() if not k.startswith("TF_")}
        env |= {"TF_CLI_CONFIG_FILE": str(private_tmp / "empty.tfrc"), "TF_IN_AUTOMATION": "1", **server.environment()}
        _terraform(binary, ["init", "-input=false", "-backend=false"], private_tmp, env)
        _terraform(binary, ["plan", "-input=false", "-out=p"], private_tmp, env)
        plan = json.loads(_terraform(binary, ["show", "-json", "p"], private_tmp, env))
        _terraform(binary, ["apply", "-input=false", "p"], private_tmp, env)
        state = json.loads(_terraform(binary, ["show", "-json"], private_tmp, env))
    test_path = f"tests/{GENERATED.name}.tftest.hcl"
    messages: list[dict[str, Any]] = [
        {"type": "test_plan", "@testfile": test_path, "@testrun": "plan", "test_plan": plan},
        {"type": "test_state", "@testfile": test_path, "@testrun": "apply", "test_state": state["values"]},
    ] + [
        {"type": "test_run", "@testfile": test_path, "test_run": {"run": run, "progress": "complete", "status": "pass"}}
        for run in ("plan", "apply")
    ]
    ours = recorded_answers({"scenarios": answers_of(messages, module, (GENERATED,))}, GENERATED)
    theirs = recorded_answers(load_recording(CLOUD), GENERATED)
    points = list(compare(module, GENERATED, theirs, ours, with_sensitive=True))
    assert any("sensitive" in p.terraform for p in points)
    differ = [str(p) for p in points if not p.agrees and not any(d.covers(p) for d in DELIBERATE)]
    assert differ == []
