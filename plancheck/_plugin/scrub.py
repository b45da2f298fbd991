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

__all__ = ["WITHHELD", "scrub_report", "scrub_report_or_withhold", "scrub_warning"]

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
    changed = _scrub_extras(report, secrets)
    longrepr = report.longrepr
    if isinstance(longrepr, tuple):
        # A skip's (path, line, reason): the reason is the user's text.
        scrubbed_tuple = tuple(secrets.scrub(part) if isinstance(part, str) else part for part in longrepr)
        if scrubbed_tuple != longrepr:
            report.longrepr = scrubbed_tuple
            changed = True
    elif longrepr is not None:
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


def _scrub_extras(report: Any, secrets: Secrets) -> bool:
    """Scrub the report's other texts: an xfail reason, ``record_property`` values, a subtest's message.

    >>> from types import SimpleNamespace
    >>> report = SimpleNamespace(wasxfail="hunter2 is flaky", user_properties=[("pw", "hunter2"), ("n", 1)],
    ...                          context=SimpleNamespace(msg="case hunter2", kwargs={"pw": "hunter2"}))
    >>> _scrub_extras(report, Secrets(["hunter2"]))
    True
    >>> report.wasxfail, report.user_properties, report.context.msg, report.context.kwargs
    ('(sensitive) is flaky', [('pw', '(sensitive)'), ('n', 1)], 'case (sensitive)', {'pw': '(sensitive)'})
    """
    changed = False
    wasxfail = getattr(report, "wasxfail", None)
    if isinstance(wasxfail, str) and secrets.touches(wasxfail):
        report.wasxfail = secrets.scrub(wasxfail)
        changed = True
    properties = getattr(report, "user_properties", None)
    if isinstance(properties, list):
        for i, item in enumerate(properties):
            if isinstance(item, tuple) and len(item) == 2:
                name, value = item
                text = value if isinstance(value, str) else None
                if text is None and not isinstance(value, (int, float, bool, type(None))):
                    text = str(value)  # JUnit writes str(value): an object's text may hold a secret
                if text is not None and secrets.touches(text):
                    properties[i] = (name, secrets.scrub(text))
                    changed = True
    context = getattr(report, "context", None)
    if context is not None:
        msg = getattr(context, "msg", None)
        if isinstance(msg, str) and secrets.touches(msg):
            with contextlib.suppress(AttributeError, TypeError, dataclasses.FrozenInstanceError):
                object.__setattr__(context, "msg", secrets.scrub(msg))
                changed = True
        kwargs = getattr(context, "kwargs", None)
        if isinstance(kwargs, dict):
            for key, value in list(kwargs.items()):
                text = value if isinstance(value, str) else repr(value)
                if secrets.touches(text):
                    kwargs[key] = secrets.scrub(text)
                    changed = True
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
        if getattr(report, "wasxfail", None):
            report.wasxfail = WITHHELD.format(problem=type(exc).__name__)
        if isinstance(getattr(report, "user_properties", None), list):
            report.user_properties = []


def scrub_warning(message: Any, secrets: Callable[[], Secrets]) -> None:
    """Scrub a recorded warning (``warnings.WarningMessage``) before pytest's warnings summary shows it.

    >>> import warnings
    >>> recorded = warnings.WarningMessage(UserWarning("careful hunter2"), UserWarning, "t.py", 1)
    >>> scrub_warning(recorded, lambda: Secrets(["hunter2"]))
    >>> str(recorded.message), type(recorded.message).__name__
    ('careful (sensitive)', 'UserWarning')
    """
    try:
        found = secrets()
        text = str(message.message)
        if not found.touches(text):
            return
        scrubbed = found.scrub(text)
    except Exception as exc:  # never end the session from a hook
        scrubbed = WITHHELD.format(problem=type(exc).__name__)
    category = message.category if isinstance(message.category, type) else UserWarning
    try:
        message.message = category(scrubbed)
    except Exception:  # a warning class with another constructor: keep the category's meaning
        message.message = UserWarning(scrubbed)
