"""The last line of defence: scrub the secrets of every loaded document from a pytest report.

plancheck's own messages never show a sensitive value. But a test may pull a raw value
out of a plan (``tf_plan.resource_change(...).change.after["password"]``) and assert on
it, print it, or hold it in a local variable that ``--showlocals`` prints. So before a
report leaves the test (for the terminal, JUnit XML, or an xdist controller), any text
in it that contains a secret of a plan or state loaded by the plugin is scrubbed.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable
from typing import Any, Final

from .._redact import Secrets

__all__ = ["WITHHELD", "scrub_report", "scrub_report_or_withhold"]

#: What a report says instead of its text when it could not be scrubbed: failing closed.
WITHHELD: Final = (
    "plancheck: this report's text is withheld because its secrets could not be scrubbed ({problem}); "
    "run with --tf-show-sensitive locally to see it"
)


def _scrub_in_place(root: Any, secrets: Secrets) -> None:
    """Scrub every string held by pytest's report objects (dataclasses of strings, lists, tuples).

    Scrubbing the structure keeps pytest's layout, colours and one-line summary.
    """
    seen: set[int] = set()
    stack = [root]

    def scrub(value: Any) -> Any:
        if isinstance(value, str):
            return secrets.scrub(value)
        if isinstance(value, list):
            value[:] = [scrub(item) for item in value]
            return value
        if isinstance(value, tuple):
            return tuple(scrub(item) for item in value)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            stack.append(value)
        return value

    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        for name, value in list(vars(obj).items()):
            new = scrub(value)
            if new is not value and new != value:
                object.__setattr__(obj, name, new)


def scrub_report(report: Any, secrets: Secrets) -> bool:
    """Scrub ``secrets`` from a test report's failure text and captured sections; True if anything changed.

    The report's structure is scrubbed in place; should any secret survive that (an
    unexpected report type), the failure report is replaced by its scrubbed text.

    >>> from types import SimpleNamespace
    >>> report = SimpleNamespace(longrepr="E  assert 'hunter2' == 'x'", sections=[("Captured stdout call", "pw=hunter2")])
    >>> scrub_report(report, Secrets(["hunter2"]))
    True
    >>> report.longrepr, report.sections
    ("E  assert '(sensitive)' == 'x'", [('Captured stdout call', 'pw=(sensitive)')])
    """
    if not len(secrets):
        return False
    changed = False
    longrepr = report.longrepr
    if longrepr is not None and not isinstance(longrepr, tuple):
        # A TerminalRepr renders itself through str(); a plain string is already text.
        text = longrepr if isinstance(longrepr, str) else str(longrepr)
        if secrets.scrub(text) != text:
            changed = True
            if isinstance(longrepr, str):
                report.longrepr = secrets.scrub(text)
            else:
                # An unexpected report shape only means the text fallback below does the work.
                with contextlib.suppress(AttributeError, TypeError):
                    _scrub_in_place(longrepr, secrets)
                text = str(longrepr)
                if secrets.scrub(text) != text:
                    report.longrepr = secrets.scrub(text)
    sections = list(getattr(report, "sections", ()))
    for i, (title, content) in enumerate(sections):
        scrubbed = secrets.scrub(content)
        if scrubbed != content:
            sections[i] = (title, scrubbed)
            changed = True
    if changed:
        report.sections = sections
    return changed


def scrub_report_or_withhold(report: Any, secrets: Callable[[], Secrets]) -> None:
    """Scrub the report with :func:`scrub_report`; if collecting or scrubbing the secrets fails,
    replace its text by :data:`WITHHELD`, so neither a leak nor an error of plancheck's ends the session.

    >>> from types import SimpleNamespace
    >>> def broken() -> Secrets:
    ...     raise TypeError("resources is not a list")
    >>> report = SimpleNamespace(longrepr="E  assert 'hunter2' == 'x'", sections=[("Captured stdout call", "hunter2")])
    >>> scrub_report_or_withhold(report, broken)
    >>> report.longrepr, report.sections
    ("plancheck: this report's text is withheld because its secrets could not be scrubbed (TypeError); run with --tf-show-sensitive locally to see it", [])
    """
    try:
        scrub_report(report, secrets())
    except Exception as exc:  # the hook must never raise: pytest would end the whole session
        # The exception's own text could hold a value of the document: only its type is shown.
        report.longrepr = WITHHELD.format(problem=type(exc).__name__) if report.longrepr is not None else None
        report.sections = []
