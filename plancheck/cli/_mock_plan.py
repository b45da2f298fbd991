"""``tfplancheck mock-plan DIR --mock ADDRESS=SCHEMA.json``: plan a module with mocked providers, then check the plan.

The module is planned by the engine :func:`plancheck.acceptance.mock_plan` runs too
(``plancheck/_terraform/mock/plan.py``: a private copy of the module and of the local modules it
reaches, each ``--mock`` served in this process as a :class:`~plancheck.acceptance.MockProvider`
and reattached, no credentials, no network for the mocked providers). The plan JSON
goes to ``--out`` and/or through ``--checks``; with neither, the plan's addresses and actions
are printed. Variables come from ``--var NAME=VALUE`` (passed as ``TF_VAR_NAME``, never on a
command line) and ``--var-file``, also spelled as Terraform does (``-var``, ``-var-file``).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from ._io import add_command, add_snapshot_arguments, path_argument, reports_clash

if TYPE_CHECKING:
    from .._documents.plan import Plan
    from ._io import Io

__all__ = ["MOCK_PLAN_HELP", "add_mock_plan_parser", "mock_plan"]

MOCK_PLAN_HELP: Final = """\
examples:
  terraform providers schema -json > cloud.schema.json      # once, where the real provider is installed
  tfplancheck mock-plan modules/logs --mock acme/cloud=cloud.schema.json --checks checks.toml
  tfplancheck mock-plan modules/logs --mock hashicorp/aws=aws.json --var name=logs --out plan.json
  tfplancheck mock-plan modules/logs --mock hashicorp/aws=aws.json -var 'name=logs' -var-file=prod.tfvars
  tfplancheck mock-plan modules/logs --mock acme/cloud=cloud.schema.json --snapshot logs.snap [--update]
  tfplancheck mock-plan modules/logs --mock acme/cloud=cloud.schema.json --defaults acme/cloud=defaults.json

--defaults FILE is JSON: {"mock_resources": {KEY: {ATTRIBUTE: VALUE}}, "mock_data": {...}, "override_during": "plan"},
  KEY a type, an address or an address glob (data.cloud_region.here, module.*.cloud_bucket.x[*])

exit status: 0 planned (every check passed, the plan matches its snapshot), 1 a check failed or the plan
  differs from its snapshot, 2 a usage error, a bad schema, checks or snapshot file, or a terraform command
  that failed
