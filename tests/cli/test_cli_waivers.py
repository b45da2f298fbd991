"""Waivers and baselines (#35 points 4 and 5): what is waived, what expires, what a baseline knows, and the errors.

A checks-file entry's ``waive`` list moves the failures its address globs cover to ``waived`` (reported
with the reason, never silently); an expired waiver waives nothing and a NOTE says so. A baseline file
(``--write-baseline``) records failures by check type, address and path as shown; ``--baseline`` fails
only on failures not in it, reports the known ones and the entries that no longer fail. Bad entries and
bad baseline files are exit-2 errors with the exact messages pinned here. "Today" is ``TFPLANCHECK_TODAY``.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from functools import partial
from pathlib import Path
from typing import Any

import clirun
import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "checks"))
sys.path.insert(0, str(ROOT / "tests"))
import planted_secrets  # noqa: E402
from secret_shapes import leaks  # noqa: E402
from whole_plan_support import KEY_SECRET, change, plan_document, run_with_checks  # noqa: E402

from plancheck.cli._waivers import BaselineEntry, parse_baseline  # noqa: E402

VALIDATOR = jsonschema.Draft202012Validator(
    json.loads((ROOT / "plancheck" / "schemas" / "cli-output.schema.json").read_text("utf-8")))

TODAY = "2027-01-31"
#: Fails at aws_instance.web (replaced), aws_s3_bucket.a (a deposed object) and aws_s3_bucket.old (destroyed).
NO_DESTROYS = 'type = "ExpectNoDestroys"\n'
#: Fails at aws_s3_bucket.k["<KEY_SECRET>"] alone: its address holds a secret.
SECRET_KEY_ACTION = f"type = \"ExpectResourceAction\"\naddress = 'aws_s3_bucket.k[\"{KEY_SECRET}\"]'\naction = \"update\"\n"


def entry(body: str, waive: str | None = None, severity: str | None = None) -> str:
    return ("[[check]]\n" + body + (f"waive = {waive}\n" if waive is not None else "")
            + (f'severity = "{severity}"\n' if severity is not None else ""))


#: Every run is on TODAY unless a test says otherwise (waivers expire).
#: The CI's fingerprint key: without it, no baseline accepts a failure at an instance keyed by a secret
#: (test_instances_keyed_by_secrets_fail_closed_without_a_key).
CI_KEY = "ci-fingerprint-key-0123456789"
cli = partial(run_with_checks, today=TODAY, key=CI_KEY)


def results(tmp_path: Path, checks: str, *argv: str, **kwargs: Any) -> tuple[int, dict[str, Any]]:
    code, out, _ = cli(tmp_path, checks, "--format", "json", *argv, **kwargs)
    doc = json.loads(out)
    VALIDATOR.validate(doc)
    assert doc["ok"] is (code == 0)
    return code, doc


def addresses(failures: list[dict[str, Any]]) -> list[str]:
    return sorted(f["address"] for f in failures)


# -- waivers: matching, expiry --------------------------------------------------------------------------

ALL = ["aws_instance.web", "aws_s3_bucket.a", "aws_s3_bucket.old"]
# (waive list, TFPLANCHECK_TODAY) -> exit status, status, failing addresses, waived addresses, expired origins.
WAIVER_TABLE = [
    pytest.param(None, TODAY, 1, "fail", ALL, [], [], id="no-waiver"),
    pytest.param('[{ address = "aws_s3_bucket.old", reason = "r" }]', TODAY, 1, "fail",
                 ["aws_instance.web", "aws_s3_bucket.a"], ["aws_s3_bucket.old"], [], id="exact-address"),
    pytest.param('[{ address = "aws_s3_bucket.*", reason = "r" }]', TODAY, 1, "fail",
                 ["aws_instance.web"], ["aws_s3_bucket.a", "aws_s3_bucket.old"], [], id="glob-covers-two"),
    pytest.param('[{ address = "aws_*", reason = "r" }]', TODAY, 0, "pass", [], ALL, [], id="all-waived-passes"),
    pytest.param('[{ address = "aws_vpc.*", reason = "r" }]', TODAY, 1, "fail", ALL, [], [], id="glob-covers-none"),
    pytest.param('[{ address = "aws_s3_bucket.ol?", reason = "r" }]', TODAY, 1, "fail",
                 ["aws_instance.web", "aws_s3_bucket.a"], ["aws_s3_bucket.old"], [], id="question-mark"),
    pytest.param('[{ address = "aws_*", reason = "r", until = 2027-01-31 }]', TODAY, 0, "pass", [], ALL, [],
                 id="until-is-the-last-day-it-waives"),
    pytest.param('[{ address = "aws_*", reason = "r", until = 2027-01-30 }]', TODAY, 1, "fail", ALL, [],
                 ["checks.toml:1 check[0].waive[0]"], id="expired-the-day-after"),
    pytest.param('[{ address = "aws_*", reason = "r", until = 2026-12-31 }]', "2026-12-31", 0, "pass", [], ALL, [],
                 id="today-from-the-environment"),
    pytest.param('[{ address = "aws_*", reason = "old", until = 2020-01-01 }, '
                 '{ address = "aws_instance.*", reason = "new" }]', TODAY, 1, "fail",
                 ["aws_s3_bucket.a", "aws_s3_bucket.old"], ["aws_instance.web"], ["checks.toml:1 check[0].waive[0]"],
                 id="expired-beside-a-live-one"),
]


@pytest.mark.parametrize(("waive", "today", "code", "status", "failing", "waived", "expired"), WAIVER_TABLE)
def test_waivers_match_by_address_glob_until_they_expire(
    tmp_path: Path, waive: str | None, today: str, code: int, status: str, failing: list[str], waived: list[str],
    expired: list[str],
) -> None:
    got, doc = results(tmp_path, entry(NO_DESTROYS, waive), today=today)
    (result,) = doc["results"]
    assert (got, result["status"], addresses(result["failures"]), addresses(result["waived"])) == (
        code, status, failing, waived)
    assert [w["origin"] for w in result["expired_waivers"]] == expired
    assert doc["summary"]["waived"] == len(waived)


def test_a_waived_failure_is_reported_with_its_reason_and_expiry(tmp_path: Path) -> None:
    waive = '[{ address = "aws_s3_bucket.old", reason = "legacy bucket, storage team until Q1", until = 2027-02-01 }]'
    code, out, _ = cli(tmp_path, entry(NO_DESTROYS, waive))
    assert code == 1
    assert out.splitlines() == [
        "FAIL    ExpectNoDestroys: aws_instance.web: expected no destroy, but it is replaced: action(s) [delete create] "
        "(replace_because_cannot_update)",
        '          aws_s3_bucket.a: deposed object "00000001": expected no destroy, but it is destroyed: action(s) [delete]',
        "WAIVED  ExpectNoDestroys: aws_s3_bucket.old: expected no destroy, but it is destroyed: action(s) [delete] "
        "(waived by checks.toml:1 check[0].waive[0], until 2027-02-01: legacy bucket, storage team until Q1)",
        "1 check in plan.json: 0 passed, 1 failed, 1 waived",
    ]


_UNTIL_WHY = "waived by checks.toml:1 check[0].waive[0], until 2027-02-01: legacy bucket"


def _markdown_line(out: str) -> str:
    (line,) = [line for line in out.splitlines() if line.startswith("- **WAIVED**")]
    return line


def _github_line(out: str) -> str:
    (line,) = [line for line in out.splitlines() if line.startswith("::notice")]
    return line.split("::")[-1]


def _junit_why(out: str) -> str:
    import junitparser

    (suite,) = junitparser.JUnitXml.fromstring(out)
    (case,) = suite
    return str(case.system_out)


def _sarif_why(out: str) -> str:
    (waived,) = [r for r in json.loads(out)["runs"][0]["results"] if r.get("suppressions")]
    return str(waived["suppressions"][0]["justification"])


def _json_until(out: str) -> str:
    (waived,) = json.loads(out)["results"][0]["waived"]
    return str(waived["waiver"]["until"])


# Every format tells a waived failure's expiry, as the text report does (the Markdown summary, GitHub's notice,
# JUnit's system-out and SARIF's justification said who waived it and why, not until when).
UNTIL_TABLE = [
    # The checks file's path before checks.toml is the test's directory, escaped in Markdown.
    pytest.param("markdown", _markdown_line,
                 r"checks.toml:1 check\[0\].waive\[0\], until 2027-02-01: legacy bucket)", id="markdown"),
    pytest.param("github", _github_line, "ExpectNoDestroys: aws_s3_bucket.old: expected no destroy, but it is destroyed: "
                 f"action(s) [delete] ({_UNTIL_WHY})", id="github"),
    pytest.param("junit", _junit_why, f"{_UNTIL_WHY})", id="junit"),
    pytest.param("sarif", _sarif_why, _UNTIL_WHY, id="sarif"),
    pytest.param("json", _json_until, "2027-02-01", id="json"),
]


@pytest.mark.parametrize(("fmt", "read", "expected"), UNTIL_TABLE)
def test_every_format_tells_a_waivers_expiry(tmp_path: Path, fmt: str, read: Any, expected: str) -> None:
    waive = '[{ address = "aws_s3_bucket.old", reason = "legacy bucket", until = 2027-02-01 }]'
    _, out, _ = cli(tmp_path, entry(NO_DESTROYS, waive), "--format", fmt)
    assert read(out).endswith(expected)


def test_a_check_passing_by_its_waivers_shows_them_not_a_pass(tmp_path: Path) -> None:
    code, out, _ = cli(tmp_path, entry(NO_DESTROYS, '[{ address = "*", reason = "r" }]'))
    assert code == 0
    assert [line.split("  ")[0] for line in out.splitlines()[:-1]] == ["WAIVED"] * 3
    assert out.splitlines()[-1] == "1 check in plan.json: 1 passed, 0 failed, 3 waived"


def test_an_expired_waiver_says_so_also_with_quiet(tmp_path: Path) -> None:
    checks = entry(NO_DESTROYS, '[{ address = "aws_*", reason = "r", until = 2027-01-01 }]')
    note = ("NOTE  checks.toml:1 check[0].waive[0] (aws_*) expired on 2027-01-01: it no longer waives ExpectNoDestroys "
            "(renew it with a new reason, or fix the failures)")
    for argv in ((), ("--quiet",)):
        code, out, _ = cli(tmp_path, checks, *argv)
        assert code == 1
        assert note in out.splitlines()


def test_quiet_leaves_out_waived_and_known_lines(tmp_path: Path) -> None:
    checks = entry(NO_DESTROYS, '[{ address = "aws_s3_bucket.*", reason = "r" }]') + entry(SECRET_KEY_ACTION)
    cli(tmp_path, entry(SECRET_KEY_ACTION), "--write-baseline", "base.json")
    code, out, _ = cli(tmp_path, checks, "--baseline", "base.json", "--quiet")
    assert code == 1
    assert [line.split("  ")[0] for line in out.splitlines()] == ["FAIL"]
    code, out, _ = cli(tmp_path, checks, "--baseline", "base.json")
    assert [line.split()[0] for line in out.splitlines()[:-1]] == ["FAIL", "WAIVED", "WAIVED", "KNOWN"]


def test_a_secret_key_spelled_in_a_waiver_matches_nothing(tmp_path: Path) -> None:
    waive = f"[{{ address = 'aws_s3_bucket.k[\"{KEY_SECRET}\"]', reason = \"r\" }}]"
    assert cli(tmp_path, entry(SECRET_KEY_ACTION, waive))[0] == 1  # addresses are matched as shown: (sensitive)


def test_waivers_of_a_warning_check_and_fail_on_warning(tmp_path: Path) -> None:
    checks = entry(NO_DESTROYS, '[{ address = "aws_*", reason = "r" }]', severity="warning")
    assert cli(tmp_path, checks, "--fail-on", "warning")[0] == 0
    assert cli(tmp_path, entry(NO_DESTROYS, severity="warning"), "--fail-on", "warning")[0] == 1


def test_a_waiver_covers_a_secret_key_by_glob_and_never_shows_it(tmp_path: Path) -> None:
    code, out, _ = cli(tmp_path, entry(SECRET_KEY_ACTION, '[{ address = "aws_s3_bucket.k[*]", reason = "r" }]'))
    assert code == 0
    assert out.splitlines()[0].startswith('WAIVED  ExpectResourceAction: aws_s3_bucket.k["(sensitive)"]: ')


@pytest.mark.parametrize("fmt", ["junit", "sarif", "github", "markdown"])
def test_accepted_failures_at_a_secret_key_are_reported_scrubbed_in_every_format(tmp_path: Path, fmt: str) -> None:
    base = str(tmp_path / "base.json")
    waived = cli(tmp_path, entry(SECRET_KEY_ACTION, '[{ address = "aws_s3_bucket.k[*]", reason = "r" }]'), "--format", fmt)
    assert cli(tmp_path, entry(SECRET_KEY_ACTION), "--write-baseline", base)[0] == 0
    known = cli(tmp_path, entry(SECRET_KEY_ACTION), "--baseline", base, "--format", fmt)
    for code, out, _ in (waived, known):  # cli() has found no secret in any of them
        assert code == 0
        assert "(sensitive)" in out, out  # the failure is shown, its key scrubbed


@pytest.mark.parametrize("fmt", ["text", "json", "junit", "sarif", "github", "markdown"])
def test_an_expired_waiver_spelling_a_secret_is_noted_scrubbed_in_every_format(tmp_path: Path, fmt: str) -> None:
    waive = f"[{{ address = 'aws_s3_bucket.k[\"{KEY_SECRET}\"]', reason = \"r\", until = 2027-01-01 }}]"
    code, out, _ = cli(tmp_path, entry(SECRET_KEY_ACTION, waive), "--format", fmt)  # cli() finds no secret in it
    assert code == 1
    if fmt == "json":
        (result,) = json.loads(out)["results"]
        assert [w["address"] for w in result["expired_waivers"]] == ['aws_s3_bucket.k["(sensitive)"]']
    else:  # each format escapes the note its own way; what matters is that it is there and the secret is not
        assert "expired on 2027-01-01" in out, out


def test_a_json_checks_file_takes_the_date_as_a_string(tmp_path: Path) -> None:
    checks = json.dumps({"check": [{"type": "ExpectNoDestroys",
                                    "waive": [{"address": "aws_*", "reason": "r", "until": "2027-01-31"}]}]})
    code, doc = results(tmp_path, checks, name="checks.json")
    assert code == 0
    assert doc["results"][0]["waived"][0]["waiver"] == {
        "address": "aws_*", "reason": "r", "until": "2027-01-31", "origin": "checks.json check[0].waive[0]"}


# -- bad waivers: located exit-2 errors -------------------------------------------------------------

BAD_WAIVERS = [
    pytest.param('"aws_*"', 'check[0].waive: expected a list of waivers such as [{ address = "aws_s3_bucket.legacy*", '
                 'reason = "...", until = 2027-01-31 }], found a string', id="not-a-list"),
    pytest.param('["aws_*"]', 'check[0].waive[0]: expected a waiver table such as { address = "aws_s3_bucket.legacy*", '
                 'reason = "...", until = 2027-01-31 }, found a string', id="item-not-a-table"),
    pytest.param('[{ address = "aws_*" }]', "check[0].waive[0]: a waiver needs a reason: why the failure is accepted "
                 "(and who accepts it)", id="reason-required"),
    pytest.param('[{ address = "aws_*", reason = " " }]', "check[0].waive[0].reason: expected a reason (text saying why "
                 "the failure is accepted), found an empty string", id="reason-blank"),
    pytest.param('[{ address = "aws_*", reason = 3 }]', "check[0].waive[0].reason: expected a reason (text saying why "
                 "the failure is accepted), found a number", id="reason-not-text"),
    pytest.param('[{ reason = "r" }]', 'check[0].waive[0]: a waiver needs an address: an address glob such as '
                 '"aws_s3_bucket.legacy*"', id="address-required"),
    pytest.param('[{ address = "aws_s3_bucket.a[", reason = "r" }]', "check[0].waive[0].address: waive: address "
                 "'aws_s3_bucket.a[' is not a valid pattern: '[' at offset 15 is never closed", id="address-bad-glob"),
    pytest.param('[{ address = "aws_*", reason = "r", untill = 2027-01-31 }]', "check[0].waive[0].untill: unknown "
                 "waiver key 'untill'; did you mean 'until'? (a waiver takes: address, reason, until, plan, element)",
                 id="unknown-key"),
    pytest.param('[{ address = "*", reason = "r", element = 1 }]', "check[0].waive[0].element: expected an address glob "
                 'of the objects it waives, such as "aws_s3_bucket.legacy", found a number', id="element-not-text"),
    pytest.param('[{ address = "*", reason = "r", element = "aws_s3_bucket.a[" }]', "check[0].waive[0].element: waive: "
                 "element 'aws_s3_bucket.a[' is not a valid pattern: '[' at offset 15 is never closed",
                 id="element-bad-glob"),
    pytest.param('[{ address = "*", reason = "r", element = "" }]', "check[0].waive[0].element: waive: element must not "
                 "be empty", id="element-empty"),
    pytest.param('[{ address = "aws_*", reason = "r", until = "31/01/2027" }]', 'check[0].waive[0].until: expected a '
                 'date such as 2027-01-31 (in JSON "2027-01-31"), found "31/01/2027"', id="date-as-other-text"),
    pytest.param('[{ address = "aws_*", reason = "r", until = "2027-02-30" }]', 'check[0].waive[0].until: expected a '
                 'date such as 2027-01-31 (in JSON "2027-01-31"), found "2027-02-30"', id="date-no-such-day"),
    pytest.param('[{ address = "aws_*", reason = "r", until = 2027-01-31T10:00:00 }]', "check[0].waive[0].until: "
                 'expected a date such as 2027-01-31 (in JSON "2027-01-31"), found a date and time', id="date-and-time"),
    pytest.param('[{ address = "aws_*", reason = "r", until = 20270131 }]', "check[0].waive[0].until: expected a date "
                 'such as 2027-01-31 (in JSON "2027-01-31"), found a number', id="date-a-number"),
    pytest.param('[{ address = "aws_*", reason = "r", until = true }]', "check[0].waive[0].until: expected a date "
                 'such as 2027-01-31 (in JSON "2027-01-31"), found a bool', id="date-a-bool"),
    pytest.param('[{ address = "aws_*", reason = "r", until = [2027-01-31] }]', "check[0].waive[0].until: expected a "
                 'date such as 2027-01-31 (in JSON "2027-01-31"), found an array of 1 element', id="date-in-a-list"),
    pytest.param('[{ address = "aws_*", reason = "r", until = 10:00:00 }]', "check[0].waive[0].until: expected a date "
                 'such as 2027-01-31 (in JSON "2027-01-31"), found a time of day', id="date-a-time-of-day"),
    # It was read, and waived nothing: only a whole-plan check's failure lists objects.
    pytest.param('[{ address = "*", reason = "r" }, { address = "*", reason = "r", element = "aws_s3_bucket.a" }]',
                 "check[0].waive[1].element: ExpectNoDestroys fails once per address, which a waiver names by its "
                 "address; element names the objects an ExpectEach* check's failure lists", id="element-of-another-check"),
]


@pytest.mark.parametrize(("waive", "message"), BAD_WAIVERS)
def test_a_bad_waiver_is_a_located_error(tmp_path: Path, waive: str, message: str) -> None:
    code, out, err = cli(tmp_path, entry(NO_DESTROYS) + entry(NO_DESTROYS, waive))
    assert (code, out) == (2, "")
    # The line of the second check's waive key (its header is line 3).
    assert err == f"tfplancheck: error: checks.toml:5: {message.replace('check[0]', 'check[1]')}\n"


@pytest.mark.parametrize(("until", "found"), [(None, "null"), (20270131, "a number"), ({"y": 2027}, "an object with 1 key")],
                         ids=["null", "number", "object"])
def test_a_json_waivers_bad_date_is_told_in_jsons_words(tmp_path: Path, until: Any, found: str) -> None:
    checks = json.dumps({"check": [{"type": "ExpectNoDestroys", "waive": [{"address": "aws_*", "reason": "r", "until": until}]}]})
    code, out, err = cli(tmp_path, checks, name="checks.json")
    assert (code, out) == (2, "")
    assert err == ('tfplancheck: error: checks.json: check[0].waive[0].until: expected a date such as 2027-01-31 (in JSON '
                   f'"2027-01-31"), found {found}\n')


def test_a_bad_today_is_a_usage_error(tmp_path: Path) -> None:
    code, _, err = cli(tmp_path, entry(NO_DESTROYS), today="31.01.2027")
    assert (code, err) == (2, "tfplancheck: error: TFPLANCHECK_TODAY must be a date such as 2027-01-31, not '31.01.2027'\n")


# -- --list-waivers ---------------------------------------------------------------------------------------


def _list(tmp_path: Path, checks: str, *argv: str) -> tuple[int, str, str]:
    (tmp_path / "checks.toml").write_text(checks, "utf-8")
    code, out, err = clirun.cli("-c", str(tmp_path / "checks.toml"), "--list-waivers", *argv, stdin=None,
                                environ={"TFPLANCHECK_TODAY": TODAY})
    return code, out.replace(str(tmp_path) + "/", ""), err


LISTED = (entry(NO_DESTROYS, '[{ address = "aws_s3_bucket.legacy*", reason = "storage team", until = 2027-03-01 }, '
                             '{ address = "aws_instance.*", reason = "gone soon", until = 2026-12-01 }]')
          + entry(SECRET_KEY_ACTION.replace(KEY_SECRET, "k1"), '[{ address = "*", reason = "forever" }]'))


def test_list_waivers_prints_each_with_its_expiry(tmp_path: Path) -> None:
    code, out, _ = _list(tmp_path, LISTED)
    assert code == 0
    assert out.splitlines() == [
        "checks.toml:1 check[0].waive[0]: ExpectNoDestroys: aws_s3_bucket.legacy* (until 2027-03-01): storage team",
        "checks.toml:1 check[0].waive[1]: ExpectNoDestroys: aws_instance.* (EXPIRED 2026-12-01): gone soon",
        "checks.toml:4 check[1].waive[0]: ExpectResourceAction: * (no expiry): forever",
        "3 waivers (1 expired as of 2027-01-31)",
    ]


def test_list_waivers_as_json(tmp_path: Path) -> None:
    code, out, _ = _list(tmp_path, LISTED, "--format", "json")
    doc = json.loads(out)
    VALIDATOR.validate(doc)
    assert (code, doc["kind"], doc["today"]) == (0, "waivers", TODAY)
    assert [(w["check"], w["until"], w["expired"]) for w in doc["waivers"]] == [
        ("ExpectNoDestroys", "2027-03-01", False), ("ExpectNoDestroys", "2026-12-01", True),
        ("ExpectResourceAction", None, False)]


def test_list_waivers_needs_checks_files() -> None:
    code, _, err = clirun.cli("--list-waivers", stdin=None, environ={})
    assert code == 2
    assert err == "tfplancheck: error: --list-waivers needs the checks files: --checks FILE\n"


# -- baselines: known, new, fixed ---------------------------------------------------------------------


def _plan_with(*, drop: str | None = None, add: dict[str, Any] | None = None, reason: str | None = None) -> dict[str, Any]:
    doc = plan_document()
    doc["resource_changes"] = [rc for rc in doc["resource_changes"] if rc["address"] != drop]
    if add is not None:
        doc["resource_changes"].append(add)
    if reason is not None:
        for rc in doc["resource_changes"]:
            if rc["address"] == "aws_instance.web":
                rc["action_reason"] = reason
    return doc


NEW_DESTROY = change("aws_s3_bucket.extra", ["delete"], None, before={"tags": {}})
CHECKS = entry(NO_DESTROYS) + entry(SECRET_KEY_ACTION)
KNOWN_ALL = ["aws_instance.web", "aws_s3_bucket.a", 'aws_s3_bucket.k["(sensitive)"]', "aws_s3_bucket.old"]
# (plan today, checks today) -> exit status, failing, known, fixed (after a baseline written on the plan as it was).
BASELINE_TABLE = [
    pytest.param(_plan_with(), CHECKS, 0, [], KNOWN_ALL, [], id="same-plan-all-known"),
    pytest.param(_plan_with(add=NEW_DESTROY), CHECKS, 1, ["aws_s3_bucket.extra"], KNOWN_ALL, [], id="a-new-failure"),
    pytest.param(_plan_with(drop="aws_s3_bucket.old"), CHECKS, 0, [], sorted(set(KNOWN_ALL) - {"aws_s3_bucket.old"}),
                 [{"check": "ExpectNoDestroys", "address": "aws_s3_bucket.old", "path": None}], id="one-fixed"),
    pytest.param(_plan_with(reason="replace_by_triggers"), CHECKS, 0, [], KNOWN_ALL, [],
                 id="message-changed-still-known"),
    pytest.param(_plan_with(), entry(SECRET_KEY_ACTION) + entry(NO_DESTROYS), 0, [], KNOWN_ALL, [],
                 id="checks-reordered-still-known"),
    pytest.param(_plan_with(), entry(NO_DESTROYS, severity="warning") + entry(SECRET_KEY_ACTION), 0, [], KNOWN_ALL, [],
                 id="severity-changed-still-known"),
]


@pytest.mark.parametrize(("plan", "checks", "code", "failing", "known", "fixed"), BASELINE_TABLE)
def test_a_baseline_fails_only_on_new_failures(
    tmp_path: Path, plan: dict[str, Any], checks: str, code: int, failing: list[str], known: list[str],
    fixed: list[dict[str, Any]],
) -> None:
    baseline = "baseline.json"
    assert cli(tmp_path, CHECKS, "--write-baseline", baseline)[0] == 0
    got, doc = results(tmp_path, checks, "--baseline", baseline, plan=plan)
    failures = [f for r in doc["results"] for f in r["failures"]]
    assert (got, addresses(failures), addresses([f for r in doc["results"] for f in r["known"]])) == (code, failing, known)
    assert doc["baseline"] == {"file": baseline, "fixed": fixed}
    assert doc["summary"]["known"] == len(known)


def test_write_baseline_accepts_the_runs_failures_and_the_file_is_stable(tmp_path: Path) -> None:
    code, out, _ = cli(tmp_path, CHECKS, "--write-baseline", "base.json")
    assert code == 0
    assert out.splitlines()[-1] == "2 checks in plan.json: 2 passed, 0 failed, 4 known"
    text = Path("base.json").read_text("utf-8")
    assert json.loads(text) == {"tfplancheck_baseline": 1, "failures": [
        {"check": "ExpectNoDestroys", "address": "aws_instance.web", "path": None},
        {"check": "ExpectNoDestroys", "address": "aws_s3_bucket.a", "path": None},
        {"check": "ExpectNoDestroys", "address": "aws_s3_bucket.old", "path": None},
        # The key hides a secret: its keyed fingerprint under the CI's key (CI_KEY) tells it apart.
        {"check": "ExpectResourceAction", "address": 'aws_s3_bucket.k["(sensitive #d04cb2a9d7bd)"]', "path": None},
    ]}
    assert "expected" not in text  # no message text


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a relative --write-baseline lands in the test's directory


def test_baseline_text_output_names_known_and_fixed(tmp_path: Path) -> None:
    cli(tmp_path, CHECKS, "--write-baseline", "base.json")
    code, out, _ = cli(tmp_path, CHECKS, "--baseline", "base.json", plan=_plan_with(drop="aws_s3_bucket.old", add=NEW_DESTROY))
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "FAIL   ExpectNoDestroys: aws_s3_bucket.extra: expected no destroy, but it is destroyed: action(s) [delete]"
    assert [line.split("  ")[0] for line in lines[1:4]] == ["KNOWN"] * 3
    assert "NOTE   baseline entry no longer fails (remove it from base.json): ExpectNoDestroys: aws_s3_bucket.old" in lines
    assert lines[-1] == "2 checks in plan.json: 1 passed, 1 failed, 3 known, 1 fixed"


def test_waived_failures_are_not_written_and_not_fixed(tmp_path: Path) -> None:
    waived = entry(NO_DESTROYS, '[{ address = "aws_s3_bucket.old", reason = "r" }]')
    cli(tmp_path, waived, "--write-baseline", "base.json")
    assert "aws_s3_bucket.old" not in Path("base.json").read_text()
    cli(tmp_path, entry(NO_DESTROYS), "--write-baseline", "all.json")
    code, doc = results(tmp_path, waived, "--baseline", "all.json")
    assert (code, doc["baseline"]["fixed"]) == (0, [])  # the waived failure still fails: its entry is not fixed


def test_baseline_and_write_baseline_together_rewrite_it(tmp_path: Path) -> None:
    cli(tmp_path, CHECKS, "--write-baseline", "base.json")
    code, _, _ = cli(tmp_path, CHECKS, "--baseline", "base.json", "--write-baseline", "base.json",
                     plan=_plan_with(drop="aws_s3_bucket.old", add=NEW_DESTROY))
    assert code == 1  # judged by the old baseline: the new failure fails this run
    written = [e["address"] for e in json.loads(Path("base.json").read_text())["failures"]]
    assert "aws_s3_bucket.extra" in written
    assert "aws_s3_bucket.old" not in written


BAD_BASELINES = [
    pytest.param("nope", "base.json: invalid JSON (at line 1, column 1)", id="not-json"),
    pytest.param('{"tfplancheck_baseline": 1, "failures": ' + "[" * 100_000 + "]" * 100_000 + "}",
                 "base.json: invalid JSON: nested too deeply\n", id="nested-too-deeply"),
    pytest.param('{"failures": []}', 'base.json: not a tfplancheck baseline (no "tfplancheck_baseline": 1; write one '
                 "with --write-baseline)", id="no-version"),
    pytest.param('{"tfplancheck_baseline": 2, "failures": []}', "base.json: baseline version 2 is not supported (this "
                 "tfplancheck reads version 1)", id="other-version"),
    # A number of more digits than Python converts to an int was a bare "invalid JSON"; it is read as the plan loader
    # and the checks file read it, and said where it stands.
    pytest.param('{"tfplancheck_baseline": ' + "7" * 5000 + ', "failures": []}', "base.json: baseline version of 5000 "
                 "digits is not supported (this tfplancheck reads version 1)\n", id="version-of-5000-digits"),
    pytest.param('{"tfplancheck_baseline": 1, "failures": [{"check": ' + "7" * 5000 + ', "address": null, "path": '
                 'null}]}', "base.json: failures[0]: check is a string; address and path are strings or null\n",
                 id="entry-number-of-5000-digits"),
    # A float, or an entry of empty strings, was read as a baseline: the writer writes neither.
    pytest.param('{"tfplancheck_baseline": 1.0, "failures": []}', "base.json: baseline version 1.0 is not supported "
                 "(this tfplancheck reads version 1)\n", id="version-a-float"),
    pytest.param('{"tfplancheck_baseline": 1, "failures": [{"check": "", "address": "a.b", "path": null}]}',
                 "base.json: failures[0]: check is empty (the check's type)\n", id="entry-check-empty"),
    pytest.param('{"tfplancheck_baseline": 1, "failures": [{"check": "X", "address": "a.b", "path": null}, '
                 '{"check": "X", "address": "", "path": null}]}',
                 "base.json: failures[1]: address is empty (null for a failure of no address)\n",
                 id="entry-address-empty"),
    pytest.param('{"tfplancheck_baseline": 1, "failures": [{"check": "X", "address": "a.b", "path": null, "plan": ""}]}',
                 "base.json: failures[0]: plan is empty (the plan file the failure is of)\n", id="entry-plan-empty"),
    pytest.param('{"tfplancheck_baseline": 1, "failures": [{"check": "X", "address": "a.*", "path": null, "element": ""}]}',
                 "base.json: failures[0]: element is empty (the address of the object that fails)\n",
                 id="entry-element-empty"),
    pytest.param('{"tfplancheck_baseline": 1, "failures": [{"check": "X", "address": "a.*", "path": null, "element": 1}]}',
                 "base.json: failures[0]: element is a string: the address of the object that fails\n",
                 id="entry-element-not-a-string"),
    # A path that does not parse was read, matched no failure, and was reported "no longer fails" on every run.
    pytest.param('{"tfplancheck_baseline": 1, "failures": [{"check": "X", "address": "a.b", "path": "tags"}, '
                 '{"check": "X", "address": "a.b", "path": "tags..x"}]}',
                 "base.json: failures[1].path: invalid path 'tags..x' at offset 5: expected a key of letters, digits and "
                 "'_' after '.' (quote other keys as [\"...\"]), found '.'\n", id="entry-path-does-not-parse"),
    pytest.param('{"tfplancheck_baseline": 1, "failures": [{"check": "X", "address": "a.*", "path": "[0", "element": '
                 '"a.b"}]}', "base.json: failures[0].path: invalid path '[0' at offset 2: expected ']' after the index, "
                 "found the end of the text\n", id="entry-path-unclosed-index"),
    pytest.param('{"tfplancheck_baseline": 1, "failures": {}}', "base.json: failures: expected a list, found an object",
                 id="failures-not-a-list"),
    pytest.param('{"tfplancheck_baseline": 1, "failures": [{"check": "X"}]}', 'base.json: failures[0]: expected a table '
                 'of "check", "address" and "path" (and "plan", in a baseline of many plans; "element", of a whole-plan '
                 'check)\n', id="entry-missing-keys"),
    pytest.param('{"tfplancheck_baseline": 1, "failures": [{"check": "X", "address": null, "path": null, "elements": []}]}',
                 'base.json: failures[0]: expected a table of "check", "address" and "path" (and "plan", in a baseline '
                 'of many plans; "element", of a whole-plan check)\n', id="entry-unknown-key"),
    pytest.param('{"tfplancheck_baseline": 1, "failures": [{"check": 1, "address": null, "path": null}]}',
                 "base.json: failures[0]: check is a string; address and path are strings or null", id="entry-bad-type"),
    pytest.param('{"tfplancheck_baseline": 1, "failures": [], "extra": 1}', "base.json: unknown key 'extra' (a baseline "
                 "has tfplancheck_baseline and failures)", id="unknown-key"),
    pytest.param('{"tfplancheck_baseline": 1, "failures": [], "failures": []}', "base.json: the key 'failures' is given "
                 "twice in one object (which of its values counts would be a guess)", id="repeated-top-level-key"),
    pytest.param('{"tfplancheck_baseline": 1, "failures": [{"check": "X", "address": "a.b", "address": "c.d", '
                 '"path": null}]}', "base.json: the key 'address' is given twice in one object (which of its values "
                 "counts would be a guess)", id="repeated-key-in-an-entry"),
    pytest.param(None, "base.json: cannot read the baseline", id="missing-file"),
    # Read past an editor's byte-order mark, as a plan is: the error is the document's, not "invalid JSON".
    pytest.param('\ufeff{"failures": []}', 'base.json: not a tfplancheck baseline (no "tfplancheck_baseline": 1; write '
                 "one with --write-baseline)", id="byte-order-mark"),
]


@pytest.mark.parametrize(("text", "message"), BAD_BASELINES)
def test_a_bad_baseline_is_an_exit_2_error(tmp_path: Path, text: str | None, message: str) -> None:
    if text is not None:
        Path("base.json").write_text(text, "utf-8")
    code, out, err = cli(tmp_path, CHECKS, "--baseline", "base.json")
    assert (code, out) == (2, "")
    assert err.startswith(f"tfplancheck: error: {message}")
    code, out, _ = cli(tmp_path, CHECKS, "--baseline", "base.json", "--format", "json")
    assert json.loads(out)["error"]["kind"] == "baseline"


@pytest.mark.parametrize(
    ("entry", "read"),
    [
        # What the writer writes for a check of a whole value (ExpectKnownValue at path ""): read back as written.
        pytest.param({"check": "X", "address": "a.b", "path": ""}, BaselineEntry("X", "a.b", ""), id="root-path"),
        pytest.param({"check": "X", "address": None, "path": None}, BaselineEntry("X", None, None), id="no-address"),
        pytest.param({"check": "X", "address": "a.b", "path": 'tags["a.b"][0].c'},
                     BaselineEntry("X", "a.b", 'tags["a.b"][0].c'), id="quoted-key-and-index"),
        # A secret scrubbed out of a path may leave text that is no path's (a secret that was a whole bare key): the
        # run that wrote it matches it as written.
        pytest.param({"check": "X", "address": "a.b", "path": "(sensitive).c"},
                     BaselineEntry("X", "a.b", "(sensitive).c"), id="scrubbed-bare-key"),
        pytest.param({"check": "X", "address": "a.*", "path": "tags", "element": "a.b", "plan": "p.json"},
                     BaselineEntry("X", "a.*", "tags", plan="p.json", element="a.b"), id="an-object-of-a-whole-plan-check"),
    ],
)
def test_a_baseline_entry_the_writer_writes_is_read(entry: dict[str, Any], read: BaselineEntry) -> None:
    text = json.dumps({"tfplancheck_baseline": 1, "failures": [entry]})
    assert parse_baseline(text, "base.json").entries == frozenset({read})


def test_a_missing_baseline_says_how_to_write_one(tmp_path: Path) -> None:
    # A pipeline's first run with --baseline, before anyone committed the file.
    code, out, err = cli(tmp_path, CHECKS, "--baseline", "base.json")
    assert (code, out, err) == (2, "", "tfplancheck: error: base.json: cannot read the baseline: No such file or "
                                       "directory (write one with --write-baseline base.json)\n")


def test_a_baseline_through_a_link_rewrites_the_file_it_names_and_keeps_the_link(tmp_path: Path) -> None:
    # ci/baseline.json -> ../shared/baseline.json: the link was replaced by a file, and the shared file kept old entries.
    Path("shared").mkdir()
    Path("shared/baseline.json").write_text('{"tfplancheck_baseline": 1, "failures": []}', "utf-8")
    Path("ci").mkdir()
    Path("ci/baseline.json").symlink_to("../shared/baseline.json")
    code, _, _ = cli(tmp_path, CHECKS, "--baseline", "ci/baseline.json", "--write-baseline", "ci/baseline.json")
    assert (code, Path("ci/baseline.json").is_symlink()) == (1, True)
    assert len(json.loads(Path("shared/baseline.json").read_text("utf-8"))["failures"]) == 4


def test_a_baseline_written_to_a_pipe_is_written_into_it(tmp_path: Path) -> None:
    # A file renamed over a device or a pipe replaced it: as root, --write-baseline /dev/full left a regular file where
    # /dev/full was (/dev/stdout likewise). A FIFO stands for them here.
    os.mkfifo("pipe")
    reader = os.open("pipe", os.O_RDONLY | os.O_NONBLOCK)
    try:
        code, out, err = cli(tmp_path, CHECKS, "--write-baseline", "pipe")
        assert (code, err, stat.S_ISFIFO(os.stat("pipe").st_mode)) == (0, "", True)
        written = json.loads(os.read(reader, 65536))
    finally:
        os.close(reader)
    assert (len(written["failures"]), out.splitlines()[-1]) == (4, "2 checks in plan.json: 2 passed, 0 failed, 4 known")


def test_an_unwritable_baseline_is_an_exit_2_error(tmp_path: Path) -> None:
    code, _, err = cli(tmp_path, CHECKS, "--write-baseline", "plan.json/base.json")
    assert code == 2
    assert err.startswith("tfplancheck: error: plan.json/base.json: cannot write the baseline: ")


@pytest.mark.parametrize(
    ("option", "value", "code"),
    [
        pytest.param("--report", "json=reports/new/out.json", 1, id="report"),
        # It failed ("No such file or directory") where --report made the directory.
        pytest.param("--write-baseline", "reports/new/out.json", 0, id="write-baseline"),
    ],
)
def test_an_output_file_in_a_missing_directory_makes_the_directory(tmp_path: Path, option: str, value: str,
                                                                     code: int) -> None:
    assert cli(tmp_path, CHECKS, option, value)[::2] == (code, "")
    assert json.loads((tmp_path / "reports" / "new" / "out.json").read_text("utf-8"))


# -- secrets: no planted secret in the baseline file nor in any output -----------------------------------


def test_no_planted_secret_reaches_the_baseline_or_the_output(tmp_path: Path) -> None:
    each = f"terraform_data.each[\"{planted_secrets.SECRET_VAR}\"]"
    checks = (entry('type = "ExpectEmptyPlan"\n')
              + entry(f"type = \"ExpectResourceAction\"\naddress = '{each}'\naction = \"update\"\n",
                      '[{ address = "terraform_data.nothing", reason = "r", until = 2020-01-01 }]'))
    plan = planted_secrets.plan_document()
    texts = []
    for argv in (("--write-baseline", "base.json"), ("--baseline", "base.json"), ("--baseline", "base.json", "--format",
                 "json"), ("--write-baseline", "base.json", "--format", "json")):
        code, out, err = cli(tmp_path, checks, *argv, plan=plan, never=tuple(planted_secrets.PLANTED.values()))
        texts += [out, err, Path("base.json").read_text("utf-8")]
        assert code == 0
    assert all(leaks(text, planted_secrets.PLANTED) == [] for text in texts)
    assert re.search(r'terraform_data\.each\[\\"\(sensitive #[0-9a-f]{12}\)\\"\]', Path("base.json").read_text("utf-8"))  # scrubbed


def test_mock_plan_judges_waivers_on_the_same_today(tmp_path: Path) -> None:
    (tmp_path / "checks.toml").write_text(entry(NO_DESTROYS), "utf-8")
    code, _, err = clirun.cli("mock-plan", str(tmp_path), "--mock", "acme/x=s.json", "--checks",
                              str(tmp_path / "checks.toml"), stdin=None, environ={"TFPLANCHECK_TODAY": "x"})
    assert (code, err) == (2, "tfplancheck: error: TFPLANCHECK_TODAY must be a date such as 2027-01-31, not 'x'\n")


def test_a_baseline_of_many_plans_judges_one_plan_by_its_entries_and_those_of_no_plan() -> None:
    from plancheck import CheckFailure
    from plancheck._redact import NO_SECRETS
    from plancheck.cli._checksfile import CheckResult, CheckSpec
    from plancheck.cli._waivers import Baseline, BaselineEntry, judge_by_baseline

    spec = CheckSpec("ExpectNoDestroys", None, "checks.toml check[0]")
    failures = tuple(CheckFailure("ExpectNoDestroys", address, None, "destroyed") for address in ("a.x", "a.y", "a.z"))
    base = Baseline("base.json", frozenset({BaselineEntry("ExpectNoDestroys", "a.x", None, plan="prod/plan.json"),
                                            BaselineEntry("ExpectNoDestroys", "a.y", None, plan="dev/plan.json"),
                                            BaselineEntry("ExpectNoDestroys", "a.z", None)}))
    (result,), fixed, file = judge_by_baseline([CheckResult(spec, "fail", failures)], NO_SECRETS, base, None,
                                               "./prod/plan.json")
    assert ([f.address for f in result.failures], sorted(f.address for f in result.known), fixed, file) == (
        ["a.y"], ["a.x", "a.z"], [], "base.json")


# -- instances keyed by secrets: a fingerprint each, under the CI's key ---------------------------------

#: Two for_each keys made from sensitive variables: the addresses hide them, (sensitive) each.
KEY_ONE, KEY_TWO = "pw-one-4Kx9", "pw-two-8Qm2"
FINGERPRINT_KEY = "0123456789abcdef-ci-secret"


def _keyed_plan(*keys: str) -> dict[str, Any]:
    return {"format_version": "1.2", "terraform_version": "1.11.4",
            "variables": {"one": {"value": KEY_ONE}, "two": {"value": KEY_TWO}},
            "configuration": {"root_module": {"variables": {"one": {"sensitive": True}, "two": {"sensitive": True}}}},
            "resource_changes": [change(f'aws_s3_bucket.k["{k}"]', ["delete"], None, before={"tags": {}}) for k in keys]}


def _keyed_run(tmp_path: Path, keys: tuple[str, ...], key: str | None, *argv: str) -> clirun.Ran:
    (tmp_path / "plan.json").write_text(json.dumps(_keyed_plan(*keys)), "utf-8")
    (tmp_path / "checks.toml").write_text(entry(NO_DESTROYS), "utf-8")
    environ = {**clirun.HERMETIC, **({"TFPLANCHECK_SNAPSHOT_KEY": key} if key is not None else {})}
    return clirun.cli("plan.json", "-c", "checks.toml", *argv, environ=environ, never=(KEY_ONE, KEY_TWO))


def _hashes(secret: str) -> list[str]:
    import hashlib

    digests = [hashlib.new(name, secret.encode()).hexdigest() for name in ("md5", "sha1", "sha256", "sha512")]
    return [*digests, *(d[:12] for d in digests)]


# (keys failing when the baseline is written, keys failing now, the fingerprint key) -> exit status, new failures.
KEYED_TABLE = [
    pytest.param((KEY_ONE,), (KEY_ONE, KEY_TWO), FINGERPRINT_KEY, 1, 1, id="a-second-secret-instance-is-new"),
    pytest.param((KEY_ONE,), (KEY_ONE,), FINGERPRINT_KEY, 0, 0, id="the-same-secret-instance-is-known"),
    pytest.param((KEY_ONE, KEY_TWO), (KEY_TWO,), FINGERPRINT_KEY, 0, 0, id="two-instances-two-entries"),
    pytest.param((KEY_ONE,), (KEY_TWO,), FINGERPRINT_KEY, 1, 1, id="another-secret-instance-is-new"),
    # Without the key every such instance is one entry, (sensitive): accepting it would accept any other instance
    # (a new secret, a swapped one), so no baseline accepts it; each run fails, saying to set the key.
    pytest.param((KEY_ONE,), (KEY_ONE, KEY_TWO), None, 1, 1, id="without-a-key-every-secret-instance-fails-closed"),
    pytest.param((KEY_ONE,), (KEY_ONE,), None, 1, 1, id="without-a-key-the-same-secret-instance-fails-closed"),
    pytest.param((KEY_ONE,), (KEY_TWO,), None, 1, 1, id="without-a-key-a-swapped-secret-instance-fails-closed"),
]


@pytest.mark.parametrize(("written", "now", "key", "code", "new"), KEYED_TABLE)
def test_instances_keyed_by_secrets_are_told_apart_by_a_keyed_fingerprint(
    tmp_path: Path, written: tuple[str, ...], now: tuple[str, ...], key: str | None, code: int, new: int,
) -> None:
    # Written without the key, the run is judged by its new baseline and fails closed at once.
    assert _keyed_run(tmp_path, written, key, "--write-baseline", "base.json")[0] == (0 if key is not None else 1)
    text = (tmp_path / "base.json").read_text("utf-8")
    addresses_written = [e["address"] for e in json.loads(text)["failures"]]
    assert len(addresses_written) == (len(written) if key is not None else 1)
    shown = r'aws_s3_bucket\.k\["\(sensitive #[0-9a-f]{12}\)"\]' if key is not None else r'aws_s3_bucket\.k\["\(sensitive\)"\]'
    assert all(re.fullmatch(shown, a) for a in addresses_written), addresses_written
    # Neither the secrets nor any plain hash of them (which trying every short secret would reverse) is in the file.
    assert [s for s in (KEY_ONE, KEY_TWO, *_hashes(KEY_ONE), *_hashes(KEY_TWO), FINGERPRINT_KEY) if s in text] == []
    got, out, _ = _keyed_run(tmp_path, now, key, "--baseline", "base.json")
    assert (got, sum(line.startswith("FAIL ") for line in out.splitlines())) == (code, new), out


def test_an_old_entry_of_a_secret_instance_is_fixed_once_a_key_is_set(tmp_path: Path) -> None:
    """A baseline written before the fingerprints (or without the key) holds (sensitive): under a key it matches no
    failure, so the failure is new and the entry is noted fixed; rewriting the baseline gives it its fingerprint."""
    old = {"tfplancheck_baseline": 1, "failures": [
        {"check": "ExpectNoDestroys", "address": 'aws_s3_bucket.k["(sensitive)"]', "path": None}]}
    (tmp_path / "base.json").write_text(json.dumps(old), "utf-8")
    assert _keyed_run(tmp_path, (KEY_ONE,), None, "--baseline", "base.json")[0] == 1  # no key: fails closed
    code, out, _ = _keyed_run(tmp_path, (KEY_ONE,), FINGERPRINT_KEY, "--baseline", "base.json")
    assert code == 1
    assert 'NOTE  baseline entry no longer fails (remove it from base.json): ExpectNoDestroys: aws_s3_bucket.k["(sensitive)"]' in out


def test_instances_keyed_by_secrets_fail_closed_without_a_key(tmp_path: Path) -> None:
    """The failure a baseline without the key cannot accept says why, and what to do; its entry is not fixed."""
    assert _keyed_run(tmp_path, (KEY_ONE,), None, "--write-baseline", "base.json")[0] == 1
    code, out, err = _keyed_run(tmp_path, (KEY_ONE,), None, "--baseline", "base.json")
    assert (code, err, [line for line in out.splitlines() if line.startswith(("FAIL", "NOTE"))]) == (1, "", [
        'FAIL  ExpectNoDestroys: aws_s3_bucket.k["(sensitive)"]: expected no destroy, but it is destroyed: action(s) '
        "[delete] (no baseline accepts it: its address hides a secret instance key, which only TFPLANCHECK_SNAPSHOT_KEY "
        "(a CI secret of 16 bytes or more) tells apart from other instances; set it and write the baseline again)"])


def test_a_short_fingerprint_key_is_a_usage_error_before_the_plan_is_read(tmp_path: Path) -> None:
    code, _, err = _keyed_run(tmp_path, (KEY_ONE,), "short", "--write-baseline", "base.json")
    assert (code, err) == (2, "tfplancheck: error: plancheck.snapshot: a fingerprint key ($TFPLANCHECK_SNAPSHOT_KEY) "
                              "must be at least 16 bytes long, got 5 (use a random CI secret)\n")
    assert not (tmp_path / "base.json").exists()


def test_a_baseline_of_many_plans_fingerprints_each_plans_secret_instances(tmp_path: Path) -> None:
    """The failures come back from the workers (pickled) with what the fingerprint is made of; the file holds it
    per plan, and a second secret instance in a plan whose baseline knows one is new there."""
    plans = {"a.json": (KEY_ONE,), "b.json": (KEY_ONE, KEY_TWO)}
    (tmp_path / "checks.toml").write_text(entry(NO_DESTROYS), "utf-8")
    environ = {**clirun.HERMETIC, "TFPLANCHECK_SNAPSHOT_KEY": FINGERPRINT_KEY}

    def run(*argv: str) -> tuple[int, str]:
        for name, keys in plans.items():
            (tmp_path / name).write_text(json.dumps(_keyed_plan(*keys)), "utf-8")
        code, out, _ = clirun.cli(*plans, "-c", "checks.toml", "--jobs", "2", *argv, environ=environ,
                                  never=(KEY_ONE, KEY_TWO))
        return code, out

    assert run("--write-baseline", "base.json")[0] == 0
    failures = json.loads((tmp_path / "base.json").read_text("utf-8"))["failures"]
    assert [f["plan"] for f in failures] == ["a.json", "b.json", "b.json"]
    assert all(f["address"].startswith('aws_s3_bucket.k["(sensitive #') for f in failures), failures
    assert len({f["address"] for f in failures}) == 2  # one fingerprint a key, the same in both plans
    plans["a.json"] = (KEY_ONE, KEY_TWO)
    code, out = run("--baseline", "base.json")
    assert (code, out.splitlines()[-1]) == (1, "2 plans: 1 passed, 1 failed")


# -- waivers of instances keyed by secrets: the baselines' fingerprint, or nothing -------------------------

#: The fingerprints of aws_s3_bucket.k[KEY_ONE] and [KEY_TWO] under FINGERPRINT_KEY: what a baseline written with the
#: key holds, and what a waiver names one instance by.
ONE_KEYED, TWO_KEYED = 'aws_s3_bucket.k["(sensitive #71cd0be9ab49)"]', 'aws_s3_bucket.k["(sensitive #22e13bfbcd00)"]'
SHOWN_KEYED = 'aws_s3_bucket.k["(sensitive)"]'
_DESTROYED = "expected no destroy, but it is destroyed: action(s) [delete]"
_NO_KEY_NOTE = ("names an instance by its secret key, which only TFPLANCHECK_SNAPSHOT_KEY (a CI secret of 16 bytes or "
                "more) tells apart from other instances; set it, and name the instance as this note then does)")


def _waived_run(tmp_path: Path, keys: tuple[str, ...], address: str, key: str | None, *argv: str) -> clirun.Ran:
    (tmp_path / "plan.json").write_text(json.dumps(_keyed_plan(*keys)), "utf-8")
    (tmp_path / "checks.toml").write_text(entry(NO_DESTROYS, f"[{{ address = '{address}', reason = \"legacy\" }}]"),
                                          "utf-8")
    environ = {**clirun.HERMETIC, **({"TFPLANCHECK_SNAPSHOT_KEY": key} if key is not None else {})}
    never = (KEY_ONE, KEY_TWO, FINGERPRINT_KEY, *_hashes(KEY_ONE), *_hashes(KEY_TWO))
    return clirun.cli("plan.json", "-c", "checks.toml", *argv, environ=environ, never=never)


def _shown_note(name: str) -> str:
    return (f"{_DESTROYED} (no waiver waives it: checks.toml:1 check[0].waive[0] ({SHOWN_KEYED}) names its secret "
            f"instance key (sensitive), as every instance keyed by a secret is shown; name this one {name})")


# (instances failing, the waiver's address, the fingerprint key) -> exit status, each failure's message, the number
# waived. Each failure is at aws_s3_bucket.k["(sensitive)"], as every output shows it.
KEYED_WAIVER_TABLE = [
    # Shown (sensitive), the address is every secret instance's: a new secret, a swapped one. It waives none.
    pytest.param((KEY_ONE,), SHOWN_KEYED, None, 1,
                 [f"{_DESTROYED} (no waiver waives it: checks.toml:1 check[0].waive[0] ({SHOWN_KEYED}) {_NO_KEY_NOTE}"], 0,
                 id="shown-form-without-a-key-waives-nothing"),
    pytest.param((KEY_ONE,), SHOWN_KEYED, FINGERPRINT_KEY, 1, [_shown_note(ONE_KEYED)], 0,
                 id="shown-form-with-a-key-names-the-fingerprint-to-write"),
    pytest.param((KEY_ONE, KEY_TWO), SHOWN_KEYED, FINGERPRINT_KEY, 1, [_shown_note(ONE_KEYED), _shown_note(TWO_KEYED)], 0,
                 id="shown-form-with-a-key-names-each-instance-its-own"),
    pytest.param((KEY_ONE,), ONE_KEYED, FINGERPRINT_KEY, 0, [], 1, id="fingerprint-waives-its-instance"),
    pytest.param((KEY_ONE, KEY_TWO), ONE_KEYED, FINGERPRINT_KEY, 1, [_DESTROYED], 1, id="fingerprint-waives-no-other"),
    pytest.param((KEY_TWO,), ONE_KEYED, FINGERPRINT_KEY, 1, [_DESTROYED], 0, id="fingerprint-of-a-swapped-secret"),
    pytest.param((KEY_ONE,), ONE_KEYED, None, 1,
                 [f"{_DESTROYED} (no waiver waives it: checks.toml:1 check[0].waive[0] ({ONE_KEYED}) {_NO_KEY_NOTE}"], 0,
                 id="fingerprint-without-the-key-waives-nothing"),
    pytest.param((KEY_ONE,), ONE_KEYED, "another-ci-secret-0123", 1, [_DESTROYED], 0, id="fingerprint-under-another-key"),
    # A glob of every instance says what it covers: it waives them all, with or without the key.
    pytest.param((KEY_ONE, KEY_TWO), "aws_s3_bucket.k[*]", None, 0, [], 2, id="glob-of-every-instance-without-a-key"),
    pytest.param((KEY_ONE, KEY_TWO), "aws_s3_bucket.k[*]", FINGERPRINT_KEY, 0, [], 2,
                 id="glob-of-every-instance-with-a-key"),
]


@pytest.mark.parametrize(("keys", "address", "key", "code", "messages", "waived"), KEYED_WAIVER_TABLE)
def test_a_waiver_names_an_instance_keyed_by_a_secret_by_its_fingerprint(
    tmp_path: Path, keys: tuple[str, ...], address: str, key: str | None, code: int, messages: list[str], waived: int,
) -> None:
    got, out, err = _waived_run(tmp_path, keys, address, key, "--format", "json")
    (result,) = json.loads(out)["results"]
    assert (got, err, [f["message"] for f in result["failures"]], len(result["waived"])) == (code, "", messages, waived)
    assert {f["address"] for f in (*result["failures"], *(w for w in result["waived"]))} <= {SHOWN_KEYED}


def test_a_refused_waiver_is_said_on_the_failure_line(tmp_path: Path) -> None:
    code, out, _ = _waived_run(tmp_path, (KEY_ONE,), SHOWN_KEYED, FINGERPRINT_KEY)
    assert (code, out.splitlines()) == (1, [f"FAIL  ExpectNoDestroys: {SHOWN_KEYED}: {_shown_note(ONE_KEYED)}",
                                            "1 check in plan.json: 0 passed, 1 failed"])


def test_a_waiver_and_a_baseline_name_an_instance_by_the_same_fingerprint(tmp_path: Path) -> None:
    """What a baseline written with the key holds is the address a waiver names the instance by (one mechanism)."""
    assert _keyed_run(tmp_path, (KEY_ONE, KEY_TWO), FINGERPRINT_KEY, "--write-baseline", "base.json")[0] == 0
    written = [e["address"] for e in json.loads((tmp_path / "base.json").read_text("utf-8"))["failures"]]
    assert sorted(written) == sorted([ONE_KEYED, TWO_KEYED])


@pytest.mark.parametrize("fmt", ["text", "json", "junit", "sarif", "github", "markdown"])
@pytest.mark.parametrize(("address", "key"), [
    pytest.param(SHOWN_KEYED, None, id="refused-without-a-key"),
    pytest.param(SHOWN_KEYED, FINGERPRINT_KEY, id="refused-with-a-key"),
    pytest.param(ONE_KEYED, FINGERPRINT_KEY, id="waived-by-fingerprint"),
])
def test_no_secret_nor_the_key_reaches_any_format_of_a_keyed_waiver(
    tmp_path: Path, fmt: str, address: str, key: str | None,
) -> None:
    # _waived_run's clirun.cli finds neither secret, the fingerprint key, nor a plain hash of a secret in the output.
    code, out, _ = _waived_run(tmp_path, (KEY_ONE, KEY_TWO), address, key, "--format", fmt,
                               "--write-baseline", "base.json")
    # A baseline written by the run accepts what the waivers did not, with the key; without it, it fails closed too.
    assert code == (0 if key is not None else 1)
    assert "(sensitive" in out, out
    assert ("no waiver waives it" in out) is (address == SHOWN_KEYED), out
    text = (tmp_path / "base.json").read_text("utf-8")
    assert [s for s in (KEY_ONE, KEY_TWO, FINGERPRINT_KEY, *_hashes(KEY_ONE), *_hashes(KEY_TWO)) if s in text] == []


def test_a_short_fingerprint_key_with_waivers_is_a_usage_error(tmp_path: Path) -> None:
    code, _, err = _waived_run(tmp_path, (KEY_ONE,), ONE_KEYED, "short")
    assert (code, err) == (2, "tfplancheck: error: plancheck.snapshot: a fingerprint key ($TFPLANCHECK_SNAPSHOT_KEY) "
                              "must be at least 16 bytes long, got 5 (use a random CI secret)\n")


# -- a whole-plan check's failure: one entry for each object it fails on -----------------------------------

EACH_NULL = 'type = "ExpectEachNullValue"\nselector = "aws_s3_bucket.*"\npath = "tags"\n'
_EACH = "ExpectEachNullValue: Resources(address='aws_s3_bucket.*'): tags"
#: The bucket names a plan creates with tags; a secret one is keyed by KEY_ONE or KEY_TWO (aws_s3_bucket.k[...]).
_TAGGED = {"a": "aws_s3_bucket.a", "b": "aws_s3_bucket.b", "one": f'aws_s3_bucket.k["{KEY_ONE}"]',
           "two": f'aws_s3_bucket.k["{KEY_TWO}"]'}


def _each_run(tmp_path: Path, tagged: tuple[str, ...], key: str | None, *argv: str) -> clirun.Ran:
    plan = {**_keyed_plan(), "resource_changes": [change(_TAGGED[t], ["create"], {"tags": {"team": "x"}}) for t in tagged]}
    (tmp_path / "plan.json").write_text(json.dumps(plan), "utf-8")
    (tmp_path / "checks.toml").write_text(entry(EACH_NULL), "utf-8")
    environ = {**clirun.HERMETIC, **({"TFPLANCHECK_SNAPSHOT_KEY": key} if key is not None else {})}
    never = (KEY_ONE, KEY_TWO, FINGERPRINT_KEY, *_hashes(KEY_ONE), *_hashes(KEY_TWO))
    return clirun.cli("plan.json", "-c", "checks.toml", *argv, environ=environ, never=never)


def _failed(*names: str) -> str:
    listed = "; ".join(f'{name}: it is known: {{"team": "x"}}' for name in names)
    return f"FAIL  {_EACH}: {len(names)} of {len(names)} failed: {listed}"


_SHOWN_ONE = 'aws_s3_bucket.k["(sensitive)"]'
# (objects failing when the baseline is written, objects failing now, the key) -> exit status, FAIL and NOTE lines.
EACH_BASELINE_TABLE = [
    pytest.param(("a",), ("a",), None, 0, [], id="the-same-object-is-known"),
    pytest.param(("a",), ("a", "b"), None, 1,
                 [f"{_failed('aws_s3_bucket.a', 'aws_s3_bucket.b')} (new since the baseline: aws_s3_bucket.b)"],
                 id="a-new-object-of-the-selector-is-new"),
    pytest.param(("a",), ("b",), None, 1,
                 [_failed("aws_s3_bucket.b"), f"NOTE  baseline entry no longer fails (remove it from base.json): {_EACH}: "
                  "aws_s3_bucket.a"], id="another-object-is-new-and-the-old-entry-fixed"),
    pytest.param(("a", "b"), ("a",), None, 0,
                 [f"NOTE  baseline entry no longer fails (remove it from base.json): {_EACH}: aws_s3_bucket.b"],
                 id="an-object-that-passes-now-is-fixed"),
    pytest.param(("one",), ("one",), FINGERPRINT_KEY, 0, [], id="a-secret-instance-is-known-by-its-fingerprint"),
    pytest.param(("one",), ("one", "two"), FINGERPRINT_KEY, 1,
                 [f"{_failed(_SHOWN_ONE, _SHOWN_ONE)} (new since the baseline: {TWO_KEYED})"],
                 id="a-second-secret-instance-is-new"),
    pytest.param(("one",), ("one",), None, 1,
                 [f"{_failed(_SHOWN_ONE)} (no baseline accepts it: its address hides a secret instance key, which only "
                  "TFPLANCHECK_SNAPSHOT_KEY (a CI secret of 16 bytes or more) tells apart from other instances; set it "
                  "and write the baseline again)"], id="without-a-key-a-secret-instance-fails-closed"),
]


@pytest.mark.parametrize(("written", "now", "key", "code", "lines"), EACH_BASELINE_TABLE)
def test_a_whole_plan_checks_baseline_names_each_object_it_fails_on(
    tmp_path: Path, written: tuple[str, ...], now: tuple[str, ...], key: str | None, code: int, lines: list[str],
) -> None:
    _each_run(tmp_path, written, key, "--write-baseline", "base.json")
    got, out, err = _each_run(tmp_path, now, key, "--baseline", "base.json")
    # The labels are padded to the widest one shown (KNOWN): read with two spaces after each.
    shown = [re.sub(r"^([A-Z]+) +", r"\1  ", line) for line in out.splitlines() if line.startswith(("FAIL", "NOTE"))]
    assert (got, err, shown) == (code, "", lines)


def _each_waived(tmp_path: Path, tagged: tuple[str, ...], waive: str, key: str | None, *argv: str) -> clirun.Ran:
    plan = {**_keyed_plan(), "resource_changes": [change(_TAGGED[t], ["create"], {"tags": {"team": "x"}}) for t in tagged]}
    (tmp_path / "plan.json").write_text(json.dumps(plan), "utf-8")
    (tmp_path / "checks.toml").write_text(entry(EACH_NULL, waive), "utf-8")
    environ = {**clirun.HERMETIC, **({"TFPLANCHECK_SNAPSHOT_KEY": key} if key is not None else {})}
    never = (KEY_ONE, KEY_TWO, FINGERPRINT_KEY, *_hashes(KEY_ONE), *_hashes(KEY_TWO))
    return clirun.cli("plan.json", "-c", "checks.toml", *argv, environ=environ, never=never)


def _waiving(*elements: str) -> str:
    return "[" + ", ".join(f"{{ address = \"*\", element = '{e}', reason = \"legacy\" }}" for e in elements) + "]"


# (objects failing, the waivers' elements, the key) -> exit status, the FAIL lines, the number of failures waived.
# A waiver of a whole-plan check waived its failure whatever objects failed it: one more object failing was waived too.
EACH_WAIVER_TABLE = [
    pytest.param(("a",), _waiving("aws_s3_bucket.a"), None, 0, [], 1, id="waives-that-object"),
    pytest.param(("a", "b"), _waiving("aws_s3_bucket.a"), None, 1,
                 [f"{_failed('aws_s3_bucket.a', 'aws_s3_bucket.b')} (no waiver waives aws_s3_bucket.b)"], 0,
                 id="a-new-failing-object-still-fails"),
    pytest.param(("b",), _waiving("aws_s3_bucket.a"), None, 1, [_failed("aws_s3_bucket.b")], 0,
                 id="waives-no-other-object"),
    pytest.param(("a", "b"), _waiving("aws_s3_bucket.a", "aws_s3_bucket.b"), None, 0, [], 1,
                 id="each-object-by-its-own-waiver"),
    pytest.param(("a", "b"), _waiving("aws_s3_bucket.*"), None, 0, [], 1, id="a-glob-of-objects"),
    pytest.param(("a", "b"), '[{ address = "*", reason = "legacy" }]', None, 0, [], 1, id="no-element-waives-it-whole"),
    pytest.param(("one",), _waiving(ONE_KEYED), FINGERPRINT_KEY, 0, [], 1, id="a-secret-instance-by-its-fingerprint"),
    pytest.param(("one", "two"), _waiving(ONE_KEYED), FINGERPRINT_KEY, 1,
                 [f"{_failed(_SHOWN_ONE, _SHOWN_ONE)} (no waiver waives {TWO_KEYED})"], 0,
                 id="a-new-secret-instance-still-fails"),
    pytest.param(("one",), _waiving(_SHOWN_ONE), None, 1,
                 [f"{_failed(_SHOWN_ONE)} (no waiver waives it: checks.toml:1 check[0].waive[0] ({_SHOWN_ONE}) "
                  f"{_NO_KEY_NOTE}"], 0, id="a-secret-instance-as-shown-waives-nothing"),
]


@pytest.mark.parametrize(("tagged", "waive", "key", "code", "lines", "waived"), EACH_WAIVER_TABLE)
def test_a_whole_plan_checks_waiver_names_the_objects_it_waives(
    tmp_path: Path, tagged: tuple[str, ...], waive: str, key: str | None, code: int, lines: list[str], waived: int,
) -> None:
    got, out, err = _each_waived(tmp_path, tagged, waive, key)
    shown = [re.sub(r"^([A-Z]+) +", r"\1  ", line) for line in out.splitlines() if line.startswith("FAIL")]
    assert (got, err, shown) == (code, "", lines)
    _, out, _ = _each_waived(tmp_path, tagged, waive, key, "--format", "json")
    doc = json.loads(out)
    VALIDATOR.validate(doc)
    assert len(doc["results"][0]["waived"]) == waived


@pytest.mark.parametrize("fmt", ["text", "json", "junit", "sarif", "github", "markdown"])
def test_no_secret_reaches_any_format_of_a_whole_plan_checks_waiver(tmp_path: Path, fmt: str) -> None:
    # _each_waived's clirun.cli finds neither secret, the fingerprint key, nor a plain hash of a secret in the output.
    code, out, _ = _each_waived(tmp_path, ("one", "two"), _waiving(ONE_KEYED), FINGERPRINT_KEY, "--format", fmt)
    assert (code, "no waiver waives" in out, "22e13bfbcd00" in out) == (1, True, True), out


_LISTED_NO_KEY = (" (it waives nothing: it names an instance by its secret key, which only TFPLANCHECK_SNAPSHOT_KEY (a CI "
                  "secret of 16 bytes or more) tells apart from other instances; set it, and name the instance as this "
                  "note then does)")
_LISTED_SHOWN = (" (it waives nothing: it names its secret instance key (sensitive), as every instance keyed by a secret is "
                 "shown; name the instance as its failure's note does)")


# (the waiver's address, its element, the fingerprint key) -> the note on its line. --list-waivers listed a waiver that
# waives nothing as any other: a reviewer saw no sign of it.
LISTED_SECRET_TABLE = [
    pytest.param(SHOWN_KEYED, None, None, _LISTED_NO_KEY, id="shown-form-without-a-key"),
    pytest.param(SHOWN_KEYED, None, FINGERPRINT_KEY, _LISTED_SHOWN, id="shown-form-with-a-key"),
    pytest.param(ONE_KEYED, None, None, _LISTED_NO_KEY, id="fingerprint-without-the-key"),
    pytest.param(ONE_KEYED, None, FINGERPRINT_KEY, "", id="fingerprint-with-the-key"),
    pytest.param("aws_s3_bucket.k[*]", None, None, "", id="glob-of-every-instance"),
    pytest.param("*", SHOWN_KEYED, FINGERPRINT_KEY, _LISTED_SHOWN, id="element-in-shown-form"),
    pytest.param("*", ONE_KEYED, FINGERPRINT_KEY, "", id="element-by-fingerprint"),
]


@pytest.mark.parametrize(("address", "element", "key", "note"), LISTED_SECRET_TABLE)
def test_list_waivers_flags_a_waiver_that_waives_nothing(tmp_path: Path, address: str, element: str | None,
                                                         key: str | None, note: str) -> None:
    named = f", element = '{element}'" if element is not None else ""
    (tmp_path / "checks.toml").write_text(entry(EACH_NULL, f"[{{ address = '{address}'{named}, reason = \"legacy\" }}]"),
                                          "utf-8")
    environ = {"TFPLANCHECK_TODAY": TODAY, **({"TFPLANCHECK_SNAPSHOT_KEY": key} if key is not None else {})}
    code, out, _ = clirun.cli("-c", str(tmp_path / "checks.toml"), "--list-waivers", stdin=None, environ=environ)
    listed = element and f" element {element}"
    assert (code, out.replace(str(tmp_path) + "/", "").splitlines()) == (0, [
        f"checks.toml:1 check[0].waive[0]: ExpectEachNullValue: {address}{listed or ''} (no expiry): legacy{note}",
        f"1 waiver (0 expired as of 2027-01-31{'; 1 waives nothing' if note else ''})"])
    code, out, _ = clirun.cli("-c", str(tmp_path / "checks.toml"), "--list-waivers", "--format", "json", stdin=None,
                              environ=environ)
    doc = json.loads(out)
    VALIDATOR.validate(doc)
    assert [w.get("waives_nothing") for w in doc["waivers"]] == [note.removeprefix(" (it waives nothing: it ")[:-1] or None]


def test_a_whole_plan_checks_waiver_lists_its_element(tmp_path: Path) -> None:
    checks = entry(EACH_NULL, '[{ address = "*", element = "aws_s3_bucket.a", plan = "envs/*", reason = "legacy" }]')
    code, out, _ = _list(tmp_path, checks)
    assert (code, out.splitlines()) == (0, [
        "checks.toml:1 check[0].waive[0]: ExpectEachNullValue: * element aws_s3_bucket.a in envs/* (no expiry): legacy",
        "1 waiver (0 expired as of 2027-01-31)"])
    code, out, _ = _list(tmp_path, checks, "--format", "json")
    doc = json.loads(out)
    # The schema's listed waiver had no "plan": a waiver naming plans made a document the schema refused.
    VALIDATOR.validate(doc)
    assert [(w["element"], w["plan"]) for w in doc["waivers"]] == [("aws_s3_bucket.a", "envs/*")]


def test_a_whole_plan_checks_baseline_file_holds_each_object() -> None:
    from plancheck import CheckFailure
    from plancheck._redact import NO_SECRETS
    from plancheck.cli._checksfile import CheckResult, CheckSpec
    from plancheck.cli._waivers import baseline_document

    failure = CheckFailure("ExpectEachNullValue", "Resources(address='a.*')", None, "2 of 2 failed",
                           elements=("a.y", "a.x"))
    result = CheckResult(CheckSpec("ExpectEachNullValue", None, "checks.toml check[0]"), "fail", (failure,))
    assert baseline_document([result], NO_SECRETS)["failures"] == [
        {"check": "ExpectEachNullValue", "address": "Resources(address='a.*')", "path": None, "element": name}
        for name in ("a.x", "a.y")]


def test_an_old_baseline_entry_of_a_whole_plan_check_accepts_nothing_and_says_so(tmp_path: Path) -> None:
    """Written before each object had its entry, it accepted whichever objects fail the check (a new one too): it
    covers nothing now, the failure says why, and it is not noted fixed (its check still fails)."""
    old = {"tfplancheck_baseline": 1, "failures": [
        {"check": "ExpectEachNullValue", "address": "Resources(address='aws_s3_bucket.*')", "path": "tags"}]}
    (tmp_path / "base.json").write_text(json.dumps(old), "utf-8")
    code, out, err = _each_run(tmp_path, ("a",), None, "--baseline", "base.json")
    assert (code, err, out.splitlines()) == (1, "", [
        f"{_failed('aws_s3_bucket.a')} (no baseline accepts it: the baseline's entry names this check's failure without "
        "the objects that fail it, as an older tfplancheck wrote it; write the baseline again to accept each by its "
        "address)", "1 check in plan.json: 0 passed, 1 failed"])
    assert _each_run(tmp_path, ("a",), None, "--baseline", "base.json", "--write-baseline", "base.json")[0] == 1
    assert _each_run(tmp_path, ("a",), None, "--baseline", "base.json")[0] == 0  # rewritten: each object its entry


def test_mock_plan_fingerprints_with_the_same_key_and_refuses_a_short_one(tmp_path: Path) -> None:
    """mock-plan judges a checks file's waivers as tfplancheck PLAN does: by the same key, refused before any plan."""
    (tmp_path / "checks.toml").write_text(entry(NO_DESTROYS, f"[{{ address = '{ONE_KEYED}', reason = \"r\" }}]"), "utf-8")
    code, _, err = clirun.cli("mock-plan", str(tmp_path), "--mock", "acme/x=s.json", "--checks",
                              str(tmp_path / "checks.toml"), stdin=None, environ={"TFPLANCHECK_SNAPSHOT_KEY": "short"})
    assert (code, err) == (2, "tfplancheck: error: plancheck.snapshot: a fingerprint key ($TFPLANCHECK_SNAPSHOT_KEY) "
                              "must be at least 16 bytes long, got 5 (use a random CI secret)\n")


