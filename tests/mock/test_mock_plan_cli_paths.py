"""``tfplancheck mock-plan``: --timeout is checked when parsed, and a module reaching outside DIR is copied whole.

Local module sources (``../lib``) and symlinked files work as they do with Terraform run in place: the
copy keeps the directories' relative layout and holds each symlink's target, never the link.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from clirun import automation, cli
from hypothesis import given, settings
from hypothesis import strategies as st
from mock_support import CLOUD_SCHEMA, leak_check

from plancheck._errors import TfCheckError
from plancheck._terraform.binary import MAX_TIMEOUT, TimeoutValueError, check_timeout, run_command
from plancheck._terraform.mock.plan import _hcl_module_calls, _json_module_calls, _lexical_join, copy_module
from plancheck.acceptance import MockPlanArgumentError
from plancheck.cli._mock_plan import _seconds

EXPECTED = "a number of seconds greater than 0 and at most 604800 (a week)"
MOCK = f"acme/cloud={CLOUD_SCHEMA}"
VERSIONS = 'terraform {\n  required_providers {\n    cloud = { source = "acme/cloud" }\n  }\n}\n'


# --- 1. --timeout and run_command's timeout ---------------------------------------------------------------------

BAD_TIMEOUTS = [
    pytest.param(["--timeout", "nan"], "nan", id="nan"),
    pytest.param(["--timeout", "-5"], "-5", id="negative"),
    pytest.param(["--timeout", "0"], "0", id="zero"),
    pytest.param(["--timeout=-0.0"], "-0.0", id="negative-zero"),
    pytest.param(["--timeout", "inf"], "inf", id="inf"),
    pytest.param(["--timeout=-inf"], "-inf", id="minus-inf"),
    pytest.param(["--timeout", "1e999"], "1e999", id="overflows-to-inf"),
    pytest.param(["--timeout", "604800.5"], "604800.5", id="over-a-week"),
    pytest.param(["--timeout", "1e7"], "1e7", id="past-subprocess-limit"),
    pytest.param(["--timeout", "abc"], "abc", id="not-a-number"),
    pytest.param(["--timeout", ""], "", id="empty"),
]


@pytest.mark.parametrize(("flag", "shown"), BAD_TIMEOUTS)
def test_a_bad_timeout_is_a_usage_error_when_parsed(flag: list[str], shown: str, tmp_path: Path) -> None:
    # DIR does not exist: the argument is refused before anything else is looked at.
    status, out, err = cli("mock-plan", str(tmp_path / "nowhere"), "--mock", MOCK, *flag, environ=automation())
    assert status == 2
    assert err.splitlines()[0] == f"tfplancheck: error: argument --timeout: invalid value {shown!r}: expected {EXPECTED}"
    assert err.splitlines()[1].startswith("usage: tfplancheck mock-plan")
    assert "Traceback" not in err
    assert out == ""


def test_a_bad_timeout_in_json_mode_is_an_error_document(tmp_path: Path) -> None:
    status, out, _ = cli("mock-plan", str(tmp_path), "--mock", MOCK, "--format", "json", "--timeout", "nan",
                         environ=automation())
    assert status == 2
    assert json.loads(out)["error"] == {
        "kind": "usage", "message": f"argument --timeout: invalid value 'nan': expected {EXPECTED}",
    }


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("600", 600.0), (" 0.25 ", 0.25), ("1e-3", 0.001), ("604800", 604800.0), ("+30", 30.0)],
    ids=["integer", "spaces", "exponent", "a-week", "plus-sign"],
)
def test_a_good_timeout_is_a_float(text: str, seconds: float) -> None:
    assert _seconds(text) == seconds


REFUSED = [
    pytest.param(float("nan"), "timeout nan", id="nan"),
    pytest.param(float("inf"), "timeout inf", id="inf"),
    pytest.param(float("-inf"), "timeout -inf", id="minus-inf"),
    pytest.param(0, "timeout 0", id="zero"),
    pytest.param(-5.0, "timeout -5.0", id="negative"),
    pytest.param(MAX_TIMEOUT + 1, "timeout 604801.0", id="over-a-week"),
    pytest.param(10**400, f"timeout {10**400!r}", id="huge-int"),
    pytest.param(True, "timeout True", id="bool"),
    pytest.param("30", "timeout '30'", id="string"),
    pytest.param(None, "timeout None", id="none"),
]


@pytest.mark.parametrize(("timeout", "start"), REFUSED)
def test_run_command_refuses_a_bad_timeout_before_running(timeout: object, start: str, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    with pytest.raises(TimeoutValueError) as info:
        run_command([sys.executable, "-c", f"open({str(marker)!r}, 'w')"], cwd=tmp_path, env=os.environ,
                    timeout=timeout)  # type: ignore[arg-type]
    assert str(info.value) == f"{start}: expected {EXPECTED}"
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, TfCheckError)
    assert info.value.timeout is timeout
    assert str(pickle.loads(pickle.dumps(info.value))) == str(info.value)
    assert not marker.exists()


def test_run_command_accepts_the_longest_timeout(tmp_path: Path) -> None:
    # Past about 24.8 days subprocess raises OverflowError: the limit keeps clear of it.
    result = run_command([sys.executable, "-c", "print('ok')"], cwd=tmp_path, env=os.environ, timeout=MAX_TIMEOUT)
    assert (result.ok, result.stdout) == (True, "ok\n")


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-(10**20), 10**20)))
def test_check_timeout_accepts_exactly_the_positive_numbers_up_to_a_week(value: float) -> None:
    if 0 < value <= MAX_TIMEOUT:
        assert check_timeout(value) == float(value)
    else:
        with pytest.raises(TimeoutValueError):
            check_timeout(value)


# --- 1b. --out where the module's next plan would read it as configuration ----------------------------------------

# Terraform reads every .tf, .tf.json (OpenTofu's .tofu too) and automatic variables file of a module's directory:
# the plan JSON written there as one failed (or changed) the module's next plan. Refused before anything runs.
OUT_INSIDE = [
    pytest.param("plan.tf.json", True, id="tf-json-in-the-module"),
    pytest.param("plan.tf", True, id="tf-in-the-module"),
    pytest.param("plan.tofu.json", True, id="tofu-json-in-the-module"),
    pytest.param("terraform.tfvars.json", True, id="auto-variables-in-the-module"),
    pytest.param("plan.auto.tfvars.json", True, id="auto-tfvars-in-the-module"),
    pytest.param("plan.json", False, id="plan-json-in-the-module-is-fine"),
    pytest.param("plan.tfvars.json", False, id="tfvars-not-loaded-by-itself-is-fine"),
    pytest.param(".plan.tf.json", False, id="hidden-file-terraform-skips"),
    pytest.param("../plan.tf.json", False, id="tf-json-outside-the-module"),
    pytest.param("sub/plan.tf.json", False, id="tf-json-in-a-subdirectory"),
]


@pytest.mark.parametrize(("name", "refused"), OUT_INSIDE)
def test_out_as_a_file_the_module_reads_is_a_usage_error(tmp_path: Path, name: str, refused: bool) -> None:
    module = tmp_path / "mod"
    (module / "sub").mkdir(parents=True)
    (module / "main.tf").write_text(VERSIONS, encoding="utf-8")
    out = module / name
    # A Terraform that does not exist: a refused --out stops the run before Terraform is looked for.
    status, _, err = cli("mock-plan", str(module), "--mock", MOCK, "--out", str(out),
                         "--terraform", str(tmp_path / "no-terraform"), environ=automation())
    assert status == 2
    if refused:
        assert err == (f"tfplancheck: error: --out {out}: Terraform would read the plan JSON as configuration of the "
                       f"module {module} the next time it is planned (it reads every .tf, .tf.json and automatic "
                       ".tfvars file in the module's directory); write it outside the module or under another name, "
                       "such as plan.json\n")
    else:
        assert err.startswith(f"tfplancheck: error: cannot use Terraform binary {tmp_path}/no-terraform")
    assert not out.exists()


# A symbolic link the plan would be written through (found red-teaming #34): out.write_text follows it into the module.
OUT_LINKED = [
    pytest.param("elsewhere/plan.json", "mod/plan.tf.json", True, id="a-link-to-a-configuration-file-of-the-module"),
    pytest.param("elsewhere/plan.json", "mod/terraform.tfvars", True, id="a-link-to-an-automatic-variables-file"),
    pytest.param("elsewhere/plan.json", "mod/plan.json", False, id="a-link-to-plan-json-in-the-module-is-fine"),
    pytest.param("mod/plan.tf.json", "elsewhere/plan.json", True, id="a-configuration-file-of-the-module-linked-away"),
]


@pytest.mark.parametrize(("link", "target", "refused"), OUT_LINKED)
def test_out_through_a_link_into_the_module_is_a_usage_error(tmp_path: Path, link: str, target: str,
                                                              refused: bool) -> None:
    module = tmp_path / "mod"
    module.mkdir()
    (tmp_path / "elsewhere").mkdir()
    (module / "main.tf").write_text(VERSIONS, encoding="utf-8")
    (tmp_path / link).symlink_to(tmp_path / target)
    out = tmp_path / link
    status, _, err = cli("mock-plan", str(module), "--mock", MOCK, "--out", str(out),
                         "--terraform", str(tmp_path / "no-terraform"), environ=automation())
    assert status == 2
    if refused:
        assert err.startswith(f"tfplancheck: error: --out {out}: Terraform would read the plan JSON as configuration")
    else:
        assert err.startswith(f"tfplancheck: error: cannot use Terraform binary {tmp_path}/no-terraform")
    assert not (tmp_path / target).exists()


def test_out_relative_to_the_module_run_from_inside_it_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "main.tf").write_text(VERSIONS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    status, _, err = cli("mock-plan", ".", "--mock", MOCK, "--out", "plan.tf.json", environ=automation())
    assert status == 2
    assert err.startswith("tfplancheck: error: --out plan.tf.json: Terraform would read the plan JSON as configuration "
                          "of the module . the next time")


# --- 2. finding local module sources ---------------------------------------------------------------------------

HCL = [
    pytest.param('module "lib" {\n  source = "../lib"\n}\n', [("lib", "../lib")], id="plain"),
    pytest.param("module lib { source = \"./lib\" }", [("lib", "./lib")], id="identifier-label"),
    pytest.param('module "a" { source = "./a" }\nmodule "b" {\n  count  = 2\n  source = "../b"\n}\n',
                 [("a", "./a"), ("b", "../b")], id="two-blocks"),
    pytest.param('module "a" {\r\n  source = "./a"\r\n}\r\n', [("a", "./a")], id="crlf"),
    pytest.param('# module "x" { source = "../x" }\nmodule "a" { source = "./a" }', [("a", "./a")], id="hash-comment"),
    pytest.param('// module "x" { source = "../x" }\nmodule "a" { source = "./a" }', [("a", "./a")], id="slash-comment"),
    pytest.param('/* module "x" {\n  source = "../x"\n} */\nmodule "a" { source = "./a" }', [("a", "./a")],
                 id="block-comment"),
    pytest.param('/* module "a" { source = "./a" }', [], id="unclosed-block-comment"),
    pytest.param('locals {\n  doc = <<-EOT\n    module "x" { source = "../x" }\n    }\n    EOT\n}\n'
                 'module "a" { source = "./a" }', [("a", "./a")], id="heredoc"),
    pytest.param('locals { s = "}{" }\nmodule "a" { source = "./a" }', [("a", "./a")], id="braces-in-a-string"),
    pytest.param('locals { s = "${ {k = "}"}["k"] }" }\nmodule "a" { source = "./a" }', [("a", "./a")],
                 id="quotes-and-braces-in-an-interpolation"),
    pytest.param('locals { s = "a\\"}" }\nmodule "a" { source = "./a" }', [("a", "./a")], id="escaped-quote"),
    pytest.param('module "a" {\n  source = "./a"\n  providers = { source = "../nope" }\n}', [("a", "./a")],
                 id="source-in-a-nested-object"),
    pytest.param('resource "x" "y" { source = "../x" }', [], id="source-of-a-resource"),
    pytest.param('x { module "a" { source = "./a" } }', [], id="module-block-not-at-top-level"),
    pytest.param(VERSIONS, [], id="required-providers"),
    pytest.param('module "a" { source = "${path.module}/a" }', [], id="interpolated-source"),
    pytest.param('module "a" { source = "./$${x}" }', [("a", "./${x}")], id="escaped-interpolation"),
    pytest.param('module "a" { x = source == "../x" ? 1 : 2 }', [], id="comparison-is-no-assignment"),
    pytest.param('locals { s = "abc\n}\nmodule "a" { source = "./a" }', [("a", "./a")], id="unterminated-string"),
    pytest.param('module "a" {', [], id="truncated"),
    pytest.param('"' + "${" * 5000, [], id="deeply-nested-interpolations"),
]


@pytest.mark.parametrize(("text", "calls"), HCL)
def test_module_calls_of_native_syntax(text: str, calls: list[tuple[str, str]]) -> None:
    assert _hcl_module_calls(text) == calls


JSON = [
    pytest.param('{"module": {"lib": {"source": "../lib"}}}', [("lib", "../lib")], id="object"),
    pytest.param('{"module": [{"a": {"source": "./a"}}, {"b": [{"source": "../b"}]}]}', [("a", "./a"), ("b", "../b")],
                 id="arrays"),
    pytest.param('{"module": {"a": {"source": 3}}}', [], id="source-not-a-string"),
    pytest.param('{"module": "x"}', [], id="module-not-an-object"),
    pytest.param('[{"module": {"a": {"source": "./a"}}}]', [], id="document-not-an-object"),
    pytest.param('{"module": ', [], id="not-json"),
    pytest.param("[" * 100_000, [], id="too-deep"),
]


@pytest.mark.parametrize(("text", "calls"), JSON)
def test_module_calls_of_json_syntax(text: str, calls: list[tuple[str, str]]) -> None:
    assert _json_module_calls(text) == calls


NAMES = st.from_regex(r"[a-z][a-z0-9_-]{0,8}", fullmatch=True)
SOURCES = st.from_regex(r"\.\.?/[a-z0-9_./-]{0,12}", fullmatch=True)
FILLERS = st.sampled_from(["", "\n", "# }\n", "// {\n", "/* } */", 'locals { s = "}" }\n'])


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(NAMES, SOURCES, FILLERS), max_size=4))
def test_both_syntaxes_give_the_calls_they_were_written_from(calls: list[tuple[str, str, str]]) -> None:
    hcl = "".join(f'{filler}module "{name}" {{\n  {filler}source = "{source}"\n}}\n' for name, source, filler in calls)
    document = {"module": [{name: {"source": source}} for name, source, _ in calls]}
    expected = [(name, source) for name, source, _ in calls]
    assert _hcl_module_calls(hcl) == expected
    assert _json_module_calls(json.dumps(document)) == expected


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet='{}[]()"$%\\#/*<-=\n ams"EOTodule', max_size=120))
def test_reading_module_calls_never_raises(text: str) -> None:
    assert isinstance(_hcl_module_calls(text), list)


@pytest.mark.parametrize(
    ("directory", "source", "joined"),
    [
        ("/repo/envs/prod", "../../modules/lib", "/repo/modules/lib"),
        ("/repo", "./a/./b/../c/", "/repo/a/c"),
        ("/repo", "./", "/repo"),
        ("/", "./x", "/x"),
        ("/repo", "../x", "/x"),
        ("/repo", "../../x", None),
        ("/", "../x", None),
        ("/a/b", "./c/../../../..", None),
    ],
    ids=["up-two", "dots-and-trailing-slash", "itself", "from-the-root", "to-the-root", "above-the-root",
         "above-the-root-from-it", "above-after-descending"],
)
def test_a_source_is_joined_on_the_text(directory: str, source: str, joined: str | None) -> None:
    assert _lexical_join(directory, source) == joined


# --- 2. copying DIR with the local modules it reaches -----------------------------------------------------------


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def link(path: Path, target: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target)


def repository(base: Path) -> Path:
    """envs/prod uses ../../modules/lib, which uses ../util; each one's versions.tf is a symlink to shared/."""
    write(base / "shared" / "versions.tf", VERSIONS)
    prod = base / "envs" / "prod"
    write(prod / "main.tf", 'module "lib" {\n  source = "../../modules/lib"\n  name   = "logs"\n}\n'
          'output "arn" {\n  value = module.lib.arn\n}\n')
    link(prod / "versions.tf", "../../shared/versions.tf")
    lib = base / "modules" / "lib"
    write(lib / "main.tf", 'variable "name" {\n  type = string\n}\n'
          'resource "cloud_bucket" "b" {\n  name = "${var.name}-${file("${path.module}/files/suffix.txt")}"\n}\n'
          'module "util" {\n  source    = "../util"\n  bucket_id = cloud_bucket.b.id\n}\n'
          'output "arn" {\n  value = cloud_bucket.b.arn\n}\n')
    link(lib / "versions.tf", "../../shared/versions.tf")
    write(base / "shared" / "suffix.txt", "eu")
    link(lib / "files" / "suffix.txt", "../../../shared/suffix.txt")
    util = base / "modules" / "util"
    write(util / "main.tf.json", json.dumps({
        "variable": {"bucket_id": {"type": "string"}},
        "resource": {"cloud_access_key": {"k": {"bucket_id": "${var.bucket_id}"}}},
    }))
    link(util / "versions.tf", "../../shared/versions.tf")
    return prod


