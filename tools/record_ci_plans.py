"""Record the example plans the CI recipes of ``examples/ci/`` are tested on, with the pinned Terraform.

The recipes (a GitHub Actions workflow, a GitLab CI job, a pre-commit hook) run ``tfplancheck`` on a plan
of ``examples/null``; ``tests/examples/test_ci_recipes.py`` runs their exact commands on the plans this
script records (as ``terraform show -json`` prints them: ``tfplancheck`` reads a JSON plan under any name),
so the test needs no Terraform. Two plans, the two verdicts a gate gives:

- ``create.json``: the first plan of ``examples/null`` (everything is created): ``examples/ci/checks.toml``
  passes;
- ``replace.json``: after that plan is applied, a plan with ``-var greeting=bonjour``: the triggers change,
  so ``null_resource.app`` and both workers are replaced: ``ExpectNoDestroys`` fails on the app (the
  workers' destroys are waived) and the greeting check, of ``warning`` severity, warns.

Both hold the sensitive variable's default in clear (``terraform show -json`` writes variables as they
are): the test checks that no report shows it. The pinned Terraform 1.0.3 and null provider 2.1.2 come
from the virtualenv (``make`` installs them), the provider from a local mirror: no network.

Usage::

    python -m tools.record_ci_plans            # rewrite examples/ci/plans/*.json
    python -m tools.record_ci_plans --check    # record in a temporary directory; exit 1 when the files differ

>>> [name for name, _ in PLANS]
['create.json', 'replace.json']
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from .examples import example_dir

__all__ = ["PLANS", "PLANS_DIR", "facts", "main", "normalised", "record"]

#: Where the recorded plans go.
PLANS_DIR: Final = Path(__file__).resolve().parents[1] / "examples" / "ci" / "plans"

#: Each plan's file name and the ``terraform plan`` arguments that make it (after ``create.json``'s is applied).
PLANS: Final = (
    ("create.json", ()),
    ("replace.json", ("-var", "greeting=bonjour")),
)

_TIMEOUT: Final = 300.0


def normalised(document: Mapping[str, Any]) -> str:
    """A plan document as the recorded file holds it: sorted keys, two-space indent, a final newline.

    Sorted, so a re-recording differs only where Terraform's answer does.

    >>> normalised({"b": 1, "a": [True]})
    '{\\n  "a": [\\n    true\\n  ],\\n  "b": 1\\n}\\n'
    """
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _terraform(tf: Path, args: Sequence[str], cwd: Path, env: Mapping[str, str]) -> str:
    done = subprocess.run([str(tf), *args], cwd=cwd, env=dict(env), capture_output=True, text=True,
                          timeout=_TIMEOUT, check=False)
    if done.returncode != 0:
        raise SystemExit(f"record_ci_plans: terraform {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


def record(into: Path) -> dict[str, str]:
    """Plan ``examples/null`` (then apply it, and plan again) in a temporary copy; return each plan's file text."""
    from plancheck._terraform.binary import build_provider_mirror, terraform_environment, write_cli_config

    from .pinned import find_null_provider, find_pinned_terraform

    terraform, provider = find_pinned_terraform(), find_null_provider()
    if terraform is None or provider is None:
        raise SystemExit("record_ci_plans: the pinned Terraform 1.0.3 and null provider are not installed (run make)")
    work = into / "null"
    shutil.copytree(example_dir(), work, ignore=shutil.ignore_patterns(".terraform*", "*.tfstate*", "plan.*"))
    mirror = build_provider_mirror(into / "mirror", [provider])
    rc_file = into / "terraform.rc"
    write_cli_config(rc_file, mirror, [provider.source])
    env = terraform_environment(os.environ, data_dir=work / ".terraform", cli_config=rc_file)
    _terraform(terraform, ["init", "-input=false", "-no-color"], work, env)
    texts: dict[str, str] = {}
    for name, extra in PLANS:
        _terraform(terraform, ["plan", "-input=false", "-no-color", "-out=plan.bin", *extra], work, env)
        texts[name] = normalised(json.loads(_terraform(terraform, ["show", "-json", "plan.bin"], work, env)))
        if name == "create.json":
            _terraform(terraform, ["apply", "-input=false", "-no-color", "-auto-approve", "plan.bin"], work, env)
    return texts


def main(argv: Sequence[str] | None = None) -> int:
    """Record the plans into :data:`PLANS_DIR` (``--check``: compare instead); return the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args not in ([], ["--check"]):
        print("usage: python -m tools.record_ci_plans [--check]", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="tfplancheck-ci-plans-") as tmp:
        texts = record(Path(tmp))
    if args == ["--check"]:
        # Terraform's answer changes only with its version: compare what a recording decides, not every byte.
        stale = [name for name, text in texts.items()
                 if facts(text) != facts((PLANS_DIR / name).read_text("utf-8"))]
        for name in stale:
            print(f"record_ci_plans: examples/ci/plans/{name} is stale", file=sys.stderr)
        return 1 if stale else 0
    PLANS_DIR.mkdir(parents=True, exist_ok=True)
    for name, text in texts.items():
        (PLANS_DIR / name).write_text(text, "utf-8")
        print(f"wrote examples/ci/plans/{name}")
    return 0


def facts(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """What the recipes' checks decide on: each resource change's address and actions.

    >>> facts('{"resource_changes": [{"address": "null_resource.app", "change": {"actions": ["delete", "create"]}}]}')
    [('null_resource.app', ('delete', 'create'))]
    """
    return [(rc["address"], tuple(rc["change"]["actions"])) for rc in json.loads(text).get("resource_changes", [])]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
