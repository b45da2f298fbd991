"""A failure raised out of plancheck's frames shows none of their data: pytest's arguments and locals of each.

The document that failed to load is in those frames (its bytes, its parsed dict) and no scrub knows its
secrets. Every output is searched for the secret: the terminal, stderr and the JUnit XML file.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from plugin_support import junit_text, run, run_subprocess

from plancheck._plugin.frames import withhold_library_frames

#: What pytest shows instead of the value of each argument and local of plancheck's frames.
FRAME_WITHHELD = "(withheld: plancheck's data)"

SECRET = "hunter2-frames-Q7zz"
#: A plan that fails validation (a format version plancheck does not read), a secret among its values.
_BAD_PLAN = {
    "format_version": "9.0",
    "variables": {"pw": {"value": SECRET}},
    "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}},
    "resource_changes": [{"address": "a.b", "mode": "managed", "type": "a", "name": "b",
                          "change": {"actions": ["create"], "before": None, "after": {"password": SECRET},
                                     "after_unknown": {}, "after_sensitive": {"password": True}}}],
}  # fmt: skip
_GOOD_PLAN = {**_BAD_PLAN, "format_version": "1.2"}
#: A state whose outputs is no object: refused, its sensitive output's value in the frames.
_BAD_STATE = {"format_version": "1.0", "values": {"outputs": {"pw": {"value": SECRET, "sensitive": True}}, "root_module": 5}}
#: A configuration with a sensitive variable's default, refused for its resource block.
_BAD_CONFIG = {"variable": {"pw": {"default": SECRET, "sensitive": True}}, "resource": 5}
_FAILED_LOAD = "plancheck.PlanFormatError: plan.json: $.format_version: expected a plan format version 0.x or 1.x"

_TESTS = {
    "load_plan": "from plancheck import load_plan\n\ndef test_it():\n    load_plan('plan.json')\n",
    "load_state": "from plancheck import load_state\n\ndef test_it():\n    load_state('state.json')\n",
    "Plan.from_json": (
        "from pathlib import Path\nfrom plancheck import Plan\n\n"
        "def test_it():\n    Plan.from_json(Path('plan.json').read_text() + ' trailing')\n"
    ),
    # The test's own frame holds the text that failed to load: no scrub knows its secrets either.
    "text-in-a-local": (
        "from pathlib import Path\nfrom plancheck import Plan\n\n"
        "def test_it():\n    text = Path('plan.json').read_text()\n    Plan.from_json(text)\n"
    ),
    "load_config": "from plancheck.tfconfig import load_config\n\ndef test_it():\n    load_config('main.tf.json')\n",
    "assert_plan": (
        "from plancheck import ExpectKnownValue, load_plan\nfrom plancheck.knownvalue import StringExact\n"
        "from tfjsonpath import New\n\n"
        "def test_it(assert_plan):\n"
        "    assert_plan(load_plan('good.json'), ExpectKnownValue('a.b', New('password'), StringExact('x')))\n"
    ),
    "Traverse": (
        "import json\nfrom pathlib import Path\nfrom tfjsonpath import New, Traverse\n\n"
        "def test_it():\n    Traverse(json.loads(Path('plan.json').read_text()), New('variables').AtMapKey('nope'))\n"
    ),
}


def _write(pytester: pytest.Pytester, test: str) -> None:
    for name, document in (("plan.json", _BAD_PLAN), ("good.json", _GOOD_PLAN), ("state.json", _BAD_STATE),
                           ("main.tf.json", _BAD_CONFIG)):
        pytester.path.joinpath(name).write_text(json.dumps(document), encoding="utf-8")
    pytester.makepyfile(test_it=test)


def _everything(result: pytest.RunResult, junit: Path) -> str:
    """All a run wrote: its output, its errors, and the JUnit file (raw and unescaped)."""
    written = [*result.outlines, *result.errlines]
    if junit.exists():
        written += [junit.read_text(encoding="utf-8"), junit_text(junit)]
    return "\n".join(written)


_ARGUMENT = f"source = {FRAME_WITHHELD}"  # pytest's line of a frame's arguments
_LOCAL = f"source     = {FRAME_WITHHELD}"  # and of its locals (-l), the name padded to 10


@pytest.mark.parametrize(("args", "shown"), [
    pytest.param(("--tb=long",), _ARGUMENT, id="tb-long"),
    pytest.param(("-l",), _LOCAL, id="showlocals"),
    pytest.param(("--tb=short", "-l"), _LOCAL, id="tb-short-showlocals"),
    pytest.param(("--fulltrace",), _ARGUMENT, id="fulltrace"),
    pytest.param(("--fulltrace", "-l", "-vv"), _LOCAL, id="fulltrace-showlocals-vv"),
    pytest.param(("-vv", "-l", "--tb=long"), _LOCAL, id="vv-showlocals"),
    # Python's own traceback and the crash line show no frame's data, with -l or not: nothing to withhold.
    pytest.param(("--tb=native", "-l"), None, id="tb-native-showlocals"),
    pytest.param(("--tb=line", "-l"), None, id="tb-line-showlocals"),
])  # fmt: skip
def test_a_failed_load_shows_no_frame_data(pytester: pytest.Pytester, args: tuple[str, ...], shown: str | None) -> None:
    _write(pytester, _TESTS["load_plan"])
    junit = pytester.path / "junit.xml"
    result = run(pytester, f"--junitxml={junit}", *args)
    result.assert_outcomes(failed=1)
    text = _everything(result, junit)
    assert SECRET not in text
    assert _FAILED_LOAD in text
    assert (FRAME_WITHHELD in text) is (shown is not None)
    assert shown is None or shown in text


@pytest.mark.parametrize("test", [
    pytest.param(_TESTS["load_plan"], id="load_plan"),
    pytest.param(_TESTS["load_state"], id="load_state"),
    pytest.param(_TESTS["Plan.from_json"], id="Plan.from_json"),
    pytest.param(_TESTS["text-in-a-local"], id="text-in-the-tests-local"),
    pytest.param(_TESTS["load_config"], id="tfconfig.load_config"),
    # Loaded: the scrub knows these secrets, and the frames' data (the plan, the values compared) is withheld too.
    pytest.param(_TESTS["assert_plan"], id="assert_plan-check-fails"),
    pytest.param(_TESTS["Traverse"], id="tfjsonpath.Traverse"),
])  # fmt: skip
def test_a_failure_in_plancheck_shows_no_frame_data(pytester: pytest.Pytester, test: str) -> None:
    _assert_frames_withheld(pytester, test, ("--fulltrace", "-l"), failed=1)  # hidden frames (assert_plan's) too


def _assert_frames_withheld(pytester: pytest.Pytester, test: str, args: tuple[str, ...], **outcomes: int) -> None:
    """Run ``test`` with ``args``: it ends with ``outcomes``, no output holds the secret, and a frame's data is withheld."""
    __tracebackhide__ = True
    _write(pytester, test)
    junit = pytester.path / "junit.xml"
    result = run(pytester, f"--junitxml={junit}", *args)
    result.assert_outcomes(**outcomes)
    text = _everything(result, junit)
    assert SECRET not in text
    assert f" = {FRAME_WITHHELD}" in text


