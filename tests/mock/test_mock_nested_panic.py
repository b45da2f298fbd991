"""Terraform 1.0.0 to 1.0.4 panic planning a resource that leaves an optional single nested attribute unset
(``objchange.proposedNewNestedType``, hashicorp/terraform#29388, fixed in 1.0.5), before they ask the provider.

The pinned Terraform 1.0.3 is one of them. The schema a mock serves is valid (1.0.3 plans the example module,
which sets ``website``): Terraform validates each resource again after ``ConfigureProvider``, which tells the mock
its version, just before it plans; the mock refuses there, with an error saying what and why, never a crash.
A data source read they defer to apply panics too, with nothing asked of the mock first: the mock, which saw it
validated, says why afterwards, in place of the stack trace.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mock_support import CLOUD, CLOUD_SCHEMA, EXAMPLE, SECRET, Direct, cloud_document, write_tree

from plancheck import ExpectKnownValue, ExpectResourceAction, ResourceAction, assert_plan
from plancheck import knownvalue as kv
from plancheck.acceptance import (
    AcceptanceError,
    AcceptanceRunner,
    ConfigPlanChecks,
    MockPlanFailedError,
    MockProvider,
    Sensitive,
    TestCase,
    TestStep,
)
from tfjsonpath import New

pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")

WHY = ("Terraform 1.0.0 to 1.0.4 panic planning an optional single nested attribute left unset "
       "(hashicorp/terraform#29388, fixed in Terraform 1.0.5): set {names}, or use Terraform 1.0.5 or newer.")

#: A list block whose objects hold an optional single nested attribute, and one inside a single nested attribute.
DEEP_SCHEMA = {"resource_schemas": {"vm": {"block": {
    "attributes": {
        "outer": {"optional": True, "nested_type": {"nesting_mode": "single", "attributes": {
            "inner": {"optional": True, "nested_type": {"nesting_mode": "single", "attributes": {
                "x": {"type": "string", "optional": True}}}}}}},
        "status": {"optional": True, "computed": True, "nested_type": {"nesting_mode": "single", "attributes": {
            "phase": {"type": "string", "computed": True}}}},
    },
    "block_types": {"disk": {"nesting_mode": "list", "block": {"attributes": {
        "spec": {"optional": True, "nested_type": {"nesting_mode": "single", "attributes": {
            "size": {"type": "number", "optional": True}}}}}}}},
}}}}

BUCKET = {"name": "logs", "website": None}

VALIDATIONS: list[Any] = [
    pytest.param(CLOUD, cloud_document(), "1.0.3", "cloud_bucket", BUCKET,
                 ("Terraform 1.0.3 would panic planning cloud_bucket: it leaves website unset", WHY.format(names="website")),
                 id="1.0.3-website-unset"),
    pytest.param(CLOUD, cloud_document(), "1.0.4", "cloud_bucket", BUCKET,
                 ("Terraform 1.0.4 would panic planning cloud_bucket: it leaves website unset", WHY.format(names="website")),
                 id="1.0.4-the-last-that-panics"),
    pytest.param("a/b", DEEP_SCHEMA, "1.0.3", "vm",
                 {"outer": {"inner": None}, "status": None, "disk": [{"spec": {"size": 1}}, {"spec": None}]},
                 ("Terraform 1.0.3 would panic planning vm: it leaves outer.inner, disk.spec unset",
                  WHY.format(names="outer.inner, disk.spec")),
                 id="1.0.3-at-any-depth-a-computed-one-aside"),
    pytest.param(CLOUD, cloud_document(), "1.0.3", "cloud_bucket", {"name": "logs", "website": {"index_document": "i"}},
                 None, id="1.0.3-website-set"),
    pytest.param("a/b", DEEP_SCHEMA, "1.0.3", "vm", {"outer": None, "status": None, "disk": []},
                 ("Terraform 1.0.3 would panic planning vm: it leaves outer unset", WHY.format(names="outer")),
                 id="1.0.3-nothing-below-an-unset-one"),
    pytest.param("a/b", DEEP_SCHEMA, "1.0.3", "vm", {"outer": {"inner": {"x": None}}, "status": None, "disk": []},
                 None, id="1.0.3-only-a-computed-one-unset"),
    pytest.param(CLOUD, cloud_document(), "1.0.5", "cloud_bucket", BUCKET, None, id="1.0.5-plans-it"),
    pytest.param(CLOUD, cloud_document(), "1.11.4", "cloud_bucket", BUCKET, None, id="1.11.4-plans-it"),
    pytest.param(CLOUD, cloud_document(), None, "cloud_bucket", BUCKET, None, id="before-configure-provider"),
]


@pytest.mark.parametrize(("address", "schema", "version", "type_name", "config", "refused"), VALIDATIONS)
def test_a_resource_the_terraform_served_would_panic_planning_is_refused_when_validated(
    address: str, schema: dict[str, Any], version: str | None, type_name: str, config: dict[str, Any],
    refused: tuple[str, str] | None,
) -> None:
    direct = Direct(MockProvider(schema, address))
    pb = direct.pb
    if version is not None:
        direct.servicer.ConfigureProvider(pb.ConfigureProvider.Request(terraform_version=version, config=direct.dv({})), None)
    request = pb.ValidateResourceConfig.Request(type_name=type_name, config=direct.dv(config))
    said = [(d.severity, d.summary, d.detail) for d in direct.servicer.ValidateResourceConfig(request, None).diagnostics]
    assert said == ([] if refused is None else [(pb.Diagnostic.ERROR, *refused)])


#: What a runner tells a mock (``plancheck_planning``) and what Terraform sends it, in order, on the pinned 1.0.3.
PLAN, PLANNED, CONFIGURE, VALIDATE = "plan begins", "plan ends", "ConfigureProvider", "ValidateResourceConfig"

COMMANDS = [
    pytest.param([PLAN, VALIDATE, CONFIGURE, VALIDATE], True, id="a-plan-s-validation-after-its-configure"),
    pytest.param([PLAN, VALIDATE], False, id="a-plan-s-validation-before-its-configure"),
    # count = 0: nothing is planned, so the plan validates it only before ConfigureProvider; the apply configures
    # the provider, and the next command's validation (the post-test destroy's) came with that version.
    pytest.param([PLAN, VALIDATE, CONFIGURE, PLANNED, CONFIGURE, VALIDATE], False,
                 id="a-later-command-s-validation-after-an-apply"),
    pytest.param([PLAN, CONFIGURE, PLANNED, PLAN, VALIDATE], False, id="the-next-plan-s-validation-before-its-configure"),
    pytest.param([PLAN, CONFIGURE, PLANNED, PLAN, CONFIGURE, VALIDATE], True, id="the-next-plan-after-its-configure"),
    pytest.param([CONFIGURE, VALIDATE], True, id="no-runner-tells-the-mock-its-plans"),
]


@pytest.mark.parametrize(("events", "refused"), COMMANDS)
def test_only_a_validation_after_the_current_plan_s_configure_is_refused(events: list[str], refused: bool) -> None:
    direct = Direct(MockProvider(cloud_document(), CLOUD))
    pb, servicer = direct.pb, direct.servicer
    said: list[Any] = []
    for event in events:
        if event in (PLAN, PLANNED):
            servicer._instance.plancheck_planning(event == PLAN)
        elif event == CONFIGURE:
            servicer.ConfigureProvider(pb.ConfigureProvider.Request(terraform_version="1.0.3", config=direct.dv({})), None)
        else:
            request = pb.ValidateResourceConfig.Request(type_name="cloud_bucket", config=direct.dv(BUCKET))
            said = [d.summary for d in servicer.ValidateResourceConfig(request, None).diagnostics]
    assert said == (["Terraform 1.0.3 would panic planning cloud_bucket: it leaves website unset"] if refused else [])


def _with_filter() -> dict[str, Any]:
    """The example's schema, its cloud_region data source with an optional single nested attribute, filter."""
    document = cloud_document()
    region = next(iter(document["provider_schemas"].values()))["data_source_schemas"]["cloud_region"]["block"]
    region["attributes"]["filter"] = {"optional": True, "nested_type": {"nesting_mode": "single", "attributes": {
        "zone": {"type": "string", "required": True}}}}
    return document


