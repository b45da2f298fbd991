"""The report formats a CI reads: JSON, JUnit XML, SARIF 2.1.0, GitHub workflow commands and Markdown.

Each format has a section here: its document of a run (``render_X``, from the runs of every plan checked, in
the order given), what it says of a run that stopped at bad input (:func:`render_error`), and its part of one
plan (a :class:`~plancheck.cli._runs.PartWriter`: the part's maker and its scrub, which knows the same shape).

Every string taken from a plan or a message is scrubbed of the plan's secrets (:meth:`PlanRun.secrets`, as the
text output is) before the format escapes it: an escape changes a secret's spelling, so a scrub after it
could miss it, and would see the format's keys and words. That is these documents' one scrub: they are
written as :class:`~plancheck.cli._io.Rendered` text, which the command's stream and a report file's do not
scrub again. Data is made one line first (:func:`one_line`): a newline or control character in an address
cannot start a line of its own (a forged workflow command).
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import urllib.parse
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from .._documents.plan import Plan
from .._errors import CheckFailure
from .._redact import NO_SECRETS, Secrets
from .._text import escape_data, escape_markdown, escape_property, one_line
from ._checksfile import CheckResult, verdict
from ._io import (
    SCHEMA_VERSION,
    PlanFacts,
    PlanFailed,
    Rendered,
    error_document,
    error_json,
    plan_summary,
    render_json,
    scrubbed_values,
)
from ._runs import TOOL, Checked, PartWriter, PlanRun, accepted, findings, plans_line, run_status, subject_of

if TYPE_CHECKING:
    from ._waivers import BaselineEntry

__all__ = [
    "GITHUB",
    "JSON",
    "JUNIT",
    "MARKDOWN",
    "MARKDOWN_MAX_BYTES",
    "SARIF",
    "plans_document",
    "render_error",
    "render_github",
    "render_junit",
    "render_markdown",
    "render_results_json",
    "render_sarif",
    "results_document",
]

#: The SARIF version written, and the schema it is valid against (OASIS, errata 01).
_SARIF_VERSION: Final = "2.1.0"
_SARIF_SCHEMA: Final = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


# -- JSON -------------------------------------------------------------------------------------------


def _failure_json(failure: CheckFailure) -> dict[str, Any]:
    shown = failure.shown_path if failure.shown_path is not None else None
    return {
        "address": failure.address,
        "path": shown if shown is not None else failure.path.to_text() if failure.path is not None else None,
        "message": failure.message,
    }


def results_document(results: Sequence[CheckResult], plan: Plan | PlanFacts, tool_version: str,
                     fail_on: str = "error", *, fixed: Sequence[BaselineEntry] = (),
                     baseline: str | None = None) -> dict[str, Any]:
    """The JSON document of a run (kind ``results``), in check order; ``ok`` is true exactly when the exit status is 0.

    A result's ``failures`` are what its check found wrong, its ``severity`` and ``status`` (``warn``
    for a failing check of warning severity) how they count; ``fail_on`` is ``--fail-on``. ``waived``
    are the failures a waiver accepts (each with its waiver), ``known`` those in the ``baseline`` file,
    ``expired_waivers`` the check's waivers past their date, and, of a check with waivers, ``unused_waivers`` those
    that waived nothing; with a baseline, ``baseline`` names the file and the entries that no longer fail (``fixed``).
    """
    status, counts = verdict(results, fail_on)
    document = {
        "schema_version": SCHEMA_VERSION,
        "kind": "results",
        "tool_version": tool_version,
        "ok": status == 0,
        "fail_on": fail_on,
        "plan": plan_summary(plan),
        "summary": counts,
        "results": [
            {
                "origin": r.spec.origin,
                "check": r.spec.type,
                "address": r.spec.address,
                "path": r.spec.path.to_text() if r.spec.path is not None else None,
                "severity": r.severity,
                "status": r.status,
                "failures": [_failure_json(f) for f in r.failures],
                "warnings": [_failure_json(w) for w in r.warnings],
                "waived": [{**_failure_json(w.failure), "waiver": w.waiver.as_json()} for w in r.waived],
                "known": [_failure_json(f) for f in r.known],
                "expired_waivers": [w.as_json() for w in r.expired_waivers],
                **({"unused_waivers": [w.as_json() for w in r.unused_waivers]} if r.spec.waivers else {}),
            }
            for r in results
        ],
    }
    if baseline is not None:
        document["baseline"] = {"file": baseline, "fixed": [entry.as_json() for entry in fixed]}
    return document


def render_results_json(runs: Sequence[Checked], fail_on: str, tool_version: str) -> str:
    """The JSON of a run: one plan's ``results`` document, else the ``plans`` document of them all."""
    run = runs[0] if len(runs) == 1 else None
    if isinstance(run, PlanRun):
        # One plan: the results document as it always was (a bad plan alone is an error document, said before).
        return render_json(_plan_document(run, fail_on, tool_version))
    return render_json(plans_document(runs, fail_on, tool_version))


