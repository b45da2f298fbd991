"""A plan that fails to load, with a secret where the schema wants a fixed word, shows no secret in pytest's report."""

from __future__ import annotations

import json
import textwrap

import pytest
from plugin_support import run

SECRET = "hunter2-pw-xyz"
_PLAN = {
    "format_version": "1.2",
    "variables": {"pw": {"value": SECRET}},
    "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}},
    "resource_changes": [{"address": "a.b", "mode": "managed", "type": "a", "name": "b",
                          "change": {"actions": [SECRET], "before": None, "after": {}}}],
}  # fmt: skip
_FOUND = 'expected an action: one of "no-op", "create", "read", "update", "delete", "forget", found (sensitive)'


@pytest.mark.parametrize(("test", "args"), [
    pytest.param("def test_it(tf_plan):\n    pass\n", ("--tf-plan", "p.json"), id="tf-plan-fixture"),
    # A long traceback, plancheck's frames' data withheld (test_plugin_library_frames.py has every rendering).
    pytest.param("from plancheck import load_plan\n\ndef test_it():\n    load_plan('p.json')\n", ("--tb=long", "-l"),
                 id="load-plan-in-a-test"),
])  # fmt: skip
def test_a_load_error_in_pytest_shows_no_secret(pytester: pytest.Pytester, test: str, args: tuple[str, ...]) -> None:
    pytester.path.joinpath("p.json").write_text(json.dumps(_PLAN), encoding="utf-8")
    pytester.makepyfile(test_it=textwrap.dedent(test))
    result = run(pytester, *args)
    text = "\n".join(result.outlines + result.errlines)
    assert SECRET not in text
    assert _FOUND in text
