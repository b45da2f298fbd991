"""Building small state documents for the state-check tests, and loading Go's shared value cases.

The value cases Go shares between its plan and state tests live in
``tests/checks/known_go_cases.py``; importing this module loads that file by its
path as ``known_go_cases`` (the directory is not put on ``sys.path``), so both test
directories read one table. (No conftest.py here: with ``--doctest-modules`` two
conftest.py files outside packages clash as the same module name.)
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Mapping
from pathlib import Path as FsPath
from typing import Any

from plancheck._documents.state import State

if "known_go_cases" not in sys.modules:
    _spec = importlib.util.spec_from_file_location(
        "known_go_cases", FsPath(__file__).resolve().parents[1] / "checks" / "known_go_cases.py"
    )
    assert _spec is not None
    assert _spec.loader is not None
    _module = importlib.util.module_from_spec(_spec)
    sys.modules["known_go_cases"] = _module
    _spec.loader.exec_module(_module)


def make_state(
    resources: Mapping[str, Any] | None = None,
    outputs: Mapping[str, Any] | None = None,
    *,
    sensitive: Mapping[str, Any] | None = None,
) -> State:
    """A state with root module resources ``{address: values}`` (marks from ``sensitive``) and outputs.

    An output is ``{name: value}``; a ``(value, True)`` tuple makes it sensitive.
    """
    sensitive = sensitive or {}
    document: dict[str, Any] = {
        "format_version": "1.0",
        "terraform_version": "1.11.4",
        "values": {
            "outputs": {
                name: (
                    {"value": v[0], "sensitive": v[1]}
                    if isinstance(v, tuple)
                    else {"value": v, "sensitive": False}
                )
                for name, v in (outputs or {}).items()
            },
            "root_module": {
                "resources": [
                    {
                        "address": address,
                        "mode": "managed",
                        "type": address.split(".")[0],
                        "name": address.split(".")[1],
                        "values": values,
                        "sensitive_values": sensitive.get(address, {}),
                    }
                    for address, values in (resources or {}).items()
                ]
            },
        },
    }
    return State.from_dict(document)
