"""Every JSON document a command writes is scrubbed once, value by value, of every secret the command heard.

``query``'s, ``snapshot``'s and ``mock-plan``'s documents, the version, the catalogue and the waivers are written
as the results and error documents are (``plancheck.cli._io.Io.rendered``): each value scrubbed before it is
serialized, the format's keys and words kept, and the text not scrubbed again by the stream. A flat scrub of the
serialized text saw the format's keys and words: a secret ``kind`` or ``plan`` made ``"(sensitive)": ...``, a
secret ``true`` made ``"ok": (sensitive)`` (no JSON at all). When the secrets heard cannot be listed, the command
fails closed: no document, an error document with its message withheld, exit status 2. Each case is a real run.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from clirun import OUTPUT_VALIDATOR, Ran, cli
from secret_shapes import KEY_SECRET, MAP_KEY_SECRET, SHAPES, leaks

from plancheck import load_plan

#: Sensitive values spelled as the documents' own keys and words (``ok`` is too short to be a secret).
WORDS = ["plan", "value", "kind", "schema_version", "address", "resources", "resource_changes", "output_changes",
         "true", "false", "null", "after", "before", "known", "unknown", "status", "create", "actions", "partial",
         "source", "snapshot", "lines", "file", "written", "same", "differs", "tool_version", "addresses", "path",
         "reason", "sensitive", "catalogue", "waivers", "results", "error", "fail"]
#: A short secret: scrubbed where it stands as a value or a whole token.
SHORT = "zq7x"
#: The secrets no output may show any piece of (the words are the format's own: they show, as its words).
PLANTED = {**SHAPES, "key": KEY_SECRET, "map-key": MAP_KEY_SECRET, "short": SHORT}
#: The fields whose values are the format's words: the same whatever the plan's secrets.
FORMAT_WORDS = frozenset({"kind", "of", "status", "actions", "fail_on", "severity", "level"})
WITHHELD = "tfplancheck: output withheld: its secrets could not be listed (TypeError)"


def _plan(words: list[str], shapes: dict[str, str], key: str, map_key: str, short: str) -> dict[str, Any]:
    """A plan whose sensitive values are ``words``, ``shapes`` and ``short``: a sensitive variable ``key`` that is
    also an instance key, a map key ``map_key`` under a sensitive mark."""
    values = [*words, *shapes.values(), short]
    outputs = {f"o{i}": {"actions": ["create"], "before": None, "after": value, "after_unknown": False,
                         "before_sensitive": False, "after_sensitive": True} for i, value in enumerate(values)}
    return {
        "format_version": "1.2", "terraform_version": "1.11.4",
        "variables": {"key": {"value": key}},
        "configuration": {"root_module": {"variables": {"key": {"sensitive": True}}}},
        "resource_changes": [
            {"address": "null_resource.a", "mode": "managed", "type": "null_resource", "name": "a",
             "change": {"actions": ["update"], "before": {"triggers": {"plain": "old"}, "id": "1"},
                        "after": {"triggers": {"plain": "v", map_key: "w", "pw": short}, "id": None},
                        "after_unknown": {"id": True},
                        "before_sensitive": {}, "after_sensitive": {"triggers": True}}},
            {"address": f'null_resource.k["{key}"]', "mode": "managed", "type": "null_resource", "name": "k",
             "index": key,
             "change": {"actions": ["create"], "before": None, "after": {"triggers": {"s": shapes["plain"]}},
                        "after_unknown": {"id": True}, "after_sensitive": {"triggers": {"s": True}}}},
        ],
        "output_changes": outputs,
    }


def _harmless(text: str, i: int) -> str:
    return f"harmless-{i}-" + "x" * len(text)


#: The same plan with harmless values in the words' and shapes' places (the keys stay: the commands name them): what
#: every document's shape is compared with.
CLEAN = _plan([_harmless(w, i) for i, w in enumerate(WORDS)], {n: _harmless(s, i) for i, (n, s) in enumerate(SHAPES.items())},
              KEY_SECRET, MAP_KEY_SECRET, "harmless-short")
SECRET = _plan(WORDS, SHAPES, KEY_SECRET, MAP_KEY_SECRET, SHORT)
#: The plan file's name holds a secret too: the documents name their plan.
PLAN = f"{SHORT}-plan.json"
SNAP = f"{SHORT}-plan.snap"
CHECKS = """
[[check]]
type = "ExpectResourceAction"
address = "null_resource.a"
action = "Destroy"
waive = [{ address = "null_resource.k*", reason = "accepted", until = 2027-01-31 }]
"""


def _files(where: Path, plan: dict[str, Any]) -> Path:
    where.mkdir()
    (where / PLAN).write_text(json.dumps(plan), "utf-8")
    (where / "other.json").write_text(json.dumps({**plan, "output_changes": {}}), "utf-8")
    (where / "checks.toml").write_text(CHECKS, "utf-8")
    (where / "module").mkdir()
    (where / "module" / "variables.tf").write_text('variable "key" {\n  sensitive = true\n}\n', "utf-8")
    return where


def _as_planned(plan_file: Path) -> Callable[..., Any]:
    """``mock-plan``'s Terraform run, standing in: the plan of ``plan_file`` (its writers are what is tested)."""

    def planned(args: Any, io: Any, mocks: Any) -> Any:
        return load_plan(plan_file)

    return planned


