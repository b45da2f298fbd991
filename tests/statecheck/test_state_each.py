"""statecheck.ExpectEachKnownValue: every selected resource of a state, in every module, with exact messages."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from plancheck import Resources, State, StateCheckError, revealing_sensitive, statecheck
from plancheck import knownvalue as kv
from tfjsonpath import MapStep, New, Path

SECRET = "state-each-secret-3Rr8"


def resource(address: str, values: Any, marks: Any = None, **extra: Any) -> dict[str, Any]:
    kind, name = address.split(".")[-2:]
    return {"address": address, "mode": "data" if address.startswith("data.") else "managed", "type": kind,
            "name": name.split("[")[0], "values": values, "sensitive_values": marks or {}, **extra}


STATE = State.from_dict({"format_version": "1.0", "values": {"root_module": {
    "resources": [
        resource("aws_s3_bucket.a", {"acl": "private", "tags": {"team": "platform"}}),
        resource("aws_s3_bucket.b", {"acl": "public-read", "tags": None}),
        resource("aws_s3_bucket.c", {"acl": SECRET, "tags": {}}, {"acl": True}),
        resource("aws_s3_bucket.c", {"acl": "old", "tags": {}}, deposed_key="0000000d"),
        resource("data.aws_s3_bucket.d", {"acl": "private"}),
    ],
    "child_modules": [{"address": "module.m", "resources": [
        resource("module.m.aws_s3_bucket.e", {"acl": "private", "tags": {"team": "data"}})],
        "child_modules": [{"address": "module.m.module.n[0]", "resources": [
            resource("module.m.module.n[0].aws_s3_bucket.f", {"acl": "private"})]}]}],
}}})

PRIVATE = kv.StringExact("private")
TABLE: list[tuple[str, Any, str | None]] = [
    ("every-module-and-deposed", statecheck.ExpectEachKnownValue(Resources(type="aws_s3_bucket"), New("acl"), PRIVATE),
     "ExpectEachKnownValue: Resources(type='aws_s3_bucket'): acl: 3 of 7 failed: "
     'aws_s3_bucket.b: expected value "private" for StringExact check, got: "public-read"; '
     "aws_s3_bucket.c: expected value (sensitive) for StringExact check, got: (sensitive); "
     'aws_s3_bucket.c (deposed "0000000d"): expected value "private" for StringExact check, got: "old"'),
    ("module-glob", statecheck.ExpectEachKnownValue(Resources(module="module.m.*"), New("acl"), PRIVATE), None),
    ("module-exact", statecheck.ExpectEachKnownValue(Resources(module="module.m"), New("tags").AtMapKey("team"),
                                                     kv.StringExact("platform")),
     "ExpectEachKnownValue: Resources(module='module.m'): tags[\"team\"]: 1 of 1 failed: module.m.aws_s3_bucket.e: "
     'expected value "platform" for StringExact check, got: "data"'),
    ("null-and-absent-apart", statecheck.ExpectEachKnownValue("aws_s3_bucket.*", New("tags").AtMapKey("team"),
                                                              kv.StringExact("platform")),
     "ExpectEachKnownValue: Resources(address='aws_s3_bucket.*'): tags[\"team\"]: 3 of 4 failed: aws_s3_bucket.b: "
     'expected string value for StringExact check, got: null (tags is null); expected "platform"; '
     'aws_s3_bucket.c: value is not present (no key "team" in an object with 0 keys at tags); expected "platform"; '
     'aws_s3_bucket.c (deposed "0000000d"): value is not present (no key "team" in an object with 0 keys at tags); expected "platform"'),
    ("data-sources", statecheck.ExpectEachKnownValue(Resources(mode="data"), New("acl"), PRIVATE), None),
    ("selects-nothing", statecheck.ExpectEachKnownValue(Resources(type="aws_s3_bucke"), New("acl"), PRIVATE),
     "ExpectEachKnownValue: Resources(type='aws_s3_bucke'): selects no resource in the state; closest type: "
     "aws_s3_bucket (allow_empty=True on the selector accepts that)"),
    ("allow-empty", statecheck.ExpectEachKnownValue(Resources(type="x", allow_empty=True), New("acl"), PRIVATE), None),
]


@pytest.mark.parametrize(("check", "message"), [r[1:] for r in TABLE], ids=[r[0] for r in TABLE])
def test_every_selected_resource_of_every_module(check: Any, message: str | None) -> None:
    found = check.failures(STATE)
    assert [str(f) for f in found] == ([message] if message else [])
    if message:
        with pytest.raises(StateCheckError) as info:
            statecheck.assert_state(STATE, check)
        assert str(info.value) == message
        assert SECRET not in str(info.value)


def test_the_redaction_is_what_hides_the_secret() -> None:
    check = TABLE[0][1]
    with revealing_sensitive():
        assert SECRET in str(check.failures(STATE)[0])


BAD = [
    ("action", lambda: statecheck.ExpectEachKnownValue(Resources(action="create"), New("acl"), PRIVATE), ValueError,
     "ExpectEachKnownValue: the selector's action selects resource changes of a plan; a state has none"),
    ("selector", lambda: statecheck.ExpectEachKnownValue(1, New("acl"), PRIVATE), TypeError,
     "ExpectEachKnownValue: selector must be a plancheck.Resources or an address glob (str), got int"),
    ("matcher", lambda: statecheck.ExpectEachKnownValue("a.*", New("acl"), "private"), TypeError,
     "ExpectEachKnownValue: matcher must be a knownvalue check, got str (wrap plain values with knownvalue.exact())"),
    ("no-unknown-in-a-state", lambda: statecheck.ExpectEachKnownValue("a.*", New("acl"), PRIVATE, unknown="warn"),
     TypeError, "ExpectEachKnownValue.__init__() got an unexpected keyword argument 'unknown'"),
]


@pytest.mark.parametrize(("build", "error", "message"), [r[1:] for r in BAD], ids=[r[0] for r in BAD])
def test_bad_arguments(build: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        build()
    assert str(info.value) == message


def test_a_frozen_value() -> None:
    check = statecheck.ExpectEachKnownValue("a.*", New("acl"), PRIVATE)
    namespace = {"ExpectEachKnownValue": statecheck.ExpectEachKnownValue, "Resources": Resources, "Path": Path,
                 "MapStep": MapStep, "StringExact": kv.StringExact}
    assert eval(repr(check), namespace) == check
    assert pickle.loads(pickle.dumps(check)) == check
    assert check != statecheck.ExpectEachKnownValue("a.*", New("acl"), kv.StringExact("x"))
