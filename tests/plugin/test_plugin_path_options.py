"""A path option written apart from its value (``--terraform /usr/bin/terraform``) that misled pytest is named.

pytest chooses its rootdir and configuration file before it knows a plugin's options, so it takes such a value
for a test path (pytest-dev/pytest#8846). first23's newcomer ran ``pytest --terraform /usr/local/bin/terraform``
as the docs wrote it: the session ran with rootdir /usr/local/bin, without the project's ``pyproject.toml``
(``tf_acc_gate = false`` unread: the acceptance test skipped), and nothing said why. A warning now says what pytest
did and what to write; the ``=`` form, or a project whose ini file pytest still found, gets none.
"""

from __future__ import annotations

from pathlib import Path

import pytest

TEST = """
def test_gate(pytestconfig):
    assert pytestconfig.getini("tf_acc_gate") is False
"""


@pytest.fixture
def outside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A file outside the project (a terraform binary's place, say), and a plan file there."""
    directory = tmp_path_factory.mktemp("elsewhere")
    (directory / "plan.json").write_text('{"format_version": "1.2"}', encoding="utf-8")
    (directory / "terraform").write_text("", encoding="utf-8")
    return directory


def _warning(option: str, value: Path, rootdir: str) -> str:
    return (f"plancheck: pytest read {option}'s path ({value}) as a test path when it chose its rootdir "
            f"({rootdir}) and configuration file (none): write {option}={value} (with '=', as pytest reads a "
            "plugin's option only later), or the setting in the configuration file")


@pytest.mark.parametrize(
    ("args", "warned"),
    [
        pytest.param(["--terraform", "{outside}/terraform"], "--terraform", id="terraform-apart-no-test-path"),
        pytest.param(["--tf-plan", "{outside}/plan.json"], "--tf-plan", id="tf-plan-apart-no-test-path"),
        pytest.param(["--terraform={outside}/terraform"], None, id="terraform-with-equals"),
        pytest.param(["--terraform", "{outside}/terraform", "tests"], None, id="ini-found-from-the-test-path"),
        pytest.param(["--tf-plan", "tests/plan.json"], None, id="tf-plan-inside-the-project"),
        pytest.param(["--terraform", "{outside}/missing"], None, id="no-such-path-pytest-ignores"),
    ],
)
def test_a_path_option_that_misled_pytest_is_named(
    pytester: pytest.Pytester, outside: Path, args: list[str], warned: str | None
) -> None:
    pytester.makepyprojecttoml("[tool.pytest.ini_options]\ntf_acc_gate = false\ntestpaths = ['tests']\n")
    (pytester.path / "tests").mkdir()
    (pytester.path / "tests" / "test_gate.py").write_text(TEST, encoding="utf-8")
    (pytester.path / "tests" / "plan.json").write_text('{"format_version": "1.2"}', encoding="utf-8")
    given = [arg.format(outside=outside) for arg in args]
    result = pytester.runpytest("-p", "no:cacheprovider", "-W", "always", *given)
    lines = [line.strip() for line in result.stdout.lines]
    messages = [line.split("PytestConfigWarning: ", 1)[1] for line in lines if "PytestConfigWarning: " in line]
    if warned is None:
        assert messages == []
        result.assert_outcomes(passed=1)
    else:
        value = outside / ("terraform" if warned == "--terraform" else "plan.json")
        # The rootdir is the one the header shows (pytester's --basetemp is a path pytest reads too).
        (rootdir,) = [line.removeprefix("rootdir: ").split(",")[0] for line in lines if line.startswith("rootdir: ")]
        assert Path(rootdir) != pytester.path
        assert messages == [_warning(warned, value, rootdir)]
        result.assert_outcomes(failed=1)  # the harm it names: the project's ini file was not read
