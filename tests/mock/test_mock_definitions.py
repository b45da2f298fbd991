"""MockProvider without Terraform: schema documents, defaults, generated values, the store, calls, redaction."""

from __future__ import annotations

import copy
import json
import pickle
import random
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mock_support import CLOUD, CLOUD_SCHEMA, NULL_SCHEMA, SECRET, Direct, cloud_document

from plancheck._errors import TfCheckError
from plancheck._terraform.mock.provider import MockCall, MockProvider
from plancheck._terraform.mock.schema import MockSchemaError
from plancheck._terraform.mock.values import UNKNOWN, conform, generate_type

ONE = {"resource_schemas": {"t": {"block": {"attributes": {"id": {"type": "string", "computed": True}}}}}}


def entry_with(**attributes: Any) -> dict[str, Any]:
    return {"resource_schemas": {"t": {"block": {"attributes": attributes}}}}


BAD_DOCUMENTS = [
    pytest.param([], "acme/cloud",
                 "MockProvider schema: expected the JSON object 'terraform providers schema -json' prints, got an array",
                 id="not-an-object"),
    pytest.param({"format_version": "1.0"}, "acme/cloud",
                 "MockProvider schema: not a provider schema: expected provider_schemas (the output of 'terraform "
                 "providers schema -json') or one provider's entry (provider, resource_schemas, data_source_schemas), "
                 "found format_version", id="no-provider-schemas"),
    pytest.param({"provider_schemas": {"example.com/acme/widget": {}}}, "hashicorp/aws",
                 "MockProvider schema: no provider registry.terraform.io/hashicorp/aws in the document "
                 "(it has example.com/acme/widget)", id="address-missing"),
    pytest.param({"provider_schemas": {CLOUD: {}}}, "acme/clod",
                 "MockProvider schema: no provider registry.terraform.io/acme/clod in the document; "
                 f"did you mean {CLOUD}?", id="address-misspelt"),
    pytest.param({"provider_schemas": {CLOUD: []}}, "acme/cloud",
                 f'MockProvider schema: provider_schemas["{CLOUD}"]: expected an object, got an array', id="entry-not-object"),
    pytest.param(entry_with(a={"optional": True}), "acme/cloud",
                 "schema.resource_schemas.t.block.attributes.a: an attribute needs a type or a nested_type", id="no-type"),
    pytest.param(entry_with(a={"type": ["list"], "optional": True}), "acme/cloud",
                 'schema.resource_schemas.t.block.attributes.a.type: expected a cty type ("string", ["list", ...], ...), '
                 "got an array", id="bad-type"),
    pytest.param(entry_with(a={"type": "strnig", "optional": True}), "acme/cloud",
                 'schema.resource_schemas.t.block.attributes.a.type: expected a cty type ("string", ["list", ...], ...), '
                 "got a string", id="unknown-primitive"),
    pytest.param(entry_with(a={"type": "string"}), "acme/cloud",
                 "schema.resource_schemas.t.block.attributes.a: an attribute must be required, optional or computed",
                 id="no-flags"),
    pytest.param(entry_with(a={"type": "string", "optional": "yes"}), "acme/cloud",
                 "schema.resource_schemas.t.block.attributes.a.optional: expected true or false, got a string", id="bad-flag"),
    pytest.param(entry_with(a={"nested_type": {"nesting_mode": "group", "attributes": {}}, "optional": True}), "acme/cloud",
                 "schema.resource_schemas.t.block.attributes.a.nested_type.nesting_mode: expected one of single, list, "
                 "set, map, got 'group'", id="bad-nested-mode"),
    pytest.param({"resource_schemas": {"t": {"block": {"block_types": {"b": {"nesting_mode": "tuple", "block": {}}}}}}},
                 "acme/cloud",
                 "schema.resource_schemas.t.block.block_types.b.nesting_mode: expected one of single, list, set, map, "
                 "group, got 'tuple'", id="bad-block-mode"),
    pytest.param({"resource_schemas": {"t": {"version": -1, "block": {}}}}, "acme/cloud",
                 "schema.resource_schemas.t.version: expected a whole number from 0 to 9223372036854775807 (int64), got a negative number", id="bad-version"),
    pytest.param(ONE, "not an address!",
                 "MockProvider.address: 'not an address!' is not a provider address "
                 "(host/namespace/type, namespace/type or type)", id="bad-address"),
]


