"""``tfplancheck mock-plan DIR --mock ADDRESS=SCHEMA.json``: plan a module with mocked providers, then check the plan.

The module directory is copied to a private temporary directory (with a local backend
override, so no remote state is touched), each ``--mock`` is served in this process as a
:class:`~plancheck.acceptance.MockProvider` and reattached, and ``init``, ``plan`` and
``show -json`` run there: no credentials, no network for the mocked providers. The plan JSON
goes to ``--out`` and/or through ``--checks``; with neither, the plan's addresses and actions
are printed. Variables come from ``--var NAME=VALUE`` (passed as ``TF_VAR_NAME``, never on a
command line) and ``--var-file``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from ._command import _Io

__all__ = ["MOCK_PLAN_HELP", "add_mock_plan_parser", "mock_plan"]

MOCK_PLAN_HELP: Final = """\
examples:
  terraform providers schema -json > cloud.schema.json      # once, where the real provider is installed
  tfplancheck mock-plan modules/logs --mock acme/cloud=cloud.schema.json --checks checks.toml
  tfplancheck mock-plan modules/logs --mock hashicorp/aws=aws.json --var name=logs --out plan.json

exit status: 0 planned (and every check passed), 1 a check failed, 2 a usage error, a bad schema or
  checks file, or a terraform command that failed
