"""Red team of the runner (#25): cases never share a directory, and a recorded state never replaces one that
tracks resources. Fast, with the scripted fake Terraform."""

from __future__ import annotations

import fnmatch
import json
from pathlib import Path
from typing import Any

import pytest
from acceptance_fakes import EMPTY_PLAN, FakeTerraform, make_fake_terraform, rule

from plancheck._terraform.binary import TerraformBinary
from plancheck.acceptance import (
    AcceptanceError,
    AcceptanceRunner,
    ProviderServerError,
    Sensitive,
    TestCase,
    TestDefinitionError,
    TestStep,
)

CONFIG = 'variable "pw" {\n  sensitive = true\n}\n\noutput "x" {\n  value = 1\n}\n'
FAILING_INIT = rule("init", responses=[{"exit": 1, "stderr": "Error: stop here\n"}])


@pytest.fixture
def fake(tmp_path: Path) -> FakeTerraform:
    return make_fake_terraform(tmp_path / "bin")


def make_runner(fake: FakeTerraform, work: Path) -> AcceptanceRunner:
    return AcceptanceRunner(TerraformBinary(str(fake.path), "1.9.0"), work, env=fake.env(), echo=False,
                            require_tf_acc=False)


def test_two_runners_on_one_work_dir_never_share_a_case_directory(fake: FakeTerraform, tmp_path: Path) -> None:
    """Each runner counted its cases from case1, so a second runner on the same work_dir (as a test that makes
    its own runner beside tf_acceptance's does) ran in the first one's directory: among its files (a main.tf.json
    Terraform reads with the new main.tf) and over its state."""
    fake.script(FAILING_INIT)
    work = tmp_path / "work"
    first, second = make_runner(fake, work), make_runner(fake, work)
    with pytest.raises(AcceptanceError):
        first.run(TestCase(steps=[TestStep(config={"output": {"x": {"value": 1}}})]))
    with pytest.raises(AcceptanceError):
        second.run(TestCase(steps=[TestStep(config=CONFIG)]))
    assert sorted(p.name for p in work.glob("case*")) == ["case1", "case2"]
    assert [c.cwd for c in first.commands] == [str(work / "case1")]
    assert [c.cwd for c in second.commands] == [str(work / "case2")]
    assert [call["files"] for call in fake.calls()] == [["main.tf.json"], ["main.tf"]]


@pytest.mark.parametrize(("name", "reason"), [
    pytest.param("a-file", "Not a directory", id="a-file"),
    pytest.param("a-file/below", "Not a directory", id="below-a-file"),
    pytest.param("a\0b", "a name the system cannot open (embedded null byte)", id="nul-byte"),
    pytest.param("\ud800", "a name the system cannot open ('utf-8' codec can't encode character '\\ud800' in position *: "
                 "surrogates not allowed)", id="lone-surrogate"),
])
def test_a_working_dir_that_cannot_be_made_is_the_cases_definition_error(
    fake: FakeTerraform, tmp_path: Path, name: str, reason: str,
) -> None:
    """pathlib's mkdir raised a bare FileExistsError, NotADirectoryError, ValueError ('embedded null byte') or
    UnicodeEncodeError out of AcceptanceRunner.run, naming no argument, before any Terraform command."""
    (tmp_path / "a-file").write_text("")
    with pytest.raises(TestDefinitionError) as info:
        make_runner(fake, tmp_path / "work").run(TestCase(steps=[TestStep(config=CONFIG)], working_dir=tmp_path / name))
    assert fnmatch.fnmatchcase(str(info.value), f"TestCase.working_dir: {tmp_path / name}: cannot make the directory: {reason}")
    assert fake.calls() == []


HELD = "an entry no environment can hold (a NUL byte, a lone surrogate, or an = in its name)"


@pytest.mark.parametrize(("arguments", "message"), [
    # Taken as True: echo="no" echoed every command and its output.
    pytest.param({"echo": "no"}, "AcceptanceRunner.echo: expected a bool, got str", id="echo-no-bool"),
    pytest.param({"require_tf_acc": "no"}, "AcceptanceRunner.require_tf_acc: expected a bool, got str",
                 id="require_tf_acc-no-bool"),
    # Each was a bare ValueError ('embedded null byte', 'illegal environment variable name'), UnicodeEncodeError or
    # TypeError from Popen inside the first command, after the case's directory was made.
    pytest.param({"env": {"TF_VAR_pw": "zz-secret\0"}}, f"AcceptanceRunner.env['TF_VAR_pw']: {HELD}", id="env-nul-value"),
    pytest.param({"env": {"TF_VAR_pw": "\ud800zz-secret"}}, f"AcceptanceRunner.env['TF_VAR_pw']: {HELD}",
                 id="env-surrogate-value"),
    pytest.param({"env": {"A=B": "b"}}, f"AcceptanceRunner.env['A=B']: {HELD}", id="env-equals-in-name"),
    pytest.param({"env": {"A\0": "b"}}, f"AcceptanceRunner.env: {HELD}", id="env-nul-in-name"),
    pytest.param({"env": {"A": 5}}, "AcceptanceRunner.env['A']: expected a str name and value, got str and int",
                 id="env-number-value"),
    pytest.param({"env": ["A=b"]}, "AcceptanceRunner.env: expected a mapping of str to str, got list", id="env-list"),
    pytest.param({"cli_config": "tf\0.rc"},
                 "AcceptanceRunner.cli_config: a name the system cannot take (a NUL byte or a lone surrogate)",
                 id="cli-config-nul"),
])
def test_a_runner_argument_it_cannot_take_is_a_definition_error(
    fake: FakeTerraform, tmp_path: Path, arguments: dict[str, Any], message: str,
) -> None:
    with pytest.raises(TestDefinitionError) as info:
        AcceptanceRunner(TerraformBinary(str(fake.path), "1.9.0"), tmp_path / "work", **arguments)
    assert str(info.value) == message
    assert "zz-secret" not in str(info.value)


