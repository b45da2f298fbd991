"""A per-session cache of loaded documents, keyed by file identity.

The key is (kind, resolved path, mtime in ns, size): a file rewritten during the
session is loaded again, an unchanged one never is. One cache lives in each pytest
session (a session-scoped fixture), so xdist workers share nothing.
"""

from __future__ import annotations

import contextlib
import os
import sys
import weakref
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from .._errors import DocumentFormatError
from .._redact import Secrets

if TYPE_CHECKING:
    import pytest

__all__ = ["DocumentCache", "SessionDocuments", "collected_holders", "load_plan_file", "module_of"]

T = TypeVar("T")

_Key = tuple[str, str, int, int]


class DocumentCache(Generic[T]):
    """Load each document once per (path, mtime, size); malformed documents fail the same way every time.

    >>> import json, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = Path(d, "doc.json")
    ...     _ = p.write_text('{"a": 1}')
    ...     cache = DocumentCache(lambda path: json.loads(Path(path).read_text()))
    ...     first, second = cache.get("doc", p), cache.get("doc", p)
    >>> first is second, cache.loads
    (True, 1)
    """

    __slots__ = ("_entries", "_loader", "loads")

    def __init__(self, loader: Callable[[Path], T]) -> None:
        self._loader = loader
        self._entries: dict[_Key, T | DocumentFormatError] = {}
        #: How many times the loader ran (for tests and for the curious).
        self.loads = 0

    def _load(self, path: Path) -> T | DocumentFormatError:
        self.loads += 1
        try:
            return self._loader(path)
        except DocumentFormatError as exc:
            return exc

    def get(self, kind: str, path: Path) -> T:
        """The document at ``path``, loaded at most once while the file is unchanged.

        Raises the loader's :class:`DocumentFormatError` (a fresh traceback each time).
        """
        try:
            st = os.stat(path)
        except (OSError, ValueError):
            # Nothing to key on (ValueError: a name no system call takes): the loader reports the file.
            result = self._load(path)
        else:
            key = (kind, str(path), st.st_mtime_ns, st.st_size)
            if key not in self._entries:
                self._entries[key] = self._load(path)
            result = self._entries[key]
        if isinstance(result, BaseException):
            raise result.with_traceback(None)
        return result

    def documents(self) -> list[T]:
        """Every document loaded successfully (malformed ones are left out)."""
        return [doc for doc in self._entries.values() if not isinstance(doc, BaseException)]

    def __repr__(self) -> str:
        return f"<DocumentCache: {len(self._entries)} entries, {self.loads} loads>"

    def __len__(self) -> int:
        return len(self._entries)


def load_plan_file(path: str | os.PathLike[str], *, terraform: str | None = None, allow_errored: bool = False,
                   chdir: str | None = None) -> Any:
    """The plan of ``--tf-plan`` (and the ``tf_plan`` marker and ini key): :func:`plancheck.load_plan_file`, so a
    JSON file, or a binary plan shown by ``terraform`` in the file's directory (``chdir``: ``--tf-chdir DIR``, as
    the command line's ``--chdir``); one that planning failed on is refused unless ``allow_errored``.

    The file is read once, up to the loader's limit (``PLANCHECK_MAX_BYTES``, else 2 GiB), and parsed
    once: :mod:`plancheck._terraform.planfile` turns a binary plan's bytes into JSON bytes, held to the
    same limit. Its errors are the loader's (a :class:`~plancheck.PlanFormatError`, an
    :class:`~plancheck.ErroredPlanError`), a binary plan that cannot be shown a ``BinaryPlanError`` (one too).

    A document of none of a plan's keys (``{"format_version": "1.0"}``, what ``terraform show -json`` prints
    without the plan file where there is no state yet) is refused, as the command line refuses it: every check
    of a gate would pass on it.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = pathlib.Path(d, "plan.json")
    ...     _ = p.write_text('{"format_version": "1.2", "planned_values": {}}')
    ...     load_plan_file(p).format_version
    '1.2'
    """
    from .._errors import PlanFormatError
    from .._loading.validate import PLAN_KEYS
    from .._terraform.planfile import read_plan_file

    # The library's one route: the plugin's rule (show runs in the plan file's directory, or --tf-chdir) is
    # load_plan_file's; when the providers cannot be loaded there, the error names the plugin's option.
    plan = read_plan_file(path, terraform, chdir, allow_errored=allow_errored, hint="--tf-chdir DIR")
    if not any(key in plan.raw for key in PLAN_KEYS):  # see PLAN_KEYS
        raise PlanFormatError("$", "a plan (terraform show -json PLANFILE)", found=_NO_PLAN_KEYS, source=os.fspath(path))
    return plan


