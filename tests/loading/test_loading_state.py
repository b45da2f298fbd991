"""The State model: every resource of every module by full address, outputs, secrets, errors."""

from __future__ import annotations

from typing import Any

import pytest
from loading_support import CORPUS, needs_corpus

from plancheck._documents.plan import ResourceNotFoundError
from plancheck._documents.state import State, StateOutput, StateResource, load_state
from plancheck._errors import StateFormatError


def _resource(address: str, **extra: Any) -> dict[str, Any]:
    name = address.rsplit(".", 1)[-1].split("[")[0]
    return {"address": address, "mode": "managed", "type": "null_resource", "name": name, **extra}


STATE: dict[str, Any] = {
    "format_version": "1.0",
    "terraform_version": "1.11.4",
    "values": {
        "outputs": {
            "ip": {"value": "10.0.0.1", "type": "string", "sensitive": False},
            "token": {"value": "tok-hunter2", "type": "string", "sensitive": True},
        },
        "root_module": {
            "resources": [
                _resource("null_resource.a", values={"id": "1"}, sensitive_values={}),
                _resource("null_resource.a", deposed_key="00000001", values={"id": "old"}),
            ],
            "child_modules": [
                {
                    "address": "module.app[0]",
                    "resources": [
                        _resource(
                            'module.app[0].null_resource.b["k"]',
                            index="k",
                            values={"pw": "pw-secret-1"},
                            sensitive_values={"pw": True},
                        ),
                    ],
                    "child_modules": [
                        {
                            "address": "module.app[0].module.db",
                            "resources": [_resource("module.app[0].module.db.null_resource.c", tainted=True)],
                        }
                    ],
                },
                {"address": "module.empty"},
            ],
        },
    },
}


@pytest.fixture(scope="module")
def state() -> State:
    return State.from_dict(STATE)


def test_resources_of_every_module_are_indexed_by_full_address(state: State) -> None:
    assert [r.address for r in state.resources] == [
        "null_resource.a",
        "null_resource.a",
        'module.app[0].null_resource.b["k"]',
        "module.app[0].module.db.null_resource.c",
    ]
    assert list(state.addresses()) == [
        "null_resource.a",
        'module.app[0].null_resource.b["k"]',
        "module.app[0].module.db.null_resource.c",
    ]
    deep = state.resource("module.app[0].module.db.null_resource.c")
    assert (deep.module_address, deep.tainted, deep.deposed) == ("module.app[0].module.db", True, None)


def test_a_resource_exposes_its_parts(state: State) -> None:
    b = state.resource('module.app[0].null_resource.b["k"]')
    assert (b.mode, b.type, b.name, b.index, b.provider_name) == ("managed", "null_resource", "b", "k", None)
    assert (b.values, b.sensitive_values) == ({"pw": "pw-secret-1"}, {"pw": True})
    assert repr(b) == """<StateResource module.app[0].null_resource.b["k"]>"""


def test_deposed_objects_are_reachable(state: State) -> None:
    current = state.resource("null_resource.a")
    old = state.resource("null_resource.a", deposed="00000001")
    assert (current.values, old.values, old.deposed) == ({"id": "1"}, {"id": "old"}, "00000001")
    assert state.has_resource("null_resource.a", deposed="00000001")
    assert not state.has_resource("null_resource.a", deposed="00000002")
    assert repr(old) == "<StateResource null_resource.a deposed='00000001'>"


@pytest.mark.parametrize(
    ("address", "deposed", "message"),
    [
        ("null_resource.c", None, "resource 'null_resource.c' is not in the state; closest: null_resource.a"),
        (
            "null_resource.a", "0002",
            "resource 'null_resource.a' is not in the state's deposed objects (key '0002'); closest: null_resource.a",
        ),
        ("aws_vpc.main", None, "resource 'aws_vpc.main' is not in the state; the state has no similar address"),
    ],
    ids=["closest", "deposed", "nothing-similar"],
)  # fmt: skip
def test_a_missing_resource_names_the_closest(
    state: State, address: str, deposed: str | None, message: str
) -> None:
    with pytest.raises(ResourceNotFoundError) as caught:
        state.resource(address, deposed=deposed)
    assert str(caught.value) == message


