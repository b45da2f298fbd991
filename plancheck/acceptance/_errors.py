"""Every error of the acceptance runner, and a step's failure before it becomes one.

:class:`AcceptanceError` (an ``AssertionError``) is a failed step, :class:`TestDefinitionError` a
malformed test definition, :class:`LeftoverRecordError` an unreadable leftover record;
:class:`TestCheckFuncError` and :class:`ComposedCheckError` are the failures of Go's legacy check
functions (one, and a composed set).

Internal to the runner: a :class:`_StepFailure` keeps the raw, unredacted texts so that an
``expect_error`` pattern sees what Terraform printed; ``CaseRun.error`` scrubs them. The helpers
after it lay out its texts (a listing, a command's output, a plan's changes). :func:`refuse_cycle` raises a
TestDefinitionError for a definition's value that holds a cycle; :func:`refusing_value` refuses one so, and
scrubs any refusal of it of its secrets (:func:`scrubbing_secrets`, which a step's whole validation runs in).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from enum import StrEnum
from typing import Any, ClassVar, Final

from tfjsonpath._jsontypes import find_cycle, is_array, is_object, json_size

from .._checking.matcher import search_pattern
from .._documents.met import met
from .._errors import TestDefinitionError, TfCheckError
from .._frozen import public
from .._loading.source import MAX_BYTES_ENV, max_input_bytes
from .._redact import Secrets, collect_secret_strings
from .._terraform.binary import CommandResult
from .._text import lone_surrogate_at

__all__ = [
    "AcceptanceError",
    "ComposedCheckError",
    "LeftoverRecordError",
    "MAX_OUTPUT_CHARS",
    "Stage",
    "TestCheckFuncError",
    "TestDefinitionError",
    "check_resource_address",
    "quote_key",
    "refuse_cycle",
    "refuse_oversized",
    "refusing_value",
    "require_utf8",
    "scrubbing_secrets",
    "wrapped_strings",
]


@public("plancheck.acceptance")
class Stage(StrEnum):
    """Where in a test case something failed.

    >>> Stage.PRE_APPLY.value, str(Stage.DESTROY)
    ('pre_apply', 'destroy')
    """

    VERSION_CHECKS = "version_checks"
    CONFIG = "config"
    INIT = "init"
    TAINT = "taint"
    VALIDATE = "validate"
    PRE_APPLY = "pre_apply"
    APPLY = "apply"
    CHECK = "check"
    STATE_CHECKS = "state_checks"
    POST_APPLY_PRE_REFRESH = "post_apply_pre_refresh"
    POST_APPLY_POST_REFRESH = "post_apply_post_refresh"
    POST_APPLY_FUNC = "post_apply_func"
    REFRESH_AFTER_APPLY = "refresh_after_apply"
    IMPORT = "import"
    IMPORT_PLAN = "import_plan"
    IMPORT_STATE_CHECK = "import_state_check"
    IMPORT_STATE_VERIFY = "import_state_verify"
    REFRESH = "refresh"
    POST_REFRESH = "post_refresh"
    QUERY = "query"
    QUERY_RESULT_CHECKS = "query_result_checks"
    EXPECT_ERROR = "expect_error"
    EXPECT_DIAGNOSTICS = "expect_diagnostics"
    DESTROY = "destroy"
    CHECK_DESTROY = "check_destroy"


def _indent(text: str, prefix: str = "  ") -> str:
    return "\n".join(prefix + line if line else line for line in text.splitlines())


@public("plancheck.acceptance")
class AcceptanceError(TfCheckError, AssertionError):
    """A test case failed: at which step (1-based) of how many, in which stage, and why.

    Every text in it (``reason``, ``command``, ``output``) is already redacted: the values
    of sensitive variables and of marked attributes and outputs show as ``(sensitive)``.

    >>> err = AcceptanceError(2, 3, Stage.APPLY, "terraform apply failed",
    ...                       command="terraform apply -input=false -no-color tfplan", exit_code=1,
    ...                       output="stderr:\\nError: boom")
    >>> print(err)
    step 2/3, apply: terraform apply failed
    command: terraform apply -input=false -no-color tfplan (exit code 1)
      stderr:
      Error: boom
    >>> isinstance(err, AssertionError), err.step, err.stage
    (True, 2, <Stage.APPLY: 'apply'>)

    ``also`` holds what failed after it, in the post-test destroy or ``check_destroy``: the
    first failure stays the headline.

    >>> print(AcceptanceError(1, 1, Stage.CHECK, "Check failed: no widget",
    ...                       also=("check_destroy (after the post-test destroy): CheckDestroy failed:\\nwidget left",)))
    step 1/1, check: Check failed: no widget
    also: check_destroy (after the post-test destroy): CheckDestroy failed:
      widget left
    """

    def __init__(
        self,
        step: int,
        steps: int,
        stage: Stage,
        reason: str,
        *,
        command: str | None = None,
        exit_code: int | None = None,
        output: str = "",
        also: tuple[str, ...] = (),
        trusted: tuple[str, ...] = (),
    ) -> None:
        self.step = step
        self.steps = steps
        self.stage = Stage(stage)
        self.reason = reason
        self.command = command
        self.exit_code = exit_code
        self.output = output
        self.also = tuple(also)
        #: What the check failures in ``reason`` trust (:attr:`plancheck.CheckFailure.trusted`): the report
        #: hook's scrub keeps it too.
        self.trusted = tuple(trusted)
        super().__init__(self._render())

    def add_also(self, failure: str, scrub: Callable[[str], str] | None = None) -> None:
        """Append a later failure (the post-test destroy's, ``check_destroy``'s) to this one's message.

        ``scrub``: the case's scrub, applied to this error again first (the destroy may have found secrets,
        the state's, after this error was made).
        """
        if scrub is not None:
            self.reason, self.output = scrub(self.reason), scrub(self.output)
            self.command = None if self.command is None else scrub(self.command)
        self.also = (*self.also, failure)
        self.args = (self._render(),)

    def _render(self) -> str:
        if self.stage is Stage.DESTROY:
            head = f"post-test destroy (after step {self.step}/{self.steps}): {self.reason}"
        elif self.stage is Stage.CHECK_DESTROY:
            head = f"check_destroy (after the post-test destroy): {self.reason}"
        elif self.stage is Stage.VERSION_CHECKS:
            head = f"version checks (before step 1/{self.steps}): {self.reason}"
        else:
            head = f"step {self.step}/{self.steps}, {self.stage.value}: {self.reason}"
        lines = [head]
        if self.command is not None:
            status = "" if self.exit_code is None else f" (exit code {self.exit_code})"
            lines.append(f"command: {self.command}{status}")
        if self.output:
            lines.append(_indent(self.output))
        for failure in self.also:
            first, _, rest = failure.partition("\n")
            lines.append(f"also: {first}")
            if rest:
                lines.append(_indent(rest))
        return "\n".join(lines)


@public("plancheck.acceptance")
class LeftoverRecordError(TfCheckError, ValueError):
    """A leftover's record (``leftover.json``) cannot be read: the leftover is neither destroyed nor removed.

    Without its record nothing says which Terraform, providers and project the kept state needs, so
    an attempt could "succeed" on the wrong thing and remove the only copy of a state that still
    owns real infrastructure: the leftover is left for a person to look at.

    >>> print(LeftoverRecordError("/l/x/leftover.json", "not valid JSON"))
    /l/x/leftover.json: unreadable leftover record (not valid JSON); the leftover was neither destroyed nor removed: repair or remove it by hand
    """

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(
            f"{path}: unreadable leftover record ({problem}); the leftover was neither destroyed nor removed: "
            "repair or remove it by hand"
        )


def quote_key(key: str) -> str:
    """A map key as a location names it: ``variables["k"]``.

    >>> quote_key('a"b')
    '"a\\\\"b"'
    """
    return '"' + key.replace("\\", "\\\\").replace('"', '\\"') + '"'


def refuse_cycle(value: Any, where: str, unwrap: Callable[[Any], Any], shown_keys: int | None = None) -> None:
    """Raise :class:`TestDefinitionError` at the place where ``value`` holds a dict, list or tuple inside itself.

    ``unwrap`` opens a wrapper (a :class:`~plancheck.acceptance.Sensitive`: itself for anything else); the keys
    inside one are secret and named ``"(sensitive)"``. So is every map key on the way below the first ``shown_keys``
    (None: all are shown). A value met twice elsewhere (shared) is no cycle. Every walk of a value (copying it,
    collecting its secrets) would go round one for ever.

    >>> looped = {"k": []}
    >>> looped["k"].append(looped)
    >>> refuse_cycle({"a": looped}, "variables", lambda v: v)
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: variables["a"]["k"][0]: expected a JSON value, got a value that contains itself (a cycle)
    >>> refuse_cycle({"a": looped}, "variables", lambda v: v, shown_keys=1)
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: variables["a"]["(sensitive)"][0]: expected a JSON value, got a value that contains itself (a cycle)
    """
    cycle = find_cycle(value, unwrap, sequence=is_array)
    if cycle is None:
        return
    # The way down is walked again to name it: which steps are map keys, and which of those a wrapper hides.
    at, hidden, keys, current = where, False, 0, value
    for step in cycle.at:
        while (inner := unwrap(current)) is not current:
            current, hidden = inner, True
        if is_object(current):
            secret = hidden or (shown_keys is not None and keys >= shown_keys)
            at += '["(sensitive)"]' if secret else f"[{quote_key(str(step))}]"
            keys += 1
        else:
            at += f"[{step}]"
        current = current[step]
    raise TestDefinitionError(at, "expected a JSON value, got a value that contains itself (a cycle)")


#: Characters of each output stream kept in an error (the end, where Terraform puts its errors).
MAX_OUTPUT_CHARS: Final = 8000
_BOX_PREFIX: Final = re.compile(r"^[ \t]*[│╷╵][ \t]?", re.MULTILINE)
_SPACES: Final = re.compile(r"\s+")


class _StepFailure(Exception):
    """Internal: a failure with its raw (unredacted) texts, before it becomes an AcceptanceError."""

    def __init__(
        self, stage: Stage, reason: str, result: CommandResult | None = None, trusted: tuple[str, ...] = ()
    ) -> None:
        super().__init__(reason)
        self.stage = stage
        self.reason = reason
        self.result = result
        #: What the failures of checks in ``reason`` trust (:attr:`plancheck.CheckFailure.trusted`).
        self.trusted = trusted

    def raw_text(self) -> str:
        parts = [self.reason]
        if self.result is not None:
            parts.extend((self.result.stderr, self.result.stdout))
        return "\n".join(parts)


def _matches(pattern: re.Pattern[str], text: str) -> bool:
    """Search ``text`` as is, and again with Terraform's diagnostic boxes and line wrapping undone."""
    if search_pattern(pattern, text, "TestStep.expect_error"):
        return True
    flat = _SPACES.sub(" ", _BOX_PREFIX.sub("", text))
    return search_pattern(pattern, flat, "TestStep.expect_error")


