"""Every front end, every output channel: planted secrets of every shape never leave, in any byte emitted.

The successor of the per-front-end leak suites for *channels* (``test_no_secret_leaks.py`` holds
the table of every check's failure message): ONE table of front ends, each run on the same
planted documents, and every byte each emits searched (stdout, stderr, the JUnit file, the log
file, and every file the run wrote). A leak is what ``secret_shapes.leaks`` says it is.

The documents hold every shape of ``secret_shapes``, and a snapshot file into which someone typed
secrets of their own in clear, at the paths the plan marks sensitive (``FILE_SECRETS``: known to no
document, so only the snapshot file itself as a source of secrets can hide them). The front ends:
``assert_*`` and ``snapshot.assert_matches`` in a plain script (the traceback Python prints), pytest
through pytester (``-vv``, ``--showlocals``, ``-rA``, ``--junitxml``, live logs and ``--log-file``,
``-n 2``, ``--snapshot-update``), each with tests that take values from the fixtures and from plans
they load themselves, print, log, warn, record JUnit properties, fail checks and compare syrupy
snapshots; the command line (checks, ``query``, ``snapshot``) in text and JSON; and, end to end on the
pinned Terraform 1.0.3, the acceptance runner with ``Sensitive`` variables of every shape and
``mock-plan`` with sensitive module variables of every shape planned in clear. Each row whose
channel can show a secret at all runs once more with redaction off (``reveals``), to prove the row
would catch a leak.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import clirun
import pytest
from secret_shapes import ALL_SECRETS, CONFIG_SECRET, SHAPES, leaks, secret_shapes_plan

from plancheck import Plan, revealing_sensitive
from plancheck import snapshot as plan_snapshot
from plancheck.cli._command import run as cli_run

pytest.importorskip("syrupy", reason="the snapshot extra (syrupy) is not installed")
pytest.importorskip("xdist", reason="pytest-xdist is not installed")

from plancheck.snapshot import PlanSnapshotExtension  # only after the skip above: it needs syrupy

#: Typed into the snapshot files by hand, in clear, where the plan marks the value sensitive: of every shape
#: (each shape's text reversed), and known to no document.
FILE_SECRETS = {f"file-{name}": "YY" + value[::-1] for name, value in SHAPES.items()}
PLANTED = {**ALL_SECRETS, **FILE_SECRETS}
#: Where syrupy keeps the snapshot of the inner session's test_syrupy_hand_edited (named as the extension names it).
SNAPSHOT_NAME = f"test_syrupy_hand_edited.{PlanSnapshotExtension.file_extension}"
QUIET = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:randomly")


def _hand_edited(plan: Plan) -> str:
    """The snapshot of ``plan`` with a secret of ``FILE_SECRETS`` typed in at each marked trigger."""
    text = plan_snapshot.render(plan, key=None)
    for name in SHAPES:
        marked = f'triggers["{name}"] = (sensitive)'
        assert marked in text, marked
        text = text.replace(marked, f'triggers["{name}"] = {json.dumps(FILE_SECRETS["file-" + name])}')
    return text


def _drifted(document: dict[str, object]) -> dict[str, object]:
    """The plan with drift: every shape's value in ``before``, marked only in ``after_sensitive``."""
    triggers = dict(SHAPES)
    document["resource_drift"] = [{
        "address": "null_resource.a", "mode": "managed", "type": "null_resource", "name": "a",
        "change": {"actions": ["update"], "before": {"triggers": triggers}, "after": {"triggers": {}},
                   "after_unknown": {}, "before_sensitive": {}, "after_sensitive": {"triggers": True}},
    }]
    return document


@dataclass
class Workspace:
    """A directory with the planted documents; ``emitted`` collects what one run wrote, by channel."""

    path: Path
    emitted: dict[str, str] = field(default_factory=dict)

    def files_written_since(self, before: dict[Path, int]) -> None:
        for file in sorted(self.path.rglob("*")):
            if not file.is_file() or "__pycache__" in file.parts or file.suffix == ".pyc":
                continue
            stamp = file.stat().st_mtime_ns
            if before.get(file) != stamp:
                self.emitted[f"file {file.relative_to(self.path)}"] = file.read_text("utf-8", errors="replace")

    def stamps(self) -> dict[Path, int]:
        return {f: f.stat().st_mtime_ns for f in self.path.rglob("*") if f.is_file()}


