"""One process lifecycle (#33 item 3): SIGINT, SIGTERM and SIGHUP during plan, apply and destroy.

Before, only SIGINT ended a run cleanly: SIGTERM (what a CI system sends to cancel a job) and SIGHUP ended the
Python process at once and left ``terraform apply``, the provider and a provisioner's ``sleep`` running, a
provider socket in ``$TMPDIR``, and the case's resources neither destroyed nor recorded.

Each cell runs a front end (a plain script using the acceptance runner, a pytest session using
``tf_acceptance``, the ``tfplancheck destroy-leftovers`` command) in a subprocess with a private ``TMPDIR``
and a marker in its environment, waits until real Terraform is in the phase (a plan reading a FIFO whose
writer the test holds; a ``local-exec`` provisioner that touches a file, then sleeps), sends the signal to
that process only, and asserts: it exits promptly, by the signal (pytest after its session teardown); no
process carrying the marker is left (no terraform, no provider, no sleep); the private ``TMPDIR`` is empty;
and the case's resources were destroyed, or kept as a leftover that ``tfplancheck destroy-leftovers``
destroys.

SIGKILL leaves nothing in the process to run: the kill rows (a pytest session, an xdist worker, an xdist controller
whose workers ignore SIGINT, a ``mock_plan`` script) assert that the run's janitor ends what it left and empties
``TMPDIR`` within a bounded wait. An end the run sees (a signal's default action, an exit, a ``mock_plan`` script's
too) leaves no janitor running the moment it has ended: the run reaps it.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from group_signal import until

from plancheck._plugin.acceptance import REQUIRE_E2E_ENV
from plancheck._terraform.binary import (
    INTERRUPT_GRACE,
    TerraformBinary,
    TerraformNotFoundError,
    discover_terraform,
    inspect_binary,
)
from plancheck.acceptance import find_leftovers
from plancheck.cli import main
from tools.pinned import find_pinned_terraform

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not Path("/proc/self/environ").exists() or not hasattr(os, "killpg"),
                       reason="needs POSIX process groups and /proc"),
]

MARKER_ENV = "TFPLANCHECK_SIGNAL_TEST"
#: How long a front end may take from the signal to its exit: the interrupt's grace, a destroy, Python's start.
PROMPT = INTERRUPT_GRACE + 25.0
SLEEP = 30  # the provisioner's: far longer than any cell, so only the signal ends it


@dataclass
class Cell:
    """The paths one run shares with the test."""

    root: Path
    phase: str
    #: Also a provider served in the test process (the echo provider): its socket, sentinel and server end too.
    served: bool = False
    #: The destroy that cleans up after the interrupted apply is slow too (and then killed hard).
    slow_cleanup: bool = False

    @property
    def tmp(self) -> Path:
        return self.root / "tmp"

    @property
    def fifo(self) -> Path:
        return self.root / "gate.fifo"

    @property
    def started(self) -> Path:
        return self.root / "started"

    @property
    def destroying(self) -> Path:
        return self.root / "destroying"

    @property
    def allow(self) -> Path:
        return self.root / "allow-destroy"

    @property
    def leftovers(self) -> Path:
        return self.root / "leftovers"

    @property
    def work(self) -> Path:
        return self.root / "work"


def hcl(cell: Cell) -> str:
    """The case's configuration: what blocks, and where, depends on the phase under test."""
    apply = f"touch {cell.started}; sleep {SLEEP}" if cell.phase == "apply" else "true"
    # Later destroys (the leftover's) find the allow file and pass at once.
    destroy = (f"test -f {cell.allow} || {{ touch {cell.started}; sleep {SLEEP}; }}" if cell.phase == "destroy"
               else "true")
    echo_source = '\n    echo = { source = "hashicorp/echo" }' if cell.served else ""
    echo = '\nprovider "echo" {}\nresource "echo" "served" {}\n' if cell.served else ""
    # Made before the slow one, destroyed after it: destroy-time provisioners do not run for a tainted resource.
    first = "" if not cell.slow_cleanup else textwrap.dedent(f"""
        resource "null_resource" "first" {{
          provisioner "local-exec" {{
            when    = destroy
            command = "test -f {cell.allow} || {{ touch {cell.destroying}; sleep {SLEEP}; }}"
          }}
        }}
        """)
    # The signal is sent once the slow resource's provisioner runs. Terraform applies resources that do not depend
    # on each other at once, so without the dependency the served resource may not exist yet by then (under load
    # the provider served in-process answers later than the null plugin): the interrupted apply never created it,
    # and the destroy had nothing to destroy through the served provider, which this cell is about.
    depends = [*(["null_resource.first"] if cell.slow_cleanup else []), *(["echo.served"] if cell.served else [])]
    depends_on = f"depends_on = [{', '.join(depends)}]" if depends else ""
    return textwrap.dedent(f"""
        terraform {{
          required_providers {{
            null = {{ source = "hashicorp/null", version = "2.1.2" }}{echo_source}
          }}
        }}

        variable "gate" {{
          type    = string
          default = ""
        }}

        resource "null_resource" "slow" {{
          {depends_on}
          # The plan reads the FIFO (its variable is known only then, not in validate): it blocks until the test lets go.
          triggers = {{ gate = var.gate == "" ? "" : file(var.gate) }}
          provisioner "local-exec" {{
            command = "{apply}"
          }}
          provisioner "local-exec" {{
            when    = destroy
            command = "{destroy}"
          }}
        }}
        """) + echo + first


