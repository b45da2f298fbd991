"""What the command line's error boundary scrubs its one line with: the documents this command has read.

Below every subcommand (each notes the plans it loads), and importing none of them, so any may use it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

__all__ = ["documents_read", "remember_document", "scrub_with_documents"]

#: The documents (plans) this command has read so far: what the error boundary scrubs its one line with.
_READ: ContextVar[list[Any] | None] = ContextVar("tfplancheck_documents_read", default=None)


@contextlib.contextmanager
def documents_read() -> Iterator[list[Any]]:
    """Collect the documents :func:`remember_document` is given while the block runs (one command's)."""
    read: list[Any] = []
    token = _READ.set(read)
    try:
        yield read
    finally:
        _READ.reset(token)


def remember_document(document: Any) -> None:
    """Note a document this command read, so that an unexpected error's line is scrubbed of its secrets."""
    read = _READ.get()
    if read is not None:
        read.append(document)


def scrub_with_documents(text: str, documents: list[Any]) -> str | None:
    """``text`` with the secrets of ``documents`` scrubbed; None when they cannot be known (withhold it).

    >>> from plancheck import Plan
    >>> plan = Plan.from_dict({"format_version": "1.2", "variables": {"pw": {"value": "hunter2-secret"}},
    ...     "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}}})
    >>> scrub_with_documents("failed near hunter2-secret", [plan])
    'failed near (sensitive)'
    """
    try:
        for document in documents:
            text = document.secrets.scrub(text)
    except Exception:  # the document that broke the command may be what cannot give its secrets
        return None
    return text
