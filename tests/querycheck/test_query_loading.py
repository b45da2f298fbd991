"""Loading ``terraform query -json`` output: typed messages, exact numbers, located errors, secrets.

The documents are hand-built in Terraform 1.14's shape (see ``query_support``).
"""

from __future__ import annotations

import copy
import io
import json
import pickle
from decimal import Decimal
from pathlib import Path as FsPath
from typing import Any

import pytest
from query_support import MESSAGES, VERSION, complete, found, jsonl

from plancheck import ArgumentError, DocumentFormatError, TfCheckError, querycheck
from plancheck.querycheck import QueryFormatError, QueryOutput, load_query


@pytest.fixture(scope="module")
def output() -> QueryOutput:
    return load_query(jsonl(MESSAGES))


def test_messages_are_typed(output: QueryOutput) -> None:
    assert output.terraform_version == "1.14.0"
    assert len(output) == len(MESSAGES)
    assert [(s.address, s.total, s.line) for s in output.summaries] == [
        ("list.concept_pet.pets", 3, 6), ("list.concept_pet.more_pets", 1, 9),
        ("list.test_instance.example", 2, 13), ("list.test_instance.bare", 1, 16),
        ("list.test_instance.none", 0, 18),
    ]
    first = output.results[0]
    assert (first.address, first.display_name, first.identity, first.identity_version, first.resource_type, first.line) == (
        "list.concept_pet.pets", "This is a fluffy-otter", {"id": "fluffy-otter", "legs": 4}, 1, "concept_pet", 3)
    assert [r.display_name for r in output.results_for("test_instance.example")] == ["Test Instance 1", "Test Instance 2"]
    assert output.results_for("list.test_instance.example") == output.results_for("test_instance.example")
    assert output.starts[2].sensitive_attribute_paths == (".foo",)
    assert output.results_for("test_instance.bare")[0].resource_object is None


def test_numbers_are_exact(output: QueryOutput) -> None:
    size = output.results_for("test_instance.example")[0].resource_object
    assert size is not None
    assert size["size"] == Decimal("1.5")
    assert isinstance(size["size"], Decimal)


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("bytes", id="bytes"),
        pytest.param("path", id="path"),
        pytest.param("stream", id="stream"),
        pytest.param("text", id="from_json-text"),
        pytest.param("messages", id="parsed-messages"),
    ],
)
def test_every_door_gives_the_same_output(source: str, tmp_path: FsPath) -> None:
    data = jsonl(MESSAGES)
    if source == "bytes":
        loaded = load_query(data)
    elif source == "path":
        (tmp_path / "query.jsonl").write_bytes(data)
        loaded = load_query(str(tmp_path / "query.jsonl"))
        assert loaded.source == str(tmp_path / "query.jsonl")
    elif source == "stream":
        loaded = load_query(io.BytesIO(data))
    elif source == "text":
        loaded = QueryOutput.from_json(data.decode())
    else:
        loaded = load_query(json.loads("[" + ",".join(data.decode().splitlines()) + "]"))
    assert loaded.messages == tuple(MESSAGES)
    assert [r.line for r in loaded.results] == [3, 4, 5, 8, 11, 12, 15]


def test_blank_lines_and_crlf_are_fine() -> None:
    text = "\r\n\r\n".join(json.dumps(m) for m in [VERSION, complete("list.a.b", "a", 0)]) + "\r\n"
    loaded = QueryOutput.from_json(text)
    assert [s.line for s in loaded.summaries] == [3]


def test_nothing_passed_in_is_modified() -> None:
    messages = copy.deepcopy(MESSAGES)
    QueryOutput.from_messages(messages)
    assert messages == MESSAGES


def _bad(line: dict[str, Any] | str) -> bytes:
    text = line if isinstance(line, str) else json.dumps(line)
    return jsonl([VERSION])[:-1] + b"\n" + text.encode() + b"\n"


