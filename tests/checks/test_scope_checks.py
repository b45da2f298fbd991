"""Change-scope checks: ExpectNoReplacements, ExpectNoDestroys, ExpectActionCounts, ExpectCount,
ExpectNoResourceChanges and ExpectOnlyOutputChanges; every violation listed, in address order, pinned."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest
from whole_plan_support import KEY_SECRET, change, plan

from plancheck import (
    ExpectActionCounts,
    ExpectCount,
    ExpectNoDestroys,
    ExpectNoReplacements,
    ExpectNoResourceChanges,
    ExpectOnlyOutputChanges,
    Plan,
    ResourceAction,
    Resources,
)

SECRET_KEY = 'aws_s3_bucket.k["(sensitive)"]'
CREATES = ("aws_s3_bucket.a, aws_s3_bucket.c, aws_s3_bucket.d, aws_s3_bucket.e, aws_s3_bucket.f, "
           f"{SECRET_KEY}, aws_s3_bucket.s")
RESOURCE_CHANGES = [
    ("aws_instance.moved", "it moves from aws_instance.old_name"),
    ("aws_instance.web", "it has planned action(s): [delete create]"),
    ("aws_s3_bucket.a", "it has planned action(s): [create]"),
    ("aws_s3_bucket.a", 'its deposed object "00000001" has planned action(s): [delete]'),
    ("aws_s3_bucket.b", "it has planned action(s): [update]"),
    ("aws_s3_bucket.c", "it has planned action(s): [create]"),
    ("aws_s3_bucket.d", "it has planned action(s): [create]"),
    ("aws_s3_bucket.e", "it has planned action(s): [create]"),
    ("aws_s3_bucket.f", "it has planned action(s): [create]"),
    (SECRET_KEY, "it has planned action(s): [create]"),
    ("aws_s3_bucket.old", "it has planned action(s): [delete]"),
    ("aws_s3_bucket.s", "it has planned action(s): [create]"),
    ("data.aws_s3_bucket.lookup", "it has planned action(s): [read]"),
]

TABLE: list[tuple[str, Any, list[str]]] = [
    ("no-replacements", ExpectNoReplacements(), [
        "ExpectNoReplacements: aws_instance.web: expected no replacement, but it is replaced: "
        "action(s) [delete create] (replace_because_cannot_update)"]),
    ("no-replacements-excepted-by-glob", ExpectNoReplacements(except_="aws_instance.*"), []),
    ("no-replacements-excepted-by-selector", ExpectNoReplacements(except_=Resources(type="aws_instance")), []),
    ("no-replacements-excepted-elsewhere", ExpectNoReplacements(except_=["aws_s3_bucket.*", Resources(mode="data")]), [
        "ExpectNoReplacements: aws_instance.web: expected no replacement, but it is replaced: "
        "action(s) [delete create] (replace_because_cannot_update)"]),
    ("no-destroys", ExpectNoDestroys(), [
        "ExpectNoDestroys: aws_instance.web: expected no destroy, but it is replaced: action(s) [delete create] "
        "(replace_because_cannot_update)",
        'ExpectNoDestroys: aws_s3_bucket.a: deposed object "00000001": expected no destroy, but it is destroyed: '
        "action(s) [delete]",
        "ExpectNoDestroys: aws_s3_bucket.old: expected no destroy, but it is destroyed: action(s) [delete]"]),
    ("no-destroys-except-replacements", ExpectNoDestroys(except_=Resources(action="replace")), [
        'ExpectNoDestroys: aws_s3_bucket.a: deposed object "00000001": expected no destroy, but it is destroyed: '
        "action(s) [delete]",
        "ExpectNoDestroys: aws_s3_bucket.old: expected no destroy, but it is destroyed: action(s) [delete]"]),
    ("no-destroys-all-excepted", ExpectNoDestroys(except_=[Resources(type="aws_instance"), "aws_s3_bucket.*"]), []),
    ("action-counts-all-right", ExpectActionCounts(create=7, update=1, delete=2, replace=1, noop=2, read=1, forget=0), []),
    ("action-counts-every-mismatch",
     ExpectActionCounts(create=1, update=1, delete=0, replace=0, noop=0, read=0, forget=1), [
         f"ExpectActionCounts: expected 1 to create, got 7: {CREATES}",
         'ExpectActionCounts: expected 0 to delete, got 2: aws_s3_bucket.a (deposed "00000001"), aws_s3_bucket.old',
         "ExpectActionCounts: expected 0 to replace, got 1: aws_instance.web",
         "ExpectActionCounts: expected 0 unchanged (no-op), got 2: aws_instance.moved, module.net.aws_s3_bucket.n[0]",
         "ExpectActionCounts: expected 0 to read, got 1: data.aws_s3_bucket.lookup",
         "ExpectActionCounts: expected 1 to forget, got 0"]),
    ("action-counts-only-given", ExpectActionCounts(update=2), [
        "ExpectActionCounts: expected 2 to update, got 1: aws_s3_bucket.b"]),
    ("count", ExpectCount(Resources(type="aws_s3_bucket", mode="managed", module=""), 9), []),
    ("count-deposed-not-counted", ExpectCount("aws_s3_bucket.a", 1), []),
    ("count-mismatch", ExpectCount("module.*", 2), [
        "ExpectCount: Resources(address='module.*'): expected 2 resources, got 1: module.net.aws_s3_bucket.n[0]"]),
    ("count-none", ExpectCount(Resources(type="aws_lambda_function"), 1), [
        "ExpectCount: Resources(type='aws_lambda_function'): expected 1 resource, got 0"]),
    ("count-zero", ExpectCount(Resources(type="aws_lambda_function"), 0), []),
    ("no-resource-changes", ExpectNoResourceChanges(),
     [f"ExpectNoResourceChanges: {a}: expected no resource changes, but {r}" for a, r in RESOURCE_CHANGES]),
    ("only-output-changes", ExpectOnlyOutputChanges(),
     [f"ExpectOnlyOutputChanges: {a}: expected only output changes, but {r}" for a, r in RESOURCE_CHANGES]),
]


@pytest.mark.parametrize(("check", "expected"), [r[1:] for r in TABLE], ids=[r[0] for r in TABLE])
def test_every_violation_is_listed_in_address_order(check: Any, expected: list[str]) -> None:
    found = check.failures(plan())
    assert [str(f) for f in found] == expected
    assert all(KEY_SECRET not in str(f) for f in found)


def _plan(changes: list[dict[str, Any]], outputs: dict[str, Any] | None = None, **extra: Any) -> Plan:
    return Plan.from_dict({"format_version": "1.2", "resource_changes": changes, "output_changes": outputs or {}, **extra})


NOOP = change("null_resource.a", ["no-op"], {"id": "1"}, before={"id": "1"})
OUTPUT = {"greeting": {"actions": ["update"], "before": "hi", "after": "hello", "after_unknown": False}}
SMALL: list[tuple[str, Any, Plan, list[str]]] = [
    ("no-resource-changes-output-only", ExpectNoResourceChanges(), _plan([NOOP], OUTPUT), []),
    ("only-outputs-output-only", ExpectOnlyOutputChanges(), _plan([NOOP], OUTPUT), []),
    ("only-outputs-nothing-changes", ExpectOnlyOutputChanges(), _plan([NOOP]), [
        "ExpectOnlyOutputChanges: expected output changes, but the plan changes no output"]),
    ("only-outputs-noop-output", ExpectOnlyOutputChanges(),
     _plan([NOOP], {"g": {"actions": ["no-op"], "before": "x", "after": "x"}}), [
         "ExpectOnlyOutputChanges: expected output changes, but the plan changes no output"]),
    ("no-resource-changes-import", ExpectNoResourceChanges(),
     _plan([{**NOOP, "change": {**NOOP["change"], "importing": {"id": "1"}}}]), [
         "ExpectNoResourceChanges: null_resource.a: expected no resource changes, but it is imported"]),
    ("no-resource-changes-deferred", ExpectNoResourceChanges(),
     _plan([], deferred_changes=[{"reason": "provider_config_unknown",
                                  "resource_change": change("null_resource.later", ["create"], {})}]), [
         "ExpectNoResourceChanges: null_resource.later: expected no resource changes, but it is deferred with "
         'reason "provider_config_unknown"']),
    ("forget-is-no-destroy", ExpectNoDestroys(), _plan([change("null_resource.f", ["forget"], None, before={})]), []),
    ("forget-counts", ExpectActionCounts(forget=2, create=1),
     _plan([change("null_resource.f", ["forget"], None, before={}), change("null_resource.g", ["create", "forget"], {})]),
     []),
    ("create-before-destroy-replacement", ExpectNoReplacements(),
     _plan([change("null_resource.r", ["create", "delete"], {}, before={}, action_reason="replace_because_tainted")]), [
         "ExpectNoReplacements: null_resource.r: expected no replacement, but it is replaced: action(s) "
         "[create delete] (replace_because_tainted)"]),
    ("replace-paths-named", ExpectNoDestroys(),
     _plan([{**change("null_resource.r", ["delete", "create"], {}, before={}),
             "change": {"actions": ["delete", "create"], "replace_paths": [["triggers", "b"], ["name"]]}}]), [
         "ExpectNoDestroys: null_resource.r: expected no destroy, but it is replaced: action(s) [delete create] "
         '(replace paths: name, triggers["b"])']),
]


@pytest.mark.parametrize(("check", "document", "expected"), [r[1:] for r in SMALL], ids=[r[0] for r in SMALL])
def test_moves_imports_deferrals_forgets_and_outputs(check: Any, document: Plan, expected: list[str]) -> None:
    assert [str(f) for f in check.failures(document)] == expected


BAD = [
    ("except-int", lambda: ExpectNoReplacements(except_=3), TypeError,
     "ExpectNoReplacements: except_ must be a plancheck.Resources, an address glob (str) or a list of them, got int"),
    ("except-item-int", lambda: ExpectNoDestroys(except_=["a.b", 3]), TypeError,
     "ExpectNoDestroys: except_[1] must be a plancheck.Resources or an address glob (str), got int"),
    ("except-bad-glob", lambda: ExpectNoDestroys(except_=["a.b]"]), ValueError,
     "ExpectNoDestroys: except_[0] 'a.b]' is not a valid pattern: ']' at offset 3 closes nothing"),
    ("except-positional", lambda: ExpectNoReplacements("a.b"), TypeError,
     "ExpectNoReplacements.__init__() takes 1 positional argument but 2 were given"),
    ("counts-none", lambda: ExpectActionCounts(), ValueError,
     "ExpectActionCounts: give at least one count (create, update, delete, replace, noop, read, forget, invoke)"),
    ("counts-negative", lambda: ExpectActionCounts(create=-1), ValueError, "ExpectActionCounts: create must be >= 0, got -1"),
    ("counts-bool", lambda: ExpectActionCounts(delete=True), TypeError, "ExpectActionCounts: delete must be an int, got bool"),
    ("counts-str", lambda: ExpectActionCounts(noop="1"), TypeError, "ExpectActionCounts: noop must be an int, got str"),
    ("counts-unknown-action", lambda: ExpectActionCounts(destroy=1), TypeError,
     "ExpectActionCounts.__init__() got an unexpected keyword argument 'destroy'"),
    ("count-float", lambda: ExpectCount("a.*", 1.0), TypeError, "ExpectCount: n must be an int, got float"),
    ("count-negative", lambda: ExpectCount("a.*", -2), ValueError, "ExpectCount: n must be >= 0, got -2"),
    ("count-none", lambda: ExpectCount("a.*", None), TypeError, "ExpectCount: n must be an int, got NoneType"),
    ("count-selector", lambda: ExpectCount(None, 1), TypeError,
     "ExpectCount: selector must be a plancheck.Resources or an address glob (str), got NoneType"),
]


@pytest.mark.parametrize(("build", "error", "message"), [r[1:] for r in BAD], ids=[r[0] for r in BAD])
def test_bad_arguments_fail_at_construction(build: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        build()
    assert str(info.value) == message


VALUES = [
    ExpectNoReplacements(),
    ExpectNoReplacements(except_="a.*"),
    ExpectNoDestroys(except_=["a.*", Resources(type="x", action=ResourceAction.Replace)]),
    ExpectActionCounts(create=1, forget=0),
    ExpectCount(Resources(module=""), 4),
    ExpectNoResourceChanges(),
    ExpectOnlyOutputChanges(),
]


@pytest.mark.parametrize("check", VALUES, ids=repr)
def test_checks_are_frozen_values_with_a_constructor_repr(check: Any) -> None:
    namespace = {"Resources": Resources, "ResourceAction": ResourceAction, type(check).__name__: type(check)}
    assert eval(repr(check), namespace) == check
    assert pickle.loads(pickle.dumps(check)) == check
    assert copy.copy(check) is check
    assert hash(check) == hash(eval(repr(check), namespace))


def test_reprs() -> None:
    assert repr(ExpectNoDestroys(except_="a.*")) == "ExpectNoDestroys(except_=Resources(address='a.*'))"
    assert repr(ExpectActionCounts(create=1, forget=0)) == "ExpectActionCounts(create=1, forget=0)"
    assert repr(ExpectCount("a.*", 2)) == "ExpectCount(Resources(address='a.*'), 2)"
