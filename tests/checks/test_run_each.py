"""The one check runner (plancheck/_checking/run.py: ``run_each``, ``by_method``) that every front end uses:
the ``assert_*`` functions, the command line and the acceptance runner."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from secret_shapes import ALL_SECRETS, leaks

from plancheck import CheckFailure, Plan, PlanCheck, PlanCheckError, PlanFormatError, Secrets, assert_plan
from plancheck._checking.run import by_method, run_checks, run_each

SECRET = "run-each-planted-secret-3317"


class Fixed:
    """A check that returns the given failures and warnings, or raises ``error``."""

    def __init__(self, *failures: object, warned: tuple[Warning, ...] = (), error: BaseException | None = None) -> None:
        self.found = list(failures)
        self.warned = list(warned)
        self.error = error

    def outcome(self, document: Any) -> tuple[list[object], list[Warning]]:
        if self.error is not None:
            raise self.error
        return self.found, self.warned

    def failures(self, document: Any) -> list[object]:
        return self.outcome(document)[0]


def _failure(name: str, message: str) -> CheckFailure:
    return CheckFailure(name, "null_resource.a", None, message)


def _shown(checks: list[Any], **options: Any) -> list[tuple[str, list[str], list[str]]]:
    return [(o.status, [str(f) for f in o.failures], [str(w) for w in o.warnings])
            for o in run_each("doc", checks, **options)]


RUNS = [
    pytest.param([Fixed(), Fixed(_failure("A", "one"), _failure("A", "two")), Fixed(_failure("B", "three"))], {},
                 [("pass", [], []), ("fail", ["A: null_resource.a: one", "A: null_resource.a: two"], []),
                  ("fail", ["B: null_resource.a: three"], [])], id="in-order-every-failure"),
    pytest.param([Fixed("a bare text")], {}, [("fail", ["Fixed: a bare text"], [])], id="text-labelled-by-type"),
    pytest.param([Fixed("a bare text")], {"label": lambda check: ("ExpectX", "a.b", None)},
                 [("fail", ["ExpectX: a.b: a bare text"], [])], id="text-labelled-by-front-end"),
    pytest.param([Fixed(warned=(UserWarning("later"),))], {}, [("pass", [], ["Fixed: later"])], id="warning-record"),
    pytest.param([Fixed(error=PlanFormatError("$", "a plan")), Fixed(error=ZeroDivisionError("boom")), Fixed()],
                 {"contain": True},
                 [("error", ["Fixed: $: expected a plan"], []),
                  ("error", ["Fixed: raised ZeroDivisionError: boom"], []), ("pass", [], [])],
                 id="contained-errors-then-the-rest-run"),
    pytest.param([Fixed(_failure("A", f"got {SECRET}"), warned=(UserWarning(f"w {SECRET}"),)),
                  Fixed(error=ValueError(SECRET))],
                 {"contain": True, "scrub": Secrets([SECRET]).scrub},
                 [("fail", ["A: null_resource.a: got (sensitive)"], ["Fixed: w (sensitive)"]),
                  ("error", ["Fixed: raised ValueError: (sensitive)"], [])], id="scrubbed-everywhere"),
]


@pytest.mark.parametrize(("checks", "options", "expected"), RUNS)
def test_run_each(checks: list[Any], options: dict[str, Any], expected: list[Any]) -> None:
    assert _shown(checks, **options) == expected


def test_a_label_is_asked_for_only_by_a_failure_without_a_record_of_its_own() -> None:
    """A check's label names a bare text or what it raised: a check that passes or gives records needs none."""
    asked: list[object] = []

    def label(check: object) -> tuple[str, str | None, None]:
        asked.append(check)
        return "ExpectX", None, None

    checks = [Fixed(), Fixed(_failure("A", "one")), Fixed("a bare text"), Fixed(error=ValueError("boom"))]
    outcomes = run_each("doc", checks, label=label, contain=True)
    assert asked == checks[2:]
    assert [str(f) for o in outcomes for f in o.failures] == [
        "A: null_resource.a: one", "ExpectX: a bare text", "ExpectX: raised ValueError: boom"]


def test_an_error_propagates_unless_contained() -> None:
    with pytest.raises(ZeroDivisionError):
        run_each("doc", [Fixed(error=ZeroDivisionError("boom"))])


class Duck:
    def __init__(self, error: BaseException | None = None, returned: Any = None) -> None:
        self.error, self.returned = error, returned

    def CheckPlan(self, plan: Any) -> Any:
        if self.error is not None:
            raise self.error
        return self.returned