def snapshot(base: Path) -> list[tuple[str, str]]:
    """Every path under ``base`` with what it is: the link's target, the file's content, or a directory."""
    found = []
    for path in sorted(base.rglob("*")):
        if path.is_symlink():
            found.append((str(path.relative_to(base)), f"-> {os.readlink(path)}"))
        elif path.is_file():
            found.append((str(path.relative_to(base)), path.read_text(encoding="utf-8")))
        else:
            found.append((str(path.relative_to(base)), "dir"))
    return found


def test_the_copy_keeps_the_layout_and_holds_the_targets(tmp_path: Path) -> None:
    base = Path(os.path.realpath(tmp_path)) / "repo"
    prod = repository(base)
    before = snapshot(base)
    copy = copy_module(prod, tmp_path / "out" / "module")
    assert copy == tmp_path / "out" / "module" / "envs" / "prod"
    tree = tmp_path / "out" / "module"
    assert [p for p in tree.rglob("*") if p.is_symlink()] == []
    assert sorted(str(p.relative_to(tree)) for p in tree.rglob("*") if p.is_file()) == [
        "envs/prod/main.tf", "envs/prod/versions.tf", "envs/prod/zz_tfplancheck_mock_override.tf",
        "modules/lib/files/suffix.txt", "modules/lib/main.tf", "modules/lib/versions.tf",
        "modules/util/main.tf.json", "modules/util/versions.tf",
    ]
    assert (copy / "versions.tf").read_text(encoding="utf-8") == VERSIONS
    assert (tree / "modules" / "lib" / "files" / "suffix.txt").read_text(encoding="utf-8") == "eu"
    assert snapshot(base) == before  # nothing written to, or beside, the user's directories


