"""Plans and states built from documents no loader accepts, for the tests of what a check does with one.

``Plan(raw)`` and ``State(raw)`` validate as the loaders do, so a document the schema refuses (a marks leaf ``1``,
a non-bool ``sensitive``) is a typed error there. The checks must still fail closed on such marks, which code
holding a plan it did not load (a subclass, a pickle, a future Terraform) can meet: these build one through the
private route each loader ends in (``_setup``), skipping the schema and the cycle walk. Tests only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from plancheck import Plan, State
from plancheck._loading.load import Loaded

P = TypeVar("P", bound=Plan)
S = TypeVar("S", bound=State)


def unvalidated_plan(
    raw: Mapping[str, Any], cls: type[P] = Plan, *, source: str | None = None, allow_errored: bool = False  # type: ignore[assignment]
) -> P:
    """A ``cls`` (a Plan or a subclass) of ``raw``, not validated: the rest of the setup (errored, repeats) runs.

    >>> unvalidated_plan({"format_version": "1.2", "resource_changes": [{"address": "a.b", "change": {
    ...     "actions": ["create"], "after_sensitive": 1}}]}).resource_change("a.b").actions
    ('create',)
    """
    plan = cls.__new__(cls)
    plan._setup(Loaded(raw, source), allow_errored)
    return plan


def unvalidated_state(raw: Mapping[str, Any], cls: type[S] = State, *, source: str | None = None) -> S:  # type: ignore[assignment]
    """A ``cls`` (a State or a subclass) of ``raw``, not validated.

    >>> unvalidated_state({"values": {"outputs": {"o": {"value": 1, "sensitive": "yes"}}}}).outputs["o"].value
    1
    """
    state = cls.__new__(cls)
    state._setup(raw, source)
    return state
