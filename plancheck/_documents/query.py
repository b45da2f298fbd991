"""The query output document model: ``terraform query -json`` (Terraform 1.14+), read into typed messages.

A :class:`QueryOutput` holds every message in order and, typed, what the query checks read:
the results (``list_resource_found``: address, display name, identity, resource object), the
summaries (``list_complete``: address and total) and the starts (``list_start``: the list
block's input config and which of its attributes are sensitive). Go's terraform-json types
are ``ListResourceFoundData``, ``ListCompleteData`` and ``ListStartData``.

Secrets: Terraform writes a ``list`` block's input config in clear and names its sensitive
attributes in ``sensitive_attribute_paths`` (``.foo``, ``.tags["secret"]``, ``.list[1]``); the
strings there are the output's :attr:`QueryOutput.secrets`, scrubbed from every message. A
path that cannot be read makes the whole input config secret (fail closed).

Errors: output that holds an error diagnostic (the query failed part way, so its results are
partial) is refused with an :class:`ErroredQueryError`, unless ``allow_errored=True``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cached_property
from typing import Any, final

from .._errors import QUERY_PARTIAL_NOTE, ArgumentError
from .._frozen import ReadOnly, public
from .._loading.query import (
    ErroredQueryError,
    QueryFormatError,
    QueryLine,
    first_error,
    read_query,
    validate_messages,
)
from .._redact import Secrets
from . import met as met_module
from .sensitive import list_start_secrets, parse_cty_path

__all__ = [
    "QueryOutput",
    "QueryResult",
    "QueryStart",
    "QuerySummary",
    "list_block_address",
    "load_query",
    "parse_cty_path",
]

_EMPTY: Mapping[str, Any] = {}

def list_block_address(address: str) -> str:
    """A list block's address without Terraform's ``list.`` prefix, as Go's query checks compare them.

    >>> list_block_address("list.concept_pet.pets"), list_block_address("concept_pet.pets")
    ('concept_pet.pets', 'concept_pet.pets')
    """
    return address.removeprefix("list.")


class _Message(ReadOnly):
    __slots__ = ("line", "raw")
    raw: Mapping[str, Any]
    line: int | None
    _key = ""

    def __init__(self, raw: Mapping[str, Any], line: int | None = None) -> None:
        self._set(raw=raw, line=line)

    @property
    def _data(self) -> Mapping[str, Any]:
        data = self.raw.get(self._key)
        return data if isinstance(data, Mapping) else _EMPTY

    def _text(self, key: str) -> str | None:
        """The text the message holds at ``key``; None where it holds none, or no text."""
        value = self._data.get(key)
        return value if isinstance(value, str) else None

    @property
    def address(self) -> str:
        """The list block's address, as Terraform writes it (``list.concept_pet.pets``)."""
        return str(self._data.get("address", ""))

    @property
    def resource_type(self) -> str | None:
        """The managed resource type the list block lists."""
        return self._text("resource_type")


@public("plancheck.querycheck")
@final
class QueryStart(_Message):
    """A ``list_start`` message: a list block began; its input config and sensitive attribute paths.

    >>> s = QueryStart({"type": "list_start", "list_start": {"address": "list.test_instance.example",
    ...     "resource_type": "test_instance", "input_config": {"ami": "ami-12345", "foo": "pw-1"},
    ...     "sensitive_attribute_paths": [".foo"]}}, 2)
    >>> s.address, s.input_config["ami"], s.sensitive_attribute_paths, s.line
    ('list.test_instance.example', 'ami-12345', ('.foo',), 2)
    """

    __slots__ = ()
    _key = "list_start"

    @property
    def input_config(self) -> Mapping[str, Any] | None:
        """The list block's configuration as Terraform evaluated it (sensitive parts in clear: see ``secrets``)."""
        return self._data.get("input_config")

    @property
    def sensitive_attribute_paths(self) -> tuple[str, ...]:
        """The attributes of ``input_config`` that are sensitive, as Terraform prints paths."""
        return tuple(self._data.get("sensitive_attribute_paths") or ())

    def secret_strings(self) -> Iterator[str]:
        """Every string under a sensitive attribute path of ``input_config`` (all of it, if a path is unreadable).

        >>> sorted(QueryStart({"list_start": {"address": "list.a.b", "input_config": {"t": {"k": "v-secret"}, "n": "x"},
        ...     "sensitive_attribute_paths": ['.t["k"]']}}).secret_strings())
        ['v-secret']
        """
        return list_start_secrets(self._data)

    def __repr__(self) -> str:
        return f"<QueryStart {self.address}>"


