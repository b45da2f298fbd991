"""A lazily loaded plan's secrets, collected without parsing its states whole.

A plan's ``planned_values`` and ``prior_state`` repeat its changes: a resource's values and marks are
most often the very text of its change's ``after`` (``before``) and ``after_sensitive``
(``before_sensitive``). The secret collection of a plan loaded lazily with msgspec reads the states'
skeletons and takes those resources' values from the parsed changes
(:func:`plancheck._loading.split_state.plan_state_skims`): the secrets and the trusted names must be
those of a whole parse, and a state that parsing whole refuses must raise the same error, with the
same message, when its secrets are listed (the listing fails closed).
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from loading_support import ROUTES, dumps, route

from plancheck import ExpectKnownValue, PlanCheckError, assert_plan
from plancheck import knownvalue as kv
from plancheck._documents.plan import Plan
from plancheck._errors import DocumentFormatError
from plancheck._loading import jsontext
from plancheck.snapshot import render
from tfjsonpath import New

_BIG = b"1e999999999999999999999"  # a number no decimal holds: refused when its value is parsed


def _change(name: str, before: Any, before_marks: Any, after: Any, after_marks: Any, **extra: Any) -> dict[str, Any]:
    return {"address": f"null_resource.{name}", "mode": "managed", "type": "null_resource", "name": name, **extra,
            "change": {"actions": ["update"], "before": before, "after": after, "after_unknown": {},
                       "before_sensitive": before_marks, "after_sensitive": after_marks}}  # fmt: skip


def _resource(name: str, values: Any, marks: Any, *, kind: str = "null_resource", **extra: Any) -> dict[str, Any]:
    return {"address": f"{kind}.{name}", "mode": "managed", "type": kind,
            "name": name, "provider_name": "registry.terraform.io/hashicorp/null", "schema_version": 0,
            "values": values, "sensitive_values": marks, **extra}  # fmt: skip


_BEFORE = {"pw": "old-s3cret-pw", "name": "web-frontend"}
_AFTER = {"pw": "new-s3cret-pw", "name": "web-frontend", "tags": ["t1", "t2"]}
_MARKS = {"pw": True}
_AFTER_MARKS = {"pw": True, "tags": [False, False]}


def _plan(*, planned: list[Any] | None = None, prior: list[Any] | None = None, outputs: Any = None,
          modules: Any = None, **members: Any) -> dict[str, Any]:  # fmt: skip
    """A plan whose states repeat its one change (``null_resource.a``), with more state resources if given."""
    planned_module: dict[str, Any] = {"resources": [_resource("a", _AFTER, _AFTER_MARKS), *(planned or ())]}
    if modules is not None:
        planned_module["child_modules"] = modules
    # Terraform's order (outputs, then root_module): the skim compares the text with its struct's encoding
    planned_values: dict[str, Any] = {} if outputs is None else {"outputs": outputs}
    planned_values["root_module"] = planned_module
    return {
        "format_version": "1.2",
        "planned_values": planned_values,
        "resource_changes": [_change("a", _BEFORE, _MARKS, _AFTER, _AFTER_MARKS)],
        "prior_state": {"format_version": "1.0", "values": {"root_module": {
            "resources": [_resource("a", _BEFORE, _MARKS), *(prior or ())]}}},
        **members,
    }  # fmt: skip


def _nested(depth: int, leaf: dict[str, Any]) -> list[Any]:
    module: dict[str, Any] = {"address": "module.m", "resources": [leaf]}
    for _ in range(depth - 1):
        module = {"address": "module.m", "child_modules": [module]}
    return [module]


_DATA = _resource("ami", {"id": "ami-1", "token": "data-s3cret-tok"}, {"token": True}, kind="data.null_data_source")

# (plan, the states its secret collection reads whole: the others stay unparsed)
SAME_CASES = [
    pytest.param(_plan(), (), id="states-repeat-the-change"),
    pytest.param(_plan(prior=[_DATA]), (), id="a-data-source-only-in-the-prior-state"),
    pytest.param(_plan(planned=[_resource("b", {"key": "state-only-s3cret"}, {"key": True})]), (),
                 id="a-planned-resource-without-a-change"),
    pytest.param(_plan(planned=[_resource("a", {**_AFTER, "pw": "differs-s3cret"}, _AFTER_MARKS)]), (),
                 id="a-planned-resource-unlike-its-change"),
    pytest.param(_plan(planned=[_resource("c", {"pw": "marked-s3cret"}, {"pw": [True]})]), (),
                 id="marks-that-do-not-fit-fail-closed"),
    pytest.param(_plan(outputs={"o": {"value": "out-s3cret-val", "sensitive": True}, "p": {"value": "plain"}}), (),
                 id="a-sensitive-output"),
    pytest.param(_plan(modules=_nested(3, _resource("deep", {"pw": "deep-s3cret"}, {"pw": True}))), (),
                 id="nested-modules"),
    pytest.param(_plan(modules=_nested(12, _resource("deep", {"pw": "deep-s3cret"}, {"pw": True}))), ("planned_values",),
                 id="modules-nested-deeper-than-the-skim-reads"),
    pytest.param(_plan(modules=_nested(8, _resource("deep", {"pw": "deep-s3cret"}, {"pw": True}))), (),
                 id="modules-nested-as-deep-as-the-skim-reads"),
    pytest.param(_plan(modules=_nested(9, _resource("deep", {"pw": "deep-s3cret"}, {"pw": True}))), ("planned_values",),
                 id="modules-nested-one-deeper-than-the-skim-reads"),
    pytest.param(_plan(planned=[_resource("a", _AFTER, {**_AFTER_MARKS, "name": True})]), (),
                 id="the-state-marks-what-its-change-does-not"),
    pytest.param(_plan(prior=[_resource("a", {**_BEFORE, "pw": "deposed-s3cret"}, _MARKS, deposed_key="d1")]), (),
                 id="a-deposed-object-under-its-current-change-s-address"),
    pytest.param(_plan(planned=[_resource("u", {"pw": "unknown-key-s3cret"}, {"pw": True}, future_key=1)]), ("planned_values",),
                 id="a-resource-key-the-schema-does-not-name"),
    pytest.param(_plan(variables={"pw": {"value": "var-s3cret"}},
                       configuration={"root_module": {"variables": {"pw": {"sensitive": True}}}}), (),
                 id="a-sensitive-variable"),
]


def _both_routes(data: bytes) -> tuple[Plan, Plan]:
    """``data`` read whole (the stdlib route) and lazily (msgspec's, where listing the secrets skims the states)."""
    with route("stdlib") as parser:
        whole = Plan.from_json(data, source="plan.json", parser=parser)
    with route("fast-lazy") as parser:
        lazy = Plan.from_json(data, source="plan.json", parser=parser)
    return whole, lazy


@pytest.mark.parametrize(("document", "read_whole"), SAME_CASES)
def test_a_lazy_plan_lists_the_secrets_and_names_of_a_whole_parse(
    document: dict[str, Any], read_whole: tuple[str, ...]
) -> None:
    data = dumps(document)
    whole, lazy = _both_routes(data)
    assert lazy.secrets.ordered == whole.secrets.ordered
    assert lazy.secrets.trusted == whole.secrets.trusted
    assert {key for key in ("planned_values", "prior_state") if lazy.raw.is_parsed(key)} == set(read_whole)


_PLAN = dumps(_plan(
    planned=[_resource("b", {"dup": "x", "n": "NUM"}, {"dup": True})],
    prior=[_resource("b", {"dup": "x", "n": "NUM"}, {"dup": True})],
    outputs={"o": {"value": "v", "sensitive": True}},
))  # fmt: skip

# (the plan's text, the state member it breaks): the listing of secrets must raise what reading the member raises
ERROR_CASES = [
    pytest.param(_PLAN.replace(b'"name":"b",', b'"name":"b","name":"b",', 1), "planned_values",
                 id="a-planned-resource-repeats-a-key"),
    pytest.param(_PLAN.replace(b'"dup":"x"', b'"dup":"x","dup":"y"', 1), "planned_values",
                 id="planned-values-repeat-a-key"),
    pytest.param(_PLAN.replace(b'"NUM"', _BIG, 1), "planned_values", id="a-planned-number-no-decimal-holds"),
    pytest.param(_PLAN.replace(b'{"dup":true}', b'{"dup":1}', 1), "planned_values", id="planned-marks-not-a-tree"),
    pytest.param(_PLAN.replace(b'"sensitive":true', b'"sensitive":"yes"', 1), "planned_values",
                 id="an-output-sensitive-not-a-boolean"),
    pytest.param(_PLAN.replace(b'"schema_version":0', b'"schema_version":"0"', 1), "planned_values",
                 id="a-resource-member-of-the-wrong-type"),
    pytest.param(_PLAN.replace(b'"format_version":"1.0"', b'"format_version":"1.0","format_version":"1.0"', 1),
                 "prior_state", id="the-prior-state-repeats-a-key"),
    pytest.param(_PLAN.replace(b'"NUM"', b'"x"', 1).replace(b'"NUM"', _BIG, 1), "prior_state",
                 id="a-prior-number-no-decimal-holds"),
    pytest.param(_PLAN.replace(b'"NUM"', b'"x"', 1).replace(b'"dup":"x","n"', b'"dup":"x","dup":"z","n"', 2),
                 "planned_values", id="both-states-repeat-a-key-the-planned-values-first"),
    pytest.param(_PLAN.replace(b'"name":"b",', b'"name":"b","name":"b",', 2).replace(b'"name":"b","name":"b",', b'"name":"b",', 1),
                 "prior_state", id="a-prior-resource-repeats-a-key"),
    pytest.param(dumps(_plan(prior=[_resource("i", {}, {}, identity=5)])), "prior_state",
                 id="an-identity-not-an-object"),
]


@pytest.mark.parametrize(("data", "member"), ERROR_CASES)
def test_listing_the_secrets_raises_what_reading_the_state_raises(data: bytes, member: str) -> None:
    with route("fast-lazy") as parser:
        plan = Plan.from_json(data, source="plan.json", parser=parser)
    with pytest.raises(DocumentFormatError) as reading:
        plan.raw[member]
    assert f"$.{member}" in str(reading.value)
    with route("fast-lazy") as parser:
        plan = Plan.from_json(data, source="plan.json", parser=parser)
    with pytest.raises(DocumentFormatError) as listing:
        plan.secrets  # noqa: B018
    assert str(listing.value) == str(reading.value)


@pytest.mark.parametrize("definition", ["module", "resource", "marks", "output"])
def test_the_plan_schema_states_are_the_state_schema_s(definition: str) -> None:
    """The skim checks a plan's states against the state schema's definitions (those the one-scan state route
    reads with): they must be the plan schema's, or the skim would prove what parsing whole refuses."""
    from plancheck._loading.validate import load_schema

    assert load_schema("plan")["$defs"][definition] == load_schema("state")["$defs"][definition]
    plan_values, state_values = load_schema("plan")["$defs"]["values"], load_schema("state")["properties"]["values"]
    assert plan_values["properties"] == state_values["properties"]


def test_an_indented_plan_is_skimmed_too() -> None:
    """Terraform's compact text is proven by comparing it with the struct's encoding; an indented one (written by
    another tool) by its colons (no repeated key), and its secrets are the same."""
    document = _plan(prior=[_DATA], outputs={"o": {"value": "out-s3cret-val", "sensitive": True}})
    data = json.dumps(document, indent=2).encode()
    whole, lazy = _both_routes(data)
    assert lazy.secrets.ordered == whole.secrets.ordered
    assert not lazy.raw.is_parsed("planned_values")
    assert not lazy.raw.is_parsed("prior_state")


_NAMES = st.sampled_from(["a", "b", "c"])
_TEXTS = st.sampled_from(["s3cret-one", "s3cret-two", "plain-value", "x"])
_SIDE = st.fixed_dictionaries({"pw": _TEXTS, "n": st.integers(0, 3)}) | st.none()
_ANY_MARKS = st.sampled_from([{"pw": True}, {}, {"n": True}, True, False])


@st.composite
def _plans(draw: st.DrawFn) -> dict[str, Any]:
    """A plan whose states repeat, or not, the sides of changes that may be deposed or name an address twice (a
    change is one per address and deposed key: a plan of two is refused, test_loading_errors' address-twice)."""
    changes = []
    for name, deposed in draw(st.lists(st.tuples(_NAMES, st.booleans()), max_size=4, unique=True)):
        change = _change(name, draw(_SIDE), draw(_ANY_MARKS), draw(_SIDE), draw(_ANY_MARKS))
        if deposed:
            change["deposed"] = "dep-1"
        changes.append(change)

    def state(side: str) -> list[Any]:
        resources = []
        for name in draw(st.lists(_NAMES, max_size=4)):
            same = [c["change"] for c in changes if c["name"] == name]
            if same and draw(st.booleans()):  # the text of one of its changes' side, or its values only
                picked = draw(st.sampled_from(same))
                values, marks = picked[side], picked[f"{side}_sensitive"]
                marks = draw(st.sampled_from([marks, draw(_ANY_MARKS)]))
            else:
                values, marks = draw(_SIDE), draw(_ANY_MARKS)
            resources.append(_resource(name, values, marks))
        return resources

    return {"format_version": "1.2", "resource_changes": changes,
            "planned_values": {"root_module": {"resources": state("after")}},
            "prior_state": {"format_version": "1.0", "values": {"root_module": {"resources": state("before")}}}}  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(_plans())
def test_the_skim_collects_what_a_whole_parse_collects(document: dict[str, Any]) -> None:
    data = dumps(document)
    whole, lazy = _both_routes(data)
    assert lazy.secrets.ordered == whole.secrets.ordered
    assert lazy.secrets.trusted == whole.secrets.trusted


def _respelled(data: bytes, old: bytes, new: bytes, count: int) -> bytes:
    assert data.count(old) >= count
    return data.replace(old, new, count)


_SPELLED = dumps(_plan())
#: (plan text): a state whose resource is not the very text of its change, though it may be the same value, or
#: that names an address twice. The skim compares texts, a whole parse values: they must find the same secrets.
SPELLING_CASES = [
    # The planned values come first in the text: the first occurrence is the state's, the last the change's.
    pytest.param(_respelled(_SPELLED, b'"new-s3cret-pw"', b'"new-s3cr\\u0065t-pw"', 1), id="a-unicode-escape-in-the-state"),
    pytest.param(_respelled(_SPELLED, b'{"pw":true,"tags":[false,false]}', b'{"tags":[false,false],"pw":true}', 1),
                 id="marks-in-another-order"),
    pytest.param(dumps(_plan(prior=[_resource("a", {"pw": "deposed-s3cret"}, {"pw": True}, deposed_key="00000001")])),
                 id="a-deposed-object-at-the-change-s-address"),
    pytest.param(dumps(_plan(prior=[_resource("a", _BEFORE, {}, deposed_key="00000001")])),
                 id="a-deposed-object-with-the-change-s-values-unmarked"),
    pytest.param(dumps(_plan(planned=[_resource("a", {"pw": "twice-s3cret"}, {"pw": True})])), id="an-address-twice"),
    pytest.param(dumps(_plan(modules=[{"address": "module.m", "resources": [
        {**_resource("a", {"pw": "module-s3cret"}, {"pw": True}), "address": "module.m.null_resource.a"}]}])),
                 id="a-module-resource-named-as-the-root-one"),
]


@pytest.mark.parametrize("data", SPELLING_CASES)
def test_a_state_unlike_the_text_of_its_change_is_read_and_collected_as_a_whole_parse_does(data: bytes) -> None:
    whole, lazy = _both_routes(data)
    assert lazy.secrets.ordered == whole.secrets.ordered
    assert lazy.secrets.trusted == whole.secrets.trusted
    assert not lazy.raw.is_parsed("planned_values")  # the skim read it (the whole read would raise nothing either)
    assert not lazy.raw.is_parsed("prior_state")


def _pinned(state: Any, change: Any, where: str) -> dict[str, Any]:
    """A plan whose change of ``null_resource.a`` marks its ``pin``, which the state ``where`` holds as ``state``
    (the other state as ``change``); ``null_resource.b`` holds ``state`` unmarked, for a failure to show."""
    planned, prior = (state, change) if where == "planned_values" else (change, state)
    return {
        "format_version": "1.2",
        "planned_values": {"root_module": {"resources": _pin_resources(planned, state)}},
        "resource_changes": [_change("a", {"pin": change}, {"pin": True}, {"pin": change}, {"pin": True}),
                             _change("b", {"n": state}, {}, {"n": state}, {})],
        "prior_state": {"format_version": "1.0", "values": {"root_module": {"resources": _pin_resources(prior, state)}}},
    }  # fmt: skip


def _pin_resources(pin: Any, n: Any) -> list[Any]:
    return [_resource("a", {"pin": pin}, {"pin": True}), _resource("b", {"n": n}, {})]


def _pinned_text(state: bytes, change: bytes, where: str) -> bytes:
    return dumps(_pinned("STATE", "CHANGE", where)).replace(b'"STATE"', state).replace(b'"CHANGE"', change)


#: (the state's number, its change's, where): ``==`` finds them equal, but the state spells its number otherwise,
#: and a message may show that spelling (as another resource's value): it is a secret of its own.
RESPELLED = [
    pytest.param(state, change, where, id=f"{name}-in-the-{where.replace('_', '-')}")
    for name, state, change in [
        ("an-exponent-for-an-integer", b"1E+3", b"1000"),
        ("a-fraction-for-an-integer", b"100.0", b"100"),
        ("a-trailing-zero", b"1.50", b"1.5"),
        ("a-negative-zero", b"-0.0", b"0.0"),
    ]
    for where in ("planned_values", "prior_state")
]


def _failure_shown(plan: Plan) -> str:
    with pytest.raises(PlanCheckError) as info:
        assert_plan(plan, ExpectKnownValue("null_resource.b", New("n"), kv.StringExact("not-a-number")))
    return str(info.value)


@pytest.mark.parametrize("name", ROUTES)
@pytest.mark.parametrize(("state", "change", "where"), RESPELLED)
def test_a_state_spelling_its_change_s_number_otherwise_is_a_secret_of_its_own(
    state: bytes, change: bytes, where: str, name: str
) -> None:
    with route(name) as parser:
        plan = Plan.from_json(_pinned_text(state, change, where), source="plan.json", parser=parser)
    assert state.decode() in plan.secrets.ordered
    shown = _failure_shown(plan)
    assert "got (sensitive)" in shown
    assert state.decode() not in shown
    snapshot = render(plan, key=None)  # a file committed beside the tests
    assert 'n = (sensitive)' in snapshot
    assert state.decode() not in snapshot


#: The same, in a plan given as Python values (``Plan.from_dict``): ``1000 == 1000.0 == Decimal("1E+3")``.
RESPELLED_VALUES = [
    pytest.param(1000.0, 1000, "1000.0", id="a-float-for-an-int"),
    pytest.param(Decimal("1E+3"), 1000, "1E+3", id="a-decimal-exponent-for-an-int"),
    pytest.param(Decimal("1000.0"), Decimal("1E+3"), "1000.0", id="a-decimal-for-another"),
]


@pytest.mark.parametrize(("state", "change", "spelled"), RESPELLED_VALUES)
def test_a_state_value_unlike_its_change_s_in_type_or_digits_is_a_secret_of_its_own(
    state: Any, change: Any, spelled: str
) -> None:
    plan = Plan.from_dict(_pinned(state, change, "planned_values"))
    assert spelled in plan.secrets.ordered
    assert spelled not in _failure_shown(plan)


#: (a, b, whether they are spelled alike): equal, of the same types, every number with the same text.
ALIKE = [
    pytest.param({"n": [1, Decimal("1.5"), "s", None, True]}, {"n": [1, Decimal("1.5"), "s", None, True]}, True,
                 id="the-same-json"),
    pytest.param(Decimal("1e3"), Decimal("1E+3"), True, id="one-decimal-written-two-ways"),
    pytest.param(1000, Decimal("1E+3"), False, id="an-int-and-a-decimal-exponent"),
    pytest.param(1, 1.0, False, id="an-int-and-a-float"),
    pytest.param(1, True, False, id="an-int-and-a-bool"),
    pytest.param(Decimal("1.50"), Decimal("1.5"), False, id="a-trailing-zero"),
    pytest.param(Decimal("-0"), Decimal("0"), False, id="a-negative-zero"),
    pytest.param({"a": 1, "b": 2}, {"b": 2, "a": 1}, False, id="keys-in-another-order"),
    pytest.param(Decimal("1"), "1", False, id="a-number-and-its-text"),
    pytest.param([Decimal("sNaN")], [Decimal("sNaN")], False, id="a-comparison-that-raises"),
]


@pytest.mark.parametrize("encoder", ["msgspec", "pickle"])
@pytest.mark.parametrize(("a", "b", "alike"), ALIKE)
def test_spelled_alike_with_either_encoder(a: Any, b: Any, alike: bool, encoder: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if encoder == "msgspec" and not jsontext.fast_parser_available():
        pytest.skip("the fast extra (msgspec) is not installed")
    monkeypatch.setattr(jsontext, "fast_parser_available", lambda: encoder == "msgspec")
    jsontext._spelling_encoder.cache_clear()
    try:
        assert jsontext.spelled_alike(a, b) is alike
        assert jsontext.spelled_alike(b, a) is alike
    finally:
        jsontext._spelling_encoder.cache_clear()


def test_a_state_written_as_its_change_adds_no_secret() -> None:
    # 1e3 and 1E+3 are one Decimal, as written by every message: nothing more to scrub than the change's spellings.
    whole, lazy = _both_routes(_pinned_text(b"1e3", b"1E+3", "planned_values"))
    assert whole.secrets.ordered == lazy.secrets.ordered == ("1000", "1E+3")


_DEEP = 500  # levels of nesting: read lazily at load, and by msgspec from a shallow stack
_NESTED = b"[" * _DEEP + b'"deep-s3cret-value"' + b"]" * _DEEP


def _deep(document: dict[str, Any]) -> bytes:
    return dumps(document).replace(b'"DEEP"', _NESTED)


def _called_deeper(frames: int, call: Any) -> Any:
    """``call()`` from ``frames`` more frames down the stack (as a check's failure, deep in a test, asks for secrets)."""
    return call() if frames <= 0 else _called_deeper(frames - 1, call)


# (the plan's text, whether the deep value is a secret): a value nested deeply enough that msgspec, reading it from
# where the secrets are asked, runs out of stack (its depth limit counts the caller's frames); the listing must then
# read the state whole, as before, not raise a RecursionError
DEEP_CASES = [
    pytest.param(_deep(_plan(planned=[_resource("z", {"v": "DEEP"}, {"v": True})])), True,
                 id="a-planned-resource-unlike-its-change"),
    pytest.param(_deep(_plan(prior=[_resource("z", {"v": "DEEP"}, {"v": True})])), True, id="a-prior-resource"),
    pytest.param(_deep(_plan(outputs={"o": {"value": "DEEP", "sensitive": True}})), True, id="a-planned-output"),
    pytest.param(_deep(_plan(planned=[_resource("z", {"v": "x"}, {}, identity={"v": "DEEP"})])), False,
                 id="an-identity"),
    pytest.param(_deep({**_plan(), "resource_changes": [_change("a", _BEFORE, _MARKS, {"v": "DEEP"}, {"v": True})],
                        "planned_values": {"root_module": {"resources": [_resource("a", {"v": "DEEP"}, {"v": True})]}}}),
                 True, id="a-change-its-state-repeats"),
]  # fmt: skip


@pytest.mark.parametrize(("data", "secret"), DEEP_CASES)
def test_a_deeply_nested_value_is_listed_as_a_whole_parse_lists_it(data: bytes, secret: bool) -> None:
    import sys

    whole, lazy = _both_routes(data)
    assert not lazy.raw.is_parsed("planned_values")
    listed = _called_deeper(sys.getrecursionlimit() - _DEEP, lambda: lazy.secrets.ordered)
    assert listed == whole.secrets.ordered
    assert ("deep-s3cret-value" in listed) is secret
