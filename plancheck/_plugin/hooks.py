"""The hooks and fixtures of the pytest plugin; :mod:`plancheck.plugin` is what pytest registers.

Kept private so that the plugin module's public surface is exactly pytest's: hook and
fixture names, nothing to import. Everything beyond pytest is imported inside the hooks
and fixtures that need it, so a broken or partial install fails the tests that use it,
never the whole session.

A session that never meets a document (most sessions of a project that has the package installed)
pays for little more than the listener: the session's documents and the hooks that scrub each test's
reports (:class:`.scrub.ReportScrubber`) are set up with the first document or secret met, or the first fixture that
loads one (:func:`_session_documents`). What must see every test from the start is cheap while nothing
was met: the test ids' scrub runs once per collector, the runner's skips are placed by a look at the
exception, and the ``TF_ACC`` skips are counted from the terminal's statistics at the session's end.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Generator, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, cast

import pytest

from .options import (
    DESTROY_LEFTOVERS,
    PLAN,
    STATE,
    DocumentOption,
    add_markers,
    add_options,
    add_sweep_options,
    allow_errored,
    check_sweep_options,
    misread_path_options,
    replaces_tests,
    resolve_document_path,
    show_chdir,
    show_sensitive,
    terraform_binary,
    tf_acc_gate,
)

if TYPE_CHECKING:
    from .._documents.plan import Plan
    from .._documents.state import State
    from .._redact import Secrets
    from .._terraform.binary import TerraformBinary
    from ..acceptance import AcceptanceRunner
    from ..tfconfig import Config
    from .cache import DocumentCache, SessionDocuments
    from .collectors import AssertPlan, PlanChecks, TfSecrets

__all__ = [
    "assert_plan",
    "plan_checks",
    "plancheck_documents",
    "pytest_addoption",
    "pytest_assertrepr_compare",
    "pytest_assertrepr_compare_plan_snapshot",
    "pytest_configure",
    "pytest_configure_node",
    "pytest_ignore_collect",
    "pytest_load_initial_conftests",
    "pytest_make_collect_report",
    "pytest_pyfunc_call",
    "pytest_report_header",
    "pytest_runtest_makereport",
    "pytest_terminal_summary",
    "pytest_unconfigure",
    "tf_acceptance",
    "tf_acceptance_binary",
    "tf_acceptance_cli_config",
    "tf_config",
    "tf_plan",
    "tf_state",
]

_SHOW_SENSITIVE: Final = pytest.StashKey[bool]()
_SHOW_REFUSED: Final = pytest.StashKey[bool]()
_DOCUMENTS: Final = pytest.StashKey["SessionDocuments"]()
#: Set as the tests begin to run: from then on ``PYTEST_CURRENT_TEST`` names this session's test, not one of a
#: session that started this one (its value is inherited until the first test's setup sets it).
_RUNNING: Final = pytest.StashKey[bool]()
#: How the session's plan fixture reads a plan: ``--terraform``, ``--tf-allow-errored``, ``--tf-chdir``.
_PLAN_READING: Final = pytest.StashKey[tuple["str | None", bool, "str | None"]]()
_PLAN_CHECKS: Final = pytest.StashKey["PlanChecks"]()
_STOP_LISTENING: Final = pytest.StashKey[Callable[[], None]]()
#: The documents made before this plugin was configured (the first conftest files, their ``pytest_configure``).
_MET_EARLY: Final = pytest.StashKey[list[object]]()
#: The process ids of the pytest-xdist workers the controller started on this machine.
_WORKERS: Final = pytest.StashKey[list[int]]()
_DIST_NAME: Final = "tfplancheck"


# -- hooks ---------------------------------------------------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add the ``plancheck`` option group and its ini keys."""
    add_options(parser)
    add_sweep_options(parser.getgroup("plancheck"))


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config) -> None:
    """Hear of the documents made before this plugin is configured: as pytest imports the first conftest files (a
    module-level ``load_plan`` a test module imports) and in their own ``pytest_configure``, which pytest calls
    before this plugin's. ``pytest_configure`` stops this listener and gives what it heard to the session's scrub."""
    from .._documents.met import listen

    early: list[object] = []
    early_config.stash[_MET_EARLY] = early
    stop = early_config.stash[_STOP_LISTENING] = listen(early.append)
    early_config.add_cleanup(stop)  # a session never configured (a usage error) listens no more either


