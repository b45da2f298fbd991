"""Every shape of secret, planted in a plan and a configuration, searched for in all pytest output.

A secret leaks when any piece of it that identifies it shows: a run of 8 characters of it (or of
its ``repr``/JSON escaping), or a whole line of a multi-line secret, or a word of a passphrase. The
inner sessions pull raw values out of the documents and assert on them, print them, log them and
keep them in locals, under every rendering pytest has: default (truncated), ``-vv``, ``--showlocals``,
native/short tracebacks, ``-rA``, JUnit XML and xdist workers, with and without ``CI`` (pytest does
not truncate under CI).
"""

from __future__ import annotations

import pytest
from plugin_support import QUIET_PLUGINS, junit_text, write_json
from secret_shapes import CONFIG_SECRET, SHAPES, leaks, secret_shapes_plan

INNER = '''
import logging
import pytest
from plancheck import ExpectUnknownValue, knownvalue as kv
from tfjsonpath import New

SHAPES = {shapes!r}
pytestmark = pytest.mark.tf_plan("plan.json")


@pytest.mark.parametrize("shape", SHAPES)
def test_plain_assert(tf_plan, shape):
    value = tf_plan.resource_change("null_resource.a").change.after["triggers"][shape]
    print("stdout:", value)
    logging.getLogger("inner").warning("log: %s", value)
    assert value == "x" + value[1:-1]


@pytest.mark.parametrize("shape", SHAPES)
def test_matcher(tf_plan, shape):
    value = tf_plan.resource_change("null_resource.a").change.after["triggers"][shape]
    assert value == kv.StringExact("nope")


def test_whole_after_dict(tf_plan):
    after = tf_plan.resource_change("null_resource.a").change.after
    assert after == {{"triggers": {{}}}}


def test_check_failure(tf_plan, assert_plan):
    assert_plan(tf_plan, *[ExpectUnknownValue("null_resource.a", New("triggers").AtMapKey(s)) for s in SHAPES],
                ExpectUnknownValue("null_resource.a", New("tags")))


def test_addresses_and_reprs(tf_plan):
    changes = list(tf_plan.resource_changes)
    variables = tf_plan.variables
    assert [repr(c) for c in changes] == []


def test_output(tf_plan):
    assert tf_plan.output_changes["pem"].change.after == "x"


def test_passing_prints_everything(tf_plan):
    print(tf_plan.resource_change("null_resource.a").change.after, tf_plan.variables)


@pytest.mark.tf_config("config")
def test_config_default(tf_config):
    default = tf_config.variable("pw").get("default")
    print("default:", default)
    assert default == "x"
'''


@pytest.fixture
def secret_shapes_project(pytester: pytest.Pytester) -> pytest.Pytester:
    write_json(pytester.path / "plan.json", secret_shapes_plan())
    write_json(
        pytester.path / "config" / "main.tf.json",
        {"variable": {"pw": {"type": "string", "sensitive": True, "default": CONFIG_SECRET}}},
    )
    pytester.makepyfile(test_inner=INNER.format(shapes=list(SHAPES)))
    return pytester


#: 6 shapes x 2 parametrized tests + 6 others; one passes.
FAILED = 2 * len(SHAPES) + 5


@pytest.mark.parametrize(
    ("args", "ci"),
    [
        pytest.param([], None, id="default-truncated"),
        pytest.param(["-vv", "-l", "--tb=long"], None, id="vv-long-showlocals"),
        pytest.param(["--tb=native", "-l", "-rA"], None, id="native-showlocals-rA"),
        pytest.param(["--tb=short", "-rA"], "true", id="short-rA-under-CI"),
        pytest.param(["--tb=line"], None, id="line"),
    ],
)
def test_no_shape_of_secret_reaches_the_terminal_or_junit(
    secret_shapes_project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, args: list[str], ci: str | None
) -> None:
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    junit = secret_shapes_project.path / "junit.xml"
    result = secret_shapes_project.runpytest(*QUIET_PLUGINS, f"--junitxml={junit}", *args)
    result.assert_outcomes(passed=1, failed=FAILED)
    output = result.stdout.str() + result.stderr.str()
    assert leaks(output) == []
    assert leaks(junit_text(junit)) == []
    assert output.count("(sensitive)") >= len(SHAPES)


def test_no_shape_of_secret_leaves_an_xdist_worker(secret_shapes_project: pytest.Pytester) -> None:
    junit = secret_shapes_project.path / "junit.xml"
    result = secret_shapes_project.runpytest_subprocess(
        *QUIET_PLUGINS, "-n", "2", "-vv", "-l", "-rA", f"--junitxml={junit}"
    )
    result.assert_outcomes(passed=1, failed=FAILED)
    assert leaks(result.stdout.str() + result.stderr.str()) == []
    assert leaks(junit_text(junit)) == []


OTHER_TEXTS = """
import warnings
import pytest

pytestmark = pytest.mark.tf_plan("plan.json")


def _secret(tf_plan):
    return tf_plan.resource_change("null_resource.a").change.after["triggers"]["plain"]


def test_skip_reason(tf_plan):
    pytest.skip(f"skipping because {_secret(tf_plan)}")


def test_xfail_reason(tf_plan):
    pytest.xfail(f"xfail because {_secret(tf_plan)}")


def test_recorded_property(tf_plan, record_property):
    record_property("pw", _secret(tf_plan))


def test_warning(tf_plan):
    warnings.warn(f"careful {_secret(tf_plan)}", UserWarning)


def test_subtest(tf_plan, subtests):
    with subtests.test(msg=_secret(tf_plan)):
        assert False
"""


def test_skip_xfail_properties_warnings_and_subtests_are_scrubbed(
    secret_shapes_project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    secret_shapes_project.makepyfile(test_other=OTHER_TEXTS)
    junit = secret_shapes_project.path / "junit-other.xml"
    result = secret_shapes_project.runpytest(*QUIET_PLUGINS, "test_other.py", "-rA", "-vv", f"--junitxml={junit}")
    output = result.stdout.str() + result.stderr.str()
    assert "skipping because (sensitive)" in output
    assert "careful (sensitive)" in output
    assert leaks(output) == []
    assert leaks(junit_text(junit)) == []
