"""A test's id is no report's text: a parameter taken from a plan shows no secret in it, whoever made the id.

pytest names a parametrized test by its parameters (``test_x[hunter2]``) before any report exists, and
writes that name in the progress lines (``-v``), ``--collect-only``, the failure headers, the short summary,
JUnit's ``name`` and through an xdist worker. A test module that loads a plan at import and parametrizes
over its addresses or values (a for_each key that is a sensitive variable, a marked value) is named by
its secrets, unless the id is scrubbed where pytest makes the test (from the value, an ``ids`` function or
list, ``pytest.param(id=...)``). A JUnit property's name, which a test may
take from a map key, is written by the xdist controller, which holds no document: the worker scrubs it.
"""

from __future__ import annotations

import pytest
from plugin_support import QUIET_PLUGINS, junit_text, write_json
from secret_shapes import leaks

KEY = "zzfe-key-4c1d"  # a sensitive variable that is also a for_each key: in an address
UNICODE = "пароль-秘密-ключ"  # a marked value, escaped by pytest in an id
LINES = "zzfirst-line-a1\nzzsecond-line-b2"  # a marked value over two lines
NUMBER = 31337.25  # a sensitive variable's number (a Decimal once loaded: pytest names it by its argument)
SECRETS = {"key": KEY, "unicode": UNICODE, "lines": LINES, "number": "31337.25"}

PLAN = {
    "format_version": "1.2",
    "variables": {"key": {"value": KEY}, "n": {"value": NUMBER}},
    "configuration": {"root_module": {"variables": {"key": {"sensitive": True}, "n": {"sensitive": True}}}},
    "resource_changes": [
        {"address": f'null_resource.fe["{KEY}"]', "mode": "managed", "type": "null_resource", "name": "fe",
         "index": KEY, "change": {"actions": ["create"], "before": None, "after": {}, "after_unknown": {"id": True}}},
        {"address": "null_resource.web", "mode": "managed", "type": "null_resource", "name": "web",
         "change": {"actions": ["create"], "before": None,
                    "after": {"pw": UNICODE, "pem": LINES, "tags": {"plain": "v"}, "n": NUMBER},
                    "after_unknown": {}, "after_sensitive": {"pw": True, "pem": True}}},
    ],
}

INNER = """
import pathlib
import pytest
from plancheck import load_plan

PLAN = load_plan(pathlib.Path(__file__).parent / "plan.json")
AFTER = PLAN.resource_change("null_resource.web").change.after


@pytest.mark.parametrize("address", [rc.address for rc in PLAN.resource_changes])
def test_address(address):
    assert address == "nope"


@pytest.mark.parametrize("value", [AFTER["pw"], AFTER["pem"], AFTER["n"], AFTER["tags"]["plain"]])
def test_value(value):
    assert value == "nope"


@pytest.mark.parametrize("rc", PLAN.resource_changes, ids=lambda rc: rc.address)
def test_ids_function(rc):
    assert rc is None


@pytest.mark.parametrize("name", ["a", "b"], ids=[PLAN.resource_changes[0].address, AFTER["pw"]])
def test_ids_list(name):
    assert name is None


@pytest.mark.parametrize("name", [pytest.param("a", id=AFTER["pem"])])
@pytest.mark.parametrize("n", [1, 2])
def test_stacked_with_an_own_id(name, n):
    assert name is None


@pytest.fixture(params=[AFTER["pw"]], ids=["pw"])
def a_fixture_of_a_value(request):
    return request.param


def test_a_fixture_parametrized_by_a_value(a_fixture_of_a_value):
    assert a_fixture_of_a_value is None


def test_property_named_by_a_key(record_property):
    record_property(PLAN.variables["key"], "v")


def test_suite_property_named_by_a_key(record_testsuite_property):
    record_testsuite_property(PLAN.variables["key"], "v")
"""

#: How pytest is run, and where the ids show.
MODES = {
    "verbose": ("-v", "-rA"),
    "collect only": ("--collect-only",),
    "xdist workers": ("-n", "2", "-v", "-rA"),
    # Each parameter's value is written beside its fixture's setup and teardown (saferepr, no report's text).
    "setup show": ("--setup-show",),
    "setup plan": ("--setup-plan",),
}


