"""The report scrub and the documents a test heard that cannot be read whole.

A plan read lazily (1 MiB or more, with the fast parser) is checked whole for its syntax and shape,
but an entry of it is parsed, and validated, only when first read: one that is invalid raises its
PlanFormatError to every reader, and to the walk that lists the plan's secrets. That walk cannot tell
what the part hides: a value marked there may stand unmarked elsewhere (a copy), and its error may name
a secret key. So a test that heard such a document has its reports withheld: failing closed, as for
any document whose secrets cannot be listed. A plan that failed to load was never heard, and withholds
nothing. Skip and xfail reasons, failures and captured output alike.
"""

from __future__ import annotations

import json
import textwrap

import pytest
from plugin_support import QUIET_PLUGINS, SECRET_ATTR, secret_plan

from plancheck import Secrets
from plancheck._loading.jsontext import fast_parser_available
from plancheck._plugin.cache import SessionDocuments

WITHHELD = "plancheck: this report's text is withheld because its secrets could not be scrubbed"
#: Over the loader's LAZY_MIN_BYTES, so load_plan splits the plan and parses each entry when first read.
PADDING = "x" * (1 << 20)


def _lazy_plan_text() -> str:
    """A plan of over 1 MiB whose second resource change has an invalid marks tree; the first holds SECRET_ATTR."""
    plan = secret_plan()
    bad = json.loads(json.dumps(plan["resource_changes"][0]))
    bad.update(address="null_resource.bad", name="bad")
    bad["change"]["after_sensitive"] = {"triggers": 1}
    plan["resource_changes"].append(bad)
    plan["variables"]["padding"] = {"value": PADDING}
    return json.dumps(plan)


#: Each test ends the same three ways with the text MESSAGE: skipped, xfailed, and failed after printing it.
OUTCOMES = textwrap.dedent(
    """
    def test_skip(heard):
        pytest.skip(heard)


    def test_xfail(heard):
        pytest.xfail(heard)


    def test_fail(heard):
        print("printed:", heard)
        pytest.fail(heard, pytrace=False)
    """
)

#: What each test heard before it ended (the ``heard`` fixture: the message it ends with).
HEARD = {
    "lazy-plan-with-an-unparsable-entry": """
        @pytest.fixture
        def heard():
            plan = load_plan("lazy.json")
            with pytest.raises(PlanFormatError):
                plan.resource_change("null_resource.bad")
            return "own reason"
    """,
    "failed-load-plan": """
        @pytest.fixture
        def heard():
            with pytest.raises(PlanFormatError):
                load_plan("broken.json")
            return "own reason"
    """,
    "secret-of-a-lazy-plan-s-readable-entry": """
        @pytest.fixture
        def heard():
            plan = load_plan("lazy.json")
            return "own reason " + plan.resource_change("null_resource.a").change.after["triggers"]["secret"]
    """,
    "secret-of-a-plain-plan": """
        @pytest.fixture
        def heard():
            plan = load_plan("plain.json")
            return "own reason " + plan.resource_change("null_resource.a").change.after["triggers"]["secret"]
    """,
    "plan-whose-secrets-cannot-be-listed": """
        @pytest.fixture
        def heard(monkeypatch):
            import plancheck._documents.plan as plan_module

            def cannot(document):
                raise PlanFormatError("$.resource_changes[0]", "an object", found="a number")

            monkeypatch.setattr(plan_module, "collect_plan_secrets", cannot)
            load_plan("plain.json")
            return "own reason"
    """,
    "plan-whose-secret-walk-raises": """
        @pytest.fixture
        def heard(monkeypatch):
            import plancheck._documents.sensitive as sensitive

            def walk(roots, found):
                raise PlanFormatError("$.resource_changes[0]", "an object", found="a number")

            monkeypatch.setattr(sensitive, "collect_marked", walk)
            load_plan("lazy.json")
            return "own reason"
    """,
}

REPORTS = [
    pytest.param("lazy-plan-with-an-unparsable-entry", None, id="lazy-plan-unparsable-entry-withheld"),
    pytest.param("failed-load-plan", "own reason", id="failed-load-plan-own-reason"),
    pytest.param("secret-of-a-lazy-plan-s-readable-entry", None, id="readable-entry-secret-withheld"),
    pytest.param("secret-of-a-plain-plan", "own reason (sensitive)", id="plain-plan-secret-scrubbed"),
    pytest.param("plan-whose-secrets-cannot-be-listed", None, id="secrets-cannot-be-listed-withheld"),
    pytest.param("plan-whose-secret-walk-raises", None, id="secret-walk-raises-withheld"),
]


