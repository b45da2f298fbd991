"""ExpectEach{Known,Sensitive,Unknown,Null}Value: three verdicts, every ``unknown=`` mode, exact messages.

The plan (whole_plan_support.py) holds buckets whose ``tags["team"]`` is known and right, known and
wrong, unknown (itself, or through ``tags``), null (through ``tags``), absent and sensitive, one keyed
by a secret, one being deleted, a deposed object, one in a module and a data source.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import warnings
from typing import Any

import pytest
from whole_plan_support import KEY_SECRET, SECRET, change, plan, plan_document

from plancheck import (
    ExpectEachKnownValue,
    ExpectEachNullValue,
    ExpectEachSensitiveValue,
    ExpectEachUnknownValue,
    Plan,
    PlanCheckError,
    PlanCheckWarning,
    Resources,
    assert_plan,
    revealing_sensitive,
)
from plancheck import knownvalue as kv
from tfjsonpath import MapStep, New, Path

TEAM = New("tags").AtMapKey("team")
BUCKETS = Resources(type="aws_s3_bucket")
PLATFORM = kv.StringExact("platform")
S = "ExpectEachKnownValue: Resources(type='aws_s3_bucket'): tags[\"team\"]: "
UNKNOWN_3 = ('3 of 10 unknown until apply: aws_s3_bucket.c (tags), aws_s3_bucket.f (tags["team"]), '
             "data.aws_s3_bucket.lookup (tags)")
KNOWN_FAILED = (
    '4 of 10 failed: aws_s3_bucket.b: expected value "platform" for StringExact check, got: "data"; '
    'aws_s3_bucket.d: expected string value for StringExact check, got: null (tags is null); expected "platform"; '
    'aws_s3_bucket.e: value is not present (no key "team" in an object with 0 keys at tags); expected "platform"; '
    "aws_s3_bucket.s: expected value (sensitive) for StringExact check, got: (sensitive)"
)
NULL_FAILED = (
    '6 of 10 failed: aws_s3_bucket.a: it is known: "platform"; aws_s3_bucket.b: it is known: "data"; '
    'aws_s3_bucket.e: it is not present (no key "team" in an object with 0 keys at tags); '
    'aws_s3_bucket.k["(sensitive)"]: it is known: "platform"; aws_s3_bucket.s: it is known: (sensitive); '
    'module.net.aws_s3_bucket.n[0]: it is known: "platform"'
)
SENSITIVE_FAILED = (
    '6 of 10 failed: aws_s3_bucket.a: it is not sensitive; it is known: "platform"; '
    'aws_s3_bucket.b: it is not sensitive; it is known: "data"; '
    "aws_s3_bucket.d: it is not sensitive; it is null (tags is null); "
    'aws_s3_bucket.e: it is not present (no key "team" in an object with 0 keys at tags); '
    'aws_s3_bucket.k["(sensitive)"]: it is not sensitive; it is known: "platform"; '
    'module.net.aws_s3_bucket.n[0]: it is not sensitive; it is known: "platform"'
)
UNKNOWN_FAILED = (
    '7 of 10 failed: aws_s3_bucket.a: it is known: "platform"; aws_s3_bucket.b: it is known: "data"; '
    "aws_s3_bucket.d: it is null (tags is null); "
    'aws_s3_bucket.e: it is not present (no key "team" in an object with 0 keys at tags); '
    'aws_s3_bucket.k["(sensitive)"]: it is known: "platform"; aws_s3_bucket.s: it is known: (sensitive); '
    'module.net.aws_s3_bucket.n[0]: it is known: "platform"'
)


def each(name: str) -> str:
    return f"{name}: Resources(type='aws_s3_bucket'): tags[\"team\"]: "


# (id, check, the failure's text or None, the warning's text or None)
VERDICT_TABLE: list[tuple[str, Any, str | None, str | None]] = [
    ("known-fail", ExpectEachKnownValue(BUCKETS, TEAM, PLATFORM), f"{S}{KNOWN_FAILED}; {UNKNOWN_3}", None),
    ("known-warn", ExpectEachKnownValue(BUCKETS, TEAM, PLATFORM, unknown="warn"), S + KNOWN_FAILED, S + UNKNOWN_3),
    ("known-pass", ExpectEachKnownValue(BUCKETS, TEAM, PLATFORM, unknown="pass"), S + KNOWN_FAILED, None),
    ("null-fail", ExpectEachNullValue(BUCKETS, TEAM),
     each("ExpectEachNullValue") + f"{NULL_FAILED}; {UNKNOWN_3}", None),
    ("null-warn", ExpectEachNullValue(BUCKETS, TEAM, unknown="warn"),
     each("ExpectEachNullValue") + NULL_FAILED, each("ExpectEachNullValue") + UNKNOWN_3),
    ("null-pass", ExpectEachNullValue(BUCKETS, TEAM, unknown="pass"), each("ExpectEachNullValue") + NULL_FAILED, None),
    ("sensitive-fail", ExpectEachSensitiveValue(BUCKETS, TEAM),
     each("ExpectEachSensitiveValue") + f"{SENSITIVE_FAILED}; {UNKNOWN_3}", None),
    ("sensitive-warn", ExpectEachSensitiveValue(BUCKETS, TEAM, unknown="warn"),
     each("ExpectEachSensitiveValue") + SENSITIVE_FAILED, each("ExpectEachSensitiveValue") + UNKNOWN_3),
    ("sensitive-pass", ExpectEachSensitiveValue(BUCKETS, TEAM, unknown="pass"),
     each("ExpectEachSensitiveValue") + SENSITIVE_FAILED, None),
    ("unknown", ExpectEachUnknownValue(BUCKETS, TEAM), each("ExpectEachUnknownValue") + UNKNOWN_FAILED, None),
    # Only unknown verdicts: the failure (or the warning) is the unknown group alone.
    ("only-unknown-fail", ExpectEachKnownValue(Resources(type="aws_s3_bucket", module=""), New("id"), kv.NotNull()),
     "ExpectEachKnownValue: Resources(type='aws_s3_bucket', module=''): id: 8 of 9 unknown until apply: "
     'aws_s3_bucket.a (id), aws_s3_bucket.c (id), aws_s3_bucket.d (id), aws_s3_bucket.e (id), aws_s3_bucket.f (id), '
     'aws_s3_bucket.k["(sensitive)"] (id), aws_s3_bucket.s (id), data.aws_s3_bucket.lookup (id)', None),
    ("only-unknown-warn", ExpectEachKnownValue("aws_s3_bucket.?", New("id"), kv.NotNull(), unknown="warn"), None,
     "ExpectEachKnownValue: Resources(address='aws_s3_bucket.?'): id: 7 of 8 unknown until apply: "
     "aws_s3_bucket.a (id), aws_s3_bucket.c (id), aws_s3_bucket.d (id), aws_s3_bucket.e (id), aws_s3_bucket.f (id), "
     'aws_s3_bucket.k["(sensitive)"] (id), aws_s3_bucket.s (id)'),
    ("only-unknown-pass", ExpectEachKnownValue("aws_s3_bucket.?", New("id"), kv.NotNull(), unknown="pass"), None, None),
    ("all-pass", ExpectEachKnownValue(Resources(module="module.net"), TEAM, PLATFORM), None, None),
    ("unknown-all-pass", ExpectEachUnknownValue(Resources(type="aws_s3_bucket", module=""), New("id")),
     "ExpectEachUnknownValue: Resources(type='aws_s3_bucket', module=''): id: 1 of 9 failed: aws_s3_bucket.b: "
     'it is known: "b"', None),
]


@pytest.mark.parametrize(("check", "failure", "warning"), [r[1:] for r in VERDICT_TABLE], ids=[r[0] for r in VERDICT_TABLE])
def test_three_verdicts_under_every_unknown_mode(check: Any, failure: str | None, warning: str | None) -> None:
    found, warned = check.outcome(plan())
    assert [str(f) for f in found] == ([failure] if failure else [])
    assert [str(w) for w in warned] == ([warning] if warning else [])
    for text in [str(f) for f in found] + [str(w) for w in warned]:
        assert SECRET not in text
        assert KEY_SECRET not in text


@pytest.mark.parametrize(("check", "failure", "warning"), [r[1:] for r in VERDICT_TABLE], ids=[r[0] for r in VERDICT_TABLE])
def test_check_plan_emits_the_warning_then_raises_the_failure(check: Any, failure: str | None, warning: str | None) -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        if failure:
            with pytest.raises(PlanCheckError) as info:
                check.CheckPlan(plan())
            assert str(info.value) == failure
        else:
            check.CheckPlan(plan())
    assert [str(w.message) for w in seen] == ([warning] if warning else [])
    assert all(w.category is PlanCheckWarning and w.filename == __file__ for w in seen)


def test_failures_alone_still_warns_never_a_silent_pass() -> None:
    check = ExpectEachKnownValue("aws_s3_bucket.?", New("id"), kv.NotNull(), unknown="warn")
    with pytest.warns(PlanCheckWarning, match=r"7 of 8 unknown until apply") as seen:
        assert check.failures(plan()) == []
    assert seen[0].filename == __file__  # located at the caller's line, not inside plancheck
    warning = seen[0].message
    assert isinstance(warning, PlanCheckWarning)
    assert (warning.check, warning.address, warning.path) == ("ExpectEachKnownValue", "Resources(address='aws_s3_bucket.?')", New("id"))


def test_the_warning_is_a_user_warning_that_pickles_with_its_record() -> None:
    _, [warning] = ExpectEachKnownValue("aws_s3_bucket.?", New("id"), kv.NotNull(), unknown="warn").outcome(plan())
    assert isinstance(warning, UserWarning)
    again = pickle.loads(pickle.dumps(warning))
    assert (str(again), again.record) == (str(warning), warning.record)
    assert PlanCheckWarning("text only").record is None
    assert PlanCheckWarning("text only").check is None


def test_outcome_does_not_emit() -> None:
    check = ExpectEachKnownValue("aws_s3_bucket.?", New("id"), kv.NotNull(), unknown="warn")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        found, warned = check.outcome(plan())
    assert (found, len(warned)) == ([], 1)


def test_assert_plan_emits_every_warning_before_raising_every_failure() -> None:
    warn_id = ExpectEachKnownValue("aws_s3_bucket.?", New("id"), kv.NotNull(), unknown="warn")
    warn_team = ExpectEachNullValue(BUCKETS, TEAM, unknown="warn")
    with pytest.warns(PlanCheckWarning) as seen, pytest.raises(PlanCheckError) as info:
        assert_plan(plan(), warn_id, warn_team)
    assert [str(w.message) for w in seen] == [
        "ExpectEachKnownValue: Resources(address='aws_s3_bucket.?'): id: 7 of 8 unknown until apply: "
        "aws_s3_bucket.a (id), aws_s3_bucket.c (id), aws_s3_bucket.d (id), aws_s3_bucket.e (id), aws_s3_bucket.f (id), "
        'aws_s3_bucket.k["(sensitive)"] (id), aws_s3_bucket.s (id)',
        each("ExpectEachNullValue") + UNKNOWN_3,
    ]
    assert str(info.value) == each("ExpectEachNullValue") + NULL_FAILED
    assert {w.filename for w in seen} == {__file__}


# -- what is selected and what is checked ------------------------------------------------------


EMPTY_TABLE = [
    ("glob-matches-nothing", ExpectEachKnownValue("aws_ec2.*", New("id"), kv.NotNull()),
     "ExpectEachKnownValue: Resources(address='aws_ec2.*'): selects no resource in the plan "
     "(allow_empty=True on the selector accepts that)"),
    ("closest-type", ExpectEachNullValue(Resources(type="aws_s3_bukcet"), New("id")),
     "ExpectEachNullValue: Resources(type='aws_s3_bukcet'): selects no resource in the plan; closest type: "
     "aws_s3_bucket (allow_empty=True on the selector accepts that)"),
    ("closest-address-secret-key", ExpectEachSensitiveValue('aws_s3_bucket.k["kms-key-7Hb2v"]', New("id")),
     # The selector's own text holds most of the secret: it is hidden too.
     "ExpectEachSensitiveValue: Resources(address='aws_s3_bucket.k[\"(sensitive)\"]'): selects no resource in the "
     'plan; closest addresses: aws_s3_bucket.k["(sensitive)"], aws_s3_bucket.s, aws_s3_bucket.e '
     "(allow_empty=True on the selector accepts that)"),
    ("type-there-other-fields-not", ExpectEachKnownValue(Resources(type="aws_s3_bucket", module="module.storage"),
                                                         TEAM, PLATFORM),
     "ExpectEachKnownValue: Resources(type='aws_s3_bucket', module='module.storage'): selects no resource in the plan; "
     "12 resources match type 'aws_s3_bucket' but not the other fields (allow_empty=True on the selector accepts that)"),
    ("only-deleted", ExpectEachUnknownValue("aws_s3_bucket.old", New("id")),
     "ExpectEachUnknownValue: Resources(address='aws_s3_bucket.old'): selects no resource with a planned value in the "
     "plan: 1 selected is deleted or forgotten: aws_s3_bucket.old (allow_empty=True on the selector accepts that)"),
    ("only-deleted-and-deposed", ExpectEachKnownValue(Resources(type="aws_s3_bucket", action="delete"), TEAM, PLATFORM),
     "ExpectEachKnownValue: Resources(type='aws_s3_bucket', action=ResourceAction.Destroy): selects no resource with "
     'a planned value in the plan: 2 selected are deleted or forgotten: aws_s3_bucket.a (deposed "00000001"), '
     "aws_s3_bucket.old (allow_empty=True on the selector accepts that)"),
]


@pytest.mark.parametrize(("check", "message"), [r[1:] for r in EMPTY_TABLE], ids=[r[0] for r in EMPTY_TABLE])
def test_a_selector_that_leaves_nothing_to_check_fails_naming_it(check: Any, message: str) -> None:
    found, warned = check.outcome(plan())
    assert ([str(f) for f in found], warned) == ([message], [])


@pytest.mark.parametrize("row", EMPTY_TABLE, ids=[r[0] for r in EMPTY_TABLE])
def test_allow_empty_accepts_a_selector_that_selects_nothing(row: tuple[str, Any, str]) -> None:
    check = row[1]
    given = {spec.name: getattr(check.selector, spec.name) for spec in dataclasses.fields(Resources) if spec.init}
    fields = {name: v for name, v in given.items() if v is not None}
    fields["allow_empty"] = True
    quiet = type(check)(Resources(**fields), *check._args()[0][1:], **check._args()[1])
    assert quiet.outcome(plan()) == ([], [])


SELECTOR_FIELDS = [
    ("type", Resources(type="aws_instance"), ["aws_instance.moved", "aws_instance.web"]),
    ("type-glob", Resources(type="aws_s3_*", mode="data"), ["data.aws_s3_bucket.lookup"]),
    ("module-root", Resources(module="", type="aws_instance"), ["aws_instance.moved", "aws_instance.web"]),
    ("module", Resources(module="module.net"), ["module.net.aws_s3_bucket.n[0]"]),
    ("address-any-key", Resources(address="aws_s3_bucket.k[*]"), ['aws_s3_bucket.k["(sensitive)"]']),
    ("mode-data", Resources(mode="data"), ["data.aws_s3_bucket.lookup"]),
    ("provider", Resources(provider="hashicorp/aws", type="aws_instance"), ["aws_instance.moved", "aws_instance.web"]),
    ("action", Resources(action=["update", "replace"]), ["aws_instance.web", "aws_s3_bucket.b"]),
    ("action-noop", Resources(action="no-op"), ["aws_instance.moved", "module.net.aws_s3_bucket.n[0]"]),
]


@pytest.mark.parametrize(("selector", "expected"), [r[1:] for r in SELECTOR_FIELDS], ids=[r[0] for r in SELECTOR_FIELDS])
def test_every_selector_field_decides_what_is_checked(selector: Resources, expected: list[str]) -> None:
    # ExpectEachUnknownValue of a path nobody has: every checked resource fails, so the message lists them all.
    found, _ = ExpectEachUnknownValue(selector, New("nope")).outcome(plan())
    message = found[0].message
    listed = [part.split(": it is")[0] for part in message.split(" failed: ", 1)[1].split("; ")]
    assert listed == expected
    assert message.startswith(f"{len(expected)} of {len(expected)} failed: ")


def test_a_glob_string_is_shorthand_for_an_address_selector() -> None:
    assert ExpectEachKnownValue("aws_s3_bucket.*", TEAM, PLATFORM) == ExpectEachKnownValue(
        Resources(address="aws_s3_bucket.*"), TEAM, PLATFORM)
    assert ExpectEachNullValue("a.b", TEAM).selector == Resources(address="a.b")


def test_verdicts_partition_the_checked_resources() -> None:
    # The known check's three groups, and the resources it passed, are the selected ones with a value.
    found, _ = ExpectEachKnownValue(BUCKETS, TEAM, PLATFORM).outcome(plan())
    message = found[0].message
    assert message.count(" of 10 ") == 2
    failed, unknown = 4, 3
    passed = ["aws_s3_bucket.a", 'aws_s3_bucket.k["(sensitive)"]', "module.net.aws_s3_bucket.n[0]"]
    assert failed + unknown + len(passed) == 10
    for address in passed:
        assert address + ":" not in message
        assert address + " (" not in message


# -- values: null, absent, unknown and sensitive stay apart; partly unknown values ---------------


def _one(after: Any, unknown: Any = None, sensitive: Any = None) -> Plan:
    return Plan.from_dict({"format_version": "1.2", "resource_changes": [
        change("aws_s3_bucket.x", ["create"], after, unknown=unknown, sensitive=sensitive)]})


PARTLY = [
    ("element-unknown-only-there", {"l": [None, "b"]}, {"l": [True, False]},
     kv.ListExact([kv.StringExact("a"), kv.StringExact("b")]), "1 of 1 unknown until apply: aws_s3_bucket.x (l[0])"),
    ("known-element-fails-first", {"l": ["z", None]}, {"l": [False, True]},
     kv.ListExact([kv.StringExact("a"), kv.StringExact("b")]),
     '1 of 1 failed: aws_s3_bucket.x: l[0]: expected value "a" for StringExact check, got: "z"'),
    ("known-element-fails-after-unknown", {"l": [None, "z"]}, {"l": [True, False]},
     kv.ListExact([kv.StringExact("a"), kv.StringExact("b")]),
     '1 of 1 failed: aws_s3_bucket.x: l[1]: expected value "b" for StringExact check, got: "z"'),
    ("size-fails-whatever-is-unknown", {"l": [None, "b"]}, {"l": [True, False]}, kv.ListSizeExact(3),
     "1 of 1 failed: aws_s3_bucket.x: expected 3 elements for ListSizeExact check, got 2 elements"),
    ("unknown-attribute-of-an-object", {"l": {"a": "x"}}, {"l": {"b": True}},
     kv.ObjectExact({"a": kv.StringExact("x"), "b": kv.StringExact("y")}),
     '1 of 1 unknown until apply: aws_s3_bucket.x (l["b"])'),
    ("set-element-unknown", {"l": [None, "b"]}, {"l": [True, False]},
     kv.SetExact([kv.StringExact("b"), kv.StringExact("a")]), "1 of 1 unknown until apply: aws_s3_bucket.x (l[0])"),
]


@pytest.mark.parametrize(("after", "unknown", "matcher", "message"), [r[1:] for r in PARTLY], ids=[r[0] for r in PARTLY])
def test_a_partly_unknown_value_fails_only_where_no_unknown_could_help(
    after: Any, unknown: Any, matcher: Any, message: str
) -> None:
    found, _ = ExpectEachKnownValue("aws_s3_bucket.x", New("l"), matcher).outcome(_one(after, unknown))
    assert [f.message for f in found] == [message]


def test_a_set_that_no_unknown_element_can_complete_fails() -> None:
    found, _ = ExpectEachKnownValue("aws_s3_bucket.x", New("l"), kv.SetExact([kv.StringExact("c"), kv.StringExact("a")])
                                    ).outcome(_one({"l": [None, "b"]}, {"l": [True, False]}))
    assert found[0].message.startswith("1 of 1 failed: aws_s3_bucket.x: ")


def test_a_matcher_failing_on_a_sensitive_value_says_so_without_it() -> None:
    p = _one({"pw": "hunter2-pw"}, sensitive={"pw": True})
    found, _ = ExpectEachKnownValue("aws_s3_bucket.x", New("pw"), kv.StringRegexp("^x")).outcome(p)
    assert [f.message for f in found] == [
        "1 of 1 failed: aws_s3_bucket.x: expected regex match (sensitive) for StringRegexp check, got: (sensitive)"]
    with revealing_sensitive():
        shown, _ = ExpectEachKnownValue("aws_s3_bucket.x", New("pw"), kv.StringRegexp("^x")).outcome(p)
    assert "hunter2-pw" in shown[0].message


def test_a_sensitive_unknown_value_passes_the_sensitive_check() -> None:
    p = _one({}, unknown={"pw": True}, sensitive={"pw": True})
    assert ExpectEachSensitiveValue("aws_s3_bucket.x", New("pw")).outcome(p) == ([], [])


# -- construction ------------------------------------------------------------------------------


BAD_ARGUMENTS = [
    ("selector-int", lambda: ExpectEachKnownValue(3, TEAM, PLATFORM), TypeError,
     "ExpectEachKnownValue: selector must be a plancheck.Resources, a plancheck.Actions or an address glob (str), got int"),
    ("selector-bad-glob", lambda: ExpectEachNullValue("a.b[", TEAM), ValueError,
     "ExpectEachNullValue: selector 'a.b[' is not a valid pattern: '[' at offset 3 is never closed"),
    ("selector-empty", lambda: ExpectEachUnknownValue("", TEAM), ValueError,
     "ExpectEachUnknownValue: selector must not be empty"),
    ("path-text", lambda: ExpectEachSensitiveValue("a.*", "tags"), TypeError,
     "ExpectEachSensitiveValue: path must be a tfjsonpath.Path, got str (to use text, parse it: "
     "tfjsonpath.Path.parse('tags'))"),
    ("matcher-plain", lambda: ExpectEachKnownValue("a.*", TEAM, "platform"), TypeError,
     "ExpectEachKnownValue: matcher must be a knownvalue check, got str (wrap plain values with knownvalue.exact())"),
    ("unknown-typo", lambda: ExpectEachKnownValue("a.*", TEAM, PLATFORM, unknown="wran"), ValueError,
     "ExpectEachKnownValue: unknown must be 'fail', 'pass' or 'warn', got 'wran' (did you mean 'warn'?)"),
    ("unknown-other", lambda: ExpectEachNullValue("a.*", TEAM, unknown="ignore"), ValueError,
     "ExpectEachNullValue: unknown must be 'fail', 'pass' or 'warn', got 'ignore'"),
    ("unknown-bool", lambda: ExpectEachSensitiveValue("a.*", TEAM, unknown=True), TypeError,
     "ExpectEachSensitiveValue: unknown must be 'fail', 'pass' or 'warn' (a str), got bool"),
    ("unknown-not-a-keyword", lambda: ExpectEachUnknownValue("a.*", TEAM, unknown="warn"), TypeError,
     "ExpectEachUnknownValue.__init__() got an unexpected keyword argument 'unknown'"),
]


@pytest.mark.parametrize(("build", "error", "message"), [r[1:] for r in BAD_ARGUMENTS], ids=[r[0] for r in BAD_ARGUMENTS])
def test_bad_arguments_fail_at_construction(build: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        build()
    assert str(info.value) == message


VALUES = [
    ExpectEachKnownValue(BUCKETS, TEAM, PLATFORM),
    ExpectEachKnownValue("a.*", TEAM, PLATFORM, unknown="warn"),
    ExpectEachSensitiveValue(Resources(module="module.db.*"), New("password"), unknown="pass"),
    ExpectEachUnknownValue("a.*", New("id")),
    ExpectEachNullValue(Resources(mode="data", allow_empty=True), New("x")),
]


@pytest.mark.parametrize("check", VALUES, ids=repr)
def test_checks_are_frozen_values_with_a_constructor_repr(check: Any) -> None:
    namespace = {"Resources": Resources, "Path": Path, "MapStep": MapStep, "StringExact": kv.StringExact,
                 type(check).__name__: type(check)}
    assert eval(repr(check), namespace) == check
    assert pickle.loads(pickle.dumps(check)) == check
    assert copy.deepcopy(check) is check
    assert hash(check) == hash(eval(repr(check), namespace))
    assert (check == object()) is False
    with pytest.raises(AttributeError):
        check.path = Path()


def test_the_repr_leaves_the_default_unknown_out() -> None:
    assert repr(ExpectEachNullValue("a.*", New("x"))) == "ExpectEachNullValue(Resources(address='a.*'), Path(MapStep('x')))"
    assert repr(ExpectEachNullValue("a.*", New("x"), unknown="pass")).endswith(", unknown='pass')")
    assert ExpectEachNullValue("a.*", New("x")) != ExpectEachNullValue("a.*", New("x"), unknown="warn")


def test_a_plan_document_is_not_modified() -> None:
    document = plan_document()
    before = copy.deepcopy(document)
    ExpectEachKnownValue(BUCKETS, TEAM, PLATFORM).outcome(Plan.from_dict(document))
    assert document == before