def pytest_configure(config: pytest.Config) -> None:
    """Register the markers and decide, once per session, whether secrets may be shown. In a pytest-xdist worker, the
    end of its controller (killed by SIGKILL too) is a SIGTERM to it once it has run Terraform
    (:func:`~plancheck._terraform.lifecycle.end_with_parent`): before, its commands ran on until execnet ended it
    10-15 s later."""
    add_markers(config)
    if hasattr(config, "workerinput"):
        from .._terraform.lifecycle import end_with_parent

        end_with_parent()
    check_sweep_options(config)
    misread = None if hasattr(config, "workerinput") else misread_path_options(config)
    if misread is not None:
        config.issue_config_time_warning(pytest.PytestConfigWarning(misread), stacklevel=2)
    show, refusal = show_sensitive(config)
    if refusal is not None and not hasattr(config, "workerinput"):
        # Warn once, from the controller: xdist workers reach the same decision silently.
        config.issue_config_time_warning(pytest.PytestConfigWarning(refusal), stacklevel=2)
    config.stash[_SHOW_SENSITIVE] = show
    if show:
        from .scrub import Revealer

        config.pluginmanager.register(Revealer(), "plancheck-revealer")
    config.stash[_SHOW_REFUSED] = refusal is not None
    # Read now, whenever the documents are set up: a bad value is a usage error of the session.
    config.stash[_PLAN_READING] = (terraform_binary(config), allow_errored(config), show_chdir(config))
    if getattr(config.option, "setupshow", False):  # --setup-plan sets it too, before any plugin is configured
        from .scrub import SetupShowScrubber

        config.pluginmanager.register(SetupShowScrubber(lambda: _session_secrets(config)), "plancheck-setup-show-scrubber")
    stop_early = config.stash.get(_STOP_LISTENING, None)
    if stop_early is not None:
        stop_early()
    early = config.stash.get(_MET_EARLY, [])
    config.stash[_MET_EARLY] = []  # held weakly from now on, as every document the session meets
    if not show:
        # Every plan and state made in the session (a test's own load_plan, a module-level one), and the
        # secrets a snapshot file holds in clear, are sources of the scrub too, not only the fixtures'.
        if early:
            documents = _session_documents(config)
            for found in early:
                documents.met(found)
        else:
            _listen_for_the_first(config)
    if not tf_acc_gate(config):  # tf_acc_gate = false: TF_ACC=1 for the session (the gate's module only then)
        from .gate import configure_tf_acc

        configure_tf_acc(config)
    if config.getoption("tf_cov", False):
        from .coverage.session import (
            configure_coverage,  # only then: a session without --tf-cov imports none of it
        )

        configure_coverage(config, lambda: _scrub_of(config))
    _defer_termination(config)


def _listen_for_the_first(config: pytest.Config) -> None:
    """Until the session meets its first document or secret, only a listener: that one sets the session's
    documents and scrub up (and listens no more), then gives them what it heard."""
    from .._documents.met import listen  # a list of listeners: the document models stay unimported

    def first(found: object) -> None:
        _session_documents(config).met(found)  # which stops this listener

    config.stash[_STOP_LISTENING] = listen(first)


def _session_documents(config: pytest.Config) -> SessionDocuments:
    """The session's documents, set up with the first document or secret it meets or the first fixture that
    loads one, and with them the scrub of every report from then on (:class:`.scrub.ReportScrubber`).

    Set up while a test runs (its body loaded a plan), they know it as the running test: what it made is
    its own, and its reports still to come (this phase's, its teardown's, its JUnit test case) are scrubbed.
    """
    documents = config.stash.get(_DOCUMENTS, None)
    if documents is not None:
        return documents
    from .cache import SessionDocuments

    terraform, errored, chdir = config.stash[_PLAN_READING]
    documents = config.stash[_DOCUMENTS] = SessionDocuments(terraform, allow_errored=errored, chdir=chdir)
    show = config.stash.get(_SHOW_SENSITIVE, False)
    if not show:
        from .._documents.met import listen

        stop = config.stash.get(_STOP_LISTENING, None)
        if stop is not None:
            stop()
        config.stash[_STOP_LISTENING] = listen(documents.met)
    from .scrub import ReportScrubber

    scrubber = ReportScrubber(config, documents, show=show)
    config.pluginmanager.register(scrubber, "plancheck-scrubber")
    scrubber.join(running=config.stash.get(_RUNNING, False))
    return documents


