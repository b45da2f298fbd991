"""``tfplancheck destroy-leftovers [DIR]``: destroy what acceptance cases whose destroy failed left behind."""

from __future__ import annotations

import argparse
from typing import Any

from ._io import path_argument

__all__ = ["add_destroy_leftovers_parser", "destroy_leftovers_command"]

HELP = """\
A case whose destroy fails keeps its state and configuration in a leftover directory
(default .tfplancheck/leftovers, or $TFPLANCHECK_LEFTOVERS_DIR). This runs terraform init and
destroy in each, and removes those destroyed. Leftovers that need a provider under test served
in-process are destroyed by `pytest --tf-destroy-leftovers` (which imports the tests' modules).

exit status: 0 nothing is left, 1 some leftover could not be destroyed, 2 bad usage or an unreadable
leftover record (leftover.json; such a leftover is never destroyed nor removed)
"""


def add_destroy_leftovers_parser(commands: Any, streams: object) -> None:
    """Register ``destroy-leftovers`` on the subcommand parsers of the command line."""
    parser = commands.add_parser(
        "destroy-leftovers",
        prog="tfplancheck destroy-leftovers",
        description="Destroy the leftovers of acceptance cases whose destroy failed.",
        epilog=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("directory", metavar="DIR", nargs="?", default=None, type=path_argument,
                        help="the leftovers directory (default: $TFPLANCHECK_LEFTOVERS_DIR, else .tfplancheck/leftovers)")
    parser.add_argument("--terraform", metavar="PATH", type=path_argument,
                        help="terraform binary (default: the one that made each leftover, else as the runner finds one)")
    parser.streams = streams


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
