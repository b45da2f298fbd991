"""Plans for the snapshot tests: one resource change (or output) per shape a snapshot must tell apart."""

from __future__ import annotations

import copy
from typing import Any

from plancheck import Plan

#: A key long enough for fingerprints (a CI secret in real use).
KEY = "snapshot-test-key-0123456789abcdef"
SECRET_VAR = "snap-var-Q7w2zz"  # a sensitive variable, copied into a plain attribute and a for_each key
SECRET_ATTR = "snap-attr-K4p8zz"  # a value under a sensitive mark
SECRET_OUT = "snap-out-M3x6zz"  # a sensitive output
SECRET_KEY = "snap-mapkey-R5t1zz"  # a map key under a sensitive mark
PLANTED = {"var": SECRET_VAR, "attr": SECRET_ATTR, "output": SECRET_OUT, "map-key": SECRET_KEY}


def change(address: str, actions: list[str], after: Any, unknown: Any = None, sensitive: Any = None,
           **extra: Any) -> dict[str, Any]:
    """A resource change entry (managed unless the address says data)."""
    kind, _, rest = address.removeprefix("data.").partition(".")
    entry: dict[str, Any] = {
        "address": address,
        "mode": "data" if address.startswith("data.") else "managed",
        "type": kind,
        "name": rest.split("[")[0],
        "provider_name": "registry.terraform.io/hashicorp/null",
        "change": {"actions": actions, "before": None, "after": after, "after_unknown": unknown or {},
                   "before_sensitive": False, "after_sensitive": sensitive or {}},
    }
    for key in ("replace_paths",):
        if key in extra:
            entry["change"][key] = extra.pop(key)
    entry.update(extra)
    return entry


def plan_of(*changes: dict[str, Any], outputs: dict[str, Any] | None = None, **extra: Any) -> Plan:
    """A plan (format 1.2) of these resource changes and output changes."""
    document: dict[str, Any] = {"format_version": "1.2", "terraform_version": "1.11.4",
                                "resource_changes": list(changes)}
    if outputs is not None:
        document["output_changes"] = outputs
    document.update(extra)
    return Plan.from_dict(document)


def output(after: Any, *, unknown: Any = False, sensitive: Any = False, actions: tuple[str, ...] = ("create",)) -> dict[str, Any]:
    """An output change."""
    return {"actions": list(actions), "before": None, "after": after, "after_unknown": unknown,
            "before_sensitive": False, "after_sensitive": sensitive}


def secret_document() -> dict[str, Any]:
    """A plan with every planted secret, each where a snapshot could show it unless redacted."""
    return {
        "format_version": "1.2",
        "terraform_version": "1.11.4",
        "variables": {"db_password": {"value": SECRET_VAR}, "region": {"value": "eu-west-1"}},
        "configuration": {"root_module": {"variables": {"db_password": {"sensitive": True}},
                                          "outputs": {"token": {"sensitive": True}}}},
        "resource_changes": [
            change("aws_db_instance.db", ["update"],
                   {"password": SECRET_ATTR, "name": "db", "copy": f"postgres://app:{SECRET_VAR}@db/app",
                    "settings": {"token": SECRET_ATTR, "mode": "b"}, "labels": {SECRET_KEY: "v", "team": "x"},
                    "plain_copy": SECRET_ATTR},
                   {"arn": True},
                   {"password": True, "settings": {"token": True}, "labels": True},
                   replace_paths=[["name"], ["tags", SECRET_VAR]]),
            change(f'terraform_data.each["{SECRET_VAR}"]', ["create"], {"input": "x"}, {"id": True}, {},
                   index=SECRET_VAR),
            change("terraform_data.copy", ["update"], {"input": SECRET_VAR, "output": SECRET_VAR}, {}, {"input": True},
                   previous_address=f'terraform_data.old["{SECRET_VAR}"]'),
        ],
        "output_changes": {
            "token": output(SECRET_OUT, sensitive=True),
            "echo": output({"copy": SECRET_OUT, "var": SECRET_VAR, "ok": "fine"}),
        },
        "prior_state": {"format_version": "1.0", "values": {"root_module": {"resources": [
            {"address": "data.vault_secret.db", "mode": "data", "type": "vault_secret", "name": "db",
             "provider_name": "registry.terraform.io/hashicorp/vault",
             "values": {"path": "kv/db", "data": {"pw": SECRET_ATTR}}, "sensitive_values": {"data": True}},
        ]}}},
    }


def with_secret(document: dict[str, Any], **replace: Any) -> dict[str, Any]:
    """A deep copy of ``document`` with top-level keys replaced."""
    copied = copy.deepcopy(document)
    copied.update(replace)
    return copied
