"""A key of a ``Sensitive({...})`` map variable is a secret too (#25 item 4).

Terraform quotes it from ``terraform.tfvars.json`` when the value does not convert to the
variable's type (``element "<key>": a number is required``): it must be scrubbed everywhere
the runner shows Terraform's output.
"""

from __future__ import annotations

import pytest

from plancheck.acceptance import AcceptanceError, AcceptanceRunner, Sensitive, TestCase, TestStep

pytestmark = pytest.mark.e2e

KEY = "planted-map-key-4471"
CONFIG = """
variable "limits" {
  type      = map(number)
  sensitive = true
}

output "count" {
  value = length(var.limits)
}
"""


def test_a_sensitive_map_key_quoted_by_terraform_is_scrubbed(
    tf_acceptance: AcceptanceRunner, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(AcceptanceError) as info:
        tf_acceptance.run(TestCase(steps=[TestStep(
            config=CONFIG, variables={"limits": Sensitive({KEY: "not a number"})},
        )]))
    raw = "\n".join(c.stdout + c.stderr for c in tf_acceptance.commands)
    assert "(sensitive)" in str(info.value) or "(sensitive)" in raw  # Terraform did quote it, scrubbed
    assert KEY not in str(info.value)
    assert KEY not in repr(info.value)
    assert KEY not in raw
    assert KEY not in "".join(capsys.readouterr())