def _variables(cell: Cell) -> dict[str, str]:
    return {"gate": str(cell.fifo)} if cell.phase == "plan" else {}


SCRIPT = """
import json, sys
from plancheck.acceptance import AcceptanceRunner, TestCase, TestStep, echoprovider

spec = json.loads(sys.argv[1])
runner = AcceptanceRunner(spec["terraform"], spec["work"], cli_config=spec["cli_config"], require_tf_acc=False,
                          leftovers_dir=spec["leftovers"], timeout=120, test_name="test_signalled")
providers = {"echo": echoprovider.NewProviderServer()} if spec["served"] else None
runner.run(TestCase(providers=providers, steps=[TestStep(config=spec["config"], variables=spec["variables"])]))
"""

CONFTEST = """
import json
from pathlib import Path

import pytest

SPEC = json.loads(Path(__file__).with_name("spec.json").read_text())


@pytest.fixture
def tf_acceptance_binary():
    return SPEC["terraform"]


@pytest.fixture
def tf_acceptance_cli_config():
    return SPEC["cli_config"]
"""

TEST_FILE = """
from conftest import SPEC
from plancheck.acceptance import TestCase, TestStep


def test_signalled(tf_acceptance):
    tf_acceptance.run(TestCase(steps=[TestStep(config=SPEC["config"], variables=SPEC["variables"])]))
"""


def _spec(cell: Cell, terraform: TerraformBinary, cli_config: Path) -> dict[str, object]:
    return {"terraform": terraform.path, "work": str(cell.work), "cli_config": str(cli_config),
            "leftovers": str(cell.leftovers), "config": hcl(cell), "variables": _variables(cell),
            "served": cell.served}


def _environment(cell: Cell, marker: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTEST_", "TF_ACC_"))}
    env.update({MARKER_ENV: marker, "TMPDIR": str(cell.tmp), "TF_ACC": "1",
                "TFPLANCHECK_LEFTOVERS_DIR": str(cell.leftovers)})
    return env


def _command(front_end: str, cell: Cell, terraform: TerraformBinary, cli_config: Path) -> list[str]:
    spec = _spec(cell, terraform, cli_config)
    if front_end == "script":
        return [sys.executable, "-c", SCRIPT, json.dumps(spec)]
    project = cell.root / "project"
    project.mkdir()
    (project / "spec.json").write_text(json.dumps(spec))
    (project / "conftest.py").write_text(CONFTEST)
    (project / "test_signalled.py").write_text(TEST_FILE)
    # The signal goes to the controller only.
    workers = ["-n", "1"] if front_end.startswith("pytest-xdist") else []
    # Started in the background by a CI script (``pytest -n 2 &``): SIGINT ignored, in the workers too.
    background = ["-c", BACKGROUND] if front_end == "pytest-xdist-bg" else []
    return [sys.executable, *background, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
            *workers, f"--basetemp={cell.work}", str(project / "test_signalled.py")]


#: What a shell does to a command it starts with ``&``: SIGINT ignored (kept across exec), then the command.
BACKGROUND = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "
              "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])")


