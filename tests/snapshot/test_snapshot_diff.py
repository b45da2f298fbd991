"""The differences between two plans (or snapshots) as review comments, pinned: one line each, in a fixed order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from snapshot_support import KEY, change, output, plan_of

from plancheck import Plan, snapshot

ARN = "arn:aws:s3:::a-bucket-with-a-rather-long-name-that-goes-on-and-on-and-on"


def bucket(**after: Any) -> dict[str, Any]:
    return change("cloud_bucket.logs", ["create"], {"name": "logs", "arn": ARN, **after})


CASES = [
    pytest.param(plan_of(bucket()), plan_of(bucket(name="logs2")),
                 ['cloud_bucket.logs: name: "logs" -> "logs2"'], id="value-changed"),
    pytest.param(plan_of(bucket()), plan_of(bucket(), change("cloud_bucket.extra", ["create"], {})),
                 ["+ cloud_bucket.extra (create)"], id="resource-added"),
    pytest.param(plan_of(bucket(), change("cloud_bucket.old", ["delete"], None)), plan_of(bucket()),
                 ["- cloud_bucket.old"], id="resource-removed"),
    pytest.param(plan_of(bucket()), plan_of(change("cloud_bucket.logs", ["create"], {"name": "logs"}, {"arn": True})),
                 ['cloud_bucket.logs: arn: "arn:aws:s3:::a-bucket-with-a-rather-long-name-that-goes-on-and-on-and…" -> '
                  "(known after apply)"], id="known-to-unknown-long-value-cut"),
    pytest.param(plan_of(bucket()), plan_of(change("cloud_bucket.logs", ["delete", "create"], {"name": "logs", "arn": ARN},
                                                   action_reason="replace_because_tainted", replace_paths=[["name"]])),
                 ["cloud_bucket.logs: action: create -> delete, create",
                  "cloud_bucket.logs: reason: (none) -> replace_because_tainted",
                  "cloud_bucket.logs: + replace: name"], id="action-reason-replace"),
    pytest.param(plan_of(bucket(tags={"old": "x", "keep": "k"})), plan_of(bucket(tags={"env": "prod", "keep": "k"})),
                 ['cloud_bucket.logs: + tags["env"] = "prod"', 'cloud_bucket.logs: - tags["old"] = "x"'],
                 id="attributes-added-and-removed"),
    pytest.param(plan_of(bucket(tags=None)), plan_of(bucket(tags={})),
                 ["cloud_bucket.logs: tags: null -> {}"], id="null-to-empty"),
    pytest.param(plan_of(bucket(tags={})), plan_of(bucket()),
                 ["cloud_bucket.logs: - tags = {}"], id="empty-to-absent"),
    pytest.param(plan_of(change("a.b", ["create"], {"pw": "hunter2"}, None, {"pw": True})),
                 plan_of(change("a.b", ["create"], {"pw": "hunter3"}, None, {"pw": True})),
                 ["a.b: pw: (sensitive) -> (sensitive, changed)"], id="secret-changed"),
    pytest.param(plan_of(change("a.b", ["create"], {"pw": "hunter2"}, None, {"pw": True})),
                 plan_of(change("a.b", ["update"], {"pw": "hunter2"}, None, {"pw": True})),
                 ["a.b: action: create -> update"], id="secret-unchanged"),
    pytest.param(plan_of(change("a.b", ["create"], {"pw": "plain"})),
                 plan_of(change("a.b", ["create"], {"pw": "other"}, None, {"pw": True})),
                 ['a.b: pw: (sensitive, unmarked) -> (sensitive)'], id="value-becomes-sensitive"),
    pytest.param(plan_of(change("a.b", ["delete"], None)), plan_of(change("a.b", ["create"], {"id": "1"})),
                 ["a.b: action: delete -> create", "a.b: - after: null", 'a.b: + id = "1"'], id="whole-value-replaced"),
    pytest.param(plan_of(change("a.b", ["create"], {}), change("a.b", ["delete"], {"v": 1}, deposed="00000001")),
                 plan_of(change("a.b", ["create"], {}), change("a.b", ["delete"], {"v": 2}, deposed="00000002")),
                 ["a.b (deposed 1): v: 1 -> 2"], id="deposed-compared-by-number-not-key"),
    pytest.param(plan_of(change("a.b", ["update"], {}, previous_address="a.old")),
                 plan_of(change("a.b", ["update"], {})),
                 ["a.b: moved from: a.old -> (none)"], id="moved-from"),
    pytest.param(plan_of(outputs={"ip": output("10.0.0.1"), "old": output(1)}),
                 plan_of(outputs={"ip": output(None, unknown=True), "new": output(2)}),
                 ['output.ip: value: "10.0.0.1" -> (known after apply)', "+ output.new (create)", "- output.old"],
                 id="outputs"),
    pytest.param(plan_of(outputs={"pw": output("a", sensitive=True)}), plan_of(outputs={"pw": output("b", sensitive=True)}),
                 ["output.pw: value: (sensitive) -> (sensitive, changed)"], id="sensitive-output-changed"),
    pytest.param(plan_of(change("b.x", ["create"], {}), change("a.x[10]", ["create"], {"v": 1}),
                         outputs={"z": output(1)}),
                 plan_of(change("a.x[2]", ["create"], {}), change("a.x[10]", ["create"], {"v": 2}),
                         outputs={"z": output(2)}),
                 ["+ a.x[2] (create)", "a.x[10]: v: 1 -> 2", "- b.x", "output.z: value: 1 -> 2"],
                 id="blocks-in-snapshot-order"),
]


@pytest.mark.parametrize(("old", "new", "expected"), CASES)
def test_diff_of_two_plans_is_pinned(old: Plan, new: Plan, expected: list[str]) -> None:
    assert snapshot.diff(old, new) == expected


@pytest.mark.parametrize(("old", "new", "expected"), CASES)
def test_diff_of_texts_says_the_same_except_for_secrets_without_a_key(old: Plan, new: Plan, expected: list[str]) -> None:
    lines = snapshot.diff(snapshot.render(old, key=None), snapshot.render(new, key=None))
    assert lines == [line for line in expected if "(sensitive, changed)" not in line]
    keyed = snapshot.diff(snapshot.render(old, key=KEY), snapshot.render(new, key=KEY))
    assert keyed == expected


def test_a_text_against_a_plan_uses_the_key_given_or_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    old = plan_of(change("a.b", ["create"], {"pw": "hunter2"}, None, {"pw": True}))
    new = plan_of(change("a.b", ["create"], {"pw": "hunter3"}, None, {"pw": True}))
    stored = snapshot.render(old, key=KEY)
    assert snapshot.diff(stored, new, key=KEY) == ["a.b: pw: (sensitive) -> (sensitive, changed)"]
    monkeypatch.delenv("TFPLANCHECK_SNAPSHOT_KEY", raising=False)
    assert snapshot.diff(stored, new) == []  # no key: a secret's change cannot be seen, and is not guessed
    monkeypatch.setenv("TFPLANCHECK_SNAPSHOT_KEY", KEY)
    assert snapshot.diff(stored, new) == ["a.b: pw: (sensitive) -> (sensitive, changed)"]


def test_fingerprints_made_with_another_key_are_not_compared_and_say_so() -> None:
    old = plan_of(change("a.b", ["create"], {"pw": "hunter2", "n": 1}, None, {"pw": True}))
    new = plan_of(change("a.b", ["create"], {"pw": "hunter3", "n": 2}, None, {"pw": True}))
    other = "another-key-0123456789abcdef"
    assert snapshot.diff(snapshot.render(old, key=KEY), snapshot.render(new, key=other)) == [
        "sensitive values: fingerprinted with another key than the snapshot's, so their changes are not compared "
        "(update the snapshot)",
        "a.b: n: 1 -> 2",
    ]


def test_a_snapshot_file_can_be_a_side(tmp_path: Path) -> None:
    file = tmp_path / "plan.snap"
    file.write_text(snapshot.render(plan_of(bucket()), key=None), encoding="utf-8")
    assert snapshot.diff(file, plan_of(bucket(name="x"))) == ['cloud_bucket.logs: name: "logs" -> "x"']


def test_a_hand_edited_snapshot_that_says_the_same_has_no_difference() -> None:
    text = snapshot.render(plan_of(bucket(tags={"b": "2", "a": "\u00e9"})), key=None)
    edited = text.replace('  tags["a"] = "é"\n', "").replace(
        '  tags["b"] = "2"\n', '  tags.b = "2"\n  tags["a"]   =   "\\u00e9"\n\n# a note\n'
    ).replace("\n", "\r\n")
    assert edited != text
    assert snapshot.diff(edited, text) == []
