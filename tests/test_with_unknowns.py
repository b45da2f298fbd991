"""One walk puts the unknown parts into a value for showing it: the checks' messages and the CLI's ``query``.

``with_unknowns`` (plancheck/_redact.py) is the walk both use (they had one each, which disagreed
where the marks name more than the value holds). Terraform leaves an unknown attribute out of
``after`` and writes an unknown list element as null, or leaves a list short: every place the marks
call unknown shows as unknown, in order.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path as FsPath
from typing import Any

import pytest
from clirun import cli

from plancheck import ExpectNoValue, ExpectSensitiveValue, ExpectUnknownValue, Plan, resolve_value
from plancheck._documents import resolve
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


@pytest.mark.parametrize("module", [resolve, _query], ids=["checks", "cli"])
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


#: A planned value with a known part ("env") and an unknown one ("owner"), and a secret ("pw") the wording never shows.
_PARTLY = {"format_version": "1.2", "resource_changes": [{
    "address": "t.a", "mode": "managed", "type": "t", "name": "a",
    "change": {"actions": ["create"], "after": {"tags": {"env": "prod", "pw": "hunter2"}},
               "after_unknown": {"tags": {"owner": True}}, "after_sensitive": {"tags": {"pw": True}}},
}]}  # fmt: skip


def _failure(check: Any) -> str:
    with pytest.raises(AssertionError) as failed:
        check.CheckPlan(Plan.from_dict(_PARTLY))
    return str(failed.value)


def _query(tmp_path: FsPath) -> str:
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(_PARTLY), "utf-8")
    return cli("query", str(plan), "t.a", "tags", never=["hunter2"]).out


_SHOWN = '{"env": "prod", "pw": (sensitive), "owner": <unknown>}'


@pytest.mark.parametrize(
    ("say", "said"),
    [
        pytest.param(lambda _: _failure(ExpectUnknownValue("t.a", Path().AtMapKey("tags"))),
                     "ExpectUnknownValue: t.a: tags: expected an unknown value, but it is known, with unknown parts: "
                     + _SHOWN, id="check-ExpectUnknownValue"),
        pytest.param(lambda _: _failure(ExpectNoValue("t.a", Path().AtMapKey("tags"))),
                     "ExpectNoValue: t.a: tags: expected no value, but it is known, with unknown parts: " + _SHOWN,
                     id="check-ExpectNoValue"),
        pytest.param(lambda _: _failure(ExpectSensitiveValue("t.a", Path().AtMapKey("tags"))),
                     "ExpectSensitiveValue: t.a: tags: expected a sensitive value, but only parts of it are sensitive: "
                     + _SHOWN, id="check-ExpectSensitiveValue-parts"),
        pytest.param(lambda _: resolve_value(_PARTLY["resource_changes"][0]["change"], path=Path().AtMapKey("tags"),
                                             side="after").describe(),
                     "known, with unknown parts: " + _SHOWN, id="ResolvedValue.describe"),
        pytest.param(lambda tmp_path: _query(tmp_path).splitlines()[1], "  status:    known, with unknown parts",
                     id="cli-query-status"),
    ],
)
def test_a_partly_unknown_value_has_one_wording(say: Callable[[FsPath], str], said: str, tmp_path: FsPath) -> None:
    """Before: ResolvedValue.describe and query said "known: ... (with unknown elements)", the checks
    "known, with unknown parts: ..."; now every one says the checks' words, and shows where the unknown parts are."""
    assert say(tmp_path) == said