def plans_document(runs: Sequence[Any], fail_on: str, tool_version: str) -> dict[str, Any]:
    """The JSON document of a run of many plans (kind ``plans``): each plan's own document, in the order given.

    ``plans[i]`` is what ``tfplancheck`` prints for the i-th plan given alone (a ``results`` document, or an
    ``error`` document with the plan's ``source``), each scrubbed of its own plan's secrets; ``ok`` is true
    exactly when the exit status (the worst of the plans') is 0, ``summary`` counts the plans by their status.

    >>> doc = plans_document([PlanFailed("b.json", "plan", "b.json: invalid JSON")], "error", "0.1.0")
    >>> doc["kind"], doc["ok"], doc["summary"], doc["plans"][0]["source"]
    ('plans', False, {'plans': 1, 'passed': 0, 'failed': 0, 'errors': 1}, 'b.json')
    """
    statuses = [run_status([run], fail_on) for run in runs]
    return {
        "schema_version": SCHEMA_VERSION,
        "kind": "plans",
        "tool_version": tool_version,
        "ok": run_status(runs, fail_on) == 0,
        "fail_on": fail_on,
        "summary": {"plans": len(runs), "passed": statuses.count(0), "failed": statuses.count(1),
                    "errors": statuses.count(2)},
        "plans": [JSON.of(run, fail_on, tool_version) for run in runs],
    }


def _plan_document(run: Any, fail_on: str, tool_version: str) -> dict[str, Any]:
    """What a run of this plan alone prints in JSON: its ``results`` document, or the ``error`` document naming it."""
    if isinstance(run, PlanFailed):
        return {**error_document(run.kind, run.message, tool_version), "source": run.source}
    secrets = run.secrets()
    document = results_document(run.results, run.plan, tool_version, fail_on, fixed=run.fixed, baseline=run.baseline)
    return scrubbed_values(document, secrets)


#: A plan's JSON part: its own document (:func:`plans_document`'s ``plans[i]``), keyed by ``--fail-on`` and the
#: version; scrubbed as its maker scrubs it, each value but the format's words.
JSON: Final = PartWriter("json", _plan_document, scrubbed_values)


# -- JUnit XML --------------------------------------------------------------------------------------


def render_junit(runs: Sequence[Checked], fail_on: str) -> str:
    """A ``testsuites`` of a ``testsuite`` per plan, a ``testcase`` per check (named by its label).

    A check that fails the run has a ``failure`` (``error`` when it could not run) holding each of its
    findings; one whose failures are all waived or known is ``skipped`` (the first one's reason as its message);
    warnings that do not fail the run, and the waived and known failures, are its ``system-out``.
    """
    root = ET.Element("testsuites", name=TOOL)
    totals = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
    for run in runs:
        if isinstance(run, PlanFailed):
            # A plan that could not be read: its suite is the one error, as a run of it alone reports it.
            suite = ET.SubElement(root, "testsuite", name=one_line(run.name), tests="1", failures="0", errors="1",
                                  skipped="0")
            case = ET.SubElement(suite, "testcase", name=f"{run.kind} error", classname=suite.get("name", ""))
            ET.SubElement(case, "error", message=run.text(), type=run.kind).text = run.text()
            totals["tests"] += 1
            totals["errors"] += 1
            continue
        suite, counts = JUNIT.of(run, fail_on)
        root.append(copy.deepcopy(suite))  # indented below: the part, given, stays as it is
        for key, value in counts.items():
            totals[key] += value
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")


