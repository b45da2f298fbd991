"""The plugin's fixtures, markers and options, exercised through real pytest sessions (pytester)."""

from __future__ import annotations

import textwrap
from importlib import metadata
from pathlib import Path

import pytest
from plugin_support import run, run_subprocess, simple_plan, write_json

ADDRESS_TEST = textwrap.dedent(
    """
    import pytest

    {decorator}
    def test_address(tf_plan):
        assert list(tf_plan.addresses()) == [{expected!r}]
    """
)


def _project(pytester: pytest.Pytester, *, ini: str | None) -> Path:
    """proj/ (with the ini file), proj/tests/ (the test), plans everywhere a source could point to."""
    proj = pytester.path / "proj"
    write_json(proj / "tests" / "marker.json", simple_plan("null_resource.from_marker"))
    write_json(pytester.path / "plans" / "cli.json", simple_plan("null_resource.from_cli"))
    write_json(proj / "plans" / "ini.json", simple_plan("null_resource.from_ini"))
    write_json(proj / "plans" / "absolute.json", simple_plan("null_resource.from_absolute"))
    (proj / "pytest.ini").write_text("[pytest]\n" + (f"tf_plan = {ini}\n" if ini else ""), encoding="utf-8")
    return proj


@pytest.mark.parametrize(
    ("decorator", "cli", "ini", "expected"),
    [
        pytest.param('@pytest.mark.tf_plan("marker.json")', None, None, "null_resource.from_marker", id="marker"),
        pytest.param("", "plans/cli.json", None, "null_resource.from_cli", id="cli-relative-to-invocation-dir"),
        pytest.param("", None, "plans/ini.json", "null_resource.from_ini", id="ini-relative-to-ini-file"),
        pytest.param(
            '@pytest.mark.tf_plan("marker.json")', "plans/cli.json", "plans/ini.json",
            "null_resource.from_marker", id="marker-beats-cli-and-ini",
        ),
        pytest.param("", "plans/cli.json", "plans/ini.json", "null_resource.from_cli", id="cli-beats-ini"),
        pytest.param(
            '@pytest.mark.tf_plan(__import__("pathlib").Path(__file__).parent.parent / "plans" / "absolute.json")',
            None, None, "null_resource.from_absolute", id="marker-absolute-pathlike",
        ),
        pytest.param(
            'pytestmark = pytest.mark.tf_plan("marker.json")\n', None, None, "null_resource.from_marker",
            id="module-pytestmark",
        ),
    ],
)
def test_plan_path_resolution(
    pytester: pytest.Pytester, decorator: str, cli: str | None, ini: str | None, expected: str
) -> None:
    proj = _project(pytester, ini=ini)
    (proj / "tests" / "test_where.py").write_text(
        ADDRESS_TEST.format(decorator=decorator, expected=expected), encoding="utf-8"
    )
    args = ["proj", "--strict-markers"] + (["--tf-plan", cli] if cli else [])
    result = run(pytester, *args)
    result.assert_outcomes(passed=1)


