"""The acceptance runner's skips (``unittest.SkipTest``) are reported at the test, as pytest reports skip markers.

pytest turns a ``unittest.SkipTest`` into its own skip inside ``_pytest/unittest.py``, so ``-rs``
used to name that file; the plugin points the report back at the test item. No terraform is run:
the runner skips before it starts one.
"""

from __future__ import annotations

import re
import textwrap

import pytest
from plugin_support import run, run_subprocess

HEADER = textwrap.dedent(
    """
    import unittest

    import pytest

    from plancheck._terraform import TerraformBinary
    from plancheck.acceptance import AcceptanceRunner, TestCase, TestStep
    from plancheck.tfversion import SkipBelow

    BINARY = TerraformBinary("/nonexistent/terraform", "1.0.3")
    GATED = TestCase(steps=[TestStep(config='output "a" { value = 1 }')])
    OLD = TestCase(steps=[TestStep(config='output "a" { value = 1 }')], terraform_version_checks=[SkipBelow("1.5.0")])
    """
)
TF_ACC = "Acceptance tests skipped unless env 'TF_ACC' set"
BELOW = "Terraform CLI version 1.0.3 is below minimum version 1.5.0: skipping test"

CASES = [
    pytest.param(
        """
        def test_it(tmp_path):
            AcceptanceRunner(BINARY, tmp_path).run(GATED)
        """,
        "test_it", TF_ACC, id="tf-acc-gate",
    ),
    pytest.param(
        """
        def test_it(tmp_path):
            AcceptanceRunner(BINARY, tmp_path, require_tf_acc=False).run(OLD)
        """,
        "test_it", BELOW, id="tfversion-SkipBelow",
    ),
    pytest.param(
        """
        @pytest.mark.parametrize("n", [1])
        def test_it(tmp_path, n):
            AcceptanceRunner(BINARY, tmp_path, require_tf_acc=False).run(OLD)
        """,
        "test_it", BELOW, id="parametrized",
    ),
    pytest.param(
        """
        @pytest.fixture
        def applied(tmp_path):
            AcceptanceRunner(BINARY, tmp_path).run(GATED)


        def test_it(applied):
            pass
        """,
        "test_it", TF_ACC, id="in-a-fixture",
    ),
    pytest.param(
        """
        class TestBucket:
            def test_it(self, tmp_path):
                AcceptanceRunner(BINARY, tmp_path, require_tf_acc=False).run(OLD)
        """,
        "test_it", BELOW, id="method",
    ),
]


def _write(pytester: pytest.Pytester, body: str) -> str:
    source = HEADER + textwrap.dedent(body)
    pytester.makeini("[pytest]\ntf_acc_gate = true\n")
    # What pytester wrote (it strips the source): the lines pytest reports.
    return pytester.makepyfile(test_skips=source).read_text(encoding="utf-8")


def _def_line(source: str, name: str) -> int:
    """The 1-based line where test ``name`` starts (its first decorator, else ``def``): where pytest reports its skip marker."""
    lines = source.splitlines()
    at = next(i for i, line in enumerate(lines) if re.match(rf"\s*def {name}\(", line))
    while at > 0 and lines[at - 1].lstrip().startswith("@"):
        at -= 1
    return at + 1


@pytest.mark.parametrize(("body", "name", "reason"), CASES)
def test_a_runner_skip_is_reported_at_the_test(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, body: str, name: str, reason: str
) -> None:
    monkeypatch.delenv("TF_ACC", raising=False)
    source = _write(pytester, body)
    result = run(pytester, "-rs")
    result.assert_outcomes(skipped=1)
    assert f"SKIPPED [1] test_skips.py:{_def_line(source, name)}: {reason}" in result.outlines
    assert "_pytest/unittest.py" not in result.stdout.str()


def test_the_location_matches_a_skip_marker(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TF_ACC", raising=False)
    source = _write(pytester, f'''
        def test_runner(tmp_path):
            AcceptanceRunner(BINARY, tmp_path).run(GATED)


        @pytest.mark.skip(reason="{TF_ACC}")
        def test_marker():
            pass
        ''')
    result = run(pytester, "-rs")
    lines = [line for line in result.outlines if line.startswith("SKIPPED")]
    assert lines == [f"SKIPPED [1] test_skips.py:{_def_line(source, name)}: {TF_ACC}" for name in ("test_runner", "test_marker")]


def test_a_skip_of_the_users_own_code_is_left_to_pytest(pytester: pytest.Pytester) -> None:
    _write(pytester, """
        def test_own():
            raise unittest.SkipTest("not ours")
        """)
    with_plugin = [line for line in run(pytester, "-rs").outlines if line.startswith("SKIPPED")]
    without = [line for line in run(pytester, "-rs", "-p", "no:plancheck").outlines if line.startswith("SKIPPED")]
    assert with_plugin == without
    assert len(with_plugin) == 1


def test_the_location_survives_xdist_and_junit(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("xdist")
    monkeypatch.delenv("TF_ACC", raising=False)
    source = _write(pytester, """
        def test_it(tmp_path):
            AcceptanceRunner(BINARY, tmp_path).run(GATED)
        """)
    result = run_subprocess(pytester, "-rs", "-p", "xdist", "-n", "1", "--junitxml=junit.xml")
    result.assert_outcomes(skipped=1)
    line = _def_line(source, "test_it")
    assert f"SKIPPED [1] test_skips.py:{line}: {TF_ACC}" in result.outlines
    junit = (pytester.path / "junit.xml").read_text(encoding="utf-8")
    assert "_pytest/unittest.py" not in junit
    assert f"test_skips.py:{line}: {TF_ACC}</skipped>" in junit
