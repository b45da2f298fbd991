"""The diagnostics a provider served in this process returns, recorded with their attribute paths.

Terraform's JSON output drops a diagnostic's attribute path (it keeps the source range it found
for it), so the server notes every diagnostic of every response it sends: the runner joins them
to Terraform's by severity, summary and detail (see ``plancheck.acceptance._diagnostics``). Each
distinct diagnostic is kept once, so a long case holds as many records as it has distinct messages.
"""

from __future__ import annotations

import threading
from typing import Any, Final

from tfjsonpath import MapStep, Path, SliceStep, Step

from ..._frozen import FrozenValue, frozen

__all__ = ["DiagnosticRecorder", "ProviderDiagnostic", "attribute_path"]

#: The protocol's ``Diagnostic.Severity``: 1 is ERROR, 2 is WARNING (0, INVALID, is never shown).
_SEVERITIES: Final = {1: "error", 2: "warning"}


@frozen
class ProviderDiagnostic(FrozenValue):
    """A diagnostic a provider served in this process returned, as the server saw it (with its attribute path).

    >>> from tfjsonpath import New
    >>> ProviderDiagnostic("warning", "Attribute deprecated", "use tags", "widget_thing", New("color")).attribute
    Path(MapStep('color'))
    """

    severity: str
    summary: str
    detail: str
    type_name: str
    attribute: Path | None


def attribute_path(message: Any) -> Path | None:
    """A protocol ``AttributePath`` as a :class:`tfjsonpath.Path` (names and string keys as map steps,
    integer keys as slice steps, as in a plan's JSON); None when it has no steps or one cannot be a path.

    >>> from types import SimpleNamespace as S
    >>> def step(kind, value):
    ...     return S(WhichOneof=lambda _: kind, **{kind: value})
    >>> attribute_path(S(steps=[step("attribute_name", "tags"), step("element_key_string", "env"),
    ...                         step("element_key_int", 0)]))
    Path(MapStep('tags'), MapStep('env'), SliceStep(0))
    """
    steps: list[Step] = []
    for item in getattr(message, "steps", ()):
        kind = item.WhichOneof("selector")
        value: Any = getattr(item, kind) if kind else None
        try:
            if kind in ("attribute_name", "element_key_string"):
                steps.append(MapStep(value))
            elif kind == "element_key_int":
                steps.append(SliceStep(value))
            else:
                return None
        except (TypeError, ValueError):
            return None  # a negative index, say: a provider's bug, and no path of a plan's JSON
    return Path(*steps) if steps else None


class DiagnosticRecorder:
    """Thread-safe: Terraform calls a provider from several goroutines at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: dict[ProviderDiagnostic, None] = {}

    def record(self, request: Any, response: Any) -> None:
        """Note the diagnostics of ``response`` (an answer to ``request``); never raises."""
        try:
            diagnostics = list(getattr(response, "diagnostics", None) or ())
        except TypeError:
            return
        if not diagnostics:
            return
        type_name = str(getattr(request, "type_name", "") or "")
        found: list[ProviderDiagnostic] = []
        for diagnostic in diagnostics:
            try:
                severity = _SEVERITIES.get(int(diagnostic.severity))
                if severity is None:
                    continue
                has_path = diagnostic.HasField("attribute")
                path = attribute_path(diagnostic.attribute) if has_path else None
                found.append(ProviderDiagnostic(severity, str(diagnostic.summary), str(diagnostic.detail), type_name, path))
            except (AttributeError, TypeError, ValueError):
                continue  # not a protocol Diagnostic: a servicer of its own answers as it likes
        with self._lock:
            for record in found:
                self._seen.setdefault(record, None)

    def snapshot(self) -> list[ProviderDiagnostic]:
        """Every distinct diagnostic recorded so far, oldest first."""
        with self._lock:
            return list(self._seen)