@pytest.mark.parametrize(("document", "address", "message"), BAD_DOCUMENTS)
def test_bad_schema_documents_are_refused_with_a_pinned_message(document: Any, address: str, message: str) -> None:
    with pytest.raises(MockSchemaError) as info:
        MockProvider(document, address)
    assert str(info.value) == message
    assert isinstance(info.value, TfCheckError)
    assert isinstance(info.value, ValueError)


BAD_OPTIONS = [
    pytest.param({"mock_resources": {"cloud_buckt": {}}},
                 'mock_resources["cloud_buckt"]: registry.terraform.io/acme/cloud has no resource type cloud_buckt; '
                 "did you mean cloud_bucket?", ("cloud_buckt", None, None), id="unknown-type"),
    pytest.param({"mock_data": {"cloud_regoin": {}}},
                 'mock_data["cloud_regoin"]: registry.terraform.io/acme/cloud has no data source cloud_regoin; '
                 "did you mean cloud_region?", ("cloud_regoin", None, None), id="unknown-data-source"),
    pytest.param({"mock_resources": {"cloud_bucket": {"anr": "x"}}},
                 'mock_resources["cloud_bucket"]["anr"]: cloud_bucket has no attribute anr; did you mean arn?',
                 ("cloud_bucket", "anr", None), id="unknown-attribute"),
    pytest.param({"mock_resources": {"cloud_bucket": {"arn": 12}}},
                 'mock_resources["cloud_bucket"]["arn"]: expected string, got a number',
                 ("cloud_bucket", "arn", "string"), id="wrong-type"),
    # A value's kind is named as JSON names it (a --defaults file's fraction is a Decimal, its array a list).
    pytest.param({"mock_resources": {"cloud_bucket": {"arn": Decimal("1.5")}}},
                 'mock_resources["cloud_bucket"]["arn"]: expected string, got a number',
                 ("cloud_bucket", "arn", "string"), id="a-fraction-for-a-string"),
    pytest.param({"mock_resources": {"cloud_bucket": {"arn": ["x"]}}},
                 'mock_resources["cloud_bucket"]["arn"]: expected string, got an array',
                 ("cloud_bucket", "arn", "string"), id="an-array-for-a-string"),
    pytest.param({"mock_resources": {"cloud_bucket": {"size_gb": None, "arn": {"k": 1}}}},
                 'mock_resources["cloud_bucket"]["arn"]: expected string, got an object',
                 ("cloud_bucket", "arn", "string"), id="an-object-for-a-string"),
    pytest.param({"mock_resources": {"cloud_bucket": {"size_gb": True}}},
                 'mock_resources["cloud_bucket"]["size_gb"]: expected number, got a bool',
                 ("cloud_bucket", "size_gb", "number"), id="bool-is-not-a-number"),
    pytest.param({"mock_resources": {"cloud_bucket": {"endpoints": ["a", 2]}}},
                 'mock_resources["cloud_bucket"]["endpoints"][1]: expected string, got a number',
                 ("cloud_bucket", "endpoints", "string"), id="wrong-element-type"),
    pytest.param({"mock_resources": {"cloud_bucket": {"endpoints": "a"}}},
                 'mock_resources["cloud_bucket"]["endpoints"]: expected list(string), got a string',
                 ("cloud_bucket", "endpoints", "list(string)"), id="string-is-not-a-list"),
    pytest.param({"mock_resources": {"cloud_bucket": {"name": "x"}}},
                 'mock_resources["cloud_bucket"]["name"]: cloud_bucket.name is not computed: only computed attributes '
                 "take mock values (set it in the configuration)", ("cloud_bucket", "name", None), id="not-computed"),
    pytest.param({"mock_resources": {"cloud_bucket": 3}},
                 'mock_resources["cloud_bucket"]: expected a dict of attribute -> value or a function (config) -> dict, '
                 "got int", ("cloud_bucket", None, None), id="defaults-not-a-dict"),
    pytest.param({"mock_resources": ["cloud_bucket"]},
                 "mock_resources: expected a dict of resource type -> defaults, got list", (None, None, None),
                 id="option-not-a-dict"),
    pytest.param({"override_during": "never"},
                 "MockProvider.override_during: expected 'apply' or 'plan', got 'never'", (None, None, None),
                 id="bad-override-during"),
    pytest.param({"seed": 1.5}, "MockProvider.seed: expected an int or a str, got float", (None, None, None),
                 id="bad-seed"),
]


