"""Running a step's plan and state checks on the documents read back from ``terraform show -json``.

Checks are duck-typed (``check_plan(plan)`` / ``check_state(state)``), so a project's own
checks work beside plancheck's. They run through the library's one runner
(:func:`plancheck._checking.run.run_each`): every check runs, every failure is reported, in order.
A check that raises (a bug, ``sys.exit()``) is contained as ``assert_*`` contains it: one failure
naming the check, ``raised <Type>: <text>``, scrubbed of the document's secrets; a Ctrl-C goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._checking.run import by_method, run_each
from .._documents.plan import Plan
from .._documents.state import State
from .._errors import CheckFailure

__all__ = ["plan_check_failures", "state_check_failures"]


def _failures(document: Plan | State, checks: Sequence[Any], method: str) -> list[CheckFailure]:
    outcomes = run_each(document, checks, run=by_method(method), contain=True, scrub=document.secrets)
    return [f for outcome in outcomes for f in outcome.failures]


def plan_check_failures(plan: Plan, checks: Sequence[Any]) -> list[CheckFailure]:
    """Run ``checks`` on ``plan``; every failure, in order (empty when all hold), with what it trusts.

    >>> class Fails:
    ...     def check_plan(self, plan):
    ...         raise AssertionError(f"format is {plan.format_version}")
    >>> class Broken:
    ...     def check_plan(self, plan):
    ...         return 1 / 0
    >>> [str(f) for f in plan_check_failures(Plan.from_dict({"format_version": "1.2"}), [Fails(), Broken()])]
    ['Fails: format is 1.2', 'Broken: raised ZeroDivisionError: division by zero']
    """
    return _failures(plan, checks, "check_plan")


def state_check_failures(state: State, checks: Sequence[Any]) -> list[CheckFailure]:
    """Run ``checks`` on ``state``; every failure, in order (empty when all hold), with what it trusts.

    >>> class Holds:
    ...     def check_state(self, state):
    ...         pass
    >>> state_check_failures(State.from_dict({"format_version": "1.0"}), [Holds()])
    []
    """
    return _failures(state, checks, "check_state")
