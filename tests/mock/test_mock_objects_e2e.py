"""MockProvider keeps objects, not types, end to end (issue #24, item 1): a module author's first test passes.

* A data source without a ``mock_data`` default reads the same values for the same configuration,
  so a resource fed by one of its computed attributes plans nothing after apply.
* A constant ``id`` default (``terraform test``'s ``defaults = { id = ... }``) gives several objects
  one id; the mock still keeps them apart (through the protocol's private data), so refresh,
  update, import and destroy each touch the right one, and an import by the shared id is refused.

On the pinned Terraform 1.0.3 and the newer one on PATH.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from mock_support import CLOUD, CLOUD_SCHEMA, NULL_SCHEMA, leak_check, offline_runner

from plancheck import ExpectResourceAction, ResourceAction, statecheck
from plancheck import knownvalue as kv
from plancheck._terraform.mock.instances import ObjectStore
from plancheck.acceptance import (
    AcceptanceRunner,
    ConfigPlanChecks,
    ImportStateKind,
    MockProvider,
    TestCase,
    TestStep,
)
from tfjsonpath import New

pytestmark = pytest.mark.e2e
pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")

NULL = "registry.terraform.io/hashicorp/null"
#: Any attempt to reach the network fails at once.


def keys_sent_back(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each object Terraform sent the mock (to read, update or delete) came with the mock's key.

    All of them must: the fallbacks (by id, by equal value) would find these objects too, so
    without this the tests could not tell that Terraform carries the key.
    """
    seen: list[bool] = []
    locate = ObjectStore.locate

    def spy(self: ObjectStore, type_name: str, private: bytes, value: Any) -> tuple[str | None, bool]:
        seen.append(self.key_in(private) is not None)
        return locate(self, type_name, private, value)

    monkeypatch.setattr(ObjectStore, "locate", spy)
    return seen


# -- 1. a data source without a default reads the same answer twice ---------------------------------

CLOUD_DATA_MODULE = """
data "cloud_region" "here" {
  name = "eu-west-1"
}

resource "cloud_bucket" "logs" {
  name    = "logs"
  tags    = { endpoint = data.cloud_region.here.endpoint }
  website = { index_document = "index.html" } # Terraform 1.0.3 panics planning a null single nested attribute
}
"""

NULL_DATA_MODULE = """
data "null_data_source" "d" {
  inputs = { a = "b" }
}

resource "null_resource" "r" {
  triggers = { random = data.null_data_source.d.random }
}
"""


def cloud_mock(**options: Any) -> MockProvider:
    return MockProvider.from_schema_file(CLOUD_SCHEMA, CLOUD, seed=11, **options)


def null_mock(**options: Any) -> MockProvider:
    return MockProvider.from_schema_file(NULL_SCHEMA, NULL, seed=11, **options)


@pytest.mark.parametrize(("make", "address", "module", "watched"), [
    pytest.param(cloud_mock, CLOUD, CLOUD_DATA_MODULE, "cloud_bucket.logs", id="cloud-no-defaults"),
    pytest.param(lambda: cloud_mock(override_during="plan"), CLOUD, CLOUD_DATA_MODULE, "cloud_bucket.logs",
                 id="cloud-override-during-plan"),
    pytest.param(lambda: cloud_mock(mock_resources={"cloud_bucket": lambda c: {"arn": "arn:" + c["name"]}}),
                 CLOUD, CLOUD_DATA_MODULE, "cloud_bucket.logs", id="cloud-callable-default-for-another-type"),
    pytest.param(null_mock, NULL, NULL_DATA_MODULE, "null_resource.r", id="null-no-defaults"),
])
def test_an_undefaulted_data_source_feeding_a_resource_passes_two_identical_steps(
    tf_acceptance: AcceptanceRunner, private_tmp: Path, make: Any, address: str, module: str, watched: str
) -> None:
    mock = make()
    with leak_check(private_tmp) as leaks:
        # Each step's post-apply plan must be empty: the runner fails the step otherwise.
        offline_runner(tf_acceptance).run(TestCase(providers={address: mock}, steps=[
            TestStep(config=module, config_plan_checks=ConfigPlanChecks(pre_apply=[
                ExpectResourceAction(watched, ResourceAction.Create)])),
            TestStep(config=module, config_plan_checks=ConfigPlanChecks(pre_apply=[
                ExpectResourceAction(watched, ResourceAction.NoOp)])),
        ]))
    assert not leaks[0], leaks[0]
    reads = [c for c in mock.calls if c.rpc == "ReadDataSource"]
    assert len(reads) >= 2
    applies = [c.action for c in mock.calls if c.rpc == "ApplyResourceChange"]
    assert applies == ["create", "delete"]


# -- 2. a constant id default: three objects, one id -------------------------------------------------


def null_module(second: str = "2") -> str:
    return "\n".join(
        f'resource "null_resource" "{name}" {{\n  triggers = {{ n = "{value}" }}\n}}\n'
        for name, value in (("a", "1"), ("b", second), ("c", "3"))
    )


