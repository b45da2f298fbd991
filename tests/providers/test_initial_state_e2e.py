"""Upgrade tests from recorded states (#25 item 1): ``TestCase(initial_state=...)`` on real Terraform.

A state is recorded for real by version 0 of the example widget provider (its ``description`` was
called ``label``); version 1 (examples/widget_provider) reads it through its upgrader to an empty
plan, offline (``-refresh=false``: the "API" never sees the widget). Without the upgrader Terraform
refuses the state naming the resource and the attribute. Built-in resources too: ``null_resource``
on 1.0.3, ``terraform_data`` on 1.4+.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from provider_support import WIDGET, example_module

from plancheck import ExpectKnownValue, ExpectSensitiveValue
from plancheck import knownvalue as kv
from plancheck.acceptance import (
    AcceptanceError,
    AcceptanceRunner,
    AdditionalCLIOptions,
    ConfigPlanChecks,
    PlanOptions,
    Sensitive,
    TestCase,
    TestStep,
)
from tfjsonpath import New

pytestmark = pytest.mark.e2e
widget = example_module()
OFFLINE = AdditionalCLIOptions(plan=PlanOptions(no_refresh=True))
SECRET = "zq-planted-upgrade-secret-8812"


class WidgetThingV0(widget.WidgetThing):
    """Version 0 of the resource: ``label`` where version 1 has ``description``."""

    SCHEMA_VERSION = 0

    @classmethod
    def get_schema(cls) -> Any:
        from tf import schema, types

        current = super().get_schema()
        attributes = [
            schema.Attribute("label", types.String(), optional=True) if a.name == "description" else a
            for a in current.attributes
        ]
        return schema.Schema(version=0, attributes=attributes)

    def create(self, ctx: Any, planned: Any) -> Any:
        made = super().create(ctx, {**planned, "description": planned.get("label")})
        made["label"] = made.pop("description")
        return made

    def read(self, ctx: Any, current: Any) -> Any:
        found = super().read(ctx, current)
        if found is not None:
            found["label"] = found.pop("description")
        return found


class WidgetProviderV0(widget.WidgetProvider):
    def get_resources(self) -> list[Any]:
        return [WidgetThingV0]


class WidgetThingNoUpgrader(widget.WidgetThing):
    def upgrade(self, ctx: Any, version: int, old: Any) -> Any:
        return old  # the upgrader removed: the version-0 state reaches Terraform as it is


class WidgetProviderNoUpgrader(widget.WidgetProvider):
    def get_resources(self) -> list[Any]:
        return [WidgetThingNoUpgrader]


VARIABLE = """
variable "secret" {
  type      = string
  sensitive = true
}
"""
V0_CONFIG = VARIABLE + """
resource "widget_thing" "t" {
  name   = "alpha"
  label  = "recorded by version 0"
  size   = 3
  secret = var.secret
}
"""
V1_CONFIG = V0_CONFIG.replace("label ", "description ")


def record(runner: AcceptanceRunner, provider: Any, config: str, where: Path, **step: Any) -> Path:
    """Apply ``config`` for real and keep the state file Terraform wrote (as ``terraform state pull`` would)."""
    case_dir = where / "recording"
    kept = where / "recorded.tfstate"
    runner.run(TestCase(providers=provider, working_dir=case_dir, steps=[TestStep(
        config=config, post_apply_func=lambda: shutil.copyfile(case_dir / "terraform.tfstate", kept), **step,
    )]))
    return kept


@pytest.fixture
def recorded_v0(tf_acceptance: AcceptanceRunner, tmp_path: Path) -> Path:
    return record(tf_acceptance, {WIDGET: WidgetProviderV0}, V0_CONFIG, tmp_path,
                  variables={"secret": Sensitive(SECRET)})


def test_a_version_0_state_upgrades_to_an_empty_plan(
    tf_acceptance: AcceptanceRunner, recorded_v0: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert '"schema_version": 0' in recorded_v0.read_text()
    assert '"label": "recorded by version 0"' in recorded_v0.read_text()
    tf_acceptance.run(TestCase(providers={WIDGET: widget.WidgetProvider}, initial_state=recorded_v0, steps=[TestStep(
        config=V1_CONFIG,
        variables={"secret": Sensitive(SECRET)},
        plan_only=True,  # the plan must be empty: version 1 reads what version 0 wrote
        additional_cli_options=OFFLINE,
        config_plan_checks=ConfigPlanChecks(post_apply_pre_refresh=[
            ExpectKnownValue("widget_thing.t", New("description"), kv.StringExact("recorded by version 0")),
            ExpectSensitiveValue("widget_thing.t", New("secret")),
        ]),
    )]))
    assert SECRET not in "".join(capsys.readouterr())
    assert all(SECRET not in c.stdout + c.stderr for c in tf_acceptance.commands)


def test_without_the_upgrader_terraform_names_the_resource_and_attribute(
    tf_acceptance: AcceptanceRunner, recorded_v0: Path
) -> None:
    with pytest.raises(AcceptanceError) as info:
        tf_acceptance.run(TestCase(providers={WIDGET: WidgetProviderNoUpgrader}, initial_state=recorded_v0,
                                   steps=[TestStep(config=V1_CONFIG, variables={"secret": Sensitive(SECRET)},
                                                   plan_only=True, additional_cli_options=OFFLINE)]))
    assert info.value.reason == (
        "terraform plan failed: the recorded state of widget_thing.t (schema version 0) has attribute \"label\", "
        "which the provider's schema does not declare: its state upgrade (UpgradeResourceState) must move or remove it"
    )
    assert SECRET not in str(info.value)


def test_a_recorded_resource_the_configuration_lacks_fails_by_name(
    tf_acceptance: AcceptanceRunner, recorded_v0: Path
) -> None:
    with pytest.raises(AcceptanceError) as info:
        tf_acceptance.run(TestCase(providers={WIDGET: widget.WidgetProvider}, initial_state=recorded_v0,
                                   steps=[TestStep(config=VARIABLE, variables={"secret": Sensitive(SECRET)},
                                                   plan_only=True, additional_cli_options=OFFLINE)]))
    assert info.value.reason == (
        "initial_state holds widget_thing.t, which the configuration of step 1 does not declare (Terraform plans "
        "to destroy it); declare it, or remove it from the recorded state"
    )


NULL = """
terraform {
  required_providers {
    null = { source = "hashicorp/null", version = "2.1.2" }
  }
}

