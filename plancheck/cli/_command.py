"""The ``tfplancheck`` command line (also ``python -m plancheck``).

Exit status: 0 when every check passed, 1 when a check failed (of ``error`` severity, or any
warning under ``--fail-on warning``), 2 for a usage
error, an unreadable, malformed or too large plan or checks file, or output that
cannot be written (stdout closed, a full disk). User errors are reported in one
line on stderr, never as a traceback. When the reader of the output goes away
(``tfplancheck ... | head -1``) the program ends quietly with status 141 (128 +
SIGPIPE), as a program killed by SIGPIPE would.

Its console script is :func:`plancheck.cli.main` (standard output and error, the signal scope); :func:`run` is the
command on given streams.

>>> import io
>>> out = io.StringIO()
>>> run(["--version"], stdout=out, stderr=io.StringIO()), out.getvalue()
(0, 'tfplancheck 0.1.0\\n')
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any, Final, NoReturn, TextIO, cast

from .._errors import ArgumentError
from .._frozen import public
from .._loading.source import max_input_bytes
from .._text import exception_text
from ._io import (
    SCHEMA_VERSION,
    CliError,
    Io,
    _Guarded,
    _WriteFailed,
    add_command,
    add_coverage_parser,
    add_snapshot_arguments,
    job_count,
    path_argument,
    read_plan,
    reports_clash,
    tool_version,
)

if TYPE_CHECKING:
    from ._checksfile import CheckSpec
    from ._registry import Signature

__all__ = ["run"]

_EXAMPLES = """\
examples:
  terraform show -json plan.bin | tfplancheck - --unknown null_resource.a id \\
      --sensitive null_resource.a 'triggers["secret"]'
  tfplancheck plan.json --checks checks.toml          # or checks.json
  tfplancheck plan.bin --checks checks.toml           # runs `terraform show -json` (or tofu) for you
  tfplancheck plan.json --checks checks.toml --format json
  tfplancheck envs/*/plan.json -c checks.toml --jobs 4   # many plans in one run: the worst exit status
  tfplancheck --list-checks                           # every check and matcher, with its arguments
  tfplancheck plan.json -c checks.toml --write-baseline baseline.json   # accept today's failures
  tfplancheck plan.json -c checks.toml --baseline baseline.json         # fail only on new ones
  tfplancheck -c checks.toml --list-waivers           # every waiver, its reason and its expiry
  tfplancheck query plan.json                         # addresses and actions
  tfplancheck query plan.json null_resource.a 'triggers["plain"]'
  tfplancheck snapshot plan.json plan.snap [--update]   # compare with (or write) a reviewable snapshot

checks file (TOML; JSON takes the same structure as {"check": [...]}):
  [[check]]
  type = "ExpectKnownValue"
  address = "null_resource.a"
  path = 'triggers["greeting"]'
  matcher = { type = "StringExact", value = "hello" }
  waive = [{ address = "null_resource.legacy*", reason = "why, and who accepts it", until = 2027-01-31 }]

exit status: 0 all checks passed, 1 a check failed (a warning only with --fail-on warning), 2 usage error,
  bad or too large plan or checks file, or output that cannot be written
"""


def _wants_json(argv: Sequence[str]) -> bool:
    # Known before parsing, so a usage error can be reported in JSON too.
    return "--format=json" in argv or any(a == "--format" and b == "json" for a, b in itertools.pairwise(argv))


class _UsageError(Exception):
    def __init__(self, message: str, usage: str) -> None:
        super().__init__(message)
        self.message = message
        self.usage = usage


class _Parser(argparse.ArgumentParser):
    # The streams --help is printed to: the run's own, not sys.stdout (so a write failure is reported).
    streams: Io | None = None
    # The whole command line being parsed: a command name counts only as its first argument.
    argv: Sequence[str] = ()

    def error(self, message: str) -> NoReturn:
        raise _UsageError(message, self.format_usage().rstrip())

    def print_help(self, file: Any = None) -> None:
        if self.streams is None or file is not None:
            super().print_help(file)
        else:
            self.streams.stdout.write(self.format_help())

    def _print_message(self, message: str, file: Any = None) -> None:
        if self.streams is None or file is not None:
            super()._print_message(message, file)
        elif message:
            self.streams.stderr.write(message)


_BYTE_COUNT = re.compile(r"^([0-9]{1,18})([KMG]i?B?|B)?\Z", re.IGNORECASE)


def _byte_count(text: str) -> int:
    """A --max-bytes value: a positive number of bytes, optionally with K, M or G (powers of 1024).

    >>> _byte_count("4096"), _byte_count("500M"), _byte_count("1GiB")
    (4096, 524288000, 1073741824)
    """
    match = _BYTE_COUNT.match(text.strip())
    if match is None or int(match.group(1)) == 0:
        raise argparse.ArgumentTypeError(
            f"invalid byte count {text!r} (a positive number of bytes, optionally with K, M or G)"
        )
    unit = (match.group(2) or "B")[0].upper()
    return int(match.group(1)) * {"B": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[unit]


#: What --format and --report take (plancheck.cli._output.FORMATS, which a test holds this to): spelled out here
#: so that parsing the command line imports no writer.
_FORMATS: Final = ("text", "json", "junit", "sarif", "github", "markdown")


def _report_argument(text: str) -> tuple[str, str]:
    """A --report value: ``FORMAT=FILE``.

    >>> _report_argument("junit=out/junit.xml")
    ('junit', 'out/junit.xml')
    >>> _report_argument("xml=out.xml")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: unknown report format 'xml' in 'xml=out.xml' (expected FORMAT=FILE, FORMAT one of text, json, junit, sarif, github, markdown)
    """
    fmt, equals, filename = text.partition("=")
    if not equals:
        raise argparse.ArgumentTypeError(f"expected FORMAT=FILE, found {text!r} (FORMAT one of {', '.join(_FORMATS)})")
    if fmt not in _FORMATS:
        raise argparse.ArgumentTypeError(
            f"unknown report format {fmt!r} in {text!r} (expected FORMAT=FILE, FORMAT one of {', '.join(_FORMATS)})"
        )
    if filename == "-":
        raise argparse.ArgumentTypeError(f"{text!r}: a report is written to a file; --format sets standard output's format")
    return fmt, path_argument(filename)


class _FlagCheck(argparse.Action):
    """Collects flag checks in command-line order."""

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option_string: str | None = None
    ) -> None:
        collected = list(getattr(namespace, "flag_checks", None) or [])
        collected.append((option_string or self.dest, list(values) if isinstance(values, list) else []))
        namespace.flag_checks = collected


if TYPE_CHECKING:
    _SubParsers = argparse._SubParsersAction[_Parser]
else:
    _SubParsers = argparse._SubParsersAction


class _Commands(_SubParsers):
    """The subcommands (``query``): one runs when the command line's first argument names it.

    Its arguments are parsed (intermixed) by its own parser into ``namespace.args``. Any other first
    positional is a plan: ``namespace.command`` stays None, and the whole command line is the main
    parser's, as it always has been (``tfplancheck PLAN ...``, options before or after the plan).
    """

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option_string: str | None = None
    ) -> None:
        command = self._name_parser_map.get(values[0])
        if command is not None and isinstance(parser, _Parser) and len(values) == len(parser.argv):
            namespace.command = values[0]
            namespace.args = command.parse_intermixed_args(values[1:])


def _main_parser(streams: Io | None = None) -> _Parser:
    parser = _Parser(
        prog="tfplancheck",
        description="Run plan checks against a Terraform/OpenTofu plan (JSON, or a binary plan file). "
        "See also: tfplancheck query --help, tfplancheck snapshot --help, tfplancheck mock-plan --help, "
        "tfplancheck providers --help, tfplancheck coverage --help, tfplancheck destroy-leftovers --help.",
        epilog=_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("plan", nargs="*", type=path_argument,
                        help="plan JSON file, a binary plan file, or - for stdin; several are checked in one run")
    parser.add_argument(
        "-c", "--checks", action="append", default=[], metavar="FILE", type=path_argument,
        help="checks file (.toml or .json); repeatable",
    )
    group = parser.add_argument_group("checks on the command line (repeatable)")
    group.add_argument("--unknown", nargs=2, metavar=("ADDRESS", "PATH"), action=_FlagCheck, dest="flag_checks",
                       help="ExpectUnknownValue: the value at PATH is unknown until apply")
    group.add_argument("--sensitive", nargs=2, metavar=("ADDRESS", "PATH"), action=_FlagCheck, dest="flag_checks",
                       help="ExpectSensitiveValue: the value at PATH is marked sensitive")
    group.add_argument("--action", nargs=2, metavar=("ADDRESS", "ACTION"), action=_FlagCheck, dest="flag_checks",
                       help="ExpectResourceAction: e.g. create, update, destroy, replace, noop")
    for flag, text in (("--empty", "ExpectEmptyPlan"), ("--non-empty", "ExpectNonEmptyPlan"),
                       ("--no-deferred", "ExpectNoDeferredChanges")):
        group.add_argument(flag, nargs=0, action=_FlagCheck, dest="flag_checks", help=text)
    out = parser.add_argument_group("output")
    out.add_argument("--format", choices=_FORMATS, default="text",
                     help="standard output's format: text (default), json, junit (XML), sarif (2.1.0), github "
                     "(workflow commands), markdown (a summary for $GITHUB_STEP_SUMMARY or a merge-request comment)")
    out.add_argument("--report", action="append", default=[], metavar="FORMAT=FILE", type=_report_argument,
                     help="also write the results in FORMAT to FILE (its directory made if missing); repeatable")
    out.add_argument("-q", "--quiet", action="store_true", help="print only failures (nothing when all pass)")
    out.add_argument("--color", "--colour", choices=("auto", "always", "never"), default="auto",
                     help="colour the text output (auto: only on a terminal, and never when NO_COLOR is set)")
    out.add_argument("--fail-on", choices=("error", "warning"), default="error",
                     help="what fails the run (exit status 1): error (default) a failing check of error severity; "
                     "warning also any warning (a check of severity = \"warning\" that fails, an unknown = \"warn\" "
                     "verdict)")
    accepted = parser.add_argument_group("waivers and baselines (failures accepted, and said so)")
    accepted.add_argument("--baseline", metavar="FILE", type=path_argument,
                          help="fail only on failures not recorded in FILE (written by --write-baseline); report the "
                          "known ones, and the entries that no longer fail")
    accepted.add_argument("--write-baseline", metavar="FILE", type=path_argument,
                          help="record the run's failures (check, address, path; no message, no secret) in FILE")
    accepted.add_argument("--list-waivers", action="store_true",
                          help="list the waivers of the checks files with their expiry (today: $TFPLANCHECK_TODAY, "
                          "else the UTC date), then exit")
    _add_plan_reading(parser, terraform_help="terraform/tofu binary for binary plans (default: $TF_ACC_TERRAFORM_PATH, "
                      "terraform, tofu)")
    parser.add_argument("-j", "--jobs", metavar="N", type=job_count,
                        help="check several plans in N worker processes (default: the CPU count; 1: one after the "
                        "other, in this process)")
    parser.add_argument("--list-checks", action="store_true", help="list every plan check and matcher, then exit")
    parser.add_argument("--version", action="store_true", help="print the version, then exit")
    parser.set_defaults(flag_checks=[])
    parser.streams = streams
    return parser


def _command_parser(streams: Io | None = None) -> _Parser:
    """The subcommands; a command line whose first argument names none is the main parser's."""
    parser = _Parser(prog="tfplancheck", add_help=False)
    parser.set_defaults(command=None)
    commands = parser.add_subparsers(action=_Commands, dest="command")
    from ._query import QUERY_HELP

    query = add_command(
        commands,
        "query",
        "Show a plan's addresses, or the planned value at ADDRESS [PATH] with its known/unknown/"
        "sensitive status (sensitive values redacted).",
        QUERY_HELP,
        streams,
    )
    _add_query_arguments(query)
    parser.streams = streams
    from ._mock_plan import add_mock_plan_parser

    add_mock_plan_parser(commands, streams)
    add_destroy_leftovers_parser(commands, streams)
    add_snapshot_parser(commands, streams)
    from ._providers import add_providers_parser

    add_providers_parser(commands, streams)
    add_coverage_parser(commands, streams)
    return parser


def _add_query_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("plan", type=path_argument, help="plan JSON file, a binary plan file, or - for stdin")
    parser.add_argument("address", nargs="?", help="resource address, or output.NAME")
    parser.add_argument("path", nargs="?", default="", help="path in the escaped text form, e.g. 'triggers[\"k\"]'")
    parser.add_argument("--before", action="store_true", help="the value before the change instead of after")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    _add_plan_reading(parser)


def _add_plan_reading(
    parser: argparse.ArgumentParser,
    *,
    terraform_help: str = "terraform/tofu binary for binary plans",
    max_bytes_help: str = "refuse a plan (or a checks file) larger than N bytes; K, M, G suffixes "
    "(default: $PLANCHECK_MAX_BYTES, else 2G)",
) -> None:
    """The options of every command that reads a plan: how a binary plan is shown, how large a file may be,
    whether an errored plan is read."""
    parser.add_argument("--terraform", metavar="PATH", type=path_argument, help=terraform_help)
    parser.add_argument("--chdir", metavar="DIR", type=path_argument,
                        help="where terraform show reads a binary plan's providers: the directory of the configuration "
                        "that made it (default: the plan file's directory; stdin: the current one)")
    parser.add_argument("--max-bytes", type=_byte_count, metavar="N", help=max_bytes_help)
    parser.add_argument(
        "--allow-errored", action="store_true",
        help='read a plan Terraform wrote although planning failed ("errored": true; refused by default): '
        "it is partial, and the output says so",
    )


def _catalogue_lines(signatures: Sequence[Signature]) -> list[str]:
    lines = []
    for sig in signatures:
        lines.append(f"  {sig.describe()}" + ("" if sig.supported else "  [not available in checks files]"))
        if sig.doc:
            lines.append(f"      {sig.doc}")
    return lines


def _list_checks(io: Io, json_mode: bool) -> int:
    from ._registry import default_registry

    registry = default_registry()
    checks = [registry.check(n) for n in registry.check_names()]
    matchers = [registry.matcher(n) for n in registry.matcher_names()]
    if json_mode:

        def entry(sig: Signature) -> dict[str, Any]:
            return {
                "name": sig.name,
                "doc": sig.doc,
                "supported": sig.supported,
                "arguments": [
                    {"name": p.name, "kind": p.kind.describe(), "required": p.required, "list": p.variadic}
                    for p in sig.params
                ],
            }

        doc = {"schema_version": SCHEMA_VERSION, "kind": "catalogue", "ok": True, "checks": [entry(s) for s in checks],
               "matchers": [entry(s) for s in matchers]}
        io.out(io.rendered(doc))
        return 0
    lines = ['Plan checks ([[check]] type = "NAME", then the arguments by name; address/path/matcher always work):']
    lines.extend(_catalogue_lines(checks))
    lines.append("")
    lines.append('Matchers (matcher = { type = "NAME", ... }; nest them for collections):')
    lines.extend(_catalogue_lines(matchers))
    if not checks:
        lines.insert(1, "  (none installed)")
    lines.append("")
    lines.append("Paths use the escaped text form: id, triggers[\"k\"], list_attr[0][\"key\"].")
    lines.append('Selectors: an address glob ("aws_s3_bucket.*") or a table of type, module, address, mode, provider,')
    lines.append('action, allow_empty ({ type = "aws_s3_bucket", module = "module.net.*" }); except_ may be written except.')
    io.out("\n".join(lines))
    return 0


def _flag_check(flag: str, number: int, values: Sequence[str]) -> CheckSpec:
    """The check of the ``number``-th ``flag`` on the command line (``_checksfile.FLAG_CHECKS``), given its ``values``.

    Built directly, without a registry; a bad value is a ``ChecksFileError`` located at the flag and key.

    >>> spec = _flag_check("--unknown", 1, ["null_resource.a", 'triggers["k"]'])
    >>> spec.origin, spec.type, spec.address, spec.path.to_text()
    ('--unknown #1', 'ExpectUnknownValue', 'null_resource.a', 'triggers["k"]')
    >>> _flag_check("--action", 2, ["null_resource.a", "explode"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    plancheck.cli._checksfile.ChecksFileError: command line: --action #2 action: expected one of NoOp, ..., found "explode"
    """
    from ._checksfile import FLAG_CHECKS, ChecksFileError, CheckSpec, _Invalid, _rejected

    cls, arguments = FLAG_CHECKS[flag]
    where = f"{flag} #{number}"
    given: dict[str, Any] = {}
    for (key, convert_value), value in zip(arguments, values, strict=True):
        try:
            given[key] = value if convert_value is None else convert_value(value, key)
        except _Invalid as exc:
            raise ChecksFileError("command line", f"{where} {exc.where}", exc.message) from None
    try:
        check = cls(*given.values())
    except Exception as exc:  # as a checks file's entry: what the constructor rejects is the user's value
        raise ChecksFileError("command line", where, _rejected(cls.__name__, exc)) from None
    return CheckSpec(cls.__name__, check, where, given.get("address"), given.get("path"))


def _load_specs(args: argparse.Namespace, max_bytes: int) -> list[Any]:
    """The checks of the checks files and the flags, in order; a ``ChecksFileError`` for a bad one."""
    from ._checksfile import load_checks_file
    from ._registry import default_registry

    specs = []
    for filename in args.checks:
        specs.extend(load_checks_file(filename, default_registry(), max_bytes=max_bytes))
    counts: dict[str, int] = {}
    for flag, values in args.flag_checks:
        counts[flag] = counts.get(flag, 0) + 1
        specs.append(_flag_check(flag, counts[flag], values))
    return specs


def _list_waivers(args: argparse.Namespace, io: Io) -> int:
    """``--list-waivers``: every waiver of the checks files, in file order, with its expiry as of today (:func:`today`)."""
    from ._checksfile import ChecksFileError
    from ._waivers import baseline_key, render_waivers, today, waivers_document

    json_mode = args.format == "json"
    try:
        on = today(io.environ)
        # Whether a waiver naming an instance by its secret key can waive it: what a run with these waivers decides.
        keyed = baseline_key(io.environ) is not None
    except ValueError as exc:
        return io.fail("usage", str(exc), json_mode)
    if not args.checks:
        return io.fail("usage", "--list-waivers needs the checks files: --checks FILE", json_mode)
    try:
        max_bytes = max_input_bytes(args.max_bytes, environ=io.environ)
    except ValueError as exc:  # PLANCHECK_MAX_BYTES (--max-bytes was checked when it was parsed)
        return io.fail("usage", str(exc), json_mode)
    try:
        specs = _load_specs(args, max_bytes)
    except ChecksFileError as exc:
        return io.fail("checks", str(exc), json_mode)
    doc = waivers_document(specs, on, tool_version(), keyed)
    io.out(io.rendered(doc) if json_mode else render_waivers(doc))
    return 0


def _run_checks(args: argparse.Namespace, io: Io) -> int:
    from ._checksfile import ChecksFileError, run_checks
    from ._many import check_many, named_twice
    from ._output import fail_everywhere, report
    from ._runs import PlanRun
    from ._waivers import BaselineEntry, BaselineError, baseline_key, judge_by_baseline, read_baseline, today

    json_mode = args.format == "json"
    clash = reports_clash(args.report, [*args.plan, *args.checks, args.baseline], {"--write-baseline": args.write_baseline},
                          updated=args.baseline)
    if clash is not None:
        return io.fail("usage", clash, json_mode)
    plans: list[str] = args.plan

    def fail(kind: str, message: str) -> int:
        return fail_everywhere(args, io, kind, message)

    if args.list_waivers:
        return _list_waivers(args, io)
    if not plans:
        return fail("usage", "no plan given (a JSON plan, a binary plan file, or - for stdin); see --help")
    if len(plans) > 1 and (twice := named_twice(plans)) is not None:
        return fail("usage", twice)
    if not args.checks and not args.flag_checks:
        return fail("usage", "no checks given: use --checks FILE or flags such as --unknown ADDRESS PATH; see --help")
    try:
        max_bytes = max_input_bytes(args.max_bytes, environ=io.environ)
    except ValueError as exc:  # PLANCHECK_MAX_BYTES (--max-bytes was checked when it was parsed)
        return fail("usage", str(exc))
    try:
        specs = _load_specs(args, max_bytes)
    except ChecksFileError as exc:
        return fail("checks", str(exc))
    if not specs:
        return fail("checks", f"{', '.join(args.checks)}: the checks file has no checks")
    try:
        on = today(io.environ)
        # A baseline entry and a waiver name an instance keyed by a secret by its fingerprint under the key.
        keyed = args.baseline is not None or args.write_baseline is not None or any(spec.waivers for spec in specs)
        key = baseline_key(io.environ) if keyed else None
    except ValueError as exc:
        return fail("usage", str(exc))
    try:
        # A bad baseline is told before the plan is read (which may run terraform).
        baseline = read_baseline(args.baseline, max_bytes) if args.baseline is not None else None
        if len(plans) > 1:
            return report(args, io, check_many(plans, args, io, specs, baseline, on, max_bytes, key))
        plan = read_plan(plans[0], terraform=args.terraform, stdin=io.stdin, environ=io.environ, max_bytes=max_bytes,
                         allow_errored=args.allow_errored, chdir=args.chdir)
        results = run_checks(specs, plan, today=on, key=key)
        fixed: list[BaselineEntry] = []
        file = None
        if baseline is not None or args.write_baseline is not None:  # judged by the baseline read, or written
            results, fixed, file = judge_by_baseline(results, plan.secrets, baseline, args.write_baseline, plans[0],
                                                     key)
    except CliError as exc:
        return fail(exc.kind, exc.message)
    except BaselineError as exc:
        return fail("baseline", str(exc))
    runs = [PlanRun(plan, tuple(results), waived=sum(len(r.waived) for r in results), fixed=tuple(fixed), baseline=file)]
    return report(args, io, runs)


def _lookup(args: argparse.Namespace, io: Io) -> int:
    from tfjsonpath import Path, PathSyntaxError

    from ._query import (
        LABELS,
        list_document,
        render_list,
        render_value_document,
        shown_with_notes,
        value_document,
    )

    json_mode = args.format == "json"
    try:
        path = Path.parse(args.path) if args.path else Path()
    except PathSyntaxError as exc:
        return io.fail("usage", str(exc), json_mode)
    try:
        max_bytes = max_input_bytes(args.max_bytes, environ=io.environ)
    except ValueError as exc:  # PLANCHECK_MAX_BYTES (--max-bytes was checked when it was parsed)
        return io.fail("usage", str(exc), json_mode)
    try:
        plan = read_plan(args.plan, terraform=args.terraform, stdin=io.stdin, environ=io.environ, max_bytes=max_bytes,
                         allow_errored=args.allow_errored, chdir=args.chdir)
        if args.address is None:
            doc = list_document(plan)
            io.out(io.rendered(doc) if json_mode else plan.secrets.scrub(shown_with_notes(render_list(doc), plan)))
            return 0
        doc = value_document(plan, args.address, path, args.before)
    except CliError as exc:
        return io.fail(exc.kind, exc.message, json_mode)
    io.heard(plan.secrets.trusting(LABELS))  # the stream's scrub keeps the command's own labels whole
    io.out(io.rendered(doc) if json_mode else shown_with_notes(render_value_document(doc), plan))
    return 0


# -- snapshot: a plan held to its snapshot file, for CI ---------------------------------------------

SNAPSHOT_HELP: Final = """\
examples:
  tfplancheck snapshot plan.json plan.snap --update           # write (or rewrite) the snapshot
  tfplancheck snapshot plan.json plan.snap                    # compare: exit 1 and the differences if any
  tfplancheck snapshot plan.bin plan.snap --ignore 'tags["created"]' \\
      --ignore type=random_id --ignore 'type=aws_instance,path=ami'

--ignore takes a path (left out of every resource), a selector FIELD=VALUE[,FIELD=VALUE...] (fields
type, module, address, mode, provider, action; those resources are left out whole), or a selector
ending in ,path=PATH (that path left out of those resources).

With TFPLANCHECK_SNAPSHOT_KEY set (a CI secret of 16 bytes or more), sensitive values are written as
keyed fingerprints, so a changed secret shows; without it, a secret's change is invisible in the file.

exit status: 0 the plan matches (or --update wrote the snapshot), 1 it differs, 2 bad input (plan,
  snapshot file, no snapshot yet, --ignore, TFPLANCHECK_SNAPSHOT_KEY)
"""


def add_snapshot_parser(commands: Any, streams: object) -> None:
    """Register ``snapshot`` on the subcommand parsers of the command line."""
    parser = add_command(
        commands,
        "snapshot",
        "Compare a plan with its snapshot file (a reviewable text of the plan that holds no secret), "
        "or write it with --update.",
        SNAPSHOT_HELP,
        streams,
    )
    parser.add_argument("plan", metavar="PLAN", type=path_argument, help="plan JSON file, a binary plan file, or - for stdin")
    add_snapshot_arguments(parser, file_option=False)
    _add_plan_reading(parser, max_bytes_help="refuse a plan or snapshot larger than N bytes; K, M, G suffixes "
                      "(default: $PLANCHECK_MAX_BYTES, else 2G)")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or json")


def run_snapshot(args: argparse.Namespace, io: Io, max_bytes: int) -> int:
    """Run ``tfplancheck snapshot``; return the exit status (errors in one line, never a traceback)."""
    from ..snapshot import SnapshotFormatError
    from ._io import (
        SnapshotUsageError,
        compare_snapshot,
        snapshot_document,
        snapshot_ignore,
    )
    from ._query import shown_with_notes

    json_mode = args.format == "json"

    try:
        snapshot_ignore(args.ignore)  # a bad --ignore is told before the plan is read
        plan = read_plan(args.plan, terraform=args.terraform, stdin=io.stdin, environ=io.environ, max_bytes=max_bytes,
                         allow_errored=args.allow_errored, chdir=args.chdir)
        status, lines = compare_snapshot(plan, args.file, update=args.update, ignore=args.ignore, io=io,
                                         max_bytes=max_bytes)
    except SnapshotUsageError as exc:
        return io.fail("usage", str(exc), json_mode)
    except CliError as exc:
        return io.fail(exc.kind, exc.message, json_mode)
    except SnapshotFormatError as exc:
        return io.fail("snapshot", str(exc), json_mode)
    if json_mode:
        doc = {"schema_version": SCHEMA_VERSION, "kind": "snapshot", "tool_version": tool_version(),
               "ok": status == 0, "snapshot": snapshot_document(args.file, status, lines),
               # What it stands on, as query's addresses document says it (a partial plan: --allow-errored).
               "partial": plan.partial}
        io.out(io.rendered(doc))
    else:
        io.out(shown_with_notes("\n".join(lines), plan))
    return status


# -- destroy-leftovers: what acceptance cases whose destroy failed left behind ----------------------

_LEFTOVERS_HELP = """\
A case whose destroy fails keeps its state and configuration in a leftover directory
(default .tfplancheck/leftovers, or $TFPLANCHECK_LEFTOVERS_DIR). This runs terraform init and
destroy in each, and removes those destroyed. Leftovers that need a provider under test served
in-process are destroyed by `pytest --tf-destroy-leftovers` (which imports the tests' modules).

exit status: 0 nothing is left, 1 some leftover could not be destroyed, 2 bad usage or an unreadable
leftover record (leftover.json; such a leftover is never destroyed nor removed)
"""


def add_destroy_leftovers_parser(commands: Any, streams: object) -> None:
    """Register ``destroy-leftovers`` on the subcommand parsers of the command line."""
    parser = add_command(
        commands, "destroy-leftovers", "Destroy the leftovers of acceptance cases whose destroy failed.",
        _LEFTOVERS_HELP, streams,
    )
    parser.add_argument("directory", metavar="DIR", nargs="?", default=None, type=path_argument,
                        help="the leftovers directory (default: $TFPLANCHECK_LEFTOVERS_DIR, else .tfplancheck/leftovers)")
    parser.add_argument("--terraform", metavar="PATH", type=path_argument,
                        help="terraform binary (default: the one that made each leftover, else as the runner finds one)")


def destroy_leftovers_command(args: argparse.Namespace, io: Any) -> int:
    """Run ``destroy-leftovers``; 0 when nothing is left."""
    import os

    from ..acceptance import TerraformNotFoundError, destroy_leftovers

    if args.directory is not None and os.path.exists(args.directory) and not os.path.isdir(args.directory):
        return int(io.fail("usage", f"{args.directory} is not a directory (DIR is where the leftovers are kept)", False))
    try:
        result = destroy_leftovers(args.directory, terraform=args.terraform, log=io.out)
    except TerraformNotFoundError as exc:
        return int(io.fail("terraform", str(exc), False))
    if result.unreadable:
        # Named again on stderr (the log went to stdout): a record nobody can read needs a person.
        for message in result.unreadable.values():
            io.fail("leftover", message, False)
        return 2
    if not result.destroyed and not result.kept:
        io.out("tfplancheck: no leftovers")
    return 0 if result.ok else 1


def _exit_code(exc: SystemExit) -> int:
    return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)


@public("plancheck.cli")
def run(
    argv: Sequence[str],
    *,
    stdout: TextIO,
    stderr: TextIO,
    stdin: IO[bytes] | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    """Run the command line with explicit streams and environment; return the exit status.

    Output that cannot be written is reported on ``stderr`` (when that can be written) with
    status 2; a ``BrokenPipeError`` is left to the caller (:func:`plancheck.cli.main` ends quietly).

    >>> import io
    >>> out, err = io.StringIO(), io.StringIO()
    >>> run(["plan.json"], stdout=out, stderr=err, environ={})
    2
    >>> print(err.getvalue().strip())
    tfplancheck: error: no checks given: use --checks FILE or flags such as --unknown ADDRESS PATH; see --help
    """
    from .._documents.met import listening

    # main's streams are guarded already (it reports their failures itself).
    guarded = [stream if isinstance(stream, _Guarded) else _Guarded(stream, name)
               for stream, name in ((stdout, "standard output"), (stderr, "standard error"))]
    io = Io(cast(TextIO, guarded[0]), cast(TextIO, guarded[1]), stdin, os.environ if environ is None else environ)
    for stream in guarded:
        stream.scrub = io.scrub
    # A caller's mistake, told as one: a str would be read as its characters, an item that is no str would fail
    # inside argparse (the boundary would call it a bug of ours).
    if isinstance(argv, (str, bytes)) or not isinstance(argv, Iterable):
        raise ArgumentError(f"run() argv must be a list of str (the arguments after tfplancheck), got {type(argv).__name__}")
    arguments = list(argv)
    for index, item in enumerate(arguments):
        if not isinstance(item, str):
            raise ArgumentError(f"run() argv[{index}] must be a str, got {type(item).__name__}")
    # Every plan the command reads, and every secret a snapshot file shows in clear, is heard by the scrub.
    with listening(io.heard):
        try:
            return _dispatch(arguments, io)
        except _WriteFailed as exc:
            # When stderr failed too (or is the stream that failed), the status is all that is left.
            with contextlib.suppress(_WriteFailed):
                io.stderr.write(f"tfplancheck: error: {exc}\n")
            return 2
        except (KeyboardInterrupt, BrokenPipeError):
            raise  # main's: 130, and quiet at a closed pipe
        except (Exception, SystemExit) as exc:
            # The boundary: whatever a command did not foresee is one line and status 2, never a traceback.
            with contextlib.suppress(_WriteFailed):
                return io.fail("internal", _unexpected(arguments, exc, io.scrubbed), _wants_json(arguments))
            return 2


def _unexpected(argv: Sequence[str], exc: BaseException, scrubbed: Callable[[str], str | None]) -> str:
    """The one line naming the command and what it raised, ``scrubbed`` of every secret the command heard.

    ``scrubbed`` is :meth:`Io.scrubbed`: None when the secrets cannot be listed, and the text is withheld.

    >>> _unexpected(["query", "plan.json"], ZeroDivisionError("division by zero"), lambda text: text)
    'query: unexpected error: ZeroDivisionError: division by zero (a bug: please report it)'
    >>> _unexpected(["query", "plan.json"], ValueError("near hunter2"), lambda text: None)
    'query: unexpected error: ValueError (its message is withheld: the secrets it may show could not be listed) (a bug: please report it)'
    """
    command = argv[0] if argv and argv[0] in _COMMANDS else "tfplancheck"
    text = " ".join(exception_text(exc).split())  # one line, whatever the exception's text holds
    # These meet secrets no plan read lists (a leftover's state, --var values, a mock's sensitive values).
    shown = None if command in _SECRETS_BEYOND_PLANS else scrubbed(text)
    if shown is None:
        shown = f"{type(exc).__name__} (its message is withheld: the secrets it may show could not be listed)"
    return f"{command}: unexpected error: {shown} (a bug: please report it)"


#: The subcommands whose secrets are not all in the plans they read: an unexpected error's text is withheld.
_SECRETS_BEYOND_PLANS: Final = frozenset({"mock-plan", "destroy-leftovers"})


#: The subcommands :func:`_command_parser` makes (a test holds the two to each other): a command line whose
#: first argument is none of them is the main parser's, so checking a plan makes none of their parsers.
_COMMANDS: Final = frozenset({"query", "mock-plan", "destroy-leftovers", "snapshot", "providers", "coverage"})


def _dispatch(argv: list[str], io: Io) -> int:
    command = None
    try:
        if argv and argv[0] in _COMMANDS:
            commands = _command_parser(io)
            commands.argv = argv
            chosen, _ = commands.parse_known_args(argv)
            command = chosen.command
        args = chosen.args if command else _main_parser(io).parse_intermixed_args(argv)
    except _UsageError as exc:
        return io.fail("usage", exc.message, _wants_json(argv), exc.usage)
    except SystemExit as exc:  # --help, printed
        return _exit_code(exc)
    if command == "query":
        return _lookup(args, io)
    if command == "mock-plan":
        from ._mock_plan import mock_plan

        return mock_plan(args, io, tool_version)
    if command == "destroy-leftovers":
        return destroy_leftovers_command(args, io)
    if command in ("providers", "coverage"):
        return int(args.handler(args, io))
    if command == "snapshot":
        try:
            max_bytes = max_input_bytes(args.max_bytes, environ=io.environ)
        except ValueError as exc:  # PLANCHECK_MAX_BYTES (--max-bytes was checked when it was parsed)
            return io.fail("usage", str(exc), args.format == "json")
        return run_snapshot(args, io, max_bytes)
    if args.version:
        if args.format == "json":
            io.out(io.rendered({"schema_version": SCHEMA_VERSION, "kind": "version", "tool_version": tool_version(),
                                "ok": True}))
        else:
            io.out(f"tfplancheck {tool_version()}")
        return 0
    if args.list_checks:
        return _list_checks(io, args.format == "json")
    return _run_checks(args, io)