@pytest.mark.parametrize("args", MODES.values(), ids=MODES.keys())
def test_no_test_id_shows_a_secret(pytester: pytest.Pytester, args: tuple[str, ...]) -> None:
    write_json(pytester.path / "plan.json", PLAN)
    pytester.makepyfile(test_inner=INNER)
    junit = pytester.path / "junit.xml"
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS, f"--junitxml={junit}", *args)
    output = result.stdout.str() + result.stderr.str()
    assert leaks(output, SECRETS) == [], output
    assert leaks(junit_text(junit), SECRETS) == []
    # Scrubbed ids that meet are told apart by pytest; an id that shows no secret is pytest's own.
    for shown in ('test_address[null_resource.fe["(sensitive)"]]', "test_address[null_resource.web]",
                  "test_value[(sensitive)0]", "test_value[(sensitive)1]", "test_value[value2]", "test_value[v]",
                  'test_ids_function[null_resource.fe["(sensitive)"]]', "test_ids_function[null_resource.web]",
                  'test_ids_list[null_resource.fe["(sensitive)"]]', "test_ids_list[(sensitive)]",
                  "test_stacked_with_an_own_id[1-(sensitive)]", "test_stacked_with_an_own_id[2-(sensitive)]"):
        assert shown in output, shown


#: A pytest whose internals differ from the ones the renaming uses: a conftest alters each item pytest made
#: before the plugin renames it. The renaming must fail closed: a collection error naming the test, no secret.
DRIFTED = """
import dataclasses
import types
import pytest
from _pytest.python import CallSpec


@dataclasses.dataclass(frozen=True)
class IdOfItsOwn(CallSpec):
    shown: str = ""

    @property
    def id(self):
        return self.shown


def drift(item):
    {body}


@pytest.hookimpl(wrapper=True)
def pytest_pycollect_makeitem(collector, name, obj):
    result = yield
    for item in result if isinstance(result, list) else ():
        if getattr(item, "callspec", None) is not None:
            drift(item)
    return result
"""

DRIFTED_TEST = """
import pathlib
import pytest
from plancheck import load_plan

PLAN = load_plan(pathlib.Path(__file__).parent / "plan.json")


@pytest.mark.parametrize("address", [rc.address for rc in PLAN.resource_changes])
def test_address(address):
    assert address
"""

DRIFTS = {
    "no fixture info": "del item._fixtureinfo",
    "a callspec that is no dataclass": "item.callspec = types.SimpleNamespace(**vars(item.callspec))",
    "no _idlist field": "item.callspec = types.SimpleNamespace(id=item.callspec.id, params=item.callspec.params)",
    "an id that is not the _idlist's": (
        "item.callspec = IdOfItsOwn(**{f.name: getattr(item.callspec, f.name) "
        "for f in dataclasses.fields(CallSpec)}, shown=item.callspec.id)"
    ),
}


@pytest.mark.parametrize("body", DRIFTS.values(), ids=DRIFTS.keys())
@pytest.mark.parametrize("args", [("-v",), ("-v", "--fulltrace", "-l")], ids=["verbose", "full trace"])
def test_a_renaming_pytest_refuses_fails_closed(pytester: pytest.Pytester, body: str, args: tuple[str, ...]) -> None:
    write_json(pytester.path / "plan.json", PLAN)
    pytester.makeconftest(DRIFTED.replace("{body}", body))
    pytester.makepyfile(test_inner=DRIFTED_TEST)
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS, *args)
    output = result.stdout.str() + result.stderr.str()
    assert leaks(output, SECRETS) == [], output
    assert not [line for line in output.splitlines() if line.startswith("INTERNALERROR")], output
    assert result.ret == pytest.ExitCode.INTERRUPTED, output
    result.stdout.fnmatch_lines([
        "*ERROR collecting test_inner.py*",
        "*plancheck: the tests test_inner.py::test_address have ids showing a secret, and this pytest's tests cannot "
        "be named again without it (*Error); they are not collected "
        "(run with --tf-show-sensitive locally to collect them as pytest names them)",
    ])


CONFTEST_PLAN = """
import pathlib
from plancheck import load_plan

PLAN = load_plan(pathlib.Path(__file__).parent / "plan.json")
"""

FROM_CONFTEST = """
import pytest
from conftest import PLAN


@pytest.mark.parametrize("address", [rc.address for rc in PLAN.resource_changes])
def test_address(address):
    assert address == "nope"
"""


def test_a_plan_the_first_conftest_loads_at_import_is_scrubbed_too(pytester: pytest.Pytester) -> None:
    # pytest imports the rootdir's conftest.py before any plugin is configured: its plan is made before the
    # session listens for documents, and was no source of the scrub (ids, failure reports).
    write_json(pytester.path / "plan.json", PLAN)
    pytester.makeconftest(CONFTEST_PLAN)
    pytester.makepyfile(test_inner=FROM_CONFTEST)
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS, "-v", "-rA")
    output = result.stdout.str() + result.stderr.str()
    assert leaks(output, SECRETS) == [], output
    assert 'test_address[null_resource.fe["(sensitive)"]] FAILED' in output


