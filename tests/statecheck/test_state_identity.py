"""Resource identity in states and plans, and the statecheck identity checks (Go's ``ExpectIdentity`` family).

The documents here are written by hand in the shape Terraform 1.12+ gives them: a state
resource of ``terraform show -json`` carries ``identity`` (attribute name to value) and
``identity_schema_version`` beside ``values`` (``internal/command/jsonstate``), and a plan's
resource change carries ``before_identity``/``after_identity`` in its ``change``
(``internal/command/jsonplan``). The resource type and identity attributes (``id``,
``list_of_numbers``) follow terraform-plugin-testing's own ``examplecloud`` test provider;
the messages pinned here follow Go's ``statecheck/expect_identity*.go``.
"""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck import Plan, PlanFormatError, State, StateCheckError, StateFormatError, statecheck
from plancheck import knownvalue as kv
from plancheck.statecheck import (
    ExpectIdentity,
    ExpectIdentityValue,
    ExpectIdentityValueMatchesState,
    ExpectIdentityValueMatchesStateAtPath,
)
from tfjsonpath import New, Path

NO_IDENTITY = (
    "identity not found in state. Either the resource does not support identity or the Terraform "
    "version running the test does not support identity. (must be v1.12+)"
)


def _resource(address: str, name: str, values: dict[str, Any], identity: dict[str, Any] | None, **extra: Any) -> dict[str, Any]:
    resource: dict[str, Any] = {
        "address": address,
        "mode": "managed",
        "type": "examplecloud_thing",
        "name": name,
        "provider_name": "registry.terraform.io/hashicorp/examplecloud",
        "schema_version": 0,
        "values": values,
        "sensitive_values": extra.pop("sensitive_values", {}),
        **extra,
    }
    if identity is not None:
        resource["identity_schema_version"] = 0
        resource["identity"] = identity
    return resource


STATE_DOC: dict[str, Any] = {
    "format_version": "1.0",
    "terraform_version": "1.12.1",
    "values": {
        "root_module": {
            "resources": [
                _resource(
                    "examplecloud_thing.one", "one",
                    {"id": "id-123", "name": "one", "list_of_numbers": [1, 2, 3, 4], "password": "hunter2"},
                    {"id": "id-123", "list_of_numbers": [1, 2, 3, 4]},
                    sensitive_values={"password": True, "list_of_numbers": [False, False, False, False]},
                ),
                _resource("examplecloud_thing.plain", "plain", {"id": "p-1"}, None),
                _resource(
                    "examplecloud_thing.secret", "secret",
                    {"id": "hunter2", "token": "hunter2"},
                    {"id": "hunter2"},
                    sensitive_values={"token": True},
                ),
            ],
            "child_modules": [
                {
                    "address": "module.app[0]",
                    "resources": [
                        _resource(
                            "module.app[0].examplecloud_thing.many[1]", "many",
                            {"id": "m-1", "region": "eu-west-1"},
                            {"id": "m-1", "region": "eu-west-1"},
                            index=1,
                        ),
                        _resource(
                            'module.app[0].examplecloud_thing.each["blue"]', "each",
                            {"id": "b-7", "ids": {"primary": "b-7"}},
                            {"id": "b-7"},
                            index="blue",
                        ),
                    ],
                }
            ],
        }
    },
}

OLD_STATE_DOC: dict[str, Any] = {
    "format_version": "1.0",
    "terraform_version": "1.11.4",
    "values": {"root_module": {"resources": [_resource("examplecloud_thing.one", "one", {"id": "id-123"}, None)]}},
}


@pytest.fixture(scope="module")
def state() -> State:
    return State.from_json(json.dumps(STATE_DOC))


# -- loading -------------------------------------------------------------------------------------


