"""The ``tfplancheck`` command line: :func:`main` is the console script, :func:`run` the same with explicit streams.

The command is :mod:`plancheck.cli._command`; reading checks files, the catalogue of checks
and matchers, output rendering, ``query`` and running checks on a plan each have a module here.

>>> main(["--version"])
tfplancheck 0.1.0
0
"""

from ._command import main, run

__all__ = ["main", "run"]
