"""The plan, state and configuration with planted secrets, for the leak table (test_no_secret_leaks.py).

Each secret is planted in one place only (and copied where said), so a leak names the
collection path that failed. ``PLANTED`` maps a name to each secret for ``secret_shapes.leaks``;
no two secrets share an identifying piece (8 characters in a row), so a leak names its secret.
"""

from __future__ import annotations

from typing import Any

SECRET_AFTER = "pw-after-7Qx2zz"  # a resource attribute marked in after_sensitive
SECRET_BEFORE = "pw-before-4Kp9zz"  # marked in before_sensitive only, copied unmarked into after
SECRET_OUTPUT = "out-plan-1Zr8zz"  # a sensitive output of the plan
SECRET_VAR = "var-db-6Wm3zz"  # a sensitive variable, copied unmarked into an attribute and a for_each key
SECRET_STATE_ATTR = "st-attr-K2e5zz"  # a state attribute marked in sensitive_values
SECRET_STATE_OUTPUT = "st-out-K8f6zz"  # a sensitive output of the state
SECRET_CONFIG = "cfg-default-Q3n7zz"  # the default of a sensitive variable in a .tf.json configuration
SECRET_ACTION = "act-cfg-M4t8zz"  # an action invocation's configuration value marked in config_sensitive
PLANTED: dict[str, str] = {
    "after": SECRET_AFTER,
    "before": SECRET_BEFORE,
    "output": SECRET_OUTPUT,
    "var": SECRET_VAR,
    "state-attr": SECRET_STATE_ATTR,
    "state-output": SECRET_STATE_OUTPUT,
    "config": SECRET_CONFIG,
    "action": SECRET_ACTION,
}


def plan_document() -> dict[str, Any]:
    """A plan in which every plan secret is reachable by some check's failure message, unless redacted."""
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
            {
                # A replacement forced by a map key that is a secret (named in replace_paths).
                "address": "null_resource.swap",
                "mode": "managed",
                "type": "null_resource",
                "name": "swap",
                "action_reason": "replace_because_cannot_update",
                "provider_name": "registry.terraform.io/hashicorp/null",
                "change": {
                    "actions": ["create", "delete"],
                    "before": {"triggers": {"old": "x"}},
                    "after": {"triggers": {SECRET_VAR: "x"}},
                    "after_unknown": {"id": True},
                    "before_sensitive": {},
                    "after_sensitive": {},
                    "replace_paths": [["triggers", SECRET_VAR]],
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
        # Drift: a marked value changed on both sides, an unmarked copy of a sensitive variable, and a
        # sensitive map whose key is a secret.
        "resource_drift": [
            {
                "address": "aws_db_instance.db",
                "mode": "managed",
                "type": "aws_db_instance",
                "name": "db",
                "change": {
                    "actions": ["update"],
                    "before": {"password": SECRET_BEFORE, "name": "db", "note": "plain", "keys": {"a": "1"}},
                    "after": {"password": SECRET_AFTER, "name": "db", "note": SECRET_VAR, "keys": {SECRET_OUTPUT: "1"}},
                    "after_unknown": {},
                    "before_sensitive": {"password": True, "keys": True},
                    "after_sensitive": {"password": True, "keys": True},
                },
            }
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
        # Terraform 1.14+: an action triggered by the resource whose for_each key is a secret, its token
        # marked by the action schema, a sensitive map whose key is a secret; and a deferred invocation.
        "action_invocations": [
            {
                "address": "action.webhook_send.notify",
                "type": "webhook_send",
                "name": "notify",
                "provider_name": "registry.terraform.io/example/webhook",
                "config_values": {"channel": "ops", "token": SECRET_ACTION, "headers": {SECRET_ACTION: "x"}},
                "config_unknown": {"url": True},
                "config_sensitive": {"token": True, "headers": True},
                "lifecycle_action_trigger": {
                    "triggering_resource_address": f'terraform_data.each["{SECRET_VAR}"]',
                    "action_trigger_event": "AfterCreate",
                    "action_trigger_block_index": 0,
                    "actions_list_index": 0,
                    "on_failure": "ActionOnFailureHalt",
                },
            }
        ],
        "deferred_action_invocations": [
            {
                "reason": "resource_config_unknown",
                "action_invocation": {
                    "address": "action.webhook_send.later",
                    "type": "webhook_send",
                    "name": "later",
                    "config_values": {"token": SECRET_ACTION},
                    "config_unknown": {},
                    "config_sensitive": {"token": True},
                    "invoke_action_trigger": {},
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


def state_document() -> dict[str, Any]:
    """A state in which every state secret is reachable by some check's failure message, unless redacted."""

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
                    {
                        **resource(
                            "terraform_data.copy",
                            {"input": SECRET_STATE_ATTR, "output": SECRET_STATE_ATTR},
                            {"input": True},
                        ),
                        # A resource identity (Terraform 1.12+) holding a copy of a marked value.
                        "identity_schema_version": 0,
                        "identity": {"id": SECRET_STATE_ATTR, "input": "identity-input"},
                    },
                    resource(f'terraform_data.each["{SECRET_STATE_ATTR}"]', {"input": "x"}, {}),
                ]
            },
        },
    }


def config_document() -> dict[str, Any]:
    """A .tf.json configuration whose sensitive variable has a secret default."""
    return {
        "variable": {
            "db_password": {"type": "string", "sensitive": True, "default": SECRET_CONFIG},
            "region": {"type": "string", "default": "eu-west-1"},
        },
        "output": {"db": {"value": "${var.db_password}", "sensitive": True}},
    }
