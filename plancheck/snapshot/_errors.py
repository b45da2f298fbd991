"""What a snapshot raises: a file that is not a snapshot, a plan that differs from one, a missing one."""

from __future__ import annotations

from collections.abc import Sequence

from .._errors import CheckFailedError, CheckFailure, DocumentFormatError
from .._frozen import public

__all__ = ["SnapshotFormatError", "SnapshotMismatchError", "SnapshotMissingError"]

_MODULE = "plancheck.snapshot"
#: How a failure tells the reader to accept the new plan.
UPDATE_HINT = "update it with update=True (pytest: --snapshot-update; command line: --update)"


@public(_MODULE)
class SnapshotFormatError(DocumentFormatError):
    """A file that is not a plan snapshot, or one edited into a state that cannot be read.

    ``file`` names the file (None for text given directly) and ``line`` the line (1-based; None
    when the whole file is at fault, e.g. unreadable). A ``ValueError`` and a ``TfCheckError``.

    >>> err = SnapshotFormatError("plan.snap", 3, "a value line PATH = VALUE", found="'id ='")
    >>> str(err)
    "plan.snap:3: expected a value line PATH = VALUE, found 'id ='"
    >>> err.file, err.line, isinstance(err, ValueError)
    ('plan.snap', 3, True)
    """

    kind = "snapshot"

    def __init__(self, file: str | None, line: int | None, expected: str, *, found: str | None = None) -> None:
        self.line = line
        location = f"line {line}" if line is not None else "the file"
        super().__init__(location, expected, found=found, source=file)

    @property
    def file(self) -> str | None:
        """The file, as it was named (None for text given directly)."""
        return self.source

    def _render(self) -> str:
        where = self.source or "<snapshot>"
        if self.line is not None:
            where += f":{self.line}"
        text = f"{where}: expected {self.expected}"
        if self.found is not None:
            text += f", found {self.found}"
        return text

    def with_source(self, source: str | None) -> SnapshotFormatError:
        """This error naming the file ``source``.

        >>> SnapshotFormatError(None, 1, "x").with_source("a.snap").file
        'a.snap'
        """
        return SnapshotFormatError(source, self.line, self.expected, found=self.found)


@public(_MODULE)
class SnapshotMismatchError(CheckFailedError):
    """The plan differs from its snapshot: ``lines`` are the differences, one review comment each.

    An ``AssertionError`` (a failed check, as pytest reports it); ``file`` is the snapshot file.

    >>> err = SnapshotMismatchError("plan.snap", ['cloud_bucket.logs: name: "logs" -> "logs2"'])
    >>> print(err)
    plan does not match the snapshot plan.snap (1 difference):
      cloud_bucket.logs: name: "logs" -> "logs2"
    update it with update=True (pytest: --snapshot-update; command line: --update)
    >>> err.lines
    ('cloud_bucket.logs: name: "logs" -> "logs2"',)
    """

    noun = "snapshot check"

    def __init__(self, file: str, lines: Sequence[str]) -> None:
        self.file = str(file)
        self.lines = tuple(lines)
        super().__init__([CheckFailure("PlanSnapshot", None, None, line) for line in self.lines] or self._empty())

    def _empty(self) -> list[CheckFailure]:
        return [CheckFailure("PlanSnapshot", None, None, f"the snapshot {self.file} differs")]

    def _render(self) -> str:
        count = len(self.lines)
        head = f"plan does not match the snapshot {self.file} ({count} difference{'' if count == 1 else 's'}):"
        return "\n".join([head, *(f"  {line}" for line in self.lines), UPDATE_HINT])


@public(_MODULE)
class SnapshotMissingError(SnapshotMismatchError):
    """There is no snapshot file yet: the message says how to write it.

    >>> print(SnapshotMissingError("plan.snap"))
    no snapshot at plan.snap: write it with update=True (pytest: --snapshot-update; command line: --update)
    """

    def __init__(self, file: str) -> None:
        super().__init__(file, ())

    def _empty(self) -> list[CheckFailure]:
        # The failure says how to write the file too: a check runner (the acceptance runner's, assert_plan's) shows
        # the failures, not this message.
        return [CheckFailure("PlanSnapshot", None, None, self._render())]

    def _render(self) -> str:
        return f"no snapshot at {self.file}: write it with " + UPDATE_HINT.removeprefix("update it with ")