@pytest.mark.parametrize(("heard", "shown"), REPORTS)
def test_a_report_is_withheld_when_a_read_document_s_secrets_cannot_be_listed(
    pytester: pytest.Pytester, heard: str, shown: str | None
) -> None:
    if not fast_parser_available():
        pytest.skip("the fast extra (msgspec) is not installed: no plan is read lazily")
    (pytester.path / "lazy.json").write_text(_lazy_plan_text(), encoding="utf-8")
    (pytester.path / "plain.json").write_text(json.dumps(secret_plan()), encoding="utf-8")
    (pytester.path / "broken.json").write_text('{"format_version": "1.2", ', encoding="utf-8")
    header = "import pytest\n\nfrom plancheck import PlanFormatError, load_plan\n\n"
    pytester.makepyfile(test_inner=header + textwrap.dedent(HEARD[heard]) + OUTCOMES)
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS, "-rA", "-vv")
    result.assert_outcomes(skipped=1, xfailed=1, failed=1)
    output = result.stdout.str()
    assert SECRET_ATTR not in output
    assert PADDING[:100] not in output
    if shown is None:
        assert "own reason" not in output
        result.stdout.fnmatch_lines([
            f"SKIPPED [[]1[]] test_inner.py:*: {WITHHELD} (PlanFormatError)*",
            f"XFAIL test_inner.py::test_xfail - {WITHHELD} (PlanFormatError)*",
            f"FAILED test_inner.py::test_fail - {WITHHELD} (PlanFormatError)*",
        ], consecutive=False)
    else:
        assert WITHHELD not in output
        result.stdout.fnmatch_lines([
            f"printed: {shown}",
            f"SKIPPED [[]1[]] test_inner.py:*: {shown}",
            f"XFAIL test_inner.py::test_xfail - {shown}",
            f"FAILED test_inner.py::test_fail - Failed: {shown}",
        ], consecutive=False)


class _CannotListSecrets:
    """A document whose secrets cannot be listed (its ``secrets`` raises)."""

    @property
    def secrets(self) -> object:
        from plancheck import PlanFormatError

        raise PlanFormatError("$.prior_state.values.root_module.resources[1]", "a resource object", found="a number")


def test_a_heard_document_whose_secrets_cannot_be_listed_fails_the_scrub_closed() -> None:
    """It was let go before: its secrets then went unscrubbed. Its report is withheld now (scrub_report_or_withhold)."""
    from plancheck import PlanFormatError

    docs = SessionDocuments()
    docs.begin_test("test_x.py")
    docs.met(_CannotListSecrets())
    docs.met(Secrets(["hunter2-kept"]))
    with pytest.raises(PlanFormatError):
        docs.secrets()
    docs.end_test()


def test_a_broken_document_only_an_earlier_test_s_garbage_holds_withholds_no_later_report(
    pytester: pytest.Pytester,
) -> None:
    """pytest.raises keeps the lazily read plan in a reference cycle after its test: the scrub of a later report
    collects that garbage rather than withhold the report (a clean clone's skips once all read "withheld")."""
    if not fast_parser_available():
        pytest.skip("the fast extra (msgspec) is not installed: no plan is read lazily")
    (pytester.path / "lazy.json").write_text(_lazy_plan_text(), encoding="utf-8")
    pytester.makepyfile(test_inner=textwrap.dedent(
        """
        import pytest

        from plancheck import PlanFormatError, load_plan


        def test_reads_the_bad_entry():
            plan = load_plan("lazy.json")
            with pytest.raises(PlanFormatError) as raised:  # raised -> traceback -> this frame -> raised
                plan.resource_change("null_resource.bad")
            assert raised.value.location.startswith("$.resource_changes[")


        def test_later():
            pytest.skip("own reason")
        """
    ))
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS, "-rA", "-p", "no:randomly")
    result.assert_outcomes(passed=1, skipped=1)
    assert WITHHELD not in result.stdout.str()
    result.stdout.fnmatch_lines(["SKIPPED [[]1[]] test_inner.py:*: own reason"])
