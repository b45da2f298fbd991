"""A per-session cache of loaded documents, keyed by file identity.

The key is (kind, resolved path, mtime in ns, size): a file rewritten during the
session is loaded again, an unchanged one never is. One cache lives in each pytest
session (a session-scoped fixture), so xdist workers share nothing.
"""

from __future__ import annotations

import contextlib
import os
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from .._errors import DocumentFormatError
    from .._redact import Secrets

__all__ = ["DocumentCache", "SessionDocuments", "load_plan_file"]

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
        # Imported on first load, not with the plugin: pytest imports the plugin for every session.
        from .._errors import DocumentFormatError

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
        except OSError:
            # Nothing to key on: let the loader report the missing or unreadable file.
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


def load_plan_file(path: str | os.PathLike[str], *, terraform: str | None = None, allow_errored: bool = False) -> Any:
    """The plan of ``--tf-plan`` (and the ``tf_plan`` marker and ini key): a JSON file, or a binary plan shown by
    ``terraform`` in the file's directory; one that planning failed on is refused unless ``allow_errored``.

    The file is read once, up to the loader's limit (``PLANCHECK_MAX_BYTES``, else 2 GiB), and parsed
    once: :mod:`plancheck._terraform.planfile` turns a binary plan's bytes into JSON bytes, held to the
    same limit. Its errors are the loader's (a :class:`~plancheck.PlanFormatError`, an
    :class:`~plancheck.ErroredPlanError`), a binary plan that cannot be shown a ``BinaryPlanError`` (one too).

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = pathlib.Path(d, "plan.json")
    ...     _ = p.write_text('{"format_version": "1.2"}')
    ...     load_plan_file(p).format_version
    '1.2'
    """
    from .._documents.plan import Plan
    from .._errors import PlanFormatError
    from .._loading.load import read_source
    from .._loading.source import InputTooLarge, max_input_bytes
    from .._terraform.planfile import plan_json

    limit = max_input_bytes()
    name = os.fspath(path)
    got = read_source(name, PlanFormatError, "plan", "load_plan", limit)
    assert isinstance(got, tuple)  # a path is read, never a Mapping
    data, source = got
    if isinstance(data, bytes):  # a path is read as bytes
        try:
            data = plan_json(name, data, limit=limit, terraform=terraform, cwd=os.path.dirname(os.path.abspath(name)))
        except InputTooLarge as too_large:
            raise PlanFormatError("$", too_large.expected("plan"), found=too_large.found, source=source) from None
    return Plan.from_json(data, source=source, allow_errored=allow_errored)


def _plan_loader(terraform: str | None, allow_errored: bool) -> Callable[[Path], Any]:
    """The plan reader of the plugin: :func:`load_plan_file` with the session's ``--terraform`` and
    ``--tf-allow-errored``."""

    def load(path: Path) -> Any:
        return load_plan_file(path, terraform=terraform, allow_errored=allow_errored)

    return load


def _load_state_file(path: Path) -> Any:
    from .._documents.state import load_state

    return load_state(path)


