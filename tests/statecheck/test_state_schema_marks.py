"""statecheck.ExpectSensitiveValue on a state whose Terraform could not mark what a provider's schema makes
sensitive: Terraform before 1.4.6 wrote into a state's ``sensitive_values`` only what the configuration
made sensitive (hashicorp/terraform#33059), so a newcomer on the pinned Terraform 1.0.3 read "expected a
sensitive value, but it is not sensitive; it is known: (sensitive)" about a schema-sensitive attribute.
The failure now says which Terraform cannot show it and which can. The secret never shows.
"""

from __future__ import annotations

import json

import pytest

from plancheck import State, StateCheckError, statecheck
from plancheck.acceptance import AcceptanceError, AcceptanceRunner, TestCase, TestStep
from plancheck.statecheck import assert_state
from plancheck.tfversion import Version
from tfjsonpath import New

SECRET = "widget-secret-Hq27-zz"
NOTE = (
    "Terraform {v}'s terraform show -json marks in a state's sensitive_values only what the configuration made "
    "sensitive, not the attributes a provider's schema declares sensitive: Terraform 1.4.6 or later (or OpenTofu) "
    "marks those too"
)
PLAIN = "ExpectSensitiveValue: widget_thing.t: secret: expected a sensitive value, but it is not sensitive; it is known: "


def _state(version: str | None, *, marks: bool = True, sensitive: dict[str, bool] | None = None) -> State:
    resource: dict[str, object] = {"address": "widget_thing.t", "mode": "managed", "type": "widget_thing", "name": "t",
                "values": {"id": "w-1", "name": "alpha", "secret": SECRET}}
    if marks:
        resource["sensitive_values"] = sensitive or {}
    doc: dict[str, object] = {
        "format_version": "0.2" if marks else "0.1",
        # The secret is also a sensitive output's value: a secret of the document, shown as (sensitive).
        "values": {"outputs": {"s": {"sensitive": True, "value": SECRET}}, "root_module": {"resources": [resource]}},
    }
    if version is not None:
        doc["terraform_version"] = version
    return State.from_json(json.dumps(doc))


@pytest.mark.parametrize(
    ("version", "marks", "expected"),
    [
        pytest.param("1.0.3", True, f"{PLAIN}(sensitive) ({NOTE.format(v='1.0.3')})", id="terraform-1.0.3"),
        pytest.param("1.4.5", True, f"{PLAIN}(sensitive) ({NOTE.format(v='1.4.5')})", id="terraform-1.4.5"),
        pytest.param("1.4.6", True, f"{PLAIN}(sensitive)", id="terraform-1.4.6-marks-them"),
        pytest.param("1.8.0", True, f"{PLAIN}(sensitive)", id="opentofu-or-newer"),
        pytest.param(None, True, f"{PLAIN}(sensitive)", id="no-terraform-version"),
        pytest.param("not-a-version", True, f"{PLAIN}(sensitive)", id="unreadable-version"),
        pytest.param("0.14.11", False, f"{PLAIN}(sensitive) (this state records no sensitive_values marks)",
                     id="terraform-0.14-no-marks-at-all"),
    ],
)
def test_a_state_that_cannot_show_a_schema_sensitive_attribute_says_so(
    version: str | None, marks: bool, expected: str
) -> None:
    with pytest.raises(StateCheckError) as info:
        assert_state(_state(version, marks=marks), statecheck.ExpectSensitiveValue("widget_thing.t", New("secret")))
    assert str(info.value) == expected
    assert SECRET not in str(info.value) + repr(info.value)


def test_a_marked_value_still_passes_on_an_old_terraform() -> None:
    # A sensitive variable's value in the attribute: Terraform 1.0.3 marks that one.
    assert_state(_state("1.0.3", sensitive={"secret": True}), statecheck.ExpectSensitiveValue("widget_thing.t", New("secret")))


@pytest.mark.e2e
def test_a_real_terraform_and_a_schema_sensitive_attribute(tf_acceptance: AcceptanceRunner) -> None:
    # The widget provider (examples/widget_provider) declares `secret` sensitive in its schema; the
    # configuration gives it a literal, so only the schema makes it sensitive.
    pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    from tools.demo_provider import WIDGET_ADDRESS, _widget_provider

    config = f'resource "widget_thing" "t" {{\n  name = "a"\n  description = "d"\n  secret = "{SECRET}"\n}}\n'
    case = TestCase(providers={WIDGET_ADDRESS: _widget_provider()}, steps=[TestStep(
        config=config, config_state_checks=[statecheck.ExpectSensitiveValue("widget_thing.t", New("secret"))])])
    version = tf_acceptance.terraform.version
    if Version(version) >= Version("1.4.6"):
        tf_acceptance.run(case)
        return
    with pytest.raises(AcceptanceError) as info:
        tf_acceptance.run(case)
    assert str(info.value).splitlines()[1] == (
        '  ExpectSensitiveValue: widget_thing.t: secret: expected a sensitive value, but it is not sensitive; it is '
        f'known: "(sensitive)" ({NOTE.format(v=version)})'
    )
    assert SECRET not in str(info.value)
