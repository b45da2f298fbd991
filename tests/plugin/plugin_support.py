"""Small plan documents for the plugin tests, written into pytester directories."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

# Three secrets, one per place a plan keeps them: a sensitive attribute, variable and output.
SECRET_ATTR = "s3cr3t-attribute-7f1c"
SECRET_VAR = "s3cr3t-variable-9a2e"
SECRET_OUT = "s3cr3t-output-4d8b"
SECRETS = (SECRET_ATTR, SECRET_VAR, SECRET_OUT)


def simple_plan(address: str = "null_resource.a") -> dict[str, Any]:
    """A plan with one created resource: ``id`` unknown, ``triggers.name`` known."""
    return {
        "format_version": "1.2",
        "resource_changes": [
            {
                "address": address,
                "mode": "managed",
                "type": address.split(".")[0],
                "name": address.split(".")[1],
                "change": {
                    "actions": ["create"],
                    "before": None,
                    "after": {"triggers": {"name": "web"}},
                    "after_unknown": {"id": True, "triggers": {}},
                    "after_sensitive": {"triggers": {}},
                },
            }
        ],
    }


def secret_plan() -> dict[str, Any]:
    """A plan holding SECRET_ATTR (sensitive attribute), SECRET_VAR (variable) and SECRET_OUT (output)."""
    return {
        "format_version": "1.2",
        "variables": {"db_password": {"value": SECRET_VAR}},
        "configuration": {"root_module": {"variables": {"db_password": {"sensitive": True}}}},
        "resource_changes": [
            {
                "address": "null_resource.a",
                "mode": "managed",
                "type": "null_resource",
                "name": "a",
                "change": {
                    "actions": ["create"],
                    "before": None,
                    "after": {"triggers": {"name": "web", "secret": SECRET_ATTR, "password": SECRET_VAR}},
                    "after_unknown": {"id": True, "triggers": {}},
                    "after_sensitive": {"triggers": {"secret": True, "password": True}},
                },
            }
        ],
        "output_changes": {
            "pw": {
                "actions": ["create"],
                "before": None,
                "after": SECRET_OUT,
                "after_unknown": False,
                "before_sensitive": False,
                "after_sensitive": True,
            }
        },
    }


def write_json(path: Path, document: Any) -> Path:
    """Write ``document`` as JSON at ``path`` (parents created) and return the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=1), encoding="utf-8")
    return path


# Hypothesis' plugin imports (and assertion-rewrites) all of Hypothesis at the end of every inner
# session: seconds per run. The inner sessions under test never use it.
QUIET_PLUGINS = ("-p", "no:hypothesispytest", "-p", "no:cacheprovider")


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """Run pytest in-process in ``pytester.path`` (the plancheck plugin loads through its entry point)."""
    return pytester.runpytest(*QUIET_PLUGINS, *args)


def run_subprocess(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """Run pytest in a fresh interpreter (for xdist, import modes and whole-output checks)."""
    return pytester.runpytest_subprocess(*QUIET_PLUGINS, *args)


def junit_text(path: str | Path) -> str:
    """Every text and attribute value of a JUnit XML file, unescaped: what a leak search reads."""
    parts: list[str] = []
    for element in ET.parse(str(path)).iter():
        parts.extend(element.attrib.values())
        parts.extend(t for t in (element.text, element.tail) if t)
    return "\n".join(parts)