def test_outputs(state: State) -> None:
    assert set(state.outputs) == {"ip", "token"}
    token = state.output("token")
    assert isinstance(token, StateOutput)
    assert (token.value, token.sensitive, token.type) == ("tok-hunter2", True, "string")
    assert "hunter2" not in repr(token)
    with pytest.raises(ResourceNotFoundError, match="not in the state's outputs; closest: ip"):
        state.output("ips")


def test_secrets_hold_sensitive_outputs_and_values(state: State) -> None:
    assert "tok-hunter2" in state.secrets
    assert "pw-secret-1" in state.secrets
    assert "10.0.0.1" not in state.secrets


def test_envelope_and_repr(state: State) -> None:
    assert (state.format_version, state.terraform_version) == ("1.0", "1.11.4")
    assert repr(state) == "<State format_version='1.0' resources=4>"


def _states(*roots: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"format_version": "1.0", "values": {"root_module": root}} for root in roots]


_SECRET_KEYED = _resource('null_resource.a["pw-hunter2-0042"]', index="pw-hunter2-0042", values={"key": "pw-hunter2-0042"},
                          sensitive_values={"key": True})  # fmt: skip

#: Terraform's state holds one object per instance and deposed key: a second one is refused where it stands (the
#: index, first wins, would hide it from every check), naming the first.
DUPLICATES: list[Any] = [
    pytest.param(
        {"resources": [_resource("null_resource.a", values={"n": 1}), _resource("null_resource.b"), _resource("null_resource.a", values={"n": 2})]},
        '$.values.root_module.resources[2].address: expected an address not given before, found "null_resource.a" again (first at $.values.root_module.resources[0])',
        id="root-instance-twice",
    ),
    pytest.param(
        {"resources": [_resource("null_resource.a", deposed_key="00000001")] * 2},
        '$.values.root_module.resources[1].address: expected an address not given before, found "null_resource.a" (deposed "00000001") again (first at $.values.root_module.resources[0])',
        id="deposed-object-twice",
    ),
    pytest.param(
        {"resources": [_resource("null_resource.x")], "child_modules": [
            {"address": "module.m", "resources": [_resource("module.m.null_resource.a[0]")]},
            {"address": "module.n", "child_modules": [{"address": "module.m", "resources": [_resource("module.m.null_resource.a[0]")]}]},
        ]},
        '$.values.root_module.child_modules[1].child_modules[0].resources[0].address: expected an address not given before, found "module.m.null_resource.a[0]" again (first at $.values.root_module.child_modules[0].resources[0])',
        id="child-module-instance-twice",
    ),
    # Terraform 0.12.0's addresses are completed from the index and the module: the same object, written twice.
    pytest.param(
        {"child_modules": [{"address": "module.m", "resources": [_resource("null_resource.a", index=1), _resource("module.m.null_resource.a[1]")]}]},
        '$.values.root_module.child_modules[0].resources[1].address: expected an address not given before, found "module.m.null_resource.a[1]" again (first at $.values.root_module.child_modules[0].resources[0])',
        id="completed-address-twice",
    ),
    pytest.param(
        {"resources": [_SECRET_KEYED] * 2},
        '$.values.root_module.resources[1].address: expected an address not given before, found "null_resource.a[\\"(sensitive)\\"]" again (first at $.values.root_module.resources[0])',
        id="secret-keyed-instance-twice",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("root", "message"), DUPLICATES)
@pytest.mark.parametrize("validation", ["fast", "full"])
def test_an_object_listed_twice_is_refused(root: dict[str, Any], message: str, validation: str) -> None:
    (document,) = _states(root)
    with pytest.raises(StateFormatError) as caught:
        State.from_dict(document, source="state.json", validation=validation)
    assert str(caught.value) == f"state.json: {message}"
    assert "hunter2" not in f"{caught.value!r} {caught.value.args}"


@pytest.mark.parametrize(
    "root",
    [
        {"resources": [_resource("null_resource.a"), _resource("null_resource.a", deposed_key="00000001"),
                       _resource("null_resource.a", deposed_key="00000002")]},
        {"resources": [_resource("null_resource.a")], "child_modules": [{"address": "module.m", "resources": [_resource("module.m.null_resource.a")]}]},
        {"resources": [_resource("null_resource.a[0]", index=0), _resource('null_resource.a["0"]', index="0")]},
    ],
    ids=["current-and-deposed", "same-name-in-a-module", "number-and-string-keys"],
)  # fmt: skip
def test_distinct_objects_of_one_name_are_accepted(root: dict[str, Any]) -> None:
    (document,) = _states(root)
    assert len(State.from_dict(document).resources) == len(root["resources"]) + len(root.get("child_modules", [{}])[0].get("resources", []))


def test_read_only_views() -> None:
    resource = StateResource(_resource("null_resource.a"))
    with pytest.raises(AttributeError, match="read-only"):
        resource.address = "x"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"format_version": "2.0"}, '$.format_version: expected a state format version 0.x or 1.x (plancheck reads terraform show -json states of major format version 0 and 1), found the string "2.0"'),
        ({"format_version": "1.0\n"}, '$.format_version: expected a state format version 0.x or 1.x (plancheck reads terraform show -json states of major format version 0 and 1), found the string "1.0\\n"'),
        ({"format_version": "1.0", "values": []}, "$.values: expected an object holding the state's outputs and modules, found an array of 0 elements"),
        ({"format_version": "1.0", "values": {"outputs": {"a": 1}}}, "$.values.outputs.a: expected an output object, found a number"),
        ({"format_version": "1.0", "values": {"outputs": {"a": {"sensitive": "no"}}}}, "$.values.outputs.a.sensitive: expected a bool, found a string"),
        ({"format_version": "1.0", "values": {"root_module": {"resources": {}}}}, "$.values.root_module.resources: expected an array of resources, found an object with 0 keys"),
        ({"format_version": "1.0", "values": {"root_module": {"resources": [{}]}}}, '$.values.root_module.resources[0].address: expected a resource address string, found no "address" key'),
        ({"format_version": "1.0", "values": {"root_module": {"child_modules": [{"child_modules": [{"resources": [{"address": 1}]}]}]}}},
         "$.values.root_module.child_modules[0].child_modules[0].resources[0].address: expected a resource address string, found a number"),
        ({"format_version": "1.0", "values": {"root_module": {"resources": [{"address": "a.b", "deposed_key": 1}]}}},
         "$.values.root_module.resources[0].deposed_key: expected a deposed key string, found a number"),
    ],
    ids=["format-2", "format-trailing-newline", "values-array", "output-number", "sensitive-string", "resources-object", "no-address",
         "deep-module", "deposed-key-number"],
)  # fmt: skip
@pytest.mark.parametrize("validation", ["fast", "full"])
def test_malformed_states_are_refused(document: dict[str, Any], message: str, validation: str) -> None:
    with pytest.raises(StateFormatError) as caught:
        State.from_dict(document, source="state.json", validation=validation)
    assert str(caught.value) == f"state.json: {message}"


def test_deeply_nested_modules_do_not_hit_the_recursion_limit() -> None:
    module: dict[str, Any] = {"resources": [{"address": "deep.x"}]}
    for _ in range(5000):
        module = {"child_modules": [module]}
    state = State.from_dict({"format_version": "1.0", "values": {"root_module": module}})
    assert state.resource("deep.x").address == "deep.x"


@needs_corpus
def test_terraform_0_12_0_state_addresses_are_completed() -> None:
    # Terraform 0.12.0 wrote addresses without instance keys or module paths.
    state = load_state(CORPUS / "states" / "tfjson-no-changes.json")
    assert list(state.addresses()) == [
        "data.null_data_source.baz",
        "null_resource.bar",
        "null_resource.baz[0]",
        "null_resource.baz[1]",
        "null_resource.baz[2]",
        "null_resource.foo",
        "module.foo.null_resource.foo",
    ]
    assert state.resource("module.foo.null_resource.foo").raw["address"] == "null_resource.foo"