CHECKS_TOML = "".join(
    f'[[check]]\ntype = "ExpectUnknownValue"\naddress = "null_resource.a"\npath = \'triggers["{name}"]\'\n'
    for name in SHAPES
) + '[[check]]\ntype = "ExpectNoDrift"\n'


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Workspace:
    monkeypatch.delenv("CI", raising=False)  # --tf-show-sensitive (the reveal runs) is refused under CI
    monkeypatch.delenv("TFPLANCHECK_SNAPSHOT_KEY", raising=False)
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(name, raising=False)  # the inner sessions are sessions of their own
    document = _drifted(secret_shapes_plan())
    (tmp_path / "plan.json").write_text(json.dumps(document), "utf-8")
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "main.tf.json").write_text(
        json.dumps({"variable": {"pw": {"type": "string", "sensitive": True, "default": CONFIG_SECRET}}}), "utf-8")
    (tmp_path / "checks.toml").write_text(CHECKS_TOML, "utf-8")
    hand_edited = _hand_edited(Plan.from_dict(document))
    (tmp_path / "hand.snap").write_text(hand_edited, "utf-8")
    stored = tmp_path / "__snapshots__" / "test_inner"
    stored.mkdir(parents=True)
    (stored / SNAPSHOT_NAME).write_text(hand_edited, "utf-8")
    return Workspace(tmp_path)


# -- assert_* in a plain script --------------------------------------------------------------------------

SCRIPT = """
import sys
from contextlib import nullcontext
from dataclasses import dataclass
from plancheck import ExpectNoDrift, ExpectUnknownValue, PlanCheck, assert_plan, load_plan, revealing_sensitive
from plancheck import snapshot
from tfjsonpath import New


@dataclass(frozen=True)
class LooksUpAZone(PlanCheck):
    def failures(self, plan):
        raise LookupError("no zone in this plan")


@dataclass(frozen=True)
class QuotesTheTriggers(PlanCheck):
    def failures(self, plan):
        raise RuntimeError("cannot use " + " | ".join(plan.resource_change("null_resource.a").change.after["triggers"].values()))


plan = load_plan("plan.json")
reveal = revealing_sensitive() if sys.argv[2] == "reveal" else nullcontext()
with reveal:
    print(repr(plan), [repr(rc) for rc in plan.resource_changes], repr(plan.secrets))
    if sys.argv[1] == "checks":
        assert_plan(plan, *[ExpectUnknownValue("null_resource.a", New("triggers").AtMapKey(s)) for s in {shapes!r}],
                    ExpectUnknownValue("null_resource.a", New("tags")), ExpectNoDrift())
    elif sys.argv[1] == "raising":
        assert_plan(plan, LooksUpAZone(), QuotesTheTriggers())
    else:
        snapshot.assert_matches(plan, "hand.snap")
"""


