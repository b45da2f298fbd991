"""``pytest --tf-cov``: the session's Terraform test coverage, collected from every plan made and check run.

Without ``--tf-cov`` nothing here is imported or registered. With it, a :class:`CoveragePlugin` listens
for every plan made (the document listeners of ``_documents/met.py``), the directory the acceptance
runner made one from, the conditions a step's expected diagnostics located, and every check run on a plan; at each test's end the plans it met are read
into the coverage data (:mod:`plancheck._plugin.coverage.data`) and let go. Under xdist each worker sends its
data to the controller (``workeroutput``), which merges them once, as pytest-cov does, and writes
the reports (``--tf-cov-report``), the data file (``--tf-cov-data``) and the verdict of
``--tf-cov-fail-under``.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Generator
from functools import partial
from itertools import product
from operator import itemgetter
from pathlib import Path
from typing import Any, Final

import pytest

from ..._checking.fields import OutputFields, OutputMatcherFields, OutputPathFields, OutputPathMatcherFields
from ..._documents.met import directory_of, listen, watch
from ..._documents.plan import Plan
from ..._documents.select import Resources
from ..._redact import SUBSTRING_WINDOW
from .data import CoverageData, CoverageDataError
from .report import ReportSpecError, fails_under, parse_report, write_data, write_reports

__all__ = ["WORKER_KEY", "CoveragePlugin", "configure_coverage", "targets", "write_term"]

#: The key of a worker's coverage data in its ``workeroutput``.
WORKER_KEY: Final = "plancheck_tf_cov"
_OUTPUT_FIELDS: Final = (OutputFields, OutputMatcherFields, OutputPathFields, OutputPathMatcherFields)
#: The field names of each check class :func:`targets` was given (read once: every test runs checks of a few classes).
_FIELD_NAMES: dict[type, frozenset[str]] = {}


def configure_coverage(config: pytest.Config, scrub: Callable[[], Callable[[str], str] | None]) -> None:
    """Register the coverage plugin (``--tf-cov`` was given); a bad ``--tf-cov-report`` is a usage error.

    ``scrub()`` is the session's scrub of what the HTML report shows of a module's files, or None.
    """
    try:
        specs = [parse_report(spec) for spec in (config.getoption("tf_cov_report") or ["term"])]
    except ReportSpecError as exc:
        raise pytest.UsageError(str(exc)) from None
    clash = _clash([target for _, target in specs if target is not None], config.getoption("tf_cov_data"))
    if clash is not None:
        raise pytest.UsageError(clash)
    plugin = CoveragePlugin(config, specs, scrub)
    config.pluginmanager.register(plugin, "plancheck-tf-cov")
    config.add_cleanup(plugin.stop)


def _clash(reports: list[str], data_file: str | None) -> str | None:
    """Why the ``--tf-cov-report`` files would replace each other or the ``--tf-cov-data`` file, else None (the
    command line's ``coverage combine`` refuses the same, with its own options' names).

    >>> _clash(["tf.json"], "./tf.json")
    '--tf-cov-report tf.json: the file is written by --tf-cov-data too'
    """
    seen: set[str] = set()
    for target in reports:
        where = os.path.abspath(target)
        if where in seen:
            return f"--tf-cov-report {target}: the file is named by another --tf-cov-report too"
        if data_file is not None and where == os.path.abspath(data_file):
            return f"--tf-cov-report {target}: the file is written by --tf-cov-data too"
        seen.add(where)
    return None


class CoveragePlugin:
    """One session's coverage: the plans met and not yet read, the data, and the hooks that report it."""

    def __init__(
        self, config: pytest.Config, specs: list[tuple[str, str | None]],
        scrub: Callable[[], Callable[[str], str] | None] = lambda: None,
    ) -> None:
        self.config = config
        self._scrub = scrub
        self.specs = specs
        self.rootdir = Path(config.rootpath)
        self.data = CoverageData()
        self.problems: list[str] = []
        self.written: list[str] = []
        self.verdict: str | None = None
        #: id(plan) -> [plan, its directory, the targets of the checks run on it]; emptied at each test's end.
        self.pending: dict[int, list[Any]] = {}
        #: (directory, located conditions) an expected diagnostic said failed; read after the test's plans.
        self.failures: list[tuple[Any, tuple[tuple[str, str, int], ...]]] = []
        self._stops: list[Callable[[], None]] = [listen(self._met), watch(self._watched)]

    def stop(self) -> None:
        """Stop listening (the session's cleanup)."""
        for stop in self._stops:
            stop()
        self._stops = []

    # -- collecting (called inside the tests: never raises) -----------------------------------------

    def _entry(self, plan: Plan) -> list[Any]:
        entry = self.pending.get(id(plan))
        if entry is None or entry[0] is not plan:
            # The directory a plan still alive was planned in, kept with the documents (a pickle carries it): a plan
            # checked again in a later test (a fixture's) is still that module's.
            entry = self.pending[id(plan)] = [plan, directory_of(plan), []]
        return entry

    def _met(self, found: object) -> None:
        if isinstance(found, Plan):
            self._entry(found)

    def _watched(self, event: str, document: object, detail: object) -> None:
        if event == "failed":
            self.failures.append((document, detail))  # type: ignore[arg-type]  # said by the runner: a tuple
            return
        if not isinstance(document, Plan):
            return
        try:
            if event == "planned":
                self._entry(document)[1] = detail
            elif event == "checked":
                self._entry(document)[2].extend(targets(detail, document))
        except Exception as exc:  # a check's own run must never fail because of coverage
            self.problems.append(f"a check's targets could not be read ({type(exc).__name__})")

    def flush(self) -> None:
        """Read every plan met since the last flush into the data, and let go of them."""
        pending, self.pending = self.pending, {}
        for plan, directory, found in pending.values():
            try:
                self.data.add_plan(plan, directory, self.rootdir, _scrubbed(plan, found))
            except Exception as exc:  # a plan coverage cannot read is said in the report, never a test's failure
                self.problems.append(f"a plan could not be read for coverage ({type(exc).__name__})")
        failures, self.failures = self.failures, []
        for directory, located in failures:  # after the plans: the module's items are known from them
            try:
                self.data.add_failures(directory, self.rootdir, located)
            except Exception as exc:
                self.problems.append(f"a failed condition could not be read for coverage ({type(exc).__name__})")

    # -- hooks ------------------------------------------------------------------------------------

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logfinish(self) -> None:
        """The test is over: read the plans it met."""
        self.flush()

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        """An xdist worker is done: merge the data it sent."""
        output = getattr(node, "workeroutput", None) or {}
        if WORKER_KEY in output:
            try:
                self.data.merge(CoverageData.from_json(output[WORKER_KEY], "an xdist worker's coverage data"))
            except CoverageDataError as exc:
                self.problems.append(str(exc))

    @pytest.hookimpl(wrapper=True)
    def pytest_runtestloop(self, session: pytest.Session) -> Generator[None, object, object]:
        """After every test (and every worker): send the data (a worker) or write the reports and judge."""
        result = yield
        self.flush()
        workeroutput = getattr(self.config, "workeroutput", None)
        if workeroutput is not None:
            workeroutput[WORKER_KEY] = self.data.to_json()
            return result
        data_file = self.config.getoption("tf_cov_data")
        specs = [spec for spec in self.specs if spec[0] != "term"]
        # Only the HTML report shows a module's files: the session's secrets are collected for it alone.
        scrub = self._scrub() if any(kind == "html" for kind, _ in specs) else None
        # Each file on its own: one that cannot be written (a full disk, a name taken) keeps no other from being written.
        if data_file:
            path = Path(data_file)
            self._write(partial(write_data, self.data, path if path.is_absolute() else self.rootdir / path))
        for spec in specs:
            self._write(partial(write_reports, self.data, [spec], self.rootdir, lambda text: None, scrub))
        minimum = self.config.getoption("tf_cov_fail_under")
        if minimum is not None:
            self.verdict = fails_under(self.data, minimum)
            if self.verdict is not None:
                session.testsfailed += 1
        return result

    def _write(self, write: Callable[[], list[str] | None]) -> None:
        """Write one of the session's files, keeping its name for the summary; one that cannot be written is a problem
        said at the end."""
        try:
            self.written.extend(write() or ())
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            self.problems.append(f"a coverage report could not be written ({exc.filename}: {reason})")

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """The term report, the files written, and the verdict of ``--tf-cov-fail-under``."""
        if getattr(self.config, "workeroutput", None) is not None:
            return
        terminalreporter.write_sep("-", "Terraform coverage")
        if any(kind == "term" for kind, _ in self.specs):
            for text in write_term(self.data):
                terminalreporter.write_line(text)
        for path in self.written:
            terminalreporter.write_line(f"Terraform coverage report written to {path}")
        for problem in self.problems:
            terminalreporter.write_line(f"Terraform coverage: {problem}", yellow=True)
        if self.verdict is not None:
            terminalreporter.write_line(self.verdict, red=True)


