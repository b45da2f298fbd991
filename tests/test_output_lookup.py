"""A missing output is named as an output: Plan.output_change (and ``tfplancheck query plan.json output.NAME``)
said "resource 'ipp' is not in the plan's output changes"."""

from __future__ import annotations

import pytest

from plancheck import Plan, ResourceNotFoundError

PLAN = Plan.from_dict({"format_version": "1.2", "output_changes": {"ip": {"actions": ["create"], "after": "x"}}})


@pytest.mark.parametrize(("name", "message"), [
    pytest.param("ipp", "output 'ipp' is not in the plan's output changes; closest: ip", id="closest"),
    pytest.param("zzzzzz", "output 'zzzzzz' is not in the plan's output changes; the plan's output changes has no "
                 "similar name", id="nothing-similar"),
])
def test_a_missing_output_is_named_as_an_output(name: str, message: str) -> None:
    with pytest.raises(ResourceNotFoundError) as caught:
        PLAN.output_change(name)
    assert str(caught.value) == message