@public("plancheck.querycheck")
@final
class QueryResult(_Message):
    """A ``list_resource_found`` message: one resource a list block found (Go's ``ListResourceFoundData``).

    >>> r = QueryResult({"type": "list_resource_found", "list_resource_found": {
    ...     "address": "list.concept_pet.pets", "display_name": "This is a large-roughy",
    ...     "identity": {"id": "large-roughy", "legs": 2}, "identity_version": 1, "resource_type": "concept_pet"}}, 3)
    >>> r.address, r.display_name, r.identity, r.identity_version, r.resource_object, r.line
    ('list.concept_pet.pets', 'This is a large-roughy', {'id': 'large-roughy', 'legs': 2}, 1, None, 3)
    """

    __slots__ = ()
    _key = "list_resource_found"

    @property
    def display_name(self) -> str:
        """The name the provider gave the result ("" when absent)."""
        return str(self._data.get("display_name", ""))

    @property
    def identity(self) -> Mapping[str, Any] | None:
        """The resource's identity (attribute name to value), or None."""
        return self._data.get("identity")

    @property
    def identity_version(self) -> int | None:
        """The version of the identity schema ``identity`` follows."""
        return self._data.get("identity_version")

    @property
    def resource_object(self) -> Mapping[str, Any] | None:
        """The resource's attributes, when the list block sets ``include_resource = true``; else None."""
        return self._data.get("resource_object")

    @property
    def config(self) -> str | None:
        """The generated resource configuration (``-generate-config-out``), or None."""
        return self._text("config")

    @property
    def import_config(self) -> str | None:
        """The generated ``import`` block (``-generate-config-out``), or None."""
        return self._text("import_config")

    def __repr__(self) -> str:
        return f"<QueryResult {self.address} line={self.line}>"


@public("plancheck.querycheck")
@final
class QuerySummary(_Message):
    """A ``list_complete`` message: a list block finished, with how many results it found (Go's ``ListCompleteData``).

    >>> s = QuerySummary({"type": "list_complete", "list_complete": {"address": "list.concept_pet.pets",
    ...     "resource_type": "concept_pet", "total": 5}})
    >>> s.address, s.total
    ('list.concept_pet.pets', 5)
    """

    __slots__ = ()
    _key = "list_complete"

    @property
    def total(self) -> int:
        """How many results the list block found."""
        total = self._data.get("total", 0)
        return total if isinstance(total, int) else 0

    def __repr__(self) -> str:
        return f"<QuerySummary {self.address} total={self.total}>"


def _numbered(lines: Any) -> Iterator[tuple[int | None, Any]]:
    """``QueryOutput``'s ``lines`` as (line, message) pairs, the messages left to the validator; an ``ArgumentError``
    for anything else.

    >>> list(_numbered([(3, {"type": "version"})]))
    [(3, {'type': 'version'})]
    >>> list(_numbered([{"type": "version"}]))
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: QueryOutput expects (line, message) pairs, got dict at position 0 (build one from messages with QueryOutput.from_messages)
    """
    if isinstance(lines, (str, bytes, bytearray, Mapping)) or not isinstance(lines, Iterable):
        raise ArgumentError(f"QueryOutput expects a list of (line, message) pairs, got {type(lines).__name__}")
    for position, pair in enumerate(lines):
        if not isinstance(pair, tuple) or len(pair) != 2:
            found = f"a tuple of {len(pair)} items" if isinstance(pair, tuple) else type(pair).__name__
            raise ArgumentError(f"QueryOutput expects (line, message) pairs, got {found} at position {position} "
                                "(build one from messages with QueryOutput.from_messages)")
        line = pair[0]
        if line is not None and (not isinstance(line, int) or isinstance(line, bool)):
            raise ArgumentError(f"QueryOutput: a line number must be an int or None, got {type(line).__name__} at "
                                f"position {position}")
        yield pair


