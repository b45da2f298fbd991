"""The session's scrub is set up with the first document or secret it meets, not when pytest configures it.

A session that never loads a Terraform document pays only the listener (#34); one that does must scrub
every report from the first document on, wherever that document was made: in the body of a test (its own
reports still to come: this phase's, its teardown's, its JUnit case, what it logged and warned), in a
fixture's setup, in one test while a later test shows it, in a conftest's ``pytest_configure`` or
``pytest_collection_finish``, in a query output (no plan), in a ``pytest_generate_tests`` that names tests
by its values (the ids are made before any hook of the scrub was registered), in a test module that is not
the first collected (also one whose import then fails), and in xdist workers. Each is run in every way
pytest shows a test and searched whole.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from planted_secrets import PLANTED, SECRET_AFTER, plan_document
from plugin_support import QUIET_PLUGINS, junit_text, write_json
from secret_shapes import leaks

PLAN_SECRETS = {name: PLANTED[name] for name in ("after", "before", "output", "var")}

HEADER = """
import logging
import pathlib
import warnings

import pytest
from plancheck import load_plan

HERE = pathlib.Path(__file__).parent


def _secret(plan):
    return plan.resource_change("aws_db_instance.db").change.after["password"]
"""

#: id: (conftest.py, test modules); the plan is plan.json beside them.
SCENARIOS = {
    "in the first test's body": ("", {"test_body": HEADER + """

def test_before_any_document():
    assert 1


@pytest.fixture
def box():
    held = {}
    yield held
    raise AssertionError(f"teardown shows {held['secret']}")


def test_loads_and_shows(box, record_property, record_testsuite_property, record_xml_attribute):
    plan = load_plan(HERE / "plan.json")
    secret = box["secret"] = _secret(plan)
    print("printed", secret)
    logging.getLogger("inner").warning("logged %s", secret)
    warnings.warn(f"warned {secret}")
    record_property("property", secret)
    record_testsuite_property("suite", secret)
    record_xml_attribute("attribute", secret)
    assert secret == "nope"
"""}),
    "in a fixture's setup": ("", {"test_fixture": HEADER + """

@pytest.fixture
def plan():
    loaded = load_plan(HERE / "plan.json")
    print("set up", _secret(loaded))
    return loaded


@pytest.fixture
def broken(plan):
    raise RuntimeError(f"setup fails showing {_secret(plan)}")


def test_shows(plan):
    assert _secret(plan) == "nope"


def test_setup_fails(broken):
    pass
"""}),
    "held by one test, shown by a later one": ("", {"test_later": HEADER + """

HELD = []


def test_loads():
    HELD.append(load_plan(HERE / "plan.json"))


def test_shows_later():
    assert _secret(HELD[0]) == "nope"
"""}),
    "ids from pytest_generate_tests": ("""
import pathlib

from plancheck import load_plan


PLANS = []  # held: a plan nothing holds is dropped as the first test begins, its values still in the tests


def pytest_generate_tests(metafunc):
    if "value" in metafunc.fixturenames:
        PLANS.append(load_plan(pathlib.Path(__file__).parent / "plan.json"))
        after = PLANS[-1].resource_change("aws_db_instance.db").change.after
        metafunc.parametrize("value", [after["password"], "plain", after["list"][1]])
""", {"test_ids": """
def test_value(value):
    assert value == "nope"
"""}),
    # Nothing holds the plan once the tests are made: its values in their parameters outlive it (the failures show
    # them). It was dropped as the first test began, and the failure reports showed the secret (before #34).
    "a plan pytest_generate_tests does not keep": ("""
import pathlib

from plancheck import load_plan


def pytest_generate_tests(metafunc):
    if "value" in metafunc.fixturenames:
        after = load_plan(pathlib.Path(__file__).parent / "plan.json").resource_change("aws_db_instance.db").change.after
        metafunc.parametrize("value", [after["password"], "plain"])
""", {"test_ids": """
def test_value(value):
    assert value == "nope"
"""}),
    # Called before this plugin's pytest_configure (a conftest's hooks are called first): the listener of the first
    # conftest files heard nothing any more, and nothing ever scrubbed this plan's secrets (before #34 too).
    "in a conftest's pytest_configure": (HEADER + """
PLANS = []


def pytest_configure(config):
    PLANS.append(load_plan(HERE / "plan.json"))
""", {"test_configured": HEADER + """
import conftest


def test_shows():
    secret = _secret(conftest.PLANS[0])
    print("printed", secret)
    logging.getLogger("inner").warning("logged %s", secret)
    warnings.warn(f"warned {secret}")
    assert secret == "nope"
"""}),
    # No plan: a query output's sensitive input (taken here from the plan's file as JSON) is the test's only secret.
    # A query output was told to no listener: its input showed in every output (before #34 too).
    "a query output, no plan": ("", {"test_query": HEADER + """
import json

from plancheck.querycheck import QueryOutput


def test_plain():
    assert 1


def test_query_shows():
    raw = json.loads((HERE / "plan.json").read_text())["resource_changes"][0]["change"]["after"]["password"]
    query = QueryOutput.from_messages([{"type": "list_start", "list_start": {
        "address": "list.a.b", "input_config": {"v": raw}, "sensitive_attribute_paths": [".v"]}}])
    secret = query.messages[0]["list_start"]["input_config"]["v"]
    print("printed", secret)
    logging.getLogger("inner").warning("logged %s", secret)
    assert secret == "nope"
