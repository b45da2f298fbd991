"""The runner's fixes, on the fake terraform: addresses checked when a step is made, a bad timeout refused
when the runner is made, check_destroy and destroy failures secondary to the step's, module imports verified.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest
from acceptance_fakes import EMPTY_PLAN, FakeTerraform, make_fake_terraform, rule

from plancheck._terraform.binary import TerraformBinary
from plancheck.acceptance import (
    AcceptanceError,
    AcceptanceRunner,
    Stage,
    TestCase,
    TestDefinitionError,
    TestStep,
)
from plancheck.acceptance._steps import state_resources, verify_import

CONFIG = 'resource "null_resource" "a" {}'
DESTROY = "destroy -auto-approve -input=false -no-color -refresh=false"
STATE = {
    "format_version": "1.0",
    "values": {"root_module": {"resources": [
        {"address": "null_resource.a", "mode": "managed", "type": "null_resource", "name": "a",
         "provider_name": "registry.terraform.io/hashicorp/null", "values": {"id": "42", "triggers": None}},
    ]}},
}
SHOW_RULES = (
    rule("show", "-json", "tfplan", responses=[{"stdout": EMPTY_PLAN}]),
    rule("show", "-json", responses=[{"stdout": json.dumps(STATE)}]),
)
EXPECTED_ADDRESS = "expected a resource address such as aws_instance.web or module.app.aws_instance.web[0]"


@pytest.fixture
def fake(tmp_path: Path) -> FakeTerraform:
    return make_fake_terraform(tmp_path / "bin")


def make_runner(fake: FakeTerraform, tmp_path: Path, **kwargs: Any) -> AcceptanceRunner:
    return AcceptanceRunner(
        TerraformBinary(str(fake.path), "1.9.0"), tmp_path / "work", env=fake.env(), echo=False, require_tf_acc=False,
        **kwargs,
    )


def failure(runner: AcceptanceRunner, case: TestCase) -> BaseException:
    with pytest.raises(BaseException) as info:
        runner.run(case)
    return info.value


# -- addresses, checked when the step is made --------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "message"),
    [
        pytest.param(lambda: TestStep(import_state=True, resource_name="not an address!"),
                     f"TestStep.resource_name: {EXPECTED_ADDRESS}, got 'not an address!'", id="resource-name-words"),
        pytest.param(lambda: TestStep(import_state=True, resource_name="null_resource"),
                     f"TestStep.resource_name: {EXPECTED_ADDRESS}, got 'null_resource'", id="resource-name-no-name"),
        pytest.param(lambda: TestStep(import_state=True, resource_name="module.child"),
                     f"TestStep.resource_name: {EXPECTED_ADDRESS}, got 'module.child'", id="resource-name-a-module"),
        pytest.param(lambda: TestStep(import_state=True, resource_name="a.b[x]"),
                     f"TestStep.resource_name: {EXPECTED_ADDRESS}, got 'a.b[x]'", id="resource-name-bare-key"),
        pytest.param(lambda: TestStep(import_state=True, resource_name="a.b.c"),
                     f"TestStep.resource_name: {EXPECTED_ADDRESS}, got 'a.b.c'", id="resource-name-three-parts"),
        pytest.param(lambda: TestStep(config="", taint=["null_resource.a", "null resource.b"]),
                     f"TestStep.taint[1]: {EXPECTED_ADDRESS}, got 'null resource.b'", id="taint-space"),
        pytest.param(lambda: TestStep(config="", taint="null_resource.a"),
                     "TestStep.taint: expected a list of resource addresses, got str", id="taint-str"),
    ],
)
def test_a_bad_address_is_refused_when_the_step_is_made(build: Any, message: str) -> None:
    with pytest.raises(TestDefinitionError) as info:
        build()
    assert str(info.value) == message


@pytest.mark.parametrize(
    "address",
    [
        pytest.param("null_resource.a", id="root"),
        pytest.param("module.child.cloud_bucket.a", id="module"),
        pytest.param('module.app["eu-1"].module.db[0].aws_db.main["x\\"y"]', id="nested-modules-with-keys"),
        pytest.param("data.aws_ami.ubuntu", id="data-source"),
        pytest.param("aws_instance.web[12]", id="count-index"),
        pytest.param("_a-1.b_2-", id="identifier-characters"),
    ],
)
def test_a_resource_address_is_accepted(address: str) -> None:
    assert TestStep(import_state=True, resource_name=address).resource_name == address
    assert TestStep(config="", taint=[address]).taint == (address,)


# -- check_destroy and destroy after a failure: secondary ------------------------------------------------


def still_there(state: Any) -> Exception:
    return AssertionError("null_resource.a still exists")


def test_check_destroy_failing_after_a_step_failure_is_appended_to_it(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(*SHOW_RULES)
    case = TestCase(steps=[TestStep(config=CONFIG, check=lambda state: ValueError("no widget"))], check_destroy=still_there)
    err = failure(make_runner(fake, tmp_path), case)
    assert isinstance(err, AcceptanceError)
    assert (err.step, err.stage, err.reason) == (1, Stage.CHECK, "Check failed: no widget")
    assert str(err) == (
        "step 1/1, check: Check failed: no widget\n"
        "also: check_destroy (after the post-test destroy): CheckDestroy failed: null_resource.a still exists"
    )
    assert err.also == ("check_destroy (after the post-test destroy): CheckDestroy failed: null_resource.a still exists",)
    assert fake.argv()[-2:] == ["show -json", DESTROY]  # Go's order: CheckDestroy still ran, after the destroy


def test_check_destroy_failing_alone_is_the_error(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(*SHOW_RULES)
    err = failure(make_runner(fake, tmp_path), TestCase(steps=[TestStep(config=CONFIG)], check_destroy=still_there))
    assert isinstance(err, AcceptanceError)
    assert str(err) == "check_destroy (after the post-test destroy): CheckDestroy failed: null_resource.a still exists"
    assert err.also == ()


def test_a_failure_that_is_not_the_runners_gets_a_note(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(*SHOW_RULES)

    def boom() -> None:
        raise RuntimeError("post_apply_func broke")

    case = TestCase(steps=[TestStep(config=CONFIG, post_apply_func=boom)], check_destroy=still_there)
    err = failure(make_runner(fake, tmp_path), case)
    assert isinstance(err, RuntimeError)
    assert str(err) == "post_apply_func broke"
    assert err.__notes__ == [
        "also: check_destroy (after the post-test destroy): CheckDestroy failed: null_resource.a still exists"
    ]


def test_an_error_with_also_survives_pickling() -> None:
    err = AcceptanceError(1, 2, Stage.APPLY, "terraform apply failed", also=("post-test destroy: boom\n  more",))
    err.add_also("check_destroy: gone")
    copy = pickle.loads(pickle.dumps(err))
    assert (str(copy), copy.also) == (str(err), ("post-test destroy: boom\n  more", "check_destroy: gone"))
    assert str(err).splitlines()[1:] == ["also: post-test destroy: boom", "    more", "also: check_destroy: gone"]


# -- import_state_verify: nothing compared is a failure, modules count ---------------------------------


def test_verify_fails_when_the_imported_resource_is_not_in_the_state(fake: FakeTerraform, tmp_path: Path) -> None:
    fake.script(*SHOW_RULES)
    err = failure(make_runner(fake, tmp_path), TestCase(steps=[
        TestStep(config=CONFIG),
        TestStep(import_state=True, resource_name="null_resource.b", import_state_id="42", import_state_verify=True),
    ]))
    assert isinstance(err, AcceptanceError)
    assert (err.step, err.stage, err.reason) == (
        2, Stage.IMPORT_STATE_VERIFY,
        "ImportStateVerify: resource null_resource.b not found in the state after import (it has null_resource.a)",
    )


def bucket(address: str, tags: dict[str, str], mode: str = "managed") -> dict[str, Any]:
    return {"address": address, "mode": mode, "type": "cloud_bucket", "provider_name": "acme/cloud",
            "values": {"id": "b-1", "tags": tags}}


def document(*resources: dict[str, Any], child: bool = True) -> dict[str, Any]:
    if not child:
        return {"values": {"root_module": {"resources": list(resources)}}}
    return {"values": {"root_module": {"child_modules": [
        {"address": "module.child", "resources": list(resources), "child_modules": [{"address": "module.child.module.x"}]},
    ]}}}


MODULE = "module.child.cloud_bucket.a"


@pytest.mark.parametrize(
    ("applied", "imported", "expected"),
    [
        pytest.param(document(bucket(MODULE, {"team": "a"})), document(bucket(MODULE, {"team": "a"})), None,
                     id="module-resource-matches"),
        pytest.param(document(bucket(MODULE, {"team": "a"})), document(bucket(MODULE, {"team": "b"})),
                     "ImportStateVerify attributes not equivalent. Difference is shown below. The - symbol indicates "
                     f'attributes missing after import.\n\n{MODULE}:\n- "tags.team": "a"\n+ "tags.team": "b"',
                     id="module-resource-differs"),
        pytest.param(document(bucket(MODULE, {})), document(),
                     f"ImportStateVerify: resource {MODULE} not found in the state after import (it has no managed resources)",
                     id="nothing-imported"),
        pytest.param(document(bucket(MODULE, {})), document(bucket(MODULE, {}, mode="data")),
                     f"ImportStateVerify: resource {MODULE} not found in the state after import (it has no managed resources)",
                     id="only-a-data-source"),
        pytest.param(document(), document(bucket(MODULE, {})),
                     "Failed state verification, resource with ID b-1 not found", id="not-in-the-applied-state"),
    ],
)
def test_verify_import_walks_every_module(applied: dict[str, Any], imported: dict[str, Any], expected: str | None) -> None:
    assert verify_import(state_resources(applied), state_resources(imported), address=MODULE) == expected


def test_state_resources_reads_planned_values_and_tolerates_junk() -> None:
    planned = {"planned_values": {"root_module": {"resources": [bucket("cloud_bucket.r", {}), "junk"],
                                                  "child_modules": ["junk", {"resources": [bucket(MODULE, {})]}]}}}
    assert [r["address"] for r in state_resources(planned, "planned_values")] == ["cloud_bucket.r", MODULE]
    assert state_resources({"values": []}) == []
