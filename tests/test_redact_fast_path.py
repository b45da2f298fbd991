"""Trust is paid only on a hit: a failure whose texts show no secret is built without scrubbing, and checks that
pass collect no secret at all.

``scrubbed_failure`` asks the document's secrets whether the address, the path's text or the message shows one;
only then does it scrub each part trusting what the failure trusts (``_scrubbed_parts``). Trust only spares spans a
scrub found, so on a miss every one of those scrubs is the text itself. The property below pins that: whatever
the secrets and the failure, the fast path gives exactly what the full path gives (text, address, shown path, and
the trusted texts an exit's scrub keeps).
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck import (
    Actions,
    CheckFailure,
    ExpectEachKnownValue,
    ExpectKnownActionConfigValue,
    ExpectKnownValue,
    ExpectSensitiveValue,
    ExpectUnknownActionConfigValue,
    ExpectUnknownValue,
    Plan,
    Resources,
    Secrets,
    assert_plan,
)
from plancheck import knownvalue as kv
from plancheck._checking.messages import _given_prefix, _scrubbed_parts, given_by, scrubbed_failure
from tfjsonpath import New, Path

#: Words secrets and texts are made of: a few are also what addresses and paths are made of, so secrets hit them.
WORDS = ["tags", "env", "prod", "hunter2", "input", "a", "tags_null", "pw-1234", "x y", "key\n2", "secret-value-long", "xxxxtriggers", "qtriggersq"]
_word = st.one_of(st.sampled_from(WORDS), st.text(alphabet="abtegs_-.\"'[] \\", min_size=1, max_size=10))


def _path(keys: list[str]) -> Path:
    path = New(keys[0])
    for key in keys[1:]:
        path = path.AtMapKey(key)
    return path


@st.composite
def _failures(draw: Any) -> tuple[Secrets, str | None, Path | None, str, Path | None]:
    secrets = Secrets(draw(st.lists(_word, max_size=4)), draw(st.lists(st.sampled_from(["terraform_data.tags", "t.n"]))))
    name = draw(st.sampled_from(["terraform_data.tags", "t.n", "terraform_data.tags_null", "output.pw"]))
    key = draw(st.none() | _word)
    address = draw(st.sampled_from([None, name])) if key is None else f'{name}["{key}"]'
    keys = draw(st.lists(_word, min_size=1, max_size=3))
    path = draw(st.none() | st.just(_path(keys)))
    # The check was given the whole path, a part of it (a key found below it in the value), or another one.
    cut = draw(st.integers(1, len(keys)))
    given_path = draw(st.sampled_from([None, _path(keys[:cut]), New("other")]))
    message = " ".join(draw(st.lists(_word, max_size=4)))
    return secrets, address, path, message, given_path


@settings(max_examples=400, deadline=None)
@given(_failures())
def test_the_fast_path_gives_exactly_the_full_paths_failure(case: tuple[Any, ...]) -> None:
    secrets, address, path, message, given_path = case
    check = None if given_path is None else ExpectKnownValue("t.n", given_path, kv.NotNull())
    with given_by(check):
        fast = scrubbed_failure(secrets, "ExpectX", address, path, message)
    prefix = None if path is None or check is None else _given_prefix(path, check)
    full = _scrubbed_parts(secrets, "ExpectX", address, path, message, prefix)
    assert (str(fast), fast.address, fast.shown_path, fast.message) == (str(full), full.address, full.shown_path,
                                                                        full.message)
    assert fast.trusted == full.trusted


def test_a_fragment_where_the_given_path_ends_is_scrubbed_as_before() -> None:
    # The given part of a path is scrubbed apart from the rest: its end is where a value may be cut, so a piece
    # of a secret ending there is hidden, which a look at the whole path's text does not find.
    path, check = New("xxxxtriggers").AtMapKey("x"), ExpectKnownValue("t.n", New("xxxxtriggers"), kv.NotNull())
    with given_by(check):
        failure = scrubbed_failure(Secrets(["qtriggersq"]), "ExpectX", "t.n", path, "no")
    assert str(failure) == 'ExpectX: t.n: xxxx(sensitive)["x"]: no'


def test_a_failure_without_a_secret_keeps_its_trust_through_replace_and_pickle() -> None:
    # Its trusted texts are made when asked, from the check running when it was built (not the one running then).
    check = ExpectKnownValue("terraform_data.a", New("input").AtMapKey("tags"), kv.NotNull())
    with given_by(check):
        failure = scrubbed_failure(Secrets(["hunter2"]), "ExpectX", "terraform_data.a", check.path, "no")
    with given_by(ExpectKnownValue("t.b", New("other"), kv.NotNull())):
        moved = pickle.loads(pickle.dumps(failure))
    trusted = ("terraform_data.a", 'terraform_data.a: input["tags"]', 'input["tags"]')
    assert (failure.trusted, moved.trusted, moved == failure, repr(moved)) == (
        trusted, trusted, True, "CheckFailure('ExpectX', 'terraform_data.a', Path(MapStep('input'), MapStep('tags')), 'no')"
    )
    import dataclasses

    assert dataclasses.replace(failure, message="yes").trusted == trusted
    assert CheckFailure("ExpectX", "t.a", None, "no").trusted == ()


PLAN = {
    "format_version": "1.2",
    "resource_changes": [{
        "address": "null_resource.app", "mode": "managed", "type": "null_resource", "name": "app",
        "change": {"actions": ["create"], "before": None, "after": {"triggers": {"greeting": "hello", "pw": "hunter2"}},
                   "after_unknown": {"id": True}, "before_sensitive": False,
                   "after_sensitive": {"triggers": {"pw": True}}},
    }],
    # Two invocations: each one's failure would be named by its trigger, which shows an address.
    "action_invocations": [
        {"address": "action.t.notify", "type": "t", "name": "notify", "config_values": {"channel": "ops"},
         "config_unknown": {"url": True}, "config_sensitive": {},
         "lifecycle_action_trigger": {"triggering_resource_address": "null_resource.app",
                                      "action_trigger_event": event}}
        for event in ("AfterCreate", "AfterUpdate")
    ],
}


@pytest.fixture
def collected(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every walk of a plan or a state for its secrets, as it happens: a document walks when its ``secrets`` are
    first asked for, so each ask on a passing route is a walk."""
    import plancheck._documents.plan as plan_module
    import plancheck._documents.state as state_module

    calls: list[object] = []
    for module, name in ((plan_module, "collect_plan_secrets"), (state_module, "collect_state_secrets")):
        walk = getattr(module, name)

        def counting(document: Any, walk: Any = walk) -> Secrets:
            calls.append(document)
            return walk(document)  # type: ignore[no-any-return]

        monkeypatch.setattr(module, name, counting)
    return calls


