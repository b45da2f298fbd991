"""MockProvider end to end on the Terraform on PATH: numbers cty cannot put in an int64 or float64 stay
exact through plan, apply, refresh and import; a plan-time default of an unknown configuration stays
unknown; import never matches a secret; a default's exception never shows a secret."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from mock_support import CLOUD, CLOUD_SCHEMA, EXAMPLE, SECRET, leak_check, offline_runner

from plancheck import ExpectKnownValue, ExpectResourceAction, ExpectUnknownValue, ResourceAction, statecheck
from plancheck import knownvalue as kv
from plancheck._terraform.mock.provider import MockProvider
from plancheck.acceptance import (
    AcceptanceError,
    AcceptanceRunner,
    ConfigPlanChecks,
    Sensitive,
    TestCase,
    TestStep,
)
from tfjsonpath import New

pytestmark = pytest.mark.e2e
pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")

VARIABLES = {"encryption_key": Sensitive(SECRET)}
EXPIRE = New("lifecycle_rule").AtSliceIndex(0).AtMapKey("expire_days")


def module(expire_days: str = "7") -> str:
    return (EXAMPLE / "main.tf").read_text(encoding="utf-8").replace("expire_days = 7", f"expire_days = {expire_days}")


def mock(**options: Any) -> MockProvider:
    return MockProvider.from_schema_file(CLOUD_SCHEMA, CLOUD, seed=7, **options)


# Terraform 1.0.3 itself shows 2^64 as 18446744073709550000 in its plan JSON: the exact numbers need a newer one.
@pytest.mark.tf_min_version("1.11")
@pytest.mark.parametrize(("literal", "plain"), [
    pytest.param("18446744073709551616", 2**64, id="2^64"),
    pytest.param("-9223372036854775809", -(2**63) - 1, id="-2^63-1"),
    pytest.param("1e400", 10**400, id="1e400"),
    pytest.param("0.1", 0.1, id="0.1"),
    pytest.param("123456789012345678901234567890.5", Decimal("123456789012345678901234567890.5"), id="big-decimal"),
])
def test_a_number_beyond_int64_and_float64_stays_exact(
    tf_acceptance: AcceptanceRunner, private_tmp: Path, literal: str, plain: Any
) -> None:
    cloud = mock()
    exact = kv.NumberExact(Decimal(literal))
    seen: list[Any] = []
    with leak_check(private_tmp) as leaks:
        offline_runner(tf_acceptance).run(TestCase(providers={CLOUD: cloud}, steps=[
            TestStep(
                config=module(literal), variables=VARIABLES,
                config_plan_checks=ConfigPlanChecks(pre_apply=[ExpectKnownValue("cloud_bucket.logs", EXPIRE, exact)]),
                config_state_checks=[statecheck.ExpectKnownValue("cloud_bucket.logs", EXPIRE, exact)],
                check=lambda state: seen.append(cloud.objects("cloud_bucket")[0]["lifecycle_rule"][0]["expire_days"]),
            ),
            TestStep(refresh_state=True,
                     check=lambda state: seen.append(cloud.objects("cloud_bucket")[0]["lifecycle_rule"][0]["expire_days"])),
            TestStep(  # after the refresh: the same exact number in state, and nothing to change
                config=module(literal), variables=VARIABLES,
                config_plan_checks=ConfigPlanChecks(pre_apply=[ExpectResourceAction("cloud_bucket.logs", ResourceAction.NoOp)]),
                config_state_checks=[statecheck.ExpectKnownValue("cloud_bucket.logs", EXPIRE, exact)],
            ),
            TestStep(config=module(literal), variables=VARIABLES, import_state=True, resource_name="cloud_bucket.logs",
                     import_state_verify=True),
        ]))
    assert not leaks[0], leaks[0]
    assert seen == [plain, plain]
    assert cloud.objects("cloud_bucket") == []  # destroyed: nothing left behind


def test_a_plan_time_default_of_an_unknown_configuration_stays_unknown(
    tf_acceptance: AcceptanceRunner, private_tmp: Path
) -> None:
    cloud = mock(override_during="plan", mock_resources={"cloud_access_key": {"secret": lambda c: f"sk-{c['bucket_id']}"}})
    keys: list[tuple[str, str]] = []

    def record(state: Any) -> None:
        (bucket,), (key,) = cloud.objects("cloud_bucket"), cloud.objects("cloud_access_key")
        keys.append((key["secret"], f"sk-{bucket['id']}"))

    with leak_check(private_tmp) as leaks:
        offline_runner(tf_acceptance).run(TestCase(providers={CLOUD: cloud}, steps=[TestStep(
            config=module(), variables=VARIABLES,
            config_plan_checks=ConfigPlanChecks(pre_apply=[ExpectUnknownValue("cloud_access_key.reader", New("secret"))]),
            check=record,
        )]))
    assert not leaks[0], leaks[0]
    assert len(keys) == 1
    assert keys[0][0] == keys[0][1]


@pytest.mark.parametrize(("import_id", "error"), [
    pytest.param("logs", None, id="by-name"),
    pytest.param(SECRET, re.compile("holds no object with that id"), id="never-by-a-secret"),
])
def test_import_never_matches_a_sensitive_attribute(
    tf_acceptance: AcceptanceRunner, private_tmp: Path, import_id: str, error: re.Pattern[str] | None
) -> None:
    runner = offline_runner(tf_acceptance)
    with leak_check(private_tmp) as leaks:
        runner.run(TestCase(providers={CLOUD: mock()}, steps=[
            TestStep(config=module(), variables=VARIABLES),
            TestStep(config=module(), variables=VARIABLES, import_state=True, resource_name="cloud_bucket.logs",
                     import_state_id=import_id, expect_error=error),
        ]))
    assert not leaks[0], leaks[0]
    assert all(SECRET not in c.stdout + c.stderr for c in runner.commands)


def boom(config: dict[str, Any]) -> Any:
    raise ValueError(f"cannot build the arn from {config!r}")


@pytest.mark.parametrize(("defaults", "summary"), [
    pytest.param({"arn": boom}, "the default function raised ValueError", id="raises-with-the-config"),
    pytest.param(lambda c: {"arn": "x", c["encryption_key"]: 1}, "cloud_bucket has no attribute (sensitive)", id="secret-as-a-key"),
])
def test_a_default_s_exception_never_shows_a_secret(
    tf_acceptance: AcceptanceRunner, private_tmp: Path, defaults: Any, summary: str
) -> None:
    runner = offline_runner(tf_acceptance)
    # The secret is a literal in the configuration: the mock knows it only from the schema's sensitive mark.
    config = module().replace("encryption_key = var.encryption_key", f'encryption_key = "{SECRET}"')
    with leak_check(private_tmp) as leaks, pytest.raises(AcceptanceError) as caught:
        runner.run(TestCase(providers={CLOUD: mock(mock_resources={"cloud_bucket": defaults})}, steps=[
            TestStep(config=config, variables=VARIABLES),
        ]))
    assert not leaks[0], leaks[0]
    assert summary in str(caught.value)
    assert SECRET not in str(caught.value) + repr(caught.value)
    assert all(SECRET not in c.stdout + c.stderr for c in runner.commands)