def test_a_run_of_many_plans_waives_by_the_fingerprint_in_each_worker(tmp_path: Path) -> None:
    """Each worker judges its plan's waivers with the run's key (the job it was forked with)."""
    for name, keys in {"a.json": (KEY_ONE,), "b.json": (KEY_ONE, KEY_TWO)}.items():
        (tmp_path / name).write_text(json.dumps(_keyed_plan(*keys)), "utf-8")
    (tmp_path / "checks.toml").write_text(entry(NO_DESTROYS, f"[{{ address = '{ONE_KEYED}', reason = \"r\" }}]"), "utf-8")
    environ = {**clirun.HERMETIC, "TFPLANCHECK_SNAPSHOT_KEY": FINGERPRINT_KEY}
    code, out, _ = clirun.cli("a.json", "b.json", "-c", "checks.toml", "--jobs", "2", "--format", "json",
                              cwd=tmp_path, environ=environ, never=(KEY_ONE, KEY_TWO, FINGERPRINT_KEY))
    runs = json.loads(out)["plans"]
    assert (code, [(len(r["results"][0]["failures"]), len(r["results"][0]["waived"])) for r in runs]) == (1, [(0, 1), (1, 1)])


def test_a_whole_plan_checks_fixed_entry_is_in_the_json_output_as_the_schema_says(tmp_path: Path) -> None:
    assert _each_run(tmp_path, ("a", "b"), None, "--write-baseline", "base.json")[0] == 0
    code, out, _ = _each_run(tmp_path, ("a",), None, "--baseline", "base.json", "--format", "json")
    doc = json.loads(out)
    VALIDATOR.validate(doc)
    assert (code, doc["baseline"]["fixed"]) == (0, [{"check": "ExpectEachNullValue", "path": "tags", "element": "aws_s3_bucket.b",
                                                    "address": "Resources(address='aws_s3_bucket.*')"}])


