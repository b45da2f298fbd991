"""A per-session cache of loaded documents, keyed by file identity.

The key is (kind, resolved path, mtime in ns, size): a file rewritten during the
session is loaded again, an unchanged one never is. One cache lives in each pytest
session (a session-scoped fixture), so xdist workers share nothing.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from .._errors import DocumentFormatError
    from .._redact import Secrets

__all__ = ["DocumentCache", "SessionDocuments"]

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


def _plan_loader(terraform: str | None, allow_errored: bool) -> Callable[[Path], Any]:
    """The plan reader of the command line too: JSON, or a binary plan shown by ``terraform`` in its directory;
    a plan whose planning failed is refused unless ``allow_errored`` (``--tf-allow-errored``)."""

    def load(path: Path) -> Any:
        from .._terraform.planfile import load_plan_file

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

    __slots__ = ("_extra", "_secrets", "plans", "states")

    def __init__(self, terraform: str | None = None, *, allow_errored: bool = False) -> None:
        # ``terraform``: the binary that shows a binary plan (--terraform), else the usual search.
        self.plans: DocumentCache[Any] = DocumentCache(_plan_loader(terraform, allow_errored))
        self.states: DocumentCache[Any] = DocumentCache(_load_state_file)
        self._extra: list[Secrets] = []
        self._secrets: tuple[int, Secrets] | None = None

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

        version = self.plans.loads + self.states.loads + len(self._extra)
        if self._secrets is None or self._secrets[0] != version:
            found = Secrets()
            for document in (*self.plans.documents(), *self.states.documents()):
                secrets = getattr(document, "secrets", None)
                if isinstance(secrets, Secrets):
                    found = found | secrets
            for secrets in self._extra:
                found = found | secrets
            self._secrets = (version, found)
        return self._secrets[1]

    def __len__(self) -> int:
        """How many documents were loaded and secret sets added: none means nothing to scrub."""
        return self.plans.loads + self.states.loads + len(self._extra)

    def __repr__(self) -> str:
        return f"<plancheck documents: {len(self.plans)} plans, {len(self.states)} states>"