def test_a_data_source_is_not_refused_terraform_1_0_3_reads_one_while_planning() -> None:
    # A read deferred to apply does panic, but Terraform asks the mock nothing about it first: explained afterwards.
    direct = Direct(MockProvider(_with_filter(), CLOUD))
    pb = direct.pb
    direct.servicer.ConfigureProvider(pb.ConfigureProvider.Request(terraform_version="1.0.3", config=direct.dv({})), None)
    request = pb.ValidateDataResourceConfig.Request(type_name="cloud_region", config=direct.dv({"name": "eu", "filter": None}))
    assert list(direct.servicer.ValidateDataResourceConfig(request, None).diagnostics) == []


#: What Terraform 1.0.3 printed panicking on a deferred read (cut): the frame the mock's explanation needs.
DEFERRED_PANIC = ("panic: interface conversion: interface {} is nil, not map[string]interface {}\n\ngoroutine 84 [running]:\n"
                  "github.com/hashicorp/terraform/internal/plans/objchange.PlannedDataResourceObject(0xc00037bdd0)\n")
EXPLAINED = ("Terraform 1.0.3 would panic planning data source cloud_region, a read deferred to apply: it leaves filter "
             "unset\n" + WHY.format(names="filter"))

CRASHES = [
    pytest.param(True, None, "1.0.3", DEFERRED_PANIC, EXPLAINED, id="1.0.3-a-deferred-read-leaving-filter-unset"),
    pytest.param(True, None, "1.0.4", DEFERRED_PANIC, EXPLAINED.replace("1.0.3", "1.0.4", 1), id="1.0.4"),
    pytest.param(True, {"zone": "a"}, "1.0.3", DEFERRED_PANIC, None, id="filter-set"),
    pytest.param(True, None, "1.0.5", DEFERRED_PANIC, None, id="1.0.5-plans-it"),
    pytest.param(True, None, "1.0.3", "panic: runtime error: index out of range [3] with length 3\n", None,
                 id="another-panic"),
    pytest.param(False, None, "1.0.3", DEFERRED_PANIC, None, id="no-runner-told-the-plan"),
]