def test_a_fixed_entry_of_a_baseline_of_many_plans_is_in_the_json_output_as_the_schema_says(tmp_path: Path) -> None:
    """Each entry of a baseline of many plans names its plan, and so does the entry noted fixed (the schema refused it)."""
    (tmp_path / "checks.toml").write_text(entry(EACH_NULL), "utf-8")

    def run(plans: dict[str, tuple[str, ...]], *argv: str) -> clirun.Ran:
        for name, tagged in plans.items():
            changes = [change(_TAGGED[t], ["create"], {"tags": {"team": "x"}}) for t in tagged]
            (tmp_path / name).write_text(json.dumps({**_keyed_plan(), "resource_changes": changes}), "utf-8")
        return clirun.cli(*plans, "-c", "checks.toml", *argv, cwd=tmp_path, environ=clirun.HERMETIC)

    assert run({"p.json": ("a", "b"), "q.json": ("a",)}, "--write-baseline", "base.json")[0] == 0
    code, out, _ = run({"p.json": ("a",), "q.json": ("a",)}, "--baseline", "base.json", "--format", "json")
    doc = json.loads(out)
    VALIDATOR.validate(doc)
    assert (code, [p["baseline"]["fixed"] for p in doc["plans"]]) == (0, [[
        {"check": "ExpectEachNullValue", "address": "Resources(address='aws_s3_bucket.*')", "path": "tags",
         "element": "aws_s3_bucket.b", "plan": "p.json"}], []])