def test_state_resources_expose_identity(state: State) -> None:
    one = state.resource("examplecloud_thing.one")
    assert (one.identity, one.identity_schema_version) == ({"id": "id-123", "list_of_numbers": [1, 2, 3, 4]}, 0)
    plain = state.resource("examplecloud_thing.plain")
    assert (plain.identity, plain.identity_schema_version) == (None, None)
    assert state.resource('module.app[0].examplecloud_thing.each["blue"]').identity == {"id": "b-7"}


@pytest.mark.parametrize(
    ("resource_extra", "message"),
    [
        pytest.param({"identity": ["id"]}, "$.values.root_module.resources[0].identity: expected a resource "
                     "identity object or null, found an array of 1 element", id="identity-array"),
        pytest.param({"identity": "id-1"}, "$.values.root_module.resources[0].identity: expected a resource "
                     "identity object or null, found a string", id="identity-string"),
        pytest.param({"identity_schema_version": "0"}, "$.values.root_module.resources[0].identity_schema_version: "
                     "expected an identity schema version (an integer), found a string", id="version-string"),
        pytest.param({"identity_schema_version": 1.5}, "$.values.root_module.resources[0].identity_schema_version: "
                     "expected an identity schema version (an integer), found a number", id="version-fraction"),
    ],
)
@pytest.mark.parametrize("validation", ["fast", "full"])
def test_malformed_state_identity_is_a_located_error(resource_extra: dict[str, Any], message: str, validation: str) -> None:
    doc = {"format_version": "1.0", "values": {"root_module": {"resources": [{"address": "a.b", **resource_extra}]}}}
    with pytest.raises(StateFormatError) as info:
        State.from_dict(doc, validation=validation)
    assert str(info.value).startswith(message)


PLAN_CHANGE = {
    "address": "examplecloud_thing.one",
    "mode": "managed",
    "type": "examplecloud_thing",
    "name": "one",
    "provider_name": "registry.terraform.io/hashicorp/examplecloud",
    "change": {
        "actions": ["update"],
        "before": {"id": "id-123", "name": "one"},
        "after": {"id": "id-123", "name": "two"},
        "after_unknown": {},
        "before_sensitive": {},
        "after_sensitive": {},
        "before_identity": {"id": "id-123", "list_of_numbers": [1, 2]},
        "after_identity": {"id": "id-123", "list_of_numbers": [1, 2]},
    },
}


@pytest.mark.parametrize("parser", ["stdlib", "fast"])
def test_plan_changes_expose_identity(parser: str) -> None:
    deleted = {**PLAN_CHANGE, "address": "examplecloud_thing.gone", "name": "gone",
               "change": {"actions": ["delete"], "before": {"id": "g"}, "after": None,
                          "before_identity": {"id": "g"}, "after_identity": None}}
    doc = {"format_version": "1.2", "terraform_version": "1.12.1", "resource_changes": [PLAN_CHANGE, deleted]}
    plan = Plan.from_json(json.dumps(doc), parser=parser)
    change = plan.resource_change("examplecloud_thing.one").change
    assert (change.before_identity, change.after_identity) == (
        {"id": "id-123", "list_of_numbers": [1, 2]}, {"id": "id-123", "list_of_numbers": [1, 2]})
    gone = plan.resource_change("examplecloud_thing.gone").change
    assert (gone.before_identity, gone.after_identity) == ({"id": "g"}, None)


@pytest.mark.parametrize("validation", ["fast", "full"])
@pytest.mark.parametrize("key", ["before_identity", "after_identity"])
def test_malformed_plan_identity_is_a_located_error(validation: str, key: str) -> None:
    change = {**PLAN_CHANGE, "change": {**PLAN_CHANGE["change"], key: [1]}}  # type: ignore[dict-item]
    with pytest.raises(PlanFormatError) as info:
        Plan.from_dict({"format_version": "1.2", "resource_changes": [change]}, validation=validation)
    assert str(info.value).startswith(
        f"$.resource_changes[0].change.{key}: expected a resource identity object or null, found an array of 1 element"
    )


