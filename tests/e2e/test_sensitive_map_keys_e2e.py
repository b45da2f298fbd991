"""A key of a ``Sensitive({...})`` map variable is a secret too (#25 item 4).

Terraform 1.0 quotes it from ``terraform.tfvars.json`` when the value does not convert to the
variable's type (the file's lines, in its error about the value): it must be scrubbed everywhere
the runner shows Terraform's output. (1.11 quotes no line of a sensitive variable.) The
value holds no common word: a sensitive value's words are scrubbed from every later report of
the session, and "not" from "not a number" once turned the skip reasons of other tests into
"(sensitive)".
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
  value     = length(var.limits)
  sensitive = true # else Terraform 1.11 stops at the output, before converting the variable
}
"""


def test_a_sensitive_map_key_quoted_by_terraform_is_scrubbed(
    tf_acceptance: AcceptanceRunner, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(AcceptanceError) as info:
        tf_acceptance.run(TestCase(steps=[TestStep(
            config=CONFIG, variables={"limits": Sensitive({KEY: "notanumber"})},
        )]))
    raw = "\n".join(c.stdout + c.stderr for c in tf_acceptance.commands)
    assert "a number" in raw  # the conversion failed, as planned
    if tf_acceptance.terraform.version_tuple < (1, 11):  # 1.0.3 quotes the tfvars file's lines: key and value
        assert '"(sensitive)": "(sensitive)"' in raw
    # 1.11.4 quotes no line of a sensitive variable's value: nothing to scrub there.
    assert KEY not in str(info.value)
    assert KEY not in repr(info.value)
    assert KEY not in raw
    assert KEY not in "".join(capsys.readouterr())
