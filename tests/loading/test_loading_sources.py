"""load_plan and load_state read every kind of source the same way."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from plancheck._documents.plan import Plan, load_plan
from plancheck._documents.state import State, load_state
from plancheck._errors import PlanFormatError, StateFormatError

PLAN = {"format_version": "1.2", "resource_changes": [
    {"address": "null_resource.a", "change": {"actions": ["create"], "after": {"n": 1.5, "big": 2**70}}},
]}  # fmt: skip
STATE = {"format_version": "1.0", "values": {"root_module": {"resources": [
    {"address": "null_resource.a", "values": {"n": 1.5}},
]}}}  # fmt: skip

Loader = Callable[..., Any]


def _sources(tmp_path: Path, document: dict[str, Any]) -> dict[str, Callable[[], Any]]:
    text = json.dumps(document)
    path = tmp_path / "doc.json"
    path.write_text(text, encoding="utf-8")
    return {
        "str-path": lambda: str(path),
        "pathlike": lambda: path,
        "bytes": lambda: text.encode(),
        "bytearray": lambda: bytearray(text.encode()),
        "memoryview": lambda: memoryview(text.encode()),
        "binary-file": lambda: path.open("rb"),
        "text-file": lambda: path.open(encoding="utf-8"),
        "bytesio": lambda: io.BytesIO(text.encode()),
        "stringio": lambda: io.StringIO(text),
        "utf8-bom": lambda: b"\xef\xbb\xbf" + text.encode(),
        "utf16": lambda: text.encode("utf-16"),
        "dict": lambda: json.loads(text, parse_float=Decimal),
    }


SOURCE_NAMES = [
    "str-path", "pathlike", "bytes", "bytearray", "memoryview", "binary-file", "text-file", "bytesio", "stringio",
    "utf8-bom", "utf16", "dict",
]  # fmt: skip


def test_every_source_kind_is_tested(tmp_path: Path) -> None:
    assert list(_sources(tmp_path, PLAN)) == SOURCE_NAMES


@pytest.mark.parametrize("kind", SOURCE_NAMES)
def test_load_plan_reads_every_source(tmp_path: Path, kind: str) -> None:
    source = _sources(tmp_path, PLAN)[kind]()
    plan = load_plan(source)
    after = plan.resource_change("null_resource.a").change.after
    assert after == {"n": Decimal("1.5"), "big": 2**70}
    assert type(after["n"]) is Decimal
    assert type(after["big"]) is int
    if kind in ("str-path", "pathlike", "binary-file", "text-file"):
        assert plan.source == str(tmp_path / "doc.json")
    if hasattr(source, "close"):
        source.close()


@pytest.mark.parametrize("kind", SOURCE_NAMES)
def test_load_state_reads_every_source(tmp_path: Path, kind: str) -> None:
    source = _sources(tmp_path, STATE)[kind]()
    state = load_state(source)
    assert state.resource("null_resource.a").values == {"n": Decimal("1.5")}
    if hasattr(source, "close"):
        source.close()


@pytest.mark.parametrize(("loader", "error"), [(load_plan, PlanFormatError), (load_state, StateFormatError)])
def test_dash_reads_standard_input(
    monkeypatch: pytest.MonkeyPatch, loader: Loader, error: type[Exception]
) -> None:
    document = PLAN if loader is load_plan else STATE
    fake = io.TextIOWrapper(io.BytesIO(json.dumps(document).encode()))
    monkeypatch.setattr(sys, "stdin", fake)
    loaded = loader("-")
    assert loaded.source == "<stdin>"
    assert loaded.format_version == document["format_version"]


@pytest.mark.parametrize(
    ("loader", "message"),
    [
        (load_plan, "$: expected a readable plan file, found No such file or directory"),
        (load_state, "$: expected a readable state file, found No such file or directory"),
    ],
    ids=["plan", "state"],
)
def test_a_missing_file_is_a_format_error_naming_it(tmp_path: Path, loader: Loader, message: str) -> None:
    missing = tmp_path / "nope.json"
    with pytest.raises((PlanFormatError, StateFormatError)) as caught:
        loader(missing)
    assert str(caught.value) == f"{missing}: {message}"


def _loaders() -> list[Any]:
    from plancheck import load_plan_file
    from plancheck.querycheck import QueryFormatError, load_query
    from plancheck.tfconfig import ConfigFormatError, load_config

    return [
        pytest.param(load_plan, PlanFormatError, "expected a readable plan file", id="load_plan"),
        pytest.param(load_state, StateFormatError, "expected a readable state file", id="load_state"),
        pytest.param(load_plan_file, PlanFormatError, "expected a readable plan file", id="load_plan_file"),
        pytest.param(load_query, QueryFormatError, "expected a readable query output file", id="load_query"),
        pytest.param(load_config, ConfigFormatError, "expected a readable file", id="load_config"),
    ]


#: Names no system call takes: Python refuses them with a ValueError before asking the system (no OSError).
UNOPENABLE = [pytest.param("plan\x00.json", id="a NUL byte"), pytest.param(Path("plan\x00.json"), id="a NUL byte in a Path"),
              pytest.param("plan-\ud800.json", id="a lone surrogate")]


@pytest.mark.parametrize("name", UNOPENABLE)
@pytest.mark.parametrize(("loader", "error", "expected"), _loaders())
def test_a_name_the_system_cannot_open_is_the_loaders_format_error(loader: Callable[[Any], Any], error: type[Exception],
                                                                   expected: str, name: Any) -> None:
    # It was a bare ValueError ("embedded null byte") or UnicodeEncodeError from open(), not the loader's error.
    with pytest.raises(error) as caught:
        loader(name)
    assert f"$: {expected}, found " in str(caught.value)
    assert "a name the system cannot open" in str(caught.value)


def test_a_str_is_always_a_path_for_load_plan() -> None:
    # Never parsed: a str names a file. One that is no file and reads as JSON is refused as a document given for
    # its path, without repeating it (tests/test_path_arguments.py pins the whole message).
    with pytest.raises(PlanFormatError, match=r"^\$: expected a path to a plan file, found JSON text "):
        load_plan('{"format_version": "1.2"}')
    with pytest.raises(PlanFormatError, match="expected a readable plan file"):
        load_plan("format_version.json")


@pytest.mark.parametrize("loader", [load_plan, load_state], ids=["plan", "state"])
def test_unsupported_sources_are_a_type_error(loader: Loader) -> None:
    with pytest.raises(TypeError, match="expects a path, file object, bytes or dict, got int"):
        loader(42)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: Plan.from_json({"a": 1}), "Plan.from_json expects str or bytes, got dict"),  # type: ignore[arg-type]
        (lambda: State.from_json(1), "State.from_json expects str or bytes, got int"),  # type: ignore[arg-type]
        (lambda: load_plan(b"{}", validation="strict"), "validation must be one of fast, full, got 'strict'"),
        (lambda: load_state(b"{}", parser="simd"), "parser must be one of auto, stdlib, fast, got 'simd'"),
    ],
    ids=["plan-from-json-dict", "state-from-json-int", "bad-validation", "bad-parser"],
)
def test_bad_arguments_are_refused(call: Callable[[], Any], message: str) -> None:
    with pytest.raises((TypeError, ValueError)) as caught:
        call()
    assert str(caught.value) == message


def test_the_dict_given_is_neither_copied_nor_modified() -> None:
    document = json.loads(json.dumps(PLAN))
    before = json.dumps(document)
    plan = load_plan(document)
    assert plan.raw is document
    plan.resource_change("null_resource.a")
    _ = plan.secrets, plan.resource_changes, plan.output_changes
    assert json.dumps(document) == before


@pytest.mark.parametrize(
    "text",
    [
        pytest.param('\ufeff{"format_version": "1.2"}', id="str-with-bom"),
        pytest.param(b'\xef\xbb\xbf{"format_version": "1.2"}', id="bytes-with-bom"),
    ],
)
def test_a_byte_order_mark_is_read_the_same_as_str_and_bytes(text: str | bytes) -> None:
    from plancheck import Plan, State

    assert Plan.from_json(text).format_version == "1.2"
    assert State.from_json(text).format_version == "1.2"


# loads_exact hands msgspec every text, without first testing for a byte order mark or UTF-16/32: msgspec
# refuses all of them (a BOM is an invalid character to it; such JSON has a zero byte in its first two),
# so the standard library decides, as for any text msgspec refuses. If msgspec ever read one, this fails.
OTHER_ENCODINGS = ["utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"]
SHORT_TEXTS = {"number": "1", "spaced-number": " 12 ", "string": '"x"', "array": "[]", "object": '{"a": 1.5}',
               "true": "true", "null": "null"}  # fmt: skip


@pytest.mark.parametrize("name", SHORT_TEXTS)
@pytest.mark.parametrize("encoding", OTHER_ENCODINGS)
def test_msgspec_refuses_what_is_not_plain_utf8_and_the_standard_library_reads_it(encoding: str, name: str) -> None:
    msgspec = pytest.importorskip("msgspec")
    from plancheck._loading.jsontext import loads_exact

    text = SHORT_TEXTS[name]
    data = text.encode(encoding)
    with pytest.raises(msgspec.DecodeError):
        msgspec.json.decode(data)
    expected = json.loads(text, parse_float=Decimal)
    assert loads_exact(data, parser="fast") == expected
    assert loads_exact(data, parser="stdlib") == expected


@pytest.mark.parametrize("name", SHORT_TEXTS)
def test_msgspec_refuses_a_str_with_a_byte_order_mark(name: str) -> None:
    msgspec = pytest.importorskip("msgspec")

    with pytest.raises(msgspec.DecodeError):
        msgspec.json.decode("\ufeff" + SHORT_TEXTS[name])
