"""One way to write an immutable value, one way to write a read-only document view."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest

from plancheck import (
    Change,
    DeferredChange,
    OutputChange,
    Plan,
    ResourceChange,
    State,
    StateOutput,
    StateResource,
)
from plancheck._documents.plan import AddressIndex
from plancheck._frozen import FrozenValue, ReadOnly, frozen

PLAN = Plan.from_dict({
    "format_version": "1.2",
    "resource_changes": [{"address": "a.b", "change": {"actions": ["create"]}}],
    "output_changes": {"o": {"actions": ["create"]}},
    "deferred_changes": [{"reason": "provider_config_unknown",
                          "resource_change": {"address": "a.c", "change": {"actions": ["create"]}}}],
})
STATE = State.from_dict({
    "format_version": "1.0",
    "values": {"outputs": {"o": {"value": 1, "sensitive": False}},
               "root_module": {"resources": [{"address": "a.b", "mode": "managed", "type": "a", "name": "b"}]}},
})

VIEWS: list[Any] = [
    pytest.param(PLAN.resource_change("a.b").change, id="Change"),
    pytest.param(PLAN.resource_change("a.b"), id="ResourceChange"),
    pytest.param(PLAN.output_changes["o"], id="OutputChange"),
    pytest.param(PLAN.deferred_changes[0], id="DeferredChange"),
    pytest.param(AddressIndex([("a.b", None)]), id="AddressIndex"),
    pytest.param(STATE.resource("a.b"), id="StateResource"),
    pytest.param(STATE.outputs["o"], id="StateOutput"),
]


@pytest.mark.parametrize("view", VIEWS)
def test_document_views_are_read_only(view: Any) -> None:
    assert isinstance(view, ReadOnly)
    name = type(view).__name__
    with pytest.raises(AttributeError, match=f"^{name} is read-only; cannot set 'raw'$"):
        view.raw = {}
    with pytest.raises(AttributeError, match=f"^{name} is read-only; cannot delete 'x'$"):
        del view.x


def test_every_view_class_is_covered() -> None:
    classes = {Change, ResourceChange, OutputChange, DeferredChange, AddressIndex, StateResource, StateOutput}
    assert all(issubclass(c, ReadOnly) for c in classes)



_SECRET = "hunter2-planted"


@frozen
class Login(FrozenValue):
    user: str
    password: str = dataclasses.field(repr=False)
    port: int = 22
    _: dataclasses.KW_ONLY
    token: str | None = dataclasses.field(default=None, repr=False)
    label: str | None = None


@pytest.mark.parametrize(
    ("kwargs", "shown"),
    [
        pytest.param({}, "Login('ann', port=22)", id="positional-after-hidden-by-keyword"),
        pytest.param({"token": _SECRET, "label": "x"}, "Login('ann', port=22, label='x')", id="keyword-hidden"),
    ],
)
def test_fields_declared_repr_false_stay_out_of_the_repr_but_not_the_pickle(kwargs: dict[str, Any], shown: str) -> None:
    login = Login("ann", _SECRET, **kwargs)
    assert (repr(login), str(login)) == (shown, shown)
    assert login.__reduce__()[1][1:] == (("ann", _SECRET, 22), {"token": kwargs.get("token"), "label": kwargs.get("label")})
    assert pickle.loads(pickle.dumps(login)) == login
    assert copy.deepcopy(login) is login


def _holders() -> dict[str, Any]:
    from pathlib import Path

    from plancheck._terraform.binary import CommandResult, TerraformBinary
    from plancheck.acceptance._workplace import Place, RunSettings, WorkingDirectory

    env = {"TF_VAR_db_password": _SECRET, "AWS_SECRET_ACCESS_KEY": _SECRET}
    return {
        "run-settings-env": RunSettings(TerraformBinary("terraform", "1.11.4"), Path("/w"), env=env),
        "place-env": Place(WorkingDirectory(Path("/tmp/case")), env),
        "command-output": CommandResult(("terraform", "output", "-json"), "/w", 0, f'{{"pw": "{_SECRET}"}}', _SECRET, 0.5),
    }


@pytest.mark.parametrize("name", sorted(_holders()))
def test_values_holding_an_environment_or_a_commands_output_keep_them_out_of_the_repr(name: str) -> None:
    # pytest shows these as locals (--showlocals, -l) when a case fails inside the runner.
    value = _holders()[name]
    assert _SECRET not in repr(value)
    assert _SECRET in str(value._args())  # still held (and pickled, where the value pickles), only not shown


# -- a value whose part is made when asked: a failure's trusted texts ------------------------------------------

_TRUSTED = ("terraform_data.a", 'terraform_data.a: input["tags"]', 'input["tags"]')
_SHOWN = "CheckFailure('ExpectX', 'terraform_data.a', Path(MapStep('input'), MapStep('tags')), 'no')"


def _failure_trusting_later() -> Any:
    """A failure whose text shows no secret: built with a function that makes its trusted texts (#34)."""
    from plancheck import CheckFailure, ExpectKnownValue
    from plancheck import knownvalue as kv
    from plancheck._checking.messages import given_by, scrubbed_failure
    from plancheck._redact import Secrets
    from tfjsonpath import New

    check = ExpectKnownValue("terraform_data.a", New("input").AtMapKey("tags"), kv.NotNull())
    with given_by(check):
        failure = scrubbed_failure(Secrets(["hunter2"]), "ExpectX", "terraform_data.a", check.path, "no")
    assert isinstance(failure, CheckFailure)
    assert callable(failure.trust)  # built without asking what it trusts
    return failure


def _eager(failure: Any) -> Any:
    return dataclasses.replace(failure, trust=_TRUSTED)


def _moved(failure: Any) -> tuple[object, ...]:
    moved = pickle.loads(pickle.dumps(failure))
    return moved == failure, hash(moved) == hash(failure), repr(moved), moved.trust, moved.trusted, str(moved)


@pytest.mark.parametrize(
    ("use", "expected"),
    [
        pytest.param(lambda f: f == _eager(f), True, id="equal-to-the-same-failure-trusting-texts"),
        pytest.param(lambda f: hash(f) == hash(_eager(f)), True, id="hash-as-the-same-failure-trusting-texts"),
        pytest.param(repr, _SHOWN, id="repr-constructor-form"),
        pytest.param(
            _moved, (True, True, _SHOWN, _TRUSTED, _TRUSTED, 'ExpectX: terraform_data.a: input["tags"]: no'),
            id="pickle-round-trip-carries-the-texts",
        ),
        pytest.param(lambda f: dataclasses.replace(f, message="yes").trusted, _TRUSTED, id="replace-keeps-the-trust"),
        pytest.param(lambda f: dataclasses.replace(f, message="yes") == f, False, id="replace-makes-another-value"),
        pytest.param(lambda f: copy.copy(f) is f, True, id="copy-is-the-value"),
        pytest.param(lambda f: copy.deepcopy(f) is f, True, id="deepcopy-is-the-value"),
        pytest.param(lambda f: f.trusted, _TRUSTED, id="trusted-made-again"),
    ],
)
@pytest.mark.parametrize("asked", [pytest.param(False, id="trust-never-asked"), pytest.param(True, id="trust-asked")])
def test_a_failure_whose_trust_is_made_when_asked_is_a_value_that_never_changes(
    asked: bool, use: Any, expected: object
) -> None:
    # The trusted texts were a cache inside a frozen value: reading them (or pickling, which reads them) overwrote
    # the field. Now every field stays what it was built with, whatever is asked of the failure.
    failure = _failure_trusting_later()
    given = failure.trust
    if asked:
        assert failure.trusted == _TRUSTED
    assert use(failure) == expected
    assert failure.trust is given


# -- copies of a read-only document and its views

_COPIED_PLAN = {
    "format_version": "1.2",
    "resource_changes": [{"address": "a.b", "change": {"actions": ["create"], "after": {"k": [1]}}}],
    "output_changes": {"o": {"actions": ["create"], "after": "x"}},
}
_COPIED_STATE = {"format_version": "1.0", "values": {"outputs": {"o": {"value": "x", "sensitive": False}}}}


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: Plan.from_dict(_COPIED_PLAN), id="plan"),
        pytest.param(lambda: Plan.from_dict(_COPIED_PLAN).resource_changes[0], id="resource-change"),
        pytest.param(lambda: Plan.from_dict(_COPIED_PLAN).resource_changes[0].change, id="change"),
        pytest.param(lambda: Plan.from_dict(_COPIED_PLAN).output_changes["o"], id="output-change"),
        pytest.param(lambda: Plan.from_dict(_COPIED_PLAN).secrets, id="secrets"),
        pytest.param(lambda: State.from_dict(_COPIED_STATE).outputs["o"], id="state-output"),
    ],
)
@pytest.mark.parametrize(
    "copied",
    [pytest.param(copy.copy, id="copy"), pytest.param(copy.deepcopy, id="deepcopy"),
     pytest.param(lambda v: copy.deepcopy({"in": [v]})["in"][0], id="deepcopy-inside-a-container")],
)
def test_a_copy_of_a_read_only_document_or_view_is_itself(make: Any, copied: Any) -> None:
    # A deep copy raised "ResourceChange is read-only; cannot set '_document'" (or "cannot pickle 'mappingproxy'")
    # from the generic copy, which fills a new object's slots by setattr: copy.deepcopy of a test's fixtures
    # holding a plan failed so. It could differ in nothing: it is the object, as copy.copy of a plan already was.
    value = make()
    assert copied(value) is value
