"""A value marked sensitive on either side of a comparison is ``(sensitive)`` on both sides.

One table for every place the library shows two values side by side: drift (``before`` and
``after`` of ``resource_drift``), the command line's ``query --before``, snapshot diffs (two
plans, a plan and a snapshot text, a plan and its file, through syrupy), comparers and a
resource identity against its state. In each row a secret is planted on the side that does NOT
mark it (the other side marks the same path), so it is no known secret by value: only the union
of both sides' marks can hide it. ``reveals`` rows prove it with redaction turned off.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from clirun import cli
from secret_shapes import leaks

from plancheck import ExpectDrift, ExpectNoDrift, Plan, revealing_sensitive, snapshot
from plancheck import compare as cmp
from plancheck import statecheck as sc
from plancheck._documents.state import State
from tfjsonpath import New

OLD = "zzOLDq7w-x41a-plt9"  # on the side that does not mark it
NEW = "zzNEWk3m-z93c-qrt5"  # on the side that marks it
PLANTED = {"old": OLD, "new": NEW}
ADDRESS = "aws_db_instance.db"


def _drift_plan(before_marks: object, after_marks: object, before: object = OLD, after: object = NEW) -> Plan:
    """A plan whose drift changed ``pw``, marked as given (a provider upgrade marks it in ``after`` only)."""
    return Plan.from_dict({
        "format_version": "1.2",
        "resource_drift": [{
            "address": ADDRESS, "mode": "managed", "type": "aws_db_instance", "name": "db",
            "change": {"actions": ["update"], "before": {"pw": before, "name": "a"}, "after": {"pw": after, "name": "b"},
                       "after_unknown": {}, "before_sensitive": before_marks, "after_sensitive": after_marks},
        }],
        "resource_changes": [{
            "address": ADDRESS, "mode": "managed", "type": "aws_db_instance", "name": "db",
            "change": {"actions": ["update"], "before": {"pw": OLD, "name": "a"}, "after": {"pw": NEW, "name": "b"},
                       "after_unknown": {}, "before_sensitive": {}, "after_sensitive": {"pw": True}},
        }],
    })


def _failure_text(check: object, plan: Plan) -> str:
    with pytest.raises(AssertionError) as info:
        check.CheckPlan(plan)  # type: ignore[attr-defined]
    return str(info.value) + repr(info.value)


def _query(tmp_path: Path, *argv: str) -> str:
    file = tmp_path / "plan.json"
    file.write_text(json.dumps(_drift_plan({}, {"pw": True}).raw), "utf-8")
    _, out, err = cli("query", str(file), *argv, stdin=None)
    return out + err


def _snapshot_plan(pw: str, marked: bool) -> Plan:
    return Plan.from_dict({
        "format_version": "1.2",
        "resource_changes": [{
            "address": ADDRESS, "mode": "managed", "type": "aws_db_instance", "name": "db",
            "change": {"actions": ["create"], "before": None, "after": {"pw": pw, "tags": {"k": pw}},
                       "after_unknown": {}, "after_sensitive": {"pw": True, "tags": True} if marked else {}},
        }],
    })


def _hand_edited(tmp_path: Path) -> Path:
    """A snapshot file of the marking plan, with the secret's old value typed in clear where it is marked."""
    file = tmp_path / "plan.snap"
    snapshot.assert_matches(_snapshot_plan(NEW, True), file, update=True)
    text = file.read_text("utf-8").replace("pw = (sensitive)", f"pw = {json.dumps(OLD)}")
    file.write_text(text.replace("tags = (sensitive)", f'tags["k"] = {json.dumps(OLD)}'), "utf-8")
    return file


def _keyed_plan(key: str, marked: bool, *, unknown: bool = False) -> Plan:
    """A plan whose ``tags`` map has the key ``key`` (its value ``"v"``, or unknown): the whole map marked on one side only."""
    return Plan.from_dict({
        "format_version": "1.2",
        "resource_changes": [{
            "address": ADDRESS, "mode": "managed", "type": "aws_db_instance", "name": "db",
            "change": {"actions": ["create"], "before": None, "after": {"tags": {key: None if unknown else "v"}},
                       "after_unknown": {"tags": {key: True}} if unknown else {},
                       "after_sensitive": {"tags": True} if marked else {}},
        }],
    })


