"""MockProvider without Terraform (issue #24, item 1): data source reads that are a pure function of
(seed, type, configuration)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mock_support import CLOUD, Direct, cloud_document
from test_mock_laws import blocks, config_of

from plancheck.acceptance._mock import MockProvider


def bucket_config(name: str = "logs", **extra: Any) -> dict[str, Any]:
    config: dict[str, Any] = {
        "id": None, "name": name, "arn": None, "region": None, "size_gb": None, "public": None,
        "tags": None, "readers": None, "endpoints": None, "encryption_key": None,
        "website": None, "cors_rules": None, "versioning": None, "lifecycle_rule": [],
    }
    config.update(extra)
    return config



# -- 4. generated values: data source reads are pure ----------------------------------


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