BAD = [
    pytest.param('{"type": "log"', "line 2: $: expected valid JSON, found invalid JSON: Expecting ',' delimiter at column 15",
                 id="truncated-line"),
    pytest.param("[1, 2]", "line 2: $: expected a terraform query -json message (a JSON object), found an array of 2 elements",
                 id="not-an-object"),
    pytest.param('{"type": NaN}', "line 2: $: expected valid JSON, found NaN, which is not JSON", id="nan"),
    pytest.param({"@level": "info"}, 'line 2: $.type: expected a message type string, found no "type" key', id="no-type"),
    pytest.param({"type": "list_resource_found"},
                 'line 2: $.list_resource_found: expected a list_resource_found object (the message\'s type is '
                 'list_resource_found), found no "list_resource_found" key', id="no-body"),
    pytest.param({"type": "list_resource_found", "list_resource_found": {"display_name": "x"}},
                 'line 2: $.list_resource_found.address: expected a list block address string, found no "address" key',
                 id="no-address"),
    pytest.param({"type": "list_resource_found", "list_resource_found": {"address": "list.a.b", "identity": ["x"]}},
                 "line 2: $.list_resource_found.identity: expected a resource identity object or null, found an array "
                 "of 1 element", id="identity-array"),
    pytest.param({"type": "list_resource_found", "list_resource_found": {"address": "list.a.b", "identity_version": 1.5}},
                 "line 2: $.list_resource_found.identity_version: expected an identity schema version (an integer), "
                 "found a number", id="identity-version-fraction"),
    pytest.param({"type": "list_resource_found", "list_resource_found": {"address": "list.a.b", "display_name": 7}},
                 "line 2: $.list_resource_found.display_name: expected a display name string, found a number",
                 id="display-name-number"),
    pytest.param({"type": "list_complete", "list_complete": {"address": "list.a.b", "total": "3"}},
                 "line 2: $.list_complete.total: expected a result count (an integer), found a string", id="total-string"),
    pytest.param({"type": "list_complete", "list_complete": {"address": "list.a.b"}},
                 'line 2: $.list_complete.total: expected a result count (an integer), found no "total" key', id="no-total"),
    # Terraform writes the length of the list's results (Go's int, data.LengthInt()): never below 0.
    pytest.param({"type": "list_complete", "list_complete": {"address": "list.a.b", "total": -1}},
                 "line 2: $.list_complete.total: expected a result count (an integer), found the number -1",
                 id="total-negative"),
    pytest.param({"type": "list_start", "list_start": {"address": "list.a.b", "sensitive_attribute_paths": [1]}},
                 "line 2: $.list_start.sensitive_attribute_paths[0]: expected an attribute path string, found a number",
                 id="sensitive-path-number"),
]


@pytest.mark.parametrize(("line", "message"), BAD)
@pytest.mark.parametrize("validation", ["fast", "full"])
@pytest.mark.parametrize("parser", ["stdlib", "fast"])
def test_malformed_lines_are_located_errors(line: dict[str, Any] | str, message: str, validation: str, parser: str) -> None:
    with pytest.raises(QueryFormatError) as info:
        load_query(_bad(line), validation=validation, parser=parser)
    assert str(info.value) == message
    assert info.value.line == 2
    assert isinstance(info.value, DocumentFormatError)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, TfCheckError)
    assert str(pickle.loads(pickle.dumps(info.value))) == message


def test_a_file_error_names_the_file(tmp_path: FsPath) -> None:
    path = tmp_path / "q.jsonl"
    path.write_bytes(_bad({"type": 3}))
    with pytest.raises(QueryFormatError) as info:
        load_query(str(path))
    assert str(info.value) == f"{path}: line 2: $.type: expected a message type string, found a number"
    missing = tmp_path / "nope.jsonl"
    with pytest.raises(QueryFormatError, match=r"^.*nope\.jsonl: \$: expected a readable query output file"):
        load_query(str(missing))


def test_parsed_messages_are_validated_by_position() -> None:
    with pytest.raises(QueryFormatError) as info:
        QueryOutput.from_messages([VERSION, {"type": "list_complete", "list_complete": {"address": 1, "total": 0}}])
    assert str(info.value) == "line 2: $.list_complete.address: expected a list block address string, found a number"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        pytest.param(lambda: QueryOutput.from_json({"type": "x"}), "QueryOutput.from_json expects str or bytes, got dict", id="from_json-dict"),
        pytest.param(lambda: QueryOutput.from_messages("{}"), "QueryOutput.from_messages expects a list of messages (dicts), got str",
                     id="from_messages-str"),
        pytest.param(lambda: load_query({"type": "version"}),
                     "load_query expects a path, file object or bytes (use QueryOutput.from_messages for parsed messages)",
                     id="load-dict"),
        pytest.param(lambda: load_query(3), "load_query expects a path, file object, bytes or dict, got int", id="load-int"),
    ],
)
def test_wrong_argument_types(call: Any, message: str) -> None:
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value) == message