def _no_mocks(*args: Any) -> list[Any]:
    return []


MOCK = ["mock-plan", "module", "--mock", "acme/cloud=cloud.schema.json", "--var", f"key={KEY_SECRET}", "--format", "json"]
#: Each command writing a JSON document that a plan's secrets reach: (the runs before it, its arguments).
COMMANDS: dict[str, tuple[list[list[str]], list[str]]] = {
    "query: the addresses": ([], ["query", PLAN, "--format", "json"]),
    "query: a resource's value": ([], ["query", PLAN, "null_resource.a", "--format", "json"]),
    "query: the value before": ([], ["query", PLAN, "null_resource.a", "--before", "--format", "json"]),
    "query: a value at a secret map key": ([], ["query", PLAN, "null_resource.a", f'triggers["{MAP_KEY_SECRET}"]',
                                                "--format", "json"]),
    "query: an instance keyed by a secret": ([], ["query", PLAN, f'null_resource.k["{KEY_SECRET}"]', "--format", "json"]),
    "query: a sensitive output": ([], ["query", PLAN, "output.o0", "--format", "json"]),
    "query: an unknown value": ([], ["query", PLAN, "null_resource.a", "id", "--format", "json"]),
    "snapshot: written": ([], ["snapshot", PLAN, SNAP, "--update", "--format", "json"]),
    "snapshot: the same": ([["snapshot", PLAN, SNAP, "--update"]], ["snapshot", PLAN, SNAP, "--format", "json"]),
    "snapshot: differs": ([["snapshot", "other.json", SNAP, "--update"]], ["snapshot", PLAN, SNAP, "--format", "json"]),
    "mock-plan: the addresses": ([], MOCK),
    "mock-plan: a snapshot": ([], [*MOCK, "--snapshot", SNAP, "--update"]),
    "mock-plan: checks": ([], [*MOCK, "--checks", "checks.toml"]),
    "mock-plan: checks and a snapshot": ([["snapshot", "other.json", SNAP, "--update"]],
                                         [*MOCK, "--checks", "checks.toml", "--snapshot", SNAP]),
}


def _run(where: Path, monkeypatch: pytest.MonkeyPatch, before: list[list[str]], argv: list[str]) -> Ran:
    monkeypatch.setattr("plancheck.cli._mock_plan._plan", _as_planned(where / PLAN))
    monkeypatch.setattr("plancheck.cli._mock_plan._mocks", _no_mocks)
    for step in before:
        assert cli(*step, cwd=where).code == 0
    return cli(*argv, cwd=where)


def _shape(node: Any, key: Any = None) -> Any:
    """``node`` with every string of data as ``str``: its keys, kinds, lengths and the format's words as they are."""
    if isinstance(node, dict):
        return {k: _shape(v, k) for k, v in node.items()}
    if isinstance(node, list):
        return [item if key in FORMAT_WORDS else _shape(item) for item in node]
    return node if key in FORMAT_WORDS or not isinstance(node, str) else str


