"""``tfplancheck mock-plan DIR --mock ADDRESS=SCHEMA.json``: plan a module with mocked providers, then check the plan.

The module directory is copied to a private temporary directory (with a local backend
override, so no remote state is touched), together with every local module it reaches
(``source = "../lib"``), in the same relative layout and with symlinks replaced by what they
point to; each ``--mock`` is served in this process as a
:class:`~plancheck.acceptance.MockProvider` and reattached, and ``init``, ``plan`` and
``show -json`` run there: no credentials, no network for the mocked providers. The plan JSON
goes to ``--out`` and/or through ``--checks``; with neither, the plan's addresses and actions
are printed. Variables come from ``--var NAME=VALUE`` (passed as ``TF_VAR_NAME``, never on a
command line) and ``--var-file``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Final

from ._io import add_command, add_snapshot_arguments, path_argument
from ._module_files import _hcl_module_calls, _json_module_calls

if TYPE_CHECKING:
    from .._documents.plan import Plan
    from .._errors import DocumentFormatError
    from ._io import Io

__all__ = ["MOCK_PLAN_HELP", "add_mock_plan_parser", "mock_plan"]

MOCK_PLAN_HELP: Final = """\
examples:
  terraform providers schema -json > cloud.schema.json      # once, where the real provider is installed
  tfplancheck mock-plan modules/logs --mock acme/cloud=cloud.schema.json --checks checks.toml
  tfplancheck mock-plan modules/logs --mock hashicorp/aws=aws.json --var name=logs --out plan.json
  tfplancheck mock-plan modules/logs --mock acme/cloud=cloud.schema.json --snapshot logs.snap [--update]
  tfplancheck mock-plan modules/logs --mock acme/cloud=cloud.schema.json --defaults acme/cloud=defaults.json

--defaults FILE is JSON: {"mock_resources": {KEY: {ATTRIBUTE: VALUE}}, "mock_data": {...}, "override_during": "plan"},
  KEY a type, an address or an address glob (data.cloud_region.here, module.*.cloud_bucket.x[*])

exit status: 0 planned (every check passed, the plan matches its snapshot), 1 a check failed or the plan
  differs from its snapshot, 2 a usage error, a bad schema, checks or snapshot file, or a terraform command
  that failed
