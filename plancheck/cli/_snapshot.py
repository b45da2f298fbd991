"""``tfplancheck snapshot PLAN FILE [--update]``: hold a plan to its snapshot file, for CI.

Exit status: 0 the plan matches the snapshot (or ``--update`` wrote it), 1 it differs (the
differences are printed, one review comment a line), 2 bad input: an unreadable plan, a file
that is not a snapshot (named with its line), no snapshot yet (without ``--update``), a bad
``--ignore`` or ``TFPLANCHECK_SNAPSHOT_KEY``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from ._io import add_allow_errored, path_argument

if TYPE_CHECKING:
    from .._documents.plan import Plan
    from ._io import Io

__all__ = [
    "SNAPSHOT_HELP",
    "add_snapshot_arguments",
    "add_snapshot_parser",
    "compare_snapshot",
    "run_snapshot",
    "snapshot_document",
]

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


class SnapshotUsageError(Exception):
    """A bad ``--ignore`` or key: reported in one line, exit status 2."""


def add_snapshot_arguments(parser: argparse.ArgumentParser, *, file_option: bool) -> None:
    """``FILE``/``--snapshot FILE``, ``--update`` and ``--ignore`` (shared by ``snapshot`` and ``mock-plan``)."""
    if file_option:
        parser.add_argument("--snapshot", metavar="FILE", type=path_argument, help="compare the plan with this snapshot file "
                            "(exit 1 when it differs)")
    else:
        parser.add_argument("file", metavar="FILE", type=path_argument, help="the snapshot file")
    parser.add_argument("--update", action="store_true", help="write the snapshot file when it is missing or differs")
    parser.add_argument("--ignore", action="append", default=[], metavar="PATH_OR_SELECTOR",
                        help="leave a path or resources out of the snapshot; repeatable (see the examples)")


def add_snapshot_parser(commands: Any, streams: object, byte_count: Callable[[str], int]) -> None:
    """Register ``snapshot`` on the subcommand parsers of the command line (``byte_count`` reads ``--max-bytes``)."""
    parser = commands.add_parser(
        "snapshot",
        prog="tfplancheck snapshot",
        description="Compare a plan with its snapshot file (a reviewable text of the plan that holds no secret), "
        "or write it with --update.",
        epilog=SNAPSHOT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("plan", metavar="PLAN", type=path_argument, help="plan JSON file, a binary plan file, or - for stdin")
    add_snapshot_arguments(parser, file_option=False)
    parser.add_argument("--terraform", metavar="PATH", type=path_argument, help="terraform/tofu binary for binary plans")
    parser.add_argument(
        "--max-bytes", metavar="N", type=byte_count,
        help="refuse a plan or snapshot larger than N bytes; K, M, G suffixes (default: $PLANCHECK_MAX_BYTES, else 2G)",
    )
    add_allow_errored(parser)
    parser.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or json")
    parser.streams = streams


def _ignore(specs: Sequence[str]) -> list[Any]:
    from ..snapshot import parse_ignore_spec

    entries = []
    for spec in specs:
        try:
            entries.append(parse_ignore_spec(spec))
        except ValueError as exc:
            raise SnapshotUsageError(f"--ignore {exc}") from None
    return entries


def compare_snapshot(plan: Plan, file: str, *, update: bool, ignore: Sequence[str], io: Io,
                     max_bytes: int | None = None) -> tuple[int, list[str]]:
    """Compare (or write) the snapshot of ``plan`` in ``file``: (exit status, lines to print).

    The lines end with one naming what happened (see :func:`snapshot_document`).

    Raises :class:`SnapshotUsageError` for a bad ``--ignore`` or key, and
    :class:`plancheck.snapshot.SnapshotFormatError` for a file that is no snapshot.
    """
    from ..snapshot import IgnoreSpec, build, check_file, resolve_key

    entries = _ignore(ignore)
    try:
        key = resolve_key(None, io.environ)
    except ValueError as exc:
        raise SnapshotUsageError(str(exc)) from None
    text = build(plan, IgnoreSpec(entries, "--ignore"), key)
    outcome = check_file(text, plan.secrets, file, update=update, max_bytes=max_bytes)
    count = len(outcome.lines)
    differences = f"{count} difference{'' if count == 1 else 's'}"
    if outcome.status == "same":
        return 0, [f"{file}: the plan matches its snapshot"]
    if outcome.status == "written":
        return 0, [f"{file}: wrote the snapshot"]
    if outcome.status == "updated":
        return 0, [*outcome.lines, f"{file}: updated the snapshot ({differences})"]
    if outcome.status == "missing":
        raise SnapshotUsageError(f"{file}: no snapshot yet: write it with --update")
    return 1, [*outcome.lines, f"{file}: the plan differs from its snapshot ({differences}; accept them with --update)"]


def snapshot_document(file: str, status: int, lines: Sequence[str]) -> dict[str, Any]:
    """The ``snapshot`` outcome of :func:`compare_snapshot` for the JSON output: file, status word, ok, lines.

    >>> snapshot_document("p.snap", 0, ["p.snap: wrote the snapshot"])["status"]
    'written'
    >>> snapshot_document("p.snap", 1, ["a: 1 -> 2", "p.snap: the plan differs from its snapshot (1 difference)"])["ok"]
    False
    """
    last = lines[-1] if lines else ""
    word = ("differs" if status else "written" if last.endswith(": wrote the snapshot")
            else "updated" if ": updated the snapshot (" in last else "same")
    return {"file": file, "status": word, "ok": status == 0, "lines": list(lines)}


def run_snapshot(args: argparse.Namespace, io: Io, max_bytes: int) -> int:
    """Run ``tfplancheck snapshot``; return the exit status (errors in one line, never a traceback)."""
    from ..snapshot import SnapshotFormatError
    from ._io import tool_version
    from ._lookup import shown_with_notes
    from ._output import SCHEMA_VERSION, render_json
    from ._run import CliError, read_plan

    json_mode = args.format == "json"

    try:
        _ignore(args.ignore)  # a bad --ignore is told before the plan is read
        plan = read_plan(args.plan, terraform=args.terraform, stdin=io.stdin, environ=io.environ, max_bytes=max_bytes,
                         allow_errored=args.allow_errored)
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
        io.out(render_json(doc, plan.secrets))
    else:
        io.out(shown_with_notes("\n".join(lines), plan))
    return status
