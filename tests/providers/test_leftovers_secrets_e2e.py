"""Red team (#25): a later attempt to destroy a leftover scrubs the secrets of the case that left it.

The case knew its secrets (a Sensitive variable, the values its plans marked); ``destroy_leftovers`` ran
with none, so a provider whose delete fails again, echoing a sensitive attribute, showed it in the kept
problem, the log (pytest's terminal, the CLI's output) and the manifest's recorded attempts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from provider_support import WIDGET, example_module

from plancheck.acceptance import (
    AcceptanceError,
    AcceptanceRunner,
    Sensitive,
    TestCase,
    TestStep,
    destroy_leftovers,
    find_leftovers,
)
from plancheck.acceptance._statefiles import SECRETS_FILE

pytestmark = pytest.mark.e2e
widget = example_module()
SECRET = "zq-leftover-retry-secret-7716"
CONFIG = """
variable "s" {
  type      = string
  sensitive = true
}

resource "widget_thing" "t" {
  name   = "alpha"
  secret = var.s
}
"""


class StubbornThing(widget.WidgetThing):  # type: ignore[misc, name-defined]
    def read(self, ctx: Any, current: Any) -> Any:
        return current  # the "API" keeps it, in a new provider instance too

    def delete(self, ctx: Any, current: Any) -> None:
        ctx.diagnostics.add_error("the API refuses to delete the widget whose secret is " + current["secret"])


class StubbornProvider(widget.WidgetProvider):  # type: ignore[misc, name-defined]
    def get_resources(self) -> list[Any]:
        return [StubbornThing]


@pytest.mark.parametrize("case_list", [True, False], ids=["with-the-cases-secrets", "kept-before-they-were"])
def test_a_second_failed_destroy_shows_no_secret(tf_acceptance: AcceptanceRunner, tmp_path: Path, case_list: bool) -> None:
    leftovers = tmp_path / "leftovers"
    runner = AcceptanceRunner(tf_acceptance.terraform, tmp_path / "work", timeout=120, echo=False,
                              require_tf_acc=False, leftovers_dir=leftovers)
    with pytest.raises(AcceptanceError) as info:
        runner.run(TestCase(providers={WIDGET: StubbornProvider},
                            steps=[TestStep(config=CONFIG, variables={"s": Sensitive(SECRET)})]))
    assert SECRET not in str(info.value)
    [kept] = find_leftovers(leftovers)
    assert oct((kept.path / SECRETS_FILE).stat().st_mode & 0o777) == "0o600"
    if not case_list:
        (kept.path / SECRETS_FILE).unlink()  # as a leftover kept before the list existed: the state and variables say
    lines: list[str] = []
    result = destroy_leftovers(leftovers, terraform=tf_acceptance.terraform, providers={WIDGET: StubbornProvider},
                               log=lines.append)
    assert result.kept == {str(kept.path): "terraform destroy failed: Error: the API refuses to delete the widget "
                                           "whose secret is (sensitive)"}
    shown = repr(result) + "\n".join(lines) + (kept.path / "leftover.json").read_text()
    assert SECRET not in shown
    assert "the API refuses to delete the widget whose secret is (sensitive)" in (kept.path / "leftover.json").read_text()