def _tail(text: str) -> str:
    if len(text) <= MAX_OUTPUT_CHARS:
        return text
    cut = len(text) - MAX_OUTPUT_CHARS
    return f"…({cut} earlier characters omitted)\n" + text[cut:]


def _format_output(result: CommandResult, secrets: Secrets) -> str:
    parts: list[str] = []
    for name, text in (("stderr", result.stderr), ("stdout", result.stdout)):
        # Scrub before cutting, so a cut can never leave half a secret behind.
        cleaned = secrets.scrub(text).strip("\n")
        if cleaned.strip():
            parts.append(f"{name}:\n{_tail(cleaned)}")
    return "\n".join(parts)


def _listing(title: str, items: list[str]) -> str:
    """``title:`` then each item on its own lines, indented."""
    lines = [f"{title}:"]
    for item in items:
        lines.extend("  " + line if line else line for line in item.splitlines() or [""])
    return "\n".join(lines)


def _non_empty(stage: Stage, message: str, changes: list[str], result: CommandResult) -> _StepFailure:
    return _StepFailure(stage, _listing(f"{message}; planned changes", changes), result)


@public("plancheck.acceptance")
class TestCheckFuncError(TfCheckError, AssertionError):
    """A legacy check function (``TestCheckResourceAttr`` ...) failed; the message is worded as in Go.

    ``check`` is the Go name of the function, ``name`` the resource (or output) it looked at,
    ``key`` the flatmap key; ``message`` is already redacted.

    >>> err = TestCheckFuncError("TestCheckResourceAttr", "null_resource.a", "id", "null_resource.a: Attribute 'id' not found")
    >>> print(err)
    null_resource.a: Attribute 'id' not found
    >>> isinstance(err, AssertionError), err.check, err.key
    (True, 'TestCheckResourceAttr', 'id')
    """

    __test__: ClassVar[bool] = False

    def __init__(self, check: str, name: str | None, key: str | None, message: str) -> None:
        self.check = check
        self.name = name
        self.key = key
        self.message = message
        super().__init__(message)