def _junit_suite(run: PlanRun, fail_on: str) -> tuple[ET.Element, dict[str, int]]:
    """A plan's ``testsuite`` (not indented) and its counts."""
    secrets = run.secrets()
    suite = ET.Element("testsuite", name=one_line(run.name, secrets.scrub))
    counts = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
    notes = run.notes()
    if notes:
        properties = ET.SubElement(suite, "properties")
        for note in notes:
            ET.SubElement(properties, "property", name="note", value=one_line(note, secrets.scrub))
    for result in run.results:
        counts["tests"] += 1
        case = ET.SubElement(suite, "testcase", name=one_line(subject_of(result, None), secrets.scrub),
                             classname=suite.get("name", ""))
        found = list(findings(run, result, fail_on, secrets))
        failing = [f for f in found if f.level == "error"]
        passed = [(f.label, f.text, why) for f, why in accepted(run, result, secrets)]
        if failing:
            kind = "error" if result.status == "error" else "failure"
            counts["errors" if kind == "error" else "failures"] += 1
            element = ET.SubElement(case, kind, message=failing[0].text, type=failing[0].check)
            element.text = "\n".join(f"{f.label}  {f.text}" for f in failing)
        elif passed:  # a check that passes only because its failures are waived or known did not pass as such
            counts["skipped"] += 1
            ET.SubElement(case, "skipped", message=passed[0][2])
        rest = [(f.label, f.text, "") for f in found if f.level != "error"] + passed
        if rest:
            ET.SubElement(case, "system-out").text = "\n".join(
                f"{label}  {text}" + (f" ({why})" if why else "") for label, text, why in rest)
    for key, value in counts.items():
        suite.set(key, str(value))
    return suite, counts


def _junit_scrubbed(part: tuple[ET.Element, dict[str, int]], secrets: Secrets) -> tuple[ET.Element, dict[str, int]]:
    """A plan's ``testsuite`` (a copy) with each attribute and text scrubbed of ``secrets`` too, but its counts."""
    suite, counts = part
    suite = copy.deepcopy(suite)
    for element in suite.iter():
        for key, value in element.items():
            if key not in counts:  # the counts are numbers
                element.set(key, secrets.scrub(value))
        element.text = secrets.scrub(element.text) if element.text else element.text
    return suite, counts


#: A plan's JUnit part: its ``testsuite`` and its counts, keyed by ``--fail-on``.
JUNIT: Final = PartWriter("junit", _junit_suite, _junit_scrubbed)


# -- SARIF 2.1.0 ------------------------------------------------------------------------------------


def _artifact_uri(name: str) -> str:
    """The plan file as a SARIF ``artifactLocation.uri``: a relative reference, or a ``file:`` URI when absolute.

    >>> _artifact_uri("plans/my plan.json"), _artifact_uri("/tmp/p.json"), _artifact_uri("<stdin>")
    ('plans/my%20plan.json', 'file:///tmp/p.json', 'stdin')
    """
    if name == "<stdin>":
        return "stdin"
    path = name.replace(os.sep, "/")
    if os.path.isabs(name):
        return "file://" + urllib.parse.quote(path if path.startswith("/") else "/" + path)
    return urllib.parse.quote(path)


def _rule_text(check: str) -> str:
    """What a SARIF rule says: its check's one-line doc (as ``--list-checks`` shows it), else its name.

    >>> _rule_text("ExpectEmptyPlan"), _rule_text("MyOwnCheck")
    ('The plan changes nothing: no resource or output action, move, import, deferral or action invocation.', 'plan check MyOwnCheck')
    """
    from ._registry import default_registry

    try:
        doc = default_registry().check(check).doc
    except KeyError:
        doc = ""
    return doc or f"plan check {check}"


def _fingerprint(*parts: str) -> str:
    """A stable identity of a finding, from texts already scrubbed (so it can tell nothing of a secret).

    >>> _fingerprint("ExpectNoDestroys", "", "plan.json")
    'ba1e3be5c085bd1a8898b9aa434bf517'
    """
    return hashlib.sha256("\x00".join(parts).encode("utf-8", "backslashreplace")).hexdigest()[:32]