def _defer_termination(config: pytest.Config) -> None:
    """A SIGTERM or SIGHUP that ends a test's Terraform work interrupts the session as a Ctrl-C does; it is
    delivered again (ending pytest with it) only after the session's teardown and reports, at unconfigure."""
    from contextlib import ExitStack

    from .._loading.delivery import deferring_delivery  # not the lifecycle: nothing started yet

    stack = ExitStack()
    stack.enter_context(deferring_delivery())
    config.add_cleanup(stack.close)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """pytest-xdist's controller, as it starts a worker on this machine: from the first one on, a SIGTERM or SIGHUP
    sent to the controller is passed on to its workers, and ends it once they have ended
    (:func:`~plancheck._terraform.lifecycle.pass_termination_on`).

    Before, the controller ended at once; execnet ended a worker 15 s later (``os._exit``) in the middle of its
    case's post-test destroy, or, with SIGINT ignored (a CI script's ``pytest -n 2 &``), without interrupting it
    first: Terraform's provider, a provisioner and the command's socket directory were left behind.
    """
    if not getattr(node.gateway.spec, "popen", False):
        return  # a remote worker: no process of this machine to signal
    pid = node.gateway.remote_exec("import os; channel.send(os.getpid())").receive()
    workers = node.config.stash.get(_WORKERS, None)
    if workers is None:
        from .._terraform.lifecycle import pass_termination_on

        workers = node.config.stash[_WORKERS] = []
        node.config.add_cleanup(pass_termination_on(lambda: list(workers)))
    workers.append(pid)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stop listening for documents: a session run inside another (pytester) must not outlive itself."""
    stop = config.stash.get(_STOP_LISTENING, None)
    if stop is not None:
        stop()


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version(_DIST_NAME)
    except metadata.PackageNotFoundError:
        return "unknown version"


def pytest_report_header(config: pytest.Config) -> list[str]:
    """``plancheck <version>``, whether secrets are shown, and the acceptance runner's terraform."""
    line = f"plancheck: {_version()}"
    if config.stash.get(_SHOW_SENSITIVE, False):
        line += " (--tf-show-sensitive: sensitive values are SHOWN in failures)"
    elif config.stash.get(_SHOW_REFUSED, False):
        line += " (--tf-show-sensitive ignored: CI is set)"
    lines = [line]
    try:
        from .gate import report_header

        lines.extend(report_header(config))
    except Exception as exc:  # the header is informative only: never let it end the session
        from .._text import exception_text

        lines.append(f"plancheck: terraform unavailable ({exception_text(exc)})")
    return lines