# -- waivers that waive nothing: noted, as a baseline's entries that no longer fail ---------------------------

#: Passes: aws_s3_bucket.old is destroyed.
DESTROYED_OLD = 'type = "ExpectResourceAction"\naddress = "aws_s3_bucket.old"\naction = "Destroy"\n'


def _unused(origin: str, address: str, why: str = "no failure of ExpectNoDestroys matched it") -> str:
    return f"NOTE  {origin} ({address}) waived nothing: {why} (correct it, or remove it)"


# (checks) -> exit status, the NOTE lines, the count line, the JSON's unused waivers' origins. A waiver that matched
# no failure (a typo, a failure since fixed) said nothing; the exit status is the same either way.
UNUSED_TABLE = [
    pytest.param(entry(NO_DESTROYS, '[{ address = "aws_s3_bucket.old", reason = "r" }]'), 1, [],
                 "0 passed, 1 failed, 1 waived", [[]], id="it-waives-a-failure"),
    pytest.param(entry(NO_DESTROYS, '[{ address = "aws_s3_bucket.olt", reason = "r" }]'), 1,
                 [_unused("checks.toml:1 check[0].waive[0]", "aws_s3_bucket.olt")],
                 "0 passed, 1 failed, 1 waiver unused", [["checks.toml:1 check[0].waive[0]"]], id="a-typo"),
    pytest.param(entry(DESTROYED_OLD, '[{ address = "aws_s3_bucket.old", reason = "r" }]'), 0,
                 [_unused("checks.toml:1 check[0].waive[0]", "aws_s3_bucket.old",
                          "no failure of ExpectResourceAction matched it")],
                 "1 passed, 0 failed, 1 waiver unused", [["checks.toml:1 check[0].waive[0]"]],
                 id="its-check-passes-now"),
    pytest.param(entry(NO_DESTROYS, '[{ address = "aws_*", reason = "r" }, { address = "aws_s3_bucket.old", reason = "r" }]'),
                 0, [], "1 passed, 0 failed, 3 waived", [[]], id="a-waiver-another-shadows-still-names-a-failure"),
    pytest.param(entry(NO_DESTROYS, '[{ address = "aws_vpc.*", reason = "r", until = 2020-01-01 }]'), 1,
                 ["NOTE  checks.toml:1 check[0].waive[0] (aws_vpc.*) expired on 2020-01-01: it no longer waives "
                  "ExpectNoDestroys (renew it with a new reason, or fix the failures)"],
                 "0 passed, 1 failed", [[]], id="an-expired-one-is-not-also-unused"),
    # One checks file serves every plan of a platform: a job checking one plan does not note the others' waivers.
    pytest.param(entry(NO_DESTROYS, '[{ address = "aws_s3_bucket.old", reason = "r", plan = "envs/*" }]'), 1, [],
                 "0 passed, 1 failed", [[]], id="its-plan-glob-takes-no-plan-it-is-out-of-scope"),
    pytest.param(entry(NO_DESTROYS, '[{ address = "aws_s3_bucket.olt", reason = "r", plan = "*.json" }]'), 1,
                 [_unused("checks.toml:1 check[0].waive[0]", "aws_s3_bucket.olt in *.json")],
                 "0 passed, 1 failed, 1 waiver unused", [["checks.toml:1 check[0].waive[0]"]],
                 id="its-plan-glob-takes-the-plan-but-no-failure"),
    pytest.param(entry(NO_DESTROYS, '[{ address = "aws_s3_bucket.old", reason = "r" }]') + entry(DESTROYED_OLD), 1, [],
                 "1 passed, 1 failed, 1 waived", [[], []], id="a-check-without-waivers-lists-none"),
]


