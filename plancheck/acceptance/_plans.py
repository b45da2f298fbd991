"""What a plan document (``terraform show -json``) would change, as the runner needs to know it.

The rules are Go's (``planIsEmpty`` in terraform-plugin-testing): a plan is empty when every
resource change and every output change is a ``no-op``. A ``read``, ``forget`` or a move
with an action other than ``no-op`` all count as changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["planned_changes"]


def _actions(change: Any) -> list[str]:
    actions = change.get("actions") if isinstance(change, Mapping) else None
    if not isinstance(actions, list):
        return []
    return [a for a in actions if isinstance(a, str)]


def planned_changes(document: Mapping[str, Any]) -> list[str]:
    """One line per resource or output the plan would change: address and actions, in plan order.

    An empty list means the plan is empty.

    >>> planned_changes({"resource_changes": [
    ...     {"address": "null_resource.a", "change": {"actions": ["delete", "create"]}},
    ...     {"address": "null_resource.b", "change": {"actions": ["no-op"]}},
    ...     {"address": "null_resource.c", "previous_address": "null_resource.z", "change": {"actions": ["update"]}}],
    ...   "output_changes": {"id": {"actions": ["update"]}, "same": {"actions": ["no-op"]}}})
    ['null_resource.a: delete, create', 'null_resource.c (moved from null_resource.z): update', 'output.id: update']
    >>> planned_changes({"format_version": "1.2"})
    []
    """
    lines: list[str] = []
    resource_changes = document.get("resource_changes")
    for rc in resource_changes if isinstance(resource_changes, list) else ():
        if not isinstance(rc, Mapping):
            continue
        actions = _actions(rc.get("change"))
        if all(a == "no-op" for a in actions):
            continue
        address = str(rc.get("address", "?"))
        if isinstance(rc.get("deposed"), str):
            address += f" (deposed object {rc['deposed']})"
        if isinstance(rc.get("previous_address"), str) and rc["previous_address"] != rc.get("address"):
            address += f" (moved from {rc['previous_address']})"
        lines.append(f"{address}: {', '.join(actions)}")
    output_changes = document.get("output_changes")
    if isinstance(output_changes, Mapping):
        for name, change in output_changes.items():
            actions = _actions(change)
            if not all(a == "no-op" for a in actions):
                lines.append(f"output.{name}: {', '.join(actions)}")
    return lines