# QueryOutput(lines) took its lines as validated: anything else was a bare TypeError or ValueError from inside (an
# int: "'int' object is not iterable"; a message without its line: "not enough values to unpack"), or an output no
# loader accepts, met later by a property or a check. Now the constructor validates as the loaders do.
CONSTRUCTOR_MISUSES = [
    pytest.param(5, ArgumentError, "QueryOutput expects a list of (line, message) pairs, got int", id="an-int"),
    pytest.param(None, ArgumentError, "QueryOutput expects a list of (line, message) pairs, got NoneType", id="none"),
    pytest.param(jsonl(MESSAGES).decode(), ArgumentError, "QueryOutput expects a list of (line, message) pairs, got str",
                 id="json-lines-text"),
    pytest.param(VERSION, ArgumentError, "QueryOutput expects a list of (line, message) pairs, got dict", id="one-message"),
    pytest.param([VERSION], ArgumentError, "QueryOutput expects (line, message) pairs, got dict at position 0 (build one "
                 "from messages with QueryOutput.from_messages)", id="messages-without-lines"),
    pytest.param([(1, VERSION), (2,)], ArgumentError, "QueryOutput expects (line, message) pairs, got a tuple of 1 items "
                 "at position 1 (build one from messages with QueryOutput.from_messages)", id="a-pair-too-short"),
    pytest.param([("1", VERSION)], ArgumentError, "QueryOutput: a line number must be an int or None, got str at "
                 "position 0", id="line-a-string"),
    pytest.param([(1, VERSION), (2, 5)], QueryFormatError, "line 2: $: expected a terraform query -json message (a JSON "
                 "object), found a number", id="message-a-number"),
    pytest.param([(3, {"type": "list_complete", "list_complete": {"address": 1, "total": 0}})], QueryFormatError,
                 "line 3: $.list_complete.address: expected a list block address string, found a number",
                 id="message-malformed"),
    pytest.param([(4, {"type": "list_resource_found"})], QueryFormatError, "line 4: $.list_resource_found: expected a "
                 'list_resource_found object (the message\'s type is list_resource_found), found no "list_resource_found" key',
                 id="message-without-its-object"),
]  # fmt: skip


@pytest.mark.parametrize(("lines", "error", "message"), CONSTRUCTOR_MISUSES)
def test_the_constructor_validates_as_the_loaders_do(lines: Any, error: type[Exception], message: str) -> None:
    before = copy.deepcopy(lines)
    with pytest.raises(error) as info:
        QueryOutput(lines)
    assert (type(info.value), str(info.value)) == (error, message)
    assert lines == before


def test_too_large_input_is_refused() -> None:
    with pytest.raises(QueryFormatError, match=r"expected a query output of at most 64 bytes"):
        load_query(io.BytesIO(jsonl(MESSAGES)), max_bytes=64)


def test_unknown_message_types_and_keys_pass() -> None:
    loaded = QueryOutput.from_messages([
        {"type": "log", "@message": "hello"},
        {"type": "diagnostic", "diagnostic": {"severity": "error", "summary": "config is not known", "detail": ""}},
        {"type": "something_new", "something_new": [1]},
        found("list.a.b", "a", "x", {"id": "1"}, future_key=True),
    ], allow_errored=True)  # the error diagnostic alone would refuse it (test_errored_query)
    assert loaded.diagnostics == ({"severity": "error", "summary": "config is not known", "detail": ""},)
    assert len(loaded.results) == 1


def test_sensitive_input_config_strings_are_secrets(output: QueryOutput) -> None:
    assert output.secrets.scrub("team tok-83kq9") == "team (sensitive)"
    assert output.secrets.scrub("ami-12345") == "ami-12345"


