"""The planned actions of a resource change, by Go's names (``plancheck.ResourceAction``), and the events
that trigger an action invocation (``plancheck.ActionTriggerEvent``, Terraform 1.14+).

It lives with the documents, below every check family: plan checks, selectors and snapshots
all speak of actions.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from .._frozen import public

__all__ = ["ActionTriggerEvent", "ResourceAction"]


@public("plancheck")
class ResourceAction(enum.Enum):
    """A planned action, named as in Go's ``plancheck.ResourceAction*`` constants.

    ``Replace`` matches either replacement order. ``Forget`` (``removed`` with
    ``destroy = false``, Terraform 1.7+) and ``CreateThenForget`` are Terraform's
    ``["forget"]`` and ``["create", "forget"]``, ``ForgetThenCreate`` OpenTofu 1.12's
    ``["forget", "create"]``; Go has none of them. None of the three destroys anything, and
    ``Replace`` matches neither order of forget and create: the old object is kept, not destroyed.

    >>> ResourceAction.Replace.matches(["create", "delete"]), ResourceAction.of(["delete", "create"])
    (True, ResourceAction.DestroyBeforeCreate)
    """


    NoOp = "NoOp"
    Create = "Create"
    Read = "Read"
    Update = "Update"
    Destroy = "Destroy"
    DestroyBeforeCreate = "DestroyBeforeCreate"
    CreateBeforeDestroy = "CreateBeforeDestroy"
    Replace = "Replace"
    Forget = "Forget"
    CreateThenForget = "CreateThenForget"
    ForgetThenCreate = "ForgetThenCreate"

    def matches(self, actions: Sequence[str]) -> bool:
        """Whether a change's ``actions`` list is this action.

        >>> ResourceAction.Create.matches(["create"]), ResourceAction.Create.matches(["delete", "create"])
        (True, False)
        """
        if self is ResourceAction.Replace:
            return ResourceAction.of(actions) in _REPLACES
        return ResourceAction.of(actions) is self

    @classmethod
    def of(cls, actions: Sequence[str]) -> ResourceAction | None:
        """The action an ``actions`` list stands for (never ``Replace``), or None if it is no known one.

        >>> ResourceAction.of(["create", "forget"]), ResourceAction.of(["forget", "create"])
        (ResourceAction.CreateThenForget, ResourceAction.ForgetThenCreate)
        >>> ResourceAction.of(["read", "update"]) is None
        True
        """
        return _BY_ACTIONS.get(tuple(actions))

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


_BY_ACTIONS: dict[tuple[str, ...], ResourceAction] = {
    ("no-op",): ResourceAction.NoOp,
    ("create",): ResourceAction.Create,
    ("read",): ResourceAction.Read,
    ("update",): ResourceAction.Update,
    ("delete",): ResourceAction.Destroy,
    ("delete", "create"): ResourceAction.DestroyBeforeCreate,
    ("create", "delete"): ResourceAction.CreateBeforeDestroy,
    ("forget",): ResourceAction.Forget,
    ("create", "forget"): ResourceAction.CreateThenForget,
    ("forget", "create"): ResourceAction.ForgetThenCreate,
}
_REPLACES = frozenset({ResourceAction.DestroyBeforeCreate, ResourceAction.CreateBeforeDestroy})


@public("plancheck")
class ActionTriggerEvent(enum.Enum):
    """What triggered an action invocation: Terraform's ``configs.ActionTriggerEvent`` names (Terraform 1.14+).

    A ``lifecycle { action_trigger { events = [...] } }`` block triggers an action before or after its
    resource is created, updated or destroyed; the plan writes the event as
    ``lifecycle_action_trigger.action_trigger_event``. ``Invoke`` stands for an action invoked
    directly (``terraform apply -invoke=action.x.y``: an ``invoke_action_trigger``).

    >>> ActionTriggerEvent("AfterCreate"), ActionTriggerEvent.AfterCreate.is_before
    (ActionTriggerEvent.AfterCreate, False)
    """

    BeforeCreate = "BeforeCreate"
    AfterCreate = "AfterCreate"
    BeforeUpdate = "BeforeUpdate"
    AfterUpdate = "AfterUpdate"
    BeforeDestroy = "BeforeDestroy"
    AfterDestroy = "AfterDestroy"
    Invoke = "Invoke"

    @property
    def is_before(self) -> bool:
        """Whether the action runs before its resource's change (Terraform's ``IsBefore``).

        >>> [e.name for e in ActionTriggerEvent if e.is_before]
        ['BeforeCreate', 'BeforeUpdate', 'BeforeDestroy']
        """
        return self.name.startswith("Before")

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"
