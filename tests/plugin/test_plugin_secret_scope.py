"""A test's own documents scrub its own reports, not every later test's (#33, the other side of secrets).

Every plan a test makes is a source of the plugin's scrub. Kept for the whole session, a word one test
module planted as a secret was blanked in the skip and xfail reasons of unrelated tests run after it on
the same worker, in the terminal and in the JUnit file: in the project's own suite "two" (the Go
sanitize plan tests/checks/test_known_corpus.py keeps) and "other" (tests/checks/test_drift_checks.py's
module-level plan, tests/snapshot/test_snapshot_diff.py's table). Now a document is a source for the
test that made it (setup, call, teardown and its JUnit test case) and, after it, only while something
still holds it; one made while collecting, for the tests of the test modules holding it.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from plugin_support import QUIET_PLUGINS, write_json

from plancheck import Secrets, load_plan
from plancheck._documents import met as met_module
from plancheck._plugin.cache import SessionDocuments

#: A plan whose only secret is a common word, planted as a sensitive attribute.
WORD = "other"

INNER = '''
import pytest
from plancheck import Plan, load_plan
from plancheck.knownvalue import StringExact
from plancheck import ExpectKnownValue, assert_plan
from tfjsonpath import New


def _word(plan):
    return plan.resource_change("null_resource.a").change.after["triggers"]["pw"]


def test_a_fails_on_its_secret(record_property, record_xml_attribute, record_testsuite_property):
    plan = load_plan("plan.json")
    record_property("seen", _word(plan))
    record_xml_attribute("seen", _word(plan))
    record_testsuite_property("seen_by_a", _word(plan))
    print("printed", _word(plan))
    assert _word(plan) == "x"


def test_a2_fails_a_check():
    assert_plan(load_plan("plan.json"), ExpectKnownValue("null_resource.a", New("triggers").AtMapKey("pw"),
                                                         StringExact("x")))


@pytest.mark.skip(reason="waits for the other backend")
def test_b_skips_at_setup():
    pass


def test_c_skips_in_its_call():
    pytest.skip("the other corpus is absent")


@pytest.mark.xfail(strict=True, reason="values that moved between two other instances")
def test_d_xfails():
    assert False


def test_e_prints(record_property):
    record_property("note", "the other one")
    print("printed by e: the other one")
'''

#: The texts of the tests after A, each holding the word A planted as a secret.
LATER_TEXTS = ["waits for the other backend", "the other corpus is absent", "values that moved between two other instances",
               "printed by e: the other one"]


def _plan() -> dict[str, object]:
    return {
        "format_version": "1.2",
        "resource_changes": [{
            "address": "null_resource.a", "mode": "managed", "type": "null_resource", "name": "a",
            "change": {"actions": ["create"], "before": None, "after": {"triggers": {"pw": WORD}},
                       "after_unknown": {}, "after_sensitive": {"triggers": {"pw": True}}},
        }],
    }


def _junit(path: Path) -> dict[str, str]:
    """Each test case's texts and attributes (unescaped), by test name; the suite's properties as "<suite>"."""
    found: dict[str, str] = {}
    root = ET.parse(path).getroot()
    for case in root.iter("testcase"):
        parts = [*case.attrib.values()]
        for element in case.iter():
            parts.extend(element.attrib.values())
            parts.extend(text for text in (element.text, element.tail) if text)
        found[case.attrib["name"]] = "\n".join(parts)
    found["<suite>"] = "\n".join(
        f"{element.attrib.get('name')}={element.attrib.get('value')}" for element in root.iter("property")
        if element.attrib.get("name", "").startswith("seen_by")
    )
    return found


@pytest.mark.parametrize("xdist", [pytest.param([], id="no-xdist"), pytest.param(["-p", "xdist", "-n", "1"], id="xdist-one-worker")])
def test_a_tests_secret_scrubs_its_own_reports_and_not_later_tests(pytester: pytest.Pytester, xdist: list[str]) -> None:
    write_json(pytester.path / "plan.json", _plan())
    pytester.makepyfile(test_inner=INNER)
    junit = pytester.path / "junit.xml"
    # In a fresh interpreter: a session run in-process would see the plans its outer test holds as held.
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS, "-rA", "-vv", f"--junitxml={junit}", "-o", "junit_logging=all",
                                           "-o", "junit_family=xunit1", *xdist)
    result.assert_outcomes(failed=2, skipped=2, xfailed=1, passed=1)
    output = result.stdout.str()
    # The later tests' texts are whole, in the terminal and in the JUnit file.
    for text in LATER_TEXTS:
        assert text in output
    cases = _junit(junit)
    assert "waits for the other backend" in cases["test_b_skips_at_setup"]
    assert "the other corpus is absent" in cases["test_c_skips_in_its_call"]
    assert "values that moved between two other instances" in cases["test_d_xfails"]
    assert "the other one" in cases["test_e_prints"]
    # A's own reports show its secret as (sensitive) everywhere: failure, printed output, properties, attributes.
    assert "printed (sensitive)" in output
    assert "assert '(sensitive)' == 'x'" in output
    assert [shown for shown in ("'other'", '"other"') if shown in output] == []
    assert WORD not in cases["test_a_fails_on_its_secret"].replace("the other", "")
    assert "printed (sensitive)" in cases["test_a_fails_on_its_secret"]
    assert "(sensitive)" in cases["test_a2_fails_a_check"]
    if not xdist:  # record_testsuite_property and record_xml_attribute do not travel from an xdist worker
        assert cases["<suite>"] == "seen_by_a=(sensitive)"
        case = ET.parse(junit).getroot().find(".//testcase[@name='test_a_fails_on_its_secret']")
        assert case is not None
        assert case.attrib["seen"] == "(sensitive)"


# -- the sources, test by test (SessionDocuments directly) ------------------------------------------------------


def _secret_plan(tmp_path: Path) -> Path:
    return write_json(tmp_path / "plan.json", _plan())


def _dropped(docs: SessionDocuments, tmp_path: Path, keep: list[object], monkeypatch: pytest.MonkeyPatch) -> None:
    docs.met(load_plan(_secret_plan(tmp_path)))  # made, shown, and dropped by the test


def _kept_by_a_module(docs: SessionDocuments, tmp_path: Path, keep: list[object], monkeypatch: pytest.MonkeyPatch) -> None:
    keep.append(load_plan(_secret_plan(tmp_path)))  # a module-level plan, a module-scoped fixture's value
    docs.met(keep[-1])


def _held_by_the_failure(docs: SessionDocuments, tmp_path: Path, keep: list[object], monkeypatch: pytest.MonkeyPatch) -> None:
    def failing_test() -> None:
        plan = load_plan(_secret_plan(tmp_path))
        docs.met(plan)
        raise AssertionError("the test failed")

    try:
        failing_test()
    except AssertionError as exc:
        # What pytest keeps of a failed test for pdb.pm(), until the next test's call begins.
        monkeypatch.setattr(sys, "last_value", exc, raising=False)
        monkeypatch.setattr(sys, "last_traceback", exc.__traceback__, raising=False)


def _secrets_found(docs: SessionDocuments, tmp_path: Path, keep: list[object], monkeypatch: pytest.MonkeyPatch) -> None:
    docs.met(Secrets([WORD]))  # a snapshot file's value in clear, a Sensitive variable of the test's case


def _loaded_by_tf_plan(docs: SessionDocuments, tmp_path: Path, keep: list[object], monkeypatch: pytest.MonkeyPatch) -> None:
    docs.plans.get("tf_plan", _secret_plan(tmp_path))  # the fixtures' cache holds it for the session


SOURCES = [
    pytest.param(_dropped, False, id="made-and-dropped-by-the-test"),
    pytest.param(_kept_by_a_module, True, id="kept-by-a-module-or-fixture"),
    pytest.param(_held_by_the_failure, False, id="held-only-by-the-tests-failure-frames"),
    pytest.param(_secrets_found, False, id="secrets-found-by-the-test"),
    pytest.param(_loaded_by_tf_plan, True, id="loaded-by-tf_plan"),
]


@pytest.mark.parametrize(("meet", "lasting"), SOURCES)
def test_what_a_test_meets_scrubs_its_reports_and_later_ones_only_while_held(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, meet: Any, lasting: bool
) -> None:
    # The session running this test listens too, and holds what this test makes until it ends: not here.
    monkeypatch.setattr(met_module, "LISTENERS", [])
    docs = SessionDocuments()
    keep: list[object] = []
    docs.begin_test()
    meet(docs, tmp_path, keep, monkeypatch)
    assert WORD in docs.secrets()  # the test's own reports, teardown included
    docs.end_test()
    docs.begin_test()  # the next test
    assert (WORD in docs.secrets()) is lasting
    assert (len(docs) > 0) is lasting  # nothing to scrub: the next reports are not even looked at


def test_secrets_found_outside_any_test_scrub_the_whole_session() -> None:
    docs = SessionDocuments()
    docs.met(Secrets([WORD]))  # while collecting
    for _ in range(2):
        docs.begin_test()
        docs.end_test()
    assert WORD in docs.secrets()


TABLE_MODULE = '''
import pytest
from plancheck import Plan
from helpers import doc

PLAN = Plan.from_dict(doc("other"))  # a module-level plan
TABLE = [pytest.param(Plan.from_dict(doc("two")), id="table")]  # a parametrize table of plans


@pytest.mark.parametrize("plan", TABLE)
def test_table(plan):
    assert plan.resource_change("null_resource.a").change.after["triggers"]["pw"] == "x"


def test_module_level():
    assert PLAN.resource_change("null_resource.a").change.after["triggers"]["pw"] == "x"
'''

HELPERS = '''
import json
from pathlib import Path

from plancheck import Plan


def doc(word):
    plan = json.loads(Path(__file__).with_name("plan.json").read_text())
    plan["resource_changes"][0]["change"]["after"]["triggers"]["pw"] = word
    return plan


SHARED = Plan.from_dict(doc("shared-word"))  # a helper's plan: any test module may show it
'''

OTHER_MODULE = '''
import pytest
from helpers import SHARED


@pytest.mark.skip(reason="two reasons: the other backend")
def test_skips():
    pass


def test_shows_the_helpers_plan():
    assert SHARED.resource_change("null_resource.a").change.after["triggers"]["pw"] == "x"
'''


def test_documents_made_while_collecting_scrub_the_tests_of_the_modules_holding_them(pytester: pytest.Pytester) -> None:
    """A module-level plan and a parametrize table scrub their module's tests, not another module's skip reason;
    a helper module's plan scrubs every test (any module may show it)."""
    write_json(pytester.path / "plan.json", _plan())
    pytester.makepyfile(helpers=HELPERS, test_a_table=TABLE_MODULE, test_b_other=OTHER_MODULE)
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS, "-rA", "-p", "xdist", "-n", "1")
    result.assert_outcomes(failed=3, skipped=1)
    output = result.stdout.str()
    assert "two reasons: the other backend" in output
    # The failure sections, not the short summary: its lines are cut to the terminal's width.
    assert output.count("E       AssertionError: assert '(sensitive)' == 'x'") == 3
    assert [shown for shown in ("'other'", "'two'", "shared-word") if shown in output] == []


