"""One walk puts the unknown parts into a value for showing it: the checks' messages and the CLI's ``query``.

``with_unknowns`` (plancheck/_redact.py) is the walk both use (they had one each, which disagreed
where the marks name more than the value holds). Terraform leaves an unknown attribute out of
``after`` and writes an unknown list element as null, or leaves a list short: every place the marks
call unknown shows as unknown, in order.
"""

from __future__ import annotations

from typing import Any

import pytest

from plancheck import ExpectUnknownValue, Plan
from plancheck._checking import match
from plancheck._redact import Marks, with_unknowns
from plancheck.cli import _query
from tfjsonpath import Path

P = "?"


@pytest.mark.parametrize(
    ("value", "unknown", "shown"),
    [
        pytest.param({"a": 1}, None, {"a": 1}, id="no-marks"),
        pytest.param("x", True, P, id="whole-value"),
        pytest.param({"a": 1}, {"id": True}, {"a": 1, "id": P}, id="attribute-left-out"),
        pytest.param({"a": 1}, {"z": True, "b": True}, {"a": 1, "z": P, "b": P}, id="keys-added-in-marks-order"),
        pytest.param([None, "k"], [True, False], [P, "k"], id="element-written-null"),
        pytest.param(["k"], [False, True, True], ["k", P, P], id="list-left-short"),
        pytest.param({}, {"block": {"id": True}}, {"block": {"id": P}}, id="nested-block-left-out"),
        pytest.param({"t": ("a", None)}, {"t": [False, True]}, {"t": ["a", P]}, id="a-tuple-is-an-array"),
        pytest.param({"a": "x"}, {"a": [True]}, {"a": P}, id="array-marks-over-a-string-fail-closed"),
        pytest.param({"a": "x"}, {"a": "true"}, {"a": P}, id="malformed-mark-fails-closed"),
        pytest.param({"a": ["x"]}, {"a": {"b": False}}, {"a": ["x"]}, id="object-marks-over-an-array-without-a-mark"),
    ],
)
def test_with_unknowns(value: Any, unknown: Marks, shown: Any) -> None:
    before = repr(value)
    assert with_unknowns(value, unknown, P) == shown
    assert repr(value) == before  # nothing passed in is changed


def test_only_the_way_to_a_mark_is_copied() -> None:
    kept = {"deep": [1, 2]}
    shown = with_unknowns({"kept": kept, "b": {}}, {"b": {"id": True}}, P)
    assert shown["kept"] is kept


@pytest.mark.parametrize("module", [match, _query], ids=["checks", "cli"])
def test_the_checks_and_the_cli_share_the_walk(module: Any) -> None:
    assert module.with_unknowns is with_unknowns


@pytest.mark.parametrize(
    ("after", "unknown", "shown"),
    [
        pytest.param({"a": "x"}, {"b": {"id": True}}, '{"a": "x", "b": {"id": <unknown>}}', id="block-left-out"),
        pytest.param({"l": ["k"]}, {"l": [False, True]}, '{"l": ["k", <unknown>]}', id="list-left-short"),
    ],
)
def test_a_failing_check_shows_every_unknown_part(after: Any, unknown: Marks, shown: str) -> None:
    plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [{
        "address": "t.a", "mode": "managed", "type": "t", "name": "a",
        "change": {"actions": ["create"], "after": after, "after_unknown": unknown},
    }]})
    with pytest.raises(AssertionError) as failed:
        ExpectUnknownValue("t.a", Path()).CheckPlan(plan)
    assert str(failed.value).endswith("known, with unknown parts: " + shown)