@public("plancheck.acceptance")
class ComposedCheckError(TfCheckError, AssertionError):
    """Checks composed by ``ComposeTestCheckFunc``/``ComposeAggregateTestCheckFunc`` failed.

    ``failures`` holds (1-based index, redacted message) of each failed check, of ``total``;
    ``errors`` the errors themselves (empty after unpickling). As in Go, each line reads
    ``Check N/M error: ...`` and the lines are joined by newlines.

    >>> err = ComposedCheckError(3, [(1, "boom"), (3, "bang")])
    >>> print(err)
    Check 1/3 error: boom
    Check 3/3 error: bang
    """

    __test__: ClassVar[bool] = False

    def __init__(self, total: int, failures: Iterable[tuple[int, str]], errors: Iterable[BaseException] = ()) -> None:
        self.total = total
        self.failures = tuple(failures)
        self.errors = tuple(errors)
        super().__init__("\n".join(f"Check {i}/{total} error: {text}" for i, text in self.failures))

    def __reduce__(self) -> tuple[object, ...]:
        # The check functions' own errors stay in this process: their text is not redacted, and a
        # user's exception class may not pickle.
        return (type(self), (self.total, self.failures))


def wrapped_strings(value: Any, unwrap: Callable[[Any], Any], *, hidden: bool = False) -> set[str]:
    """The strings of every wrapped part of ``value`` (``unwrap`` opens a wrapper, as :func:`refuse_cycle`'s does;
    all of it when ``hidden``), by the one rule (:func:`plancheck._redact.collect_secret_strings`).

    Each container is opened once (as wrapped or not), and the rule asked of each scalar and key inside a wrapper:
    the rule's own walk goes down every way to a container held in many places, and round a cycle for ever (a
    value being refused may hold one).

    >>> hidden = lambda v: v[1] if isinstance(v, tuple) and v[:1] == ("secret",) else v
    >>> sorted(wrapped_strings({"a": ("secret", {"alice": ["s3cret", 7]}), "b": {"open": 1}}, hidden))
    ['7', 'alice', 's3cret']
    """
    found: set[str] = set()
    opened: set[tuple[int, bool]] = set()
    stack: list[tuple[Any, bool]] = [(value, hidden)]
    while stack:
        current, hidden = stack.pop()
        while (inner := unwrap(current)) is not current:
            current, hidden = inner, True
        if isinstance(current, (Mapping, list, tuple)):
            if (id(current), hidden) in opened:
                continue
            opened.add((id(current), hidden))
            if hidden and isinstance(current, Mapping):
                for key in current:
                    collect_secret_strings(key, found)
            stack.extend((member, hidden) for member in (current.values() if isinstance(current, Mapping) else current))
        elif hidden:
            collect_secret_strings(current, found)
    return found


