"""A schema error never quotes a secret of the document that failed to load (docs/guides/secrets.md).

A hand-edited plan or state may hold a secret where the schema wants a fixed word (an action, the format
version): the error's found part, which quotes such a value, shows ``(sensitive)`` there, on every route;
a value that is no secret is quoted as before.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from loading_support import ROUTES, load_by, route

from plancheck import DocumentFormatError, PlanFormatError, State, StateFormatError
from plancheck._errors import DocumentFormatError as _Base
from plancheck._loading.validate import Violation, load_schema, render_violation

SECRET = "hunter2-pw-xyz"
_ACTION = 'an action: one of "no-op", "create", "read", "update", "delete", "forget"'
_VERSION = "a plan format version 0.x or 1.x (plancheck reads terraform show -json plans of major format version 0 and 1)"
_SENSITIVE_VAR = {
    "variables": {"pw": {"value": SECRET}},
    "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}},
}


def _plan(**members: Any) -> bytes:
    return json.dumps({"format_version": "1.2", **members}).encode()


def _rc(actions: list[Any], **change: Any) -> dict[str, Any]:
    return {"address": "aws_thing.a", "mode": "managed", "type": "aws_thing", "name": "a",
            "change": {"actions": actions, "before": None, "after": {}, **change}}  # fmt: skip


PLAN_CASES = [
    pytest.param(
        _plan(resource_changes=[_rc([SECRET])], **_SENSITIVE_VAR),
        f"$.resource_changes[0].change.actions[0]: expected {_ACTION}, found (sensitive)",
        id="sensitive-variable-value-as-action",
    ),
    pytest.param(
        _plan(resource_changes=[_rc([SECRET], after={"pw": SECRET}, after_sensitive={"pw": True})]),
        f"$.resource_changes[0].change.actions[0]: expected {_ACTION}, found (sensitive)",
        id="marked-value-as-its-own-action",
    ),
    pytest.param(
        _plan(resource_changes=[_rc(["create"], after={"pw": SECRET}, after_sensitive={"pw": True}),
                                {**_rc([f"x{SECRET}x"]), "address": "aws_thing.b", "name": "b"}]),
        f"$.resource_changes[1].change.actions[0]: expected {_ACTION}, found (sensitive)",
        id="another-changes-marked-value-inside-an-action",
    ),
    pytest.param(
        json.dumps({"format_version": SECRET, **_SENSITIVE_VAR}).encode(),
        f"$.format_version: expected {_VERSION}, found (sensitive)",
        id="sensitive-variable-value-as-format-version",
    ),
    pytest.param(
        _plan(resource_changes=[_rc([SECRET], after={"pw": SECRET}, after_sensitive={"pw": [True]})]),
        f"$.resource_changes[0].change.actions[0]: expected {_ACTION}, found (sensitive)",
        id="malformed-marks-fail-closed",
    ),
    pytest.param(
        _plan(resource_changes=[_rc(["nop"], after={"pw": SECRET}, after_sensitive={"pw": True})]),
        f'$.resource_changes[0].change.actions[0]: expected {_ACTION}, found the string "nop"',
        id="no-secret-quoted-as-before",
    ),
    pytest.param(
        json.dumps({"format_version": "9.0", **_SENSITIVE_VAR}).encode(),
        f'$.format_version: expected {_VERSION}, found the string "9.0"',
        id="version-no-secret-quoted-as-before",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("data", "message"), PLAN_CASES)
@pytest.mark.parametrize("validation", ["fast", "full"])
@pytest.mark.parametrize("route_name", list(ROUTES))
def test_plan_error_hides_a_quoted_secret(route_name: str, validation: str, data: bytes, message: str) -> None:
    got = load_by(route_name, data, validation)
    assert isinstance(got, PlanFormatError), got
    assert str(got) == f"plan.json: {message}"
    assert SECRET not in repr(got)


@pytest.mark.parametrize(("data", "message"), PLAN_CASES)
def test_plan_from_dict_hides_a_quoted_secret(data: bytes, message: str) -> None:
    from plancheck import Plan

    with pytest.raises(PlanFormatError) as caught:
        Plan.from_dict(json.loads(data))
    assert str(caught.value) == message


_STATE_VERSION = (
    "a state format version 0.x or 1.x (plancheck reads terraform show -json states of major format version 0 and 1)"
)
STATE_CASES = [
    pytest.param(
        {"format_version": SECRET, "values": {"outputs": {"pw": {"value": SECRET, "sensitive": True}}}},
        f"$.format_version: expected {_STATE_VERSION}, found (sensitive)",
        id="sensitive-output-as-format-version",
    ),
    pytest.param(
        {"format_version": "7", "values": {"outputs": {"pw": {"value": SECRET, "sensitive": True}}}},
        f'$.format_version: expected {_STATE_VERSION}, found the string "7"',
        id="no-secret-quoted-as-before",
    ),
]


@pytest.mark.parametrize(("document", "message"), STATE_CASES)
@pytest.mark.parametrize("route_name", list(ROUTES))
def test_state_error_hides_a_quoted_secret(route_name: str, document: dict[str, Any], message: str) -> None:
    with route(route_name) as parser, pytest.raises(StateFormatError) as caught:
        State.from_json(json.dumps(document).encode(), source="s.json", parser=parser)
    assert str(caught.value) == f"s.json: {message}"
    with pytest.raises(StateFormatError) as caught:
        State.from_dict(document)
    assert str(caught.value) == message


@pytest.mark.parametrize(("path", "document", "found"), [
    pytest.param(("resource_changes", 0, "change", "after", "x"),
                 {"resource_changes": [{"change": {"after": {"x": "open"}, "after_sensitive": {"x": True}}}]},
                 "(sensitive)", id="inside-a-marked-value"),
    pytest.param(("resource_changes", 0, "change", "after", "x"),
                 {"resource_changes": [{"change": {"after": {"x": "open"}, "after_sensitive": {}}}]},
                 "(sensitive)", id="inside-a-value-unmarked-fails-closed"),
    pytest.param(("resource_changes", 0, "change", "actions", 0),
                 {"resource_changes": [{"change": {"actions": ["open"]}}]},
                 'the string "open"', id="outside-every-value"),
])  # fmt: skip
def test_violation_inside_a_value_is_hidden(path: tuple[str | int, ...], document: Any, found: str) -> None:
    violation = Violation("enum", path, {"enum": ["create"]}, "open")
    error: _Base = render_violation(violation, document, load_schema("plan"), PlanFormatError, None)
    assert error.found == found
    assert isinstance(error, DocumentFormatError)


@pytest.mark.parametrize("argv", [
    pytest.param(("--format", fmt, "--unknown", "a.b", "id"), id=f"check-{fmt}")
    for fmt in ("text", "json", "junit", "sarif", "github", "markdown")
] + [pytest.param(("query",), id="query"), pytest.param(("snapshot",), id="snapshot")])  # fmt: skip
def test_cli_error_hides_a_quoted_secret(argv: tuple[str, ...], tmp_path: Any) -> None:
    from clirun import cli

    plan = tmp_path / "p.json"
    plan.write_bytes(PLAN_CASES[0].values[0])
    tail = (str(tmp_path / "p.snap"),) if argv == ("snapshot",) else ()
    ran = cli(*argv, str(plan), *tail, never=[SECRET])
    assert ran.code == 2
    assert f"actions[0]: expected {_ACTION}, found (sensitive)" in ran.out + ran.err