def render_sarif(runs: Sequence[Checked], fail_on: str, tool_version: str) -> str:
    """One SARIF run: a rule per check type, a result per failure or warning, each plan as an artifact (a plan
    that could not be read: an error notification of the invocation, at that plan; each note of a plan's run, such
    as an expired waiver, a waiver unused or a baseline entry fixed: a ``note`` notification at that plan)."""
    rules: dict[str, int] = {}
    results: list[dict[str, Any]] = []
    artifacts: dict[str, int] = {}
    notifications: list[dict[str, Any]] = []
    for run in runs:
        if isinstance(run, PlanFailed):
            uri = _artifact_uri(one_line(run.name))
            where = {"artifactLocation": {"uri": uri, "index": artifacts.setdefault(uri, len(artifacts))}}
            notifications.append({"level": "error", "message": {"text": run.text()}, "descriptor": {"id": run.kind},
                                  "locations": [{"physicalLocation": where}]})
            continue
        uri, notes, found_results = SARIF.of(run, fail_on)
        artifact = artifacts.setdefault(uri, len(artifacts))
        at: dict[str, Any] = {"artifactLocation": {"uri": uri, "index": artifact}}
        # What the other formats note (NOTE, ::notice, a property, a quote) SARIF says as the invocation's notes.
        notifications += [{"level": "note", "message": {"text": note}, "locations": [{"physicalLocation": at}]}
                          for note in notes]
        for found in found_results:
            # The indexes are the run's: the part has each result's own fields in their places.
            location = found["locations"][0]
            check, subject = found["partialFingerprints"]["tfplancheck/v1"]
            results.append({**found, "ruleIndex": rules.setdefault(found["ruleId"], len(rules)),
                            "locations": [{**location, "physicalLocation": {**location["physicalLocation"], **at}}],
                            "partialFingerprints": {"tfplancheck/v1": _fingerprint(check, subject, uri)}})
    status = run_status(runs, fail_on)
    driver: dict[str, Any] = {
        "name": TOOL,
        "rules": [{"id": check, "name": check, "shortDescription": {"text": _rule_text(check)}} for check in rules],
    }
    if tool_version:
        driver["version"] = tool_version
    invocation: dict[str, Any] = {
        # A run that found failures ran successfully; one whose check could not run (status 2) did not.
        "executionSuccessful": status != 2,
        "exitCode": status,
        "properties": {"ok": status == 0, "fail_on": fail_on},
    }
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    document = {
        "$schema": _SARIF_SCHEMA,
        "version": _SARIF_VERSION,
        "runs": [{
            "tool": {"driver": driver},
            "invocations": [invocation],
            "artifacts": [{"location": {"uri": uri}} for uri in artifacts],
            "results": results,
        }],
    }
    return json.dumps(document, indent=2, ensure_ascii=False)


def _sarif_part(run: PlanRun, fail_on: str) -> tuple[str, list[str], list[dict[str, Any]]]:
    """A plan's artifact URI, its notes and its SARIF results (their rule and artifact indexes the run's to set)."""
    secrets = run.secrets()
    uri = _artifact_uri(one_line(run.name, secrets.scrub))
    results: list[dict[str, Any]] = []
    for result in run.results:
        for found, why in [*((f, "") for f in findings(run, result, fail_on, secrets)), *accepted(run, result, secrets)]:
            # A plan's JSON has no line per resource: the finding is on the plan file (GitHub code scanning
            # requires a region's startLine), and the resource is its logical location.
            location: dict[str, Any] = {
                "physicalLocation": {"artifactLocation": {"uri": uri}, "region": {"startLine": 1}},
            }
            if found.address:
                kind = "variable" if found.address.startswith("output.") else "resource"
                location["logicalLocations"] = [{"fullyQualifiedName": found.address, "kind": kind}]
            sarif_result: dict[str, Any] = {
                "ruleId": found.check,
                "ruleIndex": None,
                # An accepted failure keeps the level it would have, suppressed (so code scanning closes it).
                "level": found.level if not why else "warning" if result.severity == "warning" else "error",
                "message": {"text": found.text},
                "locations": [location],
                # What the same finding is in the next run: its check, subject and plan (all scrubbed), not
                # its line, so code scanning tells new findings from known ones. The part holds the check and
                # subject; the run hashes them with the plan's URI (render_sarif), after a run of many plans has
                # scrubbed them of the other plans' secrets too (a hash made here would be of a text holding one).
                "partialFingerprints": {"tfplancheck/v1": [found.check, found.subject]},
                "properties": {"status": result.status, "severity": result.severity,
                               "origin": secrets.scrub(result.spec.origin)},
            }
            if why:
                # A waiver stands in the checks file (in source); a baseline entry in a file of its own.
                kind = "inSource" if found.label == "WAIVED" else "external"
                sarif_result["suppressions"] = [{"kind": kind, "status": "accepted", "justification": why}]
            results.append(sarif_result)
    return uri, [one_line(note, secrets.scrub) for note in run.notes()], results