@pytest.mark.parametrize(("told", "filter_", "version", "stderr", "explained"), CRASHES)
def test_a_crash_on_a_deferred_read_is_explained_by_the_mock_that_saw_it_validated(
    told: bool, filter_: Any, version: str, stderr: str, explained: str | None
) -> None:
    direct = Direct(MockProvider(_with_filter(), CLOUD))
    pb, instance = direct.pb, direct.servicer._instance
    if told:
        instance.plancheck_planning(True)
    # The validation of the plan's first walk, before ConfigureProvider: the name is unknown (a resource's id).
    config = pb.DynamicValue(msgpack=direct.msgpack.packb({"name": direct.unknown, "filter": filter_}, use_bin_type=True))
    direct.servicer.ValidateDataResourceConfig(pb.ValidateDataResourceConfig.Request(type_name="cloud_region", config=config), None)
    direct.servicer.ConfigureProvider(pb.ConfigureProvider.Request(terraform_version=version, config=direct.dv({})), None)
    assert instance.plancheck_crash(stderr) == explained


# -- with Terraform: the pinned 1.0.3, and the newer one on PATH --------------------------------------------


def _without_website() -> str:
    text = (EXAMPLE / "main.tf").read_text(encoding="utf-8")
    left = text.replace('  website = {\n    index_document = "index.html"\n  }\n', "")
    assert "website" not in left  # the example's only bucket sets it: now none does
    return left


REFUSED_ON_1_0_3 = (
    "terraform plan failed:\n"
    "Error: Terraform 1.0.3 would panic planning cloud_bucket: it leaves website unset\n\n"
    "  with cloud_bucket.logs,\n"
    '  on main.tf line 30, in resource "cloud_bucket" "logs":\n'
    '  30: resource "cloud_bucket" "logs" {\n\n'
    "Terraform 1.0.0 to 1.0.4 panic planning an optional single nested attribute\n"
    "left unset (hashicorp/terraform#29388, fixed in Terraform 1.0.5): set\n"
    "website, or use Terraform 1.0.5 or newer."
)


@pytest.mark.e2e
def test_mock_plan_of_a_bucket_without_website_is_refused_on_1_0_3_and_plans_on_newer(
    tf_acceptance_binary: Any, tf_mock_plan: Any, tmp_path: Path
) -> None:
    module = write_tree(tmp_path / "m", {"main.tf": _without_website()})
    mock = MockProvider.from_schema_file(CLOUD_SCHEMA, CLOUD)
    if tf_acceptance_binary.version_tuple >= (1, 0, 5):
        plan = tf_mock_plan(module, mocks=[mock], variables={"encryption_key": Sensitive(SECRET)})
        assert_plan(plan, ExpectResourceAction("cloud_bucket.logs", ResourceAction.Create),
                    ExpectKnownValue("cloud_bucket.logs", New("website"), kv.Null()))
        return
    with pytest.raises(MockPlanFailedError) as info:
        tf_mock_plan(module, mocks=[mock], variables={"encryption_key": Sensitive(SECRET)})
    assert (info.value.step, str(info.value)) == ("plan", REFUSED_ON_1_0_3)
    assert [c.rpc for c in mock.calls].count("PlanResourceChange") == 0  # refused before anything was planned


