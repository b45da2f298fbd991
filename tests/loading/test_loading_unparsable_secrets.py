"""The secrets of a lazily parsed document a part of which cannot be parsed.

Such a part raises its format error to every reader, so it never showed a value: it has no secret
to list, and listing the document's secrets does not raise for it. The parts that parse have theirs
listed. What the part would have said of readable ones fails closed: unreadable marks mark all their
values, an unreadable configuration makes every variable sensitive.
"""

from __future__ import annotations

from typing import Any

import pytest
from loading_support import dumps, route

from plancheck._documents.plan import Plan
from plancheck._documents.state import State
from plancheck._errors import DocumentFormatError

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
def test_a_part_that_cannot_be_parsed_has_no_secret_and_hides_none_of_the_rest(
    kind: type[Plan] | type[State], data: bytes, unparsable: str, listed: set[str], not_listed: set[str]
) -> None:
    data = data.replace(b'"HUGE"', _BIG.encode())
    with route("fast-lazy") as parser:
        document = kind.from_json(data, source="doc.json", parser=parser)
    with pytest.raises(DocumentFormatError) as unread:
        _read_all(document.raw)
    assert unparsable in str(unread.value)
    secrets = document.secrets
    assert {value for value in listed | not_listed if value in secrets} == listed
    # The part is still unparsed: every other reader still gets its error.
    with pytest.raises(DocumentFormatError) as again:
        _read_all(document.raw)
    assert str(again.value) == str(unread.value)


def _read_all(value: Any) -> None:
    """Read every part of a document, as ``json.dumps`` of it would."""
    if isinstance(value, dict) or hasattr(value, "items"):
        for item in value.values():
            _read_all(item)
    elif isinstance(value, list):
        for item in value:
            _read_all(item)


def test_a_walk_that_fails_for_another_reason_still_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a part that cannot be parsed is read as absent: any other failure of the walk is the scrub's to fail closed."""
    import plancheck._documents.sensitive as sensitive

    def walk(document: Any) -> set[str]:
        raise RuntimeError("a bug in the walk")

    monkeypatch.setattr(sensitive, "_plan_secrets", walk)
    with route("fast-lazy") as parser:
        plan = Plan.from_json(_plan(), source="doc.json", parser=parser)
    with pytest.raises(RuntimeError, match="a bug in the walk"):
        len(plan.secrets)
