"""Running a step's plan and state checks on documents read back from ``terraform show -json``.

Checks are duck-typed (``check_plan(plan)`` / ``check_state(state)``), so a project's own
checks work beside plancheck's. Every check runs, and every failure is reported, in order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .._errors import CheckFailedError, CheckFailure

__all__ = ["plan_check_failures", "state_check_failures"]


def _run(subject: Any, checks: Sequence[Any], method: str) -> list[CheckFailure]:
    failures: list[CheckFailure] = []
    for check in checks:
        try:
            getattr(check, method)(subject)
        except CheckFailedError as exc:
            failures.extend(exc.failures)
        except AssertionError as exc:
            failures.append(CheckFailure(type(check).__name__, None, None, str(exc) or "check failed"))
    return failures


def plan_check_failures(document: Mapping[str, Any], checks: Sequence[Any]) -> list[str]:
    """Load the plan and run ``checks``; one text per failure, in order (empty when all hold).

    >>> class Fails:
    ...     def check_plan(self, plan):
    ...         raise AssertionError(f"format is {plan.format_version}")
    >>> plan_check_failures({"format_version": "1.2"}, [Fails(), Fails()])
    ['Fails: format is 1.2', 'Fails: format is 1.2']
    """
    from .._documents.plan import load_plan

    return [str(f) for f in _run(load_plan(document), checks, "check_plan")]


def state_check_failures(document: Mapping[str, Any], checks: Sequence[Any]) -> list[str]:
    """Load the state and run ``checks``; one text per failure, in order (empty when all hold).

    >>> class Holds:
    ...     def check_state(self, state):
    ...         pass
    >>> state_check_failures({"format_version": "1.0"}, [Holds()])
    []
    """
    from .._documents.state import load_state

    return [str(f) for f in _run(load_state(document), checks, "check_state")]
