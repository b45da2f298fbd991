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

from ._command import main, run

__all__ = ["main", "run"]