def _marked(marker: str) -> list[tuple[int, str]]:
    """The live processes whose environment holds the marker, with their command lines."""
    needle = f"{MARKER_ENV}={marker}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            if needle not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            if state != "Z":
                found.append((int(entry.name), (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()))
    return found


def _janitors(marker: str) -> list[tuple[int, str]]:
    """The live janitors (``plancheck/_terraform/lifecycle.py`` run by path) of the run with ``marker``."""
    return [(pid, cmdline) for pid, cmdline in _marked(marker) if cmdline.endswith("/_terraform/lifecycle.py ")]


def _left_running(marker: str, within: float = 5.0) -> list[tuple[int, str]]:
    deadline = time.monotonic() + within
    while (found := _marked(marker)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return found


def _kill_marked(marker: str) -> None:
    for pid, _cmdline in _marked(marker):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _clean_up(marker: str, process: subprocess.Popen[bytes] | None, cell: Cell) -> None:
    """What a killing row leaves when it fails: the marked processes, its front end's group, the cell's files."""
    _kill_marked(marker)
    if process is not None:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        if process.stdout is not None:
            process.stdout.close()
    subprocess.run(["rm", "-rf", str(cell.root)], check=False)


@contextlib.contextmanager
def _fifo_writer(cell: Cell, process: subprocess.Popen[bytes], deadline: float) -> Iterator[int]:
    """Wait until the plan opens the FIFO for reading; hold its write end (the plan blocks reading) until closed.

    A Terraform blocked there does not stop on an interrupt: the run must kill it after the grace period.
    """
    while True:
        try:
            fd = os.open(cell.fifo, os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError as exc:
            if exc.errno != errno.ENXIO:
                raise
        _still_running(process, deadline, "opened the FIFO")
        time.sleep(0.05)
    try:
        yield fd
    finally:
        os.close(fd)


def _still_running(process: subprocess.Popen[bytes], deadline: float, waiting_for: str) -> None:
    if process.poll() is not None:
        out = process.stdout.read().decode(errors="replace") if process.stdout else ""
        pytest.fail(f"the run ended (status {process.returncode}) before Terraform {waiting_for}:\n{out[-3000:]}")
    if time.monotonic() > deadline:
        pytest.fail(f"Terraform never {waiting_for}")


def _states(cell: Cell) -> list[Path]:
    return [p for p in cell.work.rglob("terraform.tfstate") if ".terraform" not in p.parts]


def _resources(state: Path) -> list[str]:
    return [f"{r['type']}.{r['name']}" for r in json.loads(state.read_text() or "{}").get("resources", [])]


def _binaries() -> dict[str, TerraformBinary | str]:
    """``tf1.0.3`` (pinned) and ``tf1.11`` (``PATH``), or why each is missing."""
    found: dict[str, TerraformBinary | str] = {}
    pinned = find_pinned_terraform()
    found["tf1.0.3"] = inspect_binary(pinned) if pinned is not None else "the pinned Terraform 1.0.3 is not installed"
    try:
        newer = discover_terraform()
    except TerraformNotFoundError as exc:
        newer = None
        found["tf1.11"] = str(exc)
    if newer is not None:
        found["tf1.11"] = newer if newer.version_tuple >= (1, 11) else f"terraform on PATH is {newer.version}, not 1.11+"
    elif "tf1.11" not in found:
        found["tf1.11"] = "no terraform on PATH"
    return found


def _binary(label: str) -> TerraformBinary:
    found = _binaries()[label]
    if isinstance(found, str):
        if os.environ.get(REQUIRE_E2E_ENV) == "1":
            pytest.fail(found, pytrace=False)
        pytest.skip(found)
    return found


def _cell(front_end: str, signum: signal.Signals, phase: str, binary: str) -> object:
    return pytest.param(front_end, signum, phase, binary, id=f"{front_end}-{signum.name}-{phase}-{binary}")


SERVED = "apply+served"  # an apply with a provider served in the test process too


INT, TERM, HUP = signal.SIGINT, signal.SIGTERM, signal.SIGHUP
MATRIX = [
    # Every signal in every phase, through a plain script on the pinned binary.
    *(_cell("script", s, phase, "tf1.0.3") for s in (INT, TERM, HUP) for phase in ("plan", "apply", "destroy")),
    # The pytest session, each signal once.
    _cell("pytest", INT, "plan", "tf1.0.3"),
    _cell("pytest", TERM, "apply", "tf1.0.3"),
    _cell("pytest", HUP, "destroy", "tf1.0.3"),
    _cell("pytest-xdist", TERM, "apply", "tf1.0.3"),
    # SIGINT to the controller alone (not its group): the worker is interrupted too (execnet's), ends its commands,
    # and the session ends 2 with its summary. So it did before the janitor; pinned, as SIGTERM's row is.
    _cell("pytest-xdist", INT, "apply", "tf1.11"),
    # The controller passes SIGTERM on to its worker and waits for it. Before, it ended at once, and execnet, which
    # interrupts a worker that lost its controller with SIGINT (ignored here), ended the worker 15 s later with
    # os._exit: the apply's provider, provisioner and socket directory were left behind.
    _cell("pytest-xdist-bg", TERM, "apply", "tf1.11"),
    # The newer Terraform, each phase once.
    _cell("script", TERM, "apply", "tf1.11"),
    _cell("script", TERM, SERVED, "tf1.11"),
    _cell("script", HUP, "plan", "tf1.11"),
    _cell("pytest", TERM, "destroy", "tf1.11"),
    # The command line: a leftover's destroy (tfplancheck destroy-leftovers) ended by the signal keeps it.
    _cell("cli", TERM, "destroy", "tf1.0.3"),
    _cell("cli", HUP, "destroy", "tf1.11"),
]


@pytest.mark.parametrize(("front_end", "signum", "phase", "binary"), MATRIX)
def test_a_signal_ends_everything_the_run_started(
    tf_acceptance_cli_config: Path, front_end: str, signum: signal.Signals, phase: str, binary: str,
) -> None:
    terraform = _binary(binary)
    if phase == SERVED:
        pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    if front_end.startswith("pytest-xdist"):
        pytest.importorskip("xdist", reason="pytest-xdist is not installed")
    # Short: provider sockets go in TMPDIR, whose path must fit in a Unix socket address.
    cell = Cell(Path(tempfile.mkdtemp(prefix="tfsig-", dir="/tmp" if os.path.isdir("/tmp") else None)),
                phase.removesuffix("+served"), served=phase == SERVED)
    try:
        cell.tmp.mkdir()
        if phase == "plan":
            os.mkfifo(cell.fifo)
        if front_end == "cli":
            # A leftover to destroy: a script's post-test destroy ended by SIGTERM keeps one.
            output = _run_signalled(_command("script", cell, terraform, tf_acceptance_cli_config), cell, signal.SIGTERM)
            assert len(find_leftovers(cell.leftovers)) == 1, output
            cell.started.unlink()
            cli = [sys.executable, "-m", "plancheck", "destroy-leftovers", str(cell.leftovers),
                   "--terraform", terraform.path]
            output = _run_signalled(cli, cell, signum)
        else:
            output = _run_signalled(_command(front_end, cell, terraform, tf_acceptance_cli_config), cell, signum)
        _assert_destroyed_or_kept(cell, terraform, output)
    finally:
        subprocess.run(["rm", "-rf", str(cell.root)], check=False)


def _run_signalled(argv: list[str], cell: Cell, signum: signal.Signals) -> str:
    """Run ``argv``, signal it in the cell's phase; check that it ended everything it started; its output."""
    marker = uuid.uuid4().hex
    process = subprocess.Popen(
        argv, cwd=cell.root, env=_environment(cell, marker),
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
    )
    try:
        with contextlib.ExitStack() as held:
            # The plan stays blocked (the FIFO's writer held) until the run has exited: it must have been ended.
            output = _signal_in_phase(process, cell, signum, held)
            # Its janitors the moment it has ended: each reaped by its owner as it ended, nothing left to sweep.
            assert _janitors(marker) == [], f"a janitor outlived the run ended by {signum.name}\n{output}"
            left = _left_running(marker)
            assert not left, f"left running after {signum.name} during {cell.phase}: {left}\n{output}"
        left_files = sorted(p.name for p in cell.tmp.iterdir())
        assert left_files == [], f"left in TMPDIR: {left_files}\n{output}"
        return output
    finally:
        _kill_marked(marker)
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        if process.stdout is not None:
            process.stdout.close()


def _signal_in_phase(
    process: subprocess.Popen[bytes], cell: Cell, signum: signal.Signals, held: contextlib.ExitStack
) -> str:
    """Send ``signum`` once Terraform is in the cell's phase; the run's output, after checking how it ended."""
    deadline = time.monotonic() + 90
    if cell.phase == "plan":
        held.enter_context(_fifo_writer(cell, process, deadline))
    else:
        while not cell.started.exists():
            _still_running(process, deadline, f"started the {cell.phase} provisioner")
            time.sleep(0.05)
    process.send_signal(signum)
    sent = time.monotonic()
    try:
        out, _ = process.communicate(timeout=PROMPT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running {PROMPT:g} s after {signum.name}")
    took = time.monotonic() - sent
    output = out.decode(errors="replace")
    pytest_run = "-m" in process.args and "pytest" in process.args  # type: ignore[operator]
    # Ctrl-C ends pytest with its "interrupted" status, Python with SIGINT; the others end the process by the signal.
    expected = 2 if pytest_run and signum == signal.SIGINT else -signum
    assert process.returncode == expected, f"exit status {process.returncode} after {took:.1f} s:\n{output}"
    # Under xdist the controller passes SIGTERM and SIGHUP on to its worker, waits for it, then finishes the session
    # as a single process does (before, it ended at once, and the session said nothing of the signal).
    if pytest_run:
        assert "KeyboardInterrupt" in output or "Terminated" in output, output
    return output


def _assert_destroyed_or_kept(cell: Cell, terraform: TerraformBinary, output: str) -> None:
    kept = find_leftovers(cell.leftovers)
    if cell.phase == "plan":
        # Interrupted before anything was applied: nothing to destroy, nothing kept.
        assert (kept, [r for s in _states(cell) for r in _resources(s)]) == ([], []), output
    elif cell.phase == "apply":
        # Interrupted apply: the resource it created (tainted) is destroyed by the post-test destroy.
        assert kept == [], output
        assert [r for s in _states(cell) for r in _resources(s)] == [], output
        if cell.served:
            assert "echo.served: Destruction complete" in output, "the served provider took no part in the destroy"
    else:
        # Interrupted destroy: what it had not destroyed is kept, and destroyable later.
        assert len(kept) == 1, output
        assert "the post-test destroy was interrupted" in output or "[leftovers] destroying" in output
        assert _resources(kept[0].path / "terraform.tfstate") == ["null_resource.slow"]
        cell.allow.touch()
        assert main(["destroy-leftovers", str(cell.leftovers), "--terraform", terraform.path]) == 0
        assert find_leftovers(cell.leftovers) == []


@contextlib.contextmanager
def _script_run(cell: Cell, terraform: TerraformBinary, cli_config: Path, marker: str) -> Iterator[subprocess.Popen[bytes]]:
    """The cell's test run as a script, in a session of its own, its output one stream (the kill rows' start); on
    leaving, whatever the row did, every process of ``marker`` is killed and the cell removed."""
    process = None
    try:
        cell.tmp.mkdir()
        process = subprocess.Popen(
            _command("script", cell, terraform, cli_config), cwd=cell.root, env=_environment(cell, marker),
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
        )
        yield process
    finally:
        _kill_marked(marker)
        if process is not None:
            if process.poll() is None:
                process.kill()
                process.wait()
            if process.stdout is not None:
                process.stdout.close()
        subprocess.run(["rm", "-rf", str(cell.root)], check=False)


def test_a_kill_during_the_cleanup_destroy_still_leaves_the_case_recorded(tf_acceptance_cli_config: Path) -> None:
    """SIGTERM during apply, then SIGKILL (a CI's grace period over) while the post-test destroy runs: nothing can
    be handled any more, but the case's state was kept before that destroy started, and destroy-leftovers
    destroys it. Before: nothing recorded the resources."""
    terraform = _binary("tf1.0.3")
    cell = Cell(Path(tempfile.mkdtemp(prefix="tfsig-", dir="/tmp" if os.path.isdir("/tmp") else None)), "apply",
                slow_cleanup=True)
    marker = uuid.uuid4().hex
    with _script_run(cell, terraform, tf_acceptance_cli_config, marker) as process:
        deadline = time.monotonic() + 90
        for phase, ready in (("apply", cell.started), ("post-test destroy", cell.destroying)):
            while not ready.exists():
                _still_running(process, deadline, f"started the {phase} provisioner")
                time.sleep(0.05)
            if phase == "apply":
                process.send_signal(signal.SIGTERM)
        process.kill()
        process.wait()
        _kill_marked(marker)  # the destroy it had started: killed with it, as a CI's kill would
        [kept] = find_leftovers(cell.leftovers)
        assert "null_resource.first" in _resources(kept.path / "terraform.tfstate")
        assert "interrupted" in kept.manifest["reason"]
        cell.allow.touch()
        assert main(["destroy-leftovers", str(cell.leftovers), "--terraform", terraform.path]) == 0
        assert find_leftovers(cell.leftovers) == []


@pytest.mark.parametrize("binary", ["tf1.0.3", "tf1.11"])
def test_a_terraform_killed_mid_apply_is_named_and_leaves_nothing(tf_acceptance_cli_config: Path, binary: str) -> None:
    """SIGKILL to the ``terraform apply`` child only (the out-of-memory killer, a CI killing the wrong process): the
    run fails naming the signal (before: "terraform apply failed", the signal only in "exit code -9"), and what the
    apply started (provider, provisioner, socket directory) is ended and removed as after any failed command."""
    terraform = _binary(binary)
    cell = Cell(Path(tempfile.mkdtemp(prefix="tfsig-", dir="/tmp" if os.path.isdir("/tmp") else None)), "apply")
    marker = uuid.uuid4().hex
    with _script_run(cell, terraform, tf_acceptance_cli_config, marker) as process:
        deadline = time.monotonic() + 90
        while not cell.started.exists():
            _still_running(process, deadline, "started the apply provisioner")
            time.sleep(0.05)
        # The run's own child: Terraform 1.0 runs the command again in a child of its own (panicwrap).
        [apply] = [pid for pid, cmdline in _marked(marker)
                   if [os.path.basename(part) for part in cmdline.split()[:2]] == ["terraform", "apply"]
                   and Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1] == str(process.pid)]
        os.kill(apply, signal.SIGKILL)
        out, _ = process.communicate(timeout=PROMPT)
        output = out.decode(errors="replace")
        assert process.returncode == 1, output
        assert "step 1/1, apply: terraform apply was killed by SIGKILL\n" \
               "command: terraform apply -input=false -no-color tfplan (exit code -9)\n" in output
        assert _left_running(marker) == [], output
        assert sorted(p.name for p in cell.tmp.iterdir()) == [], output


#: How long what a SIGKILLed run started may take to end: its janitor interrupts each command, gives it the grace
#: period, kills what is left and removes its directories.
KILLED_WITHIN = INTERRUPT_GRACE + 10.0

MOCK_SCRIPT = """
import json, sys
from plancheck.acceptance import MockProvider, mock_plan

spec = json.loads(sys.argv[1])
mock_plan(spec["module"], mocks=[MockProvider.from_schema_file(spec["schema"], "acme/cloud")],
          variables={"encryption_key": "k", "gate": spec["gate"]}, terraform=spec["terraform"])
"""

#: The mocked module's plan reads the FIFO: it blocks there until the test lets go.
GATE_TF = """
variable "gate" {
  type = string
}

output "gate" {
  value = file(var.gate)
}
"""

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _mock_command(cell: Cell, terraform: TerraformBinary) -> list[str]:
    module = cell.root / "module"
    module.mkdir()
    (module / "main.tf").write_text((EXAMPLES / "mock_module" / "main.tf").read_text())
    (module / "gate.tf").write_text(GATE_TF)
    spec = {"module": str(module), "schema": str(EXAMPLES / "mock_module" / "cloud.schema.json"),
            "gate": str(cell.fifo), "terraform": terraform.path}
    return [sys.executable, "-c", MOCK_SCRIPT, json.dumps(spec)]


def _xdist_worker(controller: int, marker: str) -> int:
    """The worker the controller started (execnet runs it as ``python -c``)."""
    [worker] = [pid for pid, cmdline in _marked(marker)
                if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1] == str(controller)
                and " -c " in f" {cmdline} "]
    return worker


@pytest.mark.parametrize(("front_end", "binary"), [
    pytest.param("pytest", "tf1.0.3", id="pytest-tf1.0.3"),
    pytest.param("pytest", "tf1.11", id="pytest-tf1.11"),
    pytest.param("pytest-xdist-worker", "tf1.11", id="pytest-xdist-worker-tf1.11"),
    # Started with SIGINT ignored (``pytest -n 2 &``): execnet's interrupt of a worker whose controller is gone does
    # nothing, and the worker ends with os._exit 10-15 s later, its commands running; its janitor, watching the
    # controller, sends it SIGTERM at once instead (the worker's run then ends within KILLED_WITHIN: 7.8 s, was 20 s).
    pytest.param("pytest-xdist-bg-controller", "tf1.0.3", id="pytest-xdist-bg-controller-tf1.0.3"),
    pytest.param("mock_plan", "tf1.11", id="mock_plan-script-tf1.11"),
])
def test_a_sigkill_leaves_nothing_of_the_run(tf_acceptance_cli_config: Path, front_end: str, binary: str) -> None:
    """SIGKILL (the out-of-memory killer, a CI's hard stop) to the process running Terraform, or to the xdist
    controller over it: nothing in it can react, but its janitor ends the commands it left (a provisioner's sleep
    in an apply, a plan blocked reading a FIFO with a mock provider served) and removes their directories. Before:
    Terraform, its provider, the provisioner's ``sh`` and ``sleep`` ran on, and ``tfplancheck-cmd-*`` (with
    ``tfpc-mock-*`` for the mock) stayed in ``TMPDIR``, for good."""
    terraform = _binary(binary)
    if front_end.startswith("pytest-xdist"):
        pytest.importorskip("xdist", reason="pytest-xdist is not installed")
    if front_end == "mock_plan":
        pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    cell = Cell(Path(tempfile.mkdtemp(prefix="tfsig-", dir="/tmp" if os.path.isdir("/tmp") else None)),
                "plan" if front_end == "mock_plan" else "apply")
    marker = uuid.uuid4().hex
    process = None
    try:
        cell.tmp.mkdir()
        if front_end == "mock_plan":
            os.mkfifo(cell.fifo)
            argv = _mock_command(cell, terraform)
        else:
            argv = _command(front_end.removesuffix("-worker").removesuffix("-controller"), cell, terraform,
                            tf_acceptance_cli_config)
        process = subprocess.Popen(
            argv, cwd=cell.root, env=_environment(cell, marker),
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
        )
        with contextlib.ExitStack() as held:
            deadline = time.monotonic() + 90
            if cell.phase == "plan":
                held.enter_context(_fifo_writer(cell, process, deadline))
            else:
                while not cell.started.exists():
                    _still_running(process, deadline, "started the apply provisioner")
                    time.sleep(0.05)
            if front_end == "pytest-xdist-worker":
                os.kill(_xdist_worker(process.pid, marker), signal.SIGKILL)
                out, _ = process.communicate(timeout=PROMPT)  # the controller goes on without it, and ends
            else:
                process.kill()
                out, _ = process.communicate(timeout=PROMPT)
            left = _left_running(marker, KILLED_WITHIN)
            output = out.decode(errors="replace")
            assert left == [], f"left running after SIGKILL of the {front_end}: {left}\n{output}"
        left_files = sorted(p.name for p in cell.tmp.iterdir())
        assert left_files == [], f"left in TMPDIR after SIGKILL of the {front_end}: {left_files}\n{output}"
    finally:
        _clean_up(marker, process, cell)


def _stat_fields(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return ["gone"]


def test_a_terraform_killed_with_its_owner_leaves_no_provider(tf_acceptance_cli_config: Path) -> None:
    """Terraform (the group's leader) killed and reaped as its owner is killed: its provider, the provisioner's ``sh``
    and ``sleep``, members that joined the group after the janitor was told of it, hold the group id alone. The
    janitor, stopped until then, ends them through its pidfd of Terraform (Linux 6.9+), elsewhere by the group id
    while a member it finds as it begins holds it. Before: left running, for good."""
    terraform = _binary("tf1.0.3")
    cell = Cell(Path(tempfile.mkdtemp(prefix="tfsig-", dir="/tmp" if os.path.isdir("/tmp") else None)), "apply")
    marker = uuid.uuid4().hex
    process = None
    try:
        cell.tmp.mkdir()
        process = subprocess.Popen(
            _command("script", cell, terraform, tf_acceptance_cli_config), cwd=cell.root,
            env=_environment(cell, marker), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, start_new_session=True,
        )
        deadline = time.monotonic() + 90
        while not cell.started.exists():
            _still_running(process, deadline, "started the apply provisioner")
            time.sleep(0.05)
        [(janitor, _cmdline)] = _janitors(marker)
        [leader] = [pid for pid, cmdline in _marked(marker) if " apply " in f" {cmdline} "
                    and _stat_fields(pid)[2] == str(pid)]
        members = [pid for pid, _cmdline in _marked(marker) if pid != leader and _stat_fields(pid)[2] == str(leader)]
        assert len(members) >= 3  # the null provider, the provisioner's sh and its sleep
        os.kill(janitor, signal.SIGSTOP)
        process.send_signal(signal.SIGSTOP)  # so that it does not see Terraform end
        os.kill(leader, signal.SIGKILL)
        until(lambda: _stat_fields(leader)[0] == "Z", "Terraform never died")
        process.kill()
        process.communicate(timeout=PROMPT)
        until(lambda: _stat_fields(leader)[0] == "gone", "Terraform was never reaped")
        os.kill(janitor, signal.SIGCONT)
        assert _left_running(marker, KILLED_WITHIN) == []
        assert sorted(p.name for p in cell.tmp.iterdir()) == []
    finally:
        _clean_up(marker, process, cell)


@pytest.mark.parametrize("binary", ["tf1.0.3", "tf1.11"])
def test_a_mock_plan_script_that_ends_leaves_no_janitor(binary: str) -> None:
    """A script calling ``mock_plan`` (Terraform, a mock provider served in the script) that exits normally: its
    janitor is reaped at exit, not left running for the moment it takes to see its owner's pipe end."""
    terraform = _binary(binary)
    pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    cell = Cell(Path(tempfile.mkdtemp(prefix="tfsig-", dir="/tmp" if os.path.isdir("/tmp") else None)), "plan")
    marker = uuid.uuid4().hex
    try:
        cell.tmp.mkdir()
        cell.fifo.write_text("open")  # a plain file: the plan reads it at once
        done = subprocess.run(_mock_command(cell, terraform), cwd=cell.root, env=_environment(cell, marker),
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=PROMPT, check=False)
        assert (done.returncode, _marked(marker)) == (0, []), done.stderr
        assert sorted(p.name for p in cell.tmp.iterdir()) == [], done.stderr
    finally:
        _kill_marked(marker)
        subprocess.run(["rm", "-rf", str(cell.root)], check=False)
