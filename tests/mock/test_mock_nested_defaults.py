"""Defaults that reach into nested blocks and nested attributes, as ``terraform test``'s ``mock_provider`` takes them.

``terraform test`` 1.11 accepts, under a nested block's name (or a nested attribute's whose objects come from the
configuration), one object of defaults and applies it to every object of the block
(``defaults = { disk = { uuid = "..." } }``); a list there is its error "expected an object type for attribute
"disk"". The real vSphere and lxd schemas, against ``terraform test`` itself: ``test_mock_parity_e2e.py``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from mock_support import Direct

from plancheck.acceptance import MockProvider, MockSchemaError

pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")

#: A vSphere-like machine: a list block of disks (uuid and key computed), a protocol 6 nested attribute of
#: network interfaces (its objects from the configuration, id computed), a computed nested attribute.
SCHEMA = {"resource_schemas": {"vm": {"block": {
    "attributes": {
        "id": {"type": "string", "computed": True},
        "name": {"type": "string", "required": True},
        "nics": {"optional": True, "nested_type": {"nesting_mode": "list", "attributes": {
            "network": {"type": "string", "required": True},
            "id": {"type": "string", "computed": True}}}},
        "status": {"computed": True, "nested_type": {"nesting_mode": "single", "attributes": {
            "phase": {"type": "string", "computed": True}}}},
    },
    "block_types": {"disk": {"nesting_mode": "list", "block": {"attributes": {
        "label": {"type": "string", "required": True},
        "uuid": {"type": "string", "computed": True},
        "key": {"type": "number", "computed": True},
    }, "block_types": {"policy": {"nesting_mode": "single", "block": {"attributes": {
        "tier": {"type": "string", "computed": True}}}}}}}},
}}}}
DISK = {"label": "d", "uuid": None, "key": None, "policy": {"tier": None}}
CONFIG = {"id": None, "name": "vm", "status": None, "nics": [{"network": "a", "id": None}, {"network": "b", "id": None}],
          "disk": [{**DISK, "label": "d0"}, {**DISK, "label": "d1"}]}
DEFAULTS = {"disk": {"uuid": "dflt-uuid", "policy": {"tier": "gold"}}, "nics": {"id": "dflt-nic"}}


def test_an_object_under_a_nested_block_or_attribute_applies_to_every_object_of_it() -> None:
    direct = Direct(MockProvider(SCHEMA, "acme/vm", mock_resources={"vm": DEFAULTS}))
    state = direct.create("vm", CONFIG)
    assert [d["uuid"] for d in state["disk"]] == ["dflt-uuid", "dflt-uuid"]
    assert [d["policy"]["tier"] for d in state["disk"]] == ["gold", "gold"]
    assert [n["id"] for n in state["nics"]] == ["dflt-nic", "dflt-nic"]
    assert [d["label"] for d in state["disk"]] == ["d0", "d1"]  # the configuration's own values stay
    assert all(isinstance(d["key"], int) for d in state["disk"])  # what the default leaves out is generated
    assert re.fullmatch(r"[a-z0-9]{8}", state["id"])


def test_with_override_during_plan_the_nested_defaults_are_known_in_the_plan() -> None:
    direct = Direct(MockProvider(SCHEMA, "acme/vm", mock_resources={"vm": DEFAULTS}, override_during="plan"))
    planned = direct.value(direct.plan("vm", None, CONFIG, CONFIG).planned_state)
    assert [d["uuid"] for d in planned["disk"]] == ["dflt-uuid", "dflt-uuid"]
    assert [n["id"] for n in planned["nics"]] == ["dflt-nic", "dflt-nic"]
    assert all(direct.unknown == d["key"] for d in planned["disk"])  # no default: unknown until apply


def test_a_function_of_the_type_may_return_nested_defaults() -> None:
    mock = MockProvider(SCHEMA, "acme/vm", mock_resources={"vm": lambda config: {"disk": {"uuid": config["name"]}}})
    assert [d["uuid"] for d in Direct(mock).create("vm", CONFIG)["disk"]] == ["vm", "vm"]


def test_a_computed_nested_attribute_still_takes_its_whole_value() -> None:
    mock = MockProvider(SCHEMA, "acme/vm", mock_resources={"vm": {"status": {"phase": "ready"}}})
    assert Direct(mock).create("vm", CONFIG)["status"] == {"phase": "ready"}


WHERE = 'mock_resources["vm"]'


@pytest.mark.parametrize(("defaults", "message"), [
    pytest.param({"disk": [{"uuid": "u"}]},
                 f'{WHERE}["disk"]: vm.disk is a nested block: expected an object type (its defaults apply to every '
                 "disk), got an array", id="a-list-for-a-block"),
    pytest.param({"nics": [{"id": "n"}]},
                 f'{WHERE}["nics"]: vm.nics is a nested attribute: expected an object type (its defaults apply to every '
                 "nics), got an array", id="a-list-for-a-nested-attribute"),
    pytest.param({"disk": "u"},
                 f'{WHERE}["disk"]: vm.disk is a nested block: expected an object type (its defaults apply to every '
                 "disk), got a string", id="a-string-for-a-block"),
    pytest.param({"disk": lambda config: {}},
                 f'{WHERE}["disk"]: vm.disk is a nested block: expected an object type (its defaults apply to every '
                 "disk), got a function", id="a-function-for-a-block"),
    pytest.param({"disk": {"uuidd": "u"}}, f'{WHERE}["disk"]["uuidd"]: vm.disk has no attribute uuidd; did you mean uuid?',
                 id="a-typo-inside"),
    pytest.param({"disk": {"label": "l"}},
                 f'{WHERE}["disk"]["label"]: vm.disk.label is not computed: only computed attributes take mock values '
                 "(set it in the configuration)", id="not-computed-inside"),
    pytest.param({"disk": {"uuid": lambda config: "u"}},
                 f'{WHERE}["disk"]["uuid"]: vm.disk.uuid: a function is a default of a whole type or of a top-level '
                 "attribute only", id="a-function-inside"),
    pytest.param({"disk": {"key": "one"}}, f'{WHERE}["disk"]["key"]: expected number, got a string', id="a-wrong-type-inside"),
    pytest.param({"disk": {"policy": {"tiers": "g"}}},
                 f'{WHERE}["disk"]["policy"]["tiers"]: vm.disk.policy has no attribute tiers; did you mean tier?',
                 id="two-deep"),
    pytest.param({"disks": {}}, f'{WHERE}["disks"]: vm has no attribute disks; did you mean disk?', id="a-typo-of-a-block"),
])
def test_what_terraform_test_refuses_or_a_mock_cannot_use_is_refused_where_it_is(defaults: Any, message: str) -> None:
    with pytest.raises(MockSchemaError) as info:
        MockProvider(SCHEMA, "acme/vm", mock_resources={"vm": defaults})
    assert str(info.value) == message
