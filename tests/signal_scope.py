"""What the signal tests share: the test's own SIGTERM handler, outside the delivery the session's plugin defers."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

import pytest

from plancheck._loading import lifecycle


@contextlib.contextmanager
def as_a_script(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Run the body as a script would (no delivery deferred by the plugin, no signal pending), with a SIGTERM
    handler that records each delivery in the list it gives (the default would end the test run)."""
    monkeypatch.setattr(lifecycle._SCOPE, "deferrals", 0)
    monkeypatch.setattr(lifecycle._SCOPE, "pending", None)
    seen: list[int] = []
    previous = signal.signal(signal.SIGTERM, lambda signum, _frame: seen.append(signum))
    try:
        yield seen
    finally:
        signal.signal(signal.SIGTERM, previous)
