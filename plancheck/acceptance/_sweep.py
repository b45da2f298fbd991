"""Sweepers: Go's ``resource.AddTestSweepers`` and ``-sweep``, for infrastructure tests left behind.

A sweeper is a function of a region that removes what acceptance tests may have leaked there.
Registered with :func:`AddTestSweepers` (in a test module or ``conftest.py``), they run instead
of the tests when pytest is given ``--tf-sweep=REGIONS`` (``--tf-sweep-run=NAMES`` to choose,
``--tf-sweep-allow-failures`` to go on after a failure), or from a script with
:func:`run_sweepers`. As in Go: dependencies run first, each sweeper once per region, a
``--tf-sweep-run`` name matches any sweeper whose name contains it (ignoring case) and brings
its dependencies along; unlike Go, the order is the order of registration (Go's is random),
and the report names every sweeper that failed, with its region.
"""

from __future__ import annotations

import inspect
import threading
import time
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import field
from typing import Final

from typing_extensions import deprecated

from .._errors import TfCheckError
from .._frozen import FrozenValue, frozen, public, renamed_keywords
from .._text import exception_text
from ._errors import TestDefinitionError

__all__ = [
    "AddTestSweepers",
    "SweepFailedError",
    "SweepResult",
    "Sweeper",
    "filter_sweepers",
    "registered_sweepers",
    "run_sweepers",
]

#: A sweeper function: given a region, remove what tests left there; raise (or return an exception) on failure.
SweeperFunc = Callable[[str], object]

_LOCK: Final = threading.Lock()
_REGISTRY: dict[str, Sweeper] = {}


def _not_run(returned: object) -> str | None:
    """Why a sweeper's returned value shows it did nothing (an ``async def`` or a generator function), else None.

    What it returned is closed, so no "never awaited" warning follows the failure that names it.

    >>> async def sweep(region): pass
    >>> _not_run(sweep("r1"))
    'it returned a coroutine, which nothing runs: a sweeper is a plain function of the region (not async def, no yield)'
    >>> _not_run(None) is None
    True
    """
    kind = "coroutine" if inspect.iscoroutine(returned) else "generator" if inspect.isgenerator(returned) else (
        "async generator" if inspect.isasyncgen(returned) else "awaitable" if inspect.isawaitable(returned) else None)
    if kind is None:
        return None
    close = getattr(returned, "close", None)
    if callable(close) and kind != "async generator":
        close()
    return f"it returned a {kind}, which nothing runs: a sweeper is a plain function of the region (not async def, no yield)"


@public("plancheck.acceptance")
@renamed_keywords(name="Name", f="F", dependencies="Dependencies")
@frozen
class Sweeper(FrozenValue):
    """One sweeper: Go's ``resource.Sweeper``, with Go's field names: its ``Name``, the sweepers to run first
    (``Dependencies``) and the function ``F``.

    ``F(region)`` may raise, or return an exception (Go's ``error``) to fail; anything else is success.

    >>> Sweeper("widget_thing", lambda region: None, Dependencies=["widget_lookup"])
    Sweeper('widget_thing', Dependencies=('widget_lookup',))
    """

    __test__ = False  # not a test class, though its name is close

    Name: str
    F: SweeperFunc = field(repr=False)
    Dependencies: Sequence[str] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.Name, str) or not self.Name:
            raise TestDefinitionError("Sweeper.Name", f"expected a non-empty str, got {self.Name!r}")
        if not callable(self.F):
            raise TestDefinitionError("Sweeper.F", f"expected a function of the region, got {type(self.F).__name__}")
        if isinstance(self.Dependencies, str) or not isinstance(self.Dependencies, Iterable):
            raise TestDefinitionError("Sweeper.Dependencies", f"expected a list of sweeper names, got {self.Dependencies!r}")
        dependencies = tuple(self.Dependencies)
        for i, name in enumerate(dependencies):
            if not isinstance(name, str) or not name:
                raise TestDefinitionError(f"Sweeper.Dependencies[{i}]", f"expected a sweeper name, got {name!r}")
        object.__setattr__(self, "Dependencies", dependencies)

    # The snake_case names, kept working for one release (#34: Go's name is the one name).
    @property
    @deprecated("plancheck.acceptance.Sweeper.name is deprecated; use plancheck.acceptance.Sweeper.Name")
    def name(self) -> str:
        """Deprecated: :attr:`Name`."""
        return self.Name

    @property
    @deprecated("plancheck.acceptance.Sweeper.f is deprecated; use plancheck.acceptance.Sweeper.F")
    def f(self) -> SweeperFunc:
        """Deprecated: :attr:`F`."""
        return self.F

    @property
    @deprecated("plancheck.acceptance.Sweeper.dependencies is deprecated; use plancheck.acceptance.Sweeper.Dependencies")
    def dependencies(self) -> Sequence[str]:
        """Deprecated: :attr:`Dependencies`."""
        return self.Dependencies


