"""plancheck.Resources: every field, the address glob grammar, bad selectors, and the laws of selection."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from plancheck import Plan, ResourceAction, Resources, State

AWS = "registry.terraform.io/hashicorp/aws"
CHANGES: list[dict[str, Any]] = [
    {"address": "aws_s3_bucket.logs", "mode": "managed", "type": "aws_s3_bucket", "name": "logs",
     "provider_name": AWS, "change": {"actions": ["update"]}},
    {"address": "module.net.aws_subnet.private[0]", "module_address": "module.net", "mode": "managed",
     "type": "aws_subnet", "name": "private", "index": 0, "provider_name": AWS, "change": {"actions": ["create"]}},
    {"address": 'module.net.aws_subnet.private["b.c"]', "module_address": "module.net", "mode": "managed",
     "type": "aws_subnet", "name": "private", "index": "b.c", "provider_name": AWS,
     "change": {"actions": ["delete", "create"]}},
    {"address": "module.net.module.sub[1].aws_vpc.main", "module_address": "module.net.module.sub[1]",
     "mode": "managed", "type": "aws_vpc", "name": "main", "provider_name": AWS, "change": {"actions": ["no-op"]}},
    {"address": "data.aws_region.here", "mode": "data", "type": "aws_region", "name": "here",
     "provider_name": AWS, "change": {"actions": ["read"]}},
    {"address": "null_resource.a", "mode": "managed", "type": "null_resource", "name": "a",
     "provider_name": "registry.terraform.io/hashicorp/null", "change": {"actions": ["create", "delete"]}},
    {"address": "null_resource.a", "deposed": "00000001", "mode": "managed", "type": "null_resource", "name": "a",
     "provider_name": "registry.terraform.io/hashicorp/null", "change": {"actions": ["delete"]}},
]
PLAN = Plan.from_dict({"format_version": "1.2", "resource_changes": CHANGES})


def addresses(selector: Resources) -> list[str]:
    return [rc.address + (f" (deposed {rc.deposed})" if rc.deposed else "") for rc in selector.select(PLAN)]


SELECTIONS = [
    ("nothing-given-selects-all", Resources(), [c["address"] + (" (deposed 00000001)" if "deposed" in c else "")
                                               for c in CHANGES]),
    ("type-exact", Resources(type="aws_subnet"),
     ["module.net.aws_subnet.private[0]", 'module.net.aws_subnet.private["b.c"]']),
    ("type-glob", Resources(type="aws_s*"), ["aws_s3_bucket.logs", "module.net.aws_subnet.private[0]",
                                             'module.net.aws_subnet.private["b.c"]']),
    ("module-root-only", Resources(module=""), ["aws_s3_bucket.logs", "data.aws_region.here", "null_resource.a",
                                                "null_resource.a (deposed 00000001)"]),
    ("module-exact-not-nested", Resources(module="module.net"),
     ["module.net.aws_subnet.private[0]", 'module.net.aws_subnet.private["b.c"]']),
    ("module-glob-nested", Resources(module="module.net.*"), ["module.net.module.sub[1].aws_vpc.main"]),
    ("module-without-key-covers-instances", Resources(module="module.net.module.sub"),
     ["module.net.module.sub[1].aws_vpc.main"]),
    ("module-other-key", Resources(module="module.net.module.sub[0]"), []),
    ("address-glob-all-in-module", Resources(address="module.net.*"),
     ["module.net.aws_subnet.private[0]", 'module.net.aws_subnet.private["b.c"]',
      "module.net.module.sub[1].aws_vpc.main"]),
    ("address-any-key", Resources(address="module.net.aws_subnet.private[*]"),
     ["module.net.aws_subnet.private[0]", 'module.net.aws_subnet.private["b.c"]']),
    ("address-without-key-covers-instances", Resources(address="module.net.aws_subnet.private"),
     ["module.net.aws_subnet.private[0]", 'module.net.aws_subnet.private["b.c"]']),
    ("address-literal-key-with-dot", Resources(address='module.net.aws_subnet.private["b.c"]'),
     ['module.net.aws_subnet.private["b.c"]']),
    ("address-glob-inside-key", Resources(address='module.net.aws_subnet.private["b*"]'),
     ['module.net.aws_subnet.private["b.c"]']),
    ("address-index", Resources(address="module.net.aws_subnet.private[0]"), ["module.net.aws_subnet.private[0]"]),
    ("address-question-mark", Resources(address="null_resource.?"),
     ["null_resource.a", "null_resource.a (deposed 00000001)"]),
    ("mode-data", Resources(mode="data"), ["data.aws_region.here"]),
    ("provider-full", Resources(provider="registry.terraform.io/hashicorp/null"),
     ["null_resource.a", "null_resource.a (deposed 00000001)"]),
    ("provider-short", Resources(provider="hashicorp/null"), ["null_resource.a", "null_resource.a (deposed 00000001)"]),
    ("provider-type-only", Resources(provider="null"), ["null_resource.a", "null_resource.a (deposed 00000001)"]),
    ("provider-not-a-suffix-of-a-part", Resources(provider="ull"), []),
    ("action-enum", Resources(action=ResourceAction.Create), ["module.net.aws_subnet.private[0]"]),
    ("action-replace-either-order", Resources(action="replace"),
     ['module.net.aws_subnet.private["b.c"]', "null_resource.a"]),
    ("action-list-any", Resources(action=["no-op", "read"]),
     ["module.net.module.sub[1].aws_vpc.main", "data.aws_region.here"]),
    ("action-terraform-word", Resources(action="delete"), ["null_resource.a (deposed 00000001)"]),
    ("fields-and", Resources(type="aws_subnet", action="create"), ["module.net.aws_subnet.private[0]"]),
    ("fields-and-nothing", Resources(mode="data", type="aws_subnet"), []),
]


@pytest.mark.parametrize(("selector", "expected"), [s[1:] for s in SELECTIONS], ids=[s[0] for s in SELECTIONS])
def test_select(selector: Resources, expected: list[str]) -> None:
    assert addresses(selector) == expected


BAD = [
    ("unknown-field", lambda: Resources(kind="x"), TypeError, "unexpected keyword argument 'kind'"),
    ("positional", lambda: Resources("aws_s3_bucket"), TypeError, "takes 1 positional argument but 2 were given"),
    ("type-not-str", lambda: Resources(type=3), TypeError, "Resources: type must be a str, got int"),
    ("type-empty", lambda: Resources(type=""), ValueError, "Resources: type must not be empty"),
    ("address-empty", lambda: Resources(address=""), ValueError, "Resources: address must not be empty"),
    ("address-not-str", lambda: Resources(address=["a.b"]), TypeError,
     "Resources: address must be a str pattern, got list"),
    ("address-unclosed", lambda: Resources(address="a.b[0"), ValueError,
     "Resources: address 'a.b[0' is not a valid pattern: '[' at offset 3 is never closed"),
    ("address-stray-close", lambda: Resources(address="a.b]"), ValueError,
     "Resources: address 'a.b]' is not a valid pattern: ']' at offset 3 closes nothing"),
    ("address-bad-key", lambda: Resources(address="a.b[x]"), ValueError,
     "Resources: address 'a.b[x]' is not a valid pattern: [x] at offset 3 is neither [N], [\"key\"] nor [*]"),
    ("address-lone-backslash", lambda: Resources(address='a.b["x\\"]'), ValueError,
     "Resources: address 'a.b[\"x\\\\\"]' is not a valid pattern: '[' at offset 3 is never closed"),
    ("module-bad", lambda: Resources(module="module.a["), ValueError,
     "Resources: module 'module.a[' is not a valid pattern: '[' at offset 8 is never closed"),
    ("mode-bad", lambda: Resources(mode="resource"), ValueError,
     "Resources: mode must be 'managed' or 'data', got 'resource'"),
    ("mode-not-str", lambda: Resources(mode=1), TypeError, "Resources: mode must be a str, got int"),
    ("action-typo", lambda: Resources(action="crate"), ValueError,
     "Resources: action 'crate' is not a ResourceAction; did you mean Create? (one of NoOp, Create, Read, Update, "
     "Destroy, DestroyBeforeCreate, CreateBeforeDestroy, Replace, Forget, CreateThenForget, ForgetThenCreate)"),
    ("action-nonsense", lambda: Resources(action="zzz"), ValueError,
     "Resources: action 'zzz' is not a ResourceAction; (one of NoOp, Create, Read, Update, "
     "Destroy, DestroyBeforeCreate, CreateBeforeDestroy, Replace, Forget, CreateThenForget, ForgetThenCreate)"),
    ("action-empty-list", lambda: Resources(action=[]), ValueError,
     "Resources: action must name at least one ResourceAction"),
    ("action-int", lambda: Resources(action=3), TypeError,
     "Resources: action must be a ResourceAction, its name, or a list of them, got int"),
    ("allow-empty-not-bool", lambda: Resources(allow_empty="yes"), TypeError,
     "Resources: allow_empty must be a bool, got str"),
]


@pytest.mark.parametrize(("make", "error", "message"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_selectors_fail_at_construction(make: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        make()
    assert message in str(info.value)


def test_action_on_a_state_is_refused() -> None:
    state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": []}}})
    with pytest.raises(ValueError, match=r"action selects resource changes of a plan; a state has no actions"):
        Resources(action="create").select(state)


def test_select_refuses_other_documents() -> None:
    with pytest.raises(TypeError, match=r"expected a plancheck.Plan or plancheck.State, got dict"):
        Resources().select({})  # type: ignore[arg-type]


def test_state_selection_covers_child_modules() -> None:
    state = State.from_dict({"format_version": "1.0", "values": {"root_module": {
        "resources": [{"address": "aws_s3_bucket.a", "mode": "managed", "type": "aws_s3_bucket", "name": "a",
                       "provider_name": AWS, "values": {}}],
        "child_modules": [{"address": "module.m", "resources": [
            {"address": "module.m.aws_s3_bucket.b", "mode": "managed", "type": "aws_s3_bucket", "name": "b",
             "provider_name": AWS, "values": {}}]}]}}})
    assert [r.address for r in Resources(type="aws_s3_bucket").select(state)] == [
        "aws_s3_bucket.a", "module.m.aws_s3_bucket.b"]
    assert [r.address for r in Resources(module="module.m").select(state)] == ["module.m.aws_s3_bucket.b"]


VALUES = [
    Resources(),
    Resources(type="aws_*", module="module.net.*", address="a.b[*]", mode="data", provider="aws",
              action=["create", ResourceAction.Update], allow_empty=True),
    Resources(action="replace"),
]


@pytest.mark.parametrize("selector", VALUES, ids=["empty", "every-field", "one-action"])
def test_value_semantics(selector: Resources) -> None:
    from plancheck import ResourceAction as ResourceAction_  # the repr names it

    assert eval(repr(selector), {"Resources": Resources, "ResourceAction": ResourceAction_}) == selector
    assert pickle.loads(pickle.dumps(selector)) == selector
    assert hash(selector) == hash(eval(repr(selector), {"Resources": Resources, "ResourceAction": ResourceAction_}))
    assert selector != object()
    assert selector.__eq__(object()) is NotImplemented
    with pytest.raises(AttributeError):
        selector.type = "x"  # type: ignore[misc]


def test_repr_names() -> None:
    assert repr(Resources()) == "Resources()"
    assert repr(Resources(action="create")) == "Resources(action=ResourceAction.Create)"
    assert repr(Resources(action=["create"])) == "Resources(action=(ResourceAction.Create,))"
    assert repr(Resources(type="x", allow_empty=True)) == "Resources(type='x', allow_empty=True)"
    assert type(Resources()).__module__ == "plancheck"


FIELDS = st.fixed_dictionaries({}, optional={
    "type": st.sampled_from(["aws_subnet", "aws_*", "null_resource", "*"]),
    "module": st.sampled_from(["", "module.net", "module.net.*", "*"]),
    "address": st.sampled_from(["*", "module.net.*", "null_resource.a", "module.net.aws_subnet.private[*]"]),
    "mode": st.sampled_from(["managed", "data"]),
    "provider": st.sampled_from(["aws", "hashicorp/null", "*"]),
    "action": st.sampled_from(["create", "replace", ["no-op", "read"], "delete"]),
})


@given(FIELDS, FIELDS)
def test_fields_are_a_conjunction(left: dict[str, Any], right: dict[str, Any]) -> None:
    """Selecting with two sets of fields (no field in both) is the intersection of selecting with each."""
    right = {k: v for k, v in right.items() if k not in left}
    both = Resources(**left, **right).select(PLAN)
    first = Resources(**left).select(PLAN)
    second = Resources(**right).select(PLAN)
    assert [id(rc) for rc in both] == [id(rc) for rc in first if any(rc is other for other in second)]


@given(FIELDS)
def test_selection_keeps_plan_order(fields: dict[str, Any]) -> None:
    chosen = Resources(**fields).select(PLAN)
    positions = [next(i for i, rc in enumerate(PLAN.resource_changes) if rc is c) for c in chosen]
    assert positions == sorted(positions)


def test_a_real_plan_with_modules(corpus_plans_dir: Path) -> None:
    """Every module address Terraform wrote is selected by its own pattern, and only its resources are."""
    found = 0
    for path in sorted(corpus_plans_dir.glob("*.json")):
        try:
            plan = Plan.from_dict(json.loads(path.read_text(encoding="utf-8")), allow_errored=True)
        except Exception:  # not every corpus file is a plan this loader takes; the plan tests cover that
            continue
        for rc in plan.resource_changes:
            module = rc.module_address
            if not module or '"' in module:
                continue
            found += 1
            chosen = Resources(module=module).select(plan)
            assert rc in chosen
            assert all(c.module_address == module or c.module_address.startswith(module + "[") for c in chosen)
            assert rc in Resources(address=rc.address).select(plan)
    assert found > 0
