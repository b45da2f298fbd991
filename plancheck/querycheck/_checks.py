"""The QueryResultCheck base class, its error, and running many query checks on one query output.

A query check is a small frozen value, like a plan or state check: it holds what to look
for, never a query output, and reports what it found through :meth:`QueryResultCheck.failures`.
A check that takes a filter applies it itself, so a runner only calls :func:`query_check_failures`.

The query checks of Go's ``querycheck``: identities, result counts, display names and resource values.

List block addresses are given without Terraform's ``list.`` prefix, as in Go; unlike Go,
the prefix is also accepted everywhere (Go's length checks accept it, the others do not)
and addresses compare exactly (Go's length checks ignore case). Messages follow Go's, each
failure on its own; every value shown has the query output's secrets scrubbed. Every check
on one list block (a :class:`ListBlockCheck`) fails when the output has no such block at all,
naming the closest ones, before it looks at results.
"""

from __future__ import annotations

import abc
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from typing_extensions import deprecated

from tfjsonpath import Path
from tfjsonpath import Path as JsonPath  # KnownValueCheck's field takes Go's name, Path

from .._checking.fields import (
    check_fields,
    checked_address,
    checked_matcher,
    checked_path,
    guard_documents,
    require_document,
)
from .._checking.match import (
    AddressIdentityFields,
    identity_shape_problem,
    identity_text,
    identity_value_failures,
    match_resolved,
)
from .._checking.matcher import search_pattern
from .._checking.messages import closest, given_by, scrubbed_failure
from .._checking.run import as_shown, emit_warnings, run_checks, run_each
from .._documents.query import QueryOutput, QueryResult, QuerySummary, list_block_address
from .._documents.resolve import resolve_value
from .._errors import ArgumentError, CheckFailedError, CheckFailure, PlanCheckWarning
from .._frozen import FrozenValue, frozen, public, renamed_keywords
from .._redact import render_value
from ..knownvalue import Check
from .queryfilter import QueryFilter

#: A list block absent from the output, and no similar one: how many present blocks to name instead.
_SHOWN_BLOCKS = 5
#: What a query check runs on, and how to get one: said when something else is passed.
A_QUERY_OUTPUT: Final = "a plancheck.querycheck.QueryOutput (use load_query)"

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
class QueryCheckWarning(PlanCheckWarning):
    """Query checks passed on partial output (loaded with ``allow_errored=True``): never a silent pass.

    :func:`assert_query` warns so, as :func:`~plancheck.assert_plan` does on a partial plan; a
    :class:`~plancheck.PlanCheckWarning`, so one warnings filter covers both.

    >>> import warnings
    >>> from plancheck.querycheck import ExpectLength, QueryOutput, assert_query
    >>> output = QueryOutput.from_messages([
    ...     {"type": "list_complete", "list_complete": {"address": "list.concept_pet.pets", "total": 1}},
    ...     {"@level": "error", "type": "diagnostic", "diagnostic": {"severity": "error", "summary": "Boom"}}],
    ...     allow_errored=True)
    >>> with warnings.catch_warnings(record=True) as seen:
    ...     warnings.simplefilter("always")
    ...     assert_query(output, ExpectLength("concept_pet.pets", 1))
    >>> [(w.category.__name__, w.message.check) for w in seen]
    [('QueryCheckWarning', 'assert_query')]
    """