@pytest.mark.parametrize(
    ("source", "copied"),
    [
        ("./sub", ["main.tf", "sub/main.tf", "zz_tfplancheck_mock_override.tf"]),
        ("../", ["root/main.tf", "root/sub/main.tf", "root/zz_tfplancheck_mock_override.tf"]),
    ],
    ids=["module-inside-dir", "module-is-dir-s-parent"],
)
def test_a_module_inside_another_is_copied_once(tmp_path: Path, source: str, copied: list[str]) -> None:
    base = Path(os.path.realpath(tmp_path)) / "in"
    write(base / "root" / "main.tf", f'module "m" {{\n  source = "{source}"\n}}\n')
    write(base / "root" / "sub" / "main.tf", "")
    tree = tmp_path / "out"
    copy_module(base / "root", tree)
    assert sorted(str(p.relative_to(tree)) for p in tree.rglob("*") if p.is_file()) == copied


def refusals(base: Path) -> Iterator[tuple[str, Path, str]]:
    """(id, DIR, the message) of each layout mock-plan refuses; ``base`` is a real path."""
    root = base / "root"
    up = "../" * len(root.parts)
    write(root / "main.tf", f'module "far" {{\n  source = "{up}x"\n}}\n')
    yield "leaves-the-root", root, f'{root}/main.tf: module "far": source "{up}x" leaves the filesystem root'

    shutil.rmtree(root)
    write(root / "main.tf", 'module "lib" {\n  source = "../missing"\n}\n')
    yield "missing", root, f'{root}/main.tf: module "lib": source "../missing" is not a directory: {base}/missing'

    write(base / "file.txt", "")
    write(root / "main.tf", 'module "lib" {\n  source = "../file.txt"\n}\n')
    yield "a-file", root, f'{root}/main.tf: module "lib": source "../file.txt" is not a directory: {base}/file.txt'

    write(root / "main.tf", 'module "lib" {\n  source = "../lib"\n}\n')
    write(base / "lib" / "main.tf.json", '{"module": {"util": {"source": "./nowhere"}}}')
    yield "nested-missing", root, (f'{base}/lib/main.tf.json: module "util": source "./nowhere" is not a directory: '
                                   f"{base}/lib/nowhere")

    shutil.rmtree(base / "lib")
    write(root / "main.tf", "")
    link(root / "data" / "loop", "../..")
    yield "symlink-loop", root, f"{root}/data/loop: a symlink to a directory that contains it: cannot copy the module"

    shutil.rmtree(root / "data")
    link(root / "extra.tf", "gone.tf")
    yield "broken-config-symlink", root, f"{root}/extra.tf: a broken symlink (to gone.tf)"