"""


class _Failed(Exception):
    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def add_mock_plan_parser(commands: Any, streams: object) -> None:
    """Register ``mock-plan`` on the subcommand parsers of the command line."""
    from .._terraform.mock.plan import PLAN_TIMEOUT

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
    # Terraform's own spellings too (-var, -var-file, also as -var=NAME=VALUE): what a user types from habit.
    parser.add_argument("--var", "-var", action="append", default=[], metavar="NAME=VALUE",
                        help="a root module variable (also Terraform's -var)")
    parser.add_argument("--var-file", "-var-file", action="append", default=[], metavar="FILE", type=path_argument,
                        help="a variables file (also Terraform's -var-file)")
    parser.add_argument("--seed", default="0", help="seed of the generated values (default 0)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only failures")
    parser.add_argument("--color", "--colour", choices=("auto", "always", "never"), default="auto")
    parser.add_argument("--terraform", metavar="PATH", type=path_argument, help="terraform binary (default: $TF_ACC_TERRAFORM_PATH, terraform)")
    parser.add_argument("--timeout", type=_seconds, default=PLAN_TIMEOUT, metavar="SECONDS",
                        help="per terraform command (default 600, at most 604800)")


def _seconds(text: str) -> float:
    """A --timeout value: a number of seconds greater than 0 and at most a week (the rule of ``run_command``).

    >>> _seconds("90"), _seconds(" 0.5 ")
    (90.0, 0.5)
    >>> _seconds("nan")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: invalid value 'nan': expected a number of seconds greater than 0 and at most 604800 (a week)
    """
    from .._terraform.binary import TimeoutValueError, check_timeout

    try:
        return check_timeout(float(text))
    except (ValueError, TimeoutValueError):  # float() refused it, or check_timeout did
        raise argparse.ArgumentTypeError(f"invalid value {text!r}: expected {TimeoutValueError.EXPECTED}") from None


def _mocks(specs: Sequence[str], seed: str, environ: Any, defaults: Sequence[str] = ()) -> list[Any]:
    from .._loading.source import max_input_bytes
    from .._terraform.mock.provider import MockProvider
    from .._terraform.mock.schema import MockSchemaError
    from .._terraform.providers.factory import normalize_address

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
    from .._terraform.mock.schema import MockSchemaError, loads_json_file
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
            document = loads_json_file(read_input(name, "defaults file", limit=limit), where)
        except UnreadableInput as exc:
            raise _Failed("usage", f"{where}: {exc}") from None
        except MockSchemaError as exc:
            raise _Failed("mock", str(exc)) from None
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
    from .._text import reserved_name, variable_name

    env: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        reserved = reserved_name(name.strip())
        if sep and reserved is not None:
            raise _Failed("usage", f"--var {name.strip()}=...: {name.strip()} {reserved}")
        if not sep or not variable_name(name.strip()):
            # Only the name may be shown: the value may be a secret.
            raise _Failed("usage", f"--var {name.strip() or '?'}=...: expected NAME=VALUE with a variable name")
        env[f"TF_VAR_{name.strip()}"] = value
    return env


def _plan(args: argparse.Namespace, io: Io, mocks: Sequence[Any]) -> Plan:
    """The module's plan, by the one engine :func:`plancheck.acceptance.mock_plan` runs too."""
    from .._terraform.mock.plan import find_terraform, plan_module

    binary = find_terraform(args.terraform, io.environ)
    variables = _variables(args.var)
    var_files = [os.path.abspath(f) for f in args.var_file]
    for name in var_files:
        if not os.path.isfile(name):
            raise _Failed("usage", f"--var-file {name}: {'is a directory' if os.path.isdir(name) else 'no such file'}")
    return plan_module(Path(args.directory), mocks, terraform=binary, environ={**io.environ, **variables},
                       var_files=var_files, timeout=args.timeout, out=Path(args.out) if args.out else None,
                       shown=Path(args.directory))


