"""The command line's checks reach the coverage watchers as the checks they are, as assert_plan's do."""

from __future__ import annotations

from typing import Any

import pytest

from plancheck import Plan
from plancheck._documents.met import watch
from plancheck._plugin.coverage.session import targets
from plancheck.cli._checksfile import parse_checks, run_checks
from plancheck.cli._registry import default_registry

PLAN = {
    "format_version": "1.2",
    "resource_changes": [
        {"address": "null_resource.a", "mode": "managed", "type": "null_resource", "name": "a",
         "change": {"actions": ["create"], "before": None, "after": {"triggers": {"k": "v"}}, "after_unknown": {}}},
    ],
    "planned_values": {"outputs": {"ip": {"sensitive": False, "value": "10.0.0.1"}}},
    "output_changes": {"ip": {"actions": ["create"], "before": None, "after": "10.0.0.1", "after_unknown": False}},
}


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ('type = "ExpectUnknownValue"\naddress = "null_resource.a"\npath = \'triggers["k"]\'',
         [("resource", "null_resource.a", 'triggers["k"]')]),
        ('type = "ExpectKnownOutputValue"\nname = "ip"\nmatcher = { type = "StringExact", value = "10.0.0.1" }',
         [("output", "ip", None)]),
    ],
    ids=["resource-value", "output"],
)
def test_a_watcher_is_told_of_each_check_itself(entry: str, expected: list[Any]) -> None:
    plan = Plan.from_dict(PLAN)
    specs = parse_checks(f"[[check]]\n{entry}\n", "checks.toml", default_registry())
    seen: list[Any] = []
    stop = watch(lambda event, document, check: seen.append((event, document, check)))
    try:
        run_checks(specs, plan)
    finally:
        stop()
    assert [(event, document) for event, document, _ in seen] == [("checked", plan)]
    assert seen[0][2] is specs[0].check
    assert targets(seen[0][2], plan) == expected
