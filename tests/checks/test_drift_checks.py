"""ExpectNoDrift and ExpectDrift over a plan's resource_drift: every drifted path, before -> after, redacted."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from plancheck import ExpectDrift, ExpectNoDrift, Plan, Resources, Secrets, revealing_sensitive
from plancheck._planchecks.drift import drift_differences
from tfjsonpath import MapStep, New, Path, SliceStep

SECRET = "drift-secret-4Tq9zz"
VAR = "drift-var-8Pw2zz"


def drift(address: str, before: Any, after: Any, *, actions: tuple[str, ...] = ("update",), **marks: Any) -> dict[str, Any]:
    kind, name = address.split(".")[-2:]
    return {"address": address, "mode": "managed", "type": kind, "name": name.split("[")[0],
            "change": {"actions": list(actions), "before": before, "after": after, **marks}}


PLAN = Plan.from_dict({
    "format_version": "1.2",
    "variables": {"token": {"value": VAR}},
    "configuration": {"root_module": {"variables": {"token": {"sensitive": True}}}},
    "resource_changes": [
        {"address": "widget_thing.a", "mode": "managed", "type": "widget_thing", "name": "a",
         "change": {"actions": ["update"], "before": {}, "after": {}}},
        {"address": "widget_thing.b", "mode": "managed", "type": "widget_thing", "name": "b",
         "change": {"actions": ["no-op"], "before": {}, "after": {}}},
        {"address": "widget_thing.gone", "mode": "managed", "type": "widget_thing", "name": "gone",
         "change": {"actions": ["create"], "before": None, "after": {}}},
    ],
    "resource_drift": [
        drift("widget_thing.a",
              {"description": "first", "size": 3, "secret": SECRET, "tags": {"env": "test"}, "list": [1, 2],
               "flag": True, "note": "plain"},
              {"description": "changed", "size": 4, "secret": SECRET + "x", "tags": {"env": "prod", "new": "1"},
               "list": [1], "flag": 1, "note": VAR},
              before_sensitive={"secret": True}, after_sensitive={"secret": True}),
        drift("widget_thing.gone", {"name": "g"}, None, actions=("delete",)),
        drift("widget_thing.b", {"keys": {SECRET: "1"}, "same": 1}, {"keys": {"other": "1"}, "same": 1},
              before_sensitive={"keys": True}, after_sensitive={"keys": True}),
    ],
})
A_DRIFT = ('description: "first" -> "changed"; flag: true -> 1; list[1]: 2 -> (not present); note: "plain" -> '
           '(sensitive); secret: (sensitive) -> (sensitive); size: 3 -> 4; tags["env"]: "test" -> "prod"; '
           'tags["new"]: (not present) -> "1"')

TABLE: list[tuple[str, Any, list[str]]] = [
    ("no-drift-every-resource", ExpectNoDrift(), [
        f"ExpectNoDrift: widget_thing.a: expected no drift, but it changed outside Terraform: {A_DRIFT}",
        "ExpectNoDrift: widget_thing.b: expected no drift, but it changed outside Terraform: keys: (sensitive) -> "
        "(sensitive)",
        "ExpectNoDrift: widget_thing.gone: expected no drift, but it was deleted outside Terraform"]),
    ("no-drift-selected", ExpectNoDrift("widget_thing.g*"), [
        "ExpectNoDrift: widget_thing.gone: expected no drift, but it was deleted outside Terraform"]),
    # A selector's action is the planned action: b is left alone by the plan, and has drifted.
    ("no-drift-planned-action", ExpectNoDrift(Resources(type="widget_thing", action="no-op")), [
        "ExpectNoDrift: widget_thing.b: expected no drift, but it changed outside Terraform: keys: (sensitive) -> "
        "(sensitive)"]),
    ("no-drift-planned-action-create", ExpectNoDrift(Resources(action="create")), [
        "ExpectNoDrift: widget_thing.gone: expected no drift, but it was deleted outside Terraform"]),
    ("no-drift-nothing-drifted-there", ExpectNoDrift(Resources(action="delete", allow_empty=True)), []),
    ("no-drift-selector-matches-nothing", ExpectNoDrift(Resources(type="widget_thign")), [
        "ExpectNoDrift: Resources(type='widget_thign'): selects no resource in the plan; closest type: widget_thing "
        "(allow_empty=True on the selector accepts that)"]),
    ("no-drift-allow-empty", ExpectNoDrift(Resources(type="aws_instance", allow_empty=True)), []),
    ("drift", ExpectDrift("widget_thing.a"), []),
    ("drift-at-path", ExpectDrift("widget_thing.a", New("size")), []),
    ("drift-below-path", ExpectDrift("widget_thing.a", New("tags")), []),
    ("drift-above-path", ExpectDrift("widget_thing.a", New("list").AtSliceIndex(1).AtMapKey("x")), []),
    ("drift-of-a-deleted-object-everywhere", ExpectDrift("widget_thing.gone", New("name")), []),
    ("drift-not-at-path", ExpectDrift("widget_thing.a", New("list").AtSliceIndex(0)), [
        f"ExpectDrift: widget_thing.a: list[0]: expected drift at list[0], but it has not drifted there; drifted: {A_DRIFT}"]),
    ("drift-not-at-sensitive-key", ExpectDrift("widget_thing.b", New("same")), [
        "ExpectDrift: widget_thing.b: same: expected drift at same, but it has not drifted there; drifted: keys: "
        "(sensitive) -> (sensitive)"]),
    ("drift-missing", ExpectDrift("widget_thing.c"), [
        "ExpectDrift: widget_thing.c: expected drift, but it has not drifted; drifted: widget_thing.a, widget_thing.b, "
        "widget_thing.gone"]),
]


@pytest.mark.parametrize(("check", "expected"), [r[1:] for r in TABLE], ids=[r[0] for r in TABLE])
def test_drift_messages(check: Any, expected: list[str]) -> None:
    found = [str(f) for f in check.failures(PLAN)]
    assert found == expected
    for text in found:
        assert SECRET not in text
        assert VAR not in text
        assert "other" not in text


def test_the_redaction_is_what_hides_the_secrets() -> None:
    with revealing_sensitive():
        shown = " ".join(str(f) for f in ExpectNoDrift().failures(PLAN))
    assert SECRET in shown
    assert VAR in shown


def test_a_plan_without_drift() -> None:
    plan = Plan.from_dict({"format_version": "1.2"})
    assert ExpectNoDrift().failures(plan) == []
    assert [str(f) for f in ExpectDrift("a.b").failures(plan)] == [
        "ExpectDrift: a.b: expected drift, but the plan records no drift (none found when Terraform refreshed)"]


DIFFERENCES = [
    ("scalars", {"a": 1, "b": "x"}, {"a": 1, "b": "y"}, {}, [(New("b"), '"x"', '"y"')]),
    ("types-strict", {"a": 1, "b": "1", "c": False}, {"a": 1.0, "b": 1, "c": 0}, {},
     [(New("b"), '"1"', "1"), (New("c"), "false", "0")]),
    ("null-to-value", {"a": None}, {"a": {"k": "v"}}, {}, [(New("a"), "null", '{"k": "v"}')]),
    ("list-grows", {"l": ["a"]}, {"l": ["a", "b"]}, {}, [(New("l").AtSliceIndex(1), "(not present)", '"b"')]),
    ("sensitive-whole", {"p": "x"}, {"p": "y"}, {"before_sensitive": {"p": True}, "after_sensitive": {"p": True}},
     [(New("p"), "(sensitive)", "(sensitive)")]),
    # Marked on either side is hidden on both: a provider upgrade that marks a value shows neither its old text.
    ("becomes-sensitive", {"p": "x"}, {"p": "x"}, {"before_sensitive": {}, "after_sensitive": {"p": True}},
     [(New("p"), "(sensitive)", "(sensitive)")]),
    ("becomes-sensitive-changed", {"p": "old-pw"}, {"p": "new-pw"}, {"after_sensitive": {"p": True}},
     [(New("p"), "(sensitive)", "(sensitive)")]),
    ("no-longer-sensitive", {"p": "old-pw"}, {"p": "new-pw"}, {"before_sensitive": {"p": True}},
     [(New("p"), "(sensitive)", "(sensitive)")]),
    ("becomes-sensitive-map", {"m": {"k": "old"}}, {"m": {"k": "new"}}, {"after_sensitive": {"m": True}},
     [(New("m"), "(sensitive)", "(sensitive)")]),
    ("unknown-after-marked", {"p": "old-pw"}, {}, {"after_unknown": {"p": True}, "after_sensitive": {"p": True}},
     [(New("p"), "(sensitive)", "(known after apply)")]),
    ("unknown-after", {"p": "x"}, {}, {"after_unknown": {"p": True}}, [(New("p"), '"x"', "(known after apply)")]),
    ("same", {"a": [1, {"b": "c"}]}, {"a": [1, {"b": "c"}]}, {}, []),
    ("root-replaced", "x", ["y"], {}, [(Path(), '"x"', '["y"]')]),
]


@pytest.mark.parametrize(("before", "after", "marks", "expected"), [r[1:] for r in DIFFERENCES], ids=[r[0] for r in DIFFERENCES])
def test_drift_differences(before: Any, after: Any, marks: dict[str, Any], expected: list[tuple[Path, str, str]]) -> None:
    assert drift_differences({"before": before, "after": after, **marks}, Secrets()) == expected


def test_deep_values_are_compared_without_recursion() -> None:
    deep_before: Any = "x"
    deep_after: Any = "y"
    for _ in range(5000):
        deep_before, deep_after = {"k": deep_before}, {"k": deep_after}
    [(path, before, after)] = drift_differences({"before": deep_before, "after": deep_after}, Secrets())
    assert (len(path), before, after) == (5000, '"x"', '"y"')
    assert path.steps[0] == MapStep("k")
    assert not isinstance(path.steps[-1], SliceStep)


BAD = [
    ("address-int", lambda: ExpectDrift(1), TypeError, "ExpectDrift: address must be a str, got int"),
    ("address-empty", lambda: ExpectDrift(""), ValueError, "ExpectDrift: address must not be empty"),
    ("path-text", lambda: ExpectDrift("a.b", "size"), TypeError,
     "ExpectDrift: path must be a tfjsonpath.Path, got str (to use text, parse it: tfjsonpath.Path.parse('size'))"),
    ("selector-int", lambda: ExpectNoDrift(3), TypeError,
     "ExpectNoDrift: selector must be a plancheck.Resources or an address glob (str), got int"),
]


@pytest.mark.parametrize(("build", "error", "message"), [r[1:] for r in BAD], ids=[r[0] for r in BAD])
def test_bad_arguments_fail_at_construction(build: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        build()
    assert str(info.value) == message


@pytest.mark.parametrize("check", [ExpectNoDrift(), ExpectNoDrift("a.*"), ExpectDrift("a.b"), ExpectDrift("a.b", New("x"))],
                         ids=repr)
def test_frozen_values(check: Any) -> None:
    namespace = {"Resources": Resources, "Path": Path, "MapStep": MapStep, type(check).__name__: type(check)}
    assert eval(repr(check), namespace) == check
    assert pickle.loads(pickle.dumps(check)) == check
