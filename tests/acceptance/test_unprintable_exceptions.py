"""Issue #33: the acceptance runner's callbacks (Go's check functions) may raise or return an exception whose
``str()`` raises: it is still that check's failure, named by the exception's type, never a second error."""

from __future__ import annotations

from typing import Any

import pytest

from plancheck.acceptance._checks import call_check
from plancheck.acceptance._testcheck.flatmap import FlatAttributes
from plancheck.acceptance._testcheck.funcs import Fail, _with


class Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text for you")


class UnprintableAssertion(AssertionError):
    def __str__(self) -> str:
        raise RuntimeError("no text for you")


def _raises(error: BaseException) -> Any:
    def check(*args: Any) -> Any:
        raise error

    return check


CALLBACKS = [
    pytest.param(_raises(Unprintable()), "Unprintable", id="raises"),
    pytest.param(lambda value: Unprintable(), "Unprintable", id="returns"),
]


@pytest.mark.parametrize(("func", "named"), CALLBACKS)
def test_a_check_value_function_s_unprintable_exception_is_named(func: Any, named: str) -> None:
    with pytest.raises(Fail) as info:
        _with(FlatAttributes({"name": "web"}), "widget.a", "name", func)
    assert str(info.value) == f'widget.a: Attribute "name" value: {named}'


IMPORT_CHECKS = [
    pytest.param(_raises(UnprintableAssertion()), "UnprintableAssertion", id="assertion"),
    pytest.param(lambda state: Unprintable(), "Unprintable", id="returned"),
]


@pytest.mark.parametrize(("func", "named"), IMPORT_CHECKS)
def test_an_import_state_check_s_unprintable_exception_is_named(func: Any, named: str) -> None:
    assert call_check(func, {}) == named
