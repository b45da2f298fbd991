"""ComposeTestCheckFunc and ComposeAggregateTestCheckFunc (cases after Go's TestComposeTestCheckFunc)."""

from __future__ import annotations

from typing import Any

import pytest
from testcheck_support import one

from plancheck import State
from plancheck.acceptance import (
    ComposeAggregateTestCheckFunc,
    ComposedCheckError,
    ComposeTestCheckFunc,
    FlatState,
    TestCheckResourceAttr,
    TestDefinitionError,
)

STATE = one({"id": "7"})


def ok(state: State) -> None:
    assert isinstance(state, State)


def fails(state: State) -> None:
    raise AssertionError("error")


def returns_error(state: State) -> Exception:
    return ValueError("returned")


CASES: list[Any] = [
    pytest.param((ok,), None, None, id="one-passes"),
    pytest.param((), None, None, id="none-pass"),
    pytest.param((fails, ok), "Check 1/2 error: error", "Check 1/2 error: error", id="first-fails"),
    pytest.param((ok, fails), "Check 2/2 error: error", "Check 2/2 error: error", id="second-fails"),
    pytest.param((ok, ok), None, None, id="both-pass"),
    pytest.param(
        (fails, fails), "Check 1/2 error: error", "Check 1/2 error: error\nCheck 2/2 error: error", id="both-fail",
    ),
    pytest.param((returns_error,), "Check 1/1 error: returned", "Check 1/1 error: returned", id="returned-exception"),
    pytest.param(
        (TestCheckResourceAttr("test.a", "id", "8"), ok),
        "Check 1/2 error: test.a: Attribute 'id' expected \"8\", got \"7\"",
        "Check 1/2 error: test.a: Attribute 'id' expected \"8\", got \"7\"",
        id="library-check-fails",
    ),
    pytest.param(
        (ComposeTestCheckFunc(ok, fails),),
        "Check 1/1 error: Check 2/2 error: error",
        "Check 1/1 error: Check 2/2 error: error",
        id="nested-compose",
    ),
]


@pytest.mark.parametrize(("fs", "first", "aggregate"), CASES)
def test_compose(fs: tuple[Any, ...], first: str | None, aggregate: str | None) -> None:
    for compose, message in ((ComposeTestCheckFunc, first), (ComposeAggregateTestCheckFunc, aggregate)):
        check = compose(*fs)
        if message is None:
            check(STATE)  # passes: raises nothing
        else:
            with pytest.raises(ComposedCheckError) as info:
                check(STATE)
            assert str(info.value) == message


def test_compose_stops_at_first_failure_aggregate_runs_all() -> None:
    calls: list[int] = []

    def record(n: int) -> Any:
        def check(state: State) -> None:
            calls.append(n)
            raise AssertionError(f"e{n}")

        return check

    with pytest.raises(ComposedCheckError) as first:
        ComposeTestCheckFunc(record(1), record(2))(STATE)
    assert calls == [1]
    assert isinstance(first.value.__cause__, AssertionError)
    calls.clear()
    with pytest.raises(ComposedCheckError) as every:
        ComposeAggregateTestCheckFunc(record(1), record(2))(STATE)
    assert calls == [1, 2]
    assert [str(e) for e in every.value.errors] == ["e1", "e2"]
    assert every.value.failures == ((1, "e1"), (2, "e2"))


def test_other_exceptions_propagate() -> None:
    def broken(state: State) -> None:
        raise KeyError("bug")

    with pytest.raises(KeyError):
        ComposeAggregateTestCheckFunc(broken)(STATE)


def test_user_checks_get_the_state_even_from_a_flat_state() -> None:
    seen: list[object] = []
    ComposeTestCheckFunc(seen.append)(FlatState.of(STATE))
    assert seen == [STATE]


def test_not_callable_is_a_definition_error() -> None:
    with pytest.raises(TestDefinitionError) as info:
        ComposeTestCheckFunc(ok, "nope")  # type: ignore[arg-type]
    assert str(info.value) == "ComposeTestCheckFunc: check 2/2: expected a callable taking the state, got str"


def test_composed_error_reduces() -> None:
    err = ComposedCheckError(2, [(2, "x")])
    args: Any = err.__reduce__()[1]
    assert str(type(err)(*args)) == "Check 2/2 error: x"
