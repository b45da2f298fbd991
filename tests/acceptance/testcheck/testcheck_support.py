"""Building small states for the legacy check function tests."""

from __future__ import annotations

from typing import Any

from plancheck import State


def resource(address: str, values: Any, marks: Any = None, *, index: Any = None, mode: str = "managed") -> dict[str, Any]:
    """A state resource entry; ``address`` is the full address."""
    raw: dict[str, Any] = {"address": address, "mode": mode, "values": values}
    if index is not None:
        raw["index"] = index
    if marks is not None:
        raw["sensitive_values"] = marks
    return raw


def make_state(
    resources: list[dict[str, Any]] | None = None,
    *,
    outputs: dict[str, Any] | None = None,
    modules: list[dict[str, Any]] | None = None,
) -> State:
    """A state with root ``resources``, ``outputs`` and ``modules`` (child module entries)."""
    root: dict[str, Any] = {"resources": resources or []}
    if modules:
        root["child_modules"] = modules
    values: dict[str, Any] = {"root_module": root}
    if outputs is not None:
        values["outputs"] = outputs
    return State.from_dict({"format_version": "1.0", "values": values})


def one(values: Any, marks: Any = None) -> State:
    """A state whose only resource is ``test.a`` with ``values``."""
    return make_state([resource("test.a", values, marks)])