#: Why ``--tf-plan`` refuses a document of none of a plan's keys (see :func:`load_plan_file`).
_NO_PLAN_KEYS = (
    'a document of none of a plan\'s keys (no "planned_values", which every plan Terraform and OpenTofu write '
    "holds): the JSON of `terraform show -json` with no plan file, where there is no state yet; give --tf-plan a "
    "plan file (`terraform plan -out=tfplan`) or its JSON (`terraform show -json tfplan`)"
)


def _plan_loader(terraform: str | None, allow_errored: bool, chdir: str | None = None) -> Callable[[Path], Any]:
    """The plan reader of the plugin: :func:`load_plan_file` with the session's ``--terraform``,
    ``--tf-allow-errored`` and ``--tf-chdir``."""

    def load(path: Path) -> Any:
        return load_plan_file(path, terraform=terraform, allow_errored=allow_errored, chdir=chdir)

    return load


def _load_state_file(path: Path) -> Any:
    from .._documents.state import load_state

    return load_state(path)


class SessionDocuments:
    """The plans and states one pytest session loaded or made, and the secrets they hold, test by test.

    Whose secrets scrub a report: those of the documents the fixtures loaded (kept by the cache for the
    session), those found outside any test, and those the running test made or found; a document an
    earlier test made only while something still holds it (a module-level plan, a module-scoped
    fixture's); a document made while collecting, for the tests of its module when only tests'
    parameters hold it. A test's own documents never become every later test's secrets: a word a test
    planted as a secret ("other") stays readable in the skip reasons of the tests after it.

    >>> from plancheck import Secrets
    >>> docs = SessionDocuments()
    >>> docs.begin_test(); docs.met(Secrets(["hunter2"])); "hunter2" in docs.secrets()
    True
    >>> docs.end_test(); "hunter2" in docs.secrets(), docs
    (False, <plancheck documents: 0 plans, 0 states>)
    """

    # Made, and this module imported, with the session's first document or secret (or the first fixture that
    # loads one): a session that never loads a document imports none of this (see the plugin's hooks).

    __slots__ = (
        "_changes", "_collected", "_held", "_kept", "_lasting_union", "_lingering", "_module", "_outside", "_scoped",
        "_test", "_testing", "_unions", "plans", "states",
    )

    def __init__(self, terraform: str | None = None, *, allow_errored: bool = False, chdir: str | None = None) -> None:
        # ``terraform``: the binary that shows a binary plan (--terraform), else the usual search; ``chdir``: where
        # (--tf-chdir), else the plan file's directory.
        self.plans: DocumentCache[Any] = DocumentCache(_plan_loader(terraform, allow_errored, chdir))
        self.states: DocumentCache[Any] = DocumentCache(_load_state_file)
        #: Secrets found outside any test (while collecting): sources for the whole session.
        self._outside: list[Secrets] = []
        #: What the running test made and found, held until its reports (teardown included) are out; outside
        #: any test (collecting, a sweep), what was made since the last test, held until the next one begins.
        self._test: list[Any] = []
        self._testing = False
        #: The module of the running test (its node id's file part).
        self._module: str | None = None
        #: Every document met that is still alive, weakly: it is a source for as long as something holds it.
        self._held: dict[int, weakref.ref[Any]] = {}
        #: Documents made while collecting, until :meth:`collected` places them.
        self._collected: list[int] = []
        #: Documents made while collecting that only tests' parameters hold: sources for those tests' modules.
        self._scoped: dict[int, frozenset[str]] = {}
        #: Documents made while collecting that nothing looked at holds: held here, sources for the whole session.
        self._kept: list[Any] = []
        #: Documents of finished tests alive when it ended: perhaps held, perhaps garbage the collector has not freed.
        self._lingering: set[int] = set()
        #: Bumped by every change of the sources (a document let go included): the unions below are then stale.
        self._changes = 0
        self._unions: dict[bool, tuple[tuple[int, int], Secrets]] = {}
        self._lasting_union: tuple[tuple[int, int], Secrets] | None = None

    def begin_test(self, module: str | None = None) -> None:
        """A test of ``module`` starts: what is met from now on is its own (``pytest_runtest_logstart``)."""
        self.end_test()
        if self._test:  # made outside any test (while collecting): held now only by what holds it
            self._test = []
            self._changes += 1
        self._testing = True
        if module != self._module:
            self._module = module
            self._changes += 1

    def met(self, found: Any) -> None:
        """A document the library made, or secrets it found: a source for the running test, and for later
        ones while something holds the document. Met outside any test, secrets are a source for the session,
        and a document is held until a test begins (a sweeper's plan, for the line its failure writes).

        A document costs nothing until a report has text to scrub: then its secrets are collected.

        >>> from plancheck import Plan, Secrets
        >>> docs, plan = SessionDocuments(), Plan.from_dict({"format_version": "1.2"})
        >>> docs.met(Secrets(["hunter2"])); docs.met(plan); len(docs), "hunter2" in docs.secrets()
        (2, True)
        """
        if isinstance(found, Secrets):
            if len(found):
                (self._test if self._testing else self._outside).append(found)
                self._changes += 1
            return
        if isinstance(found, (str, bytes, int)):
            return  # not a document: a marker a doctest passed
        self._test.append(found)
        with contextlib.suppress(TypeError):  # a document that cannot be weakly held is its test's only
            key = id(found)
            if key not in self._held:
                self._held[key] = weakref.ref(found, self._let_go(key))
                if not self._testing:
                    self._collected.append(key)
        self._changes += 1

    def _let_go(self, key: int) -> Callable[[weakref.ref[Any]], None]:
        def gone(ref: weakref.ref[Any]) -> None:
            # Called as the document is freed, before its id can be reused: the entry is this document's.
            if self._held.get(key) is ref:
                self._forget(key)

        return gone

    def _forget(self, key: int) -> None:
        """Drop all that is known of the document ``key``: a document made later may have its id."""
        self._held.pop(key, None)
        self._scoped.pop(key, None)
        self._lingering.discard(key)
        self._changes += 1

    def end_test(self) -> None:
        """The test is over, its reports out and its warnings recorded (``pytest_runtest_protocol``): let go of what it made and found.

        A document it made stays a source only while something else holds it. The finished test's own
        frames (``sys.last_traceback`` of its failure) are not such a holder: their locals are cleared.

        >>> from plancheck import Plan, Secrets
        >>> docs, kept = SessionDocuments(), Plan.from_dict({"format_version": "1.2"})
        >>> docs.begin_test(); docs.met(kept); docs.met(Secrets(["hunter2"])); len(docs)
        2
        >>> docs.end_test(); len(docs), "hunter2" in docs.secrets()   # the plan ``kept`` holds stays a source
        (1, False)
        """
        was, self._testing = self._testing, False
        if not was or not self._test:
            return
        mine = [id(found) for found in self._test if id(found) in self._held]
        self._test = []
        self._changes += 1
        if any(key in self._held for key in mine):
            _release_last_failure()
        # Still alive: held by a module or a fixture, or garbage of the test (a pytest.raises' traceback and
        # frames hold each other) that only a collection frees. Found out when it would matter (secrets_for).
        self._lingering.update(key for key in mine if key in self._held)

    def collected(self, holders: Iterable[tuple[str | None, Iterable[object]]]) -> None:
        """Collection is over: place each document made while collecting by what holds it.

        ``holders``: the parameter values of each test and the namespace (global values) of each test
        module, with the module's node id file part, and the namespaces of the other modules of the
        project (helpers, ``conftest.py``), with None. A document that tests' parameters or test
        modules hold (a table of plans, a module-level plan, through a tuple, list or dict) is a source
        for the tests of those modules only, so a word one module planted as a secret stays readable in
        the others; one another module holds is a source for every test, while it lives. One that nothing
        holds where looked (a ``pytest_generate_tests`` that parametrized tests with a plan's values) is
        kept, a source for every test of the session: the tests hold its values and outlive it.

        >>> from plancheck import Plan
        >>> docs, table = SessionDocuments(), [Plan.from_dict({"format_version": "1.2"})]
        >>> docs.met(table[0]); docs.collected([("test_a.py", table)]); docs._scoped[id(table[0])]
        frozenset({'test_a.py'})
        >>> docs.met(Plan.from_dict({"format_version": "1.2"})); docs.collected([]); docs.begin_test(); len(docs)
        2
        """
        pending = {key: self._held[key]() for key in self._collected if key in self._held}
        self._collected = []
        documents = {key: document for key, document in pending.items() if document is not None}
        if not documents:
            return
        where: dict[int, set[str]] = {}
        everywhere: set[int] = set()
        for module, values in holders:
            for key in _documents_in(values, documents):
                if module is None:
                    everywhere.add(key)
                else:
                    where.setdefault(key, set()).add(module)
        for key, modules in where.items():
            if key not in everywhere:
                self._scoped[key] = frozenset(modules)
        self._kept.extend(document for key, document in documents.items() if key not in where and key not in everywhere)
        self._changes += 1

    def add_secrets(self, secrets: Secrets) -> None:
        """Scrub ``secrets`` from the running test's reports (its configuration's, its acceptance cases'),
        or, found outside any test, from every report of the session.

        >>> from plancheck import Secrets
        >>> docs = SessionDocuments()
        >>> docs.add_secrets(Secrets(["hunter2"]))
        >>> "hunter2" in docs.secrets()
        True
        """
        self.met(secrets)

    def secrets(self) -> Secrets:
        """Every secret string of the documents and secrets that are sources now (to scrub from a report).

        A document whose secrets cannot be listed raises here, and the report is withheld: failing closed.
        When one of the documents that only may be garbage is among them (a pytest.raises of a lazily read
        plan's format error holds that plan in a cycle), the garbage is collected first and the rest asked again.
        """
        try:
            return self._sources(lingering=True)
        except Exception:
            if not self._lingering:
                raise
        # Collected only once out of the handler: the error's traceback holds the document that raised it.
        self._collect_lingering()
        return self._sources(lingering=True)

    def secrets_for(self, texts: Callable[[], Iterable[str]]) -> Secrets:
        """The secrets to scrub ``texts`` of: :meth:`secrets`, less those only garbage of finished tests holds.

        A document an earlier test left in a reference cycle stays alive until the garbage collector runs;
        a full collection is costly, so it runs only when such a document's secrets would change the text.
        """
        found = self.secrets()
        if not self._lingering:
            return found
        settled = self._sources(lingering=False)
        if len(found) == len(settled):
            return found
        only = Secrets(value for value in found.ordered if value not in settled)
        if not any(only.touches(text) for text in texts()):
            return found
        self._collect_lingering()
        return self._sources(lingering=True)

    def secrets_of(self, texts: Callable[[], Iterable[str]] | None = None) -> Callable[[], Secrets] | None:
        """How to get the secrets to scrub ``texts`` of (:meth:`secrets_for`; any text, if None: :meth:`secrets`),
        or None when there is nothing to scrub.

        >>> SessionDocuments().secrets_of() is None
        True
        """
        if not len(self):
            return None
        if texts is None:
            return self.secrets
        return lambda: self.secrets_for(texts)

    def _collect_lingering(self) -> bool:
        """Free the documents only garbage of finished tests holds (a full collection: costly, so only when it
        matters); False when no document may be such garbage."""
        if not self._lingering:
            return False
        import gc

        gc.collect()
        self._lingering.clear()  # what survived a collection is held
        self._changes += 1
        return True

    def _sources(self, *, lingering: bool) -> Secrets:
        key = (self._changes, self.plans.loads + self.states.loads)
        known = self._unions.get(lingering)
        if known is not None and known[0] == key:
            return known[1]
        found = self._lasting()
        held = [(doc_id, ref()) for doc_id, ref in list(self._held.items())]
        test_ids = {id(source) for source in self._test}
        sources = {id(source): source for source in self._test}
        for doc_id, document in held:
            if document is None or doc_id in test_ids:
                continue
            if not lingering and doc_id in self._lingering:
                continue
            scope = self._scoped.get(doc_id)
            if scope is not None and self._module not in scope:
                continue
            sources[doc_id] = document
        for source in sources.values():
            if isinstance(source, Secrets):
                found = found | source
                continue
            secrets = getattr(source, "secrets", None)  # may raise: see secrets()
            if isinstance(secrets, Secrets):
                found = found | secrets
        self._unions[lingering] = ((self._changes, key[1]), found)
        return found

    def _lasting(self) -> Secrets:
        """The secrets of the session's whole length: the fixtures' documents (the cache holds them) and those
        found outside any test. Only ever added to, so their counts tell whether the union is stale."""
        key = (self.plans.loads + self.states.loads, len(self._outside))
        known = self._lasting_union
        if known is not None and known[0] == key:
            return known[1]
        if known is not None and known[0][0] == key[0]:
            found, start = known[1], known[0][1]  # only secrets were added: the union grows by them alone
        else:
            found, start = Secrets(), 0
            for document in (*self.plans.documents(), *self.states.documents()):
                secrets = getattr(document, "secrets", None)
                if isinstance(secrets, Secrets):
                    found = found | secrets
        for secrets in self._outside[start:]:
            found = found | secrets
        self._lasting_union = (key, found)
        return found

    def __len__(self) -> int:
        """How many documents were loaded and sources are alive: none means nothing to scrub."""
        test_only = sum(1 for found in self._test if id(found) not in self._held)
        return self.plans.loads + self.states.loads + len(self._outside) + len(self._held) + test_only

    def __repr__(self) -> str:
        return f"<plancheck documents: {len(self.plans)} plans, {len(self.states)} states>"


