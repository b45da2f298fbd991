"""Fixtures for the plan-check tests: fixture plans, the real corpus, and a plan full of planted secrets."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path as FsPath
from typing import Any

import pytest

from plancheck import Plan, load_plan

REPO = FsPath(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "plans"
CORPUS_PLANS = REPO.parent / "shared" / "corpus" / "plans"

# Each secret is planted in one place only, so a leak says which collection path failed.
SECRET_AFTER = "after-Secret-7Qx2"  # a resource attribute marked in after_sensitive
SECRET_BEFORE = "before-Secret-4Kp9"  # marked in before_sensitive only, copied unmarked into after
SECRET_OUTPUT = "output-Secret-1Zr8"  # a sensitive output
SECRET_VAR = "var-Secret-6Wm3"  # a sensitive variable, copied unmarked into a terraform_data output
SECRETS = (SECRET_AFTER, SECRET_BEFORE, SECRET_OUTPUT, SECRET_VAR)


def _secret_plan_document() -> dict[str, Any]:
    """A plan in which every secret is reachable by some check's failure message, unless redacted."""
    return {
        "format_version": "1.2",
        "terraform_version": "1.11.4",
        "variables": {"db_password": {"value": SECRET_VAR}, "region": {"value": "eu-west-1"}},
        "resource_changes": [
            {
                "address": "aws_db_instance.db",
                "mode": "managed",
                "type": "aws_db_instance",
                "name": "db",
                "provider_name": "registry.terraform.io/hashicorp/aws",
                "change": {
                    "actions": ["update"],
                    "before": {"password": SECRET_BEFORE, "name": "db", "settings": {"mode": "a"}},
                    "after": {
                        "password": SECRET_AFTER,
                        "name": "db",
                        "settings": {"mode": "b", "token": SECRET_AFTER},
                        "last_password": SECRET_BEFORE,
                        "list": ["plain", SECRET_AFTER],
                        "tags": {SECRET_VAR: "key-is-secret"},
                    },
                    "after_unknown": {"arn": True},
                    "before_sensitive": {"password": True},
                    "after_sensitive": {"password": True, "settings": {"token": True}, "list": [False, True]},
                    "replace_paths": [["tags", SECRET_VAR]],
                },
            },
            {
                "address": "terraform_data.copy",
                "mode": "managed",
                "type": "terraform_data",
                "name": "copy",
                "provider_name": "terraform.io/builtin/terraform",
                "change": {
                    "actions": ["update"],
                    "before": {"input": SECRET_VAR, "output": SECRET_VAR},
                    # terraform_data.output repeats its input without the sensitive mark.
                    "after": {"input": SECRET_VAR, "output": SECRET_VAR},
                    "after_unknown": {},
                    "before_sensitive": {"input": True},
                    "after_sensitive": {"input": True},
                },
            },
            {
                "address": f'terraform_data.each["{SECRET_VAR}"]',
                "mode": "managed",
                "type": "terraform_data",
                "name": "each",
                "index": SECRET_VAR,
                "provider_name": "terraform.io/builtin/terraform",
                "change": {
                    "actions": ["create"],
                    "before": None,
                    "after": {"input": "x"},
                    "after_unknown": {"id": True},
                    "before_sensitive": False,
                    "after_sensitive": {},
                },
            },
        ],
        "output_changes": {
            "db_password": {
                "actions": ["update"],
                "before": "old",
                "after": SECRET_OUTPUT,
                "after_unknown": False,
                "before_sensitive": True,
                "after_sensitive": True,
            },
            "echo": {
                "actions": ["create"],
                "before": None,
                "after": {"copy": SECRET_OUTPUT, "var": SECRET_VAR},
                "after_unknown": False,
                "before_sensitive": False,
                "after_sensitive": False,
            },
        },
        "deferred_changes": [
            {
                "reason": "resource_config_unknown",
                "resource_change": {
                    "address": "terraform_data.later",
                    "mode": "managed",
                    "type": "terraform_data",
                    "name": "later",
                    "change": {
                        "actions": ["create"],
                        "before": None,
                        "after": {},
                        "after_unknown": {"id": True},
                    },
                },
            }
        ],
        "configuration": {
            "root_module": {
                "variables": {"db_password": {"sensitive": True}, "region": {"default": "eu-west-1"}},
                "outputs": {"db_password": {"sensitive": True}},
            }
        },
        "applyable": True,
        "complete": False,
        "errored": False,
    }


@pytest.fixture
def secret_plan_document() -> dict[str, Any]:
    """A fresh copy of the planted-secrets plan document (tests may change it)."""
    return copy.deepcopy(_secret_plan_document())


@pytest.fixture
def secret_plan(secret_plan_document: dict[str, Any]) -> Plan:
    """The planted-secrets plan, loaded."""
    return Plan.from_dict(secret_plan_document)


@pytest.fixture(scope="session")
def fixture_plan() -> Callable[[str], Plan]:
    """Load ``tests/fixtures/plans/<name>.json`` (cached per session; checks never change a plan)."""
    cache: dict[str, Plan] = {}

    def load(name: str) -> Plan:
        if name not in cache:
            cache[name] = load_plan(FIXTURES / f"{name}.json")
        return cache[name]

    return load


@pytest.fixture(scope="session")
def fixture_document() -> Callable[[str], dict[str, Any]]:
    """Parse ``tests/fixtures/plans/<name>.json`` afresh (a new dict on every call)."""

    def parse(name: str) -> dict[str, Any]:
        document: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
        return document

    return parse


@pytest.fixture(scope="session")
def corpus_plans_dir() -> FsPath:
    """The real plans of the shared corpus; skips when the corpus is not beside the checkout."""
    if not CORPUS_PLANS.is_dir():
        pytest.skip(f"no corpus at {CORPUS_PLANS}")
    return CORPUS_PLANS


@pytest.fixture(scope="session")
def planted_secrets() -> tuple[str, ...]:
    """Every secret string planted in :func:`secret_plan`."""
    return SECRETS