def _sarif_scrubbed(part: tuple[str, list[str], list[dict[str, Any]]], secrets: Secrets,
                    ) -> tuple[str, list[str], list[dict[str, Any]]]:
    """A plan's artifact URI, notes and results with each value scrubbed of ``secrets`` too (before the run hashes
    a result's check and subject into its fingerprint)."""
    uri, notes, results = part
    return (secrets.scrub(uri), [secrets.scrub(note) for note in notes],
            [scrubbed_values(result, secrets) for result in results])


#: A plan's SARIF part, keyed by ``--fail-on``.
SARIF: Final = PartWriter("sarif", _sarif_part, _sarif_scrubbed)


# -- GitHub workflow commands -----------------------------------------------------------------------


def render_github(runs: Sequence[Checked], fail_on: str) -> str:
    """An ``::error``/``::warning`` command per finding, titled with its check and plan, a ``::notice`` per note, then the
    counts (and, for many plans, their one summary line)."""
    parts = [GITHUB.of(run, fail_on) for run in runs]
    lines = [_command_line(*command) for own, _ in parts for command in own]
    lines += [f"{TOOL}: {name}: {counts}" for _, (name, counts) in parts]
    if len(runs) > 1:
        lines.append(f"{TOOL}: {plans_line(runs, fail_on)}")
    return "\n".join(lines)


#: A workflow command of a plan's part, not escaped yet: its command, what its title names (a check or a
#: plan's error, the plan, what accepted the finding: each a value, scrubbed, or ""), and its message.
Command = tuple[str, str, str, str, str]


def _command_line(command: str, check: str, name: str, label: str, message: str) -> str:
    """A workflow command (its title ``tfplancheck: CHECK (NAME) LABEL``, or ``tfplancheck: NAME``), escaped.

    >>> _command_line("notice", "", "p.json", "", "50% done")
    '::notice title=tfplancheck%3A p.json::50%25 done'
    """
    title = f"{TOOL}: {check} ({name})" if check else f"{TOOL}: {name}"
    title += f" {label}" if label else ""
    return f"::{command} title={escape_property(title)}::{escape_data(message)}"


def _github_part(run: PlanRun | PlanFailed, fail_on: str) -> tuple[list[Command], tuple[str, str]]:
    """A plan's commands and its count line's name and counts (values scrubbed, not escaped: the run escapes them)."""
    if isinstance(run, PlanFailed):
        name = one_line(run.name)
        return [("error", f"{run.kind} error", name, "", run.text())], (name, f"not checked ({run.kind} error)")
    secrets = run.secrets()
    name = one_line(run.name, secrets.scrub)
    commands: list[Command] = [("notice", "", name, "", one_line(note, secrets.scrub)) for note in run.notes()]
    for result in run.results:
        for found in findings(run, result, fail_on, secrets):
            commands.append((found.level, found.check, name, "", found.text))
        for found, why in accepted(run, result, secrets):
            commands.append(("notice", found.check, name, found.label.lower(), f"{found.text} ({why})"))
    return commands, (name, _counts_text(run))


def _counts_text(run: PlanRun) -> str:
    """The counts of one plan's run, as its count line says them."""
    counts = verdict(run.results)[1]
    parts = [f"{counts['passed']} passed", f"{counts['failed']} failed"]
    parts += [f"{counts[key]} {key if counts[key] != 1 else key[:-1]}" for key in ("errors", "warnings") if counts[key]]
    parts += [f"{n} {what}" for n, what in ((run.waived, "waived"), (counts["known"], "known")) if n]
    noun = "check" if counts["total"] == 1 else "checks"
    return f"{counts['total']} {noun}: {', '.join(parts)}"


def _github_scrubbed(part: tuple[list[Command], tuple[str, str]], secrets: Secrets,
                     ) -> tuple[list[Command], tuple[str, str]]:
    """A plan's commands and count line with each value scrubbed of ``secrets`` too (the commands and labels are words)."""
    scrub = secrets.scrub
    commands, (name, counts) = part
    return ([(command, scrub(check), scrub(name), label, scrub(message))
             for command, check, name, label, message in commands], (scrub(name), counts))


#: A plan's GitHub part, keyed by ``--fail-on``.
GITHUB: Final = PartWriter("github", _github_part, _github_scrubbed)