"""
_TIMEOUT: Final = 600.0
_OVERRIDE_FILE: Final = "zz_tfplancheck_mock_override.tf"
_SKIPPED: Final = (".terraform", ".terraform.lock.hcl", "terraform.tfstate", "terraform.tfstate.backup", ".git")


class _Failed(Exception):
    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def add_mock_plan_parser(commands: Any, streams: object) -> None:
    """Register ``mock-plan`` on the subcommand parsers of the command line."""
    parser = commands.add_parser(
        "mock-plan",
        prog="tfplancheck mock-plan",
        description="Plan a module directory with mocked providers (built from `terraform providers schema -json`), "
        "then write the plan JSON (--out) and/or run checks on it (--checks).",
        epilog=MOCK_PLAN_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("directory", metavar="DIR", help="the module directory (it is copied, never changed)")
    parser.add_argument("--mock", action="append", default=[], metavar="ADDRESS=SCHEMA.json", required=True,
                        help="mock the provider ADDRESS from a schema file; repeatable")
    parser.add_argument("-c", "--checks", action="append", default=[], metavar="FILE", help="checks file; repeatable")
    parser.add_argument("--out", metavar="FILE", help="write the plan JSON here (it holds sensitive values in clear)")
    parser.add_argument("--var", action="append", default=[], metavar="NAME=VALUE", help="a root module variable")
    parser.add_argument("--var-file", action="append", default=[], metavar="FILE", help="a variables file")
    parser.add_argument("--seed", default="0", help="seed of the generated values (default 0)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only failures")
    parser.add_argument("--color", "--colour", choices=("auto", "always", "never"), default="auto")
    parser.add_argument("--terraform", metavar="PATH", help="terraform binary (default: $TF_ACC_TERRAFORM_PATH, terraform)")
    parser.add_argument("--timeout", type=float, default=_TIMEOUT, metavar="SECONDS", help="per terraform command")
    parser.streams = streams


def _mocks(specs: Sequence[str], seed: str) -> list[Any]:
    from ..acceptance._mock import MockProvider, MockSchemaError

    mocks = []
    for spec in specs:
        address, sep, schema = spec.partition("=")
        if not sep or not address.strip() or not schema.strip():
            raise _Failed("usage", f"--mock {spec}: expected ADDRESS=SCHEMA.json, e.g. hashicorp/aws=aws.schema.json")
        try:
            mocks.append(MockProvider.from_schema_file(schema.strip(), address.strip(), seed=seed))
        except MockSchemaError as exc:
            raise _Failed("mock", f"--mock {address.strip()}: {exc}") from None
    addresses = [m.address for m in mocks]
    twice = sorted({a for a in addresses if addresses.count(a) > 1})
    if twice:
        raise _Failed("usage", f"--mock {twice[0]} is given twice")
    return mocks


def _variables(pairs: Sequence[str]) -> dict[str, str]:
    env: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip().isidentifier():
            # Only the name may be shown: the value may be a secret.
            raise _Failed("usage", f"--var {name.strip() or '?'}=...: expected NAME=VALUE with a variable name")
        env[f"TF_VAR_{name.strip()}"] = value
    return env


def _copy_module(source: Path, target: Path) -> None:
    if not source.is_dir():
        raise _Failed("usage", f"{source}: not a directory")
    if not any(source.glob("*.tf")) and not any(source.glob("*.tf.json")):
        raise _Failed("usage", f"{source}: no .tf or .tf.json files: not a Terraform module directory")
    try:
        shutil.copytree(source, target, ignore=shutil.ignore_patterns(*_SKIPPED), symlinks=True)
    except (OSError, shutil.Error) as exc:
        raise _Failed("usage", f"{source}: cannot copy the module: {exc}") from None
    # A remote backend would need credentials: the plan is made against an empty local state instead.
    (target / _OVERRIDE_FILE).write_text('terraform {\n  backend "local" {}\n}\n', encoding="utf-8")


@contextlib.contextmanager
def _served(mocks: Sequence[Any], directory: Path) -> Iterator[tuple[dict[str, str], list[Any]]]:
    from ..acceptance._providers import (
        ProviderServer,
        ProviderServerError,
        ProvidersNotInstalledError,
        reattach_json,
    )

    servers: list[Any] = []
    try:
        configs: dict[str, tuple[Any, int]] = {}
        for mock in mocks:
            server = ProviderServer(mock.address, mock, directory)
            servers.append(server)
            config = server.start()
            assert config.pid is not None
            configs[mock.address] = (config, config.pid)
        yield {"TF_REATTACH_PROVIDERS": reattach_json(configs)}, servers
    except (ProviderServerError, ProvidersNotInstalledError) as exc:
        raise _Failed("mock", str(exc)) from None
    finally:
        for server in servers:
            server.stop()


def _terraform(given: str | None, environ: Any) -> str:
    from .._terraform import TerraformNotFoundError, inspect_binary, locate_terraform

    try:
        located = locate_terraform(given, environ)
        if located is None:
            raise _Failed("terraform", "mock-plan needs terraform on PATH (or --terraform PATH, or $TF_ACC_TERRAFORM_PATH)")
        return inspect_binary(located[0]).path
    except TerraformNotFoundError as exc:
        raise _Failed("terraform", str(exc)) from None


def _plan_json(args: argparse.Namespace, io: _Io, mocks: Sequence[Any]) -> str:
    from .._terraform import run_command, terraform_environment

    binary = _terraform(args.terraform, io.environ)
    variables = _variables(args.var)
    var_files = [os.path.abspath(f) for f in args.var_file]
    for name in var_files:
        if not os.path.isfile(name):
            raise _Failed("usage", f"--var-file {name}: no such file")
    from ..acceptance._providers._serve import short_temp_dir

    root = short_temp_dir("tfpc-mock-")
    try:
        module = root / "module"
        _copy_module(Path(args.directory), module)
        empty = root / "empty.tfrc"
        empty.write_text("", encoding="utf-8")
        base = {**io.environ, **variables}
        env = terraform_environment(base, data_dir=root / "data", fallback_cli_config=empty)
        with _served(mocks, root) as (reattach, servers):
            env.update(reattach)
            plan_file = str(root / "plan.tfplan")
            steps = [
                ["init", "-input=false", "-no-color"],
                ["plan", "-input=false", "-no-color", "-lock=false", f"-out={plan_file}",
                 *(f"-var-file={f}" for f in var_files)],
                ["show", "-no-color", "-json", plan_file],
            ]
            result = None
            for step in steps:
                result = run_command([binary, *step], cwd=module, env=env, timeout=args.timeout)
                if not result.ok:
                    raise _Failed("terraform", _failure(result, servers, module))
            assert result is not None
            return result.stdout
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _failure(result: Any, servers: Sequence[Any], module: Path) -> str:
    how = "timed out" if result.timed_out else "failed"
    detail = (result.stderr.strip() or result.stdout.strip() or f"exit status {result.returncode}").replace(
        str(module) + os.sep, ""
    )
    raised = [f"{s.address}: {e.summary}" for s in servers for e in s.errors]
    extra = ("\nthe mock raised: " + "; ".join(raised)) if raised else ""
    return f"terraform {result.argv[1]} {how}:\n{detail}{extra}"


def mock_plan(args: argparse.Namespace, io: _Io, version: Callable[[], str]) -> int:
    """Run ``mock-plan``; return the exit status (user errors reported in one message, never a traceback)."""
    from .._documents.plan import Plan
    from .._errors import DocumentFormatError
    from ._checksfile import ChecksFileError, load_checks_file
    from ._output import Style, render_json, render_text, results_document, use_colour
    from ._query import list_document, render_list
    from ._registry import default_registry
    from ._run import run_checks

    json_mode = args.format == "json"
    try:
        registry = default_registry()
        specs = [spec for name in args.checks for spec in load_checks_file(name, registry)]
        if args.checks and not specs:
            raise _Failed("checks", f"{', '.join(args.checks)}: the checks file has no checks")
        mocks = _mocks(args.mock, args.seed)
        text = _plan_json(args, io, mocks)
        if args.out:
            try:
                Path(args.out).write_text(text, encoding="utf-8")
            except OSError as exc:
                raise _Failed("output", f"--out {args.out}: cannot write: {exc.strerror or exc}") from None
        plan = Plan.from_json(text, source=args.directory)
    except ChecksFileError as exc:
        return io.fail("checks", str(exc), json_mode)
    except _Failed as exc:
        return io.fail(exc.kind, exc.message, json_mode)
    except DocumentFormatError as exc:
        return io.fail("plan", f"terraform show -json gave an unreadable plan: {exc}", json_mode)
    if not specs:
        doc = list_document(plan)
        io.out(render_json(doc, plan.secrets) if json_mode else plan.secrets.scrub(render_list(doc)))
        return 0
    results = run_checks(specs, plan)
    if json_mode:
        io.out(render_json(results_document(results, plan, version()), plan.secrets))
    else:
        io.out(render_text(results, plan, style=Style(use_colour(io.stdout, io.environ, args.color)), quiet=args.quiet))
    if any(r.status == "error" for r in results):
        return 2
    return 0 if all(r.ok for r in results) else 1