def test_class_marker_applies_to_its_methods(pytester: pytest.Pytester) -> None:
    write_json(pytester.path / "plan.json", simple_plan("null_resource.on_class"))
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.tf_plan("plan.json")
        class TestPlan:
            def test_one(self, tf_plan):
                assert tf_plan.has_resource_change("null_resource.on_class")

            @pytest.mark.tf_plan("other.json")
            def test_closest_marker_wins(self, tf_plan):
                assert tf_plan.has_resource_change("null_resource.other")
        """
    )
    write_json(pytester.path / "other.json", simple_plan("null_resource.other"))
    run(pytester, "--strict-markers").assert_outcomes(passed=2)


@pytest.mark.parametrize(
    ("files", "test_body", "expected_line"),
    [
        pytest.param(
            {"bad.json": '{"format_version": "1.2", "resource_changes": [{"address": "a.b", "change": 7}]}'},
            '@pytest.mark.tf_plan("bad.json")',
            "tf_plan (from @pytest.mark.tf_plan): */bad.json: $.resource_changes[[]0[]].change: expected *",
            id="malformed-structure",
        ),
        pytest.param(
            {"broken.json": '{"format_version": '},
            '@pytest.mark.tf_plan("broken.json")',
            "tf_plan (from @pytest.mark.tf_plan): */broken.json: $: expected valid JSON, found *line 1 column 20*",
            id="not-json",
        ),
        pytest.param(
            {},
            '@pytest.mark.tf_plan("missing.json")',
            "tf_plan (from @pytest.mark.tf_plan): */missing.json: $: expected a readable plan file, "
            "found No such file or directory",
            id="missing-file",
        ),
        pytest.param(
            {},
            "",
            'tf_plan: no plan file for this test: use @pytest.mark.tf_plan("plan.json") (relative to the test '
            "file), --tf-plan PATH or the tf_plan ini key",
            id="no-plan-configured",
        ),
        pytest.param(
            {},
            '@pytest.mark.tf_plan("a.json", "b.json")',
            "@pytest.mark.tf_plan takes exactly one path (str or os.PathLike), got args=('a.json', 'b.json') "
            "kwargs={}",
            id="marker-with-two-paths",
        ),
    ],
)
def test_bad_plan_is_a_test_error_not_a_crash(
    pytester: pytest.Pytester, files: dict[str, str], test_body: str, expected_line: str
) -> None:
    for name, text in files.items():
        (pytester.path / name).write_text(text, encoding="utf-8")
    pytester.makepyfile(
        f"""
        import pytest

        {test_body}
        def test_uses_plan(tf_plan):
            pass

        def test_unaffected():
            pass
        """
    )
    result = run(pytester)
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*ERROR at setup of test_uses_plan*", expected_line])
    # The message is the whole report: no traceback, no chained exception.
    assert "During handling" not in result.stdout.str()
    assert "Traceback" not in result.stdout.str()


def test_plan_is_loaded_once_per_session_and_again_when_the_file_changes(pytester: pytest.Pytester) -> None:
    write_json(pytester.path / "plan.json", simple_plan("null_resource.first"))
    for name in ("test_one.py", "test_two.py"):
        (pytester.path / name).write_text(
            textwrap.dedent(
                """
                import pytest

                pytestmark = pytest.mark.tf_plan("plan.json")

                def test_a(tf_plan):
                    assert tf_plan.has_resource_change("null_resource.first")

                def test_b(tf_plan):
                    assert tf_plan.has_resource_change("null_resource.first")
                """
            ),
            encoding="utf-8",
        )
    (pytester.path / "test_three.py").write_text(
        textwrap.dedent(
            """
            import json, os
            import pytest

            def test_loaded_once(_plancheck_documents):
                assert _plancheck_documents.plans.loads == 1

            @pytest.mark.tf_plan("plan.json")
            def test_same_object_each_time(tf_plan, request):
                assert request.getfixturevalue("tf_plan") is tf_plan

            def test_rewrite(request):
                path = request.path.parent / "plan.json"
                doc = json.loads(path.read_text())
                doc["resource_changes"][0]["address"] = "null_resource.second"
                path.write_text(json.dumps(doc))
                st = os.stat(path)
                os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))

            @pytest.mark.tf_plan("plan.json")
            def test_reloaded(tf_plan, _plancheck_documents):
                assert tf_plan.has_resource_change("null_resource.second")
                assert _plancheck_documents.plans.loads == 2
            """
        ),
        encoding="utf-8",
    )
    result = run(pytester, "test_one.py", "test_two.py", "test_three.py")
    result.assert_outcomes(passed=8)


def test_import_mode_importlib_with_same_named_test_files(pytester: pytest.Pytester) -> None:
    for sub in ("alpha", "beta"):
        write_json(pytester.path / sub / "plan.json", simple_plan(f"null_resource.{sub}"))
        (pytester.path / sub / "test_same.py").write_text(
            ADDRESS_TEST.format(decorator='@pytest.mark.tf_plan("plan.json")', expected=f"null_resource.{sub}"),
            encoding="utf-8",
        )
    result = run_subprocess(pytester, "--import-mode=importlib")
    result.assert_outcomes(passed=2)


def test_disabled_with_p_no_plancheck(pytester: pytest.Pytester) -> None:
    write_json(pytester.path / "plan.json", simple_plan())
    pytester.makepyfile(
        """
        def test_uses_plan(tf_plan):
            pass
        """
    )
    result = run(pytester, "-p", "no:plancheck")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*fixture 'tf_plan' not found*"])
    result.stdout.no_fnmatch_line("plancheck: *")


def test_options_and_markers_are_documented(pytester: pytest.Pytester) -> None:
    help_text = run(pytester, "--help").stdout.str()
    for option in ("--tf-plan=PATH", "--tf-state=PATH", "--tf-show-sensitive", "--terraform=PATH"):
        assert option in help_text
    for ini in ("tf_plan (string)", "tf_state (string)", "tf_show_sensitive (bool)", "tf_terraform (string)"):
        assert ini in help_text
    markers = run(pytester, "--markers").stdout.str()
    for marker in ("@pytest.mark.tf_plan(path)", "@pytest.mark.tf_state(path)", "@pytest.mark.tf_config(path, flavor=None, strict=False)"):
        assert marker in markers


def test_report_header_names_the_version(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_nothing():\n    pass\n")
    result = run(pytester)
    result.stdout.fnmatch_lines([f"plancheck: {metadata.version('tfplancheck')}"])


@pytest.mark.parametrize(
    ("ci", "args", "ini", "warned", "header_says_shown"),
    [
        pytest.param("true", ["--tf-show-sensitive"], "", True, False, id="cli-flag-refused-in-ci"),
        pytest.param("1", [], "tf_show_sensitive = true\n", True, False, id="ini-key-refused-in-ci"),
        pytest.param(None, ["--tf-show-sensitive"], "", False, True, id="cli-flag-honoured-locally"),
        pytest.param(None, [], "tf_show_sensitive = true\n", False, True, id="ini-key-honoured-locally"),
        pytest.param("false", ["--tf-show-sensitive"], "", False, True, id="ci-false-is-not-ci"),
        pytest.param("true", [], "", False, False, id="not-asked"),
    ],
)
def test_show_sensitive_is_refused_under_ci(
    pytester: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
    ci: str | None,
    args: list[str],
    ini: str,
    warned: bool,
    header_says_shown: bool,
) -> None:
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    pytester.makeini("[pytest]\n" + ini)
    pytester.makepyfile("def test_nothing():\n    pass\n")
    result = run(pytester, *args)
    result.assert_outcomes(passed=1)
    warning = (
        "*PytestConfigWarning: plancheck: --tf-show-sensitive is ignored because the CI environment "
        "variable is set; sensitive values stay redacted"
    )
    shown = "plancheck: * (--tf-show-sensitive: sensitive values are SHOWN in failures)"
    refused = "plancheck: * (--tf-show-sensitive ignored: CI is set)"
    if warned:
        result.stdout.fnmatch_lines([refused, warning])
    else:
        result.stdout.no_fnmatch_line(warning)
        result.stdout.no_fnmatch_line(refused)
    if header_says_shown:
        result.stdout.fnmatch_lines([shown])
    else:
        result.stdout.no_fnmatch_line(shown)