#: Plan snapshot files as PlanSnapshotExtension named them before #33: pytest's doctest glob ``test*.txt`` matched them.
_LEGACY_SNAPSHOT_SUFFIX: Final = ".tfplan.txt"


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """A plan snapshot (``__snapshots__/**/*.tfplan.txt``) is data, never a doctest file to collect.

    Collected, one that a merge left conflicted aborted the whole session ("1 error during collection").
    """
    if collection_path.name.endswith(_LEGACY_SNAPSHOT_SUFFIX) and "__snapshots__" in collection_path.parts:
        return True
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> bool | None:
    """``--tf-sweep`` and ``--tf-destroy-leftovers`` run instead of the tests (after collection: it
    registers the sweepers and imports the providers under test leftovers name).

    Their boundary: anything they did not foresee fails the session with one line, never an INTERNALERROR.
    Either way the tests (or the sweep) run from now on: a document met is the running test's. The documents made
    while collecting are placed now, by what holds them (one only test modules hold scrubs their tests only):
    here, not in a ``pytest_collection_finish`` of the scrub's, which a document met first in a conftest's own
    ``pytest_collection_finish`` found unregistered (the first test let go of it, and its values showed).
    """
    session.config.stash[_RUNNING] = True
    documents = session.config.stash.get(_DOCUMENTS, None)
    if documents is not None:
        from .cache import collected_holders

        documents.collected(collected_holders(session))
    if not replaces_tests(session.config):
        return None
    from .sweep import destroy_leftovers, sweep  # and the runner: only a session that sweeps pays for them

    scrub = _written(session.config)
    try:
        return True if sweep(session, scrub) or destroy_leftovers(session, scrub) else None
    except Exception as exc:
        from .._text import exception_text

        leftovers = session.config.getoption(DESTROY_LEFTOVERS)
        what = "--tf-destroy-leftovers" if leftovers else "--tf-sweep"
        # A leftover's state holds secrets no list of this session has: its error's text is withheld.
        shown = f"{type(exc).__name__} (its message is withheld: it may show a leftover's secrets)" if leftovers \
            else exception_text(exc)
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(scrub(f"[plancheck] {what} failed: unexpected error: {shown} (a bug: please report it)"),
                                red=True)
        session.testsfailed = max(session.testsfailed, 1)
        return True


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    """A skip the acceptance runner raised (``unittest.SkipTest``) is reported at the test, as pytest reports a
    skip marker, not inside pytest's unittest support."""
    # Looked at before pytest's unittest hook replaces the SkipTest with a skip raised in its own module. As that
    # hook does, unittest is looked for, not imported: a SkipTest exists only once it is.
    unittest = sys.modules.get("unittest")
    relocate = False
    if unittest is not None and call.excinfo is not None and isinstance(call.excinfo.value, unittest.SkipTest):
        from .gate import library_skip

        relocate = library_skip(call.excinfo)
    report = yield
    if relocate:
        from .gate import skip_at_item

        skip_at_item(item, report)
    elif _shows_frames(item.config, report):
        from .frames import withhold_library_frames  # only with a failure drawn frame by frame

        withhold_library_frames(report, call.excinfo)
    return report


def _shows_frames(config: pytest.Config, report: pytest.TestReport | pytest.CollectReport) -> bool:
    """Whether ``report`` is a failure rendered frame by frame, whose frames of plancheck's data are to be withheld."""
    return not isinstance(report.longrepr, (str, tuple, type(None))) and not config.stash.get(_SHOW_SENSITIVE, False)


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, pytest.CollectReport, pytest.CollectReport]:
    """A parametrized test whose id shows a secret of the documents made so far (those its module made as it
    was imported, or its ``pytest_generate_tests`` as it was collected) is named with it scrubbed.

    Once a collector has collected, before any of its tests is shown or counted: also when the document was
    the session's first, made while collecting (no hook of the session's scrub was registered yet).
    """
    report = yield
    if _shows_frames(collector.config, report):  # a module's import, a pytest_generate_tests, failed in plancheck
        from .frames import withhold_library_frames

        # pytest keeps the collection's call on its report (for its collect_one_node): the exception says more.
        withhold_library_frames(report, getattr(getattr(report, "call", None), "excinfo", None))
    if not report.passed or not report.result:
        return report
    secrets = _session_secrets(collector.config)
    if secrets is None:
        return report
    from .scrub import scrubbed_report

    scrubbed: pytest.CollectReport = scrubbed_report(collector, report, secrets)
    return scrubbed


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """No silent skips: one line when acceptance tests were skipped for want of ``TF_ACC``.

    Counted from the skips the terminal shows, so pytest-xdist's workers' skips count too.
    """
    skipped = terminalreporter.stats.get("skipped")
    if not skipped:
        return
    from .gate import tf_acc_skips

    line = tf_acc_skips(skipped)
    if line is not None:
        terminalreporter.write_line(line, yellow=True)


