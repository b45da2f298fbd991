"""``statecheck.ExpectEachKnownValue``: one knownvalue check over every resource a selector selects in a state.

A state has no unknown values, so each resource passes or fails; the message has the form of the
plan checks' (``2 of 5 failed: address: reason; ...``), in address order, over every module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tfjsonpath import Path

from .._checking.each import Item, checked_selector, each_outcome, empty_selection, item_label, match_verdict
from .._checking.fields import checked_matcher, checked_path
from .._checking.messages import scrubbed_failure
from .._documents.select import Resources
from .._documents.state import State
from .._errors import CheckFailure
from .._frozen import frozen, public
from ..knownvalue.internal import Check
from ._base import StateCheck, resolve_resource

__all__ = ["ExpectEachKnownValue"]

# pytest hides this module's frames from tracebacks: failures point at the user's test line,
# and the library's locals (which may hold raw values) are never printed.
__tracebackhide__ = True


@public("plancheck.statecheck")
@frozen
class ExpectEachKnownValue(StateCheck):
    """The value at ``path`` of every resource ``selector`` selects in the state (any module) matches ``matcher``.

    ``selector`` is a :class:`~plancheck.Resources` (without ``action``: a state has none) or an
    address glob. Deposed objects are checked too. A selector that selects nothing fails, naming
    it, unless it says ``allow_empty=True``. Sensitive values are compared but never shown.

    >>> from plancheck import State, knownvalue as kv
    >>> from tfjsonpath import New
    >>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
    ...     {"address": "aws_s3_bucket.a", "type": "aws_s3_bucket", "values": {"acl": "private"}},
    ...     {"address": "aws_s3_bucket.b", "type": "aws_s3_bucket", "values": {"acl": "public-read"}}],
    ...     "child_modules": [{"address": "module.m", "resources": [{"address": "module.m.aws_s3_bucket.c",
    ...      "type": "aws_s3_bucket", "values": {"acl": "private"}}]}]}}})
    >>> ExpectEachKnownValue("module.m.*", New("acl"), kv.StringExact("private")).check_state(state)
    >>> ExpectEachKnownValue("*aws_s3_bucket.*", New("acl"), kv.StringExact("private")).check_state(state)
    Traceback (most recent call last):
    ...
    plancheck.StateCheckError: ExpectEachKnownValue: Resources(address='*aws_s3_bucket.*'): acl: 1 of 3 failed: aws_s3_bucket.b: expected value "private" for StringExact check, got: "public-read"
    """

    selector: Resources
    path: Path
    matcher: Check

    if TYPE_CHECKING:  # the constructor takes more than the fields hold: __post_init__ converts
        def __init__(self, selector: Resources | str, path: Path, matcher: Check) -> None: ...

    def __post_init__(self) -> None:
        name = type(self).__name__
        chosen = checked_selector(self.selector, name)
        if chosen.action is not None:
            raise ValueError(f"{name}: the selector's action selects resource changes of a plan; a state has none")
        self._set(selector=chosen, path=checked_path(self.path, name), matcher=checked_matcher(self.matcher, name))

    def failures(self, state: State) -> list[CheckFailure]:
        """The failure naming every resource whose value does not match (or is absent), in address order."""
        name = type(self).__name__
        items: list[Item] = []
        for resource in self.selector.select(state):
            verdict, detail = match_verdict(
                resolve_resource(resource, self.path), self.matcher, state.secrets, self.path
            )
            items.append(Item(item_label(resource.address, resource.deposed), verdict, detail))
        subject = self.selector.describe()
        if not items:
            if self.selector.allow_empty:
                return []
            message = empty_selection(
                self.selector, "state", [], (str(r.type) for r in state.resources if r.type), state.addresses()
            )
            return [scrubbed_failure(state.secrets, name, subject, None, message)]
        found, _ = each_outcome(name, subject, self.path, items, "fail", state.secrets)
        return found

