"""The tf_config and tf_acceptance fixtures and the --terraform option, through real pytest sessions."""

from __future__ import annotations

import pytest
from plugin_support import run

CONFIG_FILES = {
    "cfg/main.tf.json": '{"locals": {"a": 1}, "resource": {"terraform_data": {"web": {"input": "x"}}}}',
    "tests/single.tf.json": '{"locals": {"b": 2}}',
    "bad.tf.json": '{"locals": [1',
    # OpenTofu's: main.tofu.json hides main.tf.json (configs/parser_config_dir.go); Terraform reads main.tf.json alone.
    "tofu/main.tf.json": '{"locals": {"read": "tf"}}',
    "tofu/main.tofu.json": '{"locals": {"read": "tofu"}}',
}


@pytest.mark.parametrize(
    ("decorator", "body", "outcome", "expected_line"),
    [
        pytest.param(
            '@pytest.mark.tf_config("../cfg")', "assert tf_config.locals == {'a': 1}", "passed", None,
            id="module-directory-relative-to-test-file",
        ),
        pytest.param(
            '@pytest.mark.tf_config("single.tf.json")', "assert tf_config.locals == {'b': 2}", "passed", None,
            id="single-file",
        ),
        pytest.param(
            '@pytest.mark.tf_config("../bad.tf.json")', "pass", "errors",
            "tf_config: */bad.tf.json:1:14: $.locals[[]0[]]: expected ',' or ']' after an array element, "
            "found the end of the file",
            id="malformed-file-names-line-and-location",
        ),
        pytest.param(
            '@pytest.mark.tf_config("../tofu")', "assert tf_config.locals == {'read': 'tofu'}", "passed", None,
            id="a-directory-holding-tofu-files-is-opentofus",
        ),
        pytest.param(
            '@pytest.mark.tf_config("../tofu", flavor="terraform")', "assert tf_config.locals == {'read': 'tf'}",
            "passed", None, id="a-flavor-given-is-read-by",
        ),
        pytest.param(
            '@pytest.mark.tf_config("../tofu/main.tofu.json")', "assert tf_config.locals == {'read': 'tofu'}",
            "passed", None, id="a-tofu-json-file",
        ),
        pytest.param(
            '@pytest.mark.tf_config("nope")', "pass", "errors",
            "tf_config: no configuration file or directory at */tests/nope",
            id="missing",
        ),
        pytest.param(
            "", "pass", "errors",
            'tf_config: no configuration for this test: use @pytest.mark.tf_config("main.tf.json") '
            "(a file or a module directory, relative to the test file)",
            id="no-marker",
        ),
        pytest.param(
            '@pytest.mark.tf_config("../cfg", colour="red")', "pass", "errors",
            "@pytest.mark.tf_config takes one path and optional flavor= and strict=, "
            "got args=('../cfg',) kwargs={'colour': 'red'}",
            id="unknown-marker-keyword",
        ),
    ],
)
def test_tf_config(
    pytester: pytest.Pytester, decorator: str, body: str, outcome: str, expected_line: str | None
) -> None:
    for name, text in CONFIG_FILES.items():
        (pytester.path / name).parent.mkdir(parents=True, exist_ok=True)
        (pytester.path / name).write_text(text, encoding="utf-8")
    (pytester.path / "tests" / "test_config.py").write_text(
        f"import pytest\n\n{decorator}\ndef test_config(tf_config):\n    {body}\n", encoding="utf-8"
    )
    result = run(pytester, "--strict-markers", "tests")
    result.assert_outcomes(**{outcome: 1})
    if expected_line is not None:
        result.stdout.fnmatch_lines(["*ERROR at setup of test_config*", expected_line], consecutive=True)


def test_tf_acceptance_gives_a_runner_in_tmp_path(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        def test_runner(tf_acceptance, tmp_path):
            assert tf_acceptance.work_dir == tmp_path / "tf"
        """
    )
    result = run(pytester)
    # Without any terraform the fixture skips (that is the acceptance module's rule, not ours).
    outcomes = result.parseoutcomes()
    assert outcomes.get("passed", 0) + outcomes.get("skipped", 0) == 1


@pytest.mark.parametrize(
    ("args", "ini", "expected"),
    [
        pytest.param(
            ["--terraform", "/nonexistent/terraform"], "", "/nonexistent/terraform: no such file (from --terraform)",
            id="cli",
        ),
        pytest.param([], "tf_terraform = bin/terraform\n", "*/bin/terraform: no such file (from --terraform)", id="ini"),
        pytest.param(
            ["--terraform", "/nonexistent/terraform"], "tf_terraform = bin/terraform\n",
            "/nonexistent/terraform: no such file (from --terraform)", id="cli-beats-ini",
        ),
    ],
)
def test_terraform_option_reaches_the_acceptance_runner(
    pytester: pytest.Pytester, args: list[str], ini: str, expected: str
) -> None:
    pytester.makeini("[pytest]\n" + ini)
    pytester.makepyfile("def test_runner(tf_acceptance):\n    pass\n")
    result = run(pytester, *args)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([f"plancheck: acceptance tests: cannot use Terraform binary {expected}"])
    result.stdout.fnmatch_lines(["tf_acceptance: cannot use Terraform binary *"])
