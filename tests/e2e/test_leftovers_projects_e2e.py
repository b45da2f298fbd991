"""Red team (#25): ``pytest --tf-destroy-leftovers`` destroys this project's leftovers only, each with the provider
under test that made it.

Two projects share one leftovers directory (``TFPLANCHECK_LEFTOVERS_DIR`` set for the user, as the README
suggests for CI) and, as projects do, a test module name (``test_widgets``). Project B's case leaves a widget its
provider refuses to delete. Project A's ``pytest --tf-destroy-leftovers`` found B's leftover, resolved B's
provider by its name to A's own ``test_widgets:WidgetProvider`` (whose delete succeeds), "destroyed" it and
removed the leftover: B's state gone, its resource lost.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from plancheck.acceptance import find_leftovers

pytestmark = pytest.mark.e2e

PROJECT_TEST = textwrap.dedent('''
    import sys

    sys.path.insert(0, {example!r})
    import widget_provider
    from plancheck.acceptance import TestCase, TestStep


    class Thing(widget_provider.WidgetThing):
        def read(self, ctx, current):
            return current  # the "API" keeps the widget, whichever provider instance asks

        def delete(self, ctx, current):
            if {refuses}:
                ctx.diagnostics.add_error("project B's API refuses to delete " + current["id"])


    class WidgetProvider(widget_provider.WidgetProvider):
        def get_resources(self):
            return [Thing]


    def test_leaves_a_widget(tf_acceptance):
        tf_acceptance.run(TestCase(providers={{"example.com/acme/widget": WidgetProvider}}, steps=[
            TestStep(config='resource "widget_thing" "t" {{\\n  name = "alpha"\\n}}\\n'),
        ]))
''')


def project(root: Path, terraform: str, refuses: bool) -> Path:
    example = Path(__file__).resolve().parents[2] / "examples" / "widget_provider"
    root.mkdir()
    (root / "pytest.ini").write_text(f"[pytest]\ntf_acc_gate = false\ntf_terraform = {terraform}\n")
    (root / "test_widgets.py").write_text(PROJECT_TEST.format(example=str(example), refuses=refuses))
    return root


def test_another_projects_leftover_is_left_alone(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tf_acceptance_binary: object
) -> None:
    pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    terraform = getattr(tf_acceptance_binary, "path", None)
    if terraform is None:
        pytest.skip("no terraform binary")
    shared = pytester.path / "shared-leftovers"
    monkeypatch.setenv("TFPLANCHECK_LEFTOVERS_DIR", str(shared))
    project_a = project(pytester.path / "a", terraform, refuses=False)
    project_b = project(pytester.path / "b", terraform, refuses=True)

    monkeypatch.chdir(project_b)
    made = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--rootdir", str(project_b), str(project_b))
    made.assert_outcomes(failed=1)
    [left_by_b] = find_leftovers(shared)

    monkeypatch.chdir(project_a)
    swept = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--rootdir", str(project_a), str(project_a),
                                          "--tf-destroy-leftovers")
    assert swept.ret == 0, swept.stdout.str()
    swept.stdout.fnmatch_lines([
        f"*[[]leftovers] left alone {left_by_b.path}: left by tests under {project_b}, not this project's ({project_a})*",
        f"*0 leftover(s) destroyed; nothing of this project's is left in {shared}; no tests were run*",
    ])
    assert find_leftovers(shared) == [left_by_b]
    assert left_by_b.manifest["attempts"] == []  # not even tried: another project's
    assert left_by_b.base_dir == str(project_b)
