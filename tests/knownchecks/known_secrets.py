"""The plan and state documents with planted secrets, for the leak tests (test_known_no_leaks.py).

Each secret is planted in one place only, so a leak says which collection path failed.
"""

from __future__ import annotations

from typing import Any

SECRET_AFTER = "after-Secret-K9a1"  # a resource attribute marked in after_sensitive
SECRET_BEFORE = "before-Secret-K4b2"  # marked in before_sensitive only, copied unmarked into after
SECRET_OUTPUT = "output-Secret-K1c3"  # a sensitive output of the plan
SECRET_VAR = "var-Secret-K6d4"  # a sensitive variable, copied unmarked into an attribute and a for_each key
SECRET_STATE_ATTR = "state-Secret-K2e5"  # a state attribute marked in sensitive_values
SECRET_STATE_OUTPUT = "stateout-Secret-K8f6"  # a sensitive output of the state
PLAN_SECRETS = (SECRET_AFTER, SECRET_BEFORE, SECRET_OUTPUT, SECRET_VAR)
STATE_SECRETS = (SECRET_STATE_ATTR, SECRET_STATE_OUTPUT)


def plan_document() -> dict[str, Any]:
    return {
        "format_version": "1.2",
        "terraform_version": "1.11.4",
        "variables": {"db_password": {"value": SECRET_VAR}},
        "resource_changes": [
            {
                "address": "aws_db_instance.db",
                "mode": "managed",
                "type": "aws_db_instance",
                "name": "db",
                "change": {
                    "actions": ["update"],
                    "before": {"password": SECRET_BEFORE, "name": "db"},
                    "after": {
                        "password": SECRET_AFTER,
                        "name": "db",
                        "settings": {"mode": "b", "token": SECRET_AFTER},
                        "last_password": SECRET_BEFORE,
                        "list": ["plain", SECRET_AFTER],
                        "tags": {SECRET_VAR: "key-is-secret"},
                        "partial": {"known": SECRET_AFTER},
                    },
                    "after_unknown": {"arn": True, "partial": {"later": True}},
                    "before_sensitive": {"password": True},
                    "after_sensitive": {
                        "password": True,
                        "settings": {"token": True},
                        "list": [False, True],
                        "partial": {"known": True},
                    },
                },
            },
            {
                "address": "terraform_data.copy",
                "mode": "managed",
                "type": "terraform_data",
                "name": "copy",
                "change": {
                    "actions": ["update"],
                    "before": {"input": SECRET_VAR, "output": SECRET_VAR},
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
                "change": {
                    "actions": ["create"],
                    "before": None,
                    "after": {"input": "x"},
                    "after_unknown": {"id": True},
                    "after_sensitive": {},
                },
            },
            {
                "address": "terraform_data.gone",
                "mode": "managed",
                "type": "terraform_data",
                "name": "gone",
                "change": {"actions": ["delete"], "before": {"input": SECRET_VAR}, "after": None},
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
                "after_sensitive": False,
            },
        },
        "configuration": {
            "root_module": {
                "variables": {"db_password": {"sensitive": True}},
                "outputs": {"db_password": {"sensitive": True}},
            }
        },
    }


def state_document() -> dict[str, Any]:
    def resource(address: str, values: dict[str, Any], marks: dict[str, Any]) -> dict[str, Any]:
        kind, name = address.split(".")[0], address.split(".")[1].split("[")[0]
        return {
            "address": address,
            "mode": "managed",
            "type": kind,
            "name": name,
            "values": values,
            "sensitive_values": marks,
        }

    return {
        "format_version": "1.0",
        "terraform_version": "1.11.4",
        "values": {
            "outputs": {
                "token": {"value": SECRET_STATE_OUTPUT, "sensitive": True, "type": "string"},
                "echo": {"value": {"copy": SECRET_STATE_OUTPUT}, "sensitive": False},
            },
            "root_module": {
                "resources": [
                    resource(
                        "aws_db_instance.db",
                        {
                            "password": SECRET_STATE_ATTR,
                            "name": "db",
                            "config": {"token": SECRET_STATE_ATTR, "user": "admin"},
                            "list": ["plain", SECRET_STATE_ATTR],
                            "keys": {SECRET_STATE_ATTR: "v"},
                        },
                        {"password": True, "config": {"token": True}, "list": [False, True], "keys": True},
                    ),
                    resource(
                        "terraform_data.copy",
                        {"input": SECRET_STATE_ATTR, "output": SECRET_STATE_ATTR},
                        {"input": True},
                    ),
                    resource(f'terraform_data.each["{SECRET_STATE_ATTR}"]', {"input": "x"}, {}),
                ]
            },
        },
    }