def test_a_large_plan_split_lazily_checks_identity_too() -> None:
    pad = "x" * (2 << 20)
    change = {**PLAN_CHANGE, "change": {**PLAN_CHANGE["change"], "before": {"pad": pad}, "after_identity": "i-1"}}  # type: ignore[dict-item]
    with pytest.raises(PlanFormatError, match=r"change\.after_identity: expected a resource identity object or null"):
        Plan.from_json(json.dumps({"format_version": "1.2", "resource_changes": [change]}).encode(), parser="fast")


# -- the checks: passing -------------------------------------------------------------------------

PASSING = [
    pytest.param(ExpectIdentity("examplecloud_thing.one", {
        "id": kv.StringExact("id-123"),
        "list_of_numbers": kv.ListExact([kv.Int64Exact(1), kv.Int64Exact(2), kv.Int64Exact(3), kv.Int64Exact(4)]),
    }), id="ExpectIdentity"),
    pytest.param(ExpectIdentity("module.app[0].examplecloud_thing.many[1]", {
        "id": kv.StringExact("m-1"), "region": kv.StringRegexp("^eu-")}), id="ExpectIdentity-module-count"),
    pytest.param(ExpectIdentity('module.app[0].examplecloud_thing.each["blue"]', {"id": kv.NotNull()}),
                 id="ExpectIdentity-module-for_each"),
    pytest.param(ExpectIdentityValue("examplecloud_thing.one", New("id"), kv.StringExact("id-123")),
                 id="ExpectIdentityValue"),
    pytest.param(ExpectIdentityValue("examplecloud_thing.one", New("list_of_numbers").AtSliceIndex(3),
                                     kv.Int64Exact(4)), id="ExpectIdentityValue-element"),
    pytest.param(ExpectIdentityValueMatchesState("examplecloud_thing.one", New("list_of_numbers")),
                 id="ExpectIdentityValueMatchesState-list"),
    pytest.param(ExpectIdentityValueMatchesState("module.app[0].examplecloud_thing.many[1]", New("region")),
                 id="ExpectIdentityValueMatchesState-module"),
    pytest.param(ExpectIdentityValueMatchesStateAtPath(
        'module.app[0].examplecloud_thing.each["blue"]', New("id"), New("ids").AtMapKey("primary")),
        id="ExpectIdentityValueMatchesStateAtPath"),
]


@pytest.mark.parametrize("check", PASSING)
def test_identity_checks_pass(state: State, check: statecheck.StateCheck) -> None:
    assert check.failures(state) == []
    check.CheckState(state)


# -- the checks: failing -------------------------------------------------------------------------

