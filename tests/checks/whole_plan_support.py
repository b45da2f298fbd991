"""A small plan for the whole-plan checks' tables: every verdict, every selector field, secrets planted.

``PLAN`` has buckets whose ``tags["team"]`` is known and right, known and wrong, unknown (itself or
through ``tags``), null (through ``tags``), absent, and sensitive; an object being deleted, a deposed
object, a resource in a module, a data source, a replacement and a move.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from clirun import HERMETIC, Ran, cli

from plancheck import Plan

SECRET = "s3cret-team-9Xq"  # a sensitive tag value
KEY_SECRET = "kms-key-7Hb2vv"  # a sensitive variable's value, used as a for_each key and copied unmarked
AWS = "registry.terraform.io/hashicorp/aws"


def change(
    address: str,
    actions: list[str],
    after: Any,
    *,
    unknown: Any = None,
    sensitive: Any = None,
    before: Any = None,
    **extra: Any,
) -> dict[str, Any]:
    """One resource change; type, name, mode, module and index are read off the address (no dots in keys)."""
    parts = address.split(".")
    mode = "data" if "data" in parts else "managed"
    i = parts.index("data") + 1 if mode == "data" else len(parts) - 2
    module = ".".join(parts[: i - 1] if mode == "data" else parts[:i])
    kind = parts[i]
    name, _, index = parts[i + 1].partition("[")
    doc: dict[str, Any] = {
        "address": address, "mode": mode, "type": kind, "name": name, "provider_name": AWS,
        "change": {"actions": actions, "before": before, "after": after, "after_unknown": unknown or {},
                   "before_sensitive": False if before is None else {}, "after_sensitive": sensitive or {}},
        **extra,
    }
    if module:
        doc["module_address"] = module
    if index:
        key = index.rstrip("]")
        doc["index"] = int(key) if key.isdigit() else key.strip('"')
    return doc


def team(value: Any) -> dict[str, Any]:
    return {"tags": {"team": value}}


CHANGES: list[dict[str, Any]] = [
    change("aws_s3_bucket.a", ["create"], {**team("platform"), "id": None}, unknown={"id": True}),
    change("aws_s3_bucket.b", ["update"], {**team("data"), "id": "b"}, before={**team("platform"), "id": "b"}),
    change("aws_s3_bucket.c", ["create"], {}, unknown={"tags": True, "id": True}),
    change("aws_s3_bucket.d", ["create"], {"tags": None}, unknown={"id": True}),
    change("aws_s3_bucket.e", ["create"], {"tags": {}}, unknown={"id": True}),
    change("aws_s3_bucket.f", ["create"], {"tags": {}}, unknown={"tags": {"team": True}, "id": True}),
    change("aws_s3_bucket.s", ["create"], team(SECRET), unknown={"id": True}, sensitive={"tags": {"team": True}}),
    change(f'aws_s3_bucket.k["{KEY_SECRET}"]', ["create"], {**team("platform"), "kms": KEY_SECRET},
           unknown={"id": True}),
    change("aws_s3_bucket.old", ["delete"], None, before=team("data")),
    {**change("aws_s3_bucket.a", ["delete"], None, before=team("data")), "deposed": "00000001"},
    change("module.net.aws_s3_bucket.n[0]", ["no-op"], {**team("platform"), "id": "n0"},
           before={**team("platform"), "id": "n0"}),
    change("data.aws_s3_bucket.lookup", ["read"], {}, unknown={"tags": True, "id": True}),
    change("aws_instance.web", ["delete", "create"], {"ami": "ami-2", "id": None}, unknown={"id": True},
           before={"ami": "ami-1", "id": "i-1"}, action_reason="replace_because_cannot_update"),
    {**change("aws_instance.moved", ["no-op"], {"ami": "ami-1", "id": "i-2"}, before={"ami": "ami-1", "id": "i-2"}),
     "previous_address": "aws_instance.old_name"},
]


def plan_document() -> dict[str, Any]:
    """The plan (a fresh document each time)."""
    import copy

    return {
        "format_version": "1.2",
        "terraform_version": "1.11.4",
        "variables": {"kms_key": {"value": KEY_SECRET}},
        "configuration": {"root_module": {"variables": {"kms_key": {"sensitive": True}}}},
        "resource_changes": copy.deepcopy(CHANGES),
        "output_changes": {"arn": {"actions": ["create"], "before": None, "after_unknown": True}},
    }


def plan() -> Plan:
    return Plan.from_dict(plan_document())


def run_with_checks(tmp_path: Path, checks: str, *argv: str, plan: dict[str, Any] | None = None,
                    name: str = "checks.toml", today: str | None = None,
                    never: tuple[str, ...] = (SECRET, KEY_SECRET), key: str | None = None) -> Ran:
    """Run ``tfplancheck plan.json -c NAME *argv`` on ``plan`` (:func:`plan_document` unless given) in ``tmp_path``.

    ``checks`` is the text of the checks file ``name``; ``today`` sets ``TFPLANCHECK_TODAY`` (else the run has no
    such setting); no run shows one of ``never``. ``key`` sets ``TFPLANCHECK_SNAPSHOT_KEY``, with which a baseline
    accepts a failure at an instance keyed by a secret. Paths under ``tmp_path`` are shown relative in what it returns.
    """
    (tmp_path / "plan.json").write_text(json.dumps(plan or plan_document()), "utf-8")
    (tmp_path / name).write_text(checks, "utf-8")
    environ = dict(HERMETIC) if today is None else {**HERMETIC, "TFPLANCHECK_TODAY": today}
    if key is not None:
        environ["TFPLANCHECK_SNAPSHOT_KEY"] = key
    code, out, err = cli(str(tmp_path / "plan.json"), "-c", str(tmp_path / name), *argv, environ=environ, never=never)
    return Ran(code, out.replace(str(tmp_path) + "/", ""), err.replace(str(tmp_path) + "/", ""))