def _hand_edited_key(tmp_path: Path) -> str:
    """The mismatch of the marking plan with its file, a key of the marked map typed in clear."""
    file = tmp_path / "plan.snap"
    snapshot.assert_matches(_keyed_plan(NEW, True), file, update=True)
    file.write_text(file.read_text("utf-8").replace("tags = (sensitive)", f'tags[{json.dumps(OLD)}] = "v"'), "utf-8")
    with pytest.raises(snapshot.SnapshotMismatchError) as info:
        snapshot.assert_matches(_keyed_plan(NEW, True), file)
    return str(info.value) + repr(info.value)


def _mismatch(tmp_path: Path) -> str:
    with pytest.raises(snapshot.SnapshotMismatchError) as info:
        snapshot.assert_matches(_snapshot_plan(NEW, True), _hand_edited(tmp_path))
    return str(info.value) + repr(info.value)


def _compare(marks: list[object]) -> str:
    with pytest.raises(AssertionError) as info:
        cmp.ValuesSame().CompareValues([OLD, NEW], sensitive=marks)
    return str(info.value)


def _identity_against_state() -> str:
    state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [{
        "address": ADDRESS, "mode": "managed", "type": "aws_db_instance", "name": "db",
        "values": {"pw": NEW}, "sensitive_values": {"pw": True},
        "identity_schema_version": 0, "identity": {"pw": OLD}}]}}})
    with pytest.raises(AssertionError) as info:
        sc.ExpectIdentityValueMatchesState(ADDRESS, New("pw")).CheckState(state)
    return str(info.value)


@dataclass(frozen=True)
class Row:
    id: str
    text: Callable[[Path], str]
    reveals: bool  # with redaction off, the unmarked side shows (the row proves the union, not an absence)


ROWS = [
    Row("drift-marked-after-only", lambda _: _failure_text(ExpectNoDrift(), _drift_plan({}, {"pw": True})), True),
    Row("drift-marked-before-only", lambda _: _failure_text(ExpectNoDrift(), _drift_plan({"pw": True}, {}, NEW, OLD)),
        True),
    Row("drift-listing-of-expect-drift",
        lambda _: _failure_text(ExpectDrift(ADDRESS, New("nope")), _drift_plan(False, {"pw": True})), True),
    Row("drift-map-marked-after-only",
        lambda _: _failure_text(ExpectNoDrift(), _drift_plan({}, {"pw": True}, {"k": OLD}, {"k": NEW})), True),
    Row("cli-query-before", lambda tmp: _query(tmp, ADDRESS, "pw", "--before"), True),
    Row("cli-query-before-whole", lambda tmp: _query(tmp, ADDRESS, "--before"), True),
    Row("cli-query-before-json", lambda tmp: _query(tmp, ADDRESS, "--before", "--format", "json"), True),
    Row("snapshot-diff-plans", lambda _: "\n".join(snapshot.diff(_snapshot_plan(OLD, False), _snapshot_plan(NEW, True))),
        False),
    Row("snapshot-diff-plans-unmarked-after",
        lambda _: "\n".join(snapshot.diff(_snapshot_plan(NEW, True), _snapshot_plan(OLD, False))), False),
    Row("snapshot-diff-text", lambda tmp: "\n".join(snapshot.diff(_hand_edited(tmp), _snapshot_plan(NEW, True))), False),
    Row("snapshot-hand-edited-file", _mismatch, False),
    # A key of a map the other side marks was shown in clear in its path ("- tags["<old key>"] = (sensitive, unmarked)"):
    # only its value was hidden, though a marked map's keys are as secret as its values.
    Row("snapshot-diff-plans-map-key", lambda _: "\n".join(snapshot.diff(_keyed_plan(OLD, False), _keyed_plan(NEW, True))),
        False),
    Row("snapshot-diff-plans-map-key-unmarked-after",
        lambda _: "\n".join(snapshot.diff(_keyed_plan(NEW, True), _keyed_plan(OLD, False))), False),
    Row("snapshot-hand-edited-file-map-key", _hand_edited_key, False),
    # An unknown value holds no secret, but its path still names the key of the map the other side marks.
    Row("snapshot-diff-plans-map-key-of-an-unknown",
        lambda _: "\n".join(snapshot.diff(_keyed_plan(OLD, False, unknown=True), _keyed_plan(NEW, True))), False),
    Row("snapshot-diff-plans-map-key-of-an-unknown-after",
        lambda _: "\n".join(snapshot.diff(_keyed_plan(NEW, True), _keyed_plan(OLD, False, unknown=True))), False),
    Row("compare-marked-second", lambda _: _compare([None, True]), True),
    Row("compare-marked-first", lambda _: _compare([True, None]), True),
    Row("identity-vs-state", lambda _: _identity_against_state(), True),
]