def test_layouts_that_cannot_be_copied_are_refused_in_one_line(tmp_path: Path) -> None:
    base = Path(os.path.realpath(tmp_path)) / "in"
    seen = []
    for case, root, message in refusals(base):
        out = tmp_path / f"out-{case}"
        with pytest.raises(MockPlanArgumentError) as info:
            copy_module(root, out / "module")
        assert (case, info.value.argument, str(info.value)) == (case, "module_dir", message)
        assert "\n" not in str(info.value)
        seen.append(case)
    assert len(seen) == 6


def test_a_broken_symlink_terraform_never_reads_is_left_out(tmp_path: Path) -> None:
    root = write(tmp_path / "root" / "main.tf", "").parent
    link(root / "notes.md", "gone.md")
    tree = tmp_path / "out"
    copy = copy_module(root, tree)
    assert sorted(p.name for p in copy.iterdir()) == ["main.tf", "zz_tfplancheck_mock_override.tf"]


# --- 2. end to end, on the real Terraform on PATH ---------------------------------------------------------------


@pytest.fixture
def terraform() -> str:
    pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    found = shutil.which("terraform")
    if found is None:
        pytest.skip("terraform is not on PATH")
    return found


@pytest.mark.e2e
def test_a_module_with_a_local_module_and_symlinks_is_planned(
    terraform: str, tmp_path: Path, private_tmp: Path
) -> None:
    base = tmp_path / "repo"
    prod = repository(base)
    before = snapshot(base)
    with leak_check(private_tmp) as leaks:
        status, out, err = cli("mock-plan", str(prod), "--mock", MOCK, "--terraform", terraform, environ=automation())
    assert (status, err) == (0, ""), err
    assert out.split() == ["module.lib.cloud_bucket.b", "create", "module.lib.module.util.cloud_access_key.k",
                           "create", "output.arn", "create"]
    assert not leaks[0], leaks[0]
    assert snapshot(base) == before


@pytest.mark.e2e
def test_a_missing_local_module_is_one_line_exit_2(terraform: str, tmp_path: Path, private_tmp: Path) -> None:
    root = write(tmp_path / "root" / "main.tf", 'module "lib" {\n  source = "../lib"\n}\n').parent
    with leak_check(private_tmp) as leaks:
        status, out, err = cli("mock-plan", str(root), "--mock", MOCK, "--terraform", terraform, environ=automation())
    assert status == 2
    real = Path(os.path.realpath(tmp_path))
    assert err == f'tfplancheck: error: {root}/main.tf: module "lib": source "../lib" is not a directory: {real}/lib\n'
    assert out == ""
    assert not leaks[0], leaks[0]
