"""A plan and a state pickle as their documents and come back the same; a view of one refuses with a typed error.

``multiprocessing`` and caches pickle what they are given: a plan raised Python's own "cannot pickle
'mappingproxy' object" (its address index), a view "ResourceChange is read-only; cannot set ..." only when
loaded. A plan or a state compares by identity (it is a view of its document), so "the same" is pinned as its
document, its source, its envelope, its repr, its secrets and the failures they scrub. Secrets pickle too (their
strings, in clear, as a plan's document is) and come back equal: protocols 0 and 1 refused one, later ones wrote
its strings and then loading it raised "Secrets is read-only".
"""

from __future__ import annotations

import json
import pickle
import traceback
from collections.abc import Callable
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest
from planted_secrets import PLANTED, SECRET_VAR, plan_document, state_document
from unvalidated import unvalidated_plan, unvalidated_state

import plancheck
from plancheck import (
    NotPicklableError,
    Plan,
    ResourceNotFoundError,
    Secrets,
    State,
    TfCheckError,
    load_plan,
    load_state,
)
from plancheck._documents.met import directory_of, planned_in, watch
from plancheck._loading import load as load_module
from plancheck._loading import split as split_module
from plancheck._loading import split_state as split_state_module
from plancheck._loading.lazy import LazyObject


def _lazily(load: Callable[[bytes], Any], document: dict[str, Any]) -> Any:
    """``document`` loaded on the route that parses its big parts only when first read."""
    with pytest.MonkeyPatch.context() as mp:
        for module, name in ((load_module, "LAZY_MIN_BYTES"), (load_module, "LAZY_STATE_MIN_BYTES"),
                             (split_module, "DEFER_MIN_BYTES"), (split_state_module, "DEFER_MIN_BYTES")):
            mp.setattr(module, name, 0)
        loaded = load(json.dumps(document).encode())
    assert isinstance(loaded.raw, LazyObject)
    return loaded


_MALFORMED_PLAN = {"format_version": "1.2", "resource_changes": [
    {"address": "null_resource.a", "change": {"actions": ["create"], "after": {"k": "v"}, "after_sensitive": {"k": 1}}}]}
_MALFORMED_STATE = {"format_version": "1.0", "values": {"outputs": {"o": {"value": "v", "sensitive": "yes"}}}}


def _errored_plan() -> Plan:
    return Plan.from_dict({**plan_document(), "errored": True}, source="errored.json", allow_errored=True)


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: Plan({"format_version": "1.2", "resource_changes": []}), id="plan-from-the-constructor"),
        pytest.param(lambda: Plan.from_dict(plan_document(), source="plan.json"), id="plan-with-secrets"),
        pytest.param(lambda: _lazily(lambda data: load_plan(data, parser="fast"), plan_document()),
                     id="plan-parsed-lazily"),
        pytest.param(_errored_plan, id="partial-plan-stays-partial"),
        pytest.param(lambda: State.from_dict(state_document(), source="state.json"), id="state-with-secrets"),
        pytest.param(lambda: _lazily(lambda data: load_state(data, parser="fast"), state_document()),
                     id="state-parsed-lazily"),
        # A pickle comes from a Plan/State, validated when built, and loads without a second validation; these two
        # never were (malformed marks), and come back as they went.
        pytest.param(lambda: unvalidated_plan(_MALFORMED_PLAN, source="p.json"), id="plan-set-up-unvalidated"),
        pytest.param(lambda: unvalidated_state(_MALFORMED_STATE), id="state-set-up-unvalidated"),
    ],
)
def test_a_plan_or_state_pickles_as_its_document_and_comes_back_the_same(make: Callable[[], Plan | State]) -> None:
    document = make()
    for protocol in (0, pickle.HIGHEST_PROTOCOL):
        again = pickle.loads(pickle.dumps(document, protocol))
        assert type(again) is type(document)
        assert (again.raw, again.source, repr(again)) == (dict(document.raw), document.source, repr(document))
        assert list(again.addresses()) == list(document.addresses())
        assert again.secrets == document.secrets
        if isinstance(document, Plan):
            assert isinstance(again, Plan)
            envelope = ("format_version", "terraform_version", "complete", "errored", "applyable", "partial",
                        "partial_note")
            assert [getattr(again, name) for name in envelope] == [getattr(document, name) for name in envelope]
            assert [rc.raw for rc in again.resource_changes] == [rc.raw for rc in document.resource_changes]


