"""The secrets of a lazily parsed document a part of which cannot be parsed.

Such a part raises its format error to every reader, the walk that lists the document's secrets
included: what it hides cannot be told (a value marked there may stand unmarked in a part that
parses), so listing them fails closed, and no message shows what a scrub could not hide.
"""

from __future__ import annotations

from typing import Any

import pytest
from loading_support import dumps, route

from plancheck import ExpectKnownValue, assert_plan, knownvalue, statecheck
from plancheck._documents.plan import Plan
from plancheck._documents.state import State
from plancheck._errors import DocumentFormatError
from tfjsonpath import New

_ENTRY_SECRET = "rc-s3cret"


def _rc(name: str, after: Any, marks: Any) -> dict[str, Any]:
    return {"address": f"null_resource.{name}", "mode": "managed", "type": "null_resource", "name": name,
            "change": {"actions": ["create"], "after": after, "after_unknown": {}, "after_sensitive": marks}}


def _plan(**members: Any) -> bytes:
    changes = [_rc("a", {"pw": _ENTRY_SECRET, "name": "web-frontend"}, {"pw": True}), *members.pop("more", ())]
    return dumps({"format_version": "1.2", "resource_changes": changes, **members})


def _state_resource(name: str, values: Any, marks: Any) -> dict[str, Any]:
    return {"address": f"null_resource.{name}", "mode": "managed", "type": "null_resource", "name": name,
            "values": values, "sensitive_values": marks}


def _state(*resources: dict[str, Any]) -> bytes:
    return dumps({"format_version": "1.0", "values": {"root_module": {"resources": list(resources)}}})


_BIG = "1e999999999999999999999"  # a number no decimal holds: refused when its value is parsed

CASES = [
    pytest.param(
        Plan, _plan(more=[_rc("bad", {"pw": "x"}, {"pw": 1})]), "resource_changes",
        {_ENTRY_SECRET}, {"web-frontend"}, id="plan-entry-with-bad-marks",
    ),
    pytest.param(
        Plan, _plan(prior_state={"values": {"root_module": {"resources": 5}}}), "prior_state",
        {_ENTRY_SECRET}, {"web-frontend"}, id="plan-prior-state",
    ),
    pytest.param(
        Plan, _plan(variables={"pw": {"value": "var-s3cret"}, "region": {"value": "eu-west-9"}},
                    configuration={"root_module": {"variables": {"pw": {"sensitive": "true"}}}}), "configuration",
        {_ENTRY_SECRET, "var-s3cret", "eu-west-9"}, {"web-frontend"}, id="plan-configuration-makes-every-variable-sensitive",
    ),
    pytest.param(
        State, _state(_state_resource("a", {"pw": "st-s3cret", "name": "web-frontend"}, {"pw": True}),
                      _state_resource("b", {"token": "tok-s3cret", "name": "db-backend"}, {"token": 1})),
        "resources[1].sensitive_values", {"st-s3cret", "tok-s3cret", "db-backend"}, {"web-frontend"}, id="state-resource-bad-marks-mark-all-its-values",
    ),
    pytest.param(
        State, _state(_state_resource("a", {"pw": "st-s3cret", "name": "web-frontend"}, {"pw": True}),
                      _state_resource("b", {"n": "HUGE", "name": "db-backend"}, {})),
        "resources[1].values.n", {"st-s3cret"}, {"web-frontend", "db-backend"}, id="state-resource-values-unparsable",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "data", "unparsable", "listed", "not_listed"), CASES)
def test_listing_the_secrets_of_a_document_with_a_part_that_cannot_be_parsed_fails_closed(
    kind: type[Plan] | type[State], data: bytes, unparsable: str, listed: set[str], not_listed: set[str]
) -> None:
    """The part's format error, as every reader of the part gets: what the part hides cannot be told (a value
    marked there may be copied unmarked elsewhere), so no scrub may go on as if it hid nothing."""
    data = data.replace(b'"HUGE"', _BIG.encode())
    with route("fast-lazy") as parser:
        document = kind.from_json(data, source="doc.json", parser=parser)
    with pytest.raises(DocumentFormatError) as unread:
        _read_all(document.raw)
    assert unparsable in str(unread.value)
    with pytest.raises(DocumentFormatError) as listing:
        document.secrets  # noqa: B018
    assert str(listing.value) == str(unread.value)


def _read_all(value: Any) -> None:
    """Read every part of a document, as ``json.dumps`` of it would."""
    if isinstance(value, dict) or hasattr(value, "items"):
        for item in value.values():
            _read_all(item)
    elif isinstance(value, list):
        for item in value:
            _read_all(item)


_COPIED = "cp-s3cret-value"

COPIED_CASES = [
    pytest.param(
        Plan,
        dumps({"format_version": "1.2", "resource_changes": [
            _rc("a", {"pw": _COPIED, "n": "HUGE"}, {"pw": True}), _rc("b", {"copy": _COPIED}, {})]}),
        id="plan-entry",
    ),
    pytest.param(
        State,
        _state(_state_resource("a", {"pw": _COPIED, "n": "HUGE"}, {"pw": True}),
               _state_resource("b", {"copy": _COPIED}, {})),
        id="state-resource-values",
    ),
]  # fmt: skip


def _check_the_copy(document: Plan | State) -> None:
    """A check of the unmarked copy that fails: its message would show the value."""
    check = (New("copy"), knownvalue.StringExact("other"))
    if isinstance(document, Plan):
        assert_plan(document, ExpectKnownValue("null_resource.b", *check))
    else:
        statecheck.assert_state(document, statecheck.ExpectKnownValue("null_resource.b", *check))


@pytest.mark.parametrize(("kind", "data"), COPIED_CASES)
def test_a_secret_of_a_part_that_cannot_be_parsed_is_not_shown_where_it_was_copied(
    kind: type[Plan] | type[State], data: bytes
) -> None:
    """A secret is scrubbed wherever it stands, marked or copied: the unmarked copy of a value marked in a part
    that cannot be parsed is no less the secret (main's scrub raised the part's error there: failing closed)."""
    data = data.replace(b'"HUGE"', _BIG.encode())
    with route("fast-lazy") as parser:
        document = kind.from_json(data, source="doc.json", parser=parser)
    # A check failure, or the part's format error: either, never the secret.
    with pytest.raises((AssertionError, DocumentFormatError)) as shown:
        _check_the_copy(document)
    assert _COPIED not in str(shown.value)
