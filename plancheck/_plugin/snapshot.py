"""The report of a failed syrupy snapshot of a plan: review comments, whichever way the extension was chosen.

syrupy explains a failed ``snapshot == data`` with the diff of the extension the assertion holds
when pytest asks, which is not the one ``snapshot(extension_class=...)`` chose for one assertion
(syrupy restores its default after the comparison). So a plan snapshot would be explained as a
diff of its text lines. The plugin's wrapper around ``pytest_assertrepr_compare`` asks here, with a
failed comparison: a plan snapshot, recognised by its file, is explained with
:func:`plancheck.snapshot.diff`'s review comments.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["explain_plan_snapshot"]

#: The plan snapshot files' names (PlanSnapshotExtension's; ``.tfplan.txt`` before #33).
_FILE_SUFFIXES = (".tfplan.snap", ".tfplan.txt")


def explain_plan_snapshot(left: object, right: object) -> list[str] | None:
    """The explanation of a failed plan snapshot comparison, or None for anything else (syrupy explains it).

    >>> explain_plan_snapshot(1, 2) is None
    True
    """
    module = sys.modules.get("syrupy.assertion")
    assertion_type = getattr(module, "SnapshotAssertion", None)
    if assertion_type is None:
        return None
    if isinstance(left, assertion_type):
        assertion, head = left, "[- snapshot] == [+ received]"
    elif isinstance(right, assertion_type):
        assertion, head = right, "[+ received] == [- snapshot]"
    else:
        return None
    result: Any = assertion.executions.get(assertion.num_executions - 1)
    if result is None or result.success or result.exception is not None:
        return None
    if not str(result.snapshot_location).endswith(_FILE_SUFFIXES) or not isinstance(result.asserted_data, str):
        return None
    from ..snapshot import PlanSnapshotExtension

    lines = [head]
    recalled = result.recalled_data
    if recalled is None:
        lines.append(f"Snapshot '{result.snapshot_name}' does not exist! (write it with --snapshot-update)")
        return lines
    # The extension's own explanation: the located error of a stored file that is no snapshot, else the
    # review comments. A value the stored file holds in clear where the plan marks it is hidden there and
    # told to the session's scrub, which also scrubs these lines of the plan's secrets with the rest of the report.
    lines.extend(PlanSnapshotExtension().diff_lines(result.asserted_data, recalled))
    return lines
