"""``TestCase(initial_state=...)``: what is accepted, every refusal located, secrets found, nothing mutated."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest

from plancheck.acceptance import TestCase, TestDefinitionError, TestStep

PROVIDER = 'provider["registry.terraform.io/hashicorp/null"]'


def state(**changes: Any) -> dict[str, Any]:
    document: dict[str, Any] = {
        "version": 4, "terraform_version": "1.0.3", "serial": 3, "lineage": "2f9d-lineage",
        "outputs": {"pw": {"value": "output-secret-1", "type": "string", "sensitive": True},
                    "open": {"value": "shown", "type": "string"}},
        "resources": [
            {"mode": "managed", "type": "null_resource", "name": "a", "provider": PROVIDER, "instances": [
                {"index_key": 0, "schema_version": 0, "attributes": {"id": "1", "triggers": {"k": "attr-secret-2"}},
                 "sensitive_attributes": [[{"type": "get_attr", "value": "triggers"},
                                           {"type": "index", "value": {"value": "k", "type": "string"}}]]},
                {"index_key": 1, "schema_version": 0, "attributes": {"id": "2", "triggers": None}}]},
            {"module": 'module.m["x"]', "mode": "data", "type": "null_data_source", "name": "d", "provider": PROVIDER,
             "instances": [{"schema_version": 0, "attributes": {"outputs": {"v": "odd-mark-secret-3"}},
                            "sensitive_attributes": [[{"type": "weird"}]]}]},
        ],
    }
    document.update(changes)
    return document


def case(initial: Any) -> TestCase:
    return TestCase(steps=[TestStep(config="")], initial_state=initial)


def test_a_dict_is_read_located_and_not_mutated() -> None:
    given = state()
    kept = copy.deepcopy(given)
    made = case(given)
    assert given == kept
    assert made.initial_state.addresses == (
        "null_resource.a[0]", "null_resource.a[1]", 'module.m["x"].data.null_data_source.d')
    # A sensitive output, a marked attribute, and (fail closed) everything under a mark this reader cannot follow.
    assert set(made.secrets) >= {"output-secret-1", "attr-secret-2", "odd-mark-secret-3"}
    assert "shown" not in made.secrets


def test_a_path_is_written_back_byte_for_byte(tmp_path: Path) -> None:
    text = json.dumps(state(), indent=1) + "\n"
    path = tmp_path / "old.tfstate"
    path.write_text(text)
    assert case(path).initial_state.text() == text
    assert case(str(path)).initial_state.text() == text


BAD: list[tuple[str, Any, str]] = [
    ("not-a-dict", [1], "TestCase.initial_state: expected a state file's path or the state as a dict, got list"),
    ("show-json-output", {"format_version": "1.0", "values": {}},
     'TestCase.initial_state: not a Terraform state: it has no "version" (this looks like `terraform show -json` '
     "output; give the state file itself, e.g. from `terraform state pull`)"),
    ("no-version", {"resources": []}, 'TestCase.initial_state: not a Terraform state: it has no "version"'),
    ("version-3", state(version=3), 'TestCase.initial_state["version"]: state format version 3 is written by '
     "Terraform 0.11 and older, which no supported Terraform reads; upgrade it with Terraform 0.12 to 0.14 first "
     "(format 4)"),
    ("version-5", state(version=5), 'TestCase.initial_state["version"]: unsupported state format version 5 (expected 4)'),
    ("version-string", state(version="4"),
     'TestCase.initial_state["version"]: expected the state format version 4, got a string'),
    ("serial-negative", state(serial=-1), 'TestCase.initial_state["serial"]: expected an integer >= 0, got -1'),
    ("serial-bool", state(serial=True), 'TestCase.initial_state["serial"]: expected an integer >= 0, got a bool'),
    ("lineage-missing", {k: v for k, v in state().items() if k != "lineage"},
     'TestCase.initial_state: missing "lineage" (a string)'),
    ("resources-object", state(resources={}), 'TestCase.initial_state["resources"]: expected an array, got an object'),
    ("resource-mode", state(resources=[{"mode": "resource", "type": "t", "name": "n", "provider": "p", "instances": []}]),
     'TestCase.initial_state["resources"][0]["mode"]: expected "managed" or "data", got "resource"'),
    ("resource-name-empty", state(resources=[{"mode": "managed", "type": "t", "name": "", "provider": "p",
                                              "instances": []}]),
     'TestCase.initial_state["resources"][0]["name"]: expected a non-empty string, got ""'),
    ("instance-no-schema-version", state(resources=[{"mode": "managed", "type": "t", "name": "n", "provider": "p",
                                                     "instances": [{"attributes": {}}]}]),
     'TestCase.initial_state["resources"][0]["instances"][0]: missing "schema_version" (the resource\'s schema '
     "version, an integer >= 0)"),
    ("instance-no-attributes", state(resources=[{"mode": "managed", "type": "t", "name": "n", "provider": "p",
                                                 "instances": [{"schema_version": 0}]}]),
     'TestCase.initial_state["resources"][0]["instances"][0]: missing "attributes"'),
    ("instance-key-float", state(resources=[{"mode": "managed", "type": "t", "name": "n", "provider": "p",
                                             "instances": [{"schema_version": 0, "attributes": {}, "index_key": 1.5}]}]),
     'TestCase.initial_state["resources"][0]["instances"][0]["index_key"]: expected a count index or a for_each key, '
     "got a number"),
    ("output-without-value", state(outputs={"o": {"type": "string"}}),
     'TestCase.initial_state["outputs"]["o"]: missing "value"'),
    ("not-json-able", {"version": 4, "x": {1, 2}},
     "TestCase.initial_state: expected a JSON document: Object of type set is not JSON serializable"),
    # A name no system call takes: open() refused it with a bare ValueError / UnicodeEncodeError, not an OSError.
    ("path-with-nul", "state\0.tfstate",
     "TestCase.initial_state: state\0.tfstate: cannot read the state: a name the system cannot open (embedded null byte)"),
    ("path-with-lone-surrogate", "\ud800.tfstate",
     "TestCase.initial_state: \ud800.tfstate: cannot read the state: a name the system cannot open ('utf-8' codec "
     "can't encode character '\\ud800' in position 0: surrogates not allowed)"),
]


@pytest.mark.parametrize(("given", "message"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_refusals_are_located(given: Any, message: str) -> None:
    with pytest.raises(TestDefinitionError) as info:
        case(given)
    assert str(info.value) == message


FILES = [
    ("missing", None, "cannot read the state: No such file or directory"),
    ("not-json", b"{not json", ": not JSON: $: expected valid JSON, found invalid JSON: Expecting property name enclosed in double quotes at line 1 column 2"),
    ("not-utf8", b"\xff\xfe\x00", "cannot read the state: not UTF-8 text"),
]


@pytest.mark.parametrize(("content", "message"), [f[1:] for f in FILES], ids=[f[0] for f in FILES])
def test_file_refusals_name_the_file(tmp_path: Path, content: bytes | None, message: str) -> None:
    path = tmp_path / "state.tfstate"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(TestDefinitionError) as info:
        case(path)
    assert str(info.value).startswith(f"TestCase.initial_state: {path}")
    assert message in str(info.value)


def test_a_file_over_the_size_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "big.tfstate"
    path.write_text(json.dumps(state()))
    monkeypatch.setenv("PLANCHECK_MAX_BYTES", "64")
    with pytest.raises(TestDefinitionError, match=r"expected a state file of at most 64 bytes .* found more than 64"):
        case(path)


# -- red team (#25): every secret of a recorded state is found, whatever its shape; odd files refused ---------


def instance_state(attributes: dict[str, Any], marks: Any) -> dict[str, Any]:
    return state(outputs={}, resources=[{"mode": "managed", "type": "t", "name": "n", "provider": PROVIDER,
                                         "instances": [{"schema_version": 0, "attributes": attributes,
                                                        "sensitive_attributes": marks}]}])


def get_attr(name: str) -> dict[str, Any]:
    return {"type": "get_attr", "value": name}


def index(value: Any, kind: Any = "number") -> dict[str, Any]:
    return {"type": "index", "value": {"value": value, "type": kind}}


SECRET_SHAPES: list[Any] = [
    # Marks that do not fit the value fail closed: what the path reached is secret, never nothing.
    pytest.param({"l": ["list-secret-1"], "o": "open-value"}, [[get_attr("l"), index(True)]], {"list-secret-1"},
                 id="index-a-bool"),
    pytest.param({"l": ["list-secret-2"], "o": "open-value"}, [[get_attr("l"), index(0.0)]], {"list-secret-2"},
                 id="index-a-float"),
    pytest.param({"s": [{"pw": "set-secret-3"}], "o": "open-value"},
                 [[get_attr("s"), index({"pw": "set-secret-3"}, ["object", {"pw": "string"}]), get_attr("pw")]],
                 {"set-secret-3", "pw"}, id="index-a-set-element"),
    pytest.param({"l": ["attr-of-list-4"], "o": "open-value"}, [[get_attr("l"), get_attr("pw")]], {"attr-of-list-4"},
                 id="attribute-of-a-list"),
    pytest.param({"m": {"k": "map-secret-5"}, "o": "open-value"}, [[get_attr("m"), index(0)]], {"map-secret-5", "k"},
                 id="number-key-of-a-map"),
    pytest.param({"pw": "zero-marks-6", "o": "open-value"}, 0, {"zero-marks-6", "open-value", "pw", "o"},
                 id="marks-a-zero"),
    pytest.param({"pw": "empty-obj-7", "o": "open-value"}, {}, {"empty-obj-7", "open-value", "pw", "o"},
                 id="marks-an-empty-object"),
    # Still exact where the marks fit.
    pytest.param({"l": ["a-open", "list-secret-8"], "o": "open-value"}, [[get_attr("l"), index(1)]],
                 {"list-secret-8"}, id="fitting-index"),
    pytest.param({"l": ["a-open"], "o": "open-value"}, [[get_attr("l"), index(5)]], set(), id="index-beyond-the-end"),
]


@pytest.mark.parametrize(("attributes", "marks", "expected"), SECRET_SHAPES)
def test_marks_that_do_not_fit_fail_closed(attributes: dict[str, Any], marks: Any, expected: set[str]) -> None:
    """Red team (#25): a step the reader could not follow (an index that is a bool, a float or a set element,
    an attribute of a list) made the mark cover nothing, so its value was no secret."""
    assert set(case(instance_state(attributes, marks)).secrets) == expected


def test_numbers_with_a_fraction_read_from_a_file_are_secrets(tmp_path: Path) -> None:
    """Red team (#25): the exact loader reads 1234.5678 as a Decimal, which the secret collector skipped: a
    sensitive number of a recorded state (an attribute, an output) was shown wherever Terraform echoed it."""
    path = tmp_path / "old.tfstate"
    path.write_text(
        '{"version": 4, "terraform_version": "1.0.3", "serial": 1, "lineage": "x",'
        ' "outputs": {"o": {"value": 98765.4321, "type": "number", "sensitive": true},'
        '             "p": {"value": 1.5e3, "type": "number", "sensitive": true},'
        '             "q": {"value": 111.25, "type": "number", "sensitive": "true"}},'
        ' "resources": [{"mode": "managed", "type": "t", "name": "n", "provider": "p", "instances":'
        ' [{"schema_version": 0, "attributes": {"pin": 1234.5678, "open": 2.5},'
        '   "sensitive_attributes": [[{"type": "get_attr", "value": "pin"}]]}]}]}'
    )
    # 1.5e3 is read as Decimal("1.5E+3"): shown as Terraform prints it (1500) and as Python str() does (1.5E+3).
    assert sorted(case(path).secrets) == ["1.5E+3", "111.25", "1234.5678", "1500", "98765.4321"]


def test_a_dicts_float_secrets_are_found() -> None:
    given = instance_state({"pin": 1234.5678}, [[get_attr("pin")]])
    assert case(given).secrets == ["1234.5678"]


NUMBERS_FROM_FILES = [
    ("version-4.0", '"version": 4.0', 'TestCase.initial_state["version"]: expected the state format version 4, got a number'),
    ("serial-1.5", '"serial": 1.5', 'TestCase.initial_state["serial"]: expected an integer >= 0, got a number'),
]


@pytest.mark.parametrize(("replacement", "message"), [n[1:] for n in NUMBERS_FROM_FILES], ids=[n[0] for n in NUMBERS_FROM_FILES])
def test_a_decimal_is_called_a_number(tmp_path: Path, replacement: str, message: str) -> None:
    """Red team (#25): a number with a fraction (a Decimal from the exact loader) was called 'an object'."""
    text = json.dumps(state()).replace('"version": 4', '"version": 4' if "version" not in replacement else replacement)
    text = text.replace('"serial": 3', replacement if "serial" in replacement else '"serial": 3')
    path = tmp_path / "odd.tfstate"
    path.write_text(text)
    with pytest.raises(TestDefinitionError) as info:
        case(path)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("make", "what"),
    [
        pytest.param(lambda p: os.mkfifo(p), "not a regular file", id="fifo"),
        pytest.param(lambda p: p.mkdir(), "Is a directory", id="directory"),
        pytest.param(lambda p: (p.parent / "real").mkdir() or p.symlink_to(p.parent / "real"), "Is a directory",
                     id="symlink-to-a-directory"),
    ],
)
def test_a_path_that_is_no_regular_file_is_refused_at_once(tmp_path: Path, make: Any, what: str) -> None:
    """Red team (#25): a FIFO given as the state blocked the test's definition forever (open() waited for a writer)."""
    path = tmp_path / "state.tfstate"
    make(path)
    with pytest.raises(TestDefinitionError) as info:
        case(path)
    assert str(info.value) == f"TestCase.initial_state: {path}: cannot read the state: {what}"
