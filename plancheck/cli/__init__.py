"""The ``tfplancheck`` command line: :func:`main` is the console script, :func:`run` the same with explicit streams.

The command is :mod:`plancheck.cli._command` (its parsers, its subcommands that are a few lines over the
library, and the boundary that turns whatever goes wrong into one line); where it reads and writes is
``_io``; the catalogue of checks and matchers ``_registry``; checks files and running them ``_checksfile``;
what it prints about a plan ``_output``; ``mock-plan`` is ``_mock_plan`` (over the engine
``plancheck/_terraform/mock/plan.py``), ``providers mirror`` ``_providers``.

>>> main(["--version"])
tfplancheck 0.1.0
0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._command import run

__all__ = ["main", "run"]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tfplancheck`` console script; returns the exit status.

    >>> main(["--version"])
    tfplancheck 0.1.0
    0
    """
    # The command's modules load here, not when the console script imports this package: a Ctrl-C while they
    # load (a few tenths of a second on a busy machine) ends the command as one while it runs does, with 130
    # and no traceback, instead of Python's traceback of an interrupted import.
    try:
        from ._command import command
    except KeyboardInterrupt:
        return 130
    return command(argv)


def __getattr__(name: str) -> object:
    if name == "run":
        from ._command import run

        return run
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