@public("plancheck.acceptance")
def AddTestSweepers(name: str, sweeper: Sweeper) -> None:
    """Register ``sweeper`` under ``name`` (Go's ``resource.AddTestSweepers``); a name registers once.

    The same definition registered again (its module imported a second time, as pytest's
    ``pytester`` does) replaces the first; another sweeper under a taken name is an error.

    >>> AddTestSweepers("doc_example", Sweeper("doc_example", lambda region: None))
    >>> AddTestSweepers("doc_example", Sweeper("doc_example", print))
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: AddTestSweepers: a sweeper named 'doc_example' is already registered
    >>> _ = _REGISTRY.pop("doc_example")
    """
    if not isinstance(sweeper, Sweeper):
        raise TestDefinitionError("AddTestSweepers", f"expected a Sweeper, got {type(sweeper).__name__}")
    if not isinstance(name, str) or not name:
        raise TestDefinitionError("AddTestSweepers", f"expected a non-empty name, got {name!r}")
    with _LOCK:
        known = _REGISTRY.get(name)
        if known is not None and _origin(known) != _origin(sweeper):
            raise TestDefinitionError("AddTestSweepers", f"a sweeper named {name!r} is already registered")
        _REGISTRY[name] = sweeper


def _origin(sweeper: Sweeper) -> tuple[object, ...]:
    code = getattr(sweeper.F, "__code__", None)
    where = (code.co_filename, code.co_firstlineno) if code is not None else (id(sweeper.F),)
    return (sweeper.Name, sweeper.Dependencies, *where)


@public("plancheck.acceptance")
def registered_sweepers() -> dict[str, Sweeper]:
    """The sweepers registered so far, by name, in registration order (a copy).

    >>> isinstance(registered_sweepers(), dict)
    True
    """
    with _LOCK:
        return dict(_REGISTRY)


def _names(value: object, where: str) -> list[str]:
    """The names in Go's comma-separated string or a list (any iterable) of str, blanks dropped; else a
    TestDefinitionError. bytes and a mapping are iterables too, of ints and of keys: refused by their type."""
    if isinstance(value, str):
        value = value.split(",")
    elif isinstance(value, (bytes, bytearray, Mapping)) or not isinstance(value, Iterable):
        raise TestDefinitionError(where, f"expected a comma-separated str or a list of str, got {type(value).__name__}")
    items = list(value)
    wrong = [type(item).__name__ for item in items if not isinstance(item, str)]
    if wrong:
        raise TestDefinitionError(where, f"expected a comma-separated str or a list of str, got a list holding {wrong[0]}")
    for item in items:
        try:
            item.encode("utf-8")
        except UnicodeEncodeError:
            # A lone surrogate (a name decoded with surrogateescape) cannot be logged or sent to a provider.
            raise TestDefinitionError(where, f"expected names of Unicode text, got {item!a}") from None
    return [name.strip() for name in items if name.strip()]


def _sweepers(value: object, where: str) -> Mapping[str, Sweeper]:
    """``value`` if it is a mapping (of names to sweepers), else a TestDefinitionError naming ``where``."""
    if not isinstance(value, Mapping):
        raise TestDefinitionError(where, f"expected a mapping of names to Sweeper, got {type(value).__name__}")
    for name, sweeper in value.items():
        if not isinstance(name, str) or not isinstance(sweeper, Sweeper):
            raise TestDefinitionError(
                where, f"expected a mapping of names to Sweeper, got one of {type(name).__name__} to {type(sweeper).__name__}"
            )
    return value


