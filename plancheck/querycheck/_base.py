"""The QueryResultCheck base class, its error, and running many query checks on one query output.

A query check is a small frozen value, like a plan or state check: it holds what to look
for, never a query output, and reports what it found through :meth:`QueryResultCheck.failures`.
A check that takes a filter applies it itself, so a runner only calls :func:`query_check_failures`.
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Sequence
from typing import ClassVar

from tfjsonpath import Path

from .._checking.fields import require_document
from .._checking.messages import closest, given_by, scrubbed_failure
from .._checking.run import run_checks, run_each
from .._documents.query import QueryOutput, QueryResult, list_block_address
from .._errors import CheckFailedError, CheckFailure
from .._frozen import FrozenValue, frozen, public
from .queryfilter import QueryFilter

__all__ = [
    "ListBlockCheck",
    "QueryCheckError",
    "QueryResultCheck",
    "assert_query",
    "list_block_addresses",
    "missing_list_block",
    "query_check_failures",
]

#: A list block absent from the output, and no similar one: how many present blocks to name instead.
_SHOWN_BLOCKS = 5

# pytest hides this module's frames from tracebacks: failures point at the user's test line,
# and the library's locals (which may hold raw values) are never printed.
__tracebackhide__ = True


@public("plancheck.querycheck")
class QueryCheckError(CheckFailedError):
    """A query check failed.

    >>> issubclass(QueryCheckError, AssertionError)
    True
    """

    noun = "query check"


@public("plancheck.querycheck")
@frozen
class QueryResultCheck(FrozenValue, abc.ABC):
    """Base class of every query check (Go's ``QueryResultCheck``): implement :meth:`failures`.

    :meth:`check_query` (Go: ``CheckQuery``) raises :class:`QueryCheckError`. A check
    with filters returns them from :meth:`query_filters` (Go: ``QueryFilters``) and uses
    :meth:`filtered` to get the results they include.

    **Writing your own check**: make it a frozen dataclass that subclasses ``QueryResultCheck``
    and implement :meth:`failures`, building each failure with :meth:`failure` so that no secret
    of the output shows. It runs in :func:`assert_query` and in acceptance query steps.

    >>> from dataclasses import dataclass
    >>> from plancheck.querycheck import QueryOutput
    >>> @dataclass(frozen=True)
    ... class ExpectSomething(QueryResultCheck):
    ...     minimum: int = 1
    ...     def failures(self, output):
    ...         found = len(output.results)
    ...         return [] if found >= self.minimum else [self.failure(output, f"{found} results found")]
    >>> ExpectSomething().CheckQuery(QueryOutput.from_messages([]))
    Traceback (most recent call last):
    ...
    plancheck.querycheck.QueryCheckError: ExpectSomething: 0 results found
    """

    @abc.abstractmethod
    def failures(self, output: QueryOutput) -> list[CheckFailure]:
        """Every way ``output`` fails this check, in a stable order (empty when it holds)."""

    def check_query(self, output: QueryOutput) -> None:
        """Raise :class:`QueryCheckError` listing every failure, if there is any."""
        with given_by(self):
            found = self.failures(require_query(output, f"{type(self).__name__}.check_query"))
        if found:
            raise QueryCheckError(found)

    #: Go's method name, so a ported ``check.CheckQuery(...)`` reads the same: the same function.
    CheckQuery = check_query

    def failure(
        self, output: QueryOutput, message: str, *, address: str | None = None, path: Path | None = None
    ) -> CheckFailure:
        """A failure of this check on ``output``, named after the check's class, with every secret of the output scrubbed."""
        return scrubbed_failure(output.secrets, type(self).__name__, address, path, message)

    def query_filters(self) -> tuple[QueryFilter, ...]:
        """The filters this check applies to the results: its ``filter``, for the checks that take one."""
        found = getattr(self, "filter", None)
        return () if found is None else (found,)

    #: Go's method name (``QueryResultCheckWithFilters.QueryFilters``): the same function.
    QueryFilters = query_filters

    def filtered(self, results: Iterable[QueryResult]) -> list[QueryResult]:
        """The results that any of :meth:`query_filters` includes (all of them when there is no filter), as Go's runner does."""
        filters = self.query_filters()
        if not filters:
            return list(results)
        return [result for result in results if any(f.include(result) for f in filters)]


def list_block_addresses(output: QueryOutput) -> list[str]:
    """Every list block the output mentions (``list_start``, ``list_resource_found`` or ``list_complete``), without ``list.``, in order.

    A list block that ran and found nothing still has its ``list_start`` and ``list_complete``,
    so it is here; only a block the query never ran is not.

    >>> out = QueryOutput.from_messages([
    ...     {"type": "list_start", "list_start": {"address": "list.a.none"}},
    ...     {"type": "list_resource_found", "list_resource_found": {"address": "list.a.some"}},
    ...     {"type": "list_complete", "list_complete": {"address": "list.a.none", "total": 0}}])
    >>> list_block_addresses(out)
    ['a.none', 'a.some']
    """
    seen: dict[str, None] = {}
    for message in (*output.starts, *output.results, *output.summaries):
        seen.setdefault(list_block_address(message.address), None)
    return list(seen)


def missing_list_block(output: QueryOutput, address: str) -> str | None:
    """Why the list block at ``address`` is absent from ``output``, naming the closest present ones; None if present.

    >>> out = QueryOutput.from_messages([{"type": "list_complete", "list_complete": {"address": "list.test_instance.example", "total": 0}}])
    >>> missing_list_block(out, "list.test_instance.example") is None
    True
    >>> missing_list_block(out, "test_instance.exampel")
    'the list block test_instance.exampel was not found in the query results; closest: test_instance.example'
    >>> missing_list_block(out, "aws_s3_bucket.logs")
    'the list block aws_s3_bucket.logs was not found in the query results; the query output has no similar list block (it has test_instance.example)'
    >>> missing_list_block(QueryOutput.from_messages([]), "a.b")
    'the list block a.b was not found in the query results; the query output has no list blocks'
    """
    present = list_block_addresses(output)
    wanted = list_block_address(address)
    if wanted in present:
        return None
    message = f"the list block {address} was not found in the query results"
    if not present:
        return message + "; the query output has no list blocks"
    near = closest(wanted, present)
    if near:
        return message + "; closest: " + ", ".join(near)
    shown = ", ".join(present[:_SHOWN_BLOCKS]) + (f" and {len(present) - _SHOWN_BLOCKS} more" if len(present) > _SHOWN_BLOCKS else "")
    return message + f"; the query output has no similar list block (it has {shown})"


class ListBlockCheck(QueryResultCheck):
    """A query check on the one list block at ``address``: implement :meth:`list_block_failures`.

    :meth:`failures` fails first, naming the closest list blocks, when the output has no list
    block at ``address`` at all (a misspelt address must never pass, nor fail as if the block
    found nothing); only then does :meth:`list_block_failures` look at the block.

    >>> from plancheck.querycheck import QueryOutput
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class ExpectRan(ListBlockCheck):
    ...     address: str
    ...     def list_block_failures(self, output):
    ...         return []
    >>> output = QueryOutput.from_messages([{"type": "list_complete", "list_complete": {"address": "list.concept_pet.pets", "total": 0}}])
    >>> ExpectRan("concept_pet.pets").check_query(output)
    >>> ExpectRan("concept_pet.pest").check_query(output)
    Traceback (most recent call last):
    ...
    plancheck.querycheck.QueryCheckError: ExpectRan: concept_pet.pest: the list block concept_pet.pest was not found in the query results; closest: concept_pet.pets
    """

    __slots__ = ()
    address: str
    #: Appended to the not-found message: why this check fails where Go's would not.
    _absent_note: ClassVar[str] = ""

    def failures(self, output: QueryOutput) -> list[CheckFailure]:
        """The absent list block's failure, else :meth:`list_block_failures`."""
        missing = missing_list_block(output, self.address)
        if missing is None:
            return self.list_block_failures(output)
        return [scrubbed_failure(output.secrets, type(self).__name__, self.address, None, missing + self._absent_note)]

    @abc.abstractmethod
    def list_block_failures(self, output: QueryOutput) -> list[CheckFailure]:
        """Every way the list block, known to be in ``output``, fails this check."""


def require_query(output: object, where: str) -> QueryOutput:
    """Return ``output`` if it is a QueryOutput, else raise a TypeError that says how to get one."""
    return require_document(output, QueryOutput, where, "a plancheck.querycheck.QueryOutput (use load_query)")


@public("plancheck.querycheck")
def query_check_failures(output: QueryOutput, checks: Sequence[QueryResultCheck]) -> list[CheckFailure]:
    """Run every check on ``output`` and return every failure, in the order the checks were given.

    What a test runner calls for a query step (Go's ``RunQueryChecks``): an output with no
    messages at all fails first with Go's "no query results found", then every check runs.
    A check that is not a QueryResultCheck is a TypeError naming its position.

    >>> from plancheck.querycheck import ExpectLength, QueryOutput
    >>> output = QueryOutput.from_messages([{"type": "list_complete", "list_complete": {"address": "list.concept_pet.pets", "total": 5}}])
    >>> query_check_failures(output, [ExpectLength("concept_pet.pets", 5)])
    []
    >>> [str(f) for f in query_check_failures(QueryOutput.from_messages([]), [ExpectLength("concept_pet.pets", 5)])]
    ['query: no query results found', 'ExpectLength: concept_pet.pets: the list block concept_pet.pets was not found in the query results; the query output has no list blocks']
    """
    output = require_query(output, "query_check_failures")
    found: list[CheckFailure] = []
    if not output.lines:
        found.append(CheckFailure("query", None, None, "no query results found"))
    listed = list(checks)
    for i, check in enumerate(listed):
        if not isinstance(check, QueryResultCheck):
            raise TypeError(
                f"query_check_failures: check {i + 1} must be a QueryResultCheck, got {type(check).__name__}"
            )
    found.extend(failure for outcome in run_each(output, listed) for failure in outcome.failures)
    return found


@public("plancheck.querycheck")
def assert_query(output: QueryOutput, *checks: QueryResultCheck) -> None:
    """Run every check on ``output``; raise one :class:`QueryCheckError` listing every failure.

    >>> from plancheck.querycheck import ExpectLength, ExpectLengthAtLeast, QueryOutput
    >>> output = QueryOutput.from_messages([{"type": "list_complete", "list_complete": {"address": "list.concept_pet.pets", "total": 5}}])
    >>> assert_query(output, ExpectLength("concept_pet.pets", 5), ExpectLengthAtLeast("concept_pet.pets", 6))
    Traceback (most recent call last):
    ...
    plancheck.querycheck.QueryCheckError: ExpectLengthAtLeast: concept_pet.pets: Query result of at least length 6 - expected but got 5.
    """
    run_checks("assert_query", "output", require_query(output, "assert_query"), checks, QueryResultCheck, QueryCheckError)