# -- Markdown ---------------------------------------------------------------------------------------

#: The most a Markdown summary holds, in bytes of UTF-8: under GitHub's 1 MiB per step summary
#: (``$GITHUB_STEP_SUMMARY``) and GitLab's 1,000,000 characters per merge-request comment (a character is
#: at least a byte). A longer summary keeps its heading and every plan's table, and ends each plan's list
#: with a line saying how many lines it leaves out.
MARKDOWN_MAX_BYTES: Final = 1_000_000


def _size(line: str) -> int:
    """What ``line`` adds to a Markdown document: its UTF-8 bytes and its newline."""
    return len(line.encode("utf-8", "backslashreplace")) + 1


def _omitted_line(count: int, what: str, limit: int) -> str:
    """The line that stands for ``count`` lines a summary capped at ``limit`` bytes leaves out.

    >>> _omitted_line(3, "findings", MARKDOWN_MAX_BYTES)
    '- *3 more findings not shown: the summary is capped at 1000000 bytes; every finding is in the text, JSON, JUnit and SARIF outputs*'
    """
    return (f"- *{count} more {what} not shown: the summary is capped at {limit} bytes; "
            f"every finding is in the text, JSON, JUnit and SARIF outputs*")


def _markdown_part(run: PlanRun | PlanFailed, fail_on: str) -> tuple[str, list[str], list[str], list[tuple[str, str]]]:
    """A plan's name, notes, table and findings (each label and text), values scrubbed, not escaped (the run escapes
    them; the notes and findings are what a cap may cut)."""
    if isinstance(run, PlanFailed):
        return run.name, [], [], [("ERROR", f"not checked: {run.text()}")]
    secrets = run.secrets()
    counts = verdict(run.results)[1]
    notes = [secrets.scrub(note) for note in run.notes()]
    # The text's count line's words: the failures a waiver accepts and those the baseline knows.
    table = ["| checks | passed | failed | errors | warnings | waived | known |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
             f"| {counts['total']} | {counts['passed']} | {counts['failed']} | {counts['errors']} "
             f"| {counts['warnings']} | {run.waived} | {counts['known']} |"]
    shown = [(f, "") for r in run.results for f in findings(run, r, fail_on, secrets)]
    shown += [(f, f" ({why})") for r in run.results for f, why in accepted(run, r, secrets)]
    return secrets.scrub(run.name), notes, table, [(f.label, f.text + why) for f, why in shown]


def _markdown_lines(name: str, notes: list[str], table: list[str], found: list[tuple[str, str]],
                    ) -> tuple[list[str], list[str], list[str], list[str]]:
    """A plan's part of the summary as its lines: heading, notes, table and findings, each value escaped."""
    return ([f"### {escape_markdown(name)}"], [f"> {escape_markdown(note)}" for note in notes], table,
            [f"- **{label}** {escape_markdown(text)}" for label, text in found])


def render_markdown(runs: Sequence[Checked], fail_on: str, limit: int = MARKDOWN_MAX_BYTES) -> str:
    """A heading saying passed or failed (as the exit status does), then per plan a table of counts and each finding.

    At most ``limit`` bytes (:data:`MARKDOWN_MAX_BYTES`): the heading and every plan's heading and table are
    always kept; the notes and findings that do not fit are left out, plan by plan in order, and each plan
    whose list was cut ends with a line saying how many findings and notes it leaves out.
    """
    status = run_status(runs, fail_on)
    unread = any(isinstance(run, PlanFailed) for run in runs)
    verdict = {0: "passed", 1: "failed", 2: "error (a plan could not be read)" if unread else "error (a check could not run)"}[status]
    parts = [_markdown_lines(*MARKDOWN.of(run, fail_on)) for run in runs]
    heading = f"## {TOOL}: {verdict}"
    whole = [heading]
    for head, notes, table, found in parts:
        whole += ["", *head, "", *notes, *([""] if notes else []), *table, *([""] if found and table else []), *found]
    if sum(map(_size, whole)) - 1 <= limit:
        return "\n".join(whole)
    # What is always kept, with room for each plan's two blank lines around a list and its omitted line.
    kept = _size(heading) + sum(
        sum(map(_size, [*head, *table])) + 4 + _size(_omitted_line(len(notes) + len(found), "findings and notes", limit))
        for head, notes, table, found in parts)
    budget = limit - kept
    lines = [heading]
    for head, notes, table, found in parts:
        lines += ["", *head, ""]
        shown_notes = notes[: _fitting(notes, budget)]
        budget -= sum(map(_size, shown_notes))
        lines += [*shown_notes, *([""] if notes else []), *table]
        shown_found = found[: _fitting(found, budget)]
        budget -= sum(map(_size, shown_found))
        left = len(notes) - len(shown_notes) + len(found) - len(shown_found)
        if (found or left) and table:
            lines.append("")
        lines += shown_found
        if left:
            lines.append(_omitted_line(left, "findings and notes" if len(notes) > len(shown_notes) else "findings", limit))
    return "\n".join(lines)