def _script(what: str) -> Callable[[Workspace, bool], None]:
    def run(ws: Workspace, reveal: bool) -> None:
        (ws.path / "script.py").write_text(SCRIPT.format(shapes=list(SHAPES)), "utf-8")
        before = ws.stamps()
        done = subprocess.run([sys.executable, "script.py", what, "reveal" if reveal else "-"], cwd=ws.path,
                              capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 1, done.stderr  # the uncaught failure: Python prints its traceback
        ws.emitted.update(stdout=done.stdout, stderr=done.stderr)
        ws.files_written_since(before)

    return run


# -- pytest ----------------------------------------------------------------------------------------------

INNER = """
import logging
import warnings

import pytest
from plancheck import ExpectNoDrift, ExpectUnknownValue, assert_plan, load_plan
from plancheck import snapshot as plan_snapshot
from plancheck.snapshot import PlanSnapshotExtension
from tfjsonpath import New

SHAPES = {shapes!r}


def _triggers(plan):
    return plan.resource_change("null_resource.a").change.after["triggers"]


@pytest.mark.tf_plan("plan.json")
@pytest.mark.parametrize("shape", SHAPES)
def test_fixture_values(tf_plan, shape, record_property):
    value = _triggers(tf_plan)[shape]
    print("stdout:", value)
    logging.getLogger("inner").warning("log: %s", value)
    record_property("pw", value)
    assert value == "x" + value[1:-1]


@pytest.mark.parametrize("shape", SHAPES)
def test_own_plan(shape, record_testsuite_property):
    value = _triggers(load_plan("plan.json"))[shape]
    record_testsuite_property("pw-" + shape, value)
    warnings.warn(f"careful {{value}}", UserWarning)
    try:
        raise ValueError(value)
    except ValueError:
        logging.getLogger("inner").exception("logged with its traceback")
    assert value == "x"


def test_checks_and_drift():
    plan = load_plan("plan.json")
    assert_plan(plan, *[ExpectUnknownValue("null_resource.a", New("triggers").AtMapKey(s)) for s in SHAPES],
                ExpectUnknownValue("null_resource.a", New("tags")), ExpectNoDrift())


def test_syrupy_hand_edited(snapshot):
    assert snapshot(extension_class=PlanSnapshotExtension) == load_plan("plan.json")


def test_assert_matches_hand_edited():
    plan_snapshot.assert_matches(load_plan("plan.json"), "hand.snap")


@pytest.mark.tf_config("config")
def test_config_default(tf_config):
    default = tf_config.variable("pw").get("default")
    print("default:", default)
    assert default == "x"
"""


def _pytest(*args: str, update: bool = False) -> Callable[[Workspace, bool], None]:
    def run(ws: Workspace, reveal: bool) -> None:
        (ws.path / "test_inner.py").write_text(INNER.format(shapes=list(SHAPES)), "utf-8")
        before = ws.stamps()
        argv = [sys.executable, "-m", "pytest", *QUIET, *args, *(["--tf-show-sensitive"] if reveal else [])]
        argv += ["--snapshot-update"] if update else []
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        done = subprocess.run(argv, cwd=ws.path, capture_output=True, text=True, timeout=300, check=False, env=env)
        assert done.returncode in (0, 1), done.stdout + done.stderr  # tests failed, the session did not
        assert "INTERNALERROR" not in done.stdout + done.stderr
        ws.emitted.update(stdout=done.stdout, stderr=done.stderr)
        ws.files_written_since(before)
        junit = ws.path / "junit.xml"
        if junit.exists():  # the XML as a reader sees it: every attribute and text, unescaped
            parts: list[str] = []
            for element in ET.parse(junit).iter():
                parts.extend(element.attrib.values())
                parts.extend(t for t in (element.text, element.tail) if t)
            ws.emitted["junit (parsed)"] = "\n".join(parts)

    return run


#: A sweeper that reads the plan and fails quoting every shape it holds: its exception text is the user's, written
#: by the sweep to the terminal (no report carries it), so only the session's scrub of what it writes can hide them.
SWEEPER = """
from plancheck import load_plan
from plancheck.acceptance import AddTestSweepers, Sweeper


def leaky(region):
    triggers = load_plan("plan.json").resource_change("null_resource.a").change.after["triggers"]
    raise RuntimeError("cannot delete " + " | ".join(triggers.values()))


AddTestSweepers("leaky", Sweeper("leaky", leaky))
"""


def _sweep(*args: str) -> Callable[[Workspace, bool], None]:
    inner = _pytest("--tf-sweep=r1", *args)

    def run(ws: Workspace, reveal: bool) -> None:
        (ws.path / "conftest.py").write_text(SWEEPER, "utf-8")
        inner(ws, reveal)

    return run


# -- the command line ------------------------------------------------------------------------------------


def _cli(*argv: str, codes: tuple[int, ...] = (1,)) -> Callable[[Workspace, bool], None]:
    def run(ws: Workspace, reveal: bool) -> None:
        before = ws.stamps()
        with revealing_sensitive(reveal):
            code, out, err = clirun.cli(*argv, cwd=ws.path)
        assert code in codes, out + err
        ws.emitted.update(stdout=out, stderr=err)
        ws.files_written_since(before)

    return run


@dataclass(frozen=True)
class FrontEnd:
    id: str
    run: Callable[[Workspace, bool], None]
    #: Whether the same run with redaction off shows a planted secret (else the channel cannot show one).
    reveals: bool = True
    #: What the run must show, so that a row that emits nothing (or fails early) does not pass for clean.
    shows: str = "(sensitive"


#: What a comparison with the hand-edited snapshot shows: the row really compared it.
UNMARKED = "(sensitive, unmarked) -> (sensitive)"
FRONT_ENDS = [
    FrontEnd("script-assert_plan", _script("checks")),
    FrontEnd("script-snapshot-assert_matches", _script("snapshot"), reveals=False, shows=UNMARKED),
    # Two checks raise: the first's traceback shows no secret and stays the cause, the second's message quotes them.
    FrontEnd("script-assert_plan-raising-checks", _script("raising"),
             shows="The above exception was the direct cause of the following exception"),
    FrontEnd("pytest-default", _pytest(), shows=UNMARKED),
    FrontEnd("pytest-vv-showlocals", _pytest("-vv", "-l", "--tb=long"), shows=UNMARKED),
    FrontEnd("pytest-native-rA", _pytest("--tb=native", "-rA"), shows=UNMARKED),
    FrontEnd("pytest-junit", _pytest("-rA", "--junitxml=junit.xml"), shows=UNMARKED),
    FrontEnd("pytest-live-logs-and-log-file", _pytest("--log-cli-level=INFO", "--log-file=pytest.log", "-rA"), shows=UNMARKED),
    FrontEnd("pytest-xdist", _pytest("-n", "2", "-vv", "-l", "-rA", "--junitxml=junit.xml"), shows=UNMARKED),
    # Writes the snapshot files: a file holds no secret, also when messages reveal them.
    FrontEnd("pytest-snapshot-update", _pytest("-rA", update=True), reveals=True, shows="snapshot"),
    FrontEnd("pytest-sweep-junit", _sweep("--junitxml=junit.xml"), shows="[sweep] leaky (r1): FAILED: RuntimeError"),
    FrontEnd("cli-checks-text", _cli("plan.json", "--checks", "checks.toml")),
    FrontEnd("cli-checks-json", _cli("plan.json", "--checks", "checks.toml", "--format", "json")),
    FrontEnd("cli-query-resource", _cli("query", "plan.json", "null_resource.a", codes=(0,))),
    FrontEnd("cli-query-resource-json", _cli("query", "plan.json", "null_resource.a", "--format", "json", codes=(0,))),
    FrontEnd("cli-query-listing", _cli("query", "plan.json", codes=(0,)), shows="null_resource.fe"),
    FrontEnd("cli-snapshot-compare", _cli("snapshot", "plan.json", "hand.snap"), reveals=False, shows=UNMARKED),
    FrontEnd("cli-snapshot-update", _cli("snapshot", "plan.json", "new.snap", "--update", codes=(0,)), reveals=False,
             shows="null_resource.a"),
]


@pytest.mark.parametrize("front_end", FRONT_ENDS, ids=[f.id for f in FRONT_ENDS])
def test_no_planted_secret_leaves_any_channel(front_end: FrontEnd, workspace: Workspace) -> None:
    front_end.run(workspace, False)
    assert workspace.emitted, "the front end emitted nothing"
    found = {channel: leaks(text, PLANTED) for channel, text in workspace.emitted.items()}
    assert {channel: names for channel, names in found.items() if names} == {}
    assert any(front_end.shows in text for text in workspace.emitted.values())


REVEALING = [f for f in FRONT_ENDS if f.reveals]


@pytest.mark.parametrize("front_end", REVEALING, ids=[f.id for f in REVEALING])
def test_the_row_would_leak_with_redaction_off(front_end: FrontEnd, workspace: Workspace) -> None:
    front_end.run(workspace, True)
    assert any(leaks(text, PLANTED) for text in workspace.emitted.values())


def test_the_hand_typed_secrets_are_of_every_shape_and_known_to_no_document(workspace: Workspace) -> None:
    plan = Plan.from_dict(json.loads((workspace.path / "plan.json").read_text("utf-8")))
    assert sorted(FILE_SECRETS) == sorted(f"file-{name}" for name in SHAPES)
    for secret in FILE_SECRETS.values():
        assert secret not in plan.secrets
        assert leaks(secret, PLANTED) == [name for name, value in PLANTED.items() if value == secret]


@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_the_command_line_scrubs_what_any_writer_prints(
    stream: str, workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every byte the command line prints passes through one scrub: also a writer's that forgot to scrub."""
    from plancheck.cli import _io

    def careless(self: _io.Io, text: str) -> None:
        # A writer that prints a raw value of the plan, straight to the stream, past every scrub but the stream's.
        plan = Plan.from_dict(json.loads((workspace.path / "plan.json").read_text("utf-8")))
        raw = plan.resource_change("null_resource.a").change.after["triggers"]["multiline-pem"]
        getattr(self, stream).write(f"{text}\nraw: {raw}\n")

    monkeypatch.setattr(_io.Io, "out", careless)
    monkeypatch.chdir(workspace.path)
    printed = io.StringIO(), io.StringIO()
    assert cli_run(["query", "plan.json", "null_resource.a"], stdout=printed[0], stderr=printed[1],
                   environ={"PATH": ""}) == 0
    text = printed[0].getvalue() + printed[1].getvalue()
    assert "raw: (sensitive)" in text
    assert leaks(text, PLANTED) == []


# -- the acceptance runner, on the pinned Terraform 1.0.3 ------------------------------------------------


def _pinned_terraform() -> Path:
    """The pinned Terraform 1.0.3; a skip without it (a failure under ``TFPLANCHECK_REQUIRE_E2E=1``)."""
    from plancheck._plugin.acceptance import REQUIRE_E2E_ENV
    from tools.pinned import find_pinned_terraform

    terraform = find_pinned_terraform()
    if terraform is None:
        reason = "the pinned Terraform 1.0.3 is not installed (`make test` installs it)"
        if os.environ.get(REQUIRE_E2E_ENV) == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return terraform

ACCEPTANCE = """
import json
import logging
import os

import pytest
from plancheck import ExpectKnownValue, knownvalue as kv
from plancheck.acceptance import ConfigPlanChecks, Sensitive, TestCase, TestStep
from tfjsonpath import New

SHAPES = json.loads(os.environ["E2E_SHAPES"])
NAMES = sorted(SHAPES)
CONFIG = '''
terraform {
  required_providers {
    null = { source = "hashicorp/null", version = "2.1.2" }
  }
}
''' + "".join(f'variable "v{i}" {{\\n  type = string\\n  sensitive = true\\n}}\\n' for i in range(len(NAMES))) + '''
resource "null_resource" "a" {
  triggers = {
''' + "".join(f'    "{name}" = var.v{i}\\n' for i, name in enumerate(NAMES)) + '''  }
}
'''


@pytest.fixture
def tf_acceptance_cli_config():
    return os.environ["E2E_CLI"]


def test_acceptance(tf_acceptance):
    try:
        tf_acceptance.run(TestCase(steps=[TestStep(
            config=CONFIG,
            variables={f"v{i}": Sensitive(SHAPES[name]) for i, name in enumerate(NAMES)},
            config_plan_checks=ConfigPlanChecks(pre_apply=[
                ExpectKnownValue("null_resource.a", New("triggers").AtMapKey(n), kv.StringExact("nope")) for n in NAMES
            ]),
        )]))
    finally:
        # Live logs and --log-file are written at once: scrubbed of the secrets known by then (the runner's now).
        for name in NAMES:
            print("printed", SHAPES[name])
            logging.getLogger("inner").warning("logged %s", SHAPES[name])
"""


@pytest.mark.e2e
def test_no_planted_secret_leaves_the_acceptance_runner(workspace: Workspace, tf_acceptance_cli_config: Path) -> None:
    terraform = _pinned_terraform()
    (workspace.path / "test_acceptance.py").write_text(ACCEPTANCE, "utf-8")
    before = workspace.stamps()
    env = {**os.environ, "TF_ACC": "1", "E2E_SHAPES": json.dumps(SHAPES), "E2E_CLI": str(tf_acceptance_cli_config),
           "PYTHONDONTWRITEBYTECODE": "1"}
    argv = [sys.executable, "-m", "pytest", *QUIET, "test_acceptance.py", f"--terraform={terraform}", "-vv", "-l",
            "-rA", "--junitxml=junit.xml", "--log-file=pytest.log"]
    done = subprocess.run(argv, cwd=workspace.path, capture_output=True, text=True, timeout=600, check=False, env=env)
    assert done.returncode == 1, done.stdout + done.stderr  # the planted check failures, nothing else
    assert "ExpectKnownValue: null_resource.a" in done.stdout
    workspace.emitted.update(stdout=done.stdout, stderr=done.stderr)
    workspace.files_written_since(before)
    found = {channel: leaks(text, PLANTED) for channel, text in workspace.emitted.items()}
    assert {channel: names for channel, names in found.items() if names} == {}
    assert "(sensitive)" in done.stdout


# -- mock-plan: a module's sensitive variables, of every shape, through a mocked provider ----------------

MOCK_MODULE = """
terraform {
  required_providers {
    cloud = { source = "acme/cloud" }
  }
}
""" + "".join(
    f'variable "v{i}" {{\n  type      = string\n  sensitive = true\n}}\n'
    f'resource "cloud_bucket" "b{i}" {{\n  name       = nonsensitive(var.v{i})\n'
    f'  website    = {{ index_document = "index.html" }}\n  cors_rules = [{{ origins = ["https://example.com"] }}]\n}}\n'
    for i in range(len(SHAPES))
)


@pytest.mark.e2e
@pytest.mark.parametrize("output", ["text", "json"])
def test_no_planted_secret_leaves_mock_plan(output: str, workspace: Workspace) -> None:
    pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    terraform = _pinned_terraform()
    schema = Path(__file__).resolve().parents[1] / "examples" / "mock_module" / "cloud.schema.json"
    module = workspace.path / "module"
    module.mkdir()
    (module / "main.tf").write_text(MOCK_MODULE, "utf-8")
    # Each bucket's name fails a check: the failure shows the value planned there, in clear but for the scrub.
    (workspace.path / "names.toml").write_text("".join(
        f'[[check]]\ntype = "ExpectKnownValue"\naddress = "cloud_bucket.b{i}"\npath = "name"\n'
        'matcher = { type = "StringExact", value = "nope" }\n' for i in range(len(SHAPES))), "utf-8")
    values = [arg for i, value in enumerate(SHAPES.values()) for arg in ("--var", f"v{i}={value}")]
    run = _cli("mock-plan", str(module), "--mock", f"acme/cloud={schema}", *values, "--checks", "names.toml",
               "--format", output, "--terraform", str(terraform), codes=(1,))
    run(workspace, False)
    printed = workspace.emitted["stdout"] + workspace.emitted["stderr"]
    assert "cloud_bucket.b0" in printed
    assert "(sensitive)" in printed  # the values were planned in clear: only the scrub hides them
    found = {channel: leaks(text, PLANTED) for channel, text in workspace.emitted.items()}
    assert {channel: names for channel, names in found.items() if names} == {}
    run(workspace, True)  # the row would leak with redaction off
    assert leaks(workspace.emitted["stdout"] + workspace.emitted["stderr"], PLANTED)


def test_the_library_does_not_log() -> None:
    """No logger of the library: no log record of it could show a secret. One that starts logging needs the scrub
    (a logging.Filter on its logger) and a row in this table; only the plugin touches logging, to scrub pytest's."""
    root = Path(__file__).resolve().parents[1] / "plancheck"
    users = sorted(
        str(file.relative_to(root)) for file in root.rglob("*.py")
        if "getLogger" in file.read_text("utf-8") or "import logging" in file.read_text("utf-8")
    )
    assert users == ["_plugin/scrub.py"]
    assert not any("getLogger" in (root / name).read_text("utf-8") for name in users)


OUTLIVING = """
import pytest
from plancheck import load_plan

PLAN = load_plan("plan.json")  # made while collecting, before any test


@pytest.fixture(scope="module")
def shared():
    return load_plan("plan.json")  # made in the first test's setup, used by the later ones


def _plain(plan):
    return plan.resource_change("null_resource.a").change.after["triggers"]["plain"]


def test_first_passes_quietly(shared):
    pass


def test_later_with_the_fixture(shared):
    print("printed", _plain(shared))
    assert _plain(shared) == "x"


def test_later_with_the_module_constant():
    assert _plain(PLAN) == "x"
"""


def test_documents_that_outlive_the_test_that_made_them_stay_sources(workspace: Workspace) -> None:
    """A module-level plan and a module-scoped fixture's plan, shown by tests after the one that made them."""
    (workspace.path / "test_outliving.py").write_text(OUTLIVING, "utf-8")
    argv = [sys.executable, "-m", "pytest", *QUIET, "test_outliving.py", "-rA"]
    done = subprocess.run(argv, cwd=workspace.path, capture_output=True, text=True, timeout=300, check=False)
    assert "2 failed, 1 passed" in done.stdout, done.stdout
    assert "printed (sensitive)" in done.stdout
    assert leaks(done.stdout + done.stderr, PLANTED) == []


def test_the_command_line_withholds_a_line_it_cannot_scrub() -> None:
    """A document that cannot list its secrets: the line is withheld, neither shown nor a traceback."""
    from plancheck.cli._io import Io

    class Broken:
        @property
        def secrets(self) -> object:
            raise TypeError("resources is not a list")

    cli = Io(io.StringIO(), io.StringIO(), None, {})
    cli.heard(Broken())
    assert cli.scrub("value s3cr3t-plain-7f1c\n") == (
        "tfplancheck: output withheld: its secrets could not be listed (TypeError)\n"
    )
