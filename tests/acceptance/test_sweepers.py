"""Sweepers (#25 item 3): Go's run order, filtering and failure rules, then the pytest options end to end."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from plancheck.acceptance import (
    AddTestSweepers,
    Sweeper,
    SweepFailedError,
    TestDefinitionError,
    filter_sweepers,
    run_sweepers,
)
from plancheck.acceptance._sweep import _REGISTRY

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "plugin"))
from plugin_support import run_subprocess


class Log:
    def __init__(self, failing: dict[str, Any] | None = None) -> None:
        self.calls: list[tuple[str, str]] = []
        self.failing = failing or {}

    def sweeper(self, name: str, *dependencies: str) -> Sweeper:
        def f(region: str) -> object:
            self.calls.append((name, region))
            outcome = self.failing.get(name)
            if isinstance(outcome, type) and issubclass(outcome, BaseException):
                raise outcome(f"{name} broke in {region}")
            return outcome

        return Sweeper(name, f, dependencies)


def sweepers(log: Log, *specs: tuple[str, ...]) -> dict[str, Sweeper]:
    return {spec[0]: log.sweeper(*spec) for spec in specs}


RUNS = [
    ("dependencies-first-once-per-region", [("vpc", "subnet", "gw"), ("subnet", "gw"), ("gw",)], "r1,r2", None,
     [("gw", "r1"), ("subnet", "r1"), ("vpc", "r1"), ("gw", "r2"), ("subnet", "r2"), ("vpc", "r2")]),
    ("run-filter-brings-dependencies", [("vpc", "subnet"), ("subnet",), ("bucket",)], "r1", "VPC",
     [("subnet", "r1"), ("vpc", "r1")]),
    ("run-filter-several-words", [("vpc",), ("subnet",), ("bucket",)], ["r1"], "buck, sub",
     [("subnet", "r1"), ("bucket", "r1")]),
    ("regions-trimmed", [("a",)], " r1 , ,r2 ", None, [("a", "r1"), ("a", "r2")]),
]


@pytest.mark.parametrize(("specs", "regions", "run", "calls"), [r[1:] for r in RUNS], ids=[r[0] for r in RUNS])
def test_run_order(specs: list[tuple[str, ...]], regions: Any, run: Any, calls: list[tuple[str, str]]) -> None:
    log = Log()
    result = run_sweepers(regions, run=run, sweepers=sweepers(log, *specs), log=lambda line: None)
    assert log.calls == calls
    assert result.ok


FAILURES = [
    ("raises-stops-at-once", {"a": RuntimeError}, False, [("a", "r1")],
     "sweeper a failed in region r1: RuntimeError: a broke in r1"),
    ("returned-error-counts", {"a": ValueError("quota")}, False, [("a", "r1")],
     "sweeper a failed in region r1: ValueError: quota"),
    ("allow-failures-goes-on", {"a": RuntimeError}, True, [("a", "r1"), ("b", "r1"), ("a", "r2"), ("b", "r2")],
     "sweeper a failed in region r1: RuntimeError: a broke in r1\n"
     "sweeper a failed in region r2: RuntimeError: a broke in r2"),
]


@pytest.mark.parametrize(("failing", "allow", "calls", "message"), [f[1:] for f in FAILURES], ids=[f[0] for f in FAILURES])
def test_failures_name_the_sweeper_and_region(
    failing: dict[str, Any], allow: bool, calls: list[tuple[str, str]], message: str
) -> None:
    log = Log(failing)
    with pytest.raises(SweepFailedError) as info:
        run_sweepers("r1,r2", sweepers=sweepers(log, ("a",), ("b",)), allow_failures=allow, log=lambda line: None)
    assert log.calls == calls
    assert str(info.value) == message


def test_a_failed_dependency_stops_its_dependent_unless_failures_are_allowed() -> None:
    log = Log({"gw": RuntimeError})
    specs = [("vpc", "gw"), ("gw",)]
    with pytest.raises(SweepFailedError):
        run_sweepers("r1", sweepers=sweepers(log, *specs), log=lambda line: None)
    assert log.calls == [("gw", "r1")]
    log = Log({"gw": RuntimeError})
    with pytest.raises(SweepFailedError) as info:
        run_sweepers("r1", sweepers=sweepers(log, *specs), allow_failures=True, log=lambda line: None)
    assert log.calls == [("gw", "r1"), ("vpc", "r1")]  # as Go: allowed failures let dependents run
    assert [name for _, name, _ in info.value.result.failures] == ["gw"]


def test_a_missing_dependency_and_a_cycle_fail_by_name() -> None:
    log = Log()
    with pytest.raises(SweepFailedError) as info:
        run_sweepers("r1", sweepers=sweepers(log, ("vpc", "nat")), log=lambda line: None)
    assert str(info.value) == "sweeper vpc failed in region r1: it depends on sweeper nat, which is not registered"
    with pytest.raises(SweepFailedError) as info:
        run_sweepers("r1", sweepers=sweepers(log, ("a", "b"), ("b", "a")), log=lambda line: None)
    assert str(info.value) == "sweeper a failed in region r1: its dependencies lead back to it: a -> b -> a"
    assert log.calls == []


DEFINITIONS = [
    ("empty-name", lambda: Sweeper("", print), "Sweeper.Name: expected a non-empty str, got ''"),
    ("not-callable", lambda: Sweeper("a", "rm -rf"), "Sweeper.F: expected a function of the region, got str"),
    ("dependencies-str", lambda: Sweeper("a", print, "b"), "Sweeper.Dependencies: expected a list of sweeper names, got 'b'"),
    ("dependency-empty", lambda: Sweeper("a", print, ["b", ""]), "Sweeper.Dependencies[1]: expected a sweeper name, got ''"),
    ("register-not-a-sweeper", lambda: AddTestSweepers("a", print), "AddTestSweepers: expected a Sweeper, got builtin_function_or_method"),
    ("no-regions", lambda: run_sweepers(" , ", sweepers={}), "run_sweepers.regions: expected at least one region"),
    # The red-team pass of the error promise: these were TypeError "'NoneType' object is not iterable",
    # AttributeError "'int' object has no attribute 'strip'" and "dictionary update sequence element #0 ...".
    ("regions-none", lambda: run_sweepers(None, sweepers={}),  # type: ignore[arg-type]
     "run_sweepers.regions: expected a comma-separated str or a list of str, got NoneType"),
    ("regions-int-item", lambda: run_sweepers(["r1", 5], sweepers={}),  # type: ignore[list-item]
     "run_sweepers.regions: expected a comma-separated str or a list of str, got a list holding int"),
    ("run-int", lambda: run_sweepers("r1", run=5, sweepers={}),  # type: ignore[arg-type]
     "run_sweepers.run: expected a comma-separated str or a list of str, got int"),
    ("sweepers-list", lambda: run_sweepers("r1", sweepers=["vpc"]),  # type: ignore[arg-type]
     "run_sweepers.sweepers: expected a mapping of names to Sweeper, got list"),
    ("filter-source-none", lambda: filter_sweepers("vpc", None),  # type: ignore[arg-type]
     "filter_sweepers.source: expected a mapping of names to Sweeper, got NoneType"),
    ("filter-run-dict", lambda: filter_sweepers({"vpc": 1}, {}),  # type: ignore[arg-type]
     "filter_sweepers.run: expected a comma-separated str or a list of str, got dict"),
    # bytes are a sequence of ints: the message named "a list holding int", which the caller never wrote.
    ("regions-bytes", lambda: run_sweepers(b"us-east-1", sweepers={}),  # type: ignore[arg-type]
     "run_sweepers.regions: expected a comma-separated str or a list of str, got bytes"),
    # rt22's red team: AttributeError "'int' object has no attribute 'Dependencies'" / "... 'lower'", TypeError
    # "'str' object is not callable" at the first line logged, and UnicodeEncodeError from print.
    ("filter-source-of-ints", lambda: filter_sweepers("vpc", {1: 2}),  # type: ignore[dict-item]
     "filter_sweepers.source: expected a mapping of names to Sweeper, got one of int to int"),
    ("sweepers-of-ints", lambda: run_sweepers("r1", sweepers={"a": 1}),  # type: ignore[dict-item]
     "run_sweepers.sweepers: expected a mapping of names to Sweeper, got one of str to int"),
    ("log-not-callable", lambda: run_sweepers("r1", sweepers={}, log="sweep.log"),  # type: ignore[arg-type]
     "run_sweepers.log: expected a function taking a line (str), got str"),
    ("region-lone-surrogate", lambda: run_sweepers("\ud800", sweepers={}),
     "run_sweepers.regions: expected names of Unicode text, got '\\ud800'"),
]


@pytest.mark.parametrize("regions", [
    pytest.param(("r1", "r2"), id="tuple"),
    # Iterables that are not sequences were swept before the argument checks came, and still are.
    pytest.param({"r1": None, "r2": None}.keys(), id="dict-keys"),
    pytest.param((r for r in ("r1", "r2")), id="generator"),
])
def test_regions_any_iterable_of_str(regions: Any) -> None:
    swept: list[str] = []
    result = run_sweepers(regions, sweepers={"vpc": Sweeper("vpc", swept.append)}, log=lambda _line: None)
    assert swept == ["r1", "r2"]
    assert list(result.regions) == ["r1", "r2"]


@pytest.mark.parametrize(("make", "message"), [d[1:] for d in DEFINITIONS], ids=[d[0] for d in DEFINITIONS])
def test_definition_errors(make: Any, message: str) -> None:
    with pytest.raises(TestDefinitionError) as info:
        make()
    assert str(info.value) == message


def test_registration_once_per_definition() -> None:
    try:
        first = Sweeper("sweep_test_registration", lambda region: None)
        AddTestSweepers("sweep_test_registration", first)
        AddTestSweepers("sweep_test_registration", first)  # the same definition again (a module re-imported)
        with pytest.raises(TestDefinitionError, match="already registered"):
            AddTestSweepers("sweep_test_registration", Sweeper("sweep_test_registration", print))
    finally:
        _REGISTRY.pop("sweep_test_registration", None)


def test_go_names_read_the_same() -> None:
    sweeper = Sweeper("a", print, ["b"])
    assert (sweeper.Name, sweeper.Dependencies, sweeper.F) == ("a", ("b",), print)
    assert filter_sweepers("", {"a": sweeper}) == {"a": sweeper}


CONFTEST = textwrap.dedent(
    """
    from pathlib import Path

    from plancheck.acceptance import Sweeper, AddTestSweepers

    LOG = Path(__file__).with_name("swept.txt")


    def record(name, fail=False):
        def f(region):
            with LOG.open("a") as out:
                out.write(f"{name} {region}\\n")
            if fail:
                raise RuntimeError(f"cannot list widgets in {region}")
        return f


    AddTestSweepers("widget_vpc", Sweeper("widget_vpc", record("widget_vpc"), ["widget_thing"]))
    AddTestSweepers("widget_thing", Sweeper("widget_thing", record("widget_thing")))
    AddTestSweepers("bucket", Sweeper("bucket", record("bucket", fail=True)))
    """
)
TESTS = "def test_never_runs_while_sweeping():\n    raise AssertionError('tests must not run')\n"


def swept(pytester: pytest.Pytester) -> list[str]:
    path = pytester.path / "swept.txt"
    return path.read_text().splitlines() if path.exists() else []


def test_the_plugin_sweeps_instead_of_testing(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_widgets=TESTS)
    result = run_subprocess(pytester, "--tf-sweep=us-east-1,eu-west-1", "--tf-sweep-run=vpc")
    assert result.ret == 0
    assert swept(pytester) == ["widget_thing us-east-1", "widget_vpc us-east-1", "widget_thing eu-west-1",
                               "widget_vpc eu-west-1"]
    result.stdout.fnmatch_lines(["*widget_vpc (us-east-1): ok*", "*[[]sweep] 4 sweeper run(s) succeeded; no tests were run*"])
    assert "tests must not run" not in result.stdout.str()


def test_a_failing_sweeper_fails_the_session_by_name(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_widgets=TESTS)
    result = run_subprocess(pytester, "--tf-sweep=r1,r2")
    assert result.ret == 1
    assert swept(pytester) == ["widget_thing r1", "widget_vpc r1", "bucket r1"]  # stops at the first failure
    result.stdout.fnmatch_lines([
        "*[[]sweep] 1 sweeper(s) failed:*", "*sweeper bucket failed in region r1: RuntimeError: cannot list widgets in r1*",
    ])
    (pytester.path / "swept.txt").unlink()
    result = run_subprocess(pytester, "--tf-sweep=r1,r2", "--tf-sweep-allow-failures")
    assert result.ret == 1
    assert swept(pytester) == ["widget_thing r1", "widget_vpc r1", "bucket r1", "widget_thing r2", "widget_vpc r2",
                               "bucket r2"]
    result.stdout.fnmatch_lines(["*[[]sweep] 2 sweeper(s) failed:*"])


USAGE = [
    ("run-without-sweep", ["--tf-sweep-run=vpc"], "--tf-sweep-run and --tf-sweep-allow-failures need --tf-sweep=REGIONS"),
    ("no-region", ["--tf-sweep=,"], "--tf-sweep needs at least one region, e.g. --tf-sweep=us-east-1,eu-west-1"),
    ("with-xdist", ["--tf-sweep=r1", "-n", "2"], "--tf-sweep runs in one process: leave out pytest-xdist's -n"),
]


@pytest.mark.parametrize(("args", "message"), [u[1:] for u in USAGE], ids=[u[0] for u in USAGE])
def test_option_misuse_is_a_usage_error(pytester: pytest.Pytester, args: list[str], message: str) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_widgets=TESTS)
    result = run_subprocess(pytester, *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert message in result.stderr.str()
    assert swept(pytester) == []


# -- red team (#25): a sweeper never ends the session ------------------------------------------------------


def test_a_chain_of_dependencies_thousands_long_runs_in_order() -> None:
    """Red team (#25): the dependencies were walked by recursion: a chain of 1200 was a RecursionError."""
    log = Log()
    names = [f"s{i}" for i in range(3000)]
    chain = {n: log.sweeper(n, *names[i + 1 : i + 2]) for i, n in enumerate(names)}
    run_sweepers("r1", sweepers=chain, log=lambda line: None)
    assert log.calls == [(n, "r1") for n in reversed(names)]


def test_a_long_cycle_fails_by_name() -> None:
    log = Log()
    names = [f"s{i}" for i in range(2000)]
    ring = {n: log.sweeper(n, names[(i + 1) % len(names)]) for i, n in enumerate(names)}
    with pytest.raises(SweepFailedError) as info:
        run_sweepers("r1", sweepers=ring, log=lambda line: None, run="s0")
    assert log.calls == []
    assert str(info.value).startswith("sweeper s0 failed in region r1: its dependencies lead back to it: s0 -> s1 -> ")


def test_a_base_exception_of_a_sweeper_is_its_failure_and_an_interrupt_stops_the_sweep() -> None:
    class Outcome(BaseException):  # as pytest's Failed and Skipped
        pass

    log = Log({"a": Outcome})
    with pytest.raises(SweepFailedError) as info:
        run_sweepers("r1", sweepers=sweepers(log, ("a",), ("b",)), allow_failures=True, log=lambda line: None)
    assert info.value.result.failures == [("r1", "a", "Outcome: a broke in r1")]
    assert log.calls == [("a", "r1"), ("b", "r1")]
    lines: list[str] = []
    with pytest.raises(KeyboardInterrupt):
        run_sweepers("r1", sweepers=sweepers(Log({"a": KeyboardInterrupt}), ("a",), ("b",)), log=lines.append)
    assert [line for line in lines if "FAILED" in line] == ["[sweep] a (r1): FAILED: KeyboardInterrupt (the sweep stops)"]


class _Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text for you")


def _exits(region: str) -> None:
    sys.exit(3)


def _unprintable(region: str) -> None:
    raise _Unprintable


def _returns_unprintable(region: str) -> object:
    return _Unprintable()


#: Issue #33: what a sweeper raises is that sweeper's failure, however odd, never an end of the run.
ODD_SWEEPERS = [
    ("sys-exit", _exits, "SystemExit: 3"),
    ("str-raises", _unprintable, "_Unprintable"),
    ("returns-str-raises", _returns_unprintable, "_Unprintable"),
]


@pytest.mark.parametrize(("f", "error"), [o[1:] for o in ODD_SWEEPERS], ids=[o[0] for o in ODD_SWEEPERS])
def test_whatever_a_sweeper_raises_is_its_failure(f: Any, error: str) -> None:
    with pytest.raises(SweepFailedError) as info:
        run_sweepers("r1", sweepers={"a": Sweeper("a", f), "b": Sweeper("b", lambda region: None)},
                     allow_failures=True, log=lambda line: None)
    assert info.value.result.failures == [("r1", "a", error)]
    assert info.value.result.regions == {"r1": {"a": error, "b": None}}


PYTEST_FAIL = textwrap.dedent(
    """
    import pytest

    from plancheck.acceptance import Sweeper, AddTestSweepers


    def listing(region):
        pytest.fail("cannot list widgets in " + region)


    AddTestSweepers("widget_thing", Sweeper("widget_thing", listing))
    """
)


def test_pytest_fail_in_a_sweeper_fails_the_sweep_not_the_session(pytester: pytest.Pytester) -> None:
    """Red team (#25): pytest.fail() raises a BaseException, which went past run_sweepers: INTERNALERROR, no report."""
    pytester.makeconftest(PYTEST_FAIL)
    pytester.makepyfile(test_widgets=TESTS)
    result = run_subprocess(pytester, "--tf-sweep=r1")
    assert result.ret == 1
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    result.stdout.fnmatch_lines([
        "*[[]sweep] 1 sweeper(s) failed:*", "*sweeper widget_thing failed in region r1: Failed: cannot list widgets in r1*",
    ])


ODD_CONFTEST = textwrap.dedent(
    """
    import sys

    from plancheck.acceptance import Sweeper, AddTestSweepers


    class Unprintable(Exception):
        def __str__(self):
            raise RuntimeError("no text for you")


    def exits(region):
        sys.exit(3)


    def unprintable(region):
        raise Unprintable()


    def interrupted(region):
        raise KeyboardInterrupt


    def swept(region):
        with open("swept.txt", "a") as out:
            out.write("after " + region + "\\n")


    AddTestSweepers("odd", Sweeper("odd", {f}))
    AddTestSweepers("after", Sweeper("after", swept))
    """
)

#: Issue #33: a sweeper calling sys.exit(3), or raising an exception whose str() raises, ended the session with
#: INTERNALERROR; an interrupt is that sweeper's failure and still stops the session.
ODD_SESSIONS = [
    ("sys-exit", "exits", 1, ["*sweeper odd failed in region r1: SystemExit: 3*"], ["after r1"]),
    ("str-raises", "unprintable", 1, ["*sweeper odd failed in region r1: Unprintable"], ["after r1"]),
    ("keyboard-interrupt", "interrupted", pytest.ExitCode.INTERRUPTED,
     ["*[[]sweep] odd (r1): FAILED: KeyboardInterrupt (the sweep stops)*",
      "*[[]sweep] interrupted: the remaining sweepers did not run*"], []),
]


@pytest.mark.parametrize(("f", "status", "lines", "after"), [o[1:] for o in ODD_SESSIONS], ids=[o[0] for o in ODD_SESSIONS])
def test_an_odd_sweeper_fails_by_name_never_an_internal_error(
    pytester: pytest.Pytester, f: str, status: int, lines: list[str], after: list[str],
) -> None:
    pytester.makeconftest(ODD_CONFTEST.replace("{f}", f))
    pytester.makepyfile(test_widgets=TESTS)
    result = run_subprocess(pytester, "--tf-sweep=r1", "--tf-sweep-allow-failures")
    output = result.stdout.str() + result.stderr.str()
    assert "INTERNALERROR" not in output
    assert "Traceback" not in output
    assert result.ret == status
    result.stdout.fnmatch_lines(lines)
    assert swept(pytester) == after


BROKEN_RUNNER = textwrap.dedent(
    """
    import plancheck.acceptance


    class Unprintable(Exception):
        def __str__(self):
            raise RuntimeError("no text for you")


    def broken(*args, **kwargs):
        raise Unprintable()


    plancheck.acceptance.run_sweepers = broken
    """
)


def test_what_the_sweep_did_not_foresee_fails_the_session_with_one_line(pytester: pytest.Pytester) -> None:
    """Issue #33: pytest_runtestloop is the sweep's boundary: anything else ended the session with INTERNALERROR."""
    pytester.makeconftest(BROKEN_RUNNER)
    pytester.makepyfile(test_widgets=TESTS)
    result = run_subprocess(pytester, "--tf-sweep=r1")
    output = result.stdout.str() + result.stderr.str()
    assert "INTERNALERROR" not in output
    assert result.ret == 1
    result.stdout.fnmatch_lines(["[[]plancheck] --tf-sweep failed: unexpected error: Unprintable (a bug: please report it)"])


BROKEN_LEFTOVERS = textwrap.dedent(
    """
    import plancheck.acceptance


    def broken(*args, **kwargs):
        raise ValueError("state says hunter2-leftover-secret")


    plancheck.acceptance.destroy_leftovers = broken
    """
)


def test_what_destroying_leftovers_did_not_foresee_fails_with_its_text_withheld(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(BROKEN_LEFTOVERS)
    pytester.makepyfile(test_widgets=TESTS)
    result = run_subprocess(pytester, "--tf-destroy-leftovers")
    output = result.stdout.str() + result.stderr.str()
    assert "INTERNALERROR" not in output
    assert "hunter2-leftover-secret" not in output
    assert result.ret == 1
    result.stdout.fnmatch_lines(["[[]plancheck] --tf-destroy-leftovers failed: unexpected error: ValueError (its message is "
                                 "withheld: it may show a leftover's secrets) (a bug: please report it)"])