def collected_holders(session: pytest.Session) -> Iterator[tuple[str | None, Iterable[object]]]:
    """What may hold a document made while collecting (see ``SessionDocuments.collected``): each test's
    parameters and each test module's globals, by module; the globals of the project's other modules."""
    modules: dict[int, str] = {}
    for item in session.items:
        module = getattr(item, "module", None)
        if module is not None:
            modules.setdefault(id(module), module_of(item.nodeid))
        params = getattr(getattr(item, "callspec", None), "params", None)
        if isinstance(params, dict):
            yield module_of(item.nodeid), params.values()
    root = os.path.join(session.config.rootpath, "")
    for module in list(sys.modules.values()):
        namespace = getattr(module, "__dict__", None)
        if not isinstance(namespace, dict):
            continue
        if id(module) in modules:
            yield modules[id(module)], list(namespace.values())
            continue
        where = getattr(module, "__file__", None)
        # The project's helpers and conftest files; installed packages hold no test's documents.
        if isinstance(where, str) and where.startswith(root) and "site-packages" not in where:
            yield None, list(namespace.values())


def module_of(nodeid: str) -> str:
    """The file part of a test's node id: the module whose collected documents scrub its reports.

    >>> module_of("tests/test_net.py::test_subnets[a]")
    'tests/test_net.py'
    """
    return nodeid.split("::", 1)[0]