@public("plancheck.querycheck")
@frozen
class QueryResultCheck(FrozenValue, abc.ABC):
    """Base class of every query check (Go's ``QueryResultCheck``): implement :meth:`failures`.

    :meth:`CheckQuery` raises :class:`QueryCheckError`. A check
    with filters returns them from :meth:`QueryFilters` and uses
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

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Named: the class ``@frozen`` built with slots is not the one a bare super() would find.
        super(QueryResultCheck, cls).__init_subclass__(**kwargs)  # noqa: UP008 (see above)
        # Given something else than a QueryOutput (a list of messages, a Plan), a check says so, as CheckQuery does.
        guard_documents(cls, QueryOutput, A_QUERY_OUTPUT, "failures")

    @abc.abstractmethod
    def failures(self, output: QueryOutput) -> list[CheckFailure]:
        """Every way ``output`` fails this check, in a stable order (empty when it holds).

        Given anything but a :class:`QueryOutput`, it raises an ArgumentError (a TypeError) saying how to get one.
        """

    def CheckQuery(self, output: QueryOutput) -> None:  # Go's name, kept for line-by-line ports
        """Raise :class:`QueryCheckError` listing every failure, if there is any."""
        checked = require_query(output, f"{type(self).__name__}.CheckQuery")
        with given_by(self):
            found = self.failures(checked)
        if found:
            raise QueryCheckError(as_shown(self, checked, found), note=checked.partial_note)

    def failure(
        self, output: QueryOutput, message: str, *, address: str | None = None, path: Path | None = None
    ) -> CheckFailure:
        """A failure of this check on ``output``, named after the check's class, with every secret of the output scrubbed."""
        return scrubbed_failure(output.secrets, type(self).__name__, address, path, message)

    def QueryFilters(self) -> tuple[QueryFilter, ...]:  # Go's name (QueryResultCheckWithFilters)
        """The filters this check applies to the results: its ``filter``, for the checks that take one."""
        found = getattr(self, "filter", None)
        return () if found is None else (found,)

    def filtered(self, results: Iterable[QueryResult]) -> list[QueryResult]:
        """The results that any of :meth:`QueryFilters` includes (all of them when there is no filter), as Go's runner does."""
        filters = self.QueryFilters()
        if not filters:
            return list(results)
        return [result for result in results if any(f.Filter(result) for f in filters)]


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
    >>> ExpectRan("concept_pet.pets").CheckQuery(output)
    >>> ExpectRan("concept_pet.pest").CheckQuery(output)
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
    """Return ``output`` if it is a QueryOutput, else raise an ArgumentError (a TypeError) that says how to get one."""
    return require_document(output, QueryOutput, where, A_QUERY_OUTPUT)


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
            raise ArgumentError(
                f"query_check_failures: check {i + 1} must be a QueryResultCheck, got {type(check).__name__}"
            )
    found.extend(failure for outcome in run_each(output, listed) for failure in outcome.failures)
    return found


@public("plancheck.querycheck")
def assert_query(output: QueryOutput, *checks: QueryResultCheck) -> None:
    """Run every check on ``output``; raise one :class:`QueryCheckError` listing every failure.

    On :attr:`~QueryOutput.partial` output (loaded with ``allow_errored=True``) the error ends with a note
    saying so, and a pass warns (:class:`QueryCheckWarning`): never a silent pass.

    >>> from plancheck.querycheck import ExpectLength, ExpectLengthAtLeast, QueryOutput
    >>> output = QueryOutput.from_messages([{"type": "list_complete", "list_complete": {"address": "list.concept_pet.pets", "total": 5}}])
    >>> assert_query(output, ExpectLength("concept_pet.pets", 5), ExpectLengthAtLeast("concept_pet.pets", 6))
    Traceback (most recent call last):
    ...
    plancheck.querycheck.QueryCheckError: ExpectLengthAtLeast: concept_pet.pets: Query result of at least length 6 - expected but got 5.
    """
    checked = require_query(output, "assert_query")
    note = checked.partial_note
    run_checks("assert_query", "output", checked, checks, QueryResultCheck, QueryCheckError, note=note)
    if note is not None:
        emit_warnings([QueryCheckWarning.of(CheckFailure("assert_query", None, None, note))])


