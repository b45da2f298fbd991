"""``Actions``: the ExpectEach* checks over action invocations' configuration (Terraform 1.14+), exact messages.

The plan invokes ``action.webhook_send.notify`` three times (after creating two instances, and once
directly for a calling resource) and ``action.email_send.page`` once, written in an order that is
not the label order, so that the order of a message is shown to be the check's, not the document's.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from plancheck import (
    Actions,
    ActionTriggerEvent,
    ArgumentError,
    ExpectCount,
    ExpectEachKnownValue,
    ExpectEachNullValue,
    ExpectEachSensitiveValue,
    ExpectEachUnknownValue,
    Plan,
    PlanCheckError,
    State,
    revealing_sensitive,
)
from plancheck import knownvalue as kv
from plancheck.cli._checksfile import ChecksFileError, parse_checks
from plancheck.cli._registry import default_registry
from tfjsonpath import New

TOKEN = "tok-Q9w2zz"  # marked in config_sensitive: never shown


def _lifecycle(resource: str, event: str) -> dict[str, Any]:
    return {"triggering_resource_address": resource, "action_trigger_event": event,
            "action_trigger_block_index": 0, "actions_list_index": 0}


def _invocation(address: str, trigger: dict[str, Any], config: dict[str, Any],
                unknown: dict[str, Any] | None = None) -> dict[str, Any]:
    kind = "lifecycle_action_trigger" if "action_trigger_event" in trigger else "invoke_action_trigger"
    return {"address": address, "type": address.split(".")[1], "name": address.split(".")[2],
            "config_values": config, "config_unknown": unknown or {}, "config_sensitive": {"token": True},
            kind: trigger}


DOCUMENT: dict[str, Any] = {"format_version": "1.2", "action_invocations": [
    _invocation("action.webhook_send.notify", _lifecycle("aws_instance.web[1]", "AfterCreate"),
                {"channel": "dev", "token": TOKEN, "retries": None}),
    _invocation("action.email_send.page", {}, {"channel": "ops", "token": TOKEN, "retries": 3}),
    _invocation("action.webhook_send.notify", _lifecycle("aws_instance.web[0]", "AfterCreate"),
                {"channel": "ops", "token": TOKEN, "retries": None}, {"url": True}),
    _invocation("action.webhook_send.notify", {"calling_resource_address": "aws_instance.db"},
                {"channel": "ops", "token": TOKEN}, {"retries": True}),
]}


def _plan() -> Plan:
    return Plan.from_dict(copy.deepcopy(DOCUMENT))


NOTIFY = Actions("action.webhook_send.*")
N = "action.webhook_send.notify"
CHANNEL = New("channel")

# (id, check, the failure's text or None)
CHECKS = [
    ("known-pass", ExpectEachKnownValue(Actions(type="email_*"), CHANNEL, kv.StringExact("ops")), None),
    ("known-fail-sorted", ExpectEachKnownValue(NOTIFY, CHANNEL, kv.StringExact("ops")),
     "ExpectEachKnownValue: Actions('action.webhook_send.*'): channel: 1 of 3 failed: "
     f'{N} (AfterCreate of aws_instance.web[1]): expected value "ops" for StringExact check, got: "dev"'),
    ("known-unknown", ExpectEachKnownValue(NOTIFY, New("retries"), kv.Null()),
     "ExpectEachKnownValue: Actions('action.webhook_send.*'): retries: "
     f"1 of 3 unknown until apply: {N} (Invoke for aws_instance.db) (retries)"),
    ("known-unknown-pass", ExpectEachKnownValue(NOTIFY, New("retries"), kv.Null(), unknown="pass"), None),
    ("known-sensitive-hidden", ExpectEachKnownValue(Actions(event="Invoke"), New("token"), kv.StringExact("x")),
     "ExpectEachKnownValue: Actions(event=ActionTriggerEvent.Invoke): token: 2 of 2 failed: "
     "action.email_send.page (Invoke): expected value (sensitive) for StringExact check, got: (sensitive); "
     f"{N} (Invoke for aws_instance.db): expected value (sensitive) for StringExact check, got: (sensitive)"),
    ("sensitive-pass", ExpectEachSensitiveValue(Actions(), New("token")), None),
    ("sensitive-fail", ExpectEachSensitiveValue(Actions(triggered_by="aws_instance.web[*]"), CHANNEL),
     "ExpectEachSensitiveValue: Actions(triggered_by='aws_instance.web[*]'): channel: 2 of 2 failed: "
     f'{N} (AfterCreate of aws_instance.web[0]): it is not sensitive; it is known: "ops"; '
     f'{N} (AfterCreate of aws_instance.web[1]): it is not sensitive; it is known: "dev"'),
    ("unknown-pass", ExpectEachUnknownValue(Actions(triggered_by="aws_instance.web[0]"), New("url")), None),
    ("unknown-fail", ExpectEachUnknownValue(NOTIFY, New("url")),
     "ExpectEachUnknownValue: Actions('action.webhook_send.*'): url: 2 of 3 failed: "
     f"{N} (AfterCreate of aws_instance.web[1]): it is not present (no key \"url\" in an object with 3 keys); "
     f"{N} (Invoke for aws_instance.db): it is not present (no key \"url\" in an object with 3 keys, "
     '1 unknown until apply: "retries")'),
    ("null-by-calling-resource", ExpectEachNullValue(Actions(triggered_by="aws_instance.db"), New("retries")),
     "ExpectEachNullValue: Actions(triggered_by='aws_instance.db'): retries: "
     f"1 of 1 unknown until apply: {N} (Invoke for aws_instance.db) (retries)"),
    ("null-event", ExpectEachNullValue(Actions(N, event=ActionTriggerEvent.AfterCreate), New("retries")), None),
    ("empty", ExpectEachKnownValue(Actions(event="BeforeDestroy"), CHANNEL, kv.NotNull()),
     "ExpectEachKnownValue: Actions(event=ActionTriggerEvent.BeforeDestroy): selects no action invocation in the "
     f"plan; it invokes: action.email_send.page (Invoke), {N} (AfterCreate of aws_instance.web[0]), "
     f"{N} (AfterCreate of aws_instance.web[1]), {N} (Invoke for aws_instance.db) "
     "(allow_empty=True on the selector accepts that)"),
    ("empty-allowed", ExpectEachKnownValue(Actions("action.x.*", allow_empty=True), CHANNEL, kv.NotNull()), None),
]


@pytest.mark.parametrize(("check", "failure"), [r[1:] for r in CHECKS], ids=[r[0] for r in CHECKS])
def test_each_check_asks_every_selected_invocation(check: Any, failure: str | None) -> None:
    plan = _plan()
    if failure is None:
        check.CheckPlan(plan)
        return
    with pytest.raises(PlanCheckError) as info:
        check.CheckPlan(plan)
    assert str(info.value) == failure
    assert TOKEN not in str(info.value)
    assert TOKEN not in repr(info.value)
    assert plan.raw == DOCUMENT  # nothing passed in is mutated


def test_the_order_of_violations_is_not_the_documents() -> None:
    reversed_plan = Plan.from_dict({**DOCUMENT, "action_invocations": DOCUMENT["action_invocations"][::-1]})
    check = ExpectEachSensitiveValue(Actions(), CHANNEL)
    assert [f.message for f in check.failures(reversed_plan)] == [f.message for f in check.failures(_plan())]


def test_a_sensitive_value_shows_only_when_revealing() -> None:
    check = ExpectEachKnownValue(Actions(event="Invoke"), New("token"), kv.StringExact("x"))
    with revealing_sensitive():
        assert TOKEN in check.failures(_plan())[0].message


SELECTS = [
    ("address-glob", Actions("action.webhook_send.*"), [N, N, N]),
    ("address-without-key-covers-instances", Actions("action.email_send.page"), ["action.email_send.page"]),
    ("type", Actions(type="email_send"), ["action.email_send.page"]),
    ("event-name-any-case", Actions(event="aftercreate"), [N, N]),
    ("event-invoke", Actions(event=ActionTriggerEvent.Invoke), ["action.email_send.page", N]),
    ("triggered-by-lifecycle", Actions(triggered_by="aws_instance.web"), [N, N]),
    ("triggered-by-calling", Actions(triggered_by="aws_instance.db"), [N]),
    ("all", Actions(), ["action.webhook_send.notify", "action.email_send.page", N, N]),
    ("none", Actions("action.nothing.*"), []),
]


@pytest.mark.parametrize(("selector", "addresses"), [r[1:] for r in SELECTS], ids=[r[0] for r in SELECTS])
def test_select_in_document_order(selector: Actions, addresses: list[str]) -> None:
    assert [ai.address for ai in selector.select(_plan())] == addresses


BAD = [
    ("address-int", lambda: Actions(3), ArgumentError, "Actions: address must be a str pattern, got int"),
    ("address-empty", lambda: Actions(""), ArgumentError, "Actions: address must not be empty"),
    ("address-bad-glob", lambda: Actions("action.t.n["), ArgumentError,
     "Actions: address 'action.t.n[' is not a valid pattern: '[' at offset 10 is never closed"),
    ("type-int", lambda: Actions(type=1), ArgumentError, "Actions: type must be a str, got int"),
    ("type-empty", lambda: Actions(type=""), ArgumentError, "Actions: type must not be empty"),
    ("event-typo", lambda: Actions(event="AfterCreat"), ArgumentError,
     "Actions: event 'AfterCreat' is not an ActionTriggerEvent; did you mean AfterCreate? (one of BeforeCreate, "
     "AfterCreate, BeforeUpdate, AfterUpdate, BeforeDestroy, AfterDestroy, Invoke)"),
    ("event-other", lambda: Actions(event="Sometimes"), ArgumentError,
     "Actions: event 'Sometimes' is not an ActionTriggerEvent; (one of BeforeCreate, AfterCreate, BeforeUpdate, "
     "AfterUpdate, BeforeDestroy, AfterDestroy, Invoke)"),
    ("event-int", lambda: Actions(event=2), ArgumentError, "Actions: event must be an ActionTriggerEvent or its name, got int"),
    ("triggered-by-bad-glob", lambda: Actions(triggered_by="a.b]"), ArgumentError,
     "Actions: triggered_by 'a.b]' is not a valid pattern: ']' at offset 3 closes nothing"),
    ("allow-empty-str", lambda: Actions(allow_empty="yes"), ArgumentError, "Actions: allow_empty must be a bool, got str"),
    ("select-a-state", lambda: Actions().select(State.from_dict({"format_version": "1.0"})), ArgumentError,
     "Actions.select: expected a plancheck.Plan (a state records no action invocations), got State"),
    ("each-selector-wrong-type", lambda: ExpectEachNullValue(None, CHANNEL), ArgumentError,
     "ExpectEachNullValue: selector must be a plancheck.Resources, a plancheck.Actions or an address glob (str), "
     "got NoneType"),
    # a count of resource changes does not count invocations: the selector says which it counts
    ("count-takes-resources", lambda: ExpectCount(Actions(), 1), ArgumentError,
     "ExpectCount: selector must be a plancheck.Resources or an address glob (str), got Actions"),
]


@pytest.mark.parametrize(("build", "error", "message"), [r[1:] for r in BAD], ids=[r[0] for r in BAD])
def test_bad_arguments_are_typed_errors(build: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        build()
    assert type(info.value) is error
    assert str(info.value) == message


def test_the_selector_is_a_value() -> None:
    assert Actions("a.*", event="Invoke") == Actions("a.*", event=ActionTriggerEvent.Invoke)
    assert hash(Actions("a.*")) == hash(Actions("a.*"))
    assert repr(Actions()) == "Actions()"
    assert repr(Actions("a.*", type="t", allow_empty=True)) == "Actions('a.*', type='t', allow_empty=True)"


# -- checks files ------------------------------------------------------------------------------------------

REGISTRY = default_registry()


def test_a_checks_file_selects_invocations_with_an_actions_table() -> None:
    text = ('[[check]]\ntype = "ExpectEachKnownValue"\n'
            'selector = { actions = "action.webhook_send.*", event = "AfterCreate", triggered_by = "aws_instance.*" }\n'
            'path = "channel"\nmatcher = { type = "StringExact", value = "ops" }\n')
    [entry] = parse_checks(text, "c.toml", REGISTRY)
    check: Any = getattr(entry, "check", entry)
    assert check.selector == Actions("action.webhook_send.*", event="AfterCreate", triggered_by="aws_instance.*")
    with pytest.raises(PlanCheckError, match=r"1 of 2 failed: action\.webhook_send\.notify \(AfterCreate of "
                       r'aws_instance\.web\[1\]\): expected value "ops"'):
        check.CheckPlan(_plan())


FILE_ERRORS = [
    ("misspelt-field", 'selector = { actions = "action.t.*", evnet = "Invoke" }',
     "c.toml:4: check[0].selector.evnet: unknown action selector field 'evnet'; did you mean 'event'? "
     "(an action selector takes: actions, type, event, triggered_by, allow_empty)"),
    ("resource-field-beside-actions", 'selector = { actions = "action.t.*", mode = "data" }',
     "c.toml:4: check[0].selector.mode: unknown action selector field 'mode' "
     "(an action selector takes: actions, type, event, triggered_by, allow_empty)"),
    ("bad-event", 'selector = { actions = "action.t.*", event = "AfterCreat" }',
     "c.toml:4: check[0].selector.event: Actions: event 'AfterCreat' is not an ActionTriggerEvent; did you mean "
     "AfterCreate? (one of BeforeCreate, AfterCreate, BeforeUpdate, AfterUpdate, BeforeDestroy, AfterDestroy, Invoke)"),
    ("actions-not-a-string", "selector = { actions = 3 }",
     "c.toml:4: check[0].selector.actions: expected a string, found a number"),
    ("bad-glob", 'selector = { actions = "action.t[" }',
     "c.toml:4: check[0].selector.actions: Actions: address 'action.t[' is not a valid pattern: "
     "'[' at offset 8 is never closed"),
    ("allow-empty-not-bool", 'selector = { actions = "a.*", allow_empty = "yes" }',
     "c.toml:4: check[0].selector.allow_empty: expected a boolean, found a string"),
]


@pytest.mark.parametrize(("body", "message"), [r[1:] for r in FILE_ERRORS], ids=[r[0] for r in FILE_ERRORS])
def test_a_bad_action_selector_in_a_checks_file_is_located(body: str, message: str) -> None:
    with pytest.raises(ChecksFileError) as info:
        parse_checks(f'[[check]]\ntype = "ExpectEachNullValue"\npath = "id"\n{body}\n', "c.toml", REGISTRY)
    assert str(info.value) == message


def test_a_resources_only_check_does_not_take_an_actions_table() -> None:
    with pytest.raises(ChecksFileError) as info:
        parse_checks('[[check]]\ntype = "ExpectCount"\nn = 1\nselector = { actions = "a.*" }\n', "c.toml", REGISTRY)
    assert str(info.value) == (
        "c.toml:4: check[0].selector.actions: unknown selector field 'actions'; did you mean 'action'? "
        "(a selector takes: type, module, address, mode, provider, action, allow_empty)")