DUCKS = [
    pytest.param(Duck(), [], id="holds"),
    pytest.param(Duck(AssertionError("no good")), ["Duck: no good"], id="assertion"),
    pytest.param(Duck(AssertionError()), ["Duck: check failed"], id="assertion-without-text"),
    pytest.param(Duck(PlanCheckError([_failure("A", "x"), _failure("B", "y")])),
                 ["A: null_resource.a: x", "B: null_resource.a: y"], id="check-failed-error-keeps-its-failures"),
    pytest.param(Duck(returned=[_failure("A", "returned")]), ["A: null_resource.a: returned"], id="returned"),
]


@pytest.mark.parametrize(("duck", "expected"), DUCKS)
def test_by_method_runs_duck_typed_checks(duck: Duck, expected: list[str]) -> None:
    outcomes = run_each("plan", [duck], run=by_method("CheckPlan"))
    assert [str(f) for o in outcomes for f in o.failures] == expected


def test_by_method_lets_other_errors_through() -> None:
    with pytest.raises(KeyError):
        run_each("plan", [Duck(KeyError("k"))], run=by_method("CheckPlan"))


def test_run_checks_emits_warnings_then_raises_every_failure() -> None:
    checks = [Fixed(_failure("A", "1"), warned=(UserWarning("w"),)), Fixed(_failure("B", "2"))]
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with pytest.raises(PlanCheckError) as info:
            run_checks("assert_x", "doc", "doc", checks, Fixed, PlanCheckError)
    assert [str(w.message) for w in seen] == ["w"]
    assert [f.check for f in info.value.failures] == ["A", "B"]


@given(st.lists(st.lists(st.text(min_size=1, max_size=5), max_size=4), max_size=6))
def test_failures_come_in_check_order_then_each_check_s_order(plan: list[list[str]]) -> None:
    checks = [Fixed(*(_failure(f"C{i}", m) for m in messages)) for i, messages in enumerate(plan)]
    flat = [(f.check, f.message) for o in run_each("doc", checks) for f in o.failures]
    assert flat == [(f"C{i}", m) for i, messages in enumerate(plan) for m in messages]
    assert [o.status for o in run_each("doc", checks)] == ["fail" if m else "pass" for m in plan]


class _Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text for you")


#: Issue #33: what a user's check raises, other than a check failure, is a failure naming the check
#: (the other checks still run), never the bare exception; a plancheck error stays as it was.
CHECK_RAISES = [
    pytest.param(ZeroDivisionError("boom"), PlanCheckError, ["Fixed: raised ZeroDivisionError: boom", "B: null_resource.a: 2"],
                 id="bug-in-a-check"),
    pytest.param(SystemExit(3), PlanCheckError, ["Fixed: raised SystemExit: 3", "B: null_resource.a: 2"], id="sys-exit"),
    pytest.param(_Unprintable(), PlanCheckError, ["Fixed: raised _Unprintable", "B: null_resource.a: 2"], id="str-raises"),
    pytest.param(PlanFormatError("$", "a plan"), PlanFormatError, None, id="plancheck-error-as-it-was"),
    pytest.param(KeyboardInterrupt(), KeyboardInterrupt, None, id="interrupt-goes-on-naming-the-check"),
]


@pytest.mark.parametrize(("error", "raised", "expected"), CHECK_RAISES)
def test_run_checks_reports_a_raising_check_by_name(
    error: BaseException, raised: type[BaseException], expected: list[str] | None,
) -> None:
    with pytest.raises(raised) as info:
        run_checks("assert_x", "doc", "doc", [Fixed(error=error), Fixed(_failure("B", "2"))], Fixed, PlanCheckError)
    if expected is not None:
        assert [str(f) for f in info.value.failures] == expected  # type: ignore[attr-defined]
        assert info.value.__cause__ is error
    else:
        assert info.value is error
    if isinstance(error, KeyboardInterrupt):
        assert getattr(error, "plancheck_check", None) == "Fixed"
        assert error.__notes__ == ["(raised by the check Fixed)"]


def test_an_unprintable_assertion_of_a_duck_check_is_still_its_failure() -> None:
    class Unprintable(AssertionError):
        def __str__(self) -> str:
            raise RuntimeError("no text for you")

    outcomes = run_each("plan", [Duck(Unprintable())], run=by_method("CheckPlan"))
    assert [str(f) for o in outcomes for f in o.failures] == ["Duck: check failed"]


def test_a_matcher_function_raising_an_unprintable_exception_is_named_by_its_type() -> None:
    from plancheck import knownvalue as kv

    def rejects(value: str) -> None:
        raise _Unprintable

    with pytest.raises(AssertionError) as info:
        kv.StringFunc(rejects).CheckValue("abc")
    assert str(info.value) == "_Unprintable"