@pytest.mark.parametrize(("checks", "code", "notes", "counts", "unused"), UNUSED_TABLE)
def test_a_waiver_that_waives_nothing_is_noted(tmp_path: Path, checks: str, code: int, notes: list[str], counts: str,
                                                unused: list[list[str]]) -> None:
    got, out, err = cli(tmp_path, checks)
    lines = out.splitlines()
    # The labels are padded to the widest one shown: read with two spaces after each.
    assert (got, err, [re.sub(r"^NOTE +", "NOTE  ", line) for line in lines if line.startswith("NOTE")]) == (
        code, "", notes)
    assert lines[-1].endswith(f" in plan.json: {counts}")
    got, doc = results(tmp_path, checks)
    assert (got, [[w["origin"] for w in r.get("unused_waivers", [])] for r in doc["results"]]) == (code, unused)
    assert ["unused_waivers" in r for r in doc["results"]] == ["waive" in part for part in checks.split("[[check]]")[1:]]


# (the waivers' elements, the objects failing) -> the NOTE lines.
EACH_UNUSED_TABLE = [
    pytest.param(("aws_s3_bucket.a",), ("a",), [], id="it-waives-its-object"),
    pytest.param(("aws_s3_bucket.c",), ("a",),
                 [_unused("checks.toml:1 check[0].waive[0]", "* element aws_s3_bucket.c",
                          "no failure of ExpectEachNullValue matched it")], id="its-object-fails-no-more"),
    pytest.param(("aws_s3_bucket.a",), ("a", "b"), [], id="it-names-one-object-of-a-failure-still-failing"),
    pytest.param((SHOWN_KEYED,), ("one",), [], id="a-secret-key-as-shown-is-said-on-the-failure-line"),
]


