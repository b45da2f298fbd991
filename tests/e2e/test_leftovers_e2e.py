"""Nothing is lost when a case's destroy fails (#25 item 3): its state and configuration are kept, the failure
names them and the command that destroys them, and that command (the CLI, the pytest option) destroys them later.

The destroy is made to fail for real: a destroy-time provisioner exits 1 until a file exists.
"""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest

from plancheck.acceptance import (
    AcceptanceError,
    AcceptanceRunner,
    Sensitive,
    TestCase,
    TestStep,
    find_leftovers,
)
from plancheck.cli import main

pytestmark = pytest.mark.e2e

SECRET = "zq-leftover-planted-secret-3391"


def config(allow: Path) -> str:
    return textwrap.dedent(f"""
        terraform {{
          required_providers {{
            null = {{ source = "hashicorp/null", version = "2.1.2" }}
          }}
        }}

        variable "pw" {{
          type      = string
          sensitive = true
        }}

        resource "null_resource" "stubborn" {{
          triggers = {{ pw = var.pw }}
          provisioner "local-exec" {{
            when    = destroy
            command = "test -f {allow}"
          }}
        }}
        """)


def test_a_failed_destroy_is_kept_and_destroyed_later(
    tf_acceptance: AcceptanceRunner, tf_acceptance_cli_config: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    leftovers = tmp_path / "leftovers"
    allow = tmp_path / "allow-destroy"
    runner = AcceptanceRunner(tf_acceptance.terraform, tmp_path / "work", cli_config=tf_acceptance_cli_config,
                              leftovers_dir=leftovers, require_tf_acc=False, test_name="test_stubborn")
    with pytest.raises(AcceptanceError) as info:
        runner.run(TestCase(steps=[TestStep(config=config(allow), variables={"pw": Sensitive(SECRET)})]))
    [kept] = find_leftovers(leftovers)
    message = str(info.value)
    assert info.value.stage.value == "destroy"
    assert f"its state and configuration are kept in {kept.path}; destroy them later with: " \
           f"tfplancheck destroy-leftovers {leftovers}" in message
    assert kept.test == "test_stubborn"
    assert oct(kept.path.stat().st_mode & 0o777) == "0o700"
    assert {p.name for p in kept.path.iterdir()} >= {"main.tf", "terraform.tfstate", "terraform.tfvars.json",
                                                      "leftover.json", "cli.tfrc"}
    assert not (kept.path / ".terraform").exists()
    assert SECRET not in message
    assert SECRET not in (kept.path / "leftover.json").read_text()

    # Still failing: kept, with the attempt recorded; exit status 1.
    assert main(["destroy-leftovers", str(leftovers), "--terraform", tf_acceptance.terraform.path]) == 1
    attempts = json.loads((kept.path / "leftover.json").read_text())["attempts"]
    assert len(attempts) == 1
    assert attempts[0]["problem"].startswith("terraform destroy failed")
    # The cause is gone: destroyed, and the leftover removed.
    allow.write_text("")
    assert main(["destroy-leftovers", str(leftovers), "--terraform", tf_acceptance.terraform.path]) == 0
    assert find_leftovers(leftovers) == []
    out = capsys.readouterr().out
    assert f"[leftovers] destroyed and removed {kept.path}" in out
    assert SECRET not in out
    assert main(["destroy-leftovers", str(leftovers)]) == 0
    assert "tfplancheck: no leftovers" in capsys.readouterr().out


WIDGET_TEST = textwrap.dedent('''
    import sys
    from pathlib import Path

    sys.path.insert(0, {example!r})
    import widget_provider
    from plancheck.acceptance import TestCase, TestStep

    FLAG = Path(__file__).with_name("fail-deletes")


    class Stubborn(widget_provider.WidgetThing):
        def delete(self, ctx, current):
            if FLAG.exists():
                ctx.diagnostics.add_error("the API refuses to delete " + current["id"])
                return
            super().delete(ctx, current)


    class StubbornProvider(widget_provider.WidgetProvider):
        def get_resources(self):
            return [Stubborn]


    def test_leaves_a_widget(tf_acceptance):
        tf_acceptance.run(TestCase(providers={{"example.com/acme/widget": StubbornProvider}}, steps=[
            TestStep(config='resource "widget_thing" "t" {{\\n  name = "alpha"\\n}}\\n'),
        ]))
''')


def test_the_plugin_destroys_leftovers_serving_the_provider_under_test(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tf_acceptance_binary: object
) -> None:
    pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    example = Path(__file__).resolve().parents[2] / "examples" / "widget_provider"
    monkeypatch.delenv("TFPLANCHECK_LEFTOVERS_DIR", raising=False)
    terraform = getattr(tf_acceptance_binary, "path", None)
    if terraform is None:
        pytest.skip("no terraform binary")
    pytester.makeini(f"[pytest]\ntf_acc_gate = false\ntf_terraform = {terraform}\n")
    pytester.makepyfile(test_widgets=WIDGET_TEST.format(example=str(example)))
    (pytester.path / "fail-deletes").write_text("")
    first = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    first.assert_outcomes(failed=1)
    first.stdout.fnmatch_lines(["*destroy them later with: pytest --tf-destroy-leftovers*"])
    root = pytester.path / ".tfplancheck" / "leftovers"
    [kept] = find_leftovers(root)
    assert kept.providers_in_process == {"example.com/acme/widget": "test_widgets:StubbornProvider"}
    assert (pytester.path / ".tfplancheck" / ".gitignore").read_text().endswith("*\n")

    (pytester.path / "fail-deletes").unlink()
    second = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--tf-destroy-leftovers")
    assert second.ret == 0, second.stdout.str()
    second.stdout.fnmatch_lines(["*leftover(s) destroyed; nothing is left in*; no tests were run*"])
    assert find_leftovers(root) == []
    assert os.listdir(root) == []