def test_a_plan_back_from_its_pickle_still_scrubs_its_secrets() -> None:
    plan = pickle.loads(pickle.dumps(Plan.from_dict(plan_document())))
    with pytest.raises(ResourceNotFoundError) as info:
        plan.resource_change(f'null_resource.fe["{SECRET_VAR}x"]')
    assert not [name for name, secret in PLANTED.items() if secret in str(info.value)]
    assert "(sensitive)" in str(info.value)


@pytest.mark.parametrize(("directory", "heard"), [
    # Planned where nobody watched (another process, before --tf-cov listened): the pickle carries the directory, and
    # the watchers where it is loaded hear the plan was planned there, as they hear of the plan planned.
    pytest.param(Path("/modules/net"), [("planned", Path("/modules/net"))], id="planned-in-a-directory"),
    pytest.param(None, [], id="planned-nowhere-known"),
])
def test_a_plan_back_from_its_pickle_is_planned_where_it_was(directory: Path | None, heard: list[Any]) -> None:
    plan = Plan.from_dict(plan_document())
    planned_in(plan, directory)
    data = pickle.dumps(plan)
    seen: list[Any] = []
    stop = watch(lambda event, document, detail: seen.append((event, document, detail)))
    try:
        again = pickle.loads(data)
    finally:
        stop()
    assert [(event, detail) for event, document, detail in seen if document is again] == heard
    assert directory_of(again) == directory


def _nested(depth: int) -> dict[str, Any]:
    """A value ``depth`` objects deep, one inside the other, with a secret at the bottom."""
    value: dict[str, Any] = {"k": SECRET_VAR}
    for _ in range(depth):
        value = {"k": value}
    return value


#: Deeper than the pickler's recursion goes (about 500 at Python's default limit), which a document may be.
_DEEP = 100_000
_UNPICKLABLE = "holds a value that does not pickle (a dict, list, str, number, bool or None does)"
_TOO_DEEP = "is nested deeper than pickle goes"


@pytest.mark.parametrize(
    ("make", "what", "problem"),
    [
        pytest.param(lambda: Plan(MappingProxyType({"format_version": "1.2"})), "Plan", _UNPICKLABLE,
                     id="plan-of-a-read-only-mapping"),
        pytest.param(lambda: Plan({**plan_document(), "variables": {"v": {"value": MappingProxyType({SECRET_VAR: 1})}}}),
                     "Plan", _UNPICKLABLE, id="read-only-mapping-inside-a-plan"),
        pytest.param(lambda: Plan({**plan_document(), "variables": {"v": {"value": _nested(_DEEP)}}}), "Plan",
                     _TOO_DEEP, id="plan-nested-deeper-than-pickle-goes"),
        pytest.param(lambda: State(MappingProxyType({"format_version": "1.0"})), "State", _UNPICKLABLE,
                     id="state-of-a-read-only-mapping"),
        pytest.param(lambda: State({"format_version": "1.0", "values": {"outputs": {"o": {"value": _nested(_DEEP)}}}}),
                     "State", _TOO_DEEP, id="state-nested-deeper-than-pickle-goes"),
    ],
)
def test_a_document_that_does_not_pickle_is_refused_saying_why(
    make: Callable[[], Plan | State], what: str, problem: str
) -> None:
    document = make()
    for protocol in (0, pickle.HIGHEST_PROTOCOL):
        with pytest.raises(NotPicklableError) as info:
            pickle.dumps(document, protocol)
        assert str(info.value) == f"a {what} does not pickle: its document {problem}"
        assert (info.value.what, info.value.problem) == (what, problem)
        assert info.value.__suppress_context__  # the pickler's own error, which may quote the value, is left behind
        assert SECRET_VAR not in "".join(traceback.format_exception(info.value))


