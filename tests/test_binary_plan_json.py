"""A binary plan's JSON goes from ``plancheck._terraform.planfile.plan_json`` to each front end, which parses it once.

``terraform show -json`` is replaced here by a stand-in that prints a given JSON (the real one runs in
tests/plugin/test_plugin_binary_plan.py and tests/cli/test_cli_subprocess.py): what is pinned is the
route and the size limit on the shown JSON, in each front end's own words.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from plancheck import PlanFormatError
from plancheck._plugin.cache import load_plan_file
from plancheck._terraform import planfile
from plancheck.cli._io import CliError, read_plan

ZIP = b"PK\x03\x04 a saved plan"
SHOWN = b'{"format_version": "1.2", "resource_changes": []}'
LIMIT = 40  # the zip above fits, the JSON shown for it does not


@pytest.fixture
def shown(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bytes]]:
    calls: list[tuple[str, bytes]] = []

    def show(name: str, data: bytes, **_: Any) -> bytes:
        calls.append((name, data))
        return SHOWN

    monkeypatch.setattr(planfile, "binary_plan_json", show)
    return calls


def _cli(path: Path, limit: int | None) -> Any:
    return read_plan(str(path), max_bytes=limit)


def _plugin(path: Path, limit: int | None) -> Any:
    return load_plan_file(path)


FRONT_ENDS = [pytest.param(_cli, id="cli"), pytest.param(_plugin, id="plugin")]


@pytest.mark.parametrize("front_end", FRONT_ENDS)
def test_a_binary_plan_is_shown_once_and_parsed(
    tmp_path: Path, shown: list[tuple[str, bytes]], front_end: Callable[[Path, int | None], Any]
) -> None:
    path = tmp_path / "tfplan"
    path.write_bytes(ZIP)
    plan = front_end(path, None)
    assert (plan.format_version, plan.source, shown) == ("1.2", str(path), [(str(path), ZIP)])


@pytest.mark.parametrize("front_end", FRONT_ENDS)
def test_a_json_plan_is_not_shown(
    tmp_path: Path, shown: list[tuple[str, bytes]], front_end: Callable[[Path, int | None], Any]
) -> None:
    path = tmp_path / "plan.json"
    path.write_bytes(SHOWN)
    assert (front_end(path, None).format_version, shown) == ("1.2", [])


@pytest.mark.parametrize(
    ("front_end", "error", "message"),
    [
        pytest.param(_cli, CliError, "{path}: the plan is larger than 40 bytes (raise the limit with --max-bytes or "
                     "PLANCHECK_MAX_BYTES)", id="cli"),
        pytest.param(_plugin, PlanFormatError, "{path}: $: expected a plan of at most 40 bytes (raise the limit with "
                     "max_bytes= or PLANCHECK_MAX_BYTES), found more than 40 bytes", id="plugin"),
    ],
)
def test_the_shown_json_is_held_to_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shown: list[tuple[str, bytes]],
    front_end: Callable[[Path, int | None], Any], error: type[Exception], message: str,
) -> None:
    monkeypatch.setenv("PLANCHECK_MAX_BYTES", str(LIMIT))
    path = tmp_path / "tfplan"
    path.write_bytes(ZIP)
    with pytest.raises(error) as caught:
        front_end(path, LIMIT)
    assert (str(caught.value), len(shown)) == (message.format(path=path), 1)
