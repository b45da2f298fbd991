"""The last line of defence: scrub the secrets of every loaded document from a pytest report.

plancheck's own messages never show a sensitive value. But a test may pull a raw value
out of a plan (``tf_plan.resource_change(...).change.after["password"]``) and assert on
it, print it, or hold it in a local variable that ``--showlocals`` prints. So before a
report leaves the test (for the terminal, JUnit XML, or an xdist controller), any text
in it that contains a secret of a plan or state loaded by the plugin is scrubbed.

The hooks that do it live here too: :class:`ReportScrubber`, registered with the session's first document or
secret, :class:`SetupShowScrubber` with ``--setup-show``, and :class:`Revealer`, which reveals instead under
``--tf-show-sensitive``; a session that meets no document imports none of it (#34).
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import logging
import os
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import TYPE_CHECKING, Any, Final, cast

import pytest

from .._redact import Secrets, revealing_sensitive
from .cache import module_of

if TYPE_CHECKING:
    from .cache import SessionDocuments

__all__ = [
    "WITHHELD",
    "ReportScrubber",
    "Revealer",
    "ScrubbingFormatter",
    "SetupShowScrubber",
    "junit_texts",
    "report_texts",
    "scrub_interrupt",
    "scrub_junit",
    "scrub_report",
    "scrub_report_or_withhold",
    "scrub_text",
    "scrub_warning",
    "scrubbed_items",
    "scrubbed_report",
    "shown_param",
]

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
    >>> report = SimpleNamespace(wasxfail="hunter2 is flaky", user_properties=[("pw", "hunter2"), ("n", 1), ("hunter2", 2)],
    ...                          context=SimpleNamespace(msg="case hunter2", kwargs={"pw": "hunter2"}))
    >>> _scrub_extras(report, Secrets(["hunter2"]))
    True
    >>> report.wasxfail, report.user_properties, report.context.msg, report.context.kwargs
    ('(sensitive) is flaky', [('pw', '(sensitive)'), ('n', 1), ('(sensitive)', 2)], 'case (sensitive)', {'pw': '(sensitive)'})
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
                # The name is written too (JUnit's <property name=...>): a test may name a property by a map key.
                shown = secrets.scrub(name) if isinstance(name, str) and secrets.touches(name) else name
                if shown is not name or (text is not None and secrets.touches(text)):
                    properties[i] = (shown, value if text is None else secrets.scrub(text))
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


def report_texts(report: Any) -> Iterator[str]:
    """Every text of a report that :func:`scrub_report` scrubs (to ask whether some secrets touch it).

    >>> from types import SimpleNamespace
    >>> list(report_texts(SimpleNamespace(longrepr=("t.py", 3, "Skipped: no corpus"), sections=[("out", "x")])))
    ['t.py', 'Skipped: no corpus', 'x']
    """
    longrepr = getattr(report, "longrepr", None)
    if isinstance(longrepr, tuple):
        yield from (part for part in longrepr if isinstance(part, str))
    elif longrepr is not None:
        yield longrepr if isinstance(longrepr, str) else str(longrepr)
    for section in getattr(report, "sections", ()):
        if isinstance(section, tuple) and len(section) == 2 and isinstance(section[1], str):
            yield section[1]
    wasxfail = getattr(report, "wasxfail", None)
    if isinstance(wasxfail, str):
        yield wasxfail
    for item in getattr(report, "user_properties", None) or ():
        if isinstance(item, tuple) and len(item) == 2:
            yield from (str(part) for part in item)
    context = getattr(report, "context", None)
    if context is not None:
        yield str(getattr(context, "msg", ""))
        kwargs = getattr(context, "kwargs", None)
        if isinstance(kwargs, dict):
            yield from (value if isinstance(value, str) else repr(value) for value in kwargs.values())


def _has_text(report: Any) -> bool:
    """Whether the report holds any text a user may see: a failure, a reason, captured output, properties.

    >>> from types import SimpleNamespace
    >>> _has_text(SimpleNamespace(longrepr=None, sections=[])), _has_text(SimpleNamespace(longrepr=None, sections=[("s", "x")]))
    (False, True)
    """
    return bool(
        getattr(report, "longrepr", None) is not None
        or getattr(report, "sections", None)
        or getattr(report, "wasxfail", None)
        or getattr(report, "user_properties", None)
        or getattr(report, "context", None) is not None
    )


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
    if not _has_text(report):
        return  # most reports (a test that passed quietly): the secrets are not even collected
    try:
        scrub_report(report, secrets())
    except Exception as exc:  # the hook must never raise: pytest would end the whole session
        # The exception's own text could hold a value of the document: only its type is shown.
        withheld = WITHHELD.format(problem=type(exc).__name__)
        longrepr = report.longrepr
        if isinstance(longrepr, tuple) and len(longrepr) == 3:
            report.longrepr = (longrepr[0], longrepr[1], withheld)  # a skip's (path, line, reason): pytest needs the tuple
        else:
            report.longrepr = withheld if longrepr is not None else None
        report.sections = []
        if getattr(report, "wasxfail", None):
            report.wasxfail = WITHHELD.format(problem=type(exc).__name__)
        if isinstance(getattr(report, "user_properties", None), list):
            report.user_properties = []


def scrub_interrupt(excrepr: Any, secrets: Callable[[], Secrets]) -> None:
    """Scrub, in place, pytest's rendering of the exception that ended the session (``excrepr``: ``pytest.exit``, a
    ``KeyboardInterrupt`` a test raised), which the terminal writes at the session's end through no report; when the
    secrets cannot be listed or a secret survives (a rendering of another shape), its message is withheld and its
    traceback dropped.

    >>> from types import SimpleNamespace
    >>> excrepr = SimpleNamespace(reprcrash=SimpleNamespace(message="Exit: hunter2"), chain=["a traceback"])
    >>> scrub_interrupt(excrepr, lambda: Secrets(["hunter2"])); excrepr.chain, excrepr.reprcrash.message
    ([], "plancheck: this report's text is withheld because its secrets could not be scrubbed (SimpleNamespace); run with --tf-show-sensitive locally to see it")
    """
    try:
        found = secrets()
        _scrub_in_place(excrepr, found)
        text = str(excrepr)
        if found.scrub(text) == text:
            return
        problem = type(excrepr).__name__
    except Exception as exc:  # never end the session from a hook; nothing is written unscrubbed
        problem = type(exc).__name__
    with contextlib.suppress(AttributeError, TypeError):
        excrepr.chain = []
    with contextlib.suppress(AttributeError, TypeError):
        excrepr.reprcrash.message = WITHHELD.format(problem=problem)


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


def scrubbed_report(collector: Any, report: Any, secrets: Callable[[], Secrets]) -> Any:
    """The collection ``report`` of ``collector``, each of its functions' tests (see :func:`scrubbed_items`) whose
    id shows a secret made again with it scrubbed; failed, naming them, when pytest's tests cannot be made again.

    >>> from types import SimpleNamespace
    >>> plain = SimpleNamespace(name="test_x[plain]", originalname="test_x", callspec=SimpleNamespace(id="plain"))
    >>> report = SimpleNamespace(result=[plain, SimpleNamespace(name="TestClass")])
    >>> scrubbed_report(None, report, lambda: Secrets(["hunter2"])) is report
    True
    """
    import pytest

    result: list[Any] = []
    try:
        # pytest makes the tests of one function together: each run of one original name is one function's.
        for name, run in itertools.groupby(report.result, key=_original_name):
            tests = list(run)
            if name is None:
                _refuse_named_by_secret(collector, tests, secrets)
            # Only tests named by parameters (read from the name shown, whatever pytest keeps them in).
            elif any(getattr(item, "name", name) != name for item in tests):
                tests = scrubbed_items(collector, name, tests, secrets)
            result.extend(tests)
    except pytest.Collector.CollectError as exc:
        # As pytest reports a collector that raised it: its message alone, no test of the collector collected.
        return pytest.CollectReport(report.nodeid, "failed", str(exc.args[0]), [], report.sections)
    if any(made is not item for made, item in zip(result, report.result, strict=True)):
        report.result = result  # the hook's own report, its tests given to pytest as they are made again
    return report


def _refuse_named_by_secret(collector: Any, nodes: list[Any], secrets: Callable[[], Secrets]) -> None:
    """A collection error when a node no function made (a plugin's own test item, a class) is named showing a secret:
    only a parametrized test can be named again without it, and a name shows in every line that names the test. A
    file or directory is named by the project's own tree, and a doctest by the dotted name of the code it is the
    docstring of, not by a document: a secret that is a common word (``staging``, ``secret``) must not end the
    collection of a directory, or of a module whose functions are named so (``collect_secrets``).

    >>> from types import SimpleNamespace
    >>> _refuse_named_by_secret(None, [SimpleNamespace(name="plain")], lambda: Secrets(["hunter2"]))
    >>> _refuse_named_by_secret(SimpleNamespace(nodeid="a.chk"), [SimpleNamespace(name="x-hunter2")], lambda: Secrets(["hunter2"]))
    Traceback (most recent call last):
    ...
    _pytest.nodes.Collector.CollectError: plancheck: 1 of what a.chk collected is named showing a secret, and only a parametrized test can be named again without it; nothing of a.chk is collected (run with --tf-show-sensitive locally to collect it as it is named)
    """
    import pytest

    named = [node for node in nodes
             if not isinstance(node, (pytest.File, pytest.Directory)) and type(node).__module__ != "_pytest.doctest"]
    if not named:
        return
    try:
        found = secrets()
        shown = sum(1 for node in named if found.touches(str(getattr(node, "name", ""))))
    except Exception:  # the secrets cannot be listed: every name is taken as showing one (failing closed)
        shown = len(named)
    if shown:
        where = getattr(collector, "nodeid", "?")
        raise pytest.Collector.CollectError(
            f"plancheck: {shown} of what {where} collected {'is' if shown == 1 else 'are'} named showing a secret, and "
            f"only a parametrized test can be named again without it; nothing of {where} is collected (run with "
            "--tf-show-sensitive locally to collect it as it is named)"
        )


def _original_name(item: Any) -> str | None:
    """The name of the function a test was made of, None for anything else pytest collected."""
    name = getattr(item, "originalname", None)
    return name if isinstance(name, str) else None


def scrubbed_items(collector: Any, name: str, items: list[Any], secrets: Callable[[], Secrets]) -> list[Any]:
    """The test items pytest made of one function, those whose id shows a secret made again with it scrubbed.

    A test id is no report's text: it names the test in the progress lines, the failure headers, the short
    summary, ``--collect-only``, JUnit's ``name`` and xdist's scheduling, all before or beside any report. So
    a test parametrized with what a module took from a plan at import
    (``parametrize("rc", PLAN.resource_changes, ids=lambda rc: rc.address)``, or the values themselves) is
    named with its secrets scrubbed (pytest's escaped spelling included), whoever made the id: pytest from
    the value, an ``ids`` function or list, ``pytest.param(id=...)``. Ids that meet once scrubbed are told
    apart as pytest does, by a number (``(sensitive)0``, ``(sensitive)1``); when the secrets cannot be listed,
    every id is withheld (failing closed). A pytest that makes tests otherwise than this knows (its internals
    are used) fails their collection, naming them: an error, never an id showing a secret.

    >>> from types import SimpleNamespace
    >>> item = SimpleNamespace(callspec=SimpleNamespace(id="plain"), name="test_x[plain]")
    >>> scrubbed_items(None, "test_x", [item], lambda: Secrets(["hunter2"]))[0] is item
    True
    >>> leaky = SimpleNamespace(callspec=SimpleNamespace(id="hunter2"), name="test_x[hunter2]")
    >>> scrubbed_items(SimpleNamespace(nodeid="t.py"), "test_x", [leaky], lambda: Secrets(["hunter2"]))
    Traceback (most recent call last):
    ...
    _pytest.nodes.Collector.CollectError: plancheck: the tests t.py::test_x have ids showing a secret, and this pytest's tests cannot be named again without it (TypeError); they are not collected (run with --tf-show-sensitive locally to collect them as pytest names them)
    """
    ids = [_id_of(item, name) for item in items]
    try:
        found = secrets()
        shown = [text if not isinstance(text, str) or not found.touches(text) else found.scrub(text) for text in ids]
    except Exception as exc:  # an id must never end the collection, nor leak for want of the secrets
        shown = [text if not isinstance(text, str) else f"(withheld: {type(exc).__name__})" for text in ids]
    if shown == ids:
        return items
    counts = Counter(shown)
    numbered: Counter[str] = Counter()
    made: list[Any] = []
    for item, text, new in zip(items, ids, shown, strict=True):
        if new == text:
            made.append(item)
            continue
        new = cast(str, new)
        if counts[new] > 1 or new in ids:
            numbered[new] += 1
            new = f"{new}{numbered[new] - 1}"
        made.append(_renamed(collector, name, item, new))
    return made


def _id_of(item: Any, name: str) -> str | None:
    """The id of a test of the function ``name`` as its name shows it (``name[id]``), or None when it has none.

    Read from the name, not the callspec's ``id``: what is shown is checked, whatever pytest makes it of. A
    parametrized test named otherwise is checked whole.

    >>> from types import SimpleNamespace
    >>> _id_of(SimpleNamespace(name="test_x[a-b]"), "test_x"), _id_of(SimpleNamespace(name="test_x"), "test_x")
    ('a-b', None)
    """
    shown = getattr(item, "name", None)
    if not isinstance(shown, str) or shown == name:
        return None
    return shown[len(name) + 1 : -1] if shown.startswith(f"{name}[") and shown.endswith("]") else shown


def _renamed(collector: Any, name: str, item: Any, new_id: str) -> Any:
    """``item`` made again by pytest's own constructor, its parameters' id ``new_id``; a collection error naming
    the tests when this pytest's internals are not the ones used here, or make a name of anything but ``new_id``."""
    import pytest

    try:
        callspec = dataclasses.replace(item.callspec, _idlist=(new_id,))
        made = pytest.Function.from_parent(
            collector, name=f"{name}[{new_id}]", callspec=callspec, fixtureinfo=item._fixtureinfo,
            keywords={new_id: True}, originalname=name,
        )
        if not (made.name.endswith(f"[{new_id}]") and made.nodeid.endswith(f"[{new_id}]")):
            raise LookupError("named by another id")  # a callspec whose id is not its _idlist's: not proven scrubbed
    except Exception as exc:  # neither an INTERNALERROR nor a test named by a secret: the tests are not collected
        # Only the type: the exception's text may quote the id.
        raise pytest.Collector.CollectError(
            f"plancheck: the tests {getattr(collector, 'nodeid', '?')}::{name} have ids showing a secret, and this "
            f"pytest's tests cannot be named again without it ({type(exc).__name__}); they are not collected "
            "(run with --tf-show-sensitive locally to collect them as pytest names them)"
        ) from None
    return made


def shown_param(fixturedef: Any, request: Any, secrets: Callable[[], Secrets]) -> Callable[[object], str] | None:
    """What ``--setup-show`` should write for the parameter of ``request`` instead of what it would, when that
    shows a secret: an ``ids`` function for ``fixturedef`` (pytest writes what a fixture's ids make of the value);
    None when it shows none. When the secrets cannot be listed, the parameter is withheld (failing closed).

    >>> from types import SimpleNamespace
    >>> request = SimpleNamespace(param="hunter2 is the pw", param_index=0)
    >>> shown_param(SimpleNamespace(ids=None), request, lambda: Secrets(["hunter2"]))(request.param)
    '(sensitive) is the pw'
    >>> shown_param(SimpleNamespace(ids=["plain"]), request, lambda: Secrets(["hunter2"])) is None
    True
    """
    try:
        ids = fixturedef.ids
        param = ids(request.param) if callable(ids) else ids[request.param_index] if ids else request.param
        found = secrets()
        if not (found.touches(repr(param)) or found.touches(str(param))):
            return None
        text = found.scrub(str(param))
    except Exception as exc:  # a parameter must never end the session, nor leak for want of the secrets
        text = f"(withheld: {type(exc).__name__})"

    def shown(_value: object) -> str:
        return text

    return shown


def scrub_text(text: str, secrets: Callable[[], Secrets | None] | None) -> str:
    """A text the plugin writes itself, not through a report (a sweep's log line), scrubbed of the session's secrets.

    ``secrets`` is asked at each text: a sweeper may read a document while the sweep runs. When it
    cannot be had the text is withheld, as a report's is: failing closed.

    >>> scrub_text("FAILED: cannot delete hunter2", lambda: Secrets(["hunter2"])), scrub_text("ok", None)
    ('FAILED: cannot delete (sensitive)', 'ok')
    >>> scrub_text("hunter2", lambda: 1 / 0)[:67]
    "plancheck: this report's text is withheld because its secrets could"
    """
    if secrets is None:
        return text
    try:
        found = secrets()
        return text if found is None else found.scrub(text)
    except Exception as exc:  # a line must never end the session, nor leak for want of the secrets
        return WITHHELD.format(problem=type(exc).__name__)


class ScrubbingFormatter(logging.Formatter):
    """The formatter of a log handler pytest writes itself (live logging, ``--log-file``), scrubbed.

    Those records reach the terminal or a file while the test runs, never through a report. The
    record is left as it is (``caplog`` and the user's own handlers see it whole): only the text this
    handler writes is scrubbed, exception and stack included.

    >>> inner = logging.Formatter("%(levelname)s %(message)s")
    >>> formatter = ScrubbingFormatter(inner, lambda: Secrets(["hunter2"]))
    >>> record = logging.LogRecord("x", logging.WARNING, "t.py", 1, "pw=%s", ("hunter2",), None)
    >>> formatter.format(record), record.getMessage()
    ('WARNING pw=(sensitive)', 'pw=hunter2')
    """

    def __init__(self, inner: logging.Formatter | None, secrets: Callable[[], Secrets | None]) -> None:
        super().__init__()
        self.inner = inner if inner is not None else logging.Formatter()
        self._secrets = secrets

    def format(self, record: logging.LogRecord) -> str:
        """The inner formatter's text, scrubbed (withheld when the secrets cannot be had)."""
        return scrub_text(self.inner.format(record), self._secrets)

    def __getattr__(self, name: str) -> Any:
        # pytest's live-logging handler asks its formatter for more than format() (colours, level widths).
        inner = self.__dict__.get("inner")
        if inner is None:
            raise AttributeError(name)
        return getattr(inner, name)


def junit_texts(reporters: Iterable[Any], properties: Iterable[tuple[str, object]] = ()) -> Iterator[str]:
    """Every text and attribute of the JUnit test cases ``reporters`` wrote, and of the suite ``properties``."""
    for pair in properties:
        yield from (part for part in pair if isinstance(part, str))  # the name is written too
    for reporter in reporters:
        for node in reporter.to_xml().iter():
            yield from (value for value in node.attrib.values() if isinstance(value, str))
            yield from (text for text in (node.text, node.tail) if isinstance(text, str))


def scrub_junit(log_xml: Any, secrets: Secrets, *, reporters: Iterable[Any] | None = None, properties_from: int = 0) -> None:
    """Scrub what pytest's JUnit writer holds before it writes the file: each test case's element
    (attributes, properties, failure texts, system-out/err) and the suite's ``record_testsuite_property``;
    only ``reporters`` (the test cases of one test) and the suite properties from ``properties_from`` on, if given.

    Reports are scrubbed when made; what a test wrote into the file itself (``record_xml_attribute``,
    ``record_testsuite_property``) never passed through one.

    >>> import xml.etree.ElementTree as ET
    >>> from types import SimpleNamespace
    >>> case = ET.Element("testcase", {"pw": "hunter2"}); case.text = "out hunter2"
    >>> xml = SimpleNamespace(global_properties=[("pw", "hunter2"), ("hunter2", 1)],
    ...                       node_reporters_ordered=[SimpleNamespace(to_xml=lambda: case)])
    >>> scrub_junit(xml, Secrets(["hunter2"]))
    >>> xml.global_properties, case.attrib, case.text
    ([('pw', '(sensitive)'), ('(sensitive)', 1)], {'pw': '(sensitive)'}, 'out (sensitive)')
    """
    scrub = secrets.scrub
    properties = getattr(log_xml, "global_properties", None)
    if isinstance(properties, list):
        # The name too (<property name=...>): a test may name a suite property by a map key.
        properties[properties_from:] = [
            tuple(scrub(part) if isinstance(part, str) else part for part in pair) for pair in properties[properties_from:]
        ]
    for reporter in getattr(log_xml, "node_reporters_ordered", ()) if reporters is None else reporters:
        # A finalized reporter hands out the one element it made: scrubbed here, it is written scrubbed.
        for node in reporter.to_xml().iter():
            node.attrib = {key: scrub(value) if isinstance(value, str) else value for key, value in node.attrib.items()}
            if isinstance(node.text, str):
                node.text = scrub(node.text)
            if isinstance(node.tail, str):
                node.tail = scrub(node.tail)


def _junit_writer(config: pytest.Config) -> Any:
    """pytest's JUnit writer (``--junitxml``), or None."""
    try:
        from _pytest.junitxml import xml_key
    except ImportError:  # pytest moved its JUnit writer: the reports in it are scrubbed all the same
        return None
    return config.stash.get(xml_key, None)


class ReportScrubber:
    """The report and warning hooks, bound to one session's config and documents, registered with them (the
    plugin's ``_session_documents``: the first document or secret met, or the first fixture that loads one).

    Every report is scrubbed once, as soon as it is made, also of passing tests (``-rA`` and JUnit
    show what they printed); reports made without ``pytest_runtest_makereport`` (subtests) are
    scrubbed when logged, before the terminal, JUnit or xdist see them; warnings before the warnings
    summary stores them.
    """

    def __init__(self, config: pytest.Config, documents: SessionDocuments, *, show: bool) -> None:
        self.config = config
        self.documents = documents
        #: ``--tf-show-sensitive`` (not in CI): nothing is scrubbed.
        self.show = show
        # makereport is followed at once by logreport of the same report: one scrub is enough.
        self._scrubbed: object = None
        #: The names and paths the running test's check failures trusted: its JUnit element is scrubbed trusting them.
        self._trusted: set[str] = set()
        #: How many JUnit test cases and suite properties there were when the running test began.
        self._junit_from = (0, 0)
        #: The JUnit test cases scrubbed of their test's secrets when it ended (by id: the writer holds them).
        self._junit_done: set[int] = set()

    def join(self, *, running: bool) -> None:
        """Registered while the session runs: take it up where it is.

        In a test (pytest names it in ``PYTEST_CURRENT_TEST`` from its setup to its teardown; before the tests run,
        the variable may be a parent session's), what is met from
        now on is that test's, and its JUnit test case (made with its first report) is scrubbed as it ends; its
        suite properties are told from earlier tests' by nothing, so all recorded so far are scrubbed with them.
        Outside a test, documents are met while collecting, placed when collection is over. The live log and
        log file are scrubbed from now on. (The warnings hook is historic: registered, it was given the warnings
        recorded so far, with no document yet to scrub them of, as they were when recorded.)
        """
        current = os.environ.get("PYTEST_CURRENT_TEST") if running else None
        if current is not None:
            nodeid = current.rsplit(" (", 1)[0]
            self.documents.begin_test(module_of(nodeid))
            log_xml = _junit_writer(self.config)
            if log_xml is not None:
                ordered = log_xml.node_reporters_ordered
                # A reporter's id is the node id, as text or (pytest 9) a NodeId that writes as it.
                first = next((i for i, reporter in enumerate(ordered) if str(getattr(reporter, "id", "")) == nodeid), len(ordered))
                self._junit_from = (first, 0)
        self._scrub_logging()

    def _secrets(self, texts: Callable[[], Iterable[str]] | None = None) -> Callable[[], Secrets] | None:
        """How to get the secrets to scrub ``texts`` of (any text, if None), or None: nothing to scrub."""
        return None if self.show else self.documents.secrets_of(texts)

    def _scrub(self, report: Any, excinfo: Any = None) -> None:
        secrets = self._secrets(lambda: report_texts(report))
        if secrets is not None:
            # A check's failure trusts its configuration names and given paths: this scrub keeps them too.
            trusted = getattr(getattr(excinfo, "value", None), "trusted", ())
            if isinstance(trusted, tuple) and trusted:
                self._trusted.update(text for text in trusted if isinstance(text, str))
                collect = secrets
                secrets = lambda: collect().trusting(trusted)  # noqa: E731 (collected inside the guard below)
            scrub_report_or_withhold(report, secrets)
        self._scrubbed = report

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
        """Scrub the secrets of every document and acceptance test of this session (the runner's skip placed at the test)."""
        report = yield
        self._scrub(report, call.excinfo)
        return report

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Scrub a report that did not pass through makereport before anyone shows or sends it."""
        if report is not self._scrubbed:
            self._scrub(report)

    @pytest.hookimpl(tryfirst=True)
    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        """Scrub a collection report (a module that failed to import) before anyone shows it."""
        self._scrub(report)

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self) -> None:
        """Scrub what pytest's logging writes itself: live logs (``--log-cli-level``) and ``--log-file``."""
        self._scrub_logging()

    def _scrub_logging(self) -> None:
        """Give pytest's live log and log file handlers a scrubbing formatter, once (none before it is configured)."""
        logging_plugin = self.config.pluginmanager.get_plugin("logging-plugin")
        if logging_plugin is None or self.show:
            return
        live = not isinstance(getattr(logging_plugin, "log_cli_handler", None), logging.NullHandler)
        to_file = getattr(getattr(logging_plugin, "log_file_handler", None), "baseFilename", os.devnull) != os.devnull
        if not live and not to_file:
            return  # neither writes anything
        def secrets() -> Secrets | None:
            found = self._secrets()
            return None if found is None else found()

        for name in ("log_cli_handler", "log_file_handler"):
            handler = getattr(logging_plugin, name, None)
            if handler is not None and not isinstance(handler.formatter, ScrubbingFormatter):
                handler.setFormatter(ScrubbingFormatter(handler.formatter, secrets))

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self) -> None:
        """Scrub the rest of the JUnit XML before pytest writes it: the suite's properties and the test cases no
        test's end scrubbed (what tests recorded into it themselves included), of the secrets lasting till now."""
        self.documents.end_test()  # a test that met the session's first document ran with no wrapper to end it
        log_xml = _junit_writer(self.config)
        if log_xml is None:
            return
        rest = [reporter for reporter in log_xml.node_reporters_ordered if id(reporter) not in self._junit_done]
        secrets = self._secrets(lambda: junit_texts(rest, log_xml.global_properties))
        if secrets is None:
            return
        try:
            scrub_junit(log_xml, secrets(), reporters=rest)
        except Exception as exc:  # never end the session from a hook; nothing is written unscrubbed
            log_xml.node_reporters_ordered[:] = []
            log_xml.global_properties[:] = [("plancheck", WITHHELD.format(problem=type(exc).__name__))]

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logstart(self, nodeid: str) -> None:
        """A test begins: what it makes and finds is its own, the source of its reports' scrub."""
        self.documents.begin_test(module_of(nodeid))
        self._trusted = set()
        log_xml = _junit_writer(self.config)
        if log_xml is not None:
            self._junit_from = (len(log_xml.node_reporters_ordered), len(log_xml.global_properties))

    def pytest_runtest_logfinish(self) -> None:
        """The test's reports are out: scrub its JUnit test case of its secrets now."""
        self._scrub_junit_of_test()

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, object, object]:
        """Let go of what the test made once pytest has recorded its warnings too, not when its reports are out.

        pytest's warnings plugin records what the test warned as its protocol ends, after the last report
        (this wrapper, registered after it, encloses it): a test that warned a value of a plan it loaded itself
        had it in clear in the warnings summary, its secrets let go by then.
        """
        try:
            return (yield)
        finally:
            self.documents.end_test()

    def _scrub_junit_of_test(self) -> None:
        """Scrub what the test wrote into the JUnit writer itself (``record_xml_attribute``,
        ``record_testsuite_property``) while its secrets are known: the file is written at the session's
        end, when they are not any more. Its reports reached the writer scrubbed already."""
        log_xml = _junit_writer(self.config)
        if log_xml is None:
            return
        cases, properties = self._junit_from
        # A finalized test case hands out the one element written; one not finalized yet is left to the session's end.
        mine = [reporter for reporter in log_xml.node_reporters_ordered[cases:] if "to_xml" in vars(reporter)]
        secrets = self._secrets(lambda: junit_texts(mine, log_xml.global_properties[properties:]))
        if secrets is None:
            return
        try:
            scrub_junit(log_xml, secrets().trusting(self._trusted), reporters=mine, properties_from=properties)
        except Exception as exc:  # never end the session from a hook; the test's cases are not written unscrubbed
            withheld = {id(reporter) for reporter in mine}
            log_xml.node_reporters_ordered[:] = [r for r in log_xml.node_reporters_ordered if id(r) not in withheld]
            del log_xml.global_properties[properties:]
            log_xml.global_properties.append(("plancheck", WITHHELD.format(problem=type(exc).__name__)))
            return
        self._junit_done.update(id(reporter) for reporter in mine)

    @pytest.hookimpl(trylast=True)
    def pytest_keyboard_interrupt(self) -> None:
        """Scrub what the terminal keeps of the exception that ended the session (``pytest.exit``, a test's
        ``KeyboardInterrupt``): it writes its line (and, with ``--fulltrace``, its traceback) through no report."""
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        excrepr = getattr(reporter, "_keyboardinterrupt_memo", None)
        secrets = self._secrets() if excrepr is not None else None
        if secrets is not None:
            scrub_interrupt(excrepr, secrets)

    @pytest.hookimpl(tryfirst=True)
    def pytest_warning_recorded(self, warning_message: Any) -> None:
        """Scrub a warning before pytest's warnings summary stores it."""
        secrets = self._secrets(lambda: [str(warning_message.message)])
        if secrets is not None:
            scrub_warning(warning_message, secrets)


