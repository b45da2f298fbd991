"""An optional text field of a document entry reads as its type says, ``str | None``, whatever a malformed entry
holds there: the plan's resource changes and action invocations, the query messages, a leftover's manifest. A loaded
document is validated first, and so is a view built by hand (tests/test_view_constructors.py); a plan built without
validation (a subclass's, a pickle's: tests/unvalidated.py) hands out views of whatever it holds."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from unvalidated import unvalidated_plan

from plancheck.acceptance import Leftover
from plancheck.querycheck import QueryResult


def _change(field: str, value: Any) -> Any:
    entry = {"address": "a.b", "change": {"actions": ["create"]}, field: value}
    return getattr(unvalidated_plan({"format_version": "1.2", "resource_changes": [entry]}).resource_changes[0], field)


def _invocation(field: str, value: Any) -> Any:
    entry = {"address": "action.t.n", field: value}
    return getattr(unvalidated_plan({"format_version": "1.2", "action_invocations": [entry]}).action_invocations[0], field)


def _result(field: str, value: Any) -> Any:
    return getattr(QueryResult({"list_resource_found": {"address": "list.a.b", field: value}}), field)


def _leftover(field: str, value: Any) -> Any:
    return getattr(Leftover(Path("/l/x"), {field: value}), field)


Read = Callable[[str, Any], Any]

FIELDS = [
    pytest.param(_change, "previous_address", id="resource-change-previous-address"),
    pytest.param(_change, "module_address", id="resource-change-module-address"),
    pytest.param(_change, "action_reason", id="resource-change-action-reason"),
    pytest.param(_change, "deposed", id="resource-change-deposed"),
    pytest.param(_invocation, "type", id="action-invocation-type"),
    pytest.param(_result, "resource_type", id="query-result-resource-type"),
    pytest.param(_result, "config", id="query-result-config"),
    pytest.param(_result, "import_config", id="query-result-import-config"),
    pytest.param(_leftover, "test", id="leftover-test"),
    pytest.param(_leftover, "base_dir", id="leftover-base-dir"),
]


@pytest.mark.parametrize(("read", "field"), FIELDS)
@pytest.mark.parametrize("value", [7, True, ["x"], {"k": "v"}], ids=["int", "bool", "list", "object"])
def test_a_field_that_holds_no_text_reads_as_none(read: Read, field: str, value: Any) -> None:
    assert read(field, value) is None


@pytest.mark.parametrize(("read", "field"), FIELDS)
def test_a_field_that_holds_text_reads_as_it(read: Read, field: str) -> None:
    assert read(field, "some-text") == "some-text"


def test_a_leftover_with_an_empty_test_name_is_unnamed() -> None:
    # The runner already logged it as "an unnamed test"; an empty base_dir was never a directory either.
    assert Leftover(Path("/l/x"), {"test": "", "base_dir": ""}).test is None
