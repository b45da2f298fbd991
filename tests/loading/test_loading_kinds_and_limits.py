"""A state is not a plan, a plan is not a state; and no input is read past the size limit."""

from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from loading_support import ROUTES, corpus_files, load_fully, needs_corpus

from plancheck._documents.plan import Plan, load_plan
from plancheck._documents.state import State, load_state
from plancheck._errors import DocumentFormatError, PlanFormatError, StateFormatError
from plancheck._loading.source import DEFAULT_MAX_BYTES, MAX_BYTES_ENV, max_input_bytes
from plancheck.tfconfig import ConfigFormatError, load_config

_STATE_NOT_PLAN = (
    '$: expected a plan (terraform show -json PLANFILE), found a state (a top-level "values" and none of a '
    "plan's keys): this is a state, not a plan (use load_state)"
)


def _plan_not_state(key: str) -> str:
    return (
        "$: expected a state (terraform show -json, or terraform show -json STATEFILE), found a plan "
        f'(a top-level "{key}" and no "values"): this is a plan, not a state (use load_plan)'
    )


STATE = {"format_version": "1.0", "terraform_version": "1.9.0", "values": {"root_module": {"resources": []}}}
PLAN = {"format_version": "1.2", "planned_values": {}, "resource_changes": [], "applyable": False}


@pytest.mark.parametrize(
    "document",
    [
        pytest.param(STATE, id="state"),
        pytest.param({"format_version": "1.0", "values": {}}, id="empty-values"),
        pytest.param({"values": {}, "format_version": "1.0", "checks": []}, id="with-checks"),
        pytest.param({"format_version": "2.0", "values": {}}, id="state-of-another-format"),
    ],
)
@pytest.mark.parametrize("validation", ["fast", "full"])
@pytest.mark.parametrize("route_name", list(ROUTES))
def test_a_state_is_not_a_plan(route_name: str, validation: str, document: dict[str, Any]) -> None:
    got = load_fully(route_name, json.dumps(document).encode(), validation)
    assert isinstance(got, PlanFormatError), got
    assert str(got) == f"plan.json: {_STATE_NOT_PLAN}"


@pytest.mark.parametrize(
    ("document", "key"),
    [
        pytest.param(PLAN, "planned_values", id="plan"),
        pytest.param({"format_version": "1.2", "resource_changes": []}, "resource_changes", id="resource-changes"),
        pytest.param({"format_version": "0.1", "prior_state": {}}, "prior_state", id="prior-state"),
        pytest.param({"format_version": "1.2", "applyable": True, "complete": True}, "applyable", id="flags"),
    ],
)
@pytest.mark.parametrize("validation", ["fast", "full"])
@pytest.mark.parametrize("parser", ["stdlib", "fast"])
def test_a_plan_is_not_a_state(parser: str, validation: str, document: dict[str, Any], key: str) -> None:
    from loading_support import route

    with route(parser) as name, pytest.raises(StateFormatError) as caught:
        State.from_json(json.dumps(document), source="state.json", validation=validation, parser=name)
    assert str(caught.value) == f"state.json: {_plan_not_state(key)}"
    with pytest.raises(StateFormatError, match=r"this is a plan, not a state \(use load_plan\)$"):
        State.from_dict(document)


#: A terraform.tfstate as Terraform writes it (state format version 4), as newcomers pass it for show -json's.
RAW_STATE = {"version": 4, "terraform_version": "1.11.4", "serial": 3, "lineage": "5e1c0b7a-1f3e-8d52-0c2b-9a4e61f2d3c7",
             "outputs": {}, "resources": [], "check_results": None}
#: The command spelt out, redirection too (not "get its JSON", which a hurried reader took for a JSON to write by
#: hand), and where it runs: show -json needs the providers terraform init installs.
_RAW_STATE_WORDS = (
    '$.format_version: expected a "format_version" key (a terraform show -json plan or state), found a Terraform '
    "state file (terraform.tfstate's own format, with \"serial\" and \"lineage\"), which plancheck's loaders do not "
    "read: write its JSON with terraform show -json STATEFILE > state.json in the configuration's directory, after "
    "terraform init (a plan's: terraform show -json PLANFILE > plan.json)"
)


@pytest.mark.parametrize("validation", ["fast", "full"])
@pytest.mark.parametrize("route_name", list(ROUTES))
def test_a_raw_state_file_read_as_a_plan_says_where_to_get_its_json(route_name: str, validation: str) -> None:
    got = load_fully(route_name, json.dumps(RAW_STATE).encode(), validation)
    assert isinstance(got, PlanFormatError), got
    assert str(got) == f"plan.json: {_RAW_STATE_WORDS}"


