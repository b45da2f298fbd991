"""Plan(raw) and State(raw) take a document already parsed and validated; given JSON text, None or a list
they failed inside with AttributeError: 'str' object has no attribute 'get'. A TypeError that says what to
call instead."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from plancheck import Plan, State


@pytest.mark.parametrize(("make", "message"), [
    pytest.param(lambda: Plan('{"format_version": "1.2"}'), "Plan() takes a plan document already parsed (a dict), "
                 "got str: load one with plancheck.load_plan, Plan.from_json or Plan.from_dict", id="plan-json-text"),
    pytest.param(lambda: Plan(None), "Plan() takes a plan document already parsed (a dict), got NoneType: load one "
                 "with plancheck.load_plan, Plan.from_json or Plan.from_dict", id="plan-none"),
    pytest.param(lambda: State([]), "State() takes a state document already parsed (a dict), got list: load one "
                 "with plancheck.load_state, State.from_json or State.from_dict", id="state-list"),
])
def test_a_document_constructor_given_no_dict_says_what_to_call(make: Callable[[], Any], message: str) -> None:
    with pytest.raises(TypeError) as caught:
        make()
    assert str(caught.value) == message
