"""A MockProvider crosses processes (pytest-xdist, multiprocessing): it pickles and copies as all it holds, its
locks made anew, a copy a mock of its own; a default function pickle cannot name is a MockNotPicklableError naming
the mock and the default."""

from __future__ import annotations

import copy
import functools
import json
import pickle
from collections.abc import Callable
from typing import Any

import pytest
from mock_support import NULL_SCHEMA, SECRET, Direct

from plancheck import NotPicklableError, TfCheckError
from plancheck.acceptance import MockNotPicklableError, MockProvider

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
    pytest.param(copy.copy, id="copy"),
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
    # And the other way: what the original serves after the copy is not the copy's.
    Direct(mock).create("null_resource", {"id": None, "triggers": {"n": "3"}})
    mock.plancheck_secrets(["learned-after-the-copy"])
    assert (len(mock.calls), len(twin.calls)) == (4, 4)
    assert (twin._learned_secrets().scrub("learned-after-the-copy"), twin._lock is not mock._lock) == (
        "learned-after-the-copy", True)


def test_a_mocks_calls_pickle_alone_still_scrubbed() -> None:
    calls = pickle.loads(pickle.dumps(_served().calls))
    assert (len(calls), SECRET in repr(calls)) == (2, False)


# Lambdas at module level on purpose: pickle cannot name them.
_module_lambda = lambda config: {"id": "x"}  # noqa: E731
_attribute_lambda = lambda config: "x"  # noqa: E731


def _named(config: Any) -> str:
    return "x"


def _local() -> Callable[[Any], str]:
    def local(config: Any) -> str:
        return "x"

    return local


def _calls_after_a_create(mock: MockProvider) -> list[Any]:
    Direct(mock).create("null_resource", {"id": None, "triggers": None})
    return mock.calls  # each call's scrub is the mock's: a call pickles the mock


_SENT = ("which pickle cannot send (it sends a function by its module and name, and finds none for a lambda or a "
         "function defined inside another); define the function at the top level of a module to send the mock to "
         "another process")

UNSENDABLE: list[Any] = [
    pytest.param({"mock_resources": {"null_resource": _module_lambda}},
                 f'mock_resources["null_resource"] is <lambda>, {_SENT}', id="a-lambda-as-a-whole-type-s-default"),
    pytest.param({"mock_resources": {"null_resource": {"id": _local()}}},
                 f'mock_resources["null_resource"]["id"] is _local.<locals>.local, {_SENT}',
                 id="a-local-function-as-an-attribute-s-default"),
    pytest.param({"mock_data": {"data.null_data_source.x": {"id": _named, "random": _attribute_lambda}}},
                 f'mock_data["data.null_data_source.x"]["random"] is <lambda>, {_SENT}', id="a-mock-data-address-key"),
    pytest.param({"mock_resources": {"null_resource": {"id": functools.partial(_attribute_lambda)}}},
                 f'mock_resources["null_resource"]["id"] is a partial, {_SENT}', id="a-callable-that-holds-one"),
]


@pytest.mark.parametrize("send", [
    pytest.param(lambda mock: mock, id="the-mock"),
    pytest.param(lambda mock: mock(), id="a-case-s-mock"),
    pytest.param(lambda mock: _calls_after_a_create(mock), id="its-calls"),
])
@pytest.mark.parametrize(("options", "problem"), UNSENDABLE)
def test_a_default_function_pickle_cannot_send_is_a_typed_error_naming_the_mock_and_the_default(
    options: dict[str, Any], problem: str, send: Callable[[MockProvider], Any]
) -> None:
    sent = send(_null_mock(**options))
    for protocol in (0, pickle.HIGHEST_PROTOCOL):
        with pytest.raises(MockNotPicklableError) as info:
            pickle.dumps(sent, protocol)
        assert str(info.value) == f"the mock of registry.terraform.io/hashicorp/null does not pickle: {problem}"
    # Caught as pickle's own error for such a function is, and as the package's.
    assert all(isinstance(info.value, kind) for kind in (pickle.PicklingError, NotPicklableError, TfCheckError))
    assert (info.value.mock, info.value.where) == ("the mock of registry.terraform.io/hashicorp/null",
                                                   problem.partition(" is ")[0])


@pytest.mark.parametrize("copied", [pytest.param(copy.deepcopy, id="deepcopy"), pytest.param(copy.copy, id="copy")])
@pytest.mark.parametrize(("options", "problem"), UNSENDABLE)
def test_a_copy_needs_no_function_pickle_can_send(
    options: dict[str, Any], problem: str, copied: Callable[[MockProvider], MockProvider]
) -> None:
    mock = _null_mock(**options)
    twin = copied(mock)
    assert (repr(twin), repr(twin._resource_defaults), repr(twin._data_defaults)) == (
        repr(mock), repr(mock._resource_defaults), repr(mock._data_defaults))