@pytest.mark.parametrize(("elements", "tagged", "notes"), EACH_UNUSED_TABLE)
def test_a_whole_plan_checks_waiver_that_waives_no_object_is_noted(tmp_path: Path, elements: tuple[str, ...],
                                                                  tagged: tuple[str, ...], notes: list[str]) -> None:
    _, out, err = _each_waived(tmp_path, tagged, _waiving(*elements), None)
    assert (err, [re.sub(r"^NOTE +", "NOTE  ", line) for line in out.splitlines() if line.startswith("NOTE")]) == (
        "", notes)


def test_a_waiver_that_waives_nothing_is_noted_also_with_quiet(tmp_path: Path) -> None:
    code, out, _ = cli(tmp_path, entry(NO_DESTROYS, '[{ address = "aws_s3_bucket.olt", reason = "r" }]'), "--quiet")
    assert (code, [line for line in out.splitlines() if not line.startswith(" ")][-1]) == (
        1, "NOTE  checks.toml:1 check[0].waive[0] (aws_s3_bucket.olt) waived nothing: no failure of ExpectNoDestroys "
           "matched it (correct it, or remove it)")


#: Plans of a run of many: a.json destroys aws_s3_bucket.old, b.json nothing.
_MANY = {"a.json": ["aws_s3_bucket.old"], "b.json": []}


