"""The plugin's helpers, tested directly (no inner pytest session): cache, report scrubbing, assertrepr."""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from plancheck import PlanFormatError, Secrets
from plancheck import knownvalue as kv
from plancheck._plugin.assertrepr import explain_comparison
from plancheck._plugin.cache import DocumentCache, SessionDocuments
from plancheck._plugin.collectors import AssertPlan, PlanChecks
from plancheck._plugin.scrub import scrub_report

SECRET = "hunter2-top-secret"


def _json_loader(calls: list[Path]) -> Any:
    def load(path: Path) -> Any:
        calls.append(path)
        try:
            return json.loads(path.read_text())
        except OSError as exc:
            raise PlanFormatError("$", "a readable plan file", found=str(exc.strerror), source=str(path)) from None
        except ValueError:
            raise PlanFormatError("$", "valid JSON", found="a syntax error", source=str(path)) from None

    return load


@pytest.mark.parametrize(
    ("new_text", "mtime_step_ns", "loads_after"),
    [
        pytest.param(None, 0, 1, id="unchanged-file-loaded-once"),
        pytest.param('{"v": 2}', 1_000_000_000, 2, id="rewritten-file-loaded-again"),
        pytest.param('{"v": 1} ', 0, 2, id="size-change-alone-reloads"),
        pytest.param('{"v": 3}', 1_000_000_000, 2, id="same-size-new-mtime-reloads"),
    ],
)
def test_cache_keys_on_path_mtime_and_size(
    tmp_path: Path, new_text: str | None, mtime_step_ns: int, loads_after: int
) -> None:
    path = tmp_path / "doc.json"
    path.write_text('{"v": 1}')
    calls: list[Path] = []
    cache: DocumentCache[Any] = DocumentCache(_json_loader(calls))
    first = cache.get("plan", path)
    if new_text is not None:
        st = path.stat()
        path.write_text(new_text)
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + mtime_step_ns))
    second = cache.get("plan", path)
    assert cache.loads == loads_after
    assert len(calls) == loads_after
    assert (first is second) == (loads_after == 1)