"""
_TIMEOUT: Final = 600.0
_OVERRIDE_FILE: Final = "zz_tfplancheck_mock_override.tf"
_SKIPPED: Final = (".terraform", ".terraform.lock.hcl", "terraform.tfstate", "terraform.tfstate.backup", ".git")
# Terraform's own rule: only these prefixes make a module source a local directory.
_LOCAL_SOURCE: Final = ("./", "../")


class _Failed(Exception):
    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def add_mock_plan_parser(commands: Any, streams: object) -> None:
    """Register ``mock-plan`` on the subcommand parsers of the command line."""
    parser = add_command(
        commands,
        "mock-plan",
        "Plan a module directory with mocked providers (built from `terraform providers schema -json`), "
        "then write the plan JSON (--out), run checks on it (--checks) and/or compare it with its snapshot "
        "(--snapshot).",
        MOCK_PLAN_HELP,
        streams,
    )
    parser.add_argument("directory", metavar="DIR", type=path_argument, help="the module directory (it is copied, never changed)")
    parser.add_argument("--mock", action="append", default=[], metavar="ADDRESS=SCHEMA.json", required=True,
                        help="mock the provider ADDRESS from a schema file; repeatable")
    parser.add_argument("--defaults", action="append", default=[], metavar="ADDRESS=DEFAULTS.json",
                        help="defaults of the mock of ADDRESS (mock_resources, mock_data, override_during); repeatable")
    parser.add_argument("-c", "--checks", action="append", default=[], metavar="FILE", type=path_argument, help="checks file; repeatable")
    parser.add_argument("--out", metavar="FILE", type=path_argument, help="write the plan JSON here (it holds sensitive values in clear)")
    add_snapshot_arguments(parser, file_option=True)
    parser.add_argument("--var", action="append", default=[], metavar="NAME=VALUE", help="a root module variable")
    parser.add_argument("--var-file", action="append", default=[], metavar="FILE", type=path_argument, help="a variables file")
    parser.add_argument("--seed", default="0", help="seed of the generated values (default 0)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only failures")
    parser.add_argument("--color", "--colour", choices=("auto", "always", "never"), default="auto")
    parser.add_argument("--terraform", metavar="PATH", type=path_argument, help="terraform binary (default: $TF_ACC_TERRAFORM_PATH, terraform)")
    parser.add_argument("--timeout", type=_seconds, default=_TIMEOUT, metavar="SECONDS",
                        help="per terraform command (default 600, at most 604800)")


def _seconds(text: str) -> float:
    """A --timeout value: a number of seconds greater than 0 and at most a week (the rule of ``run_command``).

    >>> _seconds("90"), _seconds(" 0.5 ")
    (90.0, 0.5)
    >>> _seconds("nan")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: invalid value 'nan': expected a number of seconds greater than 0 and at most 604800 (a week)
    """
    from .._terraform import TimeoutValueError, check_timeout

    try:
        return check_timeout(float(text))
    except (ValueError, TimeoutValueError):  # float() refused it, or check_timeout did
        raise argparse.ArgumentTypeError(f"invalid value {text!r}: expected {TimeoutValueError.EXPECTED}") from None


def _mocks(specs: Sequence[str], seed: str, environ: Any, defaults: Sequence[str] = ()) -> list[Any]:
    from .._loading.source import max_input_bytes
    from .._terraform.mock import MockProvider, MockSchemaError
    from .._terraform.providers import normalize_address

    try:
        # A schema file is read as a plan is: up to PLANCHECK_MAX_BYTES (of the command's environment), else 2 GiB.
        limit = max_input_bytes(environ=environ)
    except ValueError as exc:
        raise _Failed("usage", str(exc)) from None
    options = _defaults_files(defaults, limit, normalize_address)
    mocks = []
    for spec in specs:
        address, sep, schema = spec.partition("=")
        if not sep or not address.strip() or not schema.strip():
            raise _Failed("usage", f"--mock {spec}: expected ADDRESS=SCHEMA.json, e.g. hashicorp/aws=aws.schema.json")
        given = options.pop(_normalized(address.strip(), normalize_address), {})
        try:
            mocks.append(MockProvider.from_schema_file(schema.strip(), address.strip(), seed=seed, max_bytes=limit,
                                                       **given))
        except MockSchemaError as exc:
            raise _Failed("mock", f"--{'defaults' if given else 'mock'} {address.strip()}: {exc}") from None
    if options:
        raise _Failed("usage", f"--defaults {sorted(options)[0]}: no --mock of that provider")
    addresses = [m.address for m in mocks]
    twice = sorted({a for a in addresses if addresses.count(a) > 1})
    if twice:
        raise _Failed("usage", f"--mock {twice[0]} is given twice")
    return mocks


_DEFAULTS_FIELDS: Final = ("mock_resources", "mock_data", "override_during")


def _normalized(address: str, normalize: Callable[[object, str], str]) -> str:
    try:
        return normalize(address, "--defaults")
    except ValueError:
        return address  # --mock says what is wrong with it


def _defaults_files(
    specs: Sequence[str], limit: int, normalize: Callable[[object, str], str]
) -> dict[str, dict[str, Any]]:
    """The options of each ``--defaults ADDRESS=FILE.json``, by normalized provider address.

    Values only: a JSON file holds no functions. Keys are checked when the mock is built.
    """
    from .._text import closest
    from ._io import UnreadableInput, read_input

    found: dict[str, dict[str, Any]] = {}
    for spec in specs:
        address, sep, name = spec.partition("=")
        address, name = address.strip(), name.strip()
        if not sep or not address or not name:
            raise _Failed("usage", f"--defaults {spec}: expected ADDRESS=DEFAULTS.json, e.g. acme/cloud=defaults.json")
        where = f"--defaults {address}: {name}"
        try:
            document = json.loads(read_input(name, "defaults file", limit=limit))
        except UnreadableInput as exc:
            raise _Failed("usage", f"{where}: {exc}") from None
        except (ValueError, RecursionError) as exc:
            raise _Failed("mock", f"{where}: not JSON: {str(exc).splitlines()[0][:200]}") from None
        if not isinstance(document, dict):
            raise _Failed("mock", f"{where}: expected a JSON object with {', '.join(_DEFAULTS_FIELDS)}")
        for field in document:
            if field not in _DEFAULTS_FIELDS:
                hint = closest(str(field), list(_DEFAULTS_FIELDS), n=1)
                raise _Failed("mock", f"{where}: unknown field {field!r}" + (f"; did you mean {hint[0]}?" if hint else ""))
        key = _normalized(address, normalize)
        if key in found:
            raise _Failed("usage", f"--defaults {address} is given twice")
        found[key] = document
    return found


def _variables(pairs: Sequence[str]) -> dict[str, str]:
    env: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip().isidentifier():
            # Only the name may be shown: the value may be a secret.
            raise _Failed("usage", f"--var {name.strip() or '?'}=...: expected NAME=VALUE with a variable name")
        env[f"TF_VAR_{name.strip()}"] = value
    return env


_CONFIG_SUFFIXES: Final = (".tf", ".tf.json", ".tfvars", ".tfvars.json")


def _copy_module(source: Path, target: Path) -> Path:
    """Copy the module ``source`` and every local module it reaches under ``target``; return the copy of ``source``.

    The directories keep their layout relative to their common ancestor, so ``../lib`` still works.
    """
    if not source.is_dir():
        raise _Failed("usage", f"{source}: not a directory")
    if not any(source.glob("*.tf")) and not any(source.glob("*.tf.json")):
        raise _Failed("usage", f"{source}: no .tf or .tf.json files: not a Terraform module directory")
    root = os.path.realpath(source)
    modules = _local_modules(root, source)
    top = os.path.commonpath(modules)
    try:
        # Parents first: a module inside a directory already copied is in that copy.
        for module in sorted(modules, key=lambda m: PurePosixPath(m).parts):
            copy = target / os.path.relpath(module, top)
            if not copy.exists():
                copy.parent.mkdir(parents=True, exist_ok=True)
                _copy_tree(Path(module), copy)
        copied = target / os.path.relpath(root, top)
        # A remote backend would need credentials: the plan is made against an empty local state instead.
        (copied / _OVERRIDE_FILE).write_text('terraform {\n  backend "local" {}\n}\n', encoding="utf-8")
    except OSError as exc:
        raise _Failed("usage", f"{source}: cannot copy the module: {exc}") from None
    return copied


def _local_modules(root: str, shown: Path) -> list[str]:
    """``root`` and the directory of every local module it reaches, directly or through other local modules."""
    found = [root]
    pending = [root]
    while pending:
        directory = pending.pop()
        for file, name, source in _module_calls(Path(directory)):
            if not source.startswith(_LOCAL_SOURCE):
                continue
            where = f'{shown if directory == root else directory}{os.sep}{file}: module "{name}": source "{source}"'
            reached = _lexical_join(directory, source)
            if reached is None:
                raise _Failed("usage", f"{where} leaves the filesystem root")
            if not os.path.isdir(reached):
                raise _Failed("usage", f"{where} is not a directory: {reached}")
            if reached not in found:
                found.append(reached)
                pending.append(reached)
    return found


def _lexical_join(directory: str, source: str) -> str | None:
    """``source`` joined to ``directory`` as Terraform joins it, on the text; None when it climbs above the root.

    >>> _lexical_join("/repo/envs/prod", "../../modules/lib"), _lexical_join("/repo", "./a/./b/../c/")
    ('/repo/modules/lib', '/repo/a/c')
    >>> _lexical_join("/repo", "../../etc") is None
    True
    """
    parts = list(PurePosixPath(directory).parts)
    for part in source.split("/"):
        if part == "..":
            if len(parts) == 1:
                return None
            parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return str(PurePosixPath(*parts))


def _module_calls(directory: Path) -> list[tuple[str, str, str]]:
    """(file name, module name, source) of each module block in the configuration files of ``directory``."""
    calls: list[tuple[str, str, str]] = []
    try:
        for path in sorted(directory.iterdir()):
            name = path.name
            # The files Terraform reads: .tf and .tf.json, neither hidden nor an editor's backup.
            if name.startswith(".") or not name.endswith((".tf", ".tf.json")) or not path.is_file():
                continue
            text = path.read_bytes().decode("utf-8", "replace")
            found = _json_module_calls(text) if name.endswith(".tf.json") else _hcl_module_calls(text)
            calls.extend((name, module, source) for module, source in found)
    except OSError as exc:
        raise _Failed("usage", f"{directory}: cannot read the module: {exc.strerror or exc}") from None
    return calls


def _copy_tree(source: Path, target: Path) -> None:
    """Copy a directory with every symlink replaced by what it points to (a relative link would be dangling).

    Broken symlinks and special files (sockets, pipes) are left out, as Terraform never reads them, but a
    broken configuration file is refused, and so is a link to a directory that contains it (an endless copy).
    """
    pending = [(source, target, _identities(Path(os.path.realpath(source))))]
    while pending:
        directory, copy, above = pending.pop()
        copy.mkdir()
        with os.scandir(directory) as scan:
            entries = sorted(scan, key=lambda e: e.name)
        for entry in entries:
            if entry.name in _SKIPPED:
                continue
            if entry.is_dir():
                identity = _identity(entry.path)
                if identity in above:
                    raise _Failed("usage", f"{entry.path}: a symlink to a directory that contains it: cannot copy the module")
                pending.append((Path(entry.path), copy / entry.name, above | {identity}))
            elif entry.is_file():
                shutil.copy2(entry.path, copy / entry.name)  # follows a symlink: the copy holds the target's content
            elif entry.is_symlink() and entry.name.endswith(_CONFIG_SUFFIXES):
                raise _Failed("usage", f"{entry.path}: a broken symlink (to {os.readlink(entry.path)})")


def _identity(path: str | Path) -> tuple[int, int]:
    status = os.stat(path)
    return status.st_dev, status.st_ino


def _identities(path: Path) -> frozenset[tuple[int, int]]:
    """The identities of ``path`` (a real path) and of every directory above it."""
    return frozenset(_identity(p) for p in (path, *path.parents))


@contextlib.contextmanager
def _served(mocks: Sequence[Any], directory: Path) -> Iterator[tuple[dict[str, str], list[Any]]]:
    from .._terraform.providers import (
        ProviderServer,
        ProviderServerError,
        ProvidersNotInstalledError,
        reattach_json,
    )

    servers: list[Any] = []
    try:
        configs: dict[str, tuple[Any, int]] = {}
        for mock in mocks:
            # The served instance itself: it is handed the plans (per-address defaults need them).
            server = ProviderServer(mock.address, mock(), directory)
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


def _plan_json(args: argparse.Namespace, io: Io, mocks: Sequence[Any]) -> tuple[str, Plan | DocumentFormatError]:
    """The JSON ``terraform show -json`` printed of the module's plan, and the plan the loader read from it
    (or why it could not)."""
    from .._documents.plan import Plan
    from .._errors import DocumentFormatError
    from .._terraform import run_command, terraform_environment
    from .._terraform.providers import PlanNotSettled, settled_plan

    binary = _terraform(args.terraform, io.environ)
    variables = _variables(args.var)
    var_files = [os.path.abspath(f) for f in args.var_file]
    for name in var_files:
        if not os.path.isfile(name):
            raise _Failed("usage", f"--var-file {name}: no such file")
    from .._terraform.providers import short_temp_dir

    root = short_temp_dir("tfpc-mock-")
    try:
        module = _copy_module(Path(args.directory), root / "module")
        empty = root / "empty.tfrc"
        empty.write_text("", encoding="utf-8")
        base = {**io.environ, **variables}
        env = terraform_environment(base, data_dir=root / "data", fallback_cli_config=empty)
        with _served(mocks, root) as (reattach, servers):
            env.update(reattach)
            plan_file = str(root / "plan.tfplan")

            def terraform(*step: str) -> str:
                result = run_command([binary, *step], cwd=module, env=env, timeout=args.timeout)
                if not result.ok:
                    raise _Failed("terraform", _failure(result, servers, module))
                return result.stdout

            shown: list[tuple[str, Plan | DocumentFormatError]] = []

            def show() -> Mapping[str, Any]:
                text = terraform("show", "-no-color", "-json", plan_file)
                try:
                    loaded: Plan | DocumentFormatError = Plan.from_json(text, source=args.directory)
                except DocumentFormatError as exc:
                    loaded = exc  # reported once the plan is settled (after --out wrote what Terraform printed)
                shown.append((text, loaded))
                return loaded.raw if isinstance(loaded, Plan) else {}

            terraform("init", "-input=false", "-no-color")
            # Planned again while a mock learns which data source each read is (mock_data address keys).
            try:
                settled_plan(
                    [s.provider for s in servers],
                    lambda: terraform("plan", "-input=false", "-no-color", "-lock=false", f"-out={plan_file}",
                                      *(f"-var-file={f}" for f in var_files)),
                    show, always_show=True,
                )
            except PlanNotSettled as exc:
                raise _Failed("terraform", f"terraform plan: {exc}") from None
            return shown[-1]
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


def mock_plan(args: argparse.Namespace, io: Io, version: Callable[[], str]) -> int:
    """Run ``mock-plan``; return the exit status (user errors reported in one message, never a traceback)."""
    from .._errors import DocumentFormatError
    from ..snapshot import SnapshotFormatError
    from ._checksfile import ChecksFileError, exit_status, load_checks_file, run_checks
    from ._io import (
        SCHEMA_VERSION,
        SnapshotUsageError,
        Style,
        compare_snapshot,
        list_document,
        render_json,
        render_list,
        snapshot_document,
        use_colour,
    )
    from ._module_files import input_secrets, plan_sensitive
    from ._output import render_text, results_document, results_secrets
    from ._registry import default_registry
    from ._waivers import today

    json_mode = args.format == "json"
    # The values of the module's sensitive variables, scrubbed from everything printed (Terraform's own errors too).
    secrets = input_secrets(Path(args.directory), args.var, args.var_file, io.environ)
    io.heard(secrets)  # and by the streams' own scrub, for whatever is printed without passing scrubbed()
    mocks: list[Any] = []

    def scrubbed(message: str) -> str:
        for mock in mocks:
            message = mock._scrub(message)  # what a mock saw under sensitive attributes, and the variables above
        return secrets.scrub(message)

    try:
        registry = default_registry()
        specs = [spec for name in args.checks for spec in load_checks_file(name, registry)]
        try:
            on = today(io.environ)  # the day the checks files' waivers are judged on
        except ValueError as exc:
            raise _Failed("usage", str(exc)) from None
        if args.checks and not specs:
            raise _Failed("checks", f"{', '.join(args.checks)}: the checks file has no checks")
        if (args.update or args.ignore) and not args.snapshot:
            raise _Failed("usage", "--update and --ignore go with --snapshot FILE")
        mocks = _mocks(args.mock, args.seed, io.environ, args.defaults)
        for mock in mocks:
            mock.plancheck_secrets(secrets)
        text, loaded = _plan_json(args, io, mocks)
        if args.out:
            try:
                Path(args.out).write_text(text, encoding="utf-8")
            except OSError as exc:
                raise _Failed("output", f"--out {args.out}: cannot write: {exc.strerror or exc}") from None
        if isinstance(loaded, DocumentFormatError):
            raise loaded
        plan = loaded
        secrets = secrets | plan_sensitive(plan.raw, args.var)
    except ChecksFileError as exc:
        return io.fail("checks", scrubbed(str(exc)), json_mode)
    except _Failed as exc:
        return io.fail(exc.kind, scrubbed(exc.message), json_mode)
    except DocumentFormatError as exc:
        return io.fail("plan", scrubbed(f"terraform show -json gave an unreadable plan: {exc}"), json_mode)
    shown = plan.secrets | secrets
    snapshot_status, snapshot_lines = 0, list[str]()
    if args.snapshot:
        try:
            snapshot_status, snapshot_lines = compare_snapshot(plan, args.snapshot, update=args.update,
                                                               ignore=args.ignore, io=io)
        except SnapshotUsageError as exc:
            return io.fail("usage", scrubbed(str(exc)), json_mode)
        except SnapshotFormatError as exc:
            return io.fail("snapshot", scrubbed(str(exc)), json_mode)
        # The snapshot's lines are secret-free by construction; the module's variables are scrubbed all the same.
        snapshot_lines = [shown.scrub(line) for line in snapshot_lines]
    snapshot = snapshot_document(args.snapshot, snapshot_status, snapshot_lines) if args.snapshot else None
    if not specs:
        if snapshot is not None:
            if json_mode:
                doc = {"schema_version": SCHEMA_VERSION, "kind": "snapshot", "tool_version": version(),
                       "ok": snapshot_status == 0, "snapshot": snapshot}
                io.out(render_json(doc, shown))
            else:
                io.out("\n".join(snapshot_lines))
            return snapshot_status
        doc = list_document(plan)
        io.out(render_json(doc, shown) if json_mode else shown.scrub(render_list(doc)))
        return 0
    results = run_checks(specs, plan, today=on)
    status = exit_status(results)
    if status != 2:
        status = max(snapshot_status, status)
    trusted = results_secrets(results, plan).trusted
    io.heard(shown.trusting(trusted))  # the stream's scrub keeps what the failures trusted
    if json_mode:
        # One document: the snapshot's outcome is part of the verdict, so ``ok`` is the exit status's.
        report = {**results_document(results, plan, version()), "ok": status == 0}
        if snapshot is not None:
            report["snapshot"] = snapshot
        io.out(render_json(report, shown.trusting(trusted)))
    else:
        style = Style(use_colour(io.stdout, io.environ, args.color))
        io.out(secrets.trusting(trusted).scrub(render_text(results, plan, style=style, quiet=args.quiet)))
        if snapshot_lines:
            io.stdout.write("\n".join(snapshot_lines) + "\n")
    return status