class SessionDocuments:
    """The plans and states one pytest session loaded through the plugin, and the secrets they hold.

    >>> docs = SessionDocuments()
    >>> len(docs.secrets()), docs
    (0, <plancheck documents: 0 plans, 0 states>)
    """

    # Secrets (and with them tfjsonpath) are imported on first use: pytest imports the plugin, and so
    # this module, for every session, also those that never load a document.

    __slots__ = ("_alive", "_extra", "_met", "_secrets", "plans", "states")

    def __init__(self, terraform: str | None = None, *, allow_errored: bool = False) -> None:
        # ``terraform``: the binary that shows a binary plan (--terraform), else the usual search.
        self.plans: DocumentCache[Any] = DocumentCache(_plan_loader(terraform, allow_errored))
        self.states: DocumentCache[Any] = DocumentCache(_load_state_file)
        self._extra: list[Secrets] = []
        #: What was made and found during the current test (:mod:`plancheck._documents.met`), held for its reports.
        self._met: list[Any] = []
        #: Every document met whose secrets were not collected yet, for as long as something else holds it.
        self._alive: weakref.WeakSet[Any] = weakref.WeakSet()
        self._secrets: tuple[tuple[int, int], Secrets] | None = None

    def met(self, found: Any) -> None:
        """A document the library made, or secrets it found, during the session: a source of secrets too.

        A document is held until its test ends (a test may make a plan, drop it, and print a value of
        it), then only while something else holds it (a module-level plan, a module-scoped fixture's):
        its secrets are collected when a report has text to scrub, and kept from then on. A session of
        large plans nobody failed on neither collects nor keeps them.

        >>> from plancheck import Secrets
        >>> docs = SessionDocuments()
        >>> docs.met(Secrets(["hunter2"])); len(docs), "hunter2" in docs.secrets()
        (1, True)
        """
        self._met.append(found)
        if not isinstance(found, (str, bytes, int)):  # a document (weakly referable), not a marker of a doctest
            with contextlib.suppress(TypeError):
                self._alive.add(found)

    def end_test(self) -> None:
        """Let go of what the test made: a document still held elsewhere stays a source.

        >>> from plancheck import Plan
        >>> docs, plan = SessionDocuments(), Plan.from_dict({"format_version": "1.2"})
        >>> docs.met(plan); docs.end_test(); len(docs)   # held by ``plan``: still a source
        1
        >>> _ = docs.secrets(); len(docs)                  # its secrets collected (none): kept, the plan let go
        0
        """
        self._fold(everything=False)

    def _fold(self, *, everything: bool) -> None:
        """Keep the secrets collected so far of what was met; with ``everything``, collect those of all still alive."""
        if not self._met and not self._alive:
            return  # and the document models stay unimported in a session that never made a document
        from .._documents.plan import collected_secrets
        from .._errors import DocumentFormatError
        from .._redact import Secrets

        met, self._met = self._met, []
        for found in (*met, *self._alive):
            if isinstance(found, Secrets):
                self.add_secrets(found)
                continue
            try:
                secrets = getattr(found, "secrets", None) if everything else collected_secrets(found)
                if isinstance(secrets, Secrets):
                    self.add_secrets(secrets)
            except DocumentFormatError:
                # A document read lazily whose unread part is invalid: every use of that part raises this same
                # error to its user, so it never showed a value from there. Withholding every later report of
                # the session for it (and breaking the skip reports pytest needs as tuples) would be worse.
                pass
            else:
                if not isinstance(secrets, Secrets):
                    continue
            self._alive.discard(found)

    def add_secrets(self, secrets: Secrets) -> None:
        """Scrub ``secrets`` from every later report too (configurations, acceptance-test variables).

        >>> from plancheck import Secrets
        >>> docs = SessionDocuments()
        >>> docs.add_secrets(Secrets(["hunter2"]))
        >>> "hunter2" in docs.secrets()
        True
        """
        if len(secrets) and secrets not in self._extra:
            self._extra.append(secrets)

    def secrets(self) -> Secrets:
        """Every secret string of every document loaded so far (to scrub from any report)."""
        # Documents and secrets are only ever added, so their count tells whether the union is stale.
        from .._redact import Secrets

        if self._met or self._alive:
            self._fold(everything=True)
        loads, added = self.plans.loads + self.states.loads, len(self._extra)
        known = self._secrets
        if known is not None and known[0] == (loads, added):
            return known[1]
        if known is not None and known[0][0] == loads:
            # Only secrets were added (each test's own documents): the union grows by them alone.
            found, start = known[1], known[0][1]
        else:
            found, start = Secrets(), 0
            for document in (*self.plans.documents(), *self.states.documents()):
                secrets = getattr(document, "secrets", None)
                if isinstance(secrets, Secrets):
                    found = found | secrets
        for secrets in self._extra[start:]:
            found = found | secrets
        self._secrets = ((loads, added), found)
        return found

    def __len__(self) -> int:
        """How many documents were loaded or met and secret sets added: none means nothing to scrub."""
        return self.plans.loads + self.states.loads + len(self._extra) + len(self._met) + len(self._alive)

    def __repr__(self) -> str:
        return f"<plancheck documents: {len(self.plans)} plans, {len(self.states)} states>"
