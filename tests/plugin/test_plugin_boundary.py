"""Issue #33: the plugin's error boundary. Bad input given to any hook or fixture (a bad --tf-plan, a directory,
an unreadable file, bad ini values and markers, a check that raises, a sweeper that raises) ends as a failed or
errored test naming what was wrong, or a usage error: never INTERNALERROR, never "Interrupted: N errors during
collection" caused by the plugin's files."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest
from plugin_support import QUIET_PLUGINS, secret_plan, simple_plan, write_json

USES_PLAN = "def test_plan(tf_plan):\n    assert tf_plan is not None\n"
USES_STATE = "def test_state(tf_state):\n    assert tf_state is not None\n"

RAISING_CHECKS = textwrap.dedent(
    """
    import sys

    from plancheck import PlanCheck


    class Unprintable(Exception):
        def __str__(self):
            raise RuntimeError("no text for you")


    class Exits(PlanCheck):
        def failures(self, plan):
            sys.exit(3)


    class Buggy(PlanCheck):
        def failures(self, plan):
            return 1 / 0


    class Odd(PlanCheck):
        def failures(self, plan):
            raise Unprintable()


    def test_assert_plan(tf_plan, assert_plan):
        assert_plan(tf_plan, Exits(), Buggy(), Odd())


    def test_plan_checks(plan_checks):
        plan_checks.add(Buggy())
    """
)

MARKERS = textwrap.dedent(
    """
    import pytest


    @pytest.mark.tf_plan(42)
    def test_not_a_path(tf_plan):
        pass


    @pytest.mark.tf_plan("a.json", "b.json")
    def test_two_paths(tf_plan):
        pass


    @pytest.mark.tf_config("missing_module")
    def test_missing_config(tf_config):
        pass


    @pytest.mark.tf_config(42)
    def test_config_not_a_path(tf_config):
        pass
    """
)

#: Names no system call takes: pathlib's resolve() and os.stat raised a bare ValueError ("embedded null byte") or
#: UnicodeEncodeError from inside the fixture, where the loader refuses them as it refuses a missing file.
UNNAMEABLE_MARKERS = textwrap.dedent(
    """
    import pytest


    @pytest.mark.tf_plan("a\\0b.json")
    def test_plan_nul(tf_plan):
        pass


    @pytest.mark.tf_state("\\ud800.json")
    def test_state_surrogate(tf_state):
        pass
    """
)


NOT_JSON = (
    "not JSON at all (Terraform's text output, or a configuration?): get a plan's JSON from terraform show -json "
    "PLANFILE, a state's from terraform show -json"
)
#: (id, files (name: text or a document), ini lines, test module, args, outcomes or "usage", lines that must show).
CASES: list[tuple[str, dict[str, Any], str, str, tuple[str, ...], Any, list[str]]] = [
    ("missing-plan", {}, "", USES_PLAN, ("--tf-plan", "missing.json"), {"errors": 1},
     ["tf_plan (from --tf-plan): */missing.json: $: expected a readable plan file, found No such file or directory"]),
    ("plan-is-a-directory", {"plans/.keep": ""}, "", USES_PLAN, ("--tf-plan", "plans"), {"errors": 1},
     ["tf_plan (from --tf-plan): */plans: $: expected a readable plan file, found Is a directory"]),
    ("plan-is-binary-garbage", {"plan.json": "\x00\x01\x02 garbage"}, "", USES_PLAN, ("--tf-plan", "plan.json"),
     {"errors": 1}, ["tf_plan (from --tf-plan): */plan.json: $: expected JSON text in UTF-8 (or UTF-16/UTF-32), "
                     "found an invalid byte 0x65 at byte offset 10"]),
    ("plan-is-conflicted", {"plan.json": "<<<<<<< HEAD\n{}\n"}, "", USES_PLAN, ("--tf-plan", "plan.json"),
     {"errors": 1}, ["tf_plan (from --tf-plan): */plan.json: $: expected valid JSON, found invalid JSON: "
                     f"Expecting value at line 1 column 1 (character 0); {NOT_JSON}"]),
    # `terraform show tfplan > plan.json`, without -json: the loader's words say what it is, as the command line's do.
    ("plan-is-terraforms-text-output", {"plan.json": "\nTerraform will perform the following actions:\n"}, "",
     USES_PLAN, ("--tf-plan", "plan.json"), {"errors": 1},
     ["tf_plan (from --tf-plan): */plan.json: $: expected valid JSON, found invalid JSON: "
      f"Expecting value at line 2 column 1 (character 1); {NOT_JSON}"]),
    ("plan-is-a-json-list", {"plan.json": "[1, 2]"}, "", USES_PLAN, ("--tf-plan", "plan.json"), {"errors": 1},
     ["tf_plan (from --tf-plan): */plan.json: $: expected a JSON object (a terraform show -json plan), "
      "found an array of 2 elements"]),
    # terraform show -json without the plan file, where there is no state yet: every check of a gate passed on it.
    ("plan-is-an-empty-state", {"plan.json": '{"format_version": "1.0"}'}, "", USES_PLAN, ("--tf-plan", "plan.json"),
     {"errors": 1}, ["tf_plan (from --tf-plan): */plan.json: $: expected a plan (terraform show -json PLANFILE), "
                     "found a document of none of a plan's keys (no \"planned_values\", which every plan Terraform "
                     "and OpenTofu write holds): the JSON of `terraform show -json` with no plan file, where there is "
                     "no state yet; give --tf-plan a plan file (`terraform plan -out=tfplan`) or its JSON "
                     "(`terraform show -json tfplan`)"]),
    ("state-is-a-directory", {"states/.keep": ""}, "", USES_STATE, ("--tf-state", "states"), {"errors": 1},
     ["tf_state (from --tf-state): */states: $: expected a readable state file, found Is a directory"]),
    ("ini-plan-is-a-directory", {"plans/.keep": ""}, "tf_plan = plans", USES_PLAN, (), {"errors": 1},
     ["tf_plan (from ini option tf_plan): */plans: $: expected a readable plan file, found Is a directory"]),
    ("ini-show-sensitive-not-a-bool", {}, "tf_show_sensitive = maybe", USES_PLAN, (), "usage",
     ["ERROR: ini option tf_show_sensitive: invalid truth value 'maybe' (expected true or false)"]),
    ("ini-tf-acc-gate-not-a-bool", {}, "tf_acc_gate = perhaps", USES_PLAN, (), "usage",
     ["ERROR: ini option tf_acc_gate: invalid truth value 'perhaps' (expected true or false)"]),
    ("ini-allow-errored-not-a-bool", {"plan.json": simple_plan()}, "tf_allow_errored = sometimes", USES_PLAN,
     ("--tf-plan", "plan.json"), "usage",
     ["ERROR: ini option tf_allow_errored: invalid truth value 'sometimes' (expected true or false)"]),
    # tf_config(42) was a long traceback through the fixture's and the loader's source, ending in a TypeError
    # naming load_config_for_test, which the test never called.
    ("markers", {}, "", MARKERS, (), {"errors": 4},
     ["*@pytest.mark.tf_plan takes exactly one path (str or os.PathLike), got args=(42,) kwargs={}*",
      "*@pytest.mark.tf_plan takes exactly one path (str or os.PathLike), got args=('a.json', 'b.json') kwargs={}*",
      "*tf_config: *missing_module*",
      "@pytest.mark.tf_config takes one path and optional flavor= and strict=, got args=(42,) kwargs={}"]),
    ("markers-no-system-takes", {}, "", UNNAMEABLE_MARKERS, (), {"errors": 2},
     # The NUL was printed raw (rt22), a byte a terminal shows as nothing and a JUnit file may not hold.
     ["tf_plan (from @pytest.mark.tf_plan): */a\\x00b.json: $: expected a readable plan file, found a name the system "
      "cannot open (embedded null byte)",
      "tf_state (from @pytest.mark.tf_state): */\\ud800.json: $: expected a readable state file, found a name the "
      "system cannot open ('utf-8' codec can't encode character '\\ud800' in position *: surrogates not allowed)"]),
    ("marker-tf-config-strict-not-a-bool", {"main.tf.json": "{}"}, "",
     'import pytest\n\n\n@pytest.mark.tf_config("main.tf.json", strict="no")\ndef test_config(tf_config):\n    pass\n',
     (), {"errors": 1}, ["tf_config: load_config: strict must be a bool, got str"]),
    # A percentage that is not one (nan, inf, 101, -1) said "total of 100.00% is less than --tf-cov-fail-under=nan%"
    # and failed the session, or could never fail it.
    *((f"cov-fail-under-{name}", {}, "", USES_PLAN, ("--tf-cov", f"--tf-cov-fail-under={value}"), "usage",
       [f"*error: argument --tf-cov-fail-under: invalid percentage {value!r}: expected a number from 0 to 100"])
      for name, value in (("nan", "nan"), ("inf", "inf"), ("over-100", "101"), ("negative", "-1"))),
    ("checks-that-raise", {"plan.json": simple_plan()}, "", RAISING_CHECKS, ("--tf-plan", "plan.json"),
     {"failed": 2},
     ["*Exits: raised SystemExit: 3*", "*Buggy: raised ZeroDivisionError: division by zero*", "*Odd: raised Unprintable*",
      "*plan_checks (verified after test_plan_checks returned): *Buggy: raised ZeroDivisionError: division by zero*"]),
    ("conflicted-snapshot-of-the-old-name", {"__snapshots__/test_x/test_plan.tfplan.txt": "<<<<<<< HEAD\n=======\n>>>>>>> b\n",
                                             "plan.json": simple_plan()},
     "", USES_PLAN, ("--tf-plan", "plan.json"), {"passed": 1}, ["*1 passed*"]),
]


@pytest.mark.parametrize(("files", "ini", "module", "args", "outcome", "lines"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_bad_input_is_a_failed_test_or_a_usage_error(
    pytester: pytest.Pytester, files: dict[str, Any], ini: str, module: str, args: tuple[str, ...], outcome: Any,
    lines: list[str],
) -> None:
    for name, content in files.items():
        path = pytester.path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        else:
            write_json(path, content)
    if ini:
        pytester.makeini(f"[pytest]\n{ini}\n")
    pytester.makepyfile(test_x=module)
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS, "-p", "no:randomly", *args)
    output = "\n".join(result.outlines + result.errlines)
    assert "INTERNALERROR" not in output
    assert "during collection" not in output
    assert "Traceback (most recent call last)" not in output
    if outcome == "usage":
        assert result.ret == pytest.ExitCode.USAGE_ERROR, output
        result.stderr.fnmatch_lines(lines)
    else:
        result.assert_outcomes(**outcome)
        result.stdout.fnmatch_lines(lines, consecutive=False)


def test_a_failing_check_never_shows_a_secret_in_its_boundary_line(pytester: pytest.Pytester) -> None:
    write_json(pytester.path / "plan.json", secret_plan())
    pytester.makepyfile(test_x=textwrap.dedent(
        """
        from plancheck import PlanCheck


        class Leaky(PlanCheck):
            def failures(self, plan):
                raise ValueError("saw " + plan.raw["output_changes"]["pw"]["after"])


        def test_leak(tf_plan, assert_plan):
            assert_plan(tf_plan, Leaky())
        """
    ))
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS, "--tf-plan", "plan.json", "-vv", "-rA")
    result.assert_outcomes(failed=1)
    output = "\n".join(result.outlines + result.errlines)
    assert "Leaky: raised ValueError: saw (sensitive)" in output
    assert "s3cr3t-output-4d8b" not in output


def test_a_check_raising_keyboard_interrupt_fails_its_test_then_stops_the_session(pytester: pytest.Pytester) -> None:
    write_json(pytester.path / "plan.json", simple_plan())
    pytester.makepyfile(test_x=textwrap.dedent(
        """
        import pytest

        from plancheck import PlanCheck


        class Stop(PlanCheck):
            def failures(self, plan):
                raise KeyboardInterrupt


        @pytest.fixture
        def cleaned():
            yield
            open("cleaned.txt", "w").close()


        def test_first(tf_plan, assert_plan, cleaned):
            assert_plan(tf_plan, Stop())


        def test_never_runs():
            open("ran.txt", "w").close()
        """
    ))
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS, "-p", "no:randomly", "--tf-plan", "plan.json")
    output = "\n".join(result.outlines + result.errlines)
    assert "INTERNALERROR" not in output
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*Stop: raised KeyboardInterrupt (the session stops after this test)*",
        "*Interrupted: KeyboardInterrupt raised by the check Stop in test_x.py::test_first*",
    ], consecutive=False)
    assert (pytester.path / "cleaned.txt").exists()
    assert not (pytester.path / "ran.txt").exists()


WITHHELD_SHAPES = [
    pytest.param(("test_x.py", 3, "Skipped: no corpus"), ("test_x.py", 3, "plancheck: this report's text is withheld "
                 "because its secrets could not be scrubbed (TypeError); run with --tf-show-sensitive locally to see it"),
                 id="a-skip-keeps-pytest-s-tuple"),
    pytest.param("E  assert 1 == 2", "plancheck: this report's text is withheld because its secrets could not be scrubbed "
                 "(TypeError); run with --tf-show-sensitive locally to see it", id="a-failure-is-text"),
]


@pytest.mark.parametrize(("longrepr", "expected"), WITHHELD_SHAPES)
def test_a_withheld_report_keeps_the_shape_pytest_needs(longrepr: object, expected: object) -> None:
    from types import SimpleNamespace

    from plancheck._plugin.scrub import scrub_report_or_withhold

    def broken() -> Any:
        raise TypeError("resources is not a list")

    report = SimpleNamespace(longrepr=longrepr, sections=[("Captured stdout call", "x")])
    scrub_report_or_withhold(report, broken)
    assert report.longrepr == expected


@pytest.mark.parametrize("fixture", ["tf_plan", "tf_state"])
def test_a_bad_size_limit_in_the_environment_is_the_fixture_s_error(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, fixture: str,
) -> None:
    # It was an error at setup showing the fixture's source and a traceback through the cache, the plan-file
    # reader and max_input_bytes (tf_config, the CLI and the library already said the one line).
    monkeypatch.setenv("PLANCHECK_MAX_BYTES", "lots")
    write_json(pytester.path / "doc.json", simple_plan())
    pytester.makepyfile(test_x=f"def test_it({fixture}):\n    pass\n")
    option = "--tf-plan" if fixture == "tf_plan" else "--tf-state"
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS, "-p", "no:randomly", option, "doc.json")
    output = "\n".join(result.outlines + result.errlines)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([f"{fixture} (from {option}): PLANCHECK_MAX_BYTES must be a positive number of bytes, "
                                 "got 'lots'"])
    assert "_loading" not in output
    assert "def " not in output
