"""A MockProvider crosses processes (pytest-xdist, multiprocessing): it pickles and deep-copies as all it holds, its
locks made anew; a default function pickle cannot name is pickle's own error naming it."""

from __future__ import annotations

import copy
import json
import pickle
import re
from collections.abc import Callable
from typing import Any

import pytest
from mock_support import NULL_SCHEMA, SECRET, Direct

from plancheck.acceptance import MockProvider

NULL = "hashicorp/null"


def _null_mock(**options: Any) -> MockProvider:
    return MockProvider(json.loads(NULL_SCHEMA.read_text(encoding="utf-8")), NULL, **options)


def _fresh() -> MockProvider:
    return _null_mock(seed=7, mock_resources={"null_resource": {"id": "fixed"}})


def _served() -> MockProvider:
    """A mock that served a case: a create whose trigger is a secret the runner handed over."""
    mock = _fresh()
    Direct(mock).create("null_resource", {"id": None, "triggers": {"n": SECRET}})
    mock.plancheck_secrets([SECRET])
    return mock


COPIES: list[Any] = [
    pytest.param(lambda m: pickle.loads(pickle.dumps(m, 0)), id="pickle-protocol-0"),
    pytest.param(lambda m: pickle.loads(pickle.dumps(m, pickle.HIGHEST_PROTOCOL)), id="pickle-highest-protocol"),
    pytest.param(copy.deepcopy, id="deepcopy"),
]

MOCKS: list[Any] = [
    pytest.param(_fresh, 0, id="fresh"),
    pytest.param(_served, 2, id="served-a-case-with-a-secret"),
]


def _seen(mock: MockProvider) -> tuple[Any, ...]:
    return (repr(mock), mock.seed, mock.override_during, mock.calls, repr(mock.calls), mock.objects("null_resource"))


@pytest.mark.parametrize("copied", COPIES)
@pytest.mark.parametrize(("make", "calls"), MOCKS)
def test_a_mock_round_trips_with_all_it_holds(
    make: Callable[[], MockProvider], calls: int, copied: Callable[[MockProvider], MockProvider]
) -> None:
    mock = make()
    twin = copied(mock)
    assert (type(twin), _seen(twin), len(twin.calls)) == (MockProvider, _seen(mock), calls)
    assert SECRET not in repr(twin.calls)  # the secrets it scrubs travel with the calls they scrub
    assert twin._lock is not mock._lock


@pytest.mark.parametrize("copied", COPIES)
def test_a_copy_serves_its_own_cases(copied: Callable[[MockProvider], MockProvider]) -> None:
    mock = _served()
    twin = copied(mock)
    Direct(twin).create("null_resource", {"id": None, "triggers": {"n": "2"}})
    assert (len(mock.calls), len(twin.calls)) == (2, 4)
    assert [o["triggers"]["n"] for o in twin.objects("null_resource")] == ["2"]
    assert [o["triggers"]["n"] for o in mock.objects("null_resource")] == [SECRET]


def test_a_mocks_calls_pickle_alone_still_scrubbed() -> None:
    calls = pickle.loads(pickle.dumps(_served().calls))
    assert (len(calls), SECRET in repr(calls)) == (2, False)


_module_lambda = lambda config: {"id": "x"}  # noqa: E731 - a lambda at module level on purpose: pickle cannot name it


def test_a_default_function_pickle_cannot_name_is_picklings_own_error_naming_it() -> None:
    # As any value holding such a function (a knownvalue.StringFunc's): pickle's own error, which names the function.
    def local(config: Any) -> dict[str, Any]:
        return {"id": "x"}

    with pytest.raises(AttributeError) as local_error:
        pickle.dumps(_null_mock(mock_resources={"null_resource": {"id": local}}))
    with pytest.raises(pickle.PicklingError) as lambda_error:
        pickle.dumps(_null_mock(mock_resources={"null_resource": _module_lambda}))
    assert str(local_error.value) == (
        "Can't pickle local object "
        "'test_a_default_function_pickle_cannot_name_is_picklings_own_error_naming_it.<locals>.local'"
    )
    assert re.fullmatch(r"Can't pickle <function <lambda> at 0x[0-9a-f]+>: attribute lookup <lambda> on "
                        r"test_mock_pickling failed", str(lambda_error.value))