def mock_plan(args: argparse.Namespace, io: Io, version: Callable[[], str]) -> int:
    """Run ``mock-plan``; return the exit status (user errors reported in one message, never a traceback)."""
    from .._loading.jsontext import without_hint
    from .._terraform.mock.plan import (
        MockPlanArgumentError,
        MockPlanFailedError,
        UnreadablePlan,
        input_secrets,
        out_problem,
        plan_sensitive,
    )
    from ..snapshot import SnapshotFormatError
    from ._checksfile import ChecksFileError, exit_status, load_checks_file, run_checks
    from ._io import (
        SCHEMA_VERSION,
        SnapshotUsageError,
        Style,
        compare_snapshot,
        snapshot_document,
        use_colour,
    )
    from ._query import list_document, render_list
    from ._registry import default_registry
    from ._report_formats import results_document
    from ._runs import PlanRun
    from ._text_report import render_text
    from ._waivers import baseline_key, today

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
        # --out holds the plan's sensitive values in clear: never over a file the run reads (or the snapshot it keeps).
        read = [*args.checks, *args.var_file, args.snapshot, *(spec.partition("=")[2] for spec in [*args.mock, *args.defaults])]
        clash = reports_clash([], read, {"--out": args.out})
        if clash is not None:
            raise _Failed("usage", clash)
        # Nor as a file the module's next plan would read as its own configuration (plan.tf.json in DIR).
        problem = out_problem(Path(args.out), Path(args.directory)) if args.out else None
        if problem is not None:
            raise _Failed("usage", f"--out {problem}")
        registry = default_registry()
        specs = [spec for name in args.checks for spec in load_checks_file(name, registry)]
        try:
            on = today(io.environ)  # the day the checks files' waivers are judged on
            # The key a waiver names an instance keyed by a secret by (its fingerprint), as tfplancheck PLAN's.
            key = baseline_key(io.environ) if any(spec.waivers for spec in specs) else None
        except ValueError as exc:
            raise _Failed("usage", str(exc)) from None
        if args.checks and not specs:
            raise _Failed("checks", f"{', '.join(args.checks)}: the checks file has no checks")
        if (args.update or args.ignore) and not args.snapshot:
            raise _Failed("usage", "--update and --ignore go with --snapshot FILE")
        mocks = _mocks(args.mock, args.seed, io.environ, args.defaults)
        for mock in mocks:
            mock.plancheck_secrets(secrets)
        plan = _plan(args, io, mocks)
        secrets = secrets | plan_sensitive(plan.raw, args.var)
    except ChecksFileError as exc:
        return io.fail("checks", scrubbed(str(exc)), json_mode)
    except _Failed as exc:
        return io.fail(exc.kind, scrubbed(exc.message), json_mode)
    except MockPlanArgumentError as exc:
        if exc.argument == "out":
            return io.fail("output", scrubbed(f"--out {exc.problem}"), json_mode)
        return io.fail("usage", scrubbed(exc.problem), json_mode)
    except UnreadablePlan as exc:
        return io.fail("plan", scrubbed(f"terraform show -json gave an unreadable plan: {without_hint(exc.error)}"), json_mode)
    except MockPlanFailedError as exc:
        return io.fail("mock" if exc.step == "mock" else "terraform", scrubbed(exc.detail), json_mode)
    shown = plan.secrets | secrets
    # Heard, so each JSON document's one scrub (Io.rendered) has them all: the --var values of variables the plan
    # says are sensitive were heard by no one yet.
    io.heard(shown)
    snapshot_status, snapshot_lines, snapshot = 0, list[str](), None
    if args.snapshot:
        try:
            snapshot_status, snapshot_lines = compare_snapshot(plan, args.snapshot, update=args.update,
                                                               ignore=args.ignore, io=io)
        except SnapshotUsageError as exc:
            return io.fail("usage", scrubbed(str(exc)), json_mode)
        except SnapshotFormatError as exc:
            return io.fail("snapshot", scrubbed(str(exc)), json_mode)
        # Its outcome read from the lines as written (a secret "snapshot" made "wrote the (sensitive)" an outcome of
        # "same"); the document's values are scrubbed once, as it is written (Io.rendered).
        snapshot = snapshot_document(args.snapshot, snapshot_status, snapshot_lines)
        # The snapshot's lines are secret-free by construction; the module's variables are scrubbed all the same.
        snapshot_lines = [shown.scrub(line) for line in snapshot_lines]
    if not specs:
        if snapshot is not None:
            if json_mode:
                doc = {"schema_version": SCHEMA_VERSION, "kind": "snapshot", "tool_version": version(),
                       "ok": snapshot_status == 0, "snapshot": snapshot}
                io.out(io.rendered(doc))
            else:
                io.out("\n".join(snapshot_lines))
            return snapshot_status
        doc = list_document(plan)
        io.out(io.rendered(doc) if json_mode else shown.scrub(render_list(doc)))
        return 0
    results = run_checks(specs, plan, today=on, key=key)
    status = exit_status(results)
    if status != 2:
        status = max(snapshot_status, status)
    # What the failures trusted, kept by every scrub below: asked only when one finds a span (most outputs show no secret).
    run = PlanRun(plan, tuple(results))
    failures = run.secrets()
    shown = shown.trusting(lambda: failures.trusted)
    io.heard(shown)  # the stream's scrub keeps what the failures trusted
    if json_mode:
        # One document: the snapshot's outcome is part of the verdict, so ``ok`` is the exit status's.
        report = {**results_document(results, plan, version()), "ok": status == 0}
        if snapshot is not None:
            report["snapshot"] = snapshot
        io.out(io.rendered(report))
    else:
        style = Style(use_colour(io.stdout, io.environ, args.color))
        io.out(secrets.trusting(lambda: failures.trusted).scrub(render_text(run, style=style, quiet=args.quiet)))
        if snapshot_lines:
            io.stdout.write("\n".join(snapshot_lines) + "\n")
    return status