FAILING = [
    pytest.param(
        ExpectIdentity("examplecloud_thing.two", {"id": kv.NotNull()}),
        STATE_DOC,
        ["ExpectIdentity: examplecloud_thing.two: resource not found in state; closest: examplecloud_thing.one, "
         "examplecloud_thing.secret, examplecloud_thing.plain"],
        id="not-found",
    ),
    pytest.param(
        ExpectIdentity("examplecloud_thing.plain", {"id": kv.NotNull()}),
        STATE_DOC,
        [f"ExpectIdentity: examplecloud_thing.plain: {NO_IDENTITY} (this state was written by Terraform 1.12.1)"],
        id="resource-without-identity",
    ),
    pytest.param(
        ExpectIdentityValue("examplecloud_thing.one", New("id"), kv.NotNull()),
        OLD_STATE_DOC,
        [f"ExpectIdentityValue: examplecloud_thing.one: {NO_IDENTITY} (this state was written by Terraform 1.11.4)"],
        id="terraform-before-1.12",
    ),
    pytest.param(
        ExpectIdentity("examplecloud_thing.one", {"id": kv.Bool(True), "list_of_numbers": kv.ListSizeExact(4)}),
        STATE_DOC,
        ['ExpectIdentity: examplecloud_thing.one: "id" identity attribute: expected bool value for Bool check, got: string; expected true, got "id-123"'],
        id="wrong-type",
    ),
    pytest.param(
        ExpectIdentity("examplecloud_thing.one", {
            "id": kv.StringExact("321-id"), "list_of_numbers": kv.ListPartial({0: kv.Int64Exact(4)})}),
        STATE_DOC,
        [
            'ExpectIdentity: examplecloud_thing.one: "id" identity attribute: expected value "321-id" for '
            'StringExact check, got: "id-123"',
            'ExpectIdentity: examplecloud_thing.one: "list_of_numbers" identity attribute: [0]: expected value 4 '
            "for Int64Exact check, got: 1",
        ],
        id="every-attribute-reported",
    ),
    pytest.param(
        ExpectIdentity("examplecloud_thing.one", {"id": kv.StringExact("id-123")}),
        STATE_DOC,
        ['ExpectIdentity: examplecloud_thing.one: expected 1 attribute(s) in the actual identity object, got 2 '
         'attribute(s): actual identity has extra attribute(s): "list_of_numbers"'],
        id="extra-attribute",
    ),
    pytest.param(
        ExpectIdentity("examplecloud_thing.one", {
            "id": kv.NotNull(), "list_of_numbers": kv.NotNull(), "nonexistent_attr": kv.NotNull()}),
        STATE_DOC,
        ['ExpectIdentity: examplecloud_thing.one: expected 3 attribute(s) in the actual identity object, got 2 '
         'attribute(s): actual identity is missing attribute(s): "nonexistent_attr"'],
        id="missing-attribute",
    ),
    pytest.param(
        ExpectIdentity("examplecloud_thing.one", {"id": kv.NotNull(), "not_list": kv.NotNull(), "x": kv.NotNull()}),
        STATE_DOC,
        ['ExpectIdentity: examplecloud_thing.one: expected 3 attribute(s) in the actual identity object, got 2 '
         'attribute(s): actual identity has extra attribute(s): "list_of_numbers"; actual identity is missing '
         'attribute(s): "not_list", "x"'],
        id="extra-and-missing",
    ),
    pytest.param(
        ExpectIdentity("examplecloud_thing.one", {"id": kv.NotNull(), "not_id": kv.NotNull()}),
        STATE_DOC,
        ['ExpectIdentity: examplecloud_thing.one: missing attribute "not_id" in actual identity object'],
        id="same-count-other-name",
    ),
    pytest.param(
        ExpectIdentityValue("examplecloud_thing.one", New("id"), kv.StringExact("321-id")),
        STATE_DOC,
        ['ExpectIdentityValue: examplecloud_thing.one: error checking identity value for attribute at path: '
         'identity.id, err: expected value "321-id" for StringExact check, got: "id-123"'],
        id="value-mismatch",
    ),
    pytest.param(
        ExpectIdentityValue("examplecloud_thing.one", New("list_of_numbers"), kv.MapExact({})),
        STATE_DOC,
        ["ExpectIdentityValue: examplecloud_thing.one: error checking identity value for attribute at path: "
         "identity.list_of_numbers, err: expected object value for MapExact check, got: array; expected {}, got [1, 2, 3, 4]"],
        id="value-wrong-type",
    ),
    pytest.param(
        ExpectIdentityValue("examplecloud_thing.one", New("region"), kv.NotNull()),
        STATE_DOC,
        ["ExpectIdentityValue: examplecloud_thing.one: error checking identity value for attribute at path: "
         'identity.region, err: value is not present (no key "region" in an object with 2 keys); expected <not null>'],
        id="value-absent",
    ),
    pytest.param(
        ExpectIdentityValueMatchesState("examplecloud_thing.one", New("name")),
        STATE_DOC,
        ['ExpectIdentityValueMatchesState: examplecloud_thing.one: identity.name: value is not present '
         '(no key "name" in an object with 2 keys)'],
        id="matches-state-absent-in-identity",
    ),
    pytest.param(
        ExpectIdentityValueMatchesStateAtPath("module.app[0].examplecloud_thing.many[1]", New("id"), New("nope")),
        STATE_DOC,
        ['ExpectIdentityValueMatchesStateAtPath: module.app[0].examplecloud_thing.many[1]: values.nope: value is '
         'not present (no key "nope" in an object with 2 keys)'],
        id="matches-state-absent-in-state",
    ),
    pytest.param(
        ExpectIdentityValueMatchesStateAtPath("module.app[0].examplecloud_thing.many[1]", New("id"), New("region")),
        STATE_DOC,
        ["ExpectIdentityValueMatchesStateAtPath: module.app[0].examplecloud_thing.many[1]: expected identity "
         "(module.app[0].examplecloud_thing.many[1].id) and state value "
         '(module.app[0].examplecloud_thing.many[1].region) to match, but they differ: identity value: "m-1", '
         'state value: "eu-west-1"'],
        id="matches-state-at-path-differ",
    ),
    pytest.param(
        ExpectIdentityValueMatchesStateAtPath("examplecloud_thing.one", New("id"), New("password")),
        STATE_DOC,
        ["ExpectIdentityValueMatchesStateAtPath: examplecloud_thing.one: expected identity "
         "(examplecloud_thing.one.id) and state value (examplecloud_thing.one.password) to match, but they "
         "differ: identity value: (sensitive), state value: (sensitive)"],
        id="sensitive-state-value-hidden",
    ),
    pytest.param(
        ExpectIdentityValue("examplecloud_thing.secret", New("id"), kv.StringExact("hunter3")),
        STATE_DOC,
        ["ExpectIdentityValue: examplecloud_thing.secret: error checking identity value for attribute at path: "
         "identity.id, err: expected value (sensitive) for StringExact check, got: (sensitive)"],
        id="identity-equal-to-a-secret-hidden",
    ),
]


