"""Mutated plans and states: the compiled validator and jsonschema agree, and every loading route agrees.

Valid plans are broken the ways real documents break (a key dropped, a value of another
type, an unknown action, a marks tree with a number in it) at random places, several at
a time, down into marks trees, planned_values, prior_state and configuration; then

* the fast (compiled) validator and the full (jsonschema) validator must report the same
  first problem, rendered the same;
* every loading route (standard library, helper process, msgspec whole or lazy) must
  give the same error, or the same plan.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from loading_support import ROUTES, corpus_files, load_fully, same_verdict

from plancheck._errors import PlanFormatError, StateFormatError
from plancheck._loading.validate import plan_validator, render_violation, state_validator

Json = Any


def _rc(address: str, actions: list[str], **extra: Any) -> dict[str, Any]:
    return {
        "address": address,
        "mode": "managed",
        "type": address.split(".")[-2],
        "name": address.split(".")[-1],
        "provider_name": "registry.terraform.io/hashicorp/null",
        "change": {"actions": actions, "before": None, "after": {"id": "x", "n": 1.5, "l": ["a"]},
                   "after_unknown": {"id": True}, "after_sensitive": {"l": [True], "m": {}}, "before_sensitive": False,
                   "replace_paths": [["id"]]},
        **extra,
    }  # fmt: skip


BUILT: dict[str, Any] = {
    "format_version": "1.2",
    "terraform_version": "1.11.4",
    "variables": {"region": {"value": "eu-west-1"}},
    "planned_values": {
        "outputs": {"ip": {"value": "10.0.0.1", "sensitive": False}},
        "root_module": {
            "resources": [{"address": "null_resource.a", "values": {"id": "x"}, "sensitive_values": {"id": True}}],
            "child_modules": [{"address": "module.m", "resources": [{"address": "module.m.null_resource.b"}]}],
        },
    },
    "configuration": {"root_module": {"variables": {"region": {"sensitive": False}, "pw": {}}}},
    "resource_drift": [_rc("null_resource.d", ["update"])],
    "resource_changes": [
        _rc("null_resource.a", ["create"], index=0),
        _rc("module.m.null_resource.b", ["delete", "create"], module_address="module.m", deposed="abc"),
        _rc("null_resource.c", ["no-op"], index="k"),
    ],
    "deferred_changes": [
        {"reason": "instance_count_unknown", "resource_change": _rc("null_resource.e", ["create"])}
    ],
    "output_changes": {"ip": {"actions": ["create"], "after": "10.0.0.1", "after_unknown": False}},
    "prior_state": {"format_version": "1.0", "values": {"root_module": {"resources": [
        {"address": "null_resource.a", "values": {"id": "x"}, "sensitive_values": {"tags": {}, "list": [False]}}]}}},
    "applyable": True,
    "complete": True,
    "errored": False,
}

BASES: list[dict[str, Any]] = [BUILT] + [
    json.loads(path.read_text(encoding="utf-8"))
    for path in corpus_files("plans")
    if path.stem in ("tfjson-110-basic", "terraform-show-json-drift", "opentofu-show-json-identity-update")
]

ODD_STRINGS = ["no-op", "create", "destroy", "create-then-forget", "", "1.2", "2.0", "forget", "Create"]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from([*ODD_STRINGS, "true"]),
    lambda inner: (
        st.lists(inner, max_size=2)
        | st.dictionaries(st.sampled_from(["a", "actions", "address"]), inner, max_size=2)
    ),
    max_leaves=4,
)


def _paths(document: Json) -> list[tuple[Any, ...]]:
    """Paths to values worth breaking: everything down to the actions, a little of the rest."""
    out: list[tuple[Any, ...]] = []
    stack: list[tuple[tuple[Any, ...], Json]] = [((), document)]
    while stack:
        path, value = stack.pop()
        if path:
            out.append(path)
        if len(path) >= 9 or (path and path[-1] in ("before", "after", "values", "value")):
            continue
        if isinstance(value, dict):
            stack.extend(((*path, k), v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend(((*path, i), v) for i, v in enumerate(value[:3]))
    return sorted(out, key=repr)


@st.composite
def mutated_plans(draw: st.DrawFn) -> Json:
    document = copy.deepcopy(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(document)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = document
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        how = draw(st.sampled_from(["drop", "replace", "action"]))
        if how == "drop" and isinstance(parent, dict):
            del parent[last]
        elif how == "action":
            parent[last] = draw(st.sampled_from(ODD_STRINGS))
        else:
            parent[last] = draw(json_values)
    if draw(st.booleans()):
        # Shuffle the top-level key order too: the first problem is the first in document order.
        keys = draw(st.permutations(list(document)))
        document = {k: document[k] for k in keys}
    return document


STATE: dict[str, Any] = {
    "format_version": "1.0",
    "values": {
        "outputs": {"pw": {"value": "x", "sensitive": True, "type": "string"}},
        "root_module": {
            "resources": [{"address": "null_resource.a", "index": 0, "schema_version": 0, "tainted": False,
                           "depends_on": ["null_resource.b"], "sensitive_values": {"l": [True, {}]}}],
            "child_modules": [{"address": "module.m", "resources": [{"address": "module.m.null_resource.b",
                                                                     "deposed_key": "00000001"}]}],
        },
    },
}  # fmt: skip


@st.composite
def mutated_states(draw: st.DrawFn) -> Json:
    document = copy.deepcopy(STATE)
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(document)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = document
        for step in path[:-1]:
            parent = parent[step]
        if draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(json_values)
    return document


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_states())
def test_compiled_state_validator_agrees_with_jsonschema(document: Json) -> None:
    validator = state_validator()
    fast = validator.first_violation(document)
    full = validator.first_full_violation(document)
    assert (fast is None) == (full is None), (fast, full)
    if fast is not None and full is not None:
        assert (fast.kind, fast.path) == (full.kind, full.path)
        assert str(render_violation(fast, document, validator.schema, StateFormatError, None)) == str(
            render_violation(full, document, validator.schema, StateFormatError, None)
        )


def _describe(document: Json) -> str | None:
    validator = plan_validator()
    violation = validator.first_violation(document)
    if violation is None:
        return None
    return str(render_violation(violation, document, validator.schema, PlanFormatError, None))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_plans())
def test_compiled_validator_agrees_with_jsonschema(document: Json) -> None:
    validator = plan_validator()
    fast = validator.first_violation(document)
    full = validator.first_full_violation(document)
    assert (fast is None) == (full is None), (fast, full)
    if fast is not None and full is not None:
        assert (fast.kind, fast.path) == (full.kind, full.path)
        assert str(render_violation(fast, document, validator.schema, PlanFormatError, None)) == str(
            render_violation(full, document, validator.schema, PlanFormatError, None)
        )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_plans())
def test_every_route_gives_the_same_verdict(document: Json) -> None:
    data = json.dumps(document).encode()
    outcomes = {name: load_fully(name, data) for name in ROUTES}
    first = outcomes["stdlib"]
    for name, got in outcomes.items():
        assert same_verdict(name, got, first), (name, got, first)
    expected = _describe(document)
    if expected is None:
        assert not isinstance(first, PlanFormatError)
    else:
        assert str(first) == f"plan.json: {expected}"