@pytest.mark.parametrize(("before", "argv"), COMMANDS.values(), ids=COMMANDS.keys())
def test_a_document_whose_words_are_secrets_keeps_its_shape_and_shows_no_secret(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, before: list[list[str]], argv: list[str]) -> None:
    clean = _run(_files(tmp_path / "clean", CLEAN), monkeypatch, before, argv)
    ran = _run(_files(tmp_path / "secret", SECRET), monkeypatch, before, argv)
    assert (ran.code, ran.err) == (clean.code, clean.err), ran.err
    doc = json.loads(ran.out)
    OUTPUT_VALIDATOR.validate(doc)
    assert _shape(doc) == _shape(json.loads(clean.out))
    assert not leaks(ran.out + ran.err, PLANTED), ran.out


def test_the_instance_key_and_the_map_key_are_scrubbed_where_they_are_data(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Data keys (an instance key, a map key named by the path) are values of the documents: scrubbed."""
    where = _files(tmp_path / "secret", SECRET)
    listed = _run(where, monkeypatch, [], ["query", PLAN, "--format", "json"]).out
    assert [r["address"] for r in json.loads(listed)["resource_changes"]] == [
        "null_resource.a", 'null_resource.k["(sensitive)"]']
    found = json.loads(_run(where, monkeypatch, [], COMMANDS["query: a value at a secret map key"][1]).out)
    assert (found["path"], found["status"], found["sensitive"], found["value"]) == (
        'triggers["(sensitive)"]', "known", True, "(sensitive)")


def _unlisted(self: Any) -> Any:
    raise TypeError("resources is not a list")


#: Every command writing a JSON document, the ones no plan reaches too: with secrets that cannot be listed.
UNLISTED: dict[str, tuple[list[list[str]], list[str]]] = {
    **COMMANDS,
    "the version": ([], ["--version", "--format", "json"]),
    "the catalogue": ([], ["--list-checks", "--format", "json"]),
    "the waivers": ([], ["--list-waivers", "-c", "checks.toml", "--format", "json"]),
}


@pytest.mark.parametrize(("before", "argv"), UNLISTED.values(), ids=UNLISTED.keys())
def test_secrets_that_cannot_be_listed_fail_closed_with_an_error_document(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, before: list[list[str]], argv: list[str]) -> None:
    where = _files(tmp_path / "secret", SECRET)
    for step in before:
        assert cli(*step, cwd=where).code == 0
    monkeypatch.setattr("plancheck.cli._io.Io.secrets", _unlisted)
    ran = _run(where, monkeypatch, [], argv)
    assert (ran.code, ran.err) == (2, WITHHELD + "\n")
    doc = json.loads(ran.out)
    OUTPUT_VALIDATOR.validate(doc)
    assert (doc["kind"], doc["error"]) == ("error", {"kind": "internal", "message": WITHHELD})


#: A ``--var`` value that only the plan says is sensitive (its configuration), the module's files do not: heard only
#: once the plan is made, and still scrubbed from the document (the instance key it is here).
VAR_ONLY = "zzvar-only-secret-2c4d"


def test_mock_plans_document_is_scrubbed_of_a_var_the_plan_says_is_sensitive(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plan = json.loads(json.dumps(CLEAN))
    plan["configuration"]["root_module"]["variables"]["vo"] = {"sensitive": True}
    plan["resource_changes"].append({
        "address": f'null_resource.v["{VAR_ONLY}"]', "mode": "managed", "type": "null_resource", "name": "v",
        "index": VAR_ONLY, "change": {"actions": ["create"], "before": None, "after": {}, "after_unknown": {}}})
    ran = _run(_files(tmp_path / "var", plan), monkeypatch, [], [*MOCK, "--var", f"vo={VAR_ONLY}"])
    doc = json.loads(ran.out)
    OUTPUT_VALIDATOR.validate(doc)
    assert doc["resource_changes"][-1]["address"] == 'null_resource.v["(sensitive)"]'
    assert not leaks(ran.out + ran.err, {"var": VAR_ONLY}), ran.out