@pytest.mark.parametrize("validation", ["fast", "full"])
def test_a_raw_state_file_read_as_a_state_says_where_to_get_its_json(tmp_path: Path, validation: str) -> None:
    path = tmp_path / "terraform.tfstate"
    path.write_text(json.dumps(RAW_STATE), encoding="utf-8")
    with pytest.raises(StateFormatError) as caught:
        load_state(path, validation=validation)
    assert str(caught.value) == f"{path}: {_RAW_STATE_WORDS}"


@pytest.mark.parametrize(
    "document",
    [{"format_version": "1.0"}, {"format_version": "1.0", "terraform_version": "1.9.0"}],
    ids=["format-version-only", "with-terraform-version"],
)
def test_a_document_that_can_be_either_loads_as_both(document: dict[str, Any]) -> None:
    assert Plan.from_dict(document).resource_changes == ()
    assert State.from_dict(document).resources == ()


def test_a_plan_s_prior_state_is_a_state() -> None:
    prior = {"format_version": "1.0", "values": {"root_module": {"resources": [{"address": "a.b"}]}}}
    plan = Plan.from_dict({"format_version": "1.2", "prior_state": prior})
    assert State.from_dict(plan.raw["prior_state"]).resource("a.b").address == "a.b"


@needs_corpus
@pytest.mark.parametrize("path", corpus_files("states"), ids=[p.stem for p in corpus_files("states")])
def test_every_corpus_state_is_refused_as_a_plan(path: Path) -> None:
    document = json.loads(path.read_bytes())
    if "values" not in document:  # an empty state (format_version only) is both
        Plan.from_dict(document)
        return
    with pytest.raises(PlanFormatError) as caught:
        load_plan(path)
    assert str(caught.value) == f"{path}: {_STATE_NOT_PLAN}"


@needs_corpus
@pytest.mark.parametrize("path", corpus_files("plans"), ids=[p.stem for p in corpus_files("plans")])
def test_every_corpus_plan_is_refused_as_a_state(path: Path) -> None:
    with pytest.raises(StateFormatError, match=r"this is a plan, not a state \(use load_plan\)$"):
        load_state(path)


# -- the size limit ----------------------------------------------------------------------------------


def _too_big(what: str, limit: int) -> str:
    return (
        f"$: expected a {what} of at most {limit} bytes (raise the limit with max_bytes= or PLANCHECK_MAX_BYTES), "
        f"found more than {limit} bytes"
    )


class Endless(io.RawIOBase):
    """A stream that never ends (like /dev/zero through a pipe); counts what was read from it."""

    def __init__(self) -> None:
        self.served = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer)
        view[:] = b" " * len(view)
        self.served += len(view)
        return len(view)


class EndlessText(io.TextIOBase):
    def __init__(self) -> None:
        self.served = 0

    def read(self, size: int | None = -1) -> str:
        if size is None or size < 0:
            raise AssertionError("an endless stream must not be read whole")
        self.served += size
        return " " * size


LIMIT = 1 << 16
LOADERS: dict[str, tuple[Callable[..., Any], type[DocumentFormatError], str]] = {
    "plan": (load_plan, PlanFormatError, "plan"),
    "state": (load_state, StateFormatError, "state"),
}


@pytest.mark.parametrize("kind", list(LOADERS))
@pytest.mark.parametrize(
    "stream",
    [Endless, lambda: io.BufferedReader(Endless()), EndlessText],
    ids=["raw-stream", "buffered-stream", "text-stream"],
)
def test_an_endless_stream_stops_at_the_limit(kind: str, stream: Callable[[], Any]) -> None:
    loader, error, what = LOADERS[kind]
    source = stream()
    with pytest.raises(error) as caught:
        loader(source, max_bytes=LIMIT)
    assert str(caught.value) == _too_big(what, LIMIT)
    raw = getattr(source, "raw", source)
    assert raw.served <= LIMIT + (1 << 20) + io.DEFAULT_BUFFER_SIZE  # the limit and one chunk, never more


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
@pytest.mark.parametrize("kind", list(LOADERS))
def test_dev_zero_stops_at_the_limit(kind: str) -> None:
    loader, error, what = LOADERS[kind]
    with pytest.raises(error) as caught:
        loader("/dev/zero", max_bytes=LIMIT)
    assert str(caught.value) == f"/dev/zero: {_too_big(what, LIMIT)}"


