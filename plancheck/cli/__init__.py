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

import contextlib
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, TextIO, cast

if TYPE_CHECKING:
    from ._command import run

__all__ = ["main", "run"]

#: The status of a program killed by SIGPIPE, as a shell reports it (``$?`` is 141 under ``set -o pipefail``).
_BROKEN_PIPE_STATUS: Final = 128 + 13


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tfplancheck`` console script: the command (:func:`run`) on ``sys.stdout`` and
    ``sys.stderr`` inside its one signal scope and error boundary; returns the exit status.

    >>> main(["--version"])
    tfplancheck 0.1.0
    0
    """
    # The command's modules load here, not when the console script imports this package: a Ctrl-C while they
    # load (a few tenths of a second on a busy machine) ends the command as one while it runs does, with 130
    # and no traceback, instead of Python's traceback of an interrupted import.
    try:
        from .._loading.lifecycle import ending_on_signals
        from ._command import run
        from ._io import _Guarded, _WriteFailed
    except KeyboardInterrupt:
        return 130
    stdout = _Guarded(sys.stdout, "standard output")
    stderr = _Guarded(sys.stderr, "standard error")
    # One scope for the whole command: a SIGTERM or SIGHUP unwinds as a Ctrl-C does through every temporary
    # directory the command made (a binary plan's show, mock-plan's module copy, plan file and provider
    # sockets), and only then ends the process with the signal. A scope around each Terraform command alone
    # delivered it as soon as that command had ended, before anything around it was removed.
    with ending_on_signals():
        try:
            status = run(sys.argv[1:] if argv is None else argv, stdout=cast(TextIO, stdout),
                         stderr=cast(TextIO, stderr))
            # Output still buffered is written now, where a failure can be reported, not at exit.
            stdout.flush()
        except KeyboardInterrupt:
            return 130
        except BrokenPipeError:
            # The reader went away (`| head`): not an error of ours, and nothing more can reach it.
            status = _BROKEN_PIPE_STATUS
        except _WriteFailed as exc:  # the final flush
            status = 2
            with contextlib.suppress(_WriteFailed, BrokenPipeError):
                stderr.write(f"tfplancheck: error: {exc}\n")
    for stream in (stdout, stderr):
        if stream.failed:
            stream.discard()  # else Python's own flush at exit fails again, with a traceback-like report
    return status


def __getattr__(name: str) -> object:
    if name == "run":
        from ._command import run

        return run
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
