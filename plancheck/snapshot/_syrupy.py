"""``PlanSnapshotExtension``: plan snapshots in pytest through syrupy (the ``snapshot`` extra).

``assert snapshot(extension_class=PlanSnapshotExtension) == plan`` stores one file per
snapshot (``__snapshots__/<test file>/<test name>.tfplan.snap``) holding the plan's snapshot
text; ``pytest --snapshot-update`` writes or rewrites them. A plan is compared with its file
value by value, and a failure lists the differences as review comments, never a secret.

The extension is one no pytest collection pattern matches (``test*.txt`` is the doctest glob:
a ``.tfplan.txt`` file, the name before #33, was collected, and a merge-conflicted one aborted
the session). A ``.tfplan.txt`` file is still read where no ``.tfplan.snap`` file is: renamed to
the new name as it is first read (its text unchanged), as syrupy would otherwise report it
unused, fail the session and delete it on ``--snapshot-update``. A stored
file that cannot be read (a merge conflict, binary data) fails its test naming the line, and
``--snapshot-update`` rewrites it, as ``assert_matches(update=True)`` and the command line do.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, ClassVar

from .._documents.plan import Plan
from .._errors import ArgumentError
from .._frozen import public
from .._redact import NO_SECRETS
from ._api import Unreadable, build, read_snapshot_file, unreadable, write_snapshot_file
from ._compare import review
from ._errors import SnapshotFormatError
from ._format import parse_snapshot
from ._render import IgnoreSpec
from ._secrets import resolve_key

try:
    from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode
except ImportError as exc:  # the optional extra is missing
    raise ImportError(
        "plancheck.snapshot.PlanSnapshotExtension needs syrupy: pip install 'tfplancheck[snapshot]'",
        name=exc.name,
    ) from None

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["LEGACY_EXTENSION", "PlanSnapshotExtension"]

#: The extension of plan snapshot files before #33 (read where no file of today's name is).
LEGACY_EXTENSION = "tfplan.txt"
def _legacy_location(location: str) -> str | None:
    suffix = f".{PlanSnapshotExtension.file_extension}"
    return location[: -len(suffix)] + f".{LEGACY_EXTENSION}" if location.endswith(suffix) else None


@public("plancheck.snapshot")
class PlanSnapshotExtension(SingleFileSnapshotExtension):
    """A syrupy extension storing a :class:`plancheck.Plan` as its snapshot text, one file per snapshot.

    Use it as any syrupy extension; ``pytest --snapshot-update`` writes the files. Fingerprints of
    secrets are made when ``TFPLANCHECK_SNAPSHOT_KEY`` is set. Leave paths or resources out with
    :meth:`ignoring` (the entries :func:`plancheck.snapshot.render` takes)::

        def test_plan(snapshot, tf_plan):
            assert snapshot(extension_class=PlanSnapshotExtension) == tf_plan

    >>> from plancheck import Plan
    >>> plan = Plan.from_dict({"format_version": "1.2", "output_changes": {"ip": {"actions": ["create"],
    ...     "after_unknown": True}}})
    >>> print(PlanSnapshotExtension().serialize(plan).splitlines()[-1])
      value = (known after apply)
    >>> PlanSnapshotExtension.ignoring('tags["created"]').ignore
    ('tags["created"]',)
    """

    file_extension = "tfplan.snap"
    _write_mode = WriteMode.TEXT
    #: The ``ignore`` entries of this extension (see :meth:`ignoring`).
    ignore: ClassVar[tuple[Any, ...]] = ()

    @classmethod
    def ignoring(cls, *entries: Any) -> type[PlanSnapshotExtension]:
        """A subclass of this extension leaving ``entries`` out (paths, selectors, (selector, path) pairs).

        >>> PlanSnapshotExtension.ignoring("id").__name__
        'PlanSnapshotExtension'
        """
        spec = IgnoreSpec([*cls.ignore, *entries], "PlanSnapshotExtension.ignoring()")
        return type(cls.__name__, (cls,), {"ignore": spec.entries, "__module__": cls.__module__})

    def serialize(self, data: Any, **_options: Any) -> str:
        """The snapshot text of the plan ``data``."""
        if not isinstance(data, Plan):
            raise ArgumentError(
                "PlanSnapshotExtension snapshots a plancheck.Plan, got "
                f"{type(data).__name__} (load it with plancheck.load_plan)"
            )
        spec = IgnoreSpec(self.ignore, "PlanSnapshotExtension")
        self._secrets = data.secrets  # to scrub a failure's lines: a hand-edited file could hold anything
        return build(data, spec, resolve_key(None))

    def read_snapshot_data_from_location(self, *, snapshot_location: str, **_options: Any) -> str | None:
        """The stored text (of the ``.tfplan.txt`` file when only that exists), or None when there is none.

        A file that is no snapshot is read as data that matches no plan and says its located error:
        its test fails naming the line, and ``--snapshot-update`` rewrites it.
        """
        location = snapshot_location
        legacy = _legacy_location(location)
        if legacy is not None and not os.path.lexists(location) and os.path.lexists(legacy):
            # Renamed, not read in place: syrupy takes a file it did not name for an unused snapshot (the
            # session fails, and --snapshot-update deletes it). The text is unchanged; commit the rename.
            try:
                os.rename(legacy, location)
            except FileNotFoundError:  # another xdist worker renamed it first
                pass
            except OSError:  # a read-only checkout: read it where it is
                location = legacy
        try:
            text = read_snapshot_file(location)
            if text is not None:
                parse_snapshot(text, location)
        except SnapshotFormatError as exc:
            return unreadable(exc)
        return text

    def matches(self, *, serialized_data: Any, snapshot_data: Any) -> bool:
        """Whether the plan's snapshot says what the stored one says (compared value by value)."""
        if isinstance(snapshot_data, Unreadable):
            return False
        # Compared as review() shows it: a value the file holds in clear where the plan marks it is a secret
        # the pytest report (syrupy's repr of the snapshot, in a traceback) is scrubbed of.
        lines, _ = review(str(snapshot_data), str(serialized_data), getattr(self, "_secrets", NO_SECRETS))
        return not lines

    def diff_lines(self, serialized_data: Any, snapshot_data: Any) -> Iterator[str]:
        """The differences from the stored snapshot to the plan, as review comments."""
        if not snapshot_data:
            return
        if isinstance(snapshot_data, Unreadable):
            yield getattr(self, "_secrets", NO_SECRETS).scrub(str(snapshot_data))
            return
        secrets = getattr(self, "_secrets", NO_SECRETS)
        try:
            lines, _ = review(str(snapshot_data), str(serialized_data), secrets)
        except ValueError as exc:
            yield secrets.scrub(str(exc))
            return
        yield from lines

    @classmethod
    def write_snapshot_collection(cls, *, snapshot_collection: Any, **_options: Any) -> None:
        """Write the one snapshot of a collection to its file, atomically."""
        data = next(iter(snapshot_collection)).data
        if not isinstance(data, str):
            raise TypeError(f"PlanSnapshotExtension writes snapshot text, got {type(data).__name__}")
        location = os.fspath(snapshot_collection.location)
        write_snapshot_file(location, data)
        legacy = _legacy_location(location)
        if legacy is not None and os.path.lexists(legacy):
            # Rewritten under today's name: the old file would only be read again by nothing, and collected.
            os.unlink(legacy)
