"""Per-address mock defaults without Terraform: key parsing, specificity, ties, bad keys, matching creates to the plan."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mock_support import CLOUD, Direct, cloud_document

from plancheck._terraform.mock.addresses import best_key, overlaps, parse_key
from plancheck._terraform.mock.instances import PlannedCreates, same_values
from plancheck._terraform.mock.provider import MockProvider
from plancheck._terraform.mock.schema import MockSchemaError

TYPES = {"cloud_bucket", "cloud_access_key"}

PARSED = [
    pytest.param("cloud_bucket", "cloud_bucket", (3, 0), id="type-name"),
    pytest.param("cloud_bucket.logs", "cloud_bucket", (1, 0), id="resource-address"),
    pytest.param("cloud_bucket.x[0]", "cloud_bucket", (0, 0), id="count-instance"),
    pytest.param('module.a.cloud_bucket.x["b"]', "cloud_bucket", (0, 0), id="module-for-each-instance"),
    pytest.param('module.a[2].module.b["k"].cloud_bucket.x', "cloud_bucket", (1, 0), id="nested-module-instances"),
    pytest.param("cloud_bucket.x[*]", "cloud_bucket", (2, 1), id="any-instance"),
    pytest.param("module.*.cloud_bucket.x", "cloud_bucket", (2, 1), id="any-module"),
    pytest.param("module.*.cloud_bucket.*", "cloud_bucket", (2, 2), id="two-wildcards"),
    pytest.param('cloud_bucket.x["a.*"]', "cloud_bucket", (2, 1), id="glob-in-key"),
    pytest.param("cloud_access_key.k?", "cloud_access_key", (2, 1), id="question-mark"),
]


@pytest.mark.parametrize(("key", "type_name", "rank"), PARSED)
def test_keys_parse_to_their_type_and_rank(key: str, type_name: str, rank: tuple[int, int]) -> None:
    parsed = parse_key(key, "mock_resources", TYPES, data=False)
    assert (parsed.type_name, parsed.rank) == (type_name, rank)


MATCHES = [
    pytest.param("cloud_bucket.x", "cloud_bucket.x[3]", True, id="resource-covers-instances"),
    pytest.param("cloud_bucket.x", "cloud_bucket.x", True, id="resource-itself"),
    pytest.param("cloud_bucket.x[*]", "cloud_bucket.x", False, id="any-key-needs-a-key"),
    pytest.param("cloud_bucket.x[*]", 'cloud_bucket.x["a"]', True, id="any-key-for-each"),
    pytest.param("module.*.cloud_bucket.x", "module.a.module.b.cloud_bucket.x[0]", True, id="star-crosses-dots"),
    pytest.param("module.*.cloud_bucket.x", "cloud_bucket.x", False, id="module-glob-not-root"),
    pytest.param("module.a.cloud_bucket.x", "module.a[0].cloud_bucket.x", False, id="module-key-is-literal"),
    pytest.param('cloud_bucket.x["b"]', 'cloud_bucket.x["b"]', True, id="quoted-key"),
]


@pytest.mark.parametrize(("key", "address", "expected"), MATCHES)
def test_keys_match_addresses_as_resources_patterns_do(key: str, address: str, expected: bool) -> None:
    assert parse_key(key, "mock_resources", TYPES, data=False).matches(address) is expected


SPECIFIC = ["cloud_bucket", "module.*.cloud_bucket.*", "cloud_bucket.*", "cloud_bucket.x", "cloud_bucket.x[1]"]
WINNERS = [
    pytest.param("cloud_bucket.x[1]", "cloud_bucket.x[1]", id="instance-beats-resource"),
    pytest.param("cloud_bucket.x[0]", "cloud_bucket.x", id="resource-beats-glob"),
    pytest.param("cloud_bucket.y", "cloud_bucket.*", id="one-wildcard-beats-two"),
    pytest.param("module.m.cloud_bucket.y", "module.*.cloud_bucket.*", id="glob-beats-type"),
    pytest.param("module.m.cloud_access_key.y", None, id="other-type-no-key"),
]


@pytest.mark.parametrize(("address", "winner"), WINNERS)
def test_the_most_specific_key_wins(address: str, winner: str | None) -> None:
    keys = {k: parse_key(k, "mock_resources", TYPES, data=False) for k in SPECIFIC}
    found = best_key(keys, address.split(".")[-2], address)
    assert (None if found is None else found.text) == winner


def bucket_mock(**defaults: Any) -> MockProvider:
    return MockProvider(cloud_document(), CLOUD, mock_resources=defaults or None)


BAD_KEYS = [
    pytest.param({"cloud_bucket.x[0": {}},
                 """mock_resources["cloud_bucket.x[0"]: not an address: '[' at offset 14 is never closed""", id="unclosed"),
    pytest.param({"cloud_bucket.x[a]": {}},
                 """mock_resources["cloud_bucket.x[a]"]: not an address: [a] at offset 14 is neither [N], ["key"] nor [*]""",
                 id="bare-key"),
    pytest.param({"cloud_buckt.x": {}},
                 'mock_resources["cloud_buckt.x"]: registry.terraform.io/acme/cloud has no resource type cloud_buckt; '
                 "did you mean cloud_bucket?", id="unknown-type"),
    pytest.param({"cloud_*.x": {}},
                 """mock_resources["cloud_*.x"]: the type 'cloud_*' must be spelled out (its defaults are checked """
                 "against its schema)", id="type-glob"),
    pytest.param({"data.cloud_region.r": {}},
                 'mock_resources["data.cloud_region.r"]: a data source address: its defaults go in mock_data', id="data-in-resources"),
    pytest.param({"mod.a.cloud_bucket.x": {}},
                 'mock_resources["mod.a.cloud_bucket.x"]: the part before the type must be module.NAME steps '
                 "(module.a.module.b)", id="not-module"),
    pytest.param({"cloud_bucket.x y": {}},
                 """mock_resources["cloud_bucket.x y"]: 'x y' is not a name (letters, digits, _ and -, or * and ?)""",
                 id="bad-name"),
    pytest.param({"cloud_bucket.x[0]": {"anr": "a"}},
                 'mock_resources["cloud_bucket.x[0]"]["anr"]: cloud_bucket has no attribute anr; did you mean arn?',
                 id="attribute-checked-against-the-type"),
    pytest.param({"cloud_bucket.?": {}, "cloud_bucket.x[*]": {}},
                 'mock_resources["cloud_bucket.x[*]"]: ties with mock_resources["cloud_bucket.?"]: both are '
                 "address globs with 1 wildcard that can match the same address, so neither is more specific; "
                 "make one of them narrower", id="tie-implicit-key"),
    pytest.param({"module.*.cloud_bucket.x": {}, "module.a.cloud_bucket.*": {}},
                 'mock_resources["module.a.cloud_bucket.*"]: ties with mock_resources["module.*.cloud_bucket.x"]: both are '
                 "address globs with 1 wildcard that can match the same address, so neither is more specific; "
                 "make one of them narrower", id="tie-globs"),
]


def test_a_resource_address_beats_its_any_instance_glob() -> None:
    keys = {k: parse_key(k, "mock_resources", TYPES, data=False) for k in ("cloud_bucket.x", "cloud_bucket.x[*]")}
    found = best_key(keys, "cloud_bucket", "cloud_bucket.x[2]")
    assert found is not None
    assert found.text == "cloud_bucket.x"


@pytest.mark.parametrize(("defaults", "message"), BAD_KEYS)
def test_bad_keys_are_refused_where_they_are(defaults: dict[str, Any], message: str) -> None:
    with pytest.raises(MockSchemaError) as info:
        bucket_mock(**defaults)
    assert str(info.value) == message


BAD_DATA_KEYS = [
    pytest.param({"cloud_region.r": {}},
                 'mock_data["cloud_region.r"]: a data source key is a type name or a data address (data.TYPE.NAME)',
                 id="resource-shaped"),
    pytest.param({"data.cloud_regin.r": {}},
                 'mock_data["data.cloud_regin.r"]: registry.terraform.io/acme/cloud has no data source cloud_regin; '
                 "did you mean cloud_region?", id="unknown-type"),
    pytest.param({"data.cloud_*.r": {}},
                 """mock_data["data.cloud_*.r"]: the type 'cloud_*' must be spelled out (its defaults are checked """
                 "against its schema)", id="type-glob"),
    pytest.param({"module.a.data.cloud_region.r[0": {}},
                 """mock_data["module.a.data.cloud_region.r[0"]: not an address: '[' at offset 28 is never closed""",
                 id="unclosed"),
    pytest.param({"data.cloud_region.?": {}, "data.cloud_region.r*": {}},
                 'mock_data["data.cloud_region.r*"]: ties with mock_data["data.cloud_region.?"]: both are address globs '
                 "with 1 wildcard that can match the same address, so neither is more specific; make one of them narrower",
                 id="tie"),
    pytest.param({"data.cloud_region.r": {"endpont": "e"}},
                 'mock_data["data.cloud_region.r"]["endpont"]: cloud_region has no attribute endpont; did you mean endpoint?',
                 id="attribute-checked-against-the-type"),
]


@pytest.mark.parametrize(("defaults", "message"), BAD_DATA_KEYS)
def test_bad_data_keys_are_refused_where_they_are(defaults: dict[str, Any], message: str) -> None:
    with pytest.raises(MockSchemaError) as info:
        MockProvider(cloud_document(), CLOUD, mock_data=defaults)
    assert str(info.value) == message


NON_TIES = [
    pytest.param({"module.a.cloud_bucket.*": {}, "module.b.cloud_bucket.*": {}}, id="disjoint-globs"),
    pytest.param({"cloud_bucket.x": {}, "cloud_bucket.x[0]": {}, "cloud_bucket.*": {}, "cloud_bucket": {}}, id="all-ranks"),
    pytest.param({"cloud_bucket.*": {}, "cloud_access_key.*": {}}, id="other-types"),
    pytest.param({"module.*.cloud_bucket.x": {}, "cloud_bucket.*": {}}, id="root-and-module-globs"),
]


@pytest.mark.parametrize("defaults", NON_TIES)
def test_keys_that_cannot_tie_are_accepted(defaults: dict[str, Any]) -> None:
    assert bucket_mock(**defaults).address == CLOUD


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="ab*?.", min_size=1, max_size=6), st.text(alphabet="ab*?.", min_size=1, max_size=6),
       st.text(alphabet="ab.", max_size=8))
def test_overlap_is_sound_for_any_address_both_match(first: str, second: str, name: str) -> None:
    """Law: two keys that both match an address overlap (so a tie is never missed)."""
    a = parse_key(f"cloud_bucket.{first.strip('.') or 'a'}", "o", TYPES, data=False) if "." not in first.strip(".") else None
    b = parse_key(f"cloud_bucket.{second.strip('.') or 'a'}", "o", TYPES, data=False) if "." not in second.strip(".") else None
    if a is None or b is None:
        return
    address = f"cloud_bucket.{name}"
    if a.matches(address) and b.matches(address):
        assert overlaps(a, b)


SAME = [
    pytest.param({"a": 1, "b": None}, {"b": True}, {"a": 1, "b": "x"}, True, id="unknown-is-a-wildcard"),
    pytest.param({"a": 1}, {}, {"a": 2}, False, id="different-number"),
    pytest.param({"a": 1}, {}, {"a": True}, False, id="bool-is-not-a-number"),
    pytest.param({"a": [1, 2]}, {}, {"a": [1]}, False, id="lengths"),
    pytest.param({"a": {"k": "v"}}, {}, {"a": {"k": "v"}}, True, id="nested-equal"),
]


@pytest.mark.parametrize(("after", "unknown", "value", "expected"), SAME)
def test_planned_values_match_the_plan(after: Any, unknown: Any, value: Any, expected: bool) -> None:
    assert same_values(after, unknown, value) is expected


def plan_document(*creates: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    return {"resource_changes": [
        {"address": address, "mode": "managed", "type": address.split("[")[0].split(".")[-2], "provider_name": CLOUD,
         "change": {"actions": ["create"], "after": after, "after_unknown": {"arn": True}}}
        for address, after in creates
    ]}


def test_identical_creates_with_the_same_defaults_are_claimed_one_by_one() -> None:
    planned = PlannedCreates()
    planned.tell(plan_document(("cloud_bucket.x[0]", {"name": "n"}), ("cloud_bucket.x[1]", {"name": "n"})), CLOUD)
    claims = [planned.claim("cloud_bucket", {"name": "n"}, lambda _a: "cloud_bucket") for _ in range(3)]
    assert [str(c) for c in claims[:2]] == ["cloud_bucket.x[0]", "cloud_bucket.x[1]"]
    assert repr(claims[2]) == "Unplanned(True)"


BUCKET = {"id": None, "name": "n", "arn": None, "region": None, "size_gb": None, "public": None, "tags": None,
          "readers": None, "endpoints": None, "encryption_key": None, "website": None, "cors_rules": None,
          "versioning": None, "lifecycle_rule": []}


def test_an_apply_gets_the_defaults_of_its_address() -> None:
    mock = bucket_mock(**{"cloud_bucket": {"arn": "type"}, "cloud_bucket.x[1]": {"arn": "one"}})
    direct = Direct(mock)
    instance = mock._latest
    assert instance is not None
    instance.plancheck_plan(plan_document(("cloud_bucket.x[1]", {**BUCKET, "name": "b"}),
                                          ("cloud_bucket.x[0]", {**BUCKET, "name": "a"})))
    assert direct.create("cloud_bucket", {**BUCKET, "name": "a"})["arn"] == "type"
    assert direct.create("cloud_bucket", {**BUCKET, "name": "b"})["arn"] == "one"


REFUSALS = [
    pytest.param(True, "Cannot tell cloud_bucket.x[0] from cloud_bucket.x[1]: their defaults differ",
                 "The mock of registry.terraform.io/acme/cloud finds the address of a create by its planned values, "
                 "and these two cloud_bucket instances plan the same ones, while cloud_bucket.x[0] gets "
                 'mock_resources["cloud_bucket"] and cloud_bucket.x[1] gets mock_resources["cloud_bucket.x[1]"]. '
                 "It will not guess which is which: give them configurations that differ, or the same defaults.",
                 id="indistinct"),
    pytest.param(False, "Cannot apply cloud_bucket: the mock of registry.terraform.io/acme/cloud was not told the plan",
                 "mock_resources has address keys for this type; a mock learns the addresses of its creates from the "
                 "plan the acceptance runner reads before apply (TestCase steps), so these defaults need that runner.",
                 id="not-told"),
]


@pytest.mark.parametrize(("told", "summary", "detail"), REFUSALS)
def test_a_create_whose_address_cannot_be_told_is_refused(told: bool, summary: str, detail: str) -> None:
    mock = bucket_mock(**{"cloud_bucket": {"arn": "type"}, "cloud_bucket.x[1]": {"arn": "one"}})
    direct = Direct(mock)
    if told:
        assert mock._latest is not None
        mock._latest.plancheck_plan(plan_document(("cloud_bucket.x[0]", BUCKET), ("cloud_bucket.x[1]", BUCKET)))
    planned = direct.value(direct.plan("cloud_bucket", None, BUCKET).planned_state)
    [diagnostic] = direct.apply("cloud_bucket", None, planned, BUCKET).diagnostics
    assert (diagnostic.summary, diagnostic.detail) == (summary, detail)


def test_override_during_plan_leaves_address_attributes_unknown_at_plan() -> None:
    mock = MockProvider(cloud_document(), CLOUD, override_during="plan",
                        mock_resources={"cloud_bucket": {"arn": "type", "size_gb": 5}, "cloud_bucket.x": {"arn": "x"}})
    direct = Direct(mock)
    planned = direct.value(direct.plan("cloud_bucket", None, BUCKET).planned_state)
    assert planned["size_gb"] == 5
    assert planned["arn"] == direct.unknown
