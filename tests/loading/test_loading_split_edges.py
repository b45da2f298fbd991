"""Documents that trip the guesses of the split loaders still load exactly as a whole parse does."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from loading_support import ROUTES, exactly_equal, load_by, plain

from plancheck._errors import PlanFormatError


def _rc(address: str, **after: Any) -> dict[str, Any]:
    return {"address": address, "change": {"actions": ["create"], "after": after}}


def _members(*members: tuple[str, Any]) -> bytes:
    # Built by hand: key order is the point of some cases (repeated keys: test_loading_repeated_keys.py).
    return ("{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in members) + "}").encode()


CASES = {
    # A nested "resource_changes" key before the real one: the guessed split point is wrong.
    "nested-key-first": _members(
        ("format_version", "1.2"),
        ("planned_values", {"outputs": {"o": {"value": {"resource_changes": [1, 2]}}}}),
        ("resource_changes", [_rc("null_resource.a", n=1)]),
        ("prior_state", {"format_version": "1.0"}),
    ),
    # A resource attribute named like the key after the array: the guessed end is wrong.
    "next-key-inside-the-array": _members(
        ("format_version", "1.2"),
        ("resource_changes", [_rc("null_resource.a", prior_state={"x": 1}, output_changes=[1])]),
        ("configuration", {"root_module": {}}),
    ),
    "resource-changes-first": _members(
        ("resource_changes", [_rc("null_resource.a")]), ("format_version", "1.2")
    ),
    "resource-changes-last": _members(("format_version", "1.2"), ("resource_changes", [])),
    "non-ascii": _members(
        ("format_version", "1.2"),
        ("planned_values", {"tags": {"café": "naïve ☃ 🚀"}}),
        ("resource_changes", [_rc("null_resource.é", name="Zoë 🚀", n=1.25)]),
        ("prior_state", {"format_version": "1.0", "values": {"note": "€"}}),
    ),
    "whitespace-everywhere": b'\n { "format_version" :\t"1.2" ,\r\n "resource_changes" : [ ] ,\n "prior_state" : { } \n}\n ',
    "escaped-surrogate": _members(("format_version", "1.2"), ("resource_changes", [_rc("null_resource.a", s="\ud83d")])),
}


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("route_name", list(ROUTES))
def test_split_edge_cases_load_exactly(route_name: str, name: str) -> None:
    data = CASES[name]
    plan = load_by(route_name, data)
    assert not isinstance(plan, PlanFormatError), plan
    reference = json.loads(data, parse_float=Decimal)
    assert exactly_equal(plain(plan.raw), reference)
    assert [rc.address for rc in plan.resource_changes] == [rc["address"] for rc in reference["resource_changes"]]



@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            _members(("format_version", "1.2"), ("resource_changes", [])).replace(b"[]", b"[1,]"),
            "$: expected valid JSON, found invalid JSON: Expecting value at line 1 column 50 (character 49)",
        ),
        (
            _members(("format_version", "1.2"), ("planned_values", {"a": 1}), ("resource_changes", [])).replace(
                b'"a": 1', b'"a": 01'
            ),
            "$: expected valid JSON, found invalid JSON: Expecting ',' delimiter at line 1 column 52 (character 51)",
        ),
        (
            _members(("format_version", "1.2"), ("resource_changes", []), ("prior_state", {"b": [True]})).replace(
                b"true", b"True"
            ),
            "$: expected valid JSON, found invalid JSON: Expecting value at line 1 column 73 (character 72)",
        ),
        (
            _members(("format_version", "1.2"), ("resource_changes", [])) + b" x",
            "$: expected valid JSON, found invalid JSON: Extra data at line 1 column 51 (character 50)",
        ),
        (
            # A zero byte in the first four makes json read UTF-16/32: no route may take it for ASCII.
            b'\x00{"format_version": "1.2", "resource_changes": [] }',
            "$: expected JSON text in UTF-8 (or UTF-16/UTF-32), found an invalid byte 0x7d at byte offset 50",
        ),
        (
            # `terraform plan -json > plan.json`: a newcomer's plan, one JSON message a line.
            b'{"@level":"info","@message":"Terraform 1.11.4","terraform":"1.11.4","type":"version","ui":"1.2"}\n'
            b'{"@level":"info","@message":"Plan: 1 to add, 0 to change, 0 to destroy.","type":"change_summary"}\n',
            "$: expected one JSON document, found the machine-readable log `terraform plan -json` writes (one JSON "
            "message a line), which is a different format; get a plan's JSON from terraform plan -out=PLANFILE, then "
            "terraform show -json PLANFILE",
        ),
    ],
    ids=["in-the-array", "before-the-array", "after-the-array", "after-the-document", "zero-byte-first",
         "terraform-plan-json-log"],
)
@pytest.mark.parametrize("route_name", list(ROUTES))
def test_syntax_errors_anywhere_are_reported_alike(route_name: str, data: bytes, message: str) -> None:
    got = load_by(route_name, data)
    assert isinstance(got, PlanFormatError)
    assert str(got) == f"plan.json: {message}"
