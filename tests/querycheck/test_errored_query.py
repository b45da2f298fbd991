"""``terraform query -json`` output that holds an error diagnostic is refused, as an errored plan is.

Terraform writes what its list blocks found before an error, then the error as a ``diagnostic``
message at ``"@level": "error"`` (``JSONView.Diagnostics``: every diagnostic that is no warning).
A query check could pass on those partial results only because what failed found nothing, so
every loader refuses such output with an :class:`ErroredQueryError` naming the first error's
summary (scrubbed) and its line, unless ``allow_errored=True`` (the plans' escape hatch).
"""

from __future__ import annotations

import io
import json
import pickle
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from query_support import VERSION, complete, found, jsonl, start

from plancheck import TfCheckError
from plancheck.querycheck import (
    ErroredQueryError,
    ExpectLength,
    ExpectLengthAtLeast,
    QueryCheckError,
    QueryCheckWarning,
    QueryFormatError,
    QueryOutput,
    assert_query,
    load_query,
)

REFUSED = (
    '$.diagnostic: expected a query that succeeded, found an error: "{summary}": the query failed, '
    "so its results are partial (to check them anyway: allow_errored=True)"
)


def _error(summary: str | None, *, level: str | None = "error", severity: str | None = "error",
           message: str | None = None) -> dict[str, Any]:
    """A diagnostic message as Terraform's JSON view writes one."""
    diagnostic: dict[str, Any] = {"detail": "The list block has no provider."}
    if severity is not None:
        diagnostic["severity"] = severity
    if summary is not None:
        diagnostic["summary"] = summary
    line: dict[str, Any] = {"@message": message if message is not None else f"Error: {summary}",
                            "@module": "terraform.ui", "type": "diagnostic", "diagnostic": diagnostic}
    if level is not None:
        line["@level"] = level
    return line


PETS = [
    VERSION,
    start("list.concept_pet.pets", "concept_pet"),
    found("list.concept_pet.pets", "concept_pet", "This is a calm-ibis", {"id": "calm-ibis", "legs": 2}),
    complete("list.concept_pet.pets", "concept_pet", 1),
]

#: Errored output: the error's line (from 1) and the summary the refusal names.
ERRORED = [
    pytest.param([*PETS, _error("Invalid list block")], 5, "Invalid list block", id="terraform-error-after-results"),
    pytest.param([VERSION, _error("Missing provider"), _error("Second error")], 2, "Missing provider",
                 id="first-of-two-errors"),
    pytest.param([*PETS, _error("Only severity", level=None)], 5, "Only severity", id="severity-without-level"),
    pytest.param([*PETS, _error("Only level", severity=None)], 5, "Only level", id="level-without-severity"),
    pytest.param([VERSION, _error(None, message="Error: from the message")], 2, "Error: from the message",
                 id="no-summary-names-the-message"),
    pytest.param([VERSION, _error("", message="")], 2, "(no summary)", id="nothing-to-name"),
    pytest.param([VERSION, _error("bell\x07\x1b[31m")], 2, "bell\\u0007\\u001b[31m", id="control-characters-escaped"),
]
#: Output that is not errored: loaded as before.
NOT_ERRORED = [
    pytest.param(PETS, id="no-diagnostic"),
    pytest.param([*PETS, _error("Deprecated", level="warn", severity="warning")], id="warning"),
    pytest.param([*PETS, {"@level": "error", "@message": "a log line", "type": "log"}], id="error-level-log-no-diagnostic"),
]


def _write(tmp_path: Path, messages: list[dict[str, Any]]) -> Path:
    path = tmp_path / "query.jsonl"
    path.write_bytes(jsonl(messages))
    return path


