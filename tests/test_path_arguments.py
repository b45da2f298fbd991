"""A public function given something that is no path (an int, None where a path is required, bytes) raises a
TypeError naming the function and what it got: never os.fspath's or pathlib's own "expected str, bytes or
os.PathLike object, not int", which names no function of ours (the red-team pass of the error promise)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import plancheck
import plancheck.querycheck
from plancheck import acceptance, load_plan_file
from plancheck.tfconfig import load_config_for_test

ROWS: list[Any] = [
    pytest.param(lambda: acceptance.find_leftovers(7), "find_leftovers expects a path (str or PathLike), got int",
                 id="find_leftovers-int"),
    pytest.param(lambda: acceptance.default_leftovers_dir(b"x"),  # type: ignore[arg-type]
                 "default_leftovers_dir expects a path (str or PathLike), got bytes", id="default_leftovers_dir-bytes"),
    pytest.param(lambda: acceptance.destroy_leftovers(7, log=lambda line: None),  # type: ignore[arg-type]
                 "destroy_leftovers expects a path (str or PathLike), got int", id="destroy_leftovers-int"),
    pytest.param(lambda: acceptance.destroy_leftovers("/no/such/dir", project=[], log=lambda line: None),  # type: ignore[arg-type]
                 "destroy_leftovers expects a path (str or PathLike), got list", id="destroy_leftovers-project-list"),
    pytest.param(lambda: acceptance.discover_terraform(7),  # type: ignore[arg-type]
                 "discover_terraform expects a path (str or PathLike), got int", id="discover_terraform-int"),
    pytest.param(lambda: acceptance.AcceptanceRunner(None, "/tmp"),  # type: ignore[arg-type]
                 "AcceptanceRunner expects a path (str or PathLike), got NoneType", id="runner-terraform-none"),
    pytest.param(lambda: acceptance.AcceptanceRunner(b"terraform", "/tmp"),  # type: ignore[arg-type]
                 "AcceptanceRunner expects a path (str or PathLike), got bytes", id="runner-terraform-bytes"),
    # The one mechanism's existing spellings stay as they were.
    pytest.param(lambda: load_config_for_test(42),  # type: ignore[arg-type]
                 "load_config_for_test expects a path (str or PathLike), got int", id="tfconfig-int"),
    pytest.param(lambda: load_plan_file(b"{}"),  # type: ignore[arg-type]
                 "load_plan_file expects a path (str or PathLike), got bytes", id="load_plan_file-bytes"),
]


@pytest.mark.parametrize(("call", "message"), ROWS)
def test_a_non_path_is_a_type_error_naming_the_function(call: Callable[[], object], message: str) -> None:
    with pytest.raises(TypeError) as caught:
        call()
    assert str(caught.value) == message


#: A document's text passed where its path goes: refused, and its text (secrets included) never repeated as the
#: file's name, which every other loading error puts first.
TEXT = '  {"variables": {"pw": {"value": "zz-text-secret-5q"}}}'
TEXT_ROWS: list[Any] = [
    pytest.param(lambda: plancheck.load_plan(TEXT), "PlanFormatError", "plan", "load_plan", id="load_plan"),
    pytest.param(lambda: plancheck.load_state(TEXT), "StateFormatError", "state", "load_state", id="load_state"),
    pytest.param(lambda: plancheck.querycheck.load_query(TEXT), "QueryFormatError", "query output", "load_query",
                 id="load_query"),
    pytest.param(lambda: load_plan_file("[" + TEXT), "PlanFormatError", "plan", "load_plan_file", id="load_plan_file"),
]


@pytest.mark.parametrize(("call", "error", "what", "caller"), TEXT_ROWS)
def test_json_text_for_a_path_is_refused_without_repeating_it(
    call: Callable[[], object], error: str, what: str, caller: str
) -> None:
    with pytest.raises(Exception) as caught:
        call()
    assert type(caught.value).__name__ == error
    assert str(caught.value) == (
        f"$: expected a path to a {what} file, found JSON text ({caller} reads a path, a file object or bytes: "
        "pass the text encoded, text.encode(), or use from_json)"
    )
    assert "zz-text-secret-5q" not in repr(caught.value)


def test_the_command_line_names_the_argument_as_typed(tmp_path: Any) -> None:
    # What a user typed is shown as typed (as any missing file is): the command line is no program's slip.
    import contextlib
    import io

    from plancheck.cli import main

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = main(['{"a": 1}', "--unknown", "a.b", "c"])
    assert status == 2
    assert err.getvalue() == 'tfplancheck: error: {"a": 1}: cannot read the plan: No such file or directory\n'