class _Document:
    """A document with secrets, as plans, states and configurations have."""

    secrets = Secrets([SECRET])


def test_what_a_check_raised_is_scrubbed_with_the_document_s_secrets_and_not_chained() -> None:
    error = ValueError(f"saw {SECRET}")
    with pytest.raises(PlanCheckError) as info:
        run_checks("assert_x", "doc", _Document(), [Fixed(error=error)], Fixed, PlanCheckError)
    assert [str(f) for f in info.value.failures] == ["Fixed: raised ValueError: saw (sensitive)"]
    assert info.value.__cause__ is None
    assert SECRET not in str(info.value)


def _chained(outer: BaseException, inner: BaseException, *, explicit: bool) -> BaseException:
    """``outer`` raised while ``inner`` was handled: as its cause (``raise ... from``) or its context."""
    try:
        try:
            raise inner
        except BaseException as caught:
            if explicit:
                raise outer from caught
            raise outer  # noqa: B904  (the implicit context is the case)
    except BaseException as raised:
        return raised


def _noted(error: BaseException, note: str) -> BaseException:
    error.add_note(note)
    return error


#: What a check raised whose own message shows no secret, while Python's traceback of it does.
HIDDEN_IN_THE_CHAIN = [
    pytest.param(lambda: _chained(RuntimeError("lookup failed"), KeyError(SECRET), explicit=True), id="cause"),
    pytest.param(lambda: _chained(RuntimeError("lookup failed"), KeyError(SECRET), explicit=False), id="context"),
    pytest.param(lambda: _chained(RuntimeError("outer"), _chained(ValueError("middle"), KeyError(SECRET), explicit=True),
                                  explicit=False), id="two-deep"),
    pytest.param(lambda: _noted(RuntimeError("lookup failed"), f"while reading {SECRET}"), id="note"),
]


@pytest.mark.parametrize("make", HIDDEN_IN_THE_CHAIN)
def test_a_raising_check_whose_traceback_shows_a_secret_is_not_chained(make: Any) -> None:
    # The cause was dropped only when the failure's own message was scrubbed: a KeyError of the value a check
    # looked up, chained under a RuntimeError that names no value, was printed by Python's traceback in clear.
    import traceback

    error = make()
    with pytest.raises(PlanCheckError) as info:
        run_checks("assert_x", "doc", _Document(), [Fixed(error=error)], Fixed, PlanCheckError)
    assert SECRET not in "".join(traceback.format_exception(info.value))
    assert info.value.__cause__ is None


def test_a_raising_check_whose_traceback_shows_no_secret_stays_its_cause() -> None:
    error = _chained(RuntimeError("lookup failed"), KeyError("plain-key"), explicit=True)
    with pytest.raises(PlanCheckError) as info:
        run_checks("assert_x", "doc", _Document(), [Fixed(error=error)], Fixed, PlanCheckError)
    assert info.value.__cause__ is error


def _two(first: BaseException, second: BaseException) -> list[BaseException]:
    return [first, second]


#: (what the raising checks raised, in order; which one is the cause): the first check that raised stays the cause
#: unless its own traceback shows a secret. Another check's secret, scrubbed from that check's message, used to
#: drop it too, though it shows nowhere in it.
CAUSES = [
    pytest.param(lambda: _two(ValueError("no zone"), ValueError(f"saw {SECRET}")), 0,
                 id="another-check-s-message-shows-a-secret"),
    pytest.param(lambda: _two(ValueError("no zone"), _chained(RuntimeError("lookup failed"), KeyError(SECRET), explicit=True)),
                 0, id="another-check-s-chain-shows-a-secret"),
    pytest.param(lambda: _two(ValueError(f"saw {SECRET}"), ValueError("no zone")), None, id="its-own-message-shows-a-secret"),
    pytest.param(lambda: _two(KeyError(SECRET), ValueError("no zone")), None, id="its-own-key-error-shows-a-secret"),
    pytest.param(lambda: _two(ValueError("no zone"), ValueError("no region")), 0, id="none-shows-a-secret"),
]


@pytest.mark.parametrize(("make", "cause"), CAUSES)
def test_the_first_raising_check_is_the_cause_unless_its_own_traceback_shows_a_secret(make: Any, cause: int | None) -> None:
    import traceback

    errors = make()
    with pytest.raises(PlanCheckError) as info:
        run_checks("assert_x", "doc", _Document(), [Fixed(error=e) for e in errors], Fixed, PlanCheckError)
    assert info.value.__cause__ is (None if cause is None else errors[cause])
    assert SECRET not in "".join(traceback.format_exception(info.value))


class _Shapes:
    """A document whose secrets are every shape of secret_shapes."""

    secrets = Secrets(ALL_SECRETS.values())


