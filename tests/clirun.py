"""The one way the tests run the ``tfplancheck`` command line in-process (``plancheck.cli.run``).

Tests that need the real process (the console script, signals, exit statuses of ``main``) start it with
``subprocess`` instead; everything else calls :func:`cli` with the differences that matter to it as keywords.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

import jsonschema

from plancheck.cli._command import run

_SCHEMA = Path(__file__).resolve().parents[1] / "plancheck" / "schemas" / "cli-output.schema.json"
OUTPUT_VALIDATOR = jsonschema.Draft202012Validator(json.loads(_SCHEMA.read_text("utf-8")))

#: A run that finds nothing of the caller's: no Terraform on PATH, no TFPLANCHECK_* setting.
HERMETIC: Mapping[str, str] = {"PATH": ""}


def automation() -> dict[str, str]:
    """The caller's environment as Terraform runs in CI, for runs that drive the real Terraform.

    Read at each call, so that a test's ``monkeypatch.setenv`` is seen.
    """
    return {**os.environ, "TF_IN_AUTOMATION": "1"}


class Ran(NamedTuple):
    """What one run gave: its exit status and everything written to each stream."""

    code: int
    out: str
    err: str

    def json(self) -> Any:
        """The standard output as the one JSON document the output schema allows."""
        doc = json.loads(self.out)
        OUTPUT_VALIDATOR.validate(doc)
        return doc


def cli(*argv: str, stdin: bytes | None = b"", environ: Mapping[str, str] = HERMETIC, cwd: Path | None = None,
        never: Iterable[str] = (), stdout: io.StringIO | None = None, stderr: io.StringIO | None = None) -> Ran:
    """Run ``tfplancheck argv`` and return what it gave; no run ever shows a traceback.

    ``stdin`` is the bytes standard input holds (``None``: no stream given, as ``main`` is); ``cwd`` the directory
    the run starts in (restored after); ``never`` strings (planted secrets) that neither stream may show;
    ``stdout``/``stderr`` streams to write to instead of fresh ones (streams that fail on write).
    """
    out = io.StringIO() if stdout is None else stdout
    err = io.StringIO() if stderr is None else stderr
    previous = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        code = run(list(argv), stdout=out, stderr=err, stdin=None if stdin is None else io.BytesIO(stdin),
                   environ=environ)
    finally:
        os.chdir(previous)
    ran = Ran(code, out.getvalue(), err.getvalue())
    for text in (*never, "Traceback"):
        assert text not in ran.out + ran.err
    return ran
