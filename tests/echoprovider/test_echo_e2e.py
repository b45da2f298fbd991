"""Go's echoprovider tests, ported, and ephemeral values reaching a state through the echo provider, on real Terraform.

The first five cases are ``echoprovider/server_test.go``'s (``TestEchoProviderServer_*``); they
run on every Terraform found (protocol 6 needs 1.0). The ephemeral cases need Terraform 1.10 and
skip below it through ``tfversion.SkipBelow``, as a Go test would.
"""

from __future__ import annotations

import re
import unittest
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")

from plancheck import ExpectEmptyPlan, ExpectUnknownValue, statecheck
from plancheck import knownvalue as kv
from plancheck.acceptance import AcceptanceRunner, ConfigPlanChecks, TestCase, TestStep, echoprovider
from plancheck.tfversion import SkipBelow, Version1_0_0, Version1_10_0
from tfjsonpath import New

pytestmark = pytest.mark.e2e


class Made:
    """``NewProviderServer()``, remembering the providers it made so a test can look at them afterwards."""

    def __init__(self) -> None:
        self.factory = echoprovider.NewProviderServer()
        self.providers: list[echoprovider.EchoProvider] = []

    def __call__(self) -> echoprovider.EchoProvider:
        self.providers.append(self.factory())
        return self.providers[-1]


def step(data: str | None, resource: str, *, state: kv.Check | None = None, empty: bool = False) -> TestStep:
    """A Go-style step: the provider configured with ``data``, one echo resource, the same checks as Go's."""
    provider = 'provider "echo" {}' if data is None else f'provider "echo" {{\n  data = {data}\n}}'
    plan = ExpectEmptyPlan() if empty else ExpectUnknownValue(f"echo.{resource}", New("data"))
    checks = [] if state is None else [statecheck.ExpectKnownValue(f"echo.{resource}", New("data"), state)]
    return TestStep(
        config=f'{provider}\nresource "echo" "{resource}" {{}}\n',
        config_plan_checks=ConfigPlanChecks(pre_apply=[plan]),
        config_state_checks=checks,
    )


HELLO_WORLD = [kv.StringExact("hello"), kv.StringExact("world")]
GO_CASES: list[tuple[str, list[TestStep]]] = [
    ("primitive", [
        step('"hello world"', "test_one", state=kv.StringExact("hello world")),
        step("200", "test_two", state=kv.Int64Exact(200)),
        step("true", "test_three", state=kv.Bool(True)),
    ]),
    ("complex", [
        step('tolist(["hello", "world"])', "test_one", state=kv.ListExact(HELLO_WORLD)),
        step('tomap({"key1": "hello", "key2": "world"})', "test_two",
             state=kv.MapExact({"key1": HELLO_WORLD[0], "key2": HELLO_WORLD[1]})),
        step('tomap({"key1": "hello", "key2": "world"})', "test_two", empty=True),
    ]),
    ("null", [step(None, "test_one", state=kv.Null())]),
    ("immutable", [
        step('"original value"', "test_one", state=kv.StringExact("original value")),
        # The configuration changes; the echo does not: it is immutable.
        step('["tuple", "of", "values"]', "test_one", state=kv.StringExact("original value"), empty=True),
    ]),
]  # fmt: skip


def runner_for(tf_acceptance: AcceptanceRunner) -> AcceptanceRunner:
    """The fixture's runner with a bounded command timeout: a hang fails instead of blocking."""
    return AcceptanceRunner(tf_acceptance.terraform, tf_acceptance.work_dir, timeout=120)


@pytest.mark.parametrize("steps", [c[1] for c in GO_CASES], ids=[c[0] for c in GO_CASES])
def test_go_echoprovider_cases(tf_acceptance: AcceptanceRunner, steps: list[TestStep]) -> None:
    made = Made()
    runner_for(tf_acceptance).run(TestCase(
        providers={"echo": made},
        terraform_version_checks=[SkipBelow(Version1_0_0)],  # the echo provider is protocol version 6
        steps=steps,
    ))  # fmt: skip
    assert made.providers, "the case never served the echo provider"


