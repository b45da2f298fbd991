"""What the runner does with the providers it serves: a plan made in passes until they agree with it.

A provider served here may answer a data source read *provisionally*: it cannot know the data
source's address before a plan names it. It says so when the pass ends
(``plancheck_planning(False)`` returns True); the plan is then read (``show -json``) and handed to
it (``plancheck_plan(document)``), which returns True when some answer must change: the plan is
made again. The acceptance runner and ``tfplancheck mock-plan`` both plan this way.

>>> class Settled:
...     def plancheck_plan(self, document):
...         return False
>>> settled_plan([Settled()], lambda: "planned", lambda: {"format_version": "1.2"}, always_show=True)
('planned', {'format_version': '1.2'})
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, TypeVar

__all__ = [
    "CRASHED",
    "CRASH_HOOK",
    "MAX_PLAN_PASSES",
    "PLANNING_HOOK",
    "PLAN_HOOK",
    "PlanNotSettled",
    "crash_cause",
    "settled_plan",
    "tell_plan",
]

#: A provider object with this method is handed each plan (``show -json``) the runner reads before apply;
#: it returns True when the plan must be made again.
PLAN_HOOK: Final = "plancheck_plan"
#: A provider object with this method is told when a plan begins (True) and ends (False); ending, True asks
#: for that plan (``PLAN_HOOK``).
PLANNING_HOOK: Final = "plancheck_planning"
#: Each pass settles one more link of a chain of data sources (one whose configuration comes from another's
#: per-address value); real modules need two passes.
MAX_PLAN_PASSES: Final = 8

#: A Go program that crashed: the runtime's own "panic: ..." line, or Terraform's crash banner. A crash exits 2 (11
#: when Terraform's own handler caught it), which under -detailed-exitcode reads as "changes present".
CRASHED: Final = re.compile(r"^(?:panic: |!+ TERRAFORM CRASH !+$)", re.MULTILINE)
#: A provider object with this method is asked why Terraform crashed planning (its stderr): a text, or None.
CRASH_HOOK: Final = "plancheck_crash"

Result = TypeVar("Result")


class PlanNotSettled(Exception):
    """The providers still asked for another plan after :data:`MAX_PLAN_PASSES` plans."""

    def __init__(self, passes: int) -> None:
        super().__init__(
            f"the mocked data sources did not settle after {passes} plans: each plan gave some data source other "
            "defaults than its address gets (a chain of data sources deeper than that, each configured from the "
            "one before)"
        )
        self.passes = passes


def _hooks(providers: Iterable[object], name: str) -> list[Callable[..., Any]]:
    found = [getattr(p, name, None) for p in providers]
    return [hook for hook in found if callable(hook)]


def crash_cause(providers: Iterable[object], stderr: str) -> str | None:
    """What a provider served here knows made Terraform crash, when ``stderr`` shows a crash; else None.

    >>> class Knowing:
    ...     def plancheck_crash(self, stderr):
    ...         return "a read it defers panics it" if "objchange" in stderr else None
    >>> crash_cause([Knowing()], "panic: nil map\\n  objchange.go:1"), crash_cause([Knowing()], "Error: no such type")
    ('a read it defers panics it', None)
    """
    if not CRASHED.search(stderr):
        return None
    said = (hook(stderr) for hook in _hooks(providers, CRASH_HOOK))
    return next((text for text in said if text), None)


def tell_plan(providers: Iterable[object], document: Mapping[str, Any]) -> bool:
    """Hand a plan to every provider that asks for plans; True when one of them asks for another pass."""
    again = False
    for hook in _hooks(providers, PLAN_HOOK):
        again = bool(hook(document)) or again
    return again


def settled_plan(
    providers: Iterable[object],
    plan: Callable[[], Result],
    show: Callable[[], Mapping[str, Any]],
    *,
    always_show: bool,
) -> tuple[Result, Mapping[str, Any] | None]:
    """Plan (``plan()``) until the providers agree with the plan; the last result and its document (``show()``).

    The document is read when ``always_show`` or when a provider asks for it; a plan that fails
    raises what ``plan`` raises. :class:`PlanNotSettled` after :data:`MAX_PLAN_PASSES` plans.
    """
    served = list(providers)
    planning = _hooks(served, PLANNING_HOOK)
    for _ in range(MAX_PLAN_PASSES):
        for hook in planning:
            hook(True)
        wanted = False
        try:
            result = plan()
        finally:
            for hook in planning:
                wanted = bool(hook(False)) or wanted
        if not wanted and not always_show:
            return result, None
        document = show()
        if not tell_plan(served, document):
            return result, document
    raise PlanNotSettled(MAX_PLAN_PASSES)
