"""A TestCheck function refuses its first bad argument, in the order Go's signature lists them (as on main).

The #34 refactor built the value's (or regex's, or pointer's) check as an argument of the shared helper, so
it ran before the name and key were checked: a call with a bad name and a bad value named the value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from plancheck.acceptance import (
    TestCheckModuleResourceAttr,
    TestCheckModuleResourceAttrPtr,
    TestCheckResourceAttr,
    TestCheckResourceAttrPtr,
    TestCheckResourceAttrWith,
    TestDefinitionError,
    TestMatchResourceAttr,
    TestModuleMatchResourceAttr,
)


@pytest.mark.parametrize(
    ("func", "args"),
    [
        pytest.param(TestCheckResourceAttr, (1, "k", 2), id="TestCheckResourceAttr"),
        pytest.param(TestCheckModuleResourceAttr, (["c"], 1, "k", 2), id="TestCheckModuleResourceAttr"),
        pytest.param(TestMatchResourceAttr, (1, "k", "("), id="TestMatchResourceAttr"),
        pytest.param(TestModuleMatchResourceAttr, (["c"], 1, "k", "("), id="TestModuleMatchResourceAttr"),
        pytest.param(TestCheckResourceAttrPtr, (1, "k", 5), id="TestCheckResourceAttrPtr"),
        pytest.param(TestCheckModuleResourceAttrPtr, (["c"], 1, "k", 5), id="TestCheckModuleResourceAttrPtr"),
        pytest.param(TestCheckResourceAttrWith, (1, "k", 5), id="TestCheckResourceAttrWith"),
    ],
)
def test_a_bad_name_is_named_before_a_bad_value(func: Callable[..., Any], args: tuple[Any, ...]) -> None:
    with pytest.raises(TestDefinitionError, match=rf"^{func.__name__}: name: "):
        func(*args)