def _many_run(tmp_path: Path, waive: str, *argv: str) -> clirun.Ran:
    for name, destroyed in _MANY.items():
        plan = {**plan_document(), "resource_changes": [change(a, ["delete"], None, before={}) for a in destroyed]}
        (tmp_path / name).write_text(json.dumps(plan), "utf-8")
    (tmp_path / "checks.toml").write_text(entry(NO_DESTROYS, waive), "utf-8")
    return clirun.cli(*_MANY, "-c", "checks.toml", *argv, cwd=tmp_path, environ={**clirun.HERMETIC,
                                                                                   "TFPLANCHECK_TODAY": TODAY})


# (the waivers, the run's options) -> each plan's JSON unused waivers' origins. A waiver is judged by the whole run:
# unused when no plan's failure matched it, noted once, with the first plan its plan glob takes (else the first).
MANY_UNUSED_TABLE = [
    pytest.param('[{ address = "aws_s3_bucket.old", reason = "r" }]', ("--jobs", "2"), [[], []],
                 id="used-in-one-plan-is-used"),
    pytest.param('[{ address = "aws_s3_bucket.olt", reason = "r" }]', ("--jobs", "2"), [["w0"], []],
                 id="unused-is-noted-with-the-first-plan"),
    pytest.param('[{ address = "aws_s3_bucket.old", reason = "r" }, { address = "aws_s3_bucket.old", reason = "r", '
                 'plan = "b*" }]', ("--jobs", "2"), [[], ["w1"]], id="with-the-first-plan-its-glob-takes"),
    pytest.param('[{ address = "aws_s3_bucket.olt", reason = "r" }]', ("--jobs", "1"), [["w0"], []],
                 id="in-one-process-too"),
    pytest.param('[{ address = "aws_s3_bucket.old", reason = "r" }, { address = "aws_s3_bucket.olt", reason = "r", '
                 'plan = "b*" }, { address = "aws_s3_bucket.olt", reason = "r", plan = "envs/*" }]', ("--jobs", "2"),
                 [[], ["w1"]], id="a-glob-taking-no-plan-of-the-run-is-out-of-scope"),
    pytest.param('[{ address = "aws_s3_bucket.olt", reason = "r" }]', ("--baseline", "base.json"), [["w0"], []],
                 id="judged-by-a-baseline-too"),
]


