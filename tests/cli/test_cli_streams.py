"""Issue #12 (items 15, 17): output that cannot be written, endless or oversized input, a state given as the plan.

In-process tables through :func:`plancheck.cli._run` / :func:`plancheck.cli.main`, then a few subprocesses
(each costs a Python start) for what only a real process shows: a full disk, a closed stdout, a broken
pipe, ``/dev/zero``, and the flush Python makes at exit.
"""

from __future__ import annotations

import errno
import io
import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import clirun
import pytest

from plancheck.cli import main, run
from plancheck.cli._command import _byte_count

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).parent / "tfplancheck"
PLAN = {"format_version": "1.2", "terraform_version": "1.0.3", "resource_changes": []}
STATE = {"format_version": "1.0", "terraform_version": "1.0.3", "values": {"root_module": {"resources": []}}}
PASSING = ["plan.json", "--empty"]


class _Failing(io.StringIO):
    """A stream whose writes fail like a real one: a full disk, a closed descriptor, a closed file object."""

    def __init__(self, exc: BaseException) -> None:
        super().__init__()
        self.exc = exc

    def write(self, text: str) -> int:
        raise self.exc


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plan.json").write_text(json.dumps(PLAN), "utf-8")
    (tmp_path / "state.json").write_text(json.dumps(STATE), "utf-8")
    (tmp_path / "checks.toml").write_text('[[check]]\ntype = "ExpectEmptyPlan"\n', "utf-8")
    return tmp_path


WRITE_FAILURES = [
    pytest.param(OSError(errno.ENOSPC, "No space left on device"), "No space left on device", id="full-disk"),
    pytest.param(OSError(errno.EBADF, "Bad file descriptor"), "Bad file descriptor", id="closed-descriptor"),
    pytest.param(ValueError("I/O operation on closed file."), "I/O operation on closed file.", id="closed-file-object"),
]
COMMANDS = [
    pytest.param(PASSING, id="checks"),
    pytest.param([*PASSING, "--format", "json"], id="checks-json"),
    pytest.param(["--version"], id="version"),
    pytest.param(["--list-checks"], id="list-checks"),
    pytest.param(["--help"], id="help"),
    pytest.param(["query", "plan.json"], id="query"),
    pytest.param(["query", "--help"], id="query-help"),
    pytest.param(["plan.json"], id="usage-error-writes-only-stderr"),
]


@pytest.mark.parametrize("argv", COMMANDS)
@pytest.mark.parametrize(("exc", "reason"), WRITE_FAILURES)
def test_stdout_that_cannot_be_written_is_one_error_line_exit_2(
    files: Path, argv: list[str], exc: BaseException, reason: str
) -> None:
    code, _, err = clirun.cli(*argv, stdout=_Failing(exc))
    if argv == ["plan.json"]:  # nothing for stdout: the usage error alone
        assert (code, err.splitlines()[0]) == (2, "tfplancheck: error: no checks given: use --checks FILE or flags "
                                                  "such as --unknown ADDRESS PATH; see --help")
        return
    assert (code, err) == (2, f"tfplancheck: error: cannot write to standard output: {reason}\n")


def test_stderr_failing_too_leaves_the_exit_status(files: Path) -> None:
    failing = OSError(errno.ENOSPC, "No space left on device")
    assert clirun.cli(*PASSING, stdout=_Failing(failing), stderr=_Failing(failing))[0] == 2
    assert clirun.cli("plan.json", stderr=_Failing(failing))[0] == 2


def test_a_broken_pipe_is_left_to_main(files: Path) -> None:
    with pytest.raises(BrokenPipeError):
        clirun.cli(*PASSING, stdout=_Failing(BrokenPipeError(errno.EPIPE, "Broken pipe")))


@pytest.mark.parametrize(
    ("stdout", "code", "err"),
    [
        pytest.param(None, 2, "tfplancheck: error: cannot write to standard output: it is closed\n", id="stdout-closed"),
        pytest.param(_Failing(BrokenPipeError(errno.EPIPE, "Broken pipe")), 141, "", id="broken-pipe-quiet-141"),
        pytest.param(_Failing(OSError(errno.ENOSPC, "x")), 2,
                     "tfplancheck: error: cannot write to standard output: No space left on device\n", id="full-disk"),
    ],
)
def test_main_reports_write_failures_in_one_line(
    files: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stdout: Any, code: int, err: str
) -> None:
    monkeypatch.setattr(sys, "stdout", stdout)
    assert main(PASSING) == code
    assert capsys.readouterr().err == err