@pytest.mark.e2e
def test_an_acceptance_step_of_a_bucket_without_website_is_refused_on_1_0_3_never_a_panic(
    tf_acceptance: AcceptanceRunner,
) -> None:
    mock = MockProvider.from_schema_file(CLOUD_SCHEMA, CLOUD)
    runner = AcceptanceRunner(tf_acceptance.terraform, tf_acceptance.work_dir, timeout=120)
    case = TestCase(providers={CLOUD: mock}, steps=[TestStep(
        config=_without_website(), variables={"encryption_key": Sensitive(SECRET)}, plan_only=True,
        expect_non_empty_plan=True)])
    if tf_acceptance.terraform.version_tuple >= (1, 0, 5):
        runner.run(case)
        return
    with pytest.raises(AcceptanceError) as info:
        runner.run(case)
    shown = str(info.value)
    assert "Error: Terraform 1.0.3 would panic planning cloud_bucket: it leaves website unset" in shown, shown
    assert ("panic:" in shown, SECRET in shown) == (False, False)


#: Instances known to be none while planning: Terraform plans nothing of them, so nothing to panic on.
NONE_PLANNED = [
    pytest.param("count = 0", id="count-0"),
    pytest.param("for_each = {}", id="for-each-empty"),
    pytest.param("count = var.buckets", id="count-of-a-variable-0"),
]


#: A bucket without website, planned as many times as {meta} says, beside an access key planned once.
PLANNED_ZERO_TIMES = """
terraform {{
  required_providers {{
    cloud = {{ source = "acme/cloud" }}
  }}
}}
variable "buckets" {{
  type    = number
  default = 0
}}
resource "cloud_bucket" "logs" {{
  {meta}
  name           = "logs"
  encryption_key = "k"
}}
resource "cloud_access_key" "reader" {{
  bucket_id = "b"
}}
"""


@pytest.mark.e2e
@pytest.mark.parametrize("meta", NONE_PLANNED)
def test_a_step_of_a_bucket_planned_zero_times_is_never_refused(tf_acceptance: AcceptanceRunner, meta: str) -> None:
    mock = MockProvider.from_schema_file(CLOUD_SCHEMA, CLOUD)
    runner = AcceptanceRunner(tf_acceptance.terraform, tf_acceptance.work_dir, timeout=120)
    # Plan and apply, the plan after it (empty), the post-test destroy: each a Terraform command validating the bucket.
    runner.run(TestCase(providers={CLOUD: mock}, steps=[TestStep(
        config=PLANNED_ZERO_TIMES.format(meta=meta),
        config_plan_checks=ConfigPlanChecks(pre_apply=[ExpectResourceAction("cloud_access_key.reader", ResourceAction.Create)]))]))
    planned = [c.type_name for c in mock.calls if c.rpc == "PlanResourceChange"]
    assert (planned.count("cloud_bucket"), planned.count("cloud_access_key") > 0) == (0, True)


#: A data source read the plan defers to apply (its name is a resource's id, unknown), leaving filter unset.
DEFERRED_READ = """
terraform {
  required_providers {
    cloud = { source = "acme/cloud" }
  }
}
resource "cloud_access_key" "k" {
  bucket_id = "b"
}
data "cloud_region" "here" {
  name = cloud_access_key.k.id
}
"""
CRASHED_ON_1_0_3 = "terraform plan crashed:\n" + EXPLAINED


@pytest.mark.e2e
def test_mock_plan_of_a_deferred_read_without_filter_says_why_1_0_3_crashed_and_plans_on_newer(
    tf_acceptance_binary: Any, tf_mock_plan: Any, tmp_path: Path
) -> None:
    module = write_tree(tmp_path / "m", {"main.tf": DEFERRED_READ})
    mock = MockProvider(_with_filter(), CLOUD)
    if tf_acceptance_binary.version_tuple >= (1, 0, 5):
        plan = tf_mock_plan(module, mocks=[mock])
        assert_plan(plan, ExpectResourceAction("data.cloud_region.here", ResourceAction.Read))
        return
    with pytest.raises(MockPlanFailedError) as info:
        tf_mock_plan(module, mocks=[mock])
    assert (info.value.step, str(info.value)) == ("plan", CRASHED_ON_1_0_3)


@pytest.mark.e2e
def test_an_acceptance_step_of_a_deferred_read_without_filter_says_why_1_0_3_crashed(
    tf_acceptance: AcceptanceRunner,
) -> None:
    mock = MockProvider(_with_filter(), CLOUD)
    runner = AcceptanceRunner(tf_acceptance.terraform, tf_acceptance.work_dir, timeout=120)
    case = TestCase(providers={CLOUD: mock}, steps=[TestStep(config=DEFERRED_READ)])
    if tf_acceptance.terraform.version_tuple >= (1, 0, 5):
        runner.run(case)
        return
    with pytest.raises(AcceptanceError) as info:
        runner.run(case)
    first = str(info.value).split("\ncommand: ")[0]
    assert first == "step 1/1, pre_apply: terraform plan failed: " + EXPLAINED, first