def _scrubbed(plan: Plan, found: list[tuple[str, str, str | None]]) -> list[tuple[str, str, str | None]]:
    """The targets ``found`` of the checks run on ``plan``, each path text scrubbed of the plan's secrets as a failure
    shows the path its check was given (:meth:`plancheck.Secrets.scrub_trusted`): a piece of a secret of
    :data:`~plancheck._redact.SUBSTRING_WINDOW` characters or more is scrubbed (a path can be computed from a
    secret), a shorter one is a word the user wrote. So a shorter text shows none, and the plan's secrets (a walk of
    all of it) are collected only when a longer one was given.
    """
    # Asked of the distinct texts: a selection's targets (every resource it selects) share their check's one or few.
    if not any(text is not None and len(text) >= SUBSTRING_WINDOW for text in set(map(itemgetter(2), found))):
        return found
    scrub = plan.secrets.scrub_trusted
    return [(kind, address, None if text is None else scrub(text)) for kind, address, text in found]


def write_term(data: CoverageData) -> list[str]:
    """The term report's lines."""
    lines: list[str] = []
    write_reports(data, [("term", None)], Path("."), lines.append)
    return lines


def targets(check: object, document: object) -> list[tuple[str, str, str | None]]:
    """What ``check`` addressed in ``document``: (``resource`` or ``output``, address or name, path text or None).

    A check's ``address``, an output check's ``name`` and every resource its ``selector`` selects; each with
    its ``path`` or ``paths``. A check without these (a whole-plan check, a user's own class) addresses nothing.

    >>> from plancheck import ExpectKnownOutputValue, ExpectUnknownValue, knownvalue as kv
    >>> from tfjsonpath import New
    >>> targets(ExpectUnknownValue("t.a[0]", New("tags").AtMapKey("x")), None)
    [('resource', 't.a[0]', 'tags["x"]')]
    >>> targets(ExpectKnownOutputValue("o", kv.Null()), None)
    [('output', 'o', None)]
    """
    if not dataclasses.is_dataclass(check):
        return []
    names = _FIELD_NAMES.get(type(check))
    if names is None:
        names = _FIELD_NAMES[type(check)] = frozenset(f.name for f in dataclasses.fields(check))
    path = getattr(check, "path", None) if "path" in names else None
    texts: list[str | None] = [path.to_text()] if path is not None and hasattr(path, "to_text") else []
    if "paths" in names:
        texts.extend(p.to_text() for p in getattr(check, "paths", ()) if hasattr(p, "to_text"))
    texts = texts or [None]
    found: list[tuple[str, str, str | None]] = []
    if isinstance(check, _OUTPUT_FIELDS):
        found.extend(("output", check.name, text) for text in texts)
    elif "address" in names and isinstance(address := getattr(check, "address", None), str):
        found.extend(("resource", address, text) for text in texts)
    selector = getattr(check, "selector", None) if "selector" in names else None
    if isinstance(selector, Resources) and isinstance(document, Plan):
        # A selection is most of a session's targets (every resource it selects, in every plan): each made once, by
        # product (each address with each text, in the selection's order).
        found.extend(product(("resource",), [change.address for change in selector.select(document)], texts))
    return found