def _dev_full() -> int:
    """A descriptor of the device whose every write fails with ENOSPC, opened without O_CREAT: where a run removed it,
    opening the path for writing made a plain file of it, and every later write succeeded."""
    try:
        descriptor = os.open("/dev/full", os.O_WRONLY)
    except FileNotFoundError:
        pytest.skip("this machine has no /dev/full")
    if not stat.S_ISCHR(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        pytest.fail("/dev/full is no device here (a plain file): recreate it with mknod -m 666 /dev/full c 1 7")
    return descriptor


def test_main_flushes_buffered_output_where_a_failure_can_be_reported(
    files: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with open(_dev_full(), "w", encoding="utf-8") as full:  # buffered: the write succeeds, the flush fails
        monkeypatch.setattr(sys, "stdout", full)
        assert main(PASSING) == 2
        monkeypatch.undo()
        full.write("after the failure the descriptor is /dev/null: Python's flush at exit cannot fail\n")
        full.flush()
    assert capsys.readouterr().err == "tfplancheck: error: cannot write to standard output: No space left on device\n"


def test_a_lone_surrogate_in_an_error_is_written_escaped(files: Path) -> None:
    # JSON's "\\ud800" escape gives a str no strict UTF-8 stream can write; it is shown backslash-escaped.
    (files / "s.json").write_text('{"check": [{"type": "ExpectResourceAction", "address": "a", "action": "\\ud800"}]}')
    raw_out, raw_err = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(raw_out, encoding="utf-8", errors="strict")
    err = io.TextIOWrapper(raw_err, encoding="utf-8", errors="strict")
    code = run(["plan.json", "--checks", "s.json", "--format", "json"], stdout=out, stderr=err, environ={})
    out.flush()
    err.flush()
    assert code == 2
    assert raw_err.getvalue().decode().endswith('CreateThenForget, ForgetThenCreate, found "\\ud800"\n')
    assert json.loads(raw_out.getvalue())["error"]["message"].endswith('found "\ud800"')


# -- item 17: --max-bytes, endless input, a state given as the plan ------------------------------------------


@pytest.mark.parametrize(
    ("text", "count"),
    [
        pytest.param("4096", 4096, id="bytes"),
        pytest.param("10B", 10, id="bytes-unit"),
        pytest.param("1k", 1024, id="kibibytes"),
        pytest.param("500M", 500 << 20, id="mebibytes"),
        pytest.param("2GiB", 2 << 30, id="gibibytes"),
    ],
)
def test_byte_counts(text: str, count: int) -> None:
    assert _byte_count(text) == count


MAX_BYTES = [
    pytest.param(["plan.json", "--empty", "--max-bytes", "20"], b"", "plan",
                 "plan.json: the plan is larger than 20 bytes (raise the limit with --max-bytes or PLANCHECK_MAX_BYTES)", id="plan-file"),
    pytest.param(["-", "--empty", "--max-bytes", "1K"], b" " * 1025, "plan",
                 "<stdin>: the plan is larger than 1024 bytes (raise the limit with --max-bytes or PLANCHECK_MAX_BYTES)", id="stdin"),
    pytest.param(["/dev/zero", "--empty", "--max-bytes", "64K"], b"", "plan",
                 "/dev/zero: the plan is larger than 65536 bytes (raise the limit with --max-bytes or PLANCHECK_MAX_BYTES)", id="endless-file"),
    pytest.param(["plan.json", "--checks", "checks.toml", "--max-bytes", "30"], b"", "checks",
                 "checks.toml: the checks file is larger than 30 bytes (raise the limit with --max-bytes or PLANCHECK_MAX_BYTES)",
                 id="checks-file"),
    pytest.param(["query", "plan.json", "--max-bytes", "20"], b"", "plan",
                 "plan.json: the plan is larger than 20 bytes (raise the limit with --max-bytes or PLANCHECK_MAX_BYTES)", id="query"),
    pytest.param(["plan.json", "--empty", "--max-bytes", "0"], b"", "usage",
                 "argument --max-bytes: invalid byte count '0' (a positive number of bytes, optionally with K, M or G)",
                 id="zero"),
    pytest.param(["plan.json", "--empty", "--max-bytes", "5T"], b"", "usage",
                 "argument --max-bytes: invalid byte count '5T' (a positive number of bytes, optionally with K, M or G)",
                 id="unknown-unit"),
    pytest.param(["plan.json", "--empty", "--max-bytes=-1"], b"", "usage",
                 "argument --max-bytes: invalid byte count '-1' (a positive number of bytes, optionally with K, M or G)",
                 id="negative"),
]


@pytest.mark.parametrize(("argv", "stdin", "kind", "message"), MAX_BYTES)
def test_input_beyond_max_bytes_is_refused(files: Path, argv: list[str], stdin: bytes, kind: str, message: str) -> None:
    code, out, err = clirun.cli(*argv, stdin=stdin)
    assert (code, out, err.splitlines()[0]) == (2, "", f"tfplancheck: error: {message}")
    code, out, err = clirun.cli(*argv, "--format", "json", stdin=stdin)
    assert (code, json.loads(out)["error"]) == (2, {"kind": kind, "message": message})


def test_input_of_exactly_max_bytes_is_read(files: Path) -> None:
    size = str(len(json.dumps(PLAN)))
    assert clirun.cli("plan.json", "--empty", "--max-bytes", size) == (0, "PASS  ExpectEmptyPlan\n1 check in plan.json: 1 passed, 0 failed\n", "")


def test_closed_stdin_is_a_plan_error(files: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", None)
    out, err = io.StringIO(), io.StringIO()
    assert run(["-", "--empty"], stdout=out, stderr=err, environ={}) == 2
    assert err.getvalue() == "tfplancheck: error: <stdin>: cannot read the plan: standard input is closed\n"


def test_a_state_given_as_the_plan_is_refused(files: Path) -> None:
    # Needs the loader to tell a state from a plan (issue #12 item 17, loader half): a PlanFormatError
    # saying the document is a state, which the CLI shows as it shows every loader error.
    code, out, err = clirun.cli("state.json", "--empty")
    assert (code, out) == (2, "")
    assert err.startswith("tfplancheck: error: state.json: ")
    assert "state" in err[len("tfplancheck: error: state.json: "):]
    assert len(err.splitlines()) == 1


def test_without_the_option_the_limit_is_the_loaders(files: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from plancheck._loading import source

    assert source.DEFAULT_MAX_BYTES == 2 << 30
    monkeypatch.setattr(source, "DEFAULT_MAX_BYTES", 20)  # the loader's default, whatever it is, is the command's
    errors = io.StringIO()
    assert run(PASSING, stdout=io.StringIO(), stderr=errors, environ={}) == 2
    assert errors.getvalue() == ("tfplancheck: error: plan.json: the plan is larger than 20 bytes (raise the limit with "
                                 "--max-bytes or PLANCHECK_MAX_BYTES)\n")
    out = io.StringIO()
    run(["--help"], stdout=out, stderr=io.StringIO())
    assert ("refuse a plan (or a checks file) larger than N bytes; K, M, G suffixes (default: $PLANCHECK_MAX_BYTES, "
            "else 2G)") in " ".join(out.getvalue().split())


@pytest.mark.parametrize(
    ("argv", "environ", "code", "err"),
    [
        pytest.param(PASSING, {"PLANCHECK_MAX_BYTES": "20"}, 2, "tfplancheck: error: plan.json: the plan is larger than "
                     "20 bytes (raise the limit with --max-bytes or PLANCHECK_MAX_BYTES)\n", id="environment"),
        pytest.param([*PASSING, "--max-bytes", "1M"], {"PLANCHECK_MAX_BYTES": "20"}, 0, "", id="option-wins"),
        pytest.param(["query", "plan.json"], {"PLANCHECK_MAX_BYTES": "1G"}, 2, "tfplancheck: error: PLANCHECK_MAX_BYTES "
                     "must be a positive number of bytes, got '1G'\n", id="environment-read-as-the-loader-reads-it"),
        pytest.param(PASSING, {"PLANCHECK_MAX_BYTES": "0"}, 2, "tfplancheck: error: PLANCHECK_MAX_BYTES must be a "
                     "positive number of bytes, got '0'\n", id="environment-zero"),
    ],
)
def test_the_limit_from_the_environment(
    files: Path, argv: list[str], environ: dict[str, str], code: int, err: str
) -> None:
    out, errors = io.StringIO(), io.StringIO()
    assert run(argv, stdout=out, stderr=errors, environ=environ) == code
    assert errors.getvalue() == err


# -- the installed program --------------------------------------------------------------------------------------


def _process(argv: list[str], cwd: Path, **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
    done = subprocess.run([str(SCRIPT), *argv], cwd=cwd, stderr=subprocess.PIPE, timeout=120, check=False, **kwargs)
    assert b"Traceback" not in done.stderr, done.stderr.decode()
    assert b"Exception ignored" not in done.stderr, done.stderr.decode()
    return done


def test_process_write_failures_and_endless_input(files: Path) -> None:
    with open(_dev_full(), "wb") as full:
        done = _process([*PASSING, "--format", "json"], files, stdout=full)
    assert (done.returncode, done.stderr) == (2, b"tfplancheck: error: cannot write to standard output: No space left on device\n")

    closed = subprocess.run(["sh", "-c", 'exec "$0" "$@" >&-', str(SCRIPT), *PASSING], cwd=files,
                            capture_output=True, timeout=120, check=False)
    assert (closed.returncode, closed.stderr) == (2, b"tfplancheck: error: cannot write to standard output: it is closed\n")

    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before a byte is written: `| head -0`
    try:
        done = _process(["--list-checks"], files, stdout=write_end)
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (141, b"")

    done = _process(["/dev/zero", "--empty", "--max-bytes", "1M"], files, stdout=subprocess.PIPE)
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr == b"tfplancheck: error: /dev/zero: the plan is larger than 1048576 bytes (raise the limit with --max-bytes or PLANCHECK_MAX_BYTES)\n"


#: A plan whose report is far over a pipe's 64 KiB: the reader goes away while the command is still writing.
_DELETIONS = {**PLAN, "resource_changes": [
    {"address": f"null_resource.r{index}", "mode": "managed", "type": "null_resource", "name": f"r{index}",
     "provider_name": "registry.terraform.io/hashicorp/null",
     "change": {"actions": ["delete"], "before": {"id": str(index)}, "after": None, "after_unknown": {}}}
    for index in range(5000)]}


@pytest.mark.parametrize(
    "environ",
    [
        pytest.param({}, id="buffered"),
        # A text stream straight over its file ignores a short write: the rest was dropped, status 1 (the verdict).
        pytest.param({"PYTHONUNBUFFERED": "1"}, id="unbuffered"),
    ],
)
def test_a_reader_that_goes_away_mid_output_is_status_141(files: Path, environ: dict[str, str]) -> None:
    (files / "big.json").write_text(json.dumps(_DELETIONS), "utf-8")
    env = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"} | environ
    with subprocess.Popen([str(SCRIPT), "big.json", "--empty"], cwd=files, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE) as process:
        assert process.stdout is not None
        assert process.stderr is not None
        first = process.stdout.read(10)  # `| head -c 10`
        process.stdout.close()
        errors = process.stderr.read()
        status = process.wait(timeout=120)
    assert (first, status, errors) == (b"FAIL  Expe", 141, b"")


BAD_CHECKS_FILES = {
    "exponent.json": '{"check": [{"type": "ExpectKnownOutputValue", "address": "x", '
                     '"matcher": {"type": "NumberExact", "value": 1e1000000000000000000}}]}',
    "digits.json": '{"check": [{"type": "ExpectKnownOutputValue", "address": "x", '
                   '"matcher": {"type": "Int64Exact", "value": ' + "7" * 5000 + "}}]}",
    "deep.toml": "[[check]]\nx = " + "[" * 600 + "]" * 600 + "\n",
    "deep.json": '{"check": [' + "[" * 100000 + "]" * 100000 + "]}",
    "zero": None,
}


#: The console script's own lines (pip writes them), with a Ctrl-C arriving while the module named loads.
_INTERRUPTED_WHILE_LOADING = """\
import sys


class Interrupting:
    def find_spec(self, name, path=None, target=None):
        if name == sys.argv[1]:
            raise KeyboardInterrupt
        return None


sys.meta_path.insert(0, Interrupting())
from plancheck.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("module", ["plancheck.cli._command", "plancheck.cli._io", "plancheck._redact"])
def test_a_ctrl_c_while_the_command_loads_is_status_130_without_a_traceback(module: str, files: Path) -> None:
    done = subprocess.run([sys.executable, "-c", _INTERRUPTED_WHILE_LOADING, module, *PASSING], cwd=files,
                          capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "")


def test_process_bad_checks_files_are_one_line_exit_2(files: Path) -> None:
    names = []
    for name, text in BAD_CHECKS_FILES.items():
        if text is None:
            names.append("/dev/zero")
        else:
            (files / name).write_text(text, "utf-8")
            names.append(name)
    # A process per file would cost a Python start each: this one runs main() on each in turn.
    script = (
        "import sys\nfrom plancheck.cli import main\n"
        "print([main(['plan.json', '--max-bytes', '1M', '--checks', f]) for f in sys.argv[1:]])\n"
    )
    done = subprocess.run([sys.executable, "-c", script, *names], cwd=files, capture_output=True, text=True,
                          timeout=120, check=False)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stdout.splitlines() == [str([2] * len(names))]
    lines = done.stderr.splitlines()
    assert len(lines) == len(names), done.stderr
    for name, line in zip(names, lines, strict=True):
        assert line.startswith(f"tfplancheck: error: {name}"), line