def test_cache_remembers_a_malformed_file_and_raises_a_fresh_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{")
    calls: list[Path] = []
    cache: DocumentCache[Any] = DocumentCache(_json_loader(calls))
    errors = []
    for _ in range(3):
        with pytest.raises(PlanFormatError) as info:
            cache.get("plan", path)
        errors.append(info.value)
    assert len(calls) == 1
    assert str(errors[0]) == f"{path}: $: expected valid JSON, found a syntax error"
    # Re-raising never grows the traceback of the stored error.
    assert len(list(info.traceback)) == len(list(pytest.ExceptionInfo.from_exception(errors[0]).traceback))
    assert cache.documents() == []


def test_cache_does_not_remember_a_missing_file(tmp_path: Path) -> None:
    calls: list[Path] = []
    cache: DocumentCache[Any] = DocumentCache(_json_loader(calls))
    for _ in range(2):
        with pytest.raises(PlanFormatError, match="expected a readable plan file"):
            cache.get("plan", tmp_path / "missing.json")
    assert len(calls) == 2
    assert len(cache) == 0


def test_session_documents_collect_the_secrets_of_loaded_plans(tmp_path: Path) -> None:
    plan = {
        "format_version": "1.2",
        "output_changes": {"pw": {"actions": ["create"], "after": SECRET, "after_sensitive": True}},
    }
    (tmp_path / "plan.json").write_text(json.dumps(plan))
    docs = SessionDocuments()
    assert len(docs.secrets()) == 0
    docs.plans.get("tf_plan", tmp_path / "plan.json")
    assert SECRET in docs.secrets()
    assert SECRET not in repr(docs)


def _failure_repr(message: str) -> Any:
    try:
        raise AssertionError(message)
    except AssertionError:
        info = pytest.ExceptionInfo.from_current()
    return info.getrepr(style="long", showlocals=True)


@pytest.mark.parametrize(
    ("longrepr", "sections", "changed", "expected_longrepr"),
    [
        pytest.param(None, [], False, None, id="nothing-to-scrub"),
        pytest.param(("file.py", 3, "Skipped: why"), [], False, ("file.py", 3, "Skipped: why"), id="skip-tuple-kept"),
        pytest.param(f"E   assert '{SECRET}' == 'x'", [], True, "E   assert '(sensitive)' == 'x'", id="string-repr"),
        pytest.param(
            None, [("Captured stdout call", f"pw={SECRET}\n")], True, None, id="captured-output-of-a-passing-test"
        ),
        pytest.param("E   assert 1 == 2", [("Captured log call", "nothing")], False, "E   assert 1 == 2", id="clean"),
    ],
)
def test_scrub_report(
    longrepr: Any, sections: list[tuple[str, str]], changed: bool, expected_longrepr: Any
) -> None:
    report = SimpleNamespace(longrepr=longrepr, sections=list(sections))
    assert scrub_report(report, Secrets([SECRET])) is changed
    assert report.longrepr == expected_longrepr
    assert SECRET not in "".join(content for _, content in report.sections)


def test_scrub_report_keeps_pytests_structured_repr() -> None:
    longrepr = _failure_repr(f"value was {SECRET}")
    report = SimpleNamespace(longrepr=longrepr, sections=[])
    assert scrub_report(report, Secrets([SECRET]))
    # Still the structured repr (layout, colours, one-line summary), now without the secret.
    assert report.longrepr is longrepr
    assert SECRET not in str(longrepr)
    assert longrepr.reprcrash is not None
    assert longrepr.reprcrash.message == "AssertionError: value was (sensitive)"


def test_scrub_report_without_secrets_touches_nothing() -> None:
    longrepr = _failure_repr("plain")
    report = SimpleNamespace(longrepr=longrepr, sections=[("s", "x")])
    assert not scrub_report(report, Secrets())
    assert report.longrepr is longrepr


@pytest.mark.parametrize(
    ("left", "right", "expected"),
    [
        pytest.param(
            "b", kv.StringExact("a"),
            ["value does not match StringExact('a')", 'expected value "a" for StringExact check, got: "b"'],
            id="value-left",
        ),
        pytest.param(
            kv.ListExact([kv.Int64Exact(1)]), [2],
            ["value does not match ListExact([Int64Exact(1)])", "[0]: expected value 1 for Int64Exact check, got: 2"],
            id="check-left",
        ),
        pytest.param("a", kv.StringExact("a"), None, id="matching-value"),
        pytest.param(1, 2, None, id="foreign-types"),
        pytest.param(kv.StringExact("a"), kv.StringExact("b"), None, id="two-checks"),
    ],
)
def test_explain_comparison(left: object, right: object, expected: list[str] | None) -> None:
    assert explain_comparison(kv, left, right) == expected


def test_explain_comparison_hides_a_secret_value() -> None:
    lines = explain_comparison(kv, SECRET, kv.StringExact("x"), Secrets([SECRET]))
    assert lines is not None
    assert SECRET not in "\n".join(lines)


def test_explain_comparison_never_raises_from_a_broken_module() -> None:
    def explode(check: object, value: object, **_: object) -> list[str]:
        raise RuntimeError("boom")

    broken = SimpleNamespace(Check=kv.Check, explain_mismatch=explode)
    assert explain_comparison(broken, 1, kv.StringExact("x")) is None  # type: ignore[arg-type]


def test_plan_checks_queue() -> None:
    checks = PlanChecks(lambda: None)
    checks.add("a")
    checks.add("b", "c")
    assert checks.pending == ("a", "b", "c")
    assert len(checks) == 3
    with pytest.raises(ValueError, match=r"^plan_checks.verify\(\) needs a plan: pass one, or configure tf_plan$"):
        checks.verify()
    # The queue is emptied even when verification could not run, so nothing is reported twice.
    assert len(checks) == 0


def test_fixture_objects_have_safe_reprs() -> None:
    assert repr(AssertPlan()) == "<plancheck assert_plan fixture>"
    assert repr(PlanChecks(lambda: None)) == "<plancheck plan_checks: 0 pending>"