@pytest.mark.parametrize(
    "check",
    [
        pytest.param(ExpectUnknownValue("null_resource.app", New("id")), id="one-value"),
        pytest.param(ExpectEachKnownValue(Resources(), New("triggers"), kv.NotNull()), id="every-resource"),
        pytest.param(ExpectSensitiveValue("null_resource.app", New("triggers").AtMapKey("pw")), id="sensitive"),
        # A matcher the scalar fast path cannot decide: the value's marks are walked, the secrets never asked.
        pytest.param(ExpectKnownValue("null_resource.app", New("triggers"),
                                      kv.MapPartial({"pw": kv.StringExact("hunter2")})), id="known-map"),
        pytest.param(ExpectEachKnownValue(Resources(), New("triggers").AtMapKey("greeting"), kv.StringExact("hello")),
                     id="every-resource-exact"),
        pytest.param(ExpectKnownActionConfigValue("action.t.notify", New("channel"), kv.StringExact("ops")),
                     id="action-each-invocation"),
        pytest.param(ExpectUnknownActionConfigValue("action.t.notify", New("url")), id="action-unknown"),
        pytest.param(ExpectEachKnownValue(Actions(), New("channel"), kv.StringExact("ops")),
                     id="every-action"),
    ],
)
def test_a_passing_check_never_collects(collected: list[object], check: Any) -> None:
    # Checks ask for the plan's secrets only as they build a failure's text: asking walks the whole plan.
    assert_plan(Plan.from_dict(PLAN), check)
    assert collected == []


def test_a_passing_cli_check_run_never_collects(collected: list[object]) -> None:
    # The CLI's runner of checks files and flags: a document's secrets are asked for only by a record to scrub.
    from plancheck.cli._checksfile import CheckSpec, run_checks

    check = ExpectUnknownValue("null_resource.app", New("id"))
    results = run_checks([CheckSpec("ExpectUnknownValue", check, "check[0]", "null_resource.app")],
                         Plan.from_dict(PLAN))
    assert ([r.status for r in results], collected) == (["pass"], [])