def _fitting(lines: Sequence[str], budget: int) -> int:
    """How many of ``lines``, from the first, fit in ``budget`` bytes.

    >>> _fitting(["aaa", "bbb", "c"], 8)
    2
    """
    count = 0
    for line in lines:
        budget -= _size(line)
        if budget < 0:
            break
        count += 1
    return count


def _markdown_scrubbed(part: tuple[str, list[str], list[str], list[tuple[str, str]]], secrets: Secrets,
                       ) -> tuple[str, list[str], list[str], list[tuple[str, str]]]:
    """A plan's name, notes and findings scrubbed of ``secrets`` too (its table is counts, its labels words)."""
    scrub = secrets.scrub
    name, notes, table, found = part
    return scrub(name), [scrub(note) for note in notes], table, [(label, scrub(text)) for label, text in found]


#: A plan's Markdown part, keyed by ``--fail-on``.
MARKDOWN: Final = PartWriter("markdown", _markdown_part, _markdown_scrubbed)


# -- a run that stopped at bad input, in every format -----------------------------------------------


def render_error(fmt: str, kind: str, message: str, tool_version: str = "", secrets: Secrets = NO_SECRETS) -> str:
    """What format ``fmt`` says of a run that stopped at bad input before any check ran (exit status 2).

    So a CI step reading a report finds the error, in the report's own terms: a JUnit ``error``, a SARIF
    invocation that did not succeed (with the message as its notification), a GitHub ``::error``, a Markdown
    heading, the JSON error document. Each is rendered (:class:`Rendered`) from its values scrubbed of ``secrets``
    (the message; the format's words and the error's kind are the tool's), as the results documents are; the text
    line is plain, scrubbed by the stream as every text is.

    >>> print(render_error("github", "checks", "checks.toml:3: check[0].type: unknown check 'X'"))
    ::error title=tfplancheck%3A checks error::checks.toml:3: check[0].type: unknown check 'X'
    >>> print(render_error("markdown", "baseline", "error: cannot write", secrets=Secrets(["error"])))
    ## tfplancheck: error
    <BLANKLINE>
    (sensitive): cannot write
    """
    if fmt == "json":
        return error_json(kind, message, secrets, tool_version)
    text = one_line(secrets.scrub(message))
    if fmt == "junit":
        root = ET.Element("testsuites", name=TOOL, tests="1", failures="0", errors="1", skipped="0")
        suite = ET.SubElement(root, "testsuite", name=TOOL, tests="1", failures="0", errors="1", skipped="0")
        case = ET.SubElement(suite, "testcase", name=f"{kind} error", classname=TOOL)
        ET.SubElement(case, "error", message=text, type=kind).text = text
        ET.indent(root)
        return Rendered('<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode"))
    if fmt == "sarif":
        driver: dict[str, Any] = {"name": TOOL, **({"version": tool_version} if tool_version else {})}
        invocation = {"executionSuccessful": False, "exitCode": 2, "properties": {"ok": False},
                      "toolExecutionNotifications": [{"level": "error", "message": {"text": text},
                                                      "descriptor": {"id": kind}}]}
        document = {"$schema": _SARIF_SCHEMA, "version": _SARIF_VERSION,
                    "runs": [{"tool": {"driver": driver}, "invocations": [invocation], "results": []}]}
        return Rendered(json.dumps(document, indent=2, ensure_ascii=False))
    if fmt == "github":
        return Rendered(f"::error title={escape_property(f'{TOOL}: {kind} error')}::{escape_data(text)}")
    if fmt == "markdown":
        return Rendered(f"## {TOOL}: error\n\n{escape_markdown(text)}")
    return f"{TOOL}: error: {one_line(message)}"
