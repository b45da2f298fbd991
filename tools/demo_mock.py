"""The mock part of ``make demo``: ``tfplancheck mock-plan`` on ``examples/mock_module``, whose provider does not exist.

``acme/cloud`` is served in-process as a ``MockProvider`` built from ``cloud.schema.json``; the
module's secret comes from ``TF_VAR_encryption_key``, never from the command line, and never shows.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

__all__ = ["run_mock_demo"]

_TIMEOUT = 300.0


def run_mock_demo(terraform: Path) -> int:
    """Plan and check ``examples/mock_module`` with its provider mocked; 0 when every check passed."""
    root = Path(__file__).resolve().parents[1]
    example = Path("examples", "mock_module")
    print("# A module of a provider that is not installed (acme/cloud), planned with a MockProvider built "
          "from its schema, then checked: no credentials, no network.", flush=True)
    argv = [sys.executable, "-m", "plancheck", "mock-plan", str(example),
            "--mock", f"acme/cloud={example / 'cloud.schema.json'}",
            "--checks", str(example / "checks.toml"), "--terraform", str(terraform)]
    # The pinned binary's path is long and says nothing: show its name, as for every other command.
    shown = ["tfplancheck", *argv[3:-1], terraform.name]
    print(f"$ TF_VAR_encryption_key=... {shlex.join(shown)}", flush=True)
    print("  (serving the mock, then terraform init and plan, then the checks: a few seconds)", flush=True)
    env = {**os.environ, "TF_VAR_encryption_key": "Zq8vK2-demo-7301"}
    done = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, timeout=_TIMEOUT, check=False)
    print((done.stdout + done.stderr).rstrip(), flush=True)
    return done.returncode
