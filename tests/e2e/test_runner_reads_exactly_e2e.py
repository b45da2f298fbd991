"""The runner reads what ``terraform show -json`` prints with the library's exact loader (#25 item 4).

A number of thousands of digits (Terraform prints ``1e5000`` in full) made the step fail with
"show -json printed invalid JSON": ``json.loads`` refuses integers past 4300 digits.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from plancheck import ExpectKnownOutputValue, statecheck
from plancheck import knownvalue as kv
from plancheck.acceptance import AcceptanceRunner, ConfigPlanChecks, TestCase, TestStep

pytestmark = pytest.mark.e2e

CONFIG = """
output "big" {
  value = 1e5000
}

output "deep" {
  value = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]
}
"""


def test_a_number_of_thousands_of_digits_is_read_exactly(tf_acceptance: AcceptanceRunner) -> None:
    big = kv.NumberExact(Decimal("1e5000"))
    tf_acceptance.run(TestCase(steps=[TestStep(
        config=CONFIG,
        config_plan_checks=ConfigPlanChecks(pre_apply=[ExpectKnownOutputValue("big", big)]),
        config_state_checks=[statecheck.ExpectKnownOutputValue("big", big)],
    )]))