@pytest.mark.parametrize(("name", "problem"), [
    # Terraform only warns of a CLI configuration it cannot read and runs without it: init then failed saying
    # "no provider mirror is set up", whatever mirror the file sets up.
    pytest.param("missing.rc", "No such file or directory", id="missing"),
    pytest.param("a-directory", "Is a directory", id="directory"),
])
def test_a_cli_config_that_cannot_be_read_is_a_definition_error(
    fake: FakeTerraform, tmp_path: Path, name: str, problem: str,
) -> None:
    (tmp_path / "a-directory").mkdir()
    with pytest.raises(TestDefinitionError) as info:
        AcceptanceRunner(TerraformBinary(str(fake.path), "1.9.0"), tmp_path / "work", cli_config=tmp_path / name)
    assert str(info.value) == f"AcceptanceRunner.cli_config: cannot read {tmp_path / name}: {problem}"
    assert fake.calls() == []


def state_document(*resources: str) -> dict[str, Any]:
    return {
        "version": 4, "terraform_version": "1.0.3", "serial": 7, "lineage": "live-lineage", "outputs": {},
        "resources": [
            {"mode": "managed", "type": "null_resource", "name": name, "provider": "provider[\"x\"]",
             "instances": [{"schema_version": 0, "attributes": {"id": "1"}}]}
            for name in resources
        ],
    }


RECORDED = state_document("recorded")


@pytest.mark.parametrize(
    ("existing", "reason"),
    [
        pytest.param(json.dumps(state_document("a", "b")),
                     "cannot write initial_state: {dir}/terraform.tfstate holds a state that tracks null_resource.a, "
                     "null_resource.b: writing the recorded state over it would lose track of them; destroy them first, "
                     "or give the case another working_dir", id="a-state-with-resources"),
        pytest.param("{not json",
                     "cannot write initial_state: {dir}/terraform.tfstate holds something that cannot be read as a state "
                     "(so it may track resources): remove it first, or give the case another working_dir",
                     id="an-unreadable-state"),
    ],
)
def test_initial_state_never_replaces_a_state_that_tracks_resources(
    fake: FakeTerraform, tmp_path: Path, existing: str, reason: str
) -> None:
    """TestCase(working_dir=...) may point at a directory whose state still tracks real resources (a case whose
    destroy failed): the recorded state was written over it, and whatever it tracked was lost."""
    directory = tmp_path / "given"
    directory.mkdir()
    (directory / "terraform.tfstate").write_text(existing)
    with pytest.raises(AcceptanceError) as info:
        make_runner(fake, tmp_path / "work").run(
            TestCase(working_dir=directory, initial_state=RECORDED, steps=[TestStep(config=CONFIG)]))
    assert str(info.value) == "step 1/1, config: " + reason.format(dir=directory)
    assert (directory / "terraform.tfstate").read_text() == existing
    assert fake.calls() == []


@pytest.mark.parametrize(
    "existing",
    [pytest.param(json.dumps(state_document()), id="a-state-destroyed-to-nothing"),
     pytest.param(None, id="no-state")],
)
def test_initial_state_replaces_a_state_that_tracks_nothing(
    fake: FakeTerraform, tmp_path: Path, existing: str | None
) -> None:
    fake.script(FAILING_INIT)
    directory = tmp_path / "given"
    directory.mkdir()
    if existing is not None:
        (directory / "terraform.tfstate").write_text(existing)
    with pytest.raises(AcceptanceError, match="init"):
        make_runner(fake, tmp_path / "work").run(
            TestCase(working_dir=directory, initial_state=RECORDED, steps=[TestStep(config=CONFIG)]))
    assert json.loads((directory / "terraform.tfstate").read_text())["lineage"] == "live-lineage"
    assert json.loads((directory / "terraform.tfstate").read_text())["resources"][0]["name"] == "recorded"


# -- what stopping the providers reports never shows a secret of the case ---------------------------------------

SECRET = "zz-stop-secret-4417"


def gadget(tmp_path: Path) -> Any:
    from plancheck.acceptance import ReattachConfig, ReattachProvider

    def stop(config: Any) -> None:
        raise RuntimeError(f"the gadget server refused to stop: token {SECRET} is revoked")

    return ReattachProvider("example.com/acme/gadget", start=lambda d: ReattachConfig(f"{d}/g.sock"), stop=stop)


