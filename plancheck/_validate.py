"""Structural validation of plan documents (minimal; the schema-backed version replaces it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tfjsonpath import describe_json_type

from ._errors import PlanFormatError

__all__ = ["KNOWN_ACTIONS", "validate_plan"]

KNOWN_ACTIONS = frozenset({"no-op", "create", "read", "update", "delete", "forget", "create-then-forget"})


def _fail(location: str, expected: str, value: Any, source: str | None) -> PlanFormatError:
    return PlanFormatError(location, expected, found=describe_json_type(value), source=source)


def _check_change(change: Any, loc: str, source: str | None) -> None:
    if not isinstance(change, Mapping):
        raise _fail(loc, "an object", change, source)
    actions = change.get("actions")
    if not isinstance(actions, list):
        raise _fail(f"{loc}.actions", "an array of action strings", actions, source)
    for j, action in enumerate(actions):
        if action not in KNOWN_ACTIONS:
            raise PlanFormatError(
                f"{loc}.actions[{j}]",
                "one of " + ", ".join(sorted(KNOWN_ACTIONS)),
                found=repr(action) if isinstance(action, str) else describe_json_type(action),
                source=source,
            )


def validate_plan(document: Any, *, source: str | None = None) -> None:
    """Raise PlanFormatError if ``document`` is not a ``show -json`` plan of format 0.x or 1.x."""
    if not isinstance(document, Mapping):
        raise _fail("$", "a JSON object", document, source)
    fv = document.get("format_version")
    if not isinstance(fv, str):
        raise _fail("$.format_version", "a version string", fv, source)
    major = fv.split(".", 1)[0]
    if major not in ("0", "1"):
        raise PlanFormatError(
            "$.format_version", "a format version 0.x or 1.x", found=repr(fv), source=source
        )
    for key in ("resource_changes", "resource_drift"):
        rcs = document.get(key)
        if rcs is None:
            continue
        if not isinstance(rcs, list):
            raise _fail(f"$.{key}", "an array", rcs, source)
        for i, rc in enumerate(rcs):
            loc = f"$.{key}[{i}]"
            if not isinstance(rc, Mapping):
                raise _fail(loc, "an object", rc, source)
            if not isinstance(rc.get("address"), str):
                raise _fail(f"{loc}.address", "a string", rc.get("address"), source)
            if "change" not in rc:
                raise PlanFormatError(loc, 'a "change" property', found="none", source=source)
            _check_change(rc["change"], f"{loc}.change", source)
    outputs = document.get("output_changes")
    if outputs is not None:
        if not isinstance(outputs, Mapping):
            raise _fail("$.output_changes", "an object", outputs, source)
        for name, change in outputs.items():
            _check_change(change, f"$.output_changes[{name!r}]", source)
