"""A step's failure before it becomes an :class:`AcceptanceError`, and how its texts are laid out.

Internal to the runner: a :class:`_StepFailure` keeps the raw, unredacted texts so that an
``expect_error`` pattern sees what Terraform printed; ``CaseRun.error`` scrubs them.
"""

from __future__ import annotations

import re
from typing import Final

from .._redact import Secrets
from .._terraform import CommandResult
from ._errors import Stage

__all__ = ["MAX_OUTPUT_CHARS"]

#: Characters of each output stream kept in an error (the end, where Terraform puts its errors).
MAX_OUTPUT_CHARS: Final = 8000
_BOX_PREFIX: Final = re.compile(r"^[ \t]*[│╷╵][ \t]?", re.MULTILINE)
_SPACES: Final = re.compile(r"\s+")


class _StepFailure(Exception):
    """Internal: a failure with its raw (unredacted) texts, before it becomes an AcceptanceError."""

    def __init__(
        self, stage: Stage, reason: str, result: CommandResult | None = None, trusted: tuple[str, ...] = ()
    ) -> None:
        super().__init__(reason)
        self.stage = stage
        self.reason = reason
        self.result = result
        #: What the failures of checks in ``reason`` trust (:attr:`plancheck.CheckFailure.trusted`).
        self.trusted = trusted

    def raw_text(self) -> str:
        parts = [self.reason]
        if self.result is not None:
            parts.extend((self.result.stderr, self.result.stdout))
        return "\n".join(parts)


def _matches(pattern: re.Pattern[str], text: str) -> bool:
    """Search ``text`` as is, and again with Terraform's diagnostic boxes and line wrapping undone."""
    if pattern.search(text):
        return True
    flat = _SPACES.sub(" ", _BOX_PREFIX.sub("", text))
    return pattern.search(flat) is not None


def _tail(text: str) -> str:
    if len(text) <= MAX_OUTPUT_CHARS:
        return text
    cut = len(text) - MAX_OUTPUT_CHARS
    return f"…({cut} earlier characters omitted)\n" + text[cut:]


def _format_output(result: CommandResult, secrets: Secrets) -> str:
    parts: list[str] = []
    for name, text in (("stderr", result.stderr), ("stdout", result.stdout)):
        # Scrub before cutting, so a cut can never leave half a secret behind.
        cleaned = secrets.scrub(text).strip("\n")
        if cleaned.strip():
            parts.append(f"{name}:\n{_tail(cleaned)}")
    return "\n".join(parts)


def _listing(title: str, items: list[str]) -> str:
    """``title:`` then each item on its own lines, indented."""
    lines = [f"{title}:"]
    for item in items:
        lines.extend("  " + line if line else line for line in item.splitlines() or [""])
    return "\n".join(lines)


def _non_empty(stage: Stage, message: str, changes: list[str], result: CommandResult) -> _StepFailure:
    return _StepFailure(stage, _listing(f"{message}; planned changes", changes), result)


def _indent(text: str) -> str:
    return "\n".join("    " + line if line else line for line in text.splitlines())
