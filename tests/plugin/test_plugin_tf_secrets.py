"""A secret the test has of its own (a vault's token, a ``plancheck.Secrets`` it built) is a source of the plugin's
scrub once given to the ``tf_secrets`` fixture: ``(sensitive)`` in that test's failure, ``-vv`` diff, ``--showlocals``,
captured output, JUnit test case and xdist report, and readable again in the tests after it."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from plugin_support import QUIET_PLUGINS
from secret_shapes import leaks

TOKEN = "zz-vault-token-7d1e"
BUILT = "zz-built-secret-3a9f"

INNER = '''
from plancheck import Secrets


def test_fails_on_its_own_secrets(tf_secrets, record_property):
    # Built from parts: no source line the traceback quotes holds them whole.
    token, built = "zz-vault-" + "token-7d1e", "zz-built-" + "secret-3a9f"
    tf_secrets.add(token, Secrets([built]))
    print("printed", token)
    record_property("seen", built)
    assert {"token": token, "built": built, "n": 1} == {"token": "x", "built": "y", "n": 1}


def test_after_it_is_not_scrubbed_of_them():
    print("later: zz-vault-" + "token-7d1e")
'''


#: Each test runs in one process and under xdist, whose workers send their reports to the controller.
XDIST = pytest.mark.parametrize(
    "xdist", [pytest.param([], id="no-xdist"), pytest.param(["-p", "xdist", "-n", "2"], id="xdist-two-workers")]
)


def _run_showing_everything(
    pytester: pytest.Pytester, source: str, xdist: list[str]
) -> tuple[pytest.RunResult, Path]:
    """Run ``source`` as a test file with every rendering a secret could reach: -rA, -vv, --showlocals, long
    tracebacks and a JUnit file with the captured output; the result and the JUnit file."""
    pytester.makepyfile(test_inner=source)
    junit = pytester.path / "junit.xml"
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS, "-rA", "-vv", "--showlocals", "--tb=long",
                                           f"--junitxml={junit}", "-o", "junit_logging=all", *xdist)
    return result, junit


@XDIST
def test_a_secret_given_to_tf_secrets_is_scrubbed_from_its_tests_reports(pytester: pytest.Pytester, xdist: list[str]) -> None:
    result, junit = _run_showing_everything(pytester, INNER, xdist)
    result.assert_outcomes(failed=1, passed=1)
    output = result.stdout.str() + result.stderr.str()
    case = ET.parse(junit).getroot().find(".//testcase[@name='test_fails_on_its_own_secrets']")
    assert case is not None
    failed = ET.tostring(case, encoding="unicode")
    # Its own reports: every rendering of both secrets is (sensitive), in the terminal and in JUnit.
    assert leaks(output.replace(f"later: {TOKEN}", "") + failed, {"token": TOKEN, "built": BUILT}) == []
    assert "printed (sensitive)" in output
    assert re.search(r"^token +=  *'\(sensitive\)'$", output, re.M)  # --showlocals
    assert "printed (sensitive)" in failed
    # Scoped to its test: the next test's output still shows the word.
    assert f"later: {TOKEN}" in output


def test_tf_secrets_refuses_what_is_no_secret(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_inner="def test_bytes(tf_secrets):\n    tf_secrets.add(b'pw')\n")
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*plancheck.ArgumentError: tf_secrets.add: each secret must be a str or a "
                                 "plancheck.Secrets, got bytes (argument 1)"])


CONFIG_SECRET = "zz-config-default-5c2b"

LOADS_CONFIG = '''
import json
from plancheck.tfconfig import load_config


def test_reads_its_own_module(tmp_path):
    default = "zz-config-" + "default-5c2b"
    (tmp_path / "main.tf.json").write_text(json.dumps({"variable": {"pw": {"sensitive": True, "default": default}}}))
    config = load_config(tmp_path)
    print("printed", config.variable("pw").get("default"))
    assert config.variable("pw").get("default") == "other"
'''


@XDIST
def test_a_configuration_a_test_loads_itself_is_a_source_of_its_scrub(pytester: pytest.Pytester, xdist: list[str]) -> None:
    # A plan or state the test loads itself is met by the plugin as it is made; a tfconfig.Config is too, so a
    # sensitive variable's default it shows (a local, a print, an assertion's values) is (sensitive).
    result, junit = _run_showing_everything(pytester, LOADS_CONFIG, xdist)
    result.assert_outcomes(failed=1)
    output = result.stdout.str() + result.stderr.str() + junit.read_text(encoding="utf-8")
    assert leaks(output, {"default": CONFIG_SECRET}) == []
    assert "printed (sensitive)" in output


DEFINED = "zz-defined-secret-8b4c"

DEFINITION = '''
from plancheck.acceptance import Sensitive, TestCase, TestStep


def test_a_case_names_its_steps_secret():
    # Built from parts: no source line the traceback quotes holds it whole. No runner has told the plugin of it.
    secret = "zz-defined-" + "secret-8b4c"
    TestCase(steps=[TestStep(config="", variables={"pw": Sensitive(secret)})], providers={secret + " x": object})
'''


@XDIST
def test_a_definition_error_tells_the_plugin_of_the_secrets_it_was_scrubbed_of(
    pytester: pytest.Pytester, xdist: list[str]
) -> None:
    # The error is scrubbed of its steps' Sensitive values; the test's locals hold the secret in clear, and the
    # plugin, told of it by the error, scrubs them too (a runner tells it only when it runs the case).
    result, junit = _run_showing_everything(pytester, DEFINITION, xdist)
    result.assert_outcomes(failed=1)
    output = result.stdout.str() + result.stderr.str()
    assert leaks(output + junit.read_text(encoding="utf-8"), {"secret": DEFINED}) == []
    assert re.search(r"^secret +=  *'\(sensitive\)'$", output, re.M)  # --showlocals
    assert "'(sensitive) x' is not a provider address" in output
