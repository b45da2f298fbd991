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

    from plancheck._terraform.binary import TerraformBinary
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


SUMMARY = (
    "plancheck: 2 acceptance tests were skipped because TF_ACC is not set (Go's rule); run them with TF_ACC=1 "
    "pytest ..., or turn the gate off with --no-tf-acc-gate or tf_acc_gate = false"
)
TWO_GATED = """
    import pytest


    @pytest.mark.parametrize("n", [1, 2])
    def test_gated(tmp_path, n):
        AcceptanceRunner(BINARY, tmp_path).run(GATED)


    def test_plain():
        pass
    """


@pytest.mark.parametrize("xdist", [pytest.param([], id="one-process"), pytest.param(["-n", "2"], id="xdist")])
def test_no_silent_skips_a_summary_line_says_how_many_and_how_to_run_them(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, xdist: list[str]
) -> None:
    monkeypatch.delenv("TF_ACC", raising=False)
    _write(pytester, TWO_GATED)
    result = run_subprocess(pytester, *xdist)
    result.assert_outcomes(passed=1, skipped=2)
    assert result.stdout.str().count(SUMMARY) == 1


@pytest.mark.parametrize(
    ("env", "args"),
    [pytest.param({"TF_ACC": "1"}, [], id="tf-acc-set"), pytest.param({}, ["-k", "plain"], id="none-skipped")],
)
def test_no_summary_line_when_nothing_was_skipped_for_it(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, env: dict[str, str], args: list[str]
) -> None:
    monkeypatch.delenv("TF_ACC", raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    _write(pytester, TWO_GATED.replace("AcceptanceRunner(BINARY, tmp_path).run(GATED)", "pass"))
    result = run(pytester, *args)
    assert "skipped because TF_ACC is not set" not in result.stdout.str()