class SetupShowScrubber:
    """Registered by the plugin's ``pytest_configure`` only with ``--setup-show`` (``--setup-plan``): every other
    session runs no wrapper around each fixture's setup for it."""

    def __init__(self, secrets: Callable[[], Callable[[], Secrets] | None]) -> None:
        #: How to get the session's secrets as they are when a fixture is set up (None: nothing to scrub).
        self.secrets = secrets

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_fixture_setup(self, fixturedef: Any, request: Any) -> Generator[None, object, object]:
        """``--setup-show`` writes a fixture's parameter beside its setup and teardown, through no report: one that
        shows a secret is written scrubbed (pytest writes what the fixture's ids make of it, set for the setup)."""
        secrets = self.secrets() if hasattr(request, "param") else None
        if secrets is None:
            return (yield)
        shown = shown_param(fixturedef, request, secrets)
        if shown is None:
            return (yield)
        ids, fixturedef.ids = fixturedef.ids, shown
        try:
            return (yield)  # pytest's --setup-show wrapper, inside this one, writes the parameter as it ends
        finally:
            fixturedef.ids = ids


class Revealer:
    """Registered by the plugin's ``pytest_configure`` only under ``--tf-show-sensitive`` (and not in CI): every
    other session runs no wrapper around each test for it."""

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, object, object]:
        """Reveal secrets while the test runs and is reported."""
        with revealing_sensitive():
            return (yield)
