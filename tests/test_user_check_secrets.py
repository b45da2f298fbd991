"""A user's check that builds its failure itself shows no secret: the runner scrubs what it gave.

The library's checks build each failure with ``scrubbed_failure``; a user's check may return a ``CheckFailure``
it made (Go's checks return a plain error) or a text, naming the address it looked at (an instance key that is
a sensitive variable), the path (a key of a marked map) and the value. Each front end that runs it (``assert_plan``,
``assert_state``, the acceptance runner's step checks) scrubs all three with its document's secrets, trusting what
the failure trusts; a failure that shows no secret is left as it was built.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from planted_secrets import (
    PLANTED,
    SECRET_AFTER,
    SECRET_STATE_ATTR,
    SECRET_VAR,
    plan_document,
    state_document,
)
from secret_shapes import leaks

from plancheck import CheckFailure, Plan, PlanCheck, PlanCheckError, PlanCheckWarning, assert_plan
from plancheck import statecheck as sc
from plancheck._documents.state import State
from plancheck.acceptance._checks import plan_check_failures
from tfjsonpath import New


class _Built(PlanCheck):
    """Fails with a CheckFailure of its own, naming a secret in its address, path and message."""

    __slots__ = ()

    def failures(self, plan: Plan) -> list[CheckFailure]:
        value = plan.resource_change("aws_db_instance.db").change.after["password"]
        return [CheckFailure("Mine", f'terraform_data.each["{SECRET_VAR}"]', New("tags").AtMapKey(SECRET_VAR),
                             f"password is {value}")]


class _Labelled(PlanCheck):
    """Fails with a CheckFailure whose label it made of a secret (a check per key, named by it)."""

    __slots__ = ()

    def failures(self, plan: Plan) -> list[CheckFailure]:
        return [CheckFailure(f"Tag[{SECRET_VAR}]", "aws_db_instance.db", None, "missing")]


class _Text(PlanCheck):
    """Fails with a text (labelled by the runner) quoting a marked value."""

    __slots__ = ()

    def failures(self, plan: Plan) -> list[CheckFailure]:
        return [f"token {plan.resource_change('aws_db_instance.db').change.after['settings']['token']}"]  # type: ignore[list-item]


class _StateBuilt(sc.StateCheck):
    __slots__ = ()

    def failures(self, state: State) -> list[CheckFailure]:
        return [CheckFailure("MineState", "aws_db_instance.db", New("keys").AtMapKey(SECRET_STATE_ATTR),
                             f"password is {SECRET_STATE_ATTR}")]


class _Acceptance:
    """A duck-typed check of the acceptance runner (Go's ``CheckPlan``), raising a failure it built itself."""

    def CheckPlan(self, plan: Plan) -> None:
        raise PlanCheckError([CheckFailure("MineAcc", f'terraform_data.each["{SECRET_VAR}"]',
                                           New("p").AtMapKey(SECRET_AFTER), f"got {SECRET_AFTER}")])


def _assert_plan(check: Any) -> str:
    with pytest.raises(PlanCheckError) as info:
        assert_plan(Plan.from_dict(plan_document()), check)
    return "\n".join([str(info.value), repr(info.value), *map(repr, info.value.failures)])


def _assert_state(check: Any) -> str:
    with pytest.raises(AssertionError) as info:
        sc.assert_state(State.from_dict(state_document()), check)
    return "\n".join([str(info.value), repr(info.value)])


def _acceptance(check: Any) -> str:
    failures = plan_check_failures(Plan.from_dict(plan_document()), [check])
    return "\n".join(str(f) + repr(f) for f in failures)


def _check_plan(check: Any) -> str:
    """Go's method, called on the check itself (a line-by-line port)."""
    with pytest.raises(PlanCheckError) as info:
        check.CheckPlan(Plan.from_dict(plan_document()))
    return "\n".join([str(info.value), repr(info.value), *map(repr, info.value.failures)])


def _check_state(check: Any) -> str:
    with pytest.raises(AssertionError) as info:
        check.CheckState(State.from_dict(state_document()))
    return "\n".join([str(info.value), repr(info.value)])


ROWS: dict[str, tuple[Callable[[Any], str], Callable[[], Any], str]] = {
    "assert_plan, a CheckFailure of its own": (
        _assert_plan, _Built, 'Mine: terraform_data.each["(sensitive)"]: tags["(sensitive)"]: password is (sensitive)'),
    "assert_plan, a label of its own": (_assert_plan, _Labelled, "Tag[(sensitive)]: aws_db_instance.db: missing"),
    "assert_plan, a text": (_assert_plan, _Text, "_Text: token (sensitive)"),
    "assert_state, a CheckFailure of its own": (
        _assert_state, _StateBuilt, 'MineState: aws_db_instance.db: keys["(sensitive)"]: password is (sensitive)'),
    "CheckPlan, a CheckFailure of its own": (
        _check_plan, _Built, 'Mine: terraform_data.each["(sensitive)"]: tags["(sensitive)"]: password is (sensitive)'),
    "CheckState, a CheckFailure of its own": (
        _check_state, _StateBuilt, 'MineState: aws_db_instance.db: keys["(sensitive)"]: password is (sensitive)'),
    "the acceptance runner's step check": (
        _acceptance, _Acceptance, 'MineAcc: terraform_data.each["(sensitive)"]: p["(sensitive)"]: got (sensitive)'),
}


@pytest.mark.parametrize(("front", "check", "shown"), ROWS.values(), ids=ROWS.keys())
def test_a_failure_a_users_check_built_shows_no_secret(front: Callable[[Any], str], check: Callable[[], Any],
                                                       shown: str) -> None:
    text = front(check())
    assert leaks(text, PLANTED) == []
    assert shown in text


class _Plain(PlanCheck):
    __slots__ = ()

    def failures(self, plan: Plan) -> list[CheckFailure]:
        return [FAILURE]


FAILURE = CheckFailure("Plain", "aws_db_instance.db", New("name"), 'name is "db"')


def test_a_failure_that_shows_no_secret_is_left_as_it_was_built() -> None:
    with pytest.raises(PlanCheckError) as info:
        assert_plan(Plan.from_dict(plan_document()), _Plain())
    assert info.value.failures[0] is FAILURE


class _Warns(PlanCheck):
    """Passes with a warning it built itself (its own outcome), naming a secret in its address and message."""

    __slots__ = ()

    def failures(self, plan: Plan) -> list[CheckFailure]:
        return []

    def outcome(self, plan: Plan) -> tuple[list[CheckFailure], list[PlanCheckWarning]]:
        return [], [PlanCheckWarning.of(CheckFailure("MineWarn", f'terraform_data.each["{SECRET_VAR}"]', None,
                                                     f"password is {SECRET_AFTER}"))]


class _WarnsText(_Warns):
    def outcome(self, plan: Plan) -> tuple[list[CheckFailure], list[PlanCheckWarning]]:
        return [], [UserWarning(f"careful with {SECRET_AFTER}")]  # type: ignore[list-item]


WARNED: dict[str, tuple[Callable[[], None], str, type[Warning]]] = {
    "assert_plan, a warning of its own": (
        lambda: assert_plan(Plan.from_dict(plan_document()), _Warns()),
        'MineWarn: terraform_data.each["(sensitive)"]: password is (sensitive)', PlanCheckWarning),
    "CheckPlan, a warning of its own": (
        lambda: _Warns().CheckPlan(Plan.from_dict(plan_document())),
        'MineWarn: terraform_data.each["(sensitive)"]: password is (sensitive)', PlanCheckWarning),
    "assert_plan, a warning's text": (
        lambda: assert_plan(Plan.from_dict(plan_document()), _WarnsText()), "careful with (sensitive)", UserWarning),
}


@pytest.mark.parametrize(("run", "shown", "category"), WARNED.values(), ids=WARNED.keys())
def test_a_warning_a_users_check_built_is_emitted_scrubbed(run: Callable[[], None], shown: str,
                                                           category: type[Warning]) -> None:
    with pytest.warns(category, match=r"\(sensitive\)") as seen:
        run()
    assert leaks("\n".join(str(w.message) for w in seen), PLANTED) == []
    assert [type(w.message) for w in seen if str(w.message) == shown] == [category]
