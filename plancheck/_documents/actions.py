"""The planned actions of a resource change, by Go's names (``plancheck.ResourceAction``).

It lives with the documents, below every check family: plan checks, selectors and snapshots
all speak of actions.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from .._frozen import public

__all__ = ["ResourceAction"]


@public("plancheck")
class ResourceAction(enum.Enum):
    """A planned action, named as in Go's ``plancheck.ResourceAction*`` constants.

    ``Replace`` matches either replacement order. ``Forget`` (``removed`` with
    ``destroy = false``, Terraform 1.7+) and ``CreateThenForget`` are Terraform's
    ``["forget"]`` and ``["create", "forget"]``; Go has neither.

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

        >>> ResourceAction.of(["create", "forget"]), ResourceAction.of(["read", "update"])
        (ResourceAction.CreateThenForget, None)
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
}
_REPLACES = frozenset({ResourceAction.DestroyBeforeCreate, ResourceAction.CreateBeforeDestroy})
