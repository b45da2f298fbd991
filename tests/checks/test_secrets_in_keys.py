"""Secrets that sit in keys rather than values: map keys in paths, non-string keys, deposed keys."""

from __future__ import annotations

import pytest

from plancheck import ExpectKnownValue, ExpectSensitiveValue, Plan, PlanCheckError, Secrets, assert_plan
from plancheck import knownvalue as kv
from tfjsonpath import New

SECRET = "zz-key-secret-4f2a"


def _plan(after: dict[str, object], after_sensitive: object, deposed: str | None = None) -> Plan:
    change: dict[str, object] = {"actions": ["create"], "after": after, "after_sensitive": after_sensitive}
    entry: dict[str, object] = {"address": f'null_resource.fe["{SECRET}"]', "change": change}
    if deposed is not None:
        entry["deposed"] = deposed
    return Plan.from_dict({
        "format_version": "1.2",
        "variables": {"k": {"value": SECRET}},
        "configuration": {"root_module": {"variables": {"k": {"sensitive": True}}}},
        "resource_changes": [entry],
    })


def test_a_secret_map_key_in_a_check_path_is_redacted() -> None:
    plan = _plan({"t": {SECRET: "v"}}, {})
    with pytest.raises(PlanCheckError) as info:
        assert_plan(plan, ExpectKnownValue(f'null_resource.fe["{SECRET}"]', New("t").AtMapKey(SECRET),
                                           kv.StringExact("w")))
    text = str(info.value)
    assert SECRET not in text
    assert text == (
        'ExpectKnownValue: null_resource.fe["(sensitive)"]: t["(sensitive)"]: '
        'expected value "w" for StringExact check, got: "v"'
    )
    assert info.value.failures[0].path == New("t").AtMapKey(SECRET)  # the real path stays available


def test_a_non_string_key_cannot_escape_its_marks() -> None:
    plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [{
        "address": "a.b",
        "change": {"actions": ["create"], "after": {"m": {1: "hunter22"}}, "after_sensitive": {"m": {"1": True}}},
    }]})
    assert "hunter22" in plan.secrets
    with pytest.raises(PlanCheckError) as info:
        assert_plan(plan, ExpectSensitiveValue("a.b", New("m")))
    assert "hunter22" not in str(info.value)


def test_a_deposed_key_is_redacted_in_reprs() -> None:
    plan = _plan({}, {}, deposed=SECRET)
    change = plan.resource_change(f'null_resource.fe["{SECRET}"]', deposed=SECRET)
    assert SECRET not in repr(change)
    assert repr(change) == '<ResourceChange null_resource.fe["(sensitive)"] deposed=\'(sensitive)\' actions=[\'create\']>'


def test_secrets_union_with_a_foreign_type_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        Secrets(["abc"]) | {"abc"}  # type: ignore[operator]