def _documents_in(values: Iterable[object], documents: dict[int, Any], depth: int = 3) -> Iterator[int]:
    """The ids of ``documents`` among ``values`` and the containers in them (a parameter's tuple or dict)."""
    for value in values:
        key = id(value)
        if documents.get(key) is value:
            yield key
        elif depth > 1 and isinstance(value, (tuple, list, set, frozenset)):
            yield from _documents_in(value, documents, depth - 1)
        elif depth > 1 and isinstance(value, dict):
            yield from _documents_in(value.values(), documents, depth - 1)


def _release_last_failure() -> None:
    """Clear the locals of the frames of the failure pytest keeps for ``pdb.pm()`` (``sys.last_traceback``).

    pytest lets go of it only when the next test's call begins, not for a test that skips at its setup;
    until then it held the documents the failed test had in its locals, which made them secrets of the
    tests after it. Its post-mortem (``--pdb``) has run by then; the traceback itself stays.
    """
    import sys

    tb = getattr(sys, "last_traceback", None)
    while tb is not None:
        frame = tb.tb_frame
        with contextlib.suppress(RuntimeError):  # a frame still running (none in a finished test's traceback)
            frame.clear()
            # Python 3.11 keeps the locals a traceback renderer asked for in a dict the frame still holds after
            # clear(); asking again syncs that dict with the cleared frame, emptying it.
            _ = frame.f_locals
        tb = tb.tb_next