@pytest.hookimpl(wrapper=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> Generator[None, object, object]:
    """Verify the checks still queued on ``plan_checks`` once the test function has returned.

    A ``KeyboardInterrupt`` a check raised (not one from the keyboard elsewhere) is that test's failure,
    naming the check; the session then stops after the test's teardown, as an interrupted one.
    """
    try:
        result = yield
    except KeyboardInterrupt as exc:
        _fail_interrupted(pyfuncitem, exc)
        raise
    collector = pyfuncitem.stash.get(_PLAN_CHECKS, None)
    if collector is not None and len(collector):
        import warnings

        from .._errors import CheckFailedError

        message = None
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                collector.verify()
            except CheckFailedError as exc:
                message = f"plan_checks (verified after {pyfuncitem.name} returned): {exc}"
            except KeyboardInterrupt as exc:
                _fail_interrupted(pyfuncitem, exc)
                raise
        # The checks' warnings (unknown="warn") belong to the test, not to this hook: located at its function.
        code = getattr(getattr(pyfuncitem, "function", None), "__code__", None)
        for warned in caught:
            filename = code.co_filename if code is not None else warned.filename
            lineno = code.co_firstlineno if code is not None else warned.lineno
            warnings.warn_explicit(warned.message, warned.category, filename, lineno)
        if message is None:
            return result
        # The test's own frame is gone by now: the message alone is the clearest report.
        pytest.fail(message, pytrace=False)
    return result


def _fail_interrupted(item: pytest.Function, exc: KeyboardInterrupt) -> None:
    """Fail ``item`` for the ``KeyboardInterrupt`` one of its checks raised, and stop the session after it.

    Returns (the caller raises ``exc`` on) for an interrupt that no check raised: pytest's own handling.
    """
    check = getattr(exc, "plancheck_check", None)
    if not isinstance(check, str):
        return
    item.session.shouldstop = f"KeyboardInterrupt raised by the check {check} in {item.nodeid}"
    pytest.fail(f"{check}: raised KeyboardInterrupt (the session stops after this test)", pytrace=False)


def _session_secrets(config: pytest.Config, texts: Callable[[], Iterable[str]] | None = None) -> Callable[[], Secrets] | None:
    """How to get the secrets to scrub ``texts`` of (any text, if None), or None when there is nothing to
    scrub (or revealing is on)."""
    if config.stash.get(_SHOW_SENSITIVE, False):
        return None
    documents = config.stash.get(_DOCUMENTS, None)
    return None if documents is None else documents.secrets_of(texts)


def _scrub_of(config: pytest.Config) -> Callable[[str], str] | None:
    """The session's scrub as it is now, or None when there is nothing to scrub (or revealing is on)."""
    secrets = _session_secrets(config)
    if secrets is None:
        return None
    found = secrets()
    return found.scrub


def _written(config: pytest.Config) -> Callable[[str], str]:
    """The scrub of a line the plugin writes to the terminal itself (no report carries it): the session's secrets
    as they are when the line is written, as every report is scrubbed."""

    def scrub(text: str) -> str:
        from .scrub import scrub_text

        return scrub_text(text, _session_secrets(config))

    return scrub


# A second implementation of the hook in this module, named apart (pluggy's specname): registering an object of
# its own for it cost every session as much as a module of the package does.
@pytest.hookimpl(wrapper=True, specname="pytest_assertrepr_compare")
def pytest_assertrepr_compare_plan_snapshot(
    config: pytest.Config, op: str, left: object, right: object
) -> Generator[None, list[list[str]], list[list[str]]]:
    """Plan snapshots (see :mod:`.snapshot`) explained as review comments; everything else as the other hooks say.

    The hook is not first-result: pytest takes the first explanation of the list all its
    implementations give, so the review comments go first.
    """
    explained = yield
    if op != "==":
        return explained
    from .snapshot import (
        explain_plan_snapshot,  # with a failed comparison: a session imports it only then
    )

    try:
        ours = explain_plan_snapshot(left, right)
    except Exception:  # an explanation is a courtesy: syrupy's stays
        return explained
    return explained if ours is None else [ours, *explained]


def pytest_assertrepr_compare(config: pytest.Config, op: str, left: object, right: object) -> list[str] | None:
    """Explain a failed ``value == knownvalue_matcher`` comparison (either side); None for anything else."""
    if op != "==":
        return None
    # A matcher can only exist if its module was imported: skip the import for everyone else.
    knownvalue = sys.modules.get("plancheck.knownvalue")
    if knownvalue is None:
        return None
    from .assertrepr import explain_comparison

    documents = config.stash.get(_DOCUMENTS, None)
    try:
        secrets = documents.secrets() if documents is not None else None
        return explain_comparison(knownvalue, left, right, secrets)
    except Exception:  # an explanation is a courtesy: pytest's own stays, and the report is scrubbed
        return None


# -- fixtures ------------------------------------------------------------------------------------


# Registered as "_plancheck_documents" (a fixture no test is meant to ask for), named without the underscore here
# so that plugin.py may import it.
@pytest.fixture(scope="session", name="_plancheck_documents")
def plancheck_documents(pytestconfig: pytest.Config) -> SessionDocuments:
    """The session's document caches (one per pytest process: nothing is shared between xdist workers), set up
    with the first test that asks for one of the fixtures that load or find documents."""
    return _session_documents(pytestconfig)


def _document(request: pytest.FixtureRequest, cache: DocumentCache[Any], kind: DocumentOption) -> Any:
    # Function-scoped fixtures only: the requesting node is always the test item.
    found = resolve_document_path(cast(pytest.Item, request.node), kind)
    if found is None:
        pytest.fail(
            f"{kind.name}: no {kind.noun} file for this test: use @pytest.mark.{kind.name}(\"{kind.noun}.json\") "
            f"(relative to the test file), {kind.option} PATH or the {kind.name} ini key",
            pytrace=False,
        )
    path, origin = found
    try:
        return cache.get(kind.name, path)
    except ValueError as exc:  # a DocumentFormatError, or a bad PLANCHECK_MAX_BYTES (as tf_config catches it)
        from .._text import terminal_safe

        # The file's name is the user's, shown on a terminal and in a JUnit file: a NUL or an escape in it is escaped.
        message = terminal_safe(f"{kind.name} (from {origin}): {exc}")
    # Outside the except block, so the report is this one message, not a chain of two.
    pytest.fail(message, pytrace=False)


@pytest.fixture
def tf_plan(request: pytest.FixtureRequest, _plancheck_documents: SessionDocuments) -> Plan:
    """The plan for this test, from ``@pytest.mark.tf_plan(path)``, ``--tf-plan`` or the ``tf_plan`` ini key.

    The file is JSON (``terraform show -json``) or a binary plan (``terraform plan -out``), shown as JSON
    by terraform in the file's directory, as the command line does. A missing or malformed file, or a
    binary plan that cannot be shown, is a test error naming the file and the reason (the JSON location).
    """
    plan: Plan = _document(request, _plancheck_documents.plans, PLAN)
    return plan


@pytest.fixture
def tf_state(request: pytest.FixtureRequest, _plancheck_documents: SessionDocuments) -> State:
    """The state for this test, from ``@pytest.mark.tf_state(path)``, ``--tf-state`` or the ``tf_state`` ini key."""
    state: State = _document(request, _plancheck_documents.states, STATE)
    return state


@pytest.fixture
def assert_plan() -> AssertPlan:
    """``assert_plan(plan, *checks)``: run every check; one failure lists every failed check."""
    from .collectors import AssertPlan  # with the first test that asks: a plain session imports no collector

    return AssertPlan()


@pytest.fixture
def plan_checks(request: pytest.FixtureRequest) -> PlanChecks:
    """A collector: ``plan_checks.add(*checks)``; queued checks run against ``tf_plan`` when the test returns."""
    from .collectors import PlanChecks

    def default_plan() -> Plan:
        plan: Plan = request.getfixturevalue("tf_plan")
        return plan

    collector = PlanChecks(default_plan)
    request.node.stash[_PLAN_CHECKS] = collector
    return collector


@pytest.fixture
def tf_secrets(pytestconfig: pytest.Config) -> TfSecrets:
    """``tf_secrets.add(*secrets)``: strings (or ``plancheck.Secrets``) the test has of its own, ``(sensitive)`` in its
    reports from then on, as a plan's secrets are (see :class:`plancheck._plugin.collectors.TfSecrets`). Example::

        def test_token(tf_secrets):
            token = "hunter2-from-vault"
            tf_secrets.add(token)
            assert token == "x"   # pytest shows: assert '(sensitive)' == 'x'
    """
    from .collectors import TfSecrets

    return TfSecrets(_session_documents(pytestconfig).add_secrets)


@pytest.fixture
def tf_acceptance_binary() -> TerraformBinary | str | None:
    """The binary ``tf_acceptance`` uses: ``None`` discovers it (``--terraform``, ``TF_ACC_TERRAFORM_PATH``, PATH).

    Override it (or parametrize it) in a conftest to run acceptance tests on chosen binaries.
    """
    return None


@pytest.fixture
def tf_acceptance_cli_config() -> str | os.PathLike[str] | None:
    """A Terraform CLI configuration file for ``tf_acceptance``; ``None`` keeps the user's own.

    Override it to install providers from a read-only filesystem mirror (offline, xdist-safe).
    """
    return None


@pytest.fixture
def tf_acceptance(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    tf_acceptance_binary: TerraformBinary | str | None,
    tf_acceptance_cli_config: str | os.PathLike[str] | None,
    _plancheck_documents: SessionDocuments,
) -> AcceptanceRunner:
    """An acceptance-test runner working in this test's ``tmp_path`` (see :mod:`plancheck.acceptance`).

    The secrets it meets (``Sensitive`` variables, sensitive values of its plans and states) are
    scrubbed from this test's reports and its JUnit test case.
    """
    from .acceptance import make_acceptance

    return make_acceptance(
        request,
        tmp_path,
        terraform=tf_acceptance_binary,
        cli_config=tf_acceptance_cli_config,
        share_secrets=_plancheck_documents.add_secrets,
    )


@pytest.fixture
def tf_mock_plan(request: pytest.FixtureRequest, tf_acceptance_binary: TerraformBinary | str | None) -> Callable[..., Plan]:
    """``tf_mock_plan(module_dir, mocks=..., variables=...)``: :func:`plancheck.acceptance.mock_plan` with the
    Terraform ``tf_acceptance`` uses; a relative ``module_dir`` is relative to the test file's directory.

    No ``TF_ACC`` needed (nothing real is planned); skipped when there is no Terraform, as ``tf_acceptance`` is.
    """
    from .acceptance import make_mock_plan

    return make_mock_plan(request, tf_acceptance_binary)


@pytest.fixture
def tf_config(request: pytest.FixtureRequest, _plancheck_documents: SessionDocuments) -> Config:
    """The configuration named by ``@pytest.mark.tf_config(path, flavor=None, strict=False)``.

    ``path`` is a ``.tf.json``/``.tofu.json`` file or a module directory, relative to the test file. Without a
    ``flavor``, a ``.tofu.json`` file or a directory holding a ``.tofu``/``.tofu.json`` file is read as OpenTofu reads
    it (``x.tofu.json`` hiding ``x.tf.json``), anything else as Terraform does.
    """
    marker = request.node.get_closest_marker("tf_config")
    if marker is None:
        pytest.fail(
            'tf_config: no configuration for this test: use @pytest.mark.tf_config("main.tf.json") '
            "(a file or a module directory, relative to the test file)",
            pytrace=False,
        )
    unknown = sorted(set(marker.kwargs) - {"flavor", "strict"})
    if len(marker.args) != 1 or unknown or not isinstance(marker.args[0], (str, os.PathLike)):
        pytest.fail(
            "@pytest.mark.tf_config takes one path and optional flavor= and strict=, "
            f"got args={marker.args!r} kwargs={marker.kwargs!r}",
            pytrace=False,
        )
    from ..tfconfig import load_config_for_test

    try:
        config = load_config_for_test(marker.args[0], relative_to=request.path, **marker.kwargs)
        # Defaults of sensitive variables are secrets of this test's reports, like those of a plan it made.
        _plancheck_documents.add_secrets(config.secrets)
        return config
    except (OSError, ValueError, TypeError) as exc:
        # ConfigFormatError is a ValueError that names the file, line and JSON location; a TypeError names the
        # marker's argument of the wrong type (strict="no").
        message = str(exc) if str(exc).startswith("tf_config:") else f"tf_config: {exc}"
    pytest.fail(message, pytrace=False)