resource "null_resource" "a" {
  count    = 2
  triggers = { n = count.index }
}
"""

DATA = """
resource "terraform_data" "a" {
  input = { name = "recorded" }
}
"""


def test_null_resources_from_a_recorded_state(tf_acceptance: AcceptanceRunner, tmp_path: Path) -> None:
    recorded = record(tf_acceptance, None, NULL, tmp_path)
    tf_acceptance.run(TestCase(initial_state=recorded, steps=[TestStep(
        config=NULL, plan_only=True, additional_cli_options=OFFLINE,
    )]))


@pytest.mark.tf_min_version("1.4")
def test_built_in_terraform_data_from_a_recorded_state(tf_acceptance: AcceptanceRunner, tmp_path: Path) -> None:
    recorded = record(tf_acceptance, None, DATA, tmp_path)
    tf_acceptance.run(TestCase(initial_state=str(recorded), steps=[
        TestStep(config=DATA, plan_only=True, additional_cli_options=OFFLINE),
        TestStep(config=DATA.replace('"recorded"', '"changed"'), config_plan_checks=ConfigPlanChecks(pre_apply=[
            ExpectKnownValue("terraform_data.a", New("input").AtMapKey("name"), kv.StringExact("changed")),
        ])),
    ]))


# -- red team (#25): a sensitive number of a recorded state never shows --------------------------------------

PIN = "1234.5678"


class WidgetThingStrictUpgrader(widget.WidgetThing):
    def upgrade(self, ctx: Any, version: int, old: Any) -> Any:
        if old.get("size") is not None and float(old["size"]) != int(float(old["size"])):
            raise ValueError(f"size {old['size']} is not a whole number of widgets")
        return super().upgrade(ctx, version, old)


class WidgetProviderStrictUpgrader(widget.WidgetProvider):
    def get_resources(self) -> list[Any]:
        return [WidgetThingStrictUpgrader]


def test_a_sensitive_number_of_the_recorded_state_is_scrubbed(
    tf_acceptance: AcceptanceRunner, recorded_v0: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The exact loader reads ``1234.5678`` as a Decimal, which the state's secret collector skipped: an upgrader
    whose error echoes the sensitive size showed it in the failure, the commands and the log."""
    import json

    document = json.loads(recorded_v0.read_text())
    [instance] = document["resources"][0]["instances"]
    instance["attributes"]["size"] = 0
    instance["sensitive_attributes"].append([{"type": "get_attr", "value": "size"}])
    edited = tmp_path / "sensitive-size.tfstate"
    edited.write_text(json.dumps(document, indent=2).replace('"size": 0', f'"size": {PIN}'))
    runner = AcceptanceRunner(tf_acceptance.terraform, tf_acceptance.work_dir, timeout=120)
    with pytest.raises(AcceptanceError) as info:
        runner.run(TestCase(providers={WIDGET: WidgetProviderStrictUpgrader}, initial_state=edited, steps=[TestStep(
            config=V1_CONFIG.replace("size   = 3", f"size   = {PIN}"), variables={"secret": Sensitive(SECRET)},
            plan_only=True, additional_cli_options=OFFLINE,
        )]))
    shown = str(info.value) + repr(info.value) + "".join(capsys.readouterr())
    shown += "".join(c.stdout + c.stderr + c.command_line for c in runner.commands)
    assert "UpgradeResourceState (widget_thing) raised ValueError: size (sensitive) is not a whole number" in shown
    assert PIN not in shown


def test_an_attribute_named_in_go_quoting_is_a_step_failure(tf_acceptance: AcceptanceRunner) -> None:
    """Red team (#25): Terraform names an unsupported attribute in Go's quoting, ["odd\\x01name"], which is no JSON
    string: the hint's json.loads raised JSONDecodeError out of the runner instead of the step failing."""
    recorded = {
        "version": 4, "terraform_version": "1.0.3", "serial": 1, "lineage": "recorded", "outputs": {},
        "resources": [{"mode": "managed", "type": "widget_thing", "name": "t",
                       "provider": 'provider["example.com/acme/widget"]',
                       "instances": [{"schema_version": 0, "attributes": {
                           # As many attributes as the schema has (else Terraform counts them first): one renamed.
                           "id": "w-0001", "name": "alpha", "label": None, "odd\u0001name": None, "secret": None,
                           "tags": None, "revision": 1}}]}],
    }
    with pytest.raises(AcceptanceError) as info:
        tf_acceptance.run(TestCase(providers={WIDGET: widget.WidgetProvider}, initial_state=recorded, steps=[TestStep(
            config='resource "widget_thing" "t" {\n  name = "alpha"\n}\n', plan_only=True, additional_cli_options=OFFLINE,
        )]))
    assert info.value.reason == (
        'terraform plan failed: the recorded state of widget_thing.t (schema version 0) has attribute "odd\\u0001name", '
        "which the provider's schema does not declare: its state upgrade (UpgradeResourceState) must move or remove it"
    )