def test_xdist_workers_send_no_frame_data(pytester: pytest.Pytester) -> None:
    """The report is serialised on the worker: withheld there, before the controller renders it."""
    _write(pytester, _TESTS["load_plan"])
    junit = pytester.path / "junit.xml"
    result = run_subprocess(pytester, "-n", "2", f"--junitxml={junit}", "--tb=long", "-l", "-vv")
    result.assert_outcomes(failed=1)
    text = _everything(result, junit)
    assert SECRET not in text
    assert _LOCAL in text
    assert _FAILED_LOAD in text


@pytest.mark.parametrize(("test", "args"), [
    # A module that fails to import: pytest shows its traceback, with --fulltrace as a long one.
    pytest.param("from plancheck import load_plan\n\nPLAN = load_plan('plan.json')\n\ndef test_it():\n    pass\n",
                 ("--fulltrace", "-l"), id="module-level-load-fulltrace"),
    pytest.param(
        "from plancheck import load_plan\n\n"
        "def pytest_generate_tests(metafunc):\n    metafunc.parametrize('rc', load_plan('plan.json').resource_changes)\n\n"
        "def test_it(rc):\n    pass\n",
        ("--tb=long", "-l"), id="generate-tests-load",
    ),
    # The module's frame shows its globals as locals: the text it read.
    pytest.param("from pathlib import Path\nfrom plancheck import Plan\n\nTEXT = Path('plan.json').read_text()\n"
                 "PLAN = Plan.from_json(TEXT)\n\ndef test_it():\n    pass\n",
                 ("--fulltrace", "-l"), id="module-level-text-fulltrace"),
])  # fmt: skip
def test_a_failed_collection_shows_no_frame_data(pytester: pytest.Pytester, test: str, args: tuple[str, ...]) -> None:
    _assert_frames_withheld(pytester, textwrap.dedent(test), args, errors=1)


def test_tf_show_sensitive_shows_the_frames(pytester: pytest.Pytester) -> None:
    """Revealing (never in CI) shows everything: the frames' data too, for debugging locally."""
    _write(pytester, _TESTS["load_plan"])
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("CI", raising=False)
        result = run(pytester, "--tf-show-sensitive", "--tb=long", "-l")
    result.assert_outcomes(failed=1)
    text = "\n".join(result.outlines)
    assert SECRET in text
    assert FRAME_WITHHELD not in text


class _Unknown:
    """A rendering of a shape plancheck does not know (no traceback entries to look at)."""

    def __str__(self) -> str:
        return f"a frame's data: {SECRET}"


@pytest.mark.parametrize(("through_plancheck", "shown"), [
    pytest.param(True, "plancheck: this failure's traceback is withheld because it passes through plancheck's frames "
                       "and pytest rendered it as a _Unknown, whose frames' data plancheck cannot withhold; run with "
                       "--tf-show-sensitive locally to see it", id="through-plancheck-withheld"),
    pytest.param(False, f"a frame's data: {SECRET}", id="elsewhere-left-as-is"),
])  # fmt: skip
def test_an_unknown_rendering_through_plancheck_is_withheld(through_plancheck: bool, shown: str) -> None:
    from types import SimpleNamespace

    from plancheck import load_plan

    try:
        if through_plancheck:
            load_plan(b"[]")
        else:
            raise ValueError("elsewhere")
    except ValueError as exc:
        excinfo = pytest.ExceptionInfo.from_exception(exc)
    report = SimpleNamespace(longrepr=_Unknown())
    withhold_library_frames(report, excinfo)
    assert str(report.longrepr) == shown