def test_go_unknown_case_with_the_null_provider(tf_acceptance: AcceptanceRunner, tf_acceptance_cli_config: Path) -> None:
    """Go's ``_unknown`` case, with ``null_resource``'s id (unknown until apply) for ``random_string``.

    The null provider comes from the suite's offline mirror (``tf_acceptance_cli_config``).
    """
    config = (
        'resource "null_resource" "n" {}\n'
        'provider "echo" {\n  data = null_resource.n.id\n}\n'
        'resource "echo" "test_one" {}\n'
    )
    runner = AcceptanceRunner(tf_acceptance.terraform, tf_acceptance.work_dir, cli_config=tf_acceptance_cli_config, timeout=120)
    runner.run(TestCase(providers={"echo": Made()}, steps=[
        TestStep(
            config=config,
            config_plan_checks=ConfigPlanChecks(pre_apply=[ExpectUnknownValue("echo.test_one", New("data"))]),
            config_state_checks=[statecheck.ExpectKnownValue("echo.test_one", New("data"), kv.StringRegexp(r"^[0-9]+$"))],
        ),
        TestStep(config=config, config_plan_checks=ConfigPlanChecks(pre_apply=[ExpectEmptyPlan()])),
    ]))  # fmt: skip


def ephemeral_config(data: str) -> str:
    """An ephemeral ``echo`` (from an aliased configuration) feeding the default configuration, and one echo resource."""
    return f"""
provider "echo" {{
  alias = "source"
}}

ephemeral "echo" "secret" {{
  provider = echo.source
  data     = {data}
}}

locals {{
  secret = ephemeral.echo.secret.data
}}

provider "echo" {{
  data = local.secret
}}

resource "echo" "test" {{}}
"""


EPHEMERAL_DATA = '{ user = "admin", password = "hunter2", ports = [22, 443] }'
EPHEMERAL_STATE = kv.ObjectExact({
    "user": kv.StringExact("admin"),
    "password": kv.StringExact("hunter2"),
    "ports": kv.TupleExact([kv.Int64Exact(22), kv.Int64Exact(443)]),
})  # fmt: skip


def ephemeral_case(made: Made) -> TestCase:
    return TestCase(
        providers={"echo": made},
        terraform_version_checks=[SkipBelow(Version1_10_0)],  # ephemeral resources: Terraform 1.10
        steps=[
            TestStep(
                config=ephemeral_config(EPHEMERAL_DATA),
                config_plan_checks=ConfigPlanChecks(pre_apply=[ExpectUnknownValue("echo.test", New("data"))]),
                config_state_checks=[statecheck.ExpectKnownValue("echo.test", New("data"), EPHEMERAL_STATE)],
            ),
            # A new ephemeral value: the echo keeps the first, and plans nothing.
            TestStep(
                config=ephemeral_config('"rotated"'),
                config_plan_checks=ConfigPlanChecks(pre_apply=[ExpectEmptyPlan()]),
                config_state_checks=[statecheck.ExpectKnownValue("echo.test", New("data"), EPHEMERAL_STATE)],
            ),
        ],
    )


@pytest.mark.tf_min_version("1.10")  # ephemeral resources; the skip below 1.10 is tested on its own below
def test_an_ephemeral_value_reaches_the_state_through_the_echo_provider(tf_acceptance: AcceptanceRunner) -> None:
    made = Made()
    runner_for(tf_acceptance).run(ephemeral_case(made))
    # One server for the case; Terraform closed every ephemeral resource it opened.
    [provider] = made.providers
    assert provider.open_ephemeral == 0


@pytest.mark.tf_min_version("1.10")
def test_ephemeral_values_are_never_in_the_configs_outputs(tf_acceptance: AcceptanceRunner) -> None:
    """An ephemeral value cannot go into a root output: Terraform says so, and the step expects it."""
    config = ephemeral_config('"x"') + 'output "leak" {\n  value = ephemeral.echo.secret.data\n}\n'
    runner_for(tf_acceptance).run(TestCase(
        providers={"echo": Made()},
        terraform_version_checks=[SkipBelow(Version1_10_0)],
        steps=[TestStep(config=config, expect_error=re.compile(r"Ephemeral value not allowed"))],
    ))  # fmt: skip


def skip_reason(run: Callable[[], Any]) -> str:
    with pytest.raises(unittest.SkipTest) as info:
        run()
    return str(info.value)


def test_the_ephemeral_case_runs_from_1_10_and_skips_below_with_a_clear_reason(tf_acceptance: AcceptanceRunner) -> None:
    version = tf_acceptance.terraform.version
    made = Made()
    if tf_acceptance.terraform.version_tuple >= (1, 10):
        runner_for(tf_acceptance).run(ephemeral_case(made))
        assert len(made.providers) == 1  # served, and the version gate let it through
        return
    reason = skip_reason(lambda: runner_for(tf_acceptance).run(ephemeral_case(made)))
    assert reason == f"Terraform CLI version {version} is below minimum version 1.10.0: skipping test"
    assert made.providers == []  # skipped before any provider was served