def test_a_document_made_outside_any_test_is_a_source_until_a_test_begins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sweeper's plan (--tf-sweep runs no test): the line its failure writes is scrubbed of it, though it is dropped."""
    monkeypatch.setattr(met_module, "LISTENERS", [])
    docs = SessionDocuments()
    docs.met(load_plan(_secret_plan(tmp_path)))
    assert WORD in docs.secrets()
    docs.begin_test()
    assert WORD not in docs.secrets()


WARNS = '''
import warnings
from plancheck import load_plan


def test_a_warns_its_secret():
    plan = load_plan("plan.json")
    warnings.warn("careful: " + plan.resource_change("null_resource.a").change.after["triggers"]["pw"])


def test_b_warns_a_word():
    warnings.warn("the other warning")
'''


@pytest.mark.parametrize("xdist", [pytest.param([], id="no-xdist"), pytest.param(["-p", "xdist", "-n", "1"], id="xdist-one-worker")])
def test_a_tests_warning_is_scrubbed_of_what_it_made_in_the_warnings_summary(pytester: pytest.Pytester,
                                                                              xdist: list[str]) -> None:
    # pytest records a test's warnings as its protocol ends, after its last report: the plan the test loaded
    # was let go by then, and the summary showed "careful: other" (the secret in clear, no tf_plan holding it).
    write_json(pytester.path / "plan.json", _plan())
    pytester.makepyfile(test_inner=WARNS)
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS, "-rA", *xdist)
    result.assert_outcomes(passed=2, warnings=2)
    output = result.stdout.str()
    assert "UserWarning: careful: (sensitive)" in output
    assert "UserWarning: the other warning" in output  # the next test's warning is its own: not scrubbed
    assert "careful: other" not in output
