"""No check message or repr shows a value under a sensitive mark, nor a sensitive output."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from testcheck_support import make_state, resource

from plancheck import revealing_sensitive
from plancheck.acceptance import (
    CheckFunc,
    ComposeAggregateTestCheckFunc,
    FlatState,
    TestCheckModuleResourceAttr,
    TestCheckOutput,
    TestCheckResourceAttr,
    TestCheckResourceAttrPair,
    TestCheckResourceAttrWith,
    TestCheckTypeSetElemAttr,
    TestCheckTypeSetElemAttrPair,
    TestCheckTypeSetElemNestedAttrs,
    TestMatchOutput,
    TestMatchResourceAttr,
    TestMatchTypeSetElemNestedAttrs,
)

SECRET = "planted-Zq81-secret"
KEY_SECRET = "tagkey-Mm42-secret"
OUT_SECRET = "out-Vv93-secret"
SHORT = "ab"  # too short to scrub by value: only the marks hide it

STATE = make_state(
    [
        resource(
            "test.a",
            {
                "pw": SECRET,
                "short": SHORT,
                "tags": {KEY_SECRET: "v"},
                "creds": [{"user": "u", "token": SECRET}],
                "plain": "visible",
            },
            {"pw": True, "short": True, "tags": True, "creds": [{"token": True}]},
        ),
        resource("test.b", {"plain": "other"}),
    ],
    outputs={"o": {"value": OUT_SECRET, "sensitive": True}, "n": {"value": 12345678, "sensitive": True}},
    modules=[
        {
            "address": "module.m",
            "resources": [resource("module.m.test.c", {"pw": SECRET}, {"pw": True})],
        }
    ],
)

FAILING: list[Any] = [
    pytest.param(TestCheckResourceAttr("test.a", "pw", "wrong"), id="attr"),
    pytest.param(TestCheckResourceAttr("test.a", "short", "xy"), id="attr-short"),
    pytest.param(TestCheckResourceAttr("test.a", f"tags.{KEY_SECRET}", "w"), id="attr-secret-key"),
    pytest.param(TestCheckResourceAttr("test.a", "creds.0.token", "wrong"), id="attr-nested"),
    pytest.param(TestMatchResourceAttr("test.a", "pw", "^nomatch$"), id="match"),
    pytest.param(TestMatchResourceAttr("test.a", "short", "^x"), id="match-short"),
    pytest.param(TestCheckResourceAttrWith("test.a", "pw", lambda v: ValueError(f"bad {v}")), id="with-echoes-value"),
    pytest.param(TestCheckResourceAttrWith("test.a", "short", lambda v: ValueError(f"bad {v}!")), id="with-echoes-short"),
    pytest.param(TestCheckResourceAttrPair("test.a", "pw", "test.b", "plain"), id="pair-first"),
    pytest.param(TestCheckResourceAttrPair("test.b", "plain", "test.a", "pw"), id="pair-second"),
    pytest.param(TestCheckResourceAttrPair("test.a", "short", "test.b", "nope"), id="pair-only-first-set"),
    pytest.param(TestCheckResourceAttrPair("test.b", "nope", "test.a", "short"), id="pair-only-second-set"),
    pytest.param(TestCheckTypeSetElemAttr("test.a", "creds.*", "x"), id="set-elem-dump"),
    pytest.param(TestCheckTypeSetElemNestedAttrs("test.a", "creds.*", {"token": "nope"}), id="set-nested-dump"),
    pytest.param(TestMatchTypeSetElemNestedAttrs("test.a", "creds.*", {"token": "^nope"}), id="set-match-dump"),
    pytest.param(TestCheckTypeSetElemAttrPair("test.b", "plain.*", "test.a", "short"), id="set-pair-value"),
    pytest.param(TestCheckModuleResourceAttr(["m"], "test.c", "pw", "x"), id="module"),
    pytest.param(TestCheckOutput("o", "x"), id="output"),
    pytest.param(TestCheckOutput("n", "1"), id="output-number"),
    pytest.param(TestMatchOutput("o", "^x"), id="match-output"),
]

LEAKS = [SECRET, KEY_SECRET, OUT_SECRET, "12345678"]


def _message(check: Callable[[Any], None]) -> str:
    with pytest.raises(AssertionError) as info:
        check(STATE)
    return str(info.value)


@pytest.mark.parametrize("check", FAILING)
def test_no_secret_in_message(check: CheckFunc) -> None:
    message = _message(check)
    assert "(sensitive)" in message
    for secret in LEAKS:
        assert secret not in message
    assert not re.search(rf"\b{SHORT}\b", message.replace('"ab"', "")), message
    assert f'"{SHORT}"' not in message


@pytest.mark.parametrize("check", FAILING)
def test_no_secret_in_composed_message(check: CheckFunc) -> None:
    message = _message(ComposeAggregateTestCheckFunc(check))
    for secret in LEAKS:
        assert secret not in message


def test_a_callers_own_check_is_scrubbed_when_composed() -> None:
    def leaky(state: Any) -> None:
        raise AssertionError(f"the password is {SECRET}")

    assert _message(ComposeAggregateTestCheckFunc(leaky)) == "Check 1/1 error: the password is (sensitive)"


def test_reprs_hold_no_secret() -> None:
    flat = FlatState.of(STATE)
    attrs = flat.attributes("test.a")
    assert attrs is not None
    shown = repr(attrs) + repr(flat) + repr(TestCheckResourceAttr("test.a", "pw", SECRET))
    assert SECRET not in shown
    assert f'"{SHORT}"' not in shown


def test_revealing_shows_values_on_purpose() -> None:
    with revealing_sensitive():
        message = _message(TestCheckResourceAttr("test.a", "pw", "wrong"))
    assert message == f"test.a: Attribute 'pw' expected \"wrong\", got \"{SECRET}\""
