"""The markers the library writes in place of a value (``(known after apply)``, ``(sensitive, unmarked)``) are kept
whole by the scrub: a secret spelled like one of their words (``known``) garbled them (``((sensitive) after apply)``)
and hid nothing. The same word elsewhere is still scrubbed, and so is a secret spelled like a whole marker, or
holding one (the marker as a whole piece of the secret), or one standing past a marker's end.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from clirun import cli

from plancheck import ExpectNoDrift, Plan, assert_plan, snapshot
from plancheck._redact import KNOWN_AFTER_APPLY, MARKERS, Secrets
from plancheck.cli._query import LABELS

#: A secret spelled like the whole marker, and one holding it.
WHOLE = "(known after apply)"
HOLDING = "token (known after apply) x"


@pytest.mark.parametrize(
    ("secret", "text", "shown"),
    [
        pytest.param("known", "(known after apply)", "(known after apply)", id="word-inside-marker-kept"),
        pytest.param("after", "id: (known after apply)", "id: (known after apply)", id="middle-word-kept"),
        pytest.param("apply", "(known after apply), apply", "(known after apply), (sensitive)", id="word-outside-scrubbed"),
        pytest.param("known", '"known"', '"(sensitive)"', id="word-as-value-scrubbed"),
        pytest.param("known", "known after apply", "(sensitive) after apply", id="words-without-parentheses-scrubbed"),
        pytest.param("known after apply", "(known after apply)", "(known after apply)", id="marker-words-inside-kept"),
        pytest.param("known after apply", "a: known after apply", "a: (sensitive)", id="marker-words-alone-scrubbed"),
        pytest.param(WHOLE, "(known after apply)", "(sensitive)", id="secret-spelled-like-marker"),
        pytest.param(WHOLE, "x: (known after apply)!", "x: (sensitive)!", id="secret-spelled-like-marker-in-text"),
        pytest.param(WHOLE, '"(known after apply)"', '"(sensitive)"', id="secret-spelled-like-marker-quoted"),
        pytest.param(HOLDING, "pw: token (known after apply) x", "pw: (sensitive)", id="holding-marker-whole"),
        pytest.param(HOLDING, 'pw: "token (known after apply) x"', 'pw: "(sensitive)"', id="holding-marker-quoted"),
        pytest.param(HOLDING, "(known after apply)", "(sensitive)", id="holding-marker-its-piece"),
        pytest.param(HOLDING, "token (known after apply)", "(sensitive)", id="holding-marker-cut"),
        pytest.param("unmarked", "a: (sensitive, unmarked) unmarked", "a: (sensitive, unmarked) (sensitive)",
                     id="hiding-marker-word"),
        pytest.param("changed", "(sensitive) -> (sensitive, changed)", "(sensitive) -> (sensitive, changed)",
                     id="hiding-marker-changed"),
    ],
)
def test_the_scrub_keeps_the_library_markers(secret: str, text: str, shown: str) -> None:
    assert Secrets([secret]).scrub(text) == shown


def test_one_list_of_markers_holds_what_the_renderers_write() -> None:
    from plancheck._planchecks import drift
    from plancheck.cli import _query
    from plancheck.snapshot import _compare, _format

    assert {_query.UNKNOWN_TEXT, _format.UNKNOWN, _compare.HIDDEN_UNMARKED} <= set(MARKERS)
    assert _query.UNKNOWN_TEXT is KNOWN_AFTER_APPLY
    assert drift.KNOWN_AFTER_APPLY is KNOWN_AFTER_APPLY


def _plan(secret: str) -> dict[str, Any]:
    """A create with a sensitive ``pw`` (the secret), a ``note`` "apply" and an unknown ``id``; drift to an unknown id."""
    head = {"address": "null_resource.a", "mode": "managed", "type": "null_resource", "name": "a"}
    return {
        "format_version": "1.2",
        "terraform_version": "1.9.0",
        "resource_changes": [{**head, "change": {
            "actions": ["create"], "before": None, "after": {"pw": secret, "note": "apply"},
            "after_unknown": {"id": True}, "after_sensitive": {"pw": True}}}],
        "resource_drift": [{**head, "change": {
            "actions": ["update"], "before": {"id": "1", "pw": secret}, "after": {"id": "2", "pw": secret},
            "after_unknown": {"id": True}, "before_sensitive": {"pw": True}, "after_sensitive": {"pw": True}}}],
    }


KEPT = '{"pw": (sensitive), "note": "apply", "id": (known after apply)}'
#: The row's secret spelled like the note: the note is a value, scrubbed.
NOTE_HIDDEN = '{"pw": (sensitive), "note": (sensitive), "id": (known after apply)}'
#: The secret spelled like the marker (or holding it whole): the unknown is shown as the secret would be.
ID_HIDDEN = '{"pw": (sensitive), "note": "apply", "id": (sensitive)}'
DRIFT = "ExpectNoDrift: null_resource.a: expected no drift, but it changed outside Terraform: id: \"1\" -> "
ROWS = [
    pytest.param("known", KEPT, DRIFT + KNOWN_AFTER_APPLY, id="known"),
    pytest.param("after", KEPT, DRIFT + KNOWN_AFTER_APPLY, id="after"),
    pytest.param("apply", NOTE_HIDDEN, DRIFT + KNOWN_AFTER_APPLY, id="apply"),
    pytest.param(WHOLE, ID_HIDDEN, DRIFT + "(sensitive)", id="spelled-like-marker"),
    # Only the secret's words stand in the query's marker, while its window " (known after apply)" stands in the
    # message, reaching past the marker: scrubbed, with the space before it.
    pytest.param(HOLDING, KEPT, DRIFT[:-1] + "(sensitive)", id="holding-marker"),
    pytest.param("token known after apply", NOTE_HIDDEN, DRIFT + KNOWN_AFTER_APPLY, id="holding-marker-words"),
]


@pytest.mark.parametrize(("secret", "value", "message"), ROWS)
def test_query_text_and_json(secret: str, value: str, message: str, tmp_path: Path) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(_plan(secret)), "utf-8")
    text = cli("query", str(plan), "null_resource.a")
    shown = cli("query", "--format", "json", str(plan), "null_resource.a")
    assert (text.code, shown.code) == (0, 0)
    assert [line for line in text.out.splitlines() if line.startswith("  value:")] == [f"  value:     {value}"]
    assert shown.json()["value"] == value


@pytest.mark.parametrize(("secret", "value", "message"), ROWS)
def test_a_failing_checks_message(secret: str, value: str, message: str) -> None:
    with pytest.raises(AssertionError) as failed:
        assert_plan(Plan.from_dict(_plan(secret)), ExpectNoDrift())
    assert str(failed.value) == message


@pytest.mark.parametrize(("secret", "value", "message"), ROWS)
def test_a_snapshot_shows_the_unknown(secret: str, value: str, message: str) -> None:
    # A snapshot hides by marks and fingerprints, never by scrubbing: the unknown is the marker in every row.
    lines = snapshot.render(Plan.from_dict(_plan(secret)), key=None).splitlines()
    assert [line for line in lines if line.startswith("  id")] == ["  id = (known after apply)"]


#: query's own labels, beside a value spelled like one of their words.
LABEL_ROWS = [
    pytest.param("after", "null_resource.a note (after)", id="header-of-after"),
    pytest.param("before", "null_resource.a note (before)", id="header-of-before"),
    pytest.param("known", "  status:    known", id="status-known"),
    pytest.param("status", "  status:    known", id="status-label"),
    pytest.param("unknown", "  status:    known, with unknown parts", id="status-with-unknown-parts"),
    pytest.param("yes", "  sensitive: yes", id="sensitive-yes"),
    pytest.param("partly", "  sensitive: partly", id="sensitive-partly"),
]


@pytest.mark.parametrize(("secret", "line"), [
    pytest.param("after", "(after)", id="of-label"),
    pytest.param("known", "  status:    known, with unknown parts", id="status-word"),
    pytest.param("unknown", "status:    unknown, with unknown parts", id="suffix-word"),
    pytest.param("yes", "  sensitive: yes", id="sensitive-word"),
])  # fmt: skip
def test_querys_scrub_keeps_its_labels(secret: str, line: str) -> None:
    assert Secrets([secret]).trusting(LABELS).scrub(line) == line


@pytest.mark.parametrize(("secret", "text", "shown"), [
    pytest.param("(after)", "a (after)", "a (sensitive)", id="secret-spelled-like-label"),
    pytest.param("status:    known", "  status:    known", "  (sensitive)", id="secret-spelled-like-status-line"),
    pytest.param("after", "after (after) after", "(sensitive) (after) (sensitive)", id="word-outside-scrubbed"),
    pytest.param("yes", "sensitive: yes, yes", "sensitive: yes, (sensitive)", id="word-past-label-scrubbed"),
    pytest.param("unknown parts", ", with unknown parts", ", with (sensitive)", id="long-secret-inside-label"),
])  # fmt: skip
def test_a_secret_beside_a_label_is_scrubbed(secret: str, text: str, shown: str) -> None:
    assert Secrets([secret]).trusting(LABELS).scrub(text) == shown


def _labelled_plan(secret: str) -> dict[str, Any]:
    """A replace whose ``pw`` is the (sensitive) secret and ``note`` a plain value; ``m`` partly unknown/sensitive."""
    return {
        "format_version": "1.2", "terraform_version": "1.9.0",
        "resource_changes": [{
            "address": "null_resource.a", "mode": "managed", "type": "null_resource", "name": "a",
            "change": {
                "actions": ["delete", "create"], "before": {"pw": secret, "note": "x", "m": {"k": "v"}},
                "after": {"pw": secret, "note": "x", "m": {"k": "v"}},
                "after_unknown": {"id": True, "m": {"u": True}, "gone": True},
                "before_sensitive": {"pw": True}, "after_sensitive": {"pw": True, "m": {"k": True}, "yes": True},
            },
        }],
    }  # fmt: skip


@pytest.mark.parametrize(("secret", "line"), LABEL_ROWS)
def test_query_text_keeps_its_labels_whatever_the_secret(secret: str, line: str, tmp_path: Path) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(_labelled_plan(secret)), "utf-8")
    text = "\n".join(
        cli("query", *before, str(plan), "null_resource.a", path).out
        for before in ((), ("--before",))
        for path in ("note", "m", "id", "yes", "pw")
    )
    assert line in text.splitlines()
    assert f"value:     {json.dumps(secret)}" not in text


def test_one_list_of_labels_holds_what_query_writes() -> None:
    from plancheck.cli._query import render_value_document

    words = set()
    for of in ("after", "before"):
        for status in ("known", "unknown", "null", "absent"):
            for sensitive, partly in ((True, False), (False, True), (False, False)):
                doc = {"address": "a.b", "path": "", "of": of, "status": status, "partly_unknown": True,
                       "reason": None, "sensitive": sensitive, "partly_sensitive": partly, "value": None}
                header, status_line, sensitive_line = render_value_document(doc).splitlines()
                words |= {header.removeprefix("a.b "), status_line.strip().removesuffix(", with unknown parts"),
                          sensitive_line.strip(), ", with unknown parts"}
    assert words == set(LABELS)