@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_a_value_marked_on_either_side_is_hidden_on_both(row: Row, tmp_path: Path) -> None:
    text = row.text(tmp_path)
    assert leaks(text, PLANTED) == [], text
    assert "(sensitive" in text


@pytest.mark.parametrize("row", [r for r in ROWS if r.reveals], ids=[r.id for r in ROWS if r.reveals])
def test_the_row_would_show_the_unmarked_side_without_redaction(row: Row, tmp_path: Path) -> None:
    with revealing_sensitive():
        text = row.text(tmp_path)
    assert "old" in leaks(text, PLANTED), text


PINNED = [
    ("drift", lambda _: _failure_text(ExpectNoDrift(), _drift_plan({}, {"pw": True})),
     "ExpectNoDrift: aws_db_instance.db: expected no drift, but it changed outside Terraform: "
     'name: "a" -> "b"; pw: (sensitive) -> (sensitive)'),
    ("snapshot-file", _mismatch,
     "aws_db_instance.db: pw: (sensitive, unmarked) -> (sensitive)"),
    ("snapshot-file-under-a-marked-map", _mismatch, 'aws_db_instance.db: - tags["k"] = (sensitive, unmarked)'),
    ("snapshot-file-key-under-a-marked-map", _hand_edited_key,
     'aws_db_instance.db: - tags["(sensitive)"] = (sensitive, unmarked)'),
    ("snapshot-plans", lambda _: "\n".join(snapshot.diff(_snapshot_plan(OLD, False), _snapshot_plan(NEW, True))),
     "aws_db_instance.db: pw: (sensitive, unmarked) -> (sensitive)"),
]


@pytest.mark.parametrize(("make", "line"), [p[1:] for p in PINNED], ids=[p[0] for p in PINNED])
def test_the_lines_say_which_side_was_marked(make: Callable[[Path], str], line: str, tmp_path: Path) -> None:
    assert line in make(tmp_path)


def test_query_names_no_key_of_a_map_the_other_side_marks(tmp_path: Path) -> None:
    # A missing key's hint ("did you mean ...?") named the before side's key of a map only after_sensitive marks: the
    # value was hidden under both sides' marks, the hint was made under the before side's alone.
    file = tmp_path / "plan.json"
    change = {"actions": ["update"], "before": {"tags": {OLD: "v"}}, "after": {"tags": {NEW: "v"}},
              "after_unknown": {}, "before_sensitive": {}, "after_sensitive": {"tags": True}}
    file.write_text(json.dumps({"format_version": "1.2", "resource_changes": [
        {"address": ADDRESS, "mode": "managed", "type": "aws_db_instance", "name": "db", "change": change}]}), "utf-8")
    typed = OLD[:-1]  # a typo of the key: its closest key is the secret one
    for form in ("text", "json"):
        _, out, err = cli("query", str(file), ADDRESS, f'tags["{typed}"]', "--before", "--format", form, stdin=None)
        assert OLD not in out + err
        reason = f'no key "{typed}" in an object with 1 key at tags'
        assert json.loads(out)["reason"] == reason if form == "json" else f"status:    absent ({reason})" in out