@pytest.mark.parametrize("kind", list(LOADERS))
def test_a_file_over_the_default_limit_is_refused_before_it_is_read(
    tmp_path: Path, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sparse 8 GiB file: reading it would take minutes and 8 GiB; its size alone refuses it."""
    loader, error, what = LOADERS[kind]
    monkeypatch.delenv(MAX_BYTES_ENV, raising=False)
    path = tmp_path / "huge.json"
    with path.open("wb") as f:
        f.truncate(8 << 30)
    with pytest.raises(error) as caught:
        loader(path)
    assert str(caught.value) == f"{path}: {_too_big(what, DEFAULT_MAX_BYTES)}"


@pytest.mark.parametrize("kind", list(LOADERS))
@pytest.mark.parametrize(("extra", "fits"), [(0, True), (1, False)], ids=["exactly-the-limit", "one-byte-more"])
def test_the_limit_is_inclusive(tmp_path: Path, kind: str, extra: int, fits: bool) -> None:
    loader, error, _ = LOADERS[kind]
    document = json.dumps(PLAN if kind == "plan" else STATE).encode()
    path = tmp_path / "doc.json"
    path.write_bytes(document)
    sources = [lambda: path, lambda: io.BytesIO(document), lambda: io.StringIO(document.decode())]
    for make in sources:
        if fits:
            assert loader(make(), max_bytes=len(document) - extra).format_version
        else:
            with pytest.raises(error, match="found more than"):
                loader(make(), max_bytes=len(document) - extra)


@pytest.mark.parametrize("kind", list(LOADERS))
def test_standard_input_is_limited_too(monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    loader, error, what = LOADERS[kind]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(Endless())))
    with pytest.raises(error) as caught:
        loader("-", max_bytes=LIMIT)
    assert str(caught.value) == f"<stdin>: {_too_big(what, LIMIT)}"


def test_the_environment_sets_the_default(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(MAX_BYTES_ENV, "64")
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(PLAN), encoding="utf-8")
    with pytest.raises(PlanFormatError) as caught:
        load_plan(path)
    assert str(caught.value) == f"{path}: {_too_big('plan', 64)}"
    assert load_plan(path, max_bytes=1 << 20).format_version == "1.2"  # the argument wins
    assert load_plan(json.dumps(PLAN).encode()).format_version == "1.2"  # bytes in memory are not read


@pytest.mark.parametrize(
    ("env", "argument", "message"),
    [
        (None, 0, "max_bytes must be a positive number of bytes, got 0"),
        (None, -5, "max_bytes must be a positive number of bytes, got -5"),
        (None, True, "max_bytes must be a positive number of bytes, got True"),
        ("lots", None, "PLANCHECK_MAX_BYTES must be a positive number of bytes, got 'lots'"),
        ("0", None, "PLANCHECK_MAX_BYTES must be a positive number of bytes, got '0'"),
    ],
    ids=["zero", "negative", "bool", "env-not-a-number", "env-zero"],
)
def test_a_bad_limit_is_refused(
    monkeypatch: pytest.MonkeyPatch, env: str | None, argument: Any, message: str
) -> None:
    if env is not None:
        monkeypatch.setenv(MAX_BYTES_ENV, env)
    with pytest.raises(ValueError) as caught:
        load_plan(io.BytesIO(b"{}"), max_bytes=argument)
    assert str(caught.value) == message


def test_the_default_is_2_gib(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(MAX_BYTES_ENV, raising=False)
    assert max_input_bytes() == DEFAULT_MAX_BYTES == 2 * 1024**3


def test_a_config_file_or_directory_is_limited(tmp_path: Path) -> None:
    path = tmp_path / "main.tf.json"
    path.write_text('{"locals": {"a": "%s"}}' % ("x" * 200), encoding="utf-8")
    with pytest.raises(ConfigFormatError) as caught:
        load_config(path, max_bytes=100)
    assert str(caught.value) == f"{path}: {_too_big('configuration file', 100)}"
    with pytest.raises(ConfigFormatError) as in_directory:
        load_config(tmp_path, max_bytes=100)
    assert str(in_directory.value) == str(caught.value)
    assert load_config(tmp_path, max_bytes=1000).locals["a"] == "x" * 200


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_a_config_read_from_a_named_pipe_is_limited(tmp_path: Path) -> None:
    import threading

    fifo = tmp_path / "endless.tf.json"
    os.mkfifo(fifo)
    stop = threading.Event()

    def write() -> None:
        try:
            with open(fifo, "wb") as pipe:
                while not stop.is_set():
                    pipe.write(b" " * 65536)
        except (BrokenPipeError, OSError):
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        with pytest.raises(ConfigFormatError, match=r"found more than 100000 bytes$"):
            load_config(fifo, max_bytes=100_000)
    finally:
        stop.set()
        writer.join(timeout=5)