@pytest.mark.parametrize(("options", "message", "fields"), BAD_OPTIONS)
def test_bad_defaults_are_refused_with_a_pinned_message(
    options: dict[str, Any], message: str, fields: tuple[str | None, str | None, str | None]
) -> None:
    with pytest.raises(MockSchemaError) as info:
        MockProvider(cloud_document(), CLOUD, **options)
    assert str(info.value) == message
    assert (info.value.type_name, info.value.attribute, info.value.expected) == fields
    assert pickle.loads(pickle.dumps(info.value)).args == info.value.args


def test_a_wrong_default_never_shows_its_value() -> None:
    with pytest.raises(MockSchemaError) as info:
        MockProvider(cloud_document(), CLOUD, mock_resources={"cloud_access_key": {"secret": [SECRET]}})
    assert SECRET not in str(info.value)
    assert SECRET not in repr(info.value)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param(None, "{path}: cannot read the schema: No such file or directory", id="missing"),
        pytest.param("{\n  oops", "{path}: $: expected valid JSON, found invalid JSON: Expecting property name enclosed in "
                     "double quotes at line 2 column 3 (character 4)", id="not-json"),
        pytest.param('{"format_version": "1.0", "provider_schemas": {}}',
                     "MockProvider schema: no provider registry.terraform.io/acme/cloud in the document (it has none)",
                     id="no-providers"),
    ],
)
def test_schema_files(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "schema.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(MockSchemaError) as info:
        MockProvider.from_schema_file(path, "acme/cloud")
    assert str(info.value) == message.format(path=path)


def test_a_missing_relative_schema_file_names_the_directory_it_was_looked_for_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # pytest runs where it was started, not beside the test file: the message says where the file was looked for.
    monkeypatch.chdir(tmp_path)
    with pytest.raises(MockSchemaError) as info:
        MockProvider.from_schema_file("cloud.schema.json", "acme/cloud")
    assert str(info.value) == (
        "cloud.schema.json: cannot read the schema: No such file or directory "
        f"(a relative path is taken from the current directory, {tmp_path})"
    )


def test_the_whole_document_and_one_entry_give_the_same_mock() -> None:
    document = cloud_document()
    before = copy.deepcopy(document)
    whole = MockProvider(document, "acme/cloud")
    entry = MockProvider(document["provider_schemas"][CLOUD], "acme/cloud")
    assert whole.schema == entry.schema
    assert document == before  # nothing the user passed is changed
    assert repr(whole) == (
        "MockProvider('registry.terraform.io/acme/cloud', resources=['cloud_access_key', 'cloud_bucket'], "
        "data_sources=['cloud_region'])"
    )


# -- behaviour, through the servicer ---------------------------------------------------------------------


def bucket_config(**extra: Any) -> dict[str, Any]:
    config: dict[str, Any] = {
        "id": None, "name": "logs", "arn": None, "region": None, "size_gb": None, "public": None,
        "tags": {"team": "platform"}, "readers": ["alice"], "endpoints": None, "encryption_key": SECRET,
        "website": {"index_document": "index.html", "endpoint": None},
        "cors_rules": [{"origins": ["https://example.com"], "max_age": None}],
        "versioning": {"enabled": True, "version_id": None},
        "lifecycle_rule": [{"prefix": "tmp/", "expire_days": 7, "rule_id": None}],
    }
    config.update(extra)
    return config


def test_a_create_plans_unknowns_and_applies_generated_values() -> None:
    direct = Direct(MockProvider(cloud_document(), CLOUD, seed=3))
    unknown = direct.unknown
    planned = direct.value(direct.plan("cloud_bucket", None, bucket_config()).planned_state)
    assert planned == bucket_config(
        id=unknown, arn=unknown, region=unknown, size_gb=unknown, public=unknown, endpoints=unknown,
        website={"index_document": "index.html", "endpoint": unknown},
        cors_rules=[{"origins": ["https://example.com"], "max_age": unknown}],
        versioning={"enabled": True, "version_id": unknown},
        lifecycle_rule=[{"prefix": "tmp/", "expire_days": 7, "rule_id": unknown}],
    )
    state = direct.value(direct.apply("cloud_bucket", None, planned, bucket_config()).new_state)
    generated = [state["id"], state["arn"], state["region"], state["website"]["endpoint"],
                 state["versioning"]["version_id"], state["lifecycle_rule"][0]["rule_id"]]
    assert all(isinstance(s, str) and len(s) == 8 and s.isalnum() for s in generated), generated
    assert (state["size_gb"], state["public"], state["endpoints"], state["cors_rules"][0]["max_age"]) == (0, False, [], 0)
    assert state["encryption_key"] == SECRET
    assert state["name"] == "logs"


def test_same_seed_same_values_and_another_seed_other_values() -> None:
    def create(seed: int) -> Any:
        return Direct(MockProvider(cloud_document(), CLOUD, seed=seed)).create("cloud_bucket", bucket_config())

    assert create(1) == create(1)
    assert create(1)["id"] != create(2)["id"]


def test_identical_configurations_get_distinct_objects() -> None:
    direct = Direct(MockProvider(cloud_document(), CLOUD))
    first, second = direct.create("cloud_bucket", bucket_config()), direct.create("cloud_bucket", bucket_config())
    assert first["id"] != second["id"]


def test_an_update_keeps_the_prior_computed_values() -> None:
    mock = MockProvider(cloud_document(), CLOUD)
    direct = Direct(mock)
    state = direct.create("cloud_bucket", bucket_config())
    proposed = {**state, "tags": {"team": "data"}}  # Terraform's proposed new state keeps the prior computed values
    planned = direct.value(direct.plan("cloud_bucket", state, proposed, bucket_config(tags={"team": "data"})).planned_state)
    assert planned == proposed
    new = direct.value(direct.apply("cloud_bucket", state, planned, bucket_config(tags={"team": "data"})).new_state)
    assert new == proposed
    assert [c.action for c in mock.calls if c.rpc == "ApplyResourceChange"] == ["create", "update"]
    assert mock.objects("cloud_bucket")[0]["tags"] == {"team": "data"}


def _planned_actions(steps: list[tuple[Any, Any]]) -> list[str]:
    """Plan each (prior, proposed) pair against one mock; the actions its PlanResourceChange calls recorded.

    ``"state"`` as prior stands for the state the first create applied; a callable proposed is
    called with that state.
    """
    mock = MockProvider(cloud_document(), CLOUD)
    direct = Direct(mock)
    state = direct.create("cloud_bucket", bucket_config())
    before = len(mock.calls)
    for prior, proposed in steps:
        prior = state if prior == "state" else prior
        proposed = proposed(state) if callable(proposed) else proposed
        config = bucket_config() if proposed is None else {**proposed, "id": None, "arn": None}
        direct.plan("cloud_bucket", prior, proposed, config)
    return [c.action for c in mock.calls[before:] if c.rpc == "PlanResourceChange"]


@pytest.mark.parametrize(
    ("steps", "actions"),
    [
        pytest.param([(None, bucket_config())], ["create"], id="create"),
        pytest.param([("state", lambda state: state)], ["no-op"], id="unchanged-is-no-op"),
        pytest.param([("state", lambda state: copy.deepcopy(state))], ["no-op"], id="equal-copy-is-no-op"),
        pytest.param([("state", lambda state: {**state, "tags": {"team": "data"}})], ["update"], id="changed-is-update"),
        pytest.param([("state", lambda state: {**state, "website": {**state["website"], "index_document": "i.htm"}})],
                     ["update"], id="nested-change-is-update"),
        pytest.param([("state", None)], ["delete"], id="destroy-is-delete"),
        pytest.param([("state", lambda state: state), ("state", lambda state: {**state, "readers": ["bob"]}),
                      ("state", lambda state: state)], ["no-op", "update", "no-op"], id="two-identical-steps-around-a-change"),
    ],
)
def test_plan_records_the_action_it_planned(steps: list[tuple[Any, Any]], actions: list[str]) -> None:
    assert _planned_actions(steps) == actions


@settings(max_examples=25, deadline=None)
@given(st.dictionaries(st.sampled_from(["team", "env"]), st.sampled_from(["platform", "data", ""]), max_size=2))
def test_plan_is_a_no_op_exactly_when_planned_equals_prior(tags: dict[str, str]) -> None:
    # The mock plans an in-place change as Terraform proposes it: no-op iff nothing differs from the prior state.
    actions = _planned_actions([("state", lambda state: {**state, "tags": tags})])
    assert actions == (["no-op"] if tags == {"team": "platform"} else ["update"])


def test_a_no_op_repr_names_its_action() -> None:
    assert repr(MockCall("PlanResourceChange", "t", {"id": "a"}, "no-op")) == (
        "MockCall('PlanResourceChange', 't', {'id': 'a'}, action='no-op')"
    )


@pytest.mark.parametrize("override_during", ["apply", "plan"])
def test_defaults_values_and_functions(override_during: str) -> None:
    mock = MockProvider(
        cloud_document(), CLOUD, override_during=override_during,  # type: ignore[arg-type]
        mock_resources={"cloud_bucket": {"arn": lambda config: f"arn:acme:{config['name']}", "size_gb": 5}},
    )
    direct = Direct(mock)
    planned = direct.value(direct.plan("cloud_bucket", None, bucket_config()).planned_state)
    if override_during == "plan":
        assert (planned["arn"], planned["size_gb"]) == ("arn:acme:logs", 5)
    else:
        assert planned["arn"] == direct.unknown
        assert planned["size_gb"] == direct.unknown
    state = direct.value(direct.apply("cloud_bucket", None, planned, bucket_config()).new_state)
    assert (state["arn"], state["size_gb"]) == ("arn:acme:logs", 5)


def test_a_default_function_for_the_whole_type_and_its_wrong_result() -> None:
    good = MockProvider(cloud_document(), CLOUD, mock_resources={"cloud_bucket": lambda c: {"id": c["name"] + "-id"}})
    assert Direct(good).create("cloud_bucket", bucket_config())["id"] == "logs-id"
    bad = MockProvider(cloud_document(), CLOUD, mock_resources={"cloud_bucket": lambda c: {"id": 7}})
    with pytest.raises(MockSchemaError, match=r'^mock_resources\["cloud_bucket"\]\["id"\]: expected string, got a number$'):
        Direct(bad).create("cloud_bucket", bucket_config())


def test_the_function_sees_plain_known_values_only() -> None:
    seen: list[Any] = []
    mock = MockProvider(cloud_document(), CLOUD, override_during="plan",
                        mock_resources={"cloud_bucket": lambda c: seen.append(c) or {}})
    direct = Direct(mock)
    direct.plan("cloud_bucket", None, bucket_config(region=direct.unknown))
    assert seen == []  # the configuration is not known yet: the function waits for apply
    direct.plan("cloud_bucket", None, bucket_config(region="eu"))
    assert seen[0]["region"] == "eu"
    assert seen[0]["readers"] == ["alice"]
    assert UNKNOWN not in seen[0].values()


def test_data_sources_generate_and_take_defaults() -> None:
    mock = MockProvider(cloud_document(), CLOUD, mock_data={"cloud_region": {"zones": ["a", "b"]}})
    direct = Direct(mock)
    request = direct.pb.ReadDataSource.Request(
        type_name="cloud_region", config=direct.dv({"name": "eu", "endpoint": None, "zones": None})
    )
    state = direct.value(direct.servicer.ReadDataSource(request, None).state)
    assert state["name"] == "eu"
    assert state["zones"] == ["a", "b"]
    assert len(state["endpoint"]) == 8


def test_read_import_and_delete_use_the_store() -> None:
    mock = MockProvider(cloud_document(), CLOUD)
    direct = Direct(mock)
    pb = direct.pb
    state = direct.create("cloud_bucket", bucket_config())
    read = direct.servicer.ReadResource(pb.ReadResource.Request(type_name="cloud_bucket", current_state=direct.dv(state)), None)
    assert direct.value(read.new_state) == state
    imported = direct.servicer.ImportResourceState(pb.ImportResourceState.Request(type_name="cloud_bucket", id=state["id"]), None)
    assert [direct.value(r.state) for r in imported.imported_resources] == [state]
    missing = direct.servicer.ImportResourceState(pb.ImportResourceState.Request(type_name="cloud_bucket", id="nope"), None)
    assert [d.summary for d in missing.diagnostics] == [
        "Cannot import cloud_bucket: the mock of registry.terraform.io/acme/cloud holds no object with that id"
    ]
    deleted = direct.apply("cloud_bucket", state, None, None)
    assert direct.value(deleted.new_state) is None
    assert mock.objects("cloud_bucket") == []
    gone = direct.servicer.ReadResource(pb.ReadResource.Request(type_name="cloud_bucket", current_state=direct.dv(state)), None)
    assert direct.value(gone.new_state) is None


def test_an_unknown_type_is_an_error_diagnostic_naming_the_closest() -> None:
    direct = Direct(MockProvider(cloud_document(), CLOUD))
    response = direct.plan("cloud_buckt", None, {"name": "x"})
    assert [(d.summary, d.detail) for d in response.diagnostics] == [(
        "The mock of registry.terraform.io/acme/cloud has no resource type cloud_buckt",
        "Its schema document does not list it; did you mean cloud_bucket?",
    )]


def test_upgrade_resource_state_reads_the_stored_json() -> None:
    direct = Direct(MockProvider(cloud_document(), CLOUD))
    stored = {"id": "x", "bucket_id": "b", "secret": "s", "removed_attribute": 1}
    request = direct.pb.UpgradeResourceState.Request(
        type_name="cloud_access_key", version=0, raw_state=direct.pb.RawState(json=json.dumps(stored).encode())
    )
    response = direct.servicer.UpgradeResourceState(request, None)
    assert direct.value(response.upgraded_state) == {"id": "x", "bucket_id": "b", "secret": "s"}


def test_calls_record_plain_configs_and_their_repr_redacts_sensitive_attributes() -> None:
    mock = MockProvider(cloud_document(), CLOUD)
    direct = Direct(mock)
    direct.create("cloud_bucket", bucket_config())
    applies = [c for c in mock.calls if c.rpc == "ApplyResourceChange"]
    assert [(c.type_name, c.action) for c in applies] == [("cloud_bucket", "create")]
    assert applies[0].config["encryption_key"] == SECRET  # the real value, for assertions
    assert SECRET not in repr(mock.calls)
    assert SECRET not in str(applies[0])
    assert "'encryption_key': '(sensitive)'" in repr(applies[0])
    assert repr(MockCall("ReadDataSource", "t", None)) == "MockCall('ReadDataSource', 't', None)"


def test_objects_of_an_unknown_type() -> None:
    mock = MockProvider(cloud_document(), CLOUD)
    mock()
    with pytest.raises(MockSchemaError, match="did you mean cloud_bucket"):
        mock.objects("cloud_buckets")


def test_the_schema_message_carries_every_flag_and_mode() -> None:
    direct = Direct(MockProvider(cloud_document(), CLOUD))
    response = direct.servicer.GetProviderSchema(direct.pb.GetProviderSchema.Request(), None)
    block = response.resource_schemas["cloud_bucket"].block
    attributes = {a.name: a for a in block.attributes}
    assert json.loads(attributes["tags"].type) == ["map", "string"]
    assert attributes["encryption_key"].sensitive
    assert attributes["arn"].computed
    assert attributes["name"].required
    pb = direct.pb
    assert attributes["cors_rules"].nested_type.nesting == pb.Schema.Object.LIST
    assert {b.type_name: b.nesting for b in block.block_types} == {
        "versioning": pb.Schema.NestedBlock.SINGLE, "lifecycle_rule": pb.Schema.NestedBlock.SET,
    }
    assert sorted(response.resource_schemas) == ["cloud_access_key", "cloud_bucket"]


def test_the_recorded_null_schema_reads() -> None:
    mock = MockProvider.from_schema_file(NULL_SCHEMA, "hashicorp/null")
    assert sorted(mock.schema.resources) == ["null_resource"]
    assert sorted(mock.schema.data_sources) == ["null_data_source"]
    assert CLOUD_SCHEMA.is_file()


# -- laws --------------------------------------------------------------------------------------------------

PRIMITIVES = st.sampled_from(["string", "number", "bool"])
TYPES = st.recursive(
    PRIMITIVES,
    lambda inner: st.one_of(
        st.tuples(st.sampled_from(["list", "set", "map"]), inner).map(list),
        st.dictionaries(st.from_regex(r"[a-z]{1,6}", fullmatch=True), inner, max_size=3).map(lambda d: ["object", d]),
        st.lists(inner, max_size=3).map(lambda items: ["tuple", items]),
    ),
    max_leaves=6,
)


@settings(max_examples=60, deadline=None)
@given(TYPES, st.integers(0, 2**32))
def test_generated_values_conform_to_their_type_and_are_reproducible(cty: Any, seed: int) -> None:
    value = generate_type(cty, random.Random(seed))
    assert conform(cty, value, "v") == value
    assert generate_type(cty, random.Random(seed)) == value


def test_each_case_gets_a_fresh_mock_and_calls_add_up() -> None:
    mock = MockProvider(cloud_document(), CLOUD)
    Direct(mock).create("cloud_bucket", bucket_config())
    assert len(mock.objects("cloud_bucket")) == 1
    Direct(mock)  # the next case's server: nothing applied yet
    assert mock.objects("cloud_bucket") == []
    assert [c.rpc for c in mock.calls] == ["PlanResourceChange", "ApplyResourceChange"]


def test_a_sensitive_value_copied_into_a_plain_attribute_is_scrubbed_from_reprs() -> None:
    mock = MockProvider(cloud_document(), CLOUD)
    direct = Direct(mock)
    key = direct.create("cloud_access_key", {"id": None, "bucket_id": "b", "secret": None})
    generated = key["secret"]
    direct.create("cloud_bucket", bucket_config(name=generated, tags={"copy": SECRET}))
    shown = repr(mock.calls)
    assert generated not in shown
    assert SECRET not in shown
    assert any(c.config["name"] == generated for c in mock.calls if c.type_name == "cloud_bucket")


# -- the newest schema documents ------------------------------------------------------------------------------

#: One provider's entry with every key of Terraform's jsonprovider.Provider (internal/command/jsonprovider/provider.go):
#: resource_identity_schemas (1.12, IdentitySchema: version, attributes), list_resource_schemas (1.14),
#: action_schemas (1.14, ActionSchema: block), state_store_schemas (1.15). Written by hand from the structs.
NEWEST_ENTRY: dict[str, Any] = {
    "provider": {"version": 0, "block": {"attributes": {"region": {"type": "string", "optional": True}}}},
    "resource_schemas": {"cloud_bucket": {"version": 1, "block": {"attributes": {
        "id": {"type": "string", "computed": True}, "name": {"type": "string", "required": True}}}}},
    "data_source_schemas": {},
    "ephemeral_resource_schemas": {"cloud_token": {"version": 0, "block": {}}},
    "functions": {"parse_arn": {"parameters": [{"name": "arn", "type": "string"}], "return_type": "string"}},
    "resource_identity_schemas": {"cloud_bucket": {"version": 0, "attributes": {
        "name": {"type": "string", "required_for_import": True}}}},
    "list_resource_schemas": {"cloud_bucket": {"version": 0, "block": {"attributes": {
        "prefix": {"type": "string", "optional": True}}}}},
    "action_schemas": {"cloud_notify": {"block": {"attributes": {
        "channel": {"type": "string", "required": True}, "token": {"type": "string", "sensitive": True}}}}},
    "state_store_schemas": {"cloud_store": {"version": 0, "block": {}}},
}


@pytest.mark.parametrize("document", [
    {"format_version": "1.0", "provider_schemas": {"registry.terraform.io/acme/cloud": NEWEST_ENTRY}},
    NEWEST_ENTRY,
    {"action_schemas": NEWEST_ENTRY["action_schemas"]},
], ids=["whole-document", "one-entry", "entry-with-only-actions"])
def test_the_newest_schema_keys_are_read_past(document: dict[str, Any]) -> None:
    mock = MockProvider(document, "acme/cloud")
    expected = ["cloud_bucket"] if "resource_schemas" in document or "provider_schemas" in document else []
    assert sorted(mock.schema.resources) == expected