@pytest.mark.parametrize(("check", "doc", "expected"), FAILING)
def test_identity_checks_fail_with_go_messages(
    check: statecheck.StateCheck, doc: dict[str, Any], expected: list[str]
) -> None:
    state = State.from_dict(doc)
    assert [str(f) for f in check.failures(state)] == expected
    with pytest.raises(StateCheckError) as info:
        check.CheckState(state)
    assert "hunter2" not in str(info.value)


def test_matches_state_fails_on_equal_looking_values_of_another_type() -> None:
    doc = {"format_version": "1.0", "values": {"root_module": {"resources": [
        _resource("examplecloud_thing.n", "n", {"port": "1"}, {"port": 1})]}}}
    assert [str(f) for f in ExpectIdentityValueMatchesState("examplecloud_thing.n", New("port")).failures(
        State.from_dict(doc))] == [
        "ExpectIdentityValueMatchesState: examplecloud_thing.n: expected identity and state value at path to "
        'match, but they differ: examplecloud_thing.n.port, identity value: 1, state value: "1"'
    ]


#: An identity as Terraform types it (a cty object): its numbers spelled otherwise than the state's values, its
#: attributes in another order. Raw JSON: the spelling is the point.
TYPED_STATE = (
    '{"format_version": "1.0", "values": {"root_module": {"resources": [{"address": "examplecloud_thing.t", '
    '"mode": "managed", "type": "examplecloud_thing", "name": "t", "identity_schema_version": 0, '
    '"values": {"id": "x", "n": 1, "l": [1, 2.0], "on": true, "one": 1}, '
    '"identity": {"on": true, "l": [1e0, 20E-1], "n": 1.0, "id": "x", "one": true}}]}}}'
)


