"""Laws of the whole-plan checks, on generated plans.

* ExpectActionCounts with the counts read off a plan passes; off by one in any count, it fails on that count alone.
* ExpectEach* verdicts partition the checked resources: failed + unknown + passed = checked, each resource in one
  group, whatever ``unknown=`` says; ``"pass"`` and ``"warn"`` fail on the same resources, ``"warn"`` warns about
  exactly the unknown group ``"fail"`` fails on.
* ExpectNoDestroys fails once per object with a delete in its actions; ExpectCount of everything passes.
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck import (
    ExpectActionCounts,
    ExpectCount,
    ExpectEachKnownValue,
    ExpectEachNullValue,
    ExpectNoDestroys,
    Plan,
    Resources,
)
from plancheck import knownvalue as kv
from tfjsonpath import New

ACTIONS = [["no-op"], ["create"], ["read"], ["update"], ["delete"], ["delete", "create"], ["create", "delete"],
           ["forget"], ["create", "forget"]]
CATEGORY = {("no-op",): ["noop"], ("create",): ["create"], ("read",): ["read"], ("update",): ["update"],
            ("delete",): ["delete"], ("delete", "create"): ["replace"], ("create", "delete"): ["replace"],
            ("forget",): ["forget"], ("create", "forget"): ["create", "forget"]}
# What the value at "v" is: known and matching, known and not, null, absent, unknown, sensitive and matching.
VALUES = ["match", "other", "null", "absent", "unknown", "unknown-parent", "sensitive"]


@st.composite
def plans(draw: Any) -> tuple[Plan, list[dict[str, Any]]]:
    count = draw(st.integers(0, 12))
    changes: list[dict[str, Any]] = []
    for i in range(count):
        actions = draw(st.sampled_from(ACTIONS))
        kind = draw(st.sampled_from(["v", "a", "b"]))
        value = draw(st.sampled_from(VALUES))
        deposed = actions == ["delete"] and draw(st.booleans()) and changes
        address = changes[-1]["address"] if deposed else f"{kind}_thing.r{i}"
        after: Any = None if actions in (["delete"], ["forget"]) else {}
        unknown: dict[str, Any] = {}
        sensitive: dict[str, Any] = {}
        if after is not None:
            if value in ("match", "sensitive"):
                after["v"] = "yes"
            elif value == "other":
                after["v"] = "no"
            elif value == "null":
                after["v"] = None
            elif value == "unknown":
                unknown["v"] = True
            elif value == "unknown-parent":
                unknown = True  # type: ignore[assignment]
            if value == "sensitive":
                sensitive["v"] = True
        rc = {"address": address, "mode": "managed", "type": f"{kind}_thing", "name": address.split(".")[1],
              "change": {"actions": actions, "after": after, "after_unknown": unknown, "after_sensitive": sensitive}}
        if deposed:
            rc["deposed"] = f"{i:08x}"
        changes.append(rc)
    return Plan.from_dict({"format_version": "1.2", "resource_changes": changes}), changes


def _counts(changes: list[dict[str, Any]]) -> dict[str, int]:
    found = dict.fromkeys(["create", "update", "delete", "replace", "noop", "read", "forget"], 0)
    for rc in changes:
        for name in CATEGORY[tuple(rc["change"]["actions"])]:
            found[name] += 1
    return found


@settings(max_examples=100, deadline=None)
@given(plans(), st.sampled_from(["create", "update", "delete", "replace", "noop", "read", "forget"]))
def test_counts_read_off_a_plan_pass_and_one_off_fails_that_count_alone(drawn: Any, off: str) -> None:
    plan, changes = drawn
    counts = _counts(changes)
    assert ExpectActionCounts(**counts).failures(plan) == []
    wrong = {**counts, off: counts[off] + 1}
    found = ExpectActionCounts(**wrong).failures(plan)
    assert [f.message.split(",")[0] for f in found] == [
        f"expected {counts[off] + 1} {'unchanged (no-op)' if off == 'noop' else 'to ' + off}"]
    assert found[0].message.startswith(f"expected {counts[off] + 1} ")
    assert f"got {counts[off]}" in found[0].message


def _groups(message: str) -> tuple[int, int, int]:
    """(failed, unknown, checked) read off an ExpectEach message."""
    failed = re.search(r"(\d+) of (\d+) failed", message)
    unknown = re.search(r"(\d+) of (\d+) unknown until apply", message)
    totals = {int(m.group(2)) for m in (failed, unknown) if m}
    assert len(totals) <= 1
    return (int(failed.group(1)) if failed else 0, int(unknown.group(1)) if unknown else 0,
            totals.pop() if totals else -1)


@settings(max_examples=150, deadline=None)
@given(plans())
def test_each_verdicts_partition_the_checked_resources(drawn: Any) -> None:
    plan, changes = drawn
    checked = [rc for rc in changes if rc["change"]["after"] is not None and "deposed" not in rc]
    expected_failed = sum(1 for rc in checked if rc["change"]["after"].get("v", "absent") != "yes"
                          and rc["change"]["after_unknown"] is not True and "v" not in rc["change"]["after_unknown"])
    expected_unknown = sum(1 for rc in checked if rc["change"]["after_unknown"] is True
                           or "v" in rc["change"]["after_unknown"])
    outcomes = {mode: ExpectEachKnownValue(Resources(), New("v"), kv.StringExact("yes"), unknown=mode).outcome(plan)
                for mode in ("fail", "pass", "warn")}
    if not checked:
        for found, warned in outcomes.values():
            assert len(found) == 1
            assert found[0].message.startswith("selects no resource")
            assert warned == []
        return
    fail_found, fail_warned = outcomes["fail"]
    assert fail_warned == []
    if fail_found:
        failed, unknown, total = _groups(fail_found[0].message)
        assert total == len(checked)
        assert (failed, unknown) == (expected_failed, expected_unknown)
    else:
        assert expected_failed == expected_unknown == 0
    pass_found, pass_warned = outcomes["pass"]
    warn_found, warn_warned = outcomes["warn"]
    assert pass_warned == []
    assert [f.message for f in pass_found] == [f.message for f in warn_found]
    assert len(pass_found) == (1 if expected_failed else 0)
    assert len(warn_warned) == (1 if expected_unknown else 0)
    if expected_unknown:
        assert warn_warned[0].record is not None
        assert warn_warned[0].record.message in fail_found[0].message


@settings(max_examples=100, deadline=None)
@given(plans())
def test_null_check_partition(drawn: Any) -> None:
    plan, changes = drawn
    checked = [rc for rc in changes if rc["change"]["after"] is not None and "deposed" not in rc]
    if not checked:
        return
    found, _ = ExpectEachNullValue(Resources(), New("v")).outcome(plan)
    nulls = sum(1 for rc in checked if "v" in rc["change"]["after"] and rc["change"]["after"]["v"] is None)
    unknown = sum(1 for rc in checked if rc["change"]["after_unknown"] is True or "v" in rc["change"]["after_unknown"])
    failed, unknown_found, total = _groups(found[0].message) if found else (0, 0, len(checked))
    assert (failed + unknown_found + nulls, unknown_found, total) == (len(checked), unknown, len(checked))


@settings(max_examples=100, deadline=None)
@given(plans())
def test_no_destroys_fails_once_per_destroyed_object_and_count_of_everything_passes(drawn: Any) -> None:
    plan, changes = drawn
    destroyed = sum(1 for rc in changes if "delete" in rc["change"]["actions"])
    assert len(ExpectNoDestroys().failures(plan)) == destroyed
    assert ExpectNoDestroys(except_="*").failures(plan) == []
    current = sum(1 for rc in changes if "deposed" not in rc)
    assert ExpectCount(Resources(), current).failures(plan) == []
