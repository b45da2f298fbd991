"""The command line's options in docs/reference/cli.md are what ``--help`` prints: the reference cannot go stale."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from plancheck.cli import run

PAGE = Path(__file__).resolve().parents[2] / "docs" / "reference" / "cli.md"
_HELP = re.compile(r'^```text title="(tfplancheck[^"]*--help)"\n(.*?)^```', re.S | re.M)


def _documented() -> dict[str, str]:
    return {m.group(1): m.group(2) for m in _HELP.finditer(PAGE.read_text(encoding="utf-8"))}


def _subcommands() -> list[str]:
    from plancheck.cli._command import _command_parser

    parser = _command_parser()
    actions = [a for a in parser._actions if hasattr(a, "_name_parser_map")]
    return sorted(actions[0]._name_parser_map)  # type: ignore[attr-defined]


def test_every_command_is_documented() -> None:
    assert sorted(_documented()) == sorted(["tfplancheck --help", *(f"tfplancheck {c} --help" for c in _subcommands())])


@pytest.mark.parametrize("command", sorted(_documented()))
def test_the_documented_help_is_what_the_command_prints(command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")  # argparse wraps to the terminal's width
    out, err = io.StringIO(), io.StringIO()
    assert run(command.split()[1:], stdout=out, stderr=err, environ={}) == 0
    assert _documented()[command].rstrip() == out.getvalue().rstrip(), (
        f"docs/reference/cli.md is stale for `{command}`: paste its output (COLUMNS=100)"
    )


def test_the_command_s_help_names_every_subcommand(monkeypatch: pytest.MonkeyPatch) -> None:
    # `tfplancheck --help` is where a newcomer looks: coverage and destroy-leftovers were in no line of it.
    monkeypatch.setenv("COLUMNS", "100")
    out = io.StringIO()
    assert run(["--help"], stdout=out, stderr=io.StringIO(), environ={}) == 0
    assert [c for c in _subcommands() if f"tfplancheck {c} --help" not in out.getvalue()] == []
