"""The pytest report hook keeps what a check's failure trusts (its configuration names and given path).

The hook scrubs every report with the session's secrets; a failure raised by a check carries the
texts it trusts, and the hook trusts them too, so the scrub at this exit does not undo the message
(``tests/test_redact_trusted.py`` pins the messages themselves).
"""

from __future__ import annotations

import pytest
from plugin_support import QUIET_PLUGINS, write_json
from test_redact_trusted import CASES, PLAN

INNER = '''
import pytest
from plancheck import ExpectKnownValue, knownvalue as kv
from tfjsonpath import New

pytestmark = pytest.mark.tf_plan("plan.json")


def test_tags(tf_plan, assert_plan):
    assert_plan(tf_plan, ExpectKnownValue("terraform_data.tags_null", New("input").AtMapKey("tags").AtMapKey("env"),
                                          kv.StringExact("staging")))


def test_raw_value_still_scrubbed(tf_plan):
    assert tf_plan.resource_change("terraform_data.tags_null").change.after["input"]["tags"]["env"] == "x"
'''


def test_the_pytest_report_keeps_what_the_failure_trusts(pytester: pytest.Pytester) -> None:
    write_json(pytester.path / "plan.json", PLAN)
    pytester.makepyfile(test_inner=INNER)
    result = pytester.runpytest(*QUIET_PLUGINS, "-rA", "-vv")
    result.assert_outcomes(failed=2)
    output = result.stdout.str()
    assert f"plancheck.PlanCheckError: {CASES[0].values[1]}" in output
    assert "(sensitive)_null" not in output
    # The raw value pulled out by the test is not the check's own text: scrubbed as before.
    assert "AssertionError: assert '(sensitive)' == 'x'" in output