_PLAN: Callable[[], Plan] = lambda: Plan.from_dict(plan_document())  # noqa: E731
_STATE: Callable[[], State] = lambda: State.from_dict(state_document())  # noqa: E731


@pytest.mark.parametrize(
    ("make", "what"),
    [
        pytest.param(lambda: _PLAN().resource_changes[0], "ResourceChange", id="resource-change"),
        pytest.param(lambda: _PLAN().resource_changes[0].change, "Change", id="change"),
        pytest.param(lambda: _PLAN().resource_drift[0], "ResourceChange", id="resource-drift"),
        pytest.param(lambda: next(iter(_PLAN().output_changes.values())), "OutputChange", id="output-change"),
        pytest.param(lambda: _PLAN().deferred_changes[0], "DeferredChange", id="deferred-change"),
        pytest.param(lambda: _PLAN().action_invocations[0], "ActionInvocation", id="action-invocation"),
        pytest.param(lambda: _PLAN().deferred_action_invocations[0], "DeferredActionInvocation",
                     id="deferred-action-invocation"),
        pytest.param(lambda: _STATE().resources[0], "StateResource", id="state-resource"),
        pytest.param(lambda: next(iter(_STATE().outputs.values())), "StateOutput", id="state-output"),
        pytest.param(lambda: [_PLAN().resource_changes[0]], "ResourceChange", id="view-inside-a-list"),
    ],
)
def test_a_view_refuses_to_pickle_saying_what_pickles_instead(make: Callable[[], Any], what: str) -> None:
    view = make()
    for protocol in (0, pickle.HIGHEST_PROTOCOL):
        with pytest.raises(NotPicklableError) as info:
            pickle.dumps(view, protocol)
        assert isinstance(info.value, TfCheckError)
        assert isinstance(info.value, TypeError)
        assert str(info.value) == (
            f"a {what} does not pickle: it is a view of part of a plan or state, read in place; pickle the Plan or "
            f"State itself (it pickles as its document) and take the {what} from it again"
        )
        assert info.value.what == what


def test_the_error_is_plancheck_s_own() -> None:
    assert plancheck.NotPicklableError is NotPicklableError
    assert NotPicklableError.__module__ == "plancheck"


def _trusting_a_function() -> Secrets:
    return Secrets([SECRET_VAR, "tags"]).trusting(lambda: ["terraform_data.tags"])


#: Texts each with some secret of the rows below: a Secrets back from its pickle scrubs them as the one pickled.
_SHOWN = [f"pw = {secret}; terraform_data.tags: tags" for secret in PLANTED.values()]


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(Secrets, id="no-secrets"),
        pytest.param(lambda: Secrets(list(PLANTED.values())), id="strings"),
        pytest.param(lambda: Secrets([SECRET_VAR, "tags"], trusted=["terraform_data.tags"]), id="trusted-texts"),
        pytest.param(_trusting_a_function, id="trusted-function-asked-when-pickled"),
        pytest.param(lambda: Secrets.union([Secrets([SECRET_VAR]), _trusting_a_function()]), id="union"),
        pytest.param(lambda: Plan.from_dict(plan_document()).secrets, id="a-plan-s-secrets"),
        pytest.param(lambda: State.from_dict(state_document()).secrets, id="a-state-s-secrets"),
    ],
)
def test_secrets_pickle_and_come_back_equal(make: Callable[[], Secrets]) -> None:
    secrets = make()
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(secrets, protocol))
        assert type(again) is Secrets
        assert (again, again.ordered, again.trusted) == (secrets, secrets.ordered, secrets.trusted)
        assert [again.scrub(text) for text in _SHOWN] == [secrets.scrub(text) for text in _SHOWN]
        assert repr(again) == repr(secrets)