def _messages(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


#: Every loader, given a file named query.jsonl (or its text or messages with source= that name), and
#: whether the error names that file (bytes, streams and bare messages have no name).
LOADERS: list[Any] = [
    pytest.param(lambda p, **kw: load_query(str(p), **kw), True, id="load_query-path"),
    pytest.param(lambda p, **kw: load_query(io.BytesIO(p.read_bytes()), **kw), False, id="load_query-stream"),
    pytest.param(lambda p, **kw: load_query(p.read_bytes(), **kw), False, id="load_query-bytes"),
    pytest.param(lambda p, **kw: QueryOutput.from_json(p.read_text(), source=str(p), **kw), True, id="from_json"),
    pytest.param(lambda p, **kw: QueryOutput.from_json(p.read_bytes(), source=str(p), validation="full", **kw), True,
                 id="from_json-full-validation"),
    pytest.param(lambda p, **kw: QueryOutput.from_messages(_messages(p), source=str(p), **kw), True, id="from_messages"),
    pytest.param(lambda p, **kw: load_query(_messages(p), **kw), False, id="load_query-messages"),
    pytest.param(lambda p, **kw: QueryOutput(list(enumerate(_messages(p), 1)), source=str(p), **kw), True,
                 id="QueryOutput"),
]


@pytest.mark.parametrize(("loader", "names_file"), LOADERS)
@pytest.mark.parametrize(("messages", "line", "summary"), ERRORED)
def test_every_loader_refuses_errored_output_naming_the_first_error(
    tmp_path: Path, loader: Callable[..., QueryOutput], names_file: bool,
    messages: list[dict[str, Any]], line: int, summary: str,
) -> None:
    path = _write(tmp_path, messages)
    with pytest.raises(ErroredQueryError) as caught:
        loader(path)
    prefix = f"{path}: " if names_file else ""
    assert str(caught.value) == f"{prefix}line {line}: " + REFUSED.format(summary=summary)
    assert (caught.value.source, caught.value.line, caught.value.location) == (
        str(path) if names_file else None, line, "$.diagnostic")
    assert isinstance(caught.value, (QueryFormatError, TfCheckError, ValueError))


@pytest.mark.parametrize(("loader", "names_file"), LOADERS)
@pytest.mark.parametrize(("messages", "line", "summary"), ERRORED)
def test_every_loader_reads_errored_output_when_asked_and_marks_it_partial(
    tmp_path: Path, loader: Callable[..., QueryOutput], names_file: bool,
    messages: list[dict[str, Any]], line: int, summary: str,
) -> None:
    output = loader(_write(tmp_path, messages), allow_errored=True)
    assert (output.partial, len(output)) == (True, len(messages))


@pytest.mark.parametrize(("loader", "names_file"), LOADERS)
@pytest.mark.parametrize("messages", NOT_ERRORED)
def test_output_without_an_error_loads_as_before(
    tmp_path: Path, loader: Callable[..., QueryOutput], names_file: bool, messages: list[dict[str, Any]]
) -> None:
    output = loader(_write(tmp_path, messages))
    assert (output.partial, [r.display_name for r in output.results]) == (False, ["This is a calm-ibis"])


def test_the_checks_no_longer_pass_on_partial_results() -> None:
    """Before: ExpectLength passed on the one result found before the error."""
    messages = [*PETS, _error("Invalid list block")]
    with pytest.raises(ErroredQueryError):
        assert_query(load_query(messages), ExpectLength("concept_pet.pets", 1))
    with pytest.warns(QueryCheckWarning):
        assert_query(load_query(messages, allow_errored=True), ExpectLength("concept_pet.pets", 1))
    with pytest.raises(QueryCheckError):
        assert_query(load_query(messages, allow_errored=True), ExpectLength("concept_pet.pets", 2))


#: What a verdict on partial output ends with: the plans' note (PARTIAL_NOTE), said of a query.
NOTE = (
    "\nnote: the query output is partial: the query failed (an error diagnostic), so it holds only what the "
    "list blocks found before the error"
)
TWO_FAILED = (
    "2 query checks failed:\n"
    "  1. ExpectLength: concept_pet.pets: number of found resources 2 - expected but got 1.\n"
    "  2. ExpectLengthAtLeast: concept_pet.pets: Query result of at least length 3 - expected but got 1."
)


@pytest.mark.parametrize(
    ("allow_errored", "run", "expected"),
    [
        pytest.param(True, lambda out: assert_query(out, ExpectLength("concept_pet.pets", 2),
                                                    ExpectLengthAtLeast("concept_pet.pets", 3)),
                     TWO_FAILED + NOTE, id="assert_query-partial"),
        pytest.param(True, lambda out: ExpectLength("concept_pet.pets", 2).CheckQuery(out),
                     "ExpectLength: concept_pet.pets: number of found resources 2 - expected but got 1." + NOTE,
                     id="CheckQuery-partial"),
        pytest.param(False, lambda out: assert_query(out, ExpectLength("concept_pet.pets", 2),
                                                     ExpectLengthAtLeast("concept_pet.pets", 3)),
                     TWO_FAILED, id="assert_query-whole-output-has-no-note"),
    ],
)
def test_a_failing_check_on_partial_output_says_it_is_partial(
    allow_errored: bool, run: Callable[[QueryOutput], None], expected: str
) -> None:
    """As a plan check's verdict on an errored plan: the note after the failures, and on the error's ``note``."""
    output = load_query([*PETS, _error("Invalid list block")] if allow_errored else PETS, allow_errored=allow_errored)
    with pytest.raises(QueryCheckError) as caught:
        run(output)
    assert (str(caught.value), caught.value.note) == (expected, output.partial_note)
    assert (output.partial_note is None) is not allow_errored


def test_a_pass_on_partial_output_warns_that_it_is_partial() -> None:
    """As assert_plan on a partial plan: never a silent pass (the check passes on the one result found)."""
    output = load_query([*PETS, _error("Invalid list block")], allow_errored=True)
    with pytest.warns(QueryCheckWarning) as seen:
        assert_query(output, ExpectLength("concept_pet.pets", 1))
    assert [(str(w.message), w.category) for w in seen] == [(f"assert_query: {NOTE.removeprefix(chr(10) + 'note: ')}",
                                                             QueryCheckWarning)]
    assert seen[0].filename == __file__  # located at the caller's line, not in the library
    assert pickle.loads(pickle.dumps(seen[0].message)).record == seen[0].message.record  # type: ignore[union-attr]


def test_a_pass_on_whole_output_says_nothing() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_query(load_query(PETS), ExpectLength("concept_pet.pets", 1))


SECRET = "tok-83kq9-hunter2"


def test_a_secret_the_error_quotes_is_scrubbed_everywhere() -> None:
    messages = [
        VERSION,
        start("list.test_instance.example", "test_instance", {"ami": "ami-12345", "foo": SECRET}, [".foo"]),
        _error(f'Invalid value "{SECRET}" for foo'),
    ]
    with pytest.raises(ErroredQueryError) as caught:
        load_query(messages)
    error = caught.value
    assert str(error) == "line 3: " + REFUSED.format(summary=r'Invalid value \"(sensitive)\" for foo')
    copy = pickle.loads(pickle.dumps(error))
    shown = [str(error), repr(error), error.summary, str(copy), repr(copy), *map(str, error.args)]
    assert [text for text in shown if SECRET in text or "hunter2" in text] == []


@pytest.mark.parametrize(
    ("value", "message"),
    [
        pytest.param(1, "QueryOutput: allow_errored must be a bool, got int", id="int"),
        pytest.param("yes", "QueryOutput: allow_errored must be a bool, got str", id="str"),
        pytest.param(None, "QueryOutput: allow_errored must be a bool, got NoneType", id="None"),
    ],
)
def test_allow_errored_must_be_a_bool(value: object, message: str) -> None:
    with pytest.raises(TypeError) as caught:
        load_query([_error("x")], allow_errored=value)
    assert str(caught.value) == message


def test_the_error_pickles_as_its_fields() -> None:
    error = ErroredQueryError("Invalid list block", source="q.jsonl", line=4)
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), str(copy), copy.source, copy.line, copy.summary) == (
        ErroredQueryError, str(error), "q.jsonl", 4, "Invalid list block")


def test_nothing_passed_in_is_modified() -> None:
    messages = [*PETS, _error("Invalid list block")]
    before = json.dumps(messages, sort_keys=True)
    with pytest.raises(ErroredQueryError):
        QueryOutput.from_messages(messages)
    QueryOutput.from_messages(messages, allow_errored=True)
    assert json.dumps(messages, sort_keys=True) == before