@public("plancheck.acceptance")
def filter_sweepers(run: str | Sequence[str] | None, source: Mapping[str, Sweeper]) -> dict[str, Sweeper]:
    """The sweepers ``run`` chooses (``-sweep-run``): every name containing one of its comma-separated
    words, ignoring case, with their dependencies; all of them when ``run`` is empty.

    >>> source = {n: Sweeper(n, print, deps) for n, deps in
    ...           [("aws_vpc", ["aws_subnet"]), ("aws_subnet", []), ("aws_s3_bucket", [])]}
    >>> list(filter_sweepers("VPC", source))
    ['aws_vpc', 'aws_subnet']
    """
    words = [w.lower() for w in _names(run or (), "filter_sweepers.run")]
    _sweepers(source, "filter_sweepers.source")
    if not words:
        return dict(source)
    chosen: dict[str, Sweeper] = {}
    for name in source:
        if any(word in name.lower() for word in words):
            _with_dependencies(name, source, chosen)
    return {name: source[name] for name in source if name in chosen}


def _with_dependencies(name: str, source: Mapping[str, Sweeper], into: dict[str, Sweeper]) -> None:
    stack = [name]
    while stack:
        current = stack.pop()
        if current in into or current not in source:
            continue  # a missing dependency fails when the sweeper runs, naming both
        into[current] = source[current]
        stack.extend(source[current].Dependencies)


@public("plancheck.acceptance")
@frozen
class SweepResult(FrozenValue):
    """What a sweep did: per region, each sweeper that ran and its error (None when it succeeded).

    >>> SweepResult({"us-east-1": {"a": None, "b": "boom"}}).failures
    [('us-east-1', 'b', 'boom')]
    """

    regions: Mapping[str, Mapping[str, str | None]]

    @property
    def failures(self) -> list[tuple[str, str, str]]:
        """(region, sweeper, error) of every failed sweeper, in the order they ran."""
        return [(r, n, e) for r, ran in self.regions.items() for n, e in ran.items() if e is not None]

    @property
    def ok(self) -> bool:
        """True when every sweeper that ran succeeded."""
        return not self.failures


@public("plancheck.acceptance")
class SweepFailedError(TfCheckError, RuntimeError):
    """At least one sweeper failed (or could not run); ``result`` says which, and where.

    >>> str(SweepFailedError(SweepResult({"r1": {"a": "boom"}})))
    'sweeper a failed in region r1: boom'
    """

    def __init__(self, result: SweepResult) -> None:
        self.result = result
        lines = [f"sweeper {n} failed in region {r}: {e}" for r, n, e in result.failures]
        super().__init__("\n".join(lines))


@public("plancheck.acceptance")
def run_sweepers(
    regions: str | Sequence[str],
    *,
    run: str | Sequence[str] | None = None,
    allow_failures: bool = False,
    sweepers: Mapping[str, Sweeper] | None = None,
    log: Callable[[str], object] = print,
) -> SweepResult:
    """Run the sweepers (the registered ones unless ``sweepers`` is given) in each region, as Go's ``-sweep``.

    ``regions`` is a list or Go's comma-separated string. Without ``allow_failures`` the first
    failure stops the sweep; either way a failure raises :class:`SweepFailedError` at the end,
    naming every sweeper that failed and its region. Whatever a sweeper raises is its failure
    (``sys.exit()`` and ``pytest.fail()`` included, an exception whose ``str()`` fails by its type's
    name), except ``KeyboardInterrupt``: logged as that sweeper's failure, then raised again.

    >>> swept = []
    >>> result = run_sweepers("r1,r2", sweepers={
    ...     "vpc": Sweeper("vpc", lambda r: swept.append(("vpc", r)), ["subnet"]),
    ...     "subnet": Sweeper("subnet", lambda r: swept.append(("subnet", r)))}, log=lambda line: None)
    >>> swept
    [('subnet', 'r1'), ('vpc', 'r1'), ('subnet', 'r2'), ('vpc', 'r2')]
    """
    names = _names(regions, "run_sweepers.regions")
    if not callable(log):
        raise TestDefinitionError("run_sweepers.log", f"expected a function taking a line (str), got {type(log).__name__}")
    if not names:
        raise TestDefinitionError("run_sweepers.regions", "expected at least one region")
    _names(run or (), "run_sweepers.run")
    source = registered_sweepers() if sweepers is None else dict(_sweepers(sweepers, "run_sweepers.sweepers"))
    chosen = filter_sweepers(run, source)
    if not chosen:
        log(f"[sweep] no sweeper matches {run!r}" if run else "[sweep] no sweepers registered")
    outcome: dict[str, dict[str, str | None]] = {}
    for region in names:
        ran: dict[str, str | None] = {}
        outcome[region] = ran
        started = time.monotonic()
        log(f"[sweep] region {region}: {len(chosen)} sweeper(s)")
        for sweeper in chosen.values():
            failed = _run_one(region, sweeper, chosen, ran, allow_failures, log)
            if failed and not allow_failures:
                raise SweepFailedError(SweepResult(outcome))
        log(f"[sweep] region {region} done in {time.monotonic() - started:.2f} s")
    result = SweepResult(outcome)
    if not result.ok:
        raise SweepFailedError(result)
    return result


