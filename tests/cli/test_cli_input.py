"""Reading a plan or checks file from the command line goes through the loader's reading, once."""

from __future__ import annotations

import ast
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import pytest

from plancheck import Plan, load_plan, load_plan_file
from plancheck._loading.source import read_bytes
from plancheck.cli._command import run
from plancheck.cli._io import UnreadableInput, read_input

CLI_DIR = Path(__file__).resolve().parents[2] / "plancheck" / "cli"
PLAN = json.dumps({"format_version": "1.2", "resource_changes": []}).encode()


class _Text(io.StringIO):
    """A text stream where a binary one is expected."""


class _Broken(io.RawIOBase):
    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        raise OSError(5, "Input/output error")


@pytest.mark.parametrize(
    ("name", "stdin", "limit", "message"),
    [
        pytest.param("missing.json", None, 100, "cannot read the plan: No such file or directory", id="missing-file"),
        pytest.param(".", None, 100, "cannot read the plan: Is a directory", id="directory"),
        pytest.param("plan.json", None, 10, "the plan is larger than 10 bytes (raise the limit with --max-bytes or "
                     "PLANCHECK_MAX_BYTES)", id="file-too-large"),
        pytest.param("-", io.BytesIO(b"x" * 50), 10, "the plan is larger than 10 bytes (raise the limit with "
                     "--max-bytes or PLANCHECK_MAX_BYTES)", id="stdin-too-large"),
        pytest.param("-", _Text("{}"), 10, "cannot read the plan: expected bytes, read str", id="text-stream"),
        pytest.param("-", _Broken(), 10, "cannot read the plan: Input/output error", id="failing-stream"),
        pytest.param("/dev/zero", None, 4096, "the plan is larger than 4096 bytes (raise the limit with "
                     "--max-bytes or PLANCHECK_MAX_BYTES)", id="endless-device"),
    ],
)
def test_unreadable_inputs_are_one_typed_error(
    name: str, stdin: IO[bytes] | None, limit: int, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if name == "/dev/zero" and not Path(name).exists():
        pytest.skip("no /dev/zero on this system")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plan.json").write_bytes(PLAN)
    with pytest.raises(UnreadableInput) as info:
        read_input(name, "plan", limit=limit, stdin=stdin)
    assert str(info.value) == message


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], list[tuple[Any, Any]]]:
    """The sources read (``read_bytes``, wherever it is called from) and the (bytes, source) each plan was made from."""
    reads: list[Any] = []
    made: list[tuple[Any, Any]] = []
    real_from_bytes = Plan._from_bytes

    def counting_read(source: Any, *args: Any, **kwargs: Any) -> Any:
        reads.append(source)
        return read_bytes(source, *args, **kwargs)

    def recording_from_bytes(box: list[Any], source: Any, **kwargs: Any) -> Plan:
        made.append((box[0], source))
        return real_from_bytes(box, source, **kwargs)

    monkeypatch.setattr("plancheck._loading.source.read_bytes", counting_read)
    monkeypatch.setattr("plancheck._documents.plan.read_bytes", counting_read)
    monkeypatch.setattr(Plan, "_from_bytes", staticmethod(recording_from_bytes))
    return reads, made


@pytest.mark.parametrize(
    ("name", "make_stdin"),
    [
        pytest.param("plan.json", lambda: None, id="file"),
        pytest.param("-", lambda: io.BytesIO(PLAN), id="stdin"),
    ],
)
def test_the_plan_is_read_once_by_the_loader_and_its_bytes_parsed(
    name: str,
    make_stdin: Callable[[], IO[bytes] | None],
    counted: tuple[list[Any], list[tuple[Any, Any]]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plan.json").write_bytes(PLAN)
    reads, made = counted
    out, err = io.StringIO(), io.StringIO()
    assert run([name, "--empty"], stdout=out, stderr=err, stdin=make_stdin(), environ={}) == 0, err.getvalue()
    assert len(reads) == 1
    assert [data for data, _ in made] == [PLAN]


def _calls(tree: ast.AST) -> set[str]:
    """What each call calls, as written (``open``, ``os.open``, ``stream.read``)."""
    return {ast.unparse(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}


@pytest.mark.parametrize("module", sorted(p.name for p in CLI_DIR.glob("*.py")))
def test_the_cli_does_not_read_files_or_streams_itself(module: str) -> None:
    calls = _calls(ast.parse((CLI_DIR / module).read_text("utf-8")))
    assert not {c for c in calls if c.split(".")[-1] in {"read_limited", "read", "readinto", "readline"}}, module
    assert "open" not in calls, module


@pytest.mark.parametrize(
    "front_end",
    [
        pytest.param("load_plan", id="load_plan"),
        pytest.param("load_plan_file", id="load_plan_file"),
        pytest.param("cli", id="cli"),
    ],
)
def test_every_front_end_makes_the_plan_from_its_bytes_by_one_step(
    front_end: str, counted: tuple[list[Any], list[tuple[Any, Any]]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # file -> bytes -> plan: the library and the command line share the bytes -> Plan step, each reading once.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plan.json").write_bytes(PLAN)
    reads, made = counted
    if front_end == "load_plan":
        load_plan("plan.json")
    elif front_end == "load_plan_file":
        load_plan_file("plan.json")
    else:
        err = io.StringIO()
        assert run(["plan.json", "--empty"], stdout=io.StringIO(), stderr=err, environ={}) == 0, err.getvalue()
    assert len(reads) == 1
    assert made == [(PLAN, "plan.json")]