def refuse_oversized(value: Mapping[str, Any], where: str, unwrap: Callable[[Any], Any]) -> None:
    """Raise :class:`TestDefinitionError` naming the largest member of ``value`` (a step's variables, a configuration's
    blocks) when ``value`` written as JSON would be over the loader's input limit (:func:`json_size`, linear however
    much is shared; ``PLANCHECK_MAX_BYTES`` raises it). JSON writes a value held in many places out at each, and every
    walk that copies it does too: a value held twice at each of 40 levels would be terabytes.

    >>> shared = []
    >>> for _ in range(40):
    ...     shared = [shared, shared]
    >>> refuse_oversized({"small": 1, "v": shared}, "variables", lambda v: v)
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: variables["v"]: expected at most 2147483648 bytes of JSON in all (raise the limit with PLANCHECK_MAX_BYTES), got at least 5497558138893, at least 5497558138877 of them here: a value held in many places is written out at each
    """
    if not value:
        return  # nothing is written
    try:
        limit = max_input_bytes()
    except ValueError as exc:  # the environment variable is no positive number
        raise TestDefinitionError(where, str(exc)) from None
    total = json_size(value, unwrap)
    if total <= limit:
        return
    sizes = {name: json_size(member, unwrap) for name, member in value.items()}  # refused: the walk is paid again
    name = max(sizes, key=sizes.__getitem__)
    raise TestDefinitionError(
        f"{where}[{quote_key(str(name))}]",
        f"expected at most {limit} bytes of JSON in all (raise the limit with {MAX_BYTES_ENV}), got at least {total}, "
        f"at least {sizes[name]} of them here: a value held in many places is written out at each",
    )