def _run_one(
    region: str, sweeper: Sweeper, chosen: Mapping[str, Sweeper], ran: dict[str, str | None],
    allow_failures: bool, log: Callable[[str], object],
) -> bool:
    """Run ``sweeper`` after its dependencies (once per region); True when it (or a dependency) failed.

    The walk keeps its own stack (a generator per sweeper): a chain of dependencies thousands long is
    no RecursionError.
    """
    stack = [_visit(region, sweeper, chosen, ran, allow_failures, log, ())]
    answer: bool | None = None
    while True:
        try:
            dependency, chain = stack[-1].send(answer)
        except StopIteration as done:
            stack.pop()
            if not stack:
                return bool(done.value)
            answer = bool(done.value)
            continue
        stack.append(_visit(region, dependency, chosen, ran, allow_failures, log, chain))
        answer = None


def _visit(
    region: str, sweeper: Sweeper, chosen: Mapping[str, Sweeper], ran: dict[str, str | None],
    allow_failures: bool, log: Callable[[str], object], chain: tuple[str, ...],
) -> Generator[tuple[Sweeper, tuple[str, ...]], bool | None, bool]:
    """One sweeper's part of :func:`_run_one`: yields each dependency to run first, is sent whether it failed."""
    if sweeper.Name in ran:
        # Done in this region, and its dependencies before it: walking them again made every later
        # sweeper of a long chain walk the whole chain (cubic in its length).
        return ran[sweeper.Name] is not None
    if sweeper.Name in chain:
        ran[sweeper.Name] = "its dependencies lead back to it: " + " -> ".join((*chain, sweeper.Name))
        return True
    for dependency in sweeper.Dependencies:
        found = chosen.get(dependency)
        if found is None:
            ran[sweeper.Name] = f"it depends on sweeper {dependency}, which is not registered"
            log(f"[sweep] {sweeper.Name} ({region}): FAILED: {ran[sweeper.Name]}")
            return True
        failed = yield found, (*chain, sweeper.Name)
        if failed and not allow_failures:
            return True
    if sweeper.Name in ran:  # its dependencies led back to it (allow_failures): the cycle is its failure
        return ran[sweeper.Name] is not None
    started = time.monotonic()
    try:
        returned = sweeper.F(region)
        error = exception_text(returned) if isinstance(returned, BaseException) else _not_run(returned)
    except KeyboardInterrupt:
        # Still an interrupt (the sweep stops and the caller sees it), once this sweeper is named as its failure.
        ran[sweeper.Name] = "KeyboardInterrupt (the sweep stops)"
        log(f"[sweep] {sweeper.Name} ({region}): FAILED: {ran[sweeper.Name]}")
        raise
    except BaseException as exc:
        # pytest.fail(), pytest.skip() and sys.exit() raise BaseExceptions: a sweeper's failure all the
        # same, never an INTERNALERROR (nor a silent end) that ends the session without the report.
        error = exception_text(exc)
    ran[sweeper.Name] = error
    took = time.monotonic() - started
    log(f"[sweep] {sweeper.Name} ({region}): " + ("ok" if error is None else f"FAILED: {error}") + f" ({took:.2f} s)")
    return error is not None
