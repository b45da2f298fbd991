"""A value held in many places, given to ``TestStep(variables=...)``, ``TestStep(config=<dict>)`` or
``mock_plan(variables=...)``: each container is walked once, and a value whose JSON would be over the loader's input
limit (``PLANCHECK_MAX_BYTES``, 2 GiB by default) is refused naming the variable (or block) and the size, before any
copy.

JSON has no references: ``v = []; for _ in range(40): v = [v, v]`` is a few dozen objects, and terabytes as a
``terraform.tfvars.json`` or ``main.tf.json``. Before these rows the step's copy and its secrets walk went down each of
the ``2**40`` ways (the test never ended), and a configuration dict was taken, then written out when the case ran.
The work is counted through a mapping that counts its reads, never timed; the messages are pinned whole, and the
planted secret (a Sensitive string that a variable's name spells) shows in none.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from counted_reads import Counted, counted_shared

from plancheck.acceptance import MockPlanArgumentError, Sensitive, TestDefinitionError, TestStep, mock_plan
from plancheck.acceptance._case import unwrap_sensitive
from plancheck.acceptance._runner import _variables_argument
from plancheck.acceptance._workplace import WorkingDirectory

SECRET = "hunter2shared7Qz"
#: ``_shared(40)``'s compact JSON: 2 characters at the bottom, ``[`` + two copies + ``,`` + ``]`` a level up.
SIZE_40 = 5 * 2**40 - 3
_OVER = "expected at most 2147483648 bytes of JSON in all (raise the limit with PLANCHECK_MAX_BYTES), got at least"
_WHY = "a value held in many places is written out at each"


def _shared(levels: int, kind: str = "list") -> Any:
    """A value whose every container is held twice by the one above it: ``2**levels`` ways down, no cycle."""
    value: Any = [] if kind == "list" else {}
    for _ in range(levels):
        value = [value, value] if kind == "list" else {"l": value, "r": value}
    return value


@pytest.fixture(autouse=True)
def _default_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PLANCHECK_MAX_BYTES", raising=False)


REFUSED = [
    pytest.param(lambda: TestStep(config="", variables={"v": _shared(40)}), TestDefinitionError,
                 f'TestStep.variables["v"]: {_OVER} {SIZE_40 + 6}, at least {SIZE_40} of them here: {_WHY}',
                 id="step-variable-list"),
    pytest.param(lambda: TestStep(config="", variables={"v": _shared(40, "dict")}), TestDefinitionError,
                 f'TestStep.variables["v"]: {_OVER} {13 * 2**40 - 5}, at least {13 * 2**40 - 11} of them here: {_WHY}',
                 id="step-variable-dict"),
    pytest.param(lambda: TestStep(config="", variables={"v": Sensitive(_shared(40))}), TestDefinitionError,
                 f'TestStep.variables["v"]: {_OVER} {SIZE_40 + 6}, at least {SIZE_40} of them here: {_WHY}',
                 id="step-sensitive-variable"),
    # The largest variable is named, and the size of them all.
    pytest.param(lambda: TestStep(config="", variables={"a": 1, "v": _shared(40), "z": "x"}), TestDefinitionError,
                 f'TestStep.variables["v"]: {_OVER} {SIZE_40 + 20}, at least {SIZE_40} of them here: {_WHY}',
                 id="step-largest-variable-named"),
    # A variable's name spelling a Sensitive string of the step is hidden as that string is.
    pytest.param(lambda: TestStep(config="", variables={"pw": Sensitive(SECRET), SECRET: _shared(40)}),
                 TestDefinitionError,
                 f'TestStep.variables["(sensitive)"]: {_OVER} {SIZE_40 + 45}, at least {SIZE_40} of them here: {_WHY}',
                 id="step-variable-named-as-a-secret"),
    pytest.param(lambda: TestStep(config={"locals": {"x": _shared(40)}}), TestDefinitionError,
                 f'TestStep.config["locals"]: {_OVER} {SIZE_40 + 17}, at least {SIZE_40 + 6} of them here: {_WHY}',
                 id="step-config-dict"),
    pytest.param(lambda: mock_plan(".", mocks=[], variables={"v": Sensitive(_shared(40))}), MockPlanArgumentError,
                 f'variables["v"]: {_OVER} {SIZE_40 + 6}, at least {SIZE_40} of them here: {_WHY}',
                 id="mock-plan-variables"),
]


@pytest.mark.parametrize(("call", "error", "message"), REFUSED)
def test_a_value_too_large_as_json_is_refused_naming_it_and_its_size(call: Callable[[], object],
                                                                     error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message
    assert SECRET not in str(info.value)


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        pytest.param("47", 'TestStep.variables["v"]: expected at most 47 bytes of JSON in all (raise the limit with '
                     f"PLANCHECK_MAX_BYTES), got at least 48, at least 42 of them here: {_WHY}", id="knob-lowered"),
        pytest.param("0", "TestStep.variables: PLANCHECK_MAX_BYTES must be a positive number of bytes, got '0'",
                     id="knob-not-a-size"),
    ],
)
def test_the_limit_is_the_loaders_environment_knob(monkeypatch: pytest.MonkeyPatch, environ: str, message: str) -> None:
    monkeypatch.setenv("PLANCHECK_MAX_BYTES", environ)
    with pytest.raises(TestDefinitionError) as info:
        TestStep(config="", variables={"v": "x" * 40})
    assert str(info.value) == message


def test_a_value_at_the_limit_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLANCHECK_MAX_BYTES", "48")  # {"v":"x...x"}: the braces, "v" and its colon, 40 x and quotes
    assert TestStep(config="", variables={"v": "x" * 40}).variables["v"] == "x" * 40


@pytest.mark.parametrize("call", [
    pytest.param(lambda: TestStep(config=""), id="step-without-variables"),
    pytest.param(lambda: TestStep(config={}), id="step-empty-config-dict"),
    pytest.param(lambda: unwrap_sensitive({}, "variables"), id="mock-plan-without-variables"),
])
def test_nothing_to_write_is_never_over_the_limit(monkeypatch: pytest.MonkeyPatch, call: Callable[[], object]) -> None:
    monkeypatch.setenv("PLANCHECK_MAX_BYTES", "1")  # "{}" is two bytes, but no file is written
    assert call() is not None


# Each container of a value shared at every level is read a few times (the cycle finder, the size, the copy, the
# secrets), not once per way down: 2**16 ways here, 17 containers.
WALKS = [
    pytest.param(lambda v: TestStep(config="", variables={"v": v}), id="step-variables"),
    pytest.param(lambda v: TestStep(config="", variables={"v": Sensitive(v)}).secrets, id="step-secrets"),
    pytest.param(lambda v: TestStep(config={"locals": {"x": v}}), id="step-config-dict"),
    pytest.param(lambda v: _variables_argument({"v": Sensitive(v)}), id="mock-plan-variables"),
]


@pytest.mark.parametrize("call", WALKS)
def test_a_shared_container_is_read_a_few_times_not_once_per_way_down(call: Callable[[Any], object]) -> None:
    value = counted_shared(16)
    Counted.reads = 0
    call(value)
    assert 0 < Counted.reads <= 8 * 17


def test_the_copy_shares_what_the_value_shares() -> None:
    copied = unwrap_sensitive({"v": _shared(12), "s": Sensitive(_shared(12, "dict"))}, "variables")
    assert copied["v"][0] is copied["v"][1]
    assert copied["s"]["l"] is copied["s"]["r"]
    assert copied == {"v": _shared(12), "s": _shared(12, "dict")}


def test_a_shared_value_is_written_out_whole_at_each_place(tmp_path: Path) -> None:
    bottom = {"n": 10**30, "d": [1.5, "s"]}
    value = [[bottom, bottom], [bottom, bottom]]
    WorkingDirectory(tmp_path).write_step(TestStep(config='output "x" { value = 1 }', variables={"v": value}))
    written = (tmp_path / "terraform.tfvars.json").read_text(encoding="utf-8")
    assert json.loads(written) == {"v": value}
    assert written.count("1000000000000000000000000000000") == 4