def _checked_length(value: object, check: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentError(f"{check}: length must be an int, got {type(value).__name__}")
    if value < 0:
        raise ArgumentError(f"{check}: length must be >= 0, got {value}")
    return value


def _checked_filter(value: object, check: str) -> QueryFilter | None:
    if value is None or isinstance(value, QueryFilter):
        return value
    raise ArgumentError(
        f"{check}: filter must be a queryfilter.QueryFilter (e.g. queryfilter.ByResourceIdentity(...)) or None, "
        f"got {type(value).__name__}"
    )


def _fail(output: QueryOutput, check: object, address: str | None, message: str) -> list[CheckFailure]:
    return [scrubbed_failure(output.secrets, type(check).__name__, address, None, message)]


# -- identities ----------------------------------------------------------------------------------


class _IdentityFields(AddressIdentityFields):
    __slots__ = ()

    def _names(self) -> list[str]:
        return [name for name, _ in self.identity]


@public("plancheck.querycheck")
class ExpectIdentity(_IdentityFields, ListBlockCheck):
    """Some result of the list block at ``address`` has exactly this identity (each attribute matching its check).

    As in Go, an identity with other attribute names than the check's fails at once: the
    list block's resource type has another identity schema.

    >>> from plancheck import knownvalue as kv
    >>> from plancheck.querycheck import load_query
    >>> output = load_query(b'''{"type":"list_resource_found","list_resource_found":{"address":"list.concept_pet.pets","display_name":"This is a large-roughy","identity":{"id":"large-roughy","legs":2},"identity_version":1,"resource_type":"concept_pet"}}
    ... {"type":"list_resource_found","list_resource_found":{"address":"list.concept_pet.pets","display_name":"This is a able-werewolf","identity":{"id":"able-werewolf","legs":5},"identity_version":1,"resource_type":"concept_pet"}}''')
    >>> ExpectIdentity("concept_pet.pets", {"id": kv.StringExact("able-werewolf"), "legs": kv.Int64Exact(5)}).CheckQuery(output)
    >>> ExpectIdentity("concept_pet.pets", {"id": kv.StringExact("able-werewolf"), "legs": kv.Int64Exact(4)}).CheckQuery(output)
    Traceback (most recent call last):
    ...
    plancheck.querycheck.QueryCheckError: ExpectIdentity: concept_pet.pets: an identity with the following attributes was not found: attribute "id": "able-werewolf", attribute "legs": 4 (2 results of this list block searched, lines 1, 2)
    """

    __slots__ = ()

    def list_block_failures(self, output: QueryOutput) -> list[CheckFailure]:
        """The failure, unless some result of the list block has this identity."""
        results = output.results_for(self.address)
        for result in results:
            identity = result.identity or {}
            shape = identity_shape_problem(identity, self._names())
            if shape is not None:
                return _fail(output, self, self.address, shape)
            if not identity_value_failures(identity, self.identity, output.secrets):
                return []
        if results:
            lines = [str(r.line) for r in results if r.line is not None]
            on = f", lines {', '.join(lines)}" if lines else ""
            where = f" ({len(results)} result{'s' if len(results) != 1 else ''} of this list block searched{on})"
        else:
            where = " (the query found no results for this list block)"
        message = f"an identity with the following attributes was not found: {identity_text(self.identity)}{where}"
        return _fail(output, self, self.address, message)


@public("plancheck.querycheck")
class ExpectNoIdentity(_IdentityFields, ListBlockCheck):
    """No result of the list block at ``address`` has this identity.

    Unlike Go (which passes), a list block absent from the output fails: the query never ran
    it, so nothing was checked, and a misspelt address would otherwise pass unnoticed. A list
    block that ran and found no results passes.

    >>> from plancheck import knownvalue as kv
    >>> from plancheck.querycheck import QueryOutput
    >>> output = QueryOutput.from_messages([{"type": "list_resource_found", "list_resource_found": {
    ...     "address": "list.concept_pet.pets", "identity": {"id": "large-roughy", "legs": 2}}}])
    >>> ExpectNoIdentity("concept_pet.pets", {"id": kv.StringExact("able-werewolf"), "legs": kv.Int64Exact(5)}).CheckQuery(output)
    >>> ExpectNoIdentity("concept_pet.pets", {"id": kv.StringExact("large-roughy"), "legs": kv.Int64Exact(2)}).CheckQuery(output)
    Traceback (most recent call last):
    ...
    plancheck.querycheck.QueryCheckError: ExpectNoIdentity: concept_pet.pets: an unexpected identity matching the given attributes was found: attribute "id": "large-roughy", attribute "legs": 2 (line 1)
    """

    __slots__ = ()
    _absent_note = (
        " (Go passes here; this fails because a list block absent from the output was never queried, "
        "so no identity was checked: one that found no results passes)"
    )

    def list_block_failures(self, output: QueryOutput) -> list[CheckFailure]:
        """The failure, if some result of the list block has this identity (or one of another shape)."""
        for result in output.results_for(self.address):
            identity = result.identity or {}
            shape = identity_shape_problem(identity, self._names())
            if shape is not None:
                return _fail(output, self, self.address, shape)
            if not identity_value_failures(identity, self.identity, output.secrets):
                line = f" (line {result.line})" if result.line is not None else ""
                message = (
                    "an unexpected identity matching the given attributes was found: "
                    f"{identity_text(self.identity)}{line}"
                )
                return _fail(output, self, self.address, message)
        return []


# -- result counts -------------------------------------------------------------------------------


def _summary(output: QueryOutput, address: str) -> QuerySummary | str:
    """The list block's ``list_complete`` message (the block is known to be in the output), or why there is none."""
    wanted = list_block_address(address)
    for summary in output.summaries:
        if list_block_address(summary.address) == wanted:
            return summary
    return f"the list block {address} has no list_complete message in the query output, so its total is unknown"


@frozen
class _LengthFields(FrozenValue):
    """A check of a list block's total (its ``list_complete`` message) against ``length``."""

    address: str
    length: int

    #: The failure when :meth:`_holds` says no, from ``length`` and ``total``.
    _message: ClassVar[str]

    def __post_init__(self) -> None:
        check_fields(self, address=checked_address, length=_checked_length)

    def _holds(self, total: int) -> bool:
        raise NotImplementedError

    def list_block_failures(self, output: QueryOutput) -> list[CheckFailure]:
        """The failure, if the total is not as expected or the list block did not complete."""
        summary = _summary(output, self.address)
        if isinstance(summary, str):
            return _fail(output, self, self.address, summary)
        if not self._holds(summary.total):
            return _fail(output, self, self.address, self._message.format(length=self.length, total=summary.total))
        return []


@public("plancheck.querycheck")
class ExpectLength(_LengthFields, ListBlockCheck):
    """The list block at ``address`` found exactly ``length`` results (its ``list_complete`` total).

    >>> from plancheck.querycheck import QueryOutput
    >>> output = QueryOutput.from_messages([{"type": "list_complete", "list_complete": {"address": "list.concept_pet.pets", "total": 5}}])
    >>> ExpectLength("concept_pet.pets", 5).CheckQuery(output)
    >>> ExpectLength("concept_pet.pets", 4).CheckQuery(output)
    Traceback (most recent call last):
    ...
    plancheck.querycheck.QueryCheckError: ExpectLength: concept_pet.pets: number of found resources 4 - expected but got 5.
    """

    __slots__ = ()
    _message = "number of found resources {length} - expected but got {total}."

    def _holds(self, total: int) -> bool:
        return total == self.length


@public("plancheck.querycheck")
class ExpectLengthAtLeast(_LengthFields, ListBlockCheck):
    """The list block at ``address`` found at least ``length`` results.

    >>> from plancheck.querycheck import QueryOutput
    >>> output = QueryOutput.from_messages([{"type": "list_complete", "list_complete": {"address": "list.concept_pet.pets", "total": 5}}])
    >>> ExpectLengthAtLeast("concept_pet.pets", 3).CheckQuery(output)
    >>> ExpectLengthAtLeast("concept_pet.cats", 3).CheckQuery(output)
    Traceback (most recent call last):
    ...
    plancheck.querycheck.QueryCheckError: ExpectLengthAtLeast: concept_pet.cats: the list block concept_pet.cats was not found in the query results; closest: concept_pet.pets
    """

    __slots__ = ()
    _message = "Query result of at least length {length} - expected but got {total}."

    def _holds(self, total: int) -> bool:
        return total >= self.length


def _checked_pattern(value: object, check: str) -> re.Pattern[str]:
    if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
        return value
    if isinstance(value, str):
        try:
            return re.compile(value)
        except re.error as exc:
            raise ArgumentError(f"{check}: regex {value!r} does not compile: {exc}") from None
    raise ArgumentError(f"{check}: regex must be a str or a compiled re.Pattern of str, got {type(value).__name__}")


@public("plancheck.querycheck")
@frozen
class ExpectTotalLengthForMatching(QueryResultCheck):
    """The list blocks whose full address (``list.`` included) ``regex`` finds (``re.search``) found ``length`` results together.

    >>> from plancheck.querycheck import QueryOutput
    >>> output = QueryOutput.from_messages([
    ...     {"type": "list_complete", "list_complete": {"address": "list.concept_pet.pets", "total": 5}},
    ...     {"type": "list_complete", "list_complete": {"address": "list.concept_pet.more_pets", "total": 2}}])
    >>> ExpectTotalLengthForMatching(r"pets$", 7).CheckQuery(output)
    >>> ExpectTotalLengthForMatching(r"^list\\.concept_pet\\.", 6).CheckQuery(output)
    Traceback (most recent call last):
    ...
    plancheck.querycheck.QueryCheckError: ExpectTotalLengthForMatching: expected total of found resources to be 6, got 7
    """

    regex: re.Pattern[str]
    length: int

    if TYPE_CHECKING:  # the constructor takes more than the fields hold: __post_init__ converts
        def __init__(self, regex: str | re.Pattern[str], length: int) -> None: ...

    def __post_init__(self) -> None:
        check_fields(self, regex=_checked_pattern, length=_checked_length)

    def failures(self, output: QueryOutput) -> list[CheckFailure]:
        """The failure, if the sum differs or no list block matches."""
        matching = [s for s in output.summaries if search_pattern(self.regex, s.address, type(self).__name__)]
        if not matching:
            return _fail(
                output, self, None,
                f"no list resources matching the provided regex pattern {self.regex.pattern} were found in the query results",
            )  # fmt: skip
        total = sum(s.total for s in matching)
        if total != self.length:
            return _fail(output, self, None, f"expected total of found resources to be {self.length}, got {total}")
        return []


# -- one result ----------------------------------------------------------------------------------


def _one_result(check: QueryResultCheck, output: QueryOutput, address: str) -> QueryResult | str:
    """The one result of the list block that the check's filters leave, or why there is not exactly one."""
    everything = output.results_for(address)
    results = check.filtered(everything)
    if not results:
        before = f" ({len(everything)} result{'s' if len(everything) != 1 else ''} before filtering)"
        return f"no query results found after filtering{before}"
    if len(results) > 1:
        lines = [str(r.line) for r in results if r.line is not None]
        on = f", lines {', '.join(lines)}" if lines else ""
        return f"more than 1 query result found after filtering ({len(results)} results{on})"
    return results[0]


@public("plancheck.querycheck")
@frozen
class ExpectResourceDisplayName(ListBlockCheck):
    """The one result of the list block at ``address`` that ``filter`` includes has a display name matching ``display_name``.

    ``filter`` is a :mod:`~plancheck.querycheck.queryfilter` filter, or None for every result
    of the list block; exactly one result must remain.

    >>> from plancheck import knownvalue as kv
    >>> from plancheck.querycheck import QueryOutput, queryfilter
    >>> output = QueryOutput.from_messages([{"type": "list_resource_found", "list_resource_found": {
    ...     "address": "list.concept_pet.pets", "display_name": "This is a able-werewolf", "identity": {"id": "able-werewolf"}}}])
    >>> by_id = queryfilter.ByResourceIdentity({"id": kv.StringExact("able-werewolf")})
    >>> ExpectResourceDisplayName("concept_pet.pets", by_id, kv.StringRegexp("werewolf")).CheckQuery(output)
    >>> ExpectResourceDisplayName("concept_pet.pets", by_id, kv.StringExact("This is a werewolf")).CheckQuery(output)
    Traceback (most recent call last):
    ...
    plancheck.querycheck.QueryCheckError: ExpectResourceDisplayName: concept_pet.pets: error checking value for display name "This is a werewolf", err: expected value "This is a werewolf" for StringExact check, got: "This is a able-werewolf"
    """

    address: str
    filter: QueryFilter | None
    display_name: Check

    def __post_init__(self) -> None:
        check_fields(self, address=checked_address, filter=_checked_filter, display_name=checked_matcher)

    def list_block_failures(self, output: QueryOutput) -> list[CheckFailure]:
        """The failure, unless exactly one result remains and its display name matches."""
        result = _one_result(self, output, self.address)
        if isinstance(result, str):
            return _fail(output, self, self.address, result)
        problem = match_resolved(resolve_value(result.display_name, None, None, Path()), self.display_name, output.secrets)
        if problem is None:
            return []
        return _fail(
            output, self, self.address, f"error checking value for display name {self.display_name}, err: {problem[1]}"
        )


@public("plancheck.querycheck")
@renamed_keywords(path="Path", known_value="KnownValue")
@frozen
class KnownValueCheck(FrozenValue):
    """A knownvalue check at a path of a result's resource object: Go's struct, with Go's field names.

    >>> from plancheck import knownvalue as kv
    >>> from tfjsonpath import New
    >>> c = KnownValueCheck(New("ami"), kv.StringExact("ami-12345"))
    >>> c, c.Path, c.KnownValue
    (KnownValueCheck(Path(MapStep('ami')), StringExact('ami-12345')), Path(MapStep('ami')), StringExact('ami-12345'))
    """

    Path: JsonPath
    KnownValue: Check

    def __post_init__(self) -> None:
        check_fields(self, Path=checked_path, KnownValue=checked_matcher)

    # The snake_case names, kept working for one release (#34: Go's name is the one name).
    @property
    @deprecated("plancheck.querycheck.KnownValueCheck.path is deprecated; use plancheck.querycheck.KnownValueCheck.Path")
    def path(self) -> JsonPath:
        """Deprecated: :attr:`Path`."""
        return self.Path

    @property
    @deprecated(
        "plancheck.querycheck.KnownValueCheck.known_value is deprecated; use plancheck.querycheck.KnownValueCheck.KnownValue"
    )
    def known_value(self) -> Check:
        """Deprecated: :attr:`KnownValue`."""
        return self.KnownValue


def _checked_known_values(value: object, check: str) -> tuple[KnownValueCheck, ...]:
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
        raise ArgumentError(f"{check}: known_values must be a list of KnownValueCheck, got {type(value).__name__}")
    for i, item in enumerate(value):
        if not isinstance(item, KnownValueCheck):
            raise ArgumentError(f"{check}: known_values[{i}] must be a KnownValueCheck, got {type(item).__name__}")
    return tuple(value)


@public("plancheck.querycheck")
@frozen
class ExpectResourceKnownValues(ListBlockCheck):
    """The one result of the list block at ``address`` that ``filter`` includes has these values in its resource object.

    The list block must set ``include_resource = true`` (else Terraform writes no resource object).
    Every failing value is reported.

    >>> from plancheck import knownvalue as kv
    >>> from plancheck.querycheck import KnownValueCheck, QueryOutput, queryfilter
    >>> from tfjsonpath import New
    >>> output = QueryOutput.from_messages([{"type": "list_resource_found", "list_resource_found": {
    ...     "address": "list.test_instance.example", "display_name": "Test Instance 1", "identity": {"id": "test-instance-1"},
    ...     "resource_object": {"ami": "ami-12345", "id": "test-instance-1"}}}])
    >>> by_id = queryfilter.ByResourceIdentity({"id": kv.StringExact("test-instance-1")})
    >>> ExpectResourceKnownValues("test_instance.example", by_id, [KnownValueCheck(New("ami"), kv.StringExact("ami-12345"))]).CheckQuery(output)
    >>> ExpectResourceKnownValues("test_instance.example", by_id, [KnownValueCheck(New("ami"), kv.StringExact("ami-67890"))]).CheckQuery(output)
    Traceback (most recent call last):
    ...
    plancheck.querycheck.QueryCheckError: ExpectResourceKnownValues: test_instance.example: error checking value for attribute at path: ami for resource with identity {"id": "test-instance-1"}, err: expected value "ami-67890" for StringExact check, got: "ami-12345"
    """

    address: str
    filter: QueryFilter | None
    known_values: tuple[KnownValueCheck, ...]

    if TYPE_CHECKING:  # the constructor takes more than the fields hold: __post_init__ converts
        def __init__(
            self, address: str, filter: QueryFilter | None, known_values: Sequence[KnownValueCheck]
        ) -> None: ...

    def __post_init__(self) -> None:
        check_fields(self, address=checked_address, filter=_checked_filter, known_values=_checked_known_values)

    def _args(self, *, shown: bool = False) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self.address, self.filter, list(self.known_values)), {}

    def list_block_failures(self, output: QueryOutput) -> list[CheckFailure]:
        """One failure per value that does not match, or why there is no single resource object to check."""
        result = _one_result(self, output, self.address)
        if isinstance(result, str):
            return _fail(output, self, self.address, result)
        resource = result.resource_object
        if resource is None:
            return _fail(
                output, self, self.address,
                "no resource object was returned, ensure `include_resource` has been set to `true` in the list resource config",
            )  # fmt: skip
        identity = render_value(result.identity, None, output.secrets)
        found: list[CheckFailure] = []
        for item in self.known_values:
            problem = match_resolved(resolve_value(resource, None, None, item.Path), item.KnownValue, output.secrets)
            if problem is not None:
                where, reason = problem
                message = (
                    f"error checking value for attribute at path: {where.to_text()} for resource with identity "
                    f"{identity}, err: {reason}"
                )
                found.extend(_fail(output, self, self.address, message))
        return found