def secret_step() -> TestStep:
    return TestStep(config=CONFIG, variables={"pw": Sensitive(SECRET)}, plan_only=True)


def test_a_stop_failure_after_a_passing_case_shows_no_secret(fake: FakeTerraform, tmp_path: Path) -> None:
    """Red team (#25): the ProviderServerError of a provider that could not be stopped carried stop()'s text as
    it was, a value of the case's Sensitive variables included."""
    fake.script(rule("show", "-json", "tfplan", responses=[{"stdout": EMPTY_PLAN}]))
    with pytest.raises(ProviderServerError) as info:
        make_runner(fake, tmp_path / "work").run(TestCase(providers={"example.com/acme/gadget": gadget(tmp_path)},
                                                          steps=[secret_step()]))
    assert str(info.value) == (
        "provider (case): example.com/acme/gadget: stop() raised RuntimeError: the gadget server refused to stop: "
        "token (sensitive) is revoked"
    )


def test_a_stop_failure_after_a_failed_case_is_logged_without_secrets(
    fake: FakeTerraform, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake.script(FAILING_INIT)
    runner = AcceptanceRunner(TerraformBinary(str(fake.path), "1.9.0"), tmp_path / "work", env=fake.env(),
                              require_tf_acc=False)
    with pytest.raises(AcceptanceError):
        runner.run(TestCase(providers={"example.com/acme/gadget": gadget(tmp_path)}, steps=[secret_step()]))
    out = capsys.readouterr().out
    assert "[providers] example.com/acme/gadget: stop() raised RuntimeError: the gadget server refused to stop: " \
           "token (sensitive) is revoked" in out
    assert SECRET not in out


# -- variables: numbers of any size, written exactly --------------------------------------------------------

BIG = 10**5000
PRECISE = "12345678901234567890.1234567890123"


@pytest.mark.parametrize("wrap", [lambda v: v, Sensitive], ids=["plain", "sensitive"])
def test_variables_are_written_exactly_whatever_their_size(fake: FakeTerraform, tmp_path: Path, wrap: Any) -> None:
    """Red team (#25): an int of more than 4300 digits raised a bare ValueError out of the runner (str() of it for
    the secrets, json.dumps for the variables file), and a Decimal was written rounded through a float
    (1.2345678901234567e+19): Terraform's numbers have neither limit."""
    from decimal import Decimal

    fake.script(FAILING_INIT)
    work = tmp_path / "work"
    with pytest.raises(AcceptanceError, match="init"):
        make_runner(fake, work).run(TestCase(steps=[TestStep(
            config=CONFIG, variables={"big": wrap(BIG), "precise": wrap(Decimal(PRECISE))})]))
    written = (work / "case1" / "terraform.tfvars.json").read_text()
    assert written == '{\n  "big": 1' + "0" * 5000 + f',\n  "precise": {PRECISE}\n}}'



def test_a_sensitive_number_of_any_size_is_a_secret() -> None:
    from decimal import Decimal

    step = TestStep(config=CONFIG, variables={"big": Sensitive(BIG), "precise": Sensitive(Decimal(PRECISE)),
                                              "ratio": Sensitive(0.125)})
    assert sorted(step.secrets) == sorted(["1" + "0" * 5000, PRECISE, "0.125"])


@pytest.mark.parametrize(("signum", "name"), [pytest.param(9, "SIGKILL", id="SIGKILL"),
                                              pytest.param(15, "SIGTERM", id="SIGTERM")])
def test_a_terraform_killed_by_a_signal_is_named_in_each_front_end(
    fake: FakeTerraform, tmp_path: Path, signum: int, name: str,
) -> None:
    """A Terraform killed from outside (the out-of-memory killer) prints nothing: before, the runner said
    "terraform plan failed" and mock-plan "terraform plan failed: exit status -9", the signal left to decode."""
    import io
    import os

    from plancheck.cli._command import run

    fake.script(rule("plan", responses=[{"signal": signum}]))
    with pytest.raises(AcceptanceError) as info:
        make_runner(fake, tmp_path / "work").run(TestCase(steps=[TestStep(config=CONFIG, variables={"pw": "x"})]))
    assert str(info.value).splitlines()[:2] == [
        f"step 1/1, pre_apply: terraform plan was killed by {name}",
        f"command: terraform plan -input=false -no-color -out=tfplan (exit code -{signum})"]

    pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    module = Path(__file__).resolve().parents[2] / "examples" / "mock_module"
    out, err = io.StringIO(), io.StringIO()
    status = run(["mock-plan", str(module), "--mock", f"acme/cloud={module / 'cloud.schema.json'}", "--terraform",
                  str(fake.path), "--var", "encryption_key=x"], stdout=out, stderr=err, environ={**os.environ, **fake.env()})
    assert (status, err.getvalue()) == (2, f"tfplancheck: error: terraform plan was killed by {name}:\nexit status -{signum}\n")
