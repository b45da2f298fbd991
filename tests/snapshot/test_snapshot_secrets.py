"""A planted secret never shows in a snapshot, a diff, an error or a message: marked, a sensitive variable or
output, copied into a plain attribute, a map key, or a for_each key in an address; with and without a key."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from planted_secrets import PLANTED as LEAK_TABLE_SECRETS
from planted_secrets import plan_document
from secret_shapes import ALL_SECRETS, leaks, secret_shapes_plan
from snapshot_support import KEY, PLANTED, secret_document

from plancheck import Plan, revealing_sensitive, snapshot
from plancheck.snapshot import SnapshotFormatError, SnapshotMismatchError

DOCUMENTS = [
    pytest.param(secret_document, PLANTED, id="snapshot-plan"),
    pytest.param(plan_document, {k: v for k, v in LEAK_TABLE_SECRETS.items() if not k.startswith(("state", "config"))},
                 id="leak-table-plan"),
    pytest.param(secret_shapes_plan, {k: v for k, v in ALL_SECRETS.items() if k != "config"}, id="secret-shapes"),
]


def _changed(document: dict[str, Any], secrets: dict[str, str]) -> dict[str, Any]:
    """The document with every secret changed (one character more), wherever it stands."""
    text = json.dumps(document)
    for secret in secrets.values():
        encoded = json.dumps(secret)[1:-1]
        text = text.replace(encoded, encoded + "Z")
    changed: dict[str, Any] = json.loads(text)
    return changed


@pytest.mark.parametrize(("build", "secrets"), DOCUMENTS)
def test_no_secret_in_a_snapshot_with_or_without_a_key_even_when_revealing(build: Any, secrets: dict[str, str]) -> None:
    plan = Plan.from_dict(build())
    for key in (None, KEY):
        text = snapshot.render(plan, key=key)
        assert leaks(text, secrets) == []
        with revealing_sensitive():  # --tf-show-sensitive reveals in messages, never in a file
            assert snapshot.render(plan, key=key) == text


@pytest.mark.parametrize(("build", "secrets"), DOCUMENTS)
def test_no_secret_in_a_diff_of_changed_secrets(build: Any, secrets: dict[str, str]) -> None:
    document = build()
    old, new = Plan.from_dict(document), Plan.from_dict(_changed(document, secrets))
    changed_secrets = {**secrets, **{f"{k}-changed": v + "Z" for k, v in secrets.items()}}
    lines = snapshot.diff(old, new)
    assert lines, "a changed secret shows as changed"
    assert leaks("\n".join(lines), changed_secrets) == []
    assert any("(sensitive) -> (sensitive, changed)" in line for line in lines)
    for key in (None, KEY):
        text_lines = snapshot.diff(snapshot.render(old, key=key), new, key=key)
        assert leaks("\n".join(text_lines), changed_secrets) == []


@pytest.mark.parametrize(("build", "secrets"), DOCUMENTS)
def test_no_secret_in_a_mismatch_even_from_a_hand_edited_file(tmp_path: Path, build: Any, secrets: dict[str, str]) -> None:
    plan = Plan.from_dict(build())
    file = tmp_path / "plan.snap"
    snapshot.assert_matches(plan, file, update=True)
    assert leaks(file.read_text(encoding="utf-8"), secrets) == []
    # Someone pastes the secrets into the file: the failure still shows none of them.
    pasted = "".join(f"  pasted{i} = {json.dumps(s)}\n" for i, s in enumerate(secrets.values()))
    text = file.read_text(encoding="utf-8")
    first_block_end = text.index("\n", text.index("  action: ")) + 1
    file.write_text(text[:first_block_end] + pasted + text[first_block_end:], encoding="utf-8")
    with pytest.raises(SnapshotMismatchError) as info:
        snapshot.assert_matches(plan, file)
    assert leaks(str(info.value) + repr(info.value) + "".join(info.value.lines), secrets) == []
    file.write_text(text[:first_block_end] + "".join(f"  bad = {s}\n" for s in secrets.values()), encoding="utf-8")
    with pytest.raises(SnapshotFormatError) as error:
        snapshot.assert_matches(plan, file)
    assert leaks(str(error.value) + repr(error.value), secrets) == []


def test_the_copies_are_hidden_by_value_not_by_chance() -> None:
    """Without the plan's secrets, the copies (unmarked) would show: the scrubbing is what hides them."""
    document = secret_document()
    plan = Plan.from_dict(copy.deepcopy(document))
    from plancheck._redact import NO_SECRETS

    plan.__dict__["secrets"] = NO_SECRETS
    bare = snapshot.render(plan, key=None)
    assert set(leaks(bare, PLANTED)) == {"attr", "output", "var"}
    assert leaks(snapshot.render(Plan.from_dict(document), key=None), PLANTED) == []


_PW = "zz-snapdiff-pw-3k9q"  # a sensitive variable's value, copied unmarked into an attribute
_VALUE = ("expected a value: a JSON string, number, true, false or null, {}, [], (known after apply), (sensitive) or "
          "(sensitive #<12 hex digits>), found '(sensitive)'")


def _pw_plan() -> Plan:
    return Plan.from_dict({"format_version": "1.2", "variables": {"pw": {"value": _PW}},
                           "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}},
                           "resource_changes": [{"address": "cloud_bucket.logs", "mode": "managed", "type": "cloud_bucket",
                                                 "name": "logs", "change": {"actions": ["create"], "after": {"name": "logs"}}}]})


@pytest.mark.parametrize(("sides", "where"), [
    pytest.param(lambda text, file, plan: (text, plan), "<snapshot>", id="text-then-plan"),
    pytest.param(lambda text, file, plan: (plan, text), "<snapshot>", id="plan-then-text"),
    pytest.param(lambda text, file, plan: (file, plan), "FILE", id="file-then-plan"),
])
def test_a_side_that_is_no_snapshot_quotes_no_secret_of_the_plan_it_is_diffed_with(
        tmp_path: Path, sides: Any, where: str) -> None:
    """diff() showed the word a broken snapshot text quotes, a secret of the plan on the other side, as it was;
    assert_matches and check_file scrubbed it. Now review(), the one way a comparison is shown, scrubs it."""
    plan = _pw_plan()
    text = snapshot.render(plan).replace('  name = "logs"', f"  name = {_PW}")
    file = tmp_path / "bad.snap"
    file.write_text(text, encoding="utf-8")
    with pytest.raises(SnapshotFormatError) as info:
        snapshot.diff(*sides(text, file, plan))
    assert str(info.value) == f"{where.replace('FILE', str(file))}:6: {_VALUE}"
    assert _PW not in str(info.value) + repr(info.value)