#: Nodes no function made, named by a plan's values: pytest cannot name them again, so their collector fails, naming
#: what it is, never the name (they were shown in -v, the short summary and --collect-only, before #34 too).
NAMED_BY_A_SECRET = {
    "a plugin's own item": ("a.chk", """
import pathlib
import pytest
from plancheck import load_plan

PLAN = load_plan(pathlib.Path(__file__).parent / "plan.json")


class CheckItem(pytest.Item):
    def runtest(self):
        raise AssertionError("fails")


class CheckFile(pytest.File):
    def collect(self):
        yield CheckItem.from_parent(self, name="check-" + PLAN.resource_changes[0].address)
        yield CheckItem.from_parent(self, name="plain")


def pytest_collect_file(file_path, parent):
    if file_path.suffix == ".chk":
        return CheckFile.from_parent(parent, path=file_path)
""", "1 of what a.chk collected is"),
    "a class made at import": ("test_inner.py", """
import pathlib
from plancheck import load_plan

PLAN = load_plan(pathlib.Path(__file__).parent / "plan.json")
# pytest names a class by the module's name for it.
globals()["Test" + PLAN.resource_change("null_resource.web").change.after["pw"]] = type("TestByValue", (), {
    "test_x": lambda self: None,
})
""", "1 of what test_inner.py collected is"),
}


@pytest.mark.parametrize("args", [("-v", "-rA"), ("--collect-only",), ("-n", "2", "-v")], ids=["verbose", "collect only", "xdist"])
@pytest.mark.parametrize(("where", "conftest", "said"), NAMED_BY_A_SECRET.values(), ids=NAMED_BY_A_SECRET.keys())
def test_a_node_no_function_made_named_by_a_secret_fails_its_collector(
    pytester: pytest.Pytester, where: str, conftest: str, said: str, args: tuple[str, ...]
) -> None:
    write_json(pytester.path / "plan.json", PLAN)
    if where.endswith(".chk"):
        pytester.makeconftest(conftest)
        (pytester.path / where).write_text("x", encoding="utf-8")
    else:
        pytester.makepyfile(**{where[:-3]: conftest})
    junit = pytester.path / "junit.xml"
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS, f"--junitxml={junit}", *args)
    output = result.stdout.str() + result.stderr.str()
    assert leaks(output, SECRETS) == [], output
    assert leaks(junit_text(junit), SECRETS) == []
    assert not [line for line in output.splitlines() if line.startswith("INTERNALERROR")], output
    # A collection error: the session is interrupted (xdist's controller counts it a failure).
    assert result.ret in (pytest.ExitCode.INTERRUPTED, pytest.ExitCode.TESTS_FAILED), output
    result.stdout.fnmatch_lines([
        f"*plancheck: {said} named showing a secret, and only a parametrized test can be named again without it; "
        f"nothing of {where} is collected (run with --tf-show-sensitive locally to collect it as it is named)",
    ])


def test_a_directory_named_like_a_secret_is_collected(pytester: pytest.Pytester) -> None:
    # Files and directories are named by the project's tree, not by a document: a secret that is a common word must
    # not end their collection (only a node named at run time, as above, is refused).
    write_json(pytester.path / "plan.json", PLAN)
    pytester.makeconftest(CONFTEST_PLAN)
    (pytester.path / KEY).mkdir()
    (pytester.path / KEY / "test_plain.py").write_text("def test_plain():\n    assert 1\n", encoding="utf-8")
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS, "-q")
    result.assert_outcomes(passed=1)


def test_a_doctest_named_like_a_session_secret_is_collected_as_before(pytester: pytest.Pytester) -> None:
    """A doctest is named by the code it documents, as a file by the tree: a secret that is a common word
    (``rotatedkeys``, a sensitive variable of a plan the session loaded first) must not end the collection of a
    module whose functions are named so. Before, it failed to collect ("1 of what helpers.py collected is named
    showing a secret"), as this suite's own doctests did once a test had met a plan whose secret is ``secret``."""
    plan = {**PLAN, "variables": {"word": {"value": "rotatedkeys"}},
            "configuration": {"root_module": {"variables": {"word": {"sensitive": True}}}}}
    write_json(pytester.path / "plan.json", plan)
    pytester.makeconftest("""
import pathlib
from plancheck import load_plan

PLAN = load_plan(pathlib.Path(__file__).parent / "plan.json")
""")
    pytester.makepyfile(helpers='''
def count_rotatedkeys():
    """
    >>> count_rotatedkeys()
    2
    """
    return 2
''')
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS, "--doctest-modules", "-v", "helpers.py")
    output = result.stdout.str() + result.stderr.str()
    assert result.ret == pytest.ExitCode.OK, output
    result.assert_outcomes(passed=1)
