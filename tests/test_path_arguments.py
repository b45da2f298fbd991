"""A public function given something that is no path (an int, None where a path is required, bytes) raises a
TypeError naming the function and what it got: never os.fspath's or pathlib's own "expected str, bytes or
os.PathLike object, not int", which names no function of ours (the red-team pass of the error promise)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

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
