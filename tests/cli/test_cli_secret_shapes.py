"""Every shape of secret, planted in a plan, is absent from everything ``tfplancheck`` prints.

The plan (shared with the plugin's leak suite) holds a multi-line key, a 700-character value,
quotes and control characters, non-ASCII text, a passphrase, a sensitive map's key and a
sensitive variable used as a ``for_each`` key (so it is part of an address). Every command that
shows values or addresses runs, in text and JSON: failing checks, ``--unknown``, ``query`` of the
listing, of a resource, of a path, of a missing address (closest suggestions).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from secret_shapes import KEY_SECRET, SHAPES, leaks, secret_shapes_plan

from plancheck.cli._command import run

CHECKS = "\n".join(
    f'[[check]]\ntype = "ExpectUnknownValue"\naddress = "null_resource.a"\npath = \'triggers["{name}"]\'\n'
    for name in SHAPES
) + '[[check]]\ntype = "ExpectUnknownValue"\naddress = "null_resource.a"\npath = "tags"\n'


@pytest.fixture
def plan_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plan.json").write_text(json.dumps(secret_shapes_plan()), "utf-8")
    (tmp_path / "checks.toml").write_text(CHECKS, "utf-8")
    # The same checks of warning severity: their failures are WARN lines and JSON warnings, as scrubbed.
    (tmp_path / "warning.toml").write_text(CHECKS.replace('[[check]]\n', '[[check]]\nseverity = "warning"\n'), "utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        pytest.param(["plan.json", "--checks", "checks.toml"], 1, id="failing-checks"),
        pytest.param(["plan.json", "--checks", "checks.toml", "--format", "json"], 1, id="failing-checks-json"),
        pytest.param(["plan.json", "--checks", "warning.toml"], 0, id="warning-checks"),
        pytest.param(["plan.json", "--checks", "warning.toml", "--format", "json"], 0, id="warning-checks-json"),
        pytest.param(["plan.json", "--checks", "warning.toml", "--fail-on", "warning", "--format", "json"], 1,
                     id="warning-checks-fail-on-warning-json"),
        pytest.param(["plan.json", "--unknown", "null_resource.a", "triggers"], 1, id="unknown-flag"),
        pytest.param(["query", "plan.json"], 0, id="query-listing"),
        pytest.param(["query", "plan.json", "--format", "json"], 0, id="query-listing-json"),
        pytest.param(["query", "plan.json", "null_resource.a"], 0, id="query-resource"),
        pytest.param(["query", "plan.json", "null_resource.a", "tags"], 0, id="query-map-key"),
        pytest.param(["query", "plan.json", "null_resource.a", "--format", "json"], 0, id="query-resource-json"),
        pytest.param(["query", "plan.json", "null_resource.fx"], 2, id="query-closest"),
        pytest.param(["query", "plan.json", "null_resource.fx", "--format", "json"], 2, id="query-closest-json"),
        pytest.param(["query", "plan.json", f'null_resource.fe["{KEY_SECRET}"]'], 0, id="query-secret-address"),
    ],
)
def test_no_shape_of_secret_is_printed(plan_dir: Path, argv: list[str], code: int) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run(argv, stdout=out, stderr=err, stdin=io.BytesIO(b""), environ={"PATH": ""}) == code
    text = out.getvalue() + err.getvalue()
    assert "Traceback" not in text
    assert leaks(text) == []
    assert "(sensitive)" in text or code == 2


def _raising_with_every_shape(self: object, plan: object) -> list[object]:
    raise RuntimeError("the check broke on " + " and ".join(SHAPES.values()))


@pytest.mark.parametrize("fmt", ["text", "json", "junit", "sarif", "github", "markdown"])
def test_a_check_that_raises_shows_no_secret_in_any_format_or_report(
    plan_dir: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    # An error outcome's text is no failure built by scrubbed_failure: each exit scrubs it (the stream, the text
    # report, each document's values, each --report file), as it scrubs every message, not the runner before them.
    monkeypatch.setattr("plancheck.ExpectUnknownValue.failures", _raising_with_every_shape)
    reports = [other for other in ("json", "junit", "sarif", "github", "markdown") if other != fmt]
    argv = ["plan.json", "--unknown", "null_resource.a", "tags", "--format", fmt,
            *(arg for other in reports for arg in ("--report", f"{other}=report.{other}"))]
    out, err = io.StringIO(), io.StringIO()
    assert run(argv, stdout=out, stderr=err, stdin=io.BytesIO(b""), environ={"PATH": ""}) == 2
    written = [(plan_dir / f"report.{other}").read_text("utf-8") for other in reports]
    for text in (out.getvalue() + err.getvalue(), *written):
        assert "Traceback" not in text
        assert "the check broke on" in text  # the error is reported, its secrets hidden
        assert "(sensitive)" in text
        assert leaks(text, SHAPES) == []