@pytest.mark.parametrize(("waive", "argv", "unused"), MANY_UNUSED_TABLE)
def test_a_run_of_many_plans_notes_a_waiver_no_plan_used_once(tmp_path: Path, waive: str, argv: tuple[str, ...],
                                                                unused: list[list[str]]) -> None:
    (tmp_path / "base.json").write_text('{"tfplancheck_baseline": 1, "failures": []}', "utf-8")
    code, out, _ = _many_run(tmp_path, waive, *argv, "--format", "json")
    doc = json.loads(out)
    VALIDATOR.validate(doc)
    origins = [[w["origin"].replace("checks.toml:1 check[0].waive[", "w")[:-1] for w in p["results"][0]["unused_waivers"]]
               for p in doc["plans"]]
    assert (code, origins) == (0 if "aws_s3_bucket.old" in waive else 1, unused)
    _, text, _ = _many_run(tmp_path, waive, *argv)
    assert text.count("waived nothing") == sum(map(len, unused))


#: A secret planted as a for_each key, and a waiver naming it: the waiver's text is the user's, its scrub the plan's.
GATE24 = "hunter2-GATE24"


@pytest.mark.parametrize("fmt", ["text", "json", "junit", "sarif", "github", "markdown"])
def test_no_secret_reaches_any_format_of_a_waiver_that_waives_nothing(tmp_path: Path, fmt: str) -> None:
    plan = {**plan_document(), "variables": {"pw": {"value": GATE24}},
            "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}},
            "resource_changes": [change(f'aws_s3_bucket.k["{GATE24}"]', ["delete"], None, before={"pw": GATE24})]}
    waive = (f"[{{ address = 'aws_s3_bucket.k[*]', reason = \"r\" }}, {{ address = 'aws_s3_bucket.k[\"{GATE24}\"]', "
             f"reason = \"{GATE24}\" }}, {{ address = \"aws_s3_bucket.gone\", reason = \"{GATE24}\", plan = \"*.json\" }}, "
             f"{{ address = \"aws_s3_bucket.gone\", reason = \"r\", plan = \"{GATE24}/*\" }}]")
    code, out, _ = cli(tmp_path, entry(NO_DESTROYS, waive), "--format", fmt, "--report", "json=report.json",
                       plan=plan, never=(GATE24,))
    report = (tmp_path / "report.json").read_text("utf-8")
    (result,) = json.loads(report)["results"]
    assert (code, GATE24 in report, [w["address"] for w in result["unused_waivers"]]) == (
        0, False, ['aws_s3_bucket.k["(sensitive)"]', "aws_s3_bucket.gone"])
    if fmt != "json":
        shown = out.replace("\\", "")  # Markdown's escapes
        assert (shown.count("waived nothing"), shown.count("aws_s3_bucket.gone in *.json")) == (2, 1), out