"""}),
    # Called before any hook of the scrub was registered: the plan was placed by nothing, let go of as the first
    # test began, and the value it gave showed (before #34 too).
    "in a conftest's pytest_collection_finish, only a value kept": (HEADER + """
VALUES = []


def pytest_collection_finish(session):
    VALUES.append(_secret(load_plan(HERE / "plan.json")))
""", {"test_collected": HEADER + """
import conftest


def test_shows():
    secret = conftest.VALUES[0]
    print("printed", secret)
    logging.getLogger("inner").warning("logged %s", secret)
    assert secret == "nope"
"""}),
    "a conftest.py collected with its directory": ("", {
        "test_a_plain": "def test_plain():\n    assert 1\n",
        "sub/conftest": HEADER + """
PLAN = load_plan(HERE.parent / "plan.json")


@pytest.fixture
def secret():
    return _secret(PLAN)
""",
        "sub/test_sub": "def test_shows(secret):\n    assert secret == 'nope'\n"}),
    "module-level, in the second module collected": ("", {
        "test_a_plain": "def test_plain():\n    assert 1\n",
        "test_b_plan": HEADER + """
PLAN = load_plan(HERE / "plan.json")


@pytest.mark.parametrize("value", [_secret(PLAN)])
def test_value(value):
    assert value == "nope"
"""}),
    "a module whose import fails showing it": ("", {
        "test_a_plain": "def test_plain():\n    assert 1\n",
        "test_b_broken": HEADER + """
PLAN = load_plan(HERE / "plan.json")
raise RuntimeError(f"import fails showing {_secret(PLAN)}")
"""}),
}

MODES = {
    "verbose, locals": ("-v", "-rA", "-l"),
    "very verbose": ("-vv", "-rA"),
    "xdist workers": ("-n", "2", "--dist", "loadfile", "-v", "-rA", "-l"),
    "collect only": ("--collect-only",),
    "setup show": ("--setup-show", "-rA"),
    "live log": ("--log-cli-level=INFO", "-rA"),
}


@pytest.mark.parametrize("args", MODES.values(), ids=MODES.keys())
@pytest.mark.parametrize(("conftest", "modules"), SCENARIOS.values(), ids=SCENARIOS.keys())
def test_the_first_document_is_scrubbed_wherever_it_is_met(
    pytester: pytest.Pytester, conftest: str, modules: dict[str, str], args: tuple[str, ...]
) -> None:
    write_json(pytester.path / "plan.json", plan_document())
    if conftest:
        pytester.makeconftest(conftest)
    pytester.makepyfile(**modules)
    junit = pytester.path / "junit.xml"
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS, f"--junitxml={junit}", *args)
    output = result.stdout.str() + result.stderr.str()
    assert "INTERNALERROR" not in output, output
    assert leaks(output, PLAN_SECRETS) == [], output
    assert leaks(junit_text(junit), PLAN_SECRETS) == []
    if "--collect-only" not in args:
        outcomes = result.parseoutcomes()
        assert outcomes.get("failed") or outcomes.get("errors"), output  # the secret was shown, scrubbed
        assert "(sensitive)" in output, output


def test_a_later_tests_word_stays_readable_in_an_earlier_tests_junit_case(pytester: pytest.Pytester) -> None:
    """The first test that meets a document scrubs its own JUnit test case, not those of the tests before it."""
    write_json(pytester.path / "plan.json", plan_document())
    pytester.makepyfile(test_order=HEADER + f"""

def test_before(record_property):
    record_property("word", {SECRET_AFTER!r})


def test_loads():
    assert _secret(load_plan(HERE / "plan.json"))
""")
    junit = pytester.path / "junit.xml"
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS, f"--junitxml={junit}")
    result.assert_outcomes(passed=2)
    cases = {case.get("name"): case for case in ET.parse(str(junit)).iter("testcase")}
    assert [p.get("value") for p in cases["test_before"].iter("property")] == [SECRET_AFTER]


#: A test that meets the session's first document, then ends the session with an exception showing a secret: the
#: terminal writes it at the end ("!!! Exit: ... !!!", with --fulltrace its traceback) through no report, and it
#: showed the secret (before #34 too).
INTERRUPTS = {
    "pytest.exit": 'pytest.exit(f"exiting {secret}")',
    "a test's KeyboardInterrupt": 'raise KeyboardInterrupt(f"interrupted {secret}")',
}


@pytest.mark.parametrize("args", [("-v",), ("-v", "--fulltrace")], ids=["verbose", "full trace"])
@pytest.mark.parametrize("ends", INTERRUPTS.values(), ids=INTERRUPTS.keys())
def test_an_interrupt_after_the_first_document_is_scrubbed(pytester: pytest.Pytester, ends: str, args: tuple[str, ...]) -> None:
    write_json(pytester.path / "plan.json", plan_document())
    pytester.makepyfile(test_interrupted=HEADER + f"""

def test_plain():
    assert 1


def test_ends_the_session():
    secret = _secret(load_plan(HERE / "plan.json"))
    {ends}
""")
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS, *args)
    output = result.stdout.str() + result.stderr.str()
    assert not [line for line in output.splitlines() if line.startswith("INTERNALERROR")], output
    assert leaks(output, PLAN_SECRETS) == [], output
    assert result.ret == pytest.ExitCode.INTERRUPTED, output
    result.stdout.fnmatch_lines(["!*(sensitive) !*"])