@pytest.mark.parametrize(
    ("check", "failures"),
    [
        pytest.param(ExpectIdentity("examplecloud_thing.t", {
            "id": kv.StringExact("x"), "n": kv.Int64Exact(1), "l": kv.ListExact([kv.Int64Exact(1), kv.Int64Exact(2)]),
            "on": kv.Bool(True), "one": kv.Bool(True)}), [], id="ExpectIdentity-number-spellings-any-order"),
        pytest.param(ExpectIdentityValue("examplecloud_thing.t", New("n"), kv.Float64Exact(1.0)), [],
                     id="ExpectIdentityValue-1.0-is-1"),
        pytest.param(ExpectIdentityValueMatchesState("examplecloud_thing.t", New("n")), [], id="MatchesState-1.0-is-1"),
        pytest.param(ExpectIdentityValueMatchesState("examplecloud_thing.t", New("l")), [],
                     id="MatchesState-1e0-is-1"),
        pytest.param(ExpectIdentityValueMatchesState("examplecloud_thing.t", New("one")), [
            "ExpectIdentityValueMatchesState: examplecloud_thing.t: expected identity and state value at path to "
            "match, but they differ: examplecloud_thing.t.one, identity value: true, state value: 1"],
            id="MatchesState-true-is-no-1"),
    ],
)
def test_identity_values_compare_as_terraform_types_them(check: statecheck.StateCheck, failures: list[str]) -> None:
    """Numbers by value (1, 1.0, 1e0, 20E-1), attributes in any order, a bool never a number: cty's equality."""
    assert [str(f) for f in check.failures(State.from_json(TYPED_STATE))] == failures


def test_a_secret_for_each_key_is_hidden_in_the_address() -> None:
    doc = {"format_version": "1.0", "values": {
        "outputs": {"key": {"value": "pw-5531", "sensitive": True, "type": "string"}},
        "root_module": {"resources": [
            _resource('examplecloud_thing.k["pw-5531"]', "k", {"id": "a"}, None, index="pw-5531")]}}}
    failures = ExpectIdentity('examplecloud_thing.k["pw-5531"]', {"id": kv.NotNull()}).failures(State.from_dict(doc))
    assert [f.address for f in failures] == ['examplecloud_thing.k["(sensitive)"]']
    assert "pw-5531" not in str(failures[0])


# -- construction --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [
        pytest.param(lambda: ExpectIdentity("", {}), ValueError, "ExpectIdentity: address must not be empty", id="empty-address"),
        pytest.param(lambda: ExpectIdentity("a.b", [kv.Null()]), TypeError,
                     "ExpectIdentity: identity must be a dict of attribute name to knownvalue check, got list", id="identity-list"),
        pytest.param(lambda: ExpectIdentity("a.b", {"id": "x"}), TypeError,
                     'ExpectIdentity: identity["id"] must be a knownvalue check, got str (wrap plain values with '
                     "knownvalue.exact())", id="plain-value"),
        pytest.param(lambda: ExpectIdentity("a.b", {1: kv.Null()}), TypeError,
                     "ExpectIdentity: identity attribute names must be str, got int: 1", id="int-key"),
        pytest.param(lambda: ExpectIdentityValue("a.b", "id", kv.Null()), TypeError,
                     "ExpectIdentityValue: path must be a tfjsonpath.Path, got str (to use text, parse it: "
                     "tfjsonpath.Path.parse('id'))", id="text-path"),
        pytest.param(lambda: ExpectIdentityValue("a.b", New("id"), 3), TypeError,
                     "ExpectIdentityValue: matcher must be a knownvalue check, got int (wrap plain values with "
                     "knownvalue.exact())", id="plain-matcher"),
        pytest.param(lambda: ExpectIdentityValueMatchesStateAtPath("a.b", New("id"), None), TypeError,
                     "ExpectIdentityValueMatchesStateAtPath: path must be a tfjsonpath.Path, got NoneType", id="no-state-path"),
    ],
)
def test_bad_arguments_fail_at_construction(build: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        build()
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("check", "text"),
    [
        pytest.param(ExpectIdentity("a.b", {"z": kv.Null(), "id": kv.StringExact("x")}),
                     "ExpectIdentity('a.b', {'id': StringExact('x'), 'z': Null()})", id="ExpectIdentity"),
        pytest.param(ExpectIdentityValue("a.b", New("id"), kv.Null()),
                     "ExpectIdentityValue('a.b', Path(MapStep('id')), Null())", id="ExpectIdentityValue"),
        pytest.param(ExpectIdentityValueMatchesState("a.b", New("id")),
                     "ExpectIdentityValueMatchesState('a.b', Path(MapStep('id')))", id="MatchesState"),
        pytest.param(ExpectIdentityValueMatchesStateAtPath("a.b", New("id"), Path()),
                     "ExpectIdentityValueMatchesStateAtPath('a.b', Path(MapStep('id')), Path())", id="MatchesStateAtPath"),
    ],
)
def test_checks_are_frozen_values(check: statecheck.StateCheck, text: str) -> None:
    assert repr(check) == text
    assert pickle.loads(pickle.dumps(check)) == check
    assert hash(pickle.loads(pickle.dumps(check))) == hash(check)
    with pytest.raises(AttributeError, match="is immutable"):
        check.address = "x"  # type: ignore[misc]