def _quoting(secret: str) -> list[BaseException]:
    return [ValueError(f"cannot use {secret}")]


#: How a check that raised shows a planted secret of each shape, with the cause each leaves (see CAUSES).
SHAPED = [
    pytest.param(make, name, cause, id=f"{how}-{name}")
    for name in ALL_SECRETS
    for how, make, cause in [
        ("in-its-message", _quoting, None),
        ("in-its-key-error", lambda secret: [KeyError(secret)], None),
        ("in-its-chain", lambda secret: [_chained(RuntimeError("lookup failed"), KeyError(secret), explicit=False)], None),
        ("in-another-check-s-message", lambda secret: [LookupError("no zone"), *_quoting(secret)], 0),
    ]
]


@pytest.mark.parametrize(("make", "name", "cause"), SHAPED)
def test_no_planted_secret_shows_in_the_traceback_of_checks_that_raised(make: Any, name: str, cause: int | None) -> None:
    import traceback

    errors = make(ALL_SECRETS[name])
    with pytest.raises(PlanCheckError) as info:
        run_checks("assert_x", "doc", _Shapes(), [Fixed(error=e) for e in errors], Fixed, PlanCheckError)
    assert info.value.__cause__ is (None if cause is None else errors[cause])
    assert leaks("".join(traceback.format_exception(info.value))) == []


class _Returns(PlanCheck):
    """A plan check whose ``failures()`` returns what it was given (a user's bug when that is not a list)."""

    def __init__(self, returned: object) -> None:
        object.__setattr__(self, "returned", returned)

    def failures(self, plan: Plan) -> list[CheckFailure]:
        return self.returned  # type: ignore[return-value]


class _DuckReturns:
    def __init__(self, returned: object) -> None:
        self.returned = returned

    def CheckPlan(self, plan: Plan) -> object:
        return self.returned


#: Red team (#33): a check whose failures() returned a message reported one failure per character.
RETURNS = [
    pytest.param("no tag", "_Returns: raised TypeError: _Returns.failures() returned a value of type str; it returns a list of "
                 "failures (an empty list when the check holds)", id="a-str"),
    pytest.param(b"no", "_Returns: raised TypeError: _Returns.failures() returned a value of type bytes; it returns a list of "
                 "failures (an empty list when the check holds)", id="bytes"),
    pytest.param({"a": 1}, "_Returns: raised TypeError: _Returns.failures() returned a value of type dict; it returns a list of "
                 "failures (an empty list when the check holds)", id="a-dict"),
    pytest.param(None, "_Returns: raised TypeError: _Returns.failures() returned None; it returns a list of "
                 "failures (an empty list when the check holds)", id="none"),
    pytest.param(False, "_Returns: raised TypeError: _Returns.failures() returned a value of type bool; it returns a list of "
                 "failures (an empty list when the check holds)", id="false"),
]


@pytest.mark.parametrize(("returned", "expected"), RETURNS)
def test_a_check_returning_no_list_of_failures_is_its_failure(returned: object, expected: str) -> None:
    plan = Plan.from_dict({"format_version": "1.2"})
    with pytest.raises(PlanCheckError) as info:
        assert_plan(plan, _Returns(returned))
    assert [str(f) for f in info.value.failures] == [expected]


@pytest.mark.parametrize("returned", [
    pytest.param(lambda f: [f], id="a-list"),
    pytest.param(lambda f: (f,), id="a-tuple"),
    pytest.param(lambda f: (x for x in [f]), id="a-generator"),
])
def test_a_check_returning_an_iterable_of_failures_gives_them(returned: Any) -> None:
    """A list is taken as it is, any other iterable is listed: the same failures either way, from every runner."""
    plan = Plan.from_dict({"format_version": "1.2"})
    failure = _failure("_Returns", "no tag")
    with pytest.raises(PlanCheckError) as info:
        assert_plan(plan, _Returns(returned(failure)))
    assert info.value.failures == (failure,)
    with pytest.raises(PlanCheckError) as info:
        _Returns(returned(failure)).CheckPlan(plan)
    assert info.value.failures == (failure,)


def test_a_duck_check_returning_a_message_is_its_bug_not_a_pass() -> None:
    plan = Plan.from_dict({"format_version": "1.2"})
    with pytest.raises(TypeError) as info:
        by_method("CheckPlan")(_DuckReturns("oops"), plan)
    assert str(info.value) == ("_DuckReturns.CheckPlan() returned a value of type str; it returns a list of failures "
                               "(an empty list when the check holds)")
    assert by_method("CheckPlan")(_DuckReturns(None), plan) == ([], [])  # CheckPlan's usual None: it holds