@public("plancheck.querycheck")
class QueryOutput:
    """The output of ``terraform query -json``, validated and typed.

    Build one with :func:`load_query` (a path, file object or bytes: JSON lines),
    :meth:`QueryOutput.from_json` (text) or :meth:`QueryOutput.from_messages` (parsed messages).

    >>> out = QueryOutput.from_json('''
    ... {"@level":"info","@message":"Terraform 1.14.0","type":"version","terraform":"1.14.0","ui":"1.2"}
    ... {"@level":"info","@message":"list.concept_pet.pets: Result found","type":"list_resource_found","list_resource_found":{"address":"list.concept_pet.pets","display_name":"This is a able-werewolf","identity":{"id":"able-werewolf","legs":5},"identity_version":1,"resource_type":"concept_pet"}}
    ... {"@level":"info","@message":"list.concept_pet.pets: List complete","type":"list_complete","list_complete":{"address":"list.concept_pet.pets","resource_type":"concept_pet","total":1}}
    ... ''')
    >>> out.terraform_version, [r.display_name for r in out.results], [(s.address, s.total) for s in out.summaries]
    ('1.14.0', ['This is a able-werewolf'], [('list.concept_pet.pets', 1)])

    Output in which Terraform reported an error (a ``diagnostic`` message at ``"@level": "error"``)
    holds only what the list blocks found before it, so it is refused, naming the error's summary
    (scrubbed) and line, unless ``allow_errored=True``; such output is then :attr:`partial`.

    >>> lines = [(1, {"type": "diagnostic", "@level": "error", "@message": "Error: Invalid list block",
    ...     "diagnostic": {"severity": "error", "summary": "Invalid list block"}})]
    >>> QueryOutput(lines, source="q.jsonl")
    Traceback (most recent call last):
    ...
    plancheck.querycheck.ErroredQueryError: q.jsonl: line 1: $.diagnostic: expected a query that succeeded, found an error: "Invalid list block": the query failed, so its results are partial (to check them anyway: allow_errored=True)
    >>> partial = QueryOutput(lines, allow_errored=True)
    >>> partial.partial, partial.partial_note == QUERY_PARTIAL_NOTE
    (True, True)
    """

    __slots__ = ("__dict__", "lines", "partial", "partial_note", "source")
    lines: tuple[QueryLine, ...]
    source: str | None
    partial: bool
    """True for output holding an error diagnostic, loaded with ``allow_errored=True``: its results are partial."""
    partial_note: str | None
    """What every verdict on this output says about it: :data:`QUERY_PARTIAL_NOTE` when :attr:`partial`, else None."""

    def __init__(self, lines: Iterable[QueryLine], *, source: str | None = None, allow_errored: bool = False) -> None:
        # Validated as the loaders validate, so a hand-built output that is no query output is a typed error here,
        # not a bare one from a property later; the loaders, which validated already, come in through _setup.
        if not isinstance(allow_errored, bool):
            raise ArgumentError(f"QueryOutput: allow_errored must be a bool, got {type(allow_errored).__name__}")
        self._setup(validate_messages(_numbered(lines), source=source), source, allow_errored)

    def _setup(self, lines: Iterable[QueryLine], source: str | None, allow_errored: bool) -> QueryOutput:
        """Build the output from ``lines`` already validated: every loader's route, ``cls.__new__(cls)._setup(...)``."""
        self.lines = tuple(lines)
        self.source = source
        # The one place errored output is refused: every loader builds a QueryOutput here.
        error = first_error(self.lines)
        self.partial = error is not None
        self.partial_note = QUERY_PARTIAL_NOTE if self.partial else None
        if error is not None and not allow_errored:
            raise ErroredQueryError(self._error_summary(error[1]), source=source, line=error[0])
        if met_module.LISTENERS:  # a front end listening scrubs the secrets of every document made while it writes
            met_module.met(self)
        return self

    def _error_summary(self, message: Mapping[str, Any]) -> str:
        """The error diagnostic's summary (else its ``@message``), scrubbed of the output's secrets."""
        diagnostic = message.get("diagnostic")
        summary = diagnostic.get("summary") if isinstance(diagnostic, Mapping) else None
        if not isinstance(summary, str) or not summary:
            summary = message.get("@message")
        if not isinstance(summary, str) or not summary:
            return "(no summary)"
        return self.secrets.scrub(summary)

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def from_json(
        cls,
        text: str | bytes,
        *,
        source: str | None = None,
        validation: str = "fast",
        parser: str = "auto",
        allow_errored: bool = False,
    ) -> QueryOutput:
        """Parse and validate JSON lines from text (str or bytes).

        >>> QueryOutput.from_json('{"type": "list_complete", "list_complete": {"address": "list.a.b", "total": "2"}}')
        Traceback (most recent call last):
        ...
        plancheck.querycheck.QueryFormatError: line 1: $.list_complete.total: expected a result count (an integer), found a string
        """
        if not isinstance(text, (str, bytes, bytearray)):
            raise ArgumentError(f"QueryOutput.from_json expects str or bytes, got {type(text).__name__}")
        data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
        try:
            lines, _ = read_query(data, validation=validation, parser=parser)
        except QueryFormatError as exc:
            raise exc.with_source(source) from None
        return cls._loaded(lines, source, allow_errored)

    @classmethod
    def from_messages(
        cls,
        messages: Iterable[Mapping[str, Any]],
        *,
        source: str | None = None,
        validation: str = "fast",
        allow_errored: bool = False,
    ) -> QueryOutput:
        """Validate already parsed messages (one per line, in order; not copied, never modified).

        An error names the message's position (from 1) as its line.

        >>> QueryOutput.from_messages([{"type": "list_complete", "list_complete": {"address": "list.a.b", "total": 0}}]).summaries
        (<QuerySummary list.a.b total=0>,)
        """
        if isinstance(messages, (str, bytes, Mapping)) or not isinstance(messages, Iterable):
            raise ArgumentError(f"QueryOutput.from_messages expects a list of messages (dicts), got {type(messages).__name__}")
        lines = validate_messages(enumerate(messages, 1), source=source, validation=validation)
        return cls._loaded(lines, source, allow_errored)

    @classmethod
    def _loaded(cls, lines: Iterable[QueryLine], source: str | None, allow_errored: bool) -> QueryOutput:
        """A loader's output from the ``lines`` it validated (not validated again)."""
        if not isinstance(allow_errored, bool):
            raise ArgumentError(f"QueryOutput: allow_errored must be a bool, got {type(allow_errored).__name__}")
        return cls.__new__(cls)._setup(lines, source, allow_errored)

    # -- messages ----------------------------------------------------------------------------

    @property
    def messages(self) -> tuple[Mapping[str, Any], ...]:
        """Every message, in order."""
        return tuple(message for _, message in self.lines)

    def _of_type(self, kind: str) -> Iterator[tuple[int | None, Mapping[str, Any]]]:
        return ((line, message) for line, message in self.lines if message.get("type") == kind)

    @cached_property
    def results(self) -> tuple[QueryResult, ...]:
        """Every ``list_resource_found`` message, in order."""
        return tuple(QueryResult(message, line) for line, message in self._of_type("list_resource_found"))

    @cached_property
    def summaries(self) -> tuple[QuerySummary, ...]:
        """Every ``list_complete`` message, in order: one per list block."""
        return tuple(QuerySummary(message, line) for line, message in self._of_type("list_complete"))

    @cached_property
    def starts(self) -> tuple[QueryStart, ...]:
        """Every ``list_start`` message, in order."""
        return tuple(QueryStart(message, line) for line, message in self._of_type("list_start"))

    @property
    def diagnostics(self) -> tuple[Mapping[str, Any], ...]:
        """The ``diagnostic`` objects of the ``diagnostic`` messages, in order."""
        return tuple(m.get("diagnostic") or _EMPTY for _, m in self._of_type("diagnostic"))

    def results_for(self, address: str) -> tuple[QueryResult, ...]:
        """The results of the list block at ``address`` (with or without the ``list.`` prefix).

        >>> QueryOutput.from_messages([{"type": "list_resource_found", "list_resource_found": {"address": "list.a.b"}}]
        ...     ).results_for("a.b")
        (<QueryResult list.a.b line=1>,)
        """
        if not isinstance(address, str):
            raise ArgumentError(f"QueryOutput.results_for expects a list block's address (str), got {type(address).__name__}")
        wanted = list_block_address(address)
        return tuple(r for r in self.results if list_block_address(r.address) == wanted)

    @property
    def terraform_version(self) -> str | None:
        """The Terraform version of the ``version`` message, if there is one."""
        for _, message in self._of_type("version"):
            version = message.get("terraform")
            return version if isinstance(version, str) else None
        return None

    # -- secrets -----------------------------------------------------------------------------

    @cached_property
    def secrets(self) -> Secrets:
        """The strings of every sensitive input config attribute, to scrub from messages.

        >>> out = QueryOutput.from_messages([{"type": "list_start", "list_start": {"address": "list.a.b",
        ...     "input_config": {"foo": "test-instance"}, "sensitive_attribute_paths": [".foo"]}}])
        >>> out.secrets.scrub("found test-instance")
        'found (sensitive)'
        """
        return Secrets(text for start in self.starts for text in start.secret_strings())

    def __len__(self) -> int:
        return len(self.lines)

    def __repr__(self) -> str:
        src = f" {self.source}" if self.source else ""
        return f"<QueryOutput{src} messages={len(self.lines)} results={len(self.results)}>"


@public("plancheck.querycheck")
def load_query(
    source: Any,
    *,
    validation: str = "fast",
    parser: str = "auto",
    max_bytes: int | None = None,
    allow_errored: bool = False,
) -> QueryOutput:
    """Load ``terraform query -json`` output from a path (``"-"``: stdin), a file object, bytes, or a list of parsed messages.

    As for ``load_plan``, a ``str`` is a path (use :meth:`QueryOutput.from_json` for text). Output
    holding an error diagnostic is refused (:class:`ErroredQueryError`) unless ``allow_errored=True``.

    >>> out = load_query(b'{"type":"list_complete","list_complete":{"address":"list.concept_pet.pets","total":5}}\\n')
    >>> out.summaries[0].total
    5
    """
    if isinstance(source, Sequence) and not isinstance(source, (str, bytes, bytearray, memoryview)):
        return QueryOutput.from_messages(source, validation=validation, allow_errored=allow_errored)
    lines, name = read_query(source, validation=validation, parser=parser, max_bytes=max_bytes)
    return QueryOutput._loaded(lines, name, allow_errored)