def test_the_identity_argument_is_not_kept_by_reference() -> None:
    identity = {"id": kv.StringExact("x")}
    check = ExpectIdentity("a.b", identity)
    identity["extra"] = kv.Null()
    assert check == ExpectIdentity("a.b", {"id": kv.StringExact("x")})
    assert identity == {"id": kv.StringExact("x"), "extra": kv.Null()}  # nor changed


def test_assert_state_runs_identity_checks_with_the_others(state: State) -> None:
    with pytest.raises(StateCheckError) as info:
        statecheck.assert_state(
            state,
            ExpectIdentityValue("examplecloud_thing.one", New("id"), kv.StringExact("id-123")),
            ExpectIdentity("examplecloud_thing.plain", {"id": kv.NotNull()}),
            statecheck.ExpectKnownValue("examplecloud_thing.plain", New("id"), kv.StringExact("p-1")),
        )
    assert str(info.value) == (
        f"ExpectIdentity: examplecloud_thing.plain: {NO_IDENTITY} (this state was written by Terraform 1.12.1)"
    )


# -- a law: the exact matcher of any identity passes ExpectIdentity ------------------------------

_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.text(max_size=8))
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=6)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.text(min_size=1, max_size=6), _VALUES, min_size=1, max_size=4))
def test_exact_matchers_of_an_identity_pass(identity: dict[str, Any]) -> None:
    doc = {"format_version": "1.0", "values": {"root_module": {"resources": [
        _resource("examplecloud_thing.p", "p", dict(identity), identity)]}}}
    state = State.from_dict(doc)
    assert ExpectIdentity("examplecloud_thing.p", {k: kv.exact(v) for k, v in identity.items()}).failures(state) == []
    for key in identity:
        assert ExpectIdentityValueMatchesState("examplecloud_thing.p", New(key)).failures(state) == []


@pytest.mark.parametrize("parser", ["fast", "stdlib"])
@pytest.mark.parametrize(
    ("identity", "error"),
    [
        pytest.param({"id": "a"}, None, id="object"),
        pytest.param(None, None, id="null"),
        pytest.param("a", "expected a resource identity object or null, found a string", id="string"),
    ],
)
def test_large_states_check_identity_too(parser: str, identity: Any, error: str | None) -> None:
    # Past a megabyte a state may be split and parsed on first access: identities are checked all the same.
    resource = {**_resource("examplecloud_thing.big", "big", {"pad": "x" * (3 << 20)}, None),
                "identity_schema_version": 0, "identity": identity}
    doc = {"format_version": "1.0", "values": {"root_module": {"resources": [resource]}}}
    data = json.dumps(doc).encode()
    if error is None:
        assert State.from_json(data, parser=parser).resource("examplecloud_thing.big").identity == identity
    else:
        with pytest.raises(StateFormatError) as info:
            State.from_json(data, parser=parser)
        assert str(info.value) == f"$.values.root_module.resources[0].identity: {error}"
