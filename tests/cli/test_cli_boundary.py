"""Issue #33: the command line's one error boundary. Whatever a subcommand did not foresee (a bug, ``sys.exit()``
deep inside, an exception whose ``str()`` raises) is exit 2 and one line naming the command, scrubbed of the
secrets of the plans it read, never a traceback; Ctrl-C is 130."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path
from typing import Any

import pytest
from test_cli_main import PASSING_TOML, PLAN, SECRET, VALIDATOR

from plancheck.cli import _command, main, run


class _Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text for you")


def _raising(error: BaseException) -> Any:
    def raise_it(*args: Any, **kwargs: Any) -> Any:
        raise error

    return raise_it


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plan.json").write_text(json.dumps(PLAN), "utf-8")
    (tmp_path / "pass.toml").write_text(PASSING_TOML, "utf-8")
    (tmp_path / "module").mkdir()
    return tmp_path


_BUG = " (a bug: please report it)"
_WITHHELD = " (its message is withheld: the secrets it may show could not be listed)"

#: (argv, the function made to raise, what it raises, the one line on stderr after "tfplancheck: error: ").
SUBCOMMANDS = [
    pytest.param(["plan.json", "-c", "pass.toml"], "plancheck.cli._checksfile.run_checks", ZeroDivisionError("division by zero"),
                 "tfplancheck: unexpected error: ZeroDivisionError: division by zero" + _BUG, id="checks"),
    pytest.param(["--list-checks"], "plancheck.cli._command._list_checks", SystemExit(3),
                 "tfplancheck: unexpected error: SystemExit: 3" + _BUG, id="list-checks-sys-exit"),
    pytest.param(["query", "plan.json"], "plancheck.cli._query.list_document", ValueError(f"near {SECRET}\nand on"),
                 "query: unexpected error: ValueError: near (sensitive) and on" + _BUG, id="query-scrubbed-one-line"),
    pytest.param(["query", "plan.json", "null_resource.app"], "plancheck.cli._query.value_document", _Unprintable(),
                 "query: unexpected error: _Unprintable" + _BUG, id="query-str-raises"),
    pytest.param(["snapshot", "plan.json", "plan.snap"], "plancheck.cli._command.run_snapshot", KeyError("k"),
                 "snapshot: unexpected error: KeyError: 'k'" + _BUG, id="snapshot"),
    pytest.param(["mock-plan", "module", "--mock", "acme/cloud=s.json"], "plancheck.cli._mock_plan.mock_plan",
                 OSError(5, "Input/output error"), "mock-plan: unexpected error: OSError" + _WITHHELD + _BUG,
                 id="mock-plan-withheld"),
    pytest.param(["providers", "mirror", "out"], "plancheck.cli._providers.providers_command", RecursionError("deep"),
                 "providers: unexpected error: RecursionError: deep" + _BUG, id="providers"),
    pytest.param(["destroy-leftovers", "left"], "plancheck.cli._command.destroy_leftovers_command",
                 AttributeError("'NoneType' object has no attribute 'x'"),
                 "destroy-leftovers: unexpected error: AttributeError" + _WITHHELD + _BUG, id="destroy-leftovers-withheld"),
]


@pytest.mark.parametrize(("argv", "target", "error", "line"), SUBCOMMANDS)
def test_an_unexpected_error_is_one_line_and_status_2(
    files: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str], target: str, error: BaseException, line: str,
) -> None:
    monkeypatch.setattr(target, _raising(error))
    out, err = io.StringIO(), io.StringIO()
    assert run(argv, stdout=out, stderr=err, environ={"PATH": ""}) == 2
    assert err.getvalue() == f"tfplancheck: error: {line}\n"
    assert SECRET not in out.getvalue() + err.getvalue()


def test_an_unexpected_error_in_json_mode_is_one_error_document(files: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("plancheck.cli._query.list_document", _raising(ValueError(SECRET)))
    out, err = io.StringIO(), io.StringIO()
    assert run(["query", "plan.json", "--format", "json"], stdout=out, stderr=err, environ={"PATH": ""}) == 2
    document = json.loads(out.getvalue())
    VALIDATOR.validate(document)
    assert (document["ok"], document["error"]) == (False, {
        "kind": "internal", "message": "query: unexpected error: ValueError: (sensitive)" + _BUG})
    assert SECRET not in out.getvalue() + err.getvalue()


def test_secrets_that_cannot_be_listed_withhold_the_message(files: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The boundary's line is worded withheld, and the stream (the same Io, the same secrets) withholds it too."""
    monkeypatch.setattr("plancheck.cli._query.list_document", _raising(ValueError(SECRET)))
    monkeypatch.setattr("plancheck.cli._io.Io.secrets", _raising(TypeError("resources is not a list")))
    out, err = io.StringIO(), io.StringIO()
    assert run(["query", "plan.json"], stdout=out, stderr=err, environ={"PATH": ""}) == 2
    assert err.getvalue() == "tfplancheck: output withheld: its secrets could not be listed (TypeError)\n"
    assert SECRET not in out.getvalue() + err.getvalue()


def test_the_boundary_line_withholds_what_it_cannot_scrub() -> None:
    line = _command._unexpected(["query", "plan.json"], ValueError(SECRET), lambda text: None)
    assert line == "query: unexpected error: ValueError" + _WITHHELD + _BUG


def test_the_boundary_line_is_scrubbed_of_every_secret_the_command_heard() -> None:
    """One record of what a command read (Io.heard): a secret heard only as found (a snapshot file's value in clear,
    no plan's) is scrubbed from the boundary's own line, not only by the stream after it."""
    from plancheck import Secrets
    from plancheck.cli._io import Io

    cli = Io(io.StringIO(), io.StringIO(), None, {})
    cli.heard(Secrets([SECRET]))
    line = _command._unexpected(["snapshot", "plan.json"], KeyError(SECRET), cli.scrubbed)
    assert line == "snapshot: unexpected error: KeyError: '(sensitive)'" + _BUG


def test_one_mechanism_records_what_a_command_read() -> None:
    import importlib.util

    assert importlib.util.find_spec("plancheck.cli._boundary") is None


def test_ctrl_c_is_status_130_without_a_traceback(
    files: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr("plancheck.cli._query.list_document", _raising(KeyboardInterrupt()))
    assert main(["query", "plan.json"]) == 130
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err


def test_the_boundary_names_every_subcommand() -> None:
    parser = _command._command_parser()
    made = {name for action in parser._actions if isinstance(action, argparse._SubParsersAction) for name in action.choices}
    assert made == _command._COMMANDS == {"query", "mock-plan", "destroy-leftovers", "snapshot", "providers", "coverage"}


@pytest.mark.parametrize(("argv", "message"), [
    # A str was iterated as its characters: "the plan n is named twice".
    pytest.param("plan.json", "run() argv must be a list of str (the arguments after tfplancheck), got str", id="str"),
    pytest.param(None, "run() argv must be a list of str (the arguments after tfplancheck), got NoneType", id="none"),
    # An item that is no str was "unexpected error: TypeError: 'int' object is not subscriptable (a bug: ...)".
    pytest.param(["plan.json", 5], "run() argv[1] must be a str, got int", id="int-item"),
    pytest.param([b"plan.json"], "run() argv[0] must be a str, got bytes", id="bytes-item"),
])
def test_an_argv_that_is_no_list_of_str_is_a_type_error(files: Path, argv: Any, message: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(TypeError) as caught:
        run(argv, stdout=out, stderr=err)
    assert str(caught.value) == message
    assert (out.getvalue(), err.getvalue()) == ("", "")