def require_utf8(text: str, where: str, *, secret: bool = False) -> None:
    """Raise :class:`TestDefinitionError` at ``where`` when ``text`` cannot be written as UTF-8: it shows none of it,
    and where in it only when it is no ``secret``.

    >>> require_utf8("ok", "TestStep.config")
    >>> require_utf8("a\\ud800", "TestStep.config")
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: TestStep.config: expected UTF-8 text, found a lone surrogate at character 1
    """
    start = lone_surrogate_at(text)
    if start is not None:
        at = "" if secret else f" at character {start}"
        raise TestDefinitionError(where, f"expected UTF-8 text, found a lone surrogate{at}")


@contextmanager
def refusing_value(value: Any, where: str, unwrap: Callable[[Any], Any]) -> Iterator[Callable[[str], str]]:
    """Refuse ``value`` (at ``where``) if it holds a cycle (:func:`refuse_cycle`, ``unwrap`` opening a wrapper), and
    within this block, as the block's own walk refuses it: each :class:`TestDefinitionError` is scrubbed of every
    secret of ``value`` (:func:`scrubbing_secrets`), as a plain map's key may spell a string wrapped elsewhere. The
    block is given that scrub, for a text it shows of ``value`` itself (a key's repr).

    >>> hidden = lambda v: v[1] if isinstance(v, tuple) and v[:1] == ("secret",) else v
    >>> with refusing_value({"pw": ("secret", "s3cret")}, "v", hidden):
    ...     raise TestDefinitionError('v["tags"]["s3cret"]', "expected a str")
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: v["tags"]["(sensitive)"]: expected a str
    """
    with scrubbing_secrets(value, (where,), unwrap) as scrub:
        refuse_cycle(value, where, unwrap)
        yield scrub


_NAME = r"[A-Za-z_][A-Za-z0-9_-]*"
_INDEX = r'\[(?:[0-9]+|"(?:[^"\\]|\\.)*")\]'
#: A resource instance address: module path, then [data.]type.name, then an optional index.
_RESOURCE_ADDRESS = re.compile(rf"(?:module\.{_NAME}(?:{_INDEX})?\.)*(?!module\.)(?:data\.)?{_NAME}\.{_NAME}(?:{_INDEX})?")


def check_resource_address(value: str, where: str) -> str:
    """``value`` when it is a Terraform resource address, else :class:`TestDefinitionError`.

    >>> check_resource_address('module.app["a"].aws_instance.web[0]', "TestStep.resource_name")
    'module.app["a"].aws_instance.web[0]'
    >>> check_resource_address("not an address!", "TestStep.resource_name")
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: TestStep.resource_name: expected a resource address such as aws_instance.web or module.app.aws_instance.web[0], got 'not an address!'
    """
    if _RESOURCE_ADDRESS.fullmatch(value) is None:
        raise TestDefinitionError(
            where, f"expected a resource address such as aws_instance.web or module.app.aws_instance.web[0], got {value!r}"
        )
    return value


@contextmanager
def scrubbing_secrets(value: Any, trusted: Iterable[str], unwrap: Callable[[Any], Any]) -> Iterator[Callable[[str], str]]:
    """Within this block, each :class:`TestDefinitionError` names its location and its problem scrubbed of every
    secret of ``value`` (:func:`wrapped_strings`; ``trusted``: the names of the places, as a definition's fields): a
    string wrapped in ``value`` is a secret wherever it stands, in a plain key of ``value`` or in another argument of
    the same definition. The block is given that scrub. The secrets are collected when first needed: a value refused.

    >>> hidden = lambda v: v[1] if isinstance(v, tuple) and v[:1] == ("secret",) else v
    >>> with scrubbing_secrets({"pw": ("secret", "s3cret")}, ["v.taint"], hidden):
    ...     raise TestDefinitionError("v.taint[0]", "expected an address, got 's3cret x'")
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: v.taint[0]: expected an address, got '(sensitive) x'
    """
    made: list[Secrets] = []

    def scrub(text: str) -> str:
        if not made:
            made.append(Secrets(wrapped_strings(value, unwrap)).trusting(trusted))
        return made[0].scrub(text)

    try:
        yield scrub
    except TestDefinitionError as exc:
        shown, problem = scrub(exc.where), scrub(exc.problem)
        # A front end writing (the pytest plugin's session) scrubs them from what else it shows of the failing test:
        # its locals hold them in clear (--showlocals), and no runner has told it of them yet.
        met(made[0])
        if (shown, problem) == (exc.where, exc.problem):
            raise
        raise TestDefinitionError(shown, problem) from None
