"""Small option types of a test definition: :class:`ImportStateKind` and :class:`AdditionalCLIOptions`."""

from __future__ import annotations

from dataclasses import KW_ONLY
from enum import Enum

from .._frozen import FrozenValue, frozen, keyword_hints, public
from ._errors import TestDefinitionError

__all__ = ["AdditionalCLIOptions", "ApplyOptions", "ImportStateKind", "PlanOptions"]


@public("plancheck.acceptance")
class ImportStateKind(Enum):
    """How an ``import_state`` step imports (Go's ``resource.ImportStateKind``).

    * ``ImportCommandWithID`` (the default): the ``terraform import ADDRESS ID`` command;
    * ``ImportBlockWithID``: an ``import { to = ADDRESS, id = ID }`` block, then a plan that must
      import the resource without changing it (Terraform 1.5 or later);
    * ``ImportBlockWithResourceIdentity``: an ``import`` block with the resource's identity
      taken from the state (Terraform 1.12 or later).

    >>> ImportStateKind.ImportBlockWithID.plannable, ImportStateKind.ImportCommandWithID.plannable
    (True, False)
    >>> ImportStateKind.ImportBlockWithResourceIdentity
    <ImportStateKind.ImportBlockWithResourceIdentity>
    """

    ImportCommandWithID = "ImportCommandWithID"
    ImportBlockWithID = "ImportBlockWithID"
    ImportBlockWithResourceIdentity = "ImportBlockWithResourceIdentity"

    def __repr__(self) -> str:
        return f"<ImportStateKind.{self.name}>"

    @property
    def plannable(self) -> bool:
        """Whether the import is planned from an ``import`` block (not the ``terraform import`` command)."""
        return self is not ImportStateKind.ImportCommandWithID

    @property
    def resource_identity(self) -> bool:
        """Whether the ``import`` block names the resource by its identity rather than an id.

        >>> ImportStateKind.ImportBlockWithResourceIdentity.resource_identity
        True
        """
        return self is ImportStateKind.ImportBlockWithResourceIdentity


def _flag(value: object, where: str) -> None:
    if not isinstance(value, bool):
        raise TestDefinitionError(where, f"expected a bool, got {type(value).__name__}")


@public("plancheck.acceptance")
@keyword_hints()
@frozen
class PlanOptions(FrozenValue):
    """Extra options for every ``plan`` of a config step (Go's ``resource.PlanOptions``).

    * ``allow_deferral``: ``-allow-deferral`` (an experimental Terraform feature);
    * ``no_refresh``: ``-refresh=false``.

    >>> PlanOptions(no_refresh=True).args()
    ('-refresh=false',)
    """

    _: KW_ONLY  # Go's struct literal is keyed: so are the arguments, and the repr names each one
    allow_deferral: bool = False
    no_refresh: bool = False

    def __post_init__(self) -> None:
        _flag(self.allow_deferral, "PlanOptions.allow_deferral")
        _flag(self.no_refresh, "PlanOptions.no_refresh")

    def args(self) -> tuple[str, ...]:
        """The command-line arguments these options add."""
        return (("-allow-deferral",) if self.allow_deferral else ()) + (("-refresh=false",) if self.no_refresh else ())


@public("plancheck.acceptance")
@keyword_hints()
@frozen
class ApplyOptions(FrozenValue):
    """Extra options for the ``apply`` of a config step (Go's ``resource.ApplyOptions``).

    >>> ApplyOptions(allow_deferral=True).args()
    ('-allow-deferral',)
    """

    _: KW_ONLY
    allow_deferral: bool = False

    def __post_init__(self) -> None:
        _flag(self.allow_deferral, "ApplyOptions.allow_deferral")

    def args(self) -> tuple[str, ...]:
        """The command-line arguments these options add."""
        return ("-allow-deferral",) if self.allow_deferral else ()


@public("plancheck.acceptance")
@keyword_hints()
@frozen
class AdditionalCLIOptions(FrozenValue):
    """Extra command-line options for plans and applies (Go's ``resource.AdditionalCLIOptions``).

    Give it on the :class:`TestCase` (as Go) or on a step, which then uses its own instead.

    >>> options = AdditionalCLIOptions(plan=PlanOptions(allow_deferral=True), apply=ApplyOptions(allow_deferral=True))
    >>> options.plan.args(), options.apply.args()
    (('-allow-deferral',), ('-allow-deferral',))
    >>> AdditionalCLIOptions(plan={"allow_deferral": True})
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: AdditionalCLIOptions.plan: expected PlanOptions(...), got dict
    """

    _: KW_ONLY
    apply: ApplyOptions = ApplyOptions()
    plan: PlanOptions = PlanOptions()

    def __post_init__(self) -> None:
        if not isinstance(self.apply, ApplyOptions):
            raise TestDefinitionError("AdditionalCLIOptions.apply", f"expected ApplyOptions(...), got {type(self.apply).__name__}")
        if not isinstance(self.plan, PlanOptions):
            raise TestDefinitionError("AdditionalCLIOptions.plan", f"expected PlanOptions(...), got {type(self.plan).__name__}")
