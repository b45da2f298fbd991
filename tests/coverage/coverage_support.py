"""Plans of the coverage fixture tree (tests/fixtures/coverage/tree), as Terraform 1.11 writes them, built in code.

``tree_plan`` follows what ``terraform show -json`` printed for the tree (root, ``./modules/net``): the
variable's validation and the check block are judged in ``checks`` as Terraform judges them; a name of two
characters gives the errored plan Terraform 1.11 writes for a failed validation. ``registry=True`` adds a
call of a registry module (``cloudposse/label/null``) with its configuration, as a plan of a root that
calls one shows it; it is in the plans only (a registry source cannot be installed offline).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TREE = ROOT / "tests" / "fixtures" / "coverage" / "tree"
NET = TREE / "modules" / "net"
MOCK_MODULE = ROOT / "examples" / "mock_module"


def _resource(address: str, module: str | None = None, count: bool = False) -> dict[str, Any]:
    type_, name = address.split(".")
    entry: dict[str, Any] = {"address": address, "mode": "managed", "type": type_, "name": name,
                             "provider_config_key": "terraform", "schema_version": 0}
    if count:
        entry["count_expression"] = {"references": ["var.replicas"]}
    return entry


def _change(address: str, module: str | None, after: dict[str, Any], actions: list[str]) -> dict[str, Any]:
    full = f"{module}.{address}" if module else address
    type_, name = address.split(".")
    entry: dict[str, Any] = {"address": full, "mode": "managed", "type": type_, "name": name,
                             "provider_name": "terraform.io/builtin/terraform",
                             "change": {"actions": actions, "before": None, "after": after,
                                        "after_unknown": {"id": True, "output": True}, "before_sensitive": False,
                                        "after_sensitive": {}}}
    if module:
        entry["module_address"] = module
    return entry


def _check(kind: str, name: str, status: str, module: str | None = None, **extra: str) -> dict[str, Any]:
    address: dict[str, Any] = {"kind": kind, "name": name, **extra}
    display = {"var": f"var.{name}", "check": f"check.{name}", "output_value": f"output.{name}"}.get(
        kind, f"{extra.get('type')}.{name}"
    )
    if module:
        address["module"] = module
        display = f"{module}.{display}"
    address["to_display"] = display
    instance: dict[str, Any] = {"address": {"to_display": display}, "status": status}
    if status == "fail":
        instance["problems"] = [{"message": f"{display} failed"}]
    return {"address": address, "status": status, "instances": [instance]}


def tree_plan(name: str = "web", replicas: int = 1, registry: bool = False, version: str = "1.11.4") -> dict[str, Any]:
    """The tree's plan for ``var.name`` and ``var.replicas`` (a name of 2 characters fails the validation)."""
    valid = len(name) > 2
    changes = [
        _change("terraform_data.app", None, {"input": name, "triggers_replace": None}, ["create"]),
        *([_change("terraform_data.spare[0]", None, {"input": f"{name}-spare"}, ["create"])] if replicas > 1 else []),
        _change("terraform_data.vpc", "module.net", {"input": "10.0.0.0/16", "triggers_replace": None}, ["create"]),
    ]
    if not valid:  # Terraform stops at the validation: it plans the child module only
        changes = changes[-1:]
    calls: dict[str, Any] = {"net": {"source": "./modules/net", "expressions": {"cidr": {"constant_value": "10.0.0.0/16"}},
                                     "module": {"outputs": {"vpc_id": {"expression": {"references": ["terraform_data.vpc"]}}},
                                                "resources": [_resource("terraform_data.vpc")],
                                                "variables": {"cidr": {}}}}}
    if registry:
        calls["label"] = {"source": "cloudposse/label/null", "version_constraint": "0.25.0",
                          "module": {"outputs": {"id": {"expression": {}}}, "variables": {"name": {}, "stage": {}},
                                     "resources": [_resource("terraform_data.this")]}}
        changes.append(_change("terraform_data.this", "module.label", {"input": name}, ["create"]))
    checks = [
        _check("check", "name_is_web", ("pass" if name == "web" else "fail") if valid else "unknown"),
        _check("resource", "vpc", "pass", "module.net", mode="managed", type="terraform_data"),
        _check("var", "name", "pass" if valid else "fail"),
    ]
    plan: dict[str, Any] = {
        "format_version": "1.2",
        "terraform_version": version,
        "variables": {"name": {"value": name}, "replicas": {"value": replicas}},
        "planned_values": {"root_module": {"child_modules": [{"address": "module.net", "resources": []}]}},
        "resource_changes": changes,
        "configuration": {"root_module": {
            "outputs": {"app_id": {"expression": {"references": ["terraform_data.app.id", "terraform_data.app"]}}},
            "resources": [_resource("terraform_data.app"), _resource("terraform_data.spare", count=True)],
            "module_calls": calls,
            "variables": {"name": {"default": "web"}, "replicas": {"default": 1}},
        }},
        "checks": checks,
        "errored": not valid,
    }
    if valid:
        plan["output_changes"] = {"app_id": {"actions": ["create"], "before": None, "after_unknown": True,
                                             "before_sensitive": False, "after_sensitive": False}}
    if tuple(int(part) for part in version.split(".")[:2]) < (1, 5):
        del plan["checks"]
    return plan