@pytest.mark.parametrize(
    ("paths", "config", "secret", "public"),
    [
        pytest.param(['.tags["secret"]'], {"tags": {"env": "prod", "secret": "hidden-1"}}, "hidden-1", "prod", id="map-key"),
        pytest.param([".list[1]"], {"list": ["one-public", "two-secret"]}, "two-secret", "one-public", id="list-index"),
        pytest.param([".config_block.token"], {"config_block": {"token": "abc-token"}, "n": "n-public"}, "abc-token", "n-public",
                     id="nested-block"),
        pytest.param(["not a path"], {"a": "aaa-secret"}, "aaa-secret", "", id="unreadable-path-fails-closed"),
        pytest.param([".missing"], {"a": "aaa-public"}, "", "aaa-public", id="absent-path"),
    ],
)
def test_sensitive_attribute_paths(paths: list[str], config: dict[str, Any], secret: str, public: str) -> None:
    loaded = QueryOutput.from_messages([{"type": "list_start", "list_start": {
        "address": "list.a.b", "input_config": config, "sensitive_attribute_paths": paths}}])
    if secret:
        assert loaded.secrets.scrub(secret) == "(sensitive)"
    if public:
        assert loaded.secrets.scrub(public) == public


def test_reprs_show_no_values(output: QueryOutput) -> None:
    assert repr(output) == f"<QueryOutput messages={len(MESSAGES)} results=7>"
    assert repr(output.summaries[0]) == "<QuerySummary list.concept_pet.pets total=3>"
    assert repr(output.results_for("test_instance.example")[0]) == "<QueryResult list.test_instance.example line=11>"
    assert repr(output.starts[2]) == "<QueryStart list.test_instance.example>"


def test_the_package_exports_the_loader() -> None:
    assert querycheck.load_query is load_query
    assert QueryFormatError.__module__ == "plancheck.querycheck"


KEY = "zzq-secret-key-91"  # a key of a map a list block's sensitive_attribute_paths mark, or a secret spelt as a key
SENSITIVE_START = ('{"type": "list_start", "list_start": {"address": "list.a.b", "input_config": {"pw": "' + KEY + '"}, '
                   '"sensitive_attribute_paths": [".pw"]}}')
REPEATED = {
    "a repeated key of a map the list block marks": (
        '{"type": "list_start", "list_start": {"address": "list.a.b", "input_config": {"m": {"' + KEY + '": 1, "' + KEY
        + '": 2}}, "sensitive_attribute_paths": [".m"]}}',
        '$.list_start.input_config.m["(sensitive)"]: expected each key once'),
    "a repeated key spelling another message's secret": (
        SENSITIVE_START + '\n{"type": "list_resource_found", "list_resource_found": {"address": "list.a.b", "identity": '
        '{"' + KEY + '": 1, "' + KEY + '": 2}}}',
        '$.list_resource_found.identity["(sensitive)"]: expected each key once'),
    "a number beyond Decimal under a key spelling another message's secret": (
        SENSITIVE_START + '\n{"type": "list_resource_found", "list_resource_found": {"address": "list.a.b", "identity": '
        '{"' + KEY + '": 1e999999999999999999999}}}',
        '$.list_resource_found.identity["(sensitive)"]: expected a number that Python'),
    # Not over-hidden: a key that spells no secret says where.
    "a repeated key that spells no secret": (
        SENSITIVE_START + '\n{"type": "list_resource_found", "list_resource_found": {"address": "list.a.b", "identity": '
        '{"id": 1, "id": 2}}}',
        "line 2: $.list_resource_found.identity.id: expected each key once"),
}


@pytest.mark.parametrize("parser", ["stdlib", "fast"])
@pytest.mark.parametrize(("text", "message"), REPEATED.values(), ids=REPEATED.keys())
def test_a_broken_lines_location_hides_the_outputs_secrets(text: str, message: str, parser: str) -> None:
    """A line broken inside a value is parsed alone, but its location hides a key that is a secret of the whole output
    (the one rule): a key of a map a list block's sensitive_attribute_paths mark, a key spelling another line's."""
    with pytest.raises(QueryFormatError) as info:
        load_query(text.encode() + b"\n", parser=parser)
    assert message in str(info.value)
    assert KEY not in str(info.value) + repr(info.value)
