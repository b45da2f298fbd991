"""The diagnostics of one step: which commands run with ``-json``, what they reported, and the verdicts.

Only a step that asks (``expect_diagnostics``, ``allow_warnings``) or runs in a case with
``fail_on_warnings=True`` changes how its commands run: its ``plan``, ``apply`` and ``refresh``
commands get ``-json``, and a config-mode step also runs ``terraform validate -json`` after
``init`` (whose errors do not stop the step: the plan reports them again and decides, as for
any other step). Every other step runs exactly as before: the least risky choice, since Terraform's
``-json`` output replaces the human-readable plan with one line per change, so the log of a
step that asks shows ``widget_thing.t: Plan to create`` where the text plan would be. Import
and query steps are never switched (``terraform import`` has no JSON output; a query already is).

A failed ``init`` (no JSON output on Terraform 1.0) is followed by ``validate -json``, which
reports the configuration's errors (an HCL syntax error, say) as diagnostics.

Each command's diagnostics are checked as it ends: with ``fail_on_warnings``, a warning that
no ``allow_warnings`` entry and no warning of ``expect_diagnostics`` matches fails the step at
that command's stage, naming it. The expectations are checked when the step ends: after a
failure whose command reported errors, the step passes when every expectation was met and one of
them is an error (as ``expect_error``); after a success, every expectation must have been met.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import replace
from typing import Any, Final

from .._terraform import CommandResult
from ._diagjson import Reading, read_ui, read_validate
from ._diagnostics import (
    Diagnostic,
    ExpectDiagnostic,
    ProviderDiagnostic,
    attribute_text,
    join_attributes,
    listing,
)
from ._stepfailure import _StepFailure

__all__ = ["JSON_COMMANDS", "DiagnosticsFailure", "StepDiagnostics"]

#: The subcommands that run with ``-json`` in a step that checks diagnostics.
JSON_COMMANDS: Final = ("plan", "apply", "refresh", "validate")


class DiagnosticsFailure(_StepFailure):
    """A step's diagnostics broke what it asserts (a warning not allowed, an expectation unmet): the test's
    own assertion, so the case's ``error_check`` does not see it (as an unmatched ``expect_error``)."""


def _plural(count: int, one: str, many: str) -> str:
    return one if count == 1 else many


class StepDiagnostics:
    """What one step's ``-json`` commands reported, and what the step expects of it (internal to the runner)."""

    def __init__(self, step: Any, fail_on_warnings: bool, binary: str) -> None:
        self.expected: tuple[ExpectDiagnostic, ...] = tuple(step.expect_diagnostics)
        self.allowed: tuple[ExpectDiagnostic, ...] = tuple(step.allow_warnings)
        self.fail_on_warnings = fail_on_warnings
        self.binary = os.path.basename(binary)
        self.arrived: list[Diagnostic] = []
        self.commands: list[str] = []
        # The results of commands that failed reporting errors: the failures an expected error may excuse.
        self.error_results: list[CommandResult] = []

    @classmethod
    def of(cls, case: Any, step: Any, binary: str) -> StepDiagnostics | None:
        """The step's diagnostics, or None when the step runs its commands as text (the usual case)."""
        if step.import_state or step.query:
            return None
        if not (step.expect_diagnostics or step.allow_warnings or case.fail_on_warnings):
            return None
        return cls(step, case.fail_on_warnings, binary)

    @property
    def expects_error(self) -> bool:
        """Whether an expected error may excuse the step's failure."""
        return any(e.severity == "error" for e in self.expected)

    def arguments(self, args: tuple[str, ...]) -> tuple[str, ...]:
        """``args`` with ``-json`` after the subcommand."""
        return (args[0], "-json", *args[1:])

    def read(self, command: str, result: CommandResult) -> tuple[CommandResult, Reading]:
        """The command's result shown as text, and what it reported (kept for the step's verdicts)."""
        reading = read_validate(result.stdout) if command == "validate" else read_ui(result.stdout)
        self.arrived.extend(reading.diagnostics)
        self.commands.append(command)
        shown = replace(result, stdout=reading.stdout, stderr=reading.stderr + result.stderr)
        if result.returncode not in (0, None) and any(d.severity == "error" for d in reading.diagnostics):
            self.error_results.append(shown)
        return shown, reading

    # -- verdicts -----------------------------------------------------------------------------

    def unallowed(self, reading: Reading, recorded: Iterable[ProviderDiagnostic]) -> list[Diagnostic]:
        """The warnings of one command that ``fail_on_warnings`` refuses."""
        if not self.fail_on_warnings:
            return []
        accepted = self.allowed + tuple(e for e in self.expected if e.severity == "warning")
        warnings = join_attributes((d for d in reading.diagnostics if d.severity == "warning"), recorded)
        return [d for d in warnings if not any(a._matches(d) for a in accepted)]

    def unallowed_message(self, command: str, refused: list[Diagnostic]) -> str:
        count = len({d.key() for d in refused})
        noun = _plural(count, "a warning that is", f"{count} warnings that are")
        lines = [
            f"{self.binary} {command} reported {noun} not allowed "
            "(TestCase(fail_on_warnings=True); allow it with TestStep(allow_warnings=[...]) or expect it):"
        ]
        lines.extend(_indented(listing(refused), "  "))
        return "\n".join(lines)

    def unmet(self, recorded: Iterable[ProviderDiagnostic]) -> tuple[list[ExpectDiagnostic], list[Diagnostic]]:
        """The expectations no diagnostic met, and every diagnostic that arrived (attributes joined)."""
        arrived = join_attributes(self.arrived, recorded)
        return [e for e in self.expected if not any(e._matches(d) for d in arrived)], arrived

    def vouch(self, failed: CommandResult, validate: CommandResult) -> None:
        """Let the errors ``validate`` reported explain ``failed`` too (an ``init`` that printed no JSON)."""
        if self.excuses(validate):
            self.error_results.append(failed)

    def excuses(self, result: CommandResult | None) -> bool:
        """Whether the step failed at a command that reported errors (what an expected error may excuse)."""
        return result is not None and any(result is r for r in self.error_results)

    def checked(self) -> str:
        """The commands whose diagnostics were read, in order: ``terraform validate, plan, apply``."""
        return f"{self.binary} {', '.join(self.commands)}" if self.commands else "no command ran"

    def unmet_message(
        self, unmet: list[ExpectDiagnostic], arrived: list[Diagnostic], failed: str | None = None
    ) -> str:
        """Which expectations are missing, and every diagnostic that arrived; ``failed``: how the step failed."""
        lines = [f"{len(unmet)} of {len(self.expected)} expected diagnostics did not arrive ({self.checked()}):"]
        if failed is not None:
            lines.append(f"  the step failed: {failed}")
        lines.append("  missing:")
        for expected in unmet:
            lines.append(f"    {expected!r}")
            near = sorted((d for d in arrived if expected._matches(d, ignore_attribute=True)), key=Diagnostic.sort_key)
            if expected.attribute is not None and near:
                lines.append(f"      (a diagnostic that arrived matches every other field; its attribute is {attribute_text(near[0])})")
        described = listing(arrived)
        lines.append(f"  arrived ({len(described)}):" if described else "  arrived: none")
        lines.extend(_indented(described, "    "))
        return "\n".join(lines)


def _indented(items: list[str], prefix: str) -> list[str]:
    return [prefix + line if line else line for item in items for line in item.splitlines()]
