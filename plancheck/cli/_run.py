"""Reading the plan the command line was given, and running checks against it.

A plan may be JSON (``terraform show -json`` output) or a binary plan file
(``terraform plan -out``), which is a zip archive: that is turned into JSON by
running ``terraform show -json`` (or ``tofu``) in the current directory, where the
configuration was initialised (:mod:`plancheck._terraform.planfile`, which the pytest
plugin's ``--tf-plan`` shares).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import IO

from .._checking.run import outcome_of, run_each
from .._documents.plan import Plan
from .._errors import CheckFailure, DocumentFormatError
from .._frozen import FrozenValue, frozen
from .._loading.source import InputTooLarge, max_input_bytes
from .._terraform.planfile import BinaryPlanError, plan_json
from .._text import exception_text
from ._checksfile import CheckSpec
from ._input import UnreadableInput, read_input

__all__ = ["CheckResult", "CliError", "read_plan", "run_checks"]


class CliError(Exception):
    """A user error the command line reports in one line and exits 2 for.

    >>> str(CliError("plan", "plan.json: not found"))
    'plan.json: not found'
    """

    def __init__(self, kind: str, message: str) -> None:
        self.kind = kind
        self.message = message
        super().__init__(message)


def read_plan(
    name: str,
    *,
    terraform: str | None = None,
    stdin: IO[bytes] | None = None,
    environ: Mapping[str, str] | None = None,
    max_bytes: int | None = None,
    allow_errored: bool = False,
) -> Plan:
    """Load the plan ``name`` (a path, or ``-`` for stdin), JSON or binary; raise CliError on any problem.

    A plan Terraform wrote although planning failed (``"errored": true``) is refused, naming the file,
    unless ``allow_errored`` (``--allow-errored``): the loader's one check, as for every front end.

    A plan (or the JSON ``terraform show`` makes of a binary one) longer than ``max_bytes`` (default:
    the loader's, ``PLANCHECK_MAX_BYTES`` or 2 GiB) is refused after reading no more than that, so an
    endless input such as ``/dev/zero`` ends in an error, not in running out of memory. The loader
    reads the plan once (:func:`plancheck.cli._input.read_input`); its first bytes tell a binary plan
    from JSON, and the bytes are handed to :meth:`Plan.from_json`.
    """
    limit = max_input_bytes(max_bytes)
    env = os.environ if environ is None else environ
    source = "<stdin>" if name == "-" else name
    try:
        data = plan_json(name, read_input(name, "plan", limit=limit, stdin=stdin), limit=limit, terraform=terraform,
                         environ=env)
    except UnreadableInput as exc:
        raise CliError("plan", f"{source}: {exc}") from None
    except InputTooLarge:  # the JSON terraform show made of a binary plan
        raise CliError("plan", f"{source}: {UnreadableInput('plan', '', limit=limit)}") from None
    except BinaryPlanError as exc:
        # The command line's words: the file is named when no binary was found, else the binary's problem.
        raise CliError("terraform", str(exc) if exc.found is None else exc.found) from None
    if not data.strip():
        raise CliError("plan", f"{source}: the plan is empty (expected the JSON of `terraform show -json PLANFILE`)")
    try:
        plan = Plan.from_json(data, source=source, allow_errored=allow_errored)
        return plan
    except DocumentFormatError as exc:  # PlanFormatError, or any other the loader raises for a bad document
        raise CliError("plan", str(exc)) from None
    except (RecursionError, ArithmeticError, ValueError) as exc:
        # The loader types its errors; should one still escape, it is the document's fault, not a traceback.
        raise CliError("plan", f"{source}: cannot read the plan: {exception_text(exc)}") from None


@frozen
class CheckResult(FrozenValue):
    """The outcome of one check: ``pass``, ``fail`` or ``error`` (the check could not run), and its warnings.

    A warning (a whole-plan check's ``unknown="warn"``) does not fail the check; it is printed as a
    ``WARN`` line and listed in the JSON output.

    >>> CheckResult(CheckSpec("ExpectEmptyPlan", None, "check[0]"), "pass").ok
    True
    """

    spec: CheckSpec
    status: str
    failures: tuple[CheckFailure, ...] = ()
    warnings: tuple[CheckFailure, ...] = ()

    @property
    def ok(self) -> bool:
        """True when the check passed."""
        return self.status == "pass"


def run_checks(specs: Sequence[CheckSpec], plan: Plan) -> list[CheckResult]:
    """Run every check, in order, through the library's one runner (:func:`plancheck._checking.run.run_each`).

    A check that raises is an ``error`` result, never a traceback; every message is scrubbed with the
    plan's secrets. A check's warnings are collected (``outcome``), not emitted: the command line prints them.
    """
    outcomes = run_each(
        plan,
        specs,
        run=lambda spec, document: outcome_of(spec.check, document),
        label=lambda spec: (spec.type, spec.address, spec.path),
        contain=True,
        scrub=plan.secrets,
    )
    return [CheckResult(o.check, o.status, o.failures, o.warnings) for o in outcomes]
