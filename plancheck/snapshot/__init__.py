"""Plan snapshots (approval testing) that know unknowns and secrets: render, compare, hold a plan to its file.

A snapshot is a canonical text of a plan, one planned value per line, made to be reviewed in a
pull request: unknown values are ``(known after apply)``, sensitive ones ``(sensitive)`` (never
their value, nor anything it could be guessed from), null, empty and absent values never look
alike, and nothing volatile (Terraform's version, a timestamp, the document's order) is kept.

>>> from plancheck import Plan, snapshot
>>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [{"address": "cloud_bucket.logs",
...     "change": {"actions": ["create"], "after": {"name": "logs", "tags": {}}, "after_unknown": {"arn": True}}}]})
>>> print(snapshot.render(plan, key=None), end="")
# tfplancheck plan snapshot 1
# One planned value per line: (known after apply) is unknown, (sensitive) hidden, no line absent.
<BLANKLINE>
resource cloud_bucket.logs
  action: create
  arn = (known after apply)
  name = "logs"
  tags = {}

* :func:`render` a plan; :func:`diff` two plans or snapshots as review comments;
  :func:`assert_matches` a plan to a snapshot file (``update=True`` writes it);
* :class:`PlanSnapshotExtension` for pytest's syrupy (``pip install 'tfplancheck[snapshot]'``):
  ``assert snapshot(extension_class=PlanSnapshotExtension) == plan``;
* ``tfplancheck snapshot PLAN FILE [--update]`` on the command line;
* the steps of :func:`assert_matches`, for a front end of your own: :func:`parse_ignore_spec` (an
  ``ignore`` entry written as text), :class:`IgnoreSpec`, :func:`resolve_key` (a :class:`FingerprintKey`),
  :func:`build`, :func:`check_file` (a :class:`FileOutcome`, nothing raised for a difference).

A changed secret is invisible in a snapshot file unless a key is set (``TFPLANCHECK_SNAPSHOT_KEY``,
a CI secret): then each sensitive value is a keyed fingerprint, and a changed one shows as
``(sensitive) -> (sensitive, changed)``. :func:`diff` of two plans always shows it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._api import FileOutcome, assert_matches, build, check_file, diff, render
from ._errors import SnapshotFormatError, SnapshotMismatchError, SnapshotMissingError
from ._render import IgnoreSpec, parse_ignore_spec
from ._secrets import FingerprintKey, resolve_key

if TYPE_CHECKING:
    from ._syrupy import PlanSnapshotExtension

__all__ = [
    "FileOutcome",
    "FingerprintKey",
    "IgnoreSpec",
    "PlanSnapshotExtension",
    "SnapshotFormatError",
    "SnapshotMismatchError",
    "SnapshotMissingError",
    "assert_matches",
    "build",
    "check_file",
    "diff",
    "parse_ignore_spec",
    "render",
    "resolve_key",
]

def __getattr__(name: str) -> Any:
    # syrupy is an optional extra: it is imported only when its extension is asked for.
    if name == "PlanSnapshotExtension":
        from ._syrupy import PlanSnapshotExtension

        globals()[name] = PlanSnapshotExtension
        return PlanSnapshotExtension
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
