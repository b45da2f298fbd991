"""Reading every resource change of a lazily parsed plan at once (what whole-plan checks do) parses them in one
call, with exactly the values and the errors reading them one by one gives."""

from __future__ import annotations

from typing import Any

import pytest
from loading_support import dumps, exactly_equal, load_by, route

from plancheck import Plan
from plancheck._errors import PlanFormatError
from plancheck._loading.lazy import LazyEntries


def _rc(i: int, **change: Any) -> dict[str, Any]:
    return {"address": f"null_resource.r{i}", "mode": "managed", "type": "null_resource", "name": f"r{i}",
            "change": {"actions": ["create"], "after": {"n": i, "f": 1.5}, "after_unknown": {"id": True}, **change}}


def _plan(changes: list[dict[str, Any]]) -> bytes:
    return dumps({"format_version": "1.2", "resource_changes": changes})


def _lazy(data: bytes) -> Plan:
    with route("fast-lazy") as parser:
        return Plan.from_json(data, source="plan.json", parser=parser)


def test_all_at_once_gives_what_one_by_one_gives_and_keeps_what_was_read() -> None:
    data = _plan([_rc(i) for i in range(50)])
    plan = _lazy(data)
    entries = plan._entries
    assert isinstance(entries, LazyEntries)
    early = plan.resource_change("null_resource.r7").raw
    everything = [rc.raw for rc in plan.resource_changes]
    assert everything[7] is early
    expected = load_by("stdlib", data)
    assert isinstance(expected, Plan)
    assert exactly_equal(everything, list(expected.raw["resource_changes"]))
    assert repr(entries) == "<LazyEntries 50 entries, 50 parsed>"


BAD = [
    pytest.param({"after_sensitive": {"n": 1}}, "$.resource_changes[3].change.after_sensitive.n", id="malformed-marks"),
    pytest.param({"after_unknown": "true"}, "$.resource_changes[3].change.after_unknown", id="marks-not-a-tree"),
    pytest.param({"after": {"n": "HUGE"}}, "$.resource_changes[3].change.after.n",
                 id="number-no-decimal-holds"),
    # In a member the split reads at load (replace_paths): found by the fuzz test, it raised InvalidOperation.
    pytest.param({"replace_paths": [["HUGE", "a"]]}, "$.resource_changes[3].change.replace_paths[0][0]",
                 id="number-no-decimal-holds-read-at-load"),
]


@pytest.mark.parametrize(("change", "location"), BAD)
def test_a_bad_entry_raises_the_error_reading_it_alone_raises(change: dict[str, Any], location: str) -> None:
    changes = [_rc(i) for i in range(6)]
    changes[3] = _rc(3, **change)
    text = _plan(changes).replace(b'"HUGE"', b"1e999999999999999999999")
    with pytest.raises(PlanFormatError) as alone:
        _lazy(text).resource_change("null_resource.r3")
    with pytest.raises(PlanFormatError) as together:
        _lazy(text).resource_changes  # noqa: B018 - reading them is the point
    assert str(together.value) == str(alone.value)
    assert together.value.location == location