def test_a_failing_check_collects_once(collected: list[object]) -> None:
    with pytest.raises(AssertionError, match='but it is known'):
        assert_plan(Plan.from_dict(PLAN), ExpectUnknownValue("null_resource.app", New("triggers").AtMapKey("greeting")))
    assert len(collected) == 1


STATE = {
    "format_version": "1.0", "terraform_version": "1.12.0",
    "values": {
        "outputs": {"pw": {"value": "hunter2", "sensitive": True}, "name": {"value": "web", "sensitive": False}},
        "root_module": {"resources": [
            {"address": "null_resource.app", "mode": "managed", "type": "null_resource", "name": "app",
             "values": {"id": "id-123", "triggers": {"greeting": "hello", "pw": "hunter2"}, "names": ["a", "id-123"]},
             "sensitive_values": {"triggers": {"pw": True}},
             "identity_schema_version": 0, "identity": {"id": "id-123"}},
        ]},
    },
}


def _state_checks() -> list[Any]:
    from plancheck import compare, statecheck

    app = "null_resource.app"
    return [
        pytest.param(statecheck.ExpectKnownValue(app, New("triggers"), kv.MapPartial({"greeting": kv.StringExact("hello")})),
                     id="known-map"),
        pytest.param(statecheck.ExpectKnownOutputValue("name", kv.StringExact("web")), id="output"),
        pytest.param(statecheck.ExpectEachKnownValue("null_resource.*", New("id"), kv.NotNull()), id="every-resource"),
        pytest.param(statecheck.ExpectIdentity(app, {"id": kv.StringExact("id-123")}), id="identity"),
        pytest.param(statecheck.ExpectIdentityValue(app, New("id"), kv.StringExact("id-123")), id="identity-value"),
        pytest.param(statecheck.ExpectIdentityValueMatchesState(app, New("id")), id="identity-matches-state"),
        pytest.param(statecheck.CompareValuePairs(app, New("id"), app, New("names").AtSliceIndex(1), compare.ValuesSame()),
                     id="compare-pairs"),
        pytest.param(statecheck.CompareValueCollection(app, [New("names")], app, New("id"), compare.ValuesSame()),
                     id="compare-collection"),
    ]


@pytest.mark.parametrize("check", _state_checks())
def test_a_passing_state_check_never_collects(collected: list[object], check: Any) -> None:
    # A state asks for its secrets as a plan does: only a failure's text does.
    from plancheck import State

    check.CheckState(State.from_dict(STATE))
    assert collected == []


def test_a_failing_state_check_collects_once(collected: list[object]) -> None:
    from plancheck import State, statecheck

    state = State.from_dict(STATE)
    check = statecheck.ExpectKnownValue("null_resource.app", New("triggers"), kv.MapExact({"pw": kv.StringExact("x")}))
    with pytest.raises(AssertionError, match=r'\(sensitive\)') as raised:
        check.CheckState(state)
    with pytest.raises(AssertionError):
        check.CheckState(state)
    assert ("hunter2" in str(raised.value), len(collected)) == (False, 1)


def test_the_acceptance_runners_checks_collect_nothing_when_they_pass(collected: list[object]) -> None:
    # The runner scrubs a failure with the document's secrets: given the document, it asks only for a failure.
    from plancheck import State, statecheck
    from plancheck.acceptance._checks import plan_check_failures, state_check_failures

    plan_failures = plan_check_failures(Plan.from_dict(PLAN), [ExpectUnknownValue("null_resource.app", New("id"))])
    state_failures = state_check_failures(State.from_dict(STATE), [statecheck.ExpectKnownOutputValue("name", kv.NotNull())])
    assert (plan_failures, state_failures, collected) == ([], [], [])


def test_a_failing_cli_run_walks_once(collected: list[object], tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    # The whole command in this process: the check's failure and the exit's scrub of the streams share one walk.
    import json

    from plancheck.cli import main

    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(PLAN), encoding="utf-8")
    assert (main([str(plan), "--unknown", "null_resource.app", 'triggers["greeting"]']), len(collected)) == (1, 1)
    assert "hunter2" not in "".join(capsys.readouterr())
