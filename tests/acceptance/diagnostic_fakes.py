"""Terraform's JSON diagnostics for the scripted fake: ``validate -json`` documents and ``-json`` UI lines.

Shaped as Terraform 1.0.3 and 1.11.4 print them (recorded from both with the example widget
provider; ``test_acceptance_diagnostics.py`` pins the readings of verbatim recordings).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any


def diagnostic(severity: str, summary: str, detail: str = "", *, address: str | None = None,
               line: int | None = None, code: str | None = None, context: str | None = None) -> dict[str, Any]:
    found: dict[str, Any] = {"severity": severity, "summary": summary, "detail": detail}
    if address is not None:
        found["address"] = address
    if line is not None:
        found["range"] = {"filename": "main.tf", "start": {"line": line, "column": 3, "byte": 40},
                          "end": {"line": line, "column": 8, "byte": 45}}
        found["snippet"] = {"context": context, "code": code or "", "start_line": line,
                            "highlight_start_offset": 2, "highlight_end_offset": 7, "values": []}
    return found


def ui(kind: str, message: str, level: str = "info", **body: Any) -> dict[str, Any]:
    return {"@level": level, "@message": message, "@module": "terraform.ui",
            "@timestamp": "2026-11-26T15:00:59.941413Z", "type": kind, **body}


def ui_diagnostic(found: Mapping[str, Any]) -> dict[str, Any]:
    error = found["severity"] == "error"
    return ui("diagnostic", f"{'Error' if error else 'Warning'}: {found['summary']}",
              "error" if error else "warn", diagnostic=dict(found))


def ui_lines(*diagnostics: Mapping[str, Any], version: str = "1.11.4", summary: str | None = None) -> str:
    """A plan/apply -json output: the version line, an optional summary, then the diagnostics."""
    lines = [ui("version", f"Terraform {version}", terraform=version, ui="1.2")]
    if summary is not None:
        lines.append(ui("change_summary", summary, changes={"add": 1, "change": 0, "remove": 0, "operation": "plan"}))
    lines.extend(ui_diagnostic(d) for d in diagnostics)
    return "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)


def validate_json(*diagnostics: Mapping[str, Any]) -> str:
    errors = sum(1 for d in diagnostics if d["severity"] == "error")
    document = {"format_version": "1.0", "valid": errors == 0, "error_count": errors,
                "warning_count": len(diagnostics) - errors, "diagnostics": list(diagnostics)}
    return json.dumps(document, indent=2) + "\n"


def json_rules(*, validate: Sequence[Mapping[str, Any]] = (), plan: Sequence[Mapping[str, Any]] = (),
               apply: Sequence[Mapping[str, Any]] = (), plan_exit: int = 0, apply_exit: int = 0) -> list[dict[str, Any]]:
    """Rules answering validate, plan and apply with these diagnostics (-json only; text commands fall through)."""
    errors = any(d["severity"] == "error" for d in validate)
    return [
        {"when": ["validate", "-json"], "responses": [{"stdout": validate_json(*validate), "exit": 1 if errors else 0}]},
        {"when": ["plan", "-json"], "responses": [{"stdout": ui_lines(*plan, summary="Plan: 1 to add, 0 to change, 0 to destroy."),
                                                   "exit": plan_exit}]},
        {"when": ["apply", "-json"], "responses": [{"stdout": ui_lines(*apply), "exit": apply_exit}]},
    ]
