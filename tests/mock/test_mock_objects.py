"""MockProvider keeps objects, not types (issue #24, item 1), without Terraform: the object key in the private
data, the fallbacks for an object that arrives without it, imports that never guess, data source reads that
are a pure function of (seed, type, configuration), and distinct objects from identical configurations."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mock_support import CLOUD, NULL_SCHEMA, Direct, cloud_document
from secret_shapes import SHAPES, leaks
from test_mock_laws import blocks, config_of

from plancheck._terraform.mock.instances import ObjectStore
from plancheck._terraform.mock.provider import MockProvider

NULL = "hashicorp/null"
FIXED = "fixed-id"


def null_direct(**options: Any) -> tuple[MockProvider, Direct]:
    mock = MockProvider(json.loads(NULL_SCHEMA.read_text(encoding="utf-8")), NULL, **options)
    return mock, Direct(mock)


def constant_id_nulls(*triggers: str) -> tuple[MockProvider, Direct, list[tuple[Any, bytes]]]:
    """null_resource objects made with ``id`` defaulted to one constant, one per ``triggers`` value."""
    mock, direct = null_direct(mock_resources={"null_resource": {"id": FIXED}})
    made = [direct.create_object("null_resource", {"id": None, "triggers": {"n": n}}) for n in triggers]
    return mock, direct, made


def bucket_config(name: str = "logs", **extra: Any) -> dict[str, Any]:
    config: dict[str, Any] = {
        "id": None, "name": name, "arn": None, "region": None, "size_gb": None, "public": None,
        "tags": None, "readers": None, "endpoints": None, "encryption_key": None,
        "website": None, "cors_rules": None, "versioning": None, "lifecycle_rule": [],
    }
    config.update(extra)
    return config


def triggers_of(mock: MockProvider) -> list[str]:
    return sorted(o["triggers"]["n"] for o in mock.objects("null_resource"))


# -- 1. the object key travels in the private data ---------------------------------------------------


def test_apply_returns_the_object_key_as_private_data() -> None:
    _, _, made = constant_id_nulls("1", "2")
    (first, first_private), (second, second_private) = made
    assert (first["id"], second["id"]) == (FIXED, FIXED)
    keys = [json.loads(p)["tfplancheck_mock_object"] for p in (first_private, second_private)]
    assert len(set(keys)) == 2, keys


def test_objects_with_one_id_never_overwrite_each_other() -> None:
    mock, direct, made = constant_id_nulls("1", "2", "3")
    assert triggers_of(mock) == ["1", "2", "3"]
    # Each state object reads back as itself, with its key, whatever id they share.
    for state, private in made:
        assert direct.read("null_resource", state, private) == (state, private)


def test_plan_passes_the_key_on_and_an_update_keeps_the_object() -> None:
    mock, direct, made = constant_id_nulls("1", "2", "3")
    state, private = made[1]
    proposed = {**state, "triggers": {"n": "two"}}
    planned = direct.plan("null_resource", state, proposed, {"id": None, "triggers": {"n": "two"}}, prior_private=private)
    assert planned.planned_private == private
    applied = direct.apply("null_resource", state, direct.value(planned.planned_state), proposed, planned_private=private)
    assert (direct.value(applied.new_state), applied.private) == (proposed, private)
    assert triggers_of(mock) == ["1", "3", "two"]


def test_a_delete_removes_its_own_object_only() -> None:
    mock, direct, made = constant_id_nulls("1", "2", "3")
    state, private = made[0]
    planned = direct.plan("null_resource", state, None, None, prior_private=private)  # Terraform 1.3+ plans a destroy
    deleted = direct.apply("null_resource", state, None, None, planned_private=planned.planned_private)
    assert direct.value(deleted.new_state) is None
    assert triggers_of(mock) == ["2", "3"]
    assert direct.read("null_resource", state, private) == (None, private)  # gone, never another object


def test_a_removed_object_s_key_never_finds_an_equal_one() -> None:
    mock, direct, made = constant_id_nulls("same", "same")
    (state, private), (twin, twin_private) = made
    assert state == twin
    direct.apply("null_resource", state, None, None, planned_private=private)
    assert direct.read("null_resource", state, private) == (None, private)
    assert direct.read("null_resource", twin, twin_private) == (twin, twin_private)
    assert triggers_of(mock) == ["same"]


# -- 2. an object without this mock's key: by id when unique, else by equal value ---------------------


def other_mock_private() -> bytes:
    return ObjectStore().private(ObjectStore().new_key())


@pytest.mark.parametrize("private", [
    pytest.param(b"", id="no-private-data"),
    pytest.param(b'{"schema_version":"1"}', id="another-provider-s-private-data"),
    pytest.param(b"\x00not json", id="not-json"),
    pytest.param(other_mock_private(), id="another-mock-s-key"),
])
def test_without_the_key_a_unique_id_finds_the_object_and_gives_it_its_key(private: bytes) -> None:
    _, direct = null_direct()
    made = [direct.create_object("null_resource", {"id": None, "triggers": {"n": n}}) for n in ("1", "2")]
    state, key_private = made[1]
    assert direct.read("null_resource", state, private) == (state, key_private)
    stale = {**state, "triggers": {"n": "changed elsewhere"}}  # the id decides, not the value
    assert direct.read("null_resource", stale, private) == (state, key_private)
    assert direct.read("null_resource", {**state, "id": "nobody"}, private) == (None, private)


@pytest.mark.parametrize(("triggers", "read", "found", "keyed"), [
    pytest.param(["1", "2", "3"], "2", "2", True, id="shared-id-equal-value"),
    pytest.param(["1", "2", "3"], "4", None, False, id="shared-id-no-equal-value-is-gone"),
    pytest.param(["same", "same", "3"], "same", "same", False, id="equal-twins-read-without-a-key"),
])
def test_without_the_key_a_shared_id_falls_back_to_an_equal_value(
    triggers: list[str], read: str, found: str | None, keyed: bool
) -> None:
    _, direct, made = constant_id_nulls(*triggers)
    value = {"id": FIXED, "triggers": {"n": read}}
    state, private = direct.read("null_resource", value, b"")
    assert state == (None if found is None else {"id": FIXED, "triggers": {"n": found}})
    expected = next(p for s, p in made if s == state) if keyed else b""
    assert private == expected  # twins cannot be told apart: neither key is given to this state object


def test_without_the_key_an_update_and_a_delete_find_the_equal_object() -> None:
    mock, direct, _ = constant_id_nulls("1", "2", "3")
    prior = {"id": FIXED, "triggers": {"n": "2"}}
    new = {"id": FIXED, "triggers": {"n": "two"}}
    applied = direct.apply("null_resource", prior, new, {"id": None, "triggers": {"n": "two"}})
    assert triggers_of(mock) == ["1", "3", "two"]
    assert direct.read("null_resource", new, applied.private) == (new, applied.private)
    direct.apply("null_resource", {"id": FIXED, "triggers": {"n": "1"}}, None, None)
    assert triggers_of(mock) == ["3", "two"]


# -- 3. import: by id when one object has it, never a guess --------------------------------------------


def constant_id_buckets(*names: str, **options: Any) -> tuple[MockProvider, Direct, list[tuple[Any, bytes]]]:
    mock = MockProvider(cloud_document(), CLOUD, mock_resources={"cloud_bucket": {"id": FIXED}}, **options)
    direct = Direct(mock)
    return mock, direct, [direct.create_object("cloud_bucket", bucket_config(n)) for n in names]


DETAIL = (
    "The mock of registry.terraform.io/acme/cloud will not guess which of them to import. Their ids are equal "
    "(as a constant id default makes them), so the id names none of them. Use as import id a value only one of "
    "them holds: the mock finds an object by its id, else by a top-level string attribute that is not "
    "sensitive (of cloud_bucket: name, arn, region)."
)


@pytest.mark.parametrize(("names", "import_id", "found", "diagnostic"), [
    pytest.param(["a"], FIXED, "a", None, id="one-object-by-its-id"),
    pytest.param(["a", "b", "c"], "b", "b", None, id="shared-id-import-by-name"),
    pytest.param(["a", "b", "c"], FIXED, None,
                 ('Cannot import cloud_bucket: 3 objects of cloud_bucket have id "fixed-id"', DETAIL), id="shared-id-refused"),
    pytest.param(["a", "a", "c"], "a", None, (
        'Cannot import cloud_bucket: 2 objects of cloud_bucket have name "a"',
        "The mock of registry.terraform.io/acme/cloud will not guess which of them to import. Use as import id "
        "a value only one of them holds: the mock finds an object by its id, else by a top-level string attribute "
        "that is not sensitive (of cloud_bucket: id, arn, region).",
    ), id="shared-name-refused"),
    pytest.param(["a", "b"], "nope", None, (
        "Cannot import cloud_bucket: the mock of registry.terraform.io/acme/cloud holds no object with that id",
        "A mock imports only the objects it applied in this test case.",
    ), id="nothing-holds-it"),
])
def test_import_finds_one_object_or_says_why_not(
    names: list[str], import_id: str, found: str | None, diagnostic: tuple[str, str] | None
) -> None:
    _, direct, made = constant_id_buckets(*names)
    response = direct.import_("cloud_bucket", import_id)
    if diagnostic is not None:
        assert [(d.summary, d.detail) for d in response.diagnostics] == [diagnostic]
        assert list(response.imported_resources) == []
        return
    assert list(response.diagnostics) == []
    [imported] = response.imported_resources
    state, private = next((s, p) for s, p in made if s["name"] == found)
    assert (direct.value(imported.state), imported.private) == (state, private)
    # What Terraform does next: read the imported object with the private data the import gave.
    assert direct.read("cloud_bucket", state, imported.private) == (state, private)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_an_ambiguous_import_id_that_is_a_secret_is_scrubbed(shape: str) -> None:
    secret = SHAPES[shape]
    mock = MockProvider(cloud_document(), CLOUD, mock_resources={"cloud_bucket": {"id": secret}})
    direct = Direct(mock)
    for name in ("a", "b"):
        direct.create("cloud_bucket", bucket_config(name, encryption_key=secret))  # the mock learns it is a secret
    response = direct.import_("cloud_bucket", secret)
    [diagnostic] = response.diagnostics
    assert diagnostic.summary == 'Cannot import cloud_bucket: 2 objects of cloud_bucket have id "(sensitive)"'
    assert leaks(diagnostic.summary + diagnostic.detail + repr(mock.calls), {shape: secret}) == []


# -- 4. generated values: data source reads are pure, resources distinct ----------------------------------


def region(name: str, **options: Any) -> Any:
    return Direct(MockProvider(cloud_document(), CLOUD, **options)).read_data(
        "cloud_region", {"name": name, "endpoint": None, "zones": None}
    )


def test_a_data_source_read_twice_gives_the_same_answer() -> None:
    direct = Direct(MockProvider(cloud_document(), CLOUD, seed=5))
    config = {"name": "eu", "endpoint": None, "zones": None}
    first = direct.read_data("cloud_region", config)
    direct.create("cloud_bucket", bucket_config())  # other work between the reads changes nothing
    direct.read_data("cloud_region", {**config, "name": "us"})
    assert direct.read_data("cloud_region", config) == first
    assert len(first["endpoint"]) == 8


@pytest.mark.parametrize(("one", "other", "same"), [
    pytest.param({"seed": 5}, {"seed": 5}, True, id="same-seed-same-config"),
    pytest.param({"seed": 5}, {"seed": 5, "name": "us"}, False, id="other-config"),
    pytest.param({"seed": 5}, {"seed": 6}, False, id="other-seed"),
    pytest.param({"seed": "5"}, {"seed": 5}, False, id="str-seed-is-not-the-int"),
    pytest.param({"seed": 5}, {"seed": 5, "override_during": "plan"}, True, id="override-during-does-not-matter"),
])
def test_a_data_source_read_depends_on_seed_and_config_only(one: dict[str, Any], other: dict[str, Any], same: bool) -> None:
    def read(options: dict[str, Any]) -> Any:
        options = dict(options)
        return region(options.pop("name", "eu"), **options)["endpoint"]

    assert (read(one) == read(other)) is same


def test_a_data_source_and_a_resource_of_one_name_and_config_differ() -> None:
    document = {"resource_schemas": {"thing": {"block": {"attributes": {"v": {"type": "string", "computed": True}}}}},
                "data_source_schemas": {"thing": {"block": {"attributes": {"v": {"type": "string", "computed": True}}}}}}
    direct = Direct(MockProvider(document, "acme/thing"))
    assert direct.read_data("thing", {"v": None}) != direct.create("thing", {"v": None})


@settings(max_examples=40, deadline=None)
@given(blocks(), st.data(), st.one_of(st.integers(), st.text(max_size=5)), st.integers(0, 3))
def test_a_data_source_read_is_a_pure_function_of_seed_type_and_config(
    raw: dict[str, Any], data: Any, seed: int | str, reads_between: int
) -> None:
    document = {"data_source_schemas": {"t": {"block": raw}}, "resource_schemas": {}}
    mock = MockProvider(document, "a/b", seed=seed)
    block = mock.schema.data_sources["t"].block
    config = config_of(data.draw, block)
    first = Direct(mock)
    answer = first.read_data("t", config)
    for _ in range(reads_between):
        first.read_data("t", config_of(data.draw, block))
    assert first.read_data("t", config) == answer
    # Another mock of the same seed, with the configuration's keys in another order: the same answer.
    again = Direct(MockProvider(document, "a/b", seed=seed)).read_data("t", dict(reversed(list(config.items()))))
    assert again == answer


def test_identical_configurations_make_distinct_objects() -> None:
    mock, _, made = constant_id_buckets("logs", "logs", "logs")
    arns = [state["arn"] for state, _ in made]
    assert len(set(arns)) == 3, arns
    assert len(mock.objects("cloud_bucket")) == 3
    assert len({private for _, private in made}) == 3


def test_a_case_s_resources_are_reproducible_from_the_seed() -> None:
    def arns() -> list[str]:
        return [state["arn"] for state, _ in constant_id_buckets("logs", "logs", seed=9)[2]]

    assert arns() == arns()