def test_a_constant_id_default_keeps_three_null_resources_apart(
    tf_acceptance: AcceptanceRunner, private_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mock = null_mock(mock_resources={"null_resource": {"id": "fixed-id"}})
    keyed = keys_sent_back(monkeypatch)
    seen: list[list[dict[str, Any]]] = []

    def triggers(n: str) -> kv.Check:
        return kv.MapExact({"n": kv.StringExact(n)})

    with leak_check(private_tmp) as leaks:
        offline_runner(tf_acceptance).run(TestCase(providers={NULL: mock}, steps=[
            TestStep(
                config=null_module(),
                config_state_checks=[
                    *(statecheck.ExpectKnownValue(f"null_resource.{r}", New("id"), kv.StringExact("fixed-id")) for r in "abc"),
                    statecheck.ExpectKnownValue("null_resource.b", New("triggers"), triggers("2")),
                ],
                check=lambda state: seen.append(mock.objects("null_resource")),
            ),
            TestStep(refresh_state=True, check=lambda state: seen.append(mock.objects("null_resource"))),
            TestStep(
                config=null_module(second="two"),
                config_plan_checks=ConfigPlanChecks(pre_apply=[
                    ExpectResourceAction("null_resource.a", ResourceAction.NoOp),
                    ExpectResourceAction("null_resource.b", ResourceAction.Update),  # the schema says nothing of a replace
                    ExpectResourceAction("null_resource.c", ResourceAction.NoOp),
                ]),
                config_state_checks=[
                    statecheck.ExpectKnownValue("null_resource.a", New("triggers"), triggers("1")),
                    statecheck.ExpectKnownValue("null_resource.b", New("triggers"), triggers("two")),
                    statecheck.ExpectKnownValue("null_resource.c", New("triggers"), triggers("3")),
                ],
                check=lambda state: seen.append(mock.objects("null_resource")),
            ),
        ]))
    assert not leaks[0], leaks[0]
    assert [sorted(o["triggers"]["n"] for o in objects) for objects in seen] == [
        ["1", "2", "3"], ["1", "2", "3"], ["1", "3", "two"],
    ]
    assert mock.objects("null_resource") == []
    applies = [c.action for c in mock.calls if c.rpc == "ApplyResourceChange"]
    assert sorted(applies) == ["create"] * 3 + ["delete"] * 3 + ["update"]
    assert all(keyed), keyed
    assert len(keyed) >= 3 * 4  # each object read after steps 1 and 2, read and updated or not in 3, deleted


def cloud_module(b_tags: str = "") -> str:
    return "\n".join(
        f'resource "cloud_bucket" "{name}" {{\n  name = "{name}"\n  website = {{ index_document = "i.html" }}\n{tags}}}\n'
        for name, tags in (("a", ""), ("b", f"  tags = {{ {b_tags} }}\n" if b_tags else ""), ("c", ""))
    )


AMBIGUOUS = re.compile(r'Cannot import cloud_bucket: 3 objects of cloud_bucket have id "fixed-id"')


def test_a_constant_id_default_keeps_three_buckets_apart_through_update_import_and_destroy(
    tf_acceptance: AcceptanceRunner, private_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mock = cloud_mock(mock_resources={"cloud_bucket": {"id": "fixed-id"}})
    keyed = keys_sent_back(monkeypatch)
    seen: list[dict[str, dict[str, Any]]] = []

    def record(state: Any) -> None:
        seen.append({o["name"]: o for o in mock.objects("cloud_bucket")})

    imports = [
        TestStep(import_state=True, resource_name="cloud_bucket.b", import_state_id="b", import_state_verify=True,
                 import_state_verify_identifier_attribute="name"),
        # The state's id is the shared one: no guess, a refusal saying what to use instead.
        TestStep(import_state=True, resource_name="cloud_bucket.a", expect_error=AMBIGUOUS),
    ]
    if tf_acceptance.terraform.version_tuple >= (1, 5):
        imports += [
            TestStep(import_state=True, resource_name="cloud_bucket.c", import_state_id="c",
                     import_state_kind=ImportStateKind.ImportBlockWithID),
            TestStep(import_state=True, resource_name="cloud_bucket.c", import_state_kind=ImportStateKind.ImportBlockWithID,
                     expect_error=AMBIGUOUS),
        ]
    with leak_check(private_tmp) as leaks:
        offline_runner(tf_acceptance).run(TestCase(providers={CLOUD: mock}, steps=[
            TestStep(config=cloud_module(), check=record),
            TestStep(refresh_state=True, check=record),
            TestStep(
                config=cloud_module(b_tags='team = "data"'),
                config_plan_checks=ConfigPlanChecks(pre_apply=[
                    ExpectResourceAction("cloud_bucket.a", ResourceAction.NoOp),
                    ExpectResourceAction("cloud_bucket.b", ResourceAction.Update),
                    ExpectResourceAction("cloud_bucket.c", ResourceAction.NoOp),
                ]),
                config_state_checks=[
                    statecheck.ExpectKnownValue("cloud_bucket.b", New("tags"), kv.MapExact({"team": kv.StringExact("data")})),
                    statecheck.ExpectKnownValue("cloud_bucket.a", New("tags"), kv.Null()),
                ],
                check=record,
            ),
            *imports,
        ]))
    assert not leaks[0], leaks[0]
    first, refreshed, updated = seen
    assert sorted(first) == ["a", "b", "c"]
    assert {o["id"] for o in first.values()} == {"fixed-id"}
    assert len({o["arn"] for o in first.values()}) == 3  # each object its own generated values
    assert refreshed == first
    assert updated["b"]["tags"] == {"team": "data"}
    assert {n: o for n, o in updated.items() if n != "b"} == {n: o for n, o in first.items() if n != "b"}
    assert updated["b"]["arn"] == first["b"]["arn"]
    assert mock.objects("cloud_bucket") == []
    applies = [(c.action, (c.config or {}).get("name")) for c in mock.calls if c.rpc == "ApplyResourceChange"]
    assert sorted(a for a in applies if a[0] != "delete") == [("create", "a"), ("create", "b"), ("create", "c"), ("update", "b")]
    assert [a for a in applies if a[0] == "delete"] == [("delete", None)] * 3
    assert all(keyed), keyed
    assert len(keyed) >= 3 * 4
